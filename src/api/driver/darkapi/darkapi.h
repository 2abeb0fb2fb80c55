/*
 * darkapi.h — the export tables NVIDIA's runtime asks the driver for with
 * cuGetExportTable (its "dark API": undocumented, found by observation,
 * README.md beside this file says what is known and how).
 *
 * A table is an array of function pointers, most starting with a size word
 * (the table's bytes); each file here defines one table and its functions.
 * A slot whose use is unknown holds a function that fails with
 * CUDA_ERROR_NOT_SUPPORTED and names the table and slot once, so that
 * nothing the runtime calls can crash the process.
 */
#ifndef MC_API_DRIVER_DARKAPI_H
#define MC_API_DRIVER_DARKAPI_H

#include "../internal.h"

typedef void (*dark_fn)(void);

/* The size word of a table of n entries (itself included). */
#define DARK_SIZE(n) ((dark_fn)(uintptr_t)((n) * sizeof(dark_fn)))

/* A function for slot n of table `table` whose meaning is unknown:
 * dark_<table>_slot<n>, which reports and fails. */
#define DARK_UNKNOWN_SLOT(table, n)                                                   \
   static CUresult CUDAAPI dark_##table##_slot##n(void)                               \
   {                                                                                  \
      static int once_;                                                               \
      return dark_unknown_slot(#table, n, &once_);                                    \
   }

/* ---- darkapi.c ---- */

/* The table for a GUID (its 16 bytes as the runtime passes them), or NULL;
 * an unknown GUID is logged once (with the GUID). */
const void *dark_find(const unsigned char id[16]);
/* The fallback of DARK_UNKNOWN_SLOT: logs once per slot (abort under
 * METALCUDA_STRICT=1), CUDA_ERROR_NOT_SUPPORTED. */
CUresult dark_unknown_slot(const char *table, int slot, int *once);

/* ---- the tables (one file each) ---- */

extern const dark_fn dark_cudart_interface[];       /* cudart_interface.c */
extern const dark_fn dark_tools_tls[];              /* tools_tls.c */
extern const dark_fn dark_tools_callbacks[];        /* tools_callbacks.c */
extern const dark_fn dark_context_storage[];        /* context_storage.c */
extern const dark_fn dark_context_checks[];         /* context_checks.c */
extern const dark_fn dark_integrity[];              /* integrity.c */
extern const dark_fn dark_error_log[];              /* error_log.c */

/* ---- integrity_hash.c ---- */

/* What the integrity check hashes about one device: its UUID
 * (cuDeviceGetUuid) and PCI location (cuDeviceGetAttribute's PCI domain,
 * bus and device ids). */
typedef struct dark_device_id {
   uint8_t uuid[16];
   int32_t pci_domain, pci_bus, pci_device;
} dark_device_id;

/* The integrity check's answer for a requested version: two fixed values
 * when the version's last decimal digit is 0 or 1, else the keyed hash of
 * (driver version, version, pid, thread, the two tables' and the check
 * function's addresses, time) and every device's id. */
void dark_integrity_hash(uint32_t version, uint64_t unix_seconds, uint32_t driver_version, uint32_t pid,
                         uint32_t thread, const void *cudart_table, const void *integrity_table, const void *fn,
                         uint32_t ndevices, const dark_device_id *devices, uint64_t out[2]);

#endif
