/*
 * msl_scan.c — what clang++ cannot do with MSL source by itself.
 *
 * clang ignores MSL's attributes ([[buffer(0)]], [[thread_position_in_grid]])
 * and knows nothing of kernels, so before compiling, a token scan (no full
 * parse) of the MSL:
 *   1. finds each kernel definition ("kernel void f(...) {" or
 *      "[[kernel]] void f(...) {"), parses its parameters (type text, name,
 *      attribute) and generates an extern "C" entry wrapper that binds the
 *      buffers and threadgroup blocks for one threadgroup and calls the
 *      kernel once per thread with the built-in values (a loop over the
 *      threads, a thread function for fibers, or one of them where the
 *      kernel's body says MC_THREADS_INDEPENDENT or MC_THREADS_WAIT; the
 *      loop runs only the x that pass the opening test where it says
 *      MC_THREADS_X_RANGE);
 *   2. blanks the attributes it handled (same length, so diagnostics keep
 *      their line and column); any other attribute stays and clang's
 *      -Werror=unknown-attributes rejects it, as Metal would;
 *   3. rewrites threadgroup variables declared in kernel bodies
 *      ("threadgroup float tile[16][16];") into static thread_local storage
 *      with a threadgroup reference to it: clang rejects automatic
 *      variables in an address space, and every thread of a threadgroup runs
 *      on one OS thread, so thread_local storage is exactly per-threadgroup
 *      even with threadgroups running in parallel;
 *   4. rewrites MSL spellings C++ lacks: the half literal suffix 0.5h, and
 *      static_cast<float4>(v) (a value conversion in MSL, a bit cast for
 *      clang vectors) into the float4(v) constructor.
 * Rewrites never add or remove newlines, so every line keeps its number.
 * The compiler's prelude (soft_find_prelude), the same 240 KB in front of
 * every library, holds no kernel, so its scan is token-local rewrites
 * only: it is scanned once per process and reused while the text is the
 * same (prelude_memo); the scan starts after it, at its line count.
 * The memo also holds the scanned prelude's digest, which the compiled
 * library's cache key takes in place of its text (compile.c key_add_tu),
 * and is kept in the cache for the next process (memo_load).
 * Known gaps: kernels inside namespaces or templates, kernels declared by
 * macros, threadgroup arrays sized by constants local to the kernel.
 */
#include "soft.h"
#include "soft_scan_id.h"   /* MC_SOFT_SCAN_ID, made by the Makefile */

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tok_kind { T_IDENT, T_NUMBER, T_PUNCT, T_STRING };

typedef struct tok {
   enum tok_kind kind;
   uint32_t off, len, line, col;
} tok;

typedef struct edit {
   uint32_t off, len;
   char *text;          /* replacement, malloc'ed; NULL = blank with spaces */
} edit;

typedef struct scanner {
   const char *src;
   tok *t;
   uint32_t n, cap;
   edit *ed;
   uint32_t ned, edcap;
   strbuf gen;          /* generated entries */
   char *err;
   bool oom;
} scanner;

typedef struct prelude_memo {
   char *text;          /* the prelude: its #include line to the end of PRELUDE_END's */
   size_t len;
   char *scanned;
   uint32_t lines;      /* newlines in text */
   uint8_t digest[32];  /* SHA-256 of scanned: the cache key's part for it (compile.c) */
   const char *file;    /* taken from its file: the mapping text and scanned lie in */
   size_t file_len;
} prelude_memo;

/* A source's prelude, scanned: src[0, at) holds only comments, which
 * scan to themselves; then the memo's text. */
typedef struct prelude_use {
   const prelude_memo *m;
   uint32_t at;
} prelude_use;

/* ---- tokens ---- */

static bool push_tok(scanner *s, enum tok_kind k, uint32_t off, uint32_t len, uint32_t line,
                     uint32_t col)
{
   if (s->n == s->cap) {
      uint32_t cap = s->cap ? s->cap * 2 : 256;
      tok *t = mc_realloc(s->t, cap * sizeof(*t));
      if (!t) {
         s->oom = true;
         return false;
      }
      s->t = t;
      s->cap = cap;
   }
   s->t[s->n++] = (tok){k, off, len, line, col};
   return true;
}

/* Tokens of src from offset `from`, a line start, which is line `line`. */
static bool tokenize(scanner *s, uint32_t from, uint32_t line)
{
   const char *p = s->src;
   uint32_t i = from, col = 1;
   bool line_start = true;
#define ADV() (p[i] == '\n' ? (line++, col = 1, line_start = true) : (col++, 0), i++)
   while (p[i]) {
      char c = p[i];
      if (c == '\n' || isspace((unsigned char)c)) {
         ADV();
         continue;
      }
      if (c == '/' && p[i + 1] == '/') {
         while (p[i] && p[i] != '\n')
            ADV();
         continue;
      }
      if (c == '/' && p[i + 1] == '*') {
         ADV(), ADV();
         while (p[i] && !(p[i] == '*' && p[i + 1] == '/'))
            ADV();
         if (p[i])
            ADV(), ADV();
         continue;
      }
      if (c == '#' && line_start) {          /* preprocessor line, with continuations */
         while (p[i] && p[i] != '\n') {
            if (p[i] == '\\' && p[i + 1] == '\n')
               ADV();
            ADV();
         }
         continue;
      }
      line_start = false;
      uint32_t start = i, sl = line, sc = col;
      if (isalpha((unsigned char)c) || c == '_') {
         while (isalnum((unsigned char)p[i]) || p[i] == '_')
            ADV();
         if (!push_tok(s, T_IDENT, start, i - start, sl, sc))
            return false;
      } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p[i + 1]))) {
         while (isalnum((unsigned char)p[i]) || p[i] == '.' || p[i] == '_' ||
                ((p[i] == '+' || p[i] == '-') && strchr("eEpP", p[i - 1])))
            ADV();
         if (!push_tok(s, T_NUMBER, start, i - start, sl, sc))
            return false;
      } else if (c == '"' || c == '\'') {
         ADV();
         while (p[i] && p[i] != c && p[i] != '\n') {
            if (p[i] == '\\' && p[i + 1])
               ADV();
            ADV();
         }
         if (p[i] == c)
            ADV();
         if (!push_tok(s, T_STRING, start, i - start, sl, sc))
            return false;
      } else {
         ADV();
         if (!push_tok(s, T_PUNCT, start, 1, sl, sc))
            return false;
      }
   }
#undef ADV
   return true;
}

static bool is(const scanner *s, uint32_t k, const char *text)
{
   if (k >= s->n)
      return false;
   size_t n = strlen(text);
   return s->t[k].len == n && !memcmp(s->src + s->t[k].off, text, n);
}

static bool is_ident(const scanner *s, uint32_t k)
{
   return k < s->n && s->t[k].kind == T_IDENT;
}

/* "[[" at k (two adjacent '[' tokens). */
static bool attr_open(const scanner *s, uint32_t k)
{
   return is(s, k, "[") && is(s, k + 1, "[") && s->t[k + 1].off == s->t[k].off + 1;
}

/* Index of the matching close for the bracket at k, or s->n. */
static uint32_t match(const scanner *s, uint32_t k)
{
   const char *o = "([{", *c = ")]}";
   int depth = 0;
   for (uint32_t i = k; i < s->n; i++) {
      if (s->t[i].kind != T_PUNCT)
         continue;
      char ch = s->src[s->t[i].off];
      if (strchr(o, ch))
         depth++;
      else if (strchr(c, ch) && --depth == 0)
         return i;
   }
   return s->n;
}

/* ---- errors and edits ---- */

static void fail_at(scanner *s, uint32_t k, const char *fmt, ...) MC_PRINTF(3, 4);
static void fail_at(scanner *s, uint32_t k, const char *fmt, ...)
{
   if (s->err)
      return;
   strbuf b;
   strbuf_init(&b);
   const tok *t = k < s->n ? &s->t[k] : NULL;
   strbuf_printf(&b, "program_source:%u:%u: error: ", t ? t->line : 0, t ? t->col : 0);
   va_list ap;
   va_start(ap, fmt);
   strbuf_vprintf(&b, fmt, ap);
   va_end(ap);
   s->err = strbuf_take(&b);
   if (!s->err)
      s->oom = true;
}

