/*
 * memasync.cu — asynchronous copies and fills in stream order, and the
 * stream-ordered allocator:
 *
 *  - on the default stream (0) and on cudaStreamPerThread: cudaMemsetAsync,
 *    a kernel, cudaMemcpyAsync to pinned host memory, another kernel,
 *    another copy, cudaMemcpyAsync host->device, a kernel, a copy back, then
 *    cudaMemset2DAsync / cudaMemcpy2DAsync and cudaMemset3DAsync /
 *    cudaMemcpy3DAsync, all queued without host synchronisation; after one
 *    cudaDeviceSynchronize every snapshot holds what the stream order says
 *    it must;
 *  - cudaMallocAsync / cudaFreeAsync on the stream: the allocation is
 *    filled, used by a kernel and copied out before its free, and a second
 *    allocation made after the free (which may reuse the memory) does not
 *    disturb the copy queued before the free;
 *  - the default memory pool: cudaDeviceGetDefaultMemPool, the release
 *    threshold set and read back, used memory grows by at least an
 *    allocation's size and returns after its free, the high-water mark
 *    resets to the current use, cudaMemPoolTrimTo, a read-only attribute
 *    cannot be set (cudaErrorInvalidValue); cudaMallocAsync of 0 bytes
 *    (NULL) and cudaFreeAsync(NULL) succeed;
 *  - copies (sync, async, 2-D, any kind) running past the end of a device
 *    allocation fail with cudaErrorInvalidValue.
 */
#include "check.h"

__global__ void add_index(int n, int *p)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += i;
}

__global__ void scale(int n, int *p, int k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] *= k;
}

static void stream_sequence(const char *name, cudaStream_t s)
{
   printf("  stream %s\n", name);
   const int n = 5000;
   const size_t bytes = n * sizeof(int);
   int *d = NULL, *h1 = NULL, *h2 = NULL, *h3 = NULL, *src = NULL;
   if (cudaMalloc((void **)&d, bytes) != cudaSuccess || cudaMallocHost((void **)&h1, bytes) != cudaSuccess ||
       cudaMallocHost((void **)&h2, bytes) != cudaSuccess || cudaMallocHost((void **)&h3, bytes) != cudaSuccess ||
       cudaMallocHost((void **)&src, bytes) != cudaSuccess) {
      CHECK(!"allocations");
      return;
   }
   for (int i = 0; i < n; i++)
      src[i] = (int)(mix32(i) % 1000);
   int blocks = (n + 255) / 256;
   CHECK_CUDA(cudaMemsetAsync(d, 0, bytes, s));
   add_index<<<blocks, 256, 0, s>>>(n, d);
   CHECK_CUDA(cudaMemcpyAsync(h1, d, bytes, cudaMemcpyDeviceToHost, s));
   scale<<<blocks, 256, 0, s>>>(n, d, 3);
   CHECK_CUDA(cudaMemcpyAsync(h2, d, bytes, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, s));
   add_index<<<blocks, 256, 0, s>>>(n, d);
   CHECK_CUDA(cudaMemcpyAsync(h3, d, bytes, cudaMemcpyDefault, s));

   /* 2-D: 40 x 30 bytes in a pitched allocation, filled then half copied */
   void *p2 = NULL;
   size_t pitch = 0;
   unsigned char *o2 = NULL;
   CHECK_CUDA(cudaMallocPitch(&p2, &pitch, 40, 30));
   CHECK_CUDA(cudaMallocHost((void **)&o2, 40 * 30));
   memset(o2, 0xee, 40 * 30);
   CHECK_CUDA(cudaMemset2DAsync(p2, pitch, 0x3c, 40, 30, s));
   CHECK_CUDA(cudaMemset2DAsync((char *)p2 + pitch * 10, pitch, 0x4d, 20, 5, s));
   CHECK_CUDA(cudaMemcpy2DAsync(o2, 40, p2, pitch, 40, 30, cudaMemcpyDeviceToHost, s));
   /* 3-D: a 16 x 4 x 3 volume */
   struct cudaPitchedPtr v;
   unsigned char *o3 = NULL;
   CHECK_CUDA(cudaMalloc3D(&v, make_cudaExtent(16, 4, 3)));
   CHECK_CUDA(cudaMallocHost((void **)&o3, 16 * 4 * 3));
   CHECK_CUDA(cudaMemset3DAsync(v, 0x21, make_cudaExtent(16, 4, 3), s));
   struct cudaPitchedPtr mid = v;
   mid.ptr = (char *)v.ptr + v.pitch * 4 + v.pitch + 2;   /* (2, 1, 1) */
   CHECK_CUDA(cudaMemset3DAsync(mid, 0x65, make_cudaExtent(5, 2, 2), s));
   struct cudaMemcpy3DParms cp = { 0 };
   cp.srcPtr = v;
   cp.dstPtr = make_cudaPitchedPtr(o3, 16, 16, 4);
   cp.extent = make_cudaExtent(16, 4, 3);
   cp.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3DAsync(&cp, s));

   CHECK_CUDA(cudaDeviceSynchronize());
   int *w = (int *)malloc(bytes);
   for (int i = 0; i < n; i++)
      w[i] = i;
   CHECK_ARRAY_I32("after memset and add_index", h1, w, n);
   for (int i = 0; i < n; i++)
      w[i] = 3 * i;
   CHECK_ARRAY_I32("after scale", h2, w, n);
   for (int i = 0; i < n; i++)
      w[i] = src[i] + i;
   CHECK_ARRAY_I32("after the upload and add_index", h3, w, n);
   unsigned char w2[40 * 30], w3[16 * 4 * 3];
   memset(w2, 0x3c, sizeof(w2));
   for (int y = 10; y < 15; y++)
      memset(w2 + y * 40, 0x4d, 20);
   CHECK(memcmp(o2, w2, sizeof(w2)) == 0);
   memset(w3, 0x21, sizeof(w3));
   for (int z = 1; z < 3; z++)
      for (int y = 1; y < 3; y++)
         memset(w3 + z * 64 + y * 16 + 2, 0x65, 5);
   CHECK(memcmp(o3, w3, sizeof(w3)) == 0);
   free(w);
   cudaFree(v.ptr);
   cudaFree(p2);
   cudaFreeHost(o2);
   cudaFreeHost(o3);
   cudaFree(d);
   cudaFreeHost(h1);
   cudaFreeHost(h2);
   cudaFreeHost(h3);
   cudaFreeHost(src);
}

