/*
 * printf.c — device printf and assert: the FIFO kernels write records into
 * and the host side that formats them (CUDA's scheme, ARCHITECTURE §4).
 *
 * Each context has one FIFO in device memory, allocated when the first
 * kernel that prints or asserts is launched, of cudaLimitPrintfFifoSize
 * bytes (1 MB by default); the record layout is prelude/call.metal's.
 * Records are formatted on the host, in the order kernels reserved them,
 * at synchronisation points (stream and context synchronisation, which
 * blocking copies, module unloads and context destruction go through, the
 * start of a launch, and the end of the program): printf output to stdout,
 * assertion messages to stderr in CUDA's words.  A record that does not fit
 * is dropped, as CUDA drops output beyond the FIFO's size.
 *
 * The host reads records only when no kernel that writes them is running:
 * Metal makes a kernel's stores visible to the CPU when its command buffer
 * completes, not before.  printf_inflight counts such launches (per
 * context and per stream); a synchronisation waits for its own stream's to
 * retire (completion handlers may run after waitUntilCompleted returns)
 * and formats when no other stream has one in flight; otherwise a later
 * synchronisation does.
 *
 * Formatting follows the device's scan (mc_pf_next): the same conversions
 * consume the same argument bytes, and each conversion is handed to the
 * host's snprintf with the argument of its C type, as NVIDIA's host side
 * does; a double is 8 bytes whatever the device computes in.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(printf);

enum { DEFAULT_FIFO = 1 << 20 };

static uint32_t rd32(const uint8_t *p)
{
   uint32_t v;
   memcpy(&v, p, 4);
   return v;
}

static uint64_t rd64(const uint8_t *p)
{
   uint64_t v;
   memcpy(&v, p, 8);
   return v;
}

/* ---- formatting one printf record ---- */

typedef struct rec_view {
   const uint8_t *rec;
   uint32_t size, abytes, off;   /* off: next argument byte */
   uint32_t nargs, taken;        /* arguments the device's scan found, and taken */
   bool bad;
} rec_view;

/* The next argument of `bytes` (4 or 8), aligned to its size as the kernel
 * packed it. */
static const uint8_t *next_arg(rec_view *r, uint32_t bytes)
{
   r->off = (r->off + bytes - 1) & ~(bytes - 1);
   if (r->off + bytes > r->abytes || r->taken++ >= r->nargs) {
      r->bad = true;
      return NULL;
   }
   const uint8_t *p = r->rec + MC_FIFO_RECORD_HEADER + r->off;
   r->off += bytes;
   return p;
}

/* A NUL-terminated string at record offset `at`, or NULL if it is not
 * inside the record. */
static const char *rec_string(const rec_view *r, uint64_t at)
{
   if (at < MC_FIFO_RECORD_HEADER || at >= r->size || !memchr(r->rec + at, 0, r->size - at))
      return NULL;
   return (const char *)r->rec + at;
}

static void put_conv(strbuf *out, const char *spec, int kind, const void *v)
{
   char small[256];
   char *buf = small;
   int n = 0;
   for (int pass = 0; pass < 2; pass++) {
      size_t cap = sizeof(small);
      if (pass) {
         /* the first try did not fit: size it exactly */
         cap = (size_t)n + 1;
         buf = malloc(cap);
         if (!buf)
            return;
      }
      switch (kind) {
      case 'i': n = snprintf(buf, cap, spec, *(const int *)v); break;
      case 'L': n = snprintf(buf, cap, spec, *(const long long *)v); break;
      case 'd': n = snprintf(buf, cap, spec, *(const double *)v); break;
      case 'p': n = snprintf(buf, cap, spec, *(void *const *)v); break;
      default: n = snprintf(buf, cap, spec, (const char *)v); break;
      }
      if (n < 0)
         break;
      if ((size_t)n < cap) {
         strbuf_puts(out, buf);
         break;
      }
   }
   if (buf != small)
      free(buf);
}

