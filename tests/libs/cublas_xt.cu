/*
 * cublas_xt.cu — cublasXt, cuBLAS's host-interface GEMM: handle, device
 * selection (device 0), block dimension and pinning mode set and read
 * back, and s/d/c/z gemm with every pair of transposes (N, T, C), sizes 1
 * to 70 x 65 x 66 and k = 0, leading dimensions larger than the matrix (the
 * padding must stay untouched), beta = 0 over a NaN-filled C, matrices in
 * host memory (malloc'ed), in device memory, and mixed; a block dimension
 * smaller than the matrices (cublasXt's tiles).
 *
 * Expected values: the product by definition in long double on the host,
 * within the standard error bound of the computation (oracle.h):
 *    |got - ref| <= 2 (k + 2) u (|alpha| (|A||B|)_ij + |beta| |C_ij|).
 * Except k = 0: NVIDIA's cublasXt left C unchanged on the H200 (BLAS would
 * scale it by beta), with host matrices; with device ones, checked too.
 * Built with nvcc against NVIDIA's headers and libcublas; runs unchanged on
 * metalcuda's libcublas (tests/libs/run.sh) and natively.
 */
#include <cublasXt.h>
#include "../cuda/check.h"
#include "xt_check.h"

#include <complex>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static cublasXtHandle_t X;

