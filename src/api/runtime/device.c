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

static void attr3(int *out, CUdevice_attribute a, CUdevice_attribute b, CUdevice_attribute c, int dev)
{
   out[0] = attr(a, dev);
   out[1] = attr(b, dev);
   out[2] = attr(c, dev);
}

static void fill_texture_props(struct cudaDeviceProp *p, int dev)
{
   p->maxTexture1D = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, dev);
   p->maxTexture1DMipmap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, dev);
   p->maxTexture2D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, dev);
   p->maxTexture2D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, dev);
   p->maxTexture2DMipmap[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, dev);
   p->maxTexture2DMipmap[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, dev);
   attr3(p->maxTexture2DLinear, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, dev);
   p->maxTexture2DGather[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH, dev);
   p->maxTexture2DGather[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT, dev);
   attr3(p->maxTexture3D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, dev);
   attr3(p->maxTexture3DAlt, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE,
         dev);
   p->maxTextureCubemap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH, dev);
   p->maxTexture1DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, dev);
   p->maxTexture1DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, dev);
   attr3(p->maxTexture2DLayered, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
         dev);
   p->maxTextureCubemapLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, dev);
   p->maxTextureCubemapLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, dev);
   p->maxSurface1D = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, dev);
   p->maxSurface2D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, dev);
   p->maxSurface2D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, dev);
   attr3(p->maxSurface3D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, dev);
   p->maxSurface1DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, dev);
   p->maxSurface1DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, dev);
   attr3(p->maxSurface2DLayered, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH,
         CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS,
         dev);
   p->maxSurfaceCubemap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH, dev);
   p->maxSurfaceCubemapLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, dev);
   p->maxSurfaceCubemapLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, dev);
   p->textureAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev);
   p->texturePitchAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, dev);
   p->surfaceAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT, dev);
}

static void fill_memory_props(struct cudaDeviceProp *p, int dev)
{
   size_t total = 0;
   cuDeviceTotalMem_v2(&total, dev);
   p->totalGlobalMem = total;
   p->memPitch = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH, dev);
   p->totalConstMem = (size_t)attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, dev);
   p->integrated = attr(CU_DEVICE_ATTRIBUTE_INTEGRATED, dev);
   p->canMapHostMemory = attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, dev);
   p->ECCEnabled = attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED, dev);
   p->unifiedAddressing = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev);
   p->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev);
   p->l2CacheSize = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
   p->persistingL2CacheMaxSize = attr(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, dev);
   p->globalL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, dev);
   p->localL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, dev);
   p->managedMemory = attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, dev);
   p->hostNativeAtomicSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, dev);
   p->pageableMemoryAccess = attr(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, dev);
   p->concurrentManagedAccess = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev);
   p->canUseHostPointerForRegisteredMem = attr(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, dev);
   p->pageableMemoryAccessUsesHostPageTables = attr(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, dev);
   p->directManagedMemAccessFromHost = attr(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, dev);
   p->accessPolicyMaxWindowSize = attr(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, dev);
   p->hostRegisterSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, dev);
   p->sparseCudaArraySupported = attr(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, dev);
   p->hostRegisterReadOnlySupported = attr(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, dev);
   p->timelineSemaphoreInteropSupported = attr(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, dev);
   p->memoryPoolsSupported = attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev);
   p->gpuDirectRDMASupported = attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED, dev);
   p->gpuDirectRDMAFlushWritesOptions = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, dev);
   p->gpuDirectRDMAWritesOrdering = attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING, dev);
   p->memoryPoolSupportedHandleTypes = (unsigned)attr(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, dev);
   p->deferredMappingCudaArraySupported = attr(CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, dev);
   p->ipcEventSupported = attr(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, dev);
   p->unifiedFunctionPointers = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS, dev);
   p->deviceNumaConfig = attr(CU_DEVICE_ATTRIBUTE_NUMA_CONFIG, dev);
   p->deviceNumaId = attr(CU_DEVICE_ATTRIBUTE_NUMA_ID, dev);
   p->hostNumaId = attr(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, dev);
   p->hostNumaMultinodeIpcSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED, dev);
}

