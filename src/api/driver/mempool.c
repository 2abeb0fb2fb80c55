/*
 * mempool.c — the stream-ordered allocator: cuMemAllocAsync, cuMemFreeAsync
 * and the device's default pool (core/mempool.c says what a pool is here).
 *
 * Stream order: an allocation needs no ordering (nothing earlier in the
 * stream can use memory that did not exist), and a free waits for its
 * stream (and the legacy null stream) to reach it before the memory returns
 * to the arena, so no later allocation can reuse memory that work still
 * queued may use.  Waiting blocks the host, which the stream-ordered
 * semantics allow; a free that completed on the device later would let the
 * host run ahead, and is not done yet.
 *
 * On a capturing stream both become graph nodes, as CUDA documents: an
 * allocation node with the default pool's properties (its address is
 * returned at once), a free node, which must name a graph allocation.
 * Memory a graph allocated may also be freed here after the graph ran
 * (core/graphmem.c keeps its address for the next launch).
 */
#include "internal.h"

LOG_CHANNEL(memory);

static core_mempool *pool_of(CUmemoryPool h)
{
   core_mempool *p = (core_mempool *)(void *)h;
   return core_check_mempool(p) ? p : NULL;
}

/* ==== cuDeviceGetDefaultMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
   API_ENTER("pool_out=%p dev=%d", (void *)pool_out, dev);
   API_CHECK(pool_out, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_mempool *p = core_mempool_default(d);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   *pool_out = (CUmemoryPool)(void *)p;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemAllocAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
   API_ENTER("dptr=%p bytesize=%zu hStream=%p", (void *)dptr, bytesize, (void *)hStream);
   API_CHECK(dptr, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   API_CHECK(r == CUDA_SUCCESS, r);
   if (bytesize == 0) {   /* NULL and success, as NVIDIA's driver answers (observed on an H200) */
      *dptr = 0;
      return API_RETURN(CUDA_SUCCESS);
   }
   if (s && s->cap) {   /* an allocation node of the capture, from the device's pool */
      CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
                               .location = { CU_MEM_LOCATION_TYPE_DEVICE, core_device_ordinal(s->ctx->dev) } };
      core_node_params np = { .type = CORE_NODE_MEM_ALLOC };
      np.alloc.dev = s->ctx->dev;
      np.alloc.size = bytesize;
      np.alloc.props = &props;
      np.alloc.props_size = sizeof(props);
      core_graph_node *n;
      int cr = core_capture_add_node(s, &np, &n);
      if (cr == CORE_SUCCESS)
         *dptr = n->p.alloc.dptr;
      return API_RETURN((CUresult)cr);
   }
   core_mempool *p = core_mempool_default(c->dev);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   uint64_t ptr;
   int cr = core_mempool_alloc(p, bytesize, &ptr);
   if (cr == CORE_SUCCESS)
      *dptr = ptr;
   return API_RETURN((CUresult)cr);
}

/* ==== cuMemAllocAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
   return cuMemAllocAsync(dptr, bytesize, drv_ptsz(hStream));
}

/* ==== cuMemFreeAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
   API_ENTER("dptr=%#llx hStream=%p", (unsigned long long)dptr, (void *)hStream);
   API_NEED_CTX(c);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   API_CHECK(r == CUDA_SUCCESS, r);
   if (!dptr)   /* nothing to free: success, as NVIDIA's driver answers (observed) */
      return API_RETURN(CUDA_SUCCESS);
   if (s && s->cap) {   /* a free node of the capture (of a graph allocation) */
      core_node_params np = { .type = CORE_NODE_MEM_FREE, .mfree.dptr = dptr };
      return API_RETURN((CUresult)core_capture_add(s, &np));
   }
   uint64_t base;
   uint32_t kind, flags;
   API_CHECK(core_mem_query(c->dev, dptr, 1, &base, NULL, &kind, &flags) && base == dptr &&
                kind == CORE_MEM_DEVICE, CUDA_ERROR_INVALID_VALUE);
   /* the stream reaches the free: its work, and the null stream's */
   int cr = s ? core_stream_synchronize(s) : CORE_SUCCESS;
   if (cr == CORE_SUCCESS)
      cr = core_ctx_synchronize(c);
   if (cr != CORE_SUCCESS)
      return API_RETURN((CUresult)cr);
   if (flags & CORE_MEM_FLAG_POOL)
      cr = core_mempool_free(core_mempool_default(c->dev), dptr);
   else if (flags & CORE_MEM_FLAG_GRAPH)   /* allocated by a graph's launch */
      cr = core_graph_mem_free(c->dev, dptr);
   else   /* cuMemAlloc memory may be freed in stream order too */
      cr = core_mem_free_kind(c->dev, dptr, CORE_MEM_KIND_BIT(CORE_MEM_DEVICE));
   return API_RETURN((CUresult)cr);
}

/* ==== cuMemFreeAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) { return cuMemFreeAsync(dptr, drv_ptsz(hStream)); }

/* Attributes 1-3 are ints, the others cuuint64_t. */
static bool pool_attr_is_int(CUmemPool_attribute a) { return a <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; }

/* ==== cuMemPoolGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
   API_ENTER("pool=%p attr=%d value=%p", (void *)pool, (int)attr, value);
   core_mempool *p = pool_of(pool);
   API_CHECK(p && value, CUDA_ERROR_INVALID_VALUE);
   uint64_t v;
   int r = core_mempool_get(p, (int)attr, &v);
   if (r == CORE_SUCCESS) {
      if (pool_attr_is_int(attr))
         *(int *)value = (int)v;
      else
         *(cuuint64_t *)value = v;
   }
   return API_RETURN((CUresult)r);
}

/* ==== cuMemPoolSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
   API_ENTER("pool=%p attr=%d value=%p", (void *)pool, (int)attr, value);
   core_mempool *p = pool_of(pool);
   API_CHECK(p && value, CUDA_ERROR_INVALID_VALUE);
   uint64_t v = pool_attr_is_int(attr) ? (uint64_t)(*(int *)value != 0) : *(cuuint64_t *)value;
   return API_RETURN((CUresult)core_mempool_set(p, (int)attr, v));
}

/* ==== cuMemPoolTrimTo (libcuda.@) ==== accepted: the pool keeps no memory beyond what is in use (core/mempool.c) */
CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
   API_ENTER("pool=%p minBytesToKeep=%zu", (void *)pool, minBytesToKeep);
   API_CHECK(pool_of(pool), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_SUCCESS);
}
