package runtime

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/runtime/acyclic"
)

// scaleCases are small switched networks, each with the routings of its
// family and lanes enough and too few for their classes.
var scaleCases = []struct {
	gen      string
	args     []int
	routings []string
	lanes    []int
}{
	{"dragonfly", []int{2, 4, 2, 9}, []string{"min", "valiant", "ugal-l", "ugal-g", "par"}, []int{1, 2, 3, 4}},
	{"dragonfly", []int{1, 2, 1, 3}, []string{"min", "valiant", "par"}, []int{1, 4}},
	{"flatfly", []int{4, 2, 4}, []string{"dor", "min", "valiant", "ugal"}, []int{1, 2}},
	{"hyperx", []int{2, 3, 2, 2}, []string{"dor", "min", "valiant", "ugal"}, []int{1, 3}},
	{"fattree", []int{4, 3}, []string{"nca", "nca-adaptive", "nca-random"}, []int{1, 2}},
	{"fattree", []int{2, 4}, []string{"nca", "nca-adaptive"}, []int{1}},
	{"xgft", []int{2, 3, 2, 1, 3}, []string{"nca", "nca-adaptive"}, []int{1}},
}

// scaleSpec is a small switched network with the given lanes.
func scaleSpec(t *testing.T, gen string, args []int, lanes int) *Spec {
	spec := basic(mustGen(t, gen, args...), 1e-9, 4e9)
	spec.Packet.VirtualChannels, spec.Switching = lanes, Wormhole
	return spec
}

// classesNeeded is the lane classes a switched routing needs to be
// acyclic (route_switched.go): a class per global link a dragonfly's
// packet may take, and PAR one more; a class per dimension for a
// flattened butterfly's minimal adaptive routing, one per phase for its
// Valiant and UGAL; one for dimension order and up*/down*.
func classesNeeded(gen string, args []int, routing string) int {
	switch {
	case gen == "dragonfly" && routing == "min":
		return 2
	case gen == "dragonfly" && routing == "par":
		return parClasses
	case gen == "dragonfly":
		return 3
	case routing == "min" && gen == "flatfly":
		return args[1]
	case routing == "min" && gen == "hyperx":
		return len(args) - 1
	case routing == "valiant" || routing == "ugal":
		return 2
	}
	return 1
}

// TestScaledChecksAgreeWithTheExactOne: where the exact check runs, the
// proof that stands in for it beyond its bound (by router, with the
// dragonfly's groups, or by layers) gives the same answer: acyclic or not,
// connected, the pairs without a route; and that answer is acyclic
// exactly when the routing has a lane for each of its classes.
func TestScaledChecksAgreeWithTheExactOne(t *testing.T) {
	for _, c := range scaleCases {
		for _, lanes := range c.lanes {
			for _, routing := range c.routings {
				name := fmt.Sprintf("%s%v/%d lanes/%s", c.gen, c.args, lanes, routing)
				spec := scaleSpec(t, c.gen, c.args, lanes)
				exact, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: routing})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if exact.Proof != "" {
					t.Fatalf("%s: the exact check ran as %q", name, exact.Proof)
				}
				// Just below the exact check's work: the stand-in runs.
				g := spec.Graph
				work := float64(g.NumProcs()) * float64(2*g.NumLinks()*lanes)
				scaled, err := CheckRouting(context.Background(), spec, CheckOptions{Routing: routing, MaxWork: work - 1})
				if err != nil {
					t.Fatalf("%s, scaled: %v", name, err)
				}
				want := proofRouters
				if c.gen == "fattree" || c.gen == "xgft" {
					want = proofLayers
				}
				if scaled.Proof != want {
					t.Errorf("%s: proved by %q, want %q", name, scaled.Proof, want)
				}
				if scaled.Acyclic != exact.Acyclic || scaled.Connected != exact.Connected || scaled.PairsWithoutRoute != exact.PairsWithoutRoute {
					t.Errorf("%s: scaled acyclic %v, connected %v, %d pairs without a route; exact %v, %v, %d",
						name, scaled.Acyclic, scaled.Connected, scaled.PairsWithoutRoute, exact.Acyclic, exact.Connected, exact.PairsWithoutRoute)
				}
				if want := lanes >= classesNeeded(c.gen, c.args, routing); exact.Acyclic != want || !exact.Connected {
					t.Errorf("%s: acyclic %v, connected %v; want acyclic %v (%d classes), connected", name, exact.Acyclic, exact.Connected, want, classesNeeded(c.gen, c.args, routing))
				}
			}
		}
	}
}

