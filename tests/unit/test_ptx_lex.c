/*
 * test_ptx_lex.c — the PTX lexer: every literal form, identifiers and
 * directives, punctuation, comments, line/column tracking, lexical errors,
 * and sources that are not NUL-terminated.
 */
#include "harness.h"

#include "compiler/ptx/ptx.h"

#include <stdlib.h>

/* Lexes `src` (copied into an exact-size heap buffer, so ASan catches any
 * read past the end) into at most 64 tokens; returns the count, EOF
 * excluded.  The copy is kept until the next call because tokens point in. */
static ptx_token toks[64];
static char *lex_buf;

__attribute__((destructor)) static void lex_buf_free(void) { free(lex_buf); }

static int lex_all(const char *src)
{
   size_t n = strlen(src);
   free(lex_buf);
   lex_buf = malloc(n ? n : 1);
   memcpy(lex_buf, src, n);
   ptx_lexer lx;
   ptx_lexer_init(&lx, lex_buf, n);
   int k = 0;
   for (;;) {
      ptx_token t = ptx_lex_next(&lx);
      if (t.kind == PTX_TOK_EOF || k == 64)
         return k;
      toks[k++] = t;
   }
}

static bool text_is(const ptx_token *t, const char *s)
{
   return t->len == strlen(s) && !memcmp(t->start, s, t->len);
}

static uint64_t f64_bits(double d)
{
   uint64_t b;
   memcpy(&b, &d, sizeof(b));
   return b;
}

TEST(lex_integers)
{
   static const struct { const char *src; uint64_t v; bool u; } cases[] = {
      { "42", 42, false }, { "0", 0, false }, { "0x2a", 42, false }, { "0X2A", 42, false },
      { "052", 42, false }, { "0b101010", 42, false }, { "0B1", 1, false },
      { "42U", 42, true }, { "0x2aU", 42, true }, { "0U", 0, true },
      { "9223372036854775807", 0x7fffffffffffffffull, false },
      { "9223372036854775808", 0x8000000000000000ull, true },    /* does not fit .s64 */
      { "18446744073709551615", ~0ull, true }, { "0xffffffffffffffff", ~0ull, true },
      { "0x0000000000000000001", 1, false },                       /* leading zeros are fine */
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
      CHECK_INT(lex_all(cases[i].src), 1);
      CHECK_MSG(toks[0].kind == PTX_TOK_INT, "%s: kind %d", cases[i].src, toks[0].kind);
      CHECK_U64(toks[0].ival, cases[i].v);
      CHECK_MSG(toks[0].is_unsigned == cases[i].u, "%s: is_unsigned %d", cases[i].src,
                toks[0].is_unsigned);
      CHECK_INT(toks[0].len, strlen(cases[i].src));
   }
}

TEST(lex_floats)
{
   CHECK_INT(lex_all("0f3F800000 0F3f800000 0d3FF0000000000000 0D4000000000000000"), 4);
   CHECK_INT(toks[0].kind, PTX_TOK_F32);
   CHECK_U64(toks[0].ival, 0x3F800000);
   CHECK_INT(toks[1].kind, PTX_TOK_F32);
   CHECK_U64(toks[1].ival, 0x3F800000);
   CHECK_INT(toks[2].kind, PTX_TOK_F64);
   CHECK_U64(toks[2].ival, 0x3FF0000000000000ull);
   CHECK_U64(toks[3].ival, 0x4000000000000000ull);

   static const struct { const char *src; double v; } dec[] = {
      { "1.5", 1.5 }, { "1e-3", 1e-3 }, { "2.5E+2", 250.0 }, { "0.0", 0.0 }, { "9.0", 9.0 },
      { "3.", 3.0 }, { "1e308", 1e308 }, { "123456789.25", 123456789.25 },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(dec); i++) {
      CHECK_INT(lex_all(dec[i].src), 1);
      CHECK_MSG(toks[0].kind == PTX_TOK_F64, "%s: kind %d", dec[i].src, toks[0].kind);
      CHECK_U64(toks[0].ival, f64_bits(dec[i].v));
   }
}

