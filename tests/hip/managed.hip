/* managed.hip — hipMallocManaged memory that host and kernels both touch,
 * hipMemPrefetchAsync, and a __managed__ variable (host reads and writes it
 * directly, kernels update it) with its initial value. */
#include "hip_check.h"

__managed__ int counter = 7;
__managed__ float table[64];

__global__ void bump(int *m, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      m[i] = m[i] * 3 + i;
   if (i < 64)
      table[i] = table[i] * 2.0f + 1.0f;
   if (i == 0)
      atomicAdd(&counter, 5);
}

int main()
{
   hc_begin("managed");
   const int n = 5000;
   int *m;
   CHECK_HIP(hipMallocManaged(&m, n * sizeof(int)));
   for (int i = 0; i < n; i++)
      m[i] = i - 2500;
   for (int i = 0; i < 64; i++)
      table[i] = (float)i;
   CHECK_INT(counter, 7);   /* the initialiser */
   counter += 1;
   CHECK_HIP(hipMemPrefetchAsync(m, n * sizeof(int), 0, 0));
   hipLaunchKernelGGL(bump, dim3((n + 255) / 256), dim3(256), 0, 0, m, n);
   CHECK_HIP(hipDeviceSynchronize());
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += m[i] != (i - 2500) * 3 + i;
   CHECK_INT(bad, 0);
   CHECK_INT(counter, 13);
   bad = 0;
   for (int i = 0; i < 64; i++)
      bad += table[i] != (float)i * 2.0f + 1.0f;
   CHECK_INT(bad, 0);
   void *addr = NULL;
   CHECK_HIP(hipGetSymbolAddress(&addr, HIP_SYMBOL(counter)));
   CHECK(addr == (void *)&counter);   /* the host's counter is the device's */
   CHECK_HIP(hipFree(m));
   return hc_end();
}
