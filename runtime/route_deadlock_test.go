package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime/acyclic"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

func check(t testing.TB, spec *Spec, routing string) *RouteCheck {
	t.Helper()
	rc, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: routing})
	if err != nil {
		t.Fatalf("CheckRouting(%s): %v", routing, err)
	}
	return rc
}

// Shortest-path routing on a ring of 8 with one lane is cyclic: its cycle
// is the eight channels of one direction.
func TestCheckShortestRing(t *testing.T) {
	rc := check(t, basic(mustGen(t, "ring", 8), 0, 1), "shortest")
	if rc.Acyclic || !rc.Connected || rc.PairsWithoutRoute != 0 || len(rc.Cycle) != 8 || !closedWalk(rc.Cycle) {
		t.Fatalf("%+v", rc)
	}
	for _, c := range rc.Cycle {
		if c.To != (c.From+1)%8 || c.VC != 0 {
			t.Fatalf("cycle %v is not the clockwise ring", rc.Cycle)
		}
	}
}

// Routings that cannot deadlock are reported acyclic and connected.
func TestCheckAcyclicRoutings(t *testing.T) {
	type tc struct {
		name    string
		g       *topo.Graph
		routing string
		vcs     int
	}
	cases := []tc{
		{"hypercube 3", mustGen(t, "hypercube", 3), "ecube", 1},
		{"hypercube 6", mustGen(t, "hypercube", 6), "ecube", 1},
		{"hypercube 5", mustGen(t, "hypercube", 5), "shortest", 1},
		{"mesh 4x4", mustGen(t, "mesh", 4, 4), "xy", 1},
		{"mesh 5x3", mustGen(t, "mesh", 5, 3), "dor", 1},
		{"mesh 3x3x3", mustGen(t, "mesh", 3, 3, 3), "dor", 1},
		{"torus 8x8", mustGen(t, "torus", 8, 8), "dor", 2},
		{"torus 5x5", mustGen(t, "torus", 5, 5), "dor", 3},
		{"torus 4x4x4", mustGen(t, "torus", 4, 4, 4), "dor", 2},
		{"torus 6x6", mustGen(t, "torus", 6, 6), "xy", 2},
		{"ring 8", mustGen(t, "ring", 8), "shortest", 2},
		{"ring 9", mustGen(t, "ring", 9), "dor", 2},
		{"tree 3,3", mustGen(t, "tree", 3, 3), "shortest", 1},
		{"full 5", mustGen(t, "full", 5), "shortest", 1},
		{"torus 8x8", mustGen(t, "torus", 8, 8), "tree", 1},
		{"hamiltonian 64", mustGen(t, "hamiltonian", 64, 1), "tree", 1},
		{"torus 8x8", mustGen(t, "torus", 8, 8), "valiant", 4},
		{"mesh 4x4", mustGen(t, "mesh", 4, 4), "valiant", 2},
		{"hypercube 4", mustGen(t, "hypercube", 4), "valiant", 2},
	}
	for _, r := range []string{"acyclic", "acyclic-improved"} {
		for _, vcs := range []int{1, 2} {
			for _, g := range []struct {
				name string
				g    *topo.Graph
			}{
				{"ring 8", mustGen(t, "ring", 8)},
				{"ring 33", mustGen(t, "ring", 33)},
				{"torus 4x4", mustGen(t, "torus", 4, 4)},
				{"torus 8x8", mustGen(t, "torus", 8, 8)},
				{"torus 3x4x5", mustGen(t, "torus", 3, 4, 5)},
				{"hypercube 5", mustGen(t, "hypercube", 5)},
				{"mesh 4x6", mustGen(t, "mesh", 4, 6)},
				{"double ring 8", doubleRing(t, 8)},
				{"hamiltonian 64/1", mustGen(t, "hamiltonian", 64, 1)},
				{"hamiltonian 64/2", mustGen(t, "hamiltonian", 64, 2)},
				{"hamiltonian 100/3 degree 5", mustGen(t, "hamiltonian", 100, 3, 5)},
				{"hamiltonian 256/4", mustGen(t, "hamiltonian", 256, 4)},
			} {
				cases = append(cases, tc{g.name, g.g, r, vcs})
			}
		}
	}
	for _, c := range cases {
		spec := basic(c.g, 0, 1)
		spec.Packet.VirtualChannels = c.vcs
		rc := check(t, spec, c.routing)
		if !rc.Acyclic || !rc.Connected || rc.PairsWithoutRoute != 0 || len(rc.Cycle) != 0 || rc.Routing != c.routing {
			t.Errorf("%s %s vcs=%d: %+v", c.name, c.routing, c.vcs, rc)
		}
	}
}

