/*
 * parse_instr.c — one instruction: [@[!]pred] opcode{.word} [operands] ;
 *
 * Opcode: the longest entry of the opcode table matching the leading
 * dotted words ("cp.async.bulk" before "cp.async"; "ld" when ".global"
 * follows).  The remaining words are classified, in any order as ptxas
 * accepts them, into types (in order: cvt.f32.s32 → {F32, S32}), a vector
 * width, up to two state spaces (destination first, as in
 * cp.async.ca.shared.global) and modifiers.  An unknown word is an error
 * that names it.  Which combinations are legal is the IR builder's call.
 *
 * Operands (PTX ISA §6.4): registers (%r1, user .reg names, %tid.x), the
 * sink _, immediates and constant expressions, sym and sym+off, vectors
 * {a, _, c}, addresses [reg], [reg+off], [sym+off], [imm], [tex, {x, y}],
 * [tex, sampler, {x, y}], predicate negation !p, setp's p|q pair, and for
 * call the (rets), callee, (args)[, prototype] forms.  A name is a
 * register when it starts with '%' or was declared with .reg in the
 * current function (inline asm declares `.reg .pred p;`); otherwise it is
 * a symbol (label, variable, function).
 */
#include "parse_internal.h"

#include <string.h>

#define MAX_WORDS 32

/* ---- opcode and suffixes ---- */

/* Longest opcode-table entry matching head.w0.w1...; *used gets how many
 * of the words it took.  Extends only while a longer opcode can match. */
static ptx_opcode match_opcode(const ptx_token *head, const ptx_token *words, unsigned n,
                               unsigned *used)
{
   char buf[128];
   size_t len = head->len;
   bool longer;
   *used = 0;
   if (len >= 64)
      return PTX_OP_INVALID;
   memcpy(buf, head->start, len);
   ptx_opcode best = ptx_opcode_prefix_lookup(buf, len, &longer);
   for (unsigned k = 0; longer && k < n && len + 1 + words[k].len <= sizeof(buf); k++) {
      buf[len++] = '.';
      memcpy(buf + len, words[k].start, words[k].len);
      len += words[k].len;
      ptx_opcode op = ptx_opcode_prefix_lookup(buf, len, &longer);
      if (op != PTX_OP_INVALID) {
         best = op;
         *used = k + 1;
      }
   }
   return best;
}

static void add_word(ptx_parser *p, ptx_instr *in, const ptx_token *w)
{
   const char *opname = ptx_opcode_names[in->op];
   unsigned val = 0;
   switch (ptx_word_classify(w->start, w->len, &val)) {
   case PTX_WORD_TYPE:
      if (in->ntypes >= PTX_MAX_TYPES)
         ptx_fail(p, w->loc, "too many types on '%s'", opname);
      in->types[in->ntypes++] = (ptx_type)val;
      return;
   case PTX_WORD_VEC:
      if (in->vec)
         ptx_fail(p, w->loc, "more than one vector width on '%s'", opname);
      in->vec = (uint8_t)val;
      return;
   case PTX_WORD_SPACE:
      if (in->space == PTX_SPACE_NONE) {
         in->space = (ptx_space)val;
         in->space_spelling = ptx_space_spelling(w->start, w->len);
      } else if (in->src_space == PTX_SPACE_NONE) {
         in->src_space = (ptx_space)val;
         in->src_space_spelling = ptx_space_spelling(w->start, w->len);
      } else
         ptx_fail(p, w->loc, "more than two state spaces on '%s'", opname);
      return;
   case PTX_WORD_MOD:
      if (in->nmods >= PTX_MAX_MODS)
         ptx_fail(p, w->loc, "too many modifiers on '%s'", opname);
      in->mods[in->nmods++] = (ptx_mod)val;
      return;
   default:
      ptx_fail(p, w->loc, "unknown modifier '.%.*s' on '%s'", (int)MC_MIN(w->len, 64u), w->start,
             opname);
   }
}

