/*
 * launch.c — cuLaunchKernel and kernel attributes.
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* Reads the packed-argument form of cuLaunchKernel's `extra`. */
static bool parse_extra(void **extra, const void **blob, size_t *size)
{
   *blob = NULL;
   *size = 0;
   const size_t *psize = NULL;
   for (unsigned k = 0; extra[k] != CU_LAUNCH_PARAM_END; k += 2) {
      if (extra[k] == CU_LAUNCH_PARAM_BUFFER_POINTER)
         *blob = extra[k + 1];
      else if (extra[k] == CU_LAUNCH_PARAM_BUFFER_SIZE)
         psize = extra[k + 1];
      else
         return false;
      if (k > 64)
         return false;
   }
   if (!*blob || !psize)
      return false;
   *size = *psize;
   return true;
}

/* ==== cuLaunchKernel (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
   API_ENTER("f=%p grid=(%u,%u,%u) block=(%u,%u,%u) sharedMemBytes=%u hStream=%p kernelParams=%p extra=%p",
             (void *)f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
             (void *)hStream, (void *)kernelParams, (void *)extra);
   API_NEED_INIT();
   core_kernel *k = kernel_of(f);
   API_CHECK(core_check_kernel(k), CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(!(kernelParams && extra), CUDA_ERROR_INVALID_VALUE);
   core_launch_config cfg = {
      .grid = { gridDimX, gridDimY, gridDimZ },
      .block = { blockDimX, blockDimY, blockDimZ },
      .shared_bytes = sharedMemBytes,
      .args = kernelParams,
   };
   CUresult r = drv_stream(hStream, &cfg.stream);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   if (extra)
      API_CHECK(parse_extra(extra, &cfg.arg_blob, &cfg.arg_blob_size), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_launch(k, &cfg));
}

/* ==== cuLaunchKernel_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                     unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                     unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
   return cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                         drv_ptsz(hStream), kernelParams, extra);
}

/* ==== cuFuncGetAttribute (libcuda.@) ==== (src/core/function.c) */
CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
   API_ENTER("pi=%p attrib=%d hfunc=%p", (void *)pi, (int)attrib, (void *)hfunc);
   API_CHECK(pi, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = kernel_of(hfunc);
   API_CHECK(core_check_kernel(k), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_kernel_get_attribute(k, (int)attrib, pi));
}
