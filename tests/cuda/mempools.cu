/*
 * mempools.cu — explicit memory pools (cudaMemPoolCreate and the calls
 * around it):
 *
 *  - a pool of device 0's memory: its attributes start at CUDA's defaults
 *    (reuse allowed three ways, release threshold 0, nothing used), a
 *    threshold set reads back; cudaMallocFromPoolAsync memory is filled by
 *    a kernel and read back exactly; the pool's used memory grows by at
 *    least the allocation and returns to 0 after cudaFreeAsync while the
 *    default pool's does not move; the high-water mark resets;
 *  - the current pool: cudaDeviceSetMemPool makes cudaMallocAsync allocate
 *    from it (its used memory grows, the default's does not), as
 *    cudaDeviceGetMemPool and cudaMemGetMemPool report; cudaMemSetMemPool
 *    switches back and forth; cudaMemGetDefaultMemPool is the device's
 *    default;
 *  - destroying the current pool while an allocation is out: the default
 *    becomes current, the allocation stays usable until cudaFreeAsync;
 *  - access: read-write for the owning device, which cannot be lowered
 *    (cudaErrorInvalidDevice), and a device that does not exist;
 *  - a pool's maxSize bounds what it hands out;
 *  - cudaMallocFromPoolAsync on a capturing stream becomes a memory
 *    allocation node with the pool's location, replayed correctly;
 *  - the documented errors (NULL arguments, invalid allocation and
 *    location types, the default pool cannot be destroyed, devices out of
 *    range).
 */
#include "check.h"

__global__ void fill(int n, int *p, int k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = i * k + 1;
}

__global__ void add_index(int n, int *p)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += i;
}

static cudaMemPoolProps device_props(void)
{
   cudaMemPoolProps props;
   memset(&props, 0, sizeof(props));
   props.allocType = cudaMemAllocationTypePinned;
   props.handleTypes = cudaMemHandleTypeNone;
   props.location.type = cudaMemLocationTypeDevice;
   props.location.id = 0;
   return props;
}

static unsigned long long pool_u64(cudaMemPool_t pool, cudaMemPoolAttr a)
{
   unsigned long long v = ~0ull;
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, a, &v));
   return v;
}

/* n ints from the device, checked against p[i] = i * k + 1 (+ i if added) */
static void check_fill(const char *what, const int *dev, int n, int k, bool added)
{
   int *got = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++)
      want[i] = i * k + 1 + (added ? i : 0);
   memset(got, 0xee, n * sizeof(int));
   CHECK_CUDA(cudaMemcpy(got, dev, n * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32(what, got, want, n);
   free(got);
   free(want);
}

static void pool_basics(cudaMemPool_t pool, cudaMemPool_t def, cudaStream_t s)
{
   int v = -1;
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &v));
   CHECK_INT(v, 1);
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &v));
   CHECK_INT(v, 1);
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &v));
   CHECK_INT(v, 1);
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrReleaseThreshold), 0);
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrUsedMemCurrent), 0);
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrUsedMemHigh), 0);
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrReservedMemCurrent), 0);
   unsigned long long thr = 1ull << 30;
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrReleaseThreshold), 1ull << 30);
   int off = 0;
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &off));
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &v));
   CHECK_INT(v, 0);
   /* the default pool's attributes are its own */
   CHECK_CUDA(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &v));
   CHECK_INT(v, 1);

   const int n = 50000;
   const size_t bytes = n * sizeof(int);
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned long long def0 = pool_u64(def, cudaMemPoolAttrUsedMemCurrent);
   int *p = NULL;
   if (!CHECK_CUDA(cudaMallocFromPoolAsync((void **)&p, bytes, pool, s)))
      return;
   CHECK(p != NULL);
   fill<<<(n + 255) / 256, 256, 0, s>>>(n, p, 7);
   add_index<<<(n + 255) / 256, 256, 0, s>>>(n, p);
   CHECK_CUDA(cudaStreamSynchronize(s));
   check_fill("cudaMallocFromPoolAsync memory", p, n, 7, true);
   unsigned long long used = pool_u64(pool, cudaMemPoolAttrUsedMemCurrent);
   CHECK(used >= bytes);
   CHECK(pool_u64(pool, cudaMemPoolAttrReservedMemCurrent) >= used);
   CHECK_INT(pool_u64(def, cudaMemPoolAttrUsedMemCurrent), def0);
   struct cudaPointerAttributes pa;
   CHECK_CUDA(cudaPointerGetAttributes(&pa, p));
   CHECK_INT(pa.type, cudaMemoryTypeDevice);
   CHECK_INT(pa.device, 0);
   CHECK(pa.devicePointer == p);

   CHECK_CUDA(cudaFreeAsync(p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrUsedMemCurrent), 0);
   CHECK(pool_u64(pool, cudaMemPoolAttrUsedMemHigh) >= used);
   unsigned long long zero = 0;
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
   CHECK_INT(pool_u64(pool, cudaMemPoolAttrUsedMemHigh), 0);
   CHECK_CUDA(cudaMemPoolTrimTo(pool, 0));
   /* nothing to allocate: success and NULL, as cudaMallocAsync */
   void *none = &v;
   CHECK_CUDA(cudaMallocFromPoolAsync(&none, 0, pool, s));
   CHECK(none == NULL);
}

