/*
 * clang.c — the programs the drivers run: finding a clang that can compile
 * CUDA to PTX and the llvm-nm beside it (the device link lists symbols
 * with it), and running a command line as nvcc -v shows it.
 *
 * Clang is found, not configured: $METALCUDA_CLANG, else the newest
 * versioned clang on PATH (Debian installs clang-19 beside an older
 * default clang), else Homebrew's LLVM (macOS), else plain clang.  Each
 * candidate must list the nvptx64 target in -print-targets: Apple's Xcode
 * clang has none, and saying so beats a cryptic "unknown target" later.
 */
#include "toolchain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

extern char **environ;

static void *xrealloc(void *p, size_t n)
{
   void *q = realloc(p, n);
   if (!q) {
      fprintf(stderr, "metalcuda: out of memory\n");
      exit(1);
   }
   return q;
}

void tc_argv_push(tc_argv *a, const char *s)
{
   if (a->n + 2 > a->cap) {
      a->cap = a->cap ? a->cap * 2 : 32;
      a->v = xrealloc(a->v, sizeof(char *) * (size_t)a->cap);
   }
   size_t l = strlen(s) + 1;
   a->v[a->n] = memcpy(xrealloc(NULL, l), s, l);
   a->v[++a->n] = NULL;
}

void tc_argv_pushf(tc_argv *a, const char *fmt, ...)
{
   char buf[PATH_MAX + 256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   tc_argv_push(a, buf);
}

void tc_argv_free(tc_argv *a)
{
   for (int i = 0; i < a->n; i++)
      free(a->v[i]);
   free(a->v);
   memset(a, 0, sizeof(*a));
}

/* One word as a shell would need it quoted, for -v output. */
static void print_word(FILE *f, const char *s)
{
   if (*s && !strpbrk(s, " \t\n'\"\\$`*?[]{}()<>|&;#~")) {
      fputs(s, f);
      return;
   }
   fputc('\'', f);
   for (; *s; s++) {
      if (*s == '\'')
         fputs("'\\''", f);
      else
         fputc(*s, f);
   }
   fputc('\'', f);
}

int tc_run(const tc_argv *argv, bool verbose, bool dryrun)
{
   return tc_run_to(argv, verbose, dryrun, NULL, NULL);
}

int tc_run_out(const tc_argv *argv, bool verbose, bool dryrun, const char *out)
{
   return tc_run_to(argv, verbose, dryrun, out, NULL);
}

int tc_run_to(const tc_argv *argv, bool verbose, bool dryrun, const char *out, const char *err)
{
   pid_t pid;
   int rc = tc_spawn(argv, verbose, dryrun, out, err, &pid);
   return rc || dryrun ? rc : tc_wait(argv->v[0], pid);
}

int tc_spawn(const tc_argv *argv, bool verbose, bool dryrun, const char *out, const char *err,
             pid_t *pid)
{
   if (verbose || dryrun) {
      fputs("#$ ", stderr);
      for (int i = 0; i < argv->n; i++) {
         if (i)
            fputc(' ', stderr);
         print_word(stderr, argv->v[i]);
      }
      fputc('\n', stderr);
   }
   if (dryrun)
      return 0;
   fflush(stdout);
   fflush(stderr);
   posix_spawn_file_actions_t fa;
   int e = posix_spawn_file_actions_init(&fa);
   if (!e && out)
      e = posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (!e && err)
      e = posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
   if (!e)
      e = posix_spawnp(pid, argv->v[0], &fa, NULL, argv->v, environ);
   posix_spawn_file_actions_destroy(&fa);
   if (e) {
      fprintf(stderr, "metalcuda: cannot run %s: %s\n", argv->v[0], strerror(e));
      return 127;
   }
   return 0;
}

int tc_wait(const char *name, pid_t pid)
{
   int st;
   while (waitpid(pid, &st, 0) < 0)
      if (errno != EINTR)
         return 127;
   if (WIFEXITED(st))
      return WEXITSTATUS(st);
   fprintf(stderr, "metalcuda: %s killed by signal %d\n", name, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
   return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Whether cmd names an executable: a path, or a name found on PATH. */
static bool executable(const char *cmd)
{
   if (strchr(cmd, '/'))
      return access(cmd, X_OK) == 0;
   const char *path = getenv("PATH");
   if (!path)
      return false;
   char buf[PATH_MAX];
   for (const char *p = path; *p;) {
      const char *c = strchr(p, ':');
      size_t l = c ? (size_t)(c - p) : strlen(p);
      if (l && l + strlen(cmd) + 2 < sizeof(buf)) {
         memcpy(buf, p, l);
         buf[l] = '/';
         strcpy(buf + l + 1, cmd);
         if (access(buf, X_OK) == 0)
            return true;
      }
      p += l + (c != NULL);
   }
   return false;
}

/* What `clang -print-targets` and `--version` say: 1 = has nvptx64, 0 = runs
 * without it, -1 = does not run.  *apple tells Apple's clang apart. */
static int has_nvptx(const char *clang, bool *apple)
{
   char cmd[2 * PATH_MAX + 96];
   snprintf(cmd, sizeof(cmd), "'%s' --version 2>/dev/null && '%s' -print-targets 2>/dev/null", clang, clang);
   FILE *p = popen(cmd, "r");
   if (!p)
      return -1;
   char line[512];
   int found = 0;
   bool any = false;
   while (fgets(line, sizeof(line), p)) {
      any = true;
      if (strstr(line, "Apple clang"))
         *apple = true;
      if (strstr(line, "nvptx64"))
         found = 1;
   }
   int st = pclose(p);
   return any && st == 0 ? found : -1;
}

const char *tc_find_clang(char *err, size_t errlen)
{
   static char chosen[PATH_MAX];
   if (chosen[0])
      return chosen;
   const char *env = getenv("METALCUDA_CLANG");
   const char *cands[24];
   int n = 0;
   char versioned[12][16];
   if (env && *env) {
      cands[n++] = env;
   } else {
      for (int v = 22; v >= 15; v--) {
         snprintf(versioned[22 - v], sizeof(versioned[0]), "clang-%d", v);
         cands[n++] = versioned[22 - v];
      }
      cands[n++] = "/opt/homebrew/opt/llvm/bin/clang";
      cands[n++] = "/usr/local/opt/llvm/bin/clang";
      cands[n++] = "clang";
   }
   bool apple = false, seen = false;
   for (int i = 0; i < n; i++) {
      if (!executable(cands[i]))
         continue;
      seen = true;
      bool a = false;
      int r = has_nvptx(cands[i], &a);
      apple |= a;
      if (r == 1) {
         snprintf(chosen, sizeof(chosen), "%s", cands[i]);
         return chosen;
      }
   }
   if (apple)
      snprintf(err, errlen, "Apple's clang has no NVPTX back end; install Homebrew's LLVM "
                            "(brew install llvm) or set METALCUDA_CLANG to a clang that has one");
   else if (seen)
      snprintf(err, errlen, "no clang on PATH has the NVPTX back end (clang -print-targets lists no "
                            "nvptx64); install clang-19 or set METALCUDA_CLANG");
   else
      snprintf(err, errlen, "no clang found%s; install clang-19 (Debian/Ubuntu: apt install clang-19) "
                            "or set METALCUDA_CLANG", env && *env ? " at $METALCUDA_CLANG" : "");
   return NULL;
}

/* The program `tool` beside clang, versioned as it is (clang-19 ->
 * tool-19, /x/clang -> /x/tool) in buf; false if there is none. */
static bool beside_clang(const char *clang, const char *tool, char *buf, size_t len)
{
   const char *base = strrchr(clang, '/');
   base = base ? base + 1 : clang;
   const char *dash = strchr(base, '-');
   size_t dir = (size_t)(base - clang);
   if (strncmp(base, "clang", 5) != 0 ||
       (size_t)snprintf(buf, len, "%.*s%s%s", (int)dir, clang, tool, dash ? dash : "") >= len)
      return false;
   return executable(buf);
}

const char *tc_clangxx(const char *clang)
{
   static char buf[PATH_MAX];
   return beside_clang(clang, "clang++", buf, sizeof(buf)) ? buf : clang;
}

const char *tc_nm(const char *clang)
{
   static char buf[PATH_MAX];
   return beside_clang(clang, "llvm-nm", buf, sizeof(buf)) ? buf : "nm";
}

bool tc_root(char *out, size_t len)
{
   char exe[PATH_MAX];
#if defined(__APPLE__)
   uint32_t n = sizeof(exe);
   if (_NSGetExecutablePath(exe, &n) != 0)
      return false;
   char real[PATH_MAX];
   if (realpath(exe, real))
      snprintf(exe, sizeof(exe), "%s", real);
#else
   ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
   if (n <= 0)
      return false;
   exe[n] = 0;
#endif
   /* .../bin/metalcuda -> ... */
   for (int i = 0; i < 2; i++) {
      char *slash = strrchr(exe, '/');
      if (!slash)
         return false;
      *slash = 0;
   }
   if (strlen(exe) + 1 > len)
      return false;
   snprintf(out, len, "%s", exe[0] ? exe : "/");
   return true;
}
