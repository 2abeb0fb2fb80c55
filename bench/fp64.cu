/*
 * fp64.cu — throughput of double-precision add, mul, fma, div and sqrt as a
 * ratio to the same kernel in single precision.
 *
 * Metal has no double: on an Apple GPU metalcuda computes every f64
 * operation on integers (src/compiler/msl/prelude/f64.metal), so this is
 * the price of exact IEEE binary64 on the device that runs the kernel.
 * The software device runs the same MSL on the CPU's own double
 * arithmetic (metal_stdlib's __mc_f64_*, the same results bit for bit).
 * Real Apple-GPU figures need a Mac; an NVIDIA GPU runs both natively
 * (bench/run.sh --native).
 *
 * Each thread runs 4 independent dependent chains of `iters` steps of one
 * operation; 64 blocks of 256 threads.  Per repetition (5, after a warm-up)
 * the f64 and f32 kernels are timed alternately (launch + synchronise);
 * ratio = median f64 time / median f32 time.  The results of thread 0 are
 * checked against the same chains computed on the host, bit for bit (the
 * host's IEEE arithmetic: rounding to nearest, no contraction but the
 * explicit fma).  iters is argv[1] (default 500).
 */
#include "bench.h"

#include <math.h>

enum { OP_ADD, OP_MUL, OP_FMA, OP_DIV, OP_SQRT, NOPS };
static const char *const op_names[NOPS] = { "add", "mul", "fma", "div", "sqrt" };

#define BLOCKS 64
#define THREADS 256
#define CHAINS 4

/* One step of op on x (the same code on host and device). */
template <typename T> __host__ __device__ static inline T step(int op, T x, T c)
{
   switch (op) {
   case OP_ADD: return x + c;
   case OP_MUL: return x * c;
   case OP_FMA: return fma(x, c, (T)0.25);
   case OP_DIV: return c / x + (T)0.5;   /* stays near its fixed point */
   default: return sqrt(x + c);
   }
}

template <typename T> __host__ __device__ static inline T chain_start(int t, int k)
{
   return (T)1.0 + (T)((t * CHAINS + k) % 97) * (T)0.0078125;
}

template <typename T> __global__ void chains(int op, int iters, T c, T *out)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   T x[CHAINS];
   for (int k = 0; k < CHAINS; k++)
      x[k] = chain_start<T>(t, k);
   for (int i = 0; i < iters; i++)
      for (int k = 0; k < CHAINS; k++)
         x[k] = step(op, x[k], c);
   for (int k = 0; k < CHAINS; k++)
      out[t * CHAINS + k] = x[k];
}

static const double consts[NOPS] = { 1.0e-3, 0.99993, 0.75, 1.5, 2.0 };

template <typename T> static double run(int op, int iters, T *d)
{
   double t0 = now_s();
   chains<T><<<BLOCKS, THREADS>>>(op, iters, (T)consts[op], d);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

/* Thread 0's chains on the host, compared bit for bit. */
template <typename T> static bool check(int op, int iters, T *d)
{
   T got[CHAINS];
   BENCH_CHECK(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (int k = 0; k < CHAINS; k++) {
      volatile T x = chain_start<T>(0, k);
      for (int i = 0; i < iters; i++)
         x = step(op, (T)x, (T)consts[op]);
      if (memcmp(&got[k], (const void *)&x, sizeof(T)) != 0) {
         fprintf(stderr, "fp64.cu: %s.f%zu chain %d: got %.17g, host %.17g\n", op_names[op], 8 * sizeof(T), k,
                 (double)got[k], (double)x);
         return false;
      }
   }
   return true;
}

int main(int argc, char **argv)
{
   const int reps = 5, iters = argc > 1 ? atoi(argv[1]) : 500;
   print_device();
   double *dd;
   float *df;
   BENCH_CHECK(cudaMalloc(&dd, BLOCKS * THREADS * CHAINS * sizeof(double)));
   BENCH_CHECK(cudaMalloc(&df, BLOCKS * THREADS * CHAINS * sizeof(float)));
   for (int op = 0; op < NOPS; op++) {
      run<double>(op, iters, dd);   /* warm-up: translation and compilation */
      run<float>(op, iters, df);
      double t64[reps], t32[reps];
      for (int r = 0; r < reps; r++) {
         t64[r] = run<double>(op, iters, dd);
         t32[r] = run<float>(op, iters, df);
      }
      if (!check<double>(op, iters, dd) || !check<float>(op, iters, df))
         return 1;
      double m64 = median(t64, reps), m32 = median(t32, reps);
      double n = (double)BLOCKS * THREADS * CHAINS * iters;
      char name[64], v[64], ref[64];
      snprintf(name, sizeof(name), "fp64 %s / fp32 %s, throughput", op_names[op], op_names[op]);
      snprintf(v, sizeof(v), "%.3g Gop/s f64", n / m64 * 1e-9);
      snprintf(ref, sizeof(ref), "%.3g Gop/s f32", n / m32 * 1e-9);
      row(name, v, ref, m64 / m32, "f64 time / f32 time: the slowdown of double. Lower is better");
   }
   cudaFree(dd);
   cudaFree(df);
   return 0;
}
