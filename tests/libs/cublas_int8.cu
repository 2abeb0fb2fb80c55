/*
 * cublas_int8.cu — cuBLAS's 8-bit integer GEMM: cublasGemmEx,
 * cublasGemmStridedBatchedEx and cublasGemmBatchedEx with CUDA_R_8I A and
 * B, and C CUDA_R_32I (CUBLAS_COMPUTE_32I and its PEDANTIC form, int32
 * scalars) or CUDA_R_32F (CUBLAS_COMPUTE_32F, float scalars), and
 * CUDA_C_8I A and B with CUDA_C_32F C (CgemmEx and GemmEx), and the
 * NOT_SUPPORTED cuBLAS answers for CUDA_C_8I A in CsyrkEx/CherkEx; every
 * transpose pair, sizes from 1 x 1 x 1 to 70 x 66 x 65 with leading
 * dimensions larger than the matrix (the padding must stay untouched),
 * alpha and beta in host and device memory, beta = 0, batches; and the
 * type combinations and layouts cuBLAS refuses.
 *
 * NVIDIA's int32-output kernels (cuBLAS 13.1 on the H200) answer
 * NOT_SUPPORTED unless A, B and C are 4-byte aligned and lda, ldb and the
 * strides of A and B are multiples of 4 (metalcuda refuses the same), and
 * also for shapes its integer kernels do not cover (36 x 36 x 36 op NN is
 * refused, 36 x 8 x 8 is not; 1 x 8 x 8 op TT is refused) and, in some
 * transpose pairs, for an ldc not a multiple of 4 (op TT: 8 x 8 x 8 with
 * ldc 10); so the int32 shapes here have ldc a multiple of 4.  Those shapes
 * (WIDE) must succeed through metalcuda and may be NOT_SUPPORTED natively;
 * the shapes NVIDIA covers (INT32_SHAPES) must succeed everywhere.
 *
 * Expected values: the product by definition on the host in 64-bit
 * integers.  Int32 C: exact (alpha acc + beta C in 32-bit two's
 * complement; the sizes keep every value far from overflow).  Float C:
 * every product and partial sum is an integer below 2^24, so the
 * accumulation is exact in any order and only alpha acc + beta C rounds:
 * within 2 units of the result's precision.  Statuses of refused
 * combinations: an H200's.
 */
#include <cublas_v2.h>
#include "../cuda/check.h"
#include "transfer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <vector>

static cublasHandle_t H;

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static uint32_t rng = 12345;
static int8_t rand8(void)
{
   rng = rng * 1664525u + 1013904223u;
   return (int8_t)(rng >> 24);
}

/* op(X)(i, l) of a column-major X with leading dimension LD */
static int64_t at(const std::vector<int8_t> &x, int64_t ld, bool t, int64_t i, int64_t l)
{
   return t ? x[i * ld + l] : x[l * ld + i];
}

struct shape {
   int m, n, k;
};
/* every shape, float C; WIDE ones for int32 C */
static const shape SHAPES[] = { { 1, 1, 1 }, { 37, 29, 17 }, { 4, 8, 16 }, { 70, 66, 65 }, { 64, 64, 64 } };
/* int32 C: shapes NVIDIA's integer kernels take in every transpose pair */
static const shape INT32_SHAPES[] = { { 8, 8, 8 },  { 4, 8, 8 },  { 8, 12, 8 }, { 8, 8, 16 },
                                      { 32, 8, 8 }, { 8, 64, 8 }, { 8, 8, 64 } };

static int64_t up4(int64_t x)
{
   return (x + 3) / 4 * 4;
}

/* One product: C int32 (compute COMP) or float; WIDE: a shape NVIDIA may
 * refuse (int32 C). */
