/*
 * crt/mc_device_runtime.h — the device runtime (dynamic parallelism) for
 * device code compiled by metalcuda's nvcc: CUDA 12's device-side API over
 * the functions NVIDIA's cudadevrt names __cudaCDP2*, which metalcuda's
 * runtime links into a module that calls them (src/core/devrt.c), and the
 * form the driver rewrites a launch in device code into.
 *
 * clang refuses `kernel<<<grid, block, shared, stream>>>(args)` in device
 * code ("reference to __global__ function in __global__ function"): it has
 * no dynamic parallelism.  The driver (src/toolchain/source_fix.c) then
 * compiles a copy of the file in which each such launch reads
 *
 *     __mc_cdp_launch<kernel>(grid, block, shared, stream)(args)
 *
 * which does what nvcc's code does: a parameter buffer from
 * __cudaCDP2GetParameterBufferV2, each argument converted to its
 * parameter's type and stored at its offset (each aligned to its type, as
 * a kernel's parameters are laid out), then __cudaCDP2LaunchDeviceV2; no
 * launch when no buffer is given (the runtime reports that through
 * cudaGetLastError).  The kernel's address comes from a variable template
 * initialised with it (__mc_kernel_address), which clang takes: its
 * initialiser is no reference from device code; the driver rewrites a
 * kernel named in device code without a launch (its address, for
 * cudaLaunchDevice) into __mc_kernel_fn<kernel> likewise.
 */
#ifndef MC_DEVICE_RUNTIME_H
#define MC_DEVICE_RUNTIME_H

#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)

extern "C" {
__device__ void *__cudaCDP2GetParameterBufferV2(void *__func, dim3 __grid, dim3 __block, unsigned int __shared);
__device__ cudaError_t __cudaCDP2LaunchDeviceV2(void *__buffer, cudaStream_t __stream);
__device__ cudaError_t __cudaCDP2Malloc(void **__ptr, size_t __size);
__device__ cudaError_t __cudaCDP2Free(void *__ptr);
__device__ cudaError_t __cudaCDP2MemcpyAsync(void *__dst, const void *__src, size_t __count, enum cudaMemcpyKind __kind,
                                             cudaStream_t __stream);
__device__ cudaError_t __cudaCDP2GetLastError(void);
__device__ cudaError_t __cudaCDP2PeekAtLastError(void);
__device__ const char *__cudaCDP2GetErrorString(cudaError_t __error);
__device__ cudaError_t __cudaCDP2StreamCreateWithFlags(cudaStream_t *__stream, unsigned int __flags);
__device__ cudaError_t __cudaCDP2StreamDestroy(cudaStream_t __stream);
__device__ void *__cudaCDP2GetParameterBuffer(size_t __alignment, size_t __size);
__device__ cudaError_t __cudaCDP2LaunchDevice(void *__func, void *__buffer, dim3 __grid, dim3 __block,
                                              unsigned int __shared, cudaStream_t __stream);
__device__ cudaError_t __cudaCDP2MemsetAsync(void *__dst, int __value, size_t __count, cudaStream_t __stream);
__device__ cudaError_t __cudaCDP2EventCreateWithFlags(cudaEvent_t *__event, unsigned int __flags);
__device__ cudaError_t __cudaCDP2EventRecord(cudaEvent_t __event, cudaStream_t __stream);
__device__ cudaError_t __cudaCDP2EventRecordWithFlags(cudaEvent_t __event, cudaStream_t __stream, unsigned int __flags);
__device__ cudaError_t __cudaCDP2StreamWaitEvent(cudaStream_t __stream, cudaEvent_t __event, unsigned int __flags);
__device__ cudaError_t __cudaCDP2EventDestroy(cudaEvent_t __event);
__device__ cudaError_t __cudaCDP2GetDevice(int *__device);
}

/* The device-side forms of the runtime's calls (CUDA's
 * cuda_device_runtime_api.h declares the same set), overloads of the host
 * functions for device code. */
