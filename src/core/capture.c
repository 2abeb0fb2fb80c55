/*
 * capture.c — stream capture: work issued on a capturing stream becomes
 * nodes of a graph instead of running.
 *
 * A capture starts on one stream (its origin) and spreads to others
 * through events: an event recorded on a capturing stream remembers the
 * capture and the stream's dependencies at that point, and a stream
 * waiting on it joins the capture with those dependencies (fork), or adds
 * them to its own (join).  Each stream in the capture keeps the nodes its
 * next work depends on (s->cap_deps); each piece of work becomes a node
 * after them, then is the stream's only dependency.  The capture ends on
 * its origin; every node with no successor must then be one the origin
 * depends on, else the capture was forked and not joined.  A forked stream
 * destroyed before the end leaves the capture and its nodes stay (an H100
 * keeps the capture so); the origin's destruction invalidates it.
 * (cuMemAllocAsync
 * and cuMemFreeAsync on a capturing stream add allocation and free nodes
 * through core_capture_add_node: api/driver/mempool.c.)
 *
 * What CUDA forbids during a capture, observed on an H200 (driver
 * 580.159.04, CUDA 13.0, tests/cuda/graph_capture.cu):
 * - "potentially unsafe" calls (allocation and freeing, synchronising or
 *   querying a stream or an event) fail with
 *   cudaErrorStreamCaptureUnsupported and invalidate the capture, from any
 *   thread while a capture in global mode runs, from the capturing thread
 *   in thread-local mode, never in relaxed mode (or after
 *   cudaThreadExchangeStreamCaptureMode to relaxed);
 * - synchronising or querying the capturing stream itself, and
 *   synchronising the device, fail the same way in every mode;
 * - work on the legacy stream while a blocking stream captures is
 *   cudaErrorStreamCaptureImplicit, and invalidates the capture;
 * - an invalidated capture refuses further work with
 *   cudaErrorStreamCaptureInvalidated and ends with that error and no graph;
 * - ending the capture on another stream of it is
 *   cudaErrorStreamCaptureUnmatched (the capture invalidated); ending a
 *   global or thread-local capture from another thread is
 *   cudaErrorStreamCaptureWrongThread (the capture ends); ending a stream
 *   that does not capture, or beginning twice, cudaErrorIllegalState;
 *   beginning on the legacy stream cudaErrorStreamCaptureUnsupported;
 * - querying an event recorded in the capture is cudaErrorCapturedEvent,
 *   waiting in the capture on an event recorded outside it
 *   cudaErrorStreamCaptureIsolation, a stream callback or a graph launch
 *   on the capturing stream cudaErrorStreamCaptureUnsupported: each
 *   invalidates the capture.
 * One lock guards every capture's state.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(capture);

struct core_capture {
   core_graph *graph;
   core_ctx *ctx;
   core_stream *origin;
   int mode;
   uint64_t id;
   bool invalid;
   bool own_graph;              /* made by the capture (not cuStreamBeginCaptureToGraph) */
   pthread_t thread;
   core_stream **streams;       /* taking part (origin first) */
   size_t nstreams, cap_streams;
};

static pthread_mutex_t cap_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t global_captures;              /* live captures in global mode (cap_lock) */
static core_capture **captures;               /* every live capture (cap_lock) */
static size_t ncaptures, cap_captures;
static _Thread_local int thread_mode = CORE_CAPTURE_GLOBAL;
static _Thread_local uint32_t thread_captures; /* this thread's live non-relaxed captures */

static bool push_ptr(void ***v, size_t *n, size_t *cap, void *x)
{
   if (*n == *cap) {
      size_t nc = *cap ? *cap * 2 : 4;
      void **nv = mc_realloc(*v, nc * sizeof(*nv));
      if (!nv)
         return false;
      *v = nv;
      *cap = nc;
   }
   (*v)[(*n)++] = x;
   return true;
}

