package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// twin is a Parasol I file whose links, listed one by one in a scrambled
// order, form a generated topology, and the modern machine that generates
// it. Link latency grows with the dimension, so the per-link values must
// follow the links when they are put in the generator's order.
type twin struct {
	name      string
	gen       string // generator call of the modern twin
	routings  []string
	explicit  string // Parasol I text
	generated string
}

func makeTwin(t *testing.T, name, gen string, args []int, routings ...string) twin {
	t.Helper()
	g, err := topo.Generate(gen, args, topo.GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	call := strings.Trim(strings.ReplaceAll(fmt.Sprint(args), " ", ", "), "[]")
	var b strings.Builder
	fmt.Fprintf(&b, "machinename = %q\nprocessor = 1\nname = \"node\"\ntopology = 1\ntoponame = \"net\"\n", name)
	rng := topo.NewRand(42)
	order := make([]int32, g.NumLinks())
	for i := range order {
		order[i] = int32(i)
	}
	for i := len(order) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	for i, l := range order {
		k := g.Link(l)
		a, c := k.A, k.B
		if rng.Intn(2) == 0 {
			a, c = c, a
		}
		fmt.Fprintf(&b, "linknumber = %d\nlinklatency = %d\nlinkspeed = 2e7\nprocs_connected = 2\n", i, 50*(k.Dim+1))
		fmt.Fprintf(&b, "processortype0 = 1\nprocessornumber = %d\nprocessortype1 = 1\nprocessornumber = %d\n", a, c)
	}
	generated := fmt.Sprintf(`machine %q {
	processor node {}
	topology net = %s(%s) {
		link(d) { latency = (d + 1) * 50ns }
		speed = 20MB/s
	}
}`, name, gen, call)
	return twin{name: name, gen: gen + "(" + call + ")", routings: routings, explicit: b.String(), generated: generated}
}

func twinSpecs(t *testing.T, tw twin) (explicit, generated *Spec) {
	t.Helper()
	var specs [2]*Spec
	for i, src := range []string{tw.explicit, tw.generated} {
		specs[i] = sourceSpec(t, tw.name+".machine", src)
	}
	return specs[0], specs[1]
}

func twins(t *testing.T) []twin {
	return []twin{
		makeTwin(t, "cube3", "hypercube", []int{3}, "shortest", "ecube", "dor"),
		makeTwin(t, "cube5", "hypercube", []int{5}, "shortest", "ecube", "dor"),
		makeTwin(t, "mesh44", "mesh", []int{4, 4}, "shortest", "xy", "dor"),
	}
}

// A Parasol I 3-cube, 5-cube and 4×4 mesh are the generated graphs: the
// same links with the same latencies in the same order, and every routing
// gives every pair of processors the same path.
func TestParasolITwinsRouteAsTheGeneratedGraphs(t *testing.T) {
	for _, tw := range twins(t) {
		t.Run(tw.gen, func(t *testing.T) {
			ex, gen := twinSpecs(t, tw)
			eg, gg := ex.Graph, gen.Graph
			if eg.Kind() != gg.Kind() || !slices.Equal(eg.Dims(), gg.Dims()) {
				t.Fatalf("the Parasol I topology is %s%v, want %s%v", eg.Kind(), eg.Dims(), gg.Kind(), gg.Dims())
			}
			if !slices.Equal(ex.Links, gen.Links) {
				t.Fatalf("link parameters differ:\n%v\n%v", ex.Links, gen.Links)
			}
			for _, routing := range tw.routings {
				for src := range gg.N() {
					for dst := range gg.N() {
						if src == dst {
							continue
						}
						pe, err := Route(ex, src, dst, RouteOptions{Routing: routing})
						if err != nil {
							t.Fatalf("%s: %v", routing, err)
						}
						pg, err := Route(gen, src, dst, RouteOptions{Routing: routing})
						if err != nil {
							t.Fatalf("%s: %v", routing, err)
						}
						if !slices.Equal(pe, pg) {
							t.Fatalf("%s %d → %d: %v on the Parasol I file, %v generated", routing, src, dst, pe, pg)
						}
					}
				}
			}
		})
	}
}

// Dimension-order routing on the Parasol I twins is deadlock-free, as on
// the generated graphs.
func TestParasolITwinsDimensionOrderIsAcyclic(t *testing.T) {
	for _, tw := range twins(t) {
		ex, _ := twinSpecs(t, tw)
		for _, routing := range tw.routings[1:] {
			rc, err := CheckRouting(context.Background(), ex, CheckOptions{Routing: routing})
			if err != nil {
				t.Fatalf("%s %s: %v", tw.gen, routing, err)
			}
			if !rc.Acyclic || !rc.Connected {
				t.Errorf("%s %s: acyclic %v, connected %v, cycle %v", tw.gen, routing, rc.Acyclic, rc.Connected, rc.Cycle)
			}
		}
	}
}

// Simulating the Parasol I twins gives exactly the generated graphs'
// results: latencies, loads, events, for several operations and seeds.
func TestParasolITwinsSimulateAsTheGeneratedGraphs(t *testing.T) {
	ops := []Options{
		{Op: "alltoall", Size: 256, Switching: "wormhole", Seed: 1},
		{Op: "transpose", Size: 1024, Switching: "wormhole", Seed: 2},
		{Op: "uniform", Size: 100, Switching: "saf", Runs: 3, Seed: 3},
		{Op: "broadcast", Size: 512, Switching: "vct", Seed: 4},
		{Op: "barrier", Switching: "circuit", Seed: 5},
		{Op: "neighbor", Size: 64, Seed: 6, Routing: "random"},
	}
	for _, tw := range twins(t) {
		ex, gen := twinSpecs(t, tw)
		for _, o := range ops {
			var out [2][]byte
			for i, spec := range []*Spec{ex, gen} {
				r, err := Simulate(context.Background(), spec, o)
				if err != nil {
					t.Fatalf("%s %s: %v", tw.gen, o.Op, err)
				}
				if out[i], err = json.Marshal(r); err != nil {
					t.Fatal(err)
				}
			}
			if string(out[0]) != string(out[1]) {
				t.Errorf("%s %s: the Parasol I file simulates\n%s\nthe generated graph\n%s", tw.gen, o.Op, out[0], out[1])
			}
		}
	}
}

// std:puma's switches form a double 6-cube and route by e-cube: every
// directed switch-to-switch link carries the 32 switch pairs of e-cube
// (seed 000 §4), not the 243 that breadth-first tables put on one link.
func TestPumaRoutesItsSwitchesByECube(t *testing.T) {
	spec := loadSpec(t, "std:puma")
	g := spec.Graph
	if c := g.Core(); c.Kind != topo.Hypercube || c.Dims[0] != 6 || c.Nodes != 64 {
		t.Fatalf("core %+v, want the 64 switches as a 6-cube", c)
	}
	for _, routing := range []string{"shortest", "ecube", "dor"} {
		// Count, over all ordered switch pairs, the pairs whose path uses
		// each directed switch-to-switch hop.
		load := map[[2]int]int{}
		for a := 256; a < 320; a++ {
			for b := 256; b < 320; b++ {
				if a == b {
					continue
				}
				// Route between processors on the two switches.
				path, err := Route(spec, 4*(a-256), 4*(b-256), RouteOptions{Routing: routing})
				if err != nil {
					t.Fatal(err)
				}
				for i := 1; i+2 < len(path); i++ {
					load[[2]int{path[i], path[i+1]}]++
				}
				if want := 2 + popcount(a^b); len(path)-1 != want {
					t.Fatalf("%s %d → %d: %d hops, want %d", routing, a, b, len(path)-1, want)
				}
			}
		}
		most := 0
		for _, n := range load {
			most = max(most, n)
		}
		if most != 32 || len(load) != 64*6 {
			t.Errorf("%s: busiest switch link carries %d pairs over %d directed links, want 32 over 384", routing, most, len(load))
		}
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
