/*
 * hostmem.c — page-locked host memory, managed memory and its hints,
 * pointer queries, and the stream-ordered allocator, through the driver
 * (driver/hostmem.c and driver/mempool.c say what they are here).
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* ---- page-locked host memory ---- */

/* ==== cudaMallocHost (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size)
{
   RT_ENTER("ptr=%p size=%zu", (void *)ptr, size);
   RT_CHECK(ptr, cudaErrorInvalidValue);
   RT_NEED_CTX();
   if (size == 0) {   /* as cudaMalloc: no memory, no error */
      *ptr = NULL;
      return RT_RETURN(cudaSuccess);
   }
   /* NVIDIA's runtime makes it portable and mapped (cudaHostGetFlags
    * reports both on an H200) */
   return RT_RETURN_CU(cuMemHostAlloc(ptr, size, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
}

/* ==== cudaHostAlloc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
   RT_ENTER("pHost=%p size=%zu flags=%#x", (void *)pHost, size, flags);
   RT_CHECK(pHost, cudaErrorInvalidValue);
   RT_CHECK(!(flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)),
            cudaErrorInvalidValue);
   RT_NEED_CTX();
   if (size == 0) {
      *pHost = NULL;
      return RT_RETURN(cudaSuccess);
   }
   /* NVIDIA's runtime does not keep cudaHostAllocPortable among the flags
    * cudaHostGetFlags reports (seen on an H200: Mapped | Portable reads
    * back as Mapped); all page-locked memory is portable here anyway */
   return RT_RETURN_CU(cuMemHostAlloc(pHost, size, flags & ~(unsigned)cudaHostAllocPortable));
}

/* ==== cudaFreeHost (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFreeHost(void *ptr)
{
   RT_ENTER("ptr=%p", ptr);
   RT_NEED_CTX();
   if (!ptr)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuMemFreeHost(ptr));
}

/* ==== cudaHostRegister (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
   RT_ENTER("ptr=%p size=%zu flags=%#x", ptr, size, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemHostRegister_v2(ptr, size, flags));
}

/* ==== cudaHostUnregister (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaHostUnregister(void *ptr)
{
   RT_ENTER("ptr=%p", ptr);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemHostUnregister(ptr));
}

/* ==== cudaHostGetDevicePointer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
   RT_ENTER("pDevice=%p pHost=%p flags=%#x", (void *)pDevice, pHost, flags);
   RT_CHECK(pDevice, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUdeviceptr d;
   CUresult r = cuMemHostGetDevicePointer_v2(&d, pHost, flags);
   if (r == CUDA_SUCCESS)
      *pDevice = (void *)(uintptr_t)d;
   return RT_RETURN_CU(r);
}

/* ==== cudaHostGetFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
   RT_ENTER("pFlags=%p pHost=%p", (void *)pFlags, pHost);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemHostGetFlags(pFlags, pHost));
}

/* ---- managed memory ---- */

/* ==== cudaMallocManaged (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
   RT_ENTER("devPtr=%p size=%zu flags=%#x", (void *)devPtr, size, flags);
   RT_CHECK(devPtr, cudaErrorInvalidValue);
   RT_CHECK(flags == cudaMemAttachGlobal || flags == cudaMemAttachHost, cudaErrorInvalidValue);
   RT_NEED_CTX();
   if (size == 0) {   /* success and NULL, as NVIDIA's runtime answers */
      *devPtr = NULL;
      return RT_RETURN(cudaSuccess);
   }
   CUdeviceptr p;
   CUresult r = cuMemAllocManaged(&p, size, flags);
   if (r == CUDA_SUCCESS)
      *devPtr = (void *)(uintptr_t)p;
   return RT_RETURN_CU(r);
}

static CUmemLocation cu_location(struct cudaMemLocation l)
{
   CUmemLocation c = { (CUmemLocationType)l.type, l.id };
   return c;
}

cudaError_t rt_mem_prefetch(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags,
                            cudaStream_t stream)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   return cu_to_cuda_error(cuMemPrefetchAsync_v2((CUdeviceptr)(uintptr_t)devPtr, count, cu_location(location),
                                                 flags, stream));
}

