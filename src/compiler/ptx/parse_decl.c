/*
 * parse_decl.c — declarations and functions: variables of every state space
 * with their initialisers, .entry/.func headers with parameters and
 * performance directives, and function bodies (statements other than
 * instructions, which parse_instr.c handles).
 *
 * Declarations (PTX ISA §5.4): after the state space come, in any order,
 * .align N, .v2/.v4/.v8, the type, .ptr (.space) (.align N) on kernel
 * parameters and .attribute(.managed); then names, each optionally with a
 * register range <N>, array dimensions [N][M] (the first may be []) and an
 * initialiser.  Initialisers are flattened: {{1, 2}, {3, 4}} gives four
 * elements.  Address initialisers are sym, sym+off and generic(sym)+off.
 * Sampler/texture initialisers ({ filter_mode = nearest, ... }) are parsed
 * and dropped: texrefs are bound by the host API, not by these fields.
 *
 * Bodies are a flat statement list; nested { } become SCOPE_BEGIN/END.
 * Scopes, labels and declarations are not recursion, so brace nesting
 * depth costs nothing but a counter.
 */
#include "parse_internal.h"

#include <string.h>

typedef VEC(ptx_init) init_vec;

/* ---- declarations ---- */

static uint32_t parse_align(ptx_parser *p)
{
   ptx_loc loc = p->tok.loc;
   uint32_t a = ptx_u32_expr(p, "alignment");
   if (a == 0 || (a & (a - 1)))
      ptx_fail(p, loc, "alignment must be a power of two, not %u", a);
   return a;
}

/* .attribute(.managed) / .attribute(.unified(uuid1, uuid2)) */
static void parse_attribute(ptx_parser *p, ptx_var *v)
{
   ptx_next(p);
   ptx_expect(p, '(', "after .attribute");
   do {
      if (p->tok.kind != PTX_TOK_DIRECTIVE)
         ptx_fail(p, p->tok.loc, "expected an attribute name, found %s", ptx_tok_desc(p, &p->tok));
      bool managed = ptx_is_dir(p, "managed");
      if (!managed && !ptx_is_dir(p, "unified"))
         ptx_fail(p, p->tok.loc, "unknown attribute %s", ptx_tok_desc(p, &p->tok));
      if (managed && v)
         v->managed = true;
      ptx_next(p);
      if (!managed && ptx_accept(p, '(')) {
         ptx_int_expr(p, "unified attribute");
         ptx_expect(p, ',', "in .unified attribute");
         ptx_int_expr(p, "unified attribute");
         ptx_expect(p, ')', "after .unified attribute");
      }
   } while (ptx_accept(p, ','));
   ptx_expect(p, ')', "after .attribute");
}

static void set_space(ptx_parser *p, ptx_var *v, ptx_space s, ptx_loc loc)
{
   if (v->space == PTX_SPACE_NONE)
      v->space = s;
   else if (v->is_ptr && v->ptr_space == PTX_SPACE_NONE)
      v->ptr_space = s;
   else
      ptx_fail(p, loc, "more than one state space in declaration");
}

/* The directives before the first name. */
static void decl_attrs(ptx_parser *p, ptx_var *v)
{
   while (p->tok.kind == PTX_TOK_DIRECTIVE) {
      ptx_loc loc = p->tok.loc;
      unsigned val = 0;
      if (ptx_is_dir(p, "align")) {
         ptx_next(p);
         uint32_t a = parse_align(p);
         *(v->is_ptr ? &v->ptr_align : &v->align) = a;
         continue;
      }
      if (ptx_is_dir(p, "attribute")) {
         parse_attribute(p, v);
         continue;
      }
      if (ptx_is_dir(p, "ptr")) {
         if (v->space != PTX_SPACE_PARAM)
            ptx_fail(p, loc, "'.ptr' is only allowed on .param declarations");
         v->is_ptr = true;
      } else if (ptx_is_dir(p, "reg")) {
         set_space(p, v, PTX_SPACE_REG, loc);
      } else {
         switch (ptx_word_classify(p->tok.start, p->tok.len, &val)) {
         case PTX_WORD_SPACE:
            set_space(p, v, (ptx_space)val, loc);
            break;
         case PTX_WORD_TYPE:
            if (v->type != PTX_T_NONE)
               ptx_fail(p, loc, "more than one type in declaration");
            v->type = (ptx_type)val;
            break;
         case PTX_WORD_VEC:
            if (v->vec)
               ptx_fail(p, loc, "more than one vector width in declaration");
            v->vec = (uint8_t)val;
            break;
         default:
            ptx_fail(p, loc, "unexpected %s in declaration", ptx_tok_desc(p, &p->tok));
         }
      }
      ptx_next(p);
   }
}

