/*
 * hostregister_mapped.cu — a kernel using host memory the program allocated
 * itself (malloc) and registered with cudaHostRegisterMapped, through the
 * device pointer cudaHostGetDevicePointer gives: the kernel reads one
 * registered buffer and writes another, the host reads the result after
 * cudaDeviceSynchronize.
 *
 * Also: registration with cudaHostRegisterPortable (and
 * cudaHostRegisterReadOnly where the device attribute says so) is accepted, the memory is used by asynchronous
 * copies and read by a kernel through its device pointer; cudaHostGetFlags
 * reports the mapping.  (Through metalcuda on an Apple GPU, kernels cannot
 * reach the process's memory yet: cudaHostGetDevicePointer is then
 * cudaErrorNotSupported naming the range, never a bad pointer.)
 */
#include "check.h"

__global__ void square(int n, const int *in, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = in[i] * in[i];
}

int main()
{
   check_begin("hostregister_mapped");
   const int n = 4096;   /* whole pages */
   int *in = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
   int *want = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++) {
      in[i] = (int)(mix32(i) & 0x7fff) - 16000;
      out[i] = (int)SENTINEL32;
      want[i] = in[i] * in[i];
   }
   cudaError_t ri = cudaHostRegister(in, n * sizeof(int), cudaHostRegisterMapped);
   cudaError_t ro = cudaHostRegister(out, n * sizeof(int), cudaHostRegisterMapped);
   CHECK_CUDA(ri);
   CHECK_CUDA(ro);
   if (ri == cudaSuccess && ro == cudaSuccess) {
      int *din = NULL, *dout = NULL;
      CHECK_CUDA(cudaHostGetDevicePointer((void **)&din, in, 0));
      CHECK_CUDA(cudaHostGetDevicePointer((void **)&dout, out, 0));
      unsigned flags = 0;
      CHECK_CUDA(cudaHostGetFlags(&flags, in));
      CHECK(flags & cudaHostRegisterMapped);
      square<<<n / 256, 256>>>(n, din, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_ARRAY_I32("kernel through registered memory", out, want, n);
   }
   /* portable and read-only registrations: asynchronous copies, and a
    * kernel reading through the device pointer */
   int *ro_in = (int *)malloc(n * sizeof(int)), *dev;
   for (int i = 0; i < n; i++)
      ro_in[i] = i - 2000;
   int ro_ok = 0;   /* read-only registration where the device says it has it */
   CHECK_CUDA(cudaDeviceGetAttribute(&ro_ok, cudaDevAttrHostRegisterReadOnlySupported, 0));
   printf("HostRegisterReadOnlySupported = %d\n", ro_ok);
   CHECK_CUDA(cudaHostRegister(ro_in, n * sizeof(int),
                               cudaHostRegisterPortable | (ro_ok ? cudaHostRegisterReadOnly : 0)));
   CHECK_CUDA(cudaMalloc(&dev, n * sizeof(int)));
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaMemcpyAsync(dev, ro_in, n * sizeof(int), cudaMemcpyHostToDevice, s));
   int *dro = NULL;
   CHECK_CUDA(cudaHostGetDevicePointer((void **)&dro, ro_in, 0));
   square<<<n / 256, 256, 0, s>>>(n, dro, dev + 0);
   CHECK_CUDA(cudaMemcpyAsync(out, dev, n * sizeof(int), cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(out[5], (5 - 2000) * (5 - 2000));
   CHECK_INT(out[n - 1], (n - 1 - 2000) * (n - 1 - 2000));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(dev));
   CHECK_CUDA(cudaHostUnregister(ro_in));
   free(ro_in);
   if (ri == cudaSuccess)
      CHECK_CUDA(cudaHostUnregister(in));
   if (ro == cudaSuccess)
      CHECK_CUDA(cudaHostUnregister(out));
   free(in);
   free(out);
   free(want);
   return check_end();
}
