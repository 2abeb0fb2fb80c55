/*
 * curand_device_dist.cu — the cuRAND device API's distributions
 * (curand_kernel.h): curand_normal, curand_normal2/4, curand_log_normal,
 * curand_log_normal2/4 and the _double forms, curand_poisson,
 * curand_poisson4, curand_discrete and curand_discrete4 (on distributions
 * from curandCreatePoissonDistribution) on every state NVIDIA defines them
 * for: XORWOW, Philox4_32_10, MRG32k3a, MTGP32, Sobol32, scrambled
 * Sobol32, Sobol64, scrambled Sobol64.
 *
 * Each (state, operation) runs in one kernel of NT threads (thread t's
 * state: curand_init(1234, t, 7 t) for the pseudo-random states; Sobol
 * dimension t at point 1000 + 37 t (its direction vectors and scramble
 * constant from curandGetDirectionVectors32/64 and
 * curandGetScrambleConstants32/64); one MTGP32 state, parameter set 0,
 * seed 99, that the block shares), which writes up to NV values and then
 * the state's next curand() word: the word shows what the operation
 * consumed and, after an odd number of cached normals, that the cache
 * was used.  Operations with a cache mix calls (normal, normal_double,
 * log_normal) so that the flags' interplay shows.
 *
 * Expected: every value and word from an H200 running this program built
 * by NVIDIA's nvcc against NVIDIA's header and libcurand
 * (`curand_device_dist --dump tests/libs/curand_device_dist_expected.h`,
 * then natively both runtimes pass bit for bit: 520 checks, 2026-12-04).
 * Through metalcuda built by NVIDIA's nvcc (NVIDIA's header translated)
 * every value and word is checked exactly.  Built by metalcuda's nvcc
 * (include/crt/mc_curand_dist.h) the words consumed are NVIDIA's, but the
 * transforms run on metalcuda's device library where NVIDIA's device code
 * uses libdevice's logf/erfcinvf/sincospi: floats and doubles are checked
 * within TOL_F / TOL_D ulps of max(|H200 value|, 1) (the error of a sine
 * near zero is absolute), the next words exactly, the Poisson and discrete
 * integers exactly except a bounded number (MAX_INT_DIFF in all) where a
 * float approximation decides, the square histogram's exactly.
 * The program prints the largest distances and the count it measured.
 *
 * `curand_device_dist --sample N FILE` writes the values of N threads
 * (MTGP32 left out) raw; tests/libs/native/curand_device_dist_compare.py
 * compares an H200's file with metalcuda's.  With N = 512 (2026-12-04,
 * 185 344 integers, floats and doubles alike): built by NVIDIA's nvcc,
 * floats within 16 ulps (before sin/cos.approx were bit exact), doubles,
 * integers and next words identical;
 * built by metalcuda's nvcc, floats within 16 ulps, doubles within 7,
 * integers and next words identical.
 */
#include <curand.h>
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>
#include "../cuda/check.h"

#include <math.h>
#include <string.h>

#if __has_include("curand_device_dist_expected.h")
#include "curand_device_dist_expected.h"
#define HAVE_EXPECTED 1
#else
#define HAVE_EXPECTED 0
#endif

#define NT 4  /* threads (states) per kernel */
#define NV 9  /* values per thread: up to 8 outputs, then the next word */
#define NSTATE 8

/* Tolerances through metalcuda's nvcc.  Floats: libdevice's logf, erfcinvf
 * and expf against metalcuda's device library, times a radius up to 6.8
 * (sqrt(-2 log 2^-33)); measured 16 on 185 344 values (--sample 512, when
 * sin/cos.approx were not yet exact either), 4 here.  Doubles: libdevice's
 * erfcinv, log, exp against metalcuda's device library, measured 7 (4
 * here).  Integers: none differed in the sample; MAX_INT_DIFF allows a few
 * where a float approximation straddles an integer. */
#ifdef __METALCUDA__
#define TOL_F 40.0
#define TOL_D 16.0
#define MAX_INT_DIFF 8
#else
/* Built by NVIDIA's nvcc against NVIDIA's header, the transforms are
 * NVIDIA's PTX, which metalcuda reproduces bit for bit since the SFU's
 * sin/cos/lg2/ex2.approx are modelled (src/compiler/msl/prelude/sfu.metal;
 * 8.8 float ulps before): every value exact. */
