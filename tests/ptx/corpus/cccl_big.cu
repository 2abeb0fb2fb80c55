// The large corpus: most CUB device algorithms and common Thrust algorithms,
// instantiated over 8/16/32/64-bit integers and float (no double: fp64 is
// its own issue).  Never run; nvcc -ptx turns it into a few MB of the PTX
// real programs carry (tests/unit/test_ptx_corpus.c translates all of it,
// bench/translate.sh times it against ptxas).
#include <cub/device/device_adjacent_difference.cuh>
#include <cuda/functional>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/binary_search.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/merge.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

struct Less {
  template <class T> __host__ __device__ bool operator()(const T &a, const T &b) const { return a < b; }
};
struct IsOdd {
  template <class T> __host__ __device__ bool operator()(const T &a) const { return (long long)a & 1; }
};
struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

template <class T> void cub_algorithms(T *in, T *out, int *idx, int *offs, unsigned char *flags, int n) {
  void *tmp = nullptr;
  size_t bytes = 0;
  cub::KeyValuePair<int, T> *kv = nullptr;
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  cub::DeviceReduce::Min(tmp, bytes, in, out, n);
  cub::DeviceReduce::Max(tmp, bytes, in, out, n);
  cub::DeviceReduce::ArgMin(tmp, bytes, in, kv, n);
  cub::DeviceReduce::ArgMax(tmp, bytes, in, kv, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::InclusiveScanByKey(tmp, bytes, idx, in, out, ::cuda::maximum<>(), n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
  cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, in, out, idx, idx, n);
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, in, out, 8, offs, offs + 1);
  cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, in, out, n, 8, offs, offs + 1);
  cub::DeviceSelect::If(tmp, bytes, in, out, idx, n, IsOdd());
  cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, idx, n);
  cub::DeviceSelect::Unique(tmp, bytes, in, out, idx, n);
  cub::DevicePartition::If(tmp, bytes, in, out, idx, n, IsOdd());
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, in, out, idx, idx + 1, n);
  cub::DeviceMergeSort::SortKeys(tmp, bytes, in, n, Less());
  cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp, bytes, in, out, n);
}

template <class T> void thrust_algorithms(T *p, int n) {
  thrust::device_vector<T> v(p, p + n), w(n), u(2 * n);
  thrust::device_vector<int> keys(n);
  thrust::sort(v.begin(), v.end());
  thrust::sort_by_key(v.begin(), v.end(), keys.begin());
  thrust::stable_sort(w.begin(), w.end(), thrust::greater<T>());
  thrust::inclusive_scan(v.begin(), v.end(), w.begin());
  thrust::exclusive_scan(v.begin(), v.end(), w.begin());
  volatile T r = thrust::reduce(v.begin(), v.end());
  (void)r;
  volatile long c = thrust::count_if(v.begin(), v.end(), IsOdd());
  (void)c;
  thrust::unique(v.begin(), v.end());
  thrust::merge(v.begin(), v.end(), w.begin(), w.end(), u.begin());
  thrust::set_intersection(v.begin(), v.end(), w.begin(), w.end(), u.begin());
  thrust::lower_bound(v.begin(), v.end(), w.begin(), w.end(), keys.begin());
}

void instantiate(int n, unsigned char *f, int *idx, int *offs) {
  cub_algorithms<int>((int *)f, (int *)f, idx, offs, f, n);
  cub_algorithms<unsigned>((unsigned *)f, (unsigned *)f, idx, offs, f, n);
  cub_algorithms<float>((float *)f, (float *)f, idx, offs, f, n);
  cub_algorithms<long long>((long long *)f, (long long *)f, idx, offs, f, n);
  cub_algorithms<unsigned char>(f, f, idx, offs, f, n);
  cub_algorithms<short>((short *)f, (short *)f, idx, offs, f, n);
  thrust_algorithms<int>((int *)f, n);
  thrust_algorithms<float>((float *)f, n);
  thrust_algorithms<unsigned long long>((unsigned long long *)f, n);
  {
    void *tmp = nullptr;
    size_t bytes = 0;
    float *x = (float *)f;
    int *hist = idx;
    cub::DeviceHistogram::HistogramEven(tmp, bytes, f, hist, 257, 0, 256, n);
    cub::DeviceHistogram::HistogramEven(tmp, bytes, x, hist, 65, 0.0f, 1.0f, n);
    cub::DeviceHistogram::HistogramRange(tmp, bytes, x, hist, 9, x, n);
    thrust::device_vector<float> a(x, x + n), b(x, x + n);
    thrust::transform(a.begin(), a.end(), b.begin(), b.begin(), Saxpy{2.0f});
  }
}
