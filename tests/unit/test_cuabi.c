/*
 * test_cuabi.c — the ABI declarations and export lists of src/api against
 * NVIDIA's.
 *
 * cuabi.h is our own declaration of the CUDA 13 ABI; programs compiled
 * against NVIDIA's headers read the structs we fill and pass the values we
 * decode, so every enumerator, constant, size and offset must be NVIDIA's.
 *
 *   cuabi_list_matches_header  the X-macro list (tests/tools/cuabi_list.h)
 *                              covers every enum and struct body of cuabi.h
 *                              (runs everywhere: it needs no NVIDIA header)
 *   cuabi_values_match_nvidia  tests/tools/cuabi_dump.c, built here against
 *                              cuabi.h and at test time against NVIDIA's
 *                              headers, prints the same lines
 *   cuabi_members_match_nvidia each enum and struct of the list has exactly
 *                              the members of NVIDIA's (nothing missing, as
 *                              a new CUDA release would add, nothing invented)
 *   entries_impl_have_prototypes    every IMPL entry has its prototype in
 *                              protos.h, which exports it
 *   built_libraries_export_every_entry  lib/libcuda.so.1 and
 *                              lib/libcudart.so.13 (when built) export every
 *                              entry, libcudart at version libcudart.so.13
 *   entries_match_nvidia_headers    tools/gen_entries.py --check
 *
 * The NVIDIA tests need the toolkit headers: $CUDA_INCLUDE alone when set,
 * else $CUDA_HOME/include, $CUDA_PATH/include, /usr/local/cuda/include.
 * Without them they report SKIP, never PASS.  $CC (default cc) compiles and
 * preprocesses them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE    /* vasprintf, mkdtemp */
#endif
#include "harness.h"

#include "../tools/cuabi_dump.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- small helpers ---- */

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = NULL;
   if (vasprintf(&s, fmt, ap) < 0)
      s = NULL;
   va_end(ap);
   return s;
}

static char *read_all(FILE *f)
{
   size_t len = 0, cap = 1 << 16;
   char *buf = malloc(cap);
   size_t n;
   while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
      len += n;
      if (cap - len < 2) {
         char *nb = realloc(buf, cap *= 2);
         if (!nb) { free(buf); return NULL; }
         buf = nb;
      }
   }
   if (buf)
      buf[len] = 0;
   return buf;
}

static char *read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *s = read_all(f);
   fclose(f);
   return s;
}

/* Runs a shell command; returns its stdout (NULL on failure) and its exit
 * status through *status; stderr is the caller's (redirect it in `cmd`). */
static char *run_capture(const char *cmd, int *status)
{
   FILE *p = popen(cmd, "r");
   if (!p) {
      *status = -1;
      return NULL;
   }
   char *out = read_all(p);
   *status = pclose(p);
   return out;
}

static bool file_exists(const char *path)
{
   struct stat st;
   return stat(path, &st) == 0;
}

/* ---- NVIDIA's side, prepared once per process ---- */

static struct {
   bool done;
   char *skip;          /* reason to skip, or NULL */
   char *error;         /* setup failed (a real failure), or NULL */
   char *dump;          /* output of cuabi_dump built against NVIDIA */
   char *preprocessed;  /* cuda.h + cudaProfiler.h + cuda_runtime_api.h after cc -E */
} nv;

static char tmpdir[256];

static void cleanup_tmpdir(void)
{
   if (!tmpdir[0])
      return;
   static const char *const names[] = { "cuabi_nv", "nv.c", "compile.log" };
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      char *p = xprintf("%s/%s", tmpdir, names[i]);
      if (p)
         unlink(p);
      free(p);
   }
   rmdir(tmpdir);
}

