/*
 * kernels.cu — libcublas's device code, CUDA C built to PTX by metalcuda's
 * own nvcc (the Makefile) and embedded in the library (kernels.S), which
 * loads it with cuModuleLoadData like any program.
 *
 * Written for the software Metal device first: kernels without barriers run
 * there as a plain loop over the threads of a group, each thread start to
 * end (src/metal/soft/README.md), so the GEMM gives every thread a
 * CB_TM x CB_TN register tile of C and a k-loop over whole panels: with A
 * not transposed the CB_TM loads of a column are adjacent and the host
 * compiler turns the tile's multiply-adds into vector FMAs along the rows.
 * Transposes are template parameters (a stride known to be 1 is what lets
 * the loads be vectorised).  Threads on the edge of C clamp their loads to
 * the matrix and store only what is inside.
 *
 * Reductions (dot, nrm2, asum, iamax, iamin) are two passes: CB_RED_BLOCKS
 * blocks of grid-stride partial sums reduced in shared memory, then one
 * block that combines the partials and writes the result to device memory
 * (the host copies it back in host pointer mode).
 *
 * Multiply-adds are fma() (one rounding), so results differ from a
 * reference BLAS in the last bits, within the usual error bound.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include "kargs.h"
#include "../bf16bits.h"

typedef long long i64;

template <class T> struct cplx { T x, y; };

template <class T> __device__ __forceinline__ T sval(const cb_scalar &s);
template <> __device__ __forceinline__ float sval<float>(const cb_scalar &s) { return s.p ? *(const float *)s.p : s.f; }
template <> __device__ __forceinline__ double sval<double>(const cb_scalar &s) { return s.p ? *(const double *)s.p : s.d; }
template <> __device__ __forceinline__ cplx<float> sval<cplx<float> >(const cb_scalar &s)
{
   return s.p ? *(const cplx<float> *)s.p : cplx<float>{ s.f, s.fi };
}
template <> __device__ __forceinline__ cplx<double> sval<cplx<double> >(const cb_scalar &s)
{
   return s.p ? *(const cplx<double> *)s.p : cplx<double>{ s.d, s.di };
}
/* The integer compute type (CUBLAS_COMPUTE_32I) takes int32 scalars. */
template <> __device__ __forceinline__ int sval<int>(const cb_scalar &s) { return s.p ? *(const int *)s.p : (int)s.d; }
/* A half-precision compute type takes a half scalar in memory. */
__device__ __forceinline__ float sval_half(const cb_scalar &s) { return s.p ? __half2float(*(const __half *)s.p) : s.f; }

__device__ __forceinline__ float fmaT(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fmaT(double a, double b, double c) { return fma(a, b, c); }
/* int32 arithmetic wraps, as the GPU's does (in unsigned: no overflow to
 * be undefined) */
__device__ __forceinline__ int fmaT(int a, int b, int c) { return (int)((unsigned)a * (unsigned)b + (unsigned)c); }
__device__ __forceinline__ float mulT(float a, float b) { return a * b; }
__device__ __forceinline__ double mulT(double a, double b) { return a * b; }
__device__ __forceinline__ int mulT(int a, int b) { return (int)((unsigned)a * (unsigned)b); }

/* 16-bit storage (the half and bfloat16 gemv, the Level 1 Ex forms):
 * float arithmetic, each stored result rounded once; bf16 kept as its
 * bits (a float's upper half), rounded to nearest even on the way out.
 * tofl of a float or double is the value itself. */
__device__ __forceinline__ float tofl(__half h) { return __half2float(h); }
__device__ __forceinline__ float tofl(float f) { return f; }
__device__ __forceinline__ double tofl(double d) { return d; }
__device__ __forceinline__ float tofl(bf16bits b) { return bf16_to_float(b); }
__device__ __forceinline__ void stfl(__half *p, float v) { *p = __float2half(v); }
__device__ __forceinline__ void stfl(float *p, float v) { *p = v; }
__device__ __forceinline__ void stfl(bf16bits *p, float v) { *p = bf16_from_float(v); }

/* ---- Level 1, elementwise ---- */

#define GRID_STRIDE(i, n) for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

template <class T> __device__ __forceinline__ void axpy(const cb_l1_args &g)
{
   T a = sval<T>(g.a);
   T *x = (T *)g.x, *y = (T *)g.y;
   GRID_STRIDE(i, g.n) y[i * g.incy] = fmaT(a, x[i * g.incx], y[i * g.incy]);
}
template <class T> __device__ __forceinline__ void scal(const cb_l1_args &g)
{
   T a = sval<T>(g.a);
   T *x = (T *)g.x;
   GRID_STRIDE(i, g.n) x[i * g.incx] = a * x[i * g.incx];
}
template <class T> __device__ __forceinline__ void copy(const cb_l1_args &g)
{
   T *x = (T *)g.x, *y = (T *)g.y;
   GRID_STRIDE(i, g.n) y[i * g.incy] = x[i * g.incx];
}
template <class T> __device__ __forceinline__ void swap(const cb_l1_args &g)
{
   T *x = (T *)g.x, *y = (T *)g.y;
   GRID_STRIDE(i, g.n)
   {
      T t = x[i * g.incx];
      x[i * g.incx] = y[i * g.incy];
      y[i * g.incy] = t;
   }
}
/* x' = c x + s y, y' = c y - s x (BLAS drot) */
template <class T> __device__ __forceinline__ void rot(const cb_l1_args &g)
{
   T c = sval<T>(g.a), s = sval<T>(g.b);
   T *x = (T *)g.x, *y = (T *)g.y;
   GRID_STRIDE(i, g.n)
   {
      T xv = x[i * g.incx], yv = y[i * g.incy];
      x[i * g.incx] = c * xv + s * yv;
      y[i * g.incy] = c * yv - s * xv;
   }
}

/* rotm: (x', y') = H (x, y) with H = [a.re b.re; a.im b.im], the host
 * having expanded rotm's flag (so the values, never a device pointer) */
__device__ __forceinline__ void hmat(const cb_l1_args &g, float (&hm)[4]) { hm[0] = g.a.f; hm[1] = g.a.fi; hm[2] = g.b.f; hm[3] = g.b.fi; }
__device__ __forceinline__ void hmat(const cb_l1_args &g, double (&hm)[4]) { hm[0] = g.a.d; hm[1] = g.a.di; hm[2] = g.b.d; hm[3] = g.b.di; }
template <class T> __device__ __forceinline__ void rotm(const cb_l1_args &g)
{
   T hm[4];
   hmat(g, hm);
   T *x = (T *)g.x, *y = (T *)g.y;
   GRID_STRIDE(i, g.n)
   {
      T xv = x[i * g.incx], yv = y[i * g.incy];
      x[i * g.incx] = fmaT(hm[0], xv, hm[2] * yv);
      y[i * g.incy] = fmaT(hm[1], xv, hm[3] * yv);
   }
}

/* complex axpy and scal (c/z) */
template <class T> __device__ __forceinline__ void caxpy(const cb_l1_args &g)
{
   cplx<T> a = sval<cplx<T> >(g.a);
   cplx<T> *x = (cplx<T> *)g.x, *y = (cplx<T> *)g.y;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> xv = x[i * g.incx], yv = y[i * g.incy];
      yv.x = fmaT(a.x, xv.x, fmaT(-a.y, xv.y, yv.x));
      yv.y = fmaT(a.x, xv.y, fmaT(a.y, xv.x, yv.y));
      y[i * g.incy] = yv;
   }
}
template <class T> __device__ __forceinline__ void cscal(const cb_l1_args &g)
{
   cplx<T> a = sval<cplx<T> >(g.a);
   cplx<T> *x = (cplx<T> *)g.x;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> v = x[i * g.incx];
      x[i * g.incx] = cplx<T>{ a.x * v.x - a.y * v.y, a.x * v.y + a.y * v.x };
   }
}

/* csscal/zdscal: x times (alpha, 0) as a complex product, as cuBLAS
 * computes it (on an H200 an infinite or NaN part makes the other part
 * NaN: 0 inf) */
template <class T> __device__ __forceinline__ void csscal(const cb_l1_args &g)
{
   T a = sval<T>(g.a);
   cplx<T> *x = (cplx<T> *)g.x;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> v = x[i * g.incx];
      x[i * g.incx] = cplx<T>{ a * v.x - (T)0 * v.y, a * v.y + (T)0 * v.x };
   }
}

/* csrot (real c and s: op 0) and crot (real c, complex s: op 1):
 * x' = c x + s y, y' = c y - conj(s) x.  c may be given as a complex
 * number (RotEx): its real part is the first value, which is what
 * sval<T> reads. */
template <class T> __device__ __forceinline__ void crot(const cb_l1_args &g)
{
   T c = sval<T>(g.a);
   cplx<T> s = g.op ? sval<cplx<T> >(g.b) : cplx<T>{ sval<T>(g.b), (T)0 };
   cplx<T> *x = (cplx<T> *)g.x, *y = (cplx<T> *)g.y;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> xv = x[i * g.incx], yv = y[i * g.incy];
      if (g.op) {
         x[i * g.incx] = cplx<T>{ c * xv.x + (s.x * yv.x - s.y * yv.y), c * xv.y + (s.x * yv.y + s.y * yv.x) };
         y[i * g.incy] = cplx<T>{ c * yv.x - (s.x * xv.x + s.y * xv.y), c * yv.y - (s.x * xv.y - s.y * xv.x) };
      } else {
         x[i * g.incx] = cplx<T>{ c * xv.x + s.x * yv.x, c * xv.y + s.x * yv.y };
         y[i * g.incy] = cplx<T>{ c * yv.x - s.x * xv.x, c * yv.y - s.x * xv.y };
      }
   }
}

