/*
 * test_source_fix.c — the driver's rewrites of __shared__ variables of
 * class type and of kernel launches in device code
 * (src/toolchain/source_fix.c) on sources and diagnostics written here:
 * each case writes a source file, gives tc_source_fix the error clang
 * reports for it (file, line and column of the variable or kernel,
 * computed from the source, not from the code under test), and checks the
 * rewritten text byte for byte or the driver's line saying why not.
 * tests/toolchain (driver.shared_ctor, driver.async_copy,
 * driver.shared_refused, driver.dynamic_parallelism) checks the same
 * against clang itself.
 */
#include "harness.h"

#include "../../src/toolchain/toolchain.h"

#include <stdlib.h>
#include <unistd.h>

#define ERR "error: initialization is not supported for __shared__ variables"

static char dir[256], path[300];

/* src written to a fresh file (path). */
static bool write_src(const char *src)
{
   if (!dir[0]) {
      const char *t = getenv("TMPDIR");
      snprintf(dir, sizeof(dir), "%s/mc_shfix_XXXXXX", t && *t ? t : "/tmp");
      if (!mkdtemp(dir)) {
         dir[0] = 0;
         return false;
      }
   }
   snprintf(path, sizeof(path), "%s/k.cu", dir);
   FILE *f = fopen(path, "w");
   if (!f)
      return false;
   fputs(src, f);
   return fclose(f) == 0;
}

/* The line and column (1-based, bytes) of the n-th (0-based) occurrence
 * of the word name in src; false if there is none. */
static bool locate(const char *src, const char *name, int n, int *line, int *col)
{
   const char *p = src;
   size_t l = strlen(name);
   for (;; p++) {
      p = strstr(p, name);
      if (!p)
         return false;
      bool word = (p == src || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) &&
                  !(p[l] == '_' || (p[l] >= 'a' && p[l] <= 'z'));
      if (word && n-- == 0)
         break;
   }
   *line = *col = 1;
   for (const char *q = src; q < p; q++) {
      ++*col;
      if (*q == '\n') {
         ++*line;
         *col = 1;
      }
   }
   return true;
}

/* "PATH:LINE:COL: error: ..." for that occurrence, appended to diag. */
static void add_error(char *diag, size_t len, const char *src, const char *name, int n)
{
   int line, col;
   if (!locate(src, name, n, &line, &col))
      return;
   size_t used = strlen(diag);
   snprintf(diag + used, len - used, "%s:%d:%d: " ERR "\n", path, line, col);
}

typedef struct result {
   int r;
   char *text;    /* the one rewritten file's text */
   char *notes;
} result;

static result run(const char *diag)
{
   tc_argv files = { 0 }, texts = { 0 };
   result res = { 0 };
   res.r = tc_source_fix(diag, "nvcc", NULL, &files, &texts, &res.notes);
   if (res.r == 1 && files.n == 1 && !strcmp(files.v[0], path))
      res.text = strdup(texts.v[0]);
   else if (res.r == 1)
      res.r = 99;   /* not the one file */
   tc_argv_free(&files);
   tc_argv_free(&texts);
   return res;
}

static void done(result *r)
{
   free(r->text);
   free(r->notes);
   if (dir[0]) {
      unlink(path);
      rmdir(dir);
      dir[0] = 0;
   }
}

/* One source with one error at the first occurrence of each name given. */
static result case1(const char *src, const char *name)
{
   char diag[4096] = "";
   if (!write_src(src))
      return (result){ -2, NULL, NULL };
   add_error(diag, sizeof(diag), src, name, 0);
   return run(diag);
}

/* Each source's one declaration of `name` rewritten: the whole text is
 * want (or, with part, holds it). */
