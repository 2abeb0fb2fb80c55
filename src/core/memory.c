/*
 * memory.c — copies and fills, and host memory registered with CUDA.
 *
 * Device memory is shared with the host (one arena, CPU-visible), so once
 * the work a copy must follow has completed, a copy is a plain memmove:
 * cudaMemcpy's semantics (synchronous for the host, ordered after earlier
 * work on the legacy stream and so on every blocking stream; non-blocking
 * streams keep running) at memcpy speed.  Asynchronous 1-D copies between
 * pinned or device memory and fills of device memory are work of their
 * stream, returning at once (core_memcpy_async, core_fill2d_async below),
 * and so are 2-D and 3-D copies and batches (core_memcpy_batch); copies
 * from or to pageable memory take the synchronous path: they wait for the
 * work they must follow on their stream, then copy, so they are ordered
 * after the stream's earlier work
 * and before its later work and complete before the call returns, which
 * CUDA allows (an async call may block; copies from pageable memory always
 * do).
 *
 * Registered host memory (cuMemHostRegister) is a process-wide list of
 * ranges: copies use it like any host memory (asynchronous ones as pinned
 * memory); kernels reach it where the device reaches the process's memory
 * (mtl_device_info.reaches_host_memory, the software device), through the
 * address cuMemHostGetDevicePointer gives (its CPU address minus the
 * arena's delta, which kernels add back).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(memory);

/* The work a copy or fill on s must follow (s NULL: the legacy stream):
 * on the legacy stream, cudaMemcpy's ordering (every blocking stream's
 * earlier work, then the legacy stream's); on another stream, its own
 * earlier work and, for a blocking stream, the legacy stream's. */
static int wait_for_stream(core_ctx *c, core_stream *s)
{
   if (!s || s == c->null_stream) {
      int r = core_capture_legacy(c);
      return r != CORE_SUCCESS ? r : core_stream_sync_legacy(c);
   }
   int r = core_stream_synchronize(s);
   if (r == CORE_SUCCESS && !(s->flags & CORE_STREAM_NON_BLOCKING))
      r = core_stream_synchronize(c->null_stream);
   return r;
}

int core_memcpy(core_ctx *c, uint64_t dst, uint64_t src, size_t n)
{
   return core_memcpy_on(c, NULL, dst, src, n);
}

int core_memcpy_on(core_ctx *c, core_stream *s, uint64_t dst, uint64_t src, size_t n)
{
   if (s && s->cap) {   /* a copy node of the capture */
      core_node_params p = { .type = CORE_NODE_MEMCPY };
      p.copy.ctx = c;
      p.copy.d = (core_copy3d_desc){ .dst = dst, .src = src, .dst_pitch = n, .src_pitch = n, .dst_height = 1,
                                     .src_height = 1, .width = n, .height = 1, .depth = 1 };
      return core_capture_add(s, &p);
   }
   int r = wait_for_stream(c, s);
   if (r != CORE_SUCCESS)
      return r;
   if (n)
      memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
   return CORE_SUCCESS;
}

/* ---- asynchronous copies and fills: work of the stream ----
 *
 * Between memory kernels can reach (the arena: device, page-locked and
 * managed allocations) a copy or a byte fill is a blit in the stream's
 * queue, committed like a launch: the call returns at once and the device
 * does the work in stream order.  Other pinned memory (cuMemHostRegister)
 * is copied by a host function of the stream (core_stream_host_fn: after
 * the earlier work, before the later), which returns at once as well.
 * Metal's blits on macOS want offsets and sizes that are multiples of 4;
 * other copies take the host-function path.  Pageable memory keeps CUDA's
 * documented synchronous behaviour: the copy is done before the call
 * returns (core_memcpy_on). */

/* Whether [p, p+n) lies in one arena allocation: the chunk buffer that
 * holds it (an allocation lies in one) and the offset in it; NULL if not. */
