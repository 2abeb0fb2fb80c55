/*
 * test_mtl_soft.c — the software Metal device through mtl.h: buffers
 * mapped twice, queue order, asynchronous completion, events across
 * queues, blits, the compile cache, kernel faults, fault injection, the
 * floating-point environment kernels run in (subnormals kept).
 *
 * Uses the test cache of tests/run.sh (METALCUDA_CACHE) or its own.
 */
#include "harness.h"

#include "../../src/metal/mtl.h"
#include "../../src/metal/soft/soft.h"
#include "../../src/util/util.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static mtl_device *soft_device(void)
{
   uint32_t n = mtl_device_count();
   return n ? mtl_device_get(n - 1) : NULL;
}

/* A command buffer with one single-kernel dispatch, committed. */
typedef struct bind {
   mtl_buffer *buf;
   const void *bytes;
   size_t len;
} bind;

static mtl_cmdbuf *dispatch(mtl_queue *q, mtl_pipeline *p, const bind *b, int nb, mtl_size groups,
                            mtl_size threads)
{
   mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, p);
   for (int i = 0; i < nb; i++) {
      if (b[i].buf)
         mtl_encoder_set_buffer(e, b[i].buf, 0, (uint32_t)i);
      else
         mtl_encoder_set_bytes(e, b[i].bytes, b[i].len, (uint32_t)i);
   }
   mtl_encoder_dispatch_threadgroups(e, groups, threads);
   mtl_encoder_end(e);
   return cb;
}

static mtl_pipeline *pipeline(mtl_device *dev, const char *src, const char *name)
{
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, src, NULL, &err);
   if (!lib) {
      printf("    compile error: %s\n", err);
      free(err);
      return NULL;
   }
   mtl_function *fn = mtl_function_new(lib, name, NULL);
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
   mtl_function_release(fn);
   mtl_library_release(lib);
   return p;
}

static const char append_src[] =
   "#include <metal_stdlib>\nusing namespace metal;\n"
   "kernel void append(device uint *v [[buffer(0)]], constant uint &d [[buffer(1)]],\n"
   "                   uint i [[thread_position_in_grid]]) { v[0] = v[0] * 10 + d; }\n";

TEST(device_registry)
{
   CHECK(mtl_device_count() >= 1);
   mtl_device *dev = soft_device();
   CHECK(dev != NULL);
   CHECK(mtl_device_get(mtl_device_count()) == NULL);
   mtl_device_info info;
   mtl_device_get_info(dev, &info);
   CHECK(info.is_software);
   CHECK(info.has_unified_memory);
   CHECK_INT(info.max_threads_per_threadgroup, 1024);
   CHECK_INT(info.max_threadgroup_memory, 32768);
   CHECK_INT(info.simd_width, 32);
   CHECK_INT(info.msl_version, 320);
   CHECK(info.compute_units >= 1);
   CHECK(info.max_buffer_length >= (1ull << 36));
   CHECK(info.name[0] != 0);
}

TEST(buffer_double_mapping)
{
   mtl_device *dev = soft_device();
   char *err = NULL;
   mtl_buffer *b = mtl_buffer_new(dev, 10000, &err);
   CHECK_MSG(b, "buffer: %s", err);
   uint8_t *cpu = mtl_buffer_contents(b);
   uint8_t *gpu = (uint8_t *)(uintptr_t)mtl_buffer_gpu_address(b);
   CHECK(cpu != gpu);
   CHECK_INT(mtl_buffer_length(b), 10000);
   cpu[9999] = 0x5a;
   CHECK_INT(gpu[9999], 0x5a);      /* a write through one view is seen through the other */
   gpu[17] = 0xa5;
   CHECK_INT(cpu[17], 0xa5);
   soft_buffer *found = soft_buffer_find_gpu(mtl_buffer_gpu_address(b) + 100, 16);
   CHECK(found && &found->base == b);
   CHECK(soft_buffer_find_gpu((uint64_t)(uintptr_t)cpu, 1) != found);   /* CPU view is not a GPU address */
   CHECK(soft_buffer_find_gpu(mtl_buffer_gpu_address(b) + 9990, 32) == NULL);
   mtl_buffer_release(b);
   CHECK(mtl_buffer_new(dev, 0, &err) == NULL);
   CHECK_CONTAINS(err, "length must not be zero");
   free(err);
}

TEST(buffer_large_is_sparse)
{
   mtl_device *dev = soft_device();
   uint64_t t0 = time_ns();
   size_t len = (size_t)40 << 30;       /* 40 GB of virtual memory */
   char *err = NULL;
   mtl_buffer *b = mtl_buffer_new(dev, len, &err);
   CHECK_MSG(b, "40 GB buffer: %s", err);
   uint8_t *cpu = mtl_buffer_contents(b);
   uint8_t *gpu = (uint8_t *)(uintptr_t)mtl_buffer_gpu_address(b);
   cpu[len - 1] = 7;                    /* touches one page at each end */
   cpu[0] = 9;
   CHECK_INT(gpu[len - 1], 7);
   CHECK_INT(gpu[0], 9);
   mtl_buffer_release(b);
   double ms = (double)(time_ns() - t0) / 1e6;
   CHECK_MSG(ms < 500, "40 GB buffer took %.1f ms", ms);
}

TEST(queue_order)
{
   mtl_device *dev = soft_device();
   mtl_pipeline *p = pipeline(dev, append_src, "append");
   CHECK(p);
   mtl_buffer *v = mtl_buffer_new(dev, 4, NULL);
   *(uint32_t *)mtl_buffer_contents(v) = 0;
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_cmdbuf *cbs[8];
   uint32_t digits[8] = {3, 1, 4, 1, 5, 9, 2, 6};
   for (int i = 0; i < 8; i++) {
      bind b[2] = {{v, NULL, 0}, {NULL, &digits[i], 4}};
      cbs[i] = dispatch(q, p, b, 2, (mtl_size){1, 1, 1}, (mtl_size){1, 1, 1});
      mtl_cmdbuf_commit(cbs[i]);
   }
   mtl_cmdbuf_wait_until_completed(cbs[7]);
   for (int i = 0; i < 8; i++) {
      CHECK_INT(mtl_cmdbuf_get_status(cbs[i]), MTL_CMDBUF_COMPLETED);
      mtl_cmdbuf_release(cbs[i]);
   }
   CHECK_INT(*(uint32_t *)mtl_buffer_contents(v), 31415926);
   mtl_queue_release(q);
   mtl_buffer_release(v);
   mtl_pipeline_release(p);
}

typedef struct handler_log {
   _Atomic int calls;
   _Atomic int status;
   _Atomic int order[4];
   _Atomic int n;
} handler_log;

static handler_log hlog;