static void opcode(ptx_parser *p, ptx_instr *in)
{
   ptx_token head = p->tok;
   ptx_token words[MAX_WORDS];
   unsigned n = 0, used = 0;
   ptx_next(p);
   while (p->tok.kind == PTX_TOK_DIRECTIVE) {
      if (n == MAX_WORDS)
         ptx_fail(p, p->tok.loc, "too many modifiers on '%.*s'", (int)MC_MIN(head.len, 64u),
                head.start);
      words[n++] = p->tok;
      ptx_next(p);
   }
   in->op = match_opcode(&head, words, n, &used);
   if (in->op == PTX_OP_INVALID)
      ptx_fail(p, head.loc, "unknown instruction '%.*s'", (int)MC_MIN(head.len, 64u), head.start);
   for (unsigned i = used; i < n; i++)
      add_word(p, in, &words[i]);
   if (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER)
      for (unsigned i = 0; i < in->nmods; i++)
         if (in->mods[i] == PTX_MOD_ARRIVE)
            p->m->has_bar_arrive = true;
}

/* ---- operands ---- */

static ptx_operand *new_operand(ptx_parser *p, ptx_operand_kind kind)
{
   ptx_operand *o = ptx_palloc(p, sizeof(*o));
   o->kind = kind;
   o->loc = p->tok.loc;
   o->comp = -1;
   return o;
}

/* %r<N> ranges declared without '%' (r<4> declares r0..r3). */
static bool in_reg_range(ptx_parser *p, const ptx_name *n)
{
   uint32_t i = n->len;
   while (i > 0 && n->str[i - 1] >= '0' && n->str[i - 1] <= '9')
      i--;
   if (i == 0 || i == n->len || n->len - i > 9 || (n->str[i] == '0' && n->len - i > 1))
      return false;
   const ptx_name *prefix = ptx_find_name(p, n->str, i);
   if (!prefix || prefix->range_func != p->func_id)
      return false;
   uint32_t idx = 0;
   for (uint32_t j = i; j < n->len; j++)
      idx = idx * 10 + (uint32_t)(n->str[j] - '0');
   return idx < prefix->range_count;
}

static bool is_register(ptx_parser *p, const ptx_name *n)
{
   return n->str[0] == '%' || n->reg_func == p->func_id || in_reg_range(p, n);
}

/* .x .y .z .w / .r .g .b .a, or a video selector .b0 .h1 .b3210 */
static void reg_suffix(ptx_parser *p, ptx_operand *o)
{
   const ptx_token *t = &p->tok;
   if (t->kind != PTX_TOK_DIRECTIVE)
      return;
   static const char comps[] = "xyzwrgba";
   const char *c = t->len == 1 ? memchr(comps, t->start[0], 8) : NULL;
   if (c) {
      o->comp = (int8_t)((c - comps) & 3);
   } else {
      bool sel = t->len >= 2 && t->len <= 5 && (t->start[0] == 'b' || t->start[0] == 'h');
      for (uint32_t i = 1; sel && i < t->len; i++)
         sel = t->start[i] >= '0' && t->start[i] <= '9';
      if (!sel)
         ptx_fail(p, t->loc, "unexpected %s after register '%s'", ptx_tok_desc(p, t), o->u.reg);
      o->sel = ptx_intern(p, t->start, t->len)->str;
   }
   ptx_next(p);
}

/* A name operand: register (with suffix), sink, or symbol (offset parsed
 * by the caller where allowed). */
static ptx_operand *name_operand(ptx_parser *p)
{
   if (ptx_tok_is_word(&p->tok, PTX_TOK_IDENT, "_")) {
      ptx_operand *o = new_operand(p, PTX_OPND_SINK);
      ptx_next(p);
      return o;
   }
   ptx_name *n = ptx_intern(p, p->tok.start, p->tok.len);
   bool reg = is_register(p, n);
   ptx_operand *o = new_operand(p, reg ? PTX_OPND_REG : PTX_OPND_SYM);
   ptx_next(p);
   if (reg) {
      o->u.reg = n->str;
      reg_suffix(p, o);
   } else {
      o->u.sym.name = n->str;
   }
   return o;
}

static ptx_operand *operand(ptx_parser *p, bool paramlist);

static void finish_list(ptx_parser *p, ptx_operand *o, ptx_operand **elems, uint32_t n)
{
   o->u.vec.n = n;
   o->u.vec.elems = n ? ptx_palloc(p, n * sizeof(*elems)) : NULL;
   if (n)
      memcpy(o->u.vec.elems, elems, n * sizeof(*elems));
}

