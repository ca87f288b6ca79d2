// Package parser reads Parasol machine descriptions into the lang AST.
//
// Two syntaxes produce the same tree: the modern block syntax, read by a
// hand-written recursive-descent parser (statements.go, expr.go) that is
// held to the participle grammar of grammar.go (specified in grammar.ebnf),
// and the Parasol I line format (legacy.go), whose values are parsed with
// the modern expression grammar. The parser evaluates nothing; it reports
// every syntax error it can find in one pass, each with a position.
package parser

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/lang"
)

// Limits bound what one source may demand of the parser, so that no input
// can exhaust the stack or memory.
const (
	MaxSourceBytes = 256 << 20
	MaxNesting     = 200 // brackets plus nested conditionals
	MaxErrors      = 20
)

// ParseFile parses a whole source, detecting the Parasol I format by its
// `machinename =` header lines.
func ParseFile(name, text string) (*lang.File, error) {
	// Editors may start a UTF-8 file with a byte order mark; it is not
	// part of the text (positions are as the editor shows them).
	text = strings.TrimPrefix(text, "\uFEFF")
	src := lang.NewSource(name, text)
	if len(text) > MaxSourceBytes {
		return nil, lang.Errorf(src.PosAt(0), "file is %d bytes; the limit is %d", len(text), MaxSourceBytes)
	}
	if d := checkText(src); d != nil {
		return nil, d
	}
	if IsLegacy(text) {
		return parseLegacy(src)
	}
	return parseModern(src)
}

var (
	legacyHeader = regexp.MustCompile(`(?m)^[ \t]*machinename[ \t]*=`)
	modernHeader = regexp.MustCompile(`(?m)^[ \t]*machine[ \t]+["\pL_]`)
)

// IsLegacy reports whether text is in the Parasol I line format: it has a
// `machinename = …` header line and no modern `machine "…" {` block.
func IsLegacy(text string) bool {
	return legacyHeader.MatchString(text) && !modernHeader.MatchString(text)
}

// checkText refuses input that is not text: one error at the first invalid
// UTF-8 sequence or NUL byte, instead of a syntax error per garbage token.
func checkText(src *lang.Source) *lang.Diagnostic {
	text := src.Text
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return lang.Errorf(src.PosAt(i), "invalid UTF-8 (byte 0x%02x): %s is not a text file", text[i], src.Name)
		case r == 0:
			return lang.Errorf(src.PosAt(i), "NUL byte: %s is not a text file", src.Name)
		}
		i += size
	}
	return nil
}

// checkNesting rejects inputs whose bracket or conditional nesting would make
// the recursive-descent parser recurse without bound.
func checkNesting(src *lang.Source, base int, text string) *lang.Diagnostic {
	depth, ifs, ops := 0, 0, 0
	inStr, inComment := false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch == '\n' {
			ops = 0
		}
		switch {
		case inComment:
			inComment = ch != '\n'
		case inStr:
			if ch == '\\' && i+1 < len(text) && text[i+1] != '\n' {
				i++ // an escaped character; a string never spans lines
			} else if ch == '"' || ch == '\n' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '#' || ch == '/' && i+1 < len(text) && text[i+1] == '/':
			inComment = true
		case ch == '+' || ch == '-' || ch == '*' || ch == '/' || ch == '^' ||
			ch == 'n' && strings.HasPrefix(text[i:], "not") && wordAt(text, i, 3):
			// Operators since the last statement boundary: the expression
			// parser would reject the expression anyway, but only after
			// participle has read every token of the input.
			if ops++; ops > MaxTerms {
				return lang.Errorf(src.PosAt(base+i), "expression longer than %d terms", MaxTerms)
			}
		case ch == '(' || ch == '[' || ch == '{':
			if ch == '{' {
				ops = 0
			}
			depth++
			if depth+ifs > MaxNesting {
				return lang.Errorf(src.PosAt(base+i), "nesting deeper than %d levels", MaxNesting)
			}
			if ch == '{' {
				ifs = 0
			}
		case ch == ')' || ch == ']' || ch == '}':
			depth--
			if ch == '}' {
				ifs, ops = 0, 0
			}
		case ch == ';' || ch == '=' && (i == 0 || !strings.ContainsRune("=!<>", rune(text[i-1]))) && (i+1 >= len(text) || text[i+1] != '='):
			ifs, ops = 0, 0
		case ch == 'i' && i+1 < len(text) && text[i+1] == 'f' && wordAt(text, i, 2):
			ifs++
			if depth+ifs > MaxNesting {
				return lang.Errorf(src.PosAt(base+i), "conditionals nested deeper than %d levels", MaxNesting)
			}
		}
	}
	return nil
}

