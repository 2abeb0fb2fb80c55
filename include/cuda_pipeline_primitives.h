/*
 * cuda_pipeline_primitives.h — CUDA's pipeline primitives (CUDA C++
 * Programming Guide, "Pipeline Primitives Interface"): per-thread
 * asynchronous copies from global to shared memory in batches.
 *
 *   __pipeline_memcpy_async(dst, src, size, zfill)  size 4, 8 or 16 bytes,
 *       both addresses aligned to it; the last zfill bytes of dst become 0
 *   __pipeline_commit()        closes the thread's current batch
 *   __pipeline_wait_prior(N)   waits until at most N batches are pending
 *   __pipeline_arrive_on(bar)  an arrival on a shared mbarrier once the
 *       thread's copies so far complete
 *
 * Each is the PTX instruction it names (cp.async with src-size,
 * cp.async.commit_group, cp.async.wait_group, cp.async.mbarrier.arrive),
 * which metalcuda's compiler translates.  wait_group takes an immediate, so
 * N above 7 waits for batch 7 back, which is later than needed and so
 * still what CUDA promises.  A size other than 4, 8 or 16 traps (CUDA
 * leaves it undefined).
 */
#ifndef MC_CUDA_PIPELINE_PRIMITIVES_H
#define MC_CUDA_PIPELINE_PRIMITIVES_H

#include "cuda_runtime.h"

#if defined(__cplusplus) && defined(__CUDA__)

typedef unsigned long long __mbarrier_t;

static __device__ __forceinline__ void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                                               const void *__restrict__ src_global,
                                                               size_t size_and_align, size_t zfill = 0)
{
   unsigned dst = (unsigned)__cvta_generic_to_shared(dst_shared);
   size_t src = __cvta_generic_to_global(src_global);
   unsigned keep = (unsigned)(size_and_align - zfill);
   switch (size_and_align) {
   case 4:
      __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(keep) : "memory");
      break;
   case 8:
      __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(keep) : "memory");
      break;
   case 16:
      __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(keep) : "memory");
      break;
   default:
      __trap();
   }
}

static __device__ __forceinline__ void __pipeline_commit(void)
{
   __asm__ __volatile__("cp.async.commit_group;" ::: "memory");
}

static __device__ __forceinline__ void __pipeline_wait_prior(size_t prior)
{
   switch (prior) {
   case 0: __asm__ __volatile__("cp.async.wait_group 0;" ::: "memory"); break;
   case 1: __asm__ __volatile__("cp.async.wait_group 1;" ::: "memory"); break;
   case 2: __asm__ __volatile__("cp.async.wait_group 2;" ::: "memory"); break;
   case 3: __asm__ __volatile__("cp.async.wait_group 3;" ::: "memory"); break;
   case 4: __asm__ __volatile__("cp.async.wait_group 4;" ::: "memory"); break;
   case 5: __asm__ __volatile__("cp.async.wait_group 5;" ::: "memory"); break;
   case 6: __asm__ __volatile__("cp.async.wait_group 6;" ::: "memory"); break;
   default: __asm__ __volatile__("cp.async.wait_group 7;" ::: "memory"); break;
   }
}

static __device__ __forceinline__ void __pipeline_arrive_on(__mbarrier_t *bar)
{
   unsigned b = (unsigned)__cvta_generic_to_shared(bar);
   __asm__ __volatile__("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b) : "memory");
}

#endif
#endif
