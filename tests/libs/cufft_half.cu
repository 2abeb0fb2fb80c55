/*
 * cufft_half.cu — cuFFT's half-precision transforms through cufftXt:
 * cufftXtMakePlanMany with CUDA_C_16F (C2C forward and inverse, 1-D
 * batched and 2-D), CUDA_R_16F -> CUDA_C_16F (R2C) and back (C2R), in
 * place and out of place, an output with a stride of 2 whose gaps must
 * stay untouched; cufftXtGetSizeMany; a length that is not a power of 2
 * (cuFFT refuses it).
 *
 * Expected values: the DFT of the half inputs (converted exactly) by FFTW
 * (fft_oracle.h), the result within a relative RMS error of 2 log2(N)
 * units of half precision (2^-11: a transform computed in half precision,
 * as NVIDIA's is, and one in float rounded once to half both meet it).
 * The statuses: an H200's.
 */
#include <cuda_fp16.h>
#include <cufft.h>
#include <cufftXt.h>
#include "../cuda/check.h"
#include "fft_oracle.h"

#define CHECK_FFT(call, want) CHECK_INT((int)(call), (int)(want))

static double rms_rel(const std::vector<ld> &got, const std::vector<ld> &want)
{
   ld e = 0, s = 0;
   for (size_t i = 0; i < want.size(); i++) {
      e += (got[i] - want[i]) * (got[i] - want[i]);
      s += want[i] * want[i];
   }
   return (double)sqrtl(e / (s > 0 ? s : 1));
}

/* A C2C (or R2C / C2R) transform of RANK dims N, BATCH, half data: input
 * dense; output dense (ostride 1) or with stride 2 (1-D only). */
static void c2c_case(int rank, const int *n, int batch, int sign, bool inplace, int ostride, const char *what)
{
   long long nn[3];
   long total = 1;
   for (int d = 0; d < rank; d++) {
      nn[d] = n[d];
      total *= n[d];
   }
   std::vector<__half> in(2 * total * batch);
   std::vector<ld> x(2 * total * batch);
   for (size_t i = 0; i < in.size(); i++) {
      in[i] = __double2half(frnd());
      x[i] = (ld)__half2float(in[i]);
   }
   size_t outn = (size_t)2 * total * batch * ostride;
   __half *din = NULL, *dout = NULL;
   CHECK_CUDA(cudaMalloc(&din, (inplace ? outn : in.size()) * sizeof(__half)));
   CHECK_CUDA(cudaMemcpy(din, in.data(), in.size() * sizeof(__half), cudaMemcpyHostToDevice));
   std::vector<__half> sentinel(outn, __double2half(7.25));
   if (inplace)
      dout = din;
   else {
      CHECK_CUDA(cudaMalloc(&dout, outn * sizeof(__half)));
      CHECK_CUDA(cudaMemcpy(dout, sentinel.data(), outn * sizeof(__half), cudaMemcpyHostToDevice));
   }
   cufftHandle p;
   size_t ws = 0, ws2 = 0;
   CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
   long long *emb = ostride > 1 ? nn : NULL;
   CHECK_FFT(cufftXtGetSizeMany(p, rank, nn, emb, 1, total, CUDA_C_16F, emb, ostride, total * ostride, CUDA_C_16F,
                                batch, &ws, CUDA_C_16F),
             CUFFT_SUCCESS);
   CHECK_FFT(cufftXtMakePlanMany(p, rank, nn, emb, 1, total, CUDA_C_16F, emb, ostride, total * ostride, CUDA_C_16F,
                                 batch, &ws2, CUDA_C_16F),
             CUFFT_SUCCESS);
   CHECK_FFT(cufftXtExec(p, din, dout, sign), CUFFT_SUCCESS);
   std::vector<__half> got(outn);
   CHECK_CUDA(cudaMemcpy(got.data(), dout, outn * sizeof(__half), cudaMemcpyDeviceToHost));
   double worst = 0;
   for (int b = 0; b < batch; b++) {
      std::vector<ld> xb(x.begin() + 2 * total * b, x.begin() + 2 * total * (b + 1)), want, g(2 * total);
      ref_dft(rank, n, sign, xb, want);
      for (long i = 0; i < total; i++) {
         size_t at = (size_t)(b * total * ostride + i * ostride) * 2;
         g[2 * i] = (ld)__half2float(got[at]);
         g[2 * i + 1] = (ld)__half2float(got[at + 1]);
      }
      double e = rms_rel(g, want);
      worst = e > worst ? e : worst;
   }
   double bound = 2 * log2((double)total) * 0x1p-11;
   if (!CHECK(worst <= bound))
      printf("  %s: relative RMS error %.3g, bound %.3g\n", what, worst, bound);
   if (ostride > 1) {   /* the gaps untouched */
      long bad = 0;
      for (size_t i = 0; i < outn; i++)
         if ((i / 2) % ostride && __half2float(got[i]) != 7.25f)
            bad++;
      if (!CHECK(bad == 0))
         printf("  %s: %ld gap values changed\n", what, bad);
   }
   CHECK_FFT(cufftDestroy(p), CUFFT_SUCCESS);
   cudaFree(din);
   if (!inplace)
      cudaFree(dout);
}

