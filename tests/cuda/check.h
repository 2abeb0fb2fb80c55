/*
 * check.h — the checks every tests/cuda program uses.
 *
 * A program calls check_begin("name") first and ends with
 * `return check_end();`, which prints the last line, "PASS name" or
 * "FAIL name: N of M checks failed (first: ...)", and returns the exit
 * status (0 only on success).  The same binaries must pass on an NVIDIA GPU
 * and through metalcuda, so nothing here knows which one it runs on except
 * TODO_METALCUDA.
 *
 * Every failed check prints where it is, what it checked, the value it got
 * and the value it expected:
 *
 *    CHECK(cond)                  a condition (prints its text)
 *    CHECK_CUDA(call)             call returns cudaSuccess (prints the error got)
 *    CHECK_ERR(call, want)        call returns the error want
 *    CHECK_INT(got, want)         integers, printed in decimal and hex
 *    CHECK_F32(got, want)         floats compared bit for bit (NaN == NaN only
 *                                 if the bits match), printed as %.9g, %a, hex
 *    CHECK_STR(got, want)         C strings
 *    CHECK_ARRAY_I32/U32/I64/U64/F32(what, got, want, n)
 *                                 whole arrays; one check, which on failure
 *                                 prints the first CHECK_ARRAY_SHOW
 *                                 mismatches with their index and the count
 *
 * A program that fails a great many element checks prints the first
 * CHECK_MAX_LINES failures and then only counts the rest, so a broken
 * kernel cannot bury the summary under 10^5 lines.
 *
 * Known gaps of metalcuda are written TODO_METALCUDA(cond, "why"): on
 * NVIDIA hardware it is an ordinary CHECK; through metalcuda (recognised by
 * the device name) the condition is expected to be false, is counted as a
 * todo, and counts as a failure the day it starts holding, so the mark is
 * removed as soon as the gap is closed.
 *
 * Helpers: fill_u32/fill_u64 write a sentinel pattern (prove the kernel wrote
 * its outputs), f32_bits/bits_f32 reinterpret, dev_alloc_fill copies a
 * sentinel-filled buffer to a fresh allocation, mix32 is a small hash for
 * test data.
 */
#ifndef TESTS_CUDA_CHECK_H
#define TESTS_CUDA_CHECK_H

#include <cuda_runtime.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL32 0xdeadbeefu
#define SENTINEL64 0xdeadbeefcafef00dull

#ifndef CHECK_MAX_LINES
#define CHECK_MAX_LINES 60
#endif
#ifndef CHECK_ARRAY_SHOW
#define CHECK_ARRAY_SHOW 8
#endif

static const char *check_name_ = "?";
static long check_count_, check_failed_, check_todo_, check_lines_;
static char check_first_[200];

static inline void check_begin(const char *name)
{
   check_name_ = name;
   setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Records one failed check and prints it (until CHECK_MAX_LINES). */
static inline void check_failf(const char *file, int line, const char *fmt, ...)
{
   char msg[512];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (check_failed_++ == 0)
      snprintf(check_first_, sizeof(check_first_), "%s:%d: %s", file, line, msg);
   if (check_lines_++ < CHECK_MAX_LINES)
      printf("  %s:%d: %s\n", file, line, msg);
   else if (check_lines_ == CHECK_MAX_LINES + 1)
      printf("  ... further failures are counted, not shown\n");
}

static inline bool check_true(bool ok, const char *what, const char *file, int line)
{
   check_count_++;
   if (!ok)
      check_failf(file, line, "CHECK(%s) is false", what);
   return ok;
}
#define CHECK(cond) check_true(!!(cond), #cond, __FILE__, __LINE__)

static inline bool check_err(cudaError_t got, cudaError_t want, const char *what, const char *file, int line)
{
   check_count_++;
   if (got == want)
      return true;
   check_failf(file, line, "%s returned %d %s (\"%s\"), expected %d %s", what, (int)got, cudaGetErrorName(got),
               cudaGetErrorString(got), (int)want, cudaGetErrorName(want));
   return false;
}
#define CHECK_ERR(call, want) check_err((call), (want), #call, __FILE__, __LINE__)
#define CHECK_CUDA(call) check_err((call), cudaSuccess, #call, __FILE__, __LINE__)

static inline bool check_int(long long got, long long want, const char *what, const char *file, int line)
{
   check_count_++;
   if (got == want)
      return true;
   check_failf(file, line, "%s: got %lld (%#llx), expected %lld (%#llx)", what, got, (unsigned long long)got, want,
               (unsigned long long)want);
   return false;
}
#define CHECK_INT(got, want) check_int((long long)(got), (long long)(want), #got, __FILE__, __LINE__)

static inline uint32_t f32_bits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline float bits_f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline bool check_f32(float got, float want, const char *what, const char *file, int line)
{
   check_count_++;
   if (f32_bits(got) == f32_bits(want))
      return true;
   check_failf(file, line, "%s: got %.9g (%a, 0x%08x), expected %.9g (%a, 0x%08x)", what, got, got, f32_bits(got),
               want, want, f32_bits(want));
   return false;
}
#define CHECK_F32(got, want) check_f32((got), (want), #got, __FILE__, __LINE__)

static inline bool check_str(const char *got, const char *want, const char *what, const char *file, int line)
{
   check_count_++;
   if (got && want && strcmp(got, want) == 0)
      return true;
   check_failf(file, line, "%s: got \"%s\", expected \"%s\"", what, got ? got : "(null)", want ? want : "(null)");
   return false;
}
#define CHECK_STR(got, want) check_str((got), (want), #got, __FILE__, __LINE__)

/* One check over a whole array; prints the first mismatches. */
#define CHECK_ARRAY_DEFINE(suffix, T, fmt, conv)                                                            \
   static inline bool check_array_##suffix(const char *what, const T *got, const T *want, size_t n,        \
                                           const char *file, int line)                                     \
   {                                                                                                       \
      size_t bad = 0;                                                                                      \
      check_count_++;                                                                                      \
      for (size_t i = 0; i < n; i++) {                                                                     \
         if (memcmp(&got[i], &want[i], sizeof(T)) == 0)                                                    \
            continue;                                                                                      \
         if (bad++ < CHECK_ARRAY_SHOW)                                                                     \
            printf("    %s[%zu]: got " fmt ", expected " fmt "\n", what, i, conv(got[i]), conv(want[i]));      \
      }                                                                                                    \
      if (bad == 0)                                                                                        \
         return true;                                                                                      \
      check_failf(file, line, "%s: %zu of %zu elements differ (first shown above)", what, bad, n);        \
      return false;                                                                                        \
   }
