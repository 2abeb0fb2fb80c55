/*
 * objfile.c — the compiled object of a library, ELF (Linux) or Mach-O
 * (macOS), as one format-neutral picture: sections, symbols, and a graph
 * of "nodes" whose edges are the relocations.  objcheck.c (writable
 * program-scope data) and fibercheck.c (which kernels need fibers;
 * recursion) read only this picture, so both checks are the same code on
 * both systems, and both formats are read on every host: tests cross-
 * compile objects for macOS on Linux (tests/unit/test_soft_objfile.c).
 *
 * A node is a piece of a section that is kept or dropped as a whole by the
 * linker, so that a relocation inside it belongs to one function or datum:
 *  - ELF: a section (the object is compiled with -ffunction-sections
 *    -fdata-sections: one function or variable each);
 *  - Mach-O: an "atom", the range from one symbol to the next in its
 *    section (clang marks objects MH_SUBSECTIONS_VIA_SYMBOLS: the linker
 *    may split sections there, so code never runs from one atom into the
 *    next).
 * An edge A -> B: a relocation in A refers to B (a call, or an address
 * taken: a function pointer in a table reaches its function through the
 * table's node).  Relocations against a section rather than a symbol
 * (Mach-O "non-extern", ELF section symbols) lead to the node holding the
 * target address where the relocation says it (Mach-O: 8- and 4-byte
 * pointers, x86-64 PC-relative forms), else to the section's first node.
 *
 * The file formats are read from their published layouts (the System V
 * gABI for ELF-64, <mach-o/loader.h>, <mach-o/nlist.h> and
 * <mach-o/reloc.h> as Apple documents them); only little-endian 64-bit
 * objects are read, which is every target the software device runs on.
 * Every offset from the file is checked against its length: a malformed
 * object is an error, never a read out of bounds.
 */
#include "soft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading little-endian fields ---- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static bool in_file(const soft_obj *o, uint64_t off, uint64_t size)
{
   return off <= o->len && size <= o->len - off;
}

/* The name at offset `at` of a string table [off, off + size), or NULL. */
static const char *str_at(const soft_obj *o, uint64_t off, uint64_t size, uint64_t at)
{
   if (!in_file(o, off, size) || at >= size || !memchr(o->img + off + at, 0, size - at))
      return NULL;
   return (const char *)o->img + off + at;
}

/* ---- nodes and edges (shared) ---- */

/* The node of section sec holding offset off (its first node if none). */
static uint32_t node_at(const soft_obj *o, uint32_t sec, uint64_t off)
{
   uint32_t lo = o->sec_first[sec], hi = o->sec_first[sec + 1];
   if (lo == hi)
      return SOFT_OBJ_NONE;
   while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (o->node[mid].start <= off)
         lo = mid;
      else
         hi = mid;
   }
   return lo;
}

static int cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* Nodes: ELF one per section; Mach-O one per distinct symbol address of a
 * section (and its start).  Symbols get their node and, on Mach-O, the
 * size up to the next symbol. */
static bool make_nodes(soft_obj *o)
{
   o->sec_first = mc_calloc(o->nsec + 1, sizeof(uint32_t));
   uint64_t *starts = mc_malloc(((size_t)o->nsym + o->nsec + 1) * sizeof(uint64_t));
   o->node = mc_malloc(((size_t)o->nsym + o->nsec + 1) * sizeof(soft_obj_node));
   if (!o->sec_first || !starts || !o->node) {
      free(starts);
      return false;
   }
   for (uint32_t s = 0; s < o->nsec; s++) {
      o->sec_first[s] = o->nnode;
      size_t n = 0;
      starts[n++] = 0;
      if (o->macho)
         for (uint32_t k = 0; k < o->nsym; k++)
            if (o->sym[k].sec == s && o->sym[k].off < o->sec[s].size)
               starts[n++] = o->sym[k].off;
      qsort(starts, n, sizeof(uint64_t), cmp_u64);
      for (size_t i = 0; i < n; i++) {
         if (i && starts[i] == starts[i - 1])
            continue;
         o->node[o->nnode++] = (soft_obj_node){s, starts[i], o->sec[s].size};
         if (o->nnode > o->sec_first[s] + 1)
            o->node[o->nnode - 2].end = starts[i];
      }
   }
   o->sec_first[o->nsec] = o->nnode;
   free(starts);
   for (uint32_t k = 0; k < o->nsym; k++) {
      soft_obj_sym *y = &o->sym[k];
      y->node = y->sec < o->nsec ? node_at(o, y->sec, y->off) : SOFT_OBJ_NONE;
      if (o->macho && y->node != SOFT_OBJ_NONE)
         y->size = o->node[y->node].end > y->off ? o->node[y->node].end - y->off : 0;
   }
   return true;
}

