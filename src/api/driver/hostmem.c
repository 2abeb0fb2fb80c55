/*
 * hostmem.c — page-locked host memory, managed memory, pitched allocations,
 * pointer queries, and the stream-ordered allocator.
 *
 * Page-locked ("pinned") and managed allocations are arena allocations like
 * device memory (ARCHITECTURE §3: one memory, the same address for host and
 * kernels), told apart by their kind for pointer queries and for which free
 * call may release them.  Host memory the program allocated itself and
 * registers (cuMemHostRegister) lies outside the arena: copies may use it,
 * but no kernel can reach it, so asking for a device address of it
 * (CU_MEMHOSTREGISTER_DEVICEMAP, cuMemHostGetDevicePointer) is refused with
 * CUDA_ERROR_NOT_SUPPORTED and a logged reason, never answered with an
 * address a kernel would fault on.
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* cuMemAllocPitch's row alignment: the texture alignment the device
 * reports (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512 as on NVIDIA GPUs),
 * which is what NVIDIA's driver pads pitches to. */
#define PITCH_ALIGN 512u

/* ---- page-locked host memory ---- */

static CUresult host_alloc(core_ctx *c, void **pp, size_t bytesize, unsigned flags)
{
   uint64_t p;
   /* With unified addressing every page-locked allocation is mapped into
    * the device's address space, whatever the flags said. */
   int r = core_mem_alloc_kind(c->dev, bytesize, CORE_MEM_HOST, flags | CU_MEMHOSTALLOC_DEVICEMAP, &p);
   if (r == CORE_SUCCESS)
      *pp = (void *)(uintptr_t)p;
   return (CUresult)r;
}

/* ==== cuMemAllocHost_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocHost_v2(void **pp, size_t bytesize)
{
   API_ENTER("pp=%p bytesize=%zu", (void *)pp, bytesize);
   API_CHECK(pp, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(bytesize > 0, CUDA_ERROR_INVALID_VALUE);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   return API_RETURN(host_alloc(c, pp, bytesize, 0));
}

/* ==== cuMemHostAlloc (libcuda.@) ==== */
CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
   API_ENTER("pp=%p bytesize=%zu Flags=%#x", (void *)pp, bytesize, Flags);
   API_CHECK(pp, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(bytesize > 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!(Flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                                   CU_MEMHOSTALLOC_WRITECOMBINED)), CUDA_ERROR_INVALID_VALUE);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   return API_RETURN(host_alloc(c, pp, bytesize, Flags));
}

/* ==== cuMemFreeHost (libcuda.@) ==== */
CUresult CUDAAPI cuMemFreeHost(void *p)
{
   API_ENTER("p=%p", p);
   API_NEED_CTX(c);
   if (!p)   /* nothing to free: success, as NVIDIA's driver answers (observed on an H200) */
      return API_RETURN(CUDA_SUCCESS);
   API_CHECK(core_mem_query(c->dev, (uintptr_t)p, 1, NULL, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   /* Kernels still running may use the memory. */
   int r = core_ctx_synchronize(c);
   if (r != CORE_SUCCESS)
      return API_RETURN((CUresult)r);
   return API_RETURN((CUresult)core_mem_free_kind(c->dev, (uintptr_t)p, CORE_MEM_KIND_BIT(CORE_MEM_HOST)));
}

/* ==== cuMemHostGetDevicePointer_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
   API_ENTER("pdptr=%p p=%p Flags=%#x", (void *)pdptr, p, Flags);
   API_CHECK(pdptr && p, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(Flags == 0, CUDA_ERROR_INVALID_VALUE);
   uint32_t kind;
   if (core_mem_query(c->dev, (uintptr_t)p, 1, NULL, NULL, &kind, NULL) && kind == CORE_MEM_HOST) {
      *pdptr = (CUdeviceptr)(uintptr_t)p;   /* the same address on both sides */
      return API_RETURN(CUDA_SUCCESS);
   }
   uint64_t base, size;
   if (!core_host_lookup((uintptr_t)p, &base, &size, NULL))
      return API_RETURN(CUDA_ERROR_INVALID_VALUE);
   /* Registered memory: where kernels reach the process's memory (the
    * software device) its device address is the one a kernel turns into
    * that CPU address (it adds the delta of addresses outside device
    * memory, core_arena_host_delta); NVIDIA's driver maps
    * every registration, so Flags at registration do not matter. */
   if (core_device_info(c->dev)->reaches_host_memory) {
      *pdptr = (CUdeviceptr)((uintptr_t)p - core_arena_host_delta(c->dev));
      return API_RETURN(CUDA_SUCCESS);
   }
   static int once;
   char what[200];
   snprintf(what, sizeof(what), "a device address for the registered host memory at %#llx (%llu bytes): this "
            "device's kernels reach only its memory arena; allocate with cuMemHostAlloc instead",
            (unsigned long long)base, (unsigned long long)size);
   api_unsupported_(log_channel_, __func__, what, &once);
   return API_RETURN(CUDA_ERROR_NOT_SUPPORTED);
}

