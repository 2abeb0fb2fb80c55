/*
 * mempool.c — the runtime's pool calls (runtime/hostmem.c has
 * cudaMallocAsync, cudaFreeAsync and the pool attributes):
 * cudaDeviceGetDefaultMemPool, cudaMemPoolCreate, cudaMemPoolDestroy, cudaMallocFromPoolAsync,
 * cudaMemPoolSetAccess/GetAccess, cudaDeviceSet/GetMemPool and CUDA 13's
 * cudaMemGetDefaultMemPool, cudaMemGetMemPool, cudaMemSetMemPool, through
 * the driver's (src/api/driver/mempool.c).  The runtime's pool properties,
 * access descriptors and locations are laid out as the driver's.
 */
#include "internal.h"

LOG_CHANNEL(memory);

_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps), "pool properties: the driver's layout");
_Static_assert(sizeof(struct cudaMemAccessDesc) == sizeof(CUmemAccessDesc), "access descriptor: the driver's layout");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "location: the driver's layout");

/* ==== cudaMemPoolCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
   RT_ENTER("memPool=%p poolProps=%p", (void *)memPool, (const void *)poolProps);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolCreate(memPool, (const CUmemPoolProps *)(const void *)poolProps));
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

/* ==== cudaMallocFromPoolAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
   RT_ENTER("ptr=%p size=%zu memPool=%p stream=%p", (void *)ptr, size, (void *)memPool, (void *)stream);
   RT_CHECK(ptr, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUdeviceptr p = 0;
   CUresult r = cuMemAllocFromPoolAsync(&p, size, memPool, stream);
   if (r == CUDA_SUCCESS)
      *ptr = (void *)(uintptr_t)p;
   return RT_RETURN_CU(r);
}

/* ==== cudaMallocFromPoolAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream)
{
   return cudaMallocFromPoolAsync(ptr, size, memPool, stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemPoolSetAccess (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                           size_t count)
{
   RT_ENTER("memPool=%p descList=%p count=%zu", (void *)memPool, (const void *)descList, count);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolSetAccess(memPool, (const CUmemAccessDesc *)(const void *)descList, count));
}

/* ==== cudaMemPoolGetAccess (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation *location)
{
   RT_ENTER("flags=%p memPool=%p location=%p", (void *)flags, (void *)memPool, (void *)location);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemPoolGetAccess((CUmemAccess_flags *)(void *)flags, memPool,
                                          (CUmemLocation *)(void *)location));
}

/* ==== cudaDeviceSetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
   RT_ENTER("device=%d memPool=%p", device, (void *)memPool);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   return RT_RETURN_CU(cuDeviceSetMemPool(device, memPool));
}

/* A device's default or current pool. */
static cudaError_t device_pool(cudaMemPool_t *memPool, int device, bool current)
{
   if (!memPool)
      return cudaErrorInvalidValue;
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return e;
   if (device < 0 || device >= rt_device_count())
      return cudaErrorInvalidDevice;
   return cu_to_cuda_error(current ? cuDeviceGetMemPool(memPool, device) : cuDeviceGetDefaultMemPool(memPool, device));
}

/* ==== cudaDeviceGetDefaultMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
   RT_ENTER("memPool=%p device=%d", (void *)memPool, device);
   return RT_RETURN(device_pool(memPool, device, false));
}

/* ==== cudaDeviceGetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
   RT_ENTER("memPool=%p device=%d", (void *)memPool, device);
   return RT_RETURN(device_pool(memPool, device, true));
}

/* ==== cudaMemGetDefaultMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                               enum cudaMemAllocationType type)
{
   RT_ENTER("memPool=%p location=%p type=%d", (void *)memPool, (void *)location, (int)type);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemGetDefaultMemPool(memPool, (CUmemLocation *)(void *)location, (CUmemAllocationType)type));
}

/* ==== cudaMemGetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                        enum cudaMemAllocationType type)
{
   RT_ENTER("memPool=%p location=%p type=%d", (void *)memPool, (void *)location, (int)type);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemGetMemPool(memPool, (CUmemLocation *)(void *)location, (CUmemAllocationType)type));
}

/* ==== cudaMemSetMemPool (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                        cudaMemPool_t memPool)
{
   RT_ENTER("location=%p type=%d memPool=%p", (void *)location, (int)type, (void *)memPool);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuMemSetMemPool((CUmemLocation *)(void *)location, (CUmemAllocationType)type, memPool));
}
