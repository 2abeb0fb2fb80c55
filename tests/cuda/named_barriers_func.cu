/*
 * named_barriers_func.cu — named barriers and bar.red inside device
 * functions that are not inlined (PTX .funcs), as warp-specialised
 * kernels written with helper functions have them:
 *
 *  - the producer/consumer double buffer of named_barriers.cu, with the
 *    producers' and the consumers' loops each in a __noinline__ function
 *    that does its own bar.sync / bar.arrive on barriers 0-3, and the kernel
 *    ending with a whole-block barrier of its own;
 *  - __syncthreads_count / _and / _or (bar.red) in a __noinline__ function,
 *    called twice per block with different predicates.
 * Every expected value is computed on the host.
 */
#include "check.h"

#define ROUNDS 12
#define HALF 128

__device__ __forceinline__ void bar_sync(unsigned id, unsigned n)
{
   asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

__device__ __forceinline__ void bar_arrive(unsigned id, unsigned n)
{
   asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

__device__ __noinline__ void produce(unsigned *buf, const unsigned *in, unsigned t)
{
   for (int r = 0; r < ROUNDS; r++) {
      if (r >= 2)
         bar_sync(2 + r % 2, 2 * HALF);   /* the slot is free */
      buf[(r % 2) * HALF + t] = in[r * HALF + t] * (r + 1);
      bar_arrive(r % 2, 2 * HALF);         /* full */
   }
}

__device__ __noinline__ unsigned consume(const unsigned *buf, unsigned c)
{
   unsigned sum = 0;
   for (int r = 0; r < ROUNDS; r++) {
      bar_sync(r % 2, 2 * HALF);
      sum += buf[(r % 2) * HALF + (c + r) % HALF];
      if (r + 2 < ROUNDS)
         bar_arrive(2 + r % 2, 2 * HALF);  /* free */
   }
   return sum;
}

__global__ void pipeline(const unsigned *in, unsigned *out, unsigned *after)
{
   __shared__ unsigned buf[2 * HALF];
   __shared__ unsigned total;
   unsigned t = threadIdx.x, b = blockIdx.x;
   if (t == 0)
      total = 0;
   __syncthreads();
   if (t < HALF) {
      produce(buf, in + b * ROUNDS * HALF, t);
   } else {
      unsigned s = consume(buf, t - HALF);
      out[b * HALF + t - HALF] = s;
      atomicAdd(&total, s & 0xff);
   }
   __syncthreads();   /* everyone, after the functions' barriers */
   if (t == 0)
      after[b] = total;
}

/* bar.red in a function: counts, and both reductions */
__device__ __noinline__ unsigned votes(int pred)
{
   unsigned n = (unsigned)__syncthreads_count(pred);
   unsigned a = (unsigned)__syncthreads_and(pred);
   unsigned o = (unsigned)__syncthreads_or(pred);
   return n | a << 16 | o << 17;
}

__global__ void reduce(const unsigned *in, unsigned *out)
{
   unsigned t = threadIdx.x, b = blockIdx.x;
   unsigned v = in[b * blockDim.x + t];
   unsigned r1 = votes((v & 7) == 0);
   unsigned r2 = votes(v != 0);
   if (t == 0) {
      out[2 * b] = r1;
      out[2 * b + 1] = r2;
   }
}

static void check_pipeline(void)
{
   const int blocks = 5;
   size_t nin = (size_t)blocks * ROUNDS * HALF;
   unsigned *h_in = (unsigned *)malloc(nin * sizeof(unsigned));
   unsigned h_out[blocks * HALF], want[blocks * HALF], h_after[blocks], want_after[blocks];
   for (size_t i = 0; i < nin; i++)
      h_in[i] = (unsigned)(i * 2246822519u) ^ 0x27d4eb2fu;
   for (int b = 0; b < blocks; b++) {
      want_after[b] = 0;
      for (unsigned c = 0; c < HALF; c++) {
         unsigned sum = 0;
         for (int r = 0; r < ROUNDS; r++)
            sum += h_in[(b * ROUNDS + r) * HALF + (c + r) % HALF] * (r + 1);
         want[b * HALF + c] = sum;
         want_after[b] += sum & 0xff;
      }
   }
   unsigned *d_in, *d_out, *d_after;
   CHECK_CUDA(cudaMalloc(&d_in, nin * sizeof(unsigned)));
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
   CHECK_CUDA(cudaMalloc(&d_after, sizeof(h_after)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, nin * sizeof(unsigned), cudaMemcpyHostToDevice));
   for (int rep = 0; rep < 2; rep++) {
      CHECK_CUDA(cudaMemset(d_out, 0, sizeof(h_out)));
      pipeline<<<blocks, 2 * HALF>>>(d_in, d_out, d_after);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(h_after, d_after, sizeof(h_after), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_U32("pipeline sums", h_out, want, blocks * HALF);
      CHECK_ARRAY_U32("sums after the functions' barriers", h_after, want_after, blocks);
   }
   cudaFree(d_in);
   cudaFree(d_out);
   cudaFree(d_after);
   free(h_in);
}

static void check_reduce(void)
{
   enum { BLOCKS = 4, T = 192 };
   unsigned h_in[BLOCKS * T], h_out[2 * BLOCKS], want[2 * BLOCKS];
   for (int i = 0; i < BLOCKS * T; i++)
      h_in[i] = (unsigned)(i * 40503u) % 97u;
   for (int i = 0; i < T; i++)
      h_in[2 * T + i] = 8;   /* block 2: every predicate true */
   for (int i = 0; i < T; i++)
      h_in[3 * T + i] = 0;   /* block 3: (v & 7) == 0 for all, v != 0 for none */
   for (int b = 0; b < BLOCKS; b++) {
      unsigned n1 = 0, n2 = 0;
      for (int t = 0; t < T; t++) {
         n1 += (h_in[b * T + t] & 7) == 0;
         n2 += h_in[b * T + t] != 0;
      }
      want[2 * b] = n1 | (unsigned)(n1 == T) << 16 | (unsigned)(n1 != 0) << 17;
      want[2 * b + 1] = n2 | (unsigned)(n2 == T) << 16 | (unsigned)(n2 != 0) << 17;
   }
   unsigned *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
   reduce<<<BLOCKS, T>>>(d_in, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("bar.red in a function", h_out, want, 2 * BLOCKS);
   cudaFree(d_in);
   cudaFree(d_out);
}

int main()
{
   check_begin("named_barriers_func");
   check_pipeline();
   check_reduce();
   return check_end();
}
