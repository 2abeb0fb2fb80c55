/*
 * cooperative_groups.h — CUDA's cooperative groups (CUDA C++ Programming
 * Guide, "Cooperative Groups"), the part that lives inside one block:
 * thread_block, thread_block_tile<N> (N = 1, 2, 4, ..., 32) and the
 * run-time tiled_partition, coalesced_group, labeled_partition and
 * binary_partition (of a coalesced group or a tile), with their sync,
 * shuffles, votes and matches; cooperative_groups::reduce and
 * inclusive/exclusive_scan of tiles and coalesced groups
 * (cooperative_groups/reduce.h, scan.h).  Written over the warp intrinsics
 * (__shfl_*_sync with a tile's lane mask and width) and __syncthreads.
 *
 * A tile is a run of N consecutive threads (by thread_rank in the block)
 * inside one warp, as on NVIDIA GPUs; blocks whose size is not a multiple
 * of 32 leave a last partial warp, whose tiles shrink as CUDA's do.
 *
 * grid_group::sync() needs a cooperative launch (cudaLaunchCooperativeKernel):
 * the runtime then passes the grid workspace's address in %envreg1:%envreg2
 * (every launch has one, as with NVIDIA's driver 580, so is_valid() is
 * true; NVIDIA's header traps on a 0), and sync() counts the blocks' arrivals in its word at +4 with
 * the protocol of src/core/launch.c.  cluster_group (this_cluster()) is
 * over the PTX cluster registers and instructions.  Not here:
 * multi_grid_group.
 */
#ifndef MC_COOPERATIVE_GROUPS_H
#define MC_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

#if defined(__cplusplus) && defined(__CUDA__)

#define MC_CG __device__ __forceinline__