/* ==== cudaMemPrefetchAsync (libcudart.@) ==== checked, then nothing to move (one memory);
 * CUDA 12's form (a device ordinal) is in abi12.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                                          struct cudaMemLocation location, unsigned int flags,
                                                          cudaStream_t stream)
{
   RT_ENTER("devPtr=%p count=%zu location={type=%d id=%d} flags=%#x stream=%p", devPtr, count, (int)location.type,
            location.id, flags, (void *)stream);
   return RT_RETURN(rt_mem_prefetch(devPtr, count, location, flags, stream));
}

/* ==== cudaMemPrefetchAsync_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream)
{
   return cudaMemPrefetchAsync(devPtr, count, location, flags, rt_ptsz(stream));
}

cudaError_t rt_mem_advise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   return cu_to_cuda_error(cuMemAdvise_v2((CUdeviceptr)(uintptr_t)devPtr, count, (CUmem_advise)advice,
                                          cu_location(location)));
}

/* ==== cudaMemAdvise (libcudart.@) ==== checked and recorded, nothing to move (one memory);
 * CUDA 12's form (a device ordinal) is in abi12.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                   struct cudaMemLocation location)
{
   RT_ENTER("devPtr=%p count=%zu advice=%d location={type=%d id=%d}", devPtr, count, (int)advice,
            (int)location.type, location.id);
   return RT_RETURN(rt_mem_advise(devPtr, count, advice, location));
}

/* ==== cudaMemRangeGetAttribute (libcudart.@) ==== the hints recorded by cuMemAdvise/cuMemPrefetchAsync */
cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                               const void *devPtr, size_t count)
{
   RT_ENTER("data=%p dataSize=%zu attribute=%d devPtr=%p count=%zu", data, dataSize, (int)attribute, devPtr, count);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemRangeGetAttribute(data, dataSize, (CUmem_range_attribute)attribute,
                                              (CUdeviceptr)(uintptr_t)devPtr, count));
}

/* ==== cudaMemRangeGetAttributes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
                                                size_t numAttributes, const void *devPtr, size_t count)
{
   RT_ENTER("data=%p dataSizes=%p attributes=%p numAttributes=%zu devPtr=%p count=%zu", (void *)data,
            (void *)dataSizes, (void *)attributes, numAttributes, devPtr, count);
   RT_NEED_CTX();
   /* the enums have the same values and size */
   return RT_RETURN_CU(cuMemRangeGetAttributes(data, dataSizes, (CUmem_range_attribute *)attributes, numAttributes,
                                               (CUdeviceptr)(uintptr_t)devPtr, count));
}

/* ---- pointer queries ---- */

cudaError_t rt_pointer_attributes(struct cudaPointerAttributes *out, const void *ptr)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   unsigned type = 0;
   int managed = 0, ordinal = -2, mapped = 0;
   void *host = NULL;
   CUpointer_attribute which[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_MAPPED,
                                   CU_POINTER_ATTRIBUTE_HOST_POINTER };
   void *data[] = { &type, &managed, &ordinal, &mapped, &host };
   CUresult r = cuPointerGetAttributes(5, which, data, (CUdeviceptr)(uintptr_t)ptr);
   if (r != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   struct cudaPointerAttributes a = { cudaMemoryTypeUnregistered, ordinal, NULL, NULL, { 0 } };
   if (managed)
      a.type = cudaMemoryTypeManaged;
   else if (type == CU_MEMORYTYPE_DEVICE)
      a.type = cudaMemoryTypeDevice;
   else if (type == CU_MEMORYTYPE_HOST)
      a.type = cudaMemoryTypeHost;
   if (a.type != cudaMemoryTypeUnregistered) {
      /* one address on both sides; registered host memory is not mapped
       * (driver/hostmem.c), so it has no device pointer */
      a.devicePointer = mapped ? (void *)(uintptr_t)ptr : NULL;
      a.hostPointer = host;
   } else {
      a.hostPointer = (void *)(uintptr_t)ptr;   /* what NVIDIA's runtime reports */
   }
   *out = a;
   return cudaSuccess;
}


/* ==== cudaPointerGetAttributes (libcudart.@) ==== CUDA 13's struct (CUDA
 * 12's, 64 bytes shorter, in abi12.c) */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
   RT_ENTER("attributes=%p ptr=%p", (void *)attributes, ptr);
   RT_CHECK(attributes, cudaErrorInvalidValue);
   return RT_RETURN(rt_pointer_attributes(attributes, ptr));
}

/* ---- the stream-ordered allocator ---- */

/* ==== cudaMallocAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
   RT_ENTER("devPtr=%p size=%zu hStream=%p", (void *)devPtr, size, (void *)hStream);
   RT_CHECK(devPtr, cudaErrorInvalidValue);
   RT_NEED_CTX();
   if (size == 0) {   /* success and NULL, as NVIDIA's runtime answers */
      *devPtr = NULL;
      return RT_RETURN(cudaSuccess);
   }
   CUdeviceptr p;
   CUresult r = cuMemAllocAsync(&p, size, hStream);
   if (r == CUDA_SUCCESS)
      *devPtr = (void *)(uintptr_t)p;
   return RT_RETURN_CU(r);
}

/* ==== cudaMallocAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
   return cudaMallocAsync(devPtr, size, rt_ptsz(hStream));
}

/* ==== cudaFreeAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
   RT_ENTER("devPtr=%p hStream=%p", devPtr, (void *)hStream);
   RT_NEED_CTX();
   if (!devPtr)   /* like cudaFree(NULL) (NVIDIA's runtime answers success) */
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuMemFreeAsync((CUdeviceptr)(uintptr_t)devPtr, hStream));
}

