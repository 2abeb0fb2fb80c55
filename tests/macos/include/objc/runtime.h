#ifndef _MC_OBJC_RUNTIME_H
#define _MC_OBJC_RUNTIME_H
#include <objc/objc.h>
Class objc_getClass(const char *name);
SEL sel_registerName(const char *str);
#endif
