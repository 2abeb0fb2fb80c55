/*
 * core.h — the runtime, backend-neutral: devices, contexts, device memory
 * arena, modules, kernels, launches, streams, sticky errors.  The table of
 * contents of src/core.
 *
 * Called by the driver API layer (src/api/driver) only; calls the compiler
 * (src/compiler/compiler.h), the fatbin reader and the Metal interface
 * (src/metal/mtl.h).  Every function returns a CUresult value (the driver
 * API's error codes, declared here as plain ints so core does not depend on
 * the API headers) and reports details through the log.
 *
 * Handles given to programs are pointers to these structs; each starts with
 * a magic cookie checked on entry (core_check_*), and the cookie is wiped
 * on destruction, so a stale or foreign handle is CUDA_ERROR_INVALID_HANDLE
 * rather than undefined behaviour.
 */
#ifndef MC_CORE_H
#define MC_CORE_H

#include "../compiler/compiler.h"
#include "../metal/mtl.h"
#include "../util/util.h"

#include <pthread.h>

/* CUresult values core returns (the driver API's numbering). */
enum {
   CORE_SUCCESS = 0,
   CORE_ERROR_INVALID_VALUE = 1,
   CORE_ERROR_OUT_OF_MEMORY = 2,
   CORE_ERROR_NOT_INITIALIZED = 3,
   CORE_ERROR_DEINITIALIZED = 4,
   CORE_ERROR_NO_DEVICE = 100,
   CORE_ERROR_INVALID_DEVICE = 101,
   CORE_ERROR_INVALID_IMAGE = 200,
   CORE_ERROR_INVALID_CONTEXT = 201,
   CORE_ERROR_NO_BINARY_FOR_GPU = 209,
   CORE_ERROR_INVALID_PTX = 218,
   CORE_ERROR_INVALID_SOURCE = 300,
   CORE_ERROR_FILE_NOT_FOUND = 301,
   CORE_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
   CORE_ERROR_OPERATING_SYSTEM = 304,
   CORE_ERROR_INVALID_HANDLE = 400,
   CORE_ERROR_UNSUPPORTED_LIMIT = 215,
   CORE_ERROR_NOT_FOUND = 500,
   CORE_ERROR_NOT_READY = 600,
   CORE_ERROR_ILLEGAL_ADDRESS = 700,
   CORE_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
   CORE_ERROR_LAUNCH_TIMEOUT = 702,
   CORE_ERROR_ASSERT = 710,
   CORE_ERROR_ILLEGAL_INSTRUCTION = 715,
   CORE_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
   CORE_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
   CORE_ERROR_MISALIGNED_ADDRESS = 716,
   CORE_ERROR_LAUNCH_FAILED = 719,
   CORE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
   CORE_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
   CORE_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
   CORE_ERROR_NOT_PERMITTED = 800,
   CORE_ERROR_NOT_SUPPORTED = 801,
   CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
   CORE_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
   CORE_ERROR_STREAM_CAPTURE_MERGE = 902,
   CORE_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
   CORE_ERROR_STREAM_CAPTURE_UNJOINED = 904,
   CORE_ERROR_STREAM_CAPTURE_ISOLATION = 905,
   CORE_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
   CORE_ERROR_CAPTURED_EVENT = 907,
   CORE_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
   CORE_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910,
   CORE_ERROR_ILLEGAL_STATE = 401,
   CORE_ERROR_UNKNOWN = 999,
};

enum {
   CORE_MAGIC_CTX = 0x6d637478,      /* "mctx" */
   CORE_MAGIC_MODULE = 0x6d6d6f64,   /* "mmod" */
   CORE_MAGIC_KERNEL = 0x6d6b726e,   /* "mkrn" */
   CORE_MAGIC_STREAM = 0x6d737472,   /* "mstr" */
   CORE_MAGIC_MEMPOOL = 0x6d706f6c,  /* "mpol" */
   CORE_MAGIC_EVENT = 0x6d657674,    /* "mevt" */
   CORE_MAGIC_CTX_RESET = 0x6d637472, /* "mctr": a primary context after a reset (context.c) */
   CORE_MAGIC_CTX_DEAD = 0x6d637464,  /* "mctd": a context cuCtxDestroy destroyed (context.c) */
   CORE_MAGIC_LINK = 0x6d6c6e6b,      /* "mlnk": a JIT link state (link.c) */
   CORE_MAGIC_GRAPH = 0x6d677270,    /* "mgrp" */
   CORE_MAGIC_NODE = 0x6d6e6f64,     /* "mnod" */
   CORE_MAGIC_EXEC = 0x6d657865,     /* "mexe" */
   CORE_MAGIC_ARRAY = 0x6d617272,    /* "marr" */
   CORE_MAGIC_MIPMAP = 0x6d6d6970,   /* "mmip" */
   CORE_MAGIC_USER_OBJECT = 0x6d75736f,   /* "muso" */
   CORE_MAGIC_DEAD = 0x64656164,     /* "dead" */
};

typedef struct core_device core_device;
typedef struct core_ctx core_ctx;
typedef struct core_module core_module;
typedef struct core_kernel core_kernel;
typedef struct core_stream core_stream;
typedef struct core_event core_event;
typedef struct core_arena core_arena;
typedef struct core_graph core_graph;
typedef struct core_graph_node core_graph_node;
typedef struct core_graph_exec core_graph_exec;
typedef struct core_capture core_capture;

/* ---- init.c, device.c ---- */

int core_init(void);                       /* idempotent; CUDA_ERROR_NO_DEVICE if none */
bool core_is_initialized(void);
int core_device_count(void);
core_device *core_device_get(int ordinal);  /* NULL if out of range */
int core_device_ordinal(const core_device *d);
const mtl_device_info *core_device_info(const core_device *d);
/* Compute capability we report: the highest whose PTX we fully support,
 * overridable by METALCUDA_CC (e.g. "8.6"). */
void core_device_cc(const core_device *d, int *major, int *minor);
uint64_t core_device_total_mem(core_device *d);
void core_device_uuid(const core_device *d, uint8_t uuid[16]);
/* The device's memory arena (created on first use). */
core_arena *core_device_arena(core_device *d);
/* For context.c and arena.c. */
mtl_device *core_device_mtl(core_device *d);
core_ctx **core_device_primary_slot(core_device *d);
pthread_mutex_t *core_device_lock(core_device *d);
/* Where the device says it sits on PCI (cudaDeviceGetPCIBusId): Metal
 * devices have no PCI function CUDA programs could use, so each gets a
 * stable invented location, domain 0, bus 0, device ordinal + 1, function
 * 0 ("0000:00:01.0" for the first), the same in the device properties. */
void core_device_pci(const core_device *d, int *domain, int *bus, int *device);
/* The flags of the device's primary context (CU_CTX_*): kept by the device
 * so that they can be set before the context exists, as
 * cuDevicePrimaryCtxSetFlags allows; applied to the active context too. */
unsigned core_device_primary_flags(core_device *d);
void core_device_set_primary_flags(core_device *d, unsigned flags);

/* The multiprocessor model behind the device properties and the occupancy
 * calculator (function.c), defined once in device.c.  A Metal device
 * has one threadgroup-memory limit (no opt-in beyond the default) and no
 * register file the program can see, so registers are modelled as a
 * budget that never limits more than threads do. */
typedef struct core_sm_model {
   uint32_t sm_count;            /* multiprocessors: Metal compute units */
   uint32_t warp;                /* threads per warp (SIMD group) */
   uint32_t threads_per_block;   /* the device's limit */
   uint32_t block_dim[3];        /* per block dimension */
   uint32_t threads_per_sm;
   uint32_t blocks_per_sm;
   uint32_t regs_per_sm, regs_per_block;
   uint32_t regs_per_thread;     /* what every kernel reports (numRegs) */
   uint32_t shared_per_block;    /* bytes, static + dynamic */
   uint32_t shared_per_block_optin;
   uint32_t shared_per_sm;
   uint32_t shared_default_max;  /* static + dynamic without an opt-in (CUDA: 48 KB) */
   uint32_t shared_reserved;     /* per block, for the system (CUDA 8.0 and later: 1 KB) */
} core_sm_model;
void core_device_sm_model(const core_device *d, core_sm_model *m);

/* ---- arena.c: device memory ---- */

