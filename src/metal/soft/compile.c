/*
 * compile.c — MSL to a loaded shared object: the host C++ compiler, the
 * on-disk cache, diagnostics.
 *
 * A library's key is sha256(format version, compiler identity, flags, shim
 * digest, source with its prelude by digest); the compiled object is
 * <cache>/soft/<key>.so, so a hit costs one hash of the source after the
 * prelude and a dlopen (no translation unit is built: key_add_tu).  Misses compile in a private temporary
 * directory under the cache and rename() the result into place: concurrent
 * processes never see a partial file, and two that race write the same
 * bytes.
 *
 * The compiler identity is its `--version` output plus the binary's path,
 * size and modification time.  Running `--version` costs ~50 ms, so its
 * output is cached on disk under the stat facts (cxx-<hash>.txt) and in
 * memory: a cache hit never starts a process.
 *
 * The compiler's prelude (the helpers every translated library starts
 * with) is compiled once into a precompiled header and reused (see "the
 * precompiled prelude" below).  The compiler's identity, the linker's
 * command and the precompiled prelude are sought in the prepared
 * directory (prepared.c) where the cache has none.
 *
 * Compiling is two steps, -c then link: the object alone is checked for
 * writable data (objcheck.c) and its kernels that need fibers are marked
 * (fibercheck.c) before the C runtime start-up code is mixed in.  An
 * undefined function must fail the link, as it would in Metal's compiler,
 * not the dlopen: on Linux that takes -Wl,-z,defs; on macOS it is ld64's
 * default (-undefined error, which link_args() states anyway), and the
 * result is a -dynamiclib that dlopen loads like a .so.  Both object
 * formats (ELF, Mach-O) are read by objfile.c.  The link runs the system
 * linker with the command the driver gave for it once (see "linking"
 * below), the driver itself when that fails.
 */
#include "soft.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

LOG_CHANNEL(soft);

extern char **environ;

#define CACHE_FORMAT "metalcuda-soft-cache-1"

static _Atomic uint64_t compiles;

uint64_t soft_compile_count(void) { return compiles; }

/* ---- cache directory ---- */

static char cache_base[4096];
static pthread_once_t base_once = PTHREAD_ONCE_INIT;

static void init_base(void)
{
   const char *d = cache_dir();
   if (d && *d)
      snprintf(cache_base, sizeof(cache_base), "%s/soft", d);
   else
      snprintf(cache_base, sizeof(cache_base), "/tmp/metalcuda-%u/soft", (unsigned)getuid());
   dir_create_all(cache_base);
}

const char *soft_cache_base(void)
{
   pthread_once(&base_once, init_base);
   return cache_base;
}

/* ---- the host compiler ---- */

typedef struct compiler {
   char path[PATH_MAX];
   char *identity;           /* --version output + stat facts */
   int llvm_major;           /* LLVM release it is built on; 0 if unknown */
} compiler;

static compiler cxx;
static pthread_mutex_t cxx_lock = PTHREAD_MUTEX_INITIALIZER;
static bool cxx_done;

static bool find_in_path(const char *name, char *out, size_t cap)
{
   if (strchr(name, '/')) {
      snprintf(out, cap, "%s", name);
      return access(out, X_OK) == 0;
   }
   const char *path = getenv("PATH");
   if (!path || !*path)
      path = "/usr/local/bin:/usr/bin:/bin";
   while (*path) {
      const char *colon = strchr(path, ':');
      size_t n = colon ? (size_t)(colon - path) : strlen(path);
      snprintf(out, cap, "%.*s/%s", (int)n, path, name);
      if (n && access(out, X_OK) == 0)
         return true;
      path += n + (colon ? 1 : 0);
   }
   return false;
}

/* METALCUDA_CXX, else the newest clang++-NN (NN >= 15: _Float16 on x86),
 * else clang++. */
static bool locate_compiler(char *out, size_t cap)
{
   const char *env = getenv("METALCUDA_CXX");
   if (env && *env)
      return find_in_path(env, out, cap);
   for (int v = 40; v >= 15; v--) {
      char name[32];
      snprintf(name, sizeof(name), "clang++-%d", v);
      if (find_in_path(name, out, cap))
         return true;
   }
   return find_in_path("clang++", out, cap);
}

/* Runs argv with stdout and stderr to log_path; returns the exit status
 * (-1 if it could not run). */
static int run_logged(char *const argv[], const char *log_path)
{
   posix_spawn_file_actions_t fa;
   if (posix_spawn_file_actions_init(&fa))
      return -1;
   posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
   posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   posix_spawn_file_actions_adddup2(&fa, 1, 2);
   pid_t pid;
   int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
   posix_spawn_file_actions_destroy(&fa);
   if (rc)
      return -1;
   int status;
   while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR)
         return -1;
   return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *compiler_version(const char *path, const char *stat_key)
{
   char hex[65], name[64], file[4200], tmp[4300];
   sha256_hex(stat_key, strlen(stat_key), hex);
   snprintf(name, sizeof(name), "cxx-%.16s.txt", hex);
   snprintf(file, sizeof(file), "%s/%s", soft_cache_base(), name);
   char *text = file_read(file, NULL);
   if (!text && soft_prepared_path(name, tmp, sizeof(tmp)))
      text = file_read(tmp, NULL);
   if (text)
      return text;
   snprintf(tmp, sizeof(tmp), "%s.%d.tmp", file, (int)getpid());
   char *argv[] = {(char *)path, "--version", NULL};
   if (run_logged(argv, tmp) != 0) {
      unlink(tmp);
      return NULL;
   }
   text = file_read(tmp, NULL);
   if (text && rename(tmp, file) != 0)
      unlink(tmp);
   return text;
}

/* The LLVM major version from `--version` ("clang version 14.0.6", "Apple
 * clang version 16.0.0"); 0 if it is not clang.  Apple clang 15 and later
 * are one behind the LLVM they are built on (15 = LLVM 16, 16 = LLVM 17);
 * Apple clang 14.0.3 (LLVM 15) counts as 14, whose half flags LLVM 15
 * still accepts.  From Apple's release notes, not checked on a Mac. */
