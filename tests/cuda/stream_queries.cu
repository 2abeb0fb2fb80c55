/*
 * stream_queries.cu — the small queries library code makes around its
 * launches, through the Runtime API and (dlopen of libcuda.so.1, on the
 * primary context the runtime made current) the Driver API:
 *
 *  - stream capture status: no stream is capturing (nothing here begins a
 *    capture), so cudaStreamIsCapturing and cudaStreamGetCaptureInfo
 *    answer cudaStreamCaptureStatusNone on stream 0, cudaStreamLegacy,
 *    cudaStreamPerThread, blocking, non-blocking and priority streams,
 *    with and without pending work; the same through cuStreamIsCapturing
 *    and every exported cuStreamGetCaptureInfo (plain, _v2, _v3); a NULL
 *    status pointer, and edge data asked for without the dependencies,
 *    are cudaErrorInvalidValue / CUDA_ERROR_INVALID_VALUE;
 *  - stream ids (cudaStreamGetId, cuStreamGetId): the same id for a
 *    stream at every query, 0 and cudaStreamLegacy the same stream,
 *    distinct ids for the legacy, per-thread and created streams, another
 *    thread's per-thread stream distinct from this thread's (its legacy
 *    stream the same), a stream created after one was destroyed gets an
 *    id never seen before ("unique for the life of the program");
 *  - cudaStreamGetDevice / cuStreamGetDevice (the current device),
 *    cuStreamGetCtx and cuStreamGetCtx_v2 (the current context, no green
 *    context), cuCtxGetId (NULL: the current context; stable);
 *  - cudaProfilerStart/Stop and cuProfilerStart/Stop succeed with no
 *    profiler attached; cuProfilerStart without a current context (a new
 *    thread that made no runtime call) is CUDA_ERROR_INVALID_CONTEXT;
 *    cuProfilerInitialize is CUDA_ERROR_NOT_SUPPORTED (CUDA >= 12.0);
 *  - cudaGetDriverEntryPoint / ByVersion: "cuMemAlloc" is libcuda's
 *    cuMemAlloc_v2 (the dlsym address) and allocates memory the runtime
 *    can use; "cuMemcpyAsync" is cuMemcpyAsync_ptsz with
 *    cudaEnablePerThreadDefaultStream, cuMemcpyAsync with
 *    cudaEnableLegacyStream and cudaEnableDefault (legacy-stream build);
 *    the version picks the ABI (cuMemAlloc at 3000, cuStreamGetCaptureInfo
 *    at 10010/11030/12030, as NVIDIA's driver answered when probed:
 *    src/api/driver/procaddress.tsv); a name asked for below its first
 *    version is cudaSuccess with a NULL pointer and
 *    cudaDriverEntryPointVersionNotSufficent; an unknown name, and an
 *    exported versioned name (cuMemAlloc_v2), cudaSuccess with a NULL
 *    pointer and cudaDriverEntryPointSymbolNotFound; NULL symbol or
 *    pointer, and a version above the driver's, are
 *    cudaErrorInvalidValue; cuGetProcAddress_v2 answers the same;
 *  - cudaMemcpyPeer / cudaMemcpyPeerAsync / cuMemcpyPeer between buffers
 *    of device 0 (an ordinary device-to-device copy), ordered after a
 *    kernel on the same stream, and zero-byte copies; an invalid device
 *    ordinal on either side is cudaErrorInvalidDevice;
 *  - cudaDeviceGetP2PAttribute / cuDeviceGetP2PAttribute: a device with
 *    itself, and invalid ordinals, are cudaErrorInvalidDevice /
 *    CUDA_ERROR_INVALID_DEVICE for every attribute;
 *  - NULL out-pointers of every query are cudaErrorInvalidValue.
 *
 * Expected values come from CUDA's documentation and from the data the
 * program writes itself (copies checked against a host array).
 */
#include "drv_check.h"

#include <cuda.h>
#include <cudaProfiler.h>
#include <cuda_profiler_api.h>
#include <dlfcn.h>

#include <thread>

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)

