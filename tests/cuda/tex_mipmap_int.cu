/*
 * tex_mipmap_int.cu — integer textures read as integers (cudaReadModeElementType,
 * the driver's CU_TRSF_READ_AS_INTEGER) and filtered: between the levels of
 * a mipmapped array (mipmapFilterMode linear) and, through the driver,
 * within a level (filterMode linear), against a host model of what an H200
 * (driver 580) computes.
 *
 * An H200 accepts these textures (the runtime refuses only filterMode linear
 * with cudaReadModeElementType: cudaErrorInvalidFilterSetting) and filters
 * the integers themselves.  The model, fitted to two probe programs (about
 * 700 000 channel values of every integer format, tests/cuda/NATIVE.md,
 * "texmip") and checked here natively:
 *  - the level of detail, the levels, their weights wl (256 - f and f for
 *    lod = 256 L + f in 1/256) and the positions are those of float
 *    textures (tex_mipmap.cu): the normalised coordinate truncated to
 *    2^-21, times the size exactly; point filtering reads the texel under
 *    it, linear takes off half a texel and splits wl over the footprint
 *    (tex_model_corner_weight);
 *  - the result is the exact sum of weight x texel (signed or unsigned as
 *    the format), divided by 256 once: rounded half up for 8- and 16-bit
 *    channels, rounded down (floor) for 32-bit ones;
 *  - on a plain array, linear filtering of integers positions as on a
 *    mipmapped array (truncated to 2^-21, then scaled exactly).
 * Texel values are a hash of level, position and channel over each
 * format's whole range; the border colour is 0.  Also the runtime's
 * cudaErrorInvalidNormSetting for normalised reads of float and 32-bit
 * integer arrays (the probes' creation codes).
 *
 * Through the driver also unnormalised coordinates (the texel position
 * truncated to 2^-21), and float fetches (tex2D<float4>) of these
 * textures: an H100 returns the bits of the integers an integer fetch
 * returns, filtered within and between levels (tests/cuda/NATIVE.md,
 * 2026-12-06, twenty-eighth session).
 *
 * Not here, because metalcuda refuses it by name (not probed): filterMode
 * linear on integers read as such on a cube map.
 */
#include "tex_model.h"

#include <cuda.h>
#include <dlfcn.h>
#include <math.h>

/* the driver's calls, through libcuda.so.1 (dlopen: no -lcuda needed) */
static void *libcuda;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(libcuda, sym)

/* the fetch: a shape, then flags: a float fetch (tex2D<float4> ...: its
 * bits are compared), unnormalised coordinates (plain arrays) */
enum { M_LOD1, M_LOD2, M_LOD3, M_LAY2, M_PLAIN2, M_SHAPE = 15, M_FLOAT = 16, M_UNNORM = 32 };

struct In {
   float x, y, z, lod;
   int layer;
};

template <class T> __device__ int4 widen(T v)
{
   return make_int4((int)v.x, (int)v.y, (int)v.z, (int)v.w);
}

template <class T> __global__ void fetch(cudaTextureObject_t t, int mode, const In *in, int4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   In p = in[i];
   T r;
   switch (mode) {
   case M_LOD1: r = tex1DLod<T>(t, p.x, p.lod); break;
   case M_LOD2: r = tex2DLod<T>(t, p.x, p.y, p.lod); break;
   case M_LOD3: r = tex3DLod<T>(t, p.x, p.y, p.z, p.lod); break;
   case M_LAY2: r = tex2DLayeredLod<T>(t, p.x, p.y, p.layer, p.lod); break;
   default: r = tex2D<T>(t, p.x, p.y); break;
   }
   out[i] = widen<T>(r);
}

