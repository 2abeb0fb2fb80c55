/*
 * batch.c — the runtime's batches (CUDA 12.8, 13.0): cudaMemcpyBatchAsync,
 * cudaMemcpy3DBatchAsync, cudaMemPrefetchBatchAsync,
 * cudaMemDiscardBatchAsync, cudaMemDiscardAndPrefetchBatchAsync and their
 * _ptsz forms (a NULL stream is then the thread's own).
 *
 * Each is its driver twin (src/api/driver/batch.c says what it does), the
 * runtime's structures passed as the driver's: NVIDIA's headers give them
 * one layout (cudaMemcpyAttributes and CUmemcpyAttributes,
 * cudaMemcpy3DBatchOp and CUDA_MEMCPY3D_BATCH_OP, cudaMemLocation and
 * CUmemLocation; a void * is a CUdeviceptr), which the asserts below and
 * tests/unit/test_cuabi.c hold us to.  CUDA 13's runtime has no failIdx;
 * libcudart.so.12's copies have it (CUDA 12.8's forms, in abi12.c).
 */
#include "internal.h"

#include <stddef.h>

LOG_CHANNEL(memory);

_Static_assert(sizeof(void *) == sizeof(CUdeviceptr), "a pointer is a CUdeviceptr");
_Static_assert(sizeof(struct cudaMemcpyAttributes) == sizeof(CUmemcpyAttributes) &&
                  offsetof(struct cudaMemcpyAttributes, flags) == offsetof(CUmemcpyAttributes, flags),
               "cudaMemcpyAttributes is CUmemcpyAttributes");
_Static_assert(sizeof(struct cudaMemcpy3DBatchOp) == sizeof(CUDA_MEMCPY3D_BATCH_OP) &&
                  offsetof(struct cudaMemcpy3DBatchOp, dst) == offsetof(CUDA_MEMCPY3D_BATCH_OP, dst) &&
                  offsetof(struct cudaMemcpy3DBatchOp, extent) == offsetof(CUDA_MEMCPY3D_BATCH_OP, extent) &&
                  offsetof(struct cudaMemcpy3DBatchOp, flags) == offsetof(CUDA_MEMCPY3D_BATCH_OP, flags) &&
                  offsetof(struct cudaMemcpy3DOperand, op.array.offset) ==
                     offsetof(CUmemcpy3DOperand, op.array.offset) &&
                  offsetof(struct cudaMemcpy3DOperand, op.ptr.locHint) == offsetof(CUmemcpy3DOperand, op.ptr.locHint),
               "cudaMemcpy3DBatchOp is CUDA_MEMCPY3D_BATCH_OP");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "cudaMemLocation is CUmemLocation");


/* ==== cudaMemcpyBatchAsync (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                           size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                           size_t numAttrs, cudaStream_t stream)
{
   RT_ENTER("dsts=%p srcs=%p sizes=%p count=%zu attrs=%p attrsIdxs=%p numAttrs=%zu stream=%p", (void *)dsts,
            (void *)srcs, (void *)sizes, count, (void *)attrs, (void *)attrsIdxs, numAttrs, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemcpyBatchAsync_v2((CUdeviceptr *)(uintptr_t)dsts, (CUdeviceptr *)(uintptr_t)srcs,
                                             (size_t *)(uintptr_t)sizes, count, (CUmemcpyAttributes *)(void *)attrs,
                                             attrsIdxs, numAttrs, stream));
}

/* ==== cudaMemcpyBatchAsync_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                                size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                size_t numAttrs, cudaStream_t stream)
{
   return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, rt_ptsz(stream));
}

/* ==== cudaMemcpy3DBatchAsync (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                             unsigned long long flags, cudaStream_t stream)
{
   RT_ENTER("numOps=%zu opList=%p flags=%#llx stream=%p", numOps, (void *)opList, flags, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemcpy3DBatchAsync_v2(numOps, (CUDA_MEMCPY3D_BATCH_OP *)(void *)opList, flags, stream));
}

/* ==== cudaMemcpy3DBatchAsync_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                  unsigned long long flags, cudaStream_t stream)
{
   return cudaMemcpy3DBatchAsync(numOps, opList, flags, rt_ptsz(stream));
}

#define TRACE_UM()                                                                                             \
   RT_ENTER("dptrs=%p sizes=%p count=%zu prefetchLocs=%p prefetchLocIdxs=%p numPrefetchLocs=%zu flags=%#llx " \
            "stream=%p",                                                                                      \
            (void *)dptrs, (void *)sizes, count, (void *)prefetchLocs, (void *)prefetchLocIdxs, numPrefetchLocs,  \
            flags, (void *)stream)

/* ==== cudaMemPrefetchBatchAsync (libcudart.@) ==== recorded, nothing moves (one memory) */
cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)
{
   TRACE_UM();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemPrefetchBatchAsync((CUdeviceptr *)(void *)dptrs, sizes, count,
                                               (CUmemLocation *)(void *)prefetchLocs, prefetchLocIdxs,
                                               numPrefetchLocs, flags, stream));
}

/* ==== cudaMemPrefetchBatchAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                     struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                     size_t numPrefetchLocs, unsigned long long flags,
                                                     cudaStream_t stream)
{
   return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                                    rt_ptsz(stream));
}

/* ==== cudaMemDiscardBatchAsync (libcudart.@) ==== checked; the contents stay (one indeterminate value) */
cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                               cudaStream_t stream)
{
   RT_ENTER("dptrs=%p sizes=%p count=%zu flags=%#llx stream=%p", (void *)dptrs, (void *)sizes, count, flags,
            (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemDiscardBatchAsync((CUdeviceptr *)(void *)dptrs, sizes, count, flags, stream));
}

/* ==== cudaMemDiscardBatchAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                    unsigned long long flags, cudaStream_t stream)
{
   return cudaMemDiscardBatchAsync(dptrs, sizes, count, flags, rt_ptsz(stream));
}

/* ==== cudaMemDiscardAndPrefetchBatchAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                          struct cudaMemLocation *prefetchLocs,
                                                          size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                          unsigned long long flags, cudaStream_t stream)
{
   TRACE_UM();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemDiscardAndPrefetchBatchAsync((CUdeviceptr *)(void *)dptrs, sizes, count,
                                                         (CUmemLocation *)(void *)prefetchLocs, prefetchLocIdxs,
                                                         numPrefetchLocs, flags, stream));
}

/* ==== cudaMemDiscardAndPrefetchBatchAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                               struct cudaMemLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               unsigned long long flags, cudaStream_t stream)
{
   return cudaMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                                              flags, rt_ptsz(stream));
}
