/*
 * atomics64.cu — the atomics Metal lacks, which metalcuda emulates (64-bit
 * under a lock table, 16-bit on the enclosing 32-bit word, inc/dec wrap):
 * all 1024 threads of one block on ONE address each, on global memory and
 * on shared memory, then 64 blocks on the same global addresses.
 *
 *   unsigned long long: atomicAdd (final value and the sum of the values it
 *     returned), atomicMin/Max, atomicAnd/Or/Xor, atomicExch (final value,
 *     sum of returns), a CAS-loop increment built on atomicCAS
 *   long long: atomicMin/Max
 *   double: atomicAdd with values whose every partial sum is exact
 *   unsigned: atomicInc/atomicDec wrapping at their bound (final value and
 *     the sum of what they returned)
 *   __half, __half2, __nv_bfloat16: atomicAdd (two halves of one word hit
 *     at once), small integers: exact in every order
 *
 * Expected values come from a host reference; where the order of the
 * atomics is free only what does not depend on it is checked.
 */
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define THREADS 1024
#define BLOCKS 64

/* r (u64): 0 add, 1 sum of add's returns (add of a constant), 2 min.s,
 * 3 max.s, 4 min.u, 5 max.u, 6 and, 7 or, 8 xor, 9 exch, 10 sum of exch's
 * returns, 11 CAS-loop counter, 12 double sum (bits), 13 add target for 1.
 * w (u32): 0 inc final, 1 sum of inc's returns, 2 dec final, 3 sum of dec's
 * returns, 4 half pair (__half at +0 and +2), 5 __half2, 6 bf16 pair. */
#define NR 14
#define NW 7

struct init_vals {
   unsigned long long r[NR];
   unsigned w[NW];
};

/* The double each thread adds: (v % 201 - 100) / 4, made on the host so
 * that the kernels do no fp64 arithmetic but the atomic add. */
static double dval(unsigned long long v) { return (double)((long long)(v % 201) - 100) * 0.25; }

__device__ void one_thread(unsigned long long *r, unsigned *w, unsigned long long v, double d, unsigned i,
                           unsigned inc_bound, unsigned dec_bound)
{
   atomicAdd(&r[0], v);
   atomicAdd(&r[1], atomicAdd(&r[13], 3ull));
   atomicMin((long long *)&r[2], (long long)v);
   atomicMax((long long *)&r[3], (long long)v);
   atomicMin(&r[4], v);
   atomicMax(&r[5], v);
   atomicAnd(&r[6], v | 0x0101010101010101ull);
   atomicOr(&r[7], v & 0x8040201008040201ull);
   atomicXor(&r[8], v);
   atomicAdd(&r[10], atomicExch(&r[9], 0x123456789abcdef0ull));
   unsigned long long old = r[11], seen;   /* a plain read: may be stale, the CAS tells */
   while ((seen = atomicCAS(&r[11], old, old + 0x100000001ull)) != old)
      old = seen;
   atomicAdd((double *)&r[12], d);
   atomicAdd(&w[1], atomicInc(&w[0], inc_bound));
   atomicAdd(&w[3], atomicDec(&w[2], dec_bound));
   /* 16-bit sums stay exact only so far: the first block adds them */
   bool first = i < THREADS;
   __half h = __float2half((float)(first && (i & 1)));
   atomicAdd((__half *)&w[4], h);
   atomicAdd((__half *)&w[4] + 1, __float2half((float)(first && ((i >> 1) & 1))));
   atomicAdd((__half2 *)&w[5], __halves2half2(h, __float2half(first ? 2.0f : 0.0f)));
   __nv_bfloat16 b = __float2bfloat16((float)(first && (i & 7) == 0));
   atomicAdd((__nv_bfloat16 *)&w[6], b);
   atomicAdd((__nv_bfloat16 *)&w[6] + 1, b);
}

