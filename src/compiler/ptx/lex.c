/*
 * lex.c — PTX text → tokens.
 *
 * The lexer is a hand-written scanner over (src, len): the source need not
 * be NUL-terminated and may contain any byte, so every look-ahead checks
 * `end` first.  Tokens point into the source (no allocation); the parser
 * copies or interns what it keeps.  Lines and columns are 1-based, the
 * column counting bytes from the start of the line.
 *
 * Spelling (PTX ISA 9.0 §4):
 *   identifiers   [a-zA-Z][a-zA-Z0-9_$]*  |  [_$%][a-zA-Z0-9_$]*
 *                 ("%" alone is the modulo operator, "_" alone the sink)
 *   directives    "." word, where a word may continue with "::" word
 *                 (.shared::cta, .L2::cache_hint) or "-" letter (.ignore-src);
 *                 a word may start with a digit (.2d, .16x64b)
 *   integers      decimal, 0x hex, 0 octal, 0b binary, optional U suffix
 *   floats        0f + 8 hex digits (f32 bits), 0d + 16 hex digits (f64
 *                 bits), decimal 1.5 / 1e-3 / 2.5e+7 (value as f64 bits)
 *   strings       "..." on one line, escapes kept as written
 * Errors come back as PTX_TOK_ERROR with a static message; the lexer has
 * already moved past the offending text, so the caller can go on.
 */
#include "ptx.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

void ptx_lexer_init(ptx_lexer *lx, const char *src, size_t len)
{
   lx->src = src;
   lx->cur = src;
   lx->end = src + len;
   lx->line = 1;
   lx->line_start = src;
}

static inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline bool is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static inline bool is_idchar(unsigned char c)
{
   return is_alpha(c) || is_digit(c) || c == '_' || c == '$';
}
static inline int hex_val(unsigned char c)
{
   if (is_digit(c))
      return c - '0';
   c |= 0x20;
   return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static ptx_loc loc_at(const ptx_lexer *lx, const char *p)
{
   ptx_loc l = { lx->line, (uint32_t)(p - lx->line_start) + 1 };
   return l;
}

static ptx_token make_tok(const ptx_lexer *lx, ptx_tok_kind k, const char *start)
{
   ptx_token t;
   memset(&t, 0, sizeof(t));
   t.kind = k;
   t.loc = loc_at(lx, start);
   t.start = start;
   t.len = (uint32_t)(lx->cur - start);
   return t;
}

static ptx_token error_tok(const ptx_lexer *lx, const char *start, const char *msg)
{
   ptx_token t = make_tok(lx, PTX_TOK_ERROR, start);
   t.msg = msg;
   return t;
}

/* Skips a block comment whose "/" is at lx->cur; false if unterminated. */
static bool skip_block_comment(ptx_lexer *lx)
{
   const char *p = lx->cur + 2;
   for (; p + 1 < lx->end; p++) {
      if (*p == '\n') {
         lx->line++;
         lx->line_start = p + 1;
      } else if (p[0] == '*' && p[1] == '/') {
         lx->cur = p + 2;
         return true;
      }
   }
   if (p < lx->end && *p == '\n') {
      lx->line++;
      lx->line_start = p + 1;
   }
   lx->cur = lx->end;
   return false;
}

/* Skips blanks and comments.  Returns the start of an unterminated block
 * comment, or NULL. */
static const char *skip_space(ptx_lexer *lx)
{
   while (lx->cur < lx->end) {
      char c = *lx->cur;
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
         lx->cur++;
      } else if (c == '\n') {
         lx->cur++;
         lx->line++;
         lx->line_start = lx->cur;
      } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '/') {
         const char *nl = memchr(lx->cur, '\n', (size_t)(lx->end - lx->cur));
         lx->cur = nl ? nl : lx->end;
      } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '*') {
         const char *start = lx->cur;
         ptx_loc l = loc_at(lx, start);
         if (!skip_block_comment(lx)) {
            /* Report at the comment's start: rewind the line info there. */
            lx->line = l.line;
            lx->line_start = start - (l.col - 1);
            return start;
         }
      } else {
         break;
      }
   }
   return NULL;
}

static void scan_word(ptx_lexer *lx)
{
   while (lx->cur < lx->end && is_idchar((unsigned char)*lx->cur))
      lx->cur++;
}

