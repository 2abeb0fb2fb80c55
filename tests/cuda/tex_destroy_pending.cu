/*
 * tex_destroy_pending.cu — a texture object destroyed right after the
 * launches that read it, before they have run, as programs do (CUDA
 * samples' convolutionFFT2D destroys its texture object after each launch):
 * the launches still read what the object describes.  A stream is held
 * closed by a host function (gate.h) while the launches queue; another
 * host thread destroys the objects, and the gate opens 50 ms after it has
 * begun to (a destruction that waited for the queued work would wait for
 * the gate, not hang), so the kernels run after the destruction was asked
 * for.  The results are checked against the host's values, for several
 * textures over different arrays, and new objects made after the
 * destruction are not confused with the old ones.
 */
#include "check.h"
#include "gate.h"

#include <atomic>
#include <chrono>
#include <thread>

__global__ void read_all(cudaTextureObject_t t, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex1Dfetch<float>(t, i);
}

int main()
{
   check_begin("tex_destroy_pending");
   enum { N = 512, K = 4 };
   float *src[K], *out[K];
   static float host[K][N];
   cudaTextureObject_t tex[K];
   for (int k = 0; k < K; k++) {
      for (int i = 0; i < N; i++)
         host[k][i] = (float)(k * 1000 + i) * 0.25f;
      CHECK_CUDA(cudaMalloc(&src[k], N * sizeof(float)));
      CHECK_CUDA(cudaMalloc(&out[k], N * sizeof(float)));
      CHECK_CUDA(cudaMemcpy(src[k], host[k], N * sizeof(float), cudaMemcpyHostToDevice));
   }
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   /* the kernel's first launch loads it (and waits for queued work on an
    * H200): once before the gate closes */
   cudaResourceDesc rd = {};
   rd.resType = cudaResourceTypeLinear;
   rd.res.linear.desc = cudaCreateChannelDesc<float>();
   rd.res.linear.sizeInBytes = N * sizeof(float);
   cudaTextureDesc td = {};
   td.readMode = cudaReadModeElementType;
   rd.res.linear.devPtr = src[0];
   cudaTextureObject_t warm;
   CHECK_CUDA(cudaCreateTextureObject(&warm, &rd, &td, NULL));
   read_all<<<(N + 127) / 128, 128, 0, s>>>(warm, out[0], N);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaDestroyTextureObject(warm));

   gate g;
   CHECK_CUDA(gate_close(&g, s));
   for (int k = 0; k < K; k++) {
      rd.res.linear.devPtr = src[k];
      CHECK_CUDA(cudaCreateTextureObject(&tex[k], &rd, &td, NULL));
      read_all<<<(N + 127) / 128, 128, 0, s>>>(tex[k], out[k], N);
      CHECK_CUDA(cudaGetLastError());
   }
   std::atomic<bool> started(false);
   cudaError_t destroyed[K];
   std::thread destroyer([&] {
      started = true;
      for (int k = 0; k < K; k++)
         destroyed[k] = cudaDestroyTextureObject(tex[k]);
   });
   while (!started)
      std::this_thread::yield();
   std::this_thread::sleep_for(std::chrono::milliseconds(50));
   gate_open(&g);
   destroyer.join();
   for (int k = 0; k < K; k++)
      CHECK_CUDA(destroyed[k]);
   /* objects made now may reuse what the old ones were */
   cudaTextureObject_t again[K];
   for (int k = 0; k < K; k++) {
      rd.res.linear.devPtr = src[K - 1 - k];
      CHECK_CUDA(cudaCreateTextureObject(&again[k], &rd, &td, NULL));
   }
   CHECK_CUDA(cudaStreamSynchronize(s));
   static float got[N];
   for (int k = 0; k < K; k++) {
      CHECK_CUDA(cudaMemcpy(got, out[k], sizeof(got), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_F32("read through a destroyed object", got, host[k], N);
   }
   for (int k = 0; k < K; k++) {
      read_all<<<(N + 127) / 128, 128, 0, s>>>(again[k], out[k], N);
      CHECK_CUDA(cudaStreamSynchronize(s));
      CHECK_CUDA(cudaMemcpy(got, out[k], sizeof(got), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_F32("a new object", got, host[K - 1 - k], N);
      CHECK_CUDA(cudaDestroyTextureObject(again[k]));
   }
   CHECK_CUDA(cudaStreamDestroy(s));
   for (int k = 0; k < K; k++) {
      cudaFree(src[k]);
      cudaFree(out[k]);
   }
   return check_end();
}