static bool add_edge(soft_obj *o, uint32_t from, uint32_t to)
{
   if (from == SOFT_OBJ_NONE || to == SOFT_OBJ_NONE)
      return true;
   if (o->nedge == o->edge_cap) {
      size_t cap = o->edge_cap ? o->edge_cap * 2 : 256;
      uint32_t *f = mc_realloc(o->edge_from, cap * sizeof(uint32_t));
      if (!f)
         return false;
      o->edge_from = f;
      uint32_t *t = mc_realloc(o->edge_to, cap * sizeof(uint32_t));
      if (!t)
         return false;
      o->edge_to = t;
      o->edge_cap = cap;
   }
   o->edge_from[o->nedge] = from;
   o->edge_to[o->nedge++] = to;
   return true;
}

/* ---- ELF-64 (System V gABI) ---- */

enum {
   ELF_SHT_SYMTAB = 2, ELF_SHT_RELA = 4, ELF_SHT_NOBITS = 8,
   ELF_SHF_WRITE = 1, ELF_SHF_EXECINSTR = 4,
   ELF_SHN_COMMON = 0xfff2, ELF_SHN_LORESERVE = 0xff00,
   ELF_STT_OBJECT = 1, ELF_STT_FUNC = 2, ELF_STT_COMMON = 5, ELF_STT_TLS = 6,
   ELF_EHDR = 64, ELF_SHDR = 64, ELF_SYM = 24, ELF_RELA = 24,
};

