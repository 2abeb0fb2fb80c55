/*
 * memcpy3d.c — 2-D and 3-D copies (cuMemcpy2D, cuMemcpy3D and their async
 * and per-thread forms), and the 1-D array copies (cuMemcpyHtoA, AtoH,
 * DtoA, AtoD, AtoA and the async forms): a run of bytes of an array's
 * first row, as one-row cuMemcpy2D copies; cuMemcpy3DPeer (between
 * contexts, which are all of the one device's).
 *
 * Each side of a copy is host memory, device memory (every byte the copy
 * touches must lie in one live allocation, else CUDA_ERROR_INVALID_VALUE) or
 * unified (either) or a CUDA array (src/core/array.c: device memory of
 * the array's pitch and rows; the copy must stay inside it).  The async
 * forms are work of their stream (core_memcpy_batch of one copy: they
 * return at once between device and pinned memory; with pageable memory
 * they take the synchronous path, as CUDA documents).
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* One side of a copy, from a CUDA_MEMCPY3D. */
typedef struct side {
   CUmemorytype type;
   const void *host;
   CUdeviceptr dev;
   CUarray array;
   size_t x, y, z, pitch, height;
} side;

/* Address of the side's first byte, and the bytes from there to one past
 * the last byte the copy touches (0 on overflow). */
static bool side_span(const side *sd, size_t width, size_t height, size_t depth, uint64_t *first, size_t *span)
{
   uint64_t base = sd->type == CU_MEMORYTYPE_HOST ? (uint64_t)(uintptr_t)sd->host : sd->dev;
   size_t ph = sd->height;
   uint64_t off = sd->x + (uint64_t)sd->pitch * (sd->y + (uint64_t)ph * sd->z);
   uint64_t rows = (uint64_t)(depth - 1) * ph + (height - 1);
   if (sd->pitch && rows > (UINT64_MAX - width) / sd->pitch)
      return false;
   *first = base + off;
   *span = (size_t)(rows * sd->pitch + width);
   return true;
}

