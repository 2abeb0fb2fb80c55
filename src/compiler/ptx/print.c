/*
 * print.c — AST → PTX text.
 *
 * The output is valid PTX that parses back to the same AST (the unit tests
 * check parse(print(parse(x))) == parse(x) over a corpus), so it is both a
 * debugging aid and the parser's round-trip oracle.  It is not a pretty
 * printer of the input: comments, .section bodies, sampler fields and the
 * original modifier order are gone; numbers come out in one canonical
 * spelling (integers in decimal, floats as 0f/0d bit patterns).
 *
 * Instruction suffixes are printed as modifiers, then state spaces, then
 * vector width, then types — the order in which ptxas documents them for
 * nearly every instruction (cvta.to.global.u64, mma.sync.aligned.m16n8k16
 * .row.col.f32.f16.f16.f32, cp.async.ca.shared.global).  The exception: a
 * first modifier that would extend the opcode when read back (st + .bulk
 * is st.bulk) goes after the types instead.
 */
#include "parse_internal.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const linkage_names[] = {
   [PTX_LINK_NONE] = "", [PTX_LINK_VISIBLE] = ".visible ", [PTX_LINK_EXTERN] = ".extern ",
   [PTX_LINK_WEAK] = ".weak ", [PTX_LINK_COMMON] = ".common ",
};

/* Signed decimal that parses back to the same value and signedness. */
static void put_int(strbuf *b, int64_t v)
{
   if (v == INT64_MIN)
      strbuf_puts(b, "(-9223372036854775807-1)");
   else
      strbuf_printf(b, "%" PRId64, v);
}

/* "+16", "+-16" (ptxas rejects "[%r1-16]") or nothing. */
static void put_offset(strbuf *b, int64_t off)
{
   if (off) {
      strbuf_putc(b, '+');
      put_int(b, off);
   }
}

static void put_init(strbuf *b, const ptx_init *e)
{
   switch (e->kind) {
   case PTX_INIT_INT:
      put_int(b, (int64_t)e->bits);
      break;
   case PTX_INIT_F32:
      strbuf_printf(b, "0f%08" PRIX32, (uint32_t)e->bits);
      break;
   case PTX_INIT_F64:
      strbuf_printf(b, "0d%016" PRIX64, e->bits);
      break;
   case PTX_INIT_SYM:
      if (e->mask)
         strbuf_printf(b, "0x%" PRIX64 "(", e->mask);
      strbuf_printf(b, e->generic ? "generic(%s)" : "%s", e->sym);
      put_offset(b, e->offset);
      if (e->mask)
         strbuf_putc(b, ')');
      break;
   }
}

/* {e0, e1, ...} for level k: entries of chunk[k] elements each. */
static void put_init_level(strbuf *b, const ptx_init *init, uint64_t n, const uint64_t *chunk,
                           unsigned nshape, unsigned k)
{
   strbuf_putc(b, '{');
   uint64_t step = k < nshape ? chunk[k] : 1;
   for (uint64_t i = 0; i < n; i += step) {
      if (i)
         strbuf_puts(b, ", ");
      if (step == 1)
         put_init(b, &init[i]);
      else
         put_init_level(b, init + i, MC_MIN(step, n - i), chunk, nshape, k + 1);
   }
   strbuf_putc(b, '}');
}

/* One declaration without the trailing ';' (shared by variables, statements
 * and parameters). */
