/*
 * streams.cu — streams as CUDA defines them (CUDA Runtime API, "Stream
 * Management"):
 *
 *  - flags: cudaStreamCreate gives cudaStreamDefault, cudaStreamCreateWithFlags
 *    (NonBlocking) reports it back; an unknown flag, or a NULL pointer, is
 *    cudaErrorInvalidValue;
 *  - priorities: cudaDeviceGetStreamPriorityRange gives greatest <= least;
 *    a priority outside the range is clamped to it (cudaStreamGetPriority);
 *  - order within a stream: 32 dependent kernels (each reads the previous
 *    one's output) give the exact sequential result;
 *  - cudaStreamQuery is cudaErrorNotReady while work is pending (held by a
 *    blocking host function, see gate.h) and cudaSuccess after
 *    cudaStreamSynchronize; cudaErrorNotReady is not recorded as the last
 *    error;
 *  - cudaStreamWaitEvent: a kernel on stream b after a wait on an event
 *    recorded on stream a (held by a gate) sees a's kernel's output;
 *  - host functions and callbacks run in stream order after the earlier
 *    kernels, in the order queued, with cudaSuccess as the callback status,
 *    and later work waits for them; NULL functions and nonzero callback
 *    flags are cudaErrorInvalidValue;
 *  - cudaStreamDestroy with pending work returns at once, and the work
 *    completes (its output is there after cudaDeviceSynchronize);
 *  - the special handles cudaStreamLegacy and cudaStreamPerThread work
 *    wherever a stream does, and cannot be destroyed
 *    (cudaErrorInvalidResourceHandle, as stream 0); the event flags for
 *    stream capture (cudaEventWaitExternal, cudaEventRecordExternal) are
 *    cudaErrorIllegalState outside a capture, unknown flags
 *    cudaErrorInvalidValue (NVIDIA's answers on an H200).  (Bogus and
 *    destroyed handles are left out: NVIDIA's runtime dereferences them.)
 */
#include "check.h"
#include "gate.h"

#include <vector>

enum { N = 4096 };

__global__ void set(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = v;
}

/* dst[i] = src[i] * 3 + k: applied repeatedly, the result depends on order. */
__global__ void step(int *dst, const int *src, int n, int k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dst[i] = src[i] * 3 + k + i;
}

static void check_flags_and_priorities(void)
{
   cudaStream_t s, nb;
   unsigned flags = 99;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamGetFlags(s, &flags));
   CHECK_INT(flags, cudaStreamDefault);
   CHECK_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
   CHECK_CUDA(cudaStreamGetFlags(nb, &flags));
   CHECK_INT(flags, cudaStreamNonBlocking);
   cudaStream_t bad;
   CHECK_ERR(cudaStreamCreateWithFlags(&bad, 0x4), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamCreate(NULL), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamGetFlags(s, NULL), cudaErrorInvalidValue);
   cudaGetLastError();

   int least = 99, greatest = 99;
   CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
   CHECK(greatest <= least);
   CHECK_CUDA(cudaDeviceGetStreamPriorityRange(NULL, &greatest));   /* either may be NULL */
   printf("stream priorities: least %d, greatest %d\n", least, greatest);
   cudaStream_t hi, lo, mid;
   int p = 99;
   CHECK_CUDA(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest - 10));
   CHECK_CUDA(cudaStreamGetPriority(hi, &p));
   CHECK_INT(p, greatest);
   CHECK_CUDA(cudaStreamGetFlags(hi, &flags));
   CHECK_INT(flags, cudaStreamNonBlocking);
   CHECK_CUDA(cudaStreamCreateWithPriority(&lo, cudaStreamDefault, least + 10));
   CHECK_CUDA(cudaStreamGetPriority(lo, &p));
   CHECK_INT(p, least);
   CHECK_CUDA(cudaStreamCreateWithPriority(&mid, cudaStreamDefault, (least + greatest) / 2));
   CHECK_CUDA(cudaStreamGetPriority(mid, &p));
   CHECK_INT(p, (least + greatest) / 2);
   CHECK_CUDA(cudaStreamGetPriority(s, &p));     /* cudaStreamCreate: priority 0 */
   CHECK_INT(p, 0);
   for (cudaStream_t x : {s, nb, hi, lo, mid})
      CHECK_CUDA(cudaStreamDestroy(x));
}