/* The Ex forms on 16-bit storage S (__half, bf16bits): float arithmetic;
 * axpy's and scal's alpha is a float, rot's c and s are of S's type. */
template <class S> __device__ __forceinline__ float sval16(const cb_scalar &s)
{
   return s.p ? tofl(*(const S *)s.p) : s.f;
}
template <class S> __device__ __forceinline__ void axpy16(const cb_l1_args &g)
{
   float a = sval<float>(g.a);
   S *x = (S *)g.x, *y = (S *)g.y;
   GRID_STRIDE(i, g.n) stfl(&y[i * g.incy], fmaf(a, tofl(x[i * g.incx]), tofl(y[i * g.incy])));
}
template <class S> __device__ __forceinline__ void scal16(const cb_l1_args &g)
{
   float a = sval<float>(g.a);
   S *x = (S *)g.x;
   GRID_STRIDE(i, g.n) stfl(&x[i * g.incx], a * tofl(x[i * g.incx]));
}
template <class S> __device__ __forceinline__ void rot16(const cb_l1_args &g)
{
   float c = sval16<S>(g.a), s = sval16<S>(g.b);
   S *x = (S *)g.x, *y = (S *)g.y;
   GRID_STRIDE(i, g.n)
   {
      float xv = tofl(x[i * g.incx]), yv = tofl(y[i * g.incy]);
      stfl(&x[i * g.incx], c * xv + s * yv);
      stfl(&y[i * g.incy], c * yv - s * xv);
   }
}

/* ---- Level 1, reductions ---- */

/* One block's reduction of (value, index) pairs in shared memory; for the
 * index searches the larger (amax) or smaller (amin) value wins, ties to
 * the smaller index (BLAS: the first one). */
template <class T> __device__ __forceinline__ void block_reduce(T *sv, i64 *si, int op)
{
   for (int w = CB_RED_THREADS / 2; w > 0; w >>= 1) {
      __syncthreads();
      int t = threadIdx.x;
      if (t < w) {
         T a = sv[t], b = sv[t + w];
         if (op == CB_RED_AMAX || op == CB_RED_AMIN) {
            i64 ia = si[t], ib = si[t + w];
            bool take = ib > 0 && (ia == 0 || (op == CB_RED_AMAX ? b > a : b < a) || (b == a && ib < ia));
            if (take) {
               sv[t] = b;
               si[t] = ib;
            }
         } else {
            sv[t] = a + b;
         }
      }
   }
   __syncthreads();
}

/* A block's partial (value, index) of the first pass, in g.partial. */
template <class T> __device__ __forceinline__ void red_store(const cb_l1_args &g, T acc, i64 idx)
{
   __shared__ T sv[CB_RED_THREADS];
   __shared__ i64 si[CB_RED_THREADS];
   sv[threadIdx.x] = acc;
   si[threadIdx.x] = idx;
   block_reduce(sv, si, g.op);
   if (threadIdx.x == 0) {
      ((T *)g.partial)[blockIdx.x] = sv[0];
      ((i64 *)g.partial)[CB_RED_BLOCKS + blockIdx.x] = si[0];
   }
}

/* Real reductions in T over storage S (S 16-bit for the Ex forms). */
template <class T, class S = T> __device__ __forceinline__ void red(const cb_l1_args &g)
{
   const S *x = (const S *)g.x, *y = (const S *)g.y;
   T acc = 0;
   i64 idx = 0;   /* 1-based, 0: none */
   GRID_STRIDE(i, g.n)
   {
      T v = tofl(x[i * g.incx]);
      switch (g.op) {
      case CB_RED_DOT: acc = fmaT(v, (T)tofl(y[i * g.incy]), acc); break;
      case CB_RED_NRM2: acc = fmaT(v, v, acc); break;
      case CB_RED_ASUM: acc += fabs(v); break;
      default: {
         T a = fabs(v);
         if (idx == 0 || (g.op == CB_RED_AMAX ? a > acc : a < acc)) {
            acc = a;
            idx = i + 1;
         }
      }
      }
   }
   red_store(g, acc, idx);
}

/* complex: |re| + |im| for asum and the index searches, as BLAS */
template <class T> __device__ __forceinline__ void cred(const cb_l1_args &g)
{
   const cplx<T> *x = (const cplx<T> *)g.x;
   T acc = 0;
   i64 idx = 0;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> v = x[i * g.incx];
      switch (g.op) {
      case CB_RED_NRM2: acc = fmaT(v.x, v.x, fmaT(v.y, v.y, acc)); break;
      case CB_RED_ASUM: acc += fabs(v.x) + fabs(v.y); break;
      default: {
         T a = fabs(v.x) + fabs(v.y);
         if (idx == 0 || (g.op == CB_RED_AMAX ? a > acc : a < acc)) {
            acc = a;
            idx = i + 1;
         }
      }
      }
   }
   red_store(g, acc, idx);
}

/* complex dot products: two real sums (re, im) per partial */
template <class T> __device__ __forceinline__ void cdot(const cb_l1_args &g)
{
   __shared__ T sr[CB_RED_THREADS];
   __shared__ T sm[CB_RED_THREADS];
   __shared__ i64 si[CB_RED_THREADS];
   const cplx<T> *x = (const cplx<T> *)g.x, *y = (const cplx<T> *)g.y;
   T re = 0, im = 0;
   bool conj = g.op == CB_RED_DOTC;
   GRID_STRIDE(i, g.n)
   {
      cplx<T> a = x[i * g.incx], b = y[i * g.incy];
      if (conj)
         a.y = -a.y;
      re = fmaT(a.x, b.x, fmaT(-a.y, b.y, re));
      im = fmaT(a.x, b.y, fmaT(a.y, b.x, im));
   }
   sr[threadIdx.x] = re;
   sm[threadIdx.x] = im;
   block_reduce(sr, si, CB_RED_DOT);
   block_reduce(sm, si, CB_RED_DOT);
   if (threadIdx.x == 0) {
      ((T *)g.partial)[blockIdx.x] = sr[0];
      ((T *)g.partial)[CB_RED_BLOCKS + blockIdx.x] = sm[0];
   }
}

/* The second pass: one block; partials of every op to the final result. */
template <class T> __device__ __forceinline__ void redfin(const cb_l1_args &g, bool cplx_dot)
{
   __shared__ T sv[CB_RED_THREADS];
   __shared__ i64 si[CB_RED_THREADS];
   int t = threadIdx.x;
   const T *pv = (const T *)g.partial;
   const i64 *pi = (const i64 *)g.partial + CB_RED_BLOCKS;
   int op = cplx_dot ? CB_RED_DOT : g.op;
   sv[t] = t < g.nparts ? pv[t] : (T)0;
   si[t] = t < g.nparts ? pi[t] : 0;
   block_reduce(sv, si, op);
   if (t == 0) {
      if (cplx_dot) {
         ((T *)g.result)[0] = sv[0];
      } else if (op == CB_RED_AMAX || op == CB_RED_AMIN) {
         if (g.rkind == CB_RES_I64)
            *(i64 *)g.result = si[0];
         else
            *(int *)g.result = (int)si[0];
      } else {
         T v = op == CB_RED_NRM2 ? sqrt(sv[0]) : sv[0];
         if (g.rkind == CB_RES_HALF)
            stfl((__half *)g.result, (float)v);
         else if (g.rkind == CB_RES_BF16)
            stfl((bf16bits *)g.result, (float)v);
         else
            ((T *)g.result)[0] = v;
      }
   }
   if (cplx_dot) {   /* the imaginary parts */
      const T *pm = (const T *)g.partial + CB_RED_BLOCKS;
      sv[t] = t < g.nparts ? pm[t] : (T)0;
      block_reduce(sv, si, CB_RED_DOT);
      if (t == 0)
         ((T *)g.result)[1] = sv[0];
   }
}

/* ---- Level 3: GEMM ---- */

/* Pointers into global memory, so said to the compiler: loads through a
 * pointer taken from an argument block are otherwise generic, which
 * metalcuda must test for a shared-memory address at every access and the
 * host compiler cannot vectorise. */
#define GPTR(T) T __attribute__((address_space(1))) *
__device__ __forceinline__ float ld(GPTR(const float) p) { return *p; }
__device__ __forceinline__ double ld(GPTR(const double) p) { return *p; }
__device__ __forceinline__ float ld(GPTR(const __half) p)
{
   return __half2float(__ushort_as_half(*(GPTR(const unsigned short))p));
}
__device__ __forceinline__ float ld(GPTR(const bf16bits) p)
{
   bf16bits b = { *(GPTR(const unsigned short))p };
   return bf16_to_float(b);
}
__device__ __forceinline__ int ld(GPTR(const signed char) p) { return *p; }
__device__ __forceinline__ int ld(GPTR(const int) p) { return *p; }
__device__ __forceinline__ void st(GPTR(int) p, int v) { *p = v; }
__device__ __forceinline__ void st(GPTR(float) p, float v) { *p = v; }
__device__ __forceinline__ void st(GPTR(bf16bits) p, float v)
{
   *(GPTR(unsigned short))p = bf16_from_float(v).v;
}
__device__ __forceinline__ void st(GPTR(double) p, double v) { *p = v; }
__device__ __forceinline__ void st(GPTR(__half) p, float v)
{
   *(GPTR(unsigned short))p = __half_as_ushort(__float2half(v));
}