static const char *expect_ident(ptx_parser *p, const char *what)
{
   if (p->tok.kind != PTX_TOK_IDENT)
      ptx_fail(p, p->tok.loc, "expected %s, found %s", what, ptx_tok_desc(p, &p->tok));
   const char *s = ptx_intern(p, p->tok.start, p->tok.len)->str;
   ptx_next(p);
   return s;
}

/* Shape of an initialiser: the array dimensions, then the vector width.
 * A braced sub-list at depth k >= 1 stands for shape[k..] and is padded
 * with zeros to that many elements, so {{1}, {4, 5}} for a [2][2] array
 * flattens to 1, 0, 4, 5 (C's rule).  Padding after the last explicit
 * element is dropped again: trailing elements are zero anyway. */
typedef struct init_state {
   init_vec v;
   VEC(struct ptx_field) fields;
   uint32_t explicit_len;      /* elements up to the last one written */
   unsigned nshape;
   uint64_t sub[PTX_MAX_DIMS + 2]; /* sub[k]: elements per entry of level k */
} init_state;

/* sym, sym+off, generic(sym)+off */
static void init_address(ptx_parser *p, ptx_init *e)
{
   e->kind = PTX_INIT_SYM;
   if (ptx_tok_is_word(&p->tok, PTX_TOK_IDENT, "generic") && tok_is(ptx_peek(p), '(')) {
      ptx_next(p);
      ptx_next(p);
      e->generic = true;
      e->sym = expect_ident(p, "a variable name in generic()");
      e->offset = ptx_offset(p);
      ptx_expect(p, ')', "to close generic(");
   } else {
      e->sym = expect_ident(p, "a name");
   }
   e->offset += ptx_offset(p);
}

/* 0xFF00(x): byte k of an address or constant (PTX ISA §5.4.4, mask()). */
static void init_mask(ptx_parser *p, ptx_init *e)
{
   ptx_loc loc = p->tok.loc;
   uint64_t mask = p->tok.ival;
   unsigned shift = 0;
   while (shift < 64 && mask >> shift && !((mask >> shift) & 1))
      shift += 8;
   if (shift >= 64 || mask >> shift != 0xFF)
      ptx_fail(p, loc, "mask must be 0xFF shifted by a multiple of 8 bits");
   ptx_next(p);
   ptx_next(p);   /* '(' */
   if (p->tok.kind == PTX_TOK_IDENT) {
      init_address(p, e);
      e->mask = mask;
   } else {
      int64_t v = ptx_int_expr(p, "masked constant");
      e->bits = ((uint64_t)v & mask) >> shift;
   }
   ptx_expect(p, ')', "to close the mask");
}

