/*
 * apple.h — the Apple Metal device: internal interfaces (table of
 * contents, one section per file).  Nothing outside src/metal/ includes
 * it.
 *
 * Metal is reached from plain C through the Objective-C runtime: every
 * method call is objc_msgSend cast to the method's exact C function type
 * (receiver, selector, then the arguments), so that arguments and results
 * travel by the platform's ordinary C calling convention — the same code
 * the Objective-C compiler emits.  Casting is not optional: arm64 passes
 * variadic arguments on the stack, so calling objc_msgSend as a variadic
 * function would hand the method garbage.  Struct results larger than 16
 * bytes need objc_msgSend_stret on x86_64 (the hidden result pointer goes
 * first there); arm64 has no _stret and uses x8.  A double result uses
 * plain objc_msgSend on both: x86_64's objc_msgSend_fpret exists only for
 * long double (x87), as <objc/message.h> says.
 *
 * Memory: objects from alloc/new/copy methods are owned (+1) and released
 * with apple_release(); others are autoreleased (+0) and retained when
 * kept.  Every entry point that may autorelease runs inside its own
 * autorelease pool (apple_pool_push/pop), since the caller's threads have
 * none.
 */
#ifndef MC_APPLE_H
#define MC_APPLE_H

#include <pthread.h>
#include <stdatomic.h>

#include "../batch.h"
#include "../mtl_backend.h"
#include "objc_decls.h"

/* ---- objc.c: selectors, classes, message sends, strings, blocks ---- */

/* objc_msgSend (and objc_msgSend_stret where it exists), as untyped
 * function pointers: a variable, so that the compiler does not see the
 * runtime's declaration through the cast (gcc warns about any call of a
 * known function through another type, with no option to say it is
 * intended). */
extern void (*apple_msg_send)(void);
extern void (*apple_msg_send_stret)(void);

/* Calls objc_msgSend as T, the method's exact function-pointer type
 * (receiver, selector, arguments). */
#define APPLE_SEND(T, ...) ((T)apple_msg_send)(__VA_ARGS__)
#define APPLE_SEND_STRET(T, ...) ((T)apple_msg_send_stret)(__VA_ARGS__)

