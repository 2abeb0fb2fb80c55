/*
 * queue.c — command queues and command buffers: recording, replay into
 * Metal at commit, completion.
 *
 * Why record and replay.  An mtl_cmdbuf records its commands (encoder.c)
 * and only at commit creates the MTLCommandBuffer and encodes them.  This
 * gives the software device's failure semantics exactly: when an encoding
 * rule is broken, nothing of the buffer runs, but its event signals and
 * waits still do (in order), so other queues waiting on it do not hang;
 * the buffer then completes with MTL_CMDBUF_ERROR and the rule's message.
 * Encoding straight into Metal could not take back the dispatches encoded
 * before the broken rule.  The cost is one copy of setBytes data, as on
 * the software device.
 *
 * Submissions (../batch.c, issue 15 finding 8): a committed buffer goes
 * to the queue's batcher, which keeps at most MTL_SUBMISSIONS_IN_FLIGHT
 * MTLCommandBuffers running and replays what was committed meanwhile, in
 * commit order, into one MTLCommandBuffer as soon as one completes.  Metal
 * runs a queue's command buffers in the order they are committed, and the
 * batcher submits one at a time, so commit order is execution order.
 * [queue commandBuffer] blocks while the queue has 64 command buffers in
 * flight, until one completes; the batcher never lets that happen, and no
 * lock is held while it is called (creating it under the queue's lock, a
 * lock completion takes, deadlocked a loop of more than 64 launches).
 * Nothing here blocks in Metal while holding a lock the completion path
 * needs.  Metal reports the failure of a whole MTLCommandBuffer; asked
 * (errorOptions = encoderExecutionStatus) it also says which encoder
 * faulted, each encoder being labelled with its member: the members
 * before it completed, the later ones did not run, as on the software
 * device.  When it does not say, every member fails, its text saying so.

 * A command buffer that fails while running (a fault, the GPU watchdog,
 * submissions refused after repeated faults) never reaches the event
 * signals encoded after its work, and anything waiting on them (another
 * stream, a host wait) would wait forever.  So completion signals them
 * itself from the host when the buffer failed, never lowering a value
 * (issue 15, finding 9).
 *
 * Completion: one block per submission (objc.c builds it) is added
 * before the commit.  On Metal's completion thread it records, for each
 * member in order, the final status, the error text and the GPU times
 * (the submission's), runs the mtl completion handlers in the order they
 * were added and wakes waiters; then lets the next submission go, and
 * drops the references that kept the members and their queue alive.  Waiting
 * uses our own condition variable rather than waitUntilCompleted, so that
 * a wait returns only after the handlers have run, as on the software
 * device.
 */
#include "apple.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(apple);

struct apple_queue {
   struct mtl_queue base;
   id q;                          /* id<MTLCommandQueue>, owned */
   pthread_mutex_t lock;          /* pending */
   pthread_cond_t cv;
   uint32_t pending;              /* committed, not completed */
   mtl_batcher batch;             /* committed, not yet submitted (../batch.c) */
};

static apple_queue *as_queue(mtl_queue *q) { return (apple_queue *)q; }
static apple_cmdbuf *as_cb(mtl_cmdbuf *c) { return (apple_cmdbuf *)c; }

/* ---- recording ---- */

void apple_cmdbuf_fail(apple_cmdbuf *cb, const char *fmt, ...)
{
   pthread_mutex_lock(&cb->lock);
   if (!cb->error) {
      strbuf b;
      strbuf_init(&b);
      va_list ap;
      va_start(ap, fmt);
      strbuf_vprintf(&b, fmt, ap);
      va_end(ap);
      cb->error = strbuf_take(&b);
      if (!cb->error)
         cb->error = strdup("out of memory");
      cb->encode_failed = cb->status == MTL_CMDBUF_NOT_ENQUEUED;
      LOG_INFO("command buffer %p: %s", (void *)cb, cb->error ? cb->error : "error");
   }
   pthread_mutex_unlock(&cb->lock);
}