static void init_elem(ptx_parser *p, init_state *st)
{
   ptx_init e = { .kind = PTX_INIT_INT };
   if (p->tok.kind == PTX_TOK_INT && tok_is(ptx_peek(p), '(')) {
      init_mask(p, &e);
   } else if (p->tok.kind == PTX_TOK_IDENT) {
      const ptx_token *n = ptx_peek(p);
      if (tok_is(n, '=')) {          /* samplerref field: name = value */
         struct ptx_field f = { ptx_intern(p, p->tok.start, p->tok.len)->str, NULL };
         ptx_next(p);
         ptx_next(p);
         if (p->tok.kind == PTX_TOK_IDENT) {
            f.value = ptx_intern(p, p->tok.start, p->tok.len)->str;
            ptx_next(p);
         } else {
            f.value = ptx_pprintf(p, "%lld", (long long)ptx_int_expr(p, "field value"));
         }
         p_push(p, &st->fields, f);
         return;
      }
      init_address(p, &e);
   } else {
      ptx_cval v = ptx_expr(p);
      e.bits = v.bits;
      e.kind = v.kind == PTX_CV_F32   ? PTX_INIT_F32
               : v.kind == PTX_CV_F64 ? PTX_INIT_F64
                                      : PTX_INIT_INT;
   }
   p_push(p, &st->v, e);
   st->explicit_len = st->v.len;
}

static void init_list(ptx_parser *p, init_state *st, unsigned depth)
{
   if (!p_is(p, '{')) {
      init_elem(p, st);
      return;
   }
   if (depth >= 64)
      ptx_fail(p, p->tok.loc, "initialiser nested too deeply");
   uint32_t start = st->v.len;
   ptx_open_brace(p);
   if (!p_is(p, '}')) {
      do
         init_list(p, st, depth + 1);
      while (ptx_accept(p, ','));
   }
   ptx_close_brace(p, "to close the initialiser");
   /* a list at depth d >= 1 is one entry of the level above: sub[d-1] elements */
   if (depth >= 1 && depth <= st->nshape) {
      ptx_init zero = { .kind = PTX_INIT_INT };
      if (st->v.len - start > st->sub[depth - 1])
         ptx_fail(p, p->tok.loc, "too many elements in a nested initialiser");
      while (st->v.len - start < st->sub[depth - 1])
         p_push(p, &st->v, zero);
   }
}

static void parse_init(ptx_parser *p, ptx_var *v)
{
   init_state st = { .nshape = 0 };
   uint64_t shape[PTX_MAX_DIMS + 1];
   for (unsigned i = 0; i < v->ndims; i++)
      shape[st.nshape++] = v->dims[i];
   if (v->vec)
      shape[st.nshape++] = v->vec;
   uint64_t n = 1;
   for (unsigned k = st.nshape; k-- > 0;) {
      st.sub[k] = n;
      n = shape[k] && n <= UINT32_MAX / shape[k] ? n * shape[k] : UINT32_MAX;
   }
   ptx_loc loc = p->tok.loc;
   init_list(p, &st, 0);
   bool too_many = st.nshape ? !v->unsized && st.explicit_len &&
                                  (st.explicit_len - 1) / st.sub[0] >= shape[0]
                             : st.explicit_len > 1;
   if (too_many)
      ptx_fail(p, loc, "initialiser has more elements than '%s'", v->name);
   if (st.fields.len && st.v.len)
      ptx_fail(p, loc, "initialiser of '%s' mixes 'name = value' fields and values", v->name);
   v->init = st.v.data;
   v->ninit = st.explicit_len;
   v->fields = st.fields.data;
   v->nfields = st.fields.len;
}

static void parse_dims(ptx_parser *p, ptx_var *v)
{
   while (p_is(p, '[')) {
      ptx_loc loc = p->tok.loc;
      if (v->ndims >= PTX_MAX_DIMS)
         ptx_fail(p, loc, "more than %d array dimensions", PTX_MAX_DIMS);
      ptx_next(p);
      if (p_is(p, ']')) {
         if (v->ndims)
            ptx_fail(p, loc, "only the first array dimension may be unsized");
         v->unsized = true;
         v->dims[v->ndims++] = 0;
      } else {
         ptx_loc eloc = p->tok.loc;
         int64_t n = ptx_int_expr(p, "array dimension");
         if (n <= 0)
            ptx_fail(p, eloc, "array dimension must be positive, not %lld", (long long)n);
         v->dims[v->ndims++] = (uint64_t)n;
      }
      ptx_expect(p, ']', "after array dimension");
   }
}

