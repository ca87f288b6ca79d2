package parser_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/rogpeppe/go-internal/txtar"
)

// seedSources returns the machine texts the fuzz targets start from: the
// examples, the standard machines and the inputs of the golden tests.
func seedSources(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, pat := range []string{"../examples/*.machine", "../stdlib/machines/*.machine"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, string(data))
		}
	}
	for _, pat := range []string{"testdata/golden/*.txtar", "../eval/testdata/golden/*.txtar"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			for _, af := range ar.Files {
				if strings.HasSuffix(af.Name, ".machine") {
					out = append(out, string(af.Data))
				}
			}
		}
	}
	if len(out) == 0 {
		tb.Fatal("no seed sources")
	}
	return out
}

// result is what a check running under the watchdog reports back to the
// test goroutine, which alone may call t.Skip and t.Fatal.
type result struct{ skip, fail string }

// hangLimit is a watchdog, not a time budget: a parse that runs this long
// is taken for a hang.
const hangLimit = 30 * time.Second

// watchdog runs check in a goroutine and fails t if it has not returned
// after hangLimit.
func watchdog(t *testing.T, input string, check func() result) result {
	done := make(chan result, 1)
	go func() { done <- check() }()
	select {
	case r := <-done:
		return r
	case <-time.After(hangLimit):
		t.Fatalf("no result after %v for input:\n%s", hangLimit, input)
		return result{}
	}
}

// formatsAsFmtRequires checks what fmt checks before it writes: the
// formatted text parses (as the modern syntax), means the same and keeps
// every comment, and formats to itself. Parasol I files are converted
// first, as `parasol import` does.
func formatsAsFmtRequires(text string, file *lang.File) result {
	if file.Legacy {
		file = eval.Modernize(file)
	}
	once := format.File(file)
	var fail string
	again, err := parser.ParseFile("formatted.machine", once)
	switch {
	case err != nil:
		fail = fmt.Sprintf("formatted text does not parse: %v", err)
	case again.Legacy:
		fail = "formatted text is taken for Parasol I"
	default:
		if err := format.Check(file, again); err != nil {
			fail = err.Error()
		} else if twice := format.File(again); twice != once {
			fail = fmt.Sprintf("formatting is not idempotent\n--- twice ---\n%s", twice)
		}
	}
	if fail == "" {
		return result{}
	}
	return result{fail: fmt.Sprintf("%s\n--- input ---\n%s\n--- formatted ---\n%s", fail, text, once)}
}

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
