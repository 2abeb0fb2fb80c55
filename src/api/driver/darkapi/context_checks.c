/*
 * context_checks.c — CONTEXT_CHECKS {263E8860-7CD2-6143-92F6-BBD5006DFA7E}.
 *
 * Fifteen entries on NVIDIA's driver 580 (size word 0x78).  The runtime
 * calls slot 3 once at initialisation, with two pointers into its own
 * data, and NVIDIA's driver answers 0 leaving them as they were; and slot
 * 2 as (ctx, uint32_t *flags, void **out) after it settles on a context
 * and around synchronisations (also with a primary context that was reset
 * and not retained yet), and NVIDIA's driver writes 0 to *flags, leaves
 * *out alone and succeeds (observed on an H200, 770 calls over every
 * tests/cuda program and both runtimes); with a NULL context and none
 * current it answers INVALID_CONTEXT.  What a non-zero flag would ask of
 * the runtime is not known; 0 is what a context here is.  Slot 3 with
 * arbitrary arguments crashes NVIDIA's driver: it reads them.
 */
#include "darkapi.h"

LOG_CHANNEL(darkapi);

/* [2] ctx NULL: the current one; NVIDIA's driver answers INVALID_CONTEXT
 * with none current, INVALID_VALUE for NULL outputs (observed) */
static CUresult CUDAAPI context_flags(CUcontext ctx, uint32_t *flags, void **out)
{
   API_ENTER("ctx=%p flags=%p out=%p", (void *)ctx, (void *)flags, (void *)out);
   API_CHECK(flags, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_ctx_known(ctx ? ctx_of(ctx) : core_ctx_current()), CUDA_ERROR_INVALID_CONTEXT);
   *flags = 0;
   return API_RETURN(CUDA_SUCCESS);
}

/* [3] */
static CUresult CUDAAPI context_check3(void *a, void *b)
{
   API_ENTER("a=%p b=%p", a, b);
   return API_RETURN(CUDA_SUCCESS);
}

DARK_UNKNOWN_SLOT(context_checks, 1)
DARK_UNKNOWN_SLOT(context_checks, 4)
DARK_UNKNOWN_SLOT(context_checks, 5)
DARK_UNKNOWN_SLOT(context_checks, 6)
DARK_UNKNOWN_SLOT(context_checks, 7)
DARK_UNKNOWN_SLOT(context_checks, 8)
DARK_UNKNOWN_SLOT(context_checks, 9)
DARK_UNKNOWN_SLOT(context_checks, 10)
DARK_UNKNOWN_SLOT(context_checks, 11)
DARK_UNKNOWN_SLOT(context_checks, 12)
DARK_UNKNOWN_SLOT(context_checks, 13)
DARK_UNKNOWN_SLOT(context_checks, 14)

const dark_fn dark_context_checks[] = {
   DARK_SIZE(15),
   (dark_fn)dark_context_checks_slot1,
   (dark_fn)context_flags,
   (dark_fn)context_check3,
   (dark_fn)dark_context_checks_slot4,
   (dark_fn)dark_context_checks_slot5,
   (dark_fn)dark_context_checks_slot6,
   (dark_fn)dark_context_checks_slot7,
   (dark_fn)dark_context_checks_slot8,
   (dark_fn)dark_context_checks_slot9,
   (dark_fn)dark_context_checks_slot10,
   (dark_fn)dark_context_checks_slot11,
   (dark_fn)dark_context_checks_slot12,
   (dark_fn)dark_context_checks_slot13,
   (dark_fn)dark_context_checks_slot14,
};
