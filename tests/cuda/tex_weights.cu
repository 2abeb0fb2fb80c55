/*
 * tex_weights.cu — linear filtering of plain (not mipmapped) 1-D, 2-D and
 * 3-D float arrays at coordinates whose fractions tie (9 fraction bits)
 * and at random ones, against a host model of the H200's weights:
 *  - a coordinate in texels (a normalised one times the size) less half a
 *    texel, x - 0.5 = i + f: the texels i and i + 1 along each axis with the
 *    fraction a = f * 256 rounded half up (a tie rounds up: 0.5/256 reads
 *    1/256, 1.5/256 reads 2/256; cudaReadModeElementType);
 *  - the corners' weights, in 1/256, sum to exactly 1: split along z, then
 *    x, then y, each split rounding one share half up
 *    (tex_model_corner_weight in tex_model.h); in 2-D that is ab rounded
 *    once and 1 - a - b + ab, a - ab, b - ab; in 3-D it is not the
 *    product of the three axes' weights rounded (that differs for about 60
 *    % of random points);
 *  - the fraction rounding to 256 moves on to the next texel (a = 0);
 *  - in the clamp mode, and in wrap and mirror with unnormalised
 *    coordinates (which clamp), x - 0.5 itself is clamped to [0, size - 1]
 *    (in 3-D this changes the weights' rounding; in 1-D and 2-D it cannot
 *    show);
 *  - the address modes as tex_model_index, the border colour 0;
 *  - a 1-D texture (not a layered one) whose second address mode is
 *    border reads as a 2-D one of height 1 at y = 0: half a texel above its
 *    row, so half the weight goes to the border colour.
 * The data are multiples of 1/256 and the coordinates on a 2^-16 (normalised)
 * or 2^-12 (unnormalised) grid, so every weighted sum is exact in float and
 * x - 0.5 is exact.  Found with probes on an H200 (tests/cuda/NATIVE.md,
 * "mip3d": 65 536 3-D and 65 536 1-D/2-D fetches of textures whose texels
 * read back each corner's weight), then this program natively (whose
 * first run found the move on at 256, the clamped x - 0.5 and the 1-D
 * border rule).
 */
#include "tex_model.h"

#include <math.h>

struct In {
   float x, y, z;
};

__global__ void fetch(cudaTextureObject_t t, int dims, const In *in, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   In p = in[i];
   out[i] = dims == 1 ? tex1D<float>(t, p.x) : dims == 2 ? tex2D<float>(t, p.x, p.y) : tex3D<float>(t, p.x, p.y, p.z);
}

/* The model: one fetch at (x, y, z) of the w x h x d texels v. */
static float model(const float *v, const int *n, int dims, int addr, bool norm, const float *c0)
{
   int p[3] = { 0, 0, 0 }, a[3] = { 0, 0, 0 };
   float c[3] = { c0[0], c0[1], c0[2] };
   if (dims == 1 && addr == cudaAddressModeBorder)
      dims = 2, c[1] = 0;   /* height 1 at y = 0: half the weight on the border */
   bool clamp_pos = addr == cudaAddressModeClamp || (!norm && addr != cudaAddressModeBorder);
   for (int k = 0; k < dims; k++) {
      double b = (norm ? (double)c[k] * n[k] : (double)c[k]) - 0.5;
      if (clamp_pos)
         b = b < 0 ? 0 : b > n[k] - 1 ? n[k] - 1 : b;
      double f = floor(b), fr = (b - f) * 256.0, fi = floor(fr);
      p[k] = (int)f;
      a[k] = (int)fi + (fr - fi >= 0.5 ? 1 : 0);
      if (a[k] == 256)
         a[k] = 0, p[k]++;
   }
   double acc = 0;
   for (int cn = 0; cn < 1 << dims; cn++) {
      int q[3] = { p[0] + (cn & 1), p[1] + (cn >> 1 & 1), p[2] + (cn >> 2 & 1) };
      bool in = true;
      for (int k = 0; k < 3; k++)
         if (k >= dims)
            q[k] = 0;
         else
            in = tex_model_index(addr, norm, n[k], &q[k]) && in;
      if (in)
         acc += tex_model_corner_weight(a, 256, dims, cn) / 256.0 * v[((size_t)q[2] * n[1] + q[1]) * n[0] + q[0]];
   }
   return (float)acc;
}

