/*
 * init.c — cuInit, cuDriverGetVersion, cuGetProcAddress, cuGetExportTable.
 */
#include "internal.h"
#include "darkapi/darkapi.h"

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

/* The stubs are defined in stubs.c with an empty parameter list. */
#define IMPL(name)
#define STUB(name) CUresult CUDAAPI name(void);
#include "entries.h"
#undef IMPL
#undef STUB

/* What NVIDIA's cuGetProcAddress_v2 answers (procaddress.tsv, generated
 * into procaddress.h): from CUDA version `since` on, base name `name` with
 * these flags is `fn`, up to the next row of the same name and flags. */
enum { PROC_FLAGS_ANY = -1 };

typedef struct proc_row {
   const char *name;
   int flags;                   /* CU_GET_PROC_ADDRESS_*, or PROC_FLAGS_ANY */
   int since;
   void *fn;
} proc_row;

#define PROC_ROW(name, flags, since, sym) { name, flags, since, (void *)sym },
static const proc_row proc_rows[] = {
#include "procaddress.h"
};
#undef PROC_ROW

/* The row for (symbol, flags) with the highest version not above
 * `version`: SUCCESS and its function, VERSION_NOT_SUFFICIENT if the name
 * has rows only above it, SYMBOL_NOT_FOUND if none. */
static CUdriverProcAddressQueryResult proc_find(const char *symbol, int flags, int version, void **fn)
{
   const proc_row *best = NULL;
   bool known = false;
   for (size_t k = 0; k < ARRAY_SIZE(proc_rows); k++) {
      const proc_row *r = &proc_rows[k];
      if ((r->flags != PROC_FLAGS_ANY && r->flags != flags) || strcmp(r->name, symbol))
         continue;
      known = true;
      if (r->since <= version && (!best || r->since > best->since))
         best = r;
   }
   *fn = best ? best->fn : NULL;
   return best ? CU_GET_PROC_ADDRESS_SUCCESS
               : known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
}

/* ==== cuGetProcAddress_v2 (libcuda.@) ====
 * NVIDIA's answers (procaddress.tsv): lookups are by base name, the
 * version picks the ABI (cuMemAlloc at 3020 and later is cuMemAlloc_v2),
 * the per-thread flag the _ptsz/_ptds variants (from 7000).  A name not
 * found, or found only for later versions, is CUDA_SUCCESS with *pfn NULL
 * and the reason in *symbolStatus, as documented and observed; a version
 * above the driver's is CUDA_ERROR_INVALID_VALUE. */
CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolStatus)
{
   API_ENTER("symbol=%s pfn=%p cudaVersion=%d flags=%#llx symbolStatus=%p", symbol ? symbol : "(null)",
             (void *)pfn, cudaVersion, (unsigned long long)flags, (void *)symbolStatus);
   API_CHECK(symbol && pfn, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(flags == CU_GET_PROC_ADDRESS_DEFAULT || flags == CU_GET_PROC_ADDRESS_LEGACY_STREAM ||
                flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK(cudaVersion <= CUDA_VERSION, CUDA_ERROR_INVALID_VALUE);
   CUdriverProcAddressQueryResult status = proc_find(symbol, (int)flags, cudaVersion, pfn);
   if (symbolStatus)
      *symbolStatus = status;
   return API_RETURN(CUDA_SUCCESS);
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
 * metalcuda's own table (metalcuda.h), and the undocumented tables
 * NVIDIA's runtime asks for (darkapi/).  As on NVIDIA's driver: they are
 * there before cuInit; an unknown GUID is CUDA_ERROR_INVALID_VALUE with
 * *ppExportTable NULL (and is logged once, by darkapi.c); a NULL argument
 * is CUDA_ERROR_INVALID_VALUE. */
CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
   API_ENTER("ppExportTable=%p pExportTableId=%p", (void *)ppExportTable, (const void *)pExportTableId);
   API_CHECK(ppExportTable && pExportTableId, CUDA_ERROR_INVALID_VALUE);
   static const char id[16] = METALCUDA_PRIVATE_TABLE_ID_BYTES;
   if (!memcmp(pExportTableId->bytes, id, 16)) {
      *ppExportTable = &private_table;
      return API_RETURN(CUDA_SUCCESS);
   }
   *ppExportTable = dark_find((const unsigned char *)pExportTableId->bytes);
   return API_RETURN(*ppExportTable ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}
