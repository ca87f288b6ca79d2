package runtime

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// TestFlatFlyTornadoIsBookSims: tornado on a 2-D flattened butterfly is
// BookSim's TornadoTrafficPattern over its terminal grid (digits of base
// xr·k, xr = √c, each moved on by ⌈xr·k/2⌉ − 1), written here from
// traffic.cpp; a flattened butterfly whose c is no square keeps the rank
// rule.
func TestFlatFlyTornadoIsBookSims(t *testing.T) {
	for _, c := range []struct{ k, c, side int }{{4, 4, 8}, {3, 9, 9}, {4, 1, 4}, {4, 2, 0}} {
		n, err := compile(basic(mustGen(t, "flatfly", c.k, 2, c.c), 1e-9, 4e9), "", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(n, &Options{})
		P := n.nprocs
		for r := range P {
			want := (r + (P+1)/2 - 1) % P
			if c.side > 0 {
				want, off := 0, 1
				for range 2 {
					want += off * ((r/off%c.side + (c.side+1)/2 - 1) % c.side)
					off *= c.side
				}
				if got := s.pattern("tornado", r); got != want {
					t.Fatalf("flatfly(%d, 2, %d): tornado sends %d to %d, BookSim to %d", c.k, c.c, r, got, want)
				}
				continue
			}
			if got := s.pattern("tornado", r); got != want {
				t.Fatalf("flatfly(%d, 2, %d): tornado sends %d to %d, want the rank rule's %d", c.k, c.c, r, got, want)
			}
		}
	}
}

// TestNCARandomSpreadsUpPorts: BookSim's nca (nca-random) draws the up
// port for each packet, so one source's packets to one destination leave
// its leaf by every up port, about equally, where D-mod-k (nca) takes one.
func TestNCARandomSpreadsUpPorts(t *testing.T) {
	spec := basic(mustGen(t, "fattree", 4, 3), 1e-9, 4e9)
	for _, c := range []struct {
		routing string
		ports   int
	}{{"nca", 1}, {"nca-random", 4}} {
		n, err := compile(spec, c.routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		g := n.g
		src, dst := g.Proc(0), g.Proc(63)
		leaf := g.Adj(src)[0].Node
		tr := &traffic{op: "custom", channels: 1, links: 1}
		s := newSim(n, &Options{Routing: c.routing})
		s.reset(1)
		for range 400 {
			s.addMsg(tr, src, dst, 32)
		}
		s.linkDeps()
		s.run(context.Background())
		used := 0
		for _, a := range g.Adj(leaf)[4:] { // a leaf's 4 down ports first
			if l := s.wire(n.wire(a.Link, leaf)).load; l > 0 {
				used++
				if c.ports > 1 && (l < 60 || l > 140) {
					t.Errorf("%s: up port to %d carried %d of 400 packets, want about 100", c.routing, a.Node, l)
				}
			}
		}
		if used != c.ports {
			t.Errorf("%s: %d up ports of leaf %d used, want %d", c.routing, used, leaf, c.ports)
		}
	}
}

// TestUsedCreditsComeBack: the used credits UGAL reads (sim.used) count
// a packet's flits on each channel into a router from when it takes the
// channel until they have left that router and their credits are back,
// so after a run every count, read at its end (after its last event:
// usedOf), is back to zero; and while the routing does not read them
// they are not kept, nor on the wires that leave processors (no routing
// reads those: on the 4-ary flattened butterfly, where packets of 256 B
// fill their buffers, their credits would be filed, each in its wire's
// list, and the last ones left there).
func TestUsedCreditsComeBack(t *testing.T) {
	spec := basic(mustGen(t, "flatfly", 4, 2, 4), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Switching = 4, Wormhole
	for _, routing := range []string{"ugal", "dor"} {
		s, _ := runOnce(t, spec, Options{Op: "uniform", Size: 256, Seed: 1, Routing: routing})
		if routing == "dor" {
			if s.used != nil {
				t.Errorf("dor keeps used credits")
			}
			continue
		}
		if s.used == nil {
			t.Fatal("ugal keeps no used credits")
		}
		for w := range s.used {
			if from := s.fromNode(int32(w) * s.net.lanes); from >= s.net.swr.S && (s.used[w] != 0 || s.usedFirst[w] != 0) {
				t.Errorf("wire %d from processor node %d: %d used credits, list %d, want none kept", w, from, s.used[w], s.usedFirst[w])
			}
		}
		s.now, s.cur = s.last, math.MaxUint64
		for w := range s.used {
			if u := s.usedOf(int32(w)); u != 0 {
				t.Errorf("wire %d: %d flits still owed after the run", w, u)
			}
		}
	}
}

// TestUGALLDecidesAsBookSims: at the source router UGAL-L goes the long
// way exactly when BookSim's ugal_dragonflynew would: a random
// intermediate router (one in the source's group: minimal), and the used
// credits of the minimal port over twice the nonminimal port's plus 30
// flits, the ports found by BookSim's dragonfly_port (bookSimDragonflyNext,
// written from networks/dragonfly.cpp) on dragonflynew's numbering (k = 2:
// p = h = 2, a = 4, 9 groups), for random used-credit states.
func TestUGALLDecidesAsBookSims(t *testing.T) {
	const p, a, h, G = 2, 4, 2, 9
	spec := basic(mustGen(t, "dragonfly", p, a, h, G, topo.Absolute), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Packet.VirtualChannels, spec.Switching = 4, 3, Wormhole
	s, _ := runOnce(t, spec, Options{Op: "uniform", Size: 32, Seed: 1, Routing: "ugal-l"})
	g, S := s.net.g, int32(a*G)
	wireTo := func(r, next int32) int32 {
		for _, x := range g.Adj(r) {
			if x.Node == next {
				return s.net.wire(x.Link, r)
			}
		}
		t.Fatalf("router %d has no link to router %d (BookSim's port)", r, next)
		return 0
	}
	rnd := topo.NewRand(7)
	var long, short int
	for range 3000 {
		src, term := int32(rnd.Intn(int(S))), int32(rnd.Intn(int(S*p)))
		if term/(a*p) == src/a {
			continue // within the group: minimal, no choice
		}
		dst := S + term
		if g.Attached(dst) != term/p {
			t.Fatalf("terminal %d hangs off router %d, BookSim's %d", term, g.Attached(dst), term/p)
		}
		for w := range s.used {
			s.used[w] = int32(rnd.Intn(90))
		}
		r := s.rng // the draw dfChoose makes
		mid := int32(r.Intn(int(S)))
		want := dst
		if mid/a != src/a {
			qMin := s.used[wireTo(src, bookSimDragonflyNext(g, p, a, S, src, term))]
			qNon := s.used[wireTo(src, bookSimDragonflyNext(g, p, a, S, src, mid*p))]
			if qMin > 2*qNon+30 {
				want = mid
			}
		}
		pk := &packet{at: src, dst: dst, target: dst}
		s.dfChoose(pk)
		if pk.target != want {
			t.Fatalf("router %d toward terminal %d, intermediate router %d: target %d, BookSim's %d", src, term, mid, pk.target, want)
		}
		if want == dst {
			short++
		} else {
			long++
		}
	}
	if long < 100 || short < 100 {
		t.Errorf("%d long and %d short decisions: want both", long, short)
	}
}

// bookSimDragonflyNext is BookSim's dragonfly_port for dragonflynew with
// p = h: the router that router r's port toward terminal term leads to
// (BookSim's numbering: router r/a's group, terminal term on router
// term/p; group G reaches group D through its router grp_output/p, where
// grp_output is D, or D-1 past G).
func bookSimDragonflyNext(g *topo.Graph, p, a, S, r, term int32) int32 {
	grp, dgrp := r/a, term/(a*p)
	gw := term / p
	if dgrp != grp {
		out := dgrp
		if grp < dgrp {
			out = dgrp - 1
		}
		gw = out/p + grp*a
	}
	if gw != r {
		return gw // a local hop
	}
	for _, x := range g.Adj(r) {
		if x.Node < S && x.Node/a == dgrp {
			return x.Node // the global link
		}
	}
	return -1
}

// TestSwitchedHopsAreTheirRules: the hop a switched routing takes, from
// the figures it works out once (ftSw, ftLv, gates, coord), is the one
// its rule gives by the node labels' arithmetic (the adaptive ones: the
// hops it chooses among), from every node toward every processor, on
// shapes with unequal radices, taper, processors of several parents,
// dragonflies of each arrangement with fewer groups than a·h + 1, and
// HyperX of unequal sides: fat tree and
// XGFT (D-mod-k): down to child ⌊t / pm[i-1]⌋ mod m[i-1] from an ancestor
// of t (⌊x / pw[i]⌋ = ⌊t / pm[i]⌋), else up port ⌊t / pw[i]⌋ mod w[i];
// dragonfly: to the router of the source group whose global link leads
// to the destination's group, that link, then to the destination's router;
// flattened butterfly and HyperX: along the first dimension whose
// coordinate (⌊v / stride⌋ mod k) differs, and the hops a route takes
// are the dimensions that differ.
func TestSwitchedHopsAreTheirRules(t *testing.T) {
	for _, c := range []struct {
		gen     string
		args    []int
		routing string
	}{
		{"fattree", []int{4, 3}, "nca"},
		{"fattree", []int{3, 2}, "nca"},
		{"xgft", []int{3, 3, 2, 4, 2, 3, 2}, "nca"},
		{"xgft", []int{2, 5, 3, 1, 2}, "nca"},
		{"xgft", []int{2, 3, 2, 2, 3}, "nca-adaptive"},
		{"fattree", []int{3, 3}, "nca-random"},
		{"dragonfly", []int{2, 4, 2, 9, topo.Absolute}, "min"},
		{"dragonfly", []int{1, 3, 2, 5, topo.Relative}, "min"},
		{"dragonfly", []int{2, 5, 1, 4, topo.Circulant}, "ugal-l"},
		{"flatfly", []int{4, 2, 4}, "dor"},
		{"flatfly", []int{3, 3, 1}, "min"},
		{"hyperx", []int{2, 3, 5, 2}, "ugal"},
	} {
		n, err := compile(basic(mustGen(t, c.gen, c.args...), 1e-9, 4e9), c.routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		g, r := n.g, n.swr
		name := fmt.Sprint(c.gen, c.args)
		for at := range r.S + int32(g.NumProcs()) {
			for t0 := range int32(g.NumProcs()) {
				dst := r.S + t0
				if at >= r.S { // a processor: its first port, or its w[0] up ports
					want, adj := []topo.Adj{g.Adj(at)[0]}, g.Adj(at)
					if r.kind == topo.FatTree || r.kind == topo.XGFT {
						want = []topo.Adj{adj[t0%r.w[0]]}
						if r.alg != swNCA {
							want = adj[:r.w[0]]
						}
					}
					if got := n.switchedCandidates(at, dst, dst, r.alg, nil); !slices.Equal(got, want) {
						t.Fatalf("%s: from processor %d toward %d: %v, want %v", name, at, t0, got, want)
					}
					continue
				}
				got := n.switchedCandidates(at, dst, dst, r.alg, nil)
				var want []int32 // adjacency indexes
				switch r.kind {
				case topo.FatTree, topo.XGFT:
					i, x := r.level(at)
					switch {
					case x/r.pw[i] == t0/r.pm[i]:
						want = []int32{(t0 / r.pm[i-1]) % r.m[i-1]}
					case r.alg != swNCA:
						for j := range r.w[i] {
							want = append(want, r.m[i-1]+j)
						}
					default:
						want = []int32{r.m[i-1] + (t0/r.pw[i])%r.w[i]}
					}
				case topo.Dragonfly:
					to := g.Attached(dst)
					if to == at {
						break // the ejection port: not the rule's
					}
					G, G2, dest := at/r.a, to/r.a, to
					if G != G2 {
						// The first global port j of G toward G2 (router
						// j/h's port j mod h), found by following links.
						for j := range r.a * r.dh {
							gw := G*r.a + j/r.dh
							if g.Adj(gw)[r.p+r.a-1+j%r.dh].Node/r.a == G2 {
								if gw == at {
									want = []int32{r.p + r.a - 1 + j%r.dh}
								}
								dest = gw
								break
							}
						}
					}
					if want == nil {
						x := dest % r.a
						if x > at%r.a {
							x--
						}
						want = []int32{r.p + x}
					}
				default:
					to := g.Attached(dst)
					hops := int32(0)
					for d := range r.sides {
						k, st := r.sides[d], r.strides[d]
						if a, b := at/st%k, to/st%k; a != b {
							hops++
							if b > a {
								b--
							}
							if want == nil || r.alg == swMin {
								want = append(want, r.port0[d]+b)
							}
						}
					}
					if h := r.ffHops(at, to); h != hops {
						t.Fatalf("%s: %d hops from router %d to router %d, want %d", name, h, at, to, hops)
					}
				}
				if want == nil {
					continue
				}
				adj := g.Adj(at)
				if len(got) != len(want) {
					t.Fatalf("%s: %d hops from %d toward processor %d, want %d", name, len(got), at, t0, len(want))
				}
				for i, j := range want {
					if got[i] != adj[j] {
						t.Fatalf("%s: from %d toward processor %d hop %d is %v, the rule's %v", name, at, t0, i, got[i], adj[j])
					}
				}
			}
		}
	}
}

// TestFlatFlyUGALDecidesAsBookSims: at the source router the flattened
// butterfly's UGAL takes the detour exactly when BookSim's ugal_flatfly
// would: an intermediate router random along the dimensions source and
// destination differ in (find_ran_intm: the source's coordinate along the
// others, drawn in dimension order), taken if the used credits of the
// first port toward the destination × its hops exceed those toward the
// intermediate × the detour's hops plus 2 flits, the ports found by their
// far routers (coordinates by division), on a HyperX of unequal sides,
// for random used-credit states; else minimally in class 1.
func TestFlatFlyUGALDecidesAsBookSims(t *testing.T) {
	sides := []int32{3, 5, 2}
	spec := basic(mustGen(t, "hyperx", 2, 3, 5, 2), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Packet.VirtualChannels, spec.Switching = 4, 2, Wormhole
	s, _ := runOnce(t, spec, Options{Op: "uniform", Size: 32, Seed: 1, Routing: "ugal"})
	s.now, s.cur = s.last, math.MaxUint64 // the run's credits filed with their wires all back, read off
	for w := range s.used {
		s.usedOf(int32(w))
	}
	g, S := s.net.g, int32(30)
	coord := func(v int32, d int) int32 {
		st := int32(1)
		for _, k := range sides[:d] {
			st *= k
		}
		return v / st % sides[d]
	}
	hops := func(u, v int32) (h int32) {
		for d := range sides {
			if coord(u, d) != coord(v, d) {
				h++
			}
		}
		return h
	}
	first := func(u, v int32) int32 { // used credits toward the first hop of u's dimension order to v
		for d := range sides {
			if coord(u, d) != coord(v, d) {
				next, st := u, int32(1)
				for _, k := range sides[:d] {
					st *= k
				}
				next += (coord(v, d) - coord(u, d)) * st
				for _, a := range g.Adj(u) {
					if a.Node == next {
						return s.used[s.net.wire(a.Link, u)]
					}
				}
				t.Fatalf("router %d has no link to router %d", u, next)
			}
		}
		return 0
	}
	rnd := topo.NewRand(5)
	var long, short int
	for range 3000 {
		src, dst := int32(rnd.Intn(int(S))), int32(rnd.Intn(int(S)))
		if src == dst {
			continue
		}
		for w := range s.used {
			s.used[w] = int32(rnd.Intn(20))
		}
		r := s.rng // the draws ffChoose makes
		mid, st := int32(0), int32(1)
		for d, k := range sides {
			x := coord(src, d)
			if x != coord(dst, d) {
				x = int32(r.Intn(int(k)))
			}
			mid += x * st
			st *= k
		}
		want, class := S+2*dst, int32(1)
		if mid != src && mid != dst && first(src, dst)*hops(src, dst) > first(src, mid)*(hops(src, mid)+hops(mid, dst))+2 {
			want, class = mid, 0
		}
		pk := &packet{at: src, dst: S + 2*dst, target: S + 2*dst}
		s.ffChoose(pk)
		if pk.target != want || pk.class != class {
			t.Fatalf("router %d toward router %d, intermediate %d: target %d class %d, BookSim's %d class %d", src, dst, mid, pk.target, pk.class, want, class)
		}
		if class == 0 {
			long++
		} else {
			short++
		}
	}
	if long < 100 || short < 100 {
		t.Errorf("%d detours and %d minimal decisions: want both", long, short)
	}
}

// TestPortsAreTheGraphs: where every router has as many ports (the
// dragonfly, flattened butterfly and HyperX), a hop reads its port from a
// table of the routers' ports (setPorts); each entry must be the graph's:
// the adjacency entry, the wire leaving by it (the link's direction away
// from the router) and the link's dimension, read here from the links
// themselves. A processor's hop (portHop) reads the graph; a fat tree,
// whose levels' switches differ in ports, a dragonfly of fewer groups
// than its global ports lead to, and a table past a sixteenth of the
// memory limit are not kept.
func TestPortsAreTheGraphs(t *testing.T) {
	for _, c := range []struct {
		gen   string
		args  []int
		table bool
	}{
		{"dragonfly", []int{2, 4, 2, 9, topo.Absolute}, true},
		{"dragonfly", []int{1, 3, 2, 5, topo.Relative}, false}, // 5 groups of 6 global ports, 4 used: routers differ
		{"flatfly", []int{4, 2, 4}, true},
		{"hyperx", []int{2, 3, 5, 2}, true},
		{"fattree", []int{4, 3}, false},
	} {
		routing := "min"
		if c.gen == "fattree" {
			routing = "nca"
		}
		n, err := compile(basic(mustGen(t, c.gen, c.args...), 1e-9, 4e9), routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		g, r := n.g, n.swr
		name := fmt.Sprint(c.gen, c.args)
		if (r.ports != nil) != c.table {
			t.Fatalf("%s: a table of ports %v, want %v", name, r.ports != nil, c.table)
		}
		// Past a sixteenth of the memory limit no table is kept.
		if small, err := compile(basic(mustGen(t, c.gen, c.args...), 1e-9, 4e9), routing, "", 1<<10); err != nil || small.swr.ports != nil {
			t.Fatalf("%s within 1 KiB: error %v, a table of ports %v; want none", name, err, small != nil && small.swr.ports != nil)
		}
		for v := range int32(g.N()) {
			for j, want := range g.Adj(v) {
				k := g.Link(want.Link)
				wantW := 2 * want.Link
				if !k.Multi && k.A != v {
					wantW++
				}
				a, w, d := n.portHop(v, int32(j))
				if a != want || w != wantW || d != k.Dim {
					t.Fatalf("%s: node %d port %d: %+v, wire %d, dimension %d; the graph's %+v, %d, %d", name, v, j, a, w, d, want, wantW, k.Dim)
				}
			}
		}
	}
}

// TestUGALLLaneClassIsBookSimsVCPerPhase: UGAL-L on a dragonfly takes, at
// every hop, the lane of BookSim's VC for its phase (ugal_dragonflynew:
// VC 2 for a destination in the source's group; else 0 toward the
// intermediate, 1 minimally, 2 from the minimal phase's global link on),
// Parasol's first phase ending on reaching the intermediate group; with
// four lanes it goes on to the intermediate router, as BookSim's does,
// that hop in class 1 (then 2 minimally up to and over the global link, 3
// from it on and within the source's group). And that lane is among those
// route --check's view of the routing offers from the lane the packet
// came by (switchedNext), so the proof covers what runs.
// dragonfly(2, 4, 2, 9), random used credits, every hop of 3000 random
// routes on each.
func TestUGALLLaneClassIsBookSimsVCPerPhase(t *testing.T) {
	const p, a, G = 2, 4, 9
	for _, lanes := range []int{3, 4} {
		spec := basic(mustGen(t, "dragonfly", p, a, 2, G, topo.Absolute), 1e-9, 4e9)
		spec.Packet.FlitBytes, spec.Packet.VirtualChannels, spec.Switching = 4, lanes, Wormhole
		s, _ := runOnce(t, spec, Options{Op: "uniform", Size: 32, Seed: 1, Routing: "ugal-l"})
		n, g, S := s.net, s.net.g, int32(a*G)
		four := lanes == 4
		minimal, after := int32(1), int32(2)
		if four {
			minimal, after = 2, 3
		}
		rnd := topo.NewRand(11)
		seen := map[[2]int32]bool{} // (class at the source router, class) pairs met
		long := 0                   // routes through an intermediate router other than the arrival one
		for range 3000 {
			src, dst := int32(rnd.Intn(int(S))), S+int32(rnd.Intn(int(S*p)))
			for w := range s.used {
				s.used[w] = int32(rnd.Intn(90))
			}
			pk := &packet{at: src, dst: dst, target: dst, nhops: 1, lastDim: 0}
			term := S + src*p                                 // a terminal of the source router
			in := n.wire(g.Adj(term)[0].Link, term) * n.lanes // its injection lane (whose class is not read)
			vc, first, mid, lastDim := int32(-1), int32(-1), int32(-1), int32(0)
			for hops := 0; pk.at != dst; hops++ {
				if hops > 7 {
					t.Fatalf("%d lanes: router %d toward %d: no arrival in 7 hops", lanes, src, dst)
				}
				at := pk.at
				adj, w, d, ok := s.switchedHop(pk)
				if !ok {
					t.Fatalf("%d lanes: router %d toward %d: no hop at %d", lanes, src, dst, at)
				}
				// The phase, worked out here from where the packet is.
				switch {
				case hops == 0 && at/a == g.Attached(dst)/a:
					vc = after
				case hops == 0 && pk.target != dst:
					vc, mid = 0, pk.target
				case hops == 0:
					vc = minimal
				case vc == 0 && at/a == mid/a && (!four || at == mid):
					vc = minimal // the intermediate group (three lanes) or router reached
				case vc == 0 && at/a == mid/a:
					vc, long = 1, long+1 // on four lanes, toward the intermediate router
				case four && vc == 1 && at == mid:
					vc = minimal
				case four && vc == minimal && lastDim == dfGlobalDim:
					vc = after
				}
				if !four && vc == 1 && d == dfGlobalDim {
					vc = 2
				}
				if hops == 0 {
					first = vc
				}
				ch := w*n.lanes + n.classLo[vc]
				if d == 0 { // the ejection port: any class's lane leads out
					ch = w*n.lanes + n.classLo[min(pk.class, n.classes-1)]
				} else if got := pk.class; got != vc {
					t.Fatalf("%d lanes: router %d toward %d, at %d: class %d, want %d", lanes, src, dst, at, got, vc)
				}
				if !slices.Contains(n.switchedNext(nil, int(term), int(dst), int(at), int(in)), int(ch)) {
					t.Fatalf("%d lanes: router %d toward %d, at %d: lane %d (class %d) not among route --check's from lane %d", lanes, src, dst, at, ch, pk.class, in)
				}
				seen[[2]int32{first, vc}] = true
				pk.at, pk.nhops, pk.lastDim, in, lastDim = adj.Node, pk.nhops+1, d, ch, d
			}
		}
		want := [][2]int32{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}
		if four {
			want = [][2]int32{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {2, 2}, {2, 3}, {3, 3}}
		}
		for _, w := range want {
			if !seen[w] {
				t.Errorf("%d lanes: no hop in class %d of a packet that started in class %d: want every phase met", lanes, w[1], w[0])
			}
		}
		if four != (long > 0) {
			t.Errorf("%d lanes: %d routes went on to an intermediate router in its group", lanes, long)
		}
	}
}
