// nvcc-flags: -arch=sm_80
/*
 * mma.cu — a GEMM on the tensor cores (mma.sync.m16n8k16, f16 in, f32
 * accumulate) as a ratio to the same GEMM in plain FMA code.
 *
 * Both kernels give each warp one 16x8 tile of C = A * B (A row-major,
 * B column-major, f16; 256 x 256 x 256) and each lane the same four
 * elements of it (rows g, g + 8, columns 2t, 2t + 1 of the tile: the mma
 * fragment's); the mma kernel loads its fragments from global memory and
 * issues one mma.sync per 16 of K, the FMA kernel runs fmaf over K.
 * Metal has no tensor-core rounding: metalcuda runs mma.sync as SIMD-group
 * shuffles of the fragments and the measured rounding in integer
 * arithmetic (src/compiler/msl/prelude/mma.metal), so this is its price.
 * Inputs are small integers: both kernels and the host give the same exact
 * result, which is checked.  Per repetition (5, after a warm-up) the two
 * kernels run alternately (launch + synchronise); ratio = median mma time
 * / median FMA time.
 */
#include "bench.h"

#include <cuda_fp16.h>

#define DIM 256

__global__ void gemm_mma(const __half *A, const __half *B, float *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
   int tr = (warp / (DIM / 8)) * 16, tc = (warp % (DIM / 8)) * 8, g = lane / 4, t = lane % 4;
   const unsigned *a32 = (const unsigned *)A, *b32 = (const unsigned *)B;
   float d[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
   for (int k = 0; k < DIM; k += 16) {
      unsigned a0 = a32[((tr + g) * DIM + k) / 2 + t], a1 = a32[((tr + g + 8) * DIM + k) / 2 + t];
      unsigned a2 = a32[((tr + g) * DIM + k + 8) / 2 + t], a3 = a32[((tr + g + 8) * DIM + k + 8) / 2 + t];
      unsigned b0 = b32[((tc + g) * DIM + k) / 2 + t], b1 = b32[((tc + g) * DIM + k + 8) / 2 + t];
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                   "{%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
   }
   C[(tr + g) * DIM + tc + 2 * t] = d[0];
   C[(tr + g) * DIM + tc + 2 * t + 1] = d[1];
   C[(tr + g + 8) * DIM + tc + 2 * t] = d[2];
   C[(tr + g + 8) * DIM + tc + 2 * t + 1] = d[3];
}

__global__ void gemm_fma(const __half *A, const __half *B, float *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
   int tr = (warp / (DIM / 8)) * 16, tc = (warp % (DIM / 8)) * 8, g = lane / 4, t = lane % 4;
   float d[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
   for (int k = 0; k < DIM; k++) {
      float a0 = __half2float(A[(tr + g) * DIM + k]), a1 = __half2float(A[(tr + g + 8) * DIM + k]);
      float b0 = __half2float(B[(tc + 2 * t) * DIM + k]), b1 = __half2float(B[(tc + 2 * t + 1) * DIM + k]);
      d[0] = fmaf(a0, b0, d[0]);
      d[1] = fmaf(a0, b1, d[1]);
      d[2] = fmaf(a1, b0, d[2]);
      d[3] = fmaf(a1, b1, d[3]);
   }
   C[(tr + g) * DIM + tc + 2 * t] = d[0];
   C[(tr + g) * DIM + tc + 2 * t + 1] = d[1];
   C[(tr + g + 8) * DIM + tc + 2 * t] = d[2];
   C[(tr + g + 8) * DIM + tc + 2 * t + 1] = d[3];
}

static double run(bool mma, const __half *A, const __half *B, float *C)
{
   const int warps = (DIM / 16) * (DIM / 8), threads = 128;
   double t0 = now_s();
   if (mma)
      gemm_mma<<<warps * 32 / threads, threads>>>(A, B, C);
   else
      gemm_fma<<<warps * 32 / threads, threads>>>(A, B, C);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(void)
{
   const int reps = 5, n = DIM * DIM;
   print_device();
   __half *hA = (__half *)malloc(n * sizeof(__half)), *hB = (__half *)malloc(n * sizeof(__half));
   float *want = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
   for (int i = 0; i < n; i++) {
      hA[i] = __float2half((float)((i * 7 + 3) % 9) - 4.0f);
      hB[i] = __float2half((float)((i * 5 + 1) % 7) - 3.0f);   /* column-major: B(k, c) at c * DIM + k */
   }
   for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
         float s = 0.0f;   /* exact: |s| < 2^24 */
         for (int k = 0; k < DIM; k++)
            s += __half2float(hA[r * DIM + k]) * __half2float(hB[c * DIM + k]);
         want[r * DIM + c] = s;
      }
   __half *dA, *dB;
   float *dC;
   BENCH_CHECK(cudaMalloc(&dA, n * sizeof(__half)));
   BENCH_CHECK(cudaMalloc(&dB, n * sizeof(__half)));
   BENCH_CHECK(cudaMalloc(&dC, n * sizeof(float)));
   BENCH_CHECK(cudaMemcpy(dA, hA, n * sizeof(__half), cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dB, hB, n * sizeof(__half), cudaMemcpyHostToDevice));
   double tm[reps], tf[reps];
   for (int pass = 0; pass < 2; pass++) {
      bool mma = pass == 0;
      run(mma, dA, dB, dC);   /* warm-up: translation and compilation */
      BENCH_CHECK(cudaMemcpy(got, dC, n * sizeof(float), cudaMemcpyDeviceToHost));
      if (memcmp(got, want, n * sizeof(float)) != 0) {
         fprintf(stderr, "mma.cu: the %s GEMM differs from the host's\n", mma ? "mma" : "FMA");
         return 1;
      }
   }
   for (int r = 0; r < reps; r++) {
      tm[r] = run(true, dA, dB, dC);
      tf[r] = run(false, dA, dB, dC);
   }
   double mm = median(tm, reps), mf = median(tf, reps), flop = 2.0 * DIM * DIM * DIM;
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.3g GFLOP/s mma", flop / mm * 1e-9);
   snprintf(ref, sizeof(ref), "%.3g GFLOP/s FMA", flop / mf * 1e-9);
   row("GEMM 256^3: mma.sync m16n8k16 / plain fmaf", v, ref, mm / mf,
       "mma time / FMA time: the price of tensor-core rounding without tensor cores. Lower is better");
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   free(hA);
   free(hB);
   free(want);
   free(got);
   return 0;
}
