/*
 * fiber.c — the threads of a threadgroup as fibers, for kernels with
 * barriers or SIMD-group functions (ARCHITECTURE §5).
 *
 * A threadgroup runs on one OS thread.  Kernels without barriers run their
 * threads one after another (loop mode, exec.c); the others run each
 * thread as a fiber with its own stack, and a thread that reaches a
 * barrier or a SIMD-group function switches to the next runnable fiber
 * (fiber_<arch>.S: a few register pushes and a stack swap).  Fibers never
 * run in parallel, so the scheduler needs no locks.
 *
 * States: READY (queued or running), SIMD (waiting in a SIMD-group
 * function or simdgroup_barrier), BAR (waiting in threadgroup_barrier),
 * NBAR (waiting at a PTX named barrier: __mc_named_barrier, an extension
 * for metalcuda's bar.sync/bar.arrive), DONE (returned from the kernel).
 *
 * SIMD-groups are 32 consecutive threads (thread_index_in_threadgroup / 32).
 * Once every thread of a SIMD-group waits (SIMD, BAR) or is DONE, the ones
 * waiting in a SIMD-group function form its active threads: Metal runs a
 * SIMD-group in lockstep, and a thread that is elsewhere (the other side
 * of a branch, at a threadgroup barrier, returned) is inactive for that
 * call.  Threads waiting at different calls are split by call site (the
 * return address into the kernel): the lowest address goes first, which
 * is the order a SIMD machine that reconverges at the lowest program
 * counter takes (code laid out in source order: a loop's body before what
 * follows the loop, an if before its join).  The call's resolve function
 * computes every participant's result from their inputs at once.
 *
 * A PTX *.sync operation names its threads (the member mask,
 * __mc_warp_members, which also says the operation's kind): on an NVIDIA
 * GPU since Volta they meet in it wherever they wait, also at different
 * instructions of the same kind (PTX ISA 9.0 shfl.sync, vote.sync,
 * match.sync, redux.sync, bar.warp.sync: "wait until all non-exited
 * threads corresponding to membermask have executed ... with the same
 * qualifiers and same membermask value"), and threads of different masks
 * at one instruction are separate operations (cooperative groups'
 * labeled_partition, binary_partition).  So a wait with a member mask is
 * resolved with the lanes of its mask that wait with the same mask and
 * kind, once none of the mask's other lanes waits elsewhere (it may still
 * come: the waits whose lanes are all there go first); lanes of the mask
 * that returned or wait at a threadgroup barrier are left out, and the
 * operation's own check reports a mask that names them.
 *
 * Warp meets (__mc_warp_meet, for warp-synchronous code) are SIMD-group
 * barriers of the active lanes, resolved the same way.  Two rules give the
 * forward progress of Volta's independent thread scheduling to lanes that
 * spin at meets waiting for one another: a SIMD-group whose lowest site
 * has been released SOFT_STARVE_ROUNDS times in a row while other lanes of
 * it wait at another site lets the longest-waiting of those go first until
 * they stop meeting (they finish or wait at a barrier); and the lanes a
 * meet releases go to the back of the ready ring (other releases, every
 * SOFT_FRONT_ROUNDS-th time), so a SIMD-group spinning at a meet lets the
 * other SIMD-groups run.
 *
 * A threadgroup barrier releases when every thread waits at it.  When the
 * others waiting are all there but some threads returned, or they wait at
 * different barrier calls, Metal's rule (every thread reaches the same
 * barrier) is broken: the dispatch fails with a message naming the
 * problem, where a GPU would hang or misbehave.
 *
 * Stacks are SOFT_FIBER_STACK bytes with a 64 KB guard below, mapped once
 * per OS thread and reused by every threadgroup (pages are committed only
 * when touched).  A fault inside a fiber, including a stack overflow into
 * the guard, is caught by exec.c's handler on the alternate signal
 * stack, which jumps back to the dispatcher's context: the fibers of that
 * threadgroup are simply abandoned.  No fiber ever longjmps itself: an
 * error found by the scheduler switches back to the dispatcher, which
 * returns it.
 *
 * Elsewhere than x86-64 and arm64 the switch is swapcontext (slower: it
 * saves the signal mask with a system call); SOFT_FIBER_UCONTEXT forces it.
 */
