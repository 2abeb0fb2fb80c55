/*
 * fibercheck.c — the call graph of a compiled library: which kernels need
 * fibers, decided once when the library is built, and recursion, which
 * Metal does not allow.
 *
 * A kernel needs fibers (fiber.c) when it can reach a barrier or a
 * SIMD-group function; every one of those goes through the shim's single
 * out-of-line function __mc_fiber_sync (shim/metal_stdlib).  objfile.c
 * reads the object (ELF or Mach-O) as a graph of nodes, one per function
 * or datum, whose edges are relocations (calls, and addresses taken: a
 * function pointer stored in a table reaches its target through the
 * table's node).  A kernel needs fibers iff the node of its entry
 * __mc_entry_NAME reaches the node defining __mc_fiber_sync.  This follows
 * inlining, helper functions and templates exactly as the compiler left
 * them, which a scan of the source could not.
 *
 * The answer is written into the object itself: SOFT_KERNEL_FIBERS is set
 * in the flags word of __mc_info_NAME (a constant of its own node), and
 * the object is rewritten before linking, so the cached library carries
 * it.  Conservative on purpose: a path the program never takes still
 * counts, which only costs speed.
 */
#include "soft.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char sync_name[] = "__mc_fiber_sync";
static const char entry_prefix[] = "__mc_entry_";
static const char info_prefix[] = "__mc_info_";

/* reach[node]: the node reaches the node of __mc_fiber_sync.  Found
 * backwards from it over the reversed edges (grouped by target, CSR), so
 * the whole object costs O(nodes + relocations). */
