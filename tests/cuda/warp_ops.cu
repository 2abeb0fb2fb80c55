/*
 * warp_ops.cu — warp shuffles, votes, ballots, matches and __syncwarp.
 *
 *  - __shfl_sync (index), _up, _down, _xor on full warps, with the width
 *    argument (segments of 4, 8, 16), on int, float and 64-bit values;
 *  - a warp-shuffle sum of every warp of blocks of 32, 33 (its second warp
 *    has one thread: the mask comes from __activemask) and 1024 threads;
 *  - __all_sync, __any_sync, __ballot_sync, __activemask in converged
 *    code, and __ballot_sync with a partial member mask inside a branch
 *    that exactly those lanes take;
 *  - __match_any_sync and __match_all_sync (32 and 64 bit);
 *  - __syncwarp ordering a warp-synchronous exchange in shared memory.
 * Every value is checked per lane against a host model of the warp.
 */
#include "check.h"

#define FULL 0xffffffffu

/* out[8 * i + k]: the k-th shuffle result of thread i. */
__global__ void shuffles(const int *in, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
   int v = in[i];
   out[8 * i + 0] = __shfl_sync(FULL, v, (lane * 7) % 32);
   out[8 * i + 1] = __shfl_up_sync(FULL, v, 3);
   out[8 * i + 2] = __shfl_down_sync(FULL, v, 5);
   out[8 * i + 3] = __shfl_xor_sync(FULL, v, 6);
   out[8 * i + 4] = __shfl_sync(FULL, v, 3, 16);
   out[8 * i + 5] = __shfl_up_sync(FULL, v, 1, 4);
   out[8 * i + 6] = __shfl_down_sync(FULL, v, 2, 8);
   out[8 * i + 7] = __shfl_xor_sync(FULL, v, 5, 8);
}

__global__ void shuffles_wide(const long long *in, long long *out, const float *fin, float *fout)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   out[i] = __shfl_xor_sync(FULL, in[i], 1) + __shfl_sync(FULL, in[i], 31);
   fout[i] = __shfl_down_sync(FULL, fin[i], 16);
}

/* The sum over each warp's existing threads, in every lane. */
__global__ void warp_sum(const int *in, int *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned lane = threadIdx.x % 32, m = __activemask();
   int width = __popc(m);
   int v = i < n ? in[i] : 0;
   for (int d = 16; d > 0; d /= 2) {
      int o = __shfl_down_sync(m, v, d);
      if ((int)lane + d < width)
         v += o;
   }
   out[i] = __shfl_sync(m, v, 0);
}

/* out[6 * i + k]: the votes seen by thread i. */
__global__ void votes(const unsigned *in, unsigned *out)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, v = in[i];
   out[6 * i + 0] = __all_sync(FULL, v != 0);
   out[6 * i + 1] = __all_sync(FULL, v % 5 != 0) * 2 + __any_sync(FULL, v % 97 == 0);
   out[6 * i + 2] = __ballot_sync(FULL, v & 1);
   out[6 * i + 3] = __activemask();
   out[6 * i + 4] = __any_sync(FULL, lane == 17) + 2 * __all_sync(FULL, lane < 40);
   unsigned low = 0;
   if (lane < 16)
      low = __ballot_sync(0x0000ffffu, v & 2);
   out[6 * i + 5] = low;
}

/* out[3 * i + k]: match results. */
__global__ void matches(const unsigned *in, unsigned *out, long long *wide)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
   out[3 * i + 0] = __match_any_sync(FULL, in[i] % 4);
   int pred = -1;
   out[3 * i + 1] = __match_all_sync(FULL, i / 32, &pred);
   out[3 * i + 2] = pred;
   long long x = (long long)(lane % 3) << 40;
   wide[i] = __match_any_sync(FULL, x);
}

/* Warp-synchronous exchange: write, __syncwarp, read the xor-partner. */
__global__ void syncwarp_exchange(int *out)
{
   __shared__ int s[64];
   int t = threadIdx.x, acc = 0;
   for (int r = 1; r < 32; r *= 2) {
      s[t] = t * r;
      __syncwarp();
      acc += s[t ^ r];
      __syncwarp();
   }
   out[t] = acc;
}