/* The 3-argument and 6-argument forms cuda.h no longer declares. */
typedef CUresult (*capture_info_v1_fn)(CUstream, CUstreamCaptureStatus *, cuuint64_t *);
typedef CUresult (*capture_info_v2_fn)(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
                                       const CUgraphNode **, size_t *);
typedef CUresult (*capture_info_v3_fn)(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
                                       const CUgraphNode **, const CUgraphEdgeData **, size_t *);

/* atomic: the launches on the non-blocking stream may run at the same
 * time as the others' */
__global__ void add_one(int *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      atomicAdd(&p[i], 1);
}

enum { NSTREAMS = 6 };
static const char *const stream_names[NSTREAMS] = { "0", "cudaStreamLegacy", "cudaStreamPerThread",
                                                    "blocking", "non-blocking", "priority" };

/* Every way to ask one stream for its capture status. */
static void check_capture_none(cudaStream_t s, const char *name)
{
   const cudaStreamCaptureStatus bogus = (cudaStreamCaptureStatus)77;
   cudaStreamCaptureStatus st = bogus;
   if (!CHECK_CUDA(cudaStreamIsCapturing(s, &st)))
      printf("  (stream %s)\n", name);
   CHECK_INT(st, cudaStreamCaptureStatusNone);

   st = bogus;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st));
   CHECK_INT(st, cudaStreamCaptureStatusNone);

   st = bogus;
   unsigned long long id = 0;
   cudaGraph_t graph = NULL;
   const cudaGraphNode_t *deps = NULL;
   const cudaGraphEdgeData *edges = NULL;
   size_t ndeps = 0;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st, &id, &graph, &deps, &edges, &ndeps));
   CHECK_INT(st, cudaStreamCaptureStatusNone);

   CHECK_ERR(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamGetCaptureInfo(s, NULL), cudaErrorInvalidValue);
   /* edge data without dependencies: documented as invalid, not checked
    * outside a capture (an H200 answers cudaSuccess) */
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, NULL, &edges, NULL));
   cudaGetLastError();
}