/* Formats one conversion starting at *pp (just after its '%'). */
static void format_conv(strbuf *out, rec_view *r, const char **pp)
{
   const char *p = *pp, *start = p - 1;
   char spec[96] = "%", len[4] = "";
   size_t n = 1;
   bool wide = false;
   for (;; p++) {
      char ch = *p;
      if (n > sizeof(spec) - 24)
         ch = 0;   /* absurdly long: print as written */
      if (ch == 0) {
         strbuf_printf(out, "%.*s", (int)(p - start), start);
         *pp = p;
         return;
      }
      if (ch == '*') {
         const uint8_t *a = next_arg(r, 4);
         int v = a ? (int)rd32(a) : 0;
         /* a negative precision is as if none were given */
         if (spec[n - 1] == '.' && v < 0)
            spec[--n] = 0;
         else
            n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%d", v);
         continue;
      }
      if (strchr("-+ #'.0123456789", ch)) {
         spec[n++] = ch;
         spec[n] = 0;
         continue;
      }
      if (ch == 'h') {
         if (strlen(len) < 2)
            strcat(len, "h");
         continue;
      }
      if (strchr("lzjtqL", ch)) {
         wide = true;
         continue;
      }
      break;
   }
   char conv = *p;
   *pp = p + 1;
   switch (conv) {
   case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
      const uint8_t *a = next_arg(r, wide ? 8 : 4);
      if (!a)
         return;
      if (wide) {
         long long v = (long long)rd64(a);
         snprintf(spec + n, sizeof(spec) - n, "ll%c", conv);
         put_conv(out, spec, 'L', &v);
      } else {
         int v = (int)rd32(a);
         snprintf(spec + n, sizeof(spec) - n, "%s%c", len, conv);
         put_conv(out, spec, 'i', &v);
      }
      return;
   }
   case 'c': {
      const uint8_t *a = next_arg(r, 4);
      int v = a ? (int)rd32(a) : 0;
      if (!a)
         return;
      snprintf(spec + n, sizeof(spec) - n, "c");
      put_conv(out, spec, 'i', &v);
      return;
   }
   case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
      const uint8_t *a = next_arg(r, 8);
      if (!a)
         return;
      double v;
      memcpy(&v, a, 8);
      snprintf(spec + n, sizeof(spec) - n, "%c", conv);
      put_conv(out, spec, 'd', &v);
      return;
   }
   case 's': {
      const uint8_t *a = next_arg(r, 8);
      if (!a)
         return;
      uint64_t at = rd64(a);
      const char *s = at ? rec_string(r, at) : "(null)";
      snprintf(spec + n, sizeof(spec) - n, "s");
      put_conv(out, spec, 's', s ? s : "(bad string)");
      return;
   }
   case 'p': {
      const uint8_t *a = next_arg(r, 8);
      if (!a)
         return;
      void *v = (void *)(uintptr_t)rd64(a);
      snprintf(spec + n, sizeof(spec) - n, "p");
      put_conv(out, spec, 'p', &v);
      return;
   }
   case 'n':
      next_arg(r, 8);   /* the device ignores %n; so does the host */
      return;
   default:
      /* not a conversion: as written, no argument (mc_pf_next agrees) */
      strbuf_printf(out, "%.*s", (int)(p + 1 - start), start);
      return;
   }
}

static void format_printf(strbuf *out, const uint8_t *rec, uint32_t size)
{
   rec_view r = { rec, size, rd32(rec + 8), 0, rd32(rec + 12), 0, false };
   const char *fmt = r.abytes <= size - MC_FIFO_RECORD_HEADER
                        ? rec_string(&r, (uint64_t)MC_FIFO_RECORD_HEADER + r.abytes) : NULL;
   if (!fmt) {
      LOG_WARN("a printf record is damaged; skipped");
      return;
   }
   for (const char *p = fmt; *p && !r.bad;) {
      if (*p != '%') {
         const char *q = strchr(p, '%');
         size_t k = q ? (size_t)(q - p) : strlen(p);
         strbuf_printf(out, "%.*s", (int)k, p);
         p += k;
         continue;
      }
      if (p[1] == '%') {
         strbuf_putc(out, '%');
         p += 2;
         continue;
      }
      p++;
      format_conv(out, &r, &p);
   }
}