// Routings that can deadlock are reported with a cycle of lanes.
func TestCheckCyclicRoutings(t *testing.T) {
	for _, c := range []struct {
		name    string
		g       *topo.Graph
		routing string
		vcs     int
	}{
		{"torus 4x4", mustGen(t, "torus", 4, 4), "dor", 1}, // no dateline lanes
		{"torus 8x8", mustGen(t, "torus", 8, 8), "shortest", 1},
		{"mesh 4x4", mustGen(t, "mesh", 4, 4), "random", 2},          // fully adaptive minimal
		{"hypercube 3", mustGen(t, "hypercube", 3), "least-used", 1}, // all minimal dimensions
		{"torus 5x5", mustGen(t, "torus", 5, 5), "short-queue", 2},
		{"hamiltonian 64", mustGen(t, "hamiltonian", 64, 1), "shortest", 1},
		{"double ring 8", doubleRing(t, 8), "quiet", 1},
		{"ring 8", mustGen(t, "ring", 8), "valiant", 1},
		{"ring 8", mustGen(t, "ring", 8), "valiant", 2},      // datelines, but both phases share them
		{"mesh 4x4", mustGen(t, "mesh", 4, 4), "valiant", 1}, // turns at the intermediate
		{"torus 4x4", mustGen(t, "torus", 4, 4), "first-ready", 4},
	} {
		spec := basic(c.g, 0, 1)
		spec.Packet.VirtualChannels = c.vcs
		rc := check(t, spec, c.routing)
		if rc.Acyclic || !rc.Connected || !closedWalk(rc.Cycle) {
			t.Errorf("%s %s vcs=%d: %+v", c.name, c.routing, c.vcs, rc)
		}
		for _, ch := range rc.Cycle {
			if ch.VC < 0 || ch.VC >= max(c.vcs, 1) {
				t.Errorf("%s %s: lane %d of %d", c.name, c.routing, ch.VC, c.vcs)
			}
		}
	}
}

// Dateline lanes are checked as lanes: on a torus with two lanes, the
// wrap link moves a packet to lane 1, so the cycle of lane 0 is broken;
// Valiant with four lanes keeps its phases apart on top of that.
func TestCheckDatelineLanes(t *testing.T) {
	spec := basic(mustGen(t, "ring", 6), 0, 1)
	spec.Packet.VirtualChannels = 1
	one := check(t, spec, "dor")
	spec.Packet.VirtualChannels = 2
	two := check(t, spec, "dor")
	if one.Acyclic || !two.Acyclic {
		t.Fatalf("one lane %+v, two lanes %+v", one, two)
	}
	spec.Packet.VirtualChannels = 4
	if v := check(t, spec, "valiant"); !v.Acyclic || !v.Connected {
		t.Fatalf("valiant, 4 lanes: %+v", v)
	}
}

