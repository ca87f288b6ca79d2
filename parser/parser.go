// Package parser reads Parasol machine descriptions into the lang AST.
//
// Two syntaxes produce the same tree: the modern block syntax (grammar.go,
// specified in grammar.ebnf) and the Parasol I line format (legacy.go),
// whose values are parsed with the modern expression grammar. The parser
// evaluates nothing; it reports every syntax error it can find, each with a
// position, by re-parsing with the offending line blanked out.
package parser

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
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

func parseModern(src *lang.Source) (*lang.File, error) {
	var errs lang.Diagnostics
	if d := checkNesting(src, 0, src.Text); d != nil {
		return nil, d
	}
	text := src.Text
	var g *gFile
	blanked := map[int]int{} // line → times blanked
	for {
		var err error
		g, err = fileParser.ParseString(src.Name, text)
		if err == nil {
			break
		}
		d := syntaxError(src, 0, err)
		// A new error on a line already blanked comes from the blanking
		// (braces kept out of their context), not from the user's text.
		if blanked[d.Pos.Line] == 0 || len(errs) == 0 {
			errs = append(errs, d)
		}
		if len(errs) >= MaxErrors || !d.Pos.IsValid() || blanked[d.Pos.Line] >= 2 {
			return nil, errs.Err()
		}
		line := d.Pos.Line
		text = blankLine(text, line, blanked[line] > 0)
		blanked[line]++
	}
	c := &converter{src: src}
	f := &lang.File{Src: src, Stmts: c.stmts(g.Stmts), Comments: comments(src)}
	errs = append(errs, c.errs...)
	if len(errs) > 0 {
		return f, errs.Err()
	}
	return f, nil
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

// blankLine replaces a line's text by spaces so the parser can go on past a
// syntax error; braces are kept the first time to preserve block structure.
func blankLine(text string, line int, all bool) string {
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return text
		}
		start += i + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += start
	}
	b := []byte(text)
	for i := start; i < end; i++ {
		if all || (b[i] != '{' && b[i] != '}') {
			b[i] = ' '
		}
	}
	return string(b)
}

// grammarNames says in words what a grammar rule is.
var grammarNames = map[string]string{
	"GPostfix": "an expression", "GExpr": "an expression", "GUnary": "an expression",
	"GStmt": "a statement", "GField": "a field", "GParam": "a parameter name",
	"GBlock": "a block", "GName": "a name", "GArgs": "arguments", "GClose": "'}'",
}

var grammarRef = regexp.MustCompile(`\bG[A-Z][A-Za-z]*\b`)

// syntaxError turns participle's error into a diagnostic that says what was
// expected, in words a user of the language knows.
func syntaxError(src *lang.Source, base int, err error) *lang.Diagnostic {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return lang.Errorf(src.PosAt(base), "%v", err)
	}
	p := perr.Position()
	pos := src.PosAt(base + p.Offset)
	msg := perr.Message()
	msg = strings.ReplaceAll(msg, `"}"`, "'}'")
	msg = grammarRef.ReplaceAllStringFunc(msg, func(g string) string {
		if w, ok := grammarNames[g]; ok {
			return w
		}
		return "more input"
	})
	if strings.HasPrefix(msg, "unexpected token \"<EOF>\"") {
		msg = "unexpected end of input" + strings.TrimPrefix(msg, "unexpected token \"<EOF>\"")
	}
	return lang.Errorf(pos, "syntax error: %s", msg)
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
			if ch == '\\' {
				i++
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

// comments lists the comments of a modern-syntax source.
func comments(src *lang.Source) []*lang.Comment {
	lex, _ := modernLexer.LexString(src.Name, src.Text)
	var out []*lang.Comment
	for {
		t, err := lex.Next()
		if err != nil || t.EOF() {
			return out
		}
		if t.Type == tokComment {
			out = append(out, &lang.Comment{Pos: src.PosAt(t.Pos.Offset), Text: strings.TrimRight(t.Value, " \t\r")})
		}
	}
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
	g, err := exprParser.ParseString(src.Name, text)
	if err != nil {
		return nil, syntaxError(src, base, err)
	}
	c := &converter{src: src, base: base}
	e := c.expr(g.X)
	if len(c.errs) > 0 {
		return e, c.errs.Err()
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
	lex, _ := modernLexer.LexString("", text)
	depth := 0
	var last lexer.Token
	for {
		t, err := lex.Next()
		if err != nil {
			return strings.Count(text, `"`)%2 == 1
		}
		if t.EOF() {
			break
		}
		if t.Type == tokComment {
			continue
		}
		switch t.Value {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
		last = t
	}
	if depth > 0 {
		return true
	}
	switch last.Value {
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
