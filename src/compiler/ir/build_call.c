/*
 * build_call.c — calls (to .func, vprintf, __assertfail), isspacep.
 *
 * The calling scheme (link_calls.c lays out the memory it uses).  PTX ISA
 * 9.0 §7 (abstracting the ABI): a call passes .param variables the caller
 * declared and filled with st.param, and reads its results back with
 * ld.param; a .func may also take and return .reg values.  Here:
 *   - every .param variable declared in a body is a block of the caller's
 *     local frame, so st.param/ld.param on it are local stores and loads;
 *   - CALL passes, per argument of the callee (returns first, then
 *     parameters: ir_func.args), either a .reg value, or the local address
 *     of the block (a .param argument, or any return);
 *   - in the callee an ARG op yields that value or address; ld.param of a
 *     .param argument is a local load from it, and `mov r, param` its address
 *     (PTX: "the address of a function input parameter ... is in the .local
 *     state space"); .reg returns are stored through their address at ret.
 * Actual arguments of the other kind are adapted: a register passed for a
 * .param argument is stored into a fresh local block, a .param variable
 * passed for a .reg argument is loaded.  A guarded call keeps its guard.
 *
 * vprintf and __assertfail are not called: their arguments are read from
 * the .param blocks and become VPRINTF / ASSERTFAIL (emit_call.c); so do
 * the device heap's malloc and free (C++ new and delete call them), which
 * a module declares but does not define: MALLOC / FREE (prelude heap.metal).
 *
 * Indirect calls (`call (r), %rd, (a), proto;`: function pointers, C++
 * virtual functions): Metal has function pointers only through visible
 * function tables, which cannot take our context arguments, so a call
 * through a register is a CALL with the possible targets (ir_instr.targets)
 * and the pointer as its last source, emitted as a comparison of the
 * pointer with each target's address (emit_call.c).  The targets are the
 * functions of the module whose address is taken (an operand other than a
 * call's callee, or an initialiser) and whose signature matches the
 * prototype (the same number of returns and parameters, each of the same
 * state space and size), or those of a .calltargets list.  A function's
 * address is a token (ir_func_token), the same in code and in
 * initialisers, so addresses compare and round-trip through memory.
 *
 * Refused: calls of functions this module only declares (separate
 * compilation), and the device runtime's functions other than CUDA 12's
 * launch functions (which core/devrt.c links in as PTX).
 */
#include "build.h"
#include "../compiler.h"

#include <string.h>

uint64_t ir_func_token(const ptx_module *pm, const char *name)
{
   for (uint32_t k = 0; k < pm->ndecls; k++)
      if (pm->decls[k].kind == PTX_DECL_FUNC && !strcmp(pm->decls[k].u.func->name, name))
         return MC_FUNC_WINDOW + 16 * (uint64_t)k;
   return 0;
}


ir_def *bld_arg_addr(build_ctx *c, const build_sym *sym, int64_t offset, ir_space *space_out)
{
   if (space_out)
      *space_out = IR_SPACE_LOCAL;
   ir_def *base = bld_read_var(c, sym->var);
   if (!base || !offset)
      return base;
   return bld_op2(c, IR_ADD, PTX_T_U64, base, bld_const(c, 64, (uint64_t)offset));
}

ir_def *bld_local_slot(build_ctx *c, uint32_t size, uint32_t align)
{
   ir_func *f = c->f;
   f->local_bytes = (uint32_t)ALIGN_UP(f->local_bytes, align ? align : 1);
   uint32_t off = f->local_bytes;
   f->local_bytes += size ? size : 1;
   ir_instr *i = bld_emit(c, IR_SYMADDR, 0, 64, 1);
   if (!i)
      return NULL;
   i->sym = "(call slot)";
   i->space = IR_SPACE_LOCAL;
   i->type = PTX_T_U64;
   i->imm = off;
   return &i->def;
}

static uint32_t formal_align(const ptx_var *v)
{
   uint32_t elem = ptx_type_bits[v->type] / 8 * (v->vec ? v->vec : 1);
   return v->align ? v->align : (elem ? elem : 1);
}

static uint8_t formal_bits(const ptx_var *v)
{
   uint8_t b = v->type == PTX_T_PRED ? 1 : ptx_type_bits[v->type];
   return b == 1 ? 1 : b < 8 ? 8 : b;
}

