/*
 * source_fix.c — what nvcc accepts and clang refuses, rewritten in a copy
 * of the source: __shared__ variables of class type, and kernel launches in
 * device code (dynamic parallelism).
 *
 * nvcc accepts `__shared__ T x;` (or an array of T) when T has a constructor
 * or destructor with a body, or default member initializers, and runs
 * none of them: shared memory is storage the program initializes itself
 * (CCCL 3's cuda::barrier, whose destructor has a body; structs with
 * default member initializers in __shared__ tiles).  clang allows only
 * empty constructors and destructors there and reports "initialization is
 * not supported for __shared__ variables" (CUDA C++ Programming Guide,
 * "Device Memory Space Specifiers"; clang's SemaCUDA.cpp).  There is no
 * clang flag for nvcc's rule.
 *
 * nvcc compiles `kernel<<<grid, block, shared, stream>>>(args)` in device
 * code (with -rdc=true) into calls of the device runtime; clang has no
 * dynamic parallelism and reports "reference to __global__ function 'K'
 * in __global__ function" (or __device__, __host__ __device__).
 *
 * So when the device compile of a source fails with either error, the
 * driver (nvcc.c) gives the diagnostics to tc_source_fix, which rewrites
 * each such declaration or launch, in a copy of the file that holds it
 * (the source or a header it includes), if it is written out there:
 *
 *     __shared__ T name[D];
 * ->  __shared__ __mc_shared_storage<T[D]> __mc_raw_name; constexpr auto &name = __mc_raw_name.v;
 *
 *     kernel<<<config>>>(args)
 * ->  __mc_cdp_launch<kernel>(config)(args)
 *
 * (include/crt/mc_shared_storage.h: a union whose empty constructor and
 * destructor construct and destroy nothing; the constexpr reference is not
 * odr-used, so lambdas refer to the variable, not a copy.
 * include/crt/mc_device_runtime.h: the launch through CUDA 12's device
 * runtime, as nvcc's code does it.)  Clang then compiles the copy in place
 * of the file (-remap-file FILE;COPY), both sides: the file keeps its path
 * for diagnostics, __FILE__, quoted includes and -MD's dependencies, and
 * every rewrite keeps its newlines, so every line keeps its number.
 *
 * The file is tokenized (comments, strings, raw strings, character
 * literals, numbers with digit separators, preprocessor lines), not parsed.
 * The error's line and column name the variable, or the kernel.  The
 * declaration is the run of tokens from the statement boundary before it
 * (`;` `{` `}` `:` or a preprocessor line, outside parentheses and
 * brackets) to the `;` after its array bounds.  Its specifiers split into
 * the type (everything else) and what stays on the storage: __shared__,
 * static, __device__ and attributes (__attribute__((...)), __align__(N),
 * alignas(N), [[...]]).  A launch is the kernel's qualified name and
 * template arguments, `<<<`, the configuration up to `>>>` outside
 * brackets, then `(`.  What cannot be rewritten this way is refused with
 * one line saying what nvcc does and what to change: a declaration or
 * launch written by a macro, a declaration with several declarators or an
 * initializer, extern, one outside a function, one whose __shared__ is not
 * spelled out, a kernel named in device code but not launched, a file with
 * #line directives.
 */
#include "toolchain.h"
#include "util/util.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARED_INIT_ERROR "error: initialization is not supported for __shared__ variables"
#define LAUNCH_ERROR "error: reference to __global__ function '"
/* what clang says instead for a template kernel's launch, at its `<<<` */
#define CONFIG_ERROR "error: reference to __host__ function '"

enum { K_ID, K_NUM, K_STR, K_CHR, K_PUNCT, K_PP };

typedef struct tok {
   int kind;
   size_t b, e;   /* [b, e) in the source */
} tok;

typedef struct toks {
   tok *v;
   size_t n, cap;
} toks;

static bool id_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

static bool id_char(char c)
{
   return id_start(c) || (c >= '0' && c <= '9');
}

static bool push_tok(toks *t, int kind, size_t b, size_t e)
{
   if (t->n == t->cap) {
      size_t cap = t->cap ? t->cap * 2 : 1024;
      tok *v = realloc(t->v, cap * sizeof(tok));
      if (!v)
         return false;
      t->v = v;
      t->cap = cap;
   }
   t->v[t->n++] = (tok){ kind, b, e };
   return true;
}

/* The end of a quoted literal starting at s[i] (the quote). */
static size_t quoted_end(const char *s, size_t n, size_t i)
{
   char q = s[i++];
   while (i < n && s[i] != q && s[i] != '\n') {
      if (s[i] == '\\' && i + 1 < n)
         i++;
      i++;
   }
   return i < n && s[i] == q ? i + 1 : i;
}

