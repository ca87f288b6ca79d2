package runtime

import (
	"context"
	"testing"

	"github.com/parasol-lang/parasol/runtime/acyclic"
)

// parSpec is dragonfly(2, 4, 2, 9) (absolute arrangement: routers 0..35 in
// groups of 4, processors 36..107) with links of 1 ns and 4 GB/s, 4-byte
// flits (a wire holds one flit in flight) and the given lanes.
func parSpec(t *testing.T, lanes int) *Spec {
	spec := basic(mustGen(t, "dragonfly", 2, 4, 2, 9), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Packet.VirtualChannels, spec.Switching = 4, lanes, Wormhole
	return spec
}

// TestPARDivertsAtTheSourceGroupsSecondRouter, worked by hand: processor
// 36 (router 0, group 0) sends to processor 107 (router 35, group 8);
// minimally 0 → 3 (local) → 32 (router 3's global link to group 8) → 35.
// Router 3's global output holds 300 used credits, every other output
// none; a wire holds 1 flit in flight. With seed 1 the run's generator
// draws router 20 first, then 26. At router 0 UGAL-L and PAR compare the
// minimal output, the local link to router 3 (0 flits; PAR's estimate
// 0 − 1), with twice the output toward router 20 plus 30 flits: both stay
// minimal, since router 0 cannot see router 3's queue. At router 3 UGAL-L
// does not decide again; PAR draws router 26 (group 6), whose way leaves
// router 3 by the local link to router 2: 300 − 1 = 299 > 2·max(0, 0 − 1)
// + 30, so it turns toward router 26, on lane class 1 (its second local
// hop in the source group). With 20 used credits (19 > 30 false) it stays.
// UGAL-L's minimal packet is in its minimal phase's class (ugalLPhase: on
// these four lanes 2, up to and over the global link); PAR's in class 0.
func TestPARDivertsAtTheSourceGroupsSecondRouter(t *testing.T) {
	for _, c := range []struct {
		routing      string
		used         int32
		target, next int32
		class0       int32 // at router 0
		class        int32 // at router 3
	}{
		{"ugal-l", 300, 107, 32, 2, 2},
		{"par", 300, 26, 2, 0, 1},
		{"par", 20, 107, 32, 0, 0},
	} {
		n, err := compile(parSpec(t, 4), c.routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(n, &Options{Routing: c.routing})
		s.reset(1)
		g := n.g
		var global int32 = -1
		for _, a := range g.Adj(3) {
			if a.Node == 32 {
				global = n.wire(a.Link, 3)
			}
		}
		s.used[global] = c.used
		p := &packet{at: 0, target: 107, dst: 107, nhops: 1, lastDim: 0}
		a, _, _, ok := s.switchedHop(p)
		if !ok || a.Node != 3 || p.target != 107 || p.class != c.class0 {
			t.Fatalf("%s at router 0: hop to %d (ok %v), target %d, class %d; want minimal to 3, class %d", c.routing, a.Node, ok, p.target, p.class, c.class0)
		}
		p.at, p.nhops, p.lastDim = 3, 2, 1
		a, _, _, ok = s.switchedHop(p)
		if !ok || a.Node != c.next || p.target != c.target || p.class != c.class {
			t.Errorf("%s, %d used credits on router 3's global link: at router 3 hop to %d, target %d, class %d; want %d, %d, %d",
				c.routing, c.used, a.Node, p.target, p.class, c.next, c.target, c.class)
		}
	}
}

// TestPARNeedsFourLaneClasses: with 4 lanes (a class each) route --check
// proves PAR deadlock-free; with UGAL-L's 3 classes, the second local hop
// in the source group taken in class 0 as the first, the local channels
// of a group wait for each other in a cycle (0→3→2, 3→2→0, …), which the
// same check finds; and with 3 lanes (too few for its classes, so all
// lanes alike) it is cyclic too.
func TestPARNeedsFourLaneClasses(t *testing.T) {
	rc, err := CheckRouting(context.Background(), parSpec(t, 4), CheckOptions{Routing: "par"})
	if err != nil {
		t.Fatal(err)
	}
	if !rc.Acyclic || !rc.Connected {
		t.Errorf("par with 4 lanes: acyclic %v, connected %v; want both (cycle %v)", rc.Acyclic, rc.Connected, rc.Cycle)
	}
	rc, err = CheckRouting(context.Background(), parSpec(t, 3), CheckOptions{Routing: "par"})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Acyclic {
		t.Errorf("par with 3 lanes: acyclic; want a cycle")
	}
	// The second local hop in class 0: PAR on UGAL-L's classes.
	n, err := compile(parSpec(t, 4), "par", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	V := n.lanes
	local := func(ch int) bool { return n.g.Link(int32(ch)/V/2).Dim == 1 }
	r := acyclic.Routing{Nodes: n.g.N(), Channels: 2 * n.g.NumLinks() * int(V), Ends: n.laneEnds, SourceFree: true,
		Next: parOnUGALClasses(n)}
	for i := range n.g.NumProcs() {
		r.Endpoints = append(r.Endpoints, int(n.g.Proc(i)))
	}
	rep, err := acyclic.Check(r)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Acyclic {
		t.Fatal("par with its second local hop in class 0: acyclic; want a cycle of local channels")
	}
	for _, c := range rep.Cycle {
		if !local(c) || c%int(V) != 0 {
			t.Errorf("cycle %v: lane %d is not a class-0 local lane", rep.Cycle, c)
		}
	}
}

// TestPARIsDeterministic: the same seed gives the same answer, adaptive
// choices and all.
func TestPARIsDeterministic(t *testing.T) {
	var first *Result
	for range 2 {
		res := sim1(t, parSpec(t, 4), Options{Op: "dragonfly-adversarial", Size: 32, Seed: 3, Routing: "par"})
		if first != nil && (res.Makespan != first.Makespan || res.Hops != first.Hops) {
			t.Fatalf("two runs of seed 3: makespans %g and %g, hops %v and %v", first.Makespan, res.Makespan, first.Hops, res.Hops)
		}
		first = res
	}
}
