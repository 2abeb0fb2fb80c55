/*
 * logs.c — cudaLogsRegisterCallback, cudaLogsUnregisterCallback,
 * cudaLogsCurrent, cudaLogsDumpToFile, cudaLogsDumpToMemory: the driver's
 * log (src/api/driver/logs.c) through its calls; the types are the
 * driver's under the runtime's names.
 */
#include "internal.h"

LOG_CHANNEL(logs);

/* ==== cudaLogsRegisterCallback (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                                               cudaLogsCallbackHandle *callback_out)
{
   RT_ENTER("callbackFunc=%p userData=%p callback_out=%p", (void *)(uintptr_t)callbackFunc, userData,
            (void *)callback_out);
   return RT_RETURN_CU(cuLogsRegisterCallback((CUlogsCallback)callbackFunc, userData, callback_out));
}

/* ==== cudaLogsUnregisterCallback (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback)
{
   RT_ENTER("callback=%p", (void *)callback);
   return RT_RETURN_CU(cuLogsUnregisterCallback(callback));
}

/* ==== cudaLogsCurrent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags)
{
   RT_ENTER("iterator_out=%p flags=%#x", (void *)iterator_out, flags);
   return RT_RETURN_CU(cuLogsCurrent(iterator_out, flags));
}

/* ==== cudaLogsDumpToFile (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLogsDumpToFile(cudaLogIterator *iterator, const char *pathToFile, unsigned int flags)
{
   RT_ENTER("iterator=%p pathToFile=%s flags=%#x", (void *)iterator, pathToFile ? pathToFile : "(null)", flags);
   return RT_RETURN_CU(cuLogsDumpToFile(iterator, pathToFile, flags));
}

/* ==== cudaLogsDumpToMemory (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLogsDumpToMemory(cudaLogIterator *iterator, char *buffer, size_t *size, unsigned int flags)
{
   RT_ENTER("iterator=%p buffer=%p size=%p flags=%#x", (void *)iterator, (void *)buffer, (void *)size, flags);
   return RT_RETURN_CU(cuLogsDumpToMemory(iterator, buffer, size, flags));
}
