/*
 * fatbin_write.c — writes the fatbin container that clang embeds into host
 * code (-fcuda-include-gpubinary) and that src/fatbin/ reads back at
 * registration.
 *
 * Layout (src/fatbin/README.md, measured from nvcc 13.0.88): a 16-byte
 * header {magic 0xBA55ED50, version 1, header_size 16, files_size}, then
 * entries back to back, each a header of at least 64 bytes followed by its
 * payload padded to 8.  We write PTX entries only (kind 1), uncompressed:
 * the PTX is translated to MSL at run time, there is no SASS, and
 * compressing would make every program need libzstd for nothing.  The PTX
 * keeps one NUL after its text, as nvcc stores it.  Fields nvcc fills that no
 * reader needs (options offset, name) stay zero.
 */
#include "toolchain.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define ENTRY_HEADER 64
#define KIND_PTX 1
#define FLAG_64BIT 0x1u
#if defined(__APPLE__)
#define FLAG_HOST 0x20u   /* Mac */
#else
#define FLAG_HOST 0x10u   /* Linux */
#endif

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

bool tc_ptx_version(const char *ptx, uint16_t *major, uint16_t *minor)
{
   for (const char *p = ptx; (p = strstr(p, ".version")); p += 8) {
      /* a directive starts a line (after blanks), never inside a comment */
      const char *b = p;
      while (b > ptx && (b[-1] == ' ' || b[-1] == '\t'))
         b--;
      if (b != ptx && b[-1] != '\n')
         continue;
      const char *q = p + 8;
      if (!isspace((unsigned char)*q))
         continue;
      char *end;
      unsigned long ma = strtoul(q, &end, 10);
      if (end == q || *end != '.')
         continue;
      unsigned long mi = strtoul(end + 1, &end, 10);
      *major = (uint16_t)ma;
      *minor = (uint16_t)mi;
      return true;
   }
   return false;
}

uint8_t *tc_fatbin_build(const tc_image *img, size_t n, size_t *len)
{
   size_t total = 16;
   for (size_t i = 0; i < n; i++)
      total += ENTRY_HEADER + ((strlen(img[i].ptx) + 1 + 7) & ~(size_t)7);
   uint8_t *buf = calloc(1, total);
   if (!buf)
      return NULL;
   put32(buf, FATBIN_MAGIC);
   put16(buf + 4, 1);
   put16(buf + 6, 16);
   put64(buf + 8, total - 16);
   uint8_t *e = buf + 16;
   for (size_t i = 0; i < n; i++) {
      size_t text = strlen(img[i].ptx) + 1;   /* with its NUL */
      size_t stride = (text + 7) & ~(size_t)7;
      uint16_t ma = 0, mi = 0;
      tc_ptx_version(img[i].ptx, &ma, &mi);
      put16(e + 0, KIND_PTX);
      put16(e + 2, 0x101);
      put32(e + 4, ENTRY_HEADER);
      put64(e + 8, stride);
      put32(e + 16, 0);                      /* not compressed */
      put16(e + 24, mi);
      put16(e + 26, ma);
      put32(e + 28, img[i].sm);
      put64(e + 40, FLAG_64BIT | FLAG_HOST);
      put64(e + 56, text);
      memcpy(e + ENTRY_HEADER, img[i].ptx, text);   /* padding stays zero */
      e += ENTRY_HEADER + stride;
   }
   *len = total;
   return buf;
}
