/*
 * kernels.cu — libcufft's device code, CUDA C built to PTX by metalcuda's
 * own nvcc (the Makefile) and embedded in the library (kernels.S), which
 * loads it with cuModuleLoadData like any program.
 *
 * Algorithm: the Stockham autosort FFT (Van Loan, Computational Frameworks
 * for the FFT, §1.7; the radix-R form of E. Bainville's OpenCL FFT notes):
 * a transform of length n = R1 R2 ... Rk is k passes; in the pass of radix
 * R after passes whose radices multiply to p, thread i < n/R of a line
 * reads x[i + r n/R] (r < R), multiplies element r by w^(r k) with
 * k = i mod p and w = e^{-+2 pi i / (p R)}, does a DFT of length R in
 * registers and writes y[(i - k) R + k + r p].  Every pass reads one buffer
 * and writes another, so no bit reversal and no in-place hazard; a single
 * pass (R = n) is one thread per line, which may be in place.  Radices
 * 2, 3, 4, 5, 7, 8 and 16 (and 1 for n = 1); twiddles come from a table
 * computed on the host in double (plan.c), for each pass its
 * e^{-2 pi i r k/(p R)} in the order the threads read them (k, then r), so
 * no pass evaluates a sine and a pass reads its twiddles sequentially.  Lengths with another prime
 * factor go through Bluestein's chirp-z (cf_chirp_*): a circular
 * convolution of length m = 2^j >= 2n - 1 by forward and inverse passes.
 *
 * Barrier-free: on the software Metal device every kernel runs as a plain
 * loop over the threads of a group (src/metal/soft/README.md).  Real input
 * (R2C) is read as complex with imaginary part 0 and half the result
 * stored; C2R reads the Hermitian half and extends it by symmetry
 * (kargs.h CF_LOAD_*, CF_STORE_*).
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "kargs.h"

typedef long long i64;

/* aligned as float2/double2, so that an element is one vector load */
template <class T> struct alignas(2 * sizeof(T)) cplx { T x, y; };

template <class T> __device__ __forceinline__ cplx<T> cadd(cplx<T> a, cplx<T> b) { return cplx<T>{ a.x + b.x, a.y + b.y }; }
template <class T> __device__ __forceinline__ cplx<T> csub(cplx<T> a, cplx<T> b) { return cplx<T>{ a.x - b.x, a.y - b.y }; }
template <class T> __device__ __forceinline__ cplx<T> cmul(cplx<T> a, cplx<T> b)
{
   return cplx<T>{ a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x };
}
/* a times s i, s = +-1: (x + iy) s i = -s y + s x i */
template <class T> __device__ __forceinline__ cplx<T> mul_si(cplx<T> a, T s) { return cplx<T>{ -s * a.y, s * a.x }; }

/* The address of element e of line l of layout L (kargs.h) */
__device__ __forceinline__ i64 lay_off(const cf_layout &L, i64 l, i64 e)
{
   i64 i2 = 0, i1 = 0;
   if (L.c2 != 1) {
      i2 = l % L.c2;
      l /= L.c2;
   }
   if (L.c1 != 1) {
      i1 = l % L.c1;
      l /= L.c1;
   }
   return l * L.s0 + i1 * L.s1 + i2 * L.s2 + e * L.es;
}

template <class T> __device__ __forceinline__ cplx<T> load(const cf_layout &L, int mode, i64 l, i64 e, i64 n)
{
   if (mode == CF_LOAD_R)
      return cplx<T>{ ((const T *)L.p)[lay_off(L, l, e)], (T)0 };
   if (mode == CF_LOAD_P)
      return cplx<T>{ ((const T *)L.p)[lay_off(L, l, 2 * e)], ((const T *)L.p)[lay_off(L, l, 2 * e + 1)] };
   if (mode == CF_LOAD_H && e > n / 2) {
      cplx<T> v = ((const cplx<T> *)L.p)[lay_off(L, l, n - e)];
      return cplx<T>{ v.x, -v.y };
   }
   return ((const cplx<T> *)L.p)[lay_off(L, l, e)];
}