static void on_done(mtl_cmdbuf *cb, void *data)
{
   hlog.calls++;
   hlog.status = mtl_cmdbuf_get_status(cb);
   hlog.order[hlog.n++ % 4] = (int)(intptr_t)data;
}

TEST(async_completion)
{
   mtl_device *dev = soft_device();
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_event *ev = mtl_event_new(dev, NULL);
   memset(&hlog, 0, sizeof(hlog));
   mtl_cmdbuf *a = mtl_cmdbuf_new(q, NULL), *b = mtl_cmdbuf_new(q, NULL);
   mtl_cmdbuf_encode_wait_event(a, ev, 1);       /* blocks the queue until the host says so */
   mtl_cmdbuf_add_completed_handler(a, on_done, (void *)1);
   mtl_cmdbuf_add_completed_handler(b, on_done, (void *)2);
   double t0 = (double)time_ns() / 1e9;
   mtl_cmdbuf_commit(a);
   mtl_cmdbuf_commit(b);
   /* a's GPU time starts when the queue takes it up: the 20 ms it must
    * wait are counted from then (on a loaded machine that can be late) */
   for (int k = 0; k < 5000 && mtl_cmdbuf_get_status(a) != MTL_CMDBUF_SCHEDULED; k++)
      usleep(1000);
   CHECK_INT(mtl_cmdbuf_get_status(a), MTL_CMDBUF_SCHEDULED);
   usleep(20000);
   CHECK_INT(hlog.calls, 0);                      /* commit returned; nothing completed */
   CHECK_INT(mtl_cmdbuf_get_status(a), MTL_CMDBUF_SCHEDULED);
   CHECK_INT(mtl_cmdbuf_get_status(b), MTL_CMDBUF_COMMITTED);
   mtl_event_set_signaled_value(ev, 1);
   mtl_cmdbuf_wait_until_completed(b);
   double t1 = (double)time_ns() / 1e9;
   CHECK_INT(hlog.calls, 2);
   CHECK_INT(hlog.order[0], 1);
   CHECK_INT(hlog.order[1], 2);
   CHECK_INT(hlog.status, MTL_CMDBUF_COMPLETED);
   CHECK(mtl_cmdbuf_error(a) == NULL);
   double s = mtl_cmdbuf_gpu_start_time(a), e = mtl_cmdbuf_gpu_end_time(a);
   CHECK_MSG(t0 <= s && s <= e && e <= t1, "times %.6f %.6f %.6f %.6f", t0, s, e, t1);
   CHECK_MSG(e - s >= 0.015, "a waited ~20 ms, GPU time %.6f s", e - s);
   mtl_cmdbuf_release(a);
   mtl_cmdbuf_release(b);
   mtl_event_release(ev);
   mtl_queue_release(q);
}

TEST(events_across_queues)
{
   mtl_device *dev = soft_device();
   mtl_queue *q1 = mtl_queue_new(dev, NULL), *q2 = mtl_queue_new(dev, NULL);
   mtl_event *ev = mtl_event_new(dev, NULL);
   mtl_buffer *buf = mtl_buffer_new(dev, 64, NULL);
   mtl_buffer *src = mtl_buffer_new(dev, 64, NULL);
   memset(mtl_buffer_contents(src), 0x11, 64);
   /* q1: wait for 5, then copy src over buf.  q2: fill buf with 0x22, signal 5. */
   mtl_cmdbuf *c1 = mtl_cmdbuf_new(q1, NULL);
   mtl_cmdbuf_encode_wait_event(c1, ev, 5);
   mtl_blit *bl = mtl_cmdbuf_blit_encoder(c1);
   mtl_blit_copy(bl, src, 0, buf, 0, 32);
   mtl_blit_end(bl);
   mtl_cmdbuf_commit(c1);
   CHECK(!mtl_event_wait(ev, 5, 30));            /* times out: nobody signalled yet */
   mtl_cmdbuf *c2 = mtl_cmdbuf_new(q2, NULL);
   bl = mtl_cmdbuf_blit_encoder(c2);
   mtl_blit_fill(bl, buf, 0, 64, 0x22);
   mtl_blit_end(bl);
   mtl_cmdbuf_encode_signal_event(c2, ev, 5);
   mtl_cmdbuf_commit(c2);
   CHECK(mtl_event_wait(ev, 5, 5000));
   mtl_cmdbuf_wait_until_completed(c1);
   uint8_t *p = mtl_buffer_contents(buf);
   CHECK_INT(p[0], 0x11);                         /* the copy ran after the fill */
   CHECK_INT(p[31], 0x11);
   CHECK_INT(p[32], 0x22);
   CHECK_INT(mtl_event_signaled_value(ev), 5);
   mtl_cmdbuf_release(c1);
   mtl_cmdbuf_release(c2);
   mtl_queue_release(q1);
   mtl_queue_release(q2);
   mtl_event_release(ev);
   mtl_buffer_release(buf);
   mtl_buffer_release(src);
}

TEST(blit_copy_fill)
{
   mtl_device *dev = soft_device();
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_buffer *a = mtl_buffer_new(dev, 256, NULL), *b = mtl_buffer_new(dev, 256, NULL);
   uint8_t *pa = mtl_buffer_contents(a), *pb = mtl_buffer_contents(b);
   for (int i = 0; i < 256; i++)
      pa[i] = (uint8_t)i;
   memset(pb, 0, 256);
   mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
   mtl_blit *bl = mtl_cmdbuf_blit_encoder(cb);
   mtl_blit_fill(bl, b, 0, 256, 0xee);
   mtl_blit_copy(bl, a, 10, b, 100, 50);
   mtl_blit_end(bl);
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_COMPLETED);
   CHECK_INT(pb[99], 0xee);
   CHECK_INT(pb[100], 10);
   CHECK_INT(pb[149], 59);
   CHECK_INT(pb[150], 0xee);
   mtl_cmdbuf_release(cb);
   /* out of range: a command-buffer error, nothing written */
   cb = mtl_cmdbuf_new(q, NULL);
   bl = mtl_cmdbuf_blit_encoder(cb);
   mtl_blit_fill(bl, b, 0, 16, 0);
   mtl_blit_copy(bl, a, 200, b, 0, 100);
   mtl_blit_end(bl);
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_ERROR);
   CHECK_CONTAINS(mtl_cmdbuf_error(cb), "outside a 256-byte buffer");
   CHECK_INT(pb[0], 0xee);
   mtl_cmdbuf_release(cb);
   mtl_queue_release(q);
   mtl_buffer_release(a);
   mtl_buffer_release(b);
}