/* A float fetch (M_FLOAT): its bits, whatever the format (one kernel) */
__global__ void fetch_f(cudaTextureObject_t t, int mode, const In *in, int4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   In p = in[i];
   float4 r = (mode & M_SHAPE) == M_LOD2 ? tex2DLod<float4>(t, p.x, p.y, p.lod) : tex2D<float4>(t, p.x, p.y);
   out[i] = make_int4(__float_as_int(r.x), __float_as_int(r.y), __float_as_int(r.z), __float_as_int(r.w));
}

/* the formats: 4 channels of 8, 16 or 32 bits, unsigned or signed */
enum { F_U8, F_S8, F_U16, F_S16, F_U32, F_S32, F_COUNT };
static const char *fmt_name[F_COUNT] = { "u8", "s8", "u16", "s16", "u32", "s32" };
static int fmt_bits(int f) { return 8 << (f / 2); }
static bool fmt_signed(int f) { return f & 1; }

/* Texel channel c at (x, y, z) of level L: a hash over the format's range,
 * as the signed or unsigned value it reads as. */
static long long texel(int f, int L, int x, int y, int z, int c)
{
   uint32_t h = (uint32_t)L * 1000003u + (uint32_t)y * 7919u + (uint32_t)x * 104729u + (uint32_t)c * 15485863u +
                (uint32_t)z * 31337u + 12345u;
   h ^= h >> 15, h *= 2654435761u, h ^= h >> 13, h *= 2246822519u, h ^= h >> 16;
   int b = fmt_bits(f);
   uint64_t v = b == 32 ? h : h & ((1u << b) - 1u);
   if (fmt_signed(f) && (v >> (b - 1)))
      return (long long)v - (1ll << b);
   return (long long)v;
}

/* A texture's shape: dims (1-3), layered, sizes of level 0, levels. */
struct Shape {
   int dims;
   bool layered;
   int w, h, d, levels;
};

static int lsize(int n, int L) { return n >> L ? n >> L : 1; }

/* The sizes of level L along each axis (a layered texture's third is its
 * layer count). */
static void level_size(const Shape *s, int L, int *n)
{
   n[0] = lsize(s->w, L);
   n[1] = s->dims >= 2 ? lsize(s->h, L) : 1;
   n[2] = s->layered ? s->d : s->dims == 3 ? lsize(s->d, L) : 1;
}

static cudaChannelFormatDesc fmt_desc(int f)
{
   int b = fmt_bits(f);
   return cudaCreateChannelDesc(b, b, b, b, fmt_signed(f) ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned);
}

/* Fills level L's array with texel(). */
static void fill_level(cudaArray_t a, int f, const Shape *s, int L)
{
   int n[3];
   level_size(s, L, n);
   int cb = fmt_bits(f) / 8, es = 4 * cb;
   unsigned char *buf = (unsigned char *)malloc((size_t)n[0] * n[1] * n[2] * es);
   for (int z = 0; z < n[2]; z++)
      for (int y = 0; y < n[1]; y++)
         for (int x = 0; x < n[0]; x++)
            for (int c = 0; c < 4; c++) {
               uint32_t v = (uint32_t)texel(f, L, x, y, z, c);
               memcpy(buf + (((size_t)z * n[1] + y) * n[0] + x) * es + c * cb, &v, cb);   // little endian
            }
   tex_model_copy3d(a, buf, (size_t)n[0] * es, n[0], n[1], n[2], true);
   free(buf);
}

static cudaMipmappedArray_t make_mip(int f, const Shape *s)
{
   cudaChannelFormatDesc cd = fmt_desc(f);
   cudaMipmappedArray_t m = NULL;
   cudaExtent e = make_cudaExtent(s->w, s->dims >= 2 ? s->h : 0, s->dims == 3 || s->layered ? s->d : 0);
   CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, e, s->levels, s->layered ? cudaArrayLayered : 0));
   for (int L = 0; L < s->levels; L++) {
      cudaArray_t a = NULL;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&a, m, L));
      fill_level(a, f, s, L);
   }
   return m;
}

