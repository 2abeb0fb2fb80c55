/*
 * cuabi.h — the CUDA 13.0 binary interface that metalcuda implements, in our
 * own declarations.
 *
 * We build on machines without NVIDIA's toolkit (every Mac), so the API layer
 * cannot include cuda.h or cuda_runtime_api.h.  This header declares the
 * types, enumerators and constants that cross the ABI: numeric values, type
 * sizes and struct layouts are facts of the ABI and must be exactly NVIDIA's;
 * everything else (order of declarations, formatting, which subset we carry)
 * is ours.  A struct here is filled by us and read by a program compiled
 * against NVIDIA's header, so one wrong offset corrupts the program silently.
 *
 * Proof: tests/unit/test_cuabi.c compiles tests/tools/cuabi_dump.c against
 * this header and against NVIDIA's, and compares every enumerator value,
 * constant, sizeof, alignment and field offset listed in
 * tests/tools/cuabi_list.h; it also checks that each enum and struct listed
 * here has exactly NVIDIA's members (no value missing, none invented).  After
 * adding a type here, run tools/gen_cuabi_list.py to extend the list.
 *
 * Only types and constants live here.  Prototypes are generated into
 * driver/protos.h and runtime/protos.h for the implemented entry points
 * only, so that stubs.c can define all the others as (void).
 *
 * Layout conventions: driver types (CU*) first, runtime types (cuda*) second;
 * runtime handles are the very same struct pointers as the driver's, as in
 * NVIDIA's headers, so a cudaStream_t is a CUstream without a cast.
 */
#ifndef MC_API_CUABI_H
#define MC_API_CUABI_H

#include <stddef.h>
#include <stdint.h>

#define CUDA_VERSION   13000
#define CUDART_VERSION 13000

/* Calling conventions: __stdcall on 32-bit Windows only, which we do not
 * target; empty on Linux and macOS. */
#define CUDAAPI
#define CUDARTAPI
#define CUDA_CB
#define CUDART_CB

/* ======================================================================
 * Driver API (cuda.h)
 * ====================================================================== */

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

/* Plain integers.  The _v1/_v2 names are the ones cudaTypedefs.h uses in
 * the PFN_ signatures; they are the same types. */
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;
typedef unsigned long long CUmemGenericAllocationHandle;
typedef cuuint64_t CUgraphConditionalHandle;
typedef unsigned int CUlogIterator;

/* Opaque handles: pointers to structs that only the driver defines. */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUarray_st *CUarray;
typedef struct CUmipmappedArray_st *CUmipmappedArray;
typedef struct CUtexref_st *CUtexref;
typedef struct CUsurfref_st *CUsurfref;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef struct CUgraphicsResource_st *CUgraphicsResource;
typedef struct CUextMemory_st *CUexternalMemory;
typedef struct CUextSemaphore_st *CUexternalSemaphore;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct CUuserObject_st *CUuserObject;
typedef struct CUgraphDeviceUpdatableNode_st *CUgraphDeviceNode;
typedef struct CUasyncCallbackEntry_st *CUasyncCallbackHandle;
typedef struct CUgreenCtx_st *CUgreenCtx;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUdevResourceDesc_st *CUdevResourceDesc;
typedef enum {
   CU_GREEN_CTX_DEFAULT_STREAM = 0x1,
} CUgreenCtxCreate_flags;
typedef struct CUlogsCallbackEntry_st *CUlogsCallbackHandle;
typedef enum CUlogLevel_enum {
   CU_LOG_LEVEL_ERROR = 0,
   CU_LOG_LEVEL_WARNING = 1,
} CUlogLevel;
typedef void (CUDA_CB *CUlogsCallback)(void *data, CUlogLevel logLevel, char *message, size_t length);
typedef enum CUDAlogLevel_enum {
   cudaLogLevelError = 0,
   cudaLogLevelWarning = 1,
} cudaLogLevel;
typedef struct CUlogsCallbackEntry_st *cudaLogsCallbackHandle;
typedef unsigned int cudaLogIterator;
typedef void (CUDART_CB *cudaLogsCallback_t)(void *data, cudaLogLevel logLevel, char *message, size_t length);

/* Special stream handles accepted wherever a CUstream is. */
#define CU_STREAM_LEGACY     ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

#define CU_DEVICE_CPU     ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)

/* cuLaunchKernel's `extra` array: key/value pairs ending with END. */
#define CU_LAUNCH_PARAM_END_AS_INT            0x00
#define CU_LAUNCH_PARAM_END                   ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER        ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT    0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE           ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

#define CU_MEMHOSTALLOC_PORTABLE      0x01
#define CU_MEMHOSTALLOC_DEVICEMAP     0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_MEMHOSTREGISTER_PORTABLE   0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP  0x02
#define CU_MEMHOSTREGISTER_IOMEMORY   0x04
#define CU_MEMHOSTREGISTER_READ_ONLY  0x08

typedef struct CUuuid_st {
   char bytes[16];
} CUuuid;

/* ---- error codes ---- */

typedef enum cudaError_enum {
   CUDA_SUCCESS                              = 0,
   CUDA_ERROR_INVALID_VALUE                  = 1,
   CUDA_ERROR_OUT_OF_MEMORY                  = 2,
   CUDA_ERROR_NOT_INITIALIZED                = 3,
   CUDA_ERROR_DEINITIALIZED                  = 4,
   CUDA_ERROR_PROFILER_DISABLED              = 5,
   CUDA_ERROR_PROFILER_NOT_INITIALIZED       = 6,
   CUDA_ERROR_PROFILER_ALREADY_STARTED       = 7,
   CUDA_ERROR_PROFILER_ALREADY_STOPPED       = 8,
   CUDA_ERROR_STUB_LIBRARY                   = 34,
   CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER     = 36,
   CUDA_ERROR_DEVICE_UNAVAILABLE             = 46,
   CUDA_ERROR_NO_DEVICE                      = 100,
   CUDA_ERROR_INVALID_DEVICE                 = 101,
   CUDA_ERROR_DEVICE_NOT_LICENSED            = 102,
   CUDA_ERROR_INVALID_IMAGE                  = 200,
   CUDA_ERROR_INVALID_CONTEXT                = 201,
   CUDA_ERROR_CONTEXT_ALREADY_CURRENT        = 202,
   CUDA_ERROR_MAP_FAILED                     = 205,
   CUDA_ERROR_UNMAP_FAILED                   = 206,
   CUDA_ERROR_ARRAY_IS_MAPPED                = 207,
   CUDA_ERROR_ALREADY_MAPPED                 = 208,
   CUDA_ERROR_NO_BINARY_FOR_GPU              = 209,
   CUDA_ERROR_ALREADY_ACQUIRED               = 210,
   CUDA_ERROR_NOT_MAPPED                     = 211,
   CUDA_ERROR_NOT_MAPPED_AS_ARRAY            = 212,
   CUDA_ERROR_NOT_MAPPED_AS_POINTER          = 213,
   CUDA_ERROR_ECC_UNCORRECTABLE              = 214,
   CUDA_ERROR_UNSUPPORTED_LIMIT              = 215,
   CUDA_ERROR_CONTEXT_ALREADY_IN_USE         = 216,
   CUDA_ERROR_PEER_ACCESS_UNSUPPORTED        = 217,
   CUDA_ERROR_INVALID_PTX                    = 218,
   CUDA_ERROR_INVALID_GRAPHICS_CONTEXT       = 219,
   CUDA_ERROR_NVLINK_UNCORRECTABLE           = 220,
   CUDA_ERROR_JIT_COMPILER_NOT_FOUND         = 221,
   CUDA_ERROR_UNSUPPORTED_PTX_VERSION        = 222,
   CUDA_ERROR_JIT_COMPILATION_DISABLED       = 223,
   CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY      = 224,
   CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC       = 225,
   CUDA_ERROR_CONTAINED                      = 226,
   CUDA_ERROR_INVALID_SOURCE                 = 300,
   CUDA_ERROR_FILE_NOT_FOUND                 = 301,
   CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
   CUDA_ERROR_SHARED_OBJECT_INIT_FAILED      = 303,
   CUDA_ERROR_OPERATING_SYSTEM               = 304,
   CUDA_ERROR_INVALID_HANDLE                 = 400,
   CUDA_ERROR_ILLEGAL_STATE                  = 401,
   CUDA_ERROR_LOSSY_QUERY                    = 402,
   CUDA_ERROR_NOT_FOUND                      = 500,
   CUDA_ERROR_NOT_READY                      = 600,
   CUDA_ERROR_ILLEGAL_ADDRESS                = 700,
   CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES        = 701,
   CUDA_ERROR_LAUNCH_TIMEOUT                 = 702,
   CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING  = 703,
   CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED    = 704,
   CUDA_ERROR_PEER_ACCESS_NOT_ENABLED        = 705,
   CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE         = 708,
   CUDA_ERROR_CONTEXT_IS_DESTROYED           = 709,
   CUDA_ERROR_ASSERT                         = 710,
   CUDA_ERROR_TOO_MANY_PEERS                 = 711,
   CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
   CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED     = 713,
   CUDA_ERROR_HARDWARE_STACK_ERROR           = 714,
   CUDA_ERROR_ILLEGAL_INSTRUCTION            = 715,
   CUDA_ERROR_MISALIGNED_ADDRESS             = 716,
   CUDA_ERROR_INVALID_ADDRESS_SPACE          = 717,
   CUDA_ERROR_INVALID_PC                     = 718,
   CUDA_ERROR_LAUNCH_FAILED                  = 719,
   CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE   = 720,
   CUDA_ERROR_TENSOR_MEMORY_LEAK             = 721,
   CUDA_ERROR_NOT_PERMITTED                  = 800,
   CUDA_ERROR_NOT_SUPPORTED                  = 801,
   CUDA_ERROR_SYSTEM_NOT_READY               = 802,
   CUDA_ERROR_SYSTEM_DRIVER_MISMATCH         = 803,
   CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
   CUDA_ERROR_MPS_CONNECTION_FAILED          = 805,
   CUDA_ERROR_MPS_RPC_FAILURE                = 806,
   CUDA_ERROR_MPS_SERVER_NOT_READY           = 807,
   CUDA_ERROR_MPS_MAX_CLIENTS_REACHED        = 808,
   CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED    = 809,
   CUDA_ERROR_MPS_CLIENT_TERMINATED          = 810,
   CUDA_ERROR_CDP_NOT_SUPPORTED              = 811,
   CUDA_ERROR_CDP_VERSION_MISMATCH           = 812,
   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED     = 900,
   CUDA_ERROR_STREAM_CAPTURE_INVALIDATED     = 901,
   CUDA_ERROR_STREAM_CAPTURE_MERGE           = 902,
   CUDA_ERROR_STREAM_CAPTURE_UNMATCHED       = 903,
   CUDA_ERROR_STREAM_CAPTURE_UNJOINED        = 904,
   CUDA_ERROR_STREAM_CAPTURE_ISOLATION       = 905,
   CUDA_ERROR_STREAM_CAPTURE_IMPLICIT        = 906,
   CUDA_ERROR_CAPTURED_EVENT                 = 907,
   CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD    = 908,
   CUDA_ERROR_TIMEOUT                        = 909,
   CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE      = 910,
   CUDA_ERROR_EXTERNAL_DEVICE                = 911,
   CUDA_ERROR_INVALID_CLUSTER_SIZE           = 912,
   CUDA_ERROR_FUNCTION_NOT_LOADED            = 913,
   CUDA_ERROR_INVALID_RESOURCE_TYPE          = 914,
   CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
   CUDA_ERROR_KEY_ROTATION                   = 916,
   CUDA_ERROR_UNKNOWN                        = 999,
} CUresult;
/* ---- device, context, stream and event properties ---- */

