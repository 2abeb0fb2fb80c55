/* occupancy.hip — hipFuncGetAttributes on a kernel with static shared
 * memory and launch bounds, hipOccupancyMaxActiveBlocksPerMultiprocessor
 * and hipOccupancyMaxPotentialBlockSize give a usable configuration, and a
 * launch with it computes the right thing. */
#include "hip_check.h"

__global__ void __launch_bounds__(256) tiled(const int *in, int *out, int n)
{
   __shared__ int buf[256];
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   buf[threadIdx.x] = i < n ? in[i] : 0;
   __syncthreads();
   if (i < n)
      out[i] = buf[threadIdx.x] + buf[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
   hc_begin("occupancy");
   hipFuncAttributes a;
   CHECK_HIP(hipFuncGetAttributes(&a, tiled));
   printf("  shared %zu bytes, max threads %d, registers %d\n", (size_t)a.sharedSizeBytes, a.maxThreadsPerBlock,
          a.numRegs);
   CHECK(a.sharedSizeBytes >= 256 * sizeof(int));
   CHECK(a.maxThreadsPerBlock <= 256 && a.maxThreadsPerBlock > 0);
   int blocks = 0;
   CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, 256, 0));
   CHECK(blocks >= 1);
   int grid = 0, block = 0;
   CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&grid, &block, tiled, 0, 0));
   printf("  suggested: grid %d, block %d, %d blocks a multiprocessor at 256\n", grid, block, blocks);
   CHECK(block >= 32 && block <= 256 && grid >= 1);
   const int n = 10000;
   int *h = (int *)malloc(n * 4), *got = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
   for (int i = 0; i < n; i++)
      h[i] = i * 3 - 7;
   int *din, *dout;
   CHECK_HIP(hipMalloc(&din, n * 4));
   CHECK_HIP(hipMalloc(&dout, n * 4));
   CHECK_HIP(hipMemcpy(din, h, n * 4, hipMemcpyHostToDevice));
   hipLaunchKernelGGL(tiled, dim3((n + block - 1) / block), dim3(block), 0, 0, din, dout, n);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(got, dout, n * 4, hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      int b0 = i - i % block, j = b0 + (i % block + 1) % block;
      want[i] = h[i] + (j < n ? h[j] : 0);
   }
   CHECK_ARRAY("tiled", got, want, n, "%d");
   hipFree(din), hipFree(dout);
   free(h), free(got), free(want);
   return hc_end();
}