static void stream_ordered_alloc(cudaStream_t s)
{
   const int n = 70000;
   const size_t bytes = n * sizeof(int);
   int *out = NULL, *p = NULL, *q = NULL;
   if (cudaMallocHost((void **)&out, bytes) != cudaSuccess) {
      CHECK(!"cudaMallocHost");
      return;
   }
   cudaMemPool_t pool;
   CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
   unsigned long long used0 = 0, used1 = 0, used2 = 0, high = 0;
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used0));

   CHECK_CUDA(cudaMallocAsync((void **)&p, bytes, s));
   CHECK(p != NULL);
   CHECK_CUDA(cudaMemsetAsync(p, 0, bytes, s));
   add_index<<<(n + 255) / 256, 256, 0, s>>>(n, p);
   CHECK_CUDA(cudaMemcpyAsync(out, p, bytes, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used1));
   CHECK(used1 >= used0 + bytes);
   CHECK_CUDA(cudaFreeAsync(p, s));
   /* may reuse p's memory: only after the stream reached the free */
   CHECK_CUDA(cudaMallocAsync((void **)&q, bytes, s));
   CHECK_CUDA(cudaMemsetAsync(q, 0x7f, bytes, s));
   CHECK_CUDA(cudaFreeAsync(q, s));
   CHECK_CUDA(cudaDeviceSynchronize());
   int *w = (int *)malloc(bytes);
   for (int i = 0; i < n; i++)
      w[i] = i;
   CHECK_ARRAY_I32("copied before cudaFreeAsync", out, w, n);
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used2));
   CHECK_INT(used2, used0);
   /* the high-water mark resets to the current use */
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
   CHECK(high >= used1);
   unsigned long long zero = 0;
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
   CHECK_INT(high, used2);
   free(w);
   cudaFreeHost(out);
}

/* Copies that run past the end of a device allocation fail with
 * cudaErrorInvalidValue whatever the kind says (seen on an H200). */
static void overruns(void)
{
   char *d = NULL, h[512];
   if (!CHECK_CUDA(cudaMalloc((void **)&d, 1000)))
      return;
   CHECK_ERR(cudaMemcpy(h, d + 900, 200, cudaMemcpyDefault), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy(d + 900, h, 200, cudaMemcpyDefault), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy(h, d + 900, 200, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpyAsync(h, d + 900, 200, cudaMemcpyDefault, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy2D(h, 100, d + 900, 100, 100, 2, cudaMemcpyDefault), cudaErrorInvalidValue);
   CHECK_CUDA(cudaMemcpy(h, d + 900, 100, cudaMemcpyDefault));   /* the last 100 bytes: fine */
   cudaGetLastError();
   cudaFree(d);
}

int main()
{
   check_begin("memasync");
   overruns();
   stream_sequence("0", 0);
   stream_sequence("cudaStreamPerThread", cudaStreamPerThread);
   stream_ordered_alloc(0);
   stream_ordered_alloc(cudaStreamPerThread);

   /* the default pool's attributes */
   cudaMemPool_t pool, pool2;
   REQUIRE_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
   REQUIRE_CUDA(cudaDeviceGetDefaultMemPool(&pool2, 0));
   CHECK(pool == pool2);
   unsigned long long thr = 0, big = ~0ull, back = 0;
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &big));
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
   CHECK(back == big);
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
   int reuse = 0;
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
   CHECK_INT(reuse, 1);
   CHECK_CUDA(cudaMemPoolTrimTo(pool, 0));
   /* nothing to allocate or free: success (seen on an H200) */
   void *none = &pool;
   CHECK_CUDA(cudaMallocAsync(&none, 0, 0));
   CHECK(none == NULL);
   CHECK_CUDA(cudaFreeAsync(NULL, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned long long one = 1;
   CHECK_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &one), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetDefaultMemPool(&pool2, 99), cudaErrorInvalidDevice);
   cudaGetLastError();
   return check_end();
}
