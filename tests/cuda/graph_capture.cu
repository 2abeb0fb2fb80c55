/*
 * graph_capture.cu — stream capture (CUDA Runtime API, "Graph Management"
 * and "Stream Management"):
 *
 *  - a capture on a stream records kernels, fills, copies and host
 *    functions without running them (the data stay as they were); the
 *    stream reports cudaStreamCaptureStatusActive and its capture id and
 *    one dependency; the graph has one node per call, each after the
 *    previous; replayed three times it gives the sequential result each time;
 *  - fork and join across streams through events: the forked stream joins
 *    the capture (Active), the graph has both branches, replay is exact;
 *    a fork that is not joined ends with cudaErrorStreamCaptureUnjoined;
 *    a forked stream may be destroyed before the end once joined (its
 *    work stays in the graph; cuda-samples' graphMemoryNodes does so),
 *    and the end is cudaErrorStreamCaptureUnjoined if it was not;
 *  - NVIDIA's errors (observed on an H200, driver 580, CUDA 13.0):
 *    beginning on the legacy stream cudaErrorStreamCaptureUnsupported,
 *    beginning twice and ending a stream that does not capture
 *    cudaErrorIllegalState; synchronising the capturing stream, and
 *    cudaMalloc during a global-mode capture,
 *    cudaErrorStreamCaptureUnsupported, after which the capture is
 *    invalidated (status Invalidated, end gives
 *    cudaErrorStreamCaptureInvalidated and no graph); a synchronous copy
 *    during a capture on a blocking stream cudaErrorStreamCaptureImplicit;
 *    ending on a forked stream cudaErrorStreamCaptureUnmatched; ending a
 *    global capture from another thread cudaErrorStreamCaptureWrongThread
 *    (the capture then ends); querying an event recorded in the capture
 *    cudaErrorCapturedEvent, waiting on an event recorded outside
 *    cudaErrorStreamCaptureIsolation, a stream callback or a graph launch
 *    cudaErrorStreamCaptureUnsupported, each invalidating the capture;
 *  - modes: cudaMalloc is allowed in relaxed mode, from another thread in
 *    thread-local mode, and after cudaThreadExchangeStreamCaptureMode to
 *    relaxed during a global capture.
 */
#include "check.h"

#include <thread>
#include <vector>

enum { N = 1024 };

__global__ void add(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += v + i;
}

__global__ void mul(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] *= v;
}

static void count_call(void *arg) { ++*(int *)arg; }

static int *fresh(int value)
{
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   std::vector<int> h(N, value);
   CHECK_CUDA(cudaMemcpy(d, h.data(), N * sizeof(int), cudaMemcpyHostToDevice));
   return d;
}

