/*
 * parse.c — PTX tokens → AST: the module level, token helpers, errors and
 * error recovery.  Declarations and bodies are in parse_decl.c,
 * instructions in parse_instr.c, constant expressions in parse_expr.c.
 *
 * Grammar (PTX ISA 9.0 §§4–11), top level:
 *   .version M.m   .target t[, t...]   .address_size N
 *   .file N "name" [, timestamp, size]     .section .name { ... }  (skipped)
 *   .pragma "..." [, "..."];               .alias a, b;
 *   [.visible|.extern|.weak|.common] (.entry|.func) header (body | ;)
 *   [linkage] .global/.const/.shared/... variable declarations
 * Directives without a terminator (.version, .target, .file, .loc, .section,
 * performance directives) end where the next token starts.
 *
 * Recovery: a failing top-level item records its error (ptx_fail longjmps
 * back here), then tokens are skipped, counting braces, until either the
 * braces open at the error are closed again or a directive that can only
 * start a top-level item appears (.entry, .func, .visible, ...).  A
 * function whose body failed stays in the module with `error` set, so the
 * other functions translate and calls to it still resolve.
 */
#include "parse_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- tokens ---- */

void ptx_next(ptx_parser *p)
{
   if (p->has_ahead) {
      p->tok = p->ahead;
      p->has_ahead = false;
   } else {
      p->tok = ptx_lex_next(&p->lx);
   }
   if (p->tok.kind == PTX_TOK_ERROR)
      ptx_fail(p, p->tok.loc, "%s", p->tok.msg);
}

const ptx_token *ptx_peek(ptx_parser *p)
{
   if (!p->has_ahead) {
      p->ahead = ptx_lex_next(&p->lx);
      p->has_ahead = true;
   }
   return &p->ahead;
}

bool ptx_accept(ptx_parser *p, char c)
{
   if (!p_is(p, c))
      return false;
   ptx_next(p);
   return true;
}

void ptx_expect(ptx_parser *p, char c, const char *context)
{
   if (!p_is(p, c))
      ptx_fail(p, p->tok.loc, "expected '%c'%s%s, found %s", c, context ? " " : "",
             context ? context : "", ptx_tok_desc(p, &p->tok));
   ptx_next(p);
}

bool ptx_tok_is_word(const ptx_token *t, ptx_tok_kind kind, const char *word)
{
   size_t n = strlen(word);
   return t->kind == kind && t->len == n && !memcmp(t->start, word, n);
}

bool ptx_is_dir(const ptx_parser *p, const char *word)
{
   return ptx_tok_is_word(&p->tok, PTX_TOK_DIRECTIVE, word);
}

/* "'text'" for messages; long tokens are cut. */
const char *ptx_tok_desc(ptx_parser *p, const ptx_token *t)
{
   switch (t->kind) {
   case PTX_TOK_EOF:
      return "end of input";
   case PTX_TOK_STRING:
      return "a string";
   case PTX_TOK_DIRECTIVE:
      return ptx_pprintf(p, "'.%.*s'", (int)MC_MIN(t->len, 40u), t->start);
   default:
      return ptx_pprintf(p, "'%.*s'", (int)MC_MIN(t->len, 40u), t->start);
   }
}

/* ---- errors and allocation ---- */

static void verror(ptx_parser *p, ptx_loc loc, const char *fmt, va_list ap)
{
   char buf[512];
   vsnprintf(buf, sizeof(buf), fmt, ap);
   ptx_error e = { loc, arena_printf(p->ar, "line %u, col %u: %s", loc.line, loc.col, buf) };
   if (!e.msg || !vec_push(p->ar, &p->errors, e))
      p->oom = true;
}

void ptx_error_at(ptx_parser *p, ptx_loc loc, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   verror(p, loc, fmt, ap);
   va_end(ap);
}

