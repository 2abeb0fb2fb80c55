/*
 * texture.c — texture and surface objects (cuTexObjectCreate,
 * cuSurfObjectCreate and their destroy calls).  An object is a descriptor
 * in device memory (src/core/array.c, compiler.h's mc_tex) that the
 * kernel's tex/suld/sust/txq/suq read through the 64-bit handle (with
 * what txq and suq answer, as an H100 and an H200 answer: query_sizes);
 * filtering and addressing are done in software exactly as CUDA documents
 * (prelude/tex.metal), over a mipmapped array too (its levels' table
 * named by the descriptor).  Refused by name: resource views, the
 * mipmapped cases not measured on an H200 (mipmap_state), and linear
 * filtering of integers read as such on a cube map (an H200 filters
 * integers, within and between levels, in integers: prelude/tex.metal,
 * mc_tex_iacc; a float fetch of them returns the integers' bits).
 * Without CU_TRSF_READ_AS_INTEGER an integer format reads as normalised
 * floats, as in CUDA; a normalised format (CU_AD_FORMAT_UNORM_INT8X1 ...)
 * reads so with it too (NVIDIA's runtime never sets it for one; what
 * NVIDIA's driver does with it is not measured: tests/cuda/NATIVE.md
 * "unorm").
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(memory);

/* Whether linear or pitched memory (`memory`) may hold t's format: an
 * H200 and an H100 refuse the unorm/snorm formats there, which only arrays
 * take (tests/cuda/tex_linear_rules.cu, NATIVE.md). */
static bool memory_takes_format(const mc_tex *t, CUarray_format format, const char *memory)
{
   if (t->kind != MC_TEX_UNORM && t->kind != MC_TEX_SNORM)
      return true;
   LOG_ERR("cuTexObjectCreate: %s memory of a normalised format (%#x): only arrays take one", memory,
           (unsigned)format);
   return false;
}

