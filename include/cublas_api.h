/*
 * cublas_api.h — metalcuda's cuBLAS: the types and values of NVIDIA's
 * cuBLAS ABI and the functions libcublas implements (the rest of NVIDIA's
 * exports exist in the library as stubs that return
 * CUBLAS_STATUS_NOT_SUPPORTED; they are not declared here, so a program that
 * uses one fails to compile, naming it).  Programs include cublas_v2.h,
 * which maps the plain names onto the _v2 exports.  Link with -lcublas.
 */
#ifndef MC_CUBLAS_API_H
#define MC_CUBLAS_API_H

#include <stddef.h>
#include <stdint.h>
#include "cuda_runtime_api.h"
#include "library_types.h"
#include "cuComplex.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBLASWINAPI
#define CUBLASAPI

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VER_BUILD 3
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

typedef enum {
   CUBLAS_STATUS_SUCCESS = 0,
   CUBLAS_STATUS_NOT_INITIALIZED = 1,
   CUBLAS_STATUS_ALLOC_FAILED = 3,
   CUBLAS_STATUS_INVALID_VALUE = 7,
   CUBLAS_STATUS_ARCH_MISMATCH = 8,
   CUBLAS_STATUS_MAPPING_ERROR = 11,
   CUBLAS_STATUS_EXECUTION_FAILED = 13,
   CUBLAS_STATUS_INTERNAL_ERROR = 14,
   CUBLAS_STATUS_NOT_SUPPORTED = 15,
   CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
   CUBLAS_OP_N = 0,
   CUBLAS_OP_T = 1,
   CUBLAS_OP_C = 2,
   CUBLAS_OP_HERMITAN = 2,
   CUBLAS_OP_CONJG = 3
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum {
   CUBLAS_GEMM_DFALT = -1,
   CUBLAS_GEMM_DEFAULT = -1,
   CUBLAS_GEMM_ALGO0 = 0,
   CUBLAS_GEMM_ALGO23 = 23,
   CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
   CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
   CUBLAS_GEMM_ALGO0_TENSOR_OP = 100,
   CUBLAS_GEMM_ALGO15_TENSOR_OP = 115
} cublasGemmAlgo_t;
typedef enum {
   CUBLAS_DEFAULT_MATH = 0,
   CUBLAS_TENSOR_OP_MATH = 1,
   CUBLAS_PEDANTIC_MATH = 2,
   CUBLAS_TF32_TENSOR_OP_MATH = 3,
   CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
   CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef cudaDataType cublasDataType_t;
typedef enum {
   CUBLAS_COMPUTE_16F = 64,
   CUBLAS_COMPUTE_16F_PEDANTIC = 65,
   CUBLAS_COMPUTE_32F = 68,
   CUBLAS_COMPUTE_32F_PEDANTIC = 69,
   CUBLAS_COMPUTE_32F_FAST_16F = 74,
   CUBLAS_COMPUTE_32F_FAST_16BF = 75,
   CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
   CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
   CUBLAS_COMPUTE_64F = 70,
   CUBLAS_COMPUTE_64F_PEDANTIC = 71,
   CUBLAS_COMPUTE_32I = 72,
   CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

struct cublasContext;
typedef struct cublasContext *cublasHandle_t;
typedef void (*cublasLogCallback)(const char *msg);

/* ---- helpers ---- */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value);
size_t cublasGetCudartVersion(void);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t *mode);
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int *smCountTarget);
cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasLoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr, const char *logFileName);
cublasStatus_t cublasSetLoggerCallback(cublasLogCallback userCallback);
cublasStatus_t cublasGetLoggerCallback(cublasLogCallback *userCallback);
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream);
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream);

/* ---- Level 1 ---- */
#define MC_CUBLAS_L1(S, T, R)                                                                       \
   cublasStatus_t cublas##S##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy); \
   cublasStatus_t cublas##S##scal_v2(cublasHandle_t h, int n, const T *alpha, T *x, int incx);          \
   cublasStatus_t cublas##S##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy);    \
   cublasStatus_t cublas##S##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy);
MC_CUBLAS_L1(S, float, float)
MC_CUBLAS_L1(D, double, double)
MC_CUBLAS_L1(C, cuComplex, float)
MC_CUBLAS_L1(Z, cuDoubleComplex, double)
#undef MC_CUBLAS_L1
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy, float *result);
cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double *x, int incx, const double *y, int incy,
                             double *result);