apple_op *apple_cmdbuf_add(apple_cmdbuf *cb, apple_op_kind kind, size_t extra)
{
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("encoding into a command buffer that was already committed");
      return NULL;
   }
   apple_op *op = mc_calloc(1, sizeof(*op) + extra);
   if (!op) {
      apple_cmdbuf_fail(cb, "out of memory encoding a command");
      return NULL;
   }
   op->kind = kind;
   *cb->tail = op;
   cb->tail = &op->next;
   return op;
}

void apple_op_free(apple_op *op)
{
   apple_release(op->obj);
   apple_release(op->obj2);
   free(op);
}

mtl_cmdbuf *apple_cmdbuf_new(mtl_queue *mq, char **err)
{
   apple_cmdbuf *cb = mc_calloc(1, sizeof(*cb));
   if (!cb) {
      mtl_set_err(err, "out of memory creating a command buffer");
      return NULL;
   }
   mtl_device *dev = mq->obj.dev;
   cb->base.obj = (mtl_obj){MTL_MAGIC_CMDBUF, dev};
   cb->enc.obj = (mtl_obj){MTL_MAGIC_ENCODER, dev};
   cb->blit.obj = (mtl_obj){MTL_MAGIC_BLIT, dev};
   cb->q = as_queue(mq);
   cb->refs = 1;
   cb->tail = &cb->head;
   cb->status = MTL_CMDBUF_NOT_ENQUEUED;
   pthread_mutex_init(&cb->lock, NULL);
   pthread_cond_init(&cb->cv, NULL);
   return &cb->base;
}

static void cmdbuf_unref(apple_cmdbuf *cb)
{
   if (--cb->refs > 0)
      return;
   void *pool = apple_pool_push();
   for (apple_op *op = cb->head, *n; op; op = n) {
      n = op->next;
      apple_op_free(op);
   }
   apple_encoder_reset(&cb->es);
   apple_release(cb->cb);
   apple_pool_pop(pool);
   pthread_mutex_destroy(&cb->lock);
   pthread_cond_destroy(&cb->cv);
   free(cb->handlers);
   free(cb->error);
   cb->base.obj.magic = MTL_MAGIC_DEAD;
   free(cb);
}

void apple_cmdbuf_release(mtl_cmdbuf *c) { cmdbuf_unref(as_cb(c)); }

void apple_cmdbuf_add_completed_handler(mtl_cmdbuf *c, mtl_completed_fn fn, void *data)
{
   apple_cmdbuf *cb = as_cb(c);
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("completion handler added after commit: ignored (Metal forbids this)");
      return;
   }
   apple_handler *h = mc_realloc(cb->handlers, (cb->nhandlers + 1) * sizeof(*h));
   if (!h) {
      apple_cmdbuf_fail(cb, "out of memory adding a completion handler");
      return;
   }
   cb->handlers = h;
   h[cb->nhandlers++] = (apple_handler){fn, data};
}

static void encode_event(apple_cmdbuf *cb, apple_op_kind kind, mtl_event *e, uint64_t value)
{
   if (cb->es.compute_open || cb->es.blit_open) {
      apple_cmdbuf_fail(cb, "%s: an encoder is still open (call end first)",
                        kind == OP_SIGNAL ? "encodeSignalEvent" : "encodeWaitForEvent");
      return;
   }
   apple_op *op = apple_cmdbuf_add(cb, kind, 0);
   if (!op)
      return;
   op->obj = apple_retain(((apple_event *)e)->ev);
   op->value = value;
}

void apple_cmdbuf_encode_signal_event(mtl_cmdbuf *c, mtl_event *ev, uint64_t value)
{
   encode_event(as_cb(c), OP_SIGNAL, ev, value);
}

void apple_cmdbuf_encode_wait_event(mtl_cmdbuf *c, mtl_event *ev, uint64_t value)
{
   encode_event(as_cb(c), OP_WAIT, ev, value);
}

