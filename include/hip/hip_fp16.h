/* hip/hip_fp16.h — HIP's __half and __half2 are CUDA's (cuda_fp16.h) */
#ifndef MC_HIP_FP16_H
#define MC_HIP_FP16_H
#include "hip_runtime.h"
#include "../cuda_fp16.h"
#endif
