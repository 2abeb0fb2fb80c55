/*
 * algo.c — the matmul algorithm calls: cublasLtMatmulAlgoGetIds,
 * cublasLtMatmulAlgoInit, cublasLtMatmulAlgoCapGetAttribute and
 * cublasLtMatmulAlgoConfigSet/GetAttribute (cublasLtMatmulAlgoCheck is
 * matmul.c's: it plans the problem).
 *
 * metalcuda has one algorithm, id 0: libcublas's GEMM then the epilogue
 * kernel (matmul.c), for every type combination cublasGemmEx takes.  Its
 * capabilities say what it does: strided batches, C and D distinct,
 * alpha/beta in host or device memory, the DEFAULT, RELU, BIAS, GELU
 * epilogues and their combinations, column- and row-major orders, no
 * split-K, reduction schemes, CTA swizzling, custom options, tiles or
 * stages to choose (one undefined tile and stage id each), no negative
 * leading dimensions or pointer-array batches, element alignment.  A
 * configuration attribute may be set to anything of its size (NVIDIA's
 * rule); cublasLtMatmulAlgoCheck and cublasLtMatmul refuse a configuration
 * other than the defaults with CUBLAS_STATUS_INVALID_VALUE, saying which.
 */
#include "lt.h"

#include <string.h>

LOG_CHANNEL(cublasLt);

_Static_assert(sizeof(lt_algo) <= sizeof(cublasLtMatmulAlgo_t), "algorithm too large");

size_t lt_type_size(cudaDataType t)
{
   switch (t) {
   case CUDA_R_16F: case CUDA_R_16BF: return 2;
   case CUDA_R_32F: return 4;
   case CUDA_R_64F: case CUDA_C_32F: return 8;
   case CUDA_C_64F: return 16;
   default: return 0;
   }
}

int lt_scale_type_of(cublasComputeType_t c, cudaDataType ab, cudaDataType cd)
{
   bool c32 = c == CUBLAS_COMPUTE_32F || c == CUBLAS_COMPUTE_32F_PEDANTIC || c == CUBLAS_COMPUTE_32F_FAST_16F ||
              c == CUBLAS_COMPUTE_32F_FAST_16BF || c == CUBLAS_COMPUTE_32F_FAST_TF32;
   bool c64 = c == CUBLAS_COMPUTE_64F || c == CUBLAS_COMPUTE_64F_PEDANTIC;
   bool c16 = c == CUBLAS_COMPUTE_16F || c == CUBLAS_COMPUTE_16F_PEDANTIC;
   if (c32 && ab == CUDA_R_32F && cd == CUDA_R_32F)
      return CUDA_R_32F;
   if (c32 && ab == CUDA_R_16F && (cd == CUDA_R_16F || cd == CUDA_R_32F))
      return CUDA_R_32F;
   if (c32 && ab == CUDA_R_16BF && (cd == CUDA_R_16BF || cd == CUDA_R_32F))
      return CUDA_R_32F;
   if (c16 && ab == CUDA_R_16F && cd == CUDA_R_16F)
      return CUDA_R_16F;
   if (c64 && ab == CUDA_R_64F && cd == CUDA_R_64F)
      return CUDA_R_64F;
   if (c32 && ab == CUDA_C_32F && cd == CUDA_C_32F)
      return CUDA_C_32F;
   if (c64 && ab == CUDA_C_64F && cd == CUDA_C_64F)
      return CUDA_C_64F;
   return -1;
}

/* Whether the algorithm computes this combination. */
static bool combination_done(cublasComputeType_t compute, cudaDataType_t scale, cudaDataType_t a, cudaDataType_t b,
                             cudaDataType_t c, cudaDataType_t d)
{
   return a == b && c == d && lt_scale_type_of(compute, a, c) == (int)scale;
}

void lt_algo_init(cublasLtMatmulAlgo_t *algo, cudaDataType a, cudaDataType b, cudaDataType c, cudaDataType d)
{
   memset(algo, 0, sizeof(*algo));
   lt_algo *g = (lt_algo *)algo;
   g->magic = LT_MAGIC_ALGO;
   g->id = 0;
   g->tile = CUBLASLT_MATMUL_TILE_UNDEFINED;
   g->stages = CUBLASLT_MATMUL_STAGES_UNDEFINED;
   g->splitk = 1;
   g->reduction = CUBLASLT_REDUCTION_SCHEME_NONE;
   const cudaDataType t[4] = { a, b, c, d };
   for (int i = 0; i < 4; i++)
      g->elem[i] = (uint8_t)lt_type_size(t[i]);
}

