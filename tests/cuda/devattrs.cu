/*
 * devattrs.cu — the device's attributes, properties, limits, flags and
 * configuration, as NVIDIA's CUDA 13 runtime has them (the error codes and
 * defaults were observed on an H200, driver 580):
 *
 *  - cudaDeviceGetAttribute answers every attribute from 1 to
 *    cudaDevAttrOnlyPartialHostNativeAtomicSupported (147), each equal to
 *    its cudaDeviceProp field; 0 and unknown values are
 *    cudaErrorInvalidValue, a NULL result too, a device that does not exist
 *    cudaErrorInvalidDevice;
 *  - the properties are consistent: block dimensions within the block
 *    limit, the block within the multiprocessor, shared memory per block
 *    within the opt-in and the multiprocessor, warp size 32;
 *  - cudaDeviceGetPCIBusId is "%04x:%02x:%02x.0" of the PCI domain, bus and
 *    device properties, cudaDeviceGetByPCIBusId finds the device again,
 *    a short buffer or a malformed id is cudaErrorInvalidValue, an id no
 *    device has cudaErrorInvalidDevice;
 *  - limits: the stack size defaults to 1024 and is rounded up to 16
 *    bytes; the printf FIFO holds at least what was asked; the L2 fetch
 *    granularity takes 0..128; an unknown limit is cudaErrorInvalidValue;
 *  - device flags: cudaDeviceMapHost is always reported; a scheduling
 *    mode, LmemResizeToMax and MapHost are kept; two scheduling modes at
 *    once or a bit outside cudaDeviceMask are cudaErrorInvalidValue;
 *  - cache config is kept and read back; shared memory config accepts the
 *    eight-byte setting and still reports four-byte banks (no effect);
 *  - peer access: a device cannot access itself as a peer (success, 0),
 *    enabling it is cudaErrorPeerAccessUnsupported, disabling
 *    cudaErrorPeerAccessNotEnabled, bad flags cudaErrorInvalidValue;
 *  - cudaChooseDevice returns an existing device; cudaInitDevice works for
 *    existing devices only.
 */
#include "check.h"

#define ATTR_EQ(attr, field) check_attr((attr), #attr, (long long)(field), #field, __LINE__)

static int attr_of(enum cudaDeviceAttr a)
{
   int v = -12345;
   cudaDeviceGetAttribute(&v, a, 0);
   return v;
}

static void check_attr(enum cudaDeviceAttr a, const char *an, long long want, const char *fn, int line)
{
   int v = -12345;
   cudaError_t e = cudaDeviceGetAttribute(&v, a, 0);
   check_err(e, cudaSuccess, an, __FILE__, line);
   char what[200];
   snprintf(what, sizeof(what), "%s vs %s", an, fn);
   check_int(v, want, what, __FILE__, line);
}

