/*
 * userobj.c — user objects: cuUserObjectCreate, cuUserObjectRetain,
 * cuUserObjectRelease, and graphs' references to them
 * (cuGraphRetainUserObject, cuGraphReleaseUserObject).  Reference
 * counting, the copies into clones and executable graphs, and the
 * destructor thread are src/core/userobj.c's.
 */
#include "internal.h"

#include <limits.h>

LOG_CHANNEL(graph);

static inline core_user_object *object_of(CUuserObject o) { return (core_user_object *)(void *)o; }
static inline core_graph *graph_of(CUgraph g) { return (core_graph *)(void *)g; }

/* A reference count CUDA accepts: "nonzero and not greater than INT_MAX". */
static bool count_ok(unsigned count) { return count != 0 && count <= INT_MAX; }

/* ==== cuUserObjectCreate (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount,
                                    unsigned int flags)
{
   API_ENTER("object_out=%p ptr=%p destroy=%p initialRefcount=%u flags=%#x", (void *)object_out, ptr,
             (void *)(uintptr_t)destroy, initialRefcount, flags);
   API_CHECK(object_out && destroy && count_ok(initialRefcount), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(flags == CU_USER_OBJECT_NO_DESTRUCTOR_SYNC, CUDA_ERROR_INVALID_VALUE);   /* required */
   API_NEED_INIT();
   core_user_object *o;
   CUresult r = (CUresult)core_user_object_create(ptr, destroy, initialRefcount, &o);
   if (r == CUDA_SUCCESS)
      *object_out = (CUuserObject)(void *)o;
   return API_RETURN(r);
}

/* ==== cuUserObjectRetain (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectRetain(CUuserObject object, unsigned int count)
{
   API_ENTER("object=%p count=%u", (void *)object, count);
   API_CHECK(core_check_user_object(object_of(object)) && count_ok(count), CUDA_ERROR_INVALID_VALUE);
   core_user_object_retain(object_of(object), count);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuUserObjectRelease (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count)
{
   API_ENTER("object=%p count=%u", (void *)object, count);
   API_CHECK(core_check_user_object(object_of(object)) && count_ok(count), CUDA_ERROR_INVALID_VALUE);
   /* releasing references the caller does not hold is undefined in CUDA;
    * more than exist at all is refused rather than freeing twice */
   API_CHECK(count <= __atomic_load_n(&object_of(object)->refs, __ATOMIC_RELAXED), CUDA_ERROR_INVALID_VALUE);
   core_user_object_release(object_of(object), count);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphRetainUserObject (libcuda.@) ==== */
CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
{
   API_ENTER("graph=%p object=%p count=%u flags=%#x", (void *)graph, (void *)object, count, flags);
   API_CHECK(core_check_graph(graph_of(graph)) && core_check_user_object(object_of(object)), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(count_ok(count) && (flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE) == 0, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_retain_user_object(graph_of(graph), object_of(object), count,
                                                             flags & CU_GRAPH_USER_OBJECT_MOVE));
}

/* ==== cuGraphReleaseUserObject (libcuda.@) ==== */
CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count)
{
   API_ENTER("graph=%p object=%p count=%u", (void *)graph, (void *)object, count);
   API_CHECK(core_check_graph(graph_of(graph)) && core_check_user_object(object_of(object)), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(count_ok(count), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_release_user_object(graph_of(graph), object_of(object), count));
}
