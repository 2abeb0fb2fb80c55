/*
 * cuda_runtime.h — what nvcc makes every CUDA source see (our driver forces
 * it in with -include, as nvcc does): the runtime API, the C++ launch and
 * symbol templates, and in device code the built-in variables, intrinsics,
 * atomics and math functions.
 *
 * The device side is assembled from clang's own CUDA headers (they ship
 * with clang: built-in variables, the intrinsic wrappers over __nvvm_*
 * builtins, and the math wrappers that call libdevice's __nv_* functions)
 * plus ours (crt/mc_device_*.h); the __nv_* functions come from metalcuda's
 * device library (src/devlib/), which the driver links in place of NVIDIA's
 * libdevice.  The order follows clang's __clang_cuda_runtime_wrapper.h,
 * which does the same job over NVIDIA's headers.
 *
 * A plain C or C++ compile (no CUDA compiler) sees only the host API.
 */
#ifndef MC_CUDA_RUNTIME_H
#define MC_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__ /* NVIDIA's include guard, which libraries test */

/* these are metalcuda's headers (a program may test for them: NVIDIA's do
 * not define it) */
#define __METALCUDA__ 1

#if defined(__CUDA__) && defined(__clang__)

#include <limits.h>
#include <__clang_cuda_math_forward_declares.h>

/* libstdc++ avoids __float128 when __CUDACC__ is set: include the standard
 * headers the CUDA parts need with it, as clang's wrapper does. */
#define __CUDACC__
#include <cmath>
#include <math.h> /* nvcc makes ::isinf(float) ... visible: libstdc++'s math.h brings std's into the global namespace */
#include <cstdlib>
#include <stdlib.h>
#include <string.h>
#undef __CUDACC__

#include "host_defines.h"
#include "cuda_runtime_api.h"

#include "__clang_cuda_builtin_vars.h"
#include <__clang_cuda_libdevice_declares.h>
#define MC_SIMD_HIDE_CLANG /* clang's SIMD intrinsics are PTX video instructions: ours replace them */
#include "crt/mc_device_simd.h"
#undef MC_SIMD_HIDE_CLANG
#include <__clang_cuda_device_functions.h>
#include "crt/mc_device_simd.h"
#include <__clang_cuda_math.h>

#define __CUDACC__ 1
#ifndef __CUDACC_RTC__
#define __CUDACC_EXTENDED_LAMBDA__ 1
#define __CUDACC_RELAXED_CONSTEXPR__ 1
#endif

extern "C" {
/* Device-side system calls (PTX's vprintf, malloc, free, __assertfail;
 * __nv_aligned_device_malloc, which metalcuda's translator also knows). */
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void *__nv_aligned_device_malloc(size_t __size, size_t __align) __attribute((nothrow));
__device__ void __assertfail(const char *__message, const char *__file, unsigned __line,
                             const char *__function, size_t __charSize);
__device__ static inline void __assert_fail(const char *__message, const char *__file, unsigned __line,
                                            const char *__function)
{
   __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
/* The device runtime (dynamic parallelism) is crt/mc_device_runtime.h.
 * CUDA 11 named this symbol in device code. */
__device__ cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void);
/* A conditional graph node's value (metalcuda: a store to the handle). */
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle __handle, unsigned int __value);
}

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) { return ::malloc(__size); }
}

/* clang's <new> wrapper gives device code new and delete (placement ones
 * too, which CUB's block primitives use) once __device__ and the device's
 * malloc are declared: included again here, as clang's own CUDA wrapper
 * does.  The host side (clang's HIP mode, where that wrapper is not on the
 * path) still checks device functions: it gets the placement forms. */
#include <new>
#if !defined(__CLANG_CUDA_WRAPPERS_NEW)
__device__ inline void *operator new(size_t, void *__ptr) noexcept { return __ptr; }
__device__ inline void *operator new[](size_t, void *__ptr) noexcept { return __ptr; }
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
#endif

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return { x, y, z }; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return { x, y, z }; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return { x, y, z }; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return { x, y, z }; }

/* clang's intrinsics use make_uint2, __isShared and __cvta_generic_to_shared */
#include "vector_functions.h"
#include "crt/mc_device_intrinsics.h"
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>
#include "crt/mc_math_overloads.h"

#include "crt/mc_device_atomics.h"
#include "crt/mc_runtime_templates.h"
#include "crt/mc_device_runtime.h"
#include "crt/mc_texture_functions.h"
#include "crt/mc_rdc_unit.h"

/* nvcc's front end answers these for its "extended lambdas", whose return
 * type host code cannot query; CCCL asks them whenever __NVCC__ is
 * defined.  clang has no such lambdas: its __device__ lambdas are ordinary
 * closure types, so the answer is false. */
#ifndef __nv_is_extended_device_lambda_closure_type
#define __nv_is_extended_device_lambda_closure_type(T) false
#define __nv_is_extended_host_device_lambda_closure_type(T) false
#define __nv_is_extended_device_lambda_with_preserved_return_type(T) false
#endif

#else /* a host compiler that is not compiling CUDA */

#include "host_defines.h"
#include "cuda_runtime_api.h"
#include "vector_functions.h"
#ifdef __cplusplus
#include "crt/mc_runtime_templates.h"
#include "crt/mc_texture_functions.h"
#endif

#endif
#endif
