/*
 * hostregister_mapped.cu — a kernel using host memory the program allocated
 * itself (malloc) and registered with cudaHostRegisterMapped, through the
 * device pointer cudaHostGetDevicePointer gives: the kernel reads one
 * registered buffer and writes another, the host reads the result after
 * cudaDeviceSynchronize.
 *
 * A known metalcuda gap: kernels reach only the device-memory arena, so the
 * registration is refused with cudaErrorNotSupported (and a logged reason);
 * the TODO_METALCUDA marks say so, and the program shows as SKIP there.
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
   TODO_METALCUDA(ri == cudaSuccess && ro == cudaSuccess,
                  "kernels cannot reach memory outside the arena: cudaHostRegisterMapped is refused");
   if (ri == cudaSuccess && ro == cudaSuccess) {
      int *din = NULL, *dout = NULL;
      CHECK_CUDA(cudaHostGetDevicePointer((void **)&din, in, 0));
      CHECK_CUDA(cudaHostGetDevicePointer((void **)&dout, out, 0));
      square<<<n / 256, 256>>>(n, din, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_ARRAY_I32("kernel through registered memory", out, want, n);
   } else {
      CHECK_INT(ri, cudaErrorNotSupported);   /* through metalcuda: refused, never a bad pointer */
      cudaGetLastError();
   }
   if (ri == cudaSuccess)
      CHECK_CUDA(cudaHostUnregister(in));
   if (ro == cudaSuccess)
      CHECK_CUDA(cudaHostUnregister(out));
   free(in);
   free(out);
   free(want);
   return check_end();
}