static bool read_elf(soft_obj *o)
{
   const uint8_t *h = o->img;
   /* 64-bit (EI_CLASS 2), little-endian (EI_DATA 1), relocatable (ET_REL 1) */
   if (o->len < ELF_EHDR || h[4] != 2 || h[5] != 1 || rd16(h + 16) != 1 || rd16(h + 58) != ELF_SHDR)
      return false;
   uint16_t machine = rd16(h + 18);   /* EM_X86_64 62, EM_AARCH64 183 */
   o->arch = machine == 62 ? SOFT_OBJ_X86_64 : machine == 183 ? SOFT_OBJ_ARM64 : SOFT_OBJ_OTHER;
   uint64_t shoff = rd64(h + 40);
   uint32_t nsec = rd16(h + 60), shstrndx = rd16(h + 62);
   if (!in_file(o, shoff, (uint64_t)nsec * ELF_SHDR) || shstrndx >= nsec)
      return false;
   const uint8_t *sh = h + shoff, *shstr = sh + (size_t)shstrndx * ELF_SHDR;
   o->sec = mc_calloc(nsec ? nsec : 1, sizeof(soft_obj_sec));
   if (!o->sec)
      return false;
   o->nsec = nsec;
   uint32_t symtab = SOFT_OBJ_NONE;
   for (uint32_t i = 0; i < nsec; i++) {
      const uint8_t *s = sh + (size_t)i * ELF_SHDR;
      soft_obj_sec *c = &o->sec[i];
      uint32_t type = rd32(s + 4);
      uint64_t flags = rd64(s + 8);
      const char *name = str_at(o, rd64(shstr + 24), rd64(shstr + 32), rd32(s));
      snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
      c->file_off = rd64(s + 24);
      c->size = rd64(s + 32);
      c->has_data = type != ELF_SHT_NOBITS;
      if (c->has_data && !in_file(o, c->file_off, c->size))
         return false;
      c->code = flags & ELF_SHF_EXECINSTR;
      /* .data.rel.ro: written by the dynamic linker, read-only after */
      c->writable = (flags & ELF_SHF_WRITE) && strncmp(c->name, ".data.rel.ro", 12);
      if (type == ELF_SHT_SYMTAB)
         symtab = i;
   }
   if (symtab == SOFT_OBJ_NONE)
      return false;
   const uint8_t *st = sh + (size_t)symtab * ELF_SHDR;
   uint32_t strsec = rd32(st + 40);
   if (strsec >= nsec)
      return false;
   const uint8_t *ss = sh + (size_t)strsec * ELF_SHDR;
   uint64_t soff = rd64(st + 24), ssize = rd64(st + 32), stroff = rd64(ss + 24), strsize = rd64(ss + 32);
   if (!in_file(o, soff, ssize))
      return false;
   o->nsym = (uint32_t)(ssize / ELF_SYM);
   o->sym = mc_calloc(o->nsym ? o->nsym : 1, sizeof(soft_obj_sym));
   if (!o->sym)
      return false;
   for (uint32_t k = 0; k < o->nsym; k++) {
      const uint8_t *p = o->img + soff + (size_t)k * ELF_SYM;
      soft_obj_sym *y = &o->sym[k];
      const char *name = str_at(o, stroff, strsize, rd32(p));
      unsigned type = p[4] & 0xf;
      uint32_t shndx = rd16(p + 6);
      y->name = name ? name : "";
      y->sec = shndx == ELF_SHN_COMMON ? SOFT_OBJ_COMMON
             : shndx > 0 && shndx < ELF_SHN_LORESERVE && shndx < nsec ? shndx : SOFT_OBJ_NONE;
      y->off = rd64(p + 8);
      y->size = rd64(p + 16);
      y->func = type == ELF_STT_FUNC;
      y->data = type == ELF_STT_OBJECT || type == ELF_STT_TLS || type == ELF_STT_COMMON;
   }
   if (!make_nodes(o))
      return false;
   for (uint32_t i = 0; i < nsec; i++) {
      const uint8_t *s = sh + (size_t)i * ELF_SHDR;
      uint32_t target = rd32(s + 44);
      uint64_t off = rd64(s + 24), size = rd64(s + 32);
      if (rd32(s + 4) != ELF_SHT_RELA || target >= nsec || !in_file(o, off, size))
         continue;
      for (uint64_t r = 0; r + ELF_RELA <= size; r += ELF_RELA) {
         const uint8_t *p = o->img + off + r;
         uint64_t sym = rd64(p + 8) >> 32;
         if (sym >= o->nsym || o->sym[sym].sec >= nsec)
            continue;   /* undefined: libm, or nothing */
         if (!add_edge(o, node_at(o, target, rd64(p)), o->sym[sym].node))
            return false;
      }
   }
   return true;
}

/* ---- Mach-O 64 (<mach-o/loader.h>, <mach-o/nlist.h>, <mach-o/reloc.h>) ---- */

enum {
   MACHO_MAGIC_64 = 0xfeedfacf, MACHO_OBJECT = 1,
   MACHO_CPU_X86_64 = 0x01000007, MACHO_CPU_ARM64 = 0x0100000c,
   MACHO_LC_SEGMENT_64 = 0x19, MACHO_LC_SYMTAB = 0x2,
   MACHO_HEADER = 32, MACHO_SEGMENT = 72, MACHO_SECTION = 80, MACHO_NLIST = 16,
   /* section flags: type (low byte) and attributes */
   MACHO_S_ZEROFILL = 0x1, MACHO_S_GB_ZEROFILL = 0xc, MACHO_S_THREAD_LOCAL_ZEROFILL = 0x12,
   MACHO_S_ATTR_PURE_INSTRUCTIONS = (int)0x80000000u, MACHO_S_ATTR_SOME_INSTRUCTIONS = 0x400,
   MACHO_S_ATTR_DEBUG = 0x02000000,
   /* nlist n_type */
   MACHO_N_STAB = 0xe0, MACHO_N_TYPE = 0x0e, MACHO_N_SECT = 0x0e, MACHO_N_UNDF = 0x0, MACHO_N_EXT = 0x01,
   /* relocation types */
   MACHO_RELOC_UNSIGNED = 0,
   MACHO_X86_64_SIGNED = 1, MACHO_X86_64_BRANCH = 2, MACHO_X86_64_SUBTRACTOR = 5,
   MACHO_X86_64_SIGNED_1 = 6, MACHO_X86_64_SIGNED_2 = 7, MACHO_X86_64_SIGNED_4 = 8,
   MACHO_ARM64_SUBTRACTOR = 1, MACHO_ARM64_ADDEND = 10,
};