static void set_deps(core_stream *s, core_graph_node *const *deps, size_t n)
{
   s->ncap_deps = 0;
   for (size_t i = 0; i < n; i++)
      push_ptr((void ***)&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, deps[i]);
}

static int join(core_capture *k, core_stream *s)
{
   if (!push_ptr((void ***)&k->streams, &k->nstreams, &k->cap_streams, s))
      return CORE_ERROR_OUT_OF_MEMORY;
   s->cap = k;
   s->ncap_deps = 0;
   __atomic_add_fetch(&k->ctx->capturing, 1, __ATOMIC_RELAXED);
   return CORE_SUCCESS;
}

/* Ends k: its streams leave it, it leaves the list (cap_lock held). */
static void finish(core_capture *k)
{
   for (size_t i = 0; i < k->nstreams; i++) {
      core_stream *s = k->streams[i];
      s->cap = NULL;
      s->ncap_deps = 0;
      free(s->cap_deps);
      s->cap_deps = NULL;
      s->cap_deps_cap = 0;
      __atomic_sub_fetch(&k->ctx->capturing, 1, __ATOMIC_RELAXED);
   }
   for (size_t i = 0; i < ncaptures; i++)
      if (captures[i] == k) {
         captures[i] = captures[--ncaptures];
         break;
      }
   if (!ncaptures) {
      free(captures);
      captures = NULL;
      cap_captures = 0;
   }
   if (k->mode == CORE_CAPTURE_GLOBAL)
      global_captures--;
   free(k->streams);
}

static void invalidate(core_capture *k)
{
   if (!k->invalid)
      LOG_INFO("stream capture %llu invalidated", (unsigned long long)k->id);
   k->invalid = true;
}

int core_capture_begin(core_stream *s, int mode, core_graph *into)
{
   if (s->is_null)
      return CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED;
   if (mode < CORE_CAPTURE_GLOBAL || mode > CORE_CAPTURE_RELAXED)
      return CORE_ERROR_INVALID_VALUE;
   static uint64_t last_id;
   core_capture *k = mc_calloc(1, sizeof(*k));
   if (!k)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = CORE_SUCCESS;
   if (into)
      k->graph = into;
   else if ((r = core_graph_create(s->ctx, &k->graph)) != CORE_SUCCESS) {
      free(k);
      return r;
   }
   k->own_graph = !into;
   k->ctx = s->ctx;
   k->origin = s;
   k->mode = mode;
   k->thread = pthread_self();
   pthread_mutex_lock(&cap_lock);
   if (s->cap) {
      r = CORE_ERROR_ILLEGAL_STATE;
   } else if (!push_ptr((void ***)&captures, &ncaptures, &cap_captures, k)) {
      r = CORE_ERROR_OUT_OF_MEMORY;
   } else if ((r = join(k, s)) != CORE_SUCCESS) {
      ncaptures--;
   } else {
      k->id = ++last_id;
      if (mode == CORE_CAPTURE_GLOBAL)
         global_captures++;
      if (mode != CORE_CAPTURE_RELAXED)
         thread_captures++;
   }
   pthread_mutex_unlock(&cap_lock);
   if (r != CORE_SUCCESS) {
      if (k->own_graph)
         core_graph_destroy(k->graph);
      free(k->streams);
      free(k);
   }
   return r;
}

/* Forks not joined back: a node with no successor that the origin does
 * not depend on. */
static bool unjoined(const core_capture *k)
{
   const core_graph *g = k->graph;
   const core_stream *o = k->origin;
   for (uint32_t i = 0; i < g->nnodes; i++) {
      if (g->nodes[i]->nouts)
         continue;
      bool found = false;
      for (size_t j = 0; j < o->ncap_deps && !found; j++)
         found = o->cap_deps[j] == g->nodes[i];
      if (!found)
         return true;
   }
   return false;
}

