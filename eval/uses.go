package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// Some derived indexes may be bounds rather than exact figures: bisection
// is exact where it can be computed (topo.Metrics.BisectionExact) and an
// upper bound elsewhere. A value computed from a bound rests on it, and a
// query must say so rather than print the value as fact. The mechanism is
// the smallest that is honest: values stay plain numbers, and Uses lists,
// for a query, the derived indexes that it and every field and function it
// refers to (transitively, as the resolver bound their names) rest on,
// with each figure and whether it is exact. `parasol eval` prints a note
// after a value that rests on a bound — "1.2ms (uses bisection ≤ 7, an
// upper bound)" — and, under --json, "bisection_exact".

// IndexUse is a derived index a value rests on, among those whose figure
// may be a bound (see Uses).
type IndexUse struct {
	Name  string  // "bisection"
	Value float64 // its figure on the machine's topology
	Exact bool    // false: Value is an upper bound
}

// String reads "bisection ≤ 7, an upper bound", or "bisection = 4".
func (u IndexUse) String() string {
	if u.Exact {
		return fmt.Sprintf("%s = %s", u.Name, lang.FormatNumber(u.Value))
	}
	return fmt.Sprintf("%s ≤ %s, an upper bound", u.Name, lang.FormatNumber(u.Value))
}

// Note is the text `parasol eval` puts after a value resting on the uses
// that are bounds: "(uses bisection ≤ 7, an upper bound)", or "" when
// every figure used is exact.
func Note(uses []IndexUse) string {
	var parts []string
	for _, u := range uses {
		if !u.Exact {
			parts = append(parts, u.String())
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(uses " + strings.Join(parts, "; ") + ")"
}

// Uses lists the derived indexes that may be bounds (bisection) on which
// the expression rests: named in it, or in any field or function it
// refers to, however indirectly — a reference through a computed label
// (processor(p).x) counts every field it may name. It does not evaluate
// the expression; an expression that does not resolve is an error.
func (m *Machine) Uses(expr string) ([]IndexUse, error) {
	e, err := parser.ParseExpr("<query>", expr)
	if err != nil {
		return nil, err
	}
	return m.UsesExpr(e)
}

// UsesExpr is Uses for a parsed expression.
func (m *Machine) UsesExpr(e lang.Expr) ([]IndexUse, error) {
	res, err := m.resolveQuery(e, m.root)
	if err != nil {
		return nil, err
	}
	w := &useWalker{m: m, seen: map[*field]bool{}, names: map[string]bool{}}
	w.expr(e, res)
	var out []IndexUse
	for name := range w.names {
		ix := indexes[name]
		if ix.exact == nil {
			continue
		}
		t, err := m.mainTopology(lang.Pos{})
		if err != nil {
			return nil, unwrapDep(err)
		}
		v, msg := ix.fn(t)
		if msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		out = append(out, IndexUse{Name: name, Value: v.Num, Exact: ix.exact(t)})
	}
	slices.SortFunc(out, func(a, b IndexUse) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// useWalker collects the derived indexes an expression rests on.
type useWalker struct {
	m     *Machine
	seen  map[*field]bool
	names map[string]bool
}

func (w *useWalker) expr(e lang.Expr, res *resolution) {
	lang.Inspect(e, func(e lang.Expr) bool {
		if e == nil {
			return false
		}
		b := res.get(e)
		switch {
		case b == nil:
		case b.kind == bIndex:
			w.names[b.name] = true
		case b.kind == bField:
			w.field(b.fld)
		case b.kind == bDyn && b.dyn == dynField:
			// The block is chosen when the label's value is known: every
			// block of that kind holding the field may be the one.
			if sel, ok := e.(*lang.Select); ok {
				switch xb := res.get(sel.X); {
				case xb != nil && xb.kind == bDyn && xb.dyn == dynBlock:
					w.eachField(w.m.root, xb.dkind, sel.Name)
				case xb != nil && xb.kind == bBlock && xb.obj.kind == "processor":
					// A NIC field through a nic block the processor
					// names by a param: its nic, and any nic block's.
					w.field(xb.obj.field("nic"))
					w.eachField(w.m.root, "nic", sel.Name)
				}
			}
		}
		return true
	})
}

// field walks a field's value or a function's body, once.
func (w *useWalker) field(f *field) {
	if f == nil || w.seen[f] {
		return
	}
	w.seen[f] = true
	w.expr(f.decl.Value, w.m.res)
}

// eachField walks the field name of every block of a kind under o.
func (w *useWalker) eachField(o *object, kind, name string) {
	if o.kind == kind {
		w.field(o.field(name))
	}
	for _, c := range o.children {
		w.eachField(c, kind, name)
	}
}