static const char *find_nvidia_include(void)
{
   static char buf[1024];
   /* $CUDA_INCLUDE, when set, is the only place looked at, so that
    * CUDA_INCLUDE=/nowhere shows the SKIP path on a machine with a toolkit. */
   const char *only = getenv("CUDA_INCLUDE");
   if (only && *only) {
      snprintf(buf, sizeof(buf), "%s", only);
      char *h = xprintf("%s/cuda_runtime_api.h", buf);
      bool ok = h && file_exists(h);
      free(h);
      return ok ? buf : NULL;
   }
   const char *env[] = { "CUDA_HOME", "CUDA_PATH" };
   for (size_t i = 0; i < 2; i++) {
      const char *v = getenv(env[i]);
      if (!v || !*v)
         continue;
      snprintf(buf, sizeof(buf), "%s/include", v);
      char *h = xprintf("%s/cuda_runtime_api.h", buf);
      bool ok = h && file_exists(h);
      free(h);
      if (ok)
         return buf;
   }
   snprintf(buf, sizeof(buf), "/usr/local/cuda/include");
   return file_exists("/usr/local/cuda/include/cuda_runtime_api.h") ? buf : NULL;
}

static void nv_setup(void)
{
   if (nv.done)
      return;
   nv.done = true;
   const char *inc = find_nvidia_include();
   if (!inc) {
      nv.skip = xprintf("NVIDIA's CUDA headers not found ($CUDA_INCLUDE, $CUDA_HOME/include, "
                        "$CUDA_PATH/include, /usr/local/cuda/include): cannot compare cuabi.h");
      return;
   }
   const char *cc = getenv("CC");
   if (!cc || !*cc)
      cc = "cc";
   const char *t = getenv("TMPDIR");
   snprintf(tmpdir, sizeof(tmpdir), "%s/mc_cuabi_XXXXXX", t && *t ? t : "/tmp");
   if (!mkdtemp(tmpdir)) {
      tmpdir[0] = 0;
      nv.error = xprintf("mkdtemp failed");
      return;
   }
   atexit(cleanup_tmpdir);

   int st;
   char *cmd = xprintf("%s -std=c11 -DCUABI_NVIDIA -I'%s' -o '%s/cuabi_nv' '%s/tools/cuabi_dump.c' "
                       ">'%s/compile.log' 2>&1",
                       cc, inc, tmpdir, test_srcdir(), tmpdir);
   free(run_capture(cmd, &st));
   free(cmd);
   if (st != 0) {
      char *log = xprintf("%s/compile.log", tmpdir);
      char *text = log ? read_file(log) : NULL;
      nv.error = xprintf("building cuabi_dump against %s failed (%s, status %d; does cuabi.h "
                         "declare something NVIDIA's headers lack?):\n%s", inc, cc, st,
                         text ? text : "");
      free(text);
      free(log);
      return;
   }
   cmd = xprintf("'%s/cuabi_nv'", tmpdir);
   nv.dump = run_capture(cmd, &st);
   free(cmd);
   if (!nv.dump || st != 0) {
      nv.error = xprintf("running cuabi_dump (NVIDIA build) failed, status %d", st);
      return;
   }

   char *src = xprintf("%s/nv.c", tmpdir);
   FILE *f = src ? fopen(src, "w") : NULL;
   if (f) {
      fputs("#include <cuda.h>\n#include <cudaProfiler.h>\n#include <cuda_runtime_api.h>\n", f);
      fclose(f);
   }
   cmd = xprintf("%s -std=c11 -E -P -I'%s' '%s' 2>/dev/null", cc, inc, src);
   nv.preprocessed = run_capture(cmd, &st);
   free(cmd);
   free(src);
   if (!nv.preprocessed || st != 0)
      nv.error = xprintf("preprocessing NVIDIA's headers failed, status %d", st);
}

/* True if the test must stop (skipped or failed setup). */
static bool nv_unavailable(void)
{
   nv_setup();
   if (nv.skip) {
      test_skip("%s", nv.skip);
      return true;
   }
   if (nv.error) {
      test_fail_(__FILE__, __LINE__, "%s", nv.error);
      return true;
   }
   return false;
}

/* ---- a tokenizer and a parser for enum and struct bodies ----
 *
 * Enough C to list the members of every `enum/struct/union [tag] { ... }
 * [name];` in a header: preprocessor lines and comments are skipped, nested
 * bodies are looked past. */

typedef struct tok { const char *s; int n; } tok;
typedef struct toks { tok *v; int n, cap; } toks;