/* Position of normalised coordinate c on n texels in 2^-21 of a texel. */
static long long pos21(float c, int n)
{
   double t = floor((double)c * 2097152.0);
   t = t > 2199023255552.0 ? 2199023255552.0 : t < -2199023255552.0 ? -2199023255552.0 : t;
   return (long long)t * n;
}

/* The model's result, channel by channel. */
static void model(int f, const Shape *s, const tex_model_sampler *sm, const In *p, int mode, long long *out)
{
   bool plain_tex = (mode & M_SHAPE) == M_PLAIN2, unnorm = mode & M_UNNORM;
   long long q = plain_tex ? -(1ll << 40) : (long long)((double)p->lod * 256.0);   // toward zero
   int lod = s->levels > 1 || !plain_tex ? tex_model_lod_clamp(q, sm, s->levels) : 0;
   int l0 = (lod + 128) >> 8, wl0 = 256;
   if (sm->mip_linear)
      l0 = lod >> 8, wl0 = 256 - (lod & 255);
   long long acc[4] = { 0, 0, 0, 0 };
   float x[3] = { p->x, p->y, p->z };
   int dims = s->dims;
   for (int k = 0; k < 2; k++) {
      int wl = k == 0 ? wl0 : 256 - wl0, L = l0 + k;
      if (wl == 0)
         continue;
      int n[3];
      level_size(s, L, n);
      int base[3] = { 0, 0, s->layered ? p->layer : 0 }, a[3] = { 0, 0, 0 };
      if (s->layered)
         base[2] = base[2] < 0 ? 0 : base[2] >= n[2] ? n[2] - 1 : base[2];
      for (int d = 0; d < dims; d++) {
         long long v = pos21(x[d], unnorm ? 1 : n[d]);   // unnormalised: a texel position
         if (sm->linear) {
            v -= 1 << 20;
            if (sm->addr == cudaAddressModeClamp)
               v = v < 0 ? 0 : v > ((long long)(n[d] - 1) << 21) ? (long long)(n[d] - 1) << 21 : v;
            a[d] = (int)(((v & 0x1fffff) + 4096) >> 13);
            base[d] = (int)(v >> 21) + (a[d] == 256);
            a[d] &= 255;
         } else {
            base[d] = (int)(v >> 21);
         }
      }
      int corners = sm->linear ? 1 << dims : 1;
      for (int c = 0; c < corners; c++) {
         int w = sm->linear ? tex_model_corner_weight(a, wl, dims, c) : wl;
         int t[3] = { base[0] + (c & 1), base[1] + ((c >> 1) & 1), base[2] + (dims == 3 ? (c >> 2) & 1 : 0) };
         bool in = true;
         for (int d = 0; d < dims; d++)
            in = tex_model_index(sm->addr, true, n[d], &t[d]) && in;
         for (int ch = 0; ch < 4; ch++)
            acc[ch] += in ? (long long)w * texel(f, L, t[0], t[1], t[2], ch) : 0;   // border colour 0
      }
   }
   for (int ch = 0; ch < 4; ch++)
      out[ch] = fmt_bits(f) == 32 ? acc[ch] >> 8 : (acc[ch] + 128) >> 8;   // arithmetic shift: floor
}

static In *d_in;
static int4 *d_out;
enum { N = 1024 };

static void launch(int f, cudaTextureObject_t t, int mode, const In *in, int4 *out, int n)
{
   CHECK_CUDA(cudaMemcpy(d_in, in, n * sizeof(In), cudaMemcpyHostToDevice));
   int blocks = (n + 127) / 128;
   if (mode & M_FLOAT) {
      fetch_f<<<blocks, 128>>>(t, mode, d_in, d_out, n);
   } else {
      switch (f) {
      case F_U8: fetch<uchar4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      case F_S8: fetch<char4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      case F_U16: fetch<ushort4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      case F_S16: fetch<short4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      case F_U32: fetch<uint4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      default: fetch<int4><<<blocks, 128>>>(t, mode, d_in, d_out, n); break;
      }
   }
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, d_out, n * sizeof(int4), cudaMemcpyDeviceToHost));
}

