/*
 * objc_decls.h — the Objective-C runtime and Metal C symbols the Apple
 * backend uses, as C declarations.
 *
 * On macOS the runtime's own headers are used (<objc/runtime.h>,
 * <objc/message.h>, <Block.h>: plain C).  Elsewhere the same names are
 * declared here, minimally, so the backend compiles on Linux and cannot
 * rot (the Makefile's check-apple target, tests/unit/test_mtl_apple.c);
 * nothing is linked or run there.
 *
 * Metal's own headers are Objective-C and cannot be included from C: the
 * few types and constants the backend needs are restated below with the
 * values of the macOS SDK headers (MTLResource.h, MTLLibrary.h, ...).
 */
#ifndef MC_APPLE_OBJC_DECLS_H
#define MC_APPLE_OBJC_DECLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __APPLE__
/* objc_msgSend as `void objc_msgSend(void)`: it must be cast to each
 * method's exact type before a call, never called as a variadic. */
#ifndef OBJC_OLD_DISPATCH_PROTOTYPES
#define OBJC_OLD_DISPATCH_PROTOTYPES 0
#endif
#include <Block.h>
#include <objc/message.h>
#include <objc/runtime.h>
#else
typedef struct objc_object *id;
typedef struct objc_selector *SEL;
typedef struct objc_class *Class;
/* BOOL is bool on arm64 and signed char on x86_64 (<objc/objc.h>). */
#if defined(__aarch64__)
typedef bool BOOL;
#else
typedef signed char BOOL;
#endif
Class objc_getClass(const char *name);
SEL sel_registerName(const char *name);
void objc_msgSend(void);
#if defined(__x86_64__)
void objc_msgSend_stret(void);
#endif
/* The isa of block literals (Clang Blocks ABI). */
extern void *_NSConcreteGlobalBlock[32];
extern void *_NSConcreteStackBlock[32];
#endif

/* Exported by libobjc on every macOS (clang's @autoreleasepool calls
 * them) but declared in no public header. */
void *objc_autoreleasePoolPush(void);
void objc_autoreleasePoolPop(void *pool);

/* Foundation's integer types (LP64). */
typedef unsigned long NSUInteger;
typedef long NSInteger;

/* MTLSize and NSRange under our own names: same
 * layout, so the same calling convention when passed or returned by
 * value. */
typedef struct apple_mtl_size {
   NSUInteger width, height, depth;
} apple_mtl_size;

typedef struct apple_ns_range {
   NSUInteger location, length;
} apple_ns_range;


/* Metal.framework's C functions: the default GPU and every GPU, each
 * returned retained (+1). */
id MTLCreateSystemDefaultDevice(void);
id MTLCopyAllDevices(void);

/* Enumerations, values from the macOS SDK headers. */
enum {
   /* MTLResourceOptions: storage mode << 4, hazard tracking mode << 8. */
   APPLE_RESOURCE_STORAGE_SHARED = 0 << 4,
   APPLE_RESOURCE_HAZARD_TRACKED = 2 << 8,
   /* MTLResourceUsage */
   APPLE_RESOURCE_USAGE_READ = 1 << 0,
   APPLE_RESOURCE_USAGE_WRITE = 1 << 1,
   /* MTLBarrierScope */
   APPLE_BARRIER_SCOPE_BUFFERS = 1 << 0,
   /* MTLPipelineOption: binding (formerly argument) reflection. */
   APPLE_PIPELINE_OPTION_BINDING_INFO = 1 << 0,
   /* MTLBindingType */
   APPLE_BINDING_BUFFER = 0,
   APPLE_BINDING_THREADGROUP_MEMORY = 1,
   /* MTLFunctionType */
   APPLE_FUNCTION_KERNEL = 3,
   /* MTLMathMode (macOS 15) */
   APPLE_MATH_MODE_SAFE = 0,
   APPLE_MATH_MODE_FAST = 2,
   /* MTLMathFloatingPointFunctions (macOS 15) */
   APPLE_MATH_FUNCTIONS_FAST = 0,
   APPLE_MATH_FUNCTIONS_PRECISE = 1,
   /* MTLGPUFamily */
   APPLE_GPU_FAMILY_METAL3 = 5001,
   /* MTLCommandBufferStatus */
   APPLE_CMDBUF_NOT_ENQUEUED = 0,
   APPLE_CMDBUF_ENQUEUED = 1,
   APPLE_CMDBUF_COMMITTED = 2,
   APPLE_CMDBUF_SCHEDULED = 3,
   APPLE_CMDBUF_COMPLETED = 4,
   APPLE_CMDBUF_ERROR = 5,
   /* MTLCommandBufferError (the NSError code of a failed buffer) */
   APPLE_CMDBUF_ERROR_TIMEOUT = 2,
   APPLE_CMDBUF_ERROR_PAGE_FAULT = 3,
   APPLE_CMDBUF_ERROR_ACCESS_REVOKED = 4,     /* formerly "Blacklisted" */
   APPLE_CMDBUF_ERROR_NOT_PERMITTED = 7,
   /* MTLCommandBufferErrorOption, MTLCommandEncoderErrorState (macOS 11) */
   APPLE_CMDBUF_ERROR_OPTION_ENCODER_STATUS = 1,
   APPLE_ENCODER_STATE_FAULTED = 4,
};

/* Metal's NSError userInfo key of the encoders' execution states
 * (NSErrorUserInfoKey, an NSString *const; macOS 11). */
extern id const MTLCommandBufferEncoderInfoErrorKey;

/* MTLLanguageVersion for MSL major.minor: (major << 16) | minor. */
static inline NSUInteger apple_language_version(uint32_t msl)
{
   return (NSUInteger)(msl / 100) << 16 | (msl / 10 % 10);
}

#endif