/* The node a non-extern relocation at `at` (offset in section from)
 * points to, in section ordinal `ord` (1-based). */
static uint32_t local_target(const soft_obj *o, uint32_t from, uint64_t at, uint32_t ord, unsigned type,
                             unsigned length)
{
   if (ord == 0 || ord > o->nsec)
      return SOFT_OBJ_NONE;
   const soft_obj_sec *f = &o->sec[from], *t = &o->sec[ord - 1];
   uint64_t addr = t->addr;   /* by default the section's first node */
   bool known = f->has_data && at + 8 <= f->size;
   const uint8_t *p = o->img + f->file_off + at;
   if (type == MACHO_RELOC_UNSIGNED && length == 3 && known) {
      addr = rd64(p);
   } else if (type == MACHO_RELOC_UNSIGNED && length == 2 && known) {
      addr = rd32(p);
   } else if (o->cpu == MACHO_CPU_X86_64 && known &&
              (type == MACHO_X86_64_SIGNED || type == MACHO_X86_64_BRANCH || type == MACHO_X86_64_SIGNED_1 ||
               type == MACHO_X86_64_SIGNED_2 || type == MACHO_X86_64_SIGNED_4)) {
      /* rip-relative: the displacement counts from the end of the
       * instruction, 0, 1, 2 or 4 immediate bytes after the field */
      static const uint8_t extra[] = {0, 0, 0, 0, 0, 0, 1, 2, 4};
      addr = f->addr + at + 4 + extra[type] + (uint64_t)(int64_t)(int32_t)rd32(p);
   }
   uint64_t off = addr >= t->addr && addr - t->addr < t->size ? addr - t->addr : 0;
   return node_at(o, ord - 1, off);
}

static bool macho_relocations(soft_obj *o, uint32_t s, uint32_t reloff, uint32_t nreloc)
{
   if (!in_file(o, reloff, (uint64_t)nreloc * 8))
      return false;
   for (uint32_t r = 0; r < nreloc; r++) {
      const uint8_t *p = o->img + reloff + (size_t)r * 8;
      uint32_t address = rd32(p), info = rd32(p + 4);
      if (address & 0x80000000u)
         continue;   /* scattered: 32-bit targets only */
      uint32_t symnum = info & 0xffffff;
      unsigned ext = (info >> 27) & 1, type = info >> 28, length = (info >> 25) & 3;
      /* The minus side of a difference, and arm64's addend carrier, name no
       * target of their own. */
      if ((o->cpu == MACHO_CPU_X86_64 && type == MACHO_X86_64_SUBTRACTOR) ||
          (o->cpu == MACHO_CPU_ARM64 && (type == MACHO_ARM64_SUBTRACTOR || type == MACHO_ARM64_ADDEND)))
         continue;
      uint32_t to = ext ? (symnum < o->nsym ? o->sym[symnum].node : SOFT_OBJ_NONE)
                        : local_target(o, s, address, symnum, type, length);
      if (!add_edge(o, node_at(o, s, address), to))
         return false;
   }
   return true;
}

