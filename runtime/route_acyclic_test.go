package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/runtime/acyclic"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// acyclicGraphs are the topologies the acyclic tests run on.
func acyclicGraphs(t testing.TB) map[string]*topo.Graph {
	gs := map[string]*topo.Graph{
		"ring 8":        mustGen(t, "ring", 8),
		"ring 16":       mustGen(t, "ring", 16),
		"chain 5":       mustGen(t, "chain", 5),
		"torus 4x4":     mustGen(t, "torus", 4, 4),
		"torus 8x8":     mustGen(t, "torus", 8, 8),
		"mesh 3x5":      mustGen(t, "mesh", 3, 5),
		"hypercube 4":   mustGen(t, "hypercube", 4),
		"tree 2,3":      mustGen(t, "tree", 2, 3),
		"full 6":        mustGen(t, "full", 6),
		"double ring 8": doubleRing(t, 8),
	}
	for _, seed := range []int{1, 2, 3} {
		gs["hamiltonian 64/"+string(rune('0'+seed))] = mustGen(t, "hamiltonian", 64, seed)
	}
	return gs
}

// The runtime's acyclic routing takes exactly the routes of the acyclic
// package: Route gives the static path, and an all-to-all run has the
// path lengths of the (L, C) graph, with one lane or with lanes as
// components, and never deadlocks under wormhole switching.
func TestAcyclicRoutingMatchesPackage(t *testing.T) {
	for name, g := range acyclicGraphs(t) {
		for _, variant := range []acyclic.Variant{acyclic.Plain, acyclic.Improved} {
			for _, vcs := range []int{1, 2} {
				spec := basic(g, 1e-8, 1e8)
				spec.Switching = Wormhole
				spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: 2, VirtualChannels: vcs}
				n, err := compile(spec, variant.String(), "", 0)
				if err != nil {
					t.Fatalf("%s %v: %v", name, variant, err)
				}
				if n.rk != rAcyclic || n.acyc == nil || int(n.acyc.lanes) != max(vcs, 1) {
					t.Fatalf("%s %v: not compiled to acyclic routing", name, variant)
				}
				nw := n.acyc.nw
				P := g.NumProcs()
				sum, longest := 0, 0
				for s := range P {
					for d := range P {
						if s == d {
							continue
						}
						chans, err := nw.Route(nil, s, d)
						if err != nil {
							t.Fatal(err)
						}
						sum += len(chans)
						longest = max(longest, len(chans))
						if s == 0 || d == P-1 { // a sample of paths
							want := []int{g.ID(int32(s))}
							for _, c := range chans {
								_, to, _ := nw.Ends(c)
								want = append(want, g.ID(int32(to)))
							}
							got, err := Route(spec, g.ID(int32(s)), g.ID(int32(d)), RouteOptions{Routing: variant.String()})
							if err != nil || !reflect.DeepEqual(got, want) {
								t.Fatalf("%s %v vcs=%d: Route(%d, %d) = %v %v, want %v", name, variant, vcs, s, d, got, err, want)
							}
						}
					}
				}
				res := sim1(t, spec, Options{Op: "alltoall", Size: 64, Seed: 1, Routing: variant.String()})
				if res.Deadlock || res.Messages != P*(P-1) {
					t.Fatalf("%s %v vcs=%d: deadlock=%v messages=%d cycle=%v", name, variant, vcs, res.Deadlock, res.Messages, res.Cycle)
				}
				if mean := float64(sum) / float64(P*(P-1)); !near(res.Hops.Mean, mean, 1e-12) || res.Hops.Max != longest {
					t.Errorf("%s %v vcs=%d: hops %+v, want mean %g max %d", name, variant, vcs, res.Hops, mean, longest)
				}
			}
		}
	}
}

