#ifndef _MC_OBJC_MESSAGE_H
#define _MC_OBJC_MESSAGE_H
#include <objc/objc.h>
/* With OBJC_OLD_DISPATCH_PROTOTYPES 0, as the SDK declares them: no
 * arguments, to be cast to the method's type; _stret only on x86_64. */
void objc_msgSend(void);
#if !defined(__arm64__) && !defined(__aarch64__)
void objc_msgSend_stret(void);
void objc_msgSend_fpret(void);
#endif
#endif