TEST(lex_identifiers_and_directives)
{
   CHECK_INT(lex_all("%r1 $L__BB0_2 __cudart_i2opi_f _ %tid x$y _Z3fooi %"), 8);
   const char *want[] = { "%r1", "$L__BB0_2", "__cudart_i2opi_f", "_", "%tid", "x$y", "_Z3fooi" };
   for (int i = 0; i < 7; i++) {
      CHECK_MSG(toks[i].kind == PTX_TOK_IDENT && text_is(&toks[i], want[i]), "token %d", i);
   }
   CHECK(toks[7].kind == PTX_TOK_PUNCT && toks[7].punct[0] == '%');   /* modulo alone */

   CHECK_INT(lex_all(".L2::cache_hint .shared::cta .L1::evict_last .ignore-src .2d .16x64b "
                     ".mbarrier::complete_tx::bytes .cta_group::1 .version"),
             9);
   const char *dirs[] = { "L2::cache_hint", "shared::cta", "L1::evict_last", "ignore-src",
                          "2d", "16x64b", "mbarrier::complete_tx::bytes", "cta_group::1",
                          "version" };
   for (int i = 0; i < 9; i++)
      CHECK_MSG(toks[i].kind == PTX_TOK_DIRECTIVE && text_is(&toks[i], dirs[i]),
                "directive %d: \"%.*s\"", i, (int)toks[i].len, toks[i].start);
   CHECK_INT(toks[0].loc.col, 1);     /* a directive's location is its '.' */

   /* dotted suffixes on an identifier are separate directive tokens */
   CHECK_INT(lex_all("ld.global.nc.v4.f32"), 5);
   CHECK(text_is(&toks[0], "ld") && text_is(&toks[2], "nc") && text_is(&toks[4], "f32"));
   CHECK_INT(lex_all("%tid.x"), 2);
   CHECK(toks[1].kind == PTX_TOK_DIRECTIVE && text_is(&toks[1], "x"));
   /* "a - b" is not a directive continuation */
   CHECK_INT(lex_all(".x -1"), 3);
}

TEST(lex_strings_and_punct)
{
   CHECK_INT(lex_all("\"a\\\"b\" \"\" , ; : ( ) [ ] { } < > + - * / ! ~ & | ^ @ = ?"), 25);
   CHECK(toks[0].kind == PTX_TOK_STRING && text_is(&toks[0], "a\\\"b"));  /* escapes kept */
   CHECK(toks[1].kind == PTX_TOK_STRING && toks[1].len == 0);
   const char *p = ",;:()[]{}<>+-*/!~&|^@=?";
   for (int i = 0; p[i]; i++)
      CHECK_MSG(toks[2 + i].kind == PTX_TOK_PUNCT && toks[2 + i].punct[0] == p[i], "punct %c", p[i]);

   CHECK_INT(lex_all("<< >> <= >= == != && || <<<"), 10);
   const char *two[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "<<" };
   for (int i = 0; i < 9; i++)
      CHECK_MSG(toks[i].kind == PTX_TOK_OP2 && !strcmp(toks[i].punct, two[i]), "op2 %s", two[i]);
   CHECK(toks[9].kind == PTX_TOK_PUNCT && toks[9].punct[0] == '<');
}

TEST(lex_comments_and_locations)
{
   CHECK_INT(lex_all("a // comment\n  b /* block\n\n comment */ c\n\td"), 4);
   CHECK_INT(toks[0].loc.line, 1);
   CHECK_INT(toks[0].loc.col, 1);
   CHECK_INT(toks[1].loc.line, 2);
   CHECK_INT(toks[1].loc.col, 3);
   CHECK_INT(toks[2].loc.line, 4);
   CHECK_INT(toks[2].loc.col, 13);
   CHECK_INT(toks[3].loc.line, 5);
   CHECK_INT(toks[3].loc.col, 2);
   CHECK_INT(lex_all("x\r\ny"), 2);
   CHECK_INT(toks[1].loc.line, 2);
   CHECK_INT(toks[1].loc.col, 1);
   CHECK_INT(lex_all("// only a comment"), 0);
   CHECK_INT(lex_all("/**/"), 0);
   CHECK_INT(lex_all(""), 0);
}

