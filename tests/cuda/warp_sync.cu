/*
 * warp_sync.cu — warp-synchronous code: the threads of a warp talk through
 * memory with no __syncwarp, as CUDA's early samples, LULESH and many
 * scientific codes do.  An NVIDIA GPU runs such code in lockstep (each
 * instruction by every active lane before the next), and the results below
 * are what lockstep gives; a machine that runs the lanes one after another
 * between barriers gets them wrong.
 *
 *  - the unrolled last-warp reduction of CUDA's reduction samples (sum of
 *    int, min of float, min of double), on volatile shared memory, with
 *    blocks of 64 to 1024 threads;
 *  - LULESH's form: every step its own `if (tid < n)`, so the warp's lanes
 *    drop out one half at a time; a double min-reduction over many blocks
 *    whose minimum sits at every thread position in turn;
 *  - the `if (lane >= k) s[i] += s[i - k]` warp scan (inclusive, int and
 *    float) and a block scan built on it, for blocks that are not a
 *    multiple of 32;
 *  - a neighbour exchange through plain (not volatile) shared memory, as
 *    nvcc keeps a store before a load it cannot prove independent, and one
 *    through global memory ordered by __threadfence_block;
 *  - spin-waits: lane 0 waits for a flag lane 31 sets (Volta's independent
 *    thread scheduling), warp 0 waits for a flag warp 1 sets, and a
 *    "done flag" spin lock every lane takes in turn.
 *
 * Expected values come from plain loops on the host (the sums are of small
 * integers or exactly representable floats; min is exact).
 */
#include "check.h"

#include <float.h>
#include <math.h>

/* ---- the unrolled last warp (CUDA samples, reduce4) ---- */

template <class T> struct op_sum { static __host__ __device__ T apply(T a, T b) { return a + b; } };
template <class T> struct op_min { static __host__ __device__ T apply(T a, T b) { return b < a ? b : a; } };

template <class T, class OP> __device__ void warp_reduce(volatile T *s, unsigned tid)
{
   s[tid] = OP::apply(s[tid], s[tid + 32]);
   s[tid] = OP::apply(s[tid], s[tid + 16]);
   s[tid] = OP::apply(s[tid], s[tid + 8]);
   s[tid] = OP::apply(s[tid], s[tid + 4]);
   s[tid] = OP::apply(s[tid], s[tid + 2]);
   s[tid] = OP::apply(s[tid], s[tid + 1]);
}

/* blockDim.x is a power of two, at least 64. */
template <class T, class OP> __global__ void reduce_last_warp(const T *in, T *out, T identity, int n)
{
   extern __shared__ unsigned char smem_raw[];
   T *s = reinterpret_cast<T *>(smem_raw);
   unsigned tid = threadIdx.x;
   int i = blockIdx.x * blockDim.x + tid;
   s[tid] = i < n ? in[i] : identity;
   __syncthreads();
   for (unsigned d = blockDim.x / 2; d > 32; d >>= 1) {
      if (tid < d)
         s[tid] = OP::apply(s[tid], s[tid + d]);
      __syncthreads();
   }
   if (tid < 32)
      warp_reduce<T, OP>(s, tid);
   if (tid == 0)
      out[blockIdx.x] = s[0];
}

/* ---- LULESH's form: every step its own condition ---- */

__global__ void lulesh_min(const double *in, double *out, int n)
{
   __shared__ volatile double s[128];
   unsigned tid = threadIdx.x;
   int i = blockIdx.x * blockDim.x + tid;
   s[tid] = i < n ? in[i] : 1.0e20;
   __syncthreads();
   if (tid < 64) { s[tid] = fmin(s[tid], s[tid + 64]); } __syncthreads();
   if (tid < 32) { s[tid] = fmin(s[tid], s[tid + 32]); }
   if (tid < 16) { s[tid] = fmin(s[tid], s[tid + 16]); }
   if (tid < 8) { s[tid] = fmin(s[tid], s[tid + 8]); }
   if (tid < 4) { s[tid] = fmin(s[tid], s[tid + 4]); }
   if (tid < 2) { s[tid] = fmin(s[tid], s[tid + 2]); }
   if (tid < 1) { s[tid] = fmin(s[tid], s[tid + 1]); }
   if (tid == 0)
      out[blockIdx.x] = s[0];
}

/* ---- the lane >= k scan ---- */

template <class T> __device__ T scan_warp(volatile T *s, unsigned i)
{
   unsigned lane = i & 31;
   for (unsigned k = 1; k < 32; k *= 2)
      if (lane >= k)
         s[i] = s[i] + s[i - k];
   return s[i];
}

