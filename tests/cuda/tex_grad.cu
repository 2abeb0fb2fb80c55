/*
 * tex_grad.cu — tex.grad on 1-D, 2-D and 3-D mipmapped textures (tex1DGrad,
 * tex1DLayeredGrad, tex2DGrad, tex2DLayeredGrad, tex3DGrad) against a host
 * model of the level of detail (lod) an H200 (driver 580) computes from the
 * two gradients.
 *
 * The model was fitted to probe programs run on an H200 (about 1.2 million
 * fetches of textures whose level L holds L, read with linear filtering
 * between levels, so that a fetch returns the lod's 1/256 steps exactly:
 * sweeps of one gradient over every 1/65536 of [1, 2) texels and over every
 * float near chosen values, sweeps of one component against fixed others,
 * of sums with carries and of differences, random pairs with both signs,
 * zeros, denormals, infinities and NaNs, biases and clamps; tests/cuda/
 * NATIVE.md), reproduces every one of them, and this program is checked
 * on the H200 itself.  The model, for a texture of 2^kx by 2^ky texels
 * (1-D: the second components are 0):
 *  - each gradient component in texels (times 2^kx or 2^ky) is truncated to
 *    9 fraction bits of its own binary exponent, n 2^(e - 9) with n in
 *    512 ... 1023 (a NaN reads as 0, a denormal as 0, an infinity gives the
 *    top level, all zero the bottom); on a size w that is not a power of
 *    two the normalised component is truncated to 9 bits first and
 *    multiplied by w (truncated to its top 10 bits) as a truncated
 *    multiplier does (model_scale: fitted to about 440 000 fetches of 1-D
 *    widths 3 ... 1000 and 2-D shapes up to 1000 x 777, session "texmip" in
 *    NATIVE.md, and 1.16 million of widths and heights 777 ... 32767 and
 *    2-D shapes up to 8191 x 100 and 1920 x 1080, session "grad");
 *  - a gradient's length is its larger component plus (11 nb + 4)/32
 *    2^(eb - 9) for the smaller one nb 2^(eb - 9) (none when it is 0);
 *  - x + y and x - y per component: same signs exactly, opposite signs
 *    with the smaller magnitude truncated to 2^(e - 10) of the larger's
 *    exponent e first; each result truncated to 9 fraction bits again;
 *  - for each of them, with S = N 2^(e - 9) its larger component and
 *    nm 2^(em - 9) its smaller, D = T9((11 N + 4)/16 2^(e - 9)) + (121 nm +
 *    32)/512 2^(em - 9) (the second term only for a non-zero nm), about
 *    11/16 (S + 11/32 m);
 *  - rho, the largest of the two lengths and the two D, is truncated to 8
 *    fraction bits, rho = (1 + i/256) 2^E, and the lod is 256 E + T(i) in
 *    1/256 of a level, where T(i) =
 *    round(256 log2(1 + (i + 1/2)/256) - 0.03) for i = 1 ... 254, T(0) = 0
 *    and T(255) = 255 (an H200's table, read off it: within 0.53 of the
 *    exact log2 of the interval's middle);
 *  - then as tex.level (tex_mipmap.cu): plus the bias truncated to 1/256,
 *    limited to maxMipmapLevelClamp, raised to minMipmapLevelClamp, then to
 *    [0, 256 (levels - 1)]; linear filtering between levels reads level
 *    lod >> 8 with weight 256 - (lod & 255) and the next with lod & 255,
 *    point filtering level (lod + 128) >> 8.
 * A texture without levels ignores the gradients (as tex1D).
 * 3-D (2026-12-04 probes of 128^3 texels, and this program on the H200;
 * sizes not a power of two: session "grad" of NATIVE.md): each gradient
 * component g reads as the difference of the quad's lanes c + g (rounded
 * to f32) and c, its coordinate, taken exactly, not rounded to f32 (the
 * H200 runs a routine of the driver for tex.grad.3d; NATIVE.md "grad3b":
 * 1920 x 1080 x 3 checks below hold the H200's lods of 16 384 fetches
 * where the f32 difference (c + g) - c reads 2 050 1/256 high); then
 * an infinite component gives the top level; where dPdx and dPdy both read
 * zero along one axis (+-0 or a denormal), the lod is the 2-D one of the
 * other two axes, each scaled by its own size (about 55 000 probe fetches);
 * where one gradient is zero, the other's length is max + T((11 n_mid +
 * 4)/32 2^(e_mid - 9)) + min/4 of its components, ordered and each
 * truncated to 9 fraction bits, T keeping 9 fraction bits too (253 728 probe
 * fetches reproduced); where both are along all three axes, rho = max(|x|,
 * |y|, D(x + y), D(x - y)), the sums per component in texels as in 2-D,
 * D as model_diag3 (NATIVE.md "grad3": 262 144 probe fetches).  NaNs are
 * the lanes' (NATIVE.md "g3nan": an H100's fetches with NaNs read as those
 * with the substitutions): a NaN lane c + g reads as the coordinate 0, a
 * NaN coordinate makes both components along its axis 0, an infinite
 * coordinate gives the top level.
 *
 * Cube maps (texCubemapGrad, texCubemapLayeredGrad; the H200 runs a routine
 * of the driver, which for sm_75 ... sm_89 ptxas writes out: NATIVE.md
 * "cube"): the quad's lanes P, P + dPdx and P + dPdy (f32 sums), each
 * scaled by the reciprocal (MUFU.RCP) of its largest magnitude onto the
 * unit cube, their sc and tc on P's face (the cubemap table), the
 * differences from P's halved, then the 2-D lod on the face's size.  A
 * lane on another face (NATIVE.md 2026-12-05 "cubeoff"): on the opposite
 * face the top level; on an adjacent face it is unfolded about the shared
 * edge, its component across the edge the texture unit's sum of P's
 * distance to the edge and the lane's beyond it, each truncated to 9
 * fraction bits in texels apart, and only the gradients' lengths count;
 * an infinite gradient component makes a lane (+-0, +-0, NaN) whose face
 * ignores the NaN, which then reads as 0.  Here only where each lane's
 * largest magnitude is a power of two or infinite (so that the reciprocal
 * is exact whatever the hardware's rounding; the probes of NATIVE.md
 * "cube" cover the rest).
 *
 * Not here, because metalcuda refuses them: tex.grad on cube maps where a
 * lane leaves P's face while P lies exactly on an edge or corner (the
 * H200 reads 1/256 higher than the rule above for some) or where P is
 * not finite or zero while a gradient component is not finite; metalcuda
 * fails such a launch with cudaErrorNotSupported.  P not finite or zero
 * with finite gradients is here (NATIVE.md "cubenan"): a NaN component of
 * P reads as P and both gradients 0 there, P all NaN or with an infinite
 * component as the bottom level, P = 0 as P = (0, 0, 2^-100).
 */
#include "tex_model.h"

#include <math.h>

enum { M_GRAD, M_GRAD_LAYERED, M_LOD, M_PLAIN, M_GRAD2, M_GRAD2_LAYERED, M_LOD2, M_PLAIN2, M_GRAD3, M_GRADC, M_GRADC_LAYERED };

/* 1-D: x, dPdx = gx, dPdy = gy; 2-D: (x, y), dPdx = (gx, gx1), dPdy = (gy, gy1);
 * 3-D: (x, y, z), dPdx = (gx, gx1, gx2), dPdy = (gy, gy1, gy2) */