static void put_var(strbuf *b, const ptx_var *v)
{
   strbuf_puts(b, linkage_names[v->linkage]);
   strbuf_printf(b, ".%s", ptx_space_names[v->space]);
   if (v->managed)
      strbuf_puts(b, " .attribute(.managed)");
   if (v->align)
      strbuf_printf(b, " .align %u", v->align);
   if (v->vec)
      strbuf_printf(b, " .v%u", v->vec);
   strbuf_printf(b, " .%s", ptx_type_names[v->type]);
   if (v->is_ptr) {
      strbuf_puts(b, " .ptr");
      if (v->ptr_space)
         strbuf_printf(b, " .%s", ptx_space_names[v->ptr_space]);
      if (v->ptr_align)
         strbuf_printf(b, " .align %u", v->ptr_align);
   }
   strbuf_printf(b, " %s", v->name);
   if (v->range_count)
      strbuf_printf(b, "<%u>", v->range_count);
   for (unsigned i = 0; i < v->ndims; i++) {
      if (v->unsized && i == 0)
         strbuf_puts(b, "[]");
      else
         strbuf_printf(b, "[%" PRIu64 "]", v->dims[i]);
   }
   if (v->nfields) {
      strbuf_puts(b, " = {");
      for (uint32_t i = 0; i < v->nfields; i++)
         strbuf_printf(b, "%s%s = %s", i ? ", " : "", v->fields[i].name, v->fields[i].value);
      strbuf_putc(b, '}');
      return;
   }
   if (!v->ninit)
      return;
   if (!v->ndims && !v->vec) {
      strbuf_puts(b, " = ");
      put_init(b, &v->init[0]);
      return;
   }
   /* Nested braces follow the shape (dims, then vector width): ptxas wants
    * {{1, 2}, {3, 4}} for a [2][2] array, not a flat list. */
   uint64_t shape[PTX_MAX_DIMS + 1];
   unsigned nshape = 0;
   for (unsigned i = 0; i < v->ndims; i++)
      shape[nshape++] = v->dims[i];
   if (v->vec)
      shape[nshape++] = v->vec;
   uint64_t chunk[PTX_MAX_DIMS + 1], n = 1;
   for (unsigned k = nshape; k-- > 0;) {
      chunk[k] = n;      /* elements per entry at level k */
      n = shape[k] && n <= UINT32_MAX / shape[k] ? n * shape[k] : UINT32_MAX;
   }
   strbuf_puts(b, " = ");
   put_init_level(b, v->init, v->ninit, chunk, nshape, 0);
}

/* ---- operands ---- */

static void put_operand(strbuf *b, const ptx_operand *o);

static void put_list(strbuf *b, const ptx_operand *o, char open, char close)
{
   strbuf_putc(b, open);
   for (uint32_t i = 0; i < o->u.vec.n; i++) {
      if (i)
         strbuf_puts(b, ", ");
      put_operand(b, o->u.vec.elems[i]);
   }
   strbuf_putc(b, close);
}

static void put_address(strbuf *b, const ptx_operand *o)
{
   const ptx_operand *base = o->u.addr.base;
   strbuf_putc(b, '[');
   if (base && base->kind == PTX_OPND_VEC) {
      for (uint32_t i = 0; i < base->u.vec.n; i++) {
         if (i)
            strbuf_puts(b, ", ");
         put_operand(b, base->u.vec.elems[i]);
      }
   } else if (base) {
      put_operand(b, base);
   }
   if (o->u.addr.vec) {
      strbuf_puts(b, ", ");
      put_operand(b, o->u.addr.vec);
   }
   if (base)
      put_offset(b, o->u.addr.offset);
   else
      put_int(b, o->u.addr.offset);
   strbuf_putc(b, ']');
   if (o->u.addr.unified)
      strbuf_puts(b, ".unified");
}

static void put_operand(strbuf *b, const ptx_operand *o)
{
   if (o->negate)
      strbuf_putc(b, '!');
   if (o->neg_value)
      strbuf_putc(b, '-');
   switch (o->kind) {
   case PTX_OPND_REG:
      strbuf_puts(b, o->u.reg);
      if (o->comp >= 0 && o->comp < 4)
         strbuf_printf(b, ".%c", "xyzw"[o->comp]);
      if (o->sel)
         strbuf_printf(b, ".%s", o->sel);
      break;
   case PTX_OPND_IMM_INT:
      if (o->u.imm.is_unsigned)
         strbuf_printf(b, "%" PRIu64 "U", o->u.imm.bits);
      else
         put_int(b, (int64_t)o->u.imm.bits);
      break;
   case PTX_OPND_IMM_F32:
      strbuf_printf(b, "0f%08" PRIX32, (uint32_t)o->u.imm.bits);
      break;
   case PTX_OPND_IMM_F64:
      strbuf_printf(b, "0d%016" PRIX64, o->u.imm.bits);
      break;
   case PTX_OPND_SYM:
      strbuf_puts(b, o->u.sym.name);
      put_offset(b, o->u.sym.offset);
      break;
   case PTX_OPND_ADDR:
      put_address(b, o);
      break;
   case PTX_OPND_VEC:
      put_list(b, o, '{', '}');
      break;
   case PTX_OPND_SINK:
      strbuf_putc(b, '_');
      break;
   case PTX_OPND_PARAMLIST:
      put_list(b, o, '(', ')');
      break;
   }
}

/* ---- instructions and statements ---- */

