/* hostmem.hip — pinned host memory: hipHostMalloc (mapped: kernels write it
 * through hipHostGetDevicePointer), hipMallocHost, async copies from pinned
 * buffers, hipHostFree. */
#include "hip_check.h"

__global__ void fill(int *p, int n, int base)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = base + i * i;
}

int main()
{
   hc_begin("hostmem");
   const int n = 4096;
   int *mapped, *dptr;
   CHECK_HIP(hipHostMalloc((void **)&mapped, n * 4, hipHostMallocMapped));
   CHECK_HIP(hipHostGetDevicePointer((void **)&dptr, mapped, 0));
   hipLaunchKernelGGL(fill, dim3(n / 256), dim3(256), 0, 0, dptr, n, 7);
   CHECK_HIP(hipDeviceSynchronize());
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += mapped[i] != 7 + i * i;
   CHECK_INT(bad, 0);

   int *pinned, *dev;
   CHECK_HIP(hipMallocHost((void **)&pinned, n * 4));
   CHECK_HIP(hipMalloc(&dev, n * 4));
   hipStream_t s;
   CHECK_HIP(hipStreamCreate(&s));
   hipLaunchKernelGGL(fill, dim3(n / 256), dim3(256), 0, s, dev, n, -3);
   CHECK_HIP(hipMemcpyAsync(pinned, dev, n * 4, hipMemcpyDeviceToHost, s));
   CHECK_HIP(hipStreamSynchronize(s));
   bad = 0;
   for (int i = 0; i < n; i++)
      bad += pinned[i] != -3 + i * i;
   CHECK_INT(bad, 0);
   unsigned flags = 0;
   CHECK_HIP(hipStreamDestroy(s));
   CHECK_HIP(hipHostFree(mapped));
   CHECK_HIP(hipHostFree(pinned));
   CHECK_HIP(hipFree(dev));
   (void)flags;
   return hc_end();
}
