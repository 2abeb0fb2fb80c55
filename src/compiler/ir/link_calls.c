/*
 * link_calls.c — makes a kernel and the .funcs it calls one library.
 *
 * MSL has ordinary functions but no recursion and no function pointers
 * (metal-semantics §1.2), so a kernel's library holds the kernel and one
 * MSL function per .func it reaches, callees first.  This pass:
 *   1. builds every .func the kernel reaches (ir_build_func), in the same
 *      module, so they share the module-level layouts below;
 *   2. refuses recursion (a cycle in the call graph), naming the cycle, and
 *      orders m->funcs callees first, the kernel last (emission order);
 *   3. lays out local memory: the thread has one local array (the kernel's
 *      mc_local) and every function a frame in it at a fixed offset, after
 *      the frames of all its callers (no recursion: the call graph is a
 *      DAG, so the offset is the longest caller chain).  A local address
 *      is then the same number in every function, so a pointer to a
 *      caller's local variable, or to a call's .param block, works in the
 *      callee (PTX passes such pointers freely: %SP, &local, .param).  The
 *      frame base is added to every local SYMADDR of a .func here;
 *   4. merges shared memory: build.c lays out static shared memory across
 *      the library (ir_module.lib_shared); the kernel's layout becomes the
 *      union, with the dynamic part after it;
 *   5. turns "the thread ended inside the callee" into control flow: a
 *      .func that may end the thread (exit, trap, __assertfail, or a callee
 *      that may) reports it through its CALL's 1-bit def, and the caller
 *      branches to an exit of its own.  __assertfail ends the thread too
 *      (its PTX falls through: the message is recorded and the thread
 *      stops, as trap does), so its block ends with an exit;
 *   6. records what the library needs: printf/assert records, the clock
 *      counter.
 *
 * Precondition: the kernel was built (IR_META_CFG); runs before the
 * pipeline, which then processes every function.  Preserves IR_META_CFG.
 */
#include "ir.h"

#include <string.h>

static ir_func *find_func(ir_module *m, const char *name)
{
   ir_foreach_func(f, m)
      if (!strcmp(f->name, name))
         return f;
   return NULL;
}

/* 1. Builds the callees of every function, transitively. */
static bool build_callees(ir_module *m)
{
   for (uint32_t fi = 0; fi < m->funcs.len; fi++) {
      ir_func *f = m->funcs.data[fi];
      ir_foreach_block(b, f) {
         ir_foreach_instr(i, b) {
            if (i->op != IR_CALL || find_func(m, i->sym))
               continue;
            const ptx_func *pf = ptx_find_func(m->ptx, i->sym);
            if (!pf)
               return ir_error(m, i->line, "call of unknown function '%s'", i->sym);
            if (!ir_build_func(m, pf))
               return false;
            /* m->funcs may have moved: f stays valid (it is a pointer) */
         }
      }
   }
   return true;
}

/* 2. Depth-first over the call graph: post-order (callees first) into
 * order[], cycles refused.  state: 0 new, 1 on the path, 2 done. */
typedef struct dfs {
   ir_module *m;
   ir_func **order;
   uint32_t n;
   uint8_t *state;
   ir_func **path;
   uint32_t depth;
} dfs;

static uint32_t func_index(ir_module *m, const ir_func *f)
{
   for (uint32_t k = 0; k < m->funcs.len; k++)
      if (m->funcs.data[k] == f)
         return k;
   return UINT32_MAX;
}

static bool visit(dfs *d, ir_func *f, uint32_t line)
{
   uint32_t fi = func_index(d->m, f);
   if (d->state[fi] == 2)
      return true;
   if (d->state[fi] == 1) {
      strbuf cycle;
      strbuf_init(&cycle);
      bool on = false;
      for (uint32_t k = 0; k < d->depth; k++) {
         on |= d->path[k] == f;
         if (on)
            strbuf_printf(&cycle, "'%s' -> ", d->path[k]->name);
      }
      strbuf_printf(&cycle, "'%s'", f->name);
      ir_error(d->m, line, "recursion (%s) is not supported: Metal has no recursive functions",
               cycle.s ? cycle.s : f->name);
      strbuf_free(&cycle);
      return false;
   }
   d->state[fi] = 1;
   d->path[d->depth++] = f;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (i->op == IR_CALL && !visit(d, find_func(d->m, i->sym), i->line))
            return false;
   d->depth--;
   d->state[fi] = 2;
   d->order[d->n++] = f;
   return true;
}

/* Checks a call against the callee's arguments (the builder made them
 * match; a mismatch is our bug). */
