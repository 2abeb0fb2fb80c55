// nvcc-flags: -arch=sm_80
/*
 * tensor_cores.cu — GEMMs on the tensor cores, bit-exact:
 *
 *   wmma      nvcuda::wmma 16x16x16 tiles (f16 in, f32 accumulate) of a
 *             64 x 48 x 80 GEMM, the accumulator carried across the K loop
 *             in its fragment, A row-major and B column-major in global
 *             memory; and the same with an f16 accumulator; the same with
 *             32x8x16 tiles and with 8x32x16 tiles (of D's first 32
 *             columns), both accumulators
 *   mma       inline-asm mma.sync.m16n8k16 (bf16 in, f32 accumulate) with
 *             its fragments loaded by ldmatrix (.x4 for A, .x2.trans for B
 *             from a row-major B tile in shared memory)
 *
 * Inputs span many binades, so the result depends on how a tensor core
 * rounds.  The host reference is that rounding as measured on an H200
 * (tests/ptx mma_* cases; src/compiler/msl/prelude/mma.metal): exact
 * products, every term truncated toward zero to 2^(emax - 25) where emax
 * is the largest exponent sum (or C's exponent), an exact sum, then one
 * rounding toward zero to f32 (f16 accumulator: then to nearest f16).
 */
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <math.h>
#include <string.h>

using namespace nvcuda;

#define M 64
#define N 48
#define K 80

/* ---- the host model of one m16n8k16 / m16n16k16 step ---- */

static int ilog2d(double x)
{
   int e;
   frexp(fabs(x), &e);
   return e - 1;
}

/* sum(a[k] * b[k]) + c over k < 16 (products exact in double), as a tensor core. */
static float tc_dot(const double *a, const double *b, float c)
{
   int emax = INT32_MIN;
   if (c != 0.0f)
      emax = ilog2d(c);
   for (int k = 0; k < 16; k++)
      if (a[k] != 0.0 && b[k] != 0.0)
         emax = emax > ilog2d(a[k]) + ilog2d(b[k]) ? emax : ilog2d(a[k]) + ilog2d(b[k]);
   if (emax == INT32_MIN)
      return 0.0f;
   /* terms in units of 2^(emax - 25), truncated toward zero: exact in int64 */
   long long s = 0;
   double unit = ldexp(1.0, emax - 25);
   s += (long long)trunc((double)c / unit);
   for (int k = 0; k < 16; k++)
      s += (long long)trunc(a[k] * b[k] / unit);
   if (s == 0)
      return 0.0f;
   /* round toward zero to f32 (no overflow or subnormal with these data) */
   unsigned long long mag = (unsigned long long)(s < 0 ? -s : s);
   int L = 63 - __builtin_clzll(mag);
   if (L > 23)
      mag = mag >> (L - 23) << (L - 23);
   double v = ldexp((double)mag, emax - 25);
   return (float)(s < 0 ? -v : v);
}

static uint16_t to_half_rn(float f) { return __half_as_ushort(__float2half_rn(f)); }

/* ---- data: values over 2^-span .. 2^span, both signs ---- */

static float value(uint32_t i, uint32_t salt, int span = 12)
{
   uint32_t h = mix32(i * 2654435761u + salt);
   float m = 1.0f + (float)(h & 1023u) / 1024.0f;
   int e = (int)((h >> 10) % (uint32_t)(2 * span + 1)) - span;
   return (h >> 31) ? -ldexpf(m, e) : ldexpf(m, e);
}

/* ---- wmma ---- */

template <typename Acc, int TM, int TN>
__global__ void k_wmma(const __half *A, const __half *B, const Acc *Cin, Acc *D)
{
   /* one warp per TMxTN tile of D: tile (blockIdx.y, blockIdx.x) */
   int tr = blockIdx.y * TM, tc = blockIdx.x * TN;
   wmma::fragment<wmma::matrix_a, TM, TN, 16, __half, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, TM, TN, 16, __half, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, TM, TN, 16, Acc> acc;
   wmma::load_matrix_sync(acc, Cin + tr * N + tc, N, wmma::mem_row_major);
   for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(fa, A + tr * K + k, K);
      wmma::load_matrix_sync(fb, B + tc * K + k, K);   /* B column-major: column n at B + n * K */
      wmma::mma_sync(acc, fa, fb, acc);
   }
   wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

