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

/* ==== cuFuncGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
   API_ENTER("pi=%p attrib=%d hfunc=%p", (void *)pi, (int)attrib, (void *)hfunc);
   API_CHECK(pi, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = kernel_of(hfunc);
   API_CHECK(core_check_kernel(k), CUDA_ERROR_INVALID_HANDLE);
   CUresult r = (CUresult)core_kernel_prepare(k);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   const mc_kernel_info *ki = &k->info;
   const mtl_device_info *dev = core_device_info(k->module->ctx->dev);
   switch ((int)attrib) {
   case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)mtl_pipeline_max_total_threads(k->pipeline); break;
   case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)ki->shared_static_bytes; break;
   case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = 0; break;
   case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)ki->local_bytes; break;
   case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = 32; break;   /* no register file to report; a typical value */
   case CU_FUNC_ATTRIBUTE_PTX_VERSION:
   case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)compiler_module_sm(k->module->cm); break;
   case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
   case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *pi = (int)(dev->max_threadgroup_memory - ki->shared_dynamic_offset);
      break;
   case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = -1; break;
   default:
      API_CHECK((int)attrib >= 0 && (int)attrib < CU_FUNC_ATTRIBUTE_MAX, CUDA_ERROR_INVALID_VALUE);
      *pi = 0;
      break;
   }
   return API_RETURN(CUDA_SUCCESS);
}
