/*
 * soft.h — the software Metal device: internal interfaces (table of
 * contents, one section per file).  Nothing outside src/metal/ includes it.
 */
#ifndef MC_SOFT_H
#define MC_SOFT_H

#include <pthread.h>
#include <stdatomic.h>

#include "../batch.h"
#include "../mtl_backend.h"

/* ---- launch ABI shared with the generated C++ (shim/metal_stdlib) ---- */

enum { SOFT_ABI_VERSION = 6, SOFT_MAX_BUFFERS = 31, SOFT_SIMD_WIDTH = 32 };

/* soft_kernel_info.flags */
enum {
   /* The kernel reaches a barrier or a SIMD-group function: its threads run
    * as fibers (fibercheck.c sets it in the object before linking). */
   SOFT_KERNEL_FIBERS = 1u << 0,
   /* Its barriers are resume points (src/compiler/msl/emit_resume.c): in
    * loop mode the entry runs its threads in passes, barrier to barrier,
    * so it needs fibers only for validation (msl_scan.c sets it). */
   SOFT_KERNEL_RESUMABLE = 1u << 1,
   /* ...with resume points each SIMD-group reaches as one but the block's
    * groups do not: only where every SIMD-group lies in one row of x
    * (threads per threadgroup in x a multiple of 32, or a 1-D
    * threadgroup); other shapes run as fibers (exec.c). */
   SOFT_KERNEL_RESUMABLE_WARPS = 1u << 2,
   /* Its entry has no thread function, only the loop over its threads
    * (msl_scan.c, a kernel whose MSL says MC_THREADS_INDEPENDENT): it must
    * not reach a barrier or a SIMD-group function (fibercheck.c refuses
    * the library if it does). */
   SOFT_KERNEL_LOOP_ONLY = 1u << 3,
};

/* What a thread asks the scheduler (soft_launch.sync). */
enum soft_sync_kind {
   SOFT_SYNC_SIMD,            /* a SIMD-group or quad-group function (req) */
   SOFT_SYNC_SIMD_BARRIER,    /* simdgroup_barrier */
   SOFT_SYNC_TG_BARRIER,      /* threadgroup_barrier */
   SOFT_SYNC_LANES,           /* threads in the caller's SIMD-group | its lane << 8 */
   SOFT_SYNC_NAMED_BAR,       /* | id << 8 | arrive << 12 | count << 16: PTX bar.sync/bar.arrive */
   SOFT_SYNC_WARP_MEET,       /* __mc_warp_meet: the active lanes meet (warp-synchronous code); the
                               * request pointer is the meet's rank, not a request */
   SOFT_SYNC_MEMBERS,         /* __mc_warp_members: the SIMD-group calls that follow belong to a PTX
                               * *.sync operation whose threads are these (the request pointer: the
                               * member mask | the operation's kind << 32; 0: none); returns at once */
};

/* One thread's part in a SIMD-group function (struct __mc::simd_req).
 * When every active thread of the SIMD-group has arrived, the scheduler
 * calls resolve once with each participant's request (NULL for the
 * others) and the mask of participants; resolve writes every `out`. */
typedef struct soft_simd_req {
   void (*resolve)(struct soft_simd_req *const *lanes, uint32_t mask);
   const void *in;
   void *out;
} soft_simd_req;

struct soft_launch;
/* Runs thread `index` of the threadgroup (generated per kernel). */
typedef void (*soft_thread_fn)(const struct soft_launch *L, uint32_t index);

/* What a kernel's entry wrapper receives for one threadgroup: must match
 * struct __mc::launch in the shim. */
