/*
 * test_msl_util.h — running one MSL kernel over an input and an output
 * buffer, with the whole prelude in front of it, for the unit tests that
 * check prelude helpers against a host reference (test_msl_round.c,
 * test_msl_f64.c).  static inline, as tests/unit/test_ptx_util.h.
 */
#ifndef MC_TEST_MSL_UTIL_H
#define MC_TEST_MSL_UTIL_H

#include "harness.h"

#include "../../src/compiler/msl/msl.h"
#include "../../src/metal/mtl.h"
#include "../../src/util/util.h"

#include <stdlib.h>

/* The pipeline of kernel `name` in kernel_src, compiled after the prelude
 * (and before it the text pre: e.g. an #undef of a device's macro) on dev;
 * NULL (and the test failed) when that does not work. */
static inline mtl_pipeline *tm_pipeline_pre(mtl_device *dev, const char *pre, const char *kernel_src,
                                            const char *name)
{
   mtl_device_info info;
   mtl_device_get_info(dev, &info);
   strbuf src;
   strbuf_init(&src);
   strbuf_puts(&src, "#include <metal_stdlib>\nusing namespace metal;\n\n");
   strbuf_puts(&src, pre);
   strbuf_puts(&src, msl_prelude_text);
   strbuf_puts(&src, kernel_src);
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, src.s, NULL, &err);
   strbuf_free(&src);
   if (!lib) {
      test_fail_(__FILE__, __LINE__, "%s: compile error: %s", info.name, err);
      free(err);
      return NULL;
   }
   mtl_function *fn = mtl_function_new(lib, name, NULL);
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
   mtl_function_release(fn);
   mtl_library_release(lib);
   if (!p)
      test_fail_(__FILE__, __LINE__, "%s: no pipeline for %s", info.name, name);
   return p;
}

static inline mtl_pipeline *tm_pipeline(mtl_device *dev, const char *kernel_src, const char *name)
{
   return tm_pipeline_pre(dev, "", kernel_src, name);
}

/* Runs p on n threads (groups of 256) with in at buffer 0, out at buffer 1
 * and n at buffer 2, and waits; false (and the test failed) if it failed. */
static inline bool tm_dispatch(mtl_queue *q, mtl_pipeline *p, mtl_buffer *in, mtl_buffer *out, uint32_t n)
{
   mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, p);
   mtl_encoder_set_buffer(e, in, 0, 0);
   mtl_encoder_set_buffer(e, out, 0, 1);
   mtl_encoder_set_bytes(e, &n, 4, 2);
   mtl_encoder_dispatch_threadgroups(e, (mtl_size){ (n + 255) / 256, 1, 1 }, (mtl_size){ 256, 1, 1 });
   mtl_encoder_end(e);
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   bool ok = mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_COMPLETED;
   if (!ok)
      test_fail_(__FILE__, __LINE__, "kernel failed: %s", mtl_cmdbuf_error(cb));
   mtl_cmdbuf_release(cb);
   return ok;
}

#endif
