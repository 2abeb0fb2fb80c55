/*
 * tex_norm_filter.cu — linear filtering of integers read as normalised
 * floats, bit for bit: uchar4, ushort2, short2 arrays and the unorm8x4 and
 * unorm16x1 formats, 2-D, unnormalised coordinates with clamp and
 * normalised ones with wrap, at 4096 positions on a 1/512 grid.
 *
 * Expected: a host model of what an H100 computes (CUDA 13.0, driver 580;
 * tests/cuda/NATIVE.md, 2026-12-06, where it matched every one of 261 120
 * one-dimensional and 32 768 two-dimensional uchar4 reads and the reads
 * of unorm8x1/x4, unorm16x1/x4, uchar and snorm16x1 textures): each
 * texel's channel as a 16-bit integer (an 8-bit one times 257), the four
 * corner weights of tex_model.h (1/256 steps, the H200's rounding of their
 * products), s = the exact sum of weight x channel, n = floor((s + 128) /
 * 256), the result n / 65535 (unsigned) or max(n / 32767, -1) (signed).
 * The float model (tex2d.cu) is within 1e-5 of these, not equal.
 *
 * Also: the same fetches as integers (tex2D<uint4>) return the floats'
 * bits, and a mipmapped uchar4 array blends levels by the same 16-bit
 * rule (an H100, tests/cuda/NATIVE.md, 2026-12-06, twenty-eighth session).
 *
 * Signed 8-bit channels (char4, char read as normalised floats) are summed
 * as they are, S = the sum of weight x s (-128 too: the filter does not
 * clamp a texel at -1), and S becomes 16-bit steps as S + floor((floor(S /
 * 16) x 257 + 1024) / 2048), then / 32767 clamped at -1 (snorm8_steps:
 * every one of an H100's 16 777 216 reads between two char texels, all
 * pairs at every 1/256, tests/cuda/NATIVE.md, thirty-second session;
 * checked here on 2-D char4 reads, every pair of char values at four
 * weights, and the border colour).
 */
#include "tex_model.h"

#include <cuda_fp16.h>

#include <math.h>
#include <string.h>

enum { W = 16, H = 8, NP = 4096 };

