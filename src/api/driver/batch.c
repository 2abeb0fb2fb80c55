/*
 * batch.c — batches of stream work (CUDA 12.8 and 13.0): copies
 * (cuMemcpyBatchAsync, cuMemcpy3DBatchAsync: the 12.8 forms with failIdx
 * and the 13.0 _v2 forms without, and their _ptsz twins) and managed-memory
 * hints (cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync,
 * cuMemDiscardAndPrefetchBatchAsync).
 *
 * CUDA's rules (cuda.h's documentation of each call): the batch runs as a
 * whole in stream order, its operations in no order among themselves; the
 * stream must not be the legacy NULL stream (CUDA_ERROR_INVALID_VALUE, as
 * an H100 with driver 580 answers; the per-thread stream is fine); every
 * operation has exactly one attribute (or location) entry, given as
 * runs: attrsIdxs starts at 0, rises strictly, stays below count, and
 * numAttrs <= count; an attribute's srcAccessOrder is one of STREAM,
 * DURING_API_CALL, ANY, its flags only PREFER_OVERLAP_WITH_COMPUTE (a hint).
 * The whole batch is checked before any of it is queued, so a failing
 * batch does nothing; failIdx (12.8 forms) names the operation at fault,
 * or SIZE_MAX when the error is not one operation's.
 *
 * Copies become core_memcpy_batch's one piece of stream work
 * (src/core/memory.c).  A copy whose source order is DURING_API_CALL
 * (an ephemeral source, e.g. on the stack) is done before the call
 * returns, after the stream's earlier work (core_copy3d): the source is
 * read during the call, the destination written in stream order.  ANY is
 * served as STREAM, which it allows.  In a capturing stream the copies
 * become copy nodes; a DURING_API_CALL one is refused there
 * (CUDA_ERROR_NOT_SUPPORTED, said): the graph would read its source after
 * the call.  Location hints concern managed
 * memory, which metalcuda never moves: ignored, as CUDA ignores them
 * elsewhere.
 *
 * Prefetches record their location as cuMemPrefetchAsync does
 * (src/core/umhints.c; nothing moves: host and device share the arena).
 * A discard makes a range's contents indeterminate until the next write or
 * prefetch; leaving them as they are is one such content, so a discard is
 * checked and then does nothing.  CUDA requires concurrent managed access
 * on every device (else CUDA_ERROR_NOT_SUPPORTED here).
 */
#include "internal.h"

#include <stdlib.h>

LOG_CHANNEL(memory);

/* failIdx when the error is no one copy's (CUDA 12.8's documentation) */
#define NO_INDEX SIZE_MAX

