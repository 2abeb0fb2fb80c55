/*
 * default_stream.cu — the legacy default stream's implicit synchronisation
 * (CUDA Runtime API, "API synchronization behavior" / "Stream
 * synchronization behavior"):
 *
 *  - work on the legacy stream (0, cudaStreamLegacy) waits for earlier work
 *    of every blocking stream: a kernel on stream 0 reads what a held
 *    kernel of a blocking stream writes;
 *  - later work of a blocking stream waits for the legacy stream's earlier
 *    work;
 *  - a stream created with cudaStreamNonBlocking does neither: legacy work
 *    completes while the non-blocking stream is held, and the
 *    non-blocking stream's work completes while the legacy stream is held;
 *  - a synchronous cudaMemcpy (legacy stream) waits for earlier work of
 *    blocking streams, and returns while a non-blocking stream is held.
 * Streams are held by blocking host functions (gate.h), so every ordering
 * is certain, not a matter of timing; a gate opened late by another thread
 * turns a wrong wait into a failed check, not a hang.
 */
#include "check.h"
#include "gate.h"

#include <vector>

enum { N = 4096 };

__global__ void set(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = v + i;
}

/* dst[i] = src[i] * 2 + 1 */
__global__ void twice(int *dst, const int *src, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dst[i] = src[i] * 2 + 1;
}

static int *dev_zeroed(void)
{
   int *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   CHECK_CUDA(cudaMemset(d, 0, N * sizeof(int)));
   return d;
}

static void check_values(const char *what, const int *d, int mul, int add)
{
   std::vector<int> got(N), want(N);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = (100 + i) * mul + add;
   CHECK_ARRAY_I32(what, got.data(), want.data(), N);
}

/* legacy after blocking */
static void legacy_waits_for_blocking(cudaStream_t legacy)
{
   cudaStream_t b;
   CHECK_CUDA(cudaStreamCreate(&b));
   int *x = dev_zeroed(), *y = dev_zeroed();
   CHECK_CUDA(cudaDeviceSynchronize());
   gate g;
   CHECK_CUDA(gate_close(&g, b));
   set<<<N / 256, 256, 0, b>>>(x, N, 100);
   twice<<<N / 256, 256, 0, legacy>>>(y, x, N);   /* must see x = 100 + i */
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventRecord(e, legacy));
   sleep_ms(20);
   CHECK_ERR(cudaEventQuery(e), cudaErrorNotReady);   /* legacy held by b's gate */
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(e));
   check_values(legacy ? "cudaStreamLegacy after a blocking stream" : "stream 0 after a blocking stream", y, 2, 1);
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaFree(x));
   CHECK_CUDA(cudaFree(y));
   CHECK_CUDA(cudaStreamDestroy(b));
}

/* blocking after legacy */
static void blocking_waits_for_legacy(void)
{
   cudaStream_t b;
   CHECK_CUDA(cudaStreamCreate(&b));
   int *x = dev_zeroed(), *y = dev_zeroed();
   CHECK_CUDA(cudaDeviceSynchronize());
   gate g;
   CHECK_CUDA(gate_close(&g, 0));
   set<<<N / 256, 256>>>(x, N, 100);
   twice<<<N / 256, 256, 0, b>>>(y, x, N);
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventRecord(e, b));
   sleep_ms(20);
   CHECK_ERR(cudaEventQuery(e), cudaErrorNotReady);   /* b held by the legacy gate */
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(e));
   check_values("blocking stream after the legacy stream", y, 2, 1);
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaFree(x));
   CHECK_CUDA(cudaFree(y));
   CHECK_CUDA(cudaStreamDestroy(b));
}

/* neither way for a non-blocking stream */
static void non_blocking_is_independent(void)
{
   cudaStream_t nb;
   CHECK_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
   int *x = dev_zeroed(), *y = dev_zeroed();
   CHECK_CUDA(cudaDeviceSynchronize());
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

   gate g;
   CHECK_CUDA(gate_close(&g, nb));
   set<<<N / 256, 256, 0, nb>>>(y, N, 7);
   set<<<N / 256, 256>>>(x, N, 100);
   CHECK_CUDA(cudaEventRecord(e, 0));
   CHECK(wait_done(e, 5000));             /* legacy work done while nb is held */
   CHECK_INT(g.open.load(), 0);
   check_values("legacy stream while a non-blocking one is held", x, 1, 0);   /* memcpy: does not wait for nb */
   CHECK_INT(g.open.load(), 0);
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(nb));

   gate g2;
   CHECK_CUDA(gate_close(&g2, 0));
   set<<<N / 256, 256, 0, nb>>>(y, N, 100);
   CHECK_CUDA(cudaEventRecord(e, nb));
   CHECK(wait_done(e, 5000));             /* nb's work done while legacy is held */
   CHECK_INT(g2.open.load(), 0);
   gate_open(&g2);
   CHECK_CUDA(cudaDeviceSynchronize());
   check_values("non-blocking stream while the legacy one is held", y, 1, 0);
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaFree(x));
   CHECK_CUDA(cudaFree(y));
   CHECK_CUDA(cudaStreamDestroy(nb));
}

/* cudaMemcpy is on the legacy stream: it waits for a held blocking stream */
static void memcpy_waits_for_blocking(void)
{
   cudaStream_t b;
   CHECK_CUDA(cudaStreamCreate(&b));
   int *x = dev_zeroed();
   CHECK_CUDA(cudaDeviceSynchronize());
   gate g;
   CHECK_CUDA(gate_close(&g, b));
   set<<<N / 256, 256, 0, b>>>(x, N, 100);
   std::thread opener = gate_open_later(&g, 50);
   check_values("cudaMemcpy after a held blocking stream", x, 1, 0);
   CHECK_INT(g.open.load(), 1);
   opener.join();
   CHECK_CUDA(cudaFree(x));
   CHECK_CUDA(cudaStreamDestroy(b));
}

int main(void)
{
   check_begin("default_stream");
   /* every kernel loaded before any gate closes (gate.h): n = 0 */
   set<<<1, 1>>>(NULL, 0, 0);
   twice<<<1, 1>>>(NULL, NULL, 0);
   CHECK_CUDA(cudaDeviceSynchronize());
   legacy_waits_for_blocking(0);
   legacy_waits_for_blocking(cudaStreamLegacy);
   blocking_waits_for_legacy();
   non_blocking_is_independent();
   memcpy_waits_for_blocking();
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