func wordAt(text string, i, n int) bool {
	isWord := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	return (i == 0 || !isWord(text[i-1])) && (i+n >= len(text) || !isWord(text[i+n]))
}

// ParseExpr parses one expression, such as a query or a --set value. The
// source's name appears in diagnostics ("<query>", "--set").
func ParseExpr(name, text string) (lang.Expr, error) {
	src := lang.NewSource(name, text)
	return parseExprIn(src, 0, text)
}

// parseExprIn parses text, which stands at byte offset base of src.
func parseExprIn(src *lang.Source, base int, text string) (lang.Expr, error) {
	if d := checkNesting(src, base, text); d != nil {
		return nil, d
	}
	p := newStmtParser(src, base, base+len(text))
	e, err := p.expr()
	if err == nil {
		if t := p.s.peek(); t.kind != kEOF {
			err = unexpected(t, "an operator or the end of the expression")
		}
	}
	if err != nil {
		p.syntax(err)
	}
	if len(p.errs) > 0 {
		return e, p.errs.Err()
	}
	return e, nil
}

// Input is one REPL entry: statements (definitions) or an expression.
type Input struct {
	Stmts []lang.Stmt
	Expr  lang.Expr
}

// ParseInput parses a REPL entry: statements when it looks like a
// definition (name = …, f(x) = …, a block, a keyword statement), otherwise
// an expression.
func ParseInput(name, text string) (*Input, error) {
	src := lang.NewSource(name, text)
	if d := checkNesting(src, 0, text); d != nil {
		return nil, d
	}
	if looksLikeStmt(text) {
		f, err := parseModern(src)
		if err != nil {
			return nil, err
		}
		return &Input{Stmts: f.Stmts}, nil
	}
	e, err := parseExprIn(src, 0, text)
	if err != nil {
		return nil, err
	}
	return &Input{Expr: e}, nil
}

var stmtStart = regexp.MustCompile(`^\s*(machine|import|param|for|node|link|bus)\b|^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\([^)]*\))?\s*=[^=]|^\s*[A-Za-z_]\w*(\s+\S+)?\s*\{`)

func looksLikeStmt(text string) bool { return stmtStart.MatchString(text) }

// Incomplete reports whether text is the beginning of an entry that needs
// more lines: an open bracket or string, or a trailing operator or keyword.
// The REPL asks it before parsing.
func Incomplete(text string) bool {
	s := &tokStream{text: text, end: len(text), line: 1}
	lexFailed := false
	s.lexErr = func(token) { lexFailed = true }
	depth := 0
	var last token
	for {
		t := s.next()
		if lexFailed {
			return strings.Count(text, `"`)%2 == 1
		}
		if t.kind == kEOF {
			break
		}
		if t.kind == kPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		last = t
	}
	if depth > 0 {
		return true
	}
	switch last.text {
	case "=", "+", "-", "*", "/", "^", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not",
		"if", "then", "else", ",", "--", "..", "in", "extends":
		return true
	}
	return false
}

// String describes an Input for debugging.
func (in *Input) String() string {
	if in.Expr != nil {
		return lang.FormatExpr(in.Expr)
	}
	return fmt.Sprintf("%d statements", len(in.Stmts))
}
