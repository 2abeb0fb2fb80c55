/*
 * device.c — the devices core offers: one per Metal device (mtl.h lists the
 * Apple GPUs first, then the software device), initialised once.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(device);

struct core_device {
   int ordinal;
   mtl_device *mtl;
   mtl_device_info info;
   pthread_mutex_t lock;          /* the primary context */
   pthread_mutex_t arena_lock;    /* arena creation (needed while `lock` is held) */
   core_arena *arena;
   core_ctx *primary;
   unsigned primary_flags;        /* CU_CTX_* (atomic: read under `lock` by context creation) */
};

static core_device *devices;
static int ndevices;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = CORE_ERROR_NOT_INITIALIZED;

static void init_devices(void)
{
   uint32_t n = mtl_device_count();
   if (n == 0) {
      init_result = CORE_ERROR_NO_DEVICE;
      return;
   }
   devices = calloc(n, sizeof(*devices));
   if (!devices) {
      init_result = CORE_ERROR_OUT_OF_MEMORY;
      return;
   }
   for (uint32_t k = 0; k < n; k++) {
      devices[k].ordinal = (int)k;
      devices[k].mtl = mtl_device_get(k);
      mtl_device_get_info(devices[k].mtl, &devices[k].info);
      pthread_mutex_init(&devices[k].lock, NULL);
      pthread_mutex_init(&devices[k].arena_lock, NULL);
      LOG_INFO("device %u: %s", k, devices[k].info.name);
   }
   ndevices = (int)n;
   init_result = CORE_SUCCESS;
}

int core_init(void)
{
   pthread_once(&init_once, init_devices);
   return init_result;
}

bool core_is_initialized(void) { return init_result == CORE_SUCCESS; }
int core_device_count(void) { return ndevices; }

core_device *core_device_get(int ordinal)
{
   return ordinal >= 0 && ordinal < ndevices ? &devices[ordinal] : NULL;
}

int core_device_ordinal(const core_device *d) { return d->ordinal; }
const mtl_device_info *core_device_info(const core_device *d) { return &d->info; }

void core_device_cc(const core_device *d, int *major, int *minor)
{
   (void)d;
   /* 8.0: every PTX form sm_80 adds translates (issue 17): cp.async and
    * its groups, mbarrier, bf16 arithmetic, mma.sync f16/bf16/tf32/f64/
    * s8/u8/s4/u4/b1 shapes, sparse mma.sp, every wmma shape and type,
    * ldmatrix, redux.sync, cvt .relu and .rna.tf32, min/max .NaN/.xorsign,
    * createpolicy and the .L2::cache_hint forms.  Of sm_90's, TMA (tile
    * mode) and clusters of one block translate; 9.0 waits for wgmma and
    * clusters of more blocks.  A program can ask for another with
    * METALCUDA_CC. */
   *major = 8;
   *minor = 0;
   const char *e = getenv("METALCUDA_CC");
   int ma, mi;
   if (e && sscanf(e, "%d.%d", &ma, &mi) == 2 && ma > 0 && ma < 20 && mi >= 0 && mi < 10) {
      *major = ma;
      *minor = mi;
   }
}

core_arena *core_device_arena(core_device *d)
{
   core_arena *a = __atomic_load_n(&d->arena, __ATOMIC_ACQUIRE);
   if (a)
      return a;
   pthread_mutex_lock(&d->arena_lock);
   if (!d->arena && core_arena_create(d, &a) == CORE_SUCCESS)
      __atomic_store_n(&d->arena, a, __ATOMIC_RELEASE);
   a = d->arena;
   pthread_mutex_unlock(&d->arena_lock);
   return a;
}

uint64_t core_device_total_mem(core_device *d)
{
   uint64_t free_b, total;
   core_mem_info(d, &free_b, &total);
   return total;
}

void core_device_uuid(const core_device *d, uint8_t uuid[16])
{
   /* Stable per device: derived from the Metal registry id and name. */
   char buf[192];
   snprintf(buf, sizeof(buf), "metalcuda:%llu:%s", (unsigned long long)d->info.registry_id, d->info.name);
   char hex[65];
   sha256_hex(buf, strlen(buf), hex);
   for (int k = 0; k < 16; k++) {
      unsigned v;
      sscanf(hex + 2 * k, "%2x", &v);
      uuid[k] = (uint8_t)v;
   }
   uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);   /* RFC 4122 version 4 shape */
   uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

