// nvcc-flags: -arch=sm_80
/*
 * tensor_cores_int.cu — integer tensor-core GEMMs, exact:
 *
 *   wmma s8/u8   nvcuda::wmma 16x16x16, 32x8x16 and 8x32x16 tiles (signed
 *                char and unsigned char in, int accumulate) of a 64x64x64
 *                GEMM, the accumulator carried across K in its fragment;
 *                A row-major and B column-major, and the other layouts;
 *                with and without satfinite, C near INT_MAX / INT_MIN so
 *                that sums cross the limits (wrapped or clamped)
 *   wmma s4/u4   experimental::precision 8x8x32 tiles (A row-major, B
 *                column-major, 8 elements a 32-bit word, element 0 in the
 *                low nibble), with and without satfinite
 *   wmma b1      8x8x128 tiles, bmma_sync with XOR and with AND, POPC
 *   mma.sync     inline asm on fragments laid out as PTX ISA 9.0
 *                §9.7.14.5 says: m8n8k16 s8, m16n8k32 u4.s4, m16n8k64
 *                s4 .satfinite, m8n8k32 u4, m8n8k128 b1 xor.popc,
 *                m16n8k128 b1 and.popc, m16n8k256 b1 xor.popc
 *
 * The host reference is integer arithmetic: D = C + the exact sum of the
 * products of one MMA (its K), wrapped to 32 bits, or clamped to the int32
 * range with satfinite (each MMA of the K loop clamps its own result);
 * b1: C + popc(a op b).
 */
#include "check.h"

#include <mma.h>

#include <limits.h>
#include <type_traits>
#include <string.h>

using namespace nvcuda;

#define M 64
#define N 64
#define K 64

/* ---- data ---- */

static uint32_t h32(uint32_t i, uint32_t salt) { return mix32(i * 2654435761u + salt * 0x9e3779b9u + 1u); }

/* C: half the elements near INT_MAX, a quarter near INT_MIN, the rest small */
static int32_t c_value(uint32_t i, uint32_t salt)
{
   uint32_t h = h32(i, salt);
   switch (h & 3u) {
   case 0: case 1: return INT_MAX - (int32_t)(h >> 12);
   case 2: return INT_MIN + (int32_t)(h >> 12);
   default: return (int32_t)(h >> 8) - (1 << 23);
   }
}

/* the s32 result of c + s (s: the exact dot product of one MMA) */
static int32_t acc_step(int32_t c, long long s, bool sat)
{
   long long v = (long long)c + s;
   if (sat)
      return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int32_t)v;
   return (int32_t)(uint32_t)(unsigned long long)v;
}

/* ---- wmma s8/u8 ---- */

template <typename T, int TM, int TN, bool ROWA, bool COLB, bool SAT>
__global__ void k_wmma8(const T *A, const T *B, const int *Cin, int *D)
{
   typedef typename std::conditional<ROWA, wmma::row_major, wmma::col_major>::type LA;
   typedef typename std::conditional<COLB, wmma::col_major, wmma::row_major>::type LB;
   int tr = blockIdx.y * TM, tc = blockIdx.x * TN;
   wmma::fragment<wmma::matrix_a, TM, TN, 16, T, LA> fa;
   wmma::fragment<wmma::matrix_b, TM, TN, 16, T, LB> fb;
   wmma::fragment<wmma::accumulator, TM, TN, 16, int> acc;
   wmma::load_matrix_sync(acc, Cin + tr * N + tc, N, wmma::mem_row_major);
   for (int k = 0; k < K; k += 16) {
      /* A(r, k): row-major at r * K + k, column-major at k * M + r */
      wmma::load_matrix_sync(fa, ROWA ? A + tr * K + k : A + k * M + tr, ROWA ? K : M);
      /* B(k, n): column-major at n * K + k, row-major at k * N + n */
      wmma::load_matrix_sync(fb, COLB ? B + tc * K + k : B + k * N + tc, COLB ? K : N);
      wmma::mma_sync(acc, fa, fb, acc, SAT);
   }
   wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

template <typename T, int TM, int TN, bool ROWA, bool COLB, bool SAT> static void test_wmma8(void)
{
   bool sgn = (T)-1 < (T)0;
   T *hA = (T *)malloc(M * K), *hB = (T *)malloc(K * N);
   int32_t *c = (int32_t *)malloc(M * N * 4), *want = (int32_t *)malloc(M * N * 4), *got = (int32_t *)malloc(M * N * 4);
   /* a(r, k), b(k, n) as integers; stored per the layouts */
   for (int r = 0; r < M; r++)
      for (int k = 0; k < K; k++)
         hA[ROWA ? r * K + k : k * M + r] = (T)(h32((uint32_t)(r * K + k), 1) >> 24);
   for (int k = 0; k < K; k++)
      for (int n = 0; n < N; n++)
         hB[COLB ? n * K + k : k * N + n] = (T)(h32((uint32_t)(k * N + n), 2) >> 24);
   for (int i = 0; i < M * N; i++)
      c[i] = c_value((uint32_t)i, 3);
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         int32_t acc = c[r * N + n];
         for (int k0 = 0; k0 < K; k0 += 16) {
            long long s = 0;
            for (int k = k0; k < k0 + 16; k++)
               s += (long long)hA[ROWA ? r * K + k : k * M + r] * (long long)hB[COLB ? n * K + k : k * N + n];
            acc = acc_step(acc, s, SAT);
         }
         want[r * N + n] = acc;
      }
   T *dA, *dB;
   int *dC, *dD;
   CHECK_CUDA(cudaMalloc(&dA, M * K));
   CHECK_CUDA(cudaMalloc(&dB, K * N));
   CHECK_CUDA(cudaMalloc(&dC, M * N * 4));
   dD = (int *)dev_alloc_fill32(M * N);
   CHECK(dD != NULL);
   CHECK_CUDA(cudaMemcpy(dA, hA, M * K, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, K * N, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dC, c, M * N * 4, cudaMemcpyHostToDevice));
   k_wmma8<T, TM, TN, ROWA, COLB, SAT><<<dim3(N / TN, M / TM), 32>>>(dA, dB, dC, dD);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, M * N * 4, cudaMemcpyDeviceToHost));
   char what[96];
   snprintf(what, sizeof(what), "wmma %dx%dx16 %s GEMM, A %s, B %s%s", TM, TN, sgn ? "s8" : "u8",
            ROWA ? "row" : "col", COLB ? "col" : "row", SAT ? ", satfinite" : "");
   CHECK_ARRAY_I32(what, got, want, (size_t)M * N);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
   free(hA);
   free(hB);
   free(c);
   free(want);
   free(got);
}

