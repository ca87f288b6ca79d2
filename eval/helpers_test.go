package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// near reports whether a and b agree to within rel of the larger, or both
// are within 1e-18 of 0.
func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+1e-18
}

// genLinks writes a machine with n explicit links in the modern syntax, or
// in the Parasol I format.
func genLinks(n int, legacy bool) string {
	var b strings.Builder
	if legacy {
		b.WriteString("machinename = \"big\"\nprocessor = 1\nname = \"cpu\"\ntopology = 100\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "linknumber = %d\nlinkio = 0\nlinklatency = 230\nlinkspeed = 2667231\nprocs_connected = 2\nprocessortype0 = 1\nprocessornumber = %d\nprocessortype1 = 1\nprocessornumber = %d\n", i, i, i+1)
		}
		return b.String()
	}
	b.WriteString("machine \"big\" {\n\tprocessor cpu {}\n\ttopology t {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\t\tlink %d -- %d { latency = 230ns; speed = 2667231B/s }\n", i, i+1)
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

// sameFields compares every field of two machines, calling each function
// at every combination of test arguments.
func sameFields(t *testing.T, where string, old, imported *Machine) {
	t.Helper()
	a, b := old.Fields(), imported.Fields()
	if len(a) != len(b) {
		t.Errorf("%s: %d fields before import, %d after", where, len(a), len(b))
	}
	got := map[string]Field{}
	for _, fl := range b {
		got[fl.Path] = fl
	}
	args := testArguments(old)
	for _, fl := range a {
		g, ok := got[fl.Path]
		switch {
		case !ok:
			t.Errorf("%s: field %s lost in import", where, fl.Path)
		case fl.Func != g.Func || strings.Join(fl.Params, ",") != strings.Join(g.Params, ","):
			t.Errorf("%s: %s(%s) before import, %s(%s) after", where, fl.Path, strings.Join(fl.Params, ", "), g.Path, strings.Join(g.Params, ", "))
		case fl.Func:
			for _, call := range combinations(args, len(fl.Params)) {
				va, erra := old.Call(fl.Path, call...)
				vb, errb := imported.Call(fl.Path, call...)
				if (erra != nil) != (errb != nil) || erra == nil && !sameValue(va, vb) {
					t.Errorf("%s: %s%v = %v (%v) before import, %v (%v) after", where, fl.Path, call, va, erra, vb, errb)
				}
			}
		case !sameValue(fl.Value, g.Value):
			t.Errorf("%s: %s = %v before import, %v after", where, fl.Path, fl.Value, g.Value)
		}
	}
}

// legacyPrimitives is a Parasol I machine whose primitive f(n, k) has a
// fuzzed body, called by a value, by another primitive and from another
// section.
const legacyPrimitives = `machinename = "F"
processor = 1
createjob = 1200
mantissa = 24
topology = 1
linknumber = 0
linkspeed = 1e9
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1
modelsection = PVM
pack = 12
f(n, k) = BODY
v = f(3, 2)
g(n) = 2 * f(n, 1)
modelsection = Express
h(n: B, k) = PVM.f(n, k)
`

// loadErr loads spec and returns its error text ("" when it loads).
func loadErr(spec string, opts ...Option) string {
	if _, err := Load(spec, opts...); err != nil {
		return err.Error()
	}
	return ""
}

// sameValue reports whether two values have the same kind, dimension and
// text and numbers equal to within 1e-12 relative.
func sameValue(a, b lang.Value) bool {
	if a.Kind != b.Kind || a.Dim != b.Dim || a.Text() != b.Text() {
		return false
	}
	d := a.Num - b.Num
	if d < 0 {
		d = -d
	}
	scale := max(abs(a.Num), abs(b.Num))
	return d <= 1e-12*scale
}

// lines are the non-blank lines of s that are not # comments, trimmed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// abs is |f|.
func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// testArguments are the values every function parameter is tried with:
// plain numbers (counts, node ids of the first and last processor), a size
// and a time.
func testArguments(m *Machine) []any {
	args := []any{0, 1, 3, 64, "1KB", "2us"}
	if ts := m.Topologies(); len(ts) > 0 && ts[0].Graph.NumProcs() > 0 {
		g := ts[0].Graph
		args = append(args, g.ID(g.Proc(0)), g.ID(g.Proc(g.NumProcs()-1)))
	}
	return args
}

// combinations lists every tuple of n values drawn from vals.
func combinations(vals []any, n int) [][]any {
	out := [][]any{{}}
	for range n {
		var next [][]any
		for _, prefix := range out {
			for _, v := range vals {
				next = append(next, append(append([]any(nil), prefix...), v))
			}
		}
		out = next
	}
	return out
}