cublasStatus_t cublasCdotu_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, const cuComplex *y, int incy,
                              cuComplex *result);
cublasStatus_t cublasCdotc_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, const cuComplex *y, int incy,
                              cuComplex *result);
cublasStatus_t cublasZdotu_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, const cuDoubleComplex *y,
                              int incy, cuDoubleComplex *result);
cublasStatus_t cublasZdotc_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, const cuDoubleComplex *y,
                              int incy, cuDoubleComplex *result);
cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDnrm2_v2(cublasHandle_t h, int n, const double *x, int incx, double *result);
cublasStatus_t cublasScnrm2_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, float *result);
cublasStatus_t cublasDznrm2_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, double *result);
cublasStatus_t cublasSasum_v2(cublasHandle_t h, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDasum_v2(cublasHandle_t h, int n, const double *x, int incx, double *result);
cublasStatus_t cublasScasum_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, float *result);
cublasStatus_t cublasDzasum_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, double *result);
cublasStatus_t cublasIsamax_v2(cublasHandle_t h, int n, const float *x, int incx, int *result);
cublasStatus_t cublasIdamax_v2(cublasHandle_t h, int n, const double *x, int incx, int *result);
cublasStatus_t cublasIcamax_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, int *result);
cublasStatus_t cublasIzamax_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, int *result);
cublasStatus_t cublasIsamin_v2(cublasHandle_t h, int n, const float *x, int incx, int *result);
cublasStatus_t cublasIdamin_v2(cublasHandle_t h, int n, const double *x, int incx, int *result);
cublasStatus_t cublasIcamin_v2(cublasHandle_t h, int n, const cuComplex *x, int incx, int *result);
cublasStatus_t cublasIzamin_v2(cublasHandle_t h, int n, const cuDoubleComplex *x, int incx, int *result);
cublasStatus_t cublasSrot_v2(cublasHandle_t h, int n, float *x, int incx, float *y, int incy, const float *c,
                             const float *s);
cublasStatus_t cublasDrot_v2(cublasHandle_t h, int n, double *x, int incx, double *y, int incy, const double *c,
                             const double *s);
cublasStatus_t cublasSrotg_v2(cublasHandle_t h, float *a, float *b, float *c, float *s);
cublasStatus_t cublasDrotg_v2(cublasHandle_t h, double *a, double *b, double *c, double *s);

/* ---- Level 2 ---- */
cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float *alpha,
                              const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double *alpha,
                              const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                              int incy);
cublasStatus_t cublasSger_v2(cublasHandle_t h, int m, int n, const float *alpha, const float *x, int incx,
                             const float *y, int incy, float *A, int lda);
cublasStatus_t cublasDger_v2(cublasHandle_t h, int m, int n, const double *alpha, const double *x, int incx,
                             const double *y, int incy, double *A, int lda);

/* ---- Level 3 ---- */
#define MC_CUBLAS_GEMM(S, T)                                                                        \
   cublasStatus_t cublas##S##gemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, \
                                     int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,     \
                                     const T *beta, T *C, int ldc);                                     \
   cublasStatus_t cublas##S##gemmStridedBatched(cublasHandle_t h, cublasOperation_t transa,           \
                                                cublasOperation_t transb, int m, int n, int k, const T *alpha, \
                                                const T *A, int lda, long long strideA, const T *B, int ldb, \
                                                long long strideB, const T *beta, T *C, int ldc,        \
                                                long long strideC, int batchCount);                     \
   cublasStatus_t cublas##S##gemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, \
                                         int m, int n, int k, const T *alpha, const T *const Aarray[], int lda, \
                                         const T *const Barray[], int ldb, const T *beta, T *const Carray[],  \
                                         int ldc, int batchCount);
MC_CUBLAS_GEMM(S, float)
MC_CUBLAS_GEMM(D, double)
MC_CUBLAS_GEMM(C, cuComplex)
MC_CUBLAS_GEMM(Z, cuDoubleComplex)
#undef MC_CUBLAS_GEMM
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                            const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                                          int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                                          long long strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                   int k, const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda,
                                   const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
                                   void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
                                   cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                             const float *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                             cudaDataType Btype, int ldb, const float *beta, void *C, cudaDataType Ctype, int ldc);

#ifdef __cplusplus
}
#endif

#endif