#include "soft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(SOFT_FIBER_UCONTEXT)
#define FIBER_ASM 1
#else
#define FIBER_ASM 0
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif
#ifndef FIBER_ASAN
#define FIBER_ASAN 0
#endif
#if FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* Valgrind must be told about stacks it did not see created, or every
 * read of a fiber's stack looks uninitialised (the header only: a no-op
 * outside valgrind; built without it where it is not installed). */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define FIBER_VALGRIND 1
#endif
#endif
#ifndef FIBER_VALGRIND
#define FIBER_VALGRIND 0
#endif

enum fstate { F_READY, F_SIMD, F_BAR, F_NBAR, F_DONE };

typedef struct fiber {
   void *sp;                  /* saved stack pointer while switched out */
#if !FIBER_ASM
   ucontext_t uc;
#endif
   soft_sched *s;
   uint8_t *map;              /* guard + stack; NULL for the dispatcher */
   unsigned vg_stack;         /* valgrind's id of the stack */
   const void *stack_lo;      /* usable stack, for ASan */
   size_t stack_size;
   void *fake;                /* ASan's fake stack while switched out */
   uint32_t index;
   uint8_t state;
   const void *site;          /* SIMD / BAR: the call site */
   uint64_t order;            /* SIMD: which site goes first, lowest first (sync_order) */
   uint64_t since;            /* SIMD: when it began to wait (soft_sched.clock) */
   bool meet;                 /* SIMD: at a warp meet, not a SIMD-group function */
   soft_simd_req *req;        /* SIMD: NULL for simdgroup_barrier */
   uint64_t members;          /* the *.sync operation it is in: member mask | kind << 32 (0: none) */
   uint32_t mask;             /* the participants when released */
   uint8_t nbar;              /* NBAR: the named barrier */
} fiber;

struct soft_sched {
   fiber main;                /* the dispatcher's context */
   fiber *f;                  /* fibers with stacks, reused across groups */
   uint32_t cap;
   uint32_t *ready;           /* ring of runnable fibers */
   uint32_t head, nready;
   /* The current threadgroup. */
   const soft_launch *L;
   soft_thread_fn fn;
   uint32_t n, cur;
   uint32_t ndone, nbar;
   uint8_t sg_waiting[MTL_MAX_THREADS_PER_THREADGROUP / SOFT_SIMD_WIDTH];
   /* Forward progress of lanes that spin at meets (resolve_simd). */
   uint32_t starve[MTL_MAX_THREADS_PER_THREADGROUP / SOFT_SIMD_WIDTH];
   uint32_t favor[MTL_MAX_THREADS_PER_THREADGROUP / SOFT_SIMD_WIDTH];
   uint64_t clock;            /* SIMD waits begun */
   uint32_t fronts;           /* releases to the front of the ring in a row */
   const void *bar_site;
   bool bar_mismatch;
   struct { uint32_t arrived, count; } named[16];   /* PTX named barriers: this phase */
   const char *error;
   char errbuf[256];
   size_t guard;              /* inaccessible bytes below each stack */
   bool from_main;            /* the next fiber to start comes from main */
};

/* ---- the switch ---- */

#if FIBER_ASM
void soft_fiber_trampoline(void);

/* A stack laid out as if soft_fiber_switch had been called on it (see
 * fiber_<arch>.S), whose first switch enters fn(arg). */
void *soft_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
   uint8_t *top = stack_top;
   uint64_t *sp;
#if defined(__x86_64__)
   /* r15 r14 r13 r12 rbx rbp, return address; after the pops and the ret,
    * rsp = top - 16: 16-byte aligned for the trampoline's call. */
   sp = (uint64_t *)(top - 72);
   memset(sp, 0, 72);
   sp[2] = (uint64_t)(uintptr_t)arg;            /* r13 */
   sp[3] = (uint64_t)(uintptr_t)fn;             /* r12 */
   sp[6] = (uint64_t)(uintptr_t)soft_fiber_trampoline;
#else
   /* x19..x28, x29, x30, d8..d15: 160 bytes; sp = top after the restore */
   sp = (uint64_t *)(top - 160);
   memset(sp, 0, 160);
   sp[0] = (uint64_t)(uintptr_t)fn;             /* x19 */
   sp[1] = (uint64_t)(uintptr_t)arg;            /* x20 */
   sp[11] = (uint64_t)(uintptr_t)soft_fiber_trampoline;   /* x30 */