static int llvm_major(const char *version)
{
   const char *p = strstr(version, "clang version ");
   if (!p)
      return 0;
   bool apple = p >= version + 6 && !strncmp(p - 6, "Apple ", 6);
   int n = atoi(p + strlen("clang version "));
   return apple && n >= 15 ? n + 1 : n;
}

static bool init_compiler(char **err)
{
   if (!locate_compiler(cxx.path, sizeof(cxx.path))) {
      mtl_set_err(err, "no host C++ compiler for the software Metal device: install clang++ "
                  "(version 17 or newer for bfloat) or set METALCUDA_CXX");
      return false;
   }
   char real[PATH_MAX];
   struct stat st;
   if (!realpath(cxx.path, real) || stat(real, &st) != 0) {
      mtl_set_err(err, "cannot stat the host compiler %s", cxx.path);
      return false;
   }
   char key[PATH_MAX + 128];
#if defined(__APPLE__)
   const struct timespec *mt = &st.st_mtimespec;    /* POSIX 2008's st_mtim, under Darwin's name */
#else
   const struct timespec *mt = &st.st_mtim;
#endif
   snprintf(key, sizeof(key), "%s|%lld|%lld.%09ld|%llu", real, (long long)st.st_size,
            (long long)mt->tv_sec, (long)mt->tv_nsec, (unsigned long long)st.st_ino);
   char *ver = compiler_version(cxx.path, key);
   if (!ver) {
      mtl_set_err(err, "the host compiler %s does not run (%s --version failed)", cxx.path, cxx.path);
      return false;
   }
   cxx.llvm_major = llvm_major(ver);
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "%s\n%s", ver, key);
   free(ver);
   cxx.identity = strbuf_take(&b);
   if (!cxx.identity) {
      mtl_set_err(err, "out of memory");
      return false;
   }
   LOG_INFO("host compiler %s", cxx.path);
   return true;
}

/* The compiler, found once per process (a failure is retried: it may be
 * an injected fault). */
static const compiler *get_compiler(char **err)
{
   pthread_mutex_lock(&cxx_lock);
   bool ok = cxx_done || (cxx_done = init_compiler(err));
   pthread_mutex_unlock(&cxx_lock);
   return ok ? &cxx : NULL;
}

/* ---- flags and the translation unit ---- */

/* Every translation unit's start: the shim and MSL's prohibitions. */
#define TU_PREAMBLE "#include <metal_stdlib>\n#pragma clang poison double goto thread_local\n"

/* What clang compiles: the shim, MSL's prohibitions, the user's source at
 * line 1 of "program_source", then the generated entries (key_add_tu
 * hashes the same parts). */
#define TU_HEAD TU_PREAMBLE "#line 1 \"program_source\"\n"
#define TU_ENTRY "\n#line 1 \"__mc_entry\"\n"

static char *build_tu(const soft_scan *sc)
{
   strbuf b;
   strbuf_init(&b);
   strbuf_puts(&b, TU_HEAD);
   strbuf_puts(&b, sc->source);
   strbuf_puts(&b, TU_ENTRY);
   strbuf_puts(&b, sc->entries);
   return strbuf_take(&b);
}

/* ---- the precompiled prelude ----
 *
 * The compiler's MSL repeats the same ~240 KB of helpers (its prelude) in
 * front of every library, and parsing it was about half of a small
 * kernel's compile (saxpy: 0.24 s, 0.11 s with the prelude precompiled).
 * A source whose first line that is not a comment is
 * `#include <metal_stdlib>`, and which has a line PRELUDE_END further on
 * (msl_emit_header writes it), has the text in between compiled once into
 * a clang precompiled header, <cache>/soft/pch-<key>.pch, keyed like a
 * library by compiler, flags, shim and that text.  The rest is compiled
 * with -include-pch after a #line that keeps every diagnostic's line; the
 * object is the same code.  Any failure falls back to compiling the whole
 * translation unit, so the precompiled header can only save time. */

static unsigned lines_before(const char *s, const char *end)
{
   unsigned n = 1;
   for (; s < end; s++)
      n += *s == '\n';
   return n;
}

/* sc's prelude as a header and the translation unit after it; both stay
 * NULL if it has none. */
static void split_tu(const soft_scan *sc, char **header, char **rest)
{
   const char *start, *end;
   *header = *rest = NULL;
   if (!soft_find_prelude(sc->source, &start, &end))
      return;
   strbuf h, r;
   strbuf_init(&h);
   strbuf_init(&r);
   strbuf_printf(&h, TU_PREAMBLE "#line %u \"program_source\"\n%.*s", lines_before(sc->source, start),
                 (int)(end - start), start);
   strbuf_printf(&r, "#line %u \"program_source\"\n%s\n#line 1 \"__mc_entry\"\n%s",
                 lines_before(sc->source, end), end, sc->entries);
   *header = strbuf_take(&h);
   *rest = strbuf_take(&r);
   if (!*header || !*rest) {
      free(*header);
      free(*rest);
      *header = *rest = NULL;
   }
}

/* ---- diagnostics ---- */

/* The identifier at line:col of the text, for poisoned-identifier errors. */
static void word_at(const char *text, unsigned line, unsigned col, char *out, size_t cap)
{
   out[0] = 0;
   const char *p = text;
   for (unsigned l = 1; l < line && p; l++) {
      p = strchr(p, '\n');
      if (p)
         p++;
   }
   if (!p || col == 0 || strlen(p) < col)
      return;
   p += col - 1;
   size_t n = 0;
   while (n + 1 < cap && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
                          (p[n] >= '0' && p[n] <= '9')))
      n++;
   memcpy(out, p, n);
   out[n] = 0;
}

