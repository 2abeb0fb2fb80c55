// nvcc-flags: -arch=sm_80
/*
 * async_copy.cu — asynchronous copies and transaction barriers as CUDA C++
 * writes them (built for sm_80, so libcu++ emits cp.async and mbarrier):
 *
 *   barrier   cuda::memcpy_async of a block's tile into shared memory
 *             completing on a block-scope cuda::barrier, arrive_and_wait,
 *             then two more phases of the same barrier (arrive + wait on
 *             the token, and arrive_and_drop by half the block)
 *   gemm      a double-buffered tiled GEMM (64 x 48 x 80) whose tiles come
 *             in through a per-thread cuda::pipeline: stage k+1 is copied
 *             while stage k is multiplied; small integers, so every float
 *             product and sum is exact and the result is bit-exact
 *   cgcopy    cooperative_groups::memcpy_async of float4s + cg::wait
 *   zfill     the pipeline primitives: __pipeline_memcpy_async of 16 bytes
 *             with a zero-fill of 0..16 bytes, commit, wait_prior
 *
 * Every expected value is computed on the host.
 */
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

#define TILE 256

__global__ void k_barrier(const unsigned *in, unsigned *out)
{
   __shared__ unsigned s[TILE];
   __shared__ unsigned t[TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
   __shared__ cuda::barrier<cuda::thread_scope_block> bar;
   auto block = cg::this_thread_block();
   unsigned r = threadIdx.x;
   if (block.thread_rank() == 0)
      init(&bar, block.size());
   block.sync();
   cuda::memcpy_async(block, s, in + blockIdx.x * TILE, sizeof(unsigned) * TILE, bar);
   bar.arrive_and_wait();
   unsigned v = s[TILE - 1 - r];
   /* phase 1: a word per thread, then arrive and wait on the token */
   t[r] = v * 3u + r;
   auto tok = bar.arrive();
   bar.wait(std::move(tok));
   unsigned w = t[(r + 1) % TILE];
   /* phase 2: the upper half drops out; the lower half completes it */
   if (r >= TILE / 2) {
      bar.arrive_and_drop();
   } else {
      s[r] = w ^ 0x5a5a5a5au;
      bar.arrive_and_wait();
      w += s[(r + 7) % (TILE / 2)];
   }
   out[blockIdx.x * TILE + r] = v;
   out[gridDim.x * TILE + blockIdx.x * TILE + r] = w;
}

/* C (M x N) = A (M x K) * B (K x N), row-major; a block of 16 x 16 threads
 * computes a 16 x 16 tile of C; each thread copies one element of the A
 * tile and one of the B tile per stage. */
#define GT 16
__global__ void k_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
   __shared__ float sa[2][GT][GT];
   __shared__ float sb[2][GT][GT];
   int tx = threadIdx.x, ty = threadIdx.y;
   int row = blockIdx.y * GT + ty, col = blockIdx.x * GT + tx;
   cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
   int nk = K / GT;
   auto load = [&](int stage, int kt) {
      pipe.producer_acquire();
      cuda::memcpy_async(&sa[stage][ty][tx], &A[row * K + kt * GT + tx], cuda::aligned_size_t<4>(4), pipe);
      cuda::memcpy_async(&sb[stage][ty][tx], &B[(kt * GT + ty) * N + col], cuda::aligned_size_t<4>(4), pipe);
      pipe.producer_commit();
   };
   load(0, 0);
   float acc = 0.0f;
   for (int kt = 0; kt < nk; kt++) {
      if (kt + 1 < nk)
         load((kt + 1) & 1, kt + 1);
      pipe.consumer_wait();
      __syncthreads();
      int st = kt & 1;
      for (int k = 0; k < GT; k++)
         acc = fmaf(sa[st][ty][k], sb[st][k][tx], acc);
      __syncthreads();
      pipe.consumer_release();
   }
   C[row * N + col] = acc;
}

