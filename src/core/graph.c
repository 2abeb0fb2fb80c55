/*
 * graph.c — CUDA graphs: nodes and their edges, clones, executable graphs
 * and their launches.
 *
 * A graph owns its nodes (an array in creation order); each node keeps its
 * edges both ways (deps, outs) and its own copy of its parameters: a
 * kernel node copies the argument values when it is made, as CUDA does
 * (cuGraphAddKernelNode: "kernelParams ... copied"), a child-graph node
 * keeps a clone of the graph it was given, an allocation node the address
 * it reserved (graphmem.c: it lives as long as a node names it).
 *
 * Instantiation clones the graph once more (later changes to the graph do
 * not reach the executable graph; cuGraphExec*SetParams change the clone)
 * and orders its nodes with Kahn's algorithm, child graphs inlined where
 * their node stands.  A launch then walks that order on one stream:
 * consecutive kernel launches and copies/fills of device memory go into
 * one Metal command buffer (compute dispatches separated by memory
 * barriers, blits for the copies), so replaying a graph costs one
 * submission instead of one per node; a host node, an event node, a copy
 * Metal cannot blit (host memory outside the arena, 2-D/3-D shapes, fills of
 * 2- or 4-byte values) and a kernel that needs its own resources (printf,
 * shared memory in device memory, parameters over setBytes' 4 KB) end the
 * buffer and go through the stream as usual.  Nodes run one after another
 * in that order, which satisfies every edge (CUDA promises no concurrency
 * between branches); allocation and free nodes mark their memory allocated
 * or freed as the walk reaches them, and a launch that finds memory of its
 * allocation nodes still allocated from an earlier launch frees it first
 * (auto-free on launch) or is refused (cuGraphLaunch).  Launches of one executable graph are ordered after
 * each other, as CUDA orders them, through the graph's own shared event.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(graph);

bool core_check_graph(const core_graph *g) { return g && g->magic == CORE_MAGIC_GRAPH; }
bool core_check_node(const core_graph_node *n) { return n && n->magic == CORE_MAGIC_NODE; }
bool core_check_exec(const core_graph_exec *x) { return x && x->magic == CORE_MAGIC_EXEC; }

int core_graph_create(core_ctx *c, core_graph **out)
{
   core_graph *g = mc_calloc(1, sizeof(*g));
   if (!g)
      return CORE_ERROR_OUT_OF_MEMORY;
   g->magic = CORE_MAGIC_GRAPH;
   g->ctx = c;
   *out = g;
   return CORE_SUCCESS;
}

static void node_free(core_graph_node *n)
{
   if (n->p.type == CORE_NODE_GRAPH && n->p.child)
      core_graph_destroy(n->p.child);
   if (n->p.type == CORE_NODE_MEM_ALLOC && n->p.alloc.mem) {
      core_graph_mem_disown(n->p.alloc.mem, n->graph);
      core_graph_mem_unref(n->p.alloc.mem);
   }
   if (n->p.type == CORE_NODE_CONDITIONAL)
      core_graph_cond_free(n);
   if (n->p.type == CORE_NODE_MEM_FREE && n->p.mfree.mem) {
      if (n->counted)
         core_graph_mem_uncount_free(n->p.mfree.mem, n->counted);
      core_graph_mem_unref(n->p.mfree.mem);
   }
   free(n->blob);
   free(n->args);
   free(n->attrs);
   free(n->deps);
   free(n->outs);
   n->magic = CORE_MAGIC_DEAD;
   free(n);
}

void core_graph_destroy(core_graph *g)
{
   if (g->live_exec)
      g->live_exec->source = NULL;
   for (uint32_t i = 0; i < g->nnodes; i++)
      node_free(g->nodes[i]);
   free(g->nodes);
   for (uint32_t i = 0; i < g->nconds; i++)
      core_graph_cond_unref(g->conds[i]);
   free(g->conds);
   core_graph_urefs_drop(g);   /* last: may run a user object's destructor */
   g->magic = CORE_MAGIC_DEAD;
   free(g);
}

static bool push_node(core_graph_node ***v, uint32_t *n, uint32_t *cap, core_graph_node *x)
{
   if (*n == *cap) {
      uint32_t nc = *cap ? *cap * 2 : 4;
      core_graph_node **nv = mc_realloc(*v, nc * sizeof(*nv));
      if (!nv)
         return false;
      *v = nv;
      *cap = nc;
   }
   (*v)[(*n)++] = x;
   return true;
}

static bool has_edge(const core_graph_node *from, const core_graph_node *to)
{
   for (uint32_t i = 0; i < from->nouts; i++)
      if (from->outs[i] == to)
         return true;
   return false;
}

