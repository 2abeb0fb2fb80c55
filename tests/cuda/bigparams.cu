/*
 * bigparams.cu — large structs passed by value to kernels.
 *
 *  - fixed: a 6 KB struct read at constant offsets only.  6 KB is past the
 *    4 KB that older GPUs allowed (CUDA 12.1+ takes up to 32764 bytes of
 *    parameters on Volta and newer) and past what Metal's setBytes takes;
 *  - big: a 1 KB struct whose array is indexed by a thread-dependent value
 *    (nvcc then takes the address of the parameter: mov of the param
 *    symbol, then ld.param through it);
 *  - huge: the 6 KB struct indexed by thread.
 */
#include "check.h"

struct Big {
   int v[256];   /* 1 KB */
};

struct Huge {
   unsigned v[1536];   /* 6 KB */
};

__global__ void fixed(int tag, Huge h, unsigned *out)
{
   if (threadIdx.x == 0) {
      out[0] = h.v[0] ^ (unsigned)tag;
      out[1] = h.v[1];
      out[2] = h.v[1000];
      out[3] = h.v[1024];   /* the first word past 4 KB */
      out[4] = h.v[1535];
   }
}

__global__ void big(Big s, int n, int *out)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < n)
      out[t] = s.v[(t * 37) % 256] + s.v[255 - t % 256];
}

__global__ void huge(int tag, Huge h, int n, unsigned *out)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < n)
      out[t] = h.v[t] ^ (unsigned)tag;
}

int main(void)
{
   check_begin("bigparams");
   static Huge h;
   for (int k = 0; k < 1536; k++)
      h.v[k] = mix32((uint32_t)k + 99u);

   /* 6 KB struct, constant offsets */
   unsigned *dfix = (unsigned *)dev_alloc_fill32(5), hfix[5];
   CHECK(dfix != NULL);
   fixed<<<1, 32>>>(0x77, h, dfix);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hfix, dfix, sizeof(hfix), cudaMemcpyDeviceToHost));
   unsigned wfix[5] = { h.v[0] ^ 0x77u, h.v[1], h.v[1000], h.v[1024], h.v[1535] };
   CHECK_ARRAY_U32("6 KB struct, constant offsets", hfix, wfix, 5);

   /* 1 KB struct, indexed by thread */
   Big b;
   for (int k = 0; k < 256; k++)
      b.v[k] = (int)mix32((uint32_t)k) >> 4;
   const int nb = 700;
   int *dbig = (int *)dev_alloc_fill32(nb), hbig[nb], wbig[nb];
   CHECK(dbig != NULL);
   big<<<(nb + 127) / 128, 128>>>(b, nb, dbig);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hbig, dbig, sizeof(hbig), cudaMemcpyDeviceToHost));
   for (int t = 0; t < nb; t++)
      wbig[t] = b.v[(t * 37) % 256] + b.v[255 - t % 256];
   CHECK_ARRAY_I32("1 KB struct, indexed by thread", hbig, wbig, nb);

   /* 6 KB struct, indexed by thread */
   const int nh = 1536;
   unsigned *dh = (unsigned *)dev_alloc_fill32(nh), hh[nh], wh[nh];
   CHECK(dh != NULL);
   huge<<<(nh + 255) / 256, 256>>>(0x5555, h, nh, dh);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hh, dh, sizeof(hh), cudaMemcpyDeviceToHost));
   for (int t = 0; t < nh; t++)
      wh[t] = h.v[t] ^ 0x5555u;
   CHECK_ARRAY_U32("6 KB struct, indexed by thread", hh, wh, nh);

   cudaFree(dfix), cudaFree(dbig), cudaFree(dh);
   return check_end();
}
