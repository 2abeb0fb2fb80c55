/*
 * fibercheck.c — the call graph of a compiled library: which kernels need
 * fibers, decided once when the library is built, and recursion, which
 * Metal does not allow.
 *
 * A kernel needs fibers (fiber.c) when it can reach a barrier or a
 * SIMD-group function; every one of those goes through the shim's single
 * out-of-line function __mc_fiber_sync (shim/metal_stdlib).  The object is
 * compiled with -ffunction-sections -fdata-sections, so each function and
 * each datum has its own section, and a relocation in section A against a
 * symbol defined in section B is an edge A → B of the call graph (calls,
 * and addresses taken: a function pointer stored in a table reaches its
 * target through the table's section).  A kernel needs fibers iff the
 * section of its entry __mc_entry_NAME reaches the section defining
 * __mc_fiber_sync.  This follows inlining, helper functions and templates
 * exactly as the compiler left them, which a scan of the source could not.
 *
 * The answer is written into the object itself: SOFT_KERNEL_FIBERS is set
 * in the flags word of __mc_info_NAME (a constant in its own section), and
 * the object is rewritten before linking, so the cached library carries
 * it.  Conservative on purpose: a path the program never takes still
 * counts, which only costs speed.  Without ELF (Mach-O) the shim marks
 * every kernel instead.
 */
#include "soft.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__ELF__)
#include <elf.h>

static const char sync_name[] = "__mc_fiber_sync";
static const char entry_prefix[] = "__mc_entry_";
static const char info_prefix[] = "__mc_info_";

typedef struct graph {
   const uint8_t *img;
   size_t len;
   const Elf64_Shdr *sh;
   unsigned nsec;
   const Elf64_Sym *syms;
   size_t nsym;
   const char *names;
   size_t names_len;
   uint32_t *edge_from, *edge_to;
   size_t nedges;
   bool *is_sync;          /* per section: defines __mc_fiber_sync */
} graph;

static bool in_range(size_t off, size_t size, size_t len)
{
   return off <= len && size <= len - off;
}

static const char *sym_name(const graph *g, const Elf64_Sym *s)
{
   return s->st_name < g->names_len ? g->names + s->st_name : "";
}

/* The (only) symbol table, and the sections marked as sync targets. */
static bool load_symbols(graph *g)
{
   for (unsigned i = 0; i < g->nsec; i++) {
      const Elf64_Shdr *s = &g->sh[i];
      if (s->sh_type != SHT_SYMTAB || s->sh_link >= g->nsec || !in_range(s->sh_offset, s->sh_size, g->len))
         continue;
      const Elf64_Shdr *str = &g->sh[s->sh_link];
      if (!in_range(str->sh_offset, str->sh_size, g->len))
         continue;
      g->syms = (const void *)(g->img + s->sh_offset);
      g->nsym = s->sh_size / sizeof(Elf64_Sym);
      g->names = (const char *)g->img + str->sh_offset;
      g->names_len = str->sh_size;
   }
   if (!g->syms)
      return false;
   g->is_sync = mc_calloc(g->nsec, sizeof(bool));
   if (!g->is_sync)
      return false;
   for (size_t k = 0; k < g->nsym; k++)
      if (g->syms[k].st_shndx > 0 && g->syms[k].st_shndx < g->nsec && !strcmp(sym_name(g, &g->syms[k]), sync_name))
         g->is_sync[g->syms[k].st_shndx] = true;
   return true;
}

/* Every relocation is an edge from the section it patches to the section
 * defining its symbol (undefined symbols, libm, lead nowhere). */
static bool load_edges(graph *g)
{
   size_t cap = 0;
   for (unsigned i = 0; i < g->nsec; i++)
      if (g->sh[i].sh_type == SHT_RELA)
         cap += g->sh[i].sh_size / sizeof(Elf64_Rela);
   g->edge_from = mc_malloc((cap + 1) * sizeof(uint32_t));
   g->edge_to = mc_malloc((cap + 1) * sizeof(uint32_t));
   if (!g->edge_from || !g->edge_to)
      return false;
   for (unsigned i = 0; i < g->nsec; i++) {
      const Elf64_Shdr *s = &g->sh[i];
      if (s->sh_type != SHT_RELA || s->sh_info >= g->nsec || !in_range(s->sh_offset, s->sh_size, g->len))
         continue;
      const Elf64_Rela *r = (const void *)(g->img + s->sh_offset);
      for (size_t k = 0; k < s->sh_size / sizeof(Elf64_Rela); k++) {
         size_t sym = ELF64_R_SYM(r[k].r_info);
         if (sym >= g->nsym)
            continue;
         unsigned to = g->syms[sym].st_shndx;
         if (to == 0 || to >= g->nsec)
            continue;
         g->edge_from[g->nedges] = s->sh_info;
         g->edge_to[g->nedges++] = to;
      }
   }
   return true;
}