TEST(cache_hit_skips_compiler)
{
   mtl_device *dev = soft_device();
   /* A source no earlier run compiled: the first creation is a miss. */
   char src[512];
   snprintf(src, sizeof(src),
            "#include <metal_stdlib>\nusing namespace metal;\n// unique %d %llu\n"
            "kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]]) { v[i] = i; }\n",
            (int)getpid(), (unsigned long long)time_ns());
   char *err = NULL;
   uint64_t before = soft_compile_count(), t0 = time_ns();
   mtl_library *a = mtl_library_new(dev, src, NULL, &err);
   double cold_ms = (double)(time_ns() - t0) / 1e6;
   CHECK_MSG(a, "compile: %s", err);
   CHECK_INT(soft_compile_count(), before + 1);
   t0 = time_ns();
   mtl_library *b = mtl_library_new(dev, src, NULL, &err);
   double hit_ms = (double)(time_ns() - t0) / 1e6;
   CHECK(b);
   CHECK_INT(soft_compile_count(), before + 1);  /* no compiler run */
   fprintf(stderr, "    compile (miss) %.1f ms, cache hit %.3f ms\n", cold_ms, hit_ms);
   /* relative to the miss, not in ms: a loaded machine (or ASan) slows both */
   CHECK_MSG(hit_ms * 10 < cold_ms, "cache hit took %.3f ms, the compile %.1f ms", hit_ms, cold_ms);
   /* Different options are a different library. */
   mtl_compile_options fast = {.fast_math = true};
   mtl_library *c = mtl_library_new(dev, src, &fast, &err);
   CHECK(c);
   CHECK_INT(soft_compile_count(), before + 2);
   mtl_library_release(a);
   mtl_library_release(b);
   mtl_library_release(c);
}

/* The precompiled prelude (compile.c): the text from `#include
 * <metal_stdlib>` to the prelude's end line is compiled once and reused by
 * every source that repeats it; the code after it keeps its lines, MSL's
 * prohibitions and its results; a precompiled header clang rejects falls
 * back to the whole unit and is made again. */
