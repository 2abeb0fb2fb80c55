/*
 * cufft_exec.cu — cuFFT transforms through the library a program links:
 * C2C/Z2Z forward and inverse, R2C/D2Z, C2R/Z2D, in place and out of
 * place, batched, rank 1, 2 and 3; lengths that are products of 2, 3, 5
 * and 7 (and 1), and lengths with larger prime factors (Bluestein's
 * algorithm in metalcuda's library); cufftPlanMany's advanced layouts
 * (strides, distances, embeddings larger than the data, whose gaps must
 * stay untouched); the exact identity that the transform of an impulse
 * at 0 is all ones (products of 2, 3, 5, 7); inverse(forward(x)) = N x.
 *
 * Expected values: FFTW (fft_oracle.h: long double where installed), else
 * the DFT by its definition in long double, from the same input; results
 * within a relative RMS error of C log2(N) eps, N the product of the
 * lengths (for a length with a prime factor over 7, the power of 2
 * >= 2n - 1 that Bluestein's algorithm transforms).
 * C2R inputs are exactly Hermitian (the elements that are their own
 * partners real, the pairs inside the stored half conjugate), as cuFFT
 * requires.
 */
#include <cufft.h>
#include "../cuda/check.h"
#include "fft_oracle.h"

#include <vector>

#define CHECK_FFT(call) CHECK_INT((int)(call), (int)CUFFT_SUCCESS)
/* the accuracy constant C of the bound C log2(N) eps */
#define RMS_C 1.0

static bool full;

struct geo {
   int rank;
   int n[3];
   int batch;
   bool inplace;
   bool adv;   /* cufftPlanMany with the embeddings below, else NULL */
   int inembed[3], istride, idist, onembed[3], ostride, odist;
};

static bool smooth(long n)
{
   for (int p : { 2, 3, 5, 7 })
      while (n % p == 0)
         n /= p;
   return n == 1;
}

static double log2N(const geo &g)
{
   double N = 1;
   for (int d = 0; d < g.rank; d++) {
      long n = g.n[d], m = 1;
      if (!smooth(n))
         while (m < 2 * n - 1)
            m *= 2;
      else
         m = n;
      N *= m;
   }
   return N < 2 ? 1 : log2(N);
}

/* positions (in elements of the side's type) of every logical element of
 * one side, batch-major, row-major inside */
static std::vector<long> positions(const geo &g, bool input, bool real, bool halfside)
{
   int r = g.rank;
   long ext[3], emb[3], stride, dist;
   for (int d = 0; d < r; d++)
      ext[d] = g.n[d];
   long nc = g.n[r - 1] / 2 + 1;
   if (halfside)
      ext[r - 1] = nc;
   if (g.adv) {
      for (int d = 0; d < r; d++)
         emb[d] = input ? g.inembed[d] : g.onembed[d];
      stride = input ? g.istride : g.ostride;
      dist = input ? g.idist : g.odist;
   } else {
      for (int d = 0; d < r; d++)
         emb[d] = ext[d];
      if (real && g.inplace)
         emb[r - 1] = 2 * nc;
      stride = 1;
      dist = 1;
      for (int d = 0; d < r; d++)
         dist *= emb[d];
   }
   long per = 1;
   for (int d = 0; d < r; d++)
      per *= ext[d];
   std::vector<long> pos((size_t)(per * g.batch));
   for (long b = 0; b < g.batch; b++)
      for (long i = 0; i < per; i++) {
         long rem = i, off = 0, st = stride;
         for (int d = r - 1; d >= 0; d--) {
            off += (rem % ext[d]) * st;
            rem /= ext[d];
            st *= emb[d];
         }
         pos[(size_t)(b * per + i)] = b * dist + off;
      }
   return pos;
}

template <class T> struct kinds;
template <> struct kinds<float> {
   static constexpr cufftType C2C = CUFFT_C2C, R2C = CUFFT_R2C, C2R = CUFFT_C2R;
   static double eps() { return 1.1920928955078125e-07; }
};
template <> struct kinds<double> {
   static constexpr cufftType C2C = CUFFT_Z2Z, R2C = CUFFT_D2Z, C2R = CUFFT_Z2D;
   static double eps() { return 2.220446049250313e-16; }
};

