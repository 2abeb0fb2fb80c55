/* memory.hip — hipMalloc, hipMemcpy in every direction, hipMemset,
 * hipMemsetAsync, hipMallocPitch with hipMemcpy2D, hipMemGetInfo,
 * hipPointerGetAttributes; every byte checked against the host's copy. */
#include "hip_check.h"

__global__ void add_index(unsigned *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += (unsigned)i;
}

int main()
{
   hc_begin("memory");
   const int n = 10007;
   unsigned *h = (unsigned *)malloc(n * 4), *back = (unsigned *)malloc(n * 4), *want = (unsigned *)malloc(n * 4);
   for (int i = 0; i < n; i++)
      h[i] = hc_mix((uint32_t)i);
   unsigned *a, *b;
   CHECK_HIP(hipMalloc(&a, n * 4));
   CHECK_HIP(hipMalloc((void **)&b, n * 4));
   CHECK_HIP(hipMemcpy(a, h, n * 4, hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(b, a, n * 4, hipMemcpyDeviceToDevice));
   hipLaunchKernelGGL(add_index, dim3((n + 255) / 256), dim3(256), 0, 0, b, n);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(back, b, n * 4, hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      want[i] = h[i] + (unsigned)i;
   CHECK_ARRAY("copied and added", back, want, n, "%#x");

   /* memset: bytes; async on a stream, then a partial one */
   CHECK_HIP(hipMemset(a, 0xab, n * 4));
   CHECK_HIP(hipMemsetAsync(a + 100, 0x01, 40, 0));
   CHECK_HIP(hipDeviceSynchronize());
   CHECK_HIP(hipMemcpy(back, a, n * 4, hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      want[i] = i >= 100 && i < 110 ? 0x01010101u : 0xababababu;
   CHECK_ARRAY("memset", back, want, n, "%#x");

   /* pitched 2-D: 37 rows of 123 floats */
   const int w = 123, rows = 37;
   float *m, *hm = (float *)malloc(w * rows * 4), *hb = (float *)malloc(w * rows * 4);
   size_t pitch = 0;
   CHECK_HIP(hipMallocPitch((void **)&m, &pitch, w * 4, rows));
   CHECK(pitch >= (size_t)w * 4);
   for (int i = 0; i < w * rows; i++)
      hm[i] = (float)i * 0.5f;
   CHECK_HIP(hipMemcpy2D(m, pitch, hm, w * 4, w * 4, rows, hipMemcpyHostToDevice));
   memset(hb, 0, w * rows * 4);
   CHECK_HIP(hipMemcpy2D(hb, w * 4, m, pitch, w * 4, rows, hipMemcpyDeviceToHost));
   CHECK_ARRAY("2-D round trip", hb, hm, w * rows, "%g");

   size_t free_b = 0, total = 0;
   CHECK_HIP(hipMemGetInfo(&free_b, &total));
   CHECK(total > 0 && free_b <= total);
   hipPointerAttribute_t attr;
   CHECK_HIP(hipPointerGetAttributes(&attr, a + 5));
   CHECK(attr.type == cudaMemoryTypeDevice);
   CHECK_HIP(hipFree(a));
   CHECK_HIP(hipFree(b));
   CHECK_HIP(hipFree(m));
   free(h), free(back), free(want), free(hm), free(hb);
   return hc_end();
}
