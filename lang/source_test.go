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

// Same holds of a source and its copies, and of nothing else: not of
// another file's source, nor of one with the same text under another
// name, nor of nil beside a source.
func TestSourceSameHoldsOfCopies(t *testing.T) {
	a := NewSource("a.machine", "x = 1\n")
	cp := *a
	for _, c := range []struct {
		s, t *Source
		want bool
	}{
		{a, a, true},
		{a, &cp, true},
		{&cp, a, true},
		{nil, nil, true},
		{a, nil, false},
		{nil, a, false},
		{a, NewSource("b.machine", a.Text), false},
		{a, NewSource("a.machine", "x = 2\n"), false},
		{a, NewSourceLine("a.machine", a.Text, 3), false},
	} {
		if got := c.s.Same(c.t); got != c.want {
			t.Errorf("Same(%p, %p) = %v, want %v", c.s, c.t, got, c.want)
		}
	}
}
