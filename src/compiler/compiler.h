/*
 * compiler.h — the PTX → MSL compiler as the runtime sees it.
 *
 * The runtime (src/core) knows nothing of PTX syntax or the IR: it loads a
 * module's PTX text, asks for its kernels and globals, and asks for the MSL
 * of one kernel at a time (lazy, per-kernel translation).  Everything
 * returned lives until compiler_module_free().
 *
 * The MSL a kernel is translated to has one entry point with this ABI
 * (the runtime binds exactly this):
 *   buffer(0)      constant uchar *  the parameter blob, laid out like PTX's
 *                                    .param space (mc_kernel_info.params);
 *   buffer(1)      constant mc_launch &  the launch block (below);
 *   threadgroup(0) threadgroup uchar *  static + dynamic shared memory, when
 *                                    shared_static_bytes or dynamic shared
 *                                    memory is used; dynamic memory starts
 *                                    at shared_dynamic_offset (none in the
 *                                    shared_in_device variant: the slices
 *                                    of mc_launch hold it).
 */
#ifndef MC_COMPILER_H
#define MC_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MC_COMPILER_VERSION "metalcuda-compiler-1"

/* Generic-address windows (ARCHITECTURE §3): addresses no CPU or GPU
 * mapping can have, so a generic address is classified by range. */
#define MC_SHARED_WINDOW 0xfffffc0000000000ull
#define MC_LOCAL_WINDOW 0xfffffd0000000000ull
#define MC_WINDOW_SIZE 0x0000010000000000ull
/* A kernel parameter's generic address (cvta.param, what a
 * __grid_constant__ parameter's address is): its offset in the parameter
 * block past this window's base; generic loads in it read the block. */
#define MC_PARAM_WINDOW 0xfffffb0000000000ull
/* What an initialiser holding a function's address (`.global .u64 p =
 * f;`, a table of kernels in CUDA's device runtime) stores: a token in a
 * window no mapping has, MC_FUNC_WINDOW + 16 * the function's declaration
 * index, unique and non-zero but never callable (indirect calls are
 * refused where they are translated). */
#define MC_FUNC_WINDOW 0xfffffe0000000000ull

/* The launch block, buffer(1).  Must match the prelude's struct mc_launch
 * (prelude/base.metal). */
typedef struct mc_launch {
   /* GPU address of the device memory's slot table (core/arena.c): a
    * CUDA address a is at GPU address a + slots[min((a - amem) >>
    * slot_shift, nslots)] (prelude/base.metal mc_gpu). */
   uint64_t slots;
   uint64_t globals;    /* CUDA address of the module data block */
   uint64_t status;     /* GPU address of a uint32 the kernel sets on trap/assert */
   uint64_t printf_buf; /* GPU address of the printf FIFO (0: none; kernels
                         * that printf or assert: mc_kernel_info.uses_printf) */
   uint32_t printf_size;   /* bytes of records the FIFO holds */
   uint32_t nsm;        /* %nsmid: the device's multiprocessor count (>= 1) */
   uint64_t gridid;     /* %gridid: unique per launch */
   uint64_t time_base;  /* %clock64/%globaltimer at the launch: host nanoseconds */
   /* The slot table's shape: slots of 2^slot_shift bytes, nslots of them
    * (the table has nslots + 1 entries, the last for every address outside
    * device memory), from CUDA address amem. */
   uint32_t slot_shift;
   uint32_t nslots;
   uint64_t amem;
   /* GPU address of MC_ATOM_LOCKS zeroed uint32 words, the locks of the
    * 64-bit atomics (prelude/atom.metal), one table per context. */
   uint64_t atom_locks;
   /* The shared_in_device variant (compiler_options): GPU address of one
    * slice of shared_stride bytes per threadgroup of the grid, in linear
    * threadgroup order (0 elsewhere). */
   uint64_t shared_slices;
   uint64_t shared_stride;
   /* The device heap of malloc/free (prelude/heap.metal): its CUDA address
    * and size, for kernels with mc_kernel_info.uses_malloc (0 elsewhere). */
   uint64_t heap;
   uint64_t heap_size;
   /* The threadgroups of this dispatch are a piece of the grid: its first
    * threadgroup's index in the grid, and the grid's size in threadgroups
    * (%ctaid = base + threadgroup_position_in_grid, %nctaid = grid).  The
    * runtime splits long grids into pieces so that no Metal command buffer
    * runs into the GPU watchdog (src/core/launch.c). */
   uint32_t base_x, base_y, base_z;
   uint32_t grid_x, grid_y, grid_z;
   /* CUDA address of the grid workspace of the launch (%envreg1 high,
    * %envreg2 low; never 0, as with NVIDIA's driver 580):
    * cooperative_groups' grid.sync() counts arrivals in its word at +4
    * (core/launch.c). */
   uint64_t grid_ws;
   /* amem's GPU address where every chunk has the same delta, amem + that
    * delta: the software device's kernels compiled with
    * __MC_SOFT_ONE_DELTA address global memory as gmem + (address - amem),
    * a pointer plus an offset its compiler can follow from thread to
    * thread (prelude/base.metal MC_GADDR). */
   uint64_t gmem;
} mc_launch;

