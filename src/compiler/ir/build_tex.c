/*
 * build_tex.c — texture and surface instructions on bindless objects
 * (PTX ISA 9.0 §9.7.10: tex, txq, suld, sust, suq), the forms CUDA's
 * texture and surface objects compile to:
 *
 *   tex.{1d,2d,3d,a1d,a2d}.v4.{f32,u32,s32}.{f32,s32}  d, [handle, {[layer,] c...}]
 *   tex.{cube,acube}.v4.{f32,u32,s32}.f32  d, [handle, {[layer,] x, y, z[, _]}]
 *   tex.level.{geom}.v4.{f32,u32,s32}.f32  d, [handle, {...}], lod
 *   tex.grad.{1d,2d,3d,a1d,a2d}.v4.{f32,u32,s32}.f32  d, [handle, {...}], {dPdx...}, {dPdy...}
 *   tld4.{r,g,b,a}.{2d,a2d,cube,acube}.v4.{f32,u32,s32}.f32  d, [handle, {[layer,] c...}]
 *   suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32}.{trap,clamp,zero}  d, [handle, {[layer,] x, y...}]
 *   sust.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32}.{trap,clamp,zero}  [handle, {[layer,] x, y...}], a
 *   sust.p.{1d,2d,3d,a1d,a2d}{.v2,.v4}.b32.{trap,clamp,zero}  [handle, {[layer,] x, y...}], a
 *   tex{,.level,.grad}.geom.v2.f16x2.ctype  {d0, d1}, [handle, {...}]...
 *   txq.{width,height,depth}.b32 / suq.{width,height,depth}.b32  d, [handle]
 *   txq.level.{width,height,depth}.b32  d, [handle], lod
 *
 * A guarded (`@p`) fetch or surface load carries its guard itself and
 * keeps the destination registers where it fails (write_guarded): the
 * instruction does not run there.
 *
 * The handle is a 64-bit register holding the object (cudaTextureObject_t):
 * metalcuda's objects are the CUDA address of a descriptor (compiler.h,
 * mc_tex) that the prelude (prelude/tex.metal) reads, so filtering and
 * addressing are computed exactly as CUDA documents them rather than by
 * Metal's sampler.  3-D coordinates come as a 4-vector whose last element
 * is ignored (PTX); the layered geometries put the layer (.u32) first;
 * a cube map's coordinates are a direction (x, y, z).
 * tex.level samples a mipmapped texture at an explicit level of detail
 * (an f32 operand); a plain tex on one samples at the lowest level the
 * clamps allow (prelude/tex.metal says how, as measured on an H200).
 * tex.grad on a 1-D or 2-D (or layered) texture samples at the level of
 * detail an H200 computes from the two gradients (prelude/tex.metal,
 * mc_tex_grad_q; tests/cuda/tex_grad.cu); on a 3-D texture its gradients
 * are 4-vectors like its coordinates (the last element ignored), and the
 * prelude computes the level of detail where one axis is zero in both
 * gradients or one gradient is zero, and fails the launch otherwise; on a
 * cube map (gradients as 4-vectors too) on P's face and across its edges,
 * and fails the launch where P lies on an edge while a lane leaves P's
 * face (prelude mc_tex_cube_grad_q; tests/cuda/NATIVE.md "cube").
 * sust.p converts each 32-bit value to the surface's channel format, which
 * only the object knows: the prelude reads it from the descriptor
 * (mc_sust_p, with the conversions an H100 performs).
 * A .v2.f16x2 fetch is the .v4.f32 one with each result rounded to f16
 * (cvt.rn.f16.f32), two to a register (an H100: tests/cuda/tex_txq.cu).
 * txq answers the sizes an H100 answers, kept in the descriptor
 * (compiler.h, mc_tex.txq_*); suq the surface's.
 * Refused by name: texture references and samplers ([tex, sampler, {..}]
 * and .texref symbols), multisample textures, sured.  Errors, not gaps: a
 * .v4.b64 surface access (256 bits exceed PTX's 128-bit vectors), suld.p
 * (no such instruction in PTX ISA 9.0), a sust.p of other than .b32
 * elements, tld4 with .f16x2 results, a query txq or suq lacks (ptxas
 * rejects these too), and the txq/suq queries other than the sizes:
 * NVIDIA's driver does not load a module that holds one (an H100, driver
 * 580; tests/cuda/NATIVE.md "txq").
 */
#include "build.h"

