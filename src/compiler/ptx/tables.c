/*
 * tables.c — the spelling tables of the PTX front end and lookups into
 * them, plus small queries on the AST (sizes, finding names).
 *
 * The name arrays come from the X-macros in ptx.h, so enum and spelling
 * never disagree.  Lookups go through two open-addressing hash tables built
 * once (pthread_once): one for opcodes ("cp.async" is one entry), one for
 * the dotted words that may follow an opcode or start a declaration
 * (types, state spaces, vector widths and modifiers).  A word has exactly
 * one class; the unit tests check that no spelling is listed twice.
 */
#include "parse_internal.h"

#include <pthread.h>
#include <string.h>

const char *const ptx_type_names[PTX_T_COUNT] = {
#define X(e, s, b) s,
   PTX_TYPES(X)
#undef X
};

const uint8_t ptx_type_bits[PTX_T_COUNT] = {
#define X(e, s, b) b,
   PTX_TYPES(X)
#undef X
};

const char *const ptx_opcode_names[PTX_OP_COUNT] = {
   "<invalid>",
#define X(e, s) s,
   PTX_OPCODES(X)
#undef X
};

const char *const ptx_mod_names[PTX_MOD_COUNT] = {
   "<invalid>",
#define X(e, s) s,
   PTX_MODS(X)
#undef X
};

const char *const ptx_space_names[PTX_SPACE_COUNT] = {
   [PTX_SPACE_NONE] = "",
   [PTX_SPACE_REG] = "reg",
   [PTX_SPACE_SREG] = "sreg",
   [PTX_SPACE_CONST] = "const",
   [PTX_SPACE_GLOBAL] = "global",
   [PTX_SPACE_LOCAL] = "local",
   [PTX_SPACE_PARAM] = "param",
   [PTX_SPACE_SHARED] = "shared",
   [PTX_SPACE_SHARED_CLUSTER] = "shared::cluster",
   [PTX_SPACE_TEX] = "tex",
};

/* Extra spellings of spaces that are not their canonical names. */
static const struct { const char *name; ptx_space space; } space_aliases[] = {
   { "shared::cta", PTX_SPACE_SHARED },
   { "param::entry", PTX_SPACE_PARAM },
   { "param::func", PTX_SPACE_PARAM },
};

/* ---- hash tables ---- */

typedef struct word_entry {
   const char *name;
   uint16_t len;
   uint8_t cls;          /* ptx_word_class */
   uint16_t val;
} word_entry;

#define WORD_TABLE_SIZE 2048u
#define OP_TABLE_SIZE 512u

static word_entry word_table[WORD_TABLE_SIZE];
static word_entry op_table[OP_TABLE_SIZE];
static bool tables_dup;   /* a spelling was listed twice (a table bug) */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint32_t word_hash(const char *s, size_t n)
{
   uint32_t h = 2166136261u;
   for (size_t i = 0; i < n; i++)
      h = (h ^ (unsigned char)s[i]) * 16777619u;
   return h;
}

static void table_put(word_entry *t, uint32_t size, const char *name, ptx_word_class cls,
                      unsigned val)
{
   size_t n = strlen(name);
   uint32_t j = word_hash(name, n) & (size - 1);
   while (t[j].name) {
      if (t[j].len == n && !memcmp(t[j].name, name, n))
         tables_dup = true;
      j = (j + 1) & (size - 1);
   }
   t[j] = (word_entry){ name, (uint16_t)n, (uint8_t)cls, (uint16_t)val };
}

static const word_entry *table_get(const word_entry *t, uint32_t size, const char *s, size_t n)
{
   uint32_t j = word_hash(s, n) & (size - 1);
   while (t[j].name) {
      if (t[j].len == n && !memcmp(t[j].name, s, n))
         return &t[j];
      j = (j + 1) & (size - 1);
   }
   return NULL;
}

static void tables_build(void)
{
   for (unsigned i = 1; i < PTX_T_COUNT; i++)
      table_put(word_table, WORD_TABLE_SIZE, ptx_type_names[i], PTX_WORD_TYPE, i);
   for (unsigned i = 1; i < PTX_MOD_COUNT; i++)
      table_put(word_table, WORD_TABLE_SIZE, ptx_mod_names[i], PTX_WORD_MOD, i);
   for (unsigned i = PTX_SPACE_CONST; i < PTX_SPACE_COUNT; i++)
      table_put(word_table, WORD_TABLE_SIZE, ptx_space_names[i], PTX_WORD_SPACE, i);
   /* Aliases carry 0x100 + their index so callers can recover the spelling. */
   for (unsigned i = 0; i < ARRAY_SIZE(space_aliases); i++)
      table_put(word_table, WORD_TABLE_SIZE, space_aliases[i].name, PTX_WORD_SPACE,
                0x100 | i << 4 | space_aliases[i].space);
   table_put(word_table, WORD_TABLE_SIZE, "v2", PTX_WORD_VEC, 2);
   table_put(word_table, WORD_TABLE_SIZE, "v4", PTX_WORD_VEC, 4);
   table_put(word_table, WORD_TABLE_SIZE, "v8", PTX_WORD_VEC, 8);
   for (unsigned i = 1; i < PTX_OP_COUNT; i++)
      table_put(op_table, OP_TABLE_SIZE, ptx_opcode_names[i], PTX_WORD_NONE, i);
   /* Mark every dotted prefix of a multi-word opcode ("cp", "cp.reduce",
    * "cp.async", ...) so the longest match only extends where it can. */
   for (unsigned i = 1; i < PTX_OP_COUNT; i++) {
      const char *name = ptx_opcode_names[i];
      for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
         size_t n = (size_t)(dot - name);
         uint32_t j = word_hash(name, n) & (OP_TABLE_SIZE - 1);
         while (op_table[j].name && !(op_table[j].len == n && !memcmp(op_table[j].name, name, n)))
            j = (j + 1) & (OP_TABLE_SIZE - 1);
         if (!op_table[j].name)
            op_table[j] = (word_entry){ name, (uint16_t)n, 0, PTX_OP_INVALID };
         op_table[j].cls = 1;   /* a longer opcode starts with this */
      }
   }
}

