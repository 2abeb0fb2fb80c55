/*
 * memory.c — device memory: allocation, copies, fills.
 *
 * Every device pointer is checked against the live allocations, so a stale,
 * foreign or out-of-range pointer is CUDA_ERROR_INVALID_VALUE, never a
 * crash.  Host pointers cannot be checked (CUDA does not either).
 */
#include "internal.h"

LOG_CHANNEL(memory);

static bool dev_range_ok(core_ctx *c, CUdeviceptr p, size_t n)
{
   return n == 0 || core_mem_lookup(c->dev, p, n, NULL, NULL);
}

/* A unified-address range: host memory, or within one device allocation
 * if it starts in one (never running off its end into a neighbour). */
static bool unified_range_ok(core_ctx *c, CUdeviceptr p, size_t n)
{
   return n == 0 || !core_mem_lookup(c->dev, p, 1, NULL, NULL) || core_mem_lookup(c->dev, p, n, NULL, NULL);
}

/* ==== cuMemAlloc_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
   API_ENTER("dptr=%p bytesize=%zu", (void *)dptr, bytesize);
   API_CHECK(dptr, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(bytesize > 0, CUDA_ERROR_INVALID_VALUE);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   /* A context poisoned by a kernel fault or assert refuses new memory
    * too, with its sticky error (as NVIDIA's driver does). */
   int sticky = core_ctx_error(c);
   if (sticky != CORE_SUCCESS)
      return API_RETURN((CUresult)sticky);
   uint64_t p;
   int r = core_mem_alloc(c->dev, bytesize, &p);
   if (r == CORE_SUCCESS)
      *dptr = p;
   return API_RETURN((CUresult)r);
}

/* ==== cuMemFree_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
{
   API_ENTER("dptr=%#llx", (unsigned long long)dptr);
   API_NEED_CTX(c);
   if (!dptr)
      return API_RETURN(CUDA_SUCCESS);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   /* Kernels still running may use the memory. */
   int r = core_ctx_synchronize(c);
   if (r != CORE_SUCCESS)
      return API_RETURN((CUresult)r);
   uint32_t flags = 0;
   core_mem_query(c->dev, dptr, 1, NULL, NULL, NULL, &flags);
   if (flags & CORE_MEM_FLAG_POOL)   /* cuMemAllocAsync memory: keep its pool's counts */
      return API_RETURN((CUresult)core_mempool_free(c->dev, dptr));
   if (flags & CORE_MEM_FLAG_GRAPH)   /* a graph allocation: its address stays the graph's */
      return API_RETURN((CUresult)core_graph_mem_free(c->dev, dptr));
   /* page-locked host memory is cuMemFreeHost's */
   return API_RETURN((CUresult)core_mem_free_kind(c->dev, dptr, CORE_MEM_KIND_BIT(CORE_MEM_DEVICE) |
                                                                CORE_MEM_KIND_BIT(CORE_MEM_MANAGED)));
}

/* ==== cuMemGetInfo_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
   API_ENTER("free=%p total=%p", (void *)free_bytes, (void *)total);
   API_CHECK(free_bytes && total, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   uint64_t f, t;
   core_mem_info(c->dev, &f, &t);
   *free_bytes = (size_t)f;
   *total = (size_t)t;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemcpy (libcuda.@) ==== unified addressing: either side may be host */
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
   API_ENTER("dst=%#llx src=%#llx ByteCount=%zu", (unsigned long long)dst, (unsigned long long)src, ByteCount);
   API_NEED_CTX(c);
   API_CHECK(ByteCount == 0 || (dst && src), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(unified_range_ok(c, dst, ByteCount) && unified_range_ok(c, src, ByteCount), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memcpy(c, dst, src, ByteCount));
}

