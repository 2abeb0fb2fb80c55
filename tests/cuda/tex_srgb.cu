/*
 * tex_srgb.cu — sRGB textures (cudaTextureDesc.sRGB, CU_TRSF_SRGB): what an
 * H200 reads (CUDA 13.0, driver 580; tests/cuda/NATIVE.md "sRGB").
 *
 *  - Every 8-bit value through a uchar4 array read as normalised floats,
 *    point sampled, with sRGB: x, y and z are the GPU's decode of the
 *    value, the table below (recorded from the H200: every one of the 256
 *    has 8 significant bits, so it is kept as the floats' upper halves),
 *    w is the value / 255 (sRGB leaves alpha linear); the same through the
 *    driver API (cuTexObjectCreate with CU_TRSF_SRGB).
 *  - a 2-channel 8-bit texture (uchar2) decodes x only: y reads value /
 *    255, as an alpha (an H100, tests/cuda/NATIVE.md 2026-12-06);
 *  - sRGB changes nothing on 16-bit, signed 8-bit and half channels: the
 *    same H200 read them alike with the flag on and off, which the program
 *    checks read by read.
 *  - Without sRGB a uchar4 reads value / 255 (the host's division).
 *  - Linearly filtered with sRGB (an H100, tests/cuda/NATIVE.md, 2026-12-06,
 *    twenty-ninth and thirty-second sessions): alpha filters as a unorm8
 *    channel does, each texel as v x 257, the corner weights' sum rounded
 *    to 16 bits (floor((s + 128) / 256)) / 65535; the decoded channels are
 *    decoded first and then filtered (srgb_filtered): each texel of
 *    non-zero weight is truncated to 8 bits below the largest alignment
 *    exponent among them, a texel's being that of the largest decoded
 *    value of its code's segment of eight (codes 8s to 8s + 7), and the
 *    exact weighted sum is rounded to half precision, ties away from zero
 *    (every one of the H100's 16 777 216 reads between two texels, all
 *    pairs of codes at every 1/256).  Checked on neighbours in 1-D, every
 *    pair of codes at four weights, and 2-D reads of random codes.
 */
#include "tex_model.h"

