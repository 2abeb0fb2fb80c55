/*
 * texture.c — texture and surface objects through the driver
 * (cuTexObjectCreate, cuSurfObjectCreate): the runtime's descriptors
 * translated field by field.  cudaReadModeElementType is the driver's
 * CU_TRSF_READ_AS_INTEGER (no promotion of integers to normalised floats);
 * linear filtering of integers read as such is cudaErrorInvalidFilterSetting
 * (an H200, driver 580, over arrays and mipmapped arrays alike; linear
 * filtering between levels is accepted and filters the integers);
 * normalised reads of a float or 32-bit integer array, or of floats in
 * linear memory, are cudaErrorInvalidNormSetting, and so are element reads
 * of a normalised format (cudaChannelFormatKindUnsignedNormalized8X1 ...).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(memory);

static cudaError_t resource(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *d)
{
   memset(d, 0, sizeof(*d));
   d->flags = r->flags;
   switch (r->resType) {
   case cudaResourceTypeArray:
      d->resType = CU_RESOURCE_TYPE_ARRAY;
      d->res.array.hArray = (CUarray)(void *)r->res.array.array;
      return r->res.array.array ? cudaSuccess : cudaErrorInvalidResourceHandle;
   case cudaResourceTypeLinear:
      d->resType = CU_RESOURCE_TYPE_LINEAR;
      d->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
      d->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
      return rt_channel_format(&r->res.linear.desc, &d->res.linear.format, &d->res.linear.numChannels);
   case cudaResourceTypePitch2D:
      d->resType = CU_RESOURCE_TYPE_PITCH2D;
      d->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
      d->res.pitch2D.width = r->res.pitch2D.width;
      d->res.pitch2D.height = r->res.pitch2D.height;
      d->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
      return rt_channel_format(&r->res.pitch2D.desc, &d->res.pitch2D.format, &d->res.pitch2D.numChannels);
   case cudaResourceTypeMipmappedArray:
      d->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      d->res.mipmap.hMipmappedArray = (CUmipmappedArray)(void *)r->res.mipmap.mipmap;
      return cudaSuccess;
   default:
      return cudaErrorInvalidValue;
   }
}

/* The format of the texels a resource holds: its own for linear and
 * pitched memory, an array's, a mipmapped array's levels' (level 0);
 * float where an array cannot be asked (its handle is the driver's to
 * refuse). */
static CUarray_format resource_format(const CUDA_RESOURCE_DESC *rd)
{
   CUDA_ARRAY3D_DESCRIPTOR ad;
   CUarray a = NULL;
   switch (rd->resType) {
   case CU_RESOURCE_TYPE_LINEAR:
      return rd->res.linear.format;
   case CU_RESOURCE_TYPE_PITCH2D:
      return rd->res.pitch2D.format;
   case CU_RESOURCE_TYPE_ARRAY:
      a = rd->res.array.hArray;
      break;
   case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      if (!rd->res.mipmap.hMipmappedArray ||
          cuMipmappedArrayGetLevel(&a, rd->res.mipmap.hMipmappedArray, 0) != CUDA_SUCCESS)
         a = NULL;
      break;
   default:
      break;
   }
   return a && cuArray3DGetDescriptor_v2(&ad, a) == CUDA_SUCCESS ? ad.Format : CU_AD_FORMAT_FLOAT;
}

