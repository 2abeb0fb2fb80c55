/*
 * device.c — cuDeviceGet*, the device's properties as CUDA names them.
 *
 * Values are what the Metal device really offers (metal-semantics §1.7):
 * 1024 threads per block, 32 KB of shared memory per block, warp size 32;
 * the multiprocessor limits are core_device_sm_model's, the PCI location
 * core_device_pci's.
 */
#include "internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

LOG_CHANNEL(device);

static core_device *device_of(CUdevice d) { return core_device_get(d); }

/* ==== cuDeviceGetCount (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetCount(int *count)
{
   API_ENTER("count=%p", (void *)count);
   API_CHECK(count, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   *count = core_device_count();
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGet (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
   API_ENTER("device=%p ordinal=%d", (void *)device, ordinal);
   API_CHECK(device, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(device_of(ordinal), CUDA_ERROR_INVALID_DEVICE);
   *device = ordinal;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetName (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
   API_ENTER("name=%p len=%d dev=%d", (void *)name, len, dev);
   API_CHECK(name && len > 0, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   snprintf(name, (size_t)len, "%s", core_device_info(d)->name);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetUuid (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
   API_ENTER("uuid=%p dev=%d", (void *)uuid, dev);
   API_CHECK(uuid, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_device_uuid(d, (uint8_t *)uuid->bytes);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetUuid_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid(uuid, dev); }

/* ==== cuDeviceTotalMem_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
   API_ENTER("bytes=%p dev=%d", (void *)bytes, dev);
   API_CHECK(bytes, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   *bytes = (size_t)core_device_total_mem(d);
   return API_RETURN(CUDA_SUCCESS);
}

/* The limits of the texture and surface geometries metalcuda has (1-D, 2-D
 * and 3-D CUDA arrays, linear and pitch-linear memory; array.c,
 * texture.c), as an H200 reports them (CUDA 13.0, driver 580, 2026-12-02),
 * which are also the limits array and texture creation enforce; layered,
 * cube-map and mipmapped geometries and gather (tld4) are not implemented
 * and read 0. */
static bool texture_limit(CUdevice_attribute a, int *v)
{
   switch ((int)a) {
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH: *v = DRV_TEX1D_WIDTH; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH: *v = DRV_TEX2D_WIDTH; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT: *v = DRV_TEX2D_HEIGHT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH: *v = DRV_TEX3D_EXTENT; return true;
   case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: *v = 512; return true;
   case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: *v = 32; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH: *v = 32768; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH: *v = DRV_TEX2D_WIDTH; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT: *v = DRV_TEX2D_HEIGHT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH: *v = DRV_TEX3D_EXTENT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH: *v = DRV_TEX_LAYERED_EXTENT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS: *v = DRV_TEX_LAYERS; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT: *v = DRV_TEX2D_GATHER; return true;
   case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER: *v = 1; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: *v = DRV_TEX_CUBE_WIDTH; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: *v = DRV_TEX_CUBE_LAYERS; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: *v = 1 << 28; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT: *v = DRV_TEX_MIPMAP_EXTENT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH: *v = DRV_TEX2D_LINEAR_WIDTH; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: *v = DRV_TEX2D_LINEAR_HEIGHT; return true;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: *v = DRV_TEX2D_LINEAR_PITCH; return true;
   default: return false;
   }
}

/* Features this runtime does not have read as absent (0), which is true of
 * every attribute not listed (peer access, IPC,
 * clusters, pageable memory access from kernels, ...); the limits come from the multiprocessor
 * model (core_device_sm_model), which the occupancy calculator uses too. */
