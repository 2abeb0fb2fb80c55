/*
 * test_core_util.h — running a PTX kernel through the core, for the unit
 * tests that check what a launch does (test_validate.c, test_resume.c,
 * test_lockstep.c), translating one (and counting constructs in its MSL),
 * and its IR after the pipeline.
 * static inline, as tests/unit/test_ptx_util.h.
 */
#ifndef MC_TEST_CORE_UTIL_H
#define MC_TEST_CORE_UTIL_H

#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The MSL of ptx's first kernel (malloc'd), or NULL with the reason on
 * stderr. */
static inline char *tc_msl_of(const char *ptx)
{
   char *err = NULL;
   mc_module *m = compiler_module_load(ptx, strlen(ptx), &err);
   char *msl = NULL;
   if (m) {
      mc_kernel_info info;
      msl = compiler_translate_kernel(m, 0, NULL, &info, &err);
      compiler_module_free(m);
   }
   if (err)
      fprintf(stderr, "    %s\n", err);
   free(err);
   return msl;
}

/* How many times needle occurs in s (non-overlapping; 0 for NULL): the
 * tests that count constructs in emitted MSL. */
static inline uint32_t tc_count(const char *s, const char *needle)
{
   uint32_t n = 0;
   for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
      n++;
   return n;
}

/* ptx's kernel `name` built and run through the IR pipeline (optimised)
 * in ar, or NULL with the reason on stderr: for tests of a pass's result. */
static inline ir_func *tc_ir_of(arena *ar, const char *ptx, const char *name)
{
   ptx_module *pm = ptx_parse_module(ar, ptx, strlen(ptx));
   ir_module *m = pm ? ir_module_create(ar, pm) : NULL;
   ir_func *f = m && ir_build_globals(m) ? ir_build_func(m, ptx_find_func(pm, name)) : NULL;
   ir_pipeline_options po = { .optimize = true };
   if (f && ir_link_calls(m, f) && ir_run_pipeline(m, &po))
      return f;
   fprintf(stderr, "    pipeline failed: %s\n", m && m->error ? m->error : "parse");
   return NULL;
}

/* The primary context of device 0, made once (NULL if there is none);
 * tc_ctx_reset drops it for a fresh one (after a sticky error). */
static core_ctx *tc_ctx_;

static inline core_ctx *tc_ctx(void)
{
   if (!tc_ctx_ && (core_init() != CORE_SUCCESS || core_ctx_retain_primary(core_device_get(0), &tc_ctx_) != CORE_SUCCESS))
      tc_ctx_ = NULL;
   return tc_ctx_;
}

static inline void tc_ctx_reset(void)
{
   if (!tc_ctx_)
      return;
   core_device *d = tc_ctx_->dev;
   core_ctx_release_primary(d);
   core_ctx_reset_primary(d);
   tc_ctx_ = NULL;
}

/* An environment variable's value (malloc'd, NULL if unset), to put back
 * with tc_env_restore after a test sets it. */
static inline char *tc_env_save(const char *name)
{
   const char *v = getenv(name);
   return v ? strdup(v) : NULL;
}

static inline void tc_env_restore(const char *name, char *saved)
{
   if (saved)
      setenv(name, saved, 1);
   else
      unsetenv(name);
   free(saved);
}

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
                                 NULL, 0, false };
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
