/*
 * device.c — the Metal device registry and the public mtl_* entry points.
 *
 * Devices come from the backends in preference order: on macOS the Apple
 * GPUs (apple/), then the software device (soft/), which is always last.  METALCUDA_DEVICE=soft keeps only the software device;
 * METALCUDA_DEVICE=apple keeps only the Apple GPUs (on macOS).
 *
 * Every public function checks its handle's magic cookie (a bad or
 * released handle is a broken invariant: mc_die names it) and calls the
 * backend of the object's device, so objects of two backends can live in
 * one process.
 */
#include "mtl_backend.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(metal);

enum { MAX_DEVICES = 16 };

static mtl_device *devices[MAX_DEVICES];
static uint32_t ndevices;
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

void mtl_set_err(char **err, const char *fmt, ...)
{
   if (!err)
      return;
   strbuf b;
   strbuf_init(&b);
   va_list ap;
   va_start(ap, fmt);
   strbuf_vprintf(&b, fmt, ap);
   va_end(ap);
   *err = strbuf_take(&b);
}

static void enumerate(void)
{
   const char *want = getenv("METALCUDA_DEVICE");
   bool soft_only = want && !strcmp(want, "soft");
   bool apple_only = want && !strcmp(want, "apple");
#ifdef __APPLE__
   if (!soft_only)
      ndevices += apple_enumerate(devices + ndevices, MAX_DEVICES - 1 - ndevices);
#endif
   if (!apple_only || ndevices == 0) {
      if (apple_only)
         LOG_WARN("METALCUDA_DEVICE=apple but no Apple GPU: using the software device");
      ndevices += soft_enumerate(devices + ndevices, MAX_DEVICES - ndevices);
   }
   if (want && !soft_only && !apple_only)
      LOG_WARN("METALCUDA_DEVICE=%s is not 'soft' or 'apple': ignored", want);
   (void)soft_only;
}

uint32_t mtl_device_count(void)
{
   pthread_once(&devices_once, enumerate);
   return ndevices;
}

mtl_device *mtl_device_get(uint32_t index)
{
   return index < mtl_device_count() ? devices[index] : NULL;
}

void mtl_device_get_info(mtl_device *dev, mtl_device_info *out)
{
   *out = dev->info;
}

/* ---- handle checks ---- */

static void bad_handle(const void *obj, uint32_t want, const char *func)
{
   const mtl_obj *o = obj;
   if (!o)
      mc_die("%s: NULL handle", func);
   mc_die("%s: invalid or released handle %p (magic %#x, expected %#x)", func, obj,
          o->magic, want);
}

#define CHECK_OBJ(o, MAGIC)                                                  \
   do { if (!(o) || ((const mtl_obj *)(o))->magic != (MAGIC))                \
           bad_handle((o), (MAGIC), __func__); } while (0)
#define BE(o) (((const mtl_obj *)(o))->dev->be)

/* ---- buffers ---- */

mtl_buffer *mtl_buffer_new(mtl_device *dev, size_t length, char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   return dev->be->buffer_new(dev, length, err);
}

mtl_buffer *mtl_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   return dev->be->buffer_new_at(dev, cpu, length, gpu_hint, err);
}

void *mtl_buffer_contents(mtl_buffer *b) { CHECK_OBJ(b, MTL_MAGIC_BUFFER); return BE(b)->buffer_contents(b); }
uint64_t mtl_buffer_gpu_address(mtl_buffer *b) { CHECK_OBJ(b, MTL_MAGIC_BUFFER); return BE(b)->buffer_gpu_address(b); }
size_t mtl_buffer_length(mtl_buffer *b) { CHECK_OBJ(b, MTL_MAGIC_BUFFER); return BE(b)->buffer_length(b); }

bool mtl_buffer_set_gpu_access(mtl_buffer *b, uint64_t offset, uint64_t length, bool accessible)
{
   CHECK_OBJ(b, MTL_MAGIC_BUFFER);
   if (offset > BE(b)->buffer_length(b) || length > BE(b)->buffer_length(b) - offset)
      return false;
   return BE(b)->buffer_set_gpu_access(b, offset, length, accessible);
}

void mtl_buffer_release(mtl_buffer *b)
{
   if (!b)
      return;
   CHECK_OBJ(b, MTL_MAGIC_BUFFER);
   BE(b)->buffer_release(b);
}