static void one(const shape &s, bool ta, bool tb, bool int_c, cublasComputeType_t comp, bool dev_scalars, int batch,
                bool arrays, bool wide = false)
{
   int64_t arows = ta ? s.k : s.m, acols = ta ? s.m : s.k, brows = tb ? s.n : s.k, bcols = tb ? s.k : s.n;
   /* int32 C: lda, ldb and the strides multiples of 4 (see above) */
   int64_t lda = int_c ? up4(arows) + 4 : arows + 3, ldb = int_c ? up4(brows) + 4 : brows + 1;
   int64_t ldc = int_c ? up4(s.m) + 4 : s.m + 2;
   int64_t sa = lda * acols + (int_c ? 4 : 5), sb = ldb * bcols + (int_c ? 8 : 7), sc = ldc * s.n + 3;
   std::vector<int8_t> A(sa * batch), B(sb * batch);
   for (auto &v : A)
      v = rand8();
   for (auto &v : B)
      v = rand8();
   std::vector<int32_t> Ci(sc * batch);
   std::vector<float> Cf(sc * batch);
   for (size_t i = 0; i < Ci.size(); i++) {
      Ci[i] = (int32_t)(rng = rng * 1664525u + 1013904223u) >> 12;
      Cf[i] = (float)(Ci[i] >> 4) * 0.25f;
   }
   int32_t ai = 3, bi = -2;
   float af = 0.5f, bf = -1.25f;
   if (s.m == 4)   /* beta = 0 */
      bi = 0, bf = 0;
   const void *alpha = int_c ? (const void *)&ai : (const void *)&af;
   const void *beta = int_c ? (const void *)&bi : (const void *)&bf;
   void *dscal = NULL;
   if (dev_scalars) {
      CHECK_CUDA(cudaMalloc(&dscal, 8));
      CHECK_CUDA(cudaMemcpy(dscal, alpha, 4, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy((char *)dscal + 4, beta, 4, cudaMemcpyHostToDevice));
      cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE);
      alpha = dscal;
      beta = (char *)dscal + 4;
   }
   int8_t *dA = dev(A), *dB = dev(B);
   void *dC = int_c ? (void *)dev(Ci) : (void *)dev(Cf);
   size_t es = 4;
   cudaDataType ct = int_c ? CUDA_R_32I : CUDA_R_32F;
   cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
   cublasStatus_t st;
   if (batch == 1)
      st = cublasGemmEx(H, oa, ob, s.m, s.n, s.k, alpha, dA, CUDA_R_8I, lda, dB, CUDA_R_8I, ldb, beta, dC, ct, ldc, comp,
                        CUBLAS_GEMM_DEFAULT);
   else if (!arrays)
      st = cublasGemmStridedBatchedEx(H, oa, ob, s.m, s.n, s.k, alpha, dA, CUDA_R_8I, lda, sa, dB, CUDA_R_8I, ldb, sb,
                                      beta, dC, ct, ldc, sc, batch, comp, CUBLAS_GEMM_DEFAULT);
   else {
      std::vector<const void *> pa(batch), pb(batch);
      std::vector<void *> pc(batch);
      for (int z = 0; z < batch; z++) {
         /* in reverse order: the arrays, not the strides, place them */
         int r = batch - 1 - z;
         pa[z] = dA + r * sa;
         pb[z] = dB + r * sb;
         pc[z] = (char *)dC + r * sc * es;
      }
      const void **dpa = dev(pa), **dpb = dev(pb);
      void **dpc = dev(pc);
      st = cublasGemmBatchedEx(H, oa, ob, s.m, s.n, s.k, alpha, dpa, CUDA_R_8I, lda, dpb, CUDA_R_8I, ldb, beta, dpc,
                               ct, ldc, batch, comp, CUBLAS_GEMM_DEFAULT);
      CHECK_CUDA(cudaDeviceSynchronize());
      cudaFree(dpa);
      cudaFree(dpb);
      cudaFree(dpc);
   }
   cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST);
   char what[160];
   snprintf(what, sizeof what, "%dx%dx%d op %c%c C %s compute %d%s batch %d%s", s.m, s.n, s.k, ta ? 'T' : 'N',
            tb ? 'T' : 'N', int_c ? "int32" : "float", (int)comp, dev_scalars ? " device scalars" : "", batch,
            arrays ? " (arrays)" : "");
   if (wide && !on_metalcuda() && st == CUBLAS_STATUS_NOT_SUPPORTED) {
      /* NVIDIA's kernels do not cover this shape */
      cudaFree(dA);
      cudaFree(dB);
      cudaFree(dC);
      if (dscal)
         cudaFree(dscal);
      return;
   }
   if (!CHECK_ST(st, CUBLAS_STATUS_SUCCESS))
      printf("  %s: status %d\n", what, (int)st);
   std::vector<int32_t> gi;
   std::vector<float> gf;
   if (int_c)
      gi = host((int32_t *)dC, Ci.size());
   else
      gf = host((float *)dC, Cf.size());
   size_t bad = 0;
   for (int z = 0; z < batch; z++) {
      int r = arrays ? batch - 1 - z : z;
      std::vector<int8_t> Az(A.begin() + r * sa, A.begin() + (r + 1) * sa),
         Bz(B.begin() + r * sb, B.begin() + (r + 1) * sb);
      for (int64_t j = 0; j < s.n; j++)
         for (int64_t i = 0; i < ldc; i++) {
            size_t o = r * sc + j * ldc + i;
            if (i >= s.m) {   /* padding */
               bad += int_c ? gi[o] != Ci[o] : memcmp(&gf[o], &Cf[o], 4) != 0;
               continue;
            }
            int64_t acc = 0;
            for (int64_t l = 0; l < s.k; l++)
               acc += at(Az, lda, ta, i, l) * at(Bz, ldb, tb, l, j);
            if (int_c) {
               int32_t want = (int32_t)(uint32_t)((uint64_t)(ai * acc) + (uint64_t)((int64_t)bi * Ci[o]));
               if (gi[o] != want && bad++ < 3)
                  printf("  %s: C(%lld, %lld) = %d, want %d\n", what, (long long)i, (long long)j, gi[o], want);
            } else {
               double want = (double)af * (double)acc + (double)bf * Cf[o];
               double bound = 2 * 0x1p-24 * (fabs((double)af * acc) + fabs((double)bf * Cf[o]));
               if (fabs(gf[o] - want) > bound && bad++ < 3)
                  printf("  %s: C(%lld, %lld) = %.9g, want %.9g\n", what, (long long)i, (long long)j, gf[o], want);
            }
         }
      /* the gap after this member's C stays untouched */
      for (int64_t o = r * sc + ldc * s.n; o < (r + 1) * sc; o++)
         bad += int_c ? gi[o] != Ci[o] : memcmp(&gf[o], &Cf[o], 4) != 0;
   }
   CHECK_INT(bad, 0);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   if (dscal)
      cudaFree(dscal);
}

