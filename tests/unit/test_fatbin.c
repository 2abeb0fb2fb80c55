/*
 * test_fatbin.c — the fatbin reader against real nvcc 13.0.88 output.
 *
 * The fixtures in tests/unit/fixtures/ come from gen_fatbins.sh and are
 * committed, so this runs without a CUDA toolkit.  Expected values (entry
 * kinds, sm, flags, sizes) were read off the fixtures with a hex dump, not
 * from this reader.  Malformed-input tests copy each image into a buffer of
 * exactly its length so ASan sees any read past the end.
 */
#include "harness.h"

#include "compiler/compiler.h"

#include "../../src/fatbin/fatbin.h"
#include "../../src/util/util.h"

#include <pthread.h>
#include <stdlib.h>

#define KERNEL_ENTRY ".entry _Z3addPKfS0_Pfi("

/* ---- helpers ---- */

static uint8_t *fixture(const char *name, size_t *len)
{
   char path[512];
   snprintf(path, sizeof(path), "%s/unit/fixtures/%s", test_srcdir(), name);
   size_t n = 0;
   uint8_t *p = (uint8_t *)file_read(path, &n);
   if (!p) {
      test_fail_(__FILE__, __LINE__, "cannot read fixture %s", path);
      return NULL;
   }
   if (len)
      *len = n;
   return p;
}