static const struct rewrite_case {
   const char *what, *src, *name, *want;
   bool part;
} rewrites[] = {
   { "an array", "struct P { float x = 1; };\n__global__ void k(float *o)\n{\n   __shared__ P tile[64];\n   o[0] = tile[1].x;\n}\n",
     "tile",
     "struct P { float x = 1; };\n__global__ void k(float *o)\n{\n"
     "   __shared__ __mc_shared_storage<P[64] > __mc_raw_tile; constexpr auto &tile = __mc_raw_tile.v;\n"
     "   o[0] = tile[1].x;\n}\n", false },
   { "a scalar, static, aligned, of a template type",
     "__device__ void f() { static __shared__ __align__(16) ns::Q<int, 2> q; q.go(); }\n", "q",
     "__device__ void f() { static __shared__ __align__(16) __mc_shared_storage<ns::Q<int, 2> > "
     "__mc_raw_q; constexpr auto &q = __mc_raw_q.v; q.go(); }\n", false },
   /* attributes after the bounds stay on the storage; a byte order mark */
   { "attributes after the bounds",
     "\xef\xbb\xbf#include <x>\n__global__ void k() { __shared__ P v[2] [[maybe_unused]] __attribute__((aligned(8))); }\n",
     "v", "{ __shared__ __mc_shared_storage<P[2] > __mc_raw_v [[maybe_unused]] __attribute__((aligned(8))); "
          "constexpr auto &v = __mc_raw_v.v; }\n", true },
   /* a declaration over lines keeps them (every later line its number);
    * the type's tokens keep their spelling, comments go */
   { "over three lines",
     "__global__ void k() {\n   volatile __shared__ /* c */ P\n      two[4]\n         [8]; int after;\n}\n", "two",
     "__global__ void k() {\n   __mc_shared_storage<volatile P[4] [8] > __shared__ __mc_raw_two; "
     "constexpr auto &two = __mc_raw_two.v;\n\n int after;\n}\n", false },
   /* comments, strings, raw strings, character literals and digit
    * separators before the declaration hold braces, semicolons and quotes
    * that are no tokens of the code */
   { "after tricky tokens",
     "const char *a = \"{;\\\"\"; // };\nconst char *b = R\"x(\n;}{)\"\n)x\"; /* ; { */\n"
     "int c = 1'000'000; char d = '}';\n#define X { ;\n__global__ void k() { __shared__ P v; }\n",
     "v", "int c = 1'000'000; char d = '}';\n#define X { ;\n"
          "__global__ void k() { __shared__ __mc_shared_storage<P > __mc_raw_v; constexpr auto &v = __mc_raw_v.v; }\n",
     true },
};

TEST(rewrites)
{
   for (size_t i = 0; i < sizeof(rewrites) / sizeof(rewrites[0]); i++) {
      const struct rewrite_case *c = &rewrites[i];
      result r = case1(c->src, c->name);
      bool ok = r.r == 1 && r.text && (c->part ? strstr(r.text, c->want) != NULL : !strcmp(r.text, c->want));
      if (!ok)
         test_fail_(__FILE__, __LINE__, "%s: got %d, \"%s\"; expected %s \"%s\"", c->what, r.r,
                    r.text ? r.text : "(null)", c->part ? "a text holding" : "", c->want);
      done(&r);
      if (!ok)
         return;
   }
}

/* A class member function's body, a lambda's, extern "C" linkage: in a
 * function; a class body, a namespace: not. */
TEST(scopes)
{
   result r = case1("struct S { __device__ void f() { if (1) { __shared__ P v; } } };\n", "v");
   CHECK_INT(r.r, 1);
   done(&r);
   r = case1("auto l = [] { __shared__ P v; };\n", "v");
   CHECK_INT(r.r, 1);
   done(&r);
   r = case1("extern \"C\" __global__ void k() { __shared__ P v; }\n", "v");
   CHECK_INT(r.r, 1);
   done(&r);
   r = case1("namespace n { __shared__ P v; }\n", "v");
   CHECK_INT(r.r, -1);
   CHECK_CONTAINS(r.notes, "it is not declared in a function");
   done(&r);
}

TEST(refused)
{
   static const struct {
      const char *src, *name, *why;
   } cases[] = {
      { "namespace n { __shared__ P v; }\n", "v", "it is not declared in a function" },
      { "extern \"C\" { __shared__ P v; }\n", "v", "it is not declared in a function" },
      { "struct S { __shared__ P v; };\n", "v", "it is not declared in a function" },
      { "__global__ void k() { __shared__ P v, w; }\n", "v", "it shares its declaration with other variables" },
      { "__global__ void k() { __shared__ P w, v; }\n", "v", "it shares its declaration with other variables" },
      { "__global__ void k() { __shared__ P v = P(); }\n", "v", "it has an initializer, which nvcc refuses too" },
      { "__global__ void k() { extern __shared__ P v[]; }\n", "v", "it is extern" },
      { "#define SH __shared__\n__global__ void k() { SH P v; }\n", "v", "__shared__ is not written in its declaration" },
      { "__global__ void k() { for (;;) __shared__ P v; }\n", "v", "is not of the form" },
      { "#line 10 \"x.cu\"\n__global__ void k() { __shared__ P v; }\n", "v", "is not of the form" },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      result r = case1(cases[i].src, cases[i].name);
      CHECK_MSG(r.r == -1 && !r.text, "case %zu: got %d", i, r.r);
      char want[512];
      int line = 0, col;
      locate(cases[i].src, cases[i].name, 0, &line, &col);
      snprintf(want, sizeof(want),
               "nvcc: %s:%d: __shared__ variable 'v': nvcc accepts it and runs no constructor or destructor for it; "
               "metalcuda cannot rewrite it into raw shared storage: ",
               path, line);
      CHECK_MSG(r.notes && !strncmp(r.notes, want, strlen(want)), "case %zu: notes \"%s\", expected \"%s...\"", i,
                r.notes ? r.notes : "(null)", want);
      CHECK_MSG(strstr(r.notes, cases[i].why), "case %zu: notes \"%s\" do not say \"%s\"", i, r.notes, cases[i].why);
      CHECK_MSG(strchr(r.notes, '\n') == r.notes + strlen(r.notes) - 1, "case %zu: not one line: %s", i, r.notes);
      done(&r);
   }
}

