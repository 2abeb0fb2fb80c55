/*
 * test_mtl_apple.c — the Apple Metal backend (src/metal/apple/).
 *
 * 1. It must compile everywhere, though it only runs on macOS: each .c
 *    file of src/metal/apple/ is compiled with -fsyntax-only by gcc and by
 *    clang at -Wall -Wextra -Werror (on Linux against apple/objc_decls.h's
 *    declarations).  `make check-apple` runs this binary alone.
 * 2. Behaviour every Metal device must share, through mtl.h, run on every
 *    device present: on Linux the software device (which proves the
 *    checks), on a Mac the Apple GPUs as well (which is the point).
 */
#include "harness.h"

#include "../../src/metal/mtl.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. the compile check ---- */

#define APPLE_FLAGS                                                          \
   "-std=c11 -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Werror " \
   "-D_GNU_SOURCE -pthread -fsyntax-only"

/* Runs cmd; its output (stdout and stderr) in out; the exit status. */
static int run(const char *cmd, char *out, size_t cap)
{
   out[0] = 0;
   FILE *p = popen(cmd, "r");
   if (!p)
      return -1;
   size_t n = 0, r;
   while (n + 1 < cap && (r = fread(out + n, 1, cap - 1 - n, p)) > 0)
      n += r;
   out[n] = 0;
   char sink[256];
   while (fread(sink, 1, sizeof(sink), p) > 0)
      ;
   return pclose(p);
}

static void syntax_check(const char *cc)
{
   char cmd[8192], out[8192], root[4096];
   snprintf(cmd, sizeof(cmd), "%s --version >/dev/null 2>&1", cc);
   if (system(cmd) != 0) {
      test_skip("%s is not installed", cc);
      return;
   }
   snprintf(root, sizeof(root), "%s/..", test_srcdir());
   snprintf(cmd, sizeof(cmd), "%s/src/metal/apple", root);
   DIR *d = opendir(cmd);
   CHECK_MSG(d, "cannot open %s", cmd);
   int files = 0;
   for (struct dirent *e; (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      if (len < 3 || strcmp(e->d_name + len - 2, ".c"))
         continue;
      files++;
      snprintf(cmd, sizeof(cmd), "cd '%s' && %s " APPLE_FLAGS " -Isrc src/metal/apple/%s 2>&1", root,
               cc, e->d_name);
      int rc = run(cmd, out, sizeof(out));
      if (rc != 0 || out[0]) {
         closedir(d);
         CHECK_MSG(false, "%s on %s: status %d:\n%s", cc, e->d_name, rc, out);
      }
   }
   closedir(d);
   CHECK_MSG(files >= 7, "only %d files in src/metal/apple", files);
}

TEST(apple_compiles_with_gcc) { syntax_check("gcc"); }
TEST(apple_compiles_with_clang) { syntax_check("clang"); }

/* ---- 2. behaviour every Metal device shares ---- */

/* Runs body(dev) on every device; a device whose library cannot be
 * compiled for lack of a compiler is skipped by the body. */
#define EACH_DEVICE(dev, info)                                                \
   for (uint32_t di_ = 0; di_ < mtl_device_count(); di_++)                    \
      for (mtl_device *dev = mtl_device_get(di_); dev; dev = NULL)            \
         for (mtl_device_info info, *once_ = (mtl_device_get_info(dev, &info), &info); once_; \
              once_ = NULL)

static const char add_src[] =
   "#include <metal_stdlib>\nusing namespace metal;\n"
   "kernel void add(device const float *a [[buffer(0)]], device float *out [[buffer(1)]],\n"
   "                constant float &k [[buffer(2)]], uint i [[thread_position_in_grid]])\n"
   "{ out[i] = a[i] + k; }\n";

/* The pipeline of kernel "add"; NULL with a printed reason. */
static mtl_pipeline *add_pipeline(mtl_device *dev, const char *devname)
{
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, add_src, NULL, &err);
   if (!lib) {
      printf("    %s: compile error: %s\n", devname, err);
      free(err);
      return NULL;
   }
   mtl_function *fn = mtl_function_new(lib, "add", NULL);
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
   mtl_function_release(fn);
   mtl_library_release(lib);
   return p;
}

