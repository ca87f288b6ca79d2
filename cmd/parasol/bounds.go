package main

import (
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// valueText is a value as eval and the REPL print it, with a note when it
// rests on a derived index that is only a bound: "1.2ms (uses bisection ≤ 7,
// an upper bound)"; the bound itself, asked for alone, reads "≤ 7".
func valueText(expr string, v lang.Value, uses []eval.IndexUse) string {
	for _, u := range uses {
		if !u.Exact && strings.TrimSpace(expr) == u.Name {
			return "≤ " + v.String()
		}
	}
	if note := eval.Note(uses); note != "" {
		return v.String() + " " + note
	}
	return v.String()
}

// exprLine is "EXPR = VALUE", or "EXPR ≤ VALUE" for a bound asked for alone.
func exprLine(expr, text string) string {
	if strings.HasPrefix(text, "≤ ") {
		return expr + " " + text
	}
	return expr + " = " + text
}

// withUses adds to an expression's JSON whether the bisection it rests on
// is exact, and the note when something it rests on is a bound.
func withUses(j jsonValue, uses []eval.IndexUse) jsonValue {
	for _, u := range uses {
		if u.Name == "bisection" {
			exact := u.Exact
			j.BisectionExact = &exact
		}
	}
	j.Note = strings.TrimSuffix(strings.TrimPrefix(eval.Note(uses), "("), ")")
	if j.Note != "" {
		j.Notes = []string{j.Note}
	}
	return j
}

// withBoundNote is a primitive's analytic cost as compare prints it, with
// the note when the primitive rests on a bound.
func withBoundNote(text string, m *eval.Machine, primitive string) string {
	uses, err := m.Uses(primitive)
	if note := eval.Note(uses); err == nil && note != "" {
		return text + " " + note
	}
	return text
}

// comparisonJSON is compare's JSON object, with "bisection_exact" when the
// primitive rests on the bisection width.
type comparisonJSON struct {
	*eval.Comparison
	BisectionExact *bool `json:"bisection_exact,omitempty"`
}

func withBisection(c *eval.Comparison, m *eval.Machine) comparisonJSON {
	out := comparisonJSON{Comparison: c}
	if uses, err := m.Uses(c.Primitive); err == nil {
		out.BisectionExact = withUses(jsonValue{}, uses).BisectionExact
	}
	return out
}