typedef struct soft_launch {
   void *buffers[SOFT_MAX_BUFFERS];
   void *tg[SOFT_MAX_BUFFERS];
   uint32_t grid[3];
   uint32_t tpg[3];
   uint32_t group[3];
   uint32_t nthreads;
   void (*fail)(void *ctx, const char *msg);
   void *fail_ctx;
   /* Non-NULL: the entry hands its threads to this (fiber mode); NULL: it
    * runs them one after another (loop mode). */
   void (*fibers)(const struct soft_launch *L, soft_thread_fn thread);
   /* Barriers and SIMD-group functions; returns the participants' mask
    * (SIMD), the SIMD-group's size and the caller's lane (LANES), 0
    * (threadgroup barriers). */
   uint32_t (*sync)(void *ctx, uint32_t kind, const void *site, soft_simd_req *req);
   void *sync_ctx;
   /* Memory of at least `bytes` for this OS thread, kept until the next
    * call (a resumable kernel's per-thread slots); NULL if out of memory. */
   void *(*scratch)(void *ctx, size_t bytes);
   void *scratch_ctx;
   /* Bytes readable from buffers[i]: the setBytes length, or the buffer's
    * length past the offset.  Loop mode copies small `constant` buffers
    * into the entry's frame (msl_scan.c). */
   uint64_t lengths[SOFT_MAX_BUFFERS];
   /* A co-resident dispatch: device-scope fences call this (sched_yield),
    * so threadgroups spinning at a grid barrier let the others run. */
   void (*yield)(void);
   /* Threadgroups the entry runs in this call, from group on, x fastest;
    * it advances group as it goes, so a fault's group is the one running. */
   uint32_t ngroups;
} soft_launch;

/* Per-kernel facts the generated code exports (__mc_info_NAME). */
typedef struct soft_kernel_info {
   uint32_t abi;
   uint32_t max_threads;
   uint32_t static_tg_bytes;
   uint32_t buffer_mask;
   uint32_t tg_mask;
   uint32_t flags;            /* SOFT_KERNEL_* */
} soft_kernel_info;

typedef void (*soft_entry_fn)(soft_launch *L);

/* ---- msl_scan.c: kernel signatures, threadgroup variables, wrappers ---- */

typedef struct soft_scan {
   char *source;        /* the MSL, rewritten with lines kept in place */
   char *entries;       /* generated C++: one extern "C" entry per kernel */
   uint32_t nkernels;
   /* source's prelude (soft_find_prelude) when msl_scan.c kept it scanned:
    * its length and SHA-256, owned by the scanner; NULL: not kept */
   const uint8_t *prelude_digest;
   size_t prelude_len;
} soft_scan;

/* false: *err has "program_source:L:C: error: ..." (or out of memory). */
bool soft_scan_msl(const char *src, soft_scan *out, char **err);
/* The compiler's prelude in src: from its `#include <metal_stdlib>` line
 * (after leading comments) to the end of the PRELUDE_END line that
 * msl_emit_header writes; false if src has none. */
#define PRELUDE_END "// metalcuda: end of the prelude\n"
bool soft_find_prelude(const char *src, const char **start, const char **end);
void soft_scan_free(soft_scan *s);
/* Where the scan of a prelude text is kept in the cache (msl_scan.c);
 * false if the name does not fit. */
bool soft_scan_memo_path(const char *text, size_t len, char *path, size_t cap);
/* Tests: forgets the preludes this process scanned, so that the next scan
 * of one reads its file; no soft_scan of them may be in use. */
void soft_scan_forget_preludes(void);

/* ---- prepared.c: files made when metalcuda was built or installed ---- */

/* "<prepared directory>/soft", NULL if there is none or it failed once. */
const char *soft_prepared_base(void);
/* *path: the prepared directory's file of that name; false if there is
 * none (or no directory). */
bool soft_prepared_path(const char *name, char *path, size_t cap);
/* One of its files failed (why): this process stops using the directory. */
void soft_prepared_distrust(const char *why);

/* ---- shim.c: the embedded metal_stdlib ---- */

/* The shim text (from shim.S), its hash (first 16 hex digits) and its
 * SHA-256 (32 bytes). */
const char *soft_shim_text(size_t *len);
const char *soft_shim_hash(void);
const uint8_t *soft_shim_digest(void);
/* Writes the shim once per process under <base>/shim-<hash>/; returns the
 * include directory (static storage), NULL on failure. */
