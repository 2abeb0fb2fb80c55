/* histo.cu — the CUDA half of the example: per-block shared-memory bins,
 * merged into the global ones with atomicAdd. */
#include "histo.h"

#include <cuda_runtime.h>

__device__ void bin_add(unsigned *bins, unsigned char value);   /* bins.cu */

__global__ void histogram256(const unsigned char *in, size_t n, unsigned *bins)
{
   __shared__ unsigned local[256];
   for (int i = threadIdx.x; i < 256; i += blockDim.x)
      local[i] = 0;
   __syncthreads();
   for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
      bin_add(local, in[i]);
   __syncthreads();
   for (int i = threadIdx.x; i < 256; i += blockDim.x)
      atomicAdd(&bins[i], local[i]);
}

bool device_histogram(const std::vector<unsigned char> &data, std::vector<unsigned> &counts)
{
   unsigned char *din = nullptr;
   unsigned *dbins = nullptr;
   counts.assign(256, 0);
   bool ok = cudaMalloc(&din, data.size()) == cudaSuccess && cudaMalloc(&dbins, 256 * sizeof(unsigned)) == cudaSuccess &&
             cudaMemcpy(din, data.data(), data.size(), cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemset(dbins, 0, 256 * sizeof(unsigned)) == cudaSuccess;
   if (ok) {
      histogram256<<<64, 256>>>(din, data.size(), dbins);
      ok = cudaGetLastError() == cudaSuccess &&
           cudaMemcpy(counts.data(), dbins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess;
   }
   cudaFree(din);
   cudaFree(dbins);
   return ok;
}