/* The geometry of the instruction: its coordinate dimensions (sub of the
 * IR op) and whether an array index (a layer) comes first in the
 * coordinate vector (.a1d, .a2d). */
typedef struct tex_geom {
   ir_tex_geom dims;
   bool layered, cube;   /* cube: a direction (x, y, z) picks the face */
} tex_geom;

static bool geom_of(build_ctx *c, tex_geom *g)
{
   g->layered = g->cube = false;
   if (bld_has(c, PTX_MOD_G1D))
      g->dims = IR_TEX_1D;
   else if (bld_has(c, PTX_MOD_G2D))
      g->dims = IR_TEX_2D;
   else if (bld_has(c, PTX_MOD_G3D))
      g->dims = IR_TEX_3D;
   else if (bld_has(c, PTX_MOD_A1D) || bld_has(c, PTX_MOD_A2D)) {
      g->dims = bld_has(c, PTX_MOD_A1D) ? IR_TEX_1D : IR_TEX_2D;
      g->layered = true;
   } else if (bld_has(c, PTX_MOD_CUBE) || bld_has(c, PTX_MOD_ACUBE)) {
      g->dims = IR_TEX_3D;
      g->cube = true;
      g->layered = bld_has(c, PTX_MOD_ACUBE);
   } else
      return bld_unsupported(c, "this texture/surface geometry");
   return true;
}

/* [handle, {coords}]: the handle (a 64-bit register), the dims coordinates
 * of the geometry and, for .a1d/.a2d, the layer (the vector's first
 * element, a .u32 whatever the coordinate type).  A 3-D vector and the
 * .a2d one {layer, x, y, _} have a fourth, ignored element (PTX). */
static bool object_operand(build_ctx *c, const ptx_operand *o, const tex_geom *g, ptx_type ct, ir_def **h,
                           ir_def **coords, ir_def **layer)
{
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || o->u.addr.base->kind != PTX_OPND_REG)
      return bld_unsupported(c, "texture references and samplers (only bindless texture and surface objects "
                                "held in a register)");
   const ptx_operand *v = o->u.addr.vec;
   unsigned n = (unsigned)g->dims, first = g->layered ? 1 : 0;
   unsigned given = v ? (v->kind == PTX_OPND_VEC ? v->u.vec.n : 1) : 0, want = n + first;
   if (given != want && !(want == 3 && given == 4))
      return ir_error(c->m, c->line, "%s: this geometry needs %u coordinate(s), it has %u", bld_spelled(c),
                      want == 3 ? 4 : want, given);
   if (!(*h = bld_opnd(c, o->u.addr.base, PTX_T_U64, 64)))
      return false;
   if (g->layered && !(*layer = bld_opnd(c, v->u.vec.elems[0], PTX_T_U32, 32)))
      return false;
   for (unsigned k = 0; k < n; k++) {
      const ptx_operand *e = v->kind == PTX_OPND_VEC ? v->u.vec.elems[first + k] : v;
      if (!(coords[k] = bld_opnd(c, e, ct, 32)))
         return false;
   }
   return true;
}

/* Element k of the vector result of i. */
static ir_def *element_of(build_ctx *c, ir_instr *i, unsigned k, ptx_type t, uint8_t bits)
{
   ir_instr *x = bld_emit(c, IR_EXTRACT, 1, bits, 1);
   if (!x)
      return NULL;
   x->imm = k;
   x->type = t;
   bld_set_src(x, 0, &i->def);
   return &x->def;
}

/* Whether destination d has the n elements the instruction writes. */
static bool dst_width_ok(build_ctx *c, const ptx_operand *d, unsigned n)
{
   if ((d->kind == PTX_OPND_VEC ? d->u.vec.n : 1) == n)
      return true;
   return ir_error(c->m, c->line, "%s: vector width and destination do not match", bld_spelled(c));
}

static bool write_vector(build_ctx *c, const ptx_operand *d, ir_instr *i, unsigned n, ptx_type t, uint8_t bits)
{
   if (!dst_width_ok(c, d, n))
      return false;
   for (unsigned k = 0; k < n; k++) {
      ir_def *v = n > 1 ? element_of(c, i, k, t, bits) : &i->def;
      if (!v || !bld_write(c, bld_vec_elem(d, k), v, t))
         return false;
   }
   return true;
}

