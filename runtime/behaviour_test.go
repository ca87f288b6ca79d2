package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Example 2.16: e-cube from 010 to 111 goes 010 -> 011 -> 111.
func TestEcubeExample216(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 3), 1e-6, 1e6)
	for _, r := range []string{"ecube", "dor", "shortest"} {
		p, err := Route(spec, 2, 7, RouteOptions{Routing: r})
		if err != nil || !reflect.DeepEqual(p, []int{2, 3, 7}) {
			t.Errorf("%s: %v %v, want [2 3 7]", r, p, err)
		}
	}
	// XY on a 4x4 mesh: x first. Node 1 = (1,0), node 14 = (2,3).
	p, err := Route(basic(mustGen(t, "mesh", 4, 4), 0, 1), 1, 14, RouteOptions{Routing: "xy"})
	if err != nil || !reflect.DeepEqual(p, []int{1, 2, 6, 10, 14}) {
		t.Errorf("xy: %v %v", p, err)
	}
}

// Seed 001's packet-routing formula: with packets of r payload bytes and s
// bytes of overhead, cut-through gives t_s + t_h l + t_w2 (r+s) m/r; SAF
// pipelines the packets, adding (l-1) packet times.
func TestPacketRouting(t *testing.T) {
	const ts, th, tw2 = 1e-6, 2e-7, 1e-8
	const l, m, r, s = 4, 1024, 128, 16
	spec := basic(mustGen(t, "chain", l+1), th, 1/tw2)
	spec.DefaultNode.SendOverhead = ts
	spec.Packet = PacketParams{Payload: r, Header: s}
	for _, sw := range []Switching{VCT, Wormhole, SAF} {
		spec.Switching = sw
		res := sim1(t, spec, Options{Size: m, Src: Node(0), Dst: Node(l)})
		want := ts + th*l + tw2*(r+s)*m/r
		if sw == SAF {
			want += (l - 1) * tw2 * (r + s)
		}
		if !near(res.Makespan, want, 1e-9) {
			t.Errorf("%v: %g, want %g", sw, res.Makespan, want)
		}
	}
}

// Software through-routing (TINY): each intermediate processor receives the
// packet whole and spends RouteFixed + RoutePerByte*size on it.
func TestSoftwareRouting(t *testing.T) {
	const L, bw, rf, rb, ts = 1e-6, 1e6, 5e-6, 2e-8, 3e-6
	for h := 1; h <= 5; h++ {
		spec := basic(mustGen(t, "chain", h+1), L, bw)
		spec.DefaultNode = NodeParams{SendOverhead: ts, RouteFixed: rf, RoutePerByte: rb}
		for _, m := range []int{0, 100, 4000} {
			res := sim1(t, spec, Options{Size: m, Src: Node(0), Dst: Node(h)})
			mb := float64(m)
			want := ts + float64(h)*(L+mb/bw) + float64(h-1)*(rf+rb*mb)
			if !near(res.Latency.Mean, want, 1e-9) || res.ProcLoadMax != min(h-1, 1) {
				t.Errorf("h=%d m=%d: %g (proc load %d), want %g", h, m, res.Latency.Mean, res.ProcLoadMax, want)
			}
		}
	}
}

// Every processor sends to every other: on square tori with shortest paths
// the mean and maximum hop counts are the graph's μ and D.
func TestAlltoallTori(t *testing.T) {
	for _, k := range []int{4, 8, 16} {
		g := mustGen(t, "torus", k, k)
		spec := basic(g, 1e-7, 1e8)
		spec.Switching = VCT
		res := sim1(t, spec, Options{Op: "alltoall", Size: 16, Routing: "shortest"})
		m := g.Metrics(context.Background(), topo.MetricsOptions{})
		if res.Messages != k*k*(k*k-1) || math.Abs(res.Hops.Mean-m.AvgDistance) > 1e-12 || res.Hops.Max != m.Diameter {
			t.Errorf("%dx%d: %d messages, hops %+v; graph μ=%v D=%d", k, k, res.Messages, res.Hops, m.AvgDistance, m.Diameter)
		}
	}
}

