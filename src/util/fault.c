/*
 * fault.c — allocation fault injection.
 *
 * A countdown shared by every allocator that can fail.  Tests set it with
 * fault_fail_after(n) and loop n = 1, 2, ... until the operation completes,
 * checking after each run that the error was reported and nothing leaked.
 * The counter is atomic so worker threads can hit it too.
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

static _Atomic long fault_countdown;   /* 0: off */

void fault_fail_after(long n) { fault_countdown = n; }
void fault_reset(void) { fault_countdown = 0; }

bool fault_hit(void)
{
   if (fault_countdown == 0)
      return false;
   if (fault_countdown == 1)
      return true;     /* stay at 1: every later call fails too */
   fault_countdown--;
   return false;
}

void *mc_malloc(size_t n) { return fault_hit() ? NULL : malloc(n ? n : 1); }
void *mc_calloc(size_t n, size_t size) { return fault_hit() ? NULL : calloc(n ? n : 1, size ? size : 1); }
void *mc_realloc(void *p, size_t n) { return fault_hit() ? NULL : realloc(p, n ? n : 1); }
void mc_free(void *p) { free(p); }

char *mc_strdup(const char *s)
{
   size_t n = strlen(s) + 1;
   char *d = mc_malloc(n);
   if (d)
      memcpy(d, s, n);
   return d;
}
