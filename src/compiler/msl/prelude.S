/* The MSL prelude (the .metal files of prelude/, in this order), embedded as one
 * NUL-terminated string so the compiler needs no files at run time.
 * Mach-O has no .rodata: Apple's assembler (and clang's for *-apple-*)
 * rejects `.section .rodata`; read-only data goes to __TEXT,__const
 * (`.const`) there.  tests/macos assembles this for arm64 and x86_64 macOS. */
#if defined(__APPLE__)
#define SYM(x) _##x
	.const
	.globl SYM(msl_prelude_text)
	.private_extern SYM(msl_prelude_text)
#else
#define SYM(x) x
	.section .rodata
	.globl SYM(msl_prelude_text)
	.hidden SYM(msl_prelude_text)
	.type SYM(msl_prelude_text), @object
#endif
SYM(msl_prelude_text):
	.incbin "src/compiler/msl/prelude/base.metal"
	.incbin "src/compiler/msl/prelude/int.metal"
	.incbin "src/compiler/msl/prelude/video.metal"
	.incbin "src/compiler/msl/prelude/float.metal"
	.incbin "src/compiler/msl/prelude/round.metal"
	.incbin "src/compiler/msl/prelude/sfu.metal"
	.incbin "src/compiler/msl/prelude/f64.metal"
	.incbin "src/compiler/msl/prelude/warp.metal"
	.incbin "src/compiler/msl/prelude/atom.metal"
	.incbin "src/compiler/msl/prelude/tma.metal"
	.incbin "src/compiler/msl/prelude/mma.metal"
	.incbin "src/compiler/msl/prelude/heap.metal"
	.incbin "src/compiler/msl/prelude/call.metal"
	.incbin "src/compiler/msl/prelude/tex.metal"
	.byte 0
#if !defined(__APPLE__)
	.section .note.GNU-stack,"",@progbits
#endif