/* ---- replay ---- */

/* One compute op into the open MTLComputeCommandEncoder. */
static void replay_compute(id enc, const apple_op *op)
{
   const apple_sels *S = &apple_sel;
   switch (op->kind) {
   case OP_PIPELINE:
      apple_void_id(enc, S->setComputePipelineState, op->obj);
      break;
   case OP_BYTES:
      APPLE_SEND(void (*)(id, SEL, const void *, NSUInteger, NSUInteger), enc,
                 S->setBytes_length_atIndex, op->bytes, (NSUInteger)op->len, (NSUInteger)op->index);
      break;
   case OP_BUFFER:
      APPLE_SEND(void (*)(id, SEL, id, NSUInteger, NSUInteger), enc, S->setBuffer_offset_atIndex,
                 op->obj, (NSUInteger)op->off, (NSUInteger)op->index);
      break;
   case OP_TG_LENGTH:
      APPLE_SEND(void (*)(id, SEL, NSUInteger, NSUInteger), enc,
                 S->setThreadgroupMemoryLength_atIndex, (NSUInteger)op->len, (NSUInteger)op->index);
      break;
   case OP_USE:
      APPLE_SEND(void (*)(id, SEL, id, NSUInteger), enc, S->useResource_usage, op->obj,
                 (NSUInteger)(APPLE_RESOURCE_USAGE_READ | APPLE_RESOURCE_USAGE_WRITE));
      break;
   case OP_DISPATCH: {
      apple_mtl_size g = {op->groups.width, op->groups.height, op->groups.depth};
      apple_mtl_size t = {op->threads.width, op->threads.height, op->threads.depth};
      APPLE_SEND(void (*)(id, SEL, apple_mtl_size, apple_mtl_size), enc, S->dispatchThreadgroups,
                 g, t);
      break;
   }
   case OP_BARRIER:
      APPLE_SEND(void (*)(id, SEL, NSUInteger), enc, S->memoryBarrierWithScope,
                 (NSUInteger)APPLE_BARRIER_SCOPE_BUFFERS);
      break;
   default:
      break;
   }
}

/* One blit op into the open MTLBlitCommandEncoder. */
static void replay_blit(id enc, const apple_op *op)
{
   if (op->kind == OP_COPY) {
      APPLE_SEND(void (*)(id, SEL, id, NSUInteger, id, NSUInteger, NSUInteger), enc,
                 apple_sel.copyFromBuffer, op->obj, (NSUInteger)op->off, op->obj2,
                 (NSUInteger)op->off2, (NSUInteger)op->len);
   } else if (op->kind == OP_FILL) {
      apple_ns_range r = {op->off, op->len};
      APPLE_SEND(void (*)(id, SEL, id, apple_ns_range, uint8_t), enc,
                 apple_sel.fillBuffer_range_value, op->obj, r, (uint8_t)op->value);
   }
}

static void replay_event(id mcb, const apple_op *op)
{
   SEL s = op->kind == OP_SIGNAL ? apple_sel.encodeSignalEvent_value
                                 : apple_sel.encodeWaitForEvent_value;
   APPLE_SEND(void (*)(id, SEL, id, uint64_t), mcb, s, op->obj, op->value);
}

/* Labels an encoder with its member's index in the submission, by which
 * a failed submission's encoder states name the member (faulted_member). */
static void label_encoder(id enc, uint32_t member)
{
   char text[32];
   snprintf(text, sizeof(text), "metalcuda %u", member);
   id label = apple_string_new(text);
   if (label) {
      apple_void_id(enc, apple_sel.setLabel, label);
      apple_release(label);
   }
}

/* Encodes the recorded ops into mcb: all of them, or after an encoding
 * error only the event signals and waits.  The recording is well formed
 * when there is no error (encoder.c), so every op between OP_COMPUTE or
 * OP_BLIT and OP_END belongs to that encoder.  member: cb's index in the
 * submission. */
