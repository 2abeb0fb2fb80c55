/*
 * named_barriers.cu — producer/consumer warps with PTX named barriers
 * written as inline PTX (bar.sync / bar.arrive with an id and a thread
 * count), the way warp-specialised kernels hand data between warps.
 *
 * A block of 256 threads: warps 0-3 produce, warps 4-7 consume, through a
 * double buffer in shared memory over 16 rounds.  Round r: the producers
 * wait until slot r % 2 is free (barrier 2 + r % 2, arrived at by the
 * consumers), fill it and bar.arrive at barrier r % 2 ("full"); the
 * consumers bar.sync there, add the slot into their sums and bar.arrive at
 * the "free" barrier.  Checked against a host computation of the sums, for
 * several blocks, three times.  (A barrier that can never complete hangs a
 * GPU; on the software device it is an error: tests/msl/named_barrier_soft.)
 */
#include "check.h"

#define ROUNDS 16
#define HALF 128

__device__ __forceinline__ void bar_sync(unsigned id, unsigned n)
{
   asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

__device__ __forceinline__ void bar_arrive(unsigned id, unsigned n)
{
   asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

__global__ void pipeline(const unsigned *in, unsigned *out)
{
   __shared__ unsigned buf[2][HALF];
   unsigned t = threadIdx.x, b = blockIdx.x;
   if (t < HALF) {
      for (int r = 0; r < ROUNDS; r++) {
         if (r >= 2)
            bar_sync(2 + r % 2, 2 * HALF);   /* wait until the slot is free */
         buf[r % 2][t] = in[(b * ROUNDS + r) * HALF + t] * (r + 1);
         bar_arrive(r % 2, 2 * HALF);         /* full */
      }
   } else {
      unsigned c = t - HALF, sum = 0;
      for (int r = 0; r < ROUNDS; r++) {
         bar_sync(r % 2, 2 * HALF);
         sum += buf[r % 2][(c + r) % HALF];
         if (r + 2 < ROUNDS)
            bar_arrive(2 + r % 2, 2 * HALF);  /* free */
      }
      out[b * HALF + c] = sum;
   }
}

int main()
{
   check_begin("named_barriers");
   const int blocks = 6;
   size_t nin = (size_t)blocks * ROUNDS * HALF;
   unsigned *h_in = (unsigned *)malloc(nin * sizeof(unsigned));
   unsigned h_out[blocks * HALF], want[blocks * HALF];
   for (size_t i = 0; i < nin; i++)
      h_in[i] = (unsigned)(i * 2654435761u) ^ 0x5bd1e995u;
   for (int b = 0; b < blocks; b++)
      for (unsigned c = 0; c < HALF; c++) {
         unsigned sum = 0;
         for (int r = 0; r < ROUNDS; r++)
            sum += h_in[(b * ROUNDS + r) * HALF + (c + r) % HALF] * (r + 1);
         want[b * HALF + c] = sum;
      }
   unsigned *d_in, *d_out;
   REQUIRE_CUDA(cudaMalloc(&d_in, nin * sizeof(unsigned)));
   REQUIRE_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, nin * sizeof(unsigned), cudaMemcpyHostToDevice));
   for (int rep = 0; rep < 3; rep++) {
      CHECK_CUDA(cudaMemset(d_out, 0, sizeof(h_out)));
      pipeline<<<blocks, 2 * HALF>>>(d_in, d_out);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
      int bad = 0;
      for (int i = 0; i < blocks * HALF; i++)
         bad += h_out[i] != want[i];
      if (!CHECK_INT(bad, 0))
         printf("  first: out[0] = %u, expected %u\n", h_out[0], want[0]);
   }
   free(h_in);
   return check_end();
}
