/*
 * kernels.cu — six common kernels, timed on the CUDA device: through
 * metalcuda, its software device.  Driven by bench/kernels.sh, which runs
 * the same computations in OpenMP C (omp_kernels.c) and in OpenCL on PoCL
 * (ocl_kernels.c) alongside and prints the ratios; sizes, inputs and checks
 * are in kernels.h.
 *
 *   kernels KERNEL [REPS]      KERNEL: saxpy stencil sgemm reduce shfl hist saxpy64
 *
 * Each repetition is the launch(es) + cudaDeviceSynchronize, host wall
 * clock; what a repetition overwrites or accumulates into (SAXPY's y, the
 * histogram) is reset before it, untimed.  The first launch (translation
 * and compilation of the kernel, or a cache hit) is the warm-up and is not
 * timed.  Prints "TIME KERNEL <median s>", or why the result is wrong and
 * exits 1.
 *
 * run.sh does not run this program by itself (it needs a kernel name);
 * kernels.sh builds and runs it.
 */
#include "bench.h"
#include "kernels.h"

/* ---- the kernels: written the way CUDA code usually is ---- */

__global__ void saxpy(int n, float a, const float *x, float *y)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      y[i] = a * x[i] + y[i];
}

__global__ void saxpy64(size_t n, float a, const float *x, float *y)
{
   size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
   if (i < n)
      y[i] = a * x[i] + y[i];
}

/* One sweep of a 5-point stencil on the interior; the border is left as is. */
__global__ void stencil5(int n, float c0, float c1, const float *in, float *out)
{
   int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
   if (i < 1 || j < 1 || i >= n - 1 || j >= n - 1)
      return;
   int p = i * n + j;
   out[p] = c0 * in[p] + c1 * (in[p - n] + in[p + n] + in[p - 1] + in[p + 1]);
}

/* C = A B, n a multiple of KB_TILE: each block computes a 16 x 16 tile of
 * C from 16 x 16 tiles of A and B staged in shared memory. */
__global__ void sgemm_tiled(int n, const float *A, const float *B, float *C)
{
   __shared__ float As[KB_TILE][KB_TILE], Bs[KB_TILE][KB_TILE];
   int tx = threadIdx.x, ty = threadIdx.y;
   int row = blockIdx.y * KB_TILE + ty, col = blockIdx.x * KB_TILE + tx;
   float acc = 0.0f;
   for (int t = 0; t < n; t += KB_TILE) {
      As[ty][tx] = A[row * n + t + tx];
      Bs[ty][tx] = B[(t + ty) * n + col];
      __syncthreads();
      for (int k = 0; k < KB_TILE; k++)
         acc += As[ty][k] * Bs[k][tx];
      __syncthreads();
   }
   C[row * n + col] = acc;
}

/* Per-block sum: grid-stride loop, then a tree in shared memory with a
 * barrier per level; out[blockIdx.x] = the block's sum.  Run once over the
 * input (KB_GROUPS blocks) and once, one block, over the partial sums. */
__global__ void reduce_block(const unsigned *in, unsigned *out, int n)
{
   __shared__ unsigned s[KB_GROUP_SIZE];
   unsigned t = threadIdx.x, sum = 0;
   for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
      sum += in[i];
   s[t] = sum;
   __syncthreads();
   for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
      if (t < d)
         s[t] += s[t + d];
      __syncthreads();
   }
   if (t == 0)
      out[blockIdx.x] = s[0];
}

/* The same with the tree done by warp shuffles: each warp reduces with
 * __shfl_down_sync, the warps' sums meet in shared memory (one barrier),
 * and the first warp reduces them with shuffles again. */
__global__ void reduce_shfl(const float *in, float *out, int n)
{
   __shared__ float w[32];
   unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
   float sum = 0.0f;
   for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
      sum += in[i];
   for (int o = 16; o > 0; o >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, o);
   if (lane == 0)
      w[warp] = sum;
   __syncthreads();
   if (warp == 0) {
      sum = lane < blockDim.x / 32 ? w[lane] : 0.0f;
      for (int o = 16; o > 0; o >>= 1)
         sum += __shfl_down_sync(0xffffffffu, sum, o);
      if (lane == 0)
         out[blockIdx.x] = sum;
   }
}

/* 256-bin histogram of bytes read as 32-bit words: per-block bins in shared
 * memory (shared atomics), then added to the global bins (global atomics). */