// Graphs with switches: only processors are endpoints; a route-less pair
// is counted.
func TestCheckSwitchesAndCustom(t *testing.T) {
	// Two switches 10 and 11, each with two processors, joined by a link.
	b := topo.NewBuilder()
	for _, p := range []int{0, 1, 2, 3} {
		b.Processor(p)
	}
	b.Switch(10).Switch(11).Connect(0, 10).Connect(1, 10).Connect(2, 11).Connect(3, 11).Connect(10, 11)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	spec := basic(g, 0, 1)
	for _, r := range []string{"shortest", "acyclic", "acyclic-improved", "tree", "random"} {
		if rc := check(t, spec, r); !rc.Acyclic || !rc.Connected {
			t.Errorf("%s: %+v", r, rc)
		}
	}
	for _, r := range []string{"acyclic", "acyclic-improved"} {
		res := sim1(t, spec, Options{Op: "alltoall", Size: 64, Routing: r})
		if res.Deadlock || res.Messages != 12 || res.Hops.Max != 3 {
			t.Errorf("%s through switches: deadlock=%v messages=%d hops=%+v", r, res.Deadlock, res.Messages, res.Hops)
		}
		if p, err := Route(spec, 0, 3, RouteOptions{Routing: r}); err != nil || len(p) != 4 || p[1] != 10 || p[2] != 11 {
			t.Errorf("%s: route 0→3 = %v %v", r, p, err)
		}
	}
	// A custom function whose switches only deliver to their own
	// processors: the 8 pairs across the two switches have no route.
	spec.Routes = map[string]RouteFunc{"stuck": func(in, at, dst int32, buf []int32) []int32 {
		for _, a := range g.Adj(at) {
			if g.NodeKind(at) == topo.Processor || a.Node == dst {
				buf = append(buf, a.Link)
			}
		}
		return buf
	}}
	rc := check(t, spec, "stuck")
	if rc.Connected || rc.PairsWithoutRoute != 8 || !rc.Acyclic {
		t.Errorf("stuck: %+v", rc)
	}
	// Clockwise on a ring is a cycle.
	ring := mustGen(t, "ring", 6)
	spec = basic(ring, 0, 1)
	spec.Routes = map[string]RouteFunc{"clockwise": func(in, at, dst int32, buf []int32) []int32 {
		for _, a := range ring.Adj(at) {
			if a.Node == (at+1)%6 {
				buf = append(buf, a.Link)
			}
		}
		return buf
	}}
	if rc := check(t, spec, "clockwise"); rc.Acyclic || len(rc.Cycle) != 6 || !rc.Connected {
		t.Errorf("clockwise: %+v", rc)
	}
}

func TestCheckErrors(t *testing.T) {
	bus, err := topo.NewBuilder().Processor(0).Processor(1).Processor(2).
		Link(topo.LinkSpec{Members: []int{0, 1, 2}, Dim: -1}).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec    *Spec
		routing string
		want    string
	}{
		{basic(mustGen(t, "ring", 4), 0, 1), "nonesuch", "unknown routing"},
		{basic(mustGen(t, "ring", 4), 0, 1), "ecube", "needs a hypercube"},
		{basic(bus, 0, 1), "shortest", "multi-point link"},
		{&Spec{}, "shortest", "no graph"},
	} {
		if _, err := CheckRouting(context.Background(), c.spec, CheckOptions{Routing: c.routing}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.routing, err, c.want)
		}
	}
	if _, err := CheckRouting(context.Background(), nil, CheckOptions{}); err == nil {
		t.Error("nil spec: no error")
	}
}

func TestCheckJSON(t *testing.T) {
	for _, r := range []string{"shortest", "acyclic"} {
		js, err := json.Marshal(check(t, basic(mustGen(t, "ring", 4), 0, 1), r))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"routing", "acyclic", "cycle", "connected", "pairs_without_route"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: %s lacks %q", r, js, k)
			}
		}
		if _, ok := m["cycle"].([]any); !ok {
			t.Errorf("%s: cycle is not a list: %s", r, js)
		}
	}
}