/* A coordinate along an axis of n texels: normalised ones on a 2^-16 grid
 * in [-0.2, 1.2), unnormalised ones on a 2^-12 grid in [-3, n + 3); a tie
 * (texel + 1/2 + (k + 1/2)/256) one time in two. */
static float coord(int n, bool norm, bool tie)
{
   double x;
   if (tie)
      x = floor(tex_model_urand() * (n + 2)) - 1 + 0.5 + (floor(tex_model_urand() * 256) + 0.5) / 256.0;
   else
      x = norm ? floor((tex_model_urand() * 1.4 - 0.2) * n * 4096.0) / 4096.0
               : floor((tex_model_urand() * (n + 6) - 3) * 4096.0) / 4096.0;
   return (float)(norm ? x / n : x);
}

static void checks(int w, int h, int d, int dims)
{
   enum { N = 4000 };
   int n[3] = { w, h, d };
   size_t count = (size_t)w * h * d;
   float *v = (float *)malloc(count * sizeof(float));
   for (size_t i = 0; i < count; i++)
      v[i] = (float)(int)(tex_model_urand() * 256) / 256.0f;
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaArray_t a = NULL;
   CHECK_CUDA(cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, dims >= 2 ? h : 0, dims == 3 ? d : 0), 0));
   tex_model_copy3d(a, v, w * sizeof(float), w, h, d, true);
   In *in = (In *)malloc(N * sizeof(In)), *d_in = NULL;
   float *want = (float *)malloc(N * sizeof(float)), *got = (float *)malloc(N * sizeof(float)), *d_out = NULL;
   CHECK_CUDA(cudaMalloc(&d_in, N * sizeof(In)));
   CHECK_CUDA(cudaMalloc(&d_out, N * sizeof(float)));
   const struct { int addr; bool norm; } modes[] = {
      { cudaAddressModeWrap, true }, { cudaAddressModeMirror, true }, { cudaAddressModeBorder, true },
      { cudaAddressModeClamp, true }, { cudaAddressModeClamp, false }, { cudaAddressModeBorder, false },
      { cudaAddressModeWrap, false }, { cudaAddressModeMirror, false },
   };
   for (unsigned j = 0; j < sizeof(modes) / sizeof(modes[0]); j++) {
      cudaResourceDesc rd;
      memset(&rd, 0, sizeof(rd));
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = a;
      cudaTextureDesc td;
      memset(&td, 0, sizeof(td));
      for (int k = 0; k < 3; k++)
         td.addressMode[k] = (cudaTextureAddressMode)modes[j].addr;
      td.filterMode = cudaFilterModeLinear;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = modes[j].norm;
      cudaTextureObject_t t = 0;
      CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL));
      for (int i = 0; i < N; i++) {
         bool tie = i & 1;
         float c[3] = { 0, 0, 0 };
         for (int k = 0; k < dims; k++)
            c[k] = coord(n[k], modes[j].norm, tie);
         in[i] = (In){ c[0], c[1], c[2] };
         want[i] = model(v, n, dims, modes[j].addr, modes[j].norm, c);
      }
      fill_u32(got, N, SENTINEL32);
      CHECK_CUDA(cudaMemcpy(d_out, got, N * sizeof(float), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(d_in, in, N * sizeof(In), cudaMemcpyHostToDevice));
      fetch<<<(N + 127) / 128, 128>>>(t, dims, d_in, d_out, N);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
      int bad = 0;
      for (int i = 0; i < N; i++)
         if (f32_bits(got[i]) != f32_bits(want[i]) && bad++ < 4)
            printf("  #%d (%a, %a, %a): got %a, model %a\n", i, in[i].x, in[i].y, in[i].z, got[i], want[i]);
      char what[96];
      snprintf(what, sizeof(what), "tex%dD %dx%dx%d, mode %d, %s", dims, w, dims > 1 ? h : 0, dims > 2 ? d : 0,
               modes[j].addr, modes[j].norm ? "normalised" : "unnormalised");
      if (!check_true(bad == 0, what, __FILE__, __LINE__))
         printf("  %s: %d of %d fetches differ\n", what, bad, N);
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFree(d_in));
   CHECK_CUDA(cudaFree(d_out));
   CHECK_CUDA(cudaFreeArray(a));
   free(in);
   free(want);
   free(got);
   free(v);
}

