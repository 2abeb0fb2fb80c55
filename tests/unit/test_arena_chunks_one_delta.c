/*
 * test_arena_chunks_one_delta.c — test_arena_chunks.c's tests with the
 * software device as it runs by default: every chunk's GPU view at one
 * delta (mtl_buffer_new_at's gpu_hint), kernels compiled with
 * __MC_SOFT_ONE_DELTA (a base pointer plus an offset, no table read).
 */
#define ARENA_CHUNKS_ONE_DELTA 1
#include "test_arena_chunks.c"
