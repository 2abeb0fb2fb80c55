/*
 * parse_expr.c — name interning and PTX constant expressions.
 *
 * Interning: every identifier the AST keeps goes through one open-addressing
 * table keyed by (bytes, length), so equal names share one arena string and
 * the parser can hang per-name facts on the entry (declared as .reg in the
 * current function).  The table itself is heap memory freed after parsing.
 *
 * Constant expressions (PTX ISA §4.6): C operators and precedence over
 * 64-bit values: unary - ~ !, * / %, + -, << >>, < > <= >=, == !=, & ^ |,
 * && ||, ?:, parentheses and the casts (.s64) (.u64).  An integer is .s64
 * unless it has a U suffix or does not fit .s64; mixing in a .u64 operand
 * makes the operation unsigned (division, remainder, >>, comparisons).
 * Floating-point operands (0f/0d/decimal literals) make the operation f64;
 * a lone 0f literal (or its negation) stays f32 so `mov.f32 %f1, 0f3F800000`
 * keeps its exact bits.  Every operation is defined: division by zero is an
 * error, shifts by 64 or more give 0 (or the sign), signed overflow wraps.
 */
#include "parse_internal.h"

#include <string.h>

/* ---- interning ---- */

static uint32_t name_hash(const char *s, uint32_t n)
{
   uint32_t h = 2166136261u;
   for (uint32_t i = 0; i < n; i++)
      h = (h ^ (unsigned char)s[i]) * 16777619u;
   return h;
}

static bool names_grow(ptx_parser *p)
{
   uint32_t ncap = p->names_cap ? p->names_cap * 2 : 1024;
   ptx_name *nt = mc_calloc(ncap, sizeof(*nt));
   if (!nt)
      return false;
   for (uint32_t i = 0; i < p->names_cap; i++) {
      if (!p->names[i].str)
         continue;
      uint32_t j = p->names[i].hash & (ncap - 1);
      while (nt[j].str)
         j = (j + 1) & (ncap - 1);
      nt[j] = p->names[i];
   }
   mc_free(p->names);
   p->names = nt;
   p->names_cap = ncap;
   return true;
}

/* Names are short (%r123, $L__BB0_2): a byte loop beats a memcmp call. */
static inline bool names_equal(const char *a, const char *b, uint32_t n)
{
   if (n > 24)
      return !memcmp(a, b, n);
   for (uint32_t i = 0; i < n; i++)
      if (a[i] != b[i])
         return false;
   return true;
}

static ptx_name *names_slot(ptx_parser *p, const char *s, uint32_t len, uint32_t h)
{
   uint32_t j = h & (p->names_cap - 1);
   while (p->names[j].str) {
      ptx_name *e = &p->names[j];
      if (e->hash == h && e->len == len && names_equal(e->str, s, len))
         return e;
      j = (j + 1) & (p->names_cap - 1);
   }
   return &p->names[j];
}

ptx_name *ptx_find_name(ptx_parser *p, const char *s, uint32_t len)
{
   if (!p->names_cap)
      return NULL;
   ptx_name *e = names_slot(p, s, len, name_hash(s, len));
   return e->str ? e : NULL;
}

ptx_name *ptx_intern(ptx_parser *p, const char *s, uint32_t len)
{
   if ((p->names_len + 1) * 2 > p->names_cap && !names_grow(p)) {
      p->oom = true;
      longjmp(p->jb, 1);
   }
   uint32_t h = name_hash(s, len);
   ptx_name *e = names_slot(p, s, len, h);
   if (!e->str) {
      e->str = ptx_pstrndup(p, s, len);
      e->len = len;
      e->hash = h;
      p->names_len++;
   }
   return e;
}

void ptx_names_free(ptx_parser *p)
{
   mc_free(p->names);
   p->names = NULL;
   p->names_cap = p->names_len = 0;
}

/* ---- values ---- */

static bool is_float(ptx_cval v) { return v.kind == PTX_CV_F32 || v.kind == PTX_CV_F64; }