const char *soft_shim_dir(const char *base, char **err);

/* ---- compile.c: host compiler, on-disk cache, dlopen ---- */

/* <cache_dir()>/soft, created; static storage. */
const char *soft_cache_base(void);
/* Compiles (or finds in the cache) and dlopen()s; NULL + *err on failure. */
void *soft_compile(const char *msl, const mtl_compile_options *opts, char **err);
/* Tests: compiles msl to a checked object at out_path (fibers marked, the
 * object-level Metal rules applied), for another system with a clang
 * target triple (NULL: this one), without linking or caching. */
bool soft_compile_object(const char *msl, const mtl_compile_options *opts, const char *target,
                         const char *out_path, char **err);
/* How many times this process ran the compiler (tests: cache hits). */
uint64_t soft_compile_count(void);

/* ---- objfile.c: the compiled object, ELF or Mach-O, format-neutral ---- */

enum { SOFT_OBJ_NONE = UINT32_MAX, SOFT_OBJ_COMMON = UINT32_MAX - 1 };

typedef struct soft_obj_sec {
   char name[40];               /* ".data", "__DATA,__data" */
   uint64_t addr, size;         /* addr: Mach-O's section address (ELF: 0) */
   uint64_t file_off;
   bool has_data;               /* bytes in the file (not bss/zerofill) */
   bool code, writable, debug;
} soft_obj_sec;

typedef struct soft_obj_sym {
   const char *name;            /* as compiled: Mach-O's leading '_' dropped */
   uint32_t sec;                /* section index, SOFT_OBJ_NONE (undefined), SOFT_OBJ_COMMON */
   uint64_t off;                /* offset in its section */
   uint64_t size;               /* ELF st_size; Mach-O: to the next symbol of its section */
   bool func, data;             /* a function; a variable (never an assembler-local label) */
   uint32_t node;               /* its node, or SOFT_OBJ_NONE */
} soft_obj_sym;

/* A part of a section the linker keeps or drops whole: an ELF section
 * (-ffunction-sections -fdata-sections), a Mach-O atom (symbol to symbol). */
typedef struct soft_obj_node {
   uint32_t sec;
   uint64_t start, end;
} soft_obj_node;

enum soft_obj_arch { SOFT_OBJ_OTHER, SOFT_OBJ_X86_64, SOFT_OBJ_ARM64 };

typedef struct soft_obj {
   uint8_t *img;                /* the caller's file image */
   size_t len;
   bool macho;
   uint32_t cpu;                /* Mach-O cputype */
   enum soft_obj_arch arch;
   soft_obj_sec *sec;
   uint32_t nsec;
   soft_obj_sym *sym;
   uint32_t nsym;
   soft_obj_node *node;         /* by section, then start */
   uint32_t nnode;
   uint32_t *sec_first;         /* [nsec + 1]: each section's first node */
   uint32_t *edge_from, *edge_to;   /* a relocation in node from refers to node to */
   size_t nedge, edge_cap;
} soft_obj;

/* Reads an ELF or Mach-O object (64-bit, little-endian) from img, which
 * must outlive o; false + *err if it is neither or malformed. */
bool soft_obj_read(soft_obj *o, uint8_t *img, size_t len, char **err);
void soft_obj_free(soft_obj *o);
/* The first len bytes of a defined symbol's data in the image (writable:
 * the object is patched in place), NULL if it has no such bytes. */
uint8_t *soft_obj_bytes(soft_obj *o, const soft_obj_sym *y, uint64_t len);
/* The code of a node calls the node's start (direct recursion, which may
 * leave no relocation). */
bool soft_obj_self_call(const soft_obj *o, uint32_t node);

/* ---- objcheck.c: Metal rules checked on the compiled object ---- */

/* false + *err if the object defines writable program-scope data. */
bool soft_check_object(const char *obj_path, char **err);

/* ---- fibercheck.c: which kernels need fibers ---- */