/* The data a resource names: the descriptor's base, sizes and format. */
static CUresult resource(const CUDA_RESOURCE_DESC *r, mc_tex *t, const core_array **arr)
{
   *arr = NULL;
   switch (r->resType) {
   case CU_RESOURCE_TYPE_ARRAY: {
      const core_array *a = (const core_array *)(const void *)r->res.array.hArray;
      if (!core_check_array(a))
         return CUDA_ERROR_INVALID_HANDLE;
      *arr = a;
      t->base = a->mem, t->pitch = a->pitch, t->slice = a->slice;
      t->width = a->width, t->height = a->height ? a->height : 1, t->depth = a->depth ? a->depth : 1;
      t->kind = a->kind, t->chan_bytes = a->chan_bytes, t->nchan = a->nchan;
      return CUDA_SUCCESS;
   }
   case CU_RESOURCE_TYPE_LINEAR: {
      CUresult e = drv_array_format(r->res.linear.format, r->res.linear.numChannels, &t->kind, &t->chan_bytes);
      if (e != CUDA_SUCCESS || !r->res.linear.devPtr)
         return e == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : e;
      if (!memory_takes_format(t, r->res.linear.format, "linear"))
         return CUDA_ERROR_INVALID_VALUE;
      t->nchan = r->res.linear.numChannels;
      t->base = r->res.linear.devPtr;
      t->width = (uint32_t)(r->res.linear.sizeInBytes / (t->chan_bytes * t->nchan));
      t->height = t->depth = 1;
      t->pitch = t->slice = r->res.linear.sizeInBytes;
      t->flags = MC_TEX_F_BUFFER;
      return t->width ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   }
   case CU_RESOURCE_TYPE_PITCH2D: {
      CUresult e = drv_array_format(r->res.pitch2D.format, r->res.pitch2D.numChannels, &t->kind, &t->chan_bytes);
      if (e != CUDA_SUCCESS || !r->res.pitch2D.devPtr)
         return e == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : e;
      if (!memory_takes_format(t, r->res.pitch2D.format, "pitched"))
         return CUDA_ERROR_INVALID_VALUE;
      t->nchan = r->res.pitch2D.numChannels;
      t->base = r->res.pitch2D.devPtr;
      t->width = (uint32_t)r->res.pitch2D.width, t->height = (uint32_t)r->res.pitch2D.height, t->depth = 1;
      t->pitch = r->res.pitch2D.pitchInBytes;
      t->slice = t->pitch * t->height;
      if (!t->width || !t->height || t->pitch < (uint64_t)t->width * t->chan_bytes * t->nchan)
         return CUDA_ERROR_INVALID_VALUE;
      /* an H200's maxTexture2DLinear (a width or height one more is
       * CUDA_ERROR_INVALID_VALUE there) */
      if (r->res.pitch2D.width > DRV_TEX2D_LINEAR_WIDTH || r->res.pitch2D.height > DRV_TEX2D_LINEAR_HEIGHT ||
          t->pitch > DRV_TEX2D_LINEAR_PITCH)
         return CUDA_ERROR_INVALID_VALUE;
      return CUDA_SUCCESS;
   }
   case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
      /* level 0's data and sizes, and the levels' table */
      const core_mipmap *m = (const core_mipmap *)(const void *)r->res.mipmap.hMipmappedArray;
      if (!core_check_mipmap(m))
         return CUDA_ERROR_INVALID_HANDLE;
      const core_array *a = m->level[0];
      *arr = a;
      t->base = a->mem, t->pitch = a->pitch, t->slice = a->slice;
      t->width = a->width, t->height = a->height ? a->height : 1, t->depth = a->depth ? a->depth : 1;
      t->kind = a->kind, t->chan_bytes = a->chan_bytes, t->nchan = a->nchan;
      t->mip = m->table, t->nlevels = m->nlevels;
      return CUDA_SUCCESS;
   }
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* What txq and suq answer of an object over this resource (mc_tex's
 * txq_*, suq_size), as an H100 and an H200 answer (driver 580;
 * tests/cuda/tex_txq.cu, NATIVE.md "txq").  txq: linear and pitched
 * memory their width (and height), 0 for the rest; an array (or a
 * mipmapped array's level 0) its width, its height (1 for a 1-D array),
 * its depth for a 3-D one; a layered one its layers as the next dimension
 * (the height of a 1-D layered array, the depth of a 2-D one), a layered
 * cube map its cubes; a cube map no depth.  suq (measured on surfaces over
 * arrays): the array's extent as made, 0 where it has none (a cube map's
 * depth is its faces), but a 1-D layered array's layers as its height;
 * over linear or pitched memory (not measured) txq's answers. */
static void query_sizes(mc_tex *t, const CUDA_RESOURCE_DESC *r, const core_array *a)
{
   t->txq_levels = 1;
   t->txq_layer_dim = 3;
   t->txq_size[0] = t->width;
   t->txq_size[1] = r->resType == CU_RESOURCE_TYPE_PITCH2D ? t->height : 0;
   t->txq_size[2] = 0;
   memcpy(t->suq_size, t->txq_size, sizeof(t->suq_size));
   if (!a)
      return;
   if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
      t->txq_levels = t->nlevels;
   bool layered = (a->flags & CUDA_ARRAY3D_LAYERED) != 0, layered1d = layered && !a->height;
   t->txq_size[1] = a->height ? a->height : 1;
   if (a->flags & CUDA_ARRAY3D_CUBEMAP)
      t->txq_size[2] = layered ? a->depth / 6 : 0;
   else if (layered1d)
      t->txq_size[1] = a->depth;
   else
      t->txq_size[2] = a->depth;
   if (layered)
      t->txq_layer_dim = layered1d ? 1 : 2;
   t->suq_size[1] = layered1d ? a->depth : a->height;
   t->suq_size[2] = layered1d ? 0 : a->depth;
}

/* A level of detail in 1/256 of a level, truncated toward zero, as an
 * H200 holds the bias and the clamps (0.6 reads as 153/256 there), within
 * +-2^24; a NaN reads as nan_as. */
static int32_t lod_fixed(float v, int32_t nan_as)
{
   if (v != v)
      return nan_as;
   float s = v * 256.0f;
   return s >= 16777216.0f ? 16777216 : s <= -16777216.0f ? -16777216 : (int32_t)s;
}

/* The sampling state of a texture over a mipmapped array (prelude/tex.metal
 * says how it is used, as measured on an H200); what was not measured there
 * is refused by name. */
static CUresult mipmap_state(mc_tex *t, const CUDA_TEXTURE_DESC *d)
{
   /* a NaN bias reads as a bias of 15 levels on an H200 (tests/cuda/
    * tex_mipmap.cu); NaN clamps, and biases over 15, were not tried */
   t->lod_bias = lod_fixed(d->mipmapLevelBias, 15 * 256);
   t->lod_min = lod_fixed(d->minMipmapLevelClamp, 0);
   t->lod_max = lod_fixed(d->maxMipmapLevelClamp, 0);
   t->mip_linear = d->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR;
   /* Unnormalised coordinates need nothing here: an H200 reads them as
    * normalised ones on a mipmapped texture, with wrap and mirror clamping
    * as for unnormalised coordinates (prelude/tex.metal, mc_tex_sample_mip). */
   /* maxAnisotropy >= 2: an H100 narrows the blend between levels unless
    * the trilinear optimisation is disabled (prelude/tex.metal,
    * mc_tex_blend_weight; the same on layered and cube-map arrays) and
    * leaves the point filter between levels as it is (an H100: every
    * 1/256 of three levels, maxAnisotropy 1 to 8, tests/cuda/NATIVE.md,
    * thirty-second session); tex.grad's anisotropic filtering is not
    * fitted and fails the launch that reaches it (MC_STATUS_TEX_GRAD_ANISO) */
   if (d->maxAnisotropy > 1) {
      /* the blend floor(s (f - f0)): s = 6/4, 7/4, 8/4 and f0 = 42, 54, 64
       * for maxAnisotropy 2-3, 4-7, 8 and up (an H100) */
      uint32_t s4 = d->maxAnisotropy >= 8 ? 8 : d->maxAnisotropy >= 4 ? 7 : 6;
      uint32_t f0 = d->maxAnisotropy >= 8 ? 64 : d->maxAnisotropy >= 4 ? 54 : 42;
      t->aniso = MC_TEX_ANISO;
      if (!(d->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION))
         t->aniso |= (s4 - 4) << 8 | f0 << 16;
   }
   /* integers read as such blend between levels in integers (prelude/
    * tex.metal, mc_tex_iacc) */
   return CUDA_SUCCESS;
}

/* What a texture or surface object was made from, for its queries
 * (kept by core as an opaque copy). */
typedef struct tex_api {
   CUDA_RESOURCE_DESC res;
   CUDA_TEXTURE_DESC tex;
   bool is_texture;             /* a texture object (not a surface object) */
} tex_api;

/* Records what object h was made from; a failure (out of memory cannot
 * happen: the copy lives in core's entry) would only lose the queries. */
static void keep_api(uint64_t h, const CUDA_RESOURCE_DESC *r, const CUDA_TEXTURE_DESC *t)
{
   tex_api a;
   memset(&a, 0, sizeof(a));
   a.res = *r;
   if (t)
      a.tex = *t;
   a.is_texture = t != NULL;
   core_tex_set_api(h, &a, sizeof(a));
}

/* Whether reads of t blend float texels across slices (a 3-D array) or
 * levels (linear between them), where the filter is not yet exact. */
static bool float_blend_inexact(const mc_tex *t, const CUDA_TEXTURE_DESC *d, const core_array *arr)
{
   if (t->kind != MC_TEX_FLOAT || d->filterMode != CU_TR_FILTER_MODE_LINEAR)
      return false;
   if (t->mip && d->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR)
      return true;
   return arr && arr->depth > 1 && !(arr->flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP));
}