/* Inclusive scan of each warp of the block. */
template <class T> __global__ void warp_scan(const T *in, T *out, int n)
{
   extern __shared__ unsigned char smem_raw[];
   volatile T *s = reinterpret_cast<volatile T *>(smem_raw);
   unsigned tid = threadIdx.x;
   int i = blockIdx.x * blockDim.x + tid;
   s[tid] = i < n ? in[i] : T(0);
   T v = scan_warp<T>(s, tid);
   if (i < n)
      out[i] = v;
}

/* Inclusive scan of the block: warps scan, warp 0 scans the warp totals. */
__global__ void block_scan(const int *in, int *out, int n)
{
   __shared__ volatile int s[1024];
   __shared__ volatile int totals[32];
   unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
   int i = blockIdx.x * blockDim.x + tid;
   s[tid] = i < n ? in[i] : 0;
   int v = scan_warp<int>(s, tid);
   if (lane == 31 || tid == blockDim.x - 1)
      totals[warp] = v;
   __syncthreads();
   if (warp == 0) {
      unsigned nwarps = (blockDim.x + 31) / 32;
      if (lane >= nwarps)
         totals[lane] = 0;
      scan_warp<int>(totals, lane);
   }
   __syncthreads();
   if (warp > 0)
      v += totals[warp - 1];
   if (i < n)
      out[i] = v;
}

/* ---- neighbour exchanges ---- */

/* Plain shared memory: each lane stores, then reads its neighbour's slot. */
__global__ void exchange_shared(const int *in, int *out)
{
   __shared__ int s[256];
   unsigned tid = threadIdx.x;
   int i = blockIdx.x * blockDim.x + tid;
   s[tid] = in[i] * 3;
   unsigned nb = (tid & ~31u) | ((tid + 1) & 31u);
   out[i] = s[nb] + in[i];
}

/* Global memory ordered by __threadfence_block: store, fence, read the
 * slot of the lane opposite in the warp. */
__global__ void exchange_fence(const int *in, int *scratch, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   scratch[i] = in[i] + 7;
   __threadfence_block();
   out[i] = scratch[i ^ 31];
}

/* ---- spin-waits ---- */

/* Lane 0 of every warp waits for lane 31's flag; lane 31 publishes a value
 * first.  Needs a scheduler that lets lane 31 run while lane 0 spins. */
__global__ void spin_lane(int *out)
{
   __shared__ volatile int flag[8], data[8];
   unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
   if (lane == 0)
      flag[warp] = 0;
   __syncthreads();
   if (lane == 0) {
      while (flag[warp] == 0)
         ;
      out[blockIdx.x * 8 + warp] = data[warp];
   } else if (lane == 31) {
      data[warp] = (int)(blockIdx.x * 100 + warp);
      __threadfence_block();
      flag[warp] = 1;
   }
}

/* Warp 0 waits for a flag that warp 1 sets. */
__global__ void spin_warp(int *out)
{
   __shared__ volatile int flag, data;
   if (threadIdx.x == 0)
      flag = 0;
   __syncthreads();
   if (threadIdx.x < 32) {
      while (flag == 0)
         ;
      out[blockIdx.x * 32 + threadIdx.x] = data + (int)threadIdx.x;
   } else if (threadIdx.x == 32) {
      data = (int)blockIdx.x * 1000;
      __threadfence_block();
      flag = 1;
   }
}

/* Every lane takes a shared spin lock in turn and appends its lane to a
 * list: the "done flag" form that needs no reconvergence inside the lock. */
__global__ void spin_lock(int *out)
{
   __shared__ int lock;
   __shared__ volatile int count, list[64];
   if (threadIdx.x == 0) {
      lock = 0;
      count = 0;
   }
   __syncthreads();
   bool done = false;
   while (!done) {
      if (atomicCAS(&lock, 0, 1) == 0) {
         int c = count;
         list[c] = (int)threadIdx.x;
         count = c + 1;
         __threadfence_block();
         atomicExch(&lock, 0);
         done = true;
      }
   }
   __syncthreads();
   if (threadIdx.x == 0) {
      out[blockIdx.x * 65] = count;
      for (int k = 0; k < count; k++)
         out[blockIdx.x * 65 + 1 + k] = list[k];
   }
}

/* ---- host side ---- */