/* ==== cudaFreeAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) { return cudaFreeAsync(devPtr, rt_ptsz(hStream)); }

/* A device's default or current pool (get: the driver's call). */
static cudaError_t device_pool(cudaMemPool_t *memPool, int device, CUresult (*get)(CUmemoryPool *, CUdevice))
{
   RT_CHECK(memPool, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   /* the current pool of no device: invalid value, as an H200 answers */
   RT_CHECK(device >= 0 && device < rt_device_count(),
            get == cuDeviceGetMemPool ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
   return RT_RETURN_CU(get(memPool, device));
}

/* ==== cudaDeviceGetDefaultMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
   RT_ENTER("memPool=%p device=%d", (void *)memPool, device);
   return device_pool(memPool, device, cuDeviceGetDefaultMemPool);
}

/* ==== cudaMemPoolGetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
   RT_ENTER("memPool=%p attr=%d value=%p", (void *)memPool, (int)attr, value);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolGetAttribute(memPool, (CUmemPool_attribute)attr, value));
}

/* ==== cudaMemPoolSetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
   RT_ENTER("memPool=%p attr=%d value=%p", (void *)memPool, (int)attr, value);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolSetAttribute(memPool, (CUmemPool_attribute)attr, value));
}

/* ==== cudaMemPoolTrimTo (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
   RT_ENTER("memPool=%p minBytesToKeep=%zu", (void *)memPool, minBytesToKeep);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolTrimTo(memPool, minBytesToKeep));
}

/* The runtime's pool structs are the driver's, field for field. */
_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps), "cudaMemPoolProps is not CUmemPoolProps");
_Static_assert(sizeof(struct cudaMemAccessDesc) == sizeof(CUmemAccessDesc), "cudaMemAccessDesc is not CUmemAccessDesc");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "cudaMemLocation is not CUmemLocation");

/* ==== cudaMemPoolCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
   RT_ENTER("memPool=%p poolProps=%p", (void *)memPool, (const void *)poolProps);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolCreate(memPool, (const CUmemPoolProps *)poolProps));
}

/* ==== cudaMemPoolDestroy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool)
{
   RT_ENTER("memPool=%p", (void *)memPool);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolDestroy(memPool));
}

/* ==== cudaMemPoolSetAccess (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                           size_t count)
{
   RT_ENTER("memPool=%p descList=%p count=%zu", (void *)memPool, (const void *)descList, count);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolSetAccess(memPool, (const CUmemAccessDesc *)descList, count));
}

/* ==== cudaMemPoolGetAccess (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation *location)
{
   RT_ENTER("flags=%p memPool=%p location=%p", (void *)flags, (void *)memPool, (void *)location);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolGetAccess((CUmemAccess_flags *)flags, memPool, (CUmemLocation *)location));
}

/* ==== cudaMallocFromPoolAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
   RT_ENTER("ptr=%p size=%zu memPool=%p stream=%p", (void *)ptr, size, (void *)memPool, (void *)stream);
   RT_CHECK(ptr, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUdeviceptr p;
   CUresult r = cuMemAllocFromPoolAsync(&p, size, memPool, stream);
   if (r == CUDA_SUCCESS)
      *ptr = (void *)(uintptr_t)p;
   return RT_RETURN_CU(r);
}

/* ==== cudaMallocFromPoolAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream)
{
   return cudaMallocFromPoolAsync(ptr, size, memPool, rt_ptsz(stream));
}

/* ==== cudaDeviceSetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
   RT_ENTER("device=%d memPool=%p", device, (void *)memPool);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidValue);   /* as an H200 answers */
   return RT_RETURN_CU(cuDeviceSetMemPool(device, memPool));
}

/* ==== cudaDeviceGetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
   RT_ENTER("memPool=%p device=%d", (void *)memPool, device);
   return device_pool(memPool, device, cuDeviceGetMemPool);
}

/* ==== cudaMemGetDefaultMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                               enum cudaMemAllocationType type)
{
   RT_ENTER("memPool=%p location=%p type=%d", (void *)memPool, (void *)location, (int)type);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemGetDefaultMemPool(memPool, (CUmemLocation *)location, (CUmemAllocationType)type));
}

/* ==== cudaMemGetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                        enum cudaMemAllocationType type)
{
   RT_ENTER("memPool=%p location=%p type=%d", (void *)memPool, (void *)location, (int)type);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemGetMemPool(memPool, (CUmemLocation *)location, (CUmemAllocationType)type));
}

/* ==== cudaMemSetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                        cudaMemPool_t memPool)
{
   RT_ENTER("location=%p type=%d memPool=%p", (void *)location, (int)type, (void *)memPool);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemSetMemPool((CUmemLocation *)location, (CUmemAllocationType)type, memPool));
}
