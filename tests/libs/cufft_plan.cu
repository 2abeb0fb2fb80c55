/*
 * cufft_plan.cu — cuFFT plans and helpers through the library a program
 * links: versions and properties, create/destroy, the cufftPlan and
 * cufftMakePlan families, estimates and work sizes, a work area the
 * program provides (auto-allocation off), streams, several plans alive at
 * once, and the results of bad arguments.
 *
 * Expected values: a shifted impulse's spectrum, e^{-+2 pi i s k/n}
 * computed on the host in double; statuses: an H200's (README.md).
 */
#include <cufft.h>
#include "../cuda/check.h"
#include "fft_oracle.h"

#define CHECK_FFT(call, want) CHECK_INT((int)(call), (int)(want))

int main()
{
   check_begin("cufft_plan");

   /* versions */
   int v = -1, major = -1, minor = -1, patch = -1;
   CHECK_FFT(cufftGetVersion(&v), CUFFT_SUCCESS);
   CHECK_FFT(cufftGetProperty(MAJOR_VERSION, &major), CUFFT_SUCCESS);
   CHECK_FFT(cufftGetProperty(MINOR_VERSION, &minor), CUFFT_SUCCESS);
   CHECK_FFT(cufftGetProperty(PATCH_LEVEL, &patch), CUFFT_SUCCESS);
   printf("cuFFT version %d (%d.%d.%d)\n", v, major, minor, patch);
   CHECK_INT(major, CUFFT_VER_MAJOR);
   CHECK_INT(v, CUFFT_VERSION);
   CHECK(v / 1000 == major);

   /* create, make, destroy */
   cufftHandle p = -1, q = -1;
   CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
   CHECK_FFT(cufftCreate(&q), CUFFT_SUCCESS);
   CHECK(p != q);
   size_t ws = 12345;
   CHECK_FFT(cufftMakePlan1d(p, 64, CUFFT_C2C, 4, &ws), CUFFT_SUCCESS);
   size_t got = 999;
   CHECK_FFT(cufftGetSize(p, &got), CUFFT_SUCCESS);
   CHECK(got == ws);
   CHECK_FFT(cufftMakePlan2d(q, 6, 10, CUFFT_R2C, &ws), CUFFT_SUCCESS);
   CHECK_FFT(cufftDestroy(q), CUFFT_SUCCESS);
   CHECK_FFT(cufftDestroy(q), CUFFT_INVALID_PLAN);
   {
      cufftComplex *d = shifted_input(64, 4);
      CHECK_FFT(cufftExecC2C(p, d, d, CUFFT_FORWARD), CUFFT_SUCCESS);
      check_shifted(d, 64, 4, -1, "MakePlan1d 64 x 4 forward");
      cudaFree(d);
   }
   CHECK_FFT(cufftDestroy(p), CUFFT_SUCCESS);
   CHECK_FFT(cufftDestroy(12345), CUFFT_INVALID_PLAN);

   /* every planner answers for a valid geometry */
   {
      int n3[3] = { 4, 6, 10 };
      size_t e = 0;
      CHECK_FFT(cufftEstimate1d(1000, CUFFT_C2C, 3, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftEstimate2d(30, 17, CUFFT_Z2Z, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftEstimate3d(4, 6, 10, CUFFT_R2C, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftEstimateMany(3, n3, NULL, 1, 0, NULL, 1, 0, CUFFT_C2R, 2, &e), CUFFT_SUCCESS);
      cufftHandle h;
      CHECK_FFT(cufftCreate(&h), CUFFT_SUCCESS);
      CHECK_FFT(cufftGetSize1d(h, 1000, CUFFT_C2C, 3, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftGetSize2d(h, 30, 17, CUFFT_Z2Z, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftGetSize3d(h, 4, 6, 10, CUFFT_D2Z, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftGetSizeMany(h, 3, n3, NULL, 1, 0, NULL, 1, 0, CUFFT_Z2D, 2, &e), CUFFT_SUCCESS);
      long long n64[2] = { 12, 20 }, emb[2] = { 12, 24 };
      CHECK_FFT(cufftGetSizeMany64(h, 2, n64, emb, 1, 12 * 24, emb, 1, 12 * 24, CUFFT_C2C, 3, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftMakePlanMany64(h, 2, n64, emb, 1, 12 * 24, emb, 1, 12 * 24, CUFFT_C2C, 3, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      CHECK_FFT(cufftPlan3d(&h, 4, 6, 10, CUFFT_Z2Z), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      CHECK_FFT(cufftCreate(&h), CUFFT_SUCCESS);
      CHECK_FFT(cufftMakePlan3d(h, 5, 3, 7, CUFFT_C2R, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      CHECK_FFT(cufftCreate(&h), CUFFT_SUCCESS);
      CHECK_FFT(cufftMakePlanMany(h, 3, n3, NULL, 1, 0, NULL, 1, 0, CUFFT_D2Z, 2, &e), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
   }

   /* the program's work area, auto-allocation off */
   {
      cufftHandle h;
      size_t w = 0, w2 = 0;
      const int n = 1024, batch = 3;
      CHECK_FFT(cufftCreate(&h), CUFFT_SUCCESS);
      CHECK_FFT(cufftSetAutoAllocation(h, 0), CUFFT_SUCCESS);
      CHECK_FFT(cufftMakePlan1d(h, n, CUFFT_C2C, batch, &w), CUFFT_SUCCESS);
      CHECK_FFT(cufftGetSize(h, &w2), CUFFT_SUCCESS);
      CHECK(w2 == w);
      void *area = NULL;
      CHECK_CUDA(cudaMalloc(&area, w ? w : 1));
      CHECK_FFT(cufftSetWorkArea(h, area), CUFFT_SUCCESS);
      cufftComplex *d = shifted_input(n, batch), *o = NULL;
      CHECK_CUDA(cudaMalloc(&o, sizeof(cufftComplex) * n * batch));
      CHECK_FFT(cufftExecC2C(h, d, o, CUFFT_INVERSE), CUFFT_SUCCESS);
      check_shifted(o, n, batch, 1, "own work area, 1024 x 3 inverse");
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      cudaFree(d);
      cudaFree(o);
      cudaFree(area);
   }

   /* a stream; two plans alive, each used twice */
   {
      cudaStream_t s;
      CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      cufftHandle a, b;
      CHECK_FFT(cufftPlan1d(&a, 360, CUFFT_C2C, 2), CUFFT_SUCCESS);
      CHECK_FFT(cufftPlan1d(&b, 37, CUFFT_C2C, 5), CUFFT_SUCCESS);
      CHECK_FFT(cufftSetStream(a, s), CUFFT_SUCCESS);
      CHECK_FFT(cufftSetStream(b, s), CUFFT_SUCCESS);
      for (int rep = 0; rep < 2; rep++) {
         cufftComplex *x = shifted_input(360, 2), *y = shifted_input(37, 5);
         CHECK_FFT(cufftExecC2C(a, x, x, CUFFT_FORWARD), CUFFT_SUCCESS);
         CHECK_FFT(cufftExecC2C(b, y, y, CUFFT_INVERSE), CUFFT_SUCCESS);
         CHECK_CUDA(cudaStreamSynchronize(s));
         check_shifted(x, 360, 2, -1, "stream, 360 x 2 forward");
         check_shifted(y, 37, 5, 1, "stream, 37 x 5 inverse");
         cudaFree(x);
         cudaFree(y);
      }
      CHECK_FFT(cufftDestroy(a), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(b), CUFFT_SUCCESS);
      CHECK_FFT(cufftSetStream(a, s), CUFFT_INVALID_PLAN);
      CHECK_CUDA(cudaStreamDestroy(s));
   }

   /* bad arguments */
   {
      cufftHandle h = 0;
      int n[3] = { 8, 8, 8 };
      CHECK_FFT(cufftPlan1d(&h, 0, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
      CHECK_FFT(cufftPlan1d(&h, -4, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
      CHECK_FFT(cufftPlan1d(&h, 16, CUFFT_C2C, 0), CUFFT_INVALID_SIZE);
      CHECK_FFT(cufftPlan1d(&h, 16, (cufftType)0x33, 1), CUFFT_INVALID_TYPE);
      CHECK_FFT(cufftPlan2d(&h, 0, 8, CUFFT_C2C), CUFFT_INVALID_SIZE);
      /* (cufftPlan3d with nz = 0 answers CUFFT_INTERNAL_ERROR on the H200:
       * not mirrored, not tested) */
      CHECK_FFT(cufftPlan3d(&h, 0, 8, 8, CUFFT_C2C), CUFFT_INVALID_SIZE);
      CHECK_FFT(cufftPlanMany(&h, 0, n, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1), CUFFT_INVALID_VALUE);
      CHECK_FFT(cufftPlanMany(&h, 4, n, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1), CUFFT_INVALID_VALUE);
      size_t e;
      /* a NULL workSize is refused before the handle is looked at */
      CHECK_FFT(cufftMakePlan1d(777, 16, CUFFT_C2C, 1, NULL), CUFFT_INVALID_VALUE);
      CHECK_FFT(cufftMakePlan1d(777, 16, CUFFT_C2C, 1, &e), CUFFT_INVALID_PLAN);
      CHECK_FFT(cufftCreate(&h), CUFFT_SUCCESS);
      CHECK_FFT(cufftMakePlan1d(h, 16, CUFFT_C2C, 1, NULL), CUFFT_INVALID_VALUE);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      CHECK_FFT(cufftEstimate1d(0, CUFFT_C2C, 1, &e), CUFFT_INVALID_SIZE);
      CHECK_FFT(cufftGetSize(777, &e), CUFFT_INVALID_PLAN);
      CHECK_FFT(cufftSetWorkArea(777, NULL), CUFFT_INVALID_PLAN);
      CHECK_FFT(cufftSetAutoAllocation(777, 1), CUFFT_INVALID_PLAN);
      CHECK_FFT(cufftSetStream(777, 0), CUFFT_INVALID_PLAN);
      /* exec on a destroyed plan, direction 0; the plan's own type runs
       * whichever cufftExec* is called (an H200 answers CUFFT_SUCCESS) */
      cufftComplex *d = shifted_input(16, 1);
      CHECK_FFT(cufftPlan1d(&h, 16, CUFFT_C2C, 1), CUFFT_SUCCESS);
      CHECK_FFT(cufftExecC2C(h, d, d, 0), CUFFT_INVALID_VALUE);
      CHECK_FFT(cufftExecR2C(h, (cufftReal *)d, d), CUFFT_SUCCESS);
      CHECK_FFT(cufftExecZ2Z(h, (cufftDoubleComplex *)d, (cufftDoubleComplex *)d, CUFFT_FORWARD), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(h), CUFFT_SUCCESS);
      CHECK_FFT(cufftExecC2C(h, d, d, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
      cudaFree(d);
   }
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