/* The .param block (a body's .param variable, or the caller's own .param
 * argument) operand o names, NULL if o is a register or a value. */
static const build_sym *param_block(build_ctx *c, const ptx_operand *o)
{
   const char *name = o->kind == PTX_OPND_SYM && o->u.sym.offset == 0 ? o->u.sym.name
                    : o->kind == PTX_OPND_REG ? o->u.reg : NULL;
   const build_sym *s = name ? bld_lookup(c, name) : NULL;
   if (s && ((s->kind == SYM_VAR && s->space == IR_SPACE_LOCAL) || s->kind == SYM_ARG))
      return s;
   return NULL;
}

static ir_def *block_addr(build_ctx *c, const build_sym *s)
{
   return s->kind == SYM_ARG ? bld_arg_addr(c, s, 0, NULL) : bld_sym_addr(c, s->name, 0, NULL);
}

static ir_def *local_load(build_ctx *c, ir_def *addr, ptx_type t, uint8_t bits)
{
   ir_instr *ld = addr ? bld_emit(c, IR_LOAD, 1, bits, 1) : NULL;
   if (!ld)
      return NULL;
   ld->type = t;
   ld->space = IR_SPACE_LOCAL;
   bld_set_src(ld, 0, addr);
   return &ld->def;
}

static bool local_store(build_ctx *c, ir_def *addr, ir_def *val, ptx_type t)
{
   ir_instr *st = addr && val ? bld_emit(c, IR_STORE, 2, 0, 0) : NULL;
   if (!st)
      return false;
   st->type = t;
   st->space = IR_SPACE_LOCAL;
   bld_set_src(st, 0, addr);
   bld_set_src(st, 1, val);
   return true;
}

/* The value an argument of a builtin carries: loaded from its .param
 * block, or the operand itself. */
static ir_def *builtin_arg(build_ctx *c, const ptx_operand *o, ptx_type t)
{
   const build_sym *blk = param_block(c, o);
   uint8_t bits = ptx_type_bits[t];
   return blk ? local_load(c, block_addr(c, blk), t, bits) : bld_opnd(c, o, t, bits);
}

/* Writes a builtin's result to the return operand (a .param block or a
 * register). */
static bool builtin_ret(build_ctx *c, const ptx_operand *o, ir_def *d, ptx_type t)
{
   const build_sym *blk = param_block(c, o);
   if (blk)
      return local_store(c, block_addr(c, blk), d, t);
   return bld_write(c, o, d, t);
}

static const ptx_operand *list_elem(const ptx_operand *l, uint32_t k) { return l->u.vec.elems[k]; }

/* vprintf(.param .b64 format, .param .b64 args) -> .param .b32 */
static bool call_vprintf(build_ctx *c, const ptx_operand *rets, const ptx_operand *args)
{
   if (args->u.vec.n != 2 || rets->u.vec.n > 1)
      return ir_error(c->m, c->line, "vprintf takes a format and an argument buffer and returns one value");
   ir_def *fmt = builtin_arg(c, list_elem(args, 0), PTX_T_U64);
   ir_def *buf = fmt ? builtin_arg(c, list_elem(args, 1), PTX_T_U64) : NULL;
   /* A guarded vprintf that does not run "returns" 0: ir_lower_predicates
    * merges the result with this value, so its uses stay dominated. */
   ir_def *none = buf && c->in->guard ? bld_const(c, 32, 0) : NULL;
   ir_instr *i = buf && (none || !c->in->guard) ? bld_emit(c, IR_VPRINTF, 2, 32, 1) : NULL;
   if (!i)
      return false;
   i->type = PTX_T_S32;
   bld_set_src(i, 0, fmt);
   bld_set_src(i, 1, buf);
   bld_guard(c, i, NULL);
   if (none)
      ir_src_set(&i->old, i, none);
   if (!rets->u.vec.n)
      return true;
   /* The guard is on the vprintf itself: when it fails the register keeps
    * its old value through the COPY bld_write makes; a .param block simply
    * is not read. */
   return builtin_ret(c, list_elem(rets, 0), &i->def, PTX_T_B32);
}

/* __assertfail(.param .b64 message, .param .b64 file, .param .b32 line,
 *              .param .b64 function, .param .b64 char_size) */
