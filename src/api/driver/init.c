/*
 * init.c — cuInit, cuDriverGetVersion, cuGetProcAddress, cuGetExportTable.
 */
#include "internal.h"

#include "../../../include/metalcuda.h"

#include <string.h>

LOG_CHANNEL(init);

/* ==== cuInit (libcuda.@) ==== */
CUresult CUDAAPI cuInit(unsigned int Flags)
{
   API_ENTER("Flags=%#x", Flags);
   API_CHECK(Flags == 0, CUDA_ERROR_INVALID_VALUE);
   int r = core_init();
   return API_RETURN((CUresult)r);
}

/* ==== cuDriverGetVersion (libcuda.@) ==== */
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
   API_ENTER("driverVersion=%p", (void *)driverVersion);
   API_CHECK(driverVersion, CUDA_ERROR_INVALID_VALUE);
   *driverVersion = CUDA_VERSION;
   return API_RETURN(CUDA_SUCCESS);
}

/* Every exported driver symbol, implemented or stub, by name. */
typedef struct proc_entry {
   const char *name;
   void *fn;
} proc_entry;

/* The stubs are defined in stubs.c with an empty parameter list. */
#define IMPL(name)
#define STUB(name) CUresult CUDAAPI name(void);
#include "entries.h"
#undef IMPL
#undef STUB

#define IMPL(name) { #name, (void *)name },
#define STUB(name) { #name, (void *)name },
static const proc_entry proc_table[] = {
#include "entries.h"
};
#undef IMPL
#undef STUB

static void *proc_lookup(const char *name)
{
   for (size_t k = 0; k < ARRAY_SIZE(proc_table); k++)
      if (!strcmp(proc_table[k].name, name))
         return proc_table[k].fn;
   return NULL;
}

/* ==== cuGetProcAddress_v2 (libcuda.@) ====
 * Resolves a base name to the newest exported variant: name_v3, name_v2,
 * name; with the per-thread-default-stream flag, the _ptsz / _ptds variant
 * first. */
CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolStatus)
{
   API_ENTER("symbol=%s pfn=%p cudaVersion=%d flags=%#llx", symbol ? symbol : "(null)", (void *)pfn,
             cudaVersion, (unsigned long long)flags);
   API_CHECK(symbol && pfn, CUDA_ERROR_INVALID_VALUE);
   char name[256];
   static const char *const suffixes_ptds[] = { "_v3_ptsz", "_v2_ptsz", "_ptsz", "_v3_ptds", "_v2_ptds", "_ptds" };
   static const char *const suffixes[] = { "_v3", "_v2", "" };
   void *fn = NULL;
   if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
      for (size_t k = 0; k < ARRAY_SIZE(suffixes_ptds) && !fn; k++)
         if (snprintf(name, sizeof(name), "%s%s", symbol, suffixes_ptds[k]) < (int)sizeof(name))
            fn = proc_lookup(name);
   for (size_t k = 0; k < ARRAY_SIZE(suffixes) && !fn; k++)
      if (snprintf(name, sizeof(name), "%s%s", symbol, suffixes[k]) < (int)sizeof(name))
         fn = proc_lookup(name);
   *pfn = fn;
   if (symbolStatus)
      *symbolStatus = fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
   return API_RETURN(fn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND);
}

static int private_ctx_sticky_error(struct CUctx_st *ctx)
{
   core_ctx *c = ctx ? ctx_of((CUcontext)ctx) : core_ctx_current();
   return core_check_ctx(c) ? core_ctx_error(c) : 0;
}

static const metalcuda_private_table private_table = {
   sizeof(metalcuda_private_table),
   private_ctx_sticky_error,
};

/* ==== cuGetExportTable (libcuda.@) ====
 * Only metalcuda's own table (metalcuda.h) so far; the undocumented tables
 * NVIDIA's static runtime needs are not provided yet, so programs must use
 * the shared runtime (nvcc -cudart shared). */
CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
   API_ENTER("ppExportTable=%p pExportTableId=%p", (void *)ppExportTable, (const void *)pExportTableId);
   API_CHECK(ppExportTable && pExportTableId, CUDA_ERROR_INVALID_VALUE);
   static const char id[16] = METALCUDA_PRIVATE_TABLE_ID_BYTES;
   if (!memcmp(pExportTableId->bytes, id, 16)) {
      *ppExportTable = &private_table;
      return API_RETURN(CUDA_SUCCESS);
   }
   *ppExportTable = NULL;
   API_NOT_SUPPORTED("NVIDIA's export tables (its static runtime); build with -cudart shared");
}
