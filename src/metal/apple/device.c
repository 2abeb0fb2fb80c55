/*
 * device.c — the Apple GPUs: enumeration, their facts, the backend table.
 *
 * Only GPUs of the Metal 3 family are listed: the runtime hands kernels
 * raw buffer addresses (MTLBuffer.gpuAddress, Metal 3), and every
 * Apple-silicon Mac and the last Intel-Mac GPUs are Metal 3.  The system
 * default GPU comes first.
 */
#include "apple.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(apple);

const mtl_backend apple_backend = {
   .name = "apple",
   .buffer_new = apple_buffer_new,
   .buffer_new_at = apple_buffer_new_at,
   .buffer_contents = apple_buffer_contents,
   .buffer_gpu_address = apple_buffer_gpu_address,
   .buffer_length = apple_buffer_length,
   .buffer_set_gpu_access = apple_buffer_set_gpu_access,
   .buffer_release = apple_buffer_release,
   .library_new = apple_library_new,
   .library_release = apple_library_release,
   .function_new = apple_function_new,
   .function_release = apple_function_release,
   .pipeline_new = apple_pipeline_new,
   .pipeline_release = apple_pipeline_release,
   .pipeline_max_total_threads = apple_pipeline_max_total_threads,
   .pipeline_thread_execution_width = apple_pipeline_thread_execution_width,
   .pipeline_static_threadgroup_memory = apple_pipeline_static_threadgroup_memory,
   .queue_new = apple_queue_new,
   .queue_release = apple_queue_release,
   .queue_stats = apple_queue_stats,
   .cmdbuf_new = apple_cmdbuf_new,
   .cmdbuf_release = apple_cmdbuf_release,
   .cmdbuf_add_completed_handler = apple_cmdbuf_add_completed_handler,
   .cmdbuf_encode_signal_event = apple_cmdbuf_encode_signal_event,
   .cmdbuf_encode_wait_event = apple_cmdbuf_encode_wait_event,
   .cmdbuf_commit = apple_cmdbuf_commit,
   .cmdbuf_wait_until_completed = apple_cmdbuf_wait_until_completed,
   .cmdbuf_get_status = apple_cmdbuf_get_status,
   .cmdbuf_error = apple_cmdbuf_error,
   .cmdbuf_failure = apple_cmdbuf_failure,
   .cmdbuf_fault_address = apple_cmdbuf_fault_address,
   .cmdbuf_gpu_start_time = apple_cmdbuf_gpu_start_time,
   .cmdbuf_gpu_end_time = apple_cmdbuf_gpu_end_time,
   .cmdbuf_compute_encoder = apple_cmdbuf_compute_encoder,
   .encoder_set_pipeline = apple_encoder_set_pipeline,
   .encoder_set_bytes = apple_encoder_set_bytes,
   .encoder_set_buffer = apple_encoder_set_buffer,
   .encoder_set_threadgroup_memory_length = apple_encoder_set_threadgroup_memory_length,
   .encoder_use_resource = apple_encoder_use_resource,
   .encoder_dispatch_threadgroups = apple_encoder_dispatch_threadgroups,
   /* Co-resident when the grid fits the GPU at once: the runtime sizes it
    * so (docs/mac-checklist.md, cooperative launch). */
   .encoder_dispatch_coresident = apple_encoder_dispatch_threadgroups,
   .encoder_memory_barrier = apple_encoder_memory_barrier,
   .encoder_end = apple_encoder_end,
   .cmdbuf_blit_encoder = apple_cmdbuf_blit_encoder,
   .blit_copy = apple_blit_copy,
   .blit_fill = apple_blit_fill,
   .blit_end = apple_blit_end,
   .event_new = apple_event_new,
   .event_release = apple_event_release,
   .event_signaled_value = apple_event_signaled_value,
   .event_set_signaled_value = apple_event_set_signaled_value,
   .event_wait = apple_event_wait,
};

/* Whether this system's Metal compiles MSL 3.2 (MTL_MSL_VERSION, the one
 * version metalcuda emits: mtl.h says why).  Asked of the Metal framework
 * itself, not of the OS version: a program built with an SDK older than
 * macOS 26's is told macOS 26 is "16.0", and a version number says nothing
 * of what a framework has.  MSL 3.2 came with macOS 15's Metal, which is
 * also the first to have MTLResidencySetDescriptor and the math-mode
 * compile options (setMathMode:); both present means the 3.2 compiler is
 * there.  (Looked up through the runtime, so the SDK the library was built
 * with does not matter.)  Checked on a Mac: docs/mac-checklist.md. */
