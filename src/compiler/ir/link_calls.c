/*
 * link_calls.c — makes a kernel and the .funcs it calls one library.
 *
 * MSL has ordinary functions but no recursion and no function pointers
 * (metal-semantics §1.2), so a kernel's library holds the kernel and one
 * MSL function per .func it reaches, callees first.  This pass:
 *   1. builds every .func the kernel reaches (ir_build_func), in the same
 *      module, so they share the module-level layouts below;
 *   2. finds recursion: the strongly connected components of the call
 *      graph (Tarjan), an indirect call's possible targets counted as
 *      callees; a component with a cycle is recursive (ir_func.scc), its
 *      functions become step functions over an explicit stack of frames
 *      (msl/emit_rec.c).  m->funcs is ordered callees first, the kernel
 *      last (emission order), a component's functions together;
 *   3. lays out local memory: the thread has one local array (the kernel's
 *      mc_local) and every non-recursive function a frame in it at a fixed
 *      offset, after the frames of all its callers (the longest caller
 *      chain: the call graph less its recursive components is a DAG).  A
 *      local address is then the same number in every function, so a
 *      pointer to a caller's local variable, or to a call's .param block,
 *      works in the callee (PTX passes such pointers freely: %SP, &local,
 *      .param).  The frame base is added to every local SYMADDR of a .func
 *      here.  Recursive functions have no fixed frame: their activations'
 *      frames are pushed on the recursion stack, which starts after every
 *      fixed frame (ir_func.stack_base) and holds IR_STACK_SCALE (8)
 *      times stack_bytes,
 *      CUDA's cudaLimitStackSize (compiler_options.stack_bytes): a frame
 *      here is larger than NVIDIA's (the arguments and the calls' .param
 *      blocks are in memory, every value live across some call has its own
 *      slot), and a recursion that fits CUDA's stack on an NVIDIA GPU must
 *      fit here too (measured on an H200, CUDA 13.0: 32 and 24 bytes a
 *      frame for a 2- and a 7-argument function, 80 and 64 here; 160 for
 *      a 7-argument one with more values live across its calls); their
 *      local
 *      SYMADDRs stay relative to their frame.  The fixed frames of the
 *      functions a recursive component calls come after those of all the
 *      component's outside callers: they are live only during that call;
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
 * A recursive function may end the thread (a stack overflow does, as a
 * trap), so its callers handle that as in 5.  A barrier or warp operation
 * in a recursive function is refused: its frames' threads would meet at
 * different depths.
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
            for (uint32_t t = 0; i->op == IR_CALL && t < ir_call_ntargets(i); t++) {
               const char *name = ir_call_target(i, t);
               if (find_func(m, name))
                  continue;
               const ptx_func *pf = ptx_find_func(m->ptx, name);
               if (!pf)
                  return ir_error(m, i->line, "call of unknown function '%s'", name);
               if (!ir_build_func(m, pf))
                  return false;
               /* m->funcs may have moved: f stays valid (it is a pointer) */
            }
         }
      }
   }
   return true;
}

/* 2. Tarjan's strongly connected components over the call graph: each
 * component is appended to order[] when its root finishes, so callees'
 * components come first.  Iterative on an explicit stack (call graphs of
 * templates run deep). */
typedef struct scc_state {
   ir_module *m;
   ir_func **order;
   uint32_t n, counter, nscc;
   uint32_t *num, *low;    /* by function index: DFS number (0: new), lowlink */
   bool *on;               /* on the component stack */
   ir_func **stk;          /* the component stack */
   uint32_t sp;
} scc_state;

static uint32_t func_index(ir_module *m, const ir_func *f)
{
   for (uint32_t k = 0; k < m->funcs.len; k++)
      if (m->funcs.data[k] == f)
         return k;
   return UINT32_MAX;
}

/* The k-th callee of f (its calls' targets in order), NULL past the last. */
static ir_func *nth_callee(ir_func *f, uint32_t k)
{
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         for (uint32_t t = 0; i->op == IR_CALL && t < ir_call_ntargets(i); t++)
            if (k-- == 0)
               return find_func(f->module, ir_call_target(i, t));
   return NULL;
}

