/*
 * async_overlap.cu — asynchronous copies and fills return before the work
 * is done (CUDA Runtime API, "API synchronization behavior": copies between
 * device memory and page-locked host memory, and fills of device memory,
 * are asynchronous with respect to the host), as CUDA's asyncAPI sample
 * measures it:
 *
 *  - cudaMemsetAsync, cudaMemcpyAsync from page-locked memory, a kernel and
 *    cudaMemcpyAsync back, then cudaEventRecord: the host then counts its
 *    own loop iterations while cudaEventQuery says cudaErrorNotReady; the
 *    count must be above 0 (the calls did not wait for the work), and the
 *    result exact once the event completes;
 *  - stream order holds for the queued copies: a copy queued after a
 *    kernel sees its output, a kernel after a copy sees the copied data,
 *    across two streams ordered by an event;
 *  - copies of registered (cudaHostRegister) memory are ordered the same.
 */
#include "check.h"

#include <vector>

enum { N = 16 << 20 };   /* 64 MB of ints */

__global__ void add_value(int *p, int n, int v)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      p[i] += v;
}

int main()
{
   check_begin("async_overlap");
   int *h, *d;
   CHECK_CUDA(cudaMallocHost(&h, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   for (int i = 0; i < N; i++)
      h[i] = i & 0xffff;
   cudaStream_t s, s2;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamCreate(&s2));
   cudaEvent_t done;
   CHECK_CUDA(cudaEventCreate(&done));

   CHECK_CUDA(cudaMemsetAsync(d, 0xff, N * sizeof(int), s));
   CHECK_CUDA(cudaMemcpyAsync(d, h, N * sizeof(int), cudaMemcpyHostToDevice, s));
   add_value<<<256, 256, 0, s>>>(d, N, 26);
   CHECK_CUDA(cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaEventRecord(done, s));
   unsigned long counter = 0;
   while (cudaEventQuery(done) == cudaErrorNotReady)
      counter++;
   printf("host iterations while waiting: %lu\n", counter);
   CHECK(counter > 0);
   CHECK_CUDA(cudaGetLastError());
   bool ok = true;
   for (int i = 0; i < N && ok; i++)
      if (h[i] != (i & 0xffff) + 26) {
         printf("h[%d] = %d (want %d)\n", i, h[i], (i & 0xffff) + 26);
         ok = false;
      }
   CHECK(ok);

   /* order across streams: s fills and adds, s2 copies back after the event */
   int *small;
   CHECK_CUDA(cudaMalloc(&small, 4096 * sizeof(int)));
   CHECK_CUDA(cudaMemsetAsync(small, 0, 4096 * sizeof(int), s));
   add_value<<<4, 256, 0, s>>>(small, 4096, 5);
   CHECK_CUDA(cudaEventRecord(done, s));
   CHECK_CUDA(cudaStreamWaitEvent(s2, done, 0));
   std::vector<int> reg(4096 + 1024, -1);
   CHECK_CUDA(cudaHostRegister(reg.data(), reg.size() * sizeof(int), cudaHostRegisterDefault));
   CHECK_CUDA(cudaMemcpyAsync(h, small, 4096 * sizeof(int), cudaMemcpyDeviceToHost, s2));
   CHECK_CUDA(cudaMemcpyAsync(reg.data() + 3, small, 4096 * sizeof(int), cudaMemcpyDeviceToHost, s2));
   add_value<<<4, 256, 0, s2>>>(small, 4096, 1);   /* after the copies */
   CHECK_CUDA(cudaStreamSynchronize(s2));
   CHECK_INT(h[0], 5);
   CHECK_INT(h[4095], 5);
   CHECK_INT(reg[2], -1);
   CHECK_INT(reg[3], 5);
   CHECK_INT(reg[4098], 5);
   CHECK_INT(reg[4099], -1);
   /* registered memory to the device, then a 4-byte fill after it */
   for (int i = 0; i < 4096; i++)
      reg[i] = 3 * i;
   CHECK_CUDA(cudaMemcpyAsync(small, reg.data(), 4096 * sizeof(int), cudaMemcpyHostToDevice, s2));
   add_value<<<4, 256, 0, s2>>>(small, 4096, 1);
   CHECK_CUDA(cudaMemcpyAsync(h, small, 4096 * sizeof(int), cudaMemcpyDeviceToHost, s2));
   CHECK_CUDA(cudaStreamSynchronize(s2));
   CHECK_INT(h[0], 1);
   CHECK_INT(h[1000], 3001);
   CHECK_CUDA(cudaHostUnregister(reg.data()));

   CHECK_CUDA(cudaFree(small));
   CHECK_CUDA(cudaEventDestroy(done));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaStreamDestroy(s2));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaFreeHost(h));
   return check_end();
}