/* C(i0.., j0..) = alpha acc + beta C for the part of the tile inside C
 * (beta = 0: C is not read). */
template <class TC, class TO, int TM = CB_TM>
__device__ __forceinline__ void store_tile(GPTR(TO) C, i64 ldc, int m, int n, int i0, int j0,
                                           TC (&acc)[CB_TN][TM], TC alpha, TC beta)
{
#pragma unroll
   for (int c = 0; c < CB_TN; c++) {
      GPTR(TO) col = C + (j0 + c) * ldc + i0;
#pragma unroll
      for (int r = 0; r < TM; r++) {
         if (i0 + r < m && j0 + c < n) {
            TC v = mulT(alpha, acc[c][r]);
            if (beta != (TC)0)
               v = fmaT(beta, ld(col + r), v);
            st(col + r, v);
         }
      }
   }
}

/* TI: the element type of A and B, TO: of C, TC: the compute type. */
template <class TI, class TO, class TC, bool TA, bool TB>
__device__ __forceinline__ void gemm(const cb_gemm_args &g, TC alpha, TC beta)
{
   int i0 = (blockIdx.x * blockDim.x + threadIdx.x) * CB_TM;
   int j0 = (blockIdx.y * blockDim.y + threadIdx.y) * CB_TN;
   if (i0 >= g.m || j0 >= g.n)
      return;
   for (int z = blockIdx.z; z < g.batch; z += gridDim.z) {
      GPTR(const TI) A = (GPTR(const TI))(g.Aarr ? (const TI *)g.Aarr[z] : (const TI *)g.A + z * g.sA);
      GPTR(const TI) B = (GPTR(const TI))(g.Barr ? (const TI *)g.Barr[z] : (const TI *)g.B + z * g.sB);
      GPTR(TO) C = (GPTR(TO))(g.Carr ? (TO *)g.Carr[z] : (TO *)g.C + z * g.sC);
      TC acc[CB_TN][CB_TM];
#pragma unroll
      for (int c = 0; c < CB_TN; c++)
#pragma unroll
         for (int r = 0; r < CB_TM; r++)
            acc[c][r] = 0;
      /* Row and column of each load, clamped to the matrix on the edges
       * (what they compute there is never stored). */
      GPTR(const TI) arow[CB_TM];
      GPTR(const TI) bcol[CB_TN];
      bool full = i0 + CB_TM <= g.m && j0 + CB_TN <= g.n;
      if (full && !TA) {
         GPTR(const TI) a = A + i0;
#pragma unroll
         for (int c = 0; c < CB_TN; c++)
            bcol[c] = TB ? B + j0 + c : B + (j0 + c) * g.ldb;
         for (int k = 0; k < g.k; k++) {
            TC av[CB_TM];
#pragma unroll
            for (int r = 0; r < CB_TM; r++)
               av[r] = ld(a + r);
#pragma unroll
            for (int c = 0; c < CB_TN; c++) {
               TC b = TB ? ld(bcol[c] + k * g.ldb) : ld(bcol[c] + k);
#pragma unroll
               for (int r = 0; r < CB_TM; r++)
                  acc[c][r] = fmaT(av[r], b, acc[c][r]);
            }
            a += g.lda;
         }
      } else {
#pragma unroll
         for (int r = 0; r < CB_TM; r++) {
            int i = min(i0 + r, g.m - 1);
            arow[r] = TA ? A + i * g.lda : A + i;
         }
#pragma unroll
         for (int c = 0; c < CB_TN; c++) {
            int j = min(j0 + c, g.n - 1);
            bcol[c] = TB ? B + j : B + j * g.ldb;
         }
         for (int k = 0; k < g.k; k++) {
            TC av[CB_TM];
#pragma unroll
            for (int r = 0; r < CB_TM; r++)
               av[r] = TA ? ld(arow[r] + k) : ld(arow[r] + k * g.lda);
#pragma unroll
            for (int c = 0; c < CB_TN; c++) {
               TC b = TB ? ld(bcol[c] + k * g.ldb) : ld(bcol[c] + k);
#pragma unroll
               for (int r = 0; r < CB_TM; r++)
                  acc[c][r] = fmaT(av[r], b, acc[c][r]);
            }
         }
      }
      store_tile<TC, TO>(C, g.ldc, g.m, g.n, i0, j0, acc, alpha, beta);
   }
}


/* ---- packed GEMM ---- */

/* op(A) (rows x cols = m x k) into panels of CB_TM rows: P[(p*k + kk)*CB_TM
 * + r] = op(A)(p*CB_TM + r, kk), zero past m.  One element per thread. */
template <class TI, class TC, int PM> __device__ __forceinline__ void pack_a(const cb_pack_args &g)
{
   GPTR(const TI) X = (GPTR(const TI))g.X;
   GPTR(TC) P = (GPTR(TC))g.P;
   i64 total = (i64)g.npanels * g.cols * PM;
   GRID_STRIDE(e, total)
   {
      int r = (int)(e % PM);
      i64 pk = e / PM;
      int kk = (int)(pk % g.cols), p = (int)(pk / g.cols);
      int i = p * PM + r;
      TC v = 0;
      if (i < g.rows)
         v = g.trans ? ld(X + kk + i * g.ld) : ld(X + i + kk * g.ld);
      P[e] = v;
   }
}

/* op(B) (k x n) into panels of CB_TN columns: P[(q*k + kk)*CB_TN + c] =
 * op(B)(kk, q*CB_TN + c), zero past n. */
template <class TI, class TC> __device__ __forceinline__ void pack_b(const cb_pack_args &g)
{
   GPTR(const TI) X = (GPTR(const TI))g.X;
   GPTR(TC) P = (GPTR(TC))g.P;
   i64 total = (i64)g.npanels * g.rows * CB_TN;
   GRID_STRIDE(e, total)
   {
      int c = (int)(e % CB_TN);
      i64 qk = e / CB_TN;
      int kk = (int)(qk % g.rows), q = (int)(qk / g.rows);
      int j = q * CB_TN + c;
      TC v = 0;
      if (j < g.cols)
         v = g.trans ? ld(X + j + kk * g.ld) : ld(X + kk + j * g.ld);
      P[e] = v;
   }
}

/* C = alpha Ap Bp + beta C: thread (p, q) computes rows p*CB_TM.., columns
 * q*CB_TN.. from one panel of each, read front to back. */
/* The k loop is unrolled UN times: metalcuda canonicalises the NaN of
 * every float result that reaches a phi (a compare and a select per
 * accumulator), and inside an unrolled body the accumulators go from fma
 * to fma, so only every UN-th step pays it (16 for SGEMM; 4 for the
 * 16-bit inputs, whose kernels would otherwise take about 20 s each to
 * compile on the software device; 0 for double, whose arithmetic there is
 * calls: the compiler's choice, which measured faster than 1 or 4). */
template <class TC, class TO, int PM, int UN>
__device__ __forceinline__ void gemm_packed(const cb_packed_args &g, TC alpha, TC beta)
{
   int p = blockIdx.x * blockDim.x + threadIdx.x, q = blockIdx.y * blockDim.y + threadIdx.y;
   int i0 = p * PM, j0 = q * CB_TN;
   if (i0 >= g.m || j0 >= g.n)
      return;
   GPTR(const TC) a = (GPTR(const TC))g.Ap + (i64)p * g.k * PM;
   GPTR(const TC) b = (GPTR(const TC))g.Bp + (i64)q * g.k * CB_TN;
   TC acc[CB_TN][PM];
#pragma unroll
   for (int c = 0; c < CB_TN; c++)
#pragma unroll
      for (int r = 0; r < PM; r++)
         acc[c][r] = 0;
   auto step = [&]() {
      TC av[PM];
#pragma unroll
      for (int r = 0; r < PM; r++)
         av[r] = a[r];
#pragma unroll
      for (int c = 0; c < CB_TN; c++) {
         TC bv = b[c];
#pragma unroll
         for (int r = 0; r < PM; r++)
            acc[c][r] = fmaT(av[r], bv, acc[c][r]);
      }
      a += PM;
      b += CB_TN;
   };
   if (UN > 1) {
#pragma unroll UN
      for (int k = 0; k < g.k; k++)
         step();
   } else {   /* the compiler's own choice */
      for (int k = 0; k < g.k; k++)
         step();
   }
   store_tile<TC, TO, PM>((GPTR(TO))g.C, g.ldc, g.m, g.n, i0, j0, acc, alpha, beta);
}

/* Complex GEMM (c/z, and cq: int8 A and B): one element of C per thread;
 * op 2 conjugates.  E: the type of A's and B's parts, T: of C's and of the
 * computation. */
