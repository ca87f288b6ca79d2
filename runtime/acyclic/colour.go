package acyclic

import "slices"

// colour computes the trivial colouring of Fig. 2.8 with the multigraph tree
// labelling of Fig. 3.8: breadth-first trees of unlabelled links, the first
// rooted at processor 0, each next one at the lowest processor that still has
// an unlabelled link. A link to a neighbour that already has a parent in the
// current tree is left for a later tree, which also keeps the second of two
// parallel links out of the tree that took the first.
func (nw *Network) colour() {
	for i := range nw.label {
		nw.label[i] = -1
	}
	parent := make([]int32, nw.n)
	for i := range parent {
		parent[i] = -1
	}
	var queue, touched []int32
	tree := int32(0)
	for root := int32(0); root < int32(nw.n); root++ {
		// Processors below root never regain unlabelled links, and root may
		// need several trees (parallel links).
		for nw.hasUnlabelled(root) {
			queue = append(queue[:0], root)
			touched = append(touched[:0], root)
			parent[root] = root
			for q := 0; q < len(queue); q++ {
				v := queue[q]
				for _, d := range nw.uPort[nw.uStart[v]:nw.uStart[v+1]] {
					w := nw.uHead(d)
					if nw.label[d>>1] >= 0 || parent[w] >= 0 {
						continue
					}
					nw.label[d>>1] = tree
					parent[w] = v
					queue = append(queue, w)
					touched = append(touched, w)
				}
			}
			for _, v := range touched {
				parent[v] = -1
			}
			tree++
		}
	}
}

func (nw *Network) hasUnlabelled(v int32) bool {
	for _, d := range nw.uPort[nw.uStart[v]:nw.uStart[v+1]] {
		if nw.label[d>>1] < 0 {
			return true
		}
	}
	return false
}

// classify marks every connect at every processor by rule C1 as adapted in
// §3.4.2: BAD when both links lead to the same neighbour, GOOD when the
// arriving link's colour is not less than the leaving link's, UGLY otherwise.
func (nw *Network) classify() {
	nw.cls = make([]Class, nw.clsStart[nw.n])
	for j := 0; j < nw.n; j++ {
		ports := nw.uPort[nw.uStart[j]:nw.uStart[j+1]]
		deg := len(ports)
		base := int(nw.clsStart[j])
		for a, back := range ports { // arrival over back^1, from uHead(back)
			from := nw.uHead(back)
			for b, out := range ports {
				c := Bad
				switch {
				case nw.uHead(out) == from:
				case nw.label[back>>1] >= nw.label[out>>1]:
					c = Good
				default:
					c = Ugly
					nw.nUgly++
				}
				nw.cls[base+a*deg+b] = c
			}
		}
	}
	nw.c1 = append([]Class(nil), nw.cls...)
}

// improve applies rule C2 (§3.4.2): the UGLY connects l→m, visited in
// ascending order of the leaving link m (then of l's arrival port), become
// GOOD unless (L, C) already has a path from m back to l, which the new
// connect would close into a cycle; otherwise they become BAD.
//
// Searching from every m would cost O(links²). Instead a topological order
// of the GOOD graph is kept (Pearce and Kelly's dynamic topological sort): a
// path m→l needs ord[m] < ord[l], so a connect with ord[l] < ord[m] is GOOD
// at once, and otherwise the search visits only links ordered between them.
// Accepting such a connect reorders just the links the searches found.
func (nw *Network) improve() {
	nd := int32(len(nw.uPort))
	g := newDynDAG(nw)
	var fwd, bwd []int32
	for m := int32(0); m < nd; m++ {
		j := nw.uTail(m)
		ports := nw.uPort[nw.uStart[j]:nw.uStart[j+1]]
		deg := int32(len(ports))
		base := nw.clsStart[j]
		bm := nw.uIdx[m]
		for a := int32(0); a < deg; a++ {
			k := base + a*deg + bm
			if nw.cls[k] != Ugly {
				continue
			}
			l := ports[a] ^ 1 // arrives at j
			if g.ord[l] > g.ord[m] {
				var hit bool
				if fwd, bwd, hit = g.search(m, l, fwd[:0], bwd[:0]); hit {
					nw.cls[k] = Bad
					continue
				}
				g.reorder(fwd, bwd)
			}
			nw.cls[k] = Good
			nw.nImproved++
			g.add(l, m)
		}
	}
}

// dynDAG is the GOOD connect graph over underlying directed links with a
// topological order, both kept up to date as connects are added.
type dynDAG struct {
	nw                   *Network
	succStart, predStart []int32 // capacity per link: its processor's degree
	succN, predN         []int32
	succ, pred           []int32
	ord, at              []int32 // position of each link, link at each position
	mark                 []uint32
	epoch                uint32
	stack, stackB        []int32
}

