/*
 * test_ptx_util.h — helpers shared by the PTX front-end tests: parsing a
 * string, finding statements, and a structural comparison of two modules
 * (locations ignored) for round-trip checks.  Everything is static inline
 * so each test file takes what it uses.
 */
#ifndef MC_TEST_PTX_UTIL_H
#define MC_TEST_PTX_UTIL_H

#include "harness.h"

#include "compiler/ptx/ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One arena per parse; tp_done() releases it. */
static arena tp_arena;

static inline ptx_module *tp_parse(const char *src)
{
   arena_free_all(&tp_arena);
   arena_init(&tp_arena, 0);
   return ptx_parse_module(&tp_arena, src, strlen(src));
}

static inline void tp_done(void) { arena_free_all(&tp_arena); }

/* "PTX header + body" wrapped into a kernel, so a test can write only
 * instructions.  Registers %r, %rd, %f, %fd, %p, %rs are declared. */
static inline ptx_module *tp_parse_body(const char *body)
{
   static char buf[1 << 16];
   snprintf(buf, sizeof(buf),
            ".version 9.0\n.target sm_90\n.address_size 64\n"
            ".global .align 4 .b32 gsym[16];\n"
            ".global .texref tex0;\n.global .samplerref samp0;\n"
            ".visible .entry k(.param .u64 k_p0)\n{\n"
            "\t.reg .pred %%p<8>;\n\t.reg .b16 %%rs<8>;\n\t.reg .b32 %%r<64>;\n"
            "\t.reg .b64 %%rd<32>;\n\t.reg .f32 %%f<32>;\n\t.reg .f64 %%fd<8>;\n"
            "%s\n}\n",
            body);
   return tp_parse(buf);
}

static inline ptx_func *tp_kernel(const ptx_module *m)
{
   for (uint32_t i = 0; m && i < m->ndecls; i++)
      if (m->decls[i].kind == PTX_DECL_FUNC && m->decls[i].u.func->is_entry)
         return m->decls[i].u.func;
   return NULL;
}

/* The n-th instruction (0-based) of the first kernel. */
static inline ptx_instr *tp_instr(const ptx_module *m, unsigned n)
{
   ptx_func *f = tp_kernel(m);
   for (uint32_t i = 0; f && i < f->nstmts; i++)
      if (f->stmts[i].kind == PTX_STMT_INSTR && n-- == 0)
         return f->stmts[i].u.instr;
   return NULL;
}

static inline const char *tp_first_error(const ptx_module *m)
{
   return m && m->nerrors ? m->errors[0].msg : "(no error)";
}

/* ---- structural comparison ---- */

static char tp_diff[512];

static inline bool tp_fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(tp_diff, sizeof(tp_diff), fmt, ap);
   va_end(ap);
   return false;
}

static inline bool tp_streq(const char *a, const char *b)
{
   return a == b || (a && b && !strcmp(a, b));
}

static inline bool tp_opnd_eq(const ptx_operand *a, const ptx_operand *b);

static inline bool tp_list_eq(const ptx_operand *a, const ptx_operand *b)
{
   if (a->u.vec.n != b->u.vec.n)
      return tp_fail("list length %u vs %u", a->u.vec.n, b->u.vec.n);
   for (uint32_t i = 0; i < a->u.vec.n; i++)
      if (!tp_opnd_eq(a->u.vec.elems[i], b->u.vec.elems[i]))
         return false;
   return true;
}

static inline bool tp_opnd_eq(const ptx_operand *a, const ptx_operand *b)
{
   if (!a || !b)
      return a == b ? true : tp_fail("operand missing");
   if (a->kind != b->kind || a->negate != b->negate || a->neg_value != b->neg_value ||
       a->comp != b->comp || !tp_streq(a->sel, b->sel))
      return tp_fail("operand kind/flags differ (%d vs %d)", a->kind, b->kind);
   switch (a->kind) {
   case PTX_OPND_REG:
      return tp_streq(a->u.reg, b->u.reg) ? true : tp_fail("reg %s vs %s", a->u.reg, b->u.reg);
   case PTX_OPND_IMM_INT:
   case PTX_OPND_IMM_F32:
   case PTX_OPND_IMM_F64:
      if (a->u.imm.bits != b->u.imm.bits || a->u.imm.is_unsigned != b->u.imm.is_unsigned)
         return tp_fail("immediate %#llx vs %#llx", (unsigned long long)a->u.imm.bits,
                        (unsigned long long)b->u.imm.bits);
      return true;
   case PTX_OPND_SYM:
      if (!tp_streq(a->u.sym.name, b->u.sym.name) || a->u.sym.offset != b->u.sym.offset)
         return tp_fail("symbol %s%+lld vs %s%+lld", a->u.sym.name, (long long)a->u.sym.offset,
                        b->u.sym.name, (long long)b->u.sym.offset);
      return true;
   case PTX_OPND_ADDR:
      if (a->u.addr.offset != b->u.addr.offset || a->u.addr.unified != b->u.addr.unified)
         return tp_fail("address offset %lld vs %lld", (long long)a->u.addr.offset,
                        (long long)b->u.addr.offset);
      return tp_opnd_eq(a->u.addr.base, b->u.addr.base) && tp_opnd_eq(a->u.addr.vec, b->u.addr.vec);
   case PTX_OPND_VEC:
   case PTX_OPND_PARAMLIST:
      return tp_list_eq(a, b);
   case PTX_OPND_SINK:
      return true;
   }
   return tp_fail("bad operand kind");
}