namespace cooperative_groups {

namespace details {
MC_CG unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
MC_CG unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
MC_CG unsigned lane() { return block_rank() & 31u; }
/* the lanes of the warp that hold threads (the last warp may be partial) */
MC_CG unsigned warp_lanes()
{
   unsigned first = block_rank() & ~31u, n = block_size() - first;
   return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}
/* the lane of the n-th set bit of mask (n counted from 0) */
MC_CG int nth_lane(unsigned mask, unsigned n)
{
   for (int l = 0; l < 32; l++)
      if (mask >> l & 1u) {
         if (n == 0)
            return l;
         n--;
      }
   return 0;
}
/* the bits of v at the lanes of mask, packed to the low end */
MC_CG unsigned compress(unsigned v, unsigned mask)
{
   unsigned r = 0, k = 0;
   for (int l = 0; l < 32; l++)
      if (mask >> l & 1u)
         r |= (v >> l & 1u) << k++;
   return r;
}
} // namespace details

/* ---- thread_block ---- */
class thread_block {
public:
   MC_CG void sync() const { __syncthreads(); }
   MC_CG unsigned long long thread_rank() const { return details::block_rank(); }
   MC_CG unsigned long long size() const { return details::block_size(); }
   MC_CG unsigned long long num_threads() const { return details::block_size(); }
   MC_CG dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
   MC_CG dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
   MC_CG dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
   MC_CG dim3 dim_threads() const { return group_dim(); }
   MC_CG bool is_valid() const { return true; }
};
MC_CG thread_block this_thread_block() { return thread_block(); }

/* ---- a tile or partition of a warp, its size known at run time ---- */
class thread_group {
protected:
   unsigned mask_;   /* its lanes in the warp */
   unsigned size_;
   unsigned rank_;
   unsigned meta_rank_, meta_size_;
public:
   MC_CG thread_group(unsigned mask, unsigned rank, unsigned meta_rank, unsigned meta_size)
      : mask_(mask), size_(__popc(mask)), rank_(rank), meta_rank_(meta_rank), meta_size_(meta_size) {}
   MC_CG void sync() const { __syncwarp(mask_); }
   MC_CG unsigned long long thread_rank() const { return rank_; }
   MC_CG unsigned long long size() const { return size_; }
   MC_CG unsigned long long num_threads() const { return size_; }
   MC_CG unsigned long long meta_group_rank() const { return meta_rank_; }
   MC_CG unsigned long long meta_group_size() const { return meta_size_; }
   MC_CG bool is_valid() const { return size_ != 0; }
   MC_CG unsigned lanes() const { return mask_; }
};

/* tiles of n (a power of two up to 32) consecutive threads of the block */
MC_CG thread_group tiled_partition(const thread_block &, unsigned n)
{
   unsigned lane = details::lane(), base = lane & ~(n - 1u);
   unsigned m = (n >= 32 ? 0xffffffffu : ((1u << n) - 1u) << base) & details::warp_lanes();
   return thread_group(m, lane - base, details::block_rank() / n, (details::block_size() + n - 1) / n);
}
MC_CG thread_group tiled_partition(const thread_group &parent, unsigned n)
{
   unsigned r = (unsigned)parent.thread_rank(), lanes = parent.lanes();
   unsigned first = r & ~(n - 1u), m = 0;
   for (unsigned k = first; k < first + n && k < parent.size(); k++)
      m |= 1u << details::nth_lane(lanes, k);
   return thread_group(m, r - first, r / n, ((unsigned)parent.size() + n - 1) / n);
}

/* ---- thread_block_tile<N>: the same with N fixed, and the collectives ---- */
/* CUDA's thread_block_tile<N, ParentT> derives from thread_block_tile<N>
 * (ParentT void); tiled_partition gives the latter here, and code that
 * names the two-parameter form (CCCL's group traits) finds it */
template <unsigned N, class ParentT = void> class thread_block_tile;
template <unsigned N> class thread_block_tile<N, void> : public thread_group {
   static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 32");
   MC_CG unsigned src_lane(int rank) const { return (details::lane() & ~(N - 1u)) + ((unsigned)rank & (N - 1u)); }
public:
   MC_CG thread_block_tile() : thread_group(tiled_partition(thread_block(), N)) {}
   MC_CG static constexpr unsigned long long num_threads() { return N; }
   MC_CG static constexpr unsigned long long size() { return N; }
   template <class T> MC_CG T shfl(T v, int src) const { return __shfl_sync(mask_, v, (int)src_lane(src), 32); }
   template <class T> MC_CG T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask_, v, d, N); }
   template <class T> MC_CG T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask_, v, d, N); }
   template <class T> MC_CG T shfl_xor(T v, unsigned m) const { return __shfl_xor_sync(mask_, v, m, N); }
   MC_CG int any(int p) const { return __any_sync(mask_, p); }
   MC_CG int all(int p) const { return __all_sync(mask_, p); }
   /* bit k is the thread of rank k */
   MC_CG unsigned ballot(int p) const { return __ballot_sync(mask_, p) >> (details::lane() & ~(N - 1u)); }
   template <class T> MC_CG unsigned match_any(T v) const
   {
      return __match_any_sync(mask_, v) >> (details::lane() & ~(N - 1u));
   }
   template <class T> MC_CG unsigned match_all(T v, int &pred) const
   {
      return __match_all_sync(mask_, v, &pred) >> (details::lane() & ~(N - 1u));
   }
};
template <unsigned N, class ParentT> class thread_block_tile : public thread_block_tile<N, void> {
public:
   MC_CG thread_block_tile() {}
};
template <unsigned N, class Parent> MC_CG thread_block_tile<N> tiled_partition(const Parent &)
{
   return thread_block_tile<N>();
}