/* ---- libraries, functions, pipelines ---- */

mtl_library *mtl_library_new(mtl_device *dev, const char *source, const mtl_compile_options *opts,
                             char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   if (!source) {
      mtl_set_err(err, "newLibraryWithSource: no source");
      return NULL;
   }
   return dev->be->library_new(dev, source, opts, err);
}

void mtl_library_release(mtl_library *l)
{
   if (!l)
      return;
   CHECK_OBJ(l, MTL_MAGIC_LIBRARY);
   BE(l)->library_release(l);
}

mtl_function *mtl_function_new(mtl_library *l, const char *name, char **err)
{
   CHECK_OBJ(l, MTL_MAGIC_LIBRARY);
   if (!name) {
      mtl_set_err(err, "newFunctionWithName: no name");
      return NULL;
   }
   return BE(l)->function_new(l, name, err);
}

void mtl_function_release(mtl_function *f)
{
   if (!f)
      return;
   CHECK_OBJ(f, MTL_MAGIC_FUNCTION);
   BE(f)->function_release(f);
}

mtl_pipeline *mtl_pipeline_new(mtl_device *dev, mtl_function *fn, char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   CHECK_OBJ(fn, MTL_MAGIC_FUNCTION);
   if (fn->obj.dev != dev) {
      mtl_set_err(err, "newComputePipelineState: the function belongs to another device");
      return NULL;
   }
   return dev->be->pipeline_new(dev, fn, err);
}

void mtl_pipeline_release(mtl_pipeline *p)
{
   if (!p)
      return;
   CHECK_OBJ(p, MTL_MAGIC_PIPELINE);
   BE(p)->pipeline_release(p);
}

uint32_t mtl_pipeline_max_total_threads(mtl_pipeline *p)
{
   CHECK_OBJ(p, MTL_MAGIC_PIPELINE);
   return BE(p)->pipeline_max_total_threads(p);
}

uint32_t mtl_pipeline_thread_execution_width(mtl_pipeline *p)
{
   CHECK_OBJ(p, MTL_MAGIC_PIPELINE);
   return BE(p)->pipeline_thread_execution_width(p);
}

uint32_t mtl_pipeline_static_threadgroup_memory(mtl_pipeline *p)
{
   CHECK_OBJ(p, MTL_MAGIC_PIPELINE);
   return BE(p)->pipeline_static_threadgroup_memory(p);
}

/* ---- queues and command buffers ---- */

mtl_queue *mtl_queue_new(mtl_device *dev, char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   return dev->be->queue_new(dev, err);
}

void mtl_queue_release(mtl_queue *q)
{
   if (!q)
      return;
   CHECK_OBJ(q, MTL_MAGIC_QUEUE);
   BE(q)->queue_release(q);
}

void mtl_queue_stats(mtl_queue *q, uint64_t *submissions, uint64_t *cmdbufs)
{
   CHECK_OBJ(q, MTL_MAGIC_QUEUE);
   BE(q)->queue_stats(q, submissions, cmdbufs);
}

mtl_cmdbuf *mtl_cmdbuf_new(mtl_queue *q, char **err)
{
   CHECK_OBJ(q, MTL_MAGIC_QUEUE);
   return BE(q)->cmdbuf_new(q, err);
}

void mtl_cmdbuf_release(mtl_cmdbuf *cb)
{
   if (!cb)
      return;
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   BE(cb)->cmdbuf_release(cb);
}

void mtl_cmdbuf_add_completed_handler(mtl_cmdbuf *cb, mtl_completed_fn fn, void *data)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   BE(cb)->cmdbuf_add_completed_handler(cb, fn, data);
}

void mtl_cmdbuf_encode_signal_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   BE(cb)->cmdbuf_encode_signal_event(cb, ev, value);
}

void mtl_cmdbuf_encode_wait_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   BE(cb)->cmdbuf_encode_wait_event(cb, ev, value);
}

void mtl_cmdbuf_commit(mtl_cmdbuf *cb) { CHECK_OBJ(cb, MTL_MAGIC_CMDBUF); BE(cb)->cmdbuf_commit(cb); }

void mtl_cmdbuf_wait_until_completed(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   BE(cb)->cmdbuf_wait_until_completed(cb);
}

mtl_cmdbuf_status mtl_cmdbuf_get_status(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_get_status(cb);
}