// Deadlock shown and avoided: wormhole all-to-all on the ring of
// examples/ring.machine with shortest-path routing and one lane per link
// deadlocks, and the simulator reports the cycle the static check
// predicts; acyclic routing, or dateline lanes, complete it, and the check
// says they cannot deadlock.
func TestDeadlockShownAndAvoided(t *testing.T) {
	text, err := os.ReadFile("../examples/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	load := func(lanes int) *Spec {
		src := strings.Replace(string(text), "param lanes = 1", fmt.Sprintf("param lanes = %d", lanes), 1)
		spec := sourceSpec(t, "ring.machine", src)
		return spec
	}
	spec := load(1)
	if spec.Switching != Wormhole || spec.Routing != "shortest" || spec.Packet.VirtualChannels != 1 {
		t.Fatalf("examples/ring.machine changed: %+v", spec)
	}
	opts := Options{Op: "alltoall", Size: 256, Seed: 1}
	res := sim1(t, spec, opts)
	if !res.Deadlock || res.Undelivered == 0 || len(res.Cycle) < 2 {
		t.Fatalf("shortest, one lane: deadlock=%v undelivered=%d cycle=%v", res.Deadlock, res.Undelivered, res.Cycle)
	}
	rc := check(t, spec, "")
	if rc.Acyclic || len(rc.Cycle) != 8 {
		t.Fatalf("check of shortest: %+v", rc)
	}
	// The simulated cycle (the lanes the packets of the cycle wait for; a
	// worm may hold several lanes between them) runs round the ring in one
	// direction on lane 0, as the predicted one does.
	dir := func(c Channel) int { return (c.To - c.From + 8) % 8 }
	for _, c := range res.Cycle {
		if c.VC != 0 || dir(c) != dir(res.Cycle[0]) {
			t.Fatalf("simulated cycle %v", res.Cycle)
		}
	}

	for _, r := range []string{"acyclic", "acyclic-improved"} {
		opts.Routing = r
		res := sim1(t, spec, opts)
		if res.Deadlock || res.Messages != 56 || res.Undelivered != 0 {
			t.Errorf("%s: deadlock=%v messages=%d cycle=%v", r, res.Deadlock, res.Messages, res.Cycle)
		}
		if rc := check(t, spec, r); !rc.Acyclic || !rc.Connected {
			t.Errorf("check of %s: %+v", r, rc)
		}
	}
	spec = load(2)
	opts.Routing = "dor"
	if res := sim1(t, spec, opts); res.Deadlock || res.Messages != 56 {
		t.Errorf("dor with dateline lanes: deadlock=%v messages=%d", res.Deadlock, res.Messages)
	}
	if rc := check(t, spec, "dor"); !rc.Acyclic || !rc.Connected {
		t.Errorf("check of dor, two lanes: %+v", rc)
	}
}

// A deadlock check of shortest-path and acyclic routing on a ring.
func ExampleCheckRouting() {
	g, _ := topo.Generate("ring", []int{4}, topo.GenerateOptions{})
	spec := &Spec{Graph: g, DefaultLink: LinkParams{Bandwidth: 1e8}}
	for _, routing := range []string{"shortest", "acyclic"} {
		rc, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: routing})
		if err != nil {
			panic(err)
		}
		js, _ := json.Marshal(rc)
		fmt.Println(string(js))
	}
	// Output:
	// {"routing":"shortest","acyclic":false,"cycle":[{"from":0,"to":1,"vc":0},{"from":1,"to":2,"vc":0},{"from":2,"to":3,"vc":0},{"from":3,"to":0,"vc":0}],"connected":true,"pairs_without_route":0}
	// {"routing":"acyclic","acyclic":true,"cycle":[],"connected":true,"pairs_without_route":0}
}

// BenchmarkAcyclic4096 builds the acyclic routing tables and runs the
// deadlock check on random Hamiltonian graphs of 4,096 processors
// (degree 4, irregular): see docs/ACYCLIC.md for figures.
//
//	go test -run '^$' -bench Acyclic4096 -benchmem -benchtime 1x ./runtime
func BenchmarkAcyclic4096(b *testing.B) {
	const P = 4096
	graph := func(i int) *topo.Graph {
		g, err := topo.NewHamiltonian(P, uint64(i+1), 4)
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	for _, v := range []acyclic.Variant{acyclic.Plain, acyclic.Improved} {
		b.Run("tables/"+v.String(), func(b *testing.B) {
			var bytes int64
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				g := graph(i) // fresh graph: no cached tables
				b.StartTimer()
				n, err := compile(basic(g, 0, 1), v.String(), "", 0)
				if err != nil {
					b.Fatal(err)
				}
				bytes = n.acyc.nw.TableBytes()
			}
			b.ReportMetric(float64(bytes)/(1<<20), "table-MiB")
		})
	}
	for _, r := range []string{"acyclic", "acyclic-improved", "shortest"} {
		b.Run("check/"+r, func(b *testing.B) {
			spec := basic(graph(0), 0, 1)
			if _, err := compile(spec, r, "", 0); err != nil { // tables outside the timing
				b.Fatal(err)
			}
			for b.Loop() {
				rc, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: r})
				if err != nil {
					b.Fatal(err)
				}
				if rc.Acyclic != (r != "shortest") || !rc.Connected {
					b.Fatalf("%+v", rc)
				}
			}
		})
	}
}

