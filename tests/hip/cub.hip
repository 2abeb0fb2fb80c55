/*
 * cub.hip — hipCUB (include/hipcub: CUB under hipCUB's name) from a HIP
 * program: a block reduction and a block exclusive scan with
 * hipcub::Sum, a warp reduction with hipcub::Max, DeviceReduce::Sum and
 * ::Reduce with hipcub::Min, DeviceScan::ExclusiveSum and
 * DeviceRadixSort::SortPairs, each with the two-call temporary storage
 * protocol; against host references on pseudo-random data.
 */
#include "hip_check.h"

#include <hipcub/hipcub.hpp>

#include <algorithm>
#include <vector>

enum { BLOCK = 128 };
static const int N = 100003;

__global__ void block_ops(const int *in, int *sums, int *scans)
{
   typedef hipcub::BlockReduce<int, BLOCK> Reduce;
   typedef hipcub::BlockScan<int, BLOCK> Scan;
   __shared__ typename Reduce::TempStorage rt;
   __shared__ typename Scan::TempStorage st;
   int i = blockIdx.x * BLOCK + threadIdx.x;
   int v = in[i];
   int s = Reduce(rt).Reduce(v, hipcub::Sum());
   if (threadIdx.x == 0)
      sums[blockIdx.x] = s;
   int x;
   Scan(st).ExclusiveScan(v, x, 0, hipcub::Sum());
   scans[i] = x;
}

__global__ void warp_max(const int *in, int *out)
{
   typedef hipcub::WarpReduce<int> WarpReduce;
   __shared__ typename WarpReduce::TempStorage t[BLOCK / 32];
   int i = blockIdx.x * BLOCK + threadIdx.x;
   int m = WarpReduce(t[threadIdx.x / 32]).Reduce(in[i], hipcub::Max());
   if (threadIdx.x % 32 == 0)
      out[i / 32] = m;
}

static unsigned rng = 12345;
static int next_int(void)
{
   rng = rng * 1664525u + 1013904223u;
   return (int)(rng >> 8) % 2001 - 1000;
}

static void *scratch(size_t bytes)
{
   void *p = NULL;
   CHECK_HIP(hipMalloc(&p, bytes ? bytes : 1));
   return p;
}

