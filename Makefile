# metalcuda — top-level build.
#
#   make            build lib/libcuda.so.1, lib/libcudart.so.{13,12,11.0}, bin/metalcuda
#                   (macOS: lib/libcuda.1.dylib, lib/libcudart.{13,12,11.0}.dylib)
#   make demo       build and run examples/vector_add through metalcuda
#   make test       everything CI runs; last line "N passed, N failed"
#   make test-full  the heavier sweeps as well, and the CUDA programs with
#                   the ASan+UBSan build of the libraries
#   make asan       unit tests under ASan+UBSan (build-asan/)
#   make asan-libs  the libraries and tool under ASan+UBSan (build-asan/lib,
#                   build-asan/bin) for tests/cuda/run.sh --asan
#   make bench      the benchmarks in bench/
#
# Sources are found by wildcard: a new .c file in a component directory is
# built without touching this file.

CC      ?= cc
NVCC    ?= nvcc
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
UNAME_S := $(shell uname -s)

CFLAGS_BASE := -std=c11 $(OPT) -g -Wall -Wextra -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes \
	-fPIC -fvisibility=hidden -D_GNU_SOURCE -pthread -Isrc $(SAN)
CFLAGS  += $(CFLAGS_BASE)
LDFLAGS += -pthread $(SAN)
LDLIBS  := -ldl -lm

ifeq ($(UNAME_S),Darwin)
METAL_PLATFORM_SRC := $(wildcard src/metal/apple/*.c)
LDLIBS += -framework Metal -framework Foundation -lobjc
else
METAL_PLATFORM_SRC :=
endif

# ---- the internal library: everything below the API layer ----
UTIL_SRC     := $(wildcard src/util/*.c)
FATBIN_SRC   := $(wildcard src/fatbin/*.c)
PTX_SRC      := $(wildcard src/compiler/ptx/*.c)
IR_SRC       := $(wildcard src/compiler/ir/*.c)
MSL_SRC      := $(wildcard src/compiler/msl/*.c)
MSL_ASM      := $(wildcard src/compiler/msl/*.S)
COMPILER_SRC := $(wildcard src/compiler/*.c)
METAL_SRC    := $(wildcard src/metal/*.c) $(wildcard src/metal/soft/*.c) $(METAL_PLATFORM_SRC)
METAL_ASM    := $(wildcard src/metal/soft/*.S)
CORE_SRC     := $(wildcard src/core/*.c)
DRIVER_SRC   := $(wildcard src/api/driver/*.c) $(wildcard src/api/driver/darkapi/*.c)
# abi12.c and abi11.c are the ABI of the .12 and .11.0 sonames only, and
# version.c is built once per soname (the libcudart rule below).
RUNTIME_ABI_SRC := src/api/runtime/abi12.c src/api/runtime/abi11.c src/api/runtime/version.c
RUNTIME_SRC  := $(filter-out $(RUNTIME_ABI_SRC),$(wildcard src/api/runtime/*.c))

INTERNAL_SRC := $(UTIL_SRC) $(FATBIN_SRC) $(PTX_SRC) $(IR_SRC) $(MSL_SRC) \
	$(COMPILER_SRC) $(METAL_SRC) $(CORE_SRC)
INTERNAL_OBJ := $(INTERNAL_SRC:%.c=$(BUILD)/%.o) $(MSL_ASM:%.S=$(BUILD)/%.asm.o) \
	$(METAL_ASM:%.S=$(BUILD)/%.asm.o)
DRIVER_OBJ   := $(DRIVER_SRC:%.c=$(BUILD)/%.o)
RUNTIME_OBJ  := $(RUNTIME_SRC:%.c=$(BUILD)/%.o) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o)

INTERNAL_LIB := $(BUILD)/libmetalcuda.a

# LIBDIR/BINDIR: where the libraries and the tool go (asan-libs puts an
# instrumented set under build-asan/).
LIBDIR     ?= lib
BINDIR     ?= bin
TOOL       := $(BINDIR)/metalcuda

# The shared libraries and how they are linked, per platform.
#  Linux (ELF): sonames, version scripts (src/api/*/exports.map*), -z defs
#    (an undefined symbol fails the link, not the program), libcudart
#    finding libcuda next to itself through $ORIGIN.
#  macOS (Mach-O): the same libraries as libNAME.N.dylib, each with the
#    install name @rpath/libNAME.N.dylib (what a program or library linked
#    against it records, found through its rpaths); exported-symbol lists
#    (src/api/*/exports.darwin, the same patterns as the version scripts,
#    Mach-O has no symbol versions); libcudart's rpath @loader_path finds
#    libcuda.1.dylib beside it.  ld64 fails on undefined symbols by default
#    (the -z defs of Linux).  DYLD_LIBRARY_PATH is not needed for our own
#    libraries to find each other (README.md: System Integrity Protection).
ifeq ($(UNAME_S),Darwin)
CUDA_LIB    := $(LIBDIR)/libcuda.1.dylib
CUDART_LIB  = $(LIBDIR)/libcudart.$(1).dylib
CUDA_LINK   := -dynamiclib -Wl,-install_name,@rpath/libcuda.1.dylib \
	-Wl,-compatibility_version,1 -Wl,-current_version,1 \
	-Wl,-exported_symbols_list,src/api/driver/exports.darwin
