/*
 * link.c — links the PTX of separately compiled units into one module.
 *
 * A program built with `nvcc -rdc=true` carries one PTX module per
 * translation unit; a unit calls functions and uses variables another
 * defines, through `.extern` declarations (PTX ISA 9.0 §11.6, linking
 * directives).  nvlink resolves them at build time for the GPU's SASS;
 * metalcuda translates PTX, so it links the units' PTX here, as text, into
 * one module the rest of the compiler reads as if nvcc had compiled one
 * file.  The rules are those of §11.6:
 *   - `.visible` definitions are global: two of one name are an error;
 *   - `.weak` (and `.common`) definitions may repeat (inline functions,
 *     template instantiations): a `.visible` one wins, else the first, and
 *     the others are left out;
 *   - `.extern` declarations are kept: the parser and ir_build_globals
 *     prefer a definition of the same name wherever it is in the module
 *     (ptx_find_func, ptx_find_var), and one nothing defines (vprintf,
 *     malloc, the dynamic shared array) stays what it was;
 *   - symbols without linkage are the unit's own (static functions, string
 *     constants `$str`): one whose name another unit also uses is renamed
 *     in its unit (`$str` → `$str$1`), every identifier token of that
 *     name, so the unit stays consistent.  Kernels (`.entry`) are never
 *     renamed: the host looks them up by name; two of one name fail.
 * `.file` numbers (and the `.loc`s that use them) are moved past those of
 * the units before, so line information keeps naming the right file.  The
 * header is the highest `.version`, the first unit's `.target` (the
 * program's own objects come first in the device-link list, the libraries
 * after: CUDA's device runtime, linked into PTX-only builds, says sm_121
 * whatever the program targets) and the units' common `.address_size`.
 *
 * The text is only split into top-level items (a directive up to its `;`,
 * or a function up to the brace that closes its body), never parsed: the
 * parser then reports anything malformed with the line of the linked text.
 */
#include "ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lk_tok {
   ptx_tok_kind kind;
   uint32_t begin, end;        /* bytes of the unit's text, quotes and '.' included */
   char punct;                 /* PTX_TOK_PUNCT: the character */
} lk_tok;

typedef enum lk_item_kind {
   LK_VERSION, LK_TARGET, LK_ADDRESS_SIZE, LK_OTHER, LK_FUNC, LK_ENTRY, LK_VAR,
} lk_item_kind;

typedef struct lk_item {
   lk_item_kind kind;
   uint32_t first, last;       /* token indices, inclusive */
   ptx_linkage linkage;
   const char *name;           /* the symbol declared; NULL for directives */
   bool defines;               /* a definition (body, or a variable not .extern) */
   bool drop;                  /* left out of the linked text */
} lk_item;

typedef struct lk_unit {
   const char *text;
   VEC(lk_tok) toks;
   VEC(lk_item) items;
   strmap rename;              /* old name → new name */
   uint32_t version;           /* major * 100 + minor */
   uint32_t address_size;      /* 0 if not stated */
   uint32_t max_file;          /* highest .file number */
   uint32_t file_base;         /* added to its .file/.loc numbers */
} lk_unit;

typedef struct lk {
   arena ar;
   lk_unit *units;
   uint32_t n;
   strmap names;               /* every identifier of every unit (not %registers) */
   char err[512];
} lk;

static bool lk_fail(lk *l, const char *fmt, ...) MC_PRINTF(2, 3);
static bool lk_fail(lk *l, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(l->err, sizeof(l->err), fmt, ap);
   va_end(ap);
   return false;
}

static bool oom(lk *l) { return lk_fail(l, "out of memory"); }

/* ---- tokens ---- */

static const char *tok_text(const lk_unit *u, const lk_tok *t, uint32_t *len)
{
   /* a directive's word without its '.' */
   uint32_t skip = t->kind == PTX_TOK_DIRECTIVE;
   *len = t->end - t->begin - skip;
   return u->text + t->begin + skip;
}

static bool tok_is(const lk_unit *u, const lk_tok *t, ptx_tok_kind kind, const char *word)
{
   uint32_t n;
   const char *s = tok_text(u, t, &n);
   return t->kind == kind && strlen(word) == n && !memcmp(s, word, n);
}