static __device__ inline cudaError_t cudaMalloc(void **__ptr, size_t __size) { return __cudaCDP2Malloc(__ptr, __size); }
template <class T> static __device__ inline cudaError_t cudaMalloc(T **__ptr, size_t __size)
{
   return __cudaCDP2Malloc((void **)(void *)__ptr, __size);
}
static __device__ inline cudaError_t cudaFree(void *__ptr) { return __cudaCDP2Free(__ptr); }
static __device__ inline cudaError_t cudaMemcpyAsync(void *__dst, const void *__src, size_t __count,
                                                     enum cudaMemcpyKind __kind, cudaStream_t __stream = 0)
{
   return __cudaCDP2MemcpyAsync(__dst, __src, __count, __kind, __stream);
}
static __device__ inline cudaError_t cudaGetLastError(void) { return __cudaCDP2GetLastError(); }
static __device__ inline cudaError_t cudaPeekAtLastError(void) { return __cudaCDP2PeekAtLastError(); }
static __device__ inline const char *cudaGetErrorString(cudaError_t __error) { return __cudaCDP2GetErrorString(__error); }
static __device__ inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *__stream, unsigned int __flags)
{
   return __cudaCDP2StreamCreateWithFlags(__stream, __flags);
}
static __device__ inline cudaError_t cudaStreamDestroy(cudaStream_t __stream) { return __cudaCDP2StreamDestroy(__stream); }
static __device__ inline cudaError_t cudaMemsetAsync(void *__dst, int __value, size_t __count, cudaStream_t __stream = 0)
{
   return __cudaCDP2MemsetAsync(__dst, __value, __count, __stream);
}
static __device__ inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *__event, unsigned int __flags)
{
   return __cudaCDP2EventCreateWithFlags(__event, __flags);
}
static __device__ inline cudaError_t cudaEventRecord(cudaEvent_t __event, cudaStream_t __stream = 0)
{
   return __cudaCDP2EventRecord(__event, __stream);
}
static __device__ inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t __event, cudaStream_t __stream = 0,
                                                              unsigned int __flags = 0)
{
   return __cudaCDP2EventRecordWithFlags(__event, __stream, __flags);
}
static __device__ inline cudaError_t cudaStreamWaitEvent(cudaStream_t __stream, cudaEvent_t __event,
                                                         unsigned int __flags = 0)
{
   return __cudaCDP2StreamWaitEvent(__stream, __event, __flags);
}
static __device__ inline cudaError_t cudaEventDestroy(cudaEvent_t __event) { return __cudaCDP2EventDestroy(__event); }
static __device__ inline cudaError_t cudaGetDevice(int *__device) { return __cudaCDP2GetDevice(__device); }
/* the explicit launch API (CUDA 12 maps these names onto __cudaCDP2*) */
static __device__ inline void *cudaGetParameterBuffer(size_t __alignment, size_t __size)
{
   return __cudaCDP2GetParameterBuffer(__alignment, __size);
}
static __device__ inline cudaError_t cudaLaunchDevice(void *__func, void *__buffer, dim3 __grid, dim3 __block,
                                                      unsigned int __shared, cudaStream_t __stream)
{
   return __cudaCDP2LaunchDevice(__func, __buffer, __grid, __block, __shared, __stream);
}

/* ---- device-side launches ---- */

template <auto __kernel> __device__ void *const __mc_kernel_address = (void *)__kernel;
/* a kernel's address where device code names it without launching it
 * (the driver rewrites `kernel` and `&kernel` there into this) */
template <auto __kernel> __device__ const decltype(__kernel) __mc_kernel_fn = __kernel;

template <class __F> struct __mc_kernel_params;
template <class... __P> struct __mc_kernel_params<void (*)(__P...)> {
   /* stores the parameters at their offsets in buf */
   static __device__ void store(char *__buf, __P... __p)
   {
      size_t __at = 0;
      ((__at = (__at + alignof(__P) - 1) / alignof(__P) * alignof(__P),
        __builtin_memcpy(__buf + __at, &__p, sizeof(__P)), __at += sizeof(__P)),
       ...);
      (void)__at;
   }
};

template <auto __kernel> struct __mc_cdp_launcher {
   dim3 __grid, __block;
   unsigned int __shared;
   cudaStream_t __stream;
   template <class... __A> __host__ __device__ void operator()(__A &&...__args) const
   {
#ifdef __CUDA_ARCH__
      void *__buf = __cudaCDP2GetParameterBufferV2(__mc_kernel_address<__kernel>, __grid, __block, __shared);
      if (!__buf)
         return;
      __mc_kernel_params<decltype(__kernel)>::store((char *)__buf, static_cast<__A &&>(__args)...);
      __cudaCDP2LaunchDeviceV2(__buf, __stream);
#endif
   }
};

/* a launch's configuration, as <<<grid, block, shared, stream>>> takes it */
template <auto __kernel>
__host__ __device__ inline __mc_cdp_launcher<__kernel> __mc_cdp_launch(dim3 __grid, dim3 __block, size_t __shared = 0,
                                                                       cudaStream_t __stream = 0)
{
   return { __grid, __block, (unsigned int)__shared, __stream };
}

#endif
