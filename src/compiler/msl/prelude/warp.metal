// metalcuda MSL prelude: barriers and warp-level operations (PTX ISA 9.0
// §9.7.13).  A PTX warp is a Metal SIMD-group of 32 threads, and its lane
// is the linear thread index & 31 (Metal forms SIMD-groups from
// consecutive threads).  The threads that take part in a warp operation
// are those converged at it: Metal's active threads of the SIMD-group.
// Every helper is always_inline so that each use in a kernel is its own
// SIMD-group call, as it would be written inline.

#define MC_WARP inline __attribute__((always_inline))

// mc_launch.status values set by these helpers (compiler.h MC_STATUS_*):
// the kernel fails as a trap does, with the reason in the value.
#define MC_STATUS_WARP_MASK 3u   // a member mask names threads not converged here
#define MC_STATUS_BAR_COUNT 4u   // a barrier's thread count is not the whole block
#define MC_STATUS_NBAR 5u        // a named barrier's id or thread count is out of range
#define MC_STATUS_LOOP_EXIT 15u  // threads left a loop with a barrier at different iterations

MC_WARP void mc_status(constant mc_launch &L, uint code)
{
    device atomic_uint *status = reinterpret_cast<device atomic_uint *>(L.status);
    atomic_store_explicit(status, code, memory_order_relaxed);
}

MC_WARP uint mc_ballot(bool p) { return (uint)(simd_vote::vote_t)simd_ballot(p); }
MC_WARP uint mc_activemask() { return (uint)(simd_vote::vote_t)simd_active_threads_mask(); }

// A member mask other than the constant 0xffffffff must name only threads
// converged here: threads of the mask that are elsewhere would need
// Volta's independent thread scheduling, which Metal does not have.
MC_WARP void mc_warp_mask_check(constant mc_launch &L, uint mask)
{
    if ((mask & ~mc_activemask()) != 0u)
        mc_status(L, MC_STATUS_WARP_MASK);
}

// The SIMD-group calls between mc_warp_sync and mc_warp_sync_end are one
// PTX *.sync operation of the given kind (its opcode and qualifiers,
// emit_warp.c) over the threads of the mask.  Since Volta those threads
// meet in it wherever they are (PTX ISA 9.0 shfl.sync: "wait until all
// non-exited threads corresponding to membermask have executed shfl.sync
// with the same qualifiers and same membermask value"), also at different
// instructions, and the threads of each mask at one instruction are an
// operation of their own (cooperative groups' partitions).  The software
// device's scheduler gathers them so (fiber.c); on a GPU, whose SIMD-group
// runs in lockstep, the mask must name threads converged here (the check).
#if defined(__MC_METAL_STDLIB__)
MC_WARP void mc_warp_members(uint mask, uint kind) { __mc_warp_members((ulong)mask | (ulong)kind << 32); }
MC_WARP void mc_warp_sync_end() { __mc_warp_members(0ul); }
#else
MC_WARP void mc_warp_members(uint mask, uint kind) { (void)mask; (void)kind; }
MC_WARP void mc_warp_sync_end() {}
#endif
MC_WARP void mc_warp_sync(constant mc_launch &L, uint mask, uint kind, bool check)
{
    mc_warp_members(mask, kind);
    if (check)
        mc_warp_mask_check(L, mask);
}

// ---- warp meets (mark_lockstep.c, emit.c) ----
// Warp-synchronous code has the lanes of a warp talk through memory with
// no synchronisation, relying on lockstep execution.  A GPU's SIMD-group
// is lockstep: nothing to do (the accesses are volatile, so the compiler
// keeps their order).  The software device runs a SIMD-group's threads one
// after another: there the active lanes meet at its scheduler, the lowest
// rank (the meet's place in source order) first, as a GPU reconverging at
// the lowest program counter.
#if defined(__MC_METAL_STDLIB__)
#define MC_WARP_MEET(rank) __mc_warp_meet(rank)
#else
#define MC_WARP_MEET(rank) ((void)0)
#endif

// ---- barriers ----

// bar.sync a, b: b counts whole warps, so a partial last warp counts as 32.
MC_WARP void mc_bar_count_check(constant mc_launch &L, uint count, uint nthreads)
{
    if (count != ((nthreads + 31u) & ~31u))
        mc_status(L, MC_STATUS_BAR_COUNT);
}

// ---- named barriers: bar.sync/bar.arrive in a module with bar.arrive ----
// (build_warp.c).  Barrier a completes when `count` threads have arrived
// (0: the whole block; a partial last warp counts as whole on NVIDIA).

