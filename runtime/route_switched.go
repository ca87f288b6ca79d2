package runtime

import (
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Routing by rule on the switched generators' graphs (fat trees and XGFTs,
// dragonflies, flattened butterflies and HyperX), as BookSim 2 and the
// literature route them, without tables: each hop is worked out from the
// switch's node index, which encodes its place, and the port order of its
// adjacency (see package topo's gen_switched.go). Deadlock freedom comes
// from lane classes, as in BookSim: a packet moves to the next class at
// each phase change, so that the channel dependencies within a class are
// acyclic and between classes only go upward.
//
//   - fat tree (nca, nca-adaptive, nca-random): up to the nearest common
//     ancestor of source and destination, then down; the up port is the
//     destination's digit (D-mod-k), or, adaptive, the up port whose lanes
//     hold the fewest packets when the head arrives, or one at random for
//     each packet at each level (BookSim's nca, fattree_nca's RandomInt).
//     Up*/down* needs one class.
//   - dragonfly (min, valiant, ugal-l, ugal-g): minimal is local, global,
//     local; Valiant goes minimally to a random intermediate group other
//     than the source's and the destination's, then minimally on; UGAL-G
//     chooses at the source between the two by queue × hops. The class is
//     the number of global links taken (2 classes minimal, 3 otherwise;
//     minimal on three lanes takes the first two, one lane a class, as
//     BookSim's min_dragonflynew its VC 0 and 1 of 3).
//     UGAL-L is BookSim's ugal_dragonflynew: at the source router a random
//     intermediate router anywhere (one in the source's group means
//     minimal), taken if the used credits of the minimal port exceed twice
//     those of the port toward it plus 30 flits; its classes are BookSim's
//     VC per phase (ugalLPhase). Its phase ends on reaching the
//     intermediate group, as Valiant's does: BookSim's goes on to the
//     intermediate router, whose extra local hop there would make the
//     classes cyclic (BookSim's VC 0 is: a local channel is the first hop
//     of some packets and the last of phase one of others). No three
//     classes take that hop acyclically: a nonminimal path then has four
//     local hops (source group, to the intermediate router, to the
//     intermediate group's gateway, destination group), any local channel
//     may be any of them, and two on one class close a cycle through the
//     others. Where the lanes number four or more UGAL-L takes it, in a
//     class of its own (ugalLPhase).
//   - flattened butterfly and HyperX (dor, min, valiant, ugal): dimension
//     order; minimal adaptive (any unresolved dimension, the emptiest
//     port, the class the number of hops taken); Valiant through a random
//     router in dimension order each phase (2 classes), phase two from the
//     intermediate or the destination's router, whichever comes first;
//     UGAL is BookSim's ugal_flatfly: an intermediate random in the
//     dimensions source and destination differ in, taken if minimal's
//     used credits × hops exceed the detour's plus 2 flits, a packet that
//     goes minimally in class 1, as BookSim's second half of the VCs.
//
// Adaptive choices are made at the source router, when the head is there,
// as BookSim's routing functions make them; UGAL-L and the flattened
// butterfly's UGAL read BookSim's used credits (sim.used: the flits sent
// on a wire into a router whose credits have not come back).

// swAlg is a routing by rule on a switched graph.
type swAlg uint8

const (
	swNCA swAlg = iota
	swNCAAdaptive
	swNCARandom
	swMin
	swDOR
	swValiant
	swUGALL
	swUGALG
	swPAR
)

// ugalThreshold is added to the nonminimal side of UGAL-G's comparison
// (queue × hops, in packets): ties go minimal.
const ugalThreshold = 0

// BookSim's UGAL compares used credits (flits) at the source router: its
// dragonfly's ugal_dragonflynew goes minimally while min ≤ 2·nonmin + 30
// (adaptive_threshold), its flattened butterfly's ugal_flatfly while
// min·hops ≤ nonmin·hops + 2.
const (
	dfUGALThreshold = 30
	ffUGALThreshold = 2
)

// switchedRoute is the shape a switched routing works from.
type switchedRoute struct {
	alg  swAlg
	kind topo.Kind
	S    int32 // switches (processor rank r is node S+r)
	// fat tree / XGFT, by level (0: processors): first node index, radices
	// m (children) and w (parents) 0-based, and their prefix products.
	h        int32
	first    []int32
	m, w     []int32
	pm, pw   []int32 // pm[i] = m[0]·…·m[i-1], likewise pw
	levelEnd []int32
	// The hop's figures worked out once, so that a hop divides by none
	// of the radices (a division takes tens of cycles; a fat tree's hop
	// took four, a dragonfly's six): each switch's level and subtree
	// (ftSw), each level's figures with dividers (ftLv), and the
	// processors' up ports (byW0).
	ftSw []ftSwitch
	ftLv []ftLevel
	byW0 divider
	// dragonfly: p, a, h, g and gates[G·g+G2], the first global link of
	// group G leading to group G2 (the router it leaves from and its
	// adjacency index there).
	p, a, dh, g int32
	gates       []dfGate
	byA         divider // router → group
	// flattened butterfly / HyperX: concentration, sides, strides, and
	// the adjacency index of each dimension's first port; key[v] router
	// v's coordinates packed, dimension d's in the bits of mask[d] from
	// bit shift[d] up (lower dimensions in lower bits; the widths add up
	// to at most 54, two bits for each of the ≤ 2²⁷ routers' factor of
	// two), and dimOf[b] the dimension of bit b: the dimensions two
	// routers differ in are the fields where their keys do.
	c       int32
	sides   []int32
	strides []int32
	port0   []int32
	key     []uint64
	mask    []uint64
	shift   []uint8
	dimOf   [64]int8
	// ports[v·radix + j] is router v's port j, where every router has
	// radix ports (setPorts; nil otherwise).
	ports []swPort
	radix int32
	links checkLinks // for route --check (switchedNext)
}

// ftSwitch is a fat-tree switch's level and the rank of the first
// processor of its subtree, which holds ftLevel.span processors from it.
type ftSwitch struct{ level, sub int32 }

// ftLevel is what a hop from a switch of one level (i ≥ 1) reads: its
// subtree's processors (pm[i]), its first up port (m[i-1]) and dividers
// by pm[i-1] (the down port of a processor below), pw[i] and w[i] (the
// D-mod-k up port ⌊t / pw[i]⌋ mod w[i]).
type ftLevel struct {
	span, upLo int32
	down, up   divider
	ups        divider
}

// dfGate is the router of a group whose global link leads to another
// group, and that link's adjacency index there.
type dfGate struct{ at, port int32 }

// setSwitched sets a routing by rule on a switched graph; it reports
// false when name is not one of them (or not for this family).
func (n *network) setSwitched(given, name string) (bool, error) {
	kind := n.core.Kind
	var alg swAlg
	needs := map[string]string{
		"nca": "a fat tree or XGFT", "nca-adaptive": "a fat tree or XGFT", "nca-random": "a fat tree or XGFT",
		"min": "a dragonfly, flattened butterfly or HyperX", "ugal-l": "a dragonfly", "ugal-g": "a dragonfly", "par": "a dragonfly",
		"ugal": "a flattened butterfly or HyperX",
	}
	var fam []string
	switch kind {
	case topo.FatTree, topo.XGFT:
		fam = []string{"nca", "nca-adaptive", "nca-random"}
		needs["dor"] = "a mesh, torus, hypercube, flattened butterfly or HyperX"
	case topo.Dragonfly:
		fam = []string{"min", "valiant", "ugal-l", "ugal-g", "par"}
		needs["dor"] = "a mesh, torus, hypercube, flattened butterfly or HyperX"
	case topo.FlatFly, topo.HyperX:
		fam = []string{"dor", "min", "valiant", "ugal"}
	}
	if !slices.Contains(fam, name) {
		if need, ok := needs[name]; ok {
			return true, n.notRegular(given, name, need)
		}
		return false, nil
	}
	switch name {
	case "nca":
		alg = swNCA
	case "nca-adaptive":
		alg = swNCAAdaptive
	case "nca-random":
		alg = swNCARandom
	case "min":
		alg = swMin
	case "dor":
		alg = swDOR
	case "valiant":
		alg = swValiant
	case "ugal-l", "ugal":
		alg = swUGALL
	case "ugal-g":
		alg = swUGALG
	case "par":
		alg = swPAR
	}
	r := &switchedRoute{alg: alg, kind: kind, S: int32(n.core.Nodes)}
	d := n.core.Dims
	need := int32(1)
	switch kind {
	case topo.FatTree, topo.XGFT:
		h := d[1]
		m, w := make([]int32, 0, h), make([]int32, 0, h)
		if kind == topo.FatTree {
			for j := range h {
				m = append(m, int32(d[0]))
				w = append(w, int32(min(j, 1)*d[0]+(1-min(j, 1))))
			}
		} else {
			h = d[0]
			for j := range h {
				m = append(m, int32(d[1+j]))
				w = append(w, int32(d[1+h+j]))
			}
		}
		r.h, r.m, r.w = int32(h), m, w
		r.pm, r.pw = make([]int32, h+1), make([]int32, h+1)
		r.pm[0], r.pw[0] = 1, 1
		for j := range h {
			r.pm[j+1], r.pw[j+1] = r.pm[j]*m[j], r.pw[j]*w[j]
		}
		// Level i holds pw[i]·(m[i]·…·m[h-1]) nodes; switches from the top.
		r.first, r.levelEnd = make([]int32, h+1), make([]int32, h+1)
		next := int32(0)
		for i := h; i >= 0; i-- {
			cnt := r.pw[i] * (r.pm[h] / r.pm[i])
			r.first[i], r.levelEnd[i] = next, next+cnt
			next += cnt
		}
		r.byW0 = newDivider(uint32(w[0]))
		r.ftLv = make([]ftLevel, h+1)
		for i := 1; i <= h; i++ {
			up := int32(1)
			if i < h {
				up = w[i]
			}
			r.ftLv[i] = ftLevel{span: r.pm[i], upLo: m[i-1], down: newDivider(uint32(r.pm[i-1])),
				up: newDivider(uint32(r.pw[i])), ups: newDivider(uint32(up))}
		}
		r.ftSw = make([]ftSwitch, r.S) // (S < the graph's links: no limit to check)
		for v := range r.S {
			i, x := r.level(v)
			r.ftSw[v] = ftSwitch{level: i, sub: x / r.pw[i] * r.pm[i]}
		}
	case topo.Dragonfly:
		r.p, r.a, r.dh, r.g = int32(d[0]), int32(d[1]), int32(d[2]), int32(d[3])
		arr := 0
		if len(d) > 4 {
			arr = d[4]
		}
		if r.g > 1 {
			used := int(r.a*r.dh) / int(r.g-1) * int(r.g-1)
			// gate[G·g+G2] is the first global port j of group G (router
			// j/h's port j mod h) leading to group G2.
			gate := make([]int32, int(r.g)*int(r.g))
			for i := range gate {
				gate[i] = -1
			}
			for G := range int(r.g) {
				for j := used - 1; j >= 0; j-- {
					G2, _ := topo.DragonflyGlobal(arr, int(r.g), G, j)
					gate[G*int(r.g)+G2] = int32(j)
				}
			}
			r.gates = make([]dfGate, len(gate))
			for i, j := range gate {
				G := int32(i) / r.g
				r.gates[i] = dfGate{at: G*r.a + j/r.dh, port: r.p + r.a - 1 + j%r.dh}
			}
		}
		r.byA = newDivider(uint32(r.a))
		need = 2
		if alg != swMin || n.lanes == 3 {
			// With three lanes, one per routing phase as BookSim's
			// dragonflynew has its VCs, minimal routing takes the first
			// two (min_dragonflynew: VC 0 up to the global link, 1 from
			// it on; VC 2 idle), one lane a class, as BookSim's one VC.
			need = 3
		}
		if alg == swUGALL && n.lanes >= 4 {
			need = 4 // the intermediate router's hop in a class of its own (ugalLPhase)
		}
		if alg == swPAR {
			need = parClasses
		}
	case topo.FlatFly, topo.HyperX:
		var sides []int
		if kind == topo.FlatFly {
			r.c = 1
			if len(d) > 2 {
				r.c = int32(d[2])
			}
			for range d[1] {
				sides = append(sides, d[0])
			}
		} else {
			r.c, sides = int32(d[0]), d[1:]
		}
		stride, port := int32(1), r.c
		for _, k := range sides {
			r.sides = append(r.sides, int32(k))
			r.strides = append(r.strides, stride)
			r.port0 = append(r.port0, port)
			stride *= int32(k)
			port += int32(k) - 1
		}
		at := uint8(0)
		for _, k := range r.sides {
			w := uint8(bits.Len32(uint32(k - 1)))
			r.shift = append(r.shift, at)
			r.mask = append(r.mask, (1<<w-1)<<at)
			for b := at; b < at+w; b++ {
				r.dimOf[b] = int8(len(r.mask) - 1)
			}
			at += w
		}
		r.key = make([]uint64, r.S) // (S entries: fewer than the graph's links)
		for v := range r.S {
			for d, k := range r.sides {
				r.key[v] |= uint64(v/r.strides[d]%k) << r.shift[d]
			}
		}
		switch alg {
		case swMin:
			need = int32(len(sides))
		case swValiant, swUGALL:
			need = 2
		}
	}
	n.rk, n.swr = rSwitched, r
	if kind != topo.FatTree && kind != topo.XGFT {
		n.setPorts()
	}
	// Without lanes enough for its classes a routing uses all lanes alike
	// (route --check then shows the cycles the classes would break).
	n.classes = 1
	if need <= 4 && n.lanes >= need {
		n.classes = need
	}
	for c := range n.classes + 1 {
		n.classLo[c] = c * n.lanes / n.classes
	}
	return true, nil
}

// level is the fat-tree level of node v and its label there.
func (r *switchedRoute) level(v int32) (int32, int32) {
	for i := int32(0); i <= r.h; i++ {
		if v >= r.first[i] && v < r.levelEnd[i] {
			return i, v - r.first[i]
		}
	}
	return -1, -1
}

// ejectPort is the adjacency index of the port from router at to
// processor dst (k = 1; k = 0 when dst does not hang off at).
func (n *network) ejectPort(at, dst int32) (int32, int) {
	for j, a := range n.g.Adj(at) {
		if a.Node == dst {
			return int32(j), 1
		}
	}
	return 0, 0
}

// switchedCandidates appends the hops the routing may take from at toward
// p's target (for the sim) or toward dst (target = dst). Deterministic
// routings give one hop; adaptive ones every hop they choose among.
func (n *network) switchedCandidates(at, target, dst int32, alg swAlg, buf []topo.Adj) []topo.Adj {
	buf = buf[:0]
	g, r := n.g, n.swr
	if r.ffMinimal(at, target, dst, alg) {
		// The flattened butterfly's minimal hops, one along each
		// dimension still to go (listed in one pass: most are one).
		to := g.Attached(target)
		if to == at {
			if j, k := n.ejectPort(at, target); k > 0 {
				buf = append(buf, g.Adj(at)[j])
			}
			return buf
		}
		adj := g.Adj(at)
		ka, kb := r.key[at], r.key[to]
		for x := ka ^ kb; x != 0; {
			d := r.dimOf[bits.TrailingZeros64(x)]
			x &^= r.mask[d]
			buf = append(buf, adj[r.ffPort(d, ka, kb)])
		}
		return buf
	}
	switch a, k := n.switchedOne(at, target, dst, alg); k {
	case 0:
		return buf
	case 1:
		return append(buf, a)
	}
	// Several: an adaptive fat tree's up ports.
	adj := g.Adj(at)
	if at >= r.S {
		return append(buf, adj[:r.w[0]]...)
	}
	sw := r.ftSw[at]
	lo := r.ftLv[sw.level].upLo
	return append(buf, adj[lo:lo+r.w[sw.level]]...)
}

// ffMinimal tells whether the hop from at is the flattened butterfly's
// (or HyperX's) minimal adaptive choice (switchedCandidates lists it).
func (r *switchedRoute) ffMinimal(at, target, dst int32, alg swAlg) bool {
	return alg == swMin && target == dst && at < r.S && (r.kind == topo.FlatFly || r.kind == topo.HyperX)
}

// switchedOne is the hop from at toward p's target (or dst, as
// switchedCandidates) when the routing has one there (k = 1); k = 0 when
// it has none, 2 when it chooses among several (switchedCandidates lists
// them). A hop's common case, without a list; not the flattened
// butterfly's minimal adaptive choice (ffMinimal).
func (n *network) switchedOne(at, target, dst int32, alg swAlg) (topo.Adj, int) {
	j, k := n.switchedPort(at, target, dst, alg)
	if k != 1 {
		return topo.Adj{}, k
	}
	return n.g.Adj(at)[j], 1
}

// switchedPort is switchedOne's hop as the adjacency index of its port.
func (n *network) switchedPort(at, target, dst int32, alg swAlg) (j int32, k int) {
	g, r := n.g, n.swr
	adaptive := alg == swNCAAdaptive || alg == swNCARandom
	if at >= r.S { // a processor: its first port
		if r.kind == topo.FatTree || r.kind == topo.XGFT {
			if adaptive && r.w[0] > 1 {
				return 0, 2
			}
			return int32(r.byW0.mod(uint32(dst - r.S))), 1
		}
		return 0, 1
	}
	switch r.kind {
	case topo.FatTree, topo.XGFT:
		t := dst - r.S
		sw := r.ftSw[at]
		lv := &r.ftLv[sw.level]
		if u := uint32(t - sw.sub); u < uint32(lv.span) { // an ancestor of dst: down
			// (t's subtree below is ⌊(t - sub) / pm[i-1]⌋, as sub is a
			// multiple of pm[i] = pm[i-1]·m[i-1])
			return int32(lv.down.div(u)), 1
		}
		if adaptive {
			if r.w[sw.level] > 1 {
				return 0, 2
			}
			return lv.upLo, 1
		}
		return lv.upLo + int32(lv.ups.mod(lv.up.div(uint32(t)))), 1
	case topo.Dragonfly:
		to := target
		if target >= r.S {
			to = g.Attached(target)
		}
		if to == at {
			return n.ejectPort(at, target)
		}
		return r.dfNext(at, to), 1
	}
	// Flattened butterfly / HyperX.
	to := target
	if target >= r.S {
		to = g.Attached(target)
	}
	if to == at {
		return n.ejectPort(at, target)
	}
	ka, kb := r.key[at], r.key[to]
	if x := ka ^ kb; x != 0 { // (≠ 0: to ≠ at)
		return r.ffPort(r.dimOf[bits.TrailingZeros64(x)], ka, kb), 1 // dimension order
	}
	return 0, 0
}

// swPort is a router's port as a hop reads it: the node it leads to, its
// link, the wire leaving by it and the link's dimension.
type swPort struct{ node, link, wire, dim int32 }

// setPorts keeps every router's ports (switchedRoute.ports) where the
// routers have as many each: a hop reads its port there, in one line,
// rather than the adjacency (two offsets and an entry) and the link (its
// ends and dimension), which on the dragonfly's UGAL-L curve took 40
// instructions a hop.
func (n *network) setPorts() {
	r, g := n.swr, n.g
	if r.S == 0 {
		return
	}
	R := int32(g.Degree(0))
	for v := range r.S {
		if int32(g.Degree(v)) != R {
			return
		}
	}
	// The routers' adjacency entries, about as many bytes as the graph's
	// links: a table that would take more than a sixteenth of the memory
	// limit is not kept (a hop then reads the graph).
	if limits.Mul(int64(r.S), int64(R), int64(unsafe.Sizeof(swPort{}))) > limits.Or(n.maxMemory)/16 {
		return
	}
	r.radix, r.ports = R, make([]swPort, int(r.S)*int(R))
	for v := range r.S {
		for j, a := range g.Adj(v) {
			r.ports[v*R+int32(j)] = swPort{node: a.Node, link: a.Link, wire: n.wire(a.Link, v), dim: n.dim(a.Link)}
		}
	}
}

// portHop is the hop from node at by its port j: the adjacency entry, the
// wire and the link's dimension.
func (n *network) portHop(at, j int32) (topo.Adj, int32, int32) {
	if r := n.swr; at < r.S && r.ports != nil {
		pt := &r.ports[at*r.radix+j]
		return topo.Adj{Node: pt.node, Link: pt.link}, pt.wire, pt.dim
	}
	a := n.g.Adj(at)[j]
	return a, n.wire(a.Link, at), n.dim(a.Link)
}

// ffCoord is the coordinate along dimension d of the router of key k.
func (r *switchedRoute) ffCoord(k uint64, d int8) int32 {
	return int32(k & r.mask[d] >> r.shift[d])
}

// ffHops is the number of router hops from router u to router v,
// minimally: one a dimension they differ in.
func (r *switchedRoute) ffHops(u, v int32) (h int32) {
	for x := r.key[u] ^ r.key[v]; x != 0; h++ {
		x &^= r.mask[r.dimOf[bits.TrailingZeros64(x)]]
	}
	return h
}

// ffPort is the adjacency index of the port along dimension d from the
// router of key ka to that of key kb (whose coordinates differ there).
func (r *switchedRoute) ffPort(d int8, ka, kb uint64) int32 {
	a, b := r.ffCoord(ka, d), r.ffCoord(kb, d)
	if b > a {
		b--
	}
	return r.port0[d] + b
}

// dfNext is the adjacency index of the minimal hop from router at toward
// router to (≠ at): local to the router of at's group with a global link
// to to's group, that link, or local to `to` in its group.
func (r *switchedRoute) dfNext(at, to int32) int32 {
	G, G2 := r.group(at), r.group(to)
	dest := to
	if G != G2 {
		gw := r.gates[G*r.g+G2]
		if gw.at == at {
			return gw.port
		}
		dest = gw.at
	}
	base := G * r.a
	q, x := at-base, dest-base
	if x > q {
		x--
	}
	return r.p + x
}

// group is the dragonfly group of router v.
func (r *switchedRoute) group(v int32) int32 { return int32(r.byA.div(uint32(v))) }

// dfHops is the number of router hops from router at to router to,
// minimally: local, global, local, each where needed.
func (n *network) dfHops(at, to int32) int32 {
	r := n.swr
	hops := int32(0)
	for at != to {
		a := n.g.Adj(at)[r.dfNext(at, to)]
		at = a.Node
		hops++
	}
	return hops
}

// occupancy is how many packets hold or wait for the lanes of wire w.
func (s *sim) occupancy(w int32) int32 {
	q := int32(0)
	for c := w * s.net.lanes; c < (w+1)*s.net.lanes; c++ {
		ln := s.wl.laneOn(w, c) // (s.lane and queued find w again)
		if ln.head >= 0 {
			q += s.laneQ[c].n
		}
		if !ln.free(s.now) {
			q++
		}
	}
	return q
}

// readsCredits tells whether the routing reads BookSim's used credits.
func (r *switchedRoute) readsCredits() bool {
	return r.alg == swPAR || r.alg == swUGALL && (r.kind == topo.Dragonfly || r.kind == topo.FlatFly || r.kind == topo.HyperX)
}

// switchedHop makes the routing decision of a switched routing for packet
// p at its node: the phase (Valiant's intermediate, UGAL's choice at the
// source), the lane class, and the hop, with the wire it leaves by and
// its link's dimension.
func (s *sim) switchedHop(p *packet) (a topo.Adj, w, d int32, ok bool) {
	n := s.net
	r := n.swr
	switch r.kind {
	case topo.Dragonfly:
		switch {
		case r.alg == swUGALL:
			s.ugalLPhase(p)
		case p.lastDim == 2:
			p.class++
		}
		if r.alg == swPAR {
			s.parChoose(p) // route_par.go
		} else if p.nhops == 1 && !p.ack && r.alg != swMin && r.alg != swUGALL && r.g > 2 {
			s.dfChoose(p)
		}
		if p.target != p.dst && r.group(p.at) == r.group(p.target) && (r.alg != swUGALL || n.classes != 4) {
			p.target = p.dst // (UGAL-L on four lanes: ugalLPhase)
		}
	case topo.FlatFly, topo.HyperX:
		if r.alg == swMin && p.lastDim > 0 {
			p.class++
		}
		if p.nhops == 1 && !p.ack && (r.alg == swValiant || r.alg == swUGALL) {
			s.ffChoose(p)
		}
		if p.target != p.dst && (p.at == p.target || p.at == n.g.Attached(p.dst)) {
			p.target, p.class = p.dst, 1
		}
	}
	if !r.ffMinimal(p.at, p.target, p.dst, r.alg) {
		switch j, k := n.switchedPort(p.at, p.target, p.dst, r.alg); k {
		case 0:
			return a, 0, 0, false
		case 1:
			a, w, d = n.portHop(p.at, j)
			if d == dfGlobalDim && p.class == 1 && r.alg == swUGALL && r.kind == topo.Dragonfly && n.classes == 3 {
				p.class = 2 // (ugalLPhase) the minimal phase's global link on
			}
			return a, w, d, true
		}
	}
	s.cand = n.switchedCandidates(p.at, p.target, p.dst, r.alg, s.cand)
	ci := 0
	switch {
	case len(s.cand) == 0:
		return a, 0, 0, false
	case len(s.cand) == 1:
	case r.alg == swNCARandom:
		ci = s.rng.Intn(len(s.cand))
	default:
		ci = s.choose(p)
	}
	a = s.cand[ci]
	return a, n.wire(a.Link, p.at), n.dim(a.Link), true
}

// dfGlobalDim is the dimension of a dragonfly's global links (its local
// ones are 1, a terminal's 0: topo's gen_switched.go).
const dfGlobalDim = 2

// ugalLPhase sets UGAL-L's routing phase and lane class for packet p at
// its router, as BookSim's ugal_dragonflynew gives each phase its own VC
// (dragonfly.cpp:503–559): class 0 toward the intermediate (the
// nonminimal phase, chosen at the source router: dfChoose), 1 minimally
// toward the destination up to the global link (a packet UGAL-L sends
// minimally, from the source router; one nonminimal, from the
// intermediate group on), 2 from that global link on (switchedHop), and 2
// for a destination in the source's group. A minimal packet and the
// nonminimal ones' first phase so travel on different lanes of a local
// channel and of the global link, where class = global links taken (as
// Valiant's and UGAL-G's) put them on one. The phase ends on reaching the
// intermediate group (switchedHop), not, as BookSim's, at the intermediate
// router: see the package comment. Acyclic: class 0 is a local hop then a
// global one, class 1 a local hop then (class 2) a global one, class 2 a
// global hop then a local one into the destination's router.
//
// With four lanes or more UGAL-L takes BookSim's path: the first phase goes
// on from the intermediate group to the intermediate router
// (dragonfly.cpp:535–540), that local hop in a class of its own, so the
// classes are 0 toward the intermediate group, 1 in it toward the
// intermediate router, 2 minimally up to and over the global link, 3 from
// it on (and within the source's group): acyclic as the three are, class 1
// a local hop into class 2.
func (s *sim) ugalLPhase(p *packet) {
	r := s.net.swr
	four := s.net.classes == 4
	if p.nhops != 1 {
		switch {
		case p.target == p.dst:
			if four && p.lastDim == dfGlobalDim && p.class == 2 {
				p.class = 3
			}
		case !four && r.group(p.at) == r.group(p.target):
			p.class = 1 // the intermediate group reached
		case !four:
		case p.at == p.target:
			p.target, p.class = p.dst, 2 // the intermediate router reached
		case r.group(p.at) == r.group(p.target):
			p.class = 1 // the intermediate group reached
		}
		return
	}
	minimal, local := int32(1), int32(2) // the minimal phase's class, and a destination's in the source's group
	if four {
		minimal, local = 2, 3
	}
	if r.group(p.at) == r.group(s.net.g.Attached(p.dst)) {
		p.class = local
		return
	}
	if !p.ack && r.g > 2 {
		s.dfChoose(p)
	}
	p.class = minimal
	if p.target != p.dst {
		p.class = 0
	}
}

// ugalLDetour is UGAL-L's choice at router at for a packet bound for router
// dst in another group, as BookSim's ugal_dragonflynew makes it: a random
// terminal's router as the intermediate (one in at's group: minimal), taken
// (ok) if the used credits of the minimal output exceed twice those toward
// it plus dfUGALThreshold. lessInFlight counts a channel's queue as its
// used credits less the flits its wire carries one way (PAR's estimate:
// route_par.go).
func (s *sim) ugalLDetour(at, dst int32, lessInFlight bool) (mid int32, ok bool) {
	r := s.net.swr
	mid = int32(s.rng.Intn(int(r.S)))
	if r.group(mid) == r.group(at) {
		return mid, false
	}
	qMin := s.ugalQueue(at, r.dfNext(at, dst), lessInFlight)
	qNon := max(0, s.ugalQueue(at, r.dfNext(at, mid), lessInFlight))
	return mid, qMin > 2*qNon+dfUGALThreshold
}

// ugalQueue is the queue UGAL-L reads on port j of router at: its wire's
// used credits, less with lessInFlight the flits the wire carries one way
// at full rate (raw used credits count a long global wire's flits in
// flight as queue).
func (s *sim) ugalQueue(at, j int32, lessInFlight bool) int32 {
	n := s.net
	a, w, _ := n.portHop(at, j)
	q := s.usedOf(w)
	if lessInFlight {
		lp := n.linkP(a.Link)
		q -= int32(lp.Latency * lp.Bandwidth / float64(n.flitSize))
	}
	return q
}

// dfChoose picks a Valiant intermediate group for p at its source (other
// than the source's and the destination's groups) and, for UGAL, keeps it
// only if queue × hops says the nonminimal path is the better.
func (s *sim) dfChoose(p *packet) {
	r := s.net.swr
	src, dst := p.at, s.net.g.Attached(p.dst)
	Gs, Gd := r.group(src), r.group(dst)
	if Gs == Gd {
		return
	}
	if r.alg == swUGALL {
		if mid, ok := s.ugalLDetour(src, dst, false); ok {
			p.target = mid
		}
		return
	}
	I := int32(s.rng.Intn(int(r.g) - 2))
	if I >= min(Gs, Gd) {
		I++
	}
	if I >= max(Gs, Gd) {
		I++
	}
	mid := I*r.a + int32(s.rng.Intn(int(r.a)))
	if r.alg == swValiant {
		p.target = mid
		return
	}
	minHops := s.net.dfHops(src, dst)
	nonHops := s.net.dfHops(src, mid) + s.net.dfHops(mid, dst)
	qMin, qNon := s.dfGlobalQueue(Gs, Gd), s.dfGlobalQueue(Gs, I)
	if qMin*minHops > qNon*nonHops+ugalThreshold {
		p.target = mid
	}
}

// dfGlobalQueue is the occupancy of group G's global link toward group G2
// (the one minimal routing takes), wherever in G it leaves: UGAL-G's
// global view of the queues.
func (s *sim) dfGlobalQueue(G, G2 int32) int32 {
	r := s.net.swr
	gw := r.gates[G*r.g+G2]
	a := s.net.g.Adj(gw.at)[gw.port]
	return s.occupancy(s.net.wire(a.Link, gw.at))
}

// ffChoose picks a random intermediate router for p at its source and,
// for UGAL, keeps it only if queue × hops says the detour is the better.
func (s *sim) ffChoose(p *packet) {
	r := s.net.swr
	src, dst := p.at, s.net.g.Attached(p.dst)
	if r.alg == swValiant {
		p.target = int32(s.rng.Intn(int(r.S)))
		return
	}
	if src == dst {
		return
	}
	// BookSim's find_ran_intm: random along the dimensions source and
	// destination differ in, the source's coordinate along the others.
	mid, ks := src, r.key[src]
	for x := ks ^ r.key[dst]; x != 0; {
		d := r.dimOf[bits.TrailingZeros64(x)]
		x &^= r.mask[d]
		mid += (int32(s.rng.Intn(int(r.sides[d]))) - r.ffCoord(ks, d)) * r.strides[d]
	}
	if mid != src && mid != dst && s.ffFirstUsed(src, dst)*r.ffHops(src, dst) > s.ffFirstUsed(src, mid)*(r.ffHops(src, mid)+r.ffHops(mid, dst))+ffUGALThreshold {
		p.target = mid
		return
	}
	p.class = 1 // minimally, in BookSim's second half of the VCs
}

// ffFirstUsed is the used credits of the port dimension order takes from
// router src toward router to (≠ src).
func (s *sim) ffFirstUsed(src, to int32) int32 {
	r := s.net.swr
	ks, kt := r.key[src], r.key[to]
	x := ks ^ kt
	if x == 0 {
		return 0
	}
	_, w, _ := s.net.portHop(src, r.ffPort(r.dimOf[bits.TrailingZeros64(x)], ks, kt))
	return s.usedOf(w)
}

// switchedNext is route --check's view of a switched routing: from node at
// toward dst, having arrived on lane in, every lane the routing may
// request, whatever intermediate or adaptive choice it makes (a superset
// of what one packet may do, so acyclic means deadlock-free).
func (n *network) switchedNext(buf []int, _, dst, at, in int) []int {
	r, g, V := n.swr, n.g, n.lanes
	lk := r.packedLinks(g)
	cl, dimIn := int32(0), int32(-1)
	if in >= 0 {
		k := int32(in) % V
		for c := range n.classes {
			if n.classLo[c] <= k && k < n.classLo[c+1] {
				cl = c
			}
		}
		dimIn = lk.dim[int32(in)/V/2]
	}
	add := func(a topo.Adj, c int32) {
		c = min(c, n.classes-1)
		w := 2 * a.Link // n.wire, from the packed figures
		if e := lk.a[a.Link]; e >= 0 && e != int32(at) {
			w++
		}
		for ch := w*V + n.classLo[c]; ch < w*V+n.classLo[c+1]; ch++ {
			buf = append(buf, int(ch))
		}
	}
	v, d := int32(at), int32(dst)
	var cand []topo.Adj
	var tmp [16]topo.Adj // the candidates, on the stack
	switch r.kind {
	case topo.FatTree, topo.XGFT:
		for _, a := range n.switchedCandidates(v, d, d, r.alg, tmp[:0]) {
			add(a, 0)
		}
		return buf
	case topo.Dragonfly:
		if r.alg == swUGALL && n.classes > 1 {
			n.ugalLNext(v, d, dimIn, cl, lk, add)
			return buf
		}
		if dimIn == 2 && n.classes > 1 {
			cl++
		}
		for _, a := range n.switchedCandidates(v, d, d, r.alg, tmp[:0]) {
			// A local hop never follows a local hop: a packet that came
			// by one is at the router whose global link it takes.
			if dimIn != 1 || lk.dim[a.Link] != 1 {
				add(a, cl)
			}
		}
		if r.alg != swMin && v < r.S && cl == 0 && v/r.a != g.Attached(d)/r.a {
			// Phase one toward any other group: a local hop from the
			// source router, then the global link.
			adj := g.Adj(v)
			lo := r.p + r.a - 1
			if dimIn == 0 {
				lo = r.p
			}
			for _, a := range adj[lo:] {
				add(a, 0)
			}
		}
		if r.alg == swPAR {
			n.parNext(v, d, dimIn, cl, add)
		}
		return buf
	}
	// Flattened butterfly / HyperX.
	switch r.alg {
	case swDOR:
		cand = n.switchedCandidates(v, d, d, r.alg, tmp[:0])
	case swMin:
		if dimIn > 0 {
			cl++
		}
		cand = n.switchedCandidates(v, d, d, r.alg, tmp[:0])
		for _, a := range cand {
			add(a, cl)
		}
		return buf
	default:
		// Phase two (class 1) in dimension order toward dst, from here or
		// from any intermediate; phase one (class 0) along any dimension
		// after the one it came by.
		for _, a := range n.switchedCandidates(v, d, d, swDOR, tmp[:0]) {
			add(a, 1)
		}
		if cl == 0 && v < r.S {
			adj := g.Adj(v)
			lo := r.c
			if dimIn > 0 {
				lo = r.port0[dimIn-1] + r.sides[dimIn-1] - 1
			}
			for _, a := range adj[lo:] {
				add(a, 0)
			}
		}
		return buf
	}
	for _, a := range cand {
		add(a, cl)
	}
	return buf
}

// ugalLNext is switchedNext for UGAL-L on a dragonfly with its lane
// classes (ugalLPhase; three, or four with the intermediate router's hop):
// at router v toward processor dst, having come by a link of dimension
// dimIn (-1 at the source processor) on a lane of class cl, the minimal hop
// in the class its phase gives it and, in the first phase, the nonminimal
// hops in theirs (any local hop from the source router, then any global
// link in class 0; on four lanes any local hop in the intermediate group
// in class 1).
func (n *network) ugalLNext(v, dst, dimIn, cl int32, lk *checkLinks, add func(topo.Adj, int32)) {
	r, g := n.swr, n.g
	four := n.classes == 4
	minimal, after := int32(1), int32(2) // the minimal phase's class before its global link, and from it on
	if four {
		minimal, after = 2, 3
	}
	var tmp [16]topo.Adj
	src := v < r.S && dimIn == 0 // the source router
	away := v < r.S && v/r.a != g.Attached(dst)/r.a
	for _, a := range n.switchedCandidates(v, dst, dst, r.alg, tmp[:0]) {
		dim := lk.dim[a.Link]
		if dimIn == 1 && dim == 1 && !(four && cl == 1) {
			// A local hop never follows a local hop (a packet that came
			// by one is at the router whose global link it takes), but
			// at the intermediate router.
			continue
		}
		c := cl
		switch {
		case src && away:
			c = minimal
		case src:
			c = after
		case dimIn == 2 && cl == 0, four && cl == 1:
			c = minimal // the intermediate group, or router, reached
		case four && dimIn == 2 && cl == 2:
			c = after
		}
		if !four && dim == dfGlobalDim && c == 1 {
			c = 2
		}
		add(a, c)
	}
	if away && (src || dimIn == 1 && cl == 0) {
		// The first phase: from the source router any local hop or
		// global link, from a local hop any global link.
		lo := r.p + r.a - 1
		if src {
			lo = r.p
		}
		for _, a := range g.Adj(v)[lo:] {
			add(a, 0)
		}
	}
	if four && dimIn == 2 && cl == 0 {
		// In the intermediate group: toward any intermediate router.
		for _, a := range g.Adj(v)[r.p : r.p+r.a-1] {
			add(a, 1)
		}
	}
}

// checkLinks are the figures of the graph's links route --check's view
// of a switched routing reads at every state, packed (a topo.Link takes
// 20 bytes, and the links of a large network are read out of cache): a
// link's first end (-1 for a multi-point link, whose wire is always the
// first) and its dimension. Built at the first check (checkLinkBytes a
// link), never for a simulation.
type checkLinks struct {
	once   sync.Once
	a, dim []int32
}

// checkLinkBytes is what checkLinks keeps a link.
const checkLinkBytes = 8

// packedLinks returns g's packed link figures, building them once.
func (r *switchedRoute) packedLinks(g *topo.Graph) *checkLinks {
	lk := &r.links
	lk.once.Do(func() {
		lk.a, lk.dim = make([]int32, g.NumLinks()), make([]int32, g.NumLinks())
		for l := range int32(g.NumLinks()) {
			k := g.Link(l)
			lk.a[l], lk.dim[l] = k.A, k.Dim
			if k.Multi {
				lk.a[l] = -1
			}
		}
	})
	return lk
}