static mtl_buffer *arena_range(core_ctx *c, uint64_t p, size_t n, size_t *off, uint32_t *kind)
{
   if (!core_mem_query(c->dev, p, n, NULL, NULL, kind, NULL))
      return NULL;
   return core_arena_chunk(c->dev, p, off);
}

/* Memory the host may hand to the device at any time: arena or registered. */
static bool pinned(core_ctx *c, uint64_t p, size_t n)
{
   uint64_t base, size;
   if (core_mem_lookup(c->dev, p, n, NULL, NULL))
      return true;
   return core_host_lookup(p, &base, &size, NULL) && p + n <= base + size;
}

/* A command buffer of s with a blit encoder open (*b), or NULL (said). */
static mtl_cmdbuf *blit_begin(core_stream *s, mtl_blit **b)
{
   char *err = NULL;
   mtl_cmdbuf *cb = mtl_cmdbuf_new(s->queue, &err);
   if (!cb) {
      LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
      free(err);
      return NULL;
   }
   *b = mtl_cmdbuf_blit_encoder(cb);
   return cb;
}

static void blit_commit(core_stream *s, mtl_cmdbuf *cb, mtl_blit *b)
{
   mtl_blit_end(b);
   core_stream_commit(s, cb, NULL);
}

/* Commits a one-blit buffer on s. */
static int blit_on(core_stream *s, mtl_buffer *src, mtl_buffer *dst, size_t src_off, size_t dst_off, size_t n,
                   uint8_t v)
{
   mtl_blit *b;
   mtl_cmdbuf *cb = blit_begin(s, &b);
   if (!cb)
      return CORE_ERROR_OUT_OF_MEMORY;
   if (!src)   /* a fill */
      mtl_blit_fill(b, dst, dst_off, n, v);
   else
      mtl_blit_copy(b, src, src_off, dst, dst_off, n);
   blit_commit(s, cb, b);
   return CORE_SUCCESS;
}

typedef struct host_copy {
   core_copy3d_desc d;
   bool fill;
   uint32_t value, elem;
} host_copy;

static void run_host_copy(void *data, int status)
{
   (void)status;
   host_copy *h = data;
   if (h->fill)
      core_fill2d_now(h->d.dst, h->d.dst_pitch, h->value, h->elem, h->d.width, h->d.height);
   else
      core_copy3d_now(&h->d);
   free(h);
}

static int host_fn_copy(core_stream *s, const host_copy *hc)
{
   host_copy *h = mc_malloc(sizeof(*h));
   if (!h)
      return CORE_ERROR_OUT_OF_MEMORY;
   *h = *hc;
   int r = core_stream_host_fn(s, run_host_copy, h);
   if (r != CORE_SUCCESS)
      free(h);
   return r;
}

int core_memcpy_async(core_ctx *c, core_stream *s, uint64_t dst, uint64_t src, size_t n)
{
   if (!s)
      s = c->null_stream;
   if (s->cap || !n)
      return core_memcpy_on(c, s, dst, src, n);
   if (!pinned(c, dst, n) || !pinned(c, src, n))
      return core_memcpy_on(c, s, dst, src, n);   /* pageable: synchronous, as CUDA documents */
   int r = s->is_null ? core_capture_legacy(c) : CORE_SUCCESS;
   if (r != CORE_SUCCESS)
      return r;
   size_t so, dof;
   mtl_buffer *sb = arena_range(c, src, n, &so, NULL), *db = arena_range(c, dst, n, &dof, NULL);
   if (sb && db && !(so % 4) && !(dof % 4) && !(n % 4))
      return blit_on(s, sb, db, so, dof, n, 0);
   host_copy h = { .d = { .dst = dst, .src = src, .dst_pitch = n, .src_pitch = n, .dst_height = 1, .src_height = 1,
                          .width = n, .height = 1, .depth = 1 } };
   return host_fn_copy(s, &h);
}

