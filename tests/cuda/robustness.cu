/*
 * robustness.cu — Runtime API calls with bad arguments return NVIDIA's
 * error code, never crash, and leave nothing sticky behind.
 *
 * Each case is one call with a null pointer, a freed pointer, a foreign
 * pointer (a host stack address where a device pointer is expected, a
 * device pointer where host memory is expected), a null or bogus handle,
 * an out-of-range value (device ordinal, copy kind, flags, attribute,
 * size).  EXPECT checks the code, that cudaGetLastError then reports the
 * same code (and clears it), and that a valid call right after succeeds
 * (argument errors are not sticky).  Families covered: cudaMalloc/Free,
 * Memcpy(+Async), Memset(+Async), MallocHost/FreeHost/HostAlloc,
 * MallocManaged, MallocPitch, Memcpy2D, MemcpyToSymbol/GetSymbolAddress,
 * PointerGetAttributes, StreamCreate/Destroy/Synchronize/Query/WaitEvent,
 * EventCreate/Record/Synchronize/ElapsedTime/Destroy/Query,
 * SetDevice/GetDevice/GetDeviceProperties/DeviceGetAttribute,
 * FuncGetAttributes/FuncSetAttribute, LaunchKernel.
 *
 * The expected codes are those NVIDIA's runtime returned (CUDA 13.0,
 * driver 580, H200, 2026-11-30, each case run natively in a probe
 * program), which agree with the documentation where it says anything.
 * Where the answer is an implementation detail, SHOW prints
 * "CASE name -> code" without asserting (only the non-stickiness is
 * checked), so the native run and metalcuda's can be compared.
 *
 * Left out on purpose: streams and events used after cudaStreamDestroy /
 * cudaEventDestroy, and handles that are arbitrary addresses: NVIDIA's
 * runtime dereferences them (use after free) and may crash, so no correct
 * CUDA program does it; cudaMemcpyHostToHost with device pointers, which
 * NVIDIA's runtime may do as a host memcpy (a segmentation fault);
 * cudaGetSymbolAddress(NULL, symbol), a segmentation fault on an H200.
 */
#include "check.h"

__device__ int d_sym[16];
__constant__ float c_sym[4];

__global__ void k_fill(int *out, int v) { out[threadIdx.x] = v + (int)threadIdx.x; }

static void not_a_kernel(void) {}

static int *g_dev;   /* a live 256-int allocation for the valid calls */

