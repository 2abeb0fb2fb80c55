/*
 * tex_model.h — what the texture and surface programs (tex2d, tex_layered,
 * tex_gather, tex_gather_layered, tex_gather_cube, tex_cubemap, tex_mipmap,
 * tex_grad, tex_mipmap_int, tex_predicated, surf_b64, surf_formatted, ...)
 * share: the host model of an address mode (the CUDA C++ Programming
 * Guide's appendix "Texture Fetching"; checked on an H200 by those
 * programs), of a gather's footprint and of a cube map's face, of the
 * border colour as normalised texels hold it (tex_norm_filter, tex_srgb)
 * and of maxAnisotropy's level blend (an H100), the making
 * of a texture or surface object over an array, a 3-D copy to or from
 * a whole array, and reads of every pair of 8-bit texel values.
 */
#ifndef TESTS_CUDA_TEX_MODEL_H
#define TESTS_CUDA_TEX_MODEL_H

#include "check.h"

#include <math.h>

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

/* The weight, in 1/256, of corner c (bit d set: the upper texel along axis
 * d) of the linear footprint of a level weighing wl (256 for one level) in
 * dims dimensions, for the axes' fractions a[] in 1/256: as an H200 weighs
 * them (1-D to 3-D, plain and mipmapped arrays: tests/cuda/NATIVE.md), wl
 * is split along z, then x, then each part along y, each split rounding
 * one share half up ([]) and giving the rest to the other: z0 = [(256 - c)
 * wl / 256], z1 = wl - z0; x1 = [a z / 256], x0 = z - x1; w00 = [(256 - b)
 * x0 / 256], w01 = x0 - w00, w11 = [b x1 / 256], w10 = x1 - w11. */
static int tex_model_corner_weight(const int *a, int wl, int dims, int c)
{
   if (dims == 3) {
      int z0 = ((256 - a[2]) * wl + 128) >> 8;
      wl = (c & 4) ? wl - z0 : z0;
   }
   int x1 = (a[0] * wl + 128) >> 8, x0 = wl - x1;
   if (dims == 1)
      return (c & 1) ? x1 : x0;
   if (c & 1) {
      int w11 = (a[1] * x1 + 128) >> 8;
      return (c & 2) ? w11 : x1 - w11;
   }
   int w00 = ((256 - a[1]) * x0 + 128) >> 8;
   return (c & 2) ? x0 - w00 : w00;
}

/* The texel (*i, *j) a gather's footprint starts from at texel coordinates
 * (x, y): floor(x - 0.5), floor(y - 0.5) in 1.8 fixed point, a fraction
 * that rounds to 256/256 moving to the next texel (an H200 does).  The four
 * texels then come in the PTX ISA's tld4 order: (i + tex_model_gather_di[k],
 * j + tex_model_gather_dj[k]), i.e. (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
static const int tex_model_gather_di[4] = { 0, 1, 1, 0 }, tex_model_gather_dj[4] = { 1, 1, 0, 0 };

static void tex_model_gather_origin(float x, float y, int *i, int *j)
{
   float bx = x - 0.5f, by = y - 0.5f, fx = floorf(bx), fy = floorf(by);
   *i = (int)fx + (rintf((bx - fx) * 256.0f) == 256.0f);
   *j = (int)fy + (rintf((by - fy) * 256.0f) == 256.0f);
}

/* The face of a cube map and its (s, t) in [0, 1] for direction v: the
 * guide's cubemap table, the major axis m picking the face (+x 0, -x 1,
 * +y 2, -y 3, +z 4, -z 5) and its (sc, tc) = +x (-z, -y), -x (z, -y),
 * +y (x, z), -y (x, -z), +z (x, -y), -z (-x, -y); s = (sc / m + 1) / 2,
 * t = (tc / m + 1) / 2.  Ties between axes are left open by the table
 * (the programs avoid them). */
