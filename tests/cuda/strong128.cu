/*
 * strong128.cu — 128-bit strong accesses never tear (issue 17): what CUB's
 * decoupled look-back for 64-bit values relies on, and Metal has no
 * instruction for (metalcuda does them under the location's lock of the
 * atomics' table).
 *
 *   - producer/consumer pairs: block 2k publishes 2000 successive versions
 *     {seq, f(seq)} of a 16-byte slot with st.relaxed.gpu.v2.u64 (every
 *     other one as st.volatile.v4.u32); block 2k+1 spins on the slot with
 *     ld.relaxed.gpu.v2.u64 / ld.volatile.v4.u32 until it sees the last
 *     version, counting what it sees that is not a version (a torn access)
 *     and every step back in seq (a coherence violation): both must be 0;
 *     the consumer only waits on a lower block, which a GPU (and the
 *     software device) has started first;
 *   - many writers and readers on four slots at once, from every block;
 *   - cub::DeviceScan::InclusiveSum/ExclusiveSum over long long, unsigned
 *     long long and double (its tile state is a 16-byte {status, value}
 *     read and written with 128-bit relaxed accesses) against a host
 *     reference, on sizes that need many tiles.
 */
// heavy: CUB/Thrust kernels, long to compile and to run on the software device
#include "check.h"

#include <cub/device/device_scan.cuh>

#define PAIRS 8
#define VERSIONS 2000
#define RACE_BLOCKS 16
#define RACE_ITERS 1000

__device__ __forceinline__ unsigned long long mixv(unsigned long long s) { return s * 0x9e3779b97f4a7c15ull + 1; }

__device__ __forceinline__ void st_relaxed(unsigned long long *p, unsigned long long a, unsigned long long b)
{
   asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
__device__ __forceinline__ void st_volatile4(unsigned long long *p, unsigned long long a, unsigned long long b)
{
   asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"((unsigned)a),
                "r"((unsigned)(a >> 32)), "r"((unsigned)b), "r"((unsigned)(b >> 32))
                : "memory");
}
__device__ __forceinline__ void ld_relaxed(const unsigned long long *p, unsigned long long *a, unsigned long long *b)
{
   asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
}
__device__ __forceinline__ void ld_volatile4(const unsigned long long *p, unsigned long long *a,
                                             unsigned long long *b)
{
   unsigned w0, w1, w2, w3;
   asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                : "=r"(w0), "=r"(w1), "=r"(w2), "=r"(w3)
                : "l"(p)
                : "memory");
   *a = w0 | (unsigned long long)w1 << 32;
   *b = w2 | (unsigned long long)w3 << 32;
}

/* Block 2k writes slots[k]; block 2k+1 reads it.  res[k]: {torn, backwards, last seq seen, reads}. */
__global__ void pairs(unsigned long long *slots, unsigned long long *res)
{
   unsigned k = blockIdx.x / 2;
   unsigned long long *slot = slots + 2 * k;
   if (threadIdx.x != 0)
      return;
   if (blockIdx.x % 2 == 0) {
      for (unsigned long long s = 1; s <= VERSIONS; s++) {
         if (s & 1)
            st_relaxed(slot, s, mixv(s));
         else
            st_volatile4(slot, s, mixv(s));
      }
      return;
   }
   unsigned long long torn = 0, back = 0, last = 0, reads = 0, a, b;
   do {
      if (reads & 1)
         ld_volatile4(slot, &a, &b);
      else
         ld_relaxed(slot, &a, &b);
      reads++;
      if (b != mixv(a))
         torn++;
      else if (a < last)
         back++;
      else
         last = a;
   } while (last != VERSIONS && reads < 100000000ull);
   res[4 * k] = torn;
   res[4 * k + 1] = back;
   res[4 * k + 2] = last;
   res[4 * k + 3] = reads;
}

/* Every thread: even warps write {x, ~x} into one of 4 slots, odd warps
 * read and count torn values. */
__global__ void race(unsigned long long *slots, unsigned *torn)
{
   unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, n = 0;
   bool reader = (threadIdx.x / 32) & 1;
   for (unsigned i = 0; i < RACE_ITERS; i++) {
      unsigned long long *slot = slots + 2 * ((i + gid) & 3), a, b;
      if (!reader) {
         a = mixv((unsigned long long)gid << 32 | i);
         if (i & 1)
            st_volatile4(slot, a, ~a);
         else
            st_relaxed(slot, a, ~a);
      } else {
         if (i & 1)
            ld_relaxed(slot, &a, &b);
         else
            ld_volatile4(slot, &a, &b);
         n += b != ~a;
      }
   }
   torn[gid] = n;
}

