// Package lang holds what every stage of Parasol shares: source text and
// positions, diagnostics, the syntax tree, the table of the syntax's words
// and operators, and values with units.
//
// Nothing here evaluates, parses or prints; the parser produces the tree
// defined in ast.go, reading its keywords, symbols and operators from
// token.go; analyses traverse it with Inspect (walk.go); the evaluator
// consumes it and reports problems as Diagnostics that point back into a
// Source; package lang/format prints it.
package lang

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/swar"
)

// Source is one named piece of text: a file, a REPL entry, a --set value.
type Source struct {
	Name  string
	Text  string
	lines []int // byte offset of each line start
	ascii bool  // columns are byte offsets
	// first is the number of lines before Text in the file it comes from
	// (NewSourceLine), 0 for a whole file.
	first int
}

// Same reports whether s and t are the same source: the same Source, or
// copies of one, which hold the same text under the same name. Compare
// positions' sources with Same, not ==: the Parasol I reader gives the
// positions of the link blocks it allocates together a copy of the source
// within that allocation, which the garbage collector passes over as it
// does the blocks' other pointers to one another.
func (s *Source) Same(t *Source) bool {
	return s == t || s != nil && t != nil && s.Name == t.Name && s.first == t.first &&
		unsafe.StringData(s.Text) == unsafe.StringData(t.Text) && len(s.Text) == len(t.Text)
}

// NewSource records text under a name for positions and snippets.
func NewSource(name, text string) *Source {
	// The line table is made at its size: a large file's table grown by
	// appending would take several times its memory.
	lines := make([]int, 1, 1+strings.Count(text, "\n"))
	lines, ascii := lineStarts(text, lines)
	return &Source{Name: name, Text: text, lines: lines, ascii: ascii}
}

// lineStarts appends to lines the offset after each newline of text, and
// reports whether text is all ASCII: one pass, sixteen bytes at a time, where
// a search per line would pay a call for each of a large file's short lines.
func lineStarts(text string, lines []int) ([]int, bool) {
	var or uint64
	i := 0
	// Sixteen bytes at a time, in which a long line mostly has no newline.
	for ; i+16 <= len(text); i += 16 {
		b := text[i : i+16] // one bounds check for the sixteen bytes
		w0, w1 := swar.Load8(b, 0), swar.Load8(b, 8)
		or |= w0 | w1
		m0, m1 := swar.Equal(w0, '\n'), swar.Equal(w1, '\n')
		if m0|m1 == 0 {
			continue
		}
		lines = appendNewlines(lines, b[:8], i, m0)
		lines = appendNewlines(lines, b[8:], i+8, m1)
	}
	for ; i < len(text); i++ {
		or |= uint64(text[i])
		if text[i] == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines, or&swar.High == 0
}

// appendNewlines appends the offset after each newline among the eight
// bytes b, at offset off of the text, that m flags (swar.Equal's flags:
// each is checked).
func appendNewlines(lines []int, b string, off int, m uint64) []int {
	for ; m != 0; m &= m - 1 {
		if j := bits.TrailingZeros64(m) >> 3; b[j] == '\n' {
			lines = append(lines, off+j+1)
		}
	}
	return lines
}

// ASCII reports whether the text is all ASCII, so that a column is a byte
// offset.
func (s *Source) ASCII() bool { return s.ascii }

// NewSourceLine records line n (1-based) of a file that is read as a
// stream and not kept whole (a GOAL schedule of gigabytes), so that a
// diagnostic on that line shows it under its real number.
func NewSourceLine(name, line string, n int) *Source {
	s := NewSource(name, line)
	s.first = max(n-1, 0)
	return s
}

// Line returns the text of line n (1-based) without its newline.
func (s *Source) Line(n int) string {
	if s != nil {
		n -= s.first
	}
	if s == nil || n < 1 || n > len(s.lines) {
		return ""
	}
	start := s.lines[n-1]
	end := len(s.Text)
	if n < len(s.lines) {
		end = s.lines[n] - 1
	}
	return strings.TrimRight(s.Text[start:end], "\r")
}

// PosAt converts a byte offset into a position.
func (s *Source) PosAt(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(s.Text) {
		offset = len(s.Text)
	}
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > offset }) - 1
	col := 1 + offset - s.lines[i]
	if !s.ascii {
		col = 1 + utf8.RuneCountInString(s.Text[s.lines[i]:offset])
	}
	return Pos{Src: s, Offset: offset, Line: s.first + i + 1, Col: col}
}

// Pos is a position in a Source. The zero Pos means "no position".
type Pos struct {
	Src    *Source
	Offset int
	Line   int // 1-based
	Col    int // 1-based, in runes
}

// IsValid reports whether p points somewhere.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	name := "<input>"
	if p.Src != nil && p.Src.Name != "" {
		name = p.Src.Name
	}
	if !p.IsValid() {
		return name
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Col)
}
