/*
 * grouped.c — cuBLAS's grouped batched GEMM (cublas{S,D}gemmGroupedBatched,
 * cublasGemmGroupedBatchedEx, with _64) and the packed/triangular
 * conversions tpttr and trttp (s d c z).
 *
 * A grouped GEMM is group_count pointer-array batches, each with its own
 * transposes, sizes, leading dimensions and scalars (one element of
 * alpha_array and beta_array per group, in host or device memory by the
 * pointer mode), the pointer arrays (device memory) holding the groups'
 * members one after another: each group is one gemmBatched of this
 * library, issued in order on the handle's stream.
 *
 * tpttr/trttp copy the triangle between the packed form (column by column:
 * upper column j is AP[j(j+1)/2 ..], j + 1 elements; lower column j is
 * AP[j n - j(j-1)/2 ..], n - j elements) and a matrix with leading
 * dimension lda (the other triangle untouched): one device copy per
 * column, in stream order.
 */
#include "cb.h"

LOG_CHANNEL(cublas);

/* ---- grouped GEMM ---- */

static cublasStatus_t check_groups(int64_t group_count, const int64_t *size)
{
   CB_CHECK(group_count >= 0, CUBLAS_STATUS_INVALID_VALUE);
   for (int64_t g = 0; g < group_count; g++)
      CB_CHECK(size[g] >= 0, CUBLAS_STATUS_INVALID_VALUE);
   return CUBLAS_STATUS_SUCCESS;
}

#define GROUPED(S, T)                                                                                  \
   CB_EXPORT cublasStatus_t cublas##S##gemmGroupedBatched_64(                                         \
      cublasHandle_t h, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],       \
      const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const T alpha_array[],       \
      const T *const Aarray[], const int64_t lda_array[], const T *const Barray[], const int64_t ldb_array[],  \
      const T beta_array[], T *const Carray[], const int64_t ldc_array[], int64_t group_count,                \
      const int64_t group_size[])                                                                    \
   {                                                                                                \
      CB_ENTER("handle=%p group_count=%lld", (void *)h, (long long)group_count);                     \
      CB_HANDLE(h);                                                                                 \
      if (group_count > 0)                                                                          \
         CB_CHECK(group_size && transa_array && transb_array && m_array && n_array && k_array && alpha_array &&  \
                     lda_array && ldb_array && beta_array && ldc_array, CUBLAS_STATUS_INVALID_VALUE);    \
      cublasStatus_t s = check_groups(group_count, group_size);                                      \
      for (int64_t g = 0, off = 0; g < group_count && s == CUBLAS_STATUS_SUCCESS; off += group_size[g++]) \
         s = cublas##S##gemmBatched_64(h, transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g], \
                                       &alpha_array[g], Aarray + off, lda_array[g], Barray + off, ldb_array[g], \
                                       &beta_array[g], Carray + off, ldc_array[g], group_size[g]);    \
      return s;                                                                                     \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemmGroupedBatched(                                            \
      cublasHandle_t h, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],       \
      const int m_array[], const int n_array[], const int k_array[], const T alpha_array[],                   \
      const T *const Aarray[], const int lda_array[], const T *const Barray[], const int ldb_array[],          \
      const T beta_array[], T *const Carray[], const int ldc_array[], int group_count, const int group_size[]) \
   {                                                                                                \
      CB_ENTER("handle=%p group_count=%d", (void *)h, group_count);                                  \
      CB_HANDLE(h);                                                                                 \
      if (group_count > 0)                                                                          \
         CB_CHECK(group_size && transa_array && transb_array && m_array && n_array && k_array && alpha_array &&  \
                     lda_array && ldb_array && beta_array && ldc_array, CUBLAS_STATUS_INVALID_VALUE);    \
      CB_CHECK(group_count >= 0, CUBLAS_STATUS_INVALID_VALUE);                                       \
      for (int g = 0; g < group_count; g++)                                                         \
         CB_CHECK(group_size[g] >= 0, CUBLAS_STATUS_INVALID_VALUE);                                  \
      cublasStatus_t s = CUBLAS_STATUS_SUCCESS;                                                     \
      for (int g = 0, off = 0; g < group_count && s == CUBLAS_STATUS_SUCCESS; off += group_size[g++])    \
         s = cublas##S##gemmBatched_64(h, transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g], \
                                       &alpha_array[g], Aarray + off, lda_array[g], Barray + off, ldb_array[g], \
                                       &beta_array[g], Carray + off, ldc_array[g], group_size[g]);    \
      return s;                                                                                     \
   }
GROUPED(S, float)
GROUPED(D, double)

/* The size of a scalar of GemmEx's compute type with C of type CT. */
static size_t scalar_size(cublasComputeType_t comp, cudaDataType ct)
{
   bool c64 = comp == CUBLAS_COMPUTE_64F || comp == CUBLAS_COMPUTE_64F_PEDANTIC;
   bool c16 = comp == CUBLAS_COMPUTE_16F || comp == CUBLAS_COMPUTE_16F_PEDANTIC;
   size_t real = c64 ? 8 : c16 ? 2 : 4;
   return ct == CUDA_C_32F || ct == CUDA_C_64F ? 2 * real : real;
}

