/*
 * intrinsics.cu — device functions whose semantics a compiler's headers
 * decide, not PTX: the SIMD video intrinsics (__vadd2, __vcmpgeu4,
 * __vsads2 ... all 82), min/max on unsigned, long long and mixed
 * operands, unsigned atomicMin/atomicMax at block and system scope (values
 * above INT_MAX, where a signed comparison differs), and __frsqrt_rn
 * (correctly rounded).  The host references are per-lane loops written
 * from the CUDA Math API's descriptions, and an exact integer test of
 * 1/sqrt against float midpoints.
 */
#include "check.h"

/* name, per-lane expression over unsigned lanes ua/ub and signed sa/sb of
 * W bits, with LO/HI the signed range and UMAX the unsigned maximum.  The
 * host evaluates the expression; the device calls the intrinsic. */
#define SIMD_LIST(X)                                                                 \
   X(__vadd, ua + ub) X(__vaddss, clampi(sa + sb, LO, HI))                           \
   X(__vaddus, ua + ub > UMAX ? UMAX : ua + ub) X(__vsub, ua - ub)                   \
   X(__vsubss, clampi(sa - sb, LO, HI)) X(__vsubus, ua > ub ? ua - ub : 0u)          \
   X(__vavgs, (int)round((sa + sb) / 2.0)) X(__vavgu, (ua + ub + 1) / 2)         \
   X(__vhaddu, (ua + ub) / 2) X(__vmaxs, sa > sb ? sa : sb)                          \
   X(__vmaxu, ua > ub ? ua : ub) X(__vmins, sa < sb ? sa : sb)                       \
   X(__vminu, ua < ub ? ua : ub) X(__vcmpeq, ua == ub ? UMAX : 0u)                   \
   X(__vcmpne, ua != ub ? UMAX : 0u) X(__vcmpges, sa >= sb ? UMAX : 0u)              \
   X(__vcmpgeu, ua >= ub ? UMAX : 0u) X(__vcmpgts, sa > sb ? UMAX : 0u)              \
   X(__vcmpgtu, ua > ub ? UMAX : 0u) X(__vcmples, sa <= sb ? UMAX : 0u)              \
   X(__vcmpleu, ua <= ub ? UMAX : 0u) X(__vcmplts, sa < sb ? UMAX : 0u)              \
   X(__vcmpltu, ua < ub ? UMAX : 0u) X(__vseteq, ua == ub) X(__vsetne, ua != ub)     \
   X(__vsetges, sa >= sb) X(__vsetgeu, ua >= ub) X(__vsetgts, sa > sb)               \
   X(__vsetgtu, ua > ub) X(__vsetles, sa <= sb) X(__vsetleu, ua <= ub)               \
   X(__vsetlts, sa < sb) X(__vsetltu, ua < ub)
/* one operand (b unused) */
#define SIMD1_LIST(X) X(__vneg, -sa) X(__vnegss, clampi(-sa, LO, HI))
#define SIMD_COUNT (2 * (33 + 2) + 3)   /* both widths of both lists, __vabs2, __vabsss2, __vsads2 */
/* The rest: nvcc's forms are PTX video instructions (vabsdiff4,
 * vabsdiff2.add, vabsdiff4.add), in a kernel of their own. */
#define VIDEO_COUNT 7
#define MINMAX_W 16
#define N 4000

__global__ void simd(int n, const unsigned *a, const unsigned *b, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i], *o = out + i * SIMD_COUNT;
   int k = 0;
#define DEV2(name, expr) o[k++] = name##2(x, y); o[k++] = name##4(x, y);
#define DEV1(name, expr) o[k++] = name##2(x); o[k++] = name##4(x);
   SIMD_LIST(DEV2)
   SIMD1_LIST(DEV1)
   o[k++] = __vabs2(x);
   o[k++] = __vabsss2(x);
   o[k++] = __vsads2(x, y);
}

__global__ void simd_video(int n, const unsigned *a, const unsigned *b, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i], *o = out + i * VIDEO_COUNT;
   o[0] = __vabs4(x);
   o[1] = __vabsss4(x);
   o[2] = __vabsdiffs4(x, y);
   o[3] = __vabsdiffu4(x, y);
   o[4] = __vsads4(x, y);
   o[5] = __vsadu2(x, y);
   o[6] = __vsadu4(x, y);
}