// Tables and check at 1,024 nodes (the benchmark does 4,096): the tables
// take exactly one bit per (destination, processor, arrival, leaving
// channel), rounded up to words per destination.
func TestAcyclicTableMemory(t *testing.T) {
	g := mustGen(t, "hamiltonian", 1024, 9)
	spec := basic(g, 0, 1)
	rc := check(t, spec, "acyclic-improved")
	if !rc.Acyclic || !rc.Connected {
		t.Fatalf("%+v", rc)
	}
	tb, _ := acyclicFor(g, acyclic.Improved, 1, 0)
	var bits int64
	for v := range int32(g.N()) {
		d := int64(g.Degree(v))
		bits += (d + 1) * d
	}
	if want := (bits + 63) / 64 * 8 * int64(g.N()); tb.nw.TableBytes() != want {
		t.Errorf("tables hold %d bytes, want %d", tb.nw.TableBytes(), want)
	}
}

func TestRouteCheckBeyondItsWorkBoundIsRefusedWithTheReason(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 10), 1e-9, 1e9)
	_, err := CheckRouting(context.Background(), spec, CheckOptions{MaxWork: 1e6})
	want := "the route check of shortest on a 1024-node hypercube graph needs about 1e7 steps (10240 lanes explored toward each of 1024 processors); the bound is 1e6, so it is not run"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant  %s", err, want)
	}
	_, err = CheckRouting(context.Background(), spec, CheckOptions{MaxMemory: 1 << 10})
	if err == nil || !strings.Contains(err.Error(), "the route check of shortest on a 1024-node hypercube graph (10240 lanes) needs about") {
		t.Fatalf("error %v, want the memory limit", err)
	}
}