static bool is_ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static void toks_push(toks *t, const char *s, int n)
{
   if (t->n == t->cap) {
      t->cap = t->cap ? t->cap * 2 : 4096;
      t->v = realloc(t->v, (size_t)t->cap * sizeof(*t->v));
   }
   t->v[t->n].s = s;
   t->v[t->n].n = n;
   t->n++;
}

static void lex(const char *p, toks *out)
{
   bool line_start = true;
   while (*p) {
      if (*p == '\n') { line_start = true; p++; continue; }
      if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') { p++; continue; }
      if (line_start && *p == '#') {                        /* directive: skip the line */
         while (*p && !(*p == '\n' && p[-1] != '\\'))
            p++;
         continue;
      }
      line_start = false;
      if (p[0] == '/' && p[1] == '*') {
         const char *e = strstr(p + 2, "*/");
         p = e ? e + 2 : p + strlen(p);
         continue;
      }
      if (p[0] == '/' && p[1] == '/') {
         while (*p && *p != '\n')
            p++;
         continue;
      }
      const char *s = p;
      if (is_ident_start(*p) || (*p >= '0' && *p <= '9')) {
         while (is_ident_char(*p) || *p == '.')
            p++;
      } else if (*p == '"' || *p == '\'') {
         char q = *p++;
         while (*p && *p != q) {
            if (*p == '\\' && p[1])
               p++;
            p++;
         }
         if (*p)
            p++;
      } else {
         p++;
      }
      toks_push(out, s, (int)(p - s));
   }
}

static bool tok_is(const tok *t, const char *s) { return (int)strlen(s) == t->n && !memcmp(t->s, s, (size_t)t->n); }
static bool tok_ident(const tok *t) { return is_ident_start(t->s[0]); }

typedef struct agg {
   bool is_enum;
   char tag[128], name[128];
   char **members;
   int nmembers;
} agg;

typedef struct aggs { agg *v; int n, cap; } aggs;

static void agg_add_member(agg *a, const tok *t)
{
   a->members = realloc(a->members, (size_t)(a->nmembers + 1) * sizeof(char *));
   a->members[a->nmembers++] = xprintf("%.*s", t->n, t->s);
}

static int match_close(const toks *t, int open)
{
   int depth = 0;
   for (int i = open; i < t->n; i++) {
      if (tok_is(&t->v[i], "{") || tok_is(&t->v[i], "(") || tok_is(&t->v[i], "["))
         depth++;
      else if (tok_is(&t->v[i], "}") || tok_is(&t->v[i], ")") || tok_is(&t->v[i], "]"))
         if (--depth == 0)
            return i;
   }
   return t->n - 1;
}

/* The member a declarator names, within tokens [b, e): the last identifier
 * before an array bound or bit-field width, looking past nested bodies. */
static const tok *declarator_name(const toks *t, int b, int e, bool first)
{
   const tok *name = NULL;
   for (int i = b; i < e; i++) {
      const tok *x = &t->v[i];
      if (tok_is(x, "{") || tok_is(x, "(")) {
         i = match_close(t, i);
         continue;
      }
      if (tok_is(x, "[") || tok_is(x, ":"))
         break;
      if (tok_ident(x) && !tok_is(x, "struct") && !tok_is(x, "union") && !tok_is(x, "enum") &&
          !tok_is(x, "const") && !tok_is(x, "volatile")) {
         name = x;
         if (!first)
            break;
      }
   }
   return name;
}

static void parse_members(const toks *t, int b, int e, agg *a)
{
   int start = b, decl_first = 1;
   for (int i = b; i <= e; i++) {
      const tok *x = i < e ? &t->v[i] : NULL;
      if (x && (tok_is(x, "{") || tok_is(x, "(") || tok_is(x, "["))) {
         i = match_close(t, i);
         continue;
      }
      bool end = !x || tok_is(x, a->is_enum ? "," : ";");
      bool comma = x && !a->is_enum && tok_is(x, ",");
      if (!end && !comma)
         continue;
      if (i > start) {
         if (a->is_enum) {
            if (tok_ident(&t->v[start]))
               agg_add_member(a, &t->v[start]);
         } else {
            const tok *n = declarator_name(t, start, i, decl_first);
            if (n)
               agg_add_member(a, n);
         }
      }
      decl_first = end;
      start = i + 1;
   }
}