/* The device's memory: Metal buffers (chunks, shared storage) at fixed
 * places of one reserved CPU range, made as allocations need them and
 * sub-allocated.  CUDA addresses are their CPU addresses; kernels add the
 * delta of the address's chunk (the slot table, arena.c). */
int core_arena_create(core_device *d, core_arena **out);
void core_arena_destroy(core_arena *a);
/* What an allocation is for (pointer queries; which free call may free
 * it).  All are arena memory, reachable by kernels at the same address. */
enum {
   CORE_MEM_DEVICE = 0,         /* cuMemAlloc, and runtime-internal memory */
   CORE_MEM_HOST = 1,           /* page-locked host memory (cuMemHostAlloc) */
   CORE_MEM_MANAGED = 2,        /* cuMemAllocManaged */
};
/* Allocation flags the arena keeps for its users (beside the API's). */
#define CORE_MEM_FLAG_POOL 0x80000000u   /* made by core_mempool_alloc */
/* metalcuda's own device memory (module globals, the status word, the
 * printf FIFO, parameter blocks): device memory to pointer queries (a
 * symbol's address is in it), but no free call of the program's frees it */
#define CORE_MEM_FLAG_INTERNAL 0x40000000u
/* reserved by a graph's allocation node (graphmem.c) */
#define CORE_MEM_FLAG_GRAPH 0x20000000u
#define CORE_MEM_KIND_ANY 0xffffffffu
#define CORE_MEM_KIND_BIT(k) (1u << (k))
int core_mem_alloc(core_device *d, size_t size, uint64_t *out);     /* CORE_MEM_DEVICE */
int core_mem_alloc_kind(core_device *d, size_t size, uint32_t kind, uint32_t flags, uint64_t *out);
int core_mem_free(core_device *d, uint64_t ptr);
int core_mem_alloc_internal(core_device *d, size_t size, uint64_t *out);   /* CORE_MEM_FLAG_INTERNAL */
int core_mem_free_internal(core_device *d, uint64_t ptr);
/* Frees ptr if it starts an allocation of one of `kinds` (CORE_MEM_KIND_BIT
 * set) that is not internal (core_mem_free_internal frees those), else
 * CORE_ERROR_INVALID_VALUE. */
int core_mem_free_kind(core_device *d, uint64_t ptr, uint32_t kinds);
void core_mem_free_owned(core_device *d, uint64_t owner);   /* a created context's allocations */
/* The id of the created context that owns the allocation holding ptr; 0:
 * none (the primary context's, pools', graphs', or not an allocation). */
uint64_t core_mem_owner(core_device *d, uint64_t ptr);
/* The allocation containing [ptr, ptr+len): true and its base/size. */
bool core_mem_lookup(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size);
/* The same, with its kind (CORE_MEM_*) and flags; any out may be NULL. */
bool core_mem_query(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size, uint32_t *kind,
                    uint32_t *flags);
void core_mem_info(core_device *d, uint64_t *free_bytes, uint64_t *total);

/* umhints.c: the managed-memory hints (cuMemAdvise, cuMemPrefetchAsync)
 * as given, for cuMemRangeGetAttribute.  A location is the API's
 * CUmemLocation (type 0: none; CORE_UM_LOC_MIXED: the pieces of a queried
 * range disagree). */
typedef struct core_um_loc {
   int type, id;
} core_um_loc;
#define CORE_UM_LOC_MIXED (-1)
enum {
   CORE_UM_SET_READ_MOSTLY = 1,     /* the CUmem_advise values */
   CORE_UM_UNSET_READ_MOSTLY = 2,
   CORE_UM_SET_PREFERRED = 3,
   CORE_UM_UNSET_PREFERRED = 4,
   CORE_UM_SET_ACCESSED_BY = 5,
   CORE_UM_UNSET_ACCESSED_BY = 6,
   CORE_UM_PREFETCH = 100,
};
#define CORE_UM_MAX_ACCESS 32
typedef struct core_um_state {
   bool read_mostly;
   core_um_loc preferred, prefetched;
   core_um_loc access[CORE_UM_MAX_ACCESS];   /* accessed-by on the whole range */
   unsigned n_access;
} core_um_state;
int core_um_record(core_device *d, uint64_t base, uint64_t size, int what, core_um_loc loc);
/* Drops the hints on [base, base+size) (memory allocated anew). */
void core_um_forget(core_device *d, uint64_t base, uint64_t size);
/* The hints in force on all of [base, base+size), size > 0. */
void core_um_query(core_device *d, uint64_t base, uint64_t size, core_um_state *out);
/* Where p lies relative to the allocations (fault reports under METALCUDA_VALIDATE). */
void core_mem_describe(core_device *d, uint64_t p, char *buf, size_t len);
uint64_t core_arena_base(core_device *d);      /* CUDA address of the arena's first byte */
/* The GPU address of CUDA address p (its chunk's delta added; outside
 * every chunk, the delta kernels use there), and back (fault reports). */
uint64_t core_arena_gpu(core_device *d, uint64_t p);
uint64_t core_arena_cuda(core_device *d, uint64_t gpu);
/* What kernels add to an address outside device memory: registered host
 * memory at CPU address p is CUDA address p - this (reaches_host_memory). */
uint64_t core_arena_host_delta(core_device *d);
/* The chunk buffer holding CUDA address p and p's offset in it; NULL
 * outside every chunk.  An allocation lies in one chunk. */
mtl_buffer *core_arena_chunk(core_device *d, uint64_t p, size_t *off);
/* The number of chunks, and the first max ones' deltas (tests). */
uint32_t core_arena_chunks(core_device *d, uint64_t *deltas, uint32_t max);
/* Declares every chunk to a dispatch (useResource:). */
void core_arena_use(core_device *d, mtl_encoder *e);
/* The launch block's slot table fields (slots, slot_shift, nslots, amem). */
void core_arena_launch(core_device *d, mc_launch *lb);
/* Bytes currently allocated (leak checks in tests). */
uint64_t core_mem_in_use(core_device *d);

/* ---- context.c ---- */

/* Context-local storage (NVIDIA's runtime keeps its per-context state in
 * it, through an export table): a value per key, and a destructor called
 * as dtor(context, key, value) when the context is reset. */
typedef void (*core_cls_dtor)(void *ctx, void *key, void *value);
typedef struct core_cls_entry {
   void *key, *value;
   core_cls_dtor dtor;
} core_cls_entry;

struct core_ctx {
   uint32_t magic;
   core_device *dev;
   pthread_mutex_t lock;
   pthread_mutex_t devrt_lock;  /* one launch with device-side launches at a time (devrt.c) */
   uint32_t devrt_pending;      /* cudaLimitDevRuntimePendingLaunchCount: records of a launch queue */
   int refcount;                /* primary context: retain count */
   bool is_primary;
   int holders;                 /* threads that have it current (context.c) */
   unsigned flags;
   int sticky_error;            /* a kernel fault poisons the context (atomic access only) */
   char sticky_msg[512];
   core_stream *null_stream;    /* the legacy default stream */
   pthread_mutex_t streams_lock;
   core_stream *streams;        /* every other stream, destroyed ones until their work is done (stream.c) */
   core_event *events;          /* live events (event.c; streams_lock) */
   uint64_t id;                 /* unique in the process: per-thread streams name their context by it */
   core_module *modules;        /* loaded modules (list) */
   uint64_t status_word;        /* CUDA address of the trap flag kernels set; +16: the grid
                                 * workspace of ordinary launches (launch.c) */
   uint64_t atom_locks;         /* CUDA address of the 64-bit atomics' lock table */
   uint64_t launches;           /* kernels launched: %gridid */
   /* Device printf and assert (printf.c); printf_lock guards these. */
   pthread_mutex_t printf_lock;
   pthread_cond_t printf_cv;
   uint64_t printf_fifo;        /* CUDA address of the FIFO, 0 until a kernel prints */
   size_t printf_fifo_size;     /* bytes of records (cudaLimitPrintfFifoSize) */
   uint32_t printf_inflight;    /* launches that write records, not completed */
   size_t stack_limit;          /* cudaLimitStackSize as set (printf_lock) */
   size_t l2_fetch_granularity; /* cudaLimitMaxL2FetchGranularity, a hint (printf_lock) */
   size_t heap_size;            /* cudaLimitMallocHeapSize (printf_lock) */
   uint64_t heap;               /* CUDA address of the device heap, 0 until a kernel with malloc runs */
   int cache_config;            /* CU_FUNC_CACHE_*, a preference (limits.c) */
   core_cls_entry *cls;         /* context-local storage (lock) */
   uint32_t capturing;          /* streams of the context in a capture (capture.c) */
   uint32_t ncls, cap_cls;
};

