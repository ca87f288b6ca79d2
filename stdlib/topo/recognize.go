package topo

import (
	"math/bits"
	"slices"
)

// Recognize finds the regular network in an explicit graph, so that it can
// be routed by rule (e-cube, XY, dimension order) and measured like the
// generated one: a hypercube, a mesh or a torus (a chain or a ring in one
// dimension) made of all the graph's nodes, or of all but the processors
// that hang off a single switch (a network of switches, each with its
// processors attached, such as a C104 machine).
//
// Recognition is exact: it accepts a numbering of the core only after
// checking that it is an isomorphism onto the generated graph, link by
// link — every link joins two nodes that are neighbours in the generated
// graph, and every node has as many distinct neighbours as there. Two
// numberings are tried. First the one the ids give: the core nodes in
// ascending id order are labels 0, 1, 2, … (so hypercube neighbours have
// ids that differ in one bit, up to an offset, and a mesh or torus is
// numbered x0 + k0·(x1 + k1·(…)); the sides are read off the links).
// Then, for a hypercube only, the labels that the structure forces once the
// lowest id is 0 and its neighbours in id order are 1, 2, 4, …; a hypercube
// numbered any other way is still recognised. A mesh or torus numbered
// otherwise is not. Parallel links (a multilink) are allowed; multi-point
// links (buses) are not.
//
// The result is the same network renumbered: core nodes first, node index =
// label, then the attached processors in their order; external ids,
// channels and I/O links are kept. Its links are ordered as the generator
// orders them, core links first (their Dim set to their dimension), then
// the others in their order; order[l] is the index in g of the result's
// link l. When every node is a processor of the core, the result's Kind is
// the generated kind and it is routed, measured and simulated exactly as
// the generated graph. ok is false, and g is returned, when nothing was
// recognised.
func Recognize(g *Graph) (r *Graph, order []int32, ok bool) {
	return recognizeGraph(g, false)
}

// recognizeGraph is Recognize; inPlace makes the recognised graph in g's
// storage (g itself is then the result), for a caller that made g only to
// recognise it.
func recognizeGraph(g *Graph, inPlace bool) (r *Graph, order []int32, ok bool) {
	n := g.N()
	if g.kind != Explicit || g.core != 0 || n < 2 {
		return g, nil, false
	}
	for _, l := range g.links {
		if l.Multi {
			return g, nil, false
		}
	}
	inCore := make([]bool, n)
	for i := range inCore {
		inCore[i] = true
	}
	if s, found := g.findCore(inCore); found {
		r, order = g.renumber(s, inCore, nil, inPlace)
		return r, order, true
	}
	// Processors whose links all lead to one switch hang off the core.
	attach := make([]int32, n)
	some := false
	for v := range int32(n) {
		attach[v] = v
		if g.NodeKind(v) != Processor || g.Degree(v) == 0 {
			continue
		}
		w := g.Adj(v)[0].Node
		only := g.NodeKind(w) == Switch
		for _, a := range g.Adj(v) {
			only = only && a.Node == w
		}
		if only {
			inCore[v], attach[v], some = false, w, true
		}
	}
	if !some {
		return g, nil, false
	}
	if s, found := g.findCore(inCore); found {
		r, order = g.renumber(s, inCore, attach, inPlace)
		return r, order, true
	}
	return g, nil, false
}

// shape is a regular core found in a graph: its kind and sides, and the
// label of each node (-1 outside the core) and node of each label.
type shape struct {
	kind  Kind
	dims  []int
	label []int32
	node  []int32
}