/* Every selector the backend sends: field name, selector name. */
#define APPLE_SELECTORS(X)                                                   \
   X(alloc, "alloc")                                                         \
   X(init, "init")                                                           \
   X(retain, "retain")                                                       \
   X(release, "release")                                                     \
   X(respondsToSelector, "respondsToSelector:")                              \
   X(initWithUTF8String, "initWithUTF8String:")                              \
   X(UTF8String, "UTF8String")                                               \
   X(localizedDescription, "localizedDescription")                           \
   X(code, "code")                                                           \
   X(count, "count")                                                         \
   X(objectAtIndex, "objectAtIndex:")                                        \
   X(name, "name")                                                           \
   X(maxThreadsPerThreadgroup, "maxThreadsPerThreadgroup")                   \
   X(maxThreadgroupMemoryLength, "maxThreadgroupMemoryLength")               \
   X(maxBufferLength, "maxBufferLength")                                     \
   X(recommendedMaxWorkingSetSize, "recommendedMaxWorkingSetSize")           \
   X(hasUnifiedMemory, "hasUnifiedMemory")                                   \
   X(registryID, "registryID")                                               \
   X(supportsFamily, "supportsFamily:")                                      \
   X(newBufferWithLength_options, "newBufferWithLength:options:")            \
   X(newBufferWithBytesNoCopy, "newBufferWithBytesNoCopy:length:options:deallocator:") \
   X(newLibraryWithSource_options_error, "newLibraryWithSource:options:error:") \
   X(newComputePipelineState, "newComputePipelineStateWithFunction:options:reflection:error:") \
   X(newCommandQueue, "newCommandQueue")                                     \
   X(newSharedEvent, "newSharedEvent")                                       \
   X(contents, "contents")                                                   \
   X(gpuAddress, "gpuAddress")                                               \
   X(length, "length")                                                       \
   X(setLanguageVersion, "setLanguageVersion:")                              \
   X(setFastMathEnabled, "setFastMathEnabled:")                              \
   X(setMathMode, "setMathMode:")                                            \
   X(setMathFloatingPointFunctions, "setMathFloatingPointFunctions:")        \
   X(newFunctionWithName, "newFunctionWithName:")                            \
   X(functionType, "functionType")                                           \
   X(maxTotalThreadsPerThreadgroup, "maxTotalThreadsPerThreadgroup")         \
   X(threadExecutionWidth, "threadExecutionWidth")                           \
   X(staticThreadgroupMemoryLength, "staticThreadgroupMemoryLength")         \
   X(bindings, "bindings")                                                   \
   X(type, "type")                                                           \
   X(index, "index")                                                         \
   X(commandBuffer, "commandBuffer")                                         \
   X(commandBufferWithDescriptor, "commandBufferWithDescriptor:")            \
   X(setErrorOptions, "setErrorOptions:")                                    \
   X(setLabel, "setLabel:")                                                  \
   X(label, "label")                                                         \
   X(userInfo, "userInfo")                                                   \
   X(objectForKey, "objectForKey:")                                          \
   X(errorState, "errorState")                                               \
   X(newResidencySetWithDescriptor_error, "newResidencySetWithDescriptor:error:") \
   X(setInitialCapacity, "setInitialCapacity:")                              \
   X(addAllocation, "addAllocation:")                                        \
   X(removeAllocation, "removeAllocation:")                                  \
   X(requestResidency, "requestResidency")                                   \
   X(addResidencySet, "addResidencySet:")                                    \
   X(addCompletedHandler, "addCompletedHandler:")                            \
   X(commit, "commit")                                                       \
   X(status, "status")                                                       \
   X(error, "error")                                                         \
   X(GPUStartTime, "GPUStartTime")                                           \
   X(GPUEndTime, "GPUEndTime")                                               \
   X(encodeSignalEvent_value, "encodeSignalEvent:value:")                    \
   X(encodeWaitForEvent_value, "encodeWaitForEvent:value:")                  \
   X(computeCommandEncoder, "computeCommandEncoder")                         \
   X(blitCommandEncoder, "blitCommandEncoder")                               \
   X(setComputePipelineState, "setComputePipelineState:")                    \
   X(setBytes_length_atIndex, "setBytes:length:atIndex:")                    \
   X(setBuffer_offset_atIndex, "setBuffer:offset:atIndex:")                  \
   X(setThreadgroupMemoryLength_atIndex, "setThreadgroupMemoryLength:atIndex:") \
   X(useResource_usage, "useResource:usage:")                                \
   X(dispatchThreadgroups, "dispatchThreadgroups:threadsPerThreadgroup:")    \
   X(memoryBarrierWithScope, "memoryBarrierWithScope:")                      \
   X(endEncoding, "endEncoding")                                             \
   X(copyFromBuffer, "copyFromBuffer:sourceOffset:toBuffer:destinationOffset:size:") \
   X(fillBuffer_range_value, "fillBuffer:range:value:")                      \
   X(signaledValue, "signaledValue")                                         \
   X(setSignaledValue, "setSignaledValue:")                                  \
   X(waitUntilSignaledValue, "waitUntilSignaledValue:timeoutMS:")

typedef struct apple_sels {
#define APPLE_SEL_FIELD(field, name) SEL field;
   APPLE_SELECTORS(APPLE_SEL_FIELD)
#undef APPLE_SEL_FIELD
} apple_sels;

typedef struct apple_classes {
   id NSString, MTLCompileOptions;
} apple_classes;

extern apple_sels apple_sel;
extern apple_classes apple_cls;

/* Looks up the selectors and classes; false if Foundation or Metal is
 * missing.  Called once, before anything else here. */
bool apple_objc_init(void);

static inline void *apple_pool_push(void) { return objc_autoreleasePoolPush(); }
static inline void apple_pool_pop(void *pool) { objc_autoreleasePoolPop(pool); }

