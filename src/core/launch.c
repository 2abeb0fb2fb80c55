/*
 * launch.c — kernel launches.
 *
 * The parameter blob is laid out exactly like the PTX .param space
 * (ARCHITECTURE §3), from the kernel's parameter offsets: one setBytes, no
 * per-pointer bindings, so no 31-argument limit and no guessing which
 * parameter is a pointer.  Blobs over Metal's 4 KB setBytes limit go
 * through device memory freed when the command buffer completes.  The
 * launch block gives the kernel the device memory's slot table (the CPU→GPU
 * delta of each chunk, core/arena.c), the module's
 * globals, the trap flag, the printf FIFO (printf.c) and the values of
 * %nsmid, %gridid and the clock base.  Static and dynamic shared memory are one
 * threadgroup buffer (static first); a block that needs more than the
 * device's threadgroup memory (Metal: 32 KB; CUDA allows 48 KB, and up to
 * sharedMemPerBlockOptin with cudaFuncAttributeMaxDynamicSharedMemorySize)
 * runs the kernel's variant whose shared memory is in device memory
 * (module.c core_kernel_prepare_sd): one slice per block of the grid,
 * allocated for the launch and freed when it completes.  A grid of more
 * than mtl_submission_groups() threadgroups runs as pieces, each its own
 * command buffer (the GPU watchdog; see "Long grids" below).
 *
 * Cooperative launches (cuLaunchCooperativeKernel).  NVIDIA's
 * cooperative_groups::this_grid() reads the grid workspace's address from
 * %envreg1:%envreg2 (0 on an ordinary launch: is_valid() is false and
 * grid.sync() traps), and grid.sync() is a block-level barrier, one atomic
 * add per block on the 32-bit word at workspace + 4 (block 0 adds
 * 0x80000001 - nblocks, the others 1, so the word's top bit flips once all
 * arrived) and a spin on ld.acquire until the top bit differs from what the
 * block's add saw (nvcc 13.0's output, cg/details/sync.h).  The spin only
 * ends if every block of the grid is running, so a cooperative grid may
 * have at most the blocks that fit at once: occupancy (function.c) times
 * the multiprocessors, else CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE as on
 * NVIDIA; the dispatch is co-resident (mtl.h).  The workspace is 16 zeroed
 * bytes per launch (the counter must start with its low 31 bits clear),
 * freed when the launch completes.  An ordinary launch gets a workspace
 * too, the context's (16 bytes after its trap flag): NVIDIA's driver 580
 * gives every launch one, so grid.is_valid() is true there (an H200,
 * tests/cuda/coop_grid.cu), and grid.sync() then works when the blocks
 * happen to be co-resident, as on NVIDIA.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(launch);

/* The dynamic shared memory a launch asks for against the kernel's
 * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (function.c): more is
 * "invalid argument", as on NVIDIA's driver. */
static int check_dynamic_shared(core_kernel *k, const core_launch_config *cfg)
{
   uint32_t max = core_kernel_max_dynamic_shared(k);
   if (cfg->shared_bytes <= max)
      return CORE_SUCCESS;
   LOG_WARN("kernel %s: %u bytes of dynamic shared memory exceed its maximum of %u "
            "(cudaFuncAttributeMaxDynamicSharedMemorySize)", k->name, cfg->shared_bytes, max);
   return CORE_ERROR_INVALID_VALUE;
}

/* *tg_bytes: the threadgroup memory to set; *slice: 0, or the bytes of
 * each block's slice of device memory when its shared memory does not fit
 * in threadgroup memory (or the kernel's static part alone does not). */
