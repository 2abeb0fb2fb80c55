/*
 * mempool.c — the stream-ordered allocator: cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, the device's default and current
 * pools, pools made by cuMemPoolCreate (device memory of the one device,
 * not exportable) and their attributes and access (core/mempool.c says what
 * a pool is here).
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
 * allocation node with the pool's properties (its address is returned at
 * once), a free node, which must name a graph allocation.
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

/* A device's default or current pool. */
static CUresult device_pool(CUmemoryPool *out, CUdevice dev, bool current)
{
   if (!out)
      return CUDA_ERROR_INVALID_VALUE;
   if (!core_is_initialized())
      return CUDA_ERROR_NOT_INITIALIZED;
   core_device *d = core_device_get(dev);
   if (!d)   /* the current pool of no device: invalid value, as an H200 answers */
      return current ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_DEVICE;
   core_mempool *p = current ? core_mempool_current(d) : core_mempool_default(d);
   if (!p)
      return CUDA_ERROR_OUT_OF_MEMORY;
   *out = (CUmemoryPool)(void *)p;
   return CUDA_SUCCESS;
}

/* ==== cuDeviceGetDefaultMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
   API_ENTER("pool_out=%p dev=%d", (void *)pool_out, dev);
   return API_RETURN(device_pool(pool_out, dev, false));
}

/* An allocation of bytesize from pool p, in hStream's order (the capture's
 * allocation node on a capturing stream). */
static CUresult alloc_async(CUdeviceptr *dptr, size_t bytesize, core_mempool *p, core_stream *s)
{
   /* NULL and success, as NVIDIA's driver answers cuMemAllocAsync (observed
    * on an H200; tests/cuda/mempools.cu checks cudaMallocFromPoolAsync) */
   if (bytesize == 0) {
      *dptr = 0;
      return CUDA_SUCCESS;
   }
   if (s && s->cap) {   /* an allocation node of the capture, with the pool's properties */
      CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
                               .location = { CU_MEM_LOCATION_TYPE_DEVICE,
                                             core_device_ordinal(core_mempool_device(p)) } };
      core_node_params np = { .type = CORE_NODE_MEM_ALLOC };
      np.alloc.dev = core_mempool_device(p);
      np.alloc.size = bytesize;
      np.alloc.props = &props;
      np.alloc.props_size = sizeof(props);
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
   /* the current pool of the stream's device (cuDeviceSetMemPool) */
   core_mempool *p = core_mempool_current(s ? s->ctx->dev : c->dev);
   API_CHECK(p, CUDA_ERROR_OUT_OF_MEMORY);
   return API_RETURN(alloc_async(dptr, bytesize, p, s));
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
   if (flags & CORE_MEM_FLAG_POOL)   /* from whichever pool */
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

/* ---- pools made by the program, and the current pool ---- */

/* ==== cuMemPoolCreate (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
   API_ENTER("pool=%p poolProps=%p", (void *)pool, (const void *)poolProps);
   API_CHECK(pool && poolProps, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   const CUmemPoolProps *pp = poolProps;
   API_CHECK(pp->allocType == CU_MEM_ALLOCATION_TYPE_PINNED || pp->allocType == CU_MEM_ALLOCATION_TYPE_MANAGED,
             CUDA_ERROR_INVALID_VALUE);
   /* (before the location: a managed pool may have none) */
   if (pp->allocType == CU_MEM_ALLOCATION_TYPE_MANAGED)
      API_NOT_SUPPORTED("managed memory pools (CU_MEM_ALLOCATION_TYPE_MANAGED)");
   /* HOST_NUMA_CURRENT, NONE and unknown types: documented as invalid */
   API_CHECK(pp->location.type == CU_MEM_LOCATION_TYPE_DEVICE || pp->location.type == CU_MEM_LOCATION_TYPE_HOST ||
                pp->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA,
             CUDA_ERROR_INVALID_VALUE);
   if (pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
      API_NOT_SUPPORTED("host memory pools (CU_MEM_LOCATION_TYPE_HOST, _HOST_NUMA)");
   core_device *d = core_device_get(pp->location.id);
   API_CHECK(d, CUDA_ERROR_INVALID_VALUE);   /* not a device: invalid value, as an H200's runtime answers */
   if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)   /* ipc.c: no other process can open the memory */
      API_NOT_SUPPORTED("IPC-capable memory pools (handleTypes other than CU_MEM_HANDLE_TYPE_NONE)");
   if (pp->usage)
      API_NOT_SUPPORTED("memory pool usage flags (CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS)");
   core_mempool *p;
   int r = core_mempool_create(d, pp->maxSize, &p);
   if (r == CORE_SUCCESS)
      *pool = (CUmemoryPool)(void *)p;
   return API_RETURN((CUresult)r);
}

/* ==== cuMemPoolDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool)
{
   API_ENTER("pool=%p", (void *)pool);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!core_mempool_is_default(p), CUDA_ERROR_INVALID_VALUE);   /* a default pool cannot be destroyed */
   return API_RETURN((CUresult)core_mempool_destroy(p));
}

/* The device of an access descriptor's location; NULL and the error if none. */
static core_device *access_device(const CUmemLocation *loc, CUresult *err)
{
   if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE) {
      *err = CUDA_ERROR_INVALID_VALUE;
      return NULL;
   }
   core_device *d = core_device_get(loc->id);
   *err = d ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
   return d;
}

/* ==== cuMemPoolSetAccess (libcuda.@) ==== the pool's own device has
 * read-write access for good, and there is no other device */
CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
   API_ENTER("pool=%p map=%p count=%zu", (void *)pool, (const void *)map, count);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(map || count == 0, CUDA_ERROR_INVALID_VALUE);
   for (size_t k = 0; k < count; k++) {
      CUresult err;
      core_device *d = access_device(&map[k].location, &err);
      API_CHECK(d, err);
      API_CHECK(map[k].flags == CU_MEM_ACCESS_FLAGS_PROT_NONE || map[k].flags == CU_MEM_ACCESS_FLAGS_PROT_READ ||
                   map[k].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                CUDA_ERROR_INVALID_VALUE);
      /* the owner's access cannot be lowered (NVIDIA answers so) */
      API_CHECK(d != core_mempool_device(p) || map[k].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
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
   CUresult err;
   core_device *d = access_device(location, &err);
   API_CHECK(d, err);
   *flags = d == core_mempool_device(p) ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemAllocFromPoolAsync (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
   API_ENTER("dptr=%p bytesize=%zu pool=%p hStream=%p", (void *)dptr, bytesize, (void *)pool, (void *)hStream);
   core_mempool *p = pool_of(pool);
   API_CHECK(dptr && p, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   (void)c;
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   API_CHECK(r == CUDA_SUCCESS, r);
   return API_RETURN(alloc_async(dptr, bytesize, p, s));
}

/* ==== cuMemAllocFromPoolAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
   return cuMemAllocFromPoolAsync(dptr, bytesize, pool, drv_ptsz(hStream));
}

/* ==== cuDeviceSetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
   API_ENTER("dev=%d pool=%p", dev, (void *)pool);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_VALUE);   /* no such device: invalid value (H200) */
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_mempool_set_current(d, p));   /* another device's pool: invalid */
}

/* ==== cuDeviceGetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
   API_ENTER("pool=%p dev=%d", (void *)pool, dev);
   return API_RETURN(device_pool(pool, dev, true));
}

/* What a location and allocation type of cuMemGetDefaultMemPool,
 * cuMemGetMemPool and cuMemSetMemPool name: a device (*d set), or an
 * error; *unsupported names what metalcuda does not have when the
 * combination is valid in CUDA. */
static CUresult pool_location(const CUmemLocation *loc, CUmemAllocationType type, core_device **d,
                              const char **unsupported)
{
   *unsupported = NULL;
   if (!loc)
      return CUDA_ERROR_INVALID_VALUE;
   bool host = loc->type == CU_MEM_LOCATION_TYPE_HOST || loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA;
   if (type == CU_MEM_ALLOCATION_TYPE_MANAGED) {
      if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE && loc->type != CU_MEM_LOCATION_TYPE_NONE && !host)
         return CUDA_ERROR_INVALID_VALUE;
      *unsupported = "managed memory pools (CU_MEM_ALLOCATION_TYPE_MANAGED)";
      return CUDA_ERROR_NOT_SUPPORTED;
   }
   if (type != CU_MEM_ALLOCATION_TYPE_PINNED || (loc->type != CU_MEM_LOCATION_TYPE_DEVICE && !host))
      return CUDA_ERROR_INVALID_VALUE;
   if (host) {
      *unsupported = "host memory pools (CU_MEM_LOCATION_TYPE_HOST, _HOST_NUMA)";
      return CUDA_ERROR_NOT_SUPPORTED;
   }
   *d = core_device_get(loc->id);
   return *d ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;   /* no such device: invalid value (H200) */
}

/* The default (or current) pool of a location and allocation type, for
 * the entry point func; what metalcuda lacks is refused with the reason. */
static CUresult location_pool(const char *func, CUmemoryPool *out, CUmemLocation *location, CUmemAllocationType type,
                              bool current)
{
   static int once;
   if (!out)
      return CUDA_ERROR_INVALID_VALUE;
   if (!core_is_initialized())
      return CUDA_ERROR_NOT_INITIALIZED;
   core_device *d;
   const char *unsupported;
   CUresult r = pool_location(location, type, &d, &unsupported);
   if (unsupported)
      api_unsupported_(log_channel_, func, unsupported, &once);
   if (r != CUDA_SUCCESS)
      return r;
   core_mempool *p = current ? core_mempool_current(d) : core_mempool_default(d);
   if (!p)
      return CUDA_ERROR_OUT_OF_MEMORY;
   *out = (CUmemoryPool)(void *)p;
   return CUDA_SUCCESS;
}

/* ==== cuMemGetDefaultMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, CUmemAllocationType type)
{
   API_ENTER("pool_out=%p location=%p type=%d", (void *)pool_out, (void *)location, (int)type);
   return API_RETURN(location_pool(__func__, pool_out, location, type, false));
}

/* ==== cuMemGetMemPool (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
   API_ENTER("pool=%p location=%p type=%d", (void *)pool, (void *)location, (int)type);
   return API_RETURN(location_pool(__func__, pool, location, type, true));
}

/* ==== cuMemSetMemPool (libcuda.@) ==== device and pinned: cuDeviceSetMemPool */
CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
   API_ENTER("location=%p type=%d pool=%p", (void *)location, (int)type, (void *)pool);
   API_NEED_INIT();
   core_device *d;
   const char *unsupported;
   CUresult r = pool_location(location, type, &d, &unsupported);
   if (unsupported)
      API_NOT_SUPPORTED(unsupported);
   API_CHECK(r == CUDA_SUCCESS, r);
   core_mempool *p = pool_of(pool);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   /* the location must be the pool's */
   return API_RETURN((CUresult)core_mempool_set_current(d, p));
}