template <class T> __device__ __forceinline__ void store(const cf_layout &L, int mode, i64 l, i64 e, i64 n, cplx<T> v)
{
   if (mode == CF_STORE_R)
      ((T *)L.p)[lay_off(L, l, e)] = v.x;
   else if (mode == CF_STORE_P) {
      ((T *)L.p)[lay_off(L, l, 2 * e)] = v.x;
      ((T *)L.p)[lay_off(L, l, 2 * e + 1)] = v.y;
   } else if (mode == CF_STORE_C || e <= n / 2)
      ((cplx<T> *)L.p)[lay_off(L, l, e)] = v;
}

/* ---- DFTs of length R in registers, sign s of the exponent ---- */

template <class T> __device__ __forceinline__ void dft2(cplx<T> &a, cplx<T> &b)
{
   cplx<T> t = a;
   a = cadd(t, b);
   b = csub(t, b);
}

template <class T> __device__ __forceinline__ void dft4(cplx<T> *u, T s)
{
   cplx<T> a0 = cadd(u[0], u[2]), a1 = csub(u[0], u[2]);
   cplx<T> b0 = cadd(u[1], u[3]), b1 = mul_si(csub(u[1], u[3]), s);
   u[0] = cadd(a0, b0);
   u[2] = csub(a0, b0);
   u[1] = cadd(a1, b1);
   u[3] = csub(a1, b1);
}

/* radix 8: two DFTs of 4 (even, odd elements) joined by e^{s 2 pi i k/8} */
template <class T> __device__ __forceinline__ void dft8(cplx<T> *u, T s)
{
   const T h = (T)0.70710678118654752440084436210484903;
   cplx<T> e[4] = { u[0], u[2], u[4], u[6] }, o[4] = { u[1], u[3], u[5], u[7] };
   dft4(e, s);
   dft4(o, s);
   cplx<T> o1 = cplx<T>{ h * (o[1].x - s * o[1].y), h * (o[1].y + s * o[1].x) };      /* (1 + s i)/sqrt 2 */
   cplx<T> o2 = mul_si(o[2], s);                                                       /* s i */
   cplx<T> o3 = cplx<T>{ h * (-o[3].x - s * o[3].y), h * (-o[3].y + s * o[3].x) };    /* (-1 + s i)/sqrt 2 */
   u[0] = cadd(e[0], o[0]);
   u[4] = csub(e[0], o[0]);
   u[1] = cadd(e[1], o1);
   u[5] = csub(e[1], o1);
   u[2] = cadd(e[2], o2);
   u[6] = csub(e[2], o2);
   u[3] = cadd(e[3], o3);
   u[7] = csub(e[3], o3);
}

/* radix 16: 4 x 4 (j = j2 + 4 j1, k = k1 + 4 k2): DFTs of 4 over j1,
 * twiddles e^{s 2 pi i j2 k1/16}, DFTs of 4 over j2 */
template <class T> __device__ __forceinline__ void dft16(cplx<T> *u, T s)
{
   const T c[10] = { (T)1, (T)0.92387953251128675612818318939678829, (T)0.70710678118654752440084436210484903,
                     (T)0.38268343236508977172845998403039887, (T)0, (T)-0.38268343236508977172845998403039887,
                     (T)-0.70710678118654752440084436210484903, (T)-0.92387953251128675612818318939678829, (T)-1,
                     (T)-0.92387953251128675612818318939678829 };
   const T sn[10] = { (T)0, (T)0.38268343236508977172845998403039887, (T)0.70710678118654752440084436210484903,
                      (T)0.92387953251128675612818318939678829, (T)1, (T)0.92387953251128675612818318939678829,
                      (T)0.70710678118654752440084436210484903, (T)0.38268343236508977172845998403039887, (T)0,
                      (T)-0.38268343236508977172845998403039887 };
   cplx<T> v[4][4];
#pragma unroll
   for (int j2 = 0; j2 < 4; j2++) {
      cplx<T> t[4] = { u[j2], u[j2 + 4], u[j2 + 8], u[j2 + 12] };
      dft4(t, s);
#pragma unroll
      for (int k1 = 0; k1 < 4; k1++) {
         int m = j2 * k1;
         v[j2][k1] = m ? cmul(t[k1], cplx<T>{ c[m], s * sn[m] }) : t[k1];
      }
   }
#pragma unroll
   for (int k1 = 0; k1 < 4; k1++) {
      cplx<T> t[4] = { v[0][k1], v[1][k1], v[2][k1], v[3][k1] };
      dft4(t, s);
#pragma unroll
      for (int k2 = 0; k2 < 4; k2++)
         u[k1 + 4 * k2] = t[k2];
   }
}

