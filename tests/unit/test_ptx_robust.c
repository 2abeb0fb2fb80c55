/*
 * test_ptx_robust.c — inputs meant to break the PTX parser: every prefix of
 * a real file (EOF anywhere), thousands of random mutations, 100000-deep
 * nesting of every bracket, huge numbers, NUL bytes, sources that are not
 * NUL-terminated, and allocation failure at every point.  Each must give
 * errors with a location, or a module that round-trips — never a crash,
 * an over-read or a leak (run under ASan/UBSan and valgrind).
 */
#include "test_ptx_util.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static char *read_corpus_file(const char *name, size_t *len)
{
   char path[1024];
   snprintf(path, sizeof(path), "%s/ptx/corpus/%s", test_srcdir(), name);
   return file_read(path, len);
}

static ptx_module *parse_exact(arena *ar, const char *src, size_t len)
{
   char *copy = malloc(len ? len : 1);   /* exact size: ASan sees any over-read */
   memcpy(copy, src, len);
   ptx_module *m = ptx_parse_module(ar, copy, len);
   /* error messages are arena copies; the AST must not point into the source */
   free(copy);
   return m;
}

static bool module_sane(const ptx_module *m)
{
   for (uint32_t i = 0; i < m->nerrors; i++)
      if (m->errors[i].loc.line < 1 || m->errors[i].loc.col < 1 || !m->errors[i].msg ||
          strncmp(m->errors[i].msg, "line ", 5))
         return false;
   return true;
}

TEST(robust_every_prefix)
{
   size_t len;
   char *src = read_corpus_file("grammar.ptx", &len);
   CHECK(src);
   arena ar;
   arena_init(&ar, 0);
   for (size_t n = 0; n <= len; n += 1 + n / 512) {
      ptx_module *m = parse_exact(&ar, src, n);
      CHECK_MSG(m && module_sane(m), "prefix %zu", n);
      if (m->nerrors == 0 && n > 0)
         CHECK_MSG(tp_roundtrip(m, NULL), "prefix %zu: %s", n, tp_diff);
      arena_free_all(&ar);
   }
   free(src);
}

TEST(robust_mutations)
{
   size_t len;
   char *src = read_corpus_file("grammar.ptx", &len);
   CHECK(src);
   static const char bytes[] = "\0{}()[];,.%@!-+_<>|\"/*0123456789xfdU\n \xff";
   uint64_t rng = 0x9E3779B97F4A7C15ull;
   arena ar;
   arena_init(&ar, 0);
   unsigned clean = 0;
   for (int round = 0; round < 3000; round++) {
      char *buf = malloc(len);
      memcpy(buf, src, len);
      int nmut = 1 + (int)(rng % 4);
      for (int k = 0; k < nmut; k++) {
         rng = rng * 6364136223846793005ull + 1442695040888963407ull;
         size_t pos = (size_t)(rng >> 33) % len;
         buf[pos] = bytes[(rng >> 20) % (sizeof(bytes) - 1)];
      }
      ptx_module *m = parse_exact(&ar, buf, len);
      free(buf);
      CHECK_MSG(m && module_sane(m), "round %d", round);
      if (m->nerrors == 0) {
         clean++;
         CHECK_MSG(tp_roundtrip(m, NULL), "round %d: %s", round, tp_diff);
      }
      arena_free_all(&ar);
   }
   free(src);
   CHECK(clean > 0);
}

static char *repeat(const char *pre, const char *unit, size_t n, const char *post)
{
   size_t u = strlen(unit), a = strlen(pre), b = strlen(post);
   char *s = malloc(a + u * n + b + 1);
   memcpy(s, pre, a);
   for (size_t i = 0; i < n; i++)
      memcpy(s + a + i * u, unit, u);
   memcpy(s + a + u * n, post, b + 1);
   return s;
}

