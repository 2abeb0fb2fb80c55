/*
 * cufft_jit.cu — cuFFT's LTO callbacks (cufftXtSetJITCallback): load and
 * store callbacks, complex and real, single and double, on 1-D and 2-D
 * plans, batched, in place, with strides and embeddings (cufftPlanMany's
 * advanced layout), with a callerInfo and without; the statuses of the
 * calls around them.
 *
 * The callbacks (lto/cufft_jit.cu) come as LTO-IR in a fatbin that run.sh
 * builds with NVIDIA's nvcc beside this program (NAME.lto.fatbin), read at
 * run time.  Each scales its element by a factor of its offset and of the
 * double callerInfo points to, so the offsets cuFFT passes (elements of
 * the data's type from the start of the array, through the batch and the
 * layout's strides) are checked, not just the element read.
 *
 * Expected values: the transform of the loaded values by FFTW
 * (fft_oracle.h; the DFT by definition in long double where absent), the
 * store callback's scaling applied on the host; results within a relative
 * RMS error of (log2(N) + 2) eps (the bound of cufft_exec plus the
 * callbacks' two roundings); what the store callback does not write (the
 * gaps of a strided output) keeps its sentinel.  A load callback's result
 * on a C2R plan must be Hermitian: those cases are rank 1, where the
 * offset factor keeps elements 0 and n/2 real (rank 2's inputs are made
 * exactly Hermitian for a store callback alone).  Statuses: an H100's
 * (cuFFT 12.0, CUDA 13.0) where measured (below).
 *
 * NVIDIA's cuFFT calls a callback as a C++ function: one declared
 * extern "C" is not found when the plan is made (CUFFT_INTERNAL_ERROR on
 * an H100, nvJitLink's log naming the mangled name it sought).
 */
#include <cufftXt.h>
#include <cuda_runtime.h>
#include "../cuda/check.h"
#include "fft_oracle.h"

#include <string>
#include <vector>

#define CHECK_FFT(call) CHECK_INT((int)(call), (int)CUFFT_SUCCESS)
/* the statuses an H100 answers (cuFFT 12.0, CUDA 13.0) */
#define ST_AFTER_PLAN CUFFT_INVALID_PLAN
#define ST_NULL_FATBIN CUFFT_INVALID_VALUE
#define ST_ZERO_SIZE CUFFT_INVALID_VALUE
#define ST_NULL_NAME CUFFT_SUCCESS
#define ST_UNDEFINED CUFFT_INVALID_TYPE
#define ST_NO_SYM_SET CUFFT_SUCCESS
#define ST_CLEAR CUFFT_NOT_IMPLEMENTED
#define ST_NO_SYM_MAKE CUFFT_INTERNAL_ERROR
#define ST_TYPE_MISMATCH CUFFT_INTERNAL_ERROR
#define ST_1D_C2C_BOTH CUFFT_INTERNAL_ERROR
/* a real load callback (CUFFT_CB_LD_REAL) on a C2C plan: the H100 made
 * the plan (a load's C++ name does not say its result type, so it links,
 * and would be called for a float2 it does not return), though it refused
 * a complex load on a Z2Z plan; metalcuda refuses both, since what the
 * first would compute is undefined */
#define ST_REAL_ON_COMPLEX (on_metalcuda() ? CUFFT_INTERNAL_ERROR : CUFFT_SUCCESS)
/* metalcuda's: the H100's library crashed in cufftXtSetCallbackSharedSize
 * on a handle with an LTO callback before cufftMakePlan* */
#define ST_SHARED_SET CUFFT_SUCCESS
#define ST_SHARED_UNSET CUFFT_INVALID_PLAN

static std::vector<char> fatbin;

/* A layout: extents of the logical data (the last one the half spectrum's
 * on a complex side of a real transform), embeddings, stride, distance */
struct side {
   long ext[3], emb[3], stride, dist;
};

struct plan_case {
   const char *what;
   int kind;   /* 0 C2C, 1 R2C, 2 C2R */
   int rank, n[3], batch;
   bool inplace, adv;
   int inembed[3], istride, idist, onembed[3], ostride, odist;
   bool load, store, info;
};

