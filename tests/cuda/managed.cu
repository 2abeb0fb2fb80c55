/*
 * managed.cu — managed (unified) memory:
 *
 *  - cudaMallocManaged (cudaMemAttachGlobal): the host writes, a kernel
 *    transforms in place, the host reads the same pointer after
 *    cudaDeviceSynchronize; twice, so host writes after a kernel are seen
 *    by the next kernel;
 *  - cudaMemAttachHost allocations work the same way after synchronisation;
 *  - cudaMemPrefetchAsync (to the device, then to the host) and
 *    cudaMemAdvise (read-mostly, preferred location) change no data;
 *  - __managed__ variables: initialised in the source, read and written by
 *    a kernel and by the host; cudaGetSymbolAddress gives the host's own
 *    address of one, cudaGetSymbolSize its size, cudaMemcpyTo/FromSymbol
 *    reach it (all as seen on an H200);
 *  - errors: cudaMallocManaged with flags 0 or cudaMemAttachSingle or an
 *    unknown flag, NULL pointer -> cudaErrorInvalidValue; size 0 is a
 *    success that allocates nothing (NULL), as seen on an H200.
 */
#include "check.h"

__managed__ int counter = 5;
__managed__ unsigned table[64];

__global__ void affine(int n, int *p, int mul, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * mul + add;
}

__global__ void use_managed_vars()
{
   int i = threadIdx.x;
   table[i] = table[i] * 2u + (unsigned)i;
   if (i == 0)
      counter += 10;
}

int main()
{
   check_begin("managed");
   const int n = 3001;
   int *m = NULL;
   REQUIRE_CUDA(cudaMallocManaged((void **)&m, n * sizeof(int)));
   int *want = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++) {
      m[i] = (int)(mix32(i) % 1000) - 500;
      want[i] = m[i] * 5 - 3;
   }
   affine<<<(n + 255) / 256, 256>>>(n, m, 5, -3);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("managed after one kernel", m, want, n);
   for (int i = 0; i < n; i += 7) {   /* host writes some, the next kernel sees them */
      m[i] = i;
      want[i] = i;
   }
   for (int i = 0; i < n; i++)
      want[i] = want[i] * -2 + 1;
   affine<<<(n + 255) / 256, 256>>>(n, m, -2, 1);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("managed after host writes and a second kernel", m, want, n);

   /* prefetch and advice move nothing visible */
   struct cudaMemLocation dev0 = { cudaMemLocationTypeDevice, 0 }, host = { cudaMemLocationTypeHost, 0 };
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, dev0));
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, dev0));
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), dev0, 0, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("managed after prefetches", m, want, n);
   CHECK_CUDA(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseUnsetReadMostly, dev0));

   /* cudaMemAttachHost */
   int *h = NULL;
   REQUIRE_CUDA(cudaMallocManaged((void **)&h, 100 * sizeof(int), cudaMemAttachHost));
   int hw[100];
   for (int i = 0; i < 100; i++) {
      h[i] = i * i;
      hw[i] = i * i * 3 + 4;
   }
   affine<<<1, 128>>>(100, h, 3, 4);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ARRAY_I32("cudaMemAttachHost allocation", h, hw, 100);

   /* __managed__ variables */
   CHECK_INT(counter, 5);
   unsigned tw[64];
   for (int i = 0; i < 64; i++) {
      table[i] = mix32(i) & 0xffffff;
      tw[i] = table[i] * 2u + (unsigned)i;
   }
   use_managed_vars<<<1, 64>>>();
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(counter, 15);
   CHECK_ARRAY_U32("__managed__ table", table, tw, 64);
   counter = 100;
   use_managed_vars<<<1, 64>>>();
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(counter, 110);
   /* the symbol calls on a __managed__ variable */
   void *addr = NULL;
   size_t size = 0;
   CHECK_CUDA(cudaGetSymbolAddress(&addr, table));
   CHECK(addr == (void *)table);
   CHECK_CUDA(cudaGetSymbolSize(&size, table));
   CHECK_INT(size, sizeof(table));
   for (int i = 0; i < 64; i++)   /* the second launch */
      tw[i] = tw[i] * 2u + (unsigned)i;
   unsigned seven = 7, back[64];
   CHECK_CUDA(cudaMemcpyToSymbol(table, &seven, sizeof(seven), 9 * sizeof(unsigned)));
   tw[9] = 7;
   CHECK_CUDA(cudaMemcpyFromSymbol(back, table, sizeof(back)));
   CHECK_ARRAY_U32("__managed__ table through the symbol calls", back, tw, 64);

   /* errors */
   void *bad = NULL;
   CHECK_ERR(cudaMallocManaged(&bad, 64, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMallocManaged(&bad, 64, cudaMemAttachSingle), cudaErrorInvalidValue);
   CHECK_ERR(cudaMallocManaged(&bad, 64, 0x10), cudaErrorInvalidValue);
   bad = &bad;   /* size 0: success and NULL (NVIDIA's runtime, seen on an H200) */
   CHECK_CUDA(cudaMallocManaged(&bad, 0, cudaMemAttachGlobal));
   CHECK(bad == NULL);
   CHECK_ERR(cudaMallocManaged(NULL, 64, cudaMemAttachGlobal), cudaErrorInvalidValue);
   cudaGetLastError();

   CHECK_CUDA(cudaFree(h));
   CHECK_CUDA(cudaFree(m));
   free(want);
   return check_end();
}
