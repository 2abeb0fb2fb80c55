/*
 * cublasLt_matmul.cu — cuBLASLt through the library a program links:
 * handles, versions, matmul descriptors, matrix layouts and preferences
 * (attributes set, read back, the size query, wrong sizes), the heuristic,
 * and cublasLtMatmul: f32 in every transpose pair with odd sizes and
 * padded leading dimensions, row-major and mixed-order layouts, C distinct
 * from D (C untouched) and in place, strided batches with a B shared by
 * every member (stride 0), f16 in with f32 and f16 out, f64, c32 with op C, alpha and
 * beta in device memory, bfloat16 in with f32 and bf16 out, the BIAS,
 * RELU_BIAS, GELU and GELU_BIAS
 * epilogues (a bias with a row-major D refused, as cuBLASLt does), a
 * stream; inconsistent shapes.
 *
 * Expected values: the product by definition in double on the host (the
 * 16-bit inputs converted exactly) within 2(k+2)u(|alpha||A||B| +
 * |beta||C|) of D's precision u (plus one rounding of D for epilogues on
 * a 16-bit D), the epilogue applied to the double result (GELU in cuBLASLt's
 * tanh form).  Statuses: an H200's.
 */
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "../cuda/check.h"
#include "transfer.h"
#include "lt_values.h"

#include <math.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))
static cublasLtHandle_t LT;
static const double UF = 0x1p-24, UD = 0x1p-53, UH = 0x1p-11, UB = 0x1p-8;

static bool near(double got, double want, double bound, const char *what)
{
   bool ok = fabs(got - want) <= bound;
   if (!ok)
      printf("  %s: got %.17g, want %.17g (bound %.3g)\n", what, got, want, bound);
   return CHECK(ok);
}