static void check_attributes_match_props(const cudaDeviceProp &p)
{
   ATTR_EQ(cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock);
   ATTR_EQ(cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]);
   ATTR_EQ(cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1]);
   ATTR_EQ(cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]);
   ATTR_EQ(cudaDevAttrMaxGridDimX, p.maxGridSize[0]);
   ATTR_EQ(cudaDevAttrMaxGridDimY, p.maxGridSize[1]);
   ATTR_EQ(cudaDevAttrMaxGridDimZ, p.maxGridSize[2]);
   ATTR_EQ(cudaDevAttrMaxSharedMemoryPerBlock, p.sharedMemPerBlock);
   ATTR_EQ(cudaDevAttrTotalConstantMemory, p.totalConstMem);
   ATTR_EQ(cudaDevAttrWarpSize, p.warpSize);
   ATTR_EQ(cudaDevAttrMaxPitch, p.memPitch);
   ATTR_EQ(cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock);
   ATTR_EQ(cudaDevAttrTextureAlignment, p.textureAlignment);
   ATTR_EQ(cudaDevAttrMultiProcessorCount, p.multiProcessorCount);
   ATTR_EQ(cudaDevAttrIntegrated, p.integrated);
   ATTR_EQ(cudaDevAttrCanMapHostMemory, p.canMapHostMemory);
   ATTR_EQ(cudaDevAttrMaxTexture1DWidth, p.maxTexture1D);
   ATTR_EQ(cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0]);
   ATTR_EQ(cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]);
   ATTR_EQ(cudaDevAttrMaxTexture3DWidth, p.maxTexture3D[0]);
   ATTR_EQ(cudaDevAttrMaxTexture3DHeight, p.maxTexture3D[1]);
   ATTR_EQ(cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLayeredWidth, p.maxTexture2DLayered[0]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLayeredHeight, p.maxTexture2DLayered[1]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2]);
   ATTR_EQ(cudaDevAttrSurfaceAlignment, p.surfaceAlignment);
   ATTR_EQ(cudaDevAttrConcurrentKernels, p.concurrentKernels);
   ATTR_EQ(cudaDevAttrEccEnabled, p.ECCEnabled);
   ATTR_EQ(cudaDevAttrPciBusId, p.pciBusID);
   ATTR_EQ(cudaDevAttrPciDeviceId, p.pciDeviceID);
   ATTR_EQ(cudaDevAttrTccDriver, p.tccDriver);
   ATTR_EQ(cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth);
   ATTR_EQ(cudaDevAttrL2CacheSize, p.l2CacheSize);
   ATTR_EQ(cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor);
   ATTR_EQ(cudaDevAttrAsyncEngineCount, p.asyncEngineCount);
   ATTR_EQ(cudaDevAttrUnifiedAddressing, p.unifiedAddressing);
   ATTR_EQ(cudaDevAttrMaxTexture1DLayeredWidth, p.maxTexture1DLayered[0]);
   ATTR_EQ(cudaDevAttrMaxTexture1DLayeredLayers, p.maxTexture1DLayered[1]);
   ATTR_EQ(cudaDevAttrMaxTexture2DGatherWidth, p.maxTexture2DGather[0]);
   ATTR_EQ(cudaDevAttrMaxTexture2DGatherHeight, p.maxTexture2DGather[1]);
   ATTR_EQ(cudaDevAttrMaxTexture3DWidthAlt, p.maxTexture3DAlt[0]);
   ATTR_EQ(cudaDevAttrMaxTexture3DHeightAlt, p.maxTexture3DAlt[1]);
   ATTR_EQ(cudaDevAttrMaxTexture3DDepthAlt, p.maxTexture3DAlt[2]);
   ATTR_EQ(cudaDevAttrPciDomainId, p.pciDomainID);
   ATTR_EQ(cudaDevAttrTexturePitchAlignment, p.texturePitchAlignment);
   ATTR_EQ(cudaDevAttrMaxTextureCubemapWidth, p.maxTextureCubemap);
   ATTR_EQ(cudaDevAttrMaxTextureCubemapLayeredWidth, p.maxTextureCubemapLayered[0]);
   ATTR_EQ(cudaDevAttrMaxTextureCubemapLayeredLayers, p.maxTextureCubemapLayered[1]);
   ATTR_EQ(cudaDevAttrMaxSurface1DWidth, p.maxSurface1D);
   ATTR_EQ(cudaDevAttrMaxSurface2DWidth, p.maxSurface2D[0]);
   ATTR_EQ(cudaDevAttrMaxSurface2DHeight, p.maxSurface2D[1]);
   ATTR_EQ(cudaDevAttrMaxSurface3DWidth, p.maxSurface3D[0]);
   ATTR_EQ(cudaDevAttrMaxSurface3DHeight, p.maxSurface3D[1]);
   ATTR_EQ(cudaDevAttrMaxSurface3DDepth, p.maxSurface3D[2]);
   ATTR_EQ(cudaDevAttrMaxSurface1DLayeredWidth, p.maxSurface1DLayered[0]);
   ATTR_EQ(cudaDevAttrMaxSurface1DLayeredLayers, p.maxSurface1DLayered[1]);
   ATTR_EQ(cudaDevAttrMaxSurface2DLayeredWidth, p.maxSurface2DLayered[0]);
   ATTR_EQ(cudaDevAttrMaxSurface2DLayeredHeight, p.maxSurface2DLayered[1]);
   ATTR_EQ(cudaDevAttrMaxSurface2DLayeredLayers, p.maxSurface2DLayered[2]);
   ATTR_EQ(cudaDevAttrMaxSurfaceCubemapWidth, p.maxSurfaceCubemap);
   ATTR_EQ(cudaDevAttrMaxSurfaceCubemapLayeredWidth, p.maxSurfaceCubemapLayered[0]);
   ATTR_EQ(cudaDevAttrMaxSurfaceCubemapLayeredLayers, p.maxSurfaceCubemapLayered[1]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLinearWidth, p.maxTexture2DLinear[0]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLinearHeight, p.maxTexture2DLinear[1]);
   ATTR_EQ(cudaDevAttrMaxTexture2DLinearPitch, p.maxTexture2DLinear[2]);
   ATTR_EQ(cudaDevAttrMaxTexture2DMipmappedWidth, p.maxTexture2DMipmap[0]);
   ATTR_EQ(cudaDevAttrMaxTexture2DMipmappedHeight, p.maxTexture2DMipmap[1]);
   ATTR_EQ(cudaDevAttrComputeCapabilityMajor, p.major);
   ATTR_EQ(cudaDevAttrComputeCapabilityMinor, p.minor);
   ATTR_EQ(cudaDevAttrMaxTexture1DMipmappedWidth, p.maxTexture1DMipmap);
   ATTR_EQ(cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported);
   ATTR_EQ(cudaDevAttrGlobalL1CacheSupported, p.globalL1CacheSupported);
   ATTR_EQ(cudaDevAttrLocalL1CacheSupported, p.localL1CacheSupported);
   ATTR_EQ(cudaDevAttrMaxSharedMemoryPerMultiprocessor, p.sharedMemPerMultiprocessor);
   ATTR_EQ(cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor);
   ATTR_EQ(cudaDevAttrManagedMemory, p.managedMemory);
   ATTR_EQ(cudaDevAttrIsMultiGpuBoard, p.isMultiGpuBoard);
   ATTR_EQ(cudaDevAttrMultiGpuBoardGroupID, p.multiGpuBoardGroupID);
   ATTR_EQ(cudaDevAttrHostNativeAtomicSupported, p.hostNativeAtomicSupported);
   ATTR_EQ(cudaDevAttrPageableMemoryAccess, p.pageableMemoryAccess);
   ATTR_EQ(cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess);
   ATTR_EQ(cudaDevAttrComputePreemptionSupported, p.computePreemptionSupported);
   ATTR_EQ(cudaDevAttrCanUseHostPointerForRegisteredMem, p.canUseHostPointerForRegisteredMem);
   ATTR_EQ(cudaDevAttrCooperativeLaunch, p.cooperativeLaunch);
   ATTR_EQ(cudaDevAttrMaxSharedMemoryPerBlockOptin, p.sharedMemPerBlockOptin);
   ATTR_EQ(cudaDevAttrPageableMemoryAccessUsesHostPageTables, p.pageableMemoryAccessUsesHostPageTables);
   ATTR_EQ(cudaDevAttrDirectManagedMemAccessFromHost, p.directManagedMemAccessFromHost);
   ATTR_EQ(cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor);
   ATTR_EQ(cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize);
   ATTR_EQ(cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize);
   ATTR_EQ(cudaDevAttrReservedSharedMemoryPerBlock, p.reservedSharedMemPerBlock);
   ATTR_EQ(cudaDevAttrSparseCudaArraySupported, p.sparseCudaArraySupported);
   ATTR_EQ(cudaDevAttrHostRegisterReadOnlySupported, p.hostRegisterReadOnlySupported);
   ATTR_EQ(cudaDevAttrTimelineSemaphoreInteropSupported, p.timelineSemaphoreInteropSupported);
   ATTR_EQ(cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported);
   ATTR_EQ(cudaDevAttrGPUDirectRDMASupported, p.gpuDirectRDMASupported);
   ATTR_EQ(cudaDevAttrGPUDirectRDMAFlushWritesOptions, p.gpuDirectRDMAFlushWritesOptions);
   ATTR_EQ(cudaDevAttrGPUDirectRDMAWritesOrdering, p.gpuDirectRDMAWritesOrdering);
   ATTR_EQ(cudaDevAttrMemoryPoolSupportedHandleTypes, p.memoryPoolSupportedHandleTypes);
   ATTR_EQ(cudaDevAttrClusterLaunch, p.clusterLaunch);
   ATTR_EQ(cudaDevAttrDeferredMappingCudaArraySupported, p.deferredMappingCudaArraySupported);
   ATTR_EQ(cudaDevAttrIpcEventSupport, p.ipcEventSupported);
   ATTR_EQ(cudaDevAttrNumaConfig, p.deviceNumaConfig);
   ATTR_EQ(cudaDevAttrNumaId, p.deviceNumaId);
   ATTR_EQ(cudaDevAttrMpsEnabled, p.mpsEnabled);
   ATTR_EQ(cudaDevAttrHostNumaId, p.hostNumaId);
   ATTR_EQ(cudaDevAttrGpuPciDeviceId, p.gpuPciDeviceID);
   ATTR_EQ(cudaDevAttrGpuPciSubsystemId, p.gpuPciSubsystemID);
   ATTR_EQ(cudaDevAttrHostNumaMultinodeIpcSupported, p.hostNumaMultinodeIpcSupported);
}

