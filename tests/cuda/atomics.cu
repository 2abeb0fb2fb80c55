/*
 * atomics.cu — 32-bit atomics on global and shared memory: histograms (global
 * and per-block shared), every thread of a grid on one address (add, sub,
 * min/max signed and unsigned, and/or/xor, float add, exch), a lock-free
 * counter and a float maximum built on atomicCAS, atomicInc/atomicDec
 * wrapping (final values and the values they return), and the last-block
 * reduction that orders with __threadfence().
 *
 * Every expected value is computed on the host; where the order of the
 * atomics is free, only what does not depend on it is checked (final values,
 * sums or sets of the values returned).
 */
#include "check.h"

#define N 100003
#define BINS 64

__global__ void hist_global(const unsigned *in, int n, unsigned *hist)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      atomicAdd(&hist[in[i] % BINS], 1u);
}

__global__ void hist_shared(const unsigned *in, int n, unsigned *hist)
{
   __shared__ unsigned h[BINS];
   for (int b = threadIdx.x; b < BINS; b += blockDim.x)
      h[b] = 0;
   __syncthreads();
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      atomicAdd(&h[(in[i] >> 7) % BINS], 1u);
   __syncthreads();
   for (int b = threadIdx.x; b < BINS; b += blockDim.x)
      atomicAdd(&hist[b], h[b]);
}

/* r: 0 sum, 1 sub, 2 min.s, 3 max.s, 4 min.u, 5 max.u, 6 and, 7 or, 8 xor,
 * 9 exch target, 10 float sum, 11 sum of what exch returned, 12 what add
 * returned (summed; depends on the order, not checked) */
__global__ void one_address(const unsigned *in, int n, unsigned *r)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned v = in[i];
   unsigned old = atomicAdd(&r[0], v & 0xffu);
   atomicAdd(&r[12], old);
   atomicSub(&r[1], v & 0xfu);
   atomicMin((int *)&r[2], (int)v);
   atomicMax((int *)&r[3], (int)v);
   atomicMin(&r[4], v);
   atomicMax(&r[5], v);
   atomicAnd(&r[6], v | 0x01010101u);
   atomicOr(&r[7], v & 0x80402010u);
   atomicXor(&r[8], v);
   atomicAdd(&r[11], atomicExch(&r[9], 12345u));
   atomicAdd((float *)&r[10], (float)(v & 0xffu));   /* integers: every order sums exactly */
}

__device__ float cas_max(float *addr, float v)
{
   unsigned *a = (unsigned *)addr, old = *a;
   while (__uint_as_float(old) < v) {
      unsigned seen = atomicCAS(a, old, __float_as_uint(v));
      if (seen == old)
         break;
      old = seen;
   }
   return __uint_as_float(old);
}

/* r: 0 CAS counter, 1 CAS float max, 2..3 inc final / sum returned,
 * 4..5 dec final / sum returned */
__global__ void cas_inc_dec(const unsigned *in, int n, unsigned *r, unsigned bound)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned old = r[0], seen;
   while ((seen = atomicCAS(&r[0], old, old + 1u)) != old)
      old = seen;
   cas_max((float *)&r[1], (float)(in[i] % 100000u) * 0.25f);
   atomicAdd(&r[3], atomicInc(&r[2], bound));
   atomicAdd(&r[5], atomicDec(&r[4], bound));
}

/* Per-block sums in shared memory with atomics, then the last block to
 * finish (atomicInc on a counter after __threadfence) adds the partials. */
__global__ void last_block_sum(const unsigned *in, int n, unsigned *partial, unsigned *count, unsigned *total)
{
   __shared__ unsigned s, is_last;
   if (threadIdx.x == 0)
      s = 0;
   __syncthreads();
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      atomicAdd(&s, in[i] & 0xffffu);
   __syncthreads();
   if (threadIdx.x == 0) {
      partial[blockIdx.x] = s;
      __threadfence();
      unsigned ticket = atomicInc(count, gridDim.x - 1);   /* wraps to 0 for the next launch */
      is_last = ticket == gridDim.x - 1;
   }
   __syncthreads();
   if (is_last && threadIdx.x == 0) {
      __threadfence();
      unsigned t = 0;
      for (unsigned b = 0; b < gridDim.x; b++)
         t += ((volatile unsigned *)partial)[b];
      *total = t;
   }
}