static bool calls(ir_func *f, const ir_func *g)
{
   ir_func *c;
   for (uint32_t k = 0; (c = nth_callee(f, k)); k++)
      if (c == g)
         return true;
   return false;
}

static bool strongconnect(scc_state *st, ir_func *root)
{
   uint32_t nf = st->m->funcs.len;
   ir_func **fs = arena_alloc(st->m->ar, (nf + 1) * sizeof(*fs));
   uint32_t *next = arena_alloc(st->m->ar, (nf + 1) * sizeof(*next));
   if (!fs || !next)
      return false;
   uint32_t depth = 0;
   fs[depth] = root;
   next[depth++] = 0;
   uint32_t ri = func_index(st->m, root);
   st->num[ri] = st->low[ri] = ++st->counter;
   st->stk[st->sp++] = root;
   st->on[ri] = true;
   while (depth) {
      ir_func *f = fs[depth - 1];
      uint32_t fi = func_index(st->m, f);
      ir_func *c = nth_callee(f, next[depth - 1]++);
      if (c) {
         uint32_t ci = func_index(st->m, c);
         if (!st->num[ci]) {
            st->num[ci] = st->low[ci] = ++st->counter;
            st->stk[st->sp++] = c;
            st->on[ci] = true;
            fs[depth] = c;
            next[depth++] = 0;
         } else if (st->on[ci]) {
            st->low[fi] = MC_MIN(st->low[fi], st->num[ci]);
         }
         continue;
      }
      if (--depth)   /* f finished: its caller's lowlink */
         st->low[func_index(st->m, fs[depth - 1])] = MC_MIN(st->low[func_index(st->m, fs[depth - 1])], st->low[fi]);
      if (st->low[fi] != st->num[fi])
         continue;
      /* f roots a component: pop it */
      uint32_t first = st->n;
      ir_func *g;
      do {
         g = st->stk[--st->sp];
         st->on[func_index(st->m, g)] = false;
         st->order[st->n++] = g;
      } while (g != f);
      if (st->n - first > 1 || calls(f, f)) {
         st->nscc++;
         for (uint32_t k = first; k < st->n; k++)
            st->order[k]->scc = st->nscc;
      }
   }
   return true;
}

/* A recursive function's frames live on at different depths: no barrier
 * or warp operation can meet them, in it or in what it calls.  conv[]: by
 * function index, 1 when it or a callee has one (callees are done first). */
static bool check_convergent(ir_func *f, bool *conv)
{
   ir_module *m = f->module;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b) {
         bool own = ir_op_is(i->op, IR_OP_CONVERGENT) || i->op == IR_NBAR;
         bool callee = false;
         for (uint32_t t = 0; i->op == IR_CALL && t < ir_call_ntargets(i); t++) {
            ir_func *c = find_func(m, ir_call_target(i, t));
            callee |= (c->scc != f->scc || !f->scc) && conv[func_index(m, c)];
         }
         if (!own && !callee)
            continue;
         conv[func_index(m, f)] = true;
         if (f->scc)
            return ir_error(m, i->line, "'%s' is recursive: a barrier or warp operation (%s%s) in a recursive "
                            "function or what it calls is not supported", f->name,
                            callee ? "through a call of " : "", callee ? ir_call_target(i, 0) : ir_op_infos[i->op].name);
      }
   return true;
}

/* Checks a call against the callee's arguments (the builder made them
 * match; a mismatch is our bug). */
static void check_call(ir_func *f, const ir_instr *i, const ir_func *callee)
{
   if (i->nsrcs != callee->args.len + !i->sym)
      ir_die(f, "call of %s passes %u arguments for %u", callee->name, i->nsrcs, callee->args.len);
   for (uint32_t k = 0; k < callee->args.len; k++) {
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

static bool call_may_stop(ir_module *m, const ir_instr *i)
{
   for (uint32_t t = 0; t < ir_call_ntargets(i); t++)
      if (find_func(m, ir_call_target(i, t))->may_stop)
         return true;
   return !i->sym;   /* an indirect call of no target traps */
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
         if (i->op != IR_CALL || i->def.bits || !call_may_stop(f->module, i))
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
         if (i->op == IR_CALL && call_may_stop(f->module, i))
            return true;
      }
   }
   return false;
}

