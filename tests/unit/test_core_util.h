/*
 * test_core_util.h — running a PTX kernel through the core, for the unit
 * tests that check what a launch does (test_validate.c, test_resume.c).
 * static inline, as tests/unit/test_ptx_util.h.
 */
#ifndef MC_TEST_CORE_UTIL_H
#define MC_TEST_CORE_UTIL_H

#include "core/core.h"

#include <stdio.h>
#include <string.h>

/* Loads ptx in context c, launches its kernel `name` on grid x block with
 * args, synchronises; returns the first status that is not a success (or
 * the synchronisation's) and copies the context's message to msg. */
static inline int tc_run_ptx(core_ctx *c, const char *ptx, const char *name, const uint32_t grid[3],
                             const uint32_t block[3], void **args, char *msg, size_t len)
{
   core_module *m = NULL;
   core_kernel *k = NULL;
   int r = c ? core_module_load(c, ptx, strlen(ptx), &m) : CORE_ERROR_NO_DEVICE;
   if (r == CORE_SUCCESS)
      r = core_module_get_kernel(m, name, &k);
   if (r == CORE_SUCCESS) {
      core_launch_config cfg = { { grid[0], grid[1], grid[2] }, { block[0], block[1], block[2] }, 0, NULL, args,
                                 NULL, 0 };
      r = core_launch(k, &cfg);
      if (r == CORE_SUCCESS)
         r = core_ctx_synchronize(c);
   }
   snprintf(msg, len, "%s", c ? c->sticky_msg : "");
   if (m)
      core_module_unload(m);
   return r;
}

#endif