template <class E, class T>
__device__ __forceinline__ void cgemm(const cb_gemm_args &g)
{
   cplx<T> alpha = sval<cplx<T> >(g.alpha), beta = sval<cplx<T> >(g.beta);
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   int j = blockIdx.y * blockDim.y + threadIdx.y;
   if (i >= g.m || j >= g.n)
      return;
   for (int z = blockIdx.z; z < g.batch; z += gridDim.z) {
      const cplx<E> *A = g.Aarr ? (const cplx<E> *)g.Aarr[z] : (const cplx<E> *)g.A + z * g.sA;
      const cplx<E> *B = g.Barr ? (const cplx<E> *)g.Barr[z] : (const cplx<E> *)g.B + z * g.sB;
      cplx<T> *C = g.Carr ? (cplx<T> *)g.Carr[z] : (cplx<T> *)g.C + z * g.sC;
      T re = 0, im = 0;
      for (int k = 0; k < g.k; k++) {
         cplx<E> ae = g.ta ? A[k + (i64)i * g.lda] : A[i + (i64)k * g.lda];
         cplx<E> be = g.tb ? B[j + (i64)k * g.ldb] : B[k + (i64)j * g.ldb];
         cplx<T> a = { (T)ae.x, (T)ae.y }, b = { (T)be.x, (T)be.y };
         if (g.ta == 2)
            a.y = -a.y;
         if (g.tb == 2)
            b.y = -b.y;
         re = fmaT(a.x, b.x, fmaT(-a.y, b.y, re));
         im = fmaT(a.x, b.y, fmaT(a.y, b.x, im));
      }
      cplx<T> *cp = C + i + (i64)j * g.ldc;
      cplx<T> v = { alpha.x * re - alpha.y * im, alpha.x * im + alpha.y * re };
      if (beta.x != (T)0 || beta.y != (T)0) {
         cplx<T> c = *cp;
         v.x += beta.x * c.x - beta.y * c.y;
         v.y += beta.x * c.y + beta.y * c.x;
      }
      *cp = v;
   }
}

/* ---- BLAS-like extensions: geam, dgmm (s d c z) ---- */

template <class T> __device__ __forceinline__ cplx<T> mulT(cplx<T> a, cplx<T> b)
{
   return cplx<T>{ a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x };
}
__device__ __forceinline__ float addT(float a, float b) { return a + b; }
__device__ __forceinline__ double addT(double a, double b) { return a + b; }
template <class T> __device__ __forceinline__ cplx<T> addT(cplx<T> a, cplx<T> b) { return cplx<T>{ a.x + b.x, a.y + b.y }; }
__device__ __forceinline__ bool isz(float a) { return a == 0.f; }
__device__ __forceinline__ bool isz(double a) { return a == 0.; }
template <class T> __device__ __forceinline__ bool isz(cplx<T> a) { return a.x == (T)0 && a.y == (T)0; }
template <class T> __device__ __forceinline__ T conjT(T a) { return a; }
template <class T> __device__ __forceinline__ cplx<T> conjT(cplx<T> a) { return cplx<T>{ a.x, -a.y }; }
template <class T> __device__ __forceinline__ T reT(T a) { return a; }
template <class T> __device__ __forceinline__ cplx<T> reT(cplx<T> a) { return cplx<T>{ a.x, (T)0 }; }
template <class T> __device__ __forceinline__ T zeroT() { return T(); }
template <class T> __device__ __forceinline__ T oneT() { return (T)1; }
template <> __device__ __forceinline__ cplx<float> oneT<cplx<float> >() { return cplx<float>{ 1.f, 0.f }; }
template <> __device__ __forceinline__ cplx<double> oneT<cplx<double> >() { return cplx<double>{ 1., 0. }; }
template <class T> __device__ __forceinline__ cplx<T> fmaT(cplx<T> a, cplx<T> b, cplx<T> c)
{
   return cplx<T>{ fmaT(a.x, b.x, fmaT(-a.y, b.y, c.x)), fmaT(a.x, b.y, fmaT(a.y, b.x, c.y)) };
}
__device__ __forceinline__ float divT(float a, float b) { return a / b; }
__device__ __forceinline__ double divT(double a, double b) { return a / b; }
/* Smith's algorithm: no overflow of |b|^2 */
template <class T> __device__ __forceinline__ cplx<T> divT(cplx<T> a, cplx<T> b)
{
   if (fabs(b.x) >= fabs(b.y)) {
      T r = b.y / b.x, d = b.x + b.y * r;
      return cplx<T>{ (a.x + a.y * r) / d, (a.y - a.x * r) / d };
   }
   T r = b.x / b.y, d = b.y + b.x * r;
   return cplx<T>{ (a.x * r + a.y) / d, (a.y * r - a.x) / d };
}
template <class T> __device__ __forceinline__ T negT(T a) { return -a; }
template <class T> __device__ __forceinline__ cplx<T> negT(cplx<T> a) { return cplx<T>{ -a.x, -a.y }; }

/* op(X)(i, j) of a column-major X: op 0 N, 1 T, 2 C (conjugated) */
template <class T> __device__ __forceinline__ T opel(const T *X, i64 ld, int op, int i, int j)
{
   if (op == 0)
      return X[i + j * ld];
   T v = X[j + i * ld];
   return op == 2 ? conjT(v) : v;
}

/* C = alpha op(A) + beta op(B), one element per thread; a zero scalar's
 * matrix is not read (in place: C is A or B with op N, the host checks). */
template <class T> __device__ __forceinline__ void geam(const cb_mat_args &g)
{
   T alpha = sval<T>(g.alpha), beta = sval<T>(g.beta);
   const T *A = (const T *)g.A, *B = (const T *)g.B;
   T *C = (T *)g.C;
   i64 total = (i64)g.m * g.n;
   bool za = isz(alpha), zb = isz(beta);
   GRID_STRIDE(e, total)
   {
      int i = (int)(e % g.m), j = (int)(e / g.m);
      T v = zeroT<T>();
      if (!za)
         v = mulT(alpha, opel(A, g.lda, g.ta, i, j));
      if (!zb)
         v = addT(v, mulT(beta, opel(B, g.ldb, g.tb, i, j)));
      C[i + j * g.ldc] = v;
   }
}

/* C = diag(x) A (left) or A diag(x) (right) */
template <class T> __device__ __forceinline__ void dgmm(const cb_mat_args &g)
{
   const T *A = (const T *)g.A, *x = (const T *)g.x;
   T *C = (T *)g.C;
   i64 total = (i64)g.m * g.n;
   GRID_STRIDE(e, total)
   {
      int i = (int)(e % g.m), j = (int)(e / g.m);
      C[i + j * g.ldc] = mulT(A[i + j * g.lda], x[(g.side ? j : i) * g.incx]);
   }
}

/* ---- Level 2: storage, trmv/trsv and their band and packed forms ---- */

/* Where A(i, j) lies in A's storage (CB_ST_*), (i, j) inside the stored
 * structure: dense column-major; packed upper, columns 0..j-1 before
 * column j holding j(j+1)/2 entries; packed lower, n + (n-1) + ... ; band,
 * row ku + i - j of column j. */
__device__ __forceinline__ i64 sidx(const cb_mat_args &g, int i, int j)
{
   switch (g.store) {
   case CB_ST_PACKED: return g.uplo ? i + (i64)j * (j + 1) / 2 : i + (i64)j * (2 * (i64)g.n - j - 1) / 2;
   case CB_ST_BAND: return (i64)g.ku + i - j + (i64)j * g.lda;
   default: return i + (i64)j * g.lda;
   }
}
/* op(A)(i, j) of a stored triangle, (i, j) inside op(A)'s triangle */
template <class T> __device__ __forceinline__ T opst(const cb_mat_args &g, const T *A, int i, int j)
{
   T v = g.ta ? A[sidx(g, j, i)] : A[sidx(g, i, j)];
   return g.ta == 2 ? conjT(v) : v;
}

/* x = op(A) x (trmv) or x = op(A)^-1 x (trsv), A triangular, in place, by
 * one block: step by step over the columns j of op(A), thread 0 settles
 * x_j (multiplied or divided by the diagonal), then every thread updates
 * its share of the other entries of column j inside the triangle.  The
 * order makes it in place: a solve runs down a lower op(A) (up an upper
 * one), using x_j once final; a product runs the other way, using x_j
 * before it changes.  Two barriers a step (x_j read, then written). */
template <class T> __device__ __forceinline__ void trxv(const cb_mat_args &g)
{
   __shared__ T xj_sh;
   const T *A = (const T *)g.A;
   T *x = (T *)g.y;
   int n = g.n;
   bool upper = (g.uplo != 0) != (g.ta != 0);   /* op(A)'s triangle */
   bool forward = g.solve ? !upper : upper;
   int bw = g.store == CB_ST_BAND ? g.kl + g.ku : n;   /* band: k off the diagonal */
   for (int s = 0; s < n; s++) {
      int j = forward ? s : n - 1 - s;
      if (threadIdx.x == 0) {
         T v = x[j * g.incx];
         if (!g.unit)
            v = g.solve ? divT(v, opst(g, A, j, j)) : mulT(v, opst(g, A, j, j));
         xj_sh = g.solve ? v : x[j * g.incx];
         x[j * g.incx] = v;
      }
      __syncthreads();
      T xj = g.solve ? negT(xj_sh) : xj_sh;
      int lo = upper ? max(0, j - bw) : j + 1, hi = upper ? j : (int)min((i64)n, (i64)j + bw + 1);
      if (g.ta && g.store == CB_ST_PACKED) {
         for (int i = lo + threadIdx.x; i < hi; i += blockDim.x)
            x[i * g.incx] = fmaT(opst(g, A, i, j), xj, x[i * g.incx]);
      } else {
         /* column j of op(A) as a run: A(i, j) at sidx(0, j) + i, A(j, i)
          * at sidx(j, 0) + i (lda - 1 for a band) */
         const T *p = g.ta ? A + sidx(g, j, 0) : A + sidx(g, 0, j);
         i64 step = !g.ta ? 1 : g.store == CB_ST_BAND ? g.lda - 1 : g.lda;
         bool cj = g.ta == 2;
         for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) {
            T a = p[i * step];
            x[i * g.incx] = fmaT(cj ? conjT(a) : a, xj, x[i * g.incx]);
         }
      }
      __syncthreads();
   }
}

