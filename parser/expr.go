package parser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// xparser parses expressions by precedence climbing over a tokStream,
// iterative along operator chains, with nesting bounded. The hand-written
// statement parser and the participle reference grammar (as its Expr
// production) share it.
type xparser struct {
	s     *tokStream
	a     *arena
	depth int
	terms int // operands and prefix operators so far, bounded by MaxTerms
	// errs receives number literals' unit errors; nil for the reference
	// grammar, whose converter reports them (and sets the values).
	errs *lang.Diagnostics
	// names allows named arguments (to: 3) in the outermost call, as
	// program statements have them.
	names bool
}

// MaxTerms bounds the operands and operators of one expression: evaluating
// its tree recurses as deep as its longest operator chain.
const MaxTerms = 10_000

// synErr is a syntax error at a token.
type synErr struct {
	tok token
	msg string // without the "syntax error: " that diagnostics add
}

// unexpected says that t is not what the grammar expects there.
func unexpected(t token, expect string) *synErr {
	var msg string
	switch t.kind {
	case kError:
		return &synErr{tok: t, msg: t.text}
	case kEOF:
		msg = "unexpected end of input"
	default:
		msg = fmt.Sprintf("unexpected token %q", t.text)
	}
	if expect != "" {
		msg += " (expected " + expect + ")"
	}
	return &synErr{tok: t, msg: strings.ReplaceAll(msg, `"}"`, "'}'")}
}

func errorAt(t token, format string, args ...any) *synErr {
	return &synErr{tok: t, msg: fmt.Sprintf(format, args...)}
}

func (p *xparser) term(t token) *synErr {
	if p.terms++; p.terms > MaxTerms {
		return errorAt(t, "expression longer than %d terms", MaxTerms)
	}
	return nil
}

func (p *xparser) enter(t token) *synErr {
	p.depth++
	if p.depth > MaxNesting {
		return errorAt(t, "nesting deeper than %d levels", MaxNesting)
	}
	return nil
}

func startsExpr(t token) bool {
	switch t.kind {
	case kNumber, kString, kIdent:
		return true
	case kKeyword:
		switch t.text {
		case "if", "not", "true", "false", "sum", "node", "link", "bus":
			return true
		}
	case kPunct:
		switch t.text {
		case "(", "-", "+", "--":
			return true
		}
	}
	return false
}

func (p *xparser) expect(value, what string) *synErr {
	t := p.s.peek()
	if t.text != value || t.kind == kString || t.kind == kError {
		return unexpected(t, what)
	}
	p.s.next()
	return nil
}

// binaryOp is the binary operator t spells, with its precedence; 0 for a
// token that is not one. ^ is handled with the prefixes.
func binaryOp(t token) (lang.Op, int) {
	if t.kind != kPunct && t.kind != kKeyword {
		return lang.NoOp, 0
	}
	op, ok := lang.BinaryOp(t.text)
	if !ok || op == lang.Pow {
		return lang.NoOp, 0
	}
	return op, op.Precedence()
}

func (p *xparser) expr(minPrec int) (lang.Expr, *synErr) {
	if t := p.s.peek(); t.keyword("if") {
		return p.cond()
	}
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.s.peek()
		op, prec := binaryOp(t)
		if prec == 0 || prec < minPrec {
			return x, nil
		}
		p.s.next()
		if err := p.term(t); err != nil {
			return nil, err
		}
		var y lang.Expr
		if n := p.s.peek(); n.keyword("if") {
			y, err = p.cond()
		} else {
			y, err = p.expr(prec + 1)
		}
		if err != nil {
			return nil, err
		}
		b := alloc(&p.a.binaries)
		*b = lang.Binary{Pos: p.s.pos(t), Op: op, X: x, Y: y}
		x = b
	}
}

func (p *xparser) cond() (lang.Expr, *synErr) {
	t := p.s.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if err := p.expect("then", `"then"`); err != nil {
		return nil, err
	}
	a, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if err := p.expect("else", `"else"`); err != nil {
		return nil, err
	}
	b, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	return &lang.Cond{Pos: p.s.pos(t), If: c, Then: a, Else: b}, nil
}