/* cudaDeviceSetMemPool: cudaMallocAsync allocates from the current pool.
 * Returns an allocation of n ints from it, filled with fill(k = 3), left
 * outstanding. */
static int *current_pool(cudaMemPool_t pool, cudaMemPool_t def, cudaStream_t s, int n)
{
   cudaMemPool_t got = NULL;
   CHECK_CUDA(cudaDeviceGetMemPool(&got, 0));
   CHECK(got == def);
   CHECK_CUDA(cudaDeviceSetMemPool(0, pool));
   CHECK_CUDA(cudaDeviceGetMemPool(&got, 0));
   CHECK(got == pool);
   cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
   got = NULL;
   CHECK_CUDA(cudaMemGetMemPool(&got, &loc, cudaMemAllocationTypePinned));
   CHECK(got == pool);
   got = NULL;
   CHECK_CUDA(cudaMemGetDefaultMemPool(&got, &loc, cudaMemAllocationTypePinned));
   CHECK(got == def);

   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned long long def0 = pool_u64(def, cudaMemPoolAttrUsedMemCurrent);
   int *p = NULL;
   CHECK_CUDA(cudaMallocAsync((void **)&p, n * sizeof(int), s));
   CHECK(p != NULL);
   fill<<<(n + 255) / 256, 256, 0, s>>>(n, p, 3);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(pool_u64(pool, cudaMemPoolAttrUsedMemCurrent) >= n * sizeof(int));
   CHECK_INT(pool_u64(def, cudaMemPoolAttrUsedMemCurrent), def0);

   /* cudaMemSetMemPool: the location's form of cudaDeviceSetMemPool */
   CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, def));
   CHECK_CUDA(cudaDeviceGetMemPool(&got, 0));
   CHECK(got == def);
   CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, pool));
   CHECK_CUDA(cudaDeviceGetMemPool(&got, 0));
   CHECK(got == pool);
   return p;
}