static void check_every_attribute(int count)
{
   int bad = 0, v;
   for (int a = 1; a <= 147; a++) {
      v = -12345;
      cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)a, 0);
      if (e != cudaSuccess && bad++ < 5)
         printf("  attribute %d: %s\n", a, cudaGetErrorName(e));
   }
   CHECK_INT(bad, 0);
   CHECK_ERR(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)-1, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
}

static void check_consistency(const cudaDeviceProp &p)
{
   CHECK_INT(p.warpSize, 32);
   CHECK(p.multiProcessorCount >= 1);
   CHECK(p.maxThreadsPerBlock >= 64 && p.maxThreadsPerBlock % p.warpSize == 0);
   CHECK(p.maxThreadsPerBlock <= p.maxThreadsPerMultiProcessor);
   CHECK(p.maxThreadsDim[0] <= p.maxThreadsPerBlock && p.maxThreadsDim[1] <= p.maxThreadsPerBlock);
   CHECK(p.maxThreadsDim[2] >= 1 && p.maxThreadsDim[2] <= p.maxThreadsPerBlock);
   CHECK(p.maxGridSize[0] == 0x7fffffff && p.maxGridSize[1] >= 65535 && p.maxGridSize[2] >= 65535);
   CHECK(p.sharedMemPerBlock >= 16384);
   CHECK(p.sharedMemPerBlock <= p.sharedMemPerBlockOptin);
   CHECK(p.sharedMemPerBlockOptin <= p.sharedMemPerMultiprocessor);
   CHECK(p.regsPerBlock >= 1 && p.regsPerBlock <= p.regsPerMultiprocessor);
   CHECK(p.maxBlocksPerMultiProcessor >= 1);
   CHECK(p.major >= 3);
   CHECK(p.totalGlobalMem > 0 && p.totalConstMem > 0);
   CHECK(p.unifiedAddressing == 1);
   CHECK(p.name[0] != 0);
}

