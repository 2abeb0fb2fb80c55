/*
 * fft_oracle.h — the reference DFT of the cuFFT tests: FFTW (Debian's
 * libfftw3-dev, which .ci/run installs), dlopen'ed so that the programs
 * build and link without it: libfftw3l (long double) where present, else
 * libfftw3 (double).  Where FFTW is absent, a separable DFT by its
 * definition in long double stands in (O(n) per output element along each
 * dimension, twiddles e^{-2 pi i (jk mod n)/n} from an exact integer
 * index), and the program says which it used.  MC_NO_FFTW=1 forces it.
 *
 * ref_dft transforms a dense row-major complex array of rank 1-3 (the
 * last dimension fastest), unnormalised, sign -1 (forward) or +1, as
 * cuFFT defines its transforms.
 *
 * Accuracy (Higham, Accuracy and Stability of Numerical Algorithms, §24.1;
 * Schatzman 1996): an FFT of size N computed in a precision with unit
 * roundoff u has a relative RMS error of O(u log2 N); the tests accept
 * c log2(N) eps with eps the machine epsilon of the type (rms_ok).
 */
#ifndef TESTS_LIBS_FFT_ORACLE_H
#define TESTS_LIBS_FFT_ORACLE_H

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

typedef long double ld;

struct fft_oracle {
   void *lib;
   bool longd;   /* fftw3l */
   /* fftw_plan_dft(rank, n, in, out, sign, flags); execute; destroy */
   void *(*plan_dft)(int, const int *, void *, void *, int, unsigned);
   void (*execute)(void *);
   void (*destroy)(void *);
   const char *name;
};

static fft_oracle FO;

static void fft_oracle_open(void)
{
   const char *no = getenv("MC_NO_FFTW");
   bool off = no && *no == '1';
   static const char *libs[][2] = { { "libfftw3l.so.3", "fftwl_" }, { "libfftw3l.3.dylib", "fftwl_" },
                                    { "libfftw3.so.3", "fftw_" },   { "libfftw3.3.dylib", "fftw_" } };
   for (int i = 0; i < 4 && !off && !FO.lib; i++) {
      void *h = dlopen(libs[i][0], RTLD_NOW);
      if (!h)
         continue;
      char s[64];
      snprintf(s, sizeof(s), "%splan_dft", libs[i][1]);
      *(void **)&FO.plan_dft = dlsym(h, s);
      snprintf(s, sizeof(s), "%sexecute", libs[i][1]);
      *(void **)&FO.execute = dlsym(h, s);
      snprintf(s, sizeof(s), "%sdestroy_plan", libs[i][1]);
      *(void **)&FO.destroy = dlsym(h, s);
      if (FO.plan_dft && FO.execute && FO.destroy) {
         FO.lib = h;
         FO.longd = i < 2;
         FO.name = libs[i][0];
      }
   }
   printf("oracle: %s\n", FO.lib ? FO.name : "DFT by definition in long double (no FFTW here)");
}

/* The DFT by definition along one dimension of a dense array */
static void ref_dft_dim(std::vector<ld> &a, int rank, const int *n, int d, int sign)
{
   long inner = 1, outer = 1, len = n[d];
   for (int e = d + 1; e < rank; e++)
      inner *= n[e];
   for (int e = 0; e < d; e++)
      outer *= n[e];
   std::vector<ld> c(len), s(len), tr(2 * len), ti(2 * len);
   const ld pi = 3.141592653589793238462643383279502884L;
   for (long j = 0; j < len; j++) {
      c[j] = cosl(2 * pi * j / len);
      s[j] = sign * sinl(2 * pi * j / len);
   }
   for (long o = 0; o < outer; o++)
      for (long i = 0; i < inner; i++) {
         long base = o * len * inner + i;
         for (long k = 0; k < len; k++) {
            ld re = 0, im = 0;
            for (long j = 0; j < len; j++) {
               long q = (long)((long long)j * k % len);
               ld xr = a[2 * (base + j * inner)], xi = a[2 * (base + j * inner) + 1];
               re += xr * c[q] - xi * s[q];
               im += xr * s[q] + xi * c[q];
            }
            tr[2 * k] = re;
            tr[2 * k + 1] = im;
         }
         for (long k = 0; k < len; k++) {
            a[2 * (base + k * inner)] = tr[2 * k];
            a[2 * (base + k * inner) + 1] = tr[2 * k + 1];
         }
      }
}