static void add_edit(scanner *s, uint32_t off, uint32_t len, const char *text)
{
   if (s->ned == s->edcap) {
      uint32_t cap = s->edcap ? s->edcap * 2 : 32;
      edit *e = mc_realloc(s->ed, cap * sizeof(*e));
      if (!e) {
         s->oom = true;
         return;
      }
      s->ed = e;
      s->edcap = cap;
   }
   char *copy = NULL;
   if (text && !(copy = mc_strdup(text))) {
      s->oom = true;
      return;
   }
   s->ed[s->ned++] = (edit){off, len, copy};
}

/* Blank tokens a..b inclusive (keeping newlines). */
static void blank(scanner *s, uint32_t a, uint32_t b)
{
   add_edit(s, s->t[a].off, s->t[b].off + s->t[b].len - s->t[a].off, NULL);
}

static char *tok_text(const scanner *s, uint32_t a, uint32_t b)
{
   uint32_t off = s->t[a].off, end = s->t[b].off + s->t[b].len;
   char *r = mc_malloc(end - off + 1);
   if (!r)
      return NULL;
   /* Join the tokens' text with single spaces where whitespace was. */
   size_t n = 0;
   for (uint32_t k = a; k <= b; k++) {
      if (k > a && s->t[k].off > s->t[k - 1].off + s->t[k - 1].len)
         r[n++] = ' ';
      memcpy(r + n, s->src + s->t[k].off, s->t[k].len);
      n += s->t[k].len;
   }
   r[n] = 0;
   return r;
}

/* ---- kernel parameters ---- */

enum param_kind { P_BUFFER, P_TG, P_POS3, P_SCALAR };

typedef struct builtin_attr {
   const char *name;
   enum param_kind kind;
   const char *x, *y, *z;     /* C++ expressions in the wrapper's loop */
} builtin_attr;

static const builtin_attr builtins[] = {
   {"thread_position_in_grid", P_POS3, "__mc_G[0] * __mc_T[0] + __mc_x",
    "__mc_G[1] * __mc_T[1] + __mc_y", "__mc_G[2] * __mc_T[2] + __mc_z"},
   {"thread_position_in_threadgroup", P_POS3, "__mc_x", "__mc_y", "__mc_z"},
   {"threadgroup_position_in_grid", P_POS3, "__mc_G[0]", "__mc_G[1]", "__mc_G[2]"},
   {"threads_per_threadgroup", P_POS3, "__mc_T[0]", "__mc_T[1]", "__mc_T[2]"},
   {"threadgroups_per_grid", P_POS3, "__mc_N[0]", "__mc_N[1]", "__mc_N[2]"},
   {"threads_per_grid", P_POS3, "__mc_N[0] * __mc_T[0]", "__mc_N[1] * __mc_T[1]",
    "__mc_N[2] * __mc_T[2]"},
   {"thread_index_in_threadgroup", P_SCALAR, "__mc_i", 0, 0},
   {"thread_index_in_simdgroup", P_SCALAR, "__mc_i % 32u", 0, 0},
   {"simdgroup_index_in_threadgroup", P_SCALAR, "__mc_i / 32u", 0, 0},
   {"threads_per_simdgroup", P_SCALAR, "32u", 0, 0},
   {"thread_execution_width", P_SCALAR, "32u", 0, 0},
   {"simdgroups_per_threadgroup", P_SCALAR, "(__mc_L->nthreads + 31u) / 32u", 0, 0},
   {"thread_index_in_quadgroup", P_SCALAR, "__mc_i % 4u", 0, 0},
   {"quadgroup_index_in_threadgroup", P_SCALAR, "__mc_i / 4u", 0, 0},
   {"quadgroups_per_threadgroup", P_SCALAR, "(__mc_L->nthreads + 3u) / 4u", 0, 0},
};

typedef struct kparam {
   enum param_kind kind;
   const builtin_attr *bi;
   uint32_t index;          /* buffer / threadgroup index */
   char *type, *name;
   uint32_t line;
   bool is_ref;
} kparam;

typedef struct kdecl {
   char *name;
   uint32_t line, max_threads;
   kparam p[64];
   uint32_t np;
   strbuf tg_size;          /* C++ expression: static threadgroup bytes */
   bool resumable;          /* its barriers are resume points (emit_resume.c) */
   bool resumable_warps;    /* ...and its SIMD-groups stop at different points */
   bool lanes;              /* in lane form (emit_lanes.c): a threadgroup per call */
   /* The compiler's hints (prelude base.metal): no thread waits for
    * another (MC_THREADS_INDEPENDENT), so the loop over the threads is all
    * the entry needs; or threads wait for one another (MC_THREADS_WAIT), so
    * they run as fibers and no loop inlines the kernel.  Either way one
    * copy of the kernel is compiled instead of two.  param_read: the n
    * of MC_THREADS_INDEPENDENT(n), the bytes of parameters it reads;
    * stream_bits: MC_THREADS_STREAMING(bits)'s, 0 without it. */
   bool loop_only;
   bool fibers_only;
   uint32_t param_read;
   uint32_t stream_bits;
   /* MC_THREADS_X_RANGE(fn, row, per_row, param, launch): a loop-only
    * kernel's loop runs only the rows that row passes and in them the x
    * that fn says pass its opening test (msl/emit_xrange.c) */
   char *xr_fn, *xr_row, *xr_param, *xr_launch;
   bool xr_per_row;
} kdecl;

enum { COPY_MAX = 4096 };   /* a constant buffer larger than setBytes allows is not copied */

static bool parse_uint(const scanner *s, uint32_t k, uint32_t *out)
{
   if (k >= s->n || s->t[k].kind != T_NUMBER)
      return false;
   char buf[32];
   uint32_t n = MC_MIN(s->t[k].len, sizeof(buf) - 1);
   memcpy(buf, s->src + s->t[k].off, n);
   buf[n] = 0;
   char *end;
   unsigned long v = strtoul(buf, &end, 0);
   if (*end == 'u' || *end == 'U')
      end++;
   if (*end || v > 0xffffffffu)
      return false;
   *out = (uint32_t)v;
   return true;
}

/* The attribute group [[ a ]] at k..e (e = index of the last ']'):
 * classifies the parameter. */
static bool param_attr(scanner *s, uint32_t k, uint32_t e, kparam *p)
{
   uint32_t a = k + 2;
   if (!is_ident(s, a) || e < 3 || !is(s, e - 1, "]")) {
      fail_at(s, k, "malformed attribute");
      return false;
   }
   const char *name = s->src + s->t[a].off;
   uint32_t len = s->t[a].len;
   for (size_t i = 0; i < ARRAY_SIZE(builtins); i++) {
      if (strlen(builtins[i].name) == len && !memcmp(builtins[i].name, name, len)) {
         if (a + 1 != e - 1) {
            fail_at(s, a, "attribute '%.*s' takes no arguments", (int)len, name);
            return false;
         }
         p->kind = builtins[i].kind;
         p->bi = &builtins[i];
         return true;
      }
   }
   bool buf = len == 6 && !memcmp(name, "buffer", 6);
   bool tg = len == 11 && !memcmp(name, "threadgroup", 11);
   if (!buf && !tg) {
      fail_at(s, a, "unknown attribute '%.*s' on a kernel parameter", (int)len, name);
      return false;
   }
   uint32_t idx;
   if (!is(s, a + 1, "(") || !parse_uint(s, a + 2, &idx) || !is(s, a + 3, ")") || a + 4 != e - 1) {
      fail_at(s, a, "attribute '%.*s' needs one integer index, e.g. [[%.*s(0)]]", (int)len, name,
              (int)len, name);
      return false;
   }
   if (idx >= SOFT_MAX_BUFFERS) {
      fail_at(s, a + 2, "%s index %u is out of range: Metal has %d %s slots (0-%d)",
              buf ? "buffer" : "threadgroup", idx, SOFT_MAX_BUFFERS,
              buf ? "buffer" : "threadgroup memory", SOFT_MAX_BUFFERS - 1);
      return false;
   }
   p->kind = buf ? P_BUFFER : P_TG;
   p->index = idx;
   return true;
}

static bool type_has(const char *type, const char *word)
{
   size_t n = strlen(word);
   for (const char *p = strstr(type, word); p; p = strstr(p + 1, word)) {
      bool left = p == type || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
      bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
      if (left && right)
         return true;
   }
   return false;
}