static bool call_assertfail(build_ctx *c, const ptx_operand *rets, const ptx_operand *args)
{
   if (args->u.vec.n != 5 || rets->u.vec.n)
      return ir_error(c->m, c->line, "__assertfail takes five arguments and returns nothing");
   static const ptx_type types[4] = { PTX_T_U64, PTX_T_U64, PTX_T_U32, PTX_T_U64 };
   ir_def *v[4];
   for (uint32_t k = 0; k < 4; k++)
      if (!(v[k] = builtin_arg(c, list_elem(args, k), types[k])))
         return false;
   ir_instr *i = bld_emit(c, IR_ASSERTFAIL, 4, 0, 0);
   if (!i)
      return false;
   for (uint32_t k = 0; k < 4; k++)
      bld_set_src(i, k, v[k]);
   bld_guard(c, i, NULL);
   return true;
}

/* cudaGraphSetConditional(.param .b64 handle, .param .b32 value): a
 * conditional handle is the address of its variable in device memory
 * (src/core/graphcond.c), so setting it is a 4-byte global store. */
static bool call_set_conditional(build_ctx *c, const ptx_operand *rets, const ptx_operand *args)
{
   if (args->u.vec.n != 2 || rets->u.vec.n)
      return ir_error(c->m, c->line, "cudaGraphSetConditional takes a handle and a value and returns nothing");
   ir_def *h = builtin_arg(c, list_elem(args, 0), PTX_T_U64);
   ir_def *v = h ? builtin_arg(c, list_elem(args, 1), PTX_T_U32) : NULL;
   ir_instr *st = v ? bld_emit(c, IR_STORE, 2, 0, 0) : NULL;
   if (!st)
      return false;
   st->type = PTX_T_U32;
   st->space = IR_SPACE_GLOBAL;
   bld_set_src(st, 0, h);
   bld_set_src(st, 1, v);
   bld_guard(c, st, NULL);
   return true;
}

/* malloc(.param .b64 size) -> .param .b64, free(.param .b64 ptr) and
 * __nv_aligned_device_malloc(size, align) -> .param .b64: the device heap,
 * when the module only declares them. */
static bool call_heap(build_ctx *c, bool is_malloc, bool aligned, const ptx_operand *rets, const ptx_operand *args)
{
   uint32_t nargs = aligned ? 2 : 1;
   if (args->u.vec.n != nargs || rets->u.vec.n != (is_malloc ? 1u : 0u))
      return ir_error(c->m, c->line, aligned     ? "__nv_aligned_device_malloc takes a size and an alignment and returns a pointer"
                                     : is_malloc ? "malloc takes a size and returns a pointer"
                                                 : "free takes a pointer and returns nothing");
   ir_def *a = builtin_arg(c, list_elem(args, 0), PTX_T_U64);
   ir_def *align = a && aligned ? builtin_arg(c, list_elem(args, 1), PTX_T_U64) : NULL;
   if (aligned && !align)
      return false;
   /* A guarded malloc that does not run "returns" 0 (see call_vprintf). */
   ir_def *none = a && is_malloc && c->in->guard ? bld_const(c, 64, 0) : NULL;
   ir_instr *i = a && (!is_malloc || none || !c->in->guard)
                    ? bld_emit(c, is_malloc ? IR_MALLOC : IR_FREE, nargs, is_malloc ? 64 : 0, is_malloc ? 1 : 0)
                    : NULL;
   if (!i)
      return false;
   i->type = PTX_T_U64;
   bld_set_src(i, 0, a);
   if (aligned)
      bld_set_src(i, 1, align);
   bld_guard(c, i, NULL);
   if (none)
      ir_src_set(&i->old, i, none);
   return !is_malloc || builtin_ret(c, list_elem(rets, 0), &i->def, PTX_T_B64);
}

/* One argument of a call of pf: its CALL source.  A return whose actual is
 * a register gets a local slot, loaded after the call (*post). */
static ir_def *call_arg(build_ctx *c, const ptx_func *pf, uint32_t k, const ptx_operand *o, ir_def **post)
{
   bool is_ret = k < pf->nret;
   const ptx_var *v = is_ret ? pf->rets[k] : pf->params[k - pf->nret];
   const build_sym *blk = param_block(c, o);
   uint32_t size = (uint32_t)ptx_var_size(v);
   *post = NULL;
   if (v->space == PTX_SPACE_REG && !is_ret) {
      if (blk)
         return local_load(c, block_addr(c, blk), v->type, formal_bits(v));
      return bld_opnd(c, o, v->type, formal_bits(v));
   }
   if (blk)
      return block_addr(c, blk);
   if (v->ndims || v->vec || size > 8) {
      ir_error(c->m, c->line, "call of '%s': a register cannot stand for the .param array '%s'", pf->name,
               v->name);
      return NULL;
   }
   ir_def *slot = bld_local_slot(c, size, formal_align(v));
   if (!slot)
      return NULL;
   if (is_ret) {
      *post = slot;
      return slot;
   }
   ir_def *val = bld_opnd(c, o, v->type, ptx_type_bits[v->type] < 8 ? 8 : ptx_type_bits[v->type]);
   return local_store(c, slot, val, v->type) ? slot : NULL;
}