static void parse_aggs(const char *text, aggs *out)
{
   toks t = { 0 };
   lex(text, &t);
   for (int i = 0; i < t.n; i++) {
      bool is_enum = tok_is(&t.v[i], "enum");
      if (!is_enum && !tok_is(&t.v[i], "struct") && !tok_is(&t.v[i], "union"))
         continue;
      int j = i + 1;
      const tok *tag = NULL;
      if (j < t.n && tok_ident(&t.v[j]))
         tag = &t.v[j++];
      if (j >= t.n || !tok_is(&t.v[j], "{"))
         continue;
      int close = match_close(&t, j);
      /* A typedef if `typedef` precedes, past qualifiers such as
       * __device_builtin__ that survive preprocessing on some hosts. */
      bool is_typedef = false;
      for (int k = i - 1; k >= 0 && k >= i - 4 && tok_ident(&t.v[k]); k--)
         if (tok_is(&t.v[k], "typedef"))
            is_typedef = true;
      if (out->n == out->cap) {
         out->cap = out->cap ? out->cap * 2 : 256;
         out->v = realloc(out->v, (size_t)out->cap * sizeof(*out->v));
      }
      agg *a = &out->v[out->n++];
      memset(a, 0, sizeof(*a));
      a->is_enum = is_enum;
      if (tag)
         snprintf(a->tag, sizeof(a->tag), "%.*s", tag->n, tag->s);
      if (is_typedef && close + 1 < t.n && tok_ident(&t.v[close + 1]))
         snprintf(a->name, sizeof(a->name), "%.*s", t.v[close + 1].n, t.v[close + 1].s);
      parse_members(&t, j + 1, close, a);
      /* Carry on inside the body: nested tagged structs count too. */
   }
   free(t.v);
}

static const agg *find_agg(const aggs *as, bool is_enum, const char *key, const char *tag)
{
   for (int i = 0; i < as->n; i++) {
      const agg *a = &as->v[i];
      if (a->is_enum != is_enum)
         continue;
      if ((*tag && !strcmp(a->tag, tag)) || !strcmp(a->name, key) || (!*a->name && !strcmp(a->tag, key)))
         return a;
   }
   return NULL;
}

static void free_aggs(aggs *as)
{
   for (int i = 0; i < as->n; i++) {
      for (int j = 0; j < as->v[i].nmembers; j++)
         free(as->v[i].members[j]);
      free(as->v[i].members);
   }
   free(as->v);
}

/* ---- the list, as data ---- */

static const struct item {
   char kind;                 /* E enum, e enumerator, S struct, f field */
   const char *key, *tag, *name;
} list_items[] = {
#define CUABI_CONST(n)
#define CUABI_TYPE(t)
#define CUABI_SAME(a, b)
#define CUABI_ENUM_TYPE(key, tag, t) { 'E', #key, #tag, NULL },
#define CUABI_ENUM(key, n) { 'e', #key, NULL, #n },
#define CUABI_STRUCT_TYPE(key, tag, t) { 'S', #key, #tag, NULL },
#define CUABI_FIELD(key, t, m) { 'f', #key, NULL, #m },
#include "../tools/cuabi_list.h"
#undef CUABI_CONST
#undef CUABI_TYPE
#undef CUABI_SAME
#undef CUABI_ENUM_TYPE
#undef CUABI_ENUM
#undef CUABI_STRUCT_TYPE
#undef CUABI_FIELD
};
#define NITEMS ((int)(sizeof(list_items) / sizeof(list_items[0])))

static bool has_member(const agg *a, const char *m)
{
   for (int i = 0; i < a->nmembers; i++)
      if (!strcmp(a->members[i], m))
         return true;
   return false;
}

/* Compares every enum and struct of the list with the bodies in `text`;
 * prints each difference; returns the number found.  `who` names the side
 * parsed, `lacking` the side that lacks a member only `text` has. */
