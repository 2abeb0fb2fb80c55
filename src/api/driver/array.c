/*
 * array.c — CUDA arrays (cuArrayCreate, cuArray3DCreate, their
 * descriptors, cuArrayDestroy).  The layout is src/core/array.c's; copies
 * to and from arrays are memcpy3d.c's.  A layered array (1-D or 2-D,
 * CUDA_ARRAY3D_LAYERED) keeps its layers as the slices of a 3-D one; a
 * cube map (CUDA_ARRAY3D_CUBEMAP) its six faces, in CUDA's face order
 * (+x, -x, +y, -y, +z, -z), six per cube of a layered one.  A mipmapped
 * array (cuMipmappedArrayCreate) is src/core/mipmap.c's: levels that are
 * arrays of this kind, destroyed with it (cuArrayDestroy of a level does
 * nothing and succeeds, as on an H200).  Formats: the integer and float
 * ones and the normalised ones (CU_AD_FORMAT_UNORM_INT8X1 ... SNORM_INT16X4,
 * with their own channel count); the block-compressed, video and packed
 * ones NVIDIA also has are CUDA_ERROR_NOT_SUPPORTED, logged by name.
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(memory);

/* The formats NVIDIA's driver has and metalcuda does not read (block
 * compressed, video and packed ones), by name, for the message that
 * refuses them. */
static const struct {
   CUarray_format f;
   const char *name;
} unsupported_formats[] = {
   { CU_AD_FORMAT_BC1_UNORM, "CU_AD_FORMAT_BC1_UNORM" },
   { CU_AD_FORMAT_BC1_UNORM_SRGB, "CU_AD_FORMAT_BC1_UNORM_SRGB" },
   { CU_AD_FORMAT_BC2_UNORM, "CU_AD_FORMAT_BC2_UNORM" },
   { CU_AD_FORMAT_BC2_UNORM_SRGB, "CU_AD_FORMAT_BC2_UNORM_SRGB" },
   { CU_AD_FORMAT_BC3_UNORM, "CU_AD_FORMAT_BC3_UNORM" },
   { CU_AD_FORMAT_BC3_UNORM_SRGB, "CU_AD_FORMAT_BC3_UNORM_SRGB" },
   { CU_AD_FORMAT_BC4_UNORM, "CU_AD_FORMAT_BC4_UNORM" },
   { CU_AD_FORMAT_BC4_SNORM, "CU_AD_FORMAT_BC4_SNORM" },
   { CU_AD_FORMAT_BC5_UNORM, "CU_AD_FORMAT_BC5_UNORM" },
   { CU_AD_FORMAT_BC5_SNORM, "CU_AD_FORMAT_BC5_SNORM" },
   { CU_AD_FORMAT_BC6H_UF16, "CU_AD_FORMAT_BC6H_UF16" },
   { CU_AD_FORMAT_BC6H_SF16, "CU_AD_FORMAT_BC6H_SF16" },
   { CU_AD_FORMAT_BC7_UNORM, "CU_AD_FORMAT_BC7_UNORM" },
   { CU_AD_FORMAT_BC7_UNORM_SRGB, "CU_AD_FORMAT_BC7_UNORM_SRGB" },
   { CU_AD_FORMAT_NV12, "CU_AD_FORMAT_NV12" },
   { CU_AD_FORMAT_P010, "CU_AD_FORMAT_P010" },
   { CU_AD_FORMAT_P016, "CU_AD_FORMAT_P016" },
   { CU_AD_FORMAT_NV16, "CU_AD_FORMAT_NV16" },
   { CU_AD_FORMAT_P210, "CU_AD_FORMAT_P210" },
   { CU_AD_FORMAT_P216, "CU_AD_FORMAT_P216" },
   { CU_AD_FORMAT_YUY2, "CU_AD_FORMAT_YUY2" },
   { CU_AD_FORMAT_Y210, "CU_AD_FORMAT_Y210" },
   { CU_AD_FORMAT_Y216, "CU_AD_FORMAT_Y216" },
   { CU_AD_FORMAT_AYUV, "CU_AD_FORMAT_AYUV" },
   { CU_AD_FORMAT_Y410, "CU_AD_FORMAT_Y410" },
   { CU_AD_FORMAT_Y416, "CU_AD_FORMAT_Y416" },
   { CU_AD_FORMAT_Y444_PLANAR8, "CU_AD_FORMAT_Y444_PLANAR8" },
   { CU_AD_FORMAT_Y444_PLANAR10, "CU_AD_FORMAT_Y444_PLANAR10" },
   { CU_AD_FORMAT_YUV444_8bit_SemiPlanar, "CU_AD_FORMAT_YUV444_8bit_SemiPlanar" },
   { CU_AD_FORMAT_YUV444_16bit_SemiPlanar, "CU_AD_FORMAT_YUV444_16bit_SemiPlanar" },
   { CU_AD_FORMAT_UNORM_INT_101010_2, "CU_AD_FORMAT_UNORM_INT_101010_2" },
};

