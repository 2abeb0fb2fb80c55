/*
 * f64_math.cu — the CUDA Math API in double precision (issue 6): exp, log,
 * the trigonometric and hyperbolic functions, pow, erf, lgamma/tgamma,
 * the Bessel functions, fmod, hypot ... on a fixed set of a few hundred
 * inputs (special values, subnormals, huge arguments that take the slow
 * argument reduction such as sin(1e300), pow of negative bases with integer
 * exponents, the overflow and underflow thresholds of exp), compared bit for
 * bit with the table an NVIDIA GPU produced (f64_math_expected.h).
 *
 * These functions are libdevice code built from .f64 adds, multiplies and
 * fmas, so the results are exact functions of those instructions: a
 * software binary64 that rounds each one as the GPU does reproduces every
 * bit.  Any NaN matches any NaN (check.h's rule).
 *
 *   f64_math          checks against f64_math_expected.h: PASS/FAIL with the
 *                     first differing function and input
 *   f64_math --dump   prints the table as a C header (run on an NVIDIA GPU:
 *                     f64_math --dump > tests/cuda/f64_math_expected.h)
 *
 * A few (rsqrt, hypot, rhypot, the Bessel functions, erfcinv, normcdfinv,
 * asinh) also go through rsqrt.approx.f64 or rsqrt.approx.ftz.f64, whose
 * results are the GPU's own approximations: metalcuda matches them on
 * this table (prelude/f64.metal says how closely in general).
 *
 * Built by metalcuda's own nvcc (__METALCUDA__: our headers), the functions
 * are metalcuda's device library, not libdevice, so bits are not expected
 * to match: there each function's error is measured in ulps against the
 * correctly rounded values (f64_math_exact.h, from mpmath) and must stay
 * within CUDA's documented maximum (CUDA C++ Programming Guide, appendix
 * Mathematical Functions, double precision) -- or, on an input where the
 * H200 itself is further off, within the H200's error there.  The table
 * it prints (bit-identical to the H200, worst error ours and the H200's)
 * is the one in src/devlib/README.md.
 */
#include "check.h"

#include <math.h>

#if __has_include("f64_math_expected.h")
#include "f64_math_expected.h"
#define HAVE_EXPECTED 1
#else
#define HAVE_EXPECTED 0
#endif
#if defined(__METALCUDA__)
#include "f64_math_exact.h"
#endif

#define N1 256   /* inputs of the one-argument functions */
#define N2 192   /* argument pairs of the two-argument functions */

/* One-argument functions, in table order. */
#define UNARY(X)                                                                                        \
   X(exp) X(exp2) X(exp10) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) X(sincos_s)  \
   X(sincos_c) X(sinpi) X(cospi) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh)    \
   X(atanh) X(sqrt) X(cbrt) X(rsqrt) X(rcbrt) X(erf) X(erfc) X(erfinv) X(erfcinv) X(erfcx) X(normcdf)   \
   X(normcdfinv) X(lgamma) X(tgamma) X(j0) X(j1) X(y0) X(y1) X(logb) X(rint) X(round) X(floor) X(ceil) \
   X(trunc) X(frexp_m) X(modf_f)
/* Two-argument functions. */
#define BINARY(X) X(atan2) X(pow) X(fmod) X(remainder) X(hypot) X(fdim) X(fmax) X(fmin) X(nextafter) X(copysign) \
   X(ldexp) X(powi) X(jn) X(rhypot)

#if defined(__METALCUDA__)
/* CUDA's documented maximum error in ulps, in table order (CUDA C++
 * Programming Guide, "Double-Precision Floating-Point Functions"); a
 * negative entry is an absolute error (the Bessel functions beyond |x| = 8,
 * jn), lgamma's holds outside (-23.0001, -2.2637) only. */