/* ---- wmma s4/u4 (8x8x32) and b1 (8x8x128) ---- */

/* Sub-byte matrices: A (M x KS) row-major, B (KS x N) column-major, each
 * row (column) KS elements of EW bits packed into 32-bit words, element k
 * at bit EW (k % (32 / EW)) of word k / (32 / EW). */
template <typename P, int KT, bool SAT, int OP>
__global__ void k_wmma_sub(const unsigned *A, const unsigned *B, const int *Cin, int *D, int ks)
{
   int tr = blockIdx.y * 8, tc = blockIdx.x * 8;
   wmma::fragment<wmma::matrix_a, 8, 8, KT, P, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, 8, 8, KT, P, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, 8, 8, KT, int> acc;
   int wpr = ks / (KT / 4);   /* words per row: KT elements are 4 words */
   wmma::load_matrix_sync(acc, Cin + tr * N + tc, N, wmma::mem_row_major);
   for (int k = 0; k < ks; k += KT) {
      int w = k / (KT / 4);
      wmma::load_matrix_sync(fa, A + tr * wpr + w, ks);
      wmma::load_matrix_sync(fb, B + tc * wpr + w, ks);
      if constexpr (OP == 0)
         wmma::mma_sync(acc, fa, fb, acc, SAT);
      else
         wmma::bmma_sync(acc, fa, fb, acc,
                         OP == 1 ? wmma::experimental::bmmaBitOpXOR : wmma::experimental::bmmaBitOpAND,
                         wmma::experimental::bmmaAccumulateOpPOPC);
   }
   wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

/* element k of a packed row of EW-bit elements, as an integer */
static long long elem(const uint32_t *row, int k, int ew, bool sgn)
{
   int per = 32 / ew;
   uint32_t v = (row[k / per] >> (ew * (k % per))) & ((1u << ew) - 1u);
   if (sgn && (v >> (ew - 1)))
      return (long long)v - (1ll << ew);
   return v;
}

/* P: the precision; EW: 4 or 1; OP: 0 arithmetic, 1 xor, 2 and */
template <typename P, int EW, bool SGN, bool SAT, int OP> static void test_wmma_sub(const char *name)
{
   const int KT = EW == 4 ? 32 : 128, ks = 2 * KT, wpr = ks * EW / 32;
   uint32_t *hA = (uint32_t *)malloc(M * wpr * 4), *hB = (uint32_t *)malloc(N * wpr * 4);
   int32_t *c = (int32_t *)malloc(M * N * 4), *want = (int32_t *)malloc(M * N * 4), *got = (int32_t *)malloc(M * N * 4);
   for (int i = 0; i < M * wpr; i++)
      hA[i] = h32((uint32_t)i, 4 + EW);
   for (int i = 0; i < N * wpr; i++)
      hB[i] = h32((uint32_t)i, 5 + EW);
   for (int i = 0; i < M * N; i++)
      c[i] = OP ? (int32_t)(h32((uint32_t)i, 6) >> 16) - 32768 : c_value((uint32_t)i, 6);
   for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
         int32_t acc = c[r * N + n];
         for (int k0 = 0; k0 < ks; k0 += KT) {
            long long s = 0;
            for (int k = k0; k < k0 + KT; k++) {
               long long x = elem(hA + r * wpr, k, EW, SGN), y = elem(hB + n * wpr, k, EW, SGN);
               s += OP == 0 ? x * y : OP == 1 ? (x ^ y) : (x & y);
            }
            acc = acc_step(acc, s, SAT);
         }
         want[r * N + n] = acc;
      }
   unsigned *dA, *dB;
   int *dC, *dD;
   CHECK_CUDA(cudaMalloc(&dA, M * wpr * 4));
   CHECK_CUDA(cudaMalloc(&dB, N * wpr * 4));
   CHECK_CUDA(cudaMalloc(&dC, M * N * 4));
   dD = (int *)dev_alloc_fill32(M * N);
   CHECK(dD != NULL);
   CHECK_CUDA(cudaMemcpy(dA, hA, M * wpr * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, N * wpr * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dC, c, M * N * 4, cudaMemcpyHostToDevice));
   k_wmma_sub<P, KT, SAT, OP><<<dim3(N / 8, M / 8), 32>>>(dA, dB, dC, dD, ks);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, M * N * 4, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32(name, got, want, (size_t)M * N);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
   free(hA);
   free(hB);
   free(c);
   free(want);
   free(got);
}

