/*
 * build_globals.c — module-scope .global and .const variables: their layout
 * in the module data block and their initial bytes.
 *
 * MSL has no writable program-scope variables (metal-semantics D4), so every
 * .global/.const variable lives in one block of device memory the runtime
 * allocates per module and fills from the initialisers here; kernels reach
 * it through the launch block's base address.  An initialiser naming
 * another variable (`.global .u64 p = arr;` or generic(arr)) becomes a
 * relocation the runtime patches with that variable's address.
 */
#include "ir.h"

#include <string.h>

static uint32_t elem_bytes(const ptx_var *v)
{
   uint32_t b = ptx_type_bits[v->type] / 8;
   return b ? b : 1;
}

static bool fill_init(ir_module *m, ir_global *g, const ptx_var *v)
{
   if (!v->ninit)
      return true;
   uint8_t *bytes = arena_alloc(m->ar, g->size ? g->size : 1);
   if (!bytes)
      return ir_error(m, v->loc.line, "out of memory");
   uint32_t es = elem_bytes(v);
   for (uint32_t k = 0; k < v->ninit; k++) {
      const ptx_init *in = &v->init[k];
      uint64_t at = (uint64_t)k * es;
      if (at + es > g->size)
         return ir_error(m, v->loc.line, "initialiser of '%s' has more elements than the variable", v->name);
      if (in->kind == PTX_INIT_SYM) {
         if (es != 8 && es != 4)
            return ir_error(m, v->loc.line, "address initialiser in '%s' needs a 32- or 64-bit element", v->name);
         ir_reloc r = { at, in->sym, in->offset, (uint8_t)es };
         if (!vec_push(m->ar, &g->relocs, r))
            return ir_error(m, v->loc.line, "out of memory");
         continue;
      }
      uint64_t bits = in->bits;
      if (in->kind == PTX_INIT_F64 && v->type == PTX_T_F32) {
         double d;
         memcpy(&d, &bits, 8);
         float f = (float)d;
         uint32_t fb;
         memcpy(&fb, &f, 4);
         bits = fb;
      }
      memcpy(bytes + at, &bits, es);   /* little-endian hosts and GPUs */
   }
   g->init = bytes;
   return true;
}

static bool is_data_var(const ptx_var *v)
{
   if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST)
      return false;
   /* texture references are refused where used */
   return v->type != PTX_T_TEXREF && v->type != PTX_T_SAMPLERREF && v->type != PTX_T_SURFREF;
}

bool ir_build_globals(ir_module *m)
{
   const ptx_module *p = m->ptx;
   /* A name may be declared .extern and defined later: lay out the
    * definition (the last non-extern declaration), once. */
   strmap best;
   strmap_init(&best, m->ar);
   for (uint32_t k = 0; k < p->ndecls; k++) {
      if (p->decls[k].kind != PTX_DECL_VAR || !is_data_var(p->decls[k].u.var))
         continue;
      const ptx_var *v = p->decls[k].u.var, *prev = strmap_get(&best, v->name);
      if ((!prev || v->linkage != PTX_LINK_EXTERN) && !strmap_put(&best, v->name, (void *)v))
         return ir_error(m, v->loc.line, "out of memory");
   }
   uint64_t off = 0;
   for (uint32_t k = 0; k < p->ndecls; k++) {
      if (p->decls[k].kind != PTX_DECL_VAR)
         continue;
      const ptx_var *v = p->decls[k].u.var;
      if (!is_data_var(v) || strmap_get(&best, v->name) != v)
         continue;
      uint32_t align = v->align ? v->align : elem_bytes(v) * (v->vec ? v->vec : 1);
      if (align > m->data_align)
         m->data_align = align;
      uint64_t size = ptx_var_size(v);
      if (v->unsized && v->ninit)
         size = (uint64_t)v->ninit * elem_bytes(v);
      off = ALIGN_UP(off, align);
      ir_global g = { 0 };
      g.name = v->name;
      g.space = v->space == PTX_SPACE_CONST ? IR_SPACE_CONST : IR_SPACE_GLOBAL;
      g.offset = off;
      g.size = size;
      g.align = align;
      g.is_extern = v->linkage == PTX_LINK_EXTERN;
      if (!fill_init(m, &g, v) || !vec_push(m->ar, &m->globals, g))
         return m->error ? false : ir_error(m, v->loc.line, "out of memory");
      off += size;
   }
   /* Index after the vector stopped moving. */
   for (uint32_t k = 0; k < m->globals.len; k++)
      if (!strmap_put(&m->global_map, m->globals.data[k].name, &m->globals.data[k]))
         return ir_error(m, 0, "out of memory");
   m->data_bytes = ALIGN_UP(off, 16);
   return true;
}