bool core_capture_to_user_graph(core_stream *s)
{
   pthread_mutex_lock(&cap_lock);
   bool user = s->cap && !s->cap->own_graph;
   pthread_mutex_unlock(&cap_lock);
   return user;
}

int core_capture_end(core_stream *s, core_graph **out)
{
   *out = NULL;
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   int r = CORE_SUCCESS;
   if (!k) {
      pthread_mutex_unlock(&cap_lock);
      return CORE_ERROR_ILLEGAL_STATE;
   }
   if (k->origin != s) {
      invalidate(k);
      pthread_mutex_unlock(&cap_lock);
      return CORE_ERROR_STREAM_CAPTURE_UNMATCHED;
   }
   if (k->invalid)
      r = CORE_ERROR_STREAM_CAPTURE_INVALIDATED;
   else if (k->mode != CORE_CAPTURE_RELAXED && !pthread_equal(k->thread, pthread_self()))
      r = CORE_ERROR_STREAM_CAPTURE_WRONG_THREAD;
   else if (unjoined(k))
      r = CORE_ERROR_STREAM_CAPTURE_UNJOINED;
   finish(k);
   pthread_mutex_unlock(&cap_lock);
   /* the thread that began it counts it; only it can end a non-relaxed one */
   if (k->mode != CORE_CAPTURE_RELAXED && pthread_equal(k->thread, pthread_self()))
      thread_captures--;
   if (r == CORE_SUCCESS)
      *out = k->graph;
   else if (k->own_graph)
      core_graph_destroy(k->graph);
   free(k);
   return r;
}

int core_capture_info(core_stream *s, uint64_t *id, core_graph **graph, core_graph_node *const **deps,
                      size_t *ndeps)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   int st = !k ? 0 : k->invalid ? 2 : 1;
   if (st == 1) {
      if (id)
         *id = k->id;
      if (graph)
         *graph = k->graph;
      if (deps)
         *deps = s->cap_deps;
      if (ndeps)
         *ndeps = s->ncap_deps;
   }
   pthread_mutex_unlock(&cap_lock);
   return st;
}

int core_capture_update_deps(core_stream *s, core_graph_node *const *deps, size_t n, bool set)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   int r = !k ? CORE_ERROR_ILLEGAL_STATE : k->invalid ? CORE_ERROR_STREAM_CAPTURE_INVALIDATED : CORE_SUCCESS;
   for (size_t i = 0; i < n && r == CORE_SUCCESS; i++)
      if (!core_check_node(deps[i]) || deps[i]->graph != k->graph)
         r = CORE_ERROR_INVALID_VALUE;
   if (r == CORE_SUCCESS) {
      if (set)
         s->ncap_deps = 0;
      for (size_t i = 0; i < n; i++)
         if (!push_ptr((void ***)&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, deps[i]))
            r = CORE_ERROR_OUT_OF_MEMORY;
   }
   pthread_mutex_unlock(&cap_lock);
   return r;
}

int core_capture_exchange_mode(int *mode)
{
   if (*mode < CORE_CAPTURE_GLOBAL || *mode > CORE_CAPTURE_RELAXED)
      return CORE_ERROR_INVALID_VALUE;
   int old = thread_mode;
   thread_mode = *mode;
   *mode = old;
   return CORE_SUCCESS;
}

int core_capture_add_node(core_stream *s, const core_node_params *p, core_graph_node **out)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   int r = CORE_ERROR_STREAM_CAPTURE_INVALIDATED;
   if (k && !k->invalid) {
      core_graph_node *n;
      r = core_graph_add(k->graph, s->cap_deps, s->ncap_deps, p, &n);
      if (r == CORE_SUCCESS) {
         set_deps(s, &n, 1);
         if (out)
            *out = n;
      } else {
         invalidate(k);   /* as CUDA does when a captured call fails */
      }
   }
   pthread_mutex_unlock(&cap_lock);
   return r;
}

