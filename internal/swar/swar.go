// Package swar reads text eight bytes at a time in a 64-bit word ("SIMD
// within a register"): the source's line table and the parsers' text
// checks test eight bytes with a few arithmetic operations instead of one
// comparison a byte.
package swar

// Low has the low bit of each byte set, High the high bit: c*Low repeats
// byte c, and a mask & High keeps one flag a byte.
const Low, High = 0x0101010101010101, 0x8080808080808080

// Load8 reads the eight bytes of s from i on as one word, the first
// lowest (one bounds check for the eight).
func Load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Equal flags the high bit of each byte of w that is c, and may flag one
// just above a byte that is c when the byte flagged is not: callers check
// each flag they act on.
func Equal(w uint64, c byte) uint64 {
	x := w ^ uint64(c)*Low
	return (x - Low) &^ x & High
}