int core_graph_add_edge(core_graph_node *from, core_graph_node *to)
{
   if (from == to || from->graph != to->graph)
      return CORE_ERROR_INVALID_VALUE;
   if (has_edge(from, to))
      return CORE_ERROR_INVALID_VALUE;   /* NVIDIA: a duplicate edge is invalid */
   if (!push_node(&from->outs, &from->nouts, &from->cap_outs, to))
      return CORE_ERROR_OUT_OF_MEMORY;
   if (!push_node(&to->deps, &to->ndeps, &to->cap_deps, from)) {
      from->nouts--;
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   return CORE_SUCCESS;
}

static bool drop(core_graph_node **v, uint32_t *n, const core_graph_node *x)
{
   for (uint32_t i = 0; i < *n; i++)
      if (v[i] == x) {
         memmove(v + i, v + i + 1, (*n - i - 1) * sizeof(*v));
         (*n)--;
         return true;
      }
   return false;
}

int core_graph_remove_edge(core_graph_node *from, core_graph_node *to)
{
   if (!drop(from->outs, &from->nouts, to))
      return CORE_ERROR_INVALID_VALUE;
   drop(to->deps, &to->ndeps, from);
   return CORE_SUCCESS;
}

void core_graph_destroy_node(core_graph_node *n)
{
   core_graph *g = n->graph;
   while (n->ndeps)
      core_graph_remove_edge(n->deps[0], n);
   while (n->nouts)
      core_graph_remove_edge(n, n->outs[0]);
   drop(g->nodes, &g->nnodes, n);
   if (n->p.type == CORE_NODE_CONDITIONAL)
      g->ncond--;
   node_free(n);
}

/* A batch memory-operation node's own copy of both arrays, in n->blob. */
static int store_memops(core_graph_node *n, core_node_params *q)
{
   size_t ops = q->memop.count * sizeof(core_memop), api = q->memop.count * q->memop.api_size;
   uint8_t *blob = mc_malloc(ops + api ? ops + api : 1);
   if (!blob)
      return CORE_ERROR_OUT_OF_MEMORY;
   if (q->memop.count) {
      memcpy(blob, q->memop.ops, ops);
      memcpy(blob + ops, q->memop.api, api);
   }
   free(n->blob);
   n->blob = blob;
   q->memop.ops = (const core_memop *)(void *)blob;
   q->memop.api = blob + ops;
   return CORE_SUCCESS;
}

/* Copies p into n (n->p.type already set): the kernel's arguments, a clone
 * of the child graph, an allocation's reservation. */
static int node_store(core_graph_node *n, const core_node_params *p)
{
   core_node_params q = *p;
   if (p->type == CORE_NODE_KERNEL) {
      core_kernel *k = p->kernel.k;
      int r = core_kernel_prepare(k);   /* the parameter layout */
      if (r != CORE_SUCCESS)
         return r;
      const mc_kernel_info *ki = &k->info;
      uint8_t *blob = mc_calloc(1, ki->param_bytes ? ki->param_bytes : 1);
      void **args = mc_calloc(ki->nparams ? ki->nparams : 1, sizeof(*args));
      if (!blob || !args) {
         free(blob);
         free(args);
         return CORE_ERROR_OUT_OF_MEMORY;
      }
      r = CORE_SUCCESS;
      if (p->kernel.blob) {
         if (p->kernel.blob_size < ki->param_bytes)
            r = CORE_ERROR_INVALID_VALUE;
         else
            memcpy(blob, p->kernel.blob, ki->param_bytes);
      } else if (ki->nparams && !p->kernel.args) {
         r = CORE_ERROR_INVALID_VALUE;
      } else {
         for (uint32_t i = 0; i < ki->nparams && r == CORE_SUCCESS; i++) {
            if (!p->kernel.args[i])
               r = CORE_ERROR_INVALID_VALUE;
            else
               memcpy(blob + ki->params[i].offset, p->kernel.args[i], ki->params[i].size);
         }
      }
      if (r != CORE_SUCCESS) {
         free(blob);
         free(args);
         return r;
      }
      for (uint32_t i = 0; i < ki->nparams; i++)
         args[i] = blob + ki->params[i].offset;
      free(n->blob);
      free(n->args);
      n->blob = blob;
      n->args = args;
      q.kernel.args = args;
      q.kernel.blob = blob;
      q.kernel.blob_size = ki->param_bytes;
   } else if (p->type == CORE_NODE_GRAPH) {
      core_graph *clone;
      int r = core_graph_clone(p->child, &clone);
      if (r != CORE_SUCCESS)
         return r;
      if (n->p.type == CORE_NODE_GRAPH && n->p.child)
         core_graph_destroy(n->p.child);
      clone->parent = n;
      q.child = clone;
   } else if (p->type == CORE_NODE_MEM_ALLOC || p->type == CORE_NODE_MEM_FREE) {
      int r = p->type == CORE_NODE_MEM_ALLOC ? core_graph_mem_store_alloc(n, &q) : core_graph_mem_store_free(n, &q);
      if (r != CORE_SUCCESS)
         return r;
   } else if (p->type == CORE_NODE_BATCH_MEM_OP) {
      int r = store_memops(n, &q);
      if (r != CORE_SUCCESS)
         return r;
   } else if (p->type == CORE_NODE_CONDITIONAL) {
      /* new bodies for a new node, clones of an existing node's */
      int r = core_graph_cond_store(n, &q, p->cond.bodies != NULL);
      if (r != CORE_SUCCESS)
         return r;
   }
   n->p = q;
   return CORE_SUCCESS;
}

static core_graph_node *node_new(core_graph *g, int type)
{
   core_graph_node *n = mc_calloc(1, sizeof(*n));
   if (!n)
      return NULL;
   if (!push_node(&g->nodes, &g->nnodes, &g->cap_nodes, n)) {
      free(n);
      return NULL;
   }
   n->magic = CORE_MAGIC_NODE;
   n->graph = g;
   n->p.type = type;
   return n;
}

int core_graph_add(core_graph *g, core_graph_node *const *deps, size_t ndeps, const core_node_params *p,
                   core_graph_node **out)
{
   for (size_t i = 0; i < ndeps; i++) {
      if (!core_check_node(deps[i]) || deps[i]->graph != g)
         return CORE_ERROR_INVALID_VALUE;
      for (size_t j = 0; j < i; j++)
         if (deps[j] == deps[i])
            return CORE_ERROR_INVALID_VALUE;
   }
   bool mem = p->type == CORE_NODE_MEM_ALLOC || p->type == CORE_NODE_MEM_FREE;
   if (mem && g->parent)
      return CORE_ERROR_INVALID_VALUE;   /* not in a child graph (cuGraphChildGraphNodeGetGraph) */
   if (!core_graph_cond_allows(g, p->type)) {
      LOG_INFO("a conditional node's body takes no node of type %d", p->type);
      return CORE_ERROR_INVALID_VALUE;
   }
   if (p->type == CORE_NODE_CONDITIONAL && p->cond.bodies)
      return CORE_ERROR_INVALID_VALUE;   /* bodies are the node's to make */
   core_graph_node *n = node_new(g, p->type);
   if (!n)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = CORE_SUCCESS;
   for (size_t i = 0; i < ndeps && r == CORE_SUCCESS; i++)
      r = core_graph_add_edge(deps[i], n);
   if (r == CORE_SUCCESS)
      r = node_store(n, p);   /* last: nothing can fail once it owns p's resources */
   if (r != CORE_SUCCESS) {
      n->p.type = CORE_NODE_EMPTY;   /* nothing of p is owned */
      core_graph_destroy_node(n);
      return r;
   }
   if (mem)
      g->nmem++;
   if (p->type == CORE_NODE_CONDITIONAL)
      g->ncond++;
   *out = n;
   return CORE_SUCCESS;
}

void core_node_get(const core_graph_node *n, core_node_params *out) { *out = n->p; }

int core_node_set(core_graph_node *n, const core_node_params *p)
{
   if (p->type != n->p.type || p->type == CORE_NODE_MEM_ALLOC || p->type == CORE_NODE_MEM_FREE ||
       p->type == CORE_NODE_CONDITIONAL)
      return CORE_ERROR_INVALID_VALUE;
   return node_store(n, p);
}

/* ---- kernel node attributes: hints kept for the program to read back ---- */

void core_node_get_attr(const core_graph_node *n, int id, void *value)
{
   if (n->attrs && id >= 0 && id < CORE_STREAM_ATTRS)
      memcpy(value, n->attrs[id], CORE_STREAM_ATTR_BYTES);
   else
      memset(value, 0, CORE_STREAM_ATTR_BYTES);
}

int core_node_set_attr(core_graph_node *n, int id, const void *value)
{
   if (id < 0 || id >= CORE_STREAM_ATTRS || n->p.type != CORE_NODE_KERNEL)
      return CORE_ERROR_INVALID_VALUE;
   if (!n->attrs)
      n->attrs = mc_calloc(CORE_STREAM_ATTRS, CORE_STREAM_ATTR_BYTES);
   if (!n->attrs)
      return CORE_ERROR_OUT_OF_MEMORY;
   memcpy(n->attrs[id], value, CORE_STREAM_ATTR_BYTES);
   return CORE_SUCCESS;
}

/* ---- clones ---- */

static int clone_into(const core_graph *g, core_graph *c)
{
   for (uint32_t i = 0; i < g->nnodes; i++) {
      const core_graph_node *o = g->nodes[i];
      core_graph_node *n = node_new(c, o->p.type);
      if (!n)
         return CORE_ERROR_OUT_OF_MEMORY;
      n->orig = (core_graph_node *)o;
      n->disabled = o->disabled;
      if (o->attrs) {
         n->attrs = mc_malloc(CORE_STREAM_ATTRS * CORE_STREAM_ATTR_BYTES);
         if (!n->attrs)
            return CORE_ERROR_OUT_OF_MEMORY;
         memcpy(n->attrs, o->attrs, CORE_STREAM_ATTRS * CORE_STREAM_ATTR_BYTES);
      }
      int r = node_store(n, &o->p);
      if (r != CORE_SUCCESS) {
         n->p.type = CORE_NODE_EMPTY;
         return r;
      }
   }
   for (uint32_t i = 0; i < g->nnodes; i++) {
      const core_graph_node *o = g->nodes[i];
      for (uint32_t k = 0; k < o->nouts; k++) {
         uint32_t j = 0;
         while (g->nodes[j] != o->outs[k])
            j++;
         int r = core_graph_add_edge(c->nodes[i], c->nodes[j]);
         if (r != CORE_SUCCESS)
            return r;
      }
   }
   return CORE_SUCCESS;
}

int core_graph_copy(const core_graph *g, core_graph_node *parent, core_graph **out)
{
   core_graph *c;
   int r = core_graph_create(g->ctx, &c);
   if (r != CORE_SUCCESS)
      return r;
   /* first: a copied conditional node finds its handle through these */
   c->parent = parent;
   c->cond_body = g->cond_body;
   if ((r = core_graph_cond_share(g, c)) != CORE_SUCCESS || (r = clone_into(g, c)) != CORE_SUCCESS ||
       (r = core_graph_urefs_copy(g, c)) != CORE_SUCCESS) {
      core_graph_destroy(c);
      return r;
   }
   c->nmem = g->nmem;
   c->ncond = g->ncond;
   *out = c;
   return CORE_SUCCESS;
}

int core_graph_clone(const core_graph *g, core_graph **out)
{
   /* CUDA clones no graph with allocation, free or conditional nodes
    * (cuGraphClone), nor makes one a child graph (cuGraphAddChildGraphNode) */
   if (g->nmem || g->ncond)
      return CORE_ERROR_INVALID_VALUE;
   return core_graph_copy(g, NULL, out);
}

core_graph_node *core_graph_find_clone(core_graph *clone, const core_graph_node *orig)
{
   for (uint32_t i = 0; i < clone->nnodes; i++) {
      core_graph_node *n = clone->nodes[i];
      if (n->orig == orig)
         return n;
      if (n->p.type == CORE_NODE_GRAPH) {
         core_graph_node *m = core_graph_find_clone(n->p.child, orig);
         if (m)
            return m;
      }
   }
   return NULL;
}

/* ---- executable graphs ---- */

/* Appends g's nodes to x->order in an order that respects the edges,
 * child graphs inlined (Kahn's algorithm; the API never makes a cycle
 * impossible, so one is reported). */
static int order_graph(core_graph_exec *x, core_graph *g, uint32_t *cap)
{
   uint32_t n = g->nnodes, *indeg = mc_calloc(n ? n : 1, sizeof(*indeg));
   core_graph_node **ready = mc_calloc(n ? n : 1, sizeof(*ready));
   int r = CORE_SUCCESS;
   if (!indeg || !ready) {
      r = CORE_ERROR_OUT_OF_MEMORY;
      goto out;
   }
   uint32_t head = 0, tail = 0;
   for (uint32_t i = 0; i < n; i++) {
      g->nodes[i]->tg_bytes = i;   /* index, until the node is prepared */
      indeg[i] = g->nodes[i]->ndeps;
      if (!indeg[i])
         ready[tail++] = g->nodes[i];
   }
   while (head < tail && r == CORE_SUCCESS) {
      core_graph_node *m = ready[head++];
      if (m->p.type == CORE_NODE_GRAPH)
         r = order_graph(x, m->p.child, cap);
      else if (!push_node(&x->order, &x->norder, cap, m))
         r = CORE_ERROR_OUT_OF_MEMORY;
      for (uint32_t k = 0; k < m->nouts; k++)
         if (--indeg[m->outs[k]->tg_bytes] == 0)
            ready[tail++] = m->outs[k];
   }
   if (r == CORE_SUCCESS && tail != n) {
      LOG_WARN("the graph has a cycle: it cannot be instantiated");
      r = CORE_ERROR_INVALID_VALUE;
   }
out:
   free(indeg);
   free(ready);
   return r;
}

/* Decides how a kernel node of x runs (node->batch, tg_bytes). */
static int prepare_node(core_graph_exec *x, core_graph_node *n)
{
   n->batch = false;
   n->tg_bytes = 0;
   /* bodies are made once: pending launches may be running them */
   if (n->p.type == CORE_NODE_CONDITIONAL)
      return n->cond_execs ? CORE_SUCCESS : core_graph_cond_prepare(x, n);
   if (n->p.type != CORE_NODE_KERNEL)
      return CORE_SUCCESS;
   core_launch_config cfg = { .shared_bytes = n->p.kernel.shared };
   memcpy(cfg.grid, n->p.kernel.grid, sizeof(cfg.grid));
   memcpy(cfg.block, n->p.kernel.block, sizeof(cfg.block));
   return core_launch_check(n->p.kernel.k, &cfg, &n->batch, &n->tg_bytes);
}

static int exec_order(core_graph_exec *x)
{
   free(x->order);
   x->order = NULL;
   x->norder = 0;
   uint32_t cap = 0;
   int r = order_graph(x, x->graph, &cap);
   for (uint32_t i = 0; i < x->norder && r == CORE_SUCCESS; i++)
      r = prepare_node(x, x->order[i]);
   return r;
}

int core_graph_instantiate(core_graph *g, uint64_t flags, core_graph_exec **out)
{
   core_graph_exec *x = mc_calloc(1, sizeof(*x));
   if (!x)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   x->done = mtl_event_new(core_device_mtl(g->ctx->dev), &err);
   if (!x->done) {
      LOG_ERR("cannot instantiate a graph: %s", err ? err : "out of memory");
      free(err);
      free(x);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   x->ctx = g->ctx;
   x->flags = flags;
   pthread_mutex_init(&x->lock, NULL);
   /* a graph with memory nodes has one executable graph at a time (cuGraphInstantiate) */
   int r = (g->nmem || g->ncond) && g->live_exec ? CORE_ERROR_INVALID_VALUE : core_graph_copy(g, g->parent, &x->graph);
   if (r == CORE_SUCCESS)
      r = exec_order(x);
   if (r != CORE_SUCCESS) {
      x->magic = CORE_MAGIC_EXEC;
      core_graph_exec_destroy(x);
      return r;
   }
   x->magic = CORE_MAGIC_EXEC;
   if (g->nmem || g->ncond) {
      g->live_exec = x;
      x->source = g;
   }
   *out = x;
   return CORE_SUCCESS;
}

void core_graph_exec_destroy(core_graph_exec *x)
{
   /* pending launches use the nodes: they complete first */
   pthread_mutex_lock(&x->lock);
   uint64_t n = x->launches;
   pthread_mutex_unlock(&x->lock);
   if (n)
      mtl_event_wait(x->done, n, UINT64_MAX);
   if (x->source)
      x->source->live_exec = NULL;
   if (x->graph)
      core_graph_destroy(x->graph);
   free(x->order);
   mtl_event_release(x->done);
   pthread_mutex_destroy(&x->lock);
   x->magic = CORE_MAGIC_DEAD;
   free(x);
}

static int same_shape(const core_graph *a, const core_graph *b, core_graph_node **bad);
static int copy_params(core_graph *a, const core_graph *b);

core_graph_node *core_exec_node(core_graph_exec *x, const core_graph_node *orig)
{
   return core_graph_find_clone(x->graph, orig);
}

int core_exec_set(core_graph_exec *x, const core_graph_node *orig, const core_node_params *p)
{
   core_graph_node *n = core_exec_node(x, orig);
   if (!n)
      return CORE_ERROR_INVALID_VALUE;
   if (p->type != n->p.type)
      return CORE_ERROR_INVALID_VALUE;
   core_graph_node *bad;
   if (p->type == CORE_NODE_GRAPH && same_shape(n->p.child, p->child, &bad))
      return CORE_ERROR_INVALID_VALUE;   /* the child's topology may not change */
   pthread_mutex_lock(&x->lock);   /* a launch reads the nodes while it encodes */
   /* a child graph keeps its nodes (pending launches may still use them) */
   int r = p->type == CORE_NODE_GRAPH ? copy_params(n->p.child, p->child) : node_store(n, p);
   if (r == CORE_SUCCESS)
      r = exec_order(x);
   pthread_mutex_unlock(&x->lock);
   return r;
}

/* g has the shape of x's graph (the same nodes by index, the same types,
 * the same edges, recursively): CU_GRAPH_EXEC_UPDATE_* of the first
 * difference. */
static int same_shape(const core_graph *a, const core_graph *b, core_graph_node **bad)
{
   if (a->nnodes != b->nnodes) {
      *bad = NULL;
      return 2;   /* TOPOLOGY_CHANGED */
   }
   for (uint32_t i = 0; i < a->nnodes; i++) {
      const core_graph_node *m = a->nodes[i], *n = b->nodes[i];
      *bad = (core_graph_node *)n;
      if (m->p.type != n->p.type)
         return 3;   /* NODE_TYPE_CHANGED */
      if (m->ndeps != n->ndeps || m->nouts != n->nouts)
         return 2;
      for (uint32_t k = 0; k < m->nouts; k++) {
         uint32_t j = 0, l = 0;
         while (a->nodes[j] != m->outs[k])
            j++;
         while (l < b->nnodes && b->nodes[l] != n->outs[k])
            l++;
         if (j != l)
            return 2;
      }
      if (m->p.type == CORE_NODE_GRAPH) {
         int r = same_shape(m->p.child, n->p.child, bad);
         if (r)
            return r;
      }
      if (m->p.type == CORE_NODE_KERNEL && m->p.kernel.k->module->ctx != n->p.kernel.k->module->ctx)
         return 4;   /* FUNCTION_CHANGED: another context */
      if ((m->p.type == CORE_NODE_MEM_ALLOC && m->p.alloc.dptr != n->p.alloc.dptr) ||
          (m->p.type == CORE_NODE_MEM_FREE && m->p.mfree.mem != n->p.mfree.mem))
         return 5;   /* PARAMETERS_CHANGED: memory nodes cannot change */
   }
   *bad = NULL;
   return 0;
}

/* Copies b's parameters into a (same shape), and makes a's nodes stand
 * for b's. */
static int copy_params(core_graph *a, const core_graph *b)
{
   for (uint32_t i = 0; i < a->nnodes; i++) {
      core_graph_node *m = a->nodes[i], *n = b->nodes[i];
      int r = CORE_SUCCESS;
      if (m->p.type == CORE_NODE_GRAPH)
         r = copy_params(m->p.child, n->p.child);
      else if (m->p.type != CORE_NODE_MEM_ALLOC && m->p.type != CORE_NODE_MEM_FREE)   /* the same (same_shape) */
         r = node_store(m, &n->p);
      if (r != CORE_SUCCESS)
         return r;
      m->orig = n;
   }
   return CORE_SUCCESS;
}

int core_exec_update(core_graph_exec *x, core_graph *g, int *result, core_graph_node **err_node)
{
   if (x->graph->ncond || g->ncond) {
      LOG_INFO("graph update: graphs with conditional nodes are not updated (instantiate the graph again)");
      *err_node = NULL;
      *result = 1;   /* ERROR */
      return CORE_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
   }
   *result = same_shape(x->graph, g, err_node);
   if (*result)
      return CORE_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
   pthread_mutex_lock(&x->lock);
   int r = copy_params(x->graph, g);
   if (r == CORE_SUCCESS)
      r = exec_order(x);
   pthread_mutex_unlock(&x->lock);
   if (r != CORE_SUCCESS)
      *result = 1;   /* ERROR */
   return r;
}

/* ---- launch ---- */

/* The command buffer being filled and its open encoder. */
typedef struct run {
   core_graph_exec *x;
   core_stream *s;
   mtl_cmdbuf *cb;
   mtl_encoder *compute;
   mtl_blit *blit;
   bool dispatched;             /* the compute encoder has a dispatch: barrier before the next */
   mc_launch lb;                /* the launch block's common part */
} run;

static void end_encoders(run *u)
{
   if (u->compute)
      mtl_encoder_end(u->compute);
   if (u->blit)
      mtl_blit_end(u->blit);
   u->compute = NULL;
   u->blit = NULL;
   u->dispatched = false;
}

static int open_cb(run *u)
{
   if (u->cb)
      return CORE_SUCCESS;
   char *err = NULL;
   u->cb = mtl_cmdbuf_new(u->s->queue, &err);
   if (u->cb)
      return CORE_SUCCESS;
   LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
   free(err);
   return CORE_ERROR_OUT_OF_MEMORY;
}

static void flush(run *u)
{
   if (!u->cb)
      return;
   end_encoders(u);
   core_stream_commit(u->s, u->cb, NULL);
   u->cb = NULL;
}

/* The compute encoder; *first: no dispatch in it yet. */
static mtl_encoder *compute(run *u, bool *first)
{
   if (u->blit)
      end_encoders(u);
   if (!u->compute)
      u->compute = mtl_cmdbuf_compute_encoder(u->cb);
   else if (u->dispatched)
      mtl_encoder_memory_barrier(u->compute);   /* nodes run one after another */
   *first = !u->dispatched;
   u->dispatched = true;
   return u->compute;
}

static mtl_blit *blit(run *u)
{
   if (u->compute)
      end_encoders(u);
   if (!u->blit)
      u->blit = mtl_cmdbuf_blit_encoder(u->cb);
   return u->blit;
}

/* The chunk buffer and offset of [p, p+n) if all of it lies in one
 * allocation (which lies in one chunk), else NULL. */
static mtl_buffer *in_arena(core_ctx *c, uint64_t p, uint64_t n, size_t *off)
{
   if (!n || !core_mem_lookup(c->dev, p, n, NULL, NULL))
      return NULL;
   return core_arena_chunk(c->dev, p, off);
}

static void host_copy(void *data, int status)
{
   (void)status;
   core_copy3d_now(&((core_graph_node *)data)->p.copy.d);
}

static void host_fill(void *data, int status)
{
   (void)status;
   const core_graph_node *n = data;
   core_fill2d_now(n->p.memset.dst, n->p.memset.pitch, n->p.memset.value, n->p.memset.elem_size,
                   n->p.memset.width, n->p.memset.height);
}

static void host_node(void *data, int status)
{
   (void)status;   /* host nodes run whatever the stream's status, as host functions do */
   const core_graph_node *n = data;
   n->p.host.fn(n->p.host.data);
}

static int run_kernel(run *u, core_graph_node *n)
{
   core_launch_config cfg = { .shared_bytes = n->p.kernel.shared, .stream = u->s, .arg_blob = n->blob,
                              .arg_blob_size = n->p.kernel.k->info.param_bytes };
   memcpy(cfg.grid, n->p.kernel.grid, sizeof(cfg.grid));
   memcpy(cfg.block, n->p.kernel.block, sizeof(cfg.block));
   if (!n->batch) {
      flush(u);
      return core_launch(n->p.kernel.k, &cfg);
   }
   int r = open_cb(u);
   if (r != CORE_SUCCESS)
      return r;
   bool first;
   mtl_encoder *e = compute(u, &first);
   return core_launch_encode(n->p.kernel.k, &cfg, n->tg_bytes, n->blob, &u->lb, e, first);
}

static int run_copy(run *u, core_graph_node *n)
{
   const core_copy3d_desc *d = &n->p.copy.d;
   size_t so, dof;
   core_ctx *c = u->x->ctx;
   if (!d->width)
      return CORE_SUCCESS;
   mtl_buffer *sb, *db;
   if (d->height == 1 && d->depth == 1 && (sb = in_arena(c, d->src, d->width, &so)) &&
       (db = in_arena(c, d->dst, d->width, &dof))) {
      int r = open_cb(u);
      if (r != CORE_SUCCESS)
         return r;
      mtl_blit_copy(blit(u), sb, so, db, dof, d->width);
      return CORE_SUCCESS;
   }
   flush(u);
   return core_stream_host_fn(u->s, host_copy, n);
}

static int run_fill(run *u, core_graph_node *n)
{
   size_t off, w = n->p.memset.width * n->p.memset.elem_size;
   core_ctx *c = u->x->ctx;
   mtl_buffer *db;
   if (n->p.memset.elem_size == 1 && (n->p.memset.height == 1 || n->p.memset.pitch == w) &&
       (db = in_arena(c, n->p.memset.dst, w * n->p.memset.height, &off))) {
      int r = open_cb(u);
      if (r != CORE_SUCCESS)
         return r;
      mtl_blit_fill(blit(u), db, off, w * n->p.memset.height, (uint8_t)n->p.memset.value);
      return CORE_SUCCESS;
   }
   flush(u);
   return core_stream_host_fn(u->s, host_fill, n);
}

static int run_node(run *u, core_graph_node *n)
{
   if (n->disabled)
      return CORE_SUCCESS;   /* a disabled node is an empty one until enabled */
   switch (n->p.type) {
   case CORE_NODE_KERNEL:
      return run_kernel(u, n);
   case CORE_NODE_MEMCPY:
      return run_copy(u, n);
   case CORE_NODE_MEMSET:
      return run_fill(u, n);
   case CORE_NODE_HOST:
      flush(u);
      return core_stream_host_fn(u->s, host_node, n);
   case CORE_NODE_EVENT_RECORD:
      flush(u);
      return core_event_record(n->p.event, u->s);
   case CORE_NODE_WAIT_EVENT:
      flush(u);
      return core_stream_wait_event(u->s, n->p.event);
   /* the address is reserved: allocating and freeing are its state, set
    * in launch order (nodes after the allocation find it allocated) */
   case CORE_NODE_MEM_ALLOC:
      core_graph_mem_set_live(n->p.alloc.mem, true);
      return CORE_SUCCESS;
   case CORE_NODE_MEM_FREE:
      core_graph_mem_set_live(n->p.mfree.mem, false);
      return CORE_SUCCESS;
   case CORE_NODE_CONDITIONAL:
      flush(u);
      return core_graph_cond_run(u->s, n);
   case CORE_NODE_BATCH_MEM_OP:
      flush(u);
      return core_stream_memops(u->s, n->p.memop.ops, n->p.memop.count);
   default:
      return CORE_SUCCESS;
   }
}

/* Conditional handles made with CU_GRAPH_COND_ASSIGN_DEFAULT for this
 * graph: their defaults (the word after each variable) copied over the
 * variables before any node runs. */
static void assign_defaults(run *u)
{
   const core_graph *g = u->x->graph;
   for (uint32_t i = 0; i < g->nconds; i++) {
      const core_graph_cond *v = g->conds[i];
      size_t off;
      mtl_buffer *b;
      if (v->assign_default && (b = core_arena_chunk(v->dev, v->ptr, &off)))
         mtl_blit_copy(blit(u), b, off + 4, b, off, 4);
   }
}

int core_graph_launch(core_graph_exec *x, core_stream *s)
{
   /* NVIDIA's driver refuses to capture a graph launch (an H200, CUDA 13.0:
    * cudaErrorStreamCaptureUnsupported, the capture invalidated) */
   if (s->cap)
      return core_capture_fail(s, CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED);
   core_ctx *c = x->ctx;
   int r = core_ctx_error(c);
   if (r != CORE_SUCCESS)
      return r;
   if (s->is_null && (r = core_capture_legacy(c)) != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&x->lock);
   /* allocations a previous launch left unfreed: freed now with auto-free,
    * else the launch fails (cuGraphLaunch) */
   for (uint32_t i = 0; i < x->norder; i++) {
      core_graph_node *n = x->order[i];
      if (n->p.type != CORE_NODE_MEM_ALLOC || !core_graph_mem_is_live(n->p.alloc.mem))
         continue;
      if (!(x->flags & CORE_GRAPH_AUTO_FREE_ON_LAUNCH)) {
         pthread_mutex_unlock(&x->lock);
         LOG_INFO("graph allocation %#llx from the previous launch is not freed: launch refused",
                  (unsigned long long)n->p.alloc.dptr);
         return CORE_ERROR_INVALID_VALUE;
      }
      core_graph_mem_set_live(n->p.alloc.mem, false);
   }
   run u = { .x = x, .s = s };
   core_launch_block_base(c, &u.lb);
   if ((r = open_cb(&u)) != CORE_SUCCESS) {
      pthread_mutex_unlock(&x->lock);
      return r;
   }
   if (x->launches)   /* after the previous launch, wherever it ran */
      mtl_cmdbuf_encode_wait_event(u.cb, x->done, x->launches);
   assign_defaults(&u);
   for (uint32_t i = 0; i < x->norder && r == CORE_SUCCESS; i++)
      r = run_node(&u, x->order[i]);
   /* Whatever failed, the launch counts: its end is signalled so that the
    * next launch and the destruction do not wait for ever. */
   if (open_cb(&u) != CORE_SUCCESS) {
      mtl_event_set_signaled_value(x->done, x->launches + 1);   /* nothing to order after */
   } else {
      end_encoders(&u);
      mtl_cmdbuf_encode_signal_event(u.cb, x->done, x->launches + 1);
      core_stream_commit(s, u.cb, NULL);
   }
   x->launches++;
   pthread_mutex_unlock(&x->lock);
   return r;
}

/* ---- cuGraphDebugDotPrint ---- */

static const char *type_name(int t)
{
   static const char *names[] = { "kernel", "memcpy", "memset", "host", "graph", "empty", "event wait",
                                  "event record", "?", "?", "mem alloc", "mem free", "batch mem op", "conditional" };
   return t >= 0 && t < (int)(sizeof(names) / sizeof(names[0])) ? names[t] : "?";
}

/* Nodes are named by address (unique across a graph and its children). */
static void dot_graph(FILE *f, const core_graph *g, int depth)
{
   for (uint32_t i = 0; i < g->nnodes; i++) {
      const core_graph_node *n = g->nodes[i];
      if (n->p.type == CORE_NODE_GRAPH) {
         fprintf(f, "%*ssubgraph cluster_%p {\n%*slabel=\"child graph\";\n", depth * 2, "", (const void *)n,
                 depth * 2 + 2, "");
         dot_graph(f, n->p.child, depth + 1);
         fprintf(f, "%*s}\n", depth * 2, "");
      }
      if (n->p.type == CORE_NODE_KERNEL)
         fprintf(f, "%*sn%p [label=\"kernel %s\\n<<<(%u,%u,%u), (%u,%u,%u), %u>>>\"];\n", depth * 2, "",
                 (const void *)n, n->p.kernel.k->name, n->p.kernel.grid[0], n->p.kernel.grid[1],
                 n->p.kernel.grid[2], n->p.kernel.block[0], n->p.kernel.block[1], n->p.kernel.block[2],
                 n->p.kernel.shared);
      else
         fprintf(f, "%*sn%p [label=\"%s\"];\n", depth * 2, "", (const void *)n, type_name(n->p.type));
   }
   for (uint32_t i = 0; i < g->nnodes; i++)
      for (uint32_t k = 0; k < g->nodes[i]->nouts; k++)
         fprintf(f, "%*sn%p -> n%p;\n", depth * 2, "", (const void *)g->nodes[i], (const void *)g->nodes[i]->outs[k]);
}

int core_graph_dot(const core_graph *g, const char *path)
{
   FILE *f = fopen(path, "w");
   if (!f) {
      LOG_WARN("cannot write %s", path);
      return CORE_ERROR_OPERATING_SYSTEM;
   }
   fprintf(f, "digraph graph_%p {\n", (const void *)g);
   dot_graph(f, g, 1);
   fprintf(f, "}\n");
   return fclose(f) == 0 ? CORE_SUCCESS : CORE_ERROR_OPERATING_SYSTEM;
}