const char *mtl_cmdbuf_error(mtl_cmdbuf *cb) { CHECK_OBJ(cb, MTL_MAGIC_CMDBUF); return BE(cb)->cmdbuf_error(cb); }

mtl_cmdbuf_failure mtl_cmdbuf_failure_kind(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_failure(cb);
}

uint64_t mtl_cmdbuf_fault_address(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_fault_address(cb);
}

double mtl_cmdbuf_gpu_start_time(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_gpu_start_time(cb);
}

double mtl_cmdbuf_gpu_end_time(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_gpu_end_time(cb);
}

/* ---- compute encoder ---- */

mtl_encoder *mtl_cmdbuf_compute_encoder(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_compute_encoder(cb);
}

void mtl_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *p)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   CHECK_OBJ(p, MTL_MAGIC_PIPELINE);
   BE(e)->encoder_set_pipeline(e, p);
}

void mtl_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   BE(e)->encoder_set_bytes(e, bytes, length, index);
}

void mtl_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   if (buf)
      CHECK_OBJ(buf, MTL_MAGIC_BUFFER);
   BE(e)->encoder_set_buffer(e, buf, offset, index);
}

void mtl_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   BE(e)->encoder_set_threadgroup_memory_length(e, length, index);
}

void mtl_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   CHECK_OBJ(buf, MTL_MAGIC_BUFFER);
   BE(e)->encoder_use_resource(e, buf);
}

void mtl_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads_per_group)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   BE(e)->encoder_dispatch_threadgroups(e, groups, threads_per_group);
}

void mtl_encoder_dispatch_threadgroups_coresident(mtl_encoder *e, mtl_size groups, mtl_size threads_per_group)
{
   CHECK_OBJ(e, MTL_MAGIC_ENCODER);
   BE(e)->encoder_dispatch_coresident(e, groups, threads_per_group);
}

void mtl_encoder_memory_barrier(mtl_encoder *e) { CHECK_OBJ(e, MTL_MAGIC_ENCODER); BE(e)->encoder_memory_barrier(e); }
void mtl_encoder_end(mtl_encoder *e) { CHECK_OBJ(e, MTL_MAGIC_ENCODER); BE(e)->encoder_end(e); }

/* ---- blit encoder ---- */

mtl_blit *mtl_cmdbuf_blit_encoder(mtl_cmdbuf *cb)
{
   CHECK_OBJ(cb, MTL_MAGIC_CMDBUF);
   return BE(cb)->cmdbuf_blit_encoder(cb);
}

void mtl_blit_copy(mtl_blit *b, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                   size_t dst_offset, size_t size)
{
   CHECK_OBJ(b, MTL_MAGIC_BLIT);
   CHECK_OBJ(src, MTL_MAGIC_BUFFER);
   CHECK_OBJ(dst, MTL_MAGIC_BUFFER);
   BE(b)->blit_copy(b, src, src_offset, dst, dst_offset, size);
}

void mtl_blit_fill(mtl_blit *b, mtl_buffer *buf, size_t offset, size_t length, uint8_t value)
{
   CHECK_OBJ(b, MTL_MAGIC_BLIT);
   CHECK_OBJ(buf, MTL_MAGIC_BUFFER);
   BE(b)->blit_fill(b, buf, offset, length, value);
}

void mtl_blit_end(mtl_blit *b) { CHECK_OBJ(b, MTL_MAGIC_BLIT); BE(b)->blit_end(b); }

/* ---- shared events ---- */

mtl_event *mtl_event_new(mtl_device *dev, char **err)
{
   CHECK_OBJ(dev, MTL_MAGIC_DEVICE);
   return dev->be->event_new(dev, err);
}

void mtl_event_release(mtl_event *ev)
{
   if (!ev)
      return;
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   BE(ev)->event_release(ev);
}

uint64_t mtl_event_signaled_value(mtl_event *ev)
{
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   return BE(ev)->event_signaled_value(ev);
}

void mtl_event_set_signaled_value(mtl_event *ev, uint64_t value)
{
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   BE(ev)->event_set_signaled_value(ev, value);
}

bool mtl_event_wait(mtl_event *ev, uint64_t value, uint64_t timeout_ms)
{
   CHECK_OBJ(ev, MTL_MAGIC_EVENT);
   return BE(ev)->event_wait(ev, value, timeout_ms);
}