static int count_pch(void)
{
   DIR *d = opendir(soft_cache_base());
   int n = 0;
   for (struct dirent *e; d && (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      n += !strncmp(e->d_name, "pch-", 4) && len > 4 && !strcmp(e->d_name + len - 4, ".pch");
   }
   if (d)
      closedir(d);
   return n;
}

static char *prelude_src(const char *tail, unsigned salt)
{
   char *s = malloc(1024);
   snprintf(s, 1024,
            "// a generated module\n#include <metal_stdlib>\nusing namespace metal;\n"
            "// unique %d %u\ninline uint helper(uint x) { return x * 3u + %uu; }\n"
            "// metalcuda: end of the prelude\n%s",
            (int)getpid(), salt, salt, tail);
   return s;
}

static bool run_helper_kernel(mtl_device *dev, const char *src, uint32_t salt)
{
   mtl_pipeline *p = pipeline(dev, src, "k");
   if (!p)
      return false;
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_buffer *v = mtl_buffer_new(dev, 64 * 4, NULL);
   bind b[] = {{v, NULL, 0}};
   mtl_cmdbuf *cb = dispatch(q, p, b, 1, (mtl_size){1, 1, 1}, (mtl_size){64, 1, 1});
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   const uint32_t *r = mtl_buffer_contents(v);
   bool ok = true;
   for (uint32_t i = 0; i < 64; i++)
      ok &= r[i] == i * 3u + salt;
   mtl_cmdbuf_release(cb);
   mtl_buffer_release(v);
   mtl_queue_release(q);
   mtl_pipeline_release(p);
   return ok;
}

TEST(precompiled_prelude)
{
   mtl_device *dev = soft_device();
   unsigned salt = (unsigned)(time_ns() % 100000u);
   static const char k1[] = "kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                            " { v[i] = helper(i); }\n";
   static const char k2[] = "kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                            " { v[i] = helper(i) + 0u; }\n";
   int before = count_pch();
   char *s1 = prelude_src(k1, salt), *s2 = prelude_src(k2, salt);
   CHECK(run_helper_kernel(dev, s1, salt));
   CHECK_INT(count_pch(), before + 1);            /* made by the first library */
   CHECK(run_helper_kernel(dev, s2, salt));
   CHECK_INT(count_pch(), before + 1);            /* reused by the second */
   /* after the prelude: lines as in the source, and Metal's rules */
   char *bad = prelude_src("kernel void k(device uint *v [[buffer(0)]]) {\n  v[0] = nope;\n}\n", salt);
   char *dbl = prelude_src("kernel void k(device float *v [[buffer(0)]]) {\n  double d = v[0]; v[0] = (float)d;\n}\n",
                           salt);
   char *err = NULL;
   CHECK(mtl_library_new(dev, bad, NULL, &err) == NULL);
   CHECK_CONTAINS(err, "program_source:8:10: error: use of undeclared identifier 'nope'");
   free(err);
   err = NULL;
   CHECK(mtl_library_new(dev, dbl, NULL, &err) == NULL);
   CHECK_CONTAINS(err, "'double' is not supported in Metal");
   free(err);
   /* this prelude's precompiled header made corrupt: the compile still
    * succeeds, and it is made again */
   char tag[64], path[4600] = "";
   snprintf(tag, sizeof(tag), "// unique %d %u\n", (int)getpid(), salt);
   DIR *d = opendir(soft_cache_base());
   for (struct dirent *e; d && (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      if (strncmp(e->d_name, "pch-", 4) || len < 6 || strcmp(e->d_name + len - 2, ".h"))
         continue;
      snprintf(path, sizeof(path), "%s/%s", soft_cache_base(), e->d_name);
      char *text = file_read(path, NULL);
      bool ours = text && strstr(text, tag);
      free(text);
      if (ours)
         break;
      path[0] = 0;
   }
   if (d)
      closedir(d);
   CHECK(path[0]);
   strcpy(path + strlen(path) - 2, ".pch");
   FILE *f = fopen(path, "w");
   CHECK(f);
   if (f) {
      fputs("not a precompiled header", f);
      fclose(f);
   }
   char *s3 = prelude_src("kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                          " { v[i] = helper(i) | 0u; }\n", salt);
   CHECK(run_helper_kernel(dev, s3, salt));
   CHECK_INT(count_pch(), before);                /* the rejected ones removed */
   char *s4 = prelude_src("kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                          " { v[i] = helper(i) ^ 0u; }\n", salt);
   CHECK(run_helper_kernel(dev, s4, salt));
   CHECK_INT(count_pch(), before + 1);            /* and made again */
   free(s1);
   free(s2);
   free(s3);
   free(s4);
   free(bad);
   free(dbl);
}

/* Links run the system linker directly, from a template of its command
 * that the compiler driver gave once (compile.c, "linking"), kept in the
 * cache as ld-<key>.txt and keyed by the environment the driver reads: a
 * template that fails falls back to the driver's link and is dropped, and
 * the next link makes it again; a link that fails on its own merits
 * reports the driver's diagnostics. */
static bool ld_files(char names[][256], int *n, int cap)
{
   DIR *d = opendir(soft_cache_base());
   *n = 0;
   for (struct dirent *e; d && (e = readdir(d));)
      if (!strncmp(e->d_name, "ld-", 3) && *n < cap)
         snprintf(names[(*n)++], 256, "%s", e->d_name);
   if (d)
      closedir(d);
   return d != NULL;
}

/* the ld- file in after that is not in before, or "" */
static void new_ld_file(char before[][256], int nb, char after[][256], int na, char *out, size_t cap)
{
   out[0] = 0;
   for (int i = 0; i < na; i++) {
      bool old = false;
      for (int k = 0; k < nb; k++)
         old |= !strcmp(after[i], before[k]);
      if (!old)
         snprintf(out, cap, "%.4000s/%.255s", soft_cache_base(), after[i]);
   }
}

static bool run_unique_kernel(mtl_device *dev, unsigned salt)
{
   char *s = prelude_src("kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                         " { v[i] = helper(i); }\n", salt);
   bool ok = run_helper_kernel(dev, s, salt);
   free(s);
   return ok;
}

TEST(linker_runs_from_a_template)
{
   mtl_device *dev = soft_device();
   unsigned salt = (unsigned)(time_ns() % 100000u) + 200000u;
   const char *old = getenv("LIBRARY_PATH");
   char *saved = old ? strdup(old) : NULL, env_a[128], env_b[128];
   snprintf(env_a, sizeof(env_a), "/nonexistent/mc-test-%d-%u-a", (int)getpid(), salt);
   snprintf(env_b, sizeof(env_b), "/nonexistent/mc-test-%d-%u-b", (int)getpid(), salt);
   static char before[64][256], after[64][256];
   int nb, na;
   char path[4600];
   /* a new environment: a new template, and the library links and runs */
   CHECK(ld_files(before, &nb, 64));
   setenv("LIBRARY_PATH", env_a, 1);
   CHECK(run_unique_kernel(dev, salt));
   CHECK(ld_files(after, &na, 64));
   new_ld_file(before, nb, after, na, path, sizeof(path));
   CHECK_MSG(path[0], "no ld- template made under %s", soft_cache_base());
   char *text = path[0] ? file_read(path, NULL) : NULL;
   CHECK(text && strstr(text, "@MC_OBJECT@\n") && strstr(text, "@MC_OUTPUT@\n"));
   CHECK_MSG(text && strstr(text, env_a), "the template lacks -L%s:\n%s", env_a, text ? text : "");
   free(text);
   /* that template broken (a linker that is not there), used again after
    * another environment's: the library still links, through the driver,
    * and the broken template is gone */
   FILE *f = path[0] ? fopen(path, "w") : NULL;
   CHECK(f);
   if (f) {
      fputs("/nonexistent/ld\n@MC_OBJECT@\n-o\n@MC_OUTPUT@\n", f);
      fclose(f);
   }
   setenv("LIBRARY_PATH", env_b, 1);
   CHECK(run_unique_kernel(dev, salt + 1));
   setenv("LIBRARY_PATH", env_a, 1);
   CHECK(run_unique_kernel(dev, salt + 2));
   CHECK_MSG(access(path, F_OK) != 0, "%s is still there", path);
   CHECK(run_unique_kernel(dev, salt + 3));
   CHECK_MSG(access(path, F_OK) == 0, "%s was not made again", path);
   /* an undefined function fails the link with the driver's message, and
    * the template, which was not at fault, stays */
   char *undef = prelude_src("uint mc_test_missing(uint x);\n"
                             "kernel void k(device uint *v [[buffer(0)]], uint i [[thread_position_in_grid]])"
                             " { v[i] = mc_test_missing(i); }\n", salt + 4);
   char *err = NULL;
   CHECK(mtl_library_new(dev, undef, NULL, &err) == NULL);
   CHECK_CONTAINS(err, "linker command failed");
   CHECK_MSG(access(path, F_OK) == 0, "%s was dropped", path);
   free(err);
   free(undef);
   if (saved)
      setenv("LIBRARY_PATH", saved, 1);
   else
      unsetenv("LIBRARY_PATH");
   free(saved);
}

TEST(compile_error_is_readable)
{
   mtl_device *dev = soft_device();
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev,
      "#include <metal_stdlib>\nusing namespace metal;\n\n"
      "kernel void k(device float *v [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
      "{\n    v[i] = undefined_name;\n}\n", NULL, &err);
   CHECK(lib == NULL);
   CHECK_CONTAINS(err, "program_source:6:12: error: use of undeclared identifier 'undefined_name'");
   CHECK_MSG(!strstr(err, "/tmp") && !strstr(err, soft_cache_base()), "temp path in: %s", err);
   free(err);
   err = NULL;
   CHECK(mtl_library_new(dev, "kernel int k() { return 0; }", NULL, &err) == NULL);
   CHECK_CONTAINS(err, "a kernel function must return void");
   free(err);
}

TEST(function_and_pipeline_facts)
{
   mtl_device *dev = soft_device();
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev,
      "#include <metal_stdlib>\nusing namespace metal;\n"
      "[[max_total_threads_per_threadgroup(256)]]\n"
      "kernel void a(device float *v [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
      "{ threadgroup float t[100]; threadgroup uint u; t[i % 100] = v[i]; u = i; v[i] = t[i % 100] + float(u); }\n"
      "kernel void b(device float *v [[buffer(0)]]) { v[0] = 1.0f; }\n"
      "float helper(float x) { return x; }\n", NULL, &err);
   CHECK_MSG(lib, "%s", err);
   mtl_function *fa = mtl_function_new(lib, "a", NULL), *fb = mtl_function_new(lib, "b", NULL);
   CHECK(fa && fb);
   CHECK(mtl_function_new(lib, "helper", &err) == NULL);
   CHECK_CONTAINS(err, "no kernel function named 'helper'");
   free(err);
   mtl_pipeline *pa = mtl_pipeline_new(dev, fa, NULL), *pb = mtl_pipeline_new(dev, fb, NULL);
   mtl_function_release(fa);
   mtl_function_release(fb);
   mtl_library_release(lib);           /* pipelines keep the code loaded */
   CHECK(pa && pb);
   CHECK_INT(mtl_pipeline_max_total_threads(pa), 256);
   CHECK_INT(mtl_pipeline_max_total_threads(pb), 1024);
   CHECK_INT(mtl_pipeline_thread_execution_width(pa), 32);
   CHECK_INT(mtl_pipeline_static_threadgroup_memory(pa), 400 + 16);   /* each rounded to 16 */
   CHECK_INT(mtl_pipeline_static_threadgroup_memory(pb), 0);
   mtl_buffer *v = mtl_buffer_new(dev, 4 * 256, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   bind bd[1] = {{v, NULL, 0}};
   mtl_cmdbuf *cb = dispatch(q, pb, bd, 1, (mtl_size){1, 1, 1}, (mtl_size){1, 1, 1});
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_COMPLETED);
   float one;
   memcpy(&one, mtl_buffer_contents(v), 4);
   CHECK(one == 1.0f);
   mtl_cmdbuf_release(cb);
   mtl_queue_release(q);
   mtl_buffer_release(v);
   mtl_pipeline_release(pa);
   mtl_pipeline_release(pb);
}

TEST(encoding_rules)
{
   mtl_device *dev = soft_device();
   mtl_pipeline *p = pipeline(dev, append_src, "append");
   CHECK(p);
   mtl_buffer *v = mtl_buffer_new(dev, 4, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   static const uint8_t big[5000];
   struct { size_t len; uint32_t idx; mtl_size threads; const char *want; } cases[] = {
      {5000, 1, {1, 1, 1}, "setBytes: 5000 bytes exceeds Metal's 4 KB limit"},
      {4, 31, {1, 1, 1}, "setBytes: index 31 is out of range"},
      {4, 2, {1, 1, 1}, "buffer index 1 used by the kernel is not bound"},
      {4, 1, {33, 32, 1}, "1056 threads per threadgroup exceeds the pipeline's maxTotalThreadsPerThreadgroup (1024)"},
      {4, 1, {1, 0, 1}, "a dimension is zero"},
   };
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      *(uint32_t *)mtl_buffer_contents(v) = 7;
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
      mtl_encoder_set_pipeline(e, p);
      mtl_encoder_set_buffer(e, v, 0, 0);
      mtl_encoder_set_bytes(e, big, cases[i].len, cases[i].idx);
      mtl_encoder_dispatch_threadgroups(e, (mtl_size){1, 1, 1}, cases[i].threads);
      mtl_encoder_end(e);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(cb), cases[i].want);
      CHECK_INT(*(uint32_t *)mtl_buffer_contents(v), 7);    /* nothing ran */
      mtl_cmdbuf_release(cb);
   }
   mtl_queue_release(q);
   mtl_buffer_release(v);
   mtl_pipeline_release(p);
}

/* After a failed command buffer, the queue runs the next one (append_src's
 * "append" on v) normally. */
static void next_dispatch_runs(mtl_queue *q, mtl_pipeline *good, mtl_buffer *v)
{
   *(uint32_t *)mtl_buffer_contents(v) = 4;
   uint32_t d = 2;
   bind b2[2] = {{v, NULL, 0}, {NULL, &d, 4}};
   mtl_cmdbuf *c2 = dispatch(q, good, b2, 2, (mtl_size){1, 1, 1}, (mtl_size){1, 1, 1});
   mtl_cmdbuf_commit(c2);
   mtl_cmdbuf_wait_until_completed(c2);
   CHECK_INT(mtl_cmdbuf_get_status(c2), MTL_CMDBUF_COMPLETED);
   CHECK_INT(*(uint32_t *)mtl_buffer_contents(v), 42);
   mtl_cmdbuf_release(c2);
}

TEST(kernel_fault_is_recovered)
{
   mtl_device *dev = soft_device();
   mtl_pipeline *bad = pipeline(dev,
      "#include <metal_stdlib>\nusing namespace metal;\n"
      "kernel void wild(device ulong *p [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
      "{ device uint *q = reinterpret_cast<device uint *>(p[0]); q[i] = 1; }\n", "wild");
   mtl_pipeline *good = pipeline(dev, append_src, "append");
   CHECK(bad && good);
   mtl_buffer *v = mtl_buffer_new(dev, 8, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   for (int round = 0; round < 3; round++) {
      /* the buffer's CPU address is not a GPU address, but it is mapped: use a
       * freed-looking address instead */
      *(uint64_t *)mtl_buffer_contents(v) = 0xdead0000ull;
      bind b1[1] = {{v, NULL, 0}};
      mtl_cmdbuf *c1 = dispatch(q, bad, b1, 1, (mtl_size){8, 1, 1}, (mtl_size){32, 1, 1});
      mtl_cmdbuf_commit(c1);
      mtl_cmdbuf_wait_until_completed(c1);
      CHECK_INT(mtl_cmdbuf_get_status(c1), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(c1), "kernel 'wild' faulted at address 0xdead0");
      mtl_cmdbuf_release(c1);
      next_dispatch_runs(q, good, v);
   }
   mtl_queue_release(q);
   mtl_buffer_release(v);
   mtl_pipeline_release(bad);
   mtl_pipeline_release(good);
}

/* Threadgroups run several per entry call, the entry advancing the
 * position (exec.c run_range, msl_scan.c): a fault, and a barrier error
 * (fiber mode), name the threadgroup that failed, here one in the middle of
 * a run, past carries in x and y; the next dispatch runs normally. */
TEST(failure_names_its_threadgroup)
{
   mtl_device *dev = soft_device();
   static const char src[] =
      "#include <metal_stdlib>\nusing namespace metal;\n"
      "kernel void wild(device ulong *p [[buffer(0)]], uint3 g [[threadgroup_position_in_grid]],\n"
      "                 uint t [[thread_index_in_threadgroup]])\n"
      "{ if (g.x == 45u && g.y == 13u && g.z == 2u) { device uint *q = reinterpret_cast<device uint *>(p[0]); q[t] = 1; } }\n"
      "kernel void split(device uint *o [[buffer(0)]], uint3 g [[threadgroup_position_in_grid]],\n"
      "                  uint t [[thread_index_in_threadgroup]])\n"
      "{\n"
      "    threadgroup uint v[32];\n"
      "    v[t] = t;\n"
      "    if (g.x == 45u && g.y == 13u && g.z == 2u && t < 16u) {\n"
      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
      "        o[t] = v[31u - t];\n"
      "    } else {\n"
      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
      "        o[t] = v[31u - t] + 1u;\n"
      "    }\n"
      "}\n";
   mtl_pipeline *wild = pipeline(dev, src, "wild"), *split = pipeline(dev, src, "split");
   mtl_pipeline *good = pipeline(dev, append_src, "append");
   CHECK(wild && split && good);
   mtl_buffer *v = mtl_buffer_new(dev, 256, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_size grid = {50, 20, 4}, tg = {32, 1, 1};
   struct { mtl_pipeline *p; const char *want; } cases[] = {
      {wild, "kernel 'wild' faulted at address 0xdead0"},
      {split, "kernel 'split': the threads of a threadgroup wait at different threadgroup_barrier calls"},
   };
   for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
      *(uint64_t *)mtl_buffer_contents(v) = 0xdead0000ull;
      bind b1[1] = {{v, NULL, 0}};
      mtl_cmdbuf *c1 = dispatch(q, cases[i].p, b1, 1, grid, tg);
      mtl_cmdbuf_commit(c1);
      mtl_cmdbuf_wait_until_completed(c1);
      CHECK_INT(mtl_cmdbuf_get_status(c1), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(c1), cases[i].want);
      CHECK_CONTAINS(mtl_cmdbuf_error(c1), "in threadgroup (45, 13, 2)");
      mtl_cmdbuf_release(c1);
      next_dispatch_runs(q, good, v);
   }
   mtl_queue_release(q);
   mtl_buffer_release(v);
   mtl_pipeline_release(wild);
   mtl_pipeline_release(split);
   mtl_pipeline_release(good);
}

/* The floating-point control register of the calling thread: flush-to-zero
 * and denormals-are-zero (x86-64 MXCSR FTZ|DAZ, arm64 FPCR FZ) on or off;
 * returns the old value.  What a program built with -ffast-math starts with. */
#if defined(__x86_64__)
#define HAVE_FLUSH_CONTROL 1
static unsigned flush_subnormals(bool on, unsigned old)
{
   unsigned v;
   __asm__ volatile("stmxcsr %0" : "=m"(v));
   unsigned set = on ? v | 0x8040u : old;
   __asm__ volatile("ldmxcsr %0" : : "m"(set));
   return v;
}
#elif defined(__aarch64__)
#define HAVE_FLUSH_CONTROL 1
static unsigned flush_subnormals(bool on, unsigned old)
{
   unsigned long v;
   __asm__ volatile("mrs %0, fpcr" : "=r"(v));
   unsigned long set = on ? v | (1ul << 24) : old;
   __asm__ volatile("msr fpcr, %0" : : "r"(set));
   return (unsigned)v;
}
#endif

static const char subnormal_src[] =
   "kernel void sub(device const float *in [[buffer(0)]], device float *out [[buffer(1)]],\n"
   "                uint i [[thread_position_in_grid]])\n"
   "{\n"
   "    out[2u * i] = in[0] * 0.5f;             // a subnormal result\n"
   "    out[2u * i + 1u] = in[1] + in[1];       // a subnormal operand\n"
   "}\n";

/* Kernels keep subnormals (Metal's and PTX's non-.ftz arithmetic, and the
 * prelude's f64 on the host FPU) even when the thread that made the queue
 * flushes them: its queue thread and workers inherit its control register,
 * and exec.c runs threadgroups in the default environment. */
TEST(kernels_keep_subnormals)
{
#ifdef HAVE_FLUSH_CONTROL
   mtl_device *dev = soft_device();
   mtl_pipeline *p = pipeline(dev, subnormal_src, "sub");
   CHECK(p != NULL);
   if (!p)
      return;
   enum { GROUPS = 64, THREADS = 64, N = GROUPS * THREADS };
   mtl_buffer *in = mtl_buffer_new(dev, 8, NULL), *out = mtl_buffer_new(dev, 8 * N, NULL);
   uint32_t *iv = mtl_buffer_contents(in);
   iv[0] = 0x00800000u;   /* 2^-126, the smallest normal float */
   iv[1] = 0x00000100u;   /* 2^-141 */
   unsigned old = flush_subnormals(true, 0);
   mtl_queue *q = mtl_queue_new(dev, NULL);   /* its thread inherits the flushing */
   flush_subnormals(false, old);
   bind b[] = {{in, NULL, 0}, {out, NULL, 0}};
   mtl_cmdbuf *cb = dispatch(q, p, b, 2, (mtl_size){GROUPS, 1, 1}, (mtl_size){THREADS, 1, 1});
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_COMPLETED);
   const uint32_t *ov = mtl_buffer_contents(out);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += ov[2 * i] != 0x00400000u || ov[2 * i + 1] != 0x00000200u;
   CHECK_MSG(bad == 0, "%d of %d threads flushed a subnormal (first: %#x, %#x)", bad, N, ov[0], ov[1]);
   mtl_cmdbuf_release(cb);
   mtl_queue_release(q);
   mtl_buffer_release(in);
   mtl_buffer_release(out);
   mtl_pipeline_release(p);
#endif
}

TEST(thread_count_override)
{
   setenv("METALCUDA_THREADS", "3", 1);
   CHECK_INT(soft_thread_count(), 3);
   setenv("METALCUDA_THREADS", "0", 1);
   CHECK(soft_thread_count() >= 1);
   unsetenv("METALCUDA_THREADS");
}

TEST(fault_injection_buffer)
{
   mtl_device *dev = soft_device();
   uint32_t live = soft_buffer_live_count();
   for (long n = 1;; n++) {
      char *err = NULL;
      fault_fail_after(n);
      mtl_buffer *b = mtl_buffer_new(dev, 4096, &err);
      fault_reset();
      CHECK_INT(soft_buffer_live_count(), live + (b ? 1 : 0));
      if (b) {
         CHECK(err == NULL);
         mtl_buffer_release(b);
         break;
      }
      CHECK_MSG(err == NULL || strstr(err, "out of memory"), "n=%ld: %s", n, err);
      free(err);
      CHECK(n < 100);
   }
   CHECK_INT(soft_buffer_live_count(), live);
}

/* Library creation fails cleanly at every allocation and cache write. */
static void library_fault_loop(const char *src, long *iterations)
{
   mtl_device *dev = soft_device();
   for (long n = 1;; n++) {
      char *err = NULL;
      fault_fail_after(n);
      mtl_library *lib = mtl_library_new(dev, src, NULL, &err);
      mtl_function *fn = lib ? mtl_function_new(lib, "append", &err) : NULL;
      mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, &err) : NULL;
      fault_reset();
      mtl_pipeline_release(p);
      mtl_function_release(fn);
      mtl_library_release(lib);
      free(err);
      *iterations = n;
      if (p || n > 200)
         break;
   }
}

TEST(fault_injection_library)
{
   long n = 0;
   mtl_pipeline *warm = pipeline(soft_device(), append_src, "append");   /* cached now */
   CHECK(warm);
   mtl_pipeline_release(warm);
   library_fault_loop(append_src, &n);
   CHECK_MSG(n > 1 && n <= 200, "warm: %ld iterations", n);
   /* A source not in the cache: the failures include the compile path. */
   char src[600];
   snprintf(src, sizeof(src), "%s// fault loop %d %llu\n", append_src, (int)getpid(),
            (unsigned long long)time_ns());
   uint64_t before = soft_compile_count();
   library_fault_loop(src, &n);
   CHECK_MSG(n > 1 && n <= 200, "cold: %ld iterations", n);
   CHECK(soft_compile_count() > before);
}

TEST(fault_injection_queue)
{
   mtl_device *dev = soft_device();
   mtl_pipeline *p = pipeline(dev, append_src, "append");
   CHECK(p);
   mtl_buffer *v = mtl_buffer_new(dev, 4, NULL);
   for (long n = 1;; n++) {
      *(uint32_t *)mtl_buffer_contents(v) = 1;
      fault_fail_after(n);
      char *err = NULL;
      mtl_queue *q = mtl_queue_new(dev, &err);
      mtl_cmdbuf *cb = q ? mtl_cmdbuf_new(q, &err) : NULL;
      bool ok = false;
      if (cb) {
         mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
         uint32_t d = 5;
         mtl_encoder_set_pipeline(e, p);
         mtl_encoder_set_buffer(e, v, 0, 0);
         mtl_encoder_set_bytes(e, &d, 4, 1);
         mtl_encoder_dispatch_threadgroups(e, (mtl_size){1, 1, 1}, (mtl_size){1, 1, 1});
         mtl_encoder_end(e);
         mtl_cmdbuf_commit(cb);
         mtl_cmdbuf_wait_until_completed(cb);
         ok = mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_COMPLETED;
         if (!ok)
            CHECK_CONTAINS(mtl_cmdbuf_error(cb), "out of memory");
      }
      fault_reset();
      mtl_cmdbuf_release(cb);
      mtl_queue_release(q);
      free(err);
      if (ok) {
         CHECK_INT(*(uint32_t *)mtl_buffer_contents(v), 15);
         break;
      }
      CHECK(n < 100);
   }
   mtl_buffer_release(v);
   mtl_pipeline_release(p);
}

/* The scan reuses a prelude it has scanned (msl_scan.c prelude_memo): the
 * rewritten source and the generated entries (their #line numbers) must be
 * what scanning the whole text gives.  The same text with its marker
 * spelled otherwise has no prelude, so it is scanned whole; the two
 * results differ in that line only. */
#define SCAN_PRELUDE                                                         \
   "// a comment before\n"                                                   \
   "#include <metal_stdlib>\n"                                               \
   "using namespace metal;\n"                                                \
   "inline half twice(half x) { return x * 2.0h; }\n"                        \
   "inline float4 wide(int4 v) { return static_cast<float4>(v); }\n"         \
   "/* a comment\n   over lines */\n"                                        \
   "#define MC_X(a) \\\n   (a)\n"
#define SCAN_BODY                                                            \
   "kernel void k(device float *out [[buffer(0)]],\n"                        \
   "              uint i [[thread_position_in_grid]])\n"                     \
   "{\n"                                                                     \
   "    threadgroup float tile[4];\n"                                        \
   "    tile[i & 3] = float(twice(0.5h));\n"                                 \
   "    out[i] = tile[i & 3] + wide(int4(1)).x;\n"                           \
   "}\n"

TEST(scan_reuses_a_scanned_prelude)
{
   static const char with[] = SCAN_PRELUDE PRELUDE_END SCAN_BODY;
   static const char without[] = SCAN_PRELUDE "// metalcuda: not of the prelude\n" SCAN_BODY;
   _Static_assert(sizeof(with) == sizeof(without), "the marker lines have one length");
   const char *start, *end;
   CHECK(soft_find_prelude(with, &start, &end));
   CHECK(!soft_find_prelude(without, &start, &end));
   soft_scan whole, first, again;
   char *err = NULL;
   CHECK(soft_scan_msl(without, &whole, &err));
   CHECK(soft_scan_msl(with, &first, &err));     /* scans the prelude, keeps it */
   CHECK(soft_scan_msl(with, &again, &err));     /* reuses it */
   CHECK_INT(first.nkernels, 1);
   CHECK_INT(again.nkernels, 1);
   CHECK_STR(first.entries, whole.entries);
   CHECK_STR(again.entries, whole.entries);
   CHECK_STR(again.source, first.source);
   /* the rewrites inside the prelude happened in the reused text too */
   CHECK_CONTAINS(again.source, "__MC_HLIT(2.0)");
   CHECK(strstr(again.source, "static_cast<float4>") == NULL);
   size_t off = strlen(SCAN_PRELUDE), n = strlen(PRELUDE_END);
   CHECK(strlen(again.source) == strlen(whole.source));
   CHECK(!strncmp(again.source, whole.source, off));
   CHECK_STR(again.source + off + n, whole.source + off + n);
   soft_scan_free(&whole);
   soft_scan_free(&first);
   soft_scan_free(&again);
   free(err);
}

/* The shim's digest comes from the build (Makefile, soft_shim_digest.h):
 * it must be the SHA-256 of the text shim.S embeds. */
TEST(shim_digest_is_the_embedded_text_s)
{
   size_t len;
   const char *text = soft_shim_text(&len);
   uint8_t d[32];
   char hex[65];
   sha256_digest(text, len, d);
   CHECK(!memcmp(d, soft_shim_digest(), 32));
   sha256_hex(text, len, hex);
   CHECK(!strncmp(soft_shim_hash(), hex, 16) && strlen(soft_shim_hash()) == 16);
}

/* The scan of a prelude is kept in the cache (msl_scan.c memo_load), and
 * a later process takes it from there only where it holds that text's
 * scan: the file is shown to be read (a scanned form edited in it, with
 * its sum made good, comes back), and a damaged file, another text's file
 * and another scanner's file are not taken. */
static char *memo_src(const char *comment)
{
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "#include <metal_stdlib>\n// %s %d %llu\n", comment, (int)getpid(),
                 (unsigned long long)time_ns());
   strbuf_puts(&b, "inline half twice(half x) { return x * 2.0h; }\n" PRELUDE_END SCAN_BODY);
   return strbuf_take(&b);
}

