/*
 * device.c — cuDeviceGet*, the device's properties as CUDA names them.
 *
 * Values are what the Metal device really offers (metal-semantics §1.7):
 * 1024 threads per block, 32 KB of shared memory per block, warp size 32.
 */
#include "internal.h"

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

static bool attribute_value(core_device *d, CUdevice_attribute a, int *v)
{
   const mtl_device_info *info = core_device_info(d);
   int major, minor;
   core_device_cc(d, &major, &minor);
   int sms = info->compute_units ? (int)info->compute_units : 1;
   switch ((int)a) {
   case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = (int)info->max_threads_per_threadgroup; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *v = 1024; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 0x7fffffff; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *v = 65535; break;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = (int)info->max_threadgroup_memory; break;
   case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: *v = 65536; break;
   case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = (int)info->simd_width; break;
   case CU_DEVICE_ATTRIBUTE_MAX_PITCH: *v = 0x7fffffff; break;
   case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = 65536; break;
   case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = info->clock_khz ? (int)info->clock_khz : 1000000; break;
   case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: *v = 512; break;
   case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = sms; break;
   case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: *v = 0; break;
   case CU_DEVICE_ATTRIBUTE_INTEGRATED: *v = info->has_unified_memory; break;
   case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: *v = 0; break;   /* CU_COMPUTEMODE_DEFAULT */
   case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 1000000; break;
   case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 128; break;
   case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 4 << 20; break;
   case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 1024; break;
   case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = major; break;
   case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = minor; break;
   case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = (int)info->max_threadgroup_memory; break;
   case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
   case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *v = 1; break;
   case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: *v = 32; break;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = (int)info->max_threadgroup_memory; break;
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 16; break;
   default:
      /* Features we do not model read as absent (0), which is true of
       * every remaining attribute (textures, peer access, IPC, ...). */
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
