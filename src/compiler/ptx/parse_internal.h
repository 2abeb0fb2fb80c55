/*
 * parse_internal.h — what the parser's files share: the parser state,
 * token helpers, error reporting, name interning, constant expressions and
 * the word classifier of tables.c.  Not part of the front end's interface
 * (that is ptx.h).
 *
 * Errors: ptx_fail() records "line L, col C: message" and longjmps to the
 * top-level loop in parse.c, which marks the function being parsed as
 * failed and resynchronises at the next top-level directive.  Parsing code
 * can therefore assume every helper succeeded.  Every allocation goes
 * through ptx_palloc(), which longjmps with p->oom set when the arena fails.
 */
#ifndef MC_PTX_PARSE_INTERNAL_H
#define MC_PTX_PARSE_INTERNAL_H

#include "ptx.h"

#include <setjmp.h>

/* ---- tables.c ---- */

typedef enum ptx_word_class {
   PTX_WORD_NONE, PTX_WORD_TYPE, PTX_WORD_MOD, PTX_WORD_SPACE, PTX_WORD_VEC,
} ptx_word_class;

/* Classifies a dotted word (without the dot); *val gets the ptx_type,
 * ptx_mod, ptx_space or vector width. */
ptx_word_class ptx_word_classify(const char *s, size_t n, unsigned *val);
/* For the alias spellings of a space (shared::cta, param::entry,
 * param::func): the static spelling; NULL for canonical names. */
const char *ptx_space_spelling(const char *s, size_t n);
/* An opcode lookup that also says whether a longer opcode begins with
 * s followed by '.' (so "cp" → INVALID, longer; "ld" → LD, not longer). */
ptx_opcode ptx_opcode_prefix_lookup(const char *s, size_t n, bool *longer);
/* True if the tables list a spelling twice (checked by the unit tests). */
bool ptx_tables_have_duplicates(void);

/* ---- the parser ---- */

/* An interned name.  reg_func/range_func record the function (p->func_id)
 * in which the name was declared with .reg, so operands can tell registers
 * from symbols even when inline asm declares registers without '%'. */
typedef struct ptx_name {
   const char *str;
   uint32_t len, hash;
   uint32_t reg_func;        /* declared as .reg name in this function */
   uint32_t range_func;      /* declared as .reg name<N> in this function */
   uint32_t range_count;
} ptx_name;

#define PTX_MAX_ERRORS 200       /* then parsing stops: garbage in, bounded out */
#define PTX_MAX_EXPR_DEPTH 200   /* nesting of ( ), unary operators, { } */

typedef struct ptx_parser {
   arena *ar;
   ptx_module *m;
   ptx_lexer lx;
   ptx_token tok;               /* current token */
   ptx_token ahead;             /* one token of look-ahead when has_ahead */
   bool has_ahead;
   jmp_buf jb;
   bool oom;                    /* arena allocation failed: give up */
   uint32_t depth;              /* '{' consumed and not yet closed */
   uint32_t expr_depth;
   uint32_t func_id;            /* 1, 2, ... per function parsed */
   ptx_func *cur_func;          /* function whose header/body is being parsed */
   VEC(ptx_decl) decls;
   VEC(ptx_error) errors;
   VEC(const char *) files;
   /* statements of the body being parsed (heap scratch, see parse_decl.c) */
   ptx_stmt *stmts;
   uint32_t nstmts, stmts_cap;
   /* intern table (heap, freed after parsing) */
   ptx_name *names;
   uint32_t names_cap, names_len;
} ptx_parser;

/* parse.c: tokens, errors, allocation */
void ptx_next(ptx_parser *p);
const ptx_token *ptx_peek(ptx_parser *p);
static inline bool tok_is(const ptx_token *t, char c)
{
   return t->kind == PTX_TOK_PUNCT && t->punct[0] == c;
}
static inline bool p_is(const ptx_parser *p, char c) { return tok_is(&p->tok, c); }
bool ptx_accept(ptx_parser *p, char c);
void ptx_expect(ptx_parser *p, char c, const char *context);
bool ptx_tok_is_word(const ptx_token *t, ptx_tok_kind kind, const char *word);
bool ptx_is_dir(const ptx_parser *p, const char *word);
const char *ptx_tok_desc(ptx_parser *p, const ptx_token *t);
MC_NORETURN void ptx_fail(ptx_parser *p, ptx_loc loc, const char *fmt, ...) MC_PRINTF(3, 4);
void ptx_error_at(ptx_parser *p, ptx_loc loc, const char *fmt, ...) MC_PRINTF(3, 4);
void *ptx_palloc(ptx_parser *p, size_t size);
const char *ptx_pstrndup(ptx_parser *p, const char *s, size_t n);
const char *ptx_pprintf(ptx_parser *p, const char *fmt, ...) MC_PRINTF(2, 3);   /* short texts */
void ptx_open_brace(ptx_parser *p);
void ptx_close_brace(ptx_parser *p, const char *context);
#define p_push(p, v, x)                                                       \
   do { if (!vec_push((p)->ar, (v), (x))) { (p)->oom = true; longjmp((p)->jb, 1); } } while (0)

/* parse_expr.c: names and constant expressions */
ptx_name *ptx_intern(ptx_parser *p, const char *s, uint32_t len);
ptx_name *ptx_find_name(ptx_parser *p, const char *s, uint32_t len);
void ptx_names_free(ptx_parser *p);

typedef enum ptx_cval_kind { PTX_CV_INT, PTX_CV_UINT, PTX_CV_F32, PTX_CV_F64 } ptx_cval_kind;
typedef struct ptx_cval {
   ptx_cval_kind kind;
   uint64_t bits;            /* integer value, or float bits (F32 in the low 32) */
} ptx_cval;

/* Binary precedence levels, loosest first (C's). */
enum { PTX_PREC_LOR = 1, PTX_PREC_LAND, PTX_PREC_OR, PTX_PREC_XOR, PTX_PREC_AND,
       PTX_PREC_EQ, PTX_PREC_REL, PTX_PREC_SHIFT, PTX_PREC_ADD, PTX_PREC_MUL };

bool ptx_starts_expr(const ptx_parser *p);
ptx_cval ptx_expr(ptx_parser *p);                          /* incl. ?: */
ptx_cval ptx_expr_prec(ptx_parser *p, int min_prec);       /* binary ops >= min_prec */
/* Continues a binary expression whose left operand is already known, e.g.
 * the "+16" of [%rd1+16] with lhs 0. */
ptx_cval ptx_expr_continue(ptx_parser *p, ptx_cval lhs, int min_prec);
/* "+off" / "-off" after a symbol or address base; 0 when neither follows. */
int64_t ptx_offset(ptx_parser *p);
int64_t ptx_int_expr(ptx_parser *p, const char *what);
uint32_t ptx_u32_expr(ptx_parser *p, const char *what);

/* parse_decl.c: declarations, functions, bodies */
typedef enum ptx_decl_ctx { PTX_CTX_TOP, PTX_CTX_BODY, PTX_CTX_PARAM, PTX_CTX_PROTO } ptx_decl_ctx;
/* Parses one declaration statement starting at its first directive (after
 * any linkage); appends one ptx_var per declared name to *out. */
typedef VEC(ptx_var *) ptx_var_vec;
void ptx_var_decl(ptx_parser *p, ptx_linkage linkage, ptx_decl_ctx ctx, ptx_var_vec *out);
ptx_func *ptx_parse_func(ptx_parser *p, ptx_linkage linkage);

/* parse_instr.c */
ptx_instr *ptx_parse_instr(ptx_parser *p);

#endif