/* CUDA_SUCCESS if the side can be read or written as described. */
static CUresult side_check(core_ctx *c, const side *sd, size_t width, size_t height, size_t depth, uint64_t *first)
{
   size_t span;
   switch (sd->type) {
   case CU_MEMORYTYPE_HOST:
   case CU_MEMORYTYPE_DEVICE:
   case CU_MEMORYTYPE_UNIFIED:
      break;
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
   /* a pitch of 0 reads or writes every row at the same place: an H100
    * takes it for any height (the runtime refuses it beyond one row) */
   if (sd->pitch < width && sd->pitch != 0)
      return CUDA_ERROR_INVALID_VALUE;
   /* each slice's rows stay inside the slice: srcY + Height <= srcHeight
    * (an H200 refuses srcY 2, Height 2, srcHeight 2 over 2 slices) */
   if (depth > 1 && sd->y + height > sd->height)
      return CUDA_ERROR_INVALID_VALUE;
   if (!side_span(sd, width, height, depth, first, &span))
      return CUDA_ERROR_INVALID_VALUE;
   if (sd->type == CU_MEMORYTYPE_HOST ? !sd->host : !sd->dev)
      return CUDA_ERROR_INVALID_VALUE;
   /* device memory: every byte in one allocation; unified: the same if it
    * starts in one */
   bool in_dev = sd->type == CU_MEMORYTYPE_DEVICE || core_mem_lookup(c->dev, *first, 1, NULL, NULL);
   if (sd->type != CU_MEMORYTYPE_HOST && in_dev && !core_mem_lookup(c->dev, *first, span, NULL, NULL))
      return CUDA_ERROR_INVALID_VALUE;
   return CUDA_SUCCESS;
}

/* An array side becomes the device memory that holds the array. */
static CUresult resolve_array(side *sd, size_t width, size_t height, size_t depth)
{
   if (sd->type != CU_MEMORYTYPE_ARRAY)
      return CUDA_SUCCESS;
   core_array *a = (core_array *)(void *)sd->array;
   if (!core_check_array(a))
      return CUDA_ERROR_INVALID_VALUE;
   uint64_t rows = a->height ? a->height : 1, slices = a->depth ? a->depth : 1;
   if (sd->x > a->pitch || width > a->pitch - sd->x || sd->y > rows || height > rows - sd->y || sd->z > slices ||
       depth > slices - sd->z)
      return CUDA_ERROR_INVALID_VALUE;
   sd->type = CU_MEMORYTYPE_DEVICE;
   sd->dev = a->mem;
   sd->pitch = a->pitch;
   sd->height = rows;
   return CUDA_SUCCESS;
}

/* The checks and the copy of every cuMemcpy2D/3D form. */
static CUresult copy_3d(side *src, side *dst, size_t width, size_t height, size_t depth, CUstream h, bool async)
{
   core_ctx *c;
   core_stream *s;
   CUresult r = drv_ctx_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if ((r = resolve_array(src, width, height, depth)) != CUDA_SUCCESS ||
       (r = resolve_array(dst, width, height, depth)) != CUDA_SUCCESS)
      return r;
   if (width == 0 || height == 0 || depth == 0)
      return CUDA_SUCCESS;
   core_copy3d_desc d = { .width = width, .height = height, .depth = depth,
                          .dst_pitch = dst->pitch, .src_pitch = src->pitch,
                          .dst_height = dst->height, .src_height = src->height };
   if ((r = side_check(c, src, width, height, depth, &d.src)) != CUDA_SUCCESS ||
       (r = side_check(c, dst, width, height, depth, &d.dst)) != CUDA_SUCCESS)
      return r;
   /* an async form: stream work (one copy as a batch of one), else the
    * synchronous path */
   return (CUresult)(async ? core_memcpy_batch(c, s, 1, &d) : core_copy3d(c, s, &d));
}

static CUresult copy_2d_params(const CUDA_MEMCPY2D *p, CUstream h, bool async)
{
   if (!p)
      return CUDA_ERROR_INVALID_VALUE;
   side src = { p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, 0, p->srcPitch,
                p->Height };
   side dst = { p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, 0, p->dstPitch,
                p->Height };
   return copy_3d(&src, &dst, p->WidthInBytes, p->Height, 1, h, async);
}

static CUresult copy_3d_params(const CUDA_MEMCPY3D *p, CUstream h, bool async)
{
   /* reserved0/1 "must be NULL", but NVIDIA's driver ignores them (seen on
    * an H200), so a program that leaves garbage there works */
   if (!p)
      return CUDA_ERROR_INVALID_VALUE;
   side src = { p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                p->srcPitch, p->srcHeight };
   side dst = { p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                p->dstPitch, p->dstHeight };
   /* srcHeight/dstHeight may be 0 when Depth is 1 */
   if (p->Depth <= 1) {
      src.height = dst.height = p->Height;
   }
   return copy_3d(&src, &dst, p->WidthInBytes, p->Height, p->Depth, h, async);
}

static void trace_2d(const char *func, const CUDA_MEMCPY2D *p, CUstream h)
{
   if (log_level() < LOG_LEVEL_TRACE)
      return;
   if (!p) {
      log_msg(LOG_LEVEL_TRACE, log_channel_, func, "pCopy=NULL hStream=%p", (void *)h);
      return;
   }
   log_msg(LOG_LEVEL_TRACE, log_channel_, func,
           "pCopy=%p src: type=%d x=%zu y=%zu host=%p dev=%#llx array=%p pitch=%zu; dst: type=%d x=%zu y=%zu host=%p "
           "dev=%#llx array=%p pitch=%zu; width=%zu height=%zu hStream=%p",
           (const void *)p, (int)p->srcMemoryType, p->srcXInBytes, p->srcY, p->srcHost, (unsigned long long)p->srcDevice,
           (void *)p->srcArray, p->srcPitch, (int)p->dstMemoryType, p->dstXInBytes, p->dstY, p->dstHost,
           (unsigned long long)p->dstDevice, (void *)p->dstArray, p->dstPitch, p->WidthInBytes, p->Height,
           (void *)h);
}

static void trace_3d(const char *func, const CUDA_MEMCPY3D *p, CUstream h)
{
   if (log_level() < LOG_LEVEL_TRACE)
      return;
   if (!p) {
      log_msg(LOG_LEVEL_TRACE, log_channel_, func, "pCopy=NULL hStream=%p", (void *)h);
      return;
   }
   log_msg(LOG_LEVEL_TRACE, log_channel_, func,
           "pCopy=%p src: type=%d x=%zu y=%zu z=%zu lod=%zu host=%p dev=%#llx array=%p pitch=%zu height=%zu; dst: type=%d "
           "x=%zu y=%zu z=%zu lod=%zu host=%p dev=%#llx array=%p pitch=%zu height=%zu; width=%zu height=%zu "
           "depth=%zu hStream=%p",
           (const void *)p, (int)p->srcMemoryType, p->srcXInBytes, p->srcY, p->srcZ, p->srcLOD, p->srcHost,
           (unsigned long long)p->srcDevice, (void *)p->srcArray, p->srcPitch, p->srcHeight, (int)p->dstMemoryType,
           p->dstXInBytes, p->dstY, p->dstZ, p->dstLOD, p->dstHost, (unsigned long long)p->dstDevice,
           (void *)p->dstArray, p->dstPitch, p->dstHeight, p->WidthInBytes, p->Height, p->Depth, (void *)h);
}

/* Every cuMemcpy2D/3D form: the trace line, the copy. */
static CUresult copy_2d_entry(const char *func, const CUDA_MEMCPY2D *p, CUstream h, bool async)
{
   trace_2d(func, p, h);
   return copy_2d_params(p, h, async);
}

static CUresult copy_3d_entry(const char *func, const CUDA_MEMCPY3D *p, CUstream h, bool async)
{
   trace_3d(func, p, h);
   return copy_3d_params(p, h, async);
}

/* ==== cuMemcpy2D_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
   return API_RETURN(copy_2d_entry(__func__, pCopy, NULL, false));
}

/* ==== cuMemcpy2D_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
   return drv_ptds_sync(cuMemcpy2DAsync_v2(pCopy, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpy2DUnaligned_v2 (libcuda.@) ==== no alignment constraint applies to a host copy */
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
   return API_RETURN(copy_2d_entry(__func__, pCopy, NULL, false));
}