#include <cuda.h>
#include <cuda_fp16.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* An H200's sRGB decode of the 8-bit value i: the upper half of a float. */
static const unsigned short srgb_u8[256] = {
    0x0000u, 0x39a0u, 0x3a20u, 0x3a70u, 0x3aa0u, 0x3ac8u, 0x3af0u, 0x3b0cu, 0x3b20u, 0x3b34u, 0x3b48u, 0x3b5cu,
    0x3b70u, 0x3b84u, 0x3b90u, 0x3b9cu, 0x3baau, 0x3bb8u, 0x3bc6u, 0x3bd6u, 0x3be6u, 0x3bf6u, 0x3c03u, 0x3c0cu,
    0x3c16u, 0x3c1fu, 0x3c29u, 0x3c34u, 0x3c3eu, 0x3c49u, 0x3c55u, 0x3c60u, 0x3c6cu, 0x3c7au, 0x3c83u, 0x3c8au,
    0x3c91u, 0x3c98u, 0x3c9fu, 0x3ca6u, 0x3caeu, 0x3cb6u, 0x3cbeu, 0x3cc6u, 0x3cceu, 0x3cd7u, 0x3ce0u, 0x3ce9u,
    0x3cf2u, 0x3cfcu, 0x3d03u, 0x3d08u, 0x3d0du, 0x3d12u, 0x3d17u, 0x3d1cu, 0x3d22u, 0x3d28u, 0x3d2du, 0x3d33u,
    0x3d39u, 0x3d3fu, 0x3d45u, 0x3d4cu, 0x3d52u, 0x3d58u, 0x3d60u, 0x3d66u, 0x3d6cu, 0x3d74u, 0x3d7au, 0x3d81u,
    0x3d85u, 0x3d88u, 0x3d8cu, 0x3d90u, 0x3d94u, 0x3d98u, 0x3d9cu, 0x3da0u, 0x3da4u, 0x3da9u, 0x3dadu, 0x3db1u,
    0x3db6u, 0x3dbau, 0x3dbfu, 0x3dc3u, 0x3dc8u, 0x3dcdu, 0x3dd1u, 0x3dd6u, 0x3ddbu, 0x3de0u, 0x3de5u, 0x3deau,
    0x3df0u, 0x3df4u, 0x3dfau, 0x3e00u, 0x3e02u, 0x3e05u, 0x3e08u, 0x3e0bu, 0x3e0eu, 0x3e11u, 0x3e14u, 0x3e17u,
    0x3e1au, 0x3e1du, 0x3e20u, 0x3e23u, 0x3e26u, 0x3e29u, 0x3e2cu, 0x3e30u, 0x3e33u, 0x3e36u, 0x3e3au, 0x3e3du,
    0x3e40u, 0x3e44u, 0x3e47u, 0x3e4bu, 0x3e4eu, 0x3e52u, 0x3e56u, 0x3e59u, 0x3e5du, 0x3e61u, 0x3e65u, 0x3e68u,
    0x3e6cu, 0x3e70u, 0x3e74u, 0x3e78u, 0x3e7cu, 0x3e80u, 0x3e82u, 0x3e84u, 0x3e86u, 0x3e88u, 0x3e8au, 0x3e8du,
    0x3e8fu, 0x3e91u, 0x3e93u, 0x3e95u, 0x3e98u, 0x3e9au, 0x3e9cu, 0x3e9eu, 0x3ea1u, 0x3ea3u, 0x3ea5u, 0x3ea8u,
    0x3eaau, 0x3eadu, 0x3eafu, 0x3eb2u, 0x3eb4u, 0x3eb6u, 0x3eb9u, 0x3ebcu, 0x3ebeu, 0x3ec1u, 0x3ec3u, 0x3ec6u,
    0x3ec8u, 0x3ecbu, 0x3eceu, 0x3ed1u, 0x3ed3u, 0x3ed6u, 0x3ed9u, 0x3edbu, 0x3edeu, 0x3ee1u, 0x3ee4u, 0x3ee7u,
    0x3eeau, 0x3eedu, 0x3ef0u, 0x3ef2u, 0x3ef6u, 0x3ef8u, 0x3efcu, 0x3efeu, 0x3f01u, 0x3f02u, 0x3f04u, 0x3f05u,
    0x3f07u, 0x3f09u, 0x3f0au, 0x3f0cu, 0x3f0du, 0x3f0fu, 0x3f11u, 0x3f12u, 0x3f14u, 0x3f16u, 0x3f17u, 0x3f19u,
    0x3f1bu, 0x3f1cu, 0x3f1eu, 0x3f20u, 0x3f21u, 0x3f23u, 0x3f25u, 0x3f27u, 0x3f29u, 0x3f2au, 0x3f2cu, 0x3f2eu,
    0x3f30u, 0x3f32u, 0x3f33u, 0x3f35u, 0x3f37u, 0x3f39u, 0x3f3bu, 0x3f3du, 0x3f3fu, 0x3f41u, 0x3f43u, 0x3f45u,
    0x3f47u, 0x3f49u, 0x3f4bu, 0x3f4du, 0x3f4fu, 0x3f51u, 0x3f53u, 0x3f55u, 0x3f57u, 0x3f59u, 0x3f5bu, 0x3f5du,
    0x3f5fu, 0x3f61u, 0x3f63u, 0x3f65u, 0x3f68u, 0x3f6au, 0x3f6cu, 0x3f6eu, 0x3f70u, 0x3f72u, 0x3f74u, 0x3f76u,
    0x3f7au, 0x3f7cu, 0x3f7eu, 0x3f80u
};

static float srgb_want(unsigned v)
{
   return bits_f32((uint32_t)srgb_u8[v & 255u] << 16);
}

__global__ void k_point(cudaTextureObject_t t, int n, float4 *o)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i < n)
      o[i] = tex1D<float4>(t, (float)i + 0.5f);
}

