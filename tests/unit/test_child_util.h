/*
 * test_child_util.h — running a test body in a child process with one of
 * metalcuda's libraries loaded fresh (dlopen of lib/NAME): its failures
 * (EXPECT, EXPECT_RC, a missing symbol) come back through a pipe and a
 * crash is reported, so they become the parent test's.  For the unit
 * tests that call the libraries as a program does (test_darkapi.c,
 * test_api_batch.c).  Include after harness.h; static, as
 * test_core_util.h.
 */
#ifndef MC_TEST_CHILD_UTIL_H
#define MC_TEST_CHILD_UTIL_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int child_fd = -1;
static void *lib;
static const char *lib_name;

static void child_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void child_fail(const char *file, int line, const char *fmt, ...)
{
   char buf[512];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   dprintf(child_fd, "%s:%d: %s\n", file, line, buf);
}

#define EXPECT(cond) do { if (!(cond)) child_fail(__FILE__, __LINE__, "EXPECT(%s)", #cond); } while (0)
#define EXPECT_RC(call, want)                                                                     \
   do {                                                                                           \
      int r_ = (call);                                                                            \
      if (r_ != (want))                                                                           \
         child_fail(__FILE__, __LINE__, "%s returned %d, expected %d", #call, r_, (int)(want));   \
   } while (0)

static void *sym(const char *name)
{
   void *f = dlsym(lib, name);
   if (!f)
      child_fail(__FILE__, __LINE__, "%s lacks %s", lib_name, name);
   return f;
}

/* Runs body in a child with lib/NAME loaded fresh (METALCUDA_LOG=error
 * there when quiet: warnings the body expects); its failures and a crash
 * become this test's. */
static void in_child_with(const char *name, bool quiet, void (*body)(void))
{
   int p[2];
   CHECK(pipe(p) == 0);
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      close(p[0]);
      child_fd = p[1];
      lib_name = name;
      char *path = NULL;
      if (quiet)
         setenv("METALCUDA_LOG", "error", 1);
      if (asprintf(&path, "%s/../lib/%s", test_srcdir(), name) < 0)
         _exit(2);
      lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!lib)
         dprintf(child_fd, "dlopen %s: %s\n", path, dlerror());
      else
         body();
      _exit(0);
   }
   close(p[1]);
   char out[8192];
   size_t n = 0;
   ssize_t k;
   while (n < sizeof(out) - 1 && (k = read(p[0], out + n, sizeof(out) - 1 - n)) > 0)
      n += (size_t)k;
   out[n] = 0;
   close(p[0]);
   int status = 0;
   waitpid(pid, &status, 0);
   CHECK_MSG(!WIFSIGNALED(status), "the child was killed by signal %d%s%s", WTERMSIG(status), n ? " after: " : "",
             out);
   CHECK_MSG(n == 0, "%s", out);
}

#endif