CB_EXPORT cublasStatus_t cublasGemmGroupedBatchedEx_64(
   cublasHandle_t h, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],
   const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
   const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
   cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[], cudaDataType_t Ctype,
   const int64_t ldc_array[], int64_t group_count, const int64_t group_size[], cublasComputeType_t computeType)
{
   CB_ENTER("handle=%p group_count=%lld Atype=%d Btype=%d Ctype=%d computeType=%d", (void *)h, (long long)group_count,
            (int)Atype, (int)Btype, (int)Ctype, (int)computeType);
   CB_HANDLE(h);
   if (group_count > 0)
      CB_CHECK(group_size && transa_array && transb_array && m_array && n_array && k_array && alpha_array &&
                  lda_array && ldb_array && beta_array && ldc_array, CUBLAS_STATUS_INVALID_VALUE);
   cublasStatus_t s = check_groups(group_count, group_size);
   size_t ss = scalar_size(computeType, Ctype);
   for (int64_t g = 0, off = 0; g < group_count && s == CUBLAS_STATUS_SUCCESS; off += group_size[g++])
      s = cublasGemmBatchedEx_64(h, transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g],
                                 (const char *)alpha_array + g * ss, Aarray + off, Atype, lda_array[g], Barray + off,
                                 Btype, ldb_array[g], (const char *)beta_array + g * ss, Carray + off, Ctype,
                                 ldc_array[g], group_size[g], computeType, CUBLAS_GEMM_DEFAULT);
   return s;
}

/* The int form: the same groups, its int sizes passed on one group at a time. */
CB_EXPORT cublasStatus_t cublasGemmGroupedBatchedEx(
   cublasHandle_t h, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],
   const int m_array[], const int n_array[], const int k_array[], const void *alpha_array, const void *const Aarray[],
   cudaDataType_t Atype, const int lda_array[], const void *const Barray[], cudaDataType_t Btype, const int ldb_array[],
   const void *beta_array, void *const Carray[], cudaDataType_t Ctype, const int ldc_array[], int group_count,
   const int group_size[], cublasComputeType_t computeType)
{
   CB_ENTER("handle=%p group_count=%d", (void *)h, group_count);
   CB_HANDLE(h);
   CB_CHECK(group_count >= 0, CUBLAS_STATUS_INVALID_VALUE);
   if (group_count > 0)
      CB_CHECK(group_size && transa_array && transb_array && m_array && n_array && k_array && alpha_array &&
                  lda_array && ldb_array && beta_array && ldc_array, CUBLAS_STATUS_INVALID_VALUE);
   size_t ss = scalar_size(computeType, Ctype);
   cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
   for (int g = 0, off = 0; g < group_count && s == CUBLAS_STATUS_SUCCESS; off += group_size[g++]) {
      CB_CHECK(group_size[g] >= 0, CUBLAS_STATUS_INVALID_VALUE);
      s = cublasGemmBatchedEx_64(h, transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g],
                                 (const char *)alpha_array + g * ss, Aarray + off, Atype, lda_array[g], Barray + off,
                                 Btype, ldb_array[g], (const char *)beta_array + g * ss, Carray + off, Ctype,
                                 ldc_array[g], group_size[g], computeType, CUBLAS_GEMM_DEFAULT);
   }
   return s;
}

/* ---- tpttr and trttp ---- */

static cublasStatus_t packed_copy(cublasHandle_t h, bool to_full, cublasFillMode_t uplo, int64_t n, const void *src,
                                  void *dst, int64_t lda, size_t es)
{
   CB_HANDLE(h);
   CB_CHECK(uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n >= 0 && lda >= (n > 1 ? n : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(src && dst, CUBLAS_STATUS_INVALID_VALUE);
   cublasStatus_t s = cb_enter_ctx(h);
   bool upper = uplo == CUBLAS_FILL_MODE_UPPER;
   for (int64_t j = 0; j < n && s == CUBLAS_STATUS_SUCCESS; j++) {
      int64_t first = upper ? 0 : j, len = upper ? j + 1 : n - j;
      int64_t packed = upper ? j * (j + 1) / 2 : j * n - j * (j - 1) / 2;
      int64_t full = j * lda + first;
      CUdeviceptr from = (CUdeviceptr)(uintptr_t)src + (CUdeviceptr)((to_full ? packed : full) * (int64_t)es);
      CUdeviceptr to = (CUdeviceptr)(uintptr_t)dst + (CUdeviceptr)((to_full ? full : packed) * (int64_t)es);
      s = cb_status_of(cuMemcpyDtoDAsync(to, from, (size_t)len * es, h->stream));
   }
   return s;
}

#define PACKED(S, T)                                                                                    \
   CB_EXPORT cublasStatus_t cublas##S##tpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *AP, T *A, int lda) \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d n=%d AP=%p A=%p lda=%d", (void *)h, (int)uplo, n, (const void *)AP, (void *)A, lda); \
      return packed_copy(h, true, uplo, n, AP, A, lda, sizeof(T));                                   \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *A, int lda, T *AP) \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d n=%d A=%p lda=%d AP=%p", (void *)h, (int)uplo, n, (const void *)A, lda, (void *)AP); \
      return packed_copy(h, false, uplo, n, A, AP, lda, sizeof(T));                                  \
   }
PACKED(S, float)
PACKED(D, double)
PACKED(C, cuComplex)
PACKED(Z, cuDoubleComplex)
