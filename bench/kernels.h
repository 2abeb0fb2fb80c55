/*
 * kernels.h — what the three kernel-benchmark programs share: problem
 * sizes, deterministic inputs, host references and result checks.
 *
 *   kernels.cu      the kernels in CUDA, run through metalcuda (nvcc)
 *   omp_kernels.c   the same computations in plain C with OpenMP (cc)
 *   ocl_kernels.c   the same kernels in OpenCL C, run on PoCL (cc)
 *
 * Each program is called as `prog KERNEL [REPS]`, builds the inputs below,
 * runs the kernel once to warm up (translation / compilation, thread
 * pools, page faults), then REPS timed runs, and checks the output of the
 * last one against a host reference.  It prints
 *   TIME KERNEL <median seconds>
 * and exits 0, or prints why the result is wrong and exits 1 (no time is
 * printed for a wrong result).  bench/kernels.sh runs the three and turns
 * the times into ratios.
 *
 * Valid C11 and C++ (kernels.cu includes it through nvcc's host compiler).
 */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- problem sizes: the same for every implementation ---- */
#define KB_REPS 7                 /* timed repetitions; argv[2] overrides */
#define KB_SAXPY_N (1 << 24)      /* 16M floats */
#define KB_SAXPY_A 2.5f
#define KB_STENCIL_N 2048         /* 2048 x 2048 floats, one sweep */
#define KB_STENCIL_C0 0.5f
#define KB_STENCIL_C1 0.125f
#define KB_SGEMM_N 512            /* 512 x 512 x 512 */
#define KB_TILE 16                /* SGEMM tiles: 16 x 16 threads */
#define KB_REDUCE_N (1 << 24)     /* 16M unsigned ints (block reduction) */
#define KB_SHFL_N (1 << 24)       /* 16M floats (warp-shuffle reduction) */
#define KB_HIST_BYTES (1 << 24)   /* 16M bytes, read as 4M 32-bit words */
#define KB_GROUPS 256             /* reductions and histogram: 256 blocks... */
#define KB_GROUP_SIZE 256         /* ...of 256 threads, grid-stride loops */
#define KB_SAXPY_BLOCK 256
#define KB_STENCIL_BX 32          /* stencil blocks: 32 x 8 threads */
#define KB_STENCIL_BY 8

/* ---- timing (bench.h has the same for the CUDA program) ---- */
#ifndef BENCH_BENCH_H
static inline double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
   qsort(v, n, sizeof(double), cmp_double);
   return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
#endif

/* ---- the kernels, by name ---- */
/* saxpy64: SAXPY indexed by size_t, the 64-bit comparison modern code makes */
static const char *const kb_names[] = {"saxpy", "stencil", "sgemm", "reduce", "shfl", "hist", "saxpy64"};
enum { KB_NKERNELS = 7 };

static inline int kb_kernel_index(const char *name)
{
   for (int i = 0; i < KB_NKERNELS; i++)
      if (strcmp(name, kb_names[i]) == 0)
         return i;
   return -1;
}

/* argv[1] = kernel, argv[2] = repetitions (1..1000). */
static inline int kb_parse_args(int argc, char **argv, int *reps)
{
   int k = argc > 1 ? kb_kernel_index(argv[1]) : -1;
   *reps = argc > 2 ? atoi(argv[2]) : KB_REPS;
   if (k < 0 || *reps < 1 || *reps > 1000) {
      fprintf(stderr, "usage: %s {saxpy|stencil|sgemm|reduce|shfl|hist|saxpy64} [reps]\n", argc > 0 ? argv[0] : "prog");
      exit(2);
   }
   return k;
}