/* ==== cuMemcpy2DUnaligned_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
   return drv_ptds_sync(API_RETURN(copy_2d_entry(__func__, pCopy, CU_STREAM_PER_THREAD, false)));
}

/* ==== cuMemcpy2DAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
   return API_RETURN(copy_2d_entry(__func__, pCopy, hStream, true));
}

/* ==== cuMemcpy2DAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
   return cuMemcpy2DAsync_v2(pCopy, drv_ptsz(hStream));
}

/* ==== cuMemcpy3D_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
   return API_RETURN(copy_3d_entry(__func__, pCopy, NULL, false));
}

/* ==== cuMemcpy3D_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
   return drv_ptds_sync(cuMemcpy3DAsync_v2(pCopy, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpy3DAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
   return API_RETURN(copy_3d_entry(__func__, pCopy, hStream, true));
}

/* ==== cuMemcpy3DAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
   return cuMemcpy3DAsync_v2(pCopy, drv_ptsz(hStream));
}

/* The checked copy a CUDA_MEMCPY3D describes, in context c (the checks of
 * cuMemcpy3D); arrays: whether a side may be a CUDA array (resolved to
 * the memory that holds it), else CUDA_ERROR_NOT_SUPPORTED. */
static CUresult copy3d_desc(core_ctx *c, const CUDA_MEMCPY3D *p, core_copy3d_desc *d, bool arrays)
{
   if (!p)
      return CUDA_ERROR_INVALID_VALUE;
   side src = { p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                p->srcPitch, p->Depth <= 1 ? p->Height : p->srcHeight };
   side dst = { p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                p->dstPitch, p->Depth <= 1 ? p->Height : p->dstHeight };
   if (!arrays && (src.type == CU_MEMORYTYPE_ARRAY || dst.type == CU_MEMORYTYPE_ARRAY))
      return CUDA_ERROR_NOT_SUPPORTED;
   if (!p->WidthInBytes || !p->Height || !p->Depth)
      return CUDA_ERROR_INVALID_VALUE;
   CUresult ra = resolve_array(&src, p->WidthInBytes, p->Height, p->Depth);
   if (ra == CUDA_SUCCESS)
      ra = resolve_array(&dst, p->WidthInBytes, p->Height, p->Depth);
   if (ra != CUDA_SUCCESS)
      return ra;
   /* One row: the pitches are never used.  NVIDIA's runtime 13 describes
    * cudaGraphAddMemcpyNode1D so, pitches and heights 0 (tests/cuda/graphs
    * built with the static runtime). */
   if (p->Height == 1 && p->Depth == 1) {
      if (!src.pitch && !src.y && !src.z)
         src.pitch = p->WidthInBytes;
      if (!dst.pitch && !dst.y && !dst.z)
         dst.pitch = p->WidthInBytes;
   }
   *d = (core_copy3d_desc){ .width = p->WidthInBytes, .height = p->Height, .depth = p->Depth,
                            .dst_pitch = dst.pitch, .src_pitch = src.pitch, .dst_height = dst.height,
                            .src_height = src.height };
   CUresult r = side_check(c, &src, p->WidthInBytes, p->Height, p->Depth, &d->src);
   if (r == CUDA_SUCCESS)
      r = side_check(c, &dst, p->WidthInBytes, p->Height, p->Depth, &d->dst);
   return r;
}