static const double unary_bound[] = {
   1, 1, 1, 1, 1, 1, 1, 1,         /* exp exp2 exp10 expm1 log log2 log10 log1p */
   2, 2, 2, 2, 2, 2, 2,            /* sin cos tan sincos(s, c) sinpi cospi */
   2, 2, 2, 2, 1, 1, 3, 3, 2,      /* asin acos atan sinh cosh tanh asinh acosh atanh */
   0, 1, 1, 1,                     /* sqrt cbrt rsqrt rcbrt */
   2, 5, 5, 6, 4, 5, 8,            /* erf erfc erfinv erfcinv erfcx normcdf normcdfinv */
   4, 10,                          /* lgamma tgamma */
   7, 7, 7, 7,                     /* j0 j1 y0 y1 for |x| < 8 (beyond: 5e-12 absolute) */
   0, 0, 0, 0, 0, 0, 0, 0,         /* logb rint round floor ceil trunc frexp_m modf_f */
};
static const double binary_bound[] = {
   2, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2,   /* atan2 pow fmod remainder hypot fdim fmax fmin nextafter copysign ldexp powi */
   -2e-15, 1,                            /* jn (absolute), rhypot */
};
#endif

#define ENUM(f) F1_##f,
enum { UNARY(ENUM) NUNARY };
#undef ENUM
#define ENUM(f) F2_##f,
enum { BINARY(ENUM) NBINARY };
#undef ENUM
#define NAME(f) #f,
static const char *unary_names[] = { UNARY(NAME) };
static const char *binary_names[] = { BINARY(NAME) };

__device__ double apply1(int f, double x)
{
   double s, c;
   int e;
   switch (f) {
   case F1_exp: return exp(x);
   case F1_exp2: return exp2(x);
   case F1_exp10: return exp10(x);
   case F1_expm1: return expm1(x);
   case F1_log: return log(x);
   case F1_log2: return log2(x);
   case F1_log10: return log10(x);
   case F1_log1p: return log1p(x);
   case F1_sin: return sin(x);
   case F1_cos: return cos(x);
   case F1_tan: return tan(x);
   case F1_sincos_s: sincos(x, &s, &c); return s;
   case F1_sincos_c: sincos(x, &s, &c); return c;
   case F1_sinpi: return sinpi(x);
   case F1_cospi: return cospi(x);
   case F1_asin: return asin(x);
   case F1_acos: return acos(x);
   case F1_atan: return atan(x);
   case F1_sinh: return sinh(x);
   case F1_cosh: return cosh(x);
   case F1_tanh: return tanh(x);
   case F1_asinh: return asinh(x);
   case F1_acosh: return acosh(x);
   case F1_atanh: return atanh(x);
   case F1_sqrt: return sqrt(x);
   case F1_cbrt: return cbrt(x);
   case F1_rsqrt: return rsqrt(x);
   case F1_rcbrt: return rcbrt(x);
   case F1_erf: return erf(x);
   case F1_erfc: return erfc(x);
   case F1_erfinv: return erfinv(x);
   case F1_erfcinv: return erfcinv(x);
   case F1_erfcx: return erfcx(x);
   case F1_normcdf: return normcdf(x);
   case F1_normcdfinv: return normcdfinv(x);
   case F1_lgamma: return lgamma(x);
   case F1_tgamma: return tgamma(x);
   case F1_j0: return j0(x);
   case F1_j1: return j1(x);
   case F1_y0: return y0(x);
   case F1_y1: return y1(x);
   case F1_logb: return logb(x);
   case F1_rint: return rint(x);
   case F1_round: return round(x);
   case F1_floor: return floor(x);
   case F1_ceil: return ceil(x);
   case F1_trunc: return trunc(x);
   case F1_frexp_m: c = frexp(x, &e); return c + (double)e;   /* the exponent in the low bits */
   case F1_modf_f: c = modf(x, &s); return c - s;
   }
   return 0;
}

__device__ double apply2(int f, double x, double y)
{
   switch (f) {
   case F2_atan2: return atan2(x, y);
   case F2_pow: return pow(x, y);
   case F2_fmod: return fmod(x, y);
   case F2_remainder: return remainder(x, y);
   case F2_hypot: return hypot(x, y);
   case F2_fdim: return fdim(x, y);
   case F2_fmax: return fmax(x, y);
   case F2_fmin: return fmin(x, y);
   case F2_nextafter: return nextafter(x, y);
   case F2_copysign: return copysign(x, y);
   case F2_ldexp: return ldexp(x, (int)fmin(fmax(y, -3000.0), 3000.0));
   case F2_powi: return pow(x, (double)(int)fmin(fmax(y, -64.0), 64.0));
   case F2_jn: return jn((int)fmin(fmax(fabs(y), 0.0), 12.0), x);
   case F2_rhypot: return rhypot(x, y);
   }
   return 0;
}