/* The common method shapes. */
static inline id apple_id(id o, SEL s) { return APPLE_SEND(id (*)(id, SEL), o, s); }
static inline id apple_id_id(id o, SEL s, id a) { return APPLE_SEND(id (*)(id, SEL, id), o, s, a); }
static inline NSUInteger apple_uint(id o, SEL s) { return APPLE_SEND(NSUInteger (*)(id, SEL), o, s); }
static inline NSInteger apple_int(id o, SEL s) { return APPLE_SEND(NSInteger (*)(id, SEL), o, s); }
static inline uint64_t apple_u64(id o, SEL s) { return APPLE_SEND(uint64_t (*)(id, SEL), o, s); }
static inline BOOL apple_bool(id o, SEL s) { return APPLE_SEND(BOOL (*)(id, SEL), o, s); }
static inline double apple_double(id o, SEL s) { return APPLE_SEND(double (*)(id, SEL), o, s); }
static inline void apple_void(id o, SEL s) { APPLE_SEND(void (*)(id, SEL), o, s); }
static inline void apple_void_id(id o, SEL s, id a) { APPLE_SEND(void (*)(id, SEL, id), o, s, a); }
static inline void apple_void_int(id o, SEL s, NSInteger v)
{
   APPLE_SEND(void (*)(id, SEL, NSInteger), o, s, v);
}

/* 24-byte struct results: objc_msgSend_stret on x86_64. */
_Static_assert(sizeof(apple_mtl_size) > 16, "struct results over 16 bytes go through objc_msgSend_stret on x86_64");
static inline apple_mtl_size apple_size(id o, SEL s)
{
   return APPLE_SEND_STRET(apple_mtl_size (*)(id, SEL), o, s);
}

static inline id apple_retain(id o) { return o ? apple_id(o, apple_sel.retain) : o; }
static inline void apple_release(id o)
{
   if (o)
      apple_void(o, apple_sel.release);
}
/* [o respondsToSelector:s]: for methods newer than the oldest macOS. */
bool apple_responds(id o, SEL s);

/* [[NSString alloc] initWithUTF8String:s], owned; nil if s is not UTF-8. */
id apple_string_new(const char *s);
/* A malloc'ed copy of an NSString's UTF-8 text; NULL for nil. */
char *apple_string_copy(id str);
/* An NSError's localizedDescription, malloc'ed; fallback if nil. */
char *apple_error_text(id error, const char *fallback);

/* A block literal built by hand (Clang Blocks ABI; objc.c explains it):
 * a "stack" block whose invoke gets the block and one object argument,
 * and carries one pointer of captured data.  Metal copies it (Block_copy)
 * when it keeps it, so the literal may live on the C stack. */
typedef struct apple_block apple_block;
typedef void (*apple_block_fn)(apple_block *self, id arg);
struct apple_block {
   void *isa;
   int flags;
   int reserved;
   apple_block_fn invoke;
   const void *descriptor;
   void *data;                  /* the captured variable */
};
/* Fills a block literal for a `void (^)(id)` parameter. */
void apple_block_init(apple_block *b, apple_block_fn invoke, void *data);

/* ---- device.c ---- */

extern const mtl_backend apple_backend;
/* Declared in mtl_backend.h on macOS only; here for the Linux check. */
uint32_t apple_enumerate(mtl_device **out, uint32_t max);

static inline id apple_dev(mtl_device *d) { return (id)d->impl; }

/* ---- buffer.c ---- */

typedef struct apple_buffer {
   struct mtl_buffer base;
   id buf;                      /* id<MTLBuffer>, owned */
   void *cpu;                   /* contents */
   uint64_t gpu;                /* gpuAddress */
   size_t length;
   bool in_set;                 /* in the device's residency set: no useResource: */
} apple_buffer;

mtl_buffer *apple_buffer_new(mtl_device *dev, size_t length, char **err);
mtl_buffer *apple_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err);
void *apple_buffer_contents(mtl_buffer *buf);
uint64_t apple_buffer_gpu_address(mtl_buffer *buf);
size_t apple_buffer_length(mtl_buffer *buf);
bool apple_buffer_set_gpu_access(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible);
void apple_buffer_release(mtl_buffer *buf);