/* clang's note after the error: the declaration comes from a macro. */
TEST(macro)
{
   const char *src = "#define D(n) __shared__ P n\n__global__ void k() { D(v); }\n";
   char diag[4096] = "";
   CHECK(write_src(src));
   add_error(diag, sizeof(diag), src, "v", 0);
   size_t used = strlen(diag);
   snprintf(diag + used, sizeof(diag) - used,
            "    2 | __global__ void k() { D(v); }\n      |                         ^\n"
            "%s:1:28: note: expanded from macro 'D'\n", path);
   result r = run(diag);
   CHECK_INT(r.r, -1);
   CHECK_CONTAINS(r.notes, "'v': nvcc accepts it");
   CHECK_CONTAINS(r.notes, "it comes from a macro expansion");
   done(&r);
}

/* Several declarations, errors out of order and repeated (a template's
 * instantiations), the terminal's colours: one rewrite each. */
TEST(several)
{
   const char *src = "template <class T> __global__ void k() {\n"
                     "   __shared__ T a[2];\n"
                     "   __shared__ P b;\n"
                     "}\n";
   char diag[4096] = "";
   CHECK(write_src(src));
   add_error(diag, sizeof(diag), src, "b", 0);
   add_error(diag, sizeof(diag), src, "a", 0);
   add_error(diag, sizeof(diag), src, "a", 0);
   /* the first error again, coloured as clang colours it */
   char first[512];
   snprintf(first, sizeof(first), "\x1b[1m%.*s\x1b[0m\x1b[0;1;31merror: \x1b[0m\x1b[1m%s\x1b[0m\n",
            (int)(strstr(diag, "error:") - diag), diag, ERR + 7);
   size_t used = strlen(diag);
   snprintf(diag + used, sizeof(diag) - used, "%s", first);
   result r = run(diag);
   CHECK_INT(r.r, 1);
   CHECK_STR(r.text, "template <class T> __global__ void k() {\n"
                     "   __shared__ __mc_shared_storage<T[2] > __mc_raw_a; constexpr auto &a = __mc_raw_a.v;\n"
                     "   __shared__ __mc_shared_storage<P > __mc_raw_b; constexpr auto &b = __mc_raw_b.v;\n"
                     "}\n");
   done(&r);
}

/* Diagnostics without the error: nothing to do. */
TEST(other_errors)
{
   tc_argv files = { 0 }, texts = { 0 };
   char *notes = NULL;
   CHECK_INT(tc_source_fix("k.cu:3:4: error: use of undeclared identifier 'x'\n1 error generated.\n", "nvcc", NULL,
                           &files, &texts, &notes),
             0);
   CHECK_INT(files.n, 0);
   CHECK(notes == NULL);
}

/* ---- launches in device code ---- */

/* src with clang's error at every occurrence of the kernel's name. */
static result launch1(const char *src, const char *name, const char *where)
{
   char diag[4096] = "";
   int line, col;
   if (!write_src(src) || !locate(src, name, 0, &line, &col))
      return (result){ -2, NULL, NULL };
   for (int n = 0; locate(src, name, n, &line, &col); n++) {
      size_t used = strlen(diag);
      snprintf(diag + used, sizeof(diag) - used,
               "%s:%d:%d: error: reference to __global__ function '%s' in %s function\n"
               "%s:1:17: note: '%s' declared here\n",
               path, line, col, name, where, path, name);
   }
   return run(diag);
}

