/*
 * function.c — kernel attributes (cuFuncGetAttribute/SetAttribute) and the
 * occupancy calculator (cuOccupancy*).
 *
 * Occupancy follows the multiprocessor model of device.c
 * (core_device_sm_model), the same numbers the device properties report:
 * a block of T threads occupies ceil(T / warp) warps, and the blocks that
 * fit on one multiprocessor are the fewest allowed by
 *   - the blocks per multiprocessor,
 *   - the threads per multiprocessor (whole warps),
 *   - the registers per multiprocessor (numRegs per thread, whole warps),
 *   - the shared memory per multiprocessor (static + dynamic, rounded up
 *     to Metal's 16-byte threadgroup-memory granularity, as launches are,
 *     plus the memory reserved per block, as NVIDIA's calculator counts).
 * A block larger than the kernel's maxThreadsPerBlock, or needing more
 * shared memory than a block may have, cannot launch: 0 blocks.
 *
 * Shared memory of a launch: static first, then dynamic (launch.c).  The
 * dynamic part is limited per kernel by
 * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, by default what is left
 * of CUDA's 48 KB (or the device's smaller limit) after the static part,
 * and settable up to the device's opt-in limit minus the static part, as
 * CUDA has it (values checked on an H200: default 49152 - static, an
 * opt-in above sharedMemPerBlockOptin - static is "invalid argument").
 */
#include "core.h"

LOG_CHANNEL(launch);

enum { OCCUPANCY_DISABLE_CACHING_OVERRIDE = 1 };

/* Bytes of threadgroup memory in front of the dynamic part. */
static uint32_t shared_base(const core_kernel *k)
{
   return MC_MAX(k->info.shared_static_bytes, k->info.shared_dynamic_offset);
}

static void kernel_model(const core_kernel *k, core_sm_model *m) { core_device_sm_model(k->module->ctx->dev, m); }

uint32_t core_kernel_max_threads(const core_kernel *k)
{
   uint64_t max = mtl_pipeline_max_total_threads(k->pipeline);
   const uint32_t *bounds[] = { k->info.maxntid, k->info.reqntid };   /* {0,0,0}: not given */
   for (int i = 0; i < 2; i++)
      if (bounds[i][0])
         max = MC_MIN(max, (uint64_t)bounds[i][0] * bounds[i][1] * bounds[i][2]);
   return (uint32_t)max;
}

uint32_t core_kernel_max_dynamic_shared(core_kernel *k)
{
   int32_t set = __atomic_load_n(&k->max_dynamic_shared, __ATOMIC_ACQUIRE);
   if (set >= 0)
      return (uint32_t)set;
   core_sm_model m;
   kernel_model(k, &m);
   uint32_t base = shared_base(k);
   return m.shared_default_max > base ? m.shared_default_max - base : 0;
}

static int attribute_value(core_kernel *k, int attr, int *v)
{
   const mc_kernel_info *ki = &k->info;
   core_sm_model m;
   kernel_model(k, &m);
   int major, minor;
   core_device_cc(k->module->ctx->dev, &major, &minor);
   switch (attr) {
   case 0: *v = (int)core_kernel_max_threads(k); break;   /* MAX_THREADS_PER_BLOCK */
   case 1: *v = (int)ki->shared_static_bytes; break;                       /* SHARED_SIZE_BYTES */
   case 2: *v = 0; break;   /* CONST_SIZE_BYTES: module constants live with the module's globals */
   case 3: *v = (int)ki->local_bytes; break;                               /* LOCAL_SIZE_BYTES */
   case 4: *v = (int)m.regs_per_thread; break;                             /* NUM_REGS (the model's) */
   case 5: *v = (int)compiler_module_sm(k->module->cm); break;             /* PTX_VERSION */
   case 6: *v = major * 10 + minor; break;   /* BINARY_VERSION: translated for the device we report */
   case 7: *v = 0; break;                                                  /* CACHE_MODE_CA */
   case 8: *v = (int)core_kernel_max_dynamic_shared(k); break;
   case 9: *v = __atomic_load_n(&k->carveout, __ATOMIC_ACQUIRE); break;   /* -1: no preference */
   case 10: case 11: case 12: case 13: case 14: case 15:
      *v = 0;   /* no thread block clusters: none required, none allowed */
      break;
   default: return CORE_ERROR_INVALID_VALUE;
   }
   return CORE_SUCCESS;
}