/* The n 64-bit destinations of a load of 2n 32-bit halves (low first). */
static bool write_halves(build_ctx *c, const ptx_operand *d, ir_instr *i, unsigned n)
{
   if (!dst_width_ok(c, d, n))
      return false;
   for (unsigned k = 0; k < n; k++) {
      ir_def *lo = element_of(c, i, 2 * k, PTX_T_B32, 32), *hi = element_of(c, i, 2 * k + 1, PTX_T_B32, 32);
      lo = lo ? bld_resize(c, lo, 64, false) : NULL;
      hi = hi ? bld_resize(c, hi, 64, false) : NULL;
      hi = hi ? bld_shift_by(c, IR_SHL, hi, 32) : NULL;
      ir_def *v = lo && hi ? bld_op2(c, IR_OR, PTX_T_U64, lo, hi) : NULL;
      if (!v || !bld_write(c, bld_vec_elem(d, k), v, PTX_T_B64))
         return false;
   }
   return true;
}

/* The registers of destination d of a 64-bit surface load before it, as
 * its 2n 32-bit halves (low first), for a failing guard. */
static ir_def *old_halves(build_ctx *c, const ptx_operand *d, unsigned n)
{
   if (!dst_width_ok(c, d, n))
      return NULL;
   ir_def *half[4];   /* n <= 2 (.v4.b64 is an error) */
   for (unsigned k = 0; k < n; k++) {
      ir_def *w = bld_old_dst_value(c, bld_vec_elem(d, k), 1, 64);
      half[2 * k] = w ? bld_resize(c, w, 32, false) : NULL;
      half[2 * k + 1] = w ? bld_resize(c, bld_shift_by(c, IR_SHR, w, 32), 32, false) : NULL;
      if (!half[2 * k] || !half[2 * k + 1])
         return NULL;
   }
   ir_instr *v = bld_emit(c, IR_VEC, 2 * n, 32, (uint8_t)(2 * n));
   if (!v)
      return NULL;
   for (unsigned k = 0; k < 2 * n; k++)
      bld_set_src(v, k, half[k]);
   return &v->def;
}

/* Writes the n-element result of a fetch or surface load i.  A guarded one
 * carries the guard itself, with `old` (the registers before it, emitted
 * ahead of i) as what a failing guard leaves: the instruction must not run
 * there (PTX ISA 9.0 §11.1), since a thread whose guard fails may hold no
 * valid handle or coordinates, and a .trap access would fault. */
static bool write_guarded(build_ctx *c, ir_instr *i, ir_def *old, unsigned n, ptx_type t, bool wide)
{
   if (old) {
      bld_guard(c, i, NULL);
      ir_src_set(&i->old, i, old);
   }
   c->suppress_guard = old != NULL;
   bool ok = wide ? write_halves(c, c->in->opnds[0], i, n) : write_vector(c, c->in->opnds[0], i, n, t, 32);
   c->suppress_guard = false;
   return ok;
}

static ir_def *zero_vec4(build_ctx *c)
{
   ir_def *z = bld_const(c, 32, 0);
   ir_instr *v = z ? bld_emit(c, IR_VEC, 4, 32, 4) : NULL;
   if (!v)
      return NULL;
   for (unsigned k = 0; k < 4; k++)
      bld_set_src(v, k, z);
   return &v->def;
}

/* The .v2.f16x2 result of a fetch i (PTX ISA 9.0 §9.7.10.3): its four f32
 * components converted to f16 as cvt.rn.f16.f32 converts them (what an
 * H100 answers: tests/cuda/tex_txq.cu), two to a register, the lower
 * component in the lower half.  A guarded fetch does not run where the
 * guard fails (its `old` is only a placeholder there); the registers are
 * then written through guarded copies, so they keep their values. */
static bool write_half_pairs(build_ctx *c, ir_instr *i, ir_def *old)
{
   if (old) {
      bld_guard(c, i, NULL);
      ir_src_set(&i->old, i, old);
   }
   const ptx_operand *d = c->in->opnds[0];
   if (!dst_width_ok(c, d, 2))
      return false;
   for (unsigned k = 0; k < 2; k++) {
      ir_def *h[2];
      for (unsigned j = 0; j < 2; j++) {
         ir_def *f = element_of(c, i, 2 * k + j, PTX_T_F32, 32);
         h[j] = bld_resize(c, bld_cvt(c, PTX_T_F16, PTX_T_F32, IR_RND_RN, 0, f), 32, false);
      }
      ir_def *hi = bld_op2(c, IR_SHL, PTX_T_U32, h[1], bld_const(c, 32, 16));
      ir_def *v = bld_op2(c, IR_OR, PTX_T_U32, hi, h[0]);
      if (!v || !bld_write(c, bld_vec_elem(d, k), v, PTX_T_B32))
         return false;
   }
   return true;
}

