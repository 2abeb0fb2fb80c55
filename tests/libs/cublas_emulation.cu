/*
 * cublas_emulation.cu — cuBLAS 13's emulation settings on a handle:
 * cublas{Set,Get}EmulationStrategy, EmulationSpecialValuesSupport,
 * FixedPointEmulationMantissaControl, FixedPointEmulationMaxMantissaBitCount,
 * FixedPointEmulationMantissaBitOffset, FixedPointEmulationMantissaBitCountPointer:
 * the defaults of a new handle, every valid value set and read back, a
 * second handle unaffected, values that are no enum member and a negative
 * bit count refused (CUBLAS_STATUS_INVALID_VALUE, the value kept), NULL
 * outputs refused; and an SGEMM/DGEMM under the eager strategy and fixed
 * mantissa control still exact on small integers.
 *
 * Expected values and statuses: NVIDIA's documentation and headers only
 * (cublas_api.h, library_types.h; the cuBLAS and cuSOLVER documentation of
 * these settings: max bit count 0 = the library's default, offset 0,
 * control DYNAMIC, special values DEFAULT 0xFFFF); not yet run on an H200:
 * a status check that fails prints the status it got.
 */
#include <cublas_v2.h>
#include "../cuda/check.h"

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

int main()
{
   check_begin("cublas_emulation");
   cublasHandle_t h, h2;
   CHECK_ST(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasCreate(&h2), CUBLAS_STATUS_SUCCESS);

   cublasEmulationStrategy_t s = (cublasEmulationStrategy_t)77;
   cudaEmulationSpecialValuesSupport sv = (cudaEmulationSpecialValuesSupport)77;
   cudaEmulationMantissaControl mc = (cudaEmulationMantissaControl)77;
   int bits = 77, off = 77, *ptr = &bits;
   /* defaults */
   CHECK_ST(cublasGetEmulationStrategy(h, &s), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(s, CUBLAS_EMULATION_STRATEGY_DEFAULT);
   CHECK_ST(cublasGetEmulationSpecialValuesSupport(h, &sv), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(sv, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT);
   CHECK_ST(cublasGetFixedPointEmulationMantissaControl(h, &mc), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(mc, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC);
   CHECK_ST(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(bits, 0);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitOffset(h, &off), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(off, 0);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &ptr), CUBLAS_STATUS_SUCCESS);
   CHECK(ptr == NULL);

   /* set and read back */
   for (int v = 0; v <= 2; v++) {
      CHECK_ST(cublasSetEmulationStrategy(h, (cublasEmulationStrategy_t)v), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasGetEmulationStrategy(h, &s), CUBLAS_STATUS_SUCCESS);
      CHECK_INT(s, v);
   }
   static const int masks[] = { 0, 1, 2, 3, 0xFFFF };
   for (int m : masks) {
      CHECK_ST(cublasSetEmulationSpecialValuesSupport(h, (cudaEmulationSpecialValuesSupport)m), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasGetEmulationSpecialValuesSupport(h, &sv), CUBLAS_STATUS_SUCCESS);
      CHECK_INT(sv, m);
   }
   for (int v = 1; v >= 0; v--) {
      CHECK_ST(cublasSetFixedPointEmulationMantissaControl(h, (cudaEmulationMantissaControl)v), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasGetFixedPointEmulationMantissaControl(h, &mc), CUBLAS_STATUS_SUCCESS);
      CHECK_INT(mc, v);
   }
   static const int counts[] = { 40, 79, 1, 0 };
   for (int c : counts) {
      CHECK_ST(cublasSetFixedPointEmulationMaxMantissaBitCount(h, c), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits), CUBLAS_STATUS_SUCCESS);
      CHECK_INT(bits, c);
   }
   static const int offsets[] = { -8, -16, 4, 0 };
   for (int o : offsets) {
      CHECK_ST(cublasSetFixedPointEmulationMantissaBitOffset(h, o), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasGetFixedPointEmulationMantissaBitOffset(h, &off), CUBLAS_STATUS_SUCCESS);
      CHECK_INT(off, o);
   }
   int *dcount = NULL;
   CHECK_CUDA(cudaMalloc(&dcount, sizeof(int)));
   CHECK_ST(cublasSetFixedPointEmulationMantissaBitCountPointer(h, dcount), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &ptr), CUBLAS_STATUS_SUCCESS);
   CHECK(ptr == dcount);
   CHECK_ST(cublasSetFixedPointEmulationMantissaBitCountPointer(h, NULL), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &ptr), CUBLAS_STATUS_SUCCESS);
   CHECK(ptr == NULL);

   /* invalid values refused, the setting kept */
   CHECK_ST(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetEmulationStrategy(h, (cublasEmulationStrategy_t)3), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSetEmulationStrategy(h, (cublasEmulationStrategy_t)-1), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetEmulationStrategy(h, &s), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(s, CUBLAS_EMULATION_STRATEGY_EAGER);
   CHECK_ST(cublasSetFixedPointEmulationMantissaControl(h, (cudaEmulationMantissaControl)2), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMantissaControl(h, &mc), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(mc, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC);
   CHECK_ST(cublasSetFixedPointEmulationMaxMantissaBitCount(h, -1), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(bits, 0);
   /* NULL outputs */
   CHECK_ST(cublasGetEmulationStrategy(h, (cublasEmulationStrategy_t *)NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetEmulationSpecialValuesSupport(h, NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMantissaControl(h, NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMaxMantissaBitCount(h, NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitOffset(h, NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitCountPointer(h, NULL), CUBLAS_STATUS_INVALID_VALUE);

   /* the other handle keeps its defaults */
   CHECK_ST(cublasGetEmulationStrategy(h2, &s), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(s, CUBLAS_EMULATION_STRATEGY_DEFAULT);
   CHECK_ST(cublasGetFixedPointEmulationMantissaBitOffset(h2, &off), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(off, 0);

   /* computation under the eager strategy, fixed mantissa bits: small
    * integers, exact in any of these arithmetics */
   CHECK_ST(cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetFixedPointEmulationMaxMantissaBitCount(h, 40), CUBLAS_STATUS_SUCCESS);
   const int n = 8;
   double hA[n * n], hB[n * n], hC[n * n];
   float fA[n * n], fB[n * n], fC[n * n];
   for (int i = 0; i < n * n; i++) {
      hA[i] = fA[i] = (float)(i % 7 - 3);
      hB[i] = fB[i] = (float)(i % 5 - 2);
   }
   double *dA, *dB, *dC;
   float *sA, *sB, *sC;
   CHECK_CUDA(cudaMalloc(&dA, sizeof(hA)));
   CHECK_CUDA(cudaMalloc(&dB, sizeof(hB)));
   CHECK_CUDA(cudaMalloc(&dC, sizeof(hC)));
   CHECK_CUDA(cudaMalloc(&sA, sizeof(fA)));
   CHECK_CUDA(cudaMalloc(&sB, sizeof(fB)));
   CHECK_CUDA(cudaMalloc(&sC, sizeof(fC)));
   CHECK_CUDA(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(sA, fA, sizeof(fA), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(sB, fB, sizeof(fB), cudaMemcpyHostToDevice));
   double one = 1, zero = 0;
   float fone = 1, fzero = 0;
   CHECK_ST(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &fone, sA, n, sB, n, &fzero, sC, n), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(hC, dC, sizeof(hC), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(fC, sC, sizeof(fC), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
         double r = 0;
         for (int l = 0; l < n; l++)
            r += hA[i + l * n] * hB[l + j * n];
         bad += hC[i + j * n] != r || fC[i + j * n] != (float)r;
      }
   CHECK_INT(bad, 0);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(sA);
   cudaFree(sB);
   cudaFree(sC);
   cudaFree(dcount);
   CHECK_ST(cublasDestroy(h2), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