template <class T> struct prec;
template <> struct prec<float> {
   static constexpr cufftType t[3] = { CUFFT_C2C, CUFFT_R2C, CUFFT_C2R };
   static constexpr cufftXtCallbackType ld[3] = { CUFFT_CB_LD_COMPLEX, CUFFT_CB_LD_REAL, CUFFT_CB_LD_COMPLEX };
   static constexpr cufftXtCallbackType st[3] = { CUFFT_CB_ST_COMPLEX, CUFFT_CB_ST_COMPLEX, CUFFT_CB_ST_REAL };
   static constexpr const char *lds[3] = { "jit_ld_c", "jit_ld_r", "jit_ld_c" };
   static constexpr const char *sts[3] = { "jit_st_c", "jit_st_c", "jit_st_r" };
   static double eps() { return 1.1920928955078125e-07; }
};
template <> struct prec<double> {
   static constexpr cufftType t[3] = { CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D };
   static constexpr cufftXtCallbackType ld[3] = { CUFFT_CB_LD_COMPLEX_DOUBLE, CUFFT_CB_LD_REAL_DOUBLE,
                                                  CUFFT_CB_LD_COMPLEX_DOUBLE };
   static constexpr cufftXtCallbackType st[3] = { CUFFT_CB_ST_COMPLEX_DOUBLE, CUFFT_CB_ST_COMPLEX_DOUBLE,
                                                  CUFFT_CB_ST_REAL_DOUBLE };
   static constexpr const char *lds[3] = { "jit_ld_z", "jit_ld_d", "jit_ld_z" };
   static constexpr const char *sts[3] = { "jit_st_z", "jit_st_z", "jit_st_d" };
   static double eps() { return 2.220446049250313e-16; }
};

/* the factors of lto/cufft_jit.cu */
static double ld_scale(long off, double f) { return (1.0 + (double)(off % 5) * 0.25) * f; }
static double st_scale(long off, double f) { return (1.0 + (double)(off % 3) * 0.5) * f; }

/* One side of case C: input (real for R2C) or output (real for C2R) */
static side side_of(const plan_case &c, bool input)
{
   side s;
   int r = c.rank;
   bool real = input ? c.kind == 1 : c.kind == 2;
   long nc = c.kind ? c.n[r - 1] / 2 + 1 : c.n[r - 1];
   for (int d = 0; d < r; d++)
      s.ext[d] = c.n[d];
   if (!real)
      s.ext[r - 1] = nc;
   if (c.adv) {
      for (int d = 0; d < r; d++)
         s.emb[d] = input ? c.inembed[d] : c.onembed[d];
      s.stride = input ? c.istride : c.ostride;
      s.dist = input ? c.idist : c.odist;
   } else {
      for (int d = 0; d < r; d++)
         s.emb[d] = s.ext[d];
      if (real && c.inplace)
         s.emb[r - 1] = 2 * nc;   /* cuFFT's padded rows */
      s.stride = 1;
      s.dist = 1;
      for (int d = 0; d < r; d++)
         s.dist *= s.emb[d];
   }
   return s;
}

/* The offset of every logical element of a side, batch-major, row-major */
static std::vector<long> offsets(const plan_case &c, const side &s)
{
   int r = c.rank;
   long per = 1;
   for (int d = 0; d < r; d++)
      per *= s.ext[d];
   std::vector<long> o((size_t)(per * c.batch));
   for (long b = 0; b < c.batch; b++)
      for (long i = 0; i < per; i++) {
         long rem = i, off = 0, st = s.stride;
         for (int d = r - 1; d >= 0; d--) {
            off += rem % s.ext[d] * st;
            rem /= s.ext[d];
            st *= s.emb[d];
         }
         o[(size_t)(b * per + i)] = b * s.dist + off;
      }
   return o;
}

/* NVIDIA's cuFFT 12.0 refused every 1-D C2C/Z2Z plan with both a load and
 * a store LTO callback (ST_1D_C2C_BOTH on an H100, at sizes 11 and 64; the
 * same callbacks alone, and both on 2-D and real plans, were taken);
 * metalcuda runs them, and they are checked against FFTW there */
static bool nvidia_refuses(const plan_case &c)
{
   return !on_metalcuda() && c.kind == 0 && c.rank == 1 && c.load && c.store;
}

