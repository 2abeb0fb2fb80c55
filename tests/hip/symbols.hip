/* symbols.hip — __constant__ and __device__ variables through
 * hipMemcpyToSymbol / hipMemcpyFromSymbol (with HIP_SYMBOL and an offset),
 * hipGetSymbolAddress and hipGetSymbolSize; a kernel reads the constants
 * and writes the device variable. */
#include "hip_check.h"

__constant__ float coef[16];
__device__ int acc[32];
__device__ int scale = 3;

__global__ void apply(int n)
{
   int i = threadIdx.x;
   if (i < n)
      acc[i] = (int)(coef[i % 16] * 4.0f) * scale + i;
}

int main()
{
   hc_begin("symbols");
   float c[16];
   for (int i = 0; i < 16; i++)
      c[i] = (float)i * 0.25f;
   CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(coef), c, sizeof(c)));
   int five = 5;
   CHECK_HIP(hipMemcpyToSymbol(scale, &five, sizeof(int)));
   hipLaunchKernelGGL(apply, dim3(1), dim3(32), 0, 0, 32);
   CHECK_HIP(hipDeviceSynchronize());
   int got[32], want[32];
   CHECK_HIP(hipMemcpyFromSymbol(got, HIP_SYMBOL(acc), sizeof(got)));
   for (int i = 0; i < 32; i++)
      want[i] = (i % 16) * 5 + i;
   CHECK_ARRAY("acc", got, want, 32, "%d");
   int tail[4];
   CHECK_HIP(hipMemcpyFromSymbol(tail, acc, sizeof(tail), 28 * sizeof(int)));
   CHECK_ARRAY("acc tail", tail, want + 28, 4, "%d");
   void *p = NULL;
   size_t sz = 0;
   CHECK_HIP(hipGetSymbolAddress(&p, HIP_SYMBOL(acc)));
   CHECK_HIP(hipGetSymbolSize(&sz, HIP_SYMBOL(coef)));
   CHECK_INT(sz, sizeof(c));
   int first = -1;
   CHECK_HIP(hipMemcpy(&first, (int *)p + 1, sizeof(int), hipMemcpyDeviceToHost));
   CHECK_INT(first, want[1]);
   return hc_end();
}
