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
 *    and asynchronous copies to and from it;
 *  - the texture limits: an array as wide as MaxTexture1DWidth, a 3-D
 *    array as wide as MaxTexture3DWidth and a pitch-linear texture of
 *    MaxTexture2DLinearWidth by MaxTexture2DLinearHeight are made, one
 *    element more is cudaErrorInvalidValue; a texture reads the last
 *    element of the widest 1-D array; cudaDeviceGetTexture1DLinearMaxWidth
 *    answers 2^32 bytes of elements, at most 2^30 of them (an H200's
 *    answers, 2026-12-02), and refuses a bad descriptor or device.
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

__global__ void fetch(cudaTextureObject_t t, int x, float *out)
{
   *out = tex1D<float>(t, (float)x + 0.5f);
}

static void texture_limits(void)
{
   int w1 = attr(cudaDevAttrMaxTexture1DWidth), w3 = attr(cudaDevAttrMaxTexture3DWidth);
   int lw = attr(cudaDevAttrMaxTexture2DLinearWidth), lh = attr(cudaDevAttrMaxTexture2DLinearHeight);
   printf("MaxTexture1DWidth = %d, MaxTexture3DWidth = %d, MaxTexture2DLinear = %d x %d\n", w1, w3, lw, lh);
   CHECK(w1 > 0 && w3 > 0 && lw > 0 && lh > 0);
   if (w1 <= 0 || w3 <= 0 || lw <= 0 || lh <= 0)
      return;
   cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
   cudaArray_t a;
   CHECK_ERR(cudaMallocArray(&a, &f, (size_t)w1 + 1, 0), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaMallocArray(&a, &f, (size_t)w1, 0));
   float last = 42.5f, got = 0;
   CHECK_CUDA(cudaMemcpy2DToArray(a, ((size_t)w1 - 1) * sizeof(float), 0, &last, sizeof(float), sizeof(float), 1,
                                  cudaMemcpyHostToDevice));
   cudaResourceDesc rd = {};
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;
   cudaTextureDesc td = {};
   td.readMode = cudaReadModeElementType;
   cudaTextureObject_t t;
   CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL));
   float *d_out;
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(float)));
   fetch<<<1, 1>>>(t, w1 - 1, d_out);
   CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
   CHECK(got == last);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));

   cudaArray_t a3;
   CHECK_ERR(cudaMalloc3DArray(&a3, &f, make_cudaExtent((size_t)w3 + 1, 1, 1)), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaMalloc3DArray(&a3, &f, make_cudaExtent((size_t)w3, 1, 1)));
   CHECK_CUDA(cudaFreeArray(a3));

   /* pitch-linear: only the descriptor is checked at creation */
   float *mem;
   CHECK_CUDA(cudaMalloc(&mem, (size_t)lw * sizeof(float) + 512));
   for (int k = 0; k < 4; k++) {
      size_t w = k == 0 ? lw : k == 1 ? (size_t)lw + 1 : 16, h = k == 2 ? lh : k == 3 ? (size_t)lh + 1 : 1;
      cudaResourceDesc pd = {};
      pd.resType = cudaResourceTypePitch2D;
      pd.res.pitch2D.devPtr = mem;
      pd.res.pitch2D.desc = f;
      pd.res.pitch2D.width = w;
      pd.res.pitch2D.height = h;
      pd.res.pitch2D.pitchInBytes = (w * sizeof(float) + 63) / 64 * 64;
      cudaTextureObject_t pt = 0;
      cudaError_t e = cudaCreateTextureObject(&pt, &pd, &td, NULL);
      CHECK_ERR(e, k % 2 ? cudaErrorInvalidValue : cudaSuccess);
      cudaGetLastError();
      if (e == cudaSuccess)
         CHECK_CUDA(cudaDestroyTextureObject(pt));
   }
   CHECK_CUDA(cudaFree(mem));

   size_t lin = 0;
   CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &f, 0));
   CHECK(lin == (size_t)1 << 30);
   cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>(), u2 = cudaCreateChannelDesc<uint2>();
   CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &f4, 0));
   CHECK(lin == (size_t)1 << 28);
   CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &u2, 0));
   CHECK(lin == (size_t)1 << 29);
   cudaChannelFormatDesc bad = cudaCreateChannelDesc(12, 0, 0, 0, cudaChannelFormatKindFloat);
   CHECK_ERR(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &bad, 0), cudaErrorInvalidChannelDescriptor);
   CHECK_ERR(cudaDeviceGetTexture1DLinearMaxWidth(NULL, &f, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &f, 7), cudaErrorInvalidDevice);
   cudaGetLastError();
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
   texture_limits();
   return check_end();
}
