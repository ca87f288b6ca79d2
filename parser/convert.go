package parser

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// converter turns participle's concrete syntax into the lang AST, collecting
// errors (bad units, bad numbers) instead of stopping at the first.
type converter struct {
	src  *lang.Source
	base int // byte offset of the parsed text within src
	errs lang.Diagnostics
}

func (c *converter) pos(p lexer.Position) lang.Pos {
	return c.src.PosAt(c.base + p.Offset)
}

func (c *converter) stmts(list []*gStmt) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range list {
		if st := c.stmt(s); st != nil {
			out = append(out, st)
		}
	}
	return out
}

func (c *converter) stmt(s *gStmt) lang.Stmt {
	switch {
	case s.Machine != nil:
		m := s.Machine
		out := &lang.Machine{Pos: c.pos(m.Pos), Name: unquoteName(m.Name), Body: c.stmts(m.Body), End: c.pos(m.End)}
		if m.Extends != nil {
			out.Extends, out.ExtendsPos = unquoteName(m.Extends.Name), c.pos(m.Extends.Pos)
		}
		return out
	case s.Import != nil:
		return &lang.Import{Pos: c.pos(s.Import.Pos), Path: c.unquote(s.Import.Pos, s.Import.Path)}
	case s.For != nil:
		f := s.For
		return &lang.For{Pos: c.pos(f.Pos), Var: f.Var, From: c.expr(f.From), To: c.expr(f.To), Body: c.stmts(f.Body)}
	case s.If != nil:
		return c.ifStmt(s.If)
	case s.Node != nil:
		n := s.Node
		out := &lang.Node{Pos: c.pos(n.Pos), From: c.expr(n.From), Type: unquoteName(n.Type), TypePos: c.pos(n.TypePos)}
		if n.To != nil {
			out.To = c.expr(n.To)
		}
		return out
	case s.Link != nil:
		l := s.Link
		return &lang.Link{Pos: c.pos(l.Pos), Ends: []lang.Expr{c.expr(l.A), c.expr(l.B)}, Body: c.stmts(l.Body)}
	case s.Bus != nil:
		b := s.Bus
		out := &lang.Link{Pos: c.pos(b.Pos), Bus: true, Body: c.stmts(b.Body)}
		for _, e := range b.Ends {
			out.Ends = append(out.Ends, c.expr(e))
		}
		return out
	case s.Param != nil:
		f := c.field(s.Param)
		f.IsParam = true
		return f
	case s.Block != nil:
		b := s.Block
		out := &lang.Block{Pos: c.pos(b.Pos), Kind: b.Kind, Label: unquoteName(b.Label), LabelPos: c.pos(b.LabelPos),
			Body: c.stmts(b.Body), End: c.pos(b.End)}
		if b.Gen != nil {
			g, ok := c.postfix(b.Gen).(*lang.Call)
			if !ok {
				c.errs.Add(c.pos(b.Gen.Pos), "expected a generator call such as hypercube(6) after %q", "=")
			}
			out.Gen = g
		}
		if b.Params != nil {
			out.Params = c.params(b.Params.Params)
		}
		return out
	case s.Field != nil:
		return c.field(s.Field)
	}
	return nil // ";"
}

func (c *converter) ifStmt(g *gIf) *lang.If {
	out := &lang.If{Pos: c.pos(g.Pos), Cond: c.expr(g.Cond), Then: c.stmts(g.Then)}
	if g.Else != nil {
		if g.Else.If != nil {
			out.Else = []lang.Stmt{c.ifStmt(g.Else.If)}
		} else {
			out.Else = c.stmts(g.Else.Body)
			if out.Else == nil {
				out.Else = []lang.Stmt{}
			}
		}
	}
	return out
}

func (c *converter) field(f *gField) *lang.Field {
	out := &lang.Field{Pos: c.pos(f.Pos), Name: unquoteName(f.Name), Value: c.expr(f.Value)}
	if f.Func {
		out.Params = c.params(f.Params)
	}
	return out
}