// findCore recognises the nodes marked inCore as a hypercube, mesh or
// torus (see Recognize).
func (g *Graph) findCore(inCore []bool) (shape, bool) {
	nodes := make([]int32, 0, g.N())
	for v := range int32(g.N()) {
		if inCore[v] {
			nodes = append(nodes, v)
		}
	}
	c := len(nodes)
	if c < 2 {
		return shape{}, false
	}
	slices.SortFunc(nodes, func(a, b int32) int { return g.ID(a) - g.ID(b) })
	label := make([]int32, g.N())
	for i := range label {
		label[i] = -1
	}
	for i, v := range nodes {
		label[v] = int32(i)
	}
	// Distinct neighbours in the core, counted once per node: with every
	// link a link of the generated graph, equal counts mean equal graphs.
	deg := make([]int32, g.N())
	stamp := make([]int32, g.N())
	maxDeg := int32(0)
	for _, v := range nodes {
		for _, a := range g.Adj(v) {
			if inCore[a.Node] && stamp[a.Node] != v+1 {
				stamp[a.Node] = v + 1
				deg[v]++
			}
		}
		maxDeg = max(maxDeg, deg[v])
	}
	// A link from the core to a node outside it must be an attachment.
	for l := range g.links {
		k := &g.links[l]
		if k.B >= 0 && inCore[k.A] != inCore[k.B] {
			out, in := k.A, k.B
			if inCore[k.A] {
				out, in = k.B, k.A
			}
			if g.Adj(out)[0].Node != in {
				return shape{}, false
			}
		}
	}
	d := bits.Len(uint(c)) - 1
	cube := c == 1<<d
	if cube {
		s := shape{kind: Hypercube, dims: []int{d}, label: label, node: nodes}
		if g.verify(s, inCore, deg) {
			return s, true
		}
	}
	// Every node of a mesh or torus has at most two neighbours per side,
	// and there are at most log2(c) sides longer than 1.
	if maxDeg <= int32(2*(d+1)) {
		if s, ok := g.inferGrid(label, nodes); ok && g.verify(s, inCore, deg) {
			return s, true
		}
	}
	if cube && maxDeg == int32(d) {
		if s, ok := g.cubeLabels(nodes, inCore, d); ok && g.verify(s, inCore, deg) {
			return s, true
		}
	}
	return shape{}, false
}

// adjacent reports whether a link joins nodes u and v.
func (g *Graph) adjacent(u, v int32) bool {
	for _, a := range g.Adj(u) {
		if a.Node == v {
			return true
		}
	}
	return false
}

// inferGrid reads the sides of a mesh or torus numbered x0 + k0·(x1 + …)
// off the links: along each side, labels that step by its stride are
// linked until the side ends. Sides of 1 cannot be seen and are left out
// (they change neither the graph nor its numbering).
func (g *Graph) inferGrid(label, nodes []int32) (shape, bool) {
	c := len(nodes)
	var dims, strides []int
	for stride := 1; stride < c; {
		k := 1
		for k*stride < c && g.adjacent(nodes[(k-1)*stride], nodes[k*stride]) {
			k++
		}
		if k < 2 || c%(stride*k) != 0 {
			return shape{}, false
		}
		dims, strides = append(dims, k), append(strides, stride)
		stride *= k
	}
	wrapped, open := 0, 0
	for i, k := range dims {
		if k < 3 {
			continue
		}
		if g.adjacent(nodes[0], nodes[(k-1)*strides[i]]) {
			wrapped++
		} else {
			open++
		}
	}
	switch {
	case wrapped == 0 && open == 0: // every side 2: a hypercube, tried before
		return shape{}, false
	case wrapped > 0 && open > 0: // no generator makes a partly wrapped grid
		return shape{}, false
	case wrapped > 0:
		return shape{kind: Torus, dims: dims, label: label, node: nodes}, true
	}
	return shape{kind: Mesh, dims: dims, label: label, node: nodes}, true
}