/* ==== cudaCreateTextureObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const struct cudaResourceViewDesc *pResViewDesc)
{
   RT_ENTER("pTexObject=%p pResDesc=%p pTexDesc=%p pResViewDesc=%p", (void *)pTexObject, (const void *)pResDesc,
            (const void *)pTexDesc, (const void *)pResViewDesc);
   RT_CHECK(pTexObject && pResDesc && pTexDesc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_RESOURCE_DESC rd;
   cudaError_t e = resource(pResDesc, &rd);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   const struct cudaTextureDesc *t = pTexDesc;
   CUDA_TEXTURE_DESC td;
   memset(&td, 0, sizeof(td));
   for (int k = 0; k < 3; k++)
      td.addressMode[k] = (CUaddress_mode)t->addressMode[k];
   td.filterMode = (CUfilter_mode)t->filterMode;
   RT_CHECK((unsigned)t->readMode <= cudaReadModeNormalizedFloat, cudaErrorInvalidValue);
   td.flags = (t->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
              (t->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (t->sRGB ? CU_TRSF_SRGB : 0) |
              (t->disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
              (t->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
   td.maxAnisotropy = t->maxAnisotropy;
   td.mipmapFilterMode = (CUfilter_mode)t->mipmapFilterMode;
   td.mipmapLevelBias = t->mipmapLevelBias;
   td.minMipmapLevelClamp = t->minMipmapLevelClamp;
   td.maxMipmapLevelClamp = t->maxMipmapLevelClamp;
   memcpy(td.borderColor, t->borderColor, sizeof(td.borderColor));
   /* linear filtering needs float results; normalised reads of float and
    * 32-bit integer arrays an H200 refuses (32-bit integers filtered
    * linearly as a filter setting first), plain and mipmapped alike
    * (tests/cuda/tex_mipmap_int.cu) */
   CUarray_format f = resource_format(&rd);
   bool is_arr = rd.resType == CU_RESOURCE_TYPE_ARRAY || rd.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
   bool int32 = f == CU_AD_FORMAT_UNSIGNED_INT32 || f == CU_AD_FORMAT_SIGNED_INT32;
   bool is_float = f == CU_AD_FORMAT_FLOAT || f == CU_AD_FORMAT_HALF;
   /* the normalised formats (CU_AD_FORMAT_UNORM_INT8X1 ...) are read as
    * normalised floats only: cudaReadModeElementType is
    * cudaErrorInvalidNormSetting for them, filtered or not, over arrays,
    * linear and pitched memory, as NVIDIA's runtime (CUDA 13.0, static)
    * answers (tests/cuda/tex_unorm.cu) */
   bool is_norm = f >= CU_AD_FORMAT_UNORM_INT8X1 && f <= CU_AD_FORMAT_SNORM_INT16X4;
   RT_CHECK(!(t->readMode == cudaReadModeElementType && is_norm), cudaErrorInvalidNormSetting);
   RT_CHECK(!(t->filterMode == cudaFilterModeLinear && !is_float && !is_norm &&
              (t->readMode == cudaReadModeElementType || (is_arr && int32))),
            cudaErrorInvalidFilterSetting);
   /* over linear memory an H100 refused 32-bit floats read so too, and
    * over pitched memory 32-bit floats and halves (tests/cuda/
    * tex_linear_rules.cu; half over linear memory and 32-bit integers
    * over either were not probed) */
   bool lin_f32 = rd.resType == CU_RESOURCE_TYPE_LINEAR && f == CU_AD_FORMAT_FLOAT;
   bool pitch_float = rd.resType == CU_RESOURCE_TYPE_PITCH2D && is_float;
   RT_CHECK(!(t->readMode == cudaReadModeNormalizedFloat &&
              ((is_arr && (int32 || is_float)) || lin_f32 || pitch_float)),
            cudaErrorInvalidNormSetting);
   /* a resource view with nothing in it is no view */
   static const struct cudaResourceViewDesc none;
   if (pResViewDesc && !memcmp(pResViewDesc, &none, sizeof(none)))
      pResViewDesc = NULL;
   RT_CHECK(!pResViewDesc, cudaErrorNotSupported);
   CUtexObject h;
   CUresult r = cuTexObjectCreate(&h, &rd, &td, NULL);
   if (r == CUDA_SUCCESS)
      *pTexObject = h;
   return RT_RETURN_CU(r);
}

/* ==== cudaDestroyTextureObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
   RT_ENTER("texObject=%#llx", (unsigned long long)texObject);
   RT_NEED_CTX();
   if (!texObject)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuTexObjectDestroy(texObject));
}

/* ==== cudaCreateSurfaceObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
   RT_ENTER("pSurfObject=%p pResDesc=%p", (void *)pSurfObject, (const void *)pResDesc);
   RT_CHECK(pSurfObject && pResDesc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_RESOURCE_DESC rd;
   cudaError_t e = resource(pResDesc, &rd);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUsurfObject h;
   CUresult r = cuSurfObjectCreate(&h, &rd);
   if (r == CUDA_SUCCESS)
      *pSurfObject = h;
   return RT_RETURN_CU(r);
}

/* ==== cudaDestroySurfaceObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
   RT_ENTER("surfObject=%#llx", (unsigned long long)surfObject);
   RT_NEED_CTX();
   if (!surfObject)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuSurfObjectDestroy(surfObject));
}

/* The runtime's form of a driver resource descriptor (resource()'s
 * inverse). */
