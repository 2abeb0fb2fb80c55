/*
 * transfer.h — the tests/libs programs' copies between host vectors and
 * device memory (include after ../cuda/check.h): dev() makes a device copy
 * of a vector, with 16 bytes to spare so that a kernel reading one element
 * past a short vector stays inside the allocation; host() copies n
 * elements back.  Every copy is checked.  toc()/fromc(): the element
 * types as std::complex<double> and back.
 */
#ifndef TESTS_LIBS_TRANSFER_H
#define TESTS_LIBS_TRANSFER_H

#include <complex>
#include <cuComplex.h>
#include <vector>

/* element types (float, double, cuComplex, cuDoubleComplex) as
 * std::complex<double> and back, for the host references */
typedef std::complex<double> cd;
static cd toc(float v) { return cd(v, 0); }
static cd toc(double v) { return cd(v, 0); }
static cd toc(cuComplex v) { return cd(v.x, v.y); }
static cd toc(cuDoubleComplex v) { return cd(v.x, v.y); }
template <class T> static T fromc(cd v);
template <> float fromc<float>(cd v) { return (float)v.real(); }
template <> double fromc<double>(cd v) { return v.real(); }
template <> cuComplex fromc<cuComplex>(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
template <> cuDoubleComplex fromc<cuDoubleComplex>(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }
template <class T> static constexpr bool is_cplx() { return false; }
template <> constexpr bool is_cplx<cuComplex>() { return true; }
template <> constexpr bool is_cplx<cuDoubleComplex>() { return true; }

template <class T> static T *dev(const std::vector<T> &v)
{
   T *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 16));
   CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}
template <class T> static std::vector<T> host(const T *d, size_t n)
{
   std::vector<T> v(n);
   CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
   return v;
}

#endif