static void replay(apple_cmdbuf *cb, id mcb, uint32_t member)
{
   id enc = NULL;               /* the open encoder, +0 (its pool is ours) */
   bool compute = false;
   for (const apple_op *op = cb->head; op; op = op->next) {
      if (op->kind == OP_SIGNAL || op->kind == OP_WAIT) {
         replay_event(mcb, op);
      } else if (cb->encode_failed) {
         continue;
      } else if (op->kind == OP_COMPUTE || op->kind == OP_BLIT) {
         compute = op->kind == OP_COMPUTE;
         enc = apple_id(mcb, compute ? apple_sel.computeCommandEncoder
                                     : apple_sel.blitCommandEncoder);
         if (!enc)
            apple_cmdbuf_fail(cb, "%s: Metal returned no encoder",
                              compute ? "computeCommandEncoder" : "blitCommandEncoder");
         else
            label_encoder(enc, member);
      } else if (op->kind == OP_END) {
         if (enc)
            apple_void(enc, apple_sel.endEncoding);
         enc = NULL;
      } else if (enc) {
         (compute ? replay_compute : replay_blit)(enc, op);
      }
   }
}

/* ---- completion ---- */

static mtl_cmdbuf_status live_status(NSUInteger s)
{
   return s <= APPLE_CMDBUF_COMMITTED ? MTL_CMDBUF_COMMITTED : MTL_CMDBUF_SCHEDULED;
}

/* Which member of a failed submission caused the failure, from the
 * encoders' execution states Metal keeps when asked (errorOptions =
 * encoderExecutionStatus, new_command_buffer): the label of the encoder in
 * state Faulted; -1 if Metal does not say. */
static int faulted_member(id mcb)
{
   id error = apple_id(mcb, apple_sel.error);
   id info = error && apple_responds(error, apple_sel.userInfo) ? apple_id(error, apple_sel.userInfo) : NULL;
   id list = info ? apple_id_id(info, apple_sel.objectForKey, MTLCommandBufferEncoderInfoErrorKey) : NULL;
   NSUInteger n = list ? apple_uint(list, apple_sel.count) : 0;
   for (NSUInteger i = 0; i < n; i++) {
      id e = APPLE_SEND(id (*)(id, SEL, NSUInteger), list, apple_sel.objectAtIndex, i);
      if (!e || apple_int(e, apple_sel.errorState) != APPLE_ENCODER_STATE_FAULTED)
         continue;
      char *label = apple_string_copy(apple_id(e, apple_sel.label));
      unsigned m;
      int r = label && sscanf(label, "metalcuda %u", &m) == 1 ? (int)m : -1;
      free(label);
      if (r >= 0)
         return r;
   }
   return -1;
}

/* Final status, error text and times of member `member` of a submission
 * of n, read from the finished mcb.  When it failed, Metal says which
 * member caused it if it can (`faulted`, else -1): the members before it
 * completed, the later ones did not run (as on the software device);
 * else every member that had work in it fails, its text saying so. */