/* CUDA's words: "file:line: function: block: [x,y,z], thread: [x,y,z]
 * Assertion `expr` failed." */
static void format_assert(strbuf *err, const uint8_t *rec, uint32_t size)
{
   rec_view r = { rec, size, rd32(rec + 8), 0, 0, 0, false };
   const uint32_t at = MC_FIFO_RECORD_HEADER + 32;
   if (r.abytes != 32 || size < at) {
      LOG_WARN("an assert record is damaged; skipped");
      return;
   }
   const uint8_t *v = rec + MC_FIFO_RECORD_HEADER;
   const char *msg = rec_string(&r, at);
   const char *file = msg ? rec_string(&r, at + strlen(msg) + 1) : NULL;
   const char *func = file ? rec_string(&r, at + strlen(msg) + strlen(file) + 2) : NULL;
   if (!func) {
      LOG_WARN("an assert record is damaged; skipped");
      return;
   }
   strbuf_printf(err, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
                 rd32(v), func, rd32(v + 4), rd32(v + 8), rd32(v + 12), rd32(v + 16), rd32(v + 20),
                 rd32(v + 24), msg);
}

void core_printf_format(const uint8_t *recs, uint32_t end, strbuf *out, strbuf *err)
{
   for (uint32_t at = 0; at + MC_FIFO_RECORD_HEADER <= end;) {
      uint32_t size = rd32(recs + at), kind = rd32(recs + at + 4);
      /* 0: reserved by a record that did not fit, or never written */
      if (size < MC_FIFO_RECORD_HEADER || size % 8 || size > end - at)
         break;
      if (kind == MC_REC_PRINTF)
         format_printf(out, recs + at, size);
      else if (kind == MC_REC_ASSERT)
         format_assert(err, recs + at, size);
      at += size;
   }
}

/* Formats and empties the FIFO.  The caller holds printf_lock and no
 * printing kernel is in flight. */
static void flush_locked(core_ctx *c)
{
   if (!c->printf_fifo)
      return;
   uint8_t *fifo = (uint8_t *)(uintptr_t)c->printf_fifo;
   uint32_t used = rd32(fifo);
   if (!used)
      return;
   uint32_t cap = (uint32_t)c->printf_fifo_size;
   uint32_t end = used < cap ? used : cap;
   uint8_t *recs = fifo + MC_FIFO_HEADER;
   strbuf out, err;
   strbuf_init(&out);
   strbuf_init(&err);
   core_printf_format(recs, end, &out, &err);
   if (used > cap)
      LOG_INFO("device printf: %u bytes of records did not fit the %u-byte FIFO (cudaLimitPrintfFifoSize)",
               used - cap, cap);
   memset(recs, 0, end);
   __atomic_store_n((uint32_t *)fifo, 0u, __ATOMIC_RELEASE);
   if (err.s) {
      fflush(stdout);   /* what the kernels printed before the assertion first */
      fputs(err.s, stderr);
   }
   if (out.s)
      fwrite(out.s, 1, strlen(out.s), stdout);
   strbuf_free(&out);
   strbuf_free(&err);
}

/* ---- the end of the program ---- */

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* As CUDA's teardown does: wait for the work of each device's primary
 * context and print what it recorded. */
static void at_exit(void)
{
   for (int d = 0; d < core_device_count(); d++) {
      core_device *dev = core_device_get(d);
      core_ctx *c = dev ? *core_device_primary_slot(dev) : NULL;
      if (c && c->printf_fifo)
         core_ctx_synchronize(c);
   }
}

static void register_exit(void) { atexit(at_exit); }

/* ---- core.h ---- */