static void fill_f32(mtl_buffer *b, size_t n, float base)
{
   float *f = mtl_buffer_contents(b);
   for (size_t i = 0; i < n; i++)
      f[i] = base + (float)i;
}

/* One dispatch of add over n = 256 elements: out = a + k. */
static void encode_add(mtl_cmdbuf *cb, mtl_pipeline *p, mtl_buffer *a, mtl_buffer *out, float k)
{
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, p);
   mtl_encoder_set_buffer(e, a, 0, 0);
   mtl_encoder_set_buffer(e, out, 0, 1);
   mtl_encoder_set_bytes(e, &k, sizeof(k), 2);
   mtl_encoder_dispatch_threadgroups(e, (mtl_size){4, 1, 1}, (mtl_size){64, 1, 1});
   mtl_encoder_end(e);
}

TEST(every_device_buffers)
{
   EACH_DEVICE(dev, info) {
      char *err = NULL;
      mtl_buffer *b = mtl_buffer_new(dev, 4096, &err);
      CHECK_MSG(b, "%s: buffer: %s", info.name, err);
      CHECK(mtl_buffer_contents(b) != NULL);
      CHECK(mtl_buffer_gpu_address(b) != 0);
      CHECK(mtl_buffer_gpu_address(b) != (uint64_t)(uintptr_t)mtl_buffer_contents(b));
      CHECK_INT(mtl_buffer_length(b), 4096);
      mtl_buffer_release(b);
      CHECK(mtl_buffer_new(dev, 0, &err) == NULL);
      CHECK_CONTAINS(err, "length must not be zero");
      free(err);
   }
}

typedef struct seen {
   int calls;
   mtl_cmdbuf_status status[2];
   int order[2];
} seen;

static void handler0(mtl_cmdbuf *cb, void *d)
{
   seen *s = d;
   s->status[0] = mtl_cmdbuf_get_status(cb);
   s->order[0] = s->calls++;
}

static void handler1(mtl_cmdbuf *cb, void *d)
{
   seen *s = d;
   s->status[1] = mtl_cmdbuf_get_status(cb);
   s->order[1] = s->calls++;
}

TEST(every_device_dispatch)
{
   EACH_DEVICE(dev, info) {
      mtl_pipeline *p = add_pipeline(dev, info.name);
      CHECK(p);
      CHECK(mtl_pipeline_max_total_threads(p) >= 64 && mtl_pipeline_max_total_threads(p) <= 1024);
      CHECK_INT(mtl_pipeline_thread_execution_width(p), 32);
      mtl_buffer *a = mtl_buffer_new(dev, 1024, NULL), *out = mtl_buffer_new(dev, 1024, NULL);
      fill_f32(a, 256, 1.0f);
      memset(mtl_buffer_contents(out), 0xee, 1024);      /* prove the kernel wrote */
      mtl_queue *q = mtl_queue_new(dev, NULL);
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      seen s = {0};
      mtl_cmdbuf_add_completed_handler(cb, handler0, &s);
      mtl_cmdbuf_add_completed_handler(cb, handler1, &s);
      encode_add(cb, p, a, out, 0.5f);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_NOT_ENQUEUED);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_MSG(mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_COMPLETED, "%s: status %d: %s", info.name,
                mtl_cmdbuf_get_status(cb), mtl_cmdbuf_error(cb));
      CHECK(mtl_cmdbuf_error(cb) == NULL);
      CHECK_INT(s.calls, 2);                  /* handlers ran before the wait returned, */
      CHECK_INT(s.order[0], 0);               /* in the order they were added, */
      CHECK_INT(s.order[1], 1);
      CHECK_INT(s.status[0], MTL_CMDBUF_COMPLETED);   /* with the final status */
      CHECK(mtl_cmdbuf_gpu_end_time(cb) >= mtl_cmdbuf_gpu_start_time(cb));
      const float *o = mtl_buffer_contents(out);
      for (int i = 0; i < 256; i++)
         CHECK_MSG(o[i] == 1.5f + (float)i, "%s: out[%d] = %g, expected %g", info.name, i,
                   (double)o[i], (double)(1.5f + (float)i));
      mtl_cmdbuf_release(cb);
      mtl_queue_release(q);
      mtl_buffer_release(a);
      mtl_buffer_release(out);
      mtl_pipeline_release(p);
   }
}