/* ---- indirect calls ---- */

static bool names(const ptx_operand *o, const char *name)
{
   if (!o)
      return false;
   switch (o->kind) {
   case PTX_OPND_SYM: return !strcmp(o->u.sym.name, name);
   case PTX_OPND_ADDR: return names(o->u.addr.base, name) || names(o->u.addr.vec, name);
   case PTX_OPND_VEC:
   case PTX_OPND_PARAMLIST:
      for (uint32_t k = 0; k < o->u.vec.n; k++)
         if (names(o->u.vec.elems[k], name))
            return true;
      return false;
   default: return false;
   }
}

/* Does the module take the address of function `name`? */
static bool address_taken(build_ctx *c, const char *name)
{
   const ptx_module *pm = c->m->ptx;
   for (uint32_t d = 0; d < pm->ndecls; d++) {
      if (pm->decls[d].kind != PTX_DECL_FUNC)
         continue;
      const ptx_func *f = pm->decls[d].u.func;
      for (uint32_t s = 0; s < f->nstmts; s++) {
         const ptx_instr *in = f->stmts[s].kind == PTX_STMT_INSTR ? f->stmts[s].u.instr : NULL;
         for (uint32_t k = 0; in && k < in->nopnds; k++)
            if (!(in->op == PTX_OP_CALL && k == 1) && names(in->opnds[k], name))
               return true;
      }
   }
   for (uint32_t g = 0; g < c->m->globals.len; g++)
      for (uint32_t r = 0; r < c->m->globals.data[g].relocs.len; r++)
         if (!strcmp(c->m->globals.data[g].relocs.data[r].sym, name))
            return true;
   return false;
}

static bool same_formal(const ptx_var *a, const ptx_var *b)
{
   bool ra = a->space == PTX_SPACE_REG, rb = b->space == PTX_SPACE_REG;
   return ra == rb && (ra ? formal_bits(a) == formal_bits(b) : ptx_var_size(a) == ptx_var_size(b));
}

static bool signature_matches(const ptx_func *proto, const ptx_func *f)
{
   if (f->is_entry || !f->has_body || f->nret != proto->nret || f->nparams != proto->nparams)
      return false;
   for (uint32_t k = 0; k < f->nret; k++)
      if (!same_formal(f->rets[k], proto->rets[k]))
         return false;
   for (uint32_t k = 0; k < f->nparams; k++)
      if (!same_formal(f->params[k], proto->params[k]))
         return false;
   return true;
}

/* The .callprototype or .calltargets statement `name` of the function
 * being built. */
static const ptx_stmt *call_decl(build_ctx *c, const char *name)
{
   for (uint32_t s = 0; s < c->pf->nstmts; s++) {
      const ptx_stmt *st = &c->pf->stmts[s];
      if (st->kind == PTX_STMT_CALLPROTOTYPE && !strcmp(st->u.proto->name, name))
         return st;
      if (st->kind == PTX_STMT_CALLTARGETS && !strcmp(st->u.targets.name, name))
         return st;
   }
   return NULL;
}

