package reference

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// converter turns participle's concrete syntax into the lang AST, collecting
// errors (bad units, misplaced parts) instead of stopping at the first.
type converter struct {
	src  *lang.Source
	syn  Syntax
	errs lang.Diagnostics
}

func (c *converter) pos(p lexer.Position) lang.Pos {
	return c.src.PosAt(p.Offset)
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
		out := &lang.Machine{Pos: c.pos(m.Pos), Name: c.syn.Unquote(m.Name), Body: c.stmts(m.Body), End: c.pos(m.Close.Pos)}
		if m.Extends != nil {
			out.Extends, out.ExtendsPos = c.syn.Unquote(m.Extends.Name), c.pos(m.Extends.Pos)
		}
		return out
	case s.Import != nil:
		return &lang.Import{Pos: c.pos(s.Import.Pos), Path: c.syn.Unquote(s.Import.Path)}
	case s.For != nil:
		f := s.For
		return &lang.For{Pos: c.pos(f.Pos), Var: f.Var, From: c.expr(f.From), To: c.expr(f.To), Body: c.stmts(f.Body)}
	case s.If != nil:
		return c.ifStmt(s.If)
	case s.Node != nil:
		n := s.Node
		if n.From == nil {
			if n.To != nil {
				c.errs.Add(c.pos(n.Pos), "expected the first node before '..': node FROM .. TO = TYPE")
				return nil
			}
			return &lang.Field{Pos: c.pos(n.Pos), Name: "node", Value: &lang.Ident{Pos: c.pos(n.Type.Pos), Name: c.syn.Unquote(n.Type.Name)}}
		}
		out := &lang.Node{Pos: c.pos(n.Pos), From: c.expr(n.From), Type: c.syn.Unquote(n.Type.Name), TypePos: c.pos(n.Type.Pos)}
		if n.To != nil {
			out.To = c.expr(n.To)
		}
		return out
	case s.Link != nil:
		return c.link(s.Link)
	case s.Bus != nil:
		b := s.Bus
		out := &lang.Link{Pos: c.pos(b.Pos), Bus: true, Body: c.stmts(b.Body)}
		for _, e := range b.Ends {
			out.Ends = append(out.Ends, c.expr(e))
		}
		return out
	case s.Param != nil:
		return &lang.Field{Pos: c.pos(s.Param.Pos), Name: c.syn.Unquote(s.Param.Name), Value: c.expr(s.Param.Value), IsParam: true}
	case s.Decl != nil:
		return c.decl(s.Decl)
	}
	return nil // ";"
}

// blockParams says why a block (other than a link template) cannot have
// parameters: nothing would use them.
const blockParams = "a block takes no parameters: a function (f(x) = …) or a link template (link(d) { … }) does"

// decl decides what a gDecl is: a block when it has a body, else a field.
func (c *converter) decl(d *gDecl) lang.Stmt {
	pos := c.pos(d.Pos)
	if d.Body != nil {
		b := &lang.Block{Pos: pos, Kind: d.Name, Body: c.stmts(d.Body.Stmts), End: c.pos(d.Body.Close.Pos)}
		if d.Label != nil {
			b.Label, b.LabelPos = c.syn.Unquote(d.Label.Text), c.pos(d.Label.Pos)
		}
		if d.Value != nil {
			g, ok := c.expr(d.Value).(*lang.Call)
			if !ok {
				c.errs.Add(c.exprPos(d.Value), "expected a generator call such as hypercube(6) after '='")
			}
			b.Gen = g
		}
		if d.Params != nil {
			c.errs.Add(c.pos(d.Params.Pos), blockParams)
			b.Params = c.params(d.Params.Params)
		}
		return b
	}
	if d.Label != nil {
		c.errs.Add(c.pos(d.Label.Pos), "expected '=' or '{' after %s", d.Name)
		return nil
	}
	if d.Value == nil {
		c.errs.Add(pos, "expected '=' and a value, or a block '{ … }', after %s", d.Name)
		return nil
	}
	f := &lang.Field{Pos: pos, Name: c.syn.Unquote(d.Name), Value: c.expr(d.Value)}
	if d.Params != nil {
		f.Params = c.params(d.Params.Params)
	}
	return f
}