// Example 2.15 on a 16x16 mesh: nearest-neighbour traffic costs t_s + t_w m
// (plus the one hop's latency), random permutations at least the
// bisection bound t_s + t_w m sqrt(p)/4.
func TestCongestionExample215(t *testing.T) {
	const ts, tw, th, m = 1e-6, 1e-8, 1e-8, 4096
	g := mustGen(t, "mesh", 16, 16)
	spec := basic(g, th, 1/tw)
	spec.DefaultNode.SendOverhead = ts
	spec.Switching = SAF
	nn := sim1(t, spec, Options{Op: "neighbor", Size: m})
	if want := ts + th + tw*m; !near(nn.Makespan, want, 1e-9) || nn.LinkLoadMax != 1 {
		t.Errorf("neighbour: %g (link load %d), want %g", nn.Makespan, nn.LinkLoadMax, want)
	}
	rp := sim1(t, spec, Options{Op: "randperm", Size: m, Runs: 20, Seed: 7})
	bound := ts + tw*m*math.Sqrt(256)/4
	if rp.Makespan < bound || rp.LinkLoadMax < 4 {
		t.Errorf("randperm makespan %g below the bisection bound %g (link load %d)", rp.Makespan, bound, rp.LinkLoadMax)
	}
}

// A wormhole ring with shortest-path routing and one lane per wire
// deadlocks under all-to-all; two lanes with a dateline do not.
func TestRingDeadlock(t *testing.T) {
	g := mustGen(t, "ring", 8)
	spec := basic(g, 1e-8, 1e8)
	spec.Switching = Wormhole
	spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: 4}
	res := sim1(t, spec, Options{Op: "alltoall", Size: 256, Seed: 1})
	if !res.Deadlock || len(res.Cycle) < 2 || res.Undelivered == 0 {
		t.Fatalf("expected a deadlock with a cycle, got deadlock=%v cycle=%v undelivered=%d", res.Deadlock, res.Cycle, res.Undelivered)
	}
	// The cycle is a closed walk of wires around the ring.
	for i, c := range res.Cycle {
		if next := res.Cycle[(i+1)%len(res.Cycle)]; c.To != next.From {
			t.Fatalf("cycle %v is not closed at %d", res.Cycle, i)
		}
	}
	spec.Packet.VirtualChannels = 2
	res = sim1(t, spec, Options{Op: "alltoall", Size: 256, Seed: 1})
	if res.Deadlock || res.Messages != 56 {
		t.Fatalf("dateline lanes: deadlock=%v messages=%d cycle=%v", res.Deadlock, res.Messages, res.Cycle)
	}
	js, _ := json.Marshal(sim1(t, &Spec{Graph: g, DefaultLink: spec.DefaultLink, Packet: PacketParams{FlitBytes: 1, BufferFlits: 4}}, Options{Op: "alltoall", Size: 256, Seed: 1}))
	if !strings.Contains(string(js), `"deadlock":true`) || !strings.Contains(string(js), `"cycle":[{"from"`) {
		t.Errorf("JSON lacks the deadlock: %s", js)
	}
}

// Seed 004: the hypercube barrier is d single-hop exchanges, so with
// on-chip hops of 70 ns in dimensions 0-1 and off-chip 200 ns it takes
// 2 h_in + 4 h_off = 940 ns.
func TestHypercubeBarrier(t *testing.T) {
	g := mustGen(t, "hypercube", 6)
	links := make([]LinkParams, g.NumLinks())
	for l := range links {
		links[l] = LinkParams{Latency: 200e-9, Bandwidth: 1e9}
		if g.Link(int32(l)).Dim < 2 {
			links[l].Latency = 70e-9
		}
	}
	spec := &Spec{Graph: g, Links: links}
	res := sim1(t, spec, Options{Op: "barrier"})
	if !near(res.Makespan, 940e-9, 1e-9) || res.Messages != 64*6 {
		t.Errorf("barrier %g s, %d messages; want 940 ns", res.Makespan, res.Messages)
	}
}

