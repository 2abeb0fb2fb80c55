/*
 * integrity.c — INTEGRITY_CHECK {D4082055-BDE6-704B-8D34-BA123C66E1F2}.
 *
 * Three entries on NVIDIA's driver 580 (size word 0x18).  At
 * initialisation the runtime calls slot 1 as (version, unix time,
 * uint64_t out[2]) three times, with versions 13000, 13001 and 13002
 * (CUDA 13.0; 12090 ... for 12.9), and compares each answer with its own
 * computation (integrity_hash.c says of what).  Before cuInit NVIDIA's
 * driver answers CUDA_ERROR_NOT_INITIALIZED (observed on an H200).  The
 * devices hashed are every device, with the UUID and PCI location
 * cuDeviceGetUuid and cuDeviceGetAttribute report (core_device_uuid,
 * core_device_pci), and the driver version is cuDriverGetVersion's.
 */
#include "darkapi.h"

#include <unistd.h>

LOG_CHANNEL(darkapi);

static CUresult CUDAAPI integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t *out);

/* [1] */
static CUresult CUDAAPI integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t *out)
{
   API_ENTER("version=%u unix_seconds=%llu out=%p", version, (unsigned long long)unix_seconds, (void *)out);
   API_NEED_INIT();
   API_CHECK(out, CUDA_ERROR_INVALID_VALUE);
   enum { MAX_DEVICES = 64 };
   dark_device_id ids[MAX_DEVICES];
   int n = core_device_count();
   if (n > MAX_DEVICES)
      n = MAX_DEVICES;
   for (int i = 0; i < n; i++) {
      core_device *d = core_device_get(i);
      int domain, bus, dev;
      core_device_uuid(d, ids[i].uuid);
      core_device_pci(d, &domain, &bus, &dev);
      ids[i].pci_domain = domain;
      ids[i].pci_bus = bus;
      ids[i].pci_device = dev;
   }
   /* pthread_t is an integer or a pointer; the runtime hashes its low 32 bits */
   uint32_t thread = (uint32_t)(uintptr_t)pthread_self();
   dark_integrity_hash(version, unix_seconds, CUDA_VERSION, (uint32_t)getpid(), thread, dark_cudart_interface,
                       dark_integrity, (const void *)(uintptr_t)dark_integrity[1], (uint32_t)n, ids, out);
   return API_RETURN(CUDA_SUCCESS);
}

DARK_UNKNOWN_SLOT(integrity, 2)

const dark_fn dark_integrity[] = {
   DARK_SIZE(3),
   (dark_fn)integrity_check,
   (dark_fn)dark_integrity_slot2,
};