static void check_capture_none_driver(CUstream s, const char *name)
{
   FN(cuStreamIsCapturing, "cuStreamIsCapturing");
   capture_info_v1_fn v1 = (capture_info_v1_fn)dlsym(lib, "cuStreamGetCaptureInfo");
   capture_info_v2_fn v2 = (capture_info_v2_fn)dlsym(lib, "cuStreamGetCaptureInfo_v2");
   capture_info_v3_fn v3 = (capture_info_v3_fn)dlsym(lib, "cuStreamGetCaptureInfo_v3");
   if (!CHECK(p_cuStreamIsCapturing && v1 && v2 && v3))
      return;
   const CUstreamCaptureStatus bogus = (CUstreamCaptureStatus)77;
   CUstreamCaptureStatus st = bogus;
   if (!check_int(p_cuStreamIsCapturing(s, &st), CUDA_SUCCESS, "cuStreamIsCapturing", __FILE__, __LINE__))
      printf("  (stream %s)\n", name);
   CHECK_INT(st, CU_STREAM_CAPTURE_STATUS_NONE);

   cuuint64_t id = 0;
   CUgraph graph = NULL;
   const CUgraphNode *deps = NULL;
   const CUgraphEdgeData *edges = NULL;
   size_t ndeps = 0;
   st = bogus;
   CHECK_CU(v1(s, &st, &id), CUDA_SUCCESS);
   CHECK_INT(st, CU_STREAM_CAPTURE_STATUS_NONE);
   st = bogus;
   CHECK_CU(v2(s, &st, &id, &graph, &deps, &ndeps), CUDA_SUCCESS);
   CHECK_INT(st, CU_STREAM_CAPTURE_STATUS_NONE);
   st = bogus;
   CHECK_CU(v3(s, &st, &id, &graph, &deps, &edges, &ndeps), CUDA_SUCCESS);
   CHECK_INT(st, CU_STREAM_CAPTURE_STATUS_NONE);
   st = bogus;
   CHECK_CU(v3(s, &st, NULL, NULL, NULL, NULL, NULL), CUDA_SUCCESS);
   CHECK_INT(st, CU_STREAM_CAPTURE_STATUS_NONE);

   CHECK_CU(p_cuStreamIsCapturing(s, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(v1(s, NULL, &id), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(v2(s, NULL, &id, &graph, &deps, &ndeps), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(v3(s, NULL, NULL, NULL, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(v3(s, &st, NULL, NULL, NULL, &edges, NULL), CUDA_SUCCESS);   /* as above */
}

static void test_capture(cudaStream_t *streams, int *buf, int n)
{
   for (int k = 0; k < NSTREAMS; k++) {
      check_capture_none(streams[k], stream_names[k]);
      check_capture_none_driver((CUstream)streams[k], stream_names[k]);
   }
   /* with work pending on every stream */
   for (int k = 0; k < NSTREAMS; k++) {
      add_one<<<(n + 127) / 128, 128, 0, streams[k]>>>(buf, n);
      check_capture_none(streams[k], stream_names[k]);
   }
   CHECK_CUDA(cudaDeviceSynchronize());
}

static void test_ids(cudaStream_t *streams)
{
   unsigned long long ids[NSTREAMS], again;
   for (int k = 0; k < NSTREAMS; k++) {
      ids[k] = 0;
      CHECK_CUDA(cudaStreamGetId(streams[k], &ids[k]));
      again = ~0ull;
      CHECK_CUDA(cudaStreamGetId(streams[k], &again));
      CHECK_INT(again, ids[k]);
   }
   CHECK_INT(ids[0], ids[1]);   /* stream 0 is the legacy stream in this build */
   for (int a = 1; a < NSTREAMS; a++)
      for (int b = a + 1; b < NSTREAMS; b++)
         if (!CHECK(ids[a] != ids[b]))
            printf("  streams %s and %s share id %llu\n", stream_names[a], stream_names[b], ids[a]);

   FN(cuStreamGetId, "cuStreamGetId");
   if (CHECK(p_cuStreamGetId != NULL))
      for (int k = 0; k < NSTREAMS; k++) {
         again = ~0ull;
         CHECK_CU(p_cuStreamGetId((CUstream)streams[k], &again), CUDA_SUCCESS);
         CHECK_INT(again, ids[k]);
      }

   /* another thread: its own per-thread stream, the same legacy stream */
   unsigned long long other_ptds = 0, other_legacy = 0;
   cudaError_t e1 = cudaErrorUnknown, e2 = cudaErrorUnknown;
   std::thread t([&] {
      e1 = cudaStreamGetId(cudaStreamPerThread, &other_ptds);
      e2 = cudaStreamGetId(cudaStreamLegacy, &other_legacy);
   });
   t.join();
   CHECK_CUDA(e1);
   CHECK_CUDA(e2);
   CHECK(other_ptds != ids[2]);
   CHECK(other_ptds != ids[1] && other_ptds != ids[3] && other_ptds != ids[4] && other_ptds != ids[5]);
   CHECK_INT(other_legacy, ids[1]);

   /* a new stream after a destruction: an id never given before */
   cudaStream_t s;
   unsigned long long first = 0, second = 0;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamGetId(s, &first));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamGetId(s, &second));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK(second != first);
   for (int k = 0; k < NSTREAMS; k++)
      CHECK(first != ids[k] && second != ids[k]);
   CHECK(first != other_ptds && second != other_ptds);

   CHECK_ERR(cudaStreamGetId(streams[3], NULL), cudaErrorInvalidValue);
   CHECK_ERR(cudaStreamGetId(0, NULL), cudaErrorInvalidValue);
   cudaGetLastError();
   if (p_cuStreamGetId)
      CHECK_CU(p_cuStreamGetId((CUstream)streams[3], NULL), CUDA_ERROR_INVALID_VALUE);
}

static void test_device_and_context(cudaStream_t *streams)
{
   int want = -1;
   CHECK_CUDA(cudaGetDevice(&want));
   FN(cuStreamGetDevice, "cuStreamGetDevice");
   FN(cuStreamGetCtx, "cuStreamGetCtx");
   FN(cuStreamGetCtx_v2, "cuStreamGetCtx_v2");
   FN(cuCtxGetCurrent, "cuCtxGetCurrent");
   FN(cuCtxGetId, "cuCtxGetId");
   if (!CHECK(p_cuStreamGetDevice && p_cuStreamGetCtx && p_cuStreamGetCtx_v2 && p_cuCtxGetCurrent && p_cuCtxGetId))
      return;
   CUcontext cur = NULL;
   CHECK_CU(p_cuCtxGetCurrent(&cur), CUDA_SUCCESS);
   CHECK(cur != NULL);
   for (int k = 0; k < NSTREAMS; k++) {
      int dev = -1;
      CHECK_CUDA(cudaStreamGetDevice(streams[k], &dev));
      CHECK_INT(dev, want);
      CUdevice d = -1;
      CHECK_CU(p_cuStreamGetDevice((CUstream)streams[k], &d), CUDA_SUCCESS);
      CHECK_INT(d, want);
      CUcontext c = NULL;
      CHECK_CU(p_cuStreamGetCtx((CUstream)streams[k], &c), CUDA_SUCCESS);
      CHECK(c == cur);
      CUgreenCtx g = (CUgreenCtx)(uintptr_t)0x1234;
      c = NULL;
      CHECK_CU(p_cuStreamGetCtx_v2((CUstream)streams[k], &c, &g), CUDA_SUCCESS);
      CHECK(c == cur);
      CHECK(g == NULL);
   }
   /* cudaStreamGetDevice(s, NULL) is left out: NVIDIA's runtime crashes on
    * it (seen on an H200); so, presumably, does the driver's */

   unsigned long long id0 = 0, id1 = 1, id2 = 2;
   CHECK_CU(p_cuCtxGetId(NULL, &id0), CUDA_SUCCESS);
   CHECK_CU(p_cuCtxGetId(cur, &id1), CUDA_SUCCESS);
   CHECK_CU(p_cuCtxGetId(cur, &id2), CUDA_SUCCESS);
   CHECK_INT(id1, id0);
   CHECK_INT(id2, id0);
   CHECK_CU(p_cuCtxGetId(cur, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void test_profiler(void)
{
   CHECK_CUDA(cudaProfilerStart());
   CHECK_CUDA(cudaProfilerStart());   /* already started: no effect */
   CHECK_CUDA(cudaProfilerStop());
   CHECK_CUDA(cudaProfilerStop());
   FN(cuProfilerStart, "cuProfilerStart");
   FN(cuProfilerStop, "cuProfilerStop");
   if (!CHECK(p_cuProfilerStart && p_cuProfilerStop))
      return;
   CHECK_CU(p_cuProfilerStart(), CUDA_SUCCESS);
   CHECK_CU(p_cuProfilerStop(), CUDA_SUCCESS);

   /* a thread that made no runtime call has no current context */
   CUresult r = CUDA_ERROR_UNKNOWN;
   std::thread t([&] { r = p_cuProfilerStart(); });
   t.join();
   CHECK_CU(r, CUDA_ERROR_INVALID_CONTEXT);

   typedef CUresult (*init_fn)(const char *, const char *, int);
   init_fn init = (init_fn)dlsym(lib, "cuProfilerInitialize");
   if (init)   /* deprecated: "Starting with CUDA 12.0, it always returns CUDA_ERROR_NOT_SUPPORTED" */
      CHECK_CU(init("/nonexistent.cfg", "/tmp/out.csv", 1), CUDA_ERROR_NOT_SUPPORTED);
}

static void test_entry_points(void)
{
   void *fn = (void *)1;
   cudaDriverEntryPointQueryResult st = (cudaDriverEntryPointQueryResult)77;
   CHECK_CUDA(cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &st));
   CHECK_INT(st, cudaDriverEntryPointSuccess);
   CHECK(fn == dlsym(lib, "cuMemAlloc_v2"));
   void *fn2 = NULL;
   st = (cudaDriverEntryPointQueryResult)77;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn2, 12000, cudaEnableDefault, &st));
   CHECK_INT(st, cudaDriverEntryPointSuccess);
   CHECK(fn2 == fn);
   void *free_fn = NULL;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemFree", &free_fn, 12000, cudaEnableDefault, NULL));
   CHECK(free_fn != NULL && free_fn == dlsym(lib, "cuMemFree_v2"));

   /* the pointer allocates memory the runtime can use */
   if (fn && fn != (void *)1 && free_fn) {
      CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))fn;
      CUresult (*release)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))free_fn;
      enum { N = 1000 };
      CUdeviceptr d = 0;
      CHECK_CU(alloc(&d, N * sizeof(int)), CUDA_SUCCESS);
      if (CHECK(d != 0)) {
         int host[N], back[N];
         for (int i = 0; i < N; i++)
            host[i] = i * 7 - 3;
         CHECK_CUDA(cudaMemcpy((void *)d, host, sizeof(host), cudaMemcpyHostToDevice));
         add_one<<<(N + 127) / 128, 128>>>((int *)d, N);
         CHECK_CUDA(cudaMemcpy(back, (void *)d, sizeof(back), cudaMemcpyDeviceToHost));
         for (int i = 0; i < N; i++)
            host[i] += 1;
         CHECK_ARRAY_I32("kernel on memory from the entry point", back, host, N);
         CHECK_CU(release(d), CUDA_SUCCESS);
      }
   }

   /* the stream flags pick the per-thread variant or not */
   void *p = NULL;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemcpyAsync", &p, 12000, cudaEnablePerThreadDefaultStream, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuMemcpyAsync_ptsz"));
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemcpyAsync", &p, 12000, cudaEnableLegacyStream, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuMemcpyAsync"));
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemcpyAsync", &p, 12000, cudaEnableDefault, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuMemcpyAsync"));
   CHECK_CUDA(cudaGetDriverEntryPoint("cuStreamGetCaptureInfo", &p, cudaEnableDefault, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuStreamGetCaptureInfo_v3"));

   /* the version picks the ABI (NVIDIA's answers, src/api/driver/procaddress.tsv) */
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 3000, cudaEnableDefault, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuMemAlloc"));
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuStreamGetCaptureInfo", &p, 11030, cudaEnableDefault, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuStreamGetCaptureInfo_v2"));
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuStreamGetCaptureInfo", &p, 10010, cudaEnableDefault, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuStreamGetCaptureInfo"));
   CHECK_CUDA(
      cudaGetDriverEntryPointByVersion("cuStreamGetCaptureInfo", &p, 12030, cudaEnablePerThreadDefaultStream, &st));
   CHECK(p != NULL && p == dlsym(lib, "cuStreamGetCaptureInfo_v3_ptsz"));
   /* too old a version for the name: not an error either */
   p = (void *)1;
   st = (cudaDriverEntryPointQueryResult)77;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuStreamGetId", &p, 11000, cudaEnableDefault, &st));
   CHECK(p == NULL);
   CHECK_INT(st, cudaDriverEntryPointVersionNotSufficent);

   /* an unknown name is not an error; nor is an exported versioned name,
    * which is not a base name */
   p = (void *)1;
   st = (cudaDriverEntryPointQueryResult)77;
   CHECK_CUDA(cudaGetDriverEntryPoint("cuMemAlloc_v2", &p, cudaEnableDefault, &st));
   CHECK(p == NULL);
   CHECK_INT(st, cudaDriverEntryPointSymbolNotFound);
   p = (void *)1;
   st = (cudaDriverEntryPointQueryResult)77;
   CHECK_CUDA(cudaGetDriverEntryPoint("cuNoSuchFunctionAnywhere", &p, cudaEnableDefault, &st));
   CHECK(p == NULL);
   CHECK_INT(st, cudaDriverEntryPointSymbolNotFound);
   /* a NULL driverStatus is left out: NVIDIA's runtime crashes on it for
    * an unknown name (seen on an H200) */

   /* the driver's own answer to the same questions */
   FN(cuGetProcAddress, "cuGetProcAddress_v2");
   if (CHECK(p_cuGetProcAddress != NULL)) {
      CUdriverProcAddressQueryResult ds = (CUdriverProcAddressQueryResult)77;
      p = (void *)1;
      CHECK_CU(p_cuGetProcAddress("cuNoSuchFunctionAnywhere", &p, 12000, 0, &ds), CUDA_SUCCESS);
      CHECK(p == NULL);
      CHECK_INT(ds, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
      CHECK_CU(p_cuGetProcAddress("cuMemAlloc", &p, 12000, 0, &ds), CUDA_SUCCESS);
      CHECK(p != NULL && p == dlsym(lib, "cuMemAlloc_v2"));
      CHECK_INT(ds, CU_GET_PROC_ADDRESS_SUCCESS);
      CHECK_CU(p_cuGetProcAddress("cuMemcpyAsync", &p, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &ds),
               CUDA_SUCCESS);
      CHECK(p != NULL && p == dlsym(lib, "cuMemcpyAsync_ptsz"));
      /* a NULL pfn is left out: NVIDIA's driver crashes on it (H200) */
      CHECK_CU(p_cuGetProcAddress("cuMemAlloc", &p, 99990, 0, &ds), CUDA_ERROR_INVALID_VALUE);
   }

   /* a NULL symbol or funcPtr is left out: NVIDIA's runtime crashes on a
    * NULL symbol (H200), and presumably on a NULL funcPtr as its driver does */
   CHECK_ERR(cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 99990, cudaEnableDefault, &st),
             cudaErrorInvalidValue);
   cudaGetLastError();
}

