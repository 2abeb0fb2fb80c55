/*
 * memop.c — stream memory operations: cuStreamWaitValue32/64,
 * cuStreamWriteValue32/64 (the unversioned and _v2 names are one ABI
 * since CUDA 12), cuStreamBatchMemOp, and their _ptsz forms.  The
 * mechanism is src/core/memop.c's: a wait holds back only the stream's
 * later work, a write stores after the stream's earlier work.
 *
 * In a stream capture they become batch memory-operation nodes (the
 * graph calls are graph.c's, through drv_memop_decode).
 *
 * Not done: CU_STREAM_WAIT_VALUE_FLUSH and CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES
 * (CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0, as CUDA_ERROR_NOT_SUPPORTED
 * says).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(stream);

/* CUDA's limit on one batch (cuStreamBatchMemOp: "less than 256"). */
#define BATCH_MAX 256u

static CUresult check_value_op(CUdeviceptr addr, uint32_t bytes, unsigned flags, unsigned max_flags)
{
   if (!addr || addr % bytes)
      return CUDA_ERROR_INVALID_VALUE;
   if (max_flags == CU_STREAM_WAIT_VALUE_NOR && (flags & CU_STREAM_WAIT_VALUE_FLUSH))
      return CUDA_ERROR_NOT_SUPPORTED;   /* CAN_FLUSH_REMOTE_WRITES is 0 */
   /* a write's NO_MEMORY_BARRIER permits reordering; a store after the
    * stream's earlier work completed is one of the orders it permits */
   return flags <= max_flags ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult drv_memop_decode(const CUstreamBatchMemOpParams *p, core_memop *m)
{
   const struct CUstreamMemOpWaitValueParams_st *w = &p->waitValue;
   const struct CUstreamMemOpWriteValueParams_st *v = &p->writeValue;
   switch (p->operation) {
   case CU_STREAM_MEM_OP_WAIT_VALUE_32:
   case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
      uint32_t bytes = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_32 ? 4 : 8;
      *m = (core_memop){ CORE_MEMOP_WAIT, (int)w->flags, bytes, w->address, bytes == 4 ? w->value : w->value64 };
      return check_value_op(w->address, bytes, w->flags, CU_STREAM_WAIT_VALUE_NOR);
   }
   case CU_STREAM_MEM_OP_WRITE_VALUE_32:
   case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
      uint32_t bytes = p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32 ? 4 : 8;
      *m = (core_memop){ CORE_MEMOP_WRITE, 0, bytes, v->address, bytes == 4 ? v->value : v->value64 };
      return check_value_op(v->address, bytes, v->flags, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER);
   }
   case CU_STREAM_MEM_OP_BARRIER:
      *m = (core_memop){ .kind = CORE_MEMOP_BARRIER };
      return p->memoryBarrier.flags <= CU_STREAM_MEMORY_BARRIER_TYPE_GPU ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      return CUDA_ERROR_NOT_SUPPORTED;
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* Checks, then queues on the stream or, while it captures, adds a batch
 * memory-operation node to the capture. */
static CUresult run_batch(CUstream hStream, unsigned count, const CUstreamBatchMemOpParams *ops)
{
   core_memop m[BATCH_MAX];
   CUresult r = CUDA_SUCCESS;
   for (unsigned i = 0; i < count && r == CUDA_SUCCESS; i++)
      r = drv_memop_decode(&ops[i], &m[i]);
   core_stream *s;
   if (r == CUDA_SUCCESS)
      r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (s->cap) {
      core_node_params p = { .type = CORE_NODE_BATCH_MEM_OP };
      p.memop.ctx = s->ctx;
      p.memop.count = count;
      p.memop.ops = m;
      p.memop.api = ops;
      p.memop.api_size = sizeof(*ops);
      return (CUresult)core_capture_add(s, &p);
   }
   return (CUresult)core_stream_memops(s, m, count);
}

/* The result of entry point fn, saying once why a memory operation was
 * refused as not supported. */
static CUresult memop_result(CUresult r, const char *fn)
{
   static int once;
   if (r == CUDA_ERROR_NOT_SUPPORTED)
      api_unsupported_(log_channel_, fn,
                       "flushes of remote writes (CU_STREAM_WAIT_VALUE_FLUSH, CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES)",
                       &once);
   return api_return_cu_(log_channel_, fn, r);
}

/* One operation as a batch of one. */
static CUresult one_op(CUstream hStream, CUstreamBatchMemOpType op, CUdeviceptr addr, uint64_t value, unsigned flags)
{
   CUstreamBatchMemOpParams p;
   memset(&p, 0, sizeof(p));
   p.waitValue.operation = op;   /* the wait and write forms have the same layout */
   p.waitValue.address = addr;
   if (op == CU_STREAM_MEM_OP_WAIT_VALUE_32 || op == CU_STREAM_MEM_OP_WRITE_VALUE_32)
      p.waitValue.value = (cuuint32_t)value;
   else
      p.waitValue.value64 = value;
   p.waitValue.flags = flags;
   return run_batch(hStream, 1, &p);
}

/* ==== cuStreamWaitValue32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#x flags=%#x", (void *)stream, (unsigned long long)addr, value, flags);
   return memop_result(one_op(stream, CU_STREAM_MEM_OP_WAIT_VALUE_32, addr, value, flags), __func__);
}

/* ==== cuStreamWaitValue64_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#llx flags=%#x", (void *)stream, (unsigned long long)addr,
             (unsigned long long)value, flags);
   return memop_result(one_op(stream, CU_STREAM_MEM_OP_WAIT_VALUE_64, addr, value, flags), __func__);
}

/* ==== cuStreamWriteValue32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#x flags=%#x", (void *)stream, (unsigned long long)addr, value, flags);
   return memop_result(one_op(stream, CU_STREAM_MEM_OP_WRITE_VALUE_32, addr, value, flags), __func__);
}

/* ==== cuStreamWriteValue64_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#llx flags=%#x", (void *)stream, (unsigned long long)addr,
             (unsigned long long)value, flags);
   return memop_result(one_op(stream, CU_STREAM_MEM_OP_WRITE_VALUE_64, addr, value, flags), __func__);
}

/* ==== cuStreamBatchMemOp_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                       unsigned int flags)
{
   API_ENTER("stream=%p count=%u paramArray=%p flags=%#x", (void *)stream, count, (void *)paramArray, flags);
   API_CHECK(flags == 0 && count < BATCH_MAX && (paramArray || !count), CUDA_ERROR_INVALID_VALUE);
   return memop_result(run_batch(stream, count, paramArray), __func__);
}

/* ---- the other names of the same calls ---- */

/* ==== cuStreamWaitValue32 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWaitValue32_v2(stream, addr, value, flags);
}

/* ==== cuStreamWaitValue64 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWaitValue64_v2(stream, addr, value, flags);
}

/* ==== cuStreamWriteValue32 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWriteValue32_v2(stream, addr, value, flags);
}

/* ==== cuStreamWriteValue64 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWriteValue64_v2(stream, addr, value, flags);
}

/* ==== cuStreamBatchMemOp (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                    unsigned int flags)
{
   return cuStreamBatchMemOp_v2(stream, count, paramArray, flags);
}

/* ==== cuStreamWaitValue32_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWaitValue32_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWaitValue32_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWaitValue32_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWaitValue64_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWaitValue64_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWaitValue64_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWaitValue64_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWriteValue32_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWriteValue32_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWriteValue32_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   return cuStreamWriteValue32_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWriteValue64_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWriteValue64_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamWriteValue64_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   return cuStreamWriteValue64_v2(drv_ptsz(stream), addr, value, flags);
}

/* ==== cuStreamBatchMemOp_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBatchMemOp_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                         unsigned int flags)
{
   return cuStreamBatchMemOp_v2(drv_ptsz(stream), count, paramArray, flags);
}

/* ==== cuStreamBatchMemOp_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                            unsigned int flags)
{
   return cuStreamBatchMemOp_v2(drv_ptsz(stream), count, paramArray, flags);
}
