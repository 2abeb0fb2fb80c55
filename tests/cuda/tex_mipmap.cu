/*
 * tex_mipmap.cu — mipmapped arrays and tex.level (tex1DLod, tex2DLod,
 * tex3DLod, tex1DLayeredLod, tex2DLayeredLod, texCubemapLod, and tex2D on a
 * mipmapped texture) against a host model of what an H200 (driver 580) computes.
 *
 * The model was fitted to two probe programs run on an H200 (about 100 000
 * fetches: swept levels of detail, biases and clamps on a texture whose
 * level L holds L, "impulse" textures whose fetches read each texel's
 * weight exactly, random data), reproduces every one of them bit for bit,
 * and this program is then checked on the H200 itself (tests/cuda/
 * NATIVE.md).  The model:
 *  - level of detail (lod) in 1/256 of a level: the given lod times 256
 *    truncated toward zero (NaN reads 0; tex2D without a lod reads
 *    -infinity), plus the bias truncated to 1/256, limited to
 *    maxMipmapLevelClamp and then raised to minMipmapLevelClamp (each
 *    truncated to 1/256: so min wins when min > max), then to [0, (levels -
 *    1) * 256]; a NaN bias reads as a bias of 15 levels (seen only in
 *    this program's native run: the probes' lods were too large to tell);
 *  - point mipmap filtering reads level (lod + 128) >> 8; linear reads
 *    level lod >> 8 with weight wl = 256 - (lod & 255) and the next with
 *    wl = lod & 255;
 *  - a normalised coordinate is truncated to 2^-21, then scaled by the
 *    level's size (exact positions in 2^-21 of a texel); point filtering
 *    reads the texel under it; linear takes off half a texel, clamps the
 *    position to [0, size - 1] in the clamp mode, and reads the fraction as
 *    a = round-half-up(frac * 256) (256 moves on to the next texel);
 *  - a level's weight wl is split along x, then along y: x1 = [a wl / 256],
 *    x0 = wl - x1, w00 = [(256 - b) x0 / 256], w01 = x0 - w00, w11 =
 *    [b x1 / 256], w10 = x1 - w11 ([] rounds half up); in 3-D first along
 *    z, z0 = [(256 - c) wl / 256], z1 = wl - z0, each then split as in 2-D
 *    (tex_model_corner_weight; a probe of 130 000 3-D level weights and
 *    131 000 fetches of random data, tests/cuda/NATIVE.md "mip3d");
 *  - a 1-D texture (not layered) whose address mode is border reads as a
 *    2-D one of height 1 at y = 0, half a texel above its row: half the
 *    weight goes to the border colour (as for plain arrays: tex_weights.cu);
 *  - unnormalised coordinates read as normalised ones, wrap and mirror
 *    clamping (the position too) as they do for unnormalised coordinates;
 *  - the result is the exact weighted sum rounded to float once (the data
 *    here have at most 16 significant bits, so double sums are exact).
 * Level l of an n-element dimension has max(1, n >> l) elements; numLevels
 * 0 means 1 and too many means 1 + floor(log2(largest dimension)).
 * The API's answers (error codes, level sizes) are the H200's.
 *
 *  - with maxAnisotropy >= 2 the blend between levels is narrowed unless
 *    the trilinear optimisation is disabled (tex_model_blend: an H100);
 *    the point filter between levels is the same as without (an H100,
 *    tests/cuda/NATIVE.md, thirty-second session); tex2DGrad of such a
 *    texture fails its launch with cudaErrorNotSupported through
 *    metalcuda (not fitted), the last check.
 * Not here: tex.grad (tex1DGrad, tex2DGrad, tex3DGrad, texCubemapGrad:
 * tex_grad.cu's).  Not here, because metalcuda refuses them by name (an
 * H200 accepts them; their behaviour was not fitted): sparse and
 * deferred-mapping mipmapped arrays.
 */
#include "tex_model.h"

#include <cuda.h>
#include <dlfcn.h>
#include <math.h>

/* the driver's calls, through libcuda.so.1 (dlopen: no -lcuda needed) */
static void *libcuda;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(libcuda, sym)

enum { M_LOD1, M_LOD2, M_LOD3, M_LAY, M_CUBE, M_PLAIN2, M_LAY1 };

struct In {
   float x, y, z, lod;
   int layer;
};

__global__ void fetch(cudaTextureObject_t t, int mode, const In *in, float2 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   In p = in[i];
   float2 r;
   switch (mode) {
   case M_LOD1: r = tex1DLod<float2>(t, p.x, p.lod); break;
   case M_LOD2: r = tex2DLod<float2>(t, p.x, p.y, p.lod); break;
   case M_LOD3: r = tex3DLod<float2>(t, p.x, p.y, p.z, p.lod); break;
   case M_LAY: r = tex2DLayeredLod<float2>(t, p.x, p.y, p.layer, p.lod); break;
   case M_CUBE: r = texCubemapLod<float2>(t, p.x, p.y, p.z, p.lod); break;
   case M_LAY1: r = tex1DLayeredLod<float2>(t, p.x, p.layer, p.lod); break;
   default: r = tex2D<float2>(t, p.x, p.y); break;
   }
   out[i] = r;
}

