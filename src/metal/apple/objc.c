/*
 * objc.c — the Objective-C runtime from C: selectors and classes looked up
 * once, NSString conversions, NSError text, and block literals built by
 * hand.
 *
 * Blocks.  Metal reports a command buffer's completion by calling a block,
 * `void (^)(id<MTLCommandBuffer>)`, given to addCompletedHandler:.  C has
 * no block syntax (that is a clang extension, -fblocks, which gcc lacks),
 * so the literal is built the way clang lays it out, following the Clang
 * Blocks ABI ("Block Implementation Specification", clang/docs/
 * Block-ABI-Apple.rst):
 *
 *    struct Block_literal {
 *       void *isa;           _NSConcreteStackBlock: a block on the stack
 *       int flags;           BLOCK_HAS_SIGNATURE (1 << 30), nothing else
 *       int reserved;        0
 *       void (*invoke)(struct Block_literal *self, ...args);
 *       struct Block_descriptor *descriptor;
 *       ...captured variables (here one pointer)
 *    };
 *    struct Block_descriptor {
 *       unsigned long reserved;        0
 *       unsigned long size;            sizeof(struct Block_literal)
 *       const char *signature;         present because BLOCK_HAS_SIGNATURE
 *    };
 *
 * A callee that keeps a block calls _Block_copy on it.  For a stack block
 * that allocates a heap block of descriptor->size bytes, copies the
 * literal (our captured pointer included: plain data, so no copy/dispose
 * helpers and no BLOCK_HAS_COPY_DISPOSE) and makes the copy a malloc
 * block that the runtime frees on its last release.  So the literal may
 * live on our stack for the duration of the call, exactly like the block
 * literal of an Objective-C caller, which is why every block-taking
 * Apple API copies what it keeps.  The signature is the Objective-C type
 * encoding of invoke: returns void (v), 16 bytes of arguments, the block
 * itself (@?) at offset 0 and an object (@) at offset 8.
 */
#include "apple.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(apple);

apple_sels apple_sel;
apple_classes apple_cls;

/* The casts to void (*)(void) are the one conversion between unrelated
 * function types that compilers accept silently.  arm64 has no _stret
 * variant: struct results come back through x8 with plain objc_msgSend. */
void (*apple_msg_send)(void) = (void (*)(void))objc_msgSend;
#if defined(__x86_64__)
void (*apple_msg_send_stret)(void) = (void (*)(void))objc_msgSend_stret;
#else
void (*apple_msg_send_stret)(void) = (void (*)(void))objc_msgSend;
#endif

bool apple_objc_init(void)
{
#define APPLE_SEL_INIT(field, name) apple_sel.field = sel_registerName(name);
   APPLE_SELECTORS(APPLE_SEL_INIT)
#undef APPLE_SEL_INIT
   apple_cls.NSString = (id)objc_getClass("NSString");
   apple_cls.MTLCompileOptions = (id)objc_getClass("MTLCompileOptions");
   if (!apple_cls.NSString || !apple_cls.MTLCompileOptions) {
      LOG_WARN("Foundation or Metal classes missing: no Apple GPU device");
      return false;
   }
   return true;
}

bool apple_responds(id o, SEL s)
{
   return o && APPLE_SEND(BOOL (*)(id, SEL, SEL), o, apple_sel.respondsToSelector, s);
}

id apple_string_new(const char *s)
{
   id str = apple_id(apple_cls.NSString, apple_sel.alloc);
   return APPLE_SEND(id (*)(id, SEL, const char *), str, apple_sel.initWithUTF8String, s);
}

char *apple_string_copy(id str)
{
   const char *s = str ? APPLE_SEND(const char *(*)(id, SEL), str, apple_sel.UTF8String) : NULL;
   return s ? mc_strdup(s) : NULL;
}

char *apple_error_text(id error, const char *fallback)
{
   char *text = error ? apple_string_copy(apple_id(error, apple_sel.localizedDescription)) : NULL;
   return text ? text : mc_strdup(fallback);
}

/* ---- block literals ---- */

enum { BLOCK_HAS_SIGNATURE = 1 << 30 };

struct block_descriptor {
   unsigned long reserved;
   unsigned long size;
   const char *signature;
};

static const struct block_descriptor object_block_descriptor = {
   0, sizeof(apple_block), "v16@?0@8",
};

void apple_block_init(apple_block *b, apple_block_fn invoke, void *data)
{
   b->isa = _NSConcreteStackBlock;
   b->flags = BLOCK_HAS_SIGNATURE;
   b->reserved = 0;
   b->invoke = invoke;
   b->descriptor = &object_block_descriptor;
   b->data = data;
}