static void tables_init(void) { pthread_once(&tables_once, tables_build); }

bool ptx_tables_have_duplicates(void)
{
   tables_init();
   return tables_dup;
}

ptx_word_class ptx_word_classify(const char *s, size_t n, unsigned *val)
{
   tables_init();
   const word_entry *e = table_get(word_table, WORD_TABLE_SIZE, s, n);
   if (!e)
      return PTX_WORD_NONE;
   *val = e->cls == PTX_WORD_SPACE ? e->val & 0xf : e->val;
   return (ptx_word_class)e->cls;
}

const char *ptx_space_spelling(const char *s, size_t n)
{
   tables_init();
   const word_entry *e = table_get(word_table, WORD_TABLE_SIZE, s, n);
   if (!e || e->cls != PTX_WORD_SPACE || !(e->val & 0x100))
      return NULL;
   return space_aliases[(e->val >> 4) & 0xf].name;
}

ptx_opcode ptx_opcode_lookup(const char *s, size_t n)
{
   tables_init();
   const word_entry *e = table_get(op_table, OP_TABLE_SIZE, s, n);
   return e ? (ptx_opcode)e->val : PTX_OP_INVALID;
}

ptx_opcode ptx_opcode_prefix_lookup(const char *s, size_t n, bool *longer)
{
   tables_init();
   const word_entry *e = table_get(op_table, OP_TABLE_SIZE, s, n);
   *longer = e && e->cls;
   return e ? (ptx_opcode)e->val : PTX_OP_INVALID;
}

ptx_type ptx_type_lookup(const char *s, size_t n)
{
   unsigned v;
   return ptx_word_classify(s, n, &v) == PTX_WORD_TYPE ? (ptx_type)v : PTX_T_NONE;
}

ptx_mod ptx_mod_lookup(const char *s, size_t n)
{
   unsigned v;
   return ptx_word_classify(s, n, &v) == PTX_WORD_MOD ? (ptx_mod)v : PTX_MOD_INVALID;
}

/* ---- AST queries ---- */

uint64_t ptx_var_elems(const ptx_var *v)
{
   uint64_t n = 1;
   for (unsigned i = 0; i < v->ndims && i < PTX_MAX_DIMS; i++) {
      /* saturate instead of wrapping: a[1<<40][1<<40] is simply too big */
      if (v->dims[i] && n > UINT64_MAX / v->dims[i])
         return UINT64_MAX;
      n *= v->dims[i];
   }
   return n;
}

uint64_t ptx_var_size(const ptx_var *v)
{
   uint64_t elem = (ptx_type_bits[v->type] + 7) / 8;
   if (v->vec)
      elem *= v->vec;
   uint64_t n = ptx_var_elems(v);
   if (elem && n > UINT64_MAX / elem)
      return UINT64_MAX;
   return n * elem;
}

ptx_func *ptx_find_func(const ptx_module *m, const char *name)
{
   ptx_func *decl = NULL;
   for (uint32_t i = 0; i < m->ndecls; i++) {
      if (m->decls[i].kind != PTX_DECL_FUNC)
         continue;
      ptx_func *f = m->decls[i].u.func;
      if (!f->name || strcmp(f->name, name))
         continue;
      if (f->has_body)
         return f;
      if (!decl)
         decl = f;
   }
   return decl;
}

/* Prefers the definition over an .extern declaration of the same name. */
ptx_var *ptx_find_var(const ptx_module *m, const char *name)
{
   ptx_var *ext = NULL;
   for (uint32_t i = 0; i < m->ndecls; i++) {
      if (m->decls[i].kind != PTX_DECL_VAR)
         continue;
      ptx_var *v = m->decls[i].u.var;
      if (strcmp(v->name, name))
         continue;
      if (v->linkage != PTX_LINK_EXTERN)
         return v;
      if (!ext)
         ext = v;
   }
   return ext;
}
