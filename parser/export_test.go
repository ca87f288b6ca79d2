package parser

import (
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser/internal/reference"
)

// The external tests compare the hand-written parsers with the participle
// reference grammar.
var ParseModern = parseModern

func ParseExprSource(src *lang.Source) (lang.Expr, error) { return parseExprIn(src, 0, src.Text) }

var CheckNesting = checkNesting

// Reference is the participle reference grammar over this package's
// scanner, expression parser and statement rules.
var Reference = reference.New(reference.Syntax{
	Scan:      referenceScan,
	Expr:      referenceExpr,
	Check:     func(src *lang.Source) *lang.Diagnostic { return checkNesting(src, 0, src.Text) },
	Call:      doCall,
	LinkLabel: linkLabel,
	Unquote:   unquoteName,
})

// referenceKinds are the reference grammar's kinds of this package's tokens.
var referenceKinds = [...]reference.Kind{
	kComment: reference.Comment, kString: reference.String, kNumber: reference.Number,
	kKeyword: reference.Keyword, kIdent: reference.Ident, kPunct: reference.Punct,
}

// referenceScan is scanToken for the reference grammar.
func referenceScan(rest string) (reference.Kind, int, string) {
	kind, n, msg := scanToken(rest)
	if kind == kError {
		return 0, n, msg
	}
	return referenceKinds[kind], n, ""
}

// referenceExpr is the Expr production of the reference grammar: the
// expression parser at byte offset off of src, without number literals'
// values (the grammar's converter sets them). After a syntax error it
// skips what is left of the line the error is on (not past a closing
// brace), so that participle resumes at the next statement without
// backtracking over the error.
func referenceExpr(src *lang.Source, off int, named bool) reference.Expr {
	var s tokStream
	s.init(src, off, len(src.Text))
	s.start()
	start := s.peek()
	if !startsExpr(start) {
		return reference.Expr{}
	}
	p := &xparser{s: &s, a: &arena{}, names: named}
	e, err := p.expr(1)
	if err == nil {
		return reference.Expr{OK: true, X: e, End: int(s.peek().off)}
	}
	// An error that opens a new line ends the expression incomplete on
	// the line before: that line is a statement of its own.
	if line := err.tok.line; line <= s.last.line {
		for t := s.peek(); t.kind != kEOF && t.line <= line && !t.punct("}") && !t.punct(";"); t = s.peek() {
			s.next()
		}
	}
	return reference.Expr{OK: true, ErrOffset: int(err.tok.off), ErrMsg: err.msg, End: int(s.peek().off)}
}