/* name [<N>] [dims] [= init] */
static ptx_var *decl_name(ptx_parser *p, const ptx_var *tmpl, ptx_decl_ctx ctx)
{
   ptx_var *v = ptx_palloc(p, sizeof(*v));
   *v = *tmpl;
   v->loc = p->tok.loc;
   if (p->tok.kind != PTX_TOK_IDENT)
      ptx_fail(p, p->tok.loc, "expected a name in declaration, found %s", ptx_tok_desc(p, &p->tok));
   ptx_name *n = ptx_intern(p, p->tok.start, p->tok.len);
   v->name = n->str;
   ptx_next(p);
   if (p_is(p, '<')) {
      ptx_loc loc = p->tok.loc;
      if (v->space != PTX_SPACE_REG)
         ptx_fail(p, loc, "only .reg declarations can use a <N> range");
      ptx_next(p);
      ptx_loc nloc = p->tok.loc;
      ptx_cval c = ptx_expr_prec(p, PTX_PREC_SHIFT);
      if (c.kind == PTX_CV_F32 || c.kind == PTX_CV_F64 || (int64_t)c.bits <= 0 ||
          c.bits > (1u << 24))
         ptx_fail(p, nloc, "register range must be an integer in 1..16777216");
      v->range_count = (uint32_t)c.bits;
      ptx_expect(p, '>', "to close the register range");
   }
   parse_dims(p, v);
   if (p_is(p, '=')) {
      if (ctx == PTX_CTX_PARAM || ctx == PTX_CTX_PROTO || v->space == PTX_SPACE_REG)
         ptx_fail(p, p->tok.loc, "'%s' cannot have an initialiser", v->name);
      ptx_next(p);
      parse_init(p, v);
   }
   if (v->space == PTX_SPACE_REG) {
      if (v->range_count) {
         n->range_func = p->func_id;
         n->range_count = v->range_count;
      } else {
         n->reg_func = p->func_id;
      }
   }
   return v;
}

void ptx_var_decl(ptx_parser *p, ptx_linkage linkage, ptx_decl_ctx ctx, ptx_var_vec *out)
{
   ptx_var tmpl = { .linkage = linkage, .loc = p->tok.loc };
   ptx_loc start = p->tok.loc;
   decl_attrs(p, &tmpl);
   if (tmpl.space == PTX_SPACE_NONE)
      ptx_fail(p, start, "declaration without a state space");
   if ((ctx == PTX_CTX_PARAM || ctx == PTX_CTX_PROTO) && tmpl.space != PTX_SPACE_PARAM &&
       tmpl.space != PTX_SPACE_REG)
      ptx_fail(p, start, "parameters must be .param or .reg");
   if (tmpl.type == PTX_T_NONE)
      ptx_fail(p, p->tok.loc, "declaration without a type");
   for (;;) {
      p_push(p, out, decl_name(p, &tmpl, ctx));
      if (ctx == PTX_CTX_PARAM || ctx == PTX_CTX_PROTO || !ptx_accept(p, ','))
         break;
   }
   if (ctx == PTX_CTX_TOP || ctx == PTX_CTX_BODY)
      ptx_expect(p, ';', "after declaration");
}

/* ---- functions ---- */

static void param_list(ptx_parser *p, ptx_decl_ctx ctx, ptx_var ***list, uint32_t *n)
{
   ptx_var_vec vars = { 0 };
   ptx_expect(p, '(', NULL);
   if (!p_is(p, ')')) {
      do {
         if (p->tok.kind != PTX_TOK_DIRECTIVE)
            ptx_fail(p, p->tok.loc, "expected a parameter declaration, found %s",
                   ptx_tok_desc(p, &p->tok));
         ptx_var_decl(p, PTX_LINK_NONE, ctx, &vars);
      } while (ptx_accept(p, ','));
   }
   ptx_expect(p, ')', "to close the parameter list");
   *list = vars.data;
   *n = vars.len;
}

