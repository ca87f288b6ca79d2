package parser_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// snippets are small sources that reach each statement form, the grammar's
// one lookahead decision (link (1) vs link(d)) and the usual mistakes. The
// fuzz targets start from them as well as from whole machine files, which
// are slow to mutate into anything new.
var snippets = []string{
	"x = 1", "f(a, b: ns) = a * b", "f() = 1", `"fp type" = 2`, "processor p { clock = 1GHz }",
	"processor 1 {}", `processor "a b" { }`, "topology t = torus(4, 4) { latency = 1us }",
	"topology t = 5 { }", "link(d) { latency = d * 1ns }", "link() { }", "link (1) -- 2 { }",
	"link (a) -- b { }", "link (a + b) -- c { }", "link 0 -- 1 { speed = 1MB/s; latency = 2ns }",
	"link 0 { }", "link a", "link 0 -- 1", "link -1 { }", `link "" { }`, "param a = 1", "param link = 20Mbit/s",
	"param 5 = 1", "node 0 .. 3 = cpu", "node 0 = 1", "node = cpu", `node = "cpu"`, "node .. 3 = cpu",
	"node 0 .. = cpu", "node ;", "for i in 0 .. 3 { link i -- i + 1 }", "for i 0 .. 3 { }",
	"if a { x = 1 } else if b { x = 2 } else { x = 3 }", "if a { } else { }", "if a {} else 5",
	"bus 0, 1, 2 { speed = 1MB/s }", "bus 0, 1", "bus 0 { }", "bus 0, { }",
	`machine "m" extends "base" { x = 1 }`, "machine m { }", `machine "m" extends { }`,
	`import "std:models"`, "import 5", ";;", "x", "x y", "x y = 1", "x = ", "x = 1 2", "x = (1",
	"x = 1 +\ny = 2", "f(1) = 2", "f(a b) = 1", "f(a: zz) = 1", "f(a:) = 1", "f(a,) = 1",
	"x = a\n(b) = 2", "x = 1\n{ y = 2 }", "x { import 5 }", "x { ) }", "}", "{", "x = 5zz",
	`x = "unterminated`, "x = $", "x = 1 # comment\n// another\n", "x = if a then b else c",
	"x = sum(i in 1 .. n, i)", "x = p.\"q r\"", "x = --1", "x = -2^2", "x = 1..2",
	"machine \"m\" {\n\tparam a = 1\n", "machine \"m\" { param a = 1 }}}}",
	"processor cpu\nnode = gpu\n", "a b c d { }", `x "y" (z) = w(1) { }`,
	// Programs.
	"program p { }", "program p() { }", "program p(n: B = 8KB, iters = 10, k) { compute(n * 1ns) }",
	"program ring(n: B = 1KB) {\n\tlet next = (rank + 1) % ranks\n\tsend(n, to: next, tag: 0)\n\trecv(from: (rank - 1 + ranks) % ranks)\n}",
	"program p { let h = isend(8KB, to: 1); wait(h); waitall() }",
	"program p { for i in 1 .. 3 { if rank == 0 { barrier() } else if rank == 1 { spawn() } else { allreduce(8B, algorithm: ring) } } }",
	"program p { compute(2e6 * float.mul + MPI.send(8KB, 0, 1)) }", "program p { send }", "program p { 5 }",
	"program p { (send)(1) }", "program p { send(1)(2) }", "program p { send(to:) }", "program p { send(to: 1, 2 }",
	"program p { x = 1 }", "program p { let = 1 }", "program p { let x 1 }", "program p(n: zz = 1) { }",
	"program p(n = ) { }", "program { }", "program p", "machine m { program p { } }", "program p { processor x { } }",
	"program p { f(g(a: 1)) }", "program p { let x = 2 * f(a: 1) }", "program p { send(8KB, to: 1) # c\n}",
	"x = program", "let = 1", "program p { for i in 0 .. 1 { link 0 -- 1 } }",
	// A lone number or name ends its expression only before what cannot
	// extend it (stmtParser.expr reads it without the precedence descent).
	"x = 2^3", "x = 2 ^ -1", "x = a.b", "x = a(1)", "x = 1KB.y", "x = 3(4)", "x = a\n.b", "x = a\n(b)",
	"x = 1 y = 2", "x = a; y = b", "x = 1 == 1", "x = a and b", "x = 1 -- 2", "link 1 -- 2.x { }",
	"link a -- b(1) { }", "link 0 -- 1 { latency = 2ns speed = 1MB/s }", "x = 5zz.y", "x = a $",
}

