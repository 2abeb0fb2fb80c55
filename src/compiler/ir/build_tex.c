/*
 * build_tex.c — texture and surface instructions on bindless objects
 * (PTX ISA 9.0 §9.7.10: tex, txq, suld, sust, suq), the forms CUDA's
 * texture and surface objects compile to:
 *
 *   tex.{1d,2d,3d}.v4.{f32,u32,s32}.{f32,s32}  d, [handle, {c...}]
 *   suld.b.{1d,2d,3d}{.v2,.v4}.{b8,b16,b32}.{trap,clamp,zero}  d, [handle, {x, y...}]
 *   sust.b.{1d,2d,3d}{.v2,.v4}.{b8,b16,b32}.{trap,clamp,zero}  [handle, {x, y...}], a
 *   txq.{width,height,depth}.b32 / suq.{width,height,depth}.b32  d, [handle]
 *
 * The handle is a 64-bit register holding the object (cudaTextureObject_t):
 * metalcuda's objects are the CUDA address of a descriptor (compiler.h,
 * mc_tex) that the prelude (prelude/tex.metal) reads, so filtering and
 * addressing are computed exactly as CUDA documents them rather than by
 * Metal's sampler.  3-D coordinates come as a 4-vector whose last element
 * is ignored (PTX).  Refused by name: texture references and samplers
 * ([tex, sampler, {..}] and .texref symbols), tex.level/.grad, arrays of
 * layers, cube maps, tld4, the .p surface formats, .b64 surface elements,
 * sured, and predicated
 * tex/suld (a guarded-off thread's handle may be anything).
 */
#include "build.h"

static bool geom_of(build_ctx *c, ir_tex_geom *g)
{
   if (bld_has(c, PTX_MOD_G1D))
      *g = IR_TEX_1D;
   else if (bld_has(c, PTX_MOD_G2D))
      *g = IR_TEX_2D;
   else if (bld_has(c, PTX_MOD_G3D))
      *g = IR_TEX_3D;
   else
      return bld_unsupported(c, "this texture/surface geometry (layered and cube maps are not supported yet)");
   return true;
}

/* [handle, {coords}]: the handle (a 64-bit register) and the n coordinates
 * of the geometry (a 3-D vector has a fourth, ignored element). */
static bool object_operand(build_ctx *c, const ptx_operand *o, ir_tex_geom g, ptx_type ct, ir_def **h,
                           ir_def **coords)
{
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || o->u.addr.base->kind != PTX_OPND_REG)
      return bld_unsupported(c, "texture references and samplers (only bindless texture and surface objects "
                                "held in a register)");
   const ptx_operand *v = o->u.addr.vec;
   unsigned n = (unsigned)g, given = v ? (v->kind == PTX_OPND_VEC ? v->u.vec.n : 1) : 0;
   if (given != n && !(g == IR_TEX_3D && given == 4))
      return ir_error(c->m, c->line, "%s: a %uD access needs %u coordinate(s), it has %u", bld_spelled(c), n, n,
                      given);
   if (!(*h = bld_opnd(c, o->u.addr.base, PTX_T_U64, 64)))
      return false;
   for (unsigned k = 0; k < n; k++) {
      const ptx_operand *e = v->kind == PTX_OPND_VEC ? v->u.vec.elems[k] : v;
      if (!(coords[k] = bld_opnd(c, e, ct, 32)))
         return false;
   }
   return true;
}

static bool write_vector(build_ctx *c, const ptx_operand *d, ir_instr *i, unsigned n, ptx_type t, uint8_t bits)
{
   if ((d->kind == PTX_OPND_VEC ? d->u.vec.n : 1) != n)
      return ir_error(c->m, c->line, "%s: vector width and destination do not match", bld_spelled(c));
   for (unsigned k = 0; k < n; k++) {
      ir_def *v = &i->def;
      if (n > 1) {
         ir_instr *x = bld_emit(c, IR_EXTRACT, 1, bits, 1);
         if (!x)
            return false;
         x->imm = k;
         x->type = t;
         bld_set_src(x, 0, &i->def);
         v = &x->def;
      }
      if (!bld_write(c, d->kind == PTX_OPND_VEC ? d->u.vec.elems[k] : d, v, t))
         return false;
   }
   return true;
}

static bool tr_tex(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ir_tex_geom g;
   if (bld_has(c, PTX_MOD_LEVEL) || bld_has(c, PTX_MOD_GRAD))
      return bld_unsupported(c, "tex.level/tex.grad (mipmapped textures)");
   if (!ONLY_MODS(c, PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D) || !geom_of(c, &g))
      return false;
   if (in->ntypes != 2 || in->vec != 4 || in->nopnds != 2)
      return bld_unsupported(c, "this form of tex (only tex.geom.v4.dtype.ctype d, [object, {coords}])");
   ptx_type dt = in->types[0], ct = in->types[1];
   if ((dt != PTX_T_F32 && dt != PTX_T_U32 && dt != PTX_T_S32) || (ct != PTX_T_F32 && ct != PTX_T_S32))
      return bld_unsupported(c, "this tex result or coordinate type (f16 results)");
   if (in->guard)
      return bld_unsupported(c, "a predicated tex");
   ir_def *h, *coords[3];
   if (!object_operand(c, in->opnds[1], g, ct, &h, coords))
      return false;
   ir_instr *i = bld_emit(c, IR_TEX, 1 + (unsigned)g, 32, 4);
   if (!i)
      return false;
   i->sub = (uint8_t)g;
   i->type = dt;
   i->type2 = ct;
   bld_set_src(i, 0, h);
   for (unsigned k = 0; k < (unsigned)g; k++)
      bld_set_src(i, 1 + k, coords[k]);
   return write_vector(c, in->opnds[0], i, 4, dt == PTX_T_F32 ? PTX_T_B32 : dt, 32);
}

