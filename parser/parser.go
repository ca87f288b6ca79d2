// Package parser reads Parasol machine descriptions into the lang AST.
//
// Two syntaxes produce the same tree: the modern block syntax, read by a
// hand-written recursive-descent parser (statements.go, expr.go) that is
// held to the participle grammar of parser/internal/reference (specified in
// grammar.ebnf, and linked only by tests), and the Parasol I line format
// (legacy.go), whose values are parsed with the modern expression grammar.
// Modernize (legacy_modernize.go, legacy_infer.go) rewrites a Parasol I
// tree in the modern syntax with the same meaning, as `parasol import`
// prints it; the evaluator gives it the schema. The parser evaluates nothing; it reports
// every syntax error it can find in one pass, each with a position.
package parser

import (
	"fmt"
	"iter"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/internal/swar"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
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
	if d := mixedSyntax(src); d != nil {
		return nil, d
	}
	if IsLegacy(text) {
		// The Parasol I reader checks the text as it reads it (readLegacy).
		return parseLegacy(src)
	}
	if d := checkText(src); d != nil {
		return nil, d
	}
	return parseModern(src)
}

// IsLegacy reports whether text is in the Parasol I line format: it has a
// `machinename = …` header line and no modern `machine "…" {` block (a
// line starting with `machine`, blanks, then a quote, a letter or '_').
func IsLegacy(text string) bool {
	legacy := false
	for _, isLegacy := range machineLines(text) {
		if !isLegacy {
			return false
		}
		legacy = true
	}
	return legacy
}

// machineLines yields, in order, where each line that starts a machine
// begins (blanks before it allowed) and whether it is a Parasol I
// `machinename = …` header (true) or a modern `machine NAME` block
// (false); other lines that merely start with "machine" are skipped.
func machineLines(text string) iter.Seq2[int, bool] {
	return func(yield func(int, bool) bool) {
		for off := 0; ; {
			k := strings.Index(text[off:], "machine")
			if k < 0 {
				return
			}
			k += off
			off = k + len("machine")
			j := k
			for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
				j--
			}
			if j > 0 && text[j-1] != '\n' {
				continue
			}
			rest := text[off:]
			if strings.HasPrefix(rest, "name") {
				if strings.HasPrefix(strings.TrimLeft(rest[len("name"):], " \t"), "=") && !yield(k, true) {
					return
				}
				continue
			}
			after := strings.TrimLeft(rest, " \t")
			if len(after) == len(rest) || after == "" {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(after); (r == '"' || r == '_' || unicode.IsLetter(r)) && !yield(k, false) {
				return
			}
		}
	}
}

// mixedSyntax is the one error of a file that has both a Parasol I
// `machinename = …` header line and a modern `machine … {` block, at the
// first line of the syntax that comes second, instead of the errors of
// reading one syntax's lines as the other's; nil when the file is in one.
func mixedSyntax(src *lang.Source) *lang.Diagnostic {
	legacy, modern := -1, -1
	for k, isLegacy := range machineLines(src.Text) {
		if isLegacy && legacy < 0 {
			legacy = k
		} else if !isLegacy && modern < 0 {
			modern = k
		}
		if legacy >= 0 && modern >= 0 {
			break
		}
	}
	if legacy < 0 || modern < 0 {
		return nil
	}
	first, second := src.PosAt(min(legacy, modern)), src.PosAt(max(legacy, modern))
	if legacy > modern {
		return lang.Errorf(second, "a Parasol I machine (machinename = …) in a file in the modern syntax (machine block at line %d): a file is in one syntax; convert the Parasol I machine with parasol import, in a file of its own", first.Line)
	}
	return lang.Errorf(second, "a modern machine block in a Parasol I file (machinename = … at line %d): a file is in one syntax; convert the Parasol I machines with parasol import, or move this block to a file of its own", first.Line)
}

// checkText refuses input that is not text: one error at the first invalid
// UTF-8 sequence or NUL byte, instead of a syntax error per garbage token.
func checkText(src *lang.Source) *lang.Diagnostic {
	return checkTextIn(src, 0, len(src.Text))
}