static bool is_diag_start(const char *line, const char **kind)
{
   static const char *const kinds[] = {": error: ", ": fatal error: ", ": warning: ", ": note: "};
   if (!strncmp(line, "In file included from", 21)) {
      *kind = "include";
      return true;
   }
   for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
      if (strstr(line, kinds[i]) && line[0] != ' ') {
         *kind = kinds[i];
         return true;
      }
   return false;
}

/* A diagnostic rewritten to name the Metal rule it enforces; NULL if the
 * line is left as it is.  *fatal is set for warnings that are Metal
 * errors (computations in double). */
static char *metal_rule(const char *line, const char *source, bool *fatal)
{
   strbuf b;
   strbuf_init(&b);
   unsigned l, c;
   if (strstr(line, "attempt to use a poisoned identifier") &&
       sscanf(line, "program_source:%u:%u:", &l, &c) == 2) {
      char w[64];
      word_at(source, l, c, w, sizeof(w));
      const char *why = !strcmp(w, "double") ? "'double' is not supported in Metal (Apple GPUs have no fp64)"
                      : !strcmp(w, "goto") ? "'goto' is not allowed in Metal Shading Language"
                      : !strcmp(w, "thread_local") ? "'thread_local' is not allowed in Metal Shading Language"
                      : NULL;
      if (!why)
         return NULL;
      strbuf_printf(&b, "program_source:%u:%u: error: %s", l, c, why);
      return strbuf_take(&b);
   }
   bool promo = strstr(line, "warning: implicit conversion increases floating-point precision") &&
                strstr(line, "to 'double'");
   bool demote = strstr(line, "warning: implicit conversion") && strstr(line, ": 'double' to");
   if (promo || demote) {
      *fatal = true;
      const char *w = strstr(line, "warning: ");
      strbuf_printf(&b, "%.*serror: %s (Metal has no double: an unsuffixed literal such as 1.0 "
                    "is a double, write 1.0f)", (int)(w - line), line, w + 9);
      const char *flag = strstr(b.s ? b.s : "", " [-W");
      if (flag && b.s) {          /* drop the warning flag: it is an error here */
         const char *end = strstr(flag, "]");
         if (end)
            memmove((char *)flag, end + 1, strlen(end + 1) + 1);
      }
      return strbuf_take(&b);
   }
   return NULL;
}

/* The compiler's output cut to what matters: errors (and Metal-rule
 * warnings) with their notes and source lines, shim paths shortened.
 * *fatal: a Metal rule was broken even if the compile succeeded. */
static char *clean_diagnostics(const char *log, const char *source, const char *shim_dir,
                               const char *tmp_dir, bool *fatal)
{
   strbuf b;
   strbuf_init(&b);
   bool keep = false;
   size_t dirlen = strlen(shim_dir);
   for (const char *p = log; *p;) {
      const char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      char *line = mc_malloc(n + 1);
      if (!line)
         break;
      memcpy(line, p, n);
      line[n] = 0;
      p += n + (nl ? 1 : 0);
      for (char *s; (s = strstr(line, shim_dir));)       /* "<dir>/metal_stdlib" -> "metal_stdlib" */
         memmove(s, s + dirlen + 1, strlen(s + dirlen + 1) + 1);
      const char *kind;
      char *rule = NULL;
      if (!strncmp(line, "In file included from ", 22) && strstr(line, tmp_dir)) {
         free(line);                 /* the generated preamble: not the user's */
         continue;
      }
      if (is_diag_start(line, &kind)) {
         bool f = false;
         rule = metal_rule(line, source, &f);
         *fatal |= f;
         if (!strcmp(kind, ": note: ") || !strcmp(kind, "include"))
            ;                        /* follows the decision of the diagnostic it belongs to */
         else
            keep = strcmp(kind, ": warning: ") || f;
         if (!strcmp(kind, "include"))
            keep = true;
      } else if (strstr(line, " generated.")) {
         free(line);
         continue;
      }
      if (keep) {
         strbuf_puts(&b, rule ? rule : line);
         strbuf_putc(&b, '\n');
      }
      free(rule);
      free(line);
   }
   return strbuf_take(&b);
}

/* ---- compiling ---- */

enum { MAX_ARGS = 40 };

/* The link flag that makes an undefined symbol an error (see the top). */
#if defined(__APPLE__)
#define SOFT_LINK_NO_UNDEFINED "-Wl,-undefined,error"
#else
#define SOFT_LINK_NO_UNDEFINED "-Wl,-z,defs"
#endif

/* Flags that make half (and bfloat) arithmetic round after every
 * operation, as on a GPU, whatever the clang:
 *   < 15: no _Float16 on x86-64; half is __fp16 (shim/metal_stdlib), made
 *         arithmetic and passable by these cc1 flags, which clang 16
 *         removed — so only here, with the macro that selects __fp16;
 *   15:   _Float16 operations are emulated one by one in float: nothing;
 *   >= 16: _Float16 is evaluated with excess precision (float until the
 *         end of the expression: a + b + c rounded once) unless told not
 *         to; so is __bf16 (bfloat) from 17, when it got arithmetic. */
static int half_args(const compiler *c, const char **a)
{
   int n = 0;
   if (c->llvm_major && c->llvm_major < 15) {
      a[n++] = "-Xclang";
      a[n++] = "-fnative-half-type";
      a[n++] = "-Xclang";
      a[n++] = "-fallow-half-arguments-and-returns";
      a[n++] = "-D__MC_FP16_HALF=1";
   } else if (c->llvm_major >= 16) {
      a[n++] = "-Xclang";
      a[n++] = "-ffloat16-excess-precision=none";
   }
   if (c->llvm_major >= 17) {
      a[n++] = "-Xclang";
      a[n++] = "-fbfloat16-excess-precision=none";
   }
   return n;
}

/* The CPU the kernels are compiled for (-march=native: vector units, FMA
 * instructions for fma() instead of a libm call), part of the cache key so
 * a cache shared between machines never hands one CPU another's code:
 * /proc/cpuinfo's model and flags on Linux; elsewhere "" and no -march. */