template <int TM, int TN> static void test_wmma(bool acc16)
{
   const int ncols = N / TN * TN;   /* the columns of D the tiles cover */
   int span = acc16 ? 5 : 12;   /* an f16 accumulator must not overflow */
   __half *hA = (__half *)malloc(M * K * sizeof(__half)), *hB = (__half *)malloc(K * N * sizeof(__half));
   double *a = (double *)malloc(M * K * sizeof(double)), *b = (double *)malloc(K * N * sizeof(double));
   float *c = (float *)malloc(M * N * sizeof(float));
   for (int i = 0; i < M * K; i++) {
      hA[i] = __float2half_rn(value(i, 1, span));
      a[i] = (double)__half2float(hA[i]);
   }
   for (int i = 0; i < K * N; i++) {   /* column-major: B(k, n) at n * K + k */
      hB[i] = __float2half_rn(value(i, 2, span));
      b[i] = (double)__half2float(hB[i]);
   }
   for (int i = 0; i < M * N; i++)
      c[i] = acc16 ? __half2float(__float2half_rn(value(i, 3, span))) : value(i, 3);
   uint32_t *want = (uint32_t *)malloc(M * N * sizeof(uint32_t)), *got = (uint32_t *)malloc(M * N * sizeof(uint32_t));
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         float acc = c[r * N + n];
         for (int k = 0; k < K; k += 16) {
            double bk[16];
            for (int j = 0; j < 16; j++)
               bk[j] = b[n * K + k + j];
            acc = tc_dot(a + r * K + k, bk, acc);
            if (acc16)
               acc = __half2float(__ushort_as_half(to_half_rn(acc)));
         }
         want[r * N + n] = acc16 ? to_half_rn(acc) : f32_bits(acc);
      }
   __half *dA, *dB;
   void *dC, *dD;
   size_t es = acc16 ? 2 : 4;
   CHECK_CUDA(cudaMalloc(&dA, M * K * sizeof(__half)));
   CHECK_CUDA(cudaMalloc(&dB, K * N * sizeof(__half)));
   CHECK_CUDA(cudaMalloc(&dC, M * N * es));
   CHECK_CUDA(cudaMalloc(&dD, M * N * es));
   CHECK_CUDA(cudaMemcpy(dA, hA, M * K * sizeof(__half), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, K * N * sizeof(__half), cudaMemcpyHostToDevice));
   if (acc16) {
      __half *hc = (__half *)malloc(M * N * sizeof(__half));
      for (int i = 0; i < M * N; i++)
         hc[i] = __float2half_rn(c[i]);
      CHECK_CUDA(cudaMemcpy(dC, hc, M * N * es, cudaMemcpyHostToDevice));
      free(hc);
      k_wmma<__half, TM, TN><<<dim3(N / TN, M / TM), 32>>>(dA, dB, (const __half *)dC, (__half *)dD);
   } else {
      CHECK_CUDA(cudaMemcpy(dC, c, M * N * es, cudaMemcpyHostToDevice));
      k_wmma<float, TM, TN><<<dim3(N / TN, M / TM), 32>>>(dA, dB, (const float *)dC, (float *)dD);
   }
   CHECK_CUDA(cudaGetLastError());
   if (acc16) {
      uint16_t *g16 = (uint16_t *)malloc(M * N * 2);
      CHECK_CUDA(cudaMemcpy(g16, dD, M * N * 2, cudaMemcpyDeviceToHost));
      for (int i = 0; i < M * N; i++)
         got[i] = g16[i];
      free(g16);
   } else {
      CHECK_CUDA(cudaMemcpy(got, dD, M * N * 4, cudaMemcpyDeviceToHost));
   }
   /* the covered columns, row by row */
   for (int r = 0; r < M; r++)
      for (int n = 0; n < ncols; n++) {
         got[r * ncols + n] = got[r * N + n];
         want[r * ncols + n] = want[r * N + n];
      }
   char what[64];
   snprintf(what, sizeof(what), "wmma %dx%dx16 GEMM, %s accumulator", TM, TN, acc16 ? "f16" : "f32");
   CHECK_ARRAY_U32(what, got, want, (size_t)M * ncols);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
   free(hA);
   free(hB);
   free(a);
   free(b);
   free(c);
   free(want);
   free(got);
}