// checkTextIn is checkText of the bytes from..to of the source: a line, for
// the Parasol I reader, which checks only lines that hold other than
// printable ASCII. A UTF-8 sequence never spans a newline, so the first
// bad byte of a line is where checkText of the whole text finds it.
func checkTextIn(src *lang.Source, from, to int) *lang.Diagnostic {
	text := src.Text[:to]
	for i := from; i < len(text); {
		// Sixteen or eight bytes at a time while they are ASCII and not NUL.
		if i+16 <= len(text) {
			w0, w1 := swar.Load8(text, i), swar.Load8(text, i+8)
			if (w0|w1)&swar.High == 0 && ((w0-swar.Low)&^w0|(w1-swar.Low)&^w1)&swar.High == 0 {
				i += 16
				continue
			}
		}
		if i+8 <= len(text) {
			w := swar.Load8(text, i) // one load, one bounds check
			if w&swar.High == 0 && (w-swar.Low)&^w&swar.High == 0 {
				i += 8
				continue
			}
		}
		if c := text[i]; c != 0 && c < utf8.RuneSelf {
			i++
			continue
		}
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
	n := len(text)
	for i := 0; i < n; i++ {
		ch := text[i]
		switch nestClass[ch] {
		case nestNewline:
			ops = 0
		case nestWord:
			// Only whole words are keywords: not inside names (nothing),
			// numbers (2if) or units.
			j := i + 1
			for j < n && nestClass[text[j]] == nestWord {
				j++
			}
			switch text[i:j] {
			case "not":
				if ops++; ops > MaxTerms {
					return lang.Errorf(src.PosAt(base+i), "expression longer than %d terms", MaxTerms)
				}
			case "if":
				ifs++
				if depth+ifs > MaxNesting {
					return lang.Errorf(src.PosAt(base+i), "conditionals nested deeper than %d levels", MaxNesting)
				}
			}
			i = j - 1
		case nestQuote:
			j := i + 1
			for ; j < n; j++ {
				c := text[j]
				if c == '\\' && j+1 < n && text[j+1] != '\n' {
					j++ // an escaped character; a string never spans lines
				} else if c == '"' {
					break
				} else if c == '\n' {
					ops = 0
					break
				}
			}
			i = j
		case nestSlash:
			if i+1 >= n || text[i+1] != '/' {
				if ops++; ops > MaxTerms {
					return lang.Errorf(src.PosAt(base+i), "expression longer than %d terms", MaxTerms)
				}
				break
			}
			fallthrough
		case nestComment:
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return nil
			}
			i += j - 1 // the newline ends the statement too
		case nestOperator:
			// Operators since the last statement boundary: the expression
			// parser would reject the expression anyway, but only after
			// participle has read every token of the input.
			if ops++; ops > MaxTerms {
				return lang.Errorf(src.PosAt(base+i), "expression longer than %d terms", MaxTerms)
			}
		case nestOpen:
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
		case nestClose:
			depth--
			if ch == '}' {
				ifs, ops = 0, 0
			}
		case nestSemicolon:
			ifs, ops = 0, 0
		case nestEquals:
			if (i == 0 || !strings.ContainsRune("=!<>", rune(text[i-1]))) && (i+1 >= n || text[i+1] != '=') {
				ifs, ops = 0, 0
			}
		}
	}
	return nil
}

// Byte classes for checkNesting; most bytes are nestNone.
const (
	nestNone = iota
	nestNewline
	nestWord
	nestQuote
	nestSlash
	nestComment
	nestOperator
	nestOpen
	nestClose
	nestSemicolon
	nestEquals
)

var nestClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			t[c] = nestWord
		}
	}
	for c, class := range map[byte]uint8{
		'\n': nestNewline, '"': nestQuote, '/': nestSlash, '#': nestComment,
		'+': nestOperator, '-': nestOperator, '*': nestOperator, '^': nestOperator,
		'(': nestOpen, '[': nestOpen, '{': nestOpen, ')': nestClose, ']': nestClose, '}': nestClose,
		';': nestSemicolon, '=': nestEquals,
	} {
		t[c] = class
	}
	return t
}()

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
	p := newStmtParser(src, base, base+len(text), false)
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

var stmtStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(machine|import|param|for|node|link|bus|program)\b|^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\([^)]*\))?\s*=[^=]|^\s*[A-Za-z_]\w*(\s+\S+)?\s*\{|^\s*topology\s+[^\s(]\S*\s*=[^=]`)
})

func looksLikeStmt(text string) bool { return stmtStart().MatchString(text) }

// Incomplete reports whether text is the beginning of an entry that needs
// more lines: an open bracket or string, or a trailing operator or keyword.
// The REPL asks it before parsing.
func Incomplete(text string) bool {
	s := &tokStream{text: text, end: len(text), line: 1}
	lexFailed := false
	s.lexErr = func(token) { lexFailed = true }
	s.start()
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
		return format.Expr(in.Expr)
	}
	return fmt.Sprintf("%d statements", len(in.Stmts))
}