/* A primary context's handle is the same for the life of the process: a
 * reset leaves the object in the RESET state (core_check_ctx false: calls
 * in it fail with CUDA_ERROR_INVALID_CONTEXT; core_ctx_known true) and the
 * next retain rebuilds it in place. */
int core_ctx_primary(core_device *d, core_ctx **out);      /* not retained; revived if reset */
/* The handle without reviving it (NVIDIA's runtime asks for the handle
 * before it retains, through an export table): made on first use. */
int core_ctx_primary_handle(core_device *d, core_ctx **out);
int core_ctx_retain_primary(core_device *d, core_ctx **out);
int core_ctx_release_primary(core_device *d);
int core_ctx_reset_primary(core_device *d);
int core_ctx_create(core_device *d, unsigned flags, core_ctx **out);   /* cuCtxCreate: not current yet */
int core_ctx_destroy(core_ctx *c);       /* cuCtxDestroy of a created context */
bool core_ctx_destroyed(const core_ctx *c);
core_ctx *core_ctx_created_by_id(uint64_t id);   /* a live created context; NULL: none */
bool core_ctx_primary_active(core_device *d);
bool core_check_ctx(const core_ctx *c);
/* A live context or a primary one in the RESET state. */
bool core_ctx_known(const core_ctx *c);
/* Live, and retained if primary: what NVIDIA's driver calls active. */
bool core_ctx_in_use(const core_ctx *c);
/* The storage: CORE_ERROR_INVALID_HANDLE for a key not there (and in a
 * reset context, whose storage went with it), and for a put of a key
 * already there (kept as it is); delete forgets without calling the
 * destructor.  The destructors run at a reset and at the last release of
 * a primary context, newest first. */
int core_ctx_cls_put(core_ctx *c, void *key, void *value, core_cls_dtor dtor);
int core_ctx_cls_get(core_ctx *c, void *key, void **value);
int core_ctx_cls_delete(core_ctx *c, void *key);
int core_ctx_synchronize(core_ctx *c);
/* The sticky error (CORE_SUCCESS if none). */
int core_ctx_error(core_ctx *c);
void core_ctx_set_sticky(core_ctx *c, int err, const char *msg);
/* CU_CTX_* flags: scheduling, LMEM_RESIZE_TO_MAX, SYNC_MEMOPS (limits.c
 * says why each is honoured as it is).  Invalid flags are
 * CORE_ERROR_INVALID_VALUE; coredump flags CORE_ERROR_NOT_SUPPORTED. */
int core_ctx_check_flags(unsigned flags);
int core_ctx_set_flags(core_ctx *c, unsigned flags);

/* Thread-local current context (the driver's context stack top); setting
 * NULL pops, as cuCtxSetCurrent(NULL) does. */
core_ctx *core_ctx_current(void);
void core_ctx_set_current(core_ctx *c);
/* cuCtxPushCurrent: CORE_ERROR_OUT_OF_MEMORY past 64 levels. */
int core_ctx_push(core_ctx *c);
/* cuCtxPopCurrent: the context popped (NULL if none), also in *out. */
core_ctx *core_ctx_pop(core_ctx **out);

/* ---- stream.c ---- */

/* Stream attributes: ids below CORE_STREAM_ATTRS, values of 64 bytes. */
enum { CORE_STREAM_ATTRS = 17, CORE_STREAM_ATTR_BYTES = 64 };
/* Stream flags (CUstream_flags). */
enum { CORE_STREAM_NON_BLOCKING = 0x1 };

/* Ordering.  Each command buffer a stream commits ends by signalling the
 * stream's `progress` event with its sequence number, so "stream s has
 * reached n" is one Metal shared event compare, across queues too.  The
 * legacy default stream (is_null) and the blocking streams order against
 * each other when they commit (see stream.c). */
struct core_stream {
   uint32_t magic;
   core_ctx *ctx;
   mtl_queue *queue;
   pthread_mutex_t lock;        /* commits: seq, last, seen_null; synced */
   pthread_cond_t synced_cv;    /* synced advanced */
   mtl_cmdbuf *last;            /* most recently committed, not yet waited for */
   uint64_t synced;             /* seq a synchroniser saw complete (lock) */
   uint32_t printf_pending;     /* its launches that write printf records (ctx->printf_lock) */
   unsigned flags;              /* CORE_STREAM_* */
   int priority;
   uint64_t id;                 /* unique for the life of the process (cuStreamGetId), never reused */
   bool is_null;                /* the context's legacy default stream */
   bool per_thread;             /* a thread's per-thread default stream */
   mtl_event *progress;         /* signalled with seq by each of its buffers */
   uint64_t seq;                /* buffers committed (lock) */
   uint64_t committed;          /* seq of the last committed buffer (atomic: other streams read it) */
   uint64_t seen_null;          /* null stream's seq this stream last waited for (lock) */
   uint64_t null_waited;        /* own seq the null stream last waited for (ctx->streams_lock) */
   bool destroyed;              /* handle destroyed, work still pending (ctx->streams_lock) */
   uint32_t users;              /* synchronisers holding it alive (ctx->streams_lock) */
   core_stream *next;           /* ctx->streams */
   /* Stream capture (capture.c; the capture lock): the capture the stream
    * takes part in (NULL: none) and the nodes its next work depends on. */
   core_capture *cap;
   core_graph_node **cap_deps;
   size_t ncap_deps, cap_deps_cap;
   /* Stream attributes (cuStreamSetAttribute: hints), 64-byte values by
    * attribute id, made on the first set (lock). */
   uint8_t (*attrs)[CORE_STREAM_ATTR_BYTES];
};

/* A stream attribute's value as last set (zeros if never), and its setting. */
void core_stream_get_attr(core_stream *s, int id, void *value);
int core_stream_set_attr(core_stream *s, int id, const void *value);
/* The context's legacy default stream (not in ctx->streams). */
int core_stream_create_null(core_ctx *c, core_stream **out);
/* A stream of c: flags CORE_STREAM_*, priority already clamped. */
int core_stream_create(core_ctx *c, unsigned flags, int priority, core_stream **out);
/* Returns at once; the stream's pending work completes, then it is freed. */
void core_stream_destroy(core_stream *s);
/* The null stream at context destruction (everything else is done). */
void core_stream_free_null(core_stream *s);
bool core_check_stream(const core_stream *s);
/* The calling thread's per-thread default stream in c (made on first use). */
int core_stream_per_thread(core_ctx *c, core_stream **out);
/* Waits for all committed work; returns the context's sticky error. */
int core_stream_synchronize(core_stream *s);
/* CORE_SUCCESS when all its work is done, CORE_ERROR_NOT_READY if not,
 * or the context's sticky error. */
int core_stream_query(core_stream *s);
/* Commits cb on s (takes ownership) with fault/trap checking on completion,
 * ordered after the work it must follow (legacy/blocking rules). */
/* kernel: the PTX name of the kernel cb runs, for error messages (or NULL). */
void core_stream_commit(core_stream *s, mtl_cmdbuf *cb, const char *kernel);
/* Runs fn(data, status) on a host thread once earlier work of s is done;
 * later work of s waits until it returns.  status: the context's sticky
 * error then. */
typedef void (*core_host_fn)(void *data, int status);
int core_stream_host_fn(core_stream *s, core_host_fn fn, void *data);
/* The same, but later work of s waits until gate reaches 1, which fn (or
 * what it hands gate to) signals; gate stays the caller's. */
int core_stream_host_gate(core_stream *s, core_host_fn fn, void *data, mtl_event *gate);
/* Later work of s waits until the event's recorded work is done. */
int core_stream_wait_event(core_stream *s, core_event *e);
/* cudaMemcpy's ordering: the legacy stream after every blocking stream's
 * earlier work, then waits for it (the host then does the copy). */
int core_stream_sync_legacy(core_ctx *c);
/* Every stream of the context (cuCtxSynchronize). */
int core_streams_synchronize_all(core_ctx *c);
/* Calls fn(data) once the work every stream of c has queued now has
 * completed (at once if none has any; else from a completion handler):
 * releasing what queued work may still read, without waiting for it. */
void core_after_queued_work(core_ctx *c, void (*fn)(void *), void *data);
/* At context destruction: waits for and frees every stream. */
void core_streams_destroy_all(core_ctx *c);