template <class T> static void run_case(const plan_case &c)
{
   typedef prec<T> P;
   int K = c.kind, r = c.rank;
   bool rin = K == 1, rout = K == 2;
   char what[200];
   snprintf(what, sizeof(what), "%s %s%s%s", c.what, sizeof(T) == 4 ? "single" : "double", c.load ? " load" : "",
            c.store ? " store" : "");
   side is = side_of(c, true), os = side_of(c, false);
   std::vector<long> io = offsets(c, is), oo = offsets(c, os);
   long imax = 0, omax = 0;
   for (long v : io)
      imax = v > imax ? v : imax;
   for (long v : oo)
      omax = v > omax ? v : omax;
   int iw = rin ? 1 : 2, ow = rout ? 1 : 2;   /* Ts an element */
   size_t ilen = (size_t)(imax + 1) * iw, olen = (size_t)(omax + 1) * ow;
   if (c.inplace)
      ilen = olen = ilen > olen ? ilen : olen;
   const T sentinel = (T)-7777.25;
   std::vector<T> hin(ilen, sentinel), hout(olen, sentinel);
   /* the input, and the values the load callback makes of it, in logical order */
   long per = 1;
   for (int d = 0; d < r; d++)
      per *= is.ext[d];
   double fl = c.info ? 0.5 : 1.0, fs = c.info ? 1.5 : 1.0;
   std::vector<ld> vals(2 * io.size()), loaded(2 * io.size());
   for (size_t i = 0; i < io.size(); i++) {
      vals[2 * i] = (T)frnd();
      vals[2 * i + 1] = rin ? 0 : (T)frnd();
   }
   if (rout) {
      /* an exactly Hermitian half spectrum: in the columns kl = 0 and
       * n/2 of the last dimension, X[i0, kl] = conj(X[-i0, kl]) */
      long nl = is.ext[r - 1], n0 = r == 2 ? c.n[0] : 1;
      for (size_t i = 0; i < io.size(); i++) {
         long e = (long)(i % per), kl = e % nl, i0 = e / nl, b = (long)(i / per);
         if (kl != 0 && 2 * kl != c.n[r - 1])
            continue;
         long j0 = (n0 - i0) % n0, j = b * per + j0 * nl + kl;
         if (j == (long)i)
            vals[2 * i + 1] = 0;
         else if (j < (long)i) {
            vals[2 * i] = vals[2 * j];
            vals[2 * i + 1] = -vals[2 * j + 1];
         }
      }
   }
   for (size_t i = 0; i < io.size(); i++) {
      long pos = io[i];
      T re = (T)vals[2 * i], im = (T)vals[2 * i + 1];
      hin[(size_t)pos * iw] = re;
      if (!rin)
         hin[(size_t)pos * iw + 1] = im;
      double s = c.load ? ld_scale(pos, fl) : 1.0;
      /* the callback rounds the factor to T and the product to T */
      loaded[2 * i] = (T)(re * (T)s);
      loaded[2 * i + 1] = (T)(im * (T)s);
   }
   /* the reference, per batch member, dense */
   long full = 1;
   for (int d = 0; d < r; d++)
      full *= c.n[d];
   long nc = c.n[r - 1] / 2 + 1, hper = full / c.n[r - 1] * nc;
   std::vector<ld> expect;   /* the output side's logical elements, interleaved complex */
   for (long b = 0; b < c.batch; b++) {
      std::vector<ld> x(2 * full), y;
      for (long i = 0; i < full; i++) {
         if (K != 2) {
            x[2 * i] = loaded[2 * (b * full + i)];
            x[2 * i + 1] = loaded[2 * (b * full + i) + 1];
            continue;
         }
         /* C2R: X[i0, k] for k >= nc is conj(X[-i0, n - k]) */
         long nl = c.n[r - 1], k = i % nl, i0 = i / nl, n0 = r == 2 ? c.n[0] : 1;
         bool conj = k >= nc;
         long j = conj ? (n0 - i0) % n0 * nc + (nl - k) : i0 * nc + k;
         x[2 * i] = loaded[2 * (b * hper + j)];
         x[2 * i + 1] = conj ? -loaded[2 * (b * hper + j) + 1] : loaded[2 * (b * hper + j) + 1];
      }
      ref_dft(r, c.n, K == 2 ? 1 : -1, x, y);
      for (long i = 0; i < full; i++) {
         long last = i % c.n[r - 1];
         if (K == 1 && last >= nc)
            continue;
         expect.push_back(y[2 * i]);
         expect.push_back(K == 2 ? 0 : y[2 * i + 1]);
      }
   }
   /* the device */
   size_t bytes_in = ilen * sizeof(T), bytes_out = olen * sizeof(T);
   void *din = NULL, *dout = NULL;
   double *dfl = NULL, *dfs = NULL;
   CHECK_CUDA(cudaMalloc(&din, bytes_in));
   CHECK_CUDA(cudaMemcpy(din, hin.data(), bytes_in, cudaMemcpyHostToDevice));
   if (c.inplace)
      dout = din;
   else {
      CHECK_CUDA(cudaMalloc(&dout, bytes_out));
      CHECK_CUDA(cudaMemcpy(dout, hout.data(), bytes_out, cudaMemcpyHostToDevice));
   }
   if (c.info) {
      CHECK_CUDA(cudaMalloc(&dfl, 8));
      CHECK_CUDA(cudaMalloc(&dfs, 8));
      CHECK_CUDA(cudaMemcpy(dfl, &fl, 8, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dfs, &fs, 8, cudaMemcpyHostToDevice));
   }
   cufftHandle h;
   size_t ws = 0;
   CHECK_FFT(cufftCreate(&h));
   void *infol = dfl, *infos = dfs;
   if (c.load)
      CHECK_FFT(cufftXtSetJITCallback(h, P::lds[K], fatbin.data(), fatbin.size(), P::ld[K], c.info ? &infol : NULL));
   if (c.store)
      CHECK_FFT(cufftXtSetJITCallback(h, P::sts[K], fatbin.data(), fatbin.size(), P::st[K], c.info ? &infos : NULL));
   int n[3] = { c.n[0], c.n[1], c.n[2] };
   int ie[3] = { c.inembed[0], c.inembed[1], c.inembed[2] }, oe[3] = { c.onembed[0], c.onembed[1], c.onembed[2] };
   cufftResult made = cufftMakePlanMany(h, r, n, c.adv ? ie : NULL, c.istride, c.idist, c.adv ? oe : NULL,
                                        c.ostride, c.odist, P::t[K], c.batch, &ws);
   if (made != CUFFT_SUCCESS)
      printf("  %s: cufftMakePlanMany answered %d\n", what, (int)made);
   CHECK_INT((int)made, (int)(nvidia_refuses(c) ? ST_1D_C2C_BOTH : CUFFT_SUCCESS));
   if (made == CUFFT_SUCCESS) {
      CHECK_FFT(cufftXtExec(h, din, dout, K == 2 ? CUFFT_INVERSE : CUFFT_FORWARD));
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(hout.data(), dout, bytes_out, cudaMemcpyDeviceToHost));
      /* the relative RMS error over the output's elements */
      double err = 0, mag = 0;
      size_t bad = 0;
      std::vector<bool> written(olen / ow, false);
      for (size_t i = 0; i < oo.size(); i++) {
         long pos = oo[i];
         written[pos] = true;
         double s = c.store ? st_scale(pos, fs) : 1.0;
         for (int k = 0; k < ow; k++) {
            double want = (double)(expect[2 * i + k] * s), got = (double)hout[(size_t)pos * ow + k];
            err += (got - want) * (got - want);
            mag += want * want;
            if (!(got == got))
               bad++;
         }
      }
      double log2N = 0;
      for (int d = 0; d < r; d++)
         log2N += log2((double)c.n[d]);
      double rel = mag > 0 ? sqrt(err / mag) : sqrt(err), bound = (log2N + 2) * P::eps();
      if (!(rel <= bound) || bad)
         printf("  %s: relative RMS error %.3g, bound %.3g, %zu NaN\n", what, rel, bound, bad);
      CHECK(rel <= bound && !bad);
      /* out of place, what no element occupies keeps its sentinel */
      size_t touched = 0;
      if (!c.inplace)
         for (size_t e = 0; e < written.size(); e++)
            for (int k = 0; k < ow && !written[e]; k++)
               touched += hout[e * ow + k] != sentinel;
      if (touched)
         printf("  %s: %zu values in the output's gaps were written\n", what, touched);
      CHECK_INT(touched, 0);
   }
   CHECK_FFT(cufftDestroy(h));
   cudaFree(din);
   if (!c.inplace)
      cudaFree(dout);
   cudaFree(dfl);
   cudaFree(dfs);
}

