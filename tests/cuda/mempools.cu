/*
 * mempools.cu — memory pools the program makes (cudaMemPoolCreate) and the
 * device's current pool:
 *
 *  - cudaMallocFromPoolAsync from a created pool: a kernel writes the
 *    memory and the host reads it back; the pool's used-memory attribute
 *    counts it and the default pool's does not change; freed, it is 0 again;
 *  - cudaDeviceSetMemPool makes cudaMallocAsync take from the pool
 *    (cudaDeviceGetMemPool answers it; the pool's count grows), and
 *    destroying the current pool gives the device its default pool back;
 *  - a pool destroyed with an allocation outstanding: the allocation stays
 *    usable until it is freed;
 *  - access: the pool's own device reads and writes it (cudaMemPoolGetAccess;
 *    cudaMemPoolSetAccess granting that again succeeds);
 *  - CUDA 13's cudaMemGetDefaultMemPool / cudaMemGetMemPool /
 *    cudaMemSetMemPool by location, the same pools;
 *  - a pool's maxSize: an allocation beyond it fails with
 *    cudaErrorMemoryAllocation;
 *  - errors: destroying the default pool, a NULL pool ->
 *    cudaErrorInvalidValue.
 */
#include "check.h"

__global__ void fill(unsigned *p, unsigned n, unsigned seed)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = i * 2654435761u + seed;
}

/* Fills n words at p in stream s, reads them back, compares with the model. */
static bool round_trip(unsigned *p, unsigned n, unsigned seed, cudaStream_t s)
{
   fill<<<(n + 255) / 256, 256, 0, s>>>(p, n, seed);
   unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
   bool ok = CHECK_CUDA(cudaMemcpyAsync(h, p, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s)) &&
             CHECK_CUDA(cudaStreamSynchronize(s));
   unsigned bad = 0;
   for (unsigned i = 0; ok && i < n; i++)
      bad += h[i] != i * 2654435761u + seed;
   free(h);
   return ok && CHECK_INT(bad, 0);
}

static unsigned long long used(cudaMemPool_t p)
{
   unsigned long long v = ~0ull;   /* a cuuint64_t */
   CHECK_CUDA(cudaMemPoolGetAttribute(p, cudaMemPoolAttrUsedMemCurrent, &v));
   return v;
}

int main()
{
   check_begin("mempools");
   REQUIRE_CUDA(cudaSetDevice(0));
   cudaStream_t s;
   REQUIRE_CUDA(cudaStreamCreate(&s));
   cudaMemPool_t def = NULL, cur = NULL;
   REQUIRE_CUDA(cudaDeviceGetDefaultMemPool(&def, 0));
   CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
   CHECK(cur == def);

   cudaMemPoolProps props = {};
   props.allocType = cudaMemAllocationTypePinned;
   props.handleTypes = cudaMemHandleTypeNone;
   props.location.type = cudaMemLocationTypeDevice;
   props.location.id = 0;
   cudaMemPool_t pool = NULL;
   REQUIRE_CUDA(cudaMemPoolCreate(&pool, &props));
   CHECK(pool != NULL && pool != def);
   CHECK_INT(used(pool), 0);

   /* from the pool */
   const unsigned N = 1 << 18;   /* 1 MB */
   unsigned long long def_before = used(def);
   unsigned *a = NULL;
   CHECK_CUDA(cudaMallocFromPoolAsync((void **)&a, N * sizeof(unsigned), pool, s));
   CHECK(a != NULL);
   if (a)
      round_trip(a, N, 1, s);
   CHECK(used(pool) >= N * sizeof(unsigned));
   CHECK_INT(used(def), def_before);
   CHECK_CUDA(cudaFreeAsync(a, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(used(pool), 0);

   /* the device's current pool */
   CHECK_CUDA(cudaDeviceSetMemPool(0, pool));
   CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
   CHECK(cur == pool);
   unsigned *b = NULL;
   CHECK_CUDA(cudaMallocAsync((void **)&b, 4096 * sizeof(unsigned), s));
   if (b)
      round_trip(b, 4096, 2, s);
   CHECK(used(pool) >= 4096 * sizeof(unsigned));
   CHECK_INT(used(def), def_before);

   /* CUDA 13's calls by location */
   cudaMemLocation loc = {};
   loc.type = cudaMemLocationTypeDevice;
   loc.id = 0;
   cudaMemPool_t q = NULL;
   CHECK_CUDA(cudaMemGetDefaultMemPool(&q, &loc, cudaMemAllocationTypePinned));
   CHECK(q == def);
   CHECK_CUDA(cudaMemGetMemPool(&q, &loc, cudaMemAllocationTypePinned));
   CHECK(q == pool);

   /* access */
   cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
   CHECK_CUDA(cudaMemPoolGetAccess(&fl, pool, &loc));
   CHECK_INT(fl, cudaMemAccessFlagsProtReadWrite);
   cudaMemAccessDesc desc = {};
   desc.location = loc;
   desc.flags = cudaMemAccessFlagsProtReadWrite;
   CHECK_CUDA(cudaMemPoolSetAccess(pool, &desc, 1));

   /* destroyed with b outstanding, while current */
   CHECK_CUDA(cudaMemPoolDestroy(pool));
   CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
   CHECK(cur == def);
   if (b)
      round_trip(b, 4096, 3, s);
   CHECK_CUDA(cudaFreeAsync(b, s));
   CHECK_CUDA(cudaStreamSynchronize(s));

   /* set by location, back to the default */
   cudaMemPool_t p2 = NULL;
   CHECK_CUDA(cudaMemPoolCreate(&p2, &props));
   CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, p2));
   CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
   CHECK(cur == p2);
   CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, def));
   CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
   CHECK(cur == def);
   CHECK_CUDA(cudaMemPoolDestroy(p2));

   /* maxSize */
   cudaMemPoolProps small = props;
   small.maxSize = 2u << 20;
   cudaMemPool_t p3 = NULL;
   CHECK_CUDA(cudaMemPoolCreate(&p3, &small));
   void *big = NULL;
   CHECK_ERR(cudaMallocFromPoolAsync(&big, 4u << 20, p3, s), cudaErrorMemoryAllocation);
   cudaGetLastError();
   CHECK_CUDA(cudaMemPoolDestroy(p3));

   /* errors */
   CHECK_ERR(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemPoolCreate(&q, NULL), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
