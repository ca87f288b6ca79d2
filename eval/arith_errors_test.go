package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// arithCases are the arithmetic error classes: each expression fails when
// z is 0; col is the 1-based column of the failing operation in expr.
var arithCases = []struct {
	name string
	expr string
	col  int
	msg  string
}{
	{"division by zero", "5us / z", 5, "division by zero: 5us / 0"},
	{"zero by zero", "z / z", 3, "division by zero: 0 / 0"},
	{"division of a size by a zero time", "4KB / (z * 1ns)", 5, "division by zero: 4KB / 0s"},
	{"zero to a negative power", "z ^ -1", 3, "division by zero: 0 ^ (-1)"},
	{"negative to a fractional power", "(z - 8) ^ 0.5", 9, "domain error: (-8) ^ 0.5 is not a real number"},
	{"power overflow", "(z + 10) ^ 400", 10, "overflow: 10 ^ 400 is beyond the largest number"},
	{"product overflow", "(z + 1e300) * 1e300", 13, "overflow: 1e+300 * 1e+300 is beyond the largest number"},
	{"quotient overflow", "(z + 1e300) / 1e-300", 13, "overflow: 1e+300 / 1e-300"},
	{"sum overflow", "(z + 1.5e308) + 1.5e308", 15, "overflow: 1.5e+308 + 1.5e+308"},
	{"difference overflow", "(z - 1.5e308) - 1.5e308", 15, "overflow: (-1.5e+308) - 1.5e+308"},
	{"log2 of zero", "log2(z)", 1, "domain error: log2(0) needs a number > 0"},
	{"log of a negative number", "log(z - 1)", 1, "domain error: log(-1) needs a number > 0"},
	{"sqrt of a negative number", "sqrt(z - 1)", 1, "domain error: sqrt(-1) needs a number ≥ 0"},
	{"sqrt of a negative area", "sqrt((z - 1) * 1B * 1B)", 1, "domain error: sqrt(-1 B^2) needs a number ≥ 0"},
	{"mod by zero", "mod(5, z)", 1, "division by zero: mod(5, 0)"},
	{"exp overflow", "exp(z + 1000)", 1, "overflow: exp(1000) is beyond the largest number"},
	{"sum of terms overflows", "sum(i in 1 .. 2, 1e308 + z)", 1, "overflow: the sum is beyond the largest number"},
}

// TestConstantArithmeticErrorsFailTheLoad: an expression of constants that
// divides by zero, leaves a built-in's domain or overflows is an error
// while loading, at the operation, naming the values.
func TestConstantArithmeticErrorsFailTheLoad(t *testing.T) {
	for _, tt := range arithCases {
		t.Run(tt.name, func(t *testing.T) {
			const prefix = "\tparam x = "
			src := "machine \"m\" {\n\tparam z = 0\n" + prefix + tt.expr + "\n}\n"
			m, err := LoadSource("m.machine", src)
			if err == nil {
				x, _ := m.Param("x")
				t.Fatalf("loaded, x = %v; want an error", x)
			}
			want := fmt.Sprintf("m.machine:3:%d: %s", len(prefix)+tt.col, tt.msg)
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("error:\n%v\nwant it to contain %q", err, want)
			}
		})
	}
}

// TestRuntimeArithmeticErrorsFailTheCall: the same operations in a function
// fail when called with z = 0, at the operation in the function body,
// through every way of calling: Func.Call (a body specialised to the
// argument types), Eval of the call (the generic body) and Machine.Call.
func TestRuntimeArithmeticErrorsFailTheCall(t *testing.T) {
	for _, tt := range arithCases {
		t.Run(tt.name, func(t *testing.T) {
			const prefix = "\t\tf(z) = "
			src := "machine \"m\" {\n\tmodelsection M {\n" + prefix + tt.expr + "\n\t}\n}\n"
			m, err := LoadSource("m.machine", src)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			want := fmt.Sprintf("m.machine:3:%d: %s", len(prefix)+tt.col, tt.msg)
			f, err := m.Func("M.f")
			if err != nil {
				t.Fatal(err)
			}
			calls := map[string]func() (lang.Value, error){
				"Func.Call":    func() (lang.Value, error) { return f.Call(lang.Num(0)) },
				"Eval":         func() (lang.Value, error) { return m.Eval("M.f(0)") },
				"Machine.Call": func() (lang.Value, error) { return m.Call("M.f", 0) },
			}
			for how, call := range calls {
				// Twice: the second Func.Call reuses the specialised body.
				for range 2 {
					v, err := call()
					if err == nil {
						t.Fatalf("%s = %v, want an error", how, v)
					}
					if !strings.Contains(err.Error(), want) {
						t.Fatalf("%s error:\n%v\nwant it to contain %q", how, err, want)
					}
				}
			}
			// A good argument still gives a finite answer after the error.
			if v, err := f.Call(lang.Num(1)); err == nil && !finite(v.Num) {
				t.Fatalf("f(1) = %v", v)
			}
		})
	}
}