static double to_double(ptx_cval v)
{
   switch (v.kind) {
   case PTX_CV_F32: {
      uint32_t b = (uint32_t)v.bits;
      float f;
      memcpy(&f, &b, sizeof(f));
      return f;
   }
   case PTX_CV_F64: {
      double d;
      memcpy(&d, &v.bits, sizeof(d));
      return d;
   }
   case PTX_CV_UINT:
      return (double)v.bits;
   default:
      return (double)(int64_t)v.bits;
   }
}

static ptx_cval from_double(double d)
{
   ptx_cval r = { PTX_CV_F64, 0 };
   memcpy(&r.bits, &d, sizeof(d));
   return r;
}

static ptx_cval from_int(int64_t v)
{
   ptx_cval r = { PTX_CV_INT, (uint64_t)v };
   return r;
}

/* ---- operators ---- */

typedef struct binop {
   char c0, c1;        /* spelling: one char, or two for OP2 */
   int prec;
} binop;

static const binop binops[] = {
   { '|', '|', PTX_PREC_LOR }, { '&', '&', PTX_PREC_LAND }, { '|', 0, PTX_PREC_OR },
   { '^', 0, PTX_PREC_XOR }, { '&', 0, PTX_PREC_AND }, { '=', '=', PTX_PREC_EQ },
   { '!', '=', PTX_PREC_EQ }, { '<', 0, PTX_PREC_REL }, { '>', 0, PTX_PREC_REL },
   { '<', '=', PTX_PREC_REL }, { '>', '=', PTX_PREC_REL }, { '<', '<', PTX_PREC_SHIFT },
   { '>', '>', PTX_PREC_SHIFT }, { '+', 0, PTX_PREC_ADD }, { '-', 0, PTX_PREC_ADD },
   { '*', 0, PTX_PREC_MUL }, { '/', 0, PTX_PREC_MUL }, { '%', 0, PTX_PREC_MUL },
};

static const binop *binop_of(const ptx_token *t)
{
   char c0, c1;
   if (t->kind == PTX_TOK_PUNCT) {
      c0 = t->punct[0];
      c1 = 0;
   } else if (t->kind == PTX_TOK_OP2) {
      c0 = t->punct[0];
      c1 = t->punct[1];
   } else {
      return NULL;
   }
   for (unsigned i = 0; i < ARRAY_SIZE(binops); i++)
      if (binops[i].c0 == c0 && binops[i].c1 == c1)
         return &binops[i];
   return NULL;
}

static int64_t shift_right_signed(uint64_t u, uint64_t c)
{
   bool neg = u >> 63;
   if (c >= 64)
      return neg ? -1 : 0;
   return neg ? (int64_t)~(~u >> c) : (int64_t)(u >> c);
}

static ptx_cval apply_float(ptx_parser *p, ptx_loc loc, const binop *op, double a, double b)
{
   switch (op->c0) {
   case '+': return from_double(a + b);
   case '-': return from_double(a - b);
   case '*': return from_double(a * b);
   case '/': return from_double(a / b);
   case '<': return from_int(op->c1 ? a <= b : a < b);
   case '>': return from_int(op->c1 ? a >= b : a > b);
   case '=': return from_int(a == b);
   case '!': return from_int(a != b);
   case '&':
      if (op->c1)
         return from_int(a != 0 && b != 0);
      break;
   case '|':
      if (op->c1)
         return from_int(a != 0 || b != 0);
      break;
   default:
      break;
   }
   char name[3] = { op->c0, op->c1, 0 };
   ptx_fail(p, loc, "operator '%s' is not defined on floating-point constants", name);
}

