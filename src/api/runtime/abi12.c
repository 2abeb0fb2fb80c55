/*
 * abi12.c — libcudart.so.12's own ABI: linked into libcudart.so.12 and
 * libcudart.so.11.0 only (the Makefile), never into .13.
 *
 * CUDA 13 changed the signature or the structure of some entry points and
 * dropped others.  A program built against CUDA 12's headers calls, at the
 * same name, the CUDA 12 form (compared on NVIDIA's 12.9 and 13.0 headers
 * and libraries, the wheels nvidia-cuda-runtime-cu12 12.9.79 and CUDA
 * 13.0.96):
 *   - cudaMemPrefetchAsync(ptr, count, int device, stream) and
 *     cudaMemAdvise(ptr, count, advice, int device): CUDA 13's forms (a
 *     cudaMemLocation) are CUDA 12's _v2;
 *   - struct cudaDeviceProp: CUDA 12's has eight fields 13 dropped
 *     (clockRate, computeMode, memoryClockRate, ...) and no PCI ids or
 *     NUMA fields; headers map cudaGetDeviceProperties to
 *     cudaGetDeviceProperties_v2, and the plain name takes CUDA 11's
 *     struct, which is CUDA 12's cut before hostRegisterSupported
 *     (checked on 11.8.89's header); cudaChooseDevice reads CUDA 12's;
 *   - struct cudaPointerAttributes is 24 bytes in CUDA 12 (13 added
 *     reserved words: writing them would overrun the caller's struct);
 *   - cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync have CUDA 12.8's
 *     failIdx (13 dropped it), the driver's first forms;
 *   - cudaStreamGetCaptureInfo is the 3-argument form of CUDA 11, with _v2
 *     (graph and dependencies) and _v3 (edge data, CUDA 13's form);
 *   - entry points CUDA 13 dropped: cudaThread* (the old names of
 *     cudaDevice*), cudaSetDoubleFor*, cudaEventElapsedTime_v2, the _v2
 *     graph and external-semaphore functions (stubs here, as their CUDA 13
 *     forms are).
 * The CUDA 13 forms of the clashing names are weak (RT_CUDA13_FORM): the
 * definitions here take their place at link time.  A function here whose
 * name has a CUDA 13 prototype in protos.h is written under an rt12_ name
 * and exported under CUDA's through an assembler label (RT_EXPORT_AS).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(abi12);

/* ---- devices ---- */

/* CUDA 12.9's struct cudaDeviceProp, field for field. */
struct cudaDeviceProp12 {
   char name[256];
   cudaUUID_t uuid;
   char luid[8];
   unsigned int luidDeviceNodeMask;
   size_t totalGlobalMem;
   size_t sharedMemPerBlock;
   int regsPerBlock;
   int warpSize;
   size_t memPitch;
   int maxThreadsPerBlock;
   int maxThreadsDim[3];
   int maxGridSize[3];
   int clockRate;
   size_t totalConstMem;
   int major;
   int minor;
   size_t textureAlignment;
   size_t texturePitchAlignment;
   int deviceOverlap;
   int multiProcessorCount;
   int kernelExecTimeoutEnabled;
   int integrated;
   int canMapHostMemory;
   int computeMode;
   int maxTexture1D;
   int maxTexture1DMipmap;
   int maxTexture1DLinear;
   int maxTexture2D[2];
   int maxTexture2DMipmap[2];
   int maxTexture2DLinear[3];
   int maxTexture2DGather[2];
   int maxTexture3D[3];
   int maxTexture3DAlt[3];
   int maxTextureCubemap;
   int maxTexture1DLayered[2];
   int maxTexture2DLayered[3];
   int maxTextureCubemapLayered[2];
   int maxSurface1D;
   int maxSurface2D[2];
   int maxSurface3D[3];
   int maxSurface1DLayered[2];
   int maxSurface2DLayered[3];
   int maxSurfaceCubemap;
   int maxSurfaceCubemapLayered[2];
   size_t surfaceAlignment;
   int concurrentKernels;
   int ECCEnabled;
   int pciBusID;
   int pciDeviceID;
   int pciDomainID;
   int tccDriver;
   int asyncEngineCount;
   int unifiedAddressing;
   int memoryClockRate;
   int memoryBusWidth;
   int l2CacheSize;
   int persistingL2CacheMaxSize;
   int maxThreadsPerMultiProcessor;
   int streamPrioritiesSupported;
   int globalL1CacheSupported;
   int localL1CacheSupported;
   size_t sharedMemPerMultiprocessor;
   int regsPerMultiprocessor;
   int managedMemory;
   int isMultiGpuBoard;
   int multiGpuBoardGroupID;
   int hostNativeAtomicSupported;
   int singleToDoublePrecisionPerfRatio;
   int pageableMemoryAccess;
   int concurrentManagedAccess;
   int computePreemptionSupported;
   int canUseHostPointerForRegisteredMem;
   int cooperativeLaunch;
   int cooperativeMultiDeviceLaunch;
   size_t sharedMemPerBlockOptin;
   int pageableMemoryAccessUsesHostPageTables;
   int directManagedMemAccessFromHost;
   int maxBlocksPerMultiProcessor;
   int accessPolicyMaxWindowSize;
   size_t reservedSharedMemPerBlock;
   int hostRegisterSupported;
   int sparseCudaArraySupported;
   int hostRegisterReadOnlySupported;
   int timelineSemaphoreInteropSupported;
   int memoryPoolsSupported;
   int gpuDirectRDMASupported;
   unsigned int gpuDirectRDMAFlushWritesOptions;
   int gpuDirectRDMAWritesOrdering;
   unsigned int memoryPoolSupportedHandleTypes;
   int deferredMappingCudaArraySupported;
   int ipcEventSupported;
   int clusterLaunch;
   int unifiedFunctionPointers;
   int reserved[63];
};