/* ---- residency.c: the residency set (METALCUDA_RESIDENCY_SET=1) ---- */

/* The queue keeps the device's set resident (nothing without a set). */
void apple_residency_queue(mtl_device *dev, id queue);
/* Adds buf to the device's set; false without one (useResource: then). */
bool apple_residency_add(mtl_device *dev, id buf);
void apple_residency_remove(mtl_device *dev, id buf);

/* ---- library.c: libraries, functions, pipelines ---- */

typedef struct apple_library {
   struct mtl_library base;
   id lib;                      /* id<MTLLibrary>, owned */
} apple_library;

typedef struct apple_function {
   struct mtl_function base;
   id fn;                       /* id<MTLFunction>, owned */
   id lib;                      /* its MTLLibrary, retained: mtl.h promises
                                   functions keep their library */
   char *name;
} apple_function;

typedef struct apple_pipeline {
   struct mtl_pipeline base;
   id pso;                      /* id<MTLComputePipelineState>, owned */
   _Atomic uint32_t refs;       /* the owner + encoders that set it */
   char *name;
   mtl_kernel_facts facts;      /* for the encoding rules */
   uint32_t simd_width;         /* threadExecutionWidth */
} apple_pipeline;

mtl_library *apple_library_new(mtl_device *dev, const char *source,
                               const mtl_compile_options *opts, char **err);
void apple_library_release(mtl_library *lib);
mtl_function *apple_function_new(mtl_library *lib, const char *name, char **err);
void apple_function_release(mtl_function *fn);
mtl_pipeline *apple_pipeline_new(mtl_device *dev, mtl_function *fn, char **err);
void apple_pipeline_release(mtl_pipeline *p);
uint32_t apple_pipeline_max_total_threads(mtl_pipeline *p);
uint32_t apple_pipeline_thread_execution_width(mtl_pipeline *p);
uint32_t apple_pipeline_static_threadgroup_memory(mtl_pipeline *p);
void apple_pipeline_retain(apple_pipeline *p);
void apple_pipeline_unref(apple_pipeline *p);

/* ---- encoder.c: recording; queue.c: queues, command buffers, replay ---- */

/* A command buffer records what is encoded (validated as it comes, by
 * ../validate.c) and replays it into a real MTLCommandBuffer at commit;
 * see queue.c for why. */
typedef enum apple_op_kind {
   OP_COMPUTE, OP_BLIT, OP_END,                 /* encoder boundaries */
   OP_PIPELINE, OP_BYTES, OP_BUFFER, OP_TG_LENGTH, OP_USE, OP_DISPATCH, OP_BARRIER,
   OP_COPY, OP_FILL,
   OP_SIGNAL, OP_WAIT,
} apple_op_kind;

typedef struct apple_op {
   apple_op_kind kind;
   struct apple_op *next;
   id obj, obj2;                /* retained: pipeline, buffer(s), event */
   uint32_t index;
   size_t off, off2, len;
   uint64_t value;              /* event value; fill byte */
   mtl_size groups, threads;
   uint8_t bytes[];             /* setBytes: the copy */
} apple_op;

/* What has been bound in the open compute encoder (Metal keeps bindings
 * across the dispatches of one encoder). */
typedef struct apple_encoder_state {
   bool compute_open, blit_open;
   apple_pipeline *pipe;        /* referenced */
   uint32_t bound;              /* indices holding a buffer or bytes */
   uint32_t tg_len[MTL_MAX_BUFFER_BINDINGS];
} apple_encoder_state;

typedef struct apple_handler {
   mtl_completed_fn fn;
   void *data;
} apple_handler;

typedef struct apple_queue apple_queue;

