/*
 * events.cu — events as CUDA defines them (CUDA Runtime API, "Event
 * Management"):
 *
 *  - elapsed time between two events around a kernel is positive and no
 *    longer than the host clock measured around the whole sequence; around
 *    a stream held 60 ms by a blocking host function (gate.h) it is at
 *    least about that long (the device stamps an event when it reaches it);
 *  - an event never recorded is complete (cudaEventQuery, Synchronize);
 *    an event recorded behind a gate is cudaErrorNotReady until the gate
 *    opens, then cudaSuccess; cudaErrorNotReady is not the last error;
 *  - cudaEventElapsedTime: cudaErrorInvalidResourceHandle for an event
 *    created with cudaEventDisableTiming or never recorded,
 *    cudaErrorNotReady while one is pending (not recorded as the last
 *    error: NVIDIA's runtime on an H200), cudaErrorInvalidValue for a
 *    NULL result;
 *  - cudaEventBlockingSync events synchronise like the others;
 *  - an event recorded again on another stream tracks the last record
 *    only; records on several streams (one held by a gate, one through a
 *    cudaStreamWaitEvent on it, one free), each queried;
 *  - bad flags are cudaErrorInvalidValue.
 */
#include "check.h"
#include "gate.h"

#include <vector>

enum { N = 1 << 14 };

/* A dependent chain per thread: takes time, result known exactly. */
__global__ void churn(unsigned *out, int n, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned v = (unsigned)i;
   for (int k = 0; k < iters; k++)
      v = v * 1664525u + 1013904223u;
   out[i] = v;
}

static unsigned churn_ref(int i, int iters)
{
   unsigned v = (unsigned)i;
   for (int k = 0; k < iters; k++)
      v = v * 1664525u + 1013904223u;
   return v;
}

static void check_timing(void)
{
   cudaEvent_t a, b;
   CHECK_CUDA(cudaEventCreate(&a));
   CHECK_CUDA(cudaEventCreate(&b));
   unsigned *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(unsigned)));
   CHECK_CUDA(cudaDeviceSynchronize());
   const int iters = 500;
   double t0 = now_ms();
   CHECK_CUDA(cudaEventRecord(a, 0));
   churn<<<N / 256, 256>>>(d, N, iters);
   CHECK_CUDA(cudaEventRecord(b, 0));
   CHECK_CUDA(cudaEventSynchronize(b));
   double host = now_ms() - t0;
   float ms = -1;
   CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
   printf("kernel: %.3f ms by events, %.3f ms by the host clock around it\n", ms, host);
   CHECK(ms > 0);
   CHECK(ms <= host + 0.5);
   float back = 1;
   CHECK_CUDA(cudaEventElapsedTime(&back, b, a));      /* the other way round: negative */
   CHECK(back <= 0);
   std::vector<unsigned> got(N), want(N);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = churn_ref(i, iters);
   CHECK_ARRAY_U32("churn", got.data(), want.data(), N);

   /* a stream held 60 ms between the records */
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   gate g;
   CHECK_CUDA(cudaEventRecord(a, s));
   CHECK_CUDA(gate_close(&g, s));
   CHECK_CUDA(cudaEventRecord(b, s));
   CHECK_CUDA(cudaEventSynchronize(a));
   t0 = now_ms();
   CHECK_ERR(cudaEventElapsedTime(&ms, a, b), cudaErrorNotReady);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);   /* NotReady is no error (H200) */
   sleep_ms(60);
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(b));
   host = now_ms() - t0;
   CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
   printf("held stream: %.3f ms by events, at least %.3f ms by the host clock\n", ms, host);
   CHECK(ms >= 55);
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaEventDestroy(a));
   CHECK_CUDA(cudaEventDestroy(b));
   CHECK_CUDA(cudaFree(d));
}

