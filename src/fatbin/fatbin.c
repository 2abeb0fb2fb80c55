/*
 * fatbin.c — reads CUDA fatbin wrappers and fatbins, picks the PTX to run.
 *
 * The layout (fatbin.h, measured on nvcc 13.0.88 output) is walked with
 * every field read by memcpy (images arrive unaligned from files and
 * fuzzers) and every size checked against what is left of the bound before
 * it is used, in 64-bit arithmetic written so that nothing can wrap:
 * "a + b <= end" is always tested as "b <= end - a" with a <= end known.
 *
 * Errors name the fatbin (image offset or address), the entry (index and
 * offset inside the fatbin) and the field, so a bad binary can be looked at
 * with a hex dump.
 */
#include "fatbin.h"

#include "../util/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
LOG_CHANNEL(fatbin);

#define FATBIN_HEADER_SIZE 16         /* magic, version, header_size, files_size */
#define FATBIN_ENTRY_MIN_HEADER 64    /* the fixed fields, through uncompressed_size */
#define FATBIN_WRAPPER_SIZE (8 + 2 * sizeof(void *))

/* No PTX is anywhere near this; a header claiming more is lying, and
 * refusing it keeps a forged header from asking for gigabytes. */
#define FATBIN_MAX_TEXT ((uint64_t)1 << 30)
/* The most a compressed byte can expand to: a zstd RLE block is 4 bytes for
 * up to 128 KiB; an LZ4 sequence grows by at most 255 bytes per input byte. */
#define FATBIN_ZSTD_MAX_RATIO 32768u
#define FATBIN_LZ4_MAX_RATIO 255u
/* Without a declared size, output buffers double from here up to the cap. */
#define FATBIN_GROW_START 1024u
#define FATBIN_GROW_CAP ((uint64_t)64 << 20)

static fatbin_status fail(fatbin_status st, char *err, size_t errlen, const char *fmt, ...)
   MC_PRINTF(4, 5);
static fatbin_status fail(fatbin_status st, char *err, size_t errlen, const char *fmt, ...)
{
   if (err && errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, errlen, fmt, ap);
      va_end(ap);
   }
   return st;
}

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static const void *rdptr(const uint8_t *p) { const void *v; memcpy(&v, p, sizeof(v)); return v; }

const char *fatbin_status_name(fatbin_status s)
{
   switch (s) {
   case FATBIN_OK: return "OK";
   case FATBIN_ERR_FORMAT: return "ERR_FORMAT";
   case FATBIN_ERR_NO_PTX: return "ERR_NO_PTX";
   case FATBIN_ERR_CODEC_MISSING: return "ERR_CODEC_MISSING";
   case FATBIN_ERR_CODEC: return "ERR_CODEC";
   case FATBIN_ERR_NOMEM: return "ERR_NOMEM";
   }
   return "?";
}

static bool is_ptx_start(const uint8_t *p, size_t len)
{
   /* PTX text opens with comments or a directive (".version") after
    * optional whitespace; the NUL ends the scan when the length is unknown. */
   size_t i = 0;
   while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
      i++;
   if (i >= len)
      return false;
   if (p[i] == '.')
      return true;
   return p[i] == '/' && i + 1 < len && (p[i + 1] == '/' || p[i + 1] == '*');
}

/* Byte by byte, stopping at the first mismatch: with an unknown length a
 * short PTX string must not be read past its NUL. */
static bool has_magic(const uint8_t *p, size_t len, const char magic[4])
{
   for (size_t i = 0; i < 4; i++)
      if (i >= len || p[i] != (uint8_t)magic[i])
         return false;
   return true;
}

fatbin_image_kind fatbin_classify(const void *image, size_t image_len)
{
   const uint8_t *p = image;
   if (!p)
      return FATBIN_IMAGE_UNKNOWN;
   if (has_magic(p, image_len, "\xb1\x43\x62\x46"))
      return FATBIN_IMAGE_WRAPPER;
   if (has_magic(p, image_len, "\x50\xed\x55\xba"))
      return FATBIN_IMAGE_FATBIN;
   if (has_magic(p, image_len, "\x7f" "ELF"))
      return FATBIN_IMAGE_ELF;
   return is_ptx_start(p, image_len) ? FATBIN_IMAGE_PTX : FATBIN_IMAGE_UNKNOWN;
}

