// texcv::batch::end_process: the exit status, stdio and locks as a plain exit leaves them, and
// the helper that takes the teardown ends once the process is gone. A forked child calls it;
// this test process is made a child subreaper so that the orphaned helper comes back to it.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "texcv/batch.hpp"

namespace fs = std::filesystem;

namespace {

struct Ended {
  int status = -1;         // the child's exit status (-1: it did not exit normally)
  std::string out;         // what it wrote to stdout, read to the end of the pipe
  std::vector<int> other;  // exit statuses of the other processes reaped (the helper)
};

// Forks a child that takes a lock on `locked`, holds 256 MiB of touched memory, writes to
// stdout without flushing, and calls end_process(7). Reaps it and then every other child that
// comes to this process within 10 s.
Ended run_child(const fs::path& locked, bool handoff) {
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  EXPECT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    if (!handoff) ::setenv("TEXCV_EXIT_HANDOFF", "0", 1);
    const int fd = ::open(locked.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) std::_Exit(90);
    const std::size_t bytes = std::size_t{256} << 20;
    auto* mem = static_cast<unsigned char*>(std::malloc(bytes));
    if (mem == nullptr) std::_Exit(91);
    std::memset(mem, 1, bytes);
    if (*static_cast<volatile unsigned char*>(mem + bytes - 1) != 1) std::_Exit(92);  // kept
    std::fputs("written before the end", stdout);  // left in stdio's buffer
    texcv::batch::end_process(7);
  }
  ::close(pipe_fds[1]);
  Ended r;
  char buf[256];
  ssize_t n;
  while ((n = ::read(pipe_fds[0], buf, sizeof buf)) > 0) r.out.append(buf, static_cast<size_t>(n));
  ::close(pipe_fds[0]);
  int st = 0;
  EXPECT_EQ(::waitpid(child, &st, 0), child);
  if (WIFEXITED(st)) r.status = WEXITSTATUS(st);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    const pid_t p = ::waitpid(-1, &st, WNOHANG);
    if (p > 0) {
      r.other.push_back(WIFEXITED(st) ? WEXITSTATUS(st) : -1);
      if (handoff) break;  // the one helper is back
    } else if (p < 0) {
      break;  // no children left
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  EXPECT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
  return r;
}

// The lock the child held, taken right after its waitpid returned: free, because end_process
// closed the folder's descriptor before the helper could keep it.
bool lock_free(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return ok;
}

class BatchExit : public ::testing::TestWithParam<bool> {};

TEST_P(BatchExit, StatusOutputAndLockAsAPlainExit) {
  const bool handoff = GetParam();
  const fs::path dir = fs::temp_directory_path() /
                       ("texcv_exit_" + std::to_string(::getpid()) + (handoff ? "h" : "p"));
  fs::create_directories(dir);
  const Ended r = run_child(dir, handoff);
  EXPECT_EQ(r.status, 7);
  EXPECT_EQ(r.out, "written before the end");
  EXPECT_TRUE(lock_free(dir)) << "the output folder's lock outlived the process";
  if (handoff) {
    // The helper was reparented to this process when the child ended, and exited with 0.
    ASSERT_EQ(r.other.size(), 1u) << "no helper process came back within 10 s";
    EXPECT_EQ(r.other[0], 0);
  } else {
    EXPECT_TRUE(r.other.empty()) << "TEXCV_EXIT_HANDOFF=0 still made a helper";
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(HandoffOrNot, BatchExit, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Handoff" : "PlainExit"; });

}  // namespace
