/* The MSL prelude (prelude/prelude.metal), embedded as a NUL-terminated
 * string so the compiler needs no files at run time. */
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
	.incbin "src/compiler/msl/prelude/prelude.metal"
	.byte 0
#if !defined(__APPLE__)
	.section .note.GNU-stack,"",@progbits
#endif
