/*
 * tools_callbacks.c — TOOLS_RUNTIME_CALLBACK_HOOKS
 * {A094798C-2E74-2E74-93F2-0800200C0A66}: where the runtime finds the
 * buffers through which profiling tools (CUPTI) hook its API calls.
 *
 * Seven entries on NVIDIA's driver 580 (size word 0x38).  The runtime
 * calls slots 2 and 6 once at initialisation, each with (void **buffer,
 * size_t *count); NVIDIA's driver answers with zeroed static buffers of
 * 1024 and 14 elements, also before cuInit (observed on an H200).  No tool
 * attaches here, so they stay zero; their element size is not known, so
 * each holds 8-byte elements, enough whatever the runtime stores.
 */
#include "darkapi.h"

LOG_CHANNEL(darkapi);

static uint64_t hooks_a[1024], hooks_b[14];

/* [2] */
static void CUDAAPI hook_buffer_a(void **buffer, size_t *count)
{
   LOG_TRACE("buffer=%p count=%p", (void *)buffer, (void *)count);
   if (buffer)
      *buffer = hooks_a;
   if (count)
      *count = ARRAY_SIZE(hooks_a);
}

/* [6] */
static void CUDAAPI hook_buffer_b(void **buffer, size_t *count)
{
   LOG_TRACE("buffer=%p count=%p", (void *)buffer, (void *)count);
   if (buffer)
      *buffer = hooks_b;
   if (count)
      *count = ARRAY_SIZE(hooks_b);
}

DARK_UNKNOWN_SLOT(tools_callbacks, 1)
DARK_UNKNOWN_SLOT(tools_callbacks, 3)
DARK_UNKNOWN_SLOT(tools_callbacks, 4)
DARK_UNKNOWN_SLOT(tools_callbacks, 5)

const dark_fn dark_tools_callbacks[] = {
   DARK_SIZE(7),
   (dark_fn)dark_tools_callbacks_slot1,
   (dark_fn)hook_buffer_a,
   (dark_fn)dark_tools_callbacks_slot3,
   (dark_fn)dark_tools_callbacks_slot4,
   (dark_fn)dark_tools_callbacks_slot5,
   (dark_fn)hook_buffer_b,
};
