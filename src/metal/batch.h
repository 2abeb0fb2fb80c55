/*
 * batch.h — grouping a queue's committed command buffers into submissions
 * (batch.c), shared by the devices so that the software device runs the
 * same grouping the Apple GPU gets.  Only src/metal/ includes this.
 */
#ifndef MC_MTL_BATCH_H
#define MC_MTL_BATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Embedded in each backend's command buffer. */
typedef struct mtl_batch_link {
   struct mtl_batch_link *next;
   uint32_t dispatches;         /* dispatches it holds */
   uint64_t groups;             /* threadgroups of those dispatches */
   bool cut_before;             /* starts a submission: it waits for an event, or it
                                 * is a marker whose start time must be its own */
} mtl_batch_link;

/* Submits members first..(n of them, through next) as one submission, in
 * order; called with no lock of the batcher held, one call at a time. */
typedef void (*mtl_batch_submit_fn)(void *owner, mtl_batch_link *first, uint32_t n);

typedef struct mtl_batcher {
   pthread_mutex_t lock;
   pthread_cond_t cv;
   mtl_batch_link *head, **tail;   /* committed, not yet submitted */
   uint64_t pending_dispatches;
   uint32_t inflight;              /* submissions not completed */
   bool submitting;
   uint32_t max_inflight, max_dispatches, max_pending;
   uint64_t max_groups;
   uint64_t submissions, members;  /* counts, for tests and the log */
   mtl_batch_submit_fn submit;
   void *owner;
} mtl_batcher;

void mtl_batcher_init(mtl_batcher *b, mtl_batch_submit_fn submit, void *owner);
/* After mtl_batcher_drain. */
void mtl_batcher_destroy(mtl_batcher *b);
/* Takes a committed buffer.  Submits at once when fewer than max_inflight
 * submissions are running, else keeps it for the next submission; blocks
 * while max_pending dispatches wait (back-pressure, as Metal's 64 command
 * buffers): the caller must hold no lock the completion path takes. */
void mtl_batcher_commit(mtl_batcher *b, mtl_batch_link *l);
/* A submission completed (its members' handlers have run): submits what
 * waits.  Called on the completion path. */
void mtl_batcher_completed(mtl_batcher *b);
/* Waits until everything committed has completed. */
void mtl_batcher_drain(mtl_batcher *b);
void mtl_batcher_stats(mtl_batcher *b, uint64_t *submissions, uint64_t *members);

#endif
