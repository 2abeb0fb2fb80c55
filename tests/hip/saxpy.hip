/* saxpy.hip — the first HIP program: y = a x + y by hipLaunchKernelGGL with
 * a grid-stride loop, and the same kernel through <<<>>>, on n = 100003. */
#include "hip_check.h"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
   for (int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < n; i += hipBlockDim_x * hipGridDim_x)
      y[i] = a * x[i] + y[i];
}

int main()
{
   hc_begin("saxpy");
   const int n = 100003;
   float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *want = (float *)malloc(n * 4);
   for (int i = 0; i < n; i++) {
      x[i] = (float)(i % 1000) * 0.25f;
      y[i] = (float)(i % 7) - 3.0f;
   }
   float *dx, *dy;
   CHECK_HIP(hipMalloc(&dx, n * 4));
   CHECK_HIP(hipMalloc(&dy, n * 4));
   CHECK_HIP(hipMemcpy(dx, x, n * 4, hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(dy, y, n * 4, hipMemcpyHostToDevice));
   hipLaunchKernelGGL(saxpy, dim3(64), dim3(256), 0, 0, n, 2.0f, dx, dy);
   CHECK_HIP(hipGetLastError());
   saxpy<<<(n + 255) / 256, 256>>>(n, -0.5f, dx, dy);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipDeviceSynchronize());
   float *got = (float *)malloc(n * 4);
   CHECK_HIP(hipMemcpy(got, dy, n * 4, hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {   /* exact: quarters and small integers */
      float t = 2.0f * x[i] + y[i];
      want[i] = -0.5f * x[i] + t;
   }
   CHECK_ARRAY("y", got, want, n, "%g");
   hipFree(dx), hipFree(dy);
   free(x), free(y), free(want), free(got);
   return hc_end();
}