/* min and max through CUDA's overloads: the operand types pick the compare */
__global__ void minmax(int n, const unsigned *a, const unsigned *b, unsigned long long *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i];
   int sx = (int)x, sy = (int)y;
   long long lx = (long long)sx * (1ll << 20), ly = (long long)sy * (1ll << 20);
   unsigned long long *o = out + i * MINMAX_W;
   o[0] = min(x, y);
   o[1] = max(x, y);
   o[2] = min(sx, y);                 /* int, unsigned: unsigned */
   o[3] = max(x, sy);
   o[4] = (unsigned long long)min(sx, sy);
   o[5] = (unsigned long long)max(sx, sy);
   o[6] = (unsigned long long)min(lx, ly);
   o[7] = (unsigned long long)max(lx, ly);
   o[8] = min((unsigned long long)lx, (unsigned long long)ly);
   o[9] = max((unsigned long long)lx, (unsigned long long)ly);
   o[10] = min(lx, (unsigned long long)ly);   /* long long, unsigned long long: unsigned */
   o[11] = max((unsigned long long)lx, ly);
   float fx = (float)sx, fy = (float)sy;
   o[12] = __float_as_uint(min(fx, fy));
   o[13] = __float_as_uint(max(fx, fy));
   o[14] = __double_as_longlong(min((double)fx, fy));
   o[15] = __double_as_longlong(max(fx, (double)fy));
}

/* every thread folds its value into the four words at each scope */
__global__ void scoped_atomics(int n, const unsigned *a, unsigned *w32, unsigned long long *w64)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned v = a[i];
   unsigned long long v64 = (unsigned long long)v << 31 | (v & 0xff);
   atomicMin_block(&w32[0], v);
   atomicMax_block(&w32[1], v);
   atomicMin_system(&w32[2], v);
   atomicMax_system(&w32[3], v);
   atomicMin_block(&w64[0], v64);
   atomicMax_block(&w64[1], v64);
   atomicMin_system(&w64[2], v64);
   atomicMax_system(&w64[3], v64);
}

__global__ void rsqrt_rn(int n, const float *x, float *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = __frsqrt_rn(x[i]);
}

/* ---- host references ---- */

static int iabs(int v) { return v < 0 ? -v : v; }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static unsigned lane_u(unsigned v, int w, int s) { return (v >> s) & ((1u << w) - 1u); }
static int lane_s(unsigned v, int w, int s)
{
   unsigned u = lane_u(v, w, s);
   return u & (1u << (w - 1)) ? (int)u - (1 << w) : (int)u;
}

static unsigned ref_lanes1(unsigned x, int w, bool sat);
static unsigned ref_sad(unsigned x, unsigned y, int w, bool is_signed);

#define REF_LANES(expr)                                                               \
   for (int s = 0; s < 32; s += w) {                                                 \
      unsigned ua = lane_u(x, w, s), ub = lane_u(y, w, s);                           \
      int sa = lane_s(x, w, s), sb = lane_s(y, w, s);                                \
      (void)ua, (void)ub, (void)sa, (void)sb;                                        \
      r |= ((unsigned)(expr) & UMAX) << s;                                           \
   }
static void ref_simd(unsigned x, unsigned y, unsigned *o)
{
   int k = 0;
#define REF(name, expr)                                                               \
   for (int w = 16; w >= 8; w -= 8) {                                                \
      const int LO = -(1 << (w - 1)), HI = (1 << (w - 1)) - 1;                        \
      const unsigned UMAX = (1u << w) - 1u;                                          \
      unsigned r = 0;                                                                \
      (void)LO, (void)HI;                                                            \
      REF_LANES(expr)                                                                \
      o[k++] = r;                                                                    \
   }
   SIMD_LIST(REF)
   SIMD1_LIST(REF)
   o[k++] = ref_lanes1(x, 16, 0);
   o[k++] = ref_lanes1(x, 16, 1);
   o[k++] = ref_sad(x, y, 16, true);
}

/* |lane| (sat: clamped to the signed maximum) of each lane of W bits */
static unsigned ref_lanes1(unsigned x, int w, bool sat)
{
   unsigned r = 0;
   for (int s = 0; s < 32; s += w) {
      int v = iabs(lane_s(x, w, s)), hi = (1 << (w - 1)) - 1;
      r |= ((unsigned)(sat && v > hi ? hi : v) & ((1u << w) - 1u)) << s;
   }
   return r;
}