/* ==== cuMemcpyHtoD_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx srcHost=%p ByteCount=%zu", (unsigned long long)dstDevice, srcHost, ByteCount);
   API_NEED_CTX(c);
   API_CHECK(ByteCount == 0 || srcHost, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(dev_range_ok(c, dstDevice, ByteCount), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memcpy(c, dstDevice, (uint64_t)(uintptr_t)srcHost, ByteCount));
}

/* ==== cuMemcpyDtoH_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
   API_ENTER("dstHost=%p srcDevice=%#llx ByteCount=%zu", dstHost, (unsigned long long)srcDevice, ByteCount);
   API_NEED_CTX(c);
   API_CHECK(ByteCount == 0 || dstHost, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(dev_range_ok(c, srcDevice, ByteCount), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memcpy(c, (uint64_t)(uintptr_t)dstHost, srcDevice, ByteCount));
}

/* ==== cuMemcpyDtoD_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx srcDevice=%#llx ByteCount=%zu", (unsigned long long)dstDevice,
             (unsigned long long)srcDevice, ByteCount);
   API_NEED_CTX(c);
   API_CHECK(dev_range_ok(c, dstDevice, ByteCount) && dev_range_ok(c, srcDevice, ByteCount),
             CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memcpy(c, dstDevice, srcDevice, ByteCount));
}

/* ==== cuMemsetD8_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
   API_ENTER("dstDevice=%#llx uc=%#x N=%zu", (unsigned long long)dstDevice, uc, N);
   API_NEED_CTX(c);
   API_CHECK(dev_range_ok(c, dstDevice, N), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memset(c, dstDevice, uc, 1, N));
}

/* ==== cuMemsetD32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
   API_ENTER("dstDevice=%#llx ui=%#x N=%zu", (unsigned long long)dstDevice, ui, N);
   API_NEED_CTX(c);
   API_CHECK(dstDevice % 4 == 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(N <= SIZE_MAX / 4 && dev_range_ok(c, dstDevice, N * 4), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_memset(c, dstDevice, ui, 4, N));
}

/* ---- the per-thread-default-stream names (nvcc --default-stream per-thread):
 * the synchronous copy or fill on the calling thread's per-thread stream
 * (drv_ptds_sync) instead of the legacy one ---- */

/* ==== cuMemcpy_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyAsync(dst, src, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpyHtoD_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyHtoDAsync_v2(dstDevice, srcHost, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpyDtoH_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyDtoHAsync_v2(dstHost, srcDevice, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpyDtoD_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyDtoDAsync_v2(dstDevice, srcDevice, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD8_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
   return drv_ptds_sync(cuMemsetD8Async(dstDevice, uc, N, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD32_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
   return drv_ptds_sync(cuMemsetD32Async(dstDevice, ui, N, CU_STREAM_PER_THREAD));
}

/* ---- fills ---- */

/* A 2-D fill of height rows of width elements of elem bytes, pitch bytes
 * apart, on stream h: the checks every cuMemsetD* makes, then core. */
static CUresult fill_2d(CUdeviceptr dst, size_t pitch, uint32_t value, size_t elem, size_t width, size_t height,
                        CUstream h, bool async)
{
   core_ctx *c;
   core_stream *s;
   CUresult r = drv_ctx_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (width == 0 || height == 0)
      return CUDA_SUCCESS;
   if (dst % elem || (height > 1 && (pitch < width * elem || pitch % elem)))
      return CUDA_ERROR_INVALID_VALUE;
   if (width > SIZE_MAX / elem || (height > 1 && height - 1 > (SIZE_MAX - width * elem) / pitch))
      return CUDA_ERROR_INVALID_VALUE;
   size_t span = (height - 1) * pitch + width * elem;
   if (!dev_range_ok(c, dst, span))
      return CUDA_ERROR_INVALID_VALUE;
   return (CUresult)(async ? core_fill2d_async : core_fill2d)(c, s, dst, pitch, value, elem, width, height);
}