/* ==== cuTexObjectCreate (libcuda.@) ==== */
CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
   API_ENTER("pTexObject=%p pResDesc=%p pTexDesc=%p pResViewDesc=%p", (void *)pTexObject, (const void *)pResDesc,
             (const void *)pTexDesc, (const void *)pResViewDesc);
   API_CHECK(pTexObject && pResDesc && pTexDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   if (pResViewDesc)
      API_NOT_SUPPORTED("resource views of texture objects");
   mc_tex t = { 0 };
   const core_array *arr;
   CUresult r = resource(pResDesc, &t, &arr);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   const CUDA_TEXTURE_DESC *d = pTexDesc;
   for (int k = 0; k < 3; k++) {
      API_CHECK((unsigned)d->addressMode[k] <= CU_TR_ADDRESS_MODE_BORDER, CUDA_ERROR_INVALID_VALUE);
      t.addr[k] = (uint32_t)d->addressMode[k];
   }
   API_CHECK((unsigned)d->filterMode <= CU_TR_FILTER_MODE_LINEAR, CUDA_ERROR_INVALID_VALUE);
   if (d->filterMode == CU_TR_FILTER_MODE_LINEAR)
      t.flags |= MC_TEX_F_LINEAR;
   if (d->flags & CU_TRSF_NORMALIZED_COORDINATES)
      t.flags |= MC_TEX_F_NORM_COORDS;
   /* (the normalised formats read so whatever the flag says: prelude/tex.metal) */
   bool integers = t.kind == MC_TEX_UNSIGNED || t.kind == MC_TEX_SIGNED;
   /* 32-bit integers are never promoted: NVIDIA's runtime passes no
    * CU_TRSF_READ_AS_INTEGER for them read as elements, and the H100's
    * driver returns their bits then (tests/cuda/tex_float_filter.cu through
    * NVIDIA's libcudart over ours, and natively) */
   if (!(d->flags & CU_TRSF_READ_AS_INTEGER) && integers && t.chan_bytes < 4)
      t.flags |= MC_TEX_F_NORM_READ;
   /* An H200 filters integers read as such (prelude/tex.metal,
    * mc_tex_iacc); probed on 2-D arrays (coordinates normalised or not)
    * and mipmapped arrays, not on cube maps */
   if (d->filterMode == CU_TR_FILTER_MODE_LINEAR && (d->flags & CU_TRSF_READ_AS_INTEGER) && integers && arr &&
       (arr->flags & CUDA_ARRAY3D_CUBEMAP))
      API_NOT_SUPPORTED("linear filtering (filterMode linear) of integers read as such on a cube map");
   /* the prelude decodes 8-bit unsigned channels by an H200's table
    * (mc_tex_srgb) and filters them as an H100 does (mc_tex_srgb_merge) */
   if (d->flags & CU_TRSF_SRGB)
      t.flags |= MC_TEX_F_SRGB;
   if (float_blend_inexact(&t, d, arr)) {
      /* the prelude adds the slices' (levels') parts exactly, which an
       * H100 does not always (prelude tex.metal, mc_tex_flin_sum;
       * tests/cuda/NATIVE.md, twenty-ninth and thirty-second sessions):
       * say so once */
      LOG_ONCE(LOG_LEVEL_WARN, "linear filtering of float or half texels across the slices of a 3-D texture or "
               "between mipmap levels: about 1 in 600 reads is above an NVIDIA GPU's, mostly by one ulp");
   }
   memcpy(t.border, d->borderColor, sizeof(t.border));   /* its bits: core_tex_create converts them */
   if (arr && (arr->flags & CUDA_ARRAY3D_CUBEMAP) && (d->flags & CU_TRSF_SEAMLESS_CUBEMAP) &&
       d->filterMode == CU_TR_FILTER_MODE_LINEAR)
      API_NOT_SUPPORTED("seamless cube-map filtering (linear filtering across face edges)");
   if (t.mip) {
      /* an H200 refuses an unknown filter between levels */
      API_CHECK((unsigned)d->mipmapFilterMode <= CU_TR_FILTER_MODE_LINEAR, CUDA_ERROR_INVALID_VALUE);
      CUresult e = mipmap_state(&t, d);
      if (e != CUDA_SUCCESS)
         return API_RETURN(e);
   }
   if (arr && (arr->flags & CUDA_ARRAY3D_CUBEMAP)) {
      /* A face is read at its (s, t) in [0, 1] (prelude/tex.metal), clamped
       * to the face, whatever the address modes. */
      t.addr[0] = t.addr[1] = CU_TR_ADDRESS_MODE_CLAMP;
   }
   query_sizes(&t, pResDesc, arr);
   uint64_t h;
   if ((r = (CUresult)core_tex_create(c, &t, &h)) == CUDA_SUCCESS) {
      keep_api(h, pResDesc, pTexDesc);
      *pTexObject = h;
   }
   return API_RETURN(r);
}