#define CHECK_CONV_ID(x) (x)
#define CHECK_CONV_F32(x) (double)(x), f32_bits(x)
CHECK_ARRAY_DEFINE(i32, int32_t, "%" PRId32, CHECK_CONV_ID)
CHECK_ARRAY_DEFINE(u32, uint32_t, "%#" PRIx32, CHECK_CONV_ID)
CHECK_ARRAY_DEFINE(i64, int64_t, "%" PRId64, CHECK_CONV_ID)
CHECK_ARRAY_DEFINE(u64, uint64_t, "%#" PRIx64, CHECK_CONV_ID)
CHECK_ARRAY_DEFINE(f32, float, "%.9g (0x%08x)", CHECK_CONV_F32)
#define CHECK_ARRAY_I32(what, got, want, n) check_array_i32((what), (got), (want), (n), __FILE__, __LINE__)
#define CHECK_ARRAY_U32(what, got, want, n) check_array_u32((what), (got), (want), (n), __FILE__, __LINE__)
#define CHECK_ARRAY_I64(what, got, want, n) check_array_i64((what), (got), (want), (n), __FILE__, __LINE__)
#define CHECK_ARRAY_U64(what, got, want, n) check_array_u64((what), (got), (want), (n), __FILE__, __LINE__)
#define CHECK_ARRAY_F32(what, got, want, n) check_array_f32((what), (got), (want), (n), __FILE__, __LINE__)

/* Through metalcuda?  Recognised by the device name our runtime reports. */
static inline bool on_metalcuda(void)
{
   static int known = -1;
   if (known < 0) {
      struct cudaDeviceProp p;
      known = cudaGetDeviceProperties(&p, 0) == cudaSuccess && strncmp(p.name, "metalcuda", 9) == 0;
   }
   return known == 1;
}

/* make test-full (MC_TEST_FULL set): the full-size runs of a program whose
 * make test run is cut down to keep the suite inside its time budget. */
static inline bool check_full_size(void)
{
   const char *f = getenv("MC_TEST_FULL");
   return f && *f;
}

static inline void check_todo(bool ok, const char *what, const char *why, const char *file, int line)
{
   if (!on_metalcuda()) {
      check_true(ok, what, file, line);
      return;
   }
   check_count_++;
   if (ok) {
      check_failf(file, line, "TODO_METALCUDA(%s) holds now: remove the mark (%s)", what, why);
   } else {
      check_todo_++;
      printf("  %s:%d: todo (metalcuda): %s is false: %s\n", file, line, what, why);
   }
}
#define TODO_METALCUDA(cond, why) check_todo(!!(cond), #cond, (why), __FILE__, __LINE__)

/* The last line of the program and its exit status. */
static inline int check_end(void)
{
   if (check_failed_ == 0) {
      /* A known gap is not a pass: the program is shown (and counted) as
       * a skip until the gap is closed. */
      if (check_todo_)
         printf("SKIP %s: %ld checks hold, %ld known metalcuda gaps (TODO_METALCUDA) do not\n", check_name_,
                check_count_, check_todo_);
      else
         printf("PASS %s (%ld checks)\n", check_name_, check_count_);
      return 0;
   }
   printf("FAIL %s: %ld of %ld checks failed (first: %s)\n", check_name_, check_failed_, check_count_, check_first_);
   return 1;
}

/* A setup step that must work for the rest of the program to mean
 * anything: report and stop. */
#define REQUIRE_CUDA(call)                                                                                   \
   do {                                                                                                     \
      cudaError_t req_e_ = (call);                                                                          \
      if (req_e_ != cudaSuccess) {                                                                          \
         check_err(req_e_, cudaSuccess, #call, __FILE__, __LINE__);                                         \
         return check_end();                                                                                \
      }                                                                                                     \
   } while (0)

static inline void fill_u32(void *p, size_t n, uint32_t v)
{
   uint32_t *q = (uint32_t *)p;
   for (size_t i = 0; i < n; i++)
      q[i] = v;
}

static inline void fill_u64(void *p, size_t n, uint64_t v)
{
   uint64_t *q = (uint64_t *)p;
   for (size_t i = 0; i < n; i++)
      q[i] = v;
}

/* A device allocation of n 32-bit words holding SENTINEL32, or NULL. */
static inline void *dev_alloc_fill32(size_t n)
{
   void *d = NULL;
   uint32_t *h = (uint32_t *)malloc(n * 4 + 4);
   if (!h || cudaMalloc(&d, n * 4) != cudaSuccess) {
      free(h);
      return NULL;
   }
   fill_u32(h, n, SENTINEL32);
   if (cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice) != cudaSuccess) {
      cudaFree(d);
      d = NULL;
   }
   free(h);
   return d;
}

/* A small integer hash (lowbias32) for reproducible test data. */
static inline uint32_t mix32(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

#endif