static const char *cpu_identity(void)
{
   static char id[4096];
   static bool done;
   if (done)
      return id;
   done = true;
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
   FILE *f = fopen("/proc/cpuinfo", "r");
   char line[4096];
   size_t n = 0;
   while (f && fgets(line, sizeof(line), f)) {
      bool want = !strncmp(line, "model name", 10) || !strncmp(line, "flags", 5) ||
                  !strncmp(line, "Features", 8) || !strncmp(line, "CPU part", 8) ||
                  !strncmp(line, "CPU implementer", 15);
      if (!strncmp(line, "processor", 9) && n)
         break;   /* the first CPU is enough */
      if (want && n + strlen(line) < sizeof(id)) {
         memcpy(id + n, line, strlen(line));
         n += strlen(line);
      }
   }
   if (f)
      fclose(f);
   id[n] = 0;
#endif
   return id;
}

/* Whether the lane form's loops walk the runs of active lanes with plain
 * loads and stores (prelude MC_LANES_FOR under __MC_SOFT_LANES_BY_RUNS)
 * instead of running every lane under its mask bit: yes, on every CPU.
 * Runs were chosen first for AMD's CPUs without AVX-512 (Zen 1-3), which
 * microcode VMASKMOVPS/VPMASKMOVD stores (about 24 cycles a store on a Zen
 * 3, even with a full mask).  On a Zen 4 (AVX-512, fast masked stores) the
 * masked form still ran SGEMM 3x slower (bench/kernels.sh: 25-28 ms
 * against 7.6-9.5 ms): where every lane's access is under its mask bit,
 * clang 19 made the 16x16 tile's broadcast row read a masked gather per
 * element, where in a run it is a plain loop it vectorises as it likes;
 * the other five kernels ran alike in both forms.  NEON has no masked
 * stores at all.  Loop mode still if-converts a guarded store into a
 * masked one (on a Zen 3 that ran a 5-point stencil 1.7x faster than the
 * scalar loop).  METALCUDA_SOFT_LANE_LOOPS=masked picks the other form
 * (the tests run both forms on any machine). */
static bool lanes_by_runs(void)
{
   const char *e = getenv("METALCUDA_SOFT_LANE_LOOPS");
   return !e || strcmp(e, "masked") != 0;
}

/* Compiler options, everything but the file names.  They are part of the
 * cache key. */
static int compile_args(const compiler *c, const char *shim_dir, const mtl_compile_options *opts,
                        const char *target, const char **a, char *verdef, size_t verdef_cap)
{
   int n = 0;
   uint32_t ver = opts && opts->language_version ? opts->language_version : MTL_MSL_VERSION;
   snprintf(verdef, verdef_cap, "-D__MC_MSL_VERSION=%u", ver);
   a[n++] = "-std=c++17";
   a[n++] = "-O2";
   if (target) {            /* soft_compile_object: another system's object */
      a[n++] = "-target";
      a[n++] = target;
   } else if (cpu_identity()[0]) {
#if defined(__x86_64__)
      a[n++] = "-march=native";
#elif defined(__aarch64__)
      a[n++] = "-mcpu=native";
#endif
   }
   /* The greedy register allocator's global live-range splitting grows
    * regions without bound by default, and on the one huge function that
    * a kernel inlining many f64 library calls becomes it took 70 % of the
    * compile (f64_math's first kernel: 38 s of CPU, 13 s with a budget of
    * 1000).  Functions below the budget are split exactly as before.  The
    * option exists from LLVM 15; older compilers do without. */
   if (c->llvm_major >= 16) {
      a[n++] = "-mllvm";
      a[n++] = "-grow-region-complexity-budget=1000";
   }
   /* No second, narrower vector loop for a vectorised loop's remainder: a
    * row's or a run's threads rarely leave one, and the copy is code to
    * compile (bench/compile_time.sh, alternated three times: 2673-2957
    * against 2794-2919 ms; the bench kernels within their noise,
    * bench/README.md twenty-sixth session).  The option exists from
    * LLVM 12. */
   if (c->llvm_major >= 12) {
      a[n++] = "-mllvm";
      a[n++] = "-enable-epilogue-vectorization=false";
   }
   if (lanes_by_runs())
      a[n++] = "-D__MC_SOFT_LANES_BY_RUNS";   /* lane loops by runs (prelude) */
   a[n++] = "-fPIC";
   a[n++] = "-ffunction-sections";        /* a call graph per function: fibercheck.c */
   a[n++] = "-fdata-sections";
   /* Every call is convergent, as on a GPU: jump threading would otherwise
    * copy a barrier or SIMD-group call into both sides of a branch, and the
    * fiber scheduler tells calls apart by their return address.  (clang
    * drops the convergent attribute of a single function outside GPU
    * languages; the cc1 flag is honoured from clang 14 on.) */
   a[n++] = "-Xclang";
   a[n++] = "-fconvergent-functions";
   /* Keeps a recursive call a call (no tail-recursion elimination, which
    * would turn it into a loop): fibercheck.c then finds the recursion in
    * the object and refuses it, as Metal does. */
   a[n++] = "-fno-optimize-sibling-calls";
   /* Validation: metalcuda's kernels check alignment (prelude MC_ALIGNED). */
   if (soft_validating())
      a[n++] = "-D__MC_SOFT_VALIDATE";
   /* Device memory at one delta (buffer.c, gpu_hint): global accesses as a
    * base pointer plus an offset, which clang vectorises across threads. */
   if (!soft_scatter())
      a[n++] = "-D__MC_SOFT_ONE_DELTA";
   if (soft_lanes())
      a[n++] = "-D__MC_SOFT_LANES=1024";   /* MTL_MAX_THREADS_PER_THREADGROUP: a threadgroup per call */
   if (opts && opts->fast_math) {
      a[n++] = "-ffast-math";
   } else {
      a[n++] = "-ffp-contract=off";
      a[n++] = "-fno-fast-math";
   }
   a[n++] = "-fno-exceptions";
   a[n++] = "-fno-rtti";
   a[n++] = "-fno-color-diagnostics";
   a[n++] = "-nostdinc";                  /* MSL has no C or C++ library */
   a[n++] = "-nostdinc++";
   a[n++] = "-isystem";
   a[n++] = shim_dir;
   a[n++] = verdef;
   a[n++] = "-Werror=unknown-attributes";  /* unhandled MSL attributes */
   a[n++] = "-Wdouble-promotion";          /* promoted to errors by metal_rule() */
   a[n++] = "-Wimplicit-float-conversion";
   a[n++] = "-Wfloat-conversion";
   n += half_args(c, a + n);
   return n;
}

