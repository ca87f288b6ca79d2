package swar

import "testing"

// Load8 and Equal agree with reading and comparing byte by byte, for every
// byte value at every place of the word.
func TestWordsAgreeWithBytes(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			b := []byte("abcdefghij")
			b[1+pos] = byte(c)
			w := Load8(string(b), 1)
			for k := range 8 {
				if byte(w>>(8*k)) != b[1+k] {
					t.Fatalf("Load8 byte %d = %#x, want %#x", k, byte(w>>(8*k)), b[1+k])
				}
			}
			m := Equal(w, byte(c))
			if m&(0x80<<(8*pos)) == 0 {
				t.Fatalf("Equal(%q, %#x) did not flag byte %d", b[1:9], c, pos)
			}
			// A flag may be false only just above a true one.
			for k := range 8 {
				if m&(0x80<<(8*k)) != 0 && b[1+k] != byte(c) && (k == 0 || b[k] != byte(c)) {
					t.Fatalf("Equal(%q, %#x) flagged byte %d, not %#x nor above one", b[1:9], c, k, c)
				}
			}
		}
	}
}