static void test_peer_copies(cudaStream_t stream)
{
   int ndev = 0;
   CHECK_CUDA(cudaGetDeviceCount(&ndev));
   enum { N = 5003 };
   static int host[N], want[N], back[N];
   for (int i = 0; i < N; i++)
      host[i] = (int)(i * 2654435761u >> 7);
   int *a, *b, *c;
   if (!CHECK_CUDA(cudaMalloc(&a, N * sizeof(int))) || !CHECK_CUDA(cudaMalloc(&b, N * sizeof(int))) ||
       !CHECK_CUDA(cudaMalloc(&c, N * sizeof(int))))
      return;
   CHECK_CUDA(cudaMemcpy(a, host, sizeof(host), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(b, 0, N * sizeof(int)));
   CHECK_CUDA(cudaMemcpyPeer(b, 0, a, 0, N * sizeof(int)));
   CHECK_CUDA(cudaMemcpy(back, b, sizeof(back), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("cudaMemcpyPeer", back, host, N);

   /* async, after a kernel on the same stream: sees its result */
   add_one<<<(N + 127) / 128, 128, 0, stream>>>(b, N);
   CHECK_CUDA(cudaMemcpyPeerAsync(c, 0, b, 0, N * sizeof(int), stream));
   CHECK_CUDA(cudaStreamSynchronize(stream));
   for (int i = 0; i < N; i++)
      want[i] = host[i] + 1;
   CHECK_CUDA(cudaMemcpy(back, c, sizeof(back), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("cudaMemcpyPeerAsync after a kernel", back, want, N);

   /* a part, at offsets, through the driver on the primary context */
   FN(cuMemcpyPeer, "cuMemcpyPeer");
   FN(cuCtxGetCurrent, "cuCtxGetCurrent");
   CUcontext ctx = NULL;
   if (CHECK(p_cuMemcpyPeer && p_cuCtxGetCurrent) && CHECK_INT(p_cuCtxGetCurrent(&ctx), CUDA_SUCCESS)) {
      CHECK_CU(p_cuMemcpyPeer((CUdeviceptr)(c + 10), ctx, (CUdeviceptr)(a + 100), ctx, 500 * sizeof(int)),
               CUDA_SUCCESS);
      for (int i = 0; i < 500; i++)
         want[10 + i] = host[100 + i];
      CHECK_CUDA(cudaMemcpy(back, c, sizeof(back), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_I32("cuMemcpyPeer at offsets", back, want, N);
   }

   CHECK_CUDA(cudaMemcpyPeer(b, 0, a, 0, 0));
   CHECK_CUDA(cudaMemcpyPeerAsync(b, 0, a, 0, 0, stream));
   CHECK_ERR(cudaMemcpyPeer(b, ndev, a, 0, 16), cudaErrorInvalidDevice);
   CHECK_ERR(cudaMemcpyPeer(b, 0, a, -1, 16), cudaErrorInvalidDevice);
   CHECK_ERR(cudaMemcpyPeerAsync(b, 0, a, ndev, 16, stream), cudaErrorInvalidDevice);
   CHECK_ERR(cudaMemcpyPeerAsync(b, -1, a, 0, 16, stream), cudaErrorInvalidDevice);
   cudaGetLastError();
   CHECK_CUDA(cudaFree(a));
   CHECK_CUDA(cudaFree(b));
   CHECK_CUDA(cudaFree(c));
}

static void test_p2p_attributes(void)
{
   int ndev = 0;
   CHECK_CUDA(cudaGetDeviceCount(&ndev));
   static const cudaDeviceP2PAttr attrs[] = { cudaDevP2PAttrPerformanceRank, cudaDevP2PAttrAccessSupported,
                                              cudaDevP2PAttrNativeAtomicSupported,
                                              cudaDevP2PAttrCudaArrayAccessSupported };
   FN(cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute");
   for (cudaDeviceP2PAttr a : attrs) {
      int v = 12345;
      CHECK_ERR(cudaDeviceGetP2PAttribute(&v, a, 0, 0), cudaErrorInvalidDevice);
      CHECK_ERR(cudaDeviceGetP2PAttribute(&v, a, 0, ndev), cudaErrorInvalidDevice);
      CHECK_ERR(cudaDeviceGetP2PAttribute(&v, a, -1, 0), cudaErrorInvalidDevice);
      if (p_cuDeviceGetP2PAttribute) {
         CHECK_CU(p_cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)a, 0, 0), CUDA_ERROR_INVALID_DEVICE);
         CHECK_CU(p_cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)a, ndev, 0), CUDA_ERROR_INVALID_DEVICE);
      }
   }
   cudaGetLastError();
   CHECK(p_cuDeviceGetP2PAttribute != NULL);
}

int main()
{
   check_begin("stream_queries");
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(lib != NULL))
      return check_end();
   REQUIRE_CUDA(cudaFree(0));   /* the primary context, current */

   cudaStream_t blocking, nonblocking, prio;
   int least = 0, greatest = 0;
   REQUIRE_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
   REQUIRE_CUDA(cudaStreamCreate(&blocking));
   REQUIRE_CUDA(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
   REQUIRE_CUDA(cudaStreamCreateWithPriority(&prio, cudaStreamDefault, greatest));
   cudaStream_t streams[NSTREAMS] = { 0, cudaStreamLegacy, cudaStreamPerThread, blocking, nonblocking, prio };

   enum { N = 4096 };
   int *buf;
   REQUIRE_CUDA(cudaMalloc(&buf, N * sizeof(int)));
   REQUIRE_CUDA(cudaMemset(buf, 0, N * sizeof(int)));

   test_capture(streams, buf, N);
   test_ids(streams);
   test_device_and_context(streams);
   test_profiler();
   test_entry_points();
   test_peer_copies(nonblocking);
   test_p2p_attributes();

   /* every stream ran its launch of add_one exactly once */
   static int back[N], want[N];
   CHECK_CUDA(cudaMemcpy(back, buf, sizeof(back), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = NSTREAMS;
   CHECK_ARRAY_I32("one add_one per stream", back, want, N);

   CHECK_CUDA(cudaFree(buf));
   CHECK_CUDA(cudaStreamDestroy(blocking));
   CHECK_CUDA(cudaStreamDestroy(nonblocking));
   CHECK_CUDA(cudaStreamDestroy(prio));
   CHECK_CUDA(cudaGetLastError());
   return check_end();
}
