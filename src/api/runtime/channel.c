/*
 * channel.c — cudaCreateChannelDesc.
 *
 * It only packs its arguments into the struct it returns by value (the C++
 * templates of cuda_runtime.h call it).  It lives apart from the stubs
 * because a struct returned by value travels through a hidden pointer
 * argument, so it can never be a (void) stub (see stubs.c).
 */
#include "../api.h"

LOG_CHANNEL(texture);

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f)
{
   RT_ENTER("x=%d y=%d z=%d w=%d f=%d", x, y, z, w, (int)f);
   struct cudaChannelFormatDesc d = { x, y, z, w, f };
   return d;
}
