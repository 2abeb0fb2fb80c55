/* coop_groups.hip — hip_cooperative_groups.h: this_thread_block (rank,
 * size, sync), tiled_partition<16> and <4> with shfl_down reductions,
 * cg::reduce and inclusive/exclusive_scan on tiles, the run-time
 * tiled_partition(block, 8), coalesced_threads in a divergent branch, tile
 * ballots and meta-group ranks; host references throughout. */
#include "hip_check.h"
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

#define W 10

__global__ void groups(const int *in, int *out)
{
   cg::thread_block block = cg::this_thread_block();
   int r = (int)block.thread_rank(), v = in[blockIdx.x * blockDim.x + r];
   int *o = out + (blockIdx.x * blockDim.x + r) * W;
   cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
   int s = v;
   for (int d = 8; d >= 1; d /= 2)
      s += t16.shfl_down(s, d);
   o[0] = t16.thread_rank() == 0 ? s : -1;            /* rank 0 holds the tile's sum */
   o[1] = cg::reduce(t16, v, cg::plus<int>());
   o[2] = cg::reduce(cg::tiled_partition<4>(block), v, cg::greater<int>());
   o[3] = cg::inclusive_scan(t16, v);
   o[4] = cg::exclusive_scan(t16, v);
   o[5] = (int)t16.ballot(v > 0);
   o[6] = (int)t16.meta_group_rank() * 100 + (int)t16.meta_group_size();
   cg::thread_group t8 = cg::tiled_partition(block, 8);
   o[7] = (int)t8.thread_rank() + 10 * (int)t8.size();
   o[8] = 0;
   if (v & 1) {
      cg::coalesced_group odd = cg::coalesced_threads();
      o[8] = (int)odd.size() * 100 + (int)odd.thread_rank();
   }
   block.sync();
   o[9] = (int)block.size();
}

int main()
{
   hc_begin("coop_groups");
   enum { B = 3, T = 128, N = B * T };
   int h[N];
   for (int i = 0; i < N; i++)
      h[i] = (int)(hc_mix((uint32_t)i) % 201) - 100;
   int *din, *dout;
   CHECK_HIP(hipMalloc(&din, sizeof(h)));
   CHECK_HIP(hipMalloc(&dout, N * W * 4));
   CHECK_HIP(hipMemcpy(din, h, sizeof(h), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(groups, dim3(B), dim3(T), 0, 0, din, dout);
   CHECK_HIP(hipGetLastError());
   static int got[N * W], want[N * W];
   CHECK_HIP(hipMemcpy(got, dout, sizeof(got), hipMemcpyDeviceToHost));
   for (int i = 0; i < N; i++) {
      int r = i % T, t0 = i - r % 16, q0 = i - r % 4, w0 = i - r % 32;
      int *o = want + i * W, sum = 0, mx = -1000, inc = 0, ball = 0;
      for (int k = 0; k < 16; k++) {
         sum += h[t0 + k];
         if (k <= r % 16)
            inc += h[t0 + k];
         ball |= (h[t0 + k] > 0) << k;
      }
      for (int k = 0; k < 4; k++)
         mx = h[q0 + k] > mx ? h[q0 + k] : mx;
      o[0] = r % 16 == 0 ? sum : -1;
      o[1] = sum;
      o[2] = mx;
      o[3] = inc;
      o[4] = inc - h[i];
      o[5] = ball;
      o[6] = (r / 16) * 100 + T / 16;
      o[7] = r % 8 + 80;
      o[8] = 0;
      if (h[i] & 1) {
         int n = 0, rank = 0;
         for (int k = 0; k < 32; k++)
            if (h[w0 + k] & 1) {
               if (w0 + k < i)
                  rank++;
               n++;
            }
         o[8] = n * 100 + rank;
      }
      o[9] = T;
   }
   CHECK_ARRAY("group results", got, want, N * W, "%d");
   hipFree(din), hipFree(dout);
   return hc_end();
}