/* ---- Level 3: syrk, trmm, trsm (s d c z) ---- */

/* sum over l of op(X)(i, l) op(Y)(j, l), op(X) n x k (op T: X is k x n) */
template <class T>
__device__ __forceinline__ T rowdot(const T *X, i64 ldx, const T *Y, i64 ldy, bool tr, int i, int j, int k, T acc)
{
   if (tr) {
      const T *xi = X + (i64)i * ldx, *yj = Y + (i64)j * ldy;
      for (int l = 0; l < k; l++)
         acc = fmaT(xi[l], yj[l], acc);
   } else {
      for (int l = 0; l < k; l++)
         acc = fmaT(X[i + (i64)l * ldx], Y[j + (i64)l * ldy], acc);
   }
   return acc;
}

/* C = alpha op(A) op(B)^T + beta C (syrk: B = A; syrkx) or alpha (op(A)
 * op(B)^T + op(B) op(A)^T) + beta C (syr2k: tb 1) on C's uplo triangle,
 * an element per thread (op(A) is n x k). */
template <class T> __device__ __forceinline__ void syrk(const cb_mat_args &g)
{
   T alpha = sval<T>(g.alpha), beta = sval<T>(g.beta);
   int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
   if (i >= g.n || j >= g.n || (g.uplo ? i > j : i < j))
      return;
   const T *A = (const T *)g.A, *B = g.B ? (const T *)g.B : A;
   i64 ldb = g.B ? g.ldb : g.lda;
   T acc = rowdot(A, g.lda, B, ldb, g.ta != 0, i, j, g.k, zeroT<T>());
   if (g.tb)
      acc = rowdot(B, ldb, A, g.lda, g.ta != 0, i, j, g.k, acc);
   T *c = (T *)g.C + i + (i64)j * g.ldc;
   *c = isz(beta) ? mulT(alpha, acc) : fmaT(alpha, acc, mulT(beta, *c));
}

/* symm: C = alpha A B + beta C (left, A m x m) or alpha B A + beta C
 * (right, A n x n), A symmetric with its uplo triangle stored; an element
 * per thread. */
template <class T> __device__ __forceinline__ void symm(const cb_mat_args &g)
{
   T alpha = sval<T>(g.alpha), beta = sval<T>(g.beta);
   int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
   if (i >= g.m || j >= g.n)
      return;
   const T *A = (const T *)g.A, *B = (const T *)g.B;
   bool left = g.side == 0;
   int len = left ? g.m : g.n, r = left ? i : j;   /* A's row of this element */
   T acc = zeroT<T>();
   for (int l = 0; l < len; l++) {
      bool stored = g.uplo ? r <= l : r >= l;
      T a = stored ? A[r + (i64)l * g.lda] : A[l + (i64)r * g.lda];
      if (g.herm == CB_HERM)   /* hemm: the mirror conjugated, the diagonal real; right: A(l, r) */
         a = r == l ? reT(a) : stored == left ? a : conjT(a);
      T b = left ? B[l + (i64)j * g.ldb] : B[i + (i64)l * g.ldb];
      acc = fmaT(a, b, acc);
   }
   T *c = (T *)g.C + i + (i64)j * g.ldc;
   *c = isz(beta) ? mulT(alpha, acc) : fmaT(alpha, acc, mulT(beta, *c));
}

/* trmm: C = alpha op(A) B (left, A m x m) or alpha B op(A) (right, A
 * n x n); trsm: B = alpha op(A)^-1 B or alpha B op(A)^-1, in place.  One
 * thread per column of B (left) or row (right), walking it in the order
 * that keeps the operation in place: a product settles first the entries
 * whose inputs are still to be read by no one else (C may be B), a solve
 * those whose inputs are already final. */
template <class T> __device__ __forceinline__ void trmm_trsm(const cb_mat_args &g, bool solve)
{
   T alpha = sval<T>(g.alpha);
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   bool left = g.side == 0;
   int len = left ? g.m : g.n;   /* the order of A */
   if (t >= (left ? g.n : g.m))
      return;
   const T *A = (const T *)g.A;
   /* element p of the line: B(p, t) (left) or B(t, p) (right) */
   const T *b = (const T *)g.B + (left ? t * g.ldb : t);
   T *c = solve ? (T *)g.B + (left ? t * g.ldb : t) : (T *)g.C + (left ? t * g.ldc : t);
   i64 sb = left ? 1 : g.ldb, sc = solve ? sb : (left ? 1 : g.ldc);
   bool upper = (g.uplo != 0) != (g.ta != 0);
   /* the line as a row vector times op(A) (right) is op(A)^T times it, so
    * for the right side the triangle flips */
   bool lowlike = left ? !upper : upper;   /* entry p depends on q <= p */
   bool forward = solve ? lowlike : !lowlike;
   if (isz(alpha)) {
      for (int p = 0; p < len; p++)
         c[p * sc] = zeroT<T>();
      return;
   }
   for (int s = 0; s < len; s++) {
      int p = forward ? s : len - 1 - s;
      int lo = lowlike ? 0 : p + 1, hi = lowlike ? p : len;
      T acc = zeroT<T>();
      /* coefficient of line entry q in entry p: op(A)(p, q) left, op(A)(q, p) right */
      for (int q = lo; q < hi; q++) {
         T a = left ? opel(A, g.lda, g.ta, p, q) : opel(A, g.lda, g.ta, q, p);
         acc = fmaT(a, solve ? c[q * sc] : b[q * sb], acc);
      }
      T d = g.unit ? oneT<T>() : opel(A, g.lda, g.ta, p, p);
      if (solve)
         c[p * sc] = divT(addT(mulT(alpha, b[p * sb]), negT(acc)), d);
      else
         c[p * sc] = mulT(alpha, fmaT(d, b[p * sb], acc));
   }
}

/* ---- Level 2 products and rank updates (level2.c), the herk family (level3x.c) ---- */

/* A scalar that cuBLAS passes as a real number (her's alpha, herk's alpha
 * and beta ...) for a complex kernel: a float or double in memory. */
template <class T> __device__ __forceinline__ T sval_as(const cb_scalar &s, bool real) { return sval<T>(s); }
template <> __device__ __forceinline__ cplx<float> sval_as<cplx<float> >(const cb_scalar &s, bool real)
{
   return real ? cplx<float>{ sval<float>(s), 0.f } : sval<cplx<float> >(s);
}
template <> __device__ __forceinline__ cplx<double> sval_as<cplx<double> >(const cb_scalar &s, bool real)
{
   return real ? cplx<double>{ sval<double>(s), 0. } : sval<cplx<double> >(s);
}

/* acc + the sum over l in [lo, hi) of p[l step] (conjugated: cj) x_l;
 * sidx is linear in i and in j, so a row or column of any storage but a
 * packed row is such a run */
template <class T>
__device__ __forceinline__ T seg(const T *p, i64 step, const T *x, i64 incx, int lo, int hi, bool cj, T acc)
{
   if (cj)
      for (int l = lo; l < hi; l++)
         acc = fmaT(conjT(p[l * step]), x[l * incx], acc);
   else
      for (int l = lo; l < hi; l++)
         acc = fmaT(p[l * step], x[l * incx], acc);
   return acc;
}

/* y = alpha op(A) x + beta y: gemv, gbmv; symv, hemv, sbmv,
 * hbmv, spmv, hpmv (g.herm).  One element of y per thread, the loop
 * limited to the band; beta 0: y is not read. */
template <class T> __device__ __forceinline__ void xmv(const cb_mat_args &g)
{
   T alpha = sval<T>(g.alpha), beta = sval<T>(g.beta);
   const T *A = (const T *)g.A, *x = (const T *)g.x;
   T *y = (T *)g.y;
   bool tr = g.herm == CB_GEN && g.ta;
   int outn = tr ? g.n : g.m, len = tr ? g.m : g.n;
   /* entries l of row o of op(A) that may be nonzero: o - below .. o + above */
   i64 below = g.herm != CB_GEN ? (i64)g.kl + g.ku : tr ? g.ku : g.kl;
   i64 above = g.herm != CB_GEN ? (i64)g.kl + g.ku : tr ? g.kl : g.ku;
   bool band = g.store == CB_ST_BAND;
   i64 rstep = band ? g.lda - 1 : g.lda;   /* along a row: A(o, l) to A(o, l + 1) (not packed) */
   GRID_STRIDE(o, outn)
   {
      int lo = (int)max((i64)0, o - below), hi = (int)min((i64)len, o + above + 1), oi = (int)o;
      T acc = zeroT<T>();
      if (g.herm == CB_GEN) {
         /* op N: row o of A, A(o, l) at sidx(o, 0) + l rstep; op T/C: column o */
         acc = tr ? seg(A + sidx(g, 0, oi), 1, x, g.incx, lo, hi, g.ta == 2, acc)
                  : seg(A + sidx(g, oi, 0), rstep, x, g.incx, lo, hi, false, acc);
      } else {
         /* the stored part of row o (A(o, l)), the mirrored part (A(l, o)
          * stored: a column, contiguous in every storage) and the diagonal */
         int slo = g.uplo ? oi + 1 : lo, shi = g.uplo ? hi : oi, mlo = g.uplo ? lo : oi + 1, mhi = g.uplo ? oi : hi;
         if (g.store == CB_ST_PACKED)
            for (int l = slo; l < shi; l++)
               acc = fmaT(A[sidx(g, oi, l)], x[l * g.incx], acc);
         else
            acc = seg(A + sidx(g, oi, 0), rstep, x, g.incx, slo, shi, false, acc);
         acc = seg(A + sidx(g, 0, oi), 1, x, g.incx, mlo, mhi, g.herm == CB_HERM, acc);
         T d = A[sidx(g, oi, oi)];
         acc = fmaT(g.herm == CB_HERM ? reT(d) : d, x[o * g.incx], acc);
      }
      T *yo = y + o * g.incy;
      *yo = isz(beta) ? mulT(alpha, acc) : fmaT(alpha, acc, mulT(beta, *yo));
   }
}