/* ---- parsing ---- */

typedef struct fatbin_parser {
   const uint8_t *base;        /* the image */
   size_t len;                 /* its bound; SIZE_MAX: unbounded */
   fatbin_entries *out;
   uint32_t cap;
   char *err;
   size_t errlen;
   char where[64];             /* "fatbin at image offset 0x10" for messages */
   uint32_t unit;              /* fatbin_entry.unit of the entries being read */
} fatbin_parser;

static bool bounded(const fatbin_parser *ps) { return ps->len != SIZE_MAX; }

/* Where p lies inside the image; false if it does not (only asked when the
 * image is bounded: unbounded pointers are the program's own and trusted). */
static bool offset_of(const fatbin_parser *ps, const void *p, size_t *off)
{
   uintptr_t a = (uintptr_t)p, b = (uintptr_t)ps->base;
   if (a < b || a - b >= ps->len)
      return false;
   *off = (size_t)(a - b);
   return true;
}

static fatbin_status push_entry(fatbin_parser *ps, const fatbin_entry *e)
{
   fatbin_entries *o = ps->out;
   if (o->n == ps->cap) {
      uint32_t ncap = ps->cap ? ps->cap * 2 : 8;
      if (ncap <= ps->cap)
         return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen, "%s: too many entries", ps->where);
      fatbin_entry *nv = mc_realloc(o->v, (size_t)ncap * sizeof(*nv));
      if (!nv)
         return fail(FATBIN_ERR_NOMEM, ps->err, ps->errlen,
                     "out of memory growing the entry list to %u entries", ncap);
      o->v = nv;
      ps->cap = ncap;
   }
   o->v[o->n++] = *e;
   return FATBIN_OK;
}

/* One entry header at h, with avail bytes left in the fatbin's files area;
 * off is its offset from the fatbin header (for messages); *stride gets the
 * distance to the next entry. */
static fatbin_status parse_entry(fatbin_parser *ps, const uint8_t *h, uint64_t off,
                                 uint64_t avail, uint32_t index, uint64_t *stride)
{
   if (avail < FATBIN_ENTRY_MIN_HEADER)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: entry %u at offset %#" PRIx64 ": header truncated (%" PRIu64
                  " bytes left, the header needs %d)",
                  ps->where, index, off, avail, FATBIN_ENTRY_MIN_HEADER);
   uint16_t kind = rd16(h);
   uint32_t hsize = rd32(h + 4);
   uint64_t size = rd64(h + 8);
   uint32_t csize = rd32(h + 16);
   uint64_t flags = rd64(h + 40);
   uint64_t usize = rd64(h + 56);

   if (hsize < FATBIN_ENTRY_MIN_HEADER || hsize > avail)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: entry %u at offset %#" PRIx64 ": header_size %u is %s (%" PRIu64
                  " bytes left in the fatbin)",
                  ps->where, index, off, hsize,
                  hsize < FATBIN_ENTRY_MIN_HEADER ? "below the 64-byte minimum" : "past its end",
                  avail);
   uint64_t span = MC_MAX(size, (uint64_t)csize);
   if (span > avail - hsize)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: entry %u at offset %#" PRIx64 ": payload size %" PRIu64
                  " (compressed_size %u) runs past the fatbin end (%" PRIu64 " bytes left)",
                  ps->where, index, off, size, csize, avail - hsize);

   fatbin_entry e = {
      .kind = (fatbin_kind)kind,
      .sm = rd32(h + 28),
      .flags = flags,
      .payload = h + hsize,
      .payload_size = size,
      .isa_minor = rd16(h + 24),
      .isa_major = rd16(h + 26),
      .unit = ps->unit,
   };
   bool zstd = flags & FATBIN_FLAG_ZSTD, lz4 = flags & FATBIN_FLAG_LZ4;
   if (zstd && lz4)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: entry %u at offset %#" PRIx64 ": flags %#" PRIx64
                  " ask for both LZ4 and zstd",
                  ps->where, index, off, flags);
   if (zstd || lz4) {
      /* nvcc pads the stride (size) to 8; compressed_size is the stream's
       * exact length, which the decoders need.  Older writers may leave it
       * 0: the whole stride is the stream then. */
      e.payload_size = csize ? csize : size;
      e.uncompressed_size = usize;
   }
   *stride = hsize + span;
   return push_entry(ps, &e);
}

