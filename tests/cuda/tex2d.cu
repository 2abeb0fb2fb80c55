/*
 * tex2d.cu — texture and surface objects, the most used subset, against a
 * host model of the CUDA C++ Programming Guide's appendix "Texture
 * Fetching" (checked on an H200, driver 580: the model is what NVIDIA's
 * hardware computes, bit for bit):
 *
 *  - 2-D float array (cudaMallocArray, cudaMemcpy2DToArray) read with
 *    nearest-point and linear filtering, unnormalised coordinates, clamp and
 *    border address modes, at coordinates inside, on texel centres and
 *    edges, and outside the array; linear weights in 1.8 fixed point, each
 *    2-D corner's weight (the product) rounded to 1/256 again (the H200's
 *    results showed it), on integer-valued texels, so every product and sum
 *    is exact;
 *  - normalised coordinates with wrap, mirror, clamp and border, both
 *    filters;
 *  - uchar4 array: cudaReadModeNormalizedFloat (tex2D<float4>, point and
 *    linear: linear within 1e-5 of the model, the one place an H200's
 *    result is not the model's bit for bit) and cudaReadModeElementType
 *    (tex2D<uchar4>);
 *  - pitch-linear memory (cudaResourceTypePitch2D) and linear memory with
 *    tex1Dfetch;
 *  - a one-channel float texture read as float4 (the missing channels);
 *  - surfaces: surf2Dwrite/surf2Dread of uchar4 and float4 on an array
 *    made with cudaArraySurfaceLoadStore, the zero and clamp boundary
 *    modes, read back with cudaMemcpy2DFromArray;
 *  - a 3-D float array (cudaMalloc3DArray, cudaMemcpy3D in and out, extent
 *    in elements) read with tex3D at every texel centre and clamped outside;
 *  - cudaArrayGetInfo; what an H200 (driver 580) accepts and refuses: a
 *    surface on an array made without cudaArraySurfaceLoadStore is made,
 *    destroying an unknown object succeeds, linear filtering of integers
 *    read as integers is cudaErrorInvalidFilterSetting; tex1Dfetch past
 *    the end reads zeros;
 *  - last (sticky): a surface read outside in the trap mode is
 *    cudaErrorIllegalAddress.
 * `tex2d --dump` prints every fetched value's bits (for comparing a new
 * model with the hardware).
 */
#include "tex_model.h"

#include <math.h>

#define W 13
#define H 7
#define NC 40

static bool dump;

__global__ void k_fetch2d(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

__global__ void k_fetch2d_f1(cudaTextureObject_t t, const float2 *c, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void k_fetch2d_u4(cudaTextureObject_t t, const float2 *c, uchar4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2D<uchar4>(t, c[i].x, c[i].y);
}

__global__ void k_fetch3d(cudaTextureObject_t t, float *out, int w, int h, int d)
{
   int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
   out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
   if (x == 0 && y == 0 && z == 0)
      out[w * h * d] = tex3D<float>(t, -3.0f, 1.5f, 99.0f);   /* clamped: (0, 1, d - 1) */
}

__global__ void k_fetch1d(cudaTextureObject_t t, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex1Dfetch<float>(t, i);
}

__global__ void k_surf(cudaSurfaceObject_t s, cudaSurfaceObject_t sf, int w, int h, uchar4 *rd, float4 *rdf)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
   if (x >= w || y >= h)
      return;
   uchar4 v = make_uchar4(x, y, x + y, 255 - x);
   surf2Dwrite(v, s, x * 4, y);
   surf2Dwrite(make_float4(x * 0.5f, y, -x, 1.0f / (x + 1)), sf, x * 16, y);
   /* out of range: the zero mode drops the store */
   surf2Dwrite(make_uchar4(9, 9, 9, 9), s, (w + 3) * 4, y, cudaBoundaryModeZero);
}

__global__ void k_surf_read(cudaSurfaceObject_t s, cudaSurfaceObject_t sf, int w, int h, uchar4 *rd, float4 *rdf)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
   if (x >= w || y >= h)
      return;
   rd[y * w + x] = surf2Dread<uchar4>(s, x * 4, y);
   rdf[y * w + x] = surf2Dread<float4>(sf, x * 16, y);
   if (x == 0) {
      rd[w * h + 2 * y] = surf2Dread<uchar4>(s, -4, y, cudaBoundaryModeZero);
      rd[w * h + 2 * y + 1] = surf2Dread<uchar4>(s, (w + 5) * 4, y, cudaBoundaryModeClamp);
   }
}

