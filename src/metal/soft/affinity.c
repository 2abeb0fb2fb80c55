/*
 * affinity.c — the CPUs the software device's threads run a dispatch on
 * (Linux; elsewhere the scheduler decides alone).
 *
 * A dispatch runs on the queue thread that submitted it and on the pool's
 * workers (exec.c).  Woken by the queue thread, a worker is often placed
 * by the scheduler on the queue thread's own CPU (the program's thread,
 * about to block in a synchronisation, still holds the other one), and the
 * two then share one CPU for milliseconds while another idles: Linux does
 * not move a task that has just run.  On a 2-CPU VM the first 2 to 6
 * launches of a stencil in about one process of two ran at half speed so
 * (bench/README.md, twenty-sixth session).  So each worker is bound to a
 * CPU of its own and a queue thread, while it runs threadgroups of a
 * dispatch, to the one left over; with the threads so bound every launch
 * of every process ran at full speed.  The binding is made only where the
 * process may run on at least as many CPUs as the device has threads (else
 * threads would share CPUs whatever is done), and METALCUDA_SOFT_PIN=0
 * turns it off.  A queue thread's own affinity is restored after each
 * dispatch, so the small dispatches it runs alone, and the program's
 * streams, still spread over every CPU.
 */
#include "soft.h"

#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sched.h>

static struct {
   bool on;
   int cpu[1024];                 /* [0]: dispatching queue threads, [1 + k]: worker k */
} plan;

void soft_affinity_init(uint32_t threads)
{
   const char *e = getenv("METALCUDA_SOFT_PIN");
   cpu_set_t allowed;
   plan.on = false;
   if ((e && !strcmp(e, "0")) || threads < 2 || threads > 1024 ||
       sched_getaffinity(0, sizeof(allowed), &allowed) != 0 || (uint32_t)CPU_COUNT(&allowed) < threads)
      return;
   uint32_t n = 0;
   for (int c = 0; c < CPU_SETSIZE && n < threads; c++)
      if (CPU_ISSET(c, &allowed))
         plan.cpu[n++] = c;
   plan.on = n == threads;
}

static void bind_to(int cpu)
{
   cpu_set_t one;
   CPU_ZERO(&one);
   CPU_SET(cpu, &one);
   (void)pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
}

void soft_affinity_worker(uint32_t k)
{
   if (plan.on)
      bind_to(plan.cpu[1 + k]);
}

bool soft_affinity_enter(soft_affinity *saved)
{
   saved->valid = false;
   if (!plan.on || pthread_getaffinity_np(pthread_self(), sizeof(saved->set), &saved->set) != 0)
      return false;
   saved->valid = true;
   bind_to(plan.cpu[0]);
   return true;
}

void soft_affinity_leave(const soft_affinity *saved)
{
   if (saved->valid)
      (void)pthread_setaffinity_np(pthread_self(), sizeof(saved->set), &saved->set);
}

#else

void soft_affinity_init(uint32_t threads) { (void)threads; }
void soft_affinity_worker(uint32_t k) { (void)k; }

bool soft_affinity_enter(soft_affinity *saved)
{
   saved->valid = false;
   return false;
}

void soft_affinity_leave(const soft_affinity *saved) { (void)saved; }

#endif