func TestRouteCheckReportsProgressAndStopsWhenCancelled(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 6), 1e-9, 1e9)
	last, calls := 0, 0
	rc, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: "ecube", Progress: func(done, total int) {
		if total != 64 || done != last+1 {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last, calls = done, calls+1
	}})
	if err != nil || !rc.Acyclic || calls != 64 {
		t.Fatalf("%v %+v, %d progress calls", err, rc, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = CheckRouting(ctx, spec, CheckOptions{Routing: "ecube", Progress: func(int, int) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// mixedSquare is the case of TestSeveralRoutingsAreCheckedTogether: a
// 3 × 3 torus (node x + 3y) under wormhole with one lane a wire, routed
// xy, and a program whose ranks 0 and 5 send each other 4 KB by acyclic
// routing while ranks 3 and 2 do by the topology's xy, each send before
// its receive; acyclic names the routing of 0's and 5's sends, or of
// every send, or none.
func mixedSquare(t *testing.T, acyclic string) (*Spec, *lang.Schedule) {
	spec := basic(mustGen(t, "torus", 3, 3), 10e-9, 100e6)
	spec.Switching = Wormhole
	spec.Routing = "xy"
	spec.Packet.FlitBytes, spec.Packet.BufferFlits = 4, 2
	pair := func(to int32, r uint8) []lang.SchedOp {
		s := send(to, 4096, 0)
		s.Routing = r
		return []lang.SchedOp{s, recv(to, 4096, 0)}
	}
	by := map[string][2]uint8{"none": {0, 0}, "some": {1, 0}, "all": {1, 1}}[acyclic]
	ranks := make([][]lang.SchedOp, 9)
	ranks[0], ranks[5] = pair(5, by[0]), pair(0, by[0])
	ranks[3], ranks[2] = pair(2, by[1]), pair(3, by[1])
	s := chainSchedule(nil, ranks...)
	s.Routings = []string{"acyclic"}
	return spec, s
}

// TestSeveralRoutingsAreCheckedTogether: messages of a program's
// routings share the lanes, so deadlock freedom needs the union of their
// channel dependency graphs acyclic. On mixedSquare's torus xy alone is
// acyclic (each ring of three is crossed in one hop) and so is acyclic
// routing; together they close the square 0 → 3 → 5 → 2 → 0, worked out
// from their paths: xy sends 3 → 2 over 3 → 5 (x first, the wrap) then
// 5 → 2, and 2 → 3 over 2 → 0 then 0 → 3; acyclic routing (TINY's
// colouring) sends 0 → 5 over 3 and 5 → 0 over 2. The simulation agrees:
// the four sends together never complete (each worm holds the lane the
// next requests: a deadlock of all four ranks), while with one routing
// for all they do. Hot-potato routing, which deflects, is not checked
// with others, nor is one routing alone.
func TestSeveralRoutingsAreCheckedTogether(t *testing.T) {
	spec, _ := mixedSquare(t, "none")
	for _, r := range []string{"xy", "acyclic"} {
		if rc := check(t, spec, r); !rc.Acyclic {
			t.Fatalf("%s alone: cycle %v; want acyclic", r, rc.Cycle)
		}
	}
	rc, err := CheckRoutings(context.Background(), spec, []string{"xy", "acyclic"}, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[Channel]string{{0, 3, 0}: "acyclic", {3, 5, 0}: "xy", {5, 2, 0}: "acyclic", {2, 0, 0}: "xy"}
	got := map[Channel]string{}
	for i, c := range rc.Cycle {
		got[c] = rc.CycleRoutings[i]
	}
	if rc.Acyclic || !closedWalk(rc.Cycle) || !maps.Equal(got, want) || rc.Routing != "xy + acyclic" || !rc.Connected {
		t.Errorf("xy + acyclic: %+v; want the cycle %v", rc, want)
	}
	for _, tc := range []struct {
		acyclic  string
		deadlock bool
	}{{"none", false}, {"all", false}, {"some", true}} {
		spec, s := mixedSquare(t, tc.acyclic)
		res := runProg(t, spec, s, ProgramOptions{})
		if got := res.Deadlock != nil && len(res.Deadlock.Waiting) == 4; got != tc.deadlock {
			t.Errorf("acyclic routing for %s of the sends: deadlock %+v; want one of four ranks %v", tc.acyclic, res.Deadlock, tc.deadlock)
		}
	}
	for _, names := range [][]string{{"xy"}, {"xy", "hot-potato"}} {
		if _, err := CheckRoutings(context.Background(), spec, names, CheckOptions{}); err == nil {
			t.Errorf("CheckRoutings(%v): no error", names)
		}
	}
}

// TestRouteCheckCountsItsWalksAgainstTheLimit: the check's lanes are
// estimated before it starts (a limit below that refuses it at once,
// naming the lanes) and its walks' transitions, which the lanes do not
// bound, are counted against what the limit leaves as they grow: with
// 100 bytes left PAR's walk on three lanes of a 72-terminal dragonfly is
// refused, naming its transitions, the figure past the limit; with 64 MB
// left the check gives the answer it gives unbounded.
func TestRouteCheckCountsItsWalksAgainstTheLimit(t *testing.T) {
	spec := parSpec(t, 3)
	o := CheckOptions{Routing: "par", MaxMemory: 1}
	var tl *limits.TooLarge
	if _, err := CheckRouting(context.Background(), spec, o); !errors.As(err, &tl) || !strings.Contains(tl.What, "lanes)") || strings.Contains(tl.What, "transitions") {
		t.Fatalf("limit 1 byte: %v; want the lanes' estimate refused", err)
	}
	lanes := tl.Need
	o.MaxMemory = lanes + 100
	if _, err := CheckRouting(context.Background(), spec, o); !errors.As(err, &tl) || !strings.Contains(tl.What, "transitions") || tl.Need <= tl.Limit || tl.Limit != lanes+100 {
		t.Errorf("limit %d bytes: %v; want the walk refused, its transitions named", lanes+100, err)
	}
	o.MaxMemory = lanes + 64<<20
	got, err := CheckRouting(context.Background(), spec, o)
	if err != nil {
		t.Fatal(err)
	}
	if want := check(t, spec, "par"); want.Acyclic || got.Acyclic || !slices.Equal(got.Cycle, want.Cycle) || got.Connected != want.Connected {
		t.Errorf("with room: %+v; want %+v, cyclic", got, want)
	}
}
