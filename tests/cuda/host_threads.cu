/*
 * host_threads.cu — the Runtime API from several host threads at once.
 *
 * Eight pthreads each call cudaSetDevice(0), allocate their own buffers,
 * copy their own data in, launch kernels on the (shared, legacy) default
 * stream, copy the results back, and repeat for several rounds, all
 * concurrently; every result is compared with a host reference.  The
 * context is the device's primary context, shared by all threads, so an
 * allocation made by one thread is usable from another (checked after the
 * join).
 *
 * cudaGetLastError is per thread (CUDA's documentation: "Returns the last
 * error that has been produced by any of the runtime calls in the same
 * instance of the CUDA Runtime API in the calling thread"): while the
 * threads wait at a barrier, the odd ones make a failing call
 * (cudaSetDevice(-1): cudaErrorInvalidDevice); after a second barrier every
 * even thread's cudaPeekAtLastError is still cudaSuccess and every odd
 * thread's is cudaErrorInvalidDevice, which its cudaGetLastError returns
 * and clears.  cudaGetDevice is per thread too (0 in every thread).
 *
 * Checks made inside the threads are recorded per thread and counted by
 * the main thread after the join (check.h's counters are not thread-safe).
 */
#include "check.h"

#include <pthread.h>

enum { NTHREADS = 8, N = 4099, ROUNDS = 4 };

__global__ void k_affine(const int *in, int *out, int n, int a, int b)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = in[i] * a + b;
}

struct worker {
   int id;
   pthread_t thread;
   int *dev_out;              /* left allocated for the main thread */
   int bad_elements;          /* results that differ from the reference */
   cudaError_t first_error;   /* first call that failed, cudaSuccess if none */
   const char *first_call;
   cudaError_t peek_after, get_after, get_again;
   int device;
};

static pthread_barrier_t barrier;

static bool ok_(struct worker *w, cudaError_t e, const char *call)
{
   if (e != cudaSuccess && w->first_error == cudaSuccess) {
      w->first_error = e;
      w->first_call = call;
   }
   return e == cudaSuccess;
}
#define OK(call) ok_(w, (call), #call)

static void *run_worker(void *arg)
{
   struct worker *w = (struct worker *)arg;
   int *h_in = (int *)malloc(N * sizeof(int)), *h_out = (int *)malloc(N * sizeof(int));
   int *d_in = NULL, *d_out = NULL;
   OK(cudaSetDevice(0));
   OK(cudaMalloc(&d_in, N * sizeof(int)));
   OK(cudaMalloc(&d_out, N * sizeof(int)));
   for (int r = 0; r < ROUNDS && h_in && h_out && d_in && d_out; r++) {
      int a = 3 + w->id, b = 1000 * w->id + r;
      for (int i = 0; i < N; i++)
         h_in[i] = (int)(mix32((uint32_t)(w->id * 100000 + r * N + i)) & 0xffff);
      OK(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
      k_affine<<<(N + 127) / 128, 128>>>(d_in, d_out, N, a, b);
      OK(cudaGetLastError());
      fill_u32(h_out, N, SENTINEL32);
      OK(cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < N; i++)
         w->bad_elements += h_out[i] != h_in[i] * a + b;
   }
   OK(cudaGetDevice(&w->device));

   /* last error per thread: odd threads fail a call while all wait */
   pthread_barrier_wait(&barrier);
   if (w->id & 1)
      (void)cudaSetDevice(-1);
   pthread_barrier_wait(&barrier);
   w->peek_after = cudaPeekAtLastError();
   w->get_after = cudaGetLastError();
   w->get_again = cudaGetLastError();

   OK(cudaFree(d_in));
   w->dev_out = d_out;
   free(h_in);
   free(h_out);
   return NULL;
}

int main()
{
   check_begin("host_threads");
   static struct worker w[NTHREADS];
   /* the main thread initialises CUDA first only through its own calls;
    * the workers start with no call made in their threads */
   REQUIRE_CUDA(cudaFree(0));
   CHECK_INT(pthread_barrier_init(&barrier, NULL, NTHREADS), 0);
   for (int t = 0; t < NTHREADS; t++) {
      w[t].id = t;
      w[t].device = -1;
      CHECK_INT(pthread_create(&w[t].thread, NULL, run_worker, &w[t]), 0);
   }
   for (int t = 0; t < NTHREADS; t++)
      CHECK_INT(pthread_join(w[t].thread, NULL), 0);
   pthread_barrier_destroy(&barrier);

   CHECK_ERR(cudaGetLastError(), cudaSuccess);   /* the workers' errors are not the main thread's */
   for (int t = 0; t < NTHREADS; t++) {
      if (!CHECK_ERR(w[t].first_error, cudaSuccess))
         printf("  thread %d: %s failed\n", t, w[t].first_call);
      CHECK_INT(w[t].bad_elements, 0);
      CHECK_INT(w[t].device, 0);
      cudaError_t want = (t & 1) ? cudaErrorInvalidDevice : cudaSuccess;
      CHECK_ERR(w[t].peek_after, want);
      CHECK_ERR(w[t].get_after, want);
      CHECK_ERR(w[t].get_again, cudaSuccess);
   }

   /* one context: the main thread reads what each worker's last kernel wrote */
   static int h[N];
   for (int t = 0; t < NTHREADS; t++) {
      if (!w[t].dev_out)
         continue;
      int a = 3 + t, b = 1000 * t + ROUNDS - 1, bad = 0;
      CHECK_CUDA(cudaMemcpy(h, w[t].dev_out, sizeof(h), cudaMemcpyDeviceToHost));
      for (int i = 0; i < N; i++) {
         int in = (int)(mix32((uint32_t)(t * 100000 + (ROUNDS - 1) * N + i)) & 0xffff);
         bad += h[i] != in * a + b;
      }
      CHECK_INT(bad, 0);
      CHECK_CUDA(cudaFree(w[t].dev_out));
   }
   return check_end();
}