/* ---- coalesced_group: the threads that are active together ---- */
class coalesced_group : public thread_group {
public:
   MC_CG explicit coalesced_group(unsigned mask)
      : thread_group(mask, __popc(mask & __lanemask_lt()), 0, 1) {}
   template <class T> MC_CG T shfl(T v, int rank) const
   {
      return __shfl_sync(mask_, v, details::nth_lane(mask_, (unsigned)rank), 32);
   }
   template <class T> MC_CG T shfl_down(T v, unsigned d) const
   {
      unsigned r = rank_ + d;
      T got = __shfl_sync(mask_, v, details::nth_lane(mask_, r < size_ ? r : rank_), 32);
      return got;
   }
   template <class T> MC_CG T shfl_up(T v, unsigned d) const
   {
      unsigned r = rank_ >= d ? rank_ - d : rank_;
      return __shfl_sync(mask_, v, details::nth_lane(mask_, r), 32);
   }
   MC_CG int any(int p) const { return __any_sync(mask_, p); }
   MC_CG int all(int p) const { return __all_sync(mask_, p); }
   MC_CG unsigned ballot(int p) const { return details::compress(__ballot_sync(mask_, p), mask_); }
};
MC_CG coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* labeled_partition / binary_partition (CUDA Programming Guide, "Cooperative
 * Groups", group partitioning): the parent's threads with the same label
 * (or predicate) form one coalesced group, ranked in lane order.  Every
 * thread of the parent must call it (CUDA's condition): the match and
 * ballot run over the parent's lanes. */
MC_CG coalesced_group labeled_partition(const coalesced_group &g, int label)
{
   return coalesced_group(__match_any_sync(g.lanes(), label));
}
template <unsigned N> MC_CG coalesced_group labeled_partition(const thread_block_tile<N> &g, int label)
{
   return coalesced_group(__match_any_sync(g.lanes(), label));
}
MC_CG coalesced_group binary_partition(const coalesced_group &g, bool pred)
{
   unsigned yes = __ballot_sync(g.lanes(), pred);
   return coalesced_group(pred ? yes : g.lanes() & ~yes);
}
template <unsigned N> MC_CG coalesced_group binary_partition(const thread_block_tile<N> &g, bool pred)
{
   unsigned yes = __ballot_sync(g.lanes(), pred);
   return coalesced_group(pred ? yes : g.lanes() & ~yes);
}

/* ---- grid_group ---- */
namespace details {
MC_CG unsigned long long grid_workspace()
{
   unsigned hi, lo;
   asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
   asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
   return (unsigned long long)hi << 32 | lo;
}
/* Block 0 adds 0x80000001 - blocks, the others 1: the word's top bit
 * flips when the last block arrives, and each block's leader spins until
 * the bit differs from the value its own add saw. */
MC_CG void grid_barrier(unsigned long long ws)
{
   __syncthreads();
   if (block_rank() == 0) {
      unsigned blocks = gridDim.x * gridDim.y * gridDim.z, old, now;
      unsigned add = (blockIdx.x | blockIdx.y | blockIdx.z) == 0 ? 0x80000001u - blocks : 1u;
      unsigned *word = (unsigned *)(ws + 4);
      asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(word), "r"(add) : "memory");
      do
         asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : "l"(word) : "memory");
      while (((now ^ old) & 0x80000000u) == 0);
   }
   __syncthreads();
}
} // namespace details

class grid_group {
public:
   MC_CG unsigned long long thread_rank() const
   {
      unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
      return b * details::block_size() + details::block_rank();
   }
   MC_CG unsigned long long size() const
   {
      return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * details::block_size();
   }
   MC_CG unsigned long long num_threads() const { return size(); }
   MC_CG bool is_valid() const { return details::grid_workspace() != 0; }
   MC_CG void sync() const
   {
      unsigned long long ws = details::grid_workspace();
      if (!ws)
         __trap();   /* not a cooperative launch */
      details::grid_barrier(ws);
   }
   MC_CG unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
   MC_CG unsigned long long block_rank() const
   {
      return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
   }
   MC_CG dim3 block_index() const { return blockIdx; }
   MC_CG dim3 dim_blocks() const { return gridDim; }
   MC_CG dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};
MC_CG grid_group this_grid() { return grid_group(); }

/* ---- cluster_group (sm_90) ----
 * Over the PTX cluster registers and instructions, as NVIDIA's header is;
 * metalcuda translates them for clusters of one block (a launch asking for
 * more is refused), so this is exact wherever it runs. */
namespace details {
MC_CG unsigned cluster_sreg_rank()
{
   unsigned r;
   asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
   return r;
}
MC_CG unsigned cluster_sreg_nrank()
{
   unsigned r;
   asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
   return r;
}
MC_CG dim3 cluster_sreg_ctaid()
{
   unsigned x, y, z;
   asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(x));
   asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(y));
   asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(z));
   return dim3(x, y, z);
}
MC_CG dim3 cluster_sreg_nctaid()
{
   unsigned x, y, z;
   asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(x));
   asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(y));
   asm volatile("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(z));
   return dim3(x, y, z);
}
} // namespace details