static inline bool tp_instr_eq(const ptx_instr *a, const ptx_instr *b)
{
   if (a->op != b->op || !tp_streq(a->guard, b->guard) || a->guard_negate != b->guard_negate ||
       a->nmods != b->nmods || a->ntypes != b->ntypes || a->vec != b->vec ||
       a->space != b->space || a->src_space != b->src_space ||
       !tp_streq(a->space_spelling, b->space_spelling) ||
       !tp_streq(a->src_space_spelling, b->src_space_spelling) || a->nopnds != b->nopnds ||
       a->has_pair_dst != b->has_pair_dst)
      return tp_fail("instruction '%s' differs in header", ptx_opcode_names[a->op]);
   for (unsigned i = 0; i < a->nmods; i++)
      if (a->mods[i] != b->mods[i])
         return tp_fail("'%s' modifier %u differs", ptx_opcode_names[a->op], i);
   for (unsigned i = 0; i < a->ntypes; i++)
      if (a->types[i] != b->types[i])
         return tp_fail("'%s' type %u differs", ptx_opcode_names[a->op], i);
   for (unsigned i = 0; i < a->nopnds; i++)
      if (!tp_opnd_eq(a->opnds[i], b->opnds[i]))
         return false;
   return true;
}

static inline bool tp_var_eq(const ptx_var *a, const ptx_var *b)
{
   if (a->space != b->space || a->linkage != b->linkage || !tp_streq(a->name, b->name) ||
       a->type != b->type || a->vec != b->vec || a->align != b->align || a->ndims != b->ndims ||
       a->unsized != b->unsized || a->range_count != b->range_count || a->ninit != b->ninit ||
       a->is_ptr != b->is_ptr || a->ptr_space != b->ptr_space || a->ptr_align != b->ptr_align ||
       a->managed != b->managed || a->nfields != b->nfields)
      return tp_fail("variable '%s' differs", a->name);
   for (unsigned i = 0; i < a->ndims; i++)
      if (a->dims[i] != b->dims[i])
         return tp_fail("variable '%s' dimension %u differs", a->name, i);
   for (uint32_t i = 0; i < a->ninit; i++) {
      const ptx_init *x = &a->init[i], *y = &b->init[i];
      if (x->kind != y->kind || x->bits != y->bits || !tp_streq(x->sym, y->sym) ||
          x->offset != y->offset || x->generic != y->generic || x->mask != y->mask)
         return tp_fail("variable '%s' initialiser %u differs", a->name, i);
   }
   for (uint32_t i = 0; i < a->nfields; i++)
      if (!tp_streq(a->fields[i].name, b->fields[i].name) ||
          !tp_streq(a->fields[i].value, b->fields[i].value))
         return tp_fail("variable '%s' field %u differs", a->name, i);
   return true;
}

static inline bool tp_func_eq(const ptx_func *a, const ptx_func *b);

static inline bool tp_stmt_eq(const ptx_stmt *a, const ptx_stmt *b)
{
   if (a->kind != b->kind)
      return tp_fail("statement kind %d vs %d", a->kind, b->kind);
   switch (a->kind) {
   case PTX_STMT_INSTR:
      return tp_instr_eq(a->u.instr, b->u.instr);
   case PTX_STMT_LABEL:
      return tp_streq(a->u.label, b->u.label) ? true : tp_fail("label %s", a->u.label);
   case PTX_STMT_VAR:
      return tp_var_eq(a->u.var, b->u.var);
   case PTX_STMT_SCOPE_BEGIN:
   case PTX_STMT_SCOPE_END:
      return true;
   case PTX_STMT_BRANCHTARGETS:
   case PTX_STMT_CALLTARGETS:
      if (!tp_streq(a->u.targets.name, b->u.targets.name) || a->u.targets.n != b->u.targets.n)
         return tp_fail("target list %s", a->u.targets.name);
      for (uint32_t i = 0; i < a->u.targets.n; i++)
         if (!tp_streq(a->u.targets.labels[i], b->u.targets.labels[i]))
            return tp_fail("target list %s entry %u", a->u.targets.name, i);
      return true;
   case PTX_STMT_CALLPROTOTYPE:
      return tp_func_eq(a->u.proto, b->u.proto);
   case PTX_STMT_PRAGMA:
      return tp_streq(a->u.pragma, b->u.pragma) ? true : tp_fail("pragma");
   case PTX_STMT_LOC:
      return a->u.dloc.file == b->u.dloc.file && a->u.dloc.line == b->u.dloc.line &&
                   a->u.dloc.col == b->u.dloc.col
                ? true
                : tp_fail(".loc differs");
   }
   return tp_fail("bad statement kind");
}