/* A valid call after an error: argument errors are not sticky. */
static bool valid_call_works(int line)
{
   bool ok = check_err(cudaMemset(g_dev, 0, 64), cudaSuccess, "cudaMemset (valid call after the case)", __FILE__,
                       line);
   k_fill<<<1, 8>>>(g_dev, 3);
   ok &= check_err(cudaDeviceSynchronize(), cudaSuccess, "launch + cudaDeviceSynchronize after the case", __FILE__,
                   line);
   int h[8] = { 0 };
   ok &= check_err(cudaMemcpy(h, g_dev, sizeof(h), cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy after the case",
                   __FILE__, line);
   check_int(h[7], 10, "kernel result after the case", __FILE__, line);
   return ok;
}

static void expect_(cudaError_t got, cudaError_t want, const char *what, int line)
{
   check_err(got, want, what, __FILE__, line);
   check_err(cudaGetLastError(), want, "cudaGetLastError() after the case", __FILE__, line);
   check_err(cudaGetLastError(), cudaSuccess, "cudaGetLastError() a second time", __FILE__, line);
   valid_call_works(line);
}
#define EXPECT(call, want) expect_((call), (want), #call, __LINE__)

/* Not asserted: prints the code for comparison with the native run. */
static void show_(cudaError_t got, const char *what, int line)
{
   printf("CASE %s -> %s\n", what, cudaGetErrorName(got));
   cudaGetLastError();
   valid_call_works(line);
}
#define SHOW(call) show_((call), #call, __LINE__)

static void memory_cases(void)
{
   int host[64];
   void *p = (void *)(uintptr_t)0x1234;
   size_t pitch = 0;
   int *d = NULL, *freed = NULL;
   CHECK_CUDA(cudaMalloc(&d, 256 * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&freed, 64));
   CHECK_CUDA(cudaFree(freed));
   EXPECT(cudaFree(freed), cudaErrorInvalidValue);              /* double free */

   /* cudaMalloc / cudaFree */
   EXPECT(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
   EXPECT(cudaMalloc(&p, (size_t)1 << 62), cudaErrorMemoryAllocation);
   EXPECT(cudaMalloc(&p, 0), cudaSuccess);
   EXPECT(cudaFree(NULL), cudaSuccess);
   EXPECT(cudaFree(host), cudaErrorInvalidValue);               /* host stack */
   EXPECT(cudaFree(d + 1), cudaErrorInvalidValue);              /* inside an allocation */

   /* cudaMemcpy: null, freed, foreign pointers, kinds, sizes */
   EXPECT(cudaMemcpy(d, NULL, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy(NULL, d, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy(host, d, 16, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
   EXPECT(cudaMemcpy(host, d, 16, (cudaMemcpyKind)-1), cudaErrorInvalidMemcpyDirection);
   EXPECT(cudaMemcpy(host, d + 250, 64, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);   /* past the end */
   EXPECT(cudaMemcpy(d, host, 0, cudaMemcpyHostToDevice), cudaSuccess);
   EXPECT(cudaMemcpy(host, host + 32, 64, cudaMemcpyHostToHost), cudaSuccess);
   EXPECT(cudaMemcpy(host, d, 64, cudaMemcpyDefault), cudaSuccess);
   EXPECT(cudaMemcpy(freed, host, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy(host, freed, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy(host, host + 32, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);   /* host as device */
   EXPECT(cudaMemcpy(host, host + 32, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy(host, d, 16, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);

   /* cudaMemcpyAsync on the null stream */
   EXPECT(cudaMemcpyAsync(d, NULL, 16, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
   EXPECT(cudaMemcpyAsync(host, d, 16, (cudaMemcpyKind)42, 0), cudaErrorInvalidMemcpyDirection);
   EXPECT(cudaMemcpyAsync(host, d + 250, 64, cudaMemcpyDeviceToHost, 0), cudaErrorInvalidValue);
   EXPECT(cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, 0), cudaSuccess);
   EXPECT(cudaStreamSynchronize(0), cudaSuccess);

   /* cudaMemset(+Async) */
   EXPECT(cudaMemset(NULL, 0, 16), cudaErrorInvalidValue);
   EXPECT(cudaMemset(d + 250, 0, 64), cudaErrorInvalidValue);
   EXPECT(cudaMemset(d, 0, 0), cudaSuccess);
   EXPECT(cudaMemset(host, 0, 16), cudaErrorInvalidValue);
   EXPECT(cudaMemset(freed, 0, 16), cudaErrorInvalidValue);
   EXPECT(cudaMemsetAsync(NULL, 0, 16, 0), cudaErrorInvalidValue);
   EXPECT(cudaMemsetAsync(d + 250, 0, 64, 0), cudaErrorInvalidValue);
   EXPECT(cudaMemsetAsync(d, 7, 64, 0), cudaSuccess);
   EXPECT(cudaDeviceSynchronize(), cudaSuccess);

   /* pinned host memory */
   void *pinned = NULL;
   EXPECT(cudaMallocHost(NULL, 16), cudaErrorInvalidValue);
   EXPECT(cudaMallocHost(&pinned, 64), cudaSuccess);
   EXPECT(cudaFreeHost(NULL), cudaSuccess);
   EXPECT(cudaFreeHost(pinned), cudaSuccess);
   EXPECT(cudaFreeHost(host), cudaErrorInvalidValue);           /* not pinned */
   EXPECT(cudaFreeHost(d), cudaErrorInvalidValue);              /* device memory */
   EXPECT(cudaHostAlloc(NULL, 16, cudaHostAllocDefault), cudaErrorInvalidValue);
   EXPECT(cudaHostAlloc(&pinned, 16, 0x100), cudaErrorInvalidValue);   /* unknown flag */
   EXPECT(cudaHostAlloc(&pinned, 64, cudaHostAllocMapped | cudaHostAllocPortable), cudaSuccess);
   EXPECT(cudaFreeHost(pinned), cudaSuccess);

   /* managed memory */
   void *managed = NULL;
   EXPECT(cudaMallocManaged(NULL, 16, cudaMemAttachGlobal), cudaErrorInvalidValue);
   EXPECT(cudaMallocManaged(&managed, 16, 0), cudaErrorInvalidValue);       /* flags must name Global or Host */
   EXPECT(cudaMallocManaged(&managed, 16, 0x8), cudaErrorInvalidValue);
   /* older documentation says cudaErrorInvalidValue; CUDA 13 on an H200 succeeds */
   EXPECT(cudaMallocManaged(&managed, 0, cudaMemAttachGlobal), cudaSuccess);
   EXPECT(cudaMallocManaged(&managed, 64, cudaMemAttachGlobal), cudaSuccess);
   EXPECT(cudaFree(managed), cudaSuccess);

   /* pitched memory and 2-D copies */
   void *pitched = NULL;
   EXPECT(cudaMallocPitch(NULL, &pitch, 64, 4), cudaErrorInvalidValue);
   EXPECT(cudaMallocPitch(&pitched, NULL, 64, 4), cudaErrorInvalidValue);
   EXPECT(cudaMallocPitch(&pitched, &pitch, 64, 4), cudaSuccess);
   CHECK(pitch >= 64);
   EXPECT(cudaMemcpy2D(pitched, pitch, host, 64, 64, 4, cudaMemcpyHostToDevice), cudaSuccess);
   EXPECT(cudaMemcpy2D(pitched, pitch, host, 32, 64, 4, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
   EXPECT(cudaMemcpy2D(pitched, 32, host, 64, 64, 4, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
   EXPECT(cudaMemcpy2D(pitched, pitch, host, 64, 64, 4, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
   EXPECT(cudaMemcpy2D(pitched, pitch, NULL, 64, 64, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
   EXPECT(cudaMemcpy2D(pitched, pitch, host, 64, 0, 4, cudaMemcpyHostToDevice), cudaSuccess);
   EXPECT(cudaFree(pitched), cudaSuccess);

   /* symbols */
   void *addr = NULL;
   int v4[4] = { 1, 2, 3, 4 };
   EXPECT(cudaMemcpyToSymbol(d_sym, v4, sizeof(v4)), cudaSuccess);
   EXPECT(cudaMemcpyToSymbol(d_sym, v4, sizeof(v4), 60), cudaErrorInvalidValue);   /* past the end */
   EXPECT(cudaMemcpyToSymbol(d_sym, v4, 100 * sizeof(int)), cudaErrorInvalidValue);
   EXPECT(cudaMemcpyToSymbol(d_sym, v4, sizeof(v4), 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
   EXPECT(cudaMemcpyToSymbol(host, v4, sizeof(v4)), cudaErrorInvalidSymbol);           /* not a symbol */
   EXPECT(cudaMemcpyToSymbol(c_sym, v4, sizeof(v4)), cudaSuccess);
   EXPECT(cudaGetSymbolAddress(&addr, host), cudaErrorInvalidSymbol);
   EXPECT(cudaGetSymbolAddress(&addr, d_sym), cudaSuccess);
   CHECK(addr != NULL);

   /* pointer attributes */
   /* filled with 0xff before each query: a call that did not write it must
    * not pass (and valgrind sees no uninitialised reads) */
   struct cudaPointerAttributes attr;
   EXPECT(cudaPointerGetAttributes(NULL, d), cudaErrorInvalidValue);
   memset(&attr, 0xff, sizeof(attr));
   EXPECT(cudaPointerGetAttributes(&attr, d), cudaSuccess);
   CHECK_INT(attr.type, cudaMemoryTypeDevice);
   CHECK_INT(attr.device, 0);
   CHECK(attr.devicePointer == d);
   memset(&attr, 0xff, sizeof(attr));
   EXPECT(cudaPointerGetAttributes(&attr, host), cudaSuccess);   /* CUDA 11+: unregistered, not an error */
   CHECK_INT(attr.type, cudaMemoryTypeUnregistered);
   memset(&attr, 0xff, sizeof(attr));
   EXPECT(cudaPointerGetAttributes(&attr, NULL), cudaSuccess);
   CHECK_INT(attr.type, cudaMemoryTypeUnregistered);
   /* an H200 still reports a freed address as device memory: not asserted */
   SHOW(cudaPointerGetAttributes(&attr, freed));

   CHECK_CUDA(cudaFree(d));
}

static void stream_event_cases(void)
{
   cudaStream_t s = NULL;
   cudaEvent_t e = NULL, e2 = NULL, untimed = NULL, never = NULL;
   float ms = -1;

   EXPECT(cudaStreamCreate(NULL), cudaErrorInvalidValue);
   EXPECT(cudaStreamCreateWithFlags(&s, 0x10), cudaErrorInvalidValue);
   EXPECT(cudaStreamCreateWithFlags(NULL, cudaStreamNonBlocking), cudaErrorInvalidValue);
   EXPECT(cudaStreamCreate(&s), cudaSuccess);
   EXPECT(cudaStreamSynchronize(0), cudaSuccess);
   EXPECT(cudaStreamSynchronize(s), cudaSuccess);
   EXPECT(cudaStreamQuery(s), cudaSuccess);
   EXPECT(cudaStreamQuery(cudaStreamLegacy), cudaSuccess);
   EXPECT(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);   /* the null stream */

   EXPECT(cudaEventCreate(NULL), cudaErrorInvalidValue);
   EXPECT(cudaEventCreateWithFlags(&e, 0x100), cudaErrorInvalidValue);
   EXPECT(cudaEventCreateWithFlags(NULL, cudaEventDefault), cudaErrorInvalidValue);
   EXPECT(cudaEventCreate(&e), cudaSuccess);
   EXPECT(cudaEventCreate(&e2), cudaSuccess);
   EXPECT(cudaEventCreate(&never), cudaSuccess);
   EXPECT(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
   EXPECT(cudaEventQuery(never), cudaSuccess);                  /* documented: not yet recorded is complete */
   EXPECT(cudaEventSynchronize(never), cudaSuccess);
   EXPECT(cudaEventRecord(NULL, s), cudaErrorInvalidResourceHandle);
   EXPECT(cudaEventSynchronize(NULL), cudaErrorInvalidResourceHandle);
   SHOW(cudaEventQuery(NULL));
   EXPECT(cudaEventDestroy(NULL), cudaErrorInvalidResourceHandle);
   EXPECT(cudaStreamWaitEvent(s, NULL, 0), cudaErrorInvalidResourceHandle);
   EXPECT(cudaEventRecord(e, s), cudaSuccess);
   EXPECT(cudaStreamWaitEvent(s, e, 0x100), cudaErrorInvalidValue);   /* unknown flag */
   EXPECT(cudaStreamWaitEvent(s, e, 0), cudaSuccess);
   EXPECT(cudaStreamWaitEvent(0, e, 0), cudaSuccess);
   EXPECT(cudaEventRecord(e2, s), cudaSuccess);
   EXPECT(cudaEventRecord(untimed, s), cudaSuccess);
   EXPECT(cudaEventSynchronize(e2), cudaSuccess);
   EXPECT(cudaEventSynchronize(untimed), cudaSuccess);
   EXPECT(cudaEventElapsedTime(NULL, e, e2), cudaErrorInvalidValue);
   EXPECT(cudaEventElapsedTime(&ms, e, e2), cudaSuccess);
   CHECK(ms >= 0.0f);
   /* documented: an event that was never recorded, or one without timing,
    * is cudaErrorInvalidResourceHandle */
   EXPECT(cudaEventElapsedTime(&ms, e, never), cudaErrorInvalidResourceHandle);
   EXPECT(cudaEventElapsedTime(&ms, untimed, e2), cudaErrorInvalidResourceHandle);
   EXPECT(cudaEventElapsedTime(&ms, NULL, e2), cudaErrorInvalidResourceHandle);

   EXPECT(cudaEventDestroy(e), cudaSuccess);
   EXPECT(cudaEventDestroy(e2), cudaSuccess);
   EXPECT(cudaEventDestroy(untimed), cudaSuccess);
   EXPECT(cudaEventDestroy(never), cudaSuccess);
   EXPECT(cudaStreamDestroy(s), cudaSuccess);
}

static void device_cases(void)
{
   int count = 0, dev = -1, v = -1;
   struct cudaDeviceProp prop;
   CHECK_CUDA(cudaGetDeviceCount(&count));
   EXPECT(cudaGetDeviceCount(NULL), cudaErrorInvalidValue);
   EXPECT(cudaGetDevice(NULL), cudaErrorInvalidValue);
   EXPECT(cudaSetDevice(-1), cudaErrorInvalidDevice);
   EXPECT(cudaSetDevice(count), cudaErrorInvalidDevice);
   EXPECT(cudaSetDevice(1 << 30), cudaErrorInvalidDevice);
   EXPECT(cudaGetDevice(&dev), cudaSuccess);
   CHECK_INT(dev, 0);
   EXPECT(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);
   EXPECT(cudaGetDeviceProperties(&prop, -1), cudaErrorInvalidDevice);
   EXPECT(cudaGetDeviceProperties(&prop, count), cudaErrorInvalidDevice);
   EXPECT(cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
   EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1), cudaErrorInvalidDevice);
   EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count), cudaErrorInvalidDevice);
   EXPECT(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
   EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0), cudaSuccess);
   CHECK_INT(v, 32);
}

static void function_cases(void)
{
   struct cudaFuncAttributes fa;
   memset(&fa, 0, sizeof(fa));
   int *d = g_dev, val = 1;
   void *args[] = { &d, &val };
   EXPECT(cudaFuncGetAttributes(NULL, (const void *)k_fill), cudaErrorInvalidValue);
   EXPECT(cudaFuncGetAttributes(&fa, NULL), cudaErrorInvalidDeviceFunction);
   /* a host function that is no kernel: cudaErrorInvalidResourceHandle, as
    * for cudaLaunchKernel (observed on an H200) */
   EXPECT(cudaFuncGetAttributes(&fa, (const void *)not_a_kernel), cudaErrorInvalidResourceHandle);
   EXPECT(cudaFuncGetAttributes(&fa, (const void *)k_fill), cudaSuccess);
   CHECK(fa.maxThreadsPerBlock >= 32);
   EXPECT(cudaFuncSetAttribute(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 0),
          cudaErrorInvalidDeviceFunction);
   EXPECT(cudaFuncSetAttribute((const void *)not_a_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0),
          cudaErrorInvalidResourceHandle);
   EXPECT(cudaFuncSetAttribute((const void *)k_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30),
          cudaErrorInvalidValue);
   EXPECT(cudaFuncSetAttribute((const void *)k_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, -1),
          cudaErrorInvalidValue);
   EXPECT(cudaFuncSetAttribute((const void *)k_fill, (cudaFuncAttribute)1000, 0), cudaErrorInvalidValue);
   EXPECT(cudaFuncSetAttribute((const void *)k_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024),
          cudaSuccess);
   EXPECT(cudaFuncSetAttribute((const void *)k_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 0), cudaSuccess);

   EXPECT(cudaLaunchKernel(NULL, dim3(1), dim3(8), args, 0, 0), cudaErrorInvalidDeviceFunction);
   EXPECT(cudaLaunchKernel((const void *)not_a_kernel, dim3(1), dim3(8), args, 0, 0),
          cudaErrorInvalidResourceHandle);
   EXPECT(cudaLaunchKernel((const void *)k_fill, dim3(1), dim3(2048), args, 0, 0), cudaErrorInvalidValue);
   EXPECT(cudaLaunchKernel((const void *)k_fill, dim3(0), dim3(8), args, 0, 0), cudaErrorInvalidValue);
   EXPECT(cudaLaunchKernel((const void *)k_fill, dim3(1), dim3(8), args, (size_t)1 << 30, 0),
          cudaErrorInvalidValue);
   EXPECT(cudaLaunchKernel((const void *)k_fill, dim3(1), dim3(8), args, 0, 0), cudaSuccess);
   EXPECT(cudaDeviceSynchronize(), cudaSuccess);
}

int main()
{
   check_begin("robustness");
   REQUIRE_CUDA(cudaMalloc(&g_dev, 256 * sizeof(int)));
   /* The first launch loads the module (lazily, with CUDA 12+'s default
    * lazy loading, and through metalcuda), which allocates its variables:
    * done before any pointer is freed, so that no freed address is handed
    * out again while the cases use it. */
   CHECK(valid_call_works(__LINE__));
   memory_cases();
   stream_event_cases();
   device_cases();
   function_cases();
   CHECK_CUDA(cudaFree(g_dev));
   return check_end();
}