void ptx_fail(ptx_parser *p, ptx_loc loc, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   verror(p, loc, fmt, ap);
   va_end(ap);
   longjmp(p->jb, 1);
}

void *ptx_palloc(ptx_parser *p, size_t size)
{
   void *r = arena_alloc(p->ar, size);
   if (!r) {
      p->oom = true;
      longjmp(p->jb, 1);
   }
   return r;
}

const char *ptx_pprintf(ptx_parser *p, const char *fmt, ...)
{
   char buf[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   return ptx_pstrndup(p, buf, strlen(buf));
}

const char *ptx_pstrndup(ptx_parser *p, const char *s, size_t n)
{
   char *d = ptx_palloc(p, n + 1);
   memcpy(d, s, n);
   d[n] = 0;
   return d;
}

void ptx_open_brace(ptx_parser *p)
{
   ptx_expect(p, '{', NULL);
   p->depth++;
}

void ptx_close_brace(ptx_parser *p, const char *context)
{
   ptx_expect(p, '}', context);
   p->depth--;
}

/* ---- module directives ---- */

/* .version M.m: the lexer saw a float (or an int), the text is what counts. */
static void parse_version(ptx_parser *p)
{
   ptx_loc loc = p->tok.loc;
   ptx_next(p);
   const ptx_token *t = &p->tok;
   uint32_t major = 0, minor = 0, i = 0;
   bool ok = t->kind == PTX_TOK_F64 || t->kind == PTX_TOK_INT;
   for (; ok && i < t->len && t->start[i] >= '0' && t->start[i] <= '9' && major < 1000; i++)
      major = major * 10 + (uint32_t)(t->start[i] - '0');
   if (ok && i < t->len && t->start[i] == '.') {
      for (i++; i < t->len && t->start[i] >= '0' && t->start[i] <= '9' && minor < 1000; i++)
         minor = minor * 10 + (uint32_t)(t->start[i] - '0');
   }
   if (!ok || i != t->len)
      ptx_fail(p, loc, "malformed .version: expected MAJOR.MINOR, found %s", ptx_tok_desc(p, t));
   p->m->version_major = major;
   p->m->version_minor = minor;
   ptx_next(p);
}

static void target_word(ptx_parser *p, bool first)
{
   ptx_module *m = p->m;
   const ptx_token *t = &p->tok;
   if (t->kind != PTX_TOK_IDENT)
      ptx_fail(p, t->loc, "expected a target name after .target, found %s", ptx_tok_desc(p, t));
   if (ptx_tok_is_word(t, PTX_TOK_IDENT, "texmode_independent"))
      m->target_texmode_independent = true;
   else if (ptx_tok_is_word(t, PTX_TOK_IDENT, "texmode_unified"))
      m->target_texmode_independent = false;
   else if (ptx_tok_is_word(t, PTX_TOK_IDENT, "debug"))
      m->target_debug = true;
   else if (ptx_tok_is_word(t, PTX_TOK_IDENT, "map_f64_to_f32"))
      m->target_map_f64_to_f32 = true;
   else if (t->len > 3 && (!memcmp(t->start, "sm_", 3) ||
                           (t->len > 8 && !memcmp(t->start, "compute_", 8)))) {
      if (first || !m->target[0]) {
         size_t n = MC_MIN(t->len, sizeof(m->target) - 1);
         memcpy(m->target, t->start, n);
         m->target[n] = 0;
         const char *d = t->start + (t->start[0] == 's' ? 3 : 8);
         uint32_t sm = 0;
         for (; d < t->start + t->len && *d >= '0' && *d <= '9' && sm < 100000; d++)
            sm = sm * 10 + (uint32_t)(*d - '0');
         m->sm = sm;
      }
   } else {
      ptx_fail(p, t->loc, "unknown target %s", ptx_tok_desc(p, t));
   }
   ptx_next(p);
}

static void parse_target(ptx_parser *p)
{
   ptx_loc loc = p->tok.loc;
   ptx_next(p);
   target_word(p, true);
   while (ptx_accept(p, ','))
      target_word(p, false);
   /* as ptxas: the list must name the architecture (".target debug" alone
    * does not) */
   if (!p->m->target[0])
      ptx_fail(p, loc, ".target names no architecture (sm_XX or compute_XX)");
}

static void parse_address_size(ptx_parser *p)
{
   ptx_loc loc = p->tok.loc;
   ptx_next(p);
   int64_t n = ptx_int_expr(p, ".address_size");
   if (n != 32 && n != 64)
      ptx_fail(p, loc, ".address_size must be 32 or 64, not %lld", (long long)n);
   p->m->address_size = (uint32_t)n;
}

/* .file N "name" [, timestamp, size] */
static void parse_file(ptx_parser *p)
{
   ptx_next(p);
   ptx_loc loc = p->tok.loc;
   int64_t n = ptx_int_expr(p, ".file number");
   if (n < 0 || n > 65535)
      ptx_fail(p, loc, ".file number %lld out of range (0..65535)", (long long)n);
   if (p->tok.kind != PTX_TOK_STRING)
      ptx_fail(p, p->tok.loc, "expected a file name string after .file %lld, found %s",
             (long long)n, ptx_tok_desc(p, &p->tok));
   const char *name = ptx_pstrndup(p, p->tok.start, p->tok.len);
   ptx_next(p);
   if (ptx_accept(p, ',')) {
      ptx_int_expr(p, ".file timestamp");
      ptx_expect(p, ',', "between .file timestamp and size");
      ptx_int_expr(p, ".file size");
   }
   while (p->files.len <= (uint32_t)n)
      p_push(p, &p->files, NULL);
   p->files.data[n] = name;
}

/* .section .debug_xxx { ... }: DWARF for debuggers; skipped by brace count. */
static void parse_section(ptx_parser *p)
{
   ptx_next(p);
   if (p->tok.kind != PTX_TOK_DIRECTIVE && p->tok.kind != PTX_TOK_IDENT)
      ptx_fail(p, p->tok.loc, "expected a section name after .section, found %s",
             ptx_tok_desc(p, &p->tok));
   ptx_next(p);
   ptx_loc open = p->tok.loc;
   ptx_open_brace(p);
   uint32_t base = p->depth - 1;
   while (p->depth > base) {
      if (p->tok.kind == PTX_TOK_EOF)
         ptx_fail(p, open, "unterminated .section: missing '}'");
      if (p_is(p, '{'))
         p->depth++;
      else if (p_is(p, '}'))
         p->depth--;
      ptx_next(p);
   }
}

/* .pragma "a" [, "b"] ; at module level: no module-level pragma is defined,
 * so they are accepted and dropped. */
static void parse_module_pragma(ptx_parser *p)
{
   ptx_next(p);
   do {
      if (p->tok.kind != PTX_TOK_STRING)
         ptx_fail(p, p->tok.loc, "expected a string after .pragma, found %s",
                ptx_tok_desc(p, &p->tok));
      ptx_next(p);
   } while (ptx_accept(p, ','));
   ptx_expect(p, ';', "after .pragma");
}

static const char *expect_name(ptx_parser *p, const char *what)
{
   if (p->tok.kind != PTX_TOK_IDENT)
      ptx_fail(p, p->tok.loc, "expected %s, found %s", what, ptx_tok_desc(p, &p->tok));
   const char *s = ptx_intern(p, p->tok.start, p->tok.len)->str;
   ptx_next(p);
   return s;
}

/* .alias name, target; */
static void parse_alias(ptx_parser *p)
{
   ptx_next(p);
   ptx_decl d = { .kind = PTX_DECL_ALIAS };
   d.u.alias.name = expect_name(p, "an alias name");
   ptx_expect(p, ',', "in .alias");
   d.u.alias.target = expect_name(p, "the aliased function");
   ptx_expect(p, ';', "after .alias");
   p_push(p, &p->decls, d);
}

static void push_vars(ptx_parser *p, const ptx_var_vec *vars)
{
   for (uint32_t i = 0; i < vars->len; i++) {
      ptx_decl d = { .kind = PTX_DECL_VAR, .u.var = vars->data[i] };
      p_push(p, &p->decls, d);
   }
}

static ptx_linkage linkage_of(const ptx_parser *p)
{
   if (ptx_is_dir(p, "visible"))
      return PTX_LINK_VISIBLE;
   if (ptx_is_dir(p, "extern"))
      return PTX_LINK_EXTERN;
   if (ptx_is_dir(p, "weak"))
      return PTX_LINK_WEAK;
   if (ptx_is_dir(p, "common"))
      return PTX_LINK_COMMON;
   return PTX_LINK_NONE;
}

/* One top-level item; the current token is its first. */
static void parse_toplevel(ptx_parser *p)
{
   if (p->tok.kind != PTX_TOK_DIRECTIVE)
      ptx_fail(p, p->tok.loc, "expected a directive at module level, found %s",
             ptx_tok_desc(p, &p->tok));
   ptx_linkage link = linkage_of(p);
   if (link != PTX_LINK_NONE) {
      ptx_next(p);
      if (linkage_of(p) != PTX_LINK_NONE)
         ptx_fail(p, p->tok.loc, "more than one linkage directive");
   } else {
      static const struct { const char *dir; void (*fn)(ptx_parser *); } module_dirs[] = {
         { "version", parse_version }, { "target", parse_target },
         { "address_size", parse_address_size }, { "file", parse_file },
         { "section", parse_section }, { "pragma", parse_module_pragma },
         { "alias", parse_alias },
      };
      for (unsigned i = 0; i < ARRAY_SIZE(module_dirs); i++) {
         if (ptx_is_dir(p, module_dirs[i].dir)) {
            module_dirs[i].fn(p);
            return;
         }
      }
   }
   if (ptx_is_dir(p, "entry") || ptx_is_dir(p, "func")) {
      ptx_func *f = ptx_parse_func(p, link);
      ptx_decl d = { .kind = PTX_DECL_FUNC, .u.func = f };
      p_push(p, &p->decls, d);
      p->cur_func = NULL;
      return;
   }
   unsigned val;
   if (!ptx_is_dir(p, "align") && !ptx_is_dir(p, "attribute") &&
       ptx_word_classify(p->tok.start, p->tok.len, &val) != PTX_WORD_SPACE)
      ptx_fail(p, p->tok.loc, "unknown directive %s at module level", ptx_tok_desc(p, &p->tok));
   ptx_var_vec vars = { 0 };
   ptx_var_decl(p, link, PTX_CTX_TOP, &vars);
   push_vars(p, &vars);
}

/* ---- recovery ---- */

/* Directives that only ever start a top-level item. */
static bool is_toplevel_start(const ptx_token *t)
{
   static const char *const words[] = { "entry", "func", "visible", "weak", "common",
                                        "version", "target", "address_size", "file",
                                        "section", "alias" };
   if (t->kind != PTX_TOK_DIRECTIVE)
      return false;
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      if (ptx_tok_is_word(t, PTX_TOK_DIRECTIVE, words[i]))
         return true;
   return false;
}

static bool is_decl_start(const ptx_token *t)
{
   static const char *const words[] = { "global", "const", "shared", "extern", "tex", "local" };
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      if (ptx_tok_is_word(t, PTX_TOK_DIRECTIVE, words[i]))
         return true;
   return false;
}

/* Raw advance for recovery: lexer errors are skipped silently (the item is
 * already reported), except that an unterminated comment ends the input. */
static void skip_token(ptx_parser *p)
{
   if (p->has_ahead) {
      p->tok = p->ahead;
      p->has_ahead = false;
   } else {
      p->tok = ptx_lex_next(&p->lx);
   }
}

/* Skips to where the next top-level item can start.  p->depth braces were
 * open when the error happened. */
static void recover(ptx_parser *p)
{
   int64_t depth = p->depth;
   bool after_end = false;    /* previous token was ';' or '}' */
   p->depth = 0;
   for (;;) {
      const ptx_token *t = &p->tok;
      if (t->kind == PTX_TOK_EOF)
         return;
      if (is_toplevel_start(t))
         return;
      if (depth <= 0 && after_end && is_decl_start(t))
         return;
      after_end = false;
      if (tok_is(t, '{')) {
         depth++;
      } else if (tok_is(t, '}')) {
         depth--;
         after_end = true;
         if (depth == 0) {
            skip_token(p);
            if (tok_is(&p->tok, ';'))   /* the end of a braced initialiser */
               skip_token(p);
            return;
         }
      } else if (tok_is(t, ';')) {
         after_end = true;
         if (depth <= 0) {
            skip_token(p);
            return;
         }
      }
      skip_token(p);
   }
}

/* Parses one top-level item under the error trap.  Returns false once the
 * parse must stop (out of memory, too many errors). */
static bool parse_guarded(ptx_parser *p)
{
   const char *start = p->tok.start;
   if (setjmp(p->jb) == 0) {
      parse_toplevel(p);
      return true;
   }
   if (p->oom)
      return false;
   ptx_func *f = p->cur_func;
   p->cur_func = NULL;
   if (f && f->name) {
      f->error = p->errors.len ? p->errors.data[p->errors.len - 1].msg : "parse error";
      f->nstmts = 0;
      f->stmts = NULL;
      ptx_decl d = { .kind = PTX_DECL_FUNC, .u.func = f };
      if (!vec_push(p->ar, &p->decls, d)) {
         p->oom = true;
         return false;
      }
   }
   if (p->errors.len >= PTX_MAX_ERRORS) {
      ptx_error_at(p, p->tok.loc, "too many errors, giving up");
      return false;
   }
   if (p->tok.kind == PTX_TOK_ERROR)
      skip_token(p);
   recover(p);
   /* Always make progress: an item that fails on its first token is skipped. */
   if (p->tok.start == start && p->tok.kind != PTX_TOK_EOF)
      skip_token(p);
   /* Land on a token the next item can start with. */
   while (p->tok.kind == PTX_TOK_ERROR)
      skip_token(p);
   return true;
}

/* Fetches the first token, which may itself be a lexer error. */
static bool first_token(ptx_parser *p)
{
   if (setjmp(p->jb) == 0)
      ptx_next(p);
   if (p->oom)
      return false;
   while (p->tok.kind == PTX_TOK_ERROR)
      skip_token(p);
   return true;
}

ptx_module *ptx_parse_module(arena *ar, const char *src, size_t len)
{
   /* The parser lives on the heap: it holds the jmp_buf, and nothing the
    * error path reads is a local of a function that called setjmp. */
   ptx_parser *p = mc_calloc(1, sizeof(*p));
   ptx_module *m = arena_alloc(ar, sizeof(*m));
   if (!p || !m) {
      mc_free(p);
      return NULL;
   }
   p->ar = ar;
   p->m = m;
   m->ar = ar;
   m->address_size = 64;
   ptx_lexer_init(&p->lx, src ? src : "", src ? len : 0);

   bool go = first_token(p);
   while (go && p->tok.kind != PTX_TOK_EOF)
      go = parse_guarded(p);

   bool oom = p->oom;
   m->ndecls = p->decls.len;
   m->decls = p->decls.data;
   m->nerrors = p->errors.len;
   m->errors = p->errors.data;
   m->nfiles = p->files.len;
   m->files = p->files.data;
   ptx_names_free(p);
   mc_free(p->stmts);
   mc_free(p);
   return oom ? NULL : m;
}