static bool attribute_value(core_device *d, CUdevice_attribute a, int *v)
{
   const mtl_device_info *info = core_device_info(d);
   core_sm_model m;
   core_device_sm_model(d, &m);
   int major, minor, pci_domain, pci_bus, pci_dev;
   core_device_cc(d, &major, &minor);
   core_device_pci(d, &pci_domain, &pci_bus, &pci_dev);
   switch ((int)a) {
   case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = (int)m.threads_per_block; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *v = (int)m.block_dim[0]; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = (int)m.block_dim[1]; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = (int)m.block_dim[2]; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 0x7fffffff; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *v = 65535; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = (int)m.shared_per_block; break;
   case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: *v = 65536; break;
   case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = (int)m.warp; break;
   case CU_DEVICE_ATTRIBUTE_MAX_PITCH: *v = 0x7fffffff; break;
   case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = (int)m.regs_per_block; break;
   case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = info->clock_khz ? (int)info->clock_khz : 1000000; break;
   case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: *v = 512; break;
   case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = (int)m.sm_count; break;
   case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: *v = 0; break;
   case CU_DEVICE_ATTRIBUTE_INTEGRATED: *v = info->has_unified_memory; break;
   case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: *v = 0; break;   /* CU_COMPUTEMODE_DEFAULT */
   case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *v = pci_bus; break;
   case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: *v = pci_dev; break;
   case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: *v = pci_domain; break;
   case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 1000000; break;
   case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 128; break;
   case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 4 << 20; break;
   case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = (int)m.threads_per_sm; break;
   case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = major; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = minor; break;
   case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = (int)m.shared_per_sm; break;
   case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = (int)m.regs_per_sm; break;
   case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *v = 1; break;
   /* Managed memory is the arena, which host and device share: on unified
    * memory (Apple silicon, the software device) both use it at the same
    * time, and the host reaches it directly (tests/cuda/devattr_claims.cu). */
   case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
   case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: *v = info->has_unified_memory; break;
   /* The stream-ordered allocator and its default pool (src/core/mempool.c). */
   case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: *v = 1; break;
   /* cuMemHostRegister: copies use registered memory as pinned memory. */
   case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED: *v = 1; break;
   /* read-only registrations that kernels read (tests/cuda/hostregister_mapped.cu) */
   case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED: *v = info->reaches_host_memory; break;
   case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: *v = 32; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = (int)m.shared_per_block_optin; break;
   case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *v = (int)m.shared_reserved; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = (int)m.blocks_per_sm; break;
   case CU_DEVICE_ATTRIBUTE_NUMA_ID: *v = -1; break;   /* not a NUMA node of its own (NUMA_CONFIG 0) */
   /* cuLaunchCooperativeKernel and grid.sync() (src/core/launch.c); the
    * multi-device form is refused (COOPERATIVE_MULTI_DEVICE_LAUNCH: 0) */
   case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: *v = 1; break;
   /* cuStreamWaitValue64/WriteValue64 and CU_STREAM_WAIT_VALUE_NOR (src/core/memop.c);
    * CAN_FLUSH_REMOTE_WRITES stays 0 (the flush is refused), and so do the
    * deprecated _V1 attributes of CUDA 11's v1 memory-operation API */
   case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
   case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR: *v = 1; break;
   default:
      if (texture_limit(a, v))
         break;
      if ((int)a <= 0 || (int)a >= CU_DEVICE_ATTRIBUTE_MAX)
         return false;
      *v = 0;
      break;
   }
   return true;
}

/* ==== cuDeviceGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
   API_ENTER("pi=%p attrib=%d dev=%d", (void *)pi, (int)attrib, dev);
   API_CHECK(pi, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(attribute_value(d, attrib, pi), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetPCIBusId (libcuda.@) ==== core_device_pci says which
 * location a Metal device reports; the format is NVIDIA's
 * "domain:bus:device.function" with a 4-digit domain ("0000:00:01.0") */
CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
   API_ENTER("pciBusId=%p len=%d dev=%d", (void *)pciBusId, len, dev);
   API_CHECK(pciBusId && len > 0, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   int domain, bus, slot;
   core_device_pci(d, &domain, &bus, &slot);
   char id[32];
   int n = snprintf(id, sizeof(id), "%04x:%02x:%02x.0", domain, bus, slot);
   API_CHECK(n < len, CUDA_ERROR_INVALID_VALUE);   /* no room for the id and its NUL */
   memcpy(pciBusId, id, (size_t)n + 1);
   return API_RETURN(CUDA_SUCCESS);
}