static void finish(apple_cmdbuf *cb, id mcb, uint32_t n, uint32_t member, int faulted)
{
   NSUInteger s = mcb ? apple_uint(mcb, apple_sel.status) : APPLE_CMDBUF_ERROR;
   char *text = NULL;
   mtl_cmdbuf_failure kind = cb->encode_failed ? MTL_FAILURE_ENCODING : MTL_FAILURE_NONE;
   if (s == APPLE_CMDBUF_ERROR && !(faulted >= 0 && (int)member < faulted)) {
      id error = mcb ? apple_id(mcb, apple_sel.error) : NULL;
      text = apple_error_text(error, "the command buffer failed");
      const char *note = NULL;
      if (faulted >= 0 && (int)member > faulted)
         note = "not run: an earlier command buffer of the same submission failed";
      else if (faulted < 0 && n > 1)
         note = "Metal ran this command buffer in one submission with others and does not say which failed";
      if (note && text) {
         strbuf b;
         strbuf_init(&b);
         strbuf_printf(&b, "%s (%s; %u in the submission)", text, note, n);
         char *t = strbuf_take(&b);
         if (t)
            free(text), text = t;
      }
      NSInteger code = error ? apple_int(error, apple_sel.code) : 0;
      if (!kind)
         kind = code == APPLE_CMDBUF_ERROR_TIMEOUT ? MTL_FAILURE_TIMEOUT
              : code == APPLE_CMDBUF_ERROR_ACCESS_REVOKED || code == APPLE_CMDBUF_ERROR_NOT_PERMITTED
                 ? MTL_FAILURE_REFUSED : MTL_FAILURE_EXECUTION;
   }
   pthread_mutex_lock(&cb->lock);
   cb->failure = kind;
   if (text && !cb->error)
      cb->error = text, text = NULL;
   cb->start = mcb ? apple_double(mcb, apple_sel.GPUStartTime) : 0;
   cb->end = mcb ? apple_double(mcb, apple_sel.GPUEndTime) : 0;
   cb->status = cb->error ? MTL_CMDBUF_ERROR : MTL_CMDBUF_COMPLETED;
   cb->finished = true;
   pthread_mutex_unlock(&cb->lock);
   free(text);
}

/* A failed buffer's event signals, from the host (see the top). */
static void signal_after_failure(apple_cmdbuf *cb)
{
   for (const apple_op *op = cb->head; op; op = op->next)
      if (op->kind == OP_SIGNAL && apple_u64(op->obj, apple_sel.signaledValue) < op->value)
         APPLE_SEND(void (*)(id, SEL, uint64_t), op->obj, apple_sel.setSignaledValue, op->value);
}

static apple_cmdbuf *link_cb(mtl_batch_link *l)
{
   return l ? (apple_cmdbuf *)((char *)l - offsetof(apple_cmdbuf, link)) : NULL;
}

/* The end of one member of a finished submission.  Every member of a
 * failed one gives its signals from the host (those Metal ran stay). */
static void member_completed(apple_cmdbuf *cb, id mcb, uint32_t n, uint32_t member, int faulted, bool failed)
{
   finish(cb, mcb, n, member, faulted);
   if (failed || cb->status == MTL_CMDBUF_ERROR)
      signal_after_failure(cb);
   for (uint32_t i = 0; i < cb->nhandlers; i++)
      cb->handlers[i].fn(&cb->base, cb->handlers[i].data);
   pthread_mutex_lock(&cb->lock);
   cb->done = true;
   pthread_cond_broadcast(&cb->cv);
   pthread_mutex_unlock(&cb->lock);
}

/* The end of a submission, on Metal's completion thread (or the
 * submitting thread if Metal gave no command buffer): every member in
 * commit order, then the next submission may go (../batch.c). */
static void completed(apple_cmdbuf *first, id mcb)
{
   void *pool = apple_pool_push();
   apple_queue *q = first->q;
   uint32_t n = first->sub_n, member = 0;
   bool failed = !mcb || apple_uint(mcb, apple_sel.status) == APPLE_CMDBUF_ERROR;
   int faulted = failed && mcb && n > 1 ? faulted_member(mcb) : -1;
   for (apple_cmdbuf *cb = first; cb; cb = link_cb(cb->link.next))
      member_completed(cb, mcb, n, member++, faulted, failed);
   apple_pool_pop(pool);
   mtl_batcher_completed(&q->batch);
   for (apple_cmdbuf *cb = first, *next; cb; cb = next) {
      next = link_cb(cb->link.next);
      cmdbuf_unref(cb);            /* the reference taken at commit */
   }
   pthread_mutex_lock(&q->lock);
   q->pending -= n;
   pthread_cond_broadcast(&q->cv);
   pthread_mutex_unlock(&q->lock);
}