static void check_errors(void)
{
   cudaEvent_t t, nt, never, bs;
   CHECK_CUDA(cudaEventCreate(&t));
   CHECK_CUDA(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventCreate(&never));
   CHECK_CUDA(cudaEventCreateWithFlags(&bs, cudaEventBlockingSync));
   float ms = 0;
   CHECK_CUDA(cudaEventRecord(t, 0));
   CHECK_CUDA(cudaEventRecord(nt, 0));
   CHECK_CUDA(cudaEventRecord(bs, 0));
   CHECK_CUDA(cudaEventSynchronize(bs));
   CHECK_CUDA(cudaEventSynchronize(nt));
   CHECK_ERR(cudaEventElapsedTime(&ms, t, nt), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaEventElapsedTime(&ms, nt, t), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaEventElapsedTime(&ms, t, never), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaEventElapsedTime(NULL, t, bs), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);   /* real errors are recorded */
   CHECK_CUDA(cudaEventElapsedTime(&ms, t, bs));
   CHECK(ms >= 0);
   CHECK_CUDA(cudaEventQuery(never));          /* never recorded: complete */
   CHECK_CUDA(cudaEventSynchronize(never));
   cudaEvent_t bad;
   CHECK_ERR(cudaEventCreateWithFlags(&bad, 0x40), cudaErrorInvalidValue);
   CHECK_ERR(cudaEventCreateWithFlags(NULL, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaEventCreate(NULL), cudaErrorInvalidValue);
   /* interprocess events must also disable timing */
   CHECK_ERR(cudaEventCreateWithFlags(&bad, cudaEventInterprocess), cudaErrorInvalidValue);
   cudaGetLastError();
   for (cudaEvent_t e : {t, nt, never, bs})
      CHECK_CUDA(cudaEventDestroy(e));
}

/* One gate at a time: NVIDIA may run host functions of different streams
 * one after another on one thread, so a second stream is held through a
 * cudaStreamWaitEvent on the first instead of a gate of its own. */
static void check_query_and_streams(void)
{
   cudaStream_t s[3];
   for (auto &x : s)
      CHECK_CUDA(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
   cudaEvent_t e[3], moved;
   for (auto &x : e)
      CHECK_CUDA(cudaEventCreate(&x));
   CHECK_CUDA(cudaEventCreate(&moved));
   gate g;
   CHECK_CUDA(gate_close(&g, s[0]));
   CHECK_CUDA(cudaEventRecord(e[0], s[0]));       /* held by the gate */
   CHECK_CUDA(cudaStreamWaitEvent(s[1], e[0], 0));
   CHECK_CUDA(cudaEventRecord(e[1], s[1]));       /* held through e[0] */
   CHECK_CUDA(cudaEventRecord(e[2], s[2]));       /* free */
   CHECK_CUDA(cudaEventRecord(moved, s[0]));
   CHECK(wait_done(e[2], 5000));
   sleep_ms(10);
   CHECK_ERR(cudaEventQuery(e[0]), cudaErrorNotReady);
   CHECK_ERR(cudaEventQuery(e[1]), cudaErrorNotReady);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);   /* NotReady is no error */
   /* recorded again on the free stream: the last record counts */
   CHECK_ERR(cudaEventQuery(moved), cudaErrorNotReady);
   CHECK_CUDA(cudaEventRecord(moved, s[2]));
   CHECK(wait_done(moved, 5000));
   CHECK_ERR(cudaEventQuery(e[0]), cudaErrorNotReady);
   CHECK_ERR(cudaEventQuery(e[1]), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(e[1]));
   for (int i = 0; i < 3; i++)
      CHECK_CUDA(cudaEventQuery(e[i]));
   float ms = -1;
   CHECK_CUDA(cudaEventElapsedTime(&ms, e[2], e[1]));   /* across streams */
   CHECK(ms >= 0);
   CHECK_CUDA(cudaEventElapsedTime(&ms, e[0], e[1]));
   CHECK(ms >= 0);
   for (int i = 0; i < 3; i++) {
      CHECK_CUDA(cudaEventDestroy(e[i]));
      CHECK_CUDA(cudaStreamDestroy(s[i]));
   }
   CHECK_CUDA(cudaEventDestroy(moved));
}

/* An event destroyed while its record is pending: the call returns at once
 * and the stream's work goes on. */
static void check_destroy_pending(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreate(&e));
   gate g;
   CHECK_CUDA(gate_close(&g, s));
   CHECK_CUDA(cudaEventRecord(e, s));
   CHECK_CUDA(cudaEventDestroy(e));
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaStreamDestroy(s));
}

int main(void)
{
   check_begin("events");
   /* every kernel loaded before any gate closes (gate.h): n = 0 */
   churn<<<1, 1>>>(NULL, 0, 1);
   CHECK_CUDA(cudaDeviceSynchronize());
   check_timing();
   check_errors();
   check_query_and_streams();
   check_destroy_pending();
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