TEST(every_device_missing_function)
{
   EACH_DEVICE(dev, info) {
      char *err = NULL;
      mtl_library *lib = mtl_library_new(dev, add_src, NULL, &err);
      CHECK_MSG(lib, "%s: %s", info.name, err);
      CHECK(mtl_function_new(lib, "nope", &err) == NULL);
      CHECK_CONTAINS(err, "no kernel function named 'nope'");
      free(err);
      mtl_library_release(lib);
   }
}

/* A broken encoding rule: nothing of the buffer runs (not even the
 * dispatch before it), its event signal still does, and it fails with the
 * rule's message. */
TEST(every_device_encoding_error)
{
   EACH_DEVICE(dev, info) {
      mtl_pipeline *p = add_pipeline(dev, info.name);
      CHECK(p);
      mtl_buffer *a = mtl_buffer_new(dev, 1024, NULL), *out = mtl_buffer_new(dev, 1024, NULL);
      fill_f32(a, 256, 0.0f);
      memset(mtl_buffer_contents(out), 0xee, 1024);
      mtl_event *ev = mtl_event_new(dev, NULL);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      encode_add(cb, p, a, out, 1.0f);
      static char big[5000];
      mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
      mtl_encoder_set_bytes(e, big, sizeof(big), 0);
      mtl_encoder_end(e);
      mtl_cmdbuf_encode_signal_event(cb, ev, 7);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(cb), "setBytes: 5000 bytes exceeds Metal's 4 KB limit");
      CHECK_INT(((const uint32_t *)mtl_buffer_contents(out))[0], 0xeeeeeeeeu);
      CHECK_INT(mtl_event_signaled_value(ev), 7);
      mtl_cmdbuf_release(cb);
      mtl_queue_release(q);
      mtl_event_release(ev);
      mtl_buffer_release(a);
      mtl_buffer_release(out);
      mtl_pipeline_release(p);
   }
}

TEST(every_device_unbound_buffer)
{
   EACH_DEVICE(dev, info) {
      mtl_pipeline *p = add_pipeline(dev, info.name);
      CHECK(p);
      mtl_buffer *a = mtl_buffer_new(dev, 1024, NULL);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      float k = 1.0f;
      mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
      mtl_encoder_set_pipeline(e, p);
      mtl_encoder_set_buffer(e, a, 0, 0);
      mtl_encoder_set_bytes(e, &k, sizeof(k), 2);
      mtl_encoder_dispatch_threadgroups(e, (mtl_size){1, 1, 1}, (mtl_size){32, 1, 1});
      mtl_encoder_end(e);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(cb), "buffer index 1 used by the kernel is not bound");
      mtl_cmdbuf_release(cb);
      mtl_queue_release(q);
      mtl_buffer_release(a);
      mtl_pipeline_release(p);
   }
}

/* Blits; a queue waiting on an event the host sets; a blit outside its
 * buffer; a host wait that times out. */