/* One fatbin at fb with avail bytes of bound; *consumed gets its length. */
static fatbin_status parse_fatbin(fatbin_parser *ps, const uint8_t *fb, uint64_t avail,
                                  uint64_t *consumed)
{
   if (avail < FATBIN_HEADER_SIZE)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: header truncated (%" PRIu64 " bytes, the header needs %d)", ps->where,
                  avail, FATBIN_HEADER_SIZE);
   uint32_t magic = rd32(fb);
   if (magic != FATBIN_MAGIC)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: bad magic %#010x (a fatbin starts with %#010x)", ps->where, magic,
                  FATBIN_MAGIC);
   uint16_t version = rd16(fb + 4), hsize = rd16(fb + 6);
   uint64_t files = rd64(fb + 8);
   if (version != 1)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: version %u is not the known version 1", ps->where, version);
   if (hsize < FATBIN_HEADER_SIZE || hsize > avail)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: header_size %u is %s (%" PRIu64 " bytes available)", ps->where, hsize,
                  hsize < FATBIN_HEADER_SIZE ? "below the 16-byte minimum" : "past the image end",
                  avail);
   if (files > avail - hsize)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: files_size %" PRIu64 " runs past the image end (%" PRIu64
                  " bytes after the header)",
                  ps->where, files, avail - hsize);
   /* Unbounded: the header is the only bound, but the range must not wrap
    * the address space. */
   if (files + hsize > UINTPTR_MAX - (uintptr_t)fb)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "%s: files_size %" PRIu64 " wraps the address space", ps->where, files);

   const uint8_t *files_p = fb + hsize;
   uint64_t off = 0;
   for (uint32_t i = 0; off < files; i++) {
      uint64_t stride = 0;
      fatbin_status st = parse_entry(ps, files_p + off, hsize + off, files - off, i, &stride);
      if (st != FATBIN_OK)
         return st;
      off += stride;        /* stride <= files - off, checked in parse_entry */
   }
   *consumed = hsize + files;
   return FATBIN_OK;
}

static void set_where(fatbin_parser *ps, const void *fb)
{
   size_t off;
   if (bounded(ps) && offset_of(ps, fb, &off))
      snprintf(ps->where, sizeof(ps->where), "fatbin at image offset %#zx", off);
   else
      snprintf(ps->where, sizeof(ps->where), "fatbin at %p", fb);
}

/* A fatbin a wrapper points at; what names the pointer for messages. */
static fatbin_status parse_fatbin_ptr(fatbin_parser *ps, const void *fb, const char *what)
{
   uint64_t avail = UINT64_MAX, used;
   if (bounded(ps)) {
      size_t off;
      if (!offset_of(ps, fb, &off))
         return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                     "wrapper: %s %p points outside the %zu-byte image", what, fb, ps->len);
      avail = ps->len - off;
   }
   set_where(ps, fb);
   return parse_fatbin(ps, fb, avail, &used);
}