__global__ void k_at(cudaTextureObject_t t, const float *x, int n, float4 *o)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i < n)
      o[i] = tex1D<float4>(t, x[i]);
}

static cudaArray_t array_of(cudaChannelFormatDesc d, const void *data, size_t elem, int n)
{
   cudaArray_t a = NULL;
   if (!CHECK_CUDA(cudaMallocArray(&a, &d, n, 0)))
      return NULL;
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, data, n * elem, n * elem, 1, cudaMemcpyHostToDevice));
   return a;
}

/* A texture over a; the clamp address mode, or border with this colour. */
static cudaTextureObject_t texture_bordered(cudaArray_t a, cudaTextureReadMode rm, int srgb, bool linear,
                                            const float *border)
{
   cudaResourceDesc r;
   memset(&r, 0, sizeof r);
   r.resType = cudaResourceTypeArray;
   r.res.array.array = a;
   cudaTextureDesc td;
   memset(&td, 0, sizeof td);
   td.addressMode[0] = border ? cudaAddressModeBorder : cudaAddressModeClamp;
   if (border)
      memcpy(td.borderColor, border, sizeof td.borderColor);
   td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.readMode = rm;
   td.sRGB = srgb;
   cudaTextureObject_t t = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL));
   return t;
}

static cudaTextureObject_t texture_filtered(cudaArray_t a, cudaTextureReadMode rm, int srgb, bool linear)
{
   return texture_bordered(a, rm, srgb, linear, NULL);
}

static cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureReadMode rm, int srgb)
{
   return texture_filtered(a, rm, srgb, false);
}

/* The n texels of t at their centres, into host memory. */
static void read_all(cudaTextureObject_t t, int n, float4 *h)
{
   float4 *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, n * sizeof(float4)));
   fill_u32((uint32_t *)h, 4 * n, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(d, h, n * sizeof(float4), cudaMemcpyHostToDevice));
   k_point<<<(n + 63) / 64, 64>>>(t, n, d);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, n * sizeof(float4), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaFree(d));
}

static unsigned char u8_data[256 * 4];

static void fill_u8(void)
{
   for (int i = 0; i < 256; i++) {
      u8_data[4 * i] = (unsigned char)i;
      u8_data[4 * i + 1] = (unsigned char)(255 - i);
      u8_data[4 * i + 2] = (unsigned char)(37 * i + 11);
      u8_data[4 * i + 3] = (unsigned char)i;
   }
}

/* got against the decode of u8_data (sRGB) or value / 255 (linear) */
static void check_u8_reads(const char *what, const float4 *got, bool srgb)
{
   static float g[256 * 4], w[256 * 4];
   for (int i = 0; i < 256; i++)
      for (int k = 0; k < 4; k++) {
         unsigned v = u8_data[4 * i + k];
         g[4 * i + k] = (&got[i].x)[k];
         w[4 * i + k] = srgb && k < 3 ? srgb_want(v) : (float)v / 255.0f;
      }
   CHECK_ARRAY_F32(what, g, w, 256 * 4);
}

static void check_runtime_u8(void)
{
   cudaArray_t a = array_of(cudaCreateChannelDesc<uchar4>(), u8_data, 4, 256);
   if (!a)
      return;
   static float4 h[256];
   for (int s = 0; s < 2; s++) {
      cudaTextureObject_t t = texture_of(a, cudaReadModeNormalizedFloat, s);
      read_all(t, 256, h);
      check_u8_reads(s ? "uchar4, sRGB, point" : "uchar4, point", h, s);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeArray(a));
}

/* The driver's flag, on the runtime's array (a cudaArray_t is a CUarray);
 * its calls through libcuda.so.1 (dlopen: no -lcuda needed). */
