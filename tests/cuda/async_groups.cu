// nvcc-flags: -arch=sm_80
/*
 * async_groups.cu — the asynchronous copies that need no cuda::barrier:
 *   cgcopy    cooperative_groups::memcpy_async of a block (16-byte units:
 *             float4s; 4-byte units: 100 floats; 36 chars from offsets
 *             37 apart, so aligned to 16, 1 and 2 bytes) into shared
 *             memory, cg::wait, read back by other threads.  (36, not 37:
 *             the PTX nvcc 13.0 makes of NVIDIA's header copies a 37-byte
 *             run whose addresses differ by 2 mod 4 as 18 halfwords, 36
 *             bytes; not asserted either way until it has run on a GPU.)
 *   prior     two copies in flight, cg::wait_prior<1> then cg::wait
 *   tile      a thread_block_tile<32> copying its own slice
 *   global    memcpy_async from global to global memory (a plain copy)
 *   prims     __pipeline_memcpy_async of 4, 8 and 16 bytes with every zfill,
 *             __pipeline_commit, __pipeline_wait_prior
 * Expected values are the host's copies of the same data.
 */
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

#define THREADS 128

__global__ void k_cgcopy(const float4 *in4, const float *in1, const char *inb, float4 *out4, float *out1, char *outb)
{
   __shared__ float4 s4[128];
   __shared__ float s1[100];
   __shared__ char sb[40];
   auto block = cg::this_thread_block();
   unsigned t = threadIdx.x;
   cg::memcpy_async(block, s4, in4 + blockIdx.x * 128, sizeof(float4) * 128);
   cg::memcpy_async(block, s1, in1 + blockIdx.x * 100, sizeof(float) * 100);
   cg::memcpy_async(block, sb, 40, inb + blockIdx.x * 37, 36);
   cg::wait(block);
   float4 v = s4[127 - t];
   out4[blockIdx.x * 128 + t] = make_float4(v.w, v.z, v.y, v.x);
   if (t < 100)
      out1[blockIdx.x * 100 + t] = s1[99 - t];
   if (t < 36)
      outb[blockIdx.x * 36 + t] = sb[35 - t];
}

__global__ void k_prior(const unsigned *a, const unsigned *b, unsigned *out)
{
   __shared__ unsigned sa[THREADS], sb[THREADS];
   auto block = cg::this_thread_block();
   unsigned t = threadIdx.x;
   cg::memcpy_async(block, sa, a, sizeof(unsigned) * THREADS);
   cg::memcpy_async(block, sb, b, sizeof(unsigned) * THREADS);
   cg::wait_prior<1>(block);      /* the first copy is complete and visible */
   unsigned x = sa[(t + 1) % THREADS];
   cg::wait(block);
   out[t] = x ^ sb[(t + 5) % THREADS];
}

__global__ void k_tile(const unsigned *in, unsigned *out)
{
   __shared__ unsigned s[THREADS];
   auto tile = cg::tiled_partition<32>(cg::this_thread_block());
   unsigned base = threadIdx.x & ~31u;
   cg::memcpy_async(tile, s + base, in + base, 32 * sizeof(unsigned));
   cg::wait(tile);
   out[threadIdx.x] = s[base + 31 - tile.thread_rank()] * 3u;
}

__global__ void k_global(const unsigned *in, unsigned *mid, unsigned *out)
{
   auto block = cg::this_thread_block();
   cg::memcpy_async(block, mid, in, sizeof(unsigned) * THREADS);
   cg::wait(block);
   out[threadIdx.x] = mid[THREADS - 1 - threadIdx.x];
}

/* thread t of 32 copies `size` bytes keeping t % (size + 1) of them */
template <int SIZE> __global__ void k_prims(const unsigned char *in, unsigned char *out)
{
   __shared__ __align__(16) unsigned char s[32 * SIZE];
   unsigned t = threadIdx.x;
   for (int k = 0; k < SIZE; k++)
      s[t * SIZE + k] = 0xee;
   __syncwarp();
   size_t keep = t % (SIZE + 1u);
   __pipeline_memcpy_async(&s[t * SIZE], &in[t * SIZE], SIZE, SIZE - keep);
   __pipeline_commit();
   __pipeline_wait_prior(0);
   __syncwarp();
   for (int k = 0; k < SIZE; k++)
      out[t * SIZE + k] = s[((t + 3) % 32) * SIZE + k];
}

template <int SIZE> static void test_prims(const unsigned char *h, unsigned char *dh, const char *what)
{
   unsigned char *dout, got[32 * 16], want[32 * 16];
   CHECK_CUDA(cudaMalloc(&dout, 32 * SIZE));
   CHECK_CUDA(cudaMemset(dout, 0x5a, 32 * SIZE));
   k_prims<SIZE><<<1, 32>>>(dh, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, 32 * SIZE, cudaMemcpyDeviceToHost));
   for (unsigned t = 0; t < 32; t++) {
      unsigned src = (t + 3) % 32, keep = src % (SIZE + 1u);
      for (unsigned k = 0; k < (unsigned)SIZE; k++)
         want[t * SIZE + k] = k < keep ? h[src * SIZE + k] : 0;
   }
   int bad = 0;
   for (int i = 0; i < 32 * SIZE; i++)
      bad += got[i] != want[i];
   if (bad)
      printf("    %s: %d bytes differ (first: got %#x expected %#x)\n", what, bad, got[0], want[0]);
   CHECK_INT(bad, 0);
   cudaFree(dout);
}

