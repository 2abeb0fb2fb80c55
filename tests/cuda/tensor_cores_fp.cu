// nvcc-flags: -arch=sm_80
/*
 * tensor_cores_fp.cu — tf32 and f64 tensor-core GEMMs, bit-exact:
 *
 *   tf32   nvcuda::wmma 16x16x8 tiles (precision::tf32 in, f32 accumulate)
 *          of a 64x48x80 GEMM, the accumulator carried across K in its
 *          fragment: with every A and B element converted by
 *          __float_to_tf32 after the load (the documented use), and with
 *          the raw f32 values left in the fragments
 *   f64    nvcuda::wmma 8x8x4 tiles (double) of the same GEMM, A row-major
 *          and B column-major, and the other layouts
 *
 * Host references, as measured on an H200 (tests/ptx mma_*_tf32 and
 * mma_f64 cases; src/compiler/msl/prelude/mma.metal):
 *   tf32: an operand is the top 19 bits of its register (__float_to_tf32
 *   rounds to nearest, ties away from zero, first); a 16x16x8 tile is two
 *   MMAs of k = 4 (columns 0-3 of A, then 4-7, the first's f32 result the
 *   second's C: what the H200 computed, not one MMA of k = 8, on every
 *   element of both GEMMs); per MMA the products are exact, every term
 *   (and C) is truncated toward zero to 2^(emax - 25), emax the largest
 *   exponent among them, the sum is exact and rounded once toward zero to
 *   f32.
 *   f64: d = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))), each
 *   fma rounded to nearest even.
 * The data are checked to tell these apart from the nearest alternatives
 * (one MMA of k = 8 for tf32; the reversed fma chain for f64).
 */
#include "check.h"

#include <mma.h>

#include <math.h>
#include <string.h>
#include <type_traits>

using namespace nvcuda;

#define M 64
#define N 48
#define K 80

static uint32_t h32(uint32_t i, uint32_t salt) { return mix32(i * 2654435761u + salt * 0x9e3779b9u + 1u); }

/* values over 2^-span .. 2^span, both signs, full 23-bit mantissas */
static float value(uint32_t i, uint32_t salt, int span)
{
   uint32_t h = h32(i, salt), h2 = h32(i, salt + 77);
   float m = 1.0f + (float)(h2 & 0x7fffffu) / 8388608.0f;
   int e = (int)((h >> 10) % (uint32_t)(2 * span + 1)) - span;
   return (h >> 31) ? -ldexpf(m, e) : ldexpf(m, e);
}

/* ---- tf32 ---- */

static float tf32_rna(float f)   /* cvt.rna.tf32.f32 on finite values */
{
   uint32_t u = f32_bits(f);
   return bits_f32((u + 0x1000u) & ~0x1fffu);
}

static float tf32_trunc(float f) { return bits_f32(f32_bits(f) & ~0x1fffu); }

static int ilog2d(double x)
{
   int e;
   frexp(fabs(x), &e);
   return e - 1;
}

/* sum(a[k] * b[k]) + c over k < n as one tensor-core MMA (products exact in
 * double: 11-bit significands) */
static float tc_dot(const double *a, const double *b, int n, float c)
{
   int emax = INT32_MIN;
   if (c != 0.0f)
      emax = ilog2d(c);
   for (int k = 0; k < n; k++)
      if (a[k] != 0.0 && b[k] != 0.0 && ilog2d(a[k]) + ilog2d(b[k]) > emax)
         emax = ilog2d(a[k]) + ilog2d(b[k]);
   if (emax == INT32_MIN)
      return 0.0f;
   long long s = 0;
   double unit = ldexp(1.0, emax - 25);
   s += (long long)trunc((double)c / unit);
   for (int k = 0; k < n; k++)
      s += (long long)trunc(a[k] * b[k] / unit);
   if (s == 0)
      return 0.0f;
   unsigned long long mag = (unsigned long long)(s < 0 ? -s : s);
   int L = 63 - __builtin_clzll(mag);
   if (L > 23)
      mag = mag >> (L - 23) << (L - 23);
   double v = ldexp((double)mag, emax - 25);
   return (float)(s < 0 ? -v : v);
}

