/*
 * grid2d.cu — 2-D blocks and grids on non-square sizes that are not
 * multiples of the block shape.
 *
 *  - transpose: out[c][r] = in[r][c] for a 317 x 533 int matrix, blocks of
 *    16 x 8, grid rounded up in both dimensions;
 *  - index map: every thread of a 2-D launch writes its own
 *    (blockIdx, threadIdx, blockDim, gridDim) packed into one word, so a
 *    swapped x/y or a wrong dimension shows up at the exact element;
 *  - 5-point stencil on a 203 x 129 float grid with clamped borders:
 *    out = 0.25f * (n + s + w + e) - c.  The four additions happen in the
 *    source's order in both host and device code (no reassociation without
 *    fast math), and multiplying by 0.25f is exact, so a contraction into
 *    an fma cannot change the result: the comparison is bit-exact.
 */
#include "check.h"

__global__ void transpose(int rows, int cols, const int *in, int *out)
{
   int c = blockIdx.x * blockDim.x + threadIdx.x;
   int r = blockIdx.y * blockDim.y + threadIdx.y;
   if (r < rows && c < cols)
      out[c * rows + r] = in[r * cols + c];
}

/* 8 bits each: blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y; plus the
 * dimensions in a second array. */
__global__ void index_map(int w, int h, unsigned *ids, unsigned *dims)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x >= w || y >= h)
      return;
   ids[y * w + x] = blockIdx.x << 24 | blockIdx.y << 16 | threadIdx.x << 8 | threadIdx.y;
   dims[y * w + x] = blockDim.x << 24 | blockDim.y << 16 | gridDim.x << 8 | gridDim.y;
}

__global__ void stencil(int w, int h, const float *in, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x >= w || y >= h)
      return;
   int xm = x > 0 ? x - 1 : 0, xp = x < w - 1 ? x + 1 : w - 1;
   int ym = y > 0 ? y - 1 : 0, yp = y < h - 1 ? y + 1 : h - 1;
   float n = in[ym * w + x], s = in[yp * w + x], we = in[y * w + xm], e = in[y * w + xp];
   out[y * w + x] = 0.25f * (n + s + we + e) - in[y * w + x];
}

int main(void)
{
   check_begin("grid2d");

   /* transpose */
   const int rows = 317, cols = 533, nm = rows * cols;
   int *hin = (int *)malloc(nm * sizeof(int)), *hout = (int *)malloc(nm * sizeof(int));
   int *want = (int *)malloc(nm * sizeof(int));
   for (int i = 0; i < nm; i++)
      hin[i] = (int)mix32((uint32_t)i) - (1 << 30);
   int *din, *dout;
   REQUIRE_CUDA(cudaMalloc(&din, nm * sizeof(int)));
   REQUIRE_CUDA(cudaMemcpy(din, hin, nm * sizeof(int), cudaMemcpyHostToDevice));
   dout = (int *)dev_alloc_fill32(nm);
   CHECK(dout != NULL);
   dim3 block(16, 8), grid((cols + 15) / 16, (rows + 7) / 8);
   transpose<<<grid, block>>>(rows, cols, din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hout, dout, nm * sizeof(int), cudaMemcpyDeviceToHost));
   for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++)
         want[c * rows + r] = hin[r * cols + c];
   CHECK_ARRAY_I32("transpose", hout, want, nm);
   CHECK_INT(hout[1 * rows + 0], hin[0 * cols + 1]);

   /* index map: 100 x 37 elements, blocks of 8 x 4 (grid 13 x 10) */
   const int w = 100, h = 37, ni = w * h;
   unsigned *dids = (unsigned *)dev_alloc_fill32(ni), *ddims = (unsigned *)dev_alloc_fill32(ni);
   unsigned *ids = (unsigned *)malloc(ni * 4), *dims = (unsigned *)malloc(ni * 4);
   unsigned *wids = (unsigned *)malloc(ni * 4), *wdims = (unsigned *)malloc(ni * 4);
   CHECK(dids && ddims);
   dim3 iblock(8, 4), igrid((w + 7) / 8, (h + 3) / 4);
   index_map<<<igrid, iblock>>>(w, h, dids, ddims);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(ids, dids, ni * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(dims, ddims, ni * 4, cudaMemcpyDeviceToHost));
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         wids[y * w + x] = (unsigned)(x / 8) << 24 | (unsigned)(y / 4) << 16 | (unsigned)(x % 8) << 8 | (unsigned)(y % 4);
         wdims[y * w + x] = 8u << 24 | 4u << 16 | 13u << 8 | 10u;
      }
   CHECK_ARRAY_U32("index map ids", ids, wids, ni);
   CHECK_ARRAY_U32("index map dims", dims, wdims, ni);

   /* stencil */
   const int sw = 203, sh = 129, ns = sw * sh;
   float *sin_ = (float *)malloc(ns * 4), *sout = (float *)malloc(ns * 4), *swant = (float *)malloc(ns * 4);
   for (int i = 0; i < ns; i++)
      sin_[i] = (float)((int)(mix32((uint32_t)i + 77u) % 20001u) - 10000) / 128.0f + 1.0f / 3.0f;
   float *dsin, *dsout;
   REQUIRE_CUDA(cudaMalloc(&dsin, ns * 4));
   REQUIRE_CUDA(cudaMemcpy(dsin, sin_, ns * 4, cudaMemcpyHostToDevice));
   dsout = (float *)dev_alloc_fill32(ns);
   CHECK(dsout != NULL);
   dim3 sblock(32, 4), sgrid((sw + 31) / 32, (sh + 3) / 4);
   stencil<<<sgrid, sblock>>>(sw, sh, dsin, dsout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(sout, dsout, ns * 4, cudaMemcpyDeviceToHost));
   for (int y = 0; y < sh; y++)
      for (int x = 0; x < sw; x++) {
         int xm = x ? x - 1 : 0, xp = x + 1 < sw ? x + 1 : sw - 1;
         int ym = y ? y - 1 : 0, yp = y + 1 < sh ? y + 1 : sh - 1;
         float acc = sin_[ym * sw + x];
         acc += sin_[yp * sw + x];
         acc += sin_[y * sw + xm];
         acc += sin_[y * sw + xp];
         float q = acc * 0.25f;
         swant[y * sw + x] = q - sin_[y * sw + x];
      }
   CHECK_ARRAY_F32("stencil", sout, swant, ns);

   cudaFree(din), cudaFree(dout), cudaFree(dids), cudaFree(ddims), cudaFree(dsin), cudaFree(dsout);
   free(hin), free(hout), free(want), free(ids), free(dims), free(wids), free(wdims);
   free(sin_), free(sout), free(swant);
   return check_end();
}