template <class T, class OP>
static void check_reduce(const char *what, const T *h_in, int n, int block, T identity)
{
   int blocks = (n + block - 1) / block;
   T *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
   CHECK_CUDA(cudaMalloc(&d_out, blocks * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(T), cudaMemcpyHostToDevice));
   reduce_last_warp<T, OP><<<blocks, block, block * sizeof(T)>>>(d_in, d_out, identity, n);
   CHECK_CUDA(cudaGetLastError());
   T *got = (T *)malloc(blocks * sizeof(T)), *want = (T *)malloc(blocks * sizeof(T));
   CHECK_CUDA(cudaMemcpy(got, d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
   for (int b = 0; b < blocks; b++) {
      T acc = identity;
      for (int k = b * block; k < (b + 1) * block && k < n; k++)
         acc = OP::apply(acc, h_in[k]);
      want[b] = acc;
   }
   int bad = 0;
   for (int b = 0; b < blocks; b++)
      if (memcmp(&got[b], &want[b], sizeof(T)) != 0 && bad++ < 4)
         printf("  %s block %d of %d (block size %d): got %.17g, want %.17g\n", what, b, blocks, block,
                (double)got[b], (double)want[b]);
   CHECK(bad == 0);
   free(got);
   free(want);
   cudaFree(d_in);
   cudaFree(d_out);
}

static void test_reductions(void)
{
   const int n = 70001;
   int *ii = (int *)malloc(n * sizeof(int));
   float *ff = (float *)malloc(n * sizeof(float));
   double *dd = (double *)malloc(n * sizeof(double));
   for (int k = 0; k < n; k++) {
      ii[k] = (int)(mix32((uint32_t)k) % 2001) - 1000;
      ff[k] = (float)((int)(mix32((uint32_t)k * 7 + 1) % 100001) - 50000) / 64.0f;
      dd[k] = (double)((int)(mix32((uint32_t)k * 13 + 5) % 1000003) - 500001) / 1024.0;
   }
   const int blocks[] = { 64, 128, 256, 1024 };
   for (int b = 0; b < 4; b++) {
      check_reduce<int, op_sum<int>>("int sum", ii, n, blocks[b], 0);
      check_reduce<float, op_min<float>>("float min", ff, n, blocks[b], FLT_MAX);
      check_reduce<double, op_min<double>>("double min", dd, n, blocks[b], DBL_MAX);
   }
   free(ii);
   free(ff);
   free(dd);
}

/* The minimum of block b's 128 values sits at position b % 128. */
static void test_lulesh(void)
{
   const int blocks = 512, n = blocks * 128;
   double *h = (double *)malloc(n * sizeof(double)), *got = (double *)malloc(blocks * sizeof(double));
   for (int b = 0; b < blocks; b++)
      for (int t = 0; t < 128; t++)
         h[b * 128 + t] = t == b % 128 ? -1.0 - b / 1024.0 : 1.0 + (double)(mix32((uint32_t)(b * 128 + t)) % 4096) / 8.0;
   double *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(double)));
   CHECK_CUDA(cudaMalloc(&d_out, blocks * sizeof(double)));
   CHECK_CUDA(cudaMemcpy(d_in, h, n * sizeof(double), cudaMemcpyHostToDevice));
   lulesh_min<<<blocks, 128>>>(d_in, d_out, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, blocks * sizeof(double), cudaMemcpyDeviceToHost));
   int bad = 0;
   double gmin = 1e300, want_gmin = -1.0 - (blocks - 1) / 1024.0;
   for (int b = 0; b < blocks; b++) {
      double want = -1.0 - b / 1024.0;
      if (got[b] != want && bad++ < 4)
         printf("  lulesh_min block %d (minimum at thread %d): got %.17g, want %.17g\n", b, b % 128, got[b], want);
      gmin = fmin(gmin, got[b]);
   }
   CHECK(bad == 0);
   CHECK(gmin == want_gmin);
   free(h);
   free(got);
   cudaFree(d_in);
   cudaFree(d_out);
}

template <class T> static void check_warp_scan(const char *what, const T *h, int n, int block)
{
   T *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice));
   warp_scan<T><<<(n + block - 1) / block, block, block * sizeof(T)>>>(d_in, d_out, n);
   CHECK_CUDA(cudaGetLastError());
   T *got = (T *)malloc(n * sizeof(T));
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int b = 0; b * block < n; b++) {
      for (int w = 0; w * 32 < block; w++) {
         T acc = 0;
         for (int l = 0; l < 32 && w * 32 + l < block; l++) {
            int k = b * block + w * 32 + l;
            if (k >= n)
               break;
            acc += h[k];
            if (got[k] != acc && bad++ < 4)
               printf("  %s (block %d) element %d: got %.9g, want %.9g\n", what, block, k, (double)got[k], (double)acc);
         }
      }
   }
   CHECK(bad == 0);
   free(got);
   cudaFree(d_in);
   cudaFree(d_out);
}

