/*
 * tex_gather_layered.cu — tld4 on a layered texture (PTX tld4.{r,g,b,a}.a2d,
 * inline PTX: CUDA C++ has no layered gather) against a host model: in the
 * layer given (clamped to the layers, as tex.a2d does), component comp of
 * the four texels of the bilinear footprint, i = floor(x - 0.5),
 * j = floor(y - 0.5) of the coordinate in 1.8 fixed point, returned as
 * (T[i][j+1], T[i+1][j+1], T[i+1][j], T[i][j]) — the PTX ISA's tld4 order,
 * as tex_gather.cu checks for 2-D — each texel through the clamp address
 * mode.  A layered array cannot take cudaArrayTextureGather (an H200
 * refuses the flag: tex_gather.cu), so the array is a plain layered one;
 * so is a 2-D array without the flag read by tex2Dgather, the same
 * instruction on the same kind of memory.
 */
#include "tex_model.h"

enum { W = 7, H = 5, L = 3, NC = 24 };

static float texel(int x, int y, int l, int c)
{
   return (float)(l * 1000 + y * 100 + x * 10 + c) + 0.5f;
}

static const float xs[NC] = { 0.0f,  0.5f, 1.0f, 1.3f,  2.5f, 3.75f, 4.0f,  5.5f,  6.2f,  7.0f, 8.5f,  -1.0f,
                              0.25f, 2.0f, 3.5f, 4.49f, 5.0f, 6.5f,  0.75f, 1.75f, 2.25f, 3.0f, 6.75f, 4.5f };
static const float ys[NC] = { 0.0f, 0.5f, 1.0f,  2.7f, 1.5f, 4.25f, 3.0f, 5.5f, 0.2f, 2.0f, 4.5f, -2.0f,
                              3.5f, 4.0f, 0.75f, 2.5f, 1.0f, 5.0f,  2.0f, 3.0f, 4.9f, 0.5f, 1.5f, 2.25f };
/* layers asked for: in range, and beyond it (a .u32 operand: -1 is 2^32 - 1) */
static const unsigned layers[4] = { 0u, 1u, 2u, 0xffffffffu };

static int clampi(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

static void model(float cx, float cy, unsigned layer, int comp, float out[4])
{
   int l = layer > (unsigned)(L - 1) ? L - 1 : (int)layer, i, j;
   tex_model_gather_origin(cx, cy, &i, &j);
   for (int k = 0; k < 4; k++)
      out[k] = texel(clampi(i + tex_model_gather_di[k], W - 1), clampi(j + tex_model_gather_dj[k], H - 1), l, comp);
}

/* out[((c * 4 + li) * 4 + comp) * 4 + k] */
__global__ void k_gather_a2d(cudaTextureObject_t t, const float *cx, const float *cy, const unsigned *lay, float *out)
{
   int c = threadIdx.x, li = blockIdx.x;
   if (c >= NC)
      return;
   float x = cx[c], y = cy[c], r[4][4];
   unsigned l = lay[li];
   asm("tld4.r.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[0][0]), "=f"(r[0][1]), "=f"(r[0][2]), "=f"(r[0][3]) : "l"(t), "r"(l), "f"(x), "f"(y));
   asm("tld4.g.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[1][0]), "=f"(r[1][1]), "=f"(r[1][2]), "=f"(r[1][3]) : "l"(t), "r"(l), "f"(x), "f"(y));
   asm("tld4.b.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[2][0]), "=f"(r[2][1]), "=f"(r[2][2]), "=f"(r[2][3]) : "l"(t), "r"(l), "f"(x), "f"(y));
   asm("tld4.a.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[3][0]), "=f"(r[3][1]), "=f"(r[3][2]), "=f"(r[3][3]) : "l"(t), "r"(l), "f"(x), "f"(y));
   for (int comp = 0; comp < 4; comp++)
      for (int k = 0; k < 4; k++)
         out[((c * 4 + li) * 4 + comp) * 4 + k] = r[comp][k];
}

/* out[(c * 4 + comp) * 4 + k] */
__global__ void k_gather_2d(cudaTextureObject_t t, const float *cx, const float *cy, float *out)
{
   int c = threadIdx.x;
   if (c >= NC)
      return;
   for (int comp = 0; comp < 4; comp++) {
      float4 v = tex2Dgather<float4>(t, cx[c], cy[c], comp);
      out[(c * 4 + comp) * 4 + 0] = v.x, out[(c * 4 + comp) * 4 + 1] = v.y;
      out[(c * 4 + comp) * 4 + 2] = v.z, out[(c * 4 + comp) * 4 + 3] = v.w;
   }
}

int main(void)
{
   check_begin("tex_gather_layered");
   CHECK_CUDA(cudaSetDevice(0));
   float *dx, *dy, *dout;
   unsigned *dl;
   CHECK_CUDA(cudaMalloc(&dx, sizeof xs));
   CHECK_CUDA(cudaMalloc(&dy, sizeof ys));
   CHECK_CUDA(cudaMalloc(&dl, sizeof layers));
   CHECK_CUDA(cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dy, ys, sizeof ys, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dl, layers, sizeof layers, cudaMemcpyHostToDevice));
   static float got[NC * 4 * 16], want[NC * 4 * 16];
   CHECK_CUDA(cudaMalloc(&dout, sizeof got));

   /* a layered float4 array */
   static float host[L * H * W * 4];
   for (int l = 0; l < L; l++)
      for (int y = 0; y < H; y++)
         for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++)
               host[((l * H + y) * W + x) * 4 + c] = texel(x, y, l, c);
   cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
   cudaArray_t a;
   CHECK_CUDA(cudaMalloc3DArray(&a, &cf4, make_cudaExtent(W, H, L), cudaArrayLayered));
   tex_model_copy3d(a, host, W * 16, W, H, L, true);
   cudaTextureObject_t t = tex_model_point_object(a);
   k_gather_a2d<<<4, 32>>>(t, dx, dy, dl, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
   for (int c = 0; c < NC; c++)
      for (int li = 0; li < 4; li++)
         for (int comp = 0; comp < 4; comp++)
            model(xs[c], ys[c], layers[li], comp, &want[((c * 4 + li) * 4 + comp) * 4]);
   CHECK_ARRAY_F32("tld4.{r,g,b,a}.a2d, layers 0, 1, 2 and 2^32 - 1 (clamped)", got, want, NC * 4 * 16);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));

   /* a 2-D array without cudaArrayTextureGather: layer 0 of the same texels */
   CHECK_CUDA(cudaMallocArray(&a, &cf4, W, H));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, host, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   t = tex_model_point_object(a);
   k_gather_2d<<<1, 32>>>(t, dx, dy, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, NC * 16 * sizeof(float), cudaMemcpyDeviceToHost));
   for (int c = 0; c < NC; c++)
      for (int comp = 0; comp < 4; comp++)
         model(xs[c], ys[c], 0, comp, &want[(c * 4 + comp) * 4]);
   CHECK_ARRAY_F32("tex2Dgather<float4> on a 2-D array without cudaArrayTextureGather", got, want, NC * 16);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));
   cudaFree(dx);
   cudaFree(dy);
   cudaFree(dl);
   cudaFree(dout);
   return check_end();
}
