/*
 * userobj.c — graph user objects and kernel nodes' launch attributes.
 *
 * A user object (cuUserObjectCreate) is a reference count and a
 * destructor; the program holds references, and so do graphs
 * (cuGraphRetainUserObject), each graph a count per object.  Every copy of
 * a graph core makes (core_graph_copy: cuGraphClone, an executable graph,
 * a child graph node's graph) takes the same references and drops them
 * when it is destroyed, so an object lives while any graph that was given
 * it, or is made from one, exists.  An executable graph is destroyed only
 * after its launches complete (core_graph_exec_destroy), which is CUDA's
 * rule that a destructor never runs while work that uses the object is in
 * flight.  The destructor runs on the thread that drops the last
 * reference (CUDA allows any thread; CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is
 * the only flag it defines).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

struct core_user_object {
   uint32_t magic;
   uint32_t refs;               /* atomic */
   void (*destroy)(void *);
   void *ptr;
};

int core_user_object_create(void *ptr, void (*destroy)(void *), uint32_t refs, core_user_object **out)
{
   core_user_object *o = mc_calloc(1, sizeof(*o));
   if (!o)
      return CORE_ERROR_OUT_OF_MEMORY;
   o->magic = CORE_MAGIC_USER_OBJECT;
   o->refs = refs;
   o->destroy = destroy;
   o->ptr = ptr;
   *out = o;
   return CORE_SUCCESS;
}

bool core_check_user_object(const core_user_object *o)
{
   return o && __atomic_load_n(&o->magic, __ATOMIC_ACQUIRE) == CORE_MAGIC_USER_OBJECT;
}

void core_user_object_retain(core_user_object *o, uint32_t n)
{
   __atomic_add_fetch(&o->refs, n, __ATOMIC_RELAXED);
}

void core_user_object_release(core_user_object *o, uint32_t n)
{
   if (__atomic_sub_fetch(&o->refs, n, __ATOMIC_ACQ_REL) != 0)
      return;
   __atomic_store_n(&o->magic, CORE_MAGIC_DEAD, __ATOMIC_RELEASE);
   o->destroy(o->ptr);
   free(o);
}

static core_user_ref *find_ref(core_graph *g, const core_user_object *o)
{
   for (uint32_t i = 0; i < g->nurefs; i++)
      if (g->urefs[i].o == o)
         return &g->urefs[i];
   return NULL;
}

int core_graph_retain_user_object(core_graph *g, core_user_object *o, uint32_t n, bool move)
{
   core_user_ref *r = find_ref(g, o);
   if (!r) {
      if (g->nurefs == g->cap_urefs) {
         uint32_t cap = g->cap_urefs ? 2 * g->cap_urefs : 4;
         core_user_ref *v = mc_realloc(g->urefs, cap * sizeof(*v));
         if (!v)
            return CORE_ERROR_OUT_OF_MEMORY;
         g->urefs = v;
         g->cap_urefs = cap;
      }
      r = &g->urefs[g->nurefs++];
      *r = (core_user_ref){ o, 0 };
   }
   r->n += n;
   if (!move)
      core_user_object_retain(o, n);
   return CORE_SUCCESS;
}

int core_graph_release_user_object(core_graph *g, core_user_object *o, uint32_t n)
{
   core_user_ref *r = find_ref(g, o);
   if (!r || r->n < n)
      return CORE_ERROR_INVALID_VALUE;
   r->n -= n;
   if (r->n == 0)
      *r = g->urefs[--g->nurefs];
   core_user_object_release(o, n);
   return CORE_SUCCESS;
}

int core_graph_copy_user_refs(const core_graph *from, core_graph *to)
{
   for (uint32_t i = 0; i < from->nurefs; i++) {
      int r = core_graph_retain_user_object(to, from->urefs[i].o, from->urefs[i].n, false);
      if (r != CORE_SUCCESS)
         return r;
   }
   return CORE_SUCCESS;
}

void core_graph_drop_user_refs(core_graph *g)
{
   core_user_ref *v = g->urefs;
   uint32_t n = g->nurefs;
   g->urefs = NULL;
   g->nurefs = g->cap_urefs = 0;
   for (uint32_t i = 0; i < n; i++)
      core_user_object_release(v[i].o, v[i].n);
   free(v);
}

/* ---- kernel nodes' launch attributes ---- */

int core_node_set_attr(core_graph_node *n, int id, const void *value, size_t len)
{
   if (id == 0 || len > CORE_NODE_ATTR_BYTES)
      return CORE_ERROR_INVALID_VALUE;
   core_node_attr *free_slot = NULL;
   for (unsigned k = 0; k < CORE_NODE_ATTRS; k++) {
      if (n->attrs[k].id == id) {
         free_slot = &n->attrs[k];
         break;
      }
      if (!free_slot && n->attrs[k].id == 0)
         free_slot = &n->attrs[k];
   }
   if (!free_slot)
      return CORE_ERROR_OUT_OF_MEMORY;
   free_slot->id = id;
   memset(free_slot->value, 0, sizeof(free_slot->value));
   memcpy(free_slot->value, value, len);
   return CORE_SUCCESS;
}

bool core_node_get_attr(const core_graph_node *n, int id, void *value, size_t len)
{
   for (unsigned k = 0; k < CORE_NODE_ATTRS; k++)
      if (n->attrs[k].id == id && len <= CORE_NODE_ATTR_BYTES) {
         memcpy(value, n->attrs[k].value, len);
         return true;
      }
   return false;
}
