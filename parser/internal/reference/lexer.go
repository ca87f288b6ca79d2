package reference

import (
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the participle lexer, one for each Kind.
const (
	tokComment lexer.TokenType = -2 - iota
	tokString
	tokNumber
	tokKeyword
	tokIdent
	tokPunct
)

var typeOf = [...]lexer.TokenType{
	Comment: tokComment, String: tokString, Number: tokNumber,
	Keyword: tokKeyword, Ident: tokIdent, Punct: tokPunct,
}

// lexDef is participle's lexer over Syntax.Scan.
type lexDef struct {
	scan func(rest string) (kind Kind, n int, msg string)
}

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

func (d lexDef) LexString(filename, input string) (lexer.Lexer, error) {
	return &scanner{scan: d.scan, src: input, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

// scanner reads tokens with Syntax.Scan.
type scanner struct {
	scan func(rest string) (kind Kind, n int, msg string)
	src  string
	pos  lexer.Position
}

// advance moves the position over n bytes.
func (s *scanner) advance(n int) {
	for end := s.pos.Offset + n; s.pos.Offset < end; {
		c := s.src[s.pos.Offset]
		if c == '\n' {
			s.pos.Line++
			s.pos.Column = 1
			s.pos.Offset++
			continue
		}
		_, size := utf8.DecodeRuneInString(s.src[s.pos.Offset:])
		s.pos.Offset += size
		s.pos.Column++
	}
}

func (s *scanner) Next() (lexer.Token, error) {
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
	kind, n, msg := s.scan(rest)
	if msg != "" {
		return lexer.Token{}, &lexer.Error{Pos: start, Msg: msg}
	}
	s.advance(n)
	return lexer.Token{Type: typeOf[kind], Value: rest[:n], Pos: start}, nil
}