int main(void)
{
   check_begin("async_groups");
   const int nb = 3;
   /* cgcopy */
   {
      float4 *h4 = (float4 *)malloc(nb * 128 * sizeof(float4)), *g4 = (float4 *)malloc(nb * 128 * sizeof(float4));
      float h1[nb * 100], g1[nb * 100];
      char hb[nb * 37], gb[nb * 37];
      for (int i = 0; i < nb * 128; i++)
         h4[i] = make_float4((float)i, (float)(i * 3), -(float)i, 0.5f * (float)i);
      for (int i = 0; i < nb * 100; i++)
         h1[i] = (float)mix32((unsigned)i) * 0x1p-20f;
      for (int i = 0; i < nb * 37; i++)
         hb[i] = (char)(mix32((unsigned)i + 999u) & 0x7f);
      float4 *d4, *o4;
      float *d1, *o1;
      char *db, *ob;
      CHECK_CUDA(cudaMalloc(&d4, nb * 128 * sizeof(float4)));
      CHECK_CUDA(cudaMalloc(&o4, nb * 128 * sizeof(float4)));
      CHECK_CUDA(cudaMalloc(&d1, sizeof(h1)));
      CHECK_CUDA(cudaMalloc(&o1, sizeof(h1)));
      CHECK_CUDA(cudaMalloc(&db, sizeof(hb)));
      CHECK_CUDA(cudaMalloc(&ob, sizeof(hb)));
      CHECK_CUDA(cudaMemcpy(d4, h4, nb * 128 * sizeof(float4), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(d1, h1, sizeof(h1), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
      k_cgcopy<<<nb, THREADS>>>(d4, d1, db, o4, o1, ob);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(g4, o4, nb * 128 * sizeof(float4), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(g1, o1, sizeof(h1), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(gb, ob, sizeof(hb), cudaMemcpyDeviceToHost));
      int bad4 = 0, bad1 = 0, badb = 0;
      for (int b = 0; b < nb; b++) {
         for (int t = 0; t < 128; t++) {
            float4 v = h4[b * 128 + 127 - t], g = g4[b * 128 + t];
            bad4 += g.x != v.w || g.y != v.z || g.z != v.y || g.w != v.x;
         }
         for (int t = 0; t < 100; t++)
            bad1 += g1[b * 100 + t] != h1[b * 100 + 99 - t];
         for (int t = 0; t < 36; t++)
            if (gb[b * 36 + t] != hb[b * 37 + 35 - t] && badb++ < 8)
               printf("    block %d byte %d: got %#x expected %#x\n", b, t, gb[b * 36 + t], hb[b * 37 + 35 - t]);
      }
      CHECK_INT(bad4, 0);
      CHECK_INT(bad1, 0);
      CHECK_INT(badb, 0);
      cudaFree(d4);
      cudaFree(o4);
      cudaFree(d1);
      cudaFree(o1);
      cudaFree(db);
      cudaFree(ob);
      free(h4);
      free(g4);
   }
   unsigned ha[THREADS], hb2[THREADS], got[THREADS], want[THREADS];
   for (int i = 0; i < THREADS; i++) {
      ha[i] = mix32((unsigned)i + 7u);
      hb2[i] = mix32((unsigned)i + 70000u);
   }
   unsigned *da, *db2, *dout, *dmid;
   CHECK_CUDA(cudaMalloc(&da, sizeof(ha)));
   CHECK_CUDA(cudaMalloc(&db2, sizeof(hb2)));
   CHECK_CUDA(cudaMalloc(&dout, sizeof(got)));
   CHECK_CUDA(cudaMalloc(&dmid, sizeof(got)));
   CHECK_CUDA(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(db2, hb2, sizeof(hb2), cudaMemcpyHostToDevice));
   /* prior */
   k_prior<<<1, THREADS>>>(da, db2, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++)
      want[t] = ha[(t + 1) % THREADS] ^ hb2[(t + 5) % THREADS];
   CHECK_ARRAY_U32("wait_prior<1> then wait", got, want, THREADS);
   /* tile */
   k_tile<<<1, THREADS>>>(da, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++)
      want[t] = ha[(t & ~31) + 31 - (t & 31)] * 3u;
   CHECK_ARRAY_U32("thread_block_tile<32> memcpy_async", got, want, THREADS);
   /* global to global */
   k_global<<<1, THREADS>>>(db2, dmid, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++)
      want[t] = hb2[THREADS - 1 - t];
   CHECK_ARRAY_U32("global-to-global memcpy_async", got, want, THREADS);
   /* prims */
   {
      unsigned char h[32 * 16], *dh;
      for (int i = 0; i < 32 * 16; i++)
         h[i] = (unsigned char)(mix32((unsigned)i * 31u) | 1u);
      CHECK_CUDA(cudaMalloc(&dh, sizeof(h)));
      CHECK_CUDA(cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice));
      test_prims<4>(h, dh, "__pipeline_memcpy_async 4 bytes");
      test_prims<8>(h, dh, "__pipeline_memcpy_async 8 bytes");
      test_prims<16>(h, dh, "__pipeline_memcpy_async 16 bytes");
      cudaFree(dh);
   }
   cudaFree(da);
   cudaFree(db2);
   cudaFree(dout);
   cudaFree(dmid);
   return check_end();
}