static void fill_execution_props(struct cudaDeviceProp *p, int dev)
{
   p->sharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, dev);
   p->regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, dev);
   p->warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
   p->maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
   attr3(p->maxThreadsDim, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, dev);
   attr3(p->maxGridSize, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
         CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, dev);
   p->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
   p->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
   p->multiProcessorCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
   p->concurrentKernels = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, dev);
   p->asyncEngineCount = attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, dev);
   p->maxThreadsPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
   p->streamPrioritiesSupported = attr(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, dev);
   p->sharedMemPerMultiprocessor = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev);
   p->regsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, dev);
   p->computePreemptionSupported = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED, dev);
   p->cooperativeLaunch = attr(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, dev);
   p->sharedMemPerBlockOptin = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
   p->maxBlocksPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev);
   p->reservedSharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, dev);
   p->clusterLaunch = attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, dev);
   p->mpsEnabled = attr(CU_DEVICE_ATTRIBUTE_MPS_ENABLED, dev);
}

/* Every field of CUDA 13's cudaDeviceProp, from the driver's attributes
 * (luid and luidDeviceNodeMask are Windows-only: zero, as on Linux). */
void rt_fill_props(struct cudaDeviceProp *p, int dev)
{
   memset(p, 0, sizeof(*p));
   cuDeviceGetName(p->name, sizeof(p->name), dev);
   cuDeviceGetUuid(&p->uuid, dev);
   fill_memory_props(p, dev);
   fill_execution_props(p, dev);
   fill_texture_props(p, dev);
   p->pciBusID = attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
   p->pciDeviceID = attr(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
   p->pciDomainID = attr(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
   p->tccDriver = attr(CU_DEVICE_ATTRIBUTE_TCC_DRIVER, dev);
   p->isMultiGpuBoard = attr(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD, dev);
   p->multiGpuBoardGroupID = attr(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID, dev);
   p->gpuPciDeviceID = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, dev);
   p->gpuPciSubsystemID = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID, dev);
}

/* ==== cudaGetDeviceProperties (libcudart.@) ==== CUDA 13's struct (abi12.c
 * has the older ones) */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
   RT_ENTER("prop=%p device=%d", (void *)prop, device);
   RT_CHECK(prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   rt_fill_props(prop, device);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaDeviceSynchronize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSynchronize(void)
{
   RT_ENTER_VOID();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxSynchronize());
}

/* ==== cudaDeviceSetLimit (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
   RT_ENTER("limit=%d value=%zu", (int)limit, value);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxSetLimit((CUlimit)limit, value));
}

/* ==== cudaDeviceGetLimit (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
   RT_ENTER("pValue=%p limit=%d", (void *)pValue, (int)limit);
   RT_CHECK(pValue, cudaErrorInvalidValue);
   RT_NEED_CTX();
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
   *runtimeVersion = rt_runtime_version();
   return RT_RETURN(cudaSuccess);
}

static bool valid_device(int device) { return device >= 0 && device < rt_device_count(); }

/* ==== cudaDeviceGetAttribute (libcudart.@) ==== cudaDeviceAttr numbers are
 * the driver's CUdevice_attribute numbers: an unknown one is
 * cudaErrorInvalidValue there */
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
   RT_ENTER("value=%p attr=%d device=%d", (void *)value, (int)attr, device);
   RT_CHECK(value, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(valid_device(device), cudaErrorInvalidDevice);
   return RT_RETURN_CU(cuDeviceGetAttribute(value, (CUdevice_attribute)attr, device));
}

/* How well device d matches what prop asks for: the compute capability
 * first, then the memory, then the multiprocessors (fields left 0 ask for
 * nothing). */
static int match_score(const struct cudaDeviceProp *want, int d)
{
   struct cudaDeviceProp p;
   rt_fill_props(&p, d);
   int score = 0;
   if (want->major || want->minor)
      score += (p.major > want->major || (p.major == want->major && p.minor >= want->minor)) ? 4 : 0;
   score += p.totalGlobalMem >= want->totalGlobalMem ? 2 : 0;
   score += p.multiProcessorCount >= want->multiProcessorCount ? 1 : 0;
   return score;
}

int rt_choose_device(const struct cudaDeviceProp *want)
{
   int best = 0, best_score = -1;
   for (int d = 0; d < rt_device_count(); d++) {
      int s = match_score(want, d);
      if (s > best_score) {
         best = d;
         best_score = s;
      }
   }
   return best;
}

