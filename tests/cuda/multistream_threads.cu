/*
 * multistream_threads.cu — 4 host threads, each with its own stream,
 * launching kernels and copying at the same time: each thread copies its
 * input up (cudaMemcpy), runs a chain of kernels on its stream, records an
 * event, synchronises on it and copies the result back, 8 rounds with
 * different data; every round of every thread is checked against a host
 * reference.  Half the streams are non-blocking.  The stream handles are
 * used from their own thread only; events and kernels are shared.
 */
#include "check.h"

#include <atomic>
#include <thread>
#include <vector>

enum { N = 8192, THREADS = 4, ROUNDS = 8 };

__global__ void scale_add(int *dst, const int *src, int n, int mul, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dst[i] = src[i] * mul + add;
}

__global__ void neighbour_sum(int *dst, const int *src, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dst[i] = src[i] + (i > 0 ? src[i - 1] : 0) + (i + 1 < n ? src[i + 1] : 0);
}

static void reference(const std::vector<int> &in, int t, int r, std::vector<int> &out)
{
   std::vector<int> a(N), b(N);
   for (int i = 0; i < N; i++)
      a[i] = in[i] * (t + 2) + r;
   for (int i = 0; i < N; i++)
      b[i] = a[i] + (i > 0 ? a[i - 1] : 0) + (i + 1 < N ? a[i + 1] : 0);
   for (int i = 0; i < N; i++)
      out[i] = b[i] * 3 - t;
}

struct result {
   std::atomic<long> errors{0};
   std::atomic<long> mismatched_rounds{0};
};

static void worker(int t, result *res)
{
   cudaStream_t s;
   unsigned flags = t % 2 ? cudaStreamNonBlocking : cudaStreamDefault;
   if (cudaStreamCreateWithFlags(&s, flags) != cudaSuccess) {
      res->errors++;
      return;
   }
   int *in = NULL, *tmp = NULL, *out = NULL;
   bool ok = cudaMalloc(&in, N * sizeof(int)) == cudaSuccess && cudaMalloc(&tmp, N * sizeof(int)) == cudaSuccess &&
             cudaMalloc(&out, N * sizeof(int)) == cudaSuccess;
   cudaEvent_t done;
   ok = ok && cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess;
   std::vector<int> host(N), got(N), want(N);
   for (int r = 0; ok && r < ROUNDS; r++) {
      for (int i = 0; i < N; i++)
         host[i] = (int)(mix32((uint32_t)(t * 100000 + r * 1000 + i)) % 1000) - 500;
      ok = cudaMemcpy(in, host.data(), N * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess;
      scale_add<<<N / 128, 128, 0, s>>>(tmp, in, N, t + 2, r);
      neighbour_sum<<<N / 128, 128, 0, s>>>(out, tmp, N);
      scale_add<<<N / 128, 128, 0, s>>>(tmp, out, N, 3, -t);
      ok = ok && cudaGetLastError() == cudaSuccess;
      ok = ok && cudaEventRecord(done, s) == cudaSuccess && cudaEventSynchronize(done) == cudaSuccess;
      ok = ok && cudaMemcpy(got.data(), tmp, N * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess;
      reference(host, t, r, want);
      if (ok && got != want)
         res->mismatched_rounds++;
   }
   if (!ok)
      res->errors++;
   cudaFree(in);
   cudaFree(tmp);
   cudaFree(out);
   cudaEventDestroy(done);
   if (cudaStreamDestroy(s) != cudaSuccess)
      res->errors++;
}

int main(void)
{
   check_begin("multistream_threads");
   CHECK_CUDA(cudaFree(0));   /* context up before the threads start */
   result res;
   std::vector<std::thread> ts;
   for (int t = 0; t < THREADS; t++)
      ts.emplace_back(worker, t, &res);
   for (auto &th : ts)
      th.join();
   CHECK_INT(res.errors.load(), 0);
   CHECK_INT(res.mismatched_rounds.load(), 0);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaGetLastError());
   return check_end();
}