/* 3. Frames: every function after the frames of all its callers.  order[]
 * is callees first, a component's functions together, so walking it
 * backwards meets callers first, and all of a component's outside callers
 * before the component. */
static void layout_frames(ir_module *m, ir_func **order, uint32_t n, ir_func *kernel)
{
   uint32_t total = 0;
   for (uint32_t k = n; k-- > 0;) {
      ir_func *f = order[k];
      if (f->scc && (k + 1 == n || order[k + 1]->scc != f->scc)) {
         /* the component's first function met: one base for all of it */
         uint32_t base = 0;
         for (uint32_t j = k + 1; j-- > 0 && order[j]->scc == f->scc;)
            base = MC_MAX(base, order[j]->frame_base);
         for (uint32_t j = k + 1; j-- > 0 && order[j]->scc == f->scc;)
            order[j]->frame_base = base;
      }
      uint32_t end = f->frame_base + (f->scc ? 0 : (uint32_t)ALIGN_UP(f->local_bytes, 16));
      total = MC_MAX(total, end);
      ir_func *c;
      for (uint32_t j = 0; (c = nth_callee(f, j)); j++)
         if (!f->scc || c->scc != f->scc)
            c->frame_base = MC_MAX(c->frame_base, end);
   }
   kernel->local_total = total;
   for (uint32_t k = 0; k < n; k++) {
      ir_func *f = order[k];
      if (f == kernel || !f->frame_base || f->scc)
         continue;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            if (i->op == IR_SYMADDR && i->space == IR_SPACE_LOCAL)
               i->imm += f->frame_base;
   }
   if (kernel->needs_top) {
      /* the recursion stack, after every fixed frame */
      kernel->stack_base = (uint32_t)ALIGN_UP(total, 16);
      kernel->local_total = kernel->stack_base + IR_STACK_SCALE * kernel->stack_bytes;
   } else {
      kernel->stack_bytes = 0;
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
   scc_state st = { .m = m, .order = arena_alloc(m->ar, (n + 1) * sizeof(ir_func *)),
                    .num = arena_alloc(m->ar, (n + 1) * sizeof(uint32_t)),
                    .low = arena_alloc(m->ar, (n + 1) * sizeof(uint32_t)), .on = arena_alloc(m->ar, n + 1),
                    .stk = arena_alloc(m->ar, (n + 1) * sizeof(ir_func *)) };
   if (!st.order || !st.num || !st.low || !st.on || !st.stk)
      return ir_error(m, 0, "out of memory");
   memset(st.num, 0, (n + 1) * sizeof(uint32_t));
   memset(st.on, 0, n + 1);
   if (!strongconnect(&st, kernel))
      return ir_error(m, 0, "out of memory");
   /* Only what the kernel reaches (a .func it no longer calls after a
    * failed build is not there), callees first. */
   for (uint32_t k = 0; k < st.n; k++)
      m->funcs.data[k] = st.order[k];
   m->funcs.len = st.n;
   memset(st.on, 0, n + 1);   /* now check_convergent's marks */
   for (uint32_t k = 0; k < st.n; k++) {
      ir_func *f = st.order[k];
      f->kernel = kernel;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            for (uint32_t t = 0; i->op == IR_CALL && t < ir_call_ntargets(i); t++)
               check_call(f, i, find_func(m, ir_call_target(i, t)));
      if (!check_convergent(f, st.on))
         return false;
      /* a recursive function may overflow the stack */
      if (!f->is_kernel)
         f->may_stop = f->scc || may_stop(f);
      ir_func *c;
      for (uint32_t j = 0; (c = nth_callee(f, j)); j++)
         f->needs_top |= (c->scc && c->scc != f->scc) || c->needs_top;
   }
   for (uint32_t k = 0; k < st.n; k++)
      if (!lower_stops(st.order[k]))
         return false;
   layout_frames(m, st.order, st.n, kernel);
   for (uint32_t k = 0; k < st.n; k++) {
      ir_func *f = st.order[k];
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
            kernel->uses_nbar |= i->op == IR_NBAR;
            kernel->uses_bar_red |= i->op == IR_BAR_RED;
            kernel->uses_param_window |= i->op == IR_CVTA && i->space == IR_SPACE_PARAM;
            kernel->coherent |= fences_device(i);
         }
   }
   return m->error == NULL && !m->ar->failed;
}
