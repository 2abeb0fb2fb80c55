/*
 * exec.c — running a dispatch: the worker pool, threadgroup memory, and
 * recovery from faulting kernels.
 *
 * Threadgroups of a dispatch are claimed in runs of consecutive ones (an
 * atomic counter) by the pool's threads and by the submitting queue
 * thread, so work is shared dynamically; on Linux each of them runs it on
 * a CPU of its own (affinity.c).  A run goes to the kernel's entry up to
 * GROUPS_PER_CALL threadgroups per call.  A threadgroup runs from start to
 * end on one OS thread.  Kernels the library build marked SOFT_KERNEL_FIBERS (they reach
 * a barrier or a SIMD-group function) run their threads as fibers
 * (fiber.c), the others as a plain loop in the generated entry.
 *
 * Fault recovery.  A kernel that touches a bad address (SIGSEGV, SIGBUS),
 * divides an integer by zero (SIGFPE) or reaches a trap (SIGILL) must not
 * kill the process.  Each thread that runs kernels arms a sigjmp_buf
 * around the entry call; the process-wide handler, finding the faulting
 * thread armed, records the signal and address and siglongjmps back; the
 * dispatch is marked failed, its remaining threadgroups are skipped, and
 * the device stays usable.  Signals on unarmed threads go to the previous
 * handler (or the default action), so the program's own faults still
 * crash as usual.  Limits: memory the kernel wrote before the fault stays
 * written; a fault inside a libm call or inside the dynamic loader's TLS
 * allocation (first access to threadgroup storage on a thread) may leave
 * that code's state inconsistent; a stack overflow is caught through an
 * alternate signal stack per thread, but one deep enough to skip the guard
 * page is not.
 */
#include "soft.h"

#include <fenv.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- per-thread state of threads that run kernels ---- */

enum { ALT_STACK = 64 * 1024 };

typedef struct worker_tls {
   sigjmp_buf jb;
   volatile sig_atomic_t armed;
   volatile int sig;
   void *volatile addr;
   const char *volatile msg;           /* from a failing barrier */
   void *alt_stack;
   soft_sched *sched;                  /* fiber stacks, made on first need */
   bool in_fibers;                     /* sched is running a threadgroup */
   void *scratch;                      /* soft_launch.scratch */
   size_t scratch_cap;
   struct job *grid_job;               /* the co-resident dispatch this thread runs a threadgroup of */
   _Alignas(64) uint8_t tg_mem[MTL_MAX_THREADGROUP_MEMORY];
} worker_tls;

static _Thread_local worker_tls *tls;

void *soft_thread_enter(void)
{
   if (tls)
      return NULL;               /* nested: the outer call owns it */
   worker_tls *w = calloc(1, sizeof(*w));
   if (!w)
      return NULL;
   w->alt_stack = mmap(NULL, ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (w->alt_stack != MAP_FAILED) {
      stack_t ss = {.ss_sp = w->alt_stack, .ss_size = ALT_STACK, .ss_flags = 0};
      sigaltstack(&ss, NULL);
   } else {
      w->alt_stack = NULL;
   }
   tls = w;
   return w;
}

void soft_thread_leave(void *token)
{
   worker_tls *w = token;
   if (!w)
      return;
   if (w->alt_stack) {
      stack_t ss = {.ss_flags = SS_DISABLE};
      sigaltstack(&ss, NULL);
      soft_unmap_stack(w->alt_stack, ALT_STACK);
   }
   soft_sched_free(w->sched);
   free(w->scratch);
   tls = NULL;
   free(w);
}

/* ---- signals ---- */

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction old_actions[ARRAY_SIZE(fault_signals)];
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
   worker_tls *w = tls;
   if (w && w->armed) {
      w->armed = 0;
      w->sig = sig;
      w->addr = si->si_addr;
      siglongjmp(w->jb, 1);
   }
   for (size_t i = 0; i < ARRAY_SIZE(fault_signals); i++) {
      if (fault_signals[i] != sig)
         continue;
      struct sigaction *old = &old_actions[i];
      if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
         old->sa_sigaction(sig, si, uc);
      } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
         old->sa_handler(sig);
      } else {
         /* Default action: reinstall it and return, so the faulting
          * instruction runs again and the process dies as it would have. */
         sigaction(sig, old, NULL);
      }
      return;
   }
}