static bool metal_has_msl_3_2(void)
{
   if (!objc_getClass("MTLResidencySetDescriptor"))
      return false;
   id co = apple_id(apple_id(apple_cls.MTLCompileOptions, apple_sel.alloc), apple_sel.init);
   bool ok = co && apple_responds(co, apple_sel.setMathMode);
   apple_release(co);
   return ok;
}

static void fill_info(id d, mtl_device_info *i, uint32_t msl)
{
   char *name = apple_string_copy(apple_id(d, apple_sel.name));
   snprintf(i->name, sizeof(i->name), "%s", name ? name : "Apple GPU");
   free(name);
   apple_mtl_size tpg = apple_size(d, apple_sel.maxThreadsPerThreadgroup);
   i->is_software = false;
   i->has_unified_memory = apple_bool(d, apple_sel.hasUnifiedMemory);
   i->reaches_host_memory = false;   /* newBufferWithBytesNoCopy per registered range: not done yet */
   i->max_threads_per_threadgroup = (uint32_t)MC_MIN(tpg.width, MTL_MAX_THREADS_PER_THREADGROUP);
   i->max_threadgroup_memory = (uint32_t)MC_MIN(apple_uint(d, apple_sel.maxThreadgroupMemoryLength),
                                                (NSUInteger)MTL_MAX_THREADGROUP_MEMORY);
   i->simd_width = 32;                 /* every Apple GPU; pipelines say so too */
   i->max_buffer_length = apple_uint(d, apple_sel.maxBufferLength);
   i->recommended_working_set = apple_u64(d, apple_sel.recommendedMaxWorkingSetSize);
   i->compute_units = 0;               /* GPU cores: only through IOKit */
   i->clock_khz = 0;
   i->registry_id = apple_u64(d, apple_sel.registryID);
   i->msl_version = msl;
}

/* Metal 3 family: MTLBuffer.gpuAddress exists (macOS 13) and the GPU can
 * take raw addresses.  supportsFamily: itself is macOS 10.15. */
static bool usable(id d)
{
   return APPLE_SEND(BOOL (*)(id, SEL, NSInteger), d, apple_sel.supportsFamily,
                     APPLE_GPU_FAMILY_METAL3);
}

/* Adds device d (retained here) unless it is listed already. */
static uint32_t add_device(id d, mtl_device **out, uint32_t n, uint32_t max, uint32_t msl)
{
   if (!d || n >= max)
      return n;
   uint64_t reg = apple_u64(d, apple_sel.registryID);
   for (uint32_t k = 0; k < n; k++)
      if (out[k]->info.registry_id == reg)
         return n;
   if (!usable(d)) {
      LOG_INFO("skipping a GPU without Metal 3 (raw GPU addresses)");
      return n;
   }
   mtl_device *dev = mc_calloc(1, sizeof(*dev));
   if (!dev)
      return n;
   dev->obj = (mtl_obj){MTL_MAGIC_DEVICE, dev};
   dev->be = &apple_backend;
   dev->impl = apple_retain(d);
   fill_info(d, &dev->info, msl);
   LOG_INFO("Apple GPU %s, MSL %u.%u", dev->info.name, msl / 100, msl / 10 % 10);
   out[n] = dev;
   return n + 1;
}

uint32_t apple_enumerate(mtl_device **out, uint32_t max)
{
   if (!apple_objc_init())
      return 0;
   void *pool = apple_pool_push();
   uint32_t msl = MTL_MSL_VERSION, n = 0;
   if (!metal_has_msl_3_2()) {
      LOG_WARN("this system's Metal has no MSL 3.2 (macOS 15 or later): Apple GPUs are not used, "
               "only the software device (__threadfence and memory shared between threadgroups need "
               "MSL 3.2's fences and coherent memory)");
      apple_pool_pop(pool);
      return 0;
   }
   id def = MTLCreateSystemDefaultDevice();
   n = add_device(def, out, n, max, msl);
   apple_release(def);
   id all = MTLCopyAllDevices();
   NSUInteger count = all ? apple_uint(all, apple_sel.count) : 0;
   for (NSUInteger k = 0; k < count; k++) {
      id d = APPLE_SEND(id (*)(id, SEL, NSUInteger), all, apple_sel.objectAtIndex, k);
      n = add_device(d, out, n, max, msl);
   }
   apple_release(all);
   apple_pool_pop(pool);
   return n;
}
