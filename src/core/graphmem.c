/*
 * graphmem.c — graph memory: the addresses allocation nodes reserve, their
 * lifetime, and the device's graph-memory attributes.
 *
 * CUDA (programming guide, "Graph Memory Nodes"; cuGraphAddMemAllocNode)
 * fixes an allocation node's address when the node is added and keeps it
 * across instantiations and launches; the memory is usable from the
 * node's execution until a free node, cuMemFreeAsync/cuMemFree, or the
 * next launch of an executable graph instantiated with auto-free frees
 * it.  Here the address is an arena allocation (CORE_MEM_FLAG_GRAPH) made
 * when the node is added, so every launch finds its memory at the same
 * place and kernels reach it like any device memory; "allocated" and
 * "freed" are the live flag a launch or a free sets (graph.c runs the
 * nodes in stream order, and a free through the API waits for its stream
 * first).  The reservation is shared by the node and its clones in
 * executable graphs (refs) and goes back to the arena once no node names
 * it and it is not live, so memory a launch left allocated outlives the
 * graph until the program frees it, as CUDA documents.
 *
 * The attributes: all reserved memory is backed (the arena has no
 * separate physical pages to map), so the used and reserved amounts are
 * the same, the bytes of every reservation that exists; trimming has
 * nothing to release (every reservation is still named by a node or
 * live).  One lock guards every reservation's state.
 *
 * The nodes' side (what graph.c's node_store does for these two kinds)
 * is here too: an allocation node copies the API's pool properties and
 * access descriptors and reserves its address; a free node finds the
 * reservation its address starts and applies cuGraphAddMemFreeNode's
 * rules (an address an allocation node returned, freed once per graph,
 * never both in its own graph and in another).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(graph);

#define MAX_GM_DEVICES 64

static pthread_mutex_t gm_lock = PTHREAD_MUTEX_INITIALIZER;
static core_graph_mem **gms;   /* every reservation (gm_lock) */
static size_t ngms, cap_gms;
static uint64_t gm_high[MAX_GM_DEVICES];   /* high mark of the reserved bytes per device */

static uint64_t reserved_bytes(core_device *d)
{
   uint64_t n = 0;
   for (size_t i = 0; i < ngms; i++)
      if (gms[i]->dev == d)
         n += gms[i]->size;
   return n;
}

int core_graph_mem_reserve(core_device *d, uint64_t size, core_graph *owner, core_graph_mem **out)
{
   core_graph_mem *m = mc_calloc(1, sizeof(*m));
   if (!m)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = core_mem_alloc_kind(d, size, CORE_MEM_DEVICE, CORE_MEM_FLAG_GRAPH, &m->ptr);
   if (r != CORE_SUCCESS) {
      free(m);
      return r;
   }
   m->dev = d;
   m->size = size;
   m->owner = owner;
   m->refs = 1;
   pthread_mutex_lock(&gm_lock);
   if (ngms == cap_gms) {
      size_t nc = cap_gms ? cap_gms * 2 : 8;
      core_graph_mem **v = mc_realloc(gms, nc * sizeof(*v));
      if (!v) {
         pthread_mutex_unlock(&gm_lock);
         core_mem_free(d, m->ptr);
         free(m);
         return CORE_ERROR_OUT_OF_MEMORY;
      }
      gms = v;
      cap_gms = nc;
   }
   gms[ngms++] = m;
   int k = core_device_ordinal(d);
   uint64_t now = reserved_bytes(d);
   if (k >= 0 && k < MAX_GM_DEVICES && now > gm_high[k])
      gm_high[k] = now;
   pthread_mutex_unlock(&gm_lock);
   *out = m;
   return CORE_SUCCESS;
}

core_graph_mem *core_graph_mem_get(core_device *d, uint64_t ptr)
{
   core_graph_mem *m = NULL;
   pthread_mutex_lock(&gm_lock);
   for (size_t i = 0; i < ngms && !m; i++)
      if ((!d || gms[i]->dev == d) && gms[i]->ptr == ptr)
         m = gms[i];
   if (m)
      m->refs++;
   pthread_mutex_unlock(&gm_lock);
   return m;
}

void core_graph_mem_ref(core_graph_mem *m)
{
   pthread_mutex_lock(&gm_lock);
   m->refs++;
   pthread_mutex_unlock(&gm_lock);
}

/* Returns m to the arena if nothing keeps it (gm_lock held); true if it did. */
static bool release_if_unused(core_graph_mem *m)
{
   if (m->refs || m->live)
      return false;
   for (size_t i = 0; i < ngms; i++)
      if (gms[i] == m) {
         gms[i] = gms[--ngms];
         break;
      }
   if (core_mem_free(m->dev, m->ptr) != CORE_SUCCESS)
      LOG_WARN("graph memory %#llx was not an allocation any more", (unsigned long long)m->ptr);
   free(m);
   return true;
}

void core_graph_mem_unref(core_graph_mem *m)
{
   pthread_mutex_lock(&gm_lock);
   m->refs--;
   release_if_unused(m);
   pthread_mutex_unlock(&gm_lock);
}

void core_graph_mem_set_live(core_graph_mem *m, bool live)
{
   pthread_mutex_lock(&gm_lock);
   m->live = live;   /* a node holds a reference: nothing to release here */
   pthread_mutex_unlock(&gm_lock);
}

bool core_graph_mem_is_live(core_graph_mem *m)
{
   pthread_mutex_lock(&gm_lock);
   bool live = m->live;
   pthread_mutex_unlock(&gm_lock);
   return live;
}