// TestQueryArithmeticErrors: a query's own arithmetic fails at its position.
func TestQueryArithmeticErrors(t *testing.T) {
	m, err := LoadSource("m.machine", `machine "m" { param z = 0 }`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []queryError{
		{"1/0", "<query>:1:2: division by zero: 1 / 0"},
		{"sqrt(-1)", "<query>:1:1: domain error: sqrt(-1) needs a number ≥ 0"},
		{"0^-1", "<query>:1:2: division by zero: 0 ^ (-1)"},
		{"log2(0)", "<query>:1:1: domain error: log2(0) needs a number > 0"},
		{"10^400", "<query>:1:3: overflow: 10 ^ 400"},
		{"mod(5, 0)", "<query>:1:1: division by zero: mod(5, 0)"},
		{"1e400", "<query>:1:1: the number 1e400 is too large"},
		{"1e308 * 10", "<query>:1:7: overflow: 1e+308 * 10"},
		{"2us / z", "<query>:1:5: division by zero: 2us / 0"},
	}
	checkQueryErrors(t, m, tests)
}

// TestGuardedDivisionIsNoError: an operation that a constant condition
// keeps from running is no error, at load or in a function: the guard is
// why it was written.
func TestGuardedDivisionIsNoError(t *testing.T) {
	src := `machine "m" {
	param p = 0
	param a = if p > 0 then 1 / p else 0
	param b = p != 0 and 1 / p > 2
	param c = p == 0 or 1 / p > 2
	param d = if p == 0 then 1 else log2(p)
	modelsection M {
		f(n) = if n > 0 then 1 / n else 0
		g(n) = if p > 0 then n / p else n
	}
}`
	m, err := LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  lang.Value
	}{
		{"a", lang.Num(0)},
		{"b", lang.BoolValue(false)},
		{"c", lang.BoolValue(true)},
		{"d", lang.Num(1)},
		{"M.f(0)", lang.Num(0)},
		{"M.f(4)", lang.Num(0.25)},
		{"M.g(3)", lang.Num(3)},
		{"if false then 1/0 else 2", lang.Num(2)},
	}
	for _, tt := range tests {
		v, err := m.Eval(tt.query)
		if err != nil || v != tt.want {
			t.Errorf("%s = %v, %v; want %v", tt.query, v, err, tt.want)
		}
	}
	// The guard is not a licence: the same division unguarded fails.
	if _, err := LoadSource("m.machine", `machine "m" { param p = 0
	param a = if p >= 0 then 1 / p else 0 }`); err == nil || !strings.Contains(err.Error(), "division by zero: 1 / 0") {
		t.Errorf("a division the condition lets run: err = %v, want division by zero", err)
	}
}

// TestOverridesAndArgumentsAreFinite: values from outside the source
// (--set, Func.Call arguments, quantities in strings) cannot bring ±Inf or
// NaN in either.
func TestOverridesAndArgumentsAreFinite(t *testing.T) {
	src := `machine "m" {
	param p = 1
	param q = 1us / p
	modelsection M {
		f(n: B) = n / 1KB/s
		g(x) = x * 2
	}
}`
	for _, set := range []struct{ value, want string }{
		{"0", "division by zero: 1us / 0"},
		{"1e400", "the number 1e400 is too large"},
		{"1/0", "division by zero: 1 / 0"},
		{"1e300 * 1e300", "overflow: 1e+300 * 1e+300"},
	} {
		_, err := LoadSource("m.machine", src, WithSet("p", set.value))
		if err == nil || !strings.Contains(err.Error(), set.want) {
			t.Errorf("--set p=%s: err = %v, want %q", set.value, err, set.want)
		}
	}
	m, err := LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Func("M.g")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		if v, err := f.Call(lang.Num(x)); err == nil || !strings.Contains(err.Error(), "not a finite number") {
			t.Errorf("M.g(%v) = %v, %v; want an error", x, v, err)
		}
	}
	// A plain number taken in a large unit can leave the range.
	if v, err := m.Call("M.f", lang.Quantity(1e300, lang.Dimensionless)); err != nil {
		t.Errorf("M.f(1e300) = %v, %v; want a value", v, err)
	}
	h, err := LoadSource("h.machine", `machine "h" { modelsection M { f(n: GB) = n } }`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := h.Call("M.f", 1e300); err == nil || !strings.Contains(err.Error(), "overflow: argument n of M.f, 1e+300 in GB, is beyond the largest size") {
		t.Errorf("M.f(1e300 GB) = %v, %v; want an overflow", v, err)
	}
	// A finite argument whose result overflows fails too.
	if v, err := m.Call("M.g", 1e308); err == nil {
		t.Errorf("M.g(1e308) = %v, want an overflow", v)
	}
	if _, err := lang.ParseQuantity("1e305 GB/s"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("ParseQuantity(1e305 GB/s): err = %v, want too large", err)
	}
}

