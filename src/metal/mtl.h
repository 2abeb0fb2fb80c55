/*
 * mtl.h — the part of Metal the runtime uses, as a small C interface.
 *
 * The objects and their verbs are shaped like Metal's own (MTLDevice,
 * MTLBuffer, MTLLibrary, MTLFunction, MTLComputePipelineState,
 * MTLCommandQueue, MTLCommandBuffer, MTLComputeCommandEncoder,
 * MTLBlitCommandEncoder, MTLSharedEvent), so that the two implementations
 * behind it are thin:
 *
 *   apple/  real Metal.framework through the Objective-C runtime (macOS);
 *   soft/   the software Metal device: MSL compiled by the host C++ compiler
 *           against our own metal_stdlib, run on CPU threads.
 *
 * Both may be present in one process (on macOS); mtl_devices() lists the
 * Apple GPUs first, then the software device (unless METALCUDA_DEVICE says
 * otherwise).
 *
 * Ownership: every *_new returns an object owned by the caller, freed with
 * the matching *_release.  Devices live as long as the process.
 *
 * Errors: functions that can fail return NULL or false and, when err is not
 * NULL, store a malloc'ed message in *err (free() it).  Messages name the
 * Metal rule that was broken ("setBytes: 5000 bytes exceeds Metal's 4 KB
 * limit").  Encoding errors that Metal's API validation would catch are
 * recorded in the command buffer, which then completes with
 * MTL_CMDBUF_ERROR and that message.
 *
 * Threading: as in Metal, a command buffer and its encoders are used from
 * one thread at a time; queues, devices, libraries and pipelines are
 * thread-safe.
 *
 * Lifetimes: encoders belong to their command buffer (one open at a time;
 * end it, never release it).  Command buffers keep the pipelines, buffers
 * and events they use alive until they complete, and functions and
 * pipelines keep their library loaded, so any object may be released as
 * soon as the caller is done with it.
 */
#ifndef MC_MTL_H
#define MC_MTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mtl_device mtl_device;
typedef struct mtl_buffer mtl_buffer;
typedef struct mtl_library mtl_library;
typedef struct mtl_function mtl_function;
typedef struct mtl_pipeline mtl_pipeline;
typedef struct mtl_queue mtl_queue;
typedef struct mtl_cmdbuf mtl_cmdbuf;
typedef struct mtl_encoder mtl_encoder;
typedef struct mtl_blit mtl_blit;
typedef struct mtl_event mtl_event;

/* Metal's documented limits (the software device enforces the same). */
enum {
   MTL_MAX_BUFFER_BINDINGS = 31,
   MTL_MAX_SET_BYTES = 4096,
   MTL_MAX_THREADGROUP_MEMORY = 32768,
   MTL_THREADGROUP_MEMORY_ALIGN = 16,
   MTL_MAX_THREADS_PER_THREADGROUP = 1024,
   MTL_MAX_THREADGROUP_BINDINGS = 31,
};

/* The one Metal Shading Language version metalcuda emits and is tested
 * with, pinned rather than "the newest the OS has" (issue 15): 3.2, for
 * atomic_thread_fence with a scope and coherent(device) memory, which
 * __threadfence and memory shared between threadgroups need (MSL 3.1 has
 * no fence at all).  An Apple GPU is listed only where Metal can compile
 * it (macOS 15 and later, apple/device.c); the software device's shim
 * refuses at each older version what it lacks. */
enum { MTL_MSL_VERSION = 320 };

typedef struct mtl_size {
   uint32_t width, height, depth;
} mtl_size;

/* ---- devices ---- */

typedef struct mtl_device_info {
   char name[128];
   bool is_software;                  /* the CPU device */
   bool has_unified_memory;
   /* Kernels can reach the process's own memory (malloc'ed, registered
    * with cuMemHostRegister) at its CPU address as a GPU address: the
    * software device, whose kernels run in the process.  Apple devices
    * would need newBufferWithBytesNoCopy per range (not done yet). */
   bool reaches_host_memory;
   uint32_t max_threads_per_threadgroup;   /* 1024 */
   uint32_t max_threadgroup_memory;        /* 32 KB */
   uint32_t simd_width;                    /* 32 */
   uint64_t max_buffer_length;
   uint64_t recommended_working_set;       /* bytes of memory worth using */
   uint32_t compute_units;                 /* GPU cores / CPU threads used */
   uint32_t clock_khz;                     /* nominal, 0 if unknown */
   uint64_t registry_id;                   /* stable per device */
   uint32_t msl_version;                   /* MSL it compiles: MTL_MSL_VERSION (320 = 3.2) */
} mtl_device_info;

