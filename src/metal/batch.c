/*
 * batch.c — a queue's committed command buffers grouped into submissions
 * (issue 15, finding 8).
 *
 * The runtime commits one mtl_cmdbuf per launch, copy or marker.  Giving
 * each its own MTLCommandBuffer costs a Metal command buffer, a commit and
 * a completion per launch, and Metal lets a queue have only 64 in flight.
 * So a device keeps at most max_inflight submissions running per queue;
 * what is committed meanwhile waits here and goes, in commit order, as one
 * submission (one MTLCommandBuffer replaying several mtl_cmdbufs) as soon
 * as a running one completes.  The first launch after an idle spell is
 * submitted at once (no latency is added), back-to-back launches are
 * grouped while the GPU is busy, and nothing waits for the host to flush:
 * completion submits the next group, so a program that polls memory for a
 * kernel's result, with no CUDA call, still sees it run (the classic
 * failure of flush-at-sync batching).
 *
 * A submission ends (the next member starts a new one):
 *   - before a member that waits for an event: the event may be set by the
 *     host from an earlier member's completion handler (a stream's host
 *     function), which runs only when that member's submission completes;
 *   - before a marker (no dispatch, no blit: an event record), so that its
 *     GPU start time is the moment the device reached it, not the start of
 *     a submission with earlier work;
 *   - at max_dispatches dispatches, and at max_groups threadgroups
 *     (mtl_submission_groups): the GPU watchdog limits the time of one
 *     MTLCommandBuffer, and the runtime splits long grids into pieces of
 *     that many threadgroups (finding 11), which must not be regrouped.
 *
 * Locks: submit() runs without the batcher's lock, one call at a time
 * (`submitting`), so commit order is submission order; Metal may block in
 * it only at 64 buffers in flight, which max_inflight (MTL_SUBMISSIONS_IN_FLIGHT, 3) never reaches.
 * Completion calls mtl_batcher_completed after the members' handlers, on
 * the completion path, and may submit from there.  Back-pressure waits on
 * the batcher's condition variable, which releases its lock.
 *
 * The limits are read when a queue is made.  METALCUDA_BATCH=N sets max_dispatches (1: one launch per submission, as
 * before batching; benchmarks compare the two).
 */
#include "batch.h"

#include "mtl_backend.h"

#include <stdlib.h>

static uint32_t env_u32(const char *name, uint32_t dflt, uint32_t min)
{
   const char *e = getenv(name);
   if (!e || !*e)
      return dflt;
   long long v = atoll(e);
   return v < (long long)min ? min : v > 0x7fffffff ? 0x7fffffffu : (uint32_t)v;
}

/* Threadgroups per submission, and the grid-splitting size of the runtime
 * (mtl.h).  METALCUDA_GRID_SPLIT=N sets it; 0 turns splitting off. */
uint64_t mtl_submission_groups(void)
{
   const char *e = getenv("METALCUDA_GRID_SPLIT");
   if (e && *e) {
      long long v = atoll(e);
      return v <= 0 ? 0 : (uint64_t)v;
   }
   return MTL_DEFAULT_SUBMISSION_GROUPS;
}

void mtl_batcher_init(mtl_batcher *b, mtl_batch_submit_fn submit, void *owner)
{
   *b = (mtl_batcher){0};
   pthread_mutex_init(&b->lock, NULL);
   pthread_cond_init(&b->cv, NULL);
   b->tail = &b->head;
   b->max_inflight = MTL_SUBMISSIONS_IN_FLIGHT;
   b->max_dispatches = env_u32("METALCUDA_BATCH", 64, 1);
   b->max_pending = 1024;
   if (b->max_pending < b->max_dispatches)
      b->max_pending = b->max_dispatches;
   b->max_groups = mtl_submission_groups();
   b->submit = submit;
   b->owner = owner;
}

void mtl_batcher_destroy(mtl_batcher *b)
{
   pthread_mutex_destroy(&b->lock);
   pthread_cond_destroy(&b->cv);
}

/* Detaches the next submission from the head (b->lock held, head set). */
static mtl_batch_link *take_group(mtl_batcher *b, uint32_t *n)
{
   mtl_batch_link *first = b->head, *l = first, *last = NULL;
   uint32_t count = 0, dispatches = 0;
   uint64_t groups = 0;
   while (l) {
      if (count && (l->cut_before || dispatches + l->dispatches > b->max_dispatches ||
                    (b->max_groups && groups + l->groups > b->max_groups)))
         break;
      dispatches += l->dispatches;
      groups += l->groups;
      b->pending_dispatches -= l->dispatches;
      count++;
      last = l;
      l = l->next;
   }
   last->next = NULL;
   b->head = l;
   if (!l)
      b->tail = &b->head;
   *n = count;
   return first;
}

/* Submits while there is room (b->lock held; released around submit). */
static void pump(mtl_batcher *b)
{
   while (b->head && !b->submitting && b->inflight < b->max_inflight) {
      uint32_t n;
      mtl_batch_link *first = take_group(b, &n);
      b->submitting = true;
      b->inflight++;
      b->submissions++;
      b->members += n;
      pthread_cond_broadcast(&b->cv);   /* pending went down */
      pthread_mutex_unlock(&b->lock);
      b->submit(b->owner, first, n);
      pthread_mutex_lock(&b->lock);
      b->submitting = false;
   }
}

void mtl_batcher_commit(mtl_batcher *b, mtl_batch_link *l)
{
   l->next = NULL;
   pthread_mutex_lock(&b->lock);
   *b->tail = l;
   b->tail = &l->next;
   b->pending_dispatches += l->dispatches;
   pump(b);
   while (b->pending_dispatches > b->max_pending)
      pthread_cond_wait(&b->cv, &b->lock);
   pthread_mutex_unlock(&b->lock);
}

void mtl_batcher_completed(mtl_batcher *b)
{
   pthread_mutex_lock(&b->lock);
   b->inflight--;
   pump(b);
   pthread_cond_broadcast(&b->cv);
   pthread_mutex_unlock(&b->lock);
}

void mtl_batcher_drain(mtl_batcher *b)
{
   pthread_mutex_lock(&b->lock);
   while (b->head || b->inflight || b->submitting)
      pthread_cond_wait(&b->cv, &b->lock);
   pthread_mutex_unlock(&b->lock);
}

void mtl_batcher_stats(mtl_batcher *b, uint64_t *submissions, uint64_t *members)
{
   pthread_mutex_lock(&b->lock);
   *submissions = b->submissions;
   *members = b->members;
   pthread_mutex_unlock(&b->lock);
}