TEST(every_device_blits_and_events)
{
   EACH_DEVICE(dev, info) {
      mtl_buffer *a = mtl_buffer_new(dev, 256, NULL), *b = mtl_buffer_new(dev, 256, NULL);
      memset(mtl_buffer_contents(b), 0, 256);
      mtl_event *ev = mtl_event_new(dev, NULL);
      CHECK_MSG(!mtl_event_wait(ev, 1, 20), "%s: wait on an unsignalled event", info.name);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      mtl_cmdbuf_encode_wait_event(cb, ev, 1);
      mtl_blit *bl = mtl_cmdbuf_blit_encoder(cb);
      mtl_blit_fill(bl, a, 0, 256, 0x3c);
      mtl_blit_copy(bl, a, 16, b, 32, 64);
      mtl_blit_end(bl);
      mtl_cmdbuf_encode_signal_event(cb, ev, 2);
      mtl_cmdbuf_commit(cb);
      CHECK_MSG(!mtl_event_wait(ev, 2, 50), "%s: ran before its event wait was met", info.name);
      mtl_event_set_signaled_value(ev, 1);
      CHECK_MSG(mtl_event_wait(ev, 2, 10000), "%s: event never reached 2", info.name);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_COMPLETED);
      const uint8_t *o = mtl_buffer_contents(b);
      CHECK_INT(o[31], 0);
      CHECK_INT(o[32], 0x3c);
      CHECK_INT(o[95], 0x3c);
      CHECK_INT(o[96], 0);
      mtl_cmdbuf_release(cb);

      cb = mtl_cmdbuf_new(q, NULL);
      bl = mtl_cmdbuf_blit_encoder(cb);
      mtl_blit_copy(bl, a, 200, b, 0, 100);
      mtl_blit_end(bl);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      CHECK_INT(mtl_cmdbuf_get_status(cb), MTL_CMDBUF_ERROR);
      CHECK_CONTAINS(mtl_cmdbuf_error(cb),
                     "copyFromBuffer (source): range [200, +100) is outside a 256-byte buffer");
      mtl_cmdbuf_release(cb);
      mtl_queue_release(q);
      mtl_event_release(ev);
      mtl_buffer_release(a);
      mtl_buffer_release(b);
   }
}

/* ---- issue 15: many command buffers in flight; a failed buffer's signals ---- */

static void count_done(mtl_cmdbuf *cb, void *d)
{
   (void)cb;
   __atomic_add_fetch((int *)d, 1, __ATOMIC_RELAXED);
}

/* 10,000 command buffers committed back to back on one queue, none waited
 * for until the last: Metal allows 64 in flight per queue and makes the
 * next commandBuffer wait for one to complete, which must never happen
 * while a lock the completion path needs is held (finding 8).  Each adds 1
 * to every element in place; all of them must run, each handler once.
 * The first buffer of every block of 500 waits for an event the host sets
 * once the block is committed, so the block queues up behind it however
 * fast the device is next to the host (under ASan the host is the slower,
 * and without the gate nearly every buffer went alone) and the count of
 * submissions tests batching, not timing. */