/* The prototype of an indirect call and its possible targets. */
static const ptx_func *indirect_targets(build_ctx *c, const ptx_operand *spec, const char ***out, uint32_t *n)
{
   const ptx_stmt *st = spec ? call_decl(c, spec->u.sym.name) : NULL;
   if (!st) {
      ir_error(c->m, c->line, "an indirect call needs a .callprototype or .calltargets%s%s", spec ? ": no " : "",
               spec ? spec->u.sym.name : "");
      return NULL;
   }
   const ptx_module *pm = c->m->ptx;
   const ptx_func *proto = NULL;
   if (st->kind == PTX_STMT_CALLTARGETS) {
      for (uint32_t k = 0; k < st->u.targets.n && !proto; k++)
         proto = ptx_find_func(pm, st->u.targets.labels[k]);
      if (!proto) {
         ir_error(c->m, c->line, ".calltargets %s names no function of this module", st->u.targets.name);
         return NULL;
      }
   } else {
      proto = st->u.proto;
   }
   const char **t = arena_alloc(c->ar, (pm->ndecls + 1) * sizeof(*t));
   if (!t) {
      ir_error(c->m, c->line, "out of memory");
      return NULL;
   }
   *n = 0;
   for (uint32_t d = 0; d < pm->ndecls; d++) {
      if (pm->decls[d].kind != PTX_DECL_FUNC)
         continue;
      const ptx_func *f = ptx_find_func(pm, pm->decls[d].u.func->name);
      bool dup = false;
      for (uint32_t k = 0; k < *n && !dup; k++)
         dup = !strcmp(t[k], f->name);
      if (dup || !signature_matches(proto, f))
         continue;
      bool listed = st->kind != PTX_STMT_CALLTARGETS;
      for (uint32_t k = 0; !listed && k < st->u.targets.n; k++)
         listed = !strcmp(st->u.targets.labels[k], f->name);
      if (listed && (st->kind == PTX_STMT_CALLTARGETS || address_taken(c, f->name)))
         t[(*n)++] = f->name;
   }
   *out = t;
   return proto;
}

static bool build_call_instr(build_ctx *c, const ptx_func *pf, const ptx_operand *rets, const ptx_operand *args, ir_def *ptr,
                      const char **targets, uint32_t ntargets);
static bool call_indirect(build_ctx *c, const ptx_operand *rets, const ptx_operand *callee, const ptx_operand *args,
                          const ptx_operand *spec);

bool bld_tr_call(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_UNI))
      return false;
   if (in->nopnds < 3 || in->opnds[0]->kind != PTX_OPND_PARAMLIST || in->opnds[2]->kind != PTX_OPND_PARAMLIST)
      return ir_error(c->m, c->line, "call: expected (returns), function, (arguments)");
   const ptx_operand *rets = in->opnds[0], *callee = in->opnds[1], *args = in->opnds[2];
   if (callee->kind == PTX_OPND_REG)
      return call_indirect(c, rets, callee, args, in->nopnds > 3 ? in->opnds[3] : NULL);
   if (callee->kind != PTX_OPND_SYM || callee->u.sym.offset)
      return ir_error(c->m, c->line, "call: the callee must be a function or a register");
   const char *name = callee->u.sym.name;
   const ptx_func *pf = ptx_find_func(c->m->ptx, name);
   switch (ptx_runtime_kind(name)) {
   case PTX_RT_VPRINTF:
      return call_vprintf(c, rets, args);
   case PTX_RT_ASSERTFAIL:
      return call_assertfail(c, rets, args);
   case PTX_RT_HEAP:   /* the device heap, unless the program has its own */
      if (!(pf && pf->has_body))
         return call_heap(c, name[0] == 'm', false, rets, args);
      break;
   case PTX_RT_GRAPH_SET_CONDITIONAL:
      return call_set_conditional(c, rets, args);
   case PTX_RT_ALIGNED_MALLOC:
      if (!(pf && pf->has_body))
         return call_heap(c, true, true, rets, args);
      break;
   case PTX_RT_DEVICE_RUNTIME:
      /* CUDA 12's device runtime (__cudaCDP2*) is linked in as PTX when a
       * module calls it (core/devrt.c); the rest of it is not */
      if (pf && pf->has_body)
         break;
      return ir_error(c->m, c->line, "'%s': this function of the device runtime (dynamic parallelism) is not "
                      "supported", name);
   case PTX_RT_GRID_CG:
      return ir_error(c->m, c->line, "'%s': grid-wide cooperative groups are not supported", name);
   case PTX_RT_NONE:
      break;
   }
   if (!pf || pf->is_entry)
      return ir_error(c->m, c->line, "call of '%s', which is not a .func of this module", name);
   if (!pf->has_body)
      return ir_error(c->m, c->line, "call of '%s', which this module declares but does not define (with "
                      "-rdc=true, no unit of the program defines it)", name);
   if (rets->u.vec.n != pf->nret || args->u.vec.n != pf->nparams)
      return ir_error(c->m, c->line, "call of '%s' with %u return(s) and %u argument(s); it has %u and %u", name,
                      rets->u.vec.n, args->u.vec.n, pf->nret, pf->nparams);
   return build_call_instr(c, pf, rets, args, NULL, NULL, 0);
}