/* reach[sec]: section sec reaches a sync section.  Found backwards from
 * the sync sections over the reversed edges (grouped by target, CSR), so
 * the whole object costs O(sections + relocations). */
static bool find_reaching(const graph *g, bool *reach)
{
   uint32_t *start = mc_calloc(g->nsec + 1, sizeof(uint32_t));
   uint32_t *from = mc_malloc((g->nedges + 1) * sizeof(uint32_t));
   uint32_t *stack = mc_malloc((g->nsec + 1) * sizeof(uint32_t));
   bool ok = start && from && stack;
   if (ok) {
      for (size_t e = 0; e < g->nedges; e++)
         start[g->edge_to[e] + 1]++;
      for (unsigned i = 0; i < g->nsec; i++)
         start[i + 1] += start[i];
      uint32_t *fill = stack;              /* borrowed as the fill cursor */
      memcpy(fill, start, g->nsec * sizeof(uint32_t));
      for (size_t e = 0; e < g->nedges; e++)
         from[fill[g->edge_to[e]]++] = g->edge_from[e];
      size_t sp = 0;
      for (unsigned i = 0; i < g->nsec; i++) {
         reach[i] = g->is_sync[i];
         if (reach[i])
            stack[sp++] = i;
      }
      while (sp) {
         uint32_t sec = stack[--sp];
         for (uint32_t k = start[sec]; k < start[sec + 1]; k++)
            if (!reach[from[k]]) {
               reach[from[k]] = true;
               stack[sp++] = from[k];
            }
      }
   }
   free(start);
   free(from);
   free(stack);
   return ok;
}

/* ---- recursion ---- */

static bool is_code(const graph *g, unsigned sec)
{
   return sec < g->nsec && (g->sh[sec].sh_flags & SHF_EXECINSTR);
}

/* The name a C++ programmer wrote for a mangled function name (the last
 * component of a nested name), into buf; other names as they are. */
static const char *plain_name(const char *m, char *buf, size_t cap)
{
   const char *p = m;
   if (strncmp(p, "_Z", 2)) {
      snprintf(buf, cap, "%s", m);
      return buf;
   }
   p += 2;
   if (*p == 'L')
      p++;
   bool nested = *p == 'N';
   if (nested)
      p++;
   const char *last = NULL;
   size_t last_len = 0;
   while (*p >= '0' && *p <= '9') {
      size_t n = 0;
      while (*p >= '0' && *p <= '9')
         n = n * 10 + (size_t)(*p++ - '0');
      if (n > strlen(p))
         break;
      last = p;
      last_len = n;
      p += n;
      if (!nested)
         break;
   }
   if (!last)
      snprintf(buf, cap, "%s", m);
   else
      snprintf(buf, cap, "%.*s", (int)last_len, last);
   return buf;
}

/* A function (code section) on a cycle of calls, or 0.  Depth-first over
 * the edges between code sections only: a jump table in .rodata points
 * back into its function without that being a call. */
static unsigned find_cycle(const graph *g)
{
   uint32_t *start = mc_calloc(g->nsec + 1, sizeof(uint32_t));
   uint32_t *to = mc_malloc((g->nedges + 1) * sizeof(uint32_t));
   uint32_t *stack = mc_malloc((g->nsec + 1) * sizeof(uint32_t));
   uint32_t *next = mc_malloc((g->nsec + 1) * sizeof(uint32_t));
   uint8_t *colour = mc_calloc(g->nsec + 1, 1);      /* 0 new, 1 on the path, 2 done */
   unsigned found = 0;
   if (start && to && stack && next && colour) {
      for (size_t e = 0; e < g->nedges; e++)
         if (is_code(g, g->edge_from[e]) && is_code(g, g->edge_to[e]))
            start[g->edge_from[e] + 1]++;
      for (unsigned i = 0; i < g->nsec; i++)
         start[i + 1] += start[i];
      memcpy(next, start, g->nsec * sizeof(uint32_t));
      for (size_t e = 0; e < g->nedges; e++)
         if (is_code(g, g->edge_from[e]) && is_code(g, g->edge_to[e]))
            to[next[g->edge_from[e]]++] = g->edge_to[e];
      for (unsigned root = 0; root < g->nsec && !found; root++) {
         if (!is_code(g, root) || colour[root])
            continue;
         size_t sp = 0;
         stack[sp++] = root;
         colour[root] = 1;
         next[root] = start[root];
         while (sp && !found) {
            uint32_t v = stack[sp - 1];
            if (next[v] == start[v + 1]) {
               colour[v] = 2;
               sp--;
               continue;
            }
            uint32_t w = to[next[v]++];
            if (colour[w] == 1) {
               found = w;
            } else if (!colour[w]) {
               colour[w] = 1;
               next[w] = start[w];
               stack[sp++] = w;
            }
         }
      }
   }
   free(start);
   free(to);
   free(stack);
   free(next);
   free(colour);
   return found;
}