TEST(every_device_10000_command_buffers)
{
   EACH_DEVICE(dev, info) {
      mtl_pipeline *p = add_pipeline(dev, info.name);
      CHECK(p);
      mtl_buffer *v = mtl_buffer_new(dev, 1024, NULL);
      fill_f32(v, 256, 0.0f);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      mtl_event *gate = mtl_event_new(dev, NULL);
      int done = 0;
      enum { N = 10000, BLOCK = 500 };
      mtl_cmdbuf *last = NULL;
      for (int n = 0; n < N; n++) {
         mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
         CHECK_MSG(cb, "%s: command buffer %d", info.name, n);
         mtl_cmdbuf_add_completed_handler(cb, count_done, &done);
         if (n % BLOCK == 0)
            mtl_cmdbuf_encode_wait_event(cb, gate, (uint64_t)(n / BLOCK + 1));
         encode_add(cb, p, v, v, 1.0f);
         mtl_cmdbuf_commit(cb);
         if (n % BLOCK == BLOCK - 1)
            mtl_event_set_signaled_value(gate, (uint64_t)(n / BLOCK + 1));
         if (n == N - 1)
            last = cb;
         else
            mtl_cmdbuf_release(cb);   /* the queue keeps it until it ran */
      }
      mtl_cmdbuf_wait_until_completed(last);
      CHECK_MSG(mtl_cmdbuf_get_status(last) == MTL_CMDBUF_COMPLETED, "%s: %s", info.name, mtl_cmdbuf_error(last));
      mtl_cmdbuf_release(last);
      /* batched: several buffers per submission, at most 64 dispatches each */
      uint64_t subs, members;
      mtl_queue_stats(q, &subs, &members);
      printf("    %s: %d command buffers in %llu submissions\n", info.name, N, (unsigned long long)subs);
      CHECK_INT(members, N);
      CHECK_MSG(subs < N / 2 && subs >= N / 64, "%s: %llu submissions for %d buffers", info.name,
                (unsigned long long)subs, N);
      mtl_queue_release(q);      /* waits for every handler */
      mtl_event_release(gate);
      CHECK_INT(__atomic_load_n(&done, __ATOMIC_RELAXED), N);
      const float *o = mtl_buffer_contents(v);
      for (int i = 0; i < 256; i++)
         CHECK_MSG(o[i] == (float)(i + N), "%s: v[%d] = %g, expected %d", info.name, i, (double)o[i], i + N);
      mtl_buffer_release(v);
      mtl_pipeline_release(p);
   }
}

static const char fault_src[] =
   "#include <metal_stdlib>\nusing namespace metal;\n"
   "kernel void bad(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ device uint *p = reinterpret_cast<device uint *>(ulong(0x10) + i * 0); out[i] = *p; *p = i; }\n";

/* A kernel fault fails its command buffer, whose event signal after the
 * dispatch is still given, so a queue waiting on it goes on (finding 9):
 * fault -> status -> other queue continues. */
TEST(every_device_fault_still_signals)
{
   EACH_DEVICE(dev, info) {
      char *err = NULL;
      mtl_library *lib = mtl_library_new(dev, fault_src, NULL, &err);
      CHECK_MSG(lib, "%s: %s", info.name, err);
      mtl_function *fn = mtl_function_new(lib, "bad", NULL);
      mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
      CHECK(p);
      mtl_buffer *out = mtl_buffer_new(dev, 256, NULL), *b = mtl_buffer_new(dev, 256, NULL);
      memset(mtl_buffer_contents(b), 0, 256);
      mtl_event *ev = mtl_event_new(dev, NULL), *done = mtl_event_new(dev, NULL);
      mtl_queue *qa = mtl_queue_new(dev, NULL), *qb = mtl_queue_new(dev, NULL);
      mtl_cmdbuf *wait = mtl_cmdbuf_new(qb, NULL);
      mtl_cmdbuf_encode_wait_event(wait, ev, 1);
      mtl_blit *bl = mtl_cmdbuf_blit_encoder(wait);
      mtl_blit_fill(bl, b, 0, 256, 0x5a);
      mtl_blit_end(bl);
      mtl_cmdbuf_encode_signal_event(wait, done, 1);
      mtl_cmdbuf_commit(wait);
      mtl_cmdbuf *cb = mtl_cmdbuf_new(qa, NULL);
      mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
      mtl_encoder_set_pipeline(e, p);
      mtl_encoder_set_buffer(e, out, 0, 0);
      mtl_encoder_dispatch_threadgroups(e, (mtl_size){1, 1, 1}, (mtl_size){32, 1, 1});
      mtl_encoder_end(e);
      mtl_cmdbuf_encode_signal_event(cb, ev, 1);
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      if (mtl_cmdbuf_get_status(cb) != MTL_CMDBUF_ERROR)
         printf("    %s: the bad address did not fault (status %d): nothing to check\n", info.name,
                mtl_cmdbuf_get_status(cb));
      CHECK_MSG(mtl_event_wait(ev, 1, 10000), "%s: the failed buffer's signal was never given", info.name);
      CHECK_MSG(mtl_event_wait(done, 1, 10000), "%s: the queue waiting on it never went on", info.name);
      mtl_cmdbuf_wait_until_completed(wait);
      CHECK_INT(mtl_cmdbuf_get_status(wait), MTL_CMDBUF_COMPLETED);
      CHECK_INT(((const uint8_t *)mtl_buffer_contents(b))[255], 0x5a);
      mtl_cmdbuf_release(cb);
      mtl_cmdbuf_release(wait);
      mtl_queue_release(qa);
      mtl_queue_release(qb);
      mtl_event_release(ev);
      mtl_event_release(done);
      mtl_buffer_release(out);
      mtl_buffer_release(b);
      mtl_pipeline_release(p);
      mtl_function_release(fn);
      mtl_library_release(lib);
   }
}