/* One IR_TEX: sources handle, coordinates, [layer], [lod | dPdx, dPdy];
 * imm IR_TEXF_* (and the gathered component). */
static bool emit_fetch(build_ctx *c, const tex_geom *g, ptx_type dt, ptx_type ct, uint64_t flags)
{
   const ptx_instr *in = c->in;
   ir_def *h, *coords[3], *layer = NULL;
   if (!object_operand(c, in->opnds[1], g, ct, &h, coords, &layer))
      return false;
   unsigned n = (unsigned)g->dims, first_lod = 1 + n + (g->layered ? 1 : 0);
   ir_def *lod = NULL, *grad[4] = {NULL, NULL, NULL, NULL};
   if ((flags & IR_TEXF_LEVEL) && !(lod = bld_opnd(c, in->opnds[2], PTX_T_F32, 32)))
      return false;
   unsigned ngrad = (flags & IR_TEXF_GRAD) ? 2 * n : 0;
   for (unsigned k = 0; k < ngrad / n; k++) {
      const ptx_operand *v = in->opnds[2 + k];
      unsigned w = v->kind == PTX_OPND_VEC ? v->u.vec.n : 1;
      if (w != n && !(n == 3 && w == 4))   /* 3-D: a 4-vector, as the coordinates */
         return ir_error(c->m, c->line, "%s: a gradient has one element per coordinate", bld_spelled(c));
      for (unsigned j = 0; j < n; j++)
         if (!(grad[k * n + j] = bld_opnd(c, v->kind == PTX_OPND_VEC ? v->u.vec.elems[j] : v, PTX_T_F32, 32)))
            return false;
   }
   bool half = dt == PTX_T_F16X2;
   ir_def *old = NULL;
   if (in->guard && !(old = half ? zero_vec4(c) : bld_old_dst_value(c, in->opnds[0], 4, 32)))
      return false;
   ir_instr *i = bld_emit(c, IR_TEX, first_lod + (lod ? 1 : 0) + ngrad, 32, 4);
   if (!i)
      return false;
   i->sub = (uint8_t)g->dims;
   i->type = half ? PTX_T_F32 : dt;
   i->type2 = ct;
   i->imm = flags | (g->layered ? IR_TEXF_LAYERED : 0) | (g->cube ? IR_TEXF_CUBE : 0);
   bld_set_src(i, 0, h);
   for (unsigned k = 0; k < n; k++)
      bld_set_src(i, 1 + k, coords[k]);
   if (layer)
      bld_set_src(i, 1 + n, layer);
   if (lod)
      bld_set_src(i, first_lod, lod);
   for (unsigned k = 0; k < ngrad; k++)
      bld_set_src(i, first_lod + k, grad[k]);
   if (half)
      return write_half_pairs(c, i, old);
   return write_guarded(c, i, old, 4, dt == PTX_T_F32 ? PTX_T_B32 : dt, false);
}

/* The result and coordinate types: .v4 of .f32, .u32, .s32, or (tex only)
 * .v2.f16x2, four f16 results two to a register. */
static bool fetch_types(build_ctx *c, ptx_type *dt, ptx_type *ct, unsigned nopnds)
{
   const ptx_instr *in = c->in;
   bool half = in->ntypes == 2 && in->types[0] == PTX_T_F16X2;
   if (half && in->op == PTX_OP_TLD4)
      return ir_error(c->m, c->line, "%s: tld4 has no .f16x2 results (PTX ISA; ptxas refuses them too)",
                      bld_spelled(c));
   if (half && in->vec != 2)
      return ir_error(c->m, c->line, "%s: .f16x2 results come as .v2 (PTX ISA; ptxas refuses others too)",
                      bld_spelled(c));
   if (in->ntypes != 2 || in->vec != (half ? 2 : 4) || in->nopnds != nopnds)
      return bld_unsupported(c, "this form of tex/tld4 (only OP.geom.v4.dtype.ctype d, [object, {coords}])");
   *dt = in->types[0], *ct = in->types[1];
   if ((*dt != PTX_T_F32 && *dt != PTX_T_U32 && *dt != PTX_T_S32 && !half) || (*ct != PTX_T_F32 && *ct != PTX_T_S32))
      return bld_unsupported(c, "this tex/tld4 result or coordinate type");
   return true;
}