// Rule C′ on rings: one lane gives the acyclic detours (D = n − 2), two
// lanes as ordered components give the natural lengths back, and so does
// a doubled ring with one lane.
func TestAcyclicComponents(t *testing.T) {
	run := func(g *topo.Graph, vcs int) HopStats {
		spec := basic(g, 1e-8, 1e8)
		spec.Packet.VirtualChannels = vcs
		return sim1(t, spec, Options{Op: "alltoall", Size: 8, Routing: "acyclic"}).Hops
	}
	natural := HopStats{Mean: 16 * 64.0 / 240, Max: 8} // ring of 16: Σd = 16·64 over 240 pairs
	if h := run(mustGen(t, "ring", 16), 1); h.Max != 14 {
		t.Errorf("ring 16, one lane: %+v, want D = 14", h)
	}
	if h := run(mustGen(t, "ring", 16), 2); !near(h.Mean, natural.Mean, 1e-12) || h.Max != 8 {
		t.Errorf("ring 16, two lanes: %+v, want %+v", h, natural)
	}
	if h := run(doubleRing(t, 16), 1); !near(h.Mean, natural.Mean, 1e-12) || h.Max != 8 {
		t.Errorf("double ring 16: %+v, want %+v", h, natural)
	}
}

// Acyclic channel ids and runtime lanes correspond one to one, with the
// same ends, for plain links, lanes and parallel links.
func TestAcyclicLaneMapping(t *testing.T) {
	for name, g := range acyclicGraphs(t) {
		for _, lanes := range []int32{1, 3} {
			tb, err := acyclicFor(g, acyclic.Improved, lanes, 0)
			if err != nil {
				t.Fatal(err)
			}
			n := &network{g: g, lanes: lanes}
			if got, want := tb.nw.NumChannels(), 2*g.NumLinks()*int(lanes); got != want {
				t.Fatalf("%s: %d channels, want %d", name, got, want)
			}
			seen := map[int32]bool{}
			for c := range tb.nw.NumChannels() {
				ln := tb.lane(c)
				if seen[ln] || tb.channel(ln) != c {
					t.Fatalf("%s lanes=%d: channel %d -> lane %d -> %d", name, lanes, c, ln, tb.channel(ln))
				}
				seen[ln] = true
				a, b, _ := tb.nw.Ends(c)
				if x, y := n.laneEnds(int(ln)); x != a || y != b {
					t.Fatalf("%s: channel %d is %d→%d, lane %d is %d→%d", name, c, a, b, ln, x, y)
				}
			}
		}
	}
}

// Broadcast under acyclic routing follows the static broadcast tree of
// the acyclic graph: P − 1 one-hop messages, one level per tree depth.
func TestAcyclicBroadcast(t *testing.T) {
	const L = 1e-6
	for _, name := range []string{"ring 16", "torus 8x8", "hamiltonian 64/1", "double ring 8"} {
		g := acyclicGraphs(t)[name]
		spec := basic(g, L, 1e12)
		spec.Switching = VCT
		src := 3
		res := sim1(t, spec, Options{Op: "broadcast", Routing: "acyclic-improved", Src: Node(src)})
		tb, _ := acyclicFor(g, acyclic.Improved, 1, 0)
		parent, _ := tb.nw.BroadcastTree(src)
		depth := 0
		for v := range parent {
			d := 0
			for u := v; parent[u] >= 0; d++ {
				u, _, _ = tb.nw.Ends(parent[u])
			}
			depth = max(depth, d)
		}
		if res.Messages != g.N()-1 || res.Hops.Max != 1 || res.Deadlock || !near(res.Makespan, float64(depth)*L, 1e-9) {
			t.Errorf("%s: %d messages, hops %+v, makespan %g, want depth %d", name, res.Messages, res.Hops, res.Makespan, depth)
		}
	}
}

// routeOnDemand makes g's acyclic routing with the variant and lanes
// route on demand (distances and a memo), as graphs too large for full
// tables do, for the simulations that follow.
func routeOnDemand(t testing.TB, g *topo.Graph, variant acyclic.Variant, lanes int32) {
	t.Helper()
	tb, err := buildAcyclic(g, variant, lanes, limits.Or(0), -1)
	if err != nil {
		t.Fatal(err)
	}
	if !tb.nw.OnDemand() || tb.memo == nil {
		t.Fatal("built with full tables")
	}
	e := &acyclicEntry{t: tb}
	e.once.Do(func() {})
	key := acyclicKey{weak.Make(g), variant, lanes}
	if _, loaded := acyclicCache.LoadOrStore(key, e); loaded {
		t.Fatal("tables already cached")
	}
	goruntime.AddCleanup(g, func(k acyclicKey) { acyclicCache.Delete(k) }, key)
}