/* ---- batches (cuMemcpyBatchAsync, cuMemcpy3DBatchAsync) ----
 *
 * CUDA orders a batch as a whole on its stream and its copies in no
 * particular order among themselves, so the batch is one piece of stream
 * work: between arena memory, one command buffer of one blit per
 * contiguous copy (one commit for all of them, where n cudaMemcpyAsync
 * calls commit n); with other pinned memory or strided copies, one host
 * function of the stream that does every copy; with pageable memory, the
 * synchronous path (the stream's earlier work, then every copy) as
 * core_memcpy_async takes for one copy; under capture, a copy node each. */

/* The bytes from a strided copy's first byte to one past its last. */
static size_t copy_span(size_t pitch, size_t rows_per_slice, const core_copy3d_desc *d)
{
   return ((d->depth - 1) * rows_per_slice + (d->height - 1)) * pitch + d->width;
}

/* A copy one blit does: contiguous, in the arena, 4-byte aligned (Metal's
 * blits on macOS). */
static bool blit_copy(core_ctx *c, const core_copy3d_desc *d, mtl_buffer **sb, size_t *so, mtl_buffer **db,
                      size_t *dof, size_t *n)
{
   bool flat = d->depth == 1 && d->height == 1;
   bool packed = d->src_pitch == d->width && d->dst_pitch == d->width &&
                 (d->depth == 1 || (d->src_height == d->height && d->dst_height == d->height));
   if (!flat && !packed)
      return false;
   *n = d->width * d->height * d->depth;
   *sb = arena_range(c, d->src, *n, so, NULL);
   *db = arena_range(c, d->dst, *n, dof, NULL);
   return *sb && *db && !(*so % 4) && !(*dof % 4) && !(*n % 4);
}

typedef struct host_batch {
   size_t n;
   core_copy3d_desc d[];
} host_batch;

static void run_host_batch(void *data, int status)
{
   (void)status;
   host_batch *h = data;
   for (size_t i = 0; i < h->n; i++)
      core_copy3d_now(&h->d[i]);
   free(h);
}

int core_memcpy_batch(core_ctx *c, core_stream *s, size_t n, const core_copy3d_desc *d)
{
   if (!s)
      s = c->null_stream;
   int r = CORE_SUCCESS;
   if (s->cap) {
      for (size_t i = 0; i < n && r == CORE_SUCCESS; i++)
         r = core_copy3d(c, s, &d[i]);
      return r;
   }
   bool pin = true, blit = true;
   for (size_t i = 0; i < n && pin; i++) {
      mtl_buffer *sb, *db;
      size_t so, dof, len;
      pin = pinned(c, d[i].src, copy_span(d[i].src_pitch, d[i].src_height, &d[i])) &&
            pinned(c, d[i].dst, copy_span(d[i].dst_pitch, d[i].dst_height, &d[i]));
      blit = blit && pin && blit_copy(c, &d[i], &sb, &so, &db, &dof, &len);
   }
   if (!pin) {   /* pageable: synchronous, as CUDA documents */
      if ((r = wait_for_stream(c, s)) != CORE_SUCCESS)
         return r;
      for (size_t i = 0; i < n; i++)
         core_copy3d_now(&d[i]);
      return CORE_SUCCESS;
   }
   if (s->is_null && (r = core_capture_legacy(c)) != CORE_SUCCESS)
      return r;
   if (!blit) {
      host_batch *h = mc_malloc(sizeof(*h) + n * sizeof(h->d[0]));
      if (!h)
         return CORE_ERROR_OUT_OF_MEMORY;
      h->n = n;
      memcpy(h->d, d, n * sizeof(h->d[0]));
      if ((r = core_stream_host_fn(s, run_host_batch, h)) != CORE_SUCCESS)
         free(h);
      return r;
   }
   mtl_blit *b;
   mtl_cmdbuf *cb = blit_begin(s, &b);
   if (!cb)
      return CORE_ERROR_OUT_OF_MEMORY;
   for (size_t i = 0; i < n; i++) {
      mtl_buffer *sb, *db;
      size_t so, dof, len;
      blit_copy(c, &d[i], &sb, &so, &db, &dof, &len);
      mtl_blit_copy(b, sb, so, db, dof, len);
   }
   blit_commit(s, cb, b);
   return CORE_SUCCESS;
}