func newDynDAG(nw *Network) *dynDAG {
	nd := int32(len(nw.uPort))
	g := &dynDAG{nw: nw, succStart: make([]int32, nd+1), predStart: make([]int32, nd+1),
		succN: make([]int32, nd), predN: make([]int32, nd), mark: make([]uint32, nd)}
	for x := int32(0); x < nd; x++ {
		h, t := nw.uHead(x), nw.uTail(x)
		g.succStart[x+1] = g.succStart[x] + nw.uStart[h+1] - nw.uStart[h]
		g.predStart[x+1] = g.predStart[x] + nw.uStart[t+1] - nw.uStart[t]
	}
	g.succ = make([]int32, g.succStart[nd])
	g.pred = make([]int32, g.predStart[nd])
	for k := int32(0); k < int32(nw.n); k++ {
		ports := nw.uPort[nw.uStart[k]:nw.uStart[k+1]]
		deg := int32(len(ports))
		for a, back := range ports {
			for b, y := range ports {
				if nw.cls[nw.clsStart[k]+int32(a)*deg+int32(b)] == Good {
					g.add(back^1, y)
				}
			}
		}
	}
	// Kahn's algorithm: C1 guarantees the graph is acyclic.
	indeg := append([]int32(nil), g.predN...)
	g.at = make([]int32, 0, nd)
	for x := int32(0); x < nd; x++ {
		if indeg[x] == 0 {
			g.at = append(g.at, x)
		}
	}
	for q := 0; q < len(g.at); q++ {
		x := g.at[q]
		for _, y := range g.succ[g.succStart[x] : g.succStart[x]+g.succN[x]] {
			if indeg[y]--; indeg[y] == 0 {
				g.at = append(g.at, y)
			}
		}
	}
	g.ord = make([]int32, nd)
	for i, x := range g.at {
		g.ord[x] = int32(i)
	}
	return g
}

func (g *dynDAG) add(x, y int32) {
	g.succ[g.succStart[x]+g.succN[x]] = y
	g.succN[x]++
	g.pred[g.predStart[y]+g.predN[y]] = x
	g.predN[y]++
}

func (g *dynDAG) newEpoch() uint32 {
	g.epoch++
	if g.epoch == 0 {
		clear(g.mark)
		g.epoch = 1
	}
	return g.epoch
}

// search reports whether l is reachable from m, so that the connect l→m
// would close a cycle. It searches forward from m and backward from l in
// turns, over the links ordered between them (a path from m to l has no
// others): a link reached from both sides proves a path, and a side that
// runs out proves there is none, so a rejection costs about twice the
// smaller side. Without a path it completes both sides and returns the
// links reachable from m ordered before l (fwd) and those reaching l
// ordered after m (bwd), which reorder moves.
func (g *dynDAG) search(m, l int32, fwd, bwd []int32) ([]int32, []int32, bool) {
	ef := g.newEpoch()
	eb := g.newEpoch()
	if ef == 0 || eb < ef { // the second epoch wrapped and cleared the marks
		ef = g.newEpoch()
		eb = g.newEpoch()
	}
	ub, lb := g.ord[l], g.ord[m]
	g.mark[m], g.mark[l] = ef, eb
	fs := append(g.stack[:0], m)
	bs := append(g.stackB[:0], l)
	fwd, bwd = append(fwd, m), append(bwd, l)
	hit := false
	fq, bq := 0, 0 // breadth first: the sides meet halfway
	for (fq < len(fs) || bq < len(bs)) && !hit {
		if fq < len(fs) {
			x := fs[fq]
			fq++
			for _, y := range g.succ[g.succStart[x] : g.succStart[x]+g.succN[x]] {
				if g.mark[y] == eb {
					hit = true
					break
				}
				if g.mark[y] != ef && g.ord[y] < ub {
					g.mark[y] = ef
					fs = append(fs, y)
					fwd = append(fwd, y)
				}
			}
		}
		if bq < len(bs) && !hit {
			x := bs[bq]
			bq++
			for _, y := range g.pred[g.predStart[x] : g.predStart[x]+g.predN[x]] {
				if g.mark[y] == ef {
					hit = true
					break
				}
				if g.mark[y] != eb && g.ord[y] > lb {
					g.mark[y] = eb
					bs = append(bs, y)
					bwd = append(bwd, y)
				}
			}
		}
	}
	g.stack, g.stackB = fs[:0], bs[:0]
	return fwd, bwd, hit
}

// reorder places the links that reach l (bwd) before those reachable from m
// (fwd) in the positions both sets held, each set keeping its own order, so
// that the new connect l→m goes forward.
func (g *dynDAG) reorder(fwd, bwd []int32) {
	byOrd := func(a, b int32) int { return int(g.ord[a] - g.ord[b]) }
	slices.SortFunc(fwd, byOrd)
	slices.SortFunc(bwd, byOrd)
	pos := make([]int32, 0, len(fwd)+len(bwd))
	for _, x := range bwd {
		pos = append(pos, g.ord[x])
	}
	for _, x := range fwd {
		pos = append(pos, g.ord[x])
	}
	slices.Sort(pos)
	i := 0
	for _, set := range [2][]int32{bwd, fwd} {
		for _, x := range set {
			g.ord[x] = pos[i]
			g.at[pos[i]] = x
			i++
		}
	}
}