/* One parameter: tokens a..b inclusive. */
static bool parse_param(scanner *s, uint32_t a, uint32_t b, kparam *p)
{
   int32_t attr = -1, attr_end = -1;
   for (uint32_t k = a; k <= b; k++) {
      if (attr_open(s, k)) {
         uint32_t e = match(s, k);
         if (e > b || attr >= 0) {
            fail_at(s, k, "malformed attribute on a kernel parameter");
            return false;
         }
         attr = (int32_t)k;
         attr_end = (int32_t)e;
         k = e;
      }
   }
   uint32_t last = attr >= 0 ? (uint32_t)attr - 1 : b;
   if (attr >= 0 && (uint32_t)attr_end != b) {
      fail_at(s, (uint32_t)attr_end, "unexpected tokens after a kernel parameter's attribute");
      return false;
   }
   if (attr < 0 || last < a + 1 || !is_ident(s, last)) {
      fail_at(s, a, "kernel parameter needs a type, a name and an attribute such as [[buffer(0)]]");
      return false;
   }
   if (!param_attr(s, (uint32_t)attr, (uint32_t)attr_end, p))
      return false;
   blank(s, (uint32_t)attr, (uint32_t)attr_end);
   p->type = tok_text(s, a, last - 1);
   p->name = tok_text(s, last, last);
   p->line = s->t[a].line;
   if (!p->type || !p->name) {
      s->oom = true;
      return false;
   }
   p->is_ref = is(s, last - 1, "&");
   bool ptr = is(s, last - 1, "*");
   if (p->kind == P_BUFFER &&
       (!(ptr || p->is_ref) || !(type_has(p->type, "device") || type_has(p->type, "constant")))) {
      fail_at(s, a, "buffer argument '%s' must be a pointer or reference in the device or "
              "constant address space", p->name);
      return false;
   }
   if (p->kind == P_TG && (!(ptr || p->is_ref) || !type_has(p->type, "threadgroup"))) {
      fail_at(s, a, "threadgroup argument '%s' must be a threadgroup pointer or reference", p->name);
      return false;
   }
   return true;
}

static bool parse_params(scanner *s, uint32_t open, uint32_t close, kdecl *kd)
{
   uint32_t start = open + 1;
   int depth = 0;
   for (uint32_t k = open + 1; k <= close; k++) {
      bool end = k == close;
      if (!end && s->t[k].kind == T_PUNCT) {
         char c = s->src[s->t[k].off];
         if (strchr("([{<", c))
            depth++;
         else if (strchr(")]}>", c))
            depth--;
         end = c == ',' && depth == 0;
      }
      if (!end)
         continue;
      if (k == start) {
         if (k == close && kd->np == 0)
            return true;               /* "()" */
         fail_at(s, k, "empty kernel parameter");
         return false;
      }
      if (kd->np == ARRAY_SIZE(kd->p)) {
         fail_at(s, start, "too many kernel parameters");
         return false;
      }
      if (!parse_param(s, start, k - 1, &kd->p[kd->np++]))
         return false;
      start = k + 1;
   }
   return true;
}

/* ---- attributes on the kernel itself ---- */

/* [[max_total_threads_per_threadgroup(N)]] or [[kernel]] at k..e. */
static bool kernel_attr(scanner *s, uint32_t k, uint32_t e, kdecl *kd, bool *is_kernel)
{
   uint32_t a = k + 2;
   if (is(s, a, "kernel") && a + 1 == e - 1) {
      *is_kernel = true;
      return true;
   }
   if (is(s, a, "max_total_threads_per_threadgroup")) {
      uint32_t v;
      if (!is(s, a + 1, "(") || !parse_uint(s, a + 2, &v) || !is(s, a + 3, ")") ||
          a + 4 != e - 1 || v == 0 || v > MTL_MAX_THREADS_PER_THREADGROUP) {
         fail_at(s, a, "max_total_threads_per_threadgroup needs an integer from 1 to %d",
                 MTL_MAX_THREADS_PER_THREADGROUP);
         return false;
      }
      kd->max_threads = v;
      blank(s, k, e);
      return true;
   }
   return true;     /* not ours: clang judges it */
}

/* ---- threadgroup variables in the kernel body ---- */

/* "threadgroup T a[..], b;" at k (';' at semi): rewritten to thread_local
 * storage plus a threadgroup reference per declarator. */
static void rewrite_tg_decl(scanner *s, uint32_t k, uint32_t semi, kdecl *kd)
{
   for (uint32_t i = k + 1; i < semi; i++) {
      if (is(s, i, "*") || is(s, i, "&") || is(s, i, "("))
         return;                              /* a pointer or a call: not a variable */
      if (is(s, i, "=") || is(s, i, "{")) {
         fail_at(s, i, "threadgroup variables cannot have initializers");
         return;
      }
   }
   strbuf out;
   strbuf_init(&out);
   char *type = NULL;
   uint32_t d = k + 1;
   while (d < semi) {
      /* declarator: NAME [dims]...; the first one is preceded by the type */
      uint32_t name = d, end = d;
      for (uint32_t i = d; i < semi && !is(s, i, ","); i++) {
         if (is(s, i, "[")) {
            i = match(s, i);
         } else if (is_ident(s, i)) {
            name = i;
         }
         end = i;
      }
      if (!type) {
         if (name <= k + 1) {
            fail_at(s, k, "threadgroup variable declaration without a type");
            break;
         }
         type = tok_text(s, k + 1, name - 1);
         if (!type)
            break;
      }
      char *id = tok_text(s, name, name);
      char *dims = end > name ? tok_text(s, name + 1, end) : mc_strdup("");
      if (id && dims) {
         strbuf_printf(&out, "static __MC_TLS %s __mc_tg_%s%s __attribute__((aligned(16))); "
                       "threadgroup auto &%s = *(threadgroup decltype(__mc_tg_%s) *)&__mc_tg_%s; ",
                       type, id, dims, id, id, id);
         strbuf_printf(&kd->tg_size, " + ((sizeof(%s%s) + 15) & ~(size_t)15)", type, dims);
      } else {
         s->oom = true;
      }
      free(id);
      free(dims);
      d = end + 2;       /* past the ',' */
   }
   free(type);
   char *text = strbuf_take(&out);
   if (!text)
      s->oom = true;
   else if (!s->err)
      add_edit(s, s->t[k].off, s->t[semi].off + 1 - s->t[k].off, text);
   free(text);
}

static void scan_body(scanner *s, uint32_t open, uint32_t close, kdecl *kd)
{
   for (uint32_t k = open + 1; k < close && !s->err && !s->oom; k++) {
      if (!is(s, k, "threadgroup"))
         continue;
      if (!(is(s, k - 1, "{") || is(s, k - 1, "}") || is(s, k - 1, ";")))
         continue;
      uint32_t semi = k;
      while (semi < close && !is(s, semi, ";"))
         semi++;
      if (semi < close)
         rewrite_tg_decl(s, k, semi, kd);
   }
}

/* ---- the generated entry ---- */

/* Length of type text t without a trailing "&" (and the spaces before it). */
static int len_without_ref(const char *t)
{
   size_t n = strlen(t);
   while (n && (t[n - 1] == '&' || t[n - 1] == ' '))
      n--;
   return (int)n;
}

static void gen_param(scanner *s, const kparam *p)
{
   strbuf *g = &s->gen;
   strbuf_printf(g, "#line %u \"program_source\"\n", p->line);
   const char *src = p->kind == P_BUFFER ? "buffers" : "tg";
   if (p->is_ref) {
      /* "constant P &p": bind through a pointer to the referenced type */
      strbuf_printf(g, "   %s %s = *(%.*s *)__mc_L->%s[%u];\n", p->type, p->name, len_without_ref(p->type),
                    p->type, src, p->index);
   } else {
      strbuf_printf(g, "   %s %s = (%s)__mc_L->%s[%u];\n", p->type, p->name, p->type, src,
                    p->index);
   }
}

static void gen_arg(strbuf *g, const kparam *p, bool first)
{
   if (!first)
      strbuf_puts(g, ", ");
   if (p->kind == P_BUFFER || p->kind == P_TG) {
      strbuf_puts(g, p->name);
      return;
   }
   const char *type = p->type;
   if (!strncmp(type, "const ", 6))
      type += 6;
   if (p->kind == P_POS3)
      strbuf_printf(g, "::__mc::builtin<%s>(%s, %s, %s)", type, p->bi->x, p->bi->y, p->bi->z);
   else
      strbuf_printf(g, "::__mc::builtin1<%s>(%s)", type, p->bi->x);
}