/* ==== cuTexObjectDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject)
{
   API_ENTER("texObject=%#llx", (unsigned long long)texObject);
   API_NEED_INIT();
   return API_RETURN((CUresult)core_tex_destroy(texObject));
}

/* ==== cuSurfObjectCreate (libcuda.@) ==== */
CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
   API_ENTER("pSurfObject=%p pResDesc=%p", (void *)pSurfObject, (const void *)pResDesc);
   API_CHECK(pSurfObject && pResDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   /* a surface is a CUDA array made with CUDA_ARRAY3D_SURFACE_LDST */
   API_CHECK(pResDesc->resType == CU_RESOURCE_TYPE_ARRAY, CUDA_ERROR_INVALID_VALUE);
   mc_tex t = { 0 };
   const core_array *arr;
   CUresult r = resource(pResDesc, &t, &arr);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   /* an array made without CUDA_ARRAY3D_SURFACE_LDST is accepted too, as
    * by NVIDIA's driver 580 (an H200) */
   query_sizes(&t, pResDesc, arr);
   uint64_t h;
   if ((r = (CUresult)core_tex_create(c, &t, &h)) == CUDA_SUCCESS) {
      keep_api(h, pResDesc, NULL);
      *pSurfObject = h;
   }
   return API_RETURN(r);
}

