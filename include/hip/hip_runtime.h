/*
 * hip/hip_runtime.h — what a HIP source includes (and what hipcc forces in):
 * HIP's runtime API (hip_runtime_api.h) and its device side on metalcuda's
 * CUDA headers, as HIP on NVIDIA GPUs has it: the kernel launch macro, the
 * hipThreadIdx_x family, the warp functions without a mask (__shfl,
 * __ballot: all 32 lanes, HIP's warpSize being CUDA's 32 here; __any,
 * __all: the active lanes, clang's), dynamic
 * shared memory, and everything CUDA's headers give (atomics, math,
 * intrinsics, __syncthreads ...).  Written fresh.
 */
#ifndef MC_HIP_RUNTIME_H
#define MC_HIP_RUNTIME_H

#include "hip_runtime_api.h"

#ifndef __HIPCC__
#define __HIPCC__ 1   /* a HIP compile: HIP sources test it */
#endif
#if defined(__CUDA_ARCH__)
#define __HIP_DEVICE_COMPILE__ 1
#endif

/* hipLaunchKernelGGL(kernel, grid, block, shared bytes, stream, args...) */
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
   (kernel)<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

#if defined(__CUDA__) && defined(__cplusplus)
/* HIP's warp functions take no mask: every lane of the warp.  Macros, since
 * clang's CUDA headers already declare mask-less forms (the pre-Volta
 * shfl without .sync, which HIP's semantics do not need) */
#define __shfl(...) __shfl_sync(0xffffffffu, __VA_ARGS__)
#define __shfl_up(...) __shfl_up_sync(0xffffffffu, __VA_ARGS__)
#define __shfl_down(...) __shfl_down_sync(0xffffffffu, __VA_ARGS__)
#define __shfl_xor(...) __shfl_xor_sync(0xffffffffu, __VA_ARGS__)
/* __any and __all are clang's (__clang_cuda_device_functions.h: vote
 * over the active lanes, HIP's meaning); no macro, since CCCL declares a
 * struct __any whose constructor a function-like macro would rewrite */
/* HIP's ballot is 64 bits wide (AMD's wavefronts); the upper half is 0 here */
#define __ballot(p) ((unsigned long long)__ballot_sync(0xffffffffu, (p)))
static __device__ __forceinline__ unsigned __lane_id(void) { return __nvvm_read_ptx_sreg_laneid(); }
static __device__ __forceinline__ unsigned __smid(void) { return __nvvm_read_ptx_sreg_smid(); }
#endif

#endif
