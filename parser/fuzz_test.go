package parser_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// positionProblem describes a diagnostic of err that does not point into
// the source named name (errors read file:line:col), or returns "".
func positionProblem(err error, name string) string {
	var ds lang.Diagnostics
	var d *lang.Diagnostic
	switch {
	case errors.As(err, &ds):
	case errors.As(err, &d):
		ds = lang.Diagnostics{d}
	default:
		return fmt.Sprintf("error is not a diagnostic: %T %v", err, err)
	}
	if len(ds) == 0 {
		return "empty diagnostics as an error"
	}
	for _, d := range ds {
		if !d.Pos.IsValid() || d.Pos.Src == nil || d.Pos.Src.Name != name {
			return fmt.Sprintf("diagnostic without a position in %s: %q", name, d.Error())
		}
	}
	return ""
}

// FuzzParseFile parses modern and Parasol I text. It must never panic or
// hang; errors must carry positions; what parses must format as fmt
// requires (formatsAsFmtRequires).
func FuzzParseFile(f *testing.F) {
	for _, s := range append(seedSources(f), snippets...) {
		f.Add(s)
	}
	f.Add("machinename = \"A\"\nprocessor = 1\ncreatejob = 5\n")
	f.Fuzz(func(t *testing.T, text string) {
		r := watchdog(t, text, func() result { return roundTrip(text) })
		if r.skip != "" {
			t.Skip(r.skip)
		}
		if r.fail != "" {
			t.Fatal(r.fail)
		}
	})
}

func roundTrip(text string) result {
	file, err := parser.ParseFile("fuzz.machine", text)
	if err != nil {
		return result{fail: positionProblem(err, "fuzz.machine")}
	}
	return formatsAsFmtRequires(text, file)
}

// FuzzParseExpr parses one expression (a query, a --set value) and one REPL
// entry. It must never panic; a parsed expression must format to text that
// parses to the same formatted text.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		"1 + 2 * 3", "(1 + 2) * 3", "-2^2", "(-2)^2", "2^3^2", "a - (b - c)",
		"not a and b or c", "if a then b else c + 1", "(if a then b else c) + 1",
		"processor(1).float_timings.mul", `processor(1)."fp type"`,
		"sum(i in 1..n, i*2)", "0*(A-A)", "2 * (a-b-c) - d", "a-b-c", "-(a-b)^2", "20Mbit/s / 8", "1.2e+3ns", "1KiB", "5 µs", "30%",
		"topology(100).link(0).linkspeed", "PVM.send(1KB, 43, 45)",
		"max(1ns, 2ns, h_in)", "x == 1 != true", "a <= b >= c", `"s" + "t"`,
		"f(n) = n * 10ns", "x = 3 * h_in", "h_in", "2 * (h_in +\n  h_off)",
		"processor p { clock = 1GHz }", "1 +", "((1)", "1..2", "$", "",
	} {
		f.Add(s)
	}
	for _, s := range snippets {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := watchdog(t, text, func() result { return exprRoundTrip(text) })
		if r.fail != "" {
			t.Fatal(r.fail)
		}
	})
}

func exprRoundTrip(text string) result {
	parser.Incomplete(text)
	if _, err := parser.ParseInput("<repl>", text); err != nil {
		_ = err.Error()
	}
	e, err := parser.ParseExpr("<query>", text)
	if err != nil {
		return result{fail: positionProblem(err, "<query>")}
	}
	once := format.Expr(e)
	again, err := parser.ParseExpr("<formatted>", once)
	if err != nil {
		return result{fail: fmt.Sprintf("formatted expression does not parse: %v\n--- input ---\n%s\n--- formatted ---\n%s", err, text, once)}
	}
	if twice := format.Expr(again); twice != once {
		return result{fail: fmt.Sprintf("formatting is not idempotent\n--- input ---\n%s\n--- once ---\n%s\n--- twice ---\n%s", text, once, twice)}
	}
	field := func(e lang.Expr) *lang.File { return &lang.File{Stmts: []lang.Stmt{&lang.Field{Name: "x", Value: e}}} }
	if err := format.Check(field(e), field(again)); err != nil {
		return result{fail: fmt.Sprintf("formatting changes the meaning: %v\n--- input ---\n%s\n--- formatted ---\n%s", err, text, once)}
	}
	return result{}
}