/* Metal has no recursion: a function that calls itself, directly or
 * through others, is a compile error (as the Metal compiler reports it,
 * though without a line: the object has none). */
static bool refuse_recursion(const graph *g, char **err)
{
   unsigned sec = find_cycle(g);
   if (!sec)
      return true;
   const char *name = "?";
   for (size_t k = 0; k < g->nsym; k++)
      if (g->syms[k].st_shndx == sec && ELF64_ST_TYPE(g->syms[k].st_info) == STT_FUNC) {
         name = sym_name(g, &g->syms[k]);
         break;
      }
   char buf[256];
   mtl_set_err(err, "program_source: error: function '%s' is recursive (it calls itself, directly or through "
               "other functions); Metal does not support recursion", plain_name(name, buf, sizeof(buf)));
   return false;
}

/* Sets the flag in __mc_info_<name>; false if the symbol is malformed. */
static bool set_flag(graph *g, uint8_t *img, const char *kernel)
{
   for (size_t k = 0; k < g->nsym; k++) {
      const char *n = sym_name(g, &g->syms[k]);
      if (strncmp(n, info_prefix, sizeof(info_prefix) - 1) || strcmp(n + sizeof(info_prefix) - 1, kernel))
         continue;
      const Elf64_Sym *s = &g->syms[k];
      if (s->st_shndx == 0 || s->st_shndx >= g->nsec || s->st_size != sizeof(soft_kernel_info))
         return false;
      const Elf64_Shdr *sec = &g->sh[s->st_shndx];
      size_t off = sec->sh_offset + s->st_value + offsetof(soft_kernel_info, flags);
      if (sec->sh_type != SHT_PROGBITS || s->st_value + sizeof(soft_kernel_info) > sec->sh_size ||
          !in_range(off, sizeof(uint32_t), g->len))
         return false;
      uint32_t flags;
      memcpy(&flags, img + off, sizeof(flags));
      flags |= SOFT_KERNEL_FIBERS;
      memcpy(img + off, &flags, sizeof(flags));
      return true;
   }
   return false;
}

/* Marks the kernels; *changed if any flag was set. */
static bool mark(graph *g, uint8_t *img, bool *changed, char **err)
{
   bool *reach = mc_malloc(g->nsec * sizeof(bool));
   if (!reach || !find_reaching(g, reach)) {
      free(reach);
      mtl_set_err(err, "out of memory analysing the compiled object");
      return false;
   }
   bool ok = true;
   for (size_t k = 0; ok && k < g->nsym; k++) {
      const Elf64_Sym *s = &g->syms[k];
      const char *n = sym_name(g, s);
      if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || strncmp(n, entry_prefix, sizeof(entry_prefix) - 1) ||
          s->st_shndx == 0 || s->st_shndx >= g->nsec || !reach[s->st_shndx])
         continue;
      if (!set_flag(g, img, n + sizeof(entry_prefix) - 1)) {
         mtl_set_err(err, "compiled object: no usable __mc_info_ for kernel '%s'",
                     n + sizeof(entry_prefix) - 1);
         ok = false;
      }
      *changed = true;
   }
   free(reach);
   return ok;
}

bool soft_mark_fiber_kernels(const char *obj_path, char **err)
{
   size_t len;
   uint8_t *img = (uint8_t *)file_read(obj_path, &len);
   if (!img) {
      mtl_set_err(err, "cannot read the compiled object %s", obj_path);
      return false;
   }
   const Elf64_Ehdr *eh = (const void *)img;
   graph g = {.img = img, .len = len};
   bool ok = len >= sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
             eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_shentsize == sizeof(Elf64_Shdr) &&
             in_range(eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr), len);
   if (!ok) {
      mtl_set_err(err, "compiled object is not a 64-bit ELF file");
   } else {
      g.sh = (const void *)(img + eh->e_shoff);
      g.nsec = eh->e_shnum;
      bool changed = false;
      ok = load_symbols(&g) && load_edges(&g);
      if (!ok)
         mtl_set_err(err, "compiled object: cannot read its symbols and relocations");
      else if (!(ok = refuse_recursion(&g, err)))
         ;
      else if ((ok = mark(&g, img, &changed, err)) && changed && !file_write_atomic(obj_path, img, len)) {
         mtl_set_err(err, "cannot rewrite the compiled object %s", obj_path);
         ok = false;
      }
   }
   free(g.is_sync);
   free(g.edge_from);
   free(g.edge_to);
   free(img);
   return ok;
}

#else

bool soft_mark_fiber_kernels(const char *obj_path, char **err)
{
   (void)obj_path;
   (void)err;
   return true;     /* the shim marks every kernel (__MC_KERNEL_FLAGS) */
}

#endif