__global__ void k_fetch(cudaTextureObject_t t, const float2 *c, float4 *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

/* The same fetch as integers: an H100 returns the floats' bits */
__global__ void k_fetch_u(cudaTextureObject_t t, const float2 *c, uint4 *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      o[i] = tex2D<uint4>(t, c[i].x, c[i].y);
}

/* tex2DLod at lods[i] */
__global__ void k_fetch_lod(cudaTextureObject_t t, const float2 *c, const float *lods, float4 *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      o[i] = tex2DLod<float4>(t, c[i].x, c[i].y, lods[i]);
}

struct fmt {
   const char *name;
   cudaChannelFormatDesc desc;
   int nch, bytes;
   bool sgn;
};

/* The modes of the main checks: clamp (unnormalised coordinates), wrap
 * (normalised), border (unnormalised). */
enum { CLAMP, WRAP, BORDER };

/* the per-axis weight in 1/256 and the first texel, as tex_model.h's
 * (the position clamped to the texels in the clamp mode) */
static void axis(float x, int n, int mode, int *p, int *w)
{
   float b = (mode == WRAP ? x * (float)n : x) - 0.5f;
   if (mode == CLAMP)
      b = fminf(fmaxf(b, 0.0f), (float)(n - 1));
   float f = floorf(b), a = (b - f) * 256.0f, ai = floorf(a);
   *p = (int)f;
   *w = (int)ai + (a - ai >= 0.5f ? 1 : 0);
   if (*w == 256) {
      *w = 0;
      *p += 1;
   }
}

static int wrap_or_clamp(int i, int n, bool wrap)
{
   if (wrap)
      return ((i % n) + n) % n;
   return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* channel k of texel (x, y), or of the border colour bc outside, as a
 * 16-bit integer */
static int chan16(const unsigned char *raw, const fmt &f, int x, int y, int k, const float *bc)
{
   if (x < 0 || x >= W || y < 0 || y >= H) {
      int v = tex_model_border_norm(bc[k], 8 * f.bytes, f.sgn);
      return f.bytes == 1 ? v * 257 : v;
   }
   const unsigned char *p = raw + ((size_t)(y * W + x) * f.nch + k) * f.bytes;
   if (f.bytes == 1)
      return p[0] * 257;
   uint16_t v;
   memcpy(&v, p, 2);
   return f.sgn ? (int)(int16_t)v : (int)v;
}

static float model(const unsigned char *raw, const fmt &f, float x, float y, int mode, const float *bc, int k)
{
   if (k >= f.nch)
      return 0.0f;
   int px, py, w[2];
   axis(x, W, mode, &px, &w[0]);
   axis(y, H, mode, &py, &w[1]);
   long long s = 0;
   for (int q = 0; q < 4; q++) {
      int xi = px + (q & 1), yi = py + (q >> 1);
      if (mode != BORDER)
         xi = wrap_or_clamp(xi, W, mode == WRAP), yi = wrap_or_clamp(yi, H, mode == WRAP);
      s += (long long)tex_model_corner_weight(w, 256, 2, q) * chan16(raw, f, xi, yi, k, bc);
   }
   long long n = (s + 128) >> 8;
   return f.sgn ? fmaxf((float)n / 32767.0f, -1.0f) : (float)n / 65535.0f;
}

/* A mipmapped uchar4 array's blend of levels 0 and 1 (W x H and W/2 x
 * H/2), linear within and between levels, clamp, normalised coordinate
 * (x, y) at lod in [0, 1): the same 16-bit rule over both levels'
 * footprints, the level weights 256 - f and f (lod = f / 256, truncated),
 * each split over its footprint (tex_model_corner_weight); positions as
 * on every mipmapped array (the coordinate truncated to 2^-21, times the
 * size, less half a texel, clamped; the weight rounded from 2^-21 to
 * 2^-8: tex_mipmap_int.cu). */
static float model_mip(const unsigned char *lv0, const unsigned char *lv1, float x, float y, float lod, int k)
{
   int f = (int)(lod * 256.0f), wl[2] = { 256 - f, f };
   long long s = 0;
   for (int L = 0; L < 2; L++) {
      if (!wl[L])
         continue;
      int n[2] = { W >> L, H >> L }, p[2], a[2];
      const unsigned char *raw = L ? lv1 : lv0;
      float c[2] = { x, y };
      for (int d = 0; d < 2; d++) {
         long long v = (long long)floor((double)c[d] * 2097152.0) * n[d] - (1 << 20);
         long long top = (long long)(n[d] - 1) << 21;
         v = v < 0 ? 0 : v > top ? top : v;
         a[d] = (int)(((v & 0x1fffff) + 4096) >> 13);
         p[d] = (int)(v >> 21) + (a[d] == 256);
         a[d] &= 255;
      }
      for (int q = 0; q < 4; q++) {
         int xi = wrap_or_clamp(p[0] + (q & 1), n[0], false), yi = wrap_or_clamp(p[1] + (q >> 1), n[1], false);
         s += (long long)tex_model_corner_weight(a, wl[L], 2, q) * (raw[(yi * n[0] + xi) * 4 + k] * 257);
      }
   }
   return (float)((s + 128) >> 8) / 65535.0f;
}

/* The level blend of a mipmapped uchar4 array read as normalised floats:
 * in 16 bits as within a level (an H100, tests/cuda/NATIVE.md, 2026-12-06,
 * twenty-eighth session; metalcuda blended the two levels' floats). */
static void mip_checks(float2 *dc, float4 *dout)
{
   static unsigned char lv0[W * H * 4], lv1[W * H];
   for (int i = 0; i < W * H * 4; i++)
      lv0[i] = (unsigned char)(mix32(0x51u + (uint32_t)i * 3u) >> 9);
   for (int i = 0; i < W * H; i++)
      lv1[i] = (unsigned char)(mix32(0x7a3u + (uint32_t)i * 5u) >> 13);
   cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
   cudaMipmappedArray_t m;
   if (!CHECK_CUDA(cudaMallocMipmappedArray(&m, &d, make_cudaExtent(W, H, 0), 2)))
      return;
   for (int L = 0; L < 2; L++) {
      cudaArray_t a;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&a, m, L));
      int w = W >> L, h = H >> L;
      CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, L ? lv1 : lv0, w * 4, w * 4, h, cudaMemcpyHostToDevice));
   }
   cudaResourceDesc r;
   memset(&r, 0, sizeof r);
   r.resType = cudaResourceTypeMipmappedArray;
   r.res.mipmap.mipmap = m;
   cudaTextureDesc td;
   memset(&td, 0, sizeof td);
   td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
   td.filterMode = cudaFilterModeLinear;
   td.mipmapFilterMode = cudaFilterModeLinear;
   td.readMode = cudaReadModeNormalizedFloat;
   td.normalizedCoords = 1;
   td.maxMipmapLevelClamp = 1;
   cudaTextureObject_t t;
   if (CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL))) {
      static float2 c[NP];
      static float lods[NP], got[NP * 4], want[NP * 4];
      static float4 out[NP];
      uint32_t h = 777u;
      for (int i = 0; i < NP; i++) {
         h = mix32(h + (uint32_t)i);
         c[i].x = (float)(h % ((W + 2) * 512)) / (512.0f * W) - 1.0f / W;
         h = mix32(h);
         c[i].y = (float)(h % ((H + 2) * 512)) / (512.0f * H) - 1.0f / H;
         h = mix32(h);
         lods[i] = (float)(h % 256) / 256.0f + 1.0f / 1024.0f;
      }
      float *dl;
      CHECK_CUDA(cudaMalloc(&dl, sizeof lods));
      CHECK_CUDA(cudaMemcpy(dl, lods, sizeof lods, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
      k_fetch_lod<<<NP / 128, 128>>>(t, dc, dl, dout, NP);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
      for (int i = 0; i < NP; i++)
         for (int k = 0; k < 4; k++) {
            got[4 * i + k] = (&out[i].x)[k];
            want[4 * i + k] = model_mip(lv0, lv1, c[i].x, c[i].y, lods[i], k);
         }
      CHECK_ARRAY_F32("uchar4 mipmapped, between levels 0 and 1", got, want, NP * 4);
      CHECK_CUDA(cudaFree(dl));
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeMipmappedArray(m));
}

/* Linear filtering of a read as normalised floats, clamp, unnormalised
 * coordinates. */
static cudaTextureObject_t linear_norm_object(cudaArray_t a)
{
   return tex_model_object(a, cudaAddressModeClamp, cudaAddressModeClamp, true, false, cudaReadModeNormalizedFloat,
                           NULL);
}

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* The result of signed 8-bit channels whose weighted sum (weights in
 * 1/256) is s (the header). */
static float snorm8_steps(long long s)
{
   long long n = s + floor_div(floor_div(s, 16) * 257 + 1024, 2048);
   return (float)(n < -32767 ? -32767 : n) / 32767.0f;
}

/* Every ordered pair of char values at four weights (tex_model_read_pairs). */
static void snorm8_pair_checks(void)
{
   static signed char raw[256 * TEX_MODEL_PAIR_W];
   for (int a = 0; a < 256; a++)
      for (int x = 0; x < TEX_MODEL_PAIR_W; x++)
         raw[a * TEX_MODEL_PAIR_W + x] = (signed char)(tex_model_pair_value(a, x) - 128);
   static int wts[4 * TEX_MODEL_NPAIR];
   tex_model_pair_weights(wts, 40503u, 17u);
   cudaArray_t arr = tex_model_pair_array(cudaCreateChannelDesc<signed char>(), raw, 1);
   if (!arr)
      return;
   cudaTextureObject_t t = linear_norm_object(arr);
   static float got[4 * TEX_MODEL_NPAIR], want[4 * TEX_MODEL_NPAIR];
   if (t && tex_model_read_pairs(t, wts, got)) {
      for (int p = 0; p < TEX_MODEL_NPAIR; p++)
         for (int j = 0; j < 4; j++) {
            long long w = wts[4 * p + j], a = (p >> 8) - 128, b = (p & 255) - 128;
            want[4 * p + j] = snorm8_steps((256 - w) * a + w * b);
         }
      CHECK_ARRAY_F32("char, linear: every pair of values at four weights", got, want, 4 * TEX_MODEL_NPAIR);
   }
   if (t)
      CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(arr));
}