/* The buffer and threadgroup arguments and the launch shape. */
static void gen_bindings(scanner *s, const kdecl *kd)
{
   strbuf *g = &s->gen;
   for (uint32_t i = 0; i < kd->np; i++)
      if (kd->p[i].kind == P_BUFFER || kd->p[i].kind == P_TG)
         gen_param(s, &kd->p[i]);
   strbuf_printf(g, "#line %u \"program_source\"\n", kd->line);
   strbuf_puts(g, "   const uint *__mc_G = __mc_L->group, *__mc_T = __mc_L->tpg, *__mc_N = __mc_L->grid;\n"
               "   (void)__mc_G; (void)__mc_N;\n");
}

/* The call of the kernel for one thread (__mc_x/y/z, __mc_i in scope). */
static void gen_call(scanner *s, const kdecl *kd, const char *indent)
{
   strbuf *g = &s->gen;
   strbuf_printf(g, "#line %u \"program_source\"\n%s%s(", kd->line, indent, kd->name);
   for (uint32_t i = 0; i < kd->np; i++)
      gen_arg(g, &kd->p[i], i == 0);
   strbuf_puts(g, ");\n");
}

/* Fiber mode: one thread, by its index in the threadgroup. */
static void gen_thread_fn(scanner *s, const kdecl *kd)
{
   strbuf *g = &s->gen;
   strbuf_printf(g, "static __attribute__((noinline)) void __mc_thread_%s(const ::__mc::launch *__mc_L, uint __mc_i)\n{\n",
                 kd->name);
   gen_bindings(s, kd);
   strbuf_puts(g, "   uint __mc_x = __mc_i % __mc_T[0], __mc_y = __mc_i / __mc_T[0] % __mc_T[1];\n"
               "   uint __mc_z = __mc_i / __mc_T[0] / __mc_T[1];\n"
               "   (void)__mc_x; (void)__mc_y; (void)__mc_z;\n");
   gen_call(s, kd, "   ");
   strbuf_puts(g, "}\n");
}

/* Lane form (src/compiler/msl/emit_lanes.c), compiled with
 * __MC_SOFT_LANES: the kernel runs the whole threadgroup per call (lane 0
 * at the origin), its barriers the boundaries between its lane loops. */
static void gen_group_fn(scanner *s, const kdecl *kd)
{
   strbuf *g = &s->gen;
   strbuf_printf(g, "#ifdef __MC_SOFT_LANES\n"
                 "static __attribute__((noinline)) void __mc_group_%s(const ::__mc::launch *__mc_L)\n{\n",
                 kd->name);
   gen_bindings(s, kd);
   strbuf_puts(g, "   uint __mc_i = 0, __mc_x = 0, __mc_y = 0, __mc_z = 0;\n"
               "   (void)__mc_i; (void)__mc_x; (void)__mc_y; (void)__mc_z;\n");
   gen_call(s, kd, "   ");
   strbuf_puts(g, "}\n#endif\n");
}

static void gen_lanes_mode(scanner *s, const kdecl *kd)
{
   strbuf_printf(&s->gen, "#ifdef __MC_SOFT_LANES\n"
                 "   __mc_group_%s(__mc_L);\n"
                 "   return 1u;\n"
                 "#endif\n", kd->name);
}

/* ---- loop mode ---- */

static bool is_constant_buffer(const kparam *p)
{
   return p->kind == P_BUFFER && !strncmp(p->type, "constant", 8) && (p->type[8] == ' ' || p->type[8] == '\t');
}

/* The type a reference parameter refers to, without "constant" and "&". */
static void referenced_type(const kparam *p, const char **t, int *len)
{
   *t = p->type + (is_constant_buffer(p) ? 9 : 0);
   *len = len_without_ref(*t);
}

/* The loop over a row's threads, which the host compiler vectorises
 * across threads, interleaves two vectors.  Its own choice is four for a
 * small body (with 512-bit vectors 64 threads a step: a 32-thread row
 * never reaches the main loop) and one for a large one.  On a 2-core
 * Zen 4, alternated (bench/README.md, twenty-sixth session): SAXPY 5.43
 * ms with clang's choice against 4.80 with two (4.81 with one); 48
 * dependent fmaf a thread 4.8 with clang's choice and with one against
 * 4.0 with two, a second vector in flight hiding each chain's latency.
 * A kernel bound by memory (MC_THREADS_STREAMING(bits), msl/emit.c) is
 * vectorised 256 bits wide where the CPU has 512-bit vectors, which the
 * host compiler picks for a Zen 4: there such loops streamed faster in
 * 256-bit vectors (SAXPY 3.55 against 2.85 ms, the stencil 1.50 against
 * 1.43), and arithmetic-bound ones slower (the fmaf chain 2.0 against
 * 3.7 ms). */
static void gen_row_loop_pragma(strbuf *g, const kdecl *kd)
{
   if (kd->stream_bits)
      strbuf_printf(g, "#if defined(__AVX512F__)\n"
                    "   _Pragma(\"clang loop vectorize_width(%u) interleave_count(2)\")\n"
                    "#else\n", 256u / kd->stream_bits);
   strbuf_puts(g, "   _Pragma(\"clang loop interleave_count(2)\")\n");
   if (kd->stream_bits)
      strbuf_puts(g, "#endif\n");
}

/* A call of mc_xrange_NAME or mc_xrow_NAME (msl/emit_xrange.c). */
static void gen_x_range_call(strbuf *g, const kdecl *kd, const char *fn, const char *first, const char *tid)
{
   strbuf_printf(g, "%s(%s%s, %s, uint3(__mc_G[0], __mc_G[1], __mc_G[2]), uint3(__mc_T[0], __mc_T[1], __mc_T[2]), "
                 "%s)", fn, first, kd->xr_param, kd->xr_launch, tid);
}

/* The threads of a loop-only kernel that pass its opening test: the
 * rows that pass, in each at most four runs of x (computed once for the
 * threadgroup unless they differ by row), whose loop is not unrolled (a
 * second copy of the body would double the compile time for the rare row
 * of two). */
static void gen_x_range_loop(scanner *s, const kdecl *kd)
{
   strbuf *g = &s->gen;
   const char *row_tid = "uint3(0u, __mc_y, __mc_z)";
   if (!kd->xr_per_row) {
      strbuf_puts(g, "   {\n   ::mc_xrange __mc_r;\n   ");
      gen_x_range_call(g, kd, kd->xr_fn, "__mc_r, ", "uint3(0u)");
      strbuf_puts(g, ";\n");
   }
   strbuf_puts(g, "   for (uint __mc_z = 0; __mc_z < __mc_T[2]; __mc_z++)\n"
                  "   for (uint __mc_y = 0; __mc_y < __mc_T[1]; __mc_y++) {\n");
   if (kd->xr_per_row) {
      strbuf_puts(g, "   ::mc_xrange __mc_r;\n   ");
      gen_x_range_call(g, kd, kd->xr_fn, "__mc_r, ", row_tid);
      strbuf_puts(g, ";\n");
   }
   strbuf_puts(g, "   if (!");
   gen_x_range_call(g, kd, kd->xr_row, "", row_tid);
   strbuf_puts(g, ")\n      continue;\n"
                  "   _Pragma(\"clang loop unroll(disable)\")\n"
                  "   for (uint __mc_k = 0; __mc_k < __mc_r.n; __mc_k++)\n");
   gen_row_loop_pragma(g, kd);
   strbuf_puts(g, "   for (uint __mc_x = __mc_r.b[__mc_k]; __mc_x < __mc_r.e[__mc_k]; __mc_x++) {\n"
                  "      uint __mc_i = (__mc_z * __mc_T[1] + __mc_y) * __mc_T[0] + __mc_x;\n"
                  "      (void)__mc_i;\n");
   gen_call(s, kd, "      ");
   strbuf_puts(g, kd->xr_per_row ? "   }\n   }\n" : "   }\n   }\n   }\n");
}

/* The threads of the group one after another (in passes, barrier to
 * barrier, if resumable), `call` running thread __mc_i. */
