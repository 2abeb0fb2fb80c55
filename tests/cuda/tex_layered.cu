/*
 * tex_layered.cu — layered CUDA arrays (cudaArrayLayered: 1-D and 2-D
 * arrays of layers) against a host model of the CUDA C++ Programming
 * Guide's "Texture Fetching" appendix (the model tex2d.cu checks on an
 * H200: linear weights a, b in 1.8 fixed point; in 2-D the product a*b
 * rounded to 1/256 (half up) and the corners weighted 1 - a - b + ab,
 * a - ab, b - ab, ab, so that they sum to 1 — tex2d.cu's model, which
 * rounds each corner's product alone, differs only at ties, two of which
 * this program's coordinates hit on an H200; integer-valued texels, so
 * every sum is exact):
 *
 *  - cudaMalloc3DArray with cudaArrayLayered, 2-D (extent {w, h, layers})
 *    and 1-D ({w, 0, layers}); cudaMemcpy3D in and out with the layers as
 *    the depth; cudaArrayGetInfo;
 *  - tex2DLayered<float4> (point/clamp, linear/border, normalised
 *    coordinates with wrap and linear filtering), tex1DLayered<float2>
 *    (linear, clamp), tex2DLayered<int> read as integers; the layer is
 *    unsigned and clamped to the last one (-1 and layers + 2 both read the
 *    last layer on an H200);
 *  - surf2DLayeredwrite/read (uchar4) and surf1DLayeredwrite/read (float),
 *    the zero boundary mode outside, the clamp mode on the layer (-1 and
 *    layers + 3 read the last layer), read back with cudaMemcpy3D;
 *  - the limits an H200 reports (maxTexture1DLayered, maxTexture2DLayered,
 *    maxSurface1DLayered, maxSurface2DLayered) and refuses beyond.
 */
#include "tex_model.h"

#include <math.h>

#define W 9
#define H 5
#define L 4
#define NC 48
#define W1 11
#define L1 3

__global__ void k_fetch2dl(cudaTextureObject_t t, const float4 *c, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2DLayered<float4>(t, c[i].x, c[i].y, (int)c[i].z);
}

__global__ void k_fetch2dl_i(cudaTextureObject_t t, const float4 *c, int *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2DLayered<int>(t, c[i].x, c[i].y, (int)c[i].z);
}

__global__ void k_fetch1dl(cudaTextureObject_t t, const float4 *c, float2 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex1DLayered<float2>(t, c[i].x, (int)c[i].z);
}

__global__ void k_surf(cudaSurfaceObject_t s2, cudaSurfaceObject_t s1)
{
   int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
   if (x < W && y < H)
      surf2DLayeredwrite(make_uchar4(x, y, l, 200 - x - y * l), s2, x * 4, y, l);
   if (y == 0 && x < W1 && l < L1)
      surf1DLayeredwrite(x * 0.25f - l, s1, x * 4, l);
   /* outside, the zero mode drops the store */
   surf2DLayeredwrite(make_uchar4(9, 9, 9, 9), s2, (W + 2) * 4, 0, l, cudaBoundaryModeZero);
}

__global__ void k_surf_read(cudaSurfaceObject_t s2, cudaSurfaceObject_t s1, uchar4 *o2, float *o1)
{
   int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
   if (x < W && y < H)
      o2[(l * H + y) * W + x] = surf2DLayeredread<uchar4>(s2, x * 4, y, l);
   if (y == 0 && x < W1 && l < L1)
      o1[l * W1 + x] = surf1DLayeredread<float>(s1, x * 4, l);
   if (x == 0 && y == 0 && l == 0) {
      o2[W * H * L] = surf2DLayeredread<uchar4>(s2, -4, 0, 1, cudaBoundaryModeZero);
      o2[W * H * L + 1] = surf2DLayeredread<uchar4>(s2, 0, H, 1, cudaBoundaryModeZero);
      /* the clamp mode: an unsigned layer, so -1 is the last too */
      o2[W * H * L + 2] = surf2DLayeredread<uchar4>(s2, 4, 1, L + 3, cudaBoundaryModeClamp);
      o2[W * H * L + 3] = surf2DLayeredread<uchar4>(s2, 4, 1, -1, cudaBoundaryModeClamp);
      o2[W * H * L + 4] = surf2DLayeredread<uchar4>(s2, 4, 1, -1, cudaBoundaryModeZero);
      o1[W1 * L1] = surf1DLayeredread<float>(s1, W1 * 4, 0, cudaBoundaryModeZero);
   }
}