// Collectives and patterns on idle networks with latency-only links (VCT,
// infinite bandwidth): their message counts and makespans follow from the
// algorithms.
func TestCollectives(t *testing.T) {
	const L = 1e-6
	tests := []struct {
		topo     string
		args     []int
		op       string
		messages int
		makespan float64
	}{
		{"hypercube", []int{3}, "broadcast", 7, 3 * L},
		{"hypercube", []int{3}, "reduce", 7, 3 * L},
		{"hypercube", []int{3}, "allgather", 24, 3 * L},
		{"hypercube", []int{4}, "scatter", 15, 4 * L},
		{"hypercube", []int{4}, "gather", 15, 4 * L},
		{"hypercube", []int{4}, "exchange", 16, L},
		{"chain", []int{2}, "pingpong", 2, 2 * L},
		{"mesh", []int{2, 2}, "barrier", 6, 4 * L},
		{"torus", []int{4, 4}, "hotspot", 15, 4 * L},
		{"torus", []int{8}, "tornado", 8, 3 * L},
		{"hypercube", []int{4}, "bitcomp", 16, 4 * L},
		{"hypercube", []int{4}, "transpose", 12, 4 * L},
		{"hypercube", []int{4}, "shuffle", 14, 4 * L},
		{"hypercube", []int{4}, "bitrev", 12, 4 * L},
		// The operations behind compare's allreduce, combine, sync and
		// exchange. Reduce up then broadcast down a binomial tree: 2(P-1)
		// messages; on the chain each tree takes as long as its farthest
		// message.
		{"hypercube", []int{3}, "allreduce", 14, 6 * L},
		{"chain", []int{5}, "allreduce", 8, 8 * L},
		// recursive doubling: P log2 P messages in log2 P one-hop steps
		{"hypercube", []int{3}, "combine", 24, 3 * L},
		// not a power of two: as allreduce
		{"chain", []int{3}, "combine", 4, 4 * L},
		// a tree barrier on a hypercube too, unlike barrier's dimension exchange
		{"hypercube", []int{3}, "treebarrier", 14, 6 * L},
		{"mesh", []int{2, 2}, "treebarrier", 6, 4 * L},
		// Src and Dst at once over a full-duplex path
		{"chain", []int{4}, "swap", 2, 3 * L},
	}
	for _, tc := range tests {
		spec := basic(mustGen(t, tc.topo, tc.args...), L, 1e12)
		spec.Switching = VCT
		res := sim1(t, spec, Options{Op: tc.op, Src: Node(0)})
		if res.Messages != tc.messages || !near(res.Makespan, tc.makespan, 1e-6) || res.Deadlock {
			t.Errorf("%s%v %s: %d messages, makespan %g; want %d, %g", tc.topo, tc.args, tc.op, res.Messages, res.Makespan, tc.messages, tc.makespan)
		}
	}
}

// A shared medium carries one transmission at a time.
func TestSharedMedium(t *testing.T) {
	b := topo.NewBuilder()
	for i := range 4 {
		b.Processor(10 + i)
	}
	g, err := b.Link(topo.LinkSpec{Members: []int{10, 11, 12, 13}, Dim: -1}).Build()
	if err != nil {
		t.Fatal(err)
	}
	const L, bw, m = 1e-6, 1e6, 1000
	res := sim1(t, basic(g, L, bw), Options{Op: "exchange", Size: m})
	if want := 4*m/bw + L; res.Messages != 4 || !near(res.Makespan, want, 1e-9) {
		t.Errorf("makespan %g, want %g", res.Makespan, want)
	}
}

// Every routing completes a random permutation on a hypercube with
// paths no longer than minimal (but for Valiant and tree). With wormhole
// and circuit switching only the deadlock-free ones are bound to finish:
// dimension order, tree, and Valiant with a lane per phase.
func TestRoutings(t *testing.T) {
	g := mustGen(t, "hypercube", 5)
	for _, r := range []string{"shortest", "ecube", "dor", "least-used", "random", "quiet", "short-queue", "first-ready", "valiant", "tree"} {
		for _, sw := range []Switching{Wormhole, VCT, SAF, Circuit} {
			spec := basic(g, 1e-8, 1e8)
			spec.Switching = sw
			spec.Packet = PacketParams{Payload: 64, Header: 4, FlitBytes: 4, BufferFlits: 2, VirtualChannels: 2}
			res := sim1(t, spec, Options{Op: "randperm", Size: 256, Runs: 4, Routing: r})
			mayBlock := (sw == Wormhole || sw == Circuit) && !strings.Contains("shortest ecube dor tree valiant", r) || sw == Circuit && r == "valiant"
			if res.Partial || res.Messages == 0 || res.Deadlock && !mayBlock {
				t.Errorf("%s/%v: deadlock=%v partial=%v messages=%d", r, sw, res.Deadlock, res.Partial, res.Messages)
			}
			if r != "valiant" && r != "tree" && res.Hops.Max > 5 {
				t.Errorf("%s/%v: non-minimal path of %d hops", r, sw, res.Hops.Max)
			}
		}
	}
}

