/*
 * radix_sort.cu — cub::DeviceRadixSort (what thrust::sort runs on
 * arithmetic keys) against a host reference (issue 17).  Its Onesweep
 * kernels ask for 35-48 KB of shared memory, more than Metal's 32 KB of
 * threadgroup memory: metalcuda runs them with their shared memory in
 * device memory.  Their decoupled look-back spins on other blocks'
 * published digit counts.
 *
 *   - SortKeys of 10M random unsigned keys (every bit pattern likely);
 *   - SortPairs of 1M 64-bit keys with many duplicates and their indices
 *     as values: the sort is stable, so the values must come out in the
 *     order a stable host sort gives;
 *   - SortKeysDescending of 1M floats of both signs, zeros of both signs
 *     and infinities, in CUB's order (by the bits made monotonic; -0.0
 *     and +0.0 equal, so they stay in input order: the sort is stable).
 *
 * The sizes are those of make test-full (MC_TEST_FULL, check_full_size());
 * make test sorts 2M keys and 250K pairs and floats: the 10M-key sort takes
 * about two minutes on the software device (its Onesweep kernels run their
 * warp operations as fibers), a tenth of make test's budget.  Both sizes
 * use several Onesweep passes and many blocks of look-back.
 */
// timeout: 600
// heavy: about 30 s of CPU per run on the software device (two minutes at full size)
#include "check.h"

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <vector>

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t next32(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return (uint32_t)(rng >> 16);
}

template <typename T> static T *to_device(const std::vector<T> &h)
{
   T *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}

template <typename T> static std::vector<T> from_device(const T *d, size_t n)
{
   std::vector<T> h(n);
   CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
   return h;
}

template <typename T> static size_t first_difference(const std::vector<T> &a, const std::vector<T> &b)
{
   for (size_t i = 0; i < a.size(); i++)
      if (memcmp(&a[i], &b[i], sizeof(T)))
         return i;
   return a.size();
}

static void sort_keys(void)
{
   const size_t n = check_full_size() ? 10000000 : 2000000;
   std::vector<uint32_t> keys(n);
   for (size_t i = 0; i < n; i++)
      keys[i] = next32();
   uint32_t *d_in = to_device(keys), *d_out;
   CHECK_CUDA(cudaMalloc(&d_out, n * 4));
   CHECK_CUDA(cudaMemset(d_out, 0xde, n * 4));
   void *tmp = NULL;
   size_t tmp_bytes = 0;
   CHECK_CUDA(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, d_in, d_out, (int)n));
   CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
   CHECK_CUDA(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, d_in, d_out, (int)n));
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<uint32_t> got = from_device(d_out, n);
   std::sort(keys.begin(), keys.end());
   size_t k = first_difference(got, keys);
   if (!CHECK(k == n))
      printf("  SortKeys<unsigned> of %zu: first difference at %zu: got %#x, expected %#x\n", n, k, got[k], keys[k]);
   cudaFree(tmp);
   cudaFree(d_in);
   cudaFree(d_out);
}

static void sort_pairs_stable(void)
{
   const size_t n = check_full_size() ? 1000000 : 250000;
   std::vector<uint64_t> keys(n);
   std::vector<uint32_t> vals(n);
   for (size_t i = 0; i < n; i++) {
      keys[i] = (uint64_t)(next32() % 5000) << 40 | (next32() % 3);   /* many equal keys */
      vals[i] = (uint32_t)i;
   }
   uint64_t *dk = to_device(keys), *dk_out;
   uint32_t *dv = to_device(vals), *dv_out;
   CHECK_CUDA(cudaMalloc(&dk_out, n * 8));
   CHECK_CUDA(cudaMalloc(&dv_out, n * 4));
   void *tmp = NULL;
   size_t tmp_bytes = 0;
   CHECK_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, dk, dk_out, dv, dv_out, (int)n));
   CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
   CHECK_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, dk, dk_out, dv, dv_out, (int)n));
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<uint64_t> gk = from_device(dk_out, n);
   std::vector<uint32_t> gv = from_device(dv_out, n);
   std::vector<uint32_t> order(n);
   for (size_t i = 0; i < n; i++)
      order[i] = (uint32_t)i;
   std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
   std::vector<uint64_t> wk(n);
   for (size_t i = 0; i < n; i++)
      wk[i] = keys[order[i]];
   size_t k = first_difference(gk, wk), v = first_difference(gv, order);
   if (!CHECK(k == n))
      printf("  SortPairs<u64, u32>: keys differ first at %zu\n", k);
   if (!CHECK(v == n))
      printf("  SortPairs<u64, u32>: values (stability) differ first at %zu: got %u, expected %u\n", v, gv[v],
             order[v]);
   cudaFree(tmp);
   cudaFree(dk);
   cudaFree(dk_out);
   cudaFree(dv);
   cudaFree(dv_out);
}

/* CUB's order of floats: the bits made monotonic (negative ones
 * inverted, positive ones with the sign bit set), -0.0 taken as +0.0
 * (cub/block/radix_rank_sort_operations.cuh, ProcessFloatMinusZero): the
 * zeros are equal keys, which the stable sort keeps in input order. */
static uint32_t float_order(float f)
{
   uint32_t b;
   memcpy(&b, &f, 4);
   if (b == 0x80000000u)
      b = 0;
   return b & 0x80000000u ? ~b : b | 0x80000000u;
}

static void sort_floats_descending(void)
{
   const size_t n = check_full_size() ? 1000000 : 250000;
   std::vector<float> keys(n);
   for (size_t i = 0; i < n; i++) {
      uint32_t r = next32();
      switch (r % 16) {
      case 0: keys[i] = 0.0f; break;
      case 1: keys[i] = -0.0f; break;
      case 2: keys[i] = (r & 16) ? INFINITY : -INFINITY; break;
      default: keys[i] = ((float)(int)(r >> 8) - 8388608.0f) * 0.001f; break;
      }
   }
   float *d_in = to_device(keys), *d_out;
   CHECK_CUDA(cudaMalloc(&d_out, n * 4));
   void *tmp = NULL;
   size_t tmp_bytes = 0;
   CHECK_CUDA(cub::DeviceRadixSort::SortKeysDescending(tmp, tmp_bytes, d_in, d_out, (int)n));
   CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
   CHECK_CUDA(cub::DeviceRadixSort::SortKeysDescending(tmp, tmp_bytes, d_in, d_out, (int)n));
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<float> got = from_device(d_out, n);
   std::stable_sort(keys.begin(), keys.end(), [](float a, float b) { return float_order(a) > float_order(b); });
   size_t k = first_difference(got, keys);
   if (!CHECK(k == n))
      printf("  SortKeysDescending<float>: first difference at %zu: got %a, expected %a\n", k, got[k], keys[k]);
   cudaFree(tmp);
   cudaFree(d_in);
   cudaFree(d_out);
}

int main(void)
{
   check_begin("radix_sort");
   sort_keys();
   sort_pairs_stable();
   sort_floats_descending();
   return check_end();
}