/* 32 dependent kernels on one stream, ping-ponging two buffers. */
static void check_order(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   int *a, *b;
   CHECK_CUDA(cudaMalloc(&a, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&b, N * sizeof(int)));
   set<<<(N + 255) / 256, 256, 0, s>>>(a, N, 1);
   for (int k = 0; k < 32; k++) {
      if (k % 2 == 0)
         step<<<(N + 127) / 128, 128, 0, s>>>(b, a, N, k);
      else
         step<<<(N + 127) / 128, 128, 0, s>>>(a, b, N, k);
   }
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaStreamSynchronize(s));
   std::vector<int> got(N), want(N);
   CHECK_CUDA(cudaMemcpy(got.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++) {
      unsigned v = 1;   /* unsigned: wraps like the device's int, without UB */
      for (int k = 0; k < 32; k++)
         v = v * 3u + (unsigned)k + (unsigned)i;
      want[i] = (int)v;
   }
   CHECK_ARRAY_I32("32 kernels in stream order", got.data(), want.data(), N);
   CHECK_CUDA(cudaFree(a));
   CHECK_CUDA(cudaFree(b));
   CHECK_CUDA(cudaStreamDestroy(s));
}

static void check_query(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaStreamQuery(s));               /* nothing queued */
   gate g;
   CHECK_CUDA(gate_close(&g, s));
   set<<<(N + 255) / 256, 256, 0, s>>>(d, N, 7);
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);    /* NotReady is no error */
   sleep_ms(20);
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaStreamQuery(s));
   std::vector<int> got(N), want(N, 7);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("kernel after the gate", got.data(), want.data(), N);
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaStreamDestroy(s));
}

