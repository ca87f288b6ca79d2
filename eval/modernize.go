package eval

import (
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// Modernize rewrites a Parasol I file in the modern syntax with the same
// meaning: plain numbers of known fields get their implied units (1.2e+3
// in createjob becomes 1.2e+3ns), linkio becomes true/false, bare words
// that are not references become strings, and a Parasol I model primitive
// whose value is a plain number becomes a time in nanoseconds. Comments are
// kept. A modern file is returned unchanged.
func Modernize(f *lang.File) *lang.File {
	if !f.Legacy {
		return f
	}
	out := &lang.File{Src: f.Src, Comments: f.Comments}
	for _, s := range f.Stmts {
		if m, ok := s.(*lang.Machine); ok {
			names := map[string]bool{}
			collectNames(m.Body, names)
			out.Stmts = append(out.Stmts, &lang.Machine{Pos: m.Pos, Name: m.Name, Extends: m.Extends, Body: modernStmts("machine", m.Body, names)})
		} else {
			out.Stmts = append(out.Stmts, s)
		}
	}
	return out
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

func modernStmts(kind string, stmts []lang.Stmt, names map[string]bool) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Field:
			out = append(out, modernField(kind, s, names))
		case *lang.Block:
			b := *s
			b.Body = modernStmts(s.Kind, s.Body, names)
			out = append(out, &b)
		default:
			out = append(out, s)
		}
	}
	return out
}

func modernField(kind string, f *lang.Field, names map[string]bool) *lang.Field {
	g := *f
	t := fieldTypeOf(kind, f.Name)
	switch v := f.Value.(type) {
	case *lang.NumberLit:
		if v.Value.Dim != lang.Dimensionless || f.IsFunc() {
			break
		}
		switch {
		case t == tBool && (v.Value.Num == 0 || v.Value.Num == 1):
			g.Value = &lang.BoolLit{Pos: v.Pos, Value: v.Value.Num == 1}
		case t == tPercent:
			g.Value = withUnit(v, "%")
		case t == tSymbol:
			g.Value = &lang.StringLit{Pos: v.Pos, Value: labelOf(v.Value)}
		case kind == "modelsection":
			g.Value = withUnit(v, "ns")
		default:
			if unit := legacyUnit(t); unit != "" {
				g.Value = withUnit(v, unit)
			}
		}
	case *lang.Ident:
		switch {
		case t == tBool:
			// Only the words the loader accepts become bools; anything
			// else stays as written, so it fails the same way after import.
			switch strings.ToLower(v.Name) {
			case "yes", "true":
				g.Value = &lang.BoolLit{Pos: v.Pos, Value: true}
			case "no", "false":
				g.Value = &lang.BoolLit{Pos: v.Pos, Value: false}
			}
		case t == tString || t == tAny && kind != "modelsection" && !names[v.Name]:
			g.Value = &lang.StringLit{Pos: v.Pos, Value: v.Name}
		}
	}
	return &g
}

// legacyUnit is the unit a plain number of a field type carries in Parasol I.
func legacyUnit(t fieldType) string {
	switch t {
	case tTime:
		return "ns"
	case tRate:
		return "B/s"
	case tSize:
		return "B"
	case tFreq:
		return "Hz"
	case tTimePerByte:
		return ""
	}
	return ""
}

func withUnit(v *lang.NumberLit, unit string) *lang.NumberLit {
	val := v.Value
	u := lang.Units[unit]
	return &lang.NumberLit{Pos: v.Pos, Text: trimNumber(v.Text) + unit, Value: lang.Quantity(val.Num*u.Num, u.Dim)}
}

// trimNumber keeps the number as written, dropping a trailing ".0".
func trimNumber(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