// disagreement says how the hand-written parsers and the participle
// reference grammar differ on text, or returns "": they must accept and
// reject the same sources and expressions, and build the same trees,
// positions included.
func disagreement(text string) string {
	if d := precheckDisagreement(text); d != "" {
		return d
	}
	src := lang.NewSource("agree.machine", text)
	ref, rerr := parser.Reference.ParseFile(src)
	got, gerr := parser.ParseModern(src)
	if (rerr == nil) != (gerr == nil) {
		return fmt.Sprintf("the parsers disagree on the file\n--- reference grammar ---\n%v\n--- hand-written parser ---\n%v", errOrOK(rerr), errOrOK(gerr))
	}
	if rerr == nil {
		if d := diffFiles(ref, got); d != "" {
			return d
		}
	}
	esrc := lang.NewSource("<query>", text)
	rx, rerr := parser.Reference.ParseExpr(esrc)
	gx, gerr := parser.ParseExprSource(esrc)
	if (rerr == nil) != (gerr == nil) {
		return fmt.Sprintf("the parsers disagree on the expression\n--- reference grammar ---\n%v\n--- hand-written parser ---\n%v", errOrOK(rerr), errOrOK(gerr))
	}
	if rerr == nil && !reflect.DeepEqual(rx, gx) {
		return fmt.Sprintf("the expression trees differ\n--- reference grammar ---\n%s\n--- hand-written parser ---\n%s", format.Expr(rx), format.Expr(gx))
	}
	return ""
}

func errOrOK(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}

// diffFiles names the first statement (or comment) the two trees differ in.
func diffFiles(ref, got *lang.File) string {
	if len(ref.Stmts) != len(got.Stmts) {
		return fmt.Sprintf("%d statements from the reference grammar, %d from the hand-written parser\n--- reference ---\n%s--- hand-written ---\n%s",
			len(ref.Stmts), len(got.Stmts), format.File(ref), format.File(got))
	}
	for i := range ref.Stmts {
		if !reflect.DeepEqual(ref.Stmts[i], got.Stmts[i]) {
			one := func(s lang.Stmt) string {
				return fmt.Sprintf("at %v: %#v\n%s", s.StmtPos(), s, format.File(&lang.File{Src: ref.Src, Stmts: []lang.Stmt{s}}))
			}
			return fmt.Sprintf("statement %d differs\n--- reference ---\n%s--- hand-written ---\n%s", i, one(ref.Stmts[i]), one(got.Stmts[i]))
		}
	}
	if !reflect.DeepEqual(ref.Comments, got.Comments) {
		return fmt.Sprintf("the comments differ: %d from the reference grammar, %d from the hand-written parser", len(ref.Comments), len(got.Comments))
	}
	return ""
}

// TestParsersAgree runs both parsers over every seed source and snippet.
func TestParsersAgree(t *testing.T) {
	for i, text := range append(seedSources(t), snippets...) {
		if d := disagreement(text); d != "" {
			t.Errorf("source %d:\n%s\n--- input ---\n%s", i, d, text)
		}
	}
}

// FuzzParsersAgree holds the hand-written parser to the participle grammar
// on mutated sources.
func FuzzParsersAgree(f *testing.F) {
	for _, s := range append(seedSources(f), snippets...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := watchdog(t, text, func() result {
			if d := disagreement(text); d != "" {
				return result{fail: d + "\n--- input ---\n" + text}
			}
			return result{}
		})
		if r.fail != "" {
			t.Fatal(r.fail)
		}
	})
}