__global__ void k_surf_trap(cudaSurfaceObject_t s, uchar4 *out)
{
   out[0] = surf2Dread<uchar4>(s, 4000, 0);   /* cudaBoundaryModeTrap */
}

/* ---- the host model ---- */

typedef struct tex_model {
   int w, h, nchan;
   const float *texels;     /* w * h * nchan, already converted to float */
   int addr[2];             /* cudaTextureAddressMode */
   bool linear, norm;
   float border[4];
} tex_model;

static bool model_index(const tex_model *m, int d, int *i)
{
   return tex_model_index(m->addr[d], m->norm, d ? m->h : m->w, i);
}

static void model_texel(const tex_model *m, int x, int y, float v[4])
{
   bool in = model_index(m, 0, &x);
   in = model_index(m, 1, &y) && in;
   for (int k = 0; k < 4; k++)
      v[k] = !in ? m->border[k] : k < m->nchan ? m->texels[(y * m->w + x) * m->nchan + k] : 0.0f;
}

static void model_fetch(const tex_model *m, float cx, float cy, float out[4])
{
   float x = m->norm ? cx * m->w : cx, y = m->norm ? cy * m->h : cy;
   if (!m->linear) {
      model_texel(m, (int)floorf(x), (int)floorf(y), out);
      return;
   }
   float xb = x - 0.5f, yb = y - 0.5f, fx = floorf(xb), fy = floorf(yb);
   int a = (int)rintf((xb - fx) * 256.0f), b = (int)rintf((yb - fy) * 256.0f);
   /* each corner's weight rounded to a multiple of 1/256 (half up) */
   float w00 = ((256 - a) * (256 - b) + 128) / 256 / 256.0f, w10 = (a * (256 - b) + 128) / 256 / 256.0f;
   float w01 = ((256 - a) * b + 128) / 256 / 256.0f, w11 = (a * b + 128) / 256 / 256.0f;
   int i = (int)fx, j = (int)fy;
   float t00[4], t10[4], t01[4], t11[4];
   model_texel(m, i, j, t00);
   model_texel(m, i + 1, j, t10);
   model_texel(m, i, j + 1, t01);
   model_texel(m, i + 1, j + 1, t11);
   for (int k = 0; k < 4; k++)
      out[k] = w00 * t00[k] + w10 * t10[k] + w01 * t01[k] + w11 * t11[k];
}

/* ---- running fetches ---- */

static float2 coords[NC];
static float2 *dcoords;

static void make_coords(bool norm, int w, int h)
{
   static const float xs[] = { -3.2f, -0.5f, 0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.3f, 2.5f, 3.1f,
                               5.99f, 6.0f, 7.77f, 11.5f, 12.5f, 12.9f, 13.0f, 13.4f, 15.2f, 40.0f };
   for (int k = 0; k < NC; k++) {
      float x = xs[k % 20] + 0.013f * k, y = xs[(k * 7 + 3) % 20] * h / (float)w + 0.021f * k;
      coords[k] = norm ? make_float2(x / w - 0.25f, y / h + 0.1f) : make_float2(x, y);
   }
   cudaMemcpy(dcoords, coords, sizeof(coords), cudaMemcpyHostToDevice);
}

static void run_case(const char *what, cudaTextureObject_t t, const tex_model *m, float tol)
{
   float4 *dout, out[NC];
   cudaMalloc(&dout, sizeof(out));
   cudaMemset(dout, 0xff, sizeof(out));
   k_fetch2d<<<1, 64>>>(t, dcoords, dout, NC);
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   cudaFree(dout);
   float got[NC * 4], want[NC * 4];
   for (int k = 0; k < NC; k++) {
      memcpy(&got[4 * k], &out[k], 16);
      model_fetch(m, coords[k].x, coords[k].y, &want[4 * k]);
      if (dump)
         printf("  DUMP %s (%.9g, %.9g): %08x %08x %08x %08x model %08x %08x %08x %08x\n", what, coords[k].x,
                coords[k].y, f32_bits(got[4 * k]), f32_bits(got[4 * k + 1]), f32_bits(got[4 * k + 2]),
                f32_bits(got[4 * k + 3]), f32_bits(want[4 * k]), f32_bits(want[4 * k + 1]),
                f32_bits(want[4 * k + 2]), f32_bits(want[4 * k + 3]));
   }
   if (tol == 0.0f) {
      CHECK_ARRAY_F32(what, got, want, NC * 4);
      return;
   }
   float worst = 0;
   for (int k = 0; k < NC * 4; k++)
      worst = fmaxf(worst, fabsf(got[k] - want[k]));
   if (!CHECK(worst <= tol))
      printf("  %s: largest difference %g\n", what, worst);
}