TEST(launches)
{
   static const struct {
      const char *what, *src, *name, *where, *want;
   } cases[] = {
      { "a launch with four settings",
        "__global__ void k(int *p) { c<<<2, dim3(4, 1), 0, s>>>(p, f(1, 2)); }\n", "c", "__global__",
        "__global__ void k(int *p) { __mc_cdp_launch<c>(2, dim3(4, 1), 0, s)(p, f(1, 2)); }\n" },
      /* qualified, template arguments holding '>' in parentheses and a
       * '>>' closer, a configuration over two lines: lines keep their
       * numbers */
      { "a qualified template kernel over lines",
        "__device__ void d() {\n   ::ns::t<float, (3 > 2)>\n      <<<g,\n         b>>>(x);\n}\n", "t", "__device__",
        "__device__ void d() {\n   __mc_cdp_launch<::ns::t<float, (3 > 2)>\n       >(g,\n         b)(x);\n}\n" },
      /* a kernel named without a launch: its address, '&' and all */
      { "a kernel's address", "__global__ void k() { void *f = (void *)c; g(a & c, &c, !&c); }\n", "c", "__global__",
        "__global__ void k() { void *f = (void *)(__mc_kernel_fn<c>); g(a & (__mc_kernel_fn<c>), (__mc_kernel_fn<c>), "
        "!(__mc_kernel_fn<c>)); }\n" },
      { "a launch in a host-device function, a shift in the configuration",
        "__host__ __device__ void d() { k<<<(n >> 1), 64>>>(); }\n", "k", "__host__ __device__",
        "__host__ __device__ void d() { __mc_cdp_launch<k>((n >> 1), 64)(); }\n" },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      result r = launch1(cases[i].src, cases[i].name, cases[i].where);
      CHECK_MSG(r.r == 1 && r.text && !strcmp(r.text, cases[i].want), "%s: got %d, \"%s\"; expected \"%s\"",
                cases[i].what, r.r, r.text ? r.text : "(null)", cases[i].want);
      done(&r);
   }
}

TEST(launches_refused)
{
   static const struct {
      const char *src, *name, *why;
   } cases[] = {
      { "__global__ void k() { c<<<1, 1>>> x; }\n", "c", "its launch is not of the form" },
      { "__global__ void k() { c<<<1, 1; }\n", "c", "its launch is not of the form" },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      result r = launch1(cases[i].src, cases[i].name, "__global__");
      CHECK_MSG(r.r == -1 && !r.text, "case %zu: got %d", i, r.r);
      char want[512];
      int line = 0, col;
      locate(cases[i].src, cases[i].name, 0, &line, &col);
      snprintf(want, sizeof(want),
               "nvcc: %s:%d: kernel '%s' in device code: nvcc launches it from the device (dynamic parallelism); "
               "metalcuda cannot rewrite it into a device-runtime launch: ",
               path, line, cases[i].name);
      CHECK_MSG(r.notes && !strncmp(r.notes, want, strlen(want)), "case %zu: notes \"%s\", expected \"%s...\"", i,
                r.notes ? r.notes : "(null)", want);
      CHECK_MSG(r.notes && strstr(r.notes, cases[i].why), "case %zu: notes \"%s\" do not say \"%s\"", i,
                r.notes ? r.notes : "(null)", cases[i].why);
      done(&r);
   }
}

/* A template kernel's launch: clang reports the configuration call, at
 * the `<<<`. */
TEST(launch_of_a_template)
{
   const char *src = "__global__ void k() {\n   n::t<T, (1 > 0)><<<1, 2>>>(p);\n}\n";
   char diag[4096] = "";
   CHECK(write_src(src));
   snprintf(diag, sizeof(diag),
            "%s:2:20: error: reference to __host__ function 'cudaConfigureCall' in __global__ function\n", path);
   result r = run(diag);
   CHECK_INT(r.r, 1);
   CHECK_STR(r.text, "__global__ void k() {\n   __mc_cdp_launch<n::t<T, (1 > 0)> >(1, 2)(p);\n}\n");
   done(&r);
   /* the same error about another host function is no launch of ours */
   CHECK(write_src(src));
   snprintf(diag, sizeof(diag), "%s:2:20: error: reference to __host__ function 'printf_host' in __global__ function\n",
            path);
   r = run(diag);
   CHECK_INT(r.r, 0);
   done(&r);
}

/* A launch and a __shared__ declaration in one file: both rewritten. */
TEST(launch_and_shared)
{
   const char *src = "__global__ void k() {\n   __shared__ P v;\n   c<<<1, 1>>>(v.x);\n}\n";
   char diag[4096] = "";
   int line, col;
   CHECK(write_src(src));
   locate(src, "c", 0, &line, &col);
   snprintf(diag, sizeof(diag), "%s:%d:%d: error: reference to __global__ function 'c' in __global__ function\n", path,
            line, col);
   add_error(diag, sizeof(diag), src, "v", 0);
   result r = run(diag);
   CHECK_INT(r.r, 1);
   CHECK_STR(r.text, "__global__ void k() {\n"
                     "   __shared__ __mc_shared_storage<P > __mc_raw_v; constexpr auto &v = __mc_raw_v.v;\n"
                     "   __mc_cdp_launch<c>(1, 1)(v.x);\n}\n");
   done(&r);
}
