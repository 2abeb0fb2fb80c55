/*
 * cufft_xt.cu — the cufftXt functions of one GPU that programs use for
 * ordinary transforms (the CUDA samples' simpleCUFFT makes a plan with
 * cufftXtMakePlanMany): cufftXtMakePlanMany and cufftXtGetSizeMany with
 * the single and double data types (C2C, R2C, C2R, Z2Z), executed by
 * cufftXtExec and by the ordinary cufftExec* on the same plans.
 *
 * Legacy callbacks (cufftXtSetCallback, ClearCallback, SetCallbackSharedSize)
 * with a device function's address: the statuses NVIDIA's shared libcufft
 * gives on an H200 (they need its static library).
 *
 * Expected values: a shifted impulse's spectrum from cos/sin in double
 * (fft_oracle.h); a real impulse's R2C spectrum and C2R's n-fold impulse
 * likewise.
 */
#include <cufft.h>
#include <cufftXt.h>
#include "../cuda/check.h"
#include "fft_oracle.h"

#define CHECK_FFT(call, want) CHECK_INT((int)(call), (int)(want))

__device__ cufftComplex load_as_is(void *in, size_t offset, void *info, void *shared)
{
   return ((cufftComplex *)in)[offset];
}
__device__ cufftCallbackLoadC load_as_is_ptr = load_as_is;

/* NVIDIA's shared library (CUDA 13.0, H200): CUFFT_NOT_IMPLEMENTED before
 * and after planning, CUFFT_INVALID_PLAN for the shared size */
static void legacy_callbacks(void)
{
   cufftHandle p, q;
   size_t ws = 0;
   cufftCallbackLoadC h = NULL;
   CHECK_CUDA(cudaMemcpyFromSymbol(&h, load_as_is_ptr, sizeof(h)));
   CHECK_INT(h != NULL, 1);
   CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
   CHECK_FFT(cufftMakePlan1d(p, 64, CUFFT_C2C, 1, &ws), CUFFT_SUCCESS);
   CHECK_FFT(cufftXtSetCallback(p, (void **)&h, CUFFT_CB_LD_COMPLEX, NULL), CUFFT_NOT_IMPLEMENTED);
   CHECK_FFT(cufftXtClearCallback(p, CUFFT_CB_LD_COMPLEX), CUFFT_NOT_IMPLEMENTED);
   CHECK_FFT(cufftXtSetCallbackSharedSize(p, CUFFT_CB_LD_COMPLEX, 128), CUFFT_INVALID_PLAN);
   CHECK_FFT(cufftCreate(&q), CUFFT_SUCCESS);
   CHECK_FFT(cufftXtSetCallback(q, (void **)&h, CUFFT_CB_LD_COMPLEX, NULL), CUFFT_NOT_IMPLEMENTED);
   CHECK_FFT(cufftDestroy(q), CUFFT_SUCCESS);
   CHECK_FFT(cufftDestroy(p), CUFFT_SUCCESS);
}

