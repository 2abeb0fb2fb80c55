/* grid2d.hip — 2-D and 3-D grids and blocks with hipThreadIdx_y/z and
 * friends, a template kernel instantiated twice and launched through
 * hipLaunchKernelGGL with HIP_KERNEL_NAME, and a kernel launched through
 * hipLaunchKernel with an argument array. */
#include "hip_check.h"

template <typename T, int K> __global__ void stencil(const T *in, T *out, int w, int h)
{
   int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x, y = hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y;
   if (x >= w || y >= h)
      return;
   T s = 0;
   for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
         int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
         s += in[yy * w + xx];
      }
   out[y * w + x] = s * K;
}

__global__ void where(int *o, int nx, int ny)
{
   int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
   int y = hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y;
   int z = hipBlockIdx_z * hipBlockDim_z + hipThreadIdx_z;
   o[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
}

int main()
{
   hc_begin("grid2d");
   const int w = 97, h = 61;
   int *a = (int *)malloc(w * h * 4), *got = (int *)malloc(w * h * 4), *want = (int *)malloc(w * h * 4);
   for (int i = 0; i < w * h; i++)
      a[i] = (int)(hc_mix((uint32_t)i) % 100);
   int *da, *db;
   CHECK_HIP(hipMalloc(&da, w * h * 4));
   CHECK_HIP(hipMalloc(&db, w * h * 4));
   CHECK_HIP(hipMemcpy(da, a, w * h * 4, hipMemcpyHostToDevice));
   dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
   hipLaunchKernelGGL(HIP_KERNEL_NAME(stencil<int, 2>), grid, block, 0, 0, da, db, w, h);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(got, db, w * h * 4, hipMemcpyDeviceToHost));
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         int s = 0;
         for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
               int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
               int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
               s += a[yy * w + xx];
            }
         want[y * w + x] = 2 * s;
      }
   CHECK_ARRAY("stencil<int, 2>", got, want, w * h, "%d");
   float *fa, *fb, *fhost = (float *)malloc(w * h * 4);
   CHECK_HIP(hipMalloc(&fa, w * h * 4));
   CHECK_HIP(hipMalloc(&fb, w * h * 4));
   for (int i = 0; i < w * h; i++)
      fhost[i] = (float)a[i];
   CHECK_HIP(hipMemcpy(fa, fhost, w * h * 4, hipMemcpyHostToDevice));
   hipLaunchKernelGGL(HIP_KERNEL_NAME(stencil<float, 3>), grid, block, 0, 0, fa, fb, w, h);
   CHECK_HIP(hipMemcpy(fhost, fb, w * h * 4, hipMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < w * h; i++)
      bad += fhost[i] != (float)(want[i] / 2 * 3);
   CHECK_INT(bad, 0);

   const int nx = 8, ny = 6, nz = 4;
   int *dw, hw[nx * ny * nz], ww[nx * ny * nz];
   CHECK_HIP(hipMalloc(&dw, sizeof(hw)));
   int nxa = nx, nya = ny;
   void *args[] = { &dw, &nxa, &nya };
   CHECK_HIP(hipLaunchKernel((const void *)where, dim3(2, 3, 2), dim3(4, 2, 2), args, 0, 0));
   CHECK_HIP(hipMemcpy(hw, dw, sizeof(hw), hipMemcpyDeviceToHost));
   for (int z = 0; z < nz; z++)
      for (int y = 0; y < ny; y++)
         for (int x = 0; x < nx; x++)
            ww[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
   CHECK_ARRAY("3-D grid", hw, ww, nx * ny * nz, "%d");
   hipFree(da), hipFree(db), hipFree(fa), hipFree(fb), hipFree(dw);
   free(a), free(got), free(want), free(fhost);
   return hc_end();
}