static void check_runtime_u8x2(void)
{
   static unsigned char d[256 * 2];
   for (int i = 0; i < 256; i++)
      d[2 * i] = (unsigned char)i, d[2 * i + 1] = (unsigned char)(255 - i);
   cudaArray_t a = array_of(cudaCreateChannelDesc<uchar2>(), d, 2, 256);
   if (!a)
      return;
   static float4 h[256];
   static float g[256 * 2], w[256 * 2];
   cudaTextureObject_t t = texture_of(a, cudaReadModeNormalizedFloat, 1);
   read_all(t, 256, h);
   for (int i = 0; i < 256; i++) {
      g[2 * i] = h[i].x, g[2 * i + 1] = h[i].y;
      w[2 * i] = srgb_want(d[2 * i]), w[2 * i + 1] = (float)d[2 * i + 1] / 255.0f;
   }
   CHECK_ARRAY_F32("uchar2, sRGB, point", g, w, 256 * 2);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));
}

static void check_driver_u8(void)
{
   void *libcuda = dlopen("libcuda.so.1", RTLD_NOW);
   decltype(&cuTexObjectCreate) create =
      libcuda ? (decltype(&cuTexObjectCreate))dlsym(libcuda, "cuTexObjectCreate") : NULL;
   decltype(&cuTexObjectDestroy) destroy =
      libcuda ? (decltype(&cuTexObjectDestroy))dlsym(libcuda, "cuTexObjectDestroy") : NULL;
   if (!CHECK(create && destroy))
      return;
   cudaArray_t a = array_of(cudaCreateChannelDesc<uchar4>(), u8_data, 4, 256);
   if (!a)
      return;
   CUDA_RESOURCE_DESC r;
   memset(&r, 0, sizeof r);
   r.resType = CU_RESOURCE_TYPE_ARRAY;
   r.res.array.hArray = (CUarray)a;
   CUDA_TEXTURE_DESC td;
   memset(&td, 0, sizeof td);
   td.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
   td.filterMode = CU_TR_FILTER_MODE_POINT;
   td.flags = CU_TRSF_SRGB;
   CUtexObject t = 0;
   if (CHECK(create(&t, &r, &td, NULL) == CUDA_SUCCESS)) {
      static float4 h[256];
      read_all((cudaTextureObject_t)t, 256, h);
      check_u8_reads("CU_AD_FORMAT_UNSIGNED_INT8 x4, CU_TRSF_SRGB, point", h, true);
      CHECK(destroy(t) == CUDA_SUCCESS);
   }
   CHECK_CUDA(cudaFreeArray(a));
}

/* x in units of 2^-32 (x < 2^32) rounded to half precision, ties away
 * from zero. */
static float half_away(uint64_t x)
{
   if (x == 0)
      return 0.0f;
   int top = 63 - __builtin_clzll(x);               /* x's exponent, 2^-32 units */
   int unit = (top - 32 < -14 ? -14 : top - 32) - 10 + 32;   /* the half's ulp */
   uint64_t q = (x + (1ull << (unit - 1))) >> unit;
   return ldexpf((float)q, unit - 32);
}

/* The frexp exponent at which the code v aligns: its segment's largest
 * value's (the header). */
static int srgb_align_exp(unsigned v)
{
   int e;
   frexpf(srgb_want(v | 7u), &e);
   return e;
}

/* The decoded channel filtered from the codes v[0, n) of weights w (1/256,
 * summing to 256): the header's rule. */
static float srgb_filtered(const unsigned *v, const unsigned *w, int n)
{
   int top = INT_MIN;
   for (int k = 0; k < n; k++)
      if (w[k] && v[k] && srgb_align_exp(v[k]) > top)
         top = srgb_align_exp(v[k]);
   if (top == INT_MIN)
      return 0.0f;
   uint64_t s = 0;   /* in units of 2^(top - 16) */
   for (int k = 0; k < n; k++)
      s += (uint64_t)w[k] * (uint64_t)floorf(ldexpf(srgb_want(v[k]), 8 - top));
   return half_away(s << (top + 16));
}

/* Alpha (or a channel sRGB leaves alone) filtered: the unorm8 rule. */
static float unorm8_filtered(const unsigned *v, const unsigned *w, int n)
{
   uint32_t s = 0;
   for (int k = 0; k < n; k++)
      s += w[k] * v[k] * 257u;
   return (float)((s + 128u) / 256u) / 65535.0f;
}