static fatbin_status parse_wrapper(fatbin_parser *ps)
{
   const uint8_t *w = ps->base;
   if (ps->len < FATBIN_WRAPPER_SIZE)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "wrapper truncated: %zu bytes, it needs %zu", ps->len,
                  (size_t)FATBIN_WRAPPER_SIZE);
   uint32_t version = rd32(w + 4);
   const void *data = rdptr(w + 8);
   const uint8_t *list = rdptr(w + 8 + sizeof(void *));
   if (version != 1 && version != 2)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                  "wrapper: version %u is neither 1 (one fatbin) nor 2 (with prelinked fatbins)",
                  version);
   if (!data && version == 1)
      return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen, "wrapper: data pointer is NULL");
   if (data) {
      fatbin_status st = parse_fatbin_ptr(ps, data, "data");
      if (st != FATBIN_OK)
         return st;
   }
   /* v1: filename_or_fatbins is an offline file name we never need. */
   if (version == 1 || !list)
      return FATBIN_OK;
   for (uint32_t i = 0;; i++) {
      const uint8_t *slot = list + (size_t)i * sizeof(void *);
      if (bounded(ps)) {
         size_t off;
         if (!offset_of(ps, slot, &off) || ps->len - off < sizeof(void *))
            return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen,
                        "wrapper v2: prelinked fatbin list slot %u at %p lies outside the "
                        "%zu-byte image (list not NULL-terminated?)",
                        i, (const void *)slot, ps->len);
      }
      const void *fb = rdptr(slot);
      if (!fb)
         return FATBIN_OK;
      char what[48];
      snprintf(what, sizeof(what), "prelinked fatbin %u", i);
      if (i == UINT32_MAX - 1)
         return fail(FATBIN_ERR_FORMAT, ps->err, ps->errlen, "wrapper v2: too many prelinked fatbins");
      ps->unit = i + 1;
      fatbin_status st = parse_fatbin_ptr(ps, fb, what);
      if (st != FATBIN_OK)
         return st;
   }
}

/* A bare fatbin; with a bound, the fatbins that follow it back to back. */
static fatbin_status parse_fatbins(fatbin_parser *ps)
{
   uint64_t off = 0;
   for (;;) {
      uint64_t used;
      set_where(ps, ps->base + off);
      fatbin_status st = parse_fatbin(ps, ps->base + off, bounded(ps) ? ps->len - off : UINT64_MAX,
                                      &used);
      if (st != FATBIN_OK || !bounded(ps))
         return st;
      /* Fatbins in a section are 8-aligned; anything but another fatbin
       * header after this one ends the walk. */
      uint64_t next = ALIGN_UP(off + used, 8);
      if (next < off + used || next > ps->len || ps->len - next < FATBIN_HEADER_SIZE ||
          rd32(ps->base + next) != FATBIN_MAGIC)
         return FATBIN_OK;
      off = next;
   }
}

fatbin_status fatbin_parse(const void *image, size_t image_len, fatbin_entries *out,
                           char *err, size_t errlen)
{
   fatbin_parser ps = { .base = image, .len = image_len, .out = out, .err = err, .errlen = errlen };
   out->v = NULL;
   out->n = 0;
   if (err && errlen)
      err[0] = '\0';
   if (!image)
      return fail(FATBIN_ERR_FORMAT, err, errlen, "image pointer is NULL");
   fatbin_status st;
   switch (fatbin_classify(image, image_len)) {
   case FATBIN_IMAGE_WRAPPER: st = parse_wrapper(&ps); break;
   case FATBIN_IMAGE_FATBIN: st = parse_fatbins(&ps); break;
   default: {
      const uint8_t *p = image;
      return fail(FATBIN_ERR_FORMAT, err, errlen,
                  "not a fatbin: the image starts with %02x %02x %02x %02x, neither a fatbin "
                  "wrapper (b1 43 62 46) nor a fatbin (50 ed 55 ba)",
                  image_len > 0 ? p[0] : 0, image_len > 1 ? p[1] : 0, image_len > 2 ? p[2] : 0,
                  image_len > 3 ? p[3] : 0);
   }
   }
   if (st != FATBIN_OK)
      fatbin_entries_free(out);
   return st;
}

void fatbin_entries_free(fatbin_entries *e)
{
   mc_free(e->v);
   e->v = NULL;
   e->n = 0;
}

/* ---- selection ---- */

/* Arch-specific (sm_90a) and family (sm_100f) PTX promise features of one
 * NVIDIA generation; at equal sm the portable PTX is the safer input. */
static bool better_at_same_sm(const fatbin_entry *cand, const fatbin_entry *best)
{
   uint64_t special = FATBIN_FLAG_ARCH_SPECIFIC | FATBIN_FLAG_FAMILY;
   return (best->flags & special) && !(cand->flags & special);
}