MC_WARP bool mc_nbar_args(constant mc_launch &L, uint id, thread uint &count, uint nthreads)
{
    uint full = (nthreads + 31u) & ~31u;
    if (id > 15u || count % 32u != 0u || count > full) {
        mc_status(L, MC_STATUS_NBAR);
        return false;
    }
    if (count == 0u || count == full)
        count = nthreads;
    return true;
}

#if defined(__MC_METAL_STDLIB__)
// The software device: its scheduler's barrier (exact; one that can never
// complete is reported, not a hang).
MC_WARP void mc_nbar(constant mc_launch &L, threadgroup atomic_uint *st, uint id, uint count, uint nthreads,
                     bool arrive)
{
    (void)st;
    if (mc_nbar_args(L, id, count, nthreads))
        __mc_named_barrier(id, count, arrive);
}
#else
// A GPU: st[2a] counts barrier a's arrivals in this phase, st[2a + 1] is
// its phase; the last arrival starts the next phase, and syncing threads
// spin until it does (the threads of a threadgroup are co-resident).
MC_WARP void mc_nbar(constant mc_launch &L, threadgroup atomic_uint *st, uint id, uint count, uint nthreads,
                     bool arrive)
{
    if (!mc_nbar_args(L, id, count, nthreads))
        return;
    threadgroup atomic_uint *n = st + 2u * id, *phase = n + 1;
    atomic_thread_fence(mem_flags::mem_threadgroup | mem_flags::mem_device, memory_order_seq_cst,
                        thread_scope_threadgroup);
    uint p = atomic_load_explicit(phase, memory_order_relaxed);
    if (atomic_fetch_add_explicit(n, 1u, memory_order_relaxed) + 1u == count) {
        atomic_store_explicit(n, 0u, memory_order_relaxed);
        atomic_store_explicit(phase, p + 1u, memory_order_relaxed);
    } else if (!arrive) {
        while (atomic_load_explicit(phase, memory_order_relaxed) == p) {
        }
    }
    atomic_thread_fence(mem_flags::mem_threadgroup | mem_flags::mem_device, memory_order_seq_cst,
                        thread_scope_threadgroup);
}
#endif

// bar.red.popc: a barrier, then the number of threads of the block whose
// predicate holds.  Each SIMD-group counts with a ballot and its lane 0
// publishes the count n in slots[SIMD-group] (mc_bar_red_sum); after a
// second barrier every thread adds the counts.  The first barrier also
// keeps the readers of the previous bar.red from seeing the new counts.
MC_WARP uint mc_bar_red_sum(threadgroup uint *slots, uint n, uint linear, uint nthreads)
{
    threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);
    if ((linear & 31u) == 0u)
        slots[linear >> 5] = n;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint total = 0u;
    for (uint k = 0u; k < (nthreads + 31u) >> 5; k++)
        total += slots[k];
    return total;
}

MC_WARP uint mc_bar_red_popc(threadgroup uint *slots, bool p, uint linear, uint nthreads)
{
    return mc_bar_red_sum(slots, popcount(mc_ballot(p)), linear, nthreads);
}

// The vote of a loop with a barrier whose exit test depends on the thread
// (ir/lower_exit.c): a barrier, then whether some live thread stays in the
// loop; the kernel fails unless every live thread chose alike.  One pass:
// each SIMD-group publishes both counts, p's in the low half of its slot.
MC_WARP bool mc_bar_red_exit(constant mc_launch &L, threadgroup uint *slots, bool p, bool live, uint linear,
                             uint nthreads)
{
    uint n = popcount(mc_ballot(p && live)) | popcount(mc_ballot(live)) << 16;
    uint total = mc_bar_red_sum(slots, n, linear, nthreads);
    uint stay = total & 0xffffu, alive = total >> 16;
    if (stay != 0u && stay != alive)
        mc_status(L, MC_STATUS_LOOP_EXIT);
    return stay != 0u;
}

// ---- shfl.sync ----

// The source lane j for mode (0 up, 1 down, 2 bfly, 3 idx), operand b and
// the clamp/segment operand c; the lane itself when j is out of range
// (in_range, PTX's pval, false).
MC_WARP uint mc_shfl_lane(uint mode, uint lane, uint b, uint c, thread bool &in_range)
{
    uint bval = b & 31u, cval = c & 31u, seg = (c >> 8) & 31u;
    int max_lane = (int)((lane & seg) | (cval & ~seg)), min_lane = (int)(lane & seg);
    int j;
    bool p;
    switch (mode) {
    case 0u: j = (int)lane - (int)bval; p = j >= max_lane; break;
    case 1u: j = (int)(lane + bval); p = j <= max_lane; break;
    case 2u: j = (int)(lane ^ bval); p = j <= max_lane; break;
    default: j = min_lane | (int)(bval & ~seg); p = j <= max_lane; break;
    }
    in_range = p;
    return p ? (uint)j : lane;
}

