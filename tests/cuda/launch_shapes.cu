/*
 * launch_shapes.cu — launch geometry and ordering.
 *
 *  - every thread of a launch records its blockIdx, threadIdx, blockDim and
 *    gridDim (x, y, z) at its own linear index, for shapes such as one
 *    thread, 5000 blocks of one thread, a 1024-thread block, a 3-D grid of
 *    3-D blocks with sizes 7 x 3 x 2 and 3 x 5 x 4, blocks of 33 or 100
 *    threads (not multiples of 32);
 *  - 64 launches on the default stream with no synchronisation between
 *    them apply a non-commutative update (x = x * 31 + k): only in-order
 *    execution gives the host's result;
 *  - cudaLaunchKernel with an argument array does what <<<>>> does.
 */
#include "check.h"

#define REC_W 4

__global__ void record(unsigned *out)
{
   unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
   unsigned bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
   unsigned i = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
   out[i * REC_W + 0] = blockIdx.x | blockIdx.y << 12 | blockIdx.z << 22;
   out[i * REC_W + 1] = threadIdx.x | threadIdx.y << 11 | threadIdx.z << 22;
   out[i * REC_W + 2] = blockDim.x | blockDim.y << 11 | blockDim.z << 22;
   out[i * REC_W + 3] = gridDim.x | gridDim.y << 13 | gridDim.z << 23;
}

__global__ void step(int n, unsigned *x, unsigned k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      x[i] = x[i] * 31u + k + (unsigned)i;
}

static void check_shape(dim3 g, dim3 b)
{
   size_t per = (size_t)b.x * b.y * b.z, total = per * g.x * g.y * g.z;
   unsigned *d = (unsigned *)dev_alloc_fill32(total * REC_W);
   unsigned *h = (unsigned *)malloc(total * REC_W * 4), *w = (unsigned *)malloc(total * REC_W * 4);
   char what[96];
   snprintf(what, sizeof(what), "grid (%u,%u,%u) block (%u,%u,%u)", g.x, g.y, g.z, b.x, b.y, b.z);
   if (!check_true(d && h && w, what, __FILE__, __LINE__))
      return;
   record<<<g, b>>>(d);
   check_err(cudaGetLastError(), cudaSuccess, what, __FILE__, __LINE__);
   CHECK_CUDA(cudaMemcpy(h, d, total * REC_W * 4, cudaMemcpyDeviceToHost));
   size_t i = 0;
   for (unsigned bz = 0; bz < g.z; bz++)
      for (unsigned by = 0; by < g.y; by++)
         for (unsigned bx = 0; bx < g.x; bx++)
            for (unsigned tz = 0; tz < b.z; tz++)
               for (unsigned ty = 0; ty < b.y; ty++)
                  for (unsigned tx = 0; tx < b.x; tx++, i++) {
                     w[i * REC_W + 0] = bx | by << 12 | bz << 22;
                     w[i * REC_W + 1] = tx | ty << 11 | tz << 22;
                     w[i * REC_W + 2] = b.x | b.y << 11 | b.z << 22;
                     w[i * REC_W + 3] = g.x | g.y << 13 | g.z << 23;
                  }
   check_array_u32(what, h, w, total * REC_W, __FILE__, __LINE__);
   cudaFree(d);
   free(h), free(w);
}

int main(void)
{
   check_begin("launch_shapes");
   check_shape(dim3(1), dim3(1));
   check_shape(dim3(5000), dim3(1));
   check_shape(dim3(2), dim3(1024));
   check_shape(dim3(3), dim3(33));
   check_shape(dim3(7), dim3(100));
   check_shape(dim3(7, 3, 2), dim3(3, 5, 4));
   check_shape(dim3(3, 5, 4), dim3(7, 3, 2));
   check_shape(dim3(1, 1, 9), dim3(1, 1, 64));
   check_shape(dim3(2, 200, 1), dim3(1, 16, 2));

   /* ordering */
   const int n = 1001, launches = 64;
   unsigned *dx = (unsigned *)dev_alloc_fill32(n), hx[n], wx[n];
   CHECK(dx != NULL);
   CHECK_CUDA(cudaMemset(dx, 0, n * 4));
   for (int k = 0; k < launches; k++)
      step<<<(n + 31 + k) / (32 + k), 32 + k>>>(n, dx, (unsigned)k);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(hx, dx, sizeof(hx), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      unsigned v = 0;
      for (int k = 0; k < launches; k++)
         v = v * 31u + (unsigned)k + (unsigned)i;
      wx[i] = v;
   }
   CHECK_ARRAY_U32("64 ordered launches", hx, wx, n);

   /* cudaLaunchKernel */
   int nn = n;
   unsigned kk = 1000u;
   void *args[] = { &nn, &dx, &kk };
   CHECK_CUDA(cudaLaunchKernel((const void *)step, dim3((n + 127) / 128), dim3(128), args, 0, 0));
   CHECK_CUDA(cudaMemcpy(hx, dx, sizeof(hx), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      wx[i] = wx[i] * 31u + 1000u + (unsigned)i;
   CHECK_ARRAY_U32("cudaLaunchKernel", hx, wx, n);

   cudaFree(dx);
   return check_end();
}