template <typename T> static void host_scan(const T *in, T *out, size_t n, bool inclusive)
{
   T acc = 0;
   for (size_t i = 0; i < n; i++) {
      if (!inclusive)
         out[i] = acc;
      acc = acc + in[i];
      if (inclusive)
         out[i] = acc;
   }
}

template <typename T> static void check_scan(const char *what, const T *h_in, size_t n, bool inclusive)
{
   T *d_in, *d_out, *h_out = (T *)malloc(n * sizeof(T)), *want = (T *)malloc(n * sizeof(T));
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(T), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(d_out, 0xde, n * sizeof(T)));
   void *tmp = NULL;
   size_t tmp_bytes = 0;
   if (inclusive) {
      CHECK_CUDA(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, d_in, d_out, (int)n));
      CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
      CHECK_CUDA(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, d_in, d_out, (int)n));
   } else {
      CHECK_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, (int)n));
      CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
      CHECK_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, (int)n));
   }
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
   host_scan(h_in, want, n, inclusive);
   size_t bad = 0, first = 0;
   for (size_t i = 0; i < n; i++)
      if (memcmp(&h_out[i], &want[i], sizeof(T)) && !bad++)
         first = i;
   if (!CHECK(bad == 0))
      printf("  %s: %zu of %zu elements differ, first at %zu\n", what, bad, n, first);
   cudaFree(tmp);
   cudaFree(d_in);
   cudaFree(d_out);
   free(h_out);
   free(want);
}

int main(void)
{
   check_begin("strong128");
   unsigned long long *slots, *res;
   CHECK_CUDA(cudaMalloc(&slots, PAIRS * 16));
   CHECK_CUDA(cudaMalloc(&res, PAIRS * 4 * sizeof(*res)));
   /* version 0: {0, mixv(0)} */
   unsigned long long init[2 * PAIRS];
   for (int k = 0; k < PAIRS; k++) {
      init[2 * k] = 0;
      init[2 * k + 1] = 1;   /* mixv(0) */
   }
   CHECK_CUDA(cudaMemcpy(slots, init, sizeof(init), cudaMemcpyHostToDevice));
   pairs<<<2 * PAIRS, 32>>>(slots, res);
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned long long h_res[PAIRS * 4];
   CHECK_CUDA(cudaMemcpy(h_res, res, sizeof(h_res), cudaMemcpyDeviceToHost));
   unsigned long long reads = 0;
   for (int k = 0; k < PAIRS; k++) {
      CHECK_INT(h_res[4 * k], 0);                   /* torn */
      CHECK_INT(h_res[4 * k + 1], 0);               /* backwards */
      CHECK_INT(h_res[4 * k + 2], VERSIONS);        /* saw the last version */
      reads += h_res[4 * k + 3];
   }
   printf("  pairs: %llu reads by %d consumers\n", reads, PAIRS);

   /* four slots {x, ~x} */
   unsigned long long init4[8] = { 0, ~0ull, 0, ~0ull, 0, ~0ull, 0, ~0ull };
   CHECK_CUDA(cudaMemcpy(slots, init4, sizeof(init4), cudaMemcpyHostToDevice));
   unsigned *torn, h_torn[RACE_BLOCKS * 128];
   CHECK_CUDA(cudaMalloc(&torn, sizeof(h_torn)));
   race<<<RACE_BLOCKS, 128>>>(slots, torn);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h_torn, torn, sizeof(h_torn), cudaMemcpyDeviceToHost));
   unsigned zero[RACE_BLOCKS * 128] = { 0 };
   CHECK_ARRAY_U32("torn reads per thread", h_torn, zero, RACE_BLOCKS * 128);

   /* CUB scans of 8-byte values: 16-byte tile state */
   const size_t n = 300007;
   long long *a = (long long *)malloc(n * sizeof(long long));
   unsigned long long *u = (unsigned long long *)malloc(n * sizeof(unsigned long long));
   double *d = (double *)malloc(n * sizeof(double));
   for (size_t i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i);
      a[i] = (long long)(int32_t)h * 1000003ll;
      u[i] = (unsigned long long)h << 20 | i;
      d[i] = (double)(int)(h % 2001) - 1000.0;   /* integers: every partial sum is exact */
   }
   check_scan("InclusiveSum<long long>", a, n, true);
   check_scan("ExclusiveSum<unsigned long long>", u, n, false);
   check_scan("InclusiveSum<double>", d, n, true);
   free(a);
   free(u);
   free(d);
   cudaFree(slots);
   cudaFree(res);
   cudaFree(torn);
   return check_end();
}