/* ---- ptds.c: per-thread default streams ---- */

/* A new context's id, registered live; and its unregistration, first
 * thing at its destruction (before its streams are freed). */
uint64_t core_ptds_ctx_born(void);
void core_ptds_ctx_gone(uint64_t id);

/* ---- event.c ---- */

enum { CORE_EVENT_BLOCKING_SYNC = 0x1, CORE_EVENT_DISABLE_TIMING = 0x2 };

typedef struct core_event_mark core_event_mark;

struct core_event {
   uint32_t magic;
   core_ctx *ctx;
   unsigned flags;              /* CORE_EVENT_* */
   pthread_mutex_t lock;
   core_event_mark *mark;       /* the last record, NULL if never recorded */
   /* Recorded in a capture (capture.c; the capture lock): the capture and
    * the nodes the record stood for; cap NULL otherwise. */
   core_capture *cap;
   core_graph_node **cap_nodes;
   size_t ncap_nodes;
   core_event *prev, *next;     /* ctx->events */
};

int core_event_create(core_ctx *c, unsigned flags, core_event **out);
/* Returns at once; recorded work that is pending still completes. */
void core_event_destroy(core_event *e);
/* At context destruction (its streams are done): frees its events. */
void core_events_destroy_all(core_ctx *c);
bool core_check_event(const core_event *e);
/* Captures the stream's current position. */
int core_event_record(core_event *e, core_stream *s);
/* CORE_SUCCESS (reached, or never recorded) or CORE_ERROR_NOT_READY. */
int core_event_query(core_event *e);
int core_event_synchronize(core_event *e);
/* Milliseconds from a's completion to b's: CORE_ERROR_INVALID_HANDLE if
 * either was never recorded or has timing disabled, NOT_READY if either is
 * pending. */
int core_event_elapsed(core_event *a, core_event *b, float *ms);
/* For core_stream_wait_event: the shared event and value the last record
 * signals, false if never recorded or already reached (nothing to wait
 * for).  *ev stays valid while the caller holds e->lock. */
bool core_event_pending_signal(core_event *e, mtl_event **ev, uint64_t *value);

/* ---- module.c ---- */

struct core_module {
   uint32_t magic;
   core_ctx *ctx;
   core_module *next;
   mc_module *cm;               /* the compiler's module */
   uint64_t data;               /* CUDA address of the globals block (0 if none) */
   uint32_t nkernels;
   core_kernel *kernels;
   char *ptx;                   /* the PTX text (kept for METALCUDA_DUMP) */
   bool library;                /* loaded as a library: survives a reset of its context */
   bool devrt;                  /* has the device runtime's unit (devrt.c): its kernels may launch kernels */
   uint64_t devrt_queue;        /* CUDA address of its launch queue (0 until its first launch) */
   uint32_t devrt_records;      /* its records (the context's limit when it was made) */
};

struct core_kernel {
   uint32_t magic;
   core_module *module;
   uint32_t index;
   const char *name;
   pthread_mutex_t lock;
   bool translated;             /* tried: check `error` */
   int error;                   /* translation/compilation error, sticky */
   mc_kernel_info info;
   mtl_library *lib;
   mtl_function *fn;
   mtl_pipeline *pipeline;
   /* Shared memory beyond the device's threadgroup memory (Metal: 32 KB):
    * the variant of the kernel whose shared memory is a per-threadgroup
    * slice of device memory (compiler_options.shared_in_device).  When the
    * static part alone is over the limit, lib/fn/pipeline are that variant
    * (shared_in_device); otherwise a launch whose dynamic part takes it
    * over compiles sd_* on first need (module.c core_kernel_prepare_sd). */
   bool shared_in_device;
   bool sd_tried;
   int sd_error;
   mtl_library *sd_lib;
   mtl_function *sd_fn;
   mtl_pipeline *sd_pipeline;
   /* Recursion (mc_kernel_info.stack_bytes): the variant for a second
    * cudaLimitStackSize, st_bytes (module.c core_kernel_prepare_stack). */
   uint32_t st_bytes;
   mtl_library *st_lib;
   mtl_function *st_fn;
   mtl_pipeline *st_pipeline;
   /* Attributes the program set (function.c; -1: not set). */
   int32_t max_dynamic_shared;  /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
   int32_t carveout;            /* CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
   int32_t cache_config;        /* cuFuncSetCacheConfig */
};

/* The CORE_ERROR_* of a fatbin reader's status (fatbin_status). */
int core_fatbin_error(int status);

/* The PTX of n units linked into one text (compiler_link_ptx), *ptx
 * malloc'ed; CORE_ERROR_INVALID_PTX (said in the log) or out of memory. */
int core_link_ptx(const char *const *texts, const size_t *lens, uint32_t n, char **ptx, size_t *len);

/* The JIT linker (link.c): inputs' PTX linked into one PTX image. */
typedef struct core_link core_link;
int core_link_create(core_ctx *c, core_link **out);
bool core_check_link(const core_link *l);
int core_link_add(core_link *l, const void *data, size_t size, const char *name);
int core_link_complete(core_link *l, const void **image, size_t *size);   /* once; owned by l */
void core_link_destroy(core_link *l);

/* Loads a module from an image: fatbin wrapper, fatbin, or PTX text. */
int core_module_load(core_ctx *c, const void *image, size_t image_len, core_module **out);
/* The same for cuLibraryLoadData: the module survives a reset of its
 * context (core_ctx_reset_primary), as CUDA's libraries outlive contexts. */
int core_library_load(core_ctx *c, const void *image, size_t image_len, core_module **out);
/* A library whose context was reset: its variables back to their initial
 * values, as a load into a new context would have them. */
void core_module_reset(core_module *m);
int core_module_unload(core_module *m);
bool core_check_module(const core_module *m);
int core_module_get_kernel(core_module *m, const char *name, core_kernel **out);
int core_module_get_global(core_module *m, const char *name, uint64_t *ptr, size_t *size);
/* The module's kernels in the order of its PTX (stable while it is
 * loaded): their count, and the i-th (NULL past the last). */
uint32_t core_module_kernel_count(const core_module *m);
core_kernel *core_module_kernel_at(core_module *m, uint32_t i);
/* The module a kernel belongs to; whether a module is a library
 * (core_library_load). */
core_module *core_kernel_module(const core_kernel *k);
bool core_module_is_library(const core_module *m);
bool core_check_kernel(const core_kernel *k);
/* The pipeline whose shared memory is in device memory (compiled on the
 * first call); its error is sticky like the kernel's. */
int core_kernel_prepare_sd(core_kernel *k, mtl_pipeline **out);
/* *out (the pipeline a launch uses) replaced, for a recursive kernel
 * translated for another cudaLimitStackSize than the context's, by the
 * variant for the current one. */
int core_kernel_prepare_stack(core_kernel *k, mtl_pipeline **out);
/* Translates and compiles the kernel if not done yet. */
int core_kernel_prepare(core_kernel *k);

/* ---- function.c: kernel attributes and occupancy ---- */

/* CU_FUNC_ATTRIBUTE_* of a prepared kernel; CORE_ERROR_INVALID_VALUE for
 * an unknown one. */
int core_kernel_get_attribute(core_kernel *k, int attr, int *value);
/* Sets a writable attribute; CUDA's errors for read-only, unknown and
 * out-of-range ones. */
int core_kernel_set_attribute(core_kernel *k, int attr, int value);
int core_kernel_set_cache_config(core_kernel *k, int config);
/* Translated and compiled without error (cuFuncIsLoaded). */
bool core_kernel_is_loaded(core_kernel *k);
/* Threads a block may have: the pipeline's limit and the PTX's .maxntid
 * and .reqntid (__launch_bounds__). */
uint32_t core_kernel_max_threads(const core_kernel *k);
/* Bytes of dynamic shared memory a launch may ask for. */
uint32_t core_kernel_max_dynamic_shared(core_kernel *k);
/* Blocks of block_size threads with dyn_shared bytes of dynamic shared
 * memory that fit on one multiprocessor (cuOccupancyMaxActiveBlocks...). */
int core_occupancy_blocks(core_kernel *k, int block_size, size_t dyn_shared, unsigned flags, int *blocks);
/* Dynamic shared memory per block that lets nblocks blocks of block_size
 * threads fit on one multiprocessor. */
