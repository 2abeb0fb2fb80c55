/*
 * symbols.cu — __device__ and __constant__ variables through the runtime's
 * symbol calls:
 *
 *  - cudaMemcpyToSymbol into a __constant__ array (whole, then at a byte
 *    offset) read by a kernel; into a __device__ array from device memory
 *    (cudaMemcpyDeviceToDevice) and with cudaMemcpyDefault;
 *  - cudaMemcpyFromSymbol of a __device__ array a kernel wrote, whole and at
 *    an offset, to host and to device memory;
 *  - cudaMemcpyToSymbolAsync / FromSymbolAsync on cudaStreamPerThread,
 *    ordered with a kernel on the same stream;
 *  - cudaGetSymbolAddress: a kernel given the address as a plain pointer
 *    writes the variable; cudaMemcpy through the address; cudaGetSymbolSize
 *    of a scalar, an array and a struct;
 *  - errors: a host address that is no symbol -> cudaErrorInvalidSymbol;
 *    offset + count past the end -> cudaErrorInvalidValue; a kind naming the
 *    symbol as host memory -> cudaErrorInvalidMemcpyDirection.
 */
#include "check.h"

struct pair { int a; double b; char c[5]; };

__constant__ int coef[16];
__device__ unsigned data[100];
__device__ int scalar = 7;
__device__ pair pr;

__global__ void apply_coef(int n, const int *in, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = in[i] * coef[i % 16] + coef[(i + 1) % 16];
}

__global__ void write_data(unsigned k)
{
   int i = threadIdx.x;
   if (i < 100)
      data[i] = data[i] * 3u + k + (unsigned)i;
}

__global__ void through_pointer(unsigned *p, int n)
{
   int i = threadIdx.x;
   if (i < n)
      p[i] = 1000u + (unsigned)i;
}

