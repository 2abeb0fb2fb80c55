/*
 * graphcond.c — conditional graph nodes (CUDA 12.3+: cuGraphAddNode with
 * CU_GRAPH_NODE_TYPE_CONDITIONAL, cuGraphConditionalHandleCreate,
 * cudaGraphSetConditional in kernels).
 *
 * A handle is the address of 8 bytes of device memory: the condition
 * variable, then its default.  The compiler turns a kernel's
 * cudaGraphSetConditional(handle, value) into a 4-byte global store to
 * the handle (src/compiler/ir/build_call.c), so the variable is written in
 * the kernel's stream order like any other store.  With
 * CU_GRAPH_COND_ASSIGN_DEFAULT the launch of the graph the handle was made
 * for copies the default over the variable first (a blit in the launch's
 * first command buffer, graph.c); without it the variable starts at the
 * default and keeps what was last stored.
 *
 * The value is read when the node's turn comes on the device, not when the
 * graph is launched: the node is a host function in the launch's stream
 * (core_stream_host_fn), which runs once everything before it in the
 * stream has completed.  It reads the variable and launches the chosen
 * body — an executable graph made from the body when the parent was
 * instantiated — on the node's own non-blocking stream, waits for it,
 * and for a WHILE node reads the variable again and repeats.  The host
 * function returning lets the parent's stream go on, so nodes after the
 * conditional see the bodies' work done, as CUDA orders them.  Nested
 * conditionals nest the same way, each on its own stream.
 *
 * CUDA's restrictions are kept: a graph with conditional nodes cannot be
 * cloned or made a child graph and has one executable graph at a time
 * (graph.c counts them in ncond), so one variable per handle is exact;
 * bodies hold only kernels, copies, fills, empty nodes, child graphs and
 * conditionals.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(graph);

static bool push_cond(core_graph *g, core_graph_cond *v)
{
   if (g->nconds == g->cap_conds) {
      uint32_t nc = g->cap_conds ? g->cap_conds * 2 : 4;
      core_graph_cond **nv = mc_realloc(g->conds, nc * sizeof(*nv));
      if (!nv)
         return false;
      g->conds = nv;
      g->cap_conds = nc;
   }
   g->conds[g->nconds++] = v;
   v->refs++;
   return true;
}

/* The variable's bytes as the host sees them. */
static uint32_t *var_host(const core_graph_cond *v)
{
   size_t off;
   mtl_buffer *b = core_arena_chunk(v->dev, v->ptr, &off);
   return b ? (uint32_t *)((uint8_t *)mtl_buffer_contents(b) + off) : NULL;
}

