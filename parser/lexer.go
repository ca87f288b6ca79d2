package parser

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the modern syntax. The lexer is hand-written: participle's
// regexp lexer spent most of the parse time matching patterns.
const (
	tokComment lexer.TokenType = -2 - iota
	tokString
	tokNumber
	tokKeyword
	tokIdent
	tokPunct
)

var keywords = map[string]bool{
	"machine": true, "extends": true, "import": true, "param": true, "if": true,
	"then": true, "else": true, "for": true, "in": true, "and": true, "or": true,
	"not": true, "true": true, "false": true, "sum": true,
	// Statement words: keywords so that statements are told apart by their
	// first token; in expressions they still name references (link(0)).
	"node": true, "link": true, "bus": true,
}

type lexDef struct{}

var modernLexer = lexDef{}

func (lexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": lexer.EOF, "Comment": tokComment, "String": tokString, "Number": tokNumber,
		"Keyword": tokKeyword, "Ident": tokIdent, "Punct": tokPunct,
	}
}

func (d lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (lexDef) LexString(filename, input string) (lexer.Lexer, error) {
	return &scanner{src: input, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

type scanner struct {
	src string
	pos lexer.Position
}

// advance moves the position over n bytes.
func (s *scanner) advance(n int) {
	for i := 0; i < n; {
		c := s.src[s.pos.Offset]
		if c == '\n' {
			s.pos.Line++
			s.pos.Column = 1
			s.pos.Offset++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s.src[s.pos.Offset:])
		s.pos.Offset += size
		s.pos.Column++
		i += size
	}
}

func (s *scanner) Next() (lexer.Token, error) {
	// Skip white space.
	for s.pos.Offset < len(s.src) {
		c := s.src[s.pos.Offset]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		s.advance(1)
	}
	start := s.pos
	rest := s.src[s.pos.Offset:]
	if rest == "" {
		return lexer.Token{Type: lexer.EOF, Pos: start}, nil
	}
	c := rest[0]
	n, typ := 0, lexer.TokenType(0)
	switch {
	case c == '#' || c == '/' && len(rest) > 1 && rest[1] == '/':
		n, typ = lineEnd(rest), tokComment
	case c == '"':
		n = 1
		for n < len(rest) && rest[n] != '"' && rest[n] != '\n' {
			if rest[n] == '\\' && n+1 < len(rest) {
				n++
			}
			n++
		}
		if n >= len(rest) || rest[n] != '"' {
			return lexer.Token{}, &lexer.Error{Pos: start, Msg: "unterminated string"}
		}
		n, typ = n+1, tokString
	case isDigit(c) || c == '.' && len(rest) > 1 && isDigit(rest[1]):
		n, typ = scanNumber(rest), tokNumber
	case isLetter(c):
		n = 1
		for n < len(rest) && (isLetter(rest[n]) || isDigit(rest[n])) {
			n++
		}
		typ = tokIdent
		if keywords[rest[:n]] {
			typ = tokKeyword
		}
	default:
		typ = tokPunct
		if len(rest) > 1 {
			switch rest[:2] {
			case "--", "..", "==", "!=", "<=", ">=":
				n = 2
			}
		}
		if n == 0 {
			switch c {
			case '-', '+', '*', '/', '^', '(', ')', '{', '}', ',', '.', '=', '<', '>', ';', ':', '[', ']', '%':
				n = 1
			default:
				r, _ := utf8.DecodeRuneInString(rest)
				msg := fmt.Sprintf("unexpected character %q", r)
				if r >= utf8.RuneSelf {
					msg += fmt.Sprintf(" (U+%04X)", r) // tells a look-alike from the letter it imitates
				}
				return lexer.Token{}, &lexer.Error{Pos: start, Msg: msg}
			}
		}
	}
	s.advance(n)
	return lexer.Token{Type: typ, Value: rest[:n], Pos: start}, nil
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
		r, size := utf8.DecodeRuneInString(s[u:])
		if r == 'µ' || r == 'μ' || r < utf8.RuneSelf && (s[u] >= 'a' && s[u] <= 'z' || s[u] >= 'A' && s[u] <= 'Z') {
			u += size
			continue
		}
		break
	}
	if u > n && u+1 < len(s) && s[u] == '/' && s[u+1] == 's' && (u+2 == len(s) || !isLetter(s[u+2]) && !isDigit(s[u+2])) {
		u += 2
	}
	return u
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