/* Elements of {...} or (...) up to the closing character. */
static void operand_list(ptx_parser *p, ptx_operand *o, char close, const char *what)
{
   VEC(ptx_operand *) elems = { 0 };
   if (!p_is(p, close)) {
      do {
         /* checked before recursing: {{{... must not nest the C stack */
         if (p_is(p, '{') || p_is(p, '['))
            ptx_fail(p, p->tok.loc, "%s elements must be registers, names or constants", what);
         p_push(p, &elems, operand(p, false));
      } while (ptx_accept(p, ','));
   }
   o->u.vec.elems = elems.data;   /* the vector's own array: no copy */
   o->u.vec.n = elems.len;
}

static ptx_operand *vector_operand(ptx_parser *p)
{
   ptx_operand *o = new_operand(p, PTX_OPND_VEC);
   ptx_open_brace(p);
   operand_list(p, o, '}', "vector");
   ptx_close_brace(p, "to close the vector operand");
   return o;
}

/* [tex, {x, y}] / [tex, sampler, {x, y}] / [tmap, {c0, c1}]: called after
 * the first name and its ','. */
static void tex_address(ptx_parser *p, ptx_operand *o, ptx_operand *first)
{
   ptx_operand *names[4] = { first };
   uint32_t n = 1;
   for (;;) {
      if (p_is(p, '{')) {
         o->u.addr.vec = vector_operand(p);
         break;
      }
      if (p->tok.kind != PTX_TOK_IDENT)
         ptx_fail(p, p->tok.loc, "expected a name or a coordinate vector in the address, found %s",
                ptx_tok_desc(p, &p->tok));
      if (n == ARRAY_SIZE(names))
         ptx_fail(p, p->tok.loc, "too many names in the address");
      names[n++] = name_operand(p);
      if (!ptx_accept(p, ','))
         break;
   }
   if (n == 1) {
      o->u.addr.base = first;
      return;
   }
   ptx_operand *v = new_operand(p, PTX_OPND_VEC);
   v->loc = first->loc;
   finish_list(p, v, names, n);
   o->u.addr.base = v;
}

static ptx_operand *address_operand(ptx_parser *p)
{
   ptx_operand *o = new_operand(p, PTX_OPND_ADDR);
   ptx_next(p);
   if (p->tok.kind == PTX_TOK_IDENT) {
      ptx_operand *base = name_operand(p);
      if (base->kind == PTX_OPND_SINK)
         ptx_fail(p, base->loc, "'_' cannot be an address");
      if (ptx_accept(p, ','))
         tex_address(p, o, base);
      else {
         o->u.addr.base = base;
         o->u.addr.offset = ptx_offset(p);
      }
   } else if (ptx_starts_expr(p)) {
      o->u.addr.offset = ptx_int_expr(p, "absolute address");
   } else {
      ptx_fail(p, p->tok.loc, "expected an address, found %s", ptx_tok_desc(p, &p->tok));
   }
   ptx_expect(p, ']', "to close the address");
   if (ptx_is_dir(p, "unified")) {
      o->u.addr.unified = true;
      ptx_next(p);
   }
   return o;
}

static ptx_operand *immediate(ptx_parser *p)
{
   ptx_operand *o = new_operand(p, PTX_OPND_IMM_INT);
   ptx_cval v = ptx_expr(p);
   o->u.imm.bits = v.bits;
   o->u.imm.is_unsigned = v.kind == PTX_CV_UINT;
   if (v.kind == PTX_CV_F32)
      o->kind = PTX_OPND_IMM_F32;
   else if (v.kind == PTX_CV_F64)
      o->kind = PTX_OPND_IMM_F64;
   return o;
}

static ptx_operand *operand(ptx_parser *p, bool paramlist)
{
   const ptx_token *t = &p->tok;
   if (p_is(p, '{'))
      return vector_operand(p);
   if (p_is(p, '['))
      return address_operand(p);
   if (p_is(p, '(') && paramlist) {
      ptx_operand *o = new_operand(p, PTX_OPND_PARAMLIST);
      ptx_next(p);
      operand_list(p, o, ')', "parameter list");
      ptx_expect(p, ')', "to close the parameter list");
      return o;
   }
   if ((p_is(p, '!') || p_is(p, '-')) && ptx_peek(p)->kind == PTX_TOK_IDENT) {
      bool neg = p_is(p, '-');
      ptx_loc loc = t->loc;
      ptx_next(p);
      ptx_operand *o = name_operand(p);
      if (o->kind == PTX_OPND_SINK)
         ptx_fail(p, o->loc, "'_' cannot be negated");
      o->loc = loc;
      *(neg ? &o->neg_value : &o->negate) = true;
      return o;
   }
   if (t->kind == PTX_TOK_IDENT) {
      ptx_operand *o = name_operand(p);
      if (o->kind == PTX_OPND_SYM)
         o->u.sym.offset = ptx_offset(p);
      return o;
   }
   if (ptx_starts_expr(p))
      return immediate(p);
   ptx_fail(p, t->loc, "expected an operand, found %s", ptx_tok_desc(p, t));
}

