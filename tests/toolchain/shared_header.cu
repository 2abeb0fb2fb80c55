/*
 * shared_header.cu — __shared__ variables of class type in the source and
 * in a header it includes with quotes (shared_header.cuh), both rewritten
 * by the driver (src/toolchain/source_fix.c): the kernel's results against
 * a host reference, and __LINE__ on a line after the rewritten declaration
 * (tests/toolchain/run.sh, driver.shared_header, also checks -MD's
 * dependencies).
 */
#include <cstdio>

#include "shared_header.cuh"

__global__ void k(int *out)
{
   __shared__ Cell mine;
   int t = threadIdx.x;
   if (t == 0)
      mine.v = 100;
   int r = rotate(t);
   out[t] = r + mine.v;
   if (t == 0)
      out[32] = __LINE__;
}

int main()
{
   int *d, h[33];
   if (cudaMalloc(&d, sizeof(h)) != cudaSuccess)
      return 1;
   k<<<1, 32>>>(d);
   if (cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost) != cudaSuccess)
      return 1;
   int bad = 0;
   for (int t = 0; t < 32; t++)
      bad += h[t] != (t + 1) % 32 * 3 + 100;
   bad += h[32] != 22;
   printf("%s shared_header (%d of 33 values wrong)\n", bad ? "FAIL" : "PASS", bad);
   return bad != 0;
}