// Simulations routed on demand give exactly the results of simulations
// with full tables: the same hops, latencies and link loads, for both
// variants, one lane or lanes as components, a multigraph, and several
// workers sharing the memo.
func TestAcyclicOnDemandSimulatesAsTables(t *testing.T) {
	graphs := map[string]func() *topo.Graph{
		"hamiltonian 64": func() *topo.Graph { return mustGen(t, "hamiltonian", 64, 5) },
		"torus 8x8":      func() *topo.Graph { return mustGen(t, "torus", 8, 8) },
		"double ring 8":  func() *topo.Graph { return doubleRing(t, 8) },
		"hypercube 4":    func() *topo.Graph { return mustGen(t, "hypercube", 4) },
	}
	for name, gen := range graphs {
		for _, variant := range []acyclic.Variant{acyclic.Plain, acyclic.Improved} {
			for _, vcs := range []int{1, 2} {
				for _, op := range []string{"randperm", "alltoall"} {
					results := make([]*Result, 2)
					for i := range results {
						g := gen() // a graph of its own: tables are cached per graph
						if i == 1 {
							routeOnDemand(t, g, variant, int32(vcs))
						}
						spec := basic(g, 1e-8, 1e8)
						spec.Switching = Wormhole
						spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: 2, VirtualChannels: vcs}
						results[i] = sim1(t, spec, Options{Op: op, Size: 64, Seed: 3, Runs: 4, Workers: 2, LinkLoads: true, Routing: variant.String()})
					}
					if !reflect.DeepEqual(results[0], results[1]) {
						t.Errorf("%s %v vcs=%d %s: tables %+v, on demand %+v", name, variant, vcs, op, results[0], results[1])
					}
				}
			}
		}
	}
}

