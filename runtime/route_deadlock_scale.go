package runtime

import (
	"fmt"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/runtime/acyclic"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// The deadlock check of large switched networks. The exact check
// (CheckRouting) follows every route from every processor to every
// processor: about processors × lanes steps, 4e9 on a 16,512-terminal
// dragonfly and 3.4e10 on a 65,536-terminal fat tree. The switched
// routings (route_switched.go) let two cheaper proofs stand in for it when
// it is beyond its bound; each gives the exact check's answer (acyclic,
// connected, the pairs without a route), as TestScaledChecksAgreeWithTheExactOne
// holds on small networks where both run.
//
//   - By router ("routers"): dragonflies, flattened butterflies and HyperX.
//     Their rules read a destination only through the router it hangs off
//     (switchedCandidates goes toward Attached(dst), and switchedNext
//     compares groups), so every processor of a router is routed alike up
//     to that router, where each leaves by its own ejection channel; and a
//     packet leaves its source processor by the one channel to its router,
//     where the lanes it asks for are those of every other processor
//     there. The check then runs on one processor per router: the
//     dependencies it leaves out are those out of the other processors'
//     injection channels, which nothing waits for, and those into their
//     ejection channels, which wait for nothing, so neither is on a cycle;
//     a pair of routers without a route stands for every pair of their
//     processors. The work is routers × lanes (5e8 on the dragonfly).
//
//     A dragonfly is explored by groups besides (acyclic.Routing.Group):
//     at a router outside a destination's group its routings read the
//     destination only through that group. The minimal hop (dfNext)
//     compares groups until the packet is in the destination's group;
//     Valiant's, UGAL's and PAR's first phase may take any local or
//     global link of the source group while the router is outside the
//     destination's group; and the lane class is the global links taken
//     (and PAR's diverted local hop), or UGAL-L's phase (ugalLPhase),
//     which the lane held tells
//     (TestDragonflyGroupStandsForItsDestinations checks this by brute
//     force). So the routes toward every router of a group run alike,
//     lane for lane, until they enter the group: the check follows the
//     lanes outside the group once for all its routers, from the routers
//     outside it, and for each router of the group only the lanes inside
//     the group, from the global lanes entering it and the group's other
//     routers. It records the same dependencies as the walk per router
//     (the same lanes outside reached from the same sources, offering
//     the same lanes), so the same cycle; and a lane outside leads to a
//     router of the group exactly when it reaches a lane entering the
//     group that does, so the same pairs without a route
//     (TestCheckByGroupsReportsAsWithout, and a route that left the group
//     again would be walked in full). Valiant, UGAL-L and UGAL-G on the
//     16,512-terminal dragonfly take 7.3e6 states this way instead of
//     1.1e8, PAR (4 lanes) 1.4e7 instead of 2e8, minimal 9e5.
//   - By layers ("layers"): fat trees and XGFTs, whose up*/down* routing
//     goes up to the nearest common ancestor and then down. Rank each
//     channel by its level and direction: an up channel from level i by i,
//     a down channel from level i by 2h − i, so that every up channel ranks
//     below every down channel. A state, a packet on channel c bound for
//     processor t, is plausible if c is an up channel out of a subtree
//     without t, or a down channel into a subtree with t. The proof checks,
//     at every switch, for every channel into it and every destination
//     class there, that when the state is plausible the routing offers at
//     least one lane, each of higher rank, each plausible or the
//     destination's own ejection channel; and at every processor that its
//     first lanes are plausible. By induction every state a packet reaches
//     is plausible, every dependency between such states goes up in rank
//     (so none is on a cycle) and every route ends at its destination
//     (ranks are finite), which is what the exact check would find. At a
//     switch (level i, label x) the routing and plausibility read a
//     destination t only through whether x is its ancestor, which child's
//     subtree holds it (the down port), and its D-mod-k up port
//     ⌊t / (w₀…wᵢ₋₁)⌋ mod wᵢ; one destination for each value of those
//     stands for all (fatTreeClasses). The work is about switches × ports²
//     × lanes (1.7e7 on the fat tree).
//
// Either proof is used only when the exact check is beyond the bound and
// the proof is within it.

// Proofs of RouteCheck.Proof.
const (
	proofRouters = "routers"
	proofLayers  = "layers"
)

// routerEndpoints returns one processor per router, the first attached to
// it, with the number of processors on that router, when the routing
// routes every processor of a router alike (see above); nil otherwise.
func (n *network) routerEndpoints() (reps, count []int) {
	if n.rk != rSwitched {
		return nil, nil
	}
	switch n.swr.kind {
	case topo.Dragonfly, topo.FlatFly, topo.HyperX:
	default:
		return nil, nil
	}
	g := n.g
	at := map[int32]int{} // router -> index in reps
	for i := range g.NumProcs() {
		p := g.Proc(i)
		if len(g.Adj(p)) != 1 {
			return nil, nil
		}
		r := g.Attached(p)
		k, ok := at[r]
		if !ok {
			k = len(reps)
			at[r] = k
			reps = append(reps, int(p))
			count = append(count, 0)
		}
		count[k]++
	}
	return reps, count
}

// layered reports whether the routing is proved by layers (fat trees and
// XGFTs whose processors hang off one leaf switch each).
func (n *network) layered() bool {
	if n.rk != rSwitched {
		return false
	}
	r := n.swr
	return (r.kind == topo.FatTree || r.kind == topo.XGFT) && r.w[0] == 1
}

// layersWork is the steps of the proof by layers: for every switch, the
// lanes into it times its destination classes (at most its ports).
func (n *network) layersWork() float64 {
	g := n.g
	w := 0.0
	for v := range n.swr.S {
		d := float64(len(g.Adj(v)))
		w += d * d * float64(n.lanes)
	}
	return w + float64(g.NumProcs())*float64(n.lanes)
}

// inSubtree reports whether processor t (rank) is in the subtree of node v
// of a fat tree or XGFT (v itself for a processor).
func (r *switchedRoute) inSubtree(v, t int32) bool {
	if v >= r.S {
		return v-r.S == t
	}
	i, x := r.level(v)
	return x/r.pw[i] == t/r.pm[i]
}

// fatTreeClasses appends to buf one destination processor (node index)
// for each class of destinations switch v (level i ≥ 1, label x) routes
// alike: in each child's subtree one (the down port), and outside its
// subtree one for each D-mod-k up port ⌊t / pw[i]⌋ mod w[i] some
// destination there has.
func (n *network) fatTreeClasses(v int32, buf []int32) []int32 {
	r := n.swr
	i, x := r.level(v)
	base := (x / r.pw[i]) * r.pm[i]
	for D := range r.m[i-1] {
		buf = append(buf, r.S+base+D*r.pm[i-1])
	}
	if i == r.h {
		return buf
	}
	P := r.pm[r.h]
	need := r.w[i]
	seen := make([]bool, need)
	for t := int32(0); t < P && need > 0; t++ {
		if t == base {
			t += r.pm[i] - 1 // skip the subtree
			continue
		}
		if u := (t / r.pw[i]) % r.w[i]; !seen[u] {
			seen[u] = true
			need--
			buf = append(buf, r.S+t)
		}
	}
	return buf
}

// wireLayers returns each wire's ends and its rank in the proof by
// layers: an up wire from level i ranks i, a down wire from level i ranks
// 2h − i, so the up wires are those that rank below h.
func (n *network) wireLayers() (tail, head, rank []int32) {
	W := 2 * n.g.NumLinks()
	tail, head, rank = make([]int32, W), make([]int32, W), make([]int32, W)
	for w := range W {
		from, to := n.laneEnds(w * int(n.lanes))
		tail[w], head[w] = int32(from), int32(to)
		lf, lt := n.fatLevel(int32(from)), n.fatLevel(int32(to))
		rank[w] = 2*n.swr.h - lf
		if lt > lf {
			rank[w] = lf
		}
	}
	return tail, head, rank
}

// layersBytes is what the proof by layers allocates: wireLayers's three
// figures per wire, and the packed links switchedNext reads.
func (n *network) layersBytes() int64 {
	return limits.Mul(int64(n.g.NumLinks()), 2*12+checkLinkBytes)
}

// fatLevel is the level of node v (0 for a processor).
func (n *network) fatLevel(v int32) int32 {
	if v >= n.swr.S {
		return 0
	}
	i, _ := n.swr.level(v)
	return i
}

// plausible reports whether a packet for processor node t may hold lane
// c: an up lane out of a subtree without t, a down lane into one with it.
func (n *network) plausible(c int, t int32) bool {
	from, to := n.laneEnds(c)
	u, v := int32(from), int32(to)
	return n.plausibleOn(n.fatLevel(v) > n.fatLevel(u), u, v, t)
}

// plausibleOn is plausible for a lane from node u to node v, up or down.
func (n *network) plausibleOn(up bool, u, v, t int32) bool {
	if up {
		return !n.swr.inSubtree(u, t-n.swr.S)
	}
	return n.swr.inSubtree(v, t-n.swr.S)
}

// checkLayers is the proof by layers of the routing next (route --check's
// view of it, switchedNext): it returns nil when every plausible state
// goes up in rank to plausible states (so the routing is acyclic and
// connected), else an error naming the state where it does not.
func (n *network) checkLayers(next func(buf []int, src, dst, at, in int) []int) error {
	g, V, S, h := n.g, n.lanes, n.swr.S, n.swr.h
	tail, head, rank := n.wireLayers()
	var buf []int
	var dst []int32
	bad := func(at int32, in int, t int32, why string) error {
		return fmt.Errorf("at node %d, on lane %d, bound for node %d: %s", g.ID(at), in, g.ID(t), why)
	}
	step := func(at int32, in int, t int32) error {
		buf = next(buf[:0], 0, int(t), int(at), in)
		if len(buf) == 0 {
			return bad(at, in, t, "no lane offered")
		}
		rin := int32(-1)
		if in >= 0 {
			rin = rank[int32(in)/V]
		}
		for _, o := range buf {
			w := int32(o) / V
			to := head[w]
			switch {
			case tail[w] != at:
				return bad(at, in, t, fmt.Sprintf("lane %d does not leave it", o))
			case in >= 0 && rank[w] <= rin:
				return bad(at, in, t, fmt.Sprintf("lane %d does not go up in (level, direction)", o))
			case to >= S && to != t:
				return bad(at, in, t, fmt.Sprintf("lane %d leads to processor %d", o, g.ID(to)))
			case to < S && !n.plausibleOn(rank[w] < h, at, to, t):
				return bad(at, in, t, fmt.Sprintf("lane %d leaves the packet where it cannot be", o))
			}
		}
		return nil
	}
	for v := range S {
		dst = n.fatTreeClasses(v, dst[:0])
		for _, a := range g.Adj(v) {
			w := n.wire(a.Link, a.Node)
			up := rank[w] < h
			for c := w * V; c < (w+1)*V; c++ {
				for _, t := range dst {
					if !n.plausibleOn(up, a.Node, v, t) {
						continue
					}
					if err := step(v, int(c), t); err != nil {
						return err
					}
				}
			}
		}
	}
	// A processor's first lanes: its one leaf reads no destination digit
	// (w₀ = 1), so any other processor stands for all.
	for i := range g.NumProcs() {
		s := g.Proc(i)
		t := g.Proc((i + 1) % g.NumProcs())
		if err := step(s, acyclic.Local, t); err != nil {
			return err
		}
	}
	return nil
}

// dragonflyGroup is the group of a dragonfly's node (a processor's is its
// router's), as acyclic.Routing.Group reads it: outside a destination's
// group the dragonfly's routings read the destination only through its
// group (see above); nil for other networks.
func (n *network) dragonflyGroup() func(v int) int {
	r := n.swr
	if n.rk != rSwitched || r.kind != topo.Dragonfly {
		return nil
	}
	return func(v int) int {
		if int32(v) >= r.S {
			v = int(n.g.Attached(int32(v)))
		}
		return v / int(r.a)
	}
}