/* ==== cudaChooseDevice (libcudart.@) ==== the best match, the lowest
 * ordinal among equals (CUDA 12's struct: abi12.c) */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
   RT_ENTER("device=%p prop=%p", (void *)device, (const void *)prop);
   RT_CHECK(device && prop, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   *device = rt_choose_device(prop);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaSetValidDevices (libcudart.@) ==== the devices an implicit
 * context may be made on, in order.  metalcuda has one device, so a valid
 * list (no longer than the device count, each entry an ordinal) is [0] or
 * empty, and both leave device 0 the one chosen: checking it is all there
 * is to do. */
cudaError_t CUDARTAPI cudaSetValidDevices(int *device_arr, int len)
{
   RT_ENTER("device_arr=%p len=%d", (void *)device_arr, len);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(len >= 0 && (len == 0 || device_arr) && len <= rt_device_count(), cudaErrorInvalidValue);
   for (int k = 0; k < len; k++)
      RT_CHECK(valid_device(device_arr[k]), cudaErrorInvalidDevice);
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaDeviceCanAccessPeer (libcudart.@) ==== 0 for every pair,
 * including a device and itself (NVIDIA: success and 0) */
cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
   RT_ENTER("canAccessPeer=%p device=%d peerDevice=%d", (void *)canAccessPeer, device, peerDevice);
   RT_CHECK(canAccessPeer, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceCanAccessPeer(canAccessPeer, device, peerDevice));
}

/* ==== cudaDeviceGetP2PAttribute (libcudart.@) ==== the driver's answer
 * (cudaDeviceP2PAttr and CUdevice_P2PAttribute have the same values):
 * cudaErrorInvalidDevice for srcDevice == dstDevice, as NVIDIA answers */
cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
                                                int dstDevice)
{
   RT_ENTER("value=%p attr=%d srcDevice=%d dstDevice=%d", (void *)value, (int)attr, srcDevice, dstDevice);
   RT_CHECK(value, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceGetP2PAttribute(value, (CUdevice_P2PAttribute)attr, srcDevice, dstDevice));
}

/* ==== cudaDeviceEnablePeerAccess (libcudart.@) ==== no device can access
 * another's memory: cudaErrorPeerAccessUnsupported, also for the current
 * device itself (as NVIDIA answers on a one-GPU machine) */
cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
   RT_ENTER("peerDevice=%d flags=%#x", peerDevice, flags);
   RT_NEED_CTX();
   RT_CHECK(valid_device(peerDevice), cudaErrorInvalidDevice);
   RT_CHECK(flags == 0, cudaErrorInvalidValue);
   int can = 0;
   CUresult r = cuDeviceCanAccessPeer(&can, rt_current_device(), peerDevice);
   if (r != CUDA_SUCCESS)
      return RT_RETURN_CU(r);
   RT_CHECK(can, cudaErrorPeerAccessUnsupported);
   RT_NOT_SUPPORTED("peer access");   /* unreachable while no device can */
}

/* ==== cudaDeviceDisablePeerAccess (libcudart.@) ==== it was never enabled */
cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice)
{
   RT_ENTER("peerDevice=%d", peerDevice);
   RT_NEED_CTX();
   RT_CHECK(valid_device(peerDevice), cudaErrorInvalidDevice);
   return RT_RETURN(cudaErrorPeerAccessNotEnabled);
}

/* The flags cudaSetDeviceFlags accepts: inside cudaDeviceMask, one
 * scheduling mode.  What each does here: src/core/limits.c. */
static bool device_flags_ok(unsigned flags)
{
   unsigned sched = flags & cudaDeviceScheduleMask;
   return !(flags & ~(unsigned)cudaDeviceMask) &&
          (sched == cudaDeviceScheduleAuto || sched == cudaDeviceScheduleSpin || sched == cudaDeviceScheduleYield ||
           sched == cudaDeviceScheduleBlockingSync);
}

/* The driver flags for runtime flags: cudaDeviceMapHost is always on, and
 * the bits 0x20 and 0x40 that cudaDeviceMask allows but the runtime does
 * not define (the driver's coredump flags) are dropped, as NVIDIA's
 * runtime drops them (an H200 reports the context flags without them). */