/* The fields CUDA 12 and 13 share, in CUDA 12's order. */
#define PROP_COMMON_FIELDS(X) \
   X(name) X(uuid) X(luid) X(luidDeviceNodeMask) X(totalGlobalMem) X(sharedMemPerBlock) X(regsPerBlock) \
   X(warpSize) X(memPitch) X(maxThreadsPerBlock) X(maxThreadsDim) X(maxGridSize) X(totalConstMem) X(major) \
   X(minor) X(textureAlignment) X(texturePitchAlignment) X(multiProcessorCount) X(integrated) \
   X(canMapHostMemory) X(maxTexture1D) X(maxTexture1DMipmap) X(maxTexture2D) X(maxTexture2DMipmap) \
   X(maxTexture2DLinear) X(maxTexture2DGather) X(maxTexture3D) X(maxTexture3DAlt) X(maxTextureCubemap) \
   X(maxTexture1DLayered) X(maxTexture2DLayered) X(maxTextureCubemapLayered) X(maxSurface1D) X(maxSurface2D) \
   X(maxSurface3D) X(maxSurface1DLayered) X(maxSurface2DLayered) X(maxSurfaceCubemap) \
   X(maxSurfaceCubemapLayered) X(surfaceAlignment) X(concurrentKernels) X(ECCEnabled) X(pciBusID) \
   X(pciDeviceID) X(pciDomainID) X(tccDriver) X(asyncEngineCount) X(unifiedAddressing) X(memoryBusWidth) \
   X(l2CacheSize) X(persistingL2CacheMaxSize) X(maxThreadsPerMultiProcessor) X(streamPrioritiesSupported) \
   X(globalL1CacheSupported) X(localL1CacheSupported) X(sharedMemPerMultiprocessor) X(regsPerMultiprocessor) \
   X(managedMemory) X(isMultiGpuBoard) X(multiGpuBoardGroupID) X(hostNativeAtomicSupported) \
   X(pageableMemoryAccess) X(concurrentManagedAccess) X(computePreemptionSupported) \
   X(canUseHostPointerForRegisteredMem) X(cooperativeLaunch) X(sharedMemPerBlockOptin) \
   X(pageableMemoryAccessUsesHostPageTables) X(directManagedMemAccessFromHost) X(maxBlocksPerMultiProcessor) \
   X(accessPolicyMaxWindowSize) X(reservedSharedMemPerBlock) X(hostRegisterSupported) \
   X(sparseCudaArraySupported) X(hostRegisterReadOnlySupported) X(timelineSemaphoreInteropSupported) \
   X(memoryPoolsSupported) X(gpuDirectRDMASupported) X(gpuDirectRDMAFlushWritesOptions) \
   X(gpuDirectRDMAWritesOrdering) X(memoryPoolSupportedHandleTypes) X(deferredMappingCudaArraySupported) \
   X(ipcEventSupported) X(clusterLaunch) X(unifiedFunctionPointers)