int core_occupancy_dynamic_shared(core_kernel *k, int nblocks, int block_size, size_t *bytes);
/* The block size with the highest occupancy (cuOccupancyMaxPotentialBlockSize);
 * dyn_of(block size) gives the dynamic shared memory, or dyn_bytes if NULL. */
/* Blocks a cooperative launch of k may have: the blocks per multiprocessor
 * times the multiprocessors (cudaErrorCooperativeLaunchTooLarge above). */
int core_cooperative_max_blocks(core_kernel *k, int block_size, size_t dyn_shared, uint64_t *blocks);
int core_occupancy_best_block(core_kernel *k, size_t (*dyn_of)(int), size_t dyn_bytes, int limit, unsigned flags,
                              int *min_grid, int *block_size);

/* ---- launch.c ---- */

typedef struct core_launch_config {
   uint32_t grid[3], block[3];
   uint32_t shared_bytes;
   core_stream *stream;         /* NULL: the context's null stream */
   void **args;                 /* kernelParams: one pointer per parameter */
   const void *arg_blob;        /* or a packed blob (CU_LAUNCH_PARAM_BUFFER_POINTER) */
   size_t arg_blob_size;
   bool cooperative;            /* cuLaunchCooperativeKernel: co-resident blocks, grid.sync() */
} core_launch_config;

int core_launch(core_kernel *k, const core_launch_config *cfg);

/* ---- devrt.c: dynamic parallelism ---- */

/* Whether units call CUDA 12's device runtime, and its PTX unit, linked in
 * when they do. */
bool core_devrt_needed(const char *const *texts, const size_t *lens, uint32_t n);
const char *core_devrt_ptx(size_t *len);
/* NVIDIA's cudadevrt unit (a -rdc program's, linked by nvcc) defines the
 * same functions over driver calls metalcuda has not: in text of that
 * unit they are renamed in place, so that the program's calls reach ours. */
void core_devrt_rename_nvidia(char *text, size_t len);
/* A launch of k (of a module with m->devrt) by launch, then, once its grid
 * has completed, of every kernel it launched, on the same stream. */
int core_devrt_launch(core_kernel *k, const core_launch_config *cfg,
                      int (*launch)(core_kernel *, const core_launch_config *));
/* For executable graphs: checks a launch as core_launch does; *batch says
 * whether it may go into a command buffer shared with other work (no
 * printf, shared memory and parameters fit Metal's limits), *tg_bytes the
 * threadgroup memory it sets. */
int core_launch_check(core_kernel *k, const core_launch_config *cfg, bool *batch, uint32_t *tg_bytes);
/* The launch block's fields common to every kernel of c launched now. */
void core_launch_block_base(core_ctx *c, mc_launch *lb);
/* Encodes a launch core_launch_check found batchable into e (params: the
 * packed blob; lb: from core_launch_block_base, completed here; first:
 * the encoder's first dispatch). */
int core_launch_encode(core_kernel *k, const core_launch_config *cfg, uint32_t tg_bytes, const void *params,
                       mc_launch *lb, mtl_encoder *e, bool first);

/* ---- printf.c: device printf and assert records ---- */

void core_printf_init(core_ctx *c);
/* Formats what is left and frees the FIFO. */
void core_printf_destroy(core_ctx *c);
/* cudaLimitPrintfFifoSize: CORE_ERROR_INVALID_VALUE once a kernel printed. */
int core_printf_set_fifo_size(core_ctx *c, size_t value);
size_t core_printf_fifo_size(core_ctx *c);

/* At a launch on s (cb not committed yet): formats earlier records if
 * nothing prints now, and for a kernel that prints gives the launch block
 * its FIFO and tracks cb until it completes. */
int core_printf_launch(core_ctx *c, core_stream *s, mtl_cmdbuf *cb, bool uses_printf, mc_launch *lb);
/* After s completed its work: formats the records when no printing kernel
 * runs elsewhere. */
void core_printf_sync(core_stream *s);
/* At a synchronisation on an event: its stream's earlier launches have
 * completed and their handlers run (a queue runs them in order), so their
 * records are formatted unless a printing kernel still runs elsewhere. */
void core_printf_flush_idle(core_ctx *c);
/* Formats the records in recs[0, end): printf output to out, assertion
 * messages to err (stops at the first record that is not complete). */
void core_printf_format(const uint8_t *recs, uint32_t end, strbuf *out, strbuf *err);

/* ---- limits.c: context limits and preferences ---- */

/* cuCtxSetLimit/GetLimit (the driver's CUlimit numbering); limits.c says
 * what each limit means here. */
enum {
   CORE_LIMIT_STACK_SIZE = 0,
   CORE_LIMIT_PRINTF_FIFO_SIZE = 1,
   CORE_LIMIT_MALLOC_HEAP_SIZE = 2,
   CORE_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3,
   CORE_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
   CORE_LIMIT_MAX_L2_FETCH_GRANULARITY = 5,
   CORE_LIMIT_PERSISTING_L2_CACHE_SIZE = 6,
   CORE_LIMIT_SHMEM_SIZE = 7,
   CORE_LIMIT_CIG_ENABLED = 8,
   CORE_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 9,
};
int core_ctx_set_limit(core_ctx *c, int limit, size_t value);
int core_ctx_get_limit(core_ctx *c, int limit, size_t *value);
/* The device heap of malloc/free (prelude/heap.metal): made, zeroed, the
 * first time a kernel that uses it is launched, of cudaLimitMallocHeapSize
 * bytes; freed with the context. */
int core_ctx_heap(core_ctx *c, uint64_t *heap, uint64_t *size);
/* cuCtxSetCacheConfig: CU_FUNC_CACHE_PREFER_NONE..EQUAL. */
int core_ctx_set_cache_config(core_ctx *c, int config);

/* ---- memory.c: copies and fills, registered host memory ---- */

/* Copies and fills happen after the earlier work of stream s (NULL: the
 * null stream) and before the call returns (so before s's later work). */
int core_memcpy(core_ctx *c, uint64_t dst, uint64_t src, size_t n);   /* on the null stream */
int core_memcpy_on(core_ctx *c, core_stream *s, uint64_t dst, uint64_t src, size_t n);
/* cuMemcpyPeer: n bytes from src (memory of context sc) to dst (of dc),
 * ordered as core_memcpy_on(c, s) in the calling thread's context c and,
 * for a synchronous copy (sync), after the legacy-stream work of dc and sc
 * too.  Every device's memory is CPU-visible, so the contexts may be on
 * different devices. */
int core_memcpy_peer(core_ctx *c, core_stream *s, bool sync, core_ctx *dc, uint64_t dst, core_ctx *sc,
                     uint64_t src, size_t n);
/* A strided copy: depth slices of height rows of width bytes; addresses are
 * of the first byte, pitches in bytes, heights in rows per slice. */
typedef struct core_copy3d_desc {
   uint64_t dst, src;
   size_t dst_pitch, src_pitch;
   size_t dst_height, src_height;
   size_t width, height, depth;
} core_copy3d_desc;
int core_copy3d(core_ctx *c, core_stream *s, const core_copy3d_desc *p);
int core_memset(core_ctx *c, uint64_t dst, uint32_t value, size_t elem_size, size_t count);
/* height rows, pitch bytes apart, of width elements of elem_size (1, 2, 4). */
int core_fill2d(core_ctx *c, core_stream *s, uint64_t dst, size_t pitch, uint32_t value, size_t elem_size,
                size_t width, size_t height);
/* cuMemcpyAsync and the cuMemset*Async forms (memory.c says how): queued
 * on s (NULL: the legacy stream) and returning at once when both sides are
 * pinned (fill: device memory); otherwise as core_memcpy_on/core_fill2d. */
int core_memcpy_async(core_ctx *c, core_stream *s, uint64_t dst, uint64_t src, size_t n);
int core_fill2d_async(core_ctx *c, core_stream *s, uint64_t dst, size_t pitch, uint32_t value, size_t elem_size,
                      size_t width, size_t height);
/* cuMemcpyBatchAsync, cuMemcpy3DBatchAsync: n checked copies as one piece
 * of s's work (memory.c says how); their order among themselves is none. */
int core_memcpy_batch(core_ctx *c, core_stream *s, size_t n, const core_copy3d_desc *d);
/* The copy and the fill themselves, now, by the calling thread (the work
 * they follow is done). */
