package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

func TestExprPrecedence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1 + 2 * 3", "1 + 2 * 3"},
		{"(1 + 2) * 3", "(1 + 2) * 3"},
		{"-2^2", "-2^2"},
		{"(-2)^2", "(-2)^2"},
		{"2^3^2", "2^3^2"},
		{"(2^3)^2", "(2^3)^2"},
		{"a - b - c", "a - b - c"},
		{"a - (b - c)", "a - (b - c)"},
		{"not a and b or c", "not a and b or c"},
		{"not (a and b)", "not (a and b)"},
		{"if a then b else c + 1", "if a then b else c + 1"},
		{"(if a then b else c) + 1", "(if a then b else c) + 1"},
		{"processor(1).float_timings.mul", "processor(1).float_timings.mul"},
		{`processor(1)."fp type"`, `processor(1)."fp type"`},
		{"sum(i in 1..n, i*2)", "sum(i in 1 .. n, i * 2)"},
		{"20Mbit/s / 8", "20Mbit/s / 8"},
		{"n/b", "n / b"},
		{"1.2e+3ns", "1.2e+3ns"},
	}
	for _, tt := range tests {
		e, err := ParseExpr("t", tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := format.Expr(e); got != tt.want {
			t.Errorf("%s: formatted as %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestUnits(t *testing.T) {
	tests := []struct {
		in  string
		num float64
		dim lang.Dim
	}{
		{"1.5us", 1.5e-6, lang.TimeDim},
		{"3µs", 3e-6, lang.TimeDim},
		{"4KiB", 4096, lang.SizeDim},
		{"1KB", 1000, lang.SizeDim},
		{"20Mbit/s", 2.5e6, lang.RateDim},
		{"10MB/s", 1e7, lang.RateDim},
		{"400MHz", 4e8, lang.FreqDim},
		{"30%", 0.3, lang.Dimensionless},
		{"8bit", 1, lang.SizeDim},
	}
	for _, tt := range tests {
		e, err := ParseExpr("t", tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		v := e.(*lang.NumberLit).Value
		if d := v.Num - tt.num; d > 1e-9*tt.num || d < -1e-9*tt.num || v.Dim != tt.dim {
			t.Errorf("%s = %g %v, want %g %v", tt.in, v.Num, v.Dim, tt.num, tt.dim)
		}
	}
	if _, err := ParseExpr("t", "5parsecs"); err == nil || !strings.Contains(err.Error(), "unknown unit") {
		t.Errorf("5parsecs: got %v, want an unknown unit error", err)
	}
}

func TestIncomplete(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"1 + 2", false},
		{"1 +", true},
		{"machine \"m\" {", true},
		{"machine \"m\" {\n param a = 1\n}", false},
		{"f(1,", true},
		{"if a then", true},
		{"x = ", true},
		{"\"open", true},
		{"a # comment (", false},
	}
	for _, tt := range tests {
		if got := Incomplete(tt.in); got != tt.want {
			t.Errorf("Incomplete(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseInput(t *testing.T) {
	for in, isExpr := range map[string]bool{
		"1 + 2":                                  true,
		"PVM.send(1, 2, 3)":                      true,
		"x = 5":                                  false,
		"f(n) = n * 2":                           false,
		"param a = 1ns":                          false,
		"processor p { }":                        false,
		"processor(p).clock":                     true,
		"topology t = ring(4) { speed = 1GB/s }": false,
		"topology 100 = ring(4) { }":             false,
		"topology(t).speed == topology(u).speed": true,
		"topology(100).link(0).linkspeed":        true,
	} {
		in2, err := ParseInput("t", in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if (in2.Expr != nil) != isExpr {
			t.Errorf("%q: parsed as %s, want expression=%v", in, in2, isExpr)
		}
	}
}

func TestIsLegacy(t *testing.T) {
	if !IsLegacy("# c\nmachinename = \"x\"\n") || IsLegacy("machine \"x\" {}") {
		t.Error("IsLegacy misclassifies")
	}
}

// TestLimits feeds inputs built to exhaust the stack or the parser: each
// must come back as a clear error (or a value), never a crash.
func TestLimits(t *testing.T) {
	const n = 100_000
	tests := []struct{ name, in, want string }{
		{"parentheses", strings.Repeat("(", n) + "1" + strings.Repeat(")", n), "nesting deeper than"},
		{"brackets in a file", "machine \"m\" { x = " + strings.Repeat("(", n) + " }", "nesting deeper than"},
		{"conditionals", strings.Repeat("if a then ", n) + "1" + strings.Repeat(" else 2", n), "conditionals nested deeper"},
		{"calls", strings.Repeat("f(", n) + "1" + strings.Repeat(")", n), "nesting deeper than"},
	}
	for _, tt := range tests {
		_, err := ParseExpr("t", tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	// Long flat chains parse without recursing, up to MaxTerms; beyond, a
	// clear error (evaluating them would recurse as deep).
	if _, err := ParseExpr("t", "1"+strings.Repeat(" + 1", MaxTerms-1)); err != nil {
		t.Errorf("long sum: %v", err)
	}
	for name, in := range map[string]string{
		"long sum":    "1" + strings.Repeat(" + 1", n),
		"minus signs": strings.Repeat("-", n) + "1",
		"nots":        strings.Repeat("not ", n) + "true",
	} {
		if _, err := ParseExpr("t", in); err == nil || !strings.Contains(err.Error(), "expression longer than") {
			t.Errorf("%s: got %v, want a length error", name, err)
		}
	}
}

func TestErrorPositions(t *testing.T) {
	_, err := ParseFile("f.machine", "machine \"m\" {\n\tparam a = 1 +* 2\n}\n")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"f.machine:2:15:", "param a = 1 +* 2", "^"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

// The fast path for whole numbers gives what lang.ParseQuantity gives.
func TestQuickQuantityMatchesParseQuantity(t *testing.T) {
	for _, text := range []string{
		"0", "7", "0123", "230", "999999999999999", "1234567890123456", "99999999999999999999",
		"230ns", "2667231B/s", "4KiB", "20Mbit/s", "400MHz", "30%", "8bit", "1us", "3µs", "5e3", "5E3ms",
		"1.5", "5zz", "1.2e+3ns", "12ns5", "",
	} {
		want, werr := lang.ParseQuantity(text)
		got, ok := quickQuantity(text)
		if !ok {
			continue
		}
		if werr != nil || got != want {
			t.Errorf("%q: fast path %v, ParseQuantity %v (%v)", text, got, want, werr)
		}
	}
	for _, text := range []string{"230", "230ns", "2667231B/s", "30%"} {
		if _, ok := quickQuantity(text); !ok {
			t.Errorf("%q takes the slow path", text)
		}
	}
}

// TestSyntaxErrorsRecovered checks that the parser goes on after a syntax
// error at the end of the statement (the line, a ';', the enclosing '}'),
// reports each broken line once, and says what it expected there.
func TestSyntaxErrorsRecovered(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // line:col: message, in order
	}{
		{"one error per broken statement", "machine \"m\" {\n\tx = 1 2 { a = 1 }\n\ty = (1 +\n\tz = 3\n\tw = 4 4 4 4\n}\n",
			[]string{`2:8: syntax error: unexpected token "2" (expected '}')`, `4:4: syntax error: unexpected token "=" (expected ")")`,
				`5:8: syntax error: unexpected token "4" (expected '}')`}},
		{"a ';' ends the broken statement", "machine \"m\" { x = ; y = ) }",
			[]string{`1:19: syntax error: unexpected token ";" (expected an expression)`}},
		{"lexical errors", "machine \"m\" {\n\tb = \"open\n\tc = $ + 1\n\td = 2\n}\n",
			[]string{"2:6: syntax error: unterminated string", "3:6: syntax error: unexpected character '$'"}},
		{"an unclosed block", "machine \"m\" {\n\tprocessor p {\n\t\ta = 1\n}\n",
			[]string{"5:1: syntax error: unexpected end of input (expected '}')"}},
		{"stray closing braces", "machine \"m\" { param a = 1 }}}}\nx = 1 2\n",
			[]string{"1:28: syntax error: unexpected token '}'", `2:7: syntax error: unexpected token "2" (expected a statement)`}},
		{"statement forms", "machine \"m\" {\n\tfor i 0 .. 3 { }\n\timport 5\n\tbus 0 { }\n\tif a { } else 5\n\tf(1) = 2\n\tnode 0 .. = x\n\tlink 0 -- { }\n\tmachine {}\n}\n",
			[]string{`2:8: syntax error: unexpected token "0" (expected "in")`, `3:9: syntax error: unexpected token "5" (expected a quoted path such as "std:models")`,
				`4:8: syntax error: unexpected token "{" (expected ",")`, `5:16: syntax error: unexpected token "5" (expected "if" or "{")`,
				`6:4: syntax error: unexpected token "1" (expected a parameter name or ")")`, `7:12: syntax error: unexpected token "=" (expected an expression)`,
				`8:12: syntax error: unexpected token "{" (expected an expression)`, `9:10: syntax error: unexpected token "{" (expected the machine's name)`}},
		{"errors after the syntax are positioned at their part", "machine \"m\" {\n\tprocessor cpu\n\tnode .. 3 = cpu\n\ttopology t = 5 { }\n\tx = 5zz\n\tt(a: B) = f() {}\n}\n",
			[]string{"2:12: expected '=' or '{' after processor", "3:2: expected the first node before '..': node FROM .. TO = TYPE",
				"4:15: expected a generator call such as hypercube(6) after '='", `5:6: unknown unit "zz" (did you mean "Hz"?)`,
				"6:3: a block takes no parameters: a function (f(x) = …) or a link template (link(d) { … }) does"}},
	}
	for _, tt := range tests {
		_, err := ParseFile("f.machine", tt.in)
		var ds lang.Diagnostics
		if !errors.As(err, &ds) {
			t.Errorf("%s: want diagnostics, got %v", tt.name, err)
			continue
		}
		var got []string
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Col, d.Msg))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n--- got ---\n%s\n--- want ---\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// Errors stop at MaxErrors, found in one pass over the file.
func TestErrorsBoundedByMaxErrors(t *testing.T) {
	in := "machine \"m\" {\n" + strings.Repeat("\tx = 1 +* 2\n", 3*MaxErrors) + "}\n"
	_, err := ParseFile("f.machine", in)
	var ds lang.Diagnostics
	if !errors.As(err, &ds) || len(ds) != MaxErrors {
		t.Fatalf("want %d diagnostics, got %d: %v", MaxErrors, len(ds), err)
	}
	for i, d := range ds {
		if d.Pos.Line != i+2 {
			t.Errorf("diagnostic %d at line %d, want %d", i, d.Pos.Line, i+2)
		}
	}
}

// Every position of the tree points at its part of the text.
func TestPositionsOfParts(t *testing.T) {
	const in = "machine \"m\" extends \"base\" {\n\tprocessor cpu { clock = 1GHz }\n\ttopology t {\n\t\tnode 0 .. 3 = cpu\n\t\tnode = \"gpu\"\n\t}\n}\n"
	f, err := ParseFile("f.machine", in)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Stmts[0].(*lang.Machine)
	proc := m.Body[0].(*lang.Block)
	topo := m.Body[1].(*lang.Block)
	node := topo.Body[0].(*lang.Node)
	field := topo.Body[1].(*lang.Field)
	for _, tt := range []struct {
		what string
		pos  lang.Pos
		want string // line:col
	}{
		{"machine", m.Pos, "1:1"}, {"extends", m.ExtendsPos, "1:21"}, {"machine end", m.End, "7:1"},
		{"processor", proc.Pos, "2:2"}, {"processor label", proc.LabelPos, "2:12"}, {"processor end", proc.End, "2:31"},
		{"node type", node.TypePos, "4:17"}, {"node = TYPE", field.Value.ExprPos(), "5:10"}, {"topology end", topo.End, "6:2"},
	} {
		if got := fmt.Sprintf("%d:%d", tt.pos.Line, tt.pos.Col); got != tt.want || tt.pos.Src == nil {
			t.Errorf("%s at %s, want %s", tt.what, got, tt.want)
		}
	}
}
