package lsp

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/lang"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Positions: the protocol counts lines from 0 and characters in UTF-16
// code units; lang counts lines from 1 and columns in runes, and keeps
// byte offsets. A text knows where its lines start, to convert both ways.

// lines is where each line of a text starts, as byte offsets.
type lines []int

func lineStarts(text string) lines {
	ls := lines{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// line returns line n's text (0-based) without its newline.
func (ls lines) line(text string, n int) string {
	if n < 0 || n >= len(ls) {
		return ""
	}
	end := len(text)
	if n+1 < len(ls) {
		end = ls[n+1] - 1
	}
	return text[ls[n]:end]
}

// offset converts a protocol position to a byte offset in text, clamped
// to the text.
func (ls lines) offset(text string, p protocol.Position) int {
	n := int(p.Line)
	if n >= len(ls) {
		return len(text)
	}
	line := ls.line(text, n)
	units := int(p.Character)
	i := 0
	for i < len(line) && units > 0 {
		r, w := utf8.DecodeRuneInString(line[i:])
		units -= utf16.RuneLen(r)
		if units < 0 {
			break // inside a surrogate pair: at the rune
		}
		i += w
	}
	return ls[n] + i
}

// position converts a byte offset in text to a protocol position.
func (ls lines) position(text string, off int) protocol.Position {
	off = min(max(off, 0), len(text))
	n := 0
	lo, hi := 0, len(ls)
	for lo < hi { // the last line starting at or before off
		mid := (lo + hi) / 2
		if ls[mid] <= off {
			n, lo = mid, mid+1
		} else {
			hi = mid
		}
	}
	units := 0
	for _, r := range text[ls[n]:off] {
		units += utf16.RuneLen(r)
	}
	return protocol.Position{Line: protocol.UInteger(n), Character: protocol.UInteger(units)}
}

// fromPos converts a lang position in this text to a protocol position.
// Its byte offset is used when it has one in this text; otherwise its line
// and rune column.
func (ls lines) fromPos(text string, p lang.Pos) protocol.Position {
	if p.Src != nil && p.Src.Text == text {
		return ls.position(text, p.Offset)
	}
	n := p.Line - 1
	if n < 0 {
		return protocol.Position{}
	}
	line := ls.line(text, n)
	off, col := 0, 1
	for off < len(line) && col < p.Col {
		_, w := utf8.DecodeRuneInString(line[off:])
		off += w
		col++
	}
	if n >= len(ls) {
		return ls.position(text, len(text))
	}
	return ls.position(text, ls[n]+off)
}

// span is the protocol range from byte offset a to b.
func (ls lines) span(text string, a, b int) protocol.Range {
	return protocol.Range{Start: ls.position(text, a), End: ls.position(text, max(a, b))}
}

// isWordByte reports whether c may be part of a name.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wordAt returns the bounds of the name around byte offset off, or off, off.
func wordAt(text string, off int) (int, int) {
	a, b := off, off
	for a > 0 && isWordByte(text[a-1]) {
		a--
	}
	for b < len(text) && isWordByte(text[b]) {
		b++
	}
	return a, b
}
