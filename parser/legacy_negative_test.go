package parser_test

import (
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// TestLegacyNegativeNumberIsAMinusAppliedToANumber reads Parasol I values
// with a leading minus as the modern grammar reads them, so that fmt, after
// import, finds the same tree in the text it writes.
func TestLegacyNegativeNumberIsAMinusAppliedToANumber(t *testing.T) {
	tests := []struct {
		value string
		want  string // the value as formatted
		minus bool   // read as a minus applied to a number literal
	}{
		{value: "-5", want: "-5", minus: true},
		{value: "-0", want: "-0", minus: true},
		{value: "-20.", want: "-20", minus: true},
		{value: "-1.e+3", want: "-1e+3", minus: true},
		{value: "-.5", want: "-.5", minus: true},
		{value: "-2.5e-3", want: "-2.5e-3", minus: true},
		{value: "- 4", want: "-4", minus: true},
		{value: "5", want: "5"},
		{value: "1e-3", want: "1e-3"},
		{value: "--5", want: "--5"},
	}
	for _, tt := range tests {
		src := "machinename = \"m\"\nmodelsection = S\nx = " + tt.value + "\n"
		file, err := parser.ParseFile("in.machine", src)
		if err != nil {
			t.Errorf("%s: %v", tt.value, err)
			continue
		}
		sec := file.Stmts[0].(*lang.Machine).Body[0].(*lang.Block)
		v := sec.Body[0].(*lang.Field).Value
		if got := format.Expr(v); got != tt.want {
			t.Errorf("%s reads as %s, want %s", tt.value, got, tt.want)
		}
		u, isUnary := v.(*lang.Unary)
		if isUnary {
			_, isUnary = u.X.(*lang.NumberLit)
		}
		if isUnary != tt.minus {
			t.Errorf("%s reads as %T; a minus applied to a number: %v, want %v", tt.value, v, isUnary, tt.minus)
		}
		if r := formatsAsFmtRequires(src, file); r.fail != "" {
			t.Errorf("%s: %s", tt.value, r.fail)
		}
	}
}