/* The end of a raw string R"delim( ... )delim" whose quote is at s[i]. */
static size_t raw_end(const char *s, size_t n, size_t i)
{
   size_t d = i + 1;
   while (d < n && s[d] != '(' && d - i <= 17)
      d++;
   if (d >= n || s[d] != '(')
      return quoted_end(s, n, i);
   size_t dl = d - (i + 1);
   for (size_t k = d + 1; k + dl + 1 < n + 1; k++)
      if (s[k] == ')' && k + 1 + dl < n && !strncmp(s + k + 1, s + i + 1, dl) && s[k + 1 + dl] == '"')
         return k + dl + 2;
   return n;
}

/* Tokens of s; false when out of memory. */
static bool lex(const char *s, size_t n, toks *t)
{
   bool line_start = true;
   size_t i = n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;   /* a UTF-8 byte order mark */
   while (i < n) {
      char c = s[i];
      if (c == '\n') {
         line_start = true;
         i++;
         continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
         i++;
         continue;
      }
      if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
         i += 2;
         continue;
      }
      if (c == '/' && i + 1 < n && s[i + 1] == '/') {
         while (i < n && s[i] != '\n')
            i += s[i] == '\\' && i + 1 < n ? 2 : 1;
         continue;
      }
      if (c == '/' && i + 1 < n && s[i + 1] == '*') {
         const char *e = strstr(s + i + 2, "*/");
         i = e ? (size_t)(e - s) + 2 : n;
         continue;
      }
      size_t b = i;
      if (c == '#' && line_start) {
         /* a preprocessor line, with its continuations and comments */
         while (i < n && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < n)
               i += 2;
            else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
               const char *e = strstr(s + i + 2, "*/");
               i = e ? (size_t)(e - s) + 2 : n;
            } else if (s[i] == '"' || s[i] == '\'')
               i = quoted_end(s, n, i);
            else
               i++;
         }
         if (!push_tok(t, K_PP, b, i))
            return false;
         continue;
      }
      line_start = false;
      int kind;
      if (id_start(c)) {
         while (i < n && id_char(s[i]))
            i++;
         /* string prefixes: R"(..)", u8R"..", L"..", u'c' */
         size_t l = i - b;
         if (i < n && s[i] == '"' && l <= 3 && s[i - 1] == 'R') {
            i = raw_end(s, n, i);
            kind = K_STR;
         } else if (i < n && (s[i] == '"' || s[i] == '\'') &&
                    (!strncmp(s + b, "u8", l) || ((l == 1) && strchr("uUL", s[b])))) {
            kind = s[i] == '"' ? K_STR : K_CHR;
            i = quoted_end(s, n, i);
         } else {
            kind = K_ID;
         }
      } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
         /* a pp-number: digits, letters, '.', exponent signs, and digit
          * separators (1'000) */
         i++;
         while (i < n) {
            if (id_char(s[i]) || s[i] == '.')
               i++;
            else if ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))
               i++;
            else if (s[i] == '\'' && i + 1 < n && id_char(s[i + 1]))
               i += 2;
            else
               break;
         }
         kind = K_NUM;
      } else if (c == '"' || c == '\'') {
         kind = c == '"' ? K_STR : K_CHR;
         i = quoted_end(s, n, i);
      } else {
         kind = K_PUNCT;
         i += (c == ':' && i + 1 < n && s[i + 1] == ':') || (c == '-' && i + 1 < n && s[i + 1] == '>') ? 2 : 1;
      }
      if (!push_tok(t, kind, b, i))
         return false;
   }
   return true;
}

/* ---- the declaration ---- */

enum why {
   W_OK,
   W_MACRO,     /* written by a macro expansion */
   W_MULTI,     /* several declarators */
   W_INIT,      /* an initializer */
   W_EXTERN,
   W_SCOPE,     /* outside a function */
   W_SPELLING,  /* no __shared__ among its tokens */
   W_FORM,      /* not `SPECIFIERS NAME[D]...;` */
   W_UNREAD,    /* its file cannot be read */
   W_PATH,      /* its file's path has a ';' (clang's -remap-file separator) */
   W_NOTLAUNCH, /* a kernel named in device code other than by a launch */
};

/* An edit: a declaration (first..semi) or, when launch, a launch in device
 * code: the kernel's tokens first..post_b, `<<<` at post_b, `>>>` at
 * post_e, whose last '>' is semi. */
typedef struct decl {
   size_t first, name, semi;   /* token indices */
   size_t post_b, post_e;      /* tokens of attributes after the bounds */
   bool launch;
   bool ref;                   /* a launch site that is a reference: the kernel first..semi */
} decl;

static bool is_tok(const char *s, const tok *t, const char *text)
{
   size_t l = strlen(text);
   return t->e - t->b == l && !memcmp(s + t->b, text, l);
}