static void test_scans(void)
{
   const int n = 50000;
   int *hi = (int *)malloc(n * sizeof(int));
   float *hf = (float *)malloc(n * sizeof(float));
   for (int k = 0; k < n; k++) {
      hi[k] = (int)(mix32((uint32_t)k + 99) % 201) - 100;
      hf[k] = (float)((int)(mix32((uint32_t)k * 3 + 17) % 2001) - 1000) / 8.0f;   /* sums stay exact */
   }
   const int wblocks[] = { 32, 96, 256, 1024 };
   for (int b = 0; b < 4; b++) {
      check_warp_scan<int>("warp scan int", hi, n, wblocks[b]);
      check_warp_scan<float>("warp scan float", hf, n, wblocks[b]);
   }
   const int bblocks[] = { 32, 100, 256, 1000, 1024 };
   int *d_in, *d_out, *got = (int *)malloc(n * sizeof(int));
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
   CHECK_CUDA(cudaMemcpy(d_in, hi, n * sizeof(int), cudaMemcpyHostToDevice));
   for (int b = 0; b < 5; b++) {
      int block = bblocks[b];
      block_scan<<<(n + block - 1) / block, block>>>(d_in, d_out, n);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
      int bad = 0, acc = 0;
      for (int k = 0; k < n; k++) {
         acc = k % block == 0 ? hi[k] : acc + hi[k];
         if (got[k] != acc && bad++ < 4)
            printf("  block scan (block %d) element %d: got %d, want %d\n", block, k, got[k], acc);
      }
      CHECK(bad == 0);
   }
   free(hi);
   free(hf);
   free(got);
   cudaFree(d_in);
   cudaFree(d_out);
}

static void test_exchanges(void)
{
   const int n = 256 * 40;
   int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
   for (int k = 0; k < n; k++)
      h[k] = (int)(mix32((uint32_t)k * 5 + 3) % 100000);
   int *d_in, *d_out, *d_scratch;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&d_scratch, n * sizeof(int)));
   CHECK_CUDA(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));

   exchange_shared<<<n / 256, 256>>>(d_in, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
   for (int k = 0; k < n; k++)
      want[k] = h[(k & ~31) | ((k + 1) & 31)] * 3 + h[k];
   CHECK_ARRAY_I32("exchange through shared memory", got, want, n);

   exchange_fence<<<n / 256, 256>>>(d_in, d_scratch, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
   for (int k = 0; k < n; k++)
      want[k] = h[k ^ 31] + 7;
   CHECK_ARRAY_I32("exchange through global memory and __threadfence_block", got, want, n);
   free(h);
   free(got);
   free(want);
   cudaFree(d_in);
   cudaFree(d_out);
   cudaFree(d_scratch);
}

static void test_spins(void)
{
   const int blocks = 16;
   int *d_out, got[blocks * 65], want[blocks * 65];
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(got)));

   spin_lane<<<blocks, 256>>>(d_out);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, blocks * 8 * sizeof(int), cudaMemcpyDeviceToHost));
   for (int k = 0; k < blocks * 8; k++)
      want[k] = k / 8 * 100 + k % 8;
   CHECK_ARRAY_I32("lane 0 waits for lane 31", got, want, blocks * 8);

   spin_warp<<<blocks, 64>>>(d_out);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, blocks * 32 * sizeof(int), cudaMemcpyDeviceToHost));
   for (int k = 0; k < blocks * 32; k++)
      want[k] = k / 32 * 1000 + k % 32;
   CHECK_ARRAY_I32("warp 0 waits for warp 1", got, want, blocks * 32);

   spin_lock<<<blocks, 64>>>(d_out);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, blocks * 65 * sizeof(int), cudaMemcpyDeviceToHost));
   /* The order the lanes take the lock in is the GPU's choice: each block
    * must list every thread exactly once. */
   for (int b = 0; b < blocks; b++) {
      CHECK_INT(got[b * 65], 64);
      uint64_t seen = 0;
      for (int k = 0; k < 64 && got[b * 65] == 64; k++) {
         int t = got[b * 65 + 1 + k];
         if (t >= 0 && t < 64)
            seen |= 1ull << t;
      }
      CHECK(seen == ~0ull);
   }
   cudaFree(d_out);
}

int main(void)
{
   check_begin("warp_sync");
   test_reductions();
   test_lulesh();
   test_scans();
   test_exchanges();
   test_spins();
   return check_end();
}