static bool find_reaching(const soft_obj *o, bool *reach)
{
   uint32_t n = o->nnode;
   uint32_t *start = mc_calloc(n + 1, sizeof(uint32_t));
   uint32_t *from = mc_malloc((o->nedge + 1) * sizeof(uint32_t));
   uint32_t *stack = mc_malloc((n + 1) * sizeof(uint32_t));
   bool ok = start && from && stack;
   if (ok) {
      for (size_t e = 0; e < o->nedge; e++)
         start[o->edge_to[e] + 1]++;
      for (uint32_t i = 0; i < n; i++)
         start[i + 1] += start[i];
      uint32_t *fill = stack;              /* borrowed as the fill cursor */
      memcpy(fill, start, n * sizeof(uint32_t));
      for (size_t e = 0; e < o->nedge; e++)
         from[fill[o->edge_to[e]]++] = o->edge_from[e];
      size_t sp = 0;
      memset(reach, 0, n * sizeof(bool));
      for (uint32_t k = 0; k < o->nsym; k++)
         if (o->sym[k].func && o->sym[k].node != SOFT_OBJ_NONE && !strcmp(o->sym[k].name, sync_name) &&
             !reach[o->sym[k].node]) {
            reach[o->sym[k].node] = true;
            stack[sp++] = o->sym[k].node;
         }
      while (sp) {
         uint32_t v = stack[--sp];
         for (uint32_t k = start[v]; k < start[v + 1]; k++)
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

static bool is_code(const soft_obj *o, uint32_t node)
{
   return node < o->nnode && o->sec[o->node[node].sec].code;
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

/* An edge between code nodes: a call (or a function's address taken by
 * code).  A jump table in read-only data points back into its function
 * without that being a call, so data nodes are left out; an edge from a
 * node to itself is a function calling itself. */
static bool call_edge(const soft_obj *o, size_t e)
{
   return is_code(o, o->edge_from[e]) && is_code(o, o->edge_to[e]);
}

/* A function (code node) on a cycle of calls, or SOFT_OBJ_NONE, depth
 * first. */
static uint32_t find_cycle(const soft_obj *o)
{
   uint32_t n = o->nnode;
   uint32_t *start = mc_calloc(n + 1, sizeof(uint32_t));
   uint32_t *to = mc_malloc((o->nedge + 1) * sizeof(uint32_t));
   uint32_t *stack = mc_malloc((n + 1) * sizeof(uint32_t));
   uint32_t *next = mc_malloc((n + 1) * sizeof(uint32_t));
   uint8_t *colour = mc_calloc(n + 1, 1);      /* 0 new, 1 on the path, 2 done */
   uint32_t found = SOFT_OBJ_NONE;
   if (start && to && stack && next && colour) {
      for (size_t e = 0; e < o->nedge; e++)
         if (call_edge(o, e))
            start[o->edge_from[e] + 1]++;
      for (uint32_t i = 0; i < n; i++)
         start[i + 1] += start[i];
      memcpy(next, start, n * sizeof(uint32_t));
      for (size_t e = 0; e < o->nedge; e++)
         if (call_edge(o, e))
            to[next[o->edge_from[e]]++] = o->edge_to[e];
      for (uint32_t root = 0; root < n && found == SOFT_OBJ_NONE; root++) {
         if (!is_code(o, root) || colour[root])
            continue;
         size_t sp = 0;
         stack[sp++] = root;
         colour[root] = 1;
         next[root] = start[root];
         while (sp && found == SOFT_OBJ_NONE) {
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
static bool refuse_recursion(const soft_obj *o, char **err)
{
   uint32_t node = find_cycle(o);
   for (uint32_t k = 0; k < o->nnode && node == SOFT_OBJ_NONE; k++)
      if (soft_obj_self_call(o, k))
         node = k;
   if (node == SOFT_OBJ_NONE)
      return true;
   const char *name = "?";
   for (uint32_t k = 0; k < o->nsym; k++)
      if (o->sym[k].node == node && o->sym[k].func) {
         name = o->sym[k].name;
         break;
      }
   char buf[256];
   mtl_set_err(err, "program_source: error: function '%s' is recursive (it calls itself, directly or through "
               "other functions); Metal does not support recursion", plain_name(name, buf, sizeof(buf)));
   return false;
}

/* Sets the flag in __mc_info_<name>; false if the symbol is malformed
 * (no bytes in the file, or smaller than a soft_kernel_info) or the kernel
 * has no thread function to run as fibers (SOFT_KERNEL_LOOP_ONLY: its MSL
 * said its threads never wait for one another), *loop_only then set. */
static bool set_flag(soft_obj *o, const char *kernel, bool *loop_only)
{
   for (uint32_t k = 0; k < o->nsym; k++) {
      const char *n = o->sym[k].name;
      if (!o->sym[k].data || strncmp(n, info_prefix, sizeof(info_prefix) - 1) ||
          strcmp(n + sizeof(info_prefix) - 1, kernel))
         continue;
      uint8_t *p = soft_obj_bytes(o, &o->sym[k], sizeof(soft_kernel_info));
      if (!p)
         return false;
      uint32_t flags;
      memcpy(&flags, p + offsetof(soft_kernel_info, flags), sizeof(flags));
      if ((*loop_only = (flags & SOFT_KERNEL_LOOP_ONLY) != 0))
         return false;
      flags |= SOFT_KERNEL_FIBERS;
      memcpy(p + offsetof(soft_kernel_info, flags), &flags, sizeof(flags));
      return true;
   }
   return false;
}

/* Marks the kernels; *changed if any flag was set. */
static bool mark(soft_obj *o, bool *changed, char **err)
{
   bool *reach = mc_malloc((o->nnode + 1) * sizeof(bool));
   if (!reach || !find_reaching(o, reach)) {
      free(reach);
      mtl_set_err(err, "out of memory analysing the compiled object");
      return false;
   }
   bool ok = true;
   for (uint32_t k = 0; ok && k < o->nsym; k++) {
      const soft_obj_sym *s = &o->sym[k];
      const char *n = s->name;
      if (!s->func || strncmp(n, entry_prefix, sizeof(entry_prefix) - 1) || s->node == SOFT_OBJ_NONE ||
          !reach[s->node])
         continue;
      bool loop_only = false;
      if (!set_flag(o, n + sizeof(entry_prefix) - 1, &loop_only)) {
         if (loop_only)
            mtl_set_err(err, "kernel '%s' says MC_THREADS_INDEPENDENT but reaches a barrier or SIMD-group "
                        "function (a metalcuda compiler bug)", n + sizeof(entry_prefix) - 1);
         else
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
   soft_obj o;
   bool ok = soft_obj_read(&o, img, len, err);
   if (ok) {
      bool changed = false;
      if (!(ok = refuse_recursion(&o, err)))
         ;
      else if ((ok = mark(&o, &changed, err)) && changed && !file_write_atomic(obj_path, img, len)) {
         mtl_set_err(err, "cannot rewrite the compiled object %s", obj_path);
         ok = false;
      }
      soft_obj_free(&o);
   }
   free(img);
   return ok;
}
