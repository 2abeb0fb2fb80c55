/*
 * lane_divergence.cu — divergent control flow around __syncthreads, the
 * shapes a kernel run as one vector program over a threadgroup's lanes
 * (metalcuda's lane form, src/compiler/msl/emit_lanes.c) must get right:
 *
 *  - loops whose trip count differs by thread, with `break` and `continue`
 *    under thread-dependent conditions, the loop counter and an
 *    accumulator used after the loop (each thread its own last iteration),
 *    then a barrier and a neighbour's value read back (the structured form
 *    puts that barrier inside the loop's construct, where lanes arrive in
 *    different iterations: metalcuda keeps this kernel per thread, and the
 *    check is that it declines rather than deadlocks or fails);
 *  - a barrier inside a uniform loop (shared-memory tiles), with a
 *    divergent if/else in the loop body, nested, once with loops of
 *    thread-dependent length inside (metalcuda keeps that kernel per
 *    thread too: such loops cost more in lane form) and once with only
 *    uniform loops (the lane form's case);
 *  - block shapes that are not multiples of 32 or 64 (7x5x3, 33, 100) and
 *    2-D/3-D positions, so that lanes past the threadgroup never run;
 *  - a per-thread local array indexed dynamically, across barriers;
 *  - a uniform value (from the block index) computed in one branch and a
 *    loop over it, with a barrier inside;
 *  - atomics on shared memory from a divergent branch.
 *
 * Expected values come from the same computations in plain host loops
 * (integers only: exact).
 */
#include "check.h"

#define MAXT 1024

/* ---- 1: divergent loops, values after them, a barrier, a neighbour ---- */

__device__ __host__ static unsigned step_value(unsigned t, unsigned k) { return (t * 2654435761u) ^ (k * 40503u); }

__device__ __host__ static void loops_thread(unsigned t, unsigned base, unsigned *acc_out, unsigned *k_out)
{
   unsigned acc = base, k = 0;
   for (; k < 3 + t % 11; k++) {
      unsigned v = step_value(t, k);
      if (v % 7 == 0)
         continue;            /* skip this step */
      if (v % 13 == 1 && k > 2)
         break;               /* leave early */
      acc += v >> (k % 5);
   }
   *acc_out = acc;
   *k_out = k;
}

__global__ void loops_kernel(unsigned *out)
{
   __shared__ unsigned s[MAXT];
   unsigned n = blockDim.x * blockDim.y * blockDim.z;
   unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   unsigned acc, k;
   loops_thread(t, blockIdx.x * 1000u, &acc, &k);
   s[t] = acc + k * 100000u;
   __syncthreads();
   out[blockIdx.x * n + t] = s[(t + 1) % n] ^ (k << 24);
}

static void loops_host(unsigned b, unsigned n, unsigned *want)
{
   unsigned s[MAXT], ks[MAXT];
   for (unsigned t = 0; t < n; t++) {
      unsigned acc;
      loops_thread(t, b * 1000u, &acc, &ks[t]);
      s[t] = acc + ks[t] * 100000u;
   }
   for (unsigned t = 0; t < n; t++)
      want[b * n + t] = s[(t + 1) % n] ^ (ks[t] << 24);
}

/* ---- 2: a barrier in a uniform loop, a divergent if/else inside ---- */

/* One thread's step on a tile: three branches by thread, two of them loops
 * of thread-dependent length. */
__device__ __host__ static unsigned tile_step(unsigned acc, const unsigned *tile, unsigned t, unsigned r, unsigned n)
{
   if ((t + r) % 3 == 0) {
      for (unsigned j = 0; j < n; j += 1 + t % 4)
         acc += tile[j] * (r + 1);
   } else if (t % 2) {
      acc ^= tile[n - 1 - t] << (r % 7);
   } else {
      unsigned j = t;
      while (j > 0 && tile[j] % 5 != 0)
         j /= 2;
      acc += j;
   }
   return acc;
}

/* The same with only uniform loops (every thread the same trip count) and
 * divergent branches inside them. */
