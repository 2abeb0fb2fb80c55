/*
 * pointer_attrs.cu — cudaPointerGetAttributes and cudaMemGetInfo:
 *
 *  - cudaMalloc memory (its start and an interior byte): cudaMemoryTypeDevice,
 *    the current device, devicePointer = the pointer, hostPointer NULL;
 *  - cudaMallocHost and cudaHostAlloc memory: cudaMemoryTypeHost, both
 *    pointers equal to it (unified addressing);
 *  - cudaMallocManaged memory: cudaMemoryTypeManaged, both pointers equal;
 *  - cudaMallocAsync memory: cudaMemoryTypeDevice;
 *  - malloc'd and stack memory, never registered: success (CUDA 11+) with
 *    cudaMemoryTypeUnregistered, no device pointer and the pointer itself as
 *    hostPointer (as seen on an H200); once registered with cudaHostRegister:
 *    cudaMemoryTypeHost with hostPointer = the pointer;
 *  - a NULL attributes pointer -> cudaErrorInvalidValue;
 *  - cudaMemGetInfo: 0 < free <= total, and a 64 MB allocation lowers free
 *    by at least 64 MB until it is freed.
 */
#include "check.h"

static void expect(const char *what, const void *p, cudaMemoryType type, const void *dev, const void *host,
                   bool check_ptrs)
{
   struct cudaPointerAttributes a;
   memset(&a, 0x5a, sizeof(a));
   printf("  %s\n", what);
   if (!CHECK_CUDA(cudaPointerGetAttributes(&a, p)))
      return;
   CHECK_INT(a.type, type);
   if (type != cudaMemoryTypeUnregistered)
      CHECK_INT(a.device, 0);
   if (check_ptrs) {
      CHECK(a.devicePointer == dev);
      CHECK(a.hostPointer == host);
   }
}

int main()
{
   check_begin("pointer_attrs");
   char *d = NULL, *ph = NULL, *ha = NULL, *m = NULL, *as = NULL;
   REQUIRE_CUDA(cudaMalloc((void **)&d, 1000));
   REQUIRE_CUDA(cudaMallocHost((void **)&ph, 1000));
   REQUIRE_CUDA(cudaHostAlloc((void **)&ha, 1000, cudaHostAllocMapped));
   REQUIRE_CUDA(cudaMallocManaged((void **)&m, 1000));
   REQUIRE_CUDA(cudaMallocAsync((void **)&as, 1000, 0));
   REQUIRE_CUDA(cudaDeviceSynchronize());

   expect("cudaMalloc", d, cudaMemoryTypeDevice, d, NULL, true);
   expect("cudaMalloc + 517", d + 517, cudaMemoryTypeDevice, d + 517, NULL, true);
   expect("cudaMallocHost", ph, cudaMemoryTypeHost, ph, ph, true);
   expect("cudaMallocHost + 999", ph + 999, cudaMemoryTypeHost, ph + 999, ph + 999, true);
   expect("cudaHostAlloc mapped", ha, cudaMemoryTypeHost, ha, ha, true);
   expect("cudaMallocManaged", m, cudaMemoryTypeManaged, m, m, true);
   expect("cudaMallocManaged + 10", m + 10, cudaMemoryTypeManaged, m + 10, m + 10, true);
   expect("cudaMallocAsync", as, cudaMemoryTypeDevice, as, NULL, true);

   char *plain = (char *)malloc(8192);
   int local = 0;
   expect("malloc", plain, cudaMemoryTypeUnregistered, NULL, plain, true);
   expect("stack", &local, cudaMemoryTypeUnregistered, NULL, &local, true);
   CHECK_INT(cudaGetLastError(), cudaSuccess);
   if (CHECK_CUDA(cudaHostRegister(plain, 8192, cudaHostRegisterDefault))) {
      struct cudaPointerAttributes a;
      CHECK_CUDA(cudaPointerGetAttributes(&a, plain + 100));
      CHECK_INT(a.type, cudaMemoryTypeHost);
      CHECK(a.hostPointer == plain + 100);
      CHECK_CUDA(cudaHostUnregister(plain));
      expect("malloc, unregistered again", plain, cudaMemoryTypeUnregistered, NULL, NULL, false);
   }
   CHECK_ERR(cudaPointerGetAttributes(NULL, d), cudaErrorInvalidValue);
   cudaGetLastError();

   size_t free0 = 0, total = 0, free1 = 0, free2 = 0;
   CHECK_CUDA(cudaMemGetInfo(&free0, &total));
   CHECK(total > 0 && free0 > 0 && free0 <= total);
   const size_t big = 64u << 20;
   void *b = NULL;
   REQUIRE_CUDA(cudaMalloc(&b, big));
   CHECK_CUDA(cudaMemGetInfo(&free1, &total));
   CHECK(free1 + big <= free0);
   CHECK_CUDA(cudaFree(b));
   CHECK_CUDA(cudaMemGetInfo(&free2, &total));
   CHECK(free2 >= free1 + big);

   CHECK_CUDA(cudaFreeAsync(as, 0));
   CHECK_CUDA(cudaFree(m));
   CHECK_CUDA(cudaFreeHost(ha));
   CHECK_CUDA(cudaFreeHost(ph));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaDeviceSynchronize());
   free(plain);
   return check_end();
}