static bool is_punct(const char *s, const tok *t, char c)
{
   return t->kind == K_PUNCT && t->e - t->b == 1 && s[t->b] == c;
}

/* The index after the balanced group that opens at v[i] ('(' or '['). */
static size_t skip_group(const char *s, const toks *t, size_t i)
{
   int depth = 0;
   for (; i < t->n; i++) {
      if (is_punct(s, &t->v[i], '(') || is_punct(s, &t->v[i], '['))
         depth++;
      else if (is_punct(s, &t->v[i], ')') || is_punct(s, &t->v[i], ']'))
         if (--depth == 0)
            return i + 1;
   }
   return t->n;
}

/* Whether the specifier at v[i] stays on the storage (not part of the
 * type); *next is the index after it (and its parenthesized argument). */
static bool storage_spec(const char *s, const toks *t, size_t i, size_t *next)
{
   static const char *const plain[] = { "__shared__", "static", "__device__" };
   static const char *const called[] = { "__attribute__", "__align__", "alignas", "__declspec", "_Alignas" };
   const tok *k = &t->v[i];
   for (size_t j = 0; j < sizeof(plain) / sizeof(plain[0]); j++)
      if (is_tok(s, k, plain[j])) {
         *next = i + 1;
         return true;
      }
   for (size_t j = 0; j < sizeof(called) / sizeof(called[0]); j++)
      if (is_tok(s, k, called[j]) && i + 1 < t->n && is_punct(s, &t->v[i + 1], '(')) {
         *next = skip_group(s, t, i + 1);
         return true;
      }
   if (is_punct(s, k, '[') && i + 1 < t->n && is_punct(s, &t->v[i + 1], '[')) {
      *next = skip_group(s, t, i);
      return true;
   }
   return false;
}

/* Whether the `{` at v[ob] opens a function body or a block in one (not a
 * namespace, extern "C" or class body): its head, the tokens since the
 * statement before, names no namespace, is not extern "..." alone, and has
 * no class key unless it has a parenthesis (a function's parameters). */
static bool function_brace(const char *s, const toks *t, size_t ob)
{
   size_t h = ob;
   while (h > 0) {
      const tok *k = &t->v[h - 1];
      if (k->kind == K_PP || is_punct(s, k, ';') || is_punct(s, k, '{') || is_punct(s, k, '}'))
         break;
      h--;
   }
   bool paren = false, classkey = false;
   for (size_t i = h; i < ob; i++) {
      const tok *k = &t->v[i];
      /* extern "C" { ... } (not extern "C" void f() { ... }) */
      if (is_tok(s, k, "namespace") || (is_tok(s, k, "extern") && i + 2 == ob && t->v[i + 1].kind == K_STR))
         return false;
      if (is_tok(s, k, "struct") || is_tok(s, k, "class") || is_tok(s, k, "union") || is_tok(s, k, "enum"))
         classkey = true;
      if (is_punct(s, k, '('))
         paren = true;
   }
   return !classkey || paren;
}