/* per-lane absolute differences (sum: added up instead) */
static unsigned ref_absdiff(unsigned x, unsigned y, int w, bool is_signed, bool sum)
{
   unsigned r = 0;
   for (int s = 0; s < 32; s += w) {
      long d = is_signed ? (long)lane_s(x, w, s) - lane_s(y, w, s) : (long)lane_u(x, w, s) - (long)lane_u(y, w, s);
      unsigned ad = (unsigned)(d < 0 ? -d : d);
      r += sum ? ad : (ad & ((1u << w) - 1u)) << s;
   }
   return r;
}
static unsigned ref_sad(unsigned x, unsigned y, int w, bool is_signed) { return ref_absdiff(x, y, w, is_signed, true); }

static void ref_video(unsigned x, unsigned y, unsigned *o)
{
   o[0] = ref_lanes1(x, 8, false);
   o[1] = ref_lanes1(x, 8, true);
   o[2] = ref_absdiff(x, y, 8, true, false);
   o[3] = ref_absdiff(x, y, 8, false, false);
   o[4] = ref_sad(x, y, 8, true);
   o[5] = ref_sad(x, y, 16, false);
   o[6] = ref_sad(x, y, 8, false);
}

static uint64_t f64_bits_of(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

static void ref_minmax(unsigned x, unsigned y, unsigned long long *o)
{
   int sx = (int)x, sy = (int)y;
   long long lx = (long long)sx * (1ll << 20), ly = (long long)sy * (1ll << 20);
   unsigned long long ulx = (unsigned long long)lx, uly = (unsigned long long)ly;
   o[0] = x < y ? x : y;
   o[1] = x > y ? x : y;
   o[2] = o[0];
   o[3] = o[1];
   o[4] = (unsigned long long)(long long)(sx < sy ? sx : sy);
   o[5] = (unsigned long long)(long long)(sx > sy ? sx : sy);
   o[6] = (unsigned long long)(lx < ly ? lx : ly);
   o[7] = (unsigned long long)(lx > ly ? lx : ly);
   o[8] = ulx < uly ? ulx : uly;
   o[9] = ulx > uly ? ulx : uly;
   o[10] = o[8];
   o[11] = o[9];
   float fx = (float)sx, fy = (float)sy;   /* no NaNs: plain compares */
   o[12] = f32_bits(fx < fy ? fx : fy);
   o[13] = f32_bits(fx > fy ? fx : fy);
   o[14] = f64_bits_of(fx < fy ? (double)fx : (double)fy);
   o[15] = f64_bits_of(fx > fy ? (double)fx : (double)fy);
}

/* Is 1/sqrt(x) above m?  x = X 2^ex, m = M 2^em with integer X, M, so
 * x m^2 < 1 is X M^2 < 2^-(ex + 2 em), exact in 128-bit integers. */
static bool rsqrt_above(float x, double m)
{
   int ex, em;
   double fx = frexp((double)x, &ex), fm = frexp(m, &em);
   unsigned __int128 X = (unsigned __int128)ldexp(fx, 24), M = (unsigned __int128)ldexp(fm, 26);
   int k = (ex - 24) + 2 * (em - 26);
   if (k >= 0)
      return false;
   return X * M * M < ((unsigned __int128)1 << -k);
}

/* The float nearest 1/sqrt(x): a neighbour of a close guess, chosen by
 * the exact midpoint tests. */
static float ref_rsqrt(float x)
{
   if (x != x || x < 0.0f)
      return bits_f32(0x7fffffffu);
   if (x == 0.0f)
      return f32_bits(x) ? -INFINITY : INFINITY;
   if (isinf(x))
      return 0.0f;
   float y = (float)(1.0L / sqrtl((long double)x));
   for (;;) {
      float up = bits_f32(f32_bits(y) + 1), dn = bits_f32(f32_bits(y) - 1);
      if (rsqrt_above(x, 0.5 * ((double)y + (double)up)))
         y = up;
      else if (!rsqrt_above(x, 0.5 * ((double)y + (double)dn)))
         y = dn;
      else
         return y;
   }
}

int main(void)
{
   check_begin("intrinsics");
   unsigned *a = (unsigned *)malloc(N * 4), *b = (unsigned *)malloc(N * 4);
   /* lanes at the edges of both widths: 0, 1, the signed extremes, all ones */
   static const unsigned special[] = { 0, 1, 0x7f7f7f7fu, 0x80808080u, 0xffffffffu, 0x7fff8000u, 0x80007fffu,
                                       0x00ff01feu, 0xfe01ff00u, 0x12345678u };
   const int ns = sizeof(special) / sizeof(special[0]);
   for (int i = 0; i < N; i++) {
      a[i] = i < ns * ns ? special[i / ns] : mix32((uint32_t)i);
      b[i] = i < ns * ns ? special[i % ns] : mix32((uint32_t)i * 7u + 3u);
   }
   unsigned *da, *db;
   REQUIRE_CUDA(cudaMalloc(&da, N * 4));
   REQUIRE_CUDA(cudaMalloc(&db, N * 4));
   REQUIRE_CUDA(cudaMemcpy(da, a, N * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(db, b, N * 4, cudaMemcpyHostToDevice));

   /* SIMD */
   {
      unsigned *dout = (unsigned *)dev_alloc_fill32((size_t)N * SIMD_COUNT);
      CHECK(dout != NULL);
      simd<<<(N + 127) / 128, 128>>>(N, da, db, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      unsigned *got = (unsigned *)malloc((size_t)N * SIMD_COUNT * 4), want[SIMD_COUNT];
      CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * SIMD_COUNT * 4, cudaMemcpyDeviceToHost));
      static const char *const names[SIMD_COUNT] = {
#define NAME2(name, expr) #name "2", #name "4",
         SIMD_LIST(NAME2) SIMD1_LIST(NAME2) "__vabs2", "__vabsss2", "__vsads2",
      };
      int bad = 0;
      for (int i = 0; i < N; i++) {
         ref_simd(a[i], b[i], want);
         for (int k = 0; k < SIMD_COUNT; k++)
            if (got[i * SIMD_COUNT + k] != want[k] && bad++ < 16)
               printf("    %s(%#x, %#x): got %#x, expected %#x\n", names[k], a[i], b[i], got[i * SIMD_COUNT + k],
                      want[k]);
      }
      check_int(bad, 0, "SIMD results that differ from the host reference (the first are shown above)", __FILE__,
                __LINE__);
      cudaFree(dout);
      free(got);
   }

   /* the functions nvcc writes as video instructions */
   {
      unsigned *dout = (unsigned *)dev_alloc_fill32((size_t)N * VIDEO_COUNT);
      CHECK(dout != NULL);
      simd_video<<<(N + 127) / 128, 128>>>(N, da, db, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      unsigned *got = (unsigned *)malloc((size_t)N * VIDEO_COUNT * 4), want[VIDEO_COUNT];
      CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * VIDEO_COUNT * 4, cudaMemcpyDeviceToHost));
      static const char *const names[VIDEO_COUNT] = { "__vabs4", "__vabsss4", "__vabsdiffs4", "__vabsdiffu4",
                                                      "__vsads4", "__vsadu2", "__vsadu4" };
      int bad = 0;
      for (int i = 0; i < N; i++) {
         ref_video(a[i], b[i], want);
         for (int k = 0; k < VIDEO_COUNT; k++)
            if (got[i * VIDEO_COUNT + k] != want[k] && bad++ < 16)
               printf("    %s(%#x, %#x): got %#x, expected %#x\n", names[k], a[i], b[i], got[i * VIDEO_COUNT + k],
                      want[k]);
      }
      check_int(bad, 0, "SIMD (video) results that differ from the host reference", __FILE__, __LINE__);
      free(got);
      cudaFree(dout);
   }

   /* min/max overloads */
   {
      unsigned long long *dout;
      REQUIRE_CUDA(cudaMalloc(&dout, (size_t)N * MINMAX_W * 8));
      REQUIRE_CUDA(cudaMemset(dout, 0xde, (size_t)N * MINMAX_W * 8));
      minmax<<<(N + 127) / 128, 128>>>(N, da, db, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      unsigned long long *got = (unsigned long long *)malloc((size_t)N * MINMAX_W * 8), want[MINMAX_W];
      CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * MINMAX_W * 8, cudaMemcpyDeviceToHost));
      static const char *const names[MINMAX_W] = {
         "min(u,u)", "max(u,u)", "min(int,u)", "max(u,int)", "min(int,int)", "max(int,int)", "min(ll,ll)",
         "max(ll,ll)", "min(ull,ull)", "max(ull,ull)", "min(ll,ull)", "max(ull,ll)", "min(f,f)", "max(f,f)",
         "min(d,f)", "max(f,d)",
      };
      int bad = 0;
      for (int i = 0; i < N; i++) {
         ref_minmax(a[i], b[i], want);
         for (int k = 0; k < MINMAX_W; k++)
            if (got[i * MINMAX_W + k] != want[k] && bad++ < 16)
               printf("    %s(%#x, %#x): got %#llx, expected %#llx\n", names[k], a[i], b[i],
                      got[i * MINMAX_W + k], want[k]);
      }
      check_int(bad, 0, "min/max results that differ from the host reference", __FILE__, __LINE__);
      cudaFree(dout);
      free(got);
   }

   /* unsigned atomicMin/atomicMax at block and system scope: one block, so
    * block scope covers every thread */
   {
      const int n = 1024;
      unsigned *dw32;
      unsigned long long *dw64;
      unsigned w32[4] = { 0xffffffffu, 0, 0xffffffffu, 0 };
      unsigned long long w64[4] = { ~0ull, 0, ~0ull, 0 };
      REQUIRE_CUDA(cudaMalloc(&dw32, sizeof(w32)));
      REQUIRE_CUDA(cudaMalloc(&dw64, sizeof(w64)));
      REQUIRE_CUDA(cudaMemcpy(dw32, w32, sizeof(w32), cudaMemcpyHostToDevice));
      REQUIRE_CUDA(cudaMemcpy(dw64, w64, sizeof(w64), cudaMemcpyHostToDevice));
      scoped_atomics<<<1, n>>>(n, da + ns * ns, dw32, dw64);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(w32, dw32, sizeof(w32), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(w64, dw64, sizeof(w64), cudaMemcpyDeviceToHost));
      unsigned lo = 0xffffffffu, hi = 0;
      unsigned long long lo64 = ~0ull, hi64 = 0;
      for (int i = 0; i < n; i++) {
         unsigned v = a[ns * ns + i];
         unsigned long long v64 = (unsigned long long)v << 31 | (v & 0xff);
         lo = v < lo ? v : lo, hi = v > hi ? v : hi;
         lo64 = v64 < lo64 ? v64 : lo64, hi64 = v64 > hi64 ? v64 : hi64;
      }
      CHECK(hi > 0x80000000u && lo < 0x80000000u);   /* the inputs straddle INT_MAX */
      CHECK_INT(w32[0], lo);
      CHECK_INT(w32[1], hi);
      CHECK_INT(w32[2], lo);
      CHECK_INT(w32[3], hi);
      CHECK_INT(w64[0], lo64);
      CHECK_INT(w64[1], hi64);
      CHECK_INT(w64[2], lo64);
      CHECK_INT(w64[3], hi64);
      cudaFree(dw32);
      cudaFree(dw64);
   }

   /* __frsqrt_rn: specials, operands where 1/sqrtf(x) (two roundings) is
    * wrong, every binade, subnormals */
   {
      const int n = 4096;
      float *x = (float *)malloc(n * 4), *got = (float *)malloc(n * 4), *dx, *dout;
      static const uint32_t fixed[] = { 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                        0xbf800000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu,
                                        0x3f800000u, 0x40800000u, 0x3f800025u, 0x3f800027u };
      const int nf = sizeof(fixed) / sizeof(fixed[0]);
      for (int i = 0; i < n; i++)
         x[i] = bits_f32(i < nf ? fixed[i] : mix32((uint32_t)i) & 0x7fffffffu);
      for (int i = nf; i < n; i++)   /* keep them finite */
         if (!isfinite(x[i]))
            x[i] = bits_f32(f32_bits(x[i]) & 0x3fffffffu);
      REQUIRE_CUDA(cudaMalloc(&dx, n * 4));
      dout = (float *)dev_alloc_fill32(n);
      CHECK(dout != NULL);
      REQUIRE_CUDA(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
      rsqrt_rn<<<n / 256, 256>>>(n, dx, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, n * 4, cudaMemcpyDeviceToHost));
      int bad = 0, twice = 0;
      for (int i = 0; i < n; i++) {
         float want = ref_rsqrt(x[i]);
         bool same = f32_bits(got[i]) == f32_bits(want) || (got[i] != got[i] && want != want);
         if (!same && bad++ < 8)
            printf("    __frsqrt_rn(%a): got %a (%#x), expected %a (%#x)\n", x[i], got[i], f32_bits(got[i]), want,
                   f32_bits(want));
         twice += isfinite(x[i]) && x[i] > 0 && f32_bits(1.0f / sqrtf(x[i])) != f32_bits(want);
      }
      check_int(bad, 0, "__frsqrt_rn results that differ from the exact reference", __FILE__, __LINE__);
      CHECK(twice > 100);   /* the inputs do tell a doubly rounded 1/sqrtf apart */
      cudaFree(dx);
      cudaFree(dout);
      free(x), free(got);
   }

   cudaFree(da), cudaFree(db);
   free(a), free(b);
   return check_end();
}