static void dim3(ptx_parser *p, uint32_t v[3], const char *what)
{
   v[0] = ptx_u32_expr(p, what);
   v[1] = v[2] = 1;
   for (int i = 1; i < 3 && ptx_accept(p, ','); i++)
      v[i] = ptx_u32_expr(p, what);
}

/* Performance directives and other attributes between header and body.
 * Returns false at the first token that is none of them. */
static bool func_directive(ptx_parser *p, ptx_func *f)
{
   if (p->tok.kind != PTX_TOK_DIRECTIVE)
      return false;
   ptx_token t = p->tok;
   if (ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "explicitcluster")) {
      f->explicitcluster = true;
   } else if (ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "noreturn")) {
      f->noreturn = true;
   } else if (ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "blocksareclusters")) {
      /* accepted, no effect on translation */
   } else if (ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "pragma")) {
      ptx_next(p);
      do {
         if (p->tok.kind != PTX_TOK_STRING)
            ptx_fail(p, p->tok.loc, "expected a string after .pragma");
         ptx_next(p);
      } while (ptx_accept(p, ','));
      ptx_expect(p, ';', "after .pragma");
      return true;
   } else {
      static const char *const one[] = { "minnctapersm", "maxnctapersm", "maxnreg",
                                         "maxclusterrank", "abi_preserve",
                                         "abi_preserve_control" };
      uint32_t *dst[] = { &f->minnctapersm, &f->maxnctapersm, &f->maxnreg,
                          &f->maxclusterrank, NULL, NULL };
      for (unsigned i = 0; i < ARRAY_SIZE(one); i++) {
         if (ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, one[i])) {
            ptx_next(p);
            uint32_t v = ptx_u32_expr(p, one[i]);
            if (dst[i])
               *dst[i] = v;
            return true;
         }
      }
      uint32_t *d3 = ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "maxntid")             ? f->maxntid
                     : ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "reqntid")           ? f->reqntid
                     : ptx_tok_is_word(&t, PTX_TOK_DIRECTIVE, "reqnctapercluster") ? f->reqnctapercluster
                                                                               : NULL;
      if (!d3)
         return false;
      ptx_next(p);
      dim3(p, d3, "thread count");
      return true;
   }
   ptx_next(p);
   return true;
}

/* .callprototype [(ret)] _ [(params)] [.noreturn] ; — the label is the name */
static ptx_func *callprototype(ptx_parser *p, const char *name, ptx_loc loc)
{
   ptx_func *f = ptx_palloc(p, sizeof(*f));
   f->loc = loc;
   f->name = name;
   ptx_next(p);
   if (p_is(p, '('))
      param_list(p, PTX_CTX_PROTO, &f->rets, &f->nret);
   if (!ptx_tok_is_word(&p->tok, PTX_TOK_IDENT, "_"))
      ptx_fail(p, p->tok.loc, "expected '_' in .callprototype, found %s", ptx_tok_desc(p, &p->tok));
   ptx_next(p);
   if (p_is(p, '('))
      param_list(p, PTX_CTX_PROTO, &f->params, &f->nparams);
   if (ptx_is_dir(p, "noreturn")) {
      f->noreturn = true;
      ptx_next(p);
   }
   ptx_expect(p, ';', "after .callprototype");
   return f;
}

static void label_list(ptx_parser *p, ptx_stmt *s)
{
   VEC(const char *) labels = { 0 };
   ptx_next(p);
   do
      p_push(p, &labels, expect_ident(p, "a label"));
   while (ptx_accept(p, ','));
   ptx_expect(p, ';', "after the target list");
   s->u.targets.labels = labels.data;
   s->u.targets.n = labels.len;
}

