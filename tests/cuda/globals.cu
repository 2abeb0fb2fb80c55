/*
 * globals.cu — module-scope __device__ and __constant__ variables, without
 * cudaMemcpyToSymbol (not implemented yet): everything is initialised in
 * the source or written by kernels, and read back through kernels that copy
 * into ordinary allocations.
 *
 *  1. read_initial: the static initialisers are visible to the first
 *     launch: a zero-initialised __device__ array, an initialised __device__
 *     scalar and array, __constant__ int/float arrays and a __constant__
 *     struct with mixed field sizes;
 *  2. write_table (8 blocks of 125 threads) fills the __device__ array;
 *     bump (one thread) updates the __device__ scalar, launched 5 times;
 *  3. read_back, a later launch, sees both: state persists across launches,
 *     and a pointer into the __device__ array passed through a __device__
 *     function (generic addressing) reads the same memory.
 */
#include "check.h"

struct Mixed {
   char c;
   short s;
   int i;
   long long ll;
   float f;
   unsigned char tail[3];
};

__constant__ int ctable[16] = { 3, -1, 4, -1, 5, -9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 0x7fffffff };
__constant__ float cscale[4] = { 0.5f, -2.0f, 3.25f, 1e-3f };
__constant__ Mixed cmixed = { -5, -30000, 123456789, -1234567890123456789ll, 2.5e-3f, { 250, 1, 128 } };
__device__ int dtable[1000];                 /* zero-initialised */
__device__ unsigned counter = 7;
__device__ float dinit[5] = { 1.5f, -2.5f, 1e30f, -0.0f, 3.0e-40f };

#define INIT_WORDS 64

__global__ void read_initial(unsigned *out)
{
   int t = threadIdx.x;   /* one block of INIT_WORDS threads */
   unsigned v;
   if (t < 16)
      v = (unsigned)ctable[t];
   else if (t < 20)
      v = __float_as_uint(cscale[t - 16]);
   else if (t < 25)
      v = __float_as_uint(dinit[t - 20]);
   else if (t == 25)
      v = counter;
   else if (t == 26)
      v = (unsigned)(int)cmixed.c;
   else if (t == 27)
      v = (unsigned)(int)cmixed.s;
   else if (t == 28)
      v = (unsigned)cmixed.i;
   else if (t == 29)
      v = (unsigned)(cmixed.ll & 0xffffffff);
   else if (t == 30)
      v = (unsigned)(cmixed.ll >> 32);
   else if (t == 31)
      v = __float_as_uint(cmixed.f);
   else if (t < 35)
      v = cmixed.tail[t - 32];   /* one byte a word (packing bytes is params.cu's job) */
   else {
      /* dtable is all zero: OR of a slice of 35 entries */
      v = 0;
      for (int j = (t - 35) * 35; j < (t - 34) * 35 && j < 1000; j++)
         v |= (unsigned)dtable[j];
   }
   out[t] = v;
}

__global__ void write_table(int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dtable[i] = i * i - ctable[i % 16];
}

__global__ void bump(void)
{
   if (threadIdx.x == 0 && blockIdx.x == 0)
      counter = counter * 3u + 1u;
}

__device__ int fetch(const int *p, int k)
{
   return p[k];
}

__global__ void read_back(int n, int *out, unsigned *cnt)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = dtable[i] + fetch(&dtable[n - 1 - i], 0) * 2 + ctable[(i * 7) % 16] +
               (int)(cscale[i & 3] * 4.0f);
   if (i == 0)
      *cnt = counter;
}

int main(void)
{
   check_begin("globals");
   const int n = 1000;
   const int ct[16] = { 3, -1, 4, -1, 5, -9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 0x7fffffff };
   const float cs[4] = { 0.5f, -2.0f, 3.25f, 1e-3f };

   /* 1. initial values */
   unsigned *dinit_out = (unsigned *)dev_alloc_fill32(INIT_WORDS), got[INIT_WORDS], want[INIT_WORDS];
   CHECK(dinit_out != NULL);
   read_initial<<<1, INIT_WORDS>>>(dinit_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dinit_out, sizeof(got), cudaMemcpyDeviceToHost));
   const float di[5] = { 1.5f, -2.5f, 1e30f, -0.0f, 3.0e-40f };
   for (int t = 0; t < 16; t++)
      want[t] = (unsigned)ct[t];
   for (int t = 0; t < 4; t++)
      want[16 + t] = f32_bits(cs[t]);
   for (int t = 0; t < 5; t++)
      want[20 + t] = f32_bits(di[t]);
   want[25] = 7;
   want[26] = (unsigned)-5;
   want[27] = (unsigned)-30000;
   want[28] = 123456789u;
   want[29] = (unsigned)((unsigned long long)-1234567890123456789ll & 0xffffffffu);
   want[30] = (unsigned)((unsigned long long)-1234567890123456789ll >> 32);
   want[31] = f32_bits(2.5e-3f);
   want[32] = 250u;
   want[33] = 1u;
   want[34] = 128u;
   for (int t = 35; t < INIT_WORDS; t++)
      want[t] = 0;
   CHECK_ARRAY_U32("initial values (ctable, cscale, dinit, counter, cmixed, dtable)", got, want, INIT_WORDS);
   CHECK_INT(got[25], 7);

   /* 2. kernels write the __device__ variables */
   write_table<<<8, 125>>>(n);
   for (int k = 0; k < 5; k++)
      bump<<<3, 32>>>();
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());

   /* 3. a later launch reads them */
   int *dout = (int *)dev_alloc_fill32(n), *out = (int *)malloc(n * 4), *wout = (int *)malloc(n * 4);
   unsigned *dcnt = (unsigned *)dev_alloc_fill32(1), cnt = 0;
   CHECK(dout && dcnt);
   read_back<<<(n + 63) / 64, 64>>>(n, dout, dcnt);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(&cnt, dcnt, 4, cudaMemcpyDeviceToHost));
   unsigned wcnt = 7;
   for (int k = 0; k < 5; k++)
      wcnt = wcnt * 3u + 1u;
   CHECK_INT(cnt, wcnt);
   for (int i = 0; i < n; i++) {
      int j = n - 1 - i;
      unsigned ti = (unsigned)(i * i) - (unsigned)ct[i % 16], tj = (unsigned)(j * j) - (unsigned)ct[j % 16];
      /* wrap-around arithmetic, as the device does */
      wout[i] = (int)(ti + tj * 2u + (unsigned)ct[(i * 7) % 16] + (unsigned)(int)(cs[i & 3] * 4.0f));
   }
   CHECK_ARRAY_I32("read_back", out, wout, n);

   /* the table survives another launch that only reads */
   CHECK_CUDA(cudaMemset(dout, 0xff, n * 4));
   read_back<<<(n + 63) / 64, 64>>>(n, dout, dcnt);
   CHECK_CUDA(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("read_back again", out, wout, n);

   cudaFree(dinit_out), cudaFree(dout), cudaFree(dcnt);
   free(out), free(wout);
   return check_end();
}
