/*
 * entrypoint.c — cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion:
 * a driver function's address, through the driver's cuGetProcAddress_v2.
 *
 * The runtime's flags are the driver's (cudaEnableLegacyStream ==
 * CU_GET_PROC_ADDRESS_LEGACY_STREAM, cudaEnablePerThreadDefaultStream ==
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM), except cudaEnableDefault,
 * which the runtime resolves: the legacy stream for the plain entry points,
 * the per-thread stream for the _ptsz ones that programs built with
 * --default-stream per-thread call.  A symbol the driver does not have, or
 * has only for later versions, is not an error: cudaSuccess with *funcPtr
 * NULL and the reason in *driverStatus, as the driver answers (the query
 * results have the driver's values).
 *
 * cudaGetExportTable (undocumented, declared impl_private) is the driver's
 * cuGetExportTable: the same tables by the same GUIDs.
 */
#include "internal.h"

LOG_CHANNEL(runtime);

/* The driver flags for the runtime's, cudaEnableDefault resolved. */
static cuuint64_t proc_flags(unsigned long long flags, bool per_thread)
{
   if (flags != cudaEnableDefault)
      return flags;
   return per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
}

/* The lookup, for the entry points below (which trace and record the
 * error). */
static cudaError_t entry_point(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                               unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus,
                               bool per_thread)
{
   if (!symbol || !funcPtr)
      return cudaErrorInvalidValue;
   if (flags & ~(unsigned long long)(cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream))
      return cudaErrorInvalidValue;
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return e;
   /* "If the specified CUDA version is greater than the driver version,
    * the API will return cudaErrorInvalidValue" */
   int driver = 0;
   CUresult r = cuDriverGetVersion(&driver);
   if (r != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   if (cudaVersion > (unsigned)driver)
      return cudaErrorInvalidValue;
   CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
   r = cuGetProcAddress_v2(symbol, funcPtr, (int)cudaVersion, proc_flags(flags, per_thread), &status);
   if (r != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   if (driverStatus)
      *driverStatus = (enum cudaDriverEntryPointQueryResult)status;
   return cudaSuccess;
}

#define TRACE_ENTRY_POINT(version)                                                                      \
   RT_ENTER("symbol=%s funcPtr=%p cudaVersion=%u flags=%#llx driverStatus=%p", symbol ? symbol : "(null)", \
            (void *)funcPtr, (unsigned)(version), flags, (void *)driverStatus)

/* ==== cudaGetDriverEntryPointByVersion (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                       unsigned long long flags,
                                                       enum cudaDriverEntryPointQueryResult *driverStatus)
{
   TRACE_ENTRY_POINT(cudaVersion);
   return RT_RETURN(entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, false));
}

/* ==== cudaGetDriverEntryPointByVersion_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                            unsigned int cudaVersion, unsigned long long flags,
                                                            enum cudaDriverEntryPointQueryResult *driverStatus)
{
   TRACE_ENTRY_POINT(cudaVersion);
   return RT_RETURN(entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, true));
}

cudaError_t rt_driver_entry_point(const char *symbol, void **funcPtr, unsigned long long flags,
                                  enum cudaDriverEntryPointQueryResult *driverStatus, bool per_thread)
{
   return entry_point(symbol, funcPtr, (unsigned)rt_runtime_version(), flags, driverStatus, per_thread);
}

/* ==== cudaGetDriverEntryPoint (libcudart.@) ==== deprecated: the same at
 * the runtime's own version (rt_runtime_version: CUDA 11's form, without
 * the status, is in abi11.c) */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                                             unsigned long long flags,
                                                             enum cudaDriverEntryPointQueryResult *driverStatus)
{
   TRACE_ENTRY_POINT(rt_runtime_version());
   return RT_RETURN(rt_driver_entry_point(symbol, funcPtr, flags, driverStatus, false));
}

/* ==== cudaGetDriverEntryPoint_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                                  unsigned long long flags,
                                                                  enum cudaDriverEntryPointQueryResult *driverStatus)
{
   TRACE_ENTRY_POINT(rt_runtime_version());
   return RT_RETURN(rt_driver_entry_point(symbol, funcPtr, flags, driverStatus, true));
}

/* ==== cudaGetExportTable (libcudart.@) ==== the driver's tables
 * (driver/init.c, darkapi/): an unknown GUID or a NULL argument is
 * cudaErrorInvalidValue with nothing written but *ppExportTable NULL */
cudaError_t CUDARTAPI cudaGetExportTable(const void **ppExportTable, const cudaUUID_t *pExportTableId)
{
   RT_ENTER("ppExportTable=%p pExportTableId=%p", (void *)ppExportTable, (const void *)pExportTableId);
   return RT_RETURN_CU(cuGetExportTable(ppExportTable, pExportTableId));
}
