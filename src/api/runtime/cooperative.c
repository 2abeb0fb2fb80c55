/*
 * cooperative.c — cudaLaunchCooperativeKernel: a launch whose blocks are
 * all resident at once, so that cooperative_groups::this_grid().sync() can
 * wait for every block (the driver's cuLaunchCooperativeKernel; the
 * mechanism and the grid-size limit are src/core/launch.c's).  The CUDA 12
 * form cudaLaunchCooperativeKernelMultiDevice is a stub (abi12.c): one
 * device, and cudaDevAttrCooperativeMultiDeviceLaunch is 0.
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* ==== cudaLaunchCooperativeKernel (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream)
{
   RT_ENTER("func=%p grid=(%u,%u,%u) block=(%u,%u,%u) args=%p sharedMem=%zu stream=%p", func, gridDim.x,
            gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z, (void *)args, sharedMem, (void *)stream);
   RT_CHECK(func, cudaErrorInvalidDeviceFunction);
   rt_function *f = rt_function_by_host(func);
   RT_CHECK(f, cudaErrorInvalidResourceHandle);
   RT_CHECK(rt_launch_config_ok(gridDim, blockDim), cudaErrorInvalidValue);
   RT_CHECK(sharedMem <= 0xffffffffu, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = rt_function_kernel(f, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUresult r = cuLaunchCooperativeKernel(k, gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z,
                                          (unsigned)sharedMem, (CUstream)(void *)stream, args);
   return RT_RETURN(r == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(r));
}

/* ==== cudaLaunchCooperativeKernel_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                       size_t sharedMem, cudaStream_t stream)
{
   return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem,
                                      stream ? stream : cudaStreamPerThread);
}
