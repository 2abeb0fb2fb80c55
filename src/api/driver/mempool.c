/*
 * mempool.c — the stream-ordered allocator: cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, the device's default and current
 * pools (cuDeviceGet/SetMemPool, CUDA 13's cuMemGet/SetMemPool and
 * cuMemGetDefaultMemPool by location), pools the program makes
 * (cuMemPoolCreate, Destroy, Set/GetAccess) and their attributes
 * (core/mempool.c says what a pool is here).
 *
 * Pools live in device memory of one device: a pool of host memory (a HOST
 * location), of managed memory, or one whose memory can be exported (any
 * handle type) is refused by name; access from the one device is always
 * read-write.
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

/* An allocation of bytesize (> 0) bytes from pool p in stream s: on a
 * capturing stream an allocation node with the pool's properties (its
 * address is returned at once). */
static CUresult alloc_from(core_mempool *p, CUdeviceptr *dptr, size_t bytesize, core_stream *s)
{
   if (s && s->cap) {
      size_t psize;
      const void *pprops = core_mempool_props(p, &psize);
      CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
                               .location = { CU_MEM_LOCATION_TYPE_DEVICE,
                                             core_device_ordinal(core_mempool_device(p)) } };
      core_node_params np = { .type = CORE_NODE_MEM_ALLOC };
      np.alloc.dev = core_mempool_device(p);
      np.alloc.size = bytesize;
      np.alloc.props = pprops ? pprops : &props;
      np.alloc.props_size = pprops ? psize : sizeof(props);
      core_graph_node *n;
      int cr = core_capture_add_node(s, &np, &n);
      if (cr == CORE_SUCCESS)
         *dptr = n->p.alloc.dptr;
      return (CUresult)cr;
   }
   uint64_t ptr;
   int cr = core_mempool_alloc(p, bytesize, &ptr);
   if (cr == CORE_SUCCESS)
      *dptr = ptr;
   return (CUresult)cr;
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
   core_mempool *p = core_mempool_current(c->dev);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   return API_RETURN(alloc_from(p, dptr, bytesize, s));
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
      cr = core_mempool_free(c->dev, dptr);
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

/* ---- pools of the program's, the device's current pool ---- */