static void put_call_operands(strbuf *b, const ptx_instr *in)
{
   const ptx_operand *rets = in->opnds[0], *args = in->nopnds > 2 ? in->opnds[2] : NULL;
   strbuf_putc(b, ' ');
   if (rets->u.vec.n) {
      put_operand(b, rets);
      strbuf_puts(b, ", ");
   }
   put_operand(b, in->opnds[1]);
   if (args && args->u.vec.n) {
      strbuf_puts(b, ", ");
      put_operand(b, args);
   }
   if (in->nopnds > 3) {
      strbuf_puts(b, ", ");
      put_operand(b, in->opnds[3]);
   }
}

/* Would "opcode.word" read back as (the start of) a longer opcode?  Then
 * st + .bulk, printed first, would come back as st.bulk. */
static bool extends_opcode(ptx_opcode op, const char *word)
{
   char buf[96];
   int n = snprintf(buf, sizeof(buf), "%s.%s", ptx_opcode_names[op], word);
   bool longer = false;
   if (n < 0 || (size_t)n >= sizeof(buf))
      return false;
   return ptx_opcode_prefix_lookup(buf, (size_t)n, &longer) != PTX_OP_INVALID || longer;
}

static void put_mods(strbuf *b, const ptx_instr *in)
{
   for (unsigned i = 0; i < in->nmods; i++)
      strbuf_printf(b, ".%s", ptx_mod_names[in->mods[i]]);
}

static void put_instr(strbuf *b, const ptx_instr *in)
{
   if (in->guard)
      strbuf_printf(b, "@%s%s ", in->guard_negate ? "!" : "", in->guard);
   strbuf_puts(b, ptx_opcode_names[in->op]);
   bool mods_last = in->nmods && extends_opcode(in->op, ptx_mod_names[in->mods[0]]);
   if (!mods_last)
      put_mods(b, in);
   if (in->space)
      strbuf_printf(b, ".%s", in->space_spelling ? in->space_spelling : ptx_space_names[in->space]);
   if (in->src_space)
      strbuf_printf(b, ".%s", in->src_space_spelling ? in->src_space_spelling
                                                    : ptx_space_names[in->src_space]);
   if (in->vec)
      strbuf_printf(b, ".v%u", in->vec);
   for (unsigned i = 0; i < in->ntypes; i++)
      strbuf_printf(b, ".%s", ptx_type_names[in->types[i]]);
   if (mods_last)
      put_mods(b, in);
   if (in->op == PTX_OP_CALL && in->nopnds >= 2) {
      put_call_operands(b, in);
   } else {
      for (unsigned i = 0; i < in->nopnds; i++) {
         strbuf_puts(b, i == 0 ? " " : (i == 1 && in->has_pair_dst) ? "|" : ", ");
         put_operand(b, in->opnds[i]);
      }
   }
   strbuf_putc(b, ';');
}

/* (a, b) on one line, or one parameter per line when sep is "\n\t". */
static void put_params(strbuf *b, ptx_var *const *vars, uint32_t n, const char *sep)
{
   bool lines = *sep == '\n';
   strbuf_putc(b, '(');
   for (uint32_t i = 0; i < n; i++) {
      strbuf_puts(b, i ? "," : "");
      strbuf_puts(b, i || lines ? sep : "");
      put_var(b, vars[i]);
   }
   strbuf_puts(b, n && lines ? "\n)" : ")");
}

static void put_targets(strbuf *b, const ptx_stmt *s, const char *dir)
{
   strbuf_printf(b, "%s: .%s ", s->u.targets.name, dir);
   for (uint32_t i = 0; i < s->u.targets.n; i++)
      strbuf_printf(b, "%s%s", i ? ", " : "", s->u.targets.labels[i]);
   strbuf_putc(b, ';');
}