int core_fill2d_async(core_ctx *c, core_stream *s, uint64_t dst, size_t pitch, uint32_t value, size_t elem_size,
                      size_t width, size_t height)
{
   if (!s)
      s = c->null_stream;
   size_t off, span = (height - 1) * pitch + width * elem_size;
   uint32_t kind;
   mtl_buffer *db;
   /* device memory only: CUDA's fills of page-locked host and managed
    * memory are synchronous */
   if (s->cap || !width || !height || !(db = arena_range(c, dst, span, &off, &kind)) || kind != CORE_MEM_DEVICE)
      return core_fill2d(c, s, dst, pitch, value, elem_size, width, height);
   int r = s->is_null ? core_capture_legacy(c) : CORE_SUCCESS;
   if (r != CORE_SUCCESS)
      return r;
   if (elem_size == 1 && (height == 1 || pitch == width) && !(off % 4) && !(span % 4))
      return blit_on(s, NULL, db, 0, off, span, (uint8_t)value);
   host_copy h = { .d = { .dst = dst, .dst_pitch = pitch, .width = width, .height = height, .depth = 1 }, .fill = true,
                   .value = value, .elem = (uint32_t)elem_size };
   return host_fn_copy(s, &h);
}

/* cuMemcpyPeer is "serialized with respect to all pending and future
 * asynchronous work in the current context, srcContext, and dstContext";
 * cuMemcpyPeerAsync only with its stream's. */
int core_memcpy_peer(core_ctx *c, core_stream *s, bool sync, core_ctx *dc, uint64_t dst, core_ctx *sc,
                     uint64_t src, size_t n)
{
   int r = CORE_SUCCESS;
   if (sync && dc != c)
      r = core_stream_sync_legacy(dc);
   if (r == CORE_SUCCESS && sync && sc != c && sc != dc)
      r = core_stream_sync_legacy(sc);
   if (r != CORE_SUCCESS)
      return r;
   return core_memcpy_on(c, s, dst, src, n);
}

int core_copy3d(core_ctx *c, core_stream *s, const core_copy3d_desc *p)
{
   if (s && s->cap) {
      core_node_params np = { .type = CORE_NODE_MEMCPY };
      np.copy.ctx = c;
      np.copy.d = *p;
      return core_capture_add(s, &np);
   }
   int r = wait_for_stream(c, s);
   if (r != CORE_SUCCESS)
      return r;
   core_copy3d_now(p);
   return CORE_SUCCESS;
}

void core_copy3d_now(const core_copy3d_desc *p)
{
   if (!p->width)
      return;
   for (size_t z = 0; z < p->depth; z++)
      for (size_t y = 0; y < p->height; y++) {
         uint64_t d = p->dst + (z * p->dst_height + y) * p->dst_pitch;
         uint64_t q = p->src + (z * p->src_height + y) * p->src_pitch;
         memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)q, p->width);
      }
}

/* count elements of elem_size bytes at p, each the low bytes of value. */
static void fill_row(uint8_t *p, uint32_t value, size_t elem_size, size_t count)
{
   switch (elem_size) {
   case 1:
      memset(p, (int)(value & 0xff), count);
      break;
   case 2:
      for (size_t k = 0; k < count; k++) {
         uint16_t v = (uint16_t)value;
         memcpy(p + 2 * k, &v, 2);
      }
      break;
   default:
      for (size_t k = 0; k < count; k++)
         memcpy(p + 4 * k, &value, 4);
      break;
   }
}

