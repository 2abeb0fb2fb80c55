/*
 * cuda_runtime_api.h — the CUDA Runtime API in C: the types of
 * driver_types.h and the functions libcudart implements
 * (crt/mc_runtime_api.h, generated from the prototypes the library is
 * built with).
 */
#ifndef MC_CUDA_RUNTIME_API_H
#define MC_CUDA_RUNTIME_API_H
#define __CUDA_RUNTIME_API_H__ /* NVIDIA's include guard, which libraries test */

#include <stddef.h>

#include "driver_types.h"
#include "crt/mc_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The launch configuration of <<<>>> (clang calls it when checking a launch
 * in device code; host code uses __cudaPushCallConfiguration). */
extern cudaError_t CUDARTAPI cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0),
                                               cudaStream_t stream __dv(0));
extern unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0),
                                                      struct CUstream_st *stream __dv(0));
#if defined(__CUDA__) && defined(__clang__)
/* metalcuda's nvcc compiles host code as clang's HIP (for __managed__): its
 * <<<>>> and kernel stubs call these, which libcudart exports under the
 * names clang looks for */
extern unsigned __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0),
                                           struct CUstream_st *stream __dv(0));
extern cudaError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
extern cudaError_t hipLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                   cudaStream_t stream);
extern cudaError_t hipLaunchKernel_spt(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream);
#endif
#ifdef __cplusplus
}
#endif

/* driver_functions.h's constructors of the 3-D copy structures */
static __inline__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
   struct cudaPitchedPtr s;
   s.ptr = d;
   s.pitch = p;
   s.xsize = xsz;
   s.ysize = ysz;
   return s;
}
static __inline__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
   struct cudaPos p;
   p.x = x;
   p.y = y;
   p.z = z;
   return p;
}
static __inline__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
   struct cudaExtent e;
   e.width = w;
   e.height = h;
   e.depth = d;
   return e;
}

#endif
