/*
 * ipc.c — inter-process handles: cuIpcGetEventHandle, cuIpcOpenEventHandle,
 * cuIpcGetMemHandle, cuIpcOpenMemHandle(_v2), cuIpcCloseMemHandle, and
 * the memory pools' sharing: cuMemPoolExportToShareableHandle,
 * cuMemPoolImportFromShareableHandle, cuMemPoolExportPointer,
 * cuMemPoolImportPointer.
 *
 * REFUSED, each with CUDA_ERROR_NOT_SUPPORTED and one line saying why:
 * another process cannot open metalcuda's device memory or events, which
 * live in the memory of the process that made them (the software device's
 * arena, a Metal device's buffers), so there is no handle to give.  The
 * device says as much: CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED is 0 and
 * CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE is 0 for every pointer.
 */
#include "internal.h"

LOG_CHANNEL(ipc);

#define IPC_WHY "sharing device memory or events with another process (metalcuda's are private to their process)"

/* ==== cuIpcGetEventHandle (libcuda.@) ==== */
CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event)
{
   API_ENTER("pHandle=%p event=%p", (void *)pHandle, (void *)event);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuIpcOpenEventHandle (libcuda.@) ==== */
CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
   API_ENTER("phEvent=%p handle=%.8s...", (void *)phEvent, handle.reserved);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuIpcGetMemHandle (libcuda.@) ==== */
CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
   API_ENTER("pHandle=%p dptr=%#llx", (void *)pHandle, (unsigned long long)dptr);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuIpcOpenMemHandle (libcuda.@) ==== */
CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
   API_ENTER("pdptr=%p handle=%.8s... Flags=%#x", (void *)pdptr, handle.reserved, Flags);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuIpcOpenMemHandle_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
   API_ENTER("pdptr=%p handle=%.8s... Flags=%#x", (void *)pdptr, handle.reserved, Flags);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuIpcCloseMemHandle (libcuda.@) ==== */
CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr)
{
   API_ENTER("dptr=%#llx", (unsigned long long)dptr);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuMemPoolExportToShareableHandle (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
                                                  CUmemAllocationHandleType handleType, unsigned long long flags)
{
   API_ENTER("handle_out=%p pool=%p handleType=%d flags=%#llx", handle_out, (void *)pool, (int)handleType, flags);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuMemPoolImportFromShareableHandle (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out, void *handle,
                                                    CUmemAllocationHandleType handleType, unsigned long long flags)
{
   API_ENTER("pool_out=%p handle=%p handleType=%d flags=%#llx", (void *)pool_out, handle, (int)handleType, flags);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuMemPoolExportPointer (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out, CUdeviceptr ptr)
{
   API_ENTER("shareData_out=%p ptr=%#llx", (void *)shareData_out, (unsigned long long)ptr);
   API_NOT_SUPPORTED(IPC_WHY);
}

/* ==== cuMemPoolImportPointer (libcuda.@) ==== */
CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool, CUmemPoolPtrExportData *shareData)
{
   API_ENTER("ptr_out=%p pool=%p shareData=%p", (void *)ptr_out, (void *)pool, (void *)shareData);
   API_NOT_SUPPORTED(IPC_WHY);
}
