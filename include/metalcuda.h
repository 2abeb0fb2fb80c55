/*
 * metalcuda.h — metalcuda's documented extensions.
 *
 * The private driver table: cuGetExportTable(&table, &METALCUDA_PRIVATE_TABLE_ID)
 * returns a pointer to a metalcuda_private_table.  Our libcudart uses it to
 * reach driver state the public driver API does not expose; other programs
 * may use it to detect metalcuda.  Slot 0 is the table's size in bytes
 * (NVIDIA's export-table convention); new slots are only ever appended.
 */
#ifndef METALCUDA_H
#define METALCUDA_H

#include <stddef.h>

#define METALCUDA_PRIVATE_TABLE_ID_BYTES                                       \
   { 'm', 'e', 't', 'a', 'l', 'c', 'u', 'd', 'a', '-', 'p', 'r', 'i', 'v', '0', '1' }

struct CUctx_st;

typedef struct metalcuda_private_table {
   size_t size;
   /* The context's sticky error (a kernel fault or trap), as a CUresult;
    * 0 if none.  Does not wait for running work.  NULL: the current one. */
   int (*ctx_sticky_error)(struct CUctx_st *ctx);
} metalcuda_private_table;

#endif