/* The block's invoke: void (^)(id<MTLCommandBuffer>). */
static void completed_block(apple_block *self, id mcb) { completed(self->data, mcb); }

/* ---- submission ---- */

/* A command buffer that keeps its encoders' execution states on failure
 * (MTLCommandBufferDescriptor.errorOptions = encoderExecutionStatus,
 * macOS 11), else a plain one; +0. */
static id new_command_buffer(apple_queue *q)
{
   id cls = (id)objc_getClass("MTLCommandBufferDescriptor");
   id desc = cls && apple_responds(q->q, apple_sel.commandBufferWithDescriptor)
                ? apple_id(apple_id(cls, apple_sel.alloc), apple_sel.init) : NULL;
   if (!desc)
      return apple_id(q->q, apple_sel.commandBuffer);
   APPLE_SEND(void (*)(id, SEL, NSUInteger), desc, apple_sel.setErrorOptions,
              (NSUInteger)APPLE_CMDBUF_ERROR_OPTION_ENCODER_STATUS);
   id mcb = apple_id_id(q->q, apple_sel.commandBufferWithDescriptor, desc);
   apple_release(desc);
   return mcb;
}

/* ../batch.c's submit: n committed members as one MTLCommandBuffer, in
 * order, with one completion block.  Runs with no lock held: [queue
 * commandBuffer] blocks only at 64 buffers in flight, and the batcher
 * keeps at most MTL_SUBMISSIONS_IN_FLIGHT. */
static void submit(void *owner, mtl_batch_link *first_link, uint32_t n)
{
   apple_queue *q = owner;
   apple_cmdbuf *first = link_cb(first_link);
   first->sub_n = n;
   void *pool = apple_pool_push();
   id mcb = new_command_buffer(q);
   uint32_t member = 0;
   for (apple_cmdbuf *cb = first; cb; cb = link_cb(cb->link.next)) {
      if (mcb)
         replay(cb, mcb, member++);
      pthread_mutex_lock(&cb->lock);
      cb->cb = apple_retain(mcb);
      pthread_mutex_unlock(&cb->lock);
   }
   if (mcb) {
      apple_block blk;             /* Metal copies it */
      apple_block_init(&blk, completed_block, first);
      APPLE_SEND(void (*)(id, SEL, void *), mcb, apple_sel.addCompletedHandler, &blk);
      apple_void(mcb, apple_sel.commit);
   }
   apple_pool_pop(pool);
   if (!mcb) {
      for (apple_cmdbuf *cb = first; cb; cb = link_cb(cb->link.next))
         apple_cmdbuf_fail(cb, "commandBuffer: Metal returned no command buffer");
      completed(first, NULL);
   }
}

/* What ../batch.c needs to know of a committed buffer. */
static void describe(apple_cmdbuf *cb)
{
   bool work = false;
   cb->link = (mtl_batch_link){0};
   for (const apple_op *op = cb->head; op; op = op->next) {
      if (op->kind == OP_DISPATCH) {
         cb->link.dispatches++;
         cb->link.groups += (uint64_t)op->groups.width * op->groups.height * op->groups.depth;
      }
      work |= op->kind == OP_DISPATCH || op->kind == OP_COPY || op->kind == OP_FILL;
      cb->link.cut_before |= op->kind == OP_WAIT;
   }
   cb->link.cut_before |= !work;
}

void apple_cmdbuf_commit(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = as_cb(c);
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("command buffer committed twice: ignored");
      return;
   }
   if (cb->es.compute_open || cb->es.blit_open)
      apple_cmdbuf_fail(cb, "commit: an encoder is still open (call end first)");
   apple_queue *q = cb->q;
   cb->refs++;                  /* dropped by completed() */
   pthread_mutex_lock(&cb->lock);
   cb->status = MTL_CMDBUF_COMMITTED;
   pthread_mutex_unlock(&cb->lock);
   describe(cb);
   pthread_mutex_lock(&q->lock);
   q->pending++;
   pthread_mutex_unlock(&q->lock);
   /* May submit (and block in Metal at 64 in flight, never reached) or
    * wait for room: no lock of ours held. */
   mtl_batcher_commit(&q->batch, &cb->link);
}