/* For graph memcpy nodes (graph.c): no arrays. */
CUresult drv_copy3d_desc(core_ctx *c, const CUDA_MEMCPY3D *p, core_copy3d_desc *d)
{
   return copy3d_desc(c, p, d, false);
}

/* For cuMemcpy3DBatchAsync (batch.c): arrays too. */
CUresult drv_copy3d_desc_arrays(core_ctx *c, const CUDA_MEMCPY3D *p, core_copy3d_desc *d)
{
   return copy3d_desc(c, p, d, true);
}

/* ---- 1-D array copies ---- */

/* A side that is bytes [off, off + count) of array a's first row: what
 * CUDA documents for these calls (a 1-D array; of a 2-D one, row 0). */
static CUresult array_run(CUarray a, size_t off, size_t count, CUmemorytype *type, CUarray *arr, size_t *x)
{
   const core_array *ca = (const core_array *)(const void *)a;
   if (!core_check_array(ca))
      return CUDA_ERROR_INVALID_VALUE;
   uint64_t row = (uint64_t)ca->width * ca->nchan * ca->chan_bytes;
   if (off > row || count > row - off)
      return CUDA_ERROR_INVALID_VALUE;
   *type = CU_MEMORYTYPE_ARRAY;
   *arr = a;
   *x = off;
   return CUDA_SUCCESS;
}

/* The one-row copy between an array run and host or device memory (or a
 * second array run when both arrays are given). */
