/*
 * partitions.cu — cooperative groups' partitions of a warp (issue 17):
 * labeled_partition and binary_partition in divergent code, whose groups
 * synchronise and exchange through *.sync operations with the group's
 * member mask.  On an NVIDIA GPU since Volta the threads of such a mask
 * meet in the operation wherever they are; metalcuda's software device
 * gathers them the same way.
 *
 *   - warp-aggregated atomics by key: in a branch only some threads take,
 *     labeled_partition(coalesced_threads(), key) groups the threads of a
 *     key; cg::reduce sums their values and the group's rank-0 thread adds
 *     the sum and the group's size to the key's bins;
 *   - binary_partition of a 32-thread tile by a predicate: each half's
 *     size, a shuffle from its rank-0 thread, inclusive and exclusive
 *     scans (cg::inclusive_scan / exclusive_scan) and a group sync around
 *     shared memory, written per thread;
 *   - a partition whose threads reach the same group operations through
 *     different branches (cg::reduce after an if/else on the rank).
 *
 * Expected values come from a host reference.
 */
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define N (1 << 16)
#define KEYS 16
#define THREADS 128

__global__ void k_aggregate(const unsigned *in, unsigned *sums, unsigned *counts)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned v = in[i];
   if (v % 5 != 0) {   /* divergent: only some threads */
      unsigned key = (v >> 8) % KEYS;
      cg::coalesced_group active = cg::coalesced_threads();
      cg::coalesced_group g = cg::labeled_partition(active, key);
      unsigned s = cg::reduce(g, v & 0xffff, cg::plus<unsigned>());
      if (g.thread_rank() == 0) {
         atomicAdd(&sums[key], s);
         atomicAdd(&counts[key], g.size());
      }
   }
}

/* out: 6 words per thread */
__global__ void k_binary(const unsigned *in, unsigned *out)
{
   __shared__ unsigned sm[THREADS];
   cg::thread_block block = cg::this_thread_block();
   cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned v = in[i];
   bool p = (v & 3) == 1;
   cg::coalesced_group g = cg::binary_partition(tile, p);
   unsigned *o = out + (size_t)i * 6;
   o[0] = g.size();
   o[1] = g.shfl(v, 0);
   o[2] = cg::inclusive_scan(g, v & 0xff);
   o[3] = cg::exclusive_scan(g, v & 0xff);
   sm[threadIdx.x] = v * 7;
   g.sync();
   /* the group's last thread's value: its lane from the rank */
   unsigned last = g.shfl(threadIdx.x, g.size() - 1);
   o[4] = sm[last];
   /* the same operation reached on two paths */
   unsigned r;
   if (g.thread_rank() & 1)
      r = cg::reduce(g, v >> 16, cg::plus<unsigned>());
   else
      r = cg::reduce(g, v >> 16, cg::plus<unsigned>());
   o[5] = r;
}

int main(void)
{
   check_begin("partitions");
   unsigned *h = (unsigned *)malloc(N * 4);
   for (unsigned k = 0; k < N; k++)
      h[k] = mix32(k * 7 + 3);
   unsigned *d_in, *d_sums, *d_counts, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, N * 4));
   CHECK_CUDA(cudaMalloc(&d_sums, KEYS * 4));
   CHECK_CUDA(cudaMalloc(&d_counts, KEYS * 4));
   CHECK_CUDA(cudaMalloc(&d_out, (size_t)N * 6 * 4));
   CHECK_CUDA(cudaMemcpy(d_in, h, N * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(d_sums, 0, KEYS * 4));
   CHECK_CUDA(cudaMemset(d_counts, 0, KEYS * 4));
   CHECK_CUDA(cudaMemset(d_out, 0xde, (size_t)N * 6 * 4));
   k_aggregate<<<N / THREADS, THREADS>>>(d_in, d_sums, d_counts);
   CHECK_CUDA(cudaGetLastError());
   k_binary<<<N / THREADS, THREADS>>>(d_in, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());

   unsigned sums[KEYS], counts[KEYS], ws[KEYS] = { 0 }, wc[KEYS] = { 0 };
   CHECK_CUDA(cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost));
   for (unsigned k = 0; k < N; k++)
      if (h[k] % 5 != 0) {
         ws[(h[k] >> 8) % KEYS] += h[k] & 0xffff;
         wc[(h[k] >> 8) % KEYS]++;
      }
   CHECK_ARRAY_U32("labeled_partition: sums by key", sums, ws, KEYS);
   CHECK_ARRAY_U32("labeled_partition: counts by key", counts, wc, KEYS);

   unsigned *got = (unsigned *)malloc((size_t)N * 6 * 4), *want = (unsigned *)malloc((size_t)N * 6 * 4);
   CHECK_CUDA(cudaMemcpy(got, d_out, (size_t)N * 6 * 4, cudaMemcpyDeviceToHost));
   for (unsigned w = 0; w < N / 32; w++) {
      for (int side = 0; side < 2; side++) {
         unsigned lanes[32], n = 0, incl = 0, total = 0;
         for (unsigned l = 0; l < 32; l++)
            if (((h[w * 32 + l] & 3) == 1) == (side == 1))
               lanes[n++] = l;
         for (unsigned r = 0; r < n; r++)
            total += h[w * 32 + lanes[r]] >> 16;
         for (unsigned r = 0; r < n; r++) {
            unsigned t = w * 32 + lanes[r], *o = want + (size_t)t * 6;
            o[0] = n;
            o[1] = h[w * 32 + lanes[0]];
            o[3] = incl;
            incl += h[t] & 0xff;
            o[2] = incl;
            o[4] = h[w * 32 + lanes[n - 1]] * 7;
            o[5] = total;
         }
      }
   }
   CHECK_ARRAY_U32("binary_partition: size, shfl, scans, sync, reduce", got, want, (size_t)N * 6);
   free(h);
   free(got);
   free(want);
   cudaFree(d_in);
   cudaFree(d_sums);
   cudaFree(d_counts);
   cudaFree(d_out);
   return check_end();
}
