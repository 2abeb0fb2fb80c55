/*
 * lt.h — libcublasLt's table of contents (src/libs/cublasLt).
 *
 * libcublasLt is a client of the public APIs: a handle holds a handle of
 * metalcuda's libcublas (whose GEMM computes every product) and the module
 * of our epilogue kernel (kernels.cu, PTX embedded by kernels.S, loaded with
 * cuModuleLoadData).  Descriptors live in the opaque storage NVIDIA's ABI
 * gives them (a program may allocate it itself and call *Init), each
 * headed by a magic number.  Exported functions are LT_EXPORT; stubs.c
 * defines every other name NVIDIA's library exports, as weak stubs.
 */
#ifndef MC_CUBLASLT_LT_H
#define MC_CUBLASLT_LT_H

#include <cublasLt.h>
#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kargs.h"
#include "util/util.h"

#define LT_EXPORT __attribute__((visibility("default")))

#define LT_CHECK(cond, status)                                                                     \
   do {                                                                                             \
      if (!(cond)) {                                                                               \
         LOG_INFO("%s -> %s", #cond, cublasGetStatusName(status));                                 \
         return status;                                                                             \
      }                                                                                             \
   } while (0)
/* Something implemented functions do not support: said, refused. */
#define LT_NOT_SUPPORTED(...)                                                                      \
   do {                                                                                             \
      LOG_WARN("not supported: " __VA_ARGS__);                                                      \
      return CUBLAS_STATUS_NOT_SUPPORTED;                                                          \
   } while (0)

struct cublasLtContext {
   uint32_t magic;
   cublasHandle_t cublas;
   CUcontext ctx;
   CUmodule mod;
   CUfunction epilogue[4];   /* s d h bf16 */
   CUfunction transform[4];  /* s d h bf16 */
};

/* A matmul descriptor, in cublasLtMatmulDescOpaque_t's 256 bytes. */
typedef struct lt_matmul_desc {
   uint32_t magic;
   int32_t compute, scale, pmode;
   int32_t transa, transb, transc, fill;
   uint32_t epilogue;
   int32_t bias_type;        /* -1: D's */
   const void *bias;
   int64_t bias_stride;
   int32_t sm_target;
   int8_t fast_accum;
   /* what is kept and answered but not implemented: matmul refuses a
    * value other than the default */
   void *aux, *scale_ptr[4], *amax_d, *aux_scale, *aux_amax, *d_out_scale, *emulation;
   int64_t aux_ld, aux_stride, alpha_vec_stride;
   int32_t aux_type, scale_mode[5], d_out_scale_mode;
} lt_matmul_desc;

/* A matrix layout, in cublasLtMatrixLayoutOpaque_t's 64 bytes. */
typedef struct lt_layout {
   uint32_t magic;
   uint32_t type;
   int32_t order;
   int32_t batch;
   uint64_t rows, cols;
   int64_t ld;
   int64_t stride;
   int64_t plane_offset;
   uint32_t batch_mode;
} lt_layout;

/* A preference, in cublasLtMatmulPreferenceOpaque_t's 64 bytes. */
typedef struct lt_preference {
   uint32_t magic;
   uint32_t search_mode;
   uint64_t max_workspace;
   uint32_t reduction_mask;
   uint32_t min_align[4];
   float max_waves;
   uint64_t impl_mask;
} lt_preference;

/* A matrix transform descriptor, in cublasLtMatrixTransformDescOpaque_t's
 * 64 bytes. */
typedef struct lt_transform_desc {
   uint32_t magic;
   int32_t scale, pmode, transa, transb;
} lt_transform_desc;

/* metalcuda's one matmul algorithm (id 0), in cublasLtMatmulAlgo_t's 64
 * bytes: what cublasLtMatmulAlgoInit and the heuristic write, with the
 * configuration a program may set (checked by cublasLtMatmulAlgoCheck and
 * cublasLtMatmul: only the defaults run) and the element sizes of A, B, C
 * and D, whose alignment is all the algorithm needs. */
typedef struct lt_algo {
   uint32_t magic;       /* LT_MAGIC_ALGO */
   int32_t id;
   uint32_t tile, reduction, swizzle, custom, stages;
   int32_t splitk;
   uint16_t inner, cluster;
   uint8_t elem[4];
} lt_algo;

#define LT_MAGIC_HANDLE 0x6c744c48u   /* "HLtl" */
#define LT_MAGIC_DESC 0x6c744d44u
#define LT_MAGIC_LAYOUT 0x6c744c59u
#define LT_MAGIC_PREF 0x6c745052u
#define LT_MAGIC_TRANSFORM 0x6c745446u
#define LT_MAGIC_ALGO 0x6d63616cu       /* "lacm" */

/* ---- desc.c ---- */
const lt_matmul_desc *lt_desc_of(cublasLtMatmulDesc_t d);
const lt_layout *lt_layout_of(cublasLtMatrixLayout_t l);
const lt_preference *lt_preference_of(cublasLtMatmulPreference_t p);
const lt_transform_desc *lt_transform_desc_of(cublasLtMatrixTransformDesc_t d);

/* ---- algo.c ---- */
/* The scale type a compute type takes with A/B data ab and C/D data cd
 * (cublasGemmEx's combinations), -1 for none. */
int lt_scale_type_of(cublasComputeType_t c, cudaDataType ab, cudaDataType cd);
size_t lt_type_size(cudaDataType t);
/* algo initialised as metalcuda's algorithm for those types. */
void lt_algo_init(cublasLtMatmulAlgo_t *algo, cudaDataType a, cudaDataType b, cudaDataType c, cudaDataType d);
/* algo (not NULL) is metalcuda's, configured as it runs: SUCCESS, else
 * INVALID_VALUE (said). */
cublasStatus_t lt_algo_check(const cublasLtMatmulAlgo_t *algo);

/* ---- handle.c ---- */
bool lt_handle_ok(cublasLtHandle_t h);

#endif