template <bool CONVERT> __global__ void k_tf32(const float *A, const float *B, const float *Cin, float *D)
{
   int tr = blockIdx.y * 16, tc = blockIdx.x * 16;
   wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
   wmma::load_matrix_sync(acc, Cin + tr * N + tc, N, wmma::mem_row_major);
   for (int k = 0; k < K; k += 8) {
      wmma::load_matrix_sync(fa, A + tr * K + k, K);
      wmma::load_matrix_sync(fb, B + tc * K + k, K);   /* B column-major: column n at B + n * K */
      if (CONVERT) {
         for (int i = 0; i < fa.num_elements; i++)
            fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
         for (int i = 0; i < fb.num_elements; i++)
            fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
      }
      wmma::mma_sync(acc, fa, fb, acc);
   }
   wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

/* the reference GEMM with MMAs of kstep (8: the model; 4: the alternative) */
static void tf32_ref(const double *a, const double *b, const float *c, int kstep, uint32_t *out)
{
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         float acc = c[r * N + n];
         for (int k = 0; k < K; k += kstep)
            acc = tc_dot(a + r * K + k, b + n * K + k, kstep, acc);
         out[r * N + n] = f32_bits(acc);
      }
}

static size_t count_diff(const uint32_t *x, const uint32_t *y, size_t n)
{
   size_t d = 0;
   for (size_t i = 0; i < n; i++)
      d += x[i] != y[i];
   return d;
}

static void test_tf32(bool convert)
{
   float *hA = (float *)malloc(M * K * 4), *hB = (float *)malloc(K * N * 4), *c = (float *)malloc(M * N * 4);
   double *a = (double *)malloc(M * K * sizeof(double)), *b = (double *)malloc(K * N * sizeof(double));
   for (int i = 0; i < M * K; i++) {
      hA[i] = value((uint32_t)i, 1, 12);
      a[i] = convert ? tf32_rna(hA[i]) : tf32_trunc(hA[i]);
   }
   for (int i = 0; i < K * N; i++) {   /* column-major: B(k, n) at n * K + k */
      hB[i] = value((uint32_t)i, 2, 12);
      b[i] = convert ? tf32_rna(hB[i]) : tf32_trunc(hB[i]);
   }
   for (int i = 0; i < M * N; i++)
      c[i] = value((uint32_t)i, 3, 12);
   uint32_t *want = (uint32_t *)malloc(M * N * 4), *alt = (uint32_t *)malloc(M * N * 4);
   uint32_t *got = (uint32_t *)malloc(M * N * 4);
   tf32_ref(a, b, c, 4, want);
   tf32_ref(a, b, c, 8, alt);
   size_t sep = count_diff(want, alt, M * N);
   CHECK(sep > M * N / 20);   /* the data tell two MMAs of k = 4 from one of k = 8 */
   float *dA, *dB, *dC, *dD;
   CHECK_CUDA(cudaMalloc(&dA, M * K * 4));
   CHECK_CUDA(cudaMalloc(&dB, K * N * 4));
   CHECK_CUDA(cudaMalloc(&dC, M * N * 4));
   dD = (float *)dev_alloc_fill32(M * N);
   CHECK(dD != NULL);
   CHECK_CUDA(cudaMemcpy(dA, hA, M * K * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, K * N * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dC, c, M * N * 4, cudaMemcpyHostToDevice));
   if (convert)
      k_tf32<true><<<dim3(N / 16, M / 16), 32>>>(dA, dB, dC, dD);
   else
      k_tf32<false><<<dim3(N / 16, M / 16), 32>>>(dA, dB, dC, dD);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, M * N * 4, cudaMemcpyDeviceToHost));
   const char *what = convert ? "wmma 16x16x8 tf32 GEMM, __float_to_tf32 operands" : "wmma 16x16x8 tf32 GEMM, raw f32 operands";
   if (!CHECK_ARRAY_U32(what, got, want, (size_t)M * N))
      printf("    (%zu elements differ from one k = 8 MMA per step; the data separate the models on %zu)\n",
             count_diff(got, alt, M * N), sep);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
   free(hA);
   free(hB);
   free(c);
   free(a);
   free(b);
   free(want);
   free(alt);
   free(got);
}

/* ---- f64 ---- */

