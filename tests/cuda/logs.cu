/*
 * logs.cu — the error log programs read (cudaLogs*, CUDA 12.9):
 *
 *  - from the iterator cudaLogsCurrent gives, a dump finds nothing (size 0,
 *    success) until a call fails; after failing calls (a free of an
 *    address no allocation has, an allocation larger than the device, an
 *    event destroyed twice) it finds text: NUL-terminated, ending in a
 *    newline, and the iterator moves past it (a second dump: empty);
 *  - a registered callback hears of the failures (error or warning level,
 *    a message of the length it is given); after unregistering it, no
 *    more;
 *  - cudaLogsDumpToFile writes the same kind of text to a file;
 *  - a buffer too small for any message -> cudaErrorInvalidValue and size
 *    0; a null iterator_out -> cudaErrorInvalidValue.  (An H200 takes
 *    cudaLogsCurrent's reserved flags whatever they are, and crashes when a
 *    callback is unregistered twice: neither is checked.)
 * The messages' wording is the driver's own (CUDA documents none), so only
 * their presence and form are checked.
 */
#include "check.h"

#include <stdio.h>
#include <string.h>

static int heard, heard_bad;

static void on_log(void *data, cudaLogLevel level, char *message, size_t length)
{
   (void)data;
   __atomic_add_fetch(&heard, 1, __ATOMIC_SEQ_CST);
   if ((level != cudaLogLevelError && level != cudaLogLevelWarning) || !message || strlen(message) != length ||
       length == 0)
      __atomic_add_fetch(&heard_bad, 1, __ATOMIC_SEQ_CST);
}

/* Calls that fail in the driver: an unknown address freed, an allocation
 * larger than any device, an event destroyed twice. */
static void fail_some_calls()
{
   CHECK(cudaFree((void *)0x1234560) != cudaSuccess);
   void *p = NULL;
   CHECK(cudaMalloc(&p, (size_t)1 << 62) != cudaSuccess);
   cudaEvent_t e;
   CHECK_CUDA(cudaEventCreate(&e));
   CHECK_CUDA(cudaEventDestroy(e));
   cudaGetLastError();
}

int main()
{
   check_begin("logs");
   REQUIRE_CUDA(cudaFree(0));
   cudaLogIterator it = 0;
   CHECK_CUDA(cudaLogsCurrent(&it, 0));
   static char buf[32768];
   size_t size = sizeof(buf);
   memset(buf, 'x', 16);
   CHECK_CUDA(cudaLogsDumpToMemory(&it, buf, &size, 0));
   CHECK_INT(size, 0);

   cudaLogsCallbackHandle h = NULL;
   CHECK_CUDA(cudaLogsRegisterCallback(on_log, NULL, &h));
   fail_some_calls();
   CHECK(__atomic_load_n(&heard, __ATOMIC_SEQ_CST) > 0);
   CHECK_INT(heard_bad, 0);

   size = sizeof(buf);
   CHECK_CUDA(cudaLogsDumpToMemory(&it, buf, &size, 0));
   CHECK(size > 0 && size < sizeof(buf));
   CHECK(size > 0 && buf[size] == 0 && buf[size - 1] == '\n' && strlen(buf) == size);
   size_t again = sizeof(buf);
   CHECK_CUDA(cudaLogsDumpToMemory(&it, buf, &again, 0));
   CHECK_INT(again, 0);

   CHECK_CUDA(cudaLogsUnregisterCallback(h));
   int before = __atomic_load_n(&heard, __ATOMIC_SEQ_CST);
   cudaLogIterator it2 = 0;
   CHECK_CUDA(cudaLogsCurrent(&it2, 0));
   fail_some_calls();
   CHECK_INT(__atomic_load_n(&heard, __ATOMIC_SEQ_CST), before);

   /* to a file, from it2 */
   const char *path = "/tmp/metalcuda_logs_test.txt";
   remove(path);
   CHECK_CUDA(cudaLogsDumpToFile(&it2, path, 0));
   FILE *f = fopen(path, "r");
   size_t n = 0;
   if (CHECK(f != NULL)) {
      n = fread(buf, 1, sizeof(buf) - 1, f);
      fclose(f);
   }
   CHECK(n > 0 && buf[n - 1] == '\n');
   remove(path);

   /* a buffer too small for any message */
   cudaLogIterator it3 = 0;
   CHECK_CUDA(cudaLogsCurrent(&it3, 0));
   fail_some_calls();
   size = 1;
   CHECK_ERR(cudaLogsDumpToMemory(&it3, buf, &size, 0), cudaErrorInvalidValue);
   CHECK_INT(size, 0);

   CHECK_ERR(cudaLogsCurrent(NULL, 0), cudaErrorInvalidValue);
   return check_end();
}
