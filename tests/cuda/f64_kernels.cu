/*
 * f64_kernels.cu — double precision in ordinary kernels, bit for bit
 * against the host's IEEE 754 arithmetic: an fma-based DAXPY, CUDA's
 * directed-rounding intrinsics (__dadd_rd, __dmul_ru, __ddiv_rz, __dsqrt_rn,
 * __fma_rd, __drcp_ru ...) and conversions (__double2float_r?, __double2int_r?,
 * __ll2double_r? ...) in every mode, a block reduction through shared memory
 * and warp shuffles of doubles, and a tiled DGEMM.
 *
 * The host computes the same operations in the same order (fesetround for
 * the directed modes, volatile operands so nothing is folded at compile
 * time, fma() from the C library), so every result is compared exactly.
 * Conversions need no rounding mode on the host (trunc/floor/ceil/rint, and
 * exact 128-bit integer arithmetic).  A host whose FPU ignores fesetround
 * (valgrind's emulation does) cannot give the directed-mode references of
 * the arithmetic, and its fma there loses the sign of a zero that
 * underflowed: those checks are then not made and the program reports SKIP,
 * with every other check still made.
 * The operands mix random values with subnormals, huge values, exact ties
 * and cancelling pairs.
 */
#include "check.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 4096

static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next64(void)
{
   rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
   return rng;
}

/* A double from a mix of shapes: random bits (finite), subnormals, values
 * near 1, huge and tiny exponents, small integers and halves (exact ties). */
static double pick(void)
{
   uint64_t r = next64();
   switch (r % 8) {
   case 0: return u2d(r & 0x000fffffffffffffull) * ((r >> 60) & 1 ? -1 : 1);               /* subnormal */
   case 1: return u2d(0x3ff0000000000000ull | (r >> 12)) - ((r >> 3) & 1 ? 1.0 : 0.0);       /* [0, 2) */
   case 2: return ldexp((double)(int64_t)(r >> 11) / 9007199254740992.0, (int)((r >> 4) % 2000) - 1000);
   case 3: return (double)((int)(r % 2001) - 1000) * 0.5;                                     /* ties */
   case 4: return ldexp(1.0 + (double)(r >> 40) / 16777216.0, 1000 + (int)(r % 24));        /* huge */
   default: {
      uint64_t u = r & 0x7fefffffffffffffull;
      if ((u >> 52) == 0x7ff) u &= ~(1ull << 62);
      return u2d(u | (r & 0x8000000000000000ull));
   }
   }
}

/* ---- 1. DAXPY with an explicit fma ---- */

__global__ void daxpy(double a, const double *x, double *y, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      y[i] = fma(a, x[i], y[i]);
}

/* ---- 2. directed-rounding intrinsics: 4 modes x 8 operations ---- */

enum { R_ADD, R_SUB, R_MUL, R_DIV, R_FMA, R_SQRT, R_RCP, R_F32, NR };