static bool is_dir(const lk_unit *u, const lk_tok *t, const char *word)
{
   return tok_is(u, t, PTX_TOK_DIRECTIVE, word);
}

static bool is_punct(const lk_tok *t, char c) { return t->kind == PTX_TOK_PUNCT && t->punct == c; }

static uint32_t tok_line(const lk_unit *u, const lk_tok *t)
{
   uint32_t line = 1;
   for (uint32_t i = 0; i < t->begin; i++)
      line += u->text[i] == '\n';
   return line;
}

static bool tokenize(lk *l, lk_unit *u, uint32_t index, size_t len)
{
   ptx_lexer lx;
   ptx_lexer_init(&lx, u->text, len);
   for (;;) {
      ptx_token t = ptx_lex_next(&lx);
      if (t.kind == PTX_TOK_EOF)
         return true;
      if (t.kind == PTX_TOK_ERROR)
         return lk_fail(l, "unit %u, line %u: %s", index, t.loc.line, t.msg);
      uint32_t begin = (uint32_t)(t.start - u->text), end = (uint32_t)(lx.cur - u->text);
      if (t.kind == PTX_TOK_DIRECTIVE || t.kind == PTX_TOK_STRING)
         begin--;
      lk_tok k = { t.kind, begin, end, t.kind == PTX_TOK_PUNCT ? t.punct[0] : 0 };
      if (!vec_push(&l->ar, &u->toks, k))
         return oom(l);
      if (t.kind == PTX_TOK_IDENT && t.start[0] != '%') {
         char *s = arena_strndup(&l->ar, t.start, t.len);
         if (!s || (!strmap_get(&l->names, s) && !strmap_put(&l->names, s, s)))
            return oom(l);
      }
   }
}

/* ---- top-level items ---- */

static uint32_t parse_u32(const char *s, uint32_t n)
{
   uint32_t v = 0;
   for (uint32_t i = 0; i < n && s[i] >= '0' && s[i] <= '9' && v < 100000000; i++)
      v = v * 10 + (uint32_t)(s[i] - '0');
   return v;
}

static ptx_linkage linkage_of(const lk_unit *u, const lk_tok *t)
{
   if (is_dir(u, t, "visible"))
      return PTX_LINK_VISIBLE;
   if (is_dir(u, t, "extern"))
      return PTX_LINK_EXTERN;
   if (is_dir(u, t, "weak"))
      return PTX_LINK_WEAK;
   if (is_dir(u, t, "common"))
      return PTX_LINK_COMMON;
   return PTX_LINK_NONE;
}

static const char *ident_at(lk *l, const lk_unit *u, uint32_t i)
{
   if (i >= u->toks.len || u->toks.data[i].kind != PTX_TOK_IDENT)
      return NULL;
   uint32_t n;
   const char *s = tok_text(u, &u->toks.data[i], &n);
   return arena_strndup(&l->ar, s, n);
}

/* A function or variable declaration, tokens [first, last]. */
static bool describe_decl(lk *l, lk_unit *u, uint32_t index, lk_item *it)
{
   const lk_tok *t = u->toks.data;
   it->linkage = linkage_of(u, &t[it->first]);
   for (uint32_t i = it->first; i <= it->last; i++) {
      bool entry = is_dir(u, &t[i], "entry");
      if (!entry && !is_dir(u, &t[i], "func"))
         continue;
      uint32_t k = i + 1;
      if (!entry && k <= it->last && is_punct(&t[k], '(')) {   /* return parameters */
         while (k <= it->last && !is_punct(&t[k], ')'))
            k++;
         k++;
      }
      it->kind = entry ? LK_ENTRY : LK_FUNC;
      it->name = ident_at(l, u, k);
      it->defines = is_punct(&t[it->last], '}');
      if (!it->name)
         return lk_fail(l, "unit %u, line %u: a %s without a name", index, tok_line(u, &t[i]),
                        entry ? ".entry" : ".func");
      return true;
   }
   /* A variable: its name is the first identifier (the state space, type
    * and .align come first as directives and numbers). */
   for (uint32_t i = it->first; i <= it->last && !is_punct(&t[i], '='); i++) {
      if (is_punct(&t[i], ','))
         return lk_fail(l, "unit %u, line %u: several variables in one declaration cannot be linked",
                        index, tok_line(u, &t[i]));
      if (t[i].kind == PTX_TOK_IDENT && !it->name) {
         it->kind = LK_VAR;
         it->name = ident_at(l, u, i);
         it->defines = it->linkage != PTX_LINK_EXTERN;
         if (!it->name)
            return oom(l);
      }
   }
   return true;   /* .pragma and the like: kept as they are */
}