static void gen_thread_loop(scanner *s, const kdecl *kd, bool inline_call)
{
   strbuf *g = &s->gen;
   if (inline_call && kd->xr_fn) {   /* loop-only: never resumable */
      gen_x_range_loop(s, kd);
      return;
   }
   /* a thread an earlier pass did not stop where this one runs skips it
    * (rs_enter), in a kernel whose SIMD-groups stop at different points */
   const char *enter = kd->resumable_warps ? "      if (!::__mc::rs_enter(__mc_i))\n         continue;\n"
                                           : "      ::__mc::rs.i = __mc_i;\n";
   if (kd->resumable_warps)
      strbuf_puts(g, "   ::__mc::rs_begin_warps(__mc_L);\n   do {\n");
   else if (kd->resumable)
      strbuf_puts(g, "   ::__mc::rs_begin();\n   do {\n");
   if (inline_call) {
      strbuf_puts(g, "   for (uint __mc_z = 0; __mc_z < __mc_T[2]; __mc_z++)\n"
                  "   for (uint __mc_y = 0; __mc_y < __mc_T[1]; __mc_y++)\n");
      gen_row_loop_pragma(g, kd);
      strbuf_puts(g, "   for (uint __mc_x = 0; __mc_x < __mc_T[0]; __mc_x++) {\n"
                  "      uint __mc_i = (__mc_z * __mc_T[1] + __mc_y) * __mc_T[0] + __mc_x;\n"
                  "      (void)__mc_i;\n");
      if (kd->resumable)
         strbuf_puts(g, enter);
      gen_call(s, kd, "      ");
   } else {
      strbuf_puts(g, "   for (uint __mc_i = 0; __mc_i < __mc_L->nthreads; __mc_i++) {\n");
      if (kd->resumable)
         strbuf_puts(g, enter);
      strbuf_printf(g, "      __mc_thread_%s(__mc_L, __mc_i);\n", kd->name);
   }
   strbuf_puts(g, "   }\n");
   if (kd->resumable)
      strbuf_printf(g, "   } while (::__mc::%s(__mc_L));\n   ::__mc::rs.on = false;\n",
                    kd->resumable_warps ? "rs_next_warps" : "rs_next");
}

/* Copies buffer i's first `size` bytes (a constant expression) into
 * __mc_cb<i>, or the whole buffer where it is shorter.  The constant
 * length lets the host compiler copy in a few moves; a run-time one
 * (min(length, size)) is a library call per threadgroup. */
static void gen_copy_prefix(strbuf *g, uint32_t i, const char *size)
{
   strbuf_printf(g, "   if (__mc_L->lengths[%u] >= %s)\n"
                 "      __builtin_memcpy(__mc_cb%u, __mc_L->buffers[%u], %s);\n"
                 "   else\n"
                 "      __builtin_memcpy(__mc_cb%u, __mc_L->buffers[%u], __mc_L->lengths[%u]);\n",
                 i, size, i, i, size, i, i, i);
}

/* Loop mode.  The kernel is inlined into a loop over the threads, and the
 * host compiler may vectorise across threads where the code allows.  For
 * that, everything the threads only read must be visibly unchanged by
 * their stores: the `constant` buffers (the kernel's parameters, the
 * launch block; Metal's constant memory does not change during a
 * dispatch) are copied into this frame (64-byte aligned, as a buffer
 * is: the types read from it may need 32), and the launch shape into
 * locals.  A constant buffer too large to copy takes the plain path: one
 * call per thread. */
static void gen_loop_mode(scanner *s, const kdecl *kd)
{
   strbuf *g = &s->gen;
   bool big_check = false;
   for (uint32_t i = 0; i < kd->np; i++) {
      const kparam *p = &kd->p[i];
      if (!is_constant_buffer(p) || (kd->loop_only && !p->is_ref))
         continue;
      if (kd->loop_only) {
         const char *t;
         int n;
         referenced_type(p, &t, &n);
         strbuf_printf(g, "   static_assert(sizeof(%.*s) <= %u, \"kernel '%s': buffer %u is too large to copy\");\n",
                       n, t, COPY_MAX, kd->name, p->index);
         continue;
      }
      if (p->is_ref) {
         const char *t;
         int n;
         referenced_type(p, &t, &n);
         strbuf_printf(g, "%ssizeof(%.*s) > %u", big_check ? " || " : "   if (", n, t, COPY_MAX);
      } else {
         strbuf_printf(g, "%s__mc_L->lengths[%u] > %u", big_check ? " || " : "   if (", p->index, COPY_MAX);
      }
      big_check = true;
   }
   if (big_check) {
      strbuf_puts(g, ") {\n");
      gen_thread_loop(s, kd, false);
      strbuf_puts(g, "   return 1u;\n   }\n");
   }
   for (uint32_t i = 0; i < kd->np; i++) {
      const kparam *p = &kd->p[i];
      if (p->kind != P_BUFFER && p->kind != P_TG)
         continue;
      if (!is_constant_buffer(p)) {
         gen_param(s, p);
         continue;
      }
      strbuf_printf(g, "#line %u \"program_source\"\n", p->line);
      if (p->is_ref) {
         const char *t;
         int n;
         referenced_type(p, &t, &n);
         char size[32];
         snprintf(size, sizeof(size), "sizeof(__mc_cb%u)", p->index);
         strbuf_printf(g, "   alignas(64) uchar __mc_cb%u[sizeof(%.*s)];\n", p->index, n, t);
         gen_copy_prefix(g, p->index, size);
         strbuf_printf(g, "   %s %s = *(constant %.*s *)__mc_cb%u;\n", p->type, p->name, n, t, p->index);
      } else if (kd->loop_only) {
         /* it reads at most param_read <= COPY_MAX bytes of the buffer (its hint) */
         char size[16];
         snprintf(size, sizeof(size), "%u", kd->param_read);
         strbuf_printf(g, "   alignas(64) uchar __mc_cb%u[%u];\n", p->index, COPY_MAX);
         gen_copy_prefix(g, p->index, size);
         strbuf_printf(g, "   %s %s = (%s)__mc_cb%u;\n", p->type, p->name, p->type, p->index);
      } else {
         strbuf_printf(g, "   alignas(64) uchar __mc_cb%u[%u];\n"
                       "   __builtin_memcpy(__mc_cb%u, __mc_L->buffers[%u], __mc_L->lengths[%u]);\n"
                       "   %s %s = (%s)__mc_cb%u;\n",
                       p->index, COPY_MAX, p->index, p->index, p->index, p->type, p->name, p->type, p->index);
      }
   }
   /* the copies above serve the __mc_n threadgroups (their buffers do
    * not change within a dispatch) */
   strbuf_printf(g, "#line %u \"program_source\"\n", kd->line);
   strbuf_puts(g, "   const uint __mc_T[3] = {__mc_L->tpg[0], __mc_L->tpg[1], __mc_L->tpg[2]};\n"
               "   const uint __mc_N[3] = {__mc_L->grid[0], __mc_L->grid[1], __mc_L->grid[2]};\n"
               "   (void)__mc_N;\n"
               "   for (uint __mc_g = 1u;; __mc_g++) {\n"
               "   const uint __mc_G[3] = {__mc_L->group[0], __mc_L->group[1], __mc_L->group[2]};\n"
               "   (void)__mc_G;\n");
   gen_thread_loop(s, kd, true);
   strbuf_puts(g, "   if (__mc_g >= __mc_n)\n"
               "      return __mc_n;\n"
               "   ::__mc::next_group(__mc_L);\n"
               "   }\n");
}