static cublasStatus_t xgemm(cublasOperation_t ta, cublasOperation_t tb, size_t m, size_t n, size_t k,
                            const float *al, const float *A, size_t lda, const float *B, size_t ldb,
                            const float *be, float *C, size_t ldc)
{
   return cublasXtSgemm(X, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t xgemm(cublasOperation_t ta, cublasOperation_t tb, size_t m, size_t n, size_t k,
                            const double *al, const double *A, size_t lda, const double *B, size_t ldb,
                            const double *be, double *C, size_t ldc)
{
   return cublasXtDgemm(X, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t xgemm(cublasOperation_t ta, cublasOperation_t tb, size_t m, size_t n, size_t k,
                            const cuComplex *al, const cuComplex *A, size_t lda, const cuComplex *B, size_t ldb,
                            const cuComplex *be, cuComplex *C, size_t ldc)
{
   return cublasXtCgemm(X, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t xgemm(cublasOperation_t ta, cublasOperation_t tb, size_t m, size_t n, size_t k,
                            const cuDoubleComplex *al, const cuDoubleComplex *A, size_t lda,
                            const cuDoubleComplex *B, size_t ldb, const cuDoubleComplex *be, cuDoubleComplex *C,
                            size_t ldc)
{
   return cublasXtZgemm(X, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}


/* One product; WHERE's bits put A, B, C in device memory (1, 2, 4). */
template <class T>
static void one(const char *name, cublasOperation_t ta, cublasOperation_t tb, size_t m, size_t n, size_t k,
                int where, bool beta0)
{
   size_t arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m;
   size_t brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k;
   size_t lda = arows + 3, ldb = brows + 1, ldc = m + 2;
   std::vector<T> A(lda * (acols ? acols : 1)), B(ldb * (bcols ? bcols : 1)), C(ldc * n), C0;
   for (auto &x : A)
      x = ty<T>::make(rnd(), rnd());
   for (auto &x : B)
      x = ty<T>::make(rnd(), rnd());
   for (auto &x : C)
      x = ty<T>::make(beta0 ? NAN : rnd(), beta0 ? NAN : rnd());
   C0 = C;
   T alpha = ty<T>::make(0.75, -0.5), beta = ty<T>::make(beta0 ? 0 : -1.25, beta0 ? 0 : 0.25);
   T *dA = place(A, where & 1), *dB = place(B, where & 2), *dC = place(C, where & 4);
   bool ok = CHECK_ST(xgemm(ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc), CUBLAS_STATUS_SUCCESS);
   if (where & 1)
      CHECK_CUDA(cudaFree(dA));
   if (where & 2)
      CHECK_CUDA(cudaFree(dB));
   fetch(C, dC, where & 4);
   if (!ok)
      return;
   cl al = ty<T>::get(alpha), be = ty<T>::get(beta);
   long bad = 0;
   char first[200] = "";
   for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < ldc; i++) {
         cl got = ty<T>::get(C[i + j * ldc]);
         if (i >= m) {   /* padding rows: untouched, bit for bit */
            if (memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)) && !bad++)
               snprintf(first, sizeof(first), "padding (%zu,%zu) changed", i, j);
            continue;
         }
         cl s = 0;
         long double mag = 0;
         for (size_t p = 0; p < k; p++) {
            cl a = op_at(A, lda, ta, i, p), b = op_at(B, ldb, tb, p, j);
            s += a * b;
            mag += mag_of(a) * mag_of(b);
         }
         cl ref = al * s;
         long double bound = mag_of(al) * mag;
         if (k == 0) {   /* NVIDIA's cublasXt leaves C alone (H200), unlike BLAS */
            ref = ty<T>::get(C0[i + j * ldc]);
            bound = 0;
         } else if (!beta0) {
            ref += be * ty<T>::get(C0[i + j * ldc]);
            bound += mag_of(be) * mag_of(ty<T>::get(C0[i + j * ldc]));
         }
         bound *= 2 * (k + 2) * ty<T>::u();
         long double err = mag_of(got - ref);
         if (!(err <= bound) && !bad++)
            snprintf(first, sizeof(first), "C(%zu,%zu) = (%.9Lg, %.9Lg), want (%.9Lg, %.9Lg), bound %.3Lg", i, j,
                     got.real(), got.imag(), ref.real(), ref.imag(), bound);
      }
   if (!CHECK(bad == 0))
      printf("  %s %c%c %zux%zux%zu where=%d beta0=%d: %ld bad, first %s\n", name, "NTC"[ta], "NTC"[tb], m, n, k,
             where, (int)beta0, bad, first);
}

template <class T> static void sweep(const char *name)
{
   static const size_t sizes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 33, 17, 40 }, { 70, 65, 66 }, { 9, 4, 0 } };
   static const cublasOperation_t ops[] = { CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C };
   for (auto &s : sizes)
      for (auto ta : ops)
         for (auto tb : ops)
            one<T>(name, ta, tb, s[0], s[1], s[2], 0, false);
   one<T>(name, CUBLAS_OP_N, CUBLAS_OP_N, 33, 17, 40, 0, true);
   one<T>(name, CUBLAS_OP_T, CUBLAS_OP_N, 33, 17, 40, 7, false);
   one<T>(name, CUBLAS_OP_N, CUBLAS_OP_C, 70, 65, 66, 5, false);
   one<T>(name, CUBLAS_OP_C, CUBLAS_OP_T, 7, 5, 3, 2, true);
   one<T>(name, CUBLAS_OP_N, CUBLAS_OP_T, 9, 4, 0, 7, false);
}

int main()
{
   check_begin("cublas_xt");
   CHECK_ST(cublasXtCreate(&X), CUBLAS_STATUS_SUCCESS);
   int dev0 = 0, boards = 0;
   CHECK_ST(cublasXtDeviceSelect(X, 1, &dev0), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtGetNumBoards(1, &dev0, &boards), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(boards, 1);
   int bd = 0;
   CHECK_ST(cublasXtSetBlockDim(X, 32), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtGetBlockDim(X, &bd), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(bd, 32);
   cublasXtPinnedMemMode_t pin = CUBLASXT_PINNING_ENABLED;
   CHECK_ST(cublasXtGetPinningMemMode(X, &pin), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(pin, CUBLASXT_PINNING_DISABLED);
   CHECK_ST(cublasXtSetPinningMemMode(X, CUBLASXT_PINNING_ENABLED), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtGetPinningMemMode(X, &pin), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(pin, CUBLASXT_PINNING_ENABLED);
   CHECK_ST(cublasXtSetPinningMemMode(X, CUBLASXT_PINNING_DISABLED), CUBLAS_STATUS_SUCCESS);
   sweep<float>("S");
   sweep<double>("D");
   sweep<cuComplex>("C");
   sweep<cuDoubleComplex>("Z");
   CHECK_ST(cublasXtDestroy(X), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