/* suld.b / sust.b: the form (geometry, vector width, element type,
 * boundary mode), the object and coordinates, the values stored (sust),
 * then one SULD/SUST: sources handle, coordinates, values. */
static bool tr_surface(build_ctx *c, bool store)
{
   const ptx_instr *in = c->in;
   if (bld_has(c, PTX_MOD_P))
      return bld_unsupported(c, "the .p (formatted) surface accesses");
   ir_tex_geom g;
   if (!ONLY_MODS(c, PTX_MOD_B, PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D, PTX_MOD_TRAP_MODE, PTX_MOD_CLAMP,
                  PTX_MOD_ZERO) || !geom_of(c, &g) || !bld_need_opnds(c, 2))
      return false;
   unsigned n = in->vec ? in->vec : 1;
   ptx_type t = in->ntypes == 1 ? in->types[0] : PTX_T_PRED;
   if (n == 3 || n > 4 || (t != PTX_T_B8 && t != PTX_T_B16 && t != PTX_T_B32))
      return bld_unsupported(c, "this surface vector width or element type (.b64 is not supported yet)");
   if (in->guard && !store)
      return bld_unsupported(c, "a predicated suld");
   const ptx_operand *obj = in->opnds[store ? 0 : 1], *a = in->opnds[1];
   ir_def *h, *coords[3], *vals[4];
   if (!object_operand(c, obj, g, PTX_T_S32, &h, coords))
      return false;
   unsigned nv = store ? n : 0;
   if (store && (a->kind == PTX_OPND_VEC ? a->u.vec.n : 1) != n)
      return ir_error(c->m, c->line, "%s: vector width and source do not match", bld_spelled(c));
   for (unsigned k = 0; k < nv; k++)
      if (!(vals[k] = bld_opnd(c, a->kind == PTX_OPND_VEC ? a->u.vec.elems[k] : a, PTX_T_B32, 32)))
         return false;
   ir_instr *i = store ? bld_emit(c, IR_SUST, 1 + (unsigned)g + n, 0, 1)
                       : bld_emit(c, IR_SULD, 1 + (unsigned)g, 32, (uint8_t)n);
   if (!i)
      return false;
   i->sub = (uint8_t)g;
   i->type = t;
   i->imm = bld_has(c, PTX_MOD_CLAMP) ? IR_SURF_CLAMP : bld_has(c, PTX_MOD_ZERO) ? IR_SURF_ZERO : IR_SURF_TRAP;
   bld_set_src(i, 0, h);
   for (unsigned k = 0; k < (unsigned)g; k++)
      bld_set_src(i, 1 + k, coords[k]);
   for (unsigned k = 0; k < nv; k++)
      bld_set_src(i, 1 + (unsigned)g + k, vals[k]);
   if (!store)
      return write_vector(c, in->opnds[0], i, n, PTX_T_B32, 32);
   if (in->guard)
      bld_guard(c, i, NULL);
   return true;
}

static bool tr_query(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ir_txq q;
   if (bld_has(c, PTX_MOD_WIDTH))
      q = IR_TXQ_WIDTH;
   else if (bld_has(c, PTX_MOD_HEIGHT))
      q = IR_TXQ_HEIGHT;
   else if (bld_has(c, PTX_MOD_DEPTH))
      q = IR_TXQ_DEPTH;
   else
      return bld_unsupported(c, "this txq/suq query (only width, height, depth)");
   if (!ONLY_MODS(c, PTX_MOD_WIDTH, PTX_MOD_HEIGHT, PTX_MOD_DEPTH) || !bld_need_opnds(c, 2))
      return false;
   const ptx_operand *o = in->opnds[1];
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || o->u.addr.base->kind != PTX_OPND_REG || o->u.addr.vec)
      return bld_unsupported(c, "texture references (only bindless objects held in a register)");
   ir_def *h = bld_opnd(c, o->u.addr.base, PTX_T_U64, 64);
   ir_instr *i = h ? bld_emit(c, IR_TXQ, 1, 32, 1) : NULL;
   if (!i)
      return false;
   i->imm = q;
   i->type = PTX_T_B32;
   bld_set_src(i, 0, h);
   return bld_write(c, in->opnds[0], &i->def, PTX_T_B32);
}

bool bld_tr_tex(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_TEX: return tr_tex(c);
   case PTX_OP_SULD: return tr_surface(c, false);
   case PTX_OP_SUST: return tr_surface(c, true);
   case PTX_OP_TXQ: case PTX_OP_SUQ: return tr_query(c);
   default: return bld_refuse(c);
   }
}
