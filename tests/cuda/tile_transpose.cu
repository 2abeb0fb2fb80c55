/*
 * tile_transpose.cu — matrix transpose through shared-memory tiles.
 *
 *  - 32 x 33 tiles (padded against bank conflicts) of a 317 x 533 float
 *    matrix, blocks of 32 x 8 threads that each move four rows of the
 *    tile, grid rounded up in both dimensions (partial tiles at the
 *    edges): out[c][r] = in[r][c], bit for bit;
 *  - the same with 16 x 16 blocks (one element per thread) on int data,
 *    through a tile declared as a 2-D dynamic shared array;
 *  - a transpose of 64 x 64 in place inside one block of 1024 threads
 *    (32 x 32), two elements per thread, swapped across the diagonal
 *    through shared memory with a barrier between reading and writing.
 */
#include "check.h"

#define TILE 32

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
   __shared__ float tile[TILE][TILE + 1];
   int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
   for (int j = 0; j < TILE; j += blockDim.y)
      if (x < cols && y + j < rows)
         tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
   __syncthreads();
   x = blockIdx.y * TILE + threadIdx.x;
   y = blockIdx.x * TILE + threadIdx.y;
   for (int j = 0; j < TILE; j += blockDim.y)
      if (x < rows && y + j < cols)
         out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* One element per thread; the tile is dynamic shared memory (16 x 17). */
__global__ void transpose_dynamic(const int *in, int *out, int rows, int cols)
{
   extern __shared__ int dyn[];
   const int w = 17;
   int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
   if (x < cols && y < rows)
      dyn[threadIdx.y * w + threadIdx.x] = in[y * cols + x];
   __syncthreads();
   x = blockIdx.y * 16 + threadIdx.x;
   y = blockIdx.x * 16 + threadIdx.y;
   if (x < rows && y < cols)
      out[y * rows + x] = dyn[threadIdx.x * w + threadIdx.y];
}

/* A 64 x 64 matrix transposed in place by one block of 32 x 32 threads:
 * each thread reads two elements, everyone waits, each writes the two
 * mirrored ones. */
__global__ void transpose_in_place(int *m)
{
   __shared__ int s[64 * 64];
   int x = threadIdx.x, y = threadIdx.y;
   for (int k = 0; k < 2; k++) {
      int r = y + 32 * k;
      for (int c = x; c < 64; c += 32)
         s[r * 64 + c] = m[r * 64 + c];
   }
   __syncthreads();
   for (int k = 0; k < 2; k++) {
      int r = y + 32 * k;
      for (int c = x; c < 64; c += 32)
         m[r * 64 + c] = s[c * 64 + r];
   }
}

int main(void)
{
   check_begin("tile_transpose");

   const int rows = 317, cols = 533, n = rows * cols;
   float *hin = (float *)malloc(n * 4), *hout = (float *)malloc(n * 4), *want = (float *)malloc(n * 4);
   for (int i = 0; i < n; i++)
      hin[i] = (float)((int)(mix32((uint32_t)i) % 100001u) - 50000) / 64.0f;
   float *din, *dout;
   REQUIRE_CUDA(cudaMalloc(&din, n * 4));
   REQUIRE_CUDA(cudaMemcpy(din, hin, n * 4, cudaMemcpyHostToDevice));
   dout = (float *)dev_alloc_fill32(n);
   CHECK(dout != NULL);
   dim3 block(TILE, 8), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
   transpose_tiled<<<grid, block>>>(din, dout, rows, cols);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hout, dout, n * 4, cudaMemcpyDeviceToHost));
   for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++)
         want[c * rows + r] = hin[r * cols + c];
   CHECK_ARRAY_F32("transpose_tiled", hout, want, n);

   const int r2 = 100, c2 = 70, n2 = r2 * c2;
   int *hi = (int *)malloc(n2 * 4), *ho = (int *)malloc(n2 * 4), *wi = (int *)malloc(n2 * 4);
   for (int i = 0; i < n2; i++)
      hi[i] = (int)mix32((uint32_t)i + 99u);
   int *di, *dio;
   REQUIRE_CUDA(cudaMalloc(&di, n2 * 4));
   REQUIRE_CUDA(cudaMemcpy(di, hi, n2 * 4, cudaMemcpyHostToDevice));
   dio = (int *)dev_alloc_fill32(n2);
   transpose_dynamic<<<dim3((c2 + 15) / 16, (r2 + 15) / 16), dim3(16, 16), 16 * 17 * sizeof(int)>>>(di, dio, r2,
                                                                                                      c2);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(ho, dio, n2 * 4, cudaMemcpyDeviceToHost));
   for (int r = 0; r < r2; r++)
      for (int c = 0; c < c2; c++)
         wi[c * r2 + r] = hi[r * c2 + c];
   CHECK_ARRAY_I32("transpose_dynamic", ho, wi, n2);

   int hm[64 * 64], wm[64 * 64], gm[64 * 64];
   for (int i = 0; i < 64 * 64; i++)
      hm[i] = i * 3 + 1;
   for (int r = 0; r < 64; r++)
      for (int c = 0; c < 64; c++)
         wm[c * 64 + r] = hm[r * 64 + c];
   int *dm;
   REQUIRE_CUDA(cudaMalloc(&dm, sizeof(hm)));
   REQUIRE_CUDA(cudaMemcpy(dm, hm, sizeof(hm), cudaMemcpyHostToDevice));
   transpose_in_place<<<1, dim3(32, 32)>>>(dm);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(gm, dm, sizeof(gm), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("transpose_in_place", gm, wm, 64 * 64);

   cudaFree(din), cudaFree(dout), cudaFree(di), cudaFree(dio), cudaFree(dm);
   free(hin), free(hout), free(want), free(hi), free(ho), free(wi);
   return check_end();
}
