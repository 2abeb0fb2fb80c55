/*
 * abi.cu — the runtime's ABI as the headers the program was built with
 * declare it: built against CUDA 13 (the cuda, static, nvrt layers) it
 * checks libcudart.so.13's forms, built against CUDA 12.9 (the cuda12
 * layer, tests/cuda12) libcudart.so.12's, where CUDA 13 changed the
 * signature or the structure of these entry points:
 *
 *  1. cudaRuntimeGetVersion is the CUDART_VERSION of the headers (12090 or
 *     13000): the runtime the program was linked against answers;
 *  2. cudaGetDeviceProperties (CUDA 12: cudaGetDeviceProperties_v2, CUDA
 *     12's struct) writes the header's struct and not a byte past it, and
 *     its fields agree with cudaDeviceGetAttribute, including those CUDA 13
 *     dropped from the struct (clockRate, memoryClockRate, computeMode ...)
 *     when built against 12; cudaChooseDevice reads the same struct;
 *  3. cudaPointerGetAttributes writes its struct (24 bytes in CUDA 12, 88
 *     in 13) and not past it;
 *  4. cudaMemPrefetchAsync / cudaMemAdvise in the header's form (a device
 *     ordinal in CUDA 12, a cudaMemLocation in 13; CUDA 12's _v2 forms
 *     too), after which a kernel still reads and writes the memory;
 *  5. cudaStreamGetCaptureInfo in the header's form (CUDA 12: _v2, six
 *     arguments; 13: seven) outside a capture;
 *  6. cudaGetDriverEntryPoint("cuMemAdvise") hands out the driver's form
 *     with a location (NVIDIA's since 12.2, also to a CUDA 12.9 program),
 *     cudaGetDriverEntryPointByVersion at 8000 the first, with a device
 *     ordinal;
 *  7. CUDA 12 only: the deprecated names CUDA 13 dropped
 *     (cudaThreadSynchronize, cudaThreadGetLimit, cudaSetDoubleForDevice).
 * Every struct the runtime fills sits before guard bytes that must come
 * back untouched.
 */
#include "check.h"

#include <cuda.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define GUARD_BYTES 64
#define GUARD 0x5a

template <typename T> struct guarded {
   T v;
   unsigned char guard[GUARD_BYTES];
};

template <typename T> static void guard_fill(guarded<T> *g)
{
   memset(g, 0xa5, sizeof(*g));
   memset(g->guard, GUARD, sizeof(g->guard));
}

template <typename T> static bool guard_intact(const guarded<T> *g)
{
   for (int i = 0; i < GUARD_BYTES; i++)
      if (g->guard[i] != GUARD)
         return false;
   return true;
}

__global__ void bump(int *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += i;
}

static int attr(cudaDeviceAttr a)
{
   int v = -12345;
   CHECK_CUDA(cudaDeviceGetAttribute(&v, a, 0));
   return v;
}

