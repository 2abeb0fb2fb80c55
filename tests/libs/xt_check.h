/*
 * xt_check.h — what cublas_xt.cu and cublas_xt3.cu share: the element
 * types' unit roundoff, value in long double complex and construction
 * (ty<T>), the programs' deterministic pseudo-random entries (rnd), op(M)
 * of a column-major matrix (op_at), and a matrix placed in device memory or
 * left in host memory and fetched back (place, fetch).
 */
#ifndef TESTS_LIBS_XT_CHECK_H
#define TESTS_LIBS_XT_CHECK_H

#include <cublasXt.h>
#include "../cuda/check.h"

#include <complex>
#include <vector>

typedef std::complex<long double> cl;

/* |z| for the error bounds: the square root of the norm.  std::abs calls
   hypotl, which guards against overflow these magnitudes never reach and
   took most of the programs' time. */
static inline long double mag_of(cl z)
{
   return sqrtl(z.real() * z.real() + z.imag() * z.imag());
}

template <class T> struct ty;
template <> struct ty<float> {
   typedef float R;
   static double u() { return 0x1p-24; }
   static cl get(float v) { return cl(v, 0); }
   static float make(double re, double) { return (float)re; }
   static const bool cplx = false;
};
template <> struct ty<double> {
   typedef double R;
   static double u() { return 0x1p-53; }
   static cl get(double v) { return cl(v, 0); }
   static double make(double re, double) { return re; }
   static const bool cplx = false;
};
template <> struct ty<cuComplex> {
   typedef float R;
   static double u() { return 0x1p-24; }
   static cl get(cuComplex v) { return cl(v.x, v.y); }
   static cuComplex make(double re, double im) { return make_cuComplex((float)re, (float)im); }
   static const bool cplx = true;
};
template <> struct ty<cuDoubleComplex> {
   typedef double R;
   static double u() { return 0x1p-53; }
   static cl get(cuDoubleComplex v) { return cl(v.x, v.y); }
   static cuDoubleComplex make(double re, double im) { return make_cuDoubleComplex(re, im); }
   static const bool cplx = true;
};

static unsigned seed = 12345;
static double rnd(void)
{
   seed = seed * 1103515245u + 12345u;
   return (double)((seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* op(M)(i, j) of a column-major matrix with leading dimension ld */
template <class T> static cl op_at(const std::vector<T> &M, size_t ld, cublasOperation_t op, size_t i, size_t j)
{
   if (op == CUBLAS_OP_N)
      return ty<T>::get(M[i + j * ld]);
   cl v = ty<T>::get(M[j + i * ld]);
   return op == CUBLAS_OP_C ? std::conj(v) : v;
}

/* A copy of host vector V in device memory (or V's own storage when
 * !on_dev); the result is copied back by fetch(). */
template <class T> static T *place(std::vector<T> &v, bool on_dev)
{
   if (!on_dev)
      return v.data();
   T *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}
template <class T> static void fetch(std::vector<T> &v, T *d, bool on_dev)
{
   if (!on_dev)
      return;
   CHECK_CUDA(cudaMemcpy(v.data(), d, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaFree(d));
}

#endif