/* ---- deterministic inputs: a hash of the index, no state ---- */
static inline uint32_t kb_hash(uint32_t i, uint32_t seed)
{
   uint32_t x = i * 0x9e3779b9u ^ seed;
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

/* floats in [-1, 1), multiples of 2^-23 */
static inline void kb_fill_sym(float *p, size_t n, uint32_t seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (float)(kb_hash((uint32_t)i, seed) >> 8) * 0x1p-23f - 1.0f;
}

/* floats in [0, 1), multiples of 2^-24 */
static inline void kb_fill_unit(float *p, size_t n, uint32_t seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (float)(kb_hash((uint32_t)i, seed) >> 8) * 0x1p-24f;
}

/* unsigned ints in [0, 255] */
static inline void kb_fill_small(uint32_t *p, size_t n, uint32_t seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = kb_hash((uint32_t)i, seed) & 0xffu;
}

/* bytes */
static inline void kb_fill_bytes(uint8_t *p, size_t n, uint32_t seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (uint8_t)(kb_hash((uint32_t)i, seed) >> 13);
}

/* ---- checks: 0 when right; else print the first wrong value and 1 ----
 *
 * Float tolerances come from the standard error bounds (Higham, Accuracy
 * and Stability of Numerical Algorithms, ch. 3-4) with u = 2^-24, the unit
 * roundoff of float, and gamma(k) = k u / (1 - k u): a value computed with
 * at most k roundings on the way from each input term differs from the
 * exact result by at most gamma(k) times the sum of the terms' magnitudes,
 * whatever the order of the additions and whether a multiply-add is fused
 * (nvcc and OpenCL contract a*b+c into fma by default, gcc -O2 without FMA
 * instructions does not).  References are computed in double (rounding
 * 2^-53, covered by one extra k).  A wrong element, a missed tile or block,
 * a race, all give errors far above these bounds. */
static inline double kb_gamma(double k)
{
   const double u = 0x1p-24;
   return k * u / (1.0 - k * u);
}

/* y = a x + y0: each result is a*x (exact for powers of two, else one
 * rounding) plus y0 (one rounding), or one fused rounding: k = 2 (+1). */
static inline int kb_check_saxpy(size_t n, float a, const float *x, const float *y0, const float *y, const char *who)
{
   for (size_t i = 0; i < n; i++) {
      double v = (double)a * x[i] + y0[i];
      double tol = kb_gamma(3) * (fabs((double)a * x[i]) + fabs((double)y0[i]));
      if (!(fabs(y[i] - v) <= tol)) {
         fprintf(stderr, "%s: saxpy wrong: y[%zu] = %.9g, expected %.9g (tolerance %.3g)\n", who, i, (double)y[i], v,
                 tol);
         return 1;
      }
   }
   return 0;
}

/* out = c0 in + c1 (n + s + w + e) on the interior, the border untouched
 * (0).  Each term goes through at most 3 additions of the neighbours' sum,
 * the multiplication by c1 and the final addition: k = 5 (+1). */
static inline int kb_check_stencil(int n, float c0, float c1, const float *in, const float *out, const char *who)
{
   for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
         size_t p = (size_t)i * n + j;
         double v = 0, tol = 0;
         if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
            double s = (double)in[p - n] + in[p + n] + in[p - 1] + in[p + 1];
            double a = fabs((double)in[p - n]) + fabs((double)in[p + n]) + fabs((double)in[p - 1]) + fabs((double)in[p + 1]);
            v = (double)c0 * in[p] + (double)c1 * s;
            tol = kb_gamma(6) * (fabs((double)c0 * in[p]) + fabs((double)c1) * a);
         }
         if (!(fabs(out[p] - v) <= tol)) {
            fprintf(stderr, "%s: stencil wrong: out[%d][%d] = %.9g, expected %.9g (tolerance %.3g)\n", who, i, j,
                    (double)out[p], v, tol);
            return 1;
         }
      }
   return 0;
}

/* C = A B, n x n, row-major.  A dot product of n terms has at most n
 * roundings per term in any order, fused or not: k = n (+1). */
