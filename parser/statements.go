package parser

import (
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// stmtParser is the hand-written recursive-descent parser of the modern
// syntax's statements. It follows the participle reference grammar
// (parser/internal/reference) production by production (TestParsersAgree and FuzzParsersAgree hold the
// two to the same decisions and trees), building the lang AST directly,
// with every position filled.
//
// A syntax error is recorded and the parser resynchronises in place (sync)
// at the end of the statement: the next line, a ';', or the '}' that
// closes the enclosing block. Only a line's first syntax error is
// reported: the rest of a broken line mostly repeats it.
type stmtParser struct {
	s       tokStream
	x       xparser
	a       arena
	errs    lang.Diagnostics
	errLine int32 // line of the last syntax error
	depth   int   // blocks open
	prog    bool  // in a program's body (program.go)
}

func newStmtParser(src *lang.Source, start, end int, collectComments bool) *stmtParser {
	p := &stmtParser{}
	p.s.init(src, start, end)
	p.s.collect = collectComments
	p.s.lexErr = p.lexError
	p.s.start()
	p.x = xparser{s: &p.s, a: &p.a, errs: &p.errs}
	return p
}

func (p *stmtParser) lexError(t token) { p.syntax(&synErr{tok: t, msg: t.text}) }

// syntax records a syntax error, unless one is already reported on its line.
func (p *stmtParser) syntax(e *synErr) {
	if e.tok.line == p.errLine || len(p.errs) >= MaxErrors {
		return
	}
	p.errLine = e.tok.line
	p.errs.Add(p.s.pos(e.tok), "syntax error: %s", e.msg)
}

// parseModern parses the modern syntax, reporting every error up to
// MaxErrors in one pass.
func parseModern(src *lang.Source) (*lang.File, error) {
	if d := checkNesting(src, 0, src.Text); d != nil {
		return nil, d
	}
	p := newStmtParser(src, 0, len(src.Text), true)
	f := &lang.File{Src: src, Stmts: p.stmts(true)}
	f.Comments = p.s.comments
	if len(p.errs) > 0 {
		return f, p.errs.Err()
	}
	return f, nil
}

func startsStmt(t token) bool {
	switch t.kind {
	case kIdent, kString:
		return true
	case kKeyword:
		switch t.text {
		case "link", "param", "node", "for", "if", "bus", "machine", "import":
			return true
		}
	case kPunct:
		return t.text == ";"
	}
	return false
}

// stmts parses statements up to the end of the input or, in a block, the
// closing '}' (left for the caller).
func (p *stmtParser) stmts(top bool) []lang.Stmt {
	mark := len(p.a.stmtStack)
	for len(p.errs) < MaxErrors {
		t := p.s.peek()
		if t.kind == kEOF || !top && t.punct("}") {
			break
		}
		consumed := p.s.count
		var st lang.Stmt
		var err *synErr
		starts := startsStmt(t)
		if p.prog {
			starts = startsProgStmt(t)
		}
		switch {
		case top && !p.prog && t.keyword("program"):
			st, err = p.program()
		case !starts && top && t.punct("}"):
			err = unexpected(t, "")
		case !starts && top:
			err = unexpected(t, "a statement")
		case !starts:
			err = unexpected(t, "'}'")
		case p.prog:
			st, err = p.progStmt(t)
		default:
			st, err = p.stmt(t)
		}
		if err != nil {
			p.syntax(err)
			p.sync(consumed, top)
			continue
		}
		if st != nil {
			p.a.stmtStack = append(p.a.stmtStack, st)
		}
	}
	return p.a.stmtList(mark)
}

// sync skips what is left of a statement with a syntax error: up to the
// end of the line it ends on (or a ';'), without leaving the enclosing
// block; a '{' on the way is skipped up to its '}'. A statement that
// consumed nothing loses at least its first token, so parsing goes on.
func (p *stmtParser) sync(consumed int, top bool) {
	if p.s.count == consumed && p.s.peek().kind != kEOF {
		p.s.next()
	}
	line, depth := p.s.last.line, 0
	for {
		t := p.s.peek()
		if t.kind == kEOF {
			return
		}
		if depth == 0 {
			switch {
			case t.line > line:
				return
			case t.punct(";"):
				p.s.next()
				return
			case t.punct("}") && !top:
				return
			}
		}
		switch {
		case t.punct("{"):
			depth++
		case t.punct("}") && depth > 0:
			if depth--; depth == 0 {
				line = t.line
			}
		}
		p.s.next()
	}
}

func (p *stmtParser) stmt(t token) (lang.Stmt, *synErr) {
	switch t.kind {
	case kIdent, kString:
		return p.decl()
	case kPunct: // ";"
		p.s.next()
		return nil, nil
	}
	switch t.text {
	case "link":
		return p.link()
	case "param":
		return p.param()
	case "node":
		return p.node()
	case "for":
		return p.forStmt()
	case "if":
		return p.ifStmt()
	case "bus":
		return p.bus()
	case "machine":
		return p.machine()
	}
	return p.importStmt() // the last keyword startsStmt admits
}

// expr parses one expression (its own budget of MaxTerms).
func (p *stmtParser) expr() (lang.Expr, *synErr) {
	t := p.s.peek()
	if !startsExpr(t) {
		return nil, unexpected(t, "an expression")
	}
	p.x.terms = 0
	// A lone number or name, as most values of a large machine file are,
	// is read without descending through every precedence level; the
	// reference grammar takes the long way (FuzzParsersAgree).
	if (t.kind == kNumber || t.kind == kIdent) && endsOperand(p.s.peek2()) {
		p.s.next()
		if t.kind == kNumber {
			return p.x.number(t), nil
		}
		id := alloc(&p.a.idents)
		*id = lang.Ident{Pos: p.s.pos(t), Name: t.text}
		return id, nil
	}
	return p.x.expr(1)
}

// endsOperand reports whether t, after an operand, ends the expression:
// it is no binary operator, nor a '^', '(' or '.' that would extend the
// operand.
func endsOperand(t token) bool {
	if _, prec := binaryOp(t); prec != 0 {
		return false
	}
	return t.kind != kPunct || t.text != "^" && t.text != "(" && t.text != "."
}

// want consumes the punctuation text or says it is missing.
func (p *stmtParser) want(text string) (token, *synErr) {
	t := p.s.peek()
	if !t.punct(text) {
		return t, unexpected(t, `"`+text+`"`)
	}
	return p.s.next(), nil
}

// body parses a block's statements after its '{' and the closing '}'.
func (p *stmtParser) body(open token) ([]lang.Stmt, lang.Pos, *synErr) {
	if p.depth++; p.depth > MaxNesting {
		return nil, lang.Pos{}, errorAt(open, "nesting deeper than %d levels", MaxNesting)
	}
	defer func() { p.depth-- }()
	stmts := p.stmts(false)
	t := p.s.peek()
	if !t.punct("}") {
		return nil, lang.Pos{}, unexpected(t, "'}'")
	}
	p.s.next()
	return stmts, p.s.pos(t), nil
}

// decl is a field, a function or a block (GDecl): a body makes a block,
// otherwise `= value` a field, with parameters a function.
func (p *stmtParser) decl() (lang.Stmt, *synErr) {
	name := p.s.next()
	pos := p.s.pos(name)
	label, hasLabel := p.s.peek(), false
	switch label.kind {
	case kIdent, kNumber, kString:
		hasLabel = true
	case kKeyword:
		hasLabel = label.text == "node" || label.text == "link" || label.text == "bus"
	}
	if hasLabel {
		p.s.next()
	}
	var params []*lang.Param
	paren := p.s.peek()
	if paren.punct("(") {
		if t2 := p.s.peek2(); t2.kind != kIdent && !t2.punct(")") {
			return nil, unexpected(t2, `a parameter name or ")"`)
		}
		var err *synErr
		if params, err = p.params(false); err != nil {
			return nil, err
		}
	}
	var value lang.Expr
	if t := p.s.peek(); t.punct("=") {
		p.s.next()
		var err *synErr
		if value, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if open := p.s.peek(); open.punct("{") {
		p.s.next()
		body, end, err := p.body(open)
		if err != nil {
			return nil, err
		}
		b := alloc(&p.a.blocks)
		*b = lang.Block{Pos: pos, Kind: name.text, Params: params, Body: body, End: end}
		if hasLabel {
			b.Label, b.LabelPos = unquoteName(label.text), p.s.pos(label)
		}
		if params != nil {
			p.errs.Add(p.s.pos(paren), blockParams)
		}
		if value != nil {
			g, ok := value.(*lang.Call)
			if !ok {
				p.errs.Add(value.ExprPos(), "expected a generator call such as hypercube(6) after '='")
			}
			b.Gen = g
		}
		return b, nil
	}
	if hasLabel {
		p.errs.Add(p.s.pos(label), "expected '=' or '{' after %s", name.text)
		return nil, nil
	}
	if value == nil {
		p.errs.Add(pos, "expected '=' and a value, or a block '{ … }', after %s", name.text)
		return nil, nil
	}
	// Set field by field (see legacyReader.value).
	f := alloc(&p.a.fields)
	f.Pos, f.Name, f.Params, f.Value = pos, unquoteName(name.text), params, value
	return f, nil
}

// params parses `(NAME[: UNIT], …)`, and with defaults a program's
// `(NAME[: UNIT][= DEFAULT], …)`; the list is non-nil even when empty.
func (p *stmtParser) params(defaults bool) ([]*lang.Param, *synErr) {
	p.s.next() // "("
	out := []*lang.Param{}
	if t := p.s.peek(); t.punct(")") {
		p.s.next()
		return out, nil
	}
	for {
		t := p.s.peek()
		if t.kind != kIdent {
			return nil, unexpected(t, "a parameter name")
		}
		p.s.next()
		prm := &lang.Param{Pos: p.s.pos(t), Name: t.text}
		if p.s.peek().punct(":") {
			p.s.next()
			u := p.s.peek()
			if u.kind != kIdent && u.kind != kNumber && !u.punct("%") {
				return nil, unexpected(u, "a unit")
			}
			p.s.next()
			prm.Unit = u.text
			if _, ok := lang.LookupUnit(u.text); !ok {
				p.errs.Add(prm.Pos, "unknown unit %q for parameter %s%s", u.text, prm.Name, lang.DidYouMean(u.text, lang.UnitNames()))
			}
		}
		if defaults && p.s.peek().punct("=") {
			p.s.next()
			var err *synErr
			if prm.Default, err = p.expr(); err != nil {
				return nil, err
			}
		}
		out = append(out, prm)
		t = p.s.peek()
		if !t.punct(")") && !t.punct(",") {
			return nil, unexpected(t, `"," or ")"`)
		}
		p.s.next()
		if t.text == ")" {
			return out, nil
		}
	}
}

// link is a link template `link(d) { … }`, a link `link A -- B { … }` or a
// numbered link block `link 0 { … }` (GLink).
func (p *stmtParser) link() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	var params []*lang.Param
	var a, b lang.Expr
	var err *synErr
	t := p.s.peek()
	switch {
	case t.punct("(") && (p.s.peek2().kind == kIdent || p.s.peek2().punct(")")):
		// A parameter list; `link (1) -- 2` is an expression instead, as
		// the grammar's one-token lookahead decides.
		if params, err = p.params(false); err != nil {
			return nil, err
		}
	case startsExpr(t):
		if a, err = p.expr(); err != nil {
			return nil, err
		}
		if p.s.peek().punct("--") {
			p.s.next()
			if b, err = p.expr(); err != nil {
				return nil, err
			}
		}
	default:
		return nil, unexpected(t, "link A -- B, link(d) { … } or link LABEL { … }")
	}
	var body []lang.Stmt
	var end lang.Pos
	hasBody := false
	if open := p.s.peek(); open.punct("{") {
		p.s.next()
		if body, end, err = p.body(open); err != nil {
			return nil, err
		}
		hasBody = true
	}
	switch {
	case a == nil:
		if !hasBody {
			p.errs.Add(pos, "a link template needs a body: link(d) { latency = … }")
		}
		blk := alloc(&p.a.blocks)
		*blk = lang.Block{Pos: pos, Kind: "link", Params: params, Body: body, End: end}
		return blk, nil
	case b != nil:
		l := alloc(&p.a.links)
		p.a.exprStack = append(p.a.exprStack, a, b)
		l.Pos, l.Ends, l.Body = pos, p.a.exprList(len(p.a.exprStack)-2), body
		return l, nil
	}
	label := linkLabel(a)
	if label == "" || !hasBody {
		p.errs.Add(pos, "expected link A -- B, link(d) { … } or link LABEL { … }")
		return nil, nil
	}
	blk := alloc(&p.a.blocks)
	*blk = lang.Block{Pos: pos, Kind: "link", Label: label, LabelPos: a.ExprPos(), Body: body, End: end}
	return blk, nil
}

// linkLabel is the label of `link LABEL { … }`: a name, number or string,
// or "" when a is none of these.
func linkLabel(a lang.Expr) string {
	switch x := a.(type) {
	case *lang.NumberLit:
		return x.Text
	case *lang.Ident:
		return x.Name
	case *lang.StringLit:
		return x.Value
	}
	return ""
}

// blockParams says why a block (other than a link template) cannot have
// parameters: nothing would use them.
const blockParams = "a block takes no parameters: a function (f(x) = …) or a link template (link(d) { … }) does"

// unquoteName is the name a String or Ident token stands for: a quoted
// name without its quotes.
func unquoteName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// param is `param NAME = VALUE`; the field is at its name.
func (p *stmtParser) param() (lang.Stmt, *synErr) {
	p.s.next()
	name := p.s.peek()
	switch {
	case name.kind == kIdent || name.kind == kString:
	case name.keyword("link") || name.keyword("node") || name.keyword("bus"):
	default:
		return nil, unexpected(name, "a parameter name")
	}
	p.s.next()
	if _, err := p.want("="); err != nil {
		return nil, err
	}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	f := alloc(&p.a.fields)
	*f = lang.Field{Pos: p.s.pos(name), Name: unquoteName(name.text), Value: v, IsParam: true}
	return f, nil
}

// node is `node FROM [.. TO] = TYPE`, or the topology field `node = TYPE`.
func (p *stmtParser) node() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	var from, to lang.Expr
	var err *synErr
	if startsExpr(p.s.peek()) {
		if from, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.s.peek().punct("..") {
		p.s.next()
		if to, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if _, err := p.want("="); err != nil {
		return nil, err
	}
	typ := p.s.peek()
	if typ.kind != kIdent && typ.kind != kNumber && typ.kind != kString {
		return nil, unexpected(typ, "a processor or switch type")
	}
	p.s.next()
	typePos := p.s.pos(typ)
	if from == nil {
		if to != nil {
			p.errs.Add(pos, "expected the first node before '..': node FROM .. TO = TYPE")
			return nil, nil
		}
		id := alloc(&p.a.idents)
		*id = lang.Ident{Pos: typePos, Name: unquoteName(typ.text)}
		f := alloc(&p.a.fields)
		*f = lang.Field{Pos: pos, Name: "node", Value: id}
		return f, nil
	}
	return &lang.Node{Pos: pos, From: from, To: to, Type: unquoteName(typ.text), TypePos: typePos}, nil
}

// forStmt is `for VAR in FROM .. TO { … }`.
func (p *stmtParser) forStmt() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	v := p.s.peek()
	if v.kind != kIdent {
		return nil, unexpected(v, "the loop variable")
	}
	p.s.next()
	if t := p.s.peek(); !t.keyword("in") {
		return nil, unexpected(t, `"in"`)
	}
	p.s.next()
	from, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.want(".."); err != nil {
		return nil, err
	}
	to, err := p.expr()
	if err != nil {
		return nil, err
	}
	open, err := p.want("{")
	if err != nil {
		return nil, err
	}
	body, _, err := p.body(open)
	if err != nil {
		return nil, err
	}
	return &lang.For{Pos: pos, Var: v.text, From: from, To: to, Body: body}, nil
}

// ifStmt is `if COND { … } [else if … | else { … }]`; a chain of else-ifs
// is read in a loop, however long.
func (p *stmtParser) ifStmt() (lang.Stmt, *synErr) {
	var first, last *lang.If
	for {
		n := &lang.If{Pos: p.s.pos(p.s.next())}
		var err *synErr
		if n.Cond, err = p.expr(); err != nil {
			return nil, err
		}
		open, err := p.want("{")
		if err != nil {
			return nil, err
		}
		if n.Then, _, err = p.body(open); err != nil {
			return nil, err
		}
		if first == nil {
			first = n
		} else {
			last.Else = []lang.Stmt{n}
		}
		last = n
		if !p.s.peek().keyword("else") {
			return first, nil
		}
		p.s.next()
		t := p.s.peek()
		if t.keyword("if") {
			continue
		}
		if !t.punct("{") {
			return nil, unexpected(t, `"if" or "{"`)
		}
		p.s.next()
		if n.Else, _, err = p.body(t); err != nil {
			return nil, err
		}
		if n.Else == nil {
			n.Else = []lang.Stmt{}
		}
		return first, nil
	}
}

// bus is `bus A, B, … [{ … }]`, a shared medium.
func (p *stmtParser) bus() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	mark := len(p.a.exprStack)
	defer func() { p.a.exprStack = p.a.exprStack[:mark] }()
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.a.exprStack = append(p.a.exprStack, e)
	if _, err := p.want(","); err != nil {
		return nil, err
	}
	for {
		if e, err = p.expr(); err != nil {
			return nil, err
		}
		p.a.exprStack = append(p.a.exprStack, e)
		if !p.s.peek().punct(",") {
			break
		}
		p.s.next()
	}
	l := &lang.Link{Pos: pos, Bus: true, Ends: p.a.exprList(mark)}
	if open := p.s.peek(); open.punct("{") {
		p.s.next()
		if l.Body, _, err = p.body(open); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// machine is `machine NAME [extends NAME] { … }`.
func (p *stmtParser) machine() (lang.Stmt, *synErr) {
	m := &lang.Machine{Pos: p.s.pos(p.s.next())}
	name := p.s.peek()
	if name.kind != kString && name.kind != kIdent {
		return nil, unexpected(name, "the machine's name")
	}
	p.s.next()
	m.Name = unquoteName(name.text)
	if p.s.peek().keyword("extends") {
		p.s.next()
		base := p.s.peek()
		if base.kind != kString && base.kind != kIdent {
			return nil, unexpected(base, "the name of the machine it extends")
		}
		p.s.next()
		m.Extends, m.ExtendsPos = unquoteName(base.text), p.s.pos(base)
	}
	open, err := p.want("{")
	if err != nil {
		return nil, err
	}
	if m.Body, m.End, err = p.body(open); err != nil {
		return nil, err
	}
	return m, nil
}

// importStmt is `import "path"`.
func (p *stmtParser) importStmt() (lang.Stmt, *synErr) {
	pos := p.s.pos(p.s.next())
	path := p.s.peek()
	if path.kind != kString {
		return nil, unexpected(path, `a quoted path such as "std:models"`)
	}
	p.s.next()
	return &lang.Import{Pos: pos, Path: unquoteName(path.text)}, nil
}
