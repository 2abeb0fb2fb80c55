// nvcc-flags: --default-stream per-thread
/*
 * ptds.cu — per-thread default streams: the program is built with
 * `--default-stream per-thread` (the line above; run.sh and build_native.sh
 * read it), so stream 0 in its calls is the calling thread's own default
 * stream (nvcc maps the API to the _ptsz/_ptds entry points).
 *
 *  - each host thread's stream 0 is its own: a thread's held default
 *    stream (gate.h) does not hold another thread's, whose kernels and
 *    copies complete meanwhile;
 *  - stream 0 and cudaStreamPerThread are the same stream in a thread:
 *    work on one is ordered after the other;
 *  - the per-thread stream is a blocking stream: it waits for the legacy
 *    stream's earlier work (cudaStreamLegacy), and legacy work waits for it;
 *  - every thread's results are checked against a host reference;
 *  - the queries' _ptsz forms: stream 0 has cudaStreamPerThread's id (not
 *    cudaStreamLegacy's) and device, and is not capturing;
 *  - the async copies and fills with stream 0 (cudaMemcpyAsync,
 *    cudaMemsetAsync, cudaMemcpy2DAsync, cudaMemcpyToSymbolAsync) run on
 *    the thread's stream: with another blocking stream held by a gate, they
 *    complete (the legacy stream would wait for it).
 */
#include "check.h"
#include "gate.h"

#include <vector>

enum { N = 4096, THREADS = 3 };

__global__ void set(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = v + i;
}

__global__ void add(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += v;
}

