/*
 * version.c — the CUDA version a libcudart is the runtime of.  One library
 * serves three sonames (the Makefile): this file is compiled once for each
 * with MC_CUDART_RUNTIME_VERSION set (13000 for libcudart.so.13, 12090 for
 * .12, 11080 for .11.0, the versions whose ABI each carries), so that
 * cudaRuntimeGetVersion answers as the NVIDIA runtime of that soname and
 * cudaGetDriverEntryPoint hands out the driver functions of that version's
 * ABI (cuMemAdvise with a device ordinal for 12, say).
 */
#include "internal.h"

/* Compiled alone (tests/macos compiles every source once): the version of
 * the headers, CUDA 13's. */
#ifndef MC_CUDART_RUNTIME_VERSION
#define MC_CUDART_RUNTIME_VERSION CUDART_VERSION
#endif

int rt_runtime_version(void) { return MC_CUDART_RUNTIME_VERSION; }