static void remove_dir(const char *dir)
{
   DIR *d = opendir(dir);
   if (d) {
      struct dirent *e;
      char path[4608];
      while ((e = readdir(d)))
         if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
         }
      closedir(d);
   }
   rmdir(dir);
}

typedef struct job {
   const compiler *c;
   const char *shim_dir;
   const char **args;
   int nargs;
   const char *source;       /* the user's (rewritten) MSL, for messages */
   const soft_scan *sc;      /* the scanned source (its unit: build_tu, split_tu) */
   char dir[4200];
   char cpp[4300], obj[4300], so[4300], log[4300];
} job;

/* Runs the compiler with extra arguments; *err gets the cleaned
 * diagnostics on failure.  what: "compile" or "link". */
static bool run_step(job *j, const char *const *extra, int nextra, const char *what, char **err)
{
   const char *argv[MAX_ARGS + 12];
   int n = 0;
   argv[n++] = j->c->path;
   if (!strcmp(what, "compile"))
      for (int i = 0; i < j->nargs; i++)
         argv[n++] = j->args[i];
   for (int i = 0; i < nextra; i++)
      argv[n++] = extra[i];
   argv[n] = NULL;
   int rc = run_logged((char *const *)argv, j->log);
   char *log = file_read(j->log, NULL);
   bool fatal = false;
   char *clean = log ? clean_diagnostics(log, j->source, j->shim_dir, j->dir, &fatal) : NULL;
   bool ok = rc == 0 && !fatal;
   if (!ok) {
      if (rc < 0)
         mtl_set_err(err, "cannot run the host compiler %s", j->c->path);
      else if (clean && *clean)
         mtl_set_err(err, "%s", clean);
      else
         mtl_set_err(err, "host compiler %s failed (%s):\n%s", j->c->path, what, log ? log : "");
   }
   free(clean);
   free(log);
   return ok;
}

static void *load(const char *path, char **err)
{
   void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!h)
      mtl_set_err(err, "cannot load the compiled library: %s", dlerror());
   return h;
}

/* The job's private directory under the cache, and its file names. */
static bool make_dir(job *j, char **err)
{
   snprintf(j->dir, sizeof(j->dir), "%s/tmp-XXXXXX", soft_cache_base());
   if (fault_hit() || !mkdtemp(j->dir)) {
      mtl_set_err(err, "cannot create a temporary directory under %s", soft_cache_base());
      return false;
   }
   snprintf(j->cpp, sizeof(j->cpp), "%s/program.cpp", j->dir);
   snprintf(j->obj, sizeof(j->obj), "%s/program.o", j->dir);
   snprintf(j->so, sizeof(j->so), "%s/program.so", j->dir);
   snprintf(j->log, sizeof(j->log), "%s/program.log", j->dir);
   return true;
}

/* What a cache key starts with: the format, the compiler, the CPU, the
 * flags and the shim. */
static void key_start(sha256_ctx *hc, const job *j)
{
   sha256_init(hc);
   sha256_update(hc, CACHE_FORMAT, sizeof(CACHE_FORMAT));
   sha256_update(hc, j->c->identity, strlen(j->c->identity) + 1);
   sha256_update(hc, cpu_identity(), strlen(cpu_identity()) + 1);
   for (int i = 0; i < j->nargs; i++)
      sha256_update(hc, j->args[i], strlen(j->args[i]) + 1);
   sha256_update(hc, soft_shim_digest(), 32);   /* a key holds it, not the 88 KB of text */
}

/* sc's translation unit (build_tu) in a key, its parts hashed in place
 * (a cache hit never builds the unit: 280 KB of copying), with the
 * prelude (soft_find_prelude) replaced by the prelude's digest.  Every
 * library of a process has the same prelude (~280 KB, which hashing took
 * longer than loading a cached library) after a comment of its own: the
 * scan keeps the scanned prelude and its digest (msl_scan.c,
 * sc->prelude_digest), and only a prelude it did not keep is hashed
 * here. */
static void key_add_tu(sha256_ctx *hc, const soft_scan *sc)
{
   const char *start, *end, *src = sc->source;
   sha256_update(hc, TU_HEAD, strlen(TU_HEAD));
   if (soft_find_prelude(src, &start, &end)) {
      size_t n = (size_t)(end - start);
      uint8_t d[32];
      if (sc->prelude_digest && sc->prelude_len == n)
         memcpy(d, sc->prelude_digest, sizeof(d));
      else
         sha256_digest(start, n, d);
      sha256_update(hc, src, (size_t)(start - src));
      sha256_update(hc, d, sizeof(d));
      src = end;
   }
   sha256_update(hc, src, strlen(src));
   sha256_update(hc, TU_ENTRY, strlen(TU_ENTRY));
   sha256_update(hc, sc->entries, strlen(sc->entries) + 1);
}

/* "<prefix><hex of the key><suffix>" */
static void key_name(char *name, size_t cap, const char *prefix, sha256_ctx *hc, const char *suffix)
{
   uint8_t d[32];
   sha256_final(hc, d);
   int n = snprintf(name, cap, "%s", prefix);
   for (int i = 0; i < 32 && n + 3 < (int)cap; i++)
      n += snprintf(name + n, cap - (size_t)n, "%02x", d[i]);
   snprintf(name + n, cap - (size_t)n, "%s", suffix);
}