/* Rewrites the memo file at path with its sum made good again. */
static bool memo_rewrite(const char *path, char *buf, size_t n)
{
   uint8_t sum[32];
   hash_sum256(buf, n - 32, sum);
   memcpy(buf + n - 32, sum, 32);
   return file_write_atomic(path, buf, n);
}

/* The first needle in buf's n bytes (NULs included); NULL if none. */
static char *find_bytes(char *buf, size_t n, const char *needle)
{
   size_t k = strlen(needle);
   for (size_t i = 0; buf && i + k <= n; i++)
      if (!memcmp(buf + i, needle, k))
         return buf + i;
   return NULL;
}

static char *memo_scan(const char *src)
{
   soft_scan sc;
   char *err = NULL;
   soft_scan_forget_preludes();
   if (!soft_scan_msl(src, &sc, &err)) {
      printf("    scan error: %s\n", err);
      free(err);
      return NULL;
   }
   char *out = mc_strdup(sc.source);
   soft_scan_free(&sc);
   return out;
}

TEST(scan_memo_kept_in_the_cache)
{
   char *src = memo_src("memo"), *other = memo_src("MEMO");   /* one length */
   const char *start, *end, *ostart, *oend;
   CHECK(soft_find_prelude(src, &start, &end));
   CHECK(soft_find_prelude(other, &ostart, &oend));
   size_t plen = (size_t)(end - start);
   CHECK(plen == (size_t)(oend - ostart));
   char path[4400], opath[4400];
   CHECK(soft_scan_memo_path(start, plen, path, sizeof(path)));
   CHECK(soft_scan_memo_path(ostart, plen, opath, sizeof(opath)));
   CHECK_MSG(strcmp(path, opath), "same file %s for two texts", path);
   char *want = memo_scan(src);                 /* scanned, and the file written */
   CHECK(want && strstr(want, "__MC_HLIT(2.0)"));
   size_t n;
   char *file = file_read(path, &n);
   CHECK(file && n > 32);
   char *again = memo_scan(src);                /* from the file */
   CHECK_STR(again, want);
   free(again);

   /* the file is read: an edit of its scanned form comes back */
   char *mark = find_bytes(file, n, "__MC_HLIT(2.0)");   /* only the scanned form has it */
   CHECK(mark != NULL);
   if (mark) {
      mark[10] = '3';
      CHECK(memo_rewrite(path, file, n));
      again = memo_scan(src);
      CHECK(again && strstr(again, "__MC_HLIT(3.0)"));
      free(again);
      /* damaged (the sum not made good): scanned again, the file made anew */
      mark[10] = '4';
      CHECK(file_write_atomic(path, file, n));
      again = memo_scan(src);
      CHECK_STR(again, want);
      free(again);
      size_t n2;
      char *made = file_read(path, &n2);
      CHECK(made && n2 == n && !find_bytes(made, n2, "__MC_HLIT(4.0)") && find_bytes(made, n2, "__MC_HLIT(2.0)"));
      free(made);
      /* this text's file under another text's name (one length): not taken */
      mark[10] = '3';
      CHECK(memo_rewrite(opath, file, n));
      char *ogot = memo_scan(other);
      CHECK(ogot && !strstr(ogot, "__MC_HLIT(3.0)") && strstr(ogot, "// MEMO "));
      free(ogot);
      /* another scanner's file: not taken */
      char *id = strchr(file, ' ');
      CHECK(id != NULL);
      if (id) {
         id[1] = id[1] == '0' ? '1' : '0';
         CHECK(memo_rewrite(path, file, n));
         again = memo_scan(src);
         CHECK_STR(again, want);
         free(again);
      }
   }
   soft_scan_forget_preludes();
   unlink(path);                        /* salted texts: nobody reads them again */
   unlink(opath);
   free(file);
   free(want);
   free(src);
   free(other);
}

