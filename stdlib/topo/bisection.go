package topo

import "slices"

// The bisection width is the fewest links cut by a balanced split of the
// processors: the nodes are split into two sides holding ⌊P/2⌋ and ⌈P/2⌉
// of the P processors (switches may go to either side), and a link is cut
// when its members are not all on one side. Finding it is NP-hard in
// general, so it is computed three ways, and Metrics says which gave it:
//
//   - by rule for the regular kinds where the answer is known (below, and
//     checked against the exhaustive search on small sizes by the tests);
//   - exhaustively for small graphs, by branch and bound over balanced
//     splits (exhaustiveBisection), within a work bound;
//   - otherwise as the best of several balanced splits (splitBound): an
//     upper bound, exact only when it is 0, or 1 on connected processors.

// Bounds of the exhaustive search: graphs of at most this many nodes, and
// at most this many search steps (about a tenth of a second).
const (
	exhaustiveMaxNodes = 64
	exhaustiveMaxSteps = 4_000_000
)

// bisection returns the bisection width and whether it is exact (else it
// is an upper bound).
func (g *Graph) bisection() (int, bool) {
	if g.NumProcs() < 2 {
		return 0, true
	}
	if w, ok := g.ruleBisection(); ok {
		return w, true
	}
	best := g.splitBound()
	if best == 0 || best == 1 && g.procsConnected() {
		return best, true
	}
	if w, ok := g.exhaustiveBisection(best, exhaustiveMaxSteps); ok {
		return w, true
	}
	return best, false
}

// ruleBisection is the width of the regular kinds whose answer is known:
// a hypercube of n nodes n/2; a complete graph ⌊n/2⌋·⌈n/2⌉; a chain 1 and
// a ring 2; a mesh or torus whose longest side k is even, the straight cut
// across that side: n/k links, twice that on a torus (k > 2); a complete
// binary tree 1 (the root's left subtree holds ⌊n/2⌋ nodes). A grid whose
// longest side is odd is cut in a staircase, which the rule does not cover.
func (g *Graph) ruleBisection() (int, bool) {
	n := g.N()
	switch g.kind {
	case Hypercube:
		return n / 2, true
	case Full:
		return (n / 2) * ((n + 1) / 2), true
	case FatTree:
		// A k-ary n-tree is rearrangeable: any ⌊P/2⌋ processors reach
		// the others by link-disjoint paths, and cutting their own links
		// achieves it.
		return g.NumProcs() / 2, true
	case Tree:
		if k := g.dims[0]; k <= 2 {
			return 1, true
		}
	case Mesh, Torus:
		var sides []int
		for _, k := range g.dims {
			if k > 1 {
				sides = append(sides, k)
			}
		}
		k := slices.Max(sides)
		switch {
		case len(sides) == 1 && g.kind == Mesh, len(sides) == 1 && k == 2:
			return 1, true
		case len(sides) == 1:
			return 2, true
		case k%2 != 0:
			return 0, false
		case g.kind == Torus && k > 2:
			return 2 * n / k, true
		}
		return n / k, true
	}
	return 0, false
}

// procsConnected reports whether every processor reaches every other, so
// that every split of them cuts at least one link.
func (g *Graph) procsConnected() bool {
	dist := g.BFS(g.Proc(0))
	for r := range g.NumProcs() {
		if dist[g.Proc(r)] < 0 {
			return false
		}
	}
	return true
}

// splitBound is the smallest cut among balanced splits that take the nodes
// in some order until half the processors are taken: breadth-first orders
// from several roots and, for a graph with a regular core, the core's
// nodes ordered by each coordinate in turn (a straight cut across each
// dimension, with a staircase where the side is odd), attached processors
// following their switch.
func (g *Graph) splitBound() int {
	n := g.N()
	best := -1
	side := make([]bool, n)
	try := func(order []int32) {
		if c := g.orderCut(order, side); best < 0 || c < best {
			best = c
		}
	}
	dist := make([]int32, n)
	queue := make([]int32, 0, n)
	root := int32(0)
	for t := 0; t < 8; t++ {
		for i := range dist {
			dist[i] = -1
		}
		queue = g.bfsInto(root, dist, queue)
		reached := len(queue)
		for v := range int32(n) {
			if dist[v] < 0 {
				queue = append(queue, v)
			}
		}
		try(queue)
		// Next root: the farthest node from this one (a peripheral node
		// gives a flatter cut), then spread over the index range.
		next := queue[reached-1]
		if t%2 == 1 {
			next = int32((t + 1) * n / 9)
		}
		if next == root {
			break
		}
		root = next
	}
	if g.core > 0 && (g.ckind == Hypercube || g.ckind == Mesh || g.ckind == Torus) {
		ndims := len(g.cdims)
		if g.ckind == Hypercube {
			ndims = g.cdims[0]
		}
		for d := range ndims {
			try(g.coreOrder(d))
		}
	}
	return best
}

// coreOrder lists the core's nodes by their coordinate along dimension d,
// then by label, each followed by the processors attached to it, then any
// other nodes.
func (g *Graph) coreOrder(d int) []int32 {
	c := g.core
	coord := func(x int32) int32 {
		if g.ckind == Hypercube {
			return x >> d & 1
		}
		stride := int32(1)
		for _, k := range g.cdims[:d] {
			stride *= int32(k)
		}
		return x / stride % int32(g.cdims[d])
	}
	core := make([]int32, c)
	for i := range core {
		core[i] = int32(i)
	}
	slices.SortStableFunc(core, func(a, b int32) int { return int(coord(a) - coord(b)) })
	hang := make([][]int32, c)
	var rest []int32
	for v := c; v < int32(g.N()); v++ {
		if a := g.Attached(v); a < c && a != v {
			hang[a] = append(hang[a], v)
		} else {
			rest = append(rest, v)
		}
	}
	order := make([]int32, 0, g.N())
	for _, v := range core {
		order = append(order, v)
		order = append(order, hang[v]...)
	}
	return append(order, rest...)
}