static int compare_members(const char *text, const char *who, const char *lacking)
{
   aggs as = { 0 };
   parse_aggs(text, &as);
   int diffs = 0;
   for (int i = 0; i < NITEMS; i++) {
      const struct item *it = &list_items[i];
      if (it->kind != 'E' && it->kind != 'S')
         continue;
      bool is_enum = it->kind == 'E';
      const agg *a = find_agg(&as, is_enum, it->key, it->tag);
      if (!a) {
         printf("  %s: no body for %s %s\n", who, is_enum ? "enum" : "struct", it->key);
         diffs++;
         continue;
      }
      int n = 0;
      for (int j = i + 1; j < NITEMS && list_items[j].kind == (is_enum ? 'e' : 'f'); j++, n++) {
         if (!has_member(a, list_items[j].name)) {
            printf("  %s: %s has no member %s (which cuabi_list.h lists)\n", who, it->key,
                   list_items[j].name);
            diffs++;
         }
      }
      for (int m = 0; m < a->nmembers; m++) {
         bool listed = false;
         for (int j = i + 1; j <= i + n; j++)
            if (!strcmp(list_items[j].name, a->members[m]))
               listed = true;
         if (!listed) {
            printf("  %s: %s member %s is missing from %s\n", who, it->key, a->members[m], lacking);
            diffs++;
         }
      }
   }
   free_aggs(&as);
   return diffs;
}

/* ---- tests ---- */

TEST(cuabi_list_matches_header)
{
   char *path = xprintf("%s/../src/api/cuabi.h", test_srcdir());
   char *text = read_file(path);
   CHECK_MSG(text, "cannot read %s", path);
   int diffs = compare_members(text, "cuabi.h", "tests/tools/cuabi_list.h");
   free(text);
   free(path);
   CHECK_MSG(diffs == 0, "%d differences between cuabi.h and tests/tools/cuabi_list.h: "
             "run tools/gen_cuabi_list.py", diffs);
}

typedef struct lines { char **v; int n, cap; } lines;

static void collect_line(const char *line, void *data)
{
   lines *l = data;
   if (l->n == l->cap) {
      l->cap = l->cap ? l->cap * 2 : 1024;
      l->v = realloc(l->v, (size_t)l->cap * sizeof(char *));
   }
   l->v[l->n++] = strdup(line);
}

TEST(cuabi_values_match_nvidia)
{
   if (nv_unavailable())
      return;
   lines ours = { 0 };
   cuabi_dump(collect_line, &ours);
   int diffs = 0, n = 0;
   char *save = NULL;
   for (char *l = strtok_r(nv.dump, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++) {
      const char *o = n < ours.n ? ours.v[n] : "(nothing)";
      if (strcmp(o, l)) {
         if (diffs++ < 40)
            printf("  cuabi.h: %s\n  NVIDIA:  %s\n", o, l);
      }
   }
   if (n != ours.n) {
      printf("  line counts differ: cuabi.h %d, NVIDIA %d\n", ours.n, n);
      diffs++;
   }
   for (int i = 0; i < ours.n; i++)
      free(ours.v[i]);
   free(ours.v);
   CHECK_MSG(diffs == 0, "%d of %d ABI facts differ from NVIDIA's headers (listed above)", diffs, n);
   CHECK_MSG(n > 1000, "only %d ABI facts compared: the list looks truncated", n);
}

TEST(cuabi_members_match_nvidia)
{
   if (nv_unavailable())
      return;
   int diffs = compare_members(nv.preprocessed, "NVIDIA", "cuabi.h");
   CHECK_MSG(diffs == 0, "%d enum/struct members differ from NVIDIA's headers (listed above)", diffs);
}

/* ---- the export lists (src/api/{driver,runtime}/entries.h) ---- */

typedef struct names { char **v; int n, cap; } names;

static void names_add(names *s, const char *p, int len)
{
   if (s->n == s->cap) {
      s->cap = s->cap ? s->cap * 2 : 1024;
      s->v = realloc(s->v, (size_t)s->cap * sizeof(char *));
   }
   s->v[s->n++] = xprintf("%.*s", len, p);
}

static bool names_has(const names *s, const char *n)
{
   for (int i = 0; i < s->n; i++)
      if (!strcmp(s->v[i], n))
         return true;
   return false;
}

static void names_free(names *s)
{
   for (int i = 0; i < s->n; i++)
      free(s->v[i]);
   free(s->v);
}

/* Names of the lines starting with `prefix` (e.g. "IMPL(" or "MC_EXPORT"),
 * the name being the identifier just before the first '(' after it, or
 * right after it for IMPL(/STUB(. */
static bool read_entries(const char *rel, const char *mark, names *out)
{
   char *path = xprintf("%s/../src/api/%s", test_srcdir(), rel);
   char *text = read_file(path);
   free(path);
   if (!text)
      return false;
   size_t ml = strlen(mark);
   for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
      if (strncmp(l, mark, ml))
         continue;
      const char *p = l + ml;
      if (mark[ml - 1] != '(') {                 /* a prototype: name before '(' */
         const char *paren = strchr(p, '(');
         if (!paren)
            continue;
         const char *e = paren;
         while (e > p && is_ident_char(e[-1]))
            e--;
         names_add(out, e, (int)(paren - e));
      } else {
         int n = 0;
         while (is_ident_char(p[n]))
            n++;
         names_add(out, p, n);
      }
   }
   free(text);
   return true;
}