/* Filtered reads between neighbouring texels of u8_data (every 8th weight
 * of every pair), every channel. */
static void check_filtered(void)
{
   cudaArray_t a = array_of(cudaCreateChannelDesc<uchar4>(), u8_data, 4, 256);
   if (!a)
      return;
   enum { STEP = 8, N = 255 * (256 / STEP) };
   static float xs[N], g[3 * N], w[3 * N];
   static float4 h[N];
   int n = 0;
   for (int i = 0; i < 255; i++)
      for (int k = 1; k < 256; k += STEP)
         xs[n++] = (float)i + 0.5f + (float)k / 256.0f;
   float *dx = NULL;
   float4 *dout = NULL;
   cudaTextureObject_t t = texture_filtered(a, cudaReadModeNormalizedFloat, 1, true);
   CHECK_CUDA(cudaMalloc(&dx, sizeof xs));
   CHECK_CUDA(cudaMalloc(&dout, sizeof h));
   CHECK_CUDA(cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice));
   k_at<<<(n + 63) / 64, 64>>>(t, dx, n, dout);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
   int m = 0, ma = 0;
   static float ga[N], wa[N];
   for (int r = 0; r < n; r++) {
      int i = r / (256 / STEP);
      unsigned k = 1u + (unsigned)(r % (256 / STEP)) * STEP;   /* the upper texel's weight, 1/256 */
      const unsigned char *t0 = &u8_data[4 * i], *t1 = &u8_data[4 * (i + 1)];
      const unsigned wt[2] = { 256u - k, k };
      for (int c = 0; c < 4; c++) {
         const unsigned v[2] = { t0[c], t1[c] };
         if (c == 3) {
            ga[ma] = h[r].w;
            wa[ma++] = unorm8_filtered(v, wt, 2);
         } else {
            g[m] = (&h[r].x)[c];
            w[m++] = srgb_filtered(v, wt, 2);
         }
      }
   }
   CHECK_ARRAY_F32("uchar4, sRGB, linear: alpha", ga, wa, ma);
   CHECK_ARRAY_F32("uchar4, sRGB, linear: decoded x, y and z", g, w, m);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFree(dx));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFreeArray(a));
}

/* Every ordered pair of codes at four weights (tex_model_read_pairs): x
 * and y hold the pair's codes, z them mirrored (255 - code), alpha x. */
static void check_filtered_pairs(void)
{
   static uchar4 raw[256 * TEX_MODEL_PAIR_W];
   for (int a = 0; a < 256; a++)
      for (int x = 0; x < TEX_MODEL_PAIR_W; x++) {
         unsigned char v = (unsigned char)tex_model_pair_value(a, x);
         raw[a * TEX_MODEL_PAIR_W + x] = make_uchar4(v, v, (unsigned char)(255 - v), v);
      }
   static int wts[4 * TEX_MODEL_NPAIR];
   tex_model_pair_weights(wts, 2246822519u, 5u);
   cudaArray_t arr = tex_model_pair_array(cudaCreateChannelDesc<uchar4>(), raw, 4);
   if (!arr)
      return;
   cudaTextureObject_t t = texture_filtered(arr, cudaReadModeNormalizedFloat, 1, true);
   static float4 h[4 * TEX_MODEL_NPAIR];
   static float g[16 * TEX_MODEL_NPAIR], w[16 * TEX_MODEL_NPAIR];
   if (t && tex_model_read_pairs(t, wts, h)) {
      for (int p = 0; p < TEX_MODEL_NPAIR; p++)
         for (int j = 0; j < 4; j++) {
            const unsigned wt[2] = { 256u - (unsigned)wts[4 * p + j], (unsigned)wts[4 * p + j] };
            const unsigned a = (unsigned)p >> 8, b = (unsigned)p & 255u;
            const unsigned v[2] = { a, b }, vm[2] = { 255u - a, 255u - b };
            int r = 4 * p + j;
            memcpy(&g[4 * r], &h[r], sizeof h[r]);
            w[4 * r] = w[4 * r + 1] = srgb_filtered(v, wt, 2);
            w[4 * r + 2] = srgb_filtered(vm, wt, 2);
            w[4 * r + 3] = unorm8_filtered(v, wt, 2);
         }
      CHECK_ARRAY_F32("uchar4, sRGB, linear: every pair of codes at four weights", g, w, 16 * TEX_MODEL_NPAIR);
   }
   if (t)
      CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(arr));
}