func (c *converter) link(l *gLink) lang.Stmt {
	pos := c.pos(l.Pos)
	var body []lang.Stmt
	var end lang.Pos
	if l.Body != nil {
		body, end = c.stmts(l.Body.Stmts), c.pos(l.Body.Close.Pos)
	}
	switch {
	case l.Params != nil:
		if l.Body == nil {
			c.errs.Add(pos, "a link template needs a body: link(d) { latency = … }")
		}
		return &lang.Block{Pos: pos, Kind: "link", Params: c.params(l.Params.Params), Body: body, End: end}
	case l.B != nil:
		return &lang.Link{Pos: pos, Ends: []lang.Expr{c.expr(l.A), c.expr(l.B)}, Body: body}
	}
	a := c.expr(l.A)
	label := c.syn.LinkLabel(a)
	if label == "" || l.Body == nil {
		c.errs.Add(pos, "expected link A -- B, link(d) { … } or link LABEL { … }")
		return nil
	}
	return &lang.Block{Pos: pos, Kind: "link", Label: label, LabelPos: a.ExprPos(), Body: body, End: end}
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

func (c *converter) params(list []*gParam) []*lang.Param {
	out := []*lang.Param{}
	for _, p := range list {
		if p.Unit != "" {
			if _, ok := lang.LookupUnit(p.Unit); !ok {
				c.errs.Add(c.pos(p.Pos), "unknown unit %q for parameter %s%s", p.Unit, p.Name, lang.DidYouMean(p.Unit, lang.UnitNames()))
			}
		}
		out = append(out, &lang.Param{Pos: c.pos(p.Pos), Name: p.Name, Unit: p.Unit})
	}
	return out
}

func (c *converter) exprPos(e lang.Expr) lang.Pos {
	return c.src.PosAt(e.ExprPos().Offset)
}

// expr completes an expression from Syntax.Expr: positions from their
// offsets, and number literals' values (a bad unit is an error here, so
// all are reported).
func (c *converter) expr(e lang.Expr) lang.Expr {
	fix := func(p *lang.Pos) { *p = c.src.PosAt(p.Offset) }
	var walk func(e lang.Expr)
	walk = func(e lang.Expr) {
		switch e := e.(type) {
		case *badExpr:
			c.errs.Add(c.src.PosAt(e.errOffset), "syntax error: %s", e.msg)
		case *lang.NumberLit:
			fix(&e.Pos)
			v, err := lang.ParseQuantity(e.Text)
			if err != nil {
				c.errs.Add(e.Pos, "%v", err)
			}
			e.Value = v
		case *lang.StringLit:
			fix(&e.Pos)
		case *lang.BoolLit:
			fix(&e.Pos)
		case *lang.Ident:
			fix(&e.Pos)
		case *lang.Unary:
			fix(&e.Pos)
			walk(e.X)
		case *lang.Binary:
			fix(&e.Pos)
			walk(e.X)
			walk(e.Y)
		case *lang.Cond:
			fix(&e.Pos)
			walk(e.If)
			walk(e.Then)
			walk(e.Else)
		case *lang.Call:
			walk(e.Fn)
			e.Pos = e.Fn.ExprPos()
			for _, a := range e.Args {
				walk(a)
			}
		case *lang.Select:
			fix(&e.Pos)
			walk(e.X)
		case *lang.Sum:
			fix(&e.Pos)
			walk(e.From)
			walk(e.To)
			walk(e.Body)
		case *lang.NamedArg:
			fix(&e.Pos)
			walk(e.X)
		}
	}
	walk(e)
	return e
}

// top converts the statements of a file's top level.
func (c *converter) top(list []*gTop) []lang.Stmt {
	var out []lang.Stmt
	for _, t := range list {
		var st lang.Stmt
		if t.Program != nil {
			st = c.program(t.Program)
		} else {
			st = c.stmt(t.Stmt)
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out
}

func (c *converter) program(g *gProgram) *lang.Program {
	out := &lang.Program{Pos: c.pos(g.Pos), Name: g.Name.Name, NamePos: c.pos(g.Name.Pos), Body: c.pstmts(g.Body), End: c.pos(g.Close.Pos)}
	if g.Params != nil {
		out.Params = []*lang.Param{}
		for _, p := range g.Params.Params {
			prm := c.params([]*gParam{{Pos: p.Pos, Name: p.Name, Unit: p.Unit}})[0]
			if p.Default != nil {
				prm.Default = c.expr(p.Default)
			}
			out.Params = append(out.Params, prm)
		}
	}
	return out
}

func (c *converter) pstmts(list []*gPStmt) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range list {
		if st := c.pstmt(s); st != nil {
			out = append(out, st)
		}
	}
	return out
}

func (c *converter) pstmt(s *gPStmt) lang.Stmt {
	switch {
	case s.Let != nil:
		return &lang.Let{Pos: c.pos(s.Let.Pos), Name: s.Let.Name, Value: c.expr(s.Let.Value)}
	case s.For != nil:
		f := s.For
		return &lang.For{Pos: c.pos(f.Pos), Var: f.Var, From: c.expr(f.From), To: c.expr(f.To), Body: c.pstmts(f.Body)}
	case s.If != nil:
		return c.pif(s.If)
	case s.Do != nil:
		e := c.expr(s.Do)
		if _, bad := e.(*badExpr); bad {
			return nil
		}
		call, d := c.syn.Call(e)
		if d != nil {
			c.errs.Add(d.Pos, "syntax error: %s", d.Msg)
			return nil
		}
		return &lang.Do{Pos: call.Pos, Call: call}
	}
	return nil // ";"
}

func (c *converter) pif(g *gPIf) *lang.If {
	out := &lang.If{Pos: c.pos(g.Pos), Cond: c.expr(g.Cond), Then: c.pstmts(g.Then)}
	if g.Else != nil {
		if g.Else.If != nil {
			out.Else = []lang.Stmt{c.pif(g.Else.If)}
		} else {
			out.Else = c.pstmts(g.Else.Body)
			if out.Else == nil {
				out.Else = []lang.Stmt{}
			}
		}
	}
	return out
}