// TestDisconnectedTopologyHasNoDistance: hops between nodes with no path
// between them, and the diameter and mean distance of a disconnected
// topology, are errors that say so, not -1.
func TestDisconnectedTopologyHasNoDistance(t *testing.T) {
	src := `machine "m" {
	processor cpu { createjob = 1us }
	topology t {
		node 0 .. 3 = cpu
		speed = 1MB/s
		link 0 -- 1 { latency = 1ns }
		link 2 -- 3 { latency = 1ns }
	}
	modelsection M { send(a, b) = hops(a, b) * 1us }
}`
	m, err := LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	tests := []queryError{
		{"hops(0, 3)", "<query>:1:1: hops(0, 3): nodes 0 and 3 are not connected in topology t"},
		{"M.send(1, 2)", "m.machine:9:32: hops(1, 2): nodes 1 and 2 are not connected in topology t"},
		{"diameter", "<query>:1:1: diameter: topology t is disconnected: nodes 0 and 2 are not connected"},
		{"avgdist", "<query>:1:1: avgdist: topology t is disconnected"},
	}
	checkQueryErrors(t, m, tests)
	for _, q := range []string{"hops(0, 1)", "hops(3, 2)", "nodes", "links"} {
		if v, err := m.Eval(q); err != nil || v.Num != 1 && v.Num != 4 && v.Num != 2 {
			t.Errorf("%s = %v, %v", q, v, err)
		}
	}
	// A constant query of a disconnected pair inside the machine fails the
	// load, at the call.
	bad := strings.Replace(src, "modelsection M { send(a, b) = hops(a, b) * 1us }", "param h = hops(0, 3)", 1)
	if _, err := LoadSource("m.machine", bad); err == nil || !strings.Contains(err.Error(), "m.machine:9:12: hops(0, 3): nodes 0 and 3 are not connected") {
		t.Errorf("param h = hops(0, 3): err = %v", err)
	}
}

// A Parasol I percentage is a plain number of percent; written with % it
// already is the fraction, and is not scaled again.
func TestLegacyPercentWithUnit(t *testing.T) {
	m, err := LoadSource("p.machine", "machinename = \"x\"\nprocessor = 1\nmaxrecvdelay = 30%\nmaxroutedelay = 5\n")
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]float64{"processor(1).maxrecvdelay": 0.3, "processor(1).maxroutedelay": 0.05} {
		v, err := m.Eval(q)
		if err != nil || v.Num != want {
			t.Errorf("%s = %v, %v; want %v", q, v, err, want)
		}
	}
}

// hops takes node ids: a time or a fraction passed through an unannotated
// parameter is an error at the call, not truncated to a node.
func TestHopsArgumentsAreNodeIDs(t *testing.T) {
	m, err := LoadSource("h.machine", "machine \"m\" {\n f(x) = hops(x, 1)\n topology t = ring(4) { latency = 1ns; speed = 1MB/s }\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := m.Eval("f(2)"); err != nil || v.Num != 1 {
		t.Fatalf("f(2) = %v, %v; want 1", v, err)
	}
	for _, q := range []string{"f(2us)", "f(1.5)"} {
		if _, err := m.Eval(q); err == nil || !strings.Contains(err.Error(), "h.machine:2:9: hops takes whole-number node ids") {
			t.Errorf("%s: %v", q, err)
		}
	}
}

type queryError struct{ query, want string }

// checkQueryErrors asserts that each query fails with an error containing want.
func checkQueryErrors(t *testing.T, m *Machine, tests []queryError) {
	t.Helper()
	for _, tt := range tests {
		v, err := m.Eval(tt.query)
		if err == nil {
			t.Errorf("%s = %v, want an error", tt.query, v)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error\n%v\nwant it to contain %q", tt.query, err, tt.want)
		}
	}
}
