/* events.hip — hipEventCreate/Record/Synchronize/Query/ElapsedTime: times
 * are non-negative and add up (a..b + b..c = a..c within a microsecond),
 * an event recorded after a long kernel completes after it, an event with
 * timing disabled refuses hipEventElapsedTime. */
#include "hip_check.h"

__global__ void spin(unsigned *p, int iters)
{
   unsigned v = p[threadIdx.x];
   for (int k = 0; k < iters; k++)
      v = v * 1664525u + 1013904223u;
   p[threadIdx.x] = v;
}

int main()
{
   hc_begin("events");
   unsigned *d;
   CHECK_HIP(hipMalloc(&d, 256 * 4));
   CHECK_HIP(hipMemset(d, 0, 256 * 4));
   hipEvent_t a, b, c, nt;
   CHECK_HIP(hipEventCreate(&a));
   CHECK_HIP(hipEventCreate(&b));
   CHECK_HIP(hipEventCreateWithFlags(&c, hipEventDefault));
   CHECK_HIP(hipEventCreateWithFlags(&nt, hipEventDisableTiming));
   CHECK_HIP(hipEventRecord(a, 0));
   hipLaunchKernelGGL(spin, dim3(1), dim3(256), 0, 0, d, 20000);
   CHECK_HIP(hipEventRecord(b, 0));
   hipLaunchKernelGGL(spin, dim3(1), dim3(256), 0, 0, d, 20000);
   CHECK_HIP(hipEventRecord(c, 0));
   CHECK_HIP(hipEventRecord(nt, 0));
   CHECK_HIP(hipEventSynchronize(c));
   CHECK_HIP(hipEventQuery(b));
   float ab = -1, bc = -1, ac = -1;
   CHECK_HIP(hipEventElapsedTime(&ab, a, b));
   CHECK_HIP(hipEventElapsedTime(&bc, b, c));
   CHECK_HIP(hipEventElapsedTime(&ac, a, c));
   printf("  a..b %.3f ms, b..c %.3f ms, a..c %.3f ms\n", ab, bc, ac);
   CHECK(ab >= 0 && bc >= 0 && ac >= 0);
   CHECK(fabsf(ab + bc - ac) < 0.002f);
   float t = 0;
   CHECK_ERR(hipEventElapsedTime(&t, a, nt), hipErrorInvalidHandle);
   /* the kernels ran: the host reference of the generator */
   unsigned h[256], v = 0;
   CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
   for (int k = 0; k < 40000; k++)
      v = v * 1664525u + 1013904223u;
   CHECK_INT(h[17], v);
   hipEventDestroy(a), hipEventDestroy(b), hipEventDestroy(c), hipEventDestroy(nt);
   hipFree(d);
   return hc_end();
}