void core_copy3d_now(const core_copy3d_desc *p);
void core_fill2d_now(uint64_t dst, size_t pitch, uint32_t value, size_t elem_size, size_t width, size_t height);
/* Host memory registered with cuMemHostRegister (process-wide): overlapping
 * an earlier range is CORE_ERROR_HOST_MEMORY_ALREADY_REGISTERED; p must
 * start a range to unregister it (inside one: CORE_ERROR_INVALID_VALUE;
 * in none: ..._NOT_REGISTERED). */
int core_host_register(uint64_t p, size_t n, uint32_t flags);
int core_host_unregister(uint64_t p);
bool core_host_lookup(uint64_t p, uint64_t *base, uint64_t *size, uint32_t *flags);

/* ---- array.c: CUDA arrays, texture and surface objects ---- */

/* A CUDA array: its elements row after row in device memory (internal,
 * so no cudaFree releases it), each row pitch bytes, each 2-D slice slice
 * bytes.  Sizes as CUDA has them: height 0 for 1-D, depth 0 for 1-D/2-D. */
typedef struct core_array {
   uint32_t magic;              /* CORE_MAGIC_ARRAY */
   core_ctx *ctx;
   uint64_t mem;
   uint32_t width, height, depth;
   uint32_t format;             /* the driver's CUarray_format, as given */
   uint32_t kind, chan_bytes, nchan;   /* MC_TEX_* kind, bytes per channel, channels */
   uint32_t flags;              /* CUDA_ARRAY3D_* as given */
   uint64_t pitch, slice;
   struct core_mipmap *owner;   /* a level of this mipmapped array, or NULL */
} core_array;

int core_array_create(core_ctx *c, const core_array *shape, core_array **out);
int core_array_destroy(core_array *a);
bool core_check_array(const core_array *a);
/* ---- mipmap.c: mipmapped arrays ---- */

enum { CORE_MIP_MAX_LEVELS = 17 };   /* 1 + log2 of the widest (65536) */
/* A mipmapped array: its levels, each a core_array owned by it (destroying
 * one alone does nothing), and their table in device memory (compiler.h's
 * mc_tex_level) that its texture objects name. */
typedef struct core_mipmap {
   uint32_t magic;              /* CORE_MAGIC_MIPMAP */
   core_ctx *ctx;
   uint32_t nlevels;
   core_array *level[CORE_MIP_MAX_LEVELS];
   uint64_t table;              /* CUDA address of mc_tex_level[nlevels] */
} core_mipmap;

/* The levels of shape (level 0): nlevels clamped to 1 + floor(log2 of the
 * largest dimension; a layered array's layers and a cube map's faces are
 * none), at least 1; level l has max(1, n >> l) of each dimension. */
int core_mipmap_create(core_ctx *c, const core_array *shape, uint32_t nlevels, core_mipmap **out);
int core_mipmap_destroy(core_mipmap *m);
bool core_check_mipmap(const core_mipmap *m);

/* A texture or surface object: desc copied into device memory, *handle its
 * CUDA address (what kernels receive); destroying a handle not made here
 * frees nothing (and succeeds, as NVIDIA's does). */
int core_tex_create(core_ctx *c, const mc_tex *desc, uint64_t *handle);
int core_tex_destroy(uint64_t handle);
/* The descriptor of a live object; false if none. */
bool core_tex_lookup(uint64_t handle, mc_tex *out);
/* What the API layer was given at creation, kept for its queries
 * (cuTexObjectGetResourceDesc ...) as an opaque copy: set once after
 * core_tex_create, read back with the same length; false if no live
 * object (or, reading, another length). */
enum { CORE_TEX_API_MAX = 512 };
bool core_tex_set_api(uint64_t handle, const void *api, size_t len);
bool core_tex_get_api(uint64_t handle, void *api, size_t len);

/* ---- mempool.c: the stream-ordered allocator's pools ---- */

typedef struct core_mempool core_mempool;
/* The attributes, numbered as CUmemPool_attribute. */
enum {
   CORE_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1,
   CORE_POOL_REUSE_ALLOW_OPPORTUNISTIC = 2,
   CORE_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3,
   CORE_POOL_RELEASE_THRESHOLD = 4,
   CORE_POOL_RESERVED_MEM_CURRENT = 5,
   CORE_POOL_RESERVED_MEM_HIGH = 6,
   CORE_POOL_USED_MEM_CURRENT = 7,
   CORE_POOL_USED_MEM_HIGH = 8,
};
core_mempool *core_mempool_default(core_device *d);
/* A pool of d's device memory holding at most max_size bytes (0: no bound). */
int core_mempool_create(core_device *d, uint64_t max_size, core_mempool **out);
/* CORE_ERROR_INVALID_VALUE for a default pool; with allocations out, the
 * pool lives on until the last is freed (core_mempool_free). */
int core_mempool_destroy(core_mempool *p);
/* A live handle (safe on any pointer: a destroyed pool is not one). */
bool core_check_mempool(const core_mempool *p);
core_device *core_mempool_device(const core_mempool *p);
bool core_mempool_is_default(const core_mempool *p);
/* The device's current pool (its default until core_mempool_set_current). */
core_mempool *core_mempool_current(core_device *d);
/* CORE_ERROR_INVALID_VALUE unless p is a live pool of d. */
int core_mempool_set_current(core_device *d, core_mempool *p);
int core_mempool_alloc(core_mempool *p, size_t size, uint64_t *out);
/* ptr must start an allocation of one of d's pools (else CORE_ERROR_INVALID_VALUE). */
int core_mempool_free(core_device *d, uint64_t ptr);
/* The pool the allocation containing ptr came from; NULL if none. */
core_mempool *core_mempool_of(core_device *d, uint64_t ptr);
/* Booleans read as 0/1; CORE_ERROR_INVALID_VALUE for an unknown or
 * read-only attribute. */
int core_mempool_get(core_mempool *p, int attr, uint64_t *value);
int core_mempool_set(core_mempool *p, int attr, uint64_t value);

/* ---- graph.c: graphs, their nodes and executable graphs ---- */

/* Node types, numbered as CUgraphNodeType. */
enum {
   CORE_NODE_KERNEL = 0,
   CORE_NODE_MEMCPY = 1,
   CORE_NODE_MEMSET = 2,
   CORE_NODE_HOST = 3,
   CORE_NODE_GRAPH = 4,
   CORE_NODE_EMPTY = 5,
   CORE_NODE_WAIT_EVENT = 6,
   CORE_NODE_EVENT_RECORD = 7,
   CORE_NODE_MEM_ALLOC = 10,
   CORE_NODE_MEM_FREE = 11,
   CORE_NODE_BATCH_MEM_OP = 12,
   CORE_NODE_CONDITIONAL = 13,
};
/* Conditional node types (CUgraphConditionalNodeType) and handle flags. */
enum { CORE_COND_IF = 0, CORE_COND_WHILE = 1, CORE_COND_SWITCH = 2 };
#define CORE_COND_ASSIGN_DEFAULT 1u

typedef struct core_graph_mem core_graph_mem;
typedef struct core_graph_cond core_graph_cond;

/* Wait conditions, numbered as CUstreamWaitValue_flags. */
enum { CORE_WAIT_GEQ = 0, CORE_WAIT_EQ = 1, CORE_WAIT_AND = 2, CORE_WAIT_NOR = 3 };
/* A stream memory operation (memop.c): a wait for or a write of a 4- or
 * 8-byte value, or a barrier (stream order already gives it). */
enum { CORE_MEMOP_WAIT = 0, CORE_MEMOP_WRITE = 1, CORE_MEMOP_BARRIER = 2 };
typedef struct core_memop {
   int kind;                    /* CORE_MEMOP_* */
   int cond;                    /* waits: CORE_WAIT_* */
   uint32_t bytes;              /* 4 or 8 */
   uint64_t addr, value;
} core_memop;

/* A node's parameters.  Kernel: the arguments as kernelParams (args) or a
 * packed blob; a node keeps its own copy of them (args then point into
 * it).  Graph: the child graph (the node keeps a clone). */
