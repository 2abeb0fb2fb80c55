/*
 * cublasLt.h — metalcuda's cuBLASLt: the types and values of NVIDIA's
 * libcublasLt ABI (CUDA 13) that libcublasLt implements
 * (src/libs/cublasLt): handles, matmul descriptors, matrix layouts,
 * preferences, heuristics, cublasLtMatmul and cublasLtMatrixTransform.  The rest of NVIDIA's exports
 * exist in the library as stubs returning CUBLAS_STATUS_NOT_SUPPORTED and
 * are not declared here.  Link with -lcublasLt.
 */
#ifndef MC_CUBLASLT_H
#define MC_CUBLASLT_H

#include <stdint.h>
#include <stdio.h>
#include "cublas_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBLASLT_VER_MAJOR 13
#define CUBLASLT_VER_MINOR 1
#define CUBLASLT_VER_PATCH 0
#define CUBLASLT_VER_BUILD 3
#define CUBLASLT_VERSION (CUBLASLT_VER_MAJOR * 10000 + CUBLASLT_VER_MINOR * 100 + CUBLASLT_VER_PATCH)

typedef struct cublasLtContext *cublasLtHandle_t;

/* Descriptors the caller may also allocate itself (the *Init functions):
 * opaque storage of NVIDIA's sizes. */
typedef struct { uint64_t data[8]; } cublasLtMatrixLayoutOpaque_t;
typedef cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;
typedef struct { uint64_t data[8]; } cublasLtMatmulAlgo_t;
typedef struct { uint64_t data[32]; } cublasLtMatmulDescOpaque_t;
typedef cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;
typedef struct { uint64_t data[8]; } cublasLtMatmulPreferenceOpaque_t;
typedef cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;
typedef struct { uint64_t data[8]; } cublasLtMatrixTransformDescOpaque_t;
typedef cublasLtMatrixTransformDescOpaque_t *cublasLtMatrixTransformDesc_t;

typedef enum {
   CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE,
   CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE,
   CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA,
   CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB,
} cublasLtMatrixTransformDescAttributes_t;

/* The matmul algorithm calls' attributes and values (NVIDIA's numbering;
 * the tile, stage and cluster enumerations beyond "undefined" and the
 * numerical flags beyond FMA are left out: metalcuda's one algorithm has
 * none of them). */
typedef enum {
   CUBLASLT_ALGO_CAP_SPLITK_SUPPORT = 0,
   CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK = 1,
   CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT = 2,
   CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT = 3,
   CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT = 4,
   CUBLASLT_ALGO_CAP_UPLO_SUPPORT = 5,
   CUBLASLT_ALGO_CAP_TILE_IDS = 6,
   CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX = 7,
   CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER = 10,
   CUBLASLT_ALGO_CAP_POINTER_MODE_MASK = 11,
   CUBLASLT_ALGO_CAP_EPILOGUE_MASK = 12,
   CUBLASLT_ALGO_CAP_STAGES_IDS = 13,
   CUBLASLT_ALGO_CAP_LD_NEGATIVE = 14,
   CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS = 15,
   CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES = 16,
   CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES = 17,
   CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES = 18,
   CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES = 19,
   CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT = 21,
   CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT = 22,
} cublasLtMatmulAlgoCapAttributes_t;

typedef enum {
   CUBLASLT_ALGO_CONFIG_ID = 0,
   CUBLASLT_ALGO_CONFIG_TILE_ID = 1,
   CUBLASLT_ALGO_CONFIG_SPLITK_NUM = 2,
   CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME = 3,
   CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING = 4,
   CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION = 5,
   CUBLASLT_ALGO_CONFIG_STAGES_ID = 6,
   CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID = 7,
   CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID = 8,
} cublasLtMatmulAlgoConfigAttributes_t;

