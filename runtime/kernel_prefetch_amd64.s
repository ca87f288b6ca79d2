#include "textflag.h"

// func prefetch(addr uintptr)
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ	addr+0(FP), AX
	PREFETCHT0	(AX)
	RET

// func prefetchSpan(addr, n uintptr)
TEXT ·prefetchSpan(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ	addr+0(FP), AX
	MOVQ	n+8(FP), CX
	ADDQ	AX, CX
loop:
	CMPQ	AX, CX
	JAE	done
	PREFETCHT0	(AX)
	ADDQ	$64, AX
	JMP	loop
done:
	RET

// func prefetch3L2(a, b, c uintptr)
TEXT ·prefetch3L2(SB), NOSPLIT|NOFRAME, $0-24
	MOVQ	a+0(FP), AX
	PREFETCHT1	(AX)
	MOVQ	b+8(FP), AX
	PREFETCHT1	(AX)
	MOVQ	c+16(FP), AX
	PREFETCHT1	(AX)
	RET
