package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/stdlib"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// hover says what is at off: a field's or param's value with its unit and
// what the schema says of it, a primitive's expression and cost, a derived
// index's value, a block's kind, an import's target.
func (s *server) hover(d *document, off int) *protocol.Hover {
	sp := locate(d.file, off)
	var m *eval.Machine
	if sp.machine != nil {
		m = d.machine(sp.machine.Name)
	} else {
		m = d.machine("")
	}
	var text string
	var at lang.Pos
	var end lang.Pos
	valued := false // the text shows a value the machine gave
	switch {
	case sp.field != nil && sp.onName:
		text, valued = d.hoverField(m, sp)
		at = sp.field.Pos
		end = at
		end.Offset += len(sp.field.Name)
	case sp.expr != nil:
		text, valued = hoverExpr(m, sp)
		at, end = lang.Start(sp.expr), lang.End(sp.expr)
	case sp.label != nil:
		b := sp.label
		text, at = fmt.Sprintf("**%s %s**", b.Kind, b.Label), b.LabelPos
		if doc := blockDoc(b.Kind); doc != "" {
			text += "\n\n" + doc
		}
		end = at
		end.Offset += len(b.Label)
	case sp.node != nil:
		text, at = fmt.Sprintf("**%s**: the node type of nodes %s", sp.node.Type, nodeRange(sp.node)), sp.node.TypePos
		end = at
		end.Offset += len(sp.node.Type)
	case sp.imp != nil:
		text, at = hoverImport(d, sp.imp), sp.imp.Pos
	case sp.extends:
		text, at = fmt.Sprintf("**machine %q** extends machine %q: it starts from every definition of %q", sp.machine.Name, sp.machine.Extends, sp.machine.Extends), sp.machine.ExtendsPos
	}
	if text == "" {
		return nil
	}
	if valued && len(d.skipped) > 0 {
		var ls []string
		for _, l := range d.skipped {
			ls = append(ls, fmt.Sprint(l))
		}
		text += fmt.Sprintf("\n\n(values computed without line %s, in error)", strings.Join(ls, ", "))
	}
	h := &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}}
	if at.Src != nil {
		a := at.Offset
		b := a
		if end.Src != nil && end.Offset > a {
			b = end.Offset
		} else {
			_, b = wordAt(d.text, a)
		}
		r := d.lines.span(d.text, a, b)
		h.Range = &r
	}
	return h
}

// blockDoc is what the schema says of a kind of block.
func blockDoc(kind string) string {
	return eval.BlockDoc(kind)
}

func nodeRange(n *lang.Node) string {
	s := format.Expr(n.From)
	if n.To != nil {
		s += " .. " + format.Expr(n.To)
	}
	return s
}

// hoverField describes the field whose name is at the spot: its value in
// the loaded machine, and the schema's type, unit and documentation.
func (d *document) hoverField(m *eval.Machine, sp *spot) (string, bool) {
	f := sp.field
	kind := sp.kind()
	var b strings.Builder
	what := "field"
	switch {
	case f.IsParam:
		what = "param"
	case f.IsFunc():
		what = "function"
	}
	valued := false
	if v, ok := fieldValue(m, f.Pos); ok && !v.Func {
		valued = true
		fmt.Fprintf(&b, "**%s %s** = `%s`", what, f.Name, v.Value)
		if v.Value.Kind == lang.Number {
			fmt.Fprintf(&b, " (%s", v.Value.Dim.Name())
			if u := v.Value.Dim.Unit(); u != "1" {
				fmt.Fprintf(&b, ", %s %s", lang.FormatNumber(v.Value.Num), u)
			}
			b.WriteString(")")
		}
	} else if f.IsFunc() {
		var ps []string
		for _, p := range f.Params {
			ps = append(ps, p.Name+unitSuffix(p.Unit))
		}
		fmt.Fprintf(&b, "**%s %s(%s)** = `%s`", what, f.Name, strings.Join(ps, ", "), format.Expr(f.Value))
	} else {
		fmt.Fprintf(&b, "**%s %s** = `%s`", what, f.Name, format.Expr(f.Value))
		if m == nil {
			b.WriteString(" (the machine does not load: see the diagnostics)")
		}
	}
	if n := len(sp.blocks); n > 0 {
		bl := sp.blocks[n-1]
		fmt.Fprintf(&b, "\n\nin %s", strings.TrimSpace(bl.Kind+" "+bl.Label))
	}
	if sf, ok := eval.FieldOf(kind, f.Name); ok && !sf.Own && !f.IsParam && !f.IsFunc() {
		fmt.Fprintf(&b, "\n\n%s", sf.Type)
		if sf.Unit != "" {
			fmt.Fprintf(&b, ", in %s", sf.Unit)
		}
		if sf.Doc != "" {
			fmt.Fprintf(&b, ": %s", sf.Doc)
		}
		if len(sf.Enum) > 0 {
			var names []string
			for _, e := range sf.Enum {
				names = append(names, e.Name)
			}
			fmt.Fprintf(&b, "\n\none of: %s", strings.Join(names, ", "))
		}
	}
	return b.String(), valued
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return ": " + u
}

// fieldValue is the loaded machine's field declared at p.
func fieldValue(m *eval.Machine, p lang.Pos) (eval.Field, bool) {
	if m == nil || p.Src == nil {
		return eval.Field{}, false
	}
	for _, f := range m.Fields() {
		if f.Pos.Src != nil && f.Pos.Offset == p.Offset && f.Pos.Src.Name == p.Src.Name {
			return f, true
		}
	}
	return eval.Field{}, false
}