static void gen_entry(scanner *s, kdecl *kd)
{
   strbuf *g = &s->gen;
   uint32_t bufmask = 0, tgmask = 0;
   for (uint32_t i = 0; i < kd->np; i++) {
      const kparam *p = &kd->p[i];
      uint32_t *m = p->kind == P_BUFFER ? &bufmask : p->kind == P_TG ? &tgmask : NULL;
      if (m && (*m & (1u << p->index))) {
         /* Metal rejects two arguments bound to one slot. */
         for (uint32_t k = 0; k < s->n; k++)
            if (s->t[k].line == p->line) {
               fail_at(s, k, "kernel '%s': %s index %u is used twice", kd->name,
                       p->kind == P_BUFFER ? "buffer" : "threadgroup", p->index);
               break;
            }
         return;
      }
      if (m)
         *m |= 1u << p->index;
   }
   const char *tgs = kd->tg_size.s ? kd->tg_size.s : "";
   strbuf_printf(g, "#line %u \"program_source\"\n", kd->line);
   strbuf_printf(g, "static_assert((0%s) <= %d, \"kernel '%s': threadgroup memory exceeds "
                 "Metal's 32 KB limit\");\n", tgs, MTL_MAX_THREADGROUP_MEMORY, kd->name);
   strbuf_printf(g, "extern \"C\" __attribute__((visibility(\"default\"))) const ::__mc::kernel_info "
                 "__mc_info_%s = {%d, %u, (uint)(0%s), %#xu, %#xu, __MC_KERNEL_FLAGS%s%s};\n", kd->name,
                 SOFT_ABI_VERSION, kd->max_threads ? kd->max_threads : MTL_MAX_THREADS_PER_THREADGROUP,
                 tgs, bufmask, tgmask,
                 kd->resumable_warps ? " | ::__mc::KERNEL_RESUMABLE | ::__mc::KERNEL_RESUMABLE_WARPS"
                 : kd->resumable     ? " | ::__mc::KERNEL_RESUMABLE"
                                     : "",
                 kd->loop_only ? " | __MC_KERNEL_LOOP_ONLY" : "");
   /* validation runs every kernel as fibers */
   if (kd->loop_only)
      strbuf_puts(g, "#ifdef __MC_SOFT_VALIDATE\n");
   gen_thread_fn(s, kd);
   if (kd->loop_only)
      strbuf_puts(g, "#endif\n");
   if (kd->lanes)
      gen_group_fn(s, kd);
   /* One threadgroup.  flatten: the kernel is inlined into the loop over
    * the threads even when it is large (vectorising across threads needs
    * it there); the thread function keeps its own copy, not inlined again
    * here. */
   strbuf_printf(g, "static inline __attribute__((always_inline, flatten)) uint "
                 "__mc_run_%s(::__mc::launch *__mc_L, uint __mc_n)\n{\n"
                 "   ::__mc::cur = __mc_L;\n", kd->name);
   /* every entry: the shim's simd_shuffle and __mc_warp_members read it
    * (a resumable kernel that failed mid-pass leaves it set) */
   strbuf_puts(g, "   ::__mc::rs.on = false;\n");
   if (kd->lanes)
      gen_lanes_mode(s, kd);
   if (kd->loop_only)
      strbuf_puts(g, "#ifdef __MC_SOFT_VALIDATE\n");
   strbuf_printf(g, "   if (__mc_L->fibers) {\n"
                 "      __mc_L->fibers(__mc_L, __mc_thread_%s);\n"
                 "      return 1u;\n"
                 "   }\n", kd->name);
   if (kd->loop_only)
      strbuf_puts(g, "#endif\n");
   if (kd->fibers_only) {
      gen_thread_loop(s, kd, false);   /* a launch of one thread, or a kernel that never waits after all */
      strbuf_puts(g, "   return 1u;\n");
   } else {
      gen_loop_mode(s, kd);
   }
   strbuf_puts(g, "}\n");
   /* The entry runs __mc_L->ngroups threadgroups per call: a small
    * kernel's threadgroup costs a few nanoseconds, which the call, the
    * frame, the thread-local set-up and the constant copies per
    * threadgroup (with exec.c's per-threadgroup set-up) had about
    * quadrupled.  __mc_run_NAME runs __mc_n of them
    * (loop mode) or one, and says how many. */
   strbuf_printf(g, "extern \"C\" __attribute__((visibility(\"default\"))) void "
                 "__mc_entry_%s(::__mc::launch *__mc_L)\n{\n"
                 "   for (uint __mc_n = __mc_L->ngroups ? __mc_L->ngroups : 1u;;) {\n"
                 "      uint __mc_k = __mc_run_%s(__mc_L, __mc_n);\n"
                 "      if (__mc_k >= __mc_n)\n"
                 "         return;\n"
                 "      __mc_n -= __mc_k;\n"
                 "      ::__mc::next_group(__mc_L);\n"
                 "   }\n"
                 "}\n", kd->name, kd->name);
}

/* ---- kernels ---- */

static void free_kdecl(kdecl *kd)
{
   for (uint32_t i = 0; i < kd->np; i++) {
      free(kd->p[i].type);
      free(kd->p[i].name);
   }
   free(kd->name);
   free(kd->xr_fn);
   free(kd->xr_row);
   free(kd->xr_param);
   free(kd->xr_launch);
   strbuf_free(&kd->tg_size);
}

/* A kernel that fences at device scope hands data to other threadgroups
 * through device memory, which an Apple GPU keeps coherent between
 * threadgroups only where it is declared coherent(device) (MSL 3.2;
 * volatile does not do it): the CPU shows no difference, so the rule is
 * checked here (issue 15, finding 7).  In such a kernel (its parameters
 * and body, from the token at `from` to `to`) every `device` must be
 * `coherent(device) device`, or name an atomic type (atomics are
 * coherent).  metalcuda's translated kernels say MC_CDEV (the prelude's
 * coherent(device) device), which this sees as a different token. */
static void check_coherence(scanner *s, uint32_t from, uint32_t to, const char *kernel)
{
   bool fences = false;
   for (uint32_t t = from; t < to && !fences; t++)
      if (is(s, t, "atomic_thread_fence") && is(s, t + 1, "(")) {
         uint32_t e = match(s, t + 1);
         for (uint32_t a = t + 2; a < e && a < to; a++)
            fences |= is(s, a, "thread_scope_device");
      }
   for (uint32_t t = from; fences && t < to && !s->err; t++) {
      if (!is(s, t, "device"))
         continue;
      bool inside = t >= 2 && is(s, t - 2, "coherent") && is(s, t - 1, "(");   /* coherent(device) */
      bool qualified = t >= 4 && is(s, t - 4, "coherent") && is(s, t - 3, "(") && is(s, t - 1, ")");
      bool atomic = t + 1 < s->n && s->t[t + 1].kind == T_IDENT && s->t[t + 1].len >= 6 &&
                    !strncmp(s->src + s->t[t + 1].off, "atomic", 6);
      if (!inside && !qualified && !atomic)
         fail_at(s, t, "kernel '%s' fences at device scope (atomic_thread_fence ... thread_scope_device), so "
                       "other threadgroups read what it writes: its device memory must be declared "
                       "coherent(device) (MSL 3.2; an Apple GPU keeps plain device memory coherent only within a "
                       "threadgroup)", kernel);
   }
}

/* MC_THREADS_X_RANGE(fn, row, per_row, param, launch) in a loop-only
 * kernel's body (from..to): its loop runs fn's runs, where the opening
 * test, written MC_XTEST, passes (the shim's __MC_XTEST_RANGED). */
static void x_range_hint(scanner *s, uint32_t from, uint32_t to, kdecl *kd)
{
   uint32_t t = from, per_row;
   while (t < to && !is(s, t, "MC_THREADS_X_RANGE"))
      t++;
   if (t >= to || !is(s, t + 1, "(") || !is_ident(s, t + 2) || !is(s, t + 3, ",") || !is_ident(s, t + 4) ||
       !is(s, t + 5, ",") || !parse_uint(s, t + 6, &per_row) || !is(s, t + 7, ",") || !is_ident(s, t + 8) ||
       !is(s, t + 9, ",") || !is_ident(s, t + 10) || !is(s, t + 11, ")"))
      return;
   kd->xr_fn = tok_text(s, t + 2, t + 2);
   kd->xr_row = tok_text(s, t + 4, t + 4);
   kd->xr_per_row = per_row != 0;
   kd->xr_param = tok_text(s, t + 8, t + 8);
   kd->xr_launch = tok_text(s, t + 10, t + 10);
   if (!kd->xr_fn || !kd->xr_row || !kd->xr_param || !kd->xr_launch) {
      s->oom = true;
      return;
   }
   for (t = from; t < to; t++)
      if (is(s, t, "MC_XTEST") && is(s, t + 1, "("))
         add_edit(s, s->t[t].off, s->t[t].len, "__MC_XTEST_RANGED");
}

/* A kernel whose "void" is at v; attribute groups before it (from first
 * on) may hold max_total_threads_per_threadgroup.  Returns the index to
 * continue scanning from. */