static int check_config(const core_kernel *k, const core_launch_config *cfg, uint32_t *tg_bytes, uint32_t *slice)
{
   const mtl_device_info *info = core_device_info(k->module->ctx->dev);
   uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
   for (int d = 0; d < 3; d++)
      if (!cfg->grid[d] || !cfg->block[d])
         return CORE_ERROR_INVALID_VALUE;
   if (cfg->block[0] > 1024 || cfg->block[1] > 1024 || cfg->block[2] > 64 || cfg->grid[1] > 65535 ||
       cfg->grid[2] > 65535 || cfg->grid[0] > 0x7fffffffu)
      return CORE_ERROR_INVALID_VALUE;
   /* Two limits, two errors, as CUDA has them: more threads than the
    * kernel's __launch_bounds__ (.maxntid/.reqntid) is "invalid argument"
    * (observed on an H200, tests/cuda/launch_errors.cu); more than the
    * compiled kernel can run (CUDA: its registers; Metal: the pipeline's
    * maxTotalThreadsPerThreadgroup, which can be below 1024) is "too many
    * resources requested for launch".  cudaFuncGetAttributes reports the
    * smaller of the two (function.c). */
   uint32_t max_threads = core_kernel_max_threads(k), pipeline = mtl_pipeline_max_total_threads(k->pipeline);
   if (threads > max_threads) {
      /* above the device's maxThreadsPerBlock: invalid, whatever the kernel */
      bool bounds = max_threads < pipeline || threads > info->max_threads_per_threadgroup;
      LOG_WARN("kernel %s: %llu threads per block exceed its limit of %u (%s)", k->name,
               (unsigned long long)threads, max_threads,
               bounds ? "__launch_bounds__" : "the Metal pipeline's maxTotalThreadsPerThreadgroup");
      return bounds ? CORE_ERROR_INVALID_VALUE : CORE_ERROR_LAUNCH_OUT_OF_RESOURCES;
   }
   const mc_kernel_info *ki = &k->info;
   /* The dynamic size counts against the limit even when the kernel does
    * not use it, as on NVIDIA hardware. */
   uint64_t shared = (uint64_t)MC_MAX(ki->shared_static_bytes, ki->shared_dynamic_offset) + cfg->shared_bytes;
   shared = ALIGN_UP(shared, MTL_THREADGROUP_MEMORY_ALIGN);
   core_sm_model m;
   core_device_sm_model(k->module->ctx->dev, &m);
   if (shared > m.shared_per_block_optin) {
      LOG_WARN("kernel %s needs %llu bytes of shared memory; a block may have %u (sharedMemPerBlockOptin)", k->name,
               (unsigned long long)shared, m.shared_per_block_optin);
      return CORE_ERROR_INVALID_VALUE;
   }
   *slice = 0;
   if (k->shared_in_device || shared > info->max_threadgroup_memory) {
      *slice = (uint32_t)ALIGN_UP(shared, 256);   /* whole cache lines: blocks share none */
      *tg_bytes = 0;
      return CORE_SUCCESS;
   }
   if (!ki->shared_static_bytes && !ki->uses_dynamic_shared)
      shared = 0;   /* the kernel declares no threadgroup buffer to size */
   else if (shared == 0)
      shared = MTL_THREADGROUP_MEMORY_ALIGN;
   *tg_bytes = (uint32_t)shared;
   return CORE_SUCCESS;
}

static int build_params(const core_kernel *k, const core_launch_config *cfg, uint8_t *blob)
{
   const mc_kernel_info *ki = &k->info;
   if (cfg->arg_blob) {
      if (cfg->arg_blob_size < ki->param_bytes)
         return CORE_ERROR_INVALID_VALUE;
      memcpy(blob, cfg->arg_blob, ki->param_bytes);
      return CORE_SUCCESS;
   }
   if (ki->nparams && !cfg->args)
      return CORE_ERROR_INVALID_VALUE;
   for (uint32_t p = 0; p < ki->nparams; p++) {
      if (!cfg->args[p])
         return CORE_ERROR_INVALID_VALUE;
      memcpy(blob + ki->params[p].offset, cfg->args[p], ki->params[p].size);
   }
   return CORE_SUCCESS;
}

/* Device memory a launch needs until it completes: a parameter blob over
 * Metal's setBytes limit, the blocks' shared memory slices (0: none). */
typedef struct launch_scratch {
   core_device *dev;
   uint64_t ptr[3];             /* big parameters, shared memory slices, grid workspace */
} launch_scratch;