/* The statuses around the callbacks (an H200's, cuFFT 12.0) */
static void statuses(void)
{
   cufftHandle h;
   size_t ws;
   const char *fb = fatbin.data();
   size_t n = fatbin.size();
   /* set after cufftMakePlan: refused */
   CHECK_FFT(cufftPlan1d(&h, 16, CUFFT_C2C, 1));
   CHECK_INT((int)cufftXtSetJITCallback(h, "jit_ld_c", fb, n, CUFFT_CB_LD_COMPLEX, NULL), (int)ST_AFTER_PLAN);
   CHECK_FFT(cufftDestroy(h));
   /* bad arguments and handles */
   CHECK_FFT(cufftCreate(&h));
   CHECK_INT((int)cufftXtSetJITCallback(h, "jit_ld_c", NULL, n, CUFFT_CB_LD_COMPLEX, NULL), (int)ST_NULL_FATBIN);
   CHECK_INT((int)cufftXtSetJITCallback(h, "jit_ld_c", fb, 0, CUFFT_CB_LD_COMPLEX, NULL), (int)ST_ZERO_SIZE);
   CHECK_INT((int)cufftXtSetJITCallback(h, NULL, fb, n, CUFFT_CB_LD_COMPLEX, NULL), (int)ST_NULL_NAME);
   CHECK_INT((int)cufftXtSetJITCallback(h, "jit_ld_c", fb, n, CUFFT_CB_UNDEFINED, NULL), (int)ST_UNDEFINED);
   CHECK_FFT(cufftDestroy(h));
   CHECK_INT((int)cufftXtSetJITCallback(h, "jit_ld_c", fb, n, CUFFT_CB_LD_COMPLEX, NULL), (int)CUFFT_INVALID_PLAN);
   /* a name the fatbin does not define: refused when the plan is made */
   CHECK_FFT(cufftCreate(&h));
   CHECK_INT((int)cufftXtSetJITCallback(h, "no_such_callback", fb, n, CUFFT_CB_LD_COMPLEX, NULL), (int)ST_NO_SYM_SET);
   CHECK_INT((int)cufftMakePlan1d(h, 16, CUFFT_C2C, 1, &ws), (int)ST_NO_SYM_MAKE);
   CHECK_FFT(cufftDestroy(h));
   /* a callback with C linkage: cuFFT seeks the C++ name */
   CHECK_FFT(cufftCreate(&h));
   CHECK_FFT(cufftXtSetJITCallback(h, "jit_ld_c_c", fb, n, CUFFT_CB_LD_COMPLEX, NULL));
   CHECK_INT((int)cufftMakePlan1d(h, 16, CUFFT_C2C, 1, &ws), (int)ST_NO_SYM_MAKE);
   CHECK_FFT(cufftDestroy(h));
   /* a callback type that does not fit the plan's type */
   CHECK_FFT(cufftCreate(&h));
   CHECK_FFT(cufftXtSetJITCallback(h, "jit_ld_r", fb, n, CUFFT_CB_LD_REAL, NULL));
   CHECK_INT((int)cufftMakePlan1d(h, 16, CUFFT_C2C, 1, &ws), (int)ST_REAL_ON_COMPLEX);
   CHECK_FFT(cufftDestroy(h));
   CHECK_FFT(cufftCreate(&h));
   CHECK_FFT(cufftXtSetJITCallback(h, "jit_ld_c", fb, n, CUFFT_CB_LD_COMPLEX, NULL));
   CHECK_INT((int)cufftMakePlan1d(h, 16, CUFFT_Z2Z, 1, &ws), (int)ST_TYPE_MISMATCH);
   CHECK_FFT(cufftDestroy(h));
   /* shared memory for a callback that is set, and for one that is not */
   CHECK_FFT(cufftCreate(&h));
   CHECK_FFT(cufftXtSetJITCallback(h, "jit_ld_c", fb, n, CUFFT_CB_LD_COMPLEX, NULL));
   if (on_metalcuda()) {   /* NVIDIA's cuFFT 12.0 crashed here (an H100, 2026-12-05) */
      CHECK_INT((int)cufftXtSetCallbackSharedSize(h, CUFFT_CB_LD_COMPLEX, 64), (int)ST_SHARED_SET);
      CHECK_INT((int)cufftXtSetCallbackSharedSize(h, CUFFT_CB_ST_COMPLEX, 64), (int)ST_SHARED_UNSET);
   }
   /* an LTO callback is not cleared */
   CHECK_INT((int)cufftXtClearCallback(h, CUFFT_CB_LD_COMPLEX), (int)ST_CLEAR);
   CHECK_FFT(cufftMakePlan1d(h, 16, CUFFT_C2C, 1, &ws));
   CHECK_FFT(cufftDestroy(h));
}

