package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/lang"
)

// The modern syntax's tokens are read by one hand-written scanner
// (scanToken). The statement parser reads them through a tokStream; the
// participle reference grammar (parser/internal/reference, which only
// tests link) reads the same tokens through scanToken.

type tokKind uint8

const (
	kEOF tokKind = iota
	kString
	kNumber
	kKeyword
	kIdent
	kPunct
	kComment
	kError // a lexical error; the token's text is the message
)

// token is one token of the source: its text is a slice of the source
// (a message for kError), line and lineStart locate it for positions.
// Offsets fit in 32 bits (MaxSourceBytes), which keeps tokens small to copy.
type token struct {
	kind      tokKind
	text      string
	off       int32
	line      int32
	lineStart int32
}

func (t token) punct(text string) bool   { return t.kind == kPunct && t.text == text }
func (t token) keyword(text string) bool { return t.kind == kKeyword && t.text == text }

// scanToken reads the token at the start of rest, which is not white
// space: its kind and length, or a message for a lexical error (then n is
// how much to skip).
func scanToken(rest string) (kind tokKind, n int, msg string) {
	c := rest[0]
	switch {
	case c == '#' || c == '/' && len(rest) > 1 && rest[1] == '/':
		return kComment, lineEnd(rest), ""
	case c == '"':
		n = 1
		for n < len(rest) && rest[n] != '"' && rest[n] != '\n' {
			if rest[n] == '\\' && n+1 < len(rest) && rest[n+1] != '\n' {
				n++
			}
			n++
		}
		if n >= len(rest) || rest[n] != '"' {
			return kError, n, "unterminated string"
		}
		return kString, n + 1, ""
	case isDigit(c) || c == '.' && len(rest) > 1 && isDigit(rest[1]):
		return kNumber, scanNumber(rest), ""
	case isLetter(c):
		n = 1
		for n < len(rest) && (isLetter(rest[n]) || isDigit(rest[n])) {
			n++
		}
		if lang.IsKeyword(rest[:n]) {
			return kKeyword, n, ""
		}
		return kIdent, n, ""
	}
	if n := lang.Symbol(rest); n > 0 {
		return kPunct, n, ""
	}
	r, size := utf8.DecodeRuneInString(rest)
	msg = fmt.Sprintf("unexpected character %q", r)
	if r >= utf8.RuneSelf {
		msg += fmt.Sprintf(" (U+%04X)", r) // tells a look-alike from the letter it imitates
	}
	return kError, size, msg
}

// tokStream is the token stream the hand-written parsers read, with two
// tokens of lookahead (the next one always scanned, so peek is a field
// read). It tracks lines as it goes, so positions cost no search; comments
// are collected on the way when collect is set.
type tokStream struct {
	src   *lang.Source
	text  string
	i     int // next byte to scan
	end   int // scanning stops here
	line  int
	lsta  int // offset of the current line's start
	ascii bool

	tok   token // the next token
	tok2  token // the one after, when has2
	has2  bool
	last  token // the last token consumed
	count int   // tokens consumed

	collect  bool
	comments []*lang.Comment
	lexErr   func(t token) // reports a lexical error when it is scanned
}

// init prepares s to read src.Text[start:end]; start scans the first token
// once collect and lexErr are set.
func (s *tokStream) init(src *lang.Source, start, end int) {
	text := src.Text
	*s = tokStream{src: src, text: text, i: start, end: end, line: 1, ascii: true}
	if start > 0 {
		s.line = src.PosAt(start).Line
		s.lsta = strings.LastIndexByte(text[:start], '\n') + 1
	}
	if start > 0 || end < len(text) || !src.ASCII() {
		for i := s.lsta; i < end; i++ {
			if text[i] >= utf8.RuneSelf {
				s.ascii = false
				break
			}
		}
	}
	s.last = token{kind: kEOF, off: int32(start), line: int32(s.line), lineStart: int32(s.lsta)}
}

func (s *tokStream) start() {
	s.tok = s.scan()
}

// scan reads the next token that is not a comment.
func (s *tokStream) scan() token {
	text := s.text
	for {
		i := s.i
		for i < s.end {
			c := text[i]
			if c == '\n' {
				s.line++
				s.lsta = i + 1
			} else if c != ' ' && c != '\t' && c != '\r' {
				break
			}
			i++
		}
		if i >= s.end {
			s.i = i
			return token{kind: kEOF, off: int32(i), line: int32(s.line), lineStart: int32(s.lsta)}
		}
		kind, n, msg := scanToken(text[i:s.end])
		s.i = i + n
		switch kind {
		case kComment:
			if s.collect {
				t := token{kind: kind, off: int32(i), line: int32(s.line), lineStart: int32(s.lsta)}
				s.comments = append(s.comments, &lang.Comment{Pos: s.pos(t), Text: trimRight(text[i : i+n])})
			}
			continue
		case kError:
			t := token{kind: kind, text: msg, off: int32(i), line: int32(s.line), lineStart: int32(s.lsta)}
			if s.lexErr != nil {
				s.lexErr(t)
			}
			return t
		}
		return token{kind: kind, text: text[i : i+n], off: int32(i), line: int32(s.line), lineStart: int32(s.lsta)}
	}
}

func trimRight(s string) string {
	n := len(s)
	for n > 0 && (s[n-1] == ' ' || s[n-1] == '\t' || s[n-1] == '\r') {
		n--
	}
	return s[:n]
}

func (s *tokStream) peek() token { return s.tok }

// peek2 is the token after the next.
func (s *tokStream) peek2() token {
	if !s.has2 {
		s.tok2 = s.scan()
		s.has2 = true
	}
	return s.tok2
}

func (s *tokStream) next() token {
	t := s.tok
	if t.kind == kEOF {
		return t
	}
	switch {
	case s.has2:
		s.tok, s.has2 = s.tok2, false
	default:
		s.tok = s.scan()
	}
	s.last = t
	s.count++
	return t
}

// pos is the position of t.
func (s *tokStream) pos(t token) lang.Pos {
	col := 1 + int(t.off-t.lineStart)
	if !s.ascii {
		col = 1 + utf8.RuneCountInString(s.text[t.lineStart:t.off])
	}
	return lang.Pos{Src: s.src, Offset: int(t.off), Line: int(t.line), Col: col}
}

func lineEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return len(s)
}

// scanNumber reads digits, a fraction, an exponent, then a unit written
// against the number: 1.2us, 20Mbit/s, 30%.
func scanNumber(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
		n++
		for n < len(s) && isDigit(s[n]) {
			n++
		}
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		m := n + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			n = m
		}
	}
	if n < len(s) && s[n] == '%' {
		return n + 1
	}
	u := n
	for u < len(s) {
		c := s[u]
		if c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				u++
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(s[u:])
		if r == 'µ' || r == 'μ' {
			u += size
			continue
		}
		break
	}
	// A unit over a unit (20Mbit/s, 6ns/B, 1us/KB) is one unit when the
	// whole is a unit the language knows.
	if u > n && u+1 < len(s) && s[u] == '/' && isLetter(s[u+1]) {
		v := u + 1
		for v < len(s) && (isLetter(s[v]) || isDigit(s[v])) {
			v++
		}
		if _, ok := lang.LookupUnit(s[n:v]); ok {
			u = v
		}
	}
	return u
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
