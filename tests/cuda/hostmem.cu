/*
 * hostmem.cu — page-locked host memory and host registration:
 *
 *  - cudaMallocHost memory is written by the host, read by a kernel through
 *    the same pointer (unified addressing) and written back by it;
 *  - cudaHostAlloc(cudaHostAllocMapped | cudaHostAllocPortable): the
 *    device pointer cudaHostGetDevicePointer gives equals the host pointer
 *    (unified addressing), a kernel writes through it and the host reads the
 *    result after cudaDeviceSynchronize; cudaHostGetFlags reports the flags
 *    asked for; cudaHostAllocWriteCombined works for copies;
 *  - copies between pinned memory and device memory, both directions;
 *  - errors: cudaHostAlloc with an unknown flag, cudaHostGetFlags and
 *    cudaFreeHost of memory that is not pinned (malloc), cudaFreeHost(NULL)
 *    succeeds, cudaHostGetDevicePointer with flags != 0;
 *  - cudaHostRegister of malloc'd memory (default flags): copies from and
 *    to it; registering it again -> cudaErrorHostMemoryAlreadyRegistered,
 *    unregistering twice or memory never registered ->
 *    cudaErrorHostMemoryNotRegistered; unregistering a pointer inside a
 *    registration, or NULL, and registering NULL or 0 bytes ->
 *    cudaErrorInvalidValue (each seen so on an H200).
 *  (A kernel using registered memory through cudaHostRegisterMapped is
 *  hostregister_mapped.cu.)
 */
#include "check.h"

__global__ void add_and_store(int n, const int *in, int *out, int k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = in[i] * 3 + k;
}

int main()
{
   check_begin("hostmem");
   const int n = 1000;

   /* cudaMallocHost: host writes, kernel reads and writes, host reads */
   int *a = NULL, *b = NULL;
   REQUIRE_CUDA(cudaMallocHost((void **)&a, n * sizeof(int)));
   REQUIRE_CUDA(cudaMallocHost((void **)&b, n * sizeof(int)));
   CHECK(a != NULL && b != NULL);
   int *want = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++) {
      a[i] = (int)(mix32(i) & 0xffff) - 30000;
      b[i] = (int)SENTINEL32;
      want[i] = a[i] * 3 + 7;
   }
   add_and_store<<<(n + 127) / 128, 128>>>(n, a, b, 7);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("cudaMallocHost kernel result", b, want, n);

   /* cudaHostAlloc mapped: device pointer, kernel writes through it */
   int *m = NULL;
   REQUIRE_CUDA(cudaHostAlloc((void **)&m, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
   int *md = NULL;
   CHECK_CUDA(cudaHostGetDevicePointer((void **)&md, m, 0));
   CHECK(md == m);
   /* an interior pointer maps too */
   int *md5 = NULL;
   CHECK_CUDA(cudaHostGetDevicePointer((void **)&md5, m + 5, 0));
   CHECK(md5 == m + 5);
   unsigned flags = 0;
   CHECK_CUDA(cudaHostGetFlags(&flags, m));
   /* an H200 (driver 580.159.04) reports the mapped flag and not the portable
    * one for this allocation (cudaMallocHost's reports both) */
   CHECK_INT(flags & (cudaHostAllocMapped | cudaHostAllocPortable), cudaHostAllocMapped);
   fill_u32(m, n, SENTINEL32);
   add_and_store<<<(n + 127) / 128, 128>>>(n, a, md, 7);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("mapped kernel result", m, want, n);

   /* copies between pinned and device memory; write-combined memory */
   int *d = NULL, *wc = NULL;
   REQUIRE_CUDA(cudaMalloc((void **)&d, n * sizeof(int)));
   REQUIRE_CUDA(cudaHostAlloc((void **)&wc, n * sizeof(int), cudaHostAllocWriteCombined));
   CHECK_CUDA(cudaMemcpy(d, a, n * sizeof(int), cudaMemcpyHostToDevice));
   fill_u32(wc, n, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(wc, d, n * sizeof(int), cudaMemcpyDeviceToHost));
   int *copy = (int *)malloc(n * sizeof(int));
   memcpy(copy, wc, n * sizeof(int));
   CHECK_ARRAY_I32("pinned -> device -> write-combined", copy, a, n);
   CHECK_CUDA(cudaHostGetFlags(&flags, wc));
   CHECK_INT(flags & cudaHostAllocWriteCombined, cudaHostAllocWriteCombined);

   /* errors */
   void *bad = NULL;
   CHECK_ERR(cudaHostAlloc(&bad, 64, 0x100), cudaErrorInvalidValue);
   char *plain = (char *)malloc(4096);
   CHECK_ERR(cudaHostGetFlags(&flags, plain), cudaErrorInvalidValue);
   CHECK_ERR(cudaFreeHost(plain), cudaErrorInvalidValue);
   CHECK_ERR(cudaHostGetDevicePointer((void **)&md, m, 1), cudaErrorInvalidValue);
   CHECK_CUDA(cudaFreeHost(NULL));
   CHECK_INT(cudaGetLastError(), cudaErrorInvalidValue);   /* the last failure, not sticky: */
   CHECK_INT(cudaGetLastError(), cudaSuccess);

   /* host registration without mapping: copies use it */
   const int rn = 16384;
   int *reg = (int *)malloc(rn * sizeof(int)), *regback = (int *)malloc(rn * sizeof(int));
   int *rd = NULL;
   REQUIRE_CUDA(cudaMalloc((void **)&rd, rn * sizeof(int)));
   for (int i = 0; i < rn; i++)
      reg[i] = (int)mix32(i + 77);
   CHECK_CUDA(cudaHostRegister(reg, rn * sizeof(int), cudaHostRegisterDefault));
   CHECK_CUDA(cudaMemcpy(rd, reg, rn * sizeof(int), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaHostRegister(regback, rn * sizeof(int), cudaHostRegisterPortable));
   fill_u32(regback, rn, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(regback, rd, rn * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("registered -> device -> registered", regback, reg, rn);
   CHECK_ERR(cudaHostRegister(reg, rn * sizeof(int), cudaHostRegisterDefault),
             cudaErrorHostMemoryAlreadyRegistered);
   CHECK_INT(cudaGetLastError(), cudaErrorHostMemoryAlreadyRegistered);
   CHECK_ERR(cudaHostUnregister(reg + 16), cudaErrorInvalidValue);   /* inside a registration (seen on an H200) */
   CHECK_CUDA(cudaHostUnregister(reg));
   CHECK_CUDA(cudaHostUnregister(regback));
   CHECK_ERR(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);
   CHECK_ERR(cudaHostUnregister(plain), cudaErrorHostMemoryNotRegistered);
   CHECK_INT(cudaGetLastError(), cudaErrorHostMemoryNotRegistered);
   CHECK_ERR(cudaHostRegister(NULL, 4096, cudaHostRegisterDefault), cudaErrorInvalidValue);
   CHECK_ERR(cudaHostRegister(reg, 0, cudaHostRegisterDefault), cudaErrorInvalidValue);
   CHECK_ERR(cudaHostUnregister(NULL), cudaErrorInvalidValue);
   cudaGetLastError();

   CHECK_CUDA(cudaFree(rd));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaFreeHost(wc));
   CHECK_CUDA(cudaFreeHost(m));
   CHECK_CUDA(cudaFreeHost(b));
   CHECK_CUDA(cudaFreeHost(a));
   free(reg);
   free(regback);
   free(plain);
   free(copy);
   free(want);
   return check_end();
}
