/*
 * kernels.cu — libcublasLt's device code (CUDA C, built to PTX by
 * metalcuda's nvcc and embedded by kernels.S): cublasLtMatrixTransform's
 * C = alpha op(A) + beta op(B), computed in the scale type (float, or
 * double for double data) as alpha a + beta b and rounded once to C's
 * type; and the epilogue that follows a
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

template <class T, class S> __device__ __forceinline__ void transform(const lt_transform_args &g)
{
   S alpha = g.alpha_ptr ? *(const S *)g.alpha_ptr : (S)g.alpha;
   S beta = g.beta_ptr ? *(const S *)g.beta_ptr : (S)g.beta;
   i64 per = g.rows * g.cols, total = per * g.batch;
   for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < total; e += (i64)gridDim.x * blockDim.x) {
      i64 b = e / per, r = e % per;
      i64 i = g.c_row ? r / g.cols : r % g.rows;
      i64 j = g.c_row ? r % g.cols : r / g.rows;
      S v = (S)0;
      if (g.A) {
         i64 ai = g.a_trans ? j : i, aj = g.a_trans ? i : j;
         v = alpha * (S)ld_val((const T *)g.A + b * g.strideA + (g.a_row ? ai * g.lda + aj : aj * g.lda + ai));
      }
      if (g.B) {
         i64 bi = g.b_trans ? j : i, bj = g.b_trans ? i : j;
         S t = beta * (S)ld_val((const T *)g.B + b * g.strideB + (g.b_row ? bi * g.ldb + bj : bj * g.ldb + bi));
         v = g.A ? v + t : t;
      }
      st_val((T *)g.C + b * g.strideC + (g.c_row ? i * g.ldc + j : j * g.ldc + i), v);
   }
}

extern "C" __global__ void lt_transform_s(lt_transform_args g) { transform<float, float>(g); }
extern "C" __global__ void lt_transform_d(lt_transform_args g) { transform<double, double>(g); }
extern "C" __global__ void lt_transform_h(lt_transform_args g) { transform<__half, float>(g); }
extern "C" __global__ void lt_transform_b(lt_transform_args g) { transform<bf16bits, float>(g); }