/* gemvBatched, gemvStridedBatched: problem z by the blocks of gridDim.y z */
template <class T> __device__ __forceinline__ void xmv_batched(const cb_mat_args &g0)
{
   for (int z = blockIdx.y; z < g0.batch; z += gridDim.y) {
      cb_mat_args g = g0;
      g.A = g0.Aarr ? (const T *)g0.Aarr[z] : (const T *)g0.A + z * g0.sA;
      g.x = (g0.Xarr ? (const T *)g0.Xarr[z] : (const T *)g0.x + z * g0.sX) + g0.xoff;
      g.y = (g0.Yarr ? (T *)g0.Yarr[z] : (T *)g0.y + z * g0.sY) + g0.yoff;
      xmv<T>(g);
   }
}

/* The half and bfloat16 batched gemv (HSH, HSS, TST, TSS): inputs TI
 * (__half or bf16 bits), output TO (the same or float), float scalars and
 * accumulation (tofl/stfl convert). */
template <class TI, class TO> __device__ __forceinline__ void gemvx(const cb_mat_args &g)
{
   float alpha = sval<float>(g.alpha), beta = sval<float>(g.beta);
   bool tr = g.ta != 0;
   int outn = tr ? g.n : g.m, len = tr ? g.m : g.n;
   for (int z = blockIdx.y; z < g.batch; z += gridDim.y) {
      const TI *A = g.Aarr ? (const TI *)g.Aarr[z] : (const TI *)g.A + z * g.sA;
      const TI *x = (g.Xarr ? (const TI *)g.Xarr[z] : (const TI *)g.x + z * g.sX) + g.xoff;
      TO *y = (g.Yarr ? (TO *)g.Yarr[z] : (TO *)g.y + z * g.sY) + g.yoff;
      GRID_STRIDE(o, outn)
      {
         float acc = 0;
         const TI *a = tr ? A + o * g.lda : A + o;
         i64 step = tr ? 1 : g.lda;
         for (int l = 0; l < len; l++)
            acc = fmaf(tofl(a[l * step]), tofl(x[l * g.incx]), acc);
         TO *yo = y + o * g.incy;
         float v = alpha * acc;
         if (beta != 0.f)
            v = fmaf(beta, tofl(*yo), v);
         stfl(yo, v);
      }
   }
}

/* Rank updates, an element of A per thread: A += alpha x op(y)^T
 * (ger, geru; gerc, op conjugating: g.conj), on the uplo triangle of a
 * symmetric or Hermitian A (dense or packed) + alpha x op(x)^T (syr, her,
 * spr, hpr: y is x) or + alpha x op(y)^T + alpha' y op(x)^T (syr2, her2,
 * spr2, hpr2: g.two, alpha' the conjugate of alpha when Hermitian).  A
 * Hermitian A's diagonal comes out real, as BLAS writes it. */
template <class T> __device__ __forceinline__ void xr(const cb_mat_args &g)
{
   T alpha = sval_as<T>(g.alpha, g.areal != 0);
   T alpha2 = g.herm == CB_HERM ? conjT(alpha) : alpha;
   T *A = (T *)g.C;
   const T *x = (const T *)g.x, *y = (const T *)g.y;
   i64 total = (i64)g.m * g.n;
   GRID_STRIDE(e, total)
   {
      int i = (int)(e % g.m), j = (int)(e / g.m);
      if (g.herm != CB_GEN && (g.uplo ? i > j : i < j))
         continue;
      T yj = y[j * g.incy];
      T *a = A + sidx(g, i, j);
      T v = fmaT(mulT(alpha, x[i * g.incx]), g.conj ? conjT(yj) : yj, *a);
      if (g.two) {
         T xj = x[j * g.incx];
         v = fmaT(mulT(alpha2, y[i * g.incy]), g.conj ? conjT(xj) : xj, v);
      }
      *a = g.herm == CB_HERM && i == j ? reT(v) : v;
   }
}

/* herk (B NULL), herkx, her2k (g.two): C = alpha op(A) op(B)^H [+
 * conj(alpha) op(B) op(A)^H] + beta C on C's uplo triangle, op N or C
 * (g.ta), op(A) n x k; alpha real for herk (g.areal), beta real; the
 * diagonal comes out real.  An element per thread. */
template <class T>
__device__ __forceinline__ T hdot(const T *X, i64 ldx, const T *Y, i64 ldy, bool tr, int i, int j, int k, T acc)
{
   /* sum over l of op(X)(i, l) conj(op(Y)(j, l)) */
   for (int l = 0; l < k; l++)
      acc = tr ? fmaT(conjT(X[l + (i64)i * ldx]), Y[l + (i64)j * ldy], acc)
               : fmaT(X[i + (i64)l * ldx], conjT(Y[j + (i64)l * ldy]), acc);
   return acc;
}
template <class T> __device__ __forceinline__ void herk(const cb_mat_args &g)
{
   T alpha = sval_as<T>(g.alpha, g.areal != 0), beta = sval_as<T>(g.beta, true);
   int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
   if (i >= g.n || j >= g.n || (g.uplo ? i > j : i < j))
      return;
   const T *A = (const T *)g.A, *B = g.B ? (const T *)g.B : A;
   i64 ldb = g.B ? g.ldb : g.lda;
   T acc = mulT(alpha, hdot(A, g.lda, B, ldb, g.ta != 0, i, j, g.k, zeroT<T>()));
   if (g.two)
      acc = fmaT(conjT(alpha), hdot(B, ldb, A, g.lda, g.ta != 0, i, j, g.k, zeroT<T>()), acc);
   T *c = (T *)g.C + i + (i64)j * g.ldc;
   T v = isz(beta) ? acc : fmaT(beta, *c, acc);
   *c = i == j ? reT(v) : v;
}

/* ---- batched LU (getrfBatched, getrsBatched, getriBatched) ---- */

/* |re| + |im|: the pivot measure of LAPACK's i?amax */
__device__ __forceinline__ float pabs(float a) { return fabsf(a); }
__device__ __forceinline__ double pabs(double a) { return fabs(a); }
template <class T> __device__ __forceinline__ T pabs(cplx<T> a) { return fabs(a.x) + fabs(a.y); }

/* rows a and b of the n columns of X */
template <class T> __device__ __forceinline__ void swap_rows(T *X, i64 ld, int a, int b, int n)
{
   if (a != b)
      for (int j = 0; j < n; j++) {
         T t = X[a + j * ld];
         X[a + j * ld] = X[b + j * ld];
         X[b + j * ld] = t;
      }
}

/* P A = L U in place, a thread per matrix, LAPACK's getf2 (right-looking,
 * partial pivoting by the largest |re| + |im| of the column, first on
 * ties; g.piv NULL: no pivoting); info: the first zero pivot (1-based) or
 * 0, its column left unscaled. */
template <class T> __device__ __forceinline__ void getrf(const cb_mat_args &g)
{
   int z = blockIdx.x * blockDim.x + threadIdx.x;
   if (z >= g.batch)
      return;
   T *A = (T *)g.Barr[z];
   int n = g.n, inf = 0;
   i64 lda = g.lda;
   int *P = g.piv ? g.piv + (i64)z * n : NULL;
   for (int k = 0; k < n; k++) {
      int p = k;
      if (P) {
         auto best = pabs(A[k + k * lda]);
         for (int i = k + 1; i < n; i++)
            if (pabs(A[i + k * lda]) > best) {
               best = pabs(A[i + k * lda]);
               p = i;
            }
         P[k] = p + 1;
      }
      if (isz(A[p + k * lda])) {
         if (!inf)
            inf = k + 1;
         continue;
      }
      swap_rows(A, lda, k, p, n);
      T d = A[k + k * lda];
      for (int i = k + 1; i < n; i++)
         A[i + k * lda] = divT(A[i + k * lda], d);
      for (int j = k + 1; j < n; j++) {
         T akj = negT(A[k + j * lda]);
         for (int i = k + 1; i < n; i++)
            A[i + j * lda] = fmaT(A[i + k * lda], akj, A[i + j * lda]);
      }
   }
   g.info[z] = inf;
}