const fatbin_entry *fatbin_select_ptx(const fatbin_entries *e, uint32_t max_sm)
{
   const fatbin_entry *below = NULL, *above = NULL;
   for (uint32_t i = 0; i < e->n; i++) {
      const fatbin_entry *c = &e->v[i];
      if (c->kind != FATBIN_KIND_PTX)
         continue;
      if (c->sm <= max_sm) {
         if (!below || c->sm > below->sm || (c->sm == below->sm && better_at_same_sm(c, below)))
            below = c;
      } else {
         if (!above || c->sm < above->sm || (c->sm == above->sm && better_at_same_sm(c, above)))
            above = c;
      }
   }
   return below ? below : above;
}

/* ---- payloads ---- */

static const char *kind_name(uint32_t kind)
{
   switch (kind) {
   case FATBIN_KIND_PTX: return "PTX";
   case FATBIN_KIND_ELF: return "SASS (ELF)";
   case FATBIN_KIND_LTOIR: return "LTO-IR";
   }
   return "unknown-kind";
}

/* Decompresses into dst; a failure message names the entry first. */
static fatbin_status decode(const fatbin_entry *e, bool zstd, uint8_t *dst, size_t cap,
                            size_t *got, char *err, size_t errlen)
{
   char why[384] = "";
   fatbin_status st =
      zstd ? decompress_zstd(e->payload, e->payload_size, dst, cap, got, why, sizeof(why))
           : decompress_lz4(e->payload, e->payload_size, dst, cap, got, why, sizeof(why));
   if (st != FATBIN_OK)
      fail(st, err, errlen, "%s sm_%u entry: %s", kind_name(e->kind), e->sm, why);
   return st;
}

fatbin_status fatbin_entry_data(const fatbin_entry *e, uint8_t **data, size_t *len,
                                char *err, size_t errlen)
{
   *data = NULL;
   *len = 0;
   bool zstd = e->flags & FATBIN_FLAG_ZSTD, lz4 = e->flags & FATBIN_FLAG_LZ4;
   if (!zstd && !lz4) {
      if (e->payload_size > SIZE_MAX - 1)
         return fail(FATBIN_ERR_FORMAT, err, errlen, "%s sm_%u entry: payload of %" PRIu64
                     " bytes does not fit in memory", kind_name(e->kind), e->sm, e->payload_size);
      uint8_t *d = mc_malloc((size_t)e->payload_size + 1);
      if (!d)
         return fail(FATBIN_ERR_NOMEM, err, errlen, "out of memory copying a %" PRIu64
                     "-byte %s entry", e->payload_size, kind_name(e->kind));
      memcpy(d, e->payload, (size_t)e->payload_size);
      d[e->payload_size] = 0;
      *data = d;
      *len = (size_t)e->payload_size;
      return FATBIN_OK;
   }
   const char *codec = zstd ? "zstd" : "LZ4";
   uint64_t want = e->uncompressed_size;
   if (zstd && !want) {
      /* No size in the entry header: the frame may declare one. */
      char why[384] = "";
      fatbin_status st = decompress_zstd_frame_size(e->payload, e->payload_size, &want,
                                                    why, sizeof(why));
      if (st != FATBIN_OK)
         return fail(st, err, errlen, "%s sm_%u entry: %s", kind_name(e->kind), e->sm, why);
   }
   uint64_t ratio = zstd ? FATBIN_ZSTD_MAX_RATIO : FATBIN_LZ4_MAX_RATIO;
   uint64_t limit = e->payload_size >= FATBIN_MAX_TEXT / ratio
                       ? FATBIN_MAX_TEXT
                       : MC_MIN(FATBIN_MAX_TEXT, e->payload_size * ratio + 64);
   if (want > limit)
      return fail(FATBIN_ERR_FORMAT, err, errlen,
                  "%s sm_%u entry: uncompressed_size %" PRIu64 " is impossible for %" PRIu64
                  " bytes of %s (limit %" PRIu64 ")",
                  kind_name(e->kind), e->sm, want, e->payload_size, codec, limit);

   /* A declared size is one exact attempt; otherwise double until it fits,
    * since a decoder cannot tell "too small" from "corrupt". */
   uint64_t cap = want ? want : MC_MIN((uint64_t)FATBIN_GROW_START, limit);
   uint64_t grow_limit = want ? want : MC_MIN(limit, FATBIN_GROW_CAP);
   for (;;) {
      uint8_t *d = mc_malloc((size_t)cap + 1);
      if (!d)
         return fail(FATBIN_ERR_NOMEM, err, errlen,
                     "out of memory allocating %" PRIu64 " bytes to decompress a %s entry",
                     cap + 1, kind_name(e->kind));
      size_t got = 0;
      fatbin_status st = decode(e, zstd, d, (size_t)cap, &got, err, errlen);
      if (st == FATBIN_OK && want && got != want)
         st = fail(FATBIN_ERR_CODEC, err, errlen,
                   "%s sm_%u entry: %s data decompressed to %zu bytes, the header says %" PRIu64,
                   kind_name(e->kind), e->sm, codec, got, want);
      if (st == FATBIN_OK) {
         d[got] = 0;
         *data = d;
         *len = got;
         return FATBIN_OK;
      }
      mc_free(d);
      if (st != FATBIN_ERR_CODEC || cap >= grow_limit)
         return st;
      cap = MC_MIN(cap * 2, grow_limit);
   }
}