/* The batch's stream: any but the legacy NULL stream. */
static CUresult batch_stream(CUstream h, core_ctx **c, core_stream **s)
{
   CUresult r = drv_ctx_stream(h, c, s);
   if (r != CUDA_SUCCESS)
      return r;
   return h == NULL || h == CU_STREAM_LEGACY ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* Runs of attribute entries over count operations (attrsIdxs' rules). */
static bool runs_ok(const size_t *idxs, size_t num, size_t count)
{
   if (!idxs || num == 0 || num > count || idxs[0] != 0)
      return false;
   for (size_t k = 1; k < num; k++)
      if (idxs[k] <= idxs[k - 1])
         return false;
   return idxs[num - 1] < count;
}

static bool order_ok(CUmemcpySrcAccessOrder o)
{
   return o == CU_MEMCPY_SRC_ACCESS_ORDER_STREAM || o == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL ||
          o == CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
}

static bool copy_flags_ok(unsigned flags) { return !(flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE); }

/* A unified-address range: host memory, or inside one device allocation
 * if it starts in one (memory.c's rule for cuMemcpyAsync). */
static bool unified_ok(core_ctx *c, CUdeviceptr p, size_t n)
{
   return n == 0 || !core_mem_lookup(c->dev, p, 1, NULL, NULL) || core_mem_lookup(c->dev, p, n, NULL, NULL);
}

/* Queues the checked copies: those whose source is read during the call
 * now (after the stream's earlier work), the others as one batch. */
static CUresult queue_copies(core_ctx *c, core_stream *s, core_copy3d_desc *d, const bool *now, size_t n)
{
   size_t k = 0;
   int r = CORE_SUCCESS;
   /* a captured copy runs at each launch of the graph, long after an
    * ephemeral source is gone: refused rather than read from a dead frame */
   for (size_t i = 0; s->cap && i < n; i++)
      if (now[i] && d[i].width) {
         static int once;
         api_unsupported_(log_channel_, "cuMemcpyBatchAsync",
                          "a DURING_API_CALL source order in a capturing stream (the graph would read the "
                          "source after the call)", &once);
         return CUDA_ERROR_NOT_SUPPORTED;
      }
   for (size_t i = 0; i < n && r == CORE_SUCCESS; i++) {
      if (!d[i].width)
         continue;
      if (now[i])
         r = core_copy3d(c, s, &d[i]);
      else
         d[k++] = d[i];
   }
   if (r == CORE_SUCCESS && k)
      r = core_memcpy_batch(c, s, k, d);
   return (CUresult)r;
}

static void set_fail(size_t *failIdx, size_t i)
{
   if (failIdx)
      *failIdx = i;
}

static CUresult memcpy_batch(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                             CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                             CUstream h)
{
   core_ctx *c;
   core_stream *s;
   set_fail(failIdx, NO_INDEX);
   CUresult r = batch_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (count == 0 || !dsts || !srcs || !sizes || !attrs || !runs_ok(attrsIdxs, numAttrs, count))
      return CUDA_ERROR_INVALID_VALUE;
   for (size_t k = 0; k < numAttrs; k++)
      if (!order_ok(attrs[k].srcAccessOrder) || !copy_flags_ok(attrs[k].flags)) {
         set_fail(failIdx, attrsIdxs[k]);
         return CUDA_ERROR_INVALID_VALUE;
      }
   if (count > SIZE_MAX / sizeof(core_copy3d_desc))
      return CUDA_ERROR_INVALID_VALUE;   /* more copies than memory can list */
   core_copy3d_desc *d = mc_malloc(count * sizeof(*d));
   bool *now = mc_malloc(count * sizeof(*now));
   if (!d || !now) {
      free(d);
      free(now);
      return CUDA_ERROR_OUT_OF_MEMORY;
   }
   size_t k = 0;
   for (size_t i = 0; i < count; i++) {
      while (k + 1 < numAttrs && attrsIdxs[k + 1] <= i)
         k++;
      size_t n = sizes[i];
      if (n && (!dsts[i] || !srcs[i] || !unified_ok(c, dsts[i], n) || !unified_ok(c, srcs[i], n))) {
         set_fail(failIdx, i);
         free(d);
         free(now);
         return CUDA_ERROR_INVALID_VALUE;
      }
      d[i] = (core_copy3d_desc){ .dst = dsts[i], .src = srcs[i], .dst_pitch = n, .src_pitch = n,
                                 .dst_height = 1, .src_height = 1, .width = n, .height = 1, .depth = 1 };
      now[i] = attrs[k].srcAccessOrder == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
   }
   r = queue_copies(c, s, d, now, count);
   free(d);
   free(now);
   return r;
}

/* One operand of a 3-D batch copy as a side of a CUDA_MEMCPY3D: a pointer
 * (rows of rowLength elements, layers of layerHeight rows; 0: packed) or an
 * array at an offset in elements.  elem: bytes per element. */
static CUresult operand_side(const CUmemcpy3DOperand *o, const CUextent3D *e, size_t elem, CUmemorytype *type,
                             CUdeviceptr *dev, CUarray *array, size_t *x, size_t *y, size_t *z, size_t *pitch,
                             size_t *height)
{
   if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER) {
      size_t row = o->op.ptr.rowLength ? o->op.ptr.rowLength : e->width;
      size_t layer = o->op.ptr.layerHeight ? o->op.ptr.layerHeight : e->height;
      if (!o->op.ptr.ptr || row < e->width || layer < e->height || row > SIZE_MAX / elem)
         return CUDA_ERROR_INVALID_VALUE;
      *type = CU_MEMORYTYPE_UNIFIED;
      *dev = o->op.ptr.ptr;
      *pitch = row * elem;
      *height = layer;
      return CUDA_SUCCESS;
   }
   core_array *a = (core_array *)(void *)o->op.array.array;
   const CUoffset3D *off = &o->op.array.offset;
   uint64_t rows = a->height ? a->height : 1, slices = a->depth ? a->depth : 1;
   if (off->x > a->width || e->width > a->width - off->x || off->y > rows || e->height > rows - off->y ||
       off->z > slices || e->depth > slices - off->z)
      return CUDA_ERROR_INVALID_VALUE;
   *type = CU_MEMORYTYPE_ARRAY;
   *array = o->op.array.array;
   *x = off->x * elem;
   *y = off->y;
   *z = off->z;
   return CUDA_SUCCESS;
}

/* Bytes per element of an operand (0: none, a pointer), or SIZE_MAX for
 * an operand that is neither a pointer nor a live array. */
static size_t operand_elem(const CUmemcpy3DOperand *o)
{
   if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER)
      return 0;
   core_array *a = (core_array *)(void *)o->op.array.array;
   if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY || !core_check_array(a))
      return SIZE_MAX;
   return (size_t)a->chan_bytes * a->nchan;
}

