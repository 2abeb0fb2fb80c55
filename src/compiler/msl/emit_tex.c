/*
 * emit_tex.c — texture and surface instructions (build_tex.c has the PTX
 * rules): one call of a prelude helper (prelude/tex.metal) per
 * instruction, on the object's 64-bit handle; the four-component results
 * come back as a uint4 of bits and are spread over the def's components.
 * A surface store passes its values as a uint4 of bits (0u past n);
 * sust.p calls mc_sust_p, which converts them to the surface's format.
 */
#include "emit_internal.h"

/* Coordinate k of i (sources 1..dims), or 0u past the geometry's. */
static void coord(emitter *e, const ir_instr *i, unsigned k)
{
   if (k < i->sub)
      emit_val(e, S(i, 1 + k));
   else
      strbuf_puts(e->out, "0u");
}

static void spread(emitter *e, const ir_instr *i, unsigned n)
{
   static const char comp[] = "xyzw";
   for (unsigned k = 0; k < n; k++) {
      emit_indent(e);
      emit_val_comp(e, &i->def, (int)k);
      strbuf_printf(e->out, " = mc_t_.%c;\n", comp[k]);
   }
}

static void emit_call_head(emitter *e, const char *fn, const ir_instr *i)
{
   emit_indent(e);
   strbuf_printf(e->out, "%s(mc_L, ", fn);
   emit_val(e, S(i, 0));
}

/* The layer of a layered access (its source after the coordinates), or 0u. */
static void layer(emitter *e, const ir_instr *i, bool layered)
{
   strbuf_puts(e->out, ", ");
   if (layered)
      emit_val(e, S(i, 1 + i->sub));
   else
      strbuf_puts(e->out, "0u");
}

/* mc_tex_sample's mode: bits 0-1 the dimensions, 4 layered, 8 cube map,
 * 16 integer coordinates, 32 integer result, 64 gather (tld4) of
 * component bits 7-8, 512 an explicit level of detail (tex.level: its
 * bits are the last argument, else 0u).  tex.grad calls
 * mc_tex_sample_grad, the gradients' bits last (dPdx.x, dPdx.y, dPdy.x,
 * dPdy.y, dPdx.z, dPdy.z; 0u for the dimensions a geometry lacks). */
static void emit_tex_fetch(emitter *e, const ir_instr *i)
{
   unsigned mode = i->sub | (i->type2 == PTX_T_S32 ? 16u : 0u) | (i->type != PTX_T_F32 ? 32u : 0u) |
                   (i->imm & IR_TEXF_LAYERED ? 4u : 0u) | (i->imm & IR_TEXF_CUBE ? 8u : 0u) |
                   (i->imm & IR_TEXF_GATHER ? 64u : 0u) |
                   (unsigned)((i->imm >> IR_TEXF_COMP_SHIFT) & 3u) << 7 | (i->imm & IR_TEXF_LEVEL ? 512u : 0u);
   emit_line(e, "{");
   e->indent++;
   emit_indent(e);
   bool grad = (i->imm & IR_TEXF_GRAD) != 0;
   strbuf_puts(e->out, grad ? "uint4 mc_t_ = mc_tex_sample_grad(mc_L, " : "uint4 mc_t_ = mc_tex_sample(mc_L, ");
   emit_val(e, S(i, 0));
   strbuf_printf(e->out, ", %uu", mode);
   for (unsigned k = 0; k < 3; k++) {
      strbuf_puts(e->out, ", ");
      coord(e, i, k);
   }
   layer(e, i, (i->imm & IR_TEXF_LAYERED) != 0);
   strbuf_puts(e->out, ", ");
   if (i->imm & IR_TEXF_LEVEL) {
      emit_val(e, S(i, i->nsrcs - 1));
   } else if (grad) {   /* dPdx.x, dPdx.y, dPdy.x, dPdy.y, dPdx.z, dPdy.z */
      static const unsigned which[6][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };
      unsigned n = i->sub, g0 = i->nsrcs - 2 * n;
      for (unsigned k = 0; k < 6; k++) {
         if (k)
            strbuf_puts(e->out, ", ");
         if (which[k][1] < n)
            emit_val(e, S(i, g0 + which[k][0] * n + which[k][1]));
         else
            strbuf_puts(e->out, "0u");
      }
   } else
      strbuf_puts(e->out, "0u");
   strbuf_puts(e->out, ");\n");
   spread(e, i, 4);
   e->indent--;
   emit_line(e, "}");
}

static unsigned elem_bytes(ptx_type t) { return t == PTX_T_B8 ? 1 : t == PTX_T_B16 ? 2 : 4; }

/* ", dims, clamp, x, y, z, layer, size, n" of a surface access
 * (coordinates as int; dims 4 + d for a layered d-dimensional one); a
 * formatted one (sust.p) has no size: the surface's format gives it. */
static void surf_args(emitter *e, const ir_instr *i, unsigned n)
{
   bool layered = (i->imm & IR_SURF_LAYERED) != 0;
   strbuf_printf(e->out, ", %uu, %uu", (unsigned)i->sub | (layered ? 4u : 0u),
                 (unsigned)(i->imm & IR_SURF_MODE_MASK));
   for (unsigned k = 0; k < 3; k++) {
      strbuf_puts(e->out, ", (int)");
      coord(e, i, k);
   }
   layer(e, i, layered);
   if (!(i->imm & IR_SURF_FORMATTED))
      strbuf_printf(e->out, ", %uu", elem_bytes(i->type));
   strbuf_printf(e->out, ", %uu", n);
}

bool emit_tex_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_TEX:
      emit_tex_fetch(e, i);
      return true;
   case IR_SULD:
      emit_line(e, "{");
      e->indent++;
      emit_indent(e);
      strbuf_puts(e->out, "uint4 mc_t_ = mc_suld(mc_L, ");
      emit_val(e, S(i, 0));
      surf_args(e, i, i->def.ncomp);
      strbuf_puts(e->out, ");\n");
      spread(e, i, i->def.ncomp);
      e->indent--;
      emit_line(e, "}");
      return true;
   case IR_SUST: {
      unsigned first = 1u + i->sub + (i->imm & IR_SURF_LAYERED ? 1u : 0u), n = i->nsrcs - first;
      emit_call_head(e, i->imm & IR_SURF_FORMATTED ? "mc_sust_p" : "mc_sust", i);
      surf_args(e, i, n);
      strbuf_puts(e->out, ", uint4(");
      for (unsigned k = 0; k < 4; k++) {
         if (k)
            strbuf_puts(e->out, ", ");
         if (k < n)
            emit_val(e, S(i, first + k));
         else
            strbuf_puts(e->out, "0u");
      }
      strbuf_puts(e->out, "));\n");
      return true;
   }
   case IR_TXQ:   /* mc_txq(handle, query | level 32 | suq 64, lod) */
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_puts(e->out, " = mc_txq(mc_L, ");
      emit_val(e, S(i, 0));
      strbuf_printf(e->out, ", %uu, ", (unsigned)i->imm);
      if (i->nsrcs > 1)
         emit_val(e, S(i, 1));
      else
         strbuf_puts(e->out, "0u");
      strbuf_puts(e->out, ");\n");
      return true;
   default:
      return false;
   }
}