// TestRouterRepresentsItsProcessors is the premise of the proof by
// router, checked by brute force: on every lane into every router, a
// packet for any processor is offered the lanes a packet for its router's
// first processor is, except at that router itself; and a processor's
// first lanes do not depend on which processor of a router sends.
func TestRouterRepresentsItsProcessors(t *testing.T) {
	for _, c := range scaleCases {
		if c.gen == "fattree" || c.gen == "xgft" {
			continue
		}
		for _, routing := range c.routings {
			lanes := slices.Max(c.lanes)
			n, err := compile(scaleSpec(t, c.gen, c.args, lanes), routing, "", 0)
			if err != nil {
				t.Fatal(err)
			}
			reps, _ := n.routerEndpoints()
			if reps == nil {
				t.Fatalf("%s%v %s: no proof by router", c.gen, c.args, routing)
			}
			g := n.g
			first := map[int32]int32{}
			for _, p := range reps {
				first[g.Attached(int32(p))] = int32(p)
			}
			var a, b []int
			for i := range g.NumProcs() {
				tt := g.Proc(i)
				rep := first[g.Attached(tt)]
				for ch := range 2 * g.NumLinks() * int(lanes) {
					from, to := n.laneEnds(ch)
					at := int32(to)
					if from == to || at >= n.swr.S || at == g.Attached(tt) {
						continue
					}
					a = n.switchedNext(a[:0], 0, int(tt), int(at), ch)
					b = n.switchedNext(b[:0], 0, int(rep), int(at), ch)
					if !slices.Equal(a, b) {
						t.Fatalf("%s%v %s: at node %d on lane %d, for processor %d lanes %v, for %d (its router's first) %v", c.gen, c.args, routing, at, ch, tt, a, rep, b)
					}
				}
			}
		}
	}
}

// TestFatTreeClassesStandForEveryDestination is the premise of the proof
// by layers, checked by brute force: at every switch, for every
// destination, one of fatTreeClasses's destinations has the same lanes
// offered on every lane into the switch, and the same plausibility of
// each lane in and each lane offered.
func TestFatTreeClassesStandForEveryDestination(t *testing.T) {
	for _, c := range scaleCases {
		if c.gen != "fattree" && c.gen != "xgft" {
			continue
		}
		for _, routing := range c.routings {
			n, err := compile(scaleSpec(t, c.gen, c.args, 1), routing, "", 0)
			if err != nil {
				t.Fatal(err)
			}
			g := n.g
			// sig is what the proof reads of destination tt at switch v.
			sig := func(v, tt int32) string {
				s := ""
				for _, a := range g.Adj(v) {
					in := int(n.wire(a.Link, a.Node))
					s += fmt.Sprint(n.plausible(in, tt), "|")
					if n.plausible(in, tt) {
						for _, o := range n.switchedNext(nil, 0, int(tt), int(v), in) {
							_, to := n.laneEnds(o)
							s += fmt.Sprint(o, int32(to) >= n.swr.S && int32(to) == tt, int32(to) < n.swr.S && n.plausible(o, tt), ",")
						}
					}
					s += ";"
				}
				return s
			}
			for v := range n.swr.S {
				classes := map[string]bool{}
				for _, r := range n.fatTreeClasses(v, nil) {
					classes[sig(v, r)] = true
				}
				for i := range g.NumProcs() {
					if tt := g.Proc(i); !classes[sig(v, tt)] {
						t.Fatalf("%s%v %s: at switch %d destination %d is like none of %v", c.gen, c.args, routing, v, tt, n.fatTreeClasses(v, nil))
					}
				}
			}
		}
	}
}

