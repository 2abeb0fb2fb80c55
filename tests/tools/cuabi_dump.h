/*
 * cuabi_dump.h — prints every item of tests/tools/cuabi_list.h, one line
 * each, so that two builds of it can be compared:
 *   - against src/api/cuabi.h (the default), and
 *   - against NVIDIA's cuda.h + cudaProfiler.h + cuda_runtime_api.h (-DCUABI_NVIDIA and
 *     -I<toolkit>/include; test_cuabi.c compiles that one at test time).
 * Both builds expand the same list, so the lines correspond one to one.
 *
 * Line formats:
 *   const NAME VALUE
 *   type TYPE size N align N
 *   same A B 0|1                       (1: A and B are the same type)
 *   enumtype KEY size N
 *   enum KEY NAME VALUE
 *   struct KEY size N align N
 *   field KEY MEMBER offset N size N
 */
#ifndef MC_TESTS_CUABI_DUMP_H
#define MC_TESTS_CUABI_DUMP_H

#ifdef CUABI_NVIDIA
#include <cuda.h>
#include <cudaProfiler.h>
#include <cuda_runtime_api.h>
#else
#include "../../src/api/cuabi.h"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*cuabi_emit_fn)(const char *line, void *data);

static void cuabi_dump(cuabi_emit_fn emit, void *data)
{
   char line[512];
#define OUT_(...) (snprintf(line, sizeof(line), __VA_ARGS__), emit(line, data))
   /* Constants may be integers or pointers (CU_STREAM_LEGACY); intptr_t
    * holds both. */
#define CUABI_CONST(n) OUT_("const %s %lld", #n, (long long)(intptr_t)(n));
#define CUABI_TYPE(t) OUT_("type %s size %zu align %zu", #t, sizeof(t), (size_t)_Alignof(t));
   /* _Generic does not evaluate its operand: *(a *)0 only names the type. */
#define CUABI_SAME(a, b) OUT_("same %s %s %d", #a, #b, _Generic(*(a *)0, b: 1, default: 0));
#define CUABI_ENUM_TYPE(key, tag, t) OUT_("enumtype %s size %zu", #key, sizeof(t));
#define CUABI_ENUM(key, n) OUT_("enum %s %s %lld", #key, #n, (long long)(n));
#define CUABI_STRUCT_TYPE(key, tag, t)                                        \
   OUT_("struct %s size %zu align %zu", #key, sizeof(t), (size_t)_Alignof(t));
#define CUABI_FIELD(key, t, m)                                                \
   OUT_("field %s %s offset %zu size %zu", #key, #m, offsetof(t, m), sizeof(((t *)0)->m));
#include "cuabi_list.h"
#undef CUABI_CONST
#undef CUABI_TYPE
#undef CUABI_SAME
#undef CUABI_ENUM_TYPE
#undef CUABI_ENUM
#undef CUABI_STRUCT_TYPE
#undef CUABI_FIELD
#undef OUT_
}

#endif