#endif
   return sp;
}
#else
/* With ucontext the fibers never use these (tests check for NULL). */
void *soft_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
   (void)stack_top, (void)fn, (void)arg;
   return NULL;
}

void soft_fiber_switch(void **save_sp, void *load_sp)
{
   (void)save_sp, (void)load_sp;
   abort();
}
#endif

/* Leaves `from` for `to`; returns when something switches back to from
 * (never, when from is a finished fiber). */
static void fiber_switch(fiber *from, fiber *to, bool from_done)
{
#if FIBER_ASAN
   __sanitizer_start_switch_fiber(from_done ? NULL : &from->fake, to->stack_lo, to->stack_size);
#else
   (void)from_done;
#endif
#if FIBER_ASM
   soft_fiber_switch(&from->sp, to->sp);
#else
   swapcontext(&from->uc, &to->uc);
#endif
#if FIBER_ASAN
   __sanitizer_finish_switch_fiber(from->fake, NULL, NULL);
#endif
}

/* ---- stacks ---- */

void soft_unmap_stack(void *p, size_t len)
{
#if FIBER_ASAN
   /* ASan keeps the redzones a stack's frames left poisoned after the
    * unmap; a later mapping at the same addresses (util/file.c file_map of
    * a cache file) then reads as a stack-buffer underflow. */
   ASAN_UNPOISON_MEMORY_REGION(p, len);
#endif
   munmap(p, len);
}

static void unmap_fiber(soft_sched *s, fiber *f)
{
#if FIBER_VALGRIND
   if (f->map)
      VALGRIND_STACK_DEREGISTER(f->vg_stack);
#endif
   if (f->map)
      soft_unmap_stack(f->map, SOFT_FIBER_STACK + s->guard);
   f->map = NULL;
}

static bool map_fiber(soft_sched *s, fiber *f)
{
   size_t len = SOFT_FIBER_STACK + s->guard;
   uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
   if (p == MAP_FAILED)
      return false;
   if (mprotect(p, s->guard, PROT_NONE)) {     /* the guard: overflow faults */
      munmap(p, len);
      return false;
   }
   f->map = p;
   f->stack_lo = p + s->guard;
   f->stack_size = SOFT_FIBER_STACK;
#if FIBER_VALGRIND
   f->vg_stack = VALGRIND_STACK_REGISTER(p + s->guard, p + len);
#endif
   return true;
}

/* Fibers (and their stacks) for n threads. */
static bool reserve(soft_sched *s, uint32_t n)
{
   if (n <= s->cap)
      return true;
   fiber *f = mc_realloc(s->f, n * sizeof(*f));
   if (!f)
      return false;
   s->f = f;
   uint32_t *ready = mc_realloc(s->ready, n * sizeof(*ready));
   if (!ready)
      return false;
   s->ready = ready;
   for (uint32_t i = s->cap; i < n; i++) {
      memset(&f[i], 0, sizeof(f[i]));
      if (!map_fiber(s, &f[i]))
         return false;
      s->cap = i + 1;
   }
   return true;
}

soft_sched *soft_sched_new(void)
{
   soft_sched *s = mc_calloc(1, sizeof(*s));
   if (s) {
      /* 64 KB, not one page: a frame larger than the guard (big locals,
       * ASan's redzones) would step over it into other memory. */
      long pg = sysconf(_SC_PAGESIZE);
      size_t page = pg > 0 ? (size_t)pg : 4096;
      s->guard = ALIGN_UP((size_t)64 * 1024, page);
   }
   return s;
}

void soft_sched_free(soft_sched *s)
{
   if (!s)
      return;
   for (uint32_t i = 0; i < s->cap; i++)
      unmap_fiber(s, &s->f[i]);
   free(s->f);
   free(s->ready);
   free(s);
}

uint32_t soft_sched_current(const soft_sched *s) { return s->cur; }

bool soft_sched_is_guard(const soft_sched *s, const void *addr)
{
   const uint8_t *a = addr;
   for (uint32_t i = 0; s && i < s->cap; i++)
      if (s->f[i].map && a >= s->f[i].map && a < s->f[i].map + s->guard)
         return true;
   return false;
}

