/*
 * stubs.c — every runtime entry point that entries.h marks STUB.
 *
 * Each one exists so that a program linked against NVIDIA's libcudart.so.13
 * finds every symbol it imports, and fails loudly rather than silently: it
 * logs "cudaFoo is not implemented yet" once (warn level), records
 * cudaErrorNotSupported as the thread's last error and returns it, as any
 * failing runtime call does; under METALCUDA_STRICT=1 it aborts instead.
 * Implementing one: write it in the file of its family and flip its mark
 * to IMPL (then rerun tools/gen_entries.py for its prototype).
 *
 * Why `(void)` parameters are safe whatever NVIDIA's signature is: on
 * x86-64 System V and AArch64 (AAPCS64 and Apple's arm64 variant) the caller
 * places the arguments and removes them itself, so a callee that reads none
 * unbalances nothing (unlike 32-bit stdcall, where the callee pops them),
 * and a cudaError_t comes back in eax / w0 whatever the parameter list.
 * What would not be safe is faking a struct returned by value, which travels
 * through a hidden pointer argument (rdi / x8): entries.h marks such
 * functions R=X and they can only be IMPL.
 *
 * R=V entries return nothing to report with: a registration call that nvcc
 * makes before main, or the undocumented __cudaGetProcAddress, which
 * NVIDIA's Linux libcudart.so.13 implements as `return 0`.  Their stubs log
 * and return a null pointer, which a void caller ignores.
 */
#include "../api.h"

LOG_CHANNEL(stub);

#define IMPL(name, r)
#define STUB(name, r) STUB_##r(name)
#define STUB_E(name) RT_DEFINE_STUB(name)
#define STUB_V(name)                                                          \
   MC_EXPORT void *CUDARTAPI name(void);                                      \
   MC_EXPORT void *CUDARTAPI name(void)                                       \
   {                                                                          \
      static int once_;                                                       \
      api_unsupported_(log_channel_, #name, NULL, &once_);                    \
      return NULL;                                                            \
   }
/* STUB_X deliberately undefined: such an entry must be IMPL. */
#include "entries.h"
#undef IMPL
#undef STUB
#undef STUB_E
#undef STUB_V
