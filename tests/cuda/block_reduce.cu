/*
 * block_reduce.cu — __syncthreads with static and dynamic shared memory.
 *
 *  - block sum, static shared memory, interleaved tree (any block size:
 *    1, 32, 33, 96, 1024) over an array that is not a multiple of the
 *    block: one result per block;
 *  - block min and max, dynamic shared memory (extern __shared__, two
 *    arrays in one allocation), sequential tree for power-of-two blocks
 *    (64, 256, 1024), values with negatives;
 *  - a 3-D block (8 x 4 x 4): the linear index from threadIdx.{x,y,z}, a
 *    sum through shared memory, and each thread reading the slot of the
 *    thread mirrored in all three dimensions after the barrier;
 *  - many barriers in a row: 200 rounds of a shared counter passed around
 *    the block (each round reads the neighbour's slot of the last round).
 *
 * Values are small integers, so every result is exact; expected values
 * come from plain loops on the host.
 */
#include "check.h"

__global__ void sum_static(const int *in, int *out, int n)
{
   __shared__ int s[1024];
   unsigned t = threadIdx.x;
   int i = blockIdx.x * blockDim.x + t;
   s[t] = i < n ? in[i] : 0;
   __syncthreads();
   for (unsigned d = 1; d < blockDim.x; d *= 2) {
      if (t % (2 * d) == 0 && t + d < blockDim.x)
         s[t] += s[t + d];
      __syncthreads();
   }
   if (t == 0)
      out[blockIdx.x] = s[0];
}

/* min in the first blockDim.x ints of the dynamic area, max after them. */
__global__ void minmax_dynamic(const int *in, int *mins, int *maxs, int n)
{
   extern __shared__ int dyn[];
   int *lo = dyn, *hi = dyn + blockDim.x;
   unsigned t = threadIdx.x;
   int i = blockIdx.x * blockDim.x + t;
   int v = i < n ? in[i] : in[0];
   lo[t] = v;
   hi[t] = v;
   __syncthreads();
   for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
      if (t < d) {
         lo[t] = min(lo[t], lo[t + d]);
         hi[t] = max(hi[t], hi[t + d]);
      }
      __syncthreads();
   }
   if (t == 0) {
      mins[blockIdx.x] = lo[0];
      maxs[blockIdx.x] = hi[0];
   }
}

/* 3-D blocks: out[linear] = value of the mirrored thread; sums[block] =
 * sum of the block's values. */
__global__ void mirror3d(const int *in, int *out, int *sums)
{
   __shared__ int s[128];
   __shared__ int total;
   unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   unsigned nb = blockDim.x * blockDim.y * blockDim.z;
   unsigned base = blockIdx.x * nb;
   if (lin == 0)
      total = 0;
   s[lin] = in[base + lin];
   __syncthreads();
   atomicAdd(&total, s[lin]);
   unsigned mx = blockDim.x - 1 - threadIdx.x, my = blockDim.y - 1 - threadIdx.y;
   unsigned mz = blockDim.z - 1 - threadIdx.z;
   out[base + lin] = s[mx + blockDim.x * (my + blockDim.y * mz)];
   __syncthreads();
   if (lin == 0)
      sums[blockIdx.x] = total;
}

/* 200 rounds: every thread adds its left neighbour's slot (of the last
 * round) to its own, through two barriers per round. */
__global__ void pass_around(int *out)
{
   __shared__ int s[256];
   unsigned t = threadIdx.x, n = blockDim.x;
   int mine = (int)t;
   s[t] = mine;
   __syncthreads();
   for (int r = 0; r < 200; r++) {
      int left = s[(t + n - 1) % n];
      __syncthreads();
      mine = (mine + left) & 0xffff;
      s[t] = mine;
      __syncthreads();
   }
   out[blockIdx.x * n + t] = mine;
}

static void test_sum_static(const int *din, const int *hin, int n)
{
   static const unsigned blocks[] = { 1, 32, 33, 96, 1024 };
   for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
      unsigned b = blocks[k], g = (n + b - 1) / b;
      int *dout = (int *)dev_alloc_fill32(g);
      int *got = (int *)malloc(g * 4), *want = (int *)malloc(g * 4);
      sum_static<<<g, b>>>(din, dout, n);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, g * 4, cudaMemcpyDeviceToHost));
      for (unsigned j = 0; j < g; j++) {
         want[j] = 0;
         for (unsigned t = 0; t < b && j * b + t < (unsigned)n; t++)
            want[j] += hin[j * b + t];
      }
      char what[64];
      snprintf(what, sizeof(what), "sum_static, blocks of %u", b);
      CHECK_ARRAY_I32(what, got, want, g);
      cudaFree(dout);
      free(got);
      free(want);
   }
}

