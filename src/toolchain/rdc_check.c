/*
 * rdc_check.c — the device link's check that every device symbol is
 * defined, and defined once: nvlink's "Undefined reference to 'NAME' in
 * 'FILE'" and "Multiple definition of 'NAME' in 'FILE', first defined in
 * 'FILE'".
 *
 * metalcuda links the units' PTX when the module loads
 * (src/compiler/ptx/link.c), so without this a function or variable that
 * no unit defines would surface only at the first launch.  NVIDIA's nvlink
 * refuses the link; so does this, from the same information: the PTX of
 * every unit taking part.
 *
 * Algorithm:
 *   1. each file of the link (object or static library, read whole) is
 *      searched for the units that -dc put there (include/crt/mc_rdc_unit.h:
 *      the 8-byte tag MC_RDC_TAG right before each unit's fatbin, so a
 *      whole-program object's fatbin is not taken for a unit); no object
 *      format is parsed, so ELF, Mach-O and ar archives read alike;
 *   2. each fatbin's PTX entries (fatbin_write.c's layout, uncompressed)
 *      are scanned for top-level declarations: comments and strings are
 *      skipped, a declaration runs to its ';' or to the '{' of a body
 *      (skipped to its matching '}'), or to the end of the line for the
 *      directives that take no ';' (.version, .target, .address_size,
 *      .file); its name is the first identifier
 *      outside parentheses (so `.func (.param .b32 r) name (...)` gives
 *      name), its linkage the .extern/.visible/.weak/.common among its
 *      directives;
 *   3. a name is defined by a .visible/.weak/.common declaration with a
 *      body or a variable that is not .extern, in any unit, or by any such
 *      declaration in the referring unit itself (its own static);
 *   4. every .extern .func/.entry and .extern .global/.const variable
 *      must be defined, except what the runtime provides
 *      (ptx_runtime_kind: vprintf, malloc, ... — the compiler's own
 *      list) and .extern .shared (the dynamic shared array, sized at
 *      launch).  Each one missing is reported with the file that refers
 *      to it.
 *   5. a name that two units define strongly (.visible, not .weak or
 *      .common: inline functions and template instances are .weak) is
 *      nvlink's "Multiple definition of 'NAME' in 'FILE', first defined
 *      in 'FILE'", reported for each unit after the first.
 * Unit counts are compared with the unit symbols nm listed: when fewer
 * tagged units are found (objects made before the tag), the check is
 * skipped and the load-time link reports as before.
 */
#include "toolchain.h"

#include "compiler/ptx/ptx.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1

typedef struct rc_sym {
   char *name;
   int unit;           /* index of the unit (file order) */
   int file;           /* index in files */
   bool def;           /* a definition */
   bool global;        /* .visible/.weak/.common */
   bool strong;        /* .visible, neither .weak nor .common: one unit may define it */
   bool ref;           /* an .extern that must be resolved */
} rc_sym;