/* char4 read as normalised floats, linear, clamp, 2-D (the header). */
static void snorm8_checks(const float2 *c, float2 *dc, float4 *dout)
{
   static signed char raw[W * H * 4];
   for (int i = 0; i < W * H * 4; i++)
      raw[i] = (signed char)(mix32(0x3c1u + (uint32_t)i * 11u) >> 13);
   for (int i = 0; i < W * H * 4; i += 13)
      raw[i] = -128;
   cudaChannelFormatDesc d = cudaCreateChannelDesc<char4>();
   cudaArray_t a;
   if (!CHECK_CUDA(cudaMallocArray(&a, &d, W, H)))
      return;
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, raw, W * 4, W * 4, H, cudaMemcpyHostToDevice));
   cudaTextureObject_t t = linear_norm_object(a);
   if (t) {
      static float4 out[NP];
      CHECK_CUDA(cudaMemcpy(dc, c, NP * sizeof(float2), cudaMemcpyHostToDevice));
      k_fetch<<<NP / 128, 128>>>(t, dc, dout, NP);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
      static float got[NP * 4], want[NP * 4];
      for (int i = 0; i < NP; i++) {
         int px, py, w[2];
         axis(c[i].x, W, CLAMP, &px, &w[0]);
         axis(c[i].y, H, CLAMP, &py, &w[1]);
         for (int k = 0; k < 4; k++) {
            long long s = 0;
            for (int q = 0; q < 4; q++) {
               int xi = wrap_or_clamp(px + (q & 1), W, false), yi = wrap_or_clamp(py + (q >> 1), H, false);
               s += (long long)tex_model_corner_weight(w, 256, 2, q) * raw[(yi * W + xi) * 4 + k];
            }
            got[4 * i + k] = (&out[i].x)[k];
            want[4 * i + k] = snorm8_steps(s);
         }
      }
      CHECK_ARRAY_F32("char4, linear, clamp", got, want, NP * 4);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeArray(a));
}