typedef struct core_node_params {
   int type;
   union {
      struct {
         core_kernel *k;
         uint32_t grid[3], block[3], shared;
         void **args;
         const void *blob;
         size_t blob_size;
      } kernel;
      struct {
         core_ctx *ctx;
         core_copy3d_desc d;
      } copy;
      struct {
         core_ctx *ctx;
         uint64_t dst;
         size_t pitch, width, height;
         uint32_t value, elem_size;
      } memset;
      struct {
         void (*fn)(void *);
         void *data;
      } host;
      struct {
         core_device *dev;      /* where it resides */
         uint64_t size;
         uint64_t dptr;         /* out: the address (fixed when the node is added) */
         core_graph_mem *mem;   /* set by the node; a clone shares its original's */
         /* the API's pool properties and access descriptors, kept verbatim */
         const void *props, *access;
         size_t props_size, access_size, naccess;
      } alloc;
      struct {
         uint64_t dptr;
         core_graph_mem *mem;   /* set by the node */
      } mfree;
      /* conditional: the handle's value picks bodies[] (graphs the node
       * owns: made empty when the node is added, cloned in clones) */
      struct {
         uint64_t handle;
         int type;              /* CORE_COND_* */
         uint32_t size;
         core_graph **bodies;   /* set by the node */
         core_graph_cond *var;  /* set by the node: the handle's variable */
      } cond;
      /* batch memory operations: the node keeps its own copy of both arrays */
      struct {
         core_ctx *ctx;
         uint32_t count, flags;
         const core_memop *ops;
         const void *api;       /* the API's array, kept verbatim for the program to read back */
         size_t api_size;       /* bytes of one element of it */
      } memop;
      core_graph *child;
      core_event *event;
   };
} core_node_params;

struct core_graph_node {
   uint32_t magic;
   core_graph *graph;
   core_node_params p;
   uint8_t *blob;               /* kernel: its own copy of the arguments */
   void **args;                 /* kernel: pointers into blob, one per parameter */
   core_graph_node **deps, **outs;   /* edges in and out */
   uint32_t ndeps, nouts, cap_deps, cap_outs;
   core_graph_node *orig;       /* in a clone or an executable graph: the node it copies */
   bool disabled;               /* executable graphs: cuGraphNodeSetEnabled(0) */
   uint8_t counted;             /* a free node of a graph (not a clone): its count in its mem */
   /* executable graphs: a kernel launch that goes into the shared command buffer */
   bool batch;
   uint32_t tg_bytes;
   /* executable graphs: a conditional node's bodies, instantiated, and the
    * stream they run in (graphcond.c) */
   core_graph_exec **cond_execs;
   core_stream *cond_stream;
   /* kernel nodes: launch attributes (cuGraphKernelNodeSetAttribute), by
    * id as stream attributes, made on the first set; copied into clones */
   uint8_t (*attrs)[CORE_STREAM_ATTR_BYTES];
};

struct core_graph {
   uint32_t magic;
   core_ctx *ctx;
   core_graph_node **nodes;     /* in creation order */
   uint32_t nnodes, cap_nodes;
   core_graph_node *parent;     /* a child graph: the node owning it */
   uint32_t nmem;               /* allocation and free nodes */
   uint32_t ncond;              /* conditional nodes (the same restrictions as nmem) */
   core_graph_exec *live_exec;  /* a graph with nmem or ncond: its one executable graph */
   core_graph_cond **conds;     /* conditional handles made for it (graphcond.c) */
   uint32_t nconds, cap_conds;
   bool cond_body;              /* a conditional node's body: only kernels, copies, fills, empty nodes, child graphs and conditionals */
   /* references to user objects it holds (userobj.c), copied into copies */
   struct core_graph_uref *urefs;
   uint32_t nurefs, cap_urefs;
};

int core_graph_create(core_ctx *c, core_graph **out);
void core_graph_destroy(core_graph *g);
bool core_check_graph(const core_graph *g);
bool core_check_node(const core_graph_node *n);
/* Adds a node after deps (nodes of g, no duplicates). */
int core_graph_add(core_graph *g, core_graph_node *const *deps, size_t ndeps, const core_node_params *p,
                   core_graph_node **out);
/* A node's parameters (pointers into the node). */
void core_node_get(const core_graph_node *n, core_node_params *out);
/* Replaces a node's parameters (the same type). */
int core_node_set(core_graph_node *n, const core_node_params *p);
int core_graph_clone(const core_graph *g, core_graph **out);
/* A copy of g whatever its nodes (executable graphs, conditional bodies),
 * made as a graph under parent (NULL: none). */
int core_graph_copy(const core_graph *g, core_graph_node *parent, core_graph **out);
/* The node of clone (or its children) made from orig. */
core_graph_node *core_graph_find_clone(core_graph *clone, const core_graph_node *orig);
int core_graph_add_edge(core_graph_node *from, core_graph_node *to);
int core_graph_remove_edge(core_graph_node *from, core_graph_node *to);
void core_graph_destroy_node(core_graph_node *n);
/* A kernel node's launch attribute as last set (zeros if never; id below
 * CORE_STREAM_ATTRS), and its setting. */
void core_node_get_attr(const core_graph_node *n, int id, void *value);
int core_node_set_attr(core_graph_node *n, int id, const void *value);

/* Executable graphs: a clone of the graph, its nodes in one order that
 * respects every edge (child graphs inlined). */
struct core_graph_exec {
   uint32_t magic;
   core_ctx *ctx;
   core_graph *graph;           /* the clone */
   core_graph_node **order;
   uint32_t norder;
   uint64_t flags;
   mtl_event *done;             /* signalled with the number of launches completed */
   uint64_t launches;           /* launched (the lock of the stream it was last launched in) */
   pthread_mutex_t lock;
   core_graph *source;          /* a graph with memory nodes: the graph (NULL once destroyed) */
};
/* Instantiation flags (CUgraphInstantiate_flags) the core acts on. */
#define CORE_GRAPH_AUTO_FREE_ON_LAUNCH 1u
int core_graph_instantiate(core_graph *g, uint64_t flags, core_graph_exec **out);
void core_graph_exec_destroy(core_graph_exec *x);
bool core_check_exec(const core_graph_exec *x);
/* The executable graph's copy of a node of the graph it was made from. */
core_graph_node *core_exec_node(core_graph_exec *x, const core_graph_node *orig);
int core_exec_set(core_graph_exec *x, const core_graph_node *orig, const core_node_params *p);
/* cuGraphExecUpdate: *result is a CUgraphExecUpdateResult, *err_node the
 * node of g at fault (or NULL). */
int core_exec_update(core_graph_exec *x, core_graph *g, int *result, core_graph_node **err_node);
/* Runs the executable graph on s after its earlier work and after the
 * previous launch of x: kernels and copies between device memory as one
 * command buffer, host work (host nodes, other copies) from completion
 * handlers in order. */
int core_graph_launch(core_graph_exec *x, core_stream *s);

/* cuGraphDebugDotPrint: the graph in Graphviz's language, to path
 * (CORE_ERROR_OPERATING_SYSTEM if it cannot be written). */
int core_graph_dot(const core_graph *g, const char *path);

/* ---- userobj.c: user objects and graphs' references to them ---- */

/* ---- tensor maps (tensormap.c): cuTensorMapEncodeTiled's object ---- */

typedef struct core_tensormap_desc {
   uint64_t address;           /* the tensor's CUDA address */
   uint32_t dtype, elem_bytes, rank, swizzle_bytes;   /* swizzle: 0, 32, 64 or 128 */
   uint64_t dim[5], stride[4]; /* stride[k]: bytes between steps of dimension k + 1 */
   uint32_t box[5];
} core_tensormap_desc;

/* Writes the map's 16 words (compiler.h MC_TMAP_*) of checked arguments. */
void core_tensormap_encode(uint64_t words[16], const core_tensormap_desc *d);
/* Whether the words are a map core_tensormap_encode wrote. */
bool core_tensormap_is_ours(const uint64_t words[16]);
void core_tensormap_set_address(uint64_t words[16], uint64_t address);

typedef struct core_user_object {
   uint32_t magic;              /* CORE_MAGIC_USER_OBJECT */
   uint32_t refs;               /* atomic */
   void (*fn)(void *);          /* the destructor, called once with data */
   void *data;
   struct core_user_object *next;   /* the destructor thread's queue (userobj.c) */
} core_user_object;
typedef struct core_graph_uref {
   core_user_object *obj;
   uint32_t count;
} core_graph_uref;
int core_user_object_create(void *data, void (*fn)(void *), uint32_t refs, core_user_object **out);
bool core_check_user_object(const core_user_object *o);
void core_user_object_retain(core_user_object *o, uint32_t n);
/* Dropping the last reference queues the destructor (it runs on another
 * thread) and o is freed after it. */