__global__ void rounded(const double *a, const double *b, const double *c, double *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   double x = a[i], y = b[i], z = c[i];
   double *o = out + (size_t)i * NR * 4;
   o[R_ADD * 4 + 0] = __dadd_rn(x, y); o[R_ADD * 4 + 1] = __dadd_rz(x, y);
   o[R_ADD * 4 + 2] = __dadd_rd(x, y); o[R_ADD * 4 + 3] = __dadd_ru(x, y);
   o[R_SUB * 4 + 0] = __dsub_rn(x, y); o[R_SUB * 4 + 1] = __dsub_rz(x, y);
   o[R_SUB * 4 + 2] = __dsub_rd(x, y); o[R_SUB * 4 + 3] = __dsub_ru(x, y);
   o[R_MUL * 4 + 0] = __dmul_rn(x, y); o[R_MUL * 4 + 1] = __dmul_rz(x, y);
   o[R_MUL * 4 + 2] = __dmul_rd(x, y); o[R_MUL * 4 + 3] = __dmul_ru(x, y);
   o[R_DIV * 4 + 0] = __ddiv_rn(x, y); o[R_DIV * 4 + 1] = __ddiv_rz(x, y);
   o[R_DIV * 4 + 2] = __ddiv_rd(x, y); o[R_DIV * 4 + 3] = __ddiv_ru(x, y);
   o[R_FMA * 4 + 0] = __fma_rn(x, y, z); o[R_FMA * 4 + 1] = __fma_rz(x, y, z);
   o[R_FMA * 4 + 2] = __fma_rd(x, y, z); o[R_FMA * 4 + 3] = __fma_ru(x, y, z);
   double ax = fabs(x);
   o[R_SQRT * 4 + 0] = __dsqrt_rn(ax); o[R_SQRT * 4 + 1] = __dsqrt_rz(ax);
   o[R_SQRT * 4 + 2] = __dsqrt_rd(ax); o[R_SQRT * 4 + 3] = __dsqrt_ru(ax);
   o[R_RCP * 4 + 0] = __drcp_rn(x); o[R_RCP * 4 + 1] = __drcp_rz(x);
   o[R_RCP * 4 + 2] = __drcp_rd(x); o[R_RCP * 4 + 3] = __drcp_ru(x);
   o[R_F32 * 4 + 0] = __double2float_rn(x); o[R_F32 * 4 + 1] = __double2float_rz(x);
   o[R_F32 * 4 + 2] = __double2float_rd(x); o[R_F32 * 4 + 3] = __double2float_ru(x);
}

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* Whether the host FPU rounds as fesetround says (1 + 2^-60 upward is not 1). */
static bool host_honours_rounding(void)
{
   volatile double one = 1.0, tiny = 0x1p-60, r;
   fesetround(FE_UPWARD);
   r = one + tiny;
   fesetround(FE_TONEAREST);
   return r > 1.0;
}

static double host_rounded(int op, double x, double y, double z, int m)
{
   volatile double vx = x, vy = y, vz = z, r;
   fesetround(fe_modes[m]);
   switch (op) {
   case R_ADD: r = vx + vy; break;
   case R_SUB: r = vx - vy; break;
   case R_MUL: r = vx * vy; break;
   case R_DIV: r = vx / vy; break;
   case R_FMA: r = fma(vx, vy, vz); break;
   case R_SQRT: r = sqrt(fabs(vx)); break;
   case R_RCP: r = 1.0 / vx; break;
   default: { volatile float f = (float)vx; r = f; break; }
   }
   fesetround(FE_TONEAREST);
   return r;
}

/* ---- 3. conversions between double and integers ---- */

enum { C_I_RN, C_I_RZ, C_I_RD, C_I_RU, C_LL_RN, C_LL_RZ, C_U_RU, C_ULL_RD, C_LL2D_RN, C_LL2D_RZ, C_LL2D_RD,
       C_LL2D_RU, C_ULL2D_RU, C_I2D, NC };

__global__ void conversions(const double *a, const long long *v, unsigned long long *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   double x = a[i];
   long long w = v[i];
   unsigned long long *o = out + (size_t)i * NC;
   o[C_I_RN] = (unsigned)__double2int_rn(x);
   o[C_I_RZ] = (unsigned)__double2int_rz(x);
   o[C_I_RD] = (unsigned)__double2int_rd(x);
   o[C_I_RU] = (unsigned)__double2int_ru(x);
   o[C_LL_RN] = (unsigned long long)__double2ll_rn(x);
   o[C_LL_RZ] = (unsigned long long)__double2ll_rz(x);
   o[C_U_RU] = __double2uint_ru(x);
   o[C_ULL_RD] = __double2ull_rd(x);
   o[C_LL2D_RN] = __double_as_longlong(__ll2double_rn(w));
   o[C_LL2D_RZ] = __double_as_longlong(__ll2double_rz(w));
   o[C_LL2D_RD] = __double_as_longlong(__ll2double_rd(w));
   o[C_LL2D_RU] = __double_as_longlong(__ll2double_ru(w));
   o[C_ULL2D_RU] = __double_as_longlong(__ull2double_ru((unsigned long long)w));
   o[C_I2D] = __double_as_longlong((double)(int)w);
}