int core_kernel_get_attribute(core_kernel *k, int attr, int *value)
{
   int r = core_kernel_prepare(k);
   return r == CORE_SUCCESS ? attribute_value(k, attr, value) : r;
}

static int set_max_dynamic_shared(core_kernel *k, int value)
{
   core_sm_model m;
   kernel_model(k, &m);
   if (value < 0 || (uint64_t)shared_base(k) + (uint64_t)value > m.shared_per_block_optin)
      return CORE_ERROR_INVALID_VALUE;
   __atomic_store_n(&k->max_dynamic_shared, value, __ATOMIC_RELEASE);
   return CORE_SUCCESS;
}

/* Cluster attributes: a device of compute capability 7.5 has no thread
 * block clusters; "no requirement" (0) is what every kernel already has. */
static int set_cluster_attribute(int attr, int value)
{
   if (attr == 15 && (value < 0 || value > 2))
      return CORE_ERROR_INVALID_VALUE;
   if (value == 0)
      return CORE_SUCCESS;
   LOG_WARN("function attribute %d = %d: thread block clusters are not supported", attr, value);
   return CORE_ERROR_NOT_SUPPORTED;
}

int core_kernel_set_attribute(core_kernel *k, int attr, int value)
{
   int r = core_kernel_prepare(k);
   if (r != CORE_SUCCESS)
      return r;
   switch (attr) {
   case 8: return set_max_dynamic_shared(k, value);
   case 9:
      /* A carveout preference (percent of the unified cache): kept and
       * read back; Metal's threadgroup memory is a fixed size. */
      if (value < -1 || value > 100)
         return CORE_ERROR_INVALID_VALUE;
      __atomic_store_n(&k->carveout, value, __ATOMIC_RELEASE);
      return CORE_SUCCESS;
   case 11: case 12: case 13: case 14: case 15: return set_cluster_attribute(attr, value);
   default: return CORE_ERROR_INVALID_VALUE;   /* read-only or unknown (NVIDIA: invalid value) */
   }
}

/* A preference CUDA may ignore (it does where the L1/shared split is
 * fixed, as Metal's is): checked and kept, no effect. */
int core_kernel_set_cache_config(core_kernel *k, int config)
{
   if (config < 0 || config > 3)
      return CORE_ERROR_INVALID_VALUE;
   __atomic_store_n(&k->cache_config, config, __ATOMIC_RELEASE);
   return CORE_SUCCESS;
}

bool core_kernel_is_loaded(core_kernel *k)
{
   pthread_mutex_lock(&k->lock);
   bool loaded = k->translated && k->error == CORE_SUCCESS;
   pthread_mutex_unlock(&k->lock);
   return loaded;
}

/* Blocks per multiprocessor under the model (prepared kernel). */
static int blocks_per_sm(core_kernel *k, const core_sm_model *m, int block_size, size_t dyn)
{
   if ((uint32_t)block_size > core_kernel_max_threads(k) || dyn > m->shared_per_block_optin)
      return 0;
   uint32_t threads = ALIGN_UP((uint32_t)block_size, m->warp);
   uint64_t regs = (uint64_t)threads * m->regs_per_thread;
   uint64_t shared = (uint64_t)shared_base(k) + dyn;
   if (shared)
      shared = ALIGN_UP(shared, MTL_THREADGROUP_MEMORY_ALIGN);
   if (regs > m->regs_per_block || shared > m->shared_per_block_optin)
      return 0;
   uint64_t n = m->blocks_per_sm;
   n = MC_MIN(n, m->threads_per_sm / threads);
   if (regs)
      n = MC_MIN(n, m->regs_per_sm / regs);
   if (shared)
      n = MC_MIN(n, m->shared_per_sm / (shared + m->shared_reserved));
   return (int)n;
}