/* The item starting at token *i; *i moves past it. */
static bool split_item(lk *l, lk_unit *u, uint32_t index, uint32_t *i)
{
   const lk_tok *t = u->toks.data;
   uint32_t n = u->toks.len, s = *i;
   lk_item it = { .kind = LK_OTHER, .first = s };
   if (t[s].kind != PTX_TOK_DIRECTIVE)
      return lk_fail(l, "unit %u, line %u: expected a directive at module level", index, tok_line(u, &t[s]));
   uint32_t len;
   const char *w;
   if (is_dir(u, &t[s], "version") && s + 1 < n) {
      it.kind = LK_VERSION;
      w = tok_text(u, &t[s + 1], &len);
      const char *dot = memchr(w, '.', len);
      u->version = parse_u32(w, len) * 100 + (dot ? parse_u32(dot + 1, len - (uint32_t)(dot + 1 - w)) : 0);
      it.last = s + 1;
   } else if (is_dir(u, &t[s], "target")) {
      it.kind = LK_TARGET;
      it.last = s + 1;
      while (it.last + 2 < n && is_punct(&t[it.last + 1], ','))
         it.last += 2;
   } else if (is_dir(u, &t[s], "address_size") && s + 1 < n) {
      it.kind = LK_ADDRESS_SIZE;
      w = tok_text(u, &t[s + 1], &len);
      u->address_size = parse_u32(w, len);
      it.last = s + 1;
   } else if (is_dir(u, &t[s], "file")) {
      /* .file N "name" [, timestamp, size] */
      it.last = MC_MIN(s + 2, n - 1);
      if (it.last + 4 < n && is_punct(&t[it.last + 1], ','))
         it.last += 4;
   } else {
      /* up to ';', or the '}' ending a function's body or a .section */
      bool braced = false;
      uint32_t depth = 0, k = s;
      for (; k < n; k++) {
         braced |= depth == 0 && (is_dir(u, &t[k], "func") || is_dir(u, &t[k], "entry") ||
                                  is_dir(u, &t[k], "section"));
         if (is_punct(&t[k], '{'))
            depth++;
         else if (is_punct(&t[k], '}') && depth && --depth == 0 && braced)
            break;
         else if (is_punct(&t[k], ';') && depth == 0)
            break;
      }
      if (k == n)
         return lk_fail(l, "unit %u, line %u: the declaration starting here does not end", index,
                        tok_line(u, &t[s]));
      it.last = k;
      bool plain = is_dir(u, &t[s], "section") || is_dir(u, &t[s], "alias") || is_dir(u, &t[s], "pragma");
      if (!plain && !describe_decl(l, u, index, &it))
         return false;
   }
   *i = it.last + 1;
   return vec_push(&l->ar, &u->items, it) ? true : oom(l);
}

/* The highest .file number, and the items, of one unit. */
static bool split_unit(lk *l, lk_unit *u, uint32_t index)
{
   for (uint32_t k = 0; k + 1 < u->toks.len; k++) {
      if (is_dir(u, &u->toks.data[k], "file") && u->toks.data[k + 1].kind == PTX_TOK_INT) {
         uint32_t len;
         const char *w = tok_text(u, &u->toks.data[k + 1], &len);
         u->max_file = MC_MAX(u->max_file, parse_u32(w, len));
      }
   }
   for (uint32_t i = 0; i < u->toks.len;)
      if (!split_item(l, u, index, &i))
         return false;
   return true;
}

/* ---- symbols ---- */

static bool is_global_definition(const lk_item *it)
{
   return it->name && it->defines && it->linkage != PTX_LINK_NONE && it->linkage != PTX_LINK_EXTERN;
}

/* One definition of each global symbol: two .visible ones are an error;
 * otherwise the .visible one, else the first, and the others dropped. */