static uint32_t do_kernel(scanner *s, uint32_t first, uint32_t v, uint32_t *count)
{
   kdecl *kd = mc_calloc(1, sizeof(*kd));
   if (!kd) {
      s->oom = true;
      return s->n;
   }
   uint32_t next = v + 1;
   bool dummy;
   for (uint32_t k = first; k < v && !s->err; k++)
      if (attr_open(s, k)) {
         uint32_t e = match(s, k);
         kernel_attr(s, k, e, kd, &dummy);
         k = e;
      }
   if (!is(s, v, "void")) {
      fail_at(s, v, "a kernel function must return void");
      goto out;
   }
   if (!is_ident(s, v + 1) || !is(s, v + 2, "(")) {
      fail_at(s, v, "expected a kernel function name and its parameters");
      goto out;
   }
   uint32_t close = match(s, v + 2);
   if (close >= s->n) {
      fail_at(s, v + 2, "unbalanced parentheses in a kernel declaration");
      goto out;
   }
   kd->line = s->t[v + 1].line;
   kd->name = tok_text(s, v + 1, v + 1);
   if (!kd->name || !parse_params(s, v + 2, close, kd))
      goto out;
   uint32_t k = close + 1;
   while (attr_open(s, k) && !s->err) {      /* attributes after the parameter list */
      uint32_t e = match(s, k);
      kernel_attr(s, k, e, kd, &dummy);
      k = e + 1;
   }
   next = k;
   if (!is(s, k, "{"))
      goto out;                                /* a declaration: the definition comes later */
   uint32_t body_end = match(s, k);
   scan_body(s, k, body_end, kd);
   check_coherence(s, v + 2, body_end, kd->name);
   for (uint32_t t = k; t < body_end && !kd->resumable; t++)
      kd->resumable = is(s, t, "__mc_rs_on");
   for (uint32_t t = k; t < body_end && kd->resumable && !kd->resumable_warps; t++)
      kd->resumable_warps = is(s, t, "__mc_rs_tpc");
   for (uint32_t t = k; t < body_end && !kd->lanes; t++)
      kd->lanes = is(s, t, "MC_LANES_BEGIN");
   for (uint32_t t = k; t < body_end && !kd->resumable && !kd->lanes; t++) {
      uint32_t n;
      if (is(s, t, "MC_THREADS_INDEPENDENT") && is(s, t + 1, "(") && parse_uint(s, t + 2, &n) && is(s, t + 3, ")"))
         kd->loop_only = n <= COPY_MAX, kd->param_read = n;
      else if (is(s, t, "MC_THREADS_WAIT"))
         kd->fibers_only = true;
      else if (is(s, t, "MC_THREADS_STREAMING") && is(s, t + 1, "(") && parse_uint(s, t + 2, &n) &&
               is(s, t + 3, ")") && (n == 8 || n == 16 || n == 32 || n == 64))
         kd->stream_bits = n;
   }
   if (kd->loop_only)
      x_range_hint(s, k, body_end, kd);
   if (!s->err && !s->oom && !kd->tg_size.failed) {
      gen_entry(s, kd);
      (*count)++;
   }
   if (kd->tg_size.failed)
      s->oom = true;
   next = body_end;
out:
   free_kdecl(kd);
   free(kd);
   return next;
}

static void scan_kernels(scanner *s, uint32_t *count)
{
   uint32_t attrs_from = 0;      /* start of the attribute groups just before k */
   bool in_attrs = false;
   for (uint32_t k = 0; k < s->n && !s->err && !s->oom; k++) {
      if (attr_open(s, k)) {
         uint32_t e = match(s, k);
         if (!in_attrs)
            attrs_from = k;
         in_attrs = true;
         if (is(s, k + 2, "kernel") && k + 3 == e - 1) {      /* [[kernel]] */
            add_edit(s, s->t[k].off, s->t[e].off + 1 - s->t[k].off, "kernel");
            uint32_t v = e + 1;
            while (attr_open(s, v))
               v = match(s, v) + 1;
            k = do_kernel(s, attrs_from, v, count);
            in_attrs = false;
            continue;
         }
         k = e;
         continue;
      }
      if (is(s, k, "kernel") && !(k > 0 && (is(s, k - 1, ".") || is(s, k - 1, ">")))) {
         uint32_t v = k + 1;
         while (attr_open(s, v))
            v = match(s, v) + 1;
         k = do_kernel(s, in_attrs ? attrs_from : k, v, count);
         in_attrs = false;
         continue;
      }
      in_attrs = false;
   }
}

/* ---- source rewrites outside kernels ---- */

static bool is_vector_type(const char *p, uint32_t len)
{
   static const char *const bases[] = {"bool", "char", "uchar", "short", "ushort", "int", "uint",
                                       "long", "ulong", "half", "float", "bfloat"};
   if (len < 2 || p[len - 1] < '2' || p[len - 1] > '4')
      return false;
   for (size_t i = 0; i < ARRAY_SIZE(bases); i++)
      if (strlen(bases[i]) == len - 1 && !memcmp(bases[i], p, len - 1))
         return true;
   return false;
}

/* 0.5h -> __MC_HLIT(0.5): 0.5f16 where half is _Float16, a folded
 * conversion where it is __fp16 (clang < 15), which has no literal. */
static void rewrite_half_literal(scanner *s, const tok *t)
{
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "__MC_HLIT(%.*s)", (int)(t->len - 1), s->src + t->off);
   char *text = strbuf_take(&b);
   if (!text) {
      s->oom = true;
      return;
   }
   add_edit(s, t->off, t->len, text);
   free(text);
}

static void rewrite_spellings(scanner *s)
{
   for (uint32_t k = 0; k < s->n && !s->oom; k++) {
      const tok *t = &s->t[k];
      const char *p = s->src + t->off;
      if (t->kind == T_NUMBER && (p[t->len - 1] == 'h' || p[t->len - 1] == 'H')) {
         bool hex = t->len > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
         bool flt = memchr(p, '.', t->len) || memchr(p, hex ? 'p' : 'e', t->len) ||
                    memchr(p, hex ? 'P' : 'E', t->len);
         if (flt)            /* 0.5h: MSL's half literal; the shim spells it */
            rewrite_half_literal(s, t);
      } else if (is(s, k, "static_cast") && is(s, k + 1, "<") && is_ident(s, k + 2) &&
                 is(s, k + 3, ">") && is_vector_type(s->src + s->t[k + 2].off, s->t[k + 2].len)) {
         char name[16];
         snprintf(name, sizeof(name), "%.*s", (int)s->t[k + 2].len, s->src + s->t[k + 2].off);
         add_edit(s, t->off, s->t[k + 3].off + 1 - t->off, name);
         k += 3;
      }
   }
}

static int cmp_edit(const void *a, const void *b)
{
   const edit *x = a, *y = b;
   return x->off < y->off ? -1 : x->off > y->off;
}

/* The rewritten source: with a scanned prelude, src before it (comments)
 * and its scanned text, then the rest of src with the edits applied. */
static char *apply_edits(scanner *s, const prelude_use *pre)
{
   if (s->ned)
      qsort(s->ed, s->ned, sizeof(*s->ed), cmp_edit);
   strbuf b;
   strbuf_init(&b);
   uint32_t pos = 0;
   if (pre) {
      strbuf_putn(&b, s->src, pre->at);
      strbuf_puts(&b, pre->m->scanned);
      pos = pre->at + (uint32_t)pre->m->len;
   }
   for (uint32_t i = 0; i < s->ned; i++) {
      const edit *e = &s->ed[i];
      if (e->off < pos)
         continue;                 /* overlapping edit: the first one wins */
      strbuf_putn(&b, s->src + pos, e->off - pos);
      if (e->text) {
         strbuf_puts(&b, e->text);
      } else {
         for (uint32_t j = 0; j < e->len; j++)
            strbuf_putc(&b, s->src[e->off + j] == '\n' ? '\n' : ' ');
      }
      pos = e->off + e->len;
   }
   strbuf_puts(&b, s->src + pos);
   return strbuf_take(&b);
}

bool soft_find_prelude(const char *src, const char **start, const char **end)
{
   const char *p = src;
   while (*p == '\n' || !strncmp(p, "//", 2)) {        /* leading comments */
      const char *nl = strchr(p, '\n');
      if (!nl)
         return false;
      p = nl + 1;
   }
   if (strncmp(p, "#include <metal_stdlib>\n", 24))
      return false;
   const char *m = strstr(p, "\n" PRELUDE_END);
   if (!m)
      return false;
   *start = p;
   *end = m + 1 + strlen(PRELUDE_END);
   return true;
}

/* ---- the prelude, scanned once ----
 *
 * Up to PRELUDE_MEMOS distinct texts (the compiler writes one prelude per
 * build; a few in a process at most), each kept with its scanned form and
 * line count until the process ends: published entries never change, so
 * a scan reads one after the lock is released. */
enum { PRELUDE_MEMOS = 4 };

static bool scan_source(const char *src, const prelude_use *pre, soft_scan *out, char **err);

static struct {
   pthread_mutex_t lock;
   prelude_memo m[PRELUDE_MEMOS];
   uint32_t n;
} memos = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const prelude_memo *find_memo(const char *text, size_t len)
{
   for (uint32_t i = 0; i < memos.n; i++)
      if (memos.m[i].len == len && !memcmp(memos.m[i].text, text, len))
         return &memos.m[i];
   return NULL;
}

