/*
 * bits.cu — bit and byte manipulation as nvcc emits it: packing and
 * unpacking bytes (prmt), __byte_perm, bit-field extract and insert (bfe,
 * bfi), __popc, __clz, __ffs, __brev and their 64-bit forms, funnel shifts
 * (shf), and uchar4 / short2 arithmetic.  The host references are plain C
 * loops over bits, written independently of the intrinsics.
 */
#include "check.h"

#define BITS_W 24

__global__ void bits(int n, const unsigned *a, const unsigned *b, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i];
   unsigned long long xy = (unsigned long long)x << 32 | y;
   unsigned *o = out + i * BITS_W;
   o[0] = __popc(x);
   o[1] = __clz(x);
   o[2] = __ffs(x);
   o[3] = __brev(x);
   o[4] = __popcll(xy);
   o[5] = __clzll(xy >> (y & 63));
   o[6] = __ffsll(xy << (x & 63));
   o[7] = (unsigned)(__brevll(xy) >> 16);
   o[8] = __byte_perm(x, y, 0x3210);
   o[9] = __byte_perm(x, y, 0x7654);
   o[10] = __byte_perm(x, y, 0x1357);
   o[11] = __byte_perm(x, y, y & 0xffff);        /* selector from data */
   o[12] = (x >> 8) & 0xff;                      /* bfe-like */
   o[13] = (x >> (y & 15)) & ((1u << 9) - 1);
   o[14] = (unsigned)(((int)x << 7) >> 20);      /* signed field */
   o[15] = (x & ~(0x3fu << 10)) | ((y & 0x3fu) << 10);   /* bfi-like */
   o[16] = __funnelshift_l(y, x, y & 31);
   o[17] = __funnelshift_r(y, x, x & 31);
   o[18] = __funnelshift_lc(y, x, 40);
   o[19] = (x << (y & 31)) | (x >> ((32 - (y & 31)) & 31));   /* rotate */
   uchar4 c = make_uchar4(x & 0xff, x >> 8 & 0xff, x >> 16 & 0xff, x >> 24);
   uchar4 d = make_uchar4(y & 0xff, y >> 8 & 0xff, y >> 16 & 0xff, y >> 24);
   uchar4 s = make_uchar4(c.x + d.x, c.y + d.y, c.z - d.z, c.w ^ d.w);
   o[20] = s.x | s.y << 8 | s.z << 16 | (unsigned)s.w << 24;   /* pack */
   o[21] = c.w | c.z << 8 | c.y << 16 | (unsigned)c.x << 24;   /* byte swap */
   short2 h = make_short2((short)(x & 0xffff), (short)(x >> 16));
   o[22] = (unsigned)(h.x * (int)h.y);
   o[23] = (unsigned short)(h.x + h.y) | (unsigned)(unsigned short)(h.x - h.y) << 16;
}

/* ---- host references, one bit or byte at a time ---- */

static unsigned ref_popc64(unsigned long long v)
{
   unsigned k = 0;
   for (; v; v >>= 1)
      k += (unsigned)(v & 1);
   return k;
}

static unsigned ref_clz64(unsigned long long v, int width)
{
   unsigned k = 0;
   for (int b = width - 1; b >= 0 && !(v >> b & 1); b--)
      k++;
   return k;
}

static unsigned ref_ffs64(unsigned long long v)
{
   for (int b = 0; b < 64; b++)
      if (v >> b & 1)
         return (unsigned)b + 1;
   return 0;
}

static unsigned long long ref_brev64(unsigned long long v, int width)
{
   unsigned long long r = 0;
   for (int b = 0; b < width; b++)
      if (v >> b & 1)
         r |= 1ull << (width - 1 - b);
   return r;
}

/* CUDA's __byte_perm: bytes 0-3 of x then 0-3 of y; selector nibbles. */
static unsigned ref_byte_perm(unsigned x, unsigned y, unsigned s)
{
   unsigned char bytes[8];
   for (int k = 0; k < 4; k++) {
      bytes[k] = (unsigned char)(x >> (8 * k));
      bytes[k + 4] = (unsigned char)(y >> (8 * k));
   }
   unsigned r = 0;
   for (int k = 0; k < 4; k++)
      r |= (unsigned)bytes[(s >> (4 * k)) & 7] << (8 * k);
   return r;
}

/* Funnel shifts on the 64-bit value hi:lo. */
static unsigned ref_shl(unsigned lo, unsigned hi, unsigned sh)
{
   unsigned long long v = (unsigned long long)hi << 32 | lo;
   return (unsigned)((v << sh) >> 32);
}

static unsigned ref_shr(unsigned lo, unsigned hi, unsigned sh)
{
   unsigned long long v = (unsigned long long)hi << 32 | lo;
   return (unsigned)(v >> sh);
}