__global__ void on_global(const unsigned long long *in, const double *din, unsigned long long *r, unsigned *w,
                          unsigned inc_bound, unsigned dec_bound)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   one_thread(r, w, in[i], din[i], i, inc_bound, dec_bound);
}

__global__ void on_shared(const unsigned long long *in, const double *din, const init_vals *init,
                          unsigned long long *r, unsigned *w, unsigned inc_bound, unsigned dec_bound)
{
   __shared__ unsigned long long sr[NR];
   __shared__ unsigned sw[NW];
   unsigned t = threadIdx.x;
   if (t < NR)
      sr[t] = init->r[t];
   if (t < NW)
      sw[t] = init->w[t];
   __syncthreads();
   unsigned i = blockIdx.x * blockDim.x + t;
   one_thread(sr, sw, in[i], din[i], i, inc_bound, dec_bound);
   __syncthreads();
   if (t < NR)
      r[t] = sr[t];
   if (t < NW)
      w[t] = sw[t];
}

static uint16_t f16_of_int(unsigned n)   /* n <= 2048: exact */
{
   if (n == 0)
      return 0;
   int e = 31 - __builtin_clz(n);
   /* 2048 (e = 11) needs the right shift: n << -1 is undefined, and clang
    * folds it to 0 (the driver build's host reference was wrong there) */
   unsigned m = e <= 10 ? n << (10 - e) : n >> (e - 10);
   return (uint16_t)(((e + 15) << 10) | (m & 0x3ff));
}

static uint16_t bf16_of_int(unsigned n)   /* n <= 256: exact */
{
   float f = (float)n;
   uint32_t u;
   memcpy(&u, &f, 4);
   return (uint16_t)(u >> 16);
}

static uint64_t f64_bits(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

/* The host reference for n threads with inputs in[0..n). */
static void reference(const init_vals *init, const unsigned long long *in, unsigned n, unsigned inc_bound,
                      unsigned dec_bound, unsigned long long *r, unsigned *w)
{
   memcpy(r, init->r, sizeof(init->r));
   memcpy(w, init->w, sizeof(init->w));
   double dsum;
   memcpy(&dsum, &r[12], 8);
   unsigned h0 = 0, h1 = 0, b = 0;
   for (unsigned i = 0; i < n; i++) {
      unsigned long long v = in[i];
      r[0] += v;
      r[1] += r[13];
      r[13] += 3;
      if ((long long)v < (long long)r[2]) r[2] = v;
      if ((long long)v > (long long)r[3]) r[3] = v;
      if (v < r[4]) r[4] = v;
      if (v > r[5]) r[5] = v;
      r[6] &= v | 0x0101010101010101ull;
      r[7] |= v & 0x8040201008040201ull;
      r[8] ^= v;
      r[10] += r[9];
      r[9] = 0x123456789abcdef0ull;
      r[11] += 0x100000001ull;
      dsum += dval(v);
      w[1] += w[0];
      w[0] = w[0] >= inc_bound ? 0 : w[0] + 1;
      w[3] += w[2];
      w[2] = (w[2] == 0 || w[2] > dec_bound) ? dec_bound : w[2] - 1;
      if (i < THREADS) {
         h0 += i & 1;
         h1 += (i >> 1) & 1;
         b += (i & 7) == 0;
      }
   }
   r[12] = f64_bits(dsum);
   w[4] = f16_of_int(h0) | (unsigned)f16_of_int(h1) << 16;
   w[5] = f16_of_int(h0) | (unsigned)f16_of_int(2 * (n < THREADS ? n : THREADS)) << 16;
   w[6] = bf16_of_int(b) | (unsigned)bf16_of_int(b) << 16;
}

static bool run(const char *what, bool shared, unsigned blocks, const init_vals *init,
                const unsigned long long *d_in, const double *d_din, const unsigned long long *h_in)
{
   unsigned n = blocks * THREADS, inc_bound = 100, dec_bound = 37;
   unsigned long long *d_r, h_r[NR], want_r[NR];
   unsigned *d_w, h_w[NW], want_w[NW];
   init_vals *d_init;
   CHECK_CUDA(cudaMalloc(&d_r, sizeof(h_r)));
   CHECK_CUDA(cudaMalloc(&d_w, sizeof(h_w)));
   CHECK_CUDA(cudaMalloc(&d_init, sizeof(*init)));
   CHECK_CUDA(cudaMemcpy(d_init, init, sizeof(*init), cudaMemcpyHostToDevice));
   if (shared) {
      CHECK_CUDA(cudaMemset(d_r, 0xde, sizeof(h_r)));   /* sentinel: the kernel writes every word */
      CHECK_CUDA(cudaMemset(d_w, 0xde, sizeof(h_w)));
      on_shared<<<blocks, THREADS>>>(d_in, d_din, d_init, d_r, d_w, inc_bound, dec_bound);
   } else {
      CHECK_CUDA(cudaMemcpy(d_r, init->r, sizeof(h_r), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(d_w, init->w, sizeof(h_w), cudaMemcpyHostToDevice));
      on_global<<<blocks, THREADS>>>(d_in, d_din, d_r, d_w, inc_bound, dec_bound);
   }
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h_r, d_r, sizeof(h_r), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h_w, d_w, sizeof(h_w), cudaMemcpyDeviceToHost));
   reference(init, h_in, n, inc_bound, dec_bound, want_r, want_w);
   char name[64];
   snprintf(name, sizeof(name), "%s u64 words", what);
   bool ok = CHECK_ARRAY_U64(name, (const uint64_t *)h_r, (const uint64_t *)want_r, NR);
   snprintf(name, sizeof(name), "%s u32 words", what);
   ok &= CHECK_ARRAY_U32(name, h_w, want_w, NW);
   cudaFree(d_r);
   cudaFree(d_w);
   cudaFree(d_init);
   return ok;
}