__device__ __host__ static unsigned tile_step_uniform(unsigned acc, const unsigned *tile, unsigned t, unsigned r,
                                                      unsigned n)
{
   for (unsigned j = 0; j < n; j++) {
      if ((j + t + r) % 3 == 0)
         acc += tile[j] * (r + 1);
      else if ((t ^ j) % 5 == 1)
         acc ^= tile[(j + t) % n] << (r % 7);
      if (acc % 11 == 3)
         acc += t;
   }
   return acc;
}

/* UNIFORM: the tile step with only uniform loops (tile_step_uniform). */
template <bool UNIFORM> __global__ void tiles_kernel(const unsigned *in, unsigned *out, unsigned rounds)
{
   __shared__ unsigned tile[MAXT];
   unsigned n = blockDim.x * blockDim.y * blockDim.z;
   unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   unsigned acc = 0;
   for (unsigned r = 0; r < rounds; r++) {
      tile[t] = in[(blockIdx.x * rounds + r) * n + t];
      __syncthreads();
      acc = UNIFORM ? tile_step_uniform(acc, tile, t, r, n) : tile_step(acc, tile, t, r, n);
      __syncthreads();
   }
   out[blockIdx.x * n + t] = acc;
}

static void tiles_host(const unsigned *in, unsigned b, unsigned n, unsigned rounds, bool uniform, unsigned *want)
{
   for (unsigned t = 0; t < n; t++) {
      unsigned acc = 0;
      for (unsigned r = 0; r < rounds; r++) {
         const unsigned *tile = in + (b * rounds + r) * n;
         acc = uniform ? tile_step_uniform(acc, tile, t, r, n) : tile_step(acc, tile, t, r, n);
      }
      want[b * n + t] = acc;
   }
}

/* ---- 3: a local array across barriers, shared atomics, a uniform loop ---- */

__global__ void local_kernel(unsigned *out, unsigned *hist)
{
   __shared__ unsigned bins[16];
   __shared__ unsigned s[MAXT];
   unsigned n = blockDim.x * blockDim.y * blockDim.z;
   unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   unsigned a[8];
   for (unsigned k = 0; k < 8; k++)
      a[k] = step_value(t, k) % 97;
   for (unsigned k = 0; k < 16; k++)     /* a uniform loop, a divergent store */
      if (k % n == t)
         bins[k] = 0;
   unsigned m = 0;
   if (blockIdx.x % 2)
      m = blockIdx.x + 2;       /* uniform, set in one branch */
   else
      m = 3;
   __syncthreads();
   for (unsigned r = 0; r < m; r++) {
      unsigned idx = (t + r) % 8;
      s[t] = a[idx];
      if (a[idx] % 3 == 0)
         atomicAdd(&bins[a[idx] % 16], 1u);
      __syncthreads();
      a[(idx + 1) % 8] += s[(t + 3) % n];
      __syncthreads();
   }
   unsigned sum = 0;
   for (unsigned k = 0; k < 8; k++)
      sum = sum * 31u + a[k];
   out[blockIdx.x * n + t] = sum;
   for (unsigned k = 0; k < 16; k++)
      if (k % n == t)
         hist[blockIdx.x * 16 + k] = bins[k];
}

static void local_host(unsigned b, unsigned n, unsigned *want, unsigned *want_hist)
{
   static unsigned a[MAXT][8], s[MAXT];
   unsigned bins[16] = {0};
   for (unsigned t = 0; t < n; t++)
      for (unsigned k = 0; k < 8; k++)
         a[t][k] = step_value(t, k) % 97;
   unsigned m = b % 2 ? b + 2 : 3;
   for (unsigned r = 0; r < m; r++) {
      for (unsigned t = 0; t < n; t++) {
         unsigned idx = (t + r) % 8;
         s[t] = a[t][idx];
         if (a[t][idx] % 3 == 0)
            bins[a[t][idx] % 16]++;
      }
      for (unsigned t = 0; t < n; t++) {
         unsigned idx = (t + r) % 8;
         a[t][(idx + 1) % 8] += s[(t + 3) % n];
      }
   }
   for (unsigned t = 0; t < n; t++) {
      unsigned sum = 0;
      for (unsigned k = 0; k < 8; k++)
         sum = sum * 31u + a[t][k];
      want[b * n + t] = sum;
   }
   for (unsigned k = 0; k < 16; k++)
      want_hist[b * 16 + k] = bins[k];
}

