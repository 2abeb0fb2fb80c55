/*
 * encoder.c — compute and blit encoders: binding state, Metal's encoding
 * rules, and the commands they append to the command buffer.
 *
 * Metal's API validation rules enforced here (each a command-buffer error
 * naming the rule): setBytes at most 4 KB; buffer and threadgroup indices
 * below 31; threadgroup memory lengths multiples of 16 and, with the
 * pipeline's static threadgroup memory, at most 32 KB; threads per
 * threadgroup at most the pipeline's maxTotalThreadsPerThreadgroup; no
 * zero dimension in a dispatch; every buffer and threadgroup index the
 * kernel uses bound; copies and fills inside their buffers.  The rules
 * themselves, and their messages, are shared with the Apple backend
 * (../validate.c).
 */
#include "soft.h"

#include <stdlib.h>
#include <string.h>

static soft_cmdbuf *enc_cb(mtl_encoder *e)
{
   return (soft_cmdbuf *)((char *)e - offsetof(soft_cmdbuf, enc));
}

static soft_cmdbuf *blit_cb(mtl_blit *b)
{
   return (soft_cmdbuf *)((char *)b - offsetof(soft_cmdbuf, blit));
}

void soft_encoder_reset(soft_encoder_state *es)
{
   for (int i = 0; i < SOFT_MAX_BUFFERS; i++)
      free(es->bytes[i]);
   memset(es, 0, sizeof(*es));
}

/* The encoder if it is open; else the command buffer fails. */
static soft_encoder_state *open_state(mtl_encoder *e, const char *what)
{
   soft_cmdbuf *cb = enc_cb(e);
   if (!cb->es.active) {
      soft_cmdbuf_fail(cb, "%s: the compute encoder has ended", what);
      return NULL;
   }
   return &cb->es;
}

/* A shared rule's verdict: false (and the buffer failed) if it is broken. */
static bool rule(soft_cmdbuf *cb, bool holds, const char *msg)
{
   if (!holds)
      soft_cmdbuf_fail(cb, "%s", msg);
   return holds;
}

static bool check_index(soft_cmdbuf *cb, const char *what, uint32_t index)
{
   char msg[MTL_MSG_MAX];
   return rule(cb, mtl_check_index(what, index, msg), msg);
}

mtl_encoder *soft_cmdbuf_compute_encoder(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = (soft_cmdbuf *)c;
   if (cb->es.active || cb->blit_active)
      soft_cmdbuf_fail(cb, "computeCommandEncoder: the previous encoder was not ended");
   soft_encoder_reset(&cb->es);
   cb->es.active = true;
   return &cb->enc;
}

void soft_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *p)
{
   soft_encoder_state *es = open_state(e, "setComputePipelineState");
   if (es)
      es->pipe = (soft_pipeline *)p;
}

void soft_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index)
{
   soft_cmdbuf *cb = enc_cb(e);
   soft_encoder_state *es = open_state(e, "setBytes");
   char msg[MTL_MSG_MAX];
   if (!es || !check_index(cb, "setBytes", index) ||
       !rule(cb, mtl_check_set_bytes(length, msg), msg))
      return;
   if (es->bytes[index] && es->bytes_len[index] == length) {
      /* the same size as last time (a graph's dispatches): reuse the copy */
      memcpy(es->bytes[index], bytes, length);
      es->buf[index] = NULL;
      return;
   }
   uint8_t *copy = mc_malloc(length ? length : 1);
   if (!copy) {
      soft_cmdbuf_fail(cb, "out of memory in setBytes");
      return;
   }
   memcpy(copy, bytes, length);
   free(es->bytes[index]);
   es->bytes[index] = copy;
   es->bytes_len[index] = length;
   es->buf[index] = NULL;
}

void soft_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index)
{
   soft_cmdbuf *cb = enc_cb(e);
   soft_encoder_state *es = open_state(e, "setBuffer");
   if (!es || !check_index(cb, "setBuffer", index))
      return;
   soft_buffer *b = (soft_buffer *)buf;
   char msg[MTL_MSG_MAX];
   if (b && !rule(cb, mtl_check_set_buffer(offset, b->length, msg), msg))
      return;
   free(es->bytes[index]);
   es->bytes[index] = NULL;
   es->bytes_len[index] = 0;
   es->buf[index] = b;
   es->buf_off[index] = offset;
}

void soft_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index)
{
   soft_cmdbuf *cb = enc_cb(e);
   soft_encoder_state *es = open_state(e, "setThreadgroupMemoryLength");
   char msg[MTL_MSG_MAX];
   if (!es || !check_index(cb, "setThreadgroupMemoryLength", index) ||
       !rule(cb, mtl_check_threadgroup_length(length, msg), msg))
      return;
   es->tg_len[index] = (uint32_t)length;
}

void soft_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf)
{
   /* Every buffer is always resident in the software device; raw GPU
    * addresses work whether or not useResource was called. */
   (void)open_state(e, "useResource");
   (void)buf;
}

void soft_encoder_memory_barrier(mtl_encoder *e)
{
   /* Dispatches are serial: each completes before the next starts. */
   (void)open_state(e, "memoryBarrier");
}

void soft_encoder_end(mtl_encoder *e)
{
   soft_cmdbuf *cb = enc_cb(e);
   if (!cb->es.active) {
      soft_cmdbuf_fail(cb, "endEncoding: the compute encoder has already ended");
      return;
   }
   soft_encoder_reset(&cb->es);
}

/* ---- dispatch ---- */

