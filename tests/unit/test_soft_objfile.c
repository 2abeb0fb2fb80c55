/*
 * test_soft_objfile.c — the software device's object checks on ELF and
 * Mach-O (src/metal/soft/objfile.c, objcheck.c, fibercheck.c).
 *
 * The device compiles each library to an object and reads it before
 * linking: writable program-scope data is refused, recursion is refused,
 * and the kernels that reach a barrier or SIMD-group function are marked
 * to run as fibers.  On macOS the object is Mach-O.  clang cross-compiles
 * freestanding C++ for any target, so every check runs here on objects for
 * x86-64 and arm64 Linux (ELF) and x86-64 and arm64 macOS (Mach-O):
 *  1. hand-written translation units, one rule each, on every target;
 *  2. real kernels (tests/msl) through the device's own compile step: the
 *     verdicts and fiber marks on macOS objects equal those on this
 *     system's, kernel by kernel.
 * A target clang cannot compile for is a SKIP, named.
 */
#include "harness.h"

#include "../../src/metal/soft/soft.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const targets[] = {
   "x86_64-linux-gnu", "aarch64-linux-gnu", "x86_64-apple-macos14", "arm64-apple-macos14",
};

/* The clang++ the software device would use (METALCUDA_CXX, else clang++). */
static const char *cxx(void)
{
   const char *e = getenv("METALCUDA_CXX");
   return e && *e ? e : "clang++";
}

/* Compiles src for target into a fresh object; its path (malloc'ed) or
 * NULL when the compiler cannot (printed). */
static char *compile_tu(const char *src, const char *target)
{
   static int seq;
   char dir[] = "/tmp/mc-objfile-XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char cpp[256], obj[256], cmd[1024];
   snprintf(cpp, sizeof(cpp), "%s/t%d.cpp", dir, seq);
   snprintf(obj, sizeof(obj), "%s/t%d.o", dir, seq++);
   FILE *f = fopen(cpp, "w");
   if (!f)
      return NULL;
   fputs(src, f);
   fclose(f);
   /* the device's flags that shape the object (compile.c) */
   snprintf(cmd, sizeof(cmd),
            "%s -target %s -std=c++17 -O2 -ffunction-sections -fdata-sections -fno-optimize-sibling-calls "
            "-fno-exceptions -fno-rtti -nostdinc -nostdinc++ -c %s -o %s 2>&1",
            cxx(), target, cpp, obj);
   int rc = system(cmd);
   unlink(cpp);
   if (rc != 0) {
      printf("    %s cannot compile for %s\n", cxx(), target);
      return NULL;
   }
   return strdup(obj);
}

static void drop(char *obj)
{
   if (!obj)
      return;
   unlink(obj);
   char *slash = strrchr(obj, '/');
   *slash = 0;
   rmdir(obj);
   free(obj);
}

/* The flags word of __mc_info_<kernel> in the object, or -1. */
static long info_flags(const char *obj, const char *kernel)
{
   size_t len;
   uint8_t *img = (uint8_t *)file_read(obj, &len);
   soft_obj o;
   long got = -1;
   if (img && soft_obj_read(&o, img, len, NULL)) {
      char want[128];
      snprintf(want, sizeof(want), "__mc_info_%s", kernel);
      for (uint32_t k = 0; k < o.nsym; k++) {
         const uint8_t *p = o.sym[k].data && !strcmp(o.sym[k].name, want)
                               ? soft_obj_bytes(&o, &o.sym[k], sizeof(soft_kernel_info)) : NULL;
         if (p) {
            uint32_t v;
            memcpy(&v, p + offsetof(soft_kernel_info, flags), sizeof(v));
            got = v;
         }
      }
      soft_obj_free(&o);
   }
   free(img);
   return got;
}

/* ---- 1. one rule each ---- */

#define KERNEL_INFO                                                            \
   "struct info { unsigned abi, max_threads, static_tg_bytes, buffer_mask, tg_mask, flags; };\n" \
   "#define INFO(k) extern \"C\" __attribute__((visibility(\"default\"))) const info __mc_info_##k = " \
   "{4, 1024, 0, 0, 0, 0};\n"

/* a: calls a helper that syncs; b: no sync; c: reaches the sync only
 * through a table of function pointers; d: a sync-free helper shared with
 * a. */