fatbin_status fatbin_entry_text(const fatbin_entry *e, char **text, size_t *len,
                                char *err, size_t errlen)
{
   *text = NULL;
   *len = 0;
   if (e->kind != FATBIN_KIND_PTX)
      return fail(FATBIN_ERR_NO_PTX, err, errlen, "entry for sm_%u is %s, not PTX", e->sm,
                  kind_name(e->kind));
   uint8_t *d;
   size_t n;
   fatbin_status st = fatbin_entry_data(e, &d, &n, err, errlen);
   if (st != FATBIN_OK)
      return st;
   /* Uncompressed payloads are padded to 8 with NULs; the text ends at the
    * first of them, and a NUL before that is damage, not padding. */
   while (n && d[n - 1] == 0)
      n--;
   const uint8_t *nul = memchr(d, 0, n);
   if (nul) {
      size_t at = (size_t)(nul - d);
      mc_free(d);
      return fail(FATBIN_ERR_FORMAT, err, errlen,
                  "PTX entry for sm_%u: NUL byte at text offset %zu of %zu (binary data, "
                  "not PTX text)", e->sm, at, n);
   }
   d[n] = 0;
   *text = (char *)d;
   *len = n;
   return FATBIN_OK;
}

/* ---- the whole path ---- */

#define FATBIN_REBUILD_HINT                                                   \
   "metalcuda translates PTX, so rebuild with PTX embedded, e.g. nvcc "      \
   "-gencode arch=compute_75,code=compute_75 (default nvcc flags embed "     \
   "compute_75 PTX too)"

/* What the binary holds instead of PTX: "sm_75, sm_90" when it is all
 * SASS, else "SASS (ELF) sm_75; LTO-IR sm_75". */
static void describe_entries(const fatbin_entries *es, bool with_kind, char *buf, size_t size)
{
   size_t used = 0;
   buf[0] = '\0';
   for (uint32_t i = 0; i < es->n && used < size; i++) {
      bool first_of_kind = true;
      for (uint32_t j = 0; j < i; j++)
         first_of_kind &= es->v[j].kind != es->v[i].kind;
      if (!first_of_kind)
         continue;
      if (with_kind)
         used += (size_t)snprintf(buf + used, size - used, "%s%s ", used ? "; " : "",
                                  kind_name(es->v[i].kind));
      for (uint32_t j = i; j < es->n && used < size; j++)
         if (es->v[j].kind == es->v[i].kind)
            used += (size_t)snprintf(buf + used, size - used, "%ssm_%u", j == i ? "" : ", ",
                                     es->v[j].sm);
   }
}

/* An ELF image's e_machine (bytes 18-19, in the byte order byte 5 names)
 * is EM_CUDA (190) for a cubin; a host program's is its CPU's. */
static bool elf_is_cubin(const uint8_t *p, size_t len)
{
   if (len < 20)
      return true;   /* too short to tell: the cubin message, as before */
   unsigned machine = p[5] == 2 ? (unsigned)p[18] << 8 | p[19] : (unsigned)p[19] << 8 | p[18];
   return machine == 190;
}

