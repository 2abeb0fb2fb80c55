/*
 * ir.c — creating and editing IR: modules, functions, blocks, instructions,
 * use lists, edges.  Everything here keeps the use lists exact (every src
 * pointing at a def is on that def's list), which the validator checks.
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ir_op_info ir_op_infos[IR_OP_COUNT] = {
#define X(e, n, f) [IR_##e] = { #e, n, f },
   IR_OPS(X)
#undef X
};

const char *const ir_sreg_names[IR_SREG_COUNT] = {
   "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
   "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z",
   "laneid", "warpid", "nwarpid", "WARP_SZ",
   "clock", "clock64", "globaltimer", "smid", "nsmid", "gridid",
   "envreg1", "envreg2",
};

const char *const ir_space_names[] = { "generic", "global", "shared", "local", "const", "param" };

ir_module *ir_module_create(arena *ar, const ptx_module *ptx)
{
   ir_module *m = arena_alloc(ar, sizeof(*m));
   if (!m)
      return NULL;
   m->ar = ar;
   m->ptx = ptx;
   m->data_align = 16;
   strmap_init(&m->global_map, ar);
   return m;
}

ir_func *ir_func_create(ir_module *m, const char *name, bool is_kernel)
{
   ir_func *f = arena_alloc(m->ar, sizeof(*f));
   if (!f)
      return NULL;
   f->module = m;
   f->name = name;
   f->is_kernel = is_kernel;
   f->ndefs = 1;   /* 0 means "no def" in printouts */
   f->shared_dynamic_align = 16;
   if (!vec_push(m->ar, &m->funcs, f))
      return NULL;
   return f;
}

ir_block *ir_block_create(ir_func *f, const char *label)
{
   ir_block *b = arena_alloc(f->module->ar, sizeof(*b));
   if (!b)
      return NULL;
   b->func = f;
   b->label = label;
   b->index = f->blocks.len;
   b->rpo = UINT32_MAX;
   if (!vec_push(f->module->ar, &f->blocks, b))
      return NULL;
   return b;
}

ir_instr *ir_instr_create(ir_func *f, ir_op op, uint32_t nsrcs, uint8_t bits, uint8_t ncomp)
{
   arena *ar = f->module->ar;
   ir_instr *i = arena_alloc(ar, sizeof(*i));
   if (!i)
      return NULL;
   i->op = op;
   i->index = f->ninstrs++;
   i->nsrcs = nsrcs;
   if (nsrcs) {
      i->srcs = arena_alloc(ar, nsrcs * sizeof(ir_src));
      if (!i->srcs)
         return NULL;
   }
   if (bits) {
      i->def.parent = i;
      i->def.index = f->ndefs++;
      i->def.bits = bits;
      i->def.ncomp = ncomp ? ncomp : 1;
   }
   return i;
}

static void use_link(ir_src *s)
{
   ir_def *d = s->def;
   s->prev_use = NULL;
   s->next_use = d->uses;
   if (d->uses)
      d->uses->prev_use = s;
   d->uses = s;
}

static void use_unlink(ir_src *s)
{
   ir_def *d = s->def;
   if (s->prev_use)
      s->prev_use->next_use = s->next_use;
   else
      d->uses = s->next_use;
   if (s->next_use)
      s->next_use->prev_use = s->prev_use;
   s->next_use = s->prev_use = NULL;
}

void ir_src_set(ir_src *s, ir_instr *parent, ir_def *def)
{
   if (s->def)
      use_unlink(s);
   s->parent = parent;
   s->def = def;
   if (def)
      use_link(s);
}

void ir_src_clear(ir_src *s)
{
   if (s->def)
      use_unlink(s);
   s->def = NULL;
}

bool ir_def_has_uses(const ir_def *d) { return d->uses != NULL; }

void ir_def_rewrite_uses(ir_def *old, ir_def *new_def)
{
   if (old == new_def)
      return;
   while (old->uses) {
      ir_src *s = old->uses;
      use_unlink(s);
      s->def = new_def;
      use_link(s);
   }
}

void ir_instr_append(ir_block *b, ir_instr *i)
{
   i->block = b;
   i->next = NULL;
   i->prev = b->last;
   if (b->last)
      b->last->next = i;
   else
      b->first = i;
   b->last = i;
}

void ir_instr_insert_before(ir_instr *at, ir_instr *i)
{
   ir_block *b = at->block;
   i->block = b;
   i->next = at;
   i->prev = at->prev;
   if (at->prev)
      at->prev->next = i;
   else
      b->first = i;
   at->prev = i;
}

void ir_instr_insert_after(ir_instr *at, ir_instr *i)
{
   if (!at->next) {
      ir_instr_append(at->block, i);
      return;
   }
   ir_instr_insert_before(at->next, i);
}

void ir_instr_remove(ir_instr *i)
{
   for (uint32_t k = 0; k < i->nsrcs; k++)
      ir_src_clear(&i->srcs[k]);
   ir_src_clear(&i->guard);
   ir_src_clear(&i->old);
   ir_instr_unlink(i);
}

void ir_instr_unlink(ir_instr *i)
{
   ir_block *b = i->block;
   if (i->prev)
      i->prev->next = i->next;
   else
      b->first = i->next;
   if (i->next)
      i->next->prev = i->prev;
   else
      b->last = i->prev;
   i->prev = i->next = NULL;
   i->block = NULL;
}