// unary parses prefix operators (iteratively), then a power: -2^2 is
// -(2^2), 2^-1 is 2^(-1), 2^3^2 is 2^(3^2).
func (p *xparser) unary() (lang.Expr, *synErr) {
	if !isPrefix(p.s.peek()) {
		return p.power() // the common case, without the list of prefixes
	}
	type prefix struct {
		op  lang.Op
		pos lang.Pos
	}
	var ops []prefix
	for {
		t := p.s.peek()
		if !isPrefix(t) {
			break
		}
		if t.text == "--" {
			second := p.s.pos(t)
			second.Offset++
			if second.Col > 0 {
				second.Col++
			}
			ops = append(ops, prefix{lang.Sub, p.s.pos(t)}, prefix{lang.Sub, second})
		} else {
			op, _ := lang.PrefixOp(t.text)
			ops = append(ops, prefix{op, p.s.pos(t)})
		}
		if err := p.term(t); err != nil {
			return nil, err
		}
		p.s.next()
	}
	x, err := p.power()
	if err != nil {
		return nil, err
	}
	for i := len(ops) - 1; i >= 0; i-- {
		x = &lang.Unary{Pos: ops[i].pos, Op: ops[i].op, X: x}
	}
	return x, nil
}

func isPrefix(t token) bool {
	return t.kind == kPunct && (t.text == "-" || t.text == "+" || t.text == "--") || t.keyword("not")
}

func (p *xparser) power() (lang.Expr, *synErr) {
	x, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if t := p.s.peek(); t.punct("^") {
		p.s.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		y, err := p.unary()
		p.depth--
		if err != nil {
			return nil, err
		}
		b := alloc(&p.a.binaries)
		*b = lang.Binary{Pos: p.s.pos(t), Op: lang.Pow, X: x, Y: y}
		x = b
	}
	return x, nil
}

func (p *xparser) postfix() (lang.Expr, *synErr) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.s.peek()
		if t.kind != kPunct {
			return x, nil
		}
		switch t.text {
		case "(":
			p.s.next()
			args, err := p.args(t)
			if err != nil {
				return nil, err
			}
			c := alloc(&p.a.calls)
			*c = lang.Call{Pos: x.ExprPos(), Fn: x, Args: args}
			x = c
		case ".":
			p.s.next()
			n := p.s.peek()
			name := n.text
			switch n.kind {
			case kIdent, kKeyword:
			case kString:
				u, err := strconv.Unquote(n.text)
				if err != nil {
					return nil, errorAt(n, "bad string %s", n.text)
				}
				name = u
			default:
				return nil, unexpected(n, "a field name after '.'")
			}
			p.s.next()
			s := alloc(&p.a.selects)
			*s = lang.Select{Pos: p.s.pos(n), X: x, Name: name}
			x = s
		default:
			return x, nil
		}
	}
}

func (p *xparser) args(open token) ([]lang.Expr, *synErr) {
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if t := p.s.peek(); t.punct(")") {
		p.s.next()
		return nil, nil
	}
	mark := len(p.a.exprStack)
	defer func() { p.a.exprStack = p.a.exprStack[:mark] }()
	for {
		var a lang.Expr
		var err *synErr
		if t := p.s.peek(); p.names && p.depth == 1 && t.kind == kIdent && p.s.peek2().punct(":") {
			a, err = p.namedArg()
		} else {
			a, err = p.expr(1)
		}
		if err != nil {
			return nil, err
		}
		p.a.exprStack = append(p.a.exprStack, a)
		t := p.s.peek()
		if _, name := a.(*lang.Ident); name && t.punct(":") {
			return nil, errorAt(t, "a named argument belongs to a program statement's own call, such as send(…, to: R); a function takes its arguments in order")
		}
		if !t.punct(")") && !t.punct(",") {
			return nil, unexpected(t, `"," or ")"`)
		}
		p.s.next()
		if t.text == ")" {
			return p.a.exprList(mark), nil
		}
	}
}