/* ".word" with "::word" and "-letter" continuations. */
static ptx_token lex_directive(ptx_lexer *lx, const char *start)
{
   lx->cur = start + 1;
   scan_word(lx);
   for (;;) {
      const char *p = lx->cur;
      if (p + 2 < lx->end && p[0] == ':' && p[1] == ':' && is_idchar((unsigned char)p[2])) {
         lx->cur = p + 2;
         scan_word(lx);
      } else if (p + 1 < lx->end && p[0] == '-' && is_alpha((unsigned char)p[1])) {
         lx->cur = p + 1;
         scan_word(lx);
      } else {
         break;
      }
   }
   ptx_token t = make_tok(lx, PTX_TOK_DIRECTIVE, start);
   t.start = start + 1;
   t.len--;
   return t;
}

/* Decimal float text → double, independent of the C locale. */
static double parse_decimal_float(const char *s, size_t n)
{
   char buf[256];
   char *b = n < sizeof(buf) ? buf : malloc(n + 1);
   if (!b)
      return 0;
   const char *dp = localeconv()->decimal_point;
   char point = dp && dp[0] && !dp[1] ? dp[0] : '.';
   for (size_t i = 0; i < n; i++)
      b[i] = s[i] == '.' ? point : s[i];
   b[n] = 0;
   double d = strtod(b, NULL);
   if (b != buf)
      free(b);
   return d;
}

/* Reads exactly `ndig` hex digits after the 2-char prefix at start. */
static bool scan_hex_bits(ptx_lexer *lx, const char *start, int ndig, uint64_t *bits)
{
   const char *p = start + 2;
   uint64_t v = 0;
   int i = 0;
   for (; p < lx->end && hex_val((unsigned char)*p) >= 0; p++, i++)
      if (i < ndig)
         v = v << 4 | (uint64_t)hex_val((unsigned char)*p);
   lx->cur = p;
   *bits = v;
   return i == ndig;
}

/* Accumulates digits of `base`; false on overflow of 64 bits. */
static bool scan_int_digits(ptx_lexer *lx, unsigned base, uint64_t *out, bool *bad_digit)
{
   uint64_t v = 0;
   bool ok = true;
   *bad_digit = false;
   for (; lx->cur < lx->end; lx->cur++) {
      int d = hex_val((unsigned char)*lx->cur);
      if (d < 0 || (base != 16 && d > 9))
         break;
      if ((unsigned)d >= base) {
         *bad_digit = true;
         continue;
      }
      if (v > (UINT64_MAX - (uint64_t)d) / base)
         ok = false;
      v = v * base + (uint64_t)d;
   }
   *out = v;
   return ok;
}

static ptx_token lex_float_literal(ptx_lexer *lx, const char *start)
{
   /* digits [. digits] [e [+-] digits]; start..cur already holds digits */
   if (lx->cur < lx->end && *lx->cur == '.') {
      lx->cur++;
      while (lx->cur < lx->end && is_digit((unsigned char)*lx->cur))
         lx->cur++;
   }
   if (lx->cur < lx->end && (*lx->cur | 0x20) == 'e') {
      const char *p = lx->cur + 1;
      if (p < lx->end && (*p == '+' || *p == '-'))
         p++;
      if (p >= lx->end || !is_digit((unsigned char)*p)) {
         lx->cur = p;
         return error_tok(lx, start, "malformed exponent in floating-point literal");
      }
      while (p < lx->end && is_digit((unsigned char)*p))
         p++;
      lx->cur = p;
   }
   if (lx->cur < lx->end && is_idchar((unsigned char)*lx->cur)) {
      scan_word(lx);
      return error_tok(lx, start, "invalid suffix on numeric literal");
   }
   double d = parse_decimal_float(start, (size_t)(lx->cur - start));
   ptx_token t = make_tok(lx, PTX_TOK_F64, start);
   memcpy(&t.ival, &d, sizeof(d));
   return t;
}