int main()
{
   check_begin("symbols");

   /* __constant__: whole, then 3 ints at byte offset 20 */
   int c[16], cw[16];
   for (int i = 0; i < 16; i++)
      cw[i] = c[i] = i * 3 - 7;
   CHECK_CUDA(cudaMemcpyToSymbol(coef, c, sizeof(c)));
   int part[3] = { 100, 200, 300 };
   CHECK_CUDA(cudaMemcpyToSymbol(coef, part, sizeof(part), 5 * sizeof(int), cudaMemcpyHostToDevice));
   memcpy(&cw[5], part, sizeof(part));
   const int n = 500;
   int *hin = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc(n * sizeof(int));
   int *want = (int *)malloc(n * sizeof(int));
   for (int i = 0; i < n; i++) {
      hin[i] = (int)(mix32(i) % 200) - 100;
      want[i] = hin[i] * cw[i % 16] + cw[(i + 1) % 16];
   }
   int *din = NULL, *dout = NULL;
   REQUIRE_CUDA(cudaMalloc((void **)&din, n * sizeof(int)));
   REQUIRE_CUDA(cudaMalloc((void **)&dout, n * sizeof(int)));
   CHECK_CUDA(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
   apply_coef<<<(n + 127) / 128, 128>>>(n, din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("kernel with __constant__ coefficients", hout, want, n);
   int cback[16];
   CHECK_CUDA(cudaMemcpyFromSymbol(cback, coef, sizeof(cback)));
   CHECK_ARRAY_I32("cudaMemcpyFromSymbol(coef)", cback, cw, 16);

   /* __device__ array: from device memory, then the kernel, then back */
   unsigned d[100], dw[100];
   for (int i = 0; i < 100; i++)
      d[i] = mix32(i + 5) & 0xffff;
   unsigned *dd = NULL;
   REQUIRE_CUDA(cudaMalloc((void **)&dd, sizeof(d)));
   CHECK_CUDA(cudaMemcpy(dd, d, sizeof(d), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpyToSymbol(data, dd, sizeof(d), 0, cudaMemcpyDeviceToDevice));
   write_data<<<1, 128>>>(11u);
   CHECK_CUDA(cudaGetLastError());
   for (int i = 0; i < 100; i++)
      dw[i] = d[i] * 3u + 11u + (unsigned)i;
   unsigned back[100];
   fill_u32(back, 100, SENTINEL32);
   CHECK_CUDA(cudaMemcpyFromSymbol(back, data, sizeof(back), 0, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("data after the kernel", back, dw, 100);
   /* 10 elements from offset 40 bytes, to device memory then to the host */
   CHECK_CUDA(cudaMemcpyFromSymbol(dd, data, 10 * sizeof(unsigned), 10 * sizeof(unsigned), cudaMemcpyDeviceToDevice));
   fill_u32(back, 100, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(back, dd, 10 * sizeof(unsigned), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("data[10..20) through device memory", back, dw + 10, 10);
   /* cudaMemcpyDefault into the middle */
   unsigned three[3] = { 1, 2, 3 };
   CHECK_CUDA(cudaMemcpyToSymbol(data, three, sizeof(three), 97 * sizeof(unsigned), cudaMemcpyDefault));
   memcpy(&dw[97], three, sizeof(three));

   /* async on a stream, ordered with a kernel */
   cudaStream_t s = cudaStreamPerThread;
   unsigned zeros[100] = { 0 };
   CHECK_CUDA(cudaMemcpyToSymbolAsync(data, zeros, sizeof(zeros), 0, cudaMemcpyHostToDevice, s));
   write_data<<<1, 128, 0, s>>>(5u);
   fill_u32(back, 100, SENTINEL32);
   CHECK_CUDA(cudaMemcpyFromSymbolAsync(back, data, sizeof(back), 0, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaDeviceSynchronize());
   for (int i = 0; i < 100; i++)
      dw[i] = 5u + (unsigned)i;
   CHECK_ARRAY_U32("async to symbol, kernel, async from symbol", back, dw, 100);

   /* the symbol's address as a plain pointer */
   unsigned *addr = NULL;
   CHECK_CUDA(cudaGetSymbolAddress((void **)&addr, data));
   CHECK(addr != NULL);
   through_pointer<<<1, 64>>>(addr + 30, 50);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpyFromSymbol(back, data, sizeof(back)));
   for (int i = 30; i < 80; i++)
      dw[i] = 1000u + (unsigned)(i - 30);
   CHECK_ARRAY_U32("data after a kernel wrote through its address", back, dw, 100);
   int sv = 0;
   int *saddr = NULL;
   CHECK_CUDA(cudaGetSymbolAddress((void **)&saddr, scalar));
   CHECK_CUDA(cudaMemcpy(&sv, saddr, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(sv, 7);
   /* a variable is not an allocation of the program's: cudaFree refuses it
    * and the variable lives on */
   CHECK_ERR(cudaFree(saddr), cudaErrorInvalidValue);
   CHECK_ERR(cudaFree(addr), cudaErrorInvalidValue);
   void *paddr = NULL, *caddr = NULL;
   CHECK_CUDA(cudaGetSymbolAddress(&paddr, pr));
   CHECK_CUDA(cudaGetSymbolAddress(&caddr, coef));
   CHECK_ERR(cudaFree(paddr), cudaErrorInvalidValue);
   CHECK_ERR(cudaFree(caddr), cudaErrorInvalidValue);
   sv = 0;
   CHECK_CUDA(cudaMemcpy(&sv, saddr, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(sv, 7);
   size_t sz = 0;
   CHECK_CUDA(cudaGetSymbolSize(&sz, scalar));
   CHECK_INT(sz, sizeof(int));
   CHECK_CUDA(cudaGetSymbolSize(&sz, data));
   CHECK_INT(sz, 100 * sizeof(unsigned));
   CHECK_CUDA(cudaGetSymbolSize(&sz, pr));
   CHECK_INT(sz, sizeof(pair));
   CHECK_CUDA(cudaGetSymbolSize(&sz, coef));
   CHECK_INT(sz, 16 * sizeof(int));

   /* errors */
   static int not_a_symbol;
   CHECK_ERR(cudaMemcpyToSymbol(&not_a_symbol, c, 4), cudaErrorInvalidSymbol);
   CHECK_ERR(cudaGetSymbolAddress((void **)&addr, &not_a_symbol), cudaErrorInvalidSymbol);
   CHECK_ERR(cudaGetSymbolSize(&sz, &not_a_symbol), cudaErrorInvalidSymbol);
   CHECK_ERR(cudaMemcpyToSymbol(coef, c, sizeof(c), 4), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpyFromSymbol(back, data, 4, 100 * sizeof(unsigned)), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpyToSymbol(coef, c, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
   CHECK_ERR(cudaMemcpyFromSymbol(back, data, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidMemcpyDirection);
   CHECK_INT(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
   /* nothing was written by the failed calls */
   CHECK_CUDA(cudaMemcpyFromSymbol(cback, coef, sizeof(cback)));
   CHECK_ARRAY_I32("coef after failed copies", cback, cw, 16);

   cudaFree(dd);
   cudaFree(din);
   cudaFree(dout);
   free(hin); free(hout); free(want);
   return check_end();
}
