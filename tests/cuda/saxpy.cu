/*
 * saxpy.cu — 1-D elementwise kernels on a size that is not a multiple of
 * the block size: y = a*x + y with one fused multiply-add per element
 * (fmaf, so the result is one IEEE rounding and bit-exact against the
 * host's fmaf), z = x + y and w = x * y (one IEEE rounding each), and the
 * same SAXPY again through a grid-stride loop on a grid smaller than the
 * data.  The allocations are longer than n: the tail must keep its
 * sentinel (no thread past n wrote).
 */
#include "check.h"

#include <math.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      y[i] = fmaf(a, x[i], y[i]);
}

__global__ void add_mul(int n, const float *x, const float *y, float *sum, float *prod)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      sum[i] = x[i] + y[i];
      prod[i] = x[i] * y[i];
   }
}

__global__ void saxpy_strided(int n, float a, const float *x, float *y)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
      y[i] = fmaf(a, x[i], y[i]);
}

/* Test data: floats in [-1000, 1000] with 3 decimal places, so products and
 * sums round in interesting ways. */
static float data(uint32_t seed, int i)
{
   return (float)((int)(mix32(seed * 0x9e3779b9u + (uint32_t)i) % 2000001u) - 1000000) / 1000.0f;
}

int main(void)
{
   check_begin("saxpy");
   const int n = 100003, pad = 61, len = n + pad;
   const float a = -2.718281828f;
   size_t bytes = (size_t)len * sizeof(float);
   float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *out = (float *)malloc(bytes);
   float *want = (float *)malloc(bytes), *want2 = (float *)malloc(bytes);
   for (int i = 0; i < len; i++) {
      hx[i] = data(1, i);
      hy[i] = data(2, i);
   }

   float *dx, *dy, *dsum, *dprod;
   REQUIRE_CUDA(cudaMalloc(&dx, bytes));
   REQUIRE_CUDA(cudaMalloc(&dy, bytes));
   REQUIRE_CUDA(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
   dsum = (float *)dev_alloc_fill32(len);
   dprod = (float *)dev_alloc_fill32(len);
   CHECK(dsum && dprod);

   /* y = a*x + y, one thread per element, 391 blocks of 256 (last partial). */
   REQUIRE_CUDA(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
   saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   fill_u32(out, len, 0x55555555u);
   CHECK_CUDA(cudaMemcpy(out, dy, bytes, cudaMemcpyDeviceToHost));
   for (int i = 0; i < len; i++)
      want[i] = i < n ? fmaf(a, hx[i], hy[i]) : hy[i];   /* the tail is untouched */
   CHECK_ARRAY_F32("saxpy y", out, want, len);
   CHECK_F32(out[0], fmaf(a, hx[0], hy[0]));
   CHECK_F32(out[n - 1], fmaf(a, hx[n - 1], hy[n - 1]));

   /* sum and product: each element is one IEEE rounding. */
   add_mul<<<(n + 127) / 128, 128>>>(n, dx, dy, dsum, dprod);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   float *dev_y = (float *)malloc(bytes);
   memcpy(dev_y, want, bytes);                  /* y on the device now */
   for (int i = 0; i < len; i++) {
      want[i] = i < n ? hx[i] + dev_y[i] : bits_f32(SENTINEL32);
      want2[i] = i < n ? hx[i] * dev_y[i] : bits_f32(SENTINEL32);
   }
   fill_u32(out, len, 0x55555555u);
   CHECK_CUDA(cudaMemcpy(out, dsum, bytes, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_F32("x + y", out, want, len);
   fill_u32(out, len, 0x55555555u);
   CHECK_CUDA(cudaMemcpy(out, dprod, bytes, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_F32("x * y", out, want2, len);

   /* Grid-stride loop: 37 blocks of 96 threads cover n in ~29 rounds. */
   REQUIRE_CUDA(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
   saxpy_strided<<<37, 96>>>(n, 0.5f, dx, dy);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   fill_u32(out, len, 0x55555555u);
   CHECK_CUDA(cudaMemcpy(out, dy, bytes, cudaMemcpyDeviceToHost));
   for (int i = 0; i < len; i++)
      want[i] = i < n ? fmaf(0.5f, hx[i], hy[i]) : hy[i];
   CHECK_ARRAY_F32("strided saxpy y", out, want, len);

   cudaFree(dx);
   cudaFree(dy);
   cudaFree(dsum);
   cudaFree(dprod);
   free(hx), free(hy), free(out), free(want), free(want2), free(dev_y);
   return check_end();
}