/* CUDA_C_8I A and B, CUDA_C_32F C (GemmEx and CgemmEx), op N, T and C. */
static void complex_int8(void)
{
   const int m = 13, n = 9, k = 11, lda = 16, ldb = 12, ldc = 15;
   const cublasOperation_t ops[] = { CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C };
   for (int api = 0; api < 2; api++)
      for (cublasOperation_t oa : ops)
         for (cublasOperation_t ob : ops) {
            std::vector<int8_t> A(2 * lda * 16), B(2 * ldb * 16);
            for (auto &v : A)
               v = rand8();
            for (auto &v : B)
               v = rand8();
            std::vector<float> C(2 * ldc * n);
            for (auto &v : C)
               v = (float)(rand8() / 4);
            float alpha[2] = { 0.5f, -1.0f }, beta[2] = { 2.0f, 0.25f };
            int8_t *dA = dev(A), *dB = dev(B);
            float *dC = dev(C);
            cublasStatus_t st =
               api ? cublasCgemmEx(H, oa, ob, m, n, k, (const cuComplex *)alpha, dA, CUDA_C_8I, lda, dB, CUDA_C_8I,
                                   ldb, (const cuComplex *)beta, dC, CUDA_C_32F, ldc)
                   : cublasGemmEx(H, oa, ob, m, n, k, alpha, dA, CUDA_C_8I, lda, dB, CUDA_C_8I, ldb, beta, dC,
                                  CUDA_C_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            if (!CHECK_ST(st, CUBLAS_STATUS_SUCCESS))
               printf("  complex int8 %s op %d %d: status %d\n", api ? "CgemmEx" : "GemmEx", (int)oa, (int)ob,
                      (int)st);
            std::vector<float> got = host(dC, C.size());
            size_t bad = 0;
            auto el = [](const std::vector<int8_t> &x, int ld, cublasOperation_t op, int i, int l, int64_t *re,
                         int64_t *im) {
               size_t o = op == CUBLAS_OP_N ? (size_t)l * ld + i : (size_t)i * ld + l;
               *re = x[2 * o];
               *im = op == CUBLAS_OP_C ? -x[2 * o + 1] : x[2 * o + 1];
            };
            for (int j = 0; j < n; j++)
               for (int i = 0; i < ldc; i++) {
                  size_t o = 2 * ((size_t)j * ldc + i);
                  if (i >= m) {
                     bad += memcmp(&got[o], &C[o], 8) != 0;
                     continue;
                  }
                  int64_t sr = 0, si = 0;
                  for (int l = 0; l < k; l++) {
                     int64_t ar, ai, br, bi;
                     el(A, lda, oa, i, l, &ar, &ai);
                     el(B, ldb, ob, l, j, &br, &bi);
                     sr += ar * br - ai * bi;
                     si += ar * bi + ai * br;
                  }
                  double wr = alpha[0] * (double)sr - alpha[1] * (double)si + beta[0] * C[o] - beta[1] * C[o + 1];
                  double wi = alpha[0] * (double)si + alpha[1] * (double)sr + beta[0] * C[o + 1] + beta[1] * C[o];
                  double mag = fabs(alpha[0] * (double)sr) + fabs(alpha[1] * (double)si) + fabs(alpha[0] * (double)si) +
                               fabs(alpha[1] * (double)sr) + 2.5 * (fabs(C[o]) + fabs(C[o + 1]));
                  if ((fabs(got[o] - wr) > 4 * 0x1p-24 * mag || fabs(got[o + 1] - wi) > 4 * 0x1p-24 * mag) &&
                      bad++ < 3)
                     printf("  complex int8 op %d %d: C(%d, %d) = (%g, %g), want (%g, %g)\n", (int)oa, (int)ob, i, j,
                            got[o], got[o + 1], wr, wi);
               }
            CHECK_INT(bad, 0);
            cudaFree(dA);
            cudaFree(dB);
            cudaFree(dC);
         }
}

/* What an H200's cuBLAS refuses. */
static void refused(void)
{
   void *d;
   CHECK_CUDA(cudaMalloc(&d, 4096));
   int32_t ai = 1, bi = 0;
   float af = 1, bf = 0;
   struct {
      cudaDataType at, bt, ct;
      cublasComputeType_t comp;
      bool int_scalars;
      cublasStatus_t want;
   } cases[] = {
      /* int8 in, int8 out */
      { CUDA_R_8I, CUDA_R_8I, CUDA_R_8I, CUBLAS_COMPUTE_32I, true, CUBLAS_STATUS_NOT_SUPPORTED },
      /* int32 C with a float compute type */
      { CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32F, false, CUBLAS_STATUS_NOT_SUPPORTED },
      /* float C with the integer compute type */
      { CUDA_R_8I, CUDA_R_8I, CUDA_R_32F, CUBLAS_COMPUTE_32I, true, CUBLAS_STATUS_NOT_SUPPORTED },
      /* mixed A and B */
      { CUDA_R_8I, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, false, CUBLAS_STATUS_NOT_SUPPORTED },
      /* unsigned 8-bit */
      { CUDA_R_8U, CUDA_R_8U, CUDA_R_32I, CUBLAS_COMPUTE_32I, true, CUBLAS_STATUS_NOT_SUPPORTED },
      /* float data, integer compute */
      { CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32I, true, CUBLAS_STATUS_NOT_SUPPORTED },
   };
   /* int32 C: the layouts NVIDIA's integer kernels refuse */
   struct {
      int lda, ldb, aoff, coff;
      long long sa;
   } layouts[] = { { 9, 8, 0, 0, 0 }, { 8, 10, 0, 0, 0 }, { 8, 8, 1, 0, 0 }, { 8, 8, 0, 2, 0 }, { 8, 8, 0, 0, 65 } };
   for (auto &l : layouts) {
      cublasStatus_t st =
         l.sa ? cublasGemmStridedBatchedEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &ai, d, CUDA_R_8I, l.lda, l.sa, d,
                                           CUDA_R_8I, l.ldb, 64, &bi, (char *)d + 2048, CUDA_R_32I, 8, 64, 3,
                                           CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT)
              : cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &ai, (char *)d + l.aoff, CUDA_R_8I, l.lda, d,
                             CUDA_R_8I, l.ldb, &bi, (char *)d + 2048 + l.coff, CUDA_R_32I, 8, CUBLAS_COMPUTE_32I,
                             CUBLAS_GEMM_DEFAULT);
      if (!CHECK_ST(st, CUBLAS_STATUS_NOT_SUPPORTED))
         printf("  int8 GemmEx lda %d ldb %d A offset %d C offset %d strideA %lld: status %d\n", l.lda, l.ldb, l.aoff,
                l.coff, l.sa, (int)st);
   }
   for (auto &c : cases) {
      cublasStatus_t st = cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, c.int_scalars ? (void *)&ai : (void *)&af,
                                       d, c.at, 8, d, c.bt, 8, c.int_scalars ? (void *)&bi : (void *)&bf, d, c.ct, 8,
                                       c.comp, CUBLAS_GEMM_DEFAULT);
      if (!CHECK_ST(st, c.want))
         printf("  GemmEx A %d B %d C %d compute %d: status %d\n", (int)c.at, (int)c.bt, (int)c.ct, (int)c.comp,
                (int)st);
   }
   CHECK_CUDA(cudaFree(d));
}