/* odd prime radices: the O(R^2) definition with the constants of R */
template <int R> __device__ __forceinline__ double cos_r(int j);
template <int R> __device__ __forceinline__ double sin_r(int j);
#define CF_TABLE(R, ...)                                                                                            \
   template <> __device__ __forceinline__ double cos_r<R>(int j)                                                   \
   {                                                                                                                \
      const double c[R][2] = { __VA_ARGS__ };                                                                       \
      return c[j][0];                                                                                               \
   }                                                                                                                \
   template <> __device__ __forceinline__ double sin_r<R>(int j)                                                   \
   {                                                                                                                \
      const double c[R][2] = { __VA_ARGS__ };                                                                       \
      return c[j][1];                                                                                               \
   }
/* cos and sin of 2 pi j / R */
CF_TABLE(3, { 1, 0 }, { -0.5, 0.86602540378443864676372317075293618 }, { -0.5, -0.86602540378443864676372317075293618 })
CF_TABLE(5, { 1, 0 }, { 0.30901699437494742410229341718281906, 0.95105651629515357211643933337938214 },
         { -0.80901699437494742410229341718281906, 0.58778525229247312916870595463907277 },
         { -0.80901699437494742410229341718281906, -0.58778525229247312916870595463907277 },
         { 0.30901699437494742410229341718281906, -0.95105651629515357211643933337938214 })
CF_TABLE(7, { 1, 0 }, { 0.62348980185873353052500488400423981, 0.78183148246802980870844452667405775 },
         { -0.22252093395631440428890256449679476, 0.97492791218182360701813168299393122 },
         { -0.90096886790241912623610231950744505, 0.43388373911755812047576833284835875 },
         { -0.90096886790241912623610231950744505, -0.43388373911755812047576833284835875 },
         { -0.22252093395631440428890256449679476, -0.97492791218182360701813168299393122 },
         { 0.62348980185873353052500488400423981, -0.78183148246802980870844452667405775 })

template <class T, int R> __device__ __forceinline__ void dft_odd(cplx<T> *u, T s)
{
   cplx<T> v[R];
#pragma unroll
   for (int k = 0; k < R; k++) {
      cplx<T> acc = u[0];
#pragma unroll
      for (int j = 1; j < R; j++) {
         int m = (j * k) % R;
         cplx<T> w = cplx<T>{ (T)cos_r<R>(m), s * (T)sin_r<R>(m) };
         acc = cadd(acc, cmul(u[j], w));
      }
      v[k] = acc;
   }
#pragma unroll
   for (int k = 0; k < R; k++)
      u[k] = v[k];
}

template <class T, int R> __device__ __forceinline__ void dft(cplx<T> *u, T s)
{
   if (R == 2)
      dft2(u[0], u[1]);
   else if (R == 4)
      dft4(u, s);
   else if (R == 8)
      dft8(u, s);
   else if (R == 16)
      dft16(u, s);
   else if (R == 3)
      dft_odd<T, 3>(u, s);
   else if (R == 5)
      dft_odd<T, 5>(u, s);
   else if (R == 7)
      dft_odd<T, 7>(u, s);
}

/* ---- one Stockham pass ---- */

template <class T, int R> __device__ __forceinline__ void pass(const cf_pass_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 m = a.n / R;
   i64 l = g / m, i = g - l * m;
   i64 k = i % a.p;
   T s = (T)a.dir;
   cplx<T> u[R];
#pragma unroll
   for (int r = 0; r < R; r++)
      u[r] = load<T>(a.src, a.load, l, i + r * m, a.n);
   if (a.p > 1) {
      const cplx<T> *tw = (const cplx<T> *)a.tw + k * (R - 1) - 1;
#pragma unroll
      for (int r = 1; r < R; r++) {
         cplx<T> w = tw[r];
         w.y = -s * w.y;   /* the table is e^{-...}: conjugate for the inverse */
         u[r] = cmul(u[r], w);
      }
   }
   dft<T, R>(u, s);
   i64 o = (i - k) * R + k;
#pragma unroll
   for (int r = 0; r < R; r++)
      store<T>(a.dst, a.store, l, o + r * a.p, a.n, u[r]);
}