/* ==== cuSurfObjectDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject)
{
   API_ENTER("surfObject=%#llx", (unsigned long long)surfObject);
   API_NEED_INIT();
   return API_RETURN((CUresult)core_tex_destroy(surfObject));
}

/* ==== cuTexObjectGetResourceDesc (libcuda.@) ==== the descriptor the
 * object was made from; CUDA_ERROR_INVALID_VALUE for no texture object */
CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
   API_ENTER("pResDesc=%p texObject=%#llx", (void *)pResDesc, (unsigned long long)texObject);
   API_CHECK(pResDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   tex_api a;
   API_CHECK(core_tex_get_api(texObject, &a, sizeof(a)) && a.is_texture, CUDA_ERROR_INVALID_VALUE);
   *pResDesc = a.res;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuTexObjectGetTextureDesc (libcuda.@) ==== */
CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
   API_ENTER("pTexDesc=%p texObject=%#llx", (void *)pTexDesc, (unsigned long long)texObject);
   API_CHECK(pTexDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   tex_api a;
   API_CHECK(core_tex_get_api(texObject, &a, sizeof(a)) && a.is_texture, CUDA_ERROR_INVALID_VALUE);
   *pTexDesc = a.tex;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuTexObjectGetResourceViewDesc (libcuda.@) ==== no object here has
 * a resource view (cuTexObjectCreate refuses them).  cuda.h says "if no
 * resource view was set for texObject, the CUDA_ERROR_INVALID_VALUE is
 * returned", but NVIDIA's driver answers success there, with a NULL
 * pointer too, leaving the contents undefined (an H200, driver 580, seen
 * through NVIDIA's runtime, static and shared: tests/cuda/tex_queries):
 * this answers the same, with a view of nothing (all zero). */
CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject)
{
   API_ENTER("pResViewDesc=%p texObject=%#llx", (void *)pResViewDesc, (unsigned long long)texObject);
   API_NEED_INIT();
   tex_api a;
   API_CHECK(core_tex_get_api(texObject, &a, sizeof(a)) && a.is_texture, CUDA_ERROR_INVALID_VALUE);
   if (pResViewDesc)
      memset(pResViewDesc, 0, sizeof(*pResViewDesc));
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuSurfObjectGetResourceDesc (libcuda.@) ==== */
CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
   API_ENTER("pResDesc=%p surfObject=%#llx", (void *)pResDesc, (unsigned long long)surfObject);
   API_CHECK(pResDesc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   tex_api a;
   API_CHECK(core_tex_get_api(surfObject, &a, sizeof(a)) && !a.is_texture, CUDA_ERROR_INVALID_VALUE);
   *pResDesc = a.res;
   return API_RETURN(CUDA_SUCCESS);
}