static bool tr_tex(build_ctx *c)
{
   tex_geom g;
   ptx_type dt, ct;
   bool level = bld_has(c, PTX_MOD_LEVEL), grad = bld_has(c, PTX_MOD_GRAD);
   if (bld_has(c, PTX_MOD_G2DMS) || bld_has(c, PTX_MOD_A2DMS))
      return bld_unsupported(c, "multisample textures (.2dms, .a2dms): no CUDA array has samples, so only graphics "
                                "interop makes one");
   if (!ONLY_MODS(c, PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D, PTX_MOD_A1D, PTX_MOD_A2D, PTX_MOD_CUBE, PTX_MOD_ACUBE,
                  PTX_MOD_LEVEL, PTX_MOD_GRAD) ||
       !geom_of(c, &g) || !fetch_types(c, &dt, &ct, level ? 3 : grad ? 4 : 2))
      return false;
   if (grad && ct != PTX_T_F32)
      return bld_unsupported(c, "tex.grad with integer coordinates");
   if (g.cube && ct != PTX_T_F32)
      return bld_unsupported(c, "tex.cube with integer coordinates");
   if (level && ct != PTX_T_F32)
      return bld_unsupported(c, "tex.level with integer coordinates");
   return emit_fetch(c, &g, dt, ct, level ? IR_TEXF_LEVEL : grad ? IR_TEXF_GRAD : 0);
}

/* tld4.{r,g,b,a}.{2d,a2d,cube,acube}.v4.dtype.f32 d, [object, {coords}]:
 * the component comp of the four texels of the bilinear footprint (PTX ISA
 * §9.7.10.4), in the layer or on the cube face the coordinates select. */
static bool tr_tld4(build_ctx *c)
{
   tex_geom g = { IR_TEX_2D, bld_has(c, PTX_MOD_A2D), false };
   if (bld_has(c, PTX_MOD_CUBE) || bld_has(c, PTX_MOD_ACUBE))
      g = (tex_geom){ IR_TEX_3D, bld_has(c, PTX_MOD_ACUBE), true };
   ptx_type dt, ct;
   unsigned comp;
   if (bld_has(c, PTX_MOD_R))
      comp = 0;
   else if (bld_has(c, PTX_MOD_G))
      comp = 1;
   else if (bld_has(c, PTX_MOD_B))
      comp = 2;
   else if (bld_has(c, PTX_MOD_A_FRAG))
      comp = 3;
   else
      return bld_unsupported(c, "tld4 without a component (.r, .g, .b, .a)");
   bool geom = bld_has(c, PTX_MOD_G2D) || g.layered || g.cube;
   if (!ONLY_MODS(c, PTX_MOD_R, PTX_MOD_G, PTX_MOD_B, PTX_MOD_A_FRAG, PTX_MOD_G2D, PTX_MOD_A2D, PTX_MOD_CUBE,
                  PTX_MOD_ACUBE) ||
       !geom || !fetch_types(c, &dt, &ct, 2))
      return geom ? false : bld_unsupported(c, "this tld4 geometry");
   if (ct != PTX_T_F32)
      return ir_error(c->m, c->line, "%s: tld4 takes .f32 coordinates (PTX ISA; ptxas refuses others too)",
                      bld_spelled(c));
   return emit_fetch(c, &g, dt, ct, IR_TEXF_GATHER | ((uint64_t)comp << IR_TEXF_COMP_SHIFT));
}

/* suld.b / sust.b / sust.p: the form (geometry, vector width, element
 * type, boundary mode), the object and coordinates, the values stored
 * (sust), then one SULD/SUST: sources handle, coordinates, values.
 * sust.p (formatted) stores .b32 values into one sample, converted to the
 * surface's format at run time (prelude mc_sust_p); its x is in samples.
 * There is no suld.p in PTX ISA 9.0 (ptxas: "Not a name of any known
 * instruction"). */