static void resource_back(const CUDA_RESOURCE_DESC *d, struct cudaResourceDesc *r)
{
   memset(r, 0, sizeof(*r));
   r->flags = d->flags;
   switch (d->resType) {
   case CU_RESOURCE_TYPE_ARRAY:
      r->resType = cudaResourceTypeArray;
      r->res.array.array = (cudaArray_t)(void *)d->res.array.hArray;
      break;
   case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      r->resType = cudaResourceTypeMipmappedArray;
      r->res.mipmap.mipmap = (cudaMipmappedArray_t)(void *)d->res.mipmap.hMipmappedArray;
      break;
   case CU_RESOURCE_TYPE_LINEAR:
      r->resType = cudaResourceTypeLinear;
      r->res.linear.devPtr = (void *)(uintptr_t)d->res.linear.devPtr;
      r->res.linear.desc = rt_channel_desc(d->res.linear.format, d->res.linear.numChannels);
      r->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
      break;
   default:
      r->resType = cudaResourceTypePitch2D;
      r->res.pitch2D.devPtr = (void *)(uintptr_t)d->res.pitch2D.devPtr;
      r->res.pitch2D.desc = rt_channel_desc(d->res.pitch2D.format, d->res.pitch2D.numChannels);
      r->res.pitch2D.width = d->res.pitch2D.width;
      r->res.pitch2D.height = d->res.pitch2D.height;
      r->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
      break;
   }
}

/* ==== cudaGetTextureObjectResourceDesc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaTextureObject_t texObject)
{
   RT_ENTER("pResDesc=%p texObject=%#llx", (void *)pResDesc, (unsigned long long)texObject);
   RT_CHECK(pResDesc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_RESOURCE_DESC d;
   CUresult r = cuTexObjectGetResourceDesc(&d, texObject);
   if (r == CUDA_SUCCESS)
      resource_back(&d, pResDesc);
   return RT_RETURN_CU(r);
}

/* ==== cudaGetTextureObjectTextureDesc (libcudart.@) ==== the inverse of
 * cudaCreateTextureObject's translation: CU_TRSF_READ_AS_INTEGER is
 * cudaReadModeElementType */
cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
   RT_ENTER("pTexDesc=%p texObject=%#llx", (void *)pTexDesc, (unsigned long long)texObject);
   RT_CHECK(pTexDesc, cudaErrorInvalidResourceHandle);   /* what the H200 answers (CUDA 13.0, driver 580) */
   RT_NEED_CTX();
   CUDA_TEXTURE_DESC d;
   CUresult r = cuTexObjectGetTextureDesc(&d, texObject);
   if (r != CUDA_SUCCESS)
      return RT_RETURN_CU(r);
   struct cudaTextureDesc *t = pTexDesc;
   memset(t, 0, sizeof(*t));
   for (int k = 0; k < 3; k++)
      t->addressMode[k] = (enum cudaTextureAddressMode)d.addressMode[k];
   t->filterMode = (enum cudaTextureFilterMode)d.filterMode;
   t->readMode = (d.flags & CU_TRSF_READ_AS_INTEGER) ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
   t->sRGB = (d.flags & CU_TRSF_SRGB) != 0;
   t->normalizedCoords = (d.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
   memcpy(t->borderColor, d.borderColor, sizeof(t->borderColor));
   t->maxAnisotropy = d.maxAnisotropy;
   t->mipmapFilterMode = (enum cudaTextureFilterMode)d.mipmapFilterMode;
   t->mipmapLevelBias = d.mipmapLevelBias;
   t->minMipmapLevelClamp = d.minMipmapLevelClamp;
   t->maxMipmapLevelClamp = d.maxMipmapLevelClamp;
   t->disableTrilinearOptimization = (d.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
   t->seamlessCubemap = (d.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaGetTextureObjectResourceViewDesc (libcudart.@) ==== the
 * driver's answer: success and a view of nothing, as the H200 answers
 * (driver/texture.c) */
cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                           cudaTextureObject_t texObject)
{
   RT_ENTER("pResViewDesc=%p texObject=%#llx", (void *)pResViewDesc, (unsigned long long)texObject);
   RT_NEED_CTX();
   CUDA_RESOURCE_VIEW_DESC d;
   CUresult r = cuTexObjectGetResourceViewDesc(pResViewDesc ? &d : NULL, texObject);
   if (r == CUDA_SUCCESS && pResViewDesc)
      memset(pResViewDesc, 0, sizeof(*pResViewDesc));   /* every field zero: no view */
   return RT_RETURN_CU(r);
}

/* ==== cudaGetSurfaceObjectResourceDesc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaSurfaceObject_t surfObject)
{
   RT_ENTER("pResDesc=%p surfObject=%#llx", (void *)pResDesc, (unsigned long long)surfObject);
   RT_CHECK(pResDesc, cudaErrorInvalidDevice);   /* what the H200 answers (CUDA 13.0, driver 580) */
   RT_NEED_CTX();
   CUDA_RESOURCE_DESC d;
   CUresult r = cuSurfObjectGetResourceDesc(&d, surfObject);
   if (r == CUDA_SUCCESS)
      resource_back(&d, pResDesc);
   return RT_RETURN_CU(r);
}