static unsigned driver_flags(unsigned flags) { return flags & ~(unsigned)(cudaDeviceMapHost | 0x20 | 0x40); }

/* ==== cudaSetDeviceFlags (libcudart.@) ==== the flags of the current
 * device's primary context, applied to it if it is active (CUDA 12+) */
cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags)
{
   RT_ENTER("flags=%#x", flags);
   RT_CHECK(device_flags_ok(flags), cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDevicePrimaryCtxSetFlags_v2(rt_current_device(), driver_flags(flags)));
}

/* ==== cudaGetDeviceFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags)
{
   RT_ENTER("flags=%p", (void *)flags);
   RT_CHECK(flags, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   unsigned f = 0;
   int active = 0;
   CUresult r = cuDevicePrimaryCtxGetState(rt_current_device(), &f, &active);
   if (r == CUDA_SUCCESS)
      *flags = f | cudaDeviceMapHost;
   return RT_RETURN_CU(r);
}

/* ==== cudaInitDevice (libcudart.@) ==== sets the device flags when flags
 * says they are valid, then initialises the device's primary context
 * (without making the device current, as CUDA documents) */
cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
   RT_ENTER("device=%d deviceFlags=%#x flags=%#x", device, deviceFlags, flags);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(valid_device(device), cudaErrorInvalidDevice);
   RT_CHECK(!(flags & ~(unsigned)cudaInitDeviceFlagsAreValid), cudaErrorInvalidValue);
   if (flags & cudaInitDeviceFlagsAreValid) {
      RT_CHECK(device_flags_ok(deviceFlags), cudaErrorInvalidValue);
      CUresult r = cuDevicePrimaryCtxSetFlags_v2(device, driver_flags(deviceFlags));
      if (r != CUDA_SUCCESS)
         return RT_RETURN_CU(r);
   }
   return RT_RETURN(rt_init_device(device));
}

/* ==== cudaDeviceGetCacheConfig (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
   RT_ENTER("pCacheConfig=%p", (void *)pCacheConfig);
   RT_CHECK(pCacheConfig, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUfunc_cache c = CU_FUNC_CACHE_PREFER_NONE;
   CUresult r = cuCtxGetCacheConfig(&c);
   if (r == CUDA_SUCCESS)
      *pCacheConfig = (enum cudaFuncCache)c;
   return RT_RETURN_CU(r);
}

/* ==== cudaDeviceSetCacheConfig (libcudart.@) ==== a preference CUDA may
 * ignore: kept and read back, no effect on Metal (src/core/limits.c) */
cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
   RT_ENTER("cacheConfig=%d", (int)cacheConfig);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxSetCacheConfig((CUfunc_cache)cacheConfig));
}

/* ==== cudaDeviceGetSharedMemConfig (libcudart.@) ==== four-byte banks */
cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
   RT_ENTER("pConfig=%p", (void *)pConfig);
   RT_CHECK(pConfig, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUsharedconfig c = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
   CUresult r = cuCtxGetSharedMemConfig(&c);
   if (r == CUDA_SUCCESS)
      *pConfig = (enum cudaSharedMemConfig)c;
   return RT_RETURN_CU(r);
}

/* ==== cudaDeviceSetSharedMemConfig (libcudart.@) ==== accepted without
 * effect, as CUDA does where the bank size is fixed (an H200 accepts the
 * eight-byte setting and keeps reporting four bytes) */
cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
   RT_ENTER("config=%d", (int)config);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxSetSharedMemConfig((CUsharedconfig)config));
}