/* The same pass for a power-of-2 length over contiguous complex lines (the
 * passes inside a transform and a contiguous program's first and last):
 * shifts and masks instead of divisions, no layout arithmetic. */
template <class T, int R, int S> __device__ __forceinline__ void fpass_dir(const cf_pass_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 m = (i64)1 << a.lm;
   i64 l = g >> a.lm, i = g & (m - 1);
   i64 k = i & (((i64)1 << a.lp) - 1);
   const T s = (T)S;
   const cplx<T> *src = (const cplx<T> *)a.src.p + l * a.src.s0 + i;
   cplx<T> u[R];
#pragma unroll
   for (int r = 0; r < R; r++)
      u[r] = src[r * m];
   if (a.lp > 0) {
      const cplx<T> *tw = (const cplx<T> *)a.tw + k * (R - 1) - 1;
#pragma unroll
      for (int r = 1; r < R; r++) {
         cplx<T> w = tw[r];
         w.y = -s * w.y;
         u[r] = cmul(u[r], w);
      }
   }
   dft<T, R>(u, s);
   cplx<T> *dst = (cplx<T> *)a.dst.p + l * a.dst.s0 + ((i - k) * R + k);
#pragma unroll
   for (int r = 0; r < R; r++)
      dst[r << a.lp] = u[r];
}
/* the sign a constant in each copy: no multiplications by it */
template <class T, int R> __device__ __forceinline__ void fpass(const cf_pass_args &a)
{
   if (a.dir < 0)
      fpass_dir<T, R, -1>(a);
   else
      fpass_dir<T, R, 1>(a);
}

#define CF_PASS(R)                                                                                                  \
   extern "C" __global__ void cf_pass##R##_c(cf_pass_args a) { pass<float, R>(a); }                               \
   extern "C" __global__ void cf_pass##R##_z(cf_pass_args a) { pass<double, R>(a); }
#define CF_FPASS(R)                                                                                                 \
   extern "C" __global__ void cf_fpass##R##_c(cf_pass_args a) { fpass<float, R>(a); }                             \
   extern "C" __global__ void cf_fpass##R##_z(cf_pass_args a) { fpass<double, R>(a); }
CF_FPASS(2)
CF_FPASS(4)
CF_FPASS(8)
CF_FPASS(16)
CF_PASS(1)
CF_PASS(2)
CF_PASS(3)
CF_PASS(4)
CF_PASS(5)
CF_PASS(7)
CF_PASS(8)
CF_PASS(16)

/* ---- Bluestein: x w -> work, times B, w -> out ---- */

template <class T> __device__ __forceinline__ cplx<T> chirp(const cf_chirp_args &a, i64 e)
{
   cplx<T> w = ((const cplx<T> *)a.w)[e];
   if (a.dir > 0)
      w.y = -w.y;
   return w;
}

template <class T> __device__ __forceinline__ void chirp_in(const cf_chirp_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 l = g / a.m, e = g - l * a.m;
   cplx<T> v = cplx<T>{ 0, 0 };
   if (e < a.n)
      v = cmul(load<T>(a.src, a.load, l, e, a.n), chirp<T>(a, e));
   ((cplx<T> *)a.dst.p)[l * a.m + e] = v;
}

/* B is the forward filter's spectrum over m (symmetric), scaled by 1/m;
 * the inverse transform's filter is its conjugate. */
template <class T> __device__ __forceinline__ void chirp_mul(const cf_chirp_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 e = g % a.m;
   cplx<T> b = ((const cplx<T> *)a.b)[e];
   if (a.dir > 0)
      b.y = -b.y;
   cplx<T> *p = (cplx<T> *)a.dst.p;
   p[g] = cmul(p[g], b);
}

template <class T> __device__ __forceinline__ void chirp_out(const cf_chirp_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 l = g / a.n, e = g - l * a.n;
   cplx<T> v = cmul(((const cplx<T> *)a.src.p)[l * a.m + e], chirp<T>(a, e));
   store<T>(a.dst, a.store, l, e, a.n, v);
}

