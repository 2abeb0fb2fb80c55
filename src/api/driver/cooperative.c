/*
 * cooperative.c — cooperative launches (cuLaunchCooperativeKernel): every
 * block of the grid resident at once, so that cooperative_groups'
 * grid.sync() can wait for all of them (src/core/launch.c has the
 * mechanism and the grid-size limit, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* ==== cuLaunchCooperativeKernel (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams)
{
   API_ENTER("f=%p grid=(%u,%u,%u) block=(%u,%u,%u) sharedMemBytes=%u hStream=%p kernelParams=%p", (void *)f,
             gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, (void *)hStream,
             (void *)kernelParams);
   API_NEED_INIT();
   core_kernel *k = kernel_of(f);
   API_CHECK(core_check_kernel(k), CUDA_ERROR_INVALID_HANDLE);
   core_launch_config cfg = {
      .grid = { gridDimX, gridDimY, gridDimZ },
      .block = { blockDimX, blockDimY, blockDimZ },
      .shared_bytes = sharedMemBytes,
      .args = kernelParams,
      .cooperative = true,
   };
   CUresult r = drv_stream(hStream, &cfg.stream);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   return API_RETURN((CUresult)core_launch(k, &cfg));
}

/* ==== cuLaunchCooperativeKernel_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX,
                                                unsigned int blockDimY, unsigned int blockDimZ,
                                                unsigned int sharedMemBytes, CUstream hStream,
                                                void **kernelParams)
{
   return cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                    sharedMemBytes, drv_ptsz(hStream), kernelParams);
}

/* ==== cuLaunchCooperativeKernelMultiDevice (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices,
                                                      unsigned int flags)
{
   API_ENTER("launchParamsList=%p numDevices=%u flags=%#x", (void *)launchParamsList, numDevices, flags);
   API_NEED_INIT();
   /* Deprecated since CUDA 11.3; CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH is 0. */
   API_NOT_SUPPORTED("multi-device cooperative launches (cuLaunchCooperativeKernelMultiDevice, deprecated): "
                     "use cuLaunchCooperativeKernel on each device");
}
