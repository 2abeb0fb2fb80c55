/*
 * devprops.cu — cudaGetDeviceProperties and friends: prints what the device
 * reports, checks only what holds on an NVIDIA H200 and on every metalcuda
 * device (warp size 32, 1024 threads per block, block and grid limits,
 * at least 32 KB of shared memory per block, compute capability 7.5 or
 * newer since the tests are built for sm_75), then proves the limits by
 * launching at them: a block of maxThreadsPerBlock threads, a block of
 * maxThreadsDim in each dimension, a grid of maxGridSize[1] blocks in y.
 * cudaSetValidDevices: the device list CUDA documents (every device in
 * order is valid; a list longer than the device count, or one without its
 * array, is an invalid value; an ordinal past the devices an invalid
 * device; length 0 restores the default).
 */
#include "check.h"

__global__ void stamp(unsigned *out, unsigned *warp)
{
   unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
   unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
   unsigned per = blockDim.x * blockDim.y * blockDim.z;
   out[b * per + t] = b * per + t + 1u;
   if (b == 0 && t == 0)
      *warp = warpSize;
}

/* Launches stamp on grid x block and checks every thread wrote. */
static void launch_at(dim3 grid, dim3 block, const char *what)
{
   size_t total = (size_t)grid.x * grid.y * grid.z * block.x * block.y * block.z;
   unsigned *d = (unsigned *)dev_alloc_fill32(total), *w = (unsigned *)dev_alloc_fill32(1);
   unsigned *h = (unsigned *)malloc(total * 4), warp = 0;
   if (!check_true(d && w && h, what, __FILE__, __LINE__))
      return;
   stamp<<<grid, block>>>(d, w);
   check_err(cudaGetLastError(), cudaSuccess, what, __FILE__, __LINE__);
   check_err(cudaDeviceSynchronize(), cudaSuccess, what, __FILE__, __LINE__);
   CHECK_CUDA(cudaMemcpy(h, d, total * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(&warp, w, 4, cudaMemcpyDeviceToHost));
   size_t bad = 0;
   for (size_t i = 0; i < total; i++)
      bad += h[i] != (unsigned)i + 1u;
   check_int((long long)bad, 0, what, __FILE__, __LINE__);
   CHECK_INT(warp, 32);
   cudaFree(d), cudaFree(w);
   free(h);
}

int main(void)
{
   check_begin("devprops");
   int count = 0, dev = -1, drv = 0, rt = 0;
   CHECK_CUDA(cudaGetDeviceCount(&count));
   CHECK(count >= 1);
   CHECK_CUDA(cudaGetDevice(&dev));
   CHECK_INT(dev, 0);
   CHECK_CUDA(cudaDriverGetVersion(&drv));
   CHECK_CUDA(cudaRuntimeGetVersion(&rt));
   printf("  devices %d, driver version %d, runtime version %d (built with %d)\n", count, drv, rt, CUDART_VERSION);
   CHECK(rt >= CUDART_VERSION);         /* the libcudart these tests are built against */
   CHECK(drv >= rt);                     /* a driver runs runtimes up to its own version */

   struct cudaDeviceProp p;
   memset(&p, 0xa5, sizeof(p));
   REQUIRE_CUDA(cudaGetDeviceProperties(&p, 0));
   printf("  name \"%s\"\n", p.name);
   printf("  compute capability %d.%d, %d multiprocessors\n", p.major, p.minor, p.multiProcessorCount);
   printf("  totalGlobalMem %zu MB, sharedMemPerBlock %zu, totalConstMem %zu\n", p.totalGlobalMem >> 20,
          p.sharedMemPerBlock, p.totalConstMem);
   printf("  warpSize %d, maxThreadsPerBlock %d, maxThreadsDim %d x %d x %d, maxGridSize %d x %d x %d\n", p.warpSize,
          p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0],
          p.maxGridSize[1], p.maxGridSize[2]);
   printf("  unifiedAddressing %d, managedMemory %d, concurrentKernels %d\n", p.unifiedAddressing, p.managedMemory,
          p.concurrentKernels);

   CHECK(strlen(p.name) > 0 && strlen(p.name) < sizeof(p.name));
   CHECK_INT(p.warpSize, 32);
   CHECK_INT(p.maxThreadsPerBlock, 1024);
   CHECK_INT(p.maxThreadsDim[0], 1024);
   CHECK_INT(p.maxThreadsDim[1], 1024);
   CHECK_INT(p.maxThreadsDim[2], 64);
   CHECK_INT(p.maxGridSize[0], 2147483647);
   CHECK_INT(p.maxGridSize[1], 65535);
   CHECK_INT(p.maxGridSize[2], 65535);
   CHECK(p.sharedMemPerBlock >= 32768);
   CHECK(p.totalGlobalMem >= ((size_t)1 << 30));
   CHECK(p.totalConstMem >= 65536);
   CHECK(p.multiProcessorCount >= 1);
   CHECK(p.major > 7 || (p.major == 7 && p.minor >= 5));
   CHECK_INT(p.unifiedAddressing, 1);

   struct cudaDeviceProp q;
   CHECK_ERR(cudaGetDeviceProperties(&q, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetDeviceProperties(&q, -1), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);

   int all[64] = { 0 };
   for (int d = 0; d < count && d < 64; d++)
      all[d] = count - 1 - d;   /* every device, last first */
   CHECK_CUDA(cudaSetValidDevices(all, count < 64 ? count : 64));
   CHECK_ERR(cudaSetValidDevices(NULL, 1), cudaErrorInvalidValue);
   CHECK_ERR(cudaSetValidDevices(all, count + 1), cudaErrorInvalidValue);
   int past[1] = { count };
   CHECK_ERR(cudaSetValidDevices(past, 1), cudaErrorInvalidDevice);
   CHECK_CUDA(cudaSetValidDevices(NULL, 0));
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);

   /* launch at the limits the device reported */
   launch_at(dim3(1), dim3(p.maxThreadsPerBlock), "one block of maxThreadsPerBlock");
   launch_at(dim3(3), dim3(p.maxThreadsDim[0], 1, 1), "blocks of maxThreadsDim[0]");
   launch_at(dim3(2), dim3(1, p.maxThreadsDim[1], 1), "blocks of maxThreadsDim[1]");
   launch_at(dim3(2), dim3(16, 1, p.maxThreadsDim[2]), "blocks of maxThreadsDim[2]");
   launch_at(dim3(1, p.maxGridSize[1], 1), dim3(1), "a grid of maxGridSize[1] in y");
   launch_at(dim3(2, 3, p.maxGridSize[2] / 1000), dim3(2, 2, 2), "a 3-D grid of 3-D blocks");
   return check_end();
}
