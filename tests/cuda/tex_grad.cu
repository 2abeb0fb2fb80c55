/*
 * tex_grad.cu — tex.grad on 1-D mipmapped textures (tex1DGrad,
 * tex1DLayeredGrad) against a host model of the level of detail (lod) an
 * H200 (driver 580) computes from the two gradients.
 *
 * The model was fitted to probe programs run on an H200 (about 400 000
 * fetches of textures whose level L holds L, read with linear filtering
 * between levels, so that a fetch returns the lod's 1/256 steps exactly:
 * sweeps of one gradient over every 1/65536 of [1, 2) texels and over every
 * float near chosen values, sweeps of the second gradient against fixed
 * first ones, random pairs from 2^-12 to 2^14 texels with both signs,
 * zeros, denormals, infinities and NaNs, biases and clamps; tests/cuda/
 * NATIVE.md), reproduces every one of them, and this program is checked
 * on the H200 itself.  The model, for a texture of 2^k texels:
 *  - each gradient in texels (|dPdx| 2^k, |dPdy| 2^k) is truncated to 9
 *    fraction bits of its own binary exponent (a NaN reads as 0, a
 *    denormal as 0, an infinity gives the top level, both zero the
 *    bottom);
 *  - with M = n 2^(e - 9) the larger (n of 512..1023) and the smaller
 *    truncated to the same grid (m 2^(e - 9)), s = n + m (halved and
 *    truncated when it reaches 1024, the exponent one up) gives the
 *    diagonal term D = floor((11 s + 4) / 16) 2^(e' - 9), about 11/16 of
 *    |dPdx| + |dPdy|;
 *  - rho = max(M, D) is truncated to 8 fraction bits, rho = (1 + i/256)
 *    2^E, and the lod is 256 E + T(i) in 1/256 of a level, where T(i) =
 *    round(256 log2(1 + (i + 1/2)/256) - 0.03) for i = 1 ... 254, T(0) = 0
 *    and T(255) = 255 (an H200's table, read off it: within 0.53 of the
 *    exact log2 of the interval's middle);
 *  - then as tex.level (tex_mipmap.cu): plus the bias truncated to 1/256,
 *    limited to maxMipmapLevelClamp, raised to minMipmapLevelClamp, then to
 *    [0, 256 (levels - 1)]; linear filtering between levels reads level
 *    lod >> 8 with weight 256 - (lod & 255) and the next with lod & 255,
 *    point filtering level (lod + 128) >> 8.
 * A texture without levels ignores the gradients (as tex1D).
 *
 * Not here, because metalcuda refuses them: tex.grad on 2-D, 3-D and
 * cube-map textures (an H200's lod from two 2-D gradients is known only to
 * within 1/256 for about 1 fetch in 1000: tests/cuda/NATIVE.md) and on
 * textures whose width is not a power of two (an H200 scales the gradients
 * by such a width in a way not fitted: metalcuda fails the launch with
 * cudaErrorNotSupported).
 */
#include "tex_model.h"

#include <math.h>

enum { M_GRAD, M_GRAD_LAYERED, M_LOD, M_PLAIN };

struct In {
   float x, gx, gy, lod;
   int layer;
};

__global__ void fetch(cudaTextureObject_t t, int mode, const In *in, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   In p = in[i];
   float r;
   switch (mode) {
   case M_GRAD: r = tex1DGrad<float>(t, p.x, p.gx, p.gy); break;
   case M_GRAD_LAYERED: r = tex1DLayeredGrad<float>(t, p.x, p.layer, p.gx, p.gy); break;
   case M_LOD: r = tex1DLod<float>(t, p.x, p.lod); break;
   default: r = tex1D<float>(t, p.x); break;
   }
   out[i] = r;
}

/* ---- the host model ---- */

#define LOD_INF 100000000   /* beyond every bias: an infinite gradient */

/* The H200's 1/256 steps of log2(1 + i/256) (see the header). */
static int lg2_step(int i)
{
   if (i == 0 || i == 255)
      return i;
   return (int)floor(256.0 * log2(1.0 + (i + 0.5) / 256.0) - 0.03 + 0.5);
}

/* A gradient in texels as (n, e): n 2^(e - 9), n in [512, 1024); 0: zero. */
static int split9(double v, int *n, int *e)
{
   if (v == 0.0)
      return 0;
   int p;
   double f = frexp(v, &p);   /* v = f 2^p, f in [0.5, 1) */
   *e = p - 1;
   *n = (int)floor(f * 1024.0);
   return 1;
}

/* The lod in 1/256 of a level before bias and clamps, for gradients gx, gy
 * (normalised) on a texture of width 2^k. */