/* ---- the ready ring ---- */

static void push_back(soft_sched *s, uint32_t i)
{
   s->ready[(s->head + s->nready++) % s->n] = i;
}

static void push_front(soft_sched *s, uint32_t i)
{
   s->head = (s->head + s->n - 1) % s->n;
   s->ready[s->head] = i;
   s->nready++;
}

static uint32_t pop(soft_sched *s)
{
   uint32_t i = s->ready[s->head];
   s->head = (s->head + 1) % s->n;
   s->nready--;
   return i;
}

/* ---- SIMD-groups and barriers ---- */

static uint32_t lanes_of(const soft_sched *s, uint32_t sg)
{
   return MC_MIN(SOFT_SIMD_WIDTH, s->n - sg * SOFT_SIMD_WIDTH);
}

enum {
   SOFT_STARVE_ROUNDS = 4096,  /* releases of one side while another waits */
   SOFT_FRONT_ROUNDS = 64,     /* releases to the front before one to the back */
};

/* The order of the waiting sites: a SIMD-group function's is its return
 * address, in a kernel laid out in source order; a warp meet's is its rank
 * (the emitter ranks them in the order a GPU reconverges diverged lanes:
 * the host compiler's layout need not be that order), after every
 * function's, since a
 * kernel with meets also meets just before each of its SIMD-group
 * functions, and lanes at the function have passed that meet. */
static uint64_t sync_order(const void *site, uint32_t kind, const soft_simd_req *req)
{
   if (kind == SOFT_SYNC_WARP_MEET)
      return 1ull << 63 | (uint64_t)(uintptr_t)req;
   return (uint64_t)(uintptr_t)site;
}

/* The order of the sites whose lanes go next: the lowest among those
 * waiting (among the favoured lanes while any of them waits), unless that
 * starves the others (see the file header).  UINT64_MAX: none waits. */
static uint64_t pick_order(soft_sched *s, uint32_t sg, const fiber *lane, uint32_t nl)
{
   uint64_t site = UINT64_MAX, fav = UINT64_MAX, oldest_site = UINT64_MAX, oldest = UINT64_MAX;
   uint32_t favor = s->favor[sg];
   for (uint32_t k = 0; k < nl; k++) {
      if (lane[k].state != F_SIMD)
         continue;
      site = MC_MIN(site, lane[k].order);
      if (favor >> k & 1)
         fav = MC_MIN(fav, lane[k].order);
   }
   if (fav != UINT64_MAX)
      site = fav;
   else
      s->favor[sg] = 0;
   if (site == UINT64_MAX)
      return site;
   for (uint32_t k = 0; k < nl; k++)
      if (lane[k].state == F_SIMD && lane[k].order != site && lane[k].since < oldest) {
         oldest = lane[k].since;
         oldest_site = lane[k].order;
      }
   if (oldest_site == UINT64_MAX) {
      s->starve[sg] = 0;
      return site;
   }
   if (++s->starve[sg] < SOFT_STARVE_ROUNDS)
      return site;
   s->starve[sg] = 0;
   s->favor[sg] = 0;
   for (uint32_t k = 0; k < nl; k++)
      if (lane[k].state == F_SIMD && lane[k].order == oldest_site)
         s->favor[sg] |= 1u << k;
   return oldest_site;
}

/* Lane b can take part in the wait of lane a, which has a member mask:
 * it waits in a SIMD-group function or barrier of the same operation (the
 * same mask and kind, the same resolve function), wherever. */
static bool joins(const fiber *a, const fiber *b)
{
   return b->state == F_SIMD && !b->meet && b->members == a->members && (a->req == NULL) == (b->req == NULL) &&
          (!a->req || a->req->resolve == b->req->resolve);
}

/* The lanes that take part in lane k's wait: without a member mask (a
 * SIMD-group function of its own, a warp meet) the lanes waiting at the
 * same site with none; with one, the lanes of the mask that join it (see
 * the file header), and *blocked when another lane of the mask waits
 * elsewhere and may still come. */
