/*
 * devattr_claims.cu — what a device attribute claims, exercised: programs
 * choose their paths from these (a sample skips itself when
 * cudaDevAttrMemoryPoolsSupported is 0), so each attribute that says yes
 * must hold.  For each one set on the device:
 *
 *  - MemoryPoolsSupported: cudaMallocAsync/cudaFreeAsync from the default
 *    pool on a stream, the memory usable by a kernel in between;
 *  - ConcurrentManagedAccess: the host writes one part of a managed
 *    allocation while a kernel (held back by an event the host records
 *    later) is queued on another part; both results are exact;
 *  - DirectManagedMemAccessFromHost: the host reads managed memory a
 *    kernel wrote, after synchronisation, with no copy;
 *  - HostRegisterSupported: cudaHostRegister of the program's own memory
 *    and asynchronous copies to and from it.
 * An attribute at 0 is reported and its exercise skipped (not counted).
 */
#include "check.h"

#include <vector>

enum { N = 4096 };

__global__ void add(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += v;
}

static int attr(cudaDeviceAttr a)
{
   int v = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&v, a, 0));
   return v;
}

int main()
{
   check_begin("devattr_claims");
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

   int pools = attr(cudaDevAttrMemoryPoolsSupported);
   printf("MemoryPoolsSupported = %d\n", pools);
   if (pools) {
      int *p = NULL;
      CHECK_CUDA(cudaMallocAsync(&p, N * sizeof(int), s));
      CHECK_CUDA(cudaMemsetAsync(p, 0, N * sizeof(int), s));
      add<<<N / 256, 256, 0, s>>>(p, N, 9);
      std::vector<int> h(N, -1);
      CHECK_CUDA(cudaMemcpyAsync(h.data(), p, N * sizeof(int), cudaMemcpyDeviceToHost, s));
      CHECK_CUDA(cudaFreeAsync(p, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      CHECK_INT(h[0], 9);
      CHECK_INT(h[N - 1], 9);
   }

   int cma = attr(cudaDevAttrConcurrentManagedAccess);
   printf("ConcurrentManagedAccess = %d\n", cma);
   if (cma) {
      int *m;
      CHECK_CUDA(cudaMallocManaged(&m, 2 * N * sizeof(int)));
      for (int i = 0; i < 2 * N; i++)
         m[i] = i;
      cudaStream_t t;
      cudaEvent_t go;
      CHECK_CUDA(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
      CHECK_CUDA(cudaEventCreateWithFlags(&go, cudaEventDisableTiming));
      /* t: wait for `go` (recorded after s holds for a while), then the kernel on the first half */
      add<<<64, 256, 0, s>>>(m + N, 0, 0);   /* something in s for `go` to follow */
      CHECK_CUDA(cudaEventRecord(go, s));
      CHECK_CUDA(cudaStreamWaitEvent(t, go, 0));
      add<<<N / 256, 256, 0, t>>>(m, N, 1000);
      for (int i = N; i < 2 * N; i++)   /* the host on the second half meanwhile */
         m[i] += 7;
      CHECK_CUDA(cudaStreamSynchronize(t));
      bool ok = true;
      for (int i = 0; i < 2 * N && ok; i++) {
         int want = i < N ? i + 1000 : i + 7;
         if (m[i] != want) {
            printf("managed[%d] = %d (want %d)\n", i, m[i], want);
            ok = false;
         }
      }
      CHECK(ok);
      CHECK_CUDA(cudaEventDestroy(go));
      CHECK_CUDA(cudaStreamDestroy(t));
      CHECK_CUDA(cudaFree(m));
   }

   int direct = attr(cudaDevAttrDirectManagedMemAccessFromHost);
   printf("DirectManagedMemAccessFromHost = %d\n", direct);
   if (direct) {
      int *m;
      CHECK_CUDA(cudaMallocManaged(&m, N * sizeof(int)));
      CHECK_CUDA(cudaMemset(m, 0, N * sizeof(int)));
      add<<<N / 256, 256>>>(m, N, 3);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_INT(m[N / 2], 3);
      CHECK_CUDA(cudaFree(m));
   }

   int reg = attr(cudaDevAttrHostRegisterSupported);
   printf("HostRegisterSupported = %d\n", reg);
   if (reg) {
      std::vector<int> h(N, 5);
      int *d;
      CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
      CHECK_CUDA(cudaHostRegister(h.data(), N * sizeof(int), cudaHostRegisterDefault));
      CHECK_CUDA(cudaMemcpyAsync(d, h.data(), N * sizeof(int), cudaMemcpyHostToDevice, s));
      add<<<N / 256, 256, 0, s>>>(d, N, 1);
      CHECK_CUDA(cudaMemcpyAsync(h.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      CHECK_INT(h[17], 6);
      CHECK_CUDA(cudaHostUnregister(h.data()));
      CHECK_CUDA(cudaFree(d));
   }
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
