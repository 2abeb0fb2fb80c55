/*
 * texture.cu — a texture fetch with linear filtering against a plain
 * global-memory load of the same data.
 *
 * 1024 x 1024 float texels in a CUDA array; one thread per output pixel of
 * a 1024 x 1024 grid (blocks of 32 x 8) reads the texture at its pixel
 * centre offset by (0.3, 0.6) texels with bilinear filtering (tex2D<float>,
 * clamp), 4 fetches in a loop per thread at different offsets.  The
 * reference kernel reads the same four positions' nearest texels from the
 * same data in global memory (a cudaMalloc'd copy, one load each).  Time of
 * launch + synchronise, medians of 9 after a warm-up.  On metalcuda every
 * fetch is emulated in the prelude (descriptor read, address modes, four
 * texels, weights in 1.8 fixed point), so the ratio is the price of exact
 * NVIDIA filtering; on an NVIDIA GPU the texture unit does the same work.
 * Ratio: texture time / global-load time, lower is better.  A second row
 * times 4 tex2Dgather (tld4: the four texels of the footprint, no
 * weights) per thread against the same loads.  A third row times 4
 * tex2DLod per thread on a mipmapped 1024 x 1024 array (11 levels, linear
 * filtering within and between levels, normalised coordinates) at lod 0.5
 * (eight texels from levels 0 and 1, their weights split as an H200 splits
 * them) against the same fetches at lod 0 (four texels of level 0), both
 * of the same texture object in the same run.  A fourth row times 4
 * tex2DGrad per thread on the same mipmapped texture with gradients
 * (sqrt(2), 0) and (0, 1/2) texels (lod 0.5, the level of detail computed
 * from them as an H200 does) against 4 tex2DLod at lod 0.5, in the same
 * run.
 */
#include "bench.h"

#define N 1024

__global__ void k_tex(cudaTextureObject_t t, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   float s = 0;
   for (int k = 0; k < 4; k++)
      s += tex2D<float>(t, x + 0.3f + k, y + 0.6f);
   out[y * N + x] = s;
}

__global__ void k_grad(cudaTextureObject_t t, float2 gx, float2 gy, float lod, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   float s = 0;
   for (int k = 0; k < 4; k++) {
      float u = (x + 0.3f + k) * (1.0f / N), v = (y + 0.6f) * (1.0f / N);
      s += lod < 0 ? tex2DGrad<float>(t, u, v, gx, gy) : tex2DLod<float>(t, u, v, lod);
   }
   out[y * N + x] = s;
}

__global__ void k_gather(cudaTextureObject_t t, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   float s = 0;
   for (int k = 0; k < 4; k++) {
      float4 g = tex2Dgather<float4>(t, x + 0.3f + k, y + 0.6f, 0);
      s += g.x + g.y + g.z + g.w;
   }
   out[y * N + x] = s;
}

__global__ void k_lod(cudaTextureObject_t t, float lod, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   float s = 0;
   for (int k = 0; k < 4; k++)
      s += tex2DLod<float>(t, (x + 0.3f + k) * (1.0f / N), (y + 0.6f) * (1.0f / N), lod);
   out[y * N + x] = s;
}

__global__ void k_load(const float *in, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   float s = 0;
   for (int k = 0; k < 4; k++)
      s += in[y * N + min(x + k, N - 1)];
   out[y * N + x] = s;
}

