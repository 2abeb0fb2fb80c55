/*
 * msl_run.c — runs hand-written MSL cases (the .metal files of tests/msl)
 * on the Metal device and checks them.  Prints one line per case:
 *    PASS name | FAIL name: why | SKIP name: why
 *
 * A case is a .metal file whose "//@" comment lines describe the run:
 *
 *   //@ buffer NAME TYPE COUNT [= INIT]   a device buffer
 *   //@ bytes NAME TYPE COUNT = INIT      data passed with setBytes
 *   //@ run KERNEL groups=X[,Y,Z] threads=X[,Y,Z] bind=NAME:IDX[,...]
 *          [tg=IDX:LEN[,...]] [use=NAME] [error="text"]
 *                                         one command buffer with one dispatch
 *   //@ expect NAME [~TOL] = VALUES       buffer contents after every run
 *   //@ expect_error "text"               the library or pipeline must fail so
 *   //@ requires half|bfloat              SKIP when the host compiler lacks it
 *   //@ msl_version 310                   compile for that language version
 *                                         (default: the device's, MSL 3.2)
 *   //@ device soft                       a rule of the software device's shim
 *                                         (its message): SKIP on other devices
 *
 * TYPE: char uchar short ushort int uint long ulong half bfloat float, or
 * "struct" for bytes: INIT = {uint 16, float 2.5} (natural alignment).
 * INIT / VALUES: {v0, v1, ...} (the last value repeats), &NAME (the GPU
 * address of buffer NAME, for ulong), or an expression of the element
 * index i evaluated by this runner (C operators, ?:, sqrt floor ceil abs
 * min max), in int64 for integer types and double for float types.
 * Expected values are thus written out or computed here, never taken from
 * the device.  Float values compare exactly (NaN equals NaN) unless ~TOL
 * gives a relative tolerance.
 */
#include "../../src/metal/mtl.h"
#include "../../src/util/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OBJS = 48, MAX_RUNS = 16, MAX_EXPECTS = 32 };

typedef enum { TY_I8, TY_U8, TY_I16, TY_U16, TY_I32, TY_U32, TY_I64, TY_U64, TY_F16, TY_BF16, TY_F32, TY_STRUCT } elem_type;

static const struct { const char *name; elem_type t; unsigned size; } types[] = {
   {"char", TY_I8, 1},    {"uchar", TY_U8, 1},  {"short", TY_I16, 2}, {"ushort", TY_U16, 2},
   {"int", TY_I32, 4},    {"uint", TY_U32, 4},  {"long", TY_I64, 8},  {"ulong", TY_U64, 8},
   {"half", TY_F16, 2},   {"bfloat", TY_BF16, 2}, {"float", TY_F32, 4}, {"struct", TY_STRUCT, 1},
};

typedef struct obj {
   char name[64];
   elem_type type;
   unsigned esize;
   size_t count, len;
   bool is_bytes;
   uint8_t *data;              /* bytes: the host copy */
   mtl_buffer *buf;
   char *init;
} obj;

typedef struct run {
   char kernel[128];
   mtl_size groups, threads;
   char bind[512], tg[256], use[256];
   char error[256];
   bool want_error;
} run;

typedef struct expect {
   char name[64];
   double tol;
   char *values;
} expect;

typedef struct tcase {
   const char *name;
   char *source;
   obj objs[MAX_OBJS];
   int nobjs;
   run runs[MAX_RUNS];
   int nruns;
   expect ex[MAX_EXPECTS];
   int nex;
   char expect_error[256];
   char requires[32];
   uint32_t msl_version;       /* 0: the device's */
   bool soft_only;
   char why[1024];              /* failure text */
} tcase;

static mtl_device *dev;

/* ---- half and bfloat, computed here (round to nearest even) ---- */