static int model_grad_lod(float gx, float gy, int k)
{
   double g[2] = { gx, gy };
   for (int j = 0; j < 2; j++) {
      if (isnan(g[j]) || fabs(g[j]) < 1.1754943508222875e-38)   /* NaN, zero, denormal */
         g[j] = 0.0;
      if (isinf(g[j]))
         return LOD_INF;
      g[j] = ldexp(fabs(g[j]), k);
   }
   double big = g[0] > g[1] ? g[0] : g[1], small = g[0] > g[1] ? g[1] : g[0];
   int n, e, ns, es;
   if (!split9(big, &n, &e))
      return -LOD_INF;
   int m = (int)floor(small / ldexp(1.0, e - 9));   /* the smaller on the larger's grid */
   int s = n + m;
   es = e;
   if (s >= 1024)
      s /= 2, es++;
   ns = (11 * s + 4) / 16;
   double rho = fmax(ldexp(n, e - 9), ldexp(ns, es - 9));
   int re;
   double f = frexp(rho, &re);                      /* rho = f 2^re */
   int i = (int)floor((2.0 * f - 1.0) * 256.0);     /* 8 fraction bits of 2f */
   return 256 * (re - 1) + lg2_step(i);
}

typedef tex_model_sampler sampler;

/* The fetch of a texture whose level l holds l (+ layer / 2). */
static float model_fetch(const sampler *s, int levels, int q, int layer)
{
   int v = tex_model_lod_clamp(q, s, levels);
   double r = s->mip_linear ? (double)v / 256.0 : (double)((v + 128) >> 8);
   return (float)(r + layer * 0.5);
}

/* ---- the device side ---- */

/* A float mipmapped array of w texels (layers: a layered one) whose level l
 * holds l + layer / 2, or random values k/256 when random. */
static cudaMipmappedArray_t make_mip(int w, int levels, int layers, bool random)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaMipmappedArray_t a = NULL;
   CHECK_CUDA(cudaMallocMipmappedArray(&a, &cd, make_cudaExtent(w, 0, layers), levels,
                                       layers ? cudaArrayLayered : 0));
   for (int l = 0; l < levels; l++) {
      cudaArray_t lv = NULL;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&lv, a, (unsigned)l));
      int n = w >> l > 0 ? w >> l : 1, nl = layers ? layers : 1;
      float *h = (float *)malloc((size_t)n * nl * sizeof(float));
      for (int z = 0; z < nl; z++)
         for (int i = 0; i < n; i++)
            h[z * n + i] = random ? (float)(int)(tex_model_urand() * 256) / 256.0f : (float)l + 0.5f * (float)z;
      tex_model_copy3d(lv, h, n * sizeof(float), n, 1, nl, true);
      free(h);
   }
   return a;
}

enum { NMAX = 8192 };
static In *d_in;
static float *d_out;

