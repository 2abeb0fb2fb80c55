/*
 * cublasXt.h — metalcuda's cublasXt: the host-interface GEMM that
 * libcublas implements (handles, device selection, block size, pinning
 * mode, s/d/c/z gemm; src/libs/cublas/xt.c).  The other cublasXt routines
 * (syrk, symm, trsm ..., CPU routines) are stubs in the library returning
 * CUBLAS_STATUS_NOT_SUPPORTED and not declared here.
 */
#ifndef MC_CUBLASXT_H
#define MC_CUBLASXT_H

#include <stddef.h>
#include "cublas_v2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cublasXtContext *cublasXtHandle_t;

typedef enum { CUBLASXT_PINNING_DISABLED = 0, CUBLASXT_PINNING_ENABLED = 1 } cublasXtPinnedMemMode_t;

cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle);
cublasStatus_t cublasXtDestroy(cublasXtHandle_t handle);
cublasStatus_t cublasXtGetNumBoards(int nbDevices, int deviceId[], int *nbBoards);
cublasStatus_t cublasXtMaxBoards(int *nbGpuBoards);
cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[]);
cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim);
cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t handle, int *blockDim);
cublasStatus_t cublasXtGetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t *mode);
cublasStatus_t cublasXtSetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t mode);

cublasStatus_t cublasXtSgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m,
                             size_t n, size_t k, const float *alpha, const float *A, size_t lda, const float *B,
                             size_t ldb, const float *beta, float *C, size_t ldc);
cublasStatus_t cublasXtDgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m,
                             size_t n, size_t k, const double *alpha, const double *A, size_t lda, const double *B,
                             size_t ldb, const double *beta, double *C, size_t ldc);
cublasStatus_t cublasXtCgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m,
                             size_t n, size_t k, const cuComplex *alpha, const cuComplex *A, size_t lda,
                             const cuComplex *B, size_t ldb, const cuComplex *beta, cuComplex *C, size_t ldc);
cublasStatus_t cublasXtZgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m,
                             size_t n, size_t k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, size_t lda,
                             const cuDoubleComplex *B, size_t ldb, const cuDoubleComplex *beta, cuDoubleComplex *C,
                             size_t ldc);

#ifdef __cplusplus
}
#endif

#endif
