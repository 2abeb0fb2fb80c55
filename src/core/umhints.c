/*
 * umhints.c — what cuMemAdvise and cuMemPrefetchAsync were told about
 * managed memory, for cuMemRangeGetAttribute(s).
 *
 * Host and device share the arena, so the hints move nothing; but CUDA
 * documents what a range query answers after them, so each hint is kept
 * as an event (range, what, location) in the order given.  A query cuts
 * its range at every event boundary inside it and replays, for each piece,
 * the events that cover it: read-mostly holds if it holds on every piece,
 * a location is answered if every piece has the same one, accessed-by
 * lists the locations set on every piece.  A new managed allocation drops
 * the events of the memory it reuses (core_um_forget).  Ranges are taken
 * exactly as given, not widened to pages.
 */
#include "core.h"

#include <stdlib.h>

typedef struct um_event {
   core_device *dev;
   uint64_t base, end;
   int what;             /* CORE_UM_* */
   core_um_loc loc;
} um_event;

static struct {
   pthread_mutex_t lock;
   um_event *v;
   size_t n, cap;
} um = {.lock = PTHREAD_MUTEX_INITIALIZER};

int core_um_record(core_device *d, uint64_t base, uint64_t size, int what, core_um_loc loc)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&um.lock);
   if (um.n == um.cap) {
      size_t cap = um.cap ? um.cap * 2 : 16;
      um_event *v = realloc(um.v, cap * sizeof(*v));
      if (!v)
         r = CORE_ERROR_OUT_OF_MEMORY;
      else
         um.v = v, um.cap = cap;
   }
   if (r == CORE_SUCCESS)
      um.v[um.n++] = (um_event){ d, base, base + size, what, loc };
   pthread_mutex_unlock(&um.lock);
   return r;
}

void core_um_forget(core_device *d, uint64_t base, uint64_t size)
{
   pthread_mutex_lock(&um.lock);
   size_t k = 0;
   for (size_t i = 0; i < um.n; i++)
      if (um.v[i].dev != d || um.v[i].end <= base || um.v[i].base >= base + size)
         um.v[k++] = um.v[i];
   um.n = k;
   pthread_mutex_unlock(&um.lock);
}

static bool loc_eq(core_um_loc a, core_um_loc b) { return a.type == b.type && a.id == b.id; }

/* Adds or removes l in the accessed-by set of one piece. */
static void set_access(core_um_state *s, core_um_loc l, bool on)
{
   for (unsigned k = 0; k < s->n_access; k++)
      if (loc_eq(s->access[k], l)) {
         if (!on)
            s->access[k] = s->access[--s->n_access];
         return;
      }
   if (on && s->n_access < CORE_UM_MAX_ACCESS)
      s->access[s->n_access++] = l;
}

/* The state of the piece [p, q): every event covering it, in order. */
static core_um_state piece_state(core_device *d, uint64_t p, uint64_t q)
{
   core_um_state s = { 0 };
   for (size_t i = 0; i < um.n; i++) {
      const um_event *e = &um.v[i];
      if (e->dev != d || e->base > p || e->end < q)
         continue;
      switch (e->what) {
      case CORE_UM_SET_READ_MOSTLY: s.read_mostly = true; break;
      case CORE_UM_UNSET_READ_MOSTLY: s.read_mostly = false; break;
      case CORE_UM_SET_PREFERRED: s.preferred = e->loc; break;
      case CORE_UM_UNSET_PREFERRED: s.preferred = (core_um_loc){ 0, 0 }; break;
      case CORE_UM_SET_ACCESSED_BY: set_access(&s, e->loc, true); break;
      case CORE_UM_UNSET_ACCESSED_BY: set_access(&s, e->loc, false); break;
      case CORE_UM_PREFETCH: s.prefetched = e->loc; break;
      }
   }
   return s;
}

/* Merges piece state b into the range's state a (first: a = b). */
static void merge(core_um_state *a, const core_um_state *b)
{
   a->read_mostly = a->read_mostly && b->read_mostly;
   if (!loc_eq(a->preferred, b->preferred))
      a->preferred = (core_um_loc){ CORE_UM_LOC_MIXED, 0 };
   if (!loc_eq(a->prefetched, b->prefetched))
      a->prefetched = (core_um_loc){ CORE_UM_LOC_MIXED, 0 };
   for (unsigned k = 0; k < a->n_access;) {
      bool both = false;
      for (unsigned j = 0; j < b->n_access; j++)
         both = both || loc_eq(a->access[k], b->access[j]);
      if (both)
         k++;
      else
         a->access[k] = a->access[--a->n_access];
   }
}

/* The next event boundary after p and before end (end if none). */
static uint64_t next_cut(core_device *d, uint64_t p, uint64_t end)
{
   uint64_t q = end;
   for (size_t i = 0; i < um.n; i++) {
      if (um.v[i].dev != d)
         continue;
      if (um.v[i].base > p && um.v[i].base < q)
         q = um.v[i].base;
      if (um.v[i].end > p && um.v[i].end < q)
         q = um.v[i].end;
   }
   return q;
}

void core_um_query(core_device *d, uint64_t base, uint64_t size, core_um_state *out)
{
   pthread_mutex_lock(&um.lock);
   uint64_t end = base + size;
   for (uint64_t p = base; p < end;) {
      uint64_t q = next_cut(d, p, end);
      core_um_state s = piece_state(d, p, q);
      if (p == base)
         *out = s;
      else
         merge(out, &s);
      p = q;
   }
   pthread_mutex_unlock(&um.lock);
}
