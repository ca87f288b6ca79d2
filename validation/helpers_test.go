package validation

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib"
)

// section is one table of VALIDATION.md.
type section struct {
	Title string
	Intro string
	Rows  []row
	Notes string
}

// row is one line of a VALIDATION.md table.
type row struct {
	Quantity string
	Seed     string  // the seed's value as printed
	SeedVal  float64 // NaN when there is nothing to compare
	Value    float64 // Parasol's value, in the row's unit
	Unit     string  // printed after both values ("ns", "us", "us/B", "")
	Tol      float64 // relative tolerance; 0 means shown but not asserted
	Abs      bool    // Tol is an absolute difference in Unit
	Cmd      string  // the command that reproduces it
	Note     string  // why the row is not asserted, or a remark
	ok       bool
}

// check asserts r within its tolerance and records the outcome.
func check(t *testing.T, r row) row {
	t.Helper()
	r.ok = true
	if r.Tol > 0 && !math.IsNaN(r.SeedVal) {
		var miss bool
		if r.Abs {
			miss = math.Abs(r.Value-r.SeedVal) > r.Tol
		} else {
			miss = math.Abs(r.Value-r.SeedVal) > r.Tol*math.Abs(r.SeedVal)
		}
		if miss {
			r.ok = false
			t.Errorf("%s: Parasol %s, seed %s (%s, tolerance %s)", r.Quantity, num(r.Value), r.Seed, r.diff(), r.tolText())
		}
	}
	return r
}

func (r row) diff() string {
	if math.IsNaN(r.SeedVal) {
		return "—"
	}
	if r.Abs || r.SeedVal == 0 {
		d := r.Value - r.SeedVal
		if math.Abs(d) < 1e-9 {
			d = 0
		}
		return strings.TrimSpace(fmt.Sprintf("%+.3g %s", d, r.Unit))
	}
	return fmt.Sprintf("%+.2f%%", 100*(r.Value/r.SeedVal-1))
}

func (r row) tolText() string {
	switch {
	case r.Tol == 0:
		return "not asserted"
	case r.Abs:
		return strings.TrimSpace(fmt.Sprintf("±%s %s", num(r.Tol), r.Unit))
	}
	return fmt.Sprintf("±%.3g%%", 100*r.Tol)
}

// num prints a value with four significant digits, without exponent noise.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case math.Abs(x) < 1e-9:
		return "0"
	case math.Abs(x) >= 1000:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.4g", x)
}

// machines caches loaded machines by spec and overrides.
var (
	machMu sync.Mutex
	machs  = map[string]*eval.Machine{}
)

func load(t testing.TB, spec string, sets ...string) *eval.Machine {
	t.Helper()
	key := spec + "|" + strings.Join(sets, "|")
	machMu.Lock()
	defer machMu.Unlock()
	if m := machs[key]; m != nil {
		return m
	}
	var opts []eval.Option
	for _, s := range sets {
		k, v, _ := strings.Cut(s, "=")
		opts = append(opts, eval.WithSet(k, v))
	}
	m, err := eval.Load(spec, opts...)
	if err != nil {
		t.Fatalf("load %s %v: %v", spec, sets, err)
	}
	machs[key] = m
	return m
}

// eachMachine runs f as a subtest for every standard machine file that
// defines a machine (std:analytic is a library of definitions only).
func eachMachine(t *testing.T, f func(t *testing.T, name string, m *eval.Machine)) {
	t.Helper()
	for _, name := range stdlib.MachineNames() {
		machines, err := eval.MachineNames("std:" + name)
		if err != nil {
			t.Fatal(err)
		}
		if len(machines) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) { f(t, name, load(t, "std:"+name)) })
	}
}

// sim compiles the machine's first topology and simulates opts.
func sim(t testing.TB, m *eval.Machine, opts runtime.Options) *runtime.Result {
	t.Helper()
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	r, err := runtime.Simulate(context.Background(), spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock || r.Partial {
		t.Fatalf("%+v: deadlock %v partial %v", opts, r.Deadlock, r.Partial)
	}
	return r
}

// send simulates one message src -> dst of size bytes, on the machine
// derived for that size as sim and compare derive it (a protocol chosen by
// size: eval.MessageSizeParam); it returns the result (latency of the
// message, makespan, sender time).
func send(t testing.TB, m *eval.Machine, src, dst, size int) *runtime.Result {
	t.Helper()
	m, _, err := m.ForMessageSize(size)
	if err != nil {
		t.Fatal(err)
	}
	return sim(t, m, runtime.Options{Op: "send", Size: size, Src: runtime.Node(src), Dst: runtime.Node(dst)})
}

// evalNum evaluates an expression of a machine to its SI number.
func evalNum(t testing.TB, m *eval.Machine, expr string) float64 {
	t.Helper()
	v, err := m.Eval(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v.Num
}

// leastSquares solves min |X b - y|^2 by the normal equations (X has few
// columns; Gaussian elimination with partial pivoting).
func leastSquares(X [][]float64, y []float64) []float64 {
	k := len(X[0])
	A := make([][]float64, k)
	for i := range A {
		A[i] = make([]float64, k+1)
	}
	for r, x := range X {
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				A[i][j] += x[i] * x[j]
			}
			A[i][k] += x[i] * y[r]
		}
	}
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		A[c], A[p] = A[p], A[c]
		for r := 0; r < k; r++ {
			if r == c || A[c][c] == 0 {
				continue
			}
			f := A[r][c] / A[c][c]
			for j := c; j <= k; j++ {
				A[r][j] -= f * A[c][j]
			}
		}
	}
	b := make([]float64, k)
	for i := range b {
		b[i] = A[i][k] / A[i][i]
	}
	return b
}

func TestLeastSquares(t *testing.T) {
	// y = 1 + 2 h + 3 l + 4 l h exactly
	var X [][]float64
	var y []float64
	for h := 1.0; h <= 3; h++ {
		for l := 0.0; l <= 2; l++ {
			X = append(X, []float64{1, h, l, l * h})
			y = append(y, 1+2*h+3*l+4*l*h)
		}
	}
	b := leastSquares(X, y)
	for i, w := range []float64{1, 2, 3, 4} {
		if math.Abs(b[i]-w) > 1e-9 {
			t.Fatalf("b = %v", b)
		}
	}
}
