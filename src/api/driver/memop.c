/*
 * memop.c — stream memory operations: cuStreamWaitValue32/64,
 * cuStreamWriteValue32/64 (the unversioned and _v2 names are one ABI
 * since CUDA 12), cuStreamBatchMemOp, and their _ptsz forms.  The
 * mechanism is src/core/memop.c's: a wait holds back only the stream's
 * later work, a write stores after the stream's earlier work.
 *
 * Not done: CU_STREAM_WAIT_VALUE_FLUSH and CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES
 * (CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0, as CUDA_ERROR_NOT_SUPPORTED
 * says), and memory operations in a stream capture (batch memory-operation
 * nodes).
 */
#include "internal.h"

LOG_CHANNEL(stream);

/* CUDA's limit on one batch (cuStreamBatchMemOp: "less than 256"). */
#define BATCH_MAX 256u

/* The stream, refused while it captures (that would be a batch
 * memory-operation node, which metalcuda does not make). */
static CUresult memop_stream(CUstream h, core_stream **s)
{
   CUresult r = drv_stream(h, s);
   if (r == CUDA_SUCCESS && (*s)->cap)
      r = CUDA_ERROR_NOT_SUPPORTED;
   return r;
}

static CUresult check_wait(CUdeviceptr addr, uint32_t bytes, unsigned flags)
{
   if (!addr || addr % bytes)
      return CUDA_ERROR_INVALID_VALUE;
   if (flags & CU_STREAM_WAIT_VALUE_FLUSH)
      return CUDA_ERROR_NOT_SUPPORTED;   /* CAN_FLUSH_REMOTE_WRITES is 0 */
   return flags <= CU_STREAM_WAIT_VALUE_NOR ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult check_write(CUdeviceptr addr, uint32_t bytes, unsigned flags)
{
   if (!addr || addr % bytes)
      return CUDA_ERROR_INVALID_VALUE;
   /* NO_MEMORY_BARRIER permits reordering; a store after the stream's
    * earlier work completed is one of the orders it permits */
   return flags <= CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult wait_value(CUstream hStream, CUdeviceptr addr, uint64_t value, uint32_t bytes, unsigned flags)
{
   CUresult r = check_wait(addr, bytes, flags);
   core_stream *s;
   if (r == CUDA_SUCCESS)
      r = memop_stream(hStream, &s);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_stream_wait_value(s, addr, value, bytes, (int)flags);
   return r;
}

static CUresult write_value(CUstream hStream, CUdeviceptr addr, uint64_t value, uint32_t bytes, unsigned flags)
{
   CUresult r = check_write(addr, bytes, flags);
   core_stream *s;
   if (r == CUDA_SUCCESS)
      r = memop_stream(hStream, &s);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_stream_write_value(s, addr, value, bytes);
   return r;
}

/* The result of entry point fn, saying once (per reason) why a memory
 * operation was refused as not supported. */
static CUresult memop_result(CUresult r, unsigned flags, const char *fn)
{
   static int once_flush, once_capture;
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      if (flags & CU_STREAM_WAIT_VALUE_FLUSH)
         api_unsupported_(log_channel_, fn,
                          "flushes of remote writes (CU_STREAM_WAIT_VALUE_FLUSH, CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES)",
                          &once_flush);
      else
         api_unsupported_(log_channel_, fn, "stream memory operations in a stream capture (batch memory-operation nodes)",
                          &once_capture);
   }
   return api_return_cu_(log_channel_, fn, r);
}

/* ==== cuStreamWaitValue32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#x flags=%#x", (void *)stream, (unsigned long long)addr, value, flags);
   return memop_result(wait_value(stream, addr, value, 4, flags), flags, __func__);
}

/* ==== cuStreamWaitValue64_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#llx flags=%#x", (void *)stream, (unsigned long long)addr,
             (unsigned long long)value, flags);
   return memop_result(wait_value(stream, addr, value, 8, flags), flags, __func__);
}

/* ==== cuStreamWriteValue32_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#x flags=%#x", (void *)stream, (unsigned long long)addr, value, flags);
   return memop_result(write_value(stream, addr, value, 4, flags), 0, __func__);
}

/* ==== cuStreamWriteValue64_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
   API_ENTER("stream=%p addr=%#llx value=%#llx flags=%#x", (void *)stream, (unsigned long long)addr,
             (unsigned long long)value, flags);
   return memop_result(write_value(stream, addr, value, 8, flags), 0, __func__);
}

/* One operation's checks; *flags: what memop_result() needs to explain a refusal. */
static CUresult check_op(const CUstreamBatchMemOpParams *p, unsigned *flags)
{
   switch (p->operation) {
   case CU_STREAM_MEM_OP_WAIT_VALUE_32:
   case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      *flags = p->waitValue.flags;
      return check_wait(p->waitValue.address, p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_32 ? 4 : 8,
                        p->waitValue.flags);
   case CU_STREAM_MEM_OP_WRITE_VALUE_32:
   case CU_STREAM_MEM_OP_WRITE_VALUE_64:
      return check_write(p->writeValue.address, p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32 ? 4 : 8,
                         p->writeValue.flags);
   case CU_STREAM_MEM_OP_BARRIER:
      return p->memoryBarrier.flags <= CU_STREAM_MEMORY_BARRIER_TYPE_GPU ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      *flags = CU_STREAM_WAIT_VALUE_FLUSH;
      return CUDA_ERROR_NOT_SUPPORTED;
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* Queues one checked operation.  A barrier orders nothing more: each
 * operation runs after the stream's earlier work has completed. */
static CUresult queue_op(core_stream *s, const CUstreamBatchMemOpParams *p)
{
   switch (p->operation) {
   case CU_STREAM_MEM_OP_WAIT_VALUE_32:
      return (CUresult)core_stream_wait_value(s, p->waitValue.address, p->waitValue.value, 4, (int)p->waitValue.flags);
   case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      return (CUresult)core_stream_wait_value(s, p->waitValue.address, p->waitValue.value64, 8,
                                              (int)p->waitValue.flags);
   case CU_STREAM_MEM_OP_WRITE_VALUE_32:
      return (CUresult)core_stream_write_value(s, p->writeValue.address, p->writeValue.value, 4);
   case CU_STREAM_MEM_OP_WRITE_VALUE_64:
      return (CUresult)core_stream_write_value(s, p->writeValue.address, p->writeValue.value64, 8);
   default:
      return CUDA_SUCCESS;
   }
}

/* ==== cuStreamBatchMemOp_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                       unsigned int flags)
{
   API_ENTER("stream=%p count=%u paramArray=%p flags=%#x", (void *)stream, count, (void *)paramArray, flags);
   API_CHECK(flags == 0 && count < BATCH_MAX && (paramArray || !count), CUDA_ERROR_INVALID_VALUE);
   unsigned why = 0;
   CUresult r = CUDA_SUCCESS;
   for (unsigned i = 0; i < count && r == CUDA_SUCCESS; i++)
      r = check_op(&paramArray[i], &why);
   core_stream *s;
   if (r == CUDA_SUCCESS)
      r = memop_stream(stream, &s);
   for (unsigned i = 0; i < count && r == CUDA_SUCCESS; i++)
      r = queue_op(s, &paramArray[i]);
   return memop_result(r, why, __func__);
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
