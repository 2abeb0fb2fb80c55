/*
 * test_printf.c — the host side of device printf and assert
 * (core_printf_format): records laid out as prelude/call.metal writes them
 * are formatted as the host's printf formats the same arguments.
 */
#include "harness.h"

#include "core/core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Builds FIFO records the way the device does. */
typedef struct fifo {
   uint8_t b[4096];
   uint32_t used;
   /* the record being built */
   uint32_t at, args, nargs;
   uint8_t arg[512];
   uint32_t alen;
   char strs[1024];
   uint32_t slen;
   uint32_t str_slots[16], str_offs[16], nstr;
} fifo;

static void rec_begin(fifo *f)
{
   f->alen = f->slen = f->nstr = f->nargs = 0;
}

static void put_arg(fifo *f, const void *v, uint32_t size)
{
   f->alen = (f->alen + size - 1) & ~(size - 1);
   memcpy(f->arg + f->alen, v, size);
   f->alen += size;
   f->nargs++;
}
static void arg_i(fifo *f, int v) { put_arg(f, &v, 4); }
static void arg_l(fifo *f, long long v) { put_arg(f, &v, 8); }
static void arg_d(fifo *f, double v) { put_arg(f, &v, 8); }
static void arg_s(fifo *f, const char *s)
{
   uint64_t zero = 0;
   f->alen = (f->alen + 7) & ~7u;
   if (s) {
      f->str_slots[f->nstr] = f->alen;
      f->str_offs[f->nstr] = f->slen;
      f->nstr++;
      strcpy(f->strs + f->slen, s);
      f->slen += (uint32_t)strlen(s) + 1;
   }
   put_arg(f, &zero, 8);
}

/* Ends a printf record with format fmt (strings after the format). */
static void rec_printf(fifo *f, const char *fmt)
{
   uint32_t abytes = (f->alen + 7) & ~7u, flen = (uint32_t)strlen(fmt);
   uint32_t size = (16 + abytes + flen + 1 + f->slen + 7) & ~7u;
   uint8_t *r = f->b + f->used;
   memset(r, 0, size);
   memcpy(r + 16, f->arg, f->alen);
   memcpy(r + 16 + abytes, fmt, flen + 1);
   uint32_t str0 = 16 + abytes + flen + 1;
   memcpy(r + str0, f->strs, f->slen);
   for (uint32_t k = 0; k < f->nstr; k++) {
      uint64_t off = str0 + f->str_offs[k];
      memcpy(r + 16 + f->str_slots[k], &off, 8);
   }
   uint32_t h[4] = { size, MC_REC_PRINTF, abytes, f->nargs };
   memcpy(r, h, 16);
   f->used += size;
}

static const char *format(fifo *f, char *err_out, size_t err_len)
{
   static char out_copy[4096];
   strbuf out, err;
   strbuf_init(&out);
   strbuf_init(&err);
   core_printf_format(f->b, f->used, &out, &err);
   snprintf(out_copy, sizeof(out_copy), "%s", out.s ? out.s : "");
   if (err_out)
      snprintf(err_out, err_len, "%s", err.s ? err.s : "");
   strbuf_free(&out);
   strbuf_free(&err);
   return out_copy;
}

static const char *ref(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *ref(const char *fmt, ...)
{
   static char buf[4096];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   return buf;
}

TEST(printf_records_format_like_the_host_printf)
{
   static fifo f;
   memset(&f, 0, sizeof(f));
   rec_begin(&f);
   arg_i(&f, -42);
   arg_i(&f, 0x7f);
   arg_i(&f, 'Q');
   arg_l(&f, -1234567890123ll);
   arg_d(&f, 3.25);
   arg_d(&f, -1e-300);
   arg_s(&f, "str");
   arg_s(&f, NULL);
   arg_i(&f, 300);
   rec_printf(&f, "a %d %#06x %c %lld %.3f %g %s %s %hhd %% end\n");
   rec_begin(&f);
   arg_i(&f, 8);
   arg_i(&f, 3);
   arg_d(&f, 2.5);
   arg_i(&f, -6);
   arg_s(&f, "abcdef");
   rec_printf(&f, "[%*.*f] [%*s|%%]\n");
   rec_begin(&f);
   rec_printf(&f, "no args %k %\n");
   char want[1024];
   snprintf(want, sizeof(want), "%s", ref("a %d %#06x %c %lld %.3f %g %s %s %hhd %% end\n", -42, 0x7f, 'Q',
                                          -1234567890123ll, 3.25, -1e-300, "str", "(null)", (signed char)300));
   strcat(want, ref("[%*.*f] [%*s|%%]\n", 8, 3, 2.5, -6, "abcdef"));
   strcat(want, "no args %k %\n");
   CHECK_STR(format(&f, NULL, 0), want);
}

/* A record reserved but never written (size 0: it did not fit the FIFO)
 * ends the output; a damaged size does too. */
TEST(printf_stops_at_an_incomplete_record)
{
   static fifo f;
   memset(&f, 0, sizeof(f));
   rec_begin(&f);
   arg_i(&f, 1);
   rec_printf(&f, "one %d\n");
   uint32_t first = f.used;
   f.used += 64;   /* zeros: a hole */
   rec_begin(&f);
   rec_printf(&f, "after the hole\n");
   CHECK_STR(format(&f, NULL, 0), "one 1\n");
   f.used = first;
   rec_begin(&f);
   rec_printf(&f, "two\n");
   uint32_t bad = 13;
   memcpy(f.b + first, &bad, 4);
   CHECK_STR(format(&f, NULL, 0), "one 1\n");
}

/* More conversions than arguments (a damaged record) stop the record, never
 * read past it. */
TEST(printf_missing_arguments_are_not_read)
{
   static fifo f;
   memset(&f, 0, sizeof(f));
   rec_begin(&f);
   arg_i(&f, 5);
   rec_printf(&f, "%d %d %s\n");
   CHECK_STR(format(&f, NULL, 0), "5 ");
}

TEST(assert_records_use_cuda_words)
{
   static fifo f;
   memset(&f, 0, sizeof(f));
   const char *strs[3] = { "x < 4", "kernel.cu", "void k(int *)" };
   uint32_t v[8] = { 17, 2, 0, 0, 5, 1, 0, 0 };
   uint8_t *r = f.b;
   uint32_t at = 48;
   for (int k = 0; k < 3; k++) {
      strcpy((char *)r + at, strs[k]);
      at += (uint32_t)strlen(strs[k]) + 1;
   }
   uint32_t size = (at + 7) & ~7u;
   uint32_t h[4] = { size, MC_REC_ASSERT, 32, 0 };
   memcpy(r, h, 16);
   memcpy(r + 16, v, 32);
   f.used = size;
   char err[512];
   CHECK_STR(format(&f, err, sizeof(err)), "");
   CHECK_STR(err, "kernel.cu:17: void k(int *): block: [2,0,0], thread: [5,1,0] Assertion `x < 4` failed.\n");
}