/* Thread (f, i): function f on input i.  Results as bits. */
__global__ void math1(const double *x, unsigned long long *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= NUNARY * N1)
      return;
   out[i] = (unsigned long long)__double_as_longlong(apply1(i / N1, x[i % N1]));
}

__global__ void math2(const double *x, const double *y, unsigned long long *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= NBINARY * N2)
      return;
   out[i] = (unsigned long long)__double_as_longlong(apply2(i / N2, x[i % N2], y[i % N2]));
}

/* ---- inputs: a fixed list, then seeded values in several ranges ---- */

static uint64_t lcg(uint64_t *s)
{
   *s = *s * 6364136223846793005ull + 1442695040888963407ull;
   return *s >> 11;
}

static double bits_f64(uint64_t b)
{
   double d;
   memcpy(&d, &b, 8);
   return d;
}

static const double fixed_inputs[] = {
   0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 10.0, 0.1, 1e-10, -1e-10, 1e-20, 1e-300, -1e-300, 1e300, -1e300,
   1e22, 1e15 + 0.5, 1e5, -1e5, 709.782712893384, 709.79, 710.0, -708.4, -745.1332191019411, -745.2, -746.0,
   1024.0, -1075.0, 1023.99, 0.99999999999999989, 1.0000000000000002, -0.99999999999999989, -1.0000000000000002,
   3.141592653589793, 1.5707963267948966, 0.7853981633974483, 6.283185307179586, 355.0, 103993.0, 1e16, 2.5,
   -2.5, 0.25, 4.5, 171.6, 171.7, -171.5, 1e-5, 7.0, 20.0, 30.0, 100.0, -100.0, 0.9, -0.9, 0.999, -0.999999,
   1e-308, 4.9e-324, -4.9e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
   -1.7976931348623157e308, 8.98846567431158e307, 1.34078079299425971e154, 0.6931471805599453, 1e-7, 5e-324 * 3,
   -2.0, -0.1, 0.3, 19.5, -19.5, 1e10, 1e-15, 1e-17, 0.5 + 1e-16, 26.0, 27.5, 38.0, 40.0, -40.0, 1e200,
};

static void make_inputs(double *x1, double *x2, double *y2)
{
   const uint64_t specials[] = { 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 1ull << 52 };
   size_t n = 0;
   for (size_t k = 0; k < sizeof(fixed_inputs) / sizeof(fixed_inputs[0]); k++)
      x1[n++] = fixed_inputs[k];
   for (size_t k = 0; k < 4; k++)
      x1[n++] = bits_f64(specials[k]);
   uint64_t s = 0xf64f64f64ull;
   while (n < N1) {
      uint64_t r = lcg(&s);
      double m = 1.0 + (double)(lcg(&s) & ((1ull << 52) - 1)) * 0x1p-52;
      int range = (int)(r % 6);
      int e = range == 0 ? (int)((r >> 8) % 8) - 4              /* near 1 */
            : range == 1 ? (int)((r >> 8) % 40) - 20            /* moderate */
            : range == 2 ? (int)((r >> 8) % 2046) - 1022        /* anywhere */
            : range == 3 ? (int)((r >> 8) % 10)                  /* |x| < 1024: exp, gamma, Bessel ranges */
            : range == 4 ? (int)((r >> 8) % 60) - 62             /* tiny */
                         : (int)((r >> 8) % 3) - 2;              /* (0.25, 2): asin, acos, atanh, erfinv */
      double v = ldexp(m, e);
      x1[n++] = (r >> 40) & 1 ? -v : v;
   }
   /* pairs: a grid of interesting values, then seeded ones */
   static const double px[] = { 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -8.0, 0.5, 10.0, 1e300, -1e-300, 3.5,
                                INFINITY, -INFINITY, NAN };
   static const double py[] = { 0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 0.5, 1.0 / 3.0, 2.5, 1e300, -1e300, 1023.5,
                                INFINITY, -INFINITY, NAN };
   n = 0;
   for (size_t a = 0; a < 12 && n < N2; a++)
      for (size_t b = 0; b < 12 && n < N2; b++) {
         x2[n] = px[(a + b) % 15];
         y2[n++] = py[(a * 7 + b) % 15];
      }
   while (n < N2) {
      uint64_t r = lcg(&s);
      double mx = 1.0 + (double)(lcg(&s) & ((1ull << 52) - 1)) * 0x1p-52;
      double my = 1.0 + (double)(lcg(&s) & ((1ull << 52) - 1)) * 0x1p-52;
      int ex = (int)((r >> 8) % 60) - 30, ey = (int)((r >> 16) % 12) - 6;
      x2[n] = ldexp((r >> 40) & 1 ? -mx : mx, ex);
      /* pow of a negative base: integer exponents half the time */
      y2[n] = (r >> 41) & 1 ? (double)((int)((r >> 44) % 41) - 20) : ldexp((r >> 42) & 1 ? -my : my, ey);
      n++;
   }
}