/* Statements collect in a heap scratch list and are copied to the arena
 * once per function at its exact size (arena VECs would leave every
 * outgrown copy behind). */
static void push_stmt(ptx_parser *p, ptx_stmt s)
{
   if (p->nstmts == p->stmts_cap) {
      uint32_t cap = p->stmts_cap ? p->stmts_cap * 2 : 256;
      ptx_stmt *n = cap > p->stmts_cap ? mc_realloc(p->stmts, cap * sizeof(*n)) : NULL;
      if (!n) {
         p->oom = true;
         longjmp(p->jb, 1);
      }
      p->stmts = n;
      p->stmts_cap = cap;
   }
   p->stmts[p->nstmts++] = s;
}

/* name: — a label, or the name of a .branchtargets/.calltargets/.callprototype */
static void labelled(ptx_parser *p)
{
   ptx_stmt s = { .kind = PTX_STMT_LABEL, .loc = p->tok.loc };
   const char *name = ptx_intern(p, p->tok.start, p->tok.len)->str;
   ptx_next(p);
   ptx_next(p);   /* ':' */
   if (ptx_is_dir(p, "branchtargets") || ptx_is_dir(p, "calltargets")) {
      s.kind = ptx_is_dir(p, "branchtargets") ? PTX_STMT_BRANCHTARGETS : PTX_STMT_CALLTARGETS;
      s.u.targets.name = name;
      label_list(p, &s);
   } else if (ptx_is_dir(p, "callprototype")) {
      s.kind = PTX_STMT_CALLPROTOTYPE;
      s.u.proto = callprototype(p, name, s.loc);
   } else {
      s.u.label = name;
   }
   push_stmt(p, s);
}

/* .loc file line col [, function_name label] [, inlined_at file line col] */
static void loc_directive(ptx_parser *p)
{
   ptx_stmt s = { .kind = PTX_STMT_LOC, .loc = p->tok.loc };
   ptx_next(p);
   s.u.dloc.file = ptx_u32_expr(p, ".loc file");
   s.u.dloc.line = ptx_u32_expr(p, ".loc line");
   s.u.dloc.col = ptx_u32_expr(p, ".loc column");
   while (ptx_accept(p, ',')) {
      if (ptx_tok_is_word(&p->tok, PTX_TOK_IDENT, "function_name")) {
         ptx_next(p);
         expect_ident(p, "a label after function_name");
      } else if (ptx_tok_is_word(&p->tok, PTX_TOK_IDENT, "inlined_at")) {
         ptx_next(p);
         for (int i = 0; i < 3; i++)
            ptx_u32_expr(p, "inlined_at");
      } else {
         ptx_fail(p, p->tok.loc, "expected function_name or inlined_at in .loc, found %s",
                ptx_tok_desc(p, &p->tok));
      }
   }
   push_stmt(p, s);
}

static void pragma_stmt(ptx_parser *p)
{
   ptx_next(p);
   do {
      if (p->tok.kind != PTX_TOK_STRING)
         ptx_fail(p, p->tok.loc, "expected a string after .pragma, found %s",
                ptx_tok_desc(p, &p->tok));
      ptx_stmt s = { .kind = PTX_STMT_PRAGMA, .loc = p->tok.loc };
      s.u.pragma = ptx_pstrndup(p, p->tok.start, p->tok.len);
      push_stmt(p, s);
      ptx_next(p);
   } while (ptx_accept(p, ','));
   ptx_expect(p, ';', "after .pragma");
}

static bool is_body_decl(const ptx_parser *p)
{
   static const char *const words[] = { "reg", "local", "shared", "param", "global",
                                         "const", "tex" };
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      if (ptx_is_dir(p, words[i]))
         return true;
   return false;
}