#define TOL_F 0.0
#define TOL_D 0.0
#define MAX_INT_DIFF 0
#endif

enum kind { F, D, U };
enum { PSEUDO = 1, PHILOX = 2, WORD = 4, ALL = 7 };   /* which states an operation is for */

struct op {
   const char *name;
   int kind, states;
};
static const op ops[] = {
   { "normal x5", F, ALL },
   { "normal_double x5", D, ALL },
   { "log_normal(0.5, 0.75) x5", F, ALL },
   { "log_normal_double(0.5, 0.75) x5", D, ALL },
   { "normal2 x2", F, PSEUDO | PHILOX },
   { "normal2_double x2", D, PSEUDO | PHILOX },
   { "log_normal2 x2", F, PSEUDO | PHILOX },
   { "log_normal2_double x2", D, PSEUDO | PHILOX },
   { "normal4 x2", F, PHILOX },
   { "normal4_double", D, PHILOX },
   { "log_normal4 x2", F, PHILOX },
   { "log_normal4_double", D, PHILOX },
   { "normal, normal_double, log_normal, normal, normal, normal_double, normal2", F, PSEUDO | PHILOX },
   { "poisson(4.5) x6", U, ALL },
   { "poisson(30) x6", U, ALL },
   { "poisson(200) x6", U, ALL },
   { "poisson(700) x6", U, ALL },
   { "poisson(2500) x6", U, ALL },
   { "poisson(5000) x5", U, ALL },
   { "poisson4(4.5) x2", U, PHILOX },
   { "poisson4(200) x2", U, PHILOX },
   { "poisson4(5000) x2", U, PHILOX },
   { "discrete(30) x6", U, ALL },
   { "discrete(3000) x5", U, ALL },
   { "discrete4(30) x2", U, PHILOX },
   { "discrete4(3000) x2", U, PHILOX },
};
#define NOP ((int)(sizeof ops / sizeof ops[0]))

static const char *state_name[NSTATE] = { "XORWOW", "Philox4_32_10", "MRG32k3a", "MTGP32",
                                          "Sobol32", "ScrambledSobol32", "Sobol64", "ScrambledSobol64" };
static int state_class(int s) { return s == 1 ? PHILOX : s < 3 ? PSEUDO : WORD; }

struct dists {
   curandDiscreteDistribution_t small, large;   /* lambda 30 (square histogram), 3000 (normal) */
};

struct out {
   unsigned long long *v;
   int n;
   __device__ void f(float x) { v[n++] = __float_as_uint(x); }
   __device__ void d(double x) { v[n++] = (unsigned long long)__double_as_longlong(x); }
   __device__ void u(unsigned x) { v[n++] = x; }
};

/* one copy of each distribution function per kernel, not one per call
 * site (NVIDIA's header inlines everything: the unrolled loops made
 * kernels of megabytes of MSL, 80 s to compile on the software device) */
template <class S> __device__ __noinline__ float N_(S *s) { return curand_normal(s); }
template <class S> __device__ __noinline__ double ND_(S *s) { return curand_normal_double(s); }
template <class S> __device__ __noinline__ float LN_(S *s, float m, float d) { return curand_log_normal(s, m, d); }
template <class S> __device__ __noinline__ double LND_(S *s, double m, double d)
{
   return curand_log_normal_double(s, m, d);
}
template <class S> __device__ __noinline__ unsigned P_(S *s, double l) { return curand_poisson(s, l); }
typedef curandDiscreteDistribution_t dist_t;
template <class S> __device__ __noinline__ unsigned DS_(S *s, dist_t d) { return curand_discrete(s, d); }
template <class S> __device__ __noinline__ float2 N2_(S *s) { return curand_normal2(s); }
template <class S> __device__ __noinline__ double2 N2D_(S *s) { return curand_normal2_double(s); }
template <class S> __device__ __noinline__ float2 LN2_(S *s) { return curand_log_normal2(s, 0.5f, 0.75f); }
template <class S> __device__ __noinline__ double2 LN2D_(S *s) { return curand_log_normal2_double(s, 0.5, 0.75); }