/* protos.h declares, with NVIDIA's signature and default visibility, each
 * IMPL entry.  An entry flipped to IMPL by hand without rerunning
 * tools/gen_entries.py would be defined without a prototype: hidden, so not
 * exported at all. */
TEST(entries_impl_have_prototypes)
{
   static const char *const libs[] = { "driver", "runtime" };
   int diffs = 0;
   for (int i = 0; i < 2; i++) {
      names impl = { 0 }, protos = { 0 };
      char *e = xprintf("%s/entries.h", libs[i]), *p = xprintf("%s/protos.h", libs[i]);
      CHECK_MSG(read_entries(e, "IMPL(", &impl), "cannot read src/api/%s", e);
      CHECK_MSG(read_entries(p, "MC_EXPORT ", &protos), "cannot read src/api/%s", p);
      for (int j = 0; j < impl.n; j++)
         if (!names_has(&protos, impl.v[j])) {
            printf("  %s: IMPL(%s) has no prototype in %s\n", e, impl.v[j], p);
            diffs++;
         }
      for (int j = 0; j < protos.n; j++)
         if (!names_has(&impl, protos.v[j])) {
            printf("  %s: %s is not IMPL in %s\n", p, protos.v[j], e);
            diffs++;
         }
      CHECK_MSG(impl.n > 0, "no IMPL entry read from %s", e);
      names_free(&impl);
      names_free(&protos);
      free(e);
      free(p);
   }
   CHECK_MSG(diffs == 0, "%d differences between entries.h and protos.h: run tools/gen_entries.py", diffs);
}

/* Every entry, implemented or stub, is exported by the built library (at the
 * soname's version for libcudart, as NVIDIA's binaries import them). */
TEST(built_libraries_export_every_entry)
{
   static const struct { const char *lib, *entries, *version; } libs[] = {
#if defined(__APPLE__)   /* Mach-O: no symbol versions (Makefile) */
      { "lib/libcuda.1.dylib", "driver/entries.h", NULL },
      { "lib/libcudart.13.dylib", "runtime/entries.h", NULL },
#else
      { "lib/libcuda.so.1", "driver/entries.h", NULL },
      { "lib/libcudart.so.13", "runtime/entries.h", "libcudart.so.13" },
#endif
   };
   int missing = 0, checked = 0;
   for (int i = 0; i < 2; i++) {
      char *path = xprintf("%s/../%s", test_srcdir(), libs[i].lib);
      if (!file_exists(path)) {
         test_skip("%s is not built (make all)", libs[i].lib);
         free(path);
         return;
      }
      void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
      CHECK_MSG(h, "dlopen %s: %s", path, dlerror());
      names all = { 0 };
      CHECK(read_entries(libs[i].entries, "IMPL(", &all) && read_entries(libs[i].entries, "STUB(", &all));
      for (int j = 0; j < all.n; j++, checked++) {
         void *sym = dlsym(h, all.v[j]);
#ifdef __GLIBC__
         if (sym && libs[i].version)
            sym = dlvsym(h, all.v[j], libs[i].version);
#endif
         Dl_info info;
         if (!sym || !dladdr(sym, &info) || !info.dli_fname || !strstr(info.dli_fname, libs[i].lib + 4)) {
            if (missing++ < 40)
               printf("  %s does not export %s%s%s\n", libs[i].lib, all.v[j],
                      libs[i].version ? "@" : "", libs[i].version ? libs[i].version : "");
         }
      }
      names_free(&all);
      free(path);
   }
   CHECK_MSG(missing == 0, "%d of %d entries are not exported (an IMPL entry not written yet, or "
             "an export list that filters it)", missing, checked);
}