/* CUDA 12's properties of device: CUDA 13's and the attributes of the
 * fields 13 dropped. */
static void fill_props12(struct cudaDeviceProp12 *p, int device)
{
   struct cudaDeviceProp q;
   rt_fill_props(&q, device);
   memset(p, 0, sizeof(*p));
#define COPY(f) memcpy(&p->f, &q.f, sizeof(p->f));
   PROP_COMMON_FIELDS(COPY)
#undef COPY
   static const struct { size_t off; CUdevice_attribute attr; } dropped[] = {
      { offsetof(struct cudaDeviceProp12, clockRate), CU_DEVICE_ATTRIBUTE_CLOCK_RATE },
      { offsetof(struct cudaDeviceProp12, deviceOverlap), CU_DEVICE_ATTRIBUTE_GPU_OVERLAP },
      { offsetof(struct cudaDeviceProp12, kernelExecTimeoutEnabled), CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT },
      { offsetof(struct cudaDeviceProp12, computeMode), CU_DEVICE_ATTRIBUTE_COMPUTE_MODE },
      { offsetof(struct cudaDeviceProp12, maxTexture1DLinear), CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH },
      { offsetof(struct cudaDeviceProp12, memoryClockRate), CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE },
      { offsetof(struct cudaDeviceProp12, singleToDoublePrecisionPerfRatio),
        CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO },
      { offsetof(struct cudaDeviceProp12, cooperativeMultiDeviceLaunch),
        CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH },
   };
   for (size_t i = 0; i < ARRAY_SIZE(dropped); i++) {
      int v = 0;
      if (cuDeviceGetAttribute(&v, dropped[i].attr, device) != CUDA_SUCCESS)
         v = 0;
      memcpy((char *)p + dropped[i].off, &v, sizeof(v));
   }
}

/* ==== cudaGetDeviceProperties_v2 (libcudart.so.12) ==== what CUDA 12's
 * cudaGetDeviceProperties is */
