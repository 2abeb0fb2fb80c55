/*
 * tensormap.c — tensor maps (the descriptors of TMA copies):
 * cuTensorMapEncodeTiled, cuTensorMapReplaceAddress.
 *
 * The arguments are checked against the rules of CUDA's documentation for
 * cuTensorMapEncodeTiled (CUDA_ERROR_INVALID_VALUE); the object written is
 * metalcuda's own (src/core/tensormap.c), read by cp.async.bulk.tensor in
 * tile mode.  Not supported (CUDA_ERROR_NOT_SUPPORTED, naming what):
 * element strides other than 1, interleaved layouts, the 128-byte swizzles
 * with 32/64-byte atoms, the packed 4/6-bit types and the NaN out-of-bounds
 * fill.  cuTensorMapEncodeIm2col(Wide) stay unimplemented.
 */
#include "internal.h"

LOG_CHANNEL(module);

/* Bytes of one element of a tensor map data type (0: packed sub-byte). */
static uint32_t elem_bytes(CUtensorMapDataType t)
{
   switch (t) {
   case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
   case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16: case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
      return 2;
   case CU_TENSOR_MAP_DATA_TYPE_UINT32: case CU_TENSOR_MAP_DATA_TYPE_INT32: case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
   case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
   case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
      return 4;
   case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64: case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
      return 8;
   default:
      return 0;
   }
}

static bool is_float(CUtensorMapDataType t)
{
   return t >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16 && t <= CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

/* The swizzle span in bytes of the plain swizzles (0: none), -1 for the
 * others. */
static int swizzle_span(CUtensorMapSwizzle s)
{
   switch (s) {
   case CU_TENSOR_MAP_SWIZZLE_NONE: return 0;
   case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
   case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
   case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
   default: return -1;
   }
}

/* The per-dimension rules: dimensions 1 to 2^32, strides multiples of 16
 * below 2^40, boxes 1 to 256, element strides 1 to 8. */
static bool dims_ok(cuuint32_t rank, const cuuint64_t *dim, const cuuint64_t *stride, const cuuint32_t *box,
                    const cuuint32_t *estride)
{
   for (cuuint32_t k = 0; k < rank; k++) {
      if (dim[k] == 0 || dim[k] > (1ull << 32) || box[k] == 0 || box[k] > 256 || estride[k] == 0 || estride[k] > 8)
         return false;
      if (k && (stride[k - 1] % 16 || stride[k - 1] >= (1ull << 40)))
         return false;
   }
   return true;
}

/* ==== cuTensorMapEncodeTiled (libcuda.@) ==== */
CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                        cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
                                        const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                                        const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                        CUtensorMapFloatOOBfill oobFill)
{
   API_ENTER("tensorMap=%p type=%d rank=%u globalAddress=%p globalDim=%p globalStrides=%p boxDim=%p "
             "elementStrides=%p interleave=%d swizzle=%d l2Promotion=%d oobFill=%d", (void *)tensorMap,
             (int)tensorDataType, tensorRank, globalAddress, (const void *)globalDim, (const void *)globalStrides,
             (const void *)boxDim, (const void *)elementStrides, (int)interleave, (int)swizzle, (int)l2Promotion,
             (int)oobFill);
   API_CHECK(tensorMap && (uintptr_t)tensorMap % 64 == 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((unsigned)tensorDataType <= CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((unsigned)interleave <= CU_TENSOR_MAP_INTERLEAVE_32B, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((unsigned)swizzle <= CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((unsigned)l2Promotion <= CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((unsigned)oobFill <= CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(tensorRank >= (interleave ? 3u : 1u) && tensorRank <= 5, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(globalAddress && (uintptr_t)globalAddress % (interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16) == 0,
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK(globalDim && boxDim && elementStrides && (tensorRank == 1 || globalStrides), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(dims_ok(tensorRank, globalDim, globalStrides, boxDim, elementStrides), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE || is_float(tensorDataType), CUDA_ERROR_INVALID_VALUE);
   uint32_t eb = elem_bytes(tensorDataType);
   int span = swizzle_span(swizzle);
   if (!eb)
      API_NOT_SUPPORTED("tensor maps of the packed 4- and 6-bit data types");
   if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
      API_NOT_SUPPORTED("interleaved tensor maps (CU_TENSOR_MAP_INTERLEAVE_16B/32B)");
   /* without interleave the inner box is a whole number of 16-byte chunks,
    * and no wider than the swizzle span */
   API_CHECK((uint64_t)boxDim[0] * eb % 16 == 0, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(span <= 0 || (uint64_t)boxDim[0] * eb <= (uint64_t)span, CUDA_ERROR_INVALID_VALUE);
   if (span < 0)
      API_NOT_SUPPORTED("the 128-byte swizzles with 32- or 64-byte atoms");
   if (oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
      API_NOT_SUPPORTED("CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA");
   for (cuuint32_t k = 0; k < tensorRank; k++)
      if (elementStrides[k] != 1)
         API_NOT_SUPPORTED("tensor maps with element strides other than 1");
   core_tensormap_desc d = { .address = (uint64_t)(uintptr_t)globalAddress, .dtype = (uint32_t)tensorDataType,
                             .elem_bytes = eb, .rank = tensorRank, .swizzle_bytes = (uint32_t)span };
   for (cuuint32_t k = 0; k < tensorRank; k++) {
      d.dim[k] = globalDim[k];
      d.box[k] = boxDim[k];
      if (k)
         d.stride[k - 1] = globalStrides[k - 1];
   }
   core_tensormap_encode(tensorMap->opaque, &d);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuTensorMapReplaceAddress (libcuda.@) ==== */
CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress)
{
   API_ENTER("tensorMap=%p globalAddress=%p", (void *)tensorMap, globalAddress);
   API_CHECK(tensorMap && (uintptr_t)tensorMap % 64 == 0 && core_tensormap_is_ours(tensorMap->opaque),
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK(globalAddress && (uintptr_t)globalAddress % 16 == 0, CUDA_ERROR_INVALID_VALUE);
   core_tensormap_set_address(tensorMap->opaque, (uint64_t)(uintptr_t)globalAddress);
   return API_RETURN(CUDA_SUCCESS);
}
