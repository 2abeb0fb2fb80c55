/*
 * ipc.c — cudaIpcGetEventHandle, cudaIpcOpenEventHandle,
 * cudaIpcGetMemHandle, cudaIpcOpenMemHandle, cudaIpcCloseMemHandle and
 * cudaMemPoolExport/Import*: through the driver's cuIpc* and
 * cuMemPoolExport/Import* (driver/ipc.c), which refuse them with the
 * reason: metalcuda's device memory and events are private to their
 * process.  The handles have the driver's layout (64 bytes).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(ipc);

/* ==== cudaIpcGetEventHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("handle=%p event=%p", (void *)handle, (void *)event);
   return RT_RETURN_CU(cuIpcGetEventHandle((CUipcEventHandle *)handle, (CUevent)event));
}

/* ==== cudaIpcOpenEventHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("event=%p", (void *)event);
   CUipcEventHandle h;
   memcpy(&h, &handle, sizeof(h));
   return RT_RETURN_CU(cuIpcOpenEventHandle((CUevent *)event, h));
}

/* ==== cudaIpcGetMemHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("handle=%p devPtr=%p", (void *)handle, devPtr);
   return RT_RETURN_CU(cuIpcGetMemHandle((CUipcMemHandle *)handle, (CUdeviceptr)(uintptr_t)devPtr));
}

/* ==== cudaIpcOpenMemHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("devPtr=%p flags=%#x", (void *)devPtr, flags);
   CUipcMemHandle h;
   memcpy(&h, &handle, sizeof(h));
   return RT_RETURN_CU(cuIpcOpenMemHandle_v2((CUdeviceptr *)devPtr, h, flags));
}

/* ==== cudaIpcCloseMemHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *devPtr)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("devPtr=%p", devPtr);
   return RT_RETURN_CU(cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)devPtr));
}

/* ==== cudaMemPoolExportToShareableHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                                         enum cudaMemAllocationHandleType handleType, unsigned int flags)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("shareableHandle=%p memPool=%p handleType=%d flags=%#x", shareableHandle, (void *)memPool,
            (int)handleType, flags);
   return RT_RETURN_CU(cuMemPoolExportToShareableHandle(shareableHandle, (CUmemoryPool)memPool,
                                                        (CUmemAllocationHandleType)handleType, flags));
}

/* ==== cudaMemPoolImportFromShareableHandle (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                           enum cudaMemAllocationHandleType handleType,
                                                           unsigned int flags)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("memPool=%p shareableHandle=%p handleType=%d flags=%#x", (void *)memPool, shareableHandle,
            (int)handleType, flags);
   return RT_RETURN_CU(cuMemPoolImportFromShareableHandle((CUmemoryPool *)memPool, shareableHandle,
                                                          (CUmemAllocationHandleType)handleType, flags));
}

/* ==== cudaMemPoolExportPointer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("exportData=%p ptr=%p", (void *)exportData, ptr);
   return RT_RETURN_CU(cuMemPoolExportPointer((CUmemPoolPtrExportData *)exportData, (CUdeviceptr)(uintptr_t)ptr));
}

/* ==== cudaMemPoolImportPointer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                                               struct cudaMemPoolPtrExportData *exportData)
{
   /* REFUSED: driver/ipc.c */
   RT_ENTER("ptr=%p memPool=%p exportData=%p", (void *)ptr, (void *)memPool, (void *)exportData);
   return RT_RETURN_CU(cuMemPoolImportPointer((CUdeviceptr *)ptr, (CUmemoryPool)memPool,
                                              (CUmemPoolPtrExportData *)exportData));
}