typedef enum { CUBLASLT_MATMUL_TILE_UNDEFINED = 0 } cublasLtMatmulTile_t;
typedef enum { CUBLASLT_MATMUL_STAGES_UNDEFINED = 0 } cublasLtMatmulStages_t;
typedef enum {
   CUBLASLT_REDUCTION_SCHEME_NONE = 0,
   CUBLASLT_REDUCTION_SCHEME_INPLACE = 1,
   CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE = 2,
   CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE = 4,
   CUBLASLT_REDUCTION_SCHEME_MASK = 0x7,
} cublasLtReductionScheme_t;
typedef enum {
   CUBLASLT_POINTER_MODE_MASK_HOST = 1,
   CUBLASLT_POINTER_MODE_MASK_DEVICE = 2,
   CUBLASLT_POINTER_MODE_MASK_DEVICE_VECTOR = 4,
   CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_ZERO = 8,
   CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_HOST = 16,
} cublasLtPointerModeMask_t;
#define CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA (0x01ull << 0)


typedef enum {
   CUBLASLT_POINTER_MODE_HOST = CUBLAS_POINTER_MODE_HOST,
   CUBLASLT_POINTER_MODE_DEVICE = CUBLAS_POINTER_MODE_DEVICE,
   CUBLASLT_POINTER_MODE_DEVICE_VECTOR = 2,
   CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO = 3,
   CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST = 4
} cublasLtPointerMode_t;

typedef enum {
   CUBLASLT_ORDER_COL = 0,
   CUBLASLT_ORDER_ROW = 1,
   CUBLASLT_ORDER_COL32 = 2,
   CUBLASLT_ORDER_COL4_4R2_8C = 3,
   CUBLASLT_ORDER_COL32_2R_4R4 = 4
} cublasLtOrder_t;

typedef enum { CUBLASLT_BATCH_MODE_STRIDED = 0, CUBLASLT_BATCH_MODE_POINTER_ARRAY = 1 } cublasLtBatchMode_t;

typedef enum {
   CUBLASLT_MATRIX_LAYOUT_TYPE = 0,                 /* uint32_t (cudaDataType) */
   CUBLASLT_MATRIX_LAYOUT_ORDER = 1,                /* int32_t (cublasLtOrder_t) */
   CUBLASLT_MATRIX_LAYOUT_ROWS = 2,                 /* uint64_t */
   CUBLASLT_MATRIX_LAYOUT_COLS = 3,                 /* uint64_t */
   CUBLASLT_MATRIX_LAYOUT_LD = 4,                   /* int64_t */
   CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,          /* int32_t */
   CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6, /* int64_t, elements */
   CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET = 7,         /* int64_t, bytes */
   CUBLASLT_MATRIX_LAYOUT_BATCH_MODE = 8            /* uint32_t (cublasLtBatchMode_t) */
} cublasLtMatrixLayoutAttribute_t;

typedef enum {
   CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,           /* int32_t (cublasComputeType_t) */
   CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,             /* int32_t (cudaDataType) */
   CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,           /* int32_t (cublasLtPointerMode_t) */
   CUBLASLT_MATMUL_DESC_TRANSA = 3,                 /* int32_t (cublasOperation_t) */
   CUBLASLT_MATMUL_DESC_TRANSB = 4,
   CUBLASLT_MATMUL_DESC_TRANSC = 5,
   CUBLASLT_MATMUL_DESC_FILL_MODE = 6,              /* int32_t (cublasFillMode_t) */
   CUBLASLT_MATMUL_DESC_EPILOGUE = 7,               /* uint32_t (cublasLtEpilogue_t) */
   CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,           /* const void * */
   CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,     /* int64_t, elements */
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,  /* void * */
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,       /* int64_t */
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 13,
   CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE = 14,
   CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET = 15,       /* int32_t */
   CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17,
   CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18,
   CUBLASLT_MATMUL_DESC_C_SCALE_POINTER = 19,
   CUBLASLT_MATMUL_DESC_D_SCALE_POINTER = 20,
   CUBLASLT_MATMUL_DESC_AMAX_D_POINTER = 21,
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE = 22,
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER = 23,
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER = 24,
   CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25,            /* int8_t */
   CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,        /* int32_t (cudaDataType), -1: D's type */
   CUBLASLT_MATMUL_DESC_A_SCALE_MODE = 31,
   CUBLASLT_MATMUL_DESC_B_SCALE_MODE = 32,
   CUBLASLT_MATMUL_DESC_C_SCALE_MODE = 33,
   CUBLASLT_MATMUL_DESC_D_SCALE_MODE = 34,
   CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE = 35,
   CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER = 36,
   CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE = 37,
   CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR = 38
} cublasLtMatmulDescAttributes_t;