/* Reads the three forms CUDA documents: domain:bus:device.function,
 * domain:bus:device and bus:device.function (hexadecimal). */
static bool parse_pci_id(const char *s, int *domain, int *bus, int *slot)
{
   unsigned a, b, c, f = 0;
   int end = -1;
   *domain = 0;
   if ((sscanf(s, "%x:%x:%x.%x%n", &a, &b, &c, &f, &end) == 4 && s[end] == 0) ||
       (end = -1, sscanf(s, "%x:%x:%x%n", &a, &b, &c, &end) == 3 && s[end] == 0)) {
      *domain = (int)a;
      *bus = (int)b;
      *slot = (int)c;
   } else if (end = -1, sscanf(s, "%x:%x.%x%n", &b, &c, &f, &end) == 3 && s[end] == 0) {
      *bus = (int)b;
      *slot = (int)c;
   } else {
      return false;
   }
   return f == 0 && isxdigit((unsigned char)s[0]);
}

/* ==== cuDeviceGetByPCIBusId (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
   API_ENTER("dev=%p pciBusId=%s", (void *)dev, pciBusId ? pciBusId : "(null)");
   API_CHECK(dev && pciBusId, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   int domain, bus, slot;
   API_CHECK(parse_pci_id(pciBusId, &domain, &bus, &slot), CUDA_ERROR_INVALID_VALUE);
   for (int k = 0; k < core_device_count(); k++) {
      int dd, db, ds;
      core_device_pci(core_device_get(k), &dd, &db, &ds);
      if (dd == domain && db == bus && ds == slot) {
         *dev = k;
         return API_RETURN(CUDA_SUCCESS);
      }
   }
   return API_RETURN(CUDA_ERROR_INVALID_DEVICE);
}

/* ==== cuDeviceCanAccessPeer (libcuda.@) ==== Metal devices cannot map
 * each other's memory, and a device is not its own peer (NVIDIA answers 0
 * for dev == peerDev too) */
CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
   API_ENTER("canAccessPeer=%p dev=%d peerDev=%d", (void *)canAccessPeer, dev, peerDev);
   API_CHECK(canAccessPeer, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(device_of(dev) && device_of(peerDev), CUDA_ERROR_INVALID_DEVICE);
   *canAccessPeer = 0;
   return API_RETURN(CUDA_SUCCESS);
}

static bool p2p_attribute_known(CUdevice_P2PAttribute a)
{
   return a >= CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK &&
          a <= CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED;
}

/* ==== cuDeviceGetP2PAttribute (libcuda.@) ==== a device is not its own
 * peer: srcDevice == dstDevice is CUDA_ERROR_INVALID_DEVICE, as NVIDIA
 * answers; between two distinct Metal devices there is no peer link
 * (cuDeviceCanAccessPeer answers 0), so every attribute is 0 (no access,
 * no atomics, no array access, performance rank 0) */
CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                         CUdevice dstDevice)
{
   API_ENTER("value=%p attrib=%d srcDevice=%d dstDevice=%d", (void *)value, (int)attrib, srcDevice, dstDevice);
   API_CHECK(value, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(device_of(srcDevice) && device_of(dstDevice), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(srcDevice != dstDevice, CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(p2p_attribute_known(attrib), CUDA_ERROR_INVALID_VALUE);
   *value = 0;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceComputeCapability (libcuda.@) ==== (deprecated) */
CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
   API_ENTER("major=%p minor=%p dev=%d", (void *)major, (void *)minor, dev);
   API_CHECK(major && minor, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_device_cc(d, major, minor);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetProperties (libcuda.@) ==== (deprecated) the same values
 * as the attributes */
CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
   API_ENTER("prop=%p dev=%d", (void *)prop, dev);
   API_CHECK(prop, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = device_of(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   static const CUdevice_attribute attrs[] = {
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, CU_DEVICE_ATTRIBUTE_WARP_SIZE,
      CU_DEVICE_ATTRIBUTE_MAX_PITCH, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
   };
   int *fields[] = {
      &prop->maxThreadsPerBlock, &prop->maxThreadsDim[0], &prop->maxThreadsDim[1], &prop->maxThreadsDim[2],
      &prop->maxGridSize[0], &prop->maxGridSize[1], &prop->maxGridSize[2], &prop->sharedMemPerBlock,
      &prop->totalConstantMemory, &prop->SIMDWidth, &prop->memPitch, &prop->regsPerBlock,
      &prop->clockRate, &prop->textureAlign,
   };
   for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
      attribute_value(d, attrs[i], fields[i]);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetTexture1DLinearMaxWidth (libcuda.@) ====
 * As an H200 answers: 2^32 bytes of elements, at most 2^30 of them (a
 * float4 2^28, a uint2 2^29, a float or uchar4 2^30). */
CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format,
                                                    unsigned numChannels, CUdevice dev)
{
   API_ENTER("maxWidthInElements=%p format=%#x numChannels=%u dev=%d", (void *)maxWidthInElements, (unsigned)format,
             numChannels, dev);
   API_CHECK(maxWidthInElements, CUDA_ERROR_INVALID_VALUE);
   uint32_t kind, chan_bytes;
   CUresult e = drv_array_format(format, numChannels, &kind, &chan_bytes);
   if (e != CUDA_SUCCESS)
      return API_RETURN(e);
   API_NEED_INIT();
   API_CHECK(device_of(dev), CUDA_ERROR_INVALID_DEVICE);
   uint64_t elems = (UINT64_C(1) << 32) / ((uint64_t)chan_bytes * numChannels);
   *maxWidthInElements = (size_t)(elems < (UINT64_C(1) << 30) ? elems : UINT64_C(1) << 30);
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- atomics over links (CUDA 13.0) ----
 * What cuDeviceGetHostAtomicCapabilities and cuDeviceGetP2PAtomicCapabilities
 * answer agrees with the attributes: HOST_NATIVE_ATOMIC_SUPPORTED and
 * ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED are 0 (metalcuda offers no
 * atomic operation between kernels and the host as a native one of the
 * link), and no device has a peer (cuDeviceGetP2PAttribute), so every
 * operation's capability mask is 0. */

static bool atomic_ops_ok(const CUatomicOperation *ops, unsigned count)
{
   for (unsigned i = 0; i < count; i++)
      if ((int)ops[i] < CU_ATOMIC_OPERATION_INTEGER_ADD || ops[i] > CU_ATOMIC_OPERATION_FLOAT_MAX)
         return false;
   return true;
}

/* ==== cuDeviceGetHostAtomicCapabilities (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities, const CUatomicOperation *operations,
                                                   unsigned int count, CUdevice dev)
{
   API_ENTER("capabilities=%p operations=%p count=%u dev=%d", (void *)capabilities, (const void *)operations, count,
             dev);
   API_CHECK(capabilities && operations && count, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(device_of(dev), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(atomic_ops_ok(operations, count), CUDA_ERROR_INVALID_VALUE);
   for (unsigned i = 0; i < count; i++)
      capabilities[i] = 0;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceGetP2PAtomicCapabilities (libcuda.@) ==== a device is not
 * its own peer (CUDA_ERROR_INVALID_DEVICE, as cuDeviceGetP2PAttribute) */
CUresult CUDAAPI cuDeviceGetP2PAtomicCapabilities(unsigned int *capabilities, const CUatomicOperation *operations,
                                                  unsigned int count, CUdevice srcDevice, CUdevice dstDevice)
{
   API_ENTER("capabilities=%p operations=%p count=%u srcDevice=%d dstDevice=%d", (void *)capabilities,
             (const void *)operations, count, srcDevice, dstDevice);
   API_CHECK(capabilities && operations && count, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(device_of(srcDevice) && device_of(dstDevice), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(srcDevice != dstDevice, CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(atomic_ops_ok(operations, count), CUDA_ERROR_INVALID_VALUE);
   for (unsigned i = 0; i < count; i++)
      capabilities[i] = 0;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuFlushGPUDirectRDMAWrites (libcuda.@) ==== REFUSED: no GPUDirect
 * RDMA (GPU_DIRECT_RDMA_SUPPORTED and GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS
 * are 0), which CUDA documents as "not supported" for this call */
CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                            CUflushGPUDirectRDMAWritesScope scope)
{
   API_ENTER("target=%d scope=%d", (int)target, (int)scope);
   API_NEED_CTX(c);
   (void)c;
   API_NOT_SUPPORTED("GPUDirect RDMA (the device has none: cudaDevAttrGPUDirectRDMAFlushWritesOptions is 0)");
}

/* ==== cuDeviceGetNvSciSyncAttributes (libcuda.@) ==== REFUSED: metalcuda
 * has no NvSciSync (no external semaphores: runtime/interop.c) */
CUresult CUDAAPI cuDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList, CUdevice dev, int flags)
{
   API_ENTER("nvSciSyncAttrList=%p dev=%d flags=%#x", nvSciSyncAttrList, dev, flags);
   API_NEED_INIT();
   API_CHECK(device_of(dev), CUDA_ERROR_INVALID_DEVICE);
   API_NOT_SUPPORTED("NvSciSync (metalcuda imports no external synchronisation objects)");
}

/* ---- budget notifications (CUDA 12.4) ----
 * CUDA calls a registered function when the process goes over its device
 * memory budget.  metalcuda sets no budget, so no notification ever comes:
 * keeping the registrations is the whole of the contract.  A handle is a
 * registration record; unregistering looks it up among those of
 * the device (a handle not in the list is CUDA_ERROR_INVALID_VALUE). */

struct CUasyncCallbackEntry_st {
   CUdevice dev;
   CUasyncCallback fn;
   void *user;
   struct CUasyncCallbackEntry_st *next;
};
static struct CUasyncCallbackEntry_st *notify_list;
static pthread_mutex_t notify_lock = PTHREAD_MUTEX_INITIALIZER;

/* ==== cuDeviceRegisterAsyncNotification (libcuda.@) ==== kept; never called (no budget) */
CUresult CUDAAPI cuDeviceRegisterAsyncNotification(CUdevice device, CUasyncCallback callbackFunc, void *userData,
                                                   CUasyncCallbackHandle *callback)
{
   API_ENTER("device=%d callbackFunc=%p userData=%p callback=%p", device, (void *)(uintptr_t)callbackFunc, userData,
             (void *)callback);
   API_NEED_INIT();
   API_CHECK(device_of(device), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(callbackFunc && callback, CUDA_ERROR_INVALID_VALUE);
   struct CUasyncCallbackEntry_st *e = mc_malloc(sizeof(*e));
   API_CHECK(e, CUDA_ERROR_OUT_OF_MEMORY);
   *e = (struct CUasyncCallbackEntry_st){ device, callbackFunc, userData, NULL };
   pthread_mutex_lock(&notify_lock);
   e->next = notify_list;
   notify_list = e;
   pthread_mutex_unlock(&notify_lock);
   *callback = e;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuDeviceUnregisterAsyncNotification (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceUnregisterAsyncNotification(CUdevice device, CUasyncCallbackHandle callback)
{
   API_ENTER("device=%d callback=%p", device, (void *)callback);
   API_NEED_INIT();
   API_CHECK(device_of(device), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(callback, CUDA_ERROR_INVALID_VALUE);
   pthread_mutex_lock(&notify_lock);
   struct CUasyncCallbackEntry_st **p = &notify_list;
   while (*p && (*p != callback || (*p)->dev != device))
      p = &(*p)->next;
   struct CUasyncCallbackEntry_st *e = *p;
   if (e)
      *p = e->next;
   pthread_mutex_unlock(&notify_lock);
   API_CHECK(e, CUDA_ERROR_INVALID_VALUE);
   free(e);
   return API_RETURN(CUDA_SUCCESS);
}