/* "<cache>/soft/<prefix><hex of the key><suffix>" */
static void key_path(char *path, size_t cap, const char *prefix, sha256_ctx *hc, const char *suffix)
{
   char name[256];
   key_name(name, sizeof(name), prefix, hc, suffix);
   if ((size_t)snprintf(path, cap, "%s/%s", soft_cache_base(), name) >= cap)
      path[0] = 0;       /* no such file: a cache base this long fails its first write */
}

static pthread_mutex_t pch_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the cache's pch-NAME.pch and .h, else the prepared directory's
 * (prepared.c), exist: then *pch is the one found and *prepared says
 * which; else *pch is the cache's. */
static bool find_pch(const char *name, char *pch, size_t cap, bool *prepared)
{
   char hdr[4400], hname[300], pname[300];
   snprintf(hdr, sizeof(hdr), "%s/%s.h", soft_cache_base(), name);
   snprintf(pch, cap, "%s/%s.pch", soft_cache_base(), name);
   *prepared = false;
   if (access(pch, R_OK) == 0 && access(hdr, R_OK) == 0)
      return true;
   snprintf(hname, sizeof(hname), "%s.h", name);
   snprintf(pname, sizeof(pname), "%s.pch", name);
   if (soft_prepared_path(hname, hdr, sizeof(hdr)) && soft_prepared_path(pname, pch, cap))
      return *prepared = true;
   snprintf(pch, cap, "%s/%s.pch", soft_cache_base(), name);
   return false;
}

/* The precompiled header of the prelude `header` in *pch (built on first use
 * in the cache, unless the cache or the prepared directory has it: then
 * *prepared says which); false if it cannot be had.  Its header file stays
 * beside it: clang checks that the file a precompiled header was made from
 * is unchanged. */
static bool ensure_pch(job *j, const char *header, char *pch, size_t cap, bool *prepared)
{
   sha256_ctx hc;
   char name[256], hdr[4400], tmp[4500];
   /* The PCH's own flag is in its key: a header made without it is made
    * again, once. */
   const char *inst = j->c->llvm_major >= 11 ? "-fpch-instantiate-templates" : NULL;
   key_start(&hc, j);
   if (inst)
      sha256_update(&hc, inst, strlen(inst) + 1);
   sha256_update(&hc, header, strlen(header) + 1);
   key_name(name, sizeof(name), "pch-", &hc, "");
   if (find_pch(name, pch, cap, prepared))
      return true;
   pthread_mutex_lock(&pch_lock);        /* one build per process; processes may race */
   bool ok = find_pch(name, pch, cap, prepared);
   snprintf(hdr, sizeof(hdr), "%s/%s.h", soft_cache_base(), name);
   if (!ok && !fault_hit()) {
      if (access(hdr, R_OK) != 0)        /* never rewritten: its time is in the header */
         file_write_atomic(hdr, header, strlen(header));
      snprintf(tmp, sizeof(tmp), "%s.%d.tmp", pch, (int)getpid());
      const char *argv[MAX_ARGS + 8];
      int n = 0;
      argv[n++] = j->c->path;
      for (int i = 0; i < j->nargs; i++)
         argv[n++] = j->args[i];
      /* The template instantiations the prelude's functions ask for are
       * made here, once, instead of at the end of every library that
       * includes the header (clang 11 on): 20-25 ms less per compile of a
       * library, whatever its kernels (an empty one: 64 ms to 40), and
       * the same objects (bench/README.md, compile time). */
      if (inst)
         argv[n++] = inst;
      argv[n++] = "-x";
      argv[n++] = "c++-header";
      argv[n++] = hdr;
      argv[n++] = "-o";
      argv[n++] = tmp;
      argv[n] = NULL;
      ok = run_logged((char *const *)argv, j->log) == 0 && rename(tmp, pch) == 0;
      if (!ok) {
         LOG_INFO("cannot precompile the prelude (%s): compiling it with each library", hdr);
         unlink(tmp);
      }
   }
   pthread_mutex_unlock(&pch_lock);
   return ok;
}

/* Writes text to j->cpp and compiles it with the extra arguments. */
static bool compile_text(job *j, const char *text, const char *const *extra, int nextra, char **err)
{
   if (!file_write_atomic(j->cpp, text, strlen(text))) {
      mtl_set_err(err, "cannot write %s", j->cpp);
      return false;
   }
   return run_step(j, extra, nextra, "compile", err);
}

/* Source to a checked object (j->obj): compile (after the precompiled
 * prelude where there is one, else or if that fails the whole unit), the
 * Metal rules on the object, the kernels that need fibers marked in it. */
static bool compile_object(job *j, char **err)
{
   const char *cc[] = {"-c", j->cpp, "-o", j->obj};
   char *header = NULL, *rest = NULL, pch[4400];
   bool ok = false;
   split_tu(j->sc, &header, &rest);       /* here, not in prepare(): a cache hit needs neither */
   bool prepared = false;
   bool tried = header && ensure_pch(j, header, pch, sizeof(pch), &prepared);
   if (tried) {
      const char *cc_pch[] = {"-include-pch", pch, "-c", j->cpp, "-o", j->obj};
      char *pch_err = NULL;
      ok = compile_text(j, rest, cc_pch, ARRAY_SIZE(cc_pch), &pch_err);
      if (!ok)
         LOG_INFO("compile after the precompiled prelude failed, compiling the whole unit");
      free(pch_err);
   }
   if (!ok) {
      char *tu = build_tu(j->sc);        /* here too: a cache hit needs no unit */
      if (!tu)
         mtl_set_err(err, "out of memory");
      ok = tu && compile_text(j, tu, cc, ARRAY_SIZE(cc), err);
      free(tu);
      /* A stale header (its files changed) failed where the whole unit
       * compiles: made again next time; a prepared one is made in the
       * cache now, which later processes look at first. */
      if (ok && tried && prepared) {
         soft_prepared_distrust("its precompiled prelude failed where the whole unit compiles");
         ensure_pch(j, header, pch, sizeof(pch), &prepared);
      } else if (ok && tried) {
         unlink(pch);
      }
   }
   free(header);
   free(rest);
   return ok && soft_check_object(j->obj, err) && soft_mark_fiber_kernels(j->obj, err);
}