/* ---- driver ---- */

static unsigned *dev_u32(size_t n)
{
   unsigned *p = NULL;
   CHECK_CUDA(cudaMalloc(&p, n * sizeof(unsigned)));
   if (p)
      CHECK_CUDA(cudaMemset(p, 0xab, n * sizeof(unsigned)));
   return p;
}

static void run_shape(dim3 block, unsigned blocks)
{
   unsigned n = block.x * block.y * block.z, total = n * blocks;
   char what[64];
   unsigned *want = (unsigned *)calloc(total, sizeof(unsigned)), *got = (unsigned *)calloc(total, sizeof(unsigned));
   unsigned *d = dev_u32(total);

   loops_kernel<<<blocks, block>>>(d);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
   for (unsigned b = 0; b < blocks; b++)
      loops_host(b, n, want);
   snprintf(what, sizeof(what), "loops %ux%ux%u", block.x, block.y, block.z);
   CHECK_ARRAY_U32(what, got, want, total);

   const unsigned rounds = 5;
   unsigned *in = (unsigned *)calloc((size_t)total * rounds, sizeof(unsigned));
   for (size_t i = 0; i < (size_t)total * rounds; i++)
      in[i] = mix32((uint32_t)i * 7u + n) % 1000u;
   unsigned *din = dev_u32((size_t)total * rounds);
   CHECK_CUDA(cudaMemcpy(din, in, (size_t)total * rounds * sizeof(unsigned), cudaMemcpyHostToDevice));
   for (int uniform = 0; uniform < 2; uniform++) {
      if (uniform)
         tiles_kernel<true><<<blocks, block>>>(din, d, rounds);
      else
         tiles_kernel<false><<<blocks, block>>>(din, d, rounds);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, d, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
      for (unsigned b = 0; b < blocks; b++)
         tiles_host(in, b, n, rounds, uniform, want);
      snprintf(what, sizeof(what), "%stiles %ux%ux%u", uniform ? "uniform " : "", block.x, block.y, block.z);
      CHECK_ARRAY_U32(what, got, want, total);
   }

   unsigned *dh = dev_u32((size_t)blocks * 16);
   unsigned *want_hist = (unsigned *)calloc((size_t)blocks * 16, sizeof(unsigned));
   unsigned *got_hist = (unsigned *)calloc((size_t)blocks * 16, sizeof(unsigned));
   local_kernel<<<blocks, block>>>(d, dh);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(got_hist, dh, (size_t)blocks * 16 * sizeof(unsigned), cudaMemcpyDeviceToHost));
   for (unsigned b = 0; b < blocks; b++)
      local_host(b, n, want, want_hist);
   snprintf(what, sizeof(what), "local %ux%ux%u", block.x, block.y, block.z);
   CHECK_ARRAY_U32(what, got, want, total);
   snprintf(what, sizeof(what), "shared atomics %ux%ux%u", block.x, block.y, block.z);
   CHECK_ARRAY_U32(what, got_hist, want_hist, (size_t)blocks * 16);

   cudaFree(d);
   cudaFree(din);
   cudaFree(dh);
   free(want);
   free(got);
   free(in);
   free(want_hist);
   free(got_hist);
}

int main(void)
{
   check_begin("lane_divergence");
   run_shape(dim3(256, 1, 1), 6);
   run_shape(dim3(33, 1, 1), 5);
   run_shape(dim3(100, 1, 1), 3);
   run_shape(dim3(16, 16, 1), 4);
   run_shape(dim3(7, 5, 3), 5);
   run_shape(dim3(1024, 1, 1), 2);
   run_shape(dim3(1, 1, 1), 3);
   return check_end();
}