static std::vector<int> read(const int *d)
{
   std::vector<int> h(N);
   CHECK_CUDA(cudaMemcpy(h.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   return h;
}

/* One stream, every kind of captured work, replayed. */
static void linear(cudaStream_t s)
{
   int *a = fresh(1), *b = fresh(5);
   int calls = 0;
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   add<<<N / 256, 256, 0, s>>>(a, N, 3);           /* a = 1 + 3 + i */
   mul<<<N / 256, 256, 0, s>>>(a, N, 2);           /* a *= 2 */
   CHECK_CUDA(cudaMemsetAsync(b, 0, N * sizeof(int), s));
   CHECK_CUDA(cudaMemcpyAsync(b, a, N / 2 * sizeof(int), cudaMemcpyDeviceToDevice, s));
   CHECK_CUDA(cudaLaunchHostFunc(s, count_call, &calls));
   cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
   CHECK_CUDA(cudaStreamIsCapturing(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusActive);
   unsigned long long id = 0;
   cudaGraph_t g0 = NULL;
   const cudaGraphNode_t *deps = NULL;
   size_t ndeps = 99;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st, &id, &g0, &deps, NULL, &ndeps));
   CHECK_INT(st, cudaStreamCaptureStatusActive);
   CHECK(id != 0);
   CHECK(g0 != NULL);
   CHECK_INT(ndeps, 1);
   cudaGraph_t g = NULL;
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK(g == g0);
   CHECK_CUDA(cudaStreamIsCapturing(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);
   /* nothing ran */
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(read(a)[7], 1);
   CHECK_INT(read(b)[7], 5);
   CHECK_INT(calls, 0);
   size_t n = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
   CHECK_INT(n, 5);
   size_t roots = 0, edges = 0;
   CHECK_CUDA(cudaGraphGetRootNodes(g, NULL, &roots));
   CHECK_INT(roots, 1);
   CHECK_CUDA(cudaGraphGetEdges(g, NULL, NULL, NULL, &edges));
   CHECK_INT(edges, 4);
   cudaGraphNode_t nodes[5];
   n = 5;
   CHECK_CUDA(cudaGraphGetNodes(g, nodes, &n));
   int kinds[16] = { 0 };
   for (size_t i = 0; i < n; i++) {
      cudaGraphNodeType t;
      CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &t));
      if ((int)t >= 0 && (int)t < 16)
         kinds[t]++;
   }
   CHECK_INT(kinds[cudaGraphNodeTypeKernel], 2);
   CHECK_INT(kinds[cudaGraphNodeTypeMemset], 1);
   CHECK_INT(kinds[cudaGraphNodeTypeMemcpy], 1);
   CHECK_INT(kinds[cudaGraphNodeTypeHost], 1);
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   bool ok = true;
   std::vector<int> want(N, 1);
   for (int rep = 0; rep < 3; rep++) {
      CHECK_CUDA(cudaGraphLaunch(x, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      std::vector<int> ha = read(a), hb = read(b);
      for (int i = 0; i < N; i++) {
         want[i] = (want[i] + 3 + i) * 2;
         int wb = i < N / 2 ? want[i] : 0;
         if (ha[i] != want[i] || hb[i] != wb) {
            if (ok)
               printf("replay %d: a[%d] = %d (want %d), b[%d] = %d (want %d)\n", rep, i, ha[i], want[i], i, hb[i], wb);
            ok = false;
         }
      }
   }
   CHECK(ok);
   CHECK_INT(calls, 3);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaFree(a));
   CHECK_CUDA(cudaFree(b));
}

/* Fork s2 off s, join it back. */
static void fork_join(cudaStream_t s, cudaStream_t s2)
{
   int *a = fresh(1), *b = fresh(2);
   cudaEvent_t fork, join;
   CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
   add<<<N / 256, 256, 0, s>>>(a, N, 10);
   CHECK_CUDA(cudaEventRecord(fork, s));
   CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
   cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
   CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
   CHECK_INT(st, cudaStreamCaptureStatusActive);
   mul<<<N / 256, 256, 0, s2>>>(b, N, 3);           /* the branches run in either order */
   mul<<<N / 256, 256, 0, s>>>(a, N, 2);
   CHECK_CUDA(cudaEventRecord(join, s2));
   CHECK_CUDA(cudaStreamWaitEvent(s, join, 0));
   add<<<N / 256, 256, 0, s>>>(b, N, 1);           /* after both */
   cudaGraph_t g = NULL;
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);
   size_t n = 0, roots = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
   CHECK_INT(n, 4);
   CHECK_CUDA(cudaGraphGetRootNodes(g, NULL, &roots));
   CHECK_INT(roots, 1);
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaGraphLaunch(x, s2));    /* any stream */
   CHECK_CUDA(cudaGraphLaunch(x, s));     /* after the first launch */
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<int> ha = read(a), hb = read(b);
   bool ok = true;
   for (int i = 0; i < N && ok; i++) {
      int wa = (((1 + 10 + i) * 2) + 10 + i) * 2;
      int wb = (((2 * 3) + 1 + i) * 3) + 1 + i;
      if (ha[i] != wa || hb[i] != wb) {
         printf("fork/join: a[%d] = %d (want %d), b[%d] = %d (want %d)\n", i, ha[i], wa, i, hb[i], wb);
         ok = false;
      }
   }
   CHECK(ok);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* a forked stream destroyed during the capture once joined, as
    * cuda-samples' graphMemoryNodes does: the capture goes on, with its
    * work (unjoined, the end says so) */
   for (int joined = 1; joined >= 0; joined--) {
      cudaStream_t s3;
      CHECK_CUDA(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
      CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
      add<<<N / 256, 256, 0, s>>>(a, N, 5);
      CHECK_CUDA(cudaEventRecord(fork, s));
      CHECK_CUDA(cudaStreamWaitEvent(s3, fork, 0));
      mul<<<N / 256, 256, 0, s3>>>(a, N, 3);
      if (joined) {
         CHECK_CUDA(cudaEventRecord(join, s3));
         CHECK_CUDA(cudaStreamWaitEvent(s, join, 0));
      }
      CHECK_CUDA(cudaStreamDestroy(s3));
      add<<<N / 256, 256, 0, s>>>(a, N, 7);
      g = NULL;
      if (!joined) {
         CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined);
         CHECK(g == NULL);
         break;
      }
      CHECK_CUDA(cudaStreamEndCapture(s, &g));
      CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
      CHECK_INT(n, 3);
      CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
      std::vector<int> before = read(a);
      CHECK_CUDA(cudaGraphLaunch(x, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      std::vector<int> after = read(a);
      bool same = true;
      for (int i = 0; i < N && same; i++)
         same = after[i] == (before[i] + 5 + i) * 3 + 7 + i;   /* add adds v + i */
      CHECK(same);
      CHECK_CUDA(cudaGraphExecDestroy(x));
      CHECK_CUDA(cudaGraphDestroy(g));
   }

   /* a fork left unjoined */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
   CHECK_CUDA(cudaEventRecord(fork, s));
   CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
   add<<<1, 32, 0, s2>>>(a, 32, 1);
   add<<<1, 32, 0, s>>>(a, 32, 1);
   g = (cudaGraph_t)&g;
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined);
   CHECK(g == NULL);
   CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);

   /* ending on the forked stream */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
   CHECK_CUDA(cudaEventRecord(fork, s));
   CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
   CHECK_ERR(cudaStreamEndCapture(s2, &g), cudaErrorStreamCaptureUnmatched);
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
   CHECK(g == NULL);
   CHECK_INT(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
   CHECK_CUDA(cudaEventDestroy(fork));
   CHECK_CUDA(cudaEventDestroy(join));
   CHECK_CUDA(cudaFree(a));
   CHECK_CUDA(cudaFree(b));
}

