/*
 * ptx_fix.c — a repair of the PTX clang 19 writes with -fgpu-rdc.
 *
 * With relocatable device code, clang gives a static __device__ variable
 * (or a static kernel) that host code uses a name of its own unit,
 * NAME__static__<id> (NAME__intern__<id>), so that the runtime can find it
 * among all units.  Clang decides this when it sees the host's use; device
 * code it emitted before refers to the variable by its first name, which
 * the module then only declares: `.extern .global .u32 NAME;` beside
 * `.visible .global .u32 NAME__static__<id> = 5;`, and the kernel reads a
 * variable no unit defines (clang 19.1: a kernel that reads a static
 * variable, then host code that copies to it with cudaMemcpyToSymbol).
 * Every reference of such a NAME is renamed to its definition, and the
 * declaration dropped.  PTX that has no such pair is left as it is.
 *
 * The text is scanned, not parsed: top-level lines (column 0) for the
 * declarations, identifier tokens outside comments and strings for the
 * references (PTX identifiers: [A-Za-z_$%][A-Za-z0-9_$]*, never after a
 * '.', which starts a directive or a type).
 */
#include "toolchain.h"

#include <stdlib.h>
#include <string.h>

typedef struct fix_pair {
   char *from, *to;
} fix_pair;

static bool id_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static bool id_char(char c)
{
   return id_start(c) || (c >= '0' && c <= '9');
}

/* The first identifier of the line [p, end) that is no directive: the
 * symbol a declaration names (state space, .align, type come first as
 * directives and numbers). */
static bool decl_name(const char *p, const char *end, const char **name, size_t *len)
{
   for (const char *q = p; q < end; q++) {
      if (*q == '(' || *q == '=' || *q == ';' || *q == '{')
         break;
      if (id_start(*q) && (q == p || (!id_char(q[-1]) && q[-1] != '.'))) {
         const char *e = q;
         while (e < end && id_char(*e))
            e++;
         *name = q;
         *len = (size_t)(e - q);
         return true;
      }
   }
   return false;
}

/* NAME__static__HEX or NAME__intern__HEX: the length of NAME, else 0. */
static size_t externalized(const char *s, size_t len)
{
   static const char *const tags[2] = { "__static__", "__intern__" };
   for (int t = 0; t < 2; t++) {
      size_t tl = strlen(tags[t]);
      for (size_t i = 1; i + tl < len; i++) {
         if (memcmp(s + i, tags[t], tl) != 0)
            continue;
         size_t h = i + tl;
         while (h < len && ((s[h] >= '0' && s[h] <= '9') || (s[h] >= 'a' && s[h] <= 'f')))
            h++;
         if (h == len)
            return i;
      }
   }
   return 0;
}

static char *dupn(const char *s, size_t n)
{
   char *d = malloc(n + 1);
   if (d) {
      memcpy(d, s, n);
      d[n] = 0;
   }
   return d;
}

typedef struct obuf {
   char *p;
   size_t n, cap;
   bool ok;
} obuf;

static void put(obuf *b, const char *s, size_t n)
{
   if (!b->ok)
      return;
   if (b->n + n > b->cap) {
      size_t cap = 2 * (b->n + n) + 256;
      char *p = realloc(b->p, cap);
      if (!p) {
         b->ok = false;
         return;
      }
      b->p = p;
      b->cap = cap;
   }
   memcpy(b->p + b->n, s, n);
   b->n += n;
}

char *tc_ptx_fix_rdc(const char *ptx)
{
   fix_pair *pairs = NULL;
   size_t npairs = 0;
   char *out = NULL;
   /* the definitions with an externalized name, whose first name the
    * module declares .extern */
   for (const char *line = ptx; *line;) {
      const char *end = strchr(line, '\n');
      if (!end)
         end = line + strlen(line);
      const char *name;
      size_t len, base;
      if (!strncmp(line, ".visible", 8) && decl_name(line, end, &name, &len) && (base = externalized(name, len))) {
         /* is there an ".extern ... NAME" line? */
         bool declared = false;
         for (const char *l2 = ptx; *l2 && !declared;) {
            const char *e2 = strchr(l2, '\n');
            if (!e2)
               e2 = l2 + strlen(l2);
            const char *n2;
            size_t len2;
            declared = !strncmp(l2, ".extern", 7) && decl_name(l2, e2, &n2, &len2) && len2 == base &&
                       !memcmp(n2, name, base);
            l2 = *e2 ? e2 + 1 : e2;
         }
         if (declared) {
            fix_pair *np = realloc(pairs, sizeof(*pairs) * (npairs + 1));
            if (!np)
               goto done;
            pairs = np;
            pairs[npairs].from = dupn(name, base);
            pairs[npairs].to = dupn(name, len);
            if (!pairs[npairs].from || !pairs[npairs].to) {
               free(pairs[npairs].from);
               free(pairs[npairs].to);
               goto done;
            }
            npairs++;
         }
      }
      line = *end ? end + 1 : end;
   }
   if (!npairs)
      goto done;
   /* the text again: the declarations left out, the references renamed */
   obuf b = { .ok = true };
   for (const char *line = ptx; b.ok && *line;) {
      const char *end = strchr(line, '\n');
      end = end ? end + 1 : line + strlen(line);
      const char *name;
      size_t len;
      bool drop = false;
      if (!strncmp(line, ".extern", 7) && decl_name(line, end, &name, &len))
         for (size_t i = 0; i < npairs && !drop; i++)
            drop = strlen(pairs[i].from) == len && !memcmp(pairs[i].from, name, len);
      for (const char *p = line; !drop && p < end;) {
         const char *e = p + 1;
         const char *to = NULL;
         if (p[0] == '/' && p[1] == '/') {   /* a comment to the end of the line */
            e = end;
         } else if (*p == '"') {            /* a string (.file names) */
            while (e < end && *e != '"')
               e++;
            e = e < end ? e + 1 : end;
         } else if (id_start(*p) && (p == line || (!id_char(p[-1]) && p[-1] != '.'))) {
            while (e < end && id_char(*e))
               e++;
            for (size_t i = 0; i < npairs && !to; i++)
               if (strlen(pairs[i].from) == (size_t)(e - p) && !memcmp(pairs[i].from, p, (size_t)(e - p)))
                  to = pairs[i].to;
         }
         if (to)
            put(&b, to, strlen(to));
         else
            put(&b, p, (size_t)(e - p));
         p = e;
      }
      line = end;
   }
   put(&b, "", 1);
   out = b.ok ? b.p : NULL;
   if (!b.ok)
      free(b.p);
done:
   for (size_t i = 0; i < npairs; i++) {
      free(pairs[i].from);
      free(pairs[i].to);
   }
   free(pairs);
   return out;
}