static void run(cudaTextureObject_t t, int mode, const In *in, int n, float *got)
{
   fill_u32((uint32_t *)got, (size_t)n, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(d_out, got, n * sizeof(float), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_in, in, n * sizeof(In), cudaMemcpyHostToDevice));
   fetch<<<(n + 127) / 128, 128>>>(t, mode, d_in, d_out, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
}

/* Runs n fetches and compares them with want (one check per call, showing
 * the first mismatches). */
static void run_check(const char *what, cudaTextureObject_t t, int mode, const In *in, int n, const float *want)
{
   float *got = (float *)malloc(n * sizeof(float));
   run(t, mode, in, n, got);
   int bad = 0;
   for (int i = 0; i < n; i++)
      if (f32_bits(got[i]) != f32_bits(want[i]) && bad++ < 4)
         printf("  %s #%d (x %a dPdx %a dPdy %a layer %d): got %a (lod %.1f/256), model %a (%.1f/256)\n", what, i,
                in[i].x, in[i].gx, in[i].gy, in[i].layer, got[i], got[i] * 256.0, want[i], want[i] * 256.0);
   if (!check_true(bad == 0, what, __FILE__, __LINE__))
      printf("  %s: %d of %d fetches differ\n", what, bad, n);
   free(got);
}

/* A random gradient of about 2^lo ... 2^hi texels on 2^k texels, either sign. */
static float rand_grad(int k, int lo, int hi)
{
   double e = lo + tex_model_urand() * (hi - lo);
   return (float)(ldexp(1.0 + tex_model_urand(), (int)floor(e) - k) * (tex_model_urand() < 0.5 ? -1.0 : 1.0));
}

/* Random pairs: the second gradient a random fraction of the first (often
 * near it, where the diagonal term decides), zero, or independent. */
static void random_pairs(In *in, int n, int k, int lo, int hi, int layers)
{
   for (int i = 0; i < n; i++) {
      In p = { (float)tex_model_urand(), 0, 0, 0, layers ? (int)(tex_model_urand() * layers) : 0 };
      p.gx = rand_grad(k, lo, hi);
      double u = tex_model_urand();
      p.gy = u < 0.1 ? 0.0f : u < 0.5 ? (float)(p.gx * (tex_model_urand() < 0.5 ? -1 : 1) * (0.4 + 0.6 * tex_model_urand()))
                                      : u < 0.8 ? (float)(p.gx * tex_model_urand()) : rand_grad(k, lo, hi);
      if (i & 1) {
         float t = p.gx;
         p.gx = p.gy, p.gy = t;
      }
      in[i] = p;
   }
}

static void lod_checks(void)
{
   const int k = 12, levels = 13;   /* 4096 texels */
   cudaMipmappedArray_t a = make_mip(1 << k, levels, 0, false);
   In *in = (In *)calloc(NMAX, sizeof(In));
   float *want = (float *)malloc(NMAX * sizeof(float));
   sampler s = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 12.0f };
   cudaTextureObject_t t = tex_model_mip_object(a, &s);

   /* one gradient over [1, 2) texels in 1/4096 steps, then octaves 2^-2 ... 2^13 */
   int n = 0;
   for (int i = 0; i < 4096; i++)
      in[n++] = (In){ 0.5f, (float)ldexp(1.0 + i / 4096.0, -k), 0.0f, 0, 0 };
   for (int o = -2; o <= 13; o++)
      for (int i = 0; i < 64; i++)
         in[n++] = (In){ 0.5f, (float)ldexp(1.0 + i / 64.0 + 1 / 8192.0, o - k), 0.0f, 0, 0 };
   for (int i = 0; i < n; i++)
      want[i] = model_fetch(&s, levels, model_grad_lod(in[i].gx, in[i].gy, k), 0);
   run_check("tex1DGrad, one gradient swept", t, M_GRAD, in, n, want);

   /* the second gradient swept against fixed first ones */
   static const double first[4] = { 1.0, 1.0 + 1 / 512.0, 1.5, 1.0 + 255 / 256.0 };
   n = 0;
   for (int f = 0; f < 4; f++)
      for (int j = 0; j < 1024; j++)
         in[n++] = (In){ 0.25f, (float)ldexp(first[f], -k), (float)ldexp(j / 1024.0 * (f == 3 ? -1 : 1), -k), 0, 0 };
   for (int i = 0; i < n; i++)
      want[i] = model_fetch(&s, levels, model_grad_lod(in[i].gx, in[i].gy, k), 0);
   run_check("tex1DGrad, second gradient swept", t, M_GRAD, in, n, want);

   random_pairs(in, NMAX, k, -12, 14, 0);
   for (int i = 0; i < NMAX; i++)
      want[i] = model_fetch(&s, levels, model_grad_lod(in[i].gx, in[i].gy, k), 0);
   run_check("tex1DGrad, random pairs", t, M_GRAD, in, NMAX, want);

   /* zeros, denormals, tiny and huge, infinities and NaNs, each with each */
   static const float sp[] = { 0.0f, -0.0f, 1e-45f, 1e-39f, 1e-30f, 1e-6f, 1.0f / 8192, 1.0f / 4096, 1.5f / 4096,
                               0.75f, 1e10f, INFINITY, -INFINITY, NAN, -NAN };
   const int nsp = (int)(sizeof(sp) / sizeof(sp[0]));
   n = 0;
   for (int i = 0; i < nsp; i++)
      for (int j = 0; j < nsp; j++)
         in[n++] = (In){ 0.5f, sp[i], sp[j], 0, 0 };
   for (int i = 0; i < n; i++)
      want[i] = model_fetch(&s, levels, model_grad_lod(in[i].gx, in[i].gy, k), 0);
   run_check("tex1DGrad, special gradients", t, M_GRAD, in, n, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));

   /* biases and clamps, point filtering between levels */
   static const sampler ss[4] = { { true, true, cudaAddressModeClamp, 1.37f, 0.5f, 9.25f },
                                  { true, true, cudaAddressModeClamp, -2.6f, 0.0f, 12.0f },
                                  { true, false, cudaAddressModeClamp, 0.3f, 0.0f, 11.5f },
                                  { true, true, cudaAddressModeClamp, 0.0f, 3.75f, 2.5f } };
   for (int c = 0; c < 4; c++) {
      t = tex_model_mip_object(a, &ss[c]);
      random_pairs(in, 2048, k, -10, 15, 0);
      for (int i = 0; i < nsp * nsp; i++)
         in[2048 + i] = (In){ 0.5f, sp[i / nsp], sp[i % nsp], 0, 0 };
      n = 2048 + nsp * nsp;
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&ss[c], levels, model_grad_lod(in[i].gx, in[i].gy, k), 0);
      char what[80];
      snprintf(what, sizeof(what), "tex1DGrad, bias %g, clamps [%g, %g], %s", ss[c].bias, ss[c].mn, ss[c].mx,
               ss[c].mip_linear ? "linear" : "point");
      run_check(what, t, M_GRAD, in, n, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeMipmappedArray(a));

   /* small textures: 8 texels (4 levels) and 1 texel (1 level) */
   for (int kk = 3; kk >= 0; kk -= 3) {
      a = make_mip(1 << kk, kk + 1, 0, false);
      sampler sm = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f };
      t = tex_model_mip_object(a, &sm);
      random_pairs(in, 2048, kk, -4, 6, 0);
      for (int i = 0; i < 2048; i++)
         want[i] = model_fetch(&sm, kk + 1, model_grad_lod(in[i].gx, in[i].gy, kk), 0);
      run_check(kk ? "tex1DGrad, 8 texels" : "tex1DGrad, 1 texel", t, M_GRAD, in, 2048, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }

   /* layered: 1024 texels, 3 layers (level l of layer z holds l + z/2) */
   a = make_mip(1024, 11, 3, false);
   sampler sl = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 10.0f };
   t = tex_model_mip_object(a, &sl);
   random_pairs(in, 4096, 10, -10, 13, 3);
   for (int i = 0; i < 4096; i++)
      want[i] = model_fetch(&sl, 11, model_grad_lod(in[i].gx, in[i].gy, 10), in[i].layer);
   run_check("tex1DLayeredGrad, random pairs", t, M_GRAD_LAYERED, in, 4096, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free(in);
   free(want);
}

