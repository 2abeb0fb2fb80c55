/* shared.hip — static shared memory (a 32 x 33 tile transpose of a
 * 300 x 211 matrix) and dynamic shared memory through HIP_DYNAMIC_SHARED
 * and extern __shared__ (a block sum with __syncthreads at every level, for
 * several block sizes and shared sizes given at launch). */
#include "hip_check.h"

#define TILE 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
   __shared__ float t[TILE][TILE + 1];
   int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
   for (int k = 0; k < TILE; k += blockDim.y)
      if (x < cols && y + k < rows)
         t[threadIdx.y + k][threadIdx.x] = in[(y + k) * cols + x];
   __syncthreads();
   x = blockIdx.y * TILE + threadIdx.x;
   y = blockIdx.x * TILE + threadIdx.y;
   for (int k = 0; k < TILE; k += blockDim.y)
      if (x < rows && y + k < cols)
         out[(y + k) * rows + x] = t[threadIdx.x][threadIdx.y + k];
}

__global__ void block_sum(const int *in, int n, long long *out)
{
   HIP_DYNAMIC_SHARED(long long, s)
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   s[threadIdx.x] = i < n ? in[i] : 0;
   __syncthreads();
   for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
      if (threadIdx.x < d)
         s[threadIdx.x] += s[threadIdx.x + d];
      __syncthreads();
   }
   if (threadIdx.x == 0)
      out[blockIdx.x] = s[0];
}

extern __shared__ int raw[];
__global__ void reverse_block(int *p)
{
   raw[threadIdx.x] = p[blockIdx.x * blockDim.x + threadIdx.x];
   __syncthreads();
   p[blockIdx.x * blockDim.x + threadIdx.x] = raw[blockDim.x - 1 - threadIdx.x];
}

int main()
{
   hc_begin("shared");
   const int rows = 300, cols = 211, n = rows * cols;
   float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *want = (float *)malloc(n * 4);
   for (int i = 0; i < n; i++)
      a[i] = (float)i;
   for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++)
         want[c * rows + r] = a[r * cols + c];
   float *da, *db;
   CHECK_HIP(hipMalloc(&da, n * 4));
   CHECK_HIP(hipMalloc(&db, n * 4));
   CHECK_HIP(hipMemcpy(da, a, n * 4, hipMemcpyHostToDevice));
   hipLaunchKernelGGL(transpose, dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, 8), 0, 0, da,
                      db, rows, cols);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(b, db, n * 4, hipMemcpyDeviceToHost));
   CHECK_ARRAY("transpose", b, want, n, "%g");

   const int m = 20000;
   int *hv = (int *)malloc(m * 4), *dv;
   for (int i = 0; i < m; i++)
      hv[i] = (int)(hc_mix((uint32_t)i) % 20001) - 10000;
   CHECK_HIP(hipMalloc(&dv, m * 4));
   CHECK_HIP(hipMemcpy(dv, hv, m * 4, hipMemcpyHostToDevice));
   static const int sizes[] = { 64, 128, 256, 512 };
   for (int s = 0; s < 4; s++) {
      int bs = sizes[s], nb = (m + bs - 1) / bs;
      long long *dout, *got = (long long *)malloc(nb * 8), *w = (long long *)calloc(nb, 8);
      CHECK_HIP(hipMalloc(&dout, nb * 8));
      hipLaunchKernelGGL(block_sum, dim3(nb), dim3(bs), bs * sizeof(long long), 0, dv, m, dout);
      CHECK_HIP(hipGetLastError());
      CHECK_HIP(hipMemcpy(got, dout, nb * 8, hipMemcpyDeviceToHost));
      for (int i = 0; i < m; i++)
         w[i / bs] += hv[i];
      CHECK_ARRAY("block sums", got, w, nb, "%lld");
      hipFree(dout);
      free(got), free(w);
   }
   hipLaunchKernelGGL(reverse_block, dim3(m / 100), dim3(100), 100 * sizeof(int), 0, dv);
   int *rev = (int *)malloc(m * 4), *wrev = (int *)malloc(m * 4);
   CHECK_HIP(hipMemcpy(rev, dv, m * 4, hipMemcpyDeviceToHost));
   for (int i = 0; i < m; i++)
      wrev[i] = hv[(i / 100) * 100 + 99 - i % 100];
   CHECK_ARRAY("reversed blocks", rev, wrev, m, "%d");
   hipFree(da), hipFree(db), hipFree(dv);
   free(a), free(b), free(want), free(hv), free(rev), free(wrev);
   return hc_end();
}