/* 2-D reads of random codes at texel positions plus a random fraction in
 * 1/256 along each axis (unnormalised, inside: the weights are exact),
 * four corners weighted as tex_model_corner_weight splits them. */
__global__ void k_at2(cudaTextureObject_t t, const float2 *x, int n, float4 *o)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i < n)
      o[i] = tex2D<float4>(t, x[i].x, x[i].y);
}

static void check_filtered_2d(void)
{
   enum { W2 = 32, H2 = 16, N2 = 8192 };
   static uchar4 raw[W2 * H2];
   for (int i = 0; i < W2 * H2; i++) {
      uint32_t r = mix32((uint32_t)i * 97u + 3u);
      raw[i] = make_uchar4((unsigned char)r, (unsigned char)(r >> 8), (unsigned char)(r >> 16), (unsigned char)(r >> 24));
   }
   cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
   cudaArray_t arr;
   if (!CHECK_CUDA(cudaMallocArray(&arr, &d, W2, H2)))
      return;
   CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 0, raw, W2 * 4, W2 * 4, H2, cudaMemcpyHostToDevice));
   /* (y's address mode is wrap there, which clamps unnormalised coordinates; the reads stay inside) */
   cudaTextureObject_t t = texture_filtered(arr, cudaReadModeNormalizedFloat, 1, true);
   static float2 pos[N2];
   static int px[N2], py[N2], wx[N2], wy[N2];
   for (int i = 0; i < N2; i++) {
      uint32_t q = mix32((uint32_t)i * 7919u + 1u), q2 = mix32(q);
      px[i] = (int)(q % (W2 - 1)), py[i] = (int)((q >> 8) % (H2 - 1));
      wx[i] = (int)(q2 & 255u), wy[i] = (int)((q2 >> 8) & 255u);
      pos[i] = make_float2((float)px[i] + 0.5f + (float)wx[i] / 256.0f, (float)py[i] + 0.5f + (float)wy[i] / 256.0f);
   }
   float2 *dpos = NULL;
   float4 *dout = NULL;
   static float4 h[N2];
   static float g[4 * N2], w[4 * N2];
   if (t && CHECK_CUDA(cudaMalloc(&dpos, sizeof pos)) && CHECK_CUDA(cudaMalloc(&dout, sizeof h))) {
      CHECK_CUDA(cudaMemcpy(dpos, pos, sizeof pos, cudaMemcpyHostToDevice));
      k_at2<<<N2 / 128, 128>>>(t, dpos, N2, dout);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
      for (int i = 0; i < N2; i++) {
         const int a[2] = { wx[i], wy[i] };
         unsigned wt[4], v[4];
         for (int q = 0; q < 4; q++)
            wt[q] = (unsigned)tex_model_corner_weight(a, 256, 2, q);
         for (int c = 0; c < 4; c++) {
            for (int q = 0; q < 4; q++)
               v[q] = (&raw[(py[i] + (q >> 1)) * W2 + px[i] + (q & 1)].x)[c];
            g[4 * i + c] = (&h[i].x)[c];
            w[4 * i + c] = c < 3 ? srgb_filtered(v, wt, 4) : unorm8_filtered(v, wt, 4);
         }
      }
      CHECK_ARRAY_F32("uchar4, sRGB, linear, 2-D: random codes", g, w, 4 * N2);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFree(dpos));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFreeArray(arr));
}

