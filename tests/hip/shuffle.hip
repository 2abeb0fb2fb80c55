/* shuffle.hip — HIP's mask-less warp shuffles: __shfl (broadcast, rotate,
 * with width 8), __shfl_up, __shfl_down, __shfl_xor on int, float and
 * double, and a warp sum by butterfly; warpSize is 32 (HIP on NVIDIA). */
#include "hip_check.h"

#define W 9

__global__ void shuffles(const int *in, int *out, double *dout, int *ws)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
   int v = in[i];
   int *o = out + i * W;
   o[0] = __shfl(v, 0);
   o[1] = __shfl(v, (lane + 1) % warpSize);
   o[2] = __shfl(v, 3, 8);                   /* lane 3 of each group of 8 */
   o[3] = __shfl_up(v, 5);
   o[4] = __shfl_down(v, 7);
   o[5] = __shfl_xor(v, 13);
   int s = v;
   for (int d = warpSize / 2; d >= 1; d /= 2)
      s += __shfl_xor(s, d);
   o[6] = s;
   o[7] = (int)__shfl_down((float)v * 0.5f, 2, 16);
   o[8] = __shfl_up(v, 1, 4);
   dout[i] = __shfl((double)v * 0.25, 31 - lane);
   if (i == 0)
      *ws = warpSize;
}

int main()
{
   hc_begin("shuffle");
   enum { B = 4, T = 96, N = B * T };
   int h[N], *want = (int *)malloc(N * W * 4), *got = (int *)malloc(N * W * 4);
   double dwant[N], dgot[N];
   for (int i = 0; i < N; i++)
      h[i] = (int)(hc_mix((uint32_t)i) % 100000) - 50000;
   int *din, *dout, *dws;
   double *dd;
   CHECK_HIP(hipMalloc(&din, sizeof(h)));
   CHECK_HIP(hipMalloc(&dout, N * W * 4));
   CHECK_HIP(hipMalloc(&dd, sizeof(dgot)));
   CHECK_HIP(hipMalloc(&dws, 4));
   CHECK_HIP(hipMemcpy(din, h, sizeof(h), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(shuffles, dim3(B), dim3(T), 0, 0, din, dout, dd, dws);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(got, dout, N * W * 4, hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(dgot, dd, sizeof(dgot), hipMemcpyDeviceToHost));
   int ws = 0;
   CHECK_HIP(hipMemcpy(&ws, dws, 4, hipMemcpyDeviceToHost));
   CHECK_INT(ws, 32);
   for (int i = 0; i < N; i++) {
      int lane = (i % T) % 32, w0 = i - lane;   /* the warp's first thread */
      int *o = want + i * W;
      o[0] = h[w0];
      o[1] = h[w0 + (lane + 1) % 32];
      o[2] = h[w0 + (lane & ~7) + 3];
      o[3] = lane >= 5 ? h[i - 5] : h[i];
      o[4] = lane + 7 < 32 ? h[i + 7] : h[i];
      o[5] = h[w0 + (lane ^ 13)];
      int s = 0;
      for (int k = 0; k < 32; k++)
         s += h[w0 + k];
      o[6] = s;
      o[7] = (int)((float)((lane % 16) + 2 < 16 ? h[i + 2] : h[i]) * 0.5f);
      o[8] = (lane % 4) >= 1 ? h[i - 1] : h[i];
      dwant[i] = (double)h[w0 + 31 - lane] * 0.25;
   }
   CHECK_ARRAY("shuffles", got, want, N * W, "%d");
   CHECK_ARRAY("double broadcast", dgot, dwant, N, "%g");
   hipFree(din), hipFree(dout), hipFree(dd), hipFree(dws);
   free(want), free(got);
   return hc_end();
}