/* ==== cudaDeviceGetPCIBusId (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
   RT_ENTER("pciBusId=%p len=%d device=%d", (void *)pciBusId, len, device);
   RT_CHECK(pciBusId && len > 0, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(valid_device(device), cudaErrorInvalidDevice);
   return RT_RETURN_CU(cuDeviceGetPCIBusId(pciBusId, len, device));
}

/* ==== cudaDeviceGetByPCIBusId (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
   RT_ENTER("device=%p pciBusId=%s", (void *)device, pciBusId ? pciBusId : "(null)");
   RT_CHECK(device && pciBusId, cudaErrorInvalidValue);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUdevice d = 0;
   CUresult r = cuDeviceGetByPCIBusId(&d, pciBusId);
   if (r == CUDA_SUCCESS)
      *device = d;
   return RT_RETURN_CU(r);
}

/* ==== cudaCtxResetPersistingL2Cache (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void)
{
   RT_ENTER_VOID();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxResetPersistingL2Cache());
}

/* ==== cudaDeviceGetTexture1DLinearMaxWidth (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                          const struct cudaChannelFormatDesc *fmtDesc, int device)
{
   RT_ENTER("maxWidthInElements=%p fmtDesc=%p device=%d", (void *)maxWidthInElements, (const void *)fmtDesc, device);
   RT_CHECK(maxWidthInElements && fmtDesc, cudaErrorInvalidValue);
   CUarray_format f;
   unsigned channels;
   cudaError_t e = rt_channel_format(fmtDesc, &f, &channels);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceGetTexture1DLinearMaxWidth(maxWidthInElements, f, channels, (CUdevice)device));
}

/* ==== cudaDeviceGetHostAtomicCapabilities (libcudart.@) ==== the driver's
 * (cudaAtomicOperation and CUatomicOperation have the same values) */
cudaError_t CUDARTAPI cudaDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                          const enum cudaAtomicOperation *operations,
                                                          unsigned int count, int device)
{
   RT_ENTER("capabilities=%p operations=%p count=%u device=%d", (void *)capabilities, (const void *)operations,
            count, device);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(
      cuDeviceGetHostAtomicCapabilities(capabilities, (const CUatomicOperation *)operations, count, device));
}

/* ==== cudaDeviceGetP2PAtomicCapabilities (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                         const enum cudaAtomicOperation *operations,
                                                         unsigned int count, int srcDevice, int dstDevice)
{
   RT_ENTER("capabilities=%p operations=%p count=%u srcDevice=%d dstDevice=%d", (void *)capabilities,
            (const void *)operations, count, srcDevice, dstDevice);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceGetP2PAtomicCapabilities(capabilities, (const CUatomicOperation *)operations, count,
                                                        srcDevice, dstDevice));
}

/* ==== cudaDeviceFlushGPUDirectRDMAWrites (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceFlushGPUDirectRDMAWrites(enum cudaFlushGPUDirectRDMAWritesTarget target,
                                                         enum cudaFlushGPUDirectRDMAWritesScope scope)
{
   RT_ENTER("target=%d scope=%d", (int)target, (int)scope);
   RT_NEED_CTX();
   /* REFUSED: driver/device.c (no GPUDirect RDMA: cudaErrorNotSupported) */
   return RT_RETURN_CU(cuFlushGPUDirectRDMAWrites((CUflushGPUDirectRDMAWritesTarget)target,
                                                  (CUflushGPUDirectRDMAWritesScope)scope));
}

/* ==== cudaDeviceGetNvSciSyncAttributes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList, int device, int flags)
{
   RT_ENTER("nvSciSyncAttrList=%p device=%d flags=%#x", nvSciSyncAttrList, device, flags);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   /* REFUSED: driver/device.c (no NvSciSync: cudaErrorNotSupported) */
   return RT_RETURN_CU(cuDeviceGetNvSciSyncAttributes(nvSciSyncAttrList, device, flags));
}

/* ==== cudaDeviceRegisterAsyncNotification (libcudart.@) ==== the driver
 * keeps it (no budget: never called); the runtime's callback and
 * notification types are the driver's, field for field */
cudaError_t CUDARTAPI cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc, void *userData,
                                                          cudaAsyncCallbackHandle_t *callback)
{
   RT_ENTER("device=%d callbackFunc=%p userData=%p callback=%p", device, (void *)(uintptr_t)callbackFunc, userData,
            (void *)callback);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceRegisterAsyncNotification(device, (CUasyncCallback)(uintptr_t)callbackFunc, userData,
                                                         (CUasyncCallbackHandle *)(void *)callback));
}

/* ==== cudaDeviceUnregisterAsyncNotification (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceUnregisterAsyncNotification(int device, cudaAsyncCallbackHandle_t callback)
{
   RT_ENTER("device=%d callback=%p", device, (void *)callback);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuDeviceUnregisterAsyncNotification(device, (CUasyncCallbackHandle)(void *)callback));
}