int main(void)
{
   check_begin("atomics64");
   unsigned n = BLOCKS * THREADS;
   unsigned long long *h_in = (unsigned long long *)malloc(n * sizeof(*h_in)), *d_in;
   uint32_t s = 12345;
   for (unsigned i = 0; i < n; i++) {
      s = s * 1664525u + 1013904223u;
      uint32_t hi = s;
      s = s * 1664525u + 1013904223u;
      h_in[i] = (unsigned long long)hi << 32 | s;
   }
   double *h_din = (double *)malloc(n * sizeof(double)), *d_din;
   for (unsigned i = 0; i < n; i++)
      h_din[i] = dval(h_in[i]);
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(*h_in)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(*h_in), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMalloc(&d_din, n * sizeof(double)));
   CHECK_CUDA(cudaMemcpy(d_din, h_din, n * sizeof(double), cudaMemcpyHostToDevice));
   init_vals init;
   memset(&init, 0, sizeof(init));
   init.r[0] = 0xfffffffffff00000ull;   /* the sum carries across the halves and wraps */
   init.r[2] = 0x7fffffffffffffffull;
   init.r[3] = 0x8000000000000000ull;
   init.r[4] = ~0ull;
   init.r[6] = ~0ull;
   init.r[9] = 77;
   init.r[11] = 0xffffff00ull;
   init.r[12] = f64_bits(-1.5);
   init.r[13] = 0xfffffffffffffc00ull;
   init.w[0] = 95;                     /* inc wraps at 100 after 6 increments */
   init.w[2] = 3;                      /* dec wraps below 0 to 37 */
   run("one block, global", false, 1, &init, d_in, d_din, h_in);
   run("one block, shared", true, 1, &init, d_in, d_din, h_in);
   run("64 blocks, global", false, BLOCKS, &init, d_in, d_din, h_in);
   cudaFree(d_in);
   cudaFree(d_din);
   free(h_in);
   free(h_din);
   return check_end();
}
