/*
 * arena.c — bump allocation released wholesale (QBE's pool, SQLite's
 * lookaside in spirit).  The compiler allocates a module's AST, IR and
 * strings from one arena and frees it once after MSL emission, so no pass
 * ever frees a node.  Allocation failure sets a->failed and returns NULL;
 * callers check the flag once at the end of a phase instead of after every
 * node.
 */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
   arena_chunk *next;
   size_t used, size;
   _Alignas(16) unsigned char data[];
};

void arena_init(arena *a, size_t chunk_size)
{
   a->head = NULL;
   a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
   a->failed = false;
}

void *arena_alloc(arena *a, size_t size)
{
   size = ALIGN_UP(size ? size : 1, 16);
   arena_chunk *c = a->head;
   if (!c || c->size - c->used < size) {
      size_t csize = MC_MAX(a->chunk_size, size);
      c = mc_malloc(sizeof(*c) + csize);
      if (!c) {
         a->failed = true;
         return NULL;
      }
      c->used = 0;
      c->size = csize;
      /* A huge one-off allocation goes behind the current chunk so the
       * current chunk's free space is not abandoned. */
      if (a->head && size > a->chunk_size / 2) {
         c->next = a->head->next;
         a->head->next = c;
      } else {
         c->next = a->head;
         a->head = c;
      }
   }
   void *p = c->data + c->used;
   c->used += size;
   memset(p, 0, size);
   return p;
}

void *arena_memdup(arena *a, const void *p, size_t n)
{
   void *d = arena_alloc(a, n);
   if (d && n)
      memcpy(d, p, n);
   return d;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
   char *d = arena_alloc(a, n + 1);
   if (d) {
      memcpy(d, s, n);
      d[n] = 0;
   }
   return d;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(arena *a, const char *fmt, ...)
{
   va_list ap, ap2;
   va_start(ap, fmt);
   va_copy(ap2, ap);
   int n = vsnprintf(NULL, 0, fmt, ap);
   va_end(ap);
   char *d = n >= 0 ? arena_alloc(a, (size_t)n + 1) : NULL;
   if (d)
      vsnprintf(d, (size_t)n + 1, fmt, ap2);
   va_end(ap2);
   return d;
}

void arena_free_all(arena *a)
{
   arena_chunk *c = a->head;
   while (c) {
      arena_chunk *n = c->next;
      free(c);
      c = n;
   }
   a->head = NULL;
   a->failed = false;
}

bool vec_reserve_(arena *a, void **data, uint32_t *cap, uint32_t need, size_t elem)
{
   if (need <= *cap)
      return true;
   uint32_t ncap = *cap ? *cap * 2 : 8;
   while (ncap < need)
      ncap *= 2;
   void *nd = arena_alloc(a, (size_t)ncap * elem);
   if (!nd)
      return false;
   if (*data)
      memcpy(nd, *data, (size_t)*cap * elem);
   *data = nd;
   *cap = ncap;
   return true;
}