/* The declaration whose variable name is token `name`. */
static enum why find_decl(const char *s, const toks *t, size_t name, decl *d)
{
   static const char *const stmt_kw[] = { "if", "for", "while", "switch", "return", "else", "do", "case",
                                          "goto", "typedef", "using", "template", "operator", "default" };
   memset(d, 0, sizeof(*d));
   d->name = name;
   /* backwards to the statement boundary; a comma inside template
    * arguments (pipeline_shared_state<thread_scope_block, 2>) is no
    * second declarator */
   size_t i = name;
   int depth = 0, angle = 0;
   while (i > 0) {
      const tok *k = &t->v[i - 1];
      if (depth == 0 && (k->kind == K_PP || is_punct(s, k, ';') || is_punct(s, k, '{') || is_punct(s, k, '}') ||
                         (is_punct(s, k, ':'))))
         break;
      if (is_punct(s, k, ')') || is_punct(s, k, ']'))
         depth++;
      else if (is_punct(s, k, '(') || is_punct(s, k, '[')) {
         if (--depth < 0)
            return W_FORM;
      } else if (depth == 0 && is_punct(s, k, '>'))
         angle++;
      else if (depth == 0 && is_punct(s, k, '<') && angle > 0)
         angle--;
      else if (depth == 0 && angle == 0 && is_punct(s, k, ','))
         return W_MULTI;
      else if (depth == 0 && is_punct(s, k, '='))
         return W_FORM;
      i--;
   }
   d->first = i;
   bool shared = false;
   for (size_t j = d->first; j < name; j++) {
      if (is_tok(s, &t->v[j], "__shared__"))
         shared = true;
      if (is_tok(s, &t->v[j], "extern"))
         return W_EXTERN;
      for (size_t k = 0; k < sizeof(stmt_kw) / sizeof(stmt_kw[0]); k++)
         if (is_tok(s, &t->v[j], stmt_kw[k]))
            return W_FORM;
   }
   if (!shared)
      return W_SPELLING;
   /* forwards: the array bounds, attributes (GNU's, [[...]]), then ';' */
   size_t j = name + 1;
   while (j + 1 < t->n && is_punct(s, &t->v[j], '[') && !is_punct(s, &t->v[j + 1], '['))
      j = skip_group(s, t, j);
   d->post_b = j;
   for (;;) {
      if (j + 1 < t->n && is_tok(s, &t->v[j], "__attribute__") && is_punct(s, &t->v[j + 1], '('))
         j = skip_group(s, t, j + 1);
      else if (j + 1 < t->n && is_punct(s, &t->v[j], '[') && is_punct(s, &t->v[j + 1], '['))
         j = skip_group(s, t, j);
      else
         break;
   }
   d->post_e = j;
   if (j >= t->n)
      return W_FORM;
   if (is_punct(s, &t->v[j], ','))
      return W_MULTI;
   if (is_punct(s, &t->v[j], '=') || is_punct(s, &t->v[j], '(') || is_punct(s, &t->v[j], '{'))
      return W_INIT;
   if (!is_punct(s, &t->v[j], ';'))
      return W_FORM;
   d->semi = j;
   /* the type: the specifiers that do not stay on the storage */
   size_t ntype = 0;
   for (size_t k = d->first, next; k < name; k = next) {
      if (!storage_spec(s, t, k, &next)) {
         next = k + 1;
         ntype++;
      }
   }
   if (ntype == 0)
      return W_FORM;
   /* the innermost enclosing brace: a function's, or refused */
   depth = 0;
   for (size_t k = d->first; k > 0; k--) {
      const tok *b = &t->v[k - 1];
      if (is_punct(s, b, '}'))
         depth++;
      else if (is_punct(s, b, '{') && depth-- == 0)
         return function_brace(s, t, k - 1) ? W_OK : W_SCOPE;
   }
   return W_SCOPE;
}

/* Tokens [b, e) of s onto out, one space where the source had any
 * white space or comment between two of them (never a newline: the
 * rewritten declaration must keep the line count). */
static void put_tokens(strbuf *out, const char *s, const toks *t, size_t b, size_t e)
{
   for (size_t i = b; i < e; i++) {
      if (i > b && t->v[i].b > t->v[i - 1].e)
         strbuf_putc(out, ' ');
      strbuf_putn(out, s + t->v[i].b, t->v[i].e - t->v[i].b);
   }
}

/* The rewritten declaration d onto out (then its newlines). */
static void rewrite(strbuf *out, const char *s, const toks *t, const decl *d)
{
   size_t nl = 0;
   for (size_t p = t->v[d->first].b; p < t->v[d->semi].e; p++)
      nl += s[p] == '\n';
   const char *name = s + t->v[d->name].b;
   int nlen = (int)(t->v[d->name].e - t->v[d->name].b);
   bool placed = false;
   for (size_t k = d->first, next; k < d->name; k = next) {
      if (storage_spec(s, t, k, &next)) {
         put_tokens(out, s, t, k, next);
         strbuf_putc(out, ' ');
         continue;
      }
      next = k + 1;
      if (placed)
         continue;
      /* the type, with the declarator's bounds, at the place of its first
       * token: every type token from here on, in order */
      placed = true;
      strbuf_puts(out, "__mc_shared_storage<");
      size_t prev = SIZE_MAX;
      for (size_t m = k, mn; m < d->name; m = mn) {
         if (storage_spec(s, t, m, &mn))
            continue;
         mn = m + 1;
         if (prev != SIZE_MAX && (prev + 1 != m || t->v[m].b > t->v[prev].e))
            strbuf_putc(out, ' ');
         put_tokens(out, s, t, m, mn);
         prev = m;
      }
      put_tokens(out, s, t, d->name + 1, d->post_b);
      /* "> >": a type ending in '>' must not make ">>" */
      strbuf_puts(out, " > ");
   }
   strbuf_printf(out, "__mc_raw_%.*s", nlen, name);
   if (d->post_e > d->post_b) {
      strbuf_putc(out, ' ');
      put_tokens(out, s, t, d->post_b, d->post_e);
   }
   strbuf_printf(out, "; constexpr auto &%.*s = __mc_raw_%.*s.v;", nlen, name, nlen, name);
   for (size_t i = 0; i < nl; i++)
      strbuf_putc(out, '\n');
}

/* ---- launches in device code ---- */

/* Whether v[i], v[i+1], v[i+2] are three adjacent c (`<<<`, `>>>`). */
static bool triple(const char *s, const toks *t, size_t i, char c)
{
   return i + 2 < t->n && is_punct(s, &t->v[i], c) && is_punct(s, &t->v[i + 1], c) && is_punct(s, &t->v[i + 2], c) &&
          t->v[i + 1].b == t->v[i].e && t->v[i + 2].b == t->v[i + 1].e;
}