/* A format sRGB leaves alone: its reads with and without the flag agree. */
static void check_unchanged(const char *what, cudaChannelFormatDesc d, const void *data, size_t elem,
                            cudaTextureReadMode rm)
{
   cudaArray_t a = array_of(d, data, elem, 256);
   if (!a)
      return;
   static float4 plain[256], srgb[256];
   cudaTextureObject_t t0 = texture_of(a, rm, 0), t1 = texture_of(a, rm, 1);
   read_all(t0, 256, plain);
   read_all(t1, 256, srgb);
   CHECK_ARRAY_F32(what, (const float *)srgb, (const float *)plain, 256 * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t0));
   CHECK_CUDA(cudaDestroyTextureObject(t1));
   CHECK_CUDA(cudaFreeArray(a));
}

/* The border colour of an sRGB uchar4 texture, read alone (1-D, at x =
 * -3) with point and linear filtering: an H100 converts it into the
 * format and reads it as a texel (tests/cuda/NATIVE.md, thirtieth
 * session: 256 colours, every one): x, y and z encoded exactly (IEC
 * 61966-2-1, the colour clamped to [0, 1]) and rounded to the nearest
 * 8-bit value, which decodes as a texel's; alpha as unorm8
 * (tex_model_border_norm), / 255. */
static unsigned border_srgb8(float c)
{
   double v = c > 0.0f ? (c < 1.0f ? c : 1.0) : 0.0;
   double e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
   return (unsigned)floor(e * 255.0 + 0.5);
}

static void check_border(void)
{
   enum { K = 64 };
   cudaArray_t a = array_of(cudaCreateChannelDesc<uchar4>(), u8_data, 4, 8);
   float *dx;
   float4 *d;
   CHECK_CUDA(cudaMalloc(&dx, sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d, sizeof(float4)));
   const float x = -3.0f;
   CHECK_CUDA(cudaMemcpy(dx, &x, sizeof x, cudaMemcpyHostToDevice));
   static float got[K * 4], want[K * 4];
   for (int linear = 0; linear < 2; linear++) {
      for (int i = 0; i < K; i++) {
         float c[4];
         for (int k = 0; k < 4; k++)   /* in [-0.1, 1.2): in range, and past it both ways */
            c[k] = (float)(mix32((uint32_t)(4 * i + k) * 2654435761u + 99u) % 1300000u) / 1000000.0f - 0.1f;
         cudaTextureObject_t t = texture_bordered(a, cudaReadModeNormalizedFloat, 1, linear, c);
         float4 o = make_float4(-1.0f, -1.0f, -1.0f, -1.0f);
         if (t) {
            k_at<<<1, 1>>>(t, dx, 1, d);
            CHECK_CUDA(cudaMemcpy(&o, d, sizeof o, cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaDestroyTextureObject(t));
         }
         memcpy(&got[4 * i], &o, sizeof o);
         for (int k = 0; k < 3; k++)
            want[4 * i + k] = srgb_want(border_srgb8(c[k]));
         want[4 * i + 3] = (float)tex_model_border_norm(c[3], 8, false) / 255.0f;
      }
      CHECK_ARRAY_F32(linear ? "sRGB border colours, linear filtering" : "sRGB border colours, point filtering", got,
                      want, K * 4);
   }
   CHECK_CUDA(cudaFree(dx));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaFreeArray(a));
}

int main()
{
   check_begin("tex_srgb");
   fill_u8();
   check_runtime_u8();
   check_runtime_u8x2();
   check_driver_u8();
   check_filtered();
   check_filtered_pairs();
   check_filtered_2d();
   check_border();
   static unsigned short u16[256 * 4];
   static __half f16[256 * 4];
   for (int i = 0; i < 256 * 4; i++) {
      u16[i] = (unsigned short)(mix32((uint32_t)i) >> 16);
      f16[i] = __float2half((float)(mix32((uint32_t)i + 7u) & 0xffffu) / 65535.0f);
   }
   check_unchanged("ushort4 with sRGB", cudaCreateChannelDesc<ushort4>(), u16, 8, cudaReadModeNormalizedFloat);
   check_unchanged("char4 with sRGB", cudaCreateChannelDesc<char4>(), u8_data, 4, cudaReadModeNormalizedFloat);
   check_unchanged("half4 with sRGB", cudaCreateChannelDescHalf4(), f16, 8, cudaReadModeElementType);
   return check_end();
}