static cufftResult exec(cufftHandle p, cufftType t, void *in, void *out, int dir)
{
   switch (t) {
   case CUFFT_C2C: return cufftExecC2C(p, (cufftComplex *)in, (cufftComplex *)out, dir);
   case CUFFT_Z2Z: return cufftExecZ2Z(p, (cufftDoubleComplex *)in, (cufftDoubleComplex *)out, dir);
   case CUFFT_R2C: return cufftExecR2C(p, (cufftReal *)in, (cufftComplex *)out);
   case CUFFT_D2Z: return cufftExecD2Z(p, (cufftDoubleReal *)in, (cufftDoubleComplex *)out);
   case CUFFT_C2R: return cufftExecC2R(p, (cufftComplex *)in, (cufftReal *)out);
   default: return cufftExecZ2D(p, (cufftDoubleComplex *)in, (cufftDoubleReal *)out);
   }
}

static cufftResult make_plan(cufftHandle *p, const geo &g, cufftType t)
{
   if (g.adv)
      return cufftPlanMany(p, g.rank, (int *)g.n, (int *)g.inembed, g.istride, g.idist, (int *)g.onembed, g.ostride,
                           g.odist, t, g.batch);
   if (g.rank == 1)
      return cufftPlan1d(p, g.n[0], t, g.batch);
   if (g.batch == 1 && g.rank == 2)
      return cufftPlan2d(p, g.n[0], g.n[1], t);
   if (g.batch == 1 && g.rank == 3)
      return cufftPlan3d(p, g.n[0], g.n[1], g.n[2], t);
   return cufftPlanMany(p, g.rank, (int *)g.n, NULL, 1, 0, NULL, 1, 0, t, g.batch);
}

static void describe(char *buf, size_t sz, const char *kind, const geo &g, int dir)
{
   char dims[48];
   if (g.rank == 1)
      snprintf(dims, sizeof(dims), "%d", g.n[0]);
   else if (g.rank == 2)
      snprintf(dims, sizeof(dims), "%dx%d", g.n[0], g.n[1]);
   else
      snprintf(dims, sizeof(dims), "%dx%dx%d", g.n[0], g.n[1], g.n[2]);
   snprintf(buf, sz, "%s n=%s batch=%d %s%s dir=%d", kind, dims, g.batch, g.inplace ? "in-place" : "out-of-place",
            g.adv ? " advanced" : "", dir);
}

/* One transform of kind K (0 C2C, 1 R2C, 2 C2R) in precision T against
 * the oracle, within the bound. */