CUDART_LINK = -dynamiclib -Wl,-install_name,@rpath/libcudart.$(1).dylib \
	-Wl,-exported_symbols_list,$(BUILD)/cudart.$(1).exp -Wl,-rpath,@loader_path
CUDART_MAP_DEP := $(BUILD)/cudart.%.exp
CUDA_MAP_DEP := src/api/driver/exports.darwin
LINK_CUDA_LIB := $(CUDA_LIB)
# A program linked against libcuda finds it by rpath: $(1) is the library
# directory relative to the program's.
LINK_LIBCUDA = $(LINK_CUDA_LIB) -Wl,-rpath,@loader_path/$(1)
else
CUDA_LIB    := $(LIBDIR)/libcuda.so.1
CUDART_LIB  = $(LIBDIR)/libcudart.so.$(1)
CUDA_LINK   := -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=src/api/driver/exports.map -Wl,-z,defs
CUDART_LINK = -shared -Wl,-soname,libcudart.so.$(1) -Wl,--version-script=$(BUILD)/cudart.$(1).map \
	-Wl,-z,defs -Wl,-rpath,'$$ORIGIN'
CUDART_MAP_DEP := src/api/runtime/exports.map.in
CUDA_MAP_DEP := src/api/driver/exports.map
LINK_CUDA_LIB := -L$(LIBDIR) -l:libcuda.so.1
LINK_LIBCUDA = $(LINK_CUDA_LIB) -Wl,-rpath,'$$ORIGIN/$(1)'
endif
# The sonames NVIDIA's runtimes have (CUDA 11's is libcudart.so.11.0) and
# the runtime version each answers with (version.c).
CUDART_VERSIONS := 13 12 11.0
RTVER_13 := 13000
RTVER_12 := 12090
RTVER_11.0 := 11080
CUDART_LIBS := $(foreach v,$(CUDART_VERSIONS),$(call CUDART_LIB,$(v)))
# What a soname links beyond RUNTIME_OBJ: its version, and CUDA 12's forms
# of the entry points CUDA 13 changed (abi12.c) in .12 and .11.0, CUDA 11's
# (abi11.c) in .11.0.
CUDART_ABI_OBJ = $(BUILD)/rt/version.$(1).o \
	$(if $(filter 13,$(1)),,$(BUILD)/src/api/runtime/abi12.o) \
	$(if $(filter 11.0,$(1)),$(BUILD)/src/api/runtime/abi11.o)

all: $(CUDA_LIB) $(CUDART_LIBS) $(TOOL)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# libcudart carries its own copy of util (logging, strings): it talks to the
# driver only through the CUDA driver API, as NVIDIA's runtime does.
$(BUILD)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# (a static pattern: an open one would also match what make tries when it
# remakes the .d files it includes)
CUDART_VERSION_OBJ := $(foreach v,$(CUDART_VERSIONS),$(BUILD)/rt/version.$(v).o)
$(CUDART_VERSION_OBJ): $(BUILD)/rt/version.%.o: src/api/runtime/version.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DMC_CUDART_RUNTIME_VERSION=$(RTVER_$*) -MMD -MP -c $< -o $@

# Embedded text (MSL prelude, metal_stdlib shim) via .incbin; .asm.o so a
# foo.S never collides with a foo.c.
$(BUILD)/%.asm.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -Wa,-I,. -c $< -o $@
# .incbin inputs are not listed in the .d files.
$(BUILD)/src/metal/soft/shim.asm.o: src/metal/soft/shim/metal_stdlib

