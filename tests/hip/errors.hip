/* errors.hip — HIP's error path on CUDA's: a launch with too many threads
 * fails with hipErrorInvalidConfiguration, which hipPeekAtLastError keeps
 * and hipGetLastError clears; hipGetErrorString/Name of known codes; a bad
 * copy direction and a free of a pointer that was never allocated; the
 * context still works afterwards. */
#include "hip_check.h"

__global__ void one(int *p) { p[threadIdx.x] = 1; }

int main()
{
   hc_begin("errors");
   int *d;
   CHECK_HIP(hipMalloc(&d, 4096 * 4));
   hipLaunchKernelGGL(one, dim3(1), dim3(4096), 0, 0, d);   /* above 1024 threads a block */
   CHECK_ERR(hipPeekAtLastError(), hipErrorInvalidValue);
   CHECK_ERR(hipGetLastError(), hipErrorInvalidValue);
   CHECK_HIP(hipGetLastError());
   CHECK(strcmp(hipGetErrorName(hipErrorInvalidValue), "cudaErrorInvalidValue") == 0);
   CHECK(hipGetErrorString(hipSuccess) != NULL && strlen(hipGetErrorString(hipErrorOutOfMemory)) > 0);
   int h = 0;
   CHECK_ERR(hipMemcpy(&h, d, 4, (hipMemcpyKind)77), hipErrorInvalidMemcpyDirection);
   int local;
   CHECK_ERR(hipFree(&local), hipErrorInvalidValue);
   void *huge = NULL;
   CHECK_ERR(hipMalloc(&huge, (size_t)1 << 62), hipErrorOutOfMemory);
   hipGetLastError();
   hipLaunchKernelGGL(one, dim3(1), dim3(64), 0, 0, d);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(&h, d + 63, 4, hipMemcpyDeviceToHost));
   CHECK_INT(h, 1);
   hipFree(d);
   return hc_end();
}