static uint32_t participants(const fiber *lane, uint32_t nl, uint32_t k, bool *blocked)
{
   const fiber *a = &lane[k];
   uint32_t mask = 1u << k, members = (uint32_t)a->members;
   *blocked = false;
   for (uint32_t j = 0; j < nl; j++) {
      const fiber *b = &lane[j];
      if (j == k || b->state != F_SIMD)
         continue;
      if (!a->members || a->meet) {
         if (b->order == a->order && !b->members == !a->members && b->meet == a->meet)
            mask |= 1u << j;
      } else if (members >> j & 1) {
         if (joins(a, b))
            mask |= 1u << j;
         else
            *blocked = true;
      }
   }
   return mask;
}

/* Every thread of SIMD-group sg waits or is done: the ones in the wait at
 * the chosen call site (pick_order) run it together, or, when that wait
 * has a member mask whose lanes are not all there yet, the first other
 * wait whose lanes are (by site, lowest first), so that they can come. */
static void resolve_simd(soft_sched *s, uint32_t sg)
{
   fiber *lane = &s->f[sg * SOFT_SIMD_WIDTH];
   uint32_t nl = lanes_of(s, sg);
   uint64_t site = pick_order(s, sg, lane, nl);
   if (site == UINT64_MAX)
      return;
   uint32_t k0 = 0;
   while (!(lane[k0].state == F_SIMD && lane[k0].order == site))
      k0++;
   bool blocked;
   uint32_t mask = participants(lane, nl, k0, &blocked);
   for (uint32_t tried = 1u << k0, k; blocked; tried |= 1u << k) {
      uint64_t lowest = UINT64_MAX;
      k = nl;
      for (uint32_t j = 0; j < nl; j++)
         if (!(tried >> j & 1) && lane[j].state == F_SIMD && lane[j].order < lowest) {
            lowest = lane[j].order;
            k = j;
         }
      if (k == nl)
         break;   /* none can go: the first one's operation reports the lanes missing */
      bool b;
      uint32_t m = participants(lane, nl, k, &b);
      if (!b) {
         mask = m;
         blocked = false;
      }
   }
   soft_simd_req *reqs[SOFT_SIMD_WIDTH] = {0};
   uint32_t first = (uint32_t)__builtin_ctz(mask);
   for (uint32_t k = 0; k < nl; k++)
      if (mask >> k & 1)
         reqs[k] = lane[k].req;
   if (reqs[first] && reqs[first]->resolve)
      reqs[first]->resolve(reqs, mask);
   /* Pushed to the front, lowest lane first: the SIMD-group goes on while
    * its stacks are still in the cache.  Lanes released from a warp meet go
    * to the back: SIMD-groups that meet take turns, so one spinning at a
    * meet lets the one it waits for run (the others usually wait at a
    * barrier then, and the back is the front).  Now and then the others
    * too, so that nothing keeps a ready fiber from running for long. */
   bool back = lane[first].meet || ++s->fronts >= SOFT_FRONT_ROUNDS;
   if (back)
      s->fronts = 0;
   for (uint32_t k = 0; k < nl; k++) {
      uint32_t l = back ? k : nl - 1 - k;
      if (mask >> l & 1) {
         lane[l].state = F_READY;
         lane[l].mask = mask;
         if (back)
            push_back(s, sg * SOFT_SIMD_WIDTH + l);
         else
            push_front(s, sg * SOFT_SIMD_WIDTH + l);
      }
   }
   s->sg_waiting[sg] = (uint8_t)(s->sg_waiting[sg] - __builtin_popcount(mask));
}

static void fail(soft_sched *s, const char *fmt, ...) MC_PRINTF(2, 3);
static void fail(soft_sched *s, const char *fmt, ...)
{
   if (s->error)
      return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(s->errbuf, sizeof(s->errbuf), fmt, ap);
   va_end(ap);
   s->error = s->errbuf;
}

/* Fiber i, waiting at a barrier, goes on (queued; its SIMD-group has one
 * waiter fewer). */
static void wake(soft_sched *s, uint32_t i)
{
   s->f[i].state = F_READY;
   s->f[i].mask = 0;
   push_back(s, i);
   s->sg_waiting[i / SOFT_SIMD_WIDTH]--;
}

