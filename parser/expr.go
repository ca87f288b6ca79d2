package parser

import (
	"errors"
	"strconv"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// parseExpr is the expression production, registered with participle's
// ParseTypeWith as in participle's expr4 example: precedence climbing over
// the token stream, iterative along operator chains, with nesting bounded.
// Nodes carry only byte offsets; the converter fills in full positions and
// unit values.
func parseExpr(lex *lexer.PeekingLexer) (lang.Expr, error) {
	if !startsExpr(lex.Peek()) {
		return nil, participle.NextMatch
	}
	p := &xparser{lex: lex}
	start := lex.Peek()
	e, err := p.expr(1)
	if err != nil {
		return p.recover(start, err), nil
	}
	return e, nil
}

// badExpr stands for an expression with a syntax error. The parser skips to
// the end of the line and goes on, so participle does not backtrack over
// the error and every statement's errors are found in one pass; the
// converter reports them.
type badExpr struct {
	pos lang.Pos
	err error
}

func (b *badExpr) ExprPos() lang.Pos { return b.pos }

// recover skips what is left of the line the error is on (not past a
// closing brace), so that parsing resumes at the next statement.
func (p *xparser) recover(start *lexer.Token, err error) lang.Expr {
	line := start.Pos.Line
	var perr participle.Error
	if errors.As(err, &perr) {
		line = perr.Position().Line
	}
	if line > p.lastLine {
		// The error opens a new line: the expression ended incomplete
		// on the line before, and this line is a statement of its own.
		return &badExpr{pos: at(start), err: err}
	}
	for {
		t := p.lex.Peek()
		if t.EOF() || t.Pos.Line > line || t.Type == tokPunct && (t.Value == "}" || t.Value == ";") {
			break
		}
		p.next()
	}
	return &badExpr{pos: at(start), err: err}
}

type xparser struct {
	lex      *lexer.PeekingLexer
	depth    int
	terms    int // operands and prefix operators so far, bounded by MaxTerms
	lastLine int // line of the last token consumed
}

// MaxTerms bounds the operands and operators of one expression: evaluating
// its tree recurses as deep as its longest operator chain.
const MaxTerms = 10_000

func (p *xparser) term(t *lexer.Token) error {
	if p.terms++; p.terms > MaxTerms {
		return participle.Errorf(t.Pos, "expression longer than %d terms", MaxTerms)
	}
	return nil
}

func (p *xparser) next() *lexer.Token {
	t := p.lex.Next()
	p.lastLine = t.Pos.Line
	return t
}

func startsExpr(t *lexer.Token) bool {
	switch t.Type {
	case tokNumber, tokString, tokIdent:
		return true
	case tokKeyword:
		switch t.Value {
		case "if", "not", "true", "false", "sum", "node", "link", "bus":
			return true
		}
	case tokPunct:
		switch t.Value {
		case "(", "-", "+", "--":
			return true
		}
	}
	return false
}

func at(t *lexer.Token) lang.Pos { return lang.Pos{Offset: t.Pos.Offset} }

func (p *xparser) enter(t *lexer.Token) error {
	p.depth++
	if p.depth > MaxNesting {
		return participle.Errorf(t.Pos, "nesting deeper than %d levels", MaxNesting)
	}
	return nil
}

func (p *xparser) expect(value, what string) (*lexer.Token, error) {
	t := p.lex.Peek()
	if t.Value != value || t.Type == tokString {
		return nil, &participle.UnexpectedTokenError{Unexpected: *t, Expect: what}
	}
	return p.next(), nil
}

// binaryPrec is an operator's precedence, 0 for a token that is not a binary
// operator. ^ is handled with the prefixes.
func binaryPrec(t *lexer.Token) int {
	if t.Type != tokPunct && t.Type != tokKeyword {
		return 0
	}
	if t.Value == "^" {
		return 0
	}
	return lang.Precedence[t.Value]
}

func (p *xparser) expr(minPrec int) (lang.Expr, error) {
	if t := p.lex.Peek(); t.Type == tokKeyword && t.Value == "if" {
		return p.cond()
	}
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.lex.Peek()
		prec := binaryPrec(t)
		if prec == 0 || prec < minPrec {
			return x, nil
		}
		p.next()
		if err := p.term(t); err != nil {
			return nil, err
		}
		var y lang.Expr
		if n := p.lex.Peek(); n.Type == tokKeyword && n.Value == "if" {
			y, err = p.cond()
		} else {
			y, err = p.expr(prec + 1)
		}
		if err != nil {
			return nil, err
		}
		x = &lang.Binary{Pos: at(t), Op: t.Value, X: x, Y: y}
	}
}

func (p *xparser) cond() (lang.Expr, error) {
	t := p.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("then", `"then"`); err != nil {
		return nil, err
	}
	a, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("else", `"else"`); err != nil {
		return nil, err
	}
	b, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	return &lang.Cond{Pos: at(t), If: c, Then: a, Else: b}, nil
}

