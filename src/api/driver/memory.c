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

/* ==== cuMemAlloc_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
   API_ENTER("dptr=%p bytesize=%zu", (void *)dptr, bytesize);
   API_CHECK(dptr, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(bytesize > 0, CUDA_ERROR_INVALID_VALUE);
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
   /* Kernels still running may use the memory. */
   int r = core_ctx_synchronize(c);
   if (r != CORE_SUCCESS)
      return API_RETURN((CUresult)r);
   return API_RETURN((CUresult)core_mem_free(c->dev, dptr));
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