int main(int argc, char **argv)
{
   (void)argc;
   setvbuf(stdout, NULL, _IOLBF, 0);   /* what was checked shows even if a library crashes */
   check_begin("cufft_jit");
   /* the callbacks' fatbin beside the program (run.sh builds it) */
   std::string path = argv[0];
   size_t cut = path.find_last_of('/');
   path = (cut == std::string::npos ? std::string(".") : path.substr(0, cut)) + "/cufft_jit.lto.fatbin";
   FILE *f = fopen(path.c_str(), "rb");
   if (!f) {
      printf("SKIP cufft_jit: %s not found (it needs NVIDIA's nvcc: run.sh builds it)\n", path.c_str());
      return 0;
   }
   fseek(f, 0, SEEK_END);
   fatbin.resize((size_t)ftell(f));
   rewind(f);
   CHECK_INT(fread(fatbin.data(), 1, fatbin.size(), f), fatbin.size());
   fclose(f);
   fft_oracle_open();

   statuses();
   /* what, kind, rank, n, batch, in place, advanced, inembed, istride, idist, onembed, ostride, odist, load, store, info */
   static const plan_case cases[] = {
      { "C2C 64 x3", 0, 1, { 64 }, 3, false, false, {}, 1, 0, {}, 1, 0, true, false, true },
      { "C2C 64 x3", 0, 1, { 64 }, 3, false, false, {}, 1, 0, {}, 1, 0, false, true, true },
      { "C2C 64 x3", 0, 1, { 64 }, 3, false, false, {}, 1, 0, {}, 1, 0, true, true, false },
      { "C2C 11 x2 in place", 0, 1, { 11 }, 2, true, false, {}, 1, 0, {}, 1, 0, true, true, true },
      { "C2C 12x10 in place", 0, 2, { 12, 10 }, 1, true, false, {}, 1, 0, {}, 1, 0, true, true, true },
      { "C2C 20 x2 strided", 0, 1, { 20 }, 2, false, true, { 20 }, 2, 45, { 25 }, 3, 80, true, false, true },
      { "C2C 20 x2 strided", 0, 1, { 20 }, 2, false, true, { 20 }, 2, 45, { 25 }, 3, 80, false, true, true },
      { "C2C 6x5 x2 embedded", 0, 2, { 6, 5 }, 2, false, true, { 7, 6 }, 1, 44, { 6, 7 }, 2, 90, true, true, true },
      { "R2C 30 x2 in place", 1, 1, { 30 }, 2, true, false, {}, 1, 0, {}, 1, 0, true, true, true },
      { "R2C 8x6 out of place", 1, 2, { 8, 6 }, 1, false, false, {}, 1, 0, {}, 1, 0, true, false, true },
      { "R2C 8x6 out of place", 1, 2, { 8, 6 }, 1, false, false, {}, 1, 0, {}, 1, 0, false, true, false },
      { "R2C 16 x2 strided", 1, 1, { 16 }, 2, false, true, { 16 }, 2, 33, { 9 }, 2, 19, true, true, true },
      { "C2R 16 x2", 2, 1, { 16 }, 2, false, false, {}, 1, 0, {}, 1, 0, true, true, true },
      { "C2R 15 x3 in place", 2, 1, { 15 }, 3, true, false, {}, 1, 0, {}, 1, 0, true, false, true },
      { "C2R 10x12 in place", 2, 2, { 10, 12 }, 1, true, false, {}, 1, 0, {}, 1, 0, false, true, true },
      { "C2R 22 x2 strided", 2, 1, { 22 }, 2, false, true, { 12 }, 1, 13, { 22 }, 2, 47, false, true, true },
   };
   for (const plan_case &c : cases) {
      run_case<float>(c);
      run_case<double>(c);
   }
   return check_end();
}
