/*
 * errors.cu — the runtime's error semantics, as NVIDIA's CUDA 13 runtime
 * has them (checked on an H200, CUDA 13.0, driver 580; see NATIVE.md).
 *
 *  - cudaGetLastError returns the last error of any runtime call of this
 *    thread and resets it to cudaSuccess; cudaPeekAtLastError returns it
 *    without resetting; a later successful call does not clear it, a later
 *    failing call replaces it;
 *  - an invalid launch configuration (2048 or 1025 threads per block, a
 *    zero grid or block, block z > 64, grid y or z > 65535, 1 MB of dynamic
 *    shared memory) fails at the launch with cudaErrorInvalidValue: the
 *    CUDA 13 runtime reports "invalid argument" there, not
 *    cudaErrorInvalidConfiguration as older documentation describes; the
 *    error is not sticky: cudaDeviceSynchronize succeeds and a good launch
 *    right after works;
 *  - cudaLaunchKernel of NULL is cudaErrorInvalidDeviceFunction, of a host
 *    function that is no kernel cudaErrorInvalidResourceHandle;
 *  - bad arguments are cudaErrorInvalidValue: cudaMalloc(NULL, ...),
 *    cudaMemcpy from or to NULL or past the end of an allocation,
 *    cudaMemset(NULL, ...), cudaFree of a host pointer; an unknown copy kind
 *    is cudaErrorInvalidMemcpyDirection; cudaSetDevice and
 *    cudaGetDeviceProperties of a device that does not exist are
 *    cudaErrorInvalidDevice; an impossible allocation is
 *    cudaErrorMemoryAllocation; cudaFree(NULL) and zero-byte copies succeed;
 *  - cudaGetErrorName / cudaGetErrorString give NVIDIA's exact texts,
 *    "unrecognized error code" for a value outside the enum, and set no
 *    error.
 */
#include "check.h"

__global__ void fill(int n, int *out, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = v + i;
}

__global__ void empty(void) {}

/* A good launch writes what it should. */
static void check_good_launch(int *d, int n, int v, int line)
{
   int h[300];
   fill<<<(n + 127) / 128, 128>>>(n, d, v);
   check_err(cudaGetLastError(), cudaSuccess, "good launch", __FILE__, line);
   check_err(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize after good launch", __FILE__, line);
   memset(h, 0, sizeof(h));
   check_err(cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy", __FILE__, line);
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += h[i] != v + i;
   check_int(bad, 0, "elements wrong after good launch", __FILE__, line);
}

int main(void)
{
   check_begin("errors");
   const int n = 300;
   int *d = NULL;

   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   REQUIRE_CUDA(cudaMalloc(&d, n * 4));

   /* invalid configurations */
   fill<<<1, 2048>>>(n, d, 0);
   CHECK_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
   CHECK_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);   /* peek does not reset */
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);                /* get does */
   CHECK_ERR(cudaPeekAtLastError(), cudaSuccess);
   check_good_launch(d, n, 1000, __LINE__);

   fill<<<0, 32>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, 0>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, dim3(1, 1, 65)>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, dim3(32, 32, 2)>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<dim3(1, 65536), 1>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<dim3(1, 1, 65536), 1>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, dim3(1025, 1, 1)>>>(n, d, 0);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, 32, 1 << 20>>>(n, d, 0);                          /* 1 MB of dynamic shared memory */
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   int nn = n, vv = 0;
   void *args[] = { &nn, &d, &vv };
   CHECK_ERR(cudaLaunchKernel((const void *)fill, dim3(1), dim3(2048), args, 0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_ERR(cudaLaunchKernel(NULL, dim3(1), dim3(32), args, 0, 0), cudaErrorInvalidDeviceFunction);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
   CHECK_ERR(cudaLaunchKernel((const void *)check_good_launch, dim3(1), dim3(32), args, 0, 0),
             cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
   /* the limits themselves are fine */
   empty<<<dim3(1, 65535, 1), dim3(1, 1, 64)>>>();
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   empty<<<dim3(1, 1, 65535), dim3(1024, 1, 1)>>>();
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);

   /* the error is not sticky, and a successful call does not clear it */
   fill<<<1, 2048>>>(n, d, 0);
   CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
   CHECK_ERR(cudaMemset(d, 0, n * 4), cudaSuccess);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   check_good_launch(d, n, -77, __LINE__);

   /* a later error replaces an earlier one */
   fill<<<1, 2048>>>(n, d, 0);
   CHECK_ERR(cudaSetDevice(-1), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_ERR(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

   /* bad arguments */
   int *p = (int *)(uintptr_t)0x1234;
   CHECK_ERR(cudaMalloc(&p, (size_t)1 << 62), cudaErrorMemoryAllocation);
   CHECK_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   int host[4] = { 1, 2, 3, 4 };
   CHECK_ERR(cudaMemcpy(d, NULL, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy(NULL, d, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy(host, d + n, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);   /* past the end */
   CHECK_ERR(cudaMemset(NULL, 0, 16), cudaErrorInvalidValue);
   CHECK_ERR(cudaFree(host), cudaErrorInvalidValue);                                          /* not ours */
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpy(host, d, 16, (enum cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
   CHECK_ERR(cudaMemcpy(d, host, 0, cudaMemcpyHostToDevice), cudaSuccess);
   CHECK_ERR(cudaFree(NULL), cudaSuccess);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);

   int count = -1, dev = -1;
   CHECK_CUDA(cudaGetDeviceCount(&count));
   CHECK(count >= 1);
   CHECK_ERR(cudaSetDevice(count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
   CHECK_ERR(cudaSetDevice(-1), cudaErrorInvalidDevice);
   CHECK_CUDA(cudaGetDevice(&dev));
   CHECK_INT(dev, 0);                                         /* unchanged */
   struct cudaDeviceProp prop;
   CHECK_ERR(cudaGetDeviceProperties(&prop, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
   CHECK_CUDA(cudaSetDevice(0));
   check_good_launch(d, n, 5, __LINE__);

   /* names and strings */
   CHECK_STR(cudaGetErrorName(cudaSuccess), "cudaSuccess");
   CHECK_STR(cudaGetErrorString(cudaSuccess), "no error");
   CHECK_STR(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
   CHECK_STR(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
   CHECK_STR(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
   CHECK_STR(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
   CHECK_STR(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
   CHECK_STR(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
   CHECK_STR(cudaGetErrorString(cudaErrorInvalidDevice), "invalid device ordinal");
   CHECK_STR(cudaGetErrorString(cudaErrorInvalidMemcpyDirection), "invalid copy direction for memcpy");
   CHECK_STR(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
   CHECK_STR(cudaGetErrorName((cudaError_t)9999), "unrecognized error code");
   CHECK_STR(cudaGetErrorString((cudaError_t)9999), "unrecognized error code");
   CHECK_INT(cudaErrorInvalidValue, 1);
   CHECK_INT(cudaErrorInvalidConfiguration, 9);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);   /* none of these set it */

   CHECK_CUDA(cudaFree(d));
   return check_end();
}
