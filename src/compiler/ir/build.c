/*
 * build.c — PTX AST → SSA IR: function structure, CFG, SSA construction.
 *
 * Two walks over a function body:
 *   1. CFG discovery: every label starts a block, branches / ret / exit end
 *      one; guarded bra becomes a two-way branch, guarded ret/exit a branch
 *      to a block holding only the return.  All edges are known after it.
 *   2. Translation in source order with SSA built on the fly, after Braun et
 *      al., "Simple and Efficient Construction of SSA Form" (CC 2013): PTX
 *      registers are variables; reading one looks up its definition in the
 *      current block, else recursively in the predecessors, inserting phis
 *      where paths meet.  A block is *sealed* once all its predecessors are
 *      filled; reads in an unsealed block (loop headers) create incomplete
 *      phis completed at sealing.  Trivial phis are removed as they appear,
 *      so the result has few phis without a separate pass.
 *
 * Guards (@p) are not lowered here: an instruction keeps its guard and, for
 * a register write, the register's previous value (ir_instr.guard/old);
 * ir_lower_predicates turns them into selects or branches.
 *
 * Instruction semantics live in build_instr.c.
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>

/* ---- (var, block) → def map ---- */

static ir_def **def_map_slot(build_ctx *c, uint32_t var, const ir_block *b, bool create)
{
   /* +1: key 0 is the map's empty marker */
   return (ir_def **)u64map_slot(&c->defs, ((uint64_t)var << 32 | b->index) + 1, create);
}

/* ---- SSA construction ---- */

static ir_def *read_var(build_ctx *c, uint32_t var, ir_block *b);

static void write_var(build_ctx *c, uint32_t var, ir_block *b, ir_def *d)
{
   ir_def **slot = def_map_slot(c, var, b, true);
   if (slot)
      *slot = d;
}

/* A removed trivial phi forwards to its replacement through pass_data of
 * its block-less instruction: follow the chain. */
static ir_def *resolve(ir_def *d)
{
   while (d && d->parent->op == IR_PHI && d->parent->block == NULL && d->parent->pass_flags == 1)
      d = (ir_def *)d->parent->sym;
   return d;
}

static ir_def *undef_of(build_ctx *c, uint8_t bits)
{
   ir_block *entry = c->f->blocks.data[0];
   ir_instr *u = ir_instr_create(c->f, IR_UNDEF, 0, bits, 1);
   if (!u)
      return NULL;
   if (entry->first)
      ir_instr_insert_before(entry->first, u);
   else
      ir_instr_append(entry, u);
   return &u->def;
}

static ir_instr *new_phi(build_ctx *c, ir_block *b, uint32_t var)
{
   ir_instr *phi = ir_instr_create(c->f, IR_PHI, b->preds.len, c->var_bits[var], 1);
   if (!phi)
      return NULL;
   phi->nsrcs = 0;
   phi->imm = var;
   /* Phis go first in their block, after any existing phis. */
   ir_instr *at = b->first;
   while (at && at->op == IR_PHI)
      at = at->next;
   if (at)
      ir_instr_insert_before(at, phi);
   else
      ir_instr_append(b, phi);
   return phi;
}

static ir_def *try_remove_trivial_phi(build_ctx *c, ir_instr *phi)
{
   ir_def *same = NULL;
   for (uint32_t k = 0; k < phi->nsrcs; k++) {
      ir_def *op = phi->srcs[k].def;
      if (op == same || op == &phi->def)
         continue;
      if (same)
         return &phi->def;   /* merges two values: not trivial */
      same = op;
   }
   if (!same)
      same = undef_of(c, phi->def.bits);
   if (!same)
      return &phi->def;
   /* Remember the phis that used this one: they may become trivial. */
   ir_instr *users[64];
   uint32_t nusers = 0;
   ir_foreach_use(u, &phi->def)
      if (u->parent != phi && u->parent->op == IR_PHI && u->parent->pass_flags != 2 &&
          nusers < ARRAY_SIZE(users))
         users[nusers++] = u->parent;
   ir_def_rewrite_uses(&phi->def, same);
   ir_instr_remove(phi);
   phi->pass_flags = 1;              /* forwarded: see resolve() */
   phi->sym = (const char *)same;
   for (uint32_t k = 0; k < nusers; k++)
      if (users[k]->block)
         try_remove_trivial_phi(c, users[k]);
   /* `same` may itself have been one of those users and gone trivial
    * (phi P = (Q, Q) with Q = (x, P)): return what it forwards to. */
   return resolve(same);
}

static ir_def *add_phi_operands(build_ctx *c, uint32_t var, ir_instr *phi)
{
   ir_block *b = phi->block;
   phi->pass_flags = 2;   /* under construction: users must not judge it yet */
   ir_foreach_pred(p, b) {
      ir_def *d = read_var(c, var, *p);
      if (!d)
         return NULL;
      /* read_var may have removed phis; `phi` itself is still in place
       * because it is not trivial until all operands are in. */
      uint32_t k = phi->nsrcs++;
      ir_src_set(&phi->srcs[k], phi, resolve(d));
      phi->srcs[k].pred = *p;
   }
   phi->pass_flags = 0;
   return try_remove_trivial_phi(c, phi);
}

