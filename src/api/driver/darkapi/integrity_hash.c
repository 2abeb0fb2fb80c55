/*
 * integrity_hash.c — the value NVIDIA's runtime expects from the integrity
 * check (integrity.c): the runtime computes it too and refuses to work
 * ("integrity checks failed", cudaErrorSoftwareValidityNotEstablished)
 * when the driver's differs.
 *
 * It is HMAC-MD2 (RFC 2104 over RFC 1319; src/util/md2.c) with the key
 * below, of a 48-byte record
 *    u32 driver version (what cuDriverGetVersion answers), u32 requested
 *    version, u32 process id, u32 thread (pthread_self, truncated), the
 *    addresses of the CUDART_INTERFACE table, of the INTEGRITY_CHECK table
 *    and of its check function (u64 each), u64 the time the runtime passes
 * followed by 28 bytes per device: its UUID and its PCI domain, bus and
 * device numbers (i32 each), in native byte order, the digest returned as
 * two native u64.  Requested versions ending in the decimal digit 0 or 1
 * get fixed values instead.  The construction and the key were found by
 * ZLUDA's authors (vosen/ZLUDA, dark_api); the two fixed values and every
 * digest were checked here against NVIDIA's driver 580.159.04 on an H200,
 * which gave the test vectors of tests/unit/test_darkapi.c for recorded
 * inputs (versions 11002 to 13012, two times).
 */
#include "darkapi.h"

#include <string.h>

static const uint8_t key[16] = {
   0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52, 0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f,
};

void dark_integrity_hash(uint32_t version, uint64_t unix_seconds, uint32_t driver_version, uint32_t pid,
                         uint32_t thread, const void *cudart_table, const void *integrity_table, const void *fn,
                         uint32_t ndevices, const dark_device_id *devices, uint64_t out[2])
{
   /* NVIDIA's driver answers these for versions ending in 0 and 1 (13000,
    * 13001, 12090, 12091, 13010, 11000 ... observed). */
   switch (version % 10) {
   case 0:
      out[0] = 0x3341181c03cb675cull;
      out[1] = 0x8ed383aa1f4cd1e8ull;
      return;
   case 1:
      out[0] = 0x1841181c03cb675cull;
      out[1] = 0x8ed383aa1f4cd1e8ull;
      return;
   }
   uint8_t rec[48];
   uint32_t w[4] = {driver_version, version, pid, thread};
   uint64_t q[4] = {(uint64_t)(uintptr_t)cudart_table, (uint64_t)(uintptr_t)integrity_table,
                    (uint64_t)(uintptr_t)fn, unix_seconds};
   memcpy(rec, w, sizeof(w));
   memcpy(rec + 16, q, sizeof(q));
   hmac_md2_ctx h;
   hmac_md2_init(&h, key, sizeof(key));
   hmac_md2_update(&h, rec, sizeof(rec));
   for (uint32_t i = 0; i < ndevices; i++) {
      uint8_t d[28];
      int32_t pci[3] = {devices[i].pci_domain, devices[i].pci_bus, devices[i].pci_device};
      memcpy(d, devices[i].uuid, 16);
      memcpy(d + 16, pci, sizeof(pci));
      hmac_md2_update(&h, d, sizeof(d));
   }
   uint8_t digest[16];
   hmac_md2_final(&h, digest);
   memcpy(out, digest, 16);
}