/* Sets SOFT_KERNEL_FIBERS in __mc_info_NAME of every kernel whose entry
 * reaches __mc_fiber_sync (a barrier or SIMD-group function), rewriting
 * the object; fails a library with recursion.  ELF (compiled with
 * -ffunction-sections -fdata-sections) or Mach-O. */
bool soft_mark_fiber_kernels(const char *obj_path, char **err);

/* ---- fiber.c: the threads of a threadgroup as fibers ---- */

typedef struct soft_sched soft_sched;

soft_sched *soft_sched_new(void);
void soft_sched_free(soft_sched *s);
/* munmap of a stack (a fiber's, a worker's signal stack), its sanitizer
 * state cleared first (fiber.c). */
void soft_unmap_stack(void *p, size_t len);
/* Runs every thread of L's threadgroup as a fiber until all return;
 * returns NULL, or what went wrong (a barrier not reached by every thread,
 * out of memory), in storage owned by s. */
const char *soft_sched_run(soft_sched *s, const soft_launch *L, soft_thread_fn fn);
/* soft_launch.sync in fiber mode (ctx = the soft_sched). */
uint32_t soft_sched_sync(void *ctx, uint32_t kind, const void *site, soft_simd_req *req);
/* The index in its threadgroup of the thread running now (fiber mode). */
uint32_t soft_sched_current(const soft_sched *s);
/* Whether addr lies in the guard page below one of s's fiber stacks. */
bool soft_sched_is_guard(const soft_sched *s, const void *addr);
/* Per fiber (bytes of stack, guard page excluded).  Reserved, committed
 * only where touched (MAP_NORESERVE): large enough for a recursive
 * kernel's frame stack in thread memory (msl/emit_rec.c: 8x
 * cudaLimitStackSize, 1 MB for a 128 KB limit), which a validating run
 * or a kernel with barriers runs on a fiber. */
enum { SOFT_FIBER_STACK = 4 * 1024 * 1024 };
/* The stack of every thread the software device starts (workers, a
 * co-resident dispatch's threads, a queue's thread): a kernel running on
 * an OS thread has as much as on a fiber on every system (macOS starts
 * threads with 512 KB). */
enum { SOFT_THREAD_STACK = 8 * 1024 * 1024 };
/* pthread_create with a SOFT_THREAD_STACK stack (device.c). */
int soft_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

/* The context switch (fiber_<arch>.S): saves the callee-saved registers
 * on the current stack, stores its pointer in *save_sp, continues on
 * load_sp. */
void soft_fiber_switch(void **save_sp, void *load_sp);
/* A new fiber's saved stack pointer: its first switch-in calls fn(arg),
 * which must never return.  stack_top is 16-byte aligned.  x86-64 and
 * arm64 only (elsewhere fiber.c uses ucontext and this returns NULL). */
void *soft_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg);

/* ---- buffer.c ---- */

typedef struct soft_buffer {
   struct mtl_buffer base;
   uint8_t *cpu;              /* contents(): the CPU view */
   uint8_t *gpu;              /* gpuAddress: a second mapping of the same pages */
   size_t length;
   size_t map_length;
   bool borrowed;             /* cpu is the caller's range (mtl_buffer_new_at) */
   bool gpu_borrowed;         /* so is gpu (its gpu_hint) */
   _Atomic uint32_t refs;     /* the owner + commands that use it */
   struct soft_buffer *prev, *next;   /* the live-buffer registry */
} soft_buffer;

mtl_buffer *soft_buffer_new(mtl_device *dev, size_t length, char **err);
mtl_buffer *soft_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err);
void *soft_buffer_contents(mtl_buffer *buf);
uint64_t soft_buffer_gpu_address(mtl_buffer *buf);
size_t soft_buffer_length(mtl_buffer *buf);
bool soft_buffer_set_gpu_access(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible);
void soft_buffer_release(mtl_buffer *buf);
/* The live buffer whose GPU view contains [addr, addr+len), or NULL. */
soft_buffer *soft_buffer_find_gpu(uint64_t addr, size_t len);
/* Commands keep the buffers they use alive (Metal retains them too). */
void soft_buffer_retain(soft_buffer *b);
void soft_buffer_unref(soft_buffer *b);
uint32_t soft_buffer_live_count(void);