static ir_def *read_var_recursive(build_ctx *c, uint32_t var, ir_block *b)
{
   ir_def *val;
   if (!c->sealed[b->index]) {
      ir_instr *phi = new_phi(c, b, var);
      if (!phi || !vec_push(c->ar, &c->incomplete[b->index], phi))
         return NULL;
      val = &phi->def;
   } else if (b->preds.len == 1) {
      val = read_var(c, var, b->preds.data[0]);
   } else if (b->preds.len == 0) {
      val = undef_of(c, c->var_bits[var]);
   } else {
      ir_instr *phi = new_phi(c, b, var);
      if (!phi)
         return NULL;
      write_var(c, var, b, &phi->def);   /* breaks cycles */
      val = add_phi_operands(c, var, phi);
   }
   if (val)
      write_var(c, var, b, val);
   return val;
}

static ir_def *read_var(build_ctx *c, uint32_t var, ir_block *b)
{
   ir_def **slot = def_map_slot(c, var, b, false);
   if (slot && *slot) {
      ir_def *d = resolve(*slot);
      if (d != *slot)
         *slot = d;
      return d;
   }
   return read_var_recursive(c, var, b);
}

static void seal_block(build_ctx *c, ir_block *b)
{
   c->sealed[b->index] = true;
   vec_foreach(ir_instr *, phi, &c->incomplete[b->index])
      if ((*phi)->block)
         add_phi_operands(c, (uint32_t)(*phi)->imm, *phi);
   c->incomplete[b->index].len = 0;
}

static void start_block(build_ctx *c, ir_block *b)
{
   if (!c->sealed[b->index] && c->filled_preds[b->index] == b->preds.len)
      seal_block(c, b);
   c->cur = b;
}

static void finish_block(build_ctx *c, ir_block *b)
{
   if (c->filled[b->index])
      return;
   c->filled[b->index] = true;
   ir_foreach_succ(s, b) {
      ir_block *sb = *s;
      if (++c->filled_preds[sb->index] == sb->preds.len && !c->sealed[sb->index])
         seal_block(c, sb);
   }
}

void bld_set_block(build_ctx *c, ir_block *b)
{
   if (c->cur)
      finish_block(c, c->cur);
   start_block(c, b);
}

/* ---- variables ---- */

static uint32_t new_var(build_ctx *c, uint8_t bits)
{
   if (c->nvars == c->var_cap) {
      uint32_t ncap = c->var_cap ? c->var_cap * 2 : 256;
      uint8_t *nb = arena_alloc(c->ar, ncap);
      if (!nb)
         return UINT32_MAX;
      if (c->var_bits)
         memcpy(nb, c->var_bits, c->var_cap);
      c->var_bits = nb;
      c->var_cap = ncap;
   }
   c->var_bits[c->nvars] = bits;
   return c->nvars++;
}

static bool scope_put(build_ctx *c, build_scope *s, build_sym *sym)
{
   if (!strmap_put(&s->names, sym->name, sym))
      return ir_error(c->m, c->line, "out of memory");
   return true;
}

static build_sym *scope_lookup(build_ctx *c, const char *name)
{
   for (build_scope *s = c->scope; s; s = s->parent) {
      build_sym *sym = strmap_get(&s->names, name);
      if (sym)
         return sym;
   }
   return NULL;
}

/* %r<100> declares %r0..%r99 as one range symbol under the prefix; look up
 * "%r17" as prefix "%r" + index 17. */
static build_sym *lookup_reg(build_ctx *c, const char *name)
{
   build_sym *sym = scope_lookup(c, name);
   if (sym)
      return sym;
   size_t n = strlen(name), d = n;
   while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
      d--;
   if (d == n || d == 0 || n - d > 9 || (name[d] == '0' && n - d > 1))
      return NULL;
   char prefix[256];
   if (d >= sizeof(prefix))
      return NULL;
   memcpy(prefix, name, d);
   prefix[d] = '<';   /* ranges are stored as "prefix<" */
   prefix[d + 1] = 0;
   build_sym *range = scope_lookup(c, prefix);
   if (!range)
      return NULL;
   uint32_t idx = (uint32_t)strtoul(name + d, NULL, 10);
   if (idx >= range->size)
      return NULL;
   build_sym *one = arena_alloc(c->ar, sizeof(*one));
   if (!one)
      return NULL;
   *one = *range;
   one->name = name;
   one->var = range->var + idx * (range->vec ? range->vec : 1u);   /* vector registers: vec variables each */
   one->size = 1;
   return one;
}

static uint8_t reg_bits(ptx_type t)
{
   if (t == PTX_T_PRED)
      return 1;
   return ptx_type_bits[t];
}

