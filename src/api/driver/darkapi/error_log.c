/*
 * error_log.c — ERROR_LOG {F8CFF951-2146-8B4E-B9E2-FB469E7C0DD9}: how the
 * runtime reports a failing API call's reason to the driver's log (CUDA
 * 12.9+ error log management).
 *
 * Three entries on NVIDIA's driver 580 (size word 0x18).  The runtime asks
 * for it first of all tables, before cuInit, and calls slot 1 when an API
 * call fails, as (const char *component, 0, const char *format, va_list,
 * a pointer into its state, a level), e.g. "CUDA" and "Invalid device
 * number %d provided, must be in the range [0, %d)"; NVIDIA's driver
 * answers 0 (observed on an H200).  The message goes to metalcuda's log at
 * info level, its format unexpanded: the arguments' layout is inferred,
 * not known, and reading them wrongly could crash the program.
 */
#include "darkapi.h"

LOG_CHANNEL(darkapi);

/* [1] */
static CUresult CUDAAPI runtime_message(const char *component, uintptr_t arg1, const char *format)
{
   API_ENTER("component=%p arg1=%#llx format=%p", (const void *)component, (unsigned long long)arg1,
             (const void *)format);
   LOG_INFO("NVIDIA's runtime reports (%.32s): %.300s", component ? component : "?", format ? format : "?");
   return API_RETURN(CUDA_SUCCESS);
}

DARK_UNKNOWN_SLOT(error_log, 2)

const dark_fn dark_error_log[] = {
   DARK_SIZE(3),
   (dark_fn)runtime_message,
   (dark_fn)dark_error_log_slot2,
};