/* ---- library.c: libraries, functions, pipelines ---- */

typedef struct soft_library {
   struct mtl_library base;
   void *handle;
   _Atomic uint32_t refs;       /* the owner + its functions and pipelines */
} soft_library;

typedef struct soft_function {
   struct mtl_function base;
   soft_library *lib;
   char *name;
   soft_entry_fn entry;
   const soft_kernel_info *info;
} soft_function;

typedef struct soft_pipeline {
   struct mtl_pipeline base;
   _Atomic uint32_t refs;       /* the owner + encoded dispatches */
   char *name;
   soft_library *lib;           /* keeps the code loaded */
   soft_entry_fn entry;
   soft_kernel_info info;
   _Atomic uint64_t ps_per_thread;   /* its last dispatch's cost per thread, on one OS thread (exec.c); 0: unknown */
} soft_pipeline;

mtl_library *soft_library_new(mtl_device *dev, const char *source,
                              const mtl_compile_options *opts, char **err);
void soft_library_release(mtl_library *lib);
mtl_function *soft_function_new(mtl_library *lib, const char *name, char **err);
void soft_function_release(mtl_function *fn);
mtl_pipeline *soft_pipeline_new(mtl_device *dev, mtl_function *fn, char **err);
void soft_pipeline_release(mtl_pipeline *p);
uint32_t soft_pipeline_max_total_threads(mtl_pipeline *p);
uint32_t soft_pipeline_thread_execution_width(mtl_pipeline *p);
uint32_t soft_pipeline_static_threadgroup_memory(mtl_pipeline *p);
void soft_pipeline_retain(soft_pipeline *p);
void soft_pipeline_unref(soft_pipeline *p);

/* ---- exec.c: worker pool, dispatch, fault recovery ---- */

typedef struct soft_pool soft_pool;

typedef struct soft_dispatch {
   soft_pipeline *pipe;
   soft_launch launch;          /* buffers, tg lengths in tg[] as sizes */
   uint32_t tg_len[SOFT_MAX_BUFFERS];
   uint8_t *bytes;              /* setBytes copies, one allocation */
   bool coresident;             /* every threadgroup on its own OS thread, all at once */
} soft_dispatch;

/* The pool is shared by the device's queues: started by the first queue,
 * joined when the last one is released (so nothing outlives the work). */
bool soft_pool_acquire(char **err);
void soft_pool_release(void);
/* Runs every threadgroup of d on the pool (the caller helps); false and a
 * malloc'ed *err if the kernel faulted or hit an unsupported barrier. */
/* *fault_addr: the address of a fault that failed it (0 for other errors). */
bool soft_run_dispatch(const soft_dispatch *d, char **err, uint64_t *fault_addr);
/* METALCUDA_VALIDATE is set: every kernel runs as fibers (a fault names its
 * thread) and buffers may have inaccessible ranges (mtl_buffer_set_gpu_access). */
bool soft_validating(void);
/* METALCUDA_SOFT_SCATTER is set: GPU views go where the kernel maps them,
 * gpu_hint ignored (each arena chunk its own delta: the slot table is
 * used); otherwise kernels are compiled with __MC_SOFT_ONE_DELTA (one
 * delta for every device address, prelude/base.metal MC_GADDR). */
bool soft_scatter(void);
/* Kernels in lane form (src/compiler/msl/emit_lanes.c) run a SIMD-group
 * per invocation: compiled with __MC_SOFT_LANES=32, unless
 * METALCUDA_SOFT_LANES=0 or validating (then a thread per invocation,
 * the form an Apple GPU runs, so that a fault names its thread). */
bool soft_lanes(void);
/* Per-thread setup for threads that run kernels (alternate signal stack). */
void *soft_thread_enter(void);
void soft_thread_leave(void *token);

/* ---- queue.c: queues and command buffers; encoder.c: encoding ---- */

typedef struct soft_event soft_event;