/* ---- the host model ---- */

/* A float2 mipmapped array's levels as the host holds them. */
typedef struct mip {
   int levels, w[16], h[16], d[16];   /* d: depth, layers or faces */
   float2 *data[16];
} mip;

typedef tex_model_sampler sampler;

static int model_lod(const mip *m, const sampler *s, float lod, bool plain)
{
   double v = plain ? -INFINITY : lod != lod ? 0.0 : (double)lod * 256.0;
   int q = v >= 67108864.0 ? 67108864 : v <= -67108864.0 ? -67108864 : (int)v;
   return tex_model_lod_clamp(q, s, m->levels);
}

/* The position of normalised coordinate c on n texels (less half a texel
 * when half), in 2^-21 of a texel. */
static long long model_pos(float c, int n, bool half)
{
   long long ci = (long long)floor((double)c * 2097152.0);
   return ci * n - (half ? 1048576 : 0);
}

static float2 texel(const mip *m, int l, int x, int y, int z)
{
   return m->data[l][((size_t)z * m->h[l] + y) * m->w[l] + x];
}

/* One fetch at normalised (x, y, zc) of a geometry of dims dimensions; a
 * 1-D or 2-D one reads slice z (a layer or a cube face; layered: of a
 * layered texture).  Unnormalised
 * coordinates read as normalised ones, wrap and mirror clamping there (the
 * position too, as in the clamp mode); the border colour is 0. */
static float2 model_fetch(const mip *m, const sampler *s, int dims, bool layered, float x, float y, float zc, int z,
                          float lod, bool plain)
{
   int L = model_lod(m, s, lod, plain);
   int l0 = (L + 128) >> 8, wl0 = 256;
   if (s->mip_linear)
      l0 = L >> 8, wl0 = 256 - tex_model_blend(s, L & 255);
   bool clamp_pos = s->addr == cudaAddressModeClamp || (s->unnorm && s->addr != cudaAddressModeBorder);
   double acc[2] = { 0, 0 };
   float c[3] = { x, y, zc };
   if (dims == 1 && !layered && s->linear && s->addr == cudaAddressModeBorder)
      dims = 2, c[1] = 0;   /* 2-D of height 1 at y = 0: half the weight on the border */
   for (int k = 0; k < 2; k++) {
      int wl = k ? 256 - wl0 : wl0, l = l0 + k;
      if (!wl)
         continue;
      int n[3] = { m->w[l], m->h[l], m->d[l] }, p[3] = { 0, 0, z }, a[3] = { 0, 0, 0 };
      for (int d = 0; d < dims; d++) {
         long long q = model_pos(c[d], n[d], s->linear);
         if (s->linear && clamp_pos)
            q = q < 0 ? 0 : q > ((long long)(n[d] - 1) << 21) ? (long long)(n[d] - 1) << 21 : q;
         p[d] = (int)(q >> 21);
         a[d] = s->linear ? (int)(((q & 0x1fffff) + 4096) >> 13) : 0;
         if (a[d] == 256)
            a[d] = 0, p[d]++;
      }
      int corners = s->linear ? 1 << dims : 1;
      for (int cn = 0; cn < corners; cn++) {
         int wk = s->linear ? tex_model_corner_weight(a, wl, dims, cn) : wl;
         int q[3] = { p[0] + (cn & 1), p[1] + (cn >> 1 & 1), p[2] + (cn >> 2 & 1) };
         bool in = true;
         for (int d = 0; d < 3; d++)
            if (d >= dims)
               q[d] = d == 2 ? z : 0;
            else
               in = tex_model_index(s->addr, !s->unnorm, n[d], &q[d]) && in;
         if (!in)
            continue;
         float2 v = texel(m, l, q[0], q[1], q[2]);
         acc[0] += wk / 256.0 * v.x;
         acc[1] += wk / 256.0 * v.y;
      }
   }
   return make_float2((float)acc[0], (float)acc[1]);
}

/* ---- making the arrays ---- */

/* A float2 mipmapped array of w x h x d (flags: cudaArray*), every level
 * filled: constant (texel = (level, slice)) or random (x: k/256, y:
 * k/65536), and its host copy. */