/* Blocks the queue: MTL_SUBMISSIONS_IN_FLIGHT submissions waiting for
 * `gate`, so that what is committed next waits and goes as one
 * submission once the gate opens (a wait starts a submission, batch.c). */
static void occupy_queue(mtl_queue *q, mtl_event *gate)
{
   for (int i = 0; i < MTL_SUBMISSIONS_IN_FLIGHT; i++) {
      mtl_cmdbuf *w = mtl_cmdbuf_new(q, NULL);
      mtl_cmdbuf_encode_wait_event(w, gate, 1);
      mtl_cmdbuf_commit(w);
      mtl_cmdbuf_release(w);
   }
}

static void open_gate(mtl_cmdbuf *cb, void *data)
{
   (void)cb;
   mtl_event_set_signaled_value(data, 1);
}

/* A stream's host function: buffer A's completion handler opens a gate
 * from the host, buffer B (committed right after) waits for it.  Were B in
 * A's submission, A's handler would wait for B and B for the handler: a
 * wait must start a submission (batch.c).  Both are committed while the
 * queue is busy, so they are batched if anything is. */
TEST(every_device_batch_host_gate)
{
   EACH_DEVICE(dev, info) {
      mtl_pipeline *p = add_pipeline(dev, info.name);
      CHECK(p);
      mtl_buffer *v = mtl_buffer_new(dev, 1024, NULL);
      fill_f32(v, 256, 0.0f);
      mtl_event *busy = mtl_event_new(dev, NULL), *gate = mtl_event_new(dev, NULL);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      occupy_queue(q, busy);
      mtl_cmdbuf *a = mtl_cmdbuf_new(q, NULL);
      encode_add(a, p, v, v, 1.0f);
      mtl_cmdbuf_add_completed_handler(a, open_gate, gate);
      mtl_cmdbuf_commit(a);
      mtl_cmdbuf *b = mtl_cmdbuf_new(q, NULL);
      mtl_cmdbuf_encode_wait_event(b, gate, 1);
      encode_add(b, p, v, v, 2.0f);
      mtl_cmdbuf_commit(b);
      mtl_event_set_signaled_value(busy, 1);
      mtl_cmdbuf_wait_until_completed(b);
      CHECK_INT(mtl_cmdbuf_get_status(b), MTL_CMDBUF_COMPLETED);
      CHECK_MSG(((const float *)mtl_buffer_contents(v))[7] == 10.0f, "%s: v[7] = %g", info.name,
                (double)((const float *)mtl_buffer_contents(v))[7]);
      uint64_t subs, members;
      mtl_queue_stats(q, &subs, &members);
      CHECK_INT(members, MTL_SUBMISSIONS_IN_FLIGHT + 2);
      CHECK_INT(subs, MTL_SUBMISSIONS_IN_FLIGHT + 2);   /* b was cut from a */
      mtl_cmdbuf_release(a);
      mtl_cmdbuf_release(b);
      mtl_queue_release(q);
      mtl_event_release(busy);
      mtl_event_release(gate);
      mtl_buffer_release(v);
      mtl_pipeline_release(p);
   }
}