static void free_scratch(mtl_cmdbuf *cb, void *data)
{
   (void)cb;
   launch_scratch *ls = data;
   for (int k = 0; k < 3; k++)
      if (ls->ptr[k])
         core_mem_free_internal(ls->dev, ls->ptr[k]);
   free(ls);
}

/* The slices of a launch whose shared memory is in device memory: one per
 * block, in linear block order (the kernel indexes them so, emit.c). */
static int alloc_slices(const core_kernel *k, const core_launch_config *cfg, uint32_t slice, launch_scratch *ls)
{
   uint64_t blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
   if (blocks > UINT64_MAX / slice ||
       core_mem_alloc_internal(ls->dev, (size_t)(blocks * slice), &ls->ptr[1]) != CORE_SUCCESS) {
      LOG_ERR("kernel %s: %llu blocks need %u bytes of shared memory each, more than Metal's threadgroup memory; "
              "there is no room for them in device memory", k->name, (unsigned long long)blocks, slice);
      return CORE_ERROR_LAUNCH_OUT_OF_RESOURCES;
   }
   return CORE_SUCCESS;
}

static mtl_cmdbuf *new_cmdbuf(core_stream *s)
{
   char *err = NULL;
   mtl_cmdbuf *cb = mtl_cmdbuf_new(s->queue, &err);
   if (!cb)
      LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
   free(err);
   return cb;
}

/* Long grids (issue 15, finding 11).  The GPU watchdog of a Mac stops a
 * Metal command buffer after about 5 s, so a grid of more threadgroups
 * than mtl_submission_groups() runs as pieces, each its own command
 * buffer, one after another on the stream.  CUDA allows it: the blocks of
 * a grid have no order and no grid-wide synchronisation (a cooperative
 * launch, whose blocks wait for each other, is never split), and a block that waits for an
 * earlier block (a decoupled look-back) still finds it done.  A piece is a
 * box of consecutive threadgroups in linear order (x fastest): whole
 * z-planes, else whole rows of one plane, else part of one row; the kernel
 * adds the piece's base to threadgroup_position_in_grid and reads the
 * grid's size from the launch block (msl/emit.c), so blockIdx, gridDim and
 * the linear block order of shared-memory slices are those of the grid. */
typedef struct piece {
   uint32_t base[3], size[3];
} piece;

/* Threadgroups per piece: the limit, raised so no grid makes more than
 * 65536 pieces; 0: one piece. */
static uint64_t split_size(const uint32_t grid[3])
{
   uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2], p = mtl_submission_groups();
   if (!p || total <= p)
      return 0;
   return MC_MAX(p, (total + 65535) / 65536);
}

/* The piece at *at, advancing it; false when the grid is done. */
static bool next_piece(const uint32_t g[3], uint64_t p, uint32_t at[3], piece *out)
{
   if (at[2] >= g[2])
      return false;
   uint64_t plane = (uint64_t)g[0] * g[1];
   *out = (piece){ { at[0], at[1], at[2] }, { g[0], g[1], g[2] - at[2] } };
   if (!p) {
      at[2] = g[2];
   } else if (plane <= p) {
      out->size[2] = (uint32_t)MC_MIN(p / plane, (uint64_t)(g[2] - at[2]));
      at[2] += out->size[2];
   } else if (g[0] <= p) {
      out->size[1] = (uint32_t)MC_MIN(p / g[0], (uint64_t)(g[1] - at[1]));
      out->size[2] = 1;
      if ((at[1] += out->size[1]) == g[1])
         at[1] = 0, at[2]++;
   } else {
      out->size[0] = (uint32_t)MC_MIN(p, (uint64_t)(g[0] - at[0]));
      out->size[1] = out->size[2] = 1;
      if ((at[0] += out->size[0]) == g[0] && (at[0] = 0, ++at[1] == g[1]))
         at[1] = 0, at[2]++;
   }
   return true;
}

/* What every piece's dispatch binds. */
typedef struct encode_args {
   mtl_pipeline *pipeline;
   core_device *dev;          /* its device memory's chunks are declared */
   uint64_t big_params;       /* CUDA address of a parameter blob over 4 KB (0: setBytes) */
   const uint8_t *blob;
   uint32_t param_bytes;
   uint32_t tg_bytes;
   mtl_size block;
   bool coresident;           /* a cooperative grid: every threadgroup running at once (mtl.h) */
} encode_args;