/* CUDA_C_8I A with CUDA_C_32F C in CsyrkEx, Csyrk3mEx, CherkEx and
 * Cherk3mEx: cuBLAS documents the combination, but cuBLAS 13.1 on an H200
 * answers NOT_SUPPORTED for every shape (n, k 4 to 32, lda and ldc 4 to
 * 32, op N, T, C), after its argument checks (ldc < n: INVALID_VALUE);
 * C stays untouched. */
static void complex_int8_rk(void)
{
   const int n = 16, k = 16, lda = 16, ldc = 16;
   std::vector<int8_t> A(2 * lda * k, 1);
   std::vector<float> C(2 * ldc * n, 3.0f);
   int8_t *dA = dev(A);
   float *dC = dev(C);
   float alpha[2] = { 1.0f, 0.0f }, beta[2] = { 0.0f, 0.0f };
   const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
   for (int herm = 0; herm < 2; herm++)
      for (int three_m = 0; three_m < 2; three_m++)
         for (int bad_ldc = 0; bad_ldc < 2; bad_ldc++) {
            int l = bad_ldc ? n - 1 : ldc;
            cublasOperation_t op = herm ? CUBLAS_OP_C : CUBLAS_OP_T;
            cublasStatus_t st;
            if (herm)
               st = three_m ? cublasCherk3mEx(H, lo, op, n, k, alpha, dA, CUDA_C_8I, lda, beta, dC, CUDA_C_32F, l)
                            : cublasCherkEx(H, lo, CUBLAS_OP_N, n, k, alpha, dA, CUDA_C_8I, lda, beta, dC, CUDA_C_32F, l);
            else
               st = three_m ? cublasCsyrk3mEx(H, lo, op, n, k, (const cuComplex *)alpha, dA, CUDA_C_8I, lda,
                                              (const cuComplex *)beta, dC, CUDA_C_32F, l)
                            : cublasCsyrkEx(H, lo, CUBLAS_OP_N, n, k, (const cuComplex *)alpha, dA, CUDA_C_8I, lda,
                                            (const cuComplex *)beta, dC, CUDA_C_32F, l);
            CHECK_ST(st, bad_ldc ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_SUPPORTED);
         }
   std::vector<float> got = host(dC, C.size());
   CHECK_INT(memcmp(got.data(), C.data(), C.size() * sizeof(float)), 0);
   cudaFree(dA);
   cudaFree(dC);
}

