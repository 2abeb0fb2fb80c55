/*
 * printf_order.cu — when device printf output appears, relative to the
 * host's own output: CUDA prints the printf FIFO at synchronisation points
 * (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, a
 * blocking cudaMemcpy) and at the start of a launch, in the order the
 * kernels ran.
 *
 * Several kernels are launched back to back on one stream (a created
 * blocking stream, the legacy default stream, both) and print numbered
 * lines from one thread each (one of them 300 lines); their output must
 * appear complete and in launch order at the next synchronisation point,
 * after everything the host printed before it and before anything the
 * host prints after it.  The host prints only before a batch of launches
 * or after a synchronisation, never between two launches of a batch: the
 * launch-time flush makes the position of an earlier kernel's output
 * relative to such a line depend on timing.
 *
 * run.sh compares stdout with printf_order.expected, written from CUDA's
 * documented semantics (CUDA C++ Programming Guide, "Formatted Output");
 * to be confirmed by the native run (tests/cuda/NATIVE.md).
 */
#include "check.h"

__global__ void k_say(int id, int lines)
{
   for (int k = 0; k < lines; k++)
      printf("kernel %d line %d\n", id, k);
}

__global__ void k_many(int id)
{
   for (int k = 0; k < 300; k++)
      printf("kernel %d long %03d\n", id, k);
}

int main()
{
   check_begin("printf_order");
   cudaStream_t s;
   cudaEvent_t ev;
   int *d;
   int h = 0;
   REQUIRE_CUDA(cudaStreamCreate(&s));
   REQUIRE_CUDA(cudaEventCreate(&ev));
   REQUIRE_CUDA(cudaMalloc(&d, sizeof(int)));

   printf("host: 1 before the first batch\n");
   k_say<<<1, 1, 0, s>>>(1, 3);
   k_say<<<1, 1, 0, s>>>(2, 2);
   k_many<<<1, 1, 0, s>>>(3);
   k_say<<<1, 1, 0, s>>>(4, 1);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaStreamSynchronize(s));
   printf("host: 2 after cudaStreamSynchronize\n");

   k_say<<<1, 1>>>(5, 2);
   k_say<<<1, 1>>>(6, 2);
   CHECK_CUDA(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
   printf("host: 3 after a blocking cudaMemcpy\n");

   k_say<<<1, 1, 0, s>>>(7, 2);
   CHECK_CUDA(cudaEventRecord(ev, s));
   CHECK_CUDA(cudaEventSynchronize(ev));
   printf("host: 4 after cudaEventSynchronize\n");

   /* the legacy default stream waits for the blocking stream s */
   k_say<<<1, 1, 0, s>>>(8, 1);
   k_say<<<1, 1>>>(9, 1);
   CHECK_CUDA(cudaDeviceSynchronize());
   printf("host: 5 after cudaDeviceSynchronize\n");

   /* nothing is pending: a synchronisation prints nothing more */
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaStreamSynchronize(s));
   printf("host: 6 done\n");

   CHECK_CUDA(cudaEventDestroy(ev));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(d));
   return check_end();
}