template <class T> static void run(int K, const geo &g, int dir)
{
   typedef kinds<T> KT;
   cufftType t = K == 0 ? KT::C2C : K == 1 ? KT::R2C : KT::C2R;
   bool rin = K == 1, rout = K == 2;
   char what[160];
   describe(what, sizeof(what), K == 0 ? (sizeof(T) == 4 ? "C2C" : "Z2Z") : K == 1 ? (sizeof(T) == 4 ? "R2C" : "D2Z")
                                                                                   : (sizeof(T) == 4 ? "C2R" : "Z2D"),
            g, dir);
   std::vector<long> ip = positions(g, true, rin, K == 2), op = positions(g, false, rout, K == 1);
   /* C2C: both sides full complex; R2C: real in, half out; C2R: half in,
    * real out */
   size_t ies = rin ? sizeof(T) : 2 * sizeof(T), oes = rout ? sizeof(T) : 2 * sizeof(T);
   long imax = 0, omax = 0;
   for (long v : ip)
      imax = v > imax ? v : imax;
   for (long v : op)
      omax = v > omax ? v : omax;
   size_t ibytes = (size_t)(imax + 1) * ies, obytes = (size_t)(omax + 1) * oes;
   if (g.inplace)
      ibytes = obytes = ibytes > obytes ? ibytes : obytes;
   const T sentinel = (T)-7777.25;
   std::vector<T> hin(ibytes / sizeof(T), sentinel), hout(obytes / sizeof(T), sentinel);

   int r = g.rank;
   long per = 1, full_per = 1;
   for (int d = 0; d < r; d++)
      full_per *= g.n[d];
   long nc = g.n[r - 1] / 2 + 1;
   per = full_per / g.n[r - 1] * nc;   /* elements of the half spectrum */
   /* input values, as the type holds them, in dense logical order */
   std::vector<ld> dense_in;
   if (K == 2) {
      /* an exactly Hermitian half spectrum */
      std::vector<ld> h(2 * per * g.batch);
      for (auto &v : h)
         v = (T)frnd();
      for (long b = 0; b < g.batch; b++)
         for (long i = 0; i < per; i++) {
            long idx[3], rem = i;
            for (int d = r - 1; d >= 0; d--) {
               long e = d == r - 1 ? nc : g.n[d];
               idx[d] = rem % e;
               rem /= e;
            }
            long kl = idx[r - 1];
            if (kl != 0 && 2 * kl != g.n[r - 1])
               continue;
            /* partner: negated indices */
            long j = 0;
            for (int d = 0; d < r; d++) {
               long e = d == r - 1 ? nc : g.n[d];
               long v = d == r - 1 ? kl : (g.n[d] - idx[d]) % g.n[d];
               j = j * e + v;
            }
            ld *x = &h[2 * (b * per + i)], *y = &h[2 * (b * per + j)];
            if (j == i)
               x[1] = 0;
            else if (j < i) {
               x[0] = y[0];
               x[1] = -y[1];
            }
         }
      dense_in = h;
   } else {
      long cnt = full_per * g.batch;
      dense_in.resize(2 * cnt);
      for (long i = 0; i < cnt; i++) {
         dense_in[2 * i] = (T)frnd();
         dense_in[2 * i + 1] = rin ? 0 : (T)frnd();
      }
   }
   for (size_t i = 0; i < ip.size(); i++) {
      if (rin)
         hin[ip[i]] = (T)dense_in[2 * i];
      else {
         hin[2 * ip[i]] = (T)dense_in[2 * i];
         hin[2 * ip[i] + 1] = (T)dense_in[2 * i + 1];
      }
   }

   /* reference */
   std::vector<ld> ref;
   for (long b = 0; b < g.batch; b++) {
      std::vector<ld> x(2 * full_per), y;
      if (K == 2) {
         /* extend: X[k, kl] for kl >= nc is conj(X[-k, n - kl]) */
         for (long i = 0; i < full_per; i++) {
            long idx[3], rem = i;
            for (int d = r - 1; d >= 0; d--) {
               idx[d] = rem % g.n[d];
               rem /= g.n[d];
            }
            bool conj = idx[r - 1] >= nc;
            long j = 0;
            for (int d = 0; d < r; d++) {
               long e = d == r - 1 ? nc : g.n[d];
               long v = conj ? (g.n[d] - idx[d]) % g.n[d] : idx[d];
               j = j * e + v;
            }
            x[2 * i] = dense_in[2 * (b * per + j)];
            x[2 * i + 1] = conj ? -dense_in[2 * (b * per + j) + 1] : dense_in[2 * (b * per + j) + 1];
         }
      } else
         for (long i = 0; i < 2 * full_per; i++)
            x[i] = dense_in[2 * b * full_per + i];
      ref_dft(r, g.n, K == 0 ? dir : K == 1 ? -1 : 1, x, y);
      if (K == 1) {
         for (long i = 0; i < per; i++) {
            long rem = i, src = 0, mul = 1;
            for (int d = r - 1; d >= 0; d--) {
               long e = d == r - 1 ? nc : g.n[d];
               src += (rem % e) * mul;
               rem /= e;
               mul *= g.n[d];
            }
            ref.push_back(y[2 * src]);
            ref.push_back(y[2 * src + 1]);
         }
      } else
         ref.insert(ref.end(), y.begin(), y.end());
   }

   void *din = NULL, *dout = NULL;
   CHECK_CUDA(cudaMalloc(&din, ibytes));
   CHECK_CUDA(cudaMemcpy(din, hin.data(), ibytes, cudaMemcpyHostToDevice));
   if (g.inplace)
      dout = din;
   else {
      CHECK_CUDA(cudaMalloc(&dout, obytes));
      CHECK_CUDA(cudaMemcpy(dout, hout.data(), obytes, cudaMemcpyHostToDevice));
   }
   cufftHandle plan;
   if (!CHECK_FFT(make_plan(&plan, g, t))) {
      printf("  plan of %s failed\n", what);
      cudaFree(din);
      if (!g.inplace)
         cudaFree(dout);
      return;
   }
   CHECK_FFT(exec(plan, t, din, dout, dir));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hout.data(), dout, obytes, cudaMemcpyDeviceToHost));
   CHECK_FFT(cufftDestroy(plan));
   cudaFree(din);
   if (!g.inplace)
      cudaFree(dout);

   ld num = 0, den = 0;
   std::vector<char> isout(hout.size() / (rout ? 1 : 2), 0);
   for (size_t i = 0; i < op.size(); i++) {
      ld gr = rout ? hout[op[i]] : hout[2 * op[i]], gi = rout ? 0 : hout[2 * op[i] + 1];
      ld rr = ref[2 * i], ri = rout ? 0 : ref[2 * i + 1];
      num += (gr - rr) * (gr - rr) + (gi - ri) * (gi - ri);
      den += rr * rr + ri * ri;
      isout[op[i]] = 1;
   }
   double rms = den > 0 ? (double)sqrtl(num / den) : (double)sqrtl(num);
   double bound = RMS_C * log2N(g) * KT::eps();
   if (!(rms <= bound))
      printf("  %s: relative RMS error %.3g > bound %.3g\n", what, rms, bound);
   CHECK(rms <= bound);
   /* out of place: what is not output stays as it was */
   if (!g.inplace) {
      long bad = 0;
      for (size_t i = 0; i < isout.size(); i++)
         if (!isout[i] && (rout ? hout[i] != sentinel : (hout[2 * i] != sentinel || hout[2 * i + 1] != sentinel)))
            bad++;
      if (bad)
         printf("  %s: %ld elements outside the output layout changed\n", what, bad);
      CHECK(bad == 0);
   }
   if (getenv("MC_FFT_VERBOSE"))
      printf("  %s: rms %.3g (bound %.3g)\n", what, rms, bound);
}