/* ---- the host model (2-D; a 1-D texture is h == 1 with y at 0.5) ---- */

typedef struct tex_model {
   int w, h, layers, nchan, dims;
   const float *texels;   /* layers * h * w * nchan */
   int addr[2];
   bool linear, norm;
   float border[4];
} tex_model;

static bool model_index(const tex_model *m, int d, int *i)
{
   return tex_model_index(m->addr[d], m->norm, d ? m->h : m->w, i);
}

static void model_texel(const tex_model *m, int l, int x, int y, float v[4])
{
   bool in = model_index(m, 0, &x);
   if (m->dims > 1)
      in = model_index(m, 1, &y) && in;
   for (int k = 0; k < 4; k++)
      v[k] = !in ? m->border[k] : k < m->nchan ? m->texels[((l * m->h + y) * m->w + x) * m->nchan + k] : 0.0f;
}

static void model_fetch(const tex_model *m, float cx, float cy, int layer, float out[4])
{
   /* the layer is unsigned, clamped to the last (an H200: -1 reads the last) */
   int l = (unsigned)layer >= (unsigned)m->layers ? m->layers - 1 : layer;
   float x = m->norm ? cx * m->w : cx, y = m->dims == 1 ? 0.5f : m->norm ? cy * m->h : cy;
   if (!m->linear) {
      model_texel(m, l, (int)floorf(x), (int)floorf(y), out);
      return;
   }
   float xb = x - 0.5f, yb = y - 0.5f, fx = floorf(xb), fy = floorf(yb);
   int a = (int)rintf((xb - fx) * 256.0f), b = (int)rintf((yb - fy) * 256.0f);
   int i = (int)fx, j = (int)fy;
   float t00[4], t10[4], t01[4], t11[4];
   model_texel(m, l, i, j, t00);
   model_texel(m, l, i + 1, j, t10);
   if (m->dims == 1) {
      for (int k = 0; k < 4; k++)
         out[k] = (256 - a) / 256.0f * t00[k] + a / 256.0f * t10[k];
      return;
   }
   int ab = (a * b + 128) >> 8;
   float w00 = (256 - a - b + ab) / 256.0f, w10 = (a - ab) / 256.0f, w01 = (b - ab) / 256.0f, w11 = ab / 256.0f;
   model_texel(m, l, i, j + 1, t01);
   model_texel(m, l, i + 1, j + 1, t11);
   for (int k = 0; k < 4; k++)
      out[k] = w00 * t00[k] + w10 * t10[k] + w01 * t01[k] + w11 * t11[k];
}

static float4 coords[NC];
static float4 *dcoords;

static void make_coords(bool norm, int w, int h, int layers)
{
   static const float xs[] = { -2.2f, -0.5f, 0.0f, 0.3f, 0.5f, 0.8f, 1.0f, 1.4f, 2.5f, 3.1f,
                               4.99f, 5.0f, 6.7f, 8.5f, 8.9f, 9.0f, 9.6f, 12.0f };
   for (int k = 0; k < NC; k++) {
      float x = xs[k % 18] + 0.017f * k, y = xs[(k * 5 + 2) % 18] * h / (float)w + 0.023f * k;
      int l = k % 7 == 6 ? (k % 2 ? -1 : layers + 2) : k % layers;
      coords[k] = norm ? make_float4(x / w - 0.2f, y / h + 0.15f, (float)l, 0) : make_float4(x, y, (float)l, 0);
   }
   cudaMemcpy(dcoords, coords, sizeof(coords), cudaMemcpyHostToDevice);
}