template <bool ROWA, bool COLB> __global__ void k_f64(const double *A, const double *B, const double *Cin, double *D)
{
   typedef typename std::conditional<ROWA, wmma::row_major, wmma::col_major>::type LA;
   typedef typename std::conditional<COLB, wmma::col_major, wmma::row_major>::type LB;
   int tr = blockIdx.y * 8, tc = blockIdx.x * 8;
   wmma::fragment<wmma::matrix_a, 8, 8, 4, double, LA> fa;
   wmma::fragment<wmma::matrix_b, 8, 8, 4, double, LB> fb;
   wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
   wmma::load_matrix_sync(acc, Cin + tr * N + tc, N, wmma::mem_row_major);
   for (int k = 0; k < K; k += 4) {
      wmma::load_matrix_sync(fa, ROWA ? A + tr * K + k : A + k * M + tr, ROWA ? K : M);
      wmma::load_matrix_sync(fb, COLB ? B + tc * K + k : B + k * N + tc, COLB ? K : N);
      wmma::mma_sync(acc, fa, fb, acc);
   }
   wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

static double dvalue(uint32_t i, uint32_t salt)
{
   uint64_t m = ((uint64_t)h32(i, salt) << 32 | h32(i, salt + 99)) & 0xfffffffffffffull;
   int e = (int)(h32(i, salt + 7) % 17u) - 8;
   double v = ldexp(1.0 + (double)m / 4503599627370496.0, e);
   return (h32(i, salt + 13) & 1u) ? -v : v;
}

template <bool ROWA, bool COLB> static void test_f64(void)
{
   double *A = (double *)malloc(M * K * 8), *B = (double *)malloc(K * N * 8), *c = (double *)malloc(M * N * 8);
   for (int r = 0; r < M; r++)
      for (int k = 0; k < K; k++)
         A[ROWA ? r * K + k : k * M + r] = dvalue((uint32_t)(r * K + k), 11);
   for (int k = 0; k < K; k++)
      for (int n = 0; n < N; n++)
         B[COLB ? n * K + k : k * N + n] = dvalue((uint32_t)(k * N + n), 12);
   for (int i = 0; i < M * N; i++)
      c[i] = dvalue((uint32_t)i, 13);
   uint64_t *want = (uint64_t *)malloc(M * N * 8), *alt = (uint64_t *)malloc(M * N * 8);
   uint64_t *got = (uint64_t *)malloc(M * N * 8);
   size_t sep = 0;
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         double acc = c[r * N + n], rev = acc;
         for (int k0 = 0; k0 < K; k0 += 4) {
            for (int k = k0; k < k0 + 4; k++)
               acc = fma(A[ROWA ? r * K + k : k * M + r], B[COLB ? n * K + k : k * N + n], acc);
            for (int k = k0 + 3; k >= k0; k--)
               rev = fma(A[ROWA ? r * K + k : k * M + r], B[COLB ? n * K + k : k * N + n], rev);
         }
         memcpy(&want[r * N + n], &acc, 8);
         memcpy(&alt[r * N + n], &rev, 8);
         sep += want[r * N + n] != alt[r * N + n];
      }
   CHECK(sep > M * N / 20);   /* the data tell the fma chain from its reverse */
   double *dA, *dB, *dC, *dD;
   CHECK_CUDA(cudaMalloc(&dA, M * K * 8));
   CHECK_CUDA(cudaMalloc(&dB, K * N * 8));
   CHECK_CUDA(cudaMalloc(&dC, M * N * 8));
   CHECK_CUDA(cudaMalloc(&dD, M * N * 8));
   uint64_t *fill = (uint64_t *)malloc(M * N * 8);
   fill_u64(fill, M * N, SENTINEL64);
   CHECK_CUDA(cudaMemcpy(dD, fill, M * N * 8, cudaMemcpyHostToDevice));
   free(fill);
   CHECK_CUDA(cudaMemcpy(dA, A, M * K * 8, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, B, K * N * 8, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dC, c, M * N * 8, cudaMemcpyHostToDevice));
   k_f64<ROWA, COLB><<<dim3(N / 8, M / 8), 32>>>(dA, dB, dC, dD);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, M * N * 8, cudaMemcpyDeviceToHost));
   char what[80];
   snprintf(what, sizeof(what), "wmma 8x8x4 f64 GEMM, A %s, B %s", ROWA ? "row" : "col", COLB ? "col" : "row");
   if (!CHECK_ARRAY_U64(what, got, want, (size_t)M * N)) {
      size_t d = 0;
      for (int i = 0; i < M * N; i++)
         d += got[i] != alt[i];
      printf("    (%zu elements differ from the reversed fma chain)\n", d);
   }
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
   free(A);
   free(B);
   free(c);
   free(want);
   free(alt);
   free(got);
}

int main(void)
{
   check_begin("tensor_cores_fp");
   test_tf32(true);
   test_tf32(false);
   test_f64<true, true>();
   test_f64<false, false>();
   return check_end();
}
