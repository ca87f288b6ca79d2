package parser

import (
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// Programs: `program NAME(params) { … }` at the top level of a file. A
// program's body has statements of its own (let, statement calls such as
// send(8KB, to: 3), and for and if around them), so the parser reads it in
// program mode (stmtParser.prog), where a statement that starts with a
// name is a call and named arguments are allowed in it.

// startsProgStmt reports whether t starts a statement of a program body.
func startsProgStmt(t token) bool {
	switch t.kind {
	case kIdent:
		return true
	case kKeyword:
		return t.text == "let" || t.text == "for" || t.text == "if"
	case kPunct:
		return t.text == ";"
	}
	return false
}

// program is `program NAME [(params)] { body }`.
func (p *stmtParser) program() (lang.Stmt, *synErr) {
	prog := &lang.Program{Pos: p.s.pos(p.s.next())}
	name := p.s.peek()
	if name.kind != kIdent {
		return nil, unexpected(name, "the program's name")
	}
	p.s.next()
	prog.Name, prog.NamePos = name.text, p.s.pos(name)
	if p.s.peek().punct("(") {
		var err *synErr
		if prog.Params, err = p.params(true); err != nil {
			return nil, err
		}
	}
	open, err := p.want("{")
	if err != nil {
		return nil, err
	}
	p.prog = true
	prog.Body, prog.End, err = p.body(open)
	p.prog = false
	if err != nil {
		return nil, err
	}
	return prog, nil
}

// progStmt parses a statement of a program body.
func (p *stmtParser) progStmt(t token) (lang.Stmt, *synErr) {
	switch {
	case t.kind == kIdent:
		return p.do()
	case t.punct(";"):
		p.s.next()
		return nil, nil
	case t.keyword("let"):
		return p.let()
	case t.keyword("for"):
		return p.forStmt()
	}
	return p.ifStmt()
}

// namedExpr parses an expression in which the outermost call may have
// named arguments (send(8KB, to: 3)).
func (p *stmtParser) namedExpr() (lang.Expr, *synErr) {
	p.x.names = true
	defer func() { p.x.names = false }()
	return p.expr()
}

// do is a statement call: `send(8KB, to: 3)`.
func (p *stmtParser) do() (lang.Stmt, *synErr) {
	first := p.s.peek()
	e, err := p.namedExpr()
	if err != nil {
		return nil, err
	}
	c, d := doCall(e)
	if d != nil {
		// As a syntax error, so that the rest of the line (x = 1) is
		// skipped rather than reported again.
		return nil, &synErr{tok: first, msg: d.Msg}
	}
	return &lang.Do{Pos: c.Pos, Call: c}, nil
}

// doCall checks that a program statement's expression is a call of a named
// statement or function, which is all a statement may be.
func doCall(e lang.Expr) (*lang.Call, *lang.Diagnostic) {
	if c, ok := e.(*lang.Call); ok {
		switch c.Fn.(type) {
		case *lang.Ident, *lang.Select:
			return c, nil
		}
	}
	return nil, lang.Errorf(lang.Start(e), "expected a statement such as compute(…), send(…, to: R), let, for or if; %s alone does nothing", lang.Excerpt(format.Expr(e)))
}

// let is `let NAME = VALUE`.
func (p *stmtParser) let() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	name := p.s.peek()
	if name.kind != kIdent {
		return nil, unexpected(name, "a name")
	}
	p.s.next()
	if _, err := p.want("="); err != nil {
		return nil, err
	}
	v, err := p.namedExpr()
	if err != nil {
		return nil, err
	}
	return &lang.Let{Pos: pos, Name: name.text, Value: v}, nil
}

// ParseProgramBody parses program statements standing alone, as a command
// line gives them (`if rank == 0 { compute(10us) } barrier()`), into a
// program named name with no parameters.
func ParseProgramBody(name, text string) (*lang.Program, error) {
	src := lang.NewSource(name, text)
	if len(text) > MaxSourceBytes {
		return nil, lang.Errorf(src.PosAt(0), "program is %d bytes; the limit is %d", len(text), MaxSourceBytes)
	}
	if d := checkText(src); d != nil {
		return nil, d
	}
	if d := checkNesting(src, 0, text); d != nil {
		return nil, d
	}
	p := newStmtParser(src, 0, len(text), false)
	p.prog = true
	prog := &lang.Program{Pos: src.PosAt(0), Name: name, NamePos: src.PosAt(0)}
	prog.Body = p.stmts(true)
	if len(p.errs) > 0 {
		return prog, p.errs.Err()
	}
	return prog, nil
}