static geo g1(int n, int batch, bool inplace)
{
   geo g = {};
   g.rank = 1;
   g.n[0] = n;
   g.batch = batch;
   g.inplace = inplace;
   return g;
}
static geo gn(int rank, int a, int b, int c, int batch, bool inplace)
{
   geo g = {};
   g.rank = rank;
   g.n[0] = a;
   g.n[1] = b;
   g.n[2] = c;
   g.batch = batch;
   g.inplace = inplace;
   return g;
}

/* forward of an impulse at 0 is exactly 1 everywhere; inverse(forward(x))
 * is N x within the bound */
static void identities(int n, int batch)
{
   std::vector<float> h(2 * n * batch, 0.f);
   for (int b = 0; b < batch; b++)
      h[2 * b * n] = 1.f;
   cufftComplex *d;
   CHECK_CUDA(cudaMalloc(&d, sizeof(cufftComplex) * n * batch));
   CHECK_CUDA(cudaMemcpy(d, h.data(), sizeof(float) * h.size(), cudaMemcpyHostToDevice));
   cufftHandle p;
   CHECK_FFT(cufftPlan1d(&p, n, CUFFT_C2C, batch));
   CHECK_FFT(cufftExecC2C(p, d, d, CUFFT_FORWARD));
   CHECK_CUDA(cudaMemcpy(h.data(), d, sizeof(float) * h.size(), cudaMemcpyDeviceToHost));
   long bad = 0;
   for (size_t i = 0; i < h.size(); i++)
      bad += h[i] != (i % 2 ? 0.f : 1.f);
   if (bad)
      printf("  impulse n=%d: %ld components not exact\n", n, bad);
   CHECK(bad == 0);
   /* round trip */
   std::vector<float> x(2 * n * batch), y(x.size());
   for (auto &v : x)
      v = (float)frnd();
   CHECK_CUDA(cudaMemcpy(d, x.data(), sizeof(float) * x.size(), cudaMemcpyHostToDevice));
   CHECK_FFT(cufftExecC2C(p, d, d, CUFFT_FORWARD));
   CHECK_FFT(cufftExecC2C(p, d, d, CUFFT_INVERSE));
   CHECK_CUDA(cudaMemcpy(y.data(), d, sizeof(float) * y.size(), cudaMemcpyDeviceToHost));
   double num = 0, den = 0;
   for (size_t i = 0; i < x.size(); i++) {
      double e = y[i] - (double)n * x[i];
      num += e * e;
      den += (double)n * x[i] * (double)n * x[i];
   }
   double rms = sqrt(num / den), bound = 2 * RMS_C * (n > 1 ? log2((double)n) : 1) * 1.1920928955078125e-07;
   if (!(rms <= bound))
      printf("  round trip n=%d: relative RMS error %.3g > %.3g\n", n, rms, bound);
   CHECK(rms <= bound);
   CHECK_FFT(cufftDestroy(p));
   cudaFree(d);
}

