// texcv::batch::end_process: an exit that leaves the driver's teardown to a helper process.
//
// A process's exit frees its address space (exit_mm) and then drops its descriptor table
// (exit_files); whoever drops the last reference to either does the work. After a GPU run that
// work is the driver's: closing /dev/nvidia* releases the CUDA context, and unmapping frees the
// pinned and device mappings (0.15-0.3 s on the H200, measured by bench/batch/exit_teardown).
// A helper made with clone(CLONE_VM | CLONE_FILES) holds a reference to both, so this process's
// own exit only drops references and its parent's waitpid returns at once. The helper waits
// until this process is gone (its parent changes) and exits, and the teardown runs then.
//
// Everything that a user can see from outside is settled before the helper is made: stdio is
// flushed, and the descriptors of files, folders, pipes and sockets are closed (the output
// folder's flock is released, a pipe's reader sees its end). Character devices (the driver's)
// and anonymous inodes (the driver's event fds) stay open for the helper.
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "texcv/batch.hpp"

namespace texcv::batch {

namespace {

long g_parent_pid = 0;
alignas(64) unsigned char g_helper_stack[64 * 1024];

// The helper shares the address space but is not a thread libc knows of: raw system calls
// only, on its own stack, with every signal blocked (inherited from the caller's mask).
int helper_main(void*) {
  const timespec one_ms{0, 1000000};
  while (syscall(SYS_getppid) == g_parent_pid) syscall(SYS_nanosleep, &one_ms, nullptr);
  syscall(SYS_exit, 0);
  return 0;
}

// Closes the descriptors whose being open someone outside could notice; keeps the driver's.
void close_visible_descriptors() {
  std::vector<int> fds;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    const int own = ::dirfd(d);
    while (const dirent* e = ::readdir(d)) {
      char* end = nullptr;
      const long fd = std::strtol(e->d_name, &end, 10);
      if (end != e->d_name && *end == '\0' && fd != own) fds.push_back(static_cast<int>(fd));
    }
    ::closedir(d);
  }
  for (const int fd : fds) {
    struct stat st {};
    if (fd <= STDERR_FILENO ||
        (::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
                                   S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))))
      ::close(fd);
  }
  for (int fd = 0; fd <= STDERR_FILENO; ++fd) ::close(fd);  // also when /proc is not mounted
}

}  // namespace

void end_process(int status) noexcept {
  std::fflush(nullptr);
  const char* env = std::getenv("TEXCV_EXIT_HANDOFF");
  if (env != nullptr && std::strcmp(env, "0") == 0) std::_Exit(status);
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);  // the helper inherits the mask
  g_parent_pid = static_cast<long>(::getpid());
  const int helper = ::clone(helper_main, g_helper_stack + sizeof g_helper_stack,
                             CLONE_VM | CLONE_FILES | CLONE_FS | SIGCHLD, nullptr);
  // Without a helper the exit below does the teardown itself, as before; the descriptors are
  // closed either way.
  (void)helper;
  close_visible_descriptors();
  std::_Exit(status);
}

}  // namespace texcv::batch
