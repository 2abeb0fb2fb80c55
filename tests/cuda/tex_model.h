/*
 * tex_model.h — what the texture programs (tex2d, tex_layered,
 * tex_gather, tex_cubemap) share: the host model of an address mode (the CUDA C++
 * Programming Guide's appendix "Texture Fetching"; checked on an H200 by
 * those programs), the making of a texture object over an array, and a
 * 3-D copy to or from a whole array.
 */
#ifndef TESTS_CUDA_TEX_MODEL_H
#define TESTS_CUDA_TEX_MODEL_H

#include "check.h"

/* Texel index *i of a dimension of n texels through the address mode
 * (cudaTextureAddressMode); false: outside with the border mode.  Wrap and
 * mirror exist only with normalised coordinates (unnormalised ones clamp). */
static bool tex_model_index(int mode, bool norm, int n, int *i)
{
   if (!norm && mode != cudaAddressModeBorder)
      mode = cudaAddressModeClamp;
   switch (mode) {
   case cudaAddressModeWrap: *i = ((*i % n) + n) % n; return true;
   case cudaAddressModeMirror: {
      int p = 2 * n, j = ((*i % p) + p) % p;
      *i = j >= n ? p - 1 - j : j;
      return true;
   }
   case cudaAddressModeBorder: return *i >= 0 && *i < n;
   default: *i = *i < 0 ? 0 : *i >= n ? n - 1 : *i; return true;
   }
}

/* A texture object over the whole array a. */
static cudaTextureObject_t tex_model_object(cudaArray_t a, int addr0, int addr1, bool linear, bool norm,
                                            cudaTextureReadMode rm, const float *border)
{
   cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = (cudaTextureAddressMode)addr0;
   td.addressMode[1] = (cudaTextureAddressMode)addr1;
   td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.readMode = rm;
   td.normalizedCoords = norm;
   if (border)
      memcpy(td.borderColor, border, sizeof(td.borderColor));
   cudaTextureObject_t t = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL));
   return t;
}

/* cudaMemcpy3D of w x h x d elements between host memory (rows of `row`
 * bytes) and the whole array a: into it (to) or out of it. */
static void tex_model_copy3d(cudaArray_t a, void *host, size_t row, size_t w, size_t h, size_t d, bool to)
{
   cudaMemcpy3DParms p;
   memset(&p, 0, sizeof(p));
   if (to) {
      p.srcPtr = make_cudaPitchedPtr(host, row, w, h);
      p.dstArray = a;
      p.kind = cudaMemcpyHostToDevice;
   } else {
      p.srcArray = a;
      p.dstPtr = make_cudaPitchedPtr(host, row, w, h);
      p.kind = cudaMemcpyDeviceToHost;
   }
   p.extent = make_cudaExtent(w, h, d);
   CHECK_CUDA(cudaMemcpy3D(&p));
}

#endif
