/*
 * hip/hip_runtime_api.h — HIP's runtime API on metalcuda's CUDA runtime, as
 * HIP does on NVIDIA GPUs (its "nvidia" platform): every HIP type is the
 * CUDA type, every HIP constant the CUDA constant of the same meaning, and
 * every hip* function a one-line inline call of the cuda* function (HIP
 * documentation: HIP API reference; the CUDA equivalents from HIP's
 * "CUDA to HIP API function comparison").  Written fresh.
 *
 * hipError_t is cudaError_t, so hipGetErrorString and the numeric values
 * are CUDA's; the device has CUDA's warp size of 32, as HIP on NVIDIA
 * reports.  A HIP function with no CUDA counterpart in metalcuda is not
 * declared (the compile names it).
 */
#ifndef MC_HIP_RUNTIME_API_H
#define MC_HIP_RUNTIME_API_H

#include "../cuda_runtime.h"

#define __HIP_PLATFORM_NVIDIA__ 1
#define __HIP_PLATFORM_NVCC__ 1   /* the older name */
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

/* ---- types ---- */
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef enum cudaMemcpyKind hipMemcpyKind;
typedef struct cudaFuncAttributes hipFuncAttributes;
typedef struct cudaPointerAttributes hipPointerAttribute_t;
typedef enum cudaDeviceAttr hipDeviceAttribute_t;
typedef enum cudaFuncCache hipFuncCache_t;
typedef enum cudaLimit hipLimit_t;
typedef void *hipDeviceptr_t;
#ifdef __cplusplus
/* CUDA's properties, plus the fields HIP adds (what they mean on NVIDIA) */
struct hipDeviceProp_t : cudaDeviceProp {
   char gcnArchName[256];                    /* "" on NVIDIA */
   size_t maxSharedMemoryPerMultiProcessor;  /* sharedMemPerMultiprocessor */
   int isLargeBar;
};
#else
typedef struct cudaDeviceProp hipDeviceProp_t;
#endif

/* ---- constants: CUDA's ---- */
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNotInitialized cudaErrorInitializationError
#define hipErrorInitializationError cudaErrorInitializationError
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidDevicePointer cudaErrorInvalidDevicePointer
#define hipErrorInvalidMemcpyDirection cudaErrorInvalidMemcpyDirection
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorInvalidResourceHandle cudaErrorInvalidResourceHandle
#define hipErrorInvalidHandle cudaErrorInvalidResourceHandle
#define hipErrorInvalidSymbol cudaErrorInvalidSymbol
#define hipErrorInvalidDeviceFunction cudaErrorInvalidDeviceFunction
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorNotSupported cudaErrorNotSupported
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorIllegalAddress cudaErrorIllegalAddress
#define hipErrorAssert cudaErrorAssert
#define hipErrorUnknown cudaErrorUnknown

#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault

#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamPerThread cudaStreamPerThread
#define hipEventDefault cudaEventDefault
#define hipEventBlockingSync cudaEventBlockingSync
#define hipEventDisableTiming cudaEventDisableTiming
#define hipEventInterprocess cudaEventInterprocess

#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocPortable cudaHostAllocPortable
#define hipHostMallocMapped cudaHostAllocMapped
#define hipHostMallocWriteCombined cudaHostAllocWriteCombined
#define hipHostRegisterDefault cudaHostRegisterDefault
#define hipHostRegisterPortable cudaHostRegisterPortable
#define hipHostRegisterMapped cudaHostRegisterMapped
#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipMemAttachHost cudaMemAttachHost
#define hipDeviceScheduleAuto cudaDeviceScheduleAuto
#define hipDeviceScheduleSpin cudaDeviceScheduleSpin
#define hipDeviceScheduleYield cudaDeviceScheduleYield
#define hipDeviceScheduleBlockingSync cudaDeviceScheduleBlockingSync
#define hipDeviceMapHost cudaDeviceMapHost