TEST(robust_deep_nesting)
{
   /* 100000 nested scopes: flat statements, no recursion */
   char *open = repeat(HDR ".entry k() ", "{", 100000, "");
   char *all = repeat(open, "}", 100000, "\n");
   ptx_module *m = tp_parse(all);
   CHECK_MSG(m && m->nerrors == 0, "%s", tp_first_error(m));
   CHECK_INT(tp_kernel(m)->nstmts, 2 * 99999);
   free(open);
   free(all);
   static const char *const cases[][3] = {
      { HDR ".entry k() { add.s32 %r1, %r1, ", "(", ");}" },
      { HDR ".entry k() { add.s32 %r1, %r1, ", "-", "1;}" },
      { HDR ".entry k() { add.s32 %r1, %r1, ", "~!", "1;}" },
      { HDR ".global .u32 a[1] = ", "{", "" },
      { HDR ".entry k() { ", "@", "" },
      { HDR ".entry k() { mov.b32 %r1, ", "{", "" },
      { HDR ".entry k() { ld.u32 %r1, ", "[", "" },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
      char *s = repeat(cases[i][0], cases[i][1], 100000, cases[i][2]);
      m = tp_parse(s);
      free(s);
      CHECK_MSG(m && m->nerrors >= 1 && module_sane(m), "case %u", i);
   }
   tp_done();
}

TEST(robust_huge_numbers)
{
   ptx_module *m = tp_parse(HDR ".global .u8 big[9223372036854775807][4];\n"
                            ".global .u8 big2[4294967296][4294967296];\n");
   CHECK_MSG(m && m->nerrors == 0, "%s", tp_first_error(m));
   CHECK_U64(ptx_var_size(ptx_find_var(m, "big")), UINT64_MAX);   /* saturates */
   CHECK_U64(ptx_var_elems(ptx_find_var(m, "big2")), UINT64_MAX);
   static const char *const bad[] = {
      HDR ".file 4294967296 \"x\"\n",
      HDR ".entry k() { .reg .b32 %r<16777217>; }\n",
      HDR ".global .u8 a[-1];\n",
      HDR ".global .align 4294967296 .u8 a;\n",
      HDR ".entry k() .maxntid 4294967296 { }\n",
      HDR ".entry k() { add.s32 %r1, %r1, 99999999999999999999; }\n",
      ".version 99999999999.99999999999\n",
   };
   for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
      m = tp_parse(bad[i]);
      CHECK_MSG(m && m->nerrors >= 1 && module_sane(m), "case %u", i);
   }
   tp_done();
}

TEST(robust_nul_and_empty)
{
   arena ar;
   arena_init(&ar, 0);
   ptx_module *m = ptx_parse_module(&ar, "", 0);
   CHECK(m && m->nerrors == 0 && m->ndecls == 0 && m->address_size == 64);
   m = ptx_parse_module(&ar, NULL, 0);
   CHECK(m && m->nerrors == 0);
   static const char with_nul[] = HDR ".entry k() { ret;\0 }\n";
   m = parse_exact(&ar, with_nul, sizeof(with_nul) - 1);
   CHECK(m && m->nerrors >= 1);
   CHECK_CONTAINS(m->errors[0].msg, "unexpected byte");
   /* not NUL-terminated: a source ending right after a token */
   static const char tight[] = HDR ".entry k() { ret; }";
   m = parse_exact(&ar, tight, sizeof(tight) - 1);
   CHECK_MSG(m && m->nerrors == 0, "%s", tp_first_error(m));
   arena_free_all(&ar);
}

/* Every allocation failure point gives NULL or a module, never a crash or a
 * leak (ASan/valgrind check the leaks). */
TEST(fault_injection)
{
   size_t len;
   char *src = read_corpus_file("grammar.ptx", &len);
   CHECK(src);
   bool done = false;
   for (long n = 1; n < 100000 && !done; n++) {
      arena ar;
      arena_init(&ar, 4096);
      fault_fail_after(n);
      ptx_module *m = ptx_parse_module(&ar, src, len);
      fault_reset();
      if (m) {
         CHECK_MSG(m->nerrors == 0, "n=%ld: %s", n, tp_first_error(m));
         done = true;
      }
      arena_free_all(&ar);
   }
   free(src);
   CHECK(done);
}