/* ==== cuMemsetD16_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
   API_ENTER("dstDevice=%#llx us=%#x N=%zu", (unsigned long long)dstDevice, us, N);
   return API_RETURN(fill_2d(dstDevice, 0, us, 2, N, 1, NULL, false));
}

/* ==== cuMemsetD16_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
   return drv_ptds_sync(cuMemsetD16Async(dstDevice, us, N, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD2D8_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu uc=%#x Width=%zu Height=%zu", (unsigned long long)dstDevice, dstPitch,
             uc, Width, Height);
   return API_RETURN(fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, NULL, false));
}

/* ==== cuMemsetD2D8_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                      size_t Height)
{
   return drv_ptds_sync(cuMemsetD2D8Async(dstDevice, dstPitch, uc, Width, Height, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD2D16_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                  size_t Height)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu us=%#x Width=%zu Height=%zu", (unsigned long long)dstDevice, dstPitch,
             us, Width, Height);
   return API_RETURN(fill_2d(dstDevice, dstPitch, us, 2, Width, Height, NULL, false));
}

/* ==== cuMemsetD2D16_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                       size_t Height)
{
   return drv_ptds_sync(cuMemsetD2D16Async(dstDevice, dstPitch, us, Width, Height, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD2D32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                  size_t Height)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu ui=%#x Width=%zu Height=%zu", (unsigned long long)dstDevice, dstPitch,
             ui, Width, Height);
   return API_RETURN(fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, NULL, false));
}

/* ==== cuMemsetD2D32_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                       size_t Height)
{
   return drv_ptds_sync(cuMemsetD2D32Async(dstDevice, dstPitch, ui, Width, Height, CU_STREAM_PER_THREAD));
}

/* ==== cuMemsetD8Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx uc=%#x N=%zu hStream=%p", (unsigned long long)dstDevice, uc, N, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, 0, uc, 1, N, 1, hStream, true));
}

/* ==== cuMemsetD8Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
   return cuMemsetD8Async(dstDevice, uc, N, drv_ptsz(hStream));
}

/* ==== cuMemsetD16Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx us=%#x N=%zu hStream=%p", (unsigned long long)dstDevice, us, N, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, 0, us, 2, N, 1, hStream, true));
}

/* ==== cuMemsetD16Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
   return cuMemsetD16Async(dstDevice, us, N, drv_ptsz(hStream));
}

/* ==== cuMemsetD32Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx ui=%#x N=%zu hStream=%p", (unsigned long long)dstDevice, ui, N, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, 0, ui, 4, N, 1, hStream, true));
}

/* ==== cuMemsetD32Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
   return cuMemsetD32Async(dstDevice, ui, N, drv_ptsz(hStream));
}

/* ==== cuMemsetD2D8Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                   size_t Height, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu uc=%#x Width=%zu Height=%zu hStream=%p", (unsigned long long)dstDevice,
             dstPitch, uc, Width, Height, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, hStream, true));
}

/* ==== cuMemsetD2D8Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                        size_t Height, CUstream hStream)
{
   return cuMemsetD2D8Async(dstDevice, dstPitch, uc, Width, Height, drv_ptsz(hStream));
}

/* ==== cuMemsetD2D16Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                    size_t Height, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu us=%#x Width=%zu Height=%zu hStream=%p", (unsigned long long)dstDevice,
             dstPitch, us, Width, Height, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, dstPitch, us, 2, Width, Height, hStream, true));
}

/* ==== cuMemsetD2D16Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                         size_t Height, CUstream hStream)
{
   return cuMemsetD2D16Async(dstDevice, dstPitch, us, Width, Height, drv_ptsz(hStream));
}

/* ==== cuMemsetD2D32Async (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                    size_t Height, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx dstPitch=%zu ui=%#x Width=%zu Height=%zu hStream=%p", (unsigned long long)dstDevice,
             dstPitch, ui, Width, Height, (void *)hStream);
   return API_RETURN(fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, hStream, true));
}

/* ==== cuMemsetD2D32Async_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                         size_t Height, CUstream hStream)
{
   return cuMemsetD2D32Async(dstDevice, dstPitch, ui, Width, Height, drv_ptsz(hStream));
}

/* ---- asynchronous 1-D copies ---- */

/* Which sides of a copy must be device memory. */
enum { SIDE_DST_DEV = 1, SIDE_SRC_DEV = 2 };

static CUresult copy_1d(CUdeviceptr dst, CUdeviceptr src, size_t n, unsigned sides, CUstream h)
{
   core_ctx *c;
   core_stream *s;
   CUresult r = drv_ctx_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (n == 0)
      return CUDA_SUCCESS;
   if (!dst || !src)
      return CUDA_ERROR_INVALID_VALUE;
   if (!((sides & SIDE_DST_DEV) ? dev_range_ok : unified_range_ok)(c, dst, n) ||
       !((sides & SIDE_SRC_DEV) ? dev_range_ok : unified_range_ok)(c, src, n))
      return CUDA_ERROR_INVALID_VALUE;
   return (CUresult)core_memcpy_async(c, s, dst, src, n);
}