// Acknowledgements with a window W: per packet round trip on an idle path,
// so W packets share each round trip.
func TestWindow(t *testing.T) {
	const L, bw = 10e-6, 1e9
	spec := basic(mustGen(t, "chain", 2), L, bw)
	for _, w := range []int{1, 2, 4} {
		spec.Packet = PacketParams{Payload: 8, AckBytes: 0, Window: w}
		res := sim1(t, spec, Options{Size: 64})
		// 8 packets, W per round trip of 2L; the last round's data arrives
		// after L, its ack after 2L.
		want := float64(8/w) * 2 * L
		if !near(res.Makespan, want, 1e-3) {
			t.Errorf("W=%d: makespan %g, want %g", w, res.Makespan, want)
		}
	}
}

// Same seed, same bytes; more workers change nothing.
func TestDeterminism(t *testing.T) {
	spec := basic(mustGen(t, "torus", 4, 4), 1e-8, 1e8)
	spec.Packet = PacketParams{Payload: 32, Header: 4}
	var out []string
	for _, w := range []int{1, 2, 3, 1} {
		res := sim1(t, spec, Options{Op: "randperm", Size: 100, Runs: 17, Seed: 99, Workers: w, Routing: "random"})
		js, _ := json.Marshal(res)
		out = append(out, string(js))
	}
	for _, o := range out[1:] {
		if o != out[0] {
			t.Fatalf("results differ:\n%s\n%s", out[0], o)
		}
	}
	res := sim1(t, spec, Options{Op: "randperm", Size: 100, Runs: 17, Seed: 100, Routing: "random"})
	if js, _ := json.Marshal(res); string(js) == out[0] {
		t.Error("a different seed gave the same result")
	}
}

func TestLimits(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 6), 1e-8, 1e8)
	res := sim1(t, spec, Options{Op: "alltoall", Size: 64, MaxEvents: 1000})
	if !res.Partial || res.Events != 1000 || res.Undelivered == 0 || res.Deadlock {
		t.Errorf("MaxEvents: partial=%v events=%d undelivered=%d", res.Partial, res.Events, res.Undelivered)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Simulate(ctx, spec, Options{Op: "alltoall", Size: 64, Runs: 3})
	if !errors.Is(err, context.Canceled) || res == nil || !res.Partial {
		t.Errorf("cancelled: %v %+v", err, res)
	}
}

func TestErrors(t *testing.T) {
	hc := basic(mustGen(t, "hypercube", 3), 1e-8, 1e8)
	torus := basic(mustGen(t, "torus", 4, 4), 1e-8, 1e8)
	sw, _ := topo.NewBuilder().Processor(0).Switch(1).Processor(2).Connect(0, 1).Connect(1, 2).Build()
	switched := basic(sw, 1e-8, 1e8)
	split, _ := topo.NewBuilder().Processor(0).Processor(1).Build()
	tests := []struct {
		spec *Spec
		opt  Options
		want string
	}{
		{hc, Options{Op: "scramble"}, "unknown op"},
		{hc, Options{Routing: "zigzag"}, "unknown routing"},
		{hc, Options{Switching: "teleport"}, "unknown switching"},
		{hc, Options{Src: Node(8)}, "Options.Src = 8: node ids are 0..7"},
		{hc, Options{Src: Node(3), Dst: Node(3)}, "two different processors"},
		{hc, Options{Size: -1}, "must not be negative"},
		{torus, Options{Routing: "ecube"}, "Options.Routing = ecube: needs a hypercube; this topology is torus(4, 4)"},
		{hc, Options{Routing: "xy"}, "Options.Routing = xy: needs a 2-D mesh"},
		{switched, Options{Dst: Node(1)}, "is a switch"},
		{switched, Options{Routing: "dor"}, "Options.Routing = dor: needs"},
		{basic(mustGen(t, "torus", 3, 3), 1e-8, 1e8), Options{Op: "transpose"}, "power-of-two"},
		{basic(split, 1e-8, 1e8), Options{}, "no route"},
		{basic(mustGen(t, "chain", 2), 1e-8, 0), Options{}, "bandwidth > 0"},
		{&Spec{}, Options{}, "no graph"},
	}
	for _, tc := range tests {
		_, err := Simulate(context.Background(), tc.spec, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.opt, err, tc.want)
		}
	}
	if _, err := Route(torus, 0, 5, RouteOptions{Routing: "ecube"}); err == nil {
		t.Error("Route accepted ecube on a torus")
	}
}