static cudaMipmappedArray_t make_mip(mip *m, size_t w, size_t h, size_t d, unsigned levels, unsigned flags,
                                     bool constant)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
   cudaMipmappedArray_t a = NULL;
   CHECK_CUDA(cudaMallocMipmappedArray(&a, &cd, make_cudaExtent(w, h, d), levels, flags));
   m->levels = (int)levels;
   for (int l = 0; l < m->levels; l++) {
      cudaArray_t lv = NULL;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&lv, a, (unsigned)l));
      cudaChannelFormatDesc c2;
      cudaExtent e = { 0, 0, 0 };
      unsigned fl = 0;
      CHECK_CUDA(cudaArrayGetInfo(&c2, &e, &fl, lv));
      m->w[l] = (int)e.width, m->h[l] = e.height ? (int)e.height : 1, m->d[l] = e.depth ? (int)e.depth : 1;
      size_t n = (size_t)m->w[l] * m->h[l] * m->d[l];
      m->data[l] = (float2 *)malloc(n * sizeof(float2));
      for (size_t i = 0; i < n; i++) {
         size_t z = i / ((size_t)m->w[l] * m->h[l]);
         m->data[l][i] = constant ? make_float2((float)l, (float)z)
                                  : make_float2((float)(int)(tex_model_urand() * 256) / 256.0f,
                                                (float)(int)(tex_model_urand() * 65536) / 65536.0f);
      }
      tex_model_copy3d(lv, m->data[l], m->w[l] * sizeof(float2), m->w[l], m->h[l], m->d[l], true);
   }
   return a;
}


static In *d_in;
static float2 *d_out;

/* Runs n fetches and compares both channels of each with the model (one
 * check per call, showing the first mismatches); returns the mismatches. */
static int run_check(const char *what, cudaTextureObject_t t, int mode, const In *in, int n, const float2 *want)
{
   float2 *got = (float2 *)malloc(n * sizeof(float2));
   fill_u32((uint32_t *)got, 2 * (size_t)n, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(d_out, got, n * sizeof(float2), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_in, in, n * sizeof(In), cudaMemcpyHostToDevice));
   fetch<<<(n + 127) / 128, 128>>>(t, mode, d_in, d_out, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(float2), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < n; i++)
      if (f32_bits(got[i].x) != f32_bits(want[i].x) || f32_bits(got[i].y) != f32_bits(want[i].y)) {
         if (bad++ < 4)
            printf("  %s #%d (x %a y %a z %a lod %a layer %d): got (%a, %a), model (%a, %a)\n", what, i, in[i].x,
                   in[i].y, in[i].z, in[i].lod, in[i].layer, got[i].x, got[i].y, want[i].x, want[i].y);
      }
   if (!check_true(bad == 0, what, __FILE__, __LINE__))
      printf("  %s: %d of %d fetches differ\n", what, bad, n);
   free(got);
   return bad;
}

static void free_mip(mip *m)
{
   for (int l = 0; l < m->levels; l++)
      free(m->data[l]);
}

/* ---- the API ---- */