/* Every thread waits at the threadgroup barrier or is done. */
static void release_barrier(soft_sched *s)
{
   if (s->ndone) {
      fail(s, "threadgroup_barrier reached by %u of the %u threads of the threadgroup; the other %u "
           "returned before it (Metal requires every thread to reach each barrier)",
           s->nbar, s->n, s->ndone);
      return;
   }
   if (s->bar_mismatch) {
      fail(s, "the threads of a threadgroup wait at different threadgroup_barrier calls "
           "(a barrier in divergent control flow)");
      return;
   }
   for (uint32_t i = 0; i < s->n; i++)
      wake(s, i);
   s->nbar = 0;
   s->bar_mismatch = false;
}

/* f stopped running (it waits or is done): what it completes. */
static void on_stop(soft_sched *s, fiber *f)
{
   uint32_t sg = f->index / SOFT_SIMD_WIDTH;
   if (++s->sg_waiting[sg] == lanes_of(s, sg))
      resolve_simd(s, sg);
   if (s->nbar && s->nbar + s->ndone == s->n)
      release_barrier(s);
}

/* Nothing can run and not every thread is done: why. */
static void fail_stuck(soft_sched *s)
{
   for (uint32_t i = 0; i < s->n; i++)
      if (s->f[i].state == F_NBAR) {
         uint32_t id = s->f[i].nbar;
         fail(s, "named barrier %u (bar.sync/bar.arrive) waits for %u threads and %u arrived: the others "
              "returned or wait elsewhere (a GPU would hang here)", id, s->named[id].count, s->named[id].arrived);
         return;
      }
   if (s->nbar)
      fail(s, "threadgroup_barrier reached by %u of the %u threads; the others wait at a named barrier",
           s->nbar, s->n);
   else
      fail(s, "internal error: every fiber waits and none can go on");
}

/* Runs the next ready fiber (possibly f itself, without switching); back
 * to the dispatcher when all are done or something failed. */
static void run_next(soft_sched *s, fiber *f)
{
   bool done = f->state == F_DONE;
   if (s->error || !s->nready) {
      if (!s->error && s->ndone != s->n)
         fail_stuck(s);
      fiber_switch(f, &s->main, done);
      return;       /* not reached for a finished fiber, nor after an error */
   }
   uint32_t next = pop(s);
   s->cur = next;
   /* The fiber after this one: its saved registers and top frames are
    * what its switch-in will wait on (from L2 at best: hundreds of fibers
    * do not fit in L1), so start loading them a whole switch ahead. */
   if (s->nready) {
      const char *sp = s->f[s->ready[s->head]].sp;   /* NULL with ucontext */
      for (int k = 0; sp && k < 512; k += 64)
         __builtin_prefetch(sp + k);
   }
   if (&s->f[next] != f)
      fiber_switch(f, &s->f[next], done);
}

static void fiber_main(void *arg)
{
   fiber *f = arg;
   soft_sched *s = f->s;
#if FIBER_ASAN
   /* The dispatcher's stack bounds, needed to switch back to it, are
    * learned when the first fiber starts (the only one entered from it). */
   const void *lo;
   size_t size;
   __sanitizer_finish_switch_fiber(NULL, &lo, &size);
   if (s->from_main) {
      s->main.stack_lo = lo;
      s->main.stack_size = size;
   }
#endif
   s->from_main = false;
   s->fn(s->L, f->index);
   f->state = F_DONE;
   s->ndone++;
   on_stop(s, f);
   run_next(s, f);
   abort();         /* a finished fiber is never switched back to */
}

#if !FIBER_ASM
/* makecontext passes int arguments: the fiber's address in two halves. */
static void fiber_entry_uc(int hi, int lo)
{
   fiber_main((void *)(uintptr_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo));
}
#endif

/* A thread arrives at named barrier id, which completes when `count`
 * threads have arrived (PTX bar.sync/bar.arrive): an arriving thread goes
 * on, a syncing one waits for the completion. */