/* The kernel named first..last (its template arguments included) without
 * a launch: its address, which nvcc's device code may take (for
 * cudaLaunchDevice, say); with a unary '&' before it, that too. */
static enum why find_reference(const char *s, const toks *t, decl *d, size_t last)
{
   size_t f = d->first;
   if (f >= 1 && is_punct(s, &t->v[f - 1], '&') && !(f >= 2 && t->v[f - 2].b + 1 == t->v[f - 1].b &&
                                                      is_punct(s, &t->v[f - 2], '&'))) {
      const tok *before = f >= 2 ? &t->v[f - 2] : NULL;
      bool operand = before && ((before->kind != K_PUNCT && before->kind != K_PP && !is_tok(s, before, "return")) ||
                                is_punct(s, before, ')') || is_punct(s, before, ']'));
      if (!operand)
         d->first = f - 1;
   }
   d->ref = true;
   d->semi = last;
   return W_OK;
}

/* The launch `[::]a::kernel[<targs>]<<<config>>>(` whose kernel name is
 * token name (clang's error points at it). */
static enum why find_launch(const char *s, const toks *t, size_t name, decl *d)
{
   memset(d, 0, sizeof(*d));
   d->launch = true;
   if (name >= t->n)
      return W_FORM;
   /* clang may point at the qualifier: the last name of a qualified one */
   while (name + 2 < t->n && is_tok(s, &t->v[name + 1], "::") && t->v[name + 2].kind == K_ID)
      name += 2;
   d->name = name;
   size_t first = name;
   while (first >= 2 && is_tok(s, &t->v[first - 1], "::") && t->v[first - 2].kind == K_ID)
      first -= 2;
   if (first >= 1 && is_tok(s, &t->v[first - 1], "::"))
      first--;
   d->first = first;
   /* template arguments, balanced (a '>' inside parentheses is no closer) */
   size_t j = name + 1;
   if (j < t->n && is_punct(s, &t->v[j], '<') && !triple(s, t, j, '<')) {
      int angle = 0, depth = 0;
      for (; j < t->n; j++) {
         const tok *k = &t->v[j];
         if (is_punct(s, k, '(') || is_punct(s, k, '['))
            depth++;
         else if (is_punct(s, k, ')') || is_punct(s, k, ']'))
            depth--;
         else if (depth == 0 && is_punct(s, k, '<'))
            angle++;
         else if (depth == 0 && is_punct(s, k, '>') && --angle == 0)
            break;
         else if (depth == 0 && (is_punct(s, k, ';') || is_punct(s, k, '{') || is_punct(s, k, '}')))
            return W_NOTLAUNCH;
      }
      j++;
   }
   if (!triple(s, t, j, '<'))
      return find_reference(s, t, d, j - 1);
   d->post_b = j;
   /* the configuration: up to `>>>` outside parentheses and brackets */
   int depth = 0;
   for (j += 3; j < t->n; j++) {
      const tok *k = &t->v[j];
      if (is_punct(s, k, '(') || is_punct(s, k, '[') || is_punct(s, k, '{'))
         depth++;
      else if (is_punct(s, k, ')') || is_punct(s, k, ']') || is_punct(s, k, '}'))
         depth--;
      else if (depth == 0 && triple(s, t, j, '>'))
         break;
      else if (depth < 0 || is_punct(s, k, ';'))
         return W_FORM;
   }
   if (j + 3 >= t->n || !is_punct(s, &t->v[j + 3], '('))
      return W_FORM;
   d->post_e = j;
   d->semi = j + 2;
   return W_OK;
}

/* The kernel's name token before the `<<<` at v[k] (over its template
 * arguments), t->n when there is none.  clang points at the `<<<` of a
 * template kernel's launch, when it reports the launch's configuration
 * call instead of the kernel. */
static size_t launch_name_before(const char *s, const toks *t, size_t k)
{
   if (!triple(s, t, k, '<') || k == 0)
      return t->n;
   size_t j = k - 1;
   if (is_punct(s, &t->v[j], '>')) {
      int angle = 0, depth = 0;
      for (;; j--) {
         const tok *x = &t->v[j];
         if (is_punct(s, x, ')') || is_punct(s, x, ']'))
            depth++;
         else if (is_punct(s, x, '(') || is_punct(s, x, '['))
            depth--;
         else if (depth == 0 && is_punct(s, x, '>'))
            angle++;
         else if (depth == 0 && is_punct(s, x, '<') && --angle == 0)
            break;
         else if (depth == 0 && (is_punct(s, x, ';') || is_punct(s, x, '{') || is_punct(s, x, '}')))
            return t->n;
         if (j == 0)
            return t->n;
      }
      if (j == 0)
         return t->n;
      j--;
   }
   return t->v[j].kind == K_ID ? j : t->n;
}