void ir_block_add_succ(ir_block *from, ir_block *to)
{
   arena *ar = from->func->module->ar;
   vec_push(ar, &from->succs, to);
   vec_push(ar, &to->preds, from);
}

static void vec_remove_block(ir_block_vec *v, ir_block *b)
{
   for (uint32_t k = 0; k < v->len; k++) {
      if (v->data[k] == b) {
         memmove(&v->data[k], &v->data[k + 1], (v->len - k - 1) * sizeof(ir_block *));
         v->len--;
         return;
      }
   }
}

void ir_block_clear_succs(ir_block *b)
{
   ir_foreach_succ(s, b)
      vec_remove_block(&(*s)->preds, b);
   b->succs.len = 0;
}

void ir_func_compute_preds(ir_func *f)
{
   ir_foreach_block(b, f)
      b->preds.len = 0;
   ir_foreach_block(b, f)
      ir_foreach_succ(s, b)
         vec_push(f->module->ar, &(*s)->preds, b);
   f->valid |= IR_META_CFG;
}

ir_block *ir_block_split_after(ir_instr *at)
{
   ir_block *b = at->block;
   ir_func *f = b->func;
   ir_block *nb = ir_block_create(f, NULL);
   if (!nb)
      return NULL;
   /* Move the tail. */
   ir_instr *i = at->next;
   at->next = NULL;
   nb->first = i;
   nb->last = i ? b->last : NULL;
   if (i)
      i->prev = NULL;
   b->last = at;
   for (; i; i = i->next)
      i->block = nb;
   /* Move the successors and fix the phis that named b as predecessor. */
   nb->succs = b->succs;
   b->succs = (ir_block_vec){ 0 };
   ir_foreach_succ(s, nb) {
      ir_foreach_pred(p, *s)
         if (*p == b)
            *p = nb;
      ir_foreach_instr(phi, *s) {
         if (phi->op != IR_PHI)
            break;
         for (uint32_t k = 0; k < phi->nsrcs; k++)
            if (phi->srcs[k].pred == b)
               phi->srcs[k].pred = nb;
      }
   }
   return nb;
}

void ir_func_renumber(ir_func *f)
{
   for (uint32_t k = 0; k < f->blocks.len; k++)
      f->blocks.data[k]->index = k;
}

/* Marks blocks reachable from the entry with pass_flags = 1. */
static void mark_reachable(ir_func *f)
{
   ir_foreach_block(b, f)
      b->pass_flags = 0;
   if (!f->blocks.len)
      return;
   ir_block **stack = arena_alloc(f->module->ar, f->blocks.len * sizeof(*stack));
   if (!stack)
      return;
   uint32_t sp = 0;
   stack[sp++] = f->blocks.data[0];
   f->blocks.data[0]->pass_flags = 1;
   while (sp) {
      ir_block *b = stack[--sp];
      ir_foreach_succ(s, b) {
         if (!(*s)->pass_flags) {
            (*s)->pass_flags = 1;
            stack[sp++] = *s;
         }
      }
   }
}

void ir_func_remove_unreachable(ir_func *f)
{
   mark_reachable(f);
   uint32_t out = 0;
   for (uint32_t k = 0; k < f->blocks.len; k++) {
      ir_block *b = f->blocks.data[k];
      if (b->pass_flags) {
         f->blocks.data[out++] = b;
         continue;
      }
      /* Drop phi sources coming from b in reachable successors. */
      ir_foreach_succ(s, b) {
         if (!(*s)->pass_flags)
            continue;
         ir_foreach_instr(phi, *s) {
            if (phi->op != IR_PHI)
               break;
            uint32_t o = 0;
            for (uint32_t j = 0; j < phi->nsrcs; j++) {
               if (phi->srcs[j].pred == b) {
                  ir_src_clear(&phi->srcs[j]);
                  continue;
               }
               if (o != j) {
                  ir_block *pred = phi->srcs[j].pred;
                  ir_def *d = phi->srcs[j].def;
                  ir_src_clear(&phi->srcs[j]);
                  ir_src_set(&phi->srcs[o], phi, d);
                  phi->srcs[o].pred = pred;
               }
               o++;
            }
            phi->nsrcs = o;
         }
         vec_remove_block(&(*s)->preds, b);
      }
      ir_foreach_instr_safe(i, b)
         ir_instr_remove(i);
   }
   f->blocks.len = out;
   ir_func_renumber(f);
}

void ir_die(ir_func *f, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "metalcuda: IR invariant broken in %s: ", f ? f->name : "?");
   vfprintf(stderr, fmt, ap);
   fprintf(stderr, "\n");
   va_end(ap);
   if (f) {
      strbuf sb;
      strbuf_init(&sb);
      ir_print_func(&sb, f);
      if (sb.s)
         fputs(sb.s, stderr);
      strbuf_free(&sb);
   }
   abort();
}

bool ir_error(ir_module *m, uint32_t line, const char *fmt, ...)
{
   if (m->error)
      return false;
   char buf[1024];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   m->error = arena_printf(m->ar, "PTX line %u: %s", line, buf);
   if (!m->error)
      m->error = "out of memory";
   m->error_line = line;
   return false;
}