/* Random texels: tex1DGrad reads what tex1DLod reads at the model's lod
 * (filtering within and between levels is tex.level's, tex_mipmap.cu);
 * a texture without levels ignores the gradients. */
static void data_checks(void)
{
   const int k = 10;
   cudaMipmappedArray_t a = make_mip(1 << k, k + 1, 0, true);
   sampler s = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 10.0f };
   cudaTextureObject_t t = tex_model_mip_object(a, &s);
   In *in = (In *)calloc(4096, sizeof(In));
   float *want = (float *)malloc(4096 * sizeof(float));
   random_pairs(in, 4096, k, -10, 12, 0);
   for (int i = 0; i < 4096; i++) {
      int q = model_grad_lod(in[i].gx, in[i].gy, k);
      q = q < -2560 ? -2560 : q > 2816 ? 2816 : q;   /* past the clamps either way */
      in[i].lod = (float)q / 256.0f;
   }
   run(t, M_LOD, in, 4096, want);
   run_check("tex1DGrad = tex1DLod at the model's lod, random texels", t, M_GRAD, in, 4096, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));

   /* a plain array */
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaArray_t arr = NULL;
   CHECK_CUDA(cudaMallocArray(&arr, &cd, 64, 0, 0));
   float h[64];
   for (int i = 0; i < 64; i++)
      h[i] = (float)(int)(tex_model_urand() * 256) / 256.0f;
   CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 0, h, sizeof(h), sizeof(h), 1, cudaMemcpyHostToDevice));
   t = tex_model_object(arr, cudaAddressModeClamp, cudaAddressModeClamp, true, true, cudaReadModeElementType, NULL);
   random_pairs(in, 1024, 6, -6, 8, 0);
   run(t, M_PLAIN, in, 1024, want);
   run_check("tex1DGrad on a texture without levels = tex1D", t, M_GRAD, in, 1024, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(arr));
   free(in);
   free(want);
}

int main(void)
{
   check_begin("tex_grad");
   CHECK_CUDA(cudaSetDevice(0));
   CHECK_CUDA(cudaMalloc(&d_in, NMAX * sizeof(In)));
   CHECK_CUDA(cudaMalloc(&d_out, NMAX * sizeof(float)));
   /* the model's table against values read off an H200 (spot checks) */
   CHECK_INT(lg2_step(1), 2);
   CHECK_INT(lg2_step(115), 137);
   CHECK_INT(lg2_step(141), 162);
   CHECK_INT(lg2_step(254), 255);
   lod_checks();
   data_checks();
   CHECK_CUDA(cudaFree(d_in));
   CHECK_CUDA(cudaFree(d_out));
   return check_end();
}