MC_EXPORT cudaError_t CUDARTAPI cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *prop, int device);
MC_EXPORT cudaError_t CUDARTAPI cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *prop, int device)
{
   RT_ENTER("prop=%p device=%d", (void *)prop, device);
   RT_CHECK(prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   fill_props12(prop, device);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaGetDeviceProperties (libcudart.so.12, .11.0) ==== CUDA 11's
 * struct: CUDA 12's up to hostRegisterSupported */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGetDeviceProperties(void *prop, int device) RT_EXPORT_AS(cudaGetDeviceProperties);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGetDeviceProperties(void *prop, int device)
{
   RT_ENTER("prop=%p device=%d", prop, device);
   RT_CHECK(prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   struct cudaDeviceProp12 p;
   fill_props12(&p, device);
   memcpy(prop, &p, offsetof(struct cudaDeviceProp12, hostRegisterSupported));
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaChooseDevice (libcudart.so.12, .11.0) ==== the fields it asks
 * for, read from CUDA 12's struct (CUDA 11's has them at the same places) */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaChooseDevice(int *device, const struct cudaDeviceProp12 *prop)
   RT_EXPORT_AS(cudaChooseDevice);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaChooseDevice(int *device, const struct cudaDeviceProp12 *prop)
{
   RT_ENTER("device=%p prop=%p", (void *)device, (const void *)prop);
   RT_CHECK(device && prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   struct cudaDeviceProp want;
   memset(&want, 0, sizeof(want));
   want.major = prop->major;
   want.minor = prop->minor;
   want.totalGlobalMem = prop->totalGlobalMem;
   want.multiProcessorCount = prop->multiProcessorCount;
   *device = rt_choose_device(&want);
   return RT_RETURN(cudaSuccess);
}

/* ---- the old names of device functions (cudaThread*, deprecated since
 * CUDA 4, gone in 13): the cudaDevice* they were renamed to ---- */

MC_EXPORT cudaError_t CUDARTAPI cudaThreadExit(void);
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSynchronize(void);
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSetLimit(enum cudaLimit limit, size_t value);
MC_EXPORT cudaError_t CUDARTAPI cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
MC_EXPORT cudaError_t CUDARTAPI cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);

/* ==== cudaThreadExit (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadExit(void)
{
   RT_ENTER_VOID();
   return RT_RETURN(cudaDeviceReset());
}

/* ==== cudaThreadSynchronize (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSynchronize(void)
{
   RT_ENTER_VOID();
   return RT_RETURN(cudaDeviceSynchronize());
}

/* ==== cudaThreadSetLimit (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
   RT_ENTER("limit=%d value=%zu", (int)limit, value);
   return RT_RETURN(cudaDeviceSetLimit(limit, value));
}

/* ==== cudaThreadGetLimit (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
{
   RT_ENTER("pValue=%p limit=%d", (void *)pValue, (int)limit);
   RT_CHECK(pValue, cudaErrorInvalidValue);
   return RT_RETURN(cudaDeviceGetLimit(pValue, limit));
}

/* ==== cudaThreadGetCacheConfig (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
   RT_ENTER("pCacheConfig=%p", (void *)pCacheConfig);
   RT_CHECK(pCacheConfig, cudaErrorInvalidValue);
   return RT_RETURN(cudaDeviceGetCacheConfig(pCacheConfig));
}

/* ==== cudaThreadSetCacheConfig (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
{
   RT_ENTER("cacheConfig=%d", (int)cacheConfig);
   return RT_RETURN(cudaDeviceSetCacheConfig(cacheConfig));
}

MC_EXPORT cudaError_t CUDARTAPI cudaSetDoubleForDevice(double *d);
MC_EXPORT cudaError_t CUDARTAPI cudaSetDoubleForHost(double *d);

/* ==== cudaSetDoubleForDevice (libcudart.so.12) ==== nothing to convert:
 * the device computes in IEEE double (deprecated since CUDA 7.5, where
 * NVIDIA's also only checks its argument) */
MC_EXPORT cudaError_t CUDARTAPI cudaSetDoubleForDevice(double *d)
{
   RT_ENTER("d=%p", (void *)d);
   RT_CHECK(d, cudaErrorInvalidValue);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaSetDoubleForHost (libcudart.so.12) ==== as above */
MC_EXPORT cudaError_t CUDARTAPI cudaSetDoubleForHost(double *d)
{
   RT_ENTER("d=%p", (void *)d);
   RT_CHECK(d, cudaErrorInvalidValue);
   return RT_RETURN(cudaSuccess);
}

/* ---- batches of copies (CUDA 12.8's forms) ---- */

/* ==== cudaMemcpyBatchAsync (libcudart.so.12) ==== with failIdx */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                          struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                          size_t numAttrs, size_t *failIdx, cudaStream_t stream)
   RT_EXPORT_AS(cudaMemcpyBatchAsync);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                          struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                          size_t numAttrs, size_t *failIdx, cudaStream_t stream)
{
   RT_ENTER("dsts=%p srcs=%p sizes=%p count=%zu attrs=%p attrsIdxs=%p numAttrs=%zu failIdx=%p stream=%p",
            (void *)dsts, (void *)srcs, (void *)sizes, count, (void *)attrs, (void *)attrsIdxs, numAttrs,
            (void *)failIdx, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemcpyBatchAsync((CUdeviceptr *)(void *)dsts, (CUdeviceptr *)(void *)srcs, sizes, count,
                                          (CUmemcpyAttributes *)(void *)attrs, attrsIdxs, numAttrs, failIdx,
                                          stream));
}

/* ==== cudaMemcpyBatchAsync_ptsz (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                               struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                               size_t numAttrs, size_t *failIdx, cudaStream_t stream)
   RT_EXPORT_AS(cudaMemcpyBatchAsync_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                               struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                               size_t numAttrs, size_t *failIdx, cudaStream_t stream)
{
   return rt12_cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
                                    stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemcpy3DBatchAsync (libcudart.so.12) ==== with failIdx */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                            size_t *failIdx, unsigned long long flags,
                                                            cudaStream_t stream) RT_EXPORT_AS(cudaMemcpy3DBatchAsync);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                            size_t *failIdx, unsigned long long flags,
                                                            cudaStream_t stream)
{
   RT_ENTER("numOps=%zu opList=%p failIdx=%p flags=%#llx stream=%p", numOps, (void *)opList, (void *)failIdx, flags,
            (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(
      cuMemcpy3DBatchAsync(numOps, (CUDA_MEMCPY3D_BATCH_OP *)(void *)opList, failIdx, flags, stream));
}

/* ==== cudaMemcpy3DBatchAsync_ptsz (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                                 size_t *failIdx, unsigned long long flags,
                                                                 cudaStream_t stream)
   RT_EXPORT_AS(cudaMemcpy3DBatchAsync_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                                 size_t *failIdx, unsigned long long flags,
                                                                 cudaStream_t stream)
{
   return rt12_cudaMemcpy3DBatchAsync(numOps, opList, failIdx, flags, stream ? stream : cudaStreamPerThread);
}

/* ---- managed memory hints ---- */

/* ==== cudaMemPrefetchAsync (libcudart.so.12, .11.0) ==== to a device
 * ordinal (cudaCpuDeviceId: the host), as the driver's first form */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                                          cudaStream_t stream) RT_EXPORT_AS(cudaMemPrefetchAsync);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                                          cudaStream_t stream)
{
   RT_ENTER("devPtr=%p count=%zu dstDevice=%d stream=%p", devPtr, count, dstDevice, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemPrefetchAsync((CUdeviceptr)(uintptr_t)devPtr, count, dstDevice, (CUstream)stream));
}