/* ---- linking ----
 *
 * The link step is the driver's (`clang++ -shared ... program.o -o
 * program.so -lm`), but the driver only starts the system linker, and
 * starting it cost more than the link: clang++ loads its LLVM and clang
 * libraries (about 30 ms of CPU per library on the 2-core x86-64 VM, the
 * linker 10-20).  So the linker's command is asked of the driver once
 * (`-###`, with this job's file names), kept as a template in the cache
 * (ld-<hash>.txt, one argument a line, the object and output as
 * LD_OBJ/LD_OUT), and later links run the linker directly.  Its key is
 * the compiler, the link flags and the environment the driver reads
 * (search paths, SDK); a template that fails where the driver's link
 * succeeds is dropped, and any failure links through the driver, whose
 * diagnostics are the ones reported. */

#define LD_OBJ "@MC_OBJECT@"
#define LD_OUT "@MC_OUTPUT@"

static char *ld_template;   /* the last one read or made, its name, whether prepared */
static char ld_name[256];
static bool ld_prepared;
static pthread_mutex_t ld_lock = PTHREAD_MUTEX_INITIALIZER;

static void ld_key_name(const job *j, const char *const *ld, int nld, char *name, size_t cap)
{
   static const char *const env[] = {"PATH", "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX",
                                     "SDKROOT", "MACOSX_DEPLOYMENT_TARGET", "DEVELOPER_DIR"};
   sha256_ctx hc;
   sha256_init(&hc);
   sha256_update(&hc, CACHE_FORMAT, sizeof(CACHE_FORMAT));
   sha256_update(&hc, j->c->identity, strlen(j->c->identity) + 1);
   for (int i = 0; i < nld; i++)
      if (ld[i] != j->obj && ld[i] != j->so)
         sha256_update(&hc, ld[i], strlen(ld[i]) + 1);
   for (size_t i = 0; i < ARRAY_SIZE(env); i++) {
      const char *v = getenv(env[i]);
      sha256_update(&hc, env[i], strlen(env[i]) + 1);
      sha256_update(&hc, v ? v : "\1", strlen(v ? v : "\1") + 1);
   }
   key_name(name, cap, "ld-", &hc, ".txt");
}

/* The template from the driver's `-###` output (its one command, each
 * argument in double quotes, backslash escaping the next character), or
 * NULL if that is not what it printed or the file names are not whole
 * arguments exactly once each. */
static char *ld_template_of(const char *out, const job *j)
{
   const char *cmd = NULL;
   for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
      if (!strncmp(l, " \"", 2)) {
         if (cmd)
            return NULL;   /* more than one command */
         cmd = l;
      }
   if (!cmd)
      return NULL;
   strbuf b;
   strbuf_init(&b);
   char arg[PATH_MAX * 2];
   int objs = 0, outs = 0;
   bool ok = true;
   for (const char *p = cmd; ok && *p && *p != '\n';) {
      if (*p == ' ') {
         p++;
         continue;
      }
      size_t n = 0;
      ok = *p++ == '"';
      for (; ok && *p != '"'; p++) {
         if (*p == '\\')
            p++;
         ok = *p && *p != '\n' && n + 1 < sizeof(arg);
         if (ok)
            arg[n++] = *p;
      }
      if (!ok)
         break;
      p++;
      arg[n] = 0;
      bool obj = !strcmp(arg, j->obj), so = !strcmp(arg, j->so);
      objs += obj;
      outs += so;
      strbuf_printf(&b, "%s\n", obj ? LD_OBJ : so ? LD_OUT : arg);
   }
   char *t = strbuf_take(&b);
   if (!ok || objs != 1 || outs != 1 || !t || !*t) {
      free(t);
      return NULL;
   }
   return t;
}

/* The template, a copy (the caller frees it): kept, from the cache, or
 * asked of the driver (with j's files, which exist); NULL if it cannot be
 * had. */
static char *ld_get(job *j, const char *const *ld, int nld)
{
   char name[256], path[4400], tmp[4500];
   ld_key_name(j, ld, nld, name, sizeof(name));
   snprintf(path, sizeof(path), "%s/%s", soft_cache_base(), name);
   pthread_mutex_lock(&ld_lock);
   if (ld_template && strcmp(ld_name, name)) {   /* the environment changed */
      free(ld_template);
      ld_template = NULL;
   }
   if (!ld_template) {
      snprintf(ld_name, sizeof(ld_name), "%s", name);
      ld_template = file_read(path, NULL);
      ld_prepared = false;
      if (!ld_template && soft_prepared_path(name, tmp, sizeof(tmp))) {
         ld_template = file_read(tmp, NULL);
         ld_prepared = ld_template != NULL;
      }
      if (!ld_template && !fault_hit()) {
         const char *argv[MAX_ARGS + 12];
         int n = 0;
         argv[n++] = j->c->path;
         argv[n++] = "-###";
         for (int i = 0; i < nld; i++)
            argv[n++] = ld[i];
         argv[n] = NULL;
         snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
         char *out = run_logged((char *const *)argv, tmp) == 0 ? file_read(tmp, NULL) : NULL;
         unlink(tmp);
         ld_template = out ? ld_template_of(out, j) : NULL;
         free(out);
         if (ld_template)
            file_write_atomic(path, ld_template, strlen(ld_template));
      }
   }
   char *t = ld_template ? strdup(ld_template) : NULL;
   pthread_mutex_unlock(&ld_lock);
   return t;
}