static bool check_dispatch(soft_cmdbuf *cb, const soft_encoder_state *es, mtl_size g, mtl_size t)
{
   const soft_pipeline *p = es->pipe;
   mtl_kernel_facts k = {0};
   uint32_t bound = 0;
   if (p)
      k = (mtl_kernel_facts){p->name, p->info.max_threads, p->info.static_tg_bytes,
                             p->info.buffer_mask, p->info.tg_mask};
   for (int i = 0; i < SOFT_MAX_BUFFERS; i++)
      bound |= (uint32_t)(es->buf[i] || es->bytes[i]) << i;
   char msg[MTL_MSG_MAX];
   return rule(cb, mtl_check_dispatch(p ? &k : NULL, g, t, bound, es->tg_len, msg), msg);
}

/* The bytes the setBytes copies of a dispatch take: 64-byte aligned each,
 * as a buffer's contents are (a kernel may read a 32-byte vector, ulong4,
 * from setBytes data with an aligned load). */
static size_t bytes_total(const soft_encoder_state *es)
{
   size_t total = 0;
   for (int i = 0; i < SOFT_MAX_BUFFERS; i++)
      if (es->bytes[i])
         total += ALIGN_UP(es->bytes_len[i] ? es->bytes_len[i] : 1, 64);
   return total;
}

/* setBytes copies go into the command's own allocation (c->d.bytes). */
static bool bind_arguments(soft_cmdbuf *cb, const soft_encoder_state *es, soft_cmd *c)
{
   size_t off = 0;
   for (int i = 0; i < SOFT_MAX_BUFFERS; i++) {
      if (es->bytes[i]) {
         memcpy(c->d.bytes + off, es->bytes[i], es->bytes_len[i]);
         c->d.launch.buffers[i] = c->d.bytes + off;
         c->d.launch.lengths[i] = es->bytes_len[i];
         off += ALIGN_UP(es->bytes_len[i] ? es->bytes_len[i] : 1, 64);
      } else if (es->buf[i]) {
         c->d.launch.buffers[i] = es->buf[i]->gpu + es->buf_off[i];
         c->d.launch.lengths[i] = es->buf_off[i] < es->buf[i]->length ? es->buf[i]->length - es->buf_off[i] : 0;
         c->retained[i] = es->buf[i];
         soft_buffer_retain(es->buf[i]);
      }
      c->d.tg_len[i] = es->tg_len[i];
   }
   return true;
}

static void dispatch(mtl_encoder *e, mtl_size groups, mtl_size threads, bool coresident)
{
   soft_cmdbuf *cb = enc_cb(e);
   soft_encoder_state *es = open_state(e, "dispatchThreadgroups");
   if (!es)
      return;
   soft_pipeline *p = es->pipe;
   if (!check_dispatch(cb, es, groups, threads))
      return;
   soft_cmd *c = soft_cmdbuf_add_extra(cb, CMD_DISPATCH, bytes_total(es));
   if (!c)
      return;
   c->d.pipe = p;
   soft_pipeline_retain(p);
   soft_launch *L = &c->d.launch;
   L->grid[0] = groups.width, L->grid[1] = groups.height, L->grid[2] = groups.depth;
   L->tpg[0] = threads.width, L->tpg[1] = threads.height, L->tpg[2] = threads.depth;
   L->nthreads = threads.width * threads.height * threads.depth;
   c->d.coresident = coresident;
   bind_arguments(cb, es, c);
}

void soft_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads)
{
   dispatch(e, groups, threads, false);
}

void soft_encoder_dispatch_coresident(mtl_encoder *e, mtl_size groups, mtl_size threads)
{
   dispatch(e, groups, threads, true);
}

/* ---- blit ---- */

mtl_blit *soft_cmdbuf_blit_encoder(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = (soft_cmdbuf *)c;
   if (cb->es.active || cb->blit_active)
      soft_cmdbuf_fail(cb, "blitCommandEncoder: the previous encoder was not ended");
   soft_encoder_reset(&cb->es);
   cb->blit_active = true;
   return &cb->blit;
}

static bool blit_range(soft_cmdbuf *cb, const char *what, const soft_buffer *b, size_t off, size_t len)
{
   if (!cb->blit_active) {
      soft_cmdbuf_fail(cb, "%s: the blit encoder has ended", what);
      return false;
   }
   char msg[MTL_MSG_MAX];
   return rule(cb, mtl_check_range(what, off, len, b->length, msg), msg);
}

void soft_blit_copy(mtl_blit *bl, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                    size_t dst_offset, size_t size)
{
   soft_cmdbuf *cb = blit_cb(bl);
   soft_buffer *s = (soft_buffer *)src, *d = (soft_buffer *)dst;
   if (!blit_range(cb, "copyFromBuffer (source)", s, src_offset, size) ||
       !blit_range(cb, "copyFromBuffer (destination)", d, dst_offset, size))
      return;
   soft_cmd *c = soft_cmdbuf_add(cb, CMD_COPY);
   if (!c)
      return;
   c->src = s, c->dst = d;
   soft_buffer_retain(s);
   soft_buffer_retain(d);
   c->src_off = src_offset, c->dst_off = dst_offset, c->size = size;
}

void soft_blit_fill(mtl_blit *bl, mtl_buffer *buf, size_t offset, size_t length, uint8_t value)
{
   soft_cmdbuf *cb = blit_cb(bl);
   soft_buffer *b = (soft_buffer *)buf;
   if (!blit_range(cb, "fillBuffer", b, offset, length))
      return;
   soft_cmd *c = soft_cmdbuf_add(cb, CMD_FILL);
   if (!c)
      return;
   c->dst = b;
   soft_buffer_retain(b);
   c->dst_off = offset, c->size = length, c->value = value;
}

void soft_blit_end(mtl_blit *bl)
{
   soft_cmdbuf *cb = blit_cb(bl);
   if (!cb->blit_active)
      soft_cmdbuf_fail(cb, "endEncoding: the blit encoder has already ended");
   cb->blit_active = false;
}