/* call [.uni] [(rets),] callee [, (args)] [, proto-or-targets] */
static void call_operands(ptx_parser *p, ptx_instr *in)
{
   ptx_operand *ops[4];
   unsigned n = 0, i = 0;
   ptx_loc loc = p->tok.loc;
   do {
      if (n == ARRAY_SIZE(ops))
         ptx_fail(p, p->tok.loc, "too many operands for 'call'");
      ops[n++] = operand(p, true);
   } while (ptx_accept(p, ','));

   ptx_operand *empty_rets = NULL, *empty_args = NULL;
   if (ops[0]->kind != PTX_OPND_PARAMLIST) {
      empty_rets = new_operand(p, PTX_OPND_PARAMLIST);
      empty_rets->loc = loc;
   }
   in->opnds[in->nopnds++] = empty_rets ? empty_rets : ops[i++];
   if (i >= n || (ops[i]->kind != PTX_OPND_SYM && ops[i]->kind != PTX_OPND_REG))
      ptx_fail(p, i < n ? ops[i]->loc : loc, "expected the called function in 'call'");
   in->opnds[in->nopnds++] = ops[i++];
   if (i < n && ops[i]->kind == PTX_OPND_PARAMLIST) {
      in->opnds[in->nopnds++] = ops[i++];
   } else {
      empty_args = new_operand(p, PTX_OPND_PARAMLIST);
      in->opnds[in->nopnds++] = empty_args;
   }
   if (i < n) {
      if (ops[i]->kind != PTX_OPND_SYM || ops[i]->u.sym.offset)
         ptx_fail(p, ops[i]->loc, "expected a prototype or call-target list in 'call'");
      in->opnds[in->nopnds++] = ops[i++];
   }
   if (i < n)
      ptx_fail(p, ops[i]->loc, "unexpected operand in 'call'");
}

static void operands(ptx_parser *p, ptx_instr *in)
{
   if (p_is(p, ';'))
      return;
   if (in->op == PTX_OP_CALL) {
      call_operands(p, in);
      return;
   }
   do {
      if (in->nopnds >= PTX_MAX_OPNDS)
         ptx_fail(p, p->tok.loc, "too many operands for '%s'", ptx_opcode_names[in->op]);
      in->opnds[in->nopnds++] = operand(p, false);
      if (in->nopnds == 1 && ptx_accept(p, '|')) {
         in->opnds[in->nopnds++] = operand(p, false);
         in->has_pair_dst = true;
      }
   } while (ptx_accept(p, ','));
}

ptx_instr *ptx_parse_instr(ptx_parser *p)
{
   ptx_instr *in = ptx_palloc(p, sizeof(*in));
   in->loc = p->tok.loc;
   if (ptx_accept(p, '@')) {
      in->guard_negate = ptx_accept(p, '!');
      if (p->tok.kind != PTX_TOK_IDENT)
         ptx_fail(p, p->tok.loc, "expected a predicate after '@', found %s", ptx_tok_desc(p, &p->tok));
      in->guard = ptx_intern(p, p->tok.start, p->tok.len)->str;
      ptx_next(p);
   }
   if (p->tok.kind != PTX_TOK_IDENT)
      ptx_fail(p, p->tok.loc, "expected an instruction, found %s", ptx_tok_desc(p, &p->tok));
   opcode(p, in);
   operands(p, in);
   if (!p_is(p, ';'))
      ptx_fail(p, p->tok.loc, "expected ';' after '%s' instruction, found %s",
             ptx_opcode_names[in->op], ptx_tok_desc(p, &p->tok));
   ptx_next(p);
   return in;
}