static fatbin_status no_ptx(const fatbin_entries *es, char *err, size_t errlen)
{
   char found[256];
   bool only_sass = es->n > 0;
   for (uint32_t i = 0; i < es->n; i++)
      only_sass &= es->v[i].kind == FATBIN_KIND_ELF;
   describe_entries(es, !only_sass, found, sizeof(found));
   if (only_sass)
      return fail(FATBIN_ERR_NO_PTX, err, errlen,
                  "the binary carries only SASS (%s), machine code for NVIDIA GPUs, and no "
                  "PTX; " FATBIN_REBUILD_HINT, found);
   return fail(FATBIN_ERR_NO_PTX, err, errlen, "the binary carries no PTX (%s); "
               FATBIN_REBUILD_HINT, es->n ? found : "its fatbins are empty");
}

fatbin_status fatbin_extract_ptx(const void *image, size_t image_len, uint32_t max_sm,
                                 char **text, size_t *len, char *err, size_t errlen)
{
   *text = NULL;
   *len = 0;
   if (err && errlen)
      err[0] = '\0';
   if (!image)
      return fail(FATBIN_ERR_FORMAT, err, errlen, "image pointer is NULL");
   switch (fatbin_classify(image, image_len)) {
   case FATBIN_IMAGE_PTX: {
      size_t n = strnlen(image, image_len);
      char *t = mc_malloc(n + 1);
      if (!t)
         return fail(FATBIN_ERR_NOMEM, err, errlen, "out of memory copying %zu bytes of PTX", n);
      memcpy(t, image, n);
      t[n] = 0;
      *text = t;
      *len = n;
      return FATBIN_OK;
   }
   case FATBIN_IMAGE_ELF:
      if (!elf_is_cubin(image, image_len))   /* the status as before; only the message tells it apart */
         return fail(FATBIN_ERR_NO_PTX, err, errlen,
                     "the image is an ELF file for another machine than an NVIDIA GPU (a host program or "
                     "library?), not PTX, a fatbin or a cubin; its kernels' PTX is in its fatbins, which "
                     "`metalcuda run PROGRAM` with METALCUDA_DUMP=DIR writes out");
      return fail(FATBIN_ERR_NO_PTX, err, errlen,
                  "the image is an ELF cubin: the binary carries only SASS, machine code for "
                  "NVIDIA GPUs, and no PTX; " FATBIN_REBUILD_HINT);
   case FATBIN_IMAGE_WRAPPER:
   case FATBIN_IMAGE_FATBIN:
      break;
   case FATBIN_IMAGE_UNKNOWN:
   default: {
      const uint8_t *p = image;
      return fail(FATBIN_ERR_FORMAT, err, errlen,
                  "unrecognised image: it starts with %02x %02x %02x %02x, which is not a "
                  "fatbin wrapper (b1 43 62 46), a fatbin (50 ed 55 ba), ELF (7f 45 4c 46) or "
                  "PTX text",
                  image_len > 0 ? p[0] : 0, image_len > 1 ? p[1] : 0, image_len > 2 ? p[2] : 0,
                  image_len > 3 ? p[3] : 0);
   }
   }
   fatbin_entries es;
   fatbin_status st = fatbin_parse(image, image_len, &es, err, errlen);
   if (st != FATBIN_OK)
      return st;
   const fatbin_entry *e = fatbin_select_ptx(&es, max_sm);
   if (e)
      LOG_TRACE("%u entries; PTX for sm_%u (ISA %u.%u, flags %#" PRIx64 ") for max sm_%u",
                es.n, e->sm, e->isa_major, e->isa_minor, e->flags, max_sm);
   st = e ? fatbin_entry_text(e, text, len, err, errlen) : no_ptx(&es, err, errlen);
   fatbin_entries_free(&es);
   return st;
}

/* ---- units of relocatable device code ---- */

void fatbin_ptx_units_free(fatbin_ptx_units *u)
{
   for (uint32_t i = 0; i < u->n; i++)
      mc_free(u->text[i]);
   mc_free(u->text);
   mc_free(u->len);
   u->text = NULL;
   u->len = NULL;
   u->n = 0;
}

