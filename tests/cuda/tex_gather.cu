/*
 * tex_gather.cu — tex2Dgather (PTX tld4) against a host model: component
 * comp of the four texels of the bilinear footprint, i = floor(x - 0.5),
 * j = floor(y - 0.5) of the coordinate in 1.8 fixed point (a fraction
 * that rounds to 256/256 moves to the next texel, as in linear
 * filtering; an H200 does), returned as (T[i][j+1], T[i+1][j+1], T[i+1][j],
 * T[i][j]) — the order of the PTX ISA's tld4 (the D3D gather4 order),
 * each texel through the address modes (border: the border colour's
 * component):
 *
 *  - a float4 array made with cudaArrayTextureGather, every component,
 *    unnormalised coordinates with clamp and border, normalised with wrap
 *    and mirror, with point and linear filter modes (a gather ignores the
 *    filter mode);
 *  - a uchar4 array read as normalised floats (v / 255) and as integers
 *    (tex2Dgather<uchar4>);
 *  - cudaDevAttrTexture2DGather... limits of an H200, refused beyond; the
 *    flag on a 1-D or layered array is refused.
 */
#include "tex_model.h"

#include <math.h>

#define W 7
#define H 5
#define NC 40

__global__ void k_gather(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      for (int comp = 0; comp < 4; comp++)
         out[4 * i + comp] = tex2Dgather<float4>(t, c[i].x, c[i].y, comp);
}

__global__ void k_gather_u4(cudaTextureObject_t t, const float2 *c, uchar4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      for (int comp = 0; comp < 4; comp++)
         out[4 * i + comp] = tex2Dgather<uchar4>(t, c[i].x, c[i].y, comp);
}

typedef struct tex_model {
   int w, h;
   const float *texels;   /* h * w * 4 */
   int addr;
   bool norm;
   float border[4];
} tex_model;

static bool model_index(const tex_model *m, int n, int *i) { return tex_model_index(m->addr, m->norm, n, i); }

static float model_texel(const tex_model *m, int x, int y, int comp)
{
   bool in = model_index(m, m->w, &x);
   in = model_index(m, m->h, &y) && in;
   return in ? m->texels[(y * m->w + x) * 4 + comp] : m->border[comp];
}

static void model_gather(const tex_model *m, float cx, float cy, int comp, float out[4])
{
   int i, j;
   tex_model_gather_origin(m->norm ? cx * m->w : cx, m->norm ? cy * m->h : cy, &i, &j);
   out[0] = model_texel(m, i, j + 1, comp);
   out[1] = model_texel(m, i + 1, j + 1, comp);
   out[2] = model_texel(m, i + 1, j, comp);
   out[3] = model_texel(m, i, j, comp);
}

static float2 coords[NC];
static float2 *dcoords;

static void make_coords(bool norm)
{
   static const float xs[] = { -2.2f, -0.5f, 0.0f, 0.3f, 0.5f, 0.8f, 1.0f, 1.4f, 2.5f, 3.1f,
                               4.99f, 5.0f, 5.5f, 6.2f, 6.5f, 6.9f, 7.0f, 7.6f, 11.0f, -7.3f };
   for (int k = 0; k < NC; k++) {
      float x = xs[k % 20] + 0.013f * k, y = xs[(k * 7 + 3) % 20] * H / (float)W + 0.019f * k;
      coords[k] = norm ? make_float2(x / W - 0.3f, y / H + 0.2f) : make_float2(x, y);
   }
   cudaMemcpy(dcoords, coords, sizeof(coords), cudaMemcpyHostToDevice);
}

static cudaTextureObject_t make_tex(cudaArray_t a, int addr, bool linear, bool norm, cudaTextureReadMode rm,
                                    const float *border)
{
   return tex_model_object(a, addr, addr, linear, norm, rm, border);
}

static void run_case(const char *what, cudaTextureObject_t t, const tex_model *m)
{
   float4 *dout, out[NC * 4];
   static float got[NC * 16], want[NC * 16];
   CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
   k_gather<<<1, 64>>>(t, dcoords, dout, NC);
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   cudaFree(dout);
   for (int k = 0; k < NC; k++)
      for (int comp = 0; comp < 4; comp++) {
         memcpy(&got[16 * k + 4 * comp], &out[4 * k + comp], 16);
         model_gather(m, coords[k].x, coords[k].y, comp, &want[16 * k + 4 * comp]);
      }
   CHECK_ARRAY_F32(what, got, want, NC * 16);
}