/* ==== cudaMemPrefetchAsync_ptsz (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice,
                                                               cudaStream_t stream)
   RT_EXPORT_AS(cudaMemPrefetchAsync_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice,
                                                               cudaStream_t stream)
{
   return rt12_cudaMemPrefetchAsync(devPtr, count, dstDevice, stream ? stream : cudaStreamPerThread);
}

MC_EXPORT cudaError_t CUDARTAPI cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                                        struct cudaMemLocation location, unsigned int flags,
                                                        cudaStream_t stream);
MC_EXPORT cudaError_t CUDARTAPI cudaMemPrefetchAsync_v2_ptsz(const void *devPtr, size_t count,
                                                             struct cudaMemLocation location, unsigned int flags,
                                                             cudaStream_t stream);

/* ==== cudaMemPrefetchAsync_v2 (libcudart.so.12) ==== CUDA 13's form */
MC_EXPORT cudaError_t CUDARTAPI cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                                        struct cudaMemLocation location, unsigned int flags,
                                                        cudaStream_t stream)
{
   RT_ENTER("devPtr=%p count=%zu location={type=%d id=%d} flags=%#x stream=%p", devPtr, count, (int)location.type,
            location.id, flags, (void *)stream);
   return RT_RETURN(rt_mem_prefetch(devPtr, count, location, flags, stream));
}

/* ==== cudaMemPrefetchAsync_v2_ptsz (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaMemPrefetchAsync_v2_ptsz(const void *devPtr, size_t count,
                                                             struct cudaMemLocation location, unsigned int flags,
                                                             cudaStream_t stream)
{
   return cudaMemPrefetchAsync_v2(devPtr, count, location, flags, stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemAdvise (libcudart.so.12, .11.0) ==== for a device ordinal */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                   int device) RT_EXPORT_AS(cudaMemAdvise);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                   int device)
{
   RT_ENTER("devPtr=%p count=%zu advice=%d device=%d", devPtr, count, (int)advice, device);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMemAdvise((CUdeviceptr)(uintptr_t)devPtr, count, (CUmem_advise)advice, device));
}

MC_EXPORT cudaError_t CUDARTAPI cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                 struct cudaMemLocation location);

/* ==== cudaMemAdvise_v2 (libcudart.so.12) ==== CUDA 13's form */
MC_EXPORT cudaError_t CUDARTAPI cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                 struct cudaMemLocation location)
{
   RT_ENTER("devPtr=%p count=%zu advice=%d location={type=%d id=%d}", devPtr, count, (int)advice,
            (int)location.type, location.id);
   return RT_RETURN(rt_mem_advise(devPtr, count, advice, location));
}

/* ---- pointers ---- */

/* CUDA 11 and 12's struct cudaPointerAttributes. */
struct cudaPointerAttributes12 {
   enum cudaMemoryType type;
   int device;
   void *devicePointer;
   void *hostPointer;
};

/* ==== cudaPointerGetAttributes (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaPointerGetAttributes(struct cudaPointerAttributes12 *attributes,
                                                              const void *ptr) RT_EXPORT_AS(cudaPointerGetAttributes);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaPointerGetAttributes(struct cudaPointerAttributes12 *attributes,
                                                              const void *ptr)
{
   RT_ENTER("attributes=%p ptr=%p", (void *)attributes, ptr);
   RT_CHECK(attributes, cudaErrorInvalidValue);
   struct cudaPointerAttributes a;
   cudaError_t e = rt_pointer_attributes(&a, ptr);
   if (e == cudaSuccess) {
      attributes->type = a.type;
      attributes->device = a.device;
      attributes->devicePointer = a.devicePointer;
      attributes->hostPointer = a.hostPointer;
   }
   return RT_RETURN(e);
}

/* ---- events ---- */

