/*
 * md2.c — MD2 (RFC 1319) and HMAC-MD2 (RFC 2104 with MD2's 16-byte block).
 *
 * Nothing in metalcuda would choose MD2; NVIDIA's runtime does: its
 * integrity check asks the driver for a keyed MD2 of values both sides know
 * (src/api/driver/darkapi/integrity.c), and recomputes it.
 *
 * S is RFC 1319's "random permutation based on the digits of pi": the
 * table below is what tools/gen_md2_sbox.py derives from pi's decimal
 * digits, and the digests it gives are RFC 1319's test suite
 * (tests/unit/test_darkapi.c checks them, and against libnettle's MD2
 * when that is installed).
 */
#include "util.h"

#include <string.h>

static const uint8_t md2_s[256] = {
    41,  46,  67, 201, 162, 216, 124,   1,  61,  54,  84, 161, 236, 240,   6,  19,
    98, 167,   5, 243, 192, 199, 115, 140, 152, 147,  43, 217, 188,  76, 130, 202,
    30, 155,  87,  60, 253, 212, 224,  22, 103,  66, 111,  24, 138,  23, 229,  18,
   190,  78, 196, 214, 218, 158, 222,  73, 160, 251, 245, 142, 187,  47, 238, 122,
   169, 104, 121, 145,  21, 178,   7,  63, 148, 194,  16, 137,  11,  34,  95,  33,
   128, 127,  93, 154,  90, 144,  50,  39,  53,  62, 204, 231, 191, 247, 151,   3,
   255,  25,  48, 179,  72, 165, 181, 209, 215,  94, 146,  42, 172,  86, 170, 198,
    79, 184,  56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116,   4, 241,
    69, 157, 112,  89, 100, 113, 135,  32, 134,  91, 207, 101, 230,  45, 168,   2,
    27,  96,  37, 173, 174, 176, 185, 246,  28,  70,  97, 105,  52,  64, 126,  15,
    85,  71, 163,  35, 221,  81, 175,  58, 195,  92, 249, 206, 186, 197, 234,  38,
    44,  83,  13, 110, 133,  40, 132,   9, 211, 223, 205, 244,  65, 129,  77,  82,
   106, 220,  55, 200, 108, 193, 171, 250,  36, 225, 123,   8,  12, 189, 177,  74,
   120, 136, 149, 139, 227,  99, 232, 109, 233, 203, 213, 254,  59,   0,  29,  57,
   242, 239, 183,  14, 102,  88, 208, 228, 166, 119, 114, 248, 235, 117,  75,  10,
    49,  68,  80, 180, 143, 237,  31,  26, 219, 153, 141,  51, 159,  17, 131,  20,
};

/* One 16-byte block: the checksum (RFC 1319 step 2) and the 18 rounds over
 * the 48-byte state (step 4). */
static void md2_block(md2_ctx *c, const uint8_t *b)
{
   uint8_t l = c->c[15];
   for (int j = 0; j < 16; j++) {
      c->x[16 + j] = b[j];
      c->x[32 + j] = (uint8_t)(b[j] ^ c->x[j]);
      c->c[j] ^= md2_s[b[j] ^ l];
      l = c->c[j];
   }
   unsigned t = 0;
   for (unsigned j = 0; j < 18; j++) {
      for (int k = 0; k < 48; k++)
         t = c->x[k] ^= md2_s[t];
      t = (t + j) & 0xff;
   }
}

void md2_init(md2_ctx *c) { memset(c, 0, sizeof(*c)); }

void md2_update(md2_ctx *c, const void *p, size_t n)
{
   const uint8_t *s = p;
   while (n) {
      size_t take = MC_MIN(n, 16 - (size_t)c->nbuf);
      memcpy(c->buf + c->nbuf, s, take);
      c->nbuf += (uint32_t)take;
      s += take;
      n -= take;
      if (c->nbuf == 16) {
         md2_block(c, c->buf);
         c->nbuf = 0;
      }
   }
}

void md2_final(md2_ctx *c, uint8_t out[16])
{
   uint8_t pad[16];
   uint8_t k = (uint8_t)(16 - c->nbuf);   /* 1..16 bytes, each of value k */
   memset(pad, k, k);
   md2_update(c, pad, k);
   uint8_t sum[16];
   memcpy(sum, c->c, 16);
   md2_update(c, sum, 16);
   memcpy(out, c->x, 16);
}

void hmac_md2_init(hmac_md2_ctx *h, const void *key, size_t n)
{
   uint8_t k[16] = {0}, pad[16];
   if (n > 16) {
      md2_ctx c;
      md2_init(&c);
      md2_update(&c, key, n);
      md2_final(&c, k);
   } else {
      memcpy(k, key, n);
   }
   for (int i = 0; i < 16; i++) {
      pad[i] = k[i] ^ 0x36;
      h->opad[i] = k[i] ^ 0x5c;
   }
   md2_init(&h->inner);
   md2_update(&h->inner, pad, 16);
}

void hmac_md2_update(hmac_md2_ctx *h, const void *p, size_t n) { md2_update(&h->inner, p, n); }

void hmac_md2_final(hmac_md2_ctx *h, uint8_t out[16])
{
   uint8_t d[16];
   md2_final(&h->inner, d);
   md2_ctx o;
   md2_init(&o);
   md2_update(&o, h->opad, 16);
   md2_update(&o, d, 16);
   md2_final(&o, out);
}