/* ---- host models of one warp ---- */

static int shfl_ref(const int *w, int lane, int mode, int b, int width)
{
   int base = lane / width * width, j;
   switch (mode) {
   case 0: j = base + b % width; break;
   case 1: j = lane - b < base ? lane : lane - b; break;
   case 2: j = lane + b >= base + width ? lane : lane + b; break;
   default: j = lane ^ b; if (j >= base + width) j = lane; break;
   }
   return w[j];
}

static void test_shuffles(void)
{
   const int n = 128;
   int h[n], got[8 * n], want[8 * n];
   for (int i = 0; i < n; i++)
      h[i] = (int)mix32((uint32_t)i + 5u);
   int *din, *dout;
   CHECK_CUDA(cudaMalloc(&din, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
   dout = (int *)dev_alloc_fill32(8 * n);
   shuffles<<<2, 64>>>(din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   static const int mode[8] = { 0, 1, 2, 3, 0, 1, 2, 3 }, arg[8] = { -1, 3, 5, 6, 3, 1, 2, 5 };
   static const int width[8] = { 32, 32, 32, 32, 16, 4, 8, 8 };
   for (int i = 0; i < n; i++) {
      const int *w = h + i / 32 * 32;
      int lane = i % 32;
      for (int k = 0; k < 8; k++)
         want[8 * i + k] = shfl_ref(w, lane, mode[k], k == 0 ? lane * 7 % 32 : arg[k], width[k]);
   }
   CHECK_ARRAY_I32("shuffles", got, want, 8 * n);

   long long hl[64], gl[64], wl[64];
   float hf[64], gf[64], wf[64];
   for (int i = 0; i < 64; i++) {
      hl[i] = (long long)mix32((uint32_t)i) << 20 | i;
      hf[i] = (float)i * 0.75f;
   }
   long long *dl, *dlo;
   float *df, *dfo;
   CHECK_CUDA(cudaMalloc(&dl, sizeof(hl)));
   CHECK_CUDA(cudaMalloc(&dlo, sizeof(hl)));
   CHECK_CUDA(cudaMalloc(&df, sizeof(hf)));
   CHECK_CUDA(cudaMalloc(&dfo, sizeof(hf)));
   CHECK_CUDA(cudaMemcpy(dl, hl, sizeof(hl), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice));
   shuffles_wide<<<1, 64>>>(dl, dlo, df, dfo);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(gl, dlo, sizeof(gl), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(gf, dfo, sizeof(gf), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 64; i++) {
      int b = i / 32 * 32, lane = i % 32;
      wl[i] = hl[b + (lane ^ 1)] + hl[b + 31];
      wf[i] = hf[lane + 16 < 32 ? i + 16 : i];
   }
   CHECK_ARRAY_I64("64-bit shuffles", (const int64_t *)gl, (const int64_t *)wl, 64);
   CHECK_ARRAY_F32("float shuffle", gf, wf, 64);
   cudaFree(din), cudaFree(dout), cudaFree(dl), cudaFree(dlo), cudaFree(df), cudaFree(dfo);
}

static void test_warp_sum(void)
{
   static const int blocks[] = { 32, 33, 1024 };
   const int n = 2000;
   int h[2048];
   for (int i = 0; i < 2048; i++)
      h[i] = (int)(mix32((uint32_t)i) % 1000u);
   int *din;
   CHECK_CUDA(cudaMalloc(&din, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
   for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
      int b = blocks[k], g = (n + b - 1) / b, total = g * b;
      int *dout = (int *)dev_alloc_fill32(total);
      int *got = (int *)malloc(total * 4), *want = (int *)malloc(total * 4);
      warp_sum<<<g, b>>>(din, dout, n);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, total * 4, cudaMemcpyDeviceToHost));
      for (int blk = 0; blk < g; blk++)
         for (int w0 = 0; w0 < b; w0 += 32) {
            int s = 0, end = w0 + 32 < b ? w0 + 32 : b;
            for (int t = w0; t < end; t++)
               s += blk * b + t < n ? h[blk * b + t] : 0;
            for (int t = w0; t < end; t++)
               want[blk * b + t] = s;
         }
      char what[64];
      snprintf(what, sizeof(what), "warp_sum, blocks of %d", b);
      CHECK_ARRAY_I32(what, got, want, total);
      cudaFree(dout);
      free(got), free(want);
   }
   cudaFree(din);
}

static void test_votes(void)
{
   const int n = 96;
   unsigned h[96], got[6 * 96], want[6 * 96];
   for (int i = 0; i < n; i++)
      h[i] = i < 32 ? (unsigned)i + 1 : mix32((uint32_t)i);
   h[40] = 97 * 3;
   unsigned *din, *dout;
   CHECK_CUDA(cudaMalloc(&din, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
   dout = (unsigned *)dev_alloc_fill32(6 * n);
   votes<<<1, n>>>(din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (int w = 0; w < n / 32; w++) {
      unsigned all_nz = 1, all5 = 1, any97 = 0, ballot = 0, low = 0;
      for (int l = 0; l < 32; l++) {
         unsigned v = h[w * 32 + l];
         all_nz &= v != 0;
         all5 &= v % 5 != 0;
         any97 |= v % 97 == 0;
         ballot |= (v & 1u) << l;
         if (l < 16)
            low |= ((v >> 1) & 1u) << l;
      }
      for (int l = 0; l < 32; l++) {
         unsigned *o = want + 6 * (w * 32 + l);
         o[0] = all_nz, o[1] = all5 * 2 + any97, o[2] = ballot, o[3] = FULL, o[4] = 1 + 2;
         o[5] = l < 16 ? low : 0;
      }
   }
   CHECK_ARRAY_U32("votes", got, want, 6 * n);
   cudaFree(din), cudaFree(dout);
}

static void test_matches(void)
{
   const int n = 64;
   unsigned h[64], got[3 * 64], want[3 * 64];
   long long gw[64], ww[64];
   for (int i = 0; i < n; i++)
      h[i] = mix32((uint32_t)i * 7u);
   unsigned *din, *dout;
   long long *dw;
   CHECK_CUDA(cudaMalloc(&din, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
   dout = (unsigned *)dev_alloc_fill32(3 * n);
   CHECK_CUDA(cudaMalloc(&dw, sizeof(gw)));
   matches<<<1, n>>>(din, dout, dw);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(gw, dw, sizeof(gw), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      int b = i / 32 * 32;
      unsigned same = 0, same3 = 0;
      for (int l = 0; l < 32; l++) {
         same |= (unsigned)(h[b + l] % 4 == h[i] % 4) << l;
         same3 |= (unsigned)(l % 3 == i % 32 % 3) << l;
      }
      want[3 * i] = same, want[3 * i + 1] = FULL, want[3 * i + 2] = 1;
      ww[i] = (long long)same3;
   }
   CHECK_ARRAY_U32("matches", got, want, 3 * n);
   CHECK_ARRAY_I64("match_any 64-bit", (const int64_t *)gw, (const int64_t *)ww, n);
   cudaFree(din), cudaFree(dout), cudaFree(dw);
}

static void test_syncwarp(void)
{
   int got[64], want[64];
   int *d = (int *)dev_alloc_fill32(64);
   syncwarp_exchange<<<1, 64>>>(d);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < 64; t++) {
      want[t] = 0;
      for (int r = 1; r < 32; r *= 2)
         want[t] += (t ^ r) * r;
   }
   CHECK_ARRAY_I32("syncwarp_exchange", got, want, 64);
   cudaFree(d);
}

int main(void)
{
   check_begin("warp_ops");
   test_shuffles();
   test_warp_sum();
   test_votes();
   test_matches();
   test_syncwarp();
   return check_end();
}