/* CUDA_SUCCESS if metalcuda can make a pool with these properties. */
static CUresult check_pool_props(const CUmemPoolProps *p)
{
   if (p->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
      return p->allocType == CU_MEM_ALLOCATION_TYPE_INVALID ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
   if (p->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
      API_NOT_SUPPORTED("memory pools of host memory (a location other than a device)");
   if (!core_device_get(p->location.id))
      return CUDA_ERROR_INVALID_DEVICE;
   if (p->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
      API_NOT_SUPPORTED("exportable memory pools (handle types: no other process can open metalcuda's memory)");
   return CUDA_SUCCESS;
}

/* ==== cuMemPoolCreate (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
   API_ENTER("pool=%p poolProps=%p", (void *)pool, (const void *)poolProps);
   API_CHECK(pool && poolProps, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   CUresult r = check_pool_props(poolProps);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_mempool *p;
   r = (CUresult)core_mempool_create(core_device_get(poolProps->location.id), poolProps->maxSize, poolProps,
                                     sizeof(*poolProps), &p);
   if (r == CUDA_SUCCESS)
      *pool = (CUmemoryPool)(void *)p;
   return API_RETURN(r);
}

/* ==== cuMemPoolDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool)
{
   API_ENTER("pool=%p", (void *)pool);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_mempool_destroy(p));
}

/* ==== cuMemAllocFromPoolAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
   API_ENTER("dptr=%p bytesize=%zu pool=%p hStream=%p", (void *)dptr, bytesize, (void *)pool, (void *)hStream);
   API_CHECK(dptr, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   (void)c;
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   API_CHECK(r == CUDA_SUCCESS, r);
   if (bytesize == 0) {   /* as cuMemAllocAsync */
      *dptr = 0;
      return API_RETURN(CUDA_SUCCESS);
   }
   return API_RETURN(alloc_from(p, dptr, bytesize, s));
}

/* ==== cuMemAllocFromPoolAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                              CUstream hStream)
{
   return cuMemAllocFromPoolAsync(dptr, bytesize, pool, drv_ptsz(hStream));
}

/* ==== cuMemPoolSetAccess (libcuda.@) ==== the pool's device always reads
 * and writes it (taking that away: CUDA_ERROR_INVALID_DEVICE, as CUDA
 * documents); there is no other device to grant access to */
CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
   API_ENTER("pool=%p map=%p count=%zu", (void *)pool, (const void *)map, count);
   core_mempool *p = pool_of(pool);
   API_CHECK(p && (map || !count), CUDA_ERROR_INVALID_VALUE);
   int own = core_device_ordinal(core_mempool_device(p));
   for (size_t k = 0; k < count; k++) {
      API_CHECK(map[k].location.type == CU_MEM_LOCATION_TYPE_DEVICE, CUDA_ERROR_INVALID_VALUE);
      API_CHECK(core_device_get(map[k].location.id), CUDA_ERROR_INVALID_DEVICE);
      API_CHECK(map[k].flags <= CU_MEM_ACCESS_FLAGS_PROT_READWRITE, CUDA_ERROR_INVALID_VALUE);
      API_CHECK(map[k].location.id != own || map[k].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                CUDA_ERROR_INVALID_DEVICE);
   }
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemPoolGetAccess (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
   API_ENTER("flags=%p memPool=%p location=%p", (void *)flags, (void *)memPool, (void *)location);
   core_mempool *p = pool_of(memPool);
   API_CHECK(flags && p && location, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(location->type == CU_MEM_LOCATION_TYPE_DEVICE, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_device_get(location->id), CUDA_ERROR_INVALID_DEVICE);
   *flags = location->id == core_device_ordinal(core_mempool_device(p)) ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                                                        : CU_MEM_ACCESS_FLAGS_PROT_NONE;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceSetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
   API_ENTER("dev=%d pool=%p", dev, (void *)pool);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_mempool_device(p) == d, CUDA_ERROR_INVALID_DEVICE);
   core_mempool_set_current(d, p);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
   API_ENTER("pool=%p dev=%d", (void *)pool, dev);
   API_CHECK(pool, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_mempool *p = core_mempool_current(d);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   *pool = (CUmemoryPool)(void *)p;
   return API_RETURN(CUDA_SUCCESS);
}

/* The device a location names for CUDA 13's pool calls: device memory of
 * pinned type only (host and managed pools are refused). */
static CUresult location_device(const CUmemLocation *location, CUmemAllocationType type, core_device **d)
{
   if (!location)
      return CUDA_ERROR_INVALID_VALUE;
   if (type != CU_MEM_ALLOCATION_TYPE_PINNED)
      API_NOT_SUPPORTED("memory pools of an allocation type other than pinned device memory");
   if (location->type != CU_MEM_LOCATION_TYPE_DEVICE)
      API_NOT_SUPPORTED("memory pools of host memory (a location other than a device)");
   *d = core_device_get(location->id);
   return *d ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* ==== cuMemGetDefaultMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, CUmemAllocationType type)
{
   API_ENTER("pool_out=%p location=%p type=%d", (void *)pool_out, (void *)location, (int)type);
   API_CHECK(pool_out, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d;
   CUresult r = location_device(location, type, &d);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_mempool *p = core_mempool_default(d);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   *pool_out = (CUmemoryPool)(void *)p;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemGetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
   API_ENTER("pool=%p location=%p type=%d", (void *)pool, (void *)location, (int)type);
   API_CHECK(pool, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d;
   CUresult r = location_device(location, type, &d);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_mempool *p = core_mempool_current(d);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   *pool = (CUmemoryPool)(void *)p;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemSetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
   API_ENTER("location=%p type=%d pool=%p", (void *)location, (int)type, (void *)pool);
   API_NEED_INIT();
   core_device *d;
   CUresult r = location_device(location, type, &d);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_mempool_device(p) == d, CUDA_ERROR_INVALID_DEVICE);
   core_mempool_set_current(d, p);
   return API_RETURN(CUDA_SUCCESS);
}
