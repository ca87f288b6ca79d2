package fit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// chainMachine is a chain of four whose MPI.send reads the machine's lat
// through per_hop (and the topology's latency) and its tw directly.
const chainMachine = `machine "chain" {
	param lat = 50ns
	param tw = 1ns / 1B
	param per_hop = lat + 10ns
	param unused = 1us
	topology c = chain(4) {
		latency = lat
		speed = 1GB/s
	}
	modelsection MPI {
		send(n: B, src, dst) = 1us + hops(src, dst) * per_hop + n * tw
	}
}
`

// A free name that is not the function's is a param of the machine the
// function reads: the machine is derived with each value tried. From
// T = 1us + h (200ns + 10ns) + 2ns/B n, with h the hops from 0 to dst on
// the chain (dst), lat and tw come back as 200ns and 2ns/B, the first
// only through per_hop.
func TestFitFreesTheMachinesParams(t *testing.T) {
	m, err := eval.LoadSource("chain.machine", chainMachine)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Func("MPI.send")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("n,src,dst,time\n")
	for _, n := range []float64{0, 1000, 10000} {
		for _, dst := range []float64{1, 2, 3} {
			fmt.Fprintf(&b, "%g,0,%g,%gs\n", n, dst, 1e-6+dst*210e-9+n*2e-9)
		}
	}
	tb := mustRead(t, b.String())
	free := []Free{{Name: "lat"}, {Name: "tw"}}
	r, err := Fit(&Problem{Name: "MPI.send", Machine: m, Func: f, Free: free}, tb)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name string
		want float64
		dim  lang.Dim
	}{{"lat", 200e-9, lang.TimeDim}, {"tw", 2e-9, lang.PerByteDim}} {
		if p := param(t, r, w.name); math.Abs(p.Value-w.want) > 1e-9*w.want || p.Dim != w.dim {
			t.Errorf("%s = %s, want %s", w.name, Literal(p.Value, p.Dim), Literal(w.want, w.dim))
		}
	}
	if !r.Linear {
		t.Error("a send linear in lat and tw was not solved by least squares")
	}
	if free[0].Init != nil || free[1].Init != nil {
		t.Error("the caller's free list was given the machine's starting values")
	}
	if v, _ := m.Param("lat"); math.Abs(v.Num-50e-9) > 1e-20 {
		t.Errorf("the machine's lat is %s after the fit, want 50ns", v)
	}

	for _, tc := range []struct {
		free Free
		want string
	}{
		{Free{Name: "nope"}, `MPI.send has no parameter "nope" to fit and machine "chain" has no param nope`},
		{Free{Name: "lat", Init: &lang.Value{Kind: lang.Number, Num: 1000, Dim: lang.SizeDim}}, "param lat of the machine is a time (s), its starting value 1KB a size"},
		{Free{Name: "unused"}, "unused has no effect on any measurement: its term in MPI.send is 0 at every point"},
	} {
		_, err := Fit(&Problem{Name: "MPI.send", Machine: m, Func: f, Free: []Free{{Name: "tw"}, tc.free}}, tb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("free %s: error %v, want it to contain %q", tc.free.Name, err, tc.want)
		}
	}
}
