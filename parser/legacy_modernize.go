package parser

import (
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// Modernize rewrites a Parasol I file in the modern syntax with the same
// meaning: plain numbers of known fields get their implied units (1.2e+3
// in createjob becomes 1.2e+3ns), linkio becomes true/false, bare words
// that are not references become strings, and a Parasol I model primitive
// whose value is a plain number becomes a time in nanoseconds. Comments are
// kept. A modern file is returned unchanged.
//
// The loader applies an implied unit to a value once it is computed, so
// the rewrite must say the same of every expression, not only of number
// literals. Where the unit of an expression is known from its text (a
// literal, arithmetic on known units, a schema field, another primitive),
// a plain result is multiplied by the unit (f(n) = 100 + n becomes
// f(n) = (100 + n) * 1ns) and a result with a unit is left alone; where it
// depends on the arguments (f(n) = n * 2), the expression is wrapped in
// implied(…, 1ns), which applies the unit when the value is computed.
//
// What each field holds is the evaluator's to say: schema says it
// (eval.Modernize passes the evaluator's own).
func Modernize(f *lang.File, schema Schema) *lang.File {
	if !f.Legacy {
		return f
	}
	out := &lang.File{Src: f.Src, Comments: f.Comments}
	for _, s := range f.Stmts {
		if m, ok := s.(*lang.Machine); ok {
			mz := newModernizer(m.Body, schema)
			out.Stmts = append(out.Stmts, &lang.Machine{Pos: m.Pos, Name: m.Name, Extends: m.Extends, Body: mz.stmts("machine", "", m.Body)})
		} else {
			out.Stmts = append(out.Stmts, s)
		}
	}
	return out
}

// Schema is what Modernize must know of the machine schema, which the
// evaluator owns.
type Schema interface {
	// Field says what a field of a block kind holds.
	Field(kind, name string) FieldType
	// KnownKind reports whether a block kind is one the language knows.
	KnownKind(kind string) bool
	// Builtin reports whether name is a built-in function.
	Builtin(name string) bool
	// Label is the name the loader gives a number where a name is
	// expected (processortype = 1 names the processor 1).
	Label(v lang.Value) string
}

// FieldType is what the schema says of a field's value.
type FieldType struct {
	Kind FieldKind
	// Dim is the dimension of a FieldNumber's value.
	Dim lang.Dim
	// Unit is the unit a plain number of the field stands for in
	// Parasol I (ns, B/s, B, Hz, ns/B), or "".
	Unit string
}

// FieldKind is the kind of value a field holds.
type FieldKind uint8

// The kinds of field value.
const (
	FieldAny     FieldKind = iota // any value: nothing is known of it
	FieldNumber                   // a number of the field's Dim
	FieldPercent                  // a percentage, which a plain number is in Parasol I
	FieldBool
	FieldString
	FieldSymbol // a bare word such as wormhole or ecube
)

// modernizer rewrites one Parasol I machine.
type modernizer struct {
	names map[string]bool // every field and block label, for bare words
	// sections: model section label → primitive name → its definitions
	sections map[string]map[string][]*lang.Field
	rootVals map[string]bool // fields at machine level, which shadow sections
	prims    map[*lang.Field]*primDim
	schema   Schema
}

// primDim is the inferred unit of a primitive's value, with a mark that
// stops the inference going round a cycle of references.
type primDim struct {
	busy bool
	done bool
	dim  dimInfo
}

func newModernizer(body []lang.Stmt, s Schema) *modernizer {
	mz := &modernizer{names: map[string]bool{}, sections: map[string]map[string][]*lang.Field{},
		rootVals: map[string]bool{}, prims: map[*lang.Field]*primDim{}, schema: s}
	collectNames(body, mz.names)
	for _, s := range body {
		switch s := s.(type) {
		case *lang.Field:
			mz.rootVals[s.Name] = true
		case *lang.Block:
			if s.Kind != "modelsection" {
				continue
			}
			sec := mz.sections[s.Label]
			if sec == nil {
				sec = map[string][]*lang.Field{}
				mz.sections[s.Label] = sec
			}
			for _, st := range s.Body {
				if fl, ok := st.(*lang.Field); ok {
					sec[fl.Name] = append(sec[fl.Name], fl)
				}
			}
		}
	}
	return mz
}

func collectNames(stmts []lang.Stmt, names map[string]bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Field:
			names[s.Name] = true
		case *lang.Block:
			names[s.Label] = true
			collectNames(s.Body, names)
		}
	}
}