struct In {
   float x, gx, gy, lod;
   int layer;
   float y, gx1, gy1;
   float z, gx2, gy2;
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
   case M_PLAIN: r = tex1D<float>(t, p.x); break;
   case M_GRAD2: r = tex2DGrad<float>(t, p.x, p.y, make_float2(p.gx, p.gx1), make_float2(p.gy, p.gy1)); break;
   case M_GRAD2_LAYERED:
      r = tex2DLayeredGrad<float>(t, p.x, p.y, p.layer, make_float2(p.gx, p.gx1), make_float2(p.gy, p.gy1));
      break;
   case M_LOD2: r = tex2DLod<float>(t, p.x, p.y, p.lod); break;
   case M_GRAD3:
      r = tex3DGrad<float>(t, p.x, p.y, p.z, make_float4(p.gx, p.gx1, p.gx2, 0.0f), make_float4(p.gy, p.gy1, p.gy2, 0.0f));
      break;
   case M_GRADC:
      r = texCubemapGrad<float>(t, p.x, p.y, p.z, make_float4(p.gx, p.gx1, p.gx2, 0.0f),
                                make_float4(p.gy, p.gy1, p.gy2, 0.0f));
      break;
   case M_GRADC_LAYERED:
      r = texCubemapLayeredGrad<float>(t, p.x, p.y, p.z, p.layer, make_float4(p.gx, p.gx1, p.gx2, 0.0f),
                                       make_float4(p.gy, p.gy1, p.gy2, 0.0f));
      break;
   default: r = tex2D<float>(t, p.x, p.y); break;
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

/* v truncated to 9 fraction bits of its binary exponent: n 2^(e - 9) with
 * n in [512, 1024) (0 stays 0). */
static double t9(double v, int *n, int *e)
{
   if (v == 0.0) {
      *n = 0, *e = 0;
      return 0.0;
   }
   int p;
   double f = frexp(fabs(v), &p);   /* |v| = f 2^p, f in [0.5, 1) */
   *n = (int)floor(f * 1024.0), *e = p - 1;
   return copysign(ldexp(*n, p - 10), v);
}

/* A gradient's length: the larger component plus (11 nb + 4)/32 2^(eb-9)
 * for the smaller, nb 2^(eb-9) (both truncated already). */
static double model_len(double a, double b)
{
   double big = fmax(fabs(a), fabs(b)), small = fmin(fabs(a), fabs(b));
   int n, e;
   t9(small, &n, &e);
   return big + (n ? (11.0 * n + 4.0) / 32.0 * ldexp(1.0, e - 9) : 0.0);
}

/* One component of x + y: opposite signs truncate the smaller magnitude to
 * 2^(e - 10) of the larger's exponent e first; the sum is truncated again. */
static double model_sum(double p, double q)
{
   int n, e;
   if (p * q < 0) {
      double big = fabs(p) >= fabs(q) ? p : q, small = fabs(p) >= fabs(q) ? q : p;
      t9(big, &n, &e);
      double u = ldexp(1.0, e - 10);
      return t9(big + trunc(small / u) * u, &n, &e);
   }
   return t9(p + q, &n, &e);
}

/* D(v): with S = N 2^(e-9) the larger component, m = nm 2^(em-9) the
 * smaller: T9((11 N + 4)/16 2^(e-9)) + (121 nm + 32)/512 2^(em-9). */
static double model_diag(double a, double b)
{
   double big = fmax(fabs(a), fabs(b)), small = fmin(fabs(a), fabs(b));
   int n, e, nm, em, k1, k2;
   t9(big, &n, &e);
   t9(small, &nm, &em);
   if (!n)
      return 0.0;
   double d = t9((11.0 * n + 4.0) / 16.0 * ldexp(1.0, e - 9), &k1, &k2);
   return d + (nm ? (121.0 * nm + 32.0) / 512.0 * ldexp(1.0, em - 9) : 0.0);
}

/* A normalised gradient component g in texels on w texels, before its
 * truncation to 9 bits: g times w for a power of two; else g truncated to
 * n 2^(e-9) first, then times w as a truncated multiplier of two 10-bit
 * operands does: with k = floor(log2 w), w truncated to its top 10 bits
 * (4095 reads as 4092), the partial products n 2^j (one per set bit j of
 * that) each truncated to a multiple of 2^(k-3) (exact for k <= 3),
 * summed, plus 7 2^(k-3) (an H200, tests/cuda/NATIVE.md "texmip", "grad"). */
static double model_scale(double g, int w)
{
   if (!(w & (w - 1)))
      return g * w;
   int n, e, k = 0;
   t9(g, &n, &e);
   if (!n)
      return 0.0;
   while (w >> (k + 1))
      k++;
   if (k > 9)
      w &= ~((1 << (k - 9)) - 1);
   double sum = 7.0 * ldexp(1.0, k - 3);
   for (int j = 0; j <= k; j++)
      if (w >> j & 1) {
         long long pp = (long long)n << j;
         if (k > 3)
            pp = pp >> (k - 3) << (k - 3);
         sum += (double)pp;
      }
   return copysign(ldexp(sum, e - 9), g);
}

/* The lod in 1/256 of a level before bias and clamps, for gradients dPdx =
 * (gx0, gx1), dPdy = (gy0, gy1) (normalised) on wx by wy texels (1-D:
 * gx1 = gy1 = 0). */
static int model_grad_lod2w(float gx0, float gx1, float gy0, float gy1, int wx, int wy)
{
   double g[4] = { gx0, gx1, gy0, gy1 };
   int n, e;
   for (int j = 0; j < 4; j++) {
      if (isinf(g[j]))
         return LOD_INF;
      if (isnan(g[j]) || fabs(g[j]) < 1.1754943508222875e-38)   /* NaN, zero, denormal */
         g[j] = 0.0;
      g[j] = t9(model_scale(g[j], j % 2 ? wy : wx), &n, &e);
   }
   double rho = fmax(model_len(g[0], g[1]), model_len(g[2], g[3]));
   rho = fmax(rho, model_diag(model_sum(g[0], g[2]), model_sum(g[1], g[3])));
   rho = fmax(rho, model_diag(model_sum(g[0], -g[2]), model_sum(g[1], -g[3])));
   if (rho == 0.0)
      return -LOD_INF;
   int re;
   double f = frexp(rho, &re);                      /* rho = f 2^re */
   int i = (int)floor((2.0 * f - 1.0) * 256.0);     /* 8 fraction bits of 2f */
   return 256 * (re - 1) + lg2_step(i);
}

/* The same on 2^kx by 2^ky texels. */
static int model_grad_lod2(float gx0, float gx1, float gy0, float gy1, int kx, int ky)
{
   return model_grad_lod2w(gx0, gx1, gy0, gy1, 1 << kx, 1 << ky);
}

static int model_grad_lod(float gx, float gy, int k) { return model_grad_lod2(gx, 0.0f, gy, 0.0f, k, 0); }

/* A component the H200 reads as zero in 3-D: +-0, a denormal (not a NaN). */
static bool reads_zero(float v) { return fabs((double)v) < 1.1754943508222875e-38; }

/* A 3-D gradient's components in texels (model_scale), each truncated to
 * 9 fraction bits, as magnitudes ordered c[0] >= c[1] >= c[2]. */
static void model_texels3(const float g[3], const int w[3], double c[3])
{
   int n, e;
   for (int j = 0; j < 3; j++)
      c[j] = fabs(t9(model_scale(fabs((double)g[j]) < 1.1754943508222875e-38 ? 0.0 : g[j], w[j]), &n, &e));
   for (int i = 0; i < 3; i++)   /* descending */
      for (int j = i + 1; j < 3; j++)
         if (c[j] > c[i]) {
            double x = c[i];
            c[i] = c[j], c[j] = x;
         }
}

/* v truncated to 10 significant bits (9 fraction bits of its own exponent). */
static double keep10(double v)
{
   int p;
   double f = frexp(v, &p);   /* v = f 2^p, f in [0.5, 1) */
   return ldexp(floor(f * 1024.0), p - 10);
}

/* The length of a 3-D gradient (ordered components c): max + T((11 n_mid +
 * 4)/32 2^(e_mid - 9)) + min/4 with T keeping 9 fraction bits (truncating),
 * in exact arithmetic (doubles hold it: the program's exponents are
 * close). */
static double model_len3(const double c[3])
{
   int n, e;
   double rho = c[0] + c[2] / 4.0;
   if (c[1] > 0.0) {
      t9(c[1], &n, &e);
      rho += keep10((11.0 * n + 4.0) / 32.0 * ldexp(1.0, e - 9));
   }
   return rho;
}

/* D(v) of a 3-D sum vector (ordered magnitudes c, max N 2^(e-9), mid nm
 * 2^(em-9), min nn 2^(en-9), each truncated already): T((11 N + 4)/16
 * 2^(e-9)) + T((121 nm + 32)/512 2^(em-9)) + (88 nn + 32)/512 2^(en-9), T
 * keeping 9 fraction bits (98 304 probe fetches of an H200 reproduced;
 * NATIVE.md "grad3"). */
static double model_diag3(const double c[3])
{
   int n, e, nm, em, nn, en;
   t9(c[0], &n, &e);
   t9(c[1], &nm, &em);
   t9(c[2], &nn, &en);
   if (!n)
      return 0.0;
   double d = keep10((11.0 * n + 4.0) / 16.0 * ldexp(1.0, e - 9));
   if (nm)
      d += keep10((121.0 * nm + 32.0) / 512.0 * ldexp(1.0, em - 9));
   return d + (nn ? (88.0 * nn + 32.0) / 512.0 * ldexp(1.0, en - 9) : 0.0);
}

/* The lod of rho (> 0) in 1/256 before bias and clamps. */
static int model_rho_lod(double rho)
{
   int re;
   double f = frexp(rho, &re);
   int i = (int)floor((2.0 * f - 1.0) * 256.0);
   return 256 * (re - 1) + lg2_step(i);
}

/* One 3-D gradient's lod on w[0] x w[1] x w[2] texels (no NaN, no
 * infinity, not all zero). */
static int model_grad_len3(const float g[3], const int w[3])
{
   double c[3];
   model_texels3(g, w, c);
   return model_rho_lod(model_len3(c));
}

/* Two 3-D gradients along all three axes (no NaN, no infinity): rho =
 * max(|x|, |y|, D(x + y), D(x - y)), the sums per component in texels as in
 * 2-D (model_sum). */
static int model_grad_two3(const float gx[3], const float gy[3], const int w[3])
{
   double cx[3], cy[3], sx[3];
   model_texels3(gx, w, cx);
   model_texels3(gy, w, cy);
   double rho = fmax(model_len3(cx), model_len3(cy));
   int n, e;
   for (int k = 0; k < 2; k++) {
      for (int j = 0; j < 3; j++) {   /* components in texels, signed */
         double a = reads_zero(gx[j]) ? 0.0 : t9(model_scale(gx[j], w[j]), &n, &e);
         double b = reads_zero(gy[j]) ? 0.0 : t9(model_scale(gy[j], w[j]), &n, &e);
         sx[j] = fabs(model_sum(a, k ? -b : b));
      }
      for (int i = 0; i < 3; i++)   /* descending */
         for (int j = i + 1; j < 3; j++)
            if (sx[j] > sx[i]) {
               double x = sx[i];
               sx[i] = sx[j], sx[j] = x;
            }
      rho = fmax(rho, model_diag3(sx));
   }
   return model_rho_lod(rho);
}

/* A 3-D gradient component g at coordinate c as the texture unit reads it:
 * the difference of the quad's lanes c + g (rounded to f32) and c, taken
 * exactly, whose 9-bit truncation is that of the f32 difference d less one
 * ulp towards zero where d was rounded up in magnitude (its rounding error,
 * by Knuth's two-sum, of the other sign): NATIVE.md "grad3b". */
static float lane_diff(float c, float g)
{
   volatile float s = c + g, d = s - c, bp = d - s;
   if (isnan(s))   /* a NaN lane reads as the coordinate 0 (NATIVE.md "g3nan") */
      return -c;
   volatile float err = (s - (d - bp)) + (-c - bp);
   if (isfinite(d) && d != 0.0f && err != 0.0f && (err < 0.0f) != (d < 0.0f))
      return nextafterf(d, 0.0f);
   return d;
}

/* 3-D on w[0] x w[1] x w[2] texels: each gradient component g read as the
 * exact difference of the lanes c + g (f32) and c of its coordinate c
 * (lane_diff; a NaN coordinate makes both components 0, an infinite one
 * the top level: NATIVE.md "g3nan"); then an infinity gives the top level; where
 * dPdx and dPdy both read zero along one axis, the 2-D lod of the other two
 * (the first such axis); else, where one gradient is zero, the other's
 * length (the diagonal terms are 11/16 of it); else model_grad_two3. */
static int model_grad_lod3(const struct In *p, const int w[3])
{
   float gx[3] = { p->gx, p->gx1, p->gx2 }, gy[3] = { p->gy, p->gy1, p->gy2 }, c[3] = { p->x, p->y, p->z };
   for (int j = 0; j < 3; j++) {
      if (isinf(c[j]))
         return LOD_INF;
      gx[j] = isnan(c[j]) ? 0.0f : lane_diff(c[j], gx[j]);
      gy[j] = isnan(c[j]) ? 0.0f : lane_diff(c[j], gy[j]);
   }
   for (int j = 0; j < 3; j++)
      if (isinf(gx[j]) || isinf(gy[j]))
         return LOD_INF;
   bool xz = reads_zero(gx[0]) && reads_zero(gx[1]) && reads_zero(gx[2]);
   bool yz = reads_zero(gy[0]) && reads_zero(gy[1]) && reads_zero(gy[2]);
   bool common = false;
   for (int j = 0; j < 3; j++)
      common = common || (reads_zero(gx[j]) && reads_zero(gy[j]));
   if (!common && (xz || yz))
      return model_grad_len3(xz ? gy : gx, w);
   if (!common)
      return model_grad_two3(gx, gy, w);
   int z = 0;
   while (z < 2 && !(reads_zero(gx[z]) && reads_zero(gy[z])))
      z++;
   int a = z == 0 ? 1 : 0, b = z == 2 ? 1 : 2;
   return model_grad_lod2w(gx[a], gx[b], gy[a], gy[b], w[a], w[b]);
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

/* A float mipmapped array of w x h texels in `slices` slices (0: none;
 * made with flags) whose level l holds l + layer / 2, a layer being
 * per_layer slices, or random values k/256 when random; make_mip: h 0 is
 * 1-D, layers a layered one. */
static cudaMipmappedArray_t make_mip_slices(int w, int h, int levels, int slices, int per_layer, unsigned flags,
                                            bool random)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaMipmappedArray_t a = NULL;
   CHECK_CUDA(cudaMallocMipmappedArray(&a, &cd, make_cudaExtent(w, h, slices), levels, flags));
   for (int l = 0; l < levels; l++) {
      cudaArray_t lv = NULL;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&lv, a, (unsigned)l));
      int nw = w >> l > 0 ? w >> l : 1, nh = h >> l > 0 ? h >> l : 1, nl = slices ? slices : 1;
      float *hb = (float *)malloc((size_t)nw * nh * nl * sizeof(float));
      for (int i = 0; i < nw * nh * nl; i++)
         hb[i] = random ? (float)(int)(tex_model_urand() * 256) / 256.0f
                        : (float)l + 0.5f * (float)(i / (nw * nh * per_layer));
      tex_model_copy3d(lv, hb, nw * sizeof(float), nw, nh, nl, true);
      free(hb);
   }
   return a;
}

