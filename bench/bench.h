/*
 * bench.h — timing helpers for the bench/ programs.
 *
 * Every result is a ratio of two things measured in the same run, each the
 * median of several repetitions after a warm-up: machines are shared and
 * noisy, so an absolute time means little, but a ratio to a reference
 * measured alongside it does.  Raw numbers are printed for context.
 *
 * Each program prints rows of the table bench/run.sh shows:
 *   ROW <name>|<value>|<reference>|<ratio>|<how to read the ratio>
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <cuda_runtime.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
   qsort(v, n, sizeof(double), cmp_double);
   return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Keeps the compiler from dropping or merging memory operations. */
static inline void clobber(void *p)
{
   __asm__ volatile("" : : "r"(p) : "memory");
}

#define BENCH_CHECK(call)                                                                            \
   do {                                                                                             \
      cudaError_t e_ = (call);                                                                      \
      if (e_ != cudaSuccess) {                                                                      \
         fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
         exit(1);                                                                                   \
      }                                                                                             \
   } while (0)

/* OpenBLAS (libopenblas.so.0), dlopen'ed, or NULL (said).  Debian's
 * OpenBLAS (0.3.21, DYNAMIC_ARCH) does not recognise every x86-64 CPU by
 * its model and then falls back to its Prescott (SSE3) kernels, several
 * times slower than the CPU allows (200 against 35 GFLOP/s SGEMM on 2
 * AVX-512 cores here): unless OPENBLAS_CORETYPE is set, it is set from the
 * CPU's own feature flags before the library initialises, and the kernels
 * OpenBLAS then uses are printed, so that a ratio is against OpenBLAS at
 * its speed. */
#ifndef _WIN32
#include <dlfcn.h>
static inline void *open_openblas(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
   if (!getenv("OPENBLAS_CORETYPE")) {
      __builtin_cpu_init();
      if (__builtin_cpu_supports("avx512f"))
         setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
      else if (__builtin_cpu_supports("avx2"))
         setenv("OPENBLAS_CORETYPE", "Haswell", 0);
   }
#endif
   void *ob = dlopen("libopenblas.so.0", RTLD_NOW);
   if (!ob) {
      printf("NOTE OpenBLAS (libopenblas.so.0) not found: nothing measured\n");
      return NULL;
   }
   char *(*config)(void) = (char *(*)(void))dlsym(ob, "openblas_get_config");
   if (config)
      printf("NOTE OpenBLAS: %s\n", config());
   return ob;
}
#endif

static inline void print_device(void)
{
   struct cudaDeviceProp p;
   BENCH_CHECK(cudaGetDeviceProperties(&p, 0));
   printf("DEVICE %s\n", p.name);
}

/* the largest |a - b| / (|b| + 1): results checked against a reference
 * so that a fast wrong answer cannot win */
static inline double maxrel(const float *a, const float *b, size_t n)
{
   double m = 0;
   for (size_t i = 0; i < n; i++) {
      double d = fabs((double)a[i] - b[i]) / (fabs((double)b[i]) + 1);
      m = d > m ? d : m;
   }
   return m;
}

static inline void row(const char *name, const char *value, const char *ref, double ratio, const char *how)
{
   printf("ROW %s|%s|%s|%.3g|%s\n", name, value, ref, ratio, how);
}

#ifdef __cplusplus
/* The median time of REPS calls of F (at most 16), after one warm-up call. */
template <class F> static double timed_median(int reps, F f)
{
   double t[16];
   f();
   for (int i = 0; i < reps; i++) {
      double t0 = now_s();
      f();
      t[i] = now_s() - t0;
   }
   return median(t, reps);
}
#endif

#endif
