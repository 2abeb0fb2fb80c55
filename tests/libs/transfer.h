/*
 * transfer.h — the tests/libs programs' copies between host vectors and
 * device memory (include after ../cuda/check.h): dev() makes a device copy
 * of a vector, with 16 bytes to spare so that a kernel reading one element
 * past a short vector stays inside the allocation; host() copies n
 * elements back.  Every copy is checked.
 */
#ifndef TESTS_LIBS_TRANSFER_H
#define TESTS_LIBS_TRANSFER_H

#include <vector>

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
