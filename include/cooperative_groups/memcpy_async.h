/*
 * cooperative_groups/memcpy_async.h — cooperative_groups::memcpy_async,
 * wait and wait_prior (CUDA C++ Programming Guide, "Cooperative Groups",
 * "memcpy_async"): a group copies bytes from src to dst together, and
 * wait(group) / wait_prior<N>(group) make the copies visible to the whole
 * group.
 *
 * The group's threads split the copy by rank: 16-byte units when both
 * addresses and the size allow it, else 4-byte units, else bytes.  A copy
 * from global to shared memory goes through cp.async (one batch per
 * memcpy_async call, committed at its end, so that wait_prior<N> counts
 * calls as CUDA does); any other pair of spaces is copied with plain loads
 * and stores at once, which the wait's group barrier then publishes, as
 * CUDA does for them.
 */
#ifndef MC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define MC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"
#include "../cuda_pipeline_primitives.h"

#if defined(__cplusplus) && defined(__CUDA__)

#define MC_CGA __device__ __forceinline__

namespace cooperative_groups {
namespace details {
MC_CGA void copy_units(unsigned rank, unsigned n, char *dst, const char *src, size_t bytes, bool async)
{
   size_t a = (size_t)dst | (size_t)src | bytes;
   size_t unit = (a & 15u) == 0 ? 16u : (a & 3u) == 0 ? 4u : 1u;
   for (size_t off = (size_t)rank * unit; off < bytes; off += (size_t)n * unit) {
      if (async && unit > 1u)
         __pipeline_memcpy_async(dst + off, src + off, unit);
      else if (unit == 16u)
         *(uint4 *)(dst + off) = *(const uint4 *)(src + off);
      else if (unit == 4u)
         *(unsigned *)(dst + off) = *(const unsigned *)(src + off);
      else
         dst[off] = src[off];
   }
}
} // namespace details

template <class Group>
MC_CGA void memcpy_async(const Group &group, void *__restrict__ dst, const void *__restrict__ src, size_t bytes)
{
   bool async = __isShared(dst) && __isGlobal(src);
   details::copy_units((unsigned)group.thread_rank(), (unsigned)group.num_threads(), (char *)dst,
                       (const char *)src, bytes, async);
   __pipeline_commit();
}

/* the element-count form: srcCount elements, which CUDA requires to fit in
 * dstCount (no more than dstCount are copied) */
template <class Group, class T>
MC_CGA void memcpy_async(const Group &group, T *__restrict__ dst, size_t dstCount, const T *__restrict__ src,
                        size_t srcCount)
{
   memcpy_async(group, (void *)dst, (const void *)src, sizeof(T) * (srcCount < dstCount ? srcCount : dstCount));
}

template <unsigned N, class Group> MC_CGA void wait_prior(const Group &group)
{
   __pipeline_wait_prior(N);
   group.sync();
}

template <class Group> MC_CGA void wait(const Group &group)
{
   __pipeline_wait_prior(0);
   group.sync();
}
} // namespace cooperative_groups

#undef MC_CGA
#endif
#endif