static void pool_access(cudaMemPool_t pool, int ndev)
{
   cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
   cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
   CHECK_CUDA(cudaMemPoolGetAccess(&f, pool, &loc));
   CHECK_INT(f, cudaMemAccessFlagsProtReadWrite);
   cudaMemAccessDesc d = { { cudaMemLocationTypeDevice, 0 }, cudaMemAccessFlagsProtReadWrite };
   CHECK_CUDA(cudaMemPoolSetAccess(pool, &d, 1));
   CHECK_CUDA(cudaMemPoolSetAccess(pool, &d, 0));
   /* the owning device keeps read-write access */
   d.flags = cudaMemAccessFlagsProtNone;
   CHECK_ERR(cudaMemPoolSetAccess(pool, &d, 1), cudaErrorInvalidDevice);
   CHECK_CUDA(cudaMemPoolGetAccess(&f, pool, &loc));
   CHECK_INT(f, cudaMemAccessFlagsProtReadWrite);
   /* a device that does not exist */
   d.location.id = ndev;
   d.flags = cudaMemAccessFlagsProtReadWrite;
   CHECK_ERR(cudaMemPoolSetAccess(pool, &d, 1), cudaErrorInvalidDevice);
   cudaGetLastError();
}

/* A pool's maxSize bounds the memory it holds. */
static void max_size(cudaStream_t s)
{
   cudaMemPoolProps props = device_props();
   props.maxSize = 64ull << 20;
   cudaMemPool_t pool;
   if (!CHECK_CUDA(cudaMemPoolCreate(&pool, &props)))
      return;
   void *p = NULL, *big = NULL;
   CHECK_CUDA(cudaMallocFromPoolAsync(&p, 1 << 20, pool, s));
   CHECK_ERR(cudaMallocFromPoolAsync(&big, 128ull << 20, pool, s), cudaErrorMemoryAllocation);
   cudaGetLastError();
   CHECK_CUDA(cudaFreeAsync(p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaMemPoolDestroy(pool));
}

/* cudaMallocFromPoolAsync on a capturing stream: an allocation node. */
static void captured(cudaMemPool_t pool, cudaStream_t s)
{
   const int n = 3000;
   int *h = NULL, *p = NULL;
   if (!CHECK_CUDA(cudaMallocHost((void **)&h, n * sizeof(int))))
      return;
   memset(h, 0xee, n * sizeof(int));
   cudaGraph_t g;
   if (!CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal))) {
      cudaFreeHost(h);
      return;
   }
   CHECK_CUDA(cudaMallocFromPoolAsync((void **)&p, n * sizeof(int), pool, s));
   fill<<<(n + 255) / 256, 256, 0, s>>>(n, p, 5);
   CHECK_CUDA(cudaMemcpyAsync(h, p, n * sizeof(int), cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaFreeAsync(p, s));
   if (!CHECK_CUDA(cudaStreamEndCapture(s, &g))) {
      cudaFreeHost(h);
      return;
   }
   size_t nn = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &nn));
   CHECK_INT(nn, 4);
   cudaGraphNode_t nodes[4];
   nn = 4;
   CHECK_CUDA(cudaGraphGetRootNodes(g, nodes, &nn));
   CHECK_INT(nn, 1);
   cudaGraphNodeType t = cudaGraphNodeTypeEmpty;
   CHECK_CUDA(cudaGraphNodeGetType(nodes[0], &t));
   CHECK_INT(t, cudaGraphNodeTypeMemAlloc);
   cudaMemAllocNodeParams ap;
   memset(&ap, 0, sizeof(ap));
   CHECK_CUDA(cudaGraphMemAllocNodeGetParams(nodes[0], &ap));
   CHECK_INT(ap.poolProps.allocType, cudaMemAllocationTypePinned);
   CHECK_INT(ap.poolProps.location.type, cudaMemLocationTypeDevice);
   CHECK_INT(ap.poolProps.location.id, 0);
   CHECK_INT(ap.bytesize, n * sizeof(int));
   CHECK(ap.dptr == p);
   cudaGraphExec_t ge;
   if (CHECK_CUDA(cudaGraphInstantiate(&ge, g, 0))) {
      CHECK_CUDA(cudaGraphLaunch(ge, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      int *want = (int *)malloc(n * sizeof(int));
      for (int i = 0; i < n; i++)
         want[i] = i * 5 + 1;
      CHECK_ARRAY_I32("captured cudaMallocFromPoolAsync", h, want, n);
      free(want);
      CHECK_CUDA(cudaGraphExecDestroy(ge));
   }
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFreeHost(h);
}

static void errors(cudaMemPool_t def, int ndev)
{
   cudaMemPoolProps props = device_props();
   cudaMemPool_t pool = NULL;
   CHECK_ERR(cudaMemPoolCreate(NULL, &props), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemPoolCreate(&pool, NULL), cudaErrorInvalidValue);
   props.allocType = cudaMemAllocationTypeInvalid;
   CHECK_ERR(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);
   props = device_props();
   props.location.type = cudaMemLocationTypeHostNumaCurrent;   /* documented as invalid */
   CHECK_ERR(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);
   props = device_props();
   props.location.id = ndev;   /* no such device: an H200 answers invalid value */
   CHECK_ERR(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);
   /* the default pool cannot be destroyed */
   CHECK_ERR(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
   CHECK_ERR(cudaMallocFromPoolAsync(NULL, 16, def, 0), cudaErrorInvalidValue);
   cudaMemPool_t got;
   CHECK_ERR(cudaDeviceGetMemPool(&got, ndev), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceSetMemPool(ndev, def), cudaErrorInvalidValue);
   cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
   CHECK_ERR(cudaMemGetDefaultMemPool(&got, &loc, cudaMemAllocationTypeInvalid), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemGetMemPool(&got, &loc, cudaMemAllocationTypeInvalid), cudaErrorInvalidValue);
   loc.type = cudaMemLocationTypeInvalid;
   CHECK_ERR(cudaMemGetDefaultMemPool(&got, &loc, cudaMemAllocationTypePinned), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, def), cudaErrorInvalidValue);
   loc.type = cudaMemLocationTypeDevice;
   loc.id = ndev;
   CHECK_ERR(cudaMemGetDefaultMemPool(&got, &loc, cudaMemAllocationTypePinned), cudaErrorInvalidValue);
   cudaGetLastError();
}

int main()
{
   check_begin("mempools");
   int ndev = 0;
   REQUIRE_CUDA(cudaGetDeviceCount(&ndev));
   REQUIRE_CUDA(cudaSetDevice(0));
   cudaStream_t s;
   REQUIRE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   cudaMemPool_t def, pool;
   REQUIRE_CUDA(cudaDeviceGetDefaultMemPool(&def, 0));
   cudaMemPoolProps props = device_props();
   REQUIRE_CUDA(cudaMemPoolCreate(&pool, &props));
   CHECK(pool != NULL && pool != def);

   pool_basics(pool, def, s);
   pool_access(pool, ndev);
   captured(pool, s);
   max_size(s);

   /* destroy the current pool with an allocation out: the default is
    * current again, the memory stays usable until it is freed */
   const int n = 20000;
   int *p = current_pool(pool, def, s, n);
   CHECK_CUDA(cudaMemPoolDestroy(pool));
   cudaMemPool_t got = NULL;
   CHECK_CUDA(cudaDeviceGetMemPool(&got, 0));
   CHECK(got == def);
   add_index<<<(n + 255) / 256, 256, 0, s>>>(n, p);
   CHECK_CUDA(cudaStreamSynchronize(s));
   check_fill("an allocation of a destroyed pool", p, n, 3, true);
   CHECK_CUDA(cudaFreeAsync(p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   /* cudaMallocAsync uses the default pool again */
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned long long def0 = pool_u64(def, cudaMemPoolAttrUsedMemCurrent);
   void *q = NULL;
   CHECK_CUDA(cudaMallocAsync(&q, 1 << 20, s));
   CHECK(pool_u64(def, cudaMemPoolAttrUsedMemCurrent) >= def0 + (1 << 20));
   CHECK_CUDA(cudaFreeAsync(q, s));
   CHECK_CUDA(cudaStreamSynchronize(s));

   errors(def, ndev);
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