/* A texture or surface object: cudaTextureObject_t / cudaSurfaceObject_t
 * is the CUDA address of one of these in device memory (src/core/array.c
 * writes it; prelude/tex.metal reads it: tex, suld, sust, txq, suq).  Must
 * match the prelude's struct mc_tex. */
typedef struct mc_tex {
   uint64_t base;       /* CUDA address of element (0, 0, 0) */
   uint64_t pitch;      /* bytes from one row to the next */
   uint64_t slice;      /* bytes from one 2-D slice to the next */
   uint32_t width, height, depth;   /* elements (1 where the geometry has no such dimension) */
   uint32_t kind;       /* MC_TEX_UNSIGNED, MC_TEX_SIGNED, MC_TEX_FLOAT, MC_TEX_UNORM, MC_TEX_SNORM */
   uint32_t chan_bytes; /* 1, 2 or 4 */
   uint32_t nchan;      /* 1, 2 or 4 */
   uint32_t addr[3];    /* address mode per dimension: CUDA's cudaTextureAddressMode */
   uint32_t flags;      /* MC_TEX_F_* */
   /* the border colour: its floats' bits as given to core_tex_create,
    * which converts them into the format's raw channels (src/core/array.c) */
   uint32_t border[4];
   /* a mipmapped array's texture (mip != 0): base .. depth above are level
    * 0's; the levels' are in the table at CUDA address mip */
   uint64_t mip;        /* CUDA address of mc_tex_level[nlevels], or 0 */
   uint32_t nlevels;
   int32_t lod_bias, lod_min, lod_max;   /* in 1/256 of a level (truncated) */
   uint32_t mip_linear; /* 1: cudaFilterModeLinear between levels */
   /* What txq and suq answer (src/api/driver/texture.c sets them as an
    * H100 and an H200 answer): txq's .width, .height, .depth of level 0,
    * 0 for a dimension the resource lacks; txq.level's levels (1 unless
    * mipmapped) and the dimension of the layers (1 or 2; 3: none), which
    * does not shrink from level to level; suq's .width, .height, .depth. */
   uint32_t txq_size[3];
   uint32_t txq_levels;
   uint32_t txq_layer_dim;
   uint32_t suq_size[3];
   /* maxAnisotropy >= 2 on a mipmapped texture: MC_TEX_ANISO, and how the
    * blend between levels is narrowed (prelude/tex.metal
    * mc_tex_blend_weight): 4 s - 4 in bits 8-11 and f0 in bits 16-23; 0
    * and 0 (not narrowed) with the trilinear optimisation disabled */
   uint32_t aniso;
} mc_tex;

/* One level of a mipmapped array, as the prelude reads it (struct
 * mc_tex_level there). */
typedef struct mc_tex_level {
   uint64_t base, pitch, slice;
   uint32_t width, height, depth;   /* elements, 1 where the geometry has no such dimension */
   uint32_t pad_;
} mc_tex_level;

/* The channel kinds: integers (read as such or normalised), floats, and
 * the normalised formats (CU_AD_FORMAT_UNORM_INT8X1 ...), always read as
 * normalised floats; MC_TEX_UNORM/SNORM is MC_TEX_UNSIGNED/SIGNED + 3. */
enum { MC_TEX_UNSIGNED = 0, MC_TEX_SIGNED = 1, MC_TEX_FLOAT = 2, MC_TEX_UNORM = 3, MC_TEX_SNORM = 4 };
enum {
   MC_TEX_F_LINEAR = 1,      /* cudaFilterModeLinear */
   MC_TEX_F_NORM_COORDS = 2, /* normalizedCoords */
   MC_TEX_F_NORM_READ = 4,   /* cudaReadModeNormalizedFloat on an integer format */
   MC_TEX_F_SRGB = 8,        /* sRGB to linear on the first three channels */
   MC_TEX_F_BUFFER = 16,     /* linear memory: reads at float coordinates are zeros */
};
enum { MC_TEX_ANISO = 4 };   /* mc_tex.aniso */

