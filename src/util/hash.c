/*
 * hash.c — FNV-1a for hash tables, SHA-256 (FIPS 180-4) for cache keys, a
 * fast sum for cache files' integrity (hash_sum256), and a string-keyed
 * open-addressing map.  Cache keys must not collide in practice, across
 * machines and versions, hence a real digest there.
 */
#include "util.h"

#include <stdio.h>
#include <string.h>

uint64_t hash_fnv1a(const void *p, size_t n, uint64_t seed)
{
   const unsigned char *s = p;
   uint64_t h = seed ? seed : 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++) {
      h ^= s[i];
      h *= 0x100000001b3ull;
   }
   return h;
}

uint64_t hash_str(const char *s) { return hash_fnv1a(s, strlen(s), 0); }

static const uint32_t sha256_k[64] = {
   0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
   0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
   0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
   0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
   0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
   0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
   0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
   0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(sha256_ctx *c, const uint8_t *b)
{
   uint32_t w[64];
   for (int i = 0; i < 16; i++)
      w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
             (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
   for (int i = 16; i < 64; i++) {
      uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
   }
   uint32_t a = c->h[0], bb = c->h[1], cc = c->h[2], d = c->h[3];
   uint32_t e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
   for (int i = 0; i < 64; i++) {
      uint32_t s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
      uint32_t ch = (e & f) ^ (~e & g);
      uint32_t t1 = h + s1 + ch + sha256_k[i] + w[i];
      uint32_t s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
      uint32_t maj = (a & bb) ^ (a & cc) ^ (bb & cc);
      uint32_t t2 = s0 + maj;
      h = g; g = f; f = e; e = d + t1;
      d = cc; cc = bb; bb = a; a = t1 + t2;
   }
   c->h[0] += a; c->h[1] += bb; c->h[2] += cc; c->h[3] += d;
   c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

void sha256_init(sha256_ctx *c)
{
   static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
   memcpy(c->h, iv, sizeof(iv));
   c->len = 0;
   c->nbuf = 0;
}

void sha256_update(sha256_ctx *c, const void *p, size_t n)
{
   const uint8_t *s = p;
   c->len += n;
   while (n) {
      uint32_t take = (uint32_t)MC_MIN(n, 64 - c->nbuf);
      memcpy(c->buf + c->nbuf, s, take);
      c->nbuf += take;
      s += take;
      n -= take;
      if (c->nbuf == 64) {
         sha256_block(c, c->buf);
         c->nbuf = 0;
      }
   }
}

void sha256_final(sha256_ctx *c, uint8_t out[32])
{
   uint64_t bits = c->len * 8;
   uint8_t pad = 0x80;
   sha256_update(c, &pad, 1);
   pad = 0;
   while (c->nbuf != 56)
      sha256_update(c, &pad, 1);
   uint8_t lenb[8];
   for (int i = 0; i < 8; i++)
      lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
   sha256_update(c, lenb, 8);
   for (int i = 0; i < 8; i++) {
      out[4 * i] = (uint8_t)(c->h[i] >> 24);
      out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
      out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
      out[4 * i + 3] = (uint8_t)c->h[i];
   }
}

void sha256_digest(const void *p, size_t n, uint8_t out[32])
{
   sha256_ctx c;
   sha256_init(&c);
   sha256_update(&c, p, n);
   sha256_final(&c, out);
}

void sha256_hex(const void *p, size_t n, char out[65])
{
   uint8_t d[32];
   sha256_digest(p, n, d);
   for (int i = 0; i < 32; i++)
      snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* A fast 256-bit sum for the integrity of cache files: four 64-bit lanes,
 * each taking every fourth word by a multiply-rotate-multiply round, then
 * mixed with the length and each other.  It guards against damage, not
 * against an adversary (the cache is the user's own): SHA-256 of a
 * kernel's translation file, which holds the 240 KB prelude, took a
 * millisecond at each kernel's first launch, about 5% of LULESH's run at
 * -s 10; this takes a few microseconds. */
static uint64_t sum_round(uint64_t acc, uint64_t w)
{
   acc += w * 0xc2b2ae3d27d4eb4full;
   acc = acc << 31 | acc >> 33;
   return acc * 0x9e3779b97f4a7c15ull;
}

static uint64_t sum_avalanche(uint64_t h)
{
   h ^= h >> 33;
   h *= 0xff51afd7ed558ccdull;
   h ^= h >> 33;
   h *= 0xc4ceb9fe1a85ec53ull;
   return h ^ (h >> 33);
}

/* The little-endian word at p, whatever the host: one load where the host
 * is little-endian (gcc did not merge the byte loads, and the sum ran at
 * 1.5 GB/s instead of about 10). */
static uint64_t load_le64(const uint8_t *p)
{
   uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
   memcpy(&w, p, 8);
#else
   for (int b = 0; b < 8; b++)
      w |= (uint64_t)p[b] << (8 * b);
#endif
   return w;
}

void hash_sum256(const void *data, size_t n, uint8_t out[32])
{
   const uint8_t *p = data;
   uint64_t lane[4] = { 0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull };
   size_t i = 0;
   for (; i + 32 <= n; i += 32)
      for (int k = 0; k < 4; k++)
         lane[k] = sum_round(lane[k], load_le64(p + i + 8 * (size_t)k));
   for (size_t k = 0; i < n; i++, k++)   /* the tail, a byte at a time */
      lane[k & 3] = sum_round(lane[k & 3], (uint64_t)p[i] | (uint64_t)(k + 1) << 8);
   for (int k = 0; k < 4; k++) {
      uint64_t h = sum_avalanche(lane[k] ^ (uint64_t)n ^ lane[(k + 1) & 3] * 0x100000001b3ull);
      for (int b = 0; b < 8; b++)
         out[8 * k + b] = (uint8_t)(h >> (8 * b));
   }
}

void strmap_init(strmap *m, arena *ar)
{
   memset(m, 0, sizeof(*m));
   m->ar = ar;
}

static bool strmap_grow(strmap *m)
{
   uint32_t ncap = m->cap ? m->cap * 2 : 64;
   const char **nk = arena_alloc(m->ar, ncap * sizeof(*nk));
   void **nv = arena_alloc(m->ar, ncap * sizeof(*nv));
   if (!nk || !nv)
      return false;
   for (uint32_t i = 0; i < m->cap; i++) {
      if (!m->keys[i])
         continue;
      uint32_t j = (uint32_t)hash_str(m->keys[i]) & (ncap - 1);
      while (nk[j])
         j = (j + 1) & (ncap - 1);
      nk[j] = m->keys[i];
      nv[j] = m->vals[i];
   }
   m->keys = nk;
   m->vals = nv;
   m->cap = ncap;
   return true;
}

bool strmap_put(strmap *m, const char *key, void *val)
{
   if ((m->len + 1) * 4 >= m->cap * 3 && !strmap_grow(m))
      return false;
   uint32_t j = (uint32_t)hash_str(key) & (m->cap - 1);
   while (m->keys[j]) {
      if (!strcmp(m->keys[j], key)) {
         m->vals[j] = val;
         return true;
      }
      j = (j + 1) & (m->cap - 1);
   }
   m->keys[j] = key;
   m->vals[j] = val;
   m->len++;
   return true;
}

void *strmap_get(const strmap *m, const char *key)
{
   if (!m->cap)
      return NULL;
   uint32_t j = (uint32_t)hash_str(key) & (m->cap - 1);
   while (m->keys[j]) {
      if (!strcmp(m->keys[j], key))
         return m->vals[j];
      j = (j + 1) & (m->cap - 1);
   }
   return NULL;
}

void u64map_init(u64map *m, arena *ar)
{
   memset(m, 0, sizeof(*m));
   m->ar = ar;
}

static uint32_t u64map_home(uint64_t key, uint32_t cap)
{
   return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static bool u64map_grow(u64map *m)
{
   uint32_t ncap = m->cap ? m->cap * 2 : 1024;
   uint64_t *nk = arena_alloc(m->ar, ncap * sizeof(*nk));
   void **nv = arena_alloc(m->ar, ncap * sizeof(*nv));
   if (!nk || !nv)
      return false;
   for (uint32_t i = 0; i < m->cap; i++) {
      if (!m->keys[i])
         continue;
      uint32_t j = u64map_home(m->keys[i], ncap);
      while (nk[j])
         j = (j + 1) & (ncap - 1);
      nk[j] = m->keys[i];
      nv[j] = m->vals[i];
   }
   m->keys = nk;
   m->vals = nv;
   m->cap = ncap;
   return true;
}

void **u64map_slot(u64map *m, uint64_t key, bool create)
{
   if (create && (m->len + 1) * 2 >= m->cap && !u64map_grow(m))
      return NULL;
   if (!m->cap)
      return NULL;
   uint32_t j = u64map_home(key, m->cap);
   while (m->keys[j]) {
      if (m->keys[j] == key)
         return &m->vals[j];
      j = (j + 1) & (m->cap - 1);
   }
   if (!create)
      return NULL;
   m->keys[j] = key;
   m->vals[j] = NULL;
   m->len++;
   return &m->vals[j];
}