/* The kernel's name token for clang's error at v[k]: the name itself, or
 * the `<<<` after it. */
static size_t launch_name(const char *s, const toks *t, size_t k)
{
   return t->v[k].kind == K_ID ? k : launch_name_before(s, t, k);
}

/* `kernel<<<config>>>` as `__mc_cdp_launch<kernel>(config)` onto out: the
 * kernel's and the configuration's text as written (newlines and all); a
 * reference `[&]kernel` as `(__mc_kernel_fn<kernel>)`, its address. */
static void rewrite_launch(strbuf *out, const char *s, const toks *t, const decl *d)
{
   if (d->ref) {
      size_t f = d->first + (is_punct(s, &t->v[d->first], '&') ? 1 : 0);
      strbuf_puts(out, "(__mc_kernel_fn<");
      strbuf_putn(out, s + t->v[f].b, t->v[d->semi].e - t->v[f].b);
      strbuf_puts(out, s[t->v[d->semi].e - 1] == '>' ? " >)" : ">)");
      return;
   }
   strbuf_puts(out, "__mc_cdp_launch<");
   size_t kb = t->v[d->first].b, ke = t->v[d->post_b].b;
   strbuf_putn(out, s + kb, ke - kb);
   strbuf_puts(out, s[t->v[d->post_b - 1].e - 1] == '>' ? " >(" : ">(");
   size_t cb = t->v[d->post_b + 2].e, ce = t->v[d->post_e].b;
   strbuf_putn(out, s + cb, ce - cb);
   strbuf_putc(out, ')');
}

/* ---- the diagnostics ---- */

typedef struct site {
   size_t line, col;
   enum why why;
   bool launch;  /* the launch error, else the __shared__ one */
   char *file;   /* as clang names it */
   char *key;    /* its real path (one file may be named two ways), else file */
} site;

/* s without the terminal's colour sequences (ESC [ ... letter), which
 * clang writes with -fcolor-diagnostics. */
