/* hip/hip_bf16.h — HIP's bfloat16 is CUDA's (cuda_bf16.h), under HIP's names */
#ifndef MC_HIP_BF16_H
#define MC_HIP_BF16_H
#include "hip_runtime.h"
#include "../cuda_bf16.h"
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
#endif