/* ==== cuMemHostGetFlags (libcuda.@) ==== */
CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
   API_ENTER("pFlags=%p p=%p", (void *)pFlags, p);
   API_CHECK(pFlags && p, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   uint32_t kind = CORE_MEM_DEVICE, flags = 0;
   bool ok = core_mem_query(c->dev, (uintptr_t)p, 1, NULL, NULL, &kind, &flags) ? kind == CORE_MEM_HOST
             /* registered memory: the flags it was registered with (NVIDIA's adds DEVICEMAP, as it maps
              * every registration; so do we where kernels reach it) */
             : core_host_lookup((uintptr_t)p, NULL, NULL, &flags);
   API_CHECK(ok, CUDA_ERROR_INVALID_VALUE);
   /* Page-locked memory is mapped (unified addressing), and NVIDIA's
    * driver does not report PORTABLE: asked for PORTABLE | DEVICEMAP it
    * answers DEVICEMAP, for WRITECOMBINED it answers WRITECOMBINED |
    * DEVICEMAP (observed on an H200, driver 580.159.04). */
   if (kind == CORE_MEM_HOST)   /* not registered memory */
      flags = (flags & ~(uint32_t)CU_MEMHOSTALLOC_PORTABLE) | CU_MEMHOSTALLOC_DEVICEMAP;
   else if (core_device_info(c->dev)->reaches_host_memory)
      flags |= CU_MEMHOSTREGISTER_DEVICEMAP;
   *pFlags = flags;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemHostRegister_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
   API_ENTER("p=%p bytesize=%zu Flags=%#x", p, bytesize, Flags);
   API_NEED_CTX(c);
   API_CHECK(p && bytesize > 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!(Flags & ~(unsigned)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                                   CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)),
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK((uintptr_t)p <= UINTPTR_MAX - bytesize, CUDA_ERROR_INVALID_VALUE);
   /* Page-locked memory of ours is registered already. */
   API_CHECK(!core_mem_query(c->dev, (uintptr_t)p, 1, NULL, NULL, NULL, NULL),
             CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
   /* Every flag is accepted: copies use the range as pinned memory (IO
    * memory and read-only ranges too: the host only reads or writes them
    * as the copies say), and kernels reach it through
    * cuMemHostGetDevicePointer where the device can. */
   return API_RETURN((CUresult)core_host_register((uintptr_t)p, bytesize, Flags));
}

/* ==== cuMemHostUnregister (libcuda.@) ==== */
CUresult CUDAAPI cuMemHostUnregister(void *p)
{
   API_ENTER("p=%p", p);
   API_NEED_CTX(c);
   API_CHECK(p, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_host_unregister((uintptr_t)p));
}

/* ---- managed and pitched memory ---- */

/* ==== cuMemAllocManaged (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
   API_ENTER("dptr=%p bytesize=%zu flags=%#x", (void *)dptr, bytesize, flags);
   API_CHECK(dptr, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(bytesize > 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(flags == CU_MEM_ATTACH_GLOBAL || flags == CU_MEM_ATTACH_HOST, CUDA_ERROR_INVALID_VALUE);
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   uint64_t p;
   int r = core_mem_alloc_kind(c->dev, bytesize, CORE_MEM_MANAGED, flags, &p);
   if (r == CORE_SUCCESS)
      *dptr = p;
   return API_RETURN((CUresult)r);
}

/* ==== cuMemAllocPitch_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                    unsigned int ElementSizeBytes)
{
   API_ENTER("dptr=%p pPitch=%p WidthInBytes=%zu Height=%zu ElementSizeBytes=%u", (void *)dptr, (void *)pPitch,
             WidthInBytes, Height, ElementSizeBytes);
   API_CHECK(dptr && pPitch, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK(ElementSizeBytes == 4 || ElementSizeBytes == 8 || ElementSizeBytes == 16, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(WidthInBytes > 0 && Height > 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(WidthInBytes <= SIZE_MAX - PITCH_ALIGN, CUDA_ERROR_INVALID_VALUE);
   size_t pitch = ALIGN_UP(WidthInBytes, PITCH_ALIGN);
   API_CHECK(Height <= SIZE_MAX / pitch, CUDA_ERROR_OUT_OF_MEMORY);
   uint64_t p;
   int r = core_mem_alloc(c->dev, pitch * Height, &p);
   if (r == CORE_SUCCESS) {
      *dptr = p;
      *pPitch = pitch;
   }
   return API_RETURN((CUresult)r);
}

/* ---- unified memory hints: one memory, so nothing to migrate ---- */

/* The checks cuMemPrefetchAsync and cuMemAdvise make on a range and a
 * location; the operation itself is then nothing: host and device share
 * the arena, so no data ever moves and no placement can be better. */
CUresult drv_um_range(core_ctx *c, CUdeviceptr p, size_t count)
{
   uint32_t kind;
   if (!p || count == 0)
      return CUDA_ERROR_INVALID_VALUE;
   if (!core_mem_query(c->dev, p, count, NULL, NULL, &kind, NULL) || kind != CORE_MEM_MANAGED)
      return CUDA_ERROR_INVALID_VALUE;
   return CUDA_SUCCESS;
}

CUresult drv_um_location(CUmemLocation loc, bool none_ok)
{
   switch (loc.type) {
   case CU_MEM_LOCATION_TYPE_DEVICE:
      return core_device_get(loc.id) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
   case CU_MEM_LOCATION_TYPE_HOST:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
      return CUDA_SUCCESS;
   case CU_MEM_LOCATION_TYPE_HOST_NUMA:
      return loc.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;   /* one NUMA node */
   case CU_MEM_LOCATION_TYPE_INVALID:
      return none_ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuMemPrefetchAsync_v2 (libcuda.@) ==== nothing moves (see drv_um_range); the location is kept */
CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                       CUstream hStream)
{
   API_ENTER("devPtr=%#llx count=%zu location={type=%d id=%d} flags=%#x hStream=%p", (unsigned long long)devPtr,
             count, (int)location.type, location.id, flags, (void *)hStream);
   API_NEED_CTX(c);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   API_CHECK(r == CUDA_SUCCESS, r);
   API_CHECK(flags == 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((r = drv_um_location(location, false)) == CUDA_SUCCESS, r);
   API_CHECK((r = drv_um_range(c, devPtr, count)) == CUDA_SUCCESS, r);
   /* kept for CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, which CUDA
    * documents as the last location asked for, whether or not it is done */
   core_um_loc l = { (int)location.type, location.id };
   return API_RETURN((CUresult)core_um_record(c->dev, devPtr, count, CORE_UM_PREFETCH, l));
}

/* ==== cuMemPrefetchAsync_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                            unsigned int flags, CUstream hStream)
{
   return cuMemPrefetchAsync_v2(devPtr, count, location, flags, drv_ptsz(hStream));
}

/* ==== cuMemAdvise_v2 (libcuda.@) ==== nothing moves (see drv_um_range); the advice is kept */
CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
   API_ENTER("devPtr=%#llx count=%zu advice=%d location={type=%d id=%d}", (unsigned long long)devPtr, count,
             (int)advice, (int)location.type, location.id);
   API_NEED_CTX(c);
   API_CHECK(advice >= CU_MEM_ADVISE_SET_READ_MOSTLY && advice <= CU_MEM_ADVISE_UNSET_ACCESSED_BY,
             CUDA_ERROR_INVALID_VALUE);
   /* the read-mostly and unset-preferred advice ignore the location */
   bool any_loc = advice == CU_MEM_ADVISE_SET_READ_MOSTLY || advice == CU_MEM_ADVISE_UNSET_READ_MOSTLY ||
                  advice == CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION;
   CUresult r = any_loc ? CUDA_SUCCESS : drv_um_location(location, false);
   API_CHECK(r == CUDA_SUCCESS, r);
   API_CHECK((r = drv_um_range(c, devPtr, count)) == CUDA_SUCCESS, r);
   core_um_loc l = { any_loc ? 0 : (int)location.type, any_loc ? 0 : location.id };
   return API_RETURN((CUresult)core_um_record(c->dev, devPtr, count, (int)advice, l));
}

/* ---- range attributes: the hints recorded above, as CUDA reads them back ---- */

/* A location as the pre-CUDA-12.2 attributes give it: a device ordinal,
 * CU_DEVICE_CPU (-1) for the host, CU_DEVICE_INVALID (-2) for none or a
 * range whose parts differ. */
static int legacy_location(core_um_loc l)
{
   switch (l.type) {
   case CU_MEM_LOCATION_TYPE_DEVICE:
      return l.id;
   case CU_MEM_LOCATION_TYPE_HOST:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
      return -1;
   default:
      return -2;
   }
}

/* The CUmemLocationType of l (none or differing parts: INVALID). */
static int location_type(core_um_loc l) { return l.type == CORE_UM_LOC_MIXED ? CU_MEM_LOCATION_TYPE_INVALID : l.type; }

/* The accessed-by list: dataSize / 4 ints, ordinals in ascending order
 * (the host as -1), the unused ones CU_DEVICE_INVALID (-2). */
static void accessed_by(const core_um_state *st, int *out, size_t n)
{
   int ids[CORE_UM_MAX_ACCESS];
   unsigned m = 0;
   for (unsigned k = 0; k < st->n_access; k++) {
      int id = legacy_location(st->access[k]), j = (int)m++;
      for (; j > 0 && ids[j - 1] > id; j--)
         ids[j] = ids[j - 1];
      ids[j] = id;
   }
   for (size_t k = 0; k < n; k++)
      out[k] = k < m ? ids[k] : -2;
}

/* Writes one attribute of the hints st to data (dataSize bytes). */
static CUresult range_attribute(const core_um_state *st, void *data, size_t size, CUmem_range_attribute a)
{
   if (!data)
      return CUDA_ERROR_INVALID_VALUE;
   if (a == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
      if (size == 0 || size % 4)
         return CUDA_ERROR_INVALID_VALUE;
      accessed_by(st, data, size / 4);
      return CUDA_SUCCESS;
   }
   if (size != 4)
      return CUDA_ERROR_INVALID_VALUE;
   int *v = data;
   switch (a) {
   case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY: *v = st->read_mostly; break;
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: *v = legacy_location(st->preferred); break;
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION: *v = legacy_location(st->prefetched); break;
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: *v = location_type(st->preferred); break;
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: *v = st->preferred.id; break;
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: *v = location_type(st->prefetched); break;
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: *v = st->prefetched.id; break;
   default: return CUDA_ERROR_INVALID_VALUE;
   }
   return CUDA_SUCCESS;
}

/* ==== cuMemRangeGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
                                        CUdeviceptr devPtr, size_t count)
{
   API_ENTER("data=%p dataSize=%zu attribute=%d devPtr=%#llx count=%zu", data, dataSize, (int)attribute,
             (unsigned long long)devPtr, count);
   API_NEED_CTX(c);
   CUresult r = drv_um_range(c, devPtr, count);
   API_CHECK(r == CUDA_SUCCESS, r);
   core_um_state st;
   core_um_query(c->dev, devPtr, count, &st);
   return API_RETURN(range_attribute(&st, data, dataSize, attribute));
}

/* ==== cuMemRangeGetAttributes (libcuda.@) ==== */
CUresult CUDAAPI cuMemRangeGetAttributes(void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
                                         size_t numAttributes, CUdeviceptr devPtr, size_t count)
{
   API_ENTER("data=%p dataSizes=%p attributes=%p numAttributes=%zu devPtr=%#llx count=%zu", (void *)data,
             (void *)dataSizes, (void *)attributes, numAttributes, (unsigned long long)devPtr, count);
   API_NEED_CTX(c);
   API_CHECK(data && dataSizes && attributes && numAttributes, CUDA_ERROR_INVALID_VALUE);
   CUresult r = drv_um_range(c, devPtr, count);
   API_CHECK(r == CUDA_SUCCESS, r);
   core_um_state st;
   core_um_query(c->dev, devPtr, count, &st);
   for (size_t k = 0; k < numAttributes; k++) {
      r = range_attribute(&st, data[k], dataSizes[k], attributes[k]);
      API_CHECK(r == CUDA_SUCCESS, r);
   }
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- pointer queries ---- */

/* What is known of a pointer: the arena allocation or registered range
 * holding it. */
typedef struct ptr_info {
   enum { PTR_UNKNOWN, PTR_ARENA, PTR_REGISTERED } where;
   uint32_t kind, flags;
   uint64_t base, size;
} ptr_info;

static ptr_info ptr_lookup(core_ctx *c, CUdeviceptr p)
{
   ptr_info pi = { PTR_UNKNOWN, 0, 0, 0, 0 };
   if (c && core_mem_query(c->dev, p, 1, &pi.base, &pi.size, &pi.kind, &pi.flags))
      pi.where = PTR_ARENA;
   else if (core_host_lookup(p, &pi.base, &pi.size, &pi.flags))
      pi.where = PTR_REGISTERED;
   return pi;
}

/* The context device memory at p belongs to: the created context it was
 * allocated in (cuCtxCreate), else the device's primary context, whichever
 * context is current (c). */
static core_ctx *owner_ctx(core_ctx *c, CUdeviceptr p)
{
   uint64_t id = core_mem_owner(c->dev, p);
   core_ctx *owner = id ? core_ctx_created_by_id(id) : NULL;
   if (!owner && core_ctx_primary_handle(c->dev, &owner) != CORE_SUCCESS)
      owner = c;
   return owner;
}

/* Writes one attribute of p (known) to data; CUDA_ERROR_NOT_SUPPORTED for
 * the ones we cannot answer, CUDA_ERROR_INVALID_VALUE where CUDA has no
 * value (a device pointer's host address...). */
static CUresult ptr_attribute(core_ctx *c, const ptr_info *pi, CUdeviceptr p, CUpointer_attribute a, void *data)
{
   bool arena = pi->where == PTR_ARENA;
   switch (a) {
   case CU_POINTER_ATTRIBUTE_CONTEXT:
      *(CUcontext *)data = ctx_handle(arena ? owner_ctx(c, p) : c);
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      /* managed memory reads as device memory, with IS_MANAGED set */
      *(unsigned int *)data = arena && pi->kind != CORE_MEM_HOST ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      if (!arena)
         return CUDA_ERROR_NOT_SUPPORTED;   /* registered memory has no device address here */
      *(CUdeviceptr *)data = p;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (arena && pi->kind == CORE_MEM_DEVICE)
         return CUDA_ERROR_INVALID_VALUE;
      *(void **)data = (void *)(uintptr_t)p;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
      *(int *)data = 1;   /* every copy is synchronous here */
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_BUFFER_ID:
      *(unsigned long long *)data = pi->base;   /* unique among live allocations */
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *(int *)data = arena && pi->kind == CORE_MEM_MANAGED;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *(int *)data = core_device_ordinal(c->dev);
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *(CUdeviceptr *)data = pi->base;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      *(size_t *)data = (size_t)pi->size;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MAPPED:
      *(int *)data = arena;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
   case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
      *(int *)data = 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
      *(unsigned long long *)data = 0;   /* CU_MEM_HANDLE_TYPE_NONE: not exportable */
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
      *(unsigned int *)data = 3;   /* CU_POINTER_ACCESS_FLAG_READWRITE */
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      *(CUmemoryPool *)data = arena && (pi->flags & CORE_MEM_FLAG_POOL) && pi->kind == CORE_MEM_DEVICE
                                 ? (CUmemoryPool)(void *)core_mempool_of(c->dev, pi->base)
                                 : NULL;
      return CUDA_SUCCESS;
   default:
      return (int)a >= CU_POINTER_ATTRIBUTE_CONTEXT && (int)a <= CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE
                ? CUDA_ERROR_NOT_SUPPORTED
                : CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuPointerGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
   API_ENTER("data=%p attribute=%d ptr=%#llx", data, (int)attribute, (unsigned long long)ptr);
   API_CHECK(data, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   ptr_info pi = ptr_lookup(c, ptr);
   API_CHECK(pi.where != PTR_UNKNOWN, CUDA_ERROR_INVALID_VALUE);
   CUresult r = ptr_attribute(c, &pi, ptr, attribute, data);
   if (r == CUDA_ERROR_NOT_SUPPORTED)
      API_NOT_SUPPORTED("this pointer attribute (P2P tokens, mapping, block id, decompression; or the device "
                        "address of registered host memory)");
   return API_RETURN(r);
}

/* The value cuPointerGetAttributes gives an attribute of a pointer CUDA
 * does not know: zero of the attribute's size (NULL context and device
 * pointer, type 0, false), the ordinal -2, and the pointer itself as its
 * host address, as NVIDIA's driver reports (its runtime passes that on as
 * cudaPointerAttributes.hostPointer of malloc'd memory, observed on an
 * H200). */
static CUresult unknown_attribute(CUpointer_attribute a, CUdeviceptr ptr, void *data)
{
   switch (a) {
   case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      *(uint64_t *)data = ptr;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_CONTEXT:
   case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
   case CU_POINTER_ATTRIBUTE_BUFFER_ID:
   case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
   case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
   case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
   case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      *(uint64_t *)data = 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *(int *)data = -2;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
   case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
   case CU_POINTER_ATTRIBUTE_IS_MANAGED:
   case CU_POINTER_ATTRIBUTE_MAPPED:
   case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
   case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
   case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
      *(unsigned int *)data = 0;
      return CUDA_SUCCESS;
   default:
      return (int)a >= CU_POINTER_ATTRIBUTE_CONTEXT && (int)a <= CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE
                ? CUDA_ERROR_NOT_SUPPORTED
                : CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuPointerGetAttributes (libcuda.@) ==== unknown pointers read as zeros, as CUDA documents */
CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr)
{
   API_ENTER("numAttributes=%u attributes=%p data=%p ptr=%#llx", numAttributes, (void *)attributes, (void *)data,
             (unsigned long long)ptr);
   API_CHECK(numAttributes > 0 && attributes && data, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   ptr_info pi = ptr_lookup(c, ptr);
   for (unsigned k = 0; k < numAttributes; k++) {
      if (!data[k])
         continue;
      CUresult r;
      if (pi.where == PTR_UNKNOWN)
         r = unknown_attribute(attributes[k], ptr, data[k]);
      else
         r = ptr_attribute(c, &pi, ptr, attributes[k], data[k]);
      /* no value (a device pointer's host address; registered host
       * memory's device address, since it is not mapped here): NULL, not
       * an error, as the plural call does for what does not exist */
      if ((r == CUDA_ERROR_INVALID_VALUE && attributes[k] == CU_POINTER_ATTRIBUTE_HOST_POINTER) ||
          (r == CUDA_ERROR_NOT_SUPPORTED && attributes[k] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER &&
           pi.where != PTR_UNKNOWN)) {
         *(void **)data[k] = NULL;
         r = CUDA_SUCCESS;
      }
      if (r == CUDA_ERROR_NOT_SUPPORTED)
         API_NOT_SUPPORTED("this pointer attribute (P2P tokens, mapping, block id, decompression; or the device "
                           "address of registered host memory)");
      API_CHECK(r == CUDA_SUCCESS, r);
   }
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMemGetAddressRange_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
   API_ENTER("pbase=%p psize=%p dptr=%#llx", (void *)pbase, (void *)psize, (unsigned long long)dptr);
   API_NEED_CTX(c);
   uint64_t base, size;
   API_CHECK(core_mem_lookup(c->dev, dptr, 1, &base, &size), CUDA_ERROR_NOT_FOUND);
   if (pbase)
      *pbase = base;
   if (psize)
      *psize = (size_t)size;
   return API_RETURN(CUDA_SUCCESS);
}

/* The location the pre-CUDA-13 hints name by a device ordinal, or
 * CU_DEVICE_CPU (-1) for the host. */
static CUmemLocation location_of_device(CUdevice dev)
{
   CUmemLocation l = { dev == -1 ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE, dev == -1 ? 0 : dev };
   return l;
}

/* ==== cuMemPrefetchAsync (libcuda.@) ==== the CUDA 12 form (a device ordinal) */
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
   return cuMemPrefetchAsync_v2(devPtr, count, location_of_device(dstDevice), 0, hStream);
}

/* ==== cuMemPrefetchAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
   return cuMemPrefetchAsync(devPtr, count, dstDevice, drv_ptsz(hStream));
}

/* ==== cuMemAdvise (libcuda.@) ==== the CUDA 12 form (a device ordinal) */
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
   return cuMemAdvise_v2(devPtr, count, advice, location_of_device(device));
}