// cubeLabels labels a core that may be a d-dimensional hypercube numbered
// in any order: the node of lowest id is 0, its neighbours in id order are
// 1, 2, 4, …, and every node further out has as label the union of its
// neighbours' one step closer, as a hypercube forces. The labels are a
// candidate only; verify decides.
func (g *Graph) cubeLabels(nodes []int32, inCore []bool, d int) (shape, bool) {
	n := g.N()
	dist := make([]int32, n)
	label := make([]int32, n)
	for i := range dist {
		dist[i], label[i] = -1, -1
	}
	root := nodes[0]
	dist[root], label[root] = 0, 0
	var first []int32
	for _, a := range g.Adj(root) {
		if inCore[a.Node] && !slices.Contains(first, a.Node) {
			first = append(first, a.Node)
		}
	}
	if len(first) != d {
		return shape{}, false
	}
	slices.SortFunc(first, func(a, b int32) int { return g.ID(a) - g.ID(b) })
	queue := []int32{root}
	for i, v := range first {
		dist[v], label[v] = 1, 1<<i
		queue = append(queue, v)
	}
	for i := 1; i < len(queue); i++ {
		u := queue[i]
		for _, a := range g.Adj(u) {
			if w := a.Node; inCore[w] && dist[w] < 0 {
				dist[w], label[w] = dist[u]+1, 0
				queue = append(queue, w)
			}
		}
		if dist[u] >= 2 {
			for _, a := range g.Adj(u) {
				if inCore[a.Node] && dist[a.Node] == dist[u]-1 {
					label[u] |= label[a.Node]
				}
			}
		}
	}
	if len(queue) != len(nodes) {
		return shape{}, false
	}
	node := make([]int32, len(nodes))
	for i := range node {
		node[i] = -1
	}
	for _, v := range nodes {
		l := label[v]
		if l < 0 || int(l) >= len(node) || node[l] >= 0 {
			return shape{}, false
		}
		node[l] = v
	}
	return shape{kind: Hypercube, dims: []int{d}, label: label, node: node}, true
}

// verify checks that s is an isomorphism of the core onto the generated
// graph: every core link joins generated neighbours, and every core node
// has as many distinct core neighbours (deg) as its label has there.
func (g *Graph) verify(s shape, inCore []bool, deg []int32) bool {
	for l := range g.links {
		k := &g.links[l]
		if k.B < 0 || !inCore[k.A] || !inCore[k.B] {
			continue
		}
		if _, _, ok := s.edge(s.label[k.A], s.label[k.B]); !ok {
			return false
		}
	}
	for x, v := range s.node {
		if deg[v] != s.degree(int32(x)) {
			return false
		}
	}
	return true
}

// degree is the number of neighbours of label x in the generated graph.
func (s shape) degree(x int32) int32 {
	if s.kind == Hypercube {
		return int32(s.dims[0])
	}
	d, stride := int32(0), int32(1)
	for _, k := range s.dims {
		k32 := int32(k)
		c := x / stride % k32
		switch {
		case s.kind == Torus && k32 > 2:
			d += 2
		default:
			d += btoi(c > 0) + btoi(c < k32-1)
		}
		stride *= k32
	}
	return d
}