static uint32_t named_barrier(soft_sched *s, fiber *f, uint32_t id, uint32_t count, bool arrive)
{
   if (s->named[id].arrived && s->named[id].count != count) {
      fail(s, "named barrier %u: threads arrive with thread counts %u and %u", id, s->named[id].count, count);
      f->state = F_NBAR;
      run_next(s, f);
      return 0;
   }
   s->named[id].count = count;
   if (++s->named[id].arrived == count) {
      s->named[id].arrived = 0;
      for (uint32_t i = 0; i < s->n; i++)
         if (s->f[i].state == F_NBAR && s->f[i].nbar == id)
            wake(s, i);
      return 0;
   }
   if (arrive)
      return 0;
   f->state = F_NBAR;
   f->nbar = (uint8_t)id;
   on_stop(s, f);
   run_next(s, f);
   return 0;
}

/* ---- entry points ---- */

uint32_t soft_sched_sync(void *ctx, uint32_t kind, const void *site, soft_simd_req *req)
{
   soft_sched *s = ctx;
   fiber *f = &s->f[s->cur];
   if ((kind & 0xffu) == SOFT_SYNC_NAMED_BAR)
      return named_barrier(s, f, kind >> 8 & 15u, kind >> 16, kind >> 12 & 1u);
   if (kind == SOFT_SYNC_LANES)    /* lanes of the SIMD-group | the caller's lane << 8 */
      return lanes_of(s, f->index / SOFT_SIMD_WIDTH) | (f->index % SOFT_SIMD_WIDTH) << 8;
   if (kind == SOFT_SYNC_MEMBERS) {
      f->members = (uint64_t)(uintptr_t)req;
      return 0;
   }
   f->site = site;
   if (kind == SOFT_SYNC_TG_BARRIER) {
      f->state = F_BAR;
      if (s->nbar++ == 0)
         s->bar_site = site;
      else if (site != s->bar_site)
         s->bar_mismatch = true;
   } else {   /* SIMD, SIMD_BARRIER, WARP_MEET */
      f->state = F_SIMD;
      f->order = sync_order(site, kind, req);
      f->since = s->clock++;
      f->meet = kind == SOFT_SYNC_WARP_MEET;
      f->req = kind == SOFT_SYNC_SIMD ? req : NULL;
   }
   on_stop(s, f);
   run_next(s, f);
   return f->mask;
}

const char *soft_sched_run(soft_sched *s, const soft_launch *L, soft_thread_fn fn)
{
   uint32_t n = L->nthreads;
   if (!reserve(s, n))
      return "out of memory for fiber stacks";
   s->L = L;
   s->fn = fn;
   s->n = n;
   s->ndone = s->nbar = 0;
   s->bar_mismatch = false;
   s->error = NULL;
   s->head = s->nready = 0;
   memset(s->sg_waiting, 0, sizeof(s->sg_waiting));
   memset(s->starve, 0, sizeof(s->starve));
   memset(s->favor, 0, sizeof(s->favor));
   s->fronts = 0;
   memset(s->named, 0, sizeof(s->named));
   for (uint32_t i = 0; i < n; i++) {
      fiber *f = &s->f[i];
      f->s = s;
      f->index = i;
      f->state = F_READY;
      f->mask = 0;
      f->members = 0;
      f->fake = NULL;
#if FIBER_ASAN
      /* The stack's last user (a fiber of an earlier threadgroup, perhaps
       * abandoned after a fault) left its frames' redzones poisoned. */
      ASAN_UNPOISON_MEMORY_REGION(f->map + s->guard, SOFT_FIBER_STACK);
#endif
#if FIBER_ASM
      /* Stack tops at different offsets within a page: at the same offset
       * every fiber's frames would fall in the same cache sets, and each
       * switch would miss. */
      uint32_t color = (i * 13u) % 64u * 64u;
      f->sp = soft_fiber_prepare(f->map + s->guard + SOFT_FIBER_STACK - color, fiber_main, f);
#else
      getcontext(&f->uc);
      f->uc.uc_stack.ss_sp = f->map + s->guard;
      f->uc.uc_stack.ss_size = SOFT_FIBER_STACK;
      f->uc.uc_link = NULL;
      /* makecontext passes int arguments: the pointer goes in two halves. */
      makecontext(&f->uc, (void (*)(void))fiber_entry_uc, 2, (int)(uint32_t)((uint64_t)(uintptr_t)f >> 32),
                  (int)(uint32_t)(uintptr_t)f);
#endif
      push_back(s, i);
   }
   s->cur = pop(s);
   s->from_main = true;
   fiber_switch(&s->main, &s->f[s->cur], false);
   return s->error;
}
