#include "shell/interrupt.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>

namespace floe {

namespace {

api::Connection* interrupted_connection = nullptr;
int pipe_fds[2] = {-1, -1};

void on_interrupt(int) {
  int saved_errno = errno;
  if (interrupted_connection) interrupted_connection->cancel();
  char byte = 1;
  [[maybe_unused]] ssize_t written = write(pipe_fds[1], &byte, 1);  // full pipe: marked already
  errno = saved_errno;
}

}  // namespace

void install_interrupt_handler(api::Connection& connection) {
  if (pipe(pipe_fds) != 0) throw std::runtime_error("cannot create the interrupt pipe");
  for (int fd : pipe_fds) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  interrupted_connection = &connection;
  struct sigaction action = {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking poll() returns
  sigaction(SIGINT, &action, nullptr);
}

int interrupt_fd() {
  return pipe_fds[0];
}

bool take_interrupt() {
  if (pipe_fds[0] < 0) return false;
  bool any = false;
  char buffer[64];
  while (read(pipe_fds[0], buffer, sizeof buffer) > 0) any = true;
  return any;
}

}  // namespace floe
