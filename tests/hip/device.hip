/* device.hip — hipGetDeviceCount, hipGetDeviceProperties and
 * hipDeviceGetAttribute agree; warpSize is 32 (HIP on NVIDIA) both in the
 * properties and in a kernel; versions; hipSetDevice of a bad device. */
#include "hip_check.h"

__global__ void sizes(int *o)
{
   o[0] = warpSize;
   o[1] = blockDim.x * blockDim.y * blockDim.z;
}

int main()
{
   hc_begin("device");
   int n = 0, dev = -1;
   CHECK_HIP(hipGetDeviceCount(&n));
   CHECK(n >= 1);
   CHECK_HIP(hipSetDevice(0));
   CHECK_HIP(hipGetDevice(&dev));
   CHECK_INT(dev, 0);
   hipDeviceProp_t p;
   CHECK_HIP(hipGetDeviceProperties(&p, 0));
   printf("  %s: %d multiprocessors, warp %d, %d threads a block, %zu bytes shared\n", p.name,
          p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock, (size_t)p.sharedMemPerBlock);
   CHECK_INT(p.warpSize, 32);
   CHECK(p.gcnArchName[0] == 0);
   CHECK(p.maxSharedMemoryPerMultiProcessor == p.sharedMemPerMultiprocessor);
   int v = 0;
   CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0));
   CHECK_INT(v, 32);
   CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxThreadsPerBlock, 0));
   CHECK_INT(v, p.maxThreadsPerBlock);
   CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
   CHECK_INT(v, p.multiProcessorCount);
   CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeComputeCapabilityMajor, 0));
   CHECK_INT(v, p.major);
   CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
   CHECK_INT(v, p.sharedMemPerBlock);
   int drv = 0, rt = 0;
   CHECK_HIP(hipDriverGetVersion(&drv));
   CHECK_HIP(hipRuntimeGetVersion(&rt));
   CHECK(drv > 0 && rt > 0);
   CHECK_ERR(hipSetDevice(n + 3), hipErrorInvalidDevice);
   int *d, h[2];
   CHECK_HIP(hipMalloc(&d, 8));
   hipLaunchKernelGGL(sizes, dim3(1), dim3(8, 4, 2), 0, 0, d);
   CHECK_HIP(hipMemcpy(h, d, 8, hipMemcpyDeviceToHost));
   CHECK_INT(h[0], 32);
   CHECK_INT(h[1], 64);
   hipFree(d);
   return hc_end();
}