int main()
{
   hc_begin("cub");
   std::vector<int> h(N);
   for (int &v : h)
      v = next_int();
   int *d_in, *d_out;
   CHECK_HIP(hipMalloc(&d_in, N * sizeof(int)));
   CHECK_HIP(hipMalloc(&d_out, N * sizeof(int)));
   CHECK_HIP(hipMemcpy(d_in, h.data(), N * sizeof(int), hipMemcpyHostToDevice));

   /* block and warp algorithms over the first 4 blocks */
   int *d_sums, *d_max;
   CHECK_HIP(hipMalloc(&d_sums, 4 * sizeof(int)));
   CHECK_HIP(hipMalloc(&d_max, 4 * BLOCK / 32 * sizeof(int)));
   hipLaunchKernelGGL(block_ops, dim3(4), dim3(BLOCK), 0, 0, d_in, d_sums, d_out);
   hipLaunchKernelGGL(warp_max, dim3(4), dim3(BLOCK), 0, 0, d_in, d_max);
   CHECK_HIP(hipDeviceSynchronize());
   std::vector<int> sums(4), scans(4 * BLOCK), maxes(4 * BLOCK / 32);
   CHECK_HIP(hipMemcpy(sums.data(), d_sums, sums.size() * sizeof(int), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(scans.data(), d_out, scans.size() * sizeof(int), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(maxes.data(), d_max, maxes.size() * sizeof(int), hipMemcpyDeviceToHost));
   int bad = 0;
   for (int b = 0; b < 4; b++) {
      int s = 0;
      for (int t = 0; t < BLOCK; t++) {
         bad += scans[b * BLOCK + t] != s;
         s += h[b * BLOCK + t];
      }
      CHECK_INT(sums[b], s);
   }
   CHECK_INT(bad, 0);
   for (int w = 0; w < 4 * BLOCK / 32; w++)
      CHECK_INT(maxes[w], *std::max_element(h.begin() + w * 32, h.begin() + w * 32 + 32));

   /* device-wide: the first call sizes the temporary storage */
   long long want_sum = 0;
   for (int v : h)
      want_sum += v;
   size_t bytes = 0;
   CHECK_HIP(hipcub::DeviceReduce::Sum(NULL, bytes, d_in, d_sums, N));
   void *tmp = scratch(bytes);
   CHECK_HIP(hipcub::DeviceReduce::Sum(tmp, bytes, d_in, d_sums, N));
   int got;
   CHECK_HIP(hipMemcpy(&got, d_sums, sizeof(int), hipMemcpyDeviceToHost));
   CHECK_INT(got, (int)want_sum);
   CHECK_HIP(hipFree(tmp));

   bytes = 0;
   CHECK_HIP(hipcub::DeviceReduce::Reduce(NULL, bytes, d_in, d_sums, N, hipcub::Min(), 1 << 30));
   tmp = scratch(bytes);
   CHECK_HIP(hipcub::DeviceReduce::Reduce(tmp, bytes, d_in, d_sums, N, hipcub::Min(), 1 << 30));
   CHECK_HIP(hipMemcpy(&got, d_sums, sizeof(int), hipMemcpyDeviceToHost));
   CHECK_INT(got, *std::min_element(h.begin(), h.end()));
   CHECK_HIP(hipFree(tmp));

   bytes = 0;
   CHECK_HIP(hipcub::DeviceScan::ExclusiveSum(NULL, bytes, d_in, d_out, N));
   tmp = scratch(bytes);
   CHECK_HIP(hipcub::DeviceScan::ExclusiveSum(tmp, bytes, d_in, d_out, N));
   std::vector<int> out(N);
   CHECK_HIP(hipMemcpy(out.data(), d_out, N * sizeof(int), hipMemcpyDeviceToHost));
   bad = 0;
   for (int i = 0, s = 0; i < N; s += h[i], i++)
      bad += out[i] != s;
   CHECK_INT(bad, 0);
   CHECK_HIP(hipFree(tmp));

   /* radix sort of (key, index) pairs: a stable sort by key */
   std::vector<int> idx(N);
   for (int i = 0; i < N; i++)
      idx[i] = i;
   int *d_idx, *d_keys_out, *d_idx_out;
   CHECK_HIP(hipMalloc(&d_idx, N * sizeof(int)));
   CHECK_HIP(hipMalloc(&d_keys_out, N * sizeof(int)));
   CHECK_HIP(hipMalloc(&d_idx_out, N * sizeof(int)));
   CHECK_HIP(hipMemcpy(d_idx, idx.data(), N * sizeof(int), hipMemcpyHostToDevice));
   bytes = 0;
   CHECK_HIP(hipcub::DeviceRadixSort::SortPairs(NULL, bytes, d_in, d_keys_out, d_idx, d_idx_out, N));
   tmp = scratch(bytes);
   CHECK_HIP(hipcub::DeviceRadixSort::SortPairs(tmp, bytes, d_in, d_keys_out, d_idx, d_idx_out, N));
   std::vector<int> keys_got(N), idx_got(N);
   CHECK_HIP(hipMemcpy(keys_got.data(), d_keys_out, N * sizeof(int), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(idx_got.data(), d_idx_out, N * sizeof(int), hipMemcpyDeviceToHost));
   std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += idx_got[i] != idx[i] || keys_got[i] != h[idx[i]];
   CHECK_INT(bad, 0);
   CHECK_HIP(hipFree(tmp));

   CHECK_HIP(hipFree(d_in));
   CHECK_HIP(hipFree(d_out));
   CHECK_HIP(hipFree(d_sums));
   CHECK_HIP(hipFree(d_max));
   CHECK_HIP(hipFree(d_idx));
   CHECK_HIP(hipFree(d_keys_out));
   CHECK_HIP(hipFree(d_idx_out));
   return hc_end();
}