static uint16_t f32_to_f16(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xff, m = x & 0x7fffffu;
   if (e == 0xff)
      return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
   int E = (int)e - 127 + 15;
   if (E >= 31)
      return (uint16_t)(sign | 0x7c00u);
   if (E <= 0) {
      if (E < -10)
         return (uint16_t)sign;
      m |= 0x800000u;
      unsigned shift = (unsigned)(14 - E);
      uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rem > half || (rem == half && (r & 1)))
         r++;
      return (uint16_t)(sign | r);
   }
   uint32_t r = ((uint32_t)E << 10) | (m >> 13), rem = m & 0x1fffu;
   if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
      r++;
   return (uint16_t)(sign | r);
}

static float f16_to_f32(uint16_t h)
{
   uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, x;
   if (e == 0x1f)
      x = sign | 0x7f800000u | (m << 13);
   else if (e)
      x = sign | ((e - 15 + 127) << 23) | (m << 13);
   else if (!m)
      x = sign;
   else {
      int k = 0;
      while (!(m & 0x400u))
         m <<= 1, k++;
      x = sign | ((uint32_t)(127 - 15 + 1 - k) << 23) | ((m & 0x3ffu) << 13);
   }
   float f;
   memcpy(&f, &x, 4);
   return f;
}

static uint16_t f32_to_bf16(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   if ((x & 0x7fffffffu) > 0x7f800000u)
      return (uint16_t)((x >> 16) | 0x40u);
   return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static float bf16_to_f32(uint16_t b)
{
   uint32_t x = (uint32_t)b << 16;
   float f;
   memcpy(&f, &x, 4);
   return f;
}

static bool is_float(elem_type t) { return t == TY_F16 || t == TY_BF16 || t == TY_F32; }

/* ---- expressions in i: int64 for integer buffers, double for float ---- */

typedef struct ev {
   const char *p;
   bool flt;
   int64_t i;
   const char *err;
} ev;

typedef struct val {
   int64_t n;
   double d;
} val;

static val vmake(const ev *e, double d, int64_t n) { return e->flt ? (val){(int64_t)d, d} : (val){n, (double)n}; }

static void skip_ws(ev *e)
{
   while (isspace((unsigned char)*e->p))
      e->p++;
}

static bool eat(ev *e, const char *s)
{
   skip_ws(e);
   size_t n = strlen(s);
   if (strncmp(e->p, s, n))
      return false;
   /* do not take "<" from "<<" or "<=" and so on */
   if (n == 1 && strchr("<>&|=", s[0]) && (e->p[1] == s[0] || e->p[1] == '='))
      return false;
   e->p += n;
   return true;
}

static val expr(ev *e);

static val primary(ev *e)
{
   skip_ws(e);
   if (eat(e, "(")) {
      val v = expr(e);
      if (!eat(e, ")"))
         e->err = "missing )";
      return v;
   }
   if (eat(e, "-")) { val v = primary(e); return vmake(e, -v.d, -v.n); }
   if (eat(e, "~")) { val v = primary(e); return vmake(e, (double)~v.n, ~v.n); }
   if (eat(e, "!")) { val v = primary(e); bool z = e->flt ? v.d == 0 : v.n == 0; return vmake(e, z, z); }
   if (isdigit((unsigned char)*e->p) || *e->p == '.') {
      char *end;
      if (e->flt) {
         double d = strtod(e->p, &end);
         e->p = end;
         return vmake(e, d, 0);
      }
      int64_t n = (int64_t)strtoull(e->p, &end, 0);
      while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
         end++;
      e->p = end;
      return vmake(e, 0, n);
   }
   if (!strncmp(e->p, "inf", 3)) { e->p += 3; return vmake(e, INFINITY, 0); }
   if (!strncmp(e->p, "nan", 3)) { e->p += 3; return vmake(e, NAN, 0); }
   static const char *const fns[] = {"sqrt", "floor", "ceil", "abs", "min", "max"};
   for (size_t k = 0; k < ARRAY_SIZE(fns); k++) {
      size_t n = strlen(fns[k]);
      if (strncmp(e->p, fns[k], n) || e->p[n] != '(')
         continue;
      e->p += n + 1;
      val a = expr(e), b = a;
      if (k >= 4 && (!eat(e, ",") || (b = expr(e), false)))
         e->err = "min/max need two arguments";
      if (!eat(e, ")"))
         e->err = "missing ) after a function argument";
      switch (k) {
      case 0: return vmake(e, sqrt(a.d), (int64_t)sqrt(a.d));
      case 1: return vmake(e, floor(a.d), a.n);
      case 2: return vmake(e, ceil(a.d), a.n);
      case 3: return vmake(e, fabs(a.d), a.n < 0 ? -a.n : a.n);
      case 4: return vmake(e, fmin(a.d, b.d), a.n < b.n ? a.n : b.n);
      default: return vmake(e, fmax(a.d, b.d), a.n > b.n ? a.n : b.n);
      }
   }
   if (*e->p == 'i' && !isalnum((unsigned char)e->p[1])) {
      e->p++;
      return vmake(e, (double)e->i, e->i);
   }
   e->err = "unexpected character";
   return vmake(e, 0, 0);
}

static val binary(ev *e, int level);

static val apply(ev *e, const char *op, val a, val b)
{
   bool f = e->flt;
   if (!strcmp(op, "*")) return vmake(e, a.d * b.d, a.n * b.n);
   if (!strcmp(op, "/")) {
      if (!f && b.n == 0) { e->err = "division by zero"; return a; }
      return vmake(e, a.d / b.d, f ? 0 : a.n / b.n);
   }
   if (!strcmp(op, "%")) {
      if (!f && b.n == 0) { e->err = "division by zero"; return a; }
      return vmake(e, fmod(a.d, b.d), f ? 0 : a.n % b.n);
   }
   if (!strcmp(op, "+")) return vmake(e, a.d + b.d, a.n + b.n);
   if (!strcmp(op, "-")) return vmake(e, a.d - b.d, a.n - b.n);
   if (!strcmp(op, "<<")) return vmake(e, (double)(a.n << b.n), (int64_t)((uint64_t)a.n << b.n));
   if (!strcmp(op, ">>")) return vmake(e, (double)(a.n >> b.n), a.n >> b.n);
   if (!strcmp(op, "<")) return vmake(e, a.d < b.d, a.n < b.n);
   if (!strcmp(op, ">")) return vmake(e, a.d > b.d, a.n > b.n);
   if (!strcmp(op, "<=")) return vmake(e, a.d <= b.d, a.n <= b.n);
   if (!strcmp(op, ">=")) return vmake(e, a.d >= b.d, a.n >= b.n);
   if (!strcmp(op, "==")) return vmake(e, a.d == b.d, a.n == b.n);
   if (!strcmp(op, "!=")) return vmake(e, a.d != b.d, a.n != b.n);
   if (!strcmp(op, "&")) return vmake(e, (double)(a.n & b.n), a.n & b.n);
   if (!strcmp(op, "^")) return vmake(e, (double)(a.n ^ b.n), a.n ^ b.n);
   if (!strcmp(op, "|")) return vmake(e, (double)(a.n | b.n), a.n | b.n);
   if (!strcmp(op, "&&")) return vmake(e, a.d != 0 && b.d != 0, a.n && b.n);
   return vmake(e, a.d != 0 || b.d != 0, a.n || b.n);
}

static const char *const levels[][5] = {
   {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"},
   {"+", "-"}, {"*", "/", "%"},
};

static val binary(ev *e, int level)
{
   if (level == (int)ARRAY_SIZE(levels))
      return primary(e);
   val a = binary(e, level + 1);
   for (;;) {
      const char *op = NULL;
      for (int k = 0; k < 5 && levels[level][k]; k++)
         if (eat(e, levels[level][k])) {
            op = levels[level][k];
            break;
         }
      if (!op || e->err)
         return a;
      val b = binary(e, level + 1);
      a = apply(e, op, a, b);
   }
}

static val expr(ev *e)
{
   val c = binary(e, 0);
   if (eat(e, "?")) {
      val a = expr(e);
      if (!eat(e, ":"))
         e->err = "missing : in ?:";
      val b = expr(e);
      return (e->flt ? c.d != 0 : c.n != 0) ? a : b;
   }
   return c;
}

static bool eval(const char *text, bool flt, int64_t i, val *out, const char **err)
{
   ev e = {.p = text, .flt = flt, .i = i};
   *out = expr(&e);
   skip_ws(&e);
   if (!e.err && *e.p)
      e.err = "trailing characters";
   *err = e.err;
   return !e.err;
}

/* ---- element values ---- */

static void store(uint8_t *p, elem_type t, val v)
{
   switch (t) {
   case TY_I8: case TY_U8: { uint8_t x = (uint8_t)v.n; memcpy(p, &x, 1); break; }
   case TY_I16: case TY_U16: { uint16_t x = (uint16_t)v.n; memcpy(p, &x, 2); break; }
   case TY_I32: case TY_U32: { uint32_t x = (uint32_t)v.n; memcpy(p, &x, 4); break; }
   case TY_I64: case TY_U64: case TY_STRUCT: { uint64_t x = (uint64_t)v.n; memcpy(p, &x, 8); break; }
   case TY_F16: { uint16_t x = f32_to_f16((float)v.d); memcpy(p, &x, 2); break; }
   case TY_BF16: { uint16_t x = f32_to_bf16((float)v.d); memcpy(p, &x, 2); break; }
   case TY_F32: { float x = (float)v.d; memcpy(p, &x, 4); break; }
   }
}

/* The stored value, as int64 (integers) or double (floats). */
static val load(const uint8_t *p, elem_type t)
{
   val v = {0, 0};
   switch (t) {
   case TY_I8: v.n = (int8_t)p[0]; break;
   case TY_U8: v.n = p[0]; break;
   case TY_I16: { int16_t x; memcpy(&x, p, 2); v.n = x; break; }
   case TY_U16: { uint16_t x; memcpy(&x, p, 2); v.n = x; break; }
   case TY_I32: { int32_t x; memcpy(&x, p, 4); v.n = x; break; }
   case TY_U32: { uint32_t x; memcpy(&x, p, 4); v.n = x; break; }
   case TY_I64: case TY_U64: case TY_STRUCT: { int64_t x; memcpy(&x, p, 8); v.n = x; break; }
   case TY_F16: { uint16_t x; memcpy(&x, p, 2); v.d = f16_to_f32(x); break; }
   case TY_BF16: { uint16_t x; memcpy(&x, p, 2); v.d = bf16_to_f32(x); break; }
   case TY_F32: { float x; memcpy(&x, p, 4); v.d = x; break; }
   }
   if (!is_float(t))
      v.d = (double)v.n;
   return v;
}

static obj *find_obj(tcase *c, const char *name)
{
   for (int i = 0; i < c->nobjs; i++)
      if (!strcmp(c->objs[i].name, name))
         return &c->objs[i];
   return NULL;
}

static bool fail(tcase *c, const char *fmt, ...) MC_PRINTF(2, 3);
static bool fail(tcase *c, const char *fmt, ...)
{
   if (c->why[0])
      return false;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(c->why, sizeof(c->why), fmt, ap);
   va_end(ap);
   for (char *p = c->why; *p; p++)       /* one line per result */
      if (*p == '\n')
         *p = ' ';
   return false;
}

/* The value of element i from a list "{a, b, c}" (the last repeats). */
static const char *list_item(const char *list, size_t i, char *buf, size_t cap)
{
   const char *p = list + 1;
   for (size_t k = 0;; k++) {
      const char *end = p + strcspn(p, ",}");
      if (k == i || *end != ',') {
         snprintf(buf, cap, "%.*s", (int)(end - p), p);
         return buf;
      }
      p = end + 1;
   }
}

/* Element i of an INIT / VALUES spec. */
static bool spec_value(tcase *c, const char *spec, elem_type t, size_t i, val *out)
{
   char buf[256];
   const char *text = spec;
   while (isspace((unsigned char)*text))
      text++;
   if (text[0] == '&') {
      obj *o = find_obj(c, text + 1);
      if (!o || !o->buf)
         return fail(c, "&%s: no such buffer", text + 1);
      out->n = (int64_t)mtl_buffer_gpu_address(o->buf);
      out->d = (double)out->n;
      return true;
   }
   if (text[0] == '{')
      text = list_item(text, i, buf, sizeof(buf));
   const char *err;
   if (!eval(text, is_float(t), (int64_t)i, out, &err))
      return fail(c, "bad value \"%s\": %s", text, err);
   return true;
}

/* "{uint 16, float 2.5}": packed with natural alignment. */
static bool fill_struct(tcase *c, obj *o)
{
   const char *p = strchr(o->init, '{');
   size_t off = 0;
   if (!p)
      return fail(c, "%s: struct bytes need {TYPE VALUE, ...}", o->name);
   p++;
   while (*p && *p != '}') {
      char tname[16];
      int used = 0;
      if (sscanf(p, " %15[a-z] %n", tname, &used) != 1)
         return fail(c, "%s: bad struct field", o->name);
      p += used;
      size_t k = 0;
      while (k < ARRAY_SIZE(types) && strcmp(types[k].name, tname))
         k++;
      if (k == ARRAY_SIZE(types) || types[k].t == TY_STRUCT)
         return fail(c, "%s: unknown field type %s", o->name, tname);
      const char *end = p + strcspn(p, ",}");
      char text[128];
      snprintf(text, sizeof(text), "%.*s", (int)(end - p), p);
      const char *err;
      val v;
      if (!eval(text, is_float(types[k].t), 0, &v, &err))
         return fail(c, "%s: bad value \"%s\": %s", o->name, text, err);
      off = ALIGN_UP(off, types[k].size);
      if (off + types[k].size > o->len)
         return fail(c, "%s: struct fields exceed its %zu bytes", o->name, o->len);
      store(o->data + off, types[k].t, v);
      off += types[k].size;
      p = *end == ',' ? end + 1 : end;
   }
   return true;
}

static bool init_obj(tcase *c, obj *o)
{
   char *err = NULL;
   if (o->is_bytes) {
      o->data = calloc(1, o->len ? o->len : 1);
   } else {
      o->buf = mtl_buffer_new(dev, o->len, &err);
      if (!o->buf) {
         fail(c, "buffer %s: %s", o->name, err ? err : "?");
         free(err);
         return false;
      }
      o->data = mtl_buffer_contents(o->buf);
      memset(o->data, 0xcd, o->len);         /* prove the kernel wrote */
   }
   if (!o->init)
      return true;
   if (o->type == TY_STRUCT)
      return fill_struct(c, o);
   for (size_t i = 0; i < o->count; i++) {
      val v;
      if (!spec_value(c, o->init, o->type, i, &v))
         return false;
      store(o->data + i * o->esize, o->type, v);
   }
   return true;
}

/* ---- the case file ---- */

static bool parse_size(const char *s, mtl_size *out)
{
   unsigned v[3] = {1, 1, 1};
   int n = sscanf(s, "%u,%u,%u", &v[0], &v[1], &v[2]);
   *out = (mtl_size){v[0], v[1], v[2]};
   return n >= 1;
}

/* key=value from a run line; value may be "quoted". */
static bool option(const char *line, const char *key, char *out, size_t cap)
{
   size_t n = strlen(key);
   for (const char *p = line; (p = strstr(p, key)); p++) {
      if ((p != line && !isspace((unsigned char)p[-1])) || p[n] != '=')
         continue;
      p += n + 1;
      size_t len = *p == '"' ? strcspn(p + 1, "\"") : strcspn(p, " \t");
      snprintf(out, cap, "%.*s", (int)len, *p == '"' ? p + 1 : p);
      return true;
   }
   out[0] = 0;
   return false;
}

static bool parse_obj(tcase *c, const char *rest, bool is_bytes)
{
   if (c->nobjs == MAX_OBJS)
      return fail(c, "too many buffers");
   obj *o = &c->objs[c->nobjs++];
   char tname[16];
   unsigned long count;
   int used = 0;
   if (sscanf(rest, "%63s %15s %lu %n", o->name, tname, &count, &used) < 3)
      return fail(c, "bad line: %s %s", is_bytes ? "bytes" : "buffer", rest);
   size_t k = 0;
   while (k < ARRAY_SIZE(types) && strcmp(types[k].name, tname))
      k++;
   if (k == ARRAY_SIZE(types))
      return fail(c, "unknown type %s", tname);
   o->type = types[k].t;
   o->esize = types[k].size;
   o->count = count;
   o->len = count * o->esize;
   o->is_bytes = is_bytes;
   const char *eq = strchr(rest + used, '=');
   if (eq)
      o->init = strdup(eq + 1);
   return true;
}

static bool parse_line(tcase *c, const char *line)
{
   char word[32];
   int used = 0;
   if (sscanf(line, "%31s %n", word, &used) != 1)
      return true;
   const char *rest = line + used;
   if (!strcmp(word, "buffer") || !strcmp(word, "bytes"))
      return parse_obj(c, rest, word[1] == 'y');
   if (!strcmp(word, "run")) {
      if (c->nruns == MAX_RUNS)
         return fail(c, "too many runs");
      run *r = &c->runs[c->nruns++];
      char g[64], t[64];
      if (sscanf(rest, "%127s", r->kernel) != 1 || !option(rest, "groups", g, sizeof(g)) ||
          !option(rest, "threads", t, sizeof(t)) || !parse_size(g, &r->groups) || !parse_size(t, &r->threads))
         return fail(c, "bad run line: %s", rest);
      option(rest, "bind", r->bind, sizeof(r->bind));
      option(rest, "tg", r->tg, sizeof(r->tg));
      option(rest, "use", r->use, sizeof(r->use));
      r->want_error = option(rest, "error", r->error, sizeof(r->error));
      return true;
   }
   if (!strcmp(word, "expect")) {
      if (c->nex == MAX_EXPECTS)
         return fail(c, "too many expects");
      expect *x = &c->ex[c->nex++];
      if (sscanf(rest, "%63s", x->name) != 1)
         return fail(c, "bad expect line");
      const char *tol = strchr(rest, '~'), *eq = strchr(rest, '=');
      if (!eq)
         return fail(c, "expect %s: missing '='", x->name);
      if (tol && tol < eq)
         x->tol = strtod(tol + 1, NULL);
      x->values = strdup(eq + 1);
      return true;
   }
   if (!strcmp(word, "expect_error")) {
      const char *q = strchr(rest, '"');
      snprintf(c->expect_error, sizeof(c->expect_error), "%.*s", q ? (int)strcspn(q + 1, "\"") : 0,
               q ? q + 1 : "");
      return true;
   }
   if (!strcmp(word, "requires"))
      return sscanf(rest, "%31s", c->requires) == 1 || fail(c, "bad requires line");
   if (!strcmp(word, "device")) {
      char which[16] = "";
      if (sscanf(rest, "%15s", which) != 1 || strcmp(which, "soft"))
         return fail(c, "bad device line (only \"soft\")");
      c->soft_only = true;
      return true;
   }
   if (!strcmp(word, "msl_version"))
      return sscanf(rest, "%u", &c->msl_version) == 1 || fail(c, "bad msl_version line");
   return fail(c, "unknown directive //@ %s", word);
}

static bool parse_case(tcase *c)
{
   for (const char *p = c->source; *p;) {
      const char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      const char *s = p;
      while (s < p + n && isspace((unsigned char)*s))
         s++;
      if (!strncmp(s, "//@", 3)) {
         char line[2048];
         snprintf(line, sizeof(line), "%.*s", (int)(p + n - s - 3), s + 3);
         if (!parse_line(c, line))
            return false;
      }
      p += n + (nl ? 1 : 0);
   }
   return true;
}

/* ---- running ---- */

static bool bind_all(tcase *c, mtl_encoder *e, const run *r)
{
   char list[512];
   snprintf(list, sizeof(list), "%s", r->bind);
   for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
      char *colon = strchr(item, ':');
      if (!colon)
         return fail(c, "bind=%s: need NAME:INDEX", item);
      *colon = 0;
      obj *o = find_obj(c, item);
      if (!o)
         return fail(c, "bind: no buffer %s", item);
      uint32_t idx = (uint32_t)strtoul(colon + 1, NULL, 10);
      if (o->is_bytes)
         mtl_encoder_set_bytes(e, o->data, o->len, idx);
      else
         mtl_encoder_set_buffer(e, o->buf, 0, idx);
   }
   snprintf(list, sizeof(list), "%s", r->tg);
   for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
      unsigned idx, len;
      if (sscanf(item, "%u:%u", &idx, &len) != 2)
         return fail(c, "tg=%s: need INDEX:LENGTH", item);
      mtl_encoder_set_threadgroup_memory_length(e, len, idx);
   }
   snprintf(list, sizeof(list), "%s", r->use);
   for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
      obj *o = find_obj(c, item);
      if (!o || !o->buf)
         return fail(c, "use: no buffer %s", item);
      mtl_encoder_use_resource(e, o->buf);
   }
   return true;
}