bool fatbin_ptx_units_add(fatbin_ptx_units *u, char *text, size_t len)
{
   char **t = mc_realloc(u->text, (u->n + 1) * sizeof(*t));
   if (!t)
      return false;
   u->text = t;
   size_t *l = mc_realloc(u->len, (u->n + 1) * sizeof(*l));
   if (!l)
      return false;
   u->len = l;
   t[u->n] = text;
   l[u->n] = len;
   u->n++;
   return true;
}

/* The entries of one unit, as a list of their own (pointing into es). */
static fatbin_status unit_entries(const fatbin_entries *es, uint32_t unit, fatbin_entries *out,
                                  char *err, size_t errlen)
{
   out->n = 0;
   out->v = mc_malloc((es->n ? es->n : 1) * sizeof(*out->v));
   if (!out->v)
      return fail(FATBIN_ERR_NOMEM, err, errlen, "out of memory listing a unit's entries");
   for (uint32_t i = 0; i < es->n; i++)
      if (es->v[i].unit == unit)
         out->v[out->n++] = es->v[i];
   return FATBIN_OK;
}

/* One text per prelinked unit (es has PTX in at least one of them). */
static fatbin_status extract_units(const fatbin_entries *es, uint32_t nunits, uint32_t max_sm,
                                   fatbin_ptx_units *out, char *err, size_t errlen)
{
   out->text = mc_calloc(nunits, sizeof(*out->text));
   out->len = mc_calloc(nunits, sizeof(*out->len));
   if (!out->text || !out->len)
      return fail(FATBIN_ERR_NOMEM, err, errlen, "out of memory listing %u units", nunits);
   fatbin_status st = FATBIN_OK;
   for (uint32_t u = 1; u <= nunits && st == FATBIN_OK; u++) {
      fatbin_entries ue;
      st = unit_entries(es, u, &ue, err, errlen);
      if (st != FATBIN_OK)
         break;
      const fatbin_entry *e = fatbin_select_ptx(&ue, max_sm);
      if (e) {
         st = fatbin_entry_text(e, &out->text[out->n], &out->len[out->n], err, errlen);
         if (st == FATBIN_OK)
            out->n++;
      } else if (ue.n) {
         char why[384];
         no_ptx(&ue, why, sizeof(why));
         st = fail(FATBIN_ERR_NO_PTX, err, errlen, "unit %u of %u of the relocatable device code: %s",
                   u, nunits, why);
      }
      fatbin_entries_free(&ue);
   }
   return st;
}

fatbin_status fatbin_extract_ptx_units(const void *image, size_t image_len, uint32_t max_sm,
                                       fatbin_ptx_units *out, char *err, size_t errlen)
{
   out->text = NULL;
   out->len = NULL;
   out->n = 0;
   if (err && errlen)
      err[0] = '\0';
   uint32_t nunits = 0;
   bool unit_ptx = false;
   fatbin_entries es = { 0 };
   if (fatbin_classify(image, image_len) == FATBIN_IMAGE_WRAPPER) {
      fatbin_status st = fatbin_parse(image, image_len, &es, err, errlen);
      if (st != FATBIN_OK)
         return st;
      for (uint32_t i = 0; i < es.n; i++) {
         nunits = MC_MAX(nunits, es.v[i].unit);
         unit_ptx |= es.v[i].unit && es.v[i].kind == FATBIN_KIND_PTX;
      }
   }
   fatbin_status st;
   if (unit_ptx) {
      LOG_TRACE("%u entries in %u units of relocatable device code", es.n, nunits);
      st = extract_units(&es, nunits, max_sm, out, err, errlen);
   } else {
      /* Whole-program code: the image's one PTX. */
      out->text = mc_calloc(1, sizeof(*out->text));
      out->len = mc_calloc(1, sizeof(*out->len));
      st = out->text && out->len ? FATBIN_OK
                                 : fail(FATBIN_ERR_NOMEM, err, errlen, "out of memory");
      if (st == FATBIN_OK)
         st = fatbin_extract_ptx(image, image_len, max_sm, &out->text[0], &out->len[0], err, errlen);
      if (st == FATBIN_OK)
         out->n = 1;
   }
   fatbin_entries_free(&es);
   if (st != FATBIN_OK)
      fatbin_ptx_units_free(out);
   return st;
}