/* out = DFT(in), dense, interleaved complex, rank 1-3 */
static void ref_dft(int rank, const int *n, int sign, const std::vector<ld> &in, std::vector<ld> &out)
{
   long total = 1;
   for (int d = 0; d < rank; d++)
      total *= n[d];
   out = in;
   if (FO.lib) {
      if (FO.longd) {
         std::vector<ld> x(in);
         void *p = FO.plan_dft(rank, n, x.data(), out.data(), sign, 1u << 6 /* FFTW_ESTIMATE */);
         memcpy(x.data(), in.data(), sizeof(ld) * 2 * total);
         FO.execute(p);
         FO.destroy(p);
      } else {
         std::vector<double> x(2 * total), y(2 * total);
         void *p = FO.plan_dft(rank, n, x.data(), y.data(), sign, 1u << 6);
         for (long i = 0; i < 2 * total; i++)
            x[i] = (double)in[i];
         FO.execute(p);
         FO.destroy(p);
         for (long i = 0; i < 2 * total; i++)
            out[i] = y[i];
      }
      return;
   }
   for (int d = 0; d < rank; d++)
      ref_dft_dim(out, rank, n, d, sign);
}

/* deterministic test data in [-1, 1) */
static unsigned fft_seed = 2463534242u;
static double frnd(void)
{
   fft_seed ^= fft_seed << 13;
   fft_seed ^= fft_seed >> 17;
   fft_seed ^= fft_seed << 5;
   return (fft_seed >> 8) / 8388608.0 - 1.0;
}

#ifdef CUFFT_FORWARD
/* Shifted impulses (cufft_plan, cufft_xt; the including program has
 * included ../cuda/check.h and cufft.h): row b of a batch is delta at
 * b mod n; check_shifted compares the spectra, e^{sign 2 pi i b k/n} from
 * cos/sin in double, within 8 log2(n) float epsilons. */
static inline void check_shifted(const cufftComplex *d, int n, int batch, int sign, const char *what)
{
   std::vector<cufftComplex> h((size_t)n * batch);
   CHECK_CUDA(cudaMemcpy(h.data(), d, sizeof(cufftComplex) * h.size(), cudaMemcpyDeviceToHost));
   double worst = 0;
   for (int b = 0; b < batch; b++)
      for (int k = 0; k < n; k++) {
         long q = (long)b * k % n;
         double a = 2 * M_PI * (double)q / n;
         double er = h[(size_t)b * n + k].x - cos(a), ei = h[(size_t)b * n + k].y - sign * sin(a);
         double e = sqrt(er * er + ei * ei);
         worst = e > worst ? e : worst;
      }
   double bound = 8 * log2((double)n) * 1.1920928955078125e-07;
   if (!(worst <= bound))
      printf("  %s: worst error %.3g > %.3g\n", what, worst, bound);
   CHECK(worst <= bound);
}

static inline cufftComplex *shifted_input(int n, int batch)
{
   std::vector<cufftComplex> h((size_t)n * batch);
   for (auto &v : h)
      v.x = v.y = 0;
   for (int b = 0; b < batch; b++)
      h[(size_t)b * n + b % n].x = 1;
   cufftComplex *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, sizeof(cufftComplex) * h.size()));
   CHECK_CUDA(cudaMemcpy(d, h.data(), sizeof(cufftComplex) * h.size(), cudaMemcpyHostToDevice));
   return d;
}
#endif

#endif