typedef enum {
   CUBLASLT_EPILOGUE_DEFAULT = 1,
   CUBLASLT_EPILOGUE_RELU = 2,
   CUBLASLT_EPILOGUE_RELU_AUX = (CUBLASLT_EPILOGUE_RELU | 128),
   CUBLASLT_EPILOGUE_BIAS = 4,
   CUBLASLT_EPILOGUE_RELU_BIAS = (CUBLASLT_EPILOGUE_RELU | CUBLASLT_EPILOGUE_BIAS),
   CUBLASLT_EPILOGUE_RELU_AUX_BIAS = (CUBLASLT_EPILOGUE_RELU_AUX | CUBLASLT_EPILOGUE_BIAS),
   CUBLASLT_EPILOGUE_DRELU = 8 | 128,
   CUBLASLT_EPILOGUE_DRELU_BGRAD = CUBLASLT_EPILOGUE_DRELU | 16,
   CUBLASLT_EPILOGUE_GELU = 32,
   CUBLASLT_EPILOGUE_GELU_AUX = (CUBLASLT_EPILOGUE_GELU | 128),
   CUBLASLT_EPILOGUE_GELU_BIAS = (CUBLASLT_EPILOGUE_GELU | CUBLASLT_EPILOGUE_BIAS),
   CUBLASLT_EPILOGUE_GELU_AUX_BIAS = (CUBLASLT_EPILOGUE_GELU_AUX | CUBLASLT_EPILOGUE_BIAS),
   CUBLASLT_EPILOGUE_DGELU = 64 | 128,
   CUBLASLT_EPILOGUE_DGELU_BGRAD = CUBLASLT_EPILOGUE_DGELU | 16,
   CUBLASLT_EPILOGUE_BGRADA = 256,
   CUBLASLT_EPILOGUE_BGRADB = 512
} cublasLtEpilogue_t;

typedef enum {
   CUBLASLT_SEARCH_BEST_FIT = 0,
   CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID = 1
} cublasLtMatmulSearch_t;

typedef enum {
   CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0,            /* uint32_t */
   CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,    /* uint64_t */
   CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK = 3,  /* uint32_t */
   CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,  /* uint32_t */
   CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
   CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
   CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
   CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT = 9,        /* float */
   CUBLASLT_MATMUL_PREF_IMPL_MASK = 12              /* uint64_t */
} cublasLtMatmulPreferenceAttributes_t;

typedef struct {
   cublasLtMatmulAlgo_t algo;
   size_t workspaceSize;
   cublasStatus_t state;
   float wavesCount;
   int reserved[4];
} cublasLtMatmulHeuristicResult_t;

typedef void (*cublasLtLoggerCallback_t)(int logLevel, const char *functionName, const char *message);