static void install_handler(void)
{
   struct sigaction sa;
   memset(&sa, 0, sizeof(sa));
   sa.sa_sigaction = on_fault;
   sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
   sigemptyset(&sa.sa_mask);
   for (size_t i = 0; i < ARRAY_SIZE(fault_signals); i++)
      sigaction(fault_signals[i], &sa, &old_actions[i]);
}

/* The shim calls this (through soft_launch.fail) from a barrier it cannot
 * honour: back to the dispatcher, like a fault. */
static void fail_from_kernel(void *ctx, const char *msg)
{
   worker_tls *w = ctx;
   w->armed = 0;
   w->msg = msg;
   siglongjmp(w->jb, 2);
}

static const char *signal_name(int sig)
{
   switch (sig) {
   case SIGSEGV: return "SIGSEGV, invalid memory access";
   case SIGBUS: return "SIGBUS, invalid memory access";
   case SIGFPE: return "SIGFPE, integer division by zero or overflow";
   case SIGILL: return "SIGILL, illegal instruction or trap";
   default: return "signal";
   }
}

/* ---- the pool ---- */

typedef struct job {
   const soft_dispatch *d;
   uint64_t total;
   uint64_t chunk;                /* threadgroups per claim */
   _Atomic uint64_t next;         /* next threadgroup to claim */
   _Atomic uint64_t done;         /* threadgroups finished or skipped */
   _Atomic bool abort;
   uint32_t users;                /* pool threads inside (pool.lock) */
   char *err;                     /* first failure (pool.lock) */
   uint64_t fault_addr;           /* its address when it was a fault */
   struct job *link;
} job;

