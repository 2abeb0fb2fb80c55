/*
 * str.c — a heap string builder.  Out of memory is sticky: later appends
 * are dropped and strbuf_take() returns NULL, so emitters check once.
 */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(strbuf *b) { memset(b, 0, sizeof(*b)); }

void strbuf_free(strbuf *b)
{
   free(b->s);
   strbuf_init(b);
}

static bool strbuf_grow(strbuf *b, size_t extra)
{
   if (b->failed)
      return false;
   if (b->len + extra + 1 <= b->cap)
      return true;
   size_t ncap = b->cap ? b->cap * 2 : 256;
   while (ncap < b->len + extra + 1)
      ncap *= 2;
   char *ns = mc_realloc(b->s, ncap);
   if (!ns) {
      b->failed = true;
      return false;
   }
   b->s = ns;
   b->cap = ncap;
   return true;
}

void strbuf_putn(strbuf *b, const char *s, size_t n)
{
   if (!strbuf_grow(b, n))
      return;
   memcpy(b->s + b->len, s, n);
   b->len += n;
   b->s[b->len] = 0;
}

void strbuf_puts(strbuf *b, const char *s) { strbuf_putn(b, s, strlen(s)); }
void strbuf_putc(strbuf *b, char c) { strbuf_putn(b, &c, 1); }

void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap)
{
   va_list ap2;
   va_copy(ap2, ap);
   int n = vsnprintf(NULL, 0, fmt, ap2);
   va_end(ap2);
   if (n < 0 || !strbuf_grow(b, (size_t)n))
      return;
   vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
   b->len += (size_t)n;
}

void strbuf_printf(strbuf *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   strbuf_vprintf(b, fmt, ap);
   va_end(ap);
}

char *strbuf_take(strbuf *b)
{
   if (b->failed) {
      strbuf_free(b);
      return NULL;
   }
   if (!b->s) {                 /* nothing was written: an empty string */
      if (!strbuf_grow(b, 0))
         return NULL;
      b->s[0] = 0;
   }
   char *s = b->s;
   strbuf_init(b);
   return s;
}