// namedArg is `NAME: VALUE`.
func (p *xparser) namedArg() (lang.Expr, *synErr) {
	name := p.s.next()
	p.s.next() // ":"
	x, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	return &lang.NamedArg{Pos: p.s.pos(name), Name: name.text, X: x}, nil
}

func (p *xparser) number(t token) *lang.NumberLit {
	n := alloc(&p.a.numbers)
	n.Pos, n.Text = p.s.pos(t), t.text
	if p.errs != nil {
		v, ok := quickQuantity(t.text)
		if !ok {
			var err error
			if v, err = lang.ParseQuantity(t.text); err != nil {
				p.errs.Add(n.Pos, "%v", err)
			}
		}
		n.Value = v
	}
	return n
}

// quickQuantity is lang.ParseQuantity for the numbers machine files are
// mostly made of, whole numbers with or without a known unit (230ns,
// 2667231B/s), without its general number syntax; ok is false for any
// other text.
func quickQuantity(text string) (v lang.Value, ok bool) {
	var n int64
	i := 0
	for ; i < len(text) && i < 15 && isDigit(text[i]); i++ {
		n = n*10 + int64(text[i]-'0')
	}
	if i == 0 || i < len(text) && (isDigit(text[i]) || text[i] == '.' || text[i] == 'e' || text[i] == 'E') {
		return lang.Value{}, false
	}
	if i == len(text) {
		return lang.Num(float64(n)), true
	}
	u, known := lang.LookupUnit(text[i:])
	if !known {
		return lang.Value{}, false
	}
	return lang.Quantity(float64(n)*u.Num, u.Dim), true
}

func (p *xparser) primary() (lang.Expr, *synErr) {
	t := p.s.peek()
	switch t.kind {
	case kNumber:
		p.s.next()
		return p.number(t), nil
	case kString:
		p.s.next()
		s, err := strconv.Unquote(t.text)
		if err != nil {
			return nil, errorAt(t, "bad string %s", t.text)
		}
		return &lang.StringLit{Pos: p.s.pos(t), Value: s}, nil
	case kIdent:
		p.s.next()
		id := alloc(&p.a.idents)
		*id = lang.Ident{Pos: p.s.pos(t), Name: t.text}
		return id, nil
	case kKeyword:
		switch t.text {
		case "true", "false":
			p.s.next()
			return &lang.BoolLit{Pos: p.s.pos(t), Value: t.text == "true", Text: t.text}, nil
		case "sum":
			return p.sum()
		case "if":
			return p.cond()
		case "node", "link", "bus":
			p.s.next()
			id := alloc(&p.a.idents)
			*id = lang.Ident{Pos: p.s.pos(t), Name: t.text}
			return id, nil
		}
	case kPunct:
		if t.text == "(" {
			p.s.next()
			if err := p.enter(t); err != nil {
				return nil, err
			}
			x, err := p.expr(1)
			p.depth--
			if err != nil {
				return nil, err
			}
			if err := p.expect(")", `")"`); err != nil {
				return nil, err
			}
			return x, nil
		}
	}
	return nil, unexpected(t, "an expression")
}

// sum parses sum(VAR in FROM .. TO, BODY).
func (p *xparser) sum() (lang.Expr, *synErr) {
	t := p.s.next()
	if err := p.expect("(", `"(" after sum`); err != nil {
		return nil, err
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	v := p.s.peek()
	if v.kind != kIdent {
		return nil, unexpected(v, "the name of the sum's variable")
	}
	p.s.next()
	if err := p.expect("in", `"in"`); err != nil {
		return nil, err
	}
	from, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if err := p.expect("..", `".."`); err != nil {
		return nil, err
	}
	to, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if err := p.expect(",", `","`); err != nil {
		return nil, err
	}
	body, err := p.expr(1)
	if err != nil {
		return nil, err
	}
	if err := p.expect(")", `")"`); err != nil {
		return nil, err
	}
	return &lang.Sum{Pos: p.s.pos(t), Var: v.text, From: from, To: to, Body: body}, nil
}
