#ifndef _MC_BLOCK_H
#define _MC_BLOCK_H
void *_Block_copy(const void *);
void _Block_release(const void *);
extern void *_NSConcreteGlobalBlock[32];
extern void *_NSConcreteStackBlock[32];
#endif