#define MC_ATOM_LOCKS 4096   /* the prelude's MC_ATOM_LOCKS (a power of two) */

enum {   /* values a kernel stores at mc_launch.status (the prelude has the
          * same numbers: call.metal, warp.metal) */
   MC_STATUS_OK = 0,
   MC_STATUS_TRAP = 1,
   MC_STATUS_ASSERT = 2,
   MC_STATUS_WARP_MASK = 3,   /* a member mask names threads not converged there */
   MC_STATUS_BAR_COUNT = 4,   /* bar.sync/bar.red over part of the block */
   MC_STATUS_NBAR = 5,        /* a named barrier's id or thread count is out of range */
   MC_STATUS_MISALIGNED = 6,  /* validation (software device): an access not aligned to its size */
   MC_STATUS_STACK = 7,       /* recursion deeper than the stack (compiler_options.stack_bytes) */
   MC_STATUS_SURFACE = 8,     /* a surface access outside the array in the trap mode (illegal address) */
   MC_STATUS_TENSOR_MAP = 9,  /* cp.async.bulk.tensor with a tensor map cuTensorMapEncodeTiled did not make */
   MC_STATUS_TENSOR_COORD = 10, /* cp.async.bulk.tensor whose innermost coordinate is not at 16 bytes */
   /* 11, 12: unused (tex.grad on sizes not a power of two, and tex.grad.3d
    * with NaNs, refused until they were fitted) */
   MC_STATUS_TEX_GRAD_CUBE = 13, /* tex.grad.cube/.acube: a lane off P's face with P on an edge; P not finite with gradients not finite */
   /* 14: unused (float fetches filtering integers read as elements,
    * refused until they were measured) */
   MC_STATUS_LOOP_EXIT = 15,  /* threads left a loop with a barrier at different iterations (ir/lower_exit.c) */
   MC_STATUS_TEX_GRAD_ANISO = 16, /* tex.grad on a mipmapped texture with maxAnisotropy >= 2 */
};

/* metalcuda's CUtensorMap: what cuTensorMapEncodeTiled writes (core/tensormap.c)
 * and the prelude's cp.async.bulk.tensor reads (prelude/tma.metal), 16
 * 64-bit words of the 128-byte object:
 *   word 0       the tensor's CUDA address
 *   word 1       MC_TMAP_MAGIC (bits 0-31), element bytes (32-39), rank
 *                (40-47), swizzle span in 16-byte chunks (48-55: 0 none, 2,
 *                4 or 8 for 32, 64, 128 bytes), the CUtensorMapDataType (56-63)
 *   words 2-6    globalDim[0..4]
 *   words 7-10   globalStrides[0..3] (bytes; of dimensions 1-4)
 *   words 11-12  boxDim[0..4], 16 bits each (word 11: 0-3, word 12: 4)
 * Every other bit is 0. */
#define MC_TMAP_MAGIC 0x50414d54u   /* "TMAP" */

#define MC_DEFAULT_STACK 1024u   /* cudaLimitStackSize's default, bytes per thread */

/* The printf FIFO (prelude/call.metal writes it, src/core/printf.c reads
 * it): a uint32 cursor (bytes of records used), padding to
 * MC_FIFO_HEADER bytes, then records of MC_FIFO_RECORD_HEADER bytes
 * (size, kind, argument bytes, argument count, all uint32) followed by the
 * argument area and the strings. */
enum {
   MC_FIFO_HEADER = 16,
   MC_FIFO_RECORD_HEADER = 16,
   MC_REC_PRINTF = 1,
   MC_REC_ASSERT = 2,
};

typedef struct mc_kparam {
   const char *name;
   uint32_t offset, size, align;
} mc_kparam;

typedef struct mc_kernel_info {
   const char *name;              /* the PTX entry name (mangled C++ name) */
   const char *msl_name;          /* the MSL kernel function */
   uint32_t nparams;
   const mc_kparam *params;
   uint32_t param_bytes;
   uint32_t shared_static_bytes;
   bool uses_dynamic_shared;
   uint32_t shared_dynamic_offset;  /* where dynamic shared memory starts */
   uint32_t shared_dynamic_align;
   uint32_t local_bytes;          /* per thread */
   bool uses_printf;              /* writes printf/assert records (mc_launch.printf_buf) */
   bool uses_malloc;              /* calls malloc/free (mc_launch.heap) */
   uint32_t stack_bytes;          /* recursion: the stack it was translated for (0: no recursion) */
   uint32_t reqntid[3], maxntid[3];
   bool from_cache;               /* read back from the translation cache */
} mc_kernel_info;