MC_WARP uint mc_shfl(uint mode, uint lane, uint a, uint b, uint c)
{
    bool p;
    uint j = mc_shfl_lane(mode, lane, b, c, p);
    return simd_shuffle(a, (ushort)j);
}

MC_WARP bool mc_shfl_pred(uint mode, uint lane, uint b, uint c)
{
    bool p;
    mc_shfl_lane(mode, lane, b, c, p);
    return p;
}

// ---- vote.sync: the threads of the mask that are active ----

// One ballot of p each (the software device answers a vote that is a
// resume point from the lanes' offered p: emit_resume.c).
MC_WARP bool mc_vote_all(bool p, uint mask) { return (mc_ballot(p) & mask) == (mc_activemask() & mask); }
MC_WARP bool mc_vote_any(bool p, uint mask) { return (mc_ballot(p) & mask) != 0u; }
MC_WARP bool mc_vote_uni(bool p, uint mask)
{
    uint t = mc_ballot(p) & mask;
    return t == 0u || t == (mc_activemask() & mask);
}
MC_WARP uint mc_vote_ballot(bool p, uint mask) { return mc_ballot(p) & mask; }

// ---- redux.sync: threads outside the mask contribute the identity ----

MC_WARP bool mc_in_mask(uint mask, uint lane) { return ((mask >> lane) & 1u) != 0u; }
MC_WARP uint mc_redux_add(uint a, uint mask, uint lane) { return simd_sum(mc_in_mask(mask, lane) ? a : 0u); }
MC_WARP uint mc_redux_min_u32(uint a, uint mask, uint lane) { return simd_min(mc_in_mask(mask, lane) ? a : 0xffffffffu); }
MC_WARP uint mc_redux_max_u32(uint a, uint mask, uint lane) { return simd_max(mc_in_mask(mask, lane) ? a : 0u); }
MC_WARP uint mc_redux_min_s32(uint a, uint mask, uint lane)
{
    return as_type<uint>(simd_min(mc_in_mask(mask, lane) ? as_type<int>(a) : INT_MAX));
}
MC_WARP uint mc_redux_max_s32(uint a, uint mask, uint lane)
{
    return as_type<uint>(simd_max(mc_in_mask(mask, lane) ? as_type<int>(a) : INT_MIN));
}
MC_WARP uint mc_redux_and(uint a, uint mask, uint lane) { return simd_and(mc_in_mask(mask, lane) ? a : 0xffffffffu); }
MC_WARP uint mc_redux_or(uint a, uint mask, uint lane) { return simd_or(mc_in_mask(mask, lane) ? a : 0u); }
MC_WARP uint mc_redux_xor(uint a, uint mask, uint lane) { return simd_xor(mc_in_mask(mask, lane) ? a : 0u); }

// ---- match.sync ----
// The active threads of the mask are grouped by value, one value per
// round: the lowest remaining thread's value is broadcast and every
// thread that holds it is removed (at most 32 rounds; the loop is uniform).
// SIMD-group functions take no 64-bit values: b64 goes as two halves.

MC_WARP uint mc_lane_value(uint v, uint lane) { return simd_shuffle(v, (ushort)lane); }
MC_WARP ulong mc_lane_value(ulong v, uint lane)
{
    uint2 h = as_type<uint2>(v);
    return as_type<ulong>(uint2(simd_shuffle(h.x, (ushort)lane), simd_shuffle(h.y, (ushort)lane)));
}

template <typename T> MC_WARP uint mc_match_any(T v, uint mask)
{
    uint left = mask & mc_activemask(), r = 0u;
    while (left != 0u) {
        T lv = mc_lane_value(v, ctz(left));
        uint eq = mc_ballot(v == lv) & left;
        if (v == lv)
            r = eq;
        left &= ~eq;
    }
    return r;
}

template <typename T> MC_WARP bool mc_match_all(T v, uint mask)
{
    uint act = mask & mc_activemask();
    T lv = mc_lane_value(v, act != 0u ? ctz(act) : 0u);
    return (mc_ballot(v == lv) & act) == act;
}
