/* vote.hip — __ballot (64 bits wide in HIP, the upper half 0 with 32-lane
 * warps), __any, __all, __activemask in a divergent branch, __popcll of a
 * ballot, __lane_id. */
#include "hip_check.h"

__global__ void votes(const int *in, unsigned long long *ballot, int *flags)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   int v = in[i];
   unsigned long long b = __ballot(v > 0);
   int *f = flags + i * 5;
   if (threadIdx.x % 32 == 0)
      ballot[i / 32] = b;
   f[0] = __any(v > 900);
   f[1] = __all(v > -1000);
   f[2] = __popcll(b);
   f[3] = (int)__lane_id();
   f[4] = 0;
   if (threadIdx.x & 1)
      f[4] = (int)__popc(__activemask());   /* the odd lanes only */
}

int main()
{
   hc_begin("vote");
   enum { N = 256 };
   int h[N];
   for (int i = 0; i < N; i++)
      h[i] = (int)(hc_mix((uint32_t)i) % 2000) - 1000;
   h[40] = 950;   /* the second warp has one value above 900 */
   for (int i = 64; i < 96; i++)
      h[i] = -5;  /* the third warp: none positive */
   int *din, *df;
   unsigned long long *db;
   CHECK_HIP(hipMalloc(&din, sizeof(h)));
   CHECK_HIP(hipMalloc(&db, N / 32 * 8));
   CHECK_HIP(hipMalloc(&df, N * 5 * 4));
   CHECK_HIP(hipMemcpy(din, h, sizeof(h), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(votes, dim3(2), dim3(128), 0, 0, din, db, df);
   CHECK_HIP(hipGetLastError());
   unsigned long long b[N / 32], wb[N / 32];
   int f[N * 5], wf[N * 5];
   CHECK_HIP(hipMemcpy(b, db, sizeof(b), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(f, df, sizeof(f), hipMemcpyDeviceToHost));
   for (int w = 0; w < N / 32; w++) {
      wb[w] = 0;
      int any = 0, all = 1;
      for (int l = 0; l < 32; l++) {
         int v = h[w * 32 + l];
         wb[w] |= (unsigned long long)(v > 0) << l;
         any |= v > 900;
         all &= v > -1000;
      }
      for (int l = 0; l < 32; l++) {
         int *o = wf + (w * 32 + l) * 5;
         o[0] = any;
         o[1] = all;
         o[2] = __builtin_popcountll(wb[w]);
         o[3] = l;
         o[4] = l & 1 ? 16 : 0;
      }
   }
   CHECK_ARRAY("ballots", b, wb, N / 32, "%#llx");
   CHECK_ARRAY("any/all/popc/lane/activemask", f, wf, N * 5, "%d");
   hipFree(din), hipFree(db), hipFree(df);
   return hc_end();
}