func (c *converter) params(list []*gParam) []*lang.Param {
	out := []*lang.Param{}
	for _, p := range list {
		if p.Unit != "" {
			if _, ok := lang.Units[p.Unit]; !ok {
				c.errs.Add(c.pos(p.Pos), "unknown unit %q for parameter %s%s", p.Unit, p.Name, lang.DidYouMean(p.Unit, lang.UnitNames()))
			}
		}
		out = append(out, &lang.Param{Pos: c.pos(p.Pos), Name: p.Name, Unit: p.Unit})
	}
	return out
}

func (c *converter) expr(e *gExpr) lang.Expr {
	if e.Cond != nil {
		return &lang.Cond{Pos: c.pos(e.Pos), If: c.expr(e.Cond.If), Then: c.expr(e.Cond.Then), Else: c.expr(e.Cond.Else)}
	}
	// Precedence climbing over the flat operand/operator list, iteratively
	// so that long chains do not recurse. Prefix operators go on the same
	// stack with UnaryPrecedence, so -2^2 is -(2^2) and -a*b is (-a)*b.
	type op struct {
		name  string
		pos   lang.Pos
		unary bool
	}
	var (
		operands []lang.Expr
		ops      []op
	)
	reduce := func() {
		o := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		if o.unary {
			x := operands[len(operands)-1]
			operands[len(operands)-1] = &lang.Unary{Pos: o.pos, Op: o.name, X: x}
			return
		}
		y, x := operands[len(operands)-1], operands[len(operands)-2]
		operands = operands[:len(operands)-2]
		operands = append(operands, &lang.Binary{Pos: o.pos, Op: o.name, X: x, Y: y})
	}
	prec := func(o op) int {
		if o.unary {
			return lang.UnaryPrecedence
		}
		return lang.Precedence[o.name]
	}
	push := func(u *gUnary) {
		for _, p := range u.Ops {
			ops = append(ops, op{p.Op, c.pos(p.Pos), true})
		}
		operands = append(operands, c.postfix(u.X))
	}
	push(e.Bin.Head)
	for _, t := range e.Bin.Tail {
		p := lang.Precedence[t.Op]
		for len(ops) > 0 {
			q := prec(ops[len(ops)-1])
			if q > p || q == p && t.Op != "^" {
				reduce()
			} else {
				break
			}
		}
		ops = append(ops, op{name: t.Op, pos: c.pos(t.Pos)})
		push(t.X)
	}
	for len(ops) > 0 {
		reduce()
	}
	return operands[0]
}

func (c *converter) postfix(p *gPostfix) lang.Expr {
	x := c.primary(p.X)
	for _, s := range p.Suffix {
		if s.Call != nil {
			call := &lang.Call{Pos: x.ExprPos(), Fn: x}
			for _, a := range s.Call.Args {
				call.Args = append(call.Args, c.expr(a))
			}
			x = call
		} else {
			x = &lang.Select{Pos: c.pos(s.Pos), X: x, Name: unquoteName(s.Sel)}
		}
	}
	return x
}

func (c *converter) primary(p *gPrimary) lang.Expr {
	pos := c.pos(p.Pos)
	switch {
	case p.Number != "":
		v, err := lang.ParseQuantity(p.Number)
		if err != nil {
			c.errs.Add(pos, "%v", err)
		}
		return &lang.NumberLit{Pos: pos, Text: p.Number, Value: v}
	case p.String != nil:
		return &lang.StringLit{Pos: pos, Value: c.unquote(p.Pos, *p.String)}
	case p.Sum != nil:
		return &lang.Sum{Pos: pos, Var: p.Sum.Var, From: c.expr(p.Sum.From), To: c.expr(p.Sum.To), Body: c.expr(p.Sum.Body)}
	case p.Bool != "":
		return &lang.BoolLit{Pos: pos, Value: p.Bool == "true", Text: p.Bool}
	case p.Ident != "":
		return &lang.Ident{Pos: pos, Name: p.Ident}
	default:
		return c.expr(p.Paren)
	}
}

func (c *converter) unquote(p lexer.Position, s string) string {
	u, err := strconv.Unquote(s)
	if err != nil {
		c.errs.Add(c.pos(p), "bad string literal %s", s)
		return strings.Trim(s, `"`)
	}
	return u
}

func unquoteName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