void core_printf_init(core_ctx *c)
{
   pthread_mutex_init(&c->printf_lock, NULL);
   pthread_cond_init(&c->printf_cv, NULL);
   c->printf_fifo_size = DEFAULT_FIFO;
   c->stack_limit = 1024;   /* NVIDIA's default */
}

void core_printf_destroy(core_ctx *c)
{
   pthread_mutex_lock(&c->printf_lock);
   flush_locked(c);
   uint64_t fifo = c->printf_fifo;
   c->printf_fifo = 0;
   pthread_mutex_unlock(&c->printf_lock);
   if (fifo)
      core_mem_free_internal(c->dev, fifo);
   pthread_cond_destroy(&c->printf_cv);
   pthread_mutex_destroy(&c->printf_lock);
}

int core_printf_set_fifo_size(core_ctx *c, size_t value)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&c->printf_lock);
   /* CUDA: the size is fixed once a kernel that prints has run */
   if (c->printf_fifo)
      r = CORE_ERROR_INVALID_VALUE;
   else
      c->printf_fifo_size = value < 4096 ? 4096 : value > 0x7ffff000u ? 0x7ffff000u : ALIGN_UP(value, 8);
   pthread_mutex_unlock(&c->printf_lock);
   return r;
}

size_t core_printf_fifo_size(core_ctx *c)
{
   pthread_mutex_lock(&c->printf_lock);
   size_t v = c->printf_fifo_size;
   pthread_mutex_unlock(&c->printf_lock);
   return v;
}

static void launch_done(mtl_cmdbuf *cb, void *data)
{
   (void)cb;
   core_stream *s = data;
   core_ctx *c = s->ctx;
   pthread_mutex_lock(&c->printf_lock);
   s->printf_pending--;
   c->printf_inflight--;
   pthread_cond_broadcast(&c->printf_cv);
   pthread_mutex_unlock(&c->printf_lock);
}

int core_printf_launch(core_ctx *c, core_stream *s, mtl_cmdbuf *cb, bool uses_printf, mc_launch *lb)
{
   pthread_mutex_lock(&c->printf_lock);
   /* CUDA formats what earlier kernels recorded when a kernel starts */
   if (!c->printf_inflight)
      flush_locked(c);
   if (!uses_printf) {
      pthread_mutex_unlock(&c->printf_lock);
      return CORE_SUCCESS;
   }
   if (!c->printf_fifo) {
      uint64_t fifo;
      int r = core_mem_alloc_internal(c->dev, MC_FIFO_HEADER + c->printf_fifo_size, &fifo);
      if (r != CORE_SUCCESS) {
         pthread_mutex_unlock(&c->printf_lock);
         return r;
      }
      memset((void *)(uintptr_t)fifo, 0, MC_FIFO_HEADER + c->printf_fifo_size);
      c->printf_fifo = fifo;
      pthread_once(&exit_once, register_exit);
   }
   lb->printf_buf = core_arena_gpu(c->dev, c->printf_fifo);
   lb->printf_size = (uint32_t)c->printf_fifo_size;
   c->printf_inflight++;
   s->printf_pending++;
   pthread_mutex_unlock(&c->printf_lock);
   mtl_cmdbuf_add_completed_handler(cb, launch_done, s);
   return CORE_SUCCESS;
}

void core_printf_sync(core_stream *s)
{
   core_ctx *c = s->ctx;
   pthread_mutex_lock(&c->printf_lock);
   /* the stream's buffers are complete; their handlers are about to run */
   while (s->printf_pending)
      pthread_cond_wait(&c->printf_cv, &c->printf_lock);
   if (!c->printf_inflight)
      flush_locked(c);
   pthread_mutex_unlock(&c->printf_lock);
}

void core_printf_flush_idle(core_ctx *c)
{
   pthread_mutex_lock(&c->printf_lock);
   if (!c->printf_inflight)
      flush_locked(c);
   pthread_mutex_unlock(&c->printf_lock);
}