/* An exact-size heap copy, so ASan catches any read past len. */
static uint8_t *exact_copy(const uint8_t *p, size_t len)
{
   uint8_t *c = malloc(len ? len : 1);
   if (len)
      memcpy(c, p, len);
   return c;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static void putptr(uint8_t *p, const void *v) { memcpy(p, &v, sizeof(v)); }

/* The wrapper layout of fatbinary_section.h, written out by hand. */
static void make_wrapper(uint8_t *w, uint32_t version, const void *data, const void *list)
{
   put32(w, 0x466243B1u);
   put32(w + 4, version);
   putptr(w + 8, data);
   putptr(w + 8 + sizeof(void *), list);
}
#define WRAPPER_SIZE (8 + 2 * sizeof(void *))

/* Text of the fixture's selected PTX; NULL (and a FAIL) if it does not
 * extract. */
static char *ptx_of(const char *name, uint32_t max_sm, size_t *len)
{
   size_t n;
   uint8_t *img = fixture(name, &n);
   if (!img)
      return NULL;
   char *text = NULL, err[512];
   size_t tl = 0;
   fatbin_status st = fatbin_extract_ptx(img, n, max_sm, &text, &tl, err, sizeof(err));
   free(img);
   if (st != FATBIN_OK) {
      test_fail_(__FILE__, __LINE__, "%s: got %s (%s), expected OK", name,
                 fatbin_status_name(st), err);
      return NULL;
   }
   if (len)
      *len = tl;
   return text;
}

/* What the PTX of add.cu looks like inside a fatbin: nvcc strips the
 * comment header and indentation, so the text opens with blank lines and
 * .version. */
static const char *check_fatbin_ptx(const char *t, size_t len, const char *target)
{
   if (strlen(t) != len)
      return "length disagrees with strlen";
   if (len && t[len - 1] == '\0')
      return "trailing NUL kept";
   size_t ws = strspn(t, " \t\r\n");
   if (strncmp(t + ws, ".version 9.0\n", 13))
      return "does not open with .version 9.0";
   if (!strstr(t, target))
      return "lacks the expected .target";
   if (!strstr(t, KERNEL_ENTRY))
      return "lacks .entry _Z3addPKfS0_Pfi";
   return NULL;
}

/* Runs parse and entry_text/entry_data on every entry; the status of the
 * first failure, else OK.  Frees everything. */
static fatbin_status parse_and_decode(const void *img, size_t len, char *err, size_t errlen)
{
   fatbin_entries es;
   fatbin_status st = fatbin_parse(img, len, &es, err, errlen);
   if (st != FATBIN_OK)
      return st;
   for (uint32_t i = 0; i < es.n && st == FATBIN_OK; i++) {
      if (es.v[i].kind == FATBIN_KIND_PTX) {
         char *t;
         size_t tl;
         st = fatbin_entry_text(&es.v[i], &t, &tl, err, errlen);
         if (st == FATBIN_OK)
            free(t);
      } else {
         uint8_t *d;
         size_t dl;
         st = fatbin_entry_data(&es.v[i], &d, &dl, err, errlen);
         if (st == FATBIN_OK)
            free(d);
      }
   }
   fatbin_entries_free(&es);
   return st;
}

/* ---- classification ---- */

/* A host program handed over as an image (metalcuda translate PROGRAM)
 * is not called a cubin: its ELF header names x86-64 (62) or AArch64
 * (183), a cubin's EM_CUDA (190). */
TEST(host_elf_is_not_taken_for_a_cubin)
{
   uint8_t host[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
   char *t = NULL, err[512];
   size_t tl = 0;
   static const unsigned machines[] = { 62, 183 };
   for (size_t i = 0; i < ARRAY_SIZE(machines); i++) {
      host[18] = (uint8_t)machines[i];
      CHECK_INT(fatbin_extract_ptx(host, sizeof(host), 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
      CHECK_CONTAINS(err, "another machine than an NVIDIA GPU");
      CHECK(!strstr(err, "only SASS"));
   }
   host[18] = 190;   /* EM_CUDA, little-endian */
   CHECK_INT(fatbin_extract_ptx(host, sizeof(host), 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "only SASS");
   CHECK(t == NULL);
}

TEST(fatbin_classify_kinds)
{
   static const uint8_t wrap[] = { 0xb1, 0x43, 0x62, 0x46, 1, 0, 0, 0 };
   static const uint8_t fat[] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0 };
   CHECK_INT(fatbin_classify(wrap, sizeof(wrap)), FATBIN_IMAGE_WRAPPER);
   CHECK_INT(fatbin_classify(fat, sizeof(fat)), FATBIN_IMAGE_FATBIN);
   CHECK_INT(fatbin_classify("\x7f" "ELF\2\1\1", 7), FATBIN_IMAGE_ELF);
   CHECK_INT(fatbin_classify("//\n// Generated", SIZE_MAX), FATBIN_IMAGE_PTX);
   CHECK_INT(fatbin_classify("\n\n.version 9.0", 14), FATBIN_IMAGE_PTX);
   CHECK_INT(fatbin_classify("  /* c */ .version", SIZE_MAX), FATBIN_IMAGE_PTX);
   CHECK_INT(fatbin_classify("hello", SIZE_MAX), FATBIN_IMAGE_UNKNOWN);
   CHECK_INT(fatbin_classify("/", 1), FATBIN_IMAGE_UNKNOWN);
   CHECK_INT(fatbin_classify("", SIZE_MAX), FATBIN_IMAGE_UNKNOWN);
   CHECK_INT(fatbin_classify(fat, 3), FATBIN_IMAGE_UNKNOWN);   /* magic cut short */
   CHECK_INT(fatbin_classify(wrap, 0), FATBIN_IMAGE_UNKNOWN);
   CHECK_INT(fatbin_classify(NULL, 4), FATBIN_IMAGE_UNKNOWN);
}

/* ---- real nvcc output, one codec each ---- */

/* Entry header values as read off the fixture with a hex dump. */
static void check_single_ptx(const char *name, uint64_t codec_flag, uint64_t payload_size,
                             uint64_t uncompressed)
{
   size_t n;
   uint8_t *img = fixture(name, &n);
   if (!img)
      return;
   uint8_t *c = exact_copy(img, n);
   free(img);
   CHECK_INT(fatbin_classify(c, n), FATBIN_IMAGE_FATBIN);
   fatbin_entries es;
   char err[512];
   fatbin_status st = fatbin_parse(c, n, &es, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "%s: got %s (%s)", name, fatbin_status_name(st), err);
   CHECK_INT(es.n, 1);
   CHECK_INT(es.v[0].kind, FATBIN_KIND_PTX);
   CHECK_INT(es.v[0].sm, 75);
   CHECK_U64(es.v[0].flags, 0x11 | codec_flag);
   CHECK_U64(es.v[0].payload_size, payload_size);
   CHECK_U64(es.v[0].uncompressed_size, uncompressed);
   CHECK_INT(es.v[0].isa_major, 9);
   CHECK_INT(es.v[0].isa_minor, 0);
   CHECK(es.v[0].payload == c + 16 + 80);
   char *t;
   size_t tl;
   st = fatbin_entry_text(&es.v[0], &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "%s: got %s (%s)", name, fatbin_status_name(st), err);
   const char *bad = check_fatbin_ptx(t, tl, ".target sm_75\n");
   CHECK_MSG(!bad, "%s: PTX %s: \"%.80s\"", name, bad, t);
   /* uncompressed_size 966 counts the NUL nvcc stores after the text */
   CHECK_INT(tl, 965);
   free(t);
   fatbin_entries_free(&es);
   free(c);
}

TEST(fatbin_zstd_default)
{
   check_single_ptx("add_zstd.fatbin", FATBIN_FLAG_ZSTD, 397, 966);
}

TEST(fatbin_uncompressed)
{
   /* payload is the text plus 2 NULs of padding to 968 */
   check_single_ptx("add_none.fatbin", 0, 968, 0);
}

TEST(fatbin_lz4)
{
   check_single_ptx("add_lz4.fatbin", FATBIN_FLAG_LZ4, 520, 966);
}

TEST(fatbin_codecs_agree)
{
   size_t lz, ln, l4;
   char *z = ptx_of("add_zstd.fatbin", 75, &lz);
   char *u = ptx_of("add_none.fatbin", 75, &ln);
   char *l = ptx_of("add_lz4.fatbin", 75, &l4);
   CHECK(z && u && l);
   CHECK_INT(lz, ln);
   CHECK_INT(l4, ln);
   CHECK(!memcmp(z, u, ln) && !memcmp(l, u, ln));
   free(z);
   free(u);
   free(l);
}

TEST(fatbin_multi_arch_selection)
{
   size_t n;
   uint8_t *img = fixture("add_multi.fatbin", &n);
   if (!img)
      return;
   fatbin_entries es;
   char err[512];
   CHECK_INT(fatbin_parse(img, n, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 2);
   CHECK_INT(es.v[0].sm, 75);
   CHECK_INT(es.v[1].sm, 90);
   /* next entry = entry + header_size (80) + size (400), not + 397 */
   CHECK(es.v[1].payload == img + 16 + 80 + 400 + 80);
   static const struct { uint32_t max_sm, want; } cases[] = {
      { 75, 75 }, { 80, 75 }, { 89, 75 }, { 90, 90 }, { 120, 90 },
      { 50, 75 },          /* none at or below: the lowest above */
   };
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      const fatbin_entry *e = fatbin_select_ptx(&es, cases[i].max_sm);
      CHECK_MSG(e && e->sm == cases[i].want, "max_sm %u: got sm %u, expected %u",
                cases[i].max_sm, e ? e->sm : 0, cases[i].want);
   }
   fatbin_entries_free(&es);
   free(img);

   char *t = ptx_of("add_multi.fatbin", 90, &n);
   CHECK(t);
   const char *bad = check_fatbin_ptx(t, n, ".target sm_90\n");
   CHECK_MSG(!bad, "sm_90 PTX %s", bad);
   free(t);
   t = ptx_of("add_multi.fatbin", 86, &n);
   CHECK(t);
   bad = check_fatbin_ptx(t, n, ".target sm_75\n");
   CHECK_MSG(!bad, "sm_75 PTX %s", bad);
   free(t);
}

TEST(fatbin_select_prefers_portable_ptx)
{
   fatbin_entry v[] = {
      { .kind = FATBIN_KIND_PTX, .sm = 90, .flags = 0x11 | FATBIN_FLAG_ARCH_SPECIFIC },
      { .kind = FATBIN_KIND_PTX, .sm = 90, .flags = 0x11 },
      { .kind = FATBIN_KIND_ELF, .sm = 90, .flags = 0x11 },
      { .kind = FATBIN_KIND_LTOIR, .sm = 80, .flags = 0x11 },
   };
   fatbin_entries es = { v, 4 };
   CHECK(fatbin_select_ptx(&es, 90) == &v[1]);
   CHECK(fatbin_select_ptx(&es, 60) == &v[1]);
   es.n = 1;
   CHECK(fatbin_select_ptx(&es, 90) == &v[0]);
   fatbin_entries none = { v + 2, 2 };
   CHECK(fatbin_select_ptx(&none, 90) == NULL);
}

TEST(fatbin_sass_only_is_no_ptx)
{
   size_t n;
   uint8_t *img = fixture("add_sass.fatbin", &n);
   if (!img)
      return;
   fatbin_entries es;
   char err[512];
   CHECK_INT(fatbin_parse(img, n, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 1);
   CHECK_INT(es.v[0].kind, FATBIN_KIND_ELF);
   CHECK(fatbin_select_ptx(&es, 75) == NULL);
   char *t;
   size_t tl;
   CHECK_INT(fatbin_entry_text(&es.v[0], &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "not PTX");
   uint8_t *d;
   size_t dl;
   CHECK_INT(fatbin_entry_data(&es.v[0], &d, &dl, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(dl, 3240);
   CHECK(!memcmp(d, "\x7f" "ELF", 4));

   /* The ELF itself, handed over as an image. */
   CHECK_INT(fatbin_classify(d, dl), FATBIN_IMAGE_ELF);
   CHECK_INT(fatbin_extract_ptx(d, dl, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "only SASS");
   CHECK_CONTAINS(err, "-gencode arch=compute_75,code=compute_75");
   free(d);
   fatbin_entries_free(&es);

   CHECK_INT(fatbin_extract_ptx(img, n, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK(t == NULL);
   CHECK_CONTAINS(err, "only SASS (sm_75)");
   CHECK_CONTAINS(err, "rebuild with PTX");
   CHECK_CONTAINS(err, "-gencode arch=compute_75,code=compute_75");
   free(img);
}

TEST(fatbin_compressed_elf)
{
   /* -Xfatbin -compress-all: the sm_75 ELF is zstd-compressed too */
   size_t n;
   uint8_t *img = fixture("add_all.fatbin", &n);
   if (!img)
      return;
   fatbin_entries es;
   char err[512];
   CHECK_INT(fatbin_parse(img, n, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 2);
   CHECK_INT(es.v[0].kind, FATBIN_KIND_ELF);
   CHECK_U64(es.v[0].flags, 0x8011);
   CHECK_U64(es.v[0].uncompressed_size, 3240);
   uint8_t *d;
   size_t dl;
   fatbin_status st = fatbin_entry_data(&es.v[0], &d, &dl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_INT(dl, 3240);
   CHECK(!memcmp(d, "\x7f" "ELF", 4));
   free(d);
   fatbin_entries_free(&es);
   free(img);
   char *t = ptx_of("add_all.fatbin", 75, &n);
   CHECK(t && !check_fatbin_ptx(t, n, ".target sm_75\n"));
   free(t);
}

TEST(fatbin_debug_entry_header)
{
   /* -G: the PTX entry header is 128 bytes (name "add.cu" and ptxas
    * options follow the fixed 64) */
   size_t n;
   uint8_t *img = fixture("add_debug.fatbin", &n);
   if (!img)
      return;
   fatbin_entries es;
   char err[512];
   CHECK_INT(fatbin_parse(img, n, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 1);
   uint32_t hsize;
   memcpy(&hsize, img + 16 + 4, 4);
   CHECK_INT(hsize, 128);
   CHECK(es.v[0].payload == img + 16 + 128);
   CHECK(es.v[0].flags & FATBIN_FLAG_DEBUG);
   fatbin_entries_free(&es);
   free(img);
   char *t = ptx_of("add_debug.fatbin", 75, &n);
   CHECK(t);
   CHECK_CONTAINS(t, ".target sm_75, debug");
   CHECK_CONTAINS(t, KERNEL_ENTRY);
   free(t);
}

TEST(fatbin_lto_only_is_no_ptx)
{
   size_t n;
   uint8_t *img = fixture("add_lto.fatbin", &n);
   if (!img)
      return;
   fatbin_entries es;
   char err[512], *t;
   size_t tl;
   CHECK_INT(fatbin_parse(img, n, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 1);
   CHECK_INT(es.v[0].kind, FATBIN_KIND_LTOIR);
   fatbin_entries_free(&es);
   CHECK_INT(fatbin_extract_ptx(img, n, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "no PTX (LTO-IR sm_75)");
   free(img);
}

TEST(fatbin_plain_ptx_text)
{
   size_t n;
   uint8_t *img = fixture("add.ptx", &n);
   if (!img)
      return;
   CHECK_INT(fatbin_classify(img, n), FATBIN_IMAGE_PTX);
   char *t, err[256];
   size_t tl;
   /* with and without a length: file_read NUL-terminates */
   for (int pass = 0; pass < 2; pass++) {
      fatbin_status st = fatbin_extract_ptx(img, pass ? SIZE_MAX : n, 75, &t, &tl, err,
                                            sizeof(err));
      CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
      CHECK_INT(tl, n);
      CHECK(!strncmp(t, "//\n// Generated by NVIDIA NVVM Compiler", 39));
      CHECK_CONTAINS(t, ".version 9.0");
      CHECK_CONTAINS(t, ".target sm_75");
      CHECK_CONTAINS(t, KERNEL_ENTRY);
      free(t);
   }
   /* A bound inside the text copies only that much. */
   CHECK_INT(fatbin_extract_ptx(img, 10, 75, &t, &tl, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(tl, 10);
   CHECK_INT(t[10], 0);
   free(t);
   free(img);
   CHECK_INT(fatbin_extract_ptx("junk", 4, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "unrecognised image: it starts with 6a 75 6e 6b");
}

/* ---- wrappers ---- */

TEST(fatbin_wrapper_v1)
{
   size_t n;
   uint8_t *fb = fixture("add_zstd.fatbin", &n);
   if (!fb)
      return;
   uint8_t w[WRAPPER_SIZE];
   char *t, err[512];
   size_t tl;
   /* Registration: only a pointer, the header's sizes are the bound. */
   make_wrapper(w, 1, fb, "offline.fatbin");
   fatbin_status st = fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK(!check_fatbin_ptx(t, tl, ".target sm_75\n"));
   free(t);

   /* Bounded: wrapper and fatbin in one buffer, pointers inside it. */
   size_t blen = 32 + n;
   uint8_t *buf = malloc(blen);
   memcpy(buf + 32, fb, n);
   make_wrapper(buf, 1, buf + 32, NULL);
   st = fatbin_extract_ptx(buf, blen, 75, &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   free(t);
   /* ...and a data pointer outside the bound is refused, not followed. */
   make_wrapper(buf, 1, fb, NULL);
   CHECK_INT(fatbin_extract_ptx(buf, blen, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "data");
   CHECK_CONTAINS(err, "outside");
   make_wrapper(buf, 1, buf + blen, NULL);     /* one past the end */
   CHECK_INT(fatbin_extract_ptx(buf, blen, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);

   make_wrapper(w, 1, NULL, NULL);
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "data pointer is NULL");
   make_wrapper(w, 3, fb, NULL);
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "version 3");
   CHECK_INT(fatbin_extract_ptx(w, WRAPPER_SIZE - 1, 75, &t, &tl, err, sizeof(err)),
             FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "wrapper truncated");
   /* data pointing at something that is not a fatbin */
   make_wrapper(w, 1, "\x50\xed\x55\xbb" "0123456789ab", NULL);
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "bad magic 0xbb55ed50");
   free(buf);
   free(fb);
}

TEST(fatbin_wrapper_v2_prelinked)
{
   size_t ns, nm, nu;
   uint8_t *sass = fixture("add_sass.fatbin", &ns);
   uint8_t *multi = fixture("add_multi.fatbin", &nm);
   uint8_t *none = fixture("add_none.fatbin", &nu);
   CHECK(sass && multi && none);
   const void *list[] = { multi, none, NULL };
   uint8_t w[WRAPPER_SIZE];
   make_wrapper(w, 2, sass, list);
   fatbin_entries es;
   char err[512], *t;
   size_t tl;
   fatbin_status st = fatbin_parse(w, SIZE_MAX, &es, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_INT(es.n, 4);
   CHECK_INT(es.v[0].kind, FATBIN_KIND_ELF);
   CHECK_INT(es.v[2].sm, 90);
   CHECK_INT(es.v[3].sm, 75);
   CHECK_INT(fatbin_select_ptx(&es, 90)->sm, 90);
   fatbin_entries_free(&es);

   /* v2 with no prelinked list: only the (SASS) data fatbin */
   make_wrapper(w, 2, sass, NULL);
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "only SASS");
   /* v2 with a NULL data but a list */
   make_wrapper(w, 2, NULL, list);
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_OK);
   free(t);

   /* Bounded: a list that runs off the end of the image without a NULL. */
   size_t blen = 32 + nm + 8;
   uint8_t *buf = malloc(blen);
   memcpy(buf + 32, multi, nm);
   make_wrapper(buf, 2, buf + 32, buf + 32 + nm);
   putptr(buf + 32 + nm, buf + 32);                  /* slot 0, no terminator */
   CHECK_INT(fatbin_parse(buf, blen, &es, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "slot 1");
   CHECK(es.v == NULL && es.n == 0);
   make_wrapper(buf, 2, buf + 32, buf + blen - 4);    /* slot 0 straddles the end */
   CHECK_INT(fatbin_parse(buf, blen, &es, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_CONTAINS(err, "slot 0");
   make_wrapper(buf, 2, buf + 32, buf + 32 + nm);
   put64(buf + 32 + nm, 0);                           /* now terminated */
   CHECK_INT(fatbin_parse(buf, blen, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 2);
   fatbin_entries_free(&es);
   free(buf);
   free(sass);
   free(multi);
   free(none);
}

/* The wrappers of a real program: .nvFatBinSegment holds absolute
 * addresses into .nv_fatbin (and __nv_relfatbin); rebase them onto the
 * loaded sections.  v2's prelinked list lives in .bss and is filled at run
 * time by __cudaRegisterLinkedBinary with the v1 wrappers' data. */
typedef struct app_image {
   uint8_t *sec[3];
   size_t len[3];
   uint64_t vma[3];
   int nsec;
} app_image;

static const uint8_t *rebase(const app_image *a, uint64_t addr)
{
   for (int i = 0; i < a->nsec; i++)
      if (addr >= a->vma[i] && addr - a->vma[i] < a->len[i])
         return a->sec[i] + (addr - a->vma[i]);
   return NULL;
}

static bool load_app(const char *prefix, const char *const *secs, int nsec, app_image *a)
{
   char name[128];
   snprintf(name, sizeof(name), "%s.sections", prefix);
   char *list = (char *)fixture(name, NULL);
   if (!list)
      return false;
   memset(a, 0, sizeof(*a));
   a->nsec = nsec;
   bool ok = true;
   for (int i = 0; i < nsec && ok; i++) {
      snprintf(name, sizeof(name), "%s.%s", prefix, secs[i] + strspn(secs[i], "._"));
      a->sec[i] = fixture(name, &a->len[i]);
      char key[64];
      snprintf(key, sizeof(key), "%s 0x", secs[i]);
      const char *at = strstr(list, key);
      ok = a->sec[i] && at;
      if (ok)
         a->vma[i] = strtoull(at + strlen(key), NULL, 16);
   }
   free(list);
   return ok;
}

static void free_app(app_image *a)
{
   for (int i = 0; i < a->nsec; i++)
      free(a->sec[i]);
}

TEST(fatbin_real_program_wrappers)
{
   static const char *const secs[] = { ".nv_fatbin", ".nvFatBinSegment" };
   app_image a;
   CHECK(load_app("app", secs, 2, &a));
   const uint8_t *seg = a.sec[1];
   CHECK_INT(a.len[1], 2 * 24);
   /* wrapper 0: v2, the device-link module; wrapper 1: v1, the unit */
   uint32_t magic, v0, v1;
   uint64_t d0, d1;
   memcpy(&magic, seg, 4);
   memcpy(&v0, seg + 4, 4);
   memcpy(&d0, seg + 8, 8);
   memcpy(&v1, seg + 24 + 4, 4);
   memcpy(&d1, seg + 24 + 8, 8);
   CHECK_U64(magic, 0x466243B1);
   CHECK_INT(v0, 2);
   CHECK_INT(v1, 1);
   const void *nolist[] = { NULL };
   uint8_t w[WRAPPER_SIZE];
   char *t, err[512];
   size_t tl;

   make_wrapper(w, 2, rebase(&a, d0), nolist);
   CHECK(rebase(&a, d0));
   CHECK_INT(fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "only SASS");

   make_wrapper(w, 1, rebase(&a, d1), NULL);
   CHECK(rebase(&a, d1));
   fatbin_status st = fatbin_extract_ptx(w, SIZE_MAX, 75, &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_CONTAINS(t, KERNEL_ENTRY);
   free(t);

   /* The whole .nv_fatbin section as one bounded image: both fatbins. */
   fatbin_entries es;
   CHECK_INT(fatbin_parse(a.sec[0], a.len[0], &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 3);
   CHECK_INT(es.v[2].kind, FATBIN_KIND_PTX);
   fatbin_entries_free(&es);
   /* Unbounded, only the first. */
   CHECK_INT(fatbin_parse(a.sec[0], SIZE_MAX, &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 1);
   fatbin_entries_free(&es);
   free_app(&a);
}

TEST(fatbin_real_rdc_program)
{
   static const char *const secs[] = { ".nv_fatbin", "__nv_relfatbin", ".nvFatBinSegment" };
   app_image a;
   CHECK(load_app("rdc", secs, 3, &a));
   const uint8_t *seg = a.sec[2];
   CHECK_INT(a.len[2], 3 * 24);
   uint64_t d[3];
   uint32_t ver[3];
   for (int i = 0; i < 3; i++) {
      memcpy(&ver[i], seg + 24 * i + 4, 4);
      memcpy(&d[i], seg + 24 * i + 8, 8);
      CHECK(rebase(&a, d[i]));
   }
   CHECK(ver[0] == 2 && ver[1] == 1 && ver[2] == 1);
   /* as __cudaRegisterLinkedBinary fills __cudaPrelinkedFatbins */
   const void *list[] = { rebase(&a, d[1]), rebase(&a, d[2]), NULL };
   uint8_t w[WRAPPER_SIZE];
   make_wrapper(w, 2, rebase(&a, d[0]), list);
   fatbin_entries es;
   char err[512];
   fatbin_status st = fatbin_parse(w, SIZE_MAX, &es, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   /* linked SASS, then ELF + PTX per relocatable unit */
   CHECK_INT(es.n, 5);
   static const int kinds[] = { 2, 2, 1, 2, 1 };
   for (int i = 0; i < 5; i++)
      CHECK_MSG((int)es.v[i].kind == kinds[i], "entry %d: kind %d, expected %d", i,
                (int)es.v[i].kind, kinds[i]);
   char *t;
   size_t tl;
   st = fatbin_entry_text(&es.v[2], &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_CONTAINS(t, ".entry _Z5scalePf(");
   CHECK_CONTAINS(t, ".extern .func (.param .b32 func_retval0) _Z5twicef");
   free(t);
   st = fatbin_entry_text(&es.v[4], &t, &tl, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_CONTAINS(t, ".entry _Z4bumpPf(");
   free(t);
   /* the link image is unit 0, each relocatable unit its own */
   static const uint32_t units[] = { 0, 1, 1, 2, 2 };
   for (int i = 0; i < 5; i++)
      CHECK_MSG(es.v[i].unit == units[i], "entry %d: unit %u, expected %u", i, es.v[i].unit, units[i]);
   fatbin_entries_free(&es);

   /* one PTX text per unit, in the list's order, for the compiler to link */
   fatbin_ptx_units pu;
   st = fatbin_extract_ptx_units(w, SIZE_MAX, 75, &pu, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_INT(pu.n, 2);
   CHECK_CONTAINS(pu.text[0], ".entry _Z5scalePf(");
   CHECK_CONTAINS(pu.text[1], ".entry _Z4bumpPf(");
   CHECK_INT(strlen(pu.text[1]), pu.len[1]);
   char *lerr = NULL;
   size_t llen;
   char *linked = compiler_link_ptx((const char *const *)pu.text, pu.len, pu.n, &llen, &lerr);
   CHECK_MSG(linked, "link failed: %s", lerr ? lerr : "?");
   CHECK_CONTAINS(linked, ".visible .func (.param .b32 func_retval0) _Z5twicef(");
   free(linked);
   fatbin_ptx_units_free(&pu);

   /* a unit with SASS only among units with PTX cannot be left out */
   const void *sass_unit[] = { rebase(&a, d[1]), NULL, NULL };
   size_t ns;
   uint8_t *sass = fixture("add_sass.fatbin", &ns);
   CHECK(sass);
   sass_unit[1] = sass;
   make_wrapper(w, 2, rebase(&a, d[0]), sass_unit);
   CHECK_INT(fatbin_extract_ptx_units(w, SIZE_MAX, 75, &pu, err, sizeof(err)), FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "unit 2 of 2");
   CHECK(pu.n == 0 && !pu.text);
   free(sass);
   /* whole-program images give their one PTX */
   make_wrapper(w, 1, rebase(&a, d[1]), NULL);
   st = fatbin_extract_ptx_units(w, SIZE_MAX, 75, &pu, err, sizeof(err));
   CHECK_MSG(st == FATBIN_OK && pu.n == 1, "got %s (%s)", fatbin_status_name(st), err);
   CHECK_CONTAINS(pu.text[0], ".entry _Z5scalePf(");
   fatbin_ptx_units_free(&pu);
   free_app(&a);
}

/* ---- malformed input ---- */

static const char *const all_fixtures[] = {
   "add_zstd.fatbin", "add_none.fatbin", "add_lz4.fatbin", "add_multi.fatbin",
   "add_sass.fatbin", "add_all.fatbin", "add_debug.fatbin", "add_lto.fatbin",
};

TEST(fatbin_truncated_every_length)
{
   for (size_t f = 0; f < ARRAY_SIZE(all_fixtures); f++) {
      size_t n;
      uint8_t *img = fixture(all_fixtures[f], &n);
      if (!img)
         return;
      for (size_t len = 0; len < n; len++) {
         uint8_t *c = exact_copy(img, len);
         char err[512] = "";
         fatbin_status st = parse_and_decode(c, len, err, sizeof(err));
         /* every cut lands inside the one fatbin: its files_size (or the
          * header itself) no longer fits */
         CHECK_MSG(st == FATBIN_ERR_FORMAT && err[0], "%s cut to %zu bytes: got %s (%s)",
                   all_fixtures[f], len, fatbin_status_name(st), err);
         char *t;
         size_t tl;
         st = fatbin_extract_ptx(c, len, 75, &t, &tl, err, sizeof(err));
         CHECK_MSG(st == FATBIN_ERR_FORMAT, "%s cut to %zu bytes: extract got %s (%s)",
                   all_fixtures[f], len, fatbin_status_name(st), err);
         free(c);
      }
      free(img);
   }
}

/* Patches one field of add_multi.fatbin and expects an error whose message
 * names it.  Offsets: fatbin header at 0, entry 0 at 16, entry 1 at 496. */
typedef struct patch {
   size_t off;
   int width;             /* 2, 4 or 8 */
   uint64_t value;
   fatbin_status want;    /* at parse, or at decode when parse passes */
   const char *says;
   bool entry_level;      /* safe to run unbounded (files_size intact) */
} patch;

static const patch patches[] = {
   { 0, 4, 0xBA55ED51, FATBIN_ERR_FORMAT, "not a fatbin", true },
   { 4, 2, 2, FATBIN_ERR_FORMAT, "version 2", true },
   { 6, 2, 0, FATBIN_ERR_FORMAT, "header_size 0", true },
   { 6, 2, 15, FATBIN_ERR_FORMAT, "header_size 15", true },
   { 6, 2, 0xffff, FATBIN_ERR_FORMAT, "header_size 65535", false },
   { 8, 8, 961, FATBIN_ERR_FORMAT, "files_size 961", false },
   { 8, 8, UINT64_MAX, FATBIN_ERR_FORMAT, "files_size", false },
   { 8, 8, UINT64_MAX - 15, FATBIN_ERR_FORMAT, "files_size", false },
   { 8, 8, 959, FATBIN_ERR_FORMAT, "entry 1 at offset 0x1f0: payload size 400", true },
   { 8, 8, 480 + 63, FATBIN_ERR_FORMAT, "entry 1 at offset 0x1f0: header truncated", true },
   { 16 + 4, 4, 0, FATBIN_ERR_FORMAT, "entry 0 at offset 0x10: header_size 0", true },
   { 16 + 4, 4, 63, FATBIN_ERR_FORMAT, "header_size 63 is below", true },
   { 16 + 4, 4, 0xffffffff, FATBIN_ERR_FORMAT, "header_size 4294967295 is past", true },
   { 16 + 8, 8, UINT64_MAX, FATBIN_ERR_FORMAT, "entry 0 at offset 0x10: payload size", true },
   { 16 + 8, 8, UINT64_MAX - 79, FATBIN_ERR_FORMAT, "payload size", true },
   { 16 + 8, 8, 881, FATBIN_ERR_FORMAT, "payload size 881", true },
   { 16 + 16, 4, 0xffffffff, FATBIN_ERR_FORMAT, "compressed_size 4294967295", true },
   { 16 + 16, 4, 396, FATBIN_ERR_CODEC, "zstd", true },
   { 16 + 40, 8, 0x11 | FATBIN_FLAG_ZSTD | FATBIN_FLAG_LZ4, FATBIN_ERR_FORMAT,
     "both LZ4 and zstd", true },
   { 16 + 40, 8, 0x11 | FATBIN_FLAG_LZ4, FATBIN_ERR_CODEC, "lz4", true },
   { 16 + 40, 8, 0x11, FATBIN_ERR_FORMAT, "NUL byte", true },   /* raw zstd as text */
   { 16 + 56, 8, UINT64_MAX, FATBIN_ERR_FORMAT, "uncompressed_size 18446744073709551615", true },
   { 16 + 56, 8, 397ull * 32768 + 65, FATBIN_ERR_FORMAT, "is impossible", true },
   { 16 + 56, 8, 965, FATBIN_ERR_CODEC, "zstd", true },
   { 16 + 56, 8, 967, FATBIN_ERR_CODEC, "decompressed to 966 bytes, the header says 967", true },
   { 16 + 80, 4, 0, FATBIN_ERR_CODEC, "zstd", true },          /* frame magic */
   { 496 + 80 + 4, 1, 0x68, FATBIN_ERR_CODEC, "zstd", true },  /* reserved bit, entry 1 */
};

static void patched(const uint8_t *img, size_t n, const patch *p, uint8_t *out)
{
   memcpy(out, img, n);
   switch (p->width) {
   case 1: out[p->off] = (uint8_t)p->value; break;
   case 2: { uint16_t v = (uint16_t)p->value; memcpy(out + p->off, &v, 2); break; }
   case 4: put32(out + p->off, (uint32_t)p->value); break;
   default: put64(out + p->off, p->value); break;
   }
}

TEST(fatbin_corrupt_fields)
{
   size_t n;
   uint8_t *img = fixture("add_multi.fatbin", &n);
   if (!img)
      return;
   CHECK_INT(n, 976);
   uint8_t *c = malloc(n);
   for (size_t i = 0; i < ARRAY_SIZE(patches); i++) {
      const patch *p = &patches[i];
      for (int unbounded = 0; unbounded < 2; unbounded++) {
         if (unbounded && !p->entry_level)
            continue;
         patched(img, n, p, c);
         char err[512] = "";
         fatbin_status st = parse_and_decode(c, unbounded ? SIZE_MAX : n, err, sizeof(err));
         CHECK_MSG(st == p->want && strstr(err, p->says),
                   "patch %zu (offset %zu = %#" PRIx64 ", %s): got %s \"%s\", expected %s "
                   "saying \"%s\"",
                   i, p->off, p->value, unbounded ? "unbounded" : "bounded",
                   fatbin_status_name(st), err, fatbin_status_name(p->want), p->says);
      }
   }
   free(c);
   free(img);
}

TEST(fatbin_missing_sizes_fall_back)
{
   /* uncompressed_size 0: zstd takes the frame's content size, LZ4 grows
    * its buffer; compressed_size 0: the stride is the stream. */
   static const struct { const char *name; size_t off; int width; } cases[] = {
      { "add_zstd.fatbin", 16 + 56, 8 },
      { "add_lz4.fatbin", 16 + 56, 8 },
      { "add_lz4.fatbin", 16 + 16, 4 },   /* LZ4: size == compressed_size */
   };
   char *want = ptx_of("add_none.fatbin", 75, NULL);
   CHECK(want);
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      size_t n;
      uint8_t *img = fixture(cases[i].name, &n);
      CHECK(img);
      memset(img + cases[i].off, 0, (size_t)cases[i].width);
      char *t, err[512];
      size_t tl;
      fatbin_status st = fatbin_extract_ptx(img, n, 75, &t, &tl, err, sizeof(err));
      CHECK_MSG(st == FATBIN_OK, "%s with offset %zu zeroed: got %s (%s)", cases[i].name,
                cases[i].off, fatbin_status_name(st), err);
      CHECK_STR(t, want);
      free(t);
      free(img);
   }
   free(want);
}

/* Flips every byte of every fixture (two ways): whatever comes back must
 * be a status, never a crash or an overread (ASan). */
TEST(fatbin_every_byte_flipped)
{
   static const uint8_t flips[] = { 0xff, 0x80 };
   for (size_t f = 0; f < ARRAY_SIZE(all_fixtures); f++) {
      size_t n;
      uint8_t *img = fixture(all_fixtures[f], &n);
      if (!img)
         return;
      uint8_t *c = malloc(n);
      for (size_t i = 0; i < n; i++) {
         for (size_t k = 0; k < ARRAY_SIZE(flips); k++) {
            memcpy(c, img, n);
            c[i] ^= flips[k];
            char err[512] = "";
            fatbin_status st = parse_and_decode(c, n, err, sizeof(err));
            CHECK_MSG(st == FATBIN_OK || err[0], "%s byte %zu ^ %#x: %s without a message",
                      all_fixtures[f], i, flips[k], fatbin_status_name(st));
            CHECK_MSG(st != FATBIN_ERR_NOMEM && st != FATBIN_ERR_CODEC_MISSING,
                      "%s byte %zu ^ %#x: got %s (%s)", all_fixtures[f], i, flips[k],
                      fatbin_status_name(st), err);
         }
      }
      free(c);
      free(img);
   }
}

/* ---- fault injection ---- */

static fatbin_status extract_case(const void *img, size_t len, char *err, size_t errlen)
{
   char *t;
   size_t tl;
   fatbin_status st = fatbin_extract_ptx(img, len, 75, &t, &tl, err, errlen);
   if (st == FATBIN_OK)
      free(t);
   return st;
}

TEST(fatbin_fault_injection)
{
   static const char *const names[] = {
      "add_zstd.fatbin", "add_lz4.fatbin", "add_none.fatbin", "add_all.fatbin", "add.ptx",
   };
   for (size_t f = 0; f < ARRAY_SIZE(names); f++) {
      size_t n;
      uint8_t *img = fixture(names[f], &n);
      if (!img)
         return;
      int nomem = 0, missing = 0;
      for (long k = 1;; k++) {
         CHECK_MSG(k < 1000, "%s: still failing after %ld faults", names[f], k);
         for (int mode = 0; mode < 2; mode++) {
            char err[512] = "";
            fault_fail_after(k);
            /* mode 1: parse and decode every entry, ELF included */
            fatbin_status st = mode ? (fatbin_classify(img, n) == FATBIN_IMAGE_FATBIN
                                          ? parse_and_decode(img, n, err, sizeof(err))
                                          : FATBIN_OK)
                                    : extract_case(img, n, err, sizeof(err));
            fault_reset();
            CHECK_MSG(st == FATBIN_OK || st == FATBIN_ERR_NOMEM ||
                      st == FATBIN_ERR_CODEC_MISSING,
                      "%s, fault at %ld: got %s (%s)", names[f], k, fatbin_status_name(st), err);
            CHECK_MSG(st == FATBIN_OK || err[0], "%s, fault at %ld: no message", names[f], k);
            nomem += st == FATBIN_ERR_NOMEM;
            if (st == FATBIN_ERR_CODEC_MISSING) {
               missing++;
               CHECK_CONTAINS(err, "could not be loaded");
               CHECK_CONTAINS(err, strstr(names[f], "lz4") ? "apt install liblz4-1"
                                                           : "apt install libzstd1");
               CHECK_CONTAINS(err, strstr(names[f], "lz4") ? "brew install lz4"
                                                           : "brew install zstd");
            }
            if (mode == 0 && st == FATBIN_OK)
               goto done;
         }
      }
   done:
      free(img);
      bool compressed = strstr(names[f], "zstd") || strstr(names[f], "lz4") ||
                        strstr(names[f], "all");
      CHECK_MSG(nomem > 0, "%s: no allocation failure was reported", names[f]);
      CHECK_MSG(!compressed || missing > 0, "%s: no codec failure was reported", names[f]);
   }
}

TEST(fatbin_decompress_direct)
{
   char err[256], out[16] = { 0 };
   size_t got = 0;
   /* LZ4 sizes count in int: refused before the library sees them */
   CHECK_INT(decompress_lz4(out, (size_t)1 << 31, out, sizeof(out), &got, err, sizeof(err)),
             FATBIN_ERR_CODEC);
   CHECK_CONTAINS(err, "LZ4 block limit");
   CHECK_INT(decompress_zstd("nope", 4, out, sizeof(out), &got, err, sizeof(err)),
             FATBIN_ERR_CODEC);
   CHECK_CONTAINS(err, "zstd: ");
   uint64_t sz = 1;
   CHECK_INT(decompress_zstd_frame_size("nope", 4, &sz, err, sizeof(err)), FATBIN_ERR_CODEC);
   CHECK_INT(fatbin_parse(NULL, 4, &(fatbin_entries){ 0 }, err, sizeof(err)), FATBIN_ERR_FORMAT);
   CHECK_STR(fatbin_status_name(FATBIN_ERR_CODEC_MISSING), "ERR_CODEC_MISSING");
}

TEST(fatbin_empty_fatbin)
{
   static const uint8_t empty[16] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0 };
   fatbin_entries es;
   char err[512], *t;
   size_t tl;
   CHECK_INT(fatbin_parse(empty, sizeof(empty), &es, err, sizeof(err)), FATBIN_OK);
   CHECK_INT(es.n, 0);
   fatbin_entries_free(&es);
   CHECK_INT(fatbin_extract_ptx(empty, sizeof(empty), 75, &t, &tl, err, sizeof(err)),
             FATBIN_ERR_NO_PTX);
   CHECK_CONTAINS(err, "its fatbins are empty");
}

/* The codecs load once, from whichever thread gets there first; run alone
 * (test_fatbin fatbin_threads) this is the first load, and under TSan it
 * checks the once-only loading. */
static void *extract_loop(void *arg)
{
   const uint8_t *const *imgs = arg;
   for (int i = 0; i < 50; i++) {
      for (int k = 0; k < 2; k++) {
         char *t, err[256];
         size_t tl;
         size_t len;
         memcpy(&len, imgs[k], sizeof(len));
         if (fatbin_extract_ptx(imgs[k] + 16, len, 75, &t, &tl, err, sizeof(err)) != FATBIN_OK)
            return (void *)1;
         free(t);
      }
   }
   return NULL;
}

TEST(fatbin_threads)
{
   size_t nz, nl;
   uint8_t *z = fixture("add_zstd.fatbin", &nz), *l = fixture("add_lz4.fatbin", &nl);
   CHECK(z && l);
   /* each image behind a 16-byte length prefix */
   uint8_t *imgs[2] = { malloc(16 + nz), malloc(16 + nl) };
   memcpy(imgs[0], &nz, sizeof(nz));
   memcpy(imgs[0] + 16, z, nz);
   memcpy(imgs[1], &nl, sizeof(nl));
   memcpy(imgs[1] + 16, l, nl);
   pthread_t th[4];
   for (int i = 0; i < 4; i++)
      CHECK(pthread_create(&th[i], NULL, extract_loop, imgs) == 0);
   int failed = 0;
   for (int i = 0; i < 4; i++) {
      void *r;
      pthread_join(th[i], &r);
      failed += r != NULL;
   }
   CHECK_INT(failed, 0);
   free(imgs[0]);
   free(imgs[1]);
   free(z);
   free(l);
}