// orderCut puts nodes on one side in the given order until it holds
// ⌊P/2⌋ processors, the rest on the other, and counts the links cut.
func (g *Graph) orderCut(order []int32, side []bool) int {
	clear(side)
	half, taken := g.NumProcs()/2, 0
	for _, v := range order {
		if taken == half {
			break
		}
		side[v] = true
		if g.NodeKind(v) == Processor {
			taken++
		}
	}
	return g.cut(side)
}

// cut counts the links whose members are not all on one side.
func (g *Graph) cut(side []bool) int {
	cut := 0
	for l := range g.links {
		ms := g.Members(int32(l))
		for _, m := range ms[1:] {
			if side[m] != side[ms[0]] {
				cut++
				break
			}
		}
	}
	return cut
}

// exhaustiveBisection finds the bisection width by branch and bound: nodes
// are assigned to side A or B one by one, in an order where each has as
// many links as possible to those before it; a partial assignment is
// abandoned when the links it already cuts, plus for every node still
// unassigned the fewer of its links to A and to B (one set or the other
// will be cut, whichever side it joins), reach the best width known. The
// first node goes to A (the sides are symmetric), and a side that holds
// ⌈P/2⌉ processors takes no more. ub is a width already achieved. ok is
// false when the graph is too large or the search took more than maxSteps.
func (g *Graph) exhaustiveBisection(ub, maxSteps int) (width int, ok bool) {
	n := g.N()
	if n > exhaustiveMaxNodes {
		return 0, false
	}
	order := g.searchOrder()
	var (
		side     = make([]int8, n) // 0 unassigned, 1 A, 2 B
		w        = make([][3]int32, n)
		procs    [3]int
		capacity = (g.NumProcs() + 1) / 2
		cut      int
		slack    int // Σ over unassigned nodes of min(w[A], w[B])
		best     = ub
		steps    int
		multiOf  = make([][]int32, n)
		members  = map[int32]*[3]int32{}
	)
	for l := range g.links {
		if g.links[l].Multi {
			members[int32(l)] = &[3]int32{}
			for _, v := range g.Members(int32(l)) {
				multiOf[v] = append(multiOf[v], int32(l))
			}
		}
	}
	minw := func(v int32) int { return int(min(w[v][1], w[v][2])) }
	assign := func(v int32, s int8) {
		o := 3 - s
		slack -= minw(v)
		cut += int(w[v][o])
		side[v] = s
		if g.NodeKind(v) == Processor {
			procs[s]++
		}
		for _, a := range g.Adj(v) {
			if g.links[a.Link].Multi {
				continue
			}
			u := a.Node
			if side[u] == 0 {
				before := minw(u)
				w[u][s]++
				slack += minw(u) - before
			} else {
				w[u][s]++
			}
		}
		for _, l := range multiOf[v] {
			c := members[l]
			if c[s]++; c[s] == 1 && c[o] > 0 {
				cut++
			}
		}
	}
	unassign := func(v int32) {
		s := side[v]
		o := 3 - s
		for _, l := range multiOf[v] {
			c := members[l]
			if c[s]--; c[s] == 0 && c[o] > 0 {
				cut--
			}
		}
		for _, a := range g.Adj(v) {
			if g.links[a.Link].Multi {
				continue
			}
			u := a.Node
			if side[u] == 0 {
				before := minw(u)
				w[u][s]--
				slack += minw(u) - before
			} else {
				w[u][s]--
			}
		}
		if g.NodeKind(v) == Processor {
			procs[s]--
		}
		side[v] = 0
		cut -= int(w[v][o])
		slack += minw(v)
	}
	var search func(i int) bool
	search = func(i int) bool {
		if steps++; steps > maxSteps {
			return false
		}
		if cut+slack >= best {
			return true
		}
		if i == n {
			best = cut
			return true
		}
		v := order[i]
		first := int8(1)
		if i > 0 && w[v][1] < w[v][2] { // join the side it has more links to first
			first = 2
		}
		for _, s := range [2]int8{first, 3 - first} {
			if i == 0 && s == 2 {
				break
			}
			if g.NodeKind(v) == Processor && procs[s] == capacity {
				continue
			}
			assign(v, s)
			ok := search(i + 1)
			unassign(v)
			if !ok {
				return false
			}
		}
		return true
	}
	if !search(0) {
		return 0, false
	}
	return best, true
}

// searchOrder orders the nodes for exhaustiveBisection: each next node is
// the one with the most links to the nodes already ordered (the first one
// of highest degree), so that cut links are counted early.
func (g *Graph) searchOrder() []int32 {
	n := g.N()
	conn := make([]int, n)
	placed := make([]bool, n)
	order := make([]int32, 0, n)
	for range n {
		next := int32(-1)
		for v := range int32(n) {
			if placed[v] {
				continue
			}
			if next < 0 || conn[v] > conn[next] || conn[v] == conn[next] && len(order) == 0 && g.Degree(v) > g.Degree(next) {
				next = v
			}
		}
		placed[next] = true
		order = append(order, next)
		for _, a := range g.Adj(next) {
			conn[a.Node]++
		}
	}
	return order
}