static void encode_piece(mtl_cmdbuf *cb, const encode_args *a, mc_launch *lb, const piece *pc)
{
   lb->base_x = pc->base[0], lb->base_y = pc->base[1], lb->base_z = pc->base[2];
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, a->pipeline);
   size_t off;
   mtl_buffer *big = a->big_params ? core_arena_chunk(a->dev, a->big_params, &off) : NULL;
   if (big)
      mtl_encoder_set_buffer(e, big, off, 0);
   else
      mtl_encoder_set_bytes(e, a->blob, a->param_bytes, 0);
   mtl_encoder_set_bytes(e, lb, sizeof(*lb), 1);   /* copied now */
   if (a->tg_bytes)
      mtl_encoder_set_threadgroup_memory_length(e, a->tg_bytes, 0);
   core_arena_use(a->dev, e);
   mtl_size grid = { pc->size[0], pc->size[1], pc->size[2] };
   if (a->coresident)
      mtl_encoder_dispatch_threadgroups_coresident(e, grid, a->block);
   else
      mtl_encoder_dispatch_threadgroups(e, grid, a->block);
   mtl_encoder_end(e);
}

int core_launch_check(core_kernel *k, const core_launch_config *cfg, bool *batch, uint32_t *tg_bytes)
{
   int r = core_kernel_prepare(k);
   if (r != CORE_SUCCESS)
      return r;
   uint32_t slice;
   if ((r = check_config(k, cfg, tg_bytes, &slice)) != CORE_SUCCESS ||
       (r = check_dynamic_shared(k, cfg)) != CORE_SUCCESS)
      return r;
   mtl_pipeline *pipeline = k->pipeline;
   if ((r = core_kernel_prepare_stack(k, &pipeline)) != CORE_SUCCESS)
      return r;
   /* Into the graph's one command buffer only what core_launch would
    * encode as one plain dispatch: no shared-memory slices, no stack
    * variant, no printf buffer, a grid that needs no splitting. */
   *batch = !slice && pipeline == k->pipeline && !split_size(cfg->grid) &&
            k->info.param_bytes <= MTL_MAX_SET_BYTES && !k->info.uses_printf && !k->module->devrt;
   return CORE_SUCCESS;
}

void core_launch_block_base(core_ctx *c, mc_launch *lb)
{
   *lb = (mc_launch){ 0 };
   core_arena_launch(c->dev, lb);
   lb->status = core_arena_gpu(c->dev, c->status_word);
   lb->atom_locks = core_arena_gpu(c->dev, c->atom_locks);
   const mtl_device_info *di = core_device_info(c->dev);
   lb->nsm = di->compute_units ? di->compute_units : 1;
   lb->time_base = time_ns();
   lb->grid_ws = c->status_word + 16;   /* the context's workspace (an ordinary launch) */
}

/* The launch block of a launch of k in context c. */
static int launch_block(core_kernel *k, core_ctx *c, const core_launch_config *cfg, mc_launch *lb)
{
   core_launch_block_base(c, lb);
   lb->grid_x = cfg->grid[0], lb->grid_y = cfg->grid[1], lb->grid_z = cfg->grid[2];
   lb->globals = k->module->data;
   lb->gridid = __atomic_add_fetch(&c->launches, 1, __ATOMIC_RELAXED);
   if (k->info.uses_malloc)
      return core_ctx_heap(c, &lb->heap, &lb->heap_size);
   return CORE_SUCCESS;
}