static double gelu(double x)
{
   return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

/* element (i, j) of a rows x cols matrix with leading dimension ld in an order */
static size_t at(bool row_major, int64_t i, int64_t j, int64_t ld)
{
   return row_major ? (size_t)(i * ld + j) : (size_t)(j * ld + i);
}

struct mm_case {
   const char *name;
   cublasOperation_t ta, tb;
   int m, n, k;
   bool rowA, rowB, rowCD;
   int pad;            /* added to each leading dimension */
   int batch;
   bool shareB;        /* B one matrix for every batch member */
   bool inplace;       /* C = D */
   bool dev_scalars;
   uint32_t epilogue;
   cublasStatus_t expect;   /* of the heuristic and the matmul (cuBLASLt refuses some) */
};

/* D = epi(alpha op(A) op(B) + beta C) for AB-type TI, CD-type TO */
template <class TI, class TO>
static void matmul_case(const mm_case &c, cudaDataType ti, cudaDataType to, cublasComputeType_t comp,
                        cudaDataType scale, double u)
{
   const int m = c.m, n = c.n, k = c.k;
   int64_t ar = c.ta == CUBLAS_OP_N ? m : k, ac = c.ta == CUBLAS_OP_N ? k : m;
   int64_t br = c.tb == CUBLAS_OP_N ? k : n, bc = c.tb == CUBLAS_OP_N ? n : k;
   int64_t lda = (c.rowA ? ac : ar) + c.pad, ldb = (c.rowB ? bc : br) + c.pad, ldc = (c.rowCD ? n : m) + c.pad;
   int64_t sa = lda * (c.rowA ? ar : ac), sb = ldb * (c.rowB ? br : bc), sc = ldc * (c.rowCD ? m : n);
   int bb = c.shareB ? 1 : c.batch;
   std::vector<TI> A(sa * c.batch), B(sb * bb);
   std::vector<TO> C(sc * c.batch), D(sc * c.batch);
   std::vector<TO> bias(m * c.batch);
   for (size_t i = 0; i < A.size(); i++)
      A[i] = from<TI>((double)((i * 7 + 3) % 17) / 8 - 1);
   for (size_t i = 0; i < B.size(); i++)
      B[i] = from<TI>((double)((i * 5 + 1) % 13) / 4 - 1.5);
   for (size_t i = 0; i < C.size(); i++) {
      C[i] = from<TO>((double)((i * 3) % 11) / 2 - 2.5);
      D[i] = from<TO>(-777);
   }
   for (size_t i = 0; i < bias.size(); i++)
      bias[i] = from<TO>((double)(i % 9) / 4 - 1);
   TI *dA = dev(A), *dB = dev(B);
   TO *dC = dev(C), *dD = c.inplace ? dC : dev(D), *dbias = dev(bias);
   float alpha32 = 0.75f, beta32 = -1.25f;
   double alpha64 = 0.75, beta64 = -1.25;
   __half alpha16 = __double2half(0.75), beta16 = __double2half(-1.25);
   const void *alpha = scale == CUDA_R_64F ? (const void *)&alpha64 : scale == CUDA_R_16F ? (const void *)&alpha16
                                                                                          : (const void *)&alpha32;
   const void *beta = scale == CUDA_R_64F ? (const void *)&beta64 : scale == CUDA_R_16F ? (const void *)&beta16
                                                                                       : (const void *)&beta32;
   size_t ssz = scale == CUDA_R_64F ? 8 : scale == CUDA_R_16F ? 2 : 4;
   char *dscal = NULL;
   if (c.dev_scalars) {
      CHECK_CUDA(cudaMalloc(&dscal, 32));
      CHECK_CUDA(cudaMemcpy(dscal, alpha, ssz, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dscal + 16, beta, ssz, cudaMemcpyHostToDevice));
      alpha = dscal;
      beta = dscal + 16;
   }
   cublasLtMatmulDesc_t desc;
   CHECK_ST(cublasLtMatmulDescCreate(&desc, comp, scale), CUBLAS_STATUS_SUCCESS);
   int32_t ta = c.ta, tb = c.tb;
   CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)), CUBLAS_STATUS_SUCCESS);
   if (c.dev_scalars) {
      int32_t pm = CUBLASLT_POINTER_MODE_DEVICE;
      CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, sizeof(pm)),
               CUBLAS_STATUS_SUCCESS);
   }
   uint32_t epi = c.epilogue;
   CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)),
            CUBLAS_STATUS_SUCCESS);
   bool has_bias = epi == CUBLASLT_EPILOGUE_BIAS || epi == CUBLASLT_EPILOGUE_RELU_BIAS || epi == CUBLASLT_EPILOGUE_GELU_BIAS;
   if (has_bias) {
      const void *bp = dbias;
      int64_t bs = m;
      CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof(bp)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &bs, sizeof(bs)),
               CUBLAS_STATUS_SUCCESS);
   }
   cublasLtMatrixLayout_t la, lb, lc;
   CHECK_ST(cublasLtMatrixLayoutCreate(&la, ti, ar, ac, lda), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&lb, ti, br, bc, ldb), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&lc, to, m, n, ldc), CUBLAS_STATUS_SUCCESS);
   int32_t row = CUBLASLT_ORDER_ROW;
   if (c.rowA)
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(la, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof(row)), CUBLAS_STATUS_SUCCESS);
   if (c.rowB)
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lb, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof(row)), CUBLAS_STATUS_SUCCESS);
   if (c.rowCD)
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof(row)), CUBLAS_STATUS_SUCCESS);
   if (c.batch > 1) {
      int32_t nb = c.batch;
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(la, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &nb, sizeof(nb)), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(la, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof(sa)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &nb, sizeof(nb)), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sc, sizeof(sc)),
               CUBLAS_STATUS_SUCCESS);
      int64_t sbb = c.shareB ? 0 : sb;   /* a stride of 0: one B for every member */
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lb, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &nb, sizeof(nb)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(lb, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sbb, sizeof(sbb)),
               CUBLAS_STATUS_SUCCESS);
   }
   cublasLtMatmulPreference_t pref;
   CHECK_ST(cublasLtMatmulPreferenceCreate(&pref), CUBLAS_STATUS_SUCCESS);
   uint64_t ws = 1 << 22;
   CHECK_ST(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
            CUBLAS_STATUS_SUCCESS);
   cublasLtMatmulHeuristicResult_t res[4];
   int nres = 0;
   cudaStream_t st;
   CHECK_CUDA(cudaStreamCreate(&st));
   CHECK_ST(cublasLtMatmulAlgoGetHeuristic(LT, desc, la, lb, lc, lc, pref, 4, res, &nres), c.expect);
   void *work = NULL;
   if (c.expect != CUBLAS_STATUS_SUCCESS) {
      CHECK_INT(nres, 0);
      CHECK_ST(cublasLtMatmul(LT, desc, alpha, dA, la, dB, lb, beta, dC, lc, dD, lc, NULL, NULL, 0, st), c.expect);
   } else {
      CHECK(nres >= 1);
      if (nres >= 1 && res[0].workspaceSize)
         CHECK_CUDA(cudaMalloc(&work, res[0].workspaceSize));
      CHECK_ST(cublasLtMatmul(LT, desc, alpha, dA, la, dB, lb, beta, dC, lc, dD, lc, nres >= 1 ? &res[0].algo : NULL,
                              work, nres >= 1 ? res[0].workspaceSize : 0, st),
               CUBLAS_STATUS_SUCCESS);
   }
   CHECK_CUDA(cudaStreamSynchronize(st));
   std::vector<TO> got = host(dD, D.size());
   if (!c.inplace) {   /* C untouched */
      std::vector<TO> gc = host(dC, C.size());
      CHECK(memcmp(gc.data(), C.data(), C.size() * sizeof(TO)) == 0);
   }
   long bad = 0;
   for (int z = 0; c.expect == CUBLAS_STATUS_SUCCESS && z < c.batch; z++)
      for (int j = 0; j < n; j++)
         for (int i = 0; i < m; i++) {
            double w = 0, mg = 0;
            for (int l = 0; l < k; l++) {
               size_t ia = c.ta == CUBLAS_OP_N ? at(c.rowA, i, l, lda) : at(c.rowA, l, i, lda);
               size_t ib = c.tb == CUBLAS_OP_N ? at(c.rowB, l, j, ldb) : at(c.rowB, j, l, ldb);
               double p = val(A[z * sa + ia]) * val(B[(c.shareB ? 0 : z) * sb + ib]);
               w += p;
               mg += fabs(p);
            }
            size_t id = z * sc + at(c.rowCD, i, j, ldc);
            double cv = val(C[id]);
            double v = 0.75 * w - 1.25 * cv, bound = 2 * (k + 2) * u * (0.75 * mg + 1.25 * fabs(cv)) + 1e-300;
            if (has_bias)
               v += val(bias[z * m + i]);
            if (epi == CUBLASLT_EPILOGUE_RELU_BIAS || epi == CUBLASLT_EPILOGUE_RELU)
               v = v > 0 ? v : 0;
            if (epi == CUBLASLT_EPILOGUE_GELU || epi == CUBLASLT_EPILOGUE_GELU_BIAS) {
               v = gelu(v);
               bound = 1.2 * bound + 8 * UF * fabs(v) + 1e-6;
            }
            if (epi != CUBLASLT_EPILOGUE_DEFAULT)
               bound += 2 * u * (fabs(v) + (has_bias ? fabs(val(bias[z * m + i])) : 0));
            if (fabs(val(got[id]) - v) > bound && bad++ < 4)
               near(val(got[id]), v, bound, c.name);
         }
   CHECK(bad == 0);
   if (bad)
      printf("  %s: %ld of %d elements wrong\n", c.name, bad, m * n * c.batch);
   CHECK_CUDA(cudaStreamDestroy(st));
   cublasLtMatmulPreferenceDestroy(pref);
   cublasLtMatrixLayoutDestroy(la);
   cublasLtMatrixLayoutDestroy(lb);
   cublasLtMatrixLayoutDestroy(lc);
   cublasLtMatmulDescDestroy(desc);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   if (!c.inplace)
      cudaFree(dD);
   cudaFree(dbias);
   cudaFree(dscal);
   cudaFree(work);
}