static CUresult copy_run(const char *func, CUarray dst, size_t doff, CUarray src, size_t soff, const void *host_src,
                         void *host_dst, CUdeviceptr dev_src, CUdeviceptr dev_dst, size_t count, CUstream h,
                         bool async)
{
   CUDA_MEMCPY2D c = { 0 };
   CUresult r;
   if (count == 0)   /* nothing to copy: success, whatever the offsets (an H200's answer) */
      return CUDA_SUCCESS;
   if (dst && (r = array_run(dst, doff, count, &c.dstMemoryType, &c.dstArray, &c.dstXInBytes)) != CUDA_SUCCESS)
      return r;
   if (src && (r = array_run(src, soff, count, &c.srcMemoryType, &c.srcArray, &c.srcXInBytes)) != CUDA_SUCCESS)
      return r;
   if (!src) {
      c.srcMemoryType = host_src ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
      c.srcHost = host_src;
      c.srcDevice = dev_src;
      c.srcPitch = count;
   }
   if (!dst) {
      c.dstMemoryType = host_dst ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
      c.dstHost = host_dst;
      c.dstDevice = dev_dst;
      c.dstPitch = count;
   }
   if ((!src && !host_src && !dev_src) || (!dst && !host_dst && !dev_dst))
      return CUDA_ERROR_INVALID_VALUE;
   c.WidthInBytes = count;
   c.Height = 1;
   return copy_2d_entry(func, &c, h, async);
}

/* ==== cuMemcpyHtoA_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcHost=%p ByteCount=%zu", (void *)dstArray, dstOffset, srcHost, ByteCount);
   return API_RETURN(copy_run(__func__, dstArray, dstOffset, NULL, 0, srcHost, NULL, 0, 0, ByteCount, NULL, false));
}

/* ==== cuMemcpyHtoA_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyHtoAAsync_v2(dstArray, dstOffset, srcHost, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpyHtoAAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                      CUstream hStream)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcHost=%p ByteCount=%zu hStream=%p", (void *)dstArray, dstOffset, srcHost,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_run(__func__, dstArray, dstOffset, NULL, 0, srcHost, NULL, 0, 0, ByteCount, hStream, true));
}

/* ==== cuMemcpyHtoAAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                           CUstream hStream)
{
   return cuMemcpyHtoAAsync_v2(dstArray, dstOffset, srcHost, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyAtoH_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
   API_ENTER("dstHost=%p srcArray=%p srcOffset=%zu ByteCount=%zu", dstHost, (void *)srcArray, srcOffset, ByteCount);
   return API_RETURN(copy_run(__func__, NULL, 0, srcArray, srcOffset, NULL, dstHost, 0, 0, ByteCount, NULL, false));
}

/* ==== cuMemcpyAtoH_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
   return drv_ptds_sync(cuMemcpyAtoHAsync_v2(dstHost, srcArray, srcOffset, ByteCount, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpyAtoHAsync_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                      CUstream hStream)
{
   API_ENTER("dstHost=%p srcArray=%p srcOffset=%zu ByteCount=%zu hStream=%p", dstHost, (void *)srcArray, srcOffset,
             ByteCount, (void *)hStream);
   return API_RETURN(copy_run(__func__, NULL, 0, srcArray, srcOffset, NULL, dstHost, 0, 0, ByteCount, hStream, true));
}

/* ==== cuMemcpyAtoHAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream)
{
   return cuMemcpyAtoHAsync_v2(dstHost, srcArray, srcOffset, ByteCount, drv_ptsz(hStream));
}

/* ==== cuMemcpyDtoA_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcDevice=%#llx ByteCount=%zu", (void *)dstArray, dstOffset,
             (unsigned long long)srcDevice, ByteCount);
   return API_RETURN(
      copy_run(__func__, dstArray, dstOffset, NULL, 0, NULL, NULL, srcDevice, 0, ByteCount, NULL, false));
}

/* ==== cuMemcpyDtoA_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcDevice=%#llx ByteCount=%zu", (void *)dstArray, dstOffset,
             (unsigned long long)srcDevice, ByteCount);
   return drv_ptds_sync(API_RETURN(copy_run(__func__, dstArray, dstOffset, NULL, 0, NULL, NULL, srcDevice, 0,
                                            ByteCount, CU_STREAM_PER_THREAD, false)));
}

/* ==== cuMemcpyAtoD_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx srcArray=%p srcOffset=%zu ByteCount=%zu", (unsigned long long)dstDevice,
             (void *)srcArray, srcOffset, ByteCount);
   return API_RETURN(
      copy_run(__func__, NULL, 0, srcArray, srcOffset, NULL, NULL, 0, dstDevice, ByteCount, NULL, false));
}

/* ==== cuMemcpyAtoD_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
   API_ENTER("dstDevice=%#llx srcArray=%p srcOffset=%zu ByteCount=%zu", (unsigned long long)dstDevice,
             (void *)srcArray, srcOffset, ByteCount);
   return drv_ptds_sync(API_RETURN(copy_run(__func__, NULL, 0, srcArray, srcOffset, NULL, NULL, 0, dstDevice,
                                            ByteCount, CU_STREAM_PER_THREAD, false)));
}

/* ==== cuMemcpyAtoA_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcArray=%p srcOffset=%zu ByteCount=%zu", (void *)dstArray, dstOffset,
             (void *)srcArray, srcOffset, ByteCount);
   if (!dstArray || !srcArray)
      return API_RETURN(CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(
      copy_run(__func__, dstArray, dstOffset, srcArray, srcOffset, NULL, NULL, 0, 0, ByteCount, NULL, false));
}

/* ==== cuMemcpyAtoA_v2_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount)
{
   API_ENTER("dstArray=%p dstOffset=%zu srcArray=%p srcOffset=%zu ByteCount=%zu", (void *)dstArray, dstOffset,
             (void *)srcArray, srcOffset, ByteCount);
   if (!dstArray || !srcArray)
      return API_RETURN(CUDA_ERROR_INVALID_VALUE);
   return drv_ptds_sync(API_RETURN(copy_run(__func__, dstArray, dstOffset, srcArray, srcOffset, NULL, NULL, 0, 0,
                                            ByteCount, CU_STREAM_PER_THREAD, false)));
}

/* ---- 3-D copies between contexts (one device: peers are itself) ---- */