int core_memset(core_ctx *c, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
   return core_fill2d(c, NULL, dst, 0, value, elem_size, count, 1);
}

int core_fill2d(core_ctx *c, core_stream *s, uint64_t dst, size_t pitch, uint32_t value, size_t elem_size,
                size_t width, size_t height)
{
   if (elem_size != 1 && elem_size != 2 && elem_size != 4)
      return CORE_ERROR_INVALID_VALUE;
   if (s && s->cap) {
      core_node_params p = { .type = CORE_NODE_MEMSET };
      p.memset.ctx = c;
      p.memset.dst = dst;
      p.memset.pitch = height > 1 ? pitch : width * elem_size;
      p.memset.value = value;
      p.memset.elem_size = (uint32_t)elem_size;
      p.memset.width = width;
      p.memset.height = height;
      return core_capture_add(s, &p);
   }
   int r = wait_for_stream(c, s);
   if (r != CORE_SUCCESS)
      return r;
   core_fill2d_now(dst, pitch, value, elem_size, width, height);
   return CORE_SUCCESS;
}

void core_fill2d_now(uint64_t dst, size_t pitch, uint32_t value, size_t elem_size, size_t width, size_t height)
{
   for (size_t y = 0; y < height; y++)
      fill_row((uint8_t *)(uintptr_t)(dst + y * pitch), value, elem_size, width);
}

/* ---- registered host memory ---- */

typedef struct host_range {
   uint64_t base;
   size_t size;
   uint32_t flags;
} host_range;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_range *host_ranges;
static size_t host_n, host_cap;

/* Index of the range overlapping [p, p+n) (n >= 1), or host_n. */
static size_t host_find(uint64_t p, size_t n)
{
   for (size_t k = 0; k < host_n; k++)
      if (p < host_ranges[k].base + host_ranges[k].size && host_ranges[k].base < p + n)
         return k;
   return host_n;
}

int core_host_register(uint64_t p, size_t n, uint32_t flags)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&host_lock);
   if (host_find(p, n) != host_n) {
      r = CORE_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
   } else if (host_n == host_cap) {
      size_t ncap = host_cap ? host_cap * 2 : 16;
      host_range *nv = mc_realloc(host_ranges, ncap * sizeof(*nv));
      if (nv) {
         host_ranges = nv;
         host_cap = ncap;
      } else {
         r = CORE_ERROR_OUT_OF_MEMORY;
      }
   }
   if (r == CORE_SUCCESS)
      host_ranges[host_n++] = (host_range){ p, n, flags };
   pthread_mutex_unlock(&host_lock);
   return r;
}

int core_host_unregister(uint64_t p)
{
   pthread_mutex_lock(&host_lock);
   size_t k = host_find(p, 1);
   int r = k == host_n ? CORE_ERROR_HOST_MEMORY_NOT_REGISTERED
           : host_ranges[k].base != p ? CORE_ERROR_INVALID_VALUE   /* inside a range: NVIDIA's answer */
                                      : CORE_SUCCESS;
   if (r == CORE_SUCCESS)
      host_ranges[k] = host_ranges[--host_n];
   if (!host_n) {   /* nothing left: no allocation outlives the last range */
      free(host_ranges);
      host_ranges = NULL;
      host_cap = 0;
   }
   pthread_mutex_unlock(&host_lock);
   return r;
}

bool core_host_lookup(uint64_t p, uint64_t *base, uint64_t *size, uint32_t *flags)
{
   pthread_mutex_lock(&host_lock);
   size_t k = host_find(p, 1);
   bool ok = k != host_n;
   if (ok) {
      if (base)
         *base = host_ranges[k].base;
      if (size)
         *size = host_ranges[k].size;
      if (flags)
         *flags = host_ranges[k].flags;
   }
   pthread_mutex_unlock(&host_lock);
   return ok;
}