static bool read_macho(soft_obj *o)
{
   const uint8_t *h = o->img;
   if (o->len < MACHO_HEADER || rd32(h) != MACHO_MAGIC_64 || rd32(h + 12) != MACHO_OBJECT)
      return false;
   o->macho = true;
   o->cpu = rd32(h + 4);
   o->arch = o->cpu == MACHO_CPU_X86_64 ? SOFT_OBJ_X86_64 : o->cpu == MACHO_CPU_ARM64 ? SOFT_OBJ_ARM64
                                                                                : SOFT_OBJ_OTHER;
   uint32_t ncmds = rd32(h + 16), sizeofcmds = rd32(h + 20);
   if (!in_file(o, MACHO_HEADER, sizeofcmds))
      return false;
   const uint8_t *seg = NULL, *symtab = NULL;
   for (uint64_t at = MACHO_HEADER, i = 0; i < ncmds; i++) {
      if (at + 8 > MACHO_HEADER + (uint64_t)sizeofcmds)
         return false;
      uint32_t cmd = rd32(h + at), size = rd32(h + at + 4);
      if (size < 8 || at + size > MACHO_HEADER + (uint64_t)sizeofcmds)
         return false;
      if (cmd == MACHO_LC_SEGMENT_64 && size >= MACHO_SEGMENT)
         seg = h + at;    /* an object has one segment holding every section */
      else if (cmd == MACHO_LC_SYMTAB && size >= 24)
         symtab = h + at;
      at += size;
   }
   if (!seg || !symtab)
      return false;
   uint32_t nsec = rd32(seg + 64);
   if ((uint64_t)MACHO_SEGMENT + (uint64_t)nsec * MACHO_SECTION > rd32(seg + 4))
      return false;
   o->sec = mc_calloc(nsec ? nsec : 1, sizeof(soft_obj_sec));
   if (!o->sec)
      return false;
   o->nsec = nsec;
   for (uint32_t i = 0; i < nsec; i++) {
      const uint8_t *s = seg + MACHO_SEGMENT + (size_t)i * MACHO_SECTION;
      soft_obj_sec *c = &o->sec[i];
      char sect[17] = {0}, segname[17] = {0};
      memcpy(sect, s, 16);
      memcpy(segname, s + 16, 16);
      snprintf(c->name, sizeof(c->name), "%s,%s", segname, sect);
      c->addr = rd64(s + 32);
      c->size = rd64(s + 40);
      c->file_off = rd32(s + 48);
      uint32_t flags = rd32(s + 64), type = flags & 0xff;
      c->has_data = type != MACHO_S_ZEROFILL && type != MACHO_S_GB_ZEROFILL && type != MACHO_S_THREAD_LOCAL_ZEROFILL;
      if (c->has_data && !in_file(o, c->file_off, c->size))
         return false;
      c->code = flags & (MACHO_S_ATTR_PURE_INSTRUCTIONS | MACHO_S_ATTR_SOME_INSTRUCTIONS);
      c->debug = flags & MACHO_S_ATTR_DEBUG;
      /* __DATA,__const is read-only after the dynamic linker's fix-ups
       * (ELF's .data.rel.ro); every other __DATA section is written */
      c->writable = !strcmp(segname, "__DATA") && strcmp(sect, "__const");
   }
   uint32_t symoff = rd32(symtab + 8), nsyms = rd32(symtab + 12), stroff = rd32(symtab + 16),
            strsize = rd32(symtab + 20);
   if (!in_file(o, symoff, (uint64_t)nsyms * MACHO_NLIST))
      return false;
   o->sym = mc_calloc(nsyms ? nsyms : 1, sizeof(soft_obj_sym));
   if (!o->sym)
      return false;
   o->nsym = nsyms;
   for (uint32_t k = 0; k < nsyms; k++) {
      const uint8_t *p = o->img + symoff + (size_t)k * MACHO_NLIST;
      soft_obj_sym *y = &o->sym[k];
      const char *name = str_at(o, stroff, strsize, rd32(p));
      unsigned ntype = p[4], nsect = p[5];
      uint64_t value = rd64(p + 8);
      /* C names carry a leading underscore in Mach-O: dropped, so both
       * formats give the names the compiler wrote (and C++ mangled) */
      y->name = !name ? "" : name[0] == '_' ? name + 1 : name;
      y->sec = SOFT_OBJ_NONE;
      if (ntype & MACHO_N_STAB)
         continue;
      bool temp = name && (name[0] == 'l' || name[0] == 'L');   /* assembler-local labels */
      if ((ntype & MACHO_N_TYPE) == MACHO_N_SECT && nsect >= 1 && nsect <= nsec) {
         y->sec = nsect - 1;
         y->off = value - o->sec[y->sec].addr;
         y->func = o->sec[y->sec].code && !temp;
         y->data = !o->sec[y->sec].code && !temp;
      } else if ((ntype & MACHO_N_TYPE) == MACHO_N_UNDF && (ntype & MACHO_N_EXT) && value) {
         y->sec = SOFT_OBJ_COMMON;   /* a common symbol: n_value is its size */
         y->size = value;
         y->data = true;
      }
   }
   if (!make_nodes(o))
      return false;
   for (uint32_t i = 0; i < nsec; i++) {
      const uint8_t *s = seg + MACHO_SEGMENT + (size_t)i * MACHO_SECTION;
      if (!o->sec[i].debug && !macho_relocations(o, i, rd32(s + 56), rd32(s + 60)))
         return false;
   }
   return true;
}