__global__ void hist256(const unsigned *in, unsigned *hist, int nwords)
{
   __shared__ unsigned h[256];
   for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
      h[b] = 0;
   __syncthreads();
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
      unsigned v = in[i];
      atomicAdd(&h[v & 0xff], 1u);
      atomicAdd(&h[(v >> 8) & 0xff], 1u);
      atomicAdd(&h[(v >> 16) & 0xff], 1u);
      atomicAdd(&h[v >> 24], 1u);
   }
   __syncthreads();
   for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
      atomicAdd(&hist[b], h[b]);
}

/* ---- the harness ---- */

static int reps;

/* Warm-up, then `reps` timed runs of launch(); reset() before each run,
 * untimed.  Returns the median. */
template <typename L, typename R> static double timed(L launch, R reset)
{
   reset();
   launch();
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   double *t = (double *)malloc(reps * sizeof(double));
   for (int r = 0; r < reps; r++) {
      reset();
      BENCH_CHECK(cudaDeviceSynchronize());
      double t0 = now_s();
      launch();
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaDeviceSynchronize());
      t[r] = now_s() - t0;
   }
   double m = median(t, reps);
   free(t);
   return m;
}

template <typename T> static T *dev_copy(const T *h, size_t n)
{
   T *d;
   BENCH_CHECK(cudaMalloc(&d, n * sizeof(T)));
   if (h)
      BENCH_CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}

static double run_saxpy_as(bool wide)
{
   const int n = KB_SAXPY_N;
   float *x = (float *)malloc(n * sizeof(float)), *y0 = (float *)malloc(n * sizeof(float));
   float *y = (float *)malloc(n * sizeof(float));
   kb_fill_sym(x, n, 1);
   kb_fill_sym(y0, n, 2);
   float *dx = dev_copy(x, n), *dy0 = dev_copy(y0, n), *dy = dev_copy<float>(NULL, n);
   const int blocks = (n + KB_SAXPY_BLOCK - 1) / KB_SAXPY_BLOCK;
   double t = timed([&] {
                       if (wide)
                          saxpy64<<<blocks, KB_SAXPY_BLOCK>>>((size_t)n, KB_SAXPY_A, dx, dy);
                       else
                          saxpy<<<blocks, KB_SAXPY_BLOCK>>>(n, KB_SAXPY_A, dx, dy);
                    },
                    [&] { BENCH_CHECK(cudaMemcpy(dy, dy0, n * sizeof(float), cudaMemcpyDeviceToDevice)); });
   BENCH_CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
   int bad = kb_check_saxpy(n, KB_SAXPY_A, x, y0, y, "metalcuda");
   cudaFree(dx), cudaFree(dy0), cudaFree(dy);
   free(x), free(y0), free(y);
   return bad ? -1 : t;
}

static double run_saxpy(void) { return run_saxpy_as(false); }
static double run_saxpy64(void) { return run_saxpy_as(true); }

static double run_stencil(void)
{
   const int n = KB_STENCIL_N;
   size_t nn = (size_t)n * n;
   float *in = (float *)malloc(nn * sizeof(float)), *out = (float *)malloc(nn * sizeof(float));
   kb_fill_sym(in, nn, 3);
   float *din = dev_copy(in, nn), *dout = dev_copy<float>(NULL, nn);
   BENCH_CHECK(cudaMemset(dout, 0, nn * sizeof(float)));
   dim3 block(KB_STENCIL_BX, KB_STENCIL_BY), grid(n / KB_STENCIL_BX, n / KB_STENCIL_BY);
   double t = timed([&] { stencil5<<<grid, block>>>(n, KB_STENCIL_C0, KB_STENCIL_C1, din, dout); }, [] {});
   BENCH_CHECK(cudaMemcpy(out, dout, nn * sizeof(float), cudaMemcpyDeviceToHost));
   int bad = kb_check_stencil(n, KB_STENCIL_C0, KB_STENCIL_C1, in, out, "metalcuda");
   cudaFree(din), cudaFree(dout);
   free(in), free(out);
   return bad ? -1 : t;
}