TEST(lex_errors)
{
   static const struct { const char *src; uint32_t line, col; const char *msg; } cases[] = {
      { "a /* never closed", 1, 3, "unterminated comment" },
      { "a\n  /* x\n y", 2, 3, "unterminated comment" },
      { "\"abc", 1, 1, "unterminated string" },
      { "\"ab\ncd\"", 1, 1, "unterminated string" },
      { "0f3F80", 1, 1, "0f needs exactly 8 hex digits" },
      { "0f3F800000FF", 1, 1, "0f needs exactly 8 hex digits" },
      { "0d3FF0", 1, 1, "0d needs exactly 16 hex digits" },
      { "08", 1, 1, "invalid digit" },
      { "0b102", 1, 1, "invalid digit" },
      { "0x", 1, 1, "malformed hex literal" },
      { "99999999999999999999", 1, 1, "too large" },
      { "0x1ffffffffffffffff", 1, 1, "too large" },
      { "12abc", 1, 1, "invalid suffix" },
      { "1.5f", 1, 1, "invalid suffix" },
      { "1e+", 1, 1, "malformed exponent" },
      { "  #", 1, 3, "unexpected character" },
      { ". x", 1, 1, "'.' must be followed" },
      { "\x01", 1, 1, "unexpected byte" },
      { "\xff", 1, 1, "unexpected byte" },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
      int n = lex_all(cases[i].src);
      int k = 0;
      while (k < n && toks[k].kind != PTX_TOK_ERROR)
         k++;
      CHECK_MSG(k < n, "\"%s\": no error token", cases[i].src);
      CHECK_MSG(toks[k].loc.line == cases[i].line && toks[k].loc.col == cases[i].col,
                "\"%s\": error at %u:%u, expected %u:%u", cases[i].src, toks[k].loc.line,
                toks[k].loc.col, cases[i].line, cases[i].col);
      CHECK_CONTAINS(toks[k].msg, cases[i].msg);
   }
   /* a NUL byte in the middle is an error, not the end of input */
   lex_buf = realloc(lex_buf, 3);
   memcpy(lex_buf, "a\0b", 3);
   ptx_lexer lx;
   ptx_lexer_init(&lx, lex_buf, 3);
   CHECK_INT(ptx_lex_next(&lx).kind, PTX_TOK_IDENT);
   ptx_token t = ptx_lex_next(&lx);
   CHECK_INT(t.kind, PTX_TOK_ERROR);
   CHECK_INT(t.loc.col, 2);
   CHECK_INT(ptx_lex_next(&lx).kind, PTX_TOK_IDENT);
   CHECK_INT(ptx_lex_next(&lx).kind, PTX_TOK_EOF);
   CHECK_INT(ptx_lex_next(&lx).kind, PTX_TOK_EOF);   /* EOF is sticky */
}

/* Every prefix of a source exercising all token kinds lexes without reading
 * past its end (the buffer is exactly the prefix, checked by ASan). */
TEST(lex_every_prefix)
{
   const char *src = "ld.global.v4.f32 {%f1, _}, [%rd1+-16]; // c\n/* b */ 0f3F800000 "
                     "0d3FF0000000000000 1.5e-3 0x1fU 017 0b11 \"s\\\"\" << .L2::cache_hint";
   size_t n = strlen(src);
   for (size_t len = 0; len <= n; len++) {
      char *b = malloc(len ? len : 1);
      memcpy(b, src, len);
      ptx_lexer lx;
      ptx_lexer_init(&lx, b, len);
      int guard = 0;
      while (ptx_lex_next(&lx).kind != PTX_TOK_EOF && guard < 1000)
         guard++;
      free(b);
      CHECK_MSG(guard < 1000, "prefix %zu does not reach EOF", len);
   }
}