static ptx_cval apply_int(ptx_parser *p, ptx_loc loc, const binop *op, ptx_cval a, ptx_cval b)
{
   bool u = a.kind == PTX_CV_UINT || b.kind == PTX_CV_UINT;
   uint64_t x = a.bits, y = b.bits;
   ptx_cval r = { u ? PTX_CV_UINT : PTX_CV_INT, 0 };
   int64_t sx = (int64_t)x, sy = (int64_t)y;
   switch (op->c0) {
   case '+': r.bits = x + y; return r;
   case '-': r.bits = x - y; return r;
   case '*': r.bits = x * y; return r;
   case '/':
   case '%':
      if (y == 0)
         ptx_fail(p, loc, "division by zero in constant expression");
      if (u)
         r.bits = op->c0 == '/' ? x / y : x % y;
      else if (sy == -1)   /* INT64_MIN / -1 would trap: wrap instead */
         r.bits = op->c0 == '/' ? 0 - x : 0;
      else
         r.bits = (uint64_t)(op->c0 == '/' ? sx / sy : sx % sy);
      return r;
   case '^': r.bits = x ^ y; return r;
   case '=': return from_int(x == y);
   case '!': return from_int(x != y);
   case '&':
      if (op->c1)
         return from_int(x && y);
      r.bits = x & y;
      return r;
   case '|':
      if (op->c1)
         return from_int(x || y);
      r.bits = x | y;
      return r;
   case '<':
      if (op->c1 == '<') {
         r.kind = a.kind;   /* the shifted operand's type */
         r.bits = y >= 64 ? 0 : x << y;
         return r;
      }
      return from_int(u ? (op->c1 ? x <= y : x < y) : (op->c1 ? sx <= sy : sx < sy));
   case '>':
      if (op->c1 == '>') {
         r.kind = a.kind;
         r.bits = a.kind == PTX_CV_UINT ? (y >= 64 ? 0 : x >> y) : (uint64_t)shift_right_signed(x, y);
         return r;
      }
      return from_int(u ? (op->c1 ? x >= y : x > y) : (op->c1 ? sx >= sy : sx > sy));
   default:
      return r;
   }
}

static ptx_cval apply(ptx_parser *p, ptx_loc loc, const binop *op, ptx_cval a, ptx_cval b)
{
   if (is_float(a) || is_float(b))
      return apply_float(p, loc, op, to_double(a), to_double(b));
   return apply_int(p, loc, op, a, b);
}

/* ---- parsing ---- */

static void depth_enter(ptx_parser *p)
{
   if (++p->expr_depth > PTX_MAX_EXPR_DEPTH)
      ptx_fail(p, p->tok.loc, "expression nested too deeply");
}

bool ptx_starts_expr(const ptx_parser *p)
{
   const ptx_token *t = &p->tok;
   if (t->kind == PTX_TOK_INT || t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64)
      return true;
   return t->kind == PTX_TOK_PUNCT &&
          (t->punct[0] == '-' || t->punct[0] == '~' || t->punct[0] == '!' || t->punct[0] == '(' ||
           t->punct[0] == '+');
}

static ptx_cval unary(ptx_parser *p);

/* (.s64) x and (.u64) x */
static bool try_cast(ptx_parser *p, ptx_cval *out)
{
   const ptx_token *n = ptx_peek(p);
   if (n->kind != PTX_TOK_DIRECTIVE)
      return false;
   bool s64 = ptx_tok_is_word(n, PTX_TOK_DIRECTIVE, "s64");
   if (!s64 && !ptx_tok_is_word(n, PTX_TOK_DIRECTIVE, "u64"))
      ptx_fail(p, n->loc, "only (.s64) and (.u64) casts are allowed in constant expressions");
   ptx_next(p);
   ptx_next(p);
   ptx_expect(p, ')', "after cast");
   ptx_loc loc = p->tok.loc;
   ptx_cval v = unary(p);
   if (is_float(v)) {
      double d = to_double(v);
      if (!(d > -9223372036854775808.0 && d < 18446744073709551616.0))
         ptx_fail(p, loc, "floating-point constant out of range for an integer cast");
      v.bits = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
   }
   v.kind = s64 ? PTX_CV_INT : PTX_CV_UINT;
   *out = v;
   return true;
}

