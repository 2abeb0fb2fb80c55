/*
 * hip_check.h — the checks of the tests/hip programs (HIP's API only): every
 * check prints what it got; the last line is "PASS name (N checks)" or
 * "FAIL name: ..." and the exit status says the same.  Expected values come
 * from host references computed in each program, never from a previous run.
 */
#ifndef TESTS_HIP_CHECK_H
#define TESTS_HIP_CHECK_H

#include <hip/hip_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *hc_name = "?";
static long hc_count, hc_failed;
static char hc_first[200];

static inline void hc_begin(const char *name) { hc_name = name; }

static inline bool hc_check(bool ok, const char *what, const char *file, int line)
{
   hc_count++;
   if (!ok) {
      if (!hc_failed++)
         snprintf(hc_first, sizeof(hc_first), "%s:%d: %s", file, line, what);
      printf("  %s:%d: %s\n", file, line, what);
   }
   return ok;
}
#define CHECK(c) hc_check(!!(c), #c, __FILE__, __LINE__)

static inline bool hc_err(hipError_t got, hipError_t want, const char *what, const char *file, int line)
{
   char msg[200];
   snprintf(msg, sizeof(msg), "%s returned %d (%s), expected %d", what, (int)got, hipGetErrorString(got), (int)want);
   return hc_check(got == want, got == want ? what : msg, file, line);
}
#define CHECK_HIP(call) hc_err((call), hipSuccess, #call, __FILE__, __LINE__)
#define CHECK_ERR(call, want) hc_err((call), (want), #call, __FILE__, __LINE__)

static inline bool hc_int(long long got, long long want, const char *what, const char *file, int line)
{
   char msg[200];
   snprintf(msg, sizeof(msg), "%s: got %lld, expected %lld", what, got, want);
   return hc_check(got == want, msg, file, line);
}
#define CHECK_INT(got, want) hc_int((long long)(got), (long long)(want), #got, __FILE__, __LINE__)

/* n values against their references: prints the first few that differ */
#define CHECK_ARRAY(what, got, want, n, fmt)                                                      \
   do {                                                                                          \
      int bad_ = 0;                                                                              \
      for (size_t i_ = 0; i_ < (size_t)(n); i_++)                                                \
         if (!((got)[i_] == (want)[i_]) && bad_++ < 6)                                           \
            printf("    %s[%zu]: got " fmt ", expected " fmt "\n", what, i_, (got)[i_], (want)[i_]); \
      hc_int(bad_, 0, what " (elements that differ)", __FILE__, __LINE__);                       \
   } while (0)

static inline int hc_end(void)
{
   if (hc_failed == 0) {
      printf("PASS %s (%ld checks)\n", hc_name, hc_count);
      return 0;
   }
   printf("FAIL %s: %ld of %ld checks failed (first: %s)\n", hc_name, hc_failed, hc_count, hc_first);
   return 1;
}

/* a small reproducible hash for inputs */
static inline uint32_t hc_mix(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   return x ^ (x >> 16);
}

#endif