static struct {
   pthread_mutex_t lock;
   pthread_cond_t wake;           /* a job was posted, or stop */
   pthread_cond_t done;           /* a job finished */
   pthread_t *threads;
   uint32_t nthreads, refs;
   job *jobs;
   bool stop;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void record_failure(job *j, worker_tls *w, const uint32_t g[3], int how)
{
   char buf[640];
   const soft_pipeline *p = j->d->pipe;
   if (how == 2)
      snprintf(buf, sizeof(buf), "kernel '%s': %s, in threadgroup (%u, %u, %u) of %u threads", p->name,
               w->msg, g[0], g[1], g[2], j->d->launch.nthreads);
   else if (soft_sched_is_guard(w->sched, w->addr))
      snprintf(buf, sizeof(buf), "kernel '%s' overflowed a thread's stack (%d KB per thread when the "
               "threads run as fibers) at address %p in threadgroup (%u, %u, %u)", p->name,
               SOFT_FIBER_STACK / 1024, w->addr, g[0], g[1], g[2]);
   else {
      int n = snprintf(buf, sizeof(buf), "kernel '%s' faulted at address %p (%s) in threadgroup (%u, %u, %u)",
                       p->name, w->addr, signal_name(w->sig), g[0], g[1], g[2]);
      const uint32_t *tpg = j->d->launch.tpg;
      uint32_t t = w->in_fibers ? soft_sched_current(w->sched) : 0;
      if (n > 0 && (size_t)n < sizeof(buf) && (w->in_fibers || j->d->launch.nthreads == 1))
         snprintf(buf + n, sizeof(buf) - (size_t)n, ", thread (%u, %u, %u)", t % tpg[0], t / tpg[0] % tpg[1],
                  t / (tpg[0] * tpg[1]));
   }
   w->msg = NULL;
   w->in_fibers = false;
   j->abort = true;
   pthread_mutex_lock(&pool.lock);
   if (!j->err) {
      j->err = strdup(buf);
      j->fault_addr = how == 2 ? 0 : (uint64_t)(uintptr_t)w->addr;
   }
   pthread_mutex_unlock(&pool.lock);
   /* The handler left with the signal possibly blocked. */
   sigset_t set;
   sigemptyset(&set);
   for (size_t i = 0; i < ARRAY_SIZE(fault_signals); i++)
      sigaddset(&set, fault_signals[i]);
   pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* ---- fiber mode and loop mode ---- */

/* soft_launch.fibers: the scheduler's error fails the threadgroup (back to
 * run_range, as a fault). */
static void run_fibers(const soft_launch *L, soft_thread_fn fn)
{
   worker_tls *w = L->fail_ctx;
   w->in_fibers = true;
   const char *e = soft_sched_run(w->sched, L, fn);
   w->in_fibers = false;
   if (e)
      fail_from_kernel(w, e);
}

/* soft_launch.sync in loop mode (ctx = the launch).  A threadgroup of one
 * thread needs no fibers: its barriers are no-ops and its SIMD-group
 * functions see one active thread.  Anything else means the library build
 * missed a barrier (fibercheck.c): fail rather than compute garbage. */
static uint32_t loop_sync(void *ctx, uint32_t kind, const void *site, soft_simd_req *req)
{
   const soft_launch *L = ctx;
   (void)site;
   if (L->nthreads > 1)
      L->fail(L->fail_ctx, "internal error: a barrier or SIMD-group function ran in a kernel "
              "that the library build found free of them");
   if (kind == SOFT_SYNC_SIMD && req && req->resolve) {
      soft_simd_req *lanes[SOFT_SIMD_WIDTH] = {req};
      req->resolve(lanes, 1);
   }
   return kind == SOFT_SYNC_TG_BARRIER ? 0 : 1;
}

/* soft_launch.scratch: grows this worker's buffer (the old contents are
 * not kept: a threadgroup asks once, before it stores anything there). */
static void *worker_scratch(void *ctx, size_t bytes)
{
   worker_tls *w = ctx;
   if (bytes > w->scratch_cap) {
      free(w->scratch);
      w->scratch_cap = 0;
      if (!(w->scratch = malloc(bytes)))
         return NULL;
      w->scratch_cap = bytes;
   }
   return w->scratch;
}

/* Picks fiber or loop mode for a dispatch; false if fibers are needed and
 * their scheduler cannot be made. */
static bool choose_mode(soft_launch *L, const soft_dispatch *d, worker_tls *w)
{
   L->fail = fail_from_kernel;
   L->fail_ctx = w;
   L->fibers = NULL;
   L->sync = loop_sync;
   L->sync_ctx = L;
   L->scratch = worker_scratch;
   L->scratch_ctx = w;
   /* Validation runs every kernel as fibers: a fault then knows its thread.
    * Otherwise a kernel whose barriers are resume points runs in passes. */
   uint32_t flags = d->pipe->info.flags;
   const uint32_t *tpg = d->launch.tpg;
   bool rows = tpg[0] % 32 == 0 || (tpg[1] == 1 && tpg[2] == 1);
   bool passes = (flags & SOFT_KERNEL_RESUMABLE) && (rows || !(flags & SOFT_KERNEL_RESUMABLE_WARPS));
   bool fibers = (flags & SOFT_KERNEL_FIBERS) && !passes;
   if (!(fibers || soft_validating()) || d->launch.nthreads <= 1)
      return true;
   if (!w->sched && !(w->sched = soft_sched_new()))
      return false;
   L->fibers = run_fibers;
   L->sync = soft_sched_sync;
   L->sync_ctx = w->sched;
   return true;
}

/* Lays out the dynamic threadgroup blocks in this thread's memory, after
 * the static part (which lives in the library's thread_local storage). */
static void bind_threadgroup_memory(soft_launch *L, const soft_dispatch *d, worker_tls *w)
{
   size_t off = 0;
   for (int i = 0; i < SOFT_MAX_BUFFERS; i++) {
      L->tg[i] = d->tg_len[i] ? w->tg_mem + off : NULL;
      off += d->tg_len[i];
   }
}

/* L->group <- the coordinates of threadgroup idx. */
static void set_group(soft_launch *L, uint64_t idx)
{
   const uint32_t gx = L->grid[0], gy = L->grid[1];
   L->group[0] = (uint32_t)(idx % gx);
   L->group[1] = (uint32_t)(idx / gx % gy);
   L->group[2] = (uint32_t)(idx / gx / gy);
}

/* Threadgroups per entry call: the call's set-up is paid once for them,
 * and an aborted job is noticed between calls. */
enum { GROUPS_PER_CALL = 64 };

/* Runs threadgroups first..last-1 of j until the job is aborted, several
 * per entry call (the entry advances L->group), with the fault handler
 * armed once: a small kernel's threadgroup costs a few nanoseconds, which
 * a call, a sigsetjmp and two 64-bit divisions per threadgroup had more
 * than doubled.  A fault, or a barrier error (fail_from_kernel), ends the run
 * and aborts the job; L->group then names the threadgroup that failed. */
static void run_range(job *j, worker_tls *w, soft_launch *L, uint64_t first, uint64_t last)
{
   if (j->abort || first >= last)
      return;
   set_group(L, first);
   int how = sigsetjmp(w->jb, 0);
   if (how != 0) {
      record_failure(j, w, L->group, how);
      return;
   }
   w->armed = 1;
   for (uint64_t idx = first; idx < last && !j->abort; idx += L->ngroups) {
      L->ngroups = (uint32_t)MC_MIN(last - idx, (uint64_t)GROUPS_PER_CALL);
      j->d->pipe->entry(L);
      set_group(L, idx + L->ngroups);
   }
   w->armed = 0;
}

/* Claims and runs threadgroups of j until none are left; returns how many
 * this thread ran.  Claims are runs of consecutive threadgroups
 * (j->chunk): each worker then streams through contiguous memory, as a
 * CPU's prefetchers like, and the shared counters are touched once per
 * run rather than per threadgroup. */
static uint64_t run_groups(job *j, worker_tls *w)
{
   uint64_t mine = 0;
   const soft_dispatch *d = j->d;
   soft_launch L = d->launch;
   /* Kernels run in the default floating-point environment whatever the
    * thread inherited (a program built with -ffast-math starts with
    * flush-to-zero and denormals-are-zero set, which worker threads copy):
    * round to nearest even, subnormals kept, as the prelude's float and
    * double arithmetic (metal_stdlib's __mc_f64_*) require. */
   fenv_t saved_env;
   bool env_ok = fegetenv(&saved_env) == 0 && fesetenv(FE_DFL_ENV) == 0;
   bind_threadgroup_memory(&L, d, w);
   if (!choose_mode(&L, d, w)) {
      w->msg = "out of memory for the fiber scheduler";
      record_failure(j, w, L.group, 2);
   }
   for (;;) {
      uint64_t first = atomic_fetch_add(&j->next, j->chunk);
      if (first >= j->total)
         break;
      uint64_t last = MC_MIN(first + j->chunk, j->total);
      run_range(j, w, &L, first, last);
      mine += last - first;
      if (atomic_fetch_add(&j->done, last - first) + (last - first) == j->total) {
         pthread_mutex_lock(&pool.lock);
         pthread_cond_broadcast(&pool.done);
         pthread_mutex_unlock(&pool.lock);
      }
   }
   if (env_ok)
      fesetenv(&saved_env);
   return mine;
}

static job *claimable(void)
{
   for (job *j = pool.jobs; j; j = j->link)
      if (atomic_load(&j->next) < j->total && !j->abort)
         return j;
   return NULL;
}

static void *pool_main(void *arg)
{
   soft_affinity_worker((uint32_t)(uintptr_t)arg);
   void *token = soft_thread_enter();
   worker_tls *w = tls;
   pthread_mutex_lock(&pool.lock);
   while (!pool.stop) {
      job *j = w ? claimable() : NULL;
      if (!j) {
         pthread_cond_wait(&pool.wake, &pool.lock);
         continue;
      }
      j->users++;
      pthread_mutex_unlock(&pool.lock);
      run_groups(j, w);
      pthread_mutex_lock(&pool.lock);
      j->users--;
      pthread_cond_broadcast(&pool.done);
   }
   pthread_mutex_unlock(&pool.lock);
   soft_thread_leave(token);
   return NULL;
}

bool soft_pool_acquire(char **err)
{
   pthread_once(&handler_once, install_handler);
   pthread_mutex_lock(&pool.lock);
   bool ok = true;
   if (pool.refs++ == 0) {
      /* The submitting thread works too: one pool thread fewer than CPUs. */
      uint32_t n = soft_thread_count() - 1;
      soft_affinity_init(n + 1);
      pool.stop = false;
      pool.threads = n ? mc_calloc(n, sizeof(pthread_t)) : NULL;
      if (n && !pool.threads) {
         ok = false;
      } else {
         for (pool.nthreads = 0; pool.nthreads < n; pool.nthreads++)
            if (soft_thread_create(&pool.threads[pool.nthreads], pool_main, (void *)(uintptr_t)pool.nthreads))
               break;
      }
      if (!ok) {
         pool.refs--;
         mtl_set_err(err, "out of memory starting the worker threads");
      }
   }
   pthread_mutex_unlock(&pool.lock);
   return ok;
}

void soft_pool_release(void)
{
   pthread_mutex_lock(&pool.lock);
   if (--pool.refs > 0) {
      pthread_mutex_unlock(&pool.lock);
      return;
   }
   pool.stop = true;
   pthread_cond_broadcast(&pool.wake);
   pthread_mutex_unlock(&pool.lock);
   for (uint32_t i = 0; i < pool.nthreads; i++)
      pthread_join(pool.threads[i], NULL);
   free(pool.threads);
   pool.threads = NULL;
   pool.nthreads = 0;
}

/* ---- co-resident dispatches (cooperative launches) ----
 *
 * Threadgroups of a cooperative grid wait for one another at grid.sync()
 * (a spin on a device word, which only the other threadgroups' arrival
 * ends), so the pool's "claim the next threadgroup when one finishes" could
 * deadlock as soon as the grid has more threadgroups than the pool has
 * threads.  Here every threadgroup gets its own OS thread, all started
 * before any is waited for: each is then scheduled by the operating system
 * whatever the others do, so every threadgroup reaches every grid barrier
 * and none can starve the rest (a spinning one is preempted).  The runtime
 * bounds the grid by the occupancy (16 threadgroups per CPU at most). */

typedef struct coresident_gate {
   pthread_mutex_t lock;
   pthread_cond_t open;
   int state;                  /* 0: closed, 1: open (job.abort says whether to run) */
} coresident_gate;

typedef struct coresident_arg {
   job *j;
   coresident_gate *gate;
   uint64_t idx;
   pthread_t thread;
   bool started;
} coresident_arg;

/* soft_launch.yield: a threadgroup waiting at a grid barrier for one that
 * failed would wait forever (NVIDIA ends the whole grid): it leaves here,
 * as a failure of its own, once the dispatch is aborted. */
static void yield_cpu(void)
{
   worker_tls *w = tls;
   if (w && w->grid_job && w->grid_job->abort)
      fail_from_kernel(w, "stopped: another threadgroup of the cooperative grid failed");
   sched_yield();
}

static void run_one_group(job *j, uint64_t idx)
{
   worker_tls *w = tls;
   soft_launch L = j->d->launch;
   L.yield = yield_cpu;
   w->grid_job = j;
   bind_threadgroup_memory(&L, j->d, w);
   if (!choose_mode(&L, j->d, w)) {
      w->msg = "out of memory for the fiber scheduler";
      record_failure(j, w, L.group, 2);
   } else {
      run_range(j, w, &L, idx, idx + 1);
   }
   w->grid_job = NULL;
}

static void *coresident_main(void *p)
{
   coresident_arg *a = p;
   /* No threadgroup starts before all have threads: one that could not
    * get one would leave the others waiting at grid.sync() forever. */
   pthread_mutex_lock(&a->gate->lock);
   while (!a->gate->state)
      pthread_cond_wait(&a->gate->open, &a->gate->lock);
   pthread_mutex_unlock(&a->gate->lock);
   void *token = soft_thread_enter();
   if (tls)
      run_one_group(a->j, a->idx);
   else
      a->j->abort = true;
   soft_thread_leave(token);
   return NULL;
}

static void run_coresident(job *j, worker_tls *w)
{
   (void)w;
   uint64_t n = j->total;
   coresident_arg *args = mc_calloc(n, sizeof(*args));
   if (!args) {
      j->err = strdup("out of memory starting the threads of a co-resident dispatch");
      j->abort = true;
      return;
   }
   coresident_gate gate = {.lock = PTHREAD_MUTEX_INITIALIZER, .open = PTHREAD_COND_INITIALIZER};
   for (uint64_t i = 1; i < n; i++) {
      args[i] = (coresident_arg){.j = j, .gate = &gate, .idx = i};
      args[i].started = !soft_thread_create(&args[i].thread, coresident_main, &args[i]);
      if (!args[i].started) {
         pthread_mutex_lock(&pool.lock);
         if (!j->err)
            j->err = strdup("cannot start a thread for every threadgroup of a co-resident dispatch");
         pthread_mutex_unlock(&pool.lock);
         j->abort = true;   /* run_range skips every threadgroup */
         break;
      }
   }
   pthread_mutex_lock(&gate.lock);
   gate.state = 1;
   pthread_cond_broadcast(&gate.open);
   pthread_mutex_unlock(&gate.lock);
   run_one_group(j, 0);
   for (uint64_t i = 1; i < n; i++)
      if (args[i].started)
         pthread_join(args[i].thread, NULL);
   free(args);
}

/* ---- small dispatches ----
 *
 * Waking the pool costs the submitting thread a broadcast and the woken
 * thread a trip through the OS scheduler: several microseconds, tens on a
 * loaded or virtual machine, against a kernel of a thousand threads that
 * runs in one or two.  Programs that launch thousands of such kernels
 * (LULESH: about 30 an iteration) spent more in the wake-ups than in the
 * kernels.  So a dispatch whose work, at its pipeline's last measured cost
 * per thread, is below SOLO_PS runs on the submitting thread alone.  The
 * cost is measured on every dispatch from the submitting thread's own
 * threadgroups (unknown before a pipeline's first one, which goes to the
 * pool), so a kernel whose cost grows with its data moves back to the
 * pool.  Only where threadgroups run changes: CUDA lets a grid's blocks
 * run in any order, in parallel or in series (a kernel that needs them
 * resident together is a cooperative launch, which has its own path
 * above), and each still runs start to end on one OS thread. */
enum { SOLO_PS = 20 * 1000 * 1000 };    /* 20 us */

static bool run_solo(const soft_dispatch *d, uint64_t total)
{
   if (pool.nthreads == 0 || total == 1)
      return true;
   uint64_t ps = atomic_load_explicit(&d->pipe->ps_per_thread, memory_order_relaxed);
   uint64_t threads = total * d->launch.nthreads;
   return ps && threads < SOLO_PS / ps;
}

static void note_cost(const soft_dispatch *d, uint64_t ns, uint64_t groups)
{
   uint64_t threads = groups * d->launch.nthreads;
   if (threads)
      atomic_store_explicit(&d->pipe->ps_per_thread, MC_MAX(ns * 1000 / threads, (uint64_t)1),
                            memory_order_relaxed);
}

bool soft_run_dispatch(const soft_dispatch *d, char **err, uint64_t *fault_addr)
{
   job j = {.d = d, .total = (uint64_t)d->launch.grid[0] * d->launch.grid[1] * d->launch.grid[2]};
   /* About 16 claims per worker: long runs, and still an even finish when
    * threadgroups differ in cost. */
   j.chunk = MC_MAX(j.total / ((uint64_t)(pool.nthreads + 1) * 16), (uint64_t)1);
   void *token = soft_thread_enter();     /* no-op on queue threads, which entered already */
   worker_tls *w = tls;
   if (!w) {
      mtl_set_err(err, "out of memory for worker state");
      return false;
   }
   if (d->coresident && j.total > 1) {
      run_coresident(&j, w);
      j.done = j.total;
   } else {
      bool solo = run_solo(d, j.total);
      if (!solo) {
         pthread_mutex_lock(&pool.lock);
         j.link = pool.jobs;
         pool.jobs = &j;
         pthread_cond_broadcast(&pool.wake);
         pthread_mutex_unlock(&pool.lock);
      }
      soft_affinity saved;
      bool bound = !solo && soft_affinity_enter(&saved);
      uint64_t t0 = time_ns();
      uint64_t mine = run_groups(&j, w);
      note_cost(d, time_ns() - t0, mine);
      if (bound)
         soft_affinity_leave(&saved);
   }

   pthread_mutex_lock(&pool.lock);
   while (atomic_load(&j.done) < j.total || j.users)
      pthread_cond_wait(&pool.done, &pool.lock);
   for (job **p = &pool.jobs; *p; p = &(*p)->link)
      if (*p == &j) {
         *p = j.link;
         break;
      }
   pthread_mutex_unlock(&pool.lock);
   soft_thread_leave(token);
   if (j.err) {
      if (fault_addr)
         *fault_addr = j.fault_addr;
      if (err)
         *err = j.err;
      else
         free(j.err);
      return false;
   }
   return !j.abort;
}