/* ---- interface ---- */

bool soft_obj_read(soft_obj *o, uint8_t *img, size_t len, char **err)
{
   memset(o, 0, sizeof(*o));
   o->img = img;
   o->len = len;
   bool elf = len >= 4 && !memcmp(img, "\177ELF", 4);
   bool ok = elf ? read_elf(o) : read_macho(o);
   if (!ok) {
      mtl_set_err(err, "the compiled object is not a readable 64-bit little-endian %s object",
                  elf ? "ELF" : o->macho ? "Mach-O" : "ELF or Mach-O");
      soft_obj_free(o);
   }
   return ok;
}

void soft_obj_free(soft_obj *o)
{
   free(o->sec);
   free(o->sym);
   free(o->node);
   free(o->sec_first);
   free(o->edge_from);
   free(o->edge_to);
   memset(o, 0, sizeof(*o));
}

uint8_t *soft_obj_bytes(soft_obj *o, const soft_obj_sym *y, uint64_t len)
{
   if (y->sec >= o->nsec)
      return NULL;
   const soft_obj_sec *s = &o->sec[y->sec];
   if (!s->has_data || y->off > s->size || len > s->size - y->off || y->size < len)
      return NULL;
   return o->img + s->file_off + y->off;
}

/* A call from a function to its own start is often no relocation at all:
 * the assembler resolves a call to a symbol of the same section (ELF: a
 * local or non-preemptible symbol) or the same atom (Mach-O x86-64) by
 * itself.  So the code is read: arm64 instructions are 4-byte words and
 * BL is opcode 100101 with a signed 26-bit word offset, exact; x86-64's
 * near call is E8 and a 32-bit offset from the next instruction, looked
 * for at every byte (a constant that happens to be E8 and the exact
 * offset back to the start is the only false alarm, and costs a refusal
 * of recursion that is not there: never seen). */
bool soft_obj_self_call(const soft_obj *o, uint32_t node)
{
   if (node >= o->nnode)
      return false;
   const soft_obj_node *n = &o->node[node];
   const soft_obj_sec *s = &o->sec[n->sec];
   if (!s->code || !s->has_data || n->end > s->size)
      return false;
   const uint8_t *code = o->img + s->file_off;
   if (o->arch == SOFT_OBJ_ARM64) {
      for (uint64_t at = (n->start + 3) & ~(uint64_t)3; at + 4 <= n->end; at += 4) {
         uint32_t w = rd32(code + at);
         int64_t words = (int64_t)((int32_t)(w << 6) >> 6);   /* imm26, signed */
         if ((w >> 26) == 0x25 && (int64_t)at + words * 4 == (int64_t)n->start)
            return true;
      }
   } else if (o->arch == SOFT_OBJ_X86_64) {
      for (uint64_t at = n->start; at + 5 <= n->end; at++)
         if (code[at] == 0xe8 && (int64_t)at + 5 + (int32_t)rd32(code + at + 1) == (int64_t)n->start)
            return true;
   }
   return false;
}
