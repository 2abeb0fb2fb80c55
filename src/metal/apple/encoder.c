/*
 * encoder.c — compute and blit encoders: recording with Metal's encoding
 * rules checked.
 *
 * Encoders are not Metal encoders yet: each call is checked by the rules
 * the software device enforces (../validate.c, same messages; the encoder
 * state machine below uses the same words as soft/encoder.c) and recorded
 * as an op; queue.c replays the ops into a real MTLCommandBuffer at
 * commit.  A broken rule fails the command buffer and records nothing.
 * Ops retain the Metal objects they name, so callers may release buffers
 * and pipelines as soon as they have encoded them.
 */
#include "apple.h"

#include <stdlib.h>
#include <string.h>

static apple_cmdbuf *enc_cb(mtl_encoder *e)
{
   return (apple_cmdbuf *)((char *)e - offsetof(apple_cmdbuf, enc));
}

static apple_cmdbuf *blit_cb(mtl_blit *b)
{
   return (apple_cmdbuf *)((char *)b - offsetof(apple_cmdbuf, blit));
}

void apple_encoder_reset(apple_encoder_state *es)
{
   if (es->pipe)
      apple_pipeline_unref(es->pipe);
   memset(es, 0, sizeof(*es));
}

/* A shared rule's verdict: false (and the buffer failed) if it is broken. */
static bool rule(apple_cmdbuf *cb, bool holds, const char *msg)
{
   if (!holds)
      apple_cmdbuf_fail(cb, "%s", msg);
   return holds;
}

/* The command buffer if its compute encoder is open; else it fails. */
static apple_cmdbuf *open_compute(mtl_encoder *e, const char *what)
{
   apple_cmdbuf *cb = enc_cb(e);
   if (cb->es.compute_open)
      return cb;
   apple_cmdbuf_fail(cb, "%s: the compute encoder has ended", what);
   return NULL;
}

static bool check_index(apple_cmdbuf *cb, const char *what, uint32_t index)
{
   char msg[MTL_MSG_MAX];
   return rule(cb, mtl_check_index(what, index, msg), msg);
}

/* Starts an encoder of either kind: records its boundary. */
static void begin(apple_cmdbuf *cb, apple_op_kind kind, const char *what)
{
   if (cb->es.compute_open || cb->es.blit_open)
      apple_cmdbuf_fail(cb, "%s: the previous encoder was not ended", what);
   apple_encoder_reset(&cb->es);
   cb->es.compute_open = kind == OP_COMPUTE;
   cb->es.blit_open = kind == OP_BLIT;
   apple_cmdbuf_add(cb, kind, 0);
}

mtl_encoder *apple_cmdbuf_compute_encoder(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = (apple_cmdbuf *)c;
   begin(cb, OP_COMPUTE, "computeCommandEncoder");
   return &cb->enc;
}

void apple_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *mp)
{
   apple_cmdbuf *cb = open_compute(e, "setComputePipelineState");
   if (!cb)
      return;
   apple_pipeline *p = (apple_pipeline *)mp;
   apple_op *op = apple_cmdbuf_add(cb, OP_PIPELINE, 0);
   if (!op)
      return;
   op->obj = apple_retain(p->pso);
   apple_pipeline_retain(p);
   if (cb->es.pipe)
      apple_pipeline_unref(cb->es.pipe);
   cb->es.pipe = p;
}

void apple_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index)
{
   apple_cmdbuf *cb = open_compute(e, "setBytes");
   char msg[MTL_MSG_MAX];
   if (!cb || !check_index(cb, "setBytes", index) ||
       !rule(cb, mtl_check_set_bytes(length, msg), msg))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_BYTES, length);
   if (!op)
      return;
   if (length)
      memcpy(op->bytes, bytes, length);
   op->len = length;
   op->index = index;
   cb->es.bound |= 1u << index;
}

void apple_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index)
{
   apple_cmdbuf *cb = open_compute(e, "setBuffer");
   apple_buffer *b = (apple_buffer *)buf;
   char msg[MTL_MSG_MAX];
   if (!cb || !check_index(cb, "setBuffer", index) ||
       (b && !rule(cb, mtl_check_set_buffer(offset, b->length, msg), msg)))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_BUFFER, 0);
   if (!op)
      return;
   op->obj = b ? apple_retain(b->buf) : NULL;   /* setBuffer:nil unbinds */
   op->off = offset;
   op->index = index;
   if (b)
      cb->es.bound |= 1u << index;
   else
      cb->es.bound &= ~(1u << index);
}