/* Each object of t read far outside its texels (the border colour). */
__global__ void k_border(const cudaTextureObject_t *t, float4 *o)
{
   o[threadIdx.x] = tex2D<float4>(t[threadIdx.x], -3.0f, -3.0f);
}

/* half's truncation toward zero of c (finite, within half's range) */
static float half_toward_zero(float c) { return __half2float(__float2half_rz(c)); }

/* The border colour read alone with point and linear filtering, for 64
 * colours in each of 8/16-bit unsigned and signed, half and float
 * textures: ties of the format's steps and their float neighbours, values
 * in and past the range (tex_model_border_norm; the signed 8-bit linear read
 * goes through that format's sum, snorm8_steps).  The
 * channels a format lacks read 0, and 8-bit integers read as elements
 * return the low 8 bits of the colour's float, sign-extended, as a texel's
 * bits (an H100, tests/cuda/NATIVE.md, thirtieth session). */
static void border_colour_checks(float4 *dout)
{
   enum { K = 64 };
   struct bfmt {
      const char *name;
      cudaChannelFormatDesc desc;
      int bits;   /* 0: a float format */
      bool sgn;
      int nch;
      bool elem;  /* integers read as elements */
   } const fs[] = {
      {"uchar4", cudaCreateChannelDesc<uchar4>(), 8, false, 4, false},
      {"char4", cudaCreateChannelDesc<char4>(), 8, true, 4, false},
      {"ushort4", cudaCreateChannelDesc<ushort4>(), 16, false, 4, false},
      {"short4", cudaCreateChannelDesc<short4>(), 16, true, 4, false},
      {"half4", cudaCreateChannelDescHalf4(), 0, true, 4, false},
      {"float4", cudaCreateChannelDesc<float4>(), 0, true, 4, false},
      {"ushort2", cudaCreateChannelDesc<ushort2>(), 16, false, 2, false},
      {"half2", cudaCreateChannelDescHalf2(), 0, true, 2, false},
      {"float1", cudaCreateChannelDesc<float>(), 0, true, 1, false},
      {"char2 read as elements", cudaCreateChannelDesc<char2>(), 8, true, 2, true}};
   cudaTextureObject_t *dt;
   if (!CHECK_CUDA(cudaMalloc(&dt, K * sizeof(cudaTextureObject_t))))
      return;
   static float colours[K * 4], got[K * 4], want[K * 4];
   static unsigned char texels[4 * 4 * 16];
   uint32_t h = 0xb0d3u;
   for (const bfmt &f : fs) {
      int q = f.bits ? (1 << (f.bits - (f.sgn ? 1 : 0))) - 1 : 0;
      float lo = f.sgn ? -1.0f : 0.0f;
      for (int i = 0; i < K * 4; i++) {
         h = mix32(h + (uint32_t)i);
         int kind = i % 8;
         if (q && kind < 4) {
            int st = (int)(h % (uint32_t)(f.sgn ? 2 * q : q)) - (f.sgn ? q : 0);
            float c = ((float)st + 0.5f) / (float)q;   /* a tie, as near as a float gets */
            colours[i] = kind == 1 ? nextafterf(c, 2.0f) : kind == 2 ? nextafterf(c, -2.0f) : c;
         } else if (kind == 7) {
            colours[i] = lo - 0.5f + (float)(h % 1000) / 400.0f;   /* around and past the range */
         } else {
            colours[i] = lo + (1.0f - lo) * (float)(h % 1000000) / 1000000.0f;
         }
      }
      for (size_t i = 0; i < sizeof texels; i++)   /* never read: every read is the border's */
         texels[i] = (unsigned char)mix32((uint32_t)i + 77u);
      cudaArray_t a;
      cudaChannelFormatDesc d = f.desc;
      int eb = f.nch * (f.bits ? f.bits / 8 : d.x == 16 ? 2 : 4);
      if (!CHECK_CUDA(cudaMallocArray(&a, &d, 4, 4)))
         continue;
      CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, texels, 4 * eb, 4 * eb, 4, cudaMemcpyHostToDevice));
      cudaResourceDesc r;
      memset(&r, 0, sizeof r);
      r.resType = cudaResourceTypeArray;
      r.res.array.array = a;
      for (int linear = 0; linear < (f.elem ? 1 : 2); linear++) {   /* integers read as such: point only */
         cudaTextureObject_t t[K] = { 0 };
         bool made = true;
         for (int i = 0; i < K && made; i++) {
            cudaTextureDesc td;
            memset(&td, 0, sizeof td);
            td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
            td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
            td.readMode = f.bits && !f.elem ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
            memcpy(td.borderColor, &colours[4 * i], 4 * sizeof(float));
            made = CHECK_CUDA(cudaCreateTextureObject(&t[i], &r, &td, NULL));
         }
         if (made) {
            CHECK_CUDA(cudaMemcpy(dt, t, sizeof t, cudaMemcpyHostToDevice));
            k_border<<<1, K>>>(dt, dout);
            CHECK_CUDA(cudaDeviceSynchronize());
            CHECK_CUDA(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
         }
         for (int i = 0; i < K * 4; i++) {
            float c = colours[i];
            uint32_t cb;
            memcpy(&cb, &c, 4);
            if (i % 4 >= f.nch) {   /* a channel the format lacks */
               want[i] = 0.0f;
            } else if (f.elem) {    /* the low bits of the colour's, sign-extended, as a float's bits */
               uint32_t v = (uint32_t)(int32_t)(int8_t)(cb & 0xffu);
               memcpy(&want[i], &v, 4);
            } else if (!f.bits) {
               want[i] = d.x == 16 ? half_toward_zero(c) : c;
            } else if (linear && f.bits == 8 && f.sgn) {
               want[i] = snorm8_steps(256LL * tex_model_border_norm(c, 8, true));
            } else {
               int k = tex_model_border_norm(c, f.bits, f.sgn);
               want[i] = linear && f.bits == 8 ? (float)(k * 257) / 65535.0f
                                               : f.sgn ? fmaxf((float)k / (float)q, -1.0f) : (float)k / (float)q;
            }
         }
         char what[96];
         snprintf(what, sizeof what, "%s border colours, %s filtering", f.name, linear ? "linear" : "point");
         CHECK_ARRAY_F32(what, got, want, K * 4);
         for (int i = 0; i < K; i++)
            if (t[i])
               CHECK_CUDA(cudaDestroyTextureObject(t[i]));
      }
      CHECK_CUDA(cudaFreeArray(a));
   }
   CHECK_CUDA(cudaFree(dt));
}