static cudaTextureObject_t make_tex(cudaArray_t a, int addr, bool linear, bool norm, cudaTextureReadMode rm,
                                    const float *border)
{
   return tex_model_object(a, addr, addr, linear, norm, rm, border);
}

static void run_2d(const char *what, cudaTextureObject_t t, const tex_model *m)
{
   float4 *dout, out[NC];
   float got[NC * 4], want[NC * 4];
   CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
   k_fetch2dl<<<1, 64>>>(t, dcoords, dout, NC);
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   cudaFree(dout);
   for (int k = 0; k < NC; k++) {
      memcpy(&got[4 * k], &out[k], 16);
      model_fetch(m, coords[k].x, coords[k].y, (int)coords[k].z, &want[4 * k]);
   }
   CHECK_ARRAY_F32(what, got, want, NC * 4);
}

#define copy3d tex_model_copy3d

int main(void)
{
   check_begin("tex_layered");
   CHECK_CUDA(cudaMalloc(&dcoords, sizeof(coords)));

   /* device attributes (an H200's) */
   static const struct { cudaDeviceAttr a; int v; } attrs[] = {
      { cudaDevAttrMaxTexture2DLayeredWidth, 32768 },  { cudaDevAttrMaxTexture2DLayeredHeight, 32768 },
      { cudaDevAttrMaxTexture2DLayeredLayers, 2048 },  { cudaDevAttrMaxTexture1DLayeredWidth, 32768 },
      { cudaDevAttrMaxTexture1DLayeredLayers, 2048 },  { cudaDevAttrMaxSurface2DLayeredWidth, 32768 },
      { cudaDevAttrMaxSurface2DLayeredHeight, 32768 }, { cudaDevAttrMaxSurface2DLayeredLayers, 2048 },
      { cudaDevAttrMaxSurface1DLayeredWidth, 32768 },  { cudaDevAttrMaxSurface1DLayeredLayers, 2048 },
   };
   for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
      int v = -1;
      CHECK_CUDA(cudaDeviceGetAttribute(&v, attrs[k].a, 0));
      CHECK_INT(v, attrs[k].v);
   }

   /* a 2-D layered float4 array of small integers */
   static float f4[W * H * L * 4], b4[W * H * L * 4];
   for (int i = 0; i < W * H * L * 4; i++)
      f4[i] = (float)((i * 7 + (i >> 2) * 5 + (i / (W * H * 4)) * 3) % 19) - 5.0f;
   cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
   cudaArray_t a2;
   CHECK_CUDA(cudaMalloc3DArray(&a2, &cf4, make_cudaExtent(W, H, L), cudaArrayLayered));
   copy3d(a2, f4, W * 16, W, H, L, true);
   copy3d(a2, b4, W * 16, W, H, L, false);
   CHECK_ARRAY_F32("cudaMemcpy3D to and from a 2-D layered array", b4, f4, W * H * L * 4);
   cudaExtent e;
   unsigned fl = 99;
   CHECK_CUDA(cudaArrayGetInfo(NULL, &e, &fl, a2));
   CHECK_INT(e.width, W);
   CHECK_INT(e.height, H);
   CHECK_INT(e.depth, L);
   CHECK_INT(fl, cudaArrayLayered);

   tex_model m = { W, H, L, 4, 2, f4, { cudaAddressModeClamp, cudaAddressModeClamp }, false, false, { 0 } };
   make_coords(false, W, H, L);
   cudaTextureObject_t t = make_tex(a2, cudaAddressModeClamp, false, false, cudaReadModeElementType, NULL);
   run_2d("tex2DLayered point, clamp", t, &m);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   static const float border[4] = { 0.5f, -2.0f, 7.0f, 1.0f };
   t = make_tex(a2, cudaAddressModeBorder, true, false, cudaReadModeElementType, border);
   m.linear = true;
   m.addr[0] = m.addr[1] = cudaAddressModeBorder;
   memcpy(m.border, border, sizeof(border));
   run_2d("tex2DLayered linear, border", t, &m);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   make_coords(true, W, H, L);
   t = make_tex(a2, cudaAddressModeWrap, true, true, cudaReadModeElementType, NULL);
   m.norm = true;
   m.addr[0] = m.addr[1] = cudaAddressModeWrap;
   run_2d("tex2DLayered linear, normalised, wrap", t, &m);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a2));

   /* int, read as integers */
   {
      static int iv[W * H * L];
      static float fv[W * H * L];
      for (int i = 0; i < W * H * L; i++)
         fv[i] = (float)(iv[i] = (i * 37) % 1001 - 500);
      cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
      cudaArray_t ai;
      CHECK_CUDA(cudaMalloc3DArray(&ai, &ci, make_cudaExtent(W, H, L), cudaArrayLayered));
      copy3d(ai, iv, W * 4, W, H, L, true);
      make_coords(false, W, H, L);
      t = make_tex(ai, cudaAddressModeClamp, false, false, cudaReadModeElementType, NULL);
      int *dout, got[NC], want[NC];
      CHECK_CUDA(cudaMalloc(&dout, sizeof(got)));
      k_fetch2dl_i<<<1, 64>>>(t, dcoords, dout, NC);
      CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
      tex_model mi = { W, H, L, 1, 2, fv, { cudaAddressModeClamp, cudaAddressModeClamp }, false, false, { 0 } };
      for (int k = 0; k < NC; k++) {
         float v[4];
         model_fetch(&mi, coords[k].x, coords[k].y, (int)coords[k].z, v);
         want[k] = (int)v[0];
      }
      CHECK_ARRAY_I32("tex2DLayered<int> point, clamp", got, want, NC);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(ai));
      cudaFree(dout);
   }

   /* a 1-D layered float2 array */
   {
      static float f2[W1 * L1 * 2], b2[W1 * L1 * 2];
      for (int i = 0; i < W1 * L1 * 2; i++)
         f2[i] = (float)((i * 5 + 3) % 13) - 6.0f;
      cudaChannelFormatDesc c2 = cudaCreateChannelDesc<float2>();
      cudaArray_t a1;
      CHECK_CUDA(cudaMalloc3DArray(&a1, &c2, make_cudaExtent(W1, 0, L1), cudaArrayLayered));
      copy3d(a1, f2, W1 * 8, W1, 1, L1, true);
      copy3d(a1, b2, W1 * 8, W1, 1, L1, false);
      CHECK_ARRAY_F32("cudaMemcpy3D to and from a 1-D layered array", b2, f2, W1 * L1 * 2);
      CHECK_CUDA(cudaArrayGetInfo(NULL, &e, &fl, a1));
      CHECK_INT(e.width, W1);
      CHECK_INT(e.height, 0);
      CHECK_INT(e.depth, L1);
      make_coords(false, W1, 1, L1);
      t = make_tex(a1, cudaAddressModeClamp, true, false, cudaReadModeElementType, NULL);
      float2 *dout, out[NC];
      CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
      k_fetch1dl<<<1, 64>>>(t, dcoords, dout, NC);
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
      tex_model m1 = { W1, 1, L1, 2, 1, f2, { cudaAddressModeClamp, cudaAddressModeClamp }, true, false, { 0 } };
      float got[NC * 2], want[NC * 2];
      for (int k = 0; k < NC; k++) {
         float v[4];
         model_fetch(&m1, coords[k].x, 0, (int)coords[k].z, v);
         memcpy(&want[2 * k], v, 8);
         memcpy(&got[2 * k], &out[k], 8);
      }
      CHECK_ARRAY_F32("tex1DLayered<float2> linear, clamp", got, want, NC * 2);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(a1));
      cudaFree(dout);
   }

   /* surfaces */
   {
      cudaChannelFormatDesc cu4 = cudaCreateChannelDesc<uchar4>(), c1 = cudaCreateChannelDesc<float>();
      cudaArray_t s2a, s1a;
      CHECK_CUDA(cudaMalloc3DArray(&s2a, &cu4, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
      CHECK_CUDA(cudaMalloc3DArray(&s1a, &c1, make_cudaExtent(W1, 0, L1), cudaArrayLayered | cudaArraySurfaceLoadStore));
      cudaResourceDesc rd;
      memset(&rd, 0, sizeof(rd));
      rd.resType = cudaResourceTypeArray;
      cudaSurfaceObject_t s2, s1;
      rd.res.array.array = s2a;
      CHECK_CUDA(cudaCreateSurfaceObject(&s2, &rd));
      rd.res.array.array = s1a;
      CHECK_CUDA(cudaCreateSurfaceObject(&s1, &rd));
      uchar4 *d2;
      float *d1;
      CHECK_CUDA(cudaMalloc(&d2, (W * H * L + 5) * 4));
      CHECK_CUDA(cudaMalloc(&d1, (W1 * L1 + 1) * 4));
      CHECK_CUDA(cudaMemset(d2, 0x77, (W * H * L + 5) * 4));
      CHECK_CUDA(cudaMemset(d1, 0x77, (W1 * L1 + 1) * 4));
      k_surf<<<L, dim3(16, 8)>>>(s2, s1);
      k_surf_read<<<L, dim3(16, 8)>>>(s2, s1, d2, d1);
      static uint32_t g2[W * H * L + 5], w2[W * H * L + 5], bk2[W * H * L];
      static float g1[W1 * L1 + 1], w1[W1 * L1 + 1], bk1[W1 * L1];
      CHECK_CUDA(cudaMemcpy(g2, d2, sizeof(g2), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(g1, d1, sizeof(g1), cudaMemcpyDeviceToHost));
      copy3d(s2a, bk2, W * 4, W, H, L, false);
      copy3d(s1a, bk1, W1 * 4, W1, 1, L1, false);
      for (int l = 0; l < L; l++)
         for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
               uchar4 v = make_uchar4(x, y, l, 200 - x - y * l);
               memcpy(&w2[(l * H + y) * W + x], &v, 4);
            }
      w2[W * H * L] = w2[W * H * L + 1] = w2[W * H * L + 4] = 0;
      w2[W * H * L + 2] = w2[W * H * L + 3] = w2[((L - 1) * H + 1) * W + 1];
      for (int l = 0; l < L1; l++)
         for (int x = 0; x < W1; x++)
            w1[l * W1 + x] = x * 0.25f - l;
      w1[W1 * L1] = 0;
      CHECK_ARRAY_U32("surf2DLayeredread after surf2DLayeredwrite (uchar4; zero and clamp modes outside)", g2,
                      w2, W * H * L + 5);
      CHECK_ARRAY_F32("surf1DLayeredread after surf1DLayeredwrite (float; zero mode outside)", g1, w1,
                      W1 * L1 + 1);
      CHECK_ARRAY_U32("cudaMemcpy3D from the 2-D layered surface", bk2, w2, W * H * L);
      CHECK_ARRAY_F32("cudaMemcpy3D from the 1-D layered surface", bk1, w1, W1 * L1);
      CHECK_CUDA(cudaDestroySurfaceObject(s2));
      CHECK_CUDA(cudaDestroySurfaceObject(s1));
      CHECK_CUDA(cudaFreeArray(s2a));
      CHECK_CUDA(cudaFreeArray(s1a));
      cudaFree(d2);
      cudaFree(d1);
   }

   /* the limits */
   {
      cudaChannelFormatDesc c1 = cudaCreateChannelDesc<unsigned char>();
      cudaArray_t a;
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(32769, 0, 2), cudaArrayLayered), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 0, 2049), cudaArrayLayered), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 32769, 2), cudaArrayLayered), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 16, 2049), cudaArrayLayered), cudaErrorInvalidValue);
      CHECK_CUDA(cudaMalloc3DArray(&a, &c1, make_cudaExtent(32768, 0, 2048), cudaArrayLayered));
      CHECK_CUDA(cudaFreeArray(a));
      CHECK_CUDA(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 32768, 2048), cudaArrayLayered));
      CHECK_CUDA(cudaFreeArray(a));
      cudaGetLastError();
   }
   cudaFree(dcoords);
   return check_end();
}