static ptx_cval primary(ptx_parser *p)
{
   ptx_token t = p->tok;
   ptx_cval v = { PTX_CV_INT, t.ival };
   switch (t.kind) {
   case PTX_TOK_INT:
      v.kind = t.is_unsigned ? PTX_CV_UINT : PTX_CV_INT;
      ptx_next(p);
      return v;
   case PTX_TOK_F32:
      v.kind = PTX_CV_F32;
      ptx_next(p);
      return v;
   case PTX_TOK_F64:
      v.kind = PTX_CV_F64;
      ptx_next(p);
      return v;
   default:
      break;
   }
   if (p_is(p, '(')) {
      if (try_cast(p, &v))
         return v;
      ptx_next(p);
      v = ptx_expr(p);
      ptx_expect(p, ')', "to close '('");
      return v;
   }
   ptx_fail(p, t.loc, "expected a constant, found %s", ptx_tok_desc(p, &t));
}

static ptx_cval unary(ptx_parser *p)
{
   char c = p->tok.kind == PTX_TOK_PUNCT ? p->tok.punct[0] : 0;
   if (c != '-' && c != '~' && c != '!' && c != '+')
      return primary(p);
   ptx_loc loc = p->tok.loc;
   depth_enter(p);
   ptx_next(p);
   ptx_cval v = unary(p);
   p->expr_depth--;
   switch (c) {
   case '-':
      if (v.kind == PTX_CV_F32)
         v.bits ^= 0x80000000u;
      else if (v.kind == PTX_CV_F64)
         v.bits ^= 0x8000000000000000ull;
      else
         v.bits = 0 - v.bits;
      return v;
   case '~':
      if (is_float(v))
         ptx_fail(p, loc, "operator '~' is not defined on floating-point constants");
      v.bits = ~v.bits;
      return v;
   case '!':
      return from_int(is_float(v) ? to_double(v) == 0 : v.bits == 0);
   default:
      return v;
   }
}

ptx_cval ptx_expr_continue(ptx_parser *p, ptx_cval lhs, int min_prec)
{
   for (;;) {
      const binop *op = binop_of(&p->tok);
      if (!op || op->prec < min_prec)
         return lhs;
      ptx_loc loc = p->tok.loc;
      ptx_next(p);
      depth_enter(p);
      ptx_cval rhs = unary(p);
      for (;;) {
         const binop *next = binop_of(&p->tok);
         if (!next || next->prec <= op->prec)
            break;
         rhs = ptx_expr_continue(p, rhs, op->prec + 1);
      }
      p->expr_depth--;
      lhs = apply(p, loc, op, lhs, rhs);
   }
}

ptx_cval ptx_expr_prec(ptx_parser *p, int min_prec)
{
   depth_enter(p);
   ptx_cval v = ptx_expr_continue(p, unary(p), min_prec);
   p->expr_depth--;
   return v;
}

ptx_cval ptx_expr(ptx_parser *p)
{
   ptx_cval c = ptx_expr_prec(p, PTX_PREC_LOR);
   if (!p_is(p, '?'))
      return c;
   ptx_next(p);
   depth_enter(p);
   ptx_cval a = ptx_expr(p);
   ptx_expect(p, ':', "in '?:' expression");
   ptx_cval b = ptx_expr(p);
   p->expr_depth--;
   bool cond = is_float(c) ? to_double(c) != 0 : c.bits != 0;
   return cond ? a : b;
}

int64_t ptx_offset(ptx_parser *p)
{
   if (!p_is(p, '+') && !p_is(p, '-'))
      return 0;
   ptx_loc loc = p->tok.loc;
   ptx_cval v = ptx_expr_continue(p, from_int(0), PTX_PREC_ADD);
   if (is_float(v))
      ptx_fail(p, loc, "address offset must be an integer");
   return (int64_t)v.bits;
}

int64_t ptx_int_expr(ptx_parser *p, const char *what)
{
   ptx_loc loc = p->tok.loc;
   ptx_cval v = ptx_expr(p);
   if (is_float(v))
      ptx_fail(p, loc, "%s must be an integer constant", what);
   return (int64_t)v.bits;
}

uint32_t ptx_u32_expr(ptx_parser *p, const char *what)
{
   ptx_loc loc = p->tok.loc;
   int64_t v = ptx_int_expr(p, what);
   if (v < 0 || v > UINT32_MAX)
      ptx_fail(p, loc, "%s out of range: %lld", what, (long long)v);
   return (uint32_t)v;
}