#if HAVE_EXPECTED
static bool same(uint64_t got, uint64_t want)
{
   const uint64_t mag = ~(1ull << 63), inf = 0x7ff0000000000000ull;
   if ((got & mag) > inf && (want & mag) > inf)
      return true;   /* any NaN matches any NaN */
   return got == want;
}

/* One check per function; msg describes the first differing input. */
static void check_function(const char *name, int bad, const char *msg)
{
   if (bad)
      printf("    %s\n", msg);
   check_true(bad == 0, name, __FILE__, __LINE__);
}
#endif

#if defined(__METALCUDA__)
static double f64_of(unsigned long long b)
{
   double d;
   memcpy(&d, &b, 8);
   return d;
}

/* |got - want| in units of want's last place (2^-1074 at 0 and below the
 * normal range); 0 for equal non-finite values, infinite for a mismatch */
static double ulp_err(double got, double want)
{
   if (!isfinite(got) || !isfinite(want))
      return (isnan(got) && isnan(want)) || got == want ? 0.0 : INFINITY;
   double aw = fabs(want);
   int e;
   frexp(aw, &e);
   double u = aw < 0x1p-1022 ? 0x1p-1074 : ldexp(1.0, e - 53);
   return fabs(got - want) / u;
}

/* One function on n inputs: the share bit-identical to the H200, the worst
 * error ours and the H200's, and the check against the bound.  abs_from:
 * inputs with |x| >= abs_from are held to the absolute bound abs_bound. */
static void accuracy(const char *name, int n, const unsigned long long *got, const unsigned long long *gpu,
                     const unsigned long long *exact, const double *x, double bound, double abs_from,
                     double abs_bound, double skip_lo, double skip_hi, const char *bound_text)
{
   int same_bits = 0, bad = 0, first = -1;
   double worst = 0, worst_gpu = 0, worst_abs = 0;
   for (int i = 0; i < n; i++) {
      double g = f64_of(got[i]), h = f64_of(gpu[i]), w = f64_of(exact[i]);
      same_bits += same(got[i], gpu[i]);
      bool absolute = fabs(x[i]) >= abs_from;
      double e = absolute && isfinite(g) && isfinite(w) ? fabs(g - w) : ulp_err(g, w);
      double eg = absolute && isfinite(h) && isfinite(w) ? fabs(h - w) : ulp_err(h, w);
      if (absolute)
         worst_abs = fmax(worst_abs, e);
      else {
         worst = fmax(worst, e);
         worst_gpu = fmax(worst_gpu, eg);
      }
      bool skip = x[i] > skip_lo && x[i] < skip_hi;
      double limit = fmax(absolute ? abs_bound : bound, eg);
      if (!skip && !(e <= limit) && !bad++)
         first = i;
   }
   printf("  | %-10s | %5.1f%% | %7.3g | %7.3g | %s |\n", name, 100.0 * same_bits / n, worst, worst_gpu, bound_text);
   char msg[300];
   if (bad)
      snprintf(msg, sizeof(msg), "%s: %d of %d inputs beyond the bound; first %s(%a) = %a, correctly rounded %a, H200 %a",
               name, bad, n, name, x[first], f64_of(got[first]), f64_of(exact[first]), f64_of(gpu[first]));
   check_function(name, bad, msg);
   (void)worst_abs;
}
#endif

