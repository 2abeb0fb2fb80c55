// Large real-world PTX: Thrust and CUB device algorithms (sort, reduce, scan,
// radix sort), compiled for sm_75 and sm_90 by gen.sh.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
void run(int n, int *d_in, int *d_out, float *f, unsigned *keys, unsigned *vals, unsigned *ko, unsigned *vo) {
  thrust::device_vector<float> v(f, f + n);
  thrust::sort(v.begin(), v.end());
  void *tmp = nullptr; size_t bytes = 0;
  cub::DeviceReduce::Sum(tmp, bytes, d_in, d_out, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, d_in, d_out, n);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, ko, vals, vo, n);
}
