/*
 * launch_ex.c — cudaLaunchKernelExC (cudaLaunchKernelEx in C++): a launch
 * by host stub with launch attributes, the driver's cuLaunchKernelEx
 * (driver/launch_ex.c says what each attribute does here).  The runtime's
 * and the driver's attribute structures are the same bytes (an id, then a
 * 64-byte value at offset 8).
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* ==== cudaLaunchKernelExC (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
   RT_ENTER("config=%p func=%p args=%p", (const void *)config, func, (void *)args);
   RT_CHECK(config, cudaErrorInvalidValue);
   LOG_TRACE("grid=(%u,%u,%u) block=(%u,%u,%u) dynamicSmemBytes=%zu stream=%p attrs=%p numAttrs=%u",
             config->gridDim.x, config->gridDim.y, config->gridDim.z, config->blockDim.x, config->blockDim.y,
             config->blockDim.z, config->dynamicSmemBytes, (void *)config->stream, (void *)config->attrs,
             config->numAttrs);
   RT_CHECK(func, cudaErrorInvalidDeviceFunction);
   RT_CHECK(config->dynamicSmemBytes <= 0xffffffffu, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUfunction k;
   cudaError_t e = rt_kernel_of(func, &k);   /* a stub or a cudaKernel_t, as cudaLaunchKernel takes */
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUlaunchConfig c = {
      .gridDimX = config->gridDim.x, .gridDimY = config->gridDim.y, .gridDimZ = config->gridDim.z,
      .blockDimX = config->blockDim.x, .blockDimY = config->blockDim.y, .blockDimZ = config->blockDim.z,
      .sharedMemBytes = (unsigned)config->dynamicSmemBytes, .hStream = (CUstream)(void *)config->stream,
      .attrs = (CUlaunchAttribute *)(void *)config->attrs, .numAttrs = config->numAttrs,
   };
   return RT_RETURN_CU(cuLaunchKernelEx(&c, k, args, NULL));
}

/* ==== cudaLaunchKernelExC_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
   if (!config)
      return cudaLaunchKernelExC(config, func, args);
   cudaLaunchConfig_t c = *config;
   if (!c.stream)
      c.stream = cudaStreamPerThread;
   return cudaLaunchKernelExC(&c, func, args);
}