/* The host's conversion of x rounded in mode m to an integer of [lo, hi]
 * (saturating as the PTX cvt does); NaN is never an operand here. */
static double host_round(double x, int m)
{
   return m == 0 ? rint(x) : m == 1 ? trunc(x) : m == 2 ? floor(x) : ceil(x);   /* rint: to nearest even */
}
static long long sat_ll(double r, double lo, double hi, long long ilo, long long ihi)
{
   return r <= lo ? ilo : r >= hi ? ihi : (long long)r;
}
/* An integer (128-bit: int64 and uint64 alike) as a double rounded in mode
 * m: the nearest double, then moved one step if the mode wants the other
 * side of the exact value (a double with an integer value converts to
 * __int128 exactly). */
static unsigned long long host_ll2d(long long w, bool is_unsigned, int m)
{
   __int128 v = is_unsigned ? (__int128)(unsigned long long)w : (__int128)w;
   double d = is_unsigned ? (double)(unsigned long long)w : (double)w;   /* to nearest */
   __int128 dv = (__int128)d;
   if (m == 1 && (v < 0 ? dv < v : dv > v))
      d = nextafter(d, 0.0);
   else if (m == 2 && dv > v)
      d = nextafter(d, -INFINITY);
   else if (m == 3 && dv < v)
      d = nextafter(d, INFINITY);
   return d2u(d);
}

static unsigned long long host_conversion(int k, double x, long long w)
{
   switch (k) {
   case C_I_RN: case C_I_RZ: case C_I_RD: case C_I_RU:
      return (unsigned)(int)sat_ll(host_round(x, k - C_I_RN), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX);
   case C_LL_RN: case C_LL_RZ:
      return (unsigned long long)sat_ll(host_round(x, k - C_LL_RN), -9223372036854775808.0, 9223372036854775807.0,
                                        INT64_MIN, INT64_MAX);
   case C_U_RU: {
      double r = host_round(x, 3);
      return r <= 0 ? 0 : r >= 4294967295.0 ? 4294967295u : (unsigned)r;
   }
   case C_ULL_RD: {
      double r = host_round(x, 2);
      return r <= 0 ? 0 : r >= 18446744073709551615.0 ? ~0ull : (unsigned long long)r;
   }
   case C_LL2D_RN: case C_LL2D_RZ: case C_LL2D_RD: case C_LL2D_RU:
      return host_ll2d(w, false, k - C_LL2D_RN);
   case C_ULL2D_RU:
      return host_ll2d(w, true, 3);
   default:
      return d2u((double)(int)w);
   }
}

/* ---- 4. block reduction: grid-stride sums, warp shuffles, shared memory ---- */

#define RBLOCK 256
#define RGRID 8

__global__ void reduce(const double *x, int n, double *partial)
{
   __shared__ double warp_sums[RBLOCK / 32];
   double s = 0.0;
   for (int i = blockIdx.x * RBLOCK + threadIdx.x; i < n; i += RGRID * RBLOCK)
      s = __dadd_rn(s, x[i]);
   for (int off = 16; off > 0; off /= 2)
      s = __dadd_rn(s, __shfl_down_sync(0xffffffffu, s, off));
   if (threadIdx.x % 32 == 0)
      warp_sums[threadIdx.x / 32] = s;
   __syncthreads();
   if (threadIdx.x == 0) {
      double t = 0.0;
      for (int w = 0; w < RBLOCK / 32; w++)
         t = __dadd_rn(t, warp_sums[w]);
      partial[blockIdx.x] = t;
   }
}