/* n random fetches (lods in [lo, hi)) against the model: one check per
 * set, naming the first differing fetch. */
static void random_checks(const char *what, int f, cudaTextureObject_t t, const Shape *s, const tex_model_sampler *sm,
                          int mode, double lo, double hi, int n)
{
   static In in[N];
   static int4 out[N];
   for (int i = 0; i < n; i++) {
      in[i].x = (float)(tex_model_urand() * 2.0 - 0.5);
      in[i].y = (float)(tex_model_urand() * 2.0 - 0.5);
      in[i].z = (float)(tex_model_urand() * 2.0 - 0.5);
      in[i].lod = (float)(lo + tex_model_urand() * (hi - lo));
      in[i].layer = (int)(tex_model_urand() * (s->layered ? s->d : 1));
   }
   if (mode & M_UNNORM)
      for (int i = 0; i < n; i++) {
         in[i].x *= (float)s->w;
         in[i].y *= (float)s->h;
      }
   launch(f, t, mode, in, out, n);
   int bad = 0, first = -1;
   long long want[4], firstw[4] = { 0, 0, 0, 0 };
   for (int i = 0; i < n; i++) {
      model(f, s, sm, &in[i], mode, want);
      int got[4] = { out[i].x, out[i].y, out[i].z, out[i].w };
      bool ok = true;
      for (int c = 0; c < 4; c++)
         ok = ok && (int)(uint32_t)want[c] == got[c];
      if (!ok && bad++ == 0) {
         first = i;
         memcpy(firstw, want, sizeof(firstw));
      }
   }
   char msg[300];
   snprintf(msg, sizeof(msg), "%s %s addr %d: %d of %d fetches differ", what, fmt_name[f], sm->addr, bad, n);
   if (!CHECK(bad == 0)) {
      In &p = in[first];
      printf("  %s; first #%d (%.9g, %.9g, %.9g) lod %.9g layer %d: got (%d, %d, %d, %d), want (%lld, %lld, %lld, %lld)\n",
             msg, first, p.x, p.y, p.z, p.lod, p.layer, out[first].x, out[first].y, out[first].z, out[first].w,
             firstw[0], firstw[1], firstw[2], firstw[3]);
   }
}

/* cudaReadModeNormalizedFloat on float and 32-bit integer formats: an H200
 * refuses it (cudaErrorInvalidNormSetting; a 32-bit integer one filtered
 * linearly is cudaErrorInvalidFilterSetting first), over plain and
 * mipmapped arrays, whatever the filter between levels. */
static void norm_checks(void)
{
   static const struct {
      int bits;
      cudaChannelFormatKind kind;
   } fmts[4] = { { 32, cudaChannelFormatKindFloat },
                 { 16, cudaChannelFormatKindFloat },
                 { 32, cudaChannelFormatKindUnsigned },
                 { 32, cudaChannelFormatKindSigned } };
   for (int c = 0; c < 4; c++) {
      cudaChannelFormatDesc cd = cudaCreateChannelDesc(fmts[c].bits, 0, 0, 0, fmts[c].kind);
      cudaMipmappedArray_t m = NULL;
      cudaArray_t a = NULL;
      CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(16, 8, 0), 3));
      CHECK_CUDA(cudaMallocArray(&a, &cd, 16, 8));
      for (int k = 0; k < 8; k++) {
         bool linear = k & 1, mip_linear = k & 2, plain = k & 4;
         cudaResourceDesc rd;
         memset(&rd, 0, sizeof(rd));
         rd.resType = plain ? cudaResourceTypeArray : cudaResourceTypeMipmappedArray;
         if (plain)
            rd.res.array.array = a;
         else
            rd.res.mipmap.mipmap = m;
         cudaTextureDesc td;
         memset(&td, 0, sizeof(td));
         td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
         td.mipmapFilterMode = mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
         td.readMode = cudaReadModeNormalizedFloat;
         td.normalizedCoords = 1;
         td.maxMipmapLevelClamp = 10;
         cudaTextureObject_t t = 0;
         cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
         bool int32 = fmts[c].kind != cudaChannelFormatKindFloat;
         CHECK_ERR(e, int32 && linear ? cudaErrorInvalidFilterSetting : cudaErrorInvalidNormSetting);
         (void)cudaGetLastError();
         if (e == cudaSuccess)
            CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      CHECK_CUDA(cudaFreeArray(a));
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
}