static cudaMipmappedArray_t make_mip(int w, int h, int levels, int layers, bool random)
{
   return make_mip_slices(w, h, levels, layers, 1, layers ? cudaArrayLayered : 0, random);
}

/* A float 3-D mipmapped array of w x h x d texels whose level l holds l. */
static cudaMipmappedArray_t make_mip3(int w, int h, int d, int levels)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaMipmappedArray_t a = NULL;
   CHECK_CUDA(cudaMallocMipmappedArray(&a, &cd, make_cudaExtent(w, h, d), levels, 0));
   for (int l = 0; l < levels; l++) {
      cudaArray_t lv = NULL;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&lv, a, (unsigned)l));
      int nw = w >> l > 0 ? w >> l : 1, nh = h >> l > 0 ? h >> l : 1, nd = d >> l > 0 ? d >> l : 1;
      float *hb = (float *)malloc((size_t)nw * nh * nd * sizeof(float));
      for (int i = 0; i < nw * nh * nd; i++)
         hb[i] = (float)l;
      tex_model_copy3d(lv, hb, nw * sizeof(float), nw, nh, nd, true);
      free(hb);
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
         printf("  %s #%d ((%a, %a, %a) dPdx (%a, %a, %a) dPdy (%a, %a, %a) layer %d): got %a (lod %.1f/256), "
                "model %a (%.1f/256)\n", what, i, in[i].x, in[i].y, in[i].z, in[i].gx, in[i].gx1, in[i].gx2, in[i].gy,
                in[i].gy1, in[i].gy2, in[i].layer, got[i], got[i] * 256.0, want[i], want[i] * 256.0);
   if (!check_true(bad == 0, what, __FILE__, __LINE__))
      printf("  %s: %d of %d fetches differ\n", what, bad, n);
   free(got);
}

/* tex1DGrad (ky 0) or tex2DGrad against tex1DLod or tex2DLod of the same
 * texture object at the model's lod (limited to 10 levels either side: past
 * the clamps); want is scratch. */