/* The kernel translated (its limits known) and its device's model. */
static int prepared_model(core_kernel *k, core_sm_model *m)
{
   int r = core_kernel_prepare(k);
   if (r == CORE_SUCCESS)
      kernel_model(k, m);
   return r;
}

int core_occupancy_blocks(core_kernel *k, int block_size, size_t dyn_shared, unsigned flags, int *blocks)
{
   if (flags & ~(unsigned)OCCUPANCY_DISABLE_CACHING_OVERRIDE || block_size <= 0)
      return CORE_ERROR_INVALID_VALUE;
   core_sm_model m;
   int r = prepared_model(k, &m);
   if (r != CORE_SUCCESS)
      return r;
   *blocks = blocks_per_sm(k, &m, block_size, dyn_shared);
   return CORE_SUCCESS;
}

int core_occupancy_dynamic_shared(core_kernel *k, int nblocks, int block_size, size_t *bytes)
{
   core_sm_model m;
   int r = prepared_model(k, &m);
   if (r != CORE_SUCCESS)
      return r;
   if (nblocks <= 0 || block_size <= 0 || (uint32_t)block_size > m.threads_per_block ||
       (uint32_t)nblocks > m.blocks_per_sm ||
       (uint64_t)nblocks * ALIGN_UP((uint32_t)block_size, m.warp) > m.threads_per_sm)
      return CORE_ERROR_INVALID_VALUE;   /* that many blocks never fit (NVIDIA: invalid value) */
   uint32_t per_sm_block = m.shared_per_sm / (uint32_t)nblocks;
   per_sm_block = per_sm_block > m.shared_reserved ? per_sm_block - m.shared_reserved : 0;
   uint32_t per_block = MC_MIN(per_sm_block, m.shared_per_block_optin);
   per_block &= ~(uint32_t)(MTL_THREADGROUP_MEMORY_ALIGN - 1);
   uint32_t base = shared_base(k);
   *bytes = per_block > base ? per_block - base : 0;
   return CORE_SUCCESS;
}

int core_cooperative_max_blocks(core_kernel *k, int block_size, size_t dyn_shared, uint64_t *blocks)
{
   core_sm_model m;
   int r = prepared_model(k, &m);
   if (r == CORE_SUCCESS)
      *blocks = (uint64_t)blocks_per_sm(k, &m, block_size, dyn_shared) * m.sm_count;
   return r;
}

/* cuda_runtime.h's cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags,
 * the same search: every multiple of the warp size from the largest block
 * down, keeping the first with the most resident threads. */
int core_occupancy_best_block(core_kernel *k, size_t (*dyn_of)(int), size_t dyn_bytes, int limit, unsigned flags,
                              int *min_grid, int *block_size)
{
   if (flags & ~(unsigned)OCCUPANCY_DISABLE_CACHING_OVERRIDE)
      return CORE_ERROR_INVALID_VALUE;
   core_sm_model m;
   int r = prepared_model(k, &m);
   if (r != CORE_SUCCESS)
      return r;
   int max = (int)MC_MIN(m.threads_per_block, core_kernel_max_threads(k));
   if (limit > 0 && limit < max)
      max = limit;
   int warp = (int)m.warp, best = 0, best_blocks = 0, best_threads = 0;
   for (int aligned = (max + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
      int try_size = MC_MIN(max, aligned);
      int n = blocks_per_sm(k, &m, try_size, dyn_of ? dyn_of(try_size) : dyn_bytes);
      if (n * try_size > best_threads) {
         best = try_size;
         best_blocks = n;
         best_threads = n * try_size;
      }
      if (best_threads == (int)m.threads_per_sm)
         break;
   }
   *min_grid = best_blocks * (int)m.sm_count;
   *block_size = best;
   return CORE_SUCCESS;
}