/* The runtime: mipmapFilterMode linear, filterMode point, every format. */
static void runtime_checks(void)
{
   Shape s2 = { 2, false, 48, 20, 0, 6 };
   for (int f = 0; f < F_COUNT; f++) {
      cudaMipmappedArray_t m = make_mip(f, &s2);
      /* filterMode linear with element reads: the runtime refuses it */
      tex_model_sampler bad = { true, true, cudaAddressModeClamp, 0, 0, 20, false };
      cudaError_t e;
      cudaTextureObject_t t = tex_model_mip_object_err(m, &bad, &e);
      CHECK_ERR(e, cudaErrorInvalidFilterSetting);
      (void)cudaGetLastError();   // the failed call is also the last error
      if (e == cudaSuccess)
         CHECK_CUDA(cudaDestroyTextureObject(t));
      for (int addr = 0; addr < 4; addr++) {
         tex_model_sampler sm = { false, true, addr, addr == 1 ? 0.4f : 0.0f, addr == 2 ? 0.3f : 0.0f,
                                  addr == 2 ? 3.6f : 20.0f, false };
         t = tex_model_mip_object_err(m, &sm, &e);
         if (!CHECK_CUDA(e))
            continue;
         random_checks("tex2DLod 48x20", f, t, &s2, &sm, M_LOD2, -0.7, 6.3, N);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      /* tex2D: the bias and the min clamp make the level of detail */
      tex_model_sampler sb = { false, true, cudaAddressModeWrap, 1.3f, 0.7f, 20.0f, false };
      t = tex_model_mip_object_err(m, &sb, &e);
      if (CHECK_CUDA(e)) {
         random_checks("tex2D bias 1.3", f, t, &s2, &sb, M_PLAIN2, 0, 0, 256);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
   /* 1-D, 3-D and layered shapes */
   struct {
      Shape s;
      int mode, f;
      const char *what;
   } shapes[] = {
      { { 1, false, 200, 0, 0, 8 }, M_LOD1, F_S32, "tex1DLod 200" },
      { { 1, false, 200, 0, 0, 8 }, M_LOD1, F_U8, "tex1DLod 200" },
      { { 3, false, 16, 8, 12, 5 }, M_LOD3, F_S16, "tex3DLod 16x8x12" },
      { { 3, false, 16, 8, 12, 5 }, M_LOD3, F_U32, "tex3DLod 16x8x12" },
      { { 2, true, 24, 16, 3, 5 }, M_LAY2, F_S8, "tex2DLayeredLod 24x16x3" },
      { { 2, true, 24, 16, 3, 5 }, M_LAY2, F_U16, "tex2DLayeredLod 24x16x3" },
   };
   for (auto &c : shapes) {
      cudaMipmappedArray_t m = make_mip(c.f, &c.s);
      for (int addr = 0; addr < 4; addr++) {
         tex_model_sampler sm = { false, true, addr, 0, 0, 20, false };
         cudaError_t e;
         cudaTextureObject_t t = tex_model_mip_object_err(m, &sm, &e);
         if (!CHECK_CUDA(e))
            continue;
         random_checks(c.what, c.f, t, &c.s, &sm, c.mode, -0.7, c.s.levels + 0.3, 512);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
}

/* The driver: CU_TRSF_READ_AS_INTEGER with filterMode linear, on a plain
 * 2-D array and a mipmapped one (linear between levels too). */
static void driver_checks(void)
{
   FN(cuTexObjectCreate, "cuTexObjectCreate");
   FN(cuTexObjectDestroy, "cuTexObjectDestroy");
   if (!CHECK(p_cuTexObjectCreate && p_cuTexObjectDestroy))
      return;
   Shape s2 = { 2, false, 48, 20, 0, 6 };
   Shape s1 = { 2, false, 48, 20, 0, 1 };
   for (int f = 0; f < F_COUNT; f++) {
      cudaMipmappedArray_t m = make_mip(f, &s2);
      cudaChannelFormatDesc cd = fmt_desc(f);
      cudaArray_t plain = NULL;
      CHECK_CUDA(cudaMallocArray(&plain, &cd, 48, 20));
      fill_level(plain, f, &s2, 0);
      for (int kind = 0; kind < 5; kind++) {   // plain clamp, plain wrap, mipmapped wrap, mipmapped border,
                                               // plain clamp at unnormalised coordinates
         bool mip = kind == 2 || kind == 3, unnorm = kind == 4;
         tex_model_sampler sm = { true, true,
                                  kind == 0 || unnorm ? cudaAddressModeClamp
                                  : kind == 3         ? cudaAddressModeBorder
                                                      : cudaAddressModeWrap,
                                  0, 0, 20, false };
         CUDA_RESOURCE_DESC r;
         memset(&r, 0, sizeof(r));
         if (mip) {
            r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
            r.res.mipmap.hMipmappedArray = (CUmipmappedArray)m;
         } else {
            r.resType = CU_RESOURCE_TYPE_ARRAY;
            r.res.array.hArray = (CUarray)plain;
         }
         CUDA_TEXTURE_DESC td;
         memset(&td, 0, sizeof(td));
         for (int k = 0; k < 3; k++)
            td.addressMode[k] = (CUaddress_mode)sm.addr;
         td.filterMode = CU_TR_FILTER_MODE_LINEAR;
         td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
         td.maxMipmapLevelClamp = 20;
         td.flags = CU_TRSF_READ_AS_INTEGER | (unnorm ? 0 : CU_TRSF_NORMALIZED_COORDINATES);
         CUtexObject t = 0;
         CUresult e = p_cuTexObjectCreate(&t, &r, &td, NULL);
         if (!CHECK_INT(e, CUDA_SUCCESS))
            continue;
         int mode = (mip ? M_LOD2 : M_PLAIN2) | (unnorm ? M_UNNORM : 0);
         const char *what = mip ? "driver linear/linear tex2DLod 48x20"
                            : unnorm ? "driver linear tex2D 48x20 unnormalised"
                                     : "driver linear tex2D 48x20";
         random_checks(what, f, t, mip ? &s2 : &s1, &sm, mode, -0.7, 6.3, N);
         /* a float fetch of them returns the same integers' bits */
         random_checks(what, f, t, mip ? &s2 : &s1, &sm, mode | M_FLOAT, -0.7, 6.3, 256);
         CHECK_INT(p_cuTexObjectDestroy(t), CUDA_SUCCESS);
      }
      CHECK_CUDA(cudaFreeArray(plain));
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
}

int main(void)
{
   check_begin("tex_mipmap_int");
   CHECK_CUDA(cudaSetDevice(0));
   libcuda = dlopen("libcuda.so.1", RTLD_NOW);
   if (!libcuda)
      libcuda = dlopen("libcuda.so", RTLD_NOW);
   CHECK(libcuda != NULL);
   CHECK_CUDA(cudaMalloc(&d_in, N * sizeof(In)));
   CHECK_CUDA(cudaMalloc(&d_out, N * sizeof(int4)));
   runtime_checks();
   norm_checks();
   if (libcuda)
      driver_checks();
   CHECK_CUDA(cudaFree(d_in));
   CHECK_CUDA(cudaFree(d_out));
   return check_end();
}