/* An error where one was expected must contain the expected text. */
static bool check_error(tcase *c, const char *stage, const char *got, const char *want)
{
   if (!got)
      return fail(c, "%s succeeded, expected an error containing \"%s\"", stage, want);
   if (!strstr(got, want))
      return fail(c, "%s error \"%s\" does not contain \"%s\"", stage, got, want);
   return true;
}

static bool do_run(tcase *c, mtl_library *lib, const run *r)
{
   char *err = NULL;
   bool ok = false;
   mtl_function *fn = mtl_function_new(lib, r->kernel, &err);
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, &err) : NULL;
   mtl_queue *q = NULL;
   mtl_cmdbuf *cb = NULL;
   if (!p) {
      ok = r->want_error ? check_error(c, "pipeline", err, r->error)
                         : fail(c, "kernel %s: %s", r->kernel, err ? err : "?");
      goto out;
   }
   q = mtl_queue_new(dev, &err);
   cb = q ? mtl_cmdbuf_new(q, &err) : NULL;
   if (!cb) {
      fail(c, "queue: %s", err ? err : "?");
      goto out;
   }
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, p);
   if (!bind_all(c, e, r))
      goto out;
   mtl_encoder_dispatch_threadgroups(e, r->groups, r->threads);
   mtl_encoder_end(e);
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   const char *cerr = mtl_cmdbuf_error(cb);
   if (r->want_error)
      ok = check_error(c, "command buffer", cerr, r->error);
   else if (mtl_cmdbuf_get_status(cb) != MTL_CMDBUF_COMPLETED)
      ok = fail(c, "run %s: command buffer failed: %s", r->kernel, cerr ? cerr : "?");
   else
      ok = true;