static bool tr_surface(build_ctx *c, bool store)
{
   const ptx_instr *in = c->in;
   bool formatted = bld_has(c, PTX_MOD_P);
   if (formatted && !store)
      return ir_error(c->m, c->line, "%s: suld.p is no PTX instruction (PTX ISA 9.0 has suld.b only; ptxas refuses "
                      "it too)", bld_spelled(c));
   tex_geom g;
   if (!ONLY_MODS(c, PTX_MOD_B, PTX_MOD_P, PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D, PTX_MOD_A1D, PTX_MOD_A2D,
                  PTX_MOD_TRAP_MODE, PTX_MOD_CLAMP, PTX_MOD_ZERO) || !geom_of(c, &g) || !bld_need_opnds(c, 2))
      return false;
   unsigned n = in->vec ? in->vec : 1;
   ptx_type t = in->ntypes == 1 ? in->types[0] : PTX_T_PRED;
   if (formatted && t != PTX_T_B32)
      return ir_error(c->m, c->line, "%s: sust.p stores .b32 elements only (PTX ISA 9.0; ptxas "
                      "refuses others too)", bld_spelled(c));
   bool wide = t == PTX_T_B64;
   if (wide && n > 2)
      return ir_error(c->m, c->line, "%s: a vector of %u bits exceeds PTX's 128-bit limit", bld_spelled(c), 64 * n);
   if (n == 3 || n > 4 || (t != PTX_T_B8 && t != PTX_T_B16 && t != PTX_T_B32 && !wide))
      return bld_unsupported(c, "this surface vector width or element type");
   const ptx_operand *obj = in->opnds[store ? 0 : 1], *a = in->opnds[1];
   ir_def *h, *coords[3], *vals[4], *layer = NULL;
   if (!object_operand(c, obj, &g, PTX_T_S32, &h, coords, &layer))
      return false;
   if (store && (a->kind == PTX_OPND_VEC ? a->u.vec.n : 1) != n)
      return ir_error(c->m, c->line, "%s: vector width and source do not match", bld_spelled(c));
   /* .b64: each element as its two 32-bit halves, low first (the bytes
    * are the same, and so is the access's size for bounds and clamping) */
   unsigned nw = wide ? 2 * n : n, nv = store ? nw : 0;
   for (unsigned k = 0; k < nv; k++) {
      const ptx_operand *src = a->kind == PTX_OPND_VEC ? a->u.vec.elems[wide ? k / 2 : k] : a;
      ir_def *v = bld_opnd(c, src, wide ? PTX_T_B64 : PTX_T_B32, wide ? 64 : 32);
      if (v && wide)
         v = bld_resize(c, k % 2 ? bld_shift_by(c, IR_SHR, v, 32) : v, 32, false);
      if (!(vals[k] = v))
         return false;
   }
   if (wide)
      t = PTX_T_B32;
   unsigned dims = (unsigned)g.dims, nl = g.layered ? 1 : 0;
   ir_def *old = NULL;
   if (in->guard && !store &&
       !(old = wide ? old_halves(c, in->opnds[0], n) : bld_old_dst_value(c, in->opnds[0], n, 32)))
      return false;
   ir_instr *i = store ? bld_emit(c, IR_SUST, 1 + dims + nl + nw, 0, 1)
                       : bld_emit(c, IR_SULD, 1 + dims + nl, 32, (uint8_t)nw);
   if (!i)
      return false;
   i->sub = (uint8_t)g.dims;
   i->type = t;
   i->imm = bld_has(c, PTX_MOD_CLAMP) ? IR_SURF_CLAMP : bld_has(c, PTX_MOD_ZERO) ? IR_SURF_ZERO : IR_SURF_TRAP;
   if (g.layered)
      i->imm |= IR_SURF_LAYERED;
   if (formatted)
      i->imm |= IR_SURF_FORMATTED;
   bld_set_src(i, 0, h);
   for (unsigned k = 0; k < dims; k++)
      bld_set_src(i, 1 + k, coords[k]);
   if (layer)
      bld_set_src(i, 1 + dims, layer);
   for (unsigned k = 0; k < nv; k++)
      bld_set_src(i, 1 + dims + nl + k, vals[k]);
   if (!store)
      return write_guarded(c, i, old, n, PTX_T_B32, wide);
   if (in->guard)
      bld_guard(c, i, NULL);
   return true;
}

/* The queries, each with its PTX modifier, the TXQ query of a size (-1
 * for the others, which are refused below) and whether txq and suq have
 * it (PTX ISA 9.0 §9.7.10.6, §9.7.10.10; ptxas agrees). */