int core_launch_encode(core_kernel *k, const core_launch_config *cfg, uint32_t tg_bytes, const void *params,
                       mc_launch *lb, mtl_encoder *e, bool first)
{
   core_ctx *c = k->module->ctx;
   /* what differs between the kernels of one graph launch */
   lb->globals = k->module->data;
   lb->gridid = __atomic_add_fetch(&c->launches, 1, __ATOMIC_RELAXED);
   lb->heap = lb->heap_size = 0;
   /* a graph's kernel runs whole: one dispatch, no base (see next_piece) */
   lb->base_x = lb->base_y = lb->base_z = 0;
   lb->grid_x = cfg->grid[0], lb->grid_y = cfg->grid[1], lb->grid_z = cfg->grid[2];
   if (k->info.uses_malloc) {
      int r = core_ctx_heap(c, &lb->heap, &lb->heap_size);
      if (r != CORE_SUCCESS)
         return r;
   }
   mtl_encoder_set_pipeline(e, k->pipeline);
   mtl_encoder_set_bytes(e, params, k->info.param_bytes ? k->info.param_bytes : 4, 0);
   mtl_encoder_set_bytes(e, lb, sizeof(*lb), 1);
   mtl_encoder_set_threadgroup_memory_length(e, tg_bytes, 0);
   if (first)
      core_arena_use(c->dev, e);
   mtl_size grid = { cfg->grid[0], cfg->grid[1], cfg->grid[2] };
   mtl_size block = { cfg->block[0], cfg->block[1], cfg->block[2] };
   mtl_encoder_dispatch_threadgroups(e, grid, block);
   return CORE_SUCCESS;
}

/* A launch on a capturing stream becomes a kernel node. */
static int capture_launch(core_kernel *k, const core_launch_config *cfg)
{
   if (cfg->cooperative) {
      LOG_WARN("kernel %s: a cooperative launch into a stream capture (a cooperative kernel node) is not supported",
               k->name);
      return CORE_ERROR_NOT_SUPPORTED;
   }
   core_node_params p = { .type = CORE_NODE_KERNEL };
   p.kernel.k = k;
   memcpy(p.kernel.grid, cfg->grid, sizeof(p.kernel.grid));
   memcpy(p.kernel.block, cfg->block, sizeof(p.kernel.block));
   p.kernel.shared = cfg->shared_bytes;
   p.kernel.args = cfg->args;
   p.kernel.blob = cfg->arg_blob;
   p.kernel.blob_size = cfg->arg_blob_size;
   return core_capture_add(cfg->stream, &p);
}

/* A cooperative grid must fit on the device at once (the comment above). */
static int check_cooperative(core_kernel *k, const core_launch_config *cfg)
{
   uint64_t max, blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
   int r = core_cooperative_max_blocks(k, (int)(cfg->block[0] * cfg->block[1] * cfg->block[2]), cfg->shared_bytes,
                                       &max);
   if (r != CORE_SUCCESS)
      return r;
   if (blocks <= max)
      return CORE_SUCCESS;
   LOG_WARN("kernel %s: a cooperative launch of %llu blocks; %llu blocks of this size fit on the device at once",
            k->name, (unsigned long long)blocks, (unsigned long long)max);
   return CORE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
}

static int launch_now(core_kernel *k, const core_launch_config *cfg);

int core_launch(core_kernel *k, const core_launch_config *cfg)
{
   if (cfg->stream && cfg->stream->cap)
      return capture_launch(k, cfg);
   /* a kernel that may launch kernels: they are launched after it (devrt.c) */
   if (k->module->devrt)
      return core_devrt_launch(k, cfg, launch_now);
   return launch_now(k, cfg);
}