/* ---- peer copies: between the memory of two contexts ----
 * Contexts of one device share its memory, so a copy between them is an
 * ordinary device-to-device copy (the only kind a single-device machine
 * has); core makes a copy between two devices' memory too.  The
 * synchronous form is ordered after the legacy-stream work of the current
 * context and of both contexts, the asynchronous one on its stream. */

static CUresult copy_peer(CUdeviceptr dst, CUcontext dstContext, CUdeviceptr src, CUcontext srcContext, size_t n,
                          CUstream h, bool sync)
{
   core_ctx *c, *dc = ctx_of(dstContext), *sc = ctx_of(srcContext);
   core_stream *s;
   CUresult r = drv_ctx_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (!core_check_ctx(dc) || !core_check_ctx(sc))
      return CUDA_ERROR_INVALID_CONTEXT;
   if (!dev_range_ok(dc, dst, n) || !dev_range_ok(sc, src, n))
      return CUDA_ERROR_INVALID_VALUE;
   return (CUresult)core_memcpy_peer(c, s, sync, dc, dst, sc, src, n);
}

/* ==== cuMemcpyPeer (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                              CUcontext srcContext, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx dstContext=%p srcDevice=%#llx srcContext=%p ByteCount=%zu",
             (unsigned long long)dstDevice, (void *)dstContext, (unsigned long long)srcDevice, (void *)srcContext,
             ByteCount);
   return API_RETURN(copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_LEGACY, true));
}

/* ==== cuMemcpyPeer_ptds (libcuda.@) ==== ordered on the per-thread stream */
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx dstContext=%p srcDevice=%#llx srcContext=%p ByteCount=%zu",
             (unsigned long long)dstDevice, (void *)dstContext, (unsigned long long)srcDevice, (void *)srcContext,
             ByteCount);
   return API_RETURN(
      copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_PER_THREAD, true));
}

/* ==== cuMemcpyPeerAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx dstContext=%p srcDevice=%#llx srcContext=%p ByteCount=%zu hStream=%p",
             (unsigned long long)dstDevice, (void *)dstContext, (unsigned long long)srcDevice, (void *)srcContext,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream, false));
}

/* ==== cuMemcpyPeerAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                        CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
   return cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyAsync (libcuda.@) ==== unified addressing: either side may be host */
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
   API_ENTER("dst=%#llx src=%#llx ByteCount=%zu hStream=%p", (unsigned long long)dst, (unsigned long long)src,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_1d(dst, src, ByteCount, 0, hStream));
}

/* ==== cuMemcpyAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
   return cuMemcpyAsync(dst, src, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyHtoDAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
   API_ENTER("dstDevice=%#llx srcHost=%p ByteCount=%zu hStream=%p", (unsigned long long)dstDevice, srcHost,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_1d(dstDevice, (CUdeviceptr)(uintptr_t)srcHost, ByteCount, SIDE_DST_DEV, hStream));
}

/* ==== cuMemcpyHtoDAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                           CUstream hStream)
{
   return cuMemcpyHtoDAsync_v2(dstDevice, srcHost, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyDtoHAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
   API_ENTER("dstHost=%p srcDevice=%#llx ByteCount=%zu hStream=%p", dstHost, (unsigned long long)srcDevice,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_1d((CUdeviceptr)(uintptr_t)dstHost, srcDevice, ByteCount, SIDE_SRC_DEV, hStream));
}

/* ==== cuMemcpyDtoHAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
   return cuMemcpyDtoHAsync_v2(dstHost, srcDevice, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyDtoDAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream)
{
   API_ENTER("dstDevice=%#llx srcDevice=%#llx ByteCount=%zu hStream=%p", (unsigned long long)dstDevice,
             (unsigned long long)srcDevice, ByteCount, (void *)hStream);
   return API_RETURN(copy_1d(dstDevice, srcDevice, ByteCount, SIDE_DST_DEV | SIDE_SRC_DEV, hStream));
}

/* ==== cuMemcpyDtoDAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream)
{
   return cuMemcpyDtoDAsync_v2(dstDevice, srcDevice, ByteCount, drv_ptsz(hStream));
}
