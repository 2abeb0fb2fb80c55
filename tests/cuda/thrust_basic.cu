// Thrust's everyday algorithms on device_vector, against host references:
// sort (keys and by key), reduce, transform, inclusive and exclusive scans,
// count_if and copy_if, unique, sequence and a transform_reduce (norm).
// Built by NVIDIA's nvcc it uses the toolkit's CCCL; built by metalcuda's
// nvcc, the CCCL package the machine has (Debian's libthrust-dev and
// libcub-dev: tests/toolchain/README.md).  The first run translates and
// compiles some forty Thrust and CUB kernels (seconds once cached), hence
// the longer timeout.
// timeout: 600
// heavy: CUB/Thrust kernels, long to compile and to run on the software device
#include "check.h"

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <numeric>
#include <vector>

struct is_odd {
   __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct square {
   __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct saxpy {
   int a;
   __host__ __device__ int operator()(int x, int y) const { return a * x + y; }
};

int main()
{
   check_begin("thrust_basic");
   const int n = 100000;
   std::vector<int> h(n);
   unsigned x = 2463534242u;
   for (int i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      h[i] = (int)(x % 20001) - 10000;
   }
   thrust::device_vector<int> d(h.begin(), h.end());

   /* reduce, transform_reduce, count_if */
   long long sum = std::accumulate(h.begin(), h.end(), 0ll);
   CHECK_INT(thrust::reduce(d.begin(), d.end(), 0ll, thrust::plus<long long>()), sum);
   long long sq = 0;
   for (int v : h)
      sq += (long long)v * v;
   CHECK_INT(thrust::transform_reduce(d.begin(), d.end(), square(), 0ll, thrust::plus<long long>()), sq);
   CHECK_INT(thrust::count_if(d.begin(), d.end(), is_odd()), std::count_if(h.begin(), h.end(), [](int v) { return v & 1; }));

   /* transform (saxpy) */
   thrust::device_vector<int> y(n);
   thrust::sequence(y.begin(), y.end(), 5, 3);
   thrust::device_vector<int> z(n);
   thrust::transform(d.begin(), d.end(), y.begin(), z.begin(), saxpy{ 7 });
   std::vector<int> want(n), got(n);
   for (int i = 0; i < n; i++)
      want[i] = 7 * h[i] + (5 + 3 * i);
   thrust::copy(z.begin(), z.end(), got.begin());
   CHECK_ARRAY_I32("transform saxpy", got.data(), want.data(), n);

   /* scans */
   thrust::inclusive_scan(d.begin(), d.end(), z.begin());
   thrust::copy(z.begin(), z.end(), got.begin());
   std::partial_sum(h.begin(), h.end(), want.begin());
   CHECK_ARRAY_I32("inclusive_scan", got.data(), want.data(), n);
   thrust::exclusive_scan(d.begin(), d.end(), z.begin(), 10);
   thrust::copy(z.begin(), z.end(), got.begin());
   want[0] = 10;
   for (int i = 1; i < n; i++)
      want[i] = want[i - 1] + h[i - 1];
   CHECK_ARRAY_I32("exclusive_scan", got.data(), want.data(), n);

   /* copy_if */
   thrust::device_vector<int> odd(n);
   int nodd = (int)(thrust::copy_if(d.begin(), d.end(), odd.begin(), is_odd()) - odd.begin());
   std::vector<int> hodd;
   for (int v : h)
      if (v & 1)
         hodd.push_back(v);
   CHECK_INT(nodd, hodd.size());
   thrust::copy(odd.begin(), odd.begin() + nodd, got.begin());
   CHECK_ARRAY_I32("copy_if", got.data(), hodd.data(), nodd);

   /* sort, unique, sort_by_key (stable: equal keys keep their order) */
   thrust::device_vector<int> s = d;
   thrust::sort(s.begin(), s.end());
   want = h;
   std::sort(want.begin(), want.end());
   thrust::copy(s.begin(), s.end(), got.begin());
   CHECK_ARRAY_I32("sort", got.data(), want.data(), n);
   int nu = (int)(thrust::unique(s.begin(), s.end()) - s.begin());
   int hu = (int)(std::unique(want.begin(), want.end()) - want.begin());
   CHECK_INT(nu, hu);
   thrust::copy(s.begin(), s.begin() + nu, got.begin());
   CHECK_ARRAY_I32("unique", got.data(), want.data(), nu);

   thrust::device_vector<int> keys(n), vals(n);
   for (int i = 0; i < n; i++)
      h[i] = h[i] % 50;   /* many equal keys */
   keys = h;
   thrust::sequence(vals.begin(), vals.end());
   thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin());
   std::vector<int> idx(n);
   std::iota(idx.begin(), idx.end(), 0);
   std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
   thrust::copy(vals.begin(), vals.end(), got.begin());
   CHECK_ARRAY_I32("stable_sort_by_key values", got.data(), idx.data(), n);
   CHECK_CUDA(cudaGetLastError());
   return check_end();
}