# The translation cache keys on the compiler's identity: a hash of every
# source the translation depends on, so a changed compiler never reuses
# what an older one wrote.
COMPILER_ID_SRC := $(sort $(wildcard src/compiler/*.[ch] src/compiler/*/*.[ch] src/compiler/*/*.S \
	src/compiler/msl/prelude/*.metal))
$(BUILD)/gen/compiler_id.h: $(COMPILER_ID_SRC)
	@mkdir -p $(dir $@)
	@id=$$(cat $^ | (sha256sum 2>/dev/null || shasum -a 256) | cut -c1-24); \
	 printf '#define MC_COMPILER_ID "%s"\n' "$$id" > $@
$(BUILD)/src/compiler/cache.o: $(BUILD)/gen/compiler_id.h
$(BUILD)/src/compiler/cache.o: CFLAGS += -I$(BUILD)/gen

# The software device keeps its scan of the compiler's prelude on disk
# (msl_scan.c), keyed the same way by the scanner's identity: a hash of the
# sources its output depends on.
SOFT_SCAN_ID_SRC := src/metal/soft/msl_scan.c src/metal/soft/soft.h src/util/str.c src/util/util.h
$(BUILD)/gen/soft_scan_id.h: $(SOFT_SCAN_ID_SRC)
	@mkdir -p $(dir $@)
	@id=$$(cat $^ | (sha256sum 2>/dev/null || shasum -a 256) | cut -c1-24); \
	 printf '#define MC_SOFT_SCAN_ID "%s"\n' "$$id" > $@
$(BUILD)/src/metal/soft/msl_scan.o: $(BUILD)/gen/soft_scan_id.h
$(BUILD)/src/metal/soft/msl_scan.o: CFLAGS += -I$(BUILD)/gen

# The shim's SHA-256 (shim.c: its directory's name and part of every
# library's key), taken here once instead of by every process (88 KB,
# 0.4 ms); shim.S embeds the same file.
$(BUILD)/gen/soft_shim_digest.h: src/metal/soft/shim/metal_stdlib
	@mkdir -p $(dir $@)
	@d=$$( (sha256sum 2>/dev/null || shasum -a 256) < $< | cut -c1-64); \
	 printf '#define MC_SOFT_SHIM_SHA256 "%s"\n' "$$d" > $@
$(BUILD)/src/metal/soft/shim.o: $(BUILD)/gen/soft_shim_digest.h
$(BUILD)/src/metal/soft/shim.o: CFLAGS += -I$(BUILD)/gen

$(INTERNAL_LIB): $(INTERNAL_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(CUDA_LIB): $(DRIVER_OBJ) $(INTERNAL_LIB) $(CUDA_MAP_DEP)
	@mkdir -p $(LIBDIR)
	$(CC) $(CUDA_LINK) $(LDFLAGS) -o $@ $(DRIVER_OBJ) $(INTERNAL_LIB) $(LDLIBS)
	ln -sf $(notdir $@) $(LIBDIR)/libcuda.$(if $(filter Darwin,$(UNAME_S)),dylib,so)

# One library, three sonames (install names on macOS): on Linux each
# carries the version node its soname names (binaries import
# cudaMalloc@libcudart.so.13 and so on).
# libcudart.so.13 exports the patterns of exports.map.in; .12 and .11.0
# exactly the names NVIDIA's library of that soname exports
# (src/api/runtime/exports.12, exports.11.0), every other one local.
# (Mach-O: the exported-symbol lists below, the same names.)
$(call CUDART_LIB,%): $(RUNTIME_OBJ) $(foreach v,$(CUDART_VERSIONS),$(call CUDART_ABI_OBJ,$(v))) $(CUDA_LIB) \
		$(CUDART_MAP_DEP) src/api/runtime/exports.12 src/api/runtime/exports.11.0
	@mkdir -p $(LIBDIR) $(BUILD)
	if [ $* = 13 ]; then sed 's/@SONAME@/libcudart.so.$*/' src/api/runtime/exports.map.in; \
	else awk 'BEGIN { print "libcudart.so.$* {\n   global:" } /^[^#]/ { print "      " $$1 ";" } \
	          END { print "   local:\n      *;\n};" }' src/api/runtime/exports.$*; fi > $(BUILD)/cudart.$*.map
	$(CC) $(call CUDART_LINK,$*) $(LDFLAGS) -o $@ $(RUNTIME_OBJ) $(call CUDART_ABI_OBJ,$*) $(LINK_CUDA_LIB) $(LDLIBS)
	ln -sf $(notdir $(call CUDART_LIB,13)) $(LIBDIR)/libcudart.$(if $(filter Darwin,$(UNAME_S)),dylib,so)

# libcudart.N.dylib's exported-symbol list (ld64 -exported_symbols_list):
# the patterns of exports.darwin for .13; for .12 and .11.0 exactly the
# names of exports.12 and exports.11.0, with Mach-O's underscore, as their
# Linux version scripts have them.  Made on every platform: tests/macos
# links the three dylibs with them (ld64.lld) and compares the exports.
$(BUILD)/cudart.%.exp: src/api/runtime/exports.darwin src/api/runtime/exports.12 src/api/runtime/exports.11.0
	@mkdir -p $(dir $@)
	if [ $* = 13 ]; then cp src/api/runtime/exports.darwin $@; \
	else awk '/^[^#]/ { print "_" $$1 }' src/api/runtime/exports.$* > $@; fi

# The compiler drivers (src/toolchain) live in the tool: `metalcuda nvcc`,
# and bin/nvcc when it is invoked under that name (make install).
TOOLCHAIN_SRC := $(wildcard src/toolchain/*.c)
TOOLCHAIN_OBJ := $(TOOLCHAIN_SRC:%.c=$(BUILD)/%.o)

$(TOOL): $(BUILD)/tools/metalcuda.o $(TOOLCHAIN_OBJ) $(INTERNAL_LIB)
	@mkdir -p $(BINDIR)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The device library (src/devlib): CUDA C compiled by clang to NVPTX bitcode,
# which the driver links into every kernel as clang links libdevice.  It
# needs a clang with the NVPTX back end (CLANG_CUDA); without one the
# driver reports the missing file and everything else still builds.
CLANG_CUDA ?= $(firstword $(foreach v,22 21 20 19 18 17,$(shell command -v clang++-$(v) 2>/dev/null)) \
	$(shell command -v /opt/homebrew/opt/llvm/bin/clang++ 2>/dev/null))
DEVLIB := $(LIBDIR)/metalcuda/devlib.bc
# metalcuda's CUDA headers, which the libraries' kernels are compiled with
CUDA_HEADERS := $(wildcard include/*.h include/*/*.h)
# clang learns the CUDA version from <cuda-path>/include/cuda.h: the driver
# points it at this directory, whose cuda.h states cuabi.h's version.
CUDA_ROOT_H := $(LIBDIR)/metalcuda/cuda-root/include/cuda.h
$(CUDA_ROOT_H): src/api/cuabi.h
	@mkdir -p $(dir $@) $(LIBDIR)/metalcuda/cuda-root/bin
	{ echo '/* for clang (--cuda-path): the CUDA version metalcuda implements; generated from src/api/cuabi.h */'; \
	  grep -E '^#define CUDA_VERSION ' $<; } > $@
all: $(CUDA_ROOT_H)

# CCCL 3 (Thrust, CUB, libcu++) for programs built by metalcuda nvcc:
# CCCL_INCLUDE is a CCCL's include directory (cuda/, cub/, thrust/, nv/),
# by default that of PyPI's cuda-cccl, which .ci/run installs into
# build/cccl.  It is copied to lib/metalcuda/cccl, where nvcc looks
# (src/toolchain/README.md).  Without one, programs get the system's Thrust
# and CUB (Debian's 1.17) and no libcu++.
CCCL_INCLUDE ?= $(wildcard $(CURDIR)/build/cccl/cuda/cccl/headers/include)
ifneq ($(CCCL_INCLUDE),)
CCCL_STAMP := $(LIBDIR)/metalcuda/cccl/cuda/std/version
all: $(CCCL_STAMP)
$(CCCL_STAMP): $(CCCL_INCLUDE)/cuda/std/version
	rm -rf $(LIBDIR)/metalcuda/cccl
	mkdir -p $(LIBDIR)/metalcuda/cccl
	cp -R $(CCCL_INCLUDE)/cuda $(CCCL_INCLUDE)/cub $(CCCL_INCLUDE)/thrust $(CCCL_INCLUDE)/nv $(LIBDIR)/metalcuda/cccl/
	touch $@
endif
ifneq ($(CLANG_CUDA),)
all: $(DEVLIB)
endif

# The software device's first-compile files (src/metal/soft/prepared.c:
# the compiler's identity, the linker's command, the precompiled prelude),
# made by the tool in lib/metalcuda/prepared, where libcuda reads them when
# its cache has none.  Not fatal: without a host clang++ the device makes
# them in its cache, or says why it cannot.
PREPARED := $(LIBDIR)/metalcuda/prepared
all: $(PREPARED)/.stamp
$(PREPARED)/.stamp: $(TOOL) $(CUDA_LIB)
	rm -rf $(PREPARED)
	$(TOOL) prepare $(PREPARED) || echo "make: the software device will make these files in its cache instead"
	mkdir -p $(PREPARED) && touch $@
$(DEVLIB): $(wildcard src/devlib/*.cu src/devlib/*.h) $(CUDA_ROOT_H)
	@mkdir -p $(dir $@)
	$(CLANG_CUDA) -x cuda --cuda-device-only --cuda-gpu-arch=sm_75 -nocudainc -nocudalib \
		--cuda-path=$(CURDIR)/$(LIBDIR)/metalcuda/cuda-root -Wno-unknown-cuda-version -O2 -ffp-contract=off -Wall -Wextra -emit-llvm -c \
		src/devlib/devlib.cu -o $@

# ---- the CUDA math libraries (src/libs): libcublas ----
# Each is a client of the CUDA Driver API like any program (links our
# libcuda, includes only include/): host code in C, kernels in CUDA C
# built to PTX by our own nvcc (the tool and the device library, so they
# need CLANG_CUDA too) and embedded in the library (kernels.S).  Sonames:
# libcublas.so.13 and .12 (CUDA 13's and 12's), each with its version node;
# every name NVIDIA's library exports (exports.13) exists, the ones not
# implemented as stubs (stubs.c, tools/gen_libs_stubs.py).
ifeq ($(UNAME_S),Darwin)
CUBLAS_LIB  = $(LIBDIR)/libcublas.$(1).dylib
CUBLAS_LINK = -dynamiclib -Wl,-install_name,@rpath/libcublas.$(1).dylib \
	-Wl,-exported_symbols_list,src/libs/cublas/exports.darwin -Wl,-rpath,@loader_path
else
CUBLAS_LIB  = $(LIBDIR)/libcublas.so.$(1)
CUBLAS_LINK = -shared -Wl,-soname,libcublas.so.$(1) -Wl,--version-script=$(BUILD)/cublas.$(1).map \
	-Wl,-z,defs -Wl,-rpath,'$$ORIGIN'
endif
CUBLAS_VERSIONS := 13 12
CUBLAS_LIBS := $(foreach v,$(CUBLAS_VERSIONS),$(call CUBLAS_LIB,$(v)))
CUBLAS_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/cublas/*.c)) $(BUILD)/src/libs/cublas/kernels.asm.o
$(CUBLAS_OBJ): CFLAGS += -Iinclude
# named by an explicit rule, so not intermediate files: a new source is
# compiled and linked even when it is older than the library
$(CUBLAS_LIBS): $(CUBLAS_OBJ)
$(BUILD)/src/libs/cublas/kernels.asm.o: CFLAGS += -Wa,-I,$(BUILD)/libs/cublas
$(BUILD)/src/libs/cublas/kernels.asm.o: $(BUILD)/libs/cublas/kernels.ptx
$(BUILD)/libs/cublas/kernels.ptx: src/libs/cublas/kernels.cu src/libs/cublas/kargs.h src/libs/bf16bits.h $(CUDA_HEADERS) $(TOOL) $(DEVLIB)
	@mkdir -p $(dir $@)
	$(TOOL) nvcc --ptx -arch=compute_75 -O3 -Isrc/libs/cublas $< -o $@
$(call CUBLAS_LIB,%): $(CUBLAS_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(CUDA_LIB) src/libs/cublas/exports.13 \
		src/libs/cublas/exports.darwin
	@mkdir -p $(LIBDIR) $(BUILD)
	awk 'BEGIN { print "libcublas.so.$* {\n   global:" } /^[^#]/ { print "      " $$1 ";" } \
	     END { print "   local:\n      *;\n};" }' src/libs/cublas/exports.13 > $(BUILD)/cublas.$*.map
	$(CC) $(call CUBLAS_LINK,$*) $(LDFLAGS) -o $@ $(CUBLAS_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(LINK_CUDA_LIB) $(LDLIBS)
	ln -sf $(notdir $(call CUBLAS_LIB,13)) $(LIBDIR)/libcublas.$(if $(filter Darwin,$(UNAME_S)),dylib,so)
ifneq ($(CLANG_CUDA),)
all: $(CUBLAS_LIBS)
endif

# ---- libcufft (src/libs/cufft), built as libcublas is ----
# Sonames libcufft.so.12 (CUDA 13's) and .11 (CUDA 12's), each with its
# version node over NVIDIA's export list (exports.12; .11 also
# exports.cuda12's names); stubs.c for the names not implemented.
ifeq ($(UNAME_S),Darwin)
CUFFT_LIB  = $(LIBDIR)/libcufft.$(1).dylib
CUFFT_LINK = -dynamiclib -Wl,-install_name,@rpath/libcufft.$(1).dylib \
	-Wl,-exported_symbols_list,src/libs/cufft/exports.darwin -Wl,-rpath,@loader_path
else
CUFFT_LIB  = $(LIBDIR)/libcufft.so.$(1)
CUFFT_LINK = -shared -Wl,-soname,libcufft.so.$(1) -Wl,--version-script=$(BUILD)/cufft.$(1).map \
	-Wl,-z,defs -Wl,-rpath,'$$ORIGIN'
endif
CUFFT_VERSIONS := 12 11
CUFFT_LIBS := $(foreach v,$(CUFFT_VERSIONS),$(call CUFFT_LIB,$(v)))
CUFFT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/cufft/*.c)) $(BUILD)/src/libs/cufft/kernels.asm.o
$(CUFFT_OBJ): CFLAGS += -Iinclude
$(BUILD)/src/libs/cufft/kernels.asm.o: CFLAGS += -Wa,-I,$(BUILD)/libs/cufft
$(BUILD)/src/libs/cufft/kernels.asm.o: $(BUILD)/libs/cufft/kernels.ptx
$(BUILD)/libs/cufft/kernels.ptx: src/libs/cufft/kernels.cu src/libs/cufft/kargs.h $(CUDA_HEADERS) $(TOOL) $(DEVLIB)
	@mkdir -p $(dir $@)
	$(TOOL) nvcc --ptx -arch=compute_75 -O3 -Isrc/libs/cufft $< -o $@
$(call CUFFT_LIB,%): $(CUFFT_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(CUDA_LIB) src/libs/cufft/exports.12 \
		src/libs/cufft/exports.cuda12 src/libs/cufft/exports.darwin
	@mkdir -p $(LIBDIR) $(BUILD)
	awk 'BEGIN { print "libcufft.so.$* {\n   global:" } /^[^#]/ { print "      " $$1 ";" } \
	     END { print "   local:\n      *;\n};" }' src/libs/cufft/exports.12 \
	     $(if $(filter 11,$*),src/libs/cufft/exports.cuda12) > $(BUILD)/cufft.$*.map
	$(CC) $(call CUFFT_LINK,$*) $(LDFLAGS) -o $@ $(CUFFT_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(LINK_CUDA_LIB) $(LDLIBS)
	ln -sf $(notdir $(call CUFFT_LIB,12)) $(LIBDIR)/libcufft.$(if $(filter Darwin,$(UNAME_S)),dylib,so)
ifneq ($(CLANG_CUDA),)
all: $(CUFFT_LIBS)
endif

# ---- libcublasLt (src/libs/cublasLt), built as libcublas is; it links
# metalcuda's libcublas, whose GEMM computes its products ----
ifeq ($(UNAME_S),Darwin)
CUBLASLT_LIB  = $(LIBDIR)/libcublasLt.13.dylib
CUBLASLT_LINK = -dynamiclib -Wl,-install_name,@rpath/libcublasLt.13.dylib \
	-Wl,-exported_symbols_list,src/libs/cublasLt/exports.darwin -Wl,-rpath,@loader_path
CUBLASLT_CUBLAS = $(call CUBLAS_LIB,13)
else
CUBLASLT_LIB  = $(LIBDIR)/libcublasLt.so.13
CUBLASLT_LINK = -shared -Wl,-soname,libcublasLt.so.13 -Wl,--version-script=$(BUILD)/cublasLt.13.map \
	-Wl,-z,defs -Wl,-rpath,'$$ORIGIN'
CUBLASLT_CUBLAS = -L$(LIBDIR) -l:libcublas.so.13
endif
CUBLASLT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/cublasLt/*.c)) $(BUILD)/src/libs/cublasLt/kernels.asm.o
$(CUBLASLT_OBJ): CFLAGS += -Iinclude
$(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/cublasLt/*.c)): src/libs/cublasLt/lt.h src/libs/cublasLt/kargs.h
$(BUILD)/src/libs/cublasLt/kernels.asm.o: CFLAGS += -Wa,-I,$(BUILD)/libs/cublasLt
$(BUILD)/src/libs/cublasLt/kernels.asm.o: $(BUILD)/libs/cublasLt/kernels.ptx
$(BUILD)/libs/cublasLt/kernels.ptx: src/libs/cublasLt/kernels.cu src/libs/cublasLt/kargs.h src/libs/bf16bits.h $(CUDA_HEADERS) $(TOOL) $(DEVLIB)
	@mkdir -p $(dir $@)
	$(TOOL) nvcc --ptx -arch=compute_75 -O3 -Isrc/libs/cublasLt $< -o $@
$(CUBLASLT_LIB): $(CUBLASLT_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(CUDA_LIB) $(call CUBLAS_LIB,13) \
		src/libs/cublasLt/exports.13 src/libs/cublasLt/exports.darwin
	@mkdir -p $(LIBDIR) $(BUILD)
	awk 'BEGIN { print "libcublasLt.so.13 {\n   global:" } /^[^#]/ { print "      " $$1 ";" } \
	     END { print "   local:\n      *;\n};" }' src/libs/cublasLt/exports.13 > $(BUILD)/cublasLt.13.map
	$(CC) $(CUBLASLT_LINK) $(LDFLAGS) -o $@ $(CUBLASLT_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(CUBLASLT_CUBLAS) \
		$(LINK_CUDA_LIB) $(LDLIBS)
	ln -sf $(notdir $(CUBLASLT_LIB)) $(LIBDIR)/libcublasLt.$(if $(filter Darwin,$(UNAME_S)),dylib,so)
ifneq ($(CLANG_CUDA),)
all: $(CUBLASLT_LIB)
endif

# ---- libcurand (src/libs/curand) ----
# Built as libcublas is (above): host C over our libcuda, kernels.cu to PTX
# by our nvcc, embedded (kernels.S).  Soname libcurand.so.10 (CUDA 12's and
# 13's) with its version node; every name NVIDIA's library exports
# (exports.10), the ones not implemented as stubs (stubs.c).
ifeq ($(UNAME_S),Darwin)
CURAND_LIB  = $(LIBDIR)/libcurand.10.dylib
CURAND_LINK = -dynamiclib -Wl,-install_name,@rpath/libcurand.10.dylib \
	-Wl,-exported_symbols_list,src/libs/curand/exports.darwin -Wl,-rpath,@loader_path
else
CURAND_LIB  = $(LIBDIR)/libcurand.so.10
CURAND_LINK = -shared -Wl,-soname,libcurand.so.10 -Wl,--version-script=$(BUILD)/curand.10.map \
	-Wl,-z,defs -Wl,-rpath,'$$ORIGIN'
endif
CURAND_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/curand/*.c)) $(BUILD)/src/libs/curand/kernels.asm.o \
	$(BUILD)/libs/curand/sobol_table.o $(BUILD)/libs/curand/mtgp_table.o
$(CURAND_OBJ): CFLAGS += -Iinclude
# Joe and Kuo's Sobol direction numbers, read from SciPy's copy where it is
# installed (tools/gen_sobol_table.py; without it an empty table, and the
# Sobol generators say so when created)
PYTHON ?= python3
$(BUILD)/libs/curand/sobol_table.c: tools/gen_sobol_table.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_sobol_table.py -o $@
$(BUILD)/libs/curand/sobol_table.o: $(BUILD)/libs/curand/sobol_table.c
	$(CC) $(CFLAGS) -c $< -o $@
# MTGP32's parameter sets, read from an installed CUDA toolkit's
# curand_mtgp32dc_p_11213.h (tools/gen_mtgp_table.py: the nvcc on PATH,
# CUDA_HOME or /usr/local/cuda, or MTGP_HEADER=a copy of that header; without
# one an empty table, and the MTGP32 generator says so when created)
# The same sets, for the device API of programs built by metalcuda's nvcc
# (include/curand_mtgp32*.h), as lib/metalcuda/curand/curand_mtgp32dc_p_11213.h,
# which the nvcc driver puts on the include path.
MTGP_HEADER ?=
MTGP_DEVICE_H := $(LIBDIR)/metalcuda/curand/curand_mtgp32dc_p_11213.h
GEN_MTGP = $(PYTHON) tools/gen_mtgp_table.py $(if $(MTGP_HEADER),--header $(MTGP_HEADER))
$(BUILD)/libs/curand/mtgp_table.c: tools/gen_mtgp_table.py
	@mkdir -p $(dir $@)
	$(GEN_MTGP) -o $@
$(MTGP_DEVICE_H): tools/gen_mtgp_table.py
	@mkdir -p $(dir $@)
	$(GEN_MTGP) --device-header $@
all: $(MTGP_DEVICE_H)
$(BUILD)/libs/curand/mtgp_table.o: $(BUILD)/libs/curand/mtgp_table.c
	$(CC) $(CFLAGS) -c $< -o $@
$(patsubst %.c,$(BUILD)/%.o,$(wildcard src/libs/curand/*.c)): src/libs/curand/rng.h src/libs/curand/work.h \
	src/libs/curand/mtgp.h src/libs/curand/mt19937.h src/libs/curand/mt19937_jump.h
$(BUILD)/src/libs/curand/kernels.asm.o: CFLAGS += -Wa,-I,$(BUILD)/libs/curand
$(BUILD)/src/libs/curand/kernels.asm.o: $(BUILD)/libs/curand/kernels.ptx
$(BUILD)/libs/curand/kernels.ptx: src/libs/curand/kernels.cu src/libs/curand/rng.h src/libs/curand/work.h \
		src/libs/curand/mtgp.h src/libs/curand/mt19937.h $(CUDA_HEADERS) $(TOOL) $(DEVLIB)
	@mkdir -p $(dir $@)
	$(TOOL) nvcc --ptx -arch=compute_75 -O3 -Isrc/libs/curand $< -o $@
$(CURAND_LIB): $(CURAND_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(CUDA_LIB) src/libs/curand/exports.10 \
		src/libs/curand/exports.darwin
	@mkdir -p $(LIBDIR) $(BUILD)
	awk 'BEGIN { print "libcurand.so.10 {\n   global:" } /^[^#]/ { print "      " $$1 ";" } \
	     END { print "   local:\n      *;\n};" }' src/libs/curand/exports.10 > $(BUILD)/curand.10.map
	$(CC) $(CURAND_LINK) $(LDFLAGS) -o $@ $(CURAND_OBJ) $(UTIL_SRC:%.c=$(BUILD)/rt/%.o) $(LINK_CUDA_LIB) $(LDLIBS)
	ln -sf $(notdir $(CURAND_LIB)) $(LIBDIR)/libcurand.$(if $(filter Darwin,$(UNAME_S)),dylib,so)
ifneq ($(CLANG_CUDA),)
all: $(CURAND_LIB)
endif

# ---- tests ----
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)

$(BUILD)/tests/unit/%: $(BUILD)/tests/unit/%.o $(BUILD)/tests/unit/harness.o $(INTERNAL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# the driver's __shared__ rewrite, tested on its own (clang.c comes
# along for tc_argv)
$(BUILD)/tests/unit/test_source_fix: $(BUILD)/tests/unit/test_source_fix.o $(BUILD)/tests/unit/harness.o \
		$(BUILD)/src/toolchain/source_fix.o $(BUILD)/src/toolchain/clang.o $(INTERNAL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

TOOLS_BIN := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(wildcard tests/tools/*.c))
$(BUILD)/tests/tools/%: $(BUILD)/tests/tools/%.o $(INTERNAL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

unit: $(UNIT_BIN) $(TOOLS_BIN)
tests-build: all unit

# The unit and MSL layers also run under ASan+UBSan (the asan layer of
# tests/run.sh), from a separate build directory.
ASAN_VARS := BUILD=build-asan OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

asan-build:
	$(MAKE) --no-print-directory $(ASAN_VARS) unit

# The libraries and the tool themselves instrumented, for running the CUDA
# programs under ASan+UBSan (tests/cuda/run.sh --asan; not part of make test).
# build-asan/include: the instrumented tool's headers (it finds them beside
# its bin/, as an installed metalcuda does; without them its nvcc would take
# a system CUDA's for the libraries' kernels).
asan-libs:
	@mkdir -p build-asan && ln -sfn ../include build-asan/include
	$(MAKE) --no-print-directory $(ASAN_VARS) LIBDIR=build-asan/lib BINDIR=build-asan/bin all

test: tests-build asan-build
	@bash tests/run.sh

test-full: tests-build asan-build asan-libs
	@MC_TEST_FULL=1 bash tests/run.sh

demo: all
	@bash examples/demo.sh

asan: asan-build
	@bash tests/run.sh asan

bench: all
	@bash bench/run.sh

# The Apple backend (src/metal/apple/) is built only on macOS; elsewhere
# this compiles it with gcc and clang, -fsyntax-only -Wall -Wextra -Werror,
# so it cannot rot.  The same check runs in `make test` (unit layer).
check-apple: $(BUILD)/tests/unit/test_mtl_apple
	$(BUILD)/tests/unit/test_mtl_apple
.PHONY: check-apple

# tests/ptx on an Apple GPU (a Mac, issue 15 finding 13): every case on the
# GPU against the outputs an NVIDIA H200 gave; a mismatch prints the case,
# the output and the expected values (tests/ptx/README.md).  Refuses to run
# on the software device, which METALCUDA_DEVICE=apple falls back to.
test-ptx-apple: tests-build
	@if METALCUDA_DEVICE=apple $(TOOL) info 2>&1 | grep -q 'Backend: *software'; then \
	   echo "test-ptx-apple: no Apple GPU here (METALCUDA_DEVICE=apple found only the software device)"; exit 1; fi
	@METALCUDA_DEVICE=apple bash tests/run.sh ptx
.PHONY: test-ptx-apple

# What can be checked of the macOS build on Linux (also the macos layer of
# make test): the assembly files for arm64/x86_64 macOS, the C sources
# against stand-in macOS headers, the exported-symbol lists.
check-macos:
	@bash tests/macos/run.sh
.PHONY: check-macos

# A CUDA-toolkit-shaped tree: bin/nvcc and bin/hipcc (the tool under those
# names), include/ (crt/cuabi.h copied from src/api/cuabi.h), lib/ with
# libcudart, libcuda and the device library, version.json.  Programs built
# by PREFIX/bin/nvcc find PREFIX/lib through their run path.
PREFIX ?= /usr/local/metalcuda
install: all
	mkdir -p $(PREFIX)/bin $(PREFIX)/lib $(PREFIX)/include
	cp $(TOOL) $(PREFIX)/bin/metalcuda
	ln -sf metalcuda $(PREFIX)/bin/nvcc
	ln -sf metalcuda $(PREFIX)/bin/hipcc
	cp -P $(LIBDIR)/libcuda.* $(LIBDIR)/libcudart.* $(PREFIX)/lib/   # .so* on Linux, .dylib on macOS
	@# the math libraries, where this build made them (they need clang's NVPTX back end)
	for f in $(LIBDIR)/libcublas.* $(LIBDIR)/libcublasLt.* $(LIBDIR)/libcufft.* $(LIBDIR)/libcurand.*; do \
	   if [ -e "$$f" ]; then cp -P "$$f" $(PREFIX)/lib/ || exit 1; fi; \
	done
	cp -R $(LIBDIR)/metalcuda $(PREFIX)/lib/
	@# prepared files record their own absolute paths: made again for the installed tree
	rm -rf $(PREFIX)/lib/metalcuda/prepared
	$(PREFIX)/bin/metalcuda prepare $(PREFIX)/lib/metalcuda/prepared || echo "make install: the software device will make these files in its cache instead"
	cp -RL include/. $(PREFIX)/include/
	find $(PREFIX)/include -name README.md -delete
	printf '{\n  "cuda": { "name": "CUDA SDK (metalcuda)", "version": "13.0.0" }\n}\n' > $(PREFIX)/version.json
	@# CMake's CUDA support wants the toolkit's nvvm/libdevice directory to exist
	mkdir -p $(PREFIX)/nvvm/libdevice
	printf 'metalcuda has no libdevice: its device library is lib/metalcuda/devlib.bc.\nThis directory is here because CMake looks for it to recognise a CUDA toolkit.\n' > $(PREFIX)/nvvm/libdevice/README

clean:
	rm -rf $(BUILD) build-asan lib bin

.PHONY: all unit test test-full demo asan asan-build asan-libs bench clean tests-build install
.SECONDARY:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# tests/ptx runner: talks to the driver API only, linked against our libcuda
# (tests/ptx/gen.sh builds the same source against NVIDIA's on a GPU machine).
PTX_RUN := $(BUILD)/tests/ptx/ptx_run
$(PTX_RUN): tests/ptx/ptx_run.c $(CUDA_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(call LINK_LIBCUDA,../../../$(LIBDIR)) $(LDLIBS)
tests-build: $(PTX_RUN)
# .incbin inputs do not appear in the dependency files.
$(BUILD)/src/compiler/msl/prelude.asm.o: $(wildcard src/compiler/msl/prelude/*.metal)

# The fp64 sweep (tests/ptx/f64_sweep.c, the sweep layer of make test-full):
# the same driver-API client, built like ptx_run.
F64_SWEEP := $(BUILD)/tests/ptx/f64_sweep
$(F64_SWEEP): tests/ptx/f64_sweep.c $(CUDA_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(call LINK_LIBCUDA,../../../$(LIBDIR)) $(LDLIBS)
tests-build: $(F64_SWEEP)