/* op(A) x = b with A = P^T L U from getrf, in place in the column b */
template <class T> __device__ __forceinline__ void lu_solve(const T *A, i64 lda, const int *P, int n, int op, T *b)
{
   if (op == 0) {
      if (P)
         for (int i = 0; i < n; i++) {
            int p = P[i] - 1;
            T t = b[i];
            b[i] = b[p];
            b[p] = t;
         }
      for (int j = 0; j < n; j++)   /* L y = P b, L unit lower */
         for (int i = j + 1; i < n; i++)
            b[i] = fmaT(A[i + j * lda], negT(b[j]), b[i]);
      for (int j = n - 1; j >= 0; j--) {   /* U x = y */
         b[j] = divT(b[j], A[j + j * lda]);
         for (int i = 0; i < j; i++)
            b[i] = fmaT(A[i + j * lda], negT(b[j]), b[i]);
      }
   } else {
      /* op(U) y = b (lower), op(L) w = y (unit upper), x = P^T w */
      for (int i = 0; i < n; i++) {
         T acc = b[i];
         for (int k = 0; k < i; k++) {
            T u = A[k + i * lda];
            acc = fmaT(op == 2 ? conjT(u) : u, negT(b[k]), acc);
         }
         T d = A[i + i * lda];
         b[i] = divT(acc, op == 2 ? conjT(d) : d);
      }
      for (int i = n - 1; i >= 0; i--) {
         T acc = b[i];
         for (int k = i + 1; k < n; k++) {
            T l = A[k + i * lda];
            acc = fmaT(op == 2 ? conjT(l) : l, negT(b[k]), acc);
         }
         b[i] = acc;
      }
      if (P)
         for (int i = n - 1; i >= 0; i--) {
            int p = P[i] - 1;
            T t = b[i];
            b[i] = b[p];
            b[p] = t;
         }
   }
}

/* getrs: a thread per (matrix, column of B); getri (g.solve 0): a thread
 * per (matrix, column j of C), C(:, j) = A^-1 e_j, info the first zero on
 * U's diagonal */
template <class T> __device__ __forceinline__ void getrs(const cb_mat_args &g)
{
   i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   int cols = g.solve ? g.k : g.n;
   if (e >= (i64)g.batch * cols)
      return;
   int z = (int)(e / cols), c = (int)(e % cols), n = g.n;
   const T *A = (const T *)g.Aarr[z];
   const int *P = g.piv ? g.piv + (i64)z * n : NULL;
   T *b = (T *)g.Barr[z] + c * g.ldb;
   if (!g.solve) {
      int inf = 0;
      for (int i = 0; i < n && !inf; i++)
         if (isz(A[i + i * g.lda]))
            inf = i + 1;
      if (c == 0)
         g.info[z] = inf;
      if (inf)
         return;
      for (int i = 0; i < n; i++)
         b[i] = i == c ? oneT<T>() : zeroT<T>();
   }
   lu_solve(A, g.lda, P, n, g.ta, b);
}
/* matinvBatched (n <= 32): Ainv = A^-1 by a thread per matrix, A copied
 * to Ainv and inverted there by Gauss-Jordan elimination with partial
 * pivoting (row swaps recorded, undone as column swaps at the end); info
 * the first zero pivot (1-based), Ainv then unspecified */
template <class T> __device__ __forceinline__ void matinv(const cb_mat_args &g)
{
   int z = blockIdx.x * blockDim.x + threadIdx.x;
   if (z >= g.batch)
      return;
   const T *A = (const T *)g.Aarr[z];
   T *X = (T *)g.Barr[z];
   int n = g.n;
   i64 ld = g.ldb;
   unsigned char piv[32];
   for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
         X[i + j * ld] = A[i + j * g.lda];
   for (int k = 0; k < n; k++) {
      int p = k;
      auto best = pabs(X[k + k * ld]);
      for (int i = k + 1; i < n; i++)
         if (pabs(X[i + k * ld]) > best) {
            best = pabs(X[i + k * ld]);
            p = i;
         }
      piv[k] = (unsigned char)p;
      if (isz(X[p + k * ld])) {
         g.info[z] = k + 1;
         return;
      }
      swap_rows(X, ld, k, p, n);
      T d = divT(oneT<T>(), X[k + k * ld]);
      X[k + k * ld] = oneT<T>();
      for (int j = 0; j < n; j++)
         X[k + j * ld] = mulT(X[k + j * ld], d);
      for (int i = 0; i < n; i++) {
         if (i == k)
            continue;
         T f = negT(X[i + k * ld]);
         X[i + k * ld] = zeroT<T>();
         for (int j = 0; j < n; j++)
            X[i + j * ld] = fmaT(f, X[k + j * ld], X[i + j * ld]);
      }
   }
   for (int k = n - 1; k >= 0; k--)
      if (piv[k] != k)
         for (int i = 0; i < n; i++) {
            T t = X[i + k * ld];
            X[i + k * ld] = X[i + piv[k] * ld];
            X[i + piv[k] * ld] = t;
         }
   g.info[z] = 0;
}

/* geqrfBatched and gelsBatched: Householder QR, LAPACK's geqr2 and larfg
 * (without larfg's rescaling of tiny columns), a thread per matrix:
 * H_i = I - tau_i v v^H, v_i = 1 implicit and v below the diagonal of A,
 * beta = -sign(re alpha) |(alpha, x)| on the diagonal; H_i^H applied to
 * the columns to the right.  gels (g.solve) then forms Q^H C and solves
 * R X = (Q^H C)(0:n) in C, info the first zero on R's diagonal. */
__device__ __forceinline__ float sqrtT(float a) { return sqrtf(a); }
__device__ __forceinline__ double sqrtT(double a) { return sqrt(a); }
__device__ __forceinline__ float reP(float a) { return a; }
__device__ __forceinline__ double reP(double a) { return a; }
template <class T> __device__ __forceinline__ T reP(cplx<T> a) { return a.x; }
__device__ __forceinline__ float abs2(float a) { return a * a; }
__device__ __forceinline__ double abs2(double a) { return a * a; }
template <class T> __device__ __forceinline__ T abs2(cplx<T> a) { return a.x * a.x + a.y * a.y; }
template <class T> __device__ __forceinline__ T fromre(decltype(reP(T())) v) { return (T)v; }
template <> __device__ __forceinline__ cplx<float> fromre<cplx<float> >(float v) { return cplx<float>{ v, 0.f }; }
template <> __device__ __forceinline__ cplx<double> fromre<cplx<double> >(double v) { return cplx<double>{ v, 0. }; }

/* applies H^H = I - conj(tau) v v^H (v from row i of column i of A, v_i = 1)
 * to column c (rows i..m-1, leading dimension ld) */
template <class T>
__device__ __forceinline__ void house_apply(const T *A, i64 lda, int m, int i, T tau, T *c)
{
   T w = c[i];
   for (int l = i + 1; l < m; l++)
      w = fmaT(conjT(A[l + i * lda]), c[l], w);
   T f = negT(mulT(conjT(tau), w));
   c[i] = addT(c[i], f);
   for (int l = i + 1; l < m; l++)
      c[l] = fmaT(A[l + i * lda], f, c[l]);
}
template <class T> __device__ __forceinline__ void geqrf(const cb_mat_args &g)
{
   int z = blockIdx.x * blockDim.x + threadIdx.x;
   if (z >= g.batch)
      return;
   typedef decltype(reP(T())) R;
   T *A = (T *)g.Barr[z];
   int m = g.m, n = g.n, k = m < n ? m : n;
   i64 lda = g.lda;
   T *tau = g.solve ? NULL : (T *)g.Aarr[z];
   for (int i = 0; i < k; i++) {
      T alpha = A[i + i * lda];
      R xn2 = 0;
      for (int l = i + 1; l < m; l++)
         xn2 += abs2(A[l + i * lda]);
      T t = zeroT<T>();
      if (xn2 != (R)0 || !isz(addT(alpha, negT(fromre<T>(reP(alpha)))))) {
         R beta = sqrtT(abs2(alpha) + xn2);
         if (reP(alpha) >= (R)0)
            beta = -beta;
         T b = fromre<T>(beta);
         t = divT(addT(b, negT(alpha)), b);
         T sc = divT(oneT<T>(), addT(alpha, negT(b)));
         for (int l = i + 1; l < m; l++)
            A[l + i * lda] = mulT(A[l + i * lda], sc);
         A[i + i * lda] = b;
      }
      if (tau)
         tau[i] = t;
      for (int j = i + 1; j < n; j++)
         house_apply(A, lda, m, i, t, A + j * lda);
      if (g.solve)   /* gels: Q^H C as the reflectors come */
         for (int j = 0; j < g.k; j++)
            house_apply(A, lda, m, i, t, (T *)g.Yarr[z] + j * g.ldb);
   }
   if (!g.solve)
      return;
   int inf = 0;
   for (int i = 0; i < n && !inf; i++)
      if (isz(A[i + i * lda]))
         inf = i + 1;
   if (g.info)   /* gels's devInfoArray is optional */
      g.info[z] = inf;
   if (inf)
      return;
   for (int j = 0; j < g.k; j++) {   /* R x = (Q^H c)(0:n) */
      T *c = (T *)g.Yarr[z] + j * g.ldb;
      for (int r = n - 1; r >= 0; r--) {
         c[r] = divT(c[r], A[r + r * lda]);
         for (int i = 0; i < r; i++)
            c[i] = fmaT(A[i + r * lda], negT(c[r]), c[i]);
      }
   }
}

/* ---- the entry points the host looks up by name ---- */

#define L1(name, fn)                                                                               \
   extern "C" __global__ void cb_##name##_s(cb_l1_args g) { fn<float>(g); }                       \
   extern "C" __global__ void cb_##name##_d(cb_l1_args g) { fn<double>(g); }