int core_graph_cond_create(core_graph *g, uint32_t dflt, unsigned flags, uint64_t *handle)
{
   if (flags & ~CORE_COND_ASSIGN_DEFAULT)
      return CORE_ERROR_INVALID_VALUE;
   core_graph_cond *v = mc_calloc(1, sizeof(*v));
   if (!v)
      return CORE_ERROR_OUT_OF_MEMORY;
   v->dev = g->ctx->dev;
   v->dflt = dflt;
   v->assign_default = flags & CORE_COND_ASSIGN_DEFAULT;
   int r = core_mem_alloc_internal(v->dev, 8, &v->ptr);
   if (r != CORE_SUCCESS) {
      free(v);
      return r;
   }
   uint32_t *h = var_host(v);
   h[0] = dflt;
   h[1] = dflt;
   if (!push_cond(g, v)) {
      core_mem_free_internal(v->dev, v->ptr);
      free(v);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   *handle = v->ptr;
   return CORE_SUCCESS;
}

void core_graph_cond_unref(core_graph_cond *v)
{
   if (--v->refs)
      return;
   core_mem_free_internal(v->dev, v->ptr);
   free(v);
}

int core_graph_cond_share(const core_graph *g, core_graph *c)
{
   for (uint32_t i = 0; i < g->nconds; i++)
      if (!push_cond(c, g->conds[i]))
         return CORE_ERROR_OUT_OF_MEMORY;
   return CORE_SUCCESS;
}

/* The handle's variable, if it was made for g or a graph g lies in. */
static core_graph_cond *find_var(const core_graph *g, uint64_t handle)
{
   for (; g; g = g->parent ? g->parent->graph : NULL)
      for (uint32_t i = 0; i < g->nconds; i++)
         if (g->conds[i]->ptr == handle)
            return g->conds[i];
   return NULL;
}

bool core_graph_cond_allows(const core_graph *g, int type)
{
   switch (type) {
   case CORE_NODE_KERNEL:
   case CORE_NODE_MEMCPY:
   case CORE_NODE_MEMSET:
   case CORE_NODE_EMPTY:
   case CORE_NODE_GRAPH:
   case CORE_NODE_CONDITIONAL:
      return true;
   default:
      /* a child graph of a body is held to the body's rules */
      for (; g; g = g->parent ? g->parent->graph : NULL)
         if (g->cond_body)
            return false;
      return true;
   }
}

static bool valid_size(int type, uint32_t size)
{
   switch (type) {
   case CORE_COND_IF:
      return size == 1 || size == 2;
   case CORE_COND_WHILE:
      return size == 1;
   case CORE_COND_SWITCH:
      return size > 0;
   default:
      return false;
   }
}

int core_graph_cond_store(core_graph_node *n, core_node_params *q, bool clone)
{
   if (!valid_size(q->cond.type, q->cond.size))
      return CORE_ERROR_INVALID_VALUE;
   core_graph_cond *v = find_var(n->graph, q->cond.handle);
   if (!v) {
      /* a clone's handle was made for the original graph, which the
       * clone shares (core_graph_cond_share) */
      LOG_INFO("conditional node: handle %#llx was not made for this graph", (unsigned long long)q->cond.handle);
      return CORE_ERROR_INVALID_VALUE;
   }
   core_graph **bodies = mc_calloc(q->cond.size, sizeof(*bodies));
   if (!bodies)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = CORE_SUCCESS;
   for (uint32_t i = 0; i < q->cond.size && r == CORE_SUCCESS; i++) {
      r = clone ? core_graph_copy(q->cond.bodies[i], n, &bodies[i]) : core_graph_create(n->graph->ctx, &bodies[i]);
      if (r == CORE_SUCCESS) {
         bodies[i]->parent = n;
         bodies[i]->cond_body = true;
      }
   }
   if (r != CORE_SUCCESS) {
      for (uint32_t i = 0; i < q->cond.size; i++)
         if (bodies[i])
            core_graph_destroy(bodies[i]);
      free(bodies);
      return r;
   }
   q->cond.bodies = bodies;
   q->cond.var = v;
   return CORE_SUCCESS;
}

void core_graph_cond_free(core_graph_node *n)
{
   core_graph_cond_release(n);
   if (!n->p.cond.bodies)
      return;
   for (uint32_t i = 0; i < n->p.cond.size; i++)
      if (n->p.cond.bodies[i])
         core_graph_destroy(n->p.cond.bodies[i]);
   free(n->p.cond.bodies);
   n->p.cond.bodies = NULL;
}

/* ---- executable graphs ---- */

int core_graph_cond_prepare(core_graph_exec *x, core_graph_node *n)
{
   core_graph_cond_release(n);
   uint32_t size = n->p.cond.size;
   n->cond_execs = mc_calloc(size, sizeof(*n->cond_execs));
   if (!n->cond_execs)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = CORE_SUCCESS;
   for (uint32_t i = 0; i < size && r == CORE_SUCCESS; i++)
      r = core_graph_instantiate(n->p.cond.bodies[i], x->flags, &n->cond_execs[i]);
   /* non-blocking: the legacy stream may be the one waiting for it */
   if (r == CORE_SUCCESS)
      r = core_stream_create(x->ctx, CORE_STREAM_NON_BLOCKING, 0, &n->cond_stream);
   if (r != CORE_SUCCESS)
      core_graph_cond_release(n);
   return r;
}

void core_graph_cond_release(core_graph_node *n)
{
   if (n->cond_execs) {
      for (uint32_t i = 0; i < n->p.cond.size; i++)
         if (n->cond_execs[i])
            core_graph_exec_destroy(n->cond_execs[i]);
      free(n->cond_execs);
      n->cond_execs = NULL;
   }
   if (n->cond_stream) {
      core_stream_destroy(n->cond_stream);
      n->cond_stream = NULL;
   }
}

/* The body the variable's value picks, or NULL. */
static core_graph_exec *pick(const core_graph_node *n, uint32_t value)
{
   switch (n->p.cond.type) {
   case CORE_COND_IF:
      return value ? n->cond_execs[0] : n->p.cond.size == 2 ? n->cond_execs[1] : NULL;
   case CORE_COND_WHILE:
      return value ? n->cond_execs[0] : NULL;
   default:   /* SWITCH */
      return value < n->p.cond.size ? n->cond_execs[value] : NULL;
   }
}

/* The host function: runs in the parent's stream once what precedes the
 * node is complete.  An error (a body's kernel faulted) is the context's
 * sticky error, which stops the loop and every later launch. */
static void run_cond(void *data, int status)
{
   core_graph_node *n = data;
   volatile uint32_t *var = var_host(n->p.cond.var);
   core_ctx *c = n->graph->ctx;
   while (status == CORE_SUCCESS && var) {
      core_graph_exec *body = pick(n, *var);
      if (!body)
         break;
      status = core_graph_launch(body, n->cond_stream);
      if (status == CORE_SUCCESS)
         status = core_stream_synchronize(n->cond_stream);
      if (n->p.cond.type != CORE_COND_WHILE)
         break;
   }
   if (status != CORE_SUCCESS && core_ctx_error(c) == CORE_SUCCESS)
      LOG_WARN("conditional node: a body could not be launched (error %d)", status);
}

int core_graph_cond_run(core_stream *s, core_graph_node *n)
{
   if (!n->cond_execs || !n->cond_stream)
      return CORE_ERROR_INVALID_VALUE;
   return core_stream_host_fn(s, run_cond, n);
}