/* All devices, in preference order.  Never fails: the software device is
 * always last (it may still fail to compile libraries later, e.g. with no
 * host C++ compiler, and says so then). */
uint32_t mtl_device_count(void);
mtl_device *mtl_device_get(uint32_t index);
void mtl_device_get_info(mtl_device *dev, mtl_device_info *out);

/* ---- buffers: shared storage, CPU and GPU see the same bytes ---- */

/* contents() is the CPU address; gpu_address() is what kernels use
 * (MTLBuffer.gpuAddress).  They differ on every device, including the
 * software one, which maps the memory twice. */
mtl_buffer *mtl_buffer_new(mtl_device *dev, size_t length, char **err);
/* A buffer over the caller's memory [cpu, cpu + length), both page-aligned
 * (newBufferWithBytesNoCopy:length:options:deallocator: with no
 * deallocator): contents() is cpu.  The caller keeps the range mapped (or,
 * on the software device, reserved: it maps its memory object over it, and
 * puts an inaccessible reservation back on release) and must not unmap it
 * while the buffer lives.  gpu_hint (page-aligned, 0: none): where the
 * software device maps the GPU view, a range the caller has reserved the
 * same way, unless METALCUDA_SOFT_SCATTER is set (mtl_gpu_hints_honoured);
 * an Apple GPU picks its own gpuAddress.  The device arena's chunks
 * (core/arena.c). */
mtl_buffer *mtl_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err);
void *mtl_buffer_contents(mtl_buffer *buf);
uint64_t mtl_buffer_gpu_address(mtl_buffer *buf);
size_t mtl_buffer_length(mtl_buffer *buf);
void mtl_buffer_release(mtl_buffer *buf);
/* Validation (METALCUDA_VALIDATE, software device only): makes the GPU
 * view of [offset, offset + length) inaccessible to kernels, or accessible
 * again; page-aligned.  False where the device cannot (Apple GPUs). */
bool mtl_buffer_set_gpu_access(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible);

/* ---- libraries, functions, pipelines ---- */

typedef struct mtl_compile_options {
   bool fast_math;             /* default false: IEEE (MTLMathModeSafe) */
   uint32_t language_version;  /* 0: the device's (MTL_MSL_VERSION); else e.g. 310 */
} mtl_compile_options;

/* Compiles MSL source (newLibraryWithSource:options:error:).  On failure
 * *err holds the compiler's diagnostics. */
mtl_library *mtl_library_new(mtl_device *dev, const char *source,
                             const mtl_compile_options *opts, char **err);
void mtl_library_release(mtl_library *lib);

/* A kernel function of the library by name; NULL if absent. */
mtl_function *mtl_function_new(mtl_library *lib, const char *name, char **err);
void mtl_function_release(mtl_function *fn);

mtl_pipeline *mtl_pipeline_new(mtl_device *dev, mtl_function *fn, char **err);
void mtl_pipeline_release(mtl_pipeline *p);
uint32_t mtl_pipeline_max_total_threads(mtl_pipeline *p);   /* maxTotalThreadsPerThreadgroup */
uint32_t mtl_pipeline_thread_execution_width(mtl_pipeline *p);
uint32_t mtl_pipeline_static_threadgroup_memory(mtl_pipeline *p);

/* ---- queues and command buffers ---- */

mtl_queue *mtl_queue_new(mtl_device *dev, char **err);
void mtl_queue_release(mtl_queue *q);   /* waits for committed work */
/* Submissions: every device groups a queue's committed command buffers
 * into submissions (one MTLCommandBuffer each on an Apple GPU) while
 * earlier ones run, in commit order (batch.c says when a submission
 * ends).  Counts so far: submissions made and command buffers in them. */
void mtl_queue_stats(mtl_queue *q, uint64_t *submissions, uint64_t *cmdbufs);
/* The most threadgroups one submission holds, and the size of the pieces
 * the runtime splits longer grids into, so that no MTLCommandBuffer runs
 * long enough for the GPU watchdog (about 5 s): METALCUDA_GRID_SPLIT, else
 * MTL_DEFAULT_SUBMISSION_GROUPS; 0: no limit, grids are not split. */
enum { MTL_DEFAULT_SUBMISSION_GROUPS = 65536 };
/* Submissions of one queue running at a time; later commits wait for one
 * of them to complete and then go as one submission. */
enum { MTL_SUBMISSIONS_IN_FLIGHT = 3 };
uint64_t mtl_submission_groups(void);

mtl_cmdbuf *mtl_cmdbuf_new(mtl_queue *q, char **err);
void mtl_cmdbuf_release(mtl_cmdbuf *cb);