/* ---- mma.sync on fragments in PTX's layout ---- */

/* One warp: lane l's A registers at A[l * NA + j], B at B[l * NB + j], C
 * and D at [l * ND + j]. */
#define MMA_KERNEL(NAME, NA, NB, ND, ASM, ...)                                                               \
   __global__ void NAME(const unsigned *A, const unsigned *B, const int *C, int *D)                        \
   {                                                                                                        \
      int l = threadIdx.x;                                                                                  \
      unsigned a[4] = { 0, 0, 0, 0 }, b[2] = { 0, 0 };                                                      \
      int d[4] = { 0, 0, 0, 0 };                                                                            \
      for (int j = 0; j < NA; j++)                                                                          \
         a[j] = A[l * NA + j];                                                                              \
      for (int j = 0; j < NB; j++)                                                                          \
         b[j] = B[l * NB + j];                                                                              \
      for (int j = 0; j < ND; j++)                                                                          \
         d[j] = C[l * ND + j];                                                                              \
      asm volatile(ASM : __VA_ARGS__);                                                                      \
      for (int j = 0; j < ND; j++)                                                                          \
         D[l * ND + j] = d[j];                                                                              \
   }

MMA_KERNEL(k_m8n8k16_s8, 1, 1, 2, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};",
           "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]))
