/* streams.hip — work on several streams: each stream's copy in, kernel and
 * copy out stay in order; hipStreamWaitEvent orders one stream after
 * another's kernel; hipStreamQuery, hipStreamSynchronize, a non-blocking
 * stream, stream flags and priorities, a host function on a stream. */
#include "hip_check.h"

__global__ void scale_add(int *p, int n, int mul, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * mul + add;
}

static void host_fn(void *user) { *(int *)user += 1; }

int main()
{
   hc_begin("streams");
   enum { S = 4, N = 50000 };
   hipStream_t s[S];
   int *d[S], *h[S];
   for (int k = 0; k < S; k++) {
      CHECK_HIP(hipStreamCreate(&s[k]));
      CHECK_HIP(hipMalloc(&d[k], N * 4));
      CHECK_HIP(hipHostMalloc((void **)&h[k], N * 4, hipHostMallocDefault));
      for (int i = 0; i < N; i++)
         h[k][i] = i + k;
   }
   for (int k = 0; k < S; k++) {
      CHECK_HIP(hipMemcpyAsync(d[k], h[k], N * 4, hipMemcpyHostToDevice, s[k]));
      hipLaunchKernelGGL(scale_add, dim3((N + 127) / 128), dim3(128), 0, s[k], d[k], N, k + 2, -k);
      CHECK_HIP(hipMemcpyAsync(h[k], d[k], N * 4, hipMemcpyDeviceToHost, s[k]));
   }
   for (int k = 0; k < S; k++)
      CHECK_HIP(hipStreamSynchronize(s[k]));
   for (int k = 0; k < S; k++) {
      int bad = 0;
      for (int i = 0; i < N; i++)
         bad += h[k][i] != (i + k) * (k + 2) - k;
      CHECK_INT(bad, 0);
      CHECK_HIP(hipStreamQuery(s[k]));
   }

   /* stream 1 waits for stream 0's kernel through an event */
   hipEvent_t e;
   CHECK_HIP(hipEventCreateWithFlags(&e, hipEventDisableTiming));
   hipLaunchKernelGGL(scale_add, dim3((N + 127) / 128), dim3(128), 0, s[0], d[0], N, 3, 1);
   CHECK_HIP(hipEventRecord(e, s[0]));
   CHECK_HIP(hipStreamWaitEvent(s[1], e, 0));
   CHECK_HIP(hipMemcpyAsync(d[1], d[0], N * 4, hipMemcpyDeviceToDevice, s[1]));
   CHECK_HIP(hipMemcpyAsync(h[1], d[1], N * 4, hipMemcpyDeviceToHost, s[1]));
   int calls = 0;
   CHECK_HIP(hipLaunchHostFunc(s[1], host_fn, &calls));
   CHECK_HIP(hipStreamSynchronize(s[1]));
   CHECK_INT(calls, 1);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[1][i] != (i * 2) * 3 + 1;   /* d[0] held (i + 0) * 2 - 0 */
   CHECK_INT(bad, 0);

   /* flags and priorities */
   hipStream_t nb;
   unsigned flags = 99;
   CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
   CHECK_HIP(hipStreamGetFlags(nb, &flags));
   CHECK_INT(flags, hipStreamNonBlocking);
   int lo = 0, hi = 0, prio = 99;
   CHECK_HIP(hipDeviceGetStreamPriorityRange(&lo, &hi));
   hipStream_t ps;
   CHECK_HIP(hipStreamCreateWithPriority(&ps, hipStreamDefault, hi));
   CHECK_HIP(hipStreamGetPriority(ps, &prio));
   CHECK_INT(prio, hi);
   CHECK_HIP(hipStreamDestroy(nb));
   CHECK_HIP(hipStreamDestroy(ps));
   CHECK_HIP(hipEventDestroy(e));
   for (int k = 0; k < S; k++) {
      CHECK_HIP(hipStreamDestroy(s[k]));
      hipFree(d[k]);
      hipHostFree(h[k]);
   }
   return hc_end();
}