static ptx_token lex_number(ptx_lexer *lx, const char *start)
{
   unsigned char c1 = start + 1 < lx->end ? (unsigned char)start[1] : 0;
   ptx_token t;
   uint64_t v = 0;
   bool ok = true, bad_digit = false;

   if (start[0] == '0' && (c1 | 0x20) == 'f') {
      if (!scan_hex_bits(lx, start, 8, &v))
         return error_tok(lx, start, "malformed f32 literal: 0f needs exactly 8 hex digits");
      t = make_tok(lx, PTX_TOK_F32, start);
      t.ival = v;
      goto suffix_check;
   }
   if (start[0] == '0' && (c1 | 0x20) == 'd') {
      if (!scan_hex_bits(lx, start, 16, &v))
         return error_tok(lx, start, "malformed f64 literal: 0d needs exactly 16 hex digits");
      t = make_tok(lx, PTX_TOK_F64, start);
      t.ival = v;
      goto suffix_check;
   }
   if (start[0] == '0' && ((c1 | 0x20) == 'x' || (c1 | 0x20) == 'b')) {
      unsigned base = (c1 | 0x20) == 'x' ? 16 : 2;
      lx->cur = start + 2;
      const char *digits = lx->cur;
      ok = scan_int_digits(lx, base, &v, &bad_digit);
      if (lx->cur == digits)
         return error_tok(lx, start, base == 16 ? "malformed hex literal" : "malformed binary literal");
   } else {
      lx->cur = start;
      while (lx->cur < lx->end && is_digit((unsigned char)*lx->cur))
         lx->cur++;
      if (lx->cur < lx->end && (*lx->cur == '.' || (*lx->cur | 0x20) == 'e'))
         return lex_float_literal(lx, start);
      lx->cur = start;
      ok = scan_int_digits(lx, start[0] == '0' ? 8 : 10, &v, &bad_digit);
   }
   if (bad_digit)
      return error_tok(lx, start, "invalid digit in integer literal");
   if (!ok)
      return error_tok(lx, start, "integer literal too large for 64 bits");
   t = make_tok(lx, PTX_TOK_INT, start);
   t.ival = v;
   /* PTX: a literal that does not fit .s64 is .u64 */
   t.is_unsigned = v > (uint64_t)INT64_MAX;
   if (lx->cur < lx->end && *lx->cur == 'U') {
      lx->cur++;
      t.is_unsigned = true;
      t.len++;
   }
suffix_check:
   if (lx->cur < lx->end && is_idchar((unsigned char)*lx->cur)) {
      scan_word(lx);
      return error_tok(lx, start, "invalid suffix on numeric literal");
   }
   return t;
}

static ptx_token lex_string(ptx_lexer *lx, const char *start)
{
   const char *p = start + 1;
   while (p < lx->end && *p != '"' && *p != '\n') {
      if (*p == '\\' && p + 1 < lx->end && p[1] != '\n')
         p++;
      p++;
   }
   if (p >= lx->end || *p != '"') {
      lx->cur = p;
      return error_tok(lx, start, "unterminated string");
   }
   lx->cur = p + 1;
   ptx_token t = make_tok(lx, PTX_TOK_STRING, start);
   t.start = start + 1;
   t.len -= 2;
   return t;
}

static bool is_punct_char(unsigned char c)
{
   switch (c) {
   case ',': case ';': case ':': case '(': case ')': case '[': case ']': case '{': case '}':
   case '<': case '>': case '+': case '-': case '*': case '/': case '%': case '!': case '~':
   case '&': case '|': case '^': case '@': case '=': case '?':
      return true;
   default:
      return false;
   }
}

static ptx_token lex_punct(ptx_lexer *lx, const char *start)
{
   static const char two[][3] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
   char c = *start;
   if (start + 1 < lx->end && strchr("<>=!&|", c) && c) {
      for (unsigned i = 0; i < ARRAY_SIZE(two); i++) {
         if (two[i][0] == c && two[i][1] == start[1]) {
            lx->cur = start + 2;
            ptx_token t = make_tok(lx, PTX_TOK_OP2, start);
            t.punct[0] = c;
            t.punct[1] = start[1];
            return t;
         }
      }
   }
   if (!is_punct_char((unsigned char)c)) {
      lx->cur = start + 1;
      return error_tok(lx, start, (unsigned char)c >= 0x80 || c < 0x20
                                     ? "unexpected byte in source"
                                     : "unexpected character");
   }
   lx->cur = start + 1;
   ptx_token t = make_tok(lx, PTX_TOK_PUNCT, start);
   t.punct[0] = c;
   return t;
}

ptx_token ptx_lex_next(ptx_lexer *lx)
{
   const char *bad = skip_space(lx);
   if (bad)
      return error_tok(lx, bad, "unterminated comment");
   const char *start = lx->cur;
   if (start >= lx->end) {
      ptx_token t = make_tok(lx, PTX_TOK_EOF, start);
      return t;
   }
   unsigned char c = (unsigned char)*start;
   unsigned char c1 = start + 1 < lx->end ? (unsigned char)start[1] : 0;

   if (is_alpha(c) || c == '_' || c == '$' || (c == '%' && is_idchar(c1))) {
      lx->cur = start + 1;
      scan_word(lx);
      return make_tok(lx, PTX_TOK_IDENT, start);
   }
   if (is_digit(c))
      return lex_number(lx, start);
   if (c == '.') {
      if (is_idchar(c1))
         return lex_directive(lx, start);
      lx->cur = start + 1;
      return error_tok(lx, start, "'.' must be followed by a directive or modifier name");
   }
   if (c == '"')
      return lex_string(lx, start);
   return lex_punct(lx, start);
}