static void check_call(ir_func *f, const ir_instr *i, const ir_func *callee)
{
   if (i->nsrcs != callee->args.len)
      ir_die(f, "call of %s passes %u arguments for %u", callee->name, i->nsrcs, callee->args.len);
   for (uint32_t k = 0; k < i->nsrcs; k++) {
      uint8_t want = callee->args.data[k].reg_bits ? callee->args.data[k].reg_bits : 64;
      if (i->srcs[k].def->bits != want)
         ir_die(f, "call of %s: argument %u has %u bits, wants %u", callee->name, k, i->srcs[k].def->bits, want);
   }
}

static ir_instr *new_instr(ir_func *f, ir_op op, uint32_t nsrcs, uint8_t bits, uint32_t line)
{
   ir_instr *i = ir_instr_create(f, op, nsrcs, bits, 1);
   if (i)
      i->line = line;
   return i;
}

/* Ends the block of i right after it with `cbr cond → exit, rest` (cond
 * NULL: with an exit alone, the rest becoming unreachable).  neg: the exit
 * is taken when cond is false. */
static bool end_with_exit(ir_func *f, ir_instr *i, ir_def *cond, bool neg)
{
   ir_block *b = i->block;
   ir_block *rest = ir_block_split_after(i);
   ir_block *x = cond ? ir_block_create(f, NULL) : b;
   ir_instr *ex = new_instr(f, IR_EXIT, 0, 0, i->line);
   if (!rest || !x || !ex)
      return false;
   ir_instr_append(x, ex);
   if (!cond)
      return true;   /* rest is unreachable now */
   ir_instr *cbr = new_instr(f, IR_CBR, 1, 0, i->line);
   if (!cbr)
      return false;
   ir_src_set(&cbr->srcs[0], cbr, cond);
   ir_instr_append(b, cbr);
   ir_block_add_succ(b, neg ? rest : x);
   ir_block_add_succ(b, neg ? x : rest);
   return true;
}

/* 5. __assertfail and calls of functions that may stop end the thread. */
static bool lower_stops(ir_func *f)
{
   bool changed = false;
   /* Blocks appended by the splits are visited too. */
   for (uint32_t bi = 0; bi < f->blocks.len; bi++) {
      ir_block *b = f->blocks.data[bi];
      ir_foreach_instr(i, b) {
         /* already lowered: followed by its exit */
         if (i->op == IR_ASSERTFAIL && !(i->next && i->next->op == IR_EXIT && !i->guard.def)) {
            bool ok;
            if (i->guard.def) {
               /* cbr guard → [assertfail; exit], rest */
               ir_def *g = i->guard.def;
               bool neg = i->flags & IR_F_GUARD_NEG;
               ir_block *rest = ir_block_split_after(i);
               ir_block *x = ir_block_create(f, NULL);
               ir_instr *ex = new_instr(f, IR_EXIT, 0, 0, i->line), *cbr = new_instr(f, IR_CBR, 1, 0, i->line);
               ok = rest && x && ex && cbr;
               if (ok) {
                  ir_src_set(&cbr->srcs[0], cbr, g);
                  ir_src_clear(&i->guard);
                  i->flags &= (uint16_t)~IR_F_GUARD_NEG;
                  ir_instr_unlink(i);
                  ir_instr_append(x, i);
                  ir_instr_append(x, ex);
                  ir_instr_append(b, cbr);
                  ir_block_add_succ(b, neg ? rest : x);
                  ir_block_add_succ(b, neg ? x : rest);
               }
            } else {
               ok = end_with_exit(f, i, NULL, false);
            }
            if (!ok)
               return ir_error(f->module, i->line, "out of memory");
            changed = true;
            break;   /* the rest of b moved (or is gone) */
         }
         if (i->op != IR_CALL || i->def.bits)
            continue;
         ir_func *callee = find_func(f->module, i->sym);
         if (!callee->may_stop)
            continue;
         /* The call reports whether the callee ended the thread. */
         i->def.parent = i;
         i->def.index = f->ndefs++;
         i->def.bits = 1;
         i->def.ncomp = 1;
         if (i->guard.def) {
            /* not run: not stopped (ir_lower_predicates merges it) */
            ir_instr *no = new_instr(f, IR_CONST, 0, 1, i->line);
            if (!no)
               return ir_error(f->module, i->line, "out of memory");
            no->type = PTX_T_PRED;
            ir_instr_insert_before(i, no);
            ir_src_set(&i->old, i, &no->def);
         }
         if (!end_with_exit(f, i, &i->def, false))
            return ir_error(f->module, i->line, "out of memory");
         changed = true;
         break;
      }
   }
   if (changed)
      ir_func_remove_unreachable(f);
   return true;
}

