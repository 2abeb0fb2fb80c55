/*
 * range_attrs.cu — cudaMemRangeGetAttribute(s) read back what
 * cudaMemAdvise and cudaMemPrefetchAsync were told, as CUDA documents:
 *
 *  - a fresh managed allocation: not read-mostly, preferred location and
 *    last prefetch location cudaInvalidDeviceId (types Invalid), nobody in
 *    the accessed-by list (every entry cudaInvalidDeviceId);
 *  - read-mostly set and unset; the preferred location device 0 (type
 *    Device, id 0), the host on the second half (that half: cudaCpuDeviceId;
 *    the whole range: cudaInvalidDeviceId, its halves differ), unset;
 *    accessed-by device 0 set and unset; a prefetch to device 0 (type
 *    Device, id 0), then to the host (cudaCpuDeviceId);
 *  - cudaMemRangeGetAttributes of three attributes at once;
 *  - errors: device memory (not managed), a data size other than 4 (or not
 *    a multiple of 4 for accessed-by), an unknown attribute, a zero count
 *    -> cudaErrorInvalidValue.
 * The halves are 2 MB apart, page-aligned for any page size CUDA uses.
 */
#include "check.h"

static int attr(cudaMemRangeAttribute a, const void *p, size_t n)
{
   int v = 12345;
   CHECK_CUDA(cudaMemRangeGetAttribute(&v, sizeof v, a, p, n));
   return v;
}

static cudaMemLocation dev0()
{
   cudaMemLocation l = {};
   l.type = cudaMemLocationTypeDevice;
   l.id = 0;
   return l;
}

static cudaMemLocation host()
{
   cudaMemLocation l = {};
   l.type = cudaMemLocationTypeHost;
   return l;
}

int main()
{
   check_begin("range_attrs");
   REQUIRE_CUDA(cudaFree(0));
   int cma = 0;
   REQUIRE_CUDA(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
   const size_t half = 2u << 20, n = 2 * half;
   char *p;
   REQUIRE_CUDA(cudaMallocManaged(&p, n));

   /* fresh */
   CHECK_INT(attr(cudaMemRangeAttributeReadMostly, p, n), 0);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p, n), cudaInvalidDeviceId);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocationType, p, n), cudaMemLocationTypeInvalid);
   CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocation, p, n), cudaInvalidDeviceId);
   CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocationType, p, n), cudaMemLocationTypeInvalid);
   int acc[3] = { 7, 7, 7 };
   CHECK_CUDA(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, p, n));
   CHECK_INT(acc[0], cudaInvalidDeviceId);
   CHECK_INT(acc[1], cudaInvalidDeviceId);
   CHECK_INT(acc[2], cudaInvalidDeviceId);

   /* read-mostly */
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, dev0()));
   CHECK_INT(attr(cudaMemRangeAttributeReadMostly, p, n), 1);
   CHECK_INT(attr(cudaMemRangeAttributeReadMostly, p + half, half), 1);

   /* preferred location: device 0, then the host on the second half */
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, dev0()));
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p, n), 0);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocationType, p, n), cudaMemLocationTypeDevice);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocationId, p, n), 0);
   CHECK_CUDA(cudaMemAdvise(p + half, half, cudaMemAdviseSetPreferredLocation, host()));
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p + half, half), cudaCpuDeviceId);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p, half), 0);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p, n), cudaInvalidDeviceId);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocationType, p, n), cudaMemLocationTypeInvalid);

   /* accessed by device 0 */
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseSetAccessedBy, dev0()));
   CHECK_CUDA(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, p, n));
   CHECK_INT(acc[0], 0);
   CHECK_INT(acc[1], cudaInvalidDeviceId);
   CHECK_INT(acc[2], cudaInvalidDeviceId);
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseUnsetAccessedBy, dev0()));
   CHECK_CUDA(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, p, n));
   CHECK_INT(acc[0], cudaInvalidDeviceId);

   /* prefetches (a device that can migrate concurrently; the H200 can) */
   if (CHECK(cma == 1)) {
      CHECK_CUDA(cudaMemPrefetchAsync(p, n, dev0(), 0, 0));
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocation, p, n), 0);
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocationType, p, n), cudaMemLocationTypeDevice);
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocationId, p, n), 0);
      CHECK_CUDA(cudaMemPrefetchAsync(p, half, host(), 0, 0));
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocation, p, half), cudaCpuDeviceId);
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocation, p + half, half), 0);
      CHECK_INT(attr(cudaMemRangeAttributeLastPrefetchLocation, p, n), cudaInvalidDeviceId);
   }

   /* unset */
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseUnsetReadMostly, dev0()));
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseUnsetPreferredLocation, dev0()));
   CHECK_INT(attr(cudaMemRangeAttributeReadMostly, p, n), 0);
   CHECK_INT(attr(cudaMemRangeAttributePreferredLocation, p, n), cudaInvalidDeviceId);

   /* several at once */
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, dev0()));
   CHECK_CUDA(cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, dev0()));
   int rm = 9, pl = 9, ab[2] = { 9, 9 };
   void *data[3] = { &rm, &pl, ab };
   size_t sizes[3] = { sizeof rm, sizeof pl, sizeof ab };
   cudaMemRangeAttribute which[3] = { cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation,
                                      cudaMemRangeAttributeAccessedBy };
   CHECK_CUDA(cudaMemRangeGetAttributes(data, sizes, which, 3, p, n));
   CHECK_INT(rm, 1);
   CHECK_INT(pl, 0);
   CHECK_INT(ab[0], cudaInvalidDeviceId);
   CHECK_INT(ab[1], cudaInvalidDeviceId);

   /* errors */
   int v;
   void *d;
   REQUIRE_CUDA(cudaMalloc(&d, 4096));
   CHECK_ERR(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, d, 4096), cudaErrorInvalidValue);
   long long big;
   CHECK_ERR(cudaMemRangeGetAttribute(&big, sizeof big, cudaMemRangeAttributeReadMostly, p, n), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemRangeGetAttribute(acc, 6, cudaMemRangeAttributeAccessedBy, p, n), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemRangeGetAttribute(&v, sizeof v, (cudaMemRangeAttribute)99, p, n), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, p, 0), cudaErrorInvalidValue);
   cudaGetLastError();

   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaFree(p));
   return check_end();
}