/* The element format: MC_TEX_* kind and bytes per channel.  The
 * normalised formats (CU_AD_FORMAT_UNORM_INT8X1 ... SNORM_INT16X4) carry
 * their channel count in their name, and channels must say the same.
 * CUDA_ERROR_INVALID_VALUE for no format (or channel count) of CUDA's;
 * CUDA_ERROR_NOT_SUPPORTED, logged with the format's name (once per
 * format), for one NVIDIA has and metalcuda does not read. */
CUresult drv_array_format(CUarray_format f, unsigned channels, uint32_t *kind, uint32_t *bytes)
{
   unsigned want = 0;   /* the channels a normalised format has */
   switch (f) {
   case CU_AD_FORMAT_UNSIGNED_INT8: *kind = MC_TEX_UNSIGNED, *bytes = 1; break;
   case CU_AD_FORMAT_UNSIGNED_INT16: *kind = MC_TEX_UNSIGNED, *bytes = 2; break;
   case CU_AD_FORMAT_UNSIGNED_INT32: *kind = MC_TEX_UNSIGNED, *bytes = 4; break;
   case CU_AD_FORMAT_SIGNED_INT8: *kind = MC_TEX_SIGNED, *bytes = 1; break;
   case CU_AD_FORMAT_SIGNED_INT16: *kind = MC_TEX_SIGNED, *bytes = 2; break;
   case CU_AD_FORMAT_SIGNED_INT32: *kind = MC_TEX_SIGNED, *bytes = 4; break;
   case CU_AD_FORMAT_HALF: *kind = MC_TEX_FLOAT, *bytes = 2; break;
   case CU_AD_FORMAT_FLOAT: *kind = MC_TEX_FLOAT, *bytes = 4; break;
   case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_UNORM_INT8X4:
   case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_UNORM_INT16X4:
   case CU_AD_FORMAT_SNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X4:
   case CU_AD_FORMAT_SNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4: {
      /* 0xc0 + 6 signed + 3 sixteen-bit + (0, 1, 2 for 1, 2, 4 channels) */
      unsigned i = (unsigned)f - CU_AD_FORMAT_UNORM_INT8X1;
      *kind = i >= 6 ? MC_TEX_SNORM : MC_TEX_UNORM;
      *bytes = i % 6 >= 3 ? 2 : 1;
      want = 1u << (i % 3);
      break;
   }
   default:
      for (size_t k = 0; k < sizeof(unsupported_formats) / sizeof(unsupported_formats[0]); k++)
         if (unsupported_formats[k].f == f) {
            static int once[sizeof(unsupported_formats) / sizeof(unsupported_formats[0])];
            char what[96];
            snprintf(what, sizeof(what), "arrays of format %s", unsupported_formats[k].name);
            api_unsupported_(log_channel_, __func__, what, &once[k]);
            return CUDA_ERROR_NOT_SUPPORTED;
         }
      return CUDA_ERROR_INVALID_VALUE;
   }
   if (want)
      return channels == want ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   return channels == 1 || channels == 2 || channels == 4 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The shape of an array (or of a mipmapped array's level 0) in *shape;
 * CUDA_ERROR_INVALID_VALUE for one an H200 refuses. */
static CUresult check_shape(core_array *shape, size_t w, size_t h, size_t d, CUarray_format f, unsigned channels,
                            unsigned flags)
{
   API_CHECK(!(flags & ~(unsigned)(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                                   CUDA_ARRAY3D_TEXTURE_GATHER)),
             CUDA_ERROR_INVALID_VALUE);
   *shape = (core_array){ .format = (uint32_t)f, .nchan = channels, .flags = flags };
   CUresult e = drv_array_format(f, channels, &shape->kind, &shape->chan_bytes);
   if (e != CUDA_SUCCESS)
      return API_RETURN(e);
   if (flags & CUDA_ARRAY3D_CUBEMAP) {
      /* six square faces (six per cube of a layered one): an H200's
       * maxTextureCubemap / maxTextureCubemapLayered (and the surface
       * limits, the same) */
      bool layered = (flags & CUDA_ARRAY3D_LAYERED) != 0;
      API_CHECK(w && w == h && w <= DRV_TEX_CUBE_WIDTH &&
                   (layered ? d && d % 6 == 0 && d <= DRV_TEX_CUBE_LAYERS : d == 6),
                CUDA_ERROR_INVALID_VALUE);
   } else if (flags & CUDA_ARRAY3D_LAYERED) {
      /* Depth layers of a 1-D (no height) or 2-D array: an H200's
       * maxTexture1DLayered / maxTexture2DLayered (the surface limits are
       * the same) */
      API_CHECK(w && w <= DRV_TEX_LAYERED_EXTENT && h <= DRV_TEX_LAYERED_EXTENT && d && d <= DRV_TEX_LAYERS,
                CUDA_ERROR_INVALID_VALUE);
   } else {
      /* an H200's maxTexture1D/2D/3D, and no depth without a height */
      if (d)
         API_CHECK(w <= DRV_TEX3D_EXTENT && h <= DRV_TEX3D_EXTENT && d <= DRV_TEX3D_EXTENT,
                   CUDA_ERROR_INVALID_VALUE);
      API_CHECK(w && w <= DRV_TEX2D_WIDTH && h <= DRV_TEX2D_HEIGHT && (!d || h), CUDA_ERROR_INVALID_VALUE);
   }
   /* a gather texture is 2-D (not layered), at most maxTexture2DGather */
   if (flags & CUDA_ARRAY3D_TEXTURE_GATHER)
      API_CHECK(h && !d && w <= DRV_TEX2D_GATHER && h <= DRV_TEX2D_GATHER, CUDA_ERROR_INVALID_VALUE);
   shape->width = (uint32_t)w, shape->height = (uint32_t)h, shape->depth = (uint32_t)d;
   return CUDA_SUCCESS;
}

static CUresult create(CUarray *out, size_t w, size_t h, size_t d, CUarray_format f, unsigned channels,
                       unsigned flags)
{
   API_NEED_CTX(c);
   core_array shape;
   CUresult e = check_shape(&shape, w, h, d, f, channels, flags);
   if (e != CUDA_SUCCESS)
      return e;
   core_array *a;
   CUresult r = (CUresult)core_array_create(c, &shape, &a);
   if (r == CUDA_SUCCESS)
      *out = (CUarray)(void *)a;
   return r;
}

/* ==== cuArrayCreate_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
   API_ENTER("pHandle=%p pAllocateArray=%p", (void *)pHandle, (const void *)pAllocateArray);
   API_CHECK(pHandle && pAllocateArray, CUDA_ERROR_INVALID_VALUE);
   const CUDA_ARRAY_DESCRIPTOR *p = pAllocateArray;
   return API_RETURN(create(pHandle, p->Width, p->Height, 0, p->Format, p->NumChannels, 0));
}

/* ==== cuArray3DCreate_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
   API_ENTER("pHandle=%p pAllocateArray=%p", (void *)pHandle, (const void *)pAllocateArray);
   API_CHECK(pHandle && pAllocateArray, CUDA_ERROR_INVALID_VALUE);
   const CUDA_ARRAY3D_DESCRIPTOR *p = pAllocateArray;
   return API_RETURN(create(pHandle, p->Width, p->Height, p->Depth, p->Format, p->NumChannels, p->Flags));
}

static core_array *array_of(CUarray h) { return (core_array *)(void *)h; }

/* ==== cuArrayDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuArrayDestroy(CUarray hArray)
{
   API_ENTER("hArray=%p", (void *)hArray);
   API_NEED_INIT();
   API_CHECK(core_check_array(array_of(hArray)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_array_destroy(array_of(hArray)));
}

/* ==== cuArrayGetDescriptor_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
   API_ENTER("pArrayDescriptor=%p hArray=%p", (void *)pArrayDescriptor, (void *)hArray);
   API_CHECK(pArrayDescriptor, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_array *a = array_of(hArray);
   API_CHECK(core_check_array(a), CUDA_ERROR_INVALID_HANDLE);
   *pArrayDescriptor = (CUDA_ARRAY_DESCRIPTOR){ a->width, a->height, (CUarray_format)a->format, a->nchan };
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuArray3DGetDescriptor_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
   API_ENTER("pArrayDescriptor=%p hArray=%p", (void *)pArrayDescriptor, (void *)hArray);
   API_CHECK(pArrayDescriptor, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_array *a = array_of(hArray);
   API_CHECK(core_check_array(a), CUDA_ERROR_INVALID_HANDLE);
   *pArrayDescriptor = (CUDA_ARRAY3D_DESCRIPTOR){ a->width, a->height, a->depth, (CUarray_format)a->format,
                                                  a->nchan, a->flags };
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- planes, sparseness, deferred mapping (CUDA 11.1-11.6) ----
 * metalcuda's arrays are never multi-planar (no NV12 format), sparse
 * (CUDA_ARRAY3D_SPARSE refused at creation) or of deferred mapping
 * (CUDA_ARRAY3D_DEFERRED_MAPPING refused), so these calls give, for every
 * live array, the answer CUDA documents for an array that is not so:
 * CUDA_ERROR_INVALID_VALUE. */

/* ==== cuArrayGetPlane (libcuda.@) ==== not multi-planar: CUDA_ERROR_INVALID_VALUE */
CUresult CUDAAPI cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray, unsigned int planeIdx)
{
   API_ENTER("pPlaneArray=%p hArray=%p planeIdx=%u", (void *)pPlaneArray, (void *)hArray, planeIdx);
   API_NEED_CTX(c);
   (void)c;
   API_CHECK(pPlaneArray, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_check_array(array_of(hArray)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN(CUDA_ERROR_INVALID_VALUE);
}

/* ==== cuArrayGetSparseProperties (libcuda.@) ==== not sparse: CUDA_ERROR_INVALID_VALUE */
CUresult CUDAAPI cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array)
{
   API_ENTER("sparseProperties=%p array=%p", (void *)sparseProperties, (void *)array);
   API_NEED_INIT();
   API_CHECK(sparseProperties, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_check_array(array_of(array)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN(CUDA_ERROR_INVALID_VALUE);
}

/* ==== cuArrayGetMemoryRequirements (libcuda.@) ==== not of deferred mapping: CUDA_ERROR_INVALID_VALUE */
CUresult CUDAAPI cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements, CUarray array,
                                              CUdevice device)
{
   API_ENTER("memoryRequirements=%p array=%p device=%d", (void *)memoryRequirements, (void *)array, device);
   API_NEED_INIT();
   API_CHECK(memoryRequirements, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_device_get(device), CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(core_check_array(array_of(array)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN(CUDA_ERROR_INVALID_VALUE);
}

static core_mipmap *mipmap_of(CUmipmappedArray h) { return (core_mipmap *)(void *)h; }

/* ==== cuMipmappedArrayCreate (libcuda.@) ==== level 0 is an array of the
 * descriptor's shape (cuArray3DCreate's rules; no dimension over
 * maxTexture2DMipmap); numMipmapLevels 0 means 1 and more than 1 +
 * log2(largest dimension) means that many (an H200). */
CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels)
{
   API_ENTER("pHandle=%p pMipmappedArrayDesc=%p numMipmapLevels=%u", (void *)pHandle,
             (const void *)pMipmappedArrayDesc, numMipmapLevels);
   API_CHECK(pHandle && pMipmappedArrayDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   const CUDA_ARRAY3D_DESCRIPTOR *p = pMipmappedArrayDesc;
   if (p->Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING))
      API_NOT_SUPPORTED("sparse and deferred-mapping mipmapped arrays");
   core_array shape;
   CUresult r = check_shape(&shape, p->Width, p->Height, p->Depth, p->Format, p->NumChannels, p->Flags);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   API_CHECK(p->Width <= DRV_TEX_MIPMAP_EXTENT && p->Height <= DRV_TEX_MIPMAP_EXTENT, CUDA_ERROR_INVALID_VALUE);
   core_mipmap *m;
   if ((r = (CUresult)core_mipmap_create(c, &shape, numMipmapLevels, &m)) == CUDA_SUCCESS)
      *pHandle = (CUmipmappedArray)(void *)m;
   return API_RETURN(r);
}

/* ==== cuMipmappedArrayGetLevel (libcuda.@) ==== the same array each time */
CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level)
{
   API_ENTER("pLevelArray=%p hMipmappedArray=%p level=%u", (void *)pLevelArray, (void *)hMipmappedArray, level);
   API_CHECK(pLevelArray, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_mipmap *m = mipmap_of(hMipmappedArray);
   API_CHECK(core_check_mipmap(m), CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(level < m->nlevels, CUDA_ERROR_INVALID_VALUE);
   *pLevelArray = (CUarray)(void *)m->level[level];
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuMipmappedArrayDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
   API_ENTER("hMipmappedArray=%p", (void *)hMipmappedArray);
   API_NEED_INIT();
   API_CHECK(core_check_mipmap(mipmap_of(hMipmappedArray)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_mipmap_destroy(mipmap_of(hMipmappedArray)));
}

/* ==== cuMipmappedArrayGetMemoryRequirements (libcuda.@) ==== only a
 * deferred-mapping array has requirements to answer, and none is made
 * here: CUDA_ERROR_INVALID_VALUE with the requirements zeroed, as an H200
 * answers for the others */
CUresult CUDAAPI cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                                       CUmipmappedArray mipmap, CUdevice device)
{
   API_ENTER("memoryRequirements=%p mipmap=%p device=%d", (void *)memoryRequirements, (void *)mipmap, device);
   API_NEED_INIT();
   API_CHECK(memoryRequirements, CUDA_ERROR_INVALID_VALUE);
   memset(memoryRequirements, 0, sizeof(*memoryRequirements));   /* as an H200 leaves it */
   return API_RETURN(CUDA_ERROR_INVALID_VALUE);
}