// TestProofByLayersRefusesWhatItCannotProve: the proof by layers holds
// nca on fattree(4, 3), and refuses a routing that, after coming down
// into a leaf, may go up again (the up lanes a packet has at a leaf added
// to those it is offered on a down lane: a hop that does not go up in
// rank), and one that offers nothing at a leaf.
func TestProofByLayersRefusesWhatItCannotProve(t *testing.T) {
	n, err := compile(scaleSpec(t, "fattree", []int{4, 3}, 1), "nca", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.checkLayers(n.switchedNext); err != nil {
		t.Fatalf("nca on fattree(4, 3): %v", err)
	}
	leaf := func(at int) bool { return n.fatLevel(int32(at)) == 1 }
	down := func(in int) bool {
		from, to := n.laneEnds(in)
		return n.fatLevel(int32(from)) > n.fatLevel(int32(to))
	}
	turnsUp := func(buf []int, src, dst, at, in int) []int {
		buf = n.switchedNext(buf, src, dst, at, in)
		if in >= 0 && leaf(at) && down(in) {
			for _, a := range n.g.Adj(int32(at))[4:] {
				buf = append(buf, int(n.wire(a.Link, int32(at))))
			}
		}
		return buf
	}
	if err := n.checkLayers(turnsUp); err == nil || !strings.Contains(err.Error(), "does not go up") {
		t.Errorf("up again after down: %v; want a lane that does not go up", err)
	}
	deadEnd := func(buf []int, src, dst, at, in int) []int {
		if in >= 0 && leaf(at) && down(in) {
			return buf
		}
		return n.switchedNext(buf, src, dst, at, in)
	}
	if err := n.checkLayers(deadEnd); err == nil || !strings.Contains(err.Error(), "no lane offered") {
		t.Errorf("nothing offered at a leaf: %v; want no lane offered", err)
	}
}

// TestDragonflyGroupStandsForItsDestinations is the premise of exploring
// the dragonfly by groups (acyclic.Routing.Group), checked by brute
// force: at every router and processor, on every lane into it and at a
// processor's injection, the lanes offered toward any processor of
// another group are those offered toward that group's first processor.
func TestDragonflyGroupStandsForItsDestinations(t *testing.T) {
	for _, c := range scaleCases {
		if c.gen != "dragonfly" {
			continue
		}
		for _, routing := range c.routings {
			n, err := compile(scaleSpec(t, c.gen, c.args, slices.Max(c.lanes)), routing, "", 0)
			if err != nil {
				t.Fatal(err)
			}
			g, group := n.g, n.dragonflyGroup()
			first := map[int]int32{} // group -> its first processor
			for i := range g.NumProcs() {
				if p := g.Proc(i); first[group(int(p))] == 0 {
					first[group(int(p))] = p
				}
			}
			var a, b []int
			for ch := -1; ch < 2*g.NumLinks()*int(n.lanes); ch++ {
				ats := []int32{}
				if ch < 0 {
					for i := range g.NumProcs() {
						ats = append(ats, g.Proc(i))
					}
				} else if from, to := n.laneEnds(ch); from != to {
					ats = append(ats, int32(to))
				}
				for _, at := range ats {
					for i := range g.NumProcs() {
						tt := g.Proc(i)
						if group(int(tt)) == group(int(at)) {
							continue
						}
						rep := first[group(int(tt))]
						a = n.switchedNext(a[:0], 0, int(tt), int(at), ch)
						b = n.switchedNext(b[:0], 0, int(rep), int(at), ch)
						if !slices.Equal(a, b) {
							t.Fatalf("%s%v %s: at node %d on lane %d, for processor %d lanes %v, for %d (its group's first) %v", c.gen, c.args, routing, at, ch, tt, a, rep, b)
						}
					}
				}
			}
		}
	}
}

// TestScaledCheckFindsPARsCycleOnThreeClasses: PAR on UGAL-L's 3 classes
// (its second local hop in the source group in class 0) is cyclic, and
// the proof by router with the dragonfly's groups finds a cycle of class-0
// local lanes as the exact check does, with every pair routed.
func TestScaledCheckFindsPARsCycleOnThreeClasses(t *testing.T) {
	n, err := compile(parSpec(t, 4), "par", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	g, V := n.g, n.lanes
	r := acyclic.Routing{Nodes: g.N(), Channels: 2 * g.NumLinks() * int(V), Ends: n.laneEnds, SourceFree: true,
		Next: parOnUGALClasses(n)}
	for i := range g.NumProcs() {
		r.Endpoints = append(r.Endpoints, int(g.Proc(i)))
	}
	exact, err := acyclic.Check(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Endpoints, r.Weights = n.routerEndpoints()
	r.Group = n.dragonflyGroup()
	scaled, err := acyclic.Check(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range []acyclic.Report{exact, scaled} {
		if rep.Acyclic || !rep.Connected {
			t.Fatalf("acyclic %v, connected %v; want a cycle, every pair routed", rep.Acyclic, rep.Connected)
		}
		for _, c := range rep.Cycle {
			if g.Link(int32(c)/V/2).Dim != 1 || int32(c)%V != 0 {
				t.Errorf("cycle %v: lane %d is not a class-0 local lane", rep.Cycle, c)
			}
		}
	}
}