void apple_cmdbuf_wait_until_completed(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = as_cb(c);
   pthread_mutex_lock(&cb->lock);
   if (cb->status == MTL_CMDBUF_NOT_ENQUEUED)
      LOG_WARN("waiting on a command buffer that was never committed: returning at once");
   else
      while (!cb->done)
         pthread_cond_wait(&cb->cv, &cb->lock);
   pthread_mutex_unlock(&cb->lock);
}

mtl_cmdbuf_status apple_cmdbuf_get_status(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = as_cb(c);
   pthread_mutex_lock(&cb->lock);
   mtl_cmdbuf_status s = cb->status;
   id mcb = cb->finished ? NULL : cb->cb;
   pthread_mutex_unlock(&cb->lock);
   /* Between commit and our completion block: ask Metal how far it is. */
   return mcb ? live_status(apple_uint(mcb, apple_sel.status)) : s;
}

const char *apple_cmdbuf_error(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = as_cb(c);
   return apple_cmdbuf_get_status(c) == MTL_CMDBUF_ERROR ? cb->error : NULL;
}

/* Metal reports a faulting command buffer without the address. */
uint64_t apple_cmdbuf_fault_address(mtl_cmdbuf *c)
{
   (void)c;
   return 0;
}

mtl_cmdbuf_failure apple_cmdbuf_failure(mtl_cmdbuf *c)
{
   apple_cmdbuf *cb = as_cb(c);
   if (apple_cmdbuf_get_status(c) != MTL_CMDBUF_ERROR)
      return MTL_FAILURE_NONE;
   return cb->failure ? cb->failure : MTL_FAILURE_ENCODING;
}

double apple_cmdbuf_gpu_start_time(mtl_cmdbuf *c) { return as_cb(c)->start; }
double apple_cmdbuf_gpu_end_time(mtl_cmdbuf *c) { return as_cb(c)->end; }

/* ---- queues ---- */

mtl_queue *apple_queue_new(mtl_device *dev, char **err)
{
   apple_queue *q = mc_calloc(1, sizeof(*q));
   if (!q) {
      mtl_set_err(err, "out of memory creating a command queue");
      return NULL;
   }
   void *pool = apple_pool_push();
   q->q = apple_id(apple_dev(dev), apple_sel.newCommandQueue);
   apple_pool_pop(pool);
   if (!q->q) {
      mtl_set_err(err, "newCommandQueue: Metal returned no queue");
      free(q);
      return NULL;
   }
   q->base.obj = (mtl_obj){MTL_MAGIC_QUEUE, dev};
   pthread_mutex_init(&q->lock, NULL);
   pthread_cond_init(&q->cv, NULL);
   mtl_batcher_init(&q->batch, submit, q);
   apple_residency_queue(dev, q->q);
   return &q->base;
}

/* Waits for committed work first: its completion blocks use the queue. */
void apple_queue_release(mtl_queue *mq)
{
   apple_queue *q = as_queue(mq);
   mtl_batcher_drain(&q->batch);
   pthread_mutex_lock(&q->lock);
   while (q->pending)
      pthread_cond_wait(&q->cv, &q->lock);
   pthread_mutex_unlock(&q->lock);
   apple_release(q->q);
   mtl_batcher_destroy(&q->batch);
   pthread_mutex_destroy(&q->lock);
   pthread_cond_destroy(&q->cv);
   q->base.obj.magic = MTL_MAGIC_DEAD;
   free(q);
}

void apple_queue_stats(mtl_queue *mq, uint64_t *submissions, uint64_t *cmdbufs)
{
   mtl_batcher_stats(&as_queue(mq)->batch, submissions, cmdbufs);
}