out:
   free(err);
   mtl_cmdbuf_release(cb);
   mtl_queue_release(q);
   mtl_pipeline_release(p);
   mtl_function_release(fn);
   return ok;
}

static bool same_value(const val *got, const val *want, elem_type t, double tol)
{
   if (!is_float(t))
      return got->n == want->n;
   if (isnan(got->d) || isnan(want->d))
      return isnan(got->d) && isnan(want->d);
   if (tol == 0)
      return got->d == want->d && signbit(got->d) == signbit(want->d);
   return fabs(got->d - want->d) <= tol * fmax(1.0, fabs(want->d));
}

static bool check_expect(tcase *c, const expect *x)
{
   obj *o = find_obj(c, x->name);
   if (!o || o->is_bytes)
      return fail(c, "expect: no buffer %s", x->name);
   for (size_t i = 0; i < o->count; i++) {
      val want, got = load(o->data + i * o->esize, o->type);
      if (!spec_value(c, x->values, o->type, i, &want))
         return false;
      if (o->type != TY_F32 && is_float(o->type))           /* round what we expect too */
         want.d = o->type == TY_F16 ? f16_to_f32(f32_to_f16((float)want.d))
                                    : bf16_to_f32(f32_to_bf16((float)want.d));
      if (o->type == TY_F32)
         want.d = (float)want.d;
      if (!is_float(o->type)) {  /* compare in the element's width */
         uint8_t tmp[8];
         store(tmp, o->type, want);
         want = load(tmp, o->type);
      }
      if (!same_value(&got, &want, o->type, x->tol)) {
         if (is_float(o->type))
            return fail(c, "%s[%zu]: got %.9g, expected %.9g", x->name, i, got.d, want.d);
         return fail(c, "%s[%zu]: got %lld (%#llx), expected %lld (%#llx)", x->name, i,
                     (long long)got.n, (unsigned long long)got.n, (long long)want.n,
                     (unsigned long long)want.n);
      }
   }
   return true;
}