int core_capture_add(core_stream *s, const core_node_params *p) { return core_capture_add_node(s, p, NULL); }

/* Invalidates the captures an unsafe call breaks; true if any (cap_lock held). */
static bool break_captures(void)
{
   bool any = false;
   if (thread_mode == CORE_CAPTURE_RELAXED)
      return false;
   for (size_t i = 0; i < ncaptures; i++) {
      core_capture *k = captures[i];
      bool mine = pthread_equal(k->thread, pthread_self());
      if (k->mode == CORE_CAPTURE_GLOBAL || (k->mode == CORE_CAPTURE_THREAD_LOCAL && mine)) {
         invalidate(k);
         any = true;
      }
   }
   return any;
}

int core_capture_unsafe(void)
{
   if (!__atomic_load_n(&ncaptures, __ATOMIC_RELAXED))
      return CORE_SUCCESS;
   pthread_mutex_lock(&cap_lock);
   bool broke = break_captures();
   pthread_mutex_unlock(&cap_lock);
   return broke ? CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED : CORE_SUCCESS;
}

/* Whether a blocking stream of c captures; invalidates those captures if asked. */
static bool blocking_capture(core_ctx *c, bool inval)
{
   if (!__atomic_load_n(&c->capturing, __ATOMIC_RELAXED))
      return false;
   bool any = false;
   pthread_mutex_lock(&cap_lock);
   for (size_t i = 0; i < ncaptures; i++) {
      core_capture *k = captures[i];
      if (k->ctx != c)
         continue;
      for (size_t j = 0; j < k->nstreams; j++)
         if (!(k->streams[j]->flags & CORE_STREAM_NON_BLOCKING)) {
            if (inval)
               invalidate(k);
            any = true;
            break;
         }
   }
   pthread_mutex_unlock(&cap_lock);
   return any;
}

int core_capture_legacy(core_ctx *c)
{
   return blocking_capture(c, true) ? CORE_ERROR_STREAM_CAPTURE_IMPLICIT : CORE_SUCCESS;
}

int core_capture_legacy_query(core_ctx *c)
{
   return blocking_capture(c, false) ? CORE_ERROR_STREAM_CAPTURE_IMPLICIT : CORE_SUCCESS;
}

int core_capture_ctx_sync(core_ctx *c)
{
   if (!__atomic_load_n(&c->capturing, __ATOMIC_RELAXED))
      return CORE_SUCCESS;
   pthread_mutex_lock(&cap_lock);
   for (size_t i = 0; i < ncaptures; i++)
      if (captures[i]->ctx == c)
         invalidate(captures[i]);
   pthread_mutex_unlock(&cap_lock);
   return CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

int core_capture_event_record(core_event *e, core_stream *s)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   int r = CORE_SUCCESS;
   if (k && k->invalid) {
      r = CORE_ERROR_STREAM_CAPTURE_INVALIDATED;
   } else if (k) {
      /* the event stands for the stream's position in the capture */
      core_graph_node **v = mc_malloc((s->ncap_deps ? s->ncap_deps : 1) * sizeof(*v));
      if (!v) {
         r = CORE_ERROR_OUT_OF_MEMORY;
      } else {
         if (s->ncap_deps)
            memcpy(v, s->cap_deps, s->ncap_deps * sizeof(*v));
         free(e->cap_nodes);
         e->cap_nodes = v;
         e->ncap_nodes = s->ncap_deps;
         e->cap = k;
      }
   } else {
      free(e->cap_nodes);   /* recorded outside a capture again */
      e->cap_nodes = NULL;
      e->ncap_nodes = 0;
      e->cap = NULL;
   }
   pthread_mutex_unlock(&cap_lock);
   if (r == CORE_SUCCESS && !k)
      return core_event_record(e, s);
   return r;
}

static bool live(const core_capture *k)
{
   for (size_t i = 0; i < ncaptures; i++)
      if (captures[i] == k)
         return true;
   return false;
}