int main()
{
   const int reps = 9;
   print_device();
   float *h = (float *)malloc(N * N * sizeof(float)), *din, *dout;
   for (int i = 0; i < N * N; i++)
      h[i] = (float)(i % 251);
   BENCH_CHECK(cudaMalloc(&din, N * N * sizeof(float)));
   BENCH_CHECK(cudaMalloc(&dout, N * N * sizeof(float)));
   BENCH_CHECK(cudaMemcpy(din, h, N * N * sizeof(float), cudaMemcpyHostToDevice));
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
   cudaArray_t a;
   BENCH_CHECK(cudaMallocArray(&a, &cd, N, N, cudaArrayTextureGather));
   BENCH_CHECK(cudaMemcpy2DToArray(a, 0, 0, h, N * 4, N * 4, N, cudaMemcpyHostToDevice));
   cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
   td.filterMode = cudaFilterModeLinear;
   td.readMode = cudaReadModeElementType;
   cudaTextureObject_t t;
   BENCH_CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
   dim3 block(32, 8), grid(N / 32, N / 8);
   double tt[reps], tl[reps], tg[reps];
   for (int r = -1; r < reps; r++) {
      double t0 = now_s();
      k_tex<<<grid, block>>>(t, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t1 = now_s();
      k_load<<<grid, block>>>(din, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t2 = now_s();
      k_gather<<<grid, block>>>(t, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t3 = now_s();
      if (r >= 0)
         tt[r] = t1 - t0, tl[r] = t2 - t1, tg[r] = t3 - t2;
   }
   /* the gather kernel ran: pixel (0, 0) sums the footprints' four texels
    * (x - 0.5 = k - 0.2, y - 0.5 = 0.1: texels k-1 (clamped) and k, rows 0, 1) */
   BENCH_CHECK(cudaMemcpy(h, dout, sizeof(float), cudaMemcpyDeviceToHost));
   float gwant = 0;
   for (int k = 0; k < 4; k++)
      for (int j = 0; j < 2; j++)
         gwant += (float)((j * N + (k > 0 ? k - 1 : 0)) % 251) + (float)((j * N + k) % 251);
   if (h[0] != gwant) {
      fprintf(stderr, "texture.cu: gathered pixel (0, 0) is %.9g, expected %.9g\n", h[0], gwant);
      return 1;
   }
   /* the texture kernel ran: pixel (0, 0), by the filtering formula
    * (x - 0.5 = k - 0.2, y - 0.5 = 0.1; weights in 1.8 fixed point; clamp) */
   k_tex<<<grid, block>>>(t, dout);
   BENCH_CHECK(cudaMemcpy(h, dout, sizeof(float), cudaMemcpyDeviceToHost));
   float want = 0;
   for (int k = 0; k < 4; k++) {
      float xb = 0.3f + k - 0.5f, yb = 0.6f - 0.5f, fx = floorf(xb), fy = floorf(yb);
      float a0 = rintf((xb - fx) * 256) / 256, b0 = rintf((yb - fy) * 256) / 256;
      int i0 = (int)fx < 0 ? 0 : (int)fx, i1 = (int)fx + 1, j0 = (int)fy, j1 = j0 + 1;
      float t00 = (float)((j0 * N + i0) % 251), t10 = (float)((j0 * N + i1) % 251);
      float t01 = (float)((j1 * N + i0) % 251), t11 = (float)((j1 * N + i1) % 251);
      want += (1 - a0) * (1 - b0) * t00 + a0 * (1 - b0) * t10 + (1 - a0) * b0 * t01 + a0 * b0 * t11;
   }
   if (h[0] != want) {
      fprintf(stderr, "texture.cu: pixel (0, 0) is %.9g, expected %.9g\n", h[0], want);
      return 1;
   }
   double mt = median(tt, reps), ml = median(tl, reps);
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.2f ms", mt * 1e3);
   snprintf(ref, sizeof(ref), "global loads: %.2f ms", ml * 1e3);
   row("tex2D linear filter vs global load, 1024x1024 x 4", v, ref, mt / ml, "texture time / load time; lower is better");
   snprintf(v, sizeof(v), "%.2f ms", median(tg, reps) * 1e3);
   row("tex2Dgather vs global load, 1024x1024 x 4", v, ref, median(tg, reps) / ml,
       "gather time / load time; lower is better");
   /* mipmapped: level l holds the first (N >> l)^2 values of h, rows of N >> l */
   cudaMipmappedArray_t mm;
   BENCH_CHECK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(N, N, 0), 11, 0));
   for (int i = 0; i < N * N; i++)
      h[i] = (float)(i % 251);
   for (unsigned l = 0; l < 11; l++) {
      cudaArray_t lv;
      BENCH_CHECK(cudaGetMipmappedArrayLevel(&lv, mm, l));
      size_t w = N >> l;
      BENCH_CHECK(cudaMemcpy2DToArray(lv, 0, 0, h, w * 4, w * 4, w, cudaMemcpyHostToDevice));
   }
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeMipmappedArray;
   rd.res.mipmap.mipmap = mm;
   td.normalizedCoords = 1;
   td.mipmapFilterMode = cudaFilterModeLinear;
   td.maxMipmapLevelClamp = 10;
   cudaTextureObject_t tm;
   BENCH_CHECK(cudaCreateTextureObject(&tm, &rd, &td, NULL));
   double t_half[reps], t_zero[reps];
   for (int r = -1; r < reps; r++) {
      double t0 = now_s();
      k_lod<<<grid, block>>>(tm, 0.5f, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t1 = now_s();
      k_lod<<<grid, block>>>(tm, 0.0f, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t2 = now_s();
      if (r >= 0)
         t_half[r] = t1 - t0, t_zero[r] = t2 - t1;
   }
   /* the lod-0 kernel ran last: pixel (0, 0) is level 0's bilinear sum, so
    * near the plain texture's (coordinates differ only in their last bits) */
   BENCH_CHECK(cudaMemcpy(h, dout, sizeof(float), cudaMemcpyDeviceToHost));
   if (!(fabsf(h[0] - want) <= 0.05f * fabsf(want) + 1)) {
      fprintf(stderr, "texture.cu: lod-0 pixel (0, 0) is %.9g, expected about %.9g\n", h[0], want);
      return 1;
   }
   double mh = median(t_half, reps), mz = median(t_zero, reps);
   snprintf(v, sizeof(v), "%.2f ms", mh * 1e3);
   snprintf(ref, sizeof(ref), "tex2DLod at lod 0: %.2f ms", mz * 1e3);
   row("tex2DLod between two levels vs at level 0, 1024x1024 x 4", v, ref, mh / mz,
       "lod 0.5 time / lod 0 time; lower is better");
   /* |dPdx| = sqrt(2) texels (truncated by the H200 to 1.4141), |dPdy| = 1/2:
    * rho = 1.4141, lod 128/256 (tests/cuda/tex_grad.cu's model) */
   const float2 gx = make_float2(1.41421356f / N, 0.0f), gy = make_float2(0.0f, 0.5f / N);
   double t_grad[reps], t_lod[reps];
   for (int r = -1; r < reps; r++) {
      double t0 = now_s();
      k_grad<<<grid, block>>>(tm, gx, gy, -1.0f, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t1 = now_s();
      k_grad<<<grid, block>>>(tm, gx, gy, 0.5f, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t2 = now_s();
      if (r >= 0)
         t_grad[r] = t1 - t0, t_lod[r] = t2 - t1;
   }
   /* both read the same texels with the same weights: equal sums */
   float *g2 = (float *)malloc(2 * N * sizeof(float));
   BENCH_CHECK(cudaMemcpy(g2, dout, N * sizeof(float), cudaMemcpyDeviceToHost));
   k_grad<<<grid, block>>>(tm, gx, gy, -1.0f, dout);
   BENCH_CHECK(cudaMemcpy(g2 + N, dout, N * sizeof(float), cudaMemcpyDeviceToHost));
   if (memcmp(g2, g2 + N, N * sizeof(float)) != 0) {
      fprintf(stderr, "texture.cu: tex2DGrad's sums differ from tex2DLod's at lod 0.5\n");
      return 1;
   }
   free(g2);
   double mg = median(t_grad, reps), mo = median(t_lod, reps);
   snprintf(v, sizeof(v), "%.2f ms", mg * 1e3);
   snprintf(ref, sizeof(ref), "tex2DLod at lod 0.5: %.2f ms", mo * 1e3);
   row("tex2DGrad vs tex2DLod (lod 0.5), 1024x1024 x 4", v, ref, mg / mo, "grad time / lod time; lower is better");
   cudaDestroyTextureObject(tm);
   cudaFreeMipmappedArray(mm);
   printf("NOTE 1024x1024 threads, 4 bilinear fetches, 4 gathers (or 4 loads) each, %d repetitions, medians\n", reps);
   cudaDestroyTextureObject(t);
   cudaFreeArray(a);
   cudaFree(din);
   cudaFree(dout);
   free(h);
   return 0;
}
