/*
 * cublasLt_transform.cu — cublasLtMatrixTransform, C = alpha op(A) +
 * beta op(B), through the library a program links: the transform
 * descriptor (attributes set and read back, the size query, a wrong size,
 * one in the caller's storage); column-major to row-major and back, with
 * padded leading dimensions; A transposed and B not, and the reverse;
 * strided batches; alpha and beta in device memory; f32,
 * f64, f16 and bf16; a stream; the status of shapes that disagree.
 *
 * Expected values: every element and scalar is a small multiple of a
 * power of two, so alpha a + beta b is exact in the scale type whatever
 * the order or contraction of the arithmetic, and C must equal the host's
 * sum bit for bit.
 *
 * Not tested: a NULL A or B (no term, as NVIDIA's header describes it and
 * metalcuda takes it) and an A without its layout (INVALID_VALUE, the
 * header says): with either, cuBLASLt 13.1 on an H200 read illegal
 * addresses or crashed the program.
 */
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "../cuda/check.h"
#include "transfer.h"
#include "lt_values.h"

#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))
static cublasLtHandle_t LT;


static size_t at(bool row_major, int64_t i, int64_t j, int64_t ld)
{
   return row_major ? (size_t)(i * ld + j) : (size_t)(j * ld + i);
}

struct tr_case {
   const char *name;
   int rows, cols;          /* of C */
   bool ta, tb;             /* op(A), op(B) transposed */
   bool rowA, rowB, rowC;
   int pad, batch;
   bool dev_scalars;
};

template <class T>
static void transform_case(const tr_case &c, cudaDataType type, cudaDataType scale, cudaStream_t stream)
{
   const int64_t m = c.rows, n = c.cols;
   int64_t ar = c.ta ? n : m, ac = c.ta ? m : n, br = c.tb ? n : m, bc = c.tb ? m : n;
   int64_t lda = (c.rowA ? ac : ar) + c.pad, ldb = (c.rowB ? bc : br) + c.pad, ldc = (c.rowC ? n : m) + c.pad;
   int64_t sa = lda * (c.rowA ? ar : ac), sb = ldb * (c.rowB ? br : bc), sc = ldc * (c.rowC ? m : n);
   std::vector<T> A(sa * c.batch), B(sb * c.batch), C(sc * c.batch, from<T>(-77));
   for (size_t i = 0; i < A.size(); i++)
      A[i] = from<T>((double)((i * 7 + 3) % 17) / 4 - 2);
   for (size_t i = 0; i < B.size(); i++)
      B[i] = from<T>((double)((i * 5 + 1) % 13) / 2 - 3);
   T *dA = dev(A), *dB = dev(B), *dC = dev(C);
   float a32 = 1.5f, b32 = -0.25f;
   double a64 = 1.5, b64 = -0.25;
   bool dbl = scale == CUDA_R_64F;
   const void *alpha = dbl ? (const void *)&a64 : (const void *)&a32;
   const void *beta = dbl ? (const void *)&b64 : (const void *)&b32;
   char *dscal = NULL;
   if (c.dev_scalars) {
      CHECK_CUDA(cudaMalloc(&dscal, 32));
      CHECK_CUDA(cudaMemcpy(dscal, alpha, dbl ? 8 : 4, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dscal + 16, beta, dbl ? 8 : 4, cudaMemcpyHostToDevice));
      alpha = dscal;
      beta = dscal + 16;
   }
   cublasLtMatrixTransformDesc_t desc;
   CHECK_ST(cublasLtMatrixTransformDescCreate(&desc, scale), CUBLAS_STATUS_SUCCESS);
   int32_t ta = c.ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb = c.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
   CHECK_ST(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &ta, sizeof(ta)),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, &tb, sizeof(tb)),
            CUBLAS_STATUS_SUCCESS);
   if (c.dev_scalars) {
      int32_t pm = CUBLASLT_POINTER_MODE_DEVICE;
      CHECK_ST(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, &pm,
                                                       sizeof(pm)),
               CUBLAS_STATUS_SUCCESS);
   }
   cublasLtMatrixLayout_t la, lb, lc;
   CHECK_ST(cublasLtMatrixLayoutCreate(&la, type, ar, ac, lda), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&lb, type, br, bc, ldb), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&lc, type, m, n, ldc), CUBLAS_STATUS_SUCCESS);
   const cublasLtMatrixLayout_t ls[3] = { la, lb, lc };
   const bool rows[3] = { c.rowA, c.rowB, c.rowC };
   const int64_t strides[3] = { sa, sb, sc };
   for (int k = 0; k < 3; k++) {
      int32_t order = rows[k] ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL, batch = c.batch;
      int64_t stride = strides[k];
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(ls[k], CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(ls[k], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatrixLayoutSetAttribute(ls[k], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                                sizeof(stride)),
               CUBLAS_STATUS_SUCCESS);
   }
   CHECK_ST(cublasLtMatrixTransform(LT, desc, alpha, dA, la, beta, dB, lb, dC, lc, stream), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaStreamSynchronize(stream));
   std::vector<T> got = host(dC, C.size());
   size_t bad = 0;
   for (int b = 0; b < c.batch; b++)
      for (int64_t i = 0; i < m; i++)
         for (int64_t j = 0; j < n; j++) {
            double want = 1.5 * val(A[b * sa + (c.ta ? at(c.rowA, j, i, lda) : at(c.rowA, i, j, lda))]) -
                          0.25 * val(B[b * sb + (c.tb ? at(c.rowB, j, i, ldb) : at(c.rowB, i, j, ldb))]);
            double g = val(got[b * sc + at(c.rowC, i, j, ldc)]);
            if (g != want && bad++ < 3)
               printf("  %s: C(%d, %lld, %lld) = %g, want %g\n", c.name, b, (long long)i, (long long)j, g, want);
         }
   /* the padding of C is untouched */
   size_t touched = 0;
   for (int b = 0; b < c.batch; b++)
      for (int64_t p = 0; p < sc; p++) {
         int64_t major = p / ldc, minor = p % ldc;
         bool inside = c.rowC ? (major < m && minor < n) : (major < n && minor < m);
         touched += !inside && val(got[b * sc + p]) != -77;
      }
   printf("  %s: %zu of %zu elements wrong, %zu padding elements written\n", c.name, bad,
          (size_t)(m * n * c.batch), touched);
   fflush(stdout);
   CHECK_INT(bad, 0);
   CHECK_INT(touched, 0);
   cublasLtMatrixLayoutDestroy(la);
   cublasLtMatrixLayoutDestroy(lb);
   cublasLtMatrixLayoutDestroy(lc);
   cublasLtMatrixTransformDescDestroy(desc);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dscal);
}