/* libcudart.so.12 and .11.0 export exactly the names of their soname's
 * NVIDIA library (src/api/runtime/exports.12, exports.11.0), each at that
 * soname's version and defined in that library (CUDA 12's forms:
 * src/api/runtime/abi12.c), and nothing of CUDA 13's that NVIDIA's library
 * of that soname lacks. */
TEST(older_sonames_export_their_abi)
{
#if defined(__APPLE__) || !defined(__GLIBC__)
   test_skip("symbol versions are checked on glibc only (Mach-O has none)");
#else
   static const struct { const char *lib, *list, *version, *absent; } libs[] = {
      { "lib/libcudart.so.12", "exports.12", "libcudart.so.12", "cudaLogsCurrent" },
      { "lib/libcudart.so.11.0", "exports.11.0", "libcudart.so.11.0", "cudaGetDeviceProperties_v2" },
   };
   int bad = 0, checked = 0;
   for (int i = 0; i < 2; i++) {
      char *path = xprintf("%s/../%s", test_srcdir(), libs[i].lib);
      char *lpath = xprintf("%s/../src/api/runtime/%s", test_srcdir(), libs[i].list);
      if (!file_exists(path)) {
         test_skip("%s is not built (make all)", libs[i].lib);
         free(path);
         free(lpath);
         return;
      }
      char *text = read_file(lpath);
      CHECK_MSG(text, "cannot read %s", lpath);
      void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
      CHECK_MSG(h, "dlopen %s: %s", path, dlerror());
      for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
         if (line[0] == '#' || !line[0])
            continue;
         checked++;
         void *sym = dlvsym(h, line, libs[i].version);
         Dl_info info;
         if (!sym || !dladdr(sym, &info) || !info.dli_fname || !strstr(info.dli_fname, libs[i].lib + 4)) {
            if (bad++ < 40)
               printf("  %s does not export %s@%s\n", libs[i].lib, line, libs[i].version);
         }
      }
      /* looked up in a child: a failed dlsym leaves glibc's error record
       * in thread-local storage, which LeakSanitizer (use_tls=0) reports */
      pid_t pid = fork();
      if (pid == 0)
         _exit(dlsym(h, libs[i].absent) ? 1 : 0);
      int st = -1;
      CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
      if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
         bad++;
         printf("  %s exports %s, which NVIDIA's library of that soname does not\n", libs[i].lib, libs[i].absent);
      }
      free(text);
      free(path);
      free(lpath);
   }
   CHECK_MSG(checked > 700, "only %d names read from the export lists", checked);
   CHECK_MSG(bad == 0, "%d of %d names wrong", bad, checked);
#endif
}

/* With NVIDIA's headers at hand, the committed entries.h and protos.h are
 * what tools/gen_entries.py makes of them now. */
TEST(entries_match_nvidia_headers)
{
   if (nv_unavailable())
      return;
   int st;
   char *have = run_capture("python3 --version >/dev/null 2>&1 && echo yes", &st);
   bool python = have && !strncmp(have, "yes", 3);
   free(have);
   if (!python) {
      test_skip("python3 not found: cannot run tools/gen_entries.py --check");
      return;
   }
   char *cmd = xprintf("python3 '%s/../tools/gen_entries.py' --check --cuda-include '%s' 2>&1",
                       test_srcdir(), find_nvidia_include());
   char *out = run_capture(cmd, &st);
   free(cmd);
   CHECK_MSG(st == 0, "tools/gen_entries.py --check: %s", out ? out : "(no output)");
   free(out);
}