// Irregular graphs route by table: all-to-all on random Hamiltonian graphs
// gives the graph's μ and D.
func TestHamiltonianTables(t *testing.T) {
	for _, n := range []int{16, 64} {
		g, err := topo.NewHamiltonian(n, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		spec := basic(g, 1e-7, 1e8)
		spec.Switching = SAF
		res := sim1(t, spec, Options{Op: "alltoall", Size: 32})
		m := g.Metrics(context.Background(), topo.MetricsOptions{})
		if math.Abs(res.Hops.Mean-m.AvgDistance) > 1e-12 || res.Hops.Max != m.Diameter || res.LinkLoadMax == 0 || res.ProcLoadMax == 0 {
			t.Errorf("n=%d: hops %+v loads %d/%d, graph μ=%v D=%d", n, res.Hops, res.LinkLoadMax, res.ProcLoadMax, m.AvgDistance, m.Diameter)
		}
	}
}

// A custom routing function (here: always clockwise on a ring) is used
// as given, and round-robin arbitration completes the same traffic.
func TestCustomRoutingAndRoundRobin(t *testing.T) {
	g := mustGen(t, "ring", 6)
	spec := basic(g, 1e-7, 1e8)
	spec.Switching = VCT
	spec.Routes = map[string]RouteFunc{"clockwise": func(in, at, dst int32, buf []int32) []int32 {
		for _, a := range g.Adj(at) {
			if a.Node == (at+1)%6 {
				buf = append(buf, a.Link)
			}
		}
		return buf
	}}
	p, err := Route(spec, 4, 1, RouteOptions{Routing: "clockwise"})
	if err != nil || !reflect.DeepEqual(p, []int{4, 5, 0, 1}) {
		t.Fatalf("clockwise route %v %v", p, err)
	}
	for _, arb := range []Arbitration{FIFO, RoundRobin} {
		spec.Arbitration = arb
		res := sim1(t, spec, Options{Op: "alltoall", Size: 64, Routing: "clockwise"})
		if res.Messages != 30 || res.Hops.Max != 5 || res.Hops.Mean != 3 {
			t.Errorf("arbitration %d: %d messages hops %+v", arb, res.Messages, res.Hops)
		}
	}
}

// Broadcast under tree routing follows the BFS spanning tree from Src:
// every message is one hop, the makespan the tree's depth.
func TestTreeBroadcast(t *testing.T) {
	const L = 1e-6
	for _, tc := range []struct {
		topo  string
		args  []int
		depth int
	}{{"mesh", []int{4, 4}, 6}, {"torus", []int{5, 5}, 4}, {"hypercube", []int{4}, 4}} {
		spec := basic(mustGen(t, tc.topo, tc.args...), L, 1e12)
		spec.Switching = VCT
		res := sim1(t, spec, Options{Op: "broadcast", Routing: "tree", Src: Node(0)})
		n := spec.Graph.N()
		if res.Messages != n-1 || res.Hops.Max != 1 || !near(res.Makespan, float64(tc.depth)*L, 1e-9) {
			t.Errorf("%s%v: %d messages, hops %+v, makespan %g", tc.topo, tc.args, res.Messages, res.Hops, res.Makespan)
		}
	}
}

func TestProgress(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 4), 1e-8, 1e8)
	calls, last := 0, 0
	sim1(t, spec, Options{Op: "uniform", Size: 8, Runs: 50, Workers: 2, Progress: func(done, total int) {
		calls++
		if done <= last || total != 50 {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	}})
	if calls != 50 || last != 50 {
		t.Errorf("%d progress calls, last %d", calls, last)
	}
}