static const char fiber_tu[] = KERNEL_INFO
   "extern \"C\" __attribute__((noinline)) void __mc_fiber_sync(int *p) { __asm__ volatile(\"\" :: \"r\"(p) : \"memory\"); }\n"
   "static __attribute__((noinline)) void helper(int *p) { p[2] = 1; __mc_fiber_sync(p); }\n"
   "static __attribute__((noinline)) int plain(int *p) { return p[0] * 3 + 1; }\n"
   "typedef void (*fn)(int *);\n"
   "extern \"C\" const fn table[2] = { helper, helper };\n"
   "extern \"C\" void __mc_entry_a(int *p) { helper(p); p[1] = plain(p); }\n"
   "extern \"C\" void __mc_entry_b(int *p) { p[1] = plain(p); }\n"
   "extern \"C\" void __mc_entry_c(int *p, int i) { table[i & 1](p); }\n"
   "extern \"C\" void __mc_entry_d(int *p) { p[3] = plain(p) * 2; }\n"
   "INFO(a) INFO(b) INFO(c) INFO(d)\n";

TEST(fiber_kernels_marked_on_every_format)
{
   int done = 0;
   for (size_t t = 0; t < sizeof(targets) / sizeof(*targets); t++) {
      char *obj = compile_tu(fiber_tu, targets[t]);
      if (!obj)
         continue;
      char *err = NULL;
      CHECK_MSG(soft_check_object(obj, &err), "%s: %s", targets[t], err);
      CHECK_MSG(soft_mark_fiber_kernels(obj, &err), "%s: %s", targets[t], err);
      static const struct { const char *k; long flags; } want[] = {
         {"a", 1}, {"b", 0}, {"c", 1}, {"d", 0},
      };
      for (size_t i = 0; i < 4; i++)
         CHECK_MSG(info_flags(obj, want[i].k) == want[i].flags, "%s: kernel %s: flags %ld, expected %ld",
                   targets[t], want[i].k, info_flags(obj, want[i].k), want[i].flags);
      drop(obj);
      done++;
   }
   if (done < 4)
      test_skip("%d of 4 targets compiled", done);
}

static const struct { const char *src, *name; } writable[] = {
   {"int counter; extern \"C\" int f() { return ++counter; }\n", "'counter'"},
   {"extern \"C\" int f() { static int calls; return ++calls; }\n", "'calls'"},
   {"int table[4] = {1, 2, 3, 4}; extern \"C\" int f(int i) { return table[i & 3]++; }\n", "'table'"},
   {"thread_local int tls; extern \"C\" int f() { return ++tls; }\n", "'tls'"},
};

/* Read-only data, pointer tables (read-only after relocation) and the
 * generated code's own __mc storage pass. */
static const char allowed_tu[] =
   "static int g1(int x) { return x + 1; }\n"
   "typedef int (*fn)(int);\n"
   "extern \"C\" const fn fns[1] = { g1 };\n"
   "extern \"C\" const int konst[3] = {1, 2, 3};\n"
   "static thread_local int __mc_tg_storage[64];\n"
   "extern \"C\" int f(int i) { __mc_tg_storage[i & 63] += konst[i % 3]; return fns[0](__mc_tg_storage[i & 63]); }\n";

TEST(writable_data_refused_on_every_format)
{
   int done = 0;
   for (size_t t = 0; t < sizeof(targets) / sizeof(*targets); t++) {
      char *obj = compile_tu(allowed_tu, targets[t]);
      if (!obj)
         continue;
      char *err = NULL;
      CHECK_MSG(soft_check_object(obj, &err), "%s: allowed data refused: %s", targets[t], err);
      drop(obj);
      for (size_t i = 0; i < sizeof(writable) / sizeof(*writable); i++) {
         obj = compile_tu(writable[i].src, targets[t]);
         CHECK(obj);
         err = NULL;
         bool ok = soft_check_object(obj, &err);
         CHECK_MSG(!ok, "%s: %s was not refused", targets[t], writable[i].name);
         CHECK_CONTAINS(err, writable[i].name);
         CHECK_CONTAINS(err, "writable program-scope or static variable");
         free(err);
         drop(obj);
      }
      done++;
   }
   if (done < 4)
      test_skip("%d of 4 targets compiled", done);
}

TEST(recursion_refused_on_every_format)
{
   static const char *const tus[] = {
      "static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
      "extern \"C\" int f(int n) { return fib(n); }\n",
      "static int odd(int n);\n"
      "static __attribute__((noinline)) int even(int n) { return n == 0 ? 1 : odd(n - 1) * 5 + 2; }\n"
      "static __attribute__((noinline)) int odd(int n) { return n == 0 ? 0 : even(n - 1) * 3 + 1; }\n"
      "extern \"C\" int f(int n) { return even(n); }\n",
   };
   int done = 0;
   for (size_t t = 0; t < sizeof(targets) / sizeof(*targets); t++)
      for (size_t i = 0; i < 2; i++) {
         char *obj = compile_tu(tus[i], targets[t]);
         if (!obj)
            continue;
         char *err = NULL;
         CHECK_MSG(!soft_mark_fiber_kernels(obj, &err), "%s: recursion %zu not refused", targets[t], i);
         CHECK_CONTAINS(err, "is recursive");
         free(err);
         drop(obj);
         done++;
      }
   if (done < 8)
      test_skip("%d of 8 objects compiled", done);
}