MC_EXPORT cudaError_t CUDARTAPI cudaEventElapsedTime_v2(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ==== cudaEventElapsedTime_v2 (libcudart.so.12) ==== CUDA 12.8's name of
 * what CUDA 13 calls cudaEventElapsedTime */
MC_EXPORT cudaError_t CUDARTAPI cudaEventElapsedTime_v2(float *ms, cudaEvent_t start, cudaEvent_t end)
{
   RT_ENTER("ms=%p start=%p end=%p", (void *)ms, (void *)start, (void *)end);
   return RT_RETURN(cudaEventElapsedTime(ms, start, end));
}

/* ---- stream capture queries ---- */

/* ==== cudaStreamGetCaptureInfo (libcudart.so.12, .11.0) ==== the
 * three-argument form of CUDA 11 (the driver's first form) */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                              enum cudaStreamCaptureStatus *captureStatus_out,
                                                              unsigned long long *id_out)
   RT_EXPORT_AS(cudaStreamGetCaptureInfo);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                              enum cudaStreamCaptureStatus *captureStatus_out,
                                                              unsigned long long *id_out)
{
   RT_ENTER("stream=%p captureStatus_out=%p id_out=%p", (void *)stream, (void *)captureStatus_out, (void *)id_out);
   RT_CHECK(captureStatus_out, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUstreamCaptureStatus st;
   cuuint64_t id = 0;
   CUresult r = cuStreamGetCaptureInfo((CUstream)stream, &st, &id);
   if (r == CUDA_SUCCESS) {
      *captureStatus_out = (enum cudaStreamCaptureStatus)st;
      if (id_out)
         *id_out = id;
   }
   return RT_RETURN_CU(r);
}

/* ==== cudaStreamGetCaptureInfo_ptsz (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                                   enum cudaStreamCaptureStatus *captureStatus_out,
                                                                   unsigned long long *id_out)
   RT_EXPORT_AS(cudaStreamGetCaptureInfo_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                                   enum cudaStreamCaptureStatus *captureStatus_out,
                                                                   unsigned long long *id_out)
{
   return rt12_cudaStreamGetCaptureInfo(stream ? stream : cudaStreamPerThread, captureStatus_out, id_out);
}

MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                                            const cudaGraphNode_t **dependencies_out,
                                                            size_t *numDependencies_out);
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t stream,
                                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                                 unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                 const cudaGraphNode_t **dependencies_out,
                                                                 size_t *numDependencies_out);
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
                                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                                            const cudaGraphNode_t **dependencies_out,
                                                            const cudaGraphEdgeData **edgeData_out,
                                                            size_t *numDependencies_out);
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream,
                                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                                 unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                 const cudaGraphNode_t **dependencies_out,
                                                                 const cudaGraphEdgeData **edgeData_out,
                                                                 size_t *numDependencies_out);

/* ==== cudaStreamGetCaptureInfo_v2 (libcudart.so.12, .11.0) ==== with the
 * capture's graph and dependencies, the driver's _v2 */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                                            const cudaGraphNode_t **dependencies_out,
                                                            size_t *numDependencies_out)
{
   RT_ENTER("stream=%p captureStatus_out=%p id_out=%p graph_out=%p dependencies_out=%p numDependencies_out=%p",
            (void *)stream, (void *)captureStatus_out, (void *)id_out, (void *)graph_out, (void *)dependencies_out,
            (void *)numDependencies_out);
   RT_CHECK(captureStatus_out, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUstreamCaptureStatus st;
   CUresult r = cuStreamGetCaptureInfo_v2((CUstream)stream, &st, (cuuint64_t *)id_out, graph_out,
                                          dependencies_out, numDependencies_out);
   if (r == CUDA_SUCCESS)
      *captureStatus_out = (enum cudaStreamCaptureStatus)st;
   return RT_RETURN_CU(r);
}

/* ==== cudaStreamGetCaptureInfo_v2_ptsz (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t stream,
                                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                                 unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                 const cudaGraphNode_t **dependencies_out,
                                                                 size_t *numDependencies_out)
{
   return cudaStreamGetCaptureInfo_v2(stream ? stream : cudaStreamPerThread, captureStatus_out, id_out, graph_out,
                                      dependencies_out, numDependencies_out);
}

/* ==== cudaStreamGetCaptureInfo_v3 (libcudart.so.12) ==== with edge data:
 * CUDA 13's cudaStreamGetCaptureInfo */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
                                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                                            const cudaGraphNode_t **dependencies_out,
                                                            const cudaGraphEdgeData **edgeData_out,
                                                            size_t *numDependencies_out)
{
   RT_ENTER("stream=%p captureStatus_out=%p id_out=%p graph_out=%p dependencies_out=%p edgeData_out=%p "
            "numDependencies_out=%p",
            (void *)stream, (void *)captureStatus_out, (void *)id_out, (void *)graph_out, (void *)dependencies_out,
            (void *)edgeData_out, (void *)numDependencies_out);
   return RT_RETURN(rt_capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out));
}