/* R2C of N (batch 2) then C2R back: the spectrum against FFTW's, and
 * C2R(R2C(x)) = N x */
static void real_case(int n)
{
   const int batch = 2, nc = n / 2 + 1;
   long long nn = n;
   std::vector<__half> in(n * batch);
   std::vector<ld> x(2 * n * batch, 0);
   for (int i = 0; i < n * batch; i++) {
      in[i] = __double2half(frnd());
      x[2 * i] = (ld)__half2float(in[i]);
   }
   __half *dr, *dc;
   CHECK_CUDA(cudaMalloc(&dr, n * batch * sizeof(__half)));
   CHECK_CUDA(cudaMalloc(&dc, 2 * nc * batch * sizeof(__half)));
   CHECK_CUDA(cudaMemcpy(dr, in.data(), n * batch * sizeof(__half), cudaMemcpyHostToDevice));
   cufftHandle f, b;
   size_t ws;
   CHECK_FFT(cufftCreate(&f), CUFFT_SUCCESS);
   CHECK_FFT(cufftCreate(&b), CUFFT_SUCCESS);
   CHECK_FFT(cufftXtMakePlanMany(f, 1, &nn, NULL, 1, n, CUDA_R_16F, NULL, 1, nc, CUDA_C_16F, batch, &ws, CUDA_C_16F),
             CUFFT_SUCCESS);
   CHECK_FFT(cufftXtMakePlanMany(b, 1, &nn, NULL, 1, nc, CUDA_C_16F, NULL, 1, n, CUDA_R_16F, batch, &ws, CUDA_C_16F),
             CUFFT_SUCCESS);
   CHECK_FFT(cufftXtExec(f, dr, dc, CUFFT_FORWARD), CUFFT_SUCCESS);
   std::vector<__half> spec(2 * nc * batch);
   CHECK_CUDA(cudaMemcpy(spec.data(), dc, spec.size() * sizeof(__half), cudaMemcpyDeviceToHost));
   double worst = 0;
   for (int r = 0; r < batch; r++) {
      std::vector<ld> xb(x.begin() + 2 * n * r, x.begin() + 2 * n * (r + 1)), want, g(2 * nc), w(2 * nc);
      ref_dft(1, &n, -1, xb, want);
      for (int k = 0; k < 2 * nc; k++) {
         g[k] = (ld)__half2float(spec[2 * nc * r + k]);
         w[k] = want[k];
      }
      double e = rms_rel(g, w);
      worst = e > worst ? e : worst;
   }
   double bound = 2 * log2((double)n) * 0x1p-11;
   if (!CHECK(worst <= bound))
      printf("  R2C half %d: relative RMS error %.3g, bound %.3g\n", n, worst, bound);
   CHECK_FFT(cufftXtExec(b, dc, dr, CUFFT_INVERSE), CUFFT_SUCCESS);
   std::vector<__half> back(n * batch);
   CHECK_CUDA(cudaMemcpy(back.data(), dr, back.size() * sizeof(__half), cudaMemcpyDeviceToHost));
   std::vector<ld> g(2 * n * batch, 0), w(2 * n * batch, 0);
   for (int i = 0; i < n * batch; i++) {
      g[2 * i] = (ld)__half2float(back[i]);
      w[2 * i] = n * x[2 * i];
   }
   double e = rms_rel(g, w);
   if (!CHECK(e <= 4 * log2((double)n) * 0x1p-11))
      printf("  C2R(R2C(x)) half %d: relative RMS error %.3g\n", n, e);
   cufftDestroy(f);
   cufftDestroy(b);
   cudaFree(dr);
   cudaFree(dc);
}

int main()
{
   check_begin("cufft_half");
   fft_oracle_open();
   int n1[1] = { 256 }, n2[2] = { 32, 64 }, n3[1] = { 1024 };
   c2c_case(1, n1, 3, CUFFT_FORWARD, false, 1, "C2C half 256 x 3 forward");
   c2c_case(1, n1, 3, CUFFT_INVERSE, true, 1, "C2C half 256 x 3 inverse, in place");
   c2c_case(1, n3, 2, CUFFT_FORWARD, false, 2, "C2C half 1024 x 2, output stride 2");
   c2c_case(2, n2, 1, CUFFT_FORWARD, false, 1, "C2C half 32 x 64");
   real_case(512);
   /* a length that is not a power of 2 */
   cufftHandle p;
   long long odd = 1000;
   size_t ws;
   CHECK_FFT(cufftCreate(&p), CUFFT_SUCCESS);
   CHECK_FFT(cufftXtMakePlanMany(p, 1, &odd, NULL, 1, 1000, CUDA_C_16F, NULL, 1, 1000, CUDA_C_16F, 1, &ws, CUDA_C_16F),
             CUFFT_NOT_SUPPORTED);
   cufftDestroy(p);
   return check_end();
}