/* the operations every state has */
template <class S> __device__ void common_op(S *s, int op, out &o, dists ds)
{
   switch (op) {
   case 0: for (int i = 0; i < 5; i++) o.f(N_(s)); break;
   case 1: for (int i = 0; i < 5; i++) o.d(ND_(s)); break;
   case 2: for (int i = 0; i < 5; i++) o.f(LN_(s, 0.5f, 0.75f)); break;
   case 3: for (int i = 0; i < 5; i++) o.d(LND_(s, 0.5, 0.75)); break;
   case 13: for (int i = 0; i < 6; i++) o.u(P_(s, 4.5)); break;
   case 14: for (int i = 0; i < 6; i++) o.u(P_(s, 30.0)); break;
   case 15: for (int i = 0; i < 6; i++) o.u(P_(s, 200.0)); break;
   case 16: for (int i = 0; i < 6; i++) o.u(P_(s, 700.0)); break;
   case 17: for (int i = 0; i < 6; i++) o.u(P_(s, 2500.0)); break;
   case 18: for (int i = 0; i < 5; i++) o.u(P_(s, 5000.0)); break;
   case 22: for (int i = 0; i < 6; i++) o.u(DS_(s, ds.small)); break;
   case 23: for (int i = 0; i < 5; i++) o.u(DS_(s, ds.large)); break;
   }
}

/* the pairs and the cache's interplay (XORWOW, Philox, MRG32k3a) */
template <class S> __device__ void pair_op(S *s, int op, out &o)
{
   switch (op) {
   case 4: for (int i = 0; i < 2; i++) { float2 v = N2_(s); o.f(v.x), o.f(v.y); } break;
   case 5: for (int i = 0; i < 2; i++) { double2 v = N2D_(s); o.d(v.x), o.d(v.y); } break;
   case 6: for (int i = 0; i < 2; i++) { float2 v = LN2_(s); o.f(v.x), o.f(v.y); } break;
   case 7:
      for (int i = 0; i < 2; i++) {
         double2 v = LN2D_(s);
         o.d(v.x), o.d(v.y);
      }
      break;
   case 12: {
      o.f(N_(s));
      o.f((float)ND_(s));
      o.f(LN_(s, 0.0f, 1.0f));   /* flag 1 is not 2: a new pair */
      o.f(N_(s));                /* flag 2 is not 1: a new pair */
      o.f(N_(s));                /* the cached one */
      o.f((float)ND_(s));        /* the double cache's */
      float2 v = N2_(s);         /* the cache untouched */
      o.f(v.x), o.f(v.y);
      break;
   }
   }
}

/* the word-a-value states have no pairs */
__device__ void pair_op(curandStateMtgp32_t *, int, out &) {}
__device__ void pair_op(curandStateSobol32_t *, int, out &) {}
__device__ void pair_op(curandStateScrambledSobol32_t *, int, out &) {}
__device__ void pair_op(curandStateSobol64_t *, int, out &) {}
__device__ void pair_op(curandStateScrambledSobol64_t *, int, out &) {}

typedef curandStatePhilox4_32_10_t philox_t;
__device__ __noinline__ float4 N4_(philox_t *s) { return curand_normal4(s); }
__device__ __noinline__ float4 LN4_(philox_t *s) { return curand_log_normal4(s, 0.5f, 0.75f); }
__device__ __noinline__ uint4 P4_(philox_t *s, double l) { return curand_poisson4(s, l); }
__device__ __noinline__ uint4 DS4_(philox_t *s, dist_t d) { return curand_discrete4(s, d); }