/* ==== cudaStreamGetCaptureInfo_v3_ptsz (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream,
                                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                                 unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                 const cudaGraphNode_t **dependencies_out,
                                                                 const cudaGraphEdgeData **edgeData_out,
                                                                 size_t *numDependencies_out)
{
   return cudaStreamGetCaptureInfo_v3(stream ? stream : cudaStreamPerThread, captureStatus_out, id_out, graph_out,
                                      dependencies_out, edgeData_out, numDependencies_out);
}

/* ---- CUDA 12 entry points not implemented (their CUDA 13 forms are
 * stubs too: graphs, multi-device cooperative launches, external
 * semaphores) ---- */
RT_DEFINE_STUB(cudaLaunchCooperativeKernelMultiDevice)
RT_DEFINE_STUB(cudaSignalExternalSemaphoresAsync_v2)
RT_DEFINE_STUB(cudaSignalExternalSemaphoresAsync_v2_ptsz)
RT_DEFINE_STUB(cudaWaitExternalSemaphoresAsync_v2)
RT_DEFINE_STUB(cudaWaitExternalSemaphoresAsync_v2_ptsz)

/* ---- graphs: CUDA 12's forms without edge data, and its _v2 forms with
 * them (what CUDA 13 names without _v2) ---- */

/* The _v2 names CUDA 12 exports and CUDA 13's headers no longer declare. */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphAddNode_v2(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *,
                                                    const cudaGraphEdgeData *, size_t, struct cudaGraphNodeParams *);
MC_EXPORT cudaError_t CUDARTAPI cudaGraphGetEdges_v2(cudaGraph_t, cudaGraphNode_t *, cudaGraphNode_t *,
                                                     cudaGraphEdgeData *, size_t *);
MC_EXPORT cudaError_t CUDARTAPI cudaGraphNodeGetDependencies_v2(cudaGraphNode_t, cudaGraphNode_t *,
                                                                cudaGraphEdgeData *, size_t *);
MC_EXPORT cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t, cudaGraphNode_t *,
                                                                  cudaGraphEdgeData *, size_t *);
MC_EXPORT cudaError_t CUDARTAPI cudaGraphAddDependencies_v2(cudaGraph_t, const cudaGraphNode_t *,
                                                            const cudaGraphNode_t *, const cudaGraphEdgeData *,
                                                            size_t);
MC_EXPORT cudaError_t CUDARTAPI cudaGraphRemoveDependencies_v2(cudaGraph_t, const cudaGraphNode_t *,
                                                               const cudaGraphNode_t *, const cudaGraphEdgeData *,
                                                               size_t);
MC_EXPORT cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2(cudaStream_t, cudaGraphNode_t *,
                                                                       const cudaGraphEdgeData *, size_t,
                                                                       unsigned int);
MC_EXPORT cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2_ptsz(cudaStream_t, cudaGraphNode_t *,
                                                                            const cudaGraphEdgeData *, size_t,
                                                                            unsigned int);

/* ==== cudaGraphAddNode (libcudart.so.12) ==== CUDA 12.2's form */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                      struct cudaGraphNodeParams *nodeParams)
   RT_EXPORT_AS(cudaGraphAddNode);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                      struct cudaGraphNodeParams *nodeParams)
{
   return cudaGraphAddNode(pGraphNode, graph, pDependencies, NULL, numDependencies, nodeParams);
}

