/*
 * params.cu — kernel parameters: every scalar type and size, their
 * alignment in the parameter block, structs by value (mixed field sizes,
 * padding, an __align__(16) struct), CUDA vector types, pointers, a bool.
 * Large by-value parameters are bigparams.cu's; packing bytes into words is
 * bytes.cu's.
 *
 * Each kernel writes what it received as 32-bit words; the host knows what
 * it passed.
 */
#include "check.h"

struct Mixed {
   char c;
   short s;
   int i;
   long long ll;
   float f;
   unsigned char b[3];
   unsigned short us;
};

struct __align__(16) Aligned {
   int tag;
   float v[3];
   char last;
};

#define SCALAR_W 40

__global__ void scalars(char c, unsigned char uc, short s, unsigned short us, int i, unsigned u, long long ll,
                        unsigned long long ull, float f, bool b, const int *ptr, Mixed m, char c2, Aligned a,
                        float4 f4, int2 i2, char3 c3, double2 *unused, short s2, unsigned *out)
{
   unsigned w[SCALAR_W];
   w[0] = (unsigned)(int)c;
   w[1] = uc;
   w[2] = (unsigned)(int)s;
   w[3] = us;
   w[4] = (unsigned)i;
   w[5] = u;
   w[6] = (unsigned)ll;
   w[7] = (unsigned)(ll >> 32);
   w[8] = (unsigned)ull;
   w[9] = (unsigned)(ull >> 32);
   w[10] = __float_as_uint(f);
   w[11] = b ? 1u : 0u;
   w[12] = (unsigned)ptr[0];
   w[13] = (unsigned)ptr[1];
   w[14] = (unsigned)(int)m.c;
   w[15] = (unsigned)(int)m.s;
   w[16] = (unsigned)m.i;
   w[17] = (unsigned)m.ll;
   w[18] = (unsigned)(m.ll >> 32);
   w[19] = __float_as_uint(m.f);
   w[20] = m.b[0] + m.b[2] * 1000u;   /* bytes.cu packs bytes */
   w[21] = m.us;
   w[22] = (unsigned)(int)c2;
   w[23] = (unsigned)a.tag;
   w[24] = __float_as_uint(a.v[0]);
   w[25] = __float_as_uint(a.v[2]);
   w[26] = (unsigned)(int)a.last;
   w[27] = __float_as_uint(f4.x);
   w[28] = __float_as_uint(f4.w);
   w[29] = (unsigned)i2.x;
   w[30] = (unsigned)i2.y;
   w[31] = (unsigned)((int)c3.x * 1000 + (int)c3.z);
   w[32] = (unsigned)(unused != 0);
   w[33] = (unsigned)(int)s2;
   w[34] = __float_as_uint(f4.y + f4.z);
   w[35] = (unsigned)c + (unsigned)s + (unsigned)i;   /* sign extension, wrapping */
   w[36] = (unsigned)(uc + us);
   w[37] = (unsigned)(int)(c3.y);
   w[38] = (unsigned)(ll * 3);
   w[39] = (unsigned)((ull >> 1) / 3u);
   unsigned t = threadIdx.x;
   if (t < SCALAR_W)
      out[t] = w[t];
}

int main(void)
{
   check_begin("params");
   int hp[2] = { -424242, 31337 };
   int *dp;
   REQUIRE_CUDA(cudaMalloc(&dp, sizeof(hp)));
   REQUIRE_CUDA(cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice));

   Mixed m;
   memset(&m, 0x5a, sizeof(m));   /* padding holds junk, as it may in real programs */
   m.c = -7;
   m.s = -32768;
   m.i = -2;
   m.ll = 0x0123456789abcdefll;
   m.f = -1.25e-7f;
   m.b[0] = 0xfe, m.b[1] = 0x01, m.b[2] = 0x80;
   m.us = 65535;
   Aligned a;
   memset(&a, 0xa5, sizeof(a));
   a.tag = 99;
   a.v[0] = 1.0f, a.v[1] = 2.0f, a.v[2] = -3.5f;
   a.last = -128;
   float4 f4 = make_float4(1.5f, 2.25f, -8.0f, 3.0e38f);
   int2 i2 = make_int2(-1, 2147483647);
   char3 c3 = make_char3(-1, 100, -100);
   long long ll = -81985529216486896ll;   /* 0xfedcba9876543210 */
   unsigned long long ull = 0x8000000000000001ull;
   char c = -128;
   unsigned char uc = 255;
   short s = -12345;
   unsigned short us = 54321;
   int i = -2147483647;
   unsigned u = 4000000000u;
   float f = 3.14159274f;

   unsigned *dout = (unsigned *)dev_alloc_fill32(64), got[64], want[SCALAR_W];
   CHECK(dout != NULL);
   scalars<<<1, 64>>>(c, uc, s, us, i, u, ll, ull, f, true, dp, m, 'z', a, f4, i2, c3, NULL, -2, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   want[0] = (unsigned)-128;
   want[1] = 255;
   want[2] = (unsigned)-12345;
   want[3] = 54321;
   want[4] = (unsigned)-2147483647;
   want[5] = 4000000000u;
   want[6] = 0x76543210u;
   want[7] = 0xfedcba98u;
   want[8] = 1;
   want[9] = 0x80000000u;
   want[10] = f32_bits(f);
   want[11] = 1;
   want[12] = (unsigned)-424242;
   want[13] = 31337;
   want[14] = (unsigned)-7;
   want[15] = (unsigned)-32768;
   want[16] = (unsigned)-2;
   want[17] = 0x89abcdefu;
   want[18] = 0x01234567u;
   want[19] = f32_bits(-1.25e-7f);
   want[20] = 0xfeu + 0x80u * 1000u;
   want[21] = 65535;
   want[22] = 'z';
   want[23] = 99;
   want[24] = f32_bits(1.0f);
   want[25] = f32_bits(-3.5f);
   want[26] = (unsigned)-128;
   want[27] = f32_bits(1.5f);
   want[28] = f32_bits(3.0e38f);
   want[29] = (unsigned)-1;
   want[30] = 2147483647u;
   want[31] = (unsigned)(-1 * 1000 + -100);
   want[32] = 0;
   want[33] = (unsigned)-2;
   want[34] = f32_bits(2.25f + -8.0f);
   want[35] = (unsigned)-128 + (unsigned)-12345 + (unsigned)-2147483647;
   want[36] = 255u + 54321u;
   want[37] = 100;
   want[38] = (unsigned)((unsigned long long)ll * 3u);
   want[39] = (unsigned)((ull >> 1) / 3u);
   CHECK_ARRAY_U32("scalar parameters", got, want, SCALAR_W);
   for (int k = SCALAR_W; k < 64; k++)
      CHECK_INT(got[k], SENTINEL32);

   cudaFree(dp), cudaFree(dout);
   return check_end();
}