static int launch_now(core_kernel *k, const core_launch_config *cfg)
{
   int r = core_kernel_prepare(k);
   if (r != CORE_SUCCESS)
      return r;
   core_ctx *c = k->module->ctx;
   if (!core_check_ctx(c))   /* a library's context reset and not retained again */
      return CORE_ERROR_INVALID_CONTEXT;
   if ((r = core_ctx_error(c)) != CORE_SUCCESS)
      return r;
   uint32_t tg_bytes, slice;
   if ((r = check_config(k, cfg, &tg_bytes, &slice)) != CORE_SUCCESS ||
       (r = check_dynamic_shared(k, cfg)) != CORE_SUCCESS ||
       (cfg->cooperative && (r = check_cooperative(k, cfg)) != CORE_SUCCESS))
      return r;
   mtl_pipeline *pipeline = k->pipeline;
   if ((slice && (r = core_kernel_prepare_sd(k, &pipeline)) != CORE_SUCCESS) ||
       (r = core_kernel_prepare_stack(k, &pipeline)) != CORE_SUCCESS)
      return r;
   if ((uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2] > mtl_pipeline_max_total_threads(pipeline))
      return CORE_ERROR_LAUNCH_OUT_OF_RESOURCES;   /* the variant may allow fewer threads (check_config) */
   const mc_kernel_info *ki = &k->info;
   uint8_t small[MTL_MAX_SET_BYTES];
   bool big = ki->param_bytes > sizeof(small);
   launch_scratch *ls = NULL;
   uint8_t *blob = small;
   if (big || slice || cfg->cooperative) {
      ls = mc_calloc(1, sizeof(*ls));
      if (!ls)
         return CORE_ERROR_OUT_OF_MEMORY;
      ls->dev = c->dev;
   }
   if (big) {
      if ((r = core_mem_alloc_internal(c->dev, ki->param_bytes, &ls->ptr[0])) != CORE_SUCCESS)
         goto fail;
      blob = (uint8_t *)(uintptr_t)ls->ptr[0];
   }
   if (cfg->cooperative) {
      if ((r = core_mem_alloc_internal(c->dev, 16, &ls->ptr[2])) != CORE_SUCCESS)
         goto fail;
      memset((void *)(uintptr_t)ls->ptr[2], 0, 16);   /* CUDA address = CPU address */
   }
   if ((slice && (r = alloc_slices(k, cfg, slice, ls)) != CORE_SUCCESS) ||
       (r = build_params(k, cfg, blob)) != CORE_SUCCESS)
      goto fail;
   core_stream *s = cfg->stream ? cfg->stream : c->null_stream;
   if (s->is_null && (r = core_capture_legacy(c)) != CORE_SUCCESS)
      goto fail;
   /* The last piece's buffer first: it carries the handlers that must run
    * after the whole grid (printf, scratch memory). */
   mtl_cmdbuf *last = new_cmdbuf(s);
   if (!last) {
      r = CORE_ERROR_OUT_OF_MEMORY;
      goto fail;
   }
   mc_launch lb;
   if ((r = launch_block(k, c, cfg, &lb)) != CORE_SUCCESS) {
      mtl_cmdbuf_release(last);
      goto fail;
   }
   if (slice) {
      lb.shared_slices = core_arena_gpu(c->dev, ls->ptr[1]);
      lb.shared_stride = slice;
   }
   lb.grid_ws = cfg->cooperative ? ls->ptr[2] : c->status_word + 16;
   /* Last step that can fail: from here on the buffers are tracked until
    * they complete. */
   if ((r = core_printf_launch(c, s, last, ki->uses_printf, &lb)) != CORE_SUCCESS) {
      mtl_cmdbuf_release(last);
      goto fail;
   }
   encode_args ea = { pipeline, c->dev, big ? ls->ptr[0] : 0, blob,
                      ki->param_bytes ? ki->param_bytes : 4, tg_bytes, { cfg->block[0], cfg->block[1], cfg->block[2] },
                      cfg->cooperative };
   uint32_t at[3] = { 0, 0, 0 };
   /* a cooperative grid is never split: its blocks wait for each other */
   uint64_t split = cfg->cooperative ? 0 : split_size(cfg->grid);
   piece pc;
   next_piece(cfg->grid, split, at, &pc);
   for (piece next; next_piece(cfg->grid, split, at, &next); pc = next) {
      mtl_cmdbuf *cb = new_cmdbuf(s);
      if (!cb) {   /* the grid cannot run whole: say so, as a fault would */
         core_ctx_set_sticky(c, CORE_ERROR_OUT_OF_MEMORY, "out of memory splitting a long grid into command buffers");
         break;
      }
      encode_piece(cb, &ea, &lb, &pc);
      core_stream_commit(s, cb, k->name);
   }
   encode_piece(last, &ea, &lb, &pc);
   if (ls)
      mtl_cmdbuf_add_completed_handler(last, free_scratch, ls);
   core_stream_commit(s, last, k->name);
   return CORE_SUCCESS;
fail:
   if (ls)
      free_scratch(NULL, ls);
   return r;
}
