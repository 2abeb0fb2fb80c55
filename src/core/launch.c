/*
 * launch.c — kernel launches.
 *
 * The parameter blob is laid out exactly like the PTX .param space
 * (ARCHITECTURE §3), from the kernel's parameter offsets: one setBytes, no
 * per-pointer bindings, so no 31-argument limit and no guessing which
 * parameter is a pointer.  Blobs over Metal's 4 KB setBytes limit go
 * through device memory freed when the command buffer completes.  The
 * launch block gives the kernel the arena's CPU→GPU delta, the module's
 * globals, the trap flag, the printf FIFO (printf.c) and the values of
 * %nsmid, %gridid and the clock base.  Static and dynamic shared memory are one
 * threadgroup buffer (static first); a block that needs more than the
 * device's threadgroup memory (Metal: 32 KB; CUDA allows 48 KB, and up to
 * sharedMemPerBlockOptin with cudaFuncAttributeMaxDynamicSharedMemorySize)
 * runs the kernel's variant whose shared memory is in device memory
 * (module.c core_kernel_prepare_sd): one slice per block of the grid,
 * allocated for the launch and freed when it completes.
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

int core_launch(core_kernel *k, const core_launch_config *cfg)
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
   if (slice && (r = core_kernel_prepare_sd(k, &pipeline)) != CORE_SUCCESS)
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
   char *err = NULL;
   mtl_cmdbuf *cb = mtl_cmdbuf_new(s->queue, &err);
   if (!cb) {
      LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
      free(err);
      r = CORE_ERROR_OUT_OF_MEMORY;
      goto fail;
   }
   mtl_buffer *arena = core_arena_buffer(c->dev);
   mc_launch lb = { 0 };
   lb.delta = core_arena_delta(c->dev);
   lb.globals = k->module->data;
   lb.status = c->status_word + lb.delta;
   lb.atom_locks = c->atom_locks + lb.delta;
   const mtl_device_info *di = core_device_info(c->dev);
   lb.nsm = di->compute_units ? di->compute_units : 1;
   lb.gridid = __atomic_add_fetch(&c->launches, 1, __ATOMIC_RELAXED);
   lb.time_base = time_ns();
   lb.amem = core_arena_base(c->dev);
   lb.gmem = lb.amem + lb.delta;
   if (slice) {
      lb.shared_slices = ls->ptr[1] + lb.delta;
      lb.shared_stride = slice;
   }
   lb.grid_ws = cfg->cooperative ? ls->ptr[2] : c->status_word + 16;
   if (ki->uses_malloc && (r = core_ctx_heap(c, &lb.heap, &lb.heap_size)) != CORE_SUCCESS) {
      mtl_cmdbuf_release(cb);
      goto fail;
   }
   /* Last step that can fail: from here on cb is tracked until it completes. */
   if ((r = core_printf_launch(c, s, cb, ki->uses_printf, &lb)) != CORE_SUCCESS) {
      mtl_cmdbuf_release(cb);
      goto fail;
   }
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, pipeline);
   if (big)
      mtl_encoder_set_buffer(e, arena, (size_t)(ls->ptr[0] - (uint64_t)(uintptr_t)mtl_buffer_contents(arena)), 0);
   else
      mtl_encoder_set_bytes(e, blob, ki->param_bytes ? ki->param_bytes : 4, 0);
   mtl_encoder_set_bytes(e, &lb, sizeof(lb), 1);
   if (tg_bytes)
      mtl_encoder_set_threadgroup_memory_length(e, tg_bytes, 0);
   mtl_encoder_use_resource(e, arena);
   mtl_size grid = { cfg->grid[0], cfg->grid[1], cfg->grid[2] };
   mtl_size block = { cfg->block[0], cfg->block[1], cfg->block[2] };
   if (cfg->cooperative)
      mtl_encoder_dispatch_threadgroups_coresident(e, grid, block);
   else
      mtl_encoder_dispatch_threadgroups(e, grid, block);
   mtl_encoder_end(e);
   if (ls)
      mtl_cmdbuf_add_completed_handler(cb, free_scratch, ls);
   core_stream_commit(s, cb, k->name);
   return CORE_SUCCESS;
fail:
   if (ls)
      free_scratch(NULL, ls);
   return r;
}
