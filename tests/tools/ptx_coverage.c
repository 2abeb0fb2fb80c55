/*
 * ptx_coverage — the PTX coverage table (docs/ptx-coverage.md, written by
 * tests/ptx/coverage.sh).
 *
 *   ptx_coverage RESULTS CASE.ptx... -- CORPUS.ptx...
 *
 * RESULTS holds the PASS/FAIL/SKIP lines of a tests/ptx run.  Every
 * instruction of every function of every file is put through the IR
 * builder in probing mode (ir_module.probe), which reports each
 * instruction's error, if any, and goes on.  An instruction form (opcode,
 * modifiers in a canonical order, state space, vector width, types) is
 *   - verified:   it occurs in a conformance case that passes bit-exactly
 *                 against the outputs an NVIDIA GPU produced;
 *   - refused:    the translator rejects it with an error (shown);
 *   - unverified: it translates, but no passing case contains it — the
 *                 forms that could be silently wrong, listed so they get
 *                 cases;
 * and an opcode the parser knows that occurs nowhere is "not yet seen".
 * Errors raised after building (structurizer, emitter) are per kernel and
 * show in tests/ptx/corpus/big.sh instead.
 */
#include "../../src/compiler/ir/ir.h"
#include "../../src/util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct form {
   char *key;           /* canonical spelling */
   ptx_opcode op;
   bool verified, refused, translated, in_case, in_corpus;
   char *error;         /* first refusal, without the line */
   unsigned count;
} form;

typedef struct coverage {
   form *forms;
   unsigned nforms, cap;
   bool file_is_case, file_passed;
   bool seen_op[PTX_OP_COUNT];
} coverage;

static int cmp_mod(const void *a, const void *b)
{
   return strcmp(ptx_mod_names[*(const ptx_mod *)a], ptx_mod_names[*(const ptx_mod *)b]);
}

static void spell(const ptx_instr *in, char *buf, size_t n)
{
   ptx_mod mods[PTX_MAX_MODS];
   memcpy(mods, in->mods, in->nmods * sizeof(mods[0]));
   qsort(mods, in->nmods, sizeof(mods[0]), cmp_mod);
   size_t o = (size_t)snprintf(buf, n, "%s", ptx_opcode_names[in->op]);
   for (unsigned k = 0; k < in->nmods && o < n; k++)
      o += (size_t)snprintf(buf + o, n - o, ".%s", ptx_mod_names[mods[k]]);
   if (in->space != PTX_SPACE_NONE && o < n)
      o += (size_t)snprintf(buf + o, n - o, ".%s", ptx_space_names[in->space]);
   if (in->src_space != PTX_SPACE_NONE && o < n)
      o += (size_t)snprintf(buf + o, n - o, ".%s", ptx_space_names[in->src_space]);
   if (in->vec && o < n)
      o += (size_t)snprintf(buf + o, n - o, ".v%u", in->vec);
   for (unsigned k = 0; k < in->ntypes && o < n; k++)
      o += (size_t)snprintf(buf + o, n - o, ".%s", ptx_type_names[in->types[k]]);
}

static form *find_form(coverage *cv, const char *key, ptx_opcode op)
{
   for (unsigned k = 0; k < cv->nforms; k++)
      if (!strcmp(cv->forms[k].key, key))
         return &cv->forms[k];
   if (cv->nforms == cv->cap) {
      cv->cap = cv->cap ? 2 * cv->cap : 256;
      cv->forms = realloc(cv->forms, cv->cap * sizeof(*cv->forms));
      if (!cv->forms)
         mc_die("out of memory");
   }
   form *f = &cv->forms[cv->nforms++];
   memset(f, 0, sizeof(*f));
   f->key = mc_strdup(key);
   f->op = op;
   return f;
}

static const char *strip_line(const char *msg)
{
   const char *p = strstr(msg, "PTX line ");
   if (p && (p = strchr(p + 9, ':')))
      return p + 2;
   return msg;
}

static void probe(void *data, const ptx_instr *in, const char *error)
{
   coverage *cv = data;
   char key[256];
   spell(in, key, sizeof(key));
   form *f = find_form(cv, key, in->op);
   cv->seen_op[in->op] = true;
   f->count++;
   if (error) {
      if (!f->refused)
         f->error = mc_strdup(strip_line(error));
      f->refused = true;
   } else {
      f->translated = true;
   }
   if (cv->file_is_case) {
      f->in_case = true;
      if (cv->file_passed && !error)
         f->verified = true;
   } else {
      f->in_corpus = true;
   }
}

static void probe_file(coverage *cv, const char *path)
{
   size_t len;
   char *text = file_read(path, &len);
   if (!text) {
      fprintf(stderr, "ptx_coverage: cannot read %s\n", path);
      return;
   }
   arena ar;
   arena_init(&ar, 1 << 20);
   ptx_module *pm = ptx_parse_module(&ar, text, len);
   ir_module *m = pm ? ir_module_create(&ar, pm) : NULL;
   if (m && ir_build_globals(m)) {
      m->probe = probe;
      m->probe_data = cv;
      for (uint32_t d = 0; d < pm->ndecls; d++) {
         const ptx_decl *dc = &pm->decls[d];
         if (dc->kind != PTX_DECL_FUNC || !dc->u.func->has_body)
            continue;
         m->error = NULL;
         ir_build_func(m, dc->u.func);
      }
   } else {
      fprintf(stderr, "ptx_coverage: %s: %s\n", path, m && m->error ? m->error : "does not load");
   }
   arena_free_all(&ar);
   free(text);
}