template <class S> __device__ void quad_op(S *, int, out &, dists) {}
template <> __device__ void quad_op(curandStatePhilox4_32_10_t *s, int op, out &o, dists ds)
{
   switch (op) {
   case 8: for (int i = 0; i < 2; i++) { float4 v = N4_(s); o.f(v.x), o.f(v.y), o.f(v.z), o.f(v.w); } break;
   case 9: { auto v = curand_normal4_double(s); o.d(v.x), o.d(v.y), o.d(v.z), o.d(v.w); break; }
   case 10:
      for (int i = 0; i < 2; i++) {
         float4 v = LN4_(s);
         o.f(v.x), o.f(v.y), o.f(v.z), o.f(v.w);
      }
      break;
   case 11: { auto v = curand_log_normal4_double(s, 0.5, 0.75); o.d(v.x), o.d(v.y), o.d(v.z), o.d(v.w); break; }
   case 19: case 20: case 21: {
      double l = op == 19 ? 4.5 : op == 20 ? 200.0 : 5000.0;
      for (int i = 0; i < 2; i++) { uint4 v = P4_(s, l); o.u(v.x), o.u(v.y), o.u(v.z), o.u(v.w); }
      break;
   }
   case 24: case 25:
      for (int i = 0; i < 2; i++) {
         uint4 v = DS4_(s, op == 24 ? ds.small : ds.large);
         o.u(v.x), o.u(v.y), o.u(v.z), o.u(v.w);
      }
      break;
   }
}

template <class S> __device__ void run_op(S *s, int op, unsigned long long *v, dists ds)
{
   out o = { v, 0 };
   common_op(s, op, o, ds);
   pair_op(s, op, o);
   quad_op(s, op, o, ds);
   v[NV - 1] = (unsigned long long)curand(s);   /* what the operation left */
}

template <class S> __global__ void pseudo_kernel(int op, unsigned long long *v, dists ds)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   S s;
   curand_init(1234ull, (unsigned long long)t, 7ull * t, &s);
   run_op(&s, op, v + NV * t, ds);
}

__global__ void mtgp_kernel(curandStateMtgp32_t *st, int op, unsigned long long *v, dists ds)
{
   run_op(st, op, v + NV * threadIdx.x, ds);
}

template <class S, class V> __global__ void sobol_kernel(V *vec, int op, unsigned long long *v, dists ds)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   S s;
   curand_init(vec[t], 1000u + 37u * t, &s);
   run_op(&s, op, v + NV * t, ds);
}
template <class S, class V, class C>
__global__ void scrambled_kernel(V *vec, C *c, int op, unsigned long long *v, dists ds)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   S s;
   curand_init(vec[t], c[t], 1000u + 37u * t, &s);
   run_op(&s, op, v + NV * t, ds);
}

static unsigned long long got[NSTATE][NOP][NT * NV];
static bool ran[NSTATE][NOP];

/* every (state, operation) on N threads, thread t's values at
 * OUT[(state NOP + operation) N NV + NV t]; without MTGP32 for N > NT (a
 * large sample, --sample) */