static void expect(const char *what, const int *d, int base)
{
   std::vector<int> got(N), want(N);
   CHECK_CUDA(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = base + i;
   CHECK_ARRAY_I32(what, got.data(), want.data(), N);
}

/* Thread 0 holds its default stream; the others must finish meanwhile.
 * They start their work only once thread 0's gate is queued (`closed`):
 * else a slow thread 0 could queue it after the host opened it (the gate
 * closes again, and the program hangs in cudaDeviceSynchronize). */
static void independent_threads(void)
{
   gate held;
   int *d[THREADS];
   for (auto &p : d)
      CHECK_CUDA(cudaMalloc(&p, N * sizeof(int)));
   CHECK_CUDA(cudaDeviceSynchronize());
   std::atomic<int> finished{0}, closed{0};
   std::vector<std::thread> ts;
   for (int t = 0; t < THREADS; t++)
      ts.emplace_back([&, t] {
         if (t == 0) {
            CHECK_CUDA(gate_close(&held, 0));
            closed = 1;
         }
         while (!closed.load())
            sleep_ms(1);
         set<<<N / 256, 256>>>(d[t], N, 1000 * t);
         add<<<N / 256, 256, 0, cudaStreamPerThread>>>(d[t], N, 5);   /* same stream as 0 */
         if (t == 0)
            return;
         CHECK_CUDA(cudaStreamSynchronize(0));
         finished++;
      });
   for (int t = 1; t < THREADS; t++)
      ts[t].join();
   CHECK_INT(finished.load(), THREADS - 1);   /* while thread 0's stream is held */
   CHECK_INT(held.open.load(), 0);
   gate_open(&held);
   ts[0].join();
   CHECK_CUDA(cudaDeviceSynchronize());
   for (int t = 0; t < THREADS; t++)
      expect("a thread's default stream", d[t], 1000 * t + 5);
   for (auto p : d)
      CHECK_CUDA(cudaFree(p));
}

/* The per-thread stream and the legacy stream order against each other. */
static void blocking_against_legacy(void)
{
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   CHECK_CUDA(cudaDeviceSynchronize());
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
   gate g;
   CHECK_CUDA(gate_close(&g, cudaStreamLegacy));
   set<<<N / 256, 256, 0, cudaStreamLegacy>>>(d, N, 10);
   add<<<N / 256, 256>>>(d, N, 1);                      /* per-thread: after legacy */
   CHECK_CUDA(cudaEventRecord(e, 0));
   sleep_ms(20);
   CHECK_ERR(cudaEventQuery(e), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(e));
   expect("per-thread stream after the legacy stream", d, 11);

   CHECK_CUDA(gate_close(&g, 0));
   set<<<N / 256, 256>>>(d, N, 20);
   add<<<N / 256, 256, 0, cudaStreamLegacy>>>(d, N, 2);  /* legacy: after per-thread */
   CHECK_CUDA(cudaEventRecord(e, cudaStreamLegacy));
   sleep_ms(20);
   CHECK_ERR(cudaEventQuery(e), cudaErrorNotReady);
   gate_open(&g);
   CHECK_CUDA(cudaEventSynchronize(e));
   expect("legacy stream after the per-thread stream", d, 22);
   CHECK_CUDA(cudaEventDestroy(e));
   CHECK_CUDA(cudaFree(d));
}

/* The queries nvcc maps to their _ptsz entry points read stream 0 as the
 * thread's per-thread stream. */
static void queries_of_stream_0(void)
{
   unsigned long long id0 = 0, ptds = 1, legacy = 2;
   CHECK_CUDA(cudaStreamGetId(0, &id0));
   CHECK_CUDA(cudaStreamGetId(cudaStreamPerThread, &ptds));
   CHECK_CUDA(cudaStreamGetId(cudaStreamLegacy, &legacy));
   CHECK_INT(id0, ptds);
   CHECK(id0 != legacy);
   int dev = -1, want = -2;
   CHECK_CUDA(cudaGetDevice(&want));
   CHECK_CUDA(cudaStreamGetDevice(0, &dev));
   CHECK_INT(dev, want);
   cudaStreamCaptureStatus st = (cudaStreamCaptureStatus)77;
   CHECK_CUDA(cudaStreamIsCapturing(0, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);
   st = (cudaStreamCaptureStatus)77;
   CHECK_CUDA(cudaStreamGetCaptureInfo(0, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);
}

__device__ int sym[64];

static void async_forms_on_stream_0(void)
{
   int *d, *pin;
   CHECK_CUDA(cudaMalloc(&d, 256 * sizeof(int)));
   CHECK_CUDA(cudaMallocHost(&pin, 256 * sizeof(int)));
   for (int i = 0; i < 256; i++)
      pin[i] = 3 * i + 1;
   cudaStream_t other;   /* a blocking stream: the legacy stream waits for it */
   CHECK_CUDA(cudaStreamCreate(&other));
   cudaEvent_t done;
   CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
   gate g;
   CHECK_CUDA(gate_close(&g, other));
   CHECK_CUDA(cudaMemcpyAsync(d, pin, 64 * sizeof(int), cudaMemcpyHostToDevice, 0));
   CHECK_CUDA(cudaMemsetAsync(d + 64, 0x7f, 64 * sizeof(int), 0));
   CHECK_CUDA(cudaMemcpy2DAsync(d + 128, 16 * sizeof(int), pin, 16 * sizeof(int), 16 * sizeof(int), 4,
                                cudaMemcpyHostToDevice, 0));
   CHECK_CUDA(cudaMemcpyToSymbolAsync(sym, pin, 64 * sizeof(int), 0, cudaMemcpyHostToDevice, 0));
   CHECK_CUDA(cudaMemcpyAsync(pin + 192, d + 64, 64 * sizeof(int), cudaMemcpyDeviceToHost, 0));
   CHECK_CUDA(cudaEventRecord(done, 0));
   CHECK(wait_done(done, 3000));   /* complete while the other stream is held */
   gate_open(&g);
   CHECK_CUDA(cudaStreamSynchronize(other));
   CHECK_CUDA(cudaDeviceSynchronize());
   std::vector<int> h(192), hs(64);
   CHECK_CUDA(cudaMemcpy(h.data(), d, 192 * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpyFromSymbol(hs.data(), sym, 64 * sizeof(int)));
   int bad = 0;
   for (int i = 0; i < 64; i++)
      bad += h[i] != 3 * i + 1 || h[64 + i] != 0x7f7f7f7f || h[128 + i] != 3 * i + 1 || hs[i] != 3 * i + 1 ||
             pin[192 + i] != 0x7f7f7f7f;
   CHECK_INT(bad, 0);
   CHECK_CUDA(cudaEventDestroy(done));
   CHECK_CUDA(cudaStreamDestroy(other));
   CHECK_CUDA(cudaFreeHost(pin));
   CHECK_CUDA(cudaFree(d));
}

int main(void)
{
   check_begin("ptds");
   /* every kernel loaded before any gate closes (gate.h): n = 0 */
   set<<<1, 1>>>(NULL, 0, 0);
   add<<<1, 1>>>(NULL, 0, 0);
   CHECK_CUDA(cudaDeviceSynchronize());
   independent_threads();
   blocking_against_legacy();
   queries_of_stream_0();
   async_forms_on_stream_0();
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