typedef struct rc_state {
   rc_sym *v;
   size_t n, cap;
   int units;
} rc_state;

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static bool id_start(char c)
{
   return c == '_' || c == '$' || c == '%' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool id_char(char c) { return id_start(c) || (c >= '0' && c <= '9'); }

static void add(rc_state *s, const char *name, size_t len, int unit, int file, bool def, bool global, bool strong,
                bool ref)
{
   if (s->n == s->cap) {
      s->cap = s->cap ? 2 * s->cap : 64;
      s->v = realloc(s->v, s->cap * sizeof(*s->v));
      if (!s->v) {
         fprintf(stderr, "nvcc: out of memory\n");
         exit(1);
      }
   }
   rc_sym *y = &s->v[s->n++];
   y->name = strndup(name, len);
   if (!y->name) {
      fprintf(stderr, "nvcc: out of memory\n");
      exit(1);
   }
   y->unit = unit;
   y->file = file;
   y->def = def;
   y->global = global;
   y->strong = strong;
   y->ref = ref;
}

/* Step 2 on one PTX text of len bytes (not necessarily NUL-terminated). */
static void scan_ptx(rc_state *s, const char *p, size_t len, int unit, int file)
{
   const char *end = p + len;
   /* the current top-level declaration */
   bool ext = false, glob = false, weak = false, func = false, checked_var = false, shared = false;
   const char *name = NULL;
   size_t nlen = 0;
   int paren = 0;
   bool after_eq = false;
   while (p < end && *p) {
      char c = *p;
      if (c == '/' && p + 1 < end && p[1] == '/') {
         while (p < end && *p && *p != '\n')
            p++;
         continue;
      }
      if (c == '/' && p + 1 < end && p[1] == '*') {   /* a block comment */
         p += 2;
         while (p + 1 < end && *p && !(p[0] == '*' && p[1] == '/'))
            p++;
         p += 2;
         continue;
      }
      if (c == '"') {
         for (p++; p < end && *p && *p != '"'; p++)
            if (*p == '\\' && p + 1 < end)
               p++;
         p++;
         continue;
      }
      if (c == '.' && p + 1 < end && id_start(p[1])) {
         const char *b = ++p;
         while (p < end && id_char(*p))
            p++;
         size_t l = (size_t)(p - b);
#define IS(w) (l == sizeof(w) - 1 && !memcmp(b, w, l))
         if (IS("version") || IS("target") || IS("address_size") || IS("file")) {
            /* module directives without a ';': to the end of the line */
            while (p < end && *p && *p != '\n')
               p++;
            ext = glob = weak = func = checked_var = shared = after_eq = false;
            name = NULL;
            paren = 0;
         } else if (IS("extern"))
            ext = true;
         else if (IS("visible"))
            glob = true;
         else if (IS("weak") || IS("common"))
            glob = weak = true;
         else if (IS("func") || IS("entry"))
            func = true;
         else if (IS("global") || IS("const"))
            checked_var = true;
         else if (IS("shared"))
            shared = true;
#undef IS
         continue;
      }
      if (id_start(c)) {
         const char *b = p;
         while (p < end && id_char(*p))
            p++;
         if (!name && paren == 0 && !after_eq) {
            name = b;
            nlen = (size_t)(p - b);
         }
         continue;
      }
      if (c >= '0' && c <= '9') {   /* numbers, 0f3F800000 included */
         while (p < end && id_char(*p))
            p++;
         continue;
      }
      if (c == '(')
         paren++;
      else if (c == ')')
         paren--;
      else if (c == '=')
         after_eq = true;
      if (c == ';' || c == '{') {
         bool body = c == '{';
         if (body && paren == 0 && !after_eq) {   /* a function's body: skip it */
            int depth = 0;
            for (; p < end && *p; p++) {
               if (*p == '/' && p + 1 < end && p[1] == '/') {
                  while (p < end && *p && *p != '\n')
                     p++;
                  if (p >= end || !*p)
                     break;
               } else if (*p == '"') {
                  for (p++; p < end && *p && *p != '"'; p++)
                     if (*p == '\\' && p + 1 < end)
                        p++;
               } else if (*p == '{')
                  depth++;
               else if (*p == '}' && --depth == 0)
                  break;
            }
         } else if (c == '{') {
            /* an initializer's brace: the declaration goes on to its ';' */
            p++;
            continue;
         }
         if (name && (func || checked_var || shared)) {
            bool def = !ext && (!func || body);
            bool ref = ext && (func || (checked_var && !shared));
            add(s, name, nlen, unit, file, def, glob, glob && !weak, ref);
         }
         ext = glob = weak = func = checked_var = shared = after_eq = false;
         name = NULL;
         paren = 0;
      }
      if (p < end)
         p++;
   }
}

/* Step 1 and 2 on one file's bytes. */
static void scan_file(rc_state *s, const uint8_t *d, size_t n, int file)
{
   const size_t tag = sizeof(MC_RDC_TAG) - 1;
   for (size_t i = 0; i + tag + 16 <= n; i++) {
      const uint8_t *t = memchr(d + i, MC_RDC_TAG[0], n - i - tag - 16 + 1);
      if (!t)
         break;
      i = (size_t)(t - d);
      if (memcmp(t, MC_RDC_TAG, tag) != 0)
         continue;
      const uint8_t *f = t + tag;
      if (get32(f) != FATBIN_MAGIC)
         continue;
      uint64_t hs = (uint16_t)(f[6] | f[7] << 8), total = get64(f + 8);
      size_t avail = n - (size_t)(f - d);
      if (hs < 16 || hs > avail || total > avail - hs)
         continue;
      const uint8_t *e = f + hs, *stop = f + hs + total;
      while (e + 64 <= stop) {
         uint32_t kind = (uint16_t)(e[0] | e[1] << 8), eh = get32(e + 4);
         uint64_t size = get64(e + 8);
         if (eh < 64 || eh > (size_t)(stop - e) || size > (size_t)(stop - e) - eh)
            break;
         if (kind == KIND_PTX && get32(e + 16) == 0)   /* uncompressed PTX */
            scan_ptx(s, (const char *)e + eh, size, s->units, file);
         e += eh + size;
      }
      s->units++;
      i += tag + 15;
   }
}

/* nvlink's "Multiple definition": every unit after the first that defines
 * a name strongly, once per unit (a unit holds PTX for each architecture). */
static int multiple_definitions(const rc_state *s, const char *const *files)
{
   int n = 0;
   for (size_t i = 0; i < s->n; i++) {
      const rc_sym *y = &s->v[i];
      if (!y->def || !y->strong)
         continue;
      const rc_sym *first = NULL;
      bool seen_in_unit = false;
      for (size_t k = 0; k < i; k++) {
         const rc_sym *x = &s->v[k];
         if (!x->def || !x->strong || strcmp(x->name, y->name))
            continue;
         if (x->unit == y->unit)
            seen_in_unit = true;
         else if (!first)
            first = x;
      }
      if (first && !seen_in_unit) {
         fprintf(stderr, "nvlink error   : Multiple definition of '%s' in '%s', first defined in '%s'\n", y->name,
                 files[y->file], files[first->file]);
         n++;
      }
   }
   return n;
}

static bool defined(const rc_state *s, const rc_sym *r)
{
   for (size_t i = 0; i < s->n; i++) {
      const rc_sym *y = &s->v[i];
      if (y->def && (y->global || y->unit == r->unit) && !strcmp(y->name, r->name))
         return true;
   }
   return false;
}

int tc_rdc_check(const char *const *files, int nfiles, int nunits, bool verbose)
{
   rc_state s = { 0 };
   for (int i = 0; i < nfiles; i++) {
      size_t n = 0;
      uint8_t *d = (uint8_t *)file_read(files[i], &n);
      if (!d) {
         fprintf(stderr, "nvcc: cannot read %s for the device link\n", files[i]);
         return 1;
      }
      scan_file(&s, d, n, i);
      free(d);
   }
   int missing = 0;
   if (s.units < nunits) {
      if (verbose)
         fprintf(stderr, "nvcc: %d of %d device units carry no tag (made by an older metalcuda nvcc): "
                         "undefined device symbols are left to the load\n", nunits - s.units, nunits);
   } else {
      for (size_t i = 0; i < s.n; i++) {
         const rc_sym *r = &s.v[i];
         if (!r->ref || ptx_runtime_kind(r->name) != PTX_RT_NONE || defined(&s, r))
            continue;
         bool dup = false;   /* once per name and file (several architectures) */
         for (size_t k = 0; k < i && !dup; k++)
            dup = s.v[k].ref && s.v[k].file == r->file && !strcmp(s.v[k].name, r->name);
         if (!dup) {
            fprintf(stderr, "nvlink error   : Undefined reference to '%s' in '%s'\n", r->name, files[r->file]);
            missing++;
         }
      }
   }
   if (s.units >= nunits && multiple_definitions(&s, files)) {
      fprintf(stderr, "nvlink fatal   : merge_elf failed\n");   /* nvlink's last word on it */
      missing++;
   }
   for (size_t i = 0; i < s.n; i++)
      free(s.v[i].name);
   free(s.v);
   return missing ? 1 : 0;
}