static bool resolve_globals(lk *l)
{
   strmap defs;   /* name → lk_item * */
   strmap_init(&defs, &l->ar);
   for (uint32_t u = 0; u < l->n; u++) {
      vec_foreach(lk_item, it, &l->units[u].items) {
         if (!is_global_definition(it))
            continue;
         lk_item *prev = strmap_get(&defs, it->name);
         if (!prev) {
            if (!strmap_put(&defs, it->name, it))
               return oom(l);
         } else if (prev->linkage == PTX_LINK_VISIBLE && it->linkage == PTX_LINK_VISIBLE) {
            return lk_fail(l, "'%s' is defined (.visible) in two units; unit %u's is the second", it->name, u);
         } else if (it->linkage == PTX_LINK_VISIBLE) {
            prev->drop = true;
            if (!strmap_put(&defs, it->name, it))
               return oom(l);
         } else {
            it->drop = true;
         }
      }
   }
   return true;
}

/* A name no unit uses, made from name. */
static const char *fresh_name(lk *l, const char *name, uint32_t unit)
{
   for (uint32_t k = 0;; k++) {
      char *s = k ? arena_printf(&l->ar, "%s$%u_%u", name, unit, k) : arena_printf(&l->ar, "%s$%u", name, unit);
      if (!s || !strmap_get(&l->names, s))
         return s && strmap_put(&l->names, s, s) ? s : NULL;
   }
}

/* Renames a unit's own symbols whose names another unit uses too. */
static bool rename_locals(lk *l)
{
   strmap global, owner;   /* names with linkage anywhere; local name → first unit using it */
   strmap_init(&global, &l->ar);
   strmap_init(&owner, &l->ar);
   for (uint32_t u = 0; u < l->n; u++)
      vec_foreach(lk_item, it, &l->units[u].items)
         if (it->name && it->linkage != PTX_LINK_NONE && !strmap_put(&global, it->name, it))
            return oom(l);
   for (uint32_t u = 0; u < l->n; u++) {
      lk_unit *un = &l->units[u];
      strmap_init(&un->rename, &l->ar);
      vec_foreach(lk_item, it, &un->items) {
         if (!it->name || it->linkage != PTX_LINK_NONE || strmap_get(&un->rename, it->name))
            continue;
         void *first = strmap_get(&owner, it->name);
         bool clash = strmap_get(&global, it->name) || (first && first != (void *)un);
         if (!clash) {
            if (!strmap_put(&owner, it->name, un))
               return oom(l);
            continue;
         }
         if (it->kind == LK_ENTRY)
            return lk_fail(l, "kernel '%s' is defined in two units (unit %u's is the second)", it->name, u);
         const char *to = fresh_name(l, it->name, u);
         if (!to || !strmap_put(&un->rename, it->name, (void *)to))
            return oom(l);
      }
   }
   return true;
}

/* ---- output ---- */

static void put_item(strbuf *b, lk *l, const lk_unit *u, const lk_item *it)
{
   const lk_tok *t = u->toks.data;
   uint32_t at = t[it->first].begin;
   for (uint32_t k = it->first; k <= it->last; k++) {
      const char *to = NULL;
      uint32_t len;
      const char *s = tok_text(u, &t[k], &len);
      bool file_no = k > 0 && t[k].kind == PTX_TOK_INT && u->file_base &&
                     (is_dir(u, &t[k - 1], "file") || is_dir(u, &t[k - 1], "loc"));
      if (t[k].kind == PTX_TOK_IDENT && u->rename.len) {
         char name[256];
         if (len < sizeof(name)) {
            memcpy(name, s, len);
            name[len] = 0;
            to = strmap_get(&u->rename, name);
         }
      }
      if (!to && !file_no)
         continue;
      strbuf_putn(b, u->text + at, t[k].begin - at);
      if (to)
         strbuf_puts(b, to);
      else
         strbuf_printf(b, "%u", parse_u32(s, len) + u->file_base);
      at = t[k].end;
   }
   strbuf_putn(b, u->text + at, t[it->last].end - at);
   strbuf_putc(b, '\n');
   (void)l;
}