extern "C" __global__ void cf_chirp_in_c(cf_chirp_args a) { chirp_in<float>(a); }
extern "C" __global__ void cf_chirp_in_z(cf_chirp_args a) { chirp_in<double>(a); }
extern "C" __global__ void cf_chirp_mul_c(cf_chirp_args a) { chirp_mul<float>(a); }
extern "C" __global__ void cf_chirp_mul_z(cf_chirp_args a) { chirp_mul<double>(a); }
extern "C" __global__ void cf_chirp_out_c(cf_chirp_args a) { chirp_out<float>(a); }
extern "C" __global__ void cf_chirp_out_z(cf_chirp_args a) { chirp_out<double>(a); }

/* ---- real transforms of even length through complex ones of half ----
 * With z = x_even + i x_odd and Z its DFT of n/2, E_k = (Z_k + conj Z_{h-k})/2
 * and O_k = (Z_k - conj Z_{h-k})/(2i) are the DFTs of the even and odd
 * elements, and X_k = E_k + w^k O_k, w = e^{-2 pi i/n}, h = n/2.  C2R
 * inverts it: Z_k = (X_k + conj X_{h-k}) + i conj(w^k) (X_k - conj X_{h-k})
 * (twice, as the unnormalised inverse wants), X_0's and X_h's imaginary
 * parts ignored as the full transform ignores them. */
template <class T> __device__ __forceinline__ void r2c_post(const cf_half_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 h = a.n / 2, l = g / (h + 1), k = g - l * (h + 1);
   const cplx<T> *z = (const cplx<T> *)a.src.p + l * h;
   cplx<T> zk = z[k == h ? 0 : k], zm = z[k == 0 ? 0 : h - k];
   zm.y = -zm.y;
   cplx<T> e = cplx<T>{ (T)0.5 * (zk.x + zm.x), (T)0.5 * (zk.y + zm.y) };
   cplx<T> d = csub(zk, zm);
   cplx<T> o = cplx<T>{ (T)0.5 * d.y, (T)-0.5 * d.x };   /* d / (2i) */
   cplx<T> w = ((const cplx<T> *)a.w)[k];
   store<T>(a.dst, CF_STORE_C, l, k, a.n, cadd(e, cmul(w, o)));
}

template <class T> __device__ __forceinline__ void c2r_pre(const cf_half_args &a)
{
   i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x;
   if (g >= a.nthreads)
      return;
   i64 h = a.n / 2, l = g / h, k = g - l * h;
   cplx<T> xk = load<T>(a.src, CF_LOAD_C, l, k, a.n), xm = load<T>(a.src, CF_LOAD_C, l, h - k, a.n);
   if (k == 0) {
      xk.y = 0;
      xm.y = 0;
   }
   xm.y = -xm.y;
   cplx<T> s = cadd(xk, xm), d = csub(xk, xm);
   cplx<T> w = ((const cplx<T> *)a.w)[k];
   w.y = -w.y;
   cplx<T> t = cmul(w, d);
   ((cplx<T> *)a.dst.p)[l * h + k] = cplx<T>{ s.x - t.y, s.y + t.x };   /* s + i t */
}

extern "C" __global__ void cf_r2c_post_c(cf_half_args a) { r2c_post<float>(a); }
extern "C" __global__ void cf_r2c_post_z(cf_half_args a) { r2c_post<double>(a); }
extern "C" __global__ void cf_c2r_pre_c(cf_half_args a) { c2r_pre<float>(a); }
extern "C" __global__ void cf_c2r_pre_z(cf_half_args a) { c2r_pre<double>(a); }

/* ---- half-precision plans: the data to and from float ---- */
extern "C" __global__ void cf_h2f(cf_convert_args a)
{
   for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.n; i += (long long)gridDim.x * blockDim.x)
      ((float *)a.dst)[i] = __half2float(((const __half *)a.src)[i]);
}
extern "C" __global__ void cf_f2h(cf_convert_args a)
{
   for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.n; i += (long long)gridDim.x * blockDim.x)
      ((__half *)a.dst)[i] = __float2half(((const float *)a.src)[i]);
}