static double host_reduce_block(const double *x, int n, int b)
{
   double lane[RBLOCK];
   for (int t = 0; t < RBLOCK; t++) {
      volatile double s = 0.0;
      for (int i = b * RBLOCK + t; i < n; i += RGRID * RBLOCK)
         s = s + x[i];
      lane[t] = s;
   }
   for (int off = 16; off > 0; off /= 2) {
      double next[RBLOCK];
      for (int t = 0; t < RBLOCK; t++) {
         volatile double v = (t % 32) + off < 32 ? lane[t + off] : lane[t];   /* out of the warp: its own value */
         volatile double s = lane[t] + v;
         next[t] = s;
      }
      memcpy(lane, next, sizeof(lane));
   }
   volatile double total = 0.0;
   for (int w = 0; w < RBLOCK / 32; w++)
      total = total + lane[w * 32];
   return total;
}

/* ---- 5. DGEMM 64x64x64, 16x16 shared tiles, fma in k order ---- */

#define GN 64
#define TILE 16

__global__ void dgemm(const double *A, const double *B, double *C)
{
   __shared__ double As[TILE][TILE], Bs[TILE][TILE];
   int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
   double acc = 0.0;
   for (int k0 = 0; k0 < GN; k0 += TILE) {
      As[threadIdx.y][threadIdx.x] = A[row * GN + k0 + threadIdx.x];
      Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * GN + col];
      __syncthreads();
      for (int k = 0; k < TILE; k++)
         acc = fma(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
      __syncthreads();
   }
   C[row * GN + col] = acc;
}

template <typename T> static T *to_dev(const T *h, size_t n)
{
   T *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, n * sizeof(T)));
   CHECK_CUDA(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}

static void check_bits(const char *what, const double *got, const double *want, size_t n)
{
   static uint64_t g[N * NR * 4], w[N * NR * 4];
   for (size_t i = 0; i < n; i++) {
      g[i] = d2u(got[i]);
      w[i] = d2u(want[i]);
   }
   CHECK_ARRAY_U64(what, g, w, n);
}

