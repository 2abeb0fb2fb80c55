/*
 * logs.c — the driver's log that programs read: cuLogsRegisterCallback,
 * cuLogsUnregisterCallback, cuLogsCurrent, cuLogsDumpToFile,
 * cuLogsDumpToMemory.  The log is src/util/loghist.c's: metalcuda's error
 * and warning messages (which say why a call failed or what is not
 * supported) and a line for every failing Driver API call, in the last
 * 25600 bytes, as CUDA keeps them.  Each line reads "metalcuda: LEVEL:
 * CHANNEL: FUNCTION: text"; CUDA documents no format.
 */
#include "internal.h"

#include <pthread.h>

LOG_CHANNEL(logs);

/* A registered callback: the program's function, its data, and the
 * log's registration (loghist passes metalcuda's levels).  Entries live in
 * a table, so that a handle unregistered twice is still memory to look at. */
struct CUlogsCallbackEntry_st {
   CUlogsCallback fn;
   void *data;
   loghist_callback *reg;      /* NULL: a free entry */
};
enum { LOGS_CALLBACKS = 64 };
static struct CUlogsCallbackEntry_st entries[LOGS_CALLBACKS];
static pthread_mutex_t entries_lock = PTHREAD_MUTEX_INITIALIZER;

static void deliver(void *data, int level, char *msg, size_t len)
{
   const struct CUlogsCallbackEntry_st *e = data;
   e->fn(e->data, level == LOG_LEVEL_ERROR ? CU_LOG_LEVEL_ERROR : CU_LOG_LEVEL_WARNING, msg, len);
}

/* ==== cuLogsRegisterCallback (libcuda.@) ==== */
CUresult CUDAAPI cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData, CUlogsCallbackHandle *callback_out)
{
   API_ENTER("callbackFunc=%p userData=%p callback_out=%p", (void *)(uintptr_t)callbackFunc, userData,
             (void *)callback_out);
   API_CHECK(callbackFunc, CUDA_ERROR_INVALID_VALUE);
   struct CUlogsCallbackEntry_st *e = NULL;
   pthread_mutex_lock(&entries_lock);
   for (unsigned k = 0; k < LOGS_CALLBACKS && !e; k++)
      if (!entries[k].reg) {
         e = &entries[k];
         e->fn = callbackFunc;
         e->data = userData;
         e->reg = loghist_register(deliver, e);
         if (!e->reg)
            e = NULL;
         break;
      }
   pthread_mutex_unlock(&entries_lock);
   if (!e) {
      LOG_ERR("more than %d log callbacks registered", LOGS_CALLBACKS);
      return API_RETURN(CUDA_ERROR_OUT_OF_MEMORY);
   }
   if (callback_out)
      *callback_out = e;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuLogsUnregisterCallback (libcuda.@) ==== */
CUresult CUDAAPI cuLogsUnregisterCallback(CUlogsCallbackHandle callback)
{
   API_ENTER("callback=%p", (void *)callback);
   bool ok = false;
   pthread_mutex_lock(&entries_lock);
   if (callback >= entries && callback < entries + LOGS_CALLBACKS && callback->reg) {
      ok = loghist_unregister(callback->reg);
      callback->reg = NULL;
   }
   pthread_mutex_unlock(&entries_lock);
   return API_RETURN(ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

/* ==== cuLogsCurrent (libcuda.@) ==== */
CUresult CUDAAPI cuLogsCurrent(CUlogIterator *iterator_out, unsigned int flags)
{
   API_ENTER("iterator_out=%p flags=%#x", (void *)iterator_out, flags);
   /* flags are reserved; an H200 takes any */
   API_CHECK(iterator_out, CUDA_ERROR_INVALID_VALUE);
   *iterator_out = loghist_current();
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuLogsDumpToFile (libcuda.@) ==== */
CUresult CUDAAPI cuLogsDumpToFile(CUlogIterator *iterator, const char *pathToFile, unsigned int flags)
{
   API_ENTER("iterator=%p pathToFile=%s flags=%#x", (void *)iterator, pathToFile ? pathToFile : "(null)", flags);
   API_CHECK(pathToFile && flags == 0, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(loghist_dump_file(iterator, pathToFile) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

/* ==== cuLogsDumpToMemory (libcuda.@) ==== */
CUresult CUDAAPI cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer, size_t *size, unsigned int flags)
{
   API_ENTER("iterator=%p buffer=%p size=%p flags=%#x", (void *)iterator, (void *)buffer, (void *)size, flags);
   API_CHECK(buffer && size && *size && flags == 0, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(loghist_dump_memory(iterator, buffer, size) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}