// unary parses prefix operators (iteratively), then a power: -2^2 is
// -(2^2), 2^-1 is 2^(-1), 2^3^2 is 2^(3^2).
func (p *xparser) unary() (lang.Expr, error) {
	type prefix struct {
		op  string
		pos lang.Pos
	}
	var ops []prefix
	for {
		t := p.lex.Peek()
		if t.Type == tokPunct && (t.Value == "-" || t.Value == "+") || t.Type == tokKeyword && t.Value == "not" {
			ops = append(ops, prefix{t.Value, at(t)})
		} else if t.Type == tokPunct && t.Value == "--" {
			ops = append(ops, prefix{"-", at(t)}, prefix{"-", lang.Pos{Offset: t.Pos.Offset + 1}})
		} else {
			break
		}
		if err := p.term(t); err != nil {
			return nil, err
		}
		p.next()
	}
	x, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if t := p.lex.Peek(); t.Type == tokPunct && t.Value == "^" {
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		y, err := p.unary()
		p.depth--
		if err != nil {
			return nil, err
		}
		x = &lang.Binary{Pos: at(t), Op: "^", X: x, Y: y}
	}
	for i := len(ops) - 1; i >= 0; i-- {
		x = &lang.Unary{Pos: ops[i].pos, Op: ops[i].op, X: x}
	}
	return x, nil
}

func (p *xparser) postfix() (lang.Expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.lex.Peek()
		if t.Type != tokPunct {
			return x, nil
		}
		switch t.Value {
		case "(":
			p.next()
			args, err := p.args(t)
			if err != nil {
				return nil, err
			}
			x = &lang.Call{Pos: x.ExprPos(), Fn: x, Args: args}
		case ".":
			p.next()
			n := p.next()
			name := n.Value
			switch n.Type {
			case tokIdent, tokKeyword:
			case tokString:
				name, err = strconv.Unquote(n.Value)
				if err != nil {
					return nil, participle.Errorf(n.Pos, "bad string %s", n.Value)
				}
			default:
				return nil, &participle.UnexpectedTokenError{Unexpected: *n, Expect: "a field name after '.'"}
			}
			x = &lang.Select{Pos: at(n), X: x, Name: name}
		default:
			return x, nil
		}
	}
}

func (p *xparser) args(open *lexer.Token) ([]lang.Expr, error) {
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	var args []lang.Expr
	if t := p.lex.Peek(); t.Value == ")" && t.Type == tokPunct {
		p.next()
		return args, nil
	}
	for {
		a, err := p.expr(1)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		t := p.next()
		if t.Type == tokPunct && t.Value == ")" {
			return args, nil
		}
		if t.Type != tokPunct || t.Value != "," {
			return nil, &participle.UnexpectedTokenError{Unexpected: *t, Expect: `"," or ")"`}
		}
	}
}

func (p *xparser) primary() (lang.Expr, error) {
	t := p.lex.Peek()
	switch t.Type {
	case tokNumber:
		p.next()
		return &lang.NumberLit{Pos: at(t), Text: t.Value}, nil
	case tokString:
		p.next()
		s, err := strconv.Unquote(t.Value)
		if err != nil {
			return nil, participle.Errorf(t.Pos, "bad string %s", t.Value)
		}
		return &lang.StringLit{Pos: at(t), Value: s}, nil
	case tokIdent:
		p.next()
		return &lang.Ident{Pos: at(t), Name: t.Value}, nil
	case tokKeyword:
		switch t.Value {
		case "true", "false":
			p.next()
			return &lang.BoolLit{Pos: at(t), Value: t.Value == "true", Text: t.Value}, nil
		case "sum":
			return p.sum()
		case "if":
			return p.cond()
		case "node", "link", "bus":
			p.next()
			return &lang.Ident{Pos: at(t), Name: t.Value}, nil
		}
	case tokPunct:
		if t.Value == "(" {
			p.next()
			if err := p.enter(t); err != nil {
				return nil, err
			}
			x, err := p.expr(1)
			p.depth--
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(")", `")"`); err != nil {
				return nil, err
			}
			return x, nil
		}
	}
	return nil, &participle.UnexpectedTokenError{Unexpected: *t, Expect: "an expression"}
}

// sum parses sum(VAR in FROM .. TO, BODY).
func (p *xparser) sum() (lang.Expr, error) {
	t := p.next()
	if _, err := p.expect("(", `"(" after sum`); err != nil {
		return nil, err
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	v := p.next()
	if v.Type != tokIdent {
		return nil, &participle.UnexpectedTokenError{Unexpected: *v, Expect: "the name of the sum's variable"}
	}
	if _, err := p.expect("in", `"in"`); err != nil {
		return nil, err
	}
	from, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("..", `".."`); err != nil {
		return nil, err
	}
	to, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(",", `","`); err != nil {
		return nil, err
	}
	body, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(")", `")"`); err != nil {
		return nil, err
	}
	return &lang.Sum{Pos: at(t), Var: v.Value, From: from, To: to, Body: body}, nil
}