/* ---- mma.sync with ldmatrix ---- */

/* One warp per 16x8 tile of D (bf16 A row-major M x K, B row-major K x N). */
__global__ void k_mma(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *D)
{
   __shared__ __align__(16) __nv_bfloat16 sa[16 * 16];
   __shared__ __align__(16) __nv_bfloat16 sb[16 * 8];
   int lane = threadIdx.x, tr = blockIdx.y * 16, tc = blockIdx.x * 8;
   float d[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
   for (int k = 0; k < K; k += 16) {
      for (int i = lane; i < 256; i += 32)
         sa[i] = A[(tr + i / 16) * K + k + i % 16];
      for (int i = lane; i < 128; i += 32)
         sb[i] = B[(k + i / 8) * N + tc + i % 8];
      __syncwarp();
      unsigned a[4], b[2];
      /* A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (0-7, 8-15), (8-15, 8-15) */
      unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
      /* B (k x n, row-major rows of 8): transposed into the column fragment */
      unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                   "{%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      __syncwarp();
   }
   int g = lane / 4, t = lane % 4;
   D[(tr + g) * N + tc + 2 * t] = d[0];
   D[(tr + g) * N + tc + 2 * t + 1] = d[1];
   D[(tr + g + 8) * N + tc + 2 * t] = d[2];
   D[(tr + g + 8) * N + tc + 2 * t + 1] = d[3];
}

static void test_mma(void)
{
   __nv_bfloat16 *hA = (__nv_bfloat16 *)malloc(M * K * 2), *hB = (__nv_bfloat16 *)malloc(K * N * 2);
   double *a = (double *)malloc(M * K * sizeof(double)), *b = (double *)malloc(K * N * sizeof(double));
   for (int i = 0; i < M * K; i++) {
      hA[i] = __float2bfloat16_rn(value(i, 4));
      a[i] = (double)__bfloat162float(hA[i]);
   }
   for (int i = 0; i < K * N; i++) {   /* row-major: B(k, n) at k * N + n */
      hB[i] = __float2bfloat16_rn(value(i, 5));
      b[i] = (double)__bfloat162float(hB[i]);
   }
   uint32_t *want = (uint32_t *)malloc(M * N * 4), *got = (uint32_t *)malloc(M * N * 4);
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         float acc = 0.0f;
         for (int k = 0; k < K; k += 16) {
            double bk[16];
            for (int j = 0; j < 16; j++)
               bk[j] = b[(k + j) * N + n];
            acc = tc_dot(a + r * K + k, bk, acc);
         }
         want[r * N + n] = f32_bits(acc);
      }
   __nv_bfloat16 *dA, *dB;
   float *dD;
   CHECK_CUDA(cudaMalloc(&dA, M * K * 2));
   CHECK_CUDA(cudaMalloc(&dB, K * N * 2));
   CHECK_CUDA(cudaMalloc(&dD, M * N * 4));
   CHECK_CUDA(cudaMemcpy(dA, hA, M * K * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, K * N * 2, cudaMemcpyHostToDevice));
   k_mma<<<dim3(N / 8, M / 16), 32>>>(dA, dB, dD);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, M * N * 4, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("mma.sync m16n8k16 bf16 GEMM with ldmatrix fragments", got, want, (size_t)M * N);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dD);
   free(hA);
   free(hB);
   free(a);
   free(b);
   free(want);
   free(got);
}

int main(void)
{
   check_begin("tensor_cores");
   test_wmma<16, 16>(false);
   test_wmma<16, 16>(true);
   test_wmma<32, 8>(false);
   test_wmma<32, 8>(true);
   test_wmma<8, 32>(false);
   test_wmma<8, 32>(true);
   test_mma();
   return check_end();
}