static CUresult op_desc(core_ctx *c, const CUDA_MEMCPY3D_BATCH_OP *op, core_copy3d_desc *d)
{
   const CUextent3D *e = &op->extent;
   if (!order_ok(op->srcAccessOrder) || !copy_flags_ok(op->flags) || !e->width || !e->height || !e->depth)
      return CUDA_ERROR_INVALID_VALUE;
   size_t se = operand_elem(&op->src), de = operand_elem(&op->dst);
   if (se == SIZE_MAX || de == SIZE_MAX || (se && de && se != de))
      return CUDA_ERROR_INVALID_VALUE;
   size_t elem = se ? se : de ? de : 1;
   if (e->width > SIZE_MAX / elem)
      return CUDA_ERROR_INVALID_VALUE;
   CUDA_MEMCPY3D p = { .WidthInBytes = e->width * elem, .Height = e->height, .Depth = e->depth };
   CUresult r = operand_side(&op->src, e, elem, &p.srcMemoryType, &p.srcDevice, &p.srcArray, &p.srcXInBytes,
                             &p.srcY, &p.srcZ, &p.srcPitch, &p.srcHeight);
   if (r == CUDA_SUCCESS)
      r = operand_side(&op->dst, e, elem, &p.dstMemoryType, &p.dstDevice, &p.dstArray, &p.dstXInBytes, &p.dstY,
                       &p.dstZ, &p.dstPitch, &p.dstHeight);
   if (r != CUDA_SUCCESS)
      return r;
   return drv_copy3d_desc_arrays(c, &p, d);
}

static CUresult memcpy3d_batch(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                               unsigned long long flags, CUstream h)
{
   core_ctx *c;
   core_stream *s;
   set_fail(failIdx, NO_INDEX);
   CUresult r = batch_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (numOps == 0 || !opList || flags != 0)
      return CUDA_ERROR_INVALID_VALUE;
   if (numOps > SIZE_MAX / sizeof(core_copy3d_desc))
      return CUDA_ERROR_INVALID_VALUE;
   core_copy3d_desc *d = mc_malloc(numOps * sizeof(*d));
   bool *now = mc_malloc(numOps * sizeof(*now));
   if (!d || !now) {
      free(d);
      free(now);
      return CUDA_ERROR_OUT_OF_MEMORY;
   }
   for (size_t i = 0; i < numOps && r == CUDA_SUCCESS; i++) {
      if ((r = op_desc(c, &opList[i], &d[i])) != CUDA_SUCCESS)
         set_fail(failIdx, i);
      now[i] = opList[i].srcAccessOrder == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
   }
   if (r == CUDA_SUCCESS)
      r = queue_copies(c, s, d, now, numOps);
   free(d);
   free(now);
   return r;
}

#define TRACE_1D()                                                                                           \
   API_ENTER("dsts=%p srcs=%p sizes=%p count=%zu attrs=%p attrsIdxs=%p numAttrs=%zu hStream=%p", (void *)dsts, \
             (void *)srcs, (void *)sizes, count, (void *)attrs, (void *)attrsIdxs, numAttrs, (void *)hStream)

/* ==== cuMemcpyBatchAsync (libcuda.@) ==== CUDA 12.8's form, with failIdx */
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                                    CUstream hStream)
{
   TRACE_1D();
   return API_RETURN(memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream));
}

/* ==== cuMemcpyBatchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                         CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                         size_t *failIdx, CUstream hStream)
{
   return cuMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, drv_ptsz(hStream));
}

/* ==== cuMemcpyBatchAsync_v2 (libcuda.@) ==== CUDA 13.0's form */
CUresult CUDAAPI cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                       CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                       CUstream hStream)
{
   TRACE_1D();
   return API_RETURN(memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL, hStream));
}

/* ==== cuMemcpyBatchAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                            CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                            CUstream hStream)
{
   return cuMemcpyBatchAsync_v2(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, drv_ptsz(hStream));
}

/* ==== cuMemcpy3DBatchAsync (libcuda.@) ==== CUDA 12.8's form, with failIdx */
CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                      unsigned long long flags, CUstream hStream)
{
   API_ENTER("numOps=%zu opList=%p failIdx=%p flags=%#llx hStream=%p", numOps, (void *)opList, (void *)failIdx,
             flags, (void *)hStream);
   return API_RETURN(memcpy3d_batch(numOps, opList, failIdx, flags, hStream));
}