typedef enum mtl_cmdbuf_status {
   MTL_CMDBUF_NOT_ENQUEUED,
   MTL_CMDBUF_COMMITTED,
   MTL_CMDBUF_SCHEDULED,
   MTL_CMDBUF_COMPLETED,
   MTL_CMDBUF_ERROR,
} mtl_cmdbuf_status;

/* Called once on a device thread when the buffer completes (or fails).
 * Must be added before commit.  A buffer's handlers run when its whole
 * submission completes (mtl_queue_stats), in commit order. */
typedef void (*mtl_completed_fn)(mtl_cmdbuf *cb, void *data);
void mtl_cmdbuf_add_completed_handler(mtl_cmdbuf *cb, mtl_completed_fn fn, void *data);
void mtl_cmdbuf_encode_signal_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void mtl_cmdbuf_encode_wait_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void mtl_cmdbuf_commit(mtl_cmdbuf *cb);
void mtl_cmdbuf_wait_until_completed(mtl_cmdbuf *cb);
mtl_cmdbuf_status mtl_cmdbuf_get_status(mtl_cmdbuf *cb);
/* Error text of a failed buffer (owned by cb), NULL otherwise. */
const char *mtl_cmdbuf_error(mtl_cmdbuf *cb);
/* Why a buffer failed, as far as the runtime's error codes tell apart
 * (Metal's MTLCommandBufferError). */
typedef enum mtl_cmdbuf_failure {
   MTL_FAILURE_NONE,            /* not failed (yet) */
   MTL_FAILURE_ENCODING,        /* an encoding rule: none of its work ran */
   MTL_FAILURE_EXECUTION,       /* a kernel faulted, or the GPU failed it */
   MTL_FAILURE_TIMEOUT,         /* the GPU watchdog stopped it (MTLCommandBufferErrorTimeout) */
   MTL_FAILURE_REFUSED,         /* Metal runs no more work of this process (after repeated faults) */
} mtl_cmdbuf_failure;
mtl_cmdbuf_failure mtl_cmdbuf_failure_kind(mtl_cmdbuf *cb);
/* The GPU address a kernel of cb faulted at (0: none, or not known). */
uint64_t mtl_cmdbuf_fault_address(mtl_cmdbuf *cb);
/* GPU start / end times in seconds (host clock domain). */
double mtl_cmdbuf_gpu_start_time(mtl_cmdbuf *cb);
double mtl_cmdbuf_gpu_end_time(mtl_cmdbuf *cb);

/* ---- compute encoder ---- */

mtl_encoder *mtl_cmdbuf_compute_encoder(mtl_cmdbuf *cb);
void mtl_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *p);
/* setBytes:length:atIndex: (≤ 4 KB, copied now). */
void mtl_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index);
void mtl_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index);
/* setThreadgroupMemoryLength:atIndex: (multiple of 16, total ≤ 32 KB). */
void mtl_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index);
/* useResource:usage: — makes a buffer reachable by raw GPU address. */
void mtl_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf);
void mtl_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads_per_group);
/* The same, with every threadgroup of the dispatch resident at once, so
 * that threadgroups may wait for one another through device atomics (a
 * CUDA cooperative launch's grid.sync()).  The caller keeps the grid within
 * what the device holds at once (compute_units x threadgroups per unit):
 * an Apple GPU then runs all of them concurrently (docs/mac-checklist.md);
 * the software device gives each threadgroup its own OS thread. */
void mtl_encoder_dispatch_threadgroups_coresident(mtl_encoder *e, mtl_size groups, mtl_size threads_per_group);
void mtl_encoder_memory_barrier(mtl_encoder *e);
void mtl_encoder_end(mtl_encoder *e);

/* ---- blit encoder ---- */

mtl_blit *mtl_cmdbuf_blit_encoder(mtl_cmdbuf *cb);
void mtl_blit_copy(mtl_blit *b, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                   size_t dst_offset, size_t size);
void mtl_blit_fill(mtl_blit *b, mtl_buffer *buf, size_t offset, size_t length, uint8_t value);
void mtl_blit_end(mtl_blit *b);

/* ---- shared events ---- */

mtl_event *mtl_event_new(mtl_device *dev, char **err);
void mtl_event_release(mtl_event *ev);
uint64_t mtl_event_signaled_value(mtl_event *ev);
void mtl_event_set_signaled_value(mtl_event *ev, uint64_t value);
/* Blocks until the value is reached or timeout_ms passes; true if reached. */
bool mtl_event_wait(mtl_event *ev, uint64_t value, uint64_t timeout_ms);

#endif