int main(int argc, char **argv)
{
   check_begin("cufft_exec");
   full = argc > 1 && !strcmp(argv[1], "--full");
   fft_oracle_open();

   /* 1-D C2C: every radix, mixed radices, Bluestein lengths */
   static const int c2c[] = { 1, 2, 3, 4, 5, 7, 8, 16, 30, 49, 64, 105, 128, 243, 1000, 1024, 11, 13, 17, 22, 101, 1009 };
   for (int n : c2c)
      for (int dir : { CUFFT_FORWARD, CUFFT_INVERSE })
         run<float>(0, g1(n, n < 100 ? 3 : 2, dir == CUFFT_INVERSE), dir);
   run<float>(0, g1(4096, 2, false), CUFFT_FORWARD);
   run<float>(0, g1(1 << 14, 1, true), CUFFT_INVERSE);
   for (int n : { 8, 60, 97, 1024 })
      run<double>(0, g1(n, 2, n == 60), CUFFT_INVERSE);
   run<double>(0, g1(343, 1, false), CUFFT_FORWARD);

   /* real transforms, 1-D, both placements */
   for (int n : { 1, 2, 6, 15, 16, 17, 22, 128, 210, 1000, 4096 })
      for (bool ip : { false, true }) {
         run<float>(1, g1(n, 2, ip), CUFFT_FORWARD);
         run<float>(2, g1(n, 2, ip), CUFFT_INVERSE);
      }
   for (int n : { 12, 31, 256 }) {
      run<double>(1, g1(n, 2, n == 31), CUFFT_FORWARD);
      run<double>(2, g1(n, 2, n != 31), CUFFT_INVERSE);
   }

   /* 2-D and 3-D */
   run<float>(0, gn(2, 8, 6, 0, 1, false), CUFFT_FORWARD);
   run<float>(0, gn(2, 17, 4, 0, 2, true), CUFFT_INVERSE);
   run<float>(0, gn(3, 4, 6, 5, 1, false), CUFFT_FORWARD);
   run<float>(0, gn(3, 3, 11, 8, 2, true), CUFFT_FORWARD);
   run<double>(0, gn(2, 12, 10, 0, 1, true), CUFFT_FORWARD);
   for (bool ip : { false, true }) {
      run<float>(1, gn(2, 16, 10, 0, 1, ip), CUFFT_FORWARD);
      run<float>(2, gn(2, 16, 10, 0, 1, ip), CUFFT_INVERSE);
      run<float>(1, gn(2, 7, 9, 0, 2, ip), CUFFT_FORWARD);
      run<float>(2, gn(2, 7, 9, 0, 2, ip), CUFFT_INVERSE);
      run<float>(1, gn(3, 8, 4, 6, 1, ip), CUFFT_FORWARD);
      run<float>(2, gn(3, 4, 5, 6, 1, ip), CUFFT_INVERSE);
      run<double>(1, gn(3, 4, 3, 5, 1, ip), CUFFT_FORWARD);
      run<double>(2, gn(2, 6, 13, 0, 1, ip), CUFFT_INVERSE);
   }

   /* advanced layouts (cufftPlanMany): strides, distances, embeddings */
   {
      geo g = g1(12, 3, false);
      g.adv = true;
      g.inembed[0] = 12;
      g.istride = 2;
      g.idist = 30;
      g.onembed[0] = 12;
      g.ostride = 3;
      g.odist = 40;
      run<float>(0, g, CUFFT_FORWARD);
      g.n[0] = 13;
      g.inembed[0] = g.onembed[0] = 13;
      run<float>(0, g, CUFFT_INVERSE);
      /* interleaved batches: stride = batch, distance 1 */
      geo h = g1(16, 4, false);
      h.adv = true;
      h.inembed[0] = h.onembed[0] = 16;
      h.istride = h.ostride = 4;
      h.idist = h.odist = 1;
      run<float>(0, h, CUFFT_FORWARD);
      run<double>(0, h, CUFFT_INVERSE);
   }
   {
      geo g = gn(2, 8, 10, 0, 2, false);
      g.adv = true;
      g.inembed[0] = 9;
      g.inembed[1] = 12;
      g.istride = 1;
      g.idist = 9 * 12 + 5;
      g.onembed[0] = 8;
      g.onembed[1] = 11;
      g.ostride = 2;
      g.odist = 8 * 11 * 2 + 3;
      run<float>(0, g, CUFFT_FORWARD);
      /* R2C: the real side 8 x 10 in 9 x 12, the half (8 x 6) in 8 x 7 */
      g.onembed[1] = 7;
      g.odist = 8 * 7 * 2 + 1;
      run<float>(1, g, CUFFT_FORWARD);
      /* C2R: the half side in 9 x 7, real out in 8 x 13 */
      geo c = g;
      c.inembed[0] = 9;
      c.inembed[1] = 7;
      c.istride = 1;
      c.idist = 9 * 7;
      c.onembed[0] = 8;
      c.onembed[1] = 13;
      c.ostride = 1;
      c.odist = 8 * 13 + 2;
      run<float>(2, c, CUFFT_INVERSE);
      /* 3-D with strides */
      geo t = gn(3, 4, 5, 6, 2, false);
      t.adv = true;
      t.inembed[0] = 4;
      t.inembed[1] = 6;
      t.inembed[2] = 7;
      t.istride = 2;
      t.idist = 4 * 6 * 7 * 2;
      t.onembed[0] = 4;
      t.onembed[1] = 5;
      t.onembed[2] = 6;
      t.ostride = 1;
      t.odist = 4 * 5 * 6 + 11;
      run<float>(0, t, CUFFT_INVERSE);
   }

   for (int n : { 1, 2, 8, 12, 105, 256, 1024, 3 * 5 * 7 * 8 })
      identities(n, 2);

   if (full) {
      for (int n : { 1 << 16, 3 * 5 * 7 * 64, 65521, 100000 })
         run<float>(0, g1(n, 2, false), CUFFT_FORWARD);
      run<float>(1, g1(1 << 15, 2, false), CUFFT_FORWARD);
      run<float>(2, g1(1 << 15, 2, false), CUFFT_INVERSE);
      run<double>(0, g1(1 << 14, 1, false), CUFFT_FORWARD);
      run<float>(0, gn(3, 32, 30, 28, 1, true), CUFFT_FORWARD);
      run<float>(1, gn(2, 128, 97, 0, 2, false), CUFFT_FORWARD);
      /* the shapes of the CUDA samples' convolutionFFT2D */
      run<float>(0, gn(2, 2048, 1024, 0, 1, false), CUFFT_FORWARD);
      run<float>(1, gn(2, 2048, 2048, 0, 1, false), CUFFT_FORWARD);
      run<float>(2, gn(2, 2048, 2048, 0, 1, false), CUFFT_INVERSE);
   }
   return check_end();
}