static double run_sgemm(void)
{
   const int n = KB_SGEMM_N;
   size_t nn = (size_t)n * n;
   float *A = (float *)malloc(nn * sizeof(float)), *B = (float *)malloc(nn * sizeof(float));
   float *C = (float *)malloc(nn * sizeof(float));
   kb_fill_sym(A, nn, 4);
   kb_fill_sym(B, nn, 5);
   float *dA = dev_copy(A, nn), *dB = dev_copy(B, nn), *dC = dev_copy<float>(NULL, nn);
   dim3 block(KB_TILE, KB_TILE), grid(n / KB_TILE, n / KB_TILE);
   double t = timed([&] { sgemm_tiled<<<grid, block>>>(n, dA, dB, dC); }, [] {});
   BENCH_CHECK(cudaMemcpy(C, dC, nn * sizeof(float), cudaMemcpyDeviceToHost));
   int bad = kb_check_sgemm(n, A, B, C, "metalcuda");
   cudaFree(dA), cudaFree(dB), cudaFree(dC);
   free(A), free(B), free(C);
   return bad ? -1 : t;
}

static double run_reduce(void)
{
   const int n = KB_REDUCE_N;
   uint32_t *in = (uint32_t *)malloc(n * sizeof(uint32_t)), got;
   kb_fill_small(in, n, 6);
   unsigned *din = dev_copy((const unsigned *)in, n), *dpart = dev_copy<unsigned>(NULL, KB_GROUPS),
            *dsum = dev_copy<unsigned>(NULL, 1);
   double t = timed(
      [&] {
         reduce_block<<<KB_GROUPS, KB_GROUP_SIZE>>>(din, dpart, n);
         reduce_block<<<1, KB_GROUP_SIZE>>>(dpart, dsum, KB_GROUPS);
      },
      [&] { BENCH_CHECK(cudaMemset(dsum, 0xff, sizeof(unsigned))); });
   BENCH_CHECK(cudaMemcpy(&got, dsum, sizeof(got), cudaMemcpyDeviceToHost));
   int bad = kb_check_reduce(n, in, got, "metalcuda");
   cudaFree(din), cudaFree(dpart), cudaFree(dsum);
   free(in);
   return bad ? -1 : t;
}

static double run_shfl(void)
{
   const int n = KB_SHFL_N;
   float *in = (float *)malloc(n * sizeof(float)), got;
   kb_fill_unit(in, n, 7);
   float *din = dev_copy(in, n), *dpart = dev_copy<float>(NULL, KB_GROUPS), *dsum = dev_copy<float>(NULL, 1);
   double t = timed(
      [&] {
         reduce_shfl<<<KB_GROUPS, KB_GROUP_SIZE>>>(din, dpart, n);
         reduce_shfl<<<1, KB_GROUP_SIZE>>>(dpart, dsum, KB_GROUPS);
      },
      [&] { BENCH_CHECK(cudaMemset(dsum, 0xff, sizeof(float))); });
   BENCH_CHECK(cudaMemcpy(&got, dsum, sizeof(got), cudaMemcpyDeviceToHost));
   int bad = kb_check_sum(n, in, got, kb_gpu_sum_depth(n), "metalcuda");
   cudaFree(din), cudaFree(dpart), cudaFree(dsum);
   free(in);
   return bad ? -1 : t;
}

static double run_hist(void)
{
   const int nbytes = KB_HIST_BYTES, nwords = nbytes / 4;
   uint8_t *in = (uint8_t *)malloc(nbytes);
   uint32_t hist[256];
   kb_fill_bytes(in, nbytes, 8);
   unsigned *din = dev_copy((const unsigned *)in, nwords), *dhist = dev_copy<unsigned>(NULL, 256);
   double t = timed([&] { hist256<<<KB_GROUPS, KB_GROUP_SIZE>>>(din, dhist, nwords); },
                    [&] { BENCH_CHECK(cudaMemset(dhist, 0, 256 * sizeof(unsigned))); });
   BENCH_CHECK(cudaMemcpy(hist, dhist, sizeof(hist), cudaMemcpyDeviceToHost));
   int bad = kb_check_hist(nbytes, in, hist, "metalcuda");
   cudaFree(din), cudaFree(dhist);
   free(in);
   return bad ? -1 : t;
}

int main(int argc, char **argv)
{
   int k = kb_parse_args(argc, argv, &reps);
   double (*const run[KB_NKERNELS])(void) = {run_saxpy, run_stencil, run_sgemm, run_reduce, run_shfl, run_hist,
                                                 run_saxpy64};
   double t = run[k]();
   if (t < 0)
      return 1;
   printf("TIME %s %.9f\n", kb_names[k], t);
   return 0;
}