static bool may_stop(const ir_func *f)
{
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         if (i->op == IR_EXIT || i->op == IR_TRAP || i->op == IR_ASSERTFAIL)
            return true;
         if (i->op == IR_CALL && find_func(f->module, i->sym)->may_stop)
            return true;
      }
   }
   return false;
}

/* 3. Frames: every function after the frames of all its callers.  order[]
 * is callees first, so walking it backwards meets callers first. */
static void layout_frames(ir_module *m, ir_func **order, uint32_t n, ir_func *kernel)
{
   uint32_t total = 0;
   for (uint32_t k = n; k-- > 0;) {
      ir_func *f = order[k];
      uint32_t end = f->frame_base + (uint32_t)ALIGN_UP(f->local_bytes, 16);
      total = MC_MAX(total, end);
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            if (i->op == IR_CALL) {
               ir_func *callee = find_func(m, i->sym);
               callee->frame_base = MC_MAX(callee->frame_base, end);
            }
   }
   kernel->local_total = total;
   for (uint32_t k = 0; k < n; k++) {
      ir_func *f = order[k];
      if (f == kernel || !f->frame_base)
         continue;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            if (i->op == IR_SYMADDR && i->space == IR_SPACE_LOCAL)
               i->imm += f->frame_base;
   }
}

/* A fence beyond the block: membar.gl/.sys, fence.*.gpu/.sys, and an
 * .acquire/.release/.acq_rel atomic at those scopes (msl/emit_atom.c puts
 * a device-scope fence around it).  Such a kernel hands data to other
 * blocks through plain memory. */
static bool fences_device(const ir_instr *i)
{
   if (i->op == IR_MEMBAR)
      return (i->sub & IR_SCOPE_MASK) != IR_SCOPE_CTA;
   if (i->op == IR_ATOM || i->op == IR_RED)
      return (i->imm & IR_SEM_MASK) != IR_SEM_RELAXED && (i->imm & IR_SCOPE_MASK) != IR_SCOPE_CTA;
   return false;
}

static bool reads_clock(const ir_instr *i)
{
   return i->op == IR_SREG &&
          (i->sub == IR_SREG_CLOCK || i->sub == IR_SREG_CLOCK64 || i->sub == IR_SREG_GLOBALTIMER);
}

bool ir_link_calls(ir_module *m, ir_func *kernel)
{
   if (!build_callees(m))
      return false;
   uint32_t n = m->funcs.len;
   dfs d = { m, arena_alloc(m->ar, (n + 1) * sizeof(ir_func *)), 0, arena_alloc(m->ar, n + 1),
             arena_alloc(m->ar, (n + 1) * sizeof(ir_func *)), 0 };
   if (!d.order || !d.state || !d.path)
      return ir_error(m, 0, "out of memory");
   memset(d.state, 0, n + 1);
   if (!visit(&d, kernel, 0))
      return false;
   /* Only what the kernel reaches (a .func it no longer calls after a
    * failed build is not there), callees first. */
   for (uint32_t k = 0; k < d.n; k++)
      m->funcs.data[k] = d.order[k];
   m->funcs.len = d.n;
   for (uint32_t k = 0; k < d.n; k++) {
      ir_func *f = d.order[k];
      f->kernel = kernel;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            if (i->op == IR_CALL)
               check_call(f, i, find_func(m, i->sym));
      if (!f->is_kernel)
         f->may_stop = may_stop(f);
   }
   for (uint32_t k = 0; k < d.n; k++)
      if (!lower_stops(d.order[k]))
         return false;
   layout_frames(m, d.order, d.n, kernel);
   for (uint32_t k = 0; k < d.n; k++) {
      ir_func *f = d.order[k];
      kernel->shared_static_bytes = MC_MAX(kernel->shared_static_bytes, f->shared_static_bytes);
      if (f->uses_dynamic_shared) {
         kernel->uses_dynamic_shared = true;
         kernel->shared_dynamic_align = MC_MAX(kernel->shared_dynamic_align, f->shared_dynamic_align);
      }
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b) {
            kernel->uses_printf |= i->op == IR_VPRINTF || i->op == IR_ASSERTFAIL;
            kernel->uses_malloc |= i->op == IR_MALLOC || i->op == IR_FREE;
            kernel->uses_clock |= reads_clock(i);
            kernel->coherent |= fences_device(i);
         }
   }
   return m->error == NULL && !m->ar->failed;
}