static void same_as_lod(const char *what, cudaTextureObject_t t, int kx, int ky, In *in, int n, float *want)
{
   for (int i = 0; i < n; i++) {
      int q = model_grad_lod2(in[i].gx, in[i].gx1, in[i].gy, in[i].gy1, kx, ky);
      q = q < -2560 ? -2560 : q > 2560 + 256 * kx ? 2560 + 256 * kx : q;
      in[i].lod = (float)q / 256.0f;
   }
   run(t, ky ? M_LOD2 : M_LOD, in, n, want);
   run_check(what, t, ky ? M_GRAD2 : M_GRAD, in, n, want);
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

/* Random 2-D pairs on 2^kx by 2^ky texels: dPdy near dPdx or -dPdx (the
 * diagonal terms then decide), rotated, along one axis, or independent. */
static void random_pairs2(In *in, int n, int kx, int ky, int lo, int hi, int layers)
{
   for (int i = 0; i < n; i++) {
      In p = { (float)tex_model_urand(), 0, 0, 0, layers ? (int)(tex_model_urand() * layers) : 0,
               (float)tex_model_urand(), 0, 0 };
      double e = lo + tex_model_urand() * (hi - lo), sc = ldexp(1.0, (int)floor(e));
      double a = (tex_model_urand() * 2 - 1) * sc, b = (tex_model_urand() * 2 - 1) * sc, c, d;
      double u = tex_model_urand(), f = 0.4 + 0.6 * tex_model_urand();
      if (u < 0.3)
         c = a * f * (u < 0.15 ? 1 : -1) + b * 0.1 * tex_model_urand(), d = b * f * (u < 0.15 ? 1 : -1);
      else if (u < 0.5)
         c = -b * f, d = a * f;
      else if (u < 0.6)
         b = 0, c = (tex_model_urand() * 2 - 1) * sc, d = 0;
      else
         c = (tex_model_urand() * 2 - 1) * sc, d = (tex_model_urand() * 2 - 1) * sc;
      p.gx = (float)ldexp(a, -kx), p.gx1 = (float)ldexp(b, -ky), p.gy = (float)ldexp(c, -kx),
      p.gy1 = (float)ldexp(d, -ky);
      in[i] = p;
   }
}

/* 3-D fetches whose gradients are both zero along one axis (random, with
 * each kind of zero there: +0, -0, denormals), on about 2^k[0] x 2^k[1] x
 * 2^k[2] texels: random 2-D pairs placed on the other two axes. */
static void random_pairs3(In *in, int n, const int k[3], int lo, int hi)
{
   static const float zeros[4] = { 0.0f, -0.0f, 1e-40f, -3e-39f };
   In *two = (In *)calloc(1, sizeof(In));
   for (int i = 0; i < n; i++) {
      int z = (int)(tex_model_urand() * 3), a = z == 0 ? 1 : 0, b = z == 2 ? 1 : 2;
      random_pairs2(two, 1, k[a], k[b], lo, hi, 0);
      float gx[3], gy[3];
      gx[a] = two->gx, gx[b] = two->gx1, gy[a] = two->gy, gy[b] = two->gy1;
      gx[z] = zeros[(int)(tex_model_urand() * 4)], gy[z] = zeros[(int)(tex_model_urand() * 4)];
      if (i % 4 == 0)   /* mostly exact zeros: what a 2-D access along a slice has */
         gx[z] = gy[z] = 0.0f;
      In p = { (float)tex_model_urand(), gx[0], gy[0], 0, 0, (float)tex_model_urand(), gx[1], gy[1],
               (float)tex_model_urand(), gx[2], gy[2] };
      in[i] = p;
   }
   free(two);
}

/* Coordinates in [0, 1) made unnormalised: times the sizes. */
static void unnorm_coords(In *in, int n, const int sz[3])
{
   for (int i = 0; i < n; i++)
      in[i].x *= (float)sz[0], in[i].y *= (float)sz[1], in[i].z *= (float)sz[2];
}

/* tex3DGrad where dPdx and dPdy are both zero along an axis, or one of them
 * is zero (metalcuda fails a launch with gradients along all three axes in
 * both: not fitted), on sizes that are powers of two and others. */
/* The NaN checks' uniform [0, 1) numbers (xorshift64) */
static double nan_urand(void)
{
   static uint64_t x = 0x9e3779b97f4a7c15ull;
   x ^= x << 13, x ^= x >> 7, x ^= x << 17;
   return (double)(x >> 11) * 0x1p-53;
}

static void lod3_checks(void)
{
   In *in = (In *)calloc(NMAX, sizeof(In));
   float *want = (float *)malloc(NMAX * sizeof(float));
   /* point filtering within a level: metalcuda refuses linear filtering
    * within and between 3-D levels (its weights were not measured) */
   static const struct {
      int sz[3];
      sampler s;
   } shapes[9] = { { { 128, 64, 32 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { { 32, 32, 32 }, { false, true, cudaAddressModeClamp, -0.7f, 0.25f, 3.6f } },
                   { { 16, 128, 64 }, { false, false, cudaAddressModeClamp, 0.3f, 0.0f, 16.0f } },
                   /* sizes not a power of two (most finite differences matter on small
                    * normalised gradients: large sizes) */
                   { { 1920, 1080, 3 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { { 100, 60, 30 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { { 5, 6, 7 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { { 1025, 3, 5 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   /* unnormalised coordinates (read as normalised ones on a mipmapped
                    * texture; the finite differences are of the coordinates as given,
                    * coarser here) */
                   { { 100, 60, 30 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f, true } },
                   { { 64, 32, 16 }, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f, true } } };
   for (int c = 0; c < 9; c++) {
      const int *sz = shapes[c].sz;
      int k[3];
      for (int j = 0; j < 3; j++)
         for (k[j] = 0; sz[j] >> (k[j] + 1);)
            k[j]++;
      int kmax = k[0] > k[1] ? k[0] : k[1], levels = (kmax > k[2] ? kmax : k[2]) + 1;
      cudaMipmappedArray_t a = make_mip3(sz[0], sz[1], sz[2], levels);
      cudaTextureObject_t t = tex_model_mip_object(a, &shapes[c].s);
      int n = c == 0 ? NMAX : 4096;
      random_pairs3(in, n, k, -6, levels + 2);
      if (c == 0) {   /* along one axis, a single gradient, zeros, an infinity */
         static const float sp[] = { 0.0f, 1.0f / 128, 3.0f / 64, -0.375f, INFINITY };
         int m = 0;
         for (int i = 0; i < 5 * 5 * 5; i++, m++) {
            float g[3] = { sp[i % 5], sp[(i / 5) % 5], sp[i / 25] };
            int z = i % 3;
            In p = { 0.5f, 0, 0, 0, 0, 0.5f, 0, 0, 0.5f, 0, 0 };
            float *px[3] = { &p.gx, &p.gx1, &p.gx2 }, *py[3] = { &p.gy, &p.gy1, &p.gy2 };
            for (int j = 0; j < 3; j++)   /* dPdx takes g without axis z, dPdy g rotated */
               *px[j] = j == z ? 0.0f : g[j], *py[j] = j == z ? 0.0f : g[(j + 1) % 3];
            in[m] = p;
         }
         /* an infinity with gradients along all three axes: the top level */
         in[m++] = (In){ 0.5f, INFINITY, 0.25f, 0, 0, 0.5f, 1.0f / 64, -0.125f, 0.5f, 3.0f / 32, 0.0f };
         in[m++] = (In){ 0.5f, 0.25f, 0.5f, 0, 0, 0.5f, -1.0f / 64, 0.125f, 0.5f, 3.0f / 32, -INFINITY };
      }
      if (shapes[c].s.unnorm)
         unnorm_coords(in, n, sz);
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&shapes[c].s, levels, model_grad_lod3(&in[i], sz), 0);
      char what[128];
      snprintf(what, sizeof(what), "tex3DGrad, %d x %d x %d texels, gradients zero along one axis%s", sz[0], sz[1],
               sz[2], shapes[c].s.unnorm ? ", unnormalised coordinates" : "");
      run_check(what, t, M_GRAD3, in, n, want);

      /* one gradient along all three axes (the other zero): random mantissas
       * with gaps of 0 ... 14 octaves between the components, and the
       * middle and smallest components swept against fixed others */
      static const int gaps[8] = { 0, 0, 1, 1, 2, 3, 6, 14 };
      n = 0;
      for (int i = 0; i < 4096; i++) {
         int e0 = -1 + (int)(tex_model_urand() * (levels + 1));   /* the largest: 2^-1 ... 2^levels texels */
         float g[3];
         for (int j = 0; j < 3; j++)
            g[j] = (float)ldexp((1.0 + tex_model_urand()) * (tex_model_urand() < 0.5 ? -1 : 1),
                                (j ? e0 - gaps[(int)(tex_model_urand() * 8)] : e0) - k[j]);
         int r = (int)(tex_model_urand() * 3);   /* which axis has the first */
         In p = { (float)tex_model_urand(), g[r], 0, 0, 0, (float)tex_model_urand(), g[(r + 1) % 3], 0,
                  (float)tex_model_urand(), g[(r + 2) % 3], 0 };
         if (i & 1)   /* as dPdy, dPdx zero (+0 or -0) */
            p.gy = p.gx, p.gy1 = p.gx1, p.gy2 = p.gx2, p.gx = 0, p.gx1 = -0.0f, p.gx2 = 0;
         in[n++] = p;
      }
      for (int j = 0; j < 512; j += 3)
         for (int w = 0; w < 2; w++) {
            double big = ldexp(1.0 + 171 / 512.0, 3 - k[0]), sw = ldexp(1.0 + j / 512.0, 2 - k[1 + w]);
            double fixed = ldexp(1.0 + 300 / 512.0, (w ? 2 : 0) - k[2 - w]);
            In p = { 0.5f, (float)big, 0, 0, 0, 0.5f, (float)(w ? fixed : sw), 0, 0.5f, (float)(w ? sw : fixed), 0 };
            in[n++] = p;
         }
      if (shapes[c].s.unnorm)
         unnorm_coords(in, n, sz);
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&shapes[c].s, levels, model_grad_lod3(&in[i], sz), 0);
      snprintf(what, sizeof(what), "tex3DGrad, %d x %d x %d texels, one gradient along three axes%s", sz[0], sz[1],
               sz[2], shapes[c].s.unnorm ? ", unnormalised coordinates" : "");
      run_check(what, t, M_GRAD3, in, n, want);

      /* both gradients along all three axes: random components a few
       * octaves apart, a third of dPdy a scaled, sign-flipped dPdx (so that
       * x + y or x - y is the longest) */
      for (int i = 0; i < 4096; i++) {
         double sc = ldexp(1.0, -2 + (int)(tex_model_urand() * (levels + 2)));
         float g[2][3];
         for (int j = 0; j < 3; j++) {
            double gap = tex_model_urand() < 0.5 ? 1.0 : ldexp(1.0, -(int)(tex_model_urand() * 6));
            for (int v = 0; v < 2; v++)
               g[v][j] = (float)((tex_model_urand() * 2 - 1) * sc * gap / sz[j]);
         }
         if (i % 3 == 0)
            for (int j = 0; j < 3; j++)
               g[1][j] = (float)(g[0][j] * (tex_model_urand() < 0.5 ? 1 : -1) * (0.4 + 0.6 * tex_model_urand()));
         In p = { (float)tex_model_urand(), g[0][0], g[1][0], 0, 0, (float)tex_model_urand(), g[0][1], g[1][1],
                  (float)tex_model_urand(), g[0][2], g[1][2] };
         in[i] = p;
      }
      n = 4096;
      if (shapes[c].s.unnorm)
         unnorm_coords(in, n, sz);
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&shapes[c].s, levels, model_grad_lod3(&in[i], sz), 0);
      snprintf(what, sizeof(what), "tex3DGrad, %d x %d x %d texels, two gradients along three axes%s", sz[0], sz[1],
               sz[2], shapes[c].s.unnorm ? ", unnormalised coordinates" : "");
      run_check(what, t, M_GRAD3, in, n, want);

      /* the same fetches with NaNs and infinities: one or two NaN gradient
       * components (quiet and signalling payloads, either sign), a NaN
       * coordinate, an infinite coordinate (the lanes' rule, found on an
       * H100: NATIVE.md "g3nan"; a generator of their own, so that the other
       * checks' inputs are those of the earlier native runs) */
      for (int i = 0; i < n; i++) {
         float *g[6] = { &in[i].gx, &in[i].gx1, &in[i].gx2, &in[i].gy, &in[i].gy1, &in[i].gy2 };
         float *co[3] = { &in[i].x, &in[i].y, &in[i].z };
         int kind = i % 4;
         for (int j = 0; j < (kind < 2 ? kind + 1 : 1); j++) {
            uint32_t nb = i & 8 ? 0x7fc00000u : 0x7f800001u + (uint32_t)(nan_urand() * 0x7ffffe);
            nb |= i & 16 ? 0x80000000u : 0u;
            float v;
            memcpy(&v, &nb, 4);
            if (kind < 2)
               *g[(int)(nan_urand() * 6)] = v;
            else
               *co[(int)(nan_urand() * 3)] = kind == 2 ? v : i & 32 ? -INFINITY : INFINITY;
         }
      }
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&shapes[c].s, levels, model_grad_lod3(&in[i], sz), 0);
      snprintf(what, sizeof(what), "tex3DGrad, %d x %d x %d texels, NaN gradients and coordinates%s", sz[0], sz[1],
               sz[2], shapes[c].s.unnorm ? ", unnormalised coordinates" : "");
      run_check(what, t, M_GRAD3, in, n, want);

      if (c == 6) {   /* 1025 x 3 x 5 texels */
         /* a fetch with one gradient along three axes that an H100 read at
          * 2476/256 (NATIVE.md "g3nan": found when these checks' random
          * inputs moved), one above the model and metalcuda: a known gap */
         in[0] = (In){ 0x1.f538bap-2f, 0.0f, 0x1.948p-1f, 0, 0, 0x1.39a55ap-2f, -0.0f, 0x1.a21dp-7f, 0x1.288a4ep-1f,
                       0.0f, -0x1.ac1808p+1f };
         float got;
         run(t, M_GRAD3, in, 1, &got);
         TODO_METALCUDA(f32_bits(got) == f32_bits(model_fetch(&shapes[c].s, levels, 2476, 0)),
                        "tex3DGrad on 1025 x 3 x 5 texels: one fetch the H100 reads 1/256 above the model");
      }

      if (c == 3) {   /* 1920 x 1080 x 3: the H200's lods around one fetch */
         /* dPdx alone, at the coordinates of a fetch that the f32 difference
          * (c + g) - c reads 1/256 high (NATIVE.md "grad3"): its y coordinate
          * (set 0) or dPdx.y (set 1) moved by k = -4096 ... 4095 ulps.  An
          * H200 read lod 2101/256 for all 8192 of set 0 (the f32 difference
          * gives 2102 for the 2048 with k = 0 mod 4) and in set 1 2101 for
          * k <= 1, 2102 from k = 2 up (the f32 difference: 2102 from k = 0):
          * the probe of NATIVE.md "grad3b", values written here as read. */
         for (int set = 0; set < 2; set++) {
            for (int i = 0; i < NMAX; i++) {
               int kk = i - 4096;
               uint32_t yb = 0x3e4ac791u + (uint32_t)(set == 0 ? kk : 0), gb = 0x3e897fffu + (uint32_t)(set ? kk : 0);
               float y, g1;
               memcpy(&y, &yb, 4), memcpy(&g1, &gb, 4);
               in[i] = (In){ 0x1.3a8f52p-2f, -0x1.182f8ap-7f, 0, 0, 0, y, g1, 0, 0x1.6dc142p-1f, 0x1.ff4442p-1f, 0 };
               want[i] = model_fetch(&shapes[c].s, levels, set == 0 || kk <= 1 ? 2101 : 2102, 0);
            }
            snprintf(what, sizeof(what), "tex3DGrad, 1920 x 1080 x 3 texels, one gradient, %s moved by ulps",
                     set ? "its y component" : "the y coordinate");
            run_check(what, t, M_GRAD3, in, NMAX, want);
         }
      }
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }
   free(in);
   free(want);
}

static void lod2_checks(void)
{
   In *in = (In *)calloc(NMAX, sizeof(In));
   float *want = (float *)malloc(NMAX * sizeof(float));
   static const struct {
      int kx, ky, layers;
      sampler s;
   } shapes[4] = { { 8, 8, 0, { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 8, 6, 0, { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 5, 7, 0, { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 6, 6, 3, { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } } };
   for (int c = 0; c < 4; c++) {
      int kx = shapes[c].kx, ky = shapes[c].ky, levels = (kx > ky ? kx : ky) + 1, lay = shapes[c].layers;
      cudaMipmappedArray_t a = make_mip(1 << kx, 1 << ky, levels, lay, false);
      cudaTextureObject_t t = tex_model_mip_object(a, &shapes[c].s);
      int n = c == 0 ? NMAX : 4096;
      random_pairs2(in, n, kx, ky, -6, levels + 2, lay);
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&shapes[c].s, levels,
                               model_grad_lod2(in[i].gx, in[i].gx1, in[i].gy, in[i].gy1, kx, ky), in[i].layer);
      char what[80];
      snprintf(what, sizeof(what), "%s, %d x %d texels, random pairs", lay ? "tex2DLayeredGrad" : "tex2DGrad",
               1 << kx, 1 << ky);
      run_check(what, t, lay ? M_GRAD2_LAYERED : M_GRAD2, in, n, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }

   /* sweeps on 256 x 256 with a bias and clamps: the smaller component of a
    * gradient, and of x - y where it is a difference of opposite signs */
   cudaMipmappedArray_t a = make_mip(256, 256, 9, 0, false);
   sampler sb = { true, true, cudaAddressModeClamp, 0.62f, 0.25f, 7.5f };
   cudaTextureObject_t t = tex_model_mip_object(a, &sb);
   int n = 0;
   for (int j = 0; j < 2048; j++) {
      double q = j / 2048.0;
      in[n++] = (In){ 0.5f, (float)ldexp(1.0, -8), 0, 0, 0, 0.5f, (float)ldexp(q, -8), 0 };
      in[n++] = (In){ 0.5f, (float)ldexp(1.0, -8), (float)ldexp(1.0, -8), 0, 0, 0.5f, (float)ldexp(0.5, -8),
                      (float)ldexp(-0.5 * q, -8) };
      in[n++] = (In){ 0.5f, (float)ldexp(1.5, -8), (float)ldexp(1.25, -8), 0, 0, 0.5f, (float)ldexp(0.75, -8),
                      (float)ldexp(-0.75 * q, -8) };
   }
   /* zeros, an infinity and NaNs among the components */
   static const float sp[] = { 0.0f, 1.0f / 512, 1.0f / 256, 3.0f / 256, INFINITY, NAN };
   for (int i = 0; i < 6 * 6 * 6; i++)
      in[n++] = (In){ 0.5f, sp[i % 6], sp[(i / 6) % 6], 0, 0, 0.5f, sp[i / 36], -sp[(i + 1) % 6] };
   for (int i = 0; i < n; i++)
      want[i] = model_fetch(&sb, 9, model_grad_lod2(in[i].gx, in[i].gx1, in[i].gy, in[i].gy1, 8, 8), 0);
   run_check("tex2DGrad, 256 x 256, swept minor components, specials, bias 0.62, clamps [0.25, 7.5]", t, M_GRAD2,
             in, n, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));

   /* random texels: tex2DGrad reads what tex2DLod reads at the model's lod */
   a = make_mip(128, 128, 8, 0, true);
   sampler sr = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 7.0f };
   t = tex_model_mip_object(a, &sr);
   random_pairs2(in, 4096, 7, 7, -6, 9, 0);
   same_as_lod("tex2DGrad = tex2DLod at the model's lod, random texels", t, 7, 7, in, 4096, want);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeMipmappedArray(a));
   free(in);
   free(want);
}

static void lod_checks(void)
{
   const int k = 12, levels = 13;   /* 4096 texels */
   cudaMipmappedArray_t a = make_mip(1 << k, 0, levels, 0, false);
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
      a = make_mip(1 << kk, 0, kk + 1, 0, false);
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
   a = make_mip(1024, 0, 11, 3, false);
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
   cudaMipmappedArray_t a = make_mip(1 << k, 0, k + 1, 0, true);
   sampler s = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 10.0f };
   cudaTextureObject_t t = tex_model_mip_object(a, &s);
   In *in = (In *)calloc(4096, sizeof(In));
   float *want = (float *)malloc(4096 * sizeof(float));
   random_pairs(in, 4096, k, -10, 12, 0);
   same_as_lod("tex1DGrad = tex1DLod at the model's lod, random texels", t, k, 0, in, 4096, want);
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

/* Sizes that are not a power of two: 1-D widths, a sweep of every 9-bit
 * mantissa of one binade, and 2-D (and layered) shapes; at and above 1024
 * texels the size's bits below its top 10 are dropped (4095 scales as
 * 4092). */
/* ---- cube maps ---- */

/* A float mipmapped cube map (cubes > 0: layered, that many cubes) of n x n
 * faces whose level l holds l + cube / 2. */
static cudaMipmappedArray_t make_mip_cube(int n, int levels, int cubes)
{
   return make_mip_slices(n, n, levels, 6 * (cubes ? cubes : 1), 6, cudaArrayCubemap | (cubes ? cudaArrayLayered : 0),
                          false);
}

/* The cubemap table's face of v (ties: y over x, z over both, as the H200)
 * and v's sc and tc on face f. */
static int cube_face(const float *v)
{
   float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
   if (ax > ay && ax > az)
      return v[0] >= 0.0f ? 0 : 1;
   if (ay > az)
      return v[1] >= 0.0f ? 2 : 3;
   return v[2] >= 0.0f ? 4 : 5;
}
static void cube_st(int f, const float *v, float *sc, float *tc)
{
   static const int S[6][2] = { { -3, -2 }, { 3, -2 }, { 1, 3 }, { 1, -3 }, { 1, -2 }, { -1, -2 } };
   float c[2];
   for (int k = 0; k < 2; k++)   /* +-(axis + 1) */
      c[k] = S[f][k] > 0 ? v[S[f][k] - 1] : -v[-S[f][k] - 1];
   *sc = c[0], *tc = c[1];
}

/* The lod of texCubemapGrad on n x n faces (the program's inputs: every lane
 * on P's face, its largest magnitude a power of two; false otherwise). */
static bool model_grad_lod_cube(const In *p, int n, int *lod)
{
   float P[3] = { p->x, p->y, p->z }, d[3][3] = { { 0, 0, 0 }, { p->gx, p->gx1, p->gx2 }, { p->gy, p->gy1, p->gy2 } };
   float sc[3], tc[3];
   int f0 = -1;
   for (int j = 0; j < 3; j++) {
      float q[3], v[3];
      for (int k = 0; k < 3; k++) {
         volatile float s = P[k] + d[j][k];   /* rounded to f32 */
         q[k] = s;
      }
      float m = fmaxf(fmaxf(fabsf(q[0]), fabsf(q[1])), fabsf(q[2]));
      int e;
      if (!(frexpf(m, &e) == 0.5f))
         return false;
      for (int k = 0; k < 3; k++)
         v[k] = q[k] / m;   /* exact */
      int f = cube_face(v);
      if (j == 0)
         f0 = f;
      if (f != f0 || cube_face(q) != f0)
         return false;
      cube_st(f0, v, &sc[j], &tc[j]);
   }
   volatile float g[4] = { (sc[1] - sc[0]) * 0.5f, (tc[1] - tc[0]) * 0.5f, (sc[2] - sc[0]) * 0.5f,
                           (tc[2] - tc[0]) * 0.5f };
   *lod = model_grad_lod2w(g[0], g[1], g[2], g[3], n, n);
   return true;
}

/* The lod of texCubemapGrad on n x n faces where a lane leaves P's face
 * (NATIVE.md "cube", 2026-12-05 "cubeoff"; every lane's largest magnitude a
 * power of two or infinite, so that MUFU.RCP is exact: 2^-e, or 0; false
 * otherwise, or where metalcuda refuses: P on an edge or corner).  Each lane
 * v = (P + d) * rcp(max |.|) (NaN components ignored for max and face, then
 * read as 0); its face by the largest magnitude, ties z over y over x.  A
 * lane on the face opposite P's: the top level.  A lane on the adjacent
 * face (axis ak, sign sk; P's a0, s0): along the shared edge the
 * difference of the face coordinates, halved; across it the sum of P's
 * distance to the edge a = (1 - sk v0[ak]) / 2 and the lane's beyond it
 * b = (1 - s0 v[a0]) / 2, each in texels truncated to 9 fraction bits, the
 * smaller then to the larger's 2^(e-9), the sum to 9 bits again; rho is the
 * larger of the two gradients' lengths, without the diagonal terms. */
static bool model_grad_lod_cube_off(const In *p, int n, int *lod)
{
   float P[3] = { p->x, p->y, p->z }, d[3][3] = { { 0, 0, 0 }, { p->gx, p->gx1, p->gx2 }, { p->gy, p->gy1, p->gy2 } };
   float v[3][3];
   int f[3];
   for (int j = 0; j < 3; j++) {
      float q[3], m = 0.0f;
      for (int k = 0; k < 3; k++) {
         volatile float s = P[k] + d[j][k];   /* rounded to f32 */
         q[k] = s;
         if (fabsf(q[k]) > m)
            m = fabsf(q[k]);
      }
      int e;
      if (!isinf(m) && !(m > 0.0f && frexpf(m, &e) == 0.5f))
         return false;
      float r = isinf(m) ? 0.0f : 1.0f / m;   /* exact */
      float a[3];
      for (int k = 0; k < 3; k++) {
         v[j][k] = q[k] * r;
         a[k] = isnan(v[j][k]) ? -1.0f : fabsf(v[j][k]);
      }
      float mm = fmaxf(fmaxf(a[0], a[1]), a[2]);
      f[j] = a[2] != mm && a[1] == mm ? (v[j][1] < 0.0f ? 3 : 2)
           : a[2] != mm && a[0] == mm ? (v[j][0] < 0.0f ? 1 : 0) : (v[j][2] < 0.0f ? 5 : 4);
      for (int k = 0; k < 3; k++)
         if (isnan(v[j][k]))
            v[j][k] = 0.0f;
   }
   int f0 = f[0], a0 = f0 / 2, off = 0;
   for (int j = 1; j < 3; j++) {
      if (f[j] != f0 && f[j] / 2 == a0) {
         *lod = LOD_INF;
         return true;
      }
      off |= f[j] != f0;
   }
   float mx = fmaxf(fmaxf(fabsf(v[0][0]), fabsf(v[0][1])), fabsf(v[0][2]));
   if (!off || (fabsf(v[0][0]) == mx) + (fabsf(v[0][1]) == mx) + (fabsf(v[0][2]) == mx) > 1)
      return false;
   int sax = a0 == 0 ? 2 : 0, nn, e;
   double rho = 0.0;
   for (int j = 1; j < 3; j++) {
      float sc0, tc0, sc, tc;
      cube_st(f0, v[0], &sc0, &tc0);
      cube_st(f0, v[j], &sc, &tc);
      volatile float ds = (sc - sc0) * 0.5f, dt = (tc - tc0) * 0.5f;
      double c[2] = { ds, dt };
      for (int k = 0; k < 2; k++)
         c[k] = fabs(t9(model_scale(fabs(c[k]) < 1.1754943508222875e-38 ? 0.0 : c[k], n), &nn, &e));
      if (f[j] != f0) {
         int ak = f[j] / 2;
         volatile float A = 1.0f - (f[j] % 2 ? -v[0][ak] : v[0][ak]), B = 1.0f - (f0 % 2 ? -v[j][a0] : v[j][a0]);
         if (!(A > 0.0f) || B < 0.0f)
            return false;
         double ta = t9(model_scale(A * 0.5f, n), &nn, &e), tb = t9(model_scale(B * 0.5f, n), &nn, &e);
         double big = fmax(ta, tb), small = fmin(ta, tb), sum = 0.0;
         if (big > 0.0) {
            t9(big, &nn, &e);
            double u = ldexp(1.0, e - 9);
            sum = t9(big + floor(small / u) * u, &nn, &e);
         }
         c[ak == sax ? 0 : 1] = sum;
      }
      rho = fmax(rho, model_len(c[0], c[1]));
   }
   if (rho == 0.0) {
      *lod = -LOD_INF;
      return true;
   }
   int re;
   double fr = frexp(rho, &re);
   *lod = 256 * (re - 1) + lg2_step((int)floor((2.0 * fr - 1.0) * 256.0));
   return true;
}

/* A random value within lim of |M| (either sign) on a 2^-20 grid of |M|. */
static float cube_grid(double lim, float M)
{
   return (float)(floor((2.0 * tex_model_urand() - 1.0) * lim * 1048576.0) / 1048576.0) * fabsf(M);
}

/* P for a random cube fetch: a major component M = +-2^e (e in -2 ... 2)
 * on a random face (its axis in *a), the others within 0.9 of it (grid: within
 * 0.999, on a 2^-20 grid of |M|); returns M. */
static float cube_p(float *P, int *a, bool grid)
{
   int f = (int)(tex_model_urand() * 6);
   float M = ldexpf(f % 2 ? -1.0f : 1.0f, (int)(tex_model_urand() * 5) - 2);
   *a = f / 2;
   for (int k = 0; k < 3; k++)
      P[k] = k == *a ? M : grid ? cube_grid(0.999, M) : (float)((2.0 * tex_model_urand() - 1.0) * 0.9) * fabsf(M);
   return M;
}

/* The fetch's inputs from P and the gradients g[0] (dPdx), g[1] (dPdy). */
static void cube_set(In *p, const float *P, float g[2][3], int cubes)
{
   memset(p, 0, sizeof *p);
   p->x = P[0], p->y = P[1], p->z = P[2];
   p->gx = g[0][0], p->gx1 = g[0][1], p->gx2 = g[0][2];
   p->gy = g[1][0], p->gy1 = g[1][1], p->gy2 = g[1][2];
   p->layer = cubes ? (int)(tex_model_urand() * cubes) : 0;
}

/* Random fetches with a lane off P's face: P with a major component M =
 * +-2^e (e in -2 ... 2), the others within 0.999 of it on a 2^-20 grid of
 * |M|; each of P + dPdx and P + dPdy P itself, on P's face (P's major
 * component, the others random), on an adjacent face (major component
 * +-|M| 2^(-1 ... 1) along another axis, the others within 0.999 of it on
 * the same grid), on the opposite face, or now and then with an infinite or
 * NaN component in its gradient (exact differences: the lanes are those
 * points); redrawn until a lane is off P's face and the model serves it. */
static void random_cube_off(In *in, int n, int cubes)
{
   for (int i = 0; i < n; i++) {
      In p;
      int lod;
      do {
         int a;
         float P[3], g[2][3], M = cube_p(P, &a, true);
         for (int j = 0; j < 2; j++) {
            double u = tex_model_urand();
            float Q[3];
            int b = (a + 1 + (int)(tex_model_urand() * 2)) % 3;
            float Mb = ldexpf(tex_model_urand() < 0.5 ? -1.0f : 1.0f, (int)(tex_model_urand() * 3) - 1) * fabsf(M);
            for (int k = 0; k < 3; k++)
               Q[k] = u < 0.15 ? P[k] : u < 0.35 ? (k == a ? M : cube_grid(0.999, M))
                    : u < 0.9 ? (k == b ? Mb : cube_grid(0.999, Mb)) : (k == a ? -M : cube_grid(0.999, M));
            for (int k = 0; k < 3; k++)
               g[j][k] = Q[k] - P[k];   /* exact */
            if (tex_model_urand() < 0.06) {
               static const float S[3] = { INFINITY, -INFINITY, NAN };
               g[j][(int)(tex_model_urand() * 3)] = S[(int)(tex_model_urand() * 3)];
            }
         }
         cube_set(&p, P, g, cubes);
      } while (!model_grad_lod_cube_off(&p, 2, &lod));
      in[i] = p;
   }
}

/* Random fetches on P's face: P with a major component of +-2^e (e in
 * -2 ... 2) on a random face, the others within 0.9 of it; each gradient's
 * major component 0, P's (doubling) or -P's / 2 (halving), its others of
 * 2^lo ... 2^hi of the face (either sign), a zero or a denormal gradient
 * now and then; redrawn until every lane is on P's face. */
static void random_cube(In *in, int n, int lo, int hi, int cubes)
{
   for (int i = 0; i < n; i++) {
      In p;
      int lod;
      do {
         int a;
         float P[3], g[2][3], M = cube_p(P, &a, false);
         for (int j = 0; j < 2; j++) {
            double u = tex_model_urand();
            for (int k = 0; k < 3; k++) {
               double e = lo + tex_model_urand() * (hi - lo);
               g[j][k] = (float)(ldexp(1.0 + tex_model_urand(), (int)floor(e)) * fabsf(M) *
                                 (tex_model_urand() < 0.5 ? -1.0 : 1.0));
            }
            g[j][a] = u < 0.7 ? 0.0f : u < 0.85 ? M : -M / 2;
            if (tex_model_urand() < 0.05)
               for (int k = 0; k < 3; k++)
                  g[j][k] = tex_model_urand() < 0.5 ? 0.0f : 1e-40f;
         }
         cube_set(&p, P, g, cubes);
      } while (!model_grad_lod_cube(&p, 2, &lod));
      in[i] = p;
   }
}

/* From the off-face fetches in[0 ... n): fetches with P not finite or zero
 * in out[] (their number returned), each with the model's lod in q[] for
 * the fetch the H100 read the same (NATIVE.md "cubenan"): one or two of P's minor components
 * NaN (quiet and signalling, either sign) as P and both gradients 0 there;
 * P all NaN, or one of its components infinite with finite gradients, as
 * the bottom level; P = 0 with
 * the lanes at P + dPdx and P + dPdy of the fetch as P = (0, 0, 2^-100).
 * Only those the model serves: on a face size of n.  Own generator, so the
 * other checks' inputs stay those of the earlier native runs. */
static int cube_special(const In *in, int n, int size, In *out, int *q)
{
   int m = 0;
   for (int i = 0; i < n; i++) {
      In p = in[i], s = p;
      float *P[3] = { &p.x, &p.y, &p.z }, *g[2][3] = { { &p.gx, &p.gx1, &p.gx2 }, { &p.gy, &p.gy1, &p.gy2 } };
      bool finite = true, ok = true;
      for (int j = 0; j < 2; j++)
         for (int k = 0; k < 3; k++)
            finite = finite && isfinite(*g[j][k]);
      int kind = i % 4, a = 0;
      for (int k = 1; k < 3; k++)
         a = fabsf(*P[k]) > fabsf(*P[a]) ? k : a;
      if (kind < 2 && finite) {   /* NaN minor components (gradients finite, as probed) */
         float *S[3] = { &s.x, &s.y, &s.z }, *gs[2][3] = { { &s.gx, &s.gx1, &s.gx2 }, { &s.gy, &s.gy1, &s.gy2 } };
         for (int j = 0; j <= kind; j++) {
            int k = (a + 1 + j + (kind == 0 && nan_urand() < 0.5)) % 3;
            uint32_t nb = (nan_urand() < 0.5 ? 0x7fc00000u : 0x7f800001u + (uint32_t)(nan_urand() * 0x7ffffe)) |
                          (nan_urand() < 0.5 ? 0x80000000u : 0u);
            memcpy(P[k], &nb, 4);
            *S[k] = 0.0f, *gs[0][k] = 0.0f, *gs[1][k] = 0.0f;
         }
         ok = model_grad_lod_cube(&s, size, &q[m]) || model_grad_lod_cube_off(&s, size, &q[m]);
      } else if (kind < 2) {
         ok = false;
      } else if (kind == 2) {   /* P all NaN, or infinite along one axis: the bottom level */
         for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++)
               *g[j][k] = isfinite(*g[j][k]) ? *g[j][k] : 0.0f;
         if (i & 4)
            p.x = p.y = p.z = NAN;
         else
            *P[(int)(nan_urand() * 3)] = nan_urand() < 0.5 ? -INFINITY : INFINITY;
         q[m] = -LOD_INF;
      } else {   /* P = 0, the lanes where they were */
         for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++)
               *g[j][k] = *P[k] + *g[j][k];   /* exact: the generator's points */
         p.x = p.y = p.z = 0.0f;
         s = p;
         s.z = 0x1p-100f;
         ok = finite && (model_grad_lod_cube(&s, size, &q[m]) || model_grad_lod_cube_off(&s, size, &q[m]));
      }
      if (ok)
         out[m++] = p;
   }
   return m;
}

static void cube_checks(void)
{
   In *in = (In *)calloc(NMAX, sizeof(In)), *in2 = (In *)calloc(NMAX, sizeof(In));
   int *qs = (int *)calloc(NMAX, sizeof(int));
   float *want = (float *)malloc(NMAX * sizeof(float));
   static const struct {
      int n, levels, cubes;
      sampler s;
   } shapes[4] = { { 128, 8, 0, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 100, 7, 0, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 64, 7, 3, { false, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f } },
                   { 32, 6, 0, { false, false, cudaAddressModeClamp, 0.3f, 0.5f, 4.2f } } };
   for (int c = 0; c < 4; c++) {
      cudaMipmappedArray_t a = make_mip_cube(shapes[c].n, shapes[c].levels, shapes[c].cubes);
      cudaTextureObject_t t = tex_model_mip_object(a, &shapes[c].s);
      int n = 4096;
      random_cube(in, n, -12, 0, shapes[c].cubes);
      for (int i = 0; i < n; i++) {
         int q = 0;
         model_grad_lod_cube(&in[i], shapes[c].n, &q);
         want[i] = model_fetch(&shapes[c].s, shapes[c].levels, q, in[i].layer);
      }
      char what[64];
      snprintf(what, sizeof what, "texCubemap%sGrad %d^2", shapes[c].cubes ? "Layered" : "", shapes[c].n);
      run_check(what, t, shapes[c].cubes ? M_GRADC_LAYERED : M_GRADC, in, n, want);
      random_cube_off(in, n, shapes[c].cubes);
      for (int i = 0; i < n; i++) {
         int q = 0;
         model_grad_lod_cube_off(&in[i], shapes[c].n, &q);
         want[i] = model_fetch(&shapes[c].s, shapes[c].levels, q, in[i].layer);
      }
      snprintf(what, sizeof what, "texCubemap%sGrad %d^2, a lane off P's face", shapes[c].cubes ? "Layered" : "",
               shapes[c].n);
      run_check(what, t, shapes[c].cubes ? M_GRADC_LAYERED : M_GRADC, in, n, want);
      int m = cube_special(in, n, shapes[c].n, in2, qs);
      for (int i = 0; i < m; i++)
         want[i] = model_fetch(&shapes[c].s, shapes[c].levels, qs[i], in2[i].layer);
      snprintf(what, sizeof what, "texCubemap%sGrad %d^2, P not finite or zero", shapes[c].cubes ? "Layered" : "",
               shapes[c].n);
      run_check(what, t, shapes[c].cubes ? M_GRADC_LAYERED : M_GRADC, in2, m, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }
   free(in);
   free(in2);
   free(qs);
   free(want);
}

static void npot_checks(void)
{
   In *in = (In *)calloc(NMAX, sizeof(In));
   float *want = (float *)malloc(NMAX * sizeof(float));
   sampler s = { true, true, cudaAddressModeClamp, 0.0f, 0.0f, 16.0f };
   static const int widths[] = { 3, 5, 12, 37, 100, 300, 777, 1000, 1025, 1920, 2049, 4095, 8191 };
   for (int c = 0; c < 13; c++) {
      int w = widths[c], k = 0;
      while (w >> (k + 1))
         k++;
      cudaMipmappedArray_t a = make_mip(w, 0, k + 1, 0, false);
      cudaTextureObject_t t = tex_model_mip_object(a, &s);
      int n = 2048;
      random_pairs(in, n, k, -2, k + 2, 0);
      for (int i = 0; i < 512; i++)   /* every mantissa n of dPdx = n 2^-9 texels-ish, dPdy 0 */
         in[i].gx = (float)ldexp(512 + i + tex_model_urand() * 0.99, -9 - k + (c % 3)), in[i].gy = 0.0f;
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&s, k + 1, model_grad_lod2w(in[i].gx, 0.0f, in[i].gy, 0.0f, w, 1), 0);
      char what[80];
      snprintf(what, sizeof(what), "tex1DGrad, %d texels (not a power of two)", w);
      run_check(what, t, M_GRAD, in, n, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }
   static const struct {
      int w, h, layers;
   } shapes[9] = { { 1000, 777, 0 }, { 37, 300, 0 }, { 96, 5, 0 },      { 64, 40, 0 },    { 40, 24, 3 },
                   { 1920, 1080, 0 }, { 4095, 3, 0 }, { 1025, 2049, 0 }, { 1031, 3001, 2 } };
   for (int c = 0; c < 9; c++) {
      int w = shapes[c].w, h = shapes[c].h, lay = shapes[c].layers, kx = 0, ky = 0;
      while (w >> (kx + 1))
         kx++;
      while (h >> (ky + 1))
         ky++;
      int levels = (kx > ky ? kx : ky) + 1;
      cudaMipmappedArray_t a = make_mip(w, h, levels, lay, false);
      cudaTextureObject_t t = tex_model_mip_object(a, &s);
      int n = 4096;
      random_pairs2(in, n, kx, ky, -3, levels + 1, lay);
      for (int i = 0; i < n; i++)
         want[i] = model_fetch(&s, levels, model_grad_lod2w(in[i].gx, in[i].gx1, in[i].gy, in[i].gy1, w, h),
                               in[i].layer);
      char what[80];
      snprintf(what, sizeof(what), "%s, %d x %d texels (not powers of two), random pairs",
               lay ? "tex2DLayeredGrad" : "tex2DGrad", w, h);
      run_check(what, t, lay ? M_GRAD2_LAYERED : M_GRAD2, in, n, want);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeMipmappedArray(a));
   }
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
   lod2_checks();
   lod3_checks();
   npot_checks();
   cube_checks();
   CHECK_CUDA(cudaFree(d_in));
   CHECK_CUDA(cudaFree(d_out));
   return check_end();
}