/* ==== cudaGraphAddNode_v2 (libcudart.so.12) ==== with edge data */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                    const cudaGraphNode_t *pDependencies,
                                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                    struct cudaGraphNodeParams *nodeParams)
{
   return cudaGraphAddNode(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}

/* ==== cudaGraphGetEdges (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                       size_t *numEdges) RT_EXPORT_AS(cudaGraphGetEdges);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                       size_t *numEdges)
{
   return cudaGraphGetEdges(graph, from, to, NULL, numEdges);
}

/* ==== cudaGraphGetEdges_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                     cudaGraphEdgeData *edgeData, size_t *numEdges)
{
   return cudaGraphGetEdges(graph, from, to, edgeData, numEdges);
}

/* ==== cudaGraphNodeGetDependencies (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                                                  size_t *n) RT_EXPORT_AS(cudaGraphNodeGetDependencies);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                                                  size_t *n)
{
   return cudaGraphNodeGetDependencies(node, deps, NULL, n);
}

/* ==== cudaGraphNodeGetDependencies_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                                                cudaGraphEdgeData *edgeData, size_t *n)
{
   return cudaGraphNodeGetDependencies(node, deps, edgeData, n);
}

/* ==== cudaGraphNodeGetDependentNodes (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *outs,
                                                                    size_t *n)
   RT_EXPORT_AS(cudaGraphNodeGetDependentNodes);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *outs,
                                                                    size_t *n)
{
   return cudaGraphNodeGetDependentNodes(node, outs, NULL, n);
}

/* ==== cudaGraphNodeGetDependentNodes_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node, cudaGraphNode_t *outs,
                                                                  cudaGraphEdgeData *edgeData, size_t *n)
{
   return cudaGraphNodeGetDependentNodes(node, outs, edgeData, n);
}

/* ==== cudaGraphAddDependencies (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                              const cudaGraphNode_t *to, size_t n)
   RT_EXPORT_AS(cudaGraphAddDependencies);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                              const cudaGraphNode_t *to, size_t n)
{
   return cudaGraphAddDependencies(graph, from, to, NULL, n);
}

/* ==== cudaGraphAddDependencies_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                            const cudaGraphNode_t *to,
                                                            const cudaGraphEdgeData *edgeData, size_t n)
{
   return cudaGraphAddDependencies(graph, from, to, edgeData, n);
}

/* ==== cudaGraphRemoveDependencies (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                 const cudaGraphNode_t *to, size_t n)
   RT_EXPORT_AS(cudaGraphRemoveDependencies);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                 const cudaGraphNode_t *to, size_t n)
{
   return cudaGraphRemoveDependencies(graph, from, to, NULL, n);
}

/* ==== cudaGraphRemoveDependencies_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                               const cudaGraphNode_t *to,
                                                               const cudaGraphEdgeData *edgeData, size_t n)
{
   return cudaGraphRemoveDependencies(graph, from, to, edgeData, n);
}

/* ==== cudaStreamUpdateCaptureDependencies (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                                         size_t n, unsigned int flags)
   RT_EXPORT_AS(cudaStreamUpdateCaptureDependencies);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                                         size_t n, unsigned int flags)
{
   return cudaStreamUpdateCaptureDependencies(stream, deps, NULL, n, flags);
}

/* ==== cudaStreamUpdateCaptureDependencies_ptsz (libcudart.so.12, .11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                              cudaGraphNode_t *deps, size_t n,
                                                                              unsigned int flags)
   RT_EXPORT_AS(cudaStreamUpdateCaptureDependencies_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt12_cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                              cudaGraphNode_t *deps, size_t n,
                                                                              unsigned int flags)
{
   return cudaStreamUpdateCaptureDependencies(stream ? stream : cudaStreamPerThread, deps, NULL, n, flags);
}

/* ==== cudaStreamUpdateCaptureDependencies_v2 (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *deps,
                                                                       const cudaGraphEdgeData *edgeData, size_t n,
                                                                       unsigned int flags)
{
   return cudaStreamUpdateCaptureDependencies(stream, deps, edgeData, n, flags);
}

/* ==== cudaStreamUpdateCaptureDependencies_v2_ptsz (libcudart.so.12) ==== */
MC_EXPORT cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2_ptsz(cudaStream_t stream,
                                                                            cudaGraphNode_t *deps,
                                                                            const cudaGraphEdgeData *edgeData,
                                                                            size_t n, unsigned int flags)
{
   return cudaStreamUpdateCaptureDependencies(stream ? stream : cudaStreamPerThread, deps, edgeData, n, flags);
}