int main(void)
{
   check_begin("bits");
   const int n = 3001;
   unsigned *a = (unsigned *)malloc(n * 4), *b = (unsigned *)malloc(n * 4);
   static const unsigned special[] = { 0, 1, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0x00010000u, 0x12345678u, 0xdeadbeefu };
   const int ns = sizeof(special) / sizeof(special[0]);
   for (int i = 0; i < n; i++) {
      a[i] = i < ns * ns ? special[i / ns] : mix32((uint32_t)i) >> (i % 9);
      b[i] = i < ns * ns ? special[i % ns] : mix32((uint32_t)i * 3u + 1u);
   }
   unsigned *da, *db, *dout = (unsigned *)dev_alloc_fill32(n * BITS_W);
   REQUIRE_CUDA(cudaMalloc(&da, n * 4));
   REQUIRE_CUDA(cudaMalloc(&db, n * 4));
   REQUIRE_CUDA(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
   CHECK(dout != NULL);
   bits<<<(n + 127) / 128, 128>>>(n, da, db, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned *got = (unsigned *)malloc(n * BITS_W * 4), *want = (unsigned *)malloc(n * BITS_W * 4);
   CHECK_CUDA(cudaMemcpy(got, dout, n * BITS_W * 4, cudaMemcpyDeviceToHost));

   for (int i = 0; i < n; i++) {
      unsigned x = a[i], y = b[i], *w = want + i * BITS_W;
      unsigned long long xy = (unsigned long long)x << 32 | y;
      w[0] = ref_popc64(x);
      w[1] = ref_clz64(x, 32);
      w[2] = ref_ffs64(x);
      w[3] = (unsigned)ref_brev64(x, 32);
      w[4] = ref_popc64(xy);
      w[5] = ref_clz64(xy >> (y & 63), 64);
      w[6] = ref_ffs64(xy << (x & 63));
      w[7] = (unsigned)(ref_brev64(xy, 64) >> 16);
      w[8] = ref_byte_perm(x, y, 0x3210);
      w[9] = ref_byte_perm(x, y, 0x7654);
      w[10] = ref_byte_perm(x, y, 0x1357);
      w[11] = ref_byte_perm(x, y, y & 0xffff);
      w[12] = 0;
      w[13] = 0;
      for (int k = 0; k < 8; k++)
         w[12] |= (x >> (8 + k) & 1) << k;
      for (int k = 0; k < 9; k++)
         w[13] |= (x >> ((y & 15) + k) & 1) << k;
      unsigned field = (x >> 13) & 0xfff;   /* bits 13..24, sign-extended */
      w[14] = field & 0x800 ? field | 0xfffff000u : field;
      w[15] = x;
      for (int k = 0; k < 6; k++)
         w[15] = (w[15] & ~(1u << (10 + k))) | (y >> k & 1) << (10 + k);
      w[16] = ref_shl(y, x, y & 31);
      w[17] = ref_shr(y, x, x & 31);
      w[18] = ref_shl(y, x, 32);   /* the clamped form stops at 32 */
      w[19] = 0;
      for (int k = 0; k < 32; k++)
         w[19] |= (x >> k & 1) << ((k + (y & 31)) % 32);
      unsigned char s[4] = { (unsigned char)((x & 0xff) + (y & 0xff)), (unsigned char)((x >> 8 & 0xff) + (y >> 8 & 0xff)),
                             (unsigned char)((x >> 16 & 0xff) - (y >> 16 & 0xff)), (unsigned char)((x >> 24) ^ (y >> 24)) };
      w[20] = 0;
      for (int k = 0; k < 4; k++)
         w[20] |= (unsigned)s[k] << (8 * k);
      w[21] = (x >> 24) | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | x << 24;
      int hx = (int)(x & 0xffff) - (x & 0x8000 ? 0x10000 : 0), hy = (int)(x >> 16) - (x & 0x80000000u ? 0x10000 : 0);
      w[22] = (unsigned)(hx * hy);
      w[23] = ((unsigned)(hx + hy) & 0xffffu) | ((unsigned)(hx - hy) & 0xffffu) << 16;
   }
   static const char *const names[BITS_W] = {
      "popc", "clz", "ffs", "brev", "popcll", "clzll", "ffsll", "brevll", "byte_perm 3210", "byte_perm 7654",
      "byte_perm 1357", "byte_perm data", "(x>>8)&0xff", "9-bit field", "signed field", "insert 6 bits",
      "funnelshift_l", "funnelshift_r", "funnelshift_lc 40", "rotate", "uchar4 pack", "byte swap", "short mul",
      "short2 add/sub",
   };
   int bad = 0;
   for (int i = 0; i < n * BITS_W; i++)
      if (got[i] != want[i] && bad++ < 16)
         printf("    a=%#x b=%#x %s: got %#x, expected %#x\n", a[i / BITS_W], b[i / BITS_W], names[i % BITS_W], got[i], want[i]);
   check_int(bad, 0, "results that differ from the host reference (the first are shown above)", __FILE__, __LINE__);

   cudaFree(da), cudaFree(db), cudaFree(dout);
   free(a), free(b), free(got), free(want);
   return check_end();
}
