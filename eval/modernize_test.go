package eval

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// TestImpliedAppliesTheUnitToPlainNumbersOnly evaluates the built-in that
// `parasol import` writes where a value's unit is known only when it is
// computed: a bool or a name is kept, as Parasol I keeps it.
func TestImpliedAppliesTheUnitToPlainNumbersOnly(t *testing.T) {
	m, err := LoadSource("m.machine", "machine \"m\" {\n\tf(n) = implied(n * 2, 1ns)\n\tg(n) = implied(n, 1ns)\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expr, want, err string
	}{
		{expr: "implied(3, 1ns)", want: "3ns"},
		{expr: "implied(2us, 1ns)", want: "2us"},
		{expr: "implied(1KB, 1ns)", want: "1KB"},
		{expr: "implied(3, 1B/s)", want: "3B/s"},
		{expr: "implied(0, 1ns)", want: "0s"},
		{expr: "f(3)", want: "6ns"},
		{expr: "f(3us)", want: "6us"},
		{expr: "implied(3, 2)", err: "implied: the unit must have a dimension, e.g. 1ns, not be a plain number"},
		{expr: "implied(3, 1%)", err: "implied: the unit must have a dimension"},
		{expr: "implied(true, 1ns)", want: "true"},
		{expr: "implied(1 > 2, 1ns)", want: "false"},
		{expr: `implied("word", 1ns)`, want: `"word"`},
		{expr: "g(3)", want: "3ns"},
		{expr: "g(2 > 1)", want: "true"},
		{expr: "implied(3, true)", err: "implied needs a number for the unit, got a bool"},
		{expr: "g(true) + 1ns", err: "cannot add a bool and a time"},
		{expr: "implied(3)", err: "implied takes two arguments, got 1"},
	}
	for _, tt := range tests {
		v, err := m.Eval(tt.expr)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s = %v, %v; want the error %q", tt.expr, v, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.expr, err)
		case tt.err == "" && v.String() != tt.want:
			t.Errorf("%s = %v, want %s", tt.expr, v, tt.want)
		}
	}
}

// TestImportWritesImpliedUnitsOnExpressions converts Parasol I fields and
// primitives and checks the modern text: a plain literal gets the unit, an
// expression known to be plain is multiplied by it, one known to have a
// unit is kept, a condition is rewritten branch by branch, and a value
// whose unit depends on the arguments is wrapped in implied(…), and a
// negative number, which the modern syntax reads as a minus applied to a
// number, keeps its sign. The imported machine loads with the same values.
func TestImportWritesImpliedUnitsOnExpressions(t *testing.T) {
	tests := []struct {
		block      string // a section header, or "" for a line of processor 1
		line, want string
	}{
		{"modelsection = PVM", "spawn = 2500", "spawn = 2500ns"},
		{"modelsection = PVM", "spawn = 2 * 1250", "spawn = 2 * 1250 * 1ns"},
		{"modelsection = PVM", "spawn = 2.5us", "spawn = 2.5us"},
		{"modelsection = PVM", "f(n) = 100 + n", "f(n) = (100 + n) * 1ns"},
		{"modelsection = PVM", "f(n) = n * 2", "f(n) = implied(n * 2, 1ns)"},
		{"modelsection = PVM", "f(n) = if n < 10 then 100 else n * 1ns", "f(n) = if n < 10 then 100ns else n * 1ns"},
		{"modelsection = PVM", "f(n: B) = 100us + n * 10ns / 1B", "f(n: B) = 100us + n * 10ns / 1B"},
		{"modelsection = PVM", "f(n: B) = 100 + n / 1B", "f(n: B) = (100 + n / 1B) * 1ns"},
		{"modelsection = PVM", "f(p) = log2(p) * 2", "f(p) = log2(p) * 2 * 1ns"},
		{"modelsection = PVM", "f(p) = max(p, 3)", "f(p) = max(p, 3) * 1ns"},
		{"modelsection = PVM", "f(p) = sum(i in 1 .. p, 2)", "f(p) = implied(sum(i in 1 .. p, 2), 1ns)"},
		{"modelsection = PVM", "f(n) = n * processor(1).createjob", "f(n) = implied(n * processor(1).createjob, 1ns)"},
		{"modelsection = PVM", "f(n) = 2 + processor(1).mantissa", "f(n) = (2 + processor(1).mantissa) * 1ns"},
		{"", "createjob = 1000 + 200", "createjob = (1000 + 200) * 1ns"},
		{"", "route_per_byte = 5", "route_per_byte = 5ns/B"},
		{"", "route_per_byte = 2 + 3", "route_per_byte = (2 + 3) * 1ns/B"},
		{"", "maxrecvdelay = 30", "maxrecvdelay = 30%"},
		{"", "maxrecvdelay = 10 + 5", "maxrecvdelay = (10 + 5) * 1%"},
		{"", "jobswitch = createjob / 2", "jobswitch = createjob / 2"},
		{"", "jobswitch = foo / 2", "jobswitch = implied(foo / 2, 1ns)"},
		{"modelsection = PVM", "spawn = -5", "spawn = -5ns"},
		{"modelsection = PVM", "spawn = -20.", "spawn = -20ns"},
		{"modelsection = PVM", "spawn = -1.e+3", "spawn = -1e+3ns"},
		{"modelsection = PVM", "spawn = -0", "spawn = -0ns"},
		{"modelsection = PVM", "spawn = -2.5us", "spawn = -2.5us"},
		{"processor = 2", "fp type = -1", `"fp type" = "-1"`},
		{"topology = 1\nlinknumber = 0\nlinkspeed = 1e7", "linkio = -0", "linkio = false"},
		{"topology = 1\nlinknumber = 0\nlinkspeed = 1e7", "linkio = -1", "linkio = -1"},
	}
	for _, tt := range tests {
		src := "machinename = \"m\"\nprocessor = 1\ncreatejob = 1200\nmantissa = 24\nfoo = 3\n"
		if tt.block != "" {
			src += tt.block + "\n"
		}
		src += tt.line + "\n"
		f, err := parser.ParseFile("in.machine", src)
		if err != nil {
			t.Fatal(err)
		}
		out := format.File(Modernize(f))
		if !strings.Contains(out, "\t"+tt.want+"\n") {
			t.Errorf("%s: want the line %q in\n%s", tt.line, tt.want, out)
			continue
		}
		old, errOld := LoadSource("in.machine", src)
		imported, errNew := LoadSource("imported.machine", out)
		switch {
		case errOld != nil && errNew != nil:
			// refused before import and after, as check refuses it
		case errOld != nil || errNew != nil:
			t.Errorf("%s: loads with %v before import, %v after\n%s", tt.line, errOld, errNew, out)
		default:
			sameFields(t, tt.line, old, imported)
		}
	}
}