int main(void)
{
   check_begin("f64_kernels");
   static double a[N], b[N], c[N], y[N], want[N * NR * 4], got[N * NR * 4];
   static long long v[N];
   static uint64_t cgot[N * NC], cwant[N * NC];
   for (int i = 0; i < N; i++) {
      a[i] = pick();
      b[i] = pick();
      c[i] = i % 5 == 0 ? -a[i] * b[i] : pick();   /* near-cancelling fma */
      y[i] = pick();
      uint64_t r = next64();
      v[i] = i % 3 == 0 ? (long long)(r >> (r % 64)) * (r & 1 ? -1 : 1) : (long long)r;
   }
   a[0] = 3.0; b[0] = 0.0; a[1] = -0.0; b[1] = 0.0;   /* a few exact specials: x/0, -0 */

   /* 1 */
   double *dx = to_dev(a, N), *dy = to_dev(y, N);
   daxpy<<<N / 256, 256>>>(1.0000000000000002, dx, dy, N);
   CHECK_CUDA(cudaMemcpy(got, dy, sizeof(y), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = fma(1.0000000000000002, a[i], y[i]);
   check_bits("daxpy", got, want, N);

   /* 2 */
   double *db = to_dev(b, N), *dc = to_dev(c, N), *dout;
   CHECK_CUDA(cudaMalloc(&dout, sizeof(got)));
   rounded<<<N / 256, 256>>>(dx, db, dc, dout, N);
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   static const char *const names[NR] = { "dadd", "dsub", "dmul", "ddiv", "fma", "dsqrt", "drcp", "double2float" };
   bool directed = host_honours_rounding();
   int modes = directed ? 4 : 1;
   for (int op = 0; op < NR; op++) {
      static double g1[N * 4], w1[N * 4];
      if (!directed && op == R_FMA)
         continue;
      for (int i = 0; i < N; i++)
         for (int m = 0; m < modes; m++) {
            g1[i * modes + m] = got[(size_t)i * NR * 4 + op * 4 + m];
            w1[i * modes + m] = host_rounded(op, a[i], b[i], c[i], m);
         }
      char what[64];
      snprintf(what, sizeof(what), "__%s_r%s (%d per operand)", names[op], directed ? "{n,z,d,u}" : "n", modes);
      check_bits(what, g1, w1, (size_t)N * modes);
   }

   /* 3 */
   long long *dv = to_dev(v, N);
   unsigned long long *dcv;
   CHECK_CUDA(cudaMalloc(&dcv, sizeof(cgot)));
   conversions<<<N / 256, 256>>>(dx, dv, dcv, N);
   CHECK_CUDA(cudaMemcpy(cgot, dcv, sizeof(cgot), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      for (int k = 0; k < NC; k++)
         cwant[(size_t)i * NC + k] = host_conversion(k, a[i], v[i]);
   CHECK_ARRAY_U64("double <-> integer conversions (14 per operand)", cgot, cwant, (size_t)N * NC);

   /* 4: values of one sign and similar size, so that the sum's rounding matters but stays finite */
   static double r[N];
   for (int i = 0; i < N; i++)
      r[i] = ldexp(1.0 + (double)(next64() >> 12) / 4503599627370496.0, (int)(next64() % 40) - 20);
   double *dr = to_dev(r, N), *dpart;
   CHECK_CUDA(cudaMalloc(&dpart, RGRID * sizeof(double)));
   reduce<<<RGRID, RBLOCK>>>(dr, N, dpart);
   double pgot[RGRID], pwant[RGRID];
   CHECK_CUDA(cudaMemcpy(pgot, dpart, sizeof(pgot), cudaMemcpyDeviceToHost));
   for (int blk = 0; blk < RGRID; blk++)
      pwant[blk] = host_reduce_block(r, N, blk);
   check_bits("block reduction (shuffles of doubles)", pgot, pwant, RGRID);

   /* 5 */
   static double A[GN * GN], B[GN * GN], C[GN * GN], Cw[GN * GN];
   for (int i = 0; i < GN * GN; i++) {
      A[i] = (double)(int64_t)(next64() >> 11) / 9007199254740992.0 - 0.5;
      B[i] = (double)(int64_t)(next64() >> 11) / 9007199254740992.0 - 0.5;
   }
   double *dA = to_dev(A, GN * GN), *dB = to_dev(B, GN * GN), *dC;
   CHECK_CUDA(cudaMalloc(&dC, sizeof(C)));
   dgemm<<<dim3(GN / TILE, GN / TILE), dim3(TILE, TILE)>>>(dA, dB, dC);
   CHECK_CUDA(cudaMemcpy(C, dC, sizeof(C), cudaMemcpyDeviceToHost));
   for (int i = 0; i < GN; i++)
      for (int j = 0; j < GN; j++) {
         double acc = 0.0;
         for (int k = 0; k < GN; k++)
            acc = fma(A[i * GN + k], B[k * GN + j], acc);
         Cw[i * GN + j] = acc;
      }
   check_bits("dgemm 64x64x64", C, Cw, GN * GN);

   cudaFree(dx); cudaFree(dy); cudaFree(db); cudaFree(dc); cudaFree(dout); cudaFree(dv); cudaFree(dcv);
   cudaFree(dr); cudaFree(dpart); cudaFree(dA); cudaFree(dB); cudaFree(dC);
   if (!directed && check_failed_ == 0) {
      printf("SKIP f64_kernels: %ld checks hold; the _rz/_rd/_ru arithmetic and __fma_rn were not checked: "
             "this host's FPU ignores fesetround (valgrind's does)\n", check_count_);
      return 0;
   }
   return check_end();
}