L1(axpy, axpy)
L1(scal, scal)
L1(copy, copy)
L1(swap, swap)
L1(rot, rot)
L1(rotm, rotm)
L1(red, red)
L1(caxpy, caxpy)
L1(cscal, cscal)
L1(cred, cred)
L1(cdot, cdot)
extern "C" __global__ void cb_copy_c(cb_l1_args g) { copy<cplx<float> >(g); }
extern "C" __global__ void cb_copy_z(cb_l1_args g) { copy<cplx<double> >(g); }
extern "C" __global__ void cb_swap_c(cb_l1_args g) { swap<cplx<float> >(g); }
extern "C" __global__ void cb_swap_z(cb_l1_args g) { swap<cplx<double> >(g); }
L1(csscal, csscal)
L1(crot, crot)
#define L1_16(name, fn)                                                                            \
   extern "C" __global__ void cb_##name##_h(cb_l1_args g) { fn<__half>(g); }                      \
   extern "C" __global__ void cb_##name##_b(cb_l1_args g) { fn<bf16bits>(g); }
L1_16(axpy, axpy16)
L1_16(scal, scal16)
L1_16(rot, rot16)
extern "C" __global__ void cb_red_h(cb_l1_args g) { red<float, __half>(g); }
extern "C" __global__ void cb_red_b(cb_l1_args g) { red<float, bf16bits>(g); }
extern "C" __global__ void cb_copy_16(cb_l1_args g) { copy<unsigned short>(g); }
extern "C" __global__ void cb_swap_16(cb_l1_args g) { swap<unsigned short>(g); }
extern "C" __global__ void cb_redfin_s(cb_l1_args g) { redfin<float>(g, false); }
extern "C" __global__ void cb_redfin_d(cb_l1_args g) { redfin<double>(g, false); }
extern "C" __global__ void cb_credfin_s(cb_l1_args g) { redfin<float>(g, true); }
extern "C" __global__ void cb_credfin_d(cb_l1_args g) { redfin<double>(g, true); }

/* cb_gemm_<A/B type><C type><compute type>_<nn|nt|tn|tt> */
#define GEMM4(tag, TI, TO, TC, AL, BE)                                                             \
   extern "C" __global__ void cb_gemm_##tag##_nn(cb_gemm_args g) { gemm<TI, TO, TC, false, false>(g, AL, BE); } \
   extern "C" __global__ void cb_gemm_##tag##_nt(cb_gemm_args g) { gemm<TI, TO, TC, false, true>(g, AL, BE); }  \
   extern "C" __global__ void cb_gemm_##tag##_tn(cb_gemm_args g) { gemm<TI, TO, TC, true, false>(g, AL, BE); }  \
   extern "C" __global__ void cb_gemm_##tag##_tt(cb_gemm_args g) { gemm<TI, TO, TC, true, true>(g, AL, BE); }
GEMM4(sss, float, float, float, sval<float>(g.alpha), sval<float>(g.beta))
GEMM4(ddd, double, double, double, sval<double>(g.alpha), sval<double>(g.beta))
/* half A and B: float accumulation; C half or float; scalars half for a
 * 16F compute type (hhh), float otherwise */
GEMM4(hhs, __half, __half, float, sval<float>(g.alpha), sval<float>(g.beta))
GEMM4(hhh, __half, __half, float, sval_half(g.alpha), sval_half(g.beta))
GEMM4(hss, __half, float, float, sval<float>(g.alpha), sval<float>(g.beta))
/* bfloat16 A and B: float accumulation and scalars; C bfloat16 or float */
GEMM4(bbs, bf16bits, bf16bits, float, sval<float>(g.alpha), sval<float>(g.beta))
GEMM4(bss, bf16bits, float, float, sval<float>(g.alpha), sval<float>(g.beta))
/* int8 A and B: int32 C, accumulation and scalars (wrapping), or float C,
 * accumulation and scalars (exact sums of integers below 2^24) */
GEMM4(qii, signed char, int, int, sval<int>(g.alpha), sval<int>(g.beta))
GEMM4(qss, signed char, float, float, sval<float>(g.alpha), sval<float>(g.beta))
extern "C" __global__ void cb_gemm_c(cb_gemm_args g) { cgemm<float, float>(g); }
extern "C" __global__ void cb_gemm_z(cb_gemm_args g) { cgemm<double, double>(g); }
/* CUDA_C_8I A and B, CUDA_C_32F C */
extern "C" __global__ void cb_gemm_cq(cb_gemm_args g) { cgemm<signed char, float>(g); }

/* packing (A or B element type, compute type) and the packed products */
extern "C" __global__ void cb_pack_a_ss(cb_pack_args g) { pack_a<float, float, CB_PM>(g); }
extern "C" __global__ void cb_pack_b_ss(cb_pack_args g) { pack_b<float, float>(g); }
extern "C" __global__ void cb_pack_a_dd(cb_pack_args g) { pack_a<double, double, CB_TM>(g); }
extern "C" __global__ void cb_pack_b_dd(cb_pack_args g) { pack_b<double, double>(g); }
extern "C" __global__ void cb_pack_a_hs(cb_pack_args g) { pack_a<__half, float, CB_PM>(g); }
extern "C" __global__ void cb_pack_b_hs(cb_pack_args g) { pack_b<__half, float>(g); }
extern "C" __global__ void cb_pack_a_bs(cb_pack_args g) { pack_a<bf16bits, float, CB_PM>(g); }
extern "C" __global__ void cb_pack_b_bs(cb_pack_args g) { pack_b<bf16bits, float>(g); }
extern "C" __global__ void cb_gemmp_sss(cb_packed_args g) { gemm_packed<float, float, CB_PM, 16>(g, sval<float>(g.alpha), sval<float>(g.beta)); }
extern "C" __global__ void cb_gemmp_ddd(cb_packed_args g) { gemm_packed<double, double, CB_TM, 0>(g, sval<double>(g.alpha), sval<double>(g.beta)); }
extern "C" __global__ void cb_gemmp_hss(cb_packed_args g) { gemm_packed<float, float, CB_PM, 4>(g, sval<float>(g.alpha), sval<float>(g.beta)); }
extern "C" __global__ void cb_gemmp_hhs(cb_packed_args g) { gemm_packed<float, __half, CB_PM, 4>(g, sval<float>(g.alpha), sval<float>(g.beta)); }
extern "C" __global__ void cb_gemmp_hhh(cb_packed_args g) { gemm_packed<float, __half, CB_PM, 4>(g, sval_half(g.alpha), sval_half(g.beta)); }
extern "C" __global__ void cb_gemmp_bss(cb_packed_args g) { gemm_packed<float, float, CB_PM, 4>(g, sval<float>(g.alpha), sval<float>(g.beta)); }
extern "C" __global__ void cb_gemmp_bbs(cb_packed_args g) { gemm_packed<float, bf16bits, CB_PM, 4>(g, sval<float>(g.alpha), sval<float>(g.beta)); }

/* geam, dgmm; Level 2; Level 3 beyond GEMM */
#define XK(name, fn)                                                                               \
   extern "C" __global__ void cb_##name##_s(cb_mat_args g) { fn<float>(g); }                      \
   extern "C" __global__ void cb_##name##_d(cb_mat_args g) { fn<double>(g); }
#define XKC(name, fn)                                                                              \
   XK(name, fn)                                                                                    \
   extern "C" __global__ void cb_##name##_c(cb_mat_args g) { fn<cplx<float> >(g); }               \
   extern "C" __global__ void cb_##name##_z(cb_mat_args g) { fn<cplx<double> >(g); }
XKC(geam, geam)
XKC(dgmm, dgmm)
XKC(trxv, trxv)
XKC(syrk, syrk)
XKC(symm, symm)
/* trsmBatched: matrix z of the arrays by the blocks of gridDim.y z */
template <class T> __device__ __forceinline__ void trsm_batched(const cb_mat_args &g0)
{
   for (int z = blockIdx.y; z < g0.batch; z += gridDim.y) {
      cb_mat_args g = g0;
      g.A = g0.Aarr[z];
      g.B = g0.Barr[z];
      trmm_trsm<T>(g, true);
   }
}
XKC(trsmb, trsm_batched)
template <class T> __device__ __forceinline__ void trmm_k(const cb_mat_args &g) { trmm_trsm<T>(g, false); }
template <class T> __device__ __forceinline__ void trsm_k(const cb_mat_args &g) { trmm_trsm<T>(g, true); }
XKC(trmm, trmm_k)
XKC(trsm, trsm_k)
XKC(xmv, xmv)
XKC(xmvb, xmv_batched)
XKC(xr, xr)
extern "C" __global__ void cb_herk_c(cb_mat_args g) { herk<cplx<float> >(g); }
extern "C" __global__ void cb_herk_z(cb_mat_args g) { herk<cplx<double> >(g); }
XKC(getrf, getrf)
XKC(getrs, getrs)
XKC(matinv, matinv)
XKC(geqrf, geqrf)
extern "C" __global__ void cb_gemvx_hh(cb_mat_args g) { gemvx<__half, __half>(g); }
extern "C" __global__ void cb_gemvx_hs(cb_mat_args g) { gemvx<__half, float>(g); }
extern "C" __global__ void cb_gemvx_bb(cb_mat_args g) { gemvx<bf16bits, bf16bits>(g); }
extern "C" __global__ void cb_gemvx_bs(cb_mat_args g) { gemvx<bf16bits, float>(g); }