static void descriptor_attributes(void)
{
   cublasLtMatrixTransformDesc_t d;
   CHECK_ST(cublasLtMatrixTransformDescCreate(&d, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   int32_t v = -1;
   size_t w = 0;
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, &v, sizeof(v), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, CUDA_R_32F);
   CHECK_INT(w, 4);
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &v, sizeof(v), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, CUBLAS_OP_N);
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, &v, sizeof(v), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, CUBLASLT_POINTER_MODE_HOST);
   w = 0;
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, NULL, 0, &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(w, 4);
   int32_t t = CUBLAS_OP_T;
   CHECK_ST(cublasLtMatrixTransformDescSetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, &t, sizeof(t)),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, &v, sizeof(v), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, CUBLAS_OP_T);
   int64_t wrong = 0;
   CHECK_ST(cublasLtMatrixTransformDescSetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &wrong, sizeof(wrong)),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasLtMatrixTransformDescDestroy(d), CUBLAS_STATUS_SUCCESS);
   /* in the caller's storage */
   cublasLtMatrixTransformDescOpaque_t own;
   CHECK_ST(cublasLtMatrixTransformDescInit(&own, CUDA_R_64F), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixTransformDescGetAttribute(&own, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, &v, sizeof(v), &w),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, CUDA_R_64F);
}

static void statuses(void)
{
   cublasLtMatrixTransformDesc_t d;
   cublasLtMatrixLayout_t l34, l43;
   float *p;
   float one = 1, zero = 0;
   CHECK_CUDA(cudaMalloc(&p, 64 * sizeof(float)));
   CHECK_ST(cublasLtMatrixTransformDescCreate(&d, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&l34, CUDA_R_32F, 3, 4, 3), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&l43, CUDA_R_32F, 4, 3, 4), CUBLAS_STATUS_SUCCESS);
   /* op(A) of another shape than C */
   CHECK_ST(cublasLtMatrixTransform(LT, d, &one, p, l43, &zero, p + 16, l34, p + 32, l34, 0),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_CUDA(cudaDeviceSynchronize());
   cublasLtMatrixLayoutDestroy(l34);
   cublasLtMatrixLayoutDestroy(l43);
   cublasLtMatrixTransformDescDestroy(d);
   cudaFree(p);
}

int main(void)
{
   check_begin("cublasLt_transform");
   CHECK_ST(cublasLtCreate(&LT), CUBLAS_STATUS_SUCCESS);
   printf("  descriptor attributes\n");
   fflush(stdout);
   descriptor_attributes();
   printf("  statuses\n");
   fflush(stdout);
   statuses();
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   const tr_case f32[] = {
      { "col to row", 37, 29, false, false, false, false, true, 0, 1, false },
      { "row to col, padded", 29, 37, false, false, true, true, false, 3, 1, false },
      { "A^T + B", 17, 23, true, false, false, false, false, 2, 1, false },
      { "A + B^T, mixed orders", 23, 17, false, true, true, false, true, 1, 1, false },
      { "row-major B", 19, 13, false, false, false, true, false, 0, 1, false },
      { "batched, device scalars", 11, 7, true, true, false, true, true, 1, 3, true },
   };
   for (const tr_case &c : f32)
      transform_case<float>(c, CUDA_R_32F, CUDA_R_32F, s);
   const tr_case other[] = {
      { "A^T + B, row C, batched", 13, 9, true, false, false, false, true, 1, 2, false },
   };
   transform_case<double>(other[0], CUDA_R_64F, CUDA_R_64F, 0);
   transform_case<__half>(other[0], CUDA_R_16F, CUDA_R_32F, s);
   transform_case<__nv_bfloat16>(other[0], CUDA_R_16BF, CUDA_R_32F, s);
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_ST(cublasLtDestroy(LT), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
