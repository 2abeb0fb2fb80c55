/* device_launch_parameters.h — threadIdx, blockIdx, blockDim, gridDim and
 * warpSize: cuda_runtime.h declares them (clang's built-in variables). */
#ifndef MC_DEVICE_LAUNCH_PARAMETERS_H
#define MC_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