static const lt_algo *algo_of(const cublasLtMatmulAlgo_t *algo)
{
   const lt_algo *g = (const lt_algo *)algo;
   return g && g->magic == LT_MAGIC_ALGO ? g : NULL;
}

cublasStatus_t lt_algo_check(const cublasLtMatmulAlgo_t *algo)
{
   const lt_algo *g = algo_of(algo);
   if (!g) {
      LOG_WARN("a matmul algorithm that neither cublasLtMatmulAlgoInit nor the heuristic wrote");
      return CUBLAS_STATUS_INVALID_VALUE;
   }
   if (g->tile != CUBLASLT_MATMUL_TILE_UNDEFINED || g->stages != CUBLASLT_MATMUL_STAGES_UNDEFINED ||
       g->splitk != 1 || g->reduction != CUBLASLT_REDUCTION_SCHEME_NONE || g->swizzle || g->custom || g->inner ||
       g->cluster) {
      LOG_WARN("matmul algorithm 0 configured with tile %u, stages %u, split-K %d, reduction %u, swizzle %u, custom "
               "option %u, inner shape %u, cluster shape %u: it runs only with the defaults (undefined tile and "
               "stages, split-K 1, the rest 0)", g->tile, g->stages, g->splitk, g->reduction, g->swizzle, g->custom,
               g->inner, g->cluster);
      return CUBLAS_STATUS_INVALID_VALUE;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoGetIds (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                                  cudaDataType_t scaleType, cudaDataType_t Atype,
                                                  cudaDataType_t Btype, cudaDataType_t Ctype, cudaDataType_t Dtype,
                                                  int requestedAlgoCount, int algoIdsArray[], int *returnAlgoCount)
{
   LOG_TRACE("lightHandle=%p computeType=%d scaleType=%d types=%d/%d/%d/%d requested=%d ids=%p count=%p",
             (void *)lightHandle, (int)computeType, (int)scaleType, (int)Atype, (int)Btype, (int)Ctype, (int)Dtype,
             requestedAlgoCount, (void *)algoIdsArray, (void *)returnAlgoCount);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   LT_CHECK(requestedAlgoCount > 0 && algoIdsArray && returnAlgoCount, CUBLAS_STATUS_INVALID_VALUE);
   *returnAlgoCount = 0;
   if (combination_done(computeType, scaleType, Atype, Btype, Ctype, Dtype)) {
      algoIdsArray[0] = 0;
      *returnAlgoCount = 1;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoInit (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                                cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                                cudaDataType_t Ctype, cudaDataType_t Dtype, int algoId,
                                                cublasLtMatmulAlgo_t *algo)
{
   LOG_TRACE("lightHandle=%p computeType=%d scaleType=%d types=%d/%d/%d/%d algoId=%d algo=%p", (void *)lightHandle,
             (int)computeType, (int)scaleType, (int)Atype, (int)Btype, (int)Ctype, (int)Dtype, algoId, (void *)algo);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   LT_CHECK(algo && algoId == 0, CUBLAS_STATUS_INVALID_VALUE);
   if (!combination_done(computeType, scaleType, Atype, Btype, Ctype, Dtype))
      LT_NOT_SUPPORTED("cublasLtMatmulAlgoInit: compute type %d, scale type %d, types %d/%d/%d/%d",
                       (int)computeType, (int)scaleType, (int)Atype, (int)Btype, (int)Ctype, (int)Dtype);
   lt_algo_init(algo, Atype, Btype, Ctype, Dtype);
   return CUBLAS_STATUS_SUCCESS;
}

/* Writes size bytes of value to buf as the *GetAttribute calls do: the
 * query form (sizeInBytes 0) answers the size alone. */
static cublasStatus_t answer(const void *value, size_t size, void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
   if (sizeInBytes == 0) {
      LT_CHECK(sizeWritten, CUBLAS_STATUS_INVALID_VALUE);
      *sizeWritten = size;
      return CUBLAS_STATUS_SUCCESS;
   }
   LT_CHECK(buf && sizeInBytes >= size, CUBLAS_STATUS_INVALID_VALUE);
   memcpy(buf, value, size);
   if (sizeWritten)
      *sizeWritten = size;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoCapGetAttribute (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                           cublasLtMatmulAlgoCapAttributes_t attr, void *buf,
                                                           size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("algo=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (const void *)algo, (int)attr, buf,
             sizeInBytes, (void *)sizeWritten);
   const lt_algo *g = algo_of(algo);
   LT_CHECK(g, CUBLAS_STATUS_INVALID_VALUE);
   int32_t i32 = 0;
   uint32_t u32 = 0;
   uint64_t u64 = 0;
   switch (attr) {
   case CUBLASLT_ALGO_CAP_SPLITK_SUPPORT: case CUBLASLT_ALGO_CAP_UPLO_SUPPORT:
   case CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX: case CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER:
   case CUBLASLT_ALGO_CAP_LD_NEGATIVE: case CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT:
   case CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT:
      return answer(&i32, sizeof(i32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT: case CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT:
      i32 = 1;
      return answer(&i32, sizeof(i32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK: case CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT:
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_TILE_IDS:
      u32 = CUBLASLT_MATMUL_TILE_UNDEFINED;
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_STAGES_IDS:
      u32 = CUBLASLT_MATMUL_STAGES_UNDEFINED;
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_POINTER_MODE_MASK:
      u32 = CUBLASLT_POINTER_MODE_MASK_HOST | CUBLASLT_POINTER_MODE_MASK_DEVICE;
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_EPILOGUE_MASK:
      u32 = CUBLASLT_EPILOGUE_DEFAULT | CUBLASLT_EPILOGUE_RELU | CUBLASLT_EPILOGUE_BIAS | CUBLASLT_EPILOGUE_GELU;
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS:
      u64 = CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA;   /* plain multiply-adds, no tensor operations */
      return answer(&u64, sizeof(u64), buf, sizeInBytes, sizeWritten);
   case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES: case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES:
   case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES: case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES:
      u32 = g->elem[attr - CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES];
      return answer(&u32, sizeof(u32), buf, sizeInBytes, sizeWritten);
   default:
      LT_CHECK(false, CUBLAS_STATUS_INVALID_VALUE);
   }
}

/* The configuration attributes: where each lives, and its size. */
static void *config_field(lt_algo *g, int attr, size_t *size)
{
   switch (attr) {
   case CUBLASLT_ALGO_CONFIG_ID: *size = sizeof(g->id); return &g->id;
   case CUBLASLT_ALGO_CONFIG_TILE_ID: *size = sizeof(g->tile); return &g->tile;
   case CUBLASLT_ALGO_CONFIG_SPLITK_NUM: *size = sizeof(g->splitk); return &g->splitk;
   case CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME: *size = sizeof(g->reduction); return &g->reduction;
   case CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING: *size = sizeof(g->swizzle); return &g->swizzle;
   case CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION: *size = sizeof(g->custom); return &g->custom;
   case CUBLASLT_ALGO_CONFIG_STAGES_ID: *size = sizeof(g->stages); return &g->stages;
   case CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID: *size = sizeof(g->inner); return &g->inner;
   case CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID: *size = sizeof(g->cluster); return &g->cluster;
   default: return NULL;
   }
}

/* ==== cublasLtMatmulAlgoConfigSetAttribute (libcublasLt.@) ==== the id is
 * AlgoInit's to set */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t *algo,
                                                              cublasLtMatmulAlgoConfigAttributes_t attr,
                                                              const void *buf, size_t sizeInBytes)
{
   LOG_TRACE("algo=%p attr=%d buf=%p sizeInBytes=%zu", (void *)algo, (int)attr, buf, sizeInBytes);
   lt_algo *g = (lt_algo *)algo;
   LT_CHECK(algo_of(algo), CUBLAS_STATUS_INVALID_VALUE);
   size_t size;
   void *f = config_field(g, attr, &size);
   LT_CHECK(f && attr != CUBLASLT_ALGO_CONFIG_ID, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(buf && sizeInBytes == size, CUBLAS_STATUS_INVALID_VALUE);
   memcpy(f, buf, size);
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoConfigGetAttribute (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                              cublasLtMatmulAlgoConfigAttributes_t attr, void *buf,
                                                              size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("algo=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (const void *)algo, (int)attr, buf,
             sizeInBytes, (void *)sizeWritten);
   LT_CHECK(algo_of(algo), CUBLAS_STATUS_INVALID_VALUE);
   lt_algo copy = *(const lt_algo *)algo;
   size_t size;
   void *f = config_field(&copy, attr, &size);
   LT_CHECK(f, CUBLAS_STATUS_INVALID_VALUE);
   return answer(f, size, buf, sizeInBytes, sizeWritten);
}
