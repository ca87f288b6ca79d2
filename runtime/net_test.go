package runtime

import (
	"context"
	goruntime "runtime"
	"testing"

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