static void basics(void)
{
   size_t v = cublasLtGetVersion();
   int major = 0, minor = 0, patch = 0;
   CHECK_ST(cublasLtGetProperty(MAJOR_VERSION, &major), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtGetProperty(MINOR_VERSION, &minor), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtGetProperty(PATCH_LEVEL, &patch), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, major * 10000 + minor * 100 + patch);
   CHECK(major >= 12);
   CHECK(strcmp(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED") == 0);
   /* descriptor attributes: read back, the size query, wrong sizes */
   cublasLtMatmulDesc_t d;
   CHECK_ST(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   int32_t t = CUBLAS_OP_T, got = -1;
   size_t w = 0;
   CHECK_ST(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &got, sizeof(got), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(got, CUBLAS_OP_T);
   CHECK_INT(w, 4);
   CHECK_ST(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSB, &got, sizeof(got), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(got, CUBLAS_OP_N);
   int32_t ct = -1;
   CHECK_ST(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &ct, sizeof(ct), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ct, CUBLAS_COMPUTE_32F);
   uint32_t epi = 0;
   CHECK_ST(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(epi, CUBLASLT_EPILOGUE_DEFAULT);
   w = 0;
   CHECK_ST(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_BIAS_POINTER, NULL, 0, &w), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(w, sizeof(void *));
   int64_t big = 1;
   CHECK_ST(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &big, sizeof(big)), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasLtMatmulDescDestroy(d), CUBLAS_STATUS_SUCCESS);
   /* a descriptor in the caller's storage */
   cublasLtMatmulDescOpaque_t mine;
   CHECK_ST(cublasLtMatmulDescInit(&mine, CUBLAS_COMPUTE_64F, CUDA_R_64F), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatmulDescGetAttribute(&mine, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &ct, sizeof(ct), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ct, CUDA_R_64F);
   cublasLtMatrixLayout_t l;
   CHECK_ST(cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 7, 5, 9), CUBLAS_STATUS_SUCCESS);
   uint64_t rows = 0;
   int64_t ld = 0;
   int32_t order = -1, batch = 0;
   CHECK_ST(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof(rows), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_LD, &ld, sizeof(ld), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order), &w), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(rows, 7);
   CHECK_INT(ld, 9);
   CHECK_INT(order, CUBLASLT_ORDER_COL);
   CHECK_INT(batch, 1);
   CHECK_ST(cublasLtMatrixLayoutDestroy(l), CUBLAS_STATUS_SUCCESS);
   cublasLtMatmulPreference_t p;
   CHECK_ST(cublasLtMatmulPreferenceCreate(&p), CUBLAS_STATUS_SUCCESS);
   uint64_t ws = 12345, wr = 0;
   CHECK_ST(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatmulPreferenceGetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wr, sizeof(wr), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(wr, 12345);
   CHECK_ST(cublasLtMatmulPreferenceDestroy(p), CUBLAS_STATUS_SUCCESS);
}

/* inconsistent shapes: op(A) 4 x 3 against op(B) 5 x 6 */
static void bad_shapes(void)
{
   cublasLtMatmulDesc_t d;
   CHECK_ST(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   cublasLtMatrixLayout_t la, lb, lc;
   cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, 4, 3, 4);
   cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, 5, 6, 5);
   cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, 4, 6, 4);
   float *buf = NULL;
   CHECK_CUDA(cudaMalloc(&buf, 1024));
   float one = 1, zero = 0;
   CHECK_ST(cublasLtMatmul(LT, d, &one, buf, la, buf, lb, &zero, buf, lc, buf, lc, NULL, NULL, 0, 0),
            CUBLAS_STATUS_INVALID_VALUE);
   cudaFree(buf);
   cublasLtMatrixLayoutDestroy(la);
   cublasLtMatrixLayoutDestroy(lb);
   cublasLtMatrixLayoutDestroy(lc);
   cublasLtMatmulDescDestroy(d);
}

int main(void)
{
   check_begin("cublasLt_matmul");
   if (cublasLtCreate(&LT) != CUBLAS_STATUS_SUCCESS) {
      CHECK(false);
      return check_end();
   }
   basics();
   const cublasOperation_t ops[2] = { CUBLAS_OP_N, CUBLAS_OP_T };
   for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
         mm_case c = { "f32", ops[a], ops[b], 37, 29, 17, false, false, false, 3, 1, false, false, false,
                       CUBLASLT_EPILOGUE_DEFAULT };
         matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
         c.name = "f32 row-major";
         c.rowA = c.rowB = c.rowCD = true;
         matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
         c.name = "f32 mixed orders";
         c.rowA = a == b;
         c.rowB = a != b;
         c.rowCD = a == 1;
         matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
      }
   mm_case c = { "f32 batched, B shared, in place", CUBLAS_OP_T, CUBLAS_OP_N, 21, 13, 9, false, false, false, 2, 3,
                 true, true, false, CUBLASLT_EPILOGUE_DEFAULT };
   matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
   c = { "f32 scalars in device memory", CUBLAS_OP_N, CUBLAS_OP_T, 16, 40, 33, false, false, false, 0, 1, false, false,
         true, CUBLASLT_EPILOGUE_DEFAULT };
   matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
   c = { "f16 in, f32 out", CUBLAS_OP_N, CUBLAS_OP_N, 33, 20, 24, false, false, false, 1, 1, false, false, false,
         CUBLASLT_EPILOGUE_DEFAULT };
   matmul_case<__half, float>(c, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
   c.name = "f16 in, f16 out";
   matmul_case<__half, __half>(c, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UH);
   c = { "f64 row-major, batched", CUBLAS_OP_T, CUBLAS_OP_T, 19, 23, 11, true, true, true, 2, 2, false, false, false,
         CUBLASLT_EPILOGUE_DEFAULT };
   matmul_case<double, double>(c, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, UD);
   const uint32_t epis[4] = { CUBLASLT_EPILOGUE_BIAS, CUBLASLT_EPILOGUE_RELU_BIAS, CUBLASLT_EPILOGUE_GELU,
                              CUBLASLT_EPILOGUE_GELU_BIAS };
   const char *en[4][3] = { { "BIAS", "BIAS row-major", "BIAS f16" },
                            { "RELU_BIAS", "RELU_BIAS row-major", "RELU_BIAS f16" },
                            { "GELU", "GELU row-major", "GELU f16" },
                            { "GELU_BIAS", "GELU_BIAS row-major", "GELU_BIAS f16" } };
   for (int e = 0; e < 4; e++) {
      c = { en[e][0], CUBLAS_OP_T, CUBLAS_OP_N, 27, 18, 16, false, false, false, 1, 2, false, false, false, epis[e] };
      matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
      c.rowA = c.rowB = c.rowCD = true;
      c.name = en[e][1];
      /* a bias with a row-major D: not supported by cuBLASLt (an H200's answer) */
      c.expect = epis[e] == CUBLASLT_EPILOGUE_GELU ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
      matmul_case<float, float>(c, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
      c.rowA = c.rowB = c.rowCD = false;
      c.batch = 1;
      c.name = en[e][2];
      c.expect = CUBLAS_STATUS_SUCCESS;
      matmul_case<__half, __half>(c, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UH);
   }
   /* bfloat16 in, bfloat16 and float out, float compute */
   c = { "bf16 in, f32 out", CUBLAS_OP_T, CUBLAS_OP_N, 33, 20, 24, false, false, false, 1, 1, false, false, false,
         CUBLASLT_EPILOGUE_DEFAULT };
   matmul_case<__nv_bfloat16, float>(c, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, UF);
   c.name = "bf16 in, bf16 out, GELU_BIAS";
   c.epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
   matmul_case<__nv_bfloat16, __nv_bfloat16>(c, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, UB);
   bad_shapes();
   CHECK_ST(cublasLtDestroy(LT), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