// A modern file whose machine has a field named machinename formats to text
// that is detected as Parasol I, so `parasol fmt -w` breaks the file: the
// detection (parser.IsLegacy) matches "machinename =" at the start of any
// line, indented or not.
func TestFormatKeepsModernSyntax(t *testing.T) {
	const text = "machine \"m\" { machinename = 1 }\n"
	file, err := parser.ParseFile("in.machine", text)
	if err != nil {
		t.Fatal(err)
	}
	once := format.File(file)
	again, err := parser.ParseFile("formatted.machine", once)
	if err != nil {
		t.Fatalf("formatted text does not parse: %v\n%s", err, once)
	}
	if format.File(again) != once {
		t.Fatalf("formatting is not idempotent")
	}
}

// Parasol I accepts a number with a trailing dot ("branchdelay = 20.");
// `parasol import` copies it as "20.ns", which the modern parser rejects, so
// the imported file does not load.
func TestImportTrailingDot(t *testing.T) {
	const text = "machinename = \"A\"\nprocessor = 1\nbranchdelay = 20.\nmantissa = 24.\n"
	file, err := parser.ParseFile("in.machine", text)
	if err != nil {
		t.Fatal(err)
	}
	out := format.File(eval.Modernize(file))
	if _, err := parser.ParseFile("imported.machine", out); err != nil {
		t.Fatalf("imported text does not parse: %v\n%s", err, out)
	}
}

// format.File writes a field named by a keyword without quotes (fieldName in
// lang/format/expr.go does not check lang.IsKeyword, unlike label), so
// `parasol fmt` turns `"or" = 1` into `or = 1`, which does not parse, and
// `parasol import` does the same with a Parasol I key such as or, if, in.
func TestFormatQuotesKeywordFields(t *testing.T) {
	for _, text := range []string{
		"machine \"m\" {\n\t\"or\" = 1\n}\n",
		"machinename = \"A\"\nprocessor = 1\nin = 1\n",
	} {
		file, err := parser.ParseFile("in.machine", text)
		if err != nil {
			t.Fatal(err)
		}
		if file.Legacy {
			file = eval.Modernize(file)
		}
		out := format.File(file)
		if _, err := parser.ParseFile("formatted.machine", out); err != nil {
			t.Errorf("formatted text does not parse: %v\n%s", err, out)
		}
	}
}

// One syntax error inside a block is reported four times: at the block's
// opening brace of the machine (1:13, where nothing is wrong), twice at the
// real place with different messages, and at the closing brace.
func TestOneSyntaxErrorOneDiagnostic(t *testing.T) {
	_, err := parser.ParseFile("in.machine", "machine \"m\" {\n\tx = 1\n\t= 2\n}\n")
	var ds lang.Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("want diagnostics, got %v", err)
	}
	if len(ds) != 1 || ds[0].Pos.Line != 3 {
		t.Errorf("want one diagnostic at line 3, got:\n%v", err)
	}
}

// Parasol I reads "1.e+3" (no digit between the dot and the exponent, as C
// writes and reads it) as 1000, but `parasol import` copies it as
// "1.e+3ns", which the modern syntax reads as a field e of the number 1:
// the imported file does not load ("1 is not a reference"). "20." alone
// imports correctly as 20.
func TestImportDotExponent(t *testing.T) {
	const text = "machinename = \"A\"\nprocessor = 1\ncreatejob = 1.e+3\njobswitch = 2.E3\n"
	file, err := parser.ParseFile("in.machine", text)
	if err != nil {
		t.Fatal(err)
	}
	out := format.File(eval.Modernize(file))
	if _, err := eval.LoadSource("imported.machine", out); err != nil {
		t.Fatalf("imported text does not load: %v\n%s", err, out)
	}
}

// A modern file without machine blocks (shared definitions only) may have a
// top-level field named machinename; written over two lines it is modern
// text, but `parasol fmt` joins it into "machinename = …", and the result is
// taken for Parasol I (a machine "x" with nothing in it).
func TestFormatTopLevelMachinename(t *testing.T) {
	const text = "machinename\n\t= \"x\"\n"
	file, err := parser.ParseFile("in.machine", text)
	if err != nil {
		t.Fatal(err)
	}
	if file.Legacy {
		t.Fatal("the input is taken for Parasol I")
	}
	once := format.File(file)
	if parser.IsLegacy(once) {
		t.Errorf("formatted text is taken for Parasol I:\n%s", once)
	}
}