int main()
{
   check_begin("tex_norm_filter");
   const fmt fm[] = {
      {"uchar4", cudaCreateChannelDesc<uchar4>(), 4, 1, false},
      {"ushort2", cudaCreateChannelDesc<ushort2>(), 2, 2, false},
      {"short2", cudaCreateChannelDesc<short2>(), 2, 2, true},
      {"unorm8x4", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>(), 4, 1, false},
      {"unorm16x1", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized16X1>(), 1, 2, false}};
   static float2 c[NP], cn[NP];
   uint32_t h = 12345u;
   for (int i = 0; i < NP; i++) {
      h = mix32(h + (uint32_t)i);
      c[i].x = (float)(h % ((W + 2) * 512)) / 512.0f - 1.0f;
      h = mix32(h);
      c[i].y = (float)(h % ((H + 2) * 512)) / 512.0f - 1.0f;
      cn[i].x = c[i].x / W;   /* exact: W, H powers of two */
      cn[i].y = c[i].y / H;
   }
   float2 *dc;
   float4 *dout;
   CHECK_CUDA(cudaMalloc(&dc, sizeof c));
   CHECK_CUDA(cudaMalloc(&dout, NP * sizeof(float4)));
   static float4 out[NP];
   static float got[NP * 4], want[NP * 4];
   static unsigned char raw[W * H * 8];
   for (const fmt &f : fm) {
      int eb = f.nch * f.bytes;
      for (int i = 0; i < W * H * eb; i++)
         raw[i] = (unsigned char)(mix32(0x9e37u + (uint32_t)i * 7u + (uint32_t)eb) >> 11);
      /* extremes in the first texels: 0, the largest, the most negative */
      memset(raw, 0xff, (size_t)eb);
      memset(raw + eb, 0, (size_t)eb);
      if (f.sgn)
         for (int k = 0; k < f.nch; k++)
            raw[2 * eb + k * 2] = 0x00, raw[2 * eb + k * 2 + 1] = 0x80;
      cudaArray_t a;
      cudaChannelFormatDesc d = f.desc;
      if (!CHECK_CUDA(cudaMallocArray(&a, &d, W, H)))
         continue;
      CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, raw, W * eb, W * eb, H, cudaMemcpyHostToDevice));
      /* a border colour whose conversions round both ways */
      static const float bc[4] = { 0.3f, -0.45f, 0.77f, 1.2f };
      for (int mode = CLAMP; mode <= BORDER; mode++) {
         const bool wrap = mode == WRAP;
         cudaResourceDesc r;
         memset(&r, 0, sizeof r);
         r.resType = cudaResourceTypeArray;
         r.res.array.array = a;
         cudaTextureDesc td;
         memset(&td, 0, sizeof td);
         td.addressMode[0] = td.addressMode[1] = wrap ? cudaAddressModeWrap
                                               : mode == BORDER ? cudaAddressModeBorder : cudaAddressModeClamp;
         memcpy(td.borderColor, bc, sizeof bc);
         td.filterMode = cudaFilterModeLinear;
         td.readMode = cudaReadModeNormalizedFloat;
         td.normalizedCoords = wrap;
         cudaTextureObject_t t;
         if (!CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL)))
            continue;
         CHECK_CUDA(cudaMemcpy(dc, wrap ? cn : c, sizeof c, cudaMemcpyHostToDevice));
         fill_u32((uint32_t *)out, NP * 4, SENTINEL32);
         CHECK_CUDA(cudaMemcpy(dout, out, sizeof out, cudaMemcpyHostToDevice));
         k_fetch<<<NP / 128, 128>>>(t, dc, dout, NP);
         CHECK_CUDA(cudaDeviceSynchronize());
         CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
         for (int i = 0; i < NP; i++)
            for (int k = 0; k < 4; k++) {
               got[4 * i + k] = (&out[i].x)[k];
               want[4 * i + k] =
                  wrap ? model(raw, f, cn[i].x, cn[i].y, mode, bc, k) : model(raw, f, c[i].x, c[i].y, mode, bc, k);
            }
         static const char *const modes[] = { "clamp", "wrap, normalised coordinates", "border" };
         char what[96];
         snprintf(what, sizeof what, "%s, %s", f.name, modes[mode]);
         CHECK_ARRAY_F32(what, got, want, NP * 4);
         /* fetched as integers: the same floats' bits */
         k_fetch_u<<<NP / 128, 128>>>(t, dc, (uint4 *)dout, NP);
         CHECK_CUDA(cudaDeviceSynchronize());
         CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
         for (int i = 0; i < NP; i++)
            for (int k = 0; k < 4; k++)
               got[4 * i + k] = (&out[i].x)[k];
         snprintf(what, sizeof what, "%s, %s, tex2D<uint4>", f.name, modes[mode]);
         CHECK_ARRAY_F32(what, got, want, NP * 4);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      CHECK_CUDA(cudaFreeArray(a));
   }
   mip_checks(dc, dout);
   snorm8_checks(c, dc, dout);
   snorm8_pair_checks();
   border_colour_checks(dout);
   CHECK_CUDA(cudaFree(dc));
   CHECK_CUDA(cudaFree(dout));
   return check_end();
}