#define hipFuncCachePreferNone cudaFuncCachePreferNone
#define hipFuncCachePreferShared cudaFuncCachePreferShared
#define hipFuncCachePreferL1 cudaFuncCachePreferL1
#define hipFuncCachePreferEqual cudaFuncCachePreferEqual
#define hipLimitStackSize cudaLimitStackSize
#define hipLimitPrintfFifoSize cudaLimitPrintfFifoSize
#define hipLimitMallocHeapSize cudaLimitMallocHeapSize

#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxBlockDimX cudaDevAttrMaxBlockDimX
#define hipDeviceAttributeMaxBlockDimY cudaDevAttrMaxBlockDimY
#define hipDeviceAttributeMaxBlockDimZ cudaDevAttrMaxBlockDimZ
#define hipDeviceAttributeMaxGridDimX cudaDevAttrMaxGridDimX
#define hipDeviceAttributeMaxGridDimY cudaDevAttrMaxGridDimY
#define hipDeviceAttributeMaxGridDimZ cudaDevAttrMaxGridDimZ
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeMaxRegistersPerBlock cudaDevAttrMaxRegistersPerBlock
#define hipDeviceAttributeTotalConstantMemory cudaDevAttrTotalConstantMemory
#define hipDeviceAttributeManagedMemory cudaDevAttrManagedMemory
#define hipDeviceAttributeConcurrentKernels cudaDevAttrConcurrentKernels

/* ---- functions ---- */
#define MC_HIP static __inline__ __host__

MC_HIP hipError_t hipGetLastError(void) { return cudaGetLastError(); }
MC_HIP hipError_t hipPeekAtLastError(void) { return cudaPeekAtLastError(); }
MC_HIP const char *hipGetErrorString(hipError_t e) { return cudaGetErrorString(e); }
MC_HIP const char *hipGetErrorName(hipError_t e) { return cudaGetErrorName(e); }

MC_HIP hipError_t hipInit(unsigned flags) { (void)flags; return cudaFree(0); }
MC_HIP hipError_t hipGetDeviceCount(int *n) { return cudaGetDeviceCount(n); }
MC_HIP hipError_t hipSetDevice(int d) { return cudaSetDevice(d); }
MC_HIP hipError_t hipGetDevice(int *d) { return cudaGetDevice(d); }
MC_HIP hipError_t hipDeviceSynchronize(void) { return cudaDeviceSynchronize(); }
MC_HIP hipError_t hipDeviceReset(void) { return cudaDeviceReset(); }
MC_HIP hipError_t hipSetDeviceFlags(unsigned f) { return cudaSetDeviceFlags(f); }
MC_HIP hipError_t hipGetDeviceFlags(unsigned *f) { return cudaGetDeviceFlags(f); }
MC_HIP hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d) { return cudaDeviceGetAttribute(v, a, d); }
MC_HIP hipError_t hipDeviceSetCacheConfig(hipFuncCache_t c) { return cudaDeviceSetCacheConfig(c); }
MC_HIP hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *c) { return cudaDeviceGetCacheConfig(c); }
MC_HIP hipError_t hipDeviceSetLimit(hipLimit_t l, size_t v) { return cudaDeviceSetLimit(l, v); }
MC_HIP hipError_t hipDeviceGetLimit(size_t *v, hipLimit_t l) { return cudaDeviceGetLimit(v, l); }
MC_HIP hipError_t hipDeviceCanAccessPeer(int *can, int d, int peer) { return cudaDeviceCanAccessPeer(can, d, peer); }
MC_HIP hipError_t hipDriverGetVersion(int *v) { return cudaDriverGetVersion(v); }
MC_HIP hipError_t hipRuntimeGetVersion(int *v) { return cudaRuntimeGetVersion(v); }
MC_HIP hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int d)
{
   hipError_t e = cudaGetDeviceProperties((struct cudaDeviceProp *)p, d);
#ifdef __cplusplus
   if (e == cudaSuccess) {
      p->gcnArchName[0] = 0;
      p->maxSharedMemoryPerMultiProcessor = p->sharedMemPerMultiprocessor;
      p->isLargeBar = 0;
   }
#endif
   return e;
}

