/*
 * device.c — devices, synchronisation, versions (cuda*Device*, cudaDriver/
 * RuntimeGetVersion).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(device);

/* ==== cudaGetDeviceCount (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDeviceCount(int *count)
{
   RT_ENTER("count=%p", (void *)count);
   RT_CHECK(count, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   *count = e == cudaSuccess ? rt_device_count() : 0;
   return RT_RETURN(e);
}

/* ==== cudaGetDevice (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDevice(int *device)
{
   RT_ENTER("device=%p", (void *)device);
   RT_CHECK(device, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e == cudaSuccess)
      *device = rt_current_device();
   return RT_RETURN(e);
}

/* ==== cudaSetDevice (libcudart.@) ==== the primary context is made
 * current right away, as the CUDA 12+ runtime does */
cudaError_t CUDARTAPI cudaSetDevice(int device)
{
   RT_ENTER("device=%d", device);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   rt_set_current_device(device);
   return RT_RETURN(rt_ensure_ctx());
}

static int attr(CUdevice_attribute a, int dev)
{
   int v = 0;
   cuDeviceGetAttribute(&v, a, dev);
   return v;
}

static void fill_props(struct cudaDeviceProp *p, int dev)
{
   memset(p, 0, sizeof(*p));
   cuDeviceGetName(p->name, sizeof(p->name), dev);
   cuDeviceGetUuid(&p->uuid, dev);
   size_t total = 0;
   cuDeviceTotalMem_v2(&total, dev);
   p->totalGlobalMem = total;
   p->sharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, dev);
   p->regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, dev);
   p->warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
   p->memPitch = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH, dev);
   p->maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
   p->maxThreadsDim[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, dev);
   p->maxThreadsDim[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, dev);
   p->maxThreadsDim[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, dev);
   p->maxGridSize[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, dev);
   p->maxGridSize[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, dev);
   p->maxGridSize[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, dev);
   p->totalConstMem = (size_t)attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, dev);
   p->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
   p->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
   p->textureAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev);
   p->multiProcessorCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
   p->integrated = attr(CU_DEVICE_ATTRIBUTE_INTEGRATED, dev);
   p->canMapHostMemory = attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, dev);
   p->concurrentKernels = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, dev);
   p->asyncEngineCount = attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, dev);
   p->unifiedAddressing = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev);
   p->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev);
   p->l2CacheSize = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
   p->maxThreadsPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
   p->globalL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, dev);
   p->localL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, dev);
   p->sharedMemPerMultiprocessor = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev);
   p->regsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, dev);
   p->managedMemory = attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, dev);
   p->sharedMemPerBlockOptin = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
   p->maxBlocksPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev);
}

/* ==== cudaGetDeviceProperties (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
   RT_ENTER("prop=%p device=%d", (void *)prop, device);
   RT_CHECK(prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   fill_props(prop, device);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaDeviceSynchronize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSynchronize(void)
{
   RT_ENTER_VOID();
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuCtxSynchronize());
}

/* ==== cudaDeviceSetLimit (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
   RT_ENTER("limit=%d value=%zu", (int)limit, value);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuCtxSetLimit((CUlimit)limit, value));
}

/* ==== cudaDeviceGetLimit (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
   RT_ENTER("pValue=%p limit=%d", (void *)pValue, (int)limit);
   RT_CHECK(pValue, cudaErrorInvalidValue);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuCtxGetLimit(pValue, (CUlimit)limit));
}

/* ==== cudaDeviceReset (libcudart.@) ==== destroys the primary context of
 * the current device: memory, modules and sticky errors are gone.  The
 * thread's last error stays: on an H200, a call failing with
 * cudaErrorAssert, then cudaDeviceReset (cudaSuccess), then
 * cudaGetLastError gave cudaErrorAssert. */
cudaError_t CUDARTAPI cudaDeviceReset(void)
{
   RT_ENTER_VOID();
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   rt_forget_device(rt_current_device());
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaDriverGetVersion (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion)
{
   RT_ENTER("driverVersion=%p", (void *)driverVersion);
   RT_CHECK(driverVersion, cudaErrorInvalidValue);
   return RT_RETURN_CU(cuDriverGetVersion(driverVersion));
}

/* ==== cudaRuntimeGetVersion (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion)
{
   RT_ENTER("runtimeVersion=%p", (void *)runtimeVersion);
   RT_CHECK(runtimeVersion, cudaErrorInvalidValue);
   *runtimeVersion = CUDART_VERSION;
   return RT_RETURN(cudaSuccess);
}
