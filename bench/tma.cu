// nvcc-flags: -arch=sm_90
/*
 * tma.cu — a tile loaded by a tensor copy (cp.async.bulk.tensor, TMA)
 * against the same tile loaded by the block's threads.
 *
 * A 2048 x 1024 float matrix; each of 512 blocks of 128 threads brings 4
 * tiles of 32 x 32 floats into shared memory and sums them: through TMA
 * (one thread issues the copy, the block waits on an mbarrier; the
 * 128-byte swizzle, as GEMMs use) or through coalesced loads by all 128
 * threads and a __syncthreads.  Launch + synchronise, medians of 7 after a
 * warm-up.  Reports TMA / threads: on an NVIDIA GPU TMA frees the threads;
 * metalcuda's TMA is one thread's loop over the box (prelude/tma.metal), so
 * the ratio shows what that costs.  Both sums are checked against the host.
 */
#include <cuda.h>

#include "bench.h"

enum { W = 1024, H = 2048, TILE = 32, TILES = 4, BLOCKS = H / TILE * W / TILE / TILES, THREADS = 128 };

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

__device__ float tile_sum(const float *t)
{
   float s = 0.0f;
   for (unsigned k = threadIdx.x; k < TILE * TILE; k += THREADS)
      s += t[k];
   return s;
}

__global__ void by_tma(const __grid_constant__ CUtensorMap map, float *out)
{
   __shared__ __align__(1024) float tile[TILE * TILE];
   __shared__ uint64_t bar;
   unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar), sdst = (unsigned)__cvta_generic_to_shared(tile);
   if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(sbar) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
   }
   __syncthreads();
   float s = 0.0f;
   for (unsigned k = 0; k < TILES; k++) {
      unsigned t = blockIdx.x * TILES + k;
      int x = (int)(t % (W / TILE)) * TILE, y = (int)(t / (W / TILE)) * TILE;
      if (threadIdx.x == 0) {
         asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(sbar), "r"(TILE * TILE * 4)
                      : "memory");
         asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2, %3}], [%4];" :: "r"(sdst), "l"(&map), "r"(x), "r"(y), "r"(sbar) : "memory");
      }
      asm volatile("{\n .reg .pred p;\n W%=:\n mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n @!p bra W%=;\n}"
                   :: "r"(sbar), "r"(k & 1) : "memory");
      s += tile_sum(tile);
      __syncthreads();
   }
   atomicAdd(&out[blockIdx.x], s);
}

__global__ void by_threads(const float *m, float *out)
{
   __shared__ float tile[TILE * TILE];
   float s = 0.0f;
   for (unsigned k = 0; k < TILES; k++) {
      unsigned t = blockIdx.x * TILES + k;
      unsigned x = t % (W / TILE) * TILE, y = t / (W / TILE) * TILE;
      for (unsigned e = threadIdx.x; e < TILE * TILE; e += THREADS)
         tile[e] = m[(size_t)(y + e / TILE) * W + x + e % TILE];
      __syncthreads();
      s += tile_sum(tile);
      __syncthreads();
   }
   atomicAdd(&out[blockIdx.x], s);
}

static double check(const float *dout, const float *m)
{
   static float got[BLOCKS];
   BENCH_CHECK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   double worst = 0.0;
   for (unsigned b = 0; b < BLOCKS; b++) {
      double want = 0.0;
      for (unsigned k = 0; k < TILES; k++) {
         unsigned t = b * TILES + k, x = t % (W / TILE) * TILE, y = t / (W / TILE) * TILE;
         for (unsigned e = 0; e < TILE * TILE; e++)
            want += m[(size_t)(y + e / TILE) * W + x + e % TILE];
      }
      double d = fabs(got[b] - want) / (fabs(want) + 1.0);
      worst = d > worst ? d : worst;
   }
   return worst;
}

int main(void)
{
   const int reps = 7;
   print_device();
   void *fn = NULL;
   cudaDriverEntryPointQueryResult st;
   BENCH_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &st));
   float *h = (float *)malloc(sizeof(float) * W * H), *dm, *dout;
   for (size_t k = 0; k < (size_t)W * H; k++)
      h[k] = (float)(k % 97) * 0.125f;
   BENCH_CHECK(cudaMalloc(&dm, sizeof(float) * W * H));
   BENCH_CHECK(cudaMalloc(&dout, sizeof(float) * BLOCKS));
   BENCH_CHECK(cudaMemcpy(dm, h, sizeof(float) * W * H, cudaMemcpyHostToDevice));
   CUtensorMap map;
   cuuint64_t dim[2] = { W, H }, stride[1] = { W * sizeof(float) };
   cuuint32_t box[2] = { TILE, TILE }, es[2] = { 1, 1 };
   if (((encode_fn)fn)(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dm, dim, stride, box, es,
                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
      fprintf(stderr, "tma: cuTensorMapEncodeTiled failed\n");
      return 1;
   }
   double tma[reps], thr[reps], err[2] = { 0, 0 };
   for (int r = -1; r < reps; r++) {
      BENCH_CHECK(cudaMemset(dout, 0, sizeof(float) * BLOCKS));
      double t0 = now_s();
      by_tma<<<BLOCKS, THREADS>>>(map, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t1 = now_s();
      if (r < 0)
         err[0] = check(dout, h);
      BENCH_CHECK(cudaMemset(dout, 0, sizeof(float) * BLOCKS));
      double t2 = now_s();
      by_threads<<<BLOCKS, THREADS>>>(dm, dout);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t3 = now_s();
      if (r < 0) {
         err[1] = check(dout, h);
         continue;
      }
      tma[r] = t1 - t0;
      thr[r] = t3 - t2;
   }
   if (err[0] > 1e-5 || err[1] > 1e-5) {
      fprintf(stderr, "tma: wrong sums (relative error %g by TMA, %g by threads)\n", err[0], err[1]);
      return 1;
   }
   double a = median(tma, reps), b = median(thr, reps);
   char v[64], ref[64];
   snprintf(v, sizeof(v), "TMA: %.2f ms", a * 1e3);
   snprintf(ref, sizeof(ref), "threads: %.2f ms", b * 1e3);
   row("2048 tiles of 32x32 f32: TMA / the block's loads", v, ref, a / b, "time ratio; lower is better");
   printf("NOTE %d blocks x %d tiles, 128-byte swizzle, medians of %d\n", BLOCKS, TILES, reps);
   BENCH_CHECK(cudaFree(dm));
   BENCH_CHECK(cudaFree(dout));
   free(h);
   return 0;
}