static inline bool tp_func_eq(const ptx_func *a, const ptx_func *b)
{
   if (a->is_entry != b->is_entry || a->linkage != b->linkage || !tp_streq(a->name, b->name) ||
       a->nret != b->nret || a->nparams != b->nparams || a->has_body != b->has_body ||
       a->nstmts != b->nstmts || a->minnctapersm != b->minnctapersm ||
       a->maxnctapersm != b->maxnctapersm || a->maxnreg != b->maxnreg ||
       a->maxclusterrank != b->maxclusterrank || a->explicitcluster != b->explicitcluster ||
       a->noreturn != b->noreturn || !a->error != !b->error)
      return tp_fail("function '%s' differs in header", a->name);
   for (int i = 0; i < 3; i++)
      if (a->maxntid[i] != b->maxntid[i] || a->reqntid[i] != b->reqntid[i] ||
          a->reqnctapercluster[i] != b->reqnctapercluster[i])
         return tp_fail("function '%s' thread counts differ", a->name);
   for (uint32_t i = 0; i < a->nret; i++)
      if (!tp_var_eq(a->rets[i], b->rets[i]))
         return false;
   for (uint32_t i = 0; i < a->nparams; i++)
      if (!tp_var_eq(a->params[i], b->params[i]))
         return false;
   for (uint32_t i = 0; i < a->nstmts; i++) {
      if (!tp_stmt_eq(&a->stmts[i], &b->stmts[i])) {
         char inner[sizeof(tp_diff)];
         memcpy(inner, tp_diff, sizeof(inner));
         return tp_fail("%s, statement %u (line %u): %.400s", a->name, i, a->stmts[i].loc.line,
                        inner);
      }
   }
   return true;
}

static inline bool tp_module_eq(const ptx_module *a, const ptx_module *b)
{
   if (a->version_major != b->version_major || a->version_minor != b->version_minor ||
       strcmp(a->target, b->target) || a->sm != b->sm || a->target_debug != b->target_debug ||
       a->target_texmode_independent != b->target_texmode_independent ||
       a->target_map_f64_to_f32 != b->target_map_f64_to_f32 ||
       a->address_size != b->address_size)
      return tp_fail("module header differs");
   if (a->nfiles != b->nfiles)
      return tp_fail(".file count %u vs %u", a->nfiles, b->nfiles);
   for (uint32_t i = 0; i < a->nfiles; i++)
      if (!tp_streq(a->files[i], b->files[i]))
         return tp_fail(".file %u differs", i);
   if (a->ndecls != b->ndecls)
      return tp_fail("declaration count %u vs %u", a->ndecls, b->ndecls);
   for (uint32_t i = 0; i < a->ndecls; i++) {
      const ptx_decl *x = &a->decls[i], *y = &b->decls[i];
      if (x->kind != y->kind)
         return tp_fail("declaration %u kind differs", i);
      bool ok = x->kind == PTX_DECL_VAR    ? tp_var_eq(x->u.var, y->u.var)
                : x->kind == PTX_DECL_FUNC ? tp_func_eq(x->u.func, y->u.func)
                                           : tp_streq(x->u.alias.name, y->u.alias.name) &&
                                                tp_streq(x->u.alias.target, y->u.alias.target);
      if (!ok)
         return x->kind == PTX_DECL_ALIAS ? tp_fail("alias %u differs", i) : false;
   }
   return true;
}

/* parse(print(m)) == m; on failure tp_diff says where, and *printed (if not
 * NULL) gets the printed text (caller frees). */
static inline bool tp_roundtrip(const ptx_module *m, char **printed)
{
   strbuf b;
   strbuf_init(&b);
   ptx_print_module(&b, m);
   arena ar;
   arena_init(&ar, 0);
   ptx_module *m2 = ptx_parse_module(&ar, b.s ? b.s : "", b.len);
   bool ok;
   if (!m2)
      ok = tp_fail("out of memory");
   else if (m2->nerrors)
      ok = tp_fail("printed text does not parse: %s", m2->errors[0].msg);
   else
      ok = tp_module_eq(m, m2);
   arena_free_all(&ar);
   if (printed)
      *printed = strbuf_take(&b);
   else
      strbuf_free(&b);
   return ok;
}

#endif