static bool declare_reg(build_ctx *c, const ptx_var *v)
{
   uint8_t bits = reg_bits(v->type);
   /* A .b128 register is two 64-bit variables, low half first (Metal has
    * no 128-bit integer; the few instructions that take one move it whole:
    * build_opnd.c bld_b128_halves). */
   bool b128 = v->type == PTX_T_B128 && !v->vec;
   if (b128)
      bits = 64;
   if (bits != 1 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
      return ir_error(c->m, v->loc.line, "registers of type .%s%s are not supported",
                      v->vec ? (v->vec == 2 ? "v2 ." : "v4 .") : "", ptx_type_names[v->type]);
   uint32_t count = v->range_count ? v->range_count : 1;
   uint32_t ncomp = b128 ? 2 : v->vec ? v->vec : 1;
   uint32_t first = UINT32_MAX;
   for (uint32_t k = 0; k < count * ncomp; k++) {
      uint32_t var = new_var(c, bits);
      if (var == UINT32_MAX)
         return ir_error(c->m, v->loc.line, "out of memory");
      if (first == UINT32_MAX)
         first = var;
   }
   build_sym *sym = arena_alloc(c->ar, sizeof(*sym));
   if (!sym)
      return ir_error(c->m, v->loc.line, "out of memory");
   sym->kind = SYM_REG;
   sym->type = v->type;
   sym->bits = bits;
   sym->vec = (uint8_t)(b128 ? 2 : v->vec ? v->vec : 0);
   sym->var = first;
   sym->size = count;
   sym->name = v->range_count ? arena_printf(c->ar, "%s<", v->name) : v->name;
   return sym->name && scope_put(c, c->scope, sym);
}

static uint32_t var_align(const ptx_var *v)
{
   uint32_t elem = ptx_type_bits[v->type] / 8 * (v->vec ? v->vec : 1);
   return v->align ? v->align : (elem ? elem : 1);
}

/* Declares a .local or .shared variable of the function (body or module
 * scope) in its space's layout. */
static build_sym *declare_var(build_ctx *c, build_scope *scope, const ptx_var *v)
{
   build_sym *sym = arena_alloc(c->ar, sizeof(*sym));
   if (!sym) {
      ir_error(c->m, v->loc.line, "out of memory");
      return NULL;
   }
   sym->kind = SYM_VAR;
   sym->name = v->name;
   sym->type = v->type;
   sym->size = ptx_var_size(v);
   uint32_t align = var_align(v);
   if (v->space == PTX_SPACE_LOCAL && scope == &c->module_scope && !c->f->is_kernel) {
      /* its storage would have to be shared with the kernel's frame */
      ir_error(c->m, c->line ? c->line : v->loc.line,
               "module-scope .local variable '%s' used in a .func is not supported", v->name);
      return NULL;
   }
   if (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM) {
      /* A .param in a body is a call's argument or return block: it lives
       * in the caller's local frame like .local (link_calls.c). */
      sym->space = IR_SPACE_LOCAL;
      for (build_scope *s = scope; v->space == PTX_SPACE_LOCAL && s; s = s->parent)
         s->keeps_local = true;
      c->f->local_bytes = (uint32_t)ALIGN_UP(c->f->local_bytes, align);
      sym->offset = c->f->local_bytes;
      c->f->local_bytes += (uint32_t)sym->size;
   } else if (v->space == PTX_SPACE_SHARED && (v->linkage == PTX_LINK_EXTERN || v->unsized)) {
      /* Dynamic shared memory: every extern array starts at the same
       * place, after the static variables (known only at the end). */
      sym->space = IR_SPACE_SHARED;
      sym->offset = UINT64_MAX;
      if (align > c->f->shared_dynamic_align)
         c->f->shared_dynamic_align = align;
      c->f->uses_dynamic_shared = true;
   } else if (v->space == PTX_SPACE_SHARED) {
      sym->space = IR_SPACE_SHARED;
      /* Static shared memory is laid out once for the library (the kernel
       * and its callees): a module-scope variable a callee shares with the
       * kernel keeps the kernel's offset. */
      void *known = scope == &c->module_scope ? strmap_get(&c->m->lib_shared, v->name) : NULL;
      if (known) {
         sym->offset = (uint64_t)((uintptr_t)known - 1);
      } else {
         c->shared_bytes = (uint32_t)ALIGN_UP(c->shared_bytes, align);
         sym->offset = c->shared_bytes;
         c->shared_bytes += (uint32_t)sym->size;
         if (scope == &c->module_scope) {
            if (!c->m->lib_shared.ar)
               strmap_init(&c->m->lib_shared, c->m->ar);
            if (!strmap_put(&c->m->lib_shared, v->name, (void *)(uintptr_t)(sym->offset + 1))) {
               ir_error(c->m, v->loc.line, "out of memory");
               return NULL;
            }
         }
      }
   } else {
      ir_error(c->m, v->loc.line, ".global/.const variables inside functions are not supported");
      return NULL;
   }
   if (!scope_put(c, scope, sym))
      return NULL;
   return sym;
}

/* Module-scope variables are declared lazily, on first use by this function,
 * so a kernel's shared layout holds only the variables it uses. */
static build_sym *lookup_module_var(build_ctx *c, const char *name)
{
   build_sym *sym = strmap_get(&c->module_scope.names, name);
   if (sym)
      return sym;
   ir_global *g = strmap_get(&c->m->global_map, name);
   if (g) {
      sym = arena_alloc(c->ar, sizeof(*sym));
      if (!sym)
         return NULL;
      sym->kind = SYM_VAR;
      sym->name = g->name;
      sym->space = g->space;
      sym->offset = g->offset;
      sym->size = g->size;
      return scope_put(c, &c->module_scope, sym) ? sym : NULL;
   }
   ptx_var *v = ptx_find_var(c->m->ptx, name);
   if (v && (v->space == PTX_SPACE_SHARED || v->space == PTX_SPACE_LOCAL))
      return declare_var(c, &c->module_scope, v);
   return NULL;
}

build_sym *bld_lookup(build_ctx *c, const char *name)
{
   build_sym *sym = lookup_reg(c, name);
   return sym ? sym : lookup_module_var(c, name);
}

/* ---- kernel parameters ---- */

static bool layout_params(build_ctx *c)
{
   const ptx_func *pf = c->pf;
   uint32_t off = 0;
   for (uint32_t k = 0; k < pf->nparams; k++) {
      const ptx_var *v = pf->params[k];
      if (v->space != PTX_SPACE_PARAM)
         return ir_error(c->m, v->loc.line, "kernel parameter '%s' is not in .param space", v->name);
      uint32_t align = var_align(v);
      uint32_t size = (uint32_t)ptx_var_size(v);
      off = (uint32_t)ALIGN_UP(off, align);
      ir_param p = { v->name, v->type, off, size, align, 0 };
      if (!vec_push(c->ar, &c->f->params, p))
         return ir_error(c->m, v->loc.line, "out of memory");
      build_sym *sym = arena_alloc(c->ar, sizeof(*sym));
      if (!sym)
         return ir_error(c->m, v->loc.line, "out of memory");
      sym->kind = SYM_PARAM;
      sym->name = v->name;
      sym->type = v->type;
      sym->offset = off;
      sym->size = size;
      if (!scope_put(c, c->scope, sym))
         return false;
      off += size;
   }
   c->f->param_bytes = off;
   return true;
}

/* ---- .func arguments (link_calls.c has the calling scheme) ---- */

/* A .func's returns and parameters, in that order, each an ARG value at
 * entry: a .reg one is the register's value, a .param one the local
 * address of the block the caller passes.  A .reg return is written back
 * through such an address at every ret. */
static bool layout_func_args(build_ctx *c)
{
   const ptx_func *pf = c->pf;
   c->regrets = arena_alloc(c->ar, (pf->nret + 1) * sizeof(*c->regrets));
   if (!c->regrets)
      return ir_error(c->m, pf->loc.line, "out of memory");
   for (uint32_t k = 0; k < pf->nret + pf->nparams; k++) {
      bool is_ret = k < pf->nret;
      const ptx_var *v = is_ret ? pf->rets[k] : pf->params[k - pf->nret];
      c->line = v->loc.line;
      ir_param p = { v->name, v->type, 0, (uint32_t)ptx_var_size(v), var_align(v), 0 };
      const build_sym *reg = NULL;
      if (v->space == PTX_SPACE_REG) {
         if (v->range_count || v->ndims || v->vec || v->type == PTX_T_B128)
            return ir_error(c->m, v->loc.line, ".reg argument '%s' of '%s' must be a scalar of up to 64 bits",
                            v->name, pf->name);
         if (is_ret && v->type == PTX_T_PRED)
            return ir_error(c->m, v->loc.line, ".pred return '%s' of '%s' is not supported", v->name, pf->name);
         if (!declare_reg(c, v))
            return false;
         reg = scope_lookup(c, v->name);
         /* a return, .reg or not, is passed as the address it goes to */
         p.reg_bits = is_ret ? 0 : reg->bits;
      } else if (v->space != PTX_SPACE_PARAM) {
         return ir_error(c->m, v->loc.line, "argument '%s' of '%s' is neither .param nor .reg", v->name, pf->name);
      }
      if (!vec_push(c->ar, &c->f->args, p))
         return ir_error(c->m, v->loc.line, "out of memory");
      bool value = reg && !is_ret;
      ir_instr *a = bld_emit(c, IR_ARG, 0, value ? reg->bits : 64, 1);
      if (!a)
         return false;
      a->imm = k;
      a->type = value ? v->type : PTX_T_U64;
      if (value) {
         write_var(c, reg->var, c->cur, &a->def);
         continue;
      }
      uint32_t av = new_var(c, 64);
      if (av == UINT32_MAX)
         return ir_error(c->m, v->loc.line, "out of memory");
      write_var(c, av, c->cur, &a->def);
      if (reg) {
         c->regrets[c->nregrets++] = (struct bld_regret){ reg, av, v->type };
         continue;
      }
      build_sym *sym = arena_alloc(c->ar, sizeof(*sym));
      if (!sym)
         return ir_error(c->m, v->loc.line, "out of memory");
      sym->kind = SYM_ARG;
      sym->name = v->name;
      sym->type = v->type;
      sym->var = av;
      sym->space = IR_SPACE_LOCAL;
      sym->size = p.size;
      if (!scope_put(c, c->scope, sym))
         return false;
   }
   return true;
}

bool bld_store_reg_rets(build_ctx *c)
{
   for (uint32_t k = 0; k < c->nregrets; k++) {
      const struct bld_regret *r = &c->regrets[k];
      ir_def *val = read_var(c, r->reg->var, c->cur), *addr = read_var(c, r->addr_var, c->cur);
      ir_instr *st = val && addr ? bld_emit(c, IR_STORE, 2, 0, 0) : NULL;
      if (!st)
         return false;
      st->type = r->type;
      st->space = IR_SPACE_LOCAL;
      bld_set_src(st, 0, addr);
      bld_set_src(st, 1, val);
   }
   return true;
}

ir_def *bld_read_var(build_ctx *c, uint32_t var) { return read_var(c, var, c->cur); }

/* ---- pass 1: CFG discovery ---- */

typedef struct stmt_blocks {
   ir_block **at;     /* block the statement's instruction goes in */
   ir_block **aux;    /* guarded bra: fallthrough; guarded ret/exit/trap: return block */
   ir_block **aux2;   /* guarded ret/exit/trap: fallthrough */
   ir_block ***chain; /* brx.idx: one test block per target but the last */
} stmt_blocks;

ir_block *bld_label_block(build_ctx *c, const char *label)
{
   return strmap_get(&c->labels, label);
}

static bool is_exit_op(ptx_opcode op) { return op == PTX_OP_RET || op == PTX_OP_EXIT || op == PTX_OP_TRAP; }

static const ptx_stmt *find_branchtargets(const ptx_func *pf, const char *name)
{
   for (uint32_t s = 0; s < pf->nstmts; s++)
      if (pf->stmts[s].kind == PTX_STMT_BRANCHTARGETS && !strcmp(pf->stmts[s].u.targets.name, name))
         return &pf->stmts[s];
   return NULL;
}

/* brx.idx i, tlist becomes a chain of tests "i == k" (k = 0 .. n-2), the
 * last target taking every other index: an index out of range is undefined
 * behaviour in PTX, and a chain keeps the CFG reducible and structurable
 * where Metal has no indirect branch.  A guarded brx first branches on the
 * guard to the chain or the fallthrough (aux). */
static bool discover_brx(build_ctx *c, stmt_blocks *sb, uint32_t s, ir_block **curp)
{
   const ptx_instr *in = c->pf->stmts[s].u.instr;
   const ptx_operand *t = in->nopnds == 2 ? in->opnds[1] : NULL;
   const ptx_stmt *bt = t && t->kind == PTX_OPND_SYM ? find_branchtargets(c->pf, t->u.sym.name) : NULL;
   if (!bt || !bt->u.targets.n)
      return ir_error(c->m, in->loc.line, "brx.idx needs a .branchtargets list of this function");
   uint32_t n = bt->u.targets.n;
   ir_block **tgt = arena_alloc(c->ar, n * sizeof(*tgt));
   ir_block **chain = arena_alloc(c->ar, (n + 1) * sizeof(*chain));
   if (!tgt || !chain)
      return ir_error(c->m, in->loc.line, "out of memory");
   for (uint32_t k = 0; k < n; k++)
      if (!(tgt[k] = bld_label_block(c, bt->u.targets.labels[k])))
         return ir_error(c->m, in->loc.line, "branch target '%s' is not a label of this function",
                         bt->u.targets.labels[k]);
   ir_block *cur = *curp;
   chain[0] = cur;
   if (in->guard) {
      ir_block *next = ir_block_create(c->f, NULL);
      if (!next || !(chain[0] = ir_block_create(c->f, NULL)))
         return ir_error(c->m, in->loc.line, "out of memory");
      ir_block_add_succ(cur, in->guard_negate ? next : chain[0]);
      ir_block_add_succ(cur, in->guard_negate ? chain[0] : next);
      sb->aux[s] = next;
      *curp = next;
   }
   /* chain: the test blocks (just chain[0] when n == 1), NULL-terminated */
   for (uint32_t k = 0; k + 1 < n; k++) {
      ir_block *rest = k + 2 < n ? ir_block_create(c->f, NULL) : tgt[n - 1];
      if (!rest)
         return ir_error(c->m, in->loc.line, "out of memory");
      ir_block_add_succ(chain[k], tgt[k]);
      ir_block_add_succ(chain[k], rest);
      chain[k + 1] = k + 2 < n ? rest : NULL;
   }
   if (n == 1) {
      ir_block_add_succ(chain[0], tgt[0]);
      chain[1] = NULL;
   }
   sb->chain[s] = chain;
   return true;
}

static bool discover_cfg(build_ctx *c, stmt_blocks *sb)
{
   const ptx_func *pf = c->pf;
   ir_func *f = c->f;
   ir_block *cur = ir_block_create(f, "entry");
   if (!cur)
      return ir_error(c->m, pf->loc.line, "out of memory");
   for (uint32_t s = 0; s < pf->nstmts; s++) {
      const ptx_stmt *st = &pf->stmts[s];
      if (st->kind != PTX_STMT_LABEL)
         continue;
      if (strmap_get(&c->labels, st->u.label))
         return ir_error(c->m, st->loc.line, "duplicate label '%s'", st->u.label);
      ir_block *b = ir_block_create(f, st->u.label);
      if (!b || !strmap_put(&c->labels, st->u.label, b))
         return ir_error(c->m, st->loc.line, "out of memory");
   }
   bool terminated = false;
   for (uint32_t s = 0; s < pf->nstmts; s++) {
      const ptx_stmt *st = &pf->stmts[s];
      if (st->kind == PTX_STMT_LABEL) {
         ir_block *l = strmap_get(&c->labels, st->u.label);
         if (!terminated)
            ir_block_add_succ(cur, l);
         cur = l;
         terminated = false;
         continue;
      }
      if (st->kind != PTX_STMT_INSTR)
         continue;
      const ptx_instr *in = st->u.instr;
      if (terminated) {
         cur = ir_block_create(f, NULL);
         if (!cur)
            return ir_error(c->m, st->loc.line, "out of memory");
         terminated = false;
      }
      sb->at[s] = cur;
      if (in->op == PTX_OP_BRA) {
         const ptx_operand *t = in->nopnds ? in->opnds[0] : NULL;
         ir_block *target = t && t->kind == PTX_OPND_SYM ? bld_label_block(c, t->u.sym.name) : NULL;
         if (!target)
            return ir_error(c->m, in->loc.line, "branch target is not a label of this function");
         if (!in->guard) {
            ir_block_add_succ(cur, target);
            terminated = true;
            continue;
         }
         ir_block *next = ir_block_create(f, NULL);
         if (!next)
            return ir_error(c->m, in->loc.line, "out of memory");
         /* succs[0] is taken when the condition holds; the guard's negation
          * is applied by ordering the successors. */
         if (in->guard_negate) {
            ir_block_add_succ(cur, next);
            ir_block_add_succ(cur, target);
         } else {
            ir_block_add_succ(cur, target);
            ir_block_add_succ(cur, next);
         }
         sb->aux[s] = next;
         cur = next;
      } else if (is_exit_op(in->op)) {
         if (!in->guard) {
            terminated = true;
            continue;
         }
         ir_block *rb = ir_block_create(f, NULL), *next = ir_block_create(f, NULL);
         if (!rb || !next)
            return ir_error(c->m, in->loc.line, "out of memory");
         if (in->guard_negate) {
            ir_block_add_succ(cur, next);
            ir_block_add_succ(cur, rb);
         } else {
            ir_block_add_succ(cur, rb);
            ir_block_add_succ(cur, next);
         }
         sb->aux[s] = rb;
         sb->aux2[s] = next;
         cur = next;
      } else if (in->op == PTX_OP_BRX) {
         if (!discover_brx(c, sb, s, &cur))
            return false;
         terminated = !in->guard;
      }
   }
   return true;
}

/* ---- pass 2: translation ---- */

static bool emit_exit(build_ctx *c, const ptx_instr *in)
{
   ir_op op = in->op == PTX_OP_TRAP ? IR_TRAP : c->f->is_kernel || in->op == PTX_OP_EXIT ? IR_EXIT : IR_RET;
   if (op == IR_RET && !bld_store_reg_rets(c))
      return false;
   return bld_emit(c, op, 0, 0, 0) != NULL;
}

static bool emit_cbr(build_ctx *c, const ptx_instr *in)
{
   const build_sym *p = bld_lookup(c, in->guard);
   if (!p || p->kind != SYM_REG || p->bits != 1)
      return ir_error(c->m, in->loc.line, "guard '%s' is not a predicate register", in->guard);
   ir_def *cond = read_var(c, p->var, c->cur);
   ir_instr *br = bld_emit(c, IR_CBR, 1, 0, 0);
   if (!br || !cond)
      return false;
   bld_set_src(br, 0, cond);
   return true;
}

static bool translate_brx(build_ctx *c, const stmt_blocks *sb, uint32_t s)
{
   const ptx_instr *in = c->in;
   ir_block **chain = sb->chain[s];
   if (in->guard) {
      if (!emit_cbr(c, in))
         return false;
      bld_set_block(c, chain[0]);
   }
   ir_def *idx = bld_src(c, 0, PTX_T_U32, 32);
   if (!idx)
      return false;
   if (!chain[1] && chain[0]->succs.len == 1)
      return bld_emit(c, IR_BR, 0, 0, 0) != NULL;
   for (uint32_t k = 0; chain[k]; k++) {
      if (k)
         bld_set_block(c, chain[k]);
      ir_def *kc = bld_const(c, 32, k);
      ir_instr *eq = kc ? bld_emit(c, IR_SETP, 2, 1, 1) : NULL;
      if (!eq)
         return false;
      eq->type = PTX_T_U32;
      eq->sub = IR_CMP_EQ;
      bld_set_src(eq, 0, idx);
      bld_set_src(eq, 1, kc);
      ir_instr *br = bld_emit(c, IR_CBR, 1, 0, 0);
      if (!br)
         return false;
      bld_set_src(br, 0, &eq->def);
   }
   if (in->guard)
      bld_set_block(c, sb->aux[s]);
   return true;
}

static bool translate_stmt(build_ctx *c, const ptx_stmt *st, const stmt_blocks *sb, uint32_t s)
{
   switch (st->kind) {
   case PTX_STMT_LABEL: {
      ir_block *l = bld_label_block(c, st->u.label);
      if (!ir_block_terminator(c->cur) && !bld_emit(c, IR_BR, 0, 0, 0))
         return false;
      bld_set_block(c, l);
      return true;
   }
   case PTX_STMT_SCOPE_BEGIN: {
      build_scope *sc = arena_alloc(c->ar, sizeof(*sc));
      if (!sc)
         return ir_error(c->m, st->loc.line, "out of memory");
      strmap_init(&sc->names, c->ar);
      sc->parent = c->scope;
      sc->local_mark = c->f->local_bytes;
      sc->keeps_local = false;
      c->scope = sc;
      return true;
   }
   case PTX_STMT_SCOPE_END:
      if (c->scope->parent && c->scope->parent != &c->module_scope) {
         c->local_peak = MC_MAX(c->local_peak, c->f->local_bytes);
         if (!c->scope->keeps_local)
            c->f->local_bytes = c->scope->local_mark;
         c->scope = c->scope->parent;
      }
      return true;
   case PTX_STMT_VAR:
      c->line = st->loc.line;
      if (st->u.var->space == PTX_SPACE_REG)
         return declare_reg(c, st->u.var);
      return declare_var(c, c->scope, st->u.var) != NULL;
   case PTX_STMT_INSTR:
      break;
   default:
      return true;
   }
   const ptx_instr *in = st->u.instr;
   c->in = in;
   c->line = in->loc.line;
   if (sb->at[s] != c->cur)
      bld_set_block(c, sb->at[s]);
   if (in->op == PTX_OP_BRA) {
      if (!in->guard)
         return bld_emit(c, IR_BR, 0, 0, 0) != NULL;
      if (!emit_cbr(c, in))
         return false;
      bld_set_block(c, sb->aux[s]);
      return true;
   }
   if (in->op == PTX_OP_BRX)
      return translate_brx(c, sb, s);
   if (is_exit_op(in->op)) {
      if (!in->guard)
         return emit_exit(c, in);
      if (!emit_cbr(c, in))
         return false;
      bld_set_block(c, sb->aux[s]);
      if (!emit_exit(c, in))
         return false;
      bld_set_block(c, sb->aux2[s]);
      return true;
   }
   return bld_instr(c);
}

static bool alloc_block_state(build_ctx *c)
{
   uint32_t n = c->f->blocks.len;
   c->filled_preds = arena_alloc(c->ar, n * sizeof(*c->filled_preds));
   c->sealed = arena_alloc(c->ar, n * sizeof(*c->sealed));
   c->filled = arena_alloc(c->ar, n * sizeof(*c->filled));
   c->incomplete = arena_alloc(c->ar, n * sizeof(*c->incomplete));
   return c->filled_preds && c->sealed && c->filled && c->incomplete;
}

static void finish_layout(build_ctx *c)
{
   ir_func *f = c->f;
   f->shared_static_bytes = c->shared_bytes;
   /* Dynamic shared memory offsets were left open: the emitter places the
    * dynamic area at align_up(static, shared_dynamic_align). */
   f->local_bytes = (uint32_t)ALIGN_UP(f->local_bytes, 16);
   for (int k = 0; k < 3; k++) {
      f->reqntid[k] = c->pf->reqntid[k];
      f->maxntid[k] = c->pf->maxntid[k];
   }
}

ir_func *ir_build_func(ir_module *m, const ptx_func *pf)
{
   if (pf->error) {
      /* the parser's message already names line and column */
      if (!m->error)
         m->error = arena_printf(m->ar, "PTX %s", pf->error);
      return NULL;
   }
   if (!pf->has_body) {
      ir_error(m, pf->loc.line, "function '%s' has no body in this module", pf->name);
      return NULL;
   }
   /* A cluster shape fixed at compile time (__cluster_dims__) makes every
    * launch of the kernel a cluster launch; the cluster instructions here
    * (build_cluster.c) are exact for clusters of one block only. */
   const uint32_t *rc = pf->reqnctapercluster;
   if (pf->is_entry && (uint64_t)MC_MAX(rc[0], 1u) * MC_MAX(rc[1], 1u) * MC_MAX(rc[2], 1u) > 1) {
      ir_error(m, pf->loc.line, "kernel '%s' asks for thread block clusters of %u x %u x %u blocks "
               "(.reqnctapercluster): clusters of more than one block are not supported yet", pf->name,
               rc[0], MC_MAX(rc[1], 1u), MC_MAX(rc[2], 1u));
      return NULL;
   }
   build_ctx c = { 0 };
   c.m = m;
   c.ar = m->ar;
   c.pf = pf;
   c.f = ir_func_create(m, pf->name, pf->is_entry);
   if (!c.f) {
      ir_error(m, pf->loc.line, "out of memory");
      return NULL;
   }
   strmap_init(&c.module_scope.names, c.ar);
   strmap_init(&c.labels, c.ar);
   u64map_init(&c.defs, c.ar);
   build_scope *fs = arena_alloc(c.ar, sizeof(*fs));
   stmt_blocks sb = {
      arena_alloc(c.ar, (pf->nstmts + 1) * sizeof(ir_block *)),
      arena_alloc(c.ar, (pf->nstmts + 1) * sizeof(ir_block *)),
      arena_alloc(c.ar, (pf->nstmts + 1) * sizeof(ir_block *)),
      arena_alloc(c.ar, (pf->nstmts + 1) * sizeof(ir_block **)),
   };
   if (!fs || !sb.at || !sb.aux || !sb.aux2 || !sb.chain) {
      ir_error(m, pf->loc.line, "out of memory");
      return NULL;
   }
   strmap_init(&fs->names, c.ar);
   fs->parent = &c.module_scope;
   c.scope = fs;
   if ((pf->is_entry && !layout_params(&c)) || !discover_cfg(&c, &sb) || !alloc_block_state(&c))
      return NULL;
   c.cur = NULL;
   bld_set_block(&c, c.f->blocks.data[0]);
   /* A callee continues the library's static shared layout. */
   c.shared_bytes = pf->is_entry ? 0 : m->lib_shared_bytes;
   if (!pf->is_entry && !layout_func_args(&c))
      return NULL;
   for (uint32_t s = 0; s < pf->nstmts; s++) {
      bool ok = translate_stmt(&c, &pf->stmts[s], &sb, s) && !m->error;
      if (m->probe && pf->stmts[s].kind == PTX_STMT_INSTR) {
         m->probe(m->probe_data, pf->stmts[s].u.instr, ok ? NULL : m->error ? m->error : "error");
         m->error = NULL;
      } else if (!ok) {
         return NULL;
      }
   }
   c.f->local_bytes = MC_MAX(c.f->local_bytes, c.local_peak);
   if (!ir_block_terminator(c.cur)) {
      c.line = pf->nstmts ? pf->stmts[pf->nstmts - 1].loc.line : pf->loc.line;
      if (!bld_emit(&c, c.f->is_kernel ? IR_EXIT : IR_RET, 0, 0, 0))
         return NULL;
   }
   finish_block(&c, c.cur);
   /* Every block has been filled, so every block is sealed now. */
   ir_foreach_block(b, c.f)
      if (!c.sealed[b->index])
         seal_block(&c, b);
   if (m->error || c.ar->failed) {
      if (!m->error)
         ir_error(m, pf->loc.line, "out of memory");
      return NULL;
   }
   finish_layout(&c);
   m->lib_shared_bytes = MC_MAX(m->lib_shared_bytes, c.shared_bytes);
   c.f->valid = IR_META_CFG;
   ir_func_remove_unreachable(c.f);
   return c.f;
}

/* ---- helpers for build_instr.c ---- */

ir_def *bld_read_reg(build_ctx *c, const build_sym *reg, unsigned comp)
{
   return read_var(c, reg->var + comp, c->cur);
}

void bld_write_reg(build_ctx *c, const build_sym *reg, unsigned comp, ir_def *d)
{
   write_var(c, reg->var + comp, c->cur, d);
}

/* The condition-code carry flag (CC.CF) of add.cc/addc and friends is one
 * more SSA variable, created on first use; reading it before any write
 * reads an undefined value, as in PTX. */
static uint32_t cc_var(build_ctx *c)
{
   if (c->cc_var == 0)
      c->cc_var = new_var(c, 1) + 1;
   return c->cc_var - 1;
}

ir_def *bld_read_cc(build_ctx *c)
{
   return read_var(c, cc_var(c), c->cur);
}

void bld_write_cc(build_ctx *c, ir_def *d)
{
   write_var(c, cc_var(c), c->cur, d);
}

ir_instr *bld_emit(build_ctx *c, ir_op op, uint32_t nsrcs, uint8_t bits, uint8_t ncomp)
{
   ir_instr *i = ir_instr_create(c->f, op, nsrcs, bits, ncomp);
   if (!i) {
      ir_error(c->m, c->line, "out of memory");
      return NULL;
   }
   i->line = c->line;
   ir_instr_append(c->cur, i);
   return i;
}