static void run_all(int n, unsigned long long *out)
{
   size_t bytes = sizeof(unsigned long long) * NV * n;
   int block = n < 64 ? n : 64;
   unsigned long long *v;
   dists ds;
   CHECK_INT(curandCreatePoissonDistribution(30.0, &ds.small), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandCreatePoissonDistribution(3000.0, &ds.large), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaMalloc(&v, bytes));

   curandDirectionVectors32_t *v32, *sv32, *dv32, *dsv32;
   curandDirectionVectors64_t *v64, *sv64, *dv64, *dsv64;
   unsigned *c32, *dc32;
   unsigned long long *c64, *dc64;
   CHECK_INT(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandGetDirectionVectors32(&sv32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandGetDirectionVectors64(&sv64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandGetScrambleConstants32(&c32), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandGetScrambleConstants64(&c64), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaMalloc(&dv32, n * sizeof *dv32));
   CHECK_CUDA(cudaMalloc(&dsv32, n * sizeof *dsv32));
   CHECK_CUDA(cudaMalloc(&dv64, n * sizeof *dv64));
   CHECK_CUDA(cudaMalloc(&dsv64, n * sizeof *dsv64));
   CHECK_CUDA(cudaMalloc(&dc32, n * sizeof *dc32));
   CHECK_CUDA(cudaMalloc(&dc64, n * sizeof *dc64));
   CHECK_CUDA(cudaMemcpy(dv32, v32, n * sizeof *dv32, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dsv32, sv32, n * sizeof *dsv32, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dv64, v64, n * sizeof *dv64, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dsv64, sv64, n * sizeof *dsv64, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dc32, c32, n * sizeof *dc32, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dc64, c64, n * sizeof *dc64, cudaMemcpyHostToDevice));

   mtgp32_kernel_params_t *kp;
   curandStateMtgp32_t *mt;
   CHECK_CUDA(cudaMalloc(&kp, sizeof *kp));
   CHECK_CUDA(cudaMalloc(&mt, sizeof *mt));
   CHECK_INT(curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, kp), CURAND_STATUS_SUCCESS);

   for (int s = 0; s < NSTATE; s++)
      for (int op = 0; op < NOP; op++) {
         if (!(ops[op].states & state_class(s)) || (s == 3 && n > NT))
            continue;
         CHECK_CUDA(cudaMemset(v, 0, bytes));
         switch (s) {
         case 0: pseudo_kernel<curandStateXORWOW_t><<<n / block, block>>>(op, v, ds); break;
         case 1: pseudo_kernel<curandStatePhilox4_32_10_t><<<n / block, block>>>(op, v, ds); break;
         case 2: pseudo_kernel<curandStateMRG32k3a_t><<<n / block, block>>>(op, v, ds); break;
         case 3:
            CHECK_INT(curandMakeMTGP32KernelState(mt, mtgp32dc_params_fast_11213, kp, 1, 99), CURAND_STATUS_SUCCESS);
            mtgp_kernel<<<1, NT>>>(mt, op, v, ds);
            break;
         case 4: sobol_kernel<curandStateSobol32_t><<<n / block, block>>>(dv32, op, v, ds); break;
         case 5: scrambled_kernel<curandStateScrambledSobol32_t><<<n / block, block>>>(dsv32, dc32, op, v, ds); break;
         case 6: sobol_kernel<curandStateSobol64_t><<<n / block, block>>>(dv64, op, v, ds); break;
         case 7: scrambled_kernel<curandStateScrambledSobol64_t><<<n / block, block>>>(dsv64, dc64, op, v, ds); break;
         }
         CHECK_CUDA(cudaGetLastError());
         CHECK_CUDA(cudaMemcpy(out + ((size_t)s * NOP + op) * NV * n, v, bytes, cudaMemcpyDeviceToHost));
         ran[s][op] = true;
      }
   cudaFree(v), cudaFree(dv32), cudaFree(dsv32), cudaFree(dv64), cudaFree(dsv64), cudaFree(dc32), cudaFree(dc64);
   cudaFree(kp), cudaFree(mt);
   CHECK_INT(curandDestroyDistribution(ds.small), CURAND_STATUS_SUCCESS);
   CHECK_INT(curandDestroyDistribution(ds.large), CURAND_STATUS_SUCCESS);
}

/* |got - want| in ulps of max(|want|, 1) */
static double ulps_f(unsigned long long g, unsigned long long w)
{
   float a, b;
   unsigned ga = (unsigned)g, wb = (unsigned)w;
   memcpy(&a, &ga, 4), memcpy(&b, &wb, 4);
   if (ga == wb)
      return 0;
   if (!isfinite(a) || !isfinite(b))
      return INFINITY;
   int e;
   frexp(fmax(fabs((double)b), 1.0), &e);
   return fabs((double)a - (double)b) / ldexp(1.0, e - 24);
}
static double ulps_d(unsigned long long g, unsigned long long w)
{
   double a, b;
   memcpy(&a, &g, 8), memcpy(&b, &w, 8);
   if (g == w)
      return 0;
   if (!isfinite(a) || !isfinite(b))
      return INFINITY;
   int e;
   frexp(fmax(fabs(b), 1.0), &e);
   return fabs(a - b) / ldexp(1.0, e - 53);
}

static void dump(FILE *f)
{
   fprintf(f, "/* curand_device_dist_expected.h — written by `curand_device_dist --dump FILE` on an\n"
          " * NVIDIA GPU (NVIDIA's nvcc, curand_kernel.h and libcurand): [state][operation] =\n"
          " * thread t's %d values at %d t (unused ones 0, the last the next curand() word) */\n", NV, NV);
   fprintf(f, "static const unsigned long long cdd_expected[%d][%d][%d] = {\n", NSTATE, NOP, NT * NV);
   for (int s = 0; s < NSTATE; s++) {
      fprintf(f, "  { /* %s */\n", state_name[s]);
      for (int op = 0; op < NOP; op++) {
         fprintf(f, "    { /* %s */", ops[op].name);
         for (int i = 0; i < NT * NV; i++)
            fprintf(f, "%s0x%llx,", i % 6 == 0 ? "\n      " : " ", got[s][op][i]);
         fprintf(f, "\n    },\n");
      }
      fprintf(f, "  },\n");
   }
   fprintf(f, "};\n");
}

int main(int argc, char **argv)
{
   check_begin("curand_device_dist");
   /* --sample N FILE: the values of N threads (a multiple of 64), raw, for
    * measuring the distances (src/libs/curand/README.md) */
   if (argc > 3 && strcmp(argv[1], "--sample") == 0) {
      int n = atoi(argv[2]);
      size_t count = (size_t)NSTATE * NOP * NV * n;
      unsigned long long *all = (unsigned long long *)calloc(count, 8);
      run_all(n, all);
      FILE *f = fopen(argv[3], "wb");
      if (CHECK(f != NULL)) {
         CHECK(fwrite(all, 8, count, f) == count);
         fclose(f);
      }
      free(all);
      return check_end();
   }
   run_all(NT, &got[0][0][0]);
   if (argc > 2 && strcmp(argv[1], "--dump") == 0) {
      FILE *f = fopen(argv[2], "w");
      if (CHECK(f != NULL)) {
         dump(f);
         fclose(f);
      }
      return check_end();
   }
#if HAVE_EXPECTED
   double max_f = 0, max_d = 0;
   int int_diff = 0, int_total = 0, word_diff = 0;
   for (int s = 0; s < NSTATE; s++)
      for (int op = 0; op < NOP; op++) {
         if (!ran[s][op])
            continue;
         const unsigned long long *g = got[s][op], *w = cdd_expected[s][op];
         double worst = 0;
         int diff = 0, words = 0;
         bool m2 = op == 22 || op == 24;   /* the square histogram: exact */
         for (int t = 0; t < NT; t++) {
            for (int i = 0; i < NV - 1; i++) {
               unsigned long long a = g[NV * t + i], b = w[NV * t + i];
               if (ops[op].kind == F)
                  worst = fmax(worst, ulps_f(a, b));
               else if (ops[op].kind == D)
                  worst = fmax(worst, ulps_d(a, b));
               else if (a != b)
                  diff++;
            }
            words += g[NV * t + NV - 1] != w[NV * t + NV - 1];
         }
         bool ok;
         if (ops[op].kind == U) {
            int_total += NT * (NV - 1);
            int_diff += diff;
            word_diff += words;
            /* a Poisson value that differs may have taken another number of words */
            ok = m2 ? diff == 0 && words == 0 : true;
         } else {
            ok = worst <= (ops[op].kind == F ? TOL_F : TOL_D) && words == 0;
            if (ops[op].kind == F)
               max_f = fmax(max_f, worst);
            else
               max_d = fmax(max_d, worst);
         }
         if (!CHECK(ok) || diff || words || worst > 2)
            printf("   %s %s: %s%.1f ulp, %d values and %d next words differ\n", state_name[s], ops[op].name,
                   ok ? "" : "FAILED: ", worst, diff, words);
      }
   printf("   largest distance from the H200: float %.1f ulp, double %.1f ulp (of max(|value|, 1)); "
          "integers: %d of %d differ, %d next words\n", max_f, max_d, int_diff, int_total, word_diff);
   CHECK(int_diff <= MAX_INT_DIFF);
   CHECK(word_diff <= MAX_INT_DIFF);   /* a rejection or Knuth draw that took another number of words */
#else
   CHECK(!"curand_device_dist_expected.h is missing (write it with --dump on an NVIDIA GPU)");
#endif
   return check_end();
}