/* Three buffers batched into one submission, the middle one faulting: the
 * submission fails as one MTLCommandBuffer does.  The faulting buffer and
 * the later one fail (the later one's signal still given); the earlier one
 * completed on the software device, which knows which dispatch faulted.
 * An Apple GPU tells it through the encoders' execution states (the line
 * printed says whether it did; if not, the earlier one fails too, with a
 * note). */
TEST(every_device_batch_fault)
{
   EACH_DEVICE(dev, info) {
      char *err = NULL;
      mtl_library *lib = mtl_library_new(dev, fault_src, NULL, &err);
      CHECK_MSG(lib, "%s: %s", info.name, err);
      mtl_function *fn = mtl_function_new(lib, "bad", NULL);
      mtl_pipeline *bad = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL, *p = add_pipeline(dev, info.name);
      CHECK(bad && p);
      mtl_buffer *v = mtl_buffer_new(dev, 1024, NULL), *out = mtl_buffer_new(dev, 256, NULL);
      fill_f32(v, 256, 0.0f);
      mtl_event *busy = mtl_event_new(dev, NULL), *ev = mtl_event_new(dev, NULL);
      mtl_queue *q = mtl_queue_new(dev, NULL);
      occupy_queue(q, busy);
      mtl_cmdbuf *cb[3];
      for (int i = 0; i < 3; i++) {
         cb[i] = mtl_cmdbuf_new(q, NULL);
         if (i == 1) {
            mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb[i]);
            mtl_encoder_set_pipeline(e, bad);
            mtl_encoder_set_buffer(e, out, 0, 0);
            mtl_encoder_dispatch_threadgroups(e, (mtl_size){1, 1, 1}, (mtl_size){32, 1, 1});
            mtl_encoder_end(e);
         } else {
            encode_add(cb[i], p, v, v, 1.0f);
         }
         if (i == 2)
            mtl_cmdbuf_encode_signal_event(cb[i], ev, 1);
         mtl_cmdbuf_commit(cb[i]);
      }
      mtl_event_set_signaled_value(busy, 1);
      mtl_cmdbuf_wait_until_completed(cb[2]);
      uint64_t subs, members;
      mtl_queue_stats(q, &subs, &members);
      CHECK_INT(subs, MTL_SUBMISSIONS_IN_FLIGHT + 1);   /* the three went together */
      if (mtl_cmdbuf_get_status(cb[1]) != MTL_CMDBUF_ERROR) {
         printf("    %s: the bad address did not fault: nothing to check\n", info.name);
      } else {
         CHECK_INT(mtl_cmdbuf_failure_kind(cb[1]), MTL_FAILURE_EXECUTION);
         CHECK_INT(mtl_cmdbuf_get_status(cb[2]), MTL_CMDBUF_ERROR);
         CHECK_MSG(mtl_event_wait(ev, 1, 10000), "%s: the later buffer's signal was never given", info.name);
         if (info.is_software) {
            CHECK_INT(mtl_cmdbuf_get_status(cb[0]), MTL_CMDBUF_COMPLETED);
            CHECK_MSG(strstr(mtl_cmdbuf_error(cb[2]), "not run: an earlier command buffer"), "%s",
                      mtl_cmdbuf_error(cb[2]));
            CHECK(((const float *)mtl_buffer_contents(v))[5] == 6.0f);   /* cb[0] ran, cb[2] did not */
         } else {
            printf("    %s: earlier buffer %s; error: %s\n", info.name,
                   mtl_cmdbuf_get_status(cb[0]) == MTL_CMDBUF_ERROR ? "failed too" : "completed",
                   mtl_cmdbuf_error(cb[1]));
         }
      }
      for (int i = 0; i < 3; i++)
         mtl_cmdbuf_release(cb[i]);
      mtl_queue_release(q);
      mtl_event_release(busy);
      mtl_event_release(ev);
      mtl_buffer_release(v);
      mtl_buffer_release(out);
      mtl_pipeline_release(p);
      mtl_pipeline_release(bad);
      mtl_function_release(fn);
      mtl_library_release(lib);
   }
}