static void check_wait_event(void)
{
   cudaStream_t a, b;
   CHECK_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
   CHECK_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
   int *x, *y;
   CHECK_CUDA(cudaMalloc(&x, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&y, N * sizeof(int)));
   set<<<(N + 255) / 256, 256, 0, a>>>(x, N, 0);
   gate g;
   CHECK_CUDA(gate_close(&g, a));
   set<<<(N + 255) / 256, 256, 0, a>>>(x, N, 5);
   CHECK_CUDA(cudaEventRecord(e, a));
   CHECK_CUDA(cudaStreamWaitEvent(b, e, 0));
   step<<<(N + 127) / 128, 128, 0, b>>>(y, x, N, 1);     /* y = x*3 + 1 + i */
   cudaEvent_t done_b;
   CHECK_CUDA(cudaEventCreateWithFlags(&done_b, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventRecord(done_b, b));
   sleep_ms(20);
   CHECK_ERR(cudaStreamQuery(b), cudaErrorNotReady);      /* b waits for a's gate */
   CHECK_ERR(cudaEventQuery(done_b), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(b));
   std::vector<int> got(N), want(N);
   CHECK_CUDA(cudaMemcpy(got.data(), y, N * sizeof(int), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = 5 * 3 + 1 + i;
   CHECK_ARRAY_I32("stream b after waiting on a's event", got.data(), want.data(), N);
   /* waiting on an event never recorded waits for nothing */
   cudaEvent_t fresh;
   CHECK_CUDA(cudaEventCreate(&fresh));
   CHECK_CUDA(cudaStreamWaitEvent(b, fresh, 0));
   CHECK_CUDA(cudaStreamSynchronize(b));
   CHECK_ERR(cudaStreamWaitEvent(b, e, 0x100), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamWaitEvent(b, e, cudaEventWaitExternal), cudaErrorIllegalState);
   CHECK_ERR(cudaEventRecordWithFlags(e, b, cudaEventRecordExternal), cudaErrorIllegalState);
   CHECK_ERR(cudaEventRecordWithFlags(e, b, 0x100), cudaErrorInvalidValue);
   CHECK_CUDA(cudaEventRecordWithFlags(e, b, cudaEventRecordDefault));
   cudaGetLastError();
   for (cudaEvent_t ev : {e, done_b, fresh})
      CHECK_CUDA(cudaEventDestroy(ev));
   CHECK_CUDA(cudaFree(x));
   CHECK_CUDA(cudaFree(y));
   CHECK_CUDA(cudaStreamDestroy(a));
   CHECK_CUDA(cudaStreamDestroy(b));
}

/* ---- host functions and callbacks ---- */

struct host_log {
   std::atomic<int> n{0};
   int order[16];
   cudaError_t status[16];
   cudaStream_t stream[16];
};
struct host_arg {
   host_log *log;
   int id;
};

static void CUDART_CB host_fn(void *p)
{
   host_arg *a = (host_arg *)p;
   int k = a->log->n++;
   if (k < 16) {
      a->log->order[k] = a->id;
      a->log->status[k] = cudaSuccess;
      a->log->stream[k] = NULL;
   }
}

static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *p)
{
   host_arg *a = (host_arg *)p;
   int k = a->log->n++;
   if (k < 16) {
      a->log->order[k] = a->id;
      a->log->status[k] = status;
      a->log->stream[k] = s;
   }
}

static void check_host_functions(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   host_log log;
   host_arg args[6];
   for (int i = 0; i < 6; i++)
      args[i] = {&log, i + 1};
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   gate g;
   CHECK_CUDA(gate_close(&g, s));
   CHECK_CUDA(cudaLaunchHostFunc(s, host_fn, &args[0]));
   CHECK_CUDA(cudaStreamAddCallback(s, callback, &args[1], 0));
   set<<<(N + 255) / 256, 256, 0, s>>>(d, N, 3);
   CHECK_CUDA(cudaLaunchHostFunc(s, host_fn, &args[2]));
   CHECK_CUDA(cudaStreamAddCallback(s, callback, &args[3], 0));
   CHECK_CUDA(cudaLaunchHostFunc(s, host_fn, &args[4]));
   sleep_ms(20);
   CHECK_INT(log.n.load(), 0);                  /* all behind the gate */
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(log.n.load(), 5);
   for (int i = 0; i < 5 && i < log.n.load(); i++) {
      CHECK_INT(log.order[i], i + 1);
      CHECK_ERR(log.status[i], cudaSuccess);
   }
   CHECK(log.stream[1] == s);                    /* a callback gets its stream */
   CHECK(log.stream[3] == s);
   /* a host function holds back the stream's later work */
   gate g2;
   CHECK_CUDA(gate_close(&g2, s));
   set<<<(N + 255) / 256, 256, 0, s>>>(d, N, 4);
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventRecord(e, s));
   sleep_ms(20);
   CHECK_ERR(cudaEventQuery(e), cudaErrorNotReady);
   gate_open(&g2);
   CHECK_CUDA(cudaEventSynchronize(e));
   std::vector<int> got(N), want(N, 4);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("kernel after a host function", got.data(), want.data(), N);
   /* on the legacy stream too */
   log.n = 0;
   CHECK_CUDA(cudaLaunchHostFunc(0, host_fn, &args[5]));
   CHECK_CUDA(cudaStreamAddCallback(0, callback, &args[0], 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(log.n.load(), 2);
   CHECK_INT(log.order[0], 6);
   CHECK_INT(log.order[1], 1);
   CHECK(log.stream[1] == 0);
   CHECK_ERR(cudaLaunchHostFunc(s, NULL, NULL), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamAddCallback(s, NULL, NULL, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamAddCallback(s, callback, &args[0], 1), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaStreamDestroy(s));
}

static void check_destroy_pending(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   gate g;
   CHECK_CUDA(gate_close(&g, s));
   set<<<(N + 255) / 256, 256, 0, s>>>(d, N, 9);
   std::thread opener = gate_open_later(&g, 3000);   /* a hung destroy fails, not hangs */
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_INT(g.open.load(), 0);                      /* it returned while the work was held */
   gate_open(&g);
   opener.join();
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<int> got(N), want(N, 9);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("work of a destroyed stream", got.data(), want.data(), N);
   CHECK_CUDA(cudaFree(d));
}

static void check_special_handles(void)
{
   unsigned flags = 99;
   CHECK_CUDA(cudaStreamGetFlags(cudaStreamPerThread, &flags));
   CHECK_CUDA(cudaStreamQuery(cudaStreamLegacy));
   CHECK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
   CHECK_CUDA(cudaStreamQuery(0));
   CHECK_CUDA(cudaStreamGetFlags(0, &flags));
   CHECK_INT(flags, cudaStreamDefault);
   int p = 99;
   CHECK_CUDA(cudaStreamGetPriority(0, &p));
   CHECK_INT(p, 0);
   CHECK_ERR(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaStreamDestroy(cudaStreamPerThread), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaStreamDestroy(cudaStreamLegacy), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
   CHECK_CUDA(cudaStreamSynchronize(0));          /* not sticky */
}

int main(void)
{
   check_begin("streams");
   /* every kernel loaded before any gate closes (gate.h): n = 0 */
   set<<<1, 1>>>(NULL, 0, 0);
   step<<<1, 1>>>(NULL, NULL, 0, 0);
   CHECK_CUDA(cudaDeviceSynchronize());
   check_flags_and_priorities();
   check_order();
   check_query();
   check_wait_event();
   check_host_functions();
   check_destroy_pending();
   check_special_handles();
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