// hoverExpr describes the expression at the spot: its text and, when it
// names nothing local (a function's parameter, a program's variable), its
// value in the machine; a derived index with its documentation.
func hoverExpr(m *eval.Machine, sp *spot) (string, bool) {
	e := sp.expr
	var b strings.Builder
	local := ""
	lang.Inspect(e, func(x lang.Expr) bool {
		if id, ok := x.(*lang.Ident); ok && sp.locals[id.Name] != "" && local == "" {
			local = id.Name
		}
		return true
	})
	if id, ok := e.(*lang.Ident); ok && local != "" {
		return fmt.Sprintf("**%s**: %s", id.Name, sp.locals[id.Name]), false
	}
	if lit, ok := e.(*lang.NumberLit); ok {
		v := lit.Value
		if v.Dim == lang.Dimensionless {
			return "", false // a plain number says all there is
		}
		return fmt.Sprintf("`%s` = %s %s (%s)", lit.Text, lang.FormatNumber(v.Num), v.Dim.Unit(), v.Dim.Name()), false
	}
	if c, ok := e.(*lang.Call); ok && len(sp.blocks) > 0 && sp.blocks[len(sp.blocks)-1].Gen == c {
		if id, ok := c.Fn.(*lang.Ident); ok {
			if g, ok := registry.LookupGenerator(id.Name); ok {
				return fmt.Sprintf("`%s`: the topology generator %s: %s (%s)", format.Expr(c), g.Signature, g.Doc, g.Ranges), false
			}
		}
	}
	if w, ok := enumWord(sp, e); ok {
		return fmt.Sprintf("**%s**: %s", w.Name, w.Doc), false
	}
	fmt.Fprintf(&b, "`%s`", format.Expr(e))
	if local != "" {
		fmt.Fprintf(&b, "\n\ndepends on %s, which is local: evaluated where it is used", local)
		if c, ok := e.(*lang.Call); ok && m != nil {
			if sig := signature(m, format.Expr(c.Fn)); sig != "" {
				fmt.Fprintf(&b, "\n\n%s", sig)
			}
		}
		return b.String(), false
	}
	valued := false
	if m != nil {
		v, err := m.EvalExpr(e)
		if err != nil && len(sp.blocks) > 0 {
			v, err = siblingValue(m, sp, e)
		}
		switch {
		case err == nil:
			valued = true
			fmt.Fprintf(&b, " = `%s`", v)
			if v.Kind == lang.Number {
				fmt.Fprintf(&b, " (%s)", v.Dim.Name())
			}
		case isCall(e):
			fmt.Fprintf(&b, "\n\nnot evaluated: %s", firstLine(err.Error()))
		}
	}
	if c, ok := e.(*lang.Call); ok && m != nil {
		if sig := signature(m, format.Expr(c.Fn)); sig != "" {
			fmt.Fprintf(&b, "\n\n%s", sig)
		}
	}
	if id, ok := e.(*lang.Ident); ok {
		if doc, ok := eval.IndexDoc(id.Name); ok {
			fmt.Fprintf(&b, "\n\nderived index: %s", doc)
		}
	}
	return b.String(), valued
}

// enumWord is the registry's entry for a word given to a field that takes
// one (switching = wormhole).
func enumWord(sp *spot, e lang.Expr) (registry.Entry, bool) {
	id, ok := e.(*lang.Ident)
	if !ok || sp.field == nil || sp.field.Value != e {
		return registry.Entry{}, false
	}
	f, ok := eval.FieldOf(sp.kind(), sp.field.Name)
	if !ok {
		return registry.Entry{}, false
	}
	for _, w := range f.Enum {
		if strings.EqualFold(w.Name, id.Name) || slices.ContainsFunc(w.Aliases, func(a string) bool { return strings.EqualFold(a, id.Name) }) {
			return w, true
		}
	}
	return registry.Entry{}, false
}

// siblingValue is the value of a name in a block, which names the block's
// own fields: the field of that name in the innermost block, if the
// loaded machine has it.
func siblingValue(m *eval.Machine, sp *spot, e lang.Expr) (lang.Value, error) {
	id, ok := e.(*lang.Ident)
	bl := sp.blocks[len(sp.blocks)-1]
	if ok {
		for _, st := range bl.Body {
			if f, ok := st.(*lang.Field); ok && f.Name == id.Name {
				if v, ok := fieldValue(m, f.Pos); ok {
					return v.Value, nil
				}
			}
		}
	}
	return lang.Value{}, fmt.Errorf("%s is not a field of %s %s", format.Expr(e), bl.Kind, bl.Label)
}

func isCall(e lang.Expr) bool {
	_, ok := e.(*lang.Call)
	return ok
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// signature describes the function at path in the machine: its
// parameters and its expression.
func signature(m *eval.Machine, path string) string {
	for _, f := range m.Fields() {
		if f.Func && f.Path == path {
			sig := fmt.Sprintf("function %s(%s)", f.Path, strings.Join(f.Params, ", "))
			if f.Expr != nil {
				sig += " = `" + format.Expr(f.Expr) + "`"
			}
			return sig
		}
	}
	return ""
}

// hoverImport names what an import brings in.
func hoverImport(d *document, im *lang.Import) string {
	if name, ok := strings.CutPrefix(im.Path, "std:"); ok {
		if _, found := stdlib.Machine(name); found {
			return fmt.Sprintf("**import %q**: the standard machine %s", im.Path, name)
		}
		return fmt.Sprintf("**import %q**: no standard machine %s", im.Path, name)
	}
	return fmt.Sprintf("**import %q**: the machines and shared definitions of %s", im.Path, resolveImport(d, im.Path))
}
