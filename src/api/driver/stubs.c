/*
 * stubs.c — every driver entry point that entries.h marks STUB.
 *
 * Each one exists so that programs and cuGetProcAddress find every symbol
 * NVIDIA's libcuda.so.1 exports, and fails loudly rather than silently:
 * it logs "cuFoo is not implemented yet" once (warn level) and returns
 * CUDA_ERROR_NOT_SUPPORTED; under METALCUDA_STRICT=1 it aborts instead.
 * Implementing one: write it in the file of its family and flip its mark
 * to IMPL (then rerun tools/gen_entries.py for its prototype).
 *
 * Why `(void)` parameters are safe whatever NVIDIA's signature is: on the
 * two ABIs we ship for, x86-64 System V and AArch64 (AAPCS64 and Apple's
 * arm64 variant), the caller places the arguments in registers and on its
 * own stack and removes them itself afterwards; nothing the callee does not
 * read can unbalance anything (unlike 32-bit stdcall, where the callee pops
 * its arguments).  The CUresult comes back in eax / w0 whatever the
 * parameter list.  Only a struct returned by value would differ (a hidden
 * pointer argument in rdi / x8), and no driver function returns one.
 */
#include "../api.h"

LOG_CHANNEL(stub);

#define IMPL(name)
#define STUB(name)                                                            \
   MC_EXPORT CUresult CUDAAPI name(void);                                     \
   MC_EXPORT CUresult CUDAAPI name(void)                                      \
   {                                                                          \
      static int once_;                                                       \
      api_unsupported_(log_channel_, #name, NULL, &once_);                     \
      return CUDA_ERROR_NOT_SUPPORTED;                                        \
   }
#include "entries.h"
#undef IMPL
#undef STUB
