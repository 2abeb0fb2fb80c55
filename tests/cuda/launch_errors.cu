/*
 * launch_errors.cu — launch configurations the device cannot run, beyond
 * those errors.cu covers, as NVIDIA's CUDA 13 runtime reports them
 * (observed on an H200, driver 580): every one fails at the launch with
 * cudaErrorInvalidValue ("invalid argument"), is reported by the launch
 * (cudaLaunchKernel) and by cudaGetLastError, and is not sticky:
 *
 *  - more threads than the kernel's __launch_bounds__ (256 for a kernel
 *    bounded to 128); exactly the bound runs;
 *  - a grid x dimension above maxGridSize[0] (2^31);
 *  - a block dimension above maxThreadsDim, or a block whose dimensions
 *    are each allowed but whose product exceeds maxThreadsPerBlock;
 *    each dimension at its maximum alone runs;
 *  - dynamic shared memory above sharedMemPerBlock without an opt-in;
 *    exactly sharedMemPerBlock runs (and is usable);
 *  - static plus dynamic shared memory above sharedMemPerBlock (8 KB
 *    static); exactly the limit runs;
 *  - after each failure a correct launch works and cudaDeviceSynchronize
 *    succeeds.
 */
#include "check.h"

__global__ void __launch_bounds__(128) k_bounded(int *out) { out[threadIdx.x] = (int)threadIdx.x + 7; }

__global__ void k_index(int *out)
{
   int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   if (blockIdx.x == 0 && t < 1024)
      out[t] = t;
}

/* Writes every word of its dynamic shared memory, then thread 0 checks
 * them all and reports how many words held the value written. */
__global__ void k_dyn(int *out, int words)
{
   extern __shared__ int d[];
   for (int i = threadIdx.x; i < words; i += blockDim.x)
      d[i] = i ^ 0x5a5a;
   __syncthreads();
   if (threadIdx.x == 0) {
      int good = 0;
      for (int i = 0; i < words; i++)
         good += d[i] == (i ^ 0x5a5a);
      out[0] = good;
   }
}

__global__ void k_static_dyn(int *out, int words)
{
   __shared__ int s[2048];
   extern __shared__ int d[];
   for (int i = threadIdx.x; i < 2048; i += blockDim.x)
      s[i] = i;
   for (int i = threadIdx.x; i < words; i += blockDim.x)
      d[i] = -i;
   __syncthreads();
   if (threadIdx.x == 0) {
      int good = 0;
      for (int i = 0; i < 2048; i++)
         good += s[i] == i;
      for (int i = 0; i < words; i++)
         good += d[i] == -i;
      out[0] = good;
   }
}

/* A launch that must fail: the error comes from the launch and from
 * cudaGetLastError (once), the device stays usable. */
static void expect_invalid(cudaError_t got_from_launch, const char *what, int line)
{
   check_err(got_from_launch, cudaErrorInvalidValue, what, __FILE__, line);
   check_err(cudaGetLastError(), cudaSuccess, "cudaGetLastError after it was read", __FILE__, line);
   check_err(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize (not sticky)", __FILE__, line);
}

static int read0(int *d)
{
   int v = -1;
   cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost);
   return v;
}

static void check_bounds(int *d)
{
   k_bounded<<<1, 256>>>(d);
   expect_invalid(cudaGetLastError(), "k_bounded<<<1, 256>>>", __LINE__);
   void *args[] = { &d };
   CHECK_ERR(cudaLaunchKernel((const void *)k_bounded, dim3(1), dim3(129), args, 0, 0), cudaErrorInvalidValue);
   expect_invalid(cudaGetLastError(), "cudaLaunchKernel(k_bounded, 129 threads)", __LINE__);
   k_bounded<<<1, 128>>>(d);
   CHECK_CUDA(cudaGetLastError());
   int h[128], ref[128];
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 128; i++)
      ref[i] = i + 7;
   CHECK_ARRAY_I32("k_bounded", h, ref, 128);
}

static void check_dims(const cudaDeviceProp &p, int *d)
{
   k_index<<<dim3(0x80000000u), 1>>>(d);
   CHECK_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
   expect_invalid(cudaGetLastError(), "grid.x = 2^31", __LINE__);
   k_index<<<1, dim3(p.maxThreadsDim[0] + 1, 1, 1)>>>(d);
   expect_invalid(cudaGetLastError(), "block.x over maxThreadsDim[0]", __LINE__);
   k_index<<<1, dim3(1, p.maxThreadsDim[1] + 1, 1)>>>(d);
   expect_invalid(cudaGetLastError(), "block.y over maxThreadsDim[1]", __LINE__);
   k_index<<<1, dim3(2, p.maxThreadsPerBlock / 2, 2)>>>(d);
   expect_invalid(cudaGetLastError(), "2 x max/2 x 2 threads", __LINE__);
   k_index<<<1, dim3(1, 1, p.maxThreadsDim[2])>>>(d);
   CHECK_CUDA(cudaGetLastError());
   k_index<<<1, dim3(1, p.maxThreadsDim[1], 1)>>>(d);
   CHECK_CUDA(cudaGetLastError());
   k_index<<<1, dim3(p.maxThreadsDim[0], 1, 1)>>>(d);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   int h[1024], ref[1024];
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 1024; i++)
      ref[i] = i;
   CHECK_ARRAY_I32("k_index, last launch", h, ref, p.maxThreadsDim[0] < 1024 ? p.maxThreadsDim[0] : 1024);
}

static void check_shared(const cudaDeviceProp &p, int *d)
{
   const int limit = (int)p.sharedMemPerBlock;
   k_dyn<<<1, 128, limit + 4>>>(d, 0);
   expect_invalid(cudaGetLastError(), "dynamic shared memory over sharedMemPerBlock", __LINE__);
   k_dyn<<<1, 128, limit>>>(d, limit / 4);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(read0(d), limit / 4);

   const int dyn = limit - 8192;
   k_static_dyn<<<1, 128, dyn + 16>>>(d, 0);
   expect_invalid(cudaGetLastError(), "8 KB static + dynamic over sharedMemPerBlock", __LINE__);
   void *args[] = { &d, (void *)&dyn };
   CHECK_ERR(cudaLaunchKernel((const void *)k_static_dyn, dim3(1), dim3(128), args, dyn + 16, 0),
             cudaErrorInvalidValue);
   expect_invalid(cudaGetLastError(), "cudaLaunchKernel, static + dynamic over the limit", __LINE__);
   k_static_dyn<<<1, 128, dyn>>>(d, dyn / 4);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(read0(d), 2048 + dyn / 4);
}

int main(void)
{
   check_begin("launch_errors");
   cudaDeviceProp p;
   REQUIRE_CUDA(cudaGetDeviceProperties(&p, 0));
   int *d = (int *)dev_alloc_fill32(1024);
   if (!d)
      REQUIRE_CUDA(cudaErrorMemoryAllocation);
   check_bounds(d);
   check_dims(p, d);
   check_shared(p, d);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_CUDA(cudaFree(d));
   return check_end();
}
