// metalcuda MSL prelude: the device heap (malloc/free, and C++ new/delete,
// which nvcc compiles to them).  One heap per context of
// cudaLimitMallocHeapSize bytes (8 MB unless set), in device memory,
// zeroed when the runtime makes it (src/core/heap.c); mc_launch.heap is its
// CUDA address, 0 when the kernel uses no malloc.
//
// Layout: a header of MC_HEAP_CLASSES hint words and a lock word, one class
// word and MC_HEAP_BITWORDS bitmap words per superblock, then the
// superblocks of MC_HEAP_SB bytes (the runtime's heap.c computes the same
// numbers: nsb and the data offset).
//  - A superblock of class c (1..MC_HEAP_CLASSES) holds blocks of 16 << (c
//    - 1) bytes (16 bytes to 32 KB), one bit each in its bitmap; class 0
//    is free.  A thread claims a free superblock for its class with a
//    compare-and-swap of its class word, and a block with atomic_fetch_or
//    on its bit: it either sets the bit or sees another thread's, so every
//    attempt makes progress somewhere, and lanes of one SIMD-group cannot
//    livelock (no thread waits for another).  free clears the bit.  A
//    superblock keeps its class once claimed (blocks of another size do
//    not reuse it), so a heap can run out of one size with room left in
//    another, as any segregated allocator can.
//  - More than 32 KB takes a run of whole superblocks, found and claimed
//    under the heap's lock in the converged "done flag" loop of the 64-bit
//    atomics (atom.metal): each round every lane tries the lock once and
//    the winner does its whole search and releases it inside that round.
//    The run's first class word is MC_HEAP_LARGE | its length, the others
//    MC_HEAP_CONT, claimed with the same compare-and-swap as small classes
//    (a run that loses one to a small claim is given back and the search
//    goes on); free gives the run back.
//  - No room: NULL, as CUDA's malloc returns.  Blocks are 16-byte aligned
//    at least (CUDA's guarantee); a block of b bytes is b-aligned and a run
//    64 KB-aligned, which __nv_aligned_device_malloc(size, align) uses: a
//    block of at least align bytes, or a run starting at an aligned
//    superblock.

#define MC_HEAP_SB 65536u
#define MC_HEAP_CLASSES 12u
#define MC_HEAP_BITWORDS 128u    // MC_HEAP_SB / 16 bits
#define MC_HEAP_LARGE 0x80000000u
#define MC_HEAP_CONT 0x40000000u
#define MC_HEAP_HEADER 64u       // bytes: hints[12], the lock, padding

inline device atomic_uint *mc_heap_word(constant mc_launch &L, uint index)
{
    return reinterpret_cast<device atomic_uint *>(mc_gpu(L, L.heap)) + index;
}
// The superblocks start at the first MC_HEAP_SB boundary of CUDA addresses
// after the header and the metadata of nsb superblocks, so that a block of
// b bytes is b-aligned and a run MC_HEAP_SB-aligned
// (__nv_aligned_device_malloc); nsb is the most superblocks that fit.
inline ulong mc_heap_data(constant mc_launch &L, uint nsb)
{
    ulong meta = MC_HEAP_HEADER + 4ul * (1ul + MC_HEAP_BITWORDS) * nsb;
    return (L.heap + meta + (MC_HEAP_SB - 1ul)) & ~(ulong)(MC_HEAP_SB - 1u);
}
inline uint mc_heap_nsb(constant mc_launch &L)
{
    uint n = (uint)((L.heap_size - MC_HEAP_HEADER) / (MC_HEAP_SB + 4u * (1u + MC_HEAP_BITWORDS)));
    while (n > 0u && mc_heap_data(L, n) + (ulong)n * MC_HEAP_SB > L.heap + L.heap_size)
        n--;   // at most twice: the rounding costs less than one superblock
    return n;
}
inline device atomic_uint *mc_heap_class(constant mc_launch &L, uint sb) { return mc_heap_word(L, MC_HEAP_HEADER / 4u + sb); }
inline device atomic_uint *mc_heap_bits(constant mc_launch &L, uint nsb, uint sb)
{
    return mc_heap_word(L, MC_HEAP_HEADER / 4u + nsb + sb * MC_HEAP_BITWORDS);
}

// Strong compare-and-swap of a class word: returns what was there.
inline uint mc_heap_cas(device atomic_uint *p, uint expected, uint desired)
{
    uint seen = expected;
    while (!atomic_compare_exchange_weak_explicit(p, &seen, desired, memory_order_relaxed, memory_order_relaxed) &&
           seen == expected) {
    }
    return seen;
}

// A block of class c, or 0.
inline ulong mc_heap_small(constant mc_launch &L, uint c)
{
    uint nsb = mc_heap_nsb(L), bs = 16u << (c - 1u), nblk = MC_HEAP_SB / bs;
    uint words = (nblk + 31u) / 32u, valid = nblk >= 32u ? 0xffffffffu : (1u << nblk) - 1u;
    device atomic_uint *hint = mc_heap_word(L, c - 1u);
    uint first = atomic_load_explicit(hint, memory_order_relaxed);
    for (uint t = 0u; t < nsb; t++) {
        uint sb = (first + t) % nsb;
        device atomic_uint *cls = mc_heap_class(L, sb);
        uint cl = atomic_load_explicit(cls, memory_order_relaxed);
        if (cl == 0u)
            cl = mc_heap_cas(cls, 0u, c) == 0u ? c : atomic_load_explicit(cls, memory_order_relaxed);
        if (cl != c)
            continue;
        device atomic_uint *bits = mc_heap_bits(L, nsb, sb);
        for (uint w = 0u; w < words; w++) {
            uint seen = atomic_load_explicit(bits + w, memory_order_relaxed);
            while ((~seen & valid) != 0u) {
                uint bit = 1u << ctz(~seen & valid);
                uint old = atomic_fetch_or_explicit(bits + w, bit, memory_order_relaxed);
                if ((old & bit) == 0u) {
                    atomic_store_explicit(hint, sb, memory_order_relaxed);
                    return mc_heap_data(L, nsb) + (ulong)sb * MC_HEAP_SB + (ulong)(w * 32u + ctz(bit)) * bs;
                }
                seen = old | bit;
            }
        }
    }
    return 0ul;
}