/* BEGIN generated by tools/gen_cublas_header.py: do not edit by hand */
cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle);
size_t cublasLtGetCudartVersion(void);
cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value);
const char *cublasLtGetStatusName(cublasStatus_t status);
const char *cublasLtGetStatusString(cublasStatus_t status);
size_t cublasLtGetVersion(void);
cublasStatus_t cublasLtLoggerForceDisable(void);
cublasStatus_t cublasLtLoggerOpenFile(const char *logFile);
cublasStatus_t cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback);
cublasStatus_t cublasLtLoggerSetFile(FILE *file);
cublasStatus_t cublasLtLoggerSetLevel(int level);
cublasStatus_t cublasLtLoggerSetMask(int mask);
cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t Adesc, const void *B, cublasLtMatrixLayout_t Bdesc,
                              const void *beta, const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo, void *workspace,
                              size_t workspaceSizeInBytes, cudaStream_t stream);
cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                 cublasLtMatmulAlgoCapAttributes_t attr, void *buf, size_t sizeInBytes,
                                                 size_t *sizeWritten);
cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                       cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                       cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                       const cublasLtMatmulAlgo_t *algo, cublasLtMatmulHeuristicResult_t *result);
cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten);
cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, const void *buf,
                                                    size_t sizeInBytes);
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount);
cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                        cudaDataType_t Ctype, cudaDataType_t Dtype, int requestedAlgoCount,
                                        int algoIdsArray[], int *returnAlgoCount);
cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                      cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                      cudaDataType_t Ctype, cudaDataType_t Dtype, int algoId,
                                      cublasLtMatmulAlgo_t *algo);
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc);
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              void *buf, size_t sizeInBytes, size_t *sizeWritten);
cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                               cublasComputeType_t computeType, cudaDataType_t scaleType);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t sizeInBytes);
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref);
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref);
cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten);
cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size);
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t sizeInBytes);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout);
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                void *buf, size_t sizeInBytes, size_t *sizeWritten);
cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void *buf, size_t sizeInBytes);
cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t lightHandle, cublasLtMatrixTransformDesc_t transformDesc,
                                       const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc, const void *beta,
                                       const void *B, cublasLtMatrixLayout_t Bdesc, void *C,
                                       cublasLtMatrixLayout_t Cdesc, cudaStream_t stream);
cublasStatus_t cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *transformDesc, cudaDataType scaleType);
cublasStatus_t cublasLtMatrixTransformDescDestroy(cublasLtMatrixTransformDesc_t transformDesc);
cublasStatus_t cublasLtMatrixTransformDescGetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, void *buf,
                                                       size_t sizeInBytes, size_t *sizeWritten);
cublasStatus_t cublasLtMatrixTransformDescInit_internal(cublasLtMatrixTransformDesc_t transformDesc, size_t size,
                                                        cudaDataType scaleType);
cublasStatus_t cublasLtMatrixTransformDescSetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, const void *buf,
                                                       size_t sizeInBytes);
/* END generated by tools/gen_cublas_header.py */

static inline cublasStatus_t cublasLtMatrixLayoutInit(cublasLtMatrixLayout_t matLayout, cudaDataType type,
                                                      uint64_t rows, uint64_t cols, int64_t ld)
{
   return cublasLtMatrixLayoutInit_internal(matLayout, sizeof(*matLayout), type, rows, cols, ld);
}
static inline cublasStatus_t cublasLtMatmulDescInit(cublasLtMatmulDesc_t matmulDesc, cublasComputeType_t computeType,
                                                    cudaDataType_t scaleType)
{
   return cublasLtMatmulDescInit_internal(matmulDesc, sizeof(*matmulDesc), computeType, scaleType);
}
static inline cublasStatus_t cublasLtMatmulPreferenceInit(cublasLtMatmulPreference_t pref)
{
   return cublasLtMatmulPreferenceInit_internal(pref, sizeof(*pref));
}
static inline cublasStatus_t cublasLtMatrixTransformDescInit(cublasLtMatrixTransformDesc_t transformDesc,
                                                             cudaDataType scaleType)
{
   return cublasLtMatrixTransformDescInit_internal(transformDesc, sizeof(*transformDesc), scaleType);
}

#ifdef __cplusplus
}
#endif

#endif