__global__ void fetch1(cudaTextureObject_t t, bool layered, float x, float *out)
{
   *out = layered ? tex1DLayered<float>(t, x, 1) : tex1D<float>(t, x);
}

/* Which address mode puts half the weight of a 1-D fetch on the border:
 * the second (y), whatever the first, and not on a layered texture (an
 * H200: texels 1, border colour 0.25, fetched at the middle). */
static void border_axis_checks(void)
{
   float h[64 * 3];
   for (int i = 0; i < 64 * 3; i++)
      h[i] = 1.0f;
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaArray_t a[2] = { NULL, NULL };
   CHECK_CUDA(cudaMalloc3DArray(&a[0], &cd, make_cudaExtent(64, 0, 0), 0));
   CHECK_CUDA(cudaMalloc3DArray(&a[1], &cd, make_cudaExtent(64, 0, 3), cudaArrayLayered));
   tex_model_copy3d(a[0], h, 64 * sizeof(float), 64, 1, 1, true);
   tex_model_copy3d(a[1], h, 64 * sizeof(float), 64, 1, 3, true);
   float *d_out = NULL;
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(float)));
   const struct { int modes[3]; bool layered; float want; } cases[] = {
      { { cudaAddressModeBorder, cudaAddressModeClamp, cudaAddressModeClamp }, false, 1.0f },
      { { cudaAddressModeClamp, cudaAddressModeBorder, cudaAddressModeClamp }, false, 0.625f },
      { { cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeBorder }, false, 1.0f },
      { { cudaAddressModeWrap, cudaAddressModeBorder, cudaAddressModeWrap }, false, 0.625f },
      { { cudaAddressModeBorder, cudaAddressModeBorder, cudaAddressModeBorder }, true, 1.0f },
   };
   for (unsigned j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
      for (int norm = 0; norm < 2; norm++) {
         cudaResourceDesc rd;
         memset(&rd, 0, sizeof(rd));
         rd.resType = cudaResourceTypeArray;
         rd.res.array.array = a[cases[j].layered];
         cudaTextureDesc td;
         memset(&td, 0, sizeof(td));
         for (int k = 0; k < 3; k++)
            td.addressMode[k] = (cudaTextureAddressMode)cases[j].modes[k];
         td.filterMode = cudaFilterModeLinear;
         td.readMode = cudaReadModeElementType;
         td.normalizedCoords = norm;
         td.borderColor[0] = 0.25f;
         cudaTextureObject_t t = 0;
         float got = -1;
         if (CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL))) {
            fetch1<<<1, 1>>>(t, cases[j].layered, norm ? 0.5f : 32.0f, d_out);
            CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaDestroyTextureObject(t));
         }
         CHECK_F32(got, cases[j].want);
      }
   CHECK_CUDA(cudaFree(d_out));
   CHECK_CUDA(cudaFreeArray(a[0]));
   CHECK_CUDA(cudaFreeArray(a[1]));
}

int main(void)
{
   check_begin("tex_weights");
   CHECK_CUDA(cudaSetDevice(0));
   checks(64, 1, 1, 1);
   checks(16, 16, 1, 2);
   checks(32, 8, 1, 2);
   checks(16, 16, 16, 3);
   checks(8, 4, 16, 3);
   border_axis_checks();
   return check_end();
}