void core_user_object_release(core_user_object *o, uint32_t n);
/* n references of o for g: new ones, or (move) the caller's. */
int core_graph_retain_user_object(core_graph *g, core_user_object *o, uint32_t n, bool move);
/* CORE_ERROR_INVALID_VALUE if g holds fewer than n. */
int core_graph_release_user_object(core_graph *g, core_user_object *o, uint32_t n);
/* A detached thread running fn(NULL) (the destructor thread, memop.c's
 * poller): false if none can be started. */
bool core_start_thread(void *(*fn)(void *));
/* Copies g's references into its copy c; drops g's (at its destruction). */
int core_graph_urefs_copy(const core_graph *g, core_graph *c);
void core_graph_urefs_drop(core_graph *g);

/* ---- memop.c: stream memory operations (cuStreamWaitValue32, ...) ---- */

/* Later work of s waits until the 4- or 8-byte value at CUDA address addr
 * meets cond against value; the host thread does not wait. */
int core_stream_wait_value(core_stream *s, uint64_t addr, uint64_t value, uint32_t bytes, int cond);
/* Stores value (4 or 8 bytes) at addr after the earlier work of s. */
int core_stream_write_value(core_stream *s, uint64_t addr, uint64_t value, uint32_t bytes);
/* n operations in order on s (a batch, or a batch memory-operation node). */
int core_stream_memops(core_stream *s, const core_memop *ops, uint32_t n);

/* ---- graphmem.c: graph memory (allocation and free nodes) ---- */

/* An address an allocation node reserved: the node and its clones share
 * it (refs); live from a launch that runs the node until it is freed (a
 * free node's launch, cuMemFree/cuMemFreeAsync, auto-free on the next
 * launch).  It goes back to the arena when no node names it and it is
 * not live. */
struct core_graph_mem {
   core_device *dev;
   uint64_t ptr, size;
   core_graph *owner;           /* the graph of its allocation node (NULL once gone) */
   uint32_t refs;
   bool live;
   uint32_t frees_owner, frees_other;   /* free nodes in the owner, in other graphs */
};
/* Reserves size bytes on d for an allocation node of owner (refs 1). */
int core_graph_mem_reserve(core_device *d, uint64_t size, core_graph *owner, core_graph_mem **out);
/* The reservation starting at ptr (on d, or any device if NULL), one
 * reference taken; NULL if none. */
core_graph_mem *core_graph_mem_get(core_device *d, uint64_t ptr);
void core_graph_mem_ref(core_graph_mem *m);
void core_graph_mem_unref(core_graph_mem *m);
/* A launch allocated (live) or freed it. */
void core_graph_mem_set_live(core_graph_mem *m, bool live);
bool core_graph_mem_is_live(core_graph_mem *m);
/* A free node of m added to graph g (not a clone): CORE_ERROR_INVALID_VALUE
 * if m is freed both in its own graph and in another, else *kind says
 * which count it joined (1: owner, 2: other); and its removal. */
int core_graph_mem_count_free(core_graph_mem *m, const core_graph *g, uint8_t *kind);
void core_graph_mem_uncount_free(core_graph_mem *m, uint8_t kind);
/* g, m's owner, is destroyed. */
void core_graph_mem_disown(core_graph_mem *m, const core_graph *g);
/* cuMemFree/cuMemFreeAsync of graph memory: CORE_ERROR_INVALID_VALUE
 * unless ptr starts a live allocation. */
int core_graph_mem_free(core_device *d, uint64_t ptr);
/* node_store's part for allocation and free nodes: q completed (the
 * reservation made or shared, the free's target found and checked). */
int core_graph_mem_store_alloc(core_graph_node *n, core_node_params *q);
int core_graph_mem_store_free(core_graph_node *n, core_node_params *q);
/* CUgraphMem_attribute values (0-3) of d; set: the high marks, to 0. */
int core_graph_mem_attr_get(core_device *d, int attr, uint64_t *value);
int core_graph_mem_attr_set(core_device *d, int attr, uint64_t value);

/* ---- graphcond.c: conditional nodes ---- */

/* A conditional handle's variable: 4 bytes of device memory that kernels
 * set (cudaGraphSetConditional is a store to the handle's address), then
 * its default; shared by a graph and its executable copy (refs). */
struct core_graph_cond {
   uint32_t refs;
   core_device *dev;
   uint64_t ptr;                /* the variable; ptr + 4: the default */
   uint32_t dflt;
   bool assign_default;         /* CORE_COND_ASSIGN_DEFAULT: the default at every launch */
};
/* cuGraphConditionalHandleCreate: *handle is the variable's address. */
int core_graph_cond_create(core_graph *g, uint32_t dflt, unsigned flags, uint64_t *handle);
void core_graph_cond_unref(core_graph_cond *v);
/* g's handles, referenced again for its copy c. */
int core_graph_cond_share(const core_graph *g, core_graph *c);
/* node_store's part for a conditional node: the handle checked against
 * n's graph, the bodies made (or, from an existing node's q, cloned). */
int core_graph_cond_store(core_graph_node *n, core_node_params *q, bool clone);
void core_graph_cond_free(core_graph_node *n);
/* Node types a body may hold (recursively through child graphs). */
bool core_graph_cond_allows(const core_graph *g, int type);
/* Instantiation: n's bodies as executable graphs and their stream. */
int core_graph_cond_prepare(core_graph_exec *x, core_graph_node *n);
void core_graph_cond_release(core_graph_node *n);
/* A launch reaching conditional node n (of an executable graph) on s. */
int core_graph_cond_run(core_stream *s, core_graph_node *n);

/* ---- capture.c: stream capture ---- */

enum { CORE_CAPTURE_GLOBAL = 0, CORE_CAPTURE_THREAD_LOCAL = 1, CORE_CAPTURE_RELAXED = 2 };
int core_capture_begin(core_stream *s, int mode, core_graph *into);
/* Ends s's capture: the graph (NULL and an error if it failed). */
int core_capture_end(core_stream *s, core_graph **out);
/* s captures into a graph of the program's (cuStreamBeginCaptureToGraph). */
bool core_capture_to_user_graph(core_stream *s);
/* CU_STREAM_CAPTURE_STATUS_* of s, and what the capture has so far. */
int core_capture_info(core_stream *s, uint64_t *id, core_graph **graph, core_graph_node *const **deps,
                      size_t *ndeps);
/* Replaces (set) or extends s's dependencies. */
int core_capture_update_deps(core_stream *s, core_graph_node *const *deps, size_t n, bool set);
int core_capture_exchange_mode(int *mode);
/* Work issued on a capturing stream: a node after s's dependencies. */
int core_capture_add(core_stream *s, const core_node_params *p);
/* The same, giving the node (allocation nodes: the caller reads its address). */
int core_capture_add_node(core_stream *s, const core_node_params *p, core_graph_node **out);
/* An API call CUDA calls "potentially unsafe" during a capture
 * (allocation, synchronisation, queries): CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED
 * and the captures it breaks invalidated, when the capture modes forbid it. */
int core_capture_unsafe(void);
/* Work on the legacy stream of c, which would make every capturing
 * blocking stream depend on it: CORE_ERROR_STREAM_CAPTURE_IMPLICIT and
 * those captures invalidated. */
int core_capture_legacy(core_ctx *c);
/* The same for a query of the legacy stream's capture status (nothing invalidated). */
int core_capture_legacy_query(core_ctx *c);
/* Synchronising the whole context (cuCtxSynchronize) during a capture in it. */
int core_capture_ctx_sync(core_ctx *c);
/* Work s's capture cannot record: s's capture invalidated, err returned. */
int core_capture_fail(core_stream *s, int err);
/* Synchronising or querying s: always refused while s captures, else as
 * core_capture_unsafe. */
int core_capture_stream_busy(core_stream *s);
/* Event record/wait on capturing streams (fork and join). */
int core_capture_event_record(core_event *e, core_stream *s);
int core_capture_event_wait(core_stream *s, core_event *e);
/* CORE_ERROR_CAPTURED_EVENT if e was last recorded in a capture. */
int core_capture_event_check(core_event *e);
/* At the destruction of a stream or event: forgets its capture state. */
void core_capture_forget_stream(core_stream *s);
void core_capture_forget_event(core_event *e);

/* ---- dump.c ---- */

/* METALCUDA_DUMP=DIR: writes each module's PTX and each kernel's MSL. */
void core_dump(const char *kind, const char *hash, const char *name, const char *text);

#endif
