/*
 * callback.c — cuFFT's callbacks: the legacy ones (cufftXtSetCallback and
 * its companions), answered as NVIDIA's shared library answers them, and
 * the LTO callbacks (cufftXtSetJITCallback), which work (jit.c, exec.c).
 *
 * A legacy callback is a __device__ function of the program, which NVIDIA
 * links into its kernels at the program's device link: it needs NVIDIA's
 * static cuFFT (libcufft_static.a, -dc).  NVIDIA's shared libcufft, the
 * library `-lcufft` gives and the one metalcuda's stands in for, does not
 * take them.  Measured on an H200 (CUDA 13.0, libcufft.so.12): with a
 * device function pointer fetched by cudaMemcpyFromSymbol, on a planned
 * handle and on a created one, cufftXtSetCallback and cufftXtClearCallback
 * answer CUFFT_NOT_IMPLEMENTED.
 *
 * An LTO callback (CUDA 12.6 on; CUDA 13's signature, which names the
 * callback's symbol, the only one libcufft.so.12 exports) is set between
 * cufftCreate and cufftMakePlan*: its name and fatbin are copied here and
 * linked when the plan is made, where its type is checked against the
 * plan's.  cufftXtSetCallbackSharedSize gives an LTO callback's kernel
 * that much dynamic shared memory; without a callback of that type it
 * answers CUFFT_INVALID_PLAN (NVIDIA's library, on an H100, crashed in
 * this call on a handle with an LTO callback, so that is ours).  Without NVIDIA's libnvvm and libnvJitLink
 * (macOS always) cufftXtSetJITCallback answers CUFFT_NOT_SUPPORTED and
 * says which is missing.
 */
#include "cf.h"

#include <stdlib.h>
#include <string.h>

/* cufftXtSetJITCallback on a plan already made: an H100's answer (cuFFT 12.0) */
#define CF_JIT_AFTER_PLAN CUFFT_INVALID_PLAN

LOG_CHANNEL(cufft);

static cufftResult legacy_callbacks(const char *fn)
{
   LOG_ONCE(LOG_LEVEL_WARN,
            "%s: cuFFT's legacy callbacks need NVIDIA's static cuFFT; its shared library, which metalcuda's "
            "stands in for, answers CUFFT_NOT_IMPLEMENTED as this does",
            fn);
   return CUFFT_NOT_IMPLEMENTED;
}

/* ==== cufftXtSetCallback (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtSetCallback(cufftHandle plan, void **callback_routine, cufftXtCallbackType cbType,
                                         void **caller_info)
{
   CF_ENTER("plan=%d callback_routine=%p cbType=%d caller_info=%p", plan, (void *)callback_routine, (int)cbType,
            (void *)caller_info);
   return legacy_callbacks("cufftXtSetCallback");
}

/* ==== cufftXtClearCallback (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtClearCallback(cufftHandle plan, cufftXtCallbackType cbType)
{
   CF_ENTER("plan=%d cbType=%d", plan, (int)cbType);
   return legacy_callbacks("cufftXtClearCallback");
}

/* ==== cufftXtSetCallbackSharedSize (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtSetCallbackSharedSize(cufftHandle plan, cufftXtCallbackType cbType, size_t sharedSize)
{
   CF_ENTER("plan=%d cbType=%d sharedSize=%zu", plan, (int)cbType, sharedSize);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   CF_CHECK(cbType >= CUFFT_CB_LD_COMPLEX && cbType < CUFFT_CB_UNDEFINED, CUFFT_INVALID_VALUE);
   cf_jitcb *cb = &p->cb[cbType >= CUFFT_CB_ST_COMPLEX];
   /* a legacy callback is never set (cufftXtSetCallback), so only an LTO one has a size */
   CF_CHECK(cb->set && cb->type == cbType, CUFFT_INVALID_PLAN);
   /* the kernels' dynamic shared memory: 48 KiB, what a launch gets without opting in */
   CF_CHECK(sharedSize <= 48 * 1024, CUFFT_INVALID_VALUE);
   cb->shared = sharedSize;
   return CUFFT_SUCCESS;
}

/* ==== __cufftXtSetJITCallback_12_7 (libcufft.so.11 only: exports.cuda12) ==== */
CF_EXPORT cufftResult __cufftXtSetJITCallback_12_7(cufftHandle plan, const char *lto_callback_symbol_name,
                                                   const void *lto_callback_fatbin, size_t lto_callback_fatbin_size,
                                                   cufftXtCallbackType type, void **caller_info);
CF_EXPORT cufftResult __cufftXtSetJITCallback_12_7(cufftHandle plan, const char *lto_callback_symbol_name,
                                                   const void *lto_callback_fatbin, size_t lto_callback_fatbin_size,
                                                   cufftXtCallbackType type, void **caller_info)
{
   return cufftXtSetJITCallback(plan, lto_callback_symbol_name, lto_callback_fatbin, lto_callback_fatbin_size, type,
                                caller_info);
}

/* ==== cufftXtSetJITCallback (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtSetJITCallback(cufftHandle plan, const char *lto_callback_symbol_name,
                                            const void *lto_callback_fatbin, size_t lto_callback_fatbin_size,
                                            cufftXtCallbackType type, void **caller_info)
{
   CF_ENTER("plan=%d symbol=%s fatbin=%p size=%zu type=%d caller_info=%p", plan,
            lto_callback_symbol_name ? lto_callback_symbol_name : "(null)", lto_callback_fatbin,
            lto_callback_fatbin_size, (int)type, (void *)caller_info);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   CF_CHECK(!p->made, CF_JIT_AFTER_PLAN);
   CF_CHECK(lto_callback_fatbin && lto_callback_fatbin_size, CUFFT_INVALID_VALUE);
   CF_CHECK(type >= CUFFT_CB_LD_COMPLEX && type < CUFFT_CB_UNDEFINED, CUFFT_INVALID_TYPE);
   /* an H100 takes a NULL name here (cuFFT 12.0); no callback can be
    * found without one, so the plan is refused when it is made */
   const char *name = lto_callback_symbol_name ? lto_callback_symbol_name : "";
   CF_CHECK(strlen(name) < CF_SYM_MAX, CUFFT_INVALID_VALUE);
   const char *missing = cf_jit_available();
   if (missing) {
      LOG_WARN("cufftXtSetJITCallback: LTO callbacks need %s, which was not found: the callback's LTO-IR cannot be "
               "compiled without it",
               missing);
      return CUFFT_NOT_SUPPORTED;
   }
   cf_jitcb *cb = &p->cb[type >= CUFFT_CB_ST_COMPLEX];
   char *sym = strdup(name);
   void *fb = malloc(lto_callback_fatbin_size);
   if (!sym || !fb) {
      free(sym);
      free(fb);
      return CUFFT_ALLOC_FAILED;
   }
   memcpy(fb, lto_callback_fatbin, lto_callback_fatbin_size);
   free(cb->sym);
   free(cb->fatbin);
   *cb = (cf_jitcb){ .set = true, .sym = sym, .fatbin = fb, .size = lto_callback_fatbin_size, .type = type,
                     .info = caller_info ? caller_info[0] : NULL, .shared = cb->shared };
   return CUFFT_SUCCESS;
}
