// Ctrl-C in the real `floe` shell, driven through a pseudo-terminal: it cancels the running
// statement within a short time (PostgreSQL's "canceling statement due to user request"),
// the session and its in-memory data stay, and at the prompt it drops the line being typed.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace floe {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kCanceled = "Error: canceling statement due to user request";

// The shell on the child side of a pseudo-terminal, so that it runs interactively.
class ShellOnTerminal {
 public:
  ShellOnTerminal() {
    char home[] = "/tmp/floe_shell_home_XXXXXX";
    home_ = mkdtemp(home) ? home : "";
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      setenv("HOME", home_.c_str(), 1);  // the history file goes there
      execl(FLOE_SHELL_BINARY, "floe", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~ShellOnTerminal() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
    if (!home_.empty()) std::filesystem::remove_all(home_);
  }

  bool started() const { return pid_ > 0 && fd_ >= 0; }

  void send(std::string_view keys) {
    while (!keys.empty()) {
      ssize_t n = write(fd_, keys.data(), keys.size());
      if (n <= 0) return;
      keys.remove_prefix(static_cast<size_t>(n));
    }
  }

  // The output up to and including the first `text` not read before; "" on timeout.
  std::string read_until(std::string_view text, milliseconds timeout = milliseconds(60000)) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
      size_t at = pending_.find(text);
      if (at != std::string::npos) {
        std::string out = pending_.substr(0, at + text.size());
        pending_.erase(0, at + text.size());
        return out;
      }
      auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return "";
      pollfd wait = {fd_, POLLIN, 0};
      if (poll(&wait, 1, static_cast<int>(left)) <= 0) continue;
      char buffer[4096];
      ssize_t n = read(fd_, buffer, sizeof buffer);
      if (n <= 0) return "";  // the shell is gone
      pending_.append(buffer, static_cast<size_t>(n));
    }
  }

  // Waits for the shell to end; its exit status, or -1.
  int exit_status() {
    int status = 0;
    if (waitpid(pid_, &status, 0) != pid_) return -1;
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  std::string home_;
  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string pending_;
};

constexpr const char* kPrompt = "floe> ";

TEST(ShellInterruptTest, CtrlCCancelsTheStatementAndKeepsTheSession) {
  ShellOnTerminal shell;
  ASSERT_TRUE(shell.started());
  ASSERT_NE(shell.read_until(kPrompt), "");
  // 2^16 rows: a three-way cross product of them would run for days.
  std::string load = "create table many (x integer); insert into many values (1), (2);";
  for (int i = 0; i < 15; ++i) load += " insert into many select x + 1 from many;";
  shell.send(load + "\n");
  ASSERT_NE(shell.read_until("INSERT 0 32768"), "");
  ASSERT_NE(shell.read_until(kPrompt), "");

  for (int attempt = 0; attempt < 3; ++attempt) {
    shell.send("select count(*) from many a, many b, many c;\n");
    shell.read_until("select count(*) from many a, many b, many c;");  // the echo
    usleep(300'000);                                                   // it is running now
    auto pressed = Clock::now();
    shell.send("\x03");
    std::string output = shell.read_until(kCanceled, milliseconds(10000));
    double latency_ms = std::chrono::duration<double, std::milli>(Clock::now() - pressed).count();
    ASSERT_NE(output, "") << "no cancel message";
    std::printf("Ctrl-C to cancel message: %.1f ms\n", latency_ms);
    EXPECT_LT(latency_ms, 2000);  // typically a few ms; generous for noisy machines
    ASSERT_NE(shell.read_until(kPrompt), "");
  }

  // CALL dbgen too; a canceled load leaves no table behind.
  shell.send("call dbgen(1);\n");
  usleep(500'000);
  shell.send("\x03");
  ASSERT_NE(shell.read_until(kCanceled, milliseconds(10000)), "");
  ASSERT_NE(shell.read_until(kPrompt), "");
  shell.send("select count(*) from lineitem;\n");
  ASSERT_NE(shell.read_until("relation \"lineitem\" does not exist"), "");

  // The data are still there.
  shell.send("select count(*), max(x) from many;\n");
  std::string answer = shell.read_until("(1 row)");
  EXPECT_NE(answer.find("65536"), std::string::npos) << answer;
  EXPECT_NE(answer.find("17"), std::string::npos) << answer;
  shell.send(".quit\n");
  EXPECT_EQ(shell.exit_status(), 0);
}

TEST(ShellInterruptTest, CtrlCAtThePromptDropsTheLine) {
  ShellOnTerminal shell;
  ASSERT_TRUE(shell.started());
  ASSERT_NE(shell.read_until(kPrompt), "");
  // A half-typed line is dropped...
  shell.send("select 'dropped' as x");
  shell.read_until("as x");
  shell.send("\x03");
  ASSERT_NE(shell.read_until(kPrompt), "");
  // ... and so is an unfinished statement on earlier lines.
  shell.send("select 'dropped too' as y\n");
  ASSERT_NE(shell.read_until("...> "), "");
  shell.send("\x03");
  ASSERT_NE(shell.read_until(kPrompt), "");
  shell.send("select 6 * 7 as answer;\n");
  std::string output = shell.read_until("(1 row)");
  EXPECT_NE(output.find("42"), std::string::npos) << output;
  EXPECT_EQ(output.find("dropped"), std::string::npos) << output;
  shell.send(".quit\n");
  EXPECT_EQ(shell.exit_status(), 0);
}

}  // namespace
}  // namespace floe