MC_HIP hipError_t hipMalloc(void **p, size_t n) { return cudaMalloc(p, n); }
MC_HIP hipError_t hipFree(void *p) { return cudaFree(p); }
MC_HIP hipError_t hipMallocManaged(void **p, size_t n, unsigned flags __dv(cudaMemAttachGlobal)) { return cudaMallocManaged(p, n, flags); }
MC_HIP hipError_t hipHostMalloc(void **p, size_t n, unsigned flags __dv(0)) { return cudaHostAlloc(p, n, flags); }
MC_HIP hipError_t hipMallocHost(void **p, size_t n) { return cudaMallocHost(p, n); }
MC_HIP hipError_t hipHostAlloc(void **p, size_t n, unsigned flags) { return cudaHostAlloc(p, n, flags); }
MC_HIP hipError_t hipHostFree(void *p) { return cudaFreeHost(p); }
MC_HIP hipError_t hipFreeHost(void *p) { return cudaFreeHost(p); }
MC_HIP hipError_t hipHostGetDevicePointer(void **d, void *h, unsigned flags) { return cudaHostGetDevicePointer(d, h, flags); }
MC_HIP hipError_t hipHostRegister(void *h, size_t n, unsigned flags) { return cudaHostRegister(h, n, flags); }
MC_HIP hipError_t hipHostUnregister(void *h) { return cudaHostUnregister(h); }
MC_HIP hipError_t hipMemGetInfo(size_t *free_b, size_t *total) { return cudaMemGetInfo(free_b, total); }
MC_HIP hipError_t hipMallocPitch(void **p, size_t *pitch, size_t w, size_t h) { return cudaMallocPitch(p, pitch, w, h); }
MC_HIP hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a, const void *p) { return cudaPointerGetAttributes(a, p); }
MC_HIP hipError_t hipMemcpy(void *d, const void *s, size_t n, hipMemcpyKind k) { return cudaMemcpy(d, s, n, k); }
MC_HIP hipError_t hipMemcpyAsync(void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st __dv(0))
{
   return cudaMemcpyAsync(d, s, n, k, st);
}
MC_HIP hipError_t hipMemcpyHtoD(hipDeviceptr_t d, const void *s, size_t n) { return cudaMemcpy(d, s, n, cudaMemcpyHostToDevice); }
MC_HIP hipError_t hipMemcpyDtoH(void *d, hipDeviceptr_t s, size_t n) { return cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost); }
MC_HIP hipError_t hipMemcpyDtoD(hipDeviceptr_t d, hipDeviceptr_t s, size_t n) { return cudaMemcpy(d, s, n, cudaMemcpyDeviceToDevice); }
MC_HIP hipError_t hipMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, hipMemcpyKind k)
{
   return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
MC_HIP hipError_t hipMemset(void *p, int v, size_t n) { return cudaMemset(p, v, n); }
MC_HIP hipError_t hipMemsetAsync(void *p, int v, size_t n, hipStream_t st __dv(0)) { return cudaMemsetAsync(p, v, n, st); }
MC_HIP hipError_t hipMemPrefetchAsync(const void *p, size_t n, int d, hipStream_t st __dv(0))
{
   struct cudaMemLocation loc;   /* CUDA 13 names the place: a device, or the host for -1 */
   loc.type = d < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
   loc.id = d < 0 ? 0 : d;
   return cudaMemPrefetchAsync(p, n, loc, 0, st);
}

MC_HIP hipError_t hipStreamCreate(hipStream_t *s) { return cudaStreamCreate(s); }
MC_HIP hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned f) { return cudaStreamCreateWithFlags(s, f); }
MC_HIP hipError_t hipStreamCreateWithPriority(hipStream_t *s, unsigned f, int p) { return cudaStreamCreateWithPriority(s, f, p); }
MC_HIP hipError_t hipStreamDestroy(hipStream_t s) { return cudaStreamDestroy(s); }
MC_HIP hipError_t hipStreamSynchronize(hipStream_t s) { return cudaStreamSynchronize(s); }
MC_HIP hipError_t hipStreamQuery(hipStream_t s) { return cudaStreamQuery(s); }
MC_HIP hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned f __dv(0)) { return cudaStreamWaitEvent(s, e, f); }
MC_HIP hipError_t hipStreamGetFlags(hipStream_t s, unsigned *f) { return cudaStreamGetFlags(s, f); }
MC_HIP hipError_t hipStreamGetPriority(hipStream_t s, int *p) { return cudaStreamGetPriority(s, p); }
MC_HIP hipError_t hipDeviceGetStreamPriorityRange(int *lo, int *hi) { return cudaDeviceGetStreamPriorityRange(lo, hi); }
typedef void (*hipStreamCallback_t)(hipStream_t, hipError_t, void *);
MC_HIP hipError_t hipStreamAddCallback(hipStream_t s, hipStreamCallback_t cb, void *user, unsigned f)
{
   return cudaStreamAddCallback(s, cb, user, f);
}
typedef void (*hipHostFn_t)(void *);
MC_HIP hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void *user) { return cudaLaunchHostFunc(s, fn, user); }

