/*
 * lt.cu — what cuBLASLt and the legacy API cost over libcublas's own GEMM,
 * in one run (bench/cublas.sh): SGEMM N^3 (default 512) by cublasSgemm
 * (the reference), by cublasLtMatmul on column-major and on row-major
 * layouts, by cublasLtMatmul with the GELU_BIAS epilogue (one more pass
 * over D), and by the legacy cublasSgemm (cublas.h's names, here reached
 * through dlsym since a program includes either cublas.h or cublas_v2.h).
 * Each the median of 5 after a warm-up, the call and a synchronisation,
 * the reference measured again just before each case;
 * the results are checked against the reference (relative 1e-5) so that a
 * fast wrong answer cannot win.
 */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <dlfcn.h>
#include <math.h>
#include <vector>
#include "../bench.h"

typedef void (*legacy_sgemm_fn)(char, char, int, int, int, float, const float *, int, const float *, int, float,
                                float *, int);

static cublasLtMatrixLayout_t layout(int n, bool row_major)
{
   cublasLtMatrixLayout_t l;
   cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, n, n, n);
   int32_t order = row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
   cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order));
   return l;
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 512;
   print_device();
   size_t nn = (size_t)n * n;
   std::vector<float> A(nn), B(nn), ref(nn), got(nn), bias(n, 0.0f);
   for (size_t i = 0; i < nn; i++) {
      A[i] = (float)((i * 7) % 13) / 13 - 0.5f;
      B[i] = (float)((i * 5) % 11) / 11 - 0.5f;
   }
   float *dA, *dB, *dC, *dbias;
   BENCH_CHECK(cudaMalloc(&dA, nn * 4));
   BENCH_CHECK(cudaMalloc(&dB, nn * 4));
   BENCH_CHECK(cudaMalloc(&dC, nn * 4));
   BENCH_CHECK(cudaMalloc(&dbias, n * 4));
   BENCH_CHECK(cudaMemcpy(dA, A.data(), nn * 4, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dB, B.data(), nn * 4, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemset(dbias, 0, n * 4));
   cublasHandle_t h;
   cublasLtHandle_t lt;
   if (cublasCreate(&h) || cublasLtCreate(&lt)) {
      printf("NOTE cuBLAS or cuBLASLt would not start: nothing measured\n");
      return 1;
   }
   float one = 1, zero = 0;
   /* the reference, measured again before each case (pairs, so that a
    * drift of the machine's speed does not become a ratio) */
   auto reference = [&] {
      return timed_median(5, [&] {
         cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n);
         cudaDeviceSynchronize();
      });
   };
   double t_ref = reference();
   BENCH_CHECK(cudaMemcpy(ref.data(), dC, nn * 4, cudaMemcpyDeviceToHost));
   char value[64], refs[64];

   cublasLtMatmulDesc_t desc, gdesc;
   cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
   cublasLtMatmulDescCreate(&gdesc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
   uint32_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
   cublasLtMatmulDescSetAttribute(gdesc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
   const void *bp = dbias;
   cublasLtMatmulDescSetAttribute(gdesc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof(bp));
   cublasLtMatrixLayout_t col = layout(n, false), row_l = layout(n, true);
   struct {
      const char *name;
      cublasLtMatmulDesc_t d;
      bool row_major;
   } cases[3] = { { "cublasLtMatmul SGEMM, column-major", desc, false },
                  { "cublasLtMatmul SGEMM, row-major", desc, true },
                  { "cublasLtMatmul SGEMM + GELU_BIAS", gdesc, false } };
   for (int c = 0; c < 3; c++) {
      cublasLtMatrixLayout_t l = cases[c].row_major ? row_l : col;
      /* row-major: the same numbers read as the transposes, so C^T = B^T A^T
       * is computed with A and B swapped, which the reference's C is */
      const float *x = cases[c].row_major ? dB : dA, *y = cases[c].row_major ? dA : dB;
      cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
      t_ref = reference();
      snprintf(refs, sizeof(refs), "%.1f ms", t_ref * 1e3);
      double t = timed_median(5, [&] {
         st = cublasLtMatmul(lt, cases[c].d, &one, x, l, y, l, &zero, dC, l, dC, l, NULL, NULL, 0, 0);
         cudaDeviceSynchronize();
      });
      BENCH_CHECK(cudaMemcpy(got.data(), dC, nn * 4, cudaMemcpyDeviceToHost));
      if (c == 2)   /* GELU of the reference, bias 0 */
         for (size_t i = 0; i < nn; i++) {
            double v = ref[i];
            double w = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
            got[i] = (float)(got[i] - w + ref[i]);
         }
      double err = maxrel(got.data(), ref.data(), nn);
      if (st != CUBLAS_STATUS_SUCCESS || err > 1e-5) {
         printf("NOTE %s: status %d, max relative difference %.3g: not counted\n", cases[c].name, (int)st, err);
         continue;
      }
      snprintf(value, sizeof(value), "%.1f ms", t * 1e3);
      row(cases[c].name, value, refs, t / t_ref, "time / cublasSgemm's (1: no cost over the GEMM it calls)");
   }
   /* the legacy API's cublasSgemm: the library's own symbol, not cublas_v2.h's macro */
   legacy_sgemm_fn legacy = (legacy_sgemm_fn)dlsym(RTLD_DEFAULT, "cublasSgemm");
   if (legacy) {
      t_ref = reference();
      snprintf(refs, sizeof(refs), "%.1f ms", t_ref * 1e3);
      double t = timed_median(5, [&] {
         legacy('N', 'N', n, n, n, 1.0f, dA, n, dB, n, 0.0f, dC, n);
         cudaDeviceSynchronize();
      });
      BENCH_CHECK(cudaMemcpy(got.data(), dC, nn * 4, cudaMemcpyDeviceToHost));
      double err = maxrel(got.data(), ref.data(), nn);
      if (err > 1e-5) {
         printf("NOTE legacy cublasSgemm: max relative difference %.3g: not counted\n", err);
      } else {
         snprintf(value, sizeof(value), "%.1f ms", t * 1e3);
         row("legacy cublasSgemm (cublas.h)", value, refs, t / t_ref, "time / cublasSgemm's");
      }
   }
   cublasLtMatrixLayoutDestroy(col);
   cublasLtMatrixLayoutDestroy(row_l);
   cublasLtMatmulDescDestroy(desc);
   cublasLtMatmulDescDestroy(gdesc);
   cublasLtDestroy(lt);
   cublasDestroy(h);
   return 0;
}