static int tex_model_cube_face(const float *v, float *s, float *t)
{
   float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]), m, sc, tc;
   int f;
   if (ax > ay && ax > az)
      m = ax, f = v[0] >= 0 ? 0 : 1, sc = v[0] >= 0 ? -v[2] : v[2], tc = -v[1];
   else if (ay > ax && ay > az)
      m = ay, f = v[1] >= 0 ? 2 : 3, sc = v[0], tc = v[1] >= 0 ? v[2] : -v[2];
   else
      m = az, f = v[2] >= 0 ? 4 : 5, sc = v[2] >= 0 ? v[0] : -v[0], tc = -v[1];
   *s = (sc / m + 1.0f) * 0.5f;
   *t = (tc / m + 1.0f) * 0.5f;
   return f;
}

/* A direction v (major axis of length m) whose face coordinates are (s, t)
 * on face f: the inverse of tex_model_cube_face. */
static void tex_model_cube_direction(int f, float s, float t, float m, float *v)
{
   float sc = (2 * s - 1) * m, tc = (2 * t - 1) * m;
   switch (f) {
   case 0: v[0] = m, v[1] = -tc, v[2] = -sc; break;
   case 1: v[0] = -m, v[1] = -tc, v[2] = sc; break;
   case 2: v[0] = sc, v[1] = m, v[2] = tc; break;
   case 3: v[0] = sc, v[1] = -m, v[2] = -tc; break;
   case 4: v[0] = sc, v[1] = -tc, v[2] = m; break;
   default: v[0] = -sc, v[1] = -tc, v[2] = -m; break;
   }
}

/* The resource of the whole array a. */
static cudaResourceDesc tex_model_array_resource(cudaArray_t a)
{
   cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;
   return rd;
}

/* A surface object over the whole array a. */
static cudaSurfaceObject_t tex_model_surface(cudaArray_t a)
{
   cudaResourceDesc rd = tex_model_array_resource(a);
   cudaSurfaceObject_t s = 0;
   CHECK_CUDA(cudaCreateSurfaceObject(&s, &rd));
   return s;
}