/* The CALL of pf (for an indirect call, its prototype, with the pointer
 * ptr and its possible targets): the arguments, the call, the returns. */
static bool build_call_instr(build_ctx *c, const ptx_func *pf, const ptx_operand *rets, const ptx_operand *args, ir_def *ptr,
                      const char **targets, uint32_t ntargets)
{
   uint32_t n = pf->nret + pf->nparams;
   ir_def **srcs = arena_alloc(c->ar, (n + 2) * sizeof(*srcs));
   ir_def **post = arena_alloc(c->ar, (n + 1) * sizeof(*post));
   if (!srcs || !post)
      return ir_error(c->m, c->line, "out of memory");
   for (uint32_t k = 0; k < n; k++) {
      const ptx_operand *o = k < pf->nret ? list_elem(rets, k) : list_elem(args, k - pf->nret);
      if (!(srcs[k] = call_arg(c, pf, k, o, &post[k])))
         return false;
   }
   if (ptr)
      srcs[n] = ptr;
   ir_instr *i = bld_emit(c, IR_CALL, n + (ptr != NULL), 0, 0);
   if (!i)
      return false;
   i->sym = ptr ? NULL : pf->name;
   i->targets = targets;
   i->imm = ntargets;
   for (uint32_t k = 0; k < n + (ptr != NULL); k++)
      bld_set_src(i, k, srcs[k]);
   bld_guard(c, i, NULL);
   /* Returns into registers: read their slots (bld_write keeps a guarded
    * call's registers unchanged when the guard fails). */
   for (uint32_t k = 0; k < pf->nret; k++) {
      if (!post[k])
         continue;
      const ptx_operand *o = list_elem(rets, k);
      const build_sym *r = bld_dst_sym(c, o);
      const ptx_var *v = pf->rets[k];
      uint8_t bits = r ? MC_MAX(r->bits, formal_bits(v)) : 0;
      ir_def *d = r ? local_load(c, post[k], v->type, bits) : NULL;
      if (!d || !bld_write(c, o, d, v->type))
         return false;
   }
   return true;
}

/* call (rets), %ptr, (args), proto: the targets the pointer may hold. */
static bool call_indirect(build_ctx *c, const ptx_operand *rets, const ptx_operand *callee, const ptx_operand *args,
                          const ptx_operand *spec)
{
   const char **targets;
   uint32_t nt;
   const ptx_func *proto = indirect_targets(c, spec, &targets, &nt);
   if (!proto)
      return false;
   if (rets->u.vec.n != proto->nret || args->u.vec.n != proto->nparams)
      return ir_error(c->m, c->line, "indirect call with %u return(s) and %u argument(s); its prototype has %u and %u",
                      rets->u.vec.n, args->u.vec.n, proto->nret, proto->nparams);
   ir_def *ptr = bld_opnd(c, callee, PTX_T_U64, 64);
   return ptr && build_call_instr(c, proto, rets, args, ptr, targets, nt);
}

/* isspacep.space p, a: is generic address a in that space's window
 * (emit_call.c decides at run time). */
bool bld_tr_isspacep(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_opnds(c, 2) || !bld_only_mods(c, NULL, 0))
      return false;
   ir_space space;
   switch (in->space) {
   case PTX_SPACE_GLOBAL: space = IR_SPACE_GLOBAL; break;
   case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: space = IR_SPACE_SHARED; break;  /* one-CTA clusters */
   case PTX_SPACE_LOCAL: space = IR_SPACE_LOCAL; break;
   case PTX_SPACE_CONST: space = IR_SPACE_CONST; break;
   case PTX_SPACE_PARAM: space = IR_SPACE_PARAM; break;
   default:
      return ir_error(c->m, c->line, "%s: needs a state space", bld_spelled(c));
   }
   ir_def *a = bld_src(c, 1, PTX_T_U64, 64);
   ir_instr *i = a ? bld_emit(c, IR_ISSPACEP, 1, 1, 1) : NULL;
   if (!i)
      return false;
   i->space = (uint8_t)space;
   i->type = PTX_T_PRED;
   bld_set_src(i, 0, a);
   return bld_write(c, in->opnds[0], &i->def, PTX_T_PRED);
}