static void body_directive(ptx_parser *p)
{
   if (ptx_is_dir(p, "loc")) {
      loc_directive(p);
      return;
   }
   if (ptx_is_dir(p, "pragma")) {
      pragma_stmt(p);
      return;
   }
   ptx_linkage link = PTX_LINK_NONE;
   if (ptx_is_dir(p, "extern")) {
      link = PTX_LINK_EXTERN;
      ptx_next(p);
   }
   if (!is_body_decl(p))
      ptx_fail(p, p->tok.loc, "unexpected directive %s in function body", ptx_tok_desc(p, &p->tok));
   ptx_var_vec vars = { 0 };
   ptx_var_decl(p, link, PTX_CTX_BODY, &vars);
   for (uint32_t i = 0; i < vars.len; i++) {
      ptx_stmt s = { .kind = PTX_STMT_VAR, .loc = vars.data[i]->loc, .u.var = vars.data[i] };
      push_stmt(p, s);
   }
}

static void body(ptx_parser *p, ptx_func *f)
{
   p->nstmts = 0;   /* bodies do not nest: one scratch list serves all */
   uint32_t base = p->depth;
   ptx_open_brace(p);
   f->has_body = true;
   for (;;) {
      ptx_stmt s = { .loc = p->tok.loc };
      if (p->tok.kind == PTX_TOK_EOF)
         ptx_fail(p, p->tok.loc, "unexpected end of input in the body of '%s': missing '}'",
                f->name);
      if (p_is(p, '}')) {
         ptx_close_brace(p, NULL);
         if (p->depth == base)
            break;
         s.kind = PTX_STMT_SCOPE_END;
         push_stmt(p, s);
      } else if (p_is(p, '{')) {
         ptx_open_brace(p);
         s.kind = PTX_STMT_SCOPE_BEGIN;
         push_stmt(p, s);
      } else if (p->tok.kind == PTX_TOK_IDENT && tok_is(ptx_peek(p), ':')) {
         labelled(p);
      } else if (p->tok.kind == PTX_TOK_IDENT || p_is(p, '@')) {
         s.kind = PTX_STMT_INSTR;
         s.u.instr = ptx_parse_instr(p);
         push_stmt(p, s);
      } else if (p->tok.kind == PTX_TOK_DIRECTIVE) {
         body_directive(p);
      } else {
         ptx_fail(p, p->tok.loc, "expected an instruction, label or directive, found %s",
                ptx_tok_desc(p, &p->tok));
      }
   }
   f->nstmts = p->nstmts;
   f->stmts = p->nstmts ? ptx_palloc(p, p->nstmts * sizeof(ptx_stmt)) : NULL;
   if (p->nstmts)
      memcpy(f->stmts, p->stmts, p->nstmts * sizeof(ptx_stmt));
}

ptx_func *ptx_parse_func(ptx_parser *p, ptx_linkage linkage)
{
   ptx_func *f = ptx_palloc(p, sizeof(*f));
   f->loc = p->tok.loc;
   f->is_entry = ptx_is_dir(p, "entry");
   f->linkage = linkage;
   p->func_id++;
   ptx_next(p);
   while (ptx_is_dir(p, "noreturn") || ptx_is_dir(p, "attribute")) {
      if (ptx_is_dir(p, "noreturn")) {
         f->noreturn = true;
         ptx_next(p);
      } else {
         parse_attribute(p, NULL);
      }
   }
   if (!f->is_entry && p_is(p, '('))
      param_list(p, PTX_CTX_PARAM, &f->rets, &f->nret);
   f->name = expect_ident(p, f->is_entry ? "a kernel name" : "a function name");
   p->cur_func = f;
   if (p_is(p, '('))
      param_list(p, PTX_CTX_PARAM, &f->params, &f->nparams);
   while (func_directive(p, f))
      ;
   if (ptx_accept(p, ';'))
      return f;
   if (!p_is(p, '{'))
      ptx_fail(p, p->tok.loc, "expected '{' or ';' after the header of '%s', found %s", f->name,
             ptx_tok_desc(p, &p->tok));
   body(p, f);
   return f;
}