/* A template that failed where the driver succeeded: gone from the cache
 * and this process; true if it was the prepared directory's. */
static bool ld_drop(job *j, const char *const *ld, int nld)
{
   char name[256], path[4400];
   ld_key_name(j, ld, nld, name, sizeof(name));
   snprintf(path, sizeof(path), "%s/%s", soft_cache_base(), name);
   pthread_mutex_lock(&ld_lock);
   bool prepared = ld_prepared;
   if (prepared)
      soft_prepared_distrust("its linker command failed where the driver links");
   else
      unlink(path);
   free(ld_template);
   ld_template = NULL;
   pthread_mutex_unlock(&ld_lock);
   return prepared;
}

/* j->obj to j->so: the linker directly, else the driver. */
static bool link_object(job *j, char **err)
{
   const char *ld[] = {"-shared", "-nostdlib++", SOFT_LINK_NO_UNDEFINED, j->obj, "-o", j->so, "-lm"};
   char *copy = ld_get(j, ld, ARRAY_SIZE(ld));
   bool tried = false;
   if (copy) {
      const char *argv[512];
      int n = 0;
      for (char *a = copy, *nl; a && *a && n + 1 < (int)ARRAY_SIZE(argv); a = nl ? nl + 1 : NULL) {
         nl = strchr(a, '\n');
         if (nl)
            *nl = 0;
         argv[n++] = !strcmp(a, LD_OBJ) ? j->obj : !strcmp(a, LD_OUT) ? j->so : a;
      }
      argv[n] = NULL;
      tried = n > 0;
      bool ok = tried && run_logged((char *const *)argv, j->log) == 0;
      free(copy);
      if (ok)
         return true;
   }
   bool ok = run_step(j, ld, ARRAY_SIZE(ld), "link", err);
   if (ok && tried && ld_drop(j, ld, ARRAY_SIZE(ld)))
      free(ld_get(j, ld, ARRAY_SIZE(ld)));   /* the cache's own, which later processes look at first */
   return ok;
}

static void *compile_and_load(job *j, const char *final_path, char **err)
{
   uint64_t t0 = time_ns();
   if (!make_dir(j, err))
      return NULL;
   void *h = NULL;
   if (compile_object(j, err) && link_object(j, err)) {
      compiles++;
      /* Into the cache; if that fails the library still loads from here. */
      bool cached = !fault_hit() && rename(j->so, final_path) == 0;
      h = load(cached ? final_path : j->so, err);
      LOG_INFO("compiled in %.0f ms%s", (double)(time_ns() - t0) / 1e6, cached ? "" : " (not cached)");
   }
   if (getenv("METALCUDA_SOFT_KEEP"))          /* debugging: the translation unit and object */
      fprintf(stderr, "metalcuda: kept %s\n", j->dir);
   else
      remove_dir(j->dir);
   return h;
}

/* What every compile starts with: the compiler, the shim, the scanned
 * source, the flags.  false + *err on failure; else the caller frees *sc
 * (unprepare). */
typedef struct prepared {
   job j;
   soft_scan sc;
   const char *args[MAX_ARGS];
   char verdef[64];
} prepared;

static bool prepare(prepared *p, const char *msl, const mtl_compile_options *opts, const char *target,
                    char **err)
{
   /* The shim implements MSL up to 3.2 (and refuses, per version, what
    * 3.0 and 3.1 lack); a newer version would be accepted and mean
    * nothing. */
   uint32_t v = opts ? opts->language_version : 0;
   if (v && (v < 300 || v > MTL_MSL_VERSION)) {
      mtl_set_err(err, "MSL %u.%u: the software device implements MSL 3.0 to %u.%u", v / 100, v / 10 % 10,
                  MTL_MSL_VERSION / 100, MTL_MSL_VERSION / 10 % 10);
      return false;
   }
   const compiler *c = get_compiler(err);
   const char *shim_dir = c ? soft_shim_dir(soft_cache_base(), err) : NULL;
   if (!shim_dir || !soft_scan_msl(msl, &p->sc, err))
      return false;
   p->j = (job){.c = c, .shim_dir = shim_dir, .source = p->sc.source, .sc = &p->sc, .args = p->args};
   p->j.nargs = compile_args(c, shim_dir, opts, target, p->args, p->verdef, sizeof(p->verdef));
   return true;
}

static void unprepare(prepared *p) { soft_scan_free(&p->sc); }

bool soft_compile_object(const char *msl, const mtl_compile_options *opts, const char *target,
                         const char *out_path, char **err)
{
   prepared *p = mc_calloc(1, sizeof(*p));
   if (!p || !prepare(p, msl, opts, target, err)) {
      if (!p)
         mtl_set_err(err, "out of memory");
      free(p);
      return false;
   }
   bool ok = make_dir(&p->j, err);
   if (ok) {
      ok = compile_object(&p->j, err);
      if (ok && rename(p->j.obj, out_path) != 0) {
         mtl_set_err(err, "cannot move the object to %s", out_path);
         ok = false;
      }
      remove_dir(p->j.dir);
   }
   unprepare(p);
   free(p);
   return ok;
}

void *soft_compile(const char *msl, const mtl_compile_options *opts, char **err)
{
   prepared *p = mc_calloc(1, sizeof(*p));
   if (!p || !prepare(p, msl, opts, NULL, err)) {
      if (!p)
         mtl_set_err(err, "out of memory");
      free(p);
      return NULL;
   }
   void *h = NULL;
   job j = p->j;
   sha256_ctx hc;
   key_start(&hc, &j);
   key_add_tu(&hc, &p->sc);
   char path[4200];
   key_path(path, sizeof(path), "", &hc, ".so");

   if (access(path, R_OK) == 0) {
      h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!h) {
         LOG_WARN("dropping unloadable cache entry %s: %s", path, dlerror());
         unlink(path);
      }
   }
   if (!h)
      h = compile_and_load(&j, path, err);
   unprepare(p);
   free(p);
   return h;
}