static void test_minmax_dynamic(const int *din, const int *hin, int n)
{
   static const unsigned blocks[] = { 64, 256, 1024 };
   for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
      unsigned b = blocks[k], g = (n + b - 1) / b;
      int *dmin = (int *)dev_alloc_fill32(g), *dmax = (int *)dev_alloc_fill32(g);
      int *gmin = (int *)malloc(g * 4), *gmax = (int *)malloc(g * 4);
      int *wmin = (int *)malloc(g * 4), *wmax = (int *)malloc(g * 4);
      minmax_dynamic<<<g, b, 2 * b * sizeof(int)>>>(din, dmin, dmax, n);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(gmin, dmin, g * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(gmax, dmax, g * 4, cudaMemcpyDeviceToHost));
      for (unsigned j = 0; j < g; j++) {
         wmin[j] = wmax[j] = hin[j * b];
         for (unsigned t = 0; t < b; t++) {
            int v = j * b + t < (unsigned)n ? hin[j * b + t] : hin[0];
            wmin[j] = v < wmin[j] ? v : wmin[j];
            wmax[j] = v > wmax[j] ? v : wmax[j];
         }
      }
      char what[64];
      snprintf(what, sizeof(what), "min, dynamic shared, blocks of %u", b);
      CHECK_ARRAY_I32(what, gmin, wmin, g);
      snprintf(what, sizeof(what), "max, dynamic shared, blocks of %u", b);
      CHECK_ARRAY_I32(what, gmax, wmax, g);
      cudaFree(dmin), cudaFree(dmax);
      free(gmin), free(gmax), free(wmin), free(wmax);
   }
}

static void test_mirror3d(const int *din, const int *hin)
{
   const unsigned g = 20, nb = 128;
   int *dout = (int *)dev_alloc_fill32(g * nb), *dsum = (int *)dev_alloc_fill32(g);
   int *got = (int *)malloc(g * nb * 4), *want = (int *)malloc(g * nb * 4);
   int gs[20], ws[20];
   mirror3d<<<g, dim3(8, 4, 4)>>>(din, dout, dsum);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, g * nb * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(gs, dsum, g * 4, cudaMemcpyDeviceToHost));
   for (unsigned j = 0; j < g; j++) {
      ws[j] = 0;
      for (unsigned z = 0; z < 4; z++)
         for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 8; x++) {
               unsigned lin = x + 8 * (y + 4 * z), mir = (7 - x) + 8 * ((3 - y) + 4 * (3 - z));
               want[j * nb + lin] = hin[j * nb + mir];
               ws[j] += hin[j * nb + lin];
            }
   }
   CHECK_ARRAY_I32("mirror3d", got, want, g * nb);
   CHECK_ARRAY_I32("mirror3d sums", gs, ws, g);
   cudaFree(dout), cudaFree(dsum);
   free(got), free(want);
}

static void test_pass_around(void)
{
   const unsigned g = 3, b = 256;
   int *dout = (int *)dev_alloc_fill32(g * b);
   int got[768], want[768], cur[256], next[256];
   pass_around<<<g, b>>>(dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (unsigned t = 0; t < b; t++)
      cur[t] = (int)t;
   for (int r = 0; r < 200; r++) {
      for (unsigned t = 0; t < b; t++)
         next[t] = (cur[t] + cur[(t + b - 1) % b]) & 0xffff;
      memcpy(cur, next, sizeof(cur));
   }
   for (unsigned j = 0; j < g; j++)
      memcpy(want + j * b, cur, sizeof(cur));
   CHECK_ARRAY_I32("pass_around", got, want, g * b);
   cudaFree(dout);
}

int main(void)
{
   check_begin("block_reduce");
   const int n = 5003;
   int *hin = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++)
      hin[i] = (int)(mix32((uint32_t)i) % 2001u) - 1000;
   int *din;
   REQUIRE_CUDA(cudaMalloc(&din, n * sizeof(int)));
   REQUIRE_CUDA(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
   test_sum_static(din, hin, n);
   test_minmax_dynamic(din, hin, n);
   test_mirror3d(din, hin);
   test_pass_around();
   cudaFree(din);
   free(hin);
   return check_end();
}