func btoi(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// edge tells whether labels a and b are neighbours in the generated graph,
// along which dimension, and which of them the generator puts first.
func (s shape) edge(a, b int32) (dim int, first int32, ok bool) {
	if s.kind == Hypercube {
		x := uint32(a ^ b)
		if bits.OnesCount32(x) != 1 {
			return 0, 0, false
		}
		return bits.TrailingZeros32(x), min(a, b), true
	}
	dim = -1
	stride := int32(1)
	for i, k := range s.dims {
		k32 := int32(k)
		ca, cb := a/stride%k32, b/stride%k32
		if ca != cb {
			if dim >= 0 {
				return 0, 0, false
			}
			diff := ca - cb
			if diff < 0 {
				diff = -diff
			}
			switch {
			case diff == 1:
				first = min(a, b)
			case s.kind == Torus && k32 > 2 && diff == k32-1:
				// The wrap-around link starts at the side's last node.
				first = max(a, b)
			default:
				return 0, 0, false
			}
			dim = i
		}
		stride *= k32
	}
	return dim, first, dim >= 0
}

// renumber builds the recognised graph (see Recognize); inPlace builds it
// in g, reusing g's link list, adjacency and id map.
func (g *Graph) renumber(s shape, inCore []bool, attach []int32, inPlace bool) (*Graph, []int32) {
	n := g.N()
	c := int32(len(s.node))
	newIdx := make([]int32, n)
	old := make([]int32, 0, n)
	old = append(old, s.node...)
	for v := range int32(n) {
		if inCore[v] {
			newIdx[v] = s.label[v]
		} else {
			newIdx[v] = int32(len(old))
			old = append(old, v)
		}
	}
	identity := true
	for i, v := range old {
		identity = identity && g.ID(v) == i
	}
	var ids []int
	var byID map[int]int32
	if !identity {
		ids = make([]int, n)
		for i, v := range old {
			ids[i] = g.ID(v)
		}
		// The same ids are renumbered, so g's map can take the new
		// indices in place of the old.
		byID = g.byID
		if !inPlace || byID == nil {
			byID = make(map[int]int32, n)
		}
		for i, id := range ids {
			byID[id] = int32(i)
		}
	}
	var nodeK []NodeKind
	if g.nodeK != nil {
		nodeK = make([]NodeKind, n)
		for i, v := range old {
			nodeK[i] = g.nodeK[v]
		}
	}
	type keyed struct {
		dim, first int32
		l          int32
	}
	// Most links are in the core, so it is made at the size of them all.
	core := make([]keyed, 0, len(g.links))
	var rest []int32
	for l := range int32(len(g.links)) {
		k := &g.links[l]
		if k.B >= 0 && inCore[k.A] && inCore[k.B] {
			dim, first, _ := s.edge(s.label[k.A], s.label[k.B])
			core = append(core, keyed{int32(dim), first, l})
		} else {
			rest = append(rest, l)
		}
	}
	slices.SortStableFunc(core, func(a, b keyed) int {
		if a.dim != b.dim {
			return int(a.dim - b.dim)
		}
		return int(a.first - b.first)
	})
	order := make([]int32, 0, len(g.links))
	for _, e := range core {
		order = append(order, e.l)
	}
	order = append(order, rest...)
	pure := attach == nil && g.NumProcs() == n
	r := &Graph{kind: Explicit}
	var links []Link
	if inPlace {
		links = g.links
		permute(links, order)
		// Only the adjacency's storage is kept: finish refills it.
		*r = Graph{kind: Explicit, off: g.off, adj: g.adj}
	} else {
		links = make([]Link, len(order))
		for i, l := range order {
			links[i] = g.links[l]
		}
	}
	for i := range links {
		k := &links[i]
		if i < len(core) {
			e := core[i]
			a, b := newIdx[k.A], newIdx[k.B]
			if a != e.first {
				a, b = b, a
			}
			*k = Link{A: a, B: b, Dim: e.dim, Channels: k.Channels, IO: k.IO}
			continue
		}
		k.A = newIdx[k.A]
		if k.B >= 0 {
			k.B = newIdx[k.B]
		}
	}
	if inPlace {
		*g = *r
		r = g
	}
	r.ids, r.byID, r.nodeK, r.links = ids, byID, nodeK, links
	if pure {
		r.kind, r.dims = s.kind, s.dims
	}
	r.finish(n)
	if !pure {
		r.ckind, r.cdims, r.core = s.kind, s.dims, c
		if attach != nil {
			r.attach = make([]int32, n)
			for i, v := range old {
				r.attach[i] = newIdx[attach[v]]
			}
		}
	}
	return r, order
}

// permute puts links[order[i]] at i for every i, following each cycle of
// the permutation so that no second list is needed.
func permute(links []Link, order []int32) {
	done := make([]bool, len(links))
	for i := range links {
		if done[i] {
			continue
		}
		first := links[i]
		j := i
		for {
			done[j] = true
			k := int(order[j])
			if k == i {
				links[j] = first
				break
			}
			links[j] = links[k]
			j = k
		}
	}
}

// Hub is the switch at the centre of a star (a crossbar): the graph's only
// switch, when every link joins it to a processor (point to point, no I/O
// links) and every processor has a link. Such a graph routes by rule —
// processor, hub, processor, over the links that join each to the hub —
// and needs no routing tables however many processors it has. ok is false
// for any other graph, a generated one included (but star(n)'s, which is
// the explicit graph its loop of links builds).
func (g *Graph) Hub() (hub int32, ok bool) {
	if g.kind != Explicit || g.core != 0 || g.N() != g.nprocs+1 {
		return -1, false
	}
	hub = -1
	for v := range int32(g.N()) {
		switch {
		case g.NodeKind(v) != Processor:
			hub = v
		case g.Degree(v) == 0:
			return -1, false
		}
	}
	for _, k := range g.links {
		if k.Multi || k.IO || k.B < 0 || k.A == k.B || k.A != hub && k.B != hub {
			return -1, false
		}
	}
	return hub, true
}