core_ctx **core_device_primary_slot(core_device *d) { return &d->primary; }
pthread_mutex_t *core_device_lock(core_device *d) { return &d->lock; }
mtl_device *core_device_mtl(core_device *d) { return d->mtl; }

void core_device_pci(const core_device *d, int *domain, int *bus, int *device)
{
   *domain = 0;
   *bus = 0;
   *device = d->ordinal + 1;   /* slot 0 is conventionally the host bridge */
}

unsigned core_device_primary_flags(core_device *d) { return __atomic_load_n(&d->primary_flags, __ATOMIC_ACQUIRE); }

void core_device_set_primary_flags(core_device *d, unsigned flags)
{
   pthread_mutex_lock(&d->lock);
   __atomic_store_n(&d->primary_flags, flags, __ATOMIC_RELEASE);
   if (d->primary)
      __atomic_store_n(&d->primary->flags, flags, __ATOMIC_RELEASE);
   pthread_mutex_unlock(&d->lock);
}

/* Shared memory per multiprocessor and per block with the opt-in, and the
 * part of it reserved per block, of the NVIDIA devices of a compute
 * capability (CUDA C++ Programming Guide, "Technical Specifications per
 * Compute Capability"; an H200, 9.0, reports 233472, 232448 and 1024).
 * Every capability gives a block 48 KB without the opt-in. */
static void shared_limits(int major, int minor, uint32_t *per_sm, uint32_t *optin, uint32_t *reserved)
{
   unsigned kb_sm, kb_block;
   int cc = major * 10 + minor;
   if (cc >= 90 && cc < 120) {
      kb_sm = 228, kb_block = 227;   /* Hopper, Blackwell data centre */
   } else if (cc == 80 || cc == 87) {
      kb_sm = 164, kb_block = 163;
   } else if (cc >= 80) {
      kb_sm = 100, kb_block = 99;    /* 8.6, 8.9, 12.x */
   } else if (cc == 75) {
      kb_sm = 64, kb_block = 64;
   } else if (cc >= 70) {
      kb_sm = 96, kb_block = 96;
   } else {
      kb_sm = 64, kb_block = 48;
   }
   *per_sm = kb_sm * 1024;
   *optin = kb_block * 1024;
   *reserved = cc >= 80 ? 1024 : 0;
}

/* The multiprocessor model (core.h).  A "multiprocessor" is one Metal
 * compute unit (a GPU core, or a CPU thread of the software device); it
 * holds up to 1024 threads in up to 16 threadgroups.  65536 registers of
 * which every kernel reports 32 per thread: 2048 threads' worth, so
 * registers never limit occupancy before threads do.
 *
 * Shared memory: what an NVIDIA device of the compute capability we report
 * has (shared_limits; 8.0 by default: 48 KB a block, 163 KB with the
 * opt-in), not Metal's 32 KB of threadgroup memory: programs choose their
 * tiles from these numbers together with the capability (CUB's sort asks
 * 35-48 KB), and a block that needs more than the threadgroup memory runs
 * with its shared memory in device memory (launch.c). */
void core_device_sm_model(const core_device *d, core_sm_model *m)
{
   const mtl_device_info *info = &d->info;
   int major, minor;
   core_device_cc(d, &major, &minor);
   uint32_t per_sm, optin, reserved;
   shared_limits(major, minor, &per_sm, &optin, &reserved);
   *m = (core_sm_model){
      .sm_count = info->compute_units ? info->compute_units : 1,
      .warp = info->simd_width,
      .threads_per_block = info->max_threads_per_threadgroup,
      .block_dim = { 1024, 1024, 64 },
      .threads_per_sm = 1024,
      .blocks_per_sm = 16,
      .regs_per_sm = 65536,
      .regs_per_block = 65536,
      .regs_per_thread = 32,
      .shared_per_block = 48u * 1024,
      .shared_per_block_optin = optin,
      .shared_per_sm = per_sm,
      .shared_default_max = 48u * 1024,
      .shared_reserved = reserved,
   };
}