int core_graph_mem_count_free(core_graph_mem *m, const core_graph *g, uint8_t *kind)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&gm_lock);
   /* freed in its own graph or in others, never both (cuGraphAddMemFreeNode) */
   if (m->owner == g) {
      if (m->frees_other)
         r = CORE_ERROR_INVALID_VALUE;
      else
         m->frees_owner++, *kind = 1;
   } else if (m->frees_owner) {
      r = CORE_ERROR_INVALID_VALUE;
   } else {
      m->frees_other++, *kind = 2;
   }
   pthread_mutex_unlock(&gm_lock);
   return r;
}

void core_graph_mem_uncount_free(core_graph_mem *m, uint8_t kind)
{
   pthread_mutex_lock(&gm_lock);
   if (kind == 1)
      m->frees_owner--;
   else
      m->frees_other--;
   pthread_mutex_unlock(&gm_lock);
}

void core_graph_mem_disown(core_graph_mem *m, const core_graph *g)
{
   pthread_mutex_lock(&gm_lock);
   if (m->owner == g)
      m->owner = NULL;
   pthread_mutex_unlock(&gm_lock);
}

int core_graph_mem_free(core_device *d, uint64_t ptr)
{
   int r = CORE_ERROR_INVALID_VALUE;
   pthread_mutex_lock(&gm_lock);
   for (size_t i = 0; i < ngms; i++) {
      core_graph_mem *m = gms[i];
      if (m->dev == d && m->ptr == ptr) {
         if (m->live) {
            m->live = false;
            release_if_unused(m);
            r = CORE_SUCCESS;
         }
         break;
      }
   }
   pthread_mutex_unlock(&gm_lock);
   return r;
}

int core_graph_mem_attr_get(core_device *d, int attr, uint64_t *value)
{
   int k = core_device_ordinal(d);
   if (attr < 0 || attr > 3 || k < 0 || k >= MAX_GM_DEVICES)
      return CORE_ERROR_INVALID_VALUE;
   pthread_mutex_lock(&gm_lock);
   /* 0, 2: used and reserved now; 1, 3: their high marks (the same here) */
   *value = attr & 1 ? gm_high[k] : reserved_bytes(d);
   pthread_mutex_unlock(&gm_lock);
   return CORE_SUCCESS;
}

int core_graph_mem_attr_set(core_device *d, int attr, uint64_t value)
{
   int k = core_device_ordinal(d);
   if ((attr != 1 && attr != 3) || value != 0 || k < 0 || k >= MAX_GM_DEVICES)
      return CORE_ERROR_INVALID_VALUE;   /* only the high marks, reset to 0 (CUDA) */
   pthread_mutex_lock(&gm_lock);
   gm_high[k] = reserved_bytes(d);
   pthread_mutex_unlock(&gm_lock);
   return CORE_SUCCESS;
}

/* ---- the nodes' parameters (graph.c's node_store) ---- */

/* An allocation node's parameters: the pool properties and access
 * descriptors copied into the node, the address reserved (a clone shares
 * its original's). */
int core_graph_mem_store_alloc(core_graph_node *n, core_node_params *q)
{
   if (n->p.alloc.mem)
      return CORE_ERROR_INVALID_VALUE;   /* no API changes an allocation node */
   size_t ps = q->alloc.props ? q->alloc.props_size : 0, as = q->alloc.access ? q->alloc.access_size : 0;
   uint8_t *blob = mc_malloc(ps + as ? ps + as : 1);
   if (!blob)
      return CORE_ERROR_OUT_OF_MEMORY;
   core_graph_mem *m = q->alloc.mem;
   if (m) {
      core_graph_mem_ref(m);
   } else {
      int r = core_graph_mem_reserve(q->alloc.dev, q->alloc.size, n->graph, &m);
      if (r != CORE_SUCCESS) {
         free(blob);
         return r;
      }
   }
   if (ps)
      memcpy(blob, q->alloc.props, ps);
   if (as)
      memcpy(blob + ps, q->alloc.access, as);
   free(n->blob);
   n->blob = blob;
   q->alloc.props = ps ? blob : NULL;
   q->alloc.props_size = ps;
   q->alloc.access = as ? blob + ps : NULL;
   q->alloc.access_size = as;
   if (!as)
      q->alloc.naccess = 0;
   q->alloc.mem = m;
   q->alloc.dptr = m->ptr;
   q->alloc.size = m->size;
   return CORE_SUCCESS;
}

/* A free node's parameters: the graph allocation it frees, checked as
 * cuGraphAddMemFreeNode does (a clone shares its original's). */
int core_graph_mem_store_free(core_graph_node *n, core_node_params *q)
{
   if (n->p.mfree.mem)
      return CORE_ERROR_INVALID_VALUE;   /* no API changes a free node */
   core_graph_mem *m = q->mfree.mem;
   if (m) {
      core_graph_mem_ref(m);
      return CORE_SUCCESS;
   }
   /* an address no allocation node returned, or an invalid one */
   if (!(m = core_graph_mem_get(NULL, q->mfree.dptr)))
      return CORE_ERROR_INVALID_VALUE;
   const core_graph *g = n->graph;
   int r = CORE_SUCCESS;
   for (uint32_t i = 0; i < g->nnodes && r == CORE_SUCCESS; i++)
      if (g->nodes[i] != n && g->nodes[i]->p.type == CORE_NODE_MEM_FREE && g->nodes[i]->p.mfree.mem == m)
         r = CORE_ERROR_INVALID_VALUE;   /* freed twice in one graph */
   if (r == CORE_SUCCESS)
      r = core_graph_mem_count_free(m, g, &n->counted);
   if (r != CORE_SUCCESS) {
      core_graph_mem_unref(m);
      return r;
   }
   q->mfree.mem = m;
   return CORE_SUCCESS;
}
