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
 */
#include "tex_model.h"

#include <math.h>
#include <string.h>

enum { W = 16, H = 8, NP = 4096 };

__global__ void k_fetch(cudaTextureObject_t t, const float2 *c, float4 *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

struct fmt {
   const char *name;
   cudaChannelFormatDesc desc;
   int nch, bytes;
   bool sgn;
};

/* the per-axis weight in 1/256 and the first texel, as tex_model.h's */
static void axis(float x, int n, bool wrap_norm, int *p, int *w)
{
   float b = (wrap_norm ? x * (float)n : x) - 0.5f;
   if (!wrap_norm)
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

static int chan16(const unsigned char *raw, const fmt &f, int x, int y, int k)
{
   const unsigned char *p = raw + ((size_t)(y * W + x) * f.nch + k) * f.bytes;
   if (f.bytes == 1)
      return p[0] * 257;
   uint16_t v;
   memcpy(&v, p, 2);
   return f.sgn ? (int)(int16_t)v : (int)v;
}

static float model(const unsigned char *raw, const fmt &f, float x, float y, bool wrap, int k)
{
   if (k >= f.nch)
      return 0.0f;
   int px, py, w[2];
   axis(x, W, wrap, &px, &w[0]);
   axis(y, H, wrap, &py, &w[1]);
   long long s = 0;
   for (int q = 0; q < 4; q++) {
      int xi = wrap_or_clamp(px + (q & 1), W, wrap), yi = wrap_or_clamp(py + (q >> 1), H, wrap);
      s += (long long)tex_model_corner_weight(w, 256, 2, q) * chan16(raw, f, xi, yi, k);
   }
   long long n = (s + 128) >> 8;
   return f.sgn ? fmaxf((float)n / 32767.0f, -1.0f) : (float)n / 65535.0f;
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
      for (int wrap = 0; wrap < 2; wrap++) {
         cudaResourceDesc r;
         memset(&r, 0, sizeof r);
         r.resType = cudaResourceTypeArray;
         r.res.array.array = a;
         cudaTextureDesc td;
         memset(&td, 0, sizeof td);
         td.addressMode[0] = td.addressMode[1] = wrap ? cudaAddressModeWrap : cudaAddressModeClamp;
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
               want[4 * i + k] = wrap ? model(raw, f, cn[i].x, cn[i].y, true, k) : model(raw, f, c[i].x, c[i].y, false, k);
            }
         char what[64];
         snprintf(what, sizeof what, "%s, %s", f.name, wrap ? "wrap, normalised coordinates" : "clamp");
         CHECK_ARRAY_F32(what, got, want, NP * 4);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      CHECK_CUDA(cudaFreeArray(a));
   }
   CHECK_CUDA(cudaFree(dc));
   CHECK_CUDA(cudaFree(dout));
   return check_end();
}