/* "PASS name.ptx" lines of the results file. */
static bool case_passed(const char *results, const char *path)
{
   const char *base = strrchr(path, '/');
   base = base ? base + 1 : path;
   char want[512];
   snprintf(want, sizeof(want), "PASS %s", base);
   size_t n = strlen(want);
   for (const char *p = results; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
      if (!strncmp(p, want, n) && (p[n] == '\n' || p[n] == ':' || p[n] == 0 || p[n] == ' '))
         return true;
   return false;
}

static int cmp_form(const void *a, const void *b)
{
   const form *x = a, *y = b;
   if (x->op != y->op)
      return strcmp(ptx_opcode_names[x->op], ptx_opcode_names[y->op]);
   return strcmp(x->key, y->key);
}

/* The part of a form after the opcode ("" for the bare opcode). */
static const char *suffix(const form *f)
{
   const char *s = f->key + strlen(ptx_opcode_names[f->op]);
   return *s ? s : "(bare)";
}

static void print_table(coverage *cv, unsigned ncases, unsigned ncorpus)
{
   qsort(cv->forms, cv->nforms, sizeof(*cv->forms), cmp_form);
   /* A form both verified and refused (call: direct calls translate,
    * indirect ones are refused) counts in both columns. */
   unsigned nver = 0, nref = 0, nunv = 0, nunseen = 0;
   for (unsigned k = 0; k < cv->nforms; k++) {
      form *f = &cv->forms[k];
      nref += f->refused;
      nver += f->verified;
      nunv += !f->verified && !f->refused;
   }
   for (unsigned op = 0; op < PTX_OP_COUNT; op++)
      nunseen += !cv->seen_op[op];
   printf("# PTX coverage\n\n"
          "Generated by `tests/ptx/coverage.sh` (do not edit) from %u conformance cases\n"
          "(`tests/ptx/cases`, outputs from an NVIDIA H200) and %u files of real PTX\n"
          "(`tests/ptx/corpus`: nvcc and clang output, CUB/Thrust).  A form is an\n"
          "opcode with its modifiers, state space, vector width and types.\n\n"
          "- **verified**: translated, and in a case that passes bit-exactly against the GPU;\n"
          "- **refused**: the translator stops with an error naming the instruction and its line\n"
          "  (a form can be both: verified in the shapes a case has, refused in others);\n"
          "- **unverified**: translated, but in no passing case yet (these need cases: an\n"
          "  unverified form is one that could be silently wrong);\n"
          "- **not yet seen**: opcodes the parser knows that occur in no case and no corpus file.\n\n"
          "| verified | refused | unverified | opcodes not yet seen |\n|---|---|---|---|\n"
          "| %u | %u | %u | %u |\n\n",
          ncases, ncorpus, nver, nref, nunv, nunseen);
   printf("## By opcode\n\n| opcode | verified | refused | unverified |\n|---|---|---|---|\n");
   for (unsigned k = 0; k < cv->nforms;) {
      ptx_opcode op = cv->forms[k].op;
      unsigned end = k;
      while (end < cv->nforms && cv->forms[end].op == op)
         end++;
      printf("| `%s` |", ptx_opcode_names[op]);
      for (int col = 0; col < 3; col++) {
         bool any = false;
         for (unsigned j = k; j < end; j++) {
            form *f = &cv->forms[j];
            bool in = col == 0 ? f->verified : col == 1 ? f->refused : !f->verified && !f->refused;
            if (!in)
               continue;
            printf("%s`%s`", any ? " " : " ", suffix(f));
            any = true;
         }
         printf(" |");
      }
      printf("\n");
      k = end;
   }
   printf("\n## Refusals\n\n| form | error |\n|---|---|\n");
   for (unsigned k = 0; k < cv->nforms; k++)
      if (cv->forms[k].refused)
         printf("| `%s` | %s |\n", cv->forms[k].key, cv->forms[k].error);
   printf("\n## Not yet seen\n\n");
   bool first = true;
   for (unsigned op = 0; op < PTX_OP_COUNT; op++) {
      if (cv->seen_op[op])
         continue;
      printf("%s`%s`", first ? "" : ", ", ptx_opcode_names[op]);
      first = false;
   }
   printf("\n");
}

int main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: ptx_coverage RESULTS CASE.ptx... -- CORPUS.ptx...\n");
      return 2;
   }
   size_t rlen;
   char *results = file_read(argv[1], &rlen);
   if (!results) {
      fprintf(stderr, "ptx_coverage: cannot read %s\n", argv[1]);
      return 2;
   }
   coverage cv;
   memset(&cv, 0, sizeof(cv));
   bool corpus = false;
   unsigned ncases = 0, ncorpus = 0;
   for (int k = 2; k < argc; k++) {
      if (!strcmp(argv[k], "--")) {
         corpus = true;
         continue;
      }
      cv.file_is_case = !corpus;
      cv.file_passed = !corpus && case_passed(results, argv[k]);
      probe_file(&cv, argv[k]);
      if (corpus)
         ncorpus++;
      else
         ncases++;
   }
   print_table(&cv, ncases, ncorpus);
   for (unsigned k = 0; k < cv.nforms; k++) {
      free(cv.forms[k].key);
      free(cv.forms[k].error);
   }
   free(cv.forms);
   free(results);
   return 0;
}
