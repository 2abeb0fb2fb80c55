#ifndef _MC_OBJC_OBJC_H
#define _MC_OBJC_OBJC_H
#include <stdbool.h>
typedef struct objc_class *Class;
typedef struct objc_object { Class isa; } *id;
typedef struct objc_selector *SEL;
/* BOOL: bool on arm64, signed char on x86_64 (as <objc/objc.h> has it) */
#if defined(__arm64__) || defined(__aarch64__)
typedef bool BOOL;
#else
typedef signed char BOOL;
#endif
#endif
