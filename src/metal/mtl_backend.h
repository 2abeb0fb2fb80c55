/*
 * mtl_backend.h — what a Metal device implementation provides behind mtl.h.
 *
 * Every public object starts with an mtl_obj header naming its device; the
 * public mtl_* functions (src/metal/device.c) check the handle's magic
 * cookie and call the device's backend through this table.  A backend
 * embeds the public struct as the first member of its own:
 *
 *    typedef struct soft_buffer { struct mtl_buffer base; ... } soft_buffer;
 *
 * Backends: soft/ (every platform) and apple/ (macOS, through the
 * Objective-C runtime).  Only src/metal/ includes this.
 */
#ifndef MC_MTL_BACKEND_H
#define MC_MTL_BACKEND_H

#include "../util/util.h"
#include "mtl.h"

enum mtl_magic {
   MTL_MAGIC_DEVICE = 0x4d444556,   /* 'MDEV' */
   MTL_MAGIC_BUFFER = 0x4d425546,
   MTL_MAGIC_LIBRARY = 0x4d4c4942,
   MTL_MAGIC_FUNCTION = 0x4d46554e,
   MTL_MAGIC_PIPELINE = 0x4d50534f,
   MTL_MAGIC_QUEUE = 0x4d515545,
   MTL_MAGIC_CMDBUF = 0x4d434d44,
   MTL_MAGIC_ENCODER = 0x4d454e43,
   MTL_MAGIC_BLIT = 0x4d424c54,
   MTL_MAGIC_EVENT = 0x4d45564e,
   MTL_MAGIC_DEAD = 0x64656164,     /* released: use after release is caught */
};

typedef struct mtl_backend mtl_backend;

typedef struct mtl_obj {
   uint32_t magic;
   mtl_device *dev;
} mtl_obj;

struct mtl_device {
   mtl_obj obj;
   const mtl_backend *be;
   mtl_device_info info;
   void *impl;                  /* the backend's device state */
};
struct mtl_buffer { mtl_obj obj; };
struct mtl_library { mtl_obj obj; };
struct mtl_function { mtl_obj obj; };
struct mtl_pipeline { mtl_obj obj; };
struct mtl_queue { mtl_obj obj; };
struct mtl_cmdbuf { mtl_obj obj; };
struct mtl_encoder { mtl_obj obj; };
struct mtl_blit { mtl_obj obj; };
struct mtl_event { mtl_obj obj; };

/* One entry per public verb of mtl.h, same arguments. */
struct mtl_backend {
   const char *name;

   mtl_buffer *(*buffer_new)(mtl_device *dev, size_t length, char **err);
   mtl_buffer *(*buffer_new_at)(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err);
   void *(*buffer_contents)(mtl_buffer *buf);
   uint64_t (*buffer_gpu_address)(mtl_buffer *buf);
   size_t (*buffer_length)(mtl_buffer *buf);
   void (*buffer_release)(mtl_buffer *buf);
   bool (*buffer_set_gpu_access)(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible);

   mtl_library *(*library_new)(mtl_device *dev, const char *source,
                               const mtl_compile_options *opts, char **err);
   void (*library_release)(mtl_library *lib);
   mtl_function *(*function_new)(mtl_library *lib, const char *name, char **err);
   void (*function_release)(mtl_function *fn);
   mtl_pipeline *(*pipeline_new)(mtl_device *dev, mtl_function *fn, char **err);
   void (*pipeline_release)(mtl_pipeline *p);
   uint32_t (*pipeline_max_total_threads)(mtl_pipeline *p);
   uint32_t (*pipeline_thread_execution_width)(mtl_pipeline *p);
   uint32_t (*pipeline_static_threadgroup_memory)(mtl_pipeline *p);

