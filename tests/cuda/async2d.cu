/*
 * async2d.cu — cudaMemcpy2DAsync and cudaMemcpy3DAsync between pinned host
 * memory and device memory are stream work: each call returns while a
 * kernel queued before it on the stream still runs (cudaStreamQuery then
 * answers cudaErrorNotReady), and the copies still follow that kernel and
 * precede the work after them:
 *
 *   - the stream is held by a gate (gate.h: a host function that waits
 *     until the host opens it, from another thread after 1.5 s at the
 *     latest), then a kernel fills a pitched device matrix; a 2-D copy of
 *     it to pinned memory queued after the kernel returns while the gate
 *     still holds the stream and brings back what the kernel wrote;
 *   - a 2-D copy from pinned memory into the matrix, then a kernel that
 *     doubles it, then a 3-D copy back: the host sees the doubled values;
 *   - the same 3-D copy queued behind a held gate and a kernel returns
 *     first.
 *
 * Expected values come from the host.  CUDA documents both calls as
 * asynchronous with respect to the host for pinned memory.
 */
#include "check.h"
#include "gate.h"

#define W 48
#define H 20

__global__ void fill(int *m, size_t pitch, int base)
{
   for (int y = threadIdx.y; y < H; y += blockDim.y)
      for (int x = threadIdx.x; x < W; x += blockDim.x)
         ((int *)((char *)m + y * pitch))[x] = base + y * W + x;
}

__global__ void twice(int *m, size_t pitch)
{
   for (int y = threadIdx.y; y < H; y += blockDim.y)
      for (int x = threadIdx.x; x < W; x += blockDim.x)
         ((int *)((char *)m + y * pitch))[x] *= 2;
}

int main(void)
{
   check_begin("async2d");
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   int *dm, *pin;
   size_t pitch;
   CHECK_CUDA(cudaMallocPitch(&dm, &pitch, W * sizeof(int), H));
   CHECK_CUDA(cudaMallocHost(&pin, W * H * sizeof(int)));
   int want[W * H];
   /* every kernel loaded before a gate closes (gate.h) */
   fill<<<1, dim3(16, 4), 0, s>>>(dm, pitch, 0);
   twice<<<1, dim3(16, 4), 0, s>>>(dm, pitch);
   CHECK_CUDA(cudaStreamSynchronize(s));
   gate g;

   /* device to pinned behind a held gate and a kernel */
   for (int i = 0; i < W * H; i++)
      pin[i] = -1;
   CHECK_CUDA(gate_close(&g, s));
   std::thread opener = gate_open_later(&g, 1500);   /* a synchronous copy would wait for it */
   fill<<<1, dim3(16, 4), 0, s>>>(dm, pitch, 1000);
   CHECK_CUDA(cudaMemcpy2DAsync(pin, W * sizeof(int), dm, pitch, W * sizeof(int), H, cudaMemcpyDeviceToHost, s));
   CHECK(!g.open.load());                               /* returned before the gate opened */
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   gate_open(&g);
   opener.join();
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 1000 + i;
   CHECK_ARRAY_I32("2-D copy after the kernel", pin, want, W * H);

   /* pinned to device, a kernel, then a 3-D copy back */
   for (int i = 0; i < W * H; i++)
      pin[i] = 7 * i - 300;
   CHECK_CUDA(cudaMemcpy2DAsync(dm, pitch, pin, W * sizeof(int), W * sizeof(int), H, cudaMemcpyHostToDevice, s));
   twice<<<1, dim3(16, 4), 0, s>>>(dm, pitch);
   int *back;
   CHECK_CUDA(cudaMallocHost(&back, W * H * sizeof(int)));
   for (int i = 0; i < W * H; i++)
      back[i] = -1;
   cudaMemcpy3DParms p = {};
   p.srcPtr = make_cudaPitchedPtr(dm, pitch, W, H);
   p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(int), W, H);
   p.extent = make_cudaExtent(W * sizeof(int), H, 1);
   p.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3DAsync(&p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 2 * (7 * i - 300);
   CHECK_ARRAY_I32("2-D in, kernel, 3-D out", back, want, W * H);

   /* the 3-D copy behind a held gate and a kernel */
   CHECK_CUDA(gate_close(&g, s));
   opener = gate_open_later(&g, 1500);
   fill<<<1, dim3(16, 4), 0, s>>>(dm, pitch, 5);
   CHECK_CUDA(cudaMemcpy3DAsync(&p, s));
   CHECK(!g.open.load());
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   gate_open(&g);
   opener.join();
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 5 + i;
   CHECK_ARRAY_I32("3-D copy after the kernel", back, want, W * H);

   CHECK_CUDA(cudaFreeHost(pin));
   CHECK_CUDA(cudaFreeHost(back));
   CHECK_CUDA(cudaFree(dm));
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