static void check_pci(int count, const cudaDeviceProp &p)
{
   char want[32], got[64], small[64];
   snprintf(want, sizeof(want), "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
   memset(got, 'x', sizeof(got));
   CHECK_CUDA(cudaDeviceGetPCIBusId(got, sizeof(got), 0));
   got[sizeof(got) - 1] = 0;
   CHECK_STR(got, want);
   int dev = -3;
   CHECK_CUDA(cudaDeviceGetByPCIBusId(&dev, got));
   CHECK_INT(dev, 0);
   CHECK_ERR(cudaDeviceGetPCIBusId(small, 5, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetPCIBusId(NULL, 20, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetPCIBusId(small, 20, count), cudaErrorInvalidDevice);
   dev = -3;
   CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, "garbage"), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, got + 4), cudaErrorInvalidValue);   /* ":bb:dd.0" */
   CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, "fffe:ff:1f.0"), cudaErrorInvalidDevice);
   CHECK_INT(dev, -3);
   CHECK_ERR(cudaDeviceGetByPCIBusId(NULL, got), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, NULL), cudaErrorInvalidValue);
   cudaGetLastError();
}

static void check_limits(void)
{
   size_t v = 0;
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitStackSize));
   CHECK_INT(v, 1024);
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 1001));
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitStackSize));
   CHECK_INT(v, 1008);
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20));
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
   CHECK(v >= (size_t)2 << 20);
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
   CHECK(v <= 128);
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 32));
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
   CHECK_INT(v, 32);
   CHECK_ERR(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 200), cudaErrorInvalidValue);
   CHECK_CUDA(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
   CHECK_INT(v, 32);
   CHECK_ERR(cudaDeviceSetLimit((enum cudaLimit)99, 1), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetLimit(&v, (enum cudaLimit)99), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetLimit(NULL, cudaLimitStackSize), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
}

static void check_flags(void)
{
   unsigned f = 0xdead;
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceMapHost);
   CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
   CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceMapHost | cudaDeviceLmemResizeToMax));
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceScheduleSpin | cudaDeviceMapHost | cudaDeviceLmemResizeToMax);
   CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleYield));
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceScheduleYield | cudaDeviceMapHost);
   CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceMapHost);
   CHECK_ERR(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
   CHECK_ERR(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
   CHECK_ERR(cudaSetDeviceFlags(cudaDeviceScheduleMask), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetDeviceFlags(NULL), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGetDeviceFlags(&f));
   CHECK_INT(f, cudaDeviceMapHost);   /* unchanged by the failures */
   cudaGetLastError();
}

static void check_configs(void)
{
   enum cudaFuncCache c = (enum cudaFuncCache)77;
   CHECK_CUDA(cudaDeviceGetCacheConfig(&c));
   CHECK_INT(c, cudaFuncCachePreferNone);
   CHECK_CUDA(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
   CHECK_CUDA(cudaDeviceGetCacheConfig(&c));
   CHECK_INT(c, cudaFuncCachePreferShared);
   CHECK_ERR(cudaDeviceSetCacheConfig((enum cudaFuncCache)4), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetCacheConfig(NULL), cudaErrorInvalidValue);
   CHECK_CUDA(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
   enum cudaSharedMemConfig s = (enum cudaSharedMemConfig)77;
   CHECK_CUDA(cudaDeviceGetSharedMemConfig(&s));
   CHECK_INT(s, cudaSharedMemBankSizeFourByte);
   CHECK_CUDA(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
   CHECK_CUDA(cudaDeviceGetSharedMemConfig(&s));
   CHECK_INT(s, cudaSharedMemBankSizeFourByte);
   CHECK_ERR(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetSharedMemConfig(NULL), cudaErrorInvalidValue);
   cudaGetLastError();
}

static void check_peers_and_choice(int count)
{
   int v = -5;
   CHECK_CUDA(cudaDeviceCanAccessPeer(&v, 0, 0));
   CHECK_INT(v, 0);
   CHECK_ERR(cudaDeviceCanAccessPeer(&v, 0, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaDeviceCanAccessPeer(NULL, 0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessUnsupported);
   CHECK_ERR(cudaGetLastError(), cudaErrorPeerAccessUnsupported);
   CHECK_ERR(cudaDeviceEnablePeerAccess(0, 1), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceEnablePeerAccess(count, 0), cudaErrorInvalidDevice);
   CHECK_ERR(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
   CHECK_ERR(cudaDeviceDisablePeerAccess(count), cudaErrorInvalidDevice);
   cudaGetLastError();

   cudaDeviceProp want;
   memset(&want, 0, sizeof(want));
   want.major = 1;
   int dev = -3;
   CHECK_CUDA(cudaChooseDevice(&dev, &want));
   CHECK(dev >= 0 && dev < count);
   CHECK_ERR(cudaChooseDevice(NULL, &want), cudaErrorInvalidValue);
   CHECK_ERR(cudaChooseDevice(&dev, NULL), cudaErrorInvalidValue);
   CHECK_CUDA(cudaInitDevice(0, 0, 0));
   CHECK_ERR(cudaInitDevice(count, 0, 0), cudaErrorInvalidDevice);
   CHECK_ERR(cudaInitDevice(-1, 0, 0), cudaErrorInvalidDevice);
   cudaGetLastError();
}

int main(void)
{
   check_begin("devattrs");
   int count = 0;
   REQUIRE_CUDA(cudaGetDeviceCount(&count));
   cudaDeviceProp p;
   REQUIRE_CUDA(cudaGetDeviceProperties(&p, 0));
   printf("  %s: cc %d.%d, %d SMs, %d threads/SM, %zu B shared/block (opt-in %zu, %zu/SM), %d blocks/SM\n", p.name,
          p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor, p.sharedMemPerBlock,
          p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.maxBlocksPerMultiProcessor);
   check_attributes_match_props(p);
   CHECK_INT(attr_of(cudaDevAttrMaxThreadsPerBlock), p.maxThreadsPerBlock);
   check_every_attribute(count);
   check_consistency(p);
   check_pci(count, p);
   check_limits();
   check_flags();
   check_configs();
   check_peers_and_choice(count);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   return check_end();
}