/* The compiler's hints about a kernel's threads (msl/emit.c
 * emit_thread_sync_hint; here defined as its prelude defines them):
 * MC_THREADS_INDEPENDENT(n) gives an entry that is only the loop over the
 * threads, whose copy of a constant buffer is the n bytes the kernel
 * reads however large the buffer bound (8 KB here, twice the copy);
 * MC_THREADS_WAIT one that runs threads as fibers, also a launch of one
 * thread; and a kernel that says it is independent but waits at a barrier
 * is refused when its library is built, not run wrong. */
#define HINTS "#include <metal_stdlib>\nusing namespace metal;\n" \
              "#define MC_THREADS_INDEPENDENT(n)\n#define MC_THREADS_WAIT\n"
TEST(thread_sync_hints)
{
   mtl_device *dev = soft_device();
   static const char independent[] = HINTS
      "kernel void k(constant uint *p [[buffer(0)]], device uint *out [[buffer(1)]],\n"
      "              uint i [[thread_position_in_grid]]) {\n"
      "    MC_THREADS_INDEPENDENT(8);\n    out[i] = p[0] + p[1] * i;\n}\n";
   static const char waiting[] = HINTS
      "kernel void k(device uint *out [[buffer(0)]], uint t [[thread_position_in_threadgroup]],\n"
      "              uint n [[threads_per_threadgroup]], uint g [[threadgroup_position_in_grid]]) {\n"
      "    MC_THREADS_WAIT;\n    threadgroup uint s[64];\n    s[t] = t * 7u + g;\n"
      "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    out[g * n + t] = s[n - 1u - t];\n}\n";
   static const char wrong[] = HINTS
      "kernel void k(device uint *out [[buffer(0)]], uint t [[thread_position_in_threadgroup]]) {\n"
      "    MC_THREADS_INDEPENDENT(0);\n    threadgroup uint s[64];\n    s[t] = t;\n"
      "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    out[t] = s[63u - t];\n}\n";
   mtl_queue *q = mtl_queue_new(dev, NULL);
   mtl_buffer *par = mtl_buffer_new(dev, 8192, NULL), *out = mtl_buffer_new(dev, 128 * 4, NULL);
   CHECK(q && par && out);
   uint32_t *pv = mtl_buffer_contents(par), *ov = mtl_buffer_contents(out);
   for (uint32_t k = 0; k < 2048; k++)
      pv[k] = 1000u + k;
   mtl_pipeline *p = pipeline(dev, independent, "k");
   CHECK(p);
   if (p) {
      bind b[] = {{par, NULL, 0}, {out, NULL, 0}};
      mtl_cmdbuf *cb = dispatch(q, p, b, 2, (mtl_size){2, 1, 1}, (mtl_size){64, 1, 1});
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_MSG(mtl_cmdbuf_error(cb) == NULL, "%s", mtl_cmdbuf_error(cb));
      bool ok = true;
      for (uint32_t i = 0; i < 128; i++)
         ok &= ov[i] == 1000u + 1001u * i;
      CHECK_MSG(ok, "a loop-only kernel with an 8 KB constant buffer computed wrong values");
      mtl_cmdbuf_release(cb);
      mtl_pipeline_release(p);
   }
   p = pipeline(dev, waiting, "k");
   CHECK(p);
   for (uint32_t n = 64; p && n >= 1; n = n == 64 ? 1 : 0) {
      memset(ov, 0xff, 128 * 4);
      bind b[] = {{out, NULL, 0}};
      mtl_cmdbuf *cb = dispatch(q, p, b, 1, (mtl_size){2, 1, 1}, (mtl_size){n, 1, 1});
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_MSG(mtl_cmdbuf_error(cb) == NULL, "%s", mtl_cmdbuf_error(cb));
      bool ok = true;
      for (uint32_t g = 0; g < 2; g++)
         for (uint32_t t = 0; t < n; t++)
            ok &= ov[g * n + t] == (n - 1u - t) * 7u + g;
      CHECK_MSG(ok, "a fibers-only kernel with %u threads a group computed wrong values", n);
      mtl_cmdbuf_release(cb);
   }
   mtl_pipeline_release(p);
   char *err = NULL;
   CHECK(mtl_library_new(dev, wrong, NULL, &err) == NULL);
   CHECK_CONTAINS(err, "kernel 'k' says MC_THREADS_INDEPENDENT but reaches a barrier");
   free(err);
   mtl_buffer_release(par);
   mtl_buffer_release(out);
   mtl_queue_release(q);
}
