// Ctrl-C in the interactive shell, as in psql: while a statement runs it cancels the
// statement (Connection::cancel); at the prompt it drops the line being typed and any
// unfinished statement. The session and its in-memory data stay either way.
#pragma once

#include "engine/api/floe.h"

namespace floe {

// Installs the SIGINT handler for `connection` (once, in the interactive shell). The handler
// only does async-signal-safe work: Connection::cancel() and a byte into a self-pipe, which
// the line reader waits on next to the terminal, whichever thread got the signal.
void install_interrupt_handler(api::Connection& connection);

// The self-pipe's read end: readable while a Ctrl-C is not yet taken (-1 before installing).
int interrupt_fd();

// Whether Ctrl-C came since the last call; clears the mark.
bool take_interrupt();

}  // namespace floe