static void errors(cudaStream_t s)
{
   cudaGraph_t g = NULL;
   cudaStreamCaptureStatus st;
   CHECK_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);
   cudaGetLastError();

   /* synchronising the capturing stream invalidates the capture */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
   CHECK_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed), cudaErrorIllegalState);
   CHECK_ERR(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
   CHECK_CUDA(cudaStreamIsCapturing(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusInvalidated);
   g = (cudaGraph_t)&g;
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
   CHECK(g == NULL);
   CHECK_CUDA(cudaStreamIsCapturing(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);
   cudaGetLastError();

   /* a synchronous copy joins the legacy stream to a blocking capture */
   int *d, h[4];
   CHECK_CUDA(cudaMalloc(&d, 64));
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
   CHECK_ERR(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost), cudaErrorStreamCaptureImplicit);
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
   cudaGetLastError();

   /* global mode: allocation is refused, and invalidates the capture */
   void *p = NULL;
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   CHECK_ERR(cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported);
   CHECK_CUDA(cudaStreamIsCapturing(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusInvalidated);
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
   cudaGetLastError();

   /* ... unless the thread exchanged its mode for relaxed */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
   CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
   CHECK_INT(mode, cudaStreamCaptureModeGlobal);
   p = NULL;
   CHECK_CUDA(cudaMalloc(&p, 64));
   CHECK_CUDA(cudaFree(p));
   CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
   CHECK_INT(mode, cudaStreamCaptureModeRelaxed);
   add<<<1, 32, 0, s>>>(d, 16, 1);
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK(g != NULL);
   CHECK_CUDA(cudaGraphDestroy(g));

   /* relaxed mode: allocation is allowed */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
   CHECK_CUDA(cudaMalloc(&p, 64));
   CHECK_CUDA(cudaFree(p));
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* thread-local mode: another thread may allocate */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
   cudaError_t other = cudaErrorUnknown;
   std::thread t([&] {
      void *q = NULL;
      other = cudaMalloc(&q, 64);
      if (other == cudaSuccess)
         other = cudaFree(q);
   });
   t.join();
   CHECK_INT(other, cudaSuccess);
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* a global capture ended from another thread: wrong thread, and over */
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   cudaError_t end = cudaErrorUnknown;
   std::thread u([&] {
      cudaGraph_t gg = NULL;
      end = cudaStreamEndCapture(s, &gg);
   });
   u.join();
   CHECK_INT(end, cudaErrorStreamCaptureWrongThread);
   CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);
   cudaGetLastError();

   /* calls that invalidate the capture they are made in */
   cudaEvent_t e, outside;
   CHECK_CUDA(cudaEventCreate(&e));
   CHECK_CUDA(cudaEventCreate(&outside));
   CHECK_CUDA(cudaEventRecord(outside, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   cudaGraph_t g1;
   cudaGraphNode_t en;
   cudaGraphExec_t x1;
   CHECK_CUDA(cudaGraphCreate(&g1, 0));
   CHECK_CUDA(cudaGraphAddEmptyNode(&en, g1, NULL, 0));
   CHECK_CUDA(cudaGraphInstantiate(&x1, g1, 0));
   for (int what = 0; what < 4; what++) {
      CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
      if (what == 0) {   /* an event recorded in the capture cannot be queried */
         CHECK_CUDA(cudaEventRecord(e, s));
         CHECK_ERR(cudaEventQuery(e), cudaErrorCapturedEvent);
      } else if (what == 1) {   /* nor can the capture wait for work outside it */
         CHECK_ERR(cudaStreamWaitEvent(s, outside, 0), cudaErrorStreamCaptureIsolation);
      } else if (what == 2) {   /* stream callbacks are not captured */
         CHECK_ERR(cudaStreamAddCallback(s, [](cudaStream_t, cudaError_t, void *) {}, NULL, 0),
                   cudaErrorStreamCaptureUnsupported);
      } else {   /* nor are graph launches */
         CHECK_ERR(cudaGraphLaunch(x1, s), cudaErrorStreamCaptureUnsupported);
      }
      CHECK_CUDA(cudaStreamIsCapturing(s, &st));
      CHECK_INT(st, cudaStreamCaptureStatusInvalidated);
      CHECK_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
      cudaGetLastError();
   }
   CHECK_CUDA(cudaGraphExecDestroy(x1));
   CHECK_CUDA(cudaGraphDestroy(g1));
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaEventDestroy(outside));
   CHECK_CUDA(cudaFree(d));
}

int main()
{
   check_begin("graph_capture");
   cudaStream_t s, s2;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamCreate(&s2));
   linear(s);
   fork_join(s, s2);
   errors(s);
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaStreamDestroy(s2));
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