/* A side's context must be a live one unless the side is an array. */
static bool peer_ctx_ok(CUmemorytype t, CUcontext c)
{
   return t == CU_MEMORYTYPE_ARRAY || core_check_ctx(ctx_of(c));
}

static CUresult copy_3d_peer(const char *func, const CUDA_MEMCPY3D_PEER *p, CUstream h, bool async)
{
   if (!p)
      return CUDA_ERROR_INVALID_VALUE;
   if (!peer_ctx_ok(p->srcMemoryType, p->srcContext) || !peer_ctx_ok(p->dstMemoryType, p->dstContext))
      return CUDA_ERROR_INVALID_CONTEXT;
   CUDA_MEMCPY3D c = {
      .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
      .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcDevice = p->srcDevice,
      .srcArray = p->srcArray, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
      .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
      .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
      .dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
      .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth,
   };
   return copy_3d_entry(func, &c, h, async);
}

/* ==== cuMemcpy3DPeer (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
   API_ENTER("pCopy=%p", (const void *)pCopy);
   return API_RETURN(copy_3d_peer(__func__, pCopy, NULL, false));
}

/* ==== cuMemcpy3DPeer_ptds (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
   return drv_ptds_sync(cuMemcpy3DPeerAsync(pCopy, CU_STREAM_PER_THREAD));
}

/* ==== cuMemcpy3DPeerAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
   API_ENTER("pCopy=%p hStream=%p", (const void *)pCopy, (void *)hStream);
   return API_RETURN(copy_3d_peer(__func__, pCopy, hStream, true));
}

/* ==== cuMemcpy3DPeerAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
   return cuMemcpy3DPeerAsync(pCopy, drv_ptsz(hStream));
}
