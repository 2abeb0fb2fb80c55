#ifndef _MC_SCHED_H
#define _MC_SCHED_H
/* POSIX <sched.h> as macOS has it: sched_yield, and no CPU-affinity calls
 * (sched_setaffinity, CPU_SET are Linux's). */
int sched_yield(void);
#endif