/* 1 pass, 0 fail, -1 skip. */
static int run_case(tcase *c)
{
   if (!parse_case(c))
      return 0;
   for (int i = 0; i < c->nobjs; i++)
      if (!init_obj(c, &c->objs[i]))
         return 0;
   char *err = NULL;
   mtl_device_info di;
   mtl_device_get_info(dev, &di);
   if (c->soft_only && !di.is_software) {
      snprintf(c->why, sizeof(c->why), "a rule of the software device's shim (%s runs Apple's compiler)", di.name);
      return -1;
   }
   mtl_compile_options opts = { .language_version = c->msl_version };
   mtl_library *lib = mtl_library_new(dev, c->source, &opts, &err);
   int result = 0;
   if (!lib) {
      if (c->requires[0] && err && strstr(err, "needs_clang")) {
         snprintf(c->why, sizeof(c->why), "the host compiler has no %s (needs a newer clang)", c->requires);
         result = -1;
      } else if (c->expect_error[0]) {
         result = check_error(c, "library", err, c->expect_error);
      } else {
         fail(c, "compile: %s", err ? err : "?");
      }
      free(err);
      return result;
   }
   bool ok = true;
   for (int i = 0; i < c->nruns && ok; i++)
      ok = do_run(c, lib, &c->runs[i]);
   if (ok && c->expect_error[0]) {
      /* the error may come from a pipeline, checked in do_run */
      bool any = false;
      for (int i = 0; i < c->nruns; i++)
         any |= c->runs[i].want_error;
      if (!any)
         ok = fail(c, "compiled, expected an error containing \"%s\"", c->expect_error);
   }
   for (int i = 0; i < c->nex && ok; i++)
      ok = check_expect(c, &c->ex[i]);
   mtl_library_release(lib);
   return ok ? 1 : 0;
}