static void check_props(void)
{
   guarded<cudaDeviceProp> g;
   guard_fill(&g);
   CHECK_CUDA(cudaGetDeviceProperties(&g.v, 0));
   CHECK(guard_intact(&g));
   const cudaDeviceProp &p = g.v;
   printf("  %s: sizeof(cudaDeviceProp) %zu, cc %d.%d, %d SMs\n", p.name, sizeof(cudaDeviceProp), p.major, p.minor,
          p.multiProcessorCount);
   CHECK(p.name[0] != 0 && memchr(p.name, 0, sizeof(p.name)) != NULL);
   CHECK_INT(p.major, attr(cudaDevAttrComputeCapabilityMajor));
   CHECK_INT(p.minor, attr(cudaDevAttrComputeCapabilityMinor));
   CHECK_INT(p.multiProcessorCount, attr(cudaDevAttrMultiProcessorCount));
   CHECK_INT(p.warpSize, attr(cudaDevAttrWarpSize));
   CHECK_INT(p.maxThreadsPerBlock, attr(cudaDevAttrMaxThreadsPerBlock));
   CHECK_INT(p.maxGridSize[1], attr(cudaDevAttrMaxGridDimY));
   CHECK_INT(p.totalConstMem, attr(cudaDevAttrTotalConstantMemory));
   CHECK_INT(p.l2CacheSize, attr(cudaDevAttrL2CacheSize));
   CHECK_INT(p.pciBusID, attr(cudaDevAttrPciBusId));
   CHECK_INT(p.unifiedAddressing, attr(cudaDevAttrUnifiedAddressing));
   CHECK_INT(p.managedMemory, attr(cudaDevAttrManagedMemory));
   CHECK_INT(p.concurrentManagedAccess, attr(cudaDevAttrConcurrentManagedAccess));
   CHECK_INT(p.maxBlocksPerMultiProcessor, attr(cudaDevAttrMaxBlocksPerMultiprocessor));
   CHECK_INT(p.sharedMemPerBlockOptin, attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
   CHECK_INT(p.reservedSharedMemPerBlock, attr(cudaDevAttrReservedSharedMemoryPerBlock));
   CHECK_INT(p.memoryPoolsSupported, attr(cudaDevAttrMemoryPoolsSupported));
   CHECK_INT(p.clusterLaunch, attr(cudaDevAttrClusterLaunch));
#if CUDART_VERSION < 13000
   /* fields CUDA 13's struct no longer has */
   CHECK_INT(p.clockRate, attr(cudaDevAttrClockRate));
   CHECK_INT(p.memoryClockRate, attr(cudaDevAttrMemoryClockRate));
   CHECK_INT(p.computeMode, attr(cudaDevAttrComputeMode));
   CHECK_INT(p.kernelExecTimeoutEnabled, attr(cudaDevAttrKernelExecTimeout));
   CHECK_INT(p.cooperativeMultiDeviceLaunch, attr(cudaDevAttrCooperativeMultiDeviceLaunch));
#else
   CHECK_INT(p.gpuPciDeviceID, attr(cudaDevAttrGpuPciDeviceId));
#endif
   int dev = -1;
   cudaDeviceProp want;
   memset(&want, 0, sizeof(want));
   want.major = p.major;
   want.minor = p.minor;
   CHECK_CUDA(cudaChooseDevice(&dev, &want));
   CHECK_INT(dev, 0);
}

static void check_pointer_attributes(void)
{
   int *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, 256));
   guarded<cudaPointerAttributes> g;
   guard_fill(&g);
   CHECK_CUDA(cudaPointerGetAttributes(&g.v, d + 3));
   CHECK(guard_intact(&g));
   CHECK_INT(g.v.type, cudaMemoryTypeDevice);
   CHECK_INT(g.v.device, 0);
   CHECK(g.v.devicePointer == d + 3);
   int host_int = 0;
   guard_fill(&g);
   CHECK_CUDA(cudaPointerGetAttributes(&g.v, &host_int));
   CHECK(guard_intact(&g));
   CHECK_INT(g.v.type, cudaMemoryTypeUnregistered);
   CHECK(g.v.hostPointer == &host_int);
   CHECK_CUDA(cudaFree(d));
}

static void check_managed_hints(void)
{
   const int n = 1000;
   int *m = NULL;
   if (!CHECK(cudaMallocManaged(&m, n * sizeof(int)) == cudaSuccess))
      return;
   for (int i = 0; i < n; i++)
      m[i] = 3;
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
#if CUDART_VERSION < 13000
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, 0));
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), 0, s));
   cudaMemLocation loc = {};
   loc.type = cudaMemLocationTypeDevice;
   loc.id = 0;
   CHECK_CUDA(cudaMemAdvise_v2(m, n * sizeof(int), cudaMemAdviseSetReadMostly, loc));
   CHECK_CUDA(cudaMemAdvise_v2(m, n * sizeof(int), cudaMemAdviseUnsetReadMostly, loc));
   CHECK_CUDA(cudaMemPrefetchAsync_v2(m, n * sizeof(int), loc, 0, s));
#else
   cudaMemLocation loc = {};
   loc.type = cudaMemLocationTypeDevice;
   loc.id = 0;
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, loc));
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), loc, 0, s));
#endif
   bump<<<(n + 127) / 128, 128, 0, s>>>(m, n);
   CHECK_CUDA(cudaStreamSynchronize(s));