void apple_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index)
{
   apple_cmdbuf *cb = open_compute(e, "setThreadgroupMemoryLength");
   char msg[MTL_MSG_MAX];
   if (!cb || !check_index(cb, "setThreadgroupMemoryLength", index) ||
       !rule(cb, mtl_check_threadgroup_length(length, msg), msg))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_TG_LENGTH, 0);
   if (!op)
      return;
   op->len = length;
   op->index = index;
   cb->es.tg_len[index] = (uint32_t)length;
}

void apple_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf)
{
   apple_cmdbuf *cb = open_compute(e, "useResource");
   if (((apple_buffer *)buf)->in_set)   /* resident through the queue's residency set */
      return;
   apple_op *op = cb ? apple_cmdbuf_add(cb, OP_USE, 0) : NULL;
   if (op)
      op->obj = apple_retain(((apple_buffer *)buf)->buf);
}

void apple_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads)
{
   apple_cmdbuf *cb = open_compute(e, "dispatchThreadgroups");
   if (!cb)
      return;
   const apple_encoder_state *es = &cb->es;
   char msg[MTL_MSG_MAX];
   if (!rule(cb, mtl_check_dispatch(es->pipe ? &es->pipe->facts : NULL, groups, threads,
                                    es->bound, es->tg_len, msg), msg))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_DISPATCH, 0);
   if (op)
      op->groups = groups, op->threads = threads;
}

void apple_encoder_memory_barrier(mtl_encoder *e)
{
   apple_cmdbuf *cb = open_compute(e, "memoryBarrier");
   if (cb)
      apple_cmdbuf_add(cb, OP_BARRIER, 0);
}

void apple_encoder_end(mtl_encoder *e)
{
   apple_cmdbuf *cb = enc_cb(e);
   if (!cb->es.compute_open) {
      apple_cmdbuf_fail(cb, "endEncoding: the compute encoder has already ended");
      return;
   }
   apple_encoder_reset(&cb->es);
   apple_cmdbuf_add(cb, OP_END, 0);
}

/* ---- blit ---- */

mtl_blit *apple_cmdbuf_blit_encoder(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = (apple_cmdbuf *)c;
   begin(cb, OP_BLIT, "blitCommandEncoder");
   return &cb->blit;
}

static bool blit_range(apple_cmdbuf *cb, const char *what, const apple_buffer *b, size_t off,
                       size_t len)
{
   if (!cb->es.blit_open) {
      apple_cmdbuf_fail(cb, "%s: the blit encoder has ended", what);
      return false;
   }
   char msg[MTL_MSG_MAX];
   return rule(cb, mtl_check_range(what, off, len, b->length, msg), msg);
}

void apple_blit_copy(mtl_blit *bl, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                     size_t dst_offset, size_t size)
{
   apple_cmdbuf *cb = blit_cb(bl);
   apple_buffer *s = (apple_buffer *)src, *d = (apple_buffer *)dst;
   if (!blit_range(cb, "copyFromBuffer (source)", s, src_offset, size) ||
       !blit_range(cb, "copyFromBuffer (destination)", d, dst_offset, size))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_COPY, 0);
   if (!op)
      return;
   op->obj = apple_retain(s->buf);
   op->obj2 = apple_retain(d->buf);
   op->off = src_offset, op->off2 = dst_offset, op->len = size;
}

void apple_blit_fill(mtl_blit *bl, mtl_buffer *buf, size_t offset, size_t length, uint8_t value)
{
   apple_cmdbuf *cb = blit_cb(bl);
   apple_buffer *b = (apple_buffer *)buf;
   if (!blit_range(cb, "fillBuffer", b, offset, length))
      return;
   apple_op *op = apple_cmdbuf_add(cb, OP_FILL, 0);
   if (!op)
      return;
   op->obj = apple_retain(b->buf);
   op->off = offset, op->len = length, op->value = value;
}

void apple_blit_end(mtl_blit *bl)
{
   apple_cmdbuf *cb = blit_cb(bl);
   if (!cb->es.blit_open) {
      apple_cmdbuf_fail(cb, "endEncoding: the blit encoder has already ended");
      return;
   }
   cb->es.blit_open = false;
   apple_cmdbuf_add(cb, OP_END, 0);
}