int main(int argc, char **argv)
{
   check_begin("cublas_int8");
   if (!CHECK_ST(cublasCreate(&H), CUBLAS_STATUS_SUCCESS))
      return check_end();
   for (int t = 0; t < 4; t++) {
      for (const shape &s : SHAPES) {
         one(s, t & 1, t >> 1, true, CUBLAS_COMPUTE_32I, false, 1, false, true);
         one(s, t & 1, t >> 1, false, CUBLAS_COMPUTE_32F, false, 1, false);
      }
      for (const shape &s : INT32_SHAPES)
         one(s, t & 1, t >> 1, true, CUBLAS_COMPUTE_32I, false, 1, false);
   }
   const shape &s = INT32_SHAPES[2];
   one(s, false, true, true, CUBLAS_COMPUTE_32I_PEDANTIC, false, 1, false);
   one(s, true, false, true, CUBLAS_COMPUTE_32I, true, 1, false);
   one(SHAPES[1], false, false, false, CUBLAS_COMPUTE_32F, true, 1, false);
   one(s, true, false, true, CUBLAS_COMPUTE_32I, false, 3, false);
   one(SHAPES[1], false, true, false, CUBLAS_COMPUTE_32F, false, 3, false);
   one(s, false, false, true, CUBLAS_COMPUTE_32I, false, 3, true);
   one(SHAPES[1], true, true, false, CUBLAS_COMPUTE_32F, false, 2, true);
   complex_int8();
   complex_int8_rk();
   refused();
   CHECK_ST(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
