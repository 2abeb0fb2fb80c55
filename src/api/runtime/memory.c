/*
 * memory.c — cudaMalloc, cudaFree, cudaMemGetInfo, and 1-D copies and fills
 * (cudaMemcpy, cudaMemset and their async and per-thread forms).
 *
 * Asynchronous copies and fills are ordered in their stream by the driver
 * (core/memory.c: they wait for the stream's earlier work, then copy).
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* ==== cudaMalloc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size)
{
   RT_ENTER("devPtr=%p size=%zu", (void *)devPtr, size);
   RT_CHECK(devPtr, cudaErrorInvalidValue);
   RT_NEED_CTX();
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
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemFree_v2((CUdeviceptr)(uintptr_t)devPtr));
}

cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                      bool async)
{
   CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst, s = (CUdeviceptr)(uintptr_t)src;
   CUresult r;
   switch (kind) {
   case cudaMemcpyHostToHost:
   case cudaMemcpyDefault:
      r = async ? cuMemcpyAsync(d, s, count, stream) : cuMemcpy(d, s, count);
      break;
   case cudaMemcpyHostToDevice:
      r = async ? cuMemcpyHtoDAsync_v2(d, src, count, stream) : cuMemcpyHtoD_v2(d, src, count);
      break;
   case cudaMemcpyDeviceToHost:
      r = async ? cuMemcpyDtoHAsync_v2(dst, s, count, stream) : cuMemcpyDtoH_v2(dst, s, count);
      break;
   case cudaMemcpyDeviceToDevice:
      r = async ? cuMemcpyDtoDAsync_v2(d, s, count, stream) : cuMemcpyDtoD_v2(d, s, count);
      break;
   default:
      return cudaErrorInvalidMemcpyDirection;
   }
   return cu_to_cuda_error(r);
}

/* ==== cudaMemcpy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p src=%p count=%zu kind=%d", dst, src, count, (int)kind);
   RT_NEED_CTX();
   if (count == 0)
      return RT_RETURN(cudaSuccess);
   RT_CHECK(dst && src, cudaErrorInvalidValue);
   return RT_RETURN(rt_memcpy(dst, src, count, kind, NULL, false));
}

/* ==== cudaMemcpy_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   return rt_ptds_sync(cudaMemcpyAsync(dst, src, count, kind, cudaStreamPerThread));
}

/* ==== cudaMemcpyAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
   RT_ENTER("dst=%p src=%p count=%zu kind=%d stream=%p", dst, src, count, (int)kind, (void *)stream);
   RT_NEED_CTX();
   RT_CHECK(kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault, cudaErrorInvalidMemcpyDirection);
   if (count == 0)
      return RT_RETURN(cudaSuccess);
   RT_CHECK(dst && src, cudaErrorInvalidValue);
   return RT_RETURN(rt_memcpy(dst, src, count, kind, stream, true));
}

/* ==== cudaMemcpyAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                           cudaStream_t stream)
{
   return cudaMemcpyAsync(dst, src, count, kind, rt_ptsz(stream));
}

/* ==== cudaMemset (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count)
{
   RT_ENTER("devPtr=%p value=%d count=%zu", devPtr, value, count);
   RT_NEED_CTX();
   if (count == 0)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuMemsetD8_v2((CUdeviceptr)(uintptr_t)devPtr, (unsigned char)value, count));
}

/* ==== cudaMemset_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value, size_t count)
{
   return rt_ptds_sync(cudaMemsetAsync(devPtr, value, count, cudaStreamPerThread));
}

/* ==== cudaMemsetAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
   RT_ENTER("devPtr=%p value=%d count=%zu stream=%p", devPtr, value, count, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)devPtr, (unsigned char)value, count, stream));
}

/* ==== cudaMemsetAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
   return cudaMemsetAsync(devPtr, value, count, rt_ptsz(stream));
}

/* ==== cudaMemGetInfo (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free, size_t *total)
{
   RT_ENTER("free=%p total=%p", (void *)free, (void *)total);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemGetInfo_v2(free, total));
}

/* ---- peer copies: each device's memory through its primary context ---- */

static cudaError_t copy_peer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                             cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   CUcontext dc, sc;
   if (e == cudaSuccess)
      e = rt_primary_ctx(dstDevice, &dc);
   if (e == cudaSuccess)
      e = rt_primary_ctx(srcDevice, &sc);
   if (e != cudaSuccess)
      return e;
   CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst, s = (CUdeviceptr)(uintptr_t)src;
   return cu_to_cuda_error(async ? cuMemcpyPeerAsync(d, dc, s, sc, count, (CUstream)(void *)stream)
                                 : cuMemcpyPeer(d, dc, s, sc, count));
}

/* ==== cudaMemcpyPeer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
   RT_ENTER("dst=%p dstDevice=%d src=%p srcDevice=%d count=%zu", dst, dstDevice, src, srcDevice, count);
   return RT_RETURN(copy_peer(dst, dstDevice, src, srcDevice, count, NULL, false));
}

/* ==== cudaMemcpyPeerAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                          cudaStream_t stream)
{
   RT_ENTER("dst=%p dstDevice=%d src=%p srcDevice=%d count=%zu stream=%p", dst, dstDevice, src, srcDevice, count,
            (void *)stream);
   return RT_RETURN(copy_peer(dst, dstDevice, src, srcDevice, count, stream, true));
}