/* ---- the prelude's scan, kept on disk ----
 *
 * Scanning the 280 KB prelude (2.8 ms) and hashing its scanned form for
 * the key (1.2 ms) took 4 ms of every process's first library, a cache
 * hit included: tests/cuda/params ran in 17 ms against 10 at issue 19's
 * filing, whose prelude was 60 KB.  So the memo is also kept in the
 * cache, <cache>/soft/prelude-<scanner>-<length>-<sum>.scan:
 *
 *   "metalcuda-prelude-scan-1 <scanner> <length> <scanned length> <lines>\n"
 *   the scanned form's SHA-256 (32 bytes)
 *   the text, NUL, the scanned form, NUL
 *   hash_sum256 of everything before (32 bytes)
 *
 * A process takes its memo from the file only where the text is the same
 * byte for byte and the sum holds (a damaged file is a miss, as in the
 * translation cache); the sum in the name only finds the file.  The
 * scanner's identity (MC_SOFT_SCAN_ID, a hash of this file and the
 * sources its output depends on, from the Makefile) is in the name and
 * the header, so a changed scanner never takes an older one's scan.
 * Reading and checking the file takes about 0.5 ms.  A fresh cache reads
 * the prepared directory's copy (prepared.c). */

#define MEMO_MAGIC "metalcuda-prelude-scan-1"

bool soft_scan_memo_path(const char *text, size_t len, char *path, size_t cap)
{
   uint8_t sum[32];
   hash_sum256(text, len, sum);
   uint64_t h = 0;               /* all four lanes: one word of the sum holds only two */
   for (int i = 0; i < 32; i++)
      h ^= (uint64_t)sum[i] << (8 * (i & 7));
   return (size_t)snprintf(path, cap, "%s/prelude-%.16s-%zu-%016llx.scan", soft_cache_base(), MC_SOFT_SCAN_ID,
                           len, (unsigned long long)h) < cap;
}

/* *m from the file at path, if it holds text's scan (see above). */
static bool memo_load(const char *path, const char *text, size_t len, prelude_memo *m)
{
   size_t n;
   const char *buf = file_map(path, &n);   /* no copy: 280 KB of it is only compared */
   if (!buf)
      return false;
   const char *nl = memchr(buf, '\n', n < 256 ? n : 256);
   char head[256], id[64];
   size_t tlen = 0, slen = 0;
   unsigned lines = 0;
   size_t at = nl ? (size_t)(nl - buf) + 1 : 0;        /* the digest's offset */
   if (nl) {
      memcpy(head, buf, at - 1);
      head[at - 1] = 0;
   }
   bool ok = nl && sscanf(head, MEMO_MAGIC " %63s %zu %zu %u", id, &tlen, &slen, &lines) == 4 &&
             !strcmp(id, MC_SOFT_SCAN_ID) && tlen == len && slen < n && n == at + 32 + len + 1 + slen + 1 + 32;
   if (ok) {
      uint8_t sum[32];
      hash_sum256(buf, n - 32, sum);
      const char *t = buf + at + 32, *sc = t + len + 1;
      ok = !memcmp(sum, buf + n - 32, 32) && !memcmp(t, text, len) && !t[len] && memchr(sc, 0, slen + 1) == sc + slen;
   }
   if (!ok) {
      file_unmap(buf, n);
      return false;
   }
   *m = (prelude_memo){.text = (char *)buf + at + 32, .len = len, .scanned = (char *)buf + at + 32 + len + 1,
                       .lines = lines, .file = buf, .file_len = n};
   memcpy(m->digest, buf + at, 32);
   return true;
}

/* m into the file at path for later processes; a failure only loses that. */
static void memo_store(const char *path, const prelude_memo *m)
{
   strbuf b;
   strbuf_init(&b);
   size_t slen = strlen(m->scanned);
   strbuf_printf(&b, MEMO_MAGIC " %s %zu %zu %u\n", MC_SOFT_SCAN_ID, m->len, slen, (unsigned)m->lines);
   strbuf_putn(&b, (const char *)m->digest, 32);
   strbuf_putn(&b, m->text, m->len + 1);
   strbuf_putn(&b, m->scanned, slen + 1);
   if (b.s && !b.failed) {
      uint8_t sum[32];
      hash_sum256(b.s, b.len, sum);
      strbuf_putn(&b, (const char *)sum, 32);
   }
   if (b.s && !b.failed)
      file_write_atomic(path, b.s, b.len);
   strbuf_free(&b);
}

/* The memo of a prelude text, made on first sight (from its file, else by
 * scanning it); NULL if it holds a kernel (then it is scanned with the
 * rest), on any failure, or when the table is full. */
static const prelude_memo *memo_of(const char *text, size_t len)
{
   pthread_mutex_lock(&memos.lock);
   const prelude_memo *m = find_memo(text, len);
   if (m || memos.n == PRELUDE_MEMOS) {
      pthread_mutex_unlock(&memos.lock);
      return m;
   }
   char path[4400];
   bool named = soft_scan_memo_path(text, len, path, sizeof(path));
   char prepared[4400];
   prelude_memo nm;
   if (named && (memo_load(path, text, len, &nm) ||
                 (soft_prepared_path(strrchr(path, '/') + 1, prepared, sizeof(prepared)) &&
                  memo_load(prepared, text, len, &nm)))) {
      memos.m[memos.n] = nm;
      m = &memos.m[memos.n++];
      pthread_mutex_unlock(&memos.lock);
      return m;
   }
   nm = (prelude_memo){.text = mc_malloc(len + 1), .len = len};
   soft_scan sc;
   if (nm.text) {
      memcpy(nm.text, text, len);
      nm.text[len] = '\0';
   }
   if (nm.text && scan_source(nm.text, NULL, &sc, NULL)) {
      if (sc.nkernels == 0) {
         nm.scanned = sc.source;
         sc.source = NULL;
      }
      soft_scan_free(&sc);
   }
   if (nm.scanned) {
      for (size_t i = 0; i < len; i++)
         nm.lines += text[i] == '\n';
      sha256_digest(nm.scanned, strlen(nm.scanned), nm.digest);
      if (named)
         memo_store(path, &nm);
      memos.m[memos.n] = nm;
      m = &memos.m[memos.n++];
   } else {
      free(nm.text);
   }
   pthread_mutex_unlock(&memos.lock);
   return m;
}

void soft_scan_forget_preludes(void)
{
   pthread_mutex_lock(&memos.lock);
   for (uint32_t i = 0; i < memos.n; i++) {
      prelude_memo *m = &memos.m[i];
      if (m->file) {
         file_unmap(m->file, m->file_len);
      } else {
         free(m->text);
         free(m->scanned);
      }
   }
   memos.n = 0;
   pthread_mutex_unlock(&memos.lock);
}

bool soft_scan_msl(const char *src, soft_scan *out, char **err)
{
   const char *start, *end;
   prelude_use pre = {NULL, 0};
   if (soft_find_prelude(src, &start, &end) && (pre.m = memo_of(start, (size_t)(end - start))))
      pre.at = (uint32_t)(start - src);
   return scan_source(src, pre.m ? &pre : NULL, out, err);
}

/* src scanned after pre (its prelude, already scanned; NULL: none). */
static bool scan_source(const char *src, const prelude_use *pre, soft_scan *out, char **err)
{
   memset(out, 0, sizeof(*out));
   scanner s = {.src = src};
   strbuf_init(&s.gen);
   uint32_t count = 0, from = 0, line = 1;
   if (pre) {
      from = pre->at + (uint32_t)pre->m->len;
      for (uint32_t i = 0; i < pre->at; i++)
         line += src[i] == '\n';
      line += pre->m->lines;
   }
   if (tokenize(&s, from, line)) {
      rewrite_spellings(&s);
      scan_kernels(&s, &count);
   }
   bool ok = false;
   if (!s.oom && !s.err) {
      out->source = apply_edits(&s, pre);
      out->entries = strbuf_take(&s.gen);
      out->nkernels = count;
      if (pre) {
         out->prelude_digest = pre->m->digest;
         out->prelude_len = strlen(pre->m->scanned);
      }
      ok = out->source && out->entries;
      if (!ok)
         s.oom = true;
   }
   if (!ok) {
      soft_scan_free(out);
      if (err) {
         *err = s.err ? s.err : NULL;
         s.err = NULL;
         if (!*err)
            *err = mc_strdup("out of memory while scanning the MSL source");
      }
   }
   free(s.err);
   strbuf_free(&s.gen);
   for (uint32_t i = 0; i < s.ned; i++)
      free(s.ed[i].text);
   free(s.ed);
   free(s.t);
   return ok;
}

void soft_scan_free(soft_scan *s)
{
   free(s->source);
   free(s->entries);
   memset(s, 0, sizeof(*s));
}
