/* The MSL prelude (the .metal files of prelude/, in this order), embedded as one
 * NUL-terminated string so the compiler needs no files at run time. */
#if defined(__APPLE__)
#define SYM(x) _##x
#else
#define SYM(x) x
#endif
	.section .rodata
	.globl SYM(msl_prelude_text)
#if !defined(__APPLE__)
	.hidden SYM(msl_prelude_text)
	.type SYM(msl_prelude_text), @object
#else
	.private_extern SYM(msl_prelude_text)
#endif
SYM(msl_prelude_text):
	.incbin "src/compiler/msl/prelude/base.metal"
	.incbin "src/compiler/msl/prelude/int.metal"
	.incbin "src/compiler/msl/prelude/float.metal"
	.incbin "src/compiler/msl/prelude/round.metal"
	.incbin "src/compiler/msl/prelude/f64.metal"
	.incbin "src/compiler/msl/prelude/warp.metal"
	.incbin "src/compiler/msl/prelude/atom.metal"
	.incbin "src/compiler/msl/prelude/call.metal"
	.byte 0
#if !defined(__APPLE__)
	.section .note.GNU-stack,"",@progbits
#endif