typedef enum CUdevice_attribute_enum {
   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK                         = 1,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X                               = 2,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y                               = 3,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z                               = 4,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X                                = 5,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y                                = 6,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z                                = 7,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK                   = 8,
   CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK                       = 8,
   CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY                         = 9,
   CU_DEVICE_ATTRIBUTE_WARP_SIZE                                     = 10,
   CU_DEVICE_ATTRIBUTE_MAX_PITCH                                     = 11,
   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK                       = 12,
   CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK                           = 12,
   CU_DEVICE_ATTRIBUTE_CLOCK_RATE                                    = 13,
   CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT                             = 14,
   CU_DEVICE_ATTRIBUTE_GPU_OVERLAP                                   = 15,
   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT                          = 16,
   CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT                           = 17,
   CU_DEVICE_ATTRIBUTE_INTEGRATED                                    = 18,
   CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY                           = 19,
   CU_DEVICE_ATTRIBUTE_COMPUTE_MODE                                  = 20,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH                       = 21,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH                       = 22,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT                      = 23,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH                       = 24,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT                      = 25,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH                       = 26,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH               = 27,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT              = 28,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS              = 29,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH                 = 27,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT                = 28,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES             = 29,
   CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT                             = 30,
   CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS                            = 31,
   CU_DEVICE_ATTRIBUTE_ECC_ENABLED                                   = 32,
   CU_DEVICE_ATTRIBUTE_PCI_BUS_ID                                    = 33,
   CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID                                 = 34,
   CU_DEVICE_ATTRIBUTE_TCC_DRIVER                                    = 35,
   CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE                             = 36,
   CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH                       = 37,
   CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE                                 = 38,
   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR                = 39,
   CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT                            = 40,
   CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING                            = 41,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH               = 42,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS              = 43,
   CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER                              = 44,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH                = 45,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT               = 46,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE             = 47,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE            = 48,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE             = 49,
   CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID                                 = 50,
   CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT                       = 51,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH                  = 52,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH          = 53,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS         = 54,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH                       = 55,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH                       = 56,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT                      = 57,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH                       = 58,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT                      = 59,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH                       = 60,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH               = 61,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS              = 62,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH               = 63,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT              = 64,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS              = 65,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH                  = 66,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH          = 67,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS         = 68,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH                = 69,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH                = 70,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT               = 71,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH                = 72,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH             = 73,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT            = 74,
   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR                      = 75,
   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR                      = 76,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH             = 77,
   CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED                   = 78,
   CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED                     = 79,
   CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED                      = 80,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR          = 81,
   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR              = 82,
   CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY                                = 83,
   CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD                               = 84,
   CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID                      = 85,
   CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED                  = 86,
   CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO         = 87,
   CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS                        = 88,
   CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS                     = 89,
   CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED                  = 90,
   CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM       = 91,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1                     = 92,
   CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1              = 93,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1              = 94,
   CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH                            = 95,
   CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH               = 96,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN             = 97,
   CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES                       = 98,
   CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED                       = 99,
   CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES  = 100,
   CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST           = 101,
   CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED          = 102,
   CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED           = 102,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED   = 103,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED            = 104,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED        = 105,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR                 = 106,
   CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED                 = 107,
   CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE                  = 108,
   CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE                 = 109,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED       = 110,
   CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK              = 111,
   CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED                   = 112,
   CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED             = 113,
   CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED          = 114,
   CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED                        = 115,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED                     = 116,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS          = 117,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING               = 118,
   CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES                = 119,
   CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH                                = 120,
   CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED         = 121,
   CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS                 = 122,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR                 = 123,
   CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED                             = 124,
   CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED                           = 125,
   CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT                         = 126,
   CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED                   = 127,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED                  = 128,
   CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS                     = 129,
   CU_DEVICE_ATTRIBUTE_NUMA_CONFIG                                   = 130,
   CU_DEVICE_ATTRIBUTE_NUMA_ID                                       = 131,
   CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED                           = 132,
   CU_DEVICE_ATTRIBUTE_MPS_ENABLED                                   = 133,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID                                  = 134,
   CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED                           = 135,
   CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK                 = 136,
   CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH                 = 137,
   CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED                          = 138,
   CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID                             = 139,
   CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID                          = 140,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED              = 142,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED             = 143,
   CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED                   = 144,
   CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED      = 145,
   CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED                  = 146,
   CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED     = 147,
   CU_DEVICE_ATTRIBUTE_MAX                                           = 148,
} CUdevice_attribute;
typedef enum CUlimit_enum {
   CU_LIMIT_STACK_SIZE                       = 0,
   CU_LIMIT_PRINTF_FIFO_SIZE                 = 1,
   CU_LIMIT_MALLOC_HEAP_SIZE                 = 2,
   CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH           = 3,
   CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
   CU_LIMIT_MAX_L2_FETCH_GRANULARITY         = 5,
   CU_LIMIT_PERSISTING_L2_CACHE_SIZE         = 6,
   CU_LIMIT_SHMEM_SIZE                       = 7,
   CU_LIMIT_CIG_ENABLED                      = 8,
   CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED       = 9,
   CU_LIMIT_MAX                              = 10,
} CUlimit;
typedef enum CUfunc_cache_enum {
   CU_FUNC_CACHE_PREFER_NONE   = 0,
   CU_FUNC_CACHE_PREFER_SHARED = 1,
   CU_FUNC_CACHE_PREFER_L1     = 2,
   CU_FUNC_CACHE_PREFER_EQUAL  = 3,
} CUfunc_cache;
typedef enum CUsharedconfig_enum {
   CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE    = 0,
   CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE  = 1,
   CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 2,
} CUsharedconfig;
typedef size_t (CUDA_CB *CUoccupancyB2DSize)(int blockSize);
typedef enum CUctx_flags_enum {
   CU_CTX_SCHED_AUTO           = 0,
   CU_CTX_SCHED_SPIN           = 0x1,
   CU_CTX_SCHED_YIELD          = 0x2,
   CU_CTX_SCHED_BLOCKING_SYNC  = 0x4,
   CU_CTX_BLOCKING_SYNC        = 0x4,
   CU_CTX_SCHED_MASK           = 0x7,
   CU_CTX_MAP_HOST             = 0x8,
   CU_CTX_LMEM_RESIZE_TO_MAX   = 0x10,
   CU_CTX_COREDUMP_ENABLE      = 0x20,
   CU_CTX_USER_COREDUMP_ENABLE = 0x40,
   CU_CTX_SYNC_MEMOPS          = 0x80,
   CU_CTX_FLAGS_MASK           = 0xff,
} CUctx_flags;
typedef enum CUexecAffinityType_enum {
   CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
   CU_EXEC_AFFINITY_TYPE_MAX
} CUexecAffinityType;
typedef struct CUexecAffinitySmCount_st {
   unsigned int val;
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;
typedef struct CUexecAffinityParam_st {
   CUexecAffinityType type;
   union {
      CUexecAffinitySmCount smCount;
   } param;
} CUexecAffinityParam_v1;
typedef CUexecAffinityParam_v1 CUexecAffinityParam;
typedef enum CUcigDataType_enum {
   CIG_DATA_TYPE_D3D12_COMMAND_QUEUE = 0x1,
   CIG_DATA_TYPE_NV_BLOB = 0x2,
} CUcigDataType;
typedef struct CUctxCigParam_st {
   CUcigDataType sharedDataType;
   void *sharedData;
} CUctxCigParam;
typedef struct CUctxCreateParams_st {
   CUexecAffinityParam *execAffinityParams;
   int numExecAffinityParams;
   CUctxCigParam *cigParams;
} CUctxCreateParams;
typedef enum CUstream_flags_enum {
   CU_STREAM_DEFAULT      = 0,
   CU_STREAM_NON_BLOCKING = 0x1,
} CUstream_flags;
typedef enum CUevent_flags_enum {
   CU_EVENT_DEFAULT        = 0,
   CU_EVENT_BLOCKING_SYNC  = 0x1,
   CU_EVENT_DISABLE_TIMING = 0x2,
   CU_EVENT_INTERPROCESS   = 0x4,
} CUevent_flags;
typedef enum CUevent_record_flags_enum {
   CU_EVENT_RECORD_DEFAULT  = 0x0,
   CU_EVENT_RECORD_EXTERNAL = 0x1,   /* stream capture only */
} CUevent_record_flags;
typedef enum CUevent_wait_flags_enum {
   CU_EVENT_WAIT_DEFAULT  = 0x0,
   CU_EVENT_WAIT_EXTERNAL = 0x1,     /* stream capture only */
} CUevent_wait_flags;
/* Host functions queued on a stream (cuLaunchHostFunc, cuStreamAddCallback). */
typedef void (CUDA_CB *CUhostFn)(void *userData);
typedef void (CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
/* Stream memory operations (cuStreamWaitValue32, cuStreamWriteValue32,
 * cuStreamBatchMemOp) and their graph nodes. */
typedef enum CUstreamWaitValue_flags_enum {
   CU_STREAM_WAIT_VALUE_GEQ   = 0x0,
   CU_STREAM_WAIT_VALUE_EQ    = 0x1,
   CU_STREAM_WAIT_VALUE_AND   = 0x2,
   CU_STREAM_WAIT_VALUE_NOR   = 0x3,
   CU_STREAM_WAIT_VALUE_FLUSH = 1 << 30,
} CUstreamWaitValue_flags;
typedef enum CUstreamWriteValue_flags_enum {
   CU_STREAM_WRITE_VALUE_DEFAULT           = 0x0,
   CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER = 0x1,
} CUstreamWriteValue_flags;
typedef enum CUstreamBatchMemOpType_enum {
   CU_STREAM_MEM_OP_WAIT_VALUE_32       = 1,
   CU_STREAM_MEM_OP_WRITE_VALUE_32      = 2,
   CU_STREAM_MEM_OP_WAIT_VALUE_64       = 4,
   CU_STREAM_MEM_OP_WRITE_VALUE_64      = 5,
   CU_STREAM_MEM_OP_BARRIER             = 6,
   CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3,
} CUstreamBatchMemOpType;
typedef enum CUstreamMemoryBarrier_flags_enum {
   CU_STREAM_MEMORY_BARRIER_TYPE_SYS = 0x0,
   CU_STREAM_MEMORY_BARRIER_TYPE_GPU = 0x1,
} CUstreamMemoryBarrier_flags;
typedef union CUstreamBatchMemOpParams_union {
   CUstreamBatchMemOpType operation;
   struct CUstreamMemOpWaitValueParams_st {
      CUstreamBatchMemOpType operation;
      CUdeviceptr address;
      union {
         cuuint32_t value;
         cuuint64_t value64;
      };
      unsigned int flags;
      CUdeviceptr alias;
   } waitValue;
   struct CUstreamMemOpWriteValueParams_st {
      CUstreamBatchMemOpType operation;
      CUdeviceptr address;
      union {
         cuuint32_t value;
         cuuint64_t value64;
      };
      unsigned int flags;
      CUdeviceptr alias;
   } writeValue;
   struct CUstreamMemOpFlushRemoteWritesParams_st {
      CUstreamBatchMemOpType operation;
      unsigned int flags;
   } flushRemoteWrites;
   struct CUstreamMemOpMemoryBarrierParams_st {
      CUstreamBatchMemOpType operation;
      unsigned int flags;
   } memoryBarrier;
   cuuint64_t pad[6];
} CUstreamBatchMemOpParams_v1;
typedef CUstreamBatchMemOpParams_v1 CUstreamBatchMemOpParams;
typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v1_st {
   CUcontext ctx;
   unsigned int count;
   CUstreamBatchMemOpParams *paramArray;
   unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v1;
typedef CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 CUDA_BATCH_MEM_OP_NODE_PARAMS;
typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v2_st {
   CUcontext ctx;
   unsigned int count;
   CUstreamBatchMemOpParams *paramArray;
   unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v2;
/* User objects (cuUserObjectCreate) and graphs' references to them. */
typedef enum CUuserObject_flags_enum {
   CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1,
} CUuserObject_flags;
typedef enum CUuserObjectRetain_flags_enum {
   CU_GRAPH_USER_OBJECT_MOVE = 1,
} CUuserObjectRetain_flags;
/* Stream capture queries (cuStreamIsCapturing, cuStreamGetCaptureInfo). */
typedef enum CUstreamCaptureStatus_enum {
   CU_STREAM_CAPTURE_STATUS_NONE        = 0,
   CU_STREAM_CAPTURE_STATUS_ACTIVE      = 1,
   CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2,
} CUstreamCaptureStatus;
typedef struct CUgraphEdgeData_st {
   unsigned char from_port;
   unsigned char to_port;
   unsigned char type;
   unsigned char reserved[5];
} CUgraphEdgeData;
/* Graphs (cuGraph*) and stream capture modes. */
typedef enum CUstreamCaptureMode_enum {
   CU_STREAM_CAPTURE_MODE_GLOBAL       = 0,
   CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
   CU_STREAM_CAPTURE_MODE_RELAXED      = 2,
} CUstreamCaptureMode;
typedef enum CUgraphNodeType_enum {
   CU_GRAPH_NODE_TYPE_KERNEL           = 0,
   CU_GRAPH_NODE_TYPE_MEMCPY           = 1,
   CU_GRAPH_NODE_TYPE_MEMSET           = 2,
   CU_GRAPH_NODE_TYPE_HOST             = 3,
   CU_GRAPH_NODE_TYPE_GRAPH            = 4,
   CU_GRAPH_NODE_TYPE_EMPTY            = 5,
   CU_GRAPH_NODE_TYPE_WAIT_EVENT       = 6,
   CU_GRAPH_NODE_TYPE_EVENT_RECORD     = 7,
   CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL = 8,
   CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT   = 9,
   CU_GRAPH_NODE_TYPE_MEM_ALLOC        = 10,
   CU_GRAPH_NODE_TYPE_MEM_FREE         = 11,
   CU_GRAPH_NODE_TYPE_BATCH_MEM_OP     = 12,
   CU_GRAPH_NODE_TYPE_CONDITIONAL      = 13,
} CUgraphNodeType;
typedef struct CUDA_KERNEL_NODE_PARAMS_st {
   CUfunction func;
   unsigned int gridDimX, gridDimY, gridDimZ;
   unsigned int blockDimX, blockDimY, blockDimZ;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
} CUDA_KERNEL_NODE_PARAMS_v1;
typedef struct CUDA_KERNEL_NODE_PARAMS_v2_st {
   CUfunction func;
   unsigned int gridDimX, gridDimY, gridDimZ;
   unsigned int blockDimX, blockDimY, blockDimZ;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
   CUkernel kern;
   CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS_v2;
typedef CUDA_KERNEL_NODE_PARAMS_v2 CUDA_KERNEL_NODE_PARAMS;
typedef struct CUDA_MEMSET_NODE_PARAMS_st {
   CUdeviceptr dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
} CUDA_MEMSET_NODE_PARAMS_v1;
typedef CUDA_MEMSET_NODE_PARAMS_v1 CUDA_MEMSET_NODE_PARAMS;
typedef struct CUDA_HOST_NODE_PARAMS_st {
   CUhostFn fn;
   void *userData;
} CUDA_HOST_NODE_PARAMS_v1;
typedef CUDA_HOST_NODE_PARAMS_v1 CUDA_HOST_NODE_PARAMS;
typedef enum CUgraphExecUpdateResult_enum {
   CU_GRAPH_EXEC_UPDATE_SUCCESS                         = 0x0,
   CU_GRAPH_EXEC_UPDATE_ERROR                           = 0x1,
   CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED          = 0x2,
   CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED         = 0x3,
   CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED          = 0x4,
   CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED        = 0x5,
   CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED             = 0x6,
   CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE = 0x7,
   CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED        = 0x8,
} CUgraphExecUpdateResult;
typedef struct CUgraphExecUpdateResultInfo_st {
   CUgraphExecUpdateResult result;
   CUgraphNode errorNode;
   CUgraphNode errorFromNode;
} CUgraphExecUpdateResultInfo_v1;
typedef CUgraphExecUpdateResultInfo_v1 CUgraphExecUpdateResultInfo;
typedef enum CUgraphInstantiate_flags_enum {
   CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1,
   CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD              = 2,
   CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH       = 4,
   CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY   = 8,
} CUgraphInstantiate_flags;
typedef enum CUgraphInstantiateResult_enum {
   CUDA_GRAPH_INSTANTIATE_SUCCESS                      = 0,
   CUDA_GRAPH_INSTANTIATE_ERROR                        = 1,
   CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE            = 2,
   CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED = 3,
   CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED  = 4,
   CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED    = 5,
} CUgraphInstantiateResult;
typedef enum CUgraphMem_attribute_enum {
   CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT     = 0,
   CU_GRAPH_MEM_ATTR_USED_MEM_HIGH        = 1,
   CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT = 2,
   CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH    = 3,
} CUgraphMem_attribute;
typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS_st {
   cuuint64_t flags;
   CUstream hUploadStream;
   CUgraphNode hErrNode_out;
   CUgraphInstantiateResult result_out;
} CUDA_GRAPH_INSTANTIATE_PARAMS;
/* cuDeviceGetP2PAttribute */
typedef enum CUdevice_P2PAttribute_enum {
   CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK                     = 0x01,
   CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED                     = 0x02,
   CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED              = 0x03,
   CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED              = 0x04,   /* deprecated name */
   CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED          = 0x04,
   CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED = 0x05,
} CUdevice_P2PAttribute;
/* ---- memory ---- */

typedef enum CUmemorytype_enum {
   CU_MEMORYTYPE_HOST    = 1,
   CU_MEMORYTYPE_DEVICE  = 2,
   CU_MEMORYTYPE_ARRAY   = 3,
   CU_MEMORYTYPE_UNIFIED = 4,
} CUmemorytype;
typedef enum CUpointer_attribute_enum {
   CU_POINTER_ATTRIBUTE_CONTEXT                    = 1,
   CU_POINTER_ATTRIBUTE_MEMORY_TYPE                = 2,
   CU_POINTER_ATTRIBUTE_DEVICE_POINTER             = 3,
   CU_POINTER_ATTRIBUTE_HOST_POINTER               = 4,
   CU_POINTER_ATTRIBUTE_P2P_TOKENS                 = 5,
   CU_POINTER_ATTRIBUTE_SYNC_MEMOPS                = 6,
   CU_POINTER_ATTRIBUTE_BUFFER_ID                  = 7,
   CU_POINTER_ATTRIBUTE_IS_MANAGED                 = 8,
   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL             = 9,
   CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR           = 11,
   CU_POINTER_ATTRIBUTE_RANGE_SIZE                 = 12,
   CU_POINTER_ATTRIBUTE_MAPPED                     = 13,
   CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES       = 14,
   CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
   CU_POINTER_ATTRIBUTE_ACCESS_FLAGS               = 16,
   CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE             = 17,
   CU_POINTER_ATTRIBUTE_MAPPING_SIZE               = 18,
   CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR          = 19,
   CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID            = 20,
   CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE   = 21,
} CUpointer_attribute;
typedef enum CUmemAttach_flags_enum {
   CU_MEM_ATTACH_GLOBAL = 0x1,
   CU_MEM_ATTACH_HOST   = 0x2,
   CU_MEM_ATTACH_SINGLE = 0x4,
} CUmemAttach_flags;
typedef enum CUmem_advise_enum {
   CU_MEM_ADVISE_SET_READ_MOSTLY          = 1,
   CU_MEM_ADVISE_UNSET_READ_MOSTLY        = 2,
   CU_MEM_ADVISE_SET_PREFERRED_LOCATION   = 3,
   CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
   CU_MEM_ADVISE_SET_ACCESSED_BY          = 5,
   CU_MEM_ADVISE_UNSET_ACCESSED_BY        = 6,
} CUmem_advise;
typedef enum CUmem_range_attribute_enum {
   CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY                 = 1,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION          = 2,
   CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY                 = 3,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION      = 4,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE     = 5,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID       = 6,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID   = 8,
} CUmem_range_attribute;
typedef enum CUmemLocationType_enum {
   CU_MEM_LOCATION_TYPE_INVALID           = 0x0,
   CU_MEM_LOCATION_TYPE_NONE              = 0x0,
   CU_MEM_LOCATION_TYPE_DEVICE            = 0x1,
   CU_MEM_LOCATION_TYPE_HOST              = 0x2,
   CU_MEM_LOCATION_TYPE_HOST_NUMA         = 0x3,
   CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
   CU_MEM_LOCATION_TYPE_MAX               = 0x7FFFFFFF,
} CUmemLocationType;
typedef struct CUmemLocation_st {
   CUmemLocationType type;
   int id;
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;
typedef enum CUmemPool_attribute_enum {
   CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES   = 1,
   CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC         = 2,
   CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3,
   CU_MEMPOOL_ATTR_RELEASE_THRESHOLD                 = 4,
   CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT              = 5,
   CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH                 = 6,
   CU_MEMPOOL_ATTR_USED_MEM_CURRENT                  = 7,
   CU_MEMPOOL_ATTR_USED_MEM_HIGH                     = 8,
} CUmemPool_attribute;

/* Memory pools, access descriptors, batched copies (CUDA 11.2-13.0).  The
 * functions that take them are exported as stubs (mc_driver_stubs.h); the
 * layouts are CUDA's, for code that names them (CCCL 3's cuda/__driver). */
typedef enum CUmemAllocationType_enum {
   CU_MEM_ALLOCATION_TYPE_INVALID = 0x0,
   CU_MEM_ALLOCATION_TYPE_PINNED  = 0x1,
   CU_MEM_ALLOCATION_TYPE_MANAGED = 0x2,
   CU_MEM_ALLOCATION_TYPE_MAX     = 0x7FFFFFFF,
} CUmemAllocationType;
typedef enum CUmemAllocationHandleType_enum {
   CU_MEM_HANDLE_TYPE_NONE                  = 0x0,
   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1,
   CU_MEM_HANDLE_TYPE_WIN32                 = 0x2,
   CU_MEM_HANDLE_TYPE_WIN32_KMT             = 0x4,
   CU_MEM_HANDLE_TYPE_FABRIC                = 0x8,
   CU_MEM_HANDLE_TYPE_MAX                   = 0x7FFFFFFF,
} CUmemAllocationHandleType;
typedef enum CUmemAccess_flags_enum {
   CU_MEM_ACCESS_FLAGS_PROT_NONE      = 0x0,
   CU_MEM_ACCESS_FLAGS_PROT_READ      = 0x1,
   CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3,
   CU_MEM_ACCESS_FLAGS_PROT_MAX       = 0x7FFFFFFF,
} CUmemAccess_flags;
typedef unsigned long long CUmemGenericAllocationHandle_v1;
typedef CUmemGenericAllocationHandle_v1 CUmemGenericAllocationHandle;
typedef struct CUmemAccessDesc_st {
   CUmemLocation location;
   CUmemAccess_flags flags;
} CUmemAccessDesc_v1;
typedef CUmemAccessDesc_v1 CUmemAccessDesc;
typedef struct CUmemPoolProps_st {
   CUmemAllocationType allocType;
   CUmemAllocationHandleType handleTypes;
   CUmemLocation location;
   void *win32SecurityAttributes;
   size_t maxSize;
   unsigned short usage;
   unsigned char reserved[54];
} CUmemPoolProps_v1;
typedef CUmemPoolProps_v1 CUmemPoolProps;
/* Graph allocation and free nodes (CUDA 11.4, the free one's struct 12.2) */
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS_v1_st {
   CUmemPoolProps poolProps;
   const CUmemAccessDesc *accessDescs;
   size_t accessDescCount;
   size_t bytesize;
   CUdeviceptr dptr;
} CUDA_MEM_ALLOC_NODE_PARAMS_v1;
typedef CUDA_MEM_ALLOC_NODE_PARAMS_v1 CUDA_MEM_ALLOC_NODE_PARAMS;
typedef struct CUDA_MEM_FREE_NODE_PARAMS_st {
   CUdeviceptr dptr;
} CUDA_MEM_FREE_NODE_PARAMS;
typedef enum CUmemcpySrcAccessOrder_enum {
   CU_MEMCPY_SRC_ACCESS_ORDER_INVALID         = 0x0,
   CU_MEMCPY_SRC_ACCESS_ORDER_STREAM          = 0x1,
   CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL = 0x2,
   CU_MEMCPY_SRC_ACCESS_ORDER_ANY             = 0x3,
   CU_MEMCPY_SRC_ACCESS_ORDER_MAX             = 0x7FFFFFFF,
} CUmemcpySrcAccessOrder;
typedef struct CUmemcpyAttributes_st {
   CUmemcpySrcAccessOrder srcAccessOrder;
   CUmemLocation srcLocHint;
   CUmemLocation dstLocHint;
   unsigned int flags;
} CUmemcpyAttributes_v1;
typedef CUmemcpyAttributes_v1 CUmemcpyAttributes;
typedef enum CUmemcpyFlags_enum {
   CU_MEMCPY_FLAG_DEFAULT                     = 0x0,
   CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE = 0x1
} CUmemcpyFlags;
/* cuMemcpy3DBatchAsync's operands (CUDA 12.8) */
typedef enum CUmemcpy3DOperandType_enum {
   CU_MEMCPY_OPERAND_TYPE_POINTER = 0x1,
   CU_MEMCPY_OPERAND_TYPE_ARRAY   = 0x2,
   CU_MEMCPY_OPERAND_TYPE_MAX     = 0x7FFFFFFF
} CUmemcpy3DOperandType;
typedef struct CUoffset3D_st {
   size_t x;
   size_t y;
   size_t z;
} CUoffset3D_v1;
typedef CUoffset3D_v1 CUoffset3D;
typedef struct CUextent3D_st {
   size_t width;
   size_t height;
   size_t depth;
} CUextent3D_v1;
typedef CUextent3D_v1 CUextent3D;
typedef struct CUmemcpy3DOperand_st {
   CUmemcpy3DOperandType type;
   union {
      struct {
         CUdeviceptr ptr;
         size_t rowLength;
         size_t layerHeight;
         CUmemLocation locHint;
      } ptr;
      struct {
         CUarray array;
         CUoffset3D offset;
      } array;
   } op;
} CUmemcpy3DOperand_v1;
typedef CUmemcpy3DOperand_v1 CUmemcpy3DOperand;
typedef struct CUDA_MEMCPY3D_BATCH_OP_st {
   CUmemcpy3DOperand src;
   CUmemcpy3DOperand dst;
   CUextent3D extent;
   CUmemcpySrcAccessOrder srcAccessOrder;
   unsigned int flags;
} CUDA_MEMCPY3D_BATCH_OP_v1;
typedef CUDA_MEMCPY3D_BATCH_OP_v1 CUDA_MEMCPY3D_BATCH_OP;
/* Atomic capabilities of a link (CUDA 13.0) */
typedef enum CUatomicOperation_enum {
   CU_ATOMIC_OPERATION_INTEGER_ADD       = 0,
   CU_ATOMIC_OPERATION_INTEGER_MIN       = 1,
   CU_ATOMIC_OPERATION_INTEGER_MAX       = 2,
   CU_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
   CU_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
   CU_ATOMIC_OPERATION_AND               = 5,
   CU_ATOMIC_OPERATION_OR                = 6,
   CU_ATOMIC_OPERATION_XOR               = 7,
   CU_ATOMIC_OPERATION_EXCHANGE          = 8,
   CU_ATOMIC_OPERATION_CAS               = 9,
   CU_ATOMIC_OPERATION_FLOAT_ADD         = 10,
   CU_ATOMIC_OPERATION_FLOAT_MIN         = 11,
   CU_ATOMIC_OPERATION_FLOAT_MAX         = 12,
   CU_ATOMIC_OPERATION_MAX
} CUatomicOperation;
typedef enum CUatomicOperationCapability_enum {
   CU_ATOMIC_CAPABILITY_SIGNED      = 1u << 0,
   CU_ATOMIC_CAPABILITY_UNSIGNED    = 1u << 1,
   CU_ATOMIC_CAPABILITY_REDUCTION   = 1u << 2,
   CU_ATOMIC_CAPABILITY_SCALAR_32   = 1u << 3,
   CU_ATOMIC_CAPABILITY_SCALAR_64   = 1u << 4,
   CU_ATOMIC_CAPABILITY_SCALAR_128  = 1u << 5,
   CU_ATOMIC_CAPABILITY_VECTOR_32x4 = 1u << 6
} CUatomicOperationCapability;
/* cuFlushGPUDirectRDMAWrites (CUDA 11.3) */
typedef enum CUflushGPUDirectRDMAWritesScope_enum {
   CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER       = 100,
   CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES = 200
} CUflushGPUDirectRDMAWritesScope;
typedef enum CUflushGPUDirectRDMAWritesTarget_enum {
   CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX = 0
} CUflushGPUDirectRDMAWritesTarget;
/* Budget notifications (CUDA 12.4) */
typedef enum CUasyncNotificationType_enum {
   CU_ASYNC_NOTIFICATION_TYPE_OVER_BUDGET = 0x1
} CUasyncNotificationType;
typedef struct CUasyncNotificationInfo_st {
   CUasyncNotificationType type;
   union {
      struct {
         unsigned long long bytesOverBudget;
      } overBudget;
   } info;
} CUasyncNotificationInfo;
typedef void (*CUasyncCallback)(CUasyncNotificationInfo *info, void *userData, CUasyncCallbackHandle callback);
/* An array's backing and sparseness (CUDA 11.1, 11.6) */
typedef struct CUDA_ARRAY_SPARSE_PROPERTIES_st {
   struct {
      unsigned int width;
      unsigned int height;
      unsigned int depth;
   } tileExtent;
   unsigned int miptailFirstLevel;
   unsigned long long miptailSize;
   unsigned int flags;
   unsigned int reserved[4];
} CUDA_ARRAY_SPARSE_PROPERTIES_v1;
typedef CUDA_ARRAY_SPARSE_PROPERTIES_v1 CUDA_ARRAY_SPARSE_PROPERTIES;
typedef struct CUDA_ARRAY_MEMORY_REQUIREMENTS_st {
   size_t size;
   size_t alignment;
   unsigned int reserved[4];
} CUDA_ARRAY_MEMORY_REQUIREMENTS_v1;
typedef CUDA_ARRAY_MEMORY_REQUIREMENTS_v1 CUDA_ARRAY_MEMORY_REQUIREMENTS;

/* Green contexts' resources (CUDA 12.4; the SM resource's fields of 13.0) */
typedef struct CUdevResourceDesc_st *CUdevResourceDesc;
typedef enum {
   CU_DEV_RESOURCE_TYPE_INVALID = 0,
   CU_DEV_RESOURCE_TYPE_SM      = 1,
} CUdevResourceType;
typedef struct CUdevSmResource_st {
   unsigned int smCount;
   unsigned int minSmPartitionSize;
   unsigned int smCoscheduledAlignment;
} CUdevSmResource;
typedef struct CUdevResource_st {
   CUdevResourceType type;
   unsigned char _internal_padding[92];
   union {
      CUdevSmResource sm;
      unsigned char _oversize[48];
   };
} CUdevResource_v1;
typedef CUdevResource_v1 CUdevResource;

/* Tensor maps (TMA descriptors: 128 opaque bytes, 128-byte aligned in CUDA 13) */
#define CU_TENSOR_MAP_NUM_QWORDS 16
typedef struct CUtensorMap_st {
#if defined(__cplusplus)
   alignas(128)
#else
   _Alignas(128)
#endif
   cuuint64_t opaque[CU_TENSOR_MAP_NUM_QWORDS];
} CUtensorMap;
typedef enum CUtensorMapDataType_enum {
   CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
   CU_TENSOR_MAP_DATA_TYPE_UINT16,
   CU_TENSOR_MAP_DATA_TYPE_UINT32,
   CU_TENSOR_MAP_DATA_TYPE_INT32,
   CU_TENSOR_MAP_DATA_TYPE_UINT64,
   CU_TENSOR_MAP_DATA_TYPE_INT64,
   CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
   CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
   CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
   CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
   CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
   CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
   CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
   CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
   CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
   CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B,
} CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum {
   CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
   CU_TENSOR_MAP_INTERLEAVE_16B,
   CU_TENSOR_MAP_INTERLEAVE_32B,
} CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum {
   CU_TENSOR_MAP_SWIZZLE_NONE = 0,
   CU_TENSOR_MAP_SWIZZLE_32B,
   CU_TENSOR_MAP_SWIZZLE_64B,
   CU_TENSOR_MAP_SWIZZLE_128B,
   CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
   CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
   CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
} CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum {
   CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
   CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
   CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
   CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
} CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum {
   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
   CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
} CUtensorMapFloatOOBfill;
/* Inter-process handles (cuIpc*: refused, src/api/driver/ipc.c). */
#define CU_IPC_HANDLE_SIZE 64
typedef struct CUipcEventHandle_st {
   char reserved[CU_IPC_HANDLE_SIZE];
} CUipcEventHandle_v1, CUipcEventHandle;
typedef struct CUipcMemHandle_st {
   char reserved[CU_IPC_HANDLE_SIZE];
} CUipcMemHandle_v1, CUipcMemHandle;
typedef struct CUmemPoolPtrExportData_st {
   unsigned char reserved[64];
} CUmemPoolPtrExportData_v1;
typedef CUmemPoolPtrExportData_v1 CUmemPoolPtrExportData;
/* 2-D and 3-D copies (cuMemcpy2D, cuMemcpy3D). */
typedef struct CUDA_MEMCPY2D_st {
   size_t srcXInBytes;
   size_t srcY;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr srcDevice;
   CUarray srcArray;
   size_t srcPitch;
   size_t dstXInBytes;
   size_t dstY;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr dstDevice;
   CUarray dstArray;
   size_t dstPitch;
   size_t WidthInBytes;
   size_t Height;
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;
typedef struct CUDA_MEMCPY3D_st {
   size_t srcXInBytes;
   size_t srcY;
   size_t srcZ;
   size_t srcLOD;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr srcDevice;
   CUarray srcArray;
   void *reserved0;
   size_t srcPitch;
   size_t srcHeight;
   size_t dstXInBytes;
   size_t dstY;
   size_t dstZ;
   size_t dstLOD;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr dstDevice;
   CUarray dstArray;
   void *reserved1;
   size_t dstPitch;
   size_t dstHeight;
   size_t WidthInBytes;
   size_t Height;
   size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;
typedef struct CUDA_MEMCPY3D_PEER_st {
   size_t srcXInBytes, srcY, srcZ, srcLOD;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr srcDevice;
   CUarray srcArray;
   CUcontext srcContext;
   size_t srcPitch, srcHeight;
   size_t dstXInBytes, dstY, dstZ, dstLOD;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr dstDevice;
   CUarray dstArray;
   CUcontext dstContext;
   size_t dstPitch, dstHeight;
   size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D_PEER_v1;
typedef CUDA_MEMCPY3D_PEER_v1 CUDA_MEMCPY3D_PEER;
/* The generic node API (cuGraphAddNode, CUDA 12.2+): one struct for every
 * node type, its union padded to 29 long longs. */
/* v2's fields, but a type of its own in NVIDIA's header (a pointer to one
 * is not a pointer to the other in C) */
typedef struct CUDA_KERNEL_NODE_PARAMS_v3_st {
   CUfunction func;
   unsigned int gridDimX, gridDimY, gridDimZ;
   unsigned int blockDimX, blockDimY, blockDimZ;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
   CUkernel kern;
   CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS_v3;
typedef struct CUDA_MEMCPY_NODE_PARAMS_st {
   int flags;
   int reserved;
   CUcontext copyCtx;
   CUDA_MEMCPY3D copyParams;
} CUDA_MEMCPY_NODE_PARAMS;
typedef struct CUDA_MEMSET_NODE_PARAMS_v2_st {
   CUdeviceptr dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
   CUcontext ctx;
} CUDA_MEMSET_NODE_PARAMS_v2;
typedef struct CUDA_HOST_NODE_PARAMS_v2_st {
   CUhostFn fn;
   void *userData;
} CUDA_HOST_NODE_PARAMS_v2;
typedef enum CUgraphChildGraphNodeOwnership_enum {
   CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE = 0,
   CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE  = 1,
} CUgraphChildGraphNodeOwnership;
typedef struct CUDA_CHILD_GRAPH_NODE_PARAMS_st {
   CUgraph graph;
   CUgraphChildGraphNodeOwnership ownership;
} CUDA_CHILD_GRAPH_NODE_PARAMS;
typedef struct CUDA_EVENT_RECORD_NODE_PARAMS_st {
   CUevent event;
} CUDA_EVENT_RECORD_NODE_PARAMS;
typedef struct CUDA_EVENT_WAIT_NODE_PARAMS_st {
   CUevent event;
} CUDA_EVENT_WAIT_NODE_PARAMS;
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS_v2_st {   /* v1's fields, a type of its own */
   CUmemPoolProps poolProps;
   const CUmemAccessDesc *accessDescs;
   size_t accessDescCount;
   size_t bytesize;
   CUdeviceptr dptr;
} CUDA_MEM_ALLOC_NODE_PARAMS_v2;
#define CU_GRAPH_COND_ASSIGN_DEFAULT 0x1
typedef enum CUgraphConditionalNodeType_enum {
   CU_GRAPH_COND_TYPE_IF     = 0,
   CU_GRAPH_COND_TYPE_WHILE  = 1,
   CU_GRAPH_COND_TYPE_SWITCH = 2,
} CUgraphConditionalNodeType;
typedef struct CUDA_CONDITIONAL_NODE_PARAMS {
   CUgraphConditionalHandle handle;
   CUgraphConditionalNodeType type;
   unsigned int size;
   CUgraph *phGraph_out;          /* out: the bodies, owned by the node */
   CUcontext ctx;
} CUDA_CONDITIONAL_NODE_PARAMS;
typedef struct CUgraphNodeParams_st {
   CUgraphNodeType type;
   int reserved0[3];
   union {
      long long reserved1[29];
      CUDA_KERNEL_NODE_PARAMS_v3 kernel;
      CUDA_MEMCPY_NODE_PARAMS memcpy;
      CUDA_MEMSET_NODE_PARAMS_v2 memset;
      CUDA_HOST_NODE_PARAMS_v2 host;
      CUDA_CHILD_GRAPH_NODE_PARAMS graph;
      CUDA_EVENT_WAIT_NODE_PARAMS eventWait;
      CUDA_EVENT_RECORD_NODE_PARAMS eventRecord;
      CUDA_MEM_ALLOC_NODE_PARAMS_v2 alloc;
      CUDA_MEM_FREE_NODE_PARAMS free;
      CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 memOp;
      CUDA_CONDITIONAL_NODE_PARAMS conditional;
   };
   long long reserved2;
} CUgraphNodeParams;
/* ---- modules, libraries, JIT ---- */

typedef enum CUjit_option_enum {
   CU_JIT_MAX_REGISTERS                    = 0,
   CU_JIT_THREADS_PER_BLOCK                = 1,
   CU_JIT_WALL_TIME                        = 2,
   CU_JIT_INFO_LOG_BUFFER                  = 3,
   CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES       = 4,
   CU_JIT_ERROR_LOG_BUFFER                 = 5,
   CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES      = 6,
   CU_JIT_OPTIMIZATION_LEVEL               = 7,
   CU_JIT_TARGET_FROM_CUCONTEXT            = 8,
   CU_JIT_TARGET                           = 9,
   CU_JIT_FALLBACK_STRATEGY                = 10,
   CU_JIT_GENERATE_DEBUG_INFO              = 11,
   CU_JIT_LOG_VERBOSE                      = 12,
   CU_JIT_GENERATE_LINE_INFO               = 13,
   CU_JIT_CACHE_MODE                       = 14,
   CU_JIT_NEW_SM3X_OPT                     = 15,
   CU_JIT_FAST_COMPILE                     = 16,
   CU_JIT_GLOBAL_SYMBOL_NAMES              = 17,
   CU_JIT_GLOBAL_SYMBOL_ADDRESSES          = 18,
   CU_JIT_GLOBAL_SYMBOL_COUNT              = 19,
   CU_JIT_LTO                              = 20,
   CU_JIT_FTZ                              = 21,
   CU_JIT_PREC_DIV                         = 22,
   CU_JIT_PREC_SQRT                        = 23,
   CU_JIT_FMA                              = 24,
   CU_JIT_REFERENCED_KERNEL_NAMES          = 25,
   CU_JIT_REFERENCED_KERNEL_COUNT          = 26,
   CU_JIT_REFERENCED_VARIABLE_NAMES        = 27,
   CU_JIT_REFERENCED_VARIABLE_COUNT        = 28,
   CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
   CU_JIT_POSITION_INDEPENDENT_CODE        = 30,
   CU_JIT_MIN_CTA_PER_SM                   = 31,
   CU_JIT_MAX_THREADS_PER_BLOCK            = 32,
   CU_JIT_OVERRIDE_DIRECTIVE_VALUES        = 33,
   CU_JIT_SPLIT_COMPILE                    = 34,
   CU_JIT_NUM_OPTIONS                      = 35,
} CUjit_option;
typedef enum CUjitInputType_enum {
   CU_JIT_INPUT_CUBIN     = 0,
   CU_JIT_INPUT_PTX       = 1,
   CU_JIT_INPUT_FATBINARY = 2,
   CU_JIT_INPUT_OBJECT    = 3,
   CU_JIT_INPUT_LIBRARY   = 4,
   CU_JIT_INPUT_NVVM      = 5,
   CU_JIT_NUM_INPUT_TYPES = 6,
} CUjitInputType;
typedef enum CUlibraryOption_enum {
   CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0,
   CU_LIBRARY_BINARY_IS_PRESERVED                    = 1,
   CU_LIBRARY_NUM_OPTIONS                            = 2,
} CUlibraryOption;
typedef enum CUmoduleLoadingMode_enum {
   CU_MODULE_EAGER_LOADING = 1,
   CU_MODULE_LAZY_LOADING  = 2,
} CUmoduleLoadingMode;
typedef enum CUfunction_attribute_enum {
   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK                = 0,
   CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES                    = 1,
   CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES                     = 2,
   CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES                     = 3,
   CU_FUNC_ATTRIBUTE_NUM_REGS                             = 4,
   CU_FUNC_ATTRIBUTE_PTX_VERSION                          = 5,
   CU_FUNC_ATTRIBUTE_BINARY_VERSION                       = 6,
   CU_FUNC_ATTRIBUTE_CACHE_MODE_CA                        = 7,
   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES        = 8,
   CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT     = 9,
   CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET             = 10,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH               = 11,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT              = 12,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH               = 13,
   CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED    = 14,
   CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
   CU_FUNC_ATTRIBUTE_MAX                                  = 16,
} CUfunction_attribute;
typedef enum CUfunctionLoadingState_enum {
   CU_FUNCTION_LOADING_STATE_UNLOADED = 0,
   CU_FUNCTION_LOADING_STATE_LOADED   = 1,
   CU_FUNCTION_LOADING_STATE_MAX      = 2,
} CUfunctionLoadingState;
/* cuDeviceGetProperties (deprecated): the limits of CUDA 1.x, all int. */
typedef struct CUdevprop_st {
   int maxThreadsPerBlock;
   int maxThreadsDim[3];
   int maxGridSize[3];
   int sharedMemPerBlock;
   int totalConstantMemory;
   int SIMDWidth;
   int memPitch;
   int regsPerBlock;
   int clockRate;
   int textureAlign;
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;
/* ---- cuProfilerInitialize (cudaProfiler.h) ---- */

typedef enum CUoutput_mode_enum {
   CU_OUT_KEY_VALUE_PAIR = 0x00,
   CU_OUT_CSV            = 0x01,
} CUoutput_mode;
/* ---- cuGetProcAddress ---- */

typedef enum CUdriverProcAddress_flags_enum {
   CU_GET_PROC_ADDRESS_DEFAULT                   = 0,
   CU_GET_PROC_ADDRESS_LEGACY_STREAM             = 0x1,
   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 0x2,
} CUdriverProcAddress_flags;
typedef enum CUdriverProcAddressQueryResult_enum {
   CU_GET_PROC_ADDRESS_SUCCESS                = 0,
   CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND       = 1,
   CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
} CUdriverProcAddressQueryResult;
/* ---- cuLaunchKernelEx ---- */

typedef enum CUaccessProperty_enum {
   CU_ACCESS_PROPERTY_NORMAL     = 0,
   CU_ACCESS_PROPERTY_STREAMING  = 1,
   CU_ACCESS_PROPERTY_PERSISTING = 2,
} CUaccessProperty;
typedef enum CUsynchronizationPolicy_enum {
   CU_SYNC_POLICY_AUTO          = 1,
   CU_SYNC_POLICY_SPIN          = 2,
   CU_SYNC_POLICY_YIELD         = 3,
   CU_SYNC_POLICY_BLOCKING_SYNC = 4,
} CUsynchronizationPolicy;
typedef enum CUclusterSchedulingPolicy_enum {
   CU_CLUSTER_SCHEDULING_POLICY_DEFAULT        = 0,
   CU_CLUSTER_SCHEDULING_POLICY_SPREAD         = 1,
   CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING = 2,
} CUclusterSchedulingPolicy;
typedef enum CUlaunchMemSyncDomain_enum {
   CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT = 0,
   CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE  = 1,
} CUlaunchMemSyncDomain;
typedef enum CUlaunchAttributeID_enum {
   CU_LAUNCH_ATTRIBUTE_IGNORE                               = 0,
   CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW                 = 1,
   CU_LAUNCH_ATTRIBUTE_COOPERATIVE                          = 2,
   CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY               = 3,
   CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION                    = 4,
   CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
   CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION    = 6,
   CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT                   = 7,
   CU_LAUNCH_ATTRIBUTE_PRIORITY                             = 8,
   CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP                  = 9,
   CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN                      = 10,
   CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION          = 11,
   CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT              = 12,
   CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE         = 13,
   CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT     = 14,
   CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING       = 16,
} CUlaunchAttributeID;
typedef struct CUaccessPolicyWindow_st {
   void *base_ptr;
   size_t num_bytes;
   float hitRatio;
   CUaccessProperty hitProp;
   CUaccessProperty missProp;
} CUaccessPolicyWindow;

typedef struct CUlaunchMemSyncDomainMap_st {
   unsigned char default_;
   unsigned char remote;
} CUlaunchMemSyncDomainMap;

/* One attribute value; NVIDIA pads the union to 64 bytes so members can be
 * added without changing its size. */
typedef union CUlaunchAttributeValue_union {
   char pad[64];
   CUaccessPolicyWindow accessPolicyWindow;
   int cooperative;
   CUsynchronizationPolicy syncPolicy;
   struct { unsigned int x, y, z; } clusterDim;
   CUclusterSchedulingPolicy clusterSchedulingPolicyPreference;
   int programmaticStreamSerializationAllowed;
   struct { CUevent event; int flags; int triggerAtBlockStart; } programmaticEvent;
   struct { CUevent event; int flags; } launchCompletionEvent;
   int priority;
   CUlaunchMemSyncDomainMap memSyncDomainMap;
   CUlaunchMemSyncDomain memSyncDomain;
   struct { unsigned int x, y, z; } preferredClusterDim;
   struct { int deviceUpdatable; CUgraphDeviceNode devNode; } deviceUpdatableKernelNode;
   unsigned int sharedMemCarveout;
   unsigned int nvlinkUtilCentricScheduling;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
   CUlaunchAttributeID id;
   char pad[8 - sizeof(CUlaunchAttributeID)];   /* value starts at offset 8 */
   CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
   unsigned int gridDimX, gridDimY, gridDimZ;
   unsigned int blockDimX, blockDimY, blockDimZ;
   unsigned int sharedMemBytes;
   CUstream hStream;
   CUlaunchAttribute *attrs;
   unsigned int numAttrs;
} CUlaunchConfig;
/* Stream attributes are launch attributes (cuStreamSetAttribute). */
typedef CUlaunchAttributeID CUstreamAttrID;
typedef CUlaunchAttributeValue CUstreamAttrValue_v1;
typedef CUlaunchAttributeID CUkernelNodeAttrID;
typedef CUlaunchAttributeValue CUkernelNodeAttrValue_v1;
typedef CUkernelNodeAttrValue_v1 CUkernelNodeAttrValue;
typedef CUstreamAttrValue_v1 CUstreamAttrValue;

/* ---- arrays, texture and surface objects (cuda.h) ---- */

typedef enum CUarray_format_enum {
   CU_AD_FORMAT_UNSIGNED_INT8 = 0x01,
   CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
   CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
   CU_AD_FORMAT_SIGNED_INT8 = 0x08,
   CU_AD_FORMAT_SIGNED_INT16 = 0x09,
   CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
   CU_AD_FORMAT_HALF = 0x10,
   CU_AD_FORMAT_FLOAT = 0x20,
   CU_AD_FORMAT_NV12 = 0xb0,
   CU_AD_FORMAT_UNORM_INT8X1 = 0xc0,
   CU_AD_FORMAT_UNORM_INT8X2 = 0xc1,
   CU_AD_FORMAT_UNORM_INT8X4 = 0xc2,
   CU_AD_FORMAT_UNORM_INT16X1 = 0xc3,
   CU_AD_FORMAT_UNORM_INT16X2 = 0xc4,
   CU_AD_FORMAT_UNORM_INT16X4 = 0xc5,
   CU_AD_FORMAT_SNORM_INT8X1 = 0xc6,
   CU_AD_FORMAT_SNORM_INT8X2 = 0xc7,
   CU_AD_FORMAT_SNORM_INT8X4 = 0xc8,
   CU_AD_FORMAT_SNORM_INT16X1 = 0xc9,
   CU_AD_FORMAT_SNORM_INT16X2 = 0xca,
   CU_AD_FORMAT_SNORM_INT16X4 = 0xcb,
   CU_AD_FORMAT_BC1_UNORM = 0x91,
   CU_AD_FORMAT_BC1_UNORM_SRGB = 0x92,
   CU_AD_FORMAT_BC2_UNORM = 0x93,
   CU_AD_FORMAT_BC2_UNORM_SRGB = 0x94,
   CU_AD_FORMAT_BC3_UNORM = 0x95,
   CU_AD_FORMAT_BC3_UNORM_SRGB = 0x96,
   CU_AD_FORMAT_BC4_UNORM = 0x97,
   CU_AD_FORMAT_BC4_SNORM = 0x98,
   CU_AD_FORMAT_BC5_UNORM = 0x99,
   CU_AD_FORMAT_BC5_SNORM = 0x9a,
   CU_AD_FORMAT_BC6H_UF16 = 0x9b,
   CU_AD_FORMAT_BC6H_SF16 = 0x9c,
   CU_AD_FORMAT_BC7_UNORM = 0x9d,
   CU_AD_FORMAT_BC7_UNORM_SRGB = 0x9e,
   CU_AD_FORMAT_P010 = 0x9f,
   CU_AD_FORMAT_P016 = 0xa1,
   CU_AD_FORMAT_NV16 = 0xa2,
   CU_AD_FORMAT_P210 = 0xa3,
   CU_AD_FORMAT_P216 = 0xa4,
   CU_AD_FORMAT_YUY2 = 0xa5,
   CU_AD_FORMAT_Y210 = 0xa6,
   CU_AD_FORMAT_Y216 = 0xa7,
   CU_AD_FORMAT_AYUV = 0xa8,
   CU_AD_FORMAT_Y410 = 0xa9,
   CU_AD_FORMAT_Y416 = 0xb1,
   CU_AD_FORMAT_Y444_PLANAR8 = 0xb2,
   CU_AD_FORMAT_Y444_PLANAR10 = 0xb3,
   CU_AD_FORMAT_YUV444_8bit_SemiPlanar = 0xb4,
   CU_AD_FORMAT_YUV444_16bit_SemiPlanar = 0xb5,
   CU_AD_FORMAT_UNORM_INT_101010_2 = 0x50,
   CU_AD_FORMAT_MAX = 0x7FFFFFFF,
} CUarray_format;

typedef struct CUDA_ARRAY_DESCRIPTOR_st {
   size_t Width, Height;
   CUarray_format Format;
   unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR_v2;
typedef CUDA_ARRAY_DESCRIPTOR_v2 CUDA_ARRAY_DESCRIPTOR;

typedef struct CUDA_ARRAY3D_DESCRIPTOR_st {
   size_t Width, Height, Depth;
   CUarray_format Format;
   unsigned int NumChannels;
   unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR_v2;
typedef CUDA_ARRAY3D_DESCRIPTOR_v2 CUDA_ARRAY3D_DESCRIPTOR;

#define CUDA_ARRAY3D_LAYERED      0x01
#define CUDA_ARRAY3D_SURFACE_LDST 0x02
#define CUDA_ARRAY3D_CUBEMAP      0x04
#define CUDA_ARRAY3D_TEXTURE_GATHER 0x08
#define CUDA_ARRAY3D_SPARSE       0x40
#define CUDA_ARRAY3D_DEFERRED_MAPPING 0x80

typedef enum CUresourcetype_enum {
   CU_RESOURCE_TYPE_ARRAY           = 0x00,
   CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01,
   CU_RESOURCE_TYPE_LINEAR          = 0x02,
   CU_RESOURCE_TYPE_PITCH2D         = 0x03,
} CUresourcetype;

typedef enum CUaddress_mode_enum {
   CU_TR_ADDRESS_MODE_WRAP   = 0,
   CU_TR_ADDRESS_MODE_CLAMP  = 1,
   CU_TR_ADDRESS_MODE_MIRROR = 2,
   CU_TR_ADDRESS_MODE_BORDER = 3,
} CUaddress_mode;

typedef enum CUfilter_mode_enum { CU_TR_FILTER_MODE_POINT = 0, CU_TR_FILTER_MODE_LINEAR = 1 } CUfilter_mode;

#define CU_TRSF_READ_AS_INTEGER        0x01
#define CU_TRSF_NORMALIZED_COORDINATES 0x02
#define CU_TRSF_SRGB                   0x10
#define CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION 0x20
#define CU_TRSF_SEAMLESS_CUBEMAP       0x40

typedef struct CUDA_RESOURCE_DESC_st {
   CUresourcetype resType;
   union {
      struct { CUarray hArray; } array;
      struct { CUmipmappedArray hMipmappedArray; } mipmap;
      struct {
         CUdeviceptr devPtr;
         CUarray_format format;
         unsigned int numChannels;
         size_t sizeInBytes;
      } linear;
      struct {
         CUdeviceptr devPtr;
         CUarray_format format;
         unsigned int numChannels;
         size_t width, height, pitchInBytes;
      } pitch2D;
      struct { int reserved[32]; } reserved;
   } res;
   unsigned int flags;
} CUDA_RESOURCE_DESC_v1;
typedef CUDA_RESOURCE_DESC_v1 CUDA_RESOURCE_DESC;

typedef struct CUDA_TEXTURE_DESC_st {
   CUaddress_mode addressMode[3];
   CUfilter_mode filterMode;
   unsigned int flags;
   unsigned int maxAnisotropy;
   CUfilter_mode mipmapFilterMode;
   float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
   float borderColor[4];
   int reserved[12];
} CUDA_TEXTURE_DESC_v1;
typedef CUDA_TEXTURE_DESC_v1 CUDA_TEXTURE_DESC;

typedef struct CUDA_RESOURCE_VIEW_DESC_st {
   int format;                  /* CUresourceViewFormat */
   size_t width, height, depth;
   unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
   unsigned int reserved[16];
} CUDA_RESOURCE_VIEW_DESC_v1;
typedef CUDA_RESOURCE_VIEW_DESC_v1 CUDA_RESOURCE_VIEW_DESC;

typedef struct CUDA_LAUNCH_PARAMS_st {   /* cuLaunchCooperativeKernelMultiDevice */
   CUfunction function;
   unsigned int gridDimX, gridDimY, gridDimZ;
   unsigned int blockDimX, blockDimY, blockDimZ;
   unsigned int sharedMemBytes;
   CUstream hStream;
   void **kernelParams;
} CUDA_LAUNCH_PARAMS_v1;
typedef CUDA_LAUNCH_PARAMS_v1 CUDA_LAUNCH_PARAMS;

/* ======================================================================
 * Runtime API (cuda_runtime_api.h, driver_types.h, vector_types.h)
 * ====================================================================== */

/* vector_types.h: in C these are plain structs (C++ gives dim3 constructors
 * defaulting to 1, which does not change the layout). */
#ifndef MC_VECTOR_TYPES_DEFINED   /* include/vector_types.h defines them for programs */
struct uint3 {
   unsigned int x, y, z;
};
typedef struct uint3 uint3;

struct dim3 {
   unsigned int x, y, z;
};
typedef struct dim3 dim3;
#endif

/* Handles: the driver's own structs, so the two APIs can exchange them. */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUlib_st *cudaLibrary_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUuserObject_st *cudaUserObject_t;
enum cudaUserObjectFlags {
   cudaUserObjectNoDestructorSync = 0x1,
};
enum cudaUserObjectRetainFlags {
   cudaGraphUserObjectMove = 0x1,
};
typedef struct CUgraphDeviceUpdatableNode_st *cudaGraphDeviceNode_t;
/* Note the different tags from the driver's CUexternalMemory
 * (CUextMemory_st) and CUexternalSemaphore (CUextSemaphore_st). */
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;
/* Only their addresses pass through metalcuda (runtime/interop.c refuses
 * every call that takes them). */
struct cudaExternalMemoryHandleDesc;
struct cudaExternalMemoryBufferDesc;
struct cudaExternalMemoryMipmappedArrayDesc;
struct cudaExternalSemaphoreHandleDesc;
struct cudaExternalSemaphoreSignalParams;
struct cudaExternalSemaphoreWaitParams;
struct cudaExternalSemaphoreSignalNodeParams;
struct cudaExternalSemaphoreWaitNodeParams;
/* Runtime-only handle structs. */
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef struct cudaAsyncCallbackEntry *cudaAsyncCallbackHandle_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
/* Texture and surface references (removed in CUDA 12; __cudaRegisterTexture
 * and __cudaRegisterSurface still name them).  Only pointers cross the ABI. */
struct textureReference;
struct surfaceReference;

typedef struct CUuuid_st cudaUUID_t;

#define cudaStreamLegacy    ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

#define cudaCpuDeviceId     ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

#define cudaHostAllocDefault        0x00
#define cudaHostAllocPortable       0x01
#define cudaHostAllocMapped         0x02
#define cudaHostAllocWriteCombined  0x04
#define cudaHostRegisterDefault     0x00
#define cudaHostRegisterPortable    0x01
#define cudaHostRegisterMapped      0x02
#define cudaHostRegisterIoMemory    0x04
#define cudaHostRegisterReadOnly    0x08
#define cudaPeerAccessDefault       0x00
#define cudaStreamDefault           0x00
#define cudaStreamNonBlocking       0x01
#define cudaEventDefault            0x00
#define cudaEventBlockingSync       0x01
#define cudaEventDisableTiming      0x02
#define cudaEventInterprocess       0x04
#define cudaEventRecordDefault      0x00
#define cudaEventRecordExternal     0x01
#define cudaEventWaitDefault        0x00
#define cudaEventWaitExternal       0x01
#define cudaDeviceScheduleAuto         0x00
#define cudaDeviceScheduleSpin         0x01
#define cudaDeviceScheduleYield        0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync         0x04
#define cudaDeviceScheduleMask         0x07
#define cudaDeviceMapHost              0x08
#define cudaDeviceLmemResizeToMax      0x10
#define cudaDeviceSyncMemops           0x80
#define cudaDeviceMask                 0xff
#define cudaMemAttachGlobal         0x01
#define cudaMemAttachHost           0x02
#define cudaMemAttachSingle         0x04
#define cudaInitDeviceFlagsAreValid 0x01
#define cudaOccupancyDefault                0x00
#define cudaOccupancyDisableCachingOverride 0x01

/* ---- error codes ---- */

enum cudaError {
   cudaSuccess                             = 0,
   cudaErrorInvalidValue                   = 1,
   cudaErrorMemoryAllocation               = 2,
   cudaErrorInitializationError            = 3,
   cudaErrorCudartUnloading                = 4,
   cudaErrorProfilerDisabled               = 5,
   cudaErrorProfilerNotInitialized         = 6,
   cudaErrorProfilerAlreadyStarted         = 7,
   cudaErrorProfilerAlreadyStopped         = 8,
   cudaErrorInvalidConfiguration           = 9,
   cudaErrorInvalidPitchValue              = 12,
   cudaErrorInvalidSymbol                  = 13,
   cudaErrorInvalidHostPointer             = 16,
   cudaErrorInvalidDevicePointer           = 17,
   cudaErrorInvalidTexture                 = 18,
   cudaErrorInvalidTextureBinding          = 19,
   cudaErrorInvalidChannelDescriptor       = 20,
   cudaErrorInvalidMemcpyDirection         = 21,
   cudaErrorAddressOfConstant              = 22,
   cudaErrorTextureFetchFailed             = 23,
   cudaErrorTextureNotBound                = 24,
   cudaErrorSynchronizationError           = 25,
   cudaErrorInvalidFilterSetting           = 26,
   cudaErrorInvalidNormSetting             = 27,
   cudaErrorMixedDeviceExecution           = 28,
   cudaErrorNotYetImplemented              = 31,
   cudaErrorMemoryValueTooLarge            = 32,
   cudaErrorStubLibrary                    = 34,
   cudaErrorInsufficientDriver             = 35,
   cudaErrorCallRequiresNewerDriver        = 36,
   cudaErrorInvalidSurface                 = 37,
   cudaErrorDuplicateVariableName          = 43,
   cudaErrorDuplicateTextureName           = 44,
   cudaErrorDuplicateSurfaceName           = 45,
   cudaErrorDevicesUnavailable             = 46,
   cudaErrorIncompatibleDriverContext      = 49,
   cudaErrorMissingConfiguration           = 52,
   cudaErrorPriorLaunchFailure             = 53,
   cudaErrorLaunchMaxDepthExceeded         = 65,
   cudaErrorLaunchFileScopedTex            = 66,
   cudaErrorLaunchFileScopedSurf           = 67,
   cudaErrorSyncDepthExceeded              = 68,
   cudaErrorLaunchPendingCountExceeded     = 69,
   cudaErrorInvalidDeviceFunction          = 98,
   cudaErrorNoDevice                       = 100,
   cudaErrorInvalidDevice                  = 101,
   cudaErrorDeviceNotLicensed              = 102,
   cudaErrorSoftwareValidityNotEstablished = 103,
   cudaErrorStartupFailure                 = 127,
   cudaErrorInvalidKernelImage             = 200,
   cudaErrorDeviceUninitialized            = 201,
   cudaErrorMapBufferObjectFailed          = 205,
   cudaErrorUnmapBufferObjectFailed        = 206,
   cudaErrorArrayIsMapped                  = 207,
   cudaErrorAlreadyMapped                  = 208,
   cudaErrorNoKernelImageForDevice         = 209,
   cudaErrorAlreadyAcquired                = 210,
   cudaErrorNotMapped                      = 211,
   cudaErrorNotMappedAsArray               = 212,
   cudaErrorNotMappedAsPointer             = 213,
   cudaErrorECCUncorrectable               = 214,
   cudaErrorUnsupportedLimit               = 215,
   cudaErrorDeviceAlreadyInUse             = 216,
   cudaErrorPeerAccessUnsupported          = 217,
   cudaErrorInvalidPtx                     = 218,
   cudaErrorInvalidGraphicsContext         = 219,
   cudaErrorNvlinkUncorrectable            = 220,
   cudaErrorJitCompilerNotFound            = 221,
   cudaErrorUnsupportedPtxVersion          = 222,
   cudaErrorJitCompilationDisabled         = 223,
   cudaErrorUnsupportedExecAffinity        = 224,
   cudaErrorUnsupportedDevSideSync         = 225,
   cudaErrorContained                      = 226,
   cudaErrorInvalidSource                  = 300,
   cudaErrorFileNotFound                   = 301,
   cudaErrorSharedObjectSymbolNotFound     = 302,
   cudaErrorSharedObjectInitFailed         = 303,
   cudaErrorOperatingSystem                = 304,
   cudaErrorInvalidResourceHandle          = 400,
   cudaErrorIllegalState                   = 401,
   cudaErrorLossyQuery                     = 402,
   cudaErrorSymbolNotFound                 = 500,
   cudaErrorNotReady                       = 600,
   cudaErrorIllegalAddress                 = 700,
   cudaErrorLaunchOutOfResources           = 701,
   cudaErrorLaunchTimeout                  = 702,
   cudaErrorLaunchIncompatibleTexturing    = 703,
   cudaErrorPeerAccessAlreadyEnabled       = 704,
   cudaErrorPeerAccessNotEnabled           = 705,
   cudaErrorSetOnActiveProcess             = 708,
   cudaErrorContextIsDestroyed             = 709,
   cudaErrorAssert                         = 710,
   cudaErrorTooManyPeers                   = 711,
   cudaErrorHostMemoryAlreadyRegistered    = 712,
   cudaErrorHostMemoryNotRegistered        = 713,
   cudaErrorHardwareStackError             = 714,
   cudaErrorIllegalInstruction             = 715,
   cudaErrorMisalignedAddress              = 716,
   cudaErrorInvalidAddressSpace            = 717,
   cudaErrorInvalidPc                      = 718,
   cudaErrorLaunchFailure                  = 719,
   cudaErrorCooperativeLaunchTooLarge      = 720,
   cudaErrorTensorMemoryLeak               = 721,
   cudaErrorNotPermitted                   = 800,
   cudaErrorNotSupported                   = 801,
   cudaErrorSystemNotReady                 = 802,
   cudaErrorSystemDriverMismatch           = 803,
   cudaErrorCompatNotSupportedOnDevice     = 804,
   cudaErrorMpsConnectionFailed            = 805,
   cudaErrorMpsRpcFailure                  = 806,
   cudaErrorMpsServerNotReady              = 807,
   cudaErrorMpsMaxClientsReached           = 808,
   cudaErrorMpsMaxConnectionsReached       = 809,
   cudaErrorMpsClientTerminated            = 810,
   cudaErrorCdpNotSupported                = 811,
   cudaErrorCdpVersionMismatch             = 812,
   cudaErrorStreamCaptureUnsupported       = 900,
   cudaErrorStreamCaptureInvalidated       = 901,
   cudaErrorStreamCaptureMerge             = 902,
   cudaErrorStreamCaptureUnmatched         = 903,
   cudaErrorStreamCaptureUnjoined          = 904,
   cudaErrorStreamCaptureIsolation         = 905,
   cudaErrorStreamCaptureImplicit          = 906,
   cudaErrorCapturedEvent                  = 907,
   cudaErrorStreamCaptureWrongThread       = 908,
   cudaErrorTimeout                        = 909,
   cudaErrorGraphExecUpdateFailure         = 910,
   cudaErrorExternalDevice                 = 911,
   cudaErrorInvalidClusterSize             = 912,
   cudaErrorFunctionNotLoaded              = 913,
   cudaErrorInvalidResourceType            = 914,
   cudaErrorInvalidResourceConfiguration   = 915,
   cudaErrorUnknown                        = 999,
   cudaErrorApiFailureBase                 = 10000,
};
typedef enum cudaError cudaError_t;

/* Host functions queued on a stream (cudaLaunchHostFunc, cudaStreamAddCallback). */
typedef void (CUDART_CB *cudaHostFn_t)(void *userData);
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* ---- devices ---- */

enum cudaDeviceAttr {
   cudaDevAttrMaxThreadsPerBlock                     = 1,
   cudaDevAttrMaxBlockDimX                           = 2,
   cudaDevAttrMaxBlockDimY                           = 3,
   cudaDevAttrMaxBlockDimZ                           = 4,
   cudaDevAttrMaxGridDimX                            = 5,
   cudaDevAttrMaxGridDimY                            = 6,
   cudaDevAttrMaxGridDimZ                            = 7,
   cudaDevAttrMaxSharedMemoryPerBlock                = 8,
   cudaDevAttrTotalConstantMemory                    = 9,
   cudaDevAttrWarpSize                               = 10,
   cudaDevAttrMaxPitch                               = 11,
   cudaDevAttrMaxRegistersPerBlock                   = 12,
   cudaDevAttrClockRate                              = 13,
   cudaDevAttrTextureAlignment                       = 14,
   cudaDevAttrGpuOverlap                             = 15,
   cudaDevAttrMultiProcessorCount                    = 16,
   cudaDevAttrKernelExecTimeout                      = 17,
   cudaDevAttrIntegrated                             = 18,
   cudaDevAttrCanMapHostMemory                       = 19,
   cudaDevAttrComputeMode                            = 20,
   cudaDevAttrMaxTexture1DWidth                      = 21,
   cudaDevAttrMaxTexture2DWidth                      = 22,
   cudaDevAttrMaxTexture2DHeight                     = 23,
   cudaDevAttrMaxTexture3DWidth                      = 24,
   cudaDevAttrMaxTexture3DHeight                     = 25,
   cudaDevAttrMaxTexture3DDepth                      = 26,
   cudaDevAttrMaxTexture2DLayeredWidth               = 27,
   cudaDevAttrMaxTexture2DLayeredHeight              = 28,
   cudaDevAttrMaxTexture2DLayeredLayers              = 29,
   cudaDevAttrSurfaceAlignment                       = 30,
   cudaDevAttrConcurrentKernels                      = 31,
   cudaDevAttrEccEnabled                             = 32,
   cudaDevAttrPciBusId                               = 33,
   cudaDevAttrPciDeviceId                            = 34,
   cudaDevAttrTccDriver                              = 35,
   cudaDevAttrMemoryClockRate                        = 36,
   cudaDevAttrGlobalMemoryBusWidth                   = 37,
   cudaDevAttrL2CacheSize                            = 38,
   cudaDevAttrMaxThreadsPerMultiProcessor            = 39,
   cudaDevAttrAsyncEngineCount                       = 40,
   cudaDevAttrUnifiedAddressing                      = 41,
   cudaDevAttrMaxTexture1DLayeredWidth               = 42,
   cudaDevAttrMaxTexture1DLayeredLayers              = 43,
   cudaDevAttrMaxTexture2DGatherWidth                = 45,
   cudaDevAttrMaxTexture2DGatherHeight               = 46,
   cudaDevAttrMaxTexture3DWidthAlt                   = 47,
   cudaDevAttrMaxTexture3DHeightAlt                  = 48,
   cudaDevAttrMaxTexture3DDepthAlt                   = 49,
   cudaDevAttrPciDomainId                            = 50,
   cudaDevAttrTexturePitchAlignment                  = 51,
   cudaDevAttrMaxTextureCubemapWidth                 = 52,
   cudaDevAttrMaxTextureCubemapLayeredWidth          = 53,
   cudaDevAttrMaxTextureCubemapLayeredLayers         = 54,
   cudaDevAttrMaxSurface1DWidth                      = 55,
   cudaDevAttrMaxSurface2DWidth                      = 56,
   cudaDevAttrMaxSurface2DHeight                     = 57,
   cudaDevAttrMaxSurface3DWidth                      = 58,
   cudaDevAttrMaxSurface3DHeight                     = 59,
   cudaDevAttrMaxSurface3DDepth                      = 60,
   cudaDevAttrMaxSurface1DLayeredWidth               = 61,
   cudaDevAttrMaxSurface1DLayeredLayers              = 62,
   cudaDevAttrMaxSurface2DLayeredWidth               = 63,
   cudaDevAttrMaxSurface2DLayeredHeight              = 64,
   cudaDevAttrMaxSurface2DLayeredLayers              = 65,
   cudaDevAttrMaxSurfaceCubemapWidth                 = 66,
   cudaDevAttrMaxSurfaceCubemapLayeredWidth          = 67,
   cudaDevAttrMaxSurfaceCubemapLayeredLayers         = 68,
   cudaDevAttrMaxTexture1DLinearWidth                = 69,
   cudaDevAttrMaxTexture2DLinearWidth                = 70,
   cudaDevAttrMaxTexture2DLinearHeight               = 71,
   cudaDevAttrMaxTexture2DLinearPitch                = 72,
   cudaDevAttrMaxTexture2DMipmappedWidth             = 73,
   cudaDevAttrMaxTexture2DMipmappedHeight            = 74,
   cudaDevAttrComputeCapabilityMajor                 = 75,
   cudaDevAttrComputeCapabilityMinor                 = 76,
   cudaDevAttrMaxTexture1DMipmappedWidth             = 77,
   cudaDevAttrStreamPrioritiesSupported              = 78,
   cudaDevAttrGlobalL1CacheSupported                 = 79,
   cudaDevAttrLocalL1CacheSupported                  = 80,
   cudaDevAttrMaxSharedMemoryPerMultiprocessor       = 81,
   cudaDevAttrMaxRegistersPerMultiprocessor          = 82,
   cudaDevAttrManagedMemory                          = 83,
   cudaDevAttrIsMultiGpuBoard                        = 84,
   cudaDevAttrMultiGpuBoardGroupID                   = 85,
   cudaDevAttrHostNativeAtomicSupported              = 86,
   cudaDevAttrSingleToDoublePrecisionPerfRatio       = 87,
   cudaDevAttrPageableMemoryAccess                   = 88,
   cudaDevAttrConcurrentManagedAccess                = 89,
   cudaDevAttrComputePreemptionSupported             = 90,
   cudaDevAttrCanUseHostPointerForRegisteredMem      = 91,
   cudaDevAttrReserved92                             = 92,
   cudaDevAttrReserved93                             = 93,
   cudaDevAttrReserved94                             = 94,
   cudaDevAttrCooperativeLaunch                      = 95,
   cudaDevAttrReserved96                             = 96,
   cudaDevAttrMaxSharedMemoryPerBlockOptin           = 97,
   cudaDevAttrCanFlushRemoteWrites                   = 98,
   cudaDevAttrHostRegisterSupported                  = 99,
   cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
   cudaDevAttrDirectManagedMemAccessFromHost         = 101,
   cudaDevAttrMaxBlocksPerMultiprocessor             = 106,
   cudaDevAttrMaxPersistingL2CacheSize               = 108,
   cudaDevAttrMaxAccessPolicyWindowSize              = 109,
   cudaDevAttrReservedSharedMemoryPerBlock           = 111,
   cudaDevAttrSparseCudaArraySupported               = 112,
   cudaDevAttrHostRegisterReadOnlySupported          = 113,
   cudaDevAttrTimelineSemaphoreInteropSupported      = 114,
   cudaDevAttrMemoryPoolsSupported                   = 115,
   cudaDevAttrGPUDirectRDMASupported                 = 116,
   cudaDevAttrGPUDirectRDMAFlushWritesOptions        = 117,
   cudaDevAttrGPUDirectRDMAWritesOrdering            = 118,
   cudaDevAttrMemoryPoolSupportedHandleTypes         = 119,
   cudaDevAttrClusterLaunch                          = 120,
   cudaDevAttrDeferredMappingCudaArraySupported      = 121,
   cudaDevAttrReserved122                            = 122,
   cudaDevAttrReserved123                            = 123,
   cudaDevAttrReserved124                            = 124,
   cudaDevAttrIpcEventSupport                        = 125,
   cudaDevAttrMemSyncDomainCount                     = 126,
   cudaDevAttrReserved127                            = 127,
   cudaDevAttrReserved128                            = 128,
   cudaDevAttrReserved129                            = 129,
   cudaDevAttrNumaConfig                             = 130,
   cudaDevAttrNumaId                                 = 131,
   cudaDevAttrReserved132                            = 132,
   cudaDevAttrMpsEnabled                             = 133,
   cudaDevAttrHostNumaId                             = 134,
   cudaDevAttrD3D12CigSupported                      = 135,
   cudaDevAttrVulkanCigSupported                     = 138,
   cudaDevAttrGpuPciDeviceId                         = 139,
   cudaDevAttrGpuPciSubsystemId                      = 140,
   cudaDevAttrReserved141                            = 141,
   cudaDevAttrHostNumaMemoryPoolsSupported           = 142,
   cudaDevAttrHostNumaMultinodeIpcSupported          = 143,
   cudaDevAttrHostMemoryPoolsSupported               = 144,
   cudaDevAttrReserved145                            = 145,
   cudaDevAttrOnlyPartialHostNativeAtomicSupported   = 147,
   cudaDevAttrMax                                    = 148,
};

/* What cudaDevAttrComputeMode, cudaDevAttrGPUDirectRDMAFlushWritesOptions
 * and cudaDevAttrGPUDirectRDMAWritesOrdering answer in (CCCL's
 * cuda::device attributes name these types). */
enum cudaComputeMode {
   cudaComputeModeDefault          = 0,
   cudaComputeModeExclusive        = 1,
   cudaComputeModeProhibited       = 2,
   cudaComputeModeExclusiveProcess = 3
};
enum cudaFlushGPUDirectRDMAWritesOptions {
   cudaFlushGPUDirectRDMAWritesOptionHost   = 1 << 0,
   cudaFlushGPUDirectRDMAWritesOptionMemOps = 1 << 1
};
enum cudaDeviceNumaConfig {
   cudaDeviceNumaConfigNone     = 0,
   cudaDeviceNumaConfigNumaNode = 1
};
enum cudaGPUDirectRDMAWritesOrdering {
   cudaGPUDirectRDMAWritesOrderingNone       = 0,
   cudaGPUDirectRDMAWritesOrderingOwner      = 100,
   cudaGPUDirectRDMAWritesOrderingAllDevices = 200
};
enum cudaLimit {
   cudaLimitStackSize                    = 0,
   cudaLimitPrintfFifoSize               = 1,
   cudaLimitMallocHeapSize               = 2,
   cudaLimitDevRuntimeSyncDepth          = 3,
   cudaLimitDevRuntimePendingLaunchCount = 4,
   cudaLimitMaxL2FetchGranularity        = 5,
   cudaLimitPersistingL2CacheSize        = 6,
};
enum cudaFuncCache {
   cudaFuncCachePreferNone   = 0,
   cudaFuncCachePreferShared = 1,
   cudaFuncCachePreferL1     = 2,
   cudaFuncCachePreferEqual  = 3,
};
enum cudaSharedMemConfig {
   cudaSharedMemBankSizeDefault   = 0,
   cudaSharedMemBankSizeFourByte  = 1,
   cudaSharedMemBankSizeEightByte = 2,
};
/* cudaGetDeviceProperties.  CUDA 13 removed fields that 12.x had deprecated
 * (among them clockRate, memoryClockRate, computeMode, deviceOverlap,
 * kernelExecTimeoutEnabled: the 13.0 release notes, "Changes to
 * cudaDeviceProperties structure"), so this is not CUDA 12's layout (12's
 * programs call cudaGetDeviceProperties_v2); 1008 bytes in 13.0.  The
 * reserved tail is part of the ABI. */
struct cudaDeviceProp {
   char name[256];
   cudaUUID_t uuid;
   char luid[8];
   unsigned int luidDeviceNodeMask;
   size_t totalGlobalMem;
   size_t sharedMemPerBlock;
   int regsPerBlock;
   int warpSize;
   size_t memPitch;
   int maxThreadsPerBlock;
   int maxThreadsDim[3];
   int maxGridSize[3];
   size_t totalConstMem;
   int major;
   int minor;
   size_t textureAlignment;
   size_t texturePitchAlignment;
   int multiProcessorCount;
   int integrated;
   int canMapHostMemory;
   int maxTexture1D;
   int maxTexture1DMipmap;
   int maxTexture2D[2];
   int maxTexture2DMipmap[2];
   int maxTexture2DLinear[3];
   int maxTexture2DGather[2];
   int maxTexture3D[3];
   int maxTexture3DAlt[3];
   int maxTextureCubemap;
   int maxTexture1DLayered[2];
   int maxTexture2DLayered[3];
   int maxTextureCubemapLayered[2];
   int maxSurface1D;
   int maxSurface2D[2];
   int maxSurface3D[3];
   int maxSurface1DLayered[2];
   int maxSurface2DLayered[3];
   int maxSurfaceCubemap;
   int maxSurfaceCubemapLayered[2];
   size_t surfaceAlignment;
   int concurrentKernels;
   int ECCEnabled;
   int pciBusID;
   int pciDeviceID;
   int pciDomainID;
   int tccDriver;
   int asyncEngineCount;
   int unifiedAddressing;
   int memoryBusWidth;
   int l2CacheSize;
   int persistingL2CacheMaxSize;
   int maxThreadsPerMultiProcessor;
   int streamPrioritiesSupported;
   int globalL1CacheSupported;
   int localL1CacheSupported;
   size_t sharedMemPerMultiprocessor;
   int regsPerMultiprocessor;
   int managedMemory;
   int isMultiGpuBoard;
   int multiGpuBoardGroupID;
   int hostNativeAtomicSupported;
   int pageableMemoryAccess;
   int concurrentManagedAccess;
   int computePreemptionSupported;
   int canUseHostPointerForRegisteredMem;
   int cooperativeLaunch;
   size_t sharedMemPerBlockOptin;
   int pageableMemoryAccessUsesHostPageTables;
   int directManagedMemAccessFromHost;
   int maxBlocksPerMultiProcessor;
   int accessPolicyMaxWindowSize;
   size_t reservedSharedMemPerBlock;
   int hostRegisterSupported;
   int sparseCudaArraySupported;
   int hostRegisterReadOnlySupported;
   int timelineSemaphoreInteropSupported;
   int memoryPoolsSupported;
   int gpuDirectRDMASupported;
   unsigned int gpuDirectRDMAFlushWritesOptions;
   int gpuDirectRDMAWritesOrdering;
   unsigned int memoryPoolSupportedHandleTypes;
   int deferredMappingCudaArraySupported;
   int ipcEventSupported;
   int clusterLaunch;
   int unifiedFunctionPointers;
   int deviceNumaConfig;
   int deviceNumaId;
   int mpsEnabled;
   int hostNumaId;
   unsigned int gpuPciDeviceID;
   unsigned int gpuPciSubsystemID;
   int hostNumaMultinodeIpcSupported;
   int reserved[56];
};

/* Graphs (cudaGraph*) and stream capture modes. */
enum cudaStreamCaptureMode {
   cudaStreamCaptureModeGlobal      = 0,
   cudaStreamCaptureModeThreadLocal = 1,
   cudaStreamCaptureModeRelaxed     = 2,
};
enum cudaGraphNodeType {
   cudaGraphNodeTypeKernel              = 0x00,
   cudaGraphNodeTypeMemcpy              = 0x01,
   cudaGraphNodeTypeMemset              = 0x02,
   cudaGraphNodeTypeHost                = 0x03,
   cudaGraphNodeTypeGraph               = 0x04,
   cudaGraphNodeTypeEmpty               = 0x05,
   cudaGraphNodeTypeWaitEvent           = 0x06,
   cudaGraphNodeTypeEventRecord         = 0x07,
   cudaGraphNodeTypeExtSemaphoreSignal  = 0x08,
   cudaGraphNodeTypeExtSemaphoreWait    = 0x09,
   cudaGraphNodeTypeMemAlloc            = 0x0a,
   cudaGraphNodeTypeMemFree             = 0x0b,
   cudaGraphNodeTypeConditional         = 0x0d,
   cudaGraphNodeTypeCount,
};
struct cudaKernelNodeParams {
   void *func;
   dim3 gridDim;
   dim3 blockDim;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
};
struct cudaMemsetParams {
   void *dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
};
struct cudaHostNodeParams {
   cudaHostFn_t fn;
   void *userData;
};
enum cudaGraphExecUpdateResult {
   cudaGraphExecUpdateSuccess                        = 0x0,
   cudaGraphExecUpdateError                          = 0x1,
   cudaGraphExecUpdateErrorTopologyChanged           = 0x2,
   cudaGraphExecUpdateErrorNodeTypeChanged           = 0x3,
   cudaGraphExecUpdateErrorFunctionChanged           = 0x4,
   cudaGraphExecUpdateErrorParametersChanged         = 0x5,
   cudaGraphExecUpdateErrorNotSupported              = 0x6,
   cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
   cudaGraphExecUpdateErrorAttributesChanged         = 0x8,
};
typedef struct cudaGraphExecUpdateResultInfo_st {
   enum cudaGraphExecUpdateResult result;
   cudaGraphNode_t errorNode;
   cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;
enum cudaGraphInstantiateFlags {
   cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
   cudaGraphInstantiateFlagUpload           = 2,
   cudaGraphInstantiateFlagDeviceLaunch     = 4,
   cudaGraphInstantiateFlagUseNodePriority  = 8,
};
typedef enum cudaGraphInstantiateResult {
   cudaGraphInstantiateSuccess                     = 0,
   cudaGraphInstantiateError                       = 1,
   cudaGraphInstantiateInvalidStructure            = 2,
   cudaGraphInstantiateNodeOperationNotSupported   = 3,
   cudaGraphInstantiateMultipleDevicesNotSupported = 4,
   cudaGraphInstantiateConditionalHandleUnused     = 5,
} cudaGraphInstantiateResult;
enum cudaGraphMemAttributeType {
   cudaGraphMemAttrUsedMemCurrent     = 0x0,
   cudaGraphMemAttrUsedMemHigh        = 0x1,
   cudaGraphMemAttrReservedMemCurrent = 0x2,
   cudaGraphMemAttrReservedMemHigh    = 0x3,
};
typedef struct cudaGraphInstantiateParams_st {
   unsigned long long flags;
   cudaStream_t uploadStream;
   cudaGraphNode_t errNode_out;
   cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;
/* Stream capture queries (cudaStreamIsCapturing, cudaStreamGetCaptureInfo). */
enum cudaStreamCaptureStatus {
   cudaStreamCaptureStatusNone        = 0,
   cudaStreamCaptureStatusActive      = 1,
   cudaStreamCaptureStatusInvalidated = 2,
};
typedef struct cudaGraphEdgeData_st {
   unsigned char from_port;
   unsigned char to_port;
   unsigned char type;
   unsigned char reserved[5];
} cudaGraphEdgeData;
/* cudaDeviceGetP2PAttribute */
enum cudaDeviceP2PAttr {
   cudaDevP2PAttrPerformanceRank                  = 1,
   cudaDevP2PAttrAccessSupported                  = 2,
   cudaDevP2PAttrNativeAtomicSupported            = 3,
   cudaDevP2PAttrCudaArrayAccessSupported         = 4,
   cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5,
};

/* ---- memory ---- */

enum cudaMemcpyKind {
   cudaMemcpyHostToHost     = 0,
   cudaMemcpyHostToDevice   = 1,
   cudaMemcpyDeviceToHost   = 2,
   cudaMemcpyDeviceToDevice = 3,
   cudaMemcpyDefault        = 4,
};
enum cudaMemoryType {
   cudaMemoryTypeUnregistered = 0,
   cudaMemoryTypeHost         = 1,
   cudaMemoryTypeDevice       = 2,
   cudaMemoryTypeManaged      = 3,
};
typedef struct cudaIpcEventHandle_st {
   char reserved[64];
} cudaIpcEventHandle_t;
typedef struct cudaIpcMemHandle_st {
   char reserved[64];
} cudaIpcMemHandle_t;
struct cudaMemPoolPtrExportData {
   unsigned char reserved[64];
};
struct cudaPointerAttributes {
   enum cudaMemoryType type;
   int device;
   void *devicePointer;
   void *hostPointer;
   long reserved[8];
};
struct cudaPitchedPtr {
   void *ptr;
   size_t pitch;
   size_t xsize;
   size_t ysize;
};

struct cudaExtent {
   size_t width;
   size_t height;
   size_t depth;
};
struct cudaPos {
   size_t x;
   size_t y;
   size_t z;
};
struct cudaMemcpy3DParms {
   cudaArray_t srcArray;
   struct cudaPos srcPos;
   struct cudaPitchedPtr srcPtr;
   cudaArray_t dstArray;
   struct cudaPos dstPos;
   struct cudaPitchedPtr dstPtr;
   struct cudaExtent extent;
   enum cudaMemcpyKind kind;
};
struct cudaMemcpy3DPeerParms {
   cudaArray_t srcArray;
   struct cudaPos srcPos;
   struct cudaPitchedPtr srcPtr;
   int srcDevice;
   cudaArray_t dstArray;
   struct cudaPos dstPos;
   struct cudaPitchedPtr dstPtr;
   int dstDevice;
   struct cudaExtent extent;
};
enum cudaMemRangeAttribute {
   cudaMemRangeAttributeReadMostly               = 1,
   cudaMemRangeAttributePreferredLocation        = 2,
   cudaMemRangeAttributeAccessedBy               = 3,
   cudaMemRangeAttributeLastPrefetchLocation     = 4,
   cudaMemRangeAttributePreferredLocationType    = 5,
   cudaMemRangeAttributePreferredLocationId      = 6,
   cudaMemRangeAttributeLastPrefetchLocationType = 7,
   cudaMemRangeAttributeLastPrefetchLocationId   = 8,
};
enum cudaMemoryAdvise {
   cudaMemAdviseSetReadMostly          = 1,
   cudaMemAdviseUnsetReadMostly        = 2,
   cudaMemAdviseSetPreferredLocation   = 3,
   cudaMemAdviseUnsetPreferredLocation = 4,
   cudaMemAdviseSetAccessedBy          = 5,
   cudaMemAdviseUnsetAccessedBy        = 6,
};
enum cudaMemLocationType {
   cudaMemLocationTypeInvalid         = 0,
   cudaMemLocationTypeNone            = 0,
   cudaMemLocationTypeDevice          = 1,
   cudaMemLocationTypeHost            = 2,
   cudaMemLocationTypeHostNuma        = 3,
   cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
   enum cudaMemLocationType type;
   int id;
};
enum cudaMemPoolAttr {
   cudaMemPoolReuseFollowEventDependencies   = 0x1,
   cudaMemPoolReuseAllowOpportunistic        = 0x2,
   cudaMemPoolReuseAllowInternalDependencies = 0x3,
   cudaMemPoolAttrReleaseThreshold           = 0x4,
   cudaMemPoolAttrReservedMemCurrent         = 0x5,
   cudaMemPoolAttrReservedMemHigh            = 0x6,
   cudaMemPoolAttrUsedMemCurrent             = 0x7,
   cudaMemPoolAttrUsedMemHigh                = 0x8,
};
/* Memory pools' allocation and export kinds, and the source access order
 * of batched copies: CCCL 3's cuda::memory_pool and cuda::copy name them. */
enum cudaMemAllocationType {
   cudaMemAllocationTypeInvalid = 0x0,
   cudaMemAllocationTypePinned  = 0x1,
   cudaMemAllocationTypeManaged = 0x2,
   cudaMemAllocationTypeMax     = 0x7FFFFFFF
};
enum cudaMemAllocationHandleType {
   cudaMemHandleTypeNone                = 0x0,
   cudaMemHandleTypePosixFileDescriptor = 0x1,
   cudaMemHandleTypeWin32               = 0x2,
   cudaMemHandleTypeWin32Kmt            = 0x4,
   cudaMemHandleTypeFabric              = 0x8
};
enum cudaMemAccessFlags {
   cudaMemAccessFlagsProtNone      = 0,
   cudaMemAccessFlagsProtRead      = 1,
   cudaMemAccessFlagsProtReadWrite = 3
};
struct cudaMemAccessDesc {
   struct cudaMemLocation location;
   enum cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
   enum cudaMemAllocationType allocType;
   enum cudaMemAllocationHandleType handleTypes;
   struct cudaMemLocation location;
   void *win32SecurityAttributes;
   size_t maxSize;
   unsigned short usage;
   unsigned char reserved[54];
};
/* graph allocation and free nodes (cudaGraphAddMemAllocNode) */
struct cudaMemAllocNodeParams {
   struct cudaMemPoolProps poolProps;
   const struct cudaMemAccessDesc *accessDescs;
   size_t accessDescCount;
   size_t bytesize;
   void *dptr;
};
struct cudaMemFreeNodeParams {
   void *dptr;
};
/* The generic node API (cudaGraphAddNode, CUDA 12.2+) */
typedef unsigned long long cudaGraphConditionalHandle;
enum cudaGraphConditionalHandleFlags {
   cudaGraphCondAssignDefault = 1,
};
enum cudaGraphConditionalNodeType {
   cudaGraphCondTypeIf     = 0,
   cudaGraphCondTypeWhile  = 1,
   cudaGraphCondTypeSwitch = 2,
};
struct cudaKernelNodeParamsV2 {
   void *func;
   dim3 gridDim;
   dim3 blockDim;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
};
struct cudaMemcpyNodeParams {
   int flags;
   int reserved[3];
   struct cudaMemcpy3DParms copyParams;
};
struct cudaMemsetParamsV2 {
   void *dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
};
struct cudaHostNodeParamsV2 {
   cudaHostFn_t fn;
   void *userData;
};
enum cudaGraphChildGraphNodeOwnership {
   cudaGraphChildGraphOwnershipClone = 0,
   cudaGraphChildGraphOwnershipMove  = 1,
};
struct cudaChildGraphNodeParams {
   cudaGraph_t graph;
   enum cudaGraphChildGraphNodeOwnership ownership;
};
struct cudaEventRecordNodeParams {
   cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
   cudaEvent_t event;
};
struct cudaMemAllocNodeParamsV2 {
   struct cudaMemPoolProps poolProps;
   const struct cudaMemAccessDesc *accessDescs;
   size_t accessDescCount;
   size_t bytesize;
   void *dptr;
};
struct cudaConditionalNodeParams {
   cudaGraphConditionalHandle handle;
   enum cudaGraphConditionalNodeType type;
   unsigned int size;
   cudaGraph_t *phGraph_out;      /* out: the bodies, owned by the node */
};
struct cudaGraphNodeParams {
   enum cudaGraphNodeType type;
   int reserved0[3];
   union {
      long long reserved1[29];
      struct cudaKernelNodeParamsV2 kernel;
      struct cudaMemcpyNodeParams memcpy;
      struct cudaMemsetParamsV2 memset;
      struct cudaHostNodeParamsV2 host;
      struct cudaChildGraphNodeParams graph;
      struct cudaEventWaitNodeParams eventWait;
      struct cudaEventRecordNodeParams eventRecord;
      struct cudaMemAllocNodeParamsV2 alloc;
      struct cudaMemFreeNodeParams free;
      struct cudaConditionalNodeParams conditional;
   };
   long long reserved2;
};
enum cudaMemcpySrcAccessOrder {
   cudaMemcpySrcAccessOrderInvalid       = 0x0,
   cudaMemcpySrcAccessOrderStream        = 0x1,
   cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
   cudaMemcpySrcAccessOrderAny           = 0x3,
   cudaMemcpySrcAccessOrderMax           = 0x7FFFFFFF
};
enum cudaMemcpyFlags {
   cudaMemcpyFlagDefault                  = 0x0,
   cudaMemcpyFlagPreferOverlapWithCompute = 0x1
};
struct cudaMemcpyAttributes {
   enum cudaMemcpySrcAccessOrder srcAccessOrder;
   struct cudaMemLocation srcLocHint;
   struct cudaMemLocation dstLocHint;
   unsigned int flags;
};
enum cudaMemcpy3DOperandType {
   cudaMemcpyOperandTypePointer = 0x1,
   cudaMemcpyOperandTypeArray   = 0x2,
   cudaMemcpyOperandTypeMax     = 0x7FFFFFFF
};
struct cudaOffset3D {
   size_t x;
   size_t y;
   size_t z;
};
struct cudaMemcpy3DOperand {
   enum cudaMemcpy3DOperandType type;
   union {
      struct {
         void *ptr;
         size_t rowLength;
         size_t layerHeight;
         struct cudaMemLocation locHint;
      } ptr;
      struct {
         cudaArray_t array;
         struct cudaOffset3D offset;
      } array;
   } op;
};
struct cudaMemcpy3DBatchOp {
   struct cudaMemcpy3DOperand src;
   struct cudaMemcpy3DOperand dst;
   struct cudaExtent extent;
   enum cudaMemcpySrcAccessOrder srcAccessOrder;
   unsigned int flags;
};
enum cudaAtomicOperation {
   cudaAtomicOperationIntegerAdd       = 0,
   cudaAtomicOperationIntegerMin       = 1,
   cudaAtomicOperationIntegerMax       = 2,
   cudaAtomicOperationIntegerIncrement = 3,
   cudaAtomicOperationIntegerDecrement = 4,
   cudaAtomicOperationAnd              = 5,
   cudaAtomicOperationOr               = 6,
   cudaAtomicOperationXOR              = 7,
   cudaAtomicOperationExchange         = 8,
   cudaAtomicOperationCAS              = 9,
   cudaAtomicOperationFloatAdd         = 10,
   cudaAtomicOperationFloatMin         = 11,
   cudaAtomicOperationFloatMax         = 12
};
enum cudaAtomicOperationCapability {
   cudaAtomicCapabilitySigned     = 1u << 0,
   cudaAtomicCapabilityUnsigned   = 1u << 1,
   cudaAtomicCapabilityReduction  = 1u << 2,
   cudaAtomicCapabilityScalar32   = 1u << 3,
   cudaAtomicCapabilityScalar64   = 1u << 4,
   cudaAtomicCapabilityScalar128  = 1u << 5,
   cudaAtomicCapabilityVector32x4 = 1u << 6
};
enum cudaFlushGPUDirectRDMAWritesScope {
   cudaFlushGPUDirectRDMAWritesToOwner      = 100,
   cudaFlushGPUDirectRDMAWritesToAllDevices = 200
};
enum cudaFlushGPUDirectRDMAWritesTarget {
   cudaFlushGPUDirectRDMAWritesTargetCurrentDevice
};
typedef enum cudaAsyncNotificationType_enum {
   cudaAsyncNotificationTypeOverBudget = 0x1
} cudaAsyncNotificationType;
typedef struct cudaAsyncNotificationInfo {
   cudaAsyncNotificationType type;
   union {
      struct {
         unsigned long long bytesOverBudget;
      } overBudget;
   } info;
} cudaAsyncNotificationInfo_t;
typedef void (*cudaAsyncCallback)(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t);
#define cudaArraySparsePropertiesSingleMipTail 0x1
struct cudaArraySparseProperties {
   struct {
      unsigned int width;
      unsigned int height;
      unsigned int depth;
   } tileExtent;
   unsigned int miptailFirstLevel;
   unsigned long long miptailSize;
   unsigned int flags;
   unsigned int reserved[4];
};
struct cudaArrayMemoryRequirements {
   size_t size;
   size_t alignment;
   unsigned int reserved[4];
};

enum cudaChannelFormatKind {
   cudaChannelFormatKindSigned                       = 0,
   cudaChannelFormatKindUnsigned                     = 1,
   cudaChannelFormatKindFloat                        = 2,
   cudaChannelFormatKindNone                         = 3,
   cudaChannelFormatKindNV12                         = 4,
   cudaChannelFormatKindUnsignedNormalized8X1        = 5,
   cudaChannelFormatKindUnsignedNormalized8X2        = 6,
   cudaChannelFormatKindUnsignedNormalized8X4        = 7,
   cudaChannelFormatKindUnsignedNormalized16X1       = 8,
   cudaChannelFormatKindUnsignedNormalized16X2       = 9,
   cudaChannelFormatKindUnsignedNormalized16X4       = 10,
   cudaChannelFormatKindSignedNormalized8X1          = 11,
   cudaChannelFormatKindSignedNormalized8X2          = 12,
   cudaChannelFormatKindSignedNormalized8X4          = 13,
   cudaChannelFormatKindSignedNormalized16X1         = 14,
   cudaChannelFormatKindSignedNormalized16X2         = 15,
   cudaChannelFormatKindSignedNormalized16X4         = 16,
   cudaChannelFormatKindUnsignedBlockCompressed1     = 17,
   cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
   cudaChannelFormatKindUnsignedBlockCompressed2     = 19,
   cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
   cudaChannelFormatKindUnsignedBlockCompressed3     = 21,
   cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
   cudaChannelFormatKindUnsignedBlockCompressed4     = 23,
   cudaChannelFormatKindSignedBlockCompressed4       = 24,
   cudaChannelFormatKindUnsignedBlockCompressed5     = 25,
   cudaChannelFormatKindSignedBlockCompressed5       = 26,
   cudaChannelFormatKindUnsignedBlockCompressed6H    = 27,
   cudaChannelFormatKindSignedBlockCompressed6H      = 28,
   cudaChannelFormatKindUnsignedBlockCompressed7     = 29,
   cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
   cudaChannelFormatKindUnsignedNormalized1010102    = 31,
};
struct cudaChannelFormatDesc {
   int x, y, z, w;                  /* bits per component */
   enum cudaChannelFormatKind f;
};

/* ---- CUDA arrays, texture and surface objects (driver_types.h, texture_types.h) ---- */

#define cudaArrayDefault          0x00
#define cudaArrayLayered          0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap          0x04
#define cudaArrayTextureGather    0x08

enum cudaResourceType {
   cudaResourceTypeArray          = 0,
   cudaResourceTypeMipmappedArray = 1,
   cudaResourceTypeLinear         = 2,
   cudaResourceTypePitch2D        = 3,
};
enum cudaTextureAddressMode {
   cudaAddressModeWrap   = 0,
   cudaAddressModeClamp  = 1,
   cudaAddressModeMirror = 2,
   cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

struct cudaResourceDesc {
   enum cudaResourceType resType;
   union {
      struct { cudaArray_t array; } array;
      struct { cudaMipmappedArray_t mipmap; } mipmap;
      struct {
         void *devPtr;
         struct cudaChannelFormatDesc desc;
         size_t sizeInBytes;
      } linear;
      struct {
         void *devPtr;
         struct cudaChannelFormatDesc desc;
         size_t width, height, pitchInBytes;
      } pitch2D;
      struct { int reserved[32]; } reserved;
   } res;
   unsigned int flags;
};

struct cudaResourceViewDesc {
   int format;                      /* enum cudaResourceViewFormat */
   size_t width, height, depth;
   unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
   unsigned int reserved[16];
};

struct cudaTextureDesc {
   enum cudaTextureAddressMode addressMode[3];
   enum cudaTextureFilterMode filterMode;
   enum cudaTextureReadMode readMode;
   int sRGB;
   float borderColor[4];
   int normalizedCoords;
   unsigned int maxAnisotropy;
   enum cudaTextureFilterMode mipmapFilterMode;
   float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
   int disableTrilinearOptimization;
   int seamlessCubemap;
};

/* ---- libraries (cudaLibraryLoadData): the driver's CUjit_option and
 * CUlibraryOption numbers ---- */

enum cudaJitOption {
   cudaJitMaxRegisters               = 0,
   cudaJitThreadsPerBlock            = 1,
   cudaJitWallTime                   = 2,
   cudaJitInfoLogBuffer              = 3,
   cudaJitInfoLogBufferSizeBytes     = 4,
   cudaJitErrorLogBuffer             = 5,
   cudaJitErrorLogBufferSizeBytes    = 6,
   cudaJitOptimizationLevel          = 7,
   cudaJitFallbackStrategy           = 10,
   cudaJitGenerateDebugInfo          = 11,
   cudaJitLogVerbose                 = 12,
   cudaJitGenerateLineInfo           = 13,
   cudaJitCacheMode                  = 14,
   cudaJitPositionIndependentCode    = 30,
   cudaJitMinCtaPerSm                = 31,
   cudaJitMaxThreadsPerBlock         = 32,
   cudaJitOverrideDirectiveValues    = 33,
};
enum cudaLibraryOption {
   cudaLibraryHostUniversalFunctionAndDataTable = 0,
   cudaLibraryBinaryIsPreserved                 = 1,
};

/* ---- functions and launches ---- */

enum cudaFuncAttribute {
   cudaFuncAttributeMaxDynamicSharedMemorySize        = 8,
   cudaFuncAttributePreferredSharedMemoryCarveout     = 9,
   cudaFuncAttributeClusterDimMustBeSet               = 10,
   cudaFuncAttributeRequiredClusterWidth              = 11,
   cudaFuncAttributeRequiredClusterHeight             = 12,
   cudaFuncAttributeRequiredClusterDepth              = 13,
   cudaFuncAttributeNonPortableClusterSizeAllowed     = 14,
   cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
   cudaFuncAttributeMax                               = 16,
};
struct cudaFuncAttributes {
   size_t sharedSizeBytes;
   size_t constSizeBytes;
   size_t localSizeBytes;
   int maxThreadsPerBlock;
   int numRegs;
   int ptxVersion;
   int binaryVersion;
   int cacheModeCA;
   int maxDynamicSharedSizeBytes;
   int preferredShmemCarveout;
   int clusterDimMustBeSet;
   int requiredClusterWidth;
   int requiredClusterHeight;
   int requiredClusterDepth;
   int clusterSchedulingPolicyPreference;
   int nonPortableClusterSizeAllowed;
   int reserved[16];
};

enum cudaAccessProperty {
   cudaAccessPropertyNormal     = 0,
   cudaAccessPropertyStreaming  = 1,
   cudaAccessPropertyPersisting = 2,
};
enum cudaSynchronizationPolicy {
   cudaSyncPolicyAuto         = 1,
   cudaSyncPolicySpin         = 2,
   cudaSyncPolicyYield        = 3,
   cudaSyncPolicyBlockingSync = 4,
};
enum cudaClusterSchedulingPolicy {
   cudaClusterSchedulingPolicyDefault       = 0,
   cudaClusterSchedulingPolicySpread        = 1,
   cudaClusterSchedulingPolicyLoadBalancing = 2,
};
typedef enum cudaLaunchMemSyncDomain {
   cudaLaunchMemSyncDomainDefault = 0,
   cudaLaunchMemSyncDomainRemote  = 1,
} cudaLaunchMemSyncDomain;
typedef enum cudaLaunchAttributeID {
   cudaLaunchAttributeIgnore                            = 0,
   cudaLaunchAttributeAccessPolicyWindow                = 1,
   cudaLaunchAttributeCooperative                       = 2,
   cudaLaunchAttributeSynchronizationPolicy             = 3,
   cudaLaunchAttributeClusterDimension                  = 4,
   cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
   cudaLaunchAttributeProgrammaticStreamSerialization   = 6,
   cudaLaunchAttributeProgrammaticEvent                 = 7,
   cudaLaunchAttributePriority                          = 8,
   cudaLaunchAttributeMemSyncDomainMap                  = 9,
   cudaLaunchAttributeMemSyncDomain                     = 10,
   cudaLaunchAttributePreferredClusterDimension         = 11,
   cudaLaunchAttributeLaunchCompletionEvent             = 12,
   cudaLaunchAttributeDeviceUpdatableKernelNode         = 13,
   cudaLaunchAttributePreferredSharedMemoryCarveout     = 14,
   cudaLaunchAttributeNvlinkUtilCentricScheduling       = 16,
} cudaLaunchAttributeID;
struct cudaAccessPolicyWindow {
   void *base_ptr;
   size_t num_bytes;
   float hitRatio;
   enum cudaAccessProperty hitProp;
   enum cudaAccessProperty missProp;
};

typedef struct cudaLaunchMemSyncDomainMap_st {
   unsigned char default_;
   unsigned char remote;
} cudaLaunchMemSyncDomainMap;

/* Same shape as CUlaunchAttributeValue (NVIDIA orders two members
 * differently; all members of a union start at 0). */
typedef union cudaLaunchAttributeValue {
   char pad[64];
   struct cudaAccessPolicyWindow accessPolicyWindow;
   int cooperative;
   enum cudaSynchronizationPolicy syncPolicy;
   struct { unsigned int x, y, z; } clusterDim;
   enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
   int programmaticStreamSerializationAllowed;
   struct { cudaEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
   int priority;
   cudaLaunchMemSyncDomainMap memSyncDomainMap;
   cudaLaunchMemSyncDomain memSyncDomain;
   struct { unsigned int x, y, z; } preferredClusterDim;
   struct { cudaEvent_t event; int flags; } launchCompletionEvent;
   struct { int deviceUpdatable; cudaGraphDeviceNode_t devNode; } deviceUpdatableKernelNode;
   unsigned int sharedMemCarveout;
   unsigned int nvlinkUtilCentricScheduling;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
   cudaLaunchAttributeID id;
   char pad[8 - sizeof(cudaLaunchAttributeID)];
   cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
   dim3 gridDim;
   dim3 blockDim;
   size_t dynamicSmemBytes;
   cudaStream_t stream;
   cudaLaunchAttribute *attrs;
   unsigned int numAttrs;
} cudaLaunchConfig_t;

/* ---- cudaGetDriverEntryPoint ---- */

enum cudaGetDriverEntryPointFlags {
   cudaEnableDefault                = 0,
   cudaEnableLegacyStream           = 1,
   cudaEnablePerThreadDefaultStream = 2,
};
enum cudaDriverEntryPointQueryResult {
   cudaDriverEntryPointSuccess             = 0,
   cudaDriverEntryPointSymbolNotFound      = 1,
   cudaDriverEntryPointVersionNotSufficent = 2,
};
#endif