func (mz *modernizer) stmts(kind, label string, stmts []lang.Stmt) []lang.Stmt {
	// the fields defined once in the block, which its expressions may name
	siblings := map[string]*lang.Field{}
	defined := map[string]int{}
	for _, s := range stmts {
		if f, ok := s.(*lang.Field); ok && !strings.HasPrefix(f.Name, "processortype") && f.Name != "processornumber" {
			siblings[f.Name] = f
			defined[f.Name]++
		}
	}
	for n, c := range defined {
		if c > 1 {
			delete(siblings, n)
		}
	}
	var out []lang.Stmt
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Field:
			out = append(out, mz.field(kind, label, s, siblings))
		case *lang.Block:
			b := *s
			b.Body = mz.stmts(s.Kind, s.Label, s.Body)
			out = append(out, &b)
		default:
			out = append(out, s)
		}
	}
	return out
}

func (mz *modernizer) field(kind, label string, f *lang.Field, siblings map[string]*lang.Field) *lang.Field {
	g := *f
	t := mz.schema.Field(kind, f.Name)
	if n, ok := signedLiteral(f.Value); ok && n.Dim == lang.Dimensionless && !f.IsFunc() {
		pos := f.Value.ExprPos()
		switch {
		case t.Kind == FieldBool && (n.Num == 0 || n.Num == 1):
			g.Value = &lang.BoolLit{Pos: pos, Value: n.Num == 1}
			return &g
		case t.Kind == FieldSymbol:
			// The loader names a Parasol I number by its label; a modern
			// file must say the name, since a number there is an error.
			g.Value = &lang.StringLit{Pos: pos, Value: mz.schema.Label(n)}
			return &g
		}
	}
	switch v := f.Value.(type) {
	case *lang.Ident:
		switch {
		case t.Kind == FieldBool:
			// Only the words the loader accepts become bools; anything
			// else stays as written, so it fails the same way after import.
			switch strings.ToLower(v.Name) {
			case "yes", "true":
				g.Value = &lang.BoolLit{Pos: v.Pos, Value: true}
			case "no", "false":
				g.Value = &lang.BoolLit{Pos: v.Pos, Value: false}
			}
			return &g
		case t.Kind == FieldString || t.Kind == FieldAny && kind != "modelsection" && !mz.names[v.Name]:
			g.Value = &lang.StringLit{Pos: v.Pos, Value: v.Name}
			return &g
		}
	}
	switch {
	case kind == "modelsection":
		sc := mz.scope(label, f.Params)
		mz.constrain(f.Value, sc)
		g.Value = mz.withImplied(f.Value, sc, "ns")
	case t.Kind == FieldPercent && !strings.Contains(format.Expr(f.Value), "%"):
		// The loader scales a percent field written without % (Machine.check).
		g.Value = scaled(f.Value, "%")
	case t.Unit != "":
		sc := mz.scope("", nil)
		sc.kind, sc.siblings = kind, siblings
		g.Value = mz.withImplied(f.Value, sc, t.Unit)
	}
	return &g
}

