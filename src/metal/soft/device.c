/*
 * device.c — the software Metal device: its facts and its backend table.
 */
#include "soft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An on/off variable, read once into *cache (-1: not yet). */
static bool env_on(const char *name, int *cache)
{
   if (*cache < 0) {
      const char *e = getenv(name);
      *cache = e && *e && strcmp(e, "0") != 0;
   }
   return *cache;
}

bool soft_validating(void)
{
   static int v = -1;
   return env_on("METALCUDA_VALIDATE", &v);
}

bool soft_scatter(void)
{
   static int v = -1;
   return env_on("METALCUDA_SOFT_SCATTER", &v);
}

bool soft_lanes(void)
{
   static int v = -1;
   if (v < 0) {
      const char *e = getenv("METALCUDA_SOFT_LANES");
      v = !(e && !strcmp(e, "0"));
   }
   return v && !soft_validating();
}

int soft_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
   pthread_attr_t a;
   int r = pthread_attr_init(&a);
   if (r)
      return r;
   r = pthread_attr_setstacksize(&a, SOFT_THREAD_STACK);
   if (!r)
      r = pthread_create(t, &a, fn, arg);
   pthread_attr_destroy(&a);
   return r;
}

uint32_t soft_thread_count(void)
{
   const char *e = getenv("METALCUDA_THREADS");
   if (e && *e) {
      long n = strtol(e, NULL, 10);
      if (n >= 1 && n <= 1024)
         return (uint32_t)n;
   }
   long n = sysconf(_SC_NPROCESSORS_ONLN);
   return n >= 1 ? (uint32_t)MC_MIN(n, 1024) : 1;
}

const mtl_backend soft_backend = {
   .name = "soft",
   .buffer_new = soft_buffer_new,
   .buffer_new_at = soft_buffer_new_at,
   .buffer_contents = soft_buffer_contents,
   .buffer_gpu_address = soft_buffer_gpu_address,
   .buffer_length = soft_buffer_length,
   .buffer_set_gpu_access = soft_buffer_set_gpu_access,
   .buffer_release = soft_buffer_release,
   .library_new = soft_library_new,
   .library_release = soft_library_release,
   .function_new = soft_function_new,
   .function_release = soft_function_release,
   .pipeline_new = soft_pipeline_new,
   .pipeline_release = soft_pipeline_release,
   .pipeline_max_total_threads = soft_pipeline_max_total_threads,
   .pipeline_thread_execution_width = soft_pipeline_thread_execution_width,
   .pipeline_static_threadgroup_memory = soft_pipeline_static_threadgroup_memory,
   .queue_new = soft_queue_new,
   .queue_release = soft_queue_release,
   .queue_stats = soft_queue_stats,
   .cmdbuf_new = soft_cmdbuf_new,
   .cmdbuf_release = soft_cmdbuf_release,
   .cmdbuf_add_completed_handler = soft_cmdbuf_add_completed_handler,
   .cmdbuf_encode_signal_event = soft_cmdbuf_encode_signal_event,
   .cmdbuf_encode_wait_event = soft_cmdbuf_encode_wait_event,
   .cmdbuf_commit = soft_cmdbuf_commit,
   .cmdbuf_wait_until_completed = soft_cmdbuf_wait_until_completed,
   .cmdbuf_get_status = soft_cmdbuf_get_status,
   .cmdbuf_error = soft_cmdbuf_error,
   .cmdbuf_failure = soft_cmdbuf_failure,
   .cmdbuf_fault_address = soft_cmdbuf_fault_address,
   .cmdbuf_gpu_start_time = soft_cmdbuf_gpu_start_time,
   .cmdbuf_gpu_end_time = soft_cmdbuf_gpu_end_time,
   .cmdbuf_compute_encoder = soft_cmdbuf_compute_encoder,
   .encoder_set_pipeline = soft_encoder_set_pipeline,
   .encoder_set_bytes = soft_encoder_set_bytes,
   .encoder_set_buffer = soft_encoder_set_buffer,
   .encoder_set_threadgroup_memory_length = soft_encoder_set_threadgroup_memory_length,
   .encoder_use_resource = soft_encoder_use_resource,
   .encoder_dispatch_threadgroups = soft_encoder_dispatch_threadgroups,
   .encoder_dispatch_coresident = soft_encoder_dispatch_coresident,
   .encoder_memory_barrier = soft_encoder_memory_barrier,
   .encoder_end = soft_encoder_end,
   .cmdbuf_blit_encoder = soft_cmdbuf_blit_encoder,
   .blit_copy = soft_blit_copy,
   .blit_fill = soft_blit_fill,
   .blit_end = soft_blit_end,
   .event_new = soft_event_new,
   .event_release = soft_event_release,
   .event_signaled_value = soft_event_signaled_value,
   .event_set_signaled_value = soft_event_set_signaled_value,
   .event_wait = soft_event_wait,
};

/* The one software device; it lives as long as the process. */
static struct mtl_device soft_dev;

uint32_t soft_enumerate(mtl_device **out, uint32_t max)
{
   if (max == 0)
      return 0;
   mtl_device_info *i = &soft_dev.info;
   uint32_t threads = soft_thread_count();
   long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
   snprintf(i->name, sizeof(i->name), "metalcuda software device (%u CPU threads)", threads);
   i->is_software = true;
   i->has_unified_memory = true;
   i->reaches_host_memory = true;   /* kernels run in this process */
   i->max_threads_per_threadgroup = MTL_MAX_THREADS_PER_THREADGROUP;
   i->max_threadgroup_memory = MTL_MAX_THREADGROUP_MEMORY;
   i->simd_width = SOFT_SIMD_WIDTH;
   i->max_buffer_length = 1ull << 40;      /* virtual and sparse: 1 TiB */
   i->recommended_working_set = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 4 * 3 : 0;
   i->compute_units = threads;
   i->clock_khz = 0;
   i->registry_id = 0x736f6674;            /* 'soft' */
   i->msl_version = MTL_MSL_VERSION;
   soft_dev.obj = (mtl_obj){MTL_MAGIC_DEVICE, &soft_dev};
   soft_dev.be = &soft_backend;
   out[0] = &soft_dev;
   return 1;
}
