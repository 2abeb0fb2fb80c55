/*
 * error.c — the runtime's error names and strings, the thread's last error,
 * and the mapping of driver results to runtime errors.
 *
 * Names and strings are NVIDIA's exactly.  Source: the table inside
 * NVIDIA's libcudart.so.13 (CUDA 13.0.88): an array of {code, name,
 * string} in its data segment, read through its relocations, 134 rows, one
 * per value of CUDA 13's enum cudaError; confirmed by calling that library's
 * cudaGetErrorName/cudaGetErrorString (which need no GPU), which also give
 * "unrecognized error code" for both on any other code (1000, 9999, 10001,
 * -1, 135 were tried).
 */
#include "../api.h"

LOG_CHANNEL(error);

/* Every cudaError_t with its name and description, in NVIDIA's order. */
static const struct rt_error {
   cudaError_t code;
   const char *name, *string;
} rt_errors[] = {
#define E(code, string) { code, #code, string },
   E(cudaSuccess, "no error")
   E(cudaErrorInvalidValue, "invalid argument")
   E(cudaErrorMemoryAllocation, "out of memory")
   E(cudaErrorInitializationError, "initialization error")
   E(cudaErrorCudartUnloading, "driver shutting down")
   E(cudaErrorProfilerDisabled, "profiler disabled while using external profiling tool")
   E(cudaErrorProfilerNotInitialized, "profiler not initialized: call cudaProfilerInitialize()")
   E(cudaErrorProfilerAlreadyStarted, "profiler already started")
   E(cudaErrorProfilerAlreadyStopped, "profiler already stopped")
   E(cudaErrorStubLibrary, "CUDA driver is a stub library")
   E(cudaErrorCallRequiresNewerDriver, "API call is not supported in the installed CUDA driver")
   E(cudaErrorDevicesUnavailable, "CUDA-capable device(s) is/are busy or unavailable")
   E(cudaErrorNoDevice, "no CUDA-capable device is detected")
   E(cudaErrorInvalidDevice, "invalid device ordinal")
   E(cudaErrorDeviceNotLicensed, "device doesn't have valid Grid license")
   E(cudaErrorSoftwareValidityNotEstablished, "integrity checks failed")
   E(cudaErrorInvalidKernelImage, "device kernel image is invalid")
   E(cudaErrorDeviceUninitialized, "invalid device context")
   E(cudaErrorMapBufferObjectFailed, "mapping of buffer object failed")
   E(cudaErrorUnmapBufferObjectFailed, "unmapping of buffer object failed")
   E(cudaErrorArrayIsMapped, "array is mapped")
   E(cudaErrorAlreadyMapped, "resource already mapped")
   E(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device")
   E(cudaErrorAlreadyAcquired, "resource already acquired")
   E(cudaErrorNotMapped, "resource not mapped")
   E(cudaErrorNotMappedAsArray, "resource not mapped as array")
   E(cudaErrorNotMappedAsPointer, "resource not mapped as pointer")
   E(cudaErrorECCUncorrectable, "uncorrectable ECC error encountered")
   E(cudaErrorUnsupportedLimit, "limit is not supported on this architecture")
   E(cudaErrorDeviceAlreadyInUse, "exclusive-thread device already in use by a different thread")
   E(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices")
   E(cudaErrorInvalidPtx, "a PTX JIT compilation failed")
   E(cudaErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context")
   E(cudaErrorNvlinkUncorrectable, "uncorrectable NVLink error detected during the execution")
   E(cudaErrorJitCompilerNotFound, "PTX JIT compiler library not found")
   E(cudaErrorUnsupportedPtxVersion,
     "the provided PTX was compiled with an unsupported toolchain.")
   E(cudaErrorJitCompilationDisabled, "PTX JIT compilation was disabled")
   E(cudaErrorUnsupportedExecAffinity, "the provided execution affinity is not supported")
   E(cudaErrorUnsupportedDevSideSync,
     "the provided PTX contains unsupported call to cudaDeviceSynchronize")
   E(cudaErrorContained, "Invalid access of peer GPU memory over nvlink or a hardware error")
   E(cudaErrorInvalidSource, "device kernel image is invalid")
   E(cudaErrorFileNotFound, "file not found")
   E(cudaErrorSharedObjectSymbolNotFound, "shared object symbol not found")
   E(cudaErrorSharedObjectInitFailed, "shared object initialization failed")
   E(cudaErrorOperatingSystem, "OS call failed or operation not supported on this OS")
   E(cudaErrorInvalidResourceHandle, "invalid resource handle")
   E(cudaErrorIllegalState, "the operation cannot be performed in the present state")
   E(cudaErrorLossyQuery, "attempted introspection would be semantically lossy")
   E(cudaErrorSymbolNotFound, "named symbol not found")
   E(cudaErrorNotReady, "device not ready")
   E(cudaErrorIllegalAddress, "an illegal memory access was encountered")
   E(cudaErrorLaunchOutOfResources, "too many resources requested for launch")
   E(cudaErrorLaunchTimeout, "the launch timed out and was terminated")
   E(cudaErrorLaunchIncompatibleTexturing, "launch uses incompatible texturing mode")
   E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled")
   E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled")
   E(cudaErrorSetOnActiveProcess, "cannot set while device is active in this process")
   E(cudaErrorContextIsDestroyed, "context is destroyed")
   E(cudaErrorAssert, "device-side assert triggered")
   E(cudaErrorTooManyPeers, "peer mapping resources exhausted")
   E(cudaErrorHostMemoryAlreadyRegistered,
     "part or all of the requested memory range is already mapped")
   E(cudaErrorHostMemoryNotRegistered,
     "pointer does not correspond to a registered memory region")
   E(cudaErrorHardwareStackError, "hardware stack error")
   E(cudaErrorIllegalInstruction, "an illegal instruction was encountered")
   E(cudaErrorMisalignedAddress, "misaligned address")
   E(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space")
   E(cudaErrorInvalidPc, "invalid program counter")
   E(cudaErrorLaunchFailure, "unspecified launch failure")
   E(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch")
   E(cudaErrorTensorMemoryLeak, "tensor memory not completely freed")
   E(cudaErrorNotPermitted, "operation not permitted")
   E(cudaErrorNotSupported, "operation not supported")
   E(cudaErrorSystemNotReady, "system not yet initialized")
   E(cudaErrorSystemDriverMismatch,
     "system has unsupported display driver / cuda driver combination")
   E(cudaErrorCompatNotSupportedOnDevice,
     "forward compatibility was attempted on non supported HW")
   E(cudaErrorMpsConnectionFailed,
     "MPS client failed to connect to the MPS control daemon or the MPS server")
   E(cudaErrorMpsRpcFailure,
     "the remote procedural call between the MPS server and the MPS client failed")
   E(cudaErrorMpsServerNotReady, "MPS server is not ready to accept new MPS client requests")
   E(cudaErrorMpsMaxClientsReached,
     "the hardware resources required to create MPS client have been exhausted")
   E(cudaErrorMpsMaxConnectionsReached,
     "the hardware resources required to support device connections have been exhausted")
   E(cudaErrorMpsClientTerminated, "the MPS client has been terminated by the server")
   E(cudaErrorCdpNotSupported,
     "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, "
     "does not support it")
   E(cudaErrorCdpVersionMismatch,
     "unsupported interaction between different versions of CUDA Dynamic Parallelism")
   E(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing")
   E(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture")
   E(cudaErrorStreamCaptureMerge,
     "operation would result in a merge of separate capture sequences")
   E(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began")
   E(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work")
   E(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream")
   E(cudaErrorStreamCaptureImplicit,
     "operation would make the legacy stream depend on a capturing blocking stream")
   E(cudaErrorCapturedEvent,
     "operation not permitted on an event last recorded in a capturing stream")
   E(cudaErrorStreamCaptureWrongThread,
     "attempt to terminate a thread-local capture sequence from another thread")
   E(cudaErrorTimeout, "wait operation timed out")
   E(cudaErrorGraphExecUpdateFailure,
     "the graph update was not performed because it included changes which violated "
     "constraints specific to instantiated graph update")
   E(cudaErrorExternalDevice, "an async error has occured in external entity outside of CUDA")
   E(cudaErrorInvalidClusterSize,
     "a kernel launch error has occurred due to cluster misconfiguration")
   E(cudaErrorFunctionNotLoaded,
     "the function handle is not loaded when calling an API that requires a loaded function")
   E(cudaErrorInvalidResourceType,
     "one or more resources passed in are not valid resource types for the operation")
   E(cudaErrorInvalidResourceConfiguration,
     "one or more resources are insufficient or non-applicable for the operation")
   E(cudaErrorUnknown, "unknown error")
   E(cudaErrorMissingConfiguration, "__global__ function call is not configured")
   E(cudaErrorPriorLaunchFailure, "unspecified launch failure in prior launch")
   E(cudaErrorInvalidDeviceFunction, "invalid device function")
   E(cudaErrorInvalidConfiguration, "invalid configuration argument")
   E(cudaErrorInvalidPitchValue, "invalid pitch argument")
   E(cudaErrorInvalidSymbol, "invalid device symbol")
   E(cudaErrorInvalidHostPointer, "invalid host pointer")
   E(cudaErrorInvalidDevicePointer, "invalid device pointer")
   E(cudaErrorInvalidTexture, "invalid texture reference")
   E(cudaErrorInvalidTextureBinding, "texture is not bound to a pointer")
   E(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor")
   E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")
   E(cudaErrorAddressOfConstant, "invalid address of constant")
   E(cudaErrorTextureFetchFailed, "fetch from texture failed")
   E(cudaErrorTextureNotBound, "cannot fetch from a texture that is not bound")
   E(cudaErrorSynchronizationError, "incorrect use of __syncthreads()")
   E(cudaErrorInvalidFilterSetting, "linear filtering not supported for non-float type")
   E(cudaErrorInvalidNormSetting, "read as normalized float not supported for data type")
   E(cudaErrorMixedDeviceExecution,
     "device emulation mode and device execution mode cannot be mixed")
   E(cudaErrorNotYetImplemented, "feature not yet implemented")
   E(cudaErrorMemoryValueTooLarge, "memory size or pointer value too large to fit in 32 bit")
   E(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")
   E(cudaErrorInvalidSurface, "invalid surface reference")
   E(cudaErrorDuplicateVariableName, "duplicate global variable looked up by string name")
   E(cudaErrorDuplicateTextureName, "duplicate texture looked up by string name")
   E(cudaErrorDuplicateSurfaceName, "duplicate surface looked up by string name")
   E(cudaErrorIncompatibleDriverContext, "incompatible driver context")
   E(cudaErrorLaunchMaxDepthExceeded, "launch would exceed maximum depth of nested launches")
   E(cudaErrorLaunchFileScopedTex,
     "launch failed because kernel uses unsupported, file-scoped textures (texture "
     "objects are supported)")
   E(cudaErrorLaunchFileScopedSurf,
     "launch failed because kernel uses unsupported, file-scoped surfaces (surface "
     "objects are supported)")
   E(cudaErrorSyncDepthExceeded,
     "cudaDeviceSynchronize failed because caller's grid depth exceeds "
     "cudaLimitDevRuntimeSyncDepth")
   E(cudaErrorLaunchPendingCountExceeded,
     "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount")
   E(cudaErrorStartupFailure, "startup failure in cuda runtime")
   E(cudaErrorApiFailureBase, "api failure base")
#undef E
};

static const char unrecognized[] = "unrecognized error code";

static const struct rt_error *rt_error_find(cudaError_t e)
{
   for (size_t i = 0; i < ARRAY_SIZE(rt_errors); i++)
      if (rt_errors[i].code == e)
         return &rt_errors[i];
   return NULL;
}

const char *CUDARTAPI cudaGetErrorName(cudaError_t error)
{
   RT_ENTER("error=%d", (int)error);
   const struct rt_error *e = rt_error_find(error);
   return e ? e->name : unrecognized;
}

const char *CUDARTAPI cudaGetErrorString(cudaError_t error)
{
   RT_ENTER("error=%d", (int)error);
   const struct rt_error *e = rt_error_find(error);
   return e ? e->string : unrecognized;
}

const char *cuda_error_name(cudaError_t e)
{
   const struct rt_error *r = rt_error_find(e);
   if (r)
      return r->name;
   static _Thread_local char buf[32];
   snprintf(buf, sizeof(buf), "cudaError_t(%d)", (int)e);
   return buf;
}

/* ---- the thread's last error ---- */

static _Thread_local cudaError_t last_error;
/* The context's sticky error once cudaGetLastError has handed it to this
 * thread: it is not reported again until a failing call records it anew. */
static _Thread_local cudaError_t sticky_reported;
static cudaError_t (*sticky_hook)(void);

void rt_set_last_error(cudaError_t e)
{
   if (e != cudaSuccess)
      last_error = e;
}

/* A sticky error (kernel fault, device assert) makes every later call fail
 * with it, and each failure records it; cudaGetLastError itself clears it
 * like any other error.  Observed on an H200 (CUDA 13.0, driver 580) after
 * a failed assert: cudaDeviceSynchronize -> cudaErrorAssert, then
 * cudaGetLastError -> cudaErrorAssert, cudaGetLastError -> cudaSuccess,
 * cudaPeekAtLastError -> cudaSuccess, cudaMalloc -> cudaErrorAssert.  A
 * fault no call of this thread has reported yet (an asynchronous launch)
 * is reported once, when the thread has nothing else recorded. */
cudaError_t rt_get_last_error(bool reset)
{
   cudaError_t (*hook)(void) = __atomic_load_n(&sticky_hook, __ATOMIC_ACQUIRE);
   cudaError_t sticky = hook ? hook() : cudaSuccess;
   if (sticky == cudaSuccess)
      sticky_reported = cudaSuccess;   /* a fresh context: forget the old one's */
   cudaError_t e = last_error;
   if (e == cudaSuccess && sticky != cudaSuccess && sticky_reported != sticky)
      e = sticky;
   if (reset) {
      last_error = cudaSuccess;
      if (e != cudaSuccess && e == sticky)
         sticky_reported = sticky;
   }
   return e;
}

void rt_set_sticky_error_hook(cudaError_t (*hook)(void))
{
   __atomic_store_n(&sticky_hook, hook, __ATOMIC_RELEASE);
}

/* ---- driver results as runtime errors ----
 *
 * NVIDIA's runtime hands a driver error back unchanged: since CUDA 11 the
 * two enums share their numbers.  Observed with NVIDIA's static cudart
 * 13.0.88 on driver 580.159.04, through a libcuda.so.1 shim that made
 * cuMemAlloc_v2 fail: cudaMalloc returned exactly the code injected, for
 * each of the 101 CUresult values and for codes that are no CUresult at all
 * (5000, 12345, -3), including the two driver codes that have no runtime
 * name (202 CUDA_ERROR_CONTEXT_ALREADY_CURRENT, 916 CUDA_ERROR_KEY_ROTATION,
 * which cudaGetErrorString then calls "unrecognized error code").
 * The asserts below pin, by name, which runtime error each driver code
 * becomes. */
#define P(cu, rt) _Static_assert((int)(cu) == (int)(rt), #cu " is not " #rt);
P(CUDA_SUCCESS, cudaSuccess)
P(CUDA_ERROR_INVALID_VALUE, cudaErrorInvalidValue)
P(CUDA_ERROR_OUT_OF_MEMORY, cudaErrorMemoryAllocation)
P(CUDA_ERROR_NOT_INITIALIZED, cudaErrorInitializationError)
P(CUDA_ERROR_DEINITIALIZED, cudaErrorCudartUnloading)
P(CUDA_ERROR_PROFILER_DISABLED, cudaErrorProfilerDisabled)
P(CUDA_ERROR_PROFILER_NOT_INITIALIZED, cudaErrorProfilerNotInitialized)
P(CUDA_ERROR_PROFILER_ALREADY_STARTED, cudaErrorProfilerAlreadyStarted)
P(CUDA_ERROR_PROFILER_ALREADY_STOPPED, cudaErrorProfilerAlreadyStopped)
P(CUDA_ERROR_STUB_LIBRARY, cudaErrorStubLibrary)
P(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, cudaErrorCallRequiresNewerDriver)
P(CUDA_ERROR_DEVICE_UNAVAILABLE, cudaErrorDevicesUnavailable)
P(CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice)
P(CUDA_ERROR_INVALID_DEVICE, cudaErrorInvalidDevice)
P(CUDA_ERROR_DEVICE_NOT_LICENSED, cudaErrorDeviceNotLicensed)
P(CUDA_ERROR_INVALID_IMAGE, cudaErrorInvalidKernelImage)
P(CUDA_ERROR_INVALID_CONTEXT, cudaErrorDeviceUninitialized)
/* CUDA_ERROR_CONTEXT_ALREADY_CURRENT (202): no runtime name */
P(CUDA_ERROR_MAP_FAILED, cudaErrorMapBufferObjectFailed)
P(CUDA_ERROR_UNMAP_FAILED, cudaErrorUnmapBufferObjectFailed)
P(CUDA_ERROR_ARRAY_IS_MAPPED, cudaErrorArrayIsMapped)
P(CUDA_ERROR_ALREADY_MAPPED, cudaErrorAlreadyMapped)
P(CUDA_ERROR_NO_BINARY_FOR_GPU, cudaErrorNoKernelImageForDevice)
P(CUDA_ERROR_ALREADY_ACQUIRED, cudaErrorAlreadyAcquired)
P(CUDA_ERROR_NOT_MAPPED, cudaErrorNotMapped)
P(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, cudaErrorNotMappedAsArray)
P(CUDA_ERROR_NOT_MAPPED_AS_POINTER, cudaErrorNotMappedAsPointer)
P(CUDA_ERROR_ECC_UNCORRECTABLE, cudaErrorECCUncorrectable)
P(CUDA_ERROR_UNSUPPORTED_LIMIT, cudaErrorUnsupportedLimit)
P(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, cudaErrorDeviceAlreadyInUse)
P(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cudaErrorPeerAccessUnsupported)
P(CUDA_ERROR_INVALID_PTX, cudaErrorInvalidPtx)
P(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, cudaErrorInvalidGraphicsContext)
P(CUDA_ERROR_NVLINK_UNCORRECTABLE, cudaErrorNvlinkUncorrectable)
P(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, cudaErrorJitCompilerNotFound)
P(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, cudaErrorUnsupportedPtxVersion)
P(CUDA_ERROR_JIT_COMPILATION_DISABLED, cudaErrorJitCompilationDisabled)
P(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, cudaErrorUnsupportedExecAffinity)
P(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, cudaErrorUnsupportedDevSideSync)
P(CUDA_ERROR_CONTAINED, cudaErrorContained)
P(CUDA_ERROR_INVALID_SOURCE, cudaErrorInvalidSource)
P(CUDA_ERROR_FILE_NOT_FOUND, cudaErrorFileNotFound)
P(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, cudaErrorSharedObjectSymbolNotFound)
P(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, cudaErrorSharedObjectInitFailed)
P(CUDA_ERROR_OPERATING_SYSTEM, cudaErrorOperatingSystem)
P(CUDA_ERROR_INVALID_HANDLE, cudaErrorInvalidResourceHandle)
P(CUDA_ERROR_ILLEGAL_STATE, cudaErrorIllegalState)
P(CUDA_ERROR_LOSSY_QUERY, cudaErrorLossyQuery)
P(CUDA_ERROR_NOT_FOUND, cudaErrorSymbolNotFound)
P(CUDA_ERROR_NOT_READY, cudaErrorNotReady)
P(CUDA_ERROR_ILLEGAL_ADDRESS, cudaErrorIllegalAddress)
P(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cudaErrorLaunchOutOfResources)
P(CUDA_ERROR_LAUNCH_TIMEOUT, cudaErrorLaunchTimeout)
P(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, cudaErrorLaunchIncompatibleTexturing)
P(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cudaErrorPeerAccessAlreadyEnabled)
P(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cudaErrorPeerAccessNotEnabled)
P(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, cudaErrorSetOnActiveProcess)
P(CUDA_ERROR_CONTEXT_IS_DESTROYED, cudaErrorContextIsDestroyed)
P(CUDA_ERROR_ASSERT, cudaErrorAssert)
P(CUDA_ERROR_TOO_MANY_PEERS, cudaErrorTooManyPeers)
P(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cudaErrorHostMemoryAlreadyRegistered)
P(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cudaErrorHostMemoryNotRegistered)
P(CUDA_ERROR_HARDWARE_STACK_ERROR, cudaErrorHardwareStackError)
P(CUDA_ERROR_ILLEGAL_INSTRUCTION, cudaErrorIllegalInstruction)
P(CUDA_ERROR_MISALIGNED_ADDRESS, cudaErrorMisalignedAddress)
P(CUDA_ERROR_INVALID_ADDRESS_SPACE, cudaErrorInvalidAddressSpace)
P(CUDA_ERROR_INVALID_PC, cudaErrorInvalidPc)
P(CUDA_ERROR_LAUNCH_FAILED, cudaErrorLaunchFailure)
P(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cudaErrorCooperativeLaunchTooLarge)
P(CUDA_ERROR_TENSOR_MEMORY_LEAK, cudaErrorTensorMemoryLeak)
P(CUDA_ERROR_NOT_PERMITTED, cudaErrorNotPermitted)
P(CUDA_ERROR_NOT_SUPPORTED, cudaErrorNotSupported)
P(CUDA_ERROR_SYSTEM_NOT_READY, cudaErrorSystemNotReady)
P(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, cudaErrorSystemDriverMismatch)
P(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, cudaErrorCompatNotSupportedOnDevice)
P(CUDA_ERROR_MPS_CONNECTION_FAILED, cudaErrorMpsConnectionFailed)
P(CUDA_ERROR_MPS_RPC_FAILURE, cudaErrorMpsRpcFailure)
P(CUDA_ERROR_MPS_SERVER_NOT_READY, cudaErrorMpsServerNotReady)
P(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, cudaErrorMpsMaxClientsReached)
P(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, cudaErrorMpsMaxConnectionsReached)
P(CUDA_ERROR_MPS_CLIENT_TERMINATED, cudaErrorMpsClientTerminated)
P(CUDA_ERROR_CDP_NOT_SUPPORTED, cudaErrorCdpNotSupported)
P(CUDA_ERROR_CDP_VERSION_MISMATCH, cudaErrorCdpVersionMismatch)
P(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cudaErrorStreamCaptureUnsupported)
P(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cudaErrorStreamCaptureInvalidated)
P(CUDA_ERROR_STREAM_CAPTURE_MERGE, cudaErrorStreamCaptureMerge)
P(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cudaErrorStreamCaptureUnmatched)
P(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cudaErrorStreamCaptureUnjoined)
P(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cudaErrorStreamCaptureIsolation)
P(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cudaErrorStreamCaptureImplicit)
P(CUDA_ERROR_CAPTURED_EVENT, cudaErrorCapturedEvent)
P(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, cudaErrorStreamCaptureWrongThread)
P(CUDA_ERROR_TIMEOUT, cudaErrorTimeout)
P(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, cudaErrorGraphExecUpdateFailure)
P(CUDA_ERROR_EXTERNAL_DEVICE, cudaErrorExternalDevice)
P(CUDA_ERROR_INVALID_CLUSTER_SIZE, cudaErrorInvalidClusterSize)
P(CUDA_ERROR_FUNCTION_NOT_LOADED, cudaErrorFunctionNotLoaded)
P(CUDA_ERROR_INVALID_RESOURCE_TYPE, cudaErrorInvalidResourceType)
P(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, cudaErrorInvalidResourceConfiguration)
/* CUDA_ERROR_KEY_ROTATION (916): no runtime name */
P(CUDA_ERROR_UNKNOWN, cudaErrorUnknown)
#undef P

cudaError_t cu_to_cuda_error(CUresult r)
{
   return (cudaError_t)r;
}

/* ==== cudaGetLastError (libcudart.@) ==== returns and clears the thread's
 * last error (a sticky error stays) */
cudaError_t CUDARTAPI cudaGetLastError(void)
{
   RT_ENTER_VOID();
   cudaError_t e = rt_get_last_error(true);
   LOG_TRACE("-> %s", cuda_error_name(e));
   return e;
}

/* ==== cudaPeekAtLastError (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaPeekAtLastError(void)
{
   RT_ENTER_VOID();
   cudaError_t e = rt_get_last_error(false);
   LOG_TRACE("-> %s", cuda_error_name(e));
   return e;
}