typedef enum soft_cmd_kind { CMD_DISPATCH, CMD_COPY, CMD_FILL, CMD_SIGNAL, CMD_WAIT } soft_cmd_kind;

typedef struct soft_cmd {
   soft_cmd_kind kind;
   size_t block_bytes;            /* its allocation (queue.c's block cache) */
   struct soft_cmd *next;
   soft_buffer *src, *dst;        /* copy: src -> dst; fill: dst */
   size_t src_off, dst_off, size;
   uint8_t value;
   soft_event *ev;
   uint64_t ev_value;
   soft_buffer *retained[SOFT_MAX_BUFFERS];   /* dispatch: bound buffers */
   soft_dispatch d;
} soft_cmd;

typedef struct soft_queue soft_queue;

/* Encoder state: what set_* calls bound so far (Metal keeps bindings
 * across dispatches of one encoder). */
typedef struct soft_encoder_state {
   bool active;
   soft_pipeline *pipe;
   soft_buffer *buf[SOFT_MAX_BUFFERS];
   size_t buf_off[SOFT_MAX_BUFFERS];
   uint8_t *bytes[SOFT_MAX_BUFFERS];
   size_t bytes_len[SOFT_MAX_BUFFERS];
   uint32_t tg_len[SOFT_MAX_BUFFERS];
} soft_encoder_state;

typedef struct soft_handler {
   mtl_completed_fn fn;
   void *data;
} soft_handler;

typedef struct soft_cmdbuf {
   struct mtl_cmdbuf base;
   struct mtl_encoder enc;        /* the compute encoder, embedded */
   struct mtl_blit blit;          /* the blit encoder, embedded */
   soft_queue *q;
   _Atomic uint32_t refs;         /* the owner + the queue while committed */
   pthread_mutex_t lock;
   pthread_cond_t cv;
   mtl_cmdbuf_status status;
   bool done;                     /* completed and handlers ran */
   soft_cmd *head, **tail;
   char *error;                   /* encoding or execution failure */
   mtl_cmdbuf_failure failure;    /* its kind, once run */
   uint64_t fault_addr;           /* the address of a kernel fault (0: none) */
   soft_handler *handlers;
   uint32_t nhandlers;
   uint64_t start_ns, end_ns;
   soft_encoder_state es;
   bool blit_active;
   mtl_batch_link link;           /* its place in a submission (batch.c) */
   uint32_t sub_n;                /* first member of a submission: its members */
   struct soft_cmdbuf *sub_next;  /* first member: the next submission queued */
} soft_cmdbuf;

/* Records the first error of a command buffer (encoding or execution). */
void soft_cmdbuf_fail(soft_cmdbuf *cb, const char *fmt, ...) MC_PRINTF(2, 3);
/* Appends a command; false (and the buffer failed) when out of memory. */
soft_cmd *soft_cmdbuf_add(soft_cmdbuf *cb, soft_cmd_kind kind);
/* The same with `extra` bytes after the command, 64-byte aligned, at c->d.bytes. */
soft_cmd *soft_cmdbuf_add_extra(soft_cmdbuf *cb, soft_cmd_kind kind, size_t extra);
void soft_cmd_free(soft_cmd *c);
void soft_encoder_reset(soft_encoder_state *es);

mtl_queue *soft_queue_new(mtl_device *dev, char **err);
void soft_queue_release(mtl_queue *q);
void soft_queue_stats(mtl_queue *q, uint64_t *submissions, uint64_t *cmdbufs);
mtl_cmdbuf *soft_cmdbuf_new(mtl_queue *q, char **err);
void soft_cmdbuf_release(mtl_cmdbuf *cb);
void soft_cmdbuf_add_completed_handler(mtl_cmdbuf *cb, mtl_completed_fn fn, void *data);
void soft_cmdbuf_encode_signal_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void soft_cmdbuf_encode_wait_event(mtl_cmdbuf *cb, mtl_event *ev, uint64_t value);
void soft_cmdbuf_commit(mtl_cmdbuf *cb);
void soft_cmdbuf_wait_until_completed(mtl_cmdbuf *cb);
mtl_cmdbuf_status soft_cmdbuf_get_status(mtl_cmdbuf *cb);
const char *soft_cmdbuf_error(mtl_cmdbuf *cb);
mtl_cmdbuf_failure soft_cmdbuf_failure(mtl_cmdbuf *cb);
uint64_t soft_cmdbuf_fault_address(mtl_cmdbuf *cb);
double soft_cmdbuf_gpu_start_time(mtl_cmdbuf *cb);
double soft_cmdbuf_gpu_end_time(mtl_cmdbuf *cb);