#if CUDART_VERSION < 13000
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), cudaCpuDeviceId, s));
#else
   loc.type = cudaMemLocationTypeHost;
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), loc, 0, s));
#endif
   CHECK_CUDA(cudaStreamSynchronize(s));
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += m[i] != 3 + i;
   CHECK_INT(bad, 0);

   /* the capture query in the header's form, outside a capture */
   cudaStreamCaptureStatus st = cudaStreamCaptureStatusInvalidated;
   cudaGraph_t graph = (cudaGraph_t)&bad;
   size_t ndeps = 77;
   const cudaGraphNode_t *deps = NULL;
#if CUDART_VERSION < 13000
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st, NULL, &graph, &deps, &ndeps));
#else
   const cudaGraphEdgeData *edges = NULL;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s, &st, NULL, &graph, &deps, &edges, &ndeps));
#endif
   CHECK_INT(st, cudaStreamCaptureStatusNone);
   CHECK_CUDA(cudaStreamDestroy(s));

   /* cuMemAdvise through the runtime: by name, the driver's newest form,
    * which takes a location since CUDA 12.2 (NVIDIA's driver hands it out
    * at 12090: a CUDA 12.9 program calling it with a device ordinal got
    * CUDA_ERROR_INVALID_VALUE on an H200); at version 8000 the first form,
    * with a device ordinal */
   void *fn = NULL;
   cudaDriverEntryPointQueryResult q = cudaDriverEntryPointVersionNotSufficent;
   CHECK_CUDA(cudaGetDriverEntryPoint("cuMemAdvise", &fn, cudaEnableDefault, &q));
   CHECK_INT(q, cudaDriverEntryPointSuccess);
   if (fn) {
      CUresult (*advise)(CUdeviceptr, size_t, CUmem_advise, CUmemLocation) =
         (CUresult(*)(CUdeviceptr, size_t, CUmem_advise, CUmemLocation))fn;
      CUmemLocation cl = {};
      cl.type = CU_MEM_LOCATION_TYPE_DEVICE;
      cl.id = 0;
      CHECK_INT(advise((CUdeviceptr)m, n * sizeof(int), CU_MEM_ADVISE_SET_READ_MOSTLY, cl), CUDA_SUCCESS);
   }
   fn = NULL;
   q = cudaDriverEntryPointVersionNotSufficent;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuMemAdvise", &fn, 8000, cudaEnableDefault, &q));
   CHECK_INT(q, cudaDriverEntryPointSuccess);
   if (fn) {
      CUresult (*advise_v1)(CUdeviceptr, size_t, CUmem_advise, CUdevice) =
         (CUresult(*)(CUdeviceptr, size_t, CUmem_advise, CUdevice))fn;
      CHECK_INT(advise_v1((CUdeviceptr)m, n * sizeof(int), CU_MEM_ADVISE_UNSET_READ_MOSTLY, 0), CUDA_SUCCESS);
   }
   CHECK_CUDA(cudaFree(m));
}

int main()
{
   check_begin("abi");
   int rt = 0;
   CHECK_CUDA(cudaRuntimeGetVersion(&rt));
   printf("  built against CUDA %d, runtime %d\n", CUDART_VERSION, rt);
   CHECK_INT(rt, CUDART_VERSION);
   check_props();
   check_pointer_attributes();
   check_managed_hints();
#if CUDART_VERSION < 13000
   CHECK_CUDA(cudaThreadSynchronize());
   size_t stack = 0;
   CHECK_CUDA(cudaThreadGetLimit(&stack, cudaLimitStackSize));
   size_t want = 0;
   CHECK_CUDA(cudaDeviceGetLimit(&want, cudaLimitStackSize));
   CHECK_INT(stack, want);
   double d = 1.5;
   CHECK_CUDA(cudaSetDoubleForDevice(&d));
   CHECK(d == 1.5);
#endif
   CHECK_CUDA(cudaGetLastError());
   return check_end();
}
