/*
 * hipcub/hipcub.hpp — hipCUB on metalcuda: CUB itself, under the name
 * hipcub, as hipCUB is on NVIDIA GPUs (its CUDA back end forwards to CUB).
 *
 * Every CUB name (block, warp and device algorithms, iterators,
 * KeyValuePair, CachingDeviceAllocator ...) is reachable as hipcub::NAME
 * through a using-directive: qualified lookup follows it.  CUB 3 dropped
 * the function objects hipCUB still documents (Sum, Min, Max, Difference,
 * Division, Equality, Inequality, InequalityWrapper is CUB's): they are
 * defined here, so hipcub::BlockReduce<...>(...).Reduce(x, hipcub::Sum())
 * and hipcub::DeviceReduce::Reduce(..., hipcub::Max(), init) compile.
 * Needs CCCL (lib/metalcuda/cccl, or the system's CUB).
 */
#ifndef METALCUDA_HIPCUB_HIPCUB_HPP
#define METALCUDA_HIPCUB_HIPCUB_HPP

#include <hip/hip_runtime.h>
#include <cub/cub.cuh>

#define HIPCUB_CUB_API 1
#define HIPCUB_VERSION (CUB_VERSION / 100000 * 100000 + CUB_VERSION / 100 % 1000 * 100 + CUB_VERSION % 100)
#define HIPCUB_RUNTIME_FUNCTION CUB_RUNTIME_FUNCTION
#define HIPCUB_DEVICE __device__
#define HIPCUB_HOST __host__
#define HIPCUB_HOST_DEVICE __host__ __device__
#define HIPCUB_STDERR 1

namespace hipcub {
using namespace ::cub;

struct Equality {
   template <class T, class U>
   __host__ __device__ constexpr bool operator()(const T &a, const U &b) const { return a == b; }
};
struct Inequality {
   template <class T, class U>
   __host__ __device__ constexpr bool operator()(const T &a, const U &b) const { return a != b; }
};
struct Sum {
   template <class T, class U>
   __host__ __device__ constexpr auto operator()(T &&a, U &&b) const -> decltype(a + b) { return a + b; }
};
struct Difference {
   template <class T, class U>
   __host__ __device__ constexpr auto operator()(T &&a, U &&b) const -> decltype(a - b) { return a - b; }
};
struct Division {
   template <class T, class U>
   __host__ __device__ constexpr auto operator()(T &&a, U &&b) const -> decltype(a / b) { return a / b; }
};
/* CUB's Max and Min returned the common type of the two operands; a tie
 * gives the first (Max: b < a ? a : b would give b), as hipCUB's does */
struct Max {
   template <class T, class U>
   __host__ __device__ constexpr auto operator()(T &&a, U &&b) const -> decltype(a < b ? b : a) { return a < b ? b : a; }
};
struct Min {
   template <class T, class U>
   __host__ __device__ constexpr auto operator()(T &&a, U &&b) const -> decltype(b < a ? b : a) { return b < a ? b : a; }
};
} /* namespace hipcub */

#endif
