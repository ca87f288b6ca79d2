package lsp

import (
	"fmt"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// A spot is what the AST says is at an offset of a document: the
// statements around it and the innermost expression under it.
type spot struct {
	machine *lang.Machine // the machine it is in, nil outside any
	blocks  []*lang.Block // the blocks it is in, outermost first
	program *lang.Program
	field   *lang.Field // the field it is in (its name or its value)
	onName  bool        // on the field's name
	node    *lang.Node  // a node statement whose type it is on
	imp     *lang.Import
	extends bool        // on the machine's extends name
	label   *lang.Block // a block whose label it is on
	// expr is the innermost expression under the offset: a call when on
	// the name of the function called.
	expr lang.Expr
	// locals are the names bound around the offset: the function's
	// parameters, the program's parameters, lets and loop variables, sum
	// variables, which a machine-level query would misread.
	// Each is described for hover.
	locals map[string]string
}

// kind is the kind of the innermost block ("machine" outside any).
func (s *spot) kind() string {
	if n := len(s.blocks); n > 0 {
		return s.blocks[n-1].Kind
	}
	return "machine"
}

// within reports whether off is in [a, b).
func within(off int, a, b lang.Pos) bool {
	return a.Src != nil && off >= a.Offset && (b.Src == nil || off < b.Offset)
}

// nameAt reports whether off is on the name starting at p.
func nameAt(off int, p lang.Pos, name string) bool {
	return p.Src != nil && off >= p.Offset && off <= p.Offset+len(name)
}

// locate finds what is at byte offset off of f.
func locate(f *lang.File, off int) *spot {
	s := &spot{locals: map[string]string{}}
	if f == nil {
		return s
	}
	stmts := f.Stmts
	for i, st := range stmts {
		if m, ok := st.(*lang.Machine); ok {
			end := m.End
			if !end.IsValid() && i+1 < len(stmts) { // Parasol I: up to the next statement
				end = stmts[i+1].StmtPos()
			}
			if !end.IsValid() {
				end = lang.Pos{}
			} else {
				end.Offset++
			}
			if within(off, m.Pos, end) {
				s.machine = m
				if m.Extends != "" && nameAt(off, m.ExtendsPos, `"`+m.Extends+`"`) {
					s.extends = true
					return s
				}
				s.stmts(m.Body, off)
				return s
			}
			continue
		}
		if s.stmt(st, off) {
			return s
		}
	}
	return s
}

// stmts looks for off in a list of statements.
func (s *spot) stmts(list []lang.Stmt, off int) bool {
	for _, st := range list {
		if s.stmt(st, off) {
			return true
		}
	}
	return false
}

// stmt looks for off in one statement, reporting whether it is there.
func (s *spot) stmt(st lang.Stmt, off int) bool {
	switch st := st.(type) {
	case *lang.Import:
		if off >= st.Pos.Offset && st.Pos.Line == lineAtOffset(st.Pos.Src, off) {
			s.imp = st
			return true
		}
	case *lang.Field:
		if nameAt(off, st.Pos, st.Name) {
			s.field, s.onName = st, true
			return true
		}
		if st.Value != nil && within(off, lang.Start(st.Value), endOr(lang.End(st.Value), lang.Start(st.Value))) {
			s.field = st
			for _, p := range st.Params {
				s.locals[p.Name] = "a parameter of " + st.Name + unitSuffix(p.Unit)
			}
			s.inExpr(st.Value, off)
			return true
		}
	case *lang.Block:
		if st.Label != "" && nameAt(off, st.LabelPos, st.Label) {
			s.label = st
			return true
		}
		if st.Gen != nil && within(off, lang.Start(st.Gen), endOr(lang.End(st.Gen), st.Gen.Pos)) {
			s.blocks = append(s.blocks, st)
			s.inExpr(st.Gen, off)
			return true
		}
		if within(off, st.Pos, past(st.End)) {
			s.blocks = append(s.blocks, st)
			for _, p := range st.Params {
				s.locals[p.Name] = "a parameter of " + st.Kind + unitSuffix(p.Unit)
			}
			s.stmts(st.Body, off)
			return true
		}
	case *lang.Node:
		if nameAt(off, st.TypePos, st.Type) {
			s.node = st
			return true
		}
		for _, e := range []lang.Expr{st.From, st.To} {
			if e != nil && s.inExpr(e, off) {
				return true
			}
		}
	case *lang.Link:
		for _, e := range st.Ends {
			if s.inExpr(e, off) {
				return true
			}
		}
		return s.stmts(st.Body, off)
	case *lang.For:
		s.locals[st.Var] = fmt.Sprintf("the loop variable, %s .. %s", format.Expr(st.From), format.Expr(st.To))
		if s.inExpr(st.From, off) || s.inExpr(st.To, off) {
			return true
		}
		if s.stmts(st.Body, off) {
			return true
		}
		delete(s.locals, st.Var)
	case *lang.If:
		return s.inExpr(st.Cond, off) || s.stmts(st.Then, off) || s.stmts(st.Else, off)
	case *lang.Program:
		if within(off, st.Pos, past(st.End)) {
			s.program = st
			s.locals["rank"] = "the rank running the program, from 0"
			s.locals["ranks"] = "the number of ranks"
			for _, p := range st.Params {
				d := fmt.Sprintf("a parameter of program %s%s", st.Name, unitSuffix(p.Unit))
				if p.Default != nil {
					d += ", by default " + format.Expr(p.Default)
				}
				s.locals[p.Name] = d
			}
			// Every let and loop variable of the program is local to it
			// (a name is bound once in a program).
			bound(st.Body, func(name, what string) { s.locals[name] = what })
			s.stmts(st.Body, off)
			return true
		}
	case *lang.Let:
		return s.inExpr(st.Value, off)
	case *lang.Do:
		return s.inExpr(st.Call, off)
	}
	return false
}

// inExpr sets s.expr to the innermost expression of e under off,
// reporting whether there is one.
func (s *spot) inExpr(e lang.Expr, off int) bool {
	if e == nil {
		return false
	}
	var best lang.Expr
	bestLen := -1
	var calls []*lang.Call
	lang.Inspect(e, func(x lang.Expr) bool {
		if x == nil {
			return false
		}
		a, b := lang.Start(x), lang.End(x)
		if !a.IsValid() || !b.IsValid() || off < a.Offset || off > b.Offset {
			if _, ok := x.(*lang.Sum); !ok {
				return true // a child's range may still hold it (a named argument's name)
			}
			return false
		}
		if sm, ok := x.(*lang.Sum); ok {
			s.locals[sm.Var] = fmt.Sprintf("the variable of sum, %s .. %s", format.Expr(sm.From), format.Expr(sm.To))
		}
		if c, ok := x.(*lang.Call); ok {
			calls = append(calls, c)
		}
		if n := b.Offset - a.Offset; bestLen < 0 || n <= bestLen {
			best, bestLen = x, n
		}
		return true
	})
	if best == nil {
		return false
	}
	for _, c := range calls {
		if c.Fn == best {
			best = c
		}
	}
	s.expr = best
	return true
}

// endOr is end, or when it is unknown a position just past start.
func endOr(end, start lang.Pos) lang.Pos {
	if end.IsValid() {
		return end
	}
	start.Offset++
	return start
}

// past is the position after p (a closing brace), or no end when p is unset.
func past(p lang.Pos) lang.Pos {
	if !p.IsValid() {
		return lang.Pos{}
	}
	p.Offset++
	return p
}

func lineAtOffset(src *lang.Source, off int) int {
	if src == nil {
		return 0
	}
	return src.PosAt(off).Line
}

// bound calls add with each name a program's statements bind (lets and
// loop variables) and what it is.
func bound(list []lang.Stmt, add func(name, what string)) {
	for _, st := range list {
		switch st := st.(type) {
		case *lang.Let:
			add(st.Name, "let "+st.Name+" = "+format.Expr(st.Value))
		case *lang.For:
			add(st.Var, fmt.Sprintf("the loop variable, %s .. %s", format.Expr(st.From), format.Expr(st.To)))
			bound(st.Body, add)
		case *lang.If:
			bound(st.Then, add)
			bound(st.Else, add)
		}
	}
}