static void put_stmt(strbuf *b, const ptx_stmt *s, unsigned indent)
{
   if (s->kind != PTX_STMT_LABEL)
      for (unsigned i = 0; i < indent; i++)
         strbuf_putc(b, '\t');
   switch (s->kind) {
   case PTX_STMT_INSTR:
      put_instr(b, s->u.instr);
      break;
   case PTX_STMT_LABEL:
      strbuf_printf(b, "%s:", s->u.label);
      break;
   case PTX_STMT_VAR:
      put_var(b, s->u.var);
      strbuf_putc(b, ';');
      break;
   case PTX_STMT_SCOPE_BEGIN:
      strbuf_putc(b, '{');
      break;
   case PTX_STMT_SCOPE_END:
      strbuf_putc(b, '}');
      break;
   case PTX_STMT_BRANCHTARGETS:
      put_targets(b, s, "branchtargets");
      break;
   case PTX_STMT_CALLTARGETS:
      put_targets(b, s, "calltargets");
      break;
   case PTX_STMT_CALLPROTOTYPE: {
      const ptx_func *f = s->u.proto;
      strbuf_printf(b, "%s: .callprototype ", f->name);
      if (f->nret) {
         put_params(b, f->rets, f->nret, " ");
         strbuf_putc(b, ' ');
      }
      strbuf_puts(b, "_ ");
      put_params(b, f->params, f->nparams, " ");
      strbuf_puts(b, f->noreturn ? " .noreturn;" : ";");
      break;
   }
   case PTX_STMT_PRAGMA:
      strbuf_printf(b, ".pragma \"%s\";", s->u.pragma);
      break;
   case PTX_STMT_LOC:
      strbuf_printf(b, ".loc %u %u %u", s->u.dloc.file, s->u.dloc.line, s->u.dloc.col);
      break;
   }
   strbuf_putc(b, '\n');
}

static void put_dim3(strbuf *b, const char *name, const uint32_t v[3])
{
   if (v[0])
      strbuf_printf(b, ".%s %u, %u, %u\n", name, v[0], v[1], v[2]);
}

static void put_func(strbuf *b, const ptx_func *f)
{
   strbuf_printf(b, "%s.%s ", linkage_names[f->linkage], f->is_entry ? "entry" : "func");
   if (f->nret) {
      put_params(b, f->rets, f->nret, " ");
      strbuf_putc(b, ' ');
   }
   strbuf_puts(b, f->name);
   put_params(b, f->params, f->nparams, "\n\t");
   strbuf_putc(b, '\n');
   if (f->noreturn)
      strbuf_puts(b, ".noreturn\n");
   put_dim3(b, "maxntid", f->maxntid);
   put_dim3(b, "reqntid", f->reqntid);
   put_dim3(b, "reqnctapercluster", f->reqnctapercluster);
   if (f->minnctapersm)
      strbuf_printf(b, ".minnctapersm %u\n", f->minnctapersm);
   if (f->maxnctapersm)
      strbuf_printf(b, ".maxnctapersm %u\n", f->maxnctapersm);
   if (f->maxnreg)
      strbuf_printf(b, ".maxnreg %u\n", f->maxnreg);
   if (f->maxclusterrank)
      strbuf_printf(b, ".maxclusterrank %u\n", f->maxclusterrank);
   if (f->explicitcluster)
      strbuf_puts(b, ".explicitcluster\n");
   if (!f->has_body) {
      strbuf_puts(b, ";\n\n");
      return;
   }
   strbuf_puts(b, "{\n");
   unsigned indent = 1;
   for (uint32_t i = 0; i < f->nstmts; i++) {
      const ptx_stmt *s = &f->stmts[i];
      if (s->kind == PTX_STMT_SCOPE_END && indent > 1)
         indent--;
      put_stmt(b, s, indent);
      if (s->kind == PTX_STMT_SCOPE_BEGIN)
         indent++;
   }
   strbuf_puts(b, "}\n\n");
}

void ptx_print_module(strbuf *b, const ptx_module *m)
{
   if (m->version_major || m->version_minor)
      strbuf_printf(b, ".version %u.%u\n", m->version_major, m->version_minor);
   if (m->target[0]) {
      strbuf_printf(b, ".target %s", m->target);
      if (m->target_texmode_independent)
         strbuf_puts(b, ", texmode_independent");
      if (m->target_map_f64_to_f32)
         strbuf_puts(b, ", map_f64_to_f32");
      if (m->target_debug)
         strbuf_puts(b, ", debug");
      strbuf_putc(b, '\n');
   }
   strbuf_printf(b, ".address_size %u\n\n", m->address_size);
   for (uint32_t i = 0; i < m->nfiles; i++)
      if (m->files[i])
         strbuf_printf(b, ".file %u \"%s\"\n", i, m->files[i]);
   for (uint32_t i = 0; i < m->ndecls; i++) {
      const ptx_decl *d = &m->decls[i];
      switch (d->kind) {
      case PTX_DECL_VAR:
         put_var(b, d->u.var);
         strbuf_puts(b, ";\n");
         break;
      case PTX_DECL_FUNC:
         put_func(b, d->u.func);
         break;
      case PTX_DECL_ALIAS:
         strbuf_printf(b, ".alias %s, %s;\n", d->u.alias.name, d->u.alias.target);
         break;
      }
   }
}