MC_HIP hipError_t hipEventCreate(hipEvent_t *e) { return cudaEventCreate(e); }
MC_HIP hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned f) { return cudaEventCreateWithFlags(e, f); }
MC_HIP hipError_t hipEventRecord(hipEvent_t e, hipStream_t s __dv(0)) { return cudaEventRecord(e, s); }
MC_HIP hipError_t hipEventSynchronize(hipEvent_t e) { return cudaEventSynchronize(e); }
MC_HIP hipError_t hipEventQuery(hipEvent_t e) { return cudaEventQuery(e); }
MC_HIP hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) { return cudaEventElapsedTime(ms, a, b); }
MC_HIP hipError_t hipEventDestroy(hipEvent_t e) { return cudaEventDestroy(e); }

MC_HIP hipError_t hipFuncGetAttributes(hipFuncAttributes *a, const void *f) { return cudaFuncGetAttributes(a, f); }
MC_HIP hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t shared)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, block, shared);
}
/* hipLaunchKernel is exported by libcudart (cuda_runtime_api.h declares it) */

#ifdef __cplusplus
/* the typed forms HIP has as templates */
template <class T> MC_HIP hipError_t hipMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> MC_HIP hipError_t hipMallocManaged(T **p, size_t n, unsigned flags = cudaMemAttachGlobal)
{
   return cudaMallocManaged((void **)p, n, flags);
}
template <class T> MC_HIP hipError_t hipHostMalloc(T **p, size_t n, unsigned flags = 0) { return cudaHostAlloc((void **)p, n, flags); }
template <class T> MC_HIP hipError_t hipMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
template <class T> MC_HIP hipError_t hipMemcpyToSymbol(const T &sym, const void *src, size_t n, size_t off = 0,
                                                     hipMemcpyKind k = cudaMemcpyHostToDevice)
{
   return cudaMemcpyToSymbol(sym, src, n, off, k);
}
template <class T> MC_HIP hipError_t hipMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                                       hipMemcpyKind k = cudaMemcpyDeviceToHost)
{
   return cudaMemcpyFromSymbol(dst, sym, n, off, k);
}
template <class T> MC_HIP hipError_t hipGetSymbolAddress(void **p, const T &sym) { return cudaGetSymbolAddress(p, sym); }
template <class T> MC_HIP hipError_t hipGetSymbolSize(size_t *n, const T &sym) { return cudaGetSymbolSize(n, sym); }
template <class T> MC_HIP hipError_t hipFuncGetAttributes(hipFuncAttributes *a, T *f)
{
   return cudaFuncGetAttributes(a, (const void *)f);
}
template <class T> MC_HIP hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T f, int block, size_t shared)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, block, shared);
}
template <class T> MC_HIP hipError_t hipOccupancyMaxPotentialBlockSize(int *grid, int *block, T f, size_t shared = 0,
                                                                      int limit = 0)
{
   return cudaOccupancyMaxPotentialBlockSize(grid, block, f, shared, limit);
}
#define HIP_SYMBOL(x) x
#endif

#undef MC_HIP
#endif