mtl_encoder *soft_cmdbuf_compute_encoder(mtl_cmdbuf *cb);
void soft_encoder_set_pipeline(mtl_encoder *e, mtl_pipeline *p);
void soft_encoder_set_bytes(mtl_encoder *e, const void *bytes, size_t length, uint32_t index);
void soft_encoder_set_buffer(mtl_encoder *e, mtl_buffer *buf, size_t offset, uint32_t index);
void soft_encoder_set_threadgroup_memory_length(mtl_encoder *e, size_t length, uint32_t index);
void soft_encoder_use_resource(mtl_encoder *e, mtl_buffer *buf);
void soft_encoder_dispatch_threadgroups(mtl_encoder *e, mtl_size groups, mtl_size threads);
void soft_encoder_dispatch_coresident(mtl_encoder *e, mtl_size groups, mtl_size threads);
void soft_encoder_memory_barrier(mtl_encoder *e);
void soft_encoder_end(mtl_encoder *e);

mtl_blit *soft_cmdbuf_blit_encoder(mtl_cmdbuf *cb);
void soft_blit_copy(mtl_blit *b, mtl_buffer *src, size_t src_offset, mtl_buffer *dst,
                    size_t dst_offset, size_t size);
void soft_blit_fill(mtl_blit *b, mtl_buffer *buf, size_t offset, size_t length, uint8_t value);
void soft_blit_end(mtl_blit *b);

/* ---- event.c ---- */

struct soft_event {
   struct mtl_event base;
   pthread_mutex_t lock;
   pthread_cond_t cv;           /* CLOCK_MONOTONIC */
   uint64_t value;
   _Atomic uint32_t refs;       /* the owner + commands that use it */
};

void soft_event_retain(soft_event *ev);
void soft_event_unref(soft_event *ev);
void soft_event_signal(soft_event *ev, uint64_t value);
/* Blocks until the value is reached (no time limit). */
void soft_event_block(soft_event *ev, uint64_t value);

mtl_event *soft_event_new(mtl_device *dev, char **err);
void soft_event_release(mtl_event *ev);
uint64_t soft_event_signaled_value(mtl_event *ev);
void soft_event_set_signaled_value(mtl_event *ev, uint64_t value);
bool soft_event_wait(mtl_event *ev, uint64_t value, uint64_t timeout_ms);

/* ---- affinity.c: the CPUs a dispatch runs on ---- */

#if defined(__linux__)
#include <sched.h>
#endif

/* A thread's own affinity, kept while a dispatch binds it. */
typedef struct soft_affinity {
#if defined(__linux__)
   cpu_set_t set;
#endif
   bool valid;
} soft_affinity;

/* Plans one CPU for dispatching queue threads and one for each of the
 * threads - 1 workers, where the process may use that many. */
void soft_affinity_init(uint32_t threads);
/* Binds the calling worker (the k-th) to its CPU. */
void soft_affinity_worker(uint32_t k);
/* Binds the calling queue thread to the dispatchers' CPU, keeping its own
 * affinity in *saved; false where nothing was bound. */
bool soft_affinity_enter(soft_affinity *saved);
void soft_affinity_leave(const soft_affinity *saved);

/* ---- device.c ---- */

extern const mtl_backend soft_backend;
/* Worker threads to use: METALCUDA_THREADS, else the online CPUs. */
uint32_t soft_thread_count(void);

#endif
