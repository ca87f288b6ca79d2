package lang

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A source's line table and ASCII flag, found eight bytes at a time, are
// what a look at every byte finds: newlines and non-ASCII bytes at every
// place among the eight, next to bytes that the newline test may flag
// falsely (0x0b just above a newline), and in the tail past the last eight.
func TestSourceLinesAndASCIIAreWhatEveryByteShows(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for _, c := range []string{"\n", "\v", "\n\v", "\v\n", "\n\n", "é", "\x80", "\xff"} {
				b := []byte(strings.Repeat("k = 12\n", 3)[:n])
				text := string(b[:at]) + c + string(b[at:])
				src := NewSource("t", text)
				want := []int{0}
				for i := 0; i < len(text); i++ {
					if text[i] == '\n' {
						want = append(want, i+1)
					}
				}
				if !slices.Equal(src.lines, want) {
					t.Errorf("%q: lines %v, want %v", text, src.lines, want)
				}
				ascii := true
				for i := 0; i < len(text); i++ {
					ascii = ascii && text[i] < utf8.RuneSelf
				}
				if src.ASCII() != ascii {
					t.Errorf("%q: ASCII() = %v, want %v", text, src.ASCII(), ascii)
				}
			}
		}
	}
}