static void api_checks(void)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaMipmappedArray_t m = NULL;
   cudaArray_t a = NULL;
   CHECK_ERR(cudaMallocMipmappedArray(NULL, &cd, make_cudaExtent(64, 64, 0), 7, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMallocMipmappedArray(&m, NULL, make_cudaExtent(64, 64, 0), 7, 0), cudaErrorInvalidValue);
   /* the number of levels: 0 is 1, too many is all of them */
   struct { size_t w, h, d; unsigned levels, flags; int want; size_t lw[3]; } shapes[] = {
      { 64, 64, 0, 0, 0, 1, { 64, 64, 0 } },
      { 64, 64, 0, 100, 0, 7, { 1, 1, 0 } },
      { 64, 64, 0, 3, 0, 3, { 16, 16, 0 } },
      { 100, 37, 0, 100, 0, 7, { 1, 1, 0 } },
      { 1000, 0, 0, 100, 0, 10, { 1, 0, 0 } },
      { 64, 32, 16, 100, 0, 7, { 1, 1, 1 } },
      { 32, 32, 6, 100, cudaArrayCubemap, 6, { 1, 1, 6 } },
      { 32, 32, 3, 100, cudaArrayLayered, 6, { 1, 1, 3 } },
      { 32, 0, 3, 100, cudaArrayLayered, 6, { 1, 0, 3 } },
   };
   for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
      m = NULL;
      if (!CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(shapes[i].w, shapes[i].h, shapes[i].d),
                                               shapes[i].levels, shapes[i].flags)))
         continue;
      int n = 0;
      cudaExtent last = { 0, 0, 0 };
      bool sizes_ok = true;
      while (n < 20 && cudaGetMipmappedArrayLevel(&a, m, (unsigned)n) == cudaSuccess) {
         cudaChannelFormatDesc c2;
         unsigned fl = 0;
         CHECK_CUDA(cudaArrayGetInfo(&c2, &last, &fl, a));
         size_t want_w = shapes[i].w >> n ? shapes[i].w >> n : 1;
         size_t want_h = shapes[i].h ? (shapes[i].h >> n ? shapes[i].h >> n : 1) : 0;
         sizes_ok = sizes_ok && last.width == want_w && last.height == want_h && fl == shapes[i].flags;
         n++;
      }
      cudaGetLastError();
      CHECK_INT(n, shapes[i].want);
      CHECK(sizes_ok);
      CHECK_INT(last.width, shapes[i].lw[0]);
      CHECK_INT(last.height, shapes[i].lw[1]);
      CHECK_INT(last.depth, shapes[i].lw[2]);
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
   /* shapes an H200 refuses */
   struct { size_t w, h, d; unsigned flags; } bad[] = {
      { 0, 0, 0, 0 }, { 0, 16, 0, 0 }, { 16, 0, 4, 0 }, { 65536, 0, 0, 0 }, { 32, 16, 6, cudaArrayCubemap },
      { 32, 32, 0, 0x1000 },
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
      CHECK_ERR(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(bad[i].w, bad[i].h, bad[i].d), 0, bad[i].flags),
                cudaErrorInvalidValue);

   CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(64, 64, 0), 3, 0));
   CHECK_ERR(cudaGetMipmappedArrayLevel(NULL, m, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetMipmappedArrayLevel(&a, NULL, 0), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaGetMipmappedArrayLevel(&a, m, 3), cudaErrorInvalidValue);
   cudaArray_t a1 = NULL, a2 = NULL;
   CHECK_CUDA(cudaGetMipmappedArrayLevel(&a1, m, 1));
   CHECK_CUDA(cudaGetMipmappedArrayLevel(&a2, m, 1));
   CHECK(a1 == a2 && a1 != NULL);
   CHECK_CUDA(cudaFreeMipmappedArray(NULL));
   cudaArrayMemoryRequirements req;
   memset(&req, 0xab, sizeof(req));
   CHECK_ERR(cudaMipmappedArrayGetMemoryRequirements(&req, m, 0), cudaErrorInvalidValue);   /* not deferred */
   CHECK_INT(req.size, 0);
   CHECK_INT(req.alignment, 0);
   CHECK_ERR(cudaMipmappedArrayGetMemoryRequirements(NULL, m, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMipmappedArrayGetMemoryRequirements(&req, NULL, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMipmappedArrayGetMemoryRequirements(&req, m, -1), cudaErrorInvalidValue);

   /* texture and surface objects over it */
   cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeMipmappedArray;
   rd.res.mipmap.mipmap = m;
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.filterMode = cudaFilterModeLinear;
   td.normalizedCoords = 1;
   td.mipmapFilterMode = (cudaTextureFilterMode)2;
   cudaTextureObject_t t = 0;
   CHECK_ERR(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaErrorInvalidValue);
   td.mipmapFilterMode = cudaFilterModeLinear;
   td.minMipmapLevelClamp = 0.5f, td.maxMipmapLevelClamp = 2.0f, td.mipmapLevelBias = 0.25f;
   rd.res.mipmap.mipmap = NULL;
   CHECK_ERR(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaErrorInvalidResourceHandle);
   rd.res.mipmap.mipmap = m;
   if (CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL))) {
      cudaResourceDesc rb;
      cudaTextureDesc tb;
      memset(&rb, 0, sizeof(rb));
      CHECK_CUDA(cudaGetTextureObjectResourceDesc(&rb, t));
      CHECK(rb.resType == cudaResourceTypeMipmappedArray && rb.res.mipmap.mipmap == m);
      CHECK_CUDA(cudaGetTextureObjectTextureDesc(&tb, t));
      CHECK(tb.mipmapFilterMode == cudaFilterModeLinear && tb.minMipmapLevelClamp == 0.5f &&
            tb.maxMipmapLevelClamp == 2.0f && tb.mipmapLevelBias == 0.25f);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   cudaSurfaceObject_t so = 0;
   CHECK_ERR(cudaCreateSurfaceObject(&so, &rd), cudaErrorInvalidValue);
   /* freeing a level alone succeeds and changes nothing */
   CHECK_CUDA(cudaFreeArray(a1));
   CHECK_CUDA(cudaGetMipmappedArrayLevel(&a2, m, 1));
   CHECK(a2 == a1);
   CHECK_CUDA(cudaFreeMipmappedArray(m));

   /* the driver's forms */
   libcuda = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(libcuda != NULL))
      return;
   FN(cuMipmappedArrayCreate, "cuMipmappedArrayCreate");
   FN(cuMipmappedArrayGetLevel, "cuMipmappedArrayGetLevel");
   FN(cuMipmappedArrayDestroy, "cuMipmappedArrayDestroy");
   FN(cuArray3DGetDescriptor, "cuArray3DGetDescriptor_v2");
   if (!CHECK(p_cuMipmappedArrayCreate && p_cuMipmappedArrayGetLevel && p_cuMipmappedArrayDestroy &&
              p_cuArray3DGetDescriptor))
      return;
   CUDA_ARRAY3D_DESCRIPTOR ad;
   memset(&ad, 0, sizeof(ad));
   ad.Width = 64, ad.Height = 64, ad.Format = CU_AD_FORMAT_FLOAT, ad.NumChannels = 1;
   CUmipmappedArray cm = NULL;
   CUarray ca = NULL;
   CHECK_INT(p_cuMipmappedArrayCreate(NULL, &ad, 3), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(p_cuMipmappedArrayCreate(&cm, NULL, 3), CUDA_ERROR_INVALID_VALUE);
   ad.NumChannels = 3;
   CHECK_INT(p_cuMipmappedArrayCreate(&cm, &ad, 2), CUDA_ERROR_INVALID_VALUE);
   ad.NumChannels = 1;
   CHECK_INT(p_cuMipmappedArrayCreate(&cm, &ad, 3), CUDA_SUCCESS);
   CHECK_INT(p_cuMipmappedArrayGetLevel(NULL, cm, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(p_cuMipmappedArrayGetLevel(&ca, NULL, 0), CUDA_ERROR_INVALID_HANDLE);
   CHECK_INT(p_cuMipmappedArrayGetLevel(&ca, cm, 3), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(p_cuMipmappedArrayGetLevel(&ca, cm, 2), CUDA_SUCCESS);
   CUDA_ARRAY3D_DESCRIPTOR back;
   memset(&back, 0, sizeof(back));
   CHECK_INT(p_cuArray3DGetDescriptor(&back, ca), CUDA_SUCCESS);
   CHECK(back.Width == 16 && back.Height == 16 && back.Depth == 0 && back.Format == CU_AD_FORMAT_FLOAT &&
         back.NumChannels == 1);
   CHECK_INT(p_cuMipmappedArrayDestroy(NULL), CUDA_ERROR_INVALID_HANDLE);
   CHECK_INT(p_cuMipmappedArrayDestroy(cm), CUDA_SUCCESS);
}

/* ---- the fetches ---- */

/* Level of detail: a texture whose level L holds L, every descriptor of
 * the list, levels swept from -3 to 10 by 1/64 (and between 1/1024 and
 * 1/65536 around them), and the special values. */
static void lod_checks(void)
{
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 256, 256, 0, 9, 0, true);
   const sampler list[] = {
      { false, false, cudaAddressModeClamp, 0, 0, 8 },
      { false, true, cudaAddressModeClamp, 0, 0, 8 },
      { false, true, cudaAddressModeClamp, 0, 1.25f, 3.5f },
      { false, true, cudaAddressModeClamp, 0.3f, 0, 8 },
      { false, true, cudaAddressModeClamp, -0.7f, 0, 100 },
      { false, true, cudaAddressModeClamp, 0, 0, 0 },
      { false, false, cudaAddressModeClamp, 0.3f, 1.25f, 3.5f },
      { true, true, cudaAddressModeClamp, 0.5f, -1, 8 },
      { false, true, cudaAddressModeClamp, 0.3f, 0.6f, 2.3f },
      { false, true, cudaAddressModeClamp, 0, 3, 1 },
      { false, false, cudaAddressModeClamp, 0, 3, 1 },
      { false, true, cudaAddressModeClamp, NAN, 0, 8 },
      { false, true, cudaAddressModeClamp, 0.25f, 0.001f, 7.999f },
      { false, false, cudaAddressModeClamp, -1.5f, -2, 8 },
   };
   const float special[] = { NAN, INFINITY, -INFINITY, 1e-30f, -1e-30f, 0x1p-9f, 0x1.fffffep-1f, 1e9f, -1e9f,
                             8.9f, 9.5f };
   int cap = 13 * 64 * 2 + 16;
   In *in = (In *)calloc(cap, sizeof(In));
   float2 *want = (float2 *)malloc(cap * sizeof(float2));
   for (unsigned j = 0; j < sizeof(list) / sizeof(list[0]); j++) {
      const sampler *s = &list[j];
      cudaTextureObject_t t = tex_model_mip_object(a, s);
      int n = 0;
      for (int i = -3 * 64; i < 10 * 64; i++) {
         in[n++] = (In){ 0.3f, 0.6f, 0, i / 64.0f + (i % 5) / 1024.0f - (i % 3) / 65536.0f, 0 };
         in[n++] = (In){ 0.3f, 0.6f, 0, -(i / 64.0f) - (i % 7) / 4096.0f, 0 };
      }
      for (unsigned k = 0; k < sizeof(special) / sizeof(special[0]); k++)
         in[n++] = (In){ 0.3f, 0.6f, 0, special[k], 0 };
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&m, s, 2, false, in[i].x, in[i].y, 0, 0, in[i].lod, false);
      char what[64];
      snprintf(what, sizeof(what), "tex2DLod, sampler %u", j);
      run_check(what, t, M_LOD2, in, n, want);
      want[0] = model_fetch(&m, s, 2, false, 0.3f, 0.6f, 0, 0, 0, true);
      snprintf(what, sizeof(what), "tex2D (no lod), sampler %u", j);
      run_check(what, t, M_PLAIN2, in, 1, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   free(in);
   free(want);
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
}

/* maxAnisotropy >= 2: tex2DLod at every 1/256 of a level and a bit past
 * both ends, bilinear within levels, random data and positions; linear
 * between levels (the trilinear optimisation on, then off), and point. */
static void aniso_checks(void)
{
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 64, 32, 0, 4, 0, false);
   static const struct {
      int aniso;
      bool no_opt, mip_point;
   } cases[] = { { 2 }, { 3 }, { 4 }, { 7 }, { 8 }, { 16 }, { 1000 }, { 4, true }, { 2, false, true },
                 { 8, false, true } };
   int cap = 4 * 256 + 128;
   In *in = (In *)calloc(cap, sizeof(In));
   float2 *want = (float2 *)malloc(cap * sizeof(float2));
   for (unsigned j = 0; j < sizeof(cases) / sizeof(cases[0]); j++) {
      sampler s = { true, !cases[j].mip_point, cudaAddressModeClamp, 0, 0, 8 };
      s.aniso = cases[j].aniso;
      s.no_trilinear_opt = cases[j].no_opt;
      cudaTextureObject_t t = tex_model_mip_object(a, &s);
      int n = 0;
      for (int i = -64; i < 3 * 256 + 64; i++)
         in[n++] = (In){ (float)tex_model_urand(), (float)tex_model_urand(), 0, i / 256.0f, 0 };
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&m, &s, 2, false, in[i].x, in[i].y, 0, 0, in[i].lod, false);
      char what[96];
      snprintf(what, sizeof(what), "tex2DLod, maxAnisotropy %d%s%s", s.aniso,
               s.no_trilinear_opt ? ", trilinear optimisation disabled" : "",
               s.mip_linear ? "" : ", point between levels");
      run_check(what, t, M_LOD2, in, n, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   free(in);
   free(want);
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
}

__global__ void fetch_grad(cudaTextureObject_t t, float2 *out)
{
   out[0] = tex2DGrad<float2>(t, 0.5f, 0.5f, make_float2(0.1f, 0), make_float2(0, 0.1f));
}

/* tex2DGrad on a texture with maxAnisotropy 4: anisotropic filtering,
 * which metalcuda does not fit; its launch fails with
 * cudaErrorNotSupported there, and the context stays failed (so this runs
 * last).  An NVIDIA GPU runs it. */
static void aniso_grad_check(void)
{
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 64, 32, 0, 4, 0, true);
   sampler s = { true, true, cudaAddressModeClamp, 0, 0, 8 };
   s.aniso = 4;
   cudaTextureObject_t t = tex_model_mip_object(a, &s);
   fetch_grad<<<1, 1>>>(t, d_out);
   cudaError_t e = cudaDeviceSynchronize();
   CHECK_ERR(e, on_metalcuda() ? cudaErrorNotSupported : cudaSuccess);
   free_mip(&m);
}

/* Filtering within and between levels: random data, random coordinates
 * (also outside [0, 1]) and levels. */
static void filter_checks(void)
{
   enum { N = 3000 };
   In *in = (In *)calloc(N, sizeof(In));
   float2 *want = (float2 *)malloc(N * sizeof(float2));
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 64, 48, 0, 7, 0, false);
   const sampler list[] = {
      { true, true, cudaAddressModeWrap, 0, 0, 10 },  { true, true, cudaAddressModeClamp, 0, 0, 10 },
      { false, true, cudaAddressModeClamp, 0, 0, 10 }, { true, false, cudaAddressModeClamp, 0, 0, 10 },
      { false, false, cudaAddressModeClamp, 0, 0, 10 }, { true, true, cudaAddressModeClamp, 0.4f, 0.2f, 4.7f },
   };
   for (unsigned j = 0; j < sizeof(list) / sizeof(list[0]); j++) {
      cudaTextureObject_t t = tex_model_mip_object(a, &list[j]);
      for (int i = 0; i < N; i++) {
         in[i] = (In){ (float)(tex_model_urand() * 1.4 - 0.2), (float)(tex_model_urand() * 1.4 - 0.2), 0, (float)(tex_model_urand() * 8 - 1), 0 };
         want[i] = model_fetch(&m, &list[j], 2, false, in[i].x, in[i].y, 0, 0, in[i].lod, false);
      }
      char what[64];
      snprintf(what, sizeof(what), "tex2DLod 64x48, filters %d/%d, mode %d", list[j].linear, list[j].mip_linear,
               list[j].addr);
      run_check(what, t, M_LOD2, in, N, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   /* 1-D, 1000 texels (10 levels of odd sizes) */
   a = make_mip(&m, 1000, 0, 0, 10, 0, false);
   sampler s1 = { true, true, cudaAddressModeClamp, 0, 0, 20 };
   cudaTextureObject_t t = tex_model_mip_object(a, &s1);
   for (int i = 0; i < N; i++) {
      in[i] = (In){ (float)(tex_model_urand() * 1.2 - 0.1), 0, 0, (float)(tex_model_urand() * 10.4 - 0.2), 0 };
      want[i] = model_fetch(&m, &s1, 1, false, in[i].x, 0, 0, 0, in[i].lod, false);
   }
   run_check("tex1DLod 1000, linear/linear", t, M_LOD1, in, N, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   /* 2-D layered, 32x32, 3 layers: the layer is clamped, levels keep the layers */
   a = make_mip(&m, 32, 32, 3, 6, cudaArrayLayered, false);
   t = tex_model_mip_object(a, &s1);
   for (int i = 0; i < N; i++) {
      in[i] = (In){ (float)(tex_model_urand() * 1.2 - 0.1), (float)(tex_model_urand() * 1.2 - 0.1), 0, (float)(tex_model_urand() * 6.4 - 0.2),
                    (int)(tex_model_urand() * 4) };
      int z = in[i].layer > 2 ? 2 : in[i].layer;
      want[i] = model_fetch(&m, &s1, 2, true, in[i].x, in[i].y, 0, z, in[i].lod, false);
   }
   run_check("tex2DLayeredLod 32x32x3, linear/linear", t, M_LAY, in, N, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
   free(in);
   free(want);
}

/* Geometries whose levels are constant (level l holds (l, slice)): a cube
 * map (the face from the direction's major axis, the level from the lod)
 * and a 3-D texture (point filtering within the level). */
static void geometry_checks(void)
{
   enum { N = 600 };
   In *in = (In *)calloc(N, sizeof(In));
   float2 *want = (float2 *)malloc(N * sizeof(float2));
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 32, 32, 6, 6, cudaArrayCubemap, true);
   sampler s = { true, true, cudaAddressModeClamp, 0, 0, 20 };
   cudaTextureObject_t t = tex_model_mip_object(a, &s);
   for (int i = 0; i < N; i++) {
      /* the major axis |z| = 1 (faces 4, 5), |x| and |y| at most 0.9 */
      float z = (i & 1) ? 1.0f : -1.0f;
      in[i] = (In){ (float)(tex_model_urand() * 1.8 - 0.9), (float)(tex_model_urand() * 1.8 - 0.9), z, (float)(tex_model_urand() * 6.4 - 0.2), 0 };
      int L = model_lod(&m, &s, in[i].lod, false), l0 = L >> 8, f = L & 255;
      want[i] = make_float2((float)((l0 * (256 - f) + (l0 + 1) * f) / 256.0), z > 0 ? 4.0f : 5.0f);
   }
   run_check("texCubemapLod 32x32, linear/linear", t, M_CUBE, in, N, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 64, 32, 16, 7, 0, true);
   sampler s3 = { false, true, cudaAddressModeClamp, 0, 0, 20 };
   t = tex_model_mip_object(a, &s3);
   for (int i = 0; i < N; i++) {
      in[i] = (In){ (float)tex_model_urand(), (float)tex_model_urand(), (float)tex_model_urand(), (float)(tex_model_urand() * 7.4 - 0.2), 0 };
      int L = model_lod(&m, &s3, in[i].lod, false), l0 = L >> 8, f = L & 255;
      /* slice z of level l: (l, z) with z = floor(z * depth) */
      int z0 = (int)(model_pos(in[i].z, m.d[l0], false) >> 21);
      int z1 = l0 + 1 < m.levels ? (int)(model_pos(in[i].z, m.d[l0 + 1], false) >> 21) : 0;
      want[i] = make_float2((float)((l0 * (256 - f) + (l0 + 1) * f) / 256.0),
                            (float)((z0 * (256 - f) + z1 * f) / 256.0));
   }
   run_check("tex3DLod 64x32x16, point/linear", t, M_LOD3, in, N, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
   free(in);
   free(want);
}

/* Random coordinates in [lo, lo + span) (each a float), a level of detail in
 * [-0.5, top + 0.5), a quarter of them on the 1/256 grid. */
static In random_in(double lo, double span, double top)
{
   In p = { (float)(tex_model_urand() * span + lo), (float)(tex_model_urand() * span + lo),
            (float)(tex_model_urand() * span + lo), (float)(tex_model_urand() * (top + 1) - 0.5), 0 };
   if (tex_model_urand() < 0.25)
      p.lod = (float)floor(p.lod * 256.0) / 256.0f;
   return p;
}

/* n fetches of random points of the mipmapped array a (dims 1 to 3, or 2
 * with layers) with sampler s, checked against the model. */
static void random_checks(const char *what, cudaMipmappedArray_t a, const mip *m, const sampler *s, int dims,
                          bool layered, double lo, double span, int n)
{
   In *in = (In *)calloc(n, sizeof(In));
   float2 *want = (float2 *)malloc(n * sizeof(float2));
   cudaTextureObject_t t = tex_model_mip_object(a, s);
   for (int i = 0; i < n; i++) {
      in[i] = random_in(lo, span, m->levels - 1);
      if (layered)
         in[i].layer = (int)(tex_model_urand() * (m->d[0] + 1));
      int z = in[i].layer >= m->d[0] ? m->d[0] - 1 : in[i].layer;
      want[i] = model_fetch(m, s, dims, layered, in[i].x, in[i].y, in[i].z, layered ? z : 0, in[i].lod, false);
   }
   char name[160];
   snprintf(name, sizeof(name), "%s, filters %d/%d, mode %d%s", what, s->linear, s->mip_linear, s->addr,
            s->unnorm ? ", unnormalised" : "");
   int mode = layered ? (dims == 1 ? M_LAY1 : M_LAY) : dims == 3 ? M_LOD3 : dims == 2 ? M_LOD2 : M_LOD1;
   run_check(name, t, mode, in, n, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   free(in);
   free(want);
}

/* 3-D textures filtered linearly within and between levels (each level's
 * weight split along z, then x, then y), every address mode, sizes that
 * are powers of two and not, biases and clamps; linear within one level. */
static void three_d_checks(void)
{
   enum { N = 2000 };
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 16, 8, 4, 5, 0, false);
   for (int addr = cudaAddressModeWrap; addr <= cudaAddressModeBorder; addr++) {
      sampler s = { true, true, addr, 0, 0, 20, false };
      random_checks("tex3DLod 16x8x4", a, &m, &s, 3, false, -0.2, 1.4, N);
   }
   sampler sb = { true, true, cudaAddressModeClamp, 0.4f, 0.2f, 2.7f, false };
   random_checks("tex3DLod 16x8x4, bias and clamps", a, &m, &sb, 3, false, -0.2, 1.4, N);
   sampler sp = { true, false, cudaAddressModeMirror, 0, 0, 20, false };
   random_checks("tex3DLod 16x8x4", a, &m, &sp, 3, false, -0.2, 1.4, N);
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 13, 10, 7, 4, 0, false);
   for (int addr = cudaAddressModeWrap; addr <= cudaAddressModeClamp; addr++) {
      sampler s = { true, true, addr, 0, 0, 20, false };
      random_checks("tex3DLod 13x10x7", a, &m, &s, 3, false, -0.2, 1.4, N);
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
}

/* Unnormalised coordinates on mipmapped textures: read as normalised ones,
 * wrap and mirror clamping (an H200, 2-D and 3-D). */
static void unnormalised_checks(void)
{
   enum { N = 2000 };
   mip m;
   cudaMipmappedArray_t a = make_mip(&m, 40, 24, 0, 6, 0, false);
   for (int addr = cudaAddressModeWrap; addr <= cudaAddressModeBorder; addr++) {
      sampler s = { true, true, addr, 0, 0, 20, true };
      random_checks("tex2DLod 40x24", a, &m, &s, 2, false, -1.2, 3.4, N);
   }
   sampler sp = { false, false, cudaAddressModeWrap, 0, 0, 20, true };
   random_checks("tex2DLod 40x24", a, &m, &sp, 2, false, -1.2, 3.4, N);
   sp.addr = cudaAddressModeBorder;
   random_checks("tex2DLod 40x24", a, &m, &sp, 2, false, -1.2, 3.4, N);
   sampler sl = { true, true, cudaAddressModeMirror, 0, 0, 20, true };
   random_checks("tex2DLod 40x24, coordinates up to 44", a, &m, &sl, 2, false, -24, 68, N);
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 16, 8, 4, 5, 0, false);
   for (int addr = cudaAddressModeWrap; addr <= cudaAddressModeBorder; addr++) {
      sampler s = { true, true, addr, 0, 0, 20, true };
      random_checks("tex3DLod 16x8x4", a, &m, &s, 3, false, -1.2, 3.4, N);
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 1000, 0, 0, 10, 0, false);
   sampler s1 = { true, true, cudaAddressModeWrap, 0, 0, 20, true };
   random_checks("tex1DLod 1000", a, &m, &s1, 1, false, -1.2, 3.4, N);
   /* the border mode: a 1-D texture reads as a 2-D one of height 1 at y =
    * 0, half a texel above its row (normalised coordinates too); a layered
    * one does not (below) */
   for (int un = 0; un < 2; un++) {
      sampler sb = { true, true, cudaAddressModeBorder, 0, 0, 20, un == 1 };
      random_checks("tex1DLod 1000", a, &m, &sb, 1, false, -1.2, 3.4, N);
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 64, 0, 3, 7, cudaArrayLayered, false);
   for (int un = 0; un < 2; un++) {
      sampler sb = { true, true, cudaAddressModeBorder, 0, 0, 20, un == 1 };
      random_checks("tex1DLayeredLod 64x3", a, &m, &sb, 1, true, -1.2, 3.4, N);
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);

   a = make_mip(&m, 32, 32, 3, 6, cudaArrayLayered, false);
   sampler s2 = { true, true, cudaAddressModeMirror, 0, 0, 20, true };
   random_checks("tex2DLayeredLod 32x32x3", a, &m, &s2, 2, true, -1.2, 3.4, N);
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free_mip(&m);
}

int main(void)
{
   check_begin("tex_mipmap");
   CHECK_CUDA(cudaSetDevice(0));
   api_checks();
   CHECK_CUDA(cudaMalloc(&d_in, 4096 * sizeof(In)));
   CHECK_CUDA(cudaMalloc(&d_out, 4096 * sizeof(float2)));
   lod_checks();
   filter_checks();
   geometry_checks();
   three_d_checks();
   unnormalised_checks();
   aniso_checks();
   aniso_grad_check();
   return check_end();
}
