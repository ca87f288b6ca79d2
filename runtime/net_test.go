package runtime

import (
	"context"
	"math"
	goruntime "runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// TestDroppedGraphsTakeTheirTablesWithThem: the routing tables of a graph
// routed by table and its metrics are kept with the graph, not in a
// process-wide cache keyed by it, so a long session that builds and drops
// machine after machine (a sweep, the REPL) does not grow. Here 100
// irregular networks are each simulated, measured and dropped; with a
// cache keyed by the graph they kept about 4 MB each (tables of 1,000 ×
// 1,000 distances, and the graph) alive, 420 MB in all.
func TestDroppedGraphsTakeTheirTablesWithThem(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100 networks")
	}
	heap := func() uint64 {
		goruntime.GC()
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	machine := func(seed uint64) {
		g, err := topo.NewHamiltonian(1000, seed, 4)
		if err != nil {
			t.Fatal(err)
		}
		spec := basic(g, 1e-6, 1e6)
		res, err := Simulate(context.Background(), spec, Options{Op: "randperm", Routing: "shortest", Seed: seed})
		if err != nil || res.Messages == 0 {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if m := g.Metrics(context.Background(), topo.MetricsOptions{}); m.Err != nil || m.Diameter == 0 {
			t.Fatalf("seed %d: metrics %+v", seed, m)
		}
	}
	machine(0) // the first run's allocations that last (the sync.Pools, say)
	start := heap()
	for seed := range uint64(100) {
		machine(seed + 1)
	}
	if end := heap(); float64(end) > 1.1*float64(start) {
		t.Errorf("the heap grew from %d to %d bytes over 100 dropped networks, want within 10%%", start, end)
	}
}

// A per-link list whose entries are all alike simulates exactly as the
// default link does (the network keeps one copy), and one that differs
// anywhere is kept whole.
func TestUniformLinkListIsTheDefaultLink(t *testing.T) {
	spec := torusSpec(t, 8)
	same := *spec
	same.Links = make([]LinkParams, spec.Graph.NumLinks())
	for i := range same.Links {
		same.Links[i] = spec.DefaultLink
	}
	opt := Options{Op: "randperm", Size: 32, Runs: 3, Seed: 5, Workers: 1}
	want, err := Simulate(context.Background(), spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Simulate(context.Background(), &same, opt)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("uniform per-link list differs from the default link (-default +list):\n%s", d)
	}
	n, err := compile(&same, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n.links != nil || n.link0 != spec.DefaultLink {
		t.Errorf("uniform list kept whole: links %d, link0 %+v", len(n.links), n.link0)
	}
}

func TestSameLinks(t *testing.T) {
	a := LinkParams{Latency: 1e-8, Bandwidth: 1e9}
	for _, c := range []struct {
		name  string
		links []LinkParams
		want  bool
	}{
		{"one", []LinkParams{a}, true},
		{"all alike", []LinkParams{a, a, a}, true},
		{"latency differs", []LinkParams{a, a, {Latency: 2e-8, Bandwidth: 1e9}}, false},
		{"bandwidth differs", []LinkParams{a, {Latency: 1e-8, Bandwidth: 2e9}}, false},
		{"signed zeros differ", []LinkParams{{Bandwidth: 1}, {Latency: math.Copysign(0, -1), Bandwidth: 1}}, false},
	} {
		if got := sameLinks(c.links); got != c.want {
			t.Errorf("%s: sameLinks = %v, want %v", c.name, got, c.want)
		}
	}
}
