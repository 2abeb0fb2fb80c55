/*
 * launch.c — kernel launches by host stub (cudaLaunchKernel, <<<>>>).
 *
 * The launch configuration is checked before the driver sees it.  CUDA 13's
 * runtime reports every bad configuration (too many threads, a zero or
 * oversized dimension, too much shared memory) as cudaErrorInvalidValue,
 * not cudaErrorInvalidConfiguration: measured on an H200 (tests/cuda/errors.cu).
 */
#include "internal.h"

LOG_CHANNEL(launch);

bool rt_launch_config_ok(dim3 grid, dim3 block)
{
   if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
      return false;
   if (block.x > 1024 || block.y > 1024 || block.z > 64 || grid.y > 65535 || grid.z > 65535 ||
       grid.x > 0x7fffffffu)
      return false;
   return (uint64_t)block.x * block.y * block.z <= 1024;
}

cudaError_t rt_launch(rt_function *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
   if (!rt_launch_config_ok(grid, block))
      return cudaErrorInvalidValue;
   CUfunction k;
   cudaError_t e = rt_function_kernel(f, &k);
   return e == cudaSuccess ? rt_launch_cu(k, grid, block, args, shared, stream) : e;
}

cudaError_t rt_launch_cu(CUfunction k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
   if (!rt_launch_config_ok(grid, block))
      return cudaErrorInvalidValue;
   if (shared > 0xffffffffu)
      return cudaErrorInvalidValue;
   CUresult r = cuLaunchKernel(k, grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)shared,
                               (CUstream)(void *)stream, args, NULL);
   return r == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(r);
}

/* ==== cudaLaunchKernel (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                       cudaStream_t stream)
{
   RT_ENTER("func=%p grid=(%u,%u,%u) block=(%u,%u,%u) args=%p sharedMem=%zu stream=%p", func, gridDim.x,
            gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z, (void *)args, sharedMem, (void *)stream);
   RT_CHECK(func, cudaErrorInvalidDeviceFunction);
   rt_function *f = rt_function_by_host(func);
   if (f)
      return RT_RETURN(rt_launch(f, gridDim, blockDim, args, sharedMem, stream));
   /* A library's kernel (cudaKernel_t), or else a host function that is
    * not a registered kernel: NVIDIA's runtime answers
    * cudaErrorInvalidResourceHandle (checked on an H200). */
   CUfunction k;
   cudaError_t e = rt_kernel_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(rt_launch_cu(k, gridDim, blockDim, args, sharedMem, stream));
}

/* ==== cudaLaunchKernel_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                            size_t sharedMem, cudaStream_t stream)
{
   /* built with --default-stream per-thread: NULL is the thread's stream */
   return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream ? stream : cudaStreamPerThread);
}
