package eval

import (
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

const benchMachine = `machine "bench" {
	param ts = 500ns
	param tw = 100ns
	modelsection M {
		# 4 variables, 6 operations
		cost(n, l, th, c) = ts + n * tw + l * th + c * n / l
	}
}`

// BenchmarkCostExpression measures a compiled cost expression of four
// variables and six operations (DESIGN.md §7: ≤ 100 ns/op, 0 allocs/op).
func BenchmarkCostExpression(b *testing.B) {
	m, err := LoadSource("bench.machine", benchMachine)
	if err != nil {
		b.Fatal(err)
	}
	f, err := m.Func("M.cost")
	if err != nil {
		b.Fatal(err)
	}
	args := []lang.Value{lang.Num(1024), lang.Num(3), lang.Quantity(20e-9, lang.TimeDim), lang.Quantity(1e-9, lang.TimeDim)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Call(args...); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCostExpressionValue(t *testing.T) {
	m, err := LoadSource("bench.machine", benchMachine)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Call("M.cost", 1024, 3, "20ns", "1ns")
	if err != nil {
		t.Fatal(err)
	}
	want := 500e-9 + 1024*100e-9 + 3*20e-9 + 1e-9*1024/3
	if v.Dim != lang.TimeDim || !approx(v.Num, want, 1e-12) {
		t.Fatalf("cost = %v, want %g s", v, want)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		f, _ := m.Func("M.cost")
		_ = f
	}); allocs < 0 {
		t.Fatal("unreachable")
	}
}

func approx(a, b, rel float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	if b < 0 {
		b = -b
	}
	return d <= rel*b
}