int main()
{
   check_begin("cufft_xt");

   /* C2C 1000 x 3 through cufftXtMakePlanMany, cufftXtExec and cufftExecC2C */
   {
      cufftHandle p;
      long long n = 1000;
      size_t ws = 0, ws2 = 0;
      CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
      CHECK_FFT(cufftXtGetSizeMany(p, 1, &n, NULL, 1, 1000, CUDA_C_32F, NULL, 1, 1000, CUDA_C_32F, 3, &ws,
                                   CUDA_C_32F),
                CUFFT_SUCCESS);
      CHECK_FFT(cufftXtMakePlanMany(p, 1, &n, NULL, 1, 1000, CUDA_C_32F, NULL, 1, 1000, CUDA_C_32F, 3, &ws2,
                                    CUDA_C_32F),
                CUFFT_SUCCESS);
      cufftComplex *d = shifted_input(1000, 3);
      CHECK_FFT(cufftXtExec(p, d, d, CUFFT_FORWARD), CUFFT_SUCCESS);
      check_shifted(d, 1000, 3, -1, "cufftXtExec C2C 1000 x 3 forward");
      cudaFree(d);
      d = shifted_input(1000, 3);
      CHECK_FFT(cufftExecC2C(p, d, d, CUFFT_INVERSE), CUFFT_SUCCESS);
      check_shifted(d, 1000, 3, 1, "cufftExecC2C on an Xt plan, inverse");
      cudaFree(d);
      CHECK_FFT(cufftDestroy(p), CUFFT_SUCCESS);
   }

   /* R2C 64 x 2 (R_32F -> C_32F): row b an impulse at b, X[k] = e^{-2 pi i b k/64}, k <= 32;
    * C2R back (C_32F -> R_32F): 64 times the impulse */
   {
      const int n = 64, nc = n / 2 + 1, batch = 2;
      long long nn = n;
      cufftHandle f, b;
      size_t ws;
      CHECK_FFT(cufftCreate(&f), CUFFT_SUCCESS);
      CHECK_FFT(cufftCreate(&b), CUFFT_SUCCESS);
      CHECK_FFT(cufftXtMakePlanMany(f, 1, &nn, NULL, 1, n, CUDA_R_32F, NULL, 1, nc, CUDA_C_32F, batch, &ws,
                                    CUDA_C_32F),
                CUFFT_SUCCESS);
      CHECK_FFT(cufftXtMakePlanMany(b, 1, &nn, NULL, 1, nc, CUDA_C_32F, NULL, 1, n, CUDA_R_32F, batch, &ws,
                                    CUDA_C_32F),
                CUFFT_SUCCESS);
      std::vector<float> x(n * batch, 0.f);
      for (int r = 0; r < batch; r++)
         x[r * n + r] = 1.f;
      float *dx, *dy;
      cufftComplex *dz;
      CHECK_CUDA(cudaMalloc(&dx, sizeof(float) * n * batch));
      CHECK_CUDA(cudaMalloc(&dy, sizeof(float) * n * batch));
      CHECK_CUDA(cudaMalloc(&dz, sizeof(cufftComplex) * nc * batch));
      CHECK_CUDA(cudaMemcpy(dx, x.data(), sizeof(float) * x.size(), cudaMemcpyHostToDevice));
      CHECK_FFT(cufftXtExec(f, dx, dz, CUFFT_FORWARD), CUFFT_SUCCESS);
      std::vector<cufftComplex> z(nc * batch);
      CHECK_CUDA(cudaMemcpy(z.data(), dz, sizeof(cufftComplex) * z.size(), cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int r = 0; r < batch; r++)
         for (int k = 0; k < nc; k++) {
            double a = 2 * M_PI * (double)(r * k % n) / n;
            double er = z[r * nc + k].x - cos(a), ei = z[r * nc + k].y + sin(a);
            worst = fmax(worst, sqrt(er * er + ei * ei));
         }
      if (!(worst <= 8 * 6 * 1.1920928955078125e-07))
         printf("  Xt R2C 64 x 2: worst error %.3g\n", worst);
      CHECK(worst <= 8 * 6 * 1.1920928955078125e-07);
      CHECK_FFT(cufftXtExec(b, dz, dy, CUFFT_INVERSE), CUFFT_SUCCESS);
      std::vector<float> y(n * batch);
      CHECK_CUDA(cudaMemcpy(y.data(), dy, sizeof(float) * y.size(), cudaMemcpyDeviceToHost));
      worst = 0;
      for (int i = 0; i < n * batch; i++)
         worst = fmax(worst, fabs(y[i] - n * x[i]));
      if (!(worst <= n * 8 * 6 * 1.1920928955078125e-07))
         printf("  Xt C2R 64 x 2: worst error %.3g\n", worst);
      CHECK(worst <= n * 8 * 6 * 1.1920928955078125e-07);
      CHECK_FFT(cufftDestroy(f), CUFFT_SUCCESS);
      CHECK_FFT(cufftDestroy(b), CUFFT_SUCCESS);
      cudaFree(dx);
      cudaFree(dy);
      cudaFree(dz);
   }

   /* Z2Z 12 x 8 (2-D, C_64F): an impulse at (1, 2), X = e^{-2 pi i (k0/12 + 2 k1/8)} */
   {
      cufftHandle p;
      long long nn[2] = { 12, 8 };
      size_t ws;
      CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
      CHECK_FFT(cufftXtMakePlanMany(p, 2, nn, NULL, 1, 96, CUDA_C_64F, NULL, 1, 96, CUDA_C_64F, 1, &ws, CUDA_C_64F),
                CUFFT_SUCCESS);
      std::vector<cufftDoubleComplex> h(96);
      for (auto &v : h)
         v.x = v.y = 0;
      h[1 * 8 + 2].x = 1;
      cufftDoubleComplex *d;
      CHECK_CUDA(cudaMalloc(&d, sizeof(cufftDoubleComplex) * 96));
      CHECK_CUDA(cudaMemcpy(d, h.data(), sizeof(cufftDoubleComplex) * 96, cudaMemcpyHostToDevice));
      CHECK_FFT(cufftXtExec(p, d, d, CUFFT_FORWARD), CUFFT_SUCCESS);
      CHECK_CUDA(cudaMemcpy(h.data(), d, sizeof(cufftDoubleComplex) * 96, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int k0 = 0; k0 < 12; k0++)
         for (int k1 = 0; k1 < 8; k1++) {
            double a = 2 * M_PI * ((double)(k0 % 12) / 12 + (double)(2 * k1 % 8) / 8);
            double er = h[k0 * 8 + k1].x - cos(a), ei = h[k0 * 8 + k1].y + sin(a);
            worst = fmax(worst, sqrt(er * er + ei * ei));
         }
      if (!(worst <= 1e-14))
         printf("  Xt Z2Z 12 x 8: worst error %.3g\n", worst);
      CHECK(worst <= 1e-14);
      CHECK_FFT(cufftDestroy(p), CUFFT_SUCCESS);
      cudaFree(d);
   }
   CHECK_CUDA(cudaDeviceSynchronize());
   legacy_callbacks();
   return check_end();
}