#define make_tex tex_model_object

int main(int argc, char **argv)
{
   dump = argc > 1 && !strcmp(argv[1], "--dump");
   check_begin("tex2d");
   CHECK_CUDA(cudaMalloc(&dcoords, sizeof(coords)));

   /* float4 array of small integers */
   static float f4[W * H * 4];
   for (int i = 0; i < W * H * 4; i++)
      f4[i] = (float)((i * 7 + (i >> 2) * 5) % 17) - 4.0f;
   cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
   cudaArray_t af4;
   CHECK_CUDA(cudaMallocArray(&af4, &cf4, W, H));
   CHECK_CUDA(cudaMemcpy2DToArray(af4, 0, 0, f4, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   cudaChannelFormatDesc gd;
   cudaExtent ge;
   unsigned gf = 99;
   CHECK_CUDA(cudaArrayGetInfo(&gd, &ge, &gf, af4));
   CHECK_INT(gd.x, 32);
   CHECK_INT(gd.w, 32);
   CHECK_INT(gd.f, cudaChannelFormatKindFloat);
   CHECK_INT(ge.width, W);
   CHECK_INT(ge.height, H);
   CHECK_INT(ge.depth, 0);
   CHECK_INT(gf, 0);

   const float border[4] = { 0.5f, -2.0f, 7.0f, 100.0f };
   tex_model m = { W, H, 4, f4, { cudaAddressModeClamp, cudaAddressModeClamp }, false, false, { 0 } };
   make_coords(false, W, H);
   struct { const char *name; int a0, a1; bool linear; } un[] = {
      { "point clamp", cudaAddressModeClamp, cudaAddressModeClamp, false },
      { "point border", cudaAddressModeBorder, cudaAddressModeBorder, false },
      { "linear clamp", cudaAddressModeClamp, cudaAddressModeClamp, true },
      { "linear border/clamp", cudaAddressModeBorder, cudaAddressModeClamp, true },
      { "linear wrap (unnormalised: clamps)", cudaAddressModeWrap, cudaAddressModeMirror, true },
   };
   for (unsigned c = 0; c < sizeof(un) / sizeof(un[0]); c++) {
      cudaTextureObject_t t = make_tex(af4, un[c].a0, un[c].a1, un[c].linear, false, cudaReadModeElementType, border);
      m.addr[0] = un[c].a0, m.addr[1] = un[c].a1, m.linear = un[c].linear, m.norm = false;
      memcpy(m.border, border, sizeof(border));
      run_case(un[c].name, t, &m, 0);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   make_coords(true, W, H);
   struct { const char *name; int a; bool linear; } nm[] = {
      { "normalised point wrap", cudaAddressModeWrap, false },
      { "normalised point mirror", cudaAddressModeMirror, false },
      { "normalised linear wrap", cudaAddressModeWrap, true },
      { "normalised linear mirror", cudaAddressModeMirror, true },
      { "normalised linear clamp", cudaAddressModeClamp, true },
      { "normalised linear border", cudaAddressModeBorder, true },
   };
   for (unsigned c = 0; c < sizeof(nm) / sizeof(nm[0]); c++) {
      cudaTextureObject_t t = make_tex(af4, nm[c].a, nm[c].a, nm[c].linear, true, cudaReadModeElementType, border);
      m.addr[0] = m.addr[1] = nm[c].a, m.linear = nm[c].linear, m.norm = true;
      run_case(nm[c].name, t, &m, 0);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }

   /* uchar4 array, normalised reads */
   static unsigned char u4[W * H * 4];
   static float u4f[W * H * 4];
   for (int i = 0; i < W * H * 4; i++) {
      u4[i] = (unsigned char)(i * 37 + 11);
      u4f[i] = u4[i] / 255.0f;
   }
   cudaChannelFormatDesc cu4 = cudaCreateChannelDesc<uchar4>();
   cudaArray_t au4;
   CHECK_CUDA(cudaMallocArray(&au4, &cu4, W, H));
   CHECK_CUDA(cudaMemcpy2DToArray(au4, 0, 0, u4, W * 4, W * 4, H, cudaMemcpyHostToDevice));
   make_coords(false, W, H);
   tex_model mu = { W, H, 4, u4f, { cudaAddressModeClamp, cudaAddressModeClamp }, false, false, { 0 } };
   cudaTextureObject_t tu = make_tex(au4, cudaAddressModeClamp, cudaAddressModeClamp, false, false,
                                     cudaReadModeNormalizedFloat, NULL);
   run_case("uchar4 normalised point", tu, &mu, 0);
   CHECK_CUDA(cudaDestroyTextureObject(tu));
   tu = make_tex(au4, cudaAddressModeClamp, cudaAddressModeClamp, true, false, cudaReadModeNormalizedFloat, NULL);
   mu.linear = true;
   /* an H200 differs from the model here by up to 7.5e-6 (its 8-bit
    * normalised filtering is not the float model's; not found yet) */
   run_case("uchar4 normalised linear", tu, &mu, 1e-5f);
   CHECK_CUDA(cudaDestroyTextureObject(tu));
   /* element type: the bytes themselves */
   tu = make_tex(au4, cudaAddressModeClamp, cudaAddressModeClamp, false, false, cudaReadModeElementType, NULL);
   uchar4 *du, hu[NC];
   CHECK_CUDA(cudaMalloc(&du, sizeof(hu)));
   k_fetch2d_u4<<<1, 64>>>(tu, dcoords, du, NC);
   CHECK_CUDA(cudaMemcpy(hu, du, sizeof(hu), cudaMemcpyDeviceToHost));
   uint32_t gotu[NC], wantu[NC];
   for (int k = 0; k < NC; k++) {
      int x = (int)floorf(coords[k].x), y = (int)floorf(coords[k].y);
      x = x < 0 ? 0 : x >= W ? W - 1 : x;
      y = y < 0 ? 0 : y >= H ? H - 1 : y;
      memcpy(&wantu[k], &u4[(y * W + x) * 4], 4);
      memcpy(&gotu[k], &hu[k], 4);
   }
   CHECK_ARRAY_U32("uchar4 element type", gotu, wantu, NC);
   CHECK_CUDA(cudaDestroyTextureObject(tu));

   /* pitch-linear memory, one float channel, read as float and float4 */
   size_t pitch;
   float *dp;
   static float f1[W * H];
   for (int i = 0; i < W * H; i++)
      f1[i] = (float)(i % 23) * 0.25f;
   CHECK_CUDA(cudaMallocPitch(&dp, &pitch, W * 4, H));
   CHECK_CUDA(cudaMemcpy2D(dp, pitch, f1, W * 4, W * 4, H, cudaMemcpyHostToDevice));
   cudaResourceDesc rp;
   memset(&rp, 0, sizeof(rp));
   rp.resType = cudaResourceTypePitch2D;
   rp.res.pitch2D.devPtr = dp;
   rp.res.pitch2D.desc = cudaCreateChannelDesc<float>();
   rp.res.pitch2D.width = W;
   rp.res.pitch2D.height = H;
   rp.res.pitch2D.pitchInBytes = pitch;
   cudaTextureDesc tdp;
   memset(&tdp, 0, sizeof(tdp));
   tdp.addressMode[0] = tdp.addressMode[1] = cudaAddressModeClamp;
   tdp.filterMode = cudaFilterModeLinear;
   tdp.readMode = cudaReadModeElementType;
   cudaTextureObject_t tp;
   CHECK_CUDA(cudaCreateTextureObject(&tp, &rp, &tdp, NULL));
   tex_model mp = { W, H, 1, f1, { cudaAddressModeClamp, cudaAddressModeClamp }, true, false, { 0 } };
   run_case("pitch2D float linear (as float4)", tp, &mp, 0);
   float *d1, h1[NC], w1[NC];
   CHECK_CUDA(cudaMalloc(&d1, sizeof(h1)));
   k_fetch2d_f1<<<1, 64>>>(tp, dcoords, d1, NC);
   CHECK_CUDA(cudaMemcpy(h1, d1, sizeof(h1), cudaMemcpyDeviceToHost));
   for (int k = 0; k < NC; k++) {
      float v[4];
      model_fetch(&mp, coords[k].x, coords[k].y, v);
      w1[k] = v[0];
   }
   CHECK_ARRAY_F32("pitch2D float linear (as float)", h1, w1, NC);
   CHECK_CUDA(cudaDestroyTextureObject(tp));

   /* linear memory and tex1Dfetch */
   cudaResourceDesc rl;
   memset(&rl, 0, sizeof(rl));
   rl.resType = cudaResourceTypeLinear;
   rl.res.linear.devPtr = dp;
   rl.res.linear.desc = cudaCreateChannelDesc<float>();
   rl.res.linear.sizeInBytes = W * 4;
   cudaTextureDesc tdl;
   memset(&tdl, 0, sizeof(tdl));
   tdl.readMode = cudaReadModeElementType;
   cudaTextureObject_t tl;
   CHECK_CUDA(cudaCreateTextureObject(&tl, &rl, &tdl, NULL));
   k_fetch1d<<<1, 64>>>(tl, d1, W + 3);
   CHECK_CUDA(cudaMemcpy(h1, d1, (W + 3) * 4, cudaMemcpyDeviceToHost));
   float w1d[W + 3] = { 0 };
   memcpy(w1d, f1, W * 4);
   CHECK_ARRAY_F32("tex1Dfetch of linear memory (past the end: 0)", h1, w1d, W + 3);
   CHECK_CUDA(cudaDestroyTextureObject(tl));

   /* a 3-D array */
   {
      enum { X = 5, Y = 4, Z = 3 };
      static float v3[X * Y * Z + 1], b3[X * Y * Z], g3[X * Y * Z + 1];
      for (int i = 0; i < X * Y * Z; i++)
         v3[i] = (float)(i * 3 % 17) - 2.5f;
      v3[X * Y * Z] = v3[((Z - 1) * Y + 1) * X];
      cudaArray_t a3;
      cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
      CHECK_CUDA(cudaMalloc3DArray(&a3, &c1, make_cudaExtent(X, Y, Z)));
      cudaMemcpy3DParms cp;
      memset(&cp, 0, sizeof(cp));
      cp.srcPtr = make_cudaPitchedPtr(v3, X * 4, X, Y);
      cp.dstArray = a3;
      cp.extent = make_cudaExtent(X, Y, Z);
      cp.kind = cudaMemcpyHostToDevice;
      CHECK_CUDA(cudaMemcpy3D(&cp));
      memset(&cp, 0, sizeof(cp));
      cp.srcArray = a3;
      cp.dstPtr = make_cudaPitchedPtr(b3, X * 4, X, Y);
      cp.extent = make_cudaExtent(X, Y, Z);
      cp.kind = cudaMemcpyDeviceToHost;
      CHECK_CUDA(cudaMemcpy3D(&cp));
      CHECK_ARRAY_F32("cudaMemcpy3D to and from a 3-D array", b3, v3, X * Y * Z);
      cudaResourceDesc r3;
      memset(&r3, 0, sizeof(r3));
      r3.resType = cudaResourceTypeArray;
      r3.res.array.array = a3;
      cudaTextureDesc t3d;
      memset(&t3d, 0, sizeof(t3d));
      t3d.addressMode[0] = t3d.addressMode[1] = t3d.addressMode[2] = cudaAddressModeClamp;
      t3d.readMode = cudaReadModeElementType;
      cudaTextureObject_t t3;
      CHECK_CUDA(cudaCreateTextureObject(&t3, &r3, &t3d, NULL));
      float *d3;
      CHECK_CUDA(cudaMalloc(&d3, sizeof(g3)));
      k_fetch3d<<<1, dim3(X, Y, Z)>>>(t3, d3, X, Y, Z);
      CHECK_CUDA(cudaMemcpy(g3, d3, sizeof(g3), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_F32("tex3D at every texel centre, and clamped", g3, v3, X * Y * Z + 1);
      CHECK_CUDA(cudaDestroyTextureObject(t3));
      CHECK_CUDA(cudaFreeArray(a3));
      cudaFree(d3);
   }

   /* surfaces */
   cudaArray_t as, asf, anos;
   CHECK_CUDA(cudaMallocArray(&as, &cu4, W, H, cudaArraySurfaceLoadStore));
   CHECK_CUDA(cudaMallocArray(&asf, &cf4, W, H, cudaArraySurfaceLoadStore));
   CHECK_CUDA(cudaMallocArray(&anos, &cu4, W, H));
   CHECK_CUDA(cudaArrayGetInfo(NULL, NULL, &gf, as));
   CHECK_INT(gf, cudaArraySurfaceLoadStore);
   cudaResourceDesc rs;
   memset(&rs, 0, sizeof(rs));
   rs.resType = cudaResourceTypeArray;
   rs.res.array.array = anos;
   cudaSurfaceObject_t s, sf, nos = 0;
   CHECK_CUDA(cudaCreateSurfaceObject(&nos, &rs));   /* accepted without the flag (H200) */
   CHECK_CUDA(cudaDestroySurfaceObject(nos));
   CHECK_CUDA(cudaDestroyTextureObject(12345));     /* an unknown object: success (H200) */
   {
      cudaResourceDesc ru;
      memset(&ru, 0, sizeof(ru));
      ru.resType = cudaResourceTypeArray;
      ru.res.array.array = au4;
      cudaTextureDesc tu2;
      memset(&tu2, 0, sizeof(tu2));
      tu2.filterMode = cudaFilterModeLinear;
      tu2.readMode = cudaReadModeElementType;
      cudaTextureObject_t tx;
      CHECK_ERR(cudaCreateTextureObject(&tx, &ru, &tu2, NULL), cudaErrorInvalidFilterSetting);
      CHECK_ERR(cudaGetLastError(), cudaErrorInvalidFilterSetting);
   }
   rs.res.array.array = as;
   CHECK_CUDA(cudaCreateSurfaceObject(&s, &rs));
   rs.res.array.array = asf;
   CHECK_CUDA(cudaCreateSurfaceObject(&sf, &rs));
   uchar4 *drd, hrd[W * H + 2 * H];
   float4 *drdf, hrdf[W * H];
   CHECK_CUDA(cudaMalloc(&drd, sizeof(hrd)));
   CHECK_CUDA(cudaMalloc(&drdf, sizeof(hrdf)));
   k_surf<<<dim3(1, H), 32>>>(s, sf, W, H, drd, drdf);
   k_surf_read<<<dim3(1, H), 32>>>(s, sf, W, H, drd, drdf);
   CHECK_CUDA(cudaMemcpy(hrd, drd, sizeof(hrd), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(hrdf, drdf, sizeof(hrdf), cudaMemcpyDeviceToHost));
   static unsigned char back[W * H * 4];
   CHECK_CUDA(cudaMemcpy2DFromArray(back, W * 4, as, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
   uint32_t gs[W * H], ws[W * H], gb[W * H], g2[2 * H], w2[2 * H];
   float gsf[W * H * 4], wsf[W * H * 4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         uchar4 v = make_uchar4(x, y, x + y, 255 - x);
         memcpy(&ws[y * W + x], &v, 4);
         memcpy(&gs[y * W + x], &hrd[y * W + x], 4);
         memcpy(&gb[y * W + x], &back[(y * W + x) * 4], 4);
         float4 f = make_float4(x * 0.5f, y, -x, 1.0f / (x + 1));
         memcpy(&wsf[(y * W + x) * 4], &f, 16);
         memcpy(&gsf[(y * W + x) * 4], &hrdf[y * W + x], 16);
      }
   for (int y = 0; y < H; y++) {
      w2[2 * y] = 0;
      w2[2 * y + 1] = ws[y * W + W - 1];
      memcpy(&g2[2 * y], &hrd[W * H + 2 * y], 8);
   }
   CHECK_ARRAY_U32("surf2Dread after surf2Dwrite (uchar4)", gs, ws, W * H);
   CHECK_ARRAY_F32("surf2Dread after surf2Dwrite (float4)", gsf, wsf, W * H * 4);
   CHECK_ARRAY_U32("cudaMemcpy2DFromArray of the surface", gb, ws, W * H);
   CHECK_ARRAY_U32("surf2Dread out of range: zero, clamp", g2, w2, 2 * H);
   CHECK_CUDA(cudaDestroySurfaceObject(sf));

   CHECK_CUDA(cudaFreeArray(af4));
   CHECK_CUDA(cudaFreeArray(au4));
   CHECK_CUDA(cudaFreeArray(asf));
   CHECK_CUDA(cudaFreeArray(anos));
   cudaFree(dp);
   cudaFree(d1);
   cudaFree(du);
   cudaFree(drdf);
   cudaFree(dcoords);
   /* last, the error is sticky: a read outside in the trap mode (the
    * array `as` is kept for it) */
   k_surf_trap<<<1, 1>>>(s, drd);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
   return check_end();
}