static const struct { ptx_mod mod; int size; bool txq, suq; } queries[] = {
   { PTX_MOD_WIDTH, IR_TXQ_WIDTH, true, true },
   { PTX_MOD_HEIGHT, IR_TXQ_HEIGHT, true, true },
   { PTX_MOD_DEPTH, IR_TXQ_DEPTH, true, true },
   { PTX_MOD_CHANNEL_DATA_TYPE, -1, true, true },
   { PTX_MOD_CHANNEL_ORDER, -1, true, true },
   { PTX_MOD_NORMALIZED_COORDS, -1, true, false },
   { PTX_MOD_ARRAY_SIZE, -1, true, true },
   { PTX_MOD_NUM_MIPMAP_LEVELS, -1, true, false },
   { PTX_MOD_NUM_SAMPLES, -1, true, false },
   { PTX_MOD_FORCE_UNNORMALIZED_COORDS, -1, true, false },
   { PTX_MOD_FILTER_MODE, -1, true, false },
   { PTX_MOD_ADDR_MODE_0, -1, true, false },
   { PTX_MOD_ADDR_MODE_1, -1, true, false },
   { PTX_MOD_ADDR_MODE_2, -1, true, false },
   { PTX_MOD_MEMORY_LAYOUT, -1, false, true },
};

/* txq.query.b32 d, [handle]; txq.level.{width,height,depth}.b32 d, [handle],
 * lod; suq.query.b32 d, [handle]: one TXQ, sources handle[, lod]. */
static bool tr_query(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool suq = in->op == PTX_OP_SUQ, level = bld_has(c, PTX_MOD_LEVEL);
   unsigned nq = 0, k = 0;
   for (unsigned j = 0; j < sizeof(queries) / sizeof(queries[0]); j++)
      if (bld_has(c, queries[j].mod))
         nq++, k = j;
   if (nq != 1 || (suq ? !queries[k].suq : !queries[k].txq) || (level && (suq || queries[k].size < 0)))
      return ir_error(c->m, c->line, "%s: not a %s query (PTX ISA 9.0 §9.7.10; ptxas refuses it too)", bld_spelled(c),
                      suq ? "suq" : "txq");
   if (!ONLY_MODS(c, PTX_MOD_LEVEL, queries[k].mod))
      return false;
   /* NVIDIA's driver does not load a module with any other query of a
    * texture or surface object, though nvcc's ptxas takes them (an H100
    * and an H200, driver 580: the launch fails with
    * cudaErrorSymbolNotFound for txq, cudaErrorNotSupported for suq; the
    * driver's own JIT refuses txq.num_mipmap_levels as invalid PTX;
    * tests/cuda/NATIVE.md "txq"). */
   if (queries[k].size < 0)
      return ir_error(c->m, c->line,
                      "%s: only the sizes of a texture or surface object can be queried (NVIDIA's driver does "
                      "not load a module with this query either: the launch fails with %s on an H100)",
                      bld_spelled(c), suq ? "cudaErrorNotSupported" : "cudaErrorSymbolNotFound");
   if (!bld_need_opnds(c, level ? 3 : 2))
      return false;
   const ptx_operand *o = in->opnds[1];
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || o->u.addr.base->kind != PTX_OPND_REG || o->u.addr.vec)
      return bld_unsupported(c, "texture references and samplers (only bindless objects held in a register)");
   ir_def *h = bld_opnd(c, o->u.addr.base, PTX_T_U64, 64);
   ir_def *lod = level && h ? bld_opnd(c, in->opnds[2], PTX_T_S32, 32) : NULL;
   ir_instr *i = h && (lod || !level) ? bld_emit(c, IR_TXQ, level ? 2 : 1, 32, 1) : NULL;
   if (!i)
      return false;
   i->imm = (unsigned)queries[k].size | (level ? IR_TXQ_LEVEL : 0) | (suq ? IR_TXQ_SUQ : 0);
   i->type = PTX_T_B32;
   bld_set_src(i, 0, h);
   if (lod)
      bld_set_src(i, 1, lod);
   return bld_write(c, in->opnds[0], &i->def, PTX_T_B32);
}

bool bld_tr_tex(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_TEX: return tr_tex(c);
   case PTX_OP_TLD4: return tr_tld4(c);
   case PTX_OP_SULD: return tr_surface(c, false);
   case PTX_OP_SUST: return tr_surface(c, true);
   case PTX_OP_TXQ: case PTX_OP_SUQ: return tr_query(c);
   default: return bld_refuse(c);
   }
}