int main(void)
{
   check_begin("tex_gather");
   CHECK_CUDA(cudaMalloc(&dcoords, sizeof(coords)));
   int v = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture2DGatherWidth, 0));
   CHECK_INT(v, 32768);
   CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture2DGatherHeight, 0));
   CHECK_INT(v, 32768);

   static float f4[W * H * 4];
   for (int i = 0; i < W * H * 4; i++)
      f4[i] = (float)((i * 11 + (i >> 2) * 3) % 23) - 7.5f;
   cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
   cudaArray_t a;
   CHECK_CUDA(cudaMallocArray(&a, &cf4, W, H, cudaArrayTextureGather));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, f4, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   unsigned fl = 0;
   CHECK_CUDA(cudaArrayGetInfo(NULL, NULL, &fl, a));
   CHECK_INT(fl, cudaArrayTextureGather);
   static const float border[4] = { 100.0f, -200.0f, 300.5f, -0.25f };
   static const struct { const char *what; int addr; bool linear, norm; } cases[] = {
      { "tex2Dgather<float4> clamp, point", cudaAddressModeClamp, false, false },
      { "tex2Dgather<float4> clamp, linear", cudaAddressModeClamp, true, false },
      { "tex2Dgather<float4> border", cudaAddressModeBorder, false, false },
      { "tex2Dgather<float4> normalised, wrap", cudaAddressModeWrap, true, true },
      { "tex2Dgather<float4> normalised, mirror", cudaAddressModeMirror, false, true },
      { "tex2Dgather<float4> normalised, border", cudaAddressModeBorder, true, true },
   };
   for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      make_coords(cases[c].norm);
      tex_model m = { W, H, f4, cases[c].addr, cases[c].norm, { 0 } };
      memcpy(m.border, border, sizeof(border));
      cudaTextureObject_t t = make_tex(a, cases[c].addr, cases[c].linear, cases[c].norm, cudaReadModeElementType,
                                       border);
      run_case(cases[c].what, t, &m);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFreeArray(a));

   /* uchar4: normalised floats and integers */
   {
      static unsigned char u4[W * H * 4];
      static float n4[W * H * 4];
      for (int i = 0; i < W * H * 4; i++) {
         u4[i] = (unsigned char)(i * 37 + 11);
         n4[i] = u4[i] / 255.0f;
      }
      cudaChannelFormatDesc cu4 = cudaCreateChannelDesc<uchar4>();
      CHECK_CUDA(cudaMallocArray(&a, &cu4, W, H, cudaArrayTextureGather));
      CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, u4, W * 4, W * 4, H, cudaMemcpyHostToDevice));
      make_coords(false);
      tex_model m = { W, H, n4, cudaAddressModeClamp, false, { 0 } };
      cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, true, false, cudaReadModeNormalizedFloat, NULL);
      run_case("tex2Dgather<float4> of uchar4, normalised float", t, &m);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      t = make_tex(a, cudaAddressModeClamp, false, false, cudaReadModeElementType, NULL);
      uchar4 *dout, out[NC * 4];
      CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
      k_gather_u4<<<1, 64>>>(t, dcoords, dout, NC);
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
      static float fu[W * H * 4];
      for (int i = 0; i < W * H * 4; i++)
         fu[i] = u4[i];
      m.texels = fu;
      static uint32_t got[NC * 16], want[NC * 16];
      for (int k = 0; k < NC; k++)
         for (int comp = 0; comp < 4; comp++) {
            float w[4];
            model_gather(&m, coords[k].x, coords[k].y, comp, w);
            const unsigned char *g = (const unsigned char *)&out[4 * k + comp];
            for (int q = 0; q < 4; q++) {
               got[16 * k + 4 * comp + q] = g[q];
               want[16 * k + 4 * comp + q] = (uint32_t)w[q];
            }
         }
      CHECK_ARRAY_U32("tex2Dgather<uchar4>", got, want, NC * 16);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(a));
      cudaFree(dout);
   }

   /* the limits */
   {
      cudaChannelFormatDesc c1 = cudaCreateChannelDesc<unsigned char>();
      CHECK_ERR(cudaMallocArray(&a, &c1, 32769, 16, cudaArrayTextureGather), cudaErrorInvalidValue);
      CHECK_ERR(cudaMallocArray(&a, &c1, 16, 32769, cudaArrayTextureGather), cudaErrorInvalidValue);
      CHECK_ERR(cudaMallocArray(&a, &c1, 16, 0, cudaArrayTextureGather), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 16, 2), cudaArrayTextureGather | cudaArrayLayered),
                cudaErrorInvalidValue);
      CHECK_CUDA(cudaMallocArray(&a, &c1, 32768, 32768, cudaArrayTextureGather));
      CHECK_CUDA(cudaFreeArray(a));
      cudaGetLastError();
   }
   cudaFree(dcoords);
   return check_end();
}