static void free_case(tcase *c)
{
   for (int i = 0; i < c->nobjs; i++) {
      if (c->objs[i].is_bytes)
         free(c->objs[i].data);
      mtl_buffer_release(c->objs[i].buf);
      free(c->objs[i].init);
   }
   for (int i = 0; i < c->nex; i++)
      free(c->ex[i].values);
   free(c->source);
}

int main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: msl_run CASE.metal...\n");
      return 2;
   }
   dev = mtl_device_get(0);
   int failed = 0;
   for (int a = 1; a < argc; a++) {
      tcase *c = calloc(1, sizeof(*c));
      const char *base = strrchr(argv[a], '/');
      c->name = base ? base + 1 : argv[a];
      char name[256];
      snprintf(name, sizeof(name), "%s", c->name);
      char *dot = strrchr(name, '.');
      if (dot)
         *dot = 0;
      c->source = file_read(argv[a], NULL);
      int r = c->source ? run_case(c) : (fail(c, "cannot read %s", argv[a]), 0);
      if (r > 0)
         printf("PASS %s\n", name);
      else if (r < 0)
         printf("SKIP %s: %s\n", name, c->why);
      else
         printf("FAIL %s: %s\n", name, c->why[0] ? c->why : "failed");
      fflush(stdout);
      failed += r == 0;
      free_case(c);
      free(c);
   }
   return failed ? 1 : 0;
}