class cluster_group {
public:
   MC_CG void sync() const
   {
      asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
      asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
   }
   MC_CG void barrier_arrive() const { asm volatile("barrier.cluster.arrive.aligned;" ::: "memory"); }
   MC_CG void barrier_wait() const { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
   MC_CG unsigned block_rank() const { return details::cluster_sreg_rank(); }
   MC_CG unsigned num_blocks() const { return details::cluster_sreg_nrank(); }
   MC_CG dim3 block_index() const { return details::cluster_sreg_ctaid(); }
   MC_CG dim3 dim_blocks() const { return details::cluster_sreg_nctaid(); }
   MC_CG unsigned thread_rank() const { return block_rank() * details::block_size() + details::block_rank(); }
   MC_CG unsigned num_threads() const { return num_blocks() * details::block_size(); }
   MC_CG unsigned size() const { return num_threads(); }
   MC_CG bool is_valid() const { return true; }
   MC_CG unsigned query_shared_rank(const void *addr) const
   {
      unsigned r;
      asm volatile("getctarank.u64 %0, %1;" : "=r"(r) : "l"(addr));
      return r;
   }
   template <class T> MC_CG T *map_shared_rank(T *addr, unsigned rank) const
   {
      T *p;
      asm volatile("mapa.u64 %0, %1, %2;" : "=l"(p) : "l"(addr), "r"(rank));
      return p;
   }
};
MC_CG cluster_group this_cluster() { return cluster_group(); }

template <class G> MC_CG void sync(const G &g) { g.sync(); }
template <class G> MC_CG unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> MC_CG unsigned long long group_size(const G &g) { return g.size(); }

/* ---- reduce and scan (cooperative_groups/reduce.h, scan.h) ---- */
template <class T> struct plus { MC_CG T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { MC_CG T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { MC_CG T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { MC_CG T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { MC_CG T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { MC_CG T operator()(T a, T b) const { return a ^ b; } };

/* every thread of the tile gets op over all the tile's values */
template <unsigned N, class T, class Op> MC_CG T reduce(const thread_block_tile<N> &g, T v, Op op)
{
   for (unsigned d = N / 2; d >= 1; d /= 2)
      v = op(v, g.shfl_xor(v, d));
   return v;
}
template <class T, class Op> MC_CG T reduce(const coalesced_group &g, T v, Op op)
{
   T r = g.shfl(v, 0);
   for (unsigned k = 1; k < g.size(); k++)
      r = op(r, g.shfl(v, (int)k));
   return r;
}
/* thread k gets op over ranks 0..k (inclusive) or 0..k-1 (exclusive; rank 0: T()) */
template <unsigned N, class T, class Op> MC_CG T inclusive_scan(const thread_block_tile<N> &g, T v, Op op)
{
   unsigned r = (unsigned)g.thread_rank();
   for (unsigned d = 1; d < N; d *= 2) {
      T o = g.shfl_up(v, d);
      if (r >= d)
         v = op(o, v);
   }
   return v;
}
template <unsigned N, class T> MC_CG T inclusive_scan(const thread_block_tile<N> &g, T v)
{
   return inclusive_scan(g, v, plus<T>());
}
template <unsigned N, class T, class Op> MC_CG T exclusive_scan(const thread_block_tile<N> &g, T v, Op op)
{
   T inc = inclusive_scan(g, v, op);
   T prev = g.shfl_up(inc, 1);
   return g.thread_rank() == 0 ? T() : prev;
}
template <unsigned N, class T> MC_CG T exclusive_scan(const thread_block_tile<N> &g, T v)
{
   return exclusive_scan(g, v, plus<T>());
}

template <class T, class Op> MC_CG T inclusive_scan(const coalesced_group &g, T v, Op op)
{
   unsigned r = (unsigned)g.thread_rank();
   for (unsigned d = 1; d < g.size(); d *= 2) {
      T o = g.shfl_up(v, d);
      if (r >= d)
         v = op(o, v);
   }
   return v;
}
template <class T> MC_CG T inclusive_scan(const coalesced_group &g, T v) { return inclusive_scan(g, v, plus<T>()); }
template <class T, class Op> MC_CG T exclusive_scan(const coalesced_group &g, T v, Op op)
{
   T inc = inclusive_scan(g, v, op);
   T prev = g.shfl_up(inc, 1);
   return g.thread_rank() == 0 ? T() : prev;
}
template <class T> MC_CG T exclusive_scan(const coalesced_group &g, T v) { return exclusive_scan(g, v, plus<T>()); }

} // namespace cooperative_groups

#undef MC_CG
#endif
#endif
