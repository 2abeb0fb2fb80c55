/* reduce.cu — a two-pass block reduction with warp shuffles for the last
 * 32 values of each block, and atomics to combine the blocks. */
#include "reduce.h"

#include <climits>
#include <cuda_runtime.h>

__global__ void reduce_kernel(const int *in, int n, long long *sum, int *mx)
{
   __shared__ long long ssum[32];
   __shared__ int smax[32];
   long long s = 0;
   int m = INT_MIN;
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
      s += in[i];
      m = max(m, in[i]);
   }
   for (int d = 16; d > 0; d /= 2) {
      s += __shfl_down_sync(0xffffffffu, s, d);
      m = max(m, __shfl_down_sync(0xffffffffu, m, d));
   }
   int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
   if (lane == 0) {
      ssum[warp] = s;
      smax[warp] = m;
   }
   __syncthreads();
   if (threadIdx.x == 0) {
      long long bs = 0;
      int bm = INT_MIN;
      for (int w = 0; w < (int)(blockDim.x + 31) / 32; w++) {
         bs += ssum[w];
         bm = max(bm, smax[w]);
      }
      atomicAdd((unsigned long long *)sum, (unsigned long long)bs);
      atomicMax(mx, bm);
   }
}

bool device_reduce(const std::vector<int> &v, reduction &out)
{
   int *din = nullptr, *dmax = nullptr;
   long long *dsum = nullptr;
   int init_max = INT_MIN;
   bool ok = cudaMalloc(&din, v.size() * sizeof(int)) == cudaSuccess && cudaMalloc(&dsum, 8) == cudaSuccess &&
             cudaMalloc(&dmax, 4) == cudaSuccess &&
             cudaMemcpy(din, v.data(), v.size() * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemset(dsum, 0, 8) == cudaSuccess && cudaMemcpy(dmax, &init_max, 4, cudaMemcpyHostToDevice) == cudaSuccess;
   if (ok) {
      reduce_kernel<<<32, 256>>>(din, (int)v.size(), dsum, dmax);
      ok = cudaGetLastError() == cudaSuccess && cudaMemcpy(&out.sum, dsum, 8, cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(&out.max, dmax, 4, cudaMemcpyDeviceToHost) == cudaSuccess;
   }
   cudaFree(din);
   cudaFree(dsum);
   cudaFree(dmax);
   return ok;
}
