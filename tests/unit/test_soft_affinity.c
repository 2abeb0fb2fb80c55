/*
 * test_soft_affinity.c — the CPUs the software device binds its threads to
 * while a dispatch runs (src/metal/soft/affinity.c): a worker to a CPU of
 * its own, a dispatching queue thread to the one left over and back to its
 * own affinity afterwards; nothing bound with METALCUDA_SOFT_PIN=0 or where
 * the process may not use as many CPUs as the device has threads.  Expected
 * values: the thread's affinity read back from the kernel (Linux only).
 */
#include "harness.h"

#include "../../src/metal/soft/soft.h"

#include <pthread.h>
#include <stdlib.h>

#if defined(__linux__)

static int allowed_count(void)
{
   cpu_set_t s;
   return pthread_getaffinity_np(pthread_self(), sizeof(s), &s) == 0 ? CPU_COUNT(&s) : 0;
}

/* The one CPU the calling thread may run on, -1 if not exactly one. */
static int only_cpu(void)
{
   cpu_set_t s;
   if (pthread_getaffinity_np(pthread_self(), sizeof(s), &s) != 0 || CPU_COUNT(&s) != 1)
      return -1;
   for (int c = 0; c < CPU_SETSIZE; c++)
      if (CPU_ISSET(c, &s))
         return c;
   return -1;
}

static void *worker_cpu(void *arg)
{
   soft_affinity_worker(0);
   *(int *)arg = only_cpu();
   return NULL;
}

TEST(dispatching_thread_and_worker_are_bound_to_two_cpus_and_released)
{
   int n = allowed_count();
   if (n < 2) {
      test_skip("needs 2 CPUs, the process may use %d", n);
      return;
   }
   unsetenv("METALCUDA_SOFT_PIN");
   soft_affinity_init(2);
   int worker = -2;
   pthread_t t;
   CHECK_INT(pthread_create(&t, NULL, worker_cpu, &worker), 0);
   pthread_join(t, NULL);
   soft_affinity saved;
   CHECK(soft_affinity_enter(&saved));
   int dispatcher = only_cpu();
   soft_affinity_leave(&saved);
   CHECK_MSG(worker >= 0 && dispatcher >= 0 && worker != dispatcher, "worker on CPU %d, dispatcher on CPU %d",
             worker, dispatcher);
   CHECK_INT(allowed_count(), n);       /* the dispatcher's own affinity is back */
}

TEST(nothing_is_bound_when_turned_off_or_with_more_threads_than_cpus)
{
   int n = allowed_count();
   soft_affinity saved;
   setenv("METALCUDA_SOFT_PIN", "0", 1);
   soft_affinity_init(2);
   CHECK(!soft_affinity_enter(&saved));
   unsetenv("METALCUDA_SOFT_PIN");
   soft_affinity_init((uint32_t)n + 1);
   CHECK(!soft_affinity_enter(&saved));
   int worker = -2;
   pthread_t t;
   CHECK_INT(pthread_create(&t, NULL, worker_cpu, &worker), 0);
   pthread_join(t, NULL);
   CHECK_MSG(worker == -1 || n == 1, "a worker was bound to CPU %d", worker);
   CHECK_INT(allowed_count(), n);
}

#else

TEST(affinity_is_left_to_the_scheduler_outside_linux)
{
   soft_affinity saved;
   soft_affinity_init(2);
   CHECK(!soft_affinity_enter(&saved));
   soft_affinity_leave(&saved);
}

#endif