static inline int kb_check_sgemm(int n, const float *A, const float *B, const float *C, const char *who)
{
   double *v = (double *)calloc((size_t)n, sizeof(double)), *m = (double *)calloc((size_t)n, sizeof(double));
   if (!v || !m) {
      fprintf(stderr, "%s: sgemm check: out of memory\n", who);
      return 1;
   }
   int bad = 0;
   for (int i = 0; i < n && !bad; i++) {
      memset(v, 0, n * sizeof(double));
      memset(m, 0, n * sizeof(double));
      for (int k = 0; k < n; k++) {
         double a = A[(size_t)i * n + k];
         const float *b = B + (size_t)k * n;
         for (int j = 0; j < n; j++) {
            v[j] += a * b[j];
            m[j] += fabs(a * b[j]);
         }
      }
      for (int j = 0; j < n; j++) {
         double tol = kb_gamma(n + 1) * m[j], c = C[(size_t)i * n + j];
         if (!(fabs(c - v[j]) <= tol)) {
            fprintf(stderr, "%s: sgemm wrong: C[%d][%d] = %.9g, expected %.9g (tolerance %.3g)\n", who, i, j, c, v[j],
                    tol);
            bad = 1;
            break;
         }
      }
   }
   free(v);
   free(m);
   return bad;
}

/* Sum of unsigned ints, modulo 2^32: exact in any order. */
static inline int kb_check_reduce(size_t n, const uint32_t *in, uint32_t got, const char *who)
{
   uint32_t s = 0;
   for (size_t i = 0; i < n; i++)
      s += in[i];
   if (got != s) {
      fprintf(stderr, "%s: reduction wrong: sum = %u, expected %u\n", who, got, s);
      return 1;
   }
   return 0;
}

/* Sum of floats by a summation tree in which no term goes through more
 * than `depth` additions: |error| <= gamma(depth) sum |x|.  The caller
 * derives `depth` from its algorithm (per-thread loop + tree levels + the
 * second pass), so the bound holds for any order the hardware picks. */
static inline int kb_check_sum(size_t n, const float *in, float got, double depth, const char *who)
{
   double s = 0, a = 0;
   for (size_t i = 0; i < n; i++) {
      s += in[i];
      a += fabs((double)in[i]);
   }
   double tol = kb_gamma(depth + 1) * a;
   if (!(fabs(got - s) <= tol)) {
      fprintf(stderr, "%s: float sum wrong: %.9g, expected %.9g (tolerance %.3g for %g additions deep)\n", who,
              (double)got, s, tol, depth);
      return 1;
   }
   return 0;
}

/* Depth of the two-pass GPU reduction (CUDA and OpenCL): each thread's
 * grid-stride loop, log2(block) tree levels, then the same in the one-block
 * second pass over the per-block partial sums. */
static inline double kb_gpu_sum_depth(size_t n)
{
   double per_thread = (double)((n + (size_t)KB_GROUPS * KB_GROUP_SIZE - 1) / ((size_t)KB_GROUPS * KB_GROUP_SIZE));
   double levels = log2((double)KB_GROUP_SIZE);
   double second = (double)((KB_GROUPS + KB_GROUP_SIZE - 1) / KB_GROUP_SIZE);
   return per_thread + levels + second + levels;
}

/* 256-bin histogram of bytes: exact. */
static inline int kb_check_hist(size_t nbytes, const uint8_t *in, const uint32_t *hist, const char *who)
{
   uint32_t h[256] = {0};
   for (size_t i = 0; i < nbytes; i++)
      h[in[i]]++;
   for (int b = 0; b < 256; b++)
      if (hist[b] != h[b]) {
         fprintf(stderr, "%s: histogram wrong: bin %d = %u, expected %u\n", who, b, hist[b], h[b]);
         return 1;
      }
   return 0;
}

/* malloc or exit: the host programs have nothing to do without memory. */
static inline void *kb_xmalloc(size_t n)
{
   void *p = malloc(n);
   if (!p) {
      fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
      exit(1);
   }
   return p;
}

#endif
