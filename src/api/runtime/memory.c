/*
 * memory.c — cudaMalloc, cudaFree, cudaMemcpy, cudaMemset.
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* ==== cudaMalloc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size)
{
   RT_ENTER("devPtr=%p size=%zu", (void *)devPtr, size);
   RT_CHECK(devPtr, cudaErrorInvalidValue);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   if (size == 0) {
      *devPtr = NULL;
      return RT_RETURN(cudaSuccess);
   }
   CUdeviceptr p;
   CUresult r = cuMemAlloc_v2(&p, size);
   if (r == CUDA_SUCCESS)
      *devPtr = (void *)(uintptr_t)p;
   return RT_RETURN(r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cu_to_cuda_error(r));
}

/* ==== cudaFree (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFree(void *devPtr)
{
   RT_ENTER("devPtr=%p", devPtr);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemFree_v2((CUdeviceptr)(uintptr_t)devPtr));
}

/* ==== cudaMemcpy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p src=%p count=%zu kind=%d", dst, src, count, (int)kind);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   if (count == 0)
      return RT_RETURN(cudaSuccess);
   RT_CHECK(dst && src, cudaErrorInvalidValue);
   CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst, s = (CUdeviceptr)(uintptr_t)src;
   CUresult r;
   switch (kind) {
   case cudaMemcpyHostToHost:
   case cudaMemcpyDefault:
      r = cuMemcpy(d, s, count);
      break;
   case cudaMemcpyHostToDevice:
      r = cuMemcpyHtoD_v2(d, src, count);
      break;
   case cudaMemcpyDeviceToHost:
      r = cuMemcpyDtoH_v2(dst, s, count);
      break;
   case cudaMemcpyDeviceToDevice:
      r = cuMemcpyDtoD_v2(d, s, count);
      break;
   default:
      return RT_RETURN(cudaErrorInvalidMemcpyDirection);
   }
   return RT_RETURN_CU(r);
}

/* ==== cudaMemset (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count)
{
   RT_ENTER("devPtr=%p value=%d count=%zu", devPtr, value, count);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   if (count == 0)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuMemsetD8_v2((CUdeviceptr)(uintptr_t)devPtr, (unsigned char)value, count));
}