typedef struct apple_cmdbuf {
   struct mtl_cmdbuf base;
   struct mtl_encoder enc;      /* the compute encoder, embedded */
   struct mtl_blit blit;        /* the blit encoder, embedded */
   apple_queue *q;
   _Atomic uint32_t refs;       /* the owner + Metal while committed */
   pthread_mutex_t lock;
   pthread_cond_t cv;
   apple_op *head, **tail;
   apple_encoder_state es;
   char *error;                 /* first failure: encoding, else execution */
   bool encode_failed;          /* replay only the event signals and waits */
   mtl_cmdbuf_failure failure;  /* why it failed, once finished */
   apple_handler *handlers;
   uint32_t nhandlers;
   mtl_cmdbuf_status status;    /* ours until commit, then final once finished */
   bool finished, done;         /* final status known; handlers have run */
   id cb;                       /* the MTLCommandBuffer, from submission on (one ref each) */
   double start, end;           /* GPU times, once finished */
   mtl_batch_link link;         /* its place in a submission (../batch.c) */
   uint32_t sub_n;              /* members of its submission */
} apple_cmdbuf;

/* Records the first error of a command buffer. */
void apple_cmdbuf_fail(apple_cmdbuf *cb, const char *fmt, ...) MC_PRINTF(2, 3);
/* Appends an op with extra bytes; NULL (buffer failed) if out of memory
 * or already committed. */
apple_op *apple_cmdbuf_add(apple_cmdbuf *cb, apple_op_kind kind, size_t extra);
void apple_op_free(apple_op *op);
void apple_encoder_reset(apple_encoder_state *es);

mtl_queue *apple_queue_new(mtl_device *dev, char **err);
void apple_queue_release(mtl_queue *q);
void apple_queue_stats(mtl_queue *q, uint64_t *submissions, uint64_t *cmdbufs);
mtl_cmdbuf *apple_cmdbuf_new(mtl_queue *q, char **err);
void apple_cmdbuf_release(mtl_cmdbuf *cb);
void apple_cmdbuf_add_completed_handler(mtl_cmdbuf *cb, mtl_completed_fn fn, void *data);
void apple_cmdbuf_encode_signal_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void apple_cmdbuf_encode_wait_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void apple_cmdbuf_commit(mtl_cmdbuf *cb);
void apple_cmdbuf_wait_until_completed(mtl_cmdbuf *cb);
mtl_cmdbuf_status apple_cmdbuf_get_status(mtl_cmdbuf *cb);
const char *apple_cmdbuf_error(mtl_cmdbuf *cb);
mtl_cmdbuf_failure apple_cmdbuf_failure(mtl_cmdbuf *cb);
uint64_t apple_cmdbuf_fault_address(mtl_cmdbuf *cb);
double apple_cmdbuf_gpu_start_time(mtl_cmdbuf *cb);
double apple_cmdbuf_gpu_end_time(mtl_cmdbuf *cb);

mtl_encoder *apple_cmdbuf_compute_encoder(mtl_cmdbuf *cb);
void apple_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *p);
void apple_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index);
void apple_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index);
void apple_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index);
void apple_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf);
void apple_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads);
void apple_encoder_memory_barrier(mtl_encoder *e);
void apple_encoder_end(mtl_encoder *e);

mtl_blit *apple_cmdbuf_blit_encoder(mtl_cmdbuf *cb);
void apple_blit_copy(mtl_blit *b, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                     size_t dst_offset, size_t size);
void apple_blit_fill(mtl_blit *b, mtl_buffer *buf, size_t offset, size_t length, uint8_t value);
void apple_blit_end(mtl_blit *b);

/* ---- event.c ---- */

typedef struct apple_event {
   struct mtl_event base;
   id ev;                       /* id<MTLSharedEvent>, owned */
} apple_event;

mtl_event *apple_event_new(mtl_device *dev, char **err);
void apple_event_release(mtl_event *ev);
uint64_t apple_event_signaled_value(mtl_event *ev);
void apple_event_set_signaled_value(mtl_event *ev, uint64_t value);
bool apple_event_wait(mtl_event *ev, uint64_t value, uint64_t timeout_ms);

#endif