typedef struct mc_reloc {
   uint64_t offset;               /* in the data block */
   uint32_t target;               /* index of the global whose address goes there */
   int64_t addend;
   uint8_t size;
} mc_reloc;

typedef struct mc_global_info {
   const char *name;
   bool is_const;
   uint64_t offset, size;
   uint32_t align;
   const uint8_t *init;           /* size bytes, NULL = zeros */
   uint32_t nrelocs;
   const mc_reloc *relocs;
} mc_global_info;

typedef struct mc_module mc_module;

typedef struct compiler_options {
   bool no_optimize;              /* skip optional passes (differential tests) */
   /* Shared memory in device memory: the kernel's whole shared space is
    * the slice mc_launch.shared_slices + (linear threadgroup index) *
    * shared_stride instead of the threadgroup(0) buffer, for launches that
    * need more than Metal's 32 KB of threadgroup memory (the runtime
    * compiles this variant when one does).  Same barriers, same visibility
    * within the block: only its own threadgroup touches a slice, and an
    * Apple GPU keeps device memory coherent within a threadgroup. */
   bool shared_in_device;
   /* Recursion: each thread's stack of frames holds this many bytes,
    * CUDA's cudaLimitStackSize (0: CUDA's default, MC_DEFAULT_STACK).  A
    * kernel that recurses deeper stops with MC_STATUS_STACK. */
   uint32_t stack_bytes;
} compiler_options;

/* Parses a module and lays out its globals.  Returns NULL on failure with a
 * message in *err (malloc'ed).  Functions whose bodies are malformed do not
 * fail the load: translating a kernel that needs them does. */
mc_module *compiler_module_load(const char *ptx, size_t len, char **err);
/* The same, through the on-disk translation cache when use_cache: a module
 * seen before is described from the cache without parsing, and kernels
 * translated before are read back (the PTX is parsed on the first miss).
 * The text must stay valid until compiler_module_free().  The cache lives
 * under cache_dir()/ptx; METALCUDA_NO_TRANSLATION_CACHE=1 turns it off. */
mc_module *compiler_module_open(const char *ptx, size_t len, bool use_cache, char **err);
void compiler_module_free(mc_module *m);
/* Links the PTX of several units of relocatable device code (nvcc
 * -rdc=true) into one module's text, to load as above: malloc'ed, or NULL
 * with a malloc'ed message in *err (ptx/link.c has the rules). */
char *compiler_link_ptx(const char *const *texts, const size_t *lens, uint32_t n, size_t *out_len,
                        char **err);
/* Whether the PTX text has been parsed (false after a full cache hit). */
bool compiler_module_parsed(const mc_module *m);

/* The PTX text's own identity, for cache keys (hex SHA-256). */
const char *compiler_module_hash(const mc_module *m);
uint32_t compiler_module_sm(const mc_module *m);

uint32_t compiler_kernel_count(const mc_module *m);
const char *compiler_kernel_name(const mc_module *m, uint32_t index);
/* The kernel whose address (`mov r, kernel`: its function token) is token,
 * or -1: a device-side launch names its kernel so (core/devrt.c). */
int compiler_kernel_by_token(const mc_module *m, uint64_t token);
/* Index of a kernel by name, -1 if absent. */
int compiler_kernel_find(const mc_module *m, const char *name);

uint32_t compiler_global_count(const mc_module *m);
const mc_global_info *compiler_global(const mc_module *m, uint32_t index);
int compiler_global_find(const mc_module *m, const char *name);
uint64_t compiler_data_bytes(const mc_module *m);

/* Translates kernel `index` to MSL.  On success returns malloc'ed MSL text
 * and fills *info (valid until the module is freed); on failure returns NULL
 * with a message naming the construct and PTX line in *err. */
char *compiler_translate_kernel(mc_module *m, uint32_t index, const compiler_options *opts,
                                mc_kernel_info *info, char **err);

/* Translates every kernel of the module into one MSL text (the `translate`
 * command); infos gets compiler_kernel_count() entries. */
char *compiler_translate_all(mc_module *m, const compiler_options *opts, mc_kernel_info *infos,
                             char **err);

/* ---- msl/emit.c (used by the functions above) ---- */

#endif
