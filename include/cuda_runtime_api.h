/*
 * cuda_runtime_api.h — the CUDA Runtime API in C: the types of
 * driver_types.h and the functions libcudart implements
 * (crt/mc_runtime_api.h, generated from the prototypes the library is
 * built with).
 */
#ifndef MC_CUDA_RUNTIME_API_H
#define MC_CUDA_RUNTIME_API_H

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
#ifdef __cplusplus
}
#endif

#endif