static char *strip_colour(const char *s)
{
   char *o = malloc(strlen(s) + 1), *p = o;
   if (!o)
      return NULL;
   while (*s) {
      if (s[0] == 0x1b && s[1] == '[') {
         s += 2;
         while (*s && !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
            s++;
         if (*s)
            s++;
         continue;
      }
      *p++ = *s++;
   }
   *p = 0;
   return o;
}

static bool same_file(const char *a, const char *b)
{
   if (!strcmp(a, b))
      return true;
   char ra[PATH_MAX], rb[PATH_MAX];
   return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* Whether line l (NUL-terminated) is a diagnostic of its own: FILE:L:C:
 * error/warning/fatal error, or TOOL: error. */
static bool diag_head(const char *l)
{
   return strstr(l, ": error: ") || strstr(l, ": warning: ") || strstr(l, ": fatal error: ") ||
          !strncmp(l, "error: ", 7);
}

static void sites_free(site *v, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      free(v[i].file);
      free(v[i].key);
   }
   free(v);
}

static bool ends_with(const char *s, const char *tail)
{
   size_t n = strlen(s), m = strlen(tail);
   return n >= m && !strcmp(s + n - m, tail);
}

/* The sites of the shared-initialization and launch errors in diag, deduplicated
 * (a template reports it per instantiation); their count in *n. */
static site *parse_sites(char *text, size_t *n)
{
   site *v = NULL;
   size_t cnt = 0;
   site *cur = NULL;
   for (char *l = text, *next; l && *l; l = next) {
      next = strchr(l, '\n');
      if (next)
         *next++ = 0;
      char *hit = strstr(l, ": " SHARED_INIT_ERROR);
      bool launch = false;
      if (!(hit && hit[strlen(": " SHARED_INIT_ERROR)] == 0)) {
         hit = strstr(l, ": " LAUNCH_ERROR);
         if (!hit)
            hit = strstr(l, ": " CONFIG_ERROR);
         launch = hit && (ends_with(hit, "' in __global__ function") || ends_with(hit, "' in __device__ function") ||
                          ends_with(hit, "' in __host__ __device__ function"));
         if (launch && strstr(hit, CONFIG_ERROR))
            launch = strstr(hit, "'cudaConfigureCall'") || strstr(hit, "'__cudaPushCallConfiguration'");
         if (!launch)
            hit = NULL;
      }
      if (hit) {
         /* FILE:LINE:COL before it, parsed from the right (FILE may hold ':') */
         *hit = 0;
         char *c2 = strrchr(l, ':');
         char *c1 = c2 ? (*c2 = 0, strrchr(l, ':')) : NULL;
         cur = NULL;
         if (!c1)
            continue;
         *c1 = 0;
         size_t line = strtoul(c1 + 1, NULL, 10), col = strtoul(c2 + 1, NULL, 10);
         for (size_t i = 0; i < cnt && !cur; i++)
            if (v[i].line == line && v[i].col == col && !strcmp(v[i].file, l))
               cur = &v[i];
         if (cur) {
            cur = NULL;   /* its notes were read the first time */
            continue;
         }
         char real[PATH_MAX];
         site *nv = realloc(v, (cnt + 1) * sizeof(site));
         char *f = mc_strdup(l), *key = mc_strdup(realpath(l, real) ? real : l);
         if (nv)
            v = nv;
         if (!nv || !f || !key) {
            free(f);
            free(key);
            sites_free(v, cnt);
            return NULL;
         }
         cur = &v[cnt++];
         *cur = (site){ line, col, W_OK, launch, f, key };
      } else if (diag_head(l)) {
         cur = NULL;
      } else if (cur && strstr(l, "note: expanded from macro")) {
         cur->why = W_MACRO;
      }
   }
   *n = cnt;
   return v;
}

/* The token that starts at line:col of s (1-based, columns in bytes, as
 * clang counts them); t->n when none does. */
static size_t tok_at(const char *s, const toks *t, size_t line, size_t col)
{
   size_t off = 0, l = 1;
   while (l < line && s[off]) {
      if (s[off++] == '\n')
         l++;
   }
   if (l != line || col == 0)
      return t->n;
   off += col - 1;
   size_t lo = 0, hi = t->n;
   while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (t->v[mid].b < off)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < t->n && t->v[lo].b == off ? lo : t->n;
}

static const char *const why_text[] = {
   [W_MACRO] = "it comes from a macro expansion (write it out in the source)",
   [W_UNREAD] = "its file cannot be read",
   [W_PATH] = "its file's path holds a ';', which clang's -remap-file cannot take (rename it)",
   [W_MULTI] = "it shares its declaration with other variables (declare each __shared__ variable of "
               "such a type in a declaration of its own)",
   [W_INIT] = "it has an initializer, which nvcc refuses too (remove it and initialize the variable in the code)",
   [W_EXTERN] = "it is extern (declare the dynamic shared array with a trivial element type, such as "
                "unsigned char, and cast its address)",
   [W_SCOPE] = "it is not declared in a function (declare it in the kernel or device function that uses it)",
   [W_SPELLING] = "__shared__ is not written in its declaration (a macro?; write __shared__ itself there)",
   [W_FORM] = "its declaration is not of the form `__shared__ TYPE NAME[BOUNDS];` that metalcuda rewrites "
              "(write it so)",
   [W_NOTLAUNCH] = "it is not launched there (`KERNEL<<<...>>>(...)`): metalcuda rewrites only launches, and clang "
                   "refuses any other reference to a kernel in device code",
};
static const char *const why_launch_form = "its launch is not of the form `KERNEL<<<CONFIG>>>(ARGUMENTS)` that "
                                           "metalcuda rewrites (write it so)";

/* The identifier at line:col of the file (as clang saw it), for the
 * notes; "?" when there is none. */
static char *current_text(const char *path, const tc_argv *remaps);
static void name_at(const char *path, const tc_argv *remaps, size_t line, size_t col, char *out, size_t len)
{
   char *text = current_text(path, remaps);
   const char *p = text;
   snprintf(out, len, "?");
   for (size_t l = 1; p && *p && l < line; p++)
      l += *p == '\n';
   for (size_t c = 1; p && *p && *p != '\n' && c < col; c++)
      p++;
   size_t n = 0;
   while (p && id_char(p[n]) && n + 1 < len)
      n++;
   if (p && n && id_start(*p))
      snprintf(out, len, "%.*s", (int)n, p);
   free(text);
}

static bool has_line_directive(const char *s, const toks *t)
{
   for (size_t i = 0; i < t->n; i++) {
      if (t->v[i].kind != K_PP)
         continue;
      const char *p = s + t->v[i].b + 1;
      while (*p == ' ' || *p == '\t')
         p++;
      if (!strncmp(p, "line", 4) || (*p >= '0' && *p <= '9'))
         return true;
   }
   return false;
}

/* The text clang compiled for path: the rewritten copy a remap names
 * (FROM;TO), else the file itself. */
static char *current_text(const char *path, const tc_argv *remaps)
{
   for (int i = 0; remaps && i < remaps->n; i++) {
      const char *semi = strchr(remaps->v[i], ';');
      char from[PATH_MAX];
      if (!semi || (size_t)(semi - remaps->v[i]) >= sizeof(from))
         continue;
      snprintf(from, sizeof(from), "%.*s", (int)(semi - remaps->v[i]), remaps->v[i]);
      if (same_file(from, path))
         return file_read(semi + 1, NULL);
   }
   return file_read(path, NULL);
}

/* The sites of one file v[0..n) analysed (those not W_OK are refused
 * already), and the file's rewritten text in *out when every one can be
 * rewritten; the number of those that cannot. */
static int fix_file(const char *path, const tc_argv *remaps, site *v, size_t n, char **out)
{
   *out = NULL;
   char *src = current_text(path, remaps);
   if (!src) {
      for (size_t i = 0; i < n; i++)
         v[i].why = W_UNREAD;
      return (int)n;
   }
   toks t = { 0 };
   size_t len = strlen(src);
   bool lexed = lex(src, len, &t);
   bool linedir = lexed && has_line_directive(src, &t);
   decl *d = calloc(n, sizeof(decl));
   int bad = 0;
   for (size_t i = 0; i < n; i++) {
      site *st = &v[i];
      if (st->why != W_OK) {
         /* known already (a macro's) */
      } else if (!lexed || !d || linedir) {
         st->why = W_FORM;
      } else {
         size_t k = tok_at(src, &t, st->line, st->col);
         st->why = k >= t.n || (t.v[k].kind != K_ID && !(st->launch && triple(src, &t, k, '<'))) ? W_FORM
                   : st->launch                   ? find_launch(src, &t, launch_name(src, &t, k), &d[i])
                                                  : find_decl(src, &t, k, &d[i]);
      }
      bad += st->why != W_OK;
   }
   if (!bad) {
      /* the edits, in source order; each keeps its newlines, so every
       * line keeps its number */
      strbuf b;
      strbuf_init(&b);
      size_t at = 0;
      for (;;) {
         size_t best = n;
         for (size_t i = 0; i < n; i++)
            if (t.v[d[i].first].b >= at && (best == n || d[i].first < d[best].first))
               best = i;
         if (best == n)
            break;
         strbuf_putn(&b, src + at, t.v[d[best].first].b - at);
         if (d[best].launch)
            rewrite_launch(&b, src, &t, &d[best]);
         else
            rewrite(&b, src, &t, &d[best]);
         at = t.v[d[best].semi].e;
      }
      strbuf_putn(&b, src + at, len - at);
      *out = strbuf_take(&b);
      bad = *out ? 0 : 1;
   }
   free(d);
   free(t.v);
   free(src);
   return bad;
}

int tc_source_fix(const char *diag, const char *prog, const tc_argv *remaps, tc_argv *files, tc_argv *texts,
                  char **notes)
{
   *notes = NULL;
   char *text = strip_colour(diag);
   size_t n = 0;
   site *v = text ? parse_sites(text, &n) : NULL;
   free(text);
   if (!v || n == 0) {
      free(v);
      return 0;
   }
   /* file by file: sort the sites so that each file's are together */
   for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && strcmp(v[j - 1].key, v[j].key) > 0; j--) {
         site tmp = v[j];
         v[j] = v[j - 1];
         v[j - 1] = tmp;
      }
   int bad = 0;
   for (size_t i = 0, j; i < n; i = j) {
      for (j = i; j < n && !strcmp(v[j].key, v[i].key); j++)
         ;
      char *fixed = NULL;
      int b = fix_file(v[i].file, remaps, v + i, j - i, &fixed);
      bad += b;
      if (!b && strchr(v[i].file, ';')) {
         for (size_t k = i; k < j; k++)
            v[k].why = W_PATH;
         bad += (int)(j - i);
      } else if (!b) {
         tc_argv_push(files, v[i].file);
         tc_argv_push(texts, fixed);
      }
      free(fixed);
   }
   if (bad) {
      strbuf out;
      strbuf_init(&out);
      for (size_t i = 0; i < n; i++) {
         if (v[i].why == W_OK)
            continue;
         char name[128];
         name_at(v[i].file, remaps, v[i].line, v[i].col, name, sizeof(name));
         if (v[i].launch)
            strbuf_printf(&out,
                          "%s: %s:%zu: kernel '%s' in device code: nvcc launches it from the device (dynamic "
                          "parallelism); metalcuda cannot rewrite it into a device-runtime launch: %s\n",
                          prog, v[i].file, v[i].line, name,
                          v[i].why == W_FORM ? why_launch_form : why_text[v[i].why]);
         else
            strbuf_printf(&out,
                          "%s: %s:%zu: __shared__ variable '%s': nvcc accepts it and runs no constructor or "
                          "destructor for it; metalcuda cannot rewrite it into raw shared storage: %s\n",
                          prog, v[i].file, v[i].line, name, why_text[v[i].why]);
      }
      *notes = strbuf_take(&out);
   }
   sites_free(v, n);
   return bad ? -1 : 1;
}