/* A malformed object is an error, never a crash. */
TEST(malformed_objects_refused)
{
   char *obj = compile_tu(fiber_tu, "arm64-apple-macos14");
   if (!obj) {
      test_skip("no Mach-O object to cut");
      return;
   }
   size_t len;
   uint8_t *img = (uint8_t *)file_read(obj, &len);
   CHECK(img);
   for (size_t cut = 0; cut < len; cut += len / 97 + 1) {
      soft_obj o;
      if (soft_obj_read(&o, img, cut, NULL))   /* a prefix may happen to parse: it must not crash */
         soft_obj_free(&o);
   }
   char *err = NULL;
   soft_obj o;
   CHECK(!soft_obj_read(&o, (uint8_t *)"not an object at all", 20, &err));
   CHECK_CONTAINS(err, "not a readable 64-bit little-endian");
   free(err);
   free(img);
   drop(obj);
}

/* ---- 2. real kernels: the macOS objects agree with this system's ---- */

static const char *const msl_cases[] = {
   "vector_add", "simd_shuffle", "simd_reduce", "simdgroup_barrier", "barrier_loop", "threadgroup_static",
   "quad", "named_barrier_soft", "raw_pointer", "err_recursion", "err_recursion_mutual",
   "err_writable_global", "err_static_local",
};

/* "ok" or the error's first line, and every kernel's flags, of msl compiled
 * for target (NULL: this system), into out. */
static bool verdict(const char *msl, const char *target, char *out, size_t cap)
{
   char path[] = "/tmp/mc-objfile-msl-XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0)
      return false;
   close(fd);
   char *err = NULL;
   if (!soft_compile_object(msl, NULL, target, path, &err)) {
      char *nl = err ? strchr(err, '\n') : NULL;
      if (nl)
         *nl = 0;
      snprintf(out, cap, "error: %s", err ? err : "?");
      free(err);
      unlink(path);
      return strstr(out, "cannot") == NULL || strstr(out, "recursive") || strstr(out, "writable");
   }
   size_t len, n = (size_t)snprintf(out, cap, "ok");
   uint8_t *img = (uint8_t *)file_read(path, &len);
   soft_obj o;
   if (img && soft_obj_read(&o, img, len, NULL)) {
      for (uint32_t k = 0; k < o.nsym; k++) {
         const uint8_t *p = o.sym[k].data && !strncmp(o.sym[k].name, "__mc_info_", 10)
                               ? soft_obj_bytes(&o, &o.sym[k], sizeof(soft_kernel_info)) : NULL;
         uint32_t v;
         if (p && n < cap) {
            memcpy(&v, p + offsetof(soft_kernel_info, flags), sizeof(v));
            n += (size_t)snprintf(out + n, cap - n, " %s=%u", o.sym[k].name + 10, v);
         }
      }
      soft_obj_free(&o);
   }
   free(img);
   unlink(path);
   return true;
}

TEST(metal_kernels_same_on_macos)
{
   int compared = 0;
   for (size_t i = 0; i < sizeof(msl_cases) / sizeof(*msl_cases); i++) {
      char file[512];
      snprintf(file, sizeof(file), "%s/msl/%s.metal", test_srcdir(), msl_cases[i]);
      char *msl = file_read(file, NULL);
      CHECK_MSG(msl, "cannot read %s", file);
      char here[2048], there[2048];
      CHECK_MSG(verdict(msl, NULL, here, sizeof(here)), "%s: %s", msl_cases[i], here);
      for (size_t t = 2; t < 4; t++) {
         if (!verdict(msl, targets[t], there, sizeof(there))) {
            printf("    %s for %s: %s\n", msl_cases[i], targets[t], there);
            continue;
         }
         CHECK_MSG(!strcmp(here, there), "%s: here \"%s\", on %s \"%s\"", msl_cases[i], here, targets[t],
                   there);
         compared++;
      }
      free(msl);
   }
   CHECK_MSG(compared > 0, "no macOS object could be compiled");
   if (compared < 2 * (int)(sizeof(msl_cases) / sizeof(*msl_cases)))
      test_skip("%d of %d macOS objects compared", compared, 2 * (int)(sizeof(msl_cases) / sizeof(*msl_cases)));
}