static char *emit(lk *l, size_t *out_len)
{
   const lk_unit *top = &l->units[0];
   uint32_t version = 0, address_size = 0;
   for (uint32_t u = 0; u < l->n; u++) {
      const lk_unit *un = &l->units[u];
      version = MC_MAX(version, un->version);
      if (un->address_size && address_size && un->address_size != address_size) {
         lk_fail(l, "the units disagree on .address_size (%u and %u)", address_size, un->address_size);
         return NULL;
      }
      if (un->address_size)
         address_size = un->address_size;
   }
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "// linked by metalcuda from %u units of relocatable device code\n", l->n);
   if (version)
      strbuf_printf(&b, ".version %u.%u\n", version / 100, version % 100);
   vec_foreach(lk_item, it, &top->items)
      if (it->kind == LK_TARGET)
         put_item(&b, l, top, it);
   if (address_size)
      strbuf_printf(&b, ".address_size %u\n", address_size);
   for (uint32_t u = 0; u < l->n; u++) {
      const lk_unit *un = &l->units[u];
      strbuf_printf(&b, "\n// unit %u\n", u);
      vec_foreach(lk_item, it, &un->items)
         if (!it->drop && it->kind != LK_VERSION && it->kind != LK_TARGET && it->kind != LK_ADDRESS_SIZE)
            put_item(&b, l, un, it);
   }
   *out_len = b.len;
   char *s = strbuf_take(&b);
   if (!s)
      oom(l);
   return s;
}

char *ptx_link(const char *const *texts, const size_t *lens, uint32_t n, size_t *out_len, char **err)
{
   *err = NULL;
   *out_len = 0;
   lk l = { .n = n };
   arena_init(&l.ar, 64 * 1024);
   strmap_init(&l.names, &l.ar);
   char *out = NULL;
   bool ok = n > 0 || lk_fail(&l, "no units to link");
   if (ok && !(l.units = arena_alloc(&l.ar, n * sizeof(*l.units))))
      ok = oom(&l);
   for (uint32_t u = 0; ok && u < n; u++) {
      l.units[u].text = texts[u];
      if (lens[u] > UINT32_MAX)
         ok = lk_fail(&l, "unit %u: %zu bytes of PTX is more than the linker takes", u, lens[u]);
      else
         ok = tokenize(&l, &l.units[u], u, lens[u]) && split_unit(&l, &l.units[u], u);
      if (ok && u > 0)
         l.units[u].file_base = l.units[u - 1].file_base + l.units[u - 1].max_file;
   }
   ok = ok && resolve_globals(&l) && rename_locals(&l);
   if (ok)
      out = emit(&l, out_len);
   if (!out) {
      const char *why = l.err[0] ? l.err : "out of memory";
      size_t len = strlen(why) + 32;
      *err = malloc(len);
      if (*err)
         snprintf(*err, len, "linking PTX: %s", why);
   }
   arena_free_all(&l.ar);
   return out;
}

/* ptx.h.  CUDA 12+'s device runtime (cudadevrt) is called as __cudaCDP2*
 * (GetParameterBufferV2, LaunchDeviceV2, StreamCreateWithFlags ...),
 * earlier toolkits' as cudaGetParameterBuffer / cudaLaunchDevice. */
ptx_runtime_callee ptx_runtime_kind(const char *name)
{
   static const struct {
      const char *name;
      bool prefix;
      ptx_runtime_callee kind;
   } known[] = {
      { "vprintf", false, PTX_RT_VPRINTF },
      { "__assertfail", false, PTX_RT_ASSERTFAIL },
      { "malloc", false, PTX_RT_HEAP },
      { "free", false, PTX_RT_HEAP },
      { "cudaGraphSetConditional", false, PTX_RT_GRAPH_SET_CONDITIONAL },
      { "__nv_aligned_device_malloc", false, PTX_RT_ALIGNED_MALLOC },     /* clang, CUDA < 13 */
      { "__cuda_syscall_aligned_malloc", false, PTX_RT_ALIGNED_MALLOC },  /* nvcc 13 */
      { "cudaDeviceSynchronize", false, PTX_RT_DEVICE_RUNTIME },
      { "__cudaCDP", true, PTX_RT_DEVICE_RUNTIME },
      { "cudaGetParameterBuffer", true, PTX_RT_DEVICE_RUNTIME },
      { "cudaLaunchDevice", true, PTX_RT_DEVICE_RUNTIME },
      { "cudaCGGet", true, PTX_RT_GRID_CG },
   };
   for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
      if (known[i].prefix ? !strncmp(name, known[i].name, strlen(known[i].name)) : !strcmp(name, known[i].name))
         return known[i].kind;
   return PTX_RT_NONE;
}