/* ==== cuMemcpy3DBatchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                           unsigned long long flags, CUstream hStream)
{
   return cuMemcpy3DBatchAsync(numOps, opList, failIdx, flags, drv_ptsz(hStream));
}

/* ==== cuMemcpy3DBatchAsync_v2 (libcuda.@) ==== CUDA 13.0's form */
CUresult CUDAAPI cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags,
                                         CUstream hStream)
{
   API_ENTER("numOps=%zu opList=%p flags=%#llx hStream=%p", numOps, (void *)opList, flags, (void *)hStream);
   return API_RETURN(memcpy3d_batch(numOps, opList, NULL, flags, hStream));
}

/* ==== cuMemcpy3DBatchAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                              unsigned long long flags, CUstream hStream)
{
   return cuMemcpy3DBatchAsync_v2(numOps, opList, flags, drv_ptsz(hStream));
}

/* ---- managed-memory batches ---- */

/* The checks of every managed-memory batch; locs NULL: a discard (no
 * locations).  Then, if prefetch, each range's location recorded. */
static CUresult um_batch(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *locs, size_t *locIdxs,
                         size_t numLocs, unsigned long long flags, CUstream h, bool prefetch)
{
   core_ctx *c;
   core_stream *s;
   CUresult r = batch_stream(h, &c, &s);
   if (r != CUDA_SUCCESS)
      return r;
   for (int i = 0; i < core_device_count(); i++)
      if (!core_device_info(core_device_get(i))->has_unified_memory)
         return CUDA_ERROR_NOT_SUPPORTED;   /* no concurrent managed access */
   if (flags != 0 || count == 0 || !dptrs || !sizes)
      return CUDA_ERROR_INVALID_VALUE;
   if (prefetch && (!locs || !runs_ok(locIdxs, numLocs, count)))
      return CUDA_ERROR_INVALID_VALUE;
   for (size_t k = 0; prefetch && k < numLocs; k++)
      if ((r = drv_um_location(locs[k], false)) != CUDA_SUCCESS)
         return r;
   for (size_t i = 0; i < count; i++)
      if ((r = drv_um_range(c, dptrs[i], sizes[i])) != CUDA_SUCCESS)
         return r;
   /* kept for CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, as cuMemPrefetchAsync keeps it */
   size_t k = 0;
   for (size_t i = 0; prefetch && i < count && r == CUDA_SUCCESS; i++) {
      while (k + 1 < numLocs && locIdxs[k + 1] <= i)
         k++;
      core_um_loc l = { (int)locs[k].type, locs[k].id };
      r = (CUresult)core_um_record(c->dev, dptrs[i], sizes[i], CORE_UM_PREFETCH, l);
   }
   return r;
}

/* ==== cuMemPrefetchBatchAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                         CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                         size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
   API_ENTER("dptrs=%p sizes=%p count=%zu prefetchLocs=%p prefetchLocIdxs=%p numPrefetchLocs=%zu flags=%#llx "
             "hStream=%p",
             (void *)dptrs, (void *)sizes, count, (void *)prefetchLocs, (void *)prefetchLocIdxs, numPrefetchLocs,
             flags, (void *)hStream);
   return API_RETURN(
      um_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream, true));
}

/* ==== cuMemPrefetchBatchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                              CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                              size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
   return cuMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                                  drv_ptsz(hStream));
}

/* ==== cuMemDiscardBatchAsync (libcuda.@) ==== checked; the contents stay (one indeterminate value) */
CUresult CUDAAPI cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                        CUstream hStream)
{
   API_ENTER("dptrs=%p sizes=%p count=%zu flags=%#llx hStream=%p", (void *)dptrs, (void *)sizes, count, flags,
             (void *)hStream);
   return API_RETURN(um_batch(dptrs, sizes, count, NULL, NULL, 0, flags, hStream, false));
}

/* ==== cuMemDiscardBatchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                             unsigned long long flags, CUstream hStream)
{
   return cuMemDiscardBatchAsync(dptrs, sizes, count, flags, drv_ptsz(hStream));
}

/* ==== cuMemDiscardAndPrefetchBatchAsync (libcuda.@) ==== a discard (nothing) and a prefetch (recorded) */
CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                   CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                   size_t numPrefetchLocs, unsigned long long flags,
                                                   CUstream hStream)
{
   API_ENTER("dptrs=%p sizes=%p count=%zu prefetchLocs=%p prefetchLocIdxs=%p numPrefetchLocs=%zu flags=%#llx "
             "hStream=%p",
             (void *)dptrs, (void *)sizes, count, (void *)prefetchLocs, (void *)prefetchLocIdxs, numPrefetchLocs,
             flags, (void *)hStream);
   return API_RETURN(
      um_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream, true));
}

/* ==== cuMemDiscardAndPrefetchBatchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                        CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                        size_t numPrefetchLocs, unsigned long long flags,
                                                        CUstream hStream)
{
   return cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                                            flags, drv_ptsz(hStream));
}
