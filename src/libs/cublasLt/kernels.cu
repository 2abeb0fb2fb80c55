/*
 * kernels.cu — libcublasLt's device code (CUDA C, built to PTX by
 * metalcuda's nvcc and embedded by kernels.S): the epilogue that follows a
 * matmul's product, an element of D per thread: D += bias[row], then
 * ReLU (max(x, 0)) or GELU in the tanh form cuBLASLt documents,
 * 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed in float (in
 * double for double D) and rounded once to D's type.
 */
#include <cuda_fp16.h>
#include "kargs.h"
#include "../bf16bits.h"

typedef long long i64;

__device__ __forceinline__ float ld_val(const float *p) { return *p; }
__device__ __forceinline__ double ld_val(const double *p) { return *p; }
__device__ __forceinline__ float ld_val(const __half *p) { return __half2float(*p); }
__device__ __forceinline__ void st_val(float *p, float v) { *p = v; }
__device__ __forceinline__ void st_val(double *p, double v) { *p = v; }
__device__ __forceinline__ void st_val(__half *p, float v) { *p = __float2half(v); }
__device__ __forceinline__ float ld_val(const bf16bits *p) { return bf16_to_float(*p); }
__device__ __forceinline__ void st_val(bf16bits *p, float v) { *p = bf16_from_float(v); }

template <class C> __device__ __forceinline__ C activate(C x, int act)
{
   if (act == LT_ACT_RELU)
      return x > (C)0 ? x : (C)0;
   if (act == LT_ACT_GELU)
      return (C)0.5 * x * ((C)1 + tanh((C)0.7978845608028654 * (x + (C)0.044715 * x * x * x)));
   return x;
}

template <class T, class C> __device__ __forceinline__ void epilogue(const lt_epilogue_args &g)
{
   i64 per = g.rows * g.cols, total = per * g.batch;
   for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < total; e += (i64)gridDim.x * blockDim.x) {
      i64 b = e / per, r = e % per;
      i64 i = g.row_major ? r / g.cols : r % g.rows;   /* the row of D */
      i64 j = g.row_major ? r % g.cols : r / g.rows;
      T *d = (T *)g.D + b * g.strideD + (g.row_major ? i * g.ld + j : j * g.ld + i);
      C v = ld_val(d);
      if (g.bias)
         v += ld_val((const T *)g.bias + b * g.strideBias + i);
      st_val(d, activate(v, g.act));
   }
}

extern "C" __global__ void lt_epilogue_s(lt_epilogue_args g) { epilogue<float, float>(g); }
extern "C" __global__ void lt_epilogue_d(lt_epilogue_args g) { epilogue<double, double>(g); }
extern "C" __global__ void lt_epilogue_h(lt_epilogue_args g) { epilogue<__half, float>(g); }
extern "C" __global__ void lt_epilogue_b(lt_epilogue_args g) { epilogue<bf16bits, float>(g); }
