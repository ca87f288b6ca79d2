package runtime

import (
	"context"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Random machines, operations, routings and switching modes: every
// combination returns a result or an error, never panics or hangs.
func TestNoPanics(t *testing.T) {
	rng := topo.NewRand(5)
	ops := Ops()
	routings := []string{"", "shortest", "ecube", "xy", "dor", "least-used", "random", "quiet", "short-queue", "first-ready", "valiant", "tree", "nonsense"}
	graphs := []func() (*topo.Graph, error){
		func() (*topo.Graph, error) { return topo.Generate("hypercube", []int{3}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("torus", []int{3, 4}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("mesh", []int{2, 3, 2}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("ring", []int{5}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("tree", []int{2, 2}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("full", []int{4}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) { return topo.Generate("hamiltonian", []int{10, 1}, topo.GenerateOptions{}) },
		func() (*topo.Graph, error) {
			b := topo.NewBuilder().Processor(7).Processor(9).Switch(1).Switch(2).Processor(4)
			b.Connect(7, 1).Connect(1, 2).Connect(2, 9).Connect(2, 9).Connect(1, 4)
			return b.Link(topo.LinkSpec{Members: []int{7, 9, 4}, Dim: -1, Channels: 2}).Build()
		},
	}
	okRuns, errs := 0, map[string]int{}
	defer func() { t.Logf("%d completed, errors %v", okRuns, errs) }()
	for i := range 400 {
		g, err := graphs[rng.Intn(len(graphs))]()
		if err != nil {
			t.Fatal(err)
		}
		spec := &Spec{Graph: g, DefaultLink: LinkParams{Latency: rng.Float64() * 1e-6, Bandwidth: 1e6 + rng.Float64()*1e9},
			DefaultNode: NodeParams{HopDelay: rng.Float64() * 1e-7, SendOverhead: rng.Float64() * 1e-6, PacketOverhead: rng.Float64() * 1e-7,
				RouteFixed: float64(rng.Intn(2)) * 1e-6, RecvOverhead: rng.Float64() * 1e-6},
			Switching:   Switching(rng.Intn(4)),
			Arbitration: Arbitration(rng.Intn(2)),
			Packet: PacketParams{Payload: rng.Intn(3) * 16, Header: rng.Intn(4), Trailer: rng.Intn(2), FlitBytes: rng.Intn(5),
				BufferFlits: rng.Intn(4), VirtualChannels: rng.Intn(5), AckBytes: rng.Intn(5), Window: rng.Intn(3)}}
		o := Options{Op: ops[rng.Intn(len(ops))], Size: rng.Intn(100), Runs: 1 + rng.Intn(3), Seed: uint64(i),
			Routing: routings[rng.Intn(len(routings))], Channels: rng.Intn(3), Links: rng.Intn(3), MaxEvents: 200000}
		if rng.Intn(4) == 0 {
			o.Src = Node(g.ID(int32(rng.Intn(g.N()))))
		}
		res, err := Simulate(context.Background(), spec, o)
		if err != nil {
			errs[err.Error()[:min(40, len(err.Error()))]]++
		} else {
			okRuns++
		}
		if err == nil && res == nil {
			t.Fatalf("case %d: nil result without error", i)
		}
		if err == nil && !res.Deadlock && !res.Partial && res.Undelivered != 0 {
			t.Fatalf("case %d: %d undelivered without deadlock", i, res.Undelivered)
		}
	}
}