int core_capture_event_wait(core_stream *s, core_event *e)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = e->cap && live(e->cap) ? e->cap : NULL;
   int r = CORE_SUCCESS;
   bool plain = false;
   if (!k) {
      if (s->cap) {   /* a capture may not depend on work outside it */
         r = CORE_ERROR_STREAM_CAPTURE_ISOLATION;
         invalidate(s->cap);
      }
      else
         plain = true;   /* the event's capture ended: an ordinary wait */
   } else if (k->invalid) {
      r = CORE_ERROR_STREAM_CAPTURE_INVALIDATED;
   } else if (!s->cap) {
      if (s->is_null)
         r = CORE_ERROR_STREAM_CAPTURE_IMPLICIT;
      else if ((r = join(k, s)) == CORE_SUCCESS)
         set_deps(s, e->cap_nodes, e->ncap_nodes);   /* fork */
   } else if (s->cap != k) {
      r = CORE_ERROR_STREAM_CAPTURE_MERGE;
   } else {
      for (size_t i = 0; i < e->ncap_nodes; i++) {   /* join */
         bool have = false;
         for (size_t j = 0; j < s->ncap_deps && !have; j++)
            have = s->cap_deps[j] == e->cap_nodes[i];
         if (!have && !push_ptr((void ***)&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, e->cap_nodes[i]))
            r = CORE_ERROR_OUT_OF_MEMORY;
      }
   }
   if (plain) {
      free(e->cap_nodes);
      e->cap_nodes = NULL;
      e->ncap_nodes = 0;
      e->cap = NULL;
   }
   pthread_mutex_unlock(&cap_lock);
   return plain ? core_stream_wait_event(s, e) : r;
}

int core_capture_event_check(core_event *e)
{
   pthread_mutex_lock(&cap_lock);
   bool captured = e->cap && live(e->cap);
   if (captured)
      invalidate(e->cap);   /* as NVIDIA's driver does */
   pthread_mutex_unlock(&cap_lock);
   return captured ? CORE_ERROR_CAPTURED_EVENT : CORE_SUCCESS;
}

void core_capture_forget_stream(core_stream *s)
{
   pthread_mutex_lock(&cap_lock);
   core_capture *k = s->cap;
   if (k) {
      /* a forked stream leaves the capture, its work staying in the graph
       * (the end checks that it was joined: an H100 lets cuda-samples'
       * graphMemoryNodes destroy its joined second stream so); the
       * origin's going ends it */
      if (k->origin == s) {
         invalidate(k);
         k->origin = NULL;
      }
      for (size_t i = 0; i < k->nstreams; i++)
         if (k->streams[i] == s) {
            k->streams[i] = k->streams[--k->nstreams];
            __atomic_sub_fetch(&k->ctx->capturing, 1, __ATOMIC_RELAXED);
            break;
         }
   }
   s->cap = NULL;
   free(s->cap_deps);
   s->cap_deps = NULL;
   s->ncap_deps = s->cap_deps_cap = 0;
   pthread_mutex_unlock(&cap_lock);
}

void core_capture_forget_event(core_event *e)
{
   pthread_mutex_lock(&cap_lock);
   free(e->cap_nodes);
   e->cap_nodes = NULL;
   e->cap = NULL;
   pthread_mutex_unlock(&cap_lock);
}

int core_capture_fail(core_stream *s, int err)
{
   pthread_mutex_lock(&cap_lock);
   if (s->cap)
      invalidate(s->cap);
   pthread_mutex_unlock(&cap_lock);
   return err;
}

int core_capture_stream_busy(core_stream *s)
{
   pthread_mutex_lock(&cap_lock);
   bool capturing = s->cap != NULL;
   if (capturing)
      invalidate(s->cap);
   pthread_mutex_unlock(&cap_lock);
   return capturing ? CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED : core_capture_unsafe();
}