// withImplied writes e so that a plain result takes the unit: a plain
// literal gets the unit as a suffix, an expression known to be plain is
// multiplied by it, one known to have a unit (or not to be a number) is
// kept, a condition is rewritten branch by branch, and anything else is
// wrapped in implied(e, unit).
func (mz *modernizer) withImplied(e lang.Expr, sc *inferScope, unit string) lang.Expr {
	if c, ok := e.(*lang.Cond); ok {
		return &lang.Cond{Pos: c.Pos, If: c.If, Then: mz.withImplied(c.Then, sc, unit), Else: mz.withImplied(c.Else, sc, unit)}
	}
	d := mz.infer(e, sc)
	switch {
	case d.known && (!d.num || d.dim != lang.Dimensionless):
		return e
	case d.known:
		return scaled(e, unit)
	}
	return &lang.Call{Pos: e.ExprPos(), Fn: &lang.Ident{Pos: e.ExprPos(), Name: "implied"}, Args: []lang.Expr{e, unitExpr(e.ExprPos(), unit)}}
}

// scaled writes a plain e in unit: 30 becomes 30%, 5 in ns/B 5ns / 1B,
// anything else e * 1unit.
func scaled(e lang.Expr, unit string) lang.Expr {
	if u, ok := e.(*lang.Unary); ok && u.Op == lang.Sub && isPlainLiteral(u.X) {
		// Parasol I's -5 is a minus applied to 5: it becomes -5ns.
		return &lang.Unary{Pos: u.Pos, Op: lang.Sub, X: scaled(u.X, unit)}
	}
	if isPlainLiteral(e) {
		v := e.(*lang.NumberLit)
		if _, single := lang.LookupUnit(unit); single {
			return withUnit(v, unit)
		}
		num, per, _ := strings.Cut(unit, "/")
		return &lang.Binary{Pos: v.Pos, Op: lang.Div, X: withUnit(v, num), Y: unitExpr(v.Pos, per)}
	}
	return &lang.Binary{Pos: e.ExprPos(), Op: lang.Mul, X: e, Y: unitExpr(e.ExprPos(), unit)}
}

// unitExpr is one of a unit: 1ns, or 1ns / 1B for a unit per byte.
func unitExpr(pos lang.Pos, unit string) lang.Expr {
	one := func(u string) lang.Expr {
		return withUnit(&lang.NumberLit{Pos: pos, Text: "1", Value: lang.Num(1)}, u)
	}
	if _, single := lang.LookupUnit(unit); single {
		return one(unit)
	}
	num, per, _ := strings.Cut(unit, "/")
	return &lang.Binary{Pos: pos, Op: lang.Div, X: one(num), Y: one(per)}
}

// isPlainLiteral reports whether e is a number literal written without a
// unit.
func isPlainLiteral(e lang.Expr) bool {
	v, ok := e.(*lang.NumberLit)
	if !ok {
		return false
	}
	_, err := strconv.ParseFloat(strings.TrimSuffix(v.Text, "."), 64)
	return err == nil
}

// signedLiteral is the value of a number literal, or of a minus applied to
// one, as Parasol I's negative numbers are read.
func signedLiteral(e lang.Expr) (lang.Value, bool) {
	if u, ok := e.(*lang.Unary); ok && u.Op == lang.Sub {
		if v, ok := u.X.(*lang.NumberLit); ok {
			return lang.Quantity(-v.Value.Num, v.Value.Dim), true
		}
	}
	if v, ok := e.(*lang.NumberLit); ok {
		return v.Value, true
	}
	return lang.Value{}, false
}

func withUnit(v *lang.NumberLit, unit string) *lang.NumberLit {
	val := v.Value
	u, _ := lang.LookupUnit(unit)
	return &lang.NumberLit{Pos: v.Pos, Text: trimNumber(v.Text) + unit, Value: lang.Quantity(val.Num*u.Num, u.Dim)}
}

// trimNumber keeps the number as written, dropping a trailing ".0" after a
// digit (20.0 becomes 20; -.0 stays).
func trimNumber(s string) string {
	if t, ok := strings.CutSuffix(s, ".0"); ok && t != "" && t[len(t)-1] >= '0' && t[len(t)-1] <= '9' {
		return t
	}
	return s
}