int main(int argc, char **argv)
{
   bool dumping = argc > 1 && !strcmp(argv[1], "--dump");
   check_begin("f64_math");
   static double x1[N1], x2[N2], y2[N2];
   static unsigned long long r1[NUNARY * N1], r2[NBINARY * N2];
   make_inputs(x1, x2, y2);
   if (argc > 1 && !strcmp(argv[1], "--inputs")) {   /* for tools/gen_f64_math_exact.py */
      const char **un = unary_names, **bn = binary_names;
      for (int f = 0; f < NUNARY; f++)
         printf("%s%s", un[f], f + 1 < NUNARY ? " " : "\n");
      for (int f = 0; f < NBINARY; f++)
         printf("%s%s", bn[f], f + 1 < NBINARY ? " " : "\n");
      for (int i = 0; i < N1; i++)
         printf("%a%s", x1[i], i + 1 < N1 ? " " : "\n");
      for (int i = 0; i < N2; i++)
         printf("%a%s", x2[i], i + 1 < N2 ? " " : "\n");
      for (int i = 0; i < N2; i++)
         printf("%a%s", y2[i], i + 1 < N2 ? " " : "\n");
      return 0;
   }
   fill_u64(r1, NUNARY * N1, SENTINEL64);
   fill_u64(r2, NBINARY * N2, SENTINEL64);
   double *dx1, *dx2, *dy2;
   unsigned long long *dr1, *dr2;
   REQUIRE_CUDA(cudaMalloc(&dx1, sizeof(x1)));
   REQUIRE_CUDA(cudaMalloc(&dx2, sizeof(x2)));
   REQUIRE_CUDA(cudaMalloc(&dy2, sizeof(y2)));
   REQUIRE_CUDA(cudaMalloc(&dr1, sizeof(r1)));
   REQUIRE_CUDA(cudaMalloc(&dr2, sizeof(r2)));
   CHECK_CUDA(cudaMemcpy(dx1, x1, sizeof(x1), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dx2, x2, sizeof(x2), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dy2, y2, sizeof(y2), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dr1, r1, sizeof(r1), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dr2, r2, sizeof(r2), cudaMemcpyHostToDevice));
   math1<<<(NUNARY * N1 + 127) / 128, 128>>>(dx1, dr1);
   math2<<<(NBINARY * N2 + 127) / 128, 128>>>(dx2, dy2, dr2);
   cudaError_t launched = cudaGetLastError();
   cudaError_t synced = launched == cudaSuccess ? cudaDeviceSynchronize() : launched;
   if (!CHECK_CUDA(synced))
      return check_end();
   CHECK_CUDA(cudaMemcpy(r1, dr1, sizeof(r1), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(r2, dr2, sizeof(r2), cudaMemcpyDeviceToHost));
   if (dumping) {
      printf("/* f64_math_expected.h — written by `f64_math --dump` on an NVIDIA GPU; do not edit. */\n");
      struct cudaDeviceProp p;
      int drv = 0;
      cudaGetDeviceProperties(&p, 0);
      cudaDriverGetVersion(&drv);
      printf("/* produced on: %s, CUDA driver %d */\n", p.name, drv);
      printf("#define F64_MATH_EXPECTED_N1 %d\n#define F64_MATH_EXPECTED_N2 %d\n", N1, N2);
      printf("#define F64_MATH_EXPECTED_NUNARY %d\n#define F64_MATH_EXPECTED_NBINARY %d\n", NUNARY, NBINARY);
      printf("static const unsigned long long f64_math_expected1[] = {\n");
      for (int i = 0; i < NUNARY * N1; i++)
         printf("%s0x%016llx,%s", i % 4 ? " " : "   ", r1[i], i % 4 == 3 ? "\n" : "");
      printf("};\nstatic const unsigned long long f64_math_expected2[] = {\n");
      for (int i = 0; i < NBINARY * N2; i++)
         printf("%s0x%016llx,%s", i % 4 ? " " : "   ", r2[i], i % 4 == 3 ? "\n" : "");
      printf("};\n");
      return 0;
   }
#if HAVE_EXPECTED && defined(__METALCUDA__)
   /* metalcuda's device library: ulps against the correctly rounded values */
   if (!CHECK(F64_MATH_EXACT_N1 == N1 && F64_MATH_EXACT_N2 == N2 && F64_MATH_EXACT_NUNARY == NUNARY &&
              F64_MATH_EXACT_NBINARY == NBINARY && F64_MATH_EXPECTED_N1 == N1 && F64_MATH_EXPECTED_N2 == N2))
      return check_end();
   printf("  | function | bit-identical to the H200 | max ulp (ours) | max ulp (H200) | CUDA's bound |\n");
   printf("  |---|---:|---:|---:|---|\n");
   for (int f = 0; f < NUNARY; f++) {
      bool bessel = f == F1_j0 || f == F1_j1 || f == F1_y0 || f == F1_y1;
      char text[64];
      snprintf(text, sizeof(text), "%g%s", unary_bound[f],
               bessel ? " below 8, 5e-12 absolute beyond" : f == F1_lgamma ? " outside (-23.0001, -2.2637)" : "");
      accuracy(unary_names[f], N1, r1 + f * N1, f64_math_expected1 + f * N1, f64_math_exact1 + f * N1, x1,
               unary_bound[f], bessel ? 8.0 : INFINITY, 5e-12, f == F1_lgamma ? -23.0001 : 0,
               f == F1_lgamma ? -2.2637 : 0, text);
   }
   for (int f = 0; f < NBINARY; f++) {
      double b = binary_bound[f];
      /* jn's bound is absolute everywhere; its order comes from y, the argument is x */
      char text[64];
      snprintf(text, sizeof(text), b < 0 ? "%g absolute" : "%g", fabs(b));
      accuracy(binary_names[f], N2, r2 + f * N2, f64_math_expected2 + f * N2, f64_math_exact2 + f * N2, x2,
               b < 0 ? 0 : b, b < 0 ? 0.0 : INFINITY, -b, 0, 0, text);
   }
#elif HAVE_EXPECTED
   if (!CHECK(F64_MATH_EXPECTED_N1 == N1 && F64_MATH_EXPECTED_N2 == N2 && F64_MATH_EXPECTED_NUNARY == NUNARY &&
              F64_MATH_EXPECTED_NBINARY == NBINARY))
      return check_end();
   char msg[400];
   for (int f = 0; f < NUNARY; f++) {
      int bad = 0, first = -1;
      for (int i = 0; i < N1; i++)
         if (!same(r1[f * N1 + i], f64_math_expected1[f * N1 + i]) && !bad++)
            first = i;
      if (bad)
         snprintf(msg, sizeof(msg), "%s: %d of %d inputs differ; first %s(%a) = 0x%016llx, the GPU gave 0x%016llx",
                  unary_names[f], bad, N1, unary_names[f], x1[first], r1[f * N1 + first], f64_math_expected1[f * N1 + first]);
      check_function(unary_names[f], bad, msg);
   }
   for (int f = 0; f < NBINARY; f++) {
      int bad = 0, first = -1;
      for (int i = 0; i < N2; i++)
         if (!same(r2[f * N2 + i], f64_math_expected2[f * N2 + i]) && !bad++)
            first = i;
      if (bad)
         snprintf(msg, sizeof(msg), "%s: %d of %d inputs differ; first %s(%a, %a) = 0x%016llx, the GPU gave 0x%016llx",
                  binary_names[f], bad, N2, binary_names[f], x2[first], y2[first], r2[f * N2 + first],
                  f64_math_expected2[f * N2 + first]);
      check_function(binary_names[f], bad, msg);
   }
#else
   CHECK(!"tests/cuda/f64_math_expected.h is missing: run f64_math --dump on an NVIDIA GPU");
#endif
   return check_end();
}