// Gives back the first n superblocks of a run from sb (class words set to
// MC_HEAP_CONT by the caller).
inline void mc_heap_release(constant mc_launch &L, uint sb, uint n)
{
    for (uint k = n; k-- > 0u;)
        atomic_store_explicit(mc_heap_class(L, sb + k), 0u, memory_order_relaxed);
}

// A run of n superblocks whose address is a multiple of align (the caller
// holds the lock), or 0.  The data is MC_HEAP_SB-aligned, so the runs that
// qualify start at superblocks first, first + step, ...
inline ulong mc_heap_run(constant mc_launch &L, uint n, ulong align)
{
    uint nsb = mc_heap_nsb(L);
    ulong data = mc_heap_data(L, nsb);
    uint step = align > MC_HEAP_SB ? (uint)min(align / MC_HEAP_SB, 0x80000000ul) : 1u;
    uint first = align > MC_HEAP_SB ? (uint)(((align - data % align) % align) / MC_HEAP_SB) : 0u;
    for (ulong start = first; start + n <= nsb;) {
        uint got = 0u;
        while (got < n && mc_heap_cas(mc_heap_class(L, (uint)start + got), 0u, MC_HEAP_CONT) == 0u)
            got++;
        if (got == n) {
            atomic_store_explicit(mc_heap_class(L, (uint)start), MC_HEAP_LARGE | n, memory_order_relaxed);
            return data + start * MC_HEAP_SB;
        }
        mc_heap_release(L, (uint)start, got);
        // the superblock after those is taken: the next start past it
        start = first + (start + got + 1ul - first + step - 1ul) / step * step;
    }
    return 0ul;
}

inline ulong mc_heap_large(constant mc_launch &L, ulong size, ulong align)
{
    ulong runs = (size + MC_HEAP_SB - 1ul) / MC_HEAP_SB;
    if (runs > 0xfffffful)   // more than a class word can say
        return 0ul;
    uint n = (uint)runs;
    device atomic_uint *lock = mc_heap_word(L, MC_HEAP_CLASSES);
    ulong r = 0ul;
    bool done = false;
    while (!done) {
        uint unlocked = 0u;
        if (atomic_compare_exchange_weak_explicit(lock, &unlocked, 1u, memory_order_relaxed, memory_order_relaxed)) {
            r = mc_heap_run(L, n, align);
            atomic_store_explicit(lock, 0u, memory_order_relaxed);
            done = true;
        }
    }
    return r;
}

// size bytes aligned to align (a power of 2): a block of the first class at
// least max(size, align) large, or a run.
inline ulong mc_heap_alloc(constant mc_launch &L, ulong size, ulong align)
{
    if (L.heap == 0ul || size > L.heap_size || align > L.heap_size)
        return 0ul;
    ulong need = max(size, align);
    ulong r;
    if (need > MC_HEAP_SB / 2u) {
        r = mc_heap_large(L, size, align);
    } else {
        uint c = 1u;
        while ((16ul << (c - 1u)) < need)
            c++;
        r = mc_heap_small(L, c);
    }
    // a block's next user comes after its last one (free fences too)
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
    return r;
}

// malloc: a CUDA address, 0 when the heap has no room (or the kernel was
// launched without one).
inline ulong mc_malloc(constant mc_launch &L, ulong size) { return mc_heap_alloc(L, size, 16ul); }

// __nv_aligned_device_malloc: NULL when align is not a power of 2, as
// CUDA documents.
inline ulong mc_aligned_malloc(constant mc_launch &L, ulong size, ulong align)
{
    if (align == 0ul || (align & (align - 1ul)) != 0ul)
        return 0ul;
    return mc_heap_alloc(L, size, max(align, 16ul));
}

// free: free(0) does nothing; a pointer the heap did not give is a trap
// (an NVIDIA GPU faults or corrupts its heap).
inline void mc_free(constant mc_launch &L, ulong p)
{
    if (p == 0ul)
        return;
    uint nsb = L.heap ? mc_heap_nsb(L) : 0u;
    ulong data = L.heap ? mc_heap_data(L, nsb) : 0ul;
    if (L.heap == 0ul || p < data || p >= data + (ulong)nsb * MC_HEAP_SB) {
        mc_trap(L);
        return;
    }
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
    uint sb = (uint)((p - data) / MC_HEAP_SB), off = (uint)((p - data) % MC_HEAP_SB);
    uint cl = atomic_load_explicit(mc_heap_class(L, sb), memory_order_relaxed);
    if ((cl & MC_HEAP_LARGE) != 0u && off == 0u) {
        uint n = cl & 0xffffffu;
        atomic_store_explicit(mc_heap_class(L, sb), MC_HEAP_CONT, memory_order_relaxed);
        mc_heap_release(L, sb, n);
        return;
    }
    if (cl == 0u || cl > MC_HEAP_CLASSES || off % (16u << (cl - 1u)) != 0u) {
        mc_trap(L);
        return;
    }
    uint b = off / (16u << (cl - 1u));
    atomic_fetch_and_explicit(mc_heap_bits(L, nsb, sb) + b / 32u, ~(1u << (b % 32u)), memory_order_relaxed);
}