MMA_KERNEL(k_m8n8k32_u4, 1, 1, 2, "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};",
           "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]))
MMA_KERNEL(k_m16n8k32_u4s4, 2, 1, 4,
           "mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};",
           "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))
MMA_KERNEL(k_m16n8k64_s4_sat, 4, 2, 4,
           "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
           "{%8, %9}, {%0, %1, %2, %3};",
           "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
           : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
MMA_KERNEL(k_m8n8k128_xor, 1, 1, 2,
           "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%0, %1};",
           "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]))
MMA_KERNEL(k_m16n8k128_and, 2, 1, 4,
           "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, "
           "{%0, %1, %2, %3};",
           "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))
MMA_KERNEL(k_m16n8k256_xor, 4, 2, 4,
           "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
           "{%8, %9}, {%0, %1, %2, %3};",
           "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
           : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

typedef void (*mma_kernel)(const unsigned *, const unsigned *, const int *, int *);

/* One mma.sync of shape (m8: 8 or 16 rows) x 8 x kk, EW-bit elements
 * (sa, sb: signed), OP 0 arithmetic, 1 xor, 2 and.  PTX ISA 9.0
 * §9.7.14.5: with nw = kk EW / 32 words a row, A register j of lane l holds
 * word l % 4 + 4 (j / 2) of row l / 4 + 8 (j % 2) (m8n8: j = 0 only); B
 * register j word l % 4 + 4 j of column l / 4; D register j element
 * (l / 4 + 8 (j / 2), 2 (l % 4) + j % 2). */
static void test_mma(const char *name, mma_kernel kern, int rows, int kk, int ew, bool sa, bool sb, bool sat, int op)
{
   int nw = kk * ew / 32, na = rows * nw / 32, nb = 8 * nw / 32, nd = rows * 8 / 32;
   uint32_t A[16 * 8], B[8 * 8], ra[32 * 4], rb[32 * 2];
   int32_t C[32 * 4], want[32 * 4], got[32 * 4];
   for (int i = 0; i < rows * nw; i++)
      A[i] = h32((uint32_t)i, 7 + (uint32_t)kk);
   for (int i = 0; i < 8 * nw; i++)
      B[i] = h32((uint32_t)i, 8 + (uint32_t)kk);
   for (int l = 0; l < 32; l++) {
      for (int j = 0; j < na; j++)
         ra[l * na + j] = A[(l / 4 + 8 * (j % 2)) * nw + l % 4 + 4 * (j / 2)];
      for (int j = 0; j < nb; j++)
         rb[l * nb + j] = B[(l / 4) * nw + l % 4 + 4 * j];
      for (int j = 0; j < nd; j++) {
         int r = l / 4 + 8 * (j / 2), n = 2 * (l % 4) + j % 2;
         C[l * nd + j] = op ? (int32_t)(h32((uint32_t)(r * 8 + n), 9) >> 20) : c_value((uint32_t)(r * 8 + n), 9);
         long long s = 0;
         for (int k = 0; k < kk; k++) {
            long long x = elem(A + r * nw, k, ew, sa), y = elem(B + n * nw, k, ew, sb);
            s += op == 0 ? x * y : op == 1 ? (x ^ y) : (x & y);
         }
         want[l * nd + j] = acc_step(C[l * nd + j], s, sat);
      }
   }
   unsigned *dA, *dB;
   int *dC, *dD;
   CHECK_CUDA(cudaMalloc(&dA, sizeof(ra)));
   CHECK_CUDA(cudaMalloc(&dB, sizeof(rb)));
   CHECK_CUDA(cudaMalloc(&dC, sizeof(C)));
   dD = (int *)dev_alloc_fill32(32 * 4);
   CHECK(dD != NULL);
   CHECK_CUDA(cudaMemcpy(dA, ra, sizeof(ra), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, rb, sizeof(rb), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dC, C, sizeof(C), cudaMemcpyHostToDevice));
   kern<<<1, 32>>>(dA, dB, dC, dD);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dD, (size_t)32 * nd * 4, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32(name, got, want, (size_t)32 * nd);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dD);
}

int main(void)
{
   check_begin("tensor_cores_int");
   test_wmma8<signed char, 16, 16, true, true, false>();
   test_wmma8<signed char, 16, 16, true, true, true>();
   test_wmma8<unsigned char, 16, 16, false, false, false>();
   test_wmma8<signed char, 32, 8, false, true, true>();
   test_wmma8<unsigned char, 32, 8, true, false, false>();
   test_wmma8<signed char, 8, 32, true, false, false>();
   test_wmma8<unsigned char, 8, 32, false, true, true>();
   test_wmma_sub<wmma::experimental::precision::s4, 4, true, false, 0>("wmma 8x8x32 s4 GEMM");
   test_wmma_sub<wmma::experimental::precision::s4, 4, true, true, 0>("wmma 8x8x32 s4 GEMM, satfinite");
   test_wmma_sub<wmma::experimental::precision::u4, 4, false, false, 0>("wmma 8x8x32 u4 GEMM");
   test_wmma_sub<wmma::experimental::precision::b1, 1, false, false, 1>("wmma 8x8x128 b1 XOR POPC GEMM");
   test_wmma_sub<wmma::experimental::precision::b1, 1, false, false, 2>("wmma 8x8x128 b1 AND POPC GEMM");
   test_mma("mma.sync m8n8k16 s8", k_m8n8k16_s8, 8, 16, 8, true, true, false, 0);
   test_mma("mma.sync m8n8k32 u4", k_m8n8k32_u4, 8, 32, 4, false, false, false, 0);
   test_mma("mma.sync m16n8k32 u4.s4", k_m16n8k32_u4s4, 16, 32, 4, false, true, false, 0);
   test_mma("mma.sync m16n8k64 s4 satfinite", k_m16n8k64_s4_sat, 16, 64, 4, true, true, true, 0);
   test_mma("mma.sync m8n8k128 b1 xor.popc", k_m8n8k128_xor, 8, 128, 1, false, false, false, 1);
   test_mma("mma.sync m16n8k128 b1 and.popc", k_m16n8k128_and, 16, 128, 1, false, false, false, 2);
   test_mma("mma.sync m16n8k256 b1 xor.popc", k_m16n8k256_xor, 16, 256, 1, false, false, false, 1);
   return check_end();
}