int main()
{
   check_begin("atomics");
   static unsigned h_in[N];
   for (int k = 0; k < N; k++)
      h_in[k] = mix32((unsigned)k * 7u + 1u);
   h_in[100] = 0x80000000u;
   h_in[200] = 0x7fffffffu;
   h_in[300] = 0;
   h_in[400] = 0xffffffffu;
   unsigned *d_in, *d_r;
   REQUIRE_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
   REQUIRE_CUDA(cudaMalloc(&d_r, 4096 * 4));
   REQUIRE_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
   static unsigned got[4096], want[4096];

   /* histograms */
   memset(want, 0, sizeof(want));
   for (int k = 0; k < N; k++) {
      want[h_in[k] % BINS]++;
      want[BINS + (h_in[k] >> 7) % BINS]++;
   }
   memset(got, 0, 2 * BINS * 4);
   REQUIRE_CUDA(cudaMemcpy(d_r, got, 2 * BINS * 4, cudaMemcpyHostToDevice));
   hist_global<<<37, 128>>>(d_in, N, d_r);
   hist_shared<<<23, 96>>>(d_in, N, d_r + BINS);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_r, 2 * BINS * 4, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("hist_global", got, want, BINS);
   CHECK_ARRAY_U32("hist_shared", got + BINS, want + BINS, BINS);

   /* every thread on one address */
   unsigned init[13] = { 5, 0xffffffffu, 0x7fffffff, 0x80000000u, 0xffffffffu, 0, 0xffffffffu, 0, 0xdeadbeefu,
                         77, 0, 0, 0 };
   REQUIRE_CUDA(cudaMemcpy(d_r, init, sizeof(init), cudaMemcpyHostToDevice));
   one_address<<<(N + 255) / 256, 256>>>(d_in, N, d_r);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_r, sizeof(init), cudaMemcpyDeviceToHost));
   memcpy(want, init, sizeof(init));
   float fsum = 0.0f;
   for (int k = 0; k < N; k++) {
      unsigned v = h_in[k];
      want[0] += v & 0xffu;
      want[1] -= v & 0xfu;
      if ((int)v < (int)want[2])
         want[2] = v;
      if ((int)v > (int)want[3])
         want[3] = v;
      if (v < want[4])
         want[4] = v;
      if (v > want[5])
         want[5] = v;
      want[6] &= v | 0x01010101u;
      want[7] |= v & 0x80402010u;
      want[8] ^= v;
      fsum += (float)(v & 0xffu);
   }
   want[9] = 12345;
   want[11] = 77u + (unsigned)(N - 1) * 12345u;   /* one thread got 77, the rest 12345 */
   want[10] = f32_bits(fsum);
   CHECK_ARRAY_U32("one_address", got, want, 12);
   CHECK(fsum < 16777216.0f);   /* the float sum is exact in every order */

   /* CAS counter, CAS float max, inc/dec wrapping */
   const unsigned bound = 1000;
   unsigned init2[6] = { 0, 0, 500, 0, 3, 0 };
   REQUIRE_CUDA(cudaMemcpy(d_r, init2, sizeof(init2), cudaMemcpyHostToDevice));
   cas_inc_dec<<<(N + 127) / 128, 128>>>(d_in, N, d_r, bound);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_r, sizeof(init2), cudaMemcpyDeviceToHost));
   float fmax = 0.0f;
   unsigned inc = 500, inc_sum = 0, dec = 3, dec_sum = 0;
   for (int k = 0; k < N; k++) {
      float f = (float)(h_in[k] % 100000u) * 0.25f;
      if (f > fmax)
         fmax = f;
      /* inc and dec visit the same values in any order: the sequence of
       * old values is fixed, only which thread gets which differs */
      inc_sum += inc;
      inc = inc >= bound ? 0 : inc + 1;
      dec_sum += dec;
      dec = (dec == 0 || dec > bound) ? bound : dec - 1;
   }
   CHECK_INT(got[0], N);
   CHECK_F32(bits_f32(got[1]), fmax);
   CHECK_INT(got[2], inc);
   CHECK_INT(got[3], inc_sum);
   CHECK_INT(got[4], dec);
   CHECK_INT(got[5], dec_sum);

   /* the last block adds the partial sums */
   const int blocks = (N + 255) / 256;
   unsigned zero[2] = { 0, 0 };
   REQUIRE_CUDA(cudaMemcpy(d_r, zero, sizeof(zero), cudaMemcpyHostToDevice));
   for (int rep = 0; rep < 2; rep++) {
      last_block_sum<<<blocks, 256>>>(d_in, N, d_r + 16, d_r, d_r + 1);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, d_r, 8, cudaMemcpyDeviceToHost));
      unsigned total = 0;
      for (int k = 0; k < N; k++)
         total += h_in[k] & 0xffffu;
      CHECK_INT(got[0], 0);   /* the counter wrapped back */
      CHECK_INT(got[1], total);
   }
   cudaFree(d_in);
   cudaFree(d_r);
   return check_end();
}
