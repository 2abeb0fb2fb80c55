/*
 * launch_storm.cu — 10,000 launches back to back, never waited for one by
 * one (issue 15, finding 8: metalcuda groups the launches of a stream into
 * Metal command buffers while earlier ones run, and Metal allows only 64
 * command buffers in flight per queue):
 *
 *  - 10,000 launches on the legacy default stream, each an order-sensitive
 *    step (v = v * 33 + i, i the launch's index), give exactly the host's
 *    sequential result: none lost, none reordered, none run twice;
 *  - two blocking streams, 2 x 2,500 launches, with an event recorded every
 *    250 launches on each and the other stream waiting on it, and a host
 *    function every 500 launches that must see its stream's earlier
 *    kernels done (it reads their result from mapped host memory) and run
 *    in order;
 *  - work that is never synchronised still runs: 300 launches on a
 *    non-blocking stream, the last of which sets a flag in mapped host
 *    memory that the host polls with no CUDA call (a runtime that kept
 *    launches until the next synchronisation would spin here forever;
 *    the poll gives up after 60 s).
 * Every value is checked against the same steps done on the host.
 */
#include "check.h"

#include <chrono>
#include <thread>

enum { THREADS = 256, LAUNCHES = 10000, PER_STREAM = 2500, EVERY_EVENT = 250, EVERY_HOST = 500, TAIL = 300 };

__global__ void step(unsigned *v, unsigned i)
{
   unsigned t = threadIdx.x;
   v[t] = v[t] * 33u + i + t;
}

__global__ void publish(const unsigned *v, volatile unsigned *flag, unsigned *copy)
{
   copy[threadIdx.x] = v[threadIdx.x];
   __syncthreads();
   if (threadIdx.x == 0) {
      __threadfence_system();
      *flag = 1;
   }
}

static void host_step(unsigned *v, unsigned i)
{
   for (unsigned t = 0; t < THREADS; t++)
      v[t] = v[t] * 33u + i + t;
}

/* What a host function checks: the stream's value after `launches` steps,
 * read from mapped memory its kernels write. */
struct host_check {
   const unsigned *mapped;     /* the stream's vector (mapped host memory) */
   unsigned want0;             /* its element 0 after the steps before the call */
   int order;                  /* its index among the calls of its stream */
   int *next;                  /* the index the next call of the stream must have */
   int *bad;
};

static void CUDART_CB on_host(void *data)
{
   host_check *h = (host_check *)data;
   if (h->mapped[0] != h->want0 || *h->next != h->order)
      (*h->bad)++;
   (*h->next)++;
}

int main()
{
   check_begin("launch_storm");

   /* 1. the legacy stream */
   unsigned *v;
   CHECK_CUDA(cudaMalloc(&v, THREADS * sizeof(unsigned)));
   CHECK_CUDA(cudaMemset(v, 0, THREADS * sizeof(unsigned)));
   unsigned want[THREADS] = { 0 }, got[THREADS];
   for (unsigned i = 0; i < LAUNCHES; i++) {
      step<<<1, THREADS>>>(v, i);
      host_step(want, i);
   }
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, v, sizeof(got), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("10,000 steps on the legacy stream", got, want, THREADS);

   /* 2. two streams, events and host functions */
   cudaStream_t s[2];
   unsigned *m[2];
   cudaEvent_t ev[2];
   int next[2] = { 0, 0 }, bad = 0;
   static host_check hc[2][PER_STREAM / EVERY_HOST];
   unsigned w[2][THREADS] = { { 0 } };
   for (int k = 0; k < 2; k++) {
      CHECK_CUDA(cudaStreamCreate(&s[k]));
      CHECK_CUDA(cudaEventCreateWithFlags(&ev[k], cudaEventDisableTiming));
      CHECK_CUDA(cudaHostAlloc(&m[k], THREADS * sizeof(unsigned), cudaHostAllocMapped));
      memset(m[k], 0, THREADS * sizeof(unsigned));
   }
   unsigned *dm[2];
   for (int k = 0; k < 2; k++)
      CHECK_CUDA(cudaHostGetDevicePointer((void **)&dm[k], m[k], 0));
   for (unsigned i = 0; i < PER_STREAM; i++) {
      for (int k = 0; k < 2; k++) {
         step<<<1, THREADS, 0, s[k]>>>(dm[k], i * 2 + k);
         host_step(w[k], i * 2 + k);
         if ((i + 1) % EVERY_EVENT == 0) {
            CHECK_CUDA(cudaEventRecord(ev[k], s[k]));
            CHECK_CUDA(cudaStreamWaitEvent(s[1 - k], ev[k], 0));
         }
         if ((i + 1) % EVERY_HOST == 0) {
            int n = (int)((i + 1) / EVERY_HOST) - 1;
            hc[k][n] = host_check{ m[k], w[k][0], n, &next[k], &bad };
            CHECK_CUDA(cudaLaunchHostFunc(s[k], on_host, &hc[k][n]));
         }
      }
   }
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_U32("stream 0's steps", m[0], w[0], THREADS);
   CHECK_ARRAY_U32("stream 1's steps", m[1], w[1], THREADS);
   CHECK_INT(next[0], PER_STREAM / EVERY_HOST);
   CHECK_INT(next[1], PER_STREAM / EVERY_HOST);
   CHECK_INT(bad, 0);   /* every host function saw its stream's earlier kernels done, in order */

   /* 3. never synchronised: the flag must come */
   cudaStream_t nb;
   CHECK_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
   unsigned *flag, *copy, *dflag, *dcopy;
   CHECK_CUDA(cudaHostAlloc(&flag, sizeof(unsigned), cudaHostAllocMapped));
   CHECK_CUDA(cudaHostAlloc(&copy, THREADS * sizeof(unsigned), cudaHostAllocMapped));
   CHECK_CUDA(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
   CHECK_CUDA(cudaHostGetDevicePointer((void **)&dcopy, copy, 0));
   *flag = 0;
   for (unsigned i = 0; i < TAIL; i++) {
      step<<<1, THREADS, 0, nb>>>(v, LAUNCHES + i);
      host_step(want, LAUNCHES + i);
   }
   publish<<<1, THREADS, 0, nb>>>(v, dflag, dcopy);
   auto t0 = std::chrono::steady_clock::now();
   bool seen = false;
   while (!(seen = *(volatile unsigned *)flag != 0) &&
          std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
      std::this_thread::sleep_for(std::chrono::microseconds(100));
   CHECK(seen);
   if (seen)
      CHECK_ARRAY_U32("300 steps never synchronised", copy, want, THREADS);
   CHECK_CUDA(cudaStreamSynchronize(nb));

   for (int k = 0; k < 2; k++) {
      CHECK_CUDA(cudaStreamDestroy(s[k]));
      CHECK_CUDA(cudaEventDestroy(ev[k]));
      CHECK_CUDA(cudaFreeHost(m[k]));
   }
   CHECK_CUDA(cudaStreamDestroy(nb));
   CHECK_CUDA(cudaFreeHost(flag));
   CHECK_CUDA(cudaFreeHost(copy));
   CHECK_CUDA(cudaFree(v));
   return check_end();
}