   mtl_queue *(*queue_new)(mtl_device *dev, char **err);
   void (*queue_release)(mtl_queue *q);
   void (*queue_stats)(mtl_queue *q, uint64_t *submissions, uint64_t *cmdbufs);
   mtl_cmdbuf *(*cmdbuf_new)(mtl_queue *q, char **err);
   void (*cmdbuf_release)(mtl_cmdbuf *cb);
   void (*cmdbuf_add_completed_handler)(mtl_cmdbuf *cb, mtl_completed_fn fn, void *data);
   void (*cmdbuf_encode_signal_event)(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
   void (*cmdbuf_encode_wait_event)(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
   void (*cmdbuf_commit)(mtl_cmdbuf *cb);
   void (*cmdbuf_wait_until_completed)(mtl_cmdbuf *cb);
   mtl_cmdbuf_status (*cmdbuf_get_status)(mtl_cmdbuf *cb);
   const char *(*cmdbuf_error)(mtl_cmdbuf *cb);
   mtl_cmdbuf_failure (*cmdbuf_failure)(mtl_cmdbuf *cb);
   uint64_t (*cmdbuf_fault_address)(mtl_cmdbuf *cb);
   double (*cmdbuf_gpu_start_time)(mtl_cmdbuf *cb);
   double (*cmdbuf_gpu_end_time)(mtl_cmdbuf *cb);

   mtl_encoder *(*cmdbuf_compute_encoder)(mtl_cmdbuf *cb);
   void (*encoder_set_pipeline)(mtl_encoder *e, mtl_pipeline *p);
   void (*encoder_set_bytes)(mtl_encoder *e, const void *bytes, size_t length, uint32_t index);
   void (*encoder_set_buffer)(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index);
   void (*encoder_set_threadgroup_memory_length)(mtl_encoder *e, size_t length, uint32_t index);
   void (*encoder_use_resource)(mtl_encoder *e, mtl_buffer *buf);
   void (*encoder_dispatch_threadgroups)(mtl_encoder *e, mtl_size groups, mtl_size threads);
   void (*encoder_dispatch_coresident)(mtl_encoder *e, mtl_size groups, mtl_size threads);
   void (*encoder_memory_barrier)(mtl_encoder *e);
   void (*encoder_end)(mtl_encoder *e);

   mtl_blit *(*cmdbuf_blit_encoder)(mtl_cmdbuf *cb);
   void (*blit_copy)(mtl_blit *b, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                     size_t dst_offset, size_t size);
   void (*blit_fill)(mtl_blit *b, mtl_buffer *buf, size_t offset, size_t length, uint8_t value);
   void (*blit_end)(mtl_blit *b);

   mtl_event *(*event_new)(mtl_device *dev, char **err);
   void (*event_release)(mtl_event *ev);
   uint64_t (*event_signaled_value)(mtl_event *ev);
   void (*event_set_signaled_value)(mtl_event *ev, uint64_t value);
   bool (*event_wait)(mtl_event *ev, uint64_t value, uint64_t timeout_ms);
};

/* Sets *err (if err) to a malloc'ed formatted message. */
void mtl_set_err(char **err, const char *fmt, ...) MC_PRINTF(2, 3);

/* ---- validate.c: Metal's encoding rules, shared by the backends ---- */

enum { MTL_MSG_MAX = 512 };

/* What the rules need to know of a pipeline's kernel. */
typedef struct mtl_kernel_facts {
   const char *name;
   uint32_t max_threads;        /* maxTotalThreadsPerThreadgroup */
   uint32_t static_tg_bytes;    /* staticThreadgroupMemoryLength */
   uint32_t buffer_mask;        /* buffer indices the kernel uses */
   uint32_t tg_mask;            /* threadgroup memory indices it uses */
} mtl_kernel_facts;

/* Each returns true when the rule holds, else false with the message
 * (naming the rule, as the command buffer's error) in msg[MTL_MSG_MAX]. */
bool mtl_check_index(const char *what, uint32_t index, char *msg);
bool mtl_check_set_bytes(size_t length, char *msg);
bool mtl_check_set_buffer(size_t offset, size_t buf_length, char *msg);
bool mtl_check_threadgroup_length(size_t length, char *msg);
/* k NULL: no pipeline set.  bound_mask: indices with a buffer or bytes. */
bool mtl_check_dispatch(const mtl_kernel_facts *k, mtl_size groups, mtl_size threads,
                        uint32_t bound_mask, const uint32_t tg_len[MTL_MAX_BUFFER_BINDINGS],
                        char *msg);
/* Blits: [off, off + len) inside a buffer of buf_length bytes. */
bool mtl_check_range(const char *what, size_t off, size_t len, size_t buf_length, char *msg);

/* Backends: each fills the devices it has (at most max) and returns the
 * count.  Called once, in preference order. */
uint32_t soft_enumerate(mtl_device **out, uint32_t max);
#ifdef __APPLE__
uint32_t apple_enumerate(mtl_device **out, uint32_t max);
#endif

#endif