// The tables are built once per graph, variant and lane count, and shared
// by concurrent runs (go test -race).
func TestAcyclicShared(t *testing.T) {
	g := mustGen(t, "hamiltonian", 128, 7)
	spec := basic(g, 1e-8, 1e8)
	spec.Routing = "acyclic"
	var wg sync.WaitGroup
	nets := make([]*acyclicTables, 8)
	for i := range nets {
		wg.Go(func() {
			n, err := compile(spec, "", "", 0)
			if err != nil {
				t.Error(err)
				return
			}
			nets[i] = n.acyc
			if _, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 16, Runs: 4, Seed: uint64(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, x := range nets {
		if x == nil || x != nets[0] {
			t.Fatal("acyclic tables built more than once")
		}
	}
	if n, _ := compile(spec, "acyclic-improved", "", 0); n.acyc == nets[0] {
		t.Error("the improved variant shares the plain tables")
	}
}

// `routing = acyclic` in a machine file selects it.
func TestAcyclicFromMachine(t *testing.T) {
	text, err := os.ReadFile("../examples/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(text), "routing = shortest", "routing = acyclic", 1)
	spec := sourceSpec(t, "ring.machine", src)
	if spec.Routing != "acyclic" {
		t.Fatalf("routing %q", spec.Routing)
	}
	res := sim1(t, spec, Options{Op: "alltoall", Size: 64})
	if res.Deadlock || res.Messages != 56 || res.Hops.Max != 6 {
		t.Errorf("deadlock=%v messages=%d hops=%+v", res.Deadlock, res.Messages, res.Hops)
	}
}

// Bad inputs give errors that say what is wrong, never panics.
func TestAcyclicErrors(t *testing.T) {
	b := topo.NewBuilder()
	for i := range 4 {
		b.Processor(i)
	}
	disc, err := b.Connect(0, 1).Connect(2, 3).Build()
	if err != nil {
		t.Fatal(err)
	}
	bus, err := topo.NewBuilder().Processor(0).Processor(1).Processor(2).
		Link(topo.LinkSpec{Members: []int{0, 1, 2}, Dim: -1}).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		g    *topo.Graph
		want string
	}{
		{disc, "not connected"},
		{bus, "multi-point link"},
	} {
		spec := basic(tc.g, 0, 1)
		for _, r := range []string{"acyclic", "acyclic-improved"} {
			_, err := Simulate(context.Background(), spec, Options{Op: "alltoall", Routing: r})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want an error containing %q", r, err, tc.want)
			}
			if _, err := Route(spec, 0, 1, RouteOptions{Routing: r}); err == nil {
				t.Errorf("Route %s: no error", r)
			}
			if _, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: r}); err == nil {
				t.Errorf("CheckRouting %s: no error", r)
			}
		}
	}
	_, err = Simulate(context.Background(), basic(disc, 0, 1), Options{Routing: "acyclic"})
	if !errors.Is(err, acyclic.ErrDisconnected) {
		t.Errorf("%v does not wrap acyclic.ErrDisconnected", err)
	}
}

// hamiltonianProcs is a random Hamiltonian graph of degree 4 on n nodes
// of which every (n/procs)-th is a processor and the rest are switches.
func hamiltonianProcs(t testing.TB, n, procs int) *topo.Graph {
	t.Helper()
	h, err := topo.NewHamiltonian(n, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	b := topo.NewBuilder()
	for v := range n {
		if v%(n/procs) == 0 {
			b.Processor(v)
		} else {
			b.Switch(v)
		}
	}
	for l := range int32(h.NumLinks()) {
		k := h.Link(l)
		b.Connect(h.ID(k.A), h.ID(k.B))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// BenchmarkAcyclicOnDemand simulates a random permutation among the
// processors of a Hamiltonian graph whose acyclic tables are not built:
// each message's first hop runs a backward search for its destination
// (searches/s over the whole run), the other hops find their channels in
// the memo. Without PARASOL_BIG=1 a 4,096-node graph is routed on demand
// on purpose; with it, 65,536 nodes (whose tables would take 10 GiB).
//
//	PARASOL_BIG=1 go test -run '^$' -bench AcyclicOnDemand -benchtime 1x -timeout 1h ./runtime
func BenchmarkAcyclicOnDemand(b *testing.B) {
	type size struct{ nodes, procs int }
	sizes := []size{{4096, 256}, {4096, 4096}}
	if os.Getenv("PARASOL_BIG") != "" {
		sizes = []size{{65536, 4096}, {65536, 65536}}
	}
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("nodes-%d/procs-%d", sz.nodes, sz.procs), func(b *testing.B) {
			var builds, runs time.Duration
			var searches int64
			var memo acyclic.MemoStats
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				g := hamiltonianProcs(b, sz.nodes, sz.procs) // no tables cached yet
				b.StartTimer()
				start := time.Now()
				if sz.nodes < 1<<16 {
					routeOnDemand(b, g, acyclic.Plain, 1)
				}
				spec := basic(g, 1e-8, 1e9)
				n, err := compile(spec, "acyclic", "", 0)
				if err != nil {
					b.Fatal(err)
				}
				if !n.acyc.nw.OnDemand() {
					b.Fatal("routed by full tables")
				}
				built := time.Now()
				res, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32, Seed: uint64(i), Routing: "acyclic"})
				// A permutation's fixed points send nothing.
				if err != nil || res.Deadlock || res.Partial || res.Undelivered != 0 || res.Messages < sz.procs-10 {
					b.Fatalf("%v: %+v", err, res)
				}
				builds += built.Sub(start)
				runs += time.Since(built)
				st := n.acyc.nw.CacheStats()
				searches += st.Searches + st.Partial
				s := n.acyc.memo.Stats()
				memo.Hits += s.Hits
				memo.Misses += s.Misses
			}
			b.ReportMetric(builds.Seconds()/float64(b.N), "build-s/op")
			b.ReportMetric(runs.Seconds()/float64(b.N), "sim-s/op")
			b.ReportMetric(float64(searches)/runs.Seconds(), "searches/s")
			b.ReportMetric(float64(memo.Hits)/float64(memo.Hits+memo.Misses), "memo-hit-rate")
		})
	}
}