/* A texture object over the whole array a. */
static cudaTextureObject_t tex_model_object(cudaArray_t a, int addr0, int addr1, bool linear, bool norm,
                                            cudaTextureReadMode rm, const float *border)
{
   cudaResourceDesc rd = tex_model_array_resource(a);
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

/* Point sampling of the whole array a as stored: clamp, unnormalised
 * coordinates, the element type (the gather programs). */
static cudaTextureObject_t tex_model_point_object(cudaArray_t a)
{
   return tex_model_object(a, cudaAddressModeClamp, cudaAddressModeClamp, false, false, cudaReadModeElementType, NULL);
}

/* ---- mipmapped textures (tex_mipmap.cu, tex_grad.cu) ---- */

/* A texture's sampling state for a mipmapped array. */
typedef struct tex_model_sampler {
   bool linear, mip_linear;
   int addr;                          /* one mode for every dimension */
   float bias, mn, mx;
   bool unnorm;                       /* unnormalised coordinates (read as normalised ones) */
   int aniso;                         /* maxAnisotropy */
   bool no_trilinear_opt;             /* disableTrilinearOptimization */
} tex_model_sampler;

/* The weight in 1/256 of the upper of two levels at the fraction f (1/256)
 * of the level of detail, linear between levels: f, but with maxAnisotropy
 * >= 2 and the trilinear optimisation on an H100 narrows the blend
 * (tests/cuda/NATIVE.md, thirtieth session: every 1/256 of three intervals,
 * 1-D to 3-D, maxAnisotropy 2 to 1000): floor(s (f - f0)) within [0, 256],
 * s = 3/2, f0 = 42 for maxAnisotropy 2 and 3; 7/4, 54 for 4 to 7; 2, 64
 * from 8 on. */
static int tex_model_blend(const tex_model_sampler *s, int f)
{
   if (s->aniso < 2 || s->no_trilinear_opt)
      return f;
   int num = s->aniso >= 8 ? 8 : s->aniso >= 4 ? 7 : 6, f0 = s->aniso >= 8 ? 64 : s->aniso >= 4 ? 54 : 42;
   int v = f < f0 ? 0 : num * (f - f0) / 4;
   return v > 256 ? 256 : v;
}

/* A bias or clamp in 1/256 of a level, as an H200 reads it: truncated
 * toward zero (NaN: nan_as). */
static int tex_model_lod_fixed(float v, int nan_as)
{
   if (v != v)
      return nan_as;
   double s = (double)v * 256.0;
   return s >= 16777216.0 ? 16777216 : s <= -16777216.0 ? -16777216 : (int)s;
}

/* The level of detail q (1/256 of a level) plus the bias (a NaN bias reads
 * as 15 levels), limited to the max clamp, raised to the min clamp, then to
 * [0, 256 (levels - 1)]. */
static int tex_model_lod_clamp(long long q, const tex_model_sampler *s, int levels)
{
   long long l = q + tex_model_lod_fixed(s->bias, 15 * 256);
   long long mx = tex_model_lod_fixed(s->mx, 0), mn = tex_model_lod_fixed(s->mn, 0);
   l = l > mx ? mx : l;
   l = l < mn ? mn : l;
   long long top = (levels - 1) * 256LL;
   return (int)(l < 0 ? 0 : l > top ? top : l);
}

/* A texture object over the mipmapped array a (element reads); *err the
 * creation's status. */
static cudaTextureObject_t tex_model_mip_object_err(cudaMipmappedArray_t a, const tex_model_sampler *s, cudaError_t *err)
{
   cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeMipmappedArray;
   rd.res.mipmap.mipmap = a;
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   for (int k = 0; k < 3; k++)
      td.addressMode[k] = (cudaTextureAddressMode)s->addr;
   td.filterMode = s->linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.mipmapFilterMode = s->mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.readMode = cudaReadModeElementType;
   td.normalizedCoords = !s->unnorm;
   td.mipmapLevelBias = s->bias;
   td.minMipmapLevelClamp = s->mn;
   td.maxMipmapLevelClamp = s->mx;
   td.maxAnisotropy = (unsigned)s->aniso;
   td.disableTrilinearOptimization = s->no_trilinear_opt;
   cudaTextureObject_t t = 0;
   *err = cudaCreateTextureObject(&t, &rd, &td, NULL);
   return t;
}

/* A texture object over the mipmapped array a (element reads). */
static cudaTextureObject_t tex_model_mip_object(cudaMipmappedArray_t a, const tex_model_sampler *s)
{
   cudaError_t e;
   cudaTextureObject_t t = tex_model_mip_object_err(a, s, &e);
   CHECK_CUDA(e);
   return t;
}

/* The border colour as a texture's texels hold it, n-bit channels read
 * as normalised floats (an H100, CUDA 13.0, driver 580,
 * tests/cuda/NATIVE.md, thirtieth session: every one of 256 colours per
 * format read at the border, and 65 536 filtered reads across each
 * texture's edges): an n-bit unorm channel takes the colour clamped to
 * [0, 1], truncated to n + 4 fraction bits, times 2^n - 1, rounded half
 * toward zero; a signed one the same of its magnitude with n - 1 bits,
 * clamped to [-1, 1]; a half one truncates toward zero; a float one keeps
 * it.  Then it is read and filtered as a texel is. */
static int tex_model_border_unorm(float c, int bits)
{
   if (!(c > 0.0f))
      return 0;
   if (c >= 1.0f)
      return (1 << bits) - 1;
   long long fx = (long long)((double)c * (double)(1LL << (bits + 4)));
   return (int)((fx * ((1LL << bits) - 1) + (1LL << (bits + 3)) - 1) >> (bits + 4));
}

static int tex_model_border_norm(float c, int bits, bool sgn)
{
   if (!sgn)
      return tex_model_border_unorm(c, bits);
   int k = tex_model_border_unorm(fabsf(c), bits - 1);
   return c < 0.0f ? -k : k;
}

/* Uniform in [0, 1) (xorshift64; a fixed seed: the same cases every run). */
static unsigned long long tex_model_rng = 0x9e3779b97f4a7c15ull;
static double tex_model_urand(void)
{
   tex_model_rng ^= tex_model_rng << 13, tex_model_rng ^= tex_model_rng >> 7, tex_model_rng ^= tex_model_rng << 17;
   return (double)(tex_model_rng >> 11) * (1.0 / 9007199254740992.0);
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

/* ---- every ordered pair of 8-bit values as neighbours (tex_norm_filter,
 * tex_srgb) ----
 * Layer a of a 1-D layered array TEX_MODEL_PAIR_W texels wide holds a, 0,
 * a, 1, ..., a, 255, a (tex_model_pair_value), so the pair (a, b) lies at
 * x = 2b.  Pair p = 256 a + b is read at four weights (1/256 of the way
 * from a to b): (b - a) & 255 and three from a hash of 4 p + j. */
enum { TEX_MODEL_PAIR_W = 513, TEX_MODEL_NPAIR = 65536 };

static int tex_model_pair_value(int a, int x) { return x & 1 ? x >> 1 : a; }

/* wts[4 p + j]: the weights of pair p, the hash's input (4 p + j) x mul + add. */
static void tex_model_pair_weights(int *wts, uint32_t mul, uint32_t add)
{
   for (int p = 0; p < TEX_MODEL_NPAIR; p++) {
      wts[4 * p] = ((p & 255) - (p >> 8)) & 255;
      for (int j = 1; j < 4; j++)
         wts[4 * p + j] = (int)(mix32((uint32_t)(4 * p + j) * mul + add) % 255u) + 1;
   }
}

/* The array of that layout in format d, elements of elem bytes from raw
 * (TEX_MODEL_PAIR_W x 256 of them); NULL if it could not be made. */
static cudaArray_t tex_model_pair_array(cudaChannelFormatDesc d, void *raw, size_t elem)
{
   cudaArray_t a = NULL;
   if (!CHECK_CUDA(cudaMalloc3DArray(&a, &d, make_cudaExtent(TEX_MODEL_PAIR_W, 0, 256), cudaArrayLayered)))
      return NULL;
   tex_model_copy3d(a, raw, TEX_MODEL_PAIR_W * elem, TEX_MODEL_PAIR_W, 1, 256, true);
   return a;
}

template <class T> __global__ void tex_model_pair_kernel(cudaTextureObject_t t, const int *wts, T *o)
{
   int p = blockIdx.x * blockDim.x + threadIdx.x;
   for (int j = 0; j < 4; j++)
      o[4 * p + j] = tex1DLayered<T>(t, 2.0f * (float)(p & 255) + 0.5f + (float)wts[4 * p + j] / 256.0f, p >> 8);
}

/* The 4 x TEX_MODEL_NPAIR reads of t (over such an array) at wts, into
 * out; false if they could not be made. */
template <class T> static bool tex_model_read_pairs(cudaTextureObject_t t, const int *wts, T *out)
{
   const size_t n = 4 * (size_t)TEX_MODEL_NPAIR;
   int *dw = NULL;
   T *dout = NULL;
   bool ok = CHECK_CUDA(cudaMalloc(&dw, n * sizeof(int))) && CHECK_CUDA(cudaMalloc(&dout, n * sizeof(T)));
   if (ok) {
      CHECK_CUDA(cudaMemcpy(dw, wts, n * sizeof(int), cudaMemcpyHostToDevice));
      tex_model_pair_kernel<T><<<TEX_MODEL_NPAIR / 128, 128>>>(t, dw, dout);
      ok = CHECK_CUDA(cudaDeviceSynchronize()) && CHECK_CUDA(cudaMemcpy(out, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
   }
   CHECK_CUDA(cudaFree(dw));
   CHECK_CUDA(cudaFree(dout));
   return ok;
}

#endif
