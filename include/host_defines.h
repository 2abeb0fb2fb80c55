/*
 * host_defines.h — CUDA's declaration specifiers (__global__, __device__,
 * __shared__ ...) as clang's CUDA attributes.  Without a CUDA compiler
 * (a plain C or C++ compile of a file that includes cuda_runtime.h) they
 * expand to nothing, so host code still compiles.
 */
#ifndef MC_HOST_DEFINES_H
#define MC_HOST_DEFINES_H
/* NVIDIA's include guard, which libraries test (Thrust: whether
 * host_defines.h already defined __host__) */
#define __HOST_DEFINES_H__

#if defined(__CUDA__) && defined(__clang__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* nvcc's __managed__ implies __device__.  clang honours `managed` in HIP
 * mode only, which is how metalcuda's nvcc compiles host code: there the
 * host reaches the variable through a pointer the runtime sets.  The
 * device side (CUDA mode) has a plain global, which that pointer names. */
#if defined(__CUDA_ARCH__)
#define __managed__ __attribute__((device))
#else
#define __managed__ __attribute__((device)) __attribute__((managed))
#endif
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
/* clang 19 has no attribute for a kernel's cluster shape, so a kernel
 * declared with one cannot be compiled here: say so where it is used
 * (NVIDIA's nvcc compiles it; metalcuda runs clusters of one block). */
#define __cluster_dims__(...)                                                   \
   _Pragma("GCC error \"__cluster_dims__ is not supported by metalcuda's nvcc (clang has no attribute for a kernel's cluster shape); launch with cudaLaunchKernelEx and cudaLaunchAttributeClusterDimension instead\"")
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#endif

#define __forceinline__ __inline__ __attribute__((always_inline))
#if !(defined(__CUDA__) && defined(__clang__))
/* clang's CUDA and HIP modes take __noinline__ as a keyword, which
 * libstdc++ relies on (__attribute__((__noinline__)) in <memory>): a macro
 * would break it there */
#define __noinline__ __attribute__((noinline))
#endif
#define __inline_hint__
#define __align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __import__
#define __export__
#define __cdecl
#define __annotate__(a) __attribute__((a))
#define __location__(a) __annotate__(a)
#define __builtin_align__(a) __align__(a)
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __specialization_static
#define __nv_pure__ __attribute__((pure))
#define __CUDA_ALIGN__(n) __align__(n)
#define CUDARTAPI_CDECL
#ifndef __restrict__
#define __restrict__ __restrict
#endif

#endif