__global__ void k_cgcopy(const float4 *in, float4 *out)
{
   __shared__ float4 s[128];
   auto block = cg::this_thread_block();
   cg::memcpy_async(block, s, in + blockIdx.x * 128, sizeof(float4) * 128);
   cg::wait(block);
   float4 v = s[127 - threadIdx.x];
   out[blockIdx.x * 128 + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
}

__global__ void k_zfill(const unsigned *in, unsigned *out)
{
   __shared__ __align__(16) unsigned s[32 * 4];
   unsigned t = threadIdx.x;   /* 32 threads: thread t keeps t % 17 bytes of its 16 */
   size_t keep = t % 17u;
   __pipeline_memcpy_async(&s[t * 4], &in[t * 4], 16, 16 - keep);
   __pipeline_commit();
   __pipeline_wait_prior(0);
   __syncwarp();
   for (int k = 0; k < 4; k++)
      out[t * 4 + k] = s[((t + 3) % 32) * 4 + k];
}

static void test_barrier(void)
{
   const int nb = 3, n = nb * TILE;
   unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *got = (unsigned *)malloc(2 * n * sizeof(unsigned));
   unsigned *want = (unsigned *)malloc(2 * n * sizeof(unsigned));
   for (int i = 0; i < n; i++)
      h[i] = mix32((unsigned)i + 11u);
   unsigned *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(unsigned)));
   CHECK_CUDA(cudaMalloc(&d_out, 2 * n * sizeof(unsigned)));
   CHECK_CUDA(cudaMemcpy(d_in, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
   k_barrier<<<nb, TILE>>>(d_in, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, 2 * n * sizeof(unsigned), cudaMemcpyDeviceToHost));
   for (int b = 0; b < nb; b++) {
      unsigned v[TILE], t[TILE], w[TILE], s2[TILE / 2];
      for (int r = 0; r < TILE; r++) {
         v[r] = h[b * TILE + TILE - 1 - r];
         t[r] = v[r] * 3u + (unsigned)r;
      }
      for (int r = 0; r < TILE; r++)
         w[r] = t[(r + 1) % TILE];
      for (int r = 0; r < TILE / 2; r++)
         s2[r] = w[r] ^ 0x5a5a5a5au;
      for (int r = 0; r < TILE; r++) {
         want[b * TILE + r] = v[r];
         want[n + b * TILE + r] = r < TILE / 2 ? w[r] + s2[(r + 7) % (TILE / 2)] : w[r];
      }
   }
   CHECK_ARRAY_U32("cuda::barrier: memcpy_async tile, token wait, arrive_and_drop", got, want, (size_t)2 * n);
   cudaFree(d_in);
   cudaFree(d_out);
   free(h);
   free(got);
   free(want);
}

static void test_gemm(void)
{
   const int M = 64, N = 48, K = 80;
   float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
   float *C = (float *)malloc(M * N * sizeof(float)), *W = (float *)malloc(M * N * sizeof(float));
   for (int i = 0; i < M * K; i++)
      A[i] = (float)((int)(mix32((unsigned)i) % 33u) - 16);
   for (int i = 0; i < K * N; i++)
      B[i] = (float)((int)(mix32((unsigned)i + 7777u) % 29u) - 14);
   for (int r = 0; r < M; r++)
      for (int c = 0; c < N; c++) {
         float acc = 0.0f;   /* |sum| < 2^24: exact in any order */
         for (int k = 0; k < K; k++)
            acc += A[r * K + k] * B[k * N + c];
         W[r * N + c] = acc;
      }
   float *dA, *dB, *dC;
   CHECK_CUDA(cudaMalloc(&dA, M * K * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&dB, K * N * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&dC, M * N * sizeof(float)));
   CHECK_CUDA(cudaMemcpy(dA, A, M * K * sizeof(float), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, B, K * N * sizeof(float), cudaMemcpyHostToDevice));
   k_gemm<<<dim3(N / GT, M / GT), dim3(GT, GT)>>>(dA, dB, dC, M, N, K);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(C, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("cuda::pipeline double-buffered GEMM", (const unsigned *)C, (const unsigned *)W, (size_t)M * N);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   free(A);
   free(B);
   free(C);
   free(W);
}

static void test_cgcopy(void)
{
   const int nb = 2, n = nb * 128 * 4;
   float *h = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
   float *want = (float *)malloc(n * sizeof(float));
   for (int i = 0; i < n; i++)
      h[i] = (float)(mix32((unsigned)i + 99u) % 100000u) * 0.25f;
   for (int b = 0; b < nb; b++)
      for (int t = 0; t < 128; t++)
         for (int c = 0; c < 4; c++)
            want[(b * 128 + t) * 4 + c] = h[(b * 128 + 127 - t) * 4 + 3 - c];
   float *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
   CHECK_CUDA(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
   k_cgcopy<<<nb, 128>>>((const float4 *)d_in, (float4 *)d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("cooperative_groups::memcpy_async + wait", (const unsigned *)got, (const unsigned *)want,
                   (size_t)n);
   cudaFree(d_in);
   cudaFree(d_out);
   free(h);
   free(got);
   free(want);
}

static void test_zfill(void)
{
   unsigned h[128], got[128], want[128], s[128];
   for (int i = 0; i < 128; i++)
      h[i] = mix32((unsigned)i + 4242u);
   for (unsigned t = 0; t < 32; t++) {
      unsigned keep = t % 17u;
      unsigned char *d = (unsigned char *)&s[t * 4];
      const unsigned char *src = (const unsigned char *)&h[t * 4];
      for (unsigned k = 0; k < 16; k++)
         d[k] = k < keep ? src[k] : 0;
   }
   for (unsigned t = 0; t < 32; t++)
      for (int k = 0; k < 4; k++)
         want[t * 4 + k] = s[((t + 3) % 32) * 4 + k];
   unsigned *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, sizeof(h)));
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));
   k_zfill<<<1, 32>>>(d_in, d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, d_out, sizeof(h), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("__pipeline_memcpy_async with zero-fill", got, want, 128);
   cudaFree(d_in);
   cudaFree(d_out);
}

int main(void)
{
   check_begin("async_copy");
   test_barrier();
   test_gemm();
   test_cgcopy();
   test_zfill();
   return check_end();
}
