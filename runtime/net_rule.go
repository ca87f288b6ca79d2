package runtime

import (
	"math/bits"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Generated tori and hypercubes number their links by rule: on a torus of
// N nodes whose sides all exceed 2, link d·N+v joins node v to its next
// neighbour along dimension d; on a hypercube, link b·N/2+r joins the r-th
// node with bit b clear to its neighbour across bit b. On such graphs the
// kernel computes the link toward a neighbour, the wire leaving a node
// and a link's dimension by arithmetic instead of reading the adjacency
// and link tables, which on a large network is a cache miss each.
type linkRule uint8

const (
	ruleNone linkRule = iota
	ruleTorus
	ruleCube
)

// recogniseLinkRule sets n.rule when every link of the graph is where the
// rule puts it (checked link by link, so an explicit graph recognised as a
// torus, numbered its own way, keeps the tables).
func (n *network) recogniseLinkRule() {
	g := n.g
	N := int32(g.N())
	n.rule = ruleNone
	if n.attached || len(n.dims) == 0 || N < 2 {
		return
	}
	var want linkRule
	switch n.core.Kind {
	case topo.Torus:
		for _, k := range n.dims {
			if k <= 2 {
				return
			}
		}
		if int64(g.NumLinks()) != int64(len(n.dims))*int64(N) {
			return
		}
		want = ruleTorus
	case topo.Hypercube:
		if N&(N-1) != 0 || int64(g.NumLinks()) != int64(bits.TrailingZeros32(uint32(N)))*int64(N/2) {
			return
		}
		want = ruleCube
	default:
		return
	}
	n.rule, n.ruleN = want, N
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		a, b := n.ruleEnds(l)
		if k.A != a || k.B != b || k.Dim != n.linkDim(l) || k.Multi || k.IO {
			n.rule = ruleNone
			return
		}
	}
}

// ruleEnds is where the rule puts link l's two ends.
func (n *network) ruleEnds(l int32) (a, b int32) {
	N := n.ruleN
	if n.rule == ruleCube {
		d := l / (N / 2)
		r := l % (N / 2)
		low := r & (1<<d - 1)
		a = (r-low)<<1 | low
		return a, a | 1<<d
	}
	d, v := l/N, l%N
	return v, n.step(v, d, true)
}

// step is the neighbour of torus node v along dimension d, forward or back.
func (n *network) step(v, d int32, forward bool) int32 {
	ax := &n.axes[d]
	k, stride, x := ax.k, ax.stride, ax.coord(v)
	switch {
	case forward && x == k-1:
		return v - x*stride
	case forward:
		return v + stride
	case x == 0:
		return v + (k-1)*stride
	}
	return v - stride
}

// linkDim is link l's dimension under the rule.
func (n *network) linkDim(l int32) int32 {
	if n.rule == ruleCube {
		return l / (n.ruleN / 2)
	}
	return l / n.ruleN
}

// dim is link l's dimension (label), by rule where there is one.
func (n *network) dim(l int32) int32 {
	if n.rule != ruleNone {
		return n.linkDim(l)
	}
	return n.g.LinkDim(l)
}

// ruleWire is the wire of link l leaving node from, by rule.
func (n *network) ruleWire(l, from int32) int32 {
	if n.rule == ruleCube {
		return 2*l + from>>(l/(n.ruleN/2))&1
	}
	if from == l%n.ruleN {
		return 2 * l
	}
	return 2*l + 1
}

// ruleLink is the link from node at to its neighbour next (which differ in
// one dimension: bit d of a hypercube, or one step along d of a torus,
// forward when fwd).
func (n *network) ruleLink(at, d int32, fwd bool) int32 {
	if n.rule == ruleCube {
		half := n.ruleN / 2
		low := at & (1<<d - 1)
		return d*half + (at>>(d+1))<<d | low
	}
	if fwd {
		return d*n.ruleN + at
	}
	return d*n.ruleN + n.step(at, d, false)
}

// ruleHop is a hop by rule: the neighbour, the link and the wire to it,
// the link's dimension and whether it is a torus's wrap-around link.
type ruleHop struct {
	next, link, wire, dim int32
	wrap                  bool
	// tie: the hop is forward from exactly half way round an even side,
	// where the backward hop is as short (route splits such ties).
	tie bool
}

// firstHopTo writes to *h the first of candidates' minimal hops from at
// toward dst on a rule-numbered torus or hypercube: the hop rule-order
// routing takes, found without listing the others. It is false when at is
// dst. The hop is written field by field where it is kept: a returned hop
// was copied through memory in pieces, the copies waiting on the stores
// before them.
func (n *network) firstHopTo(at, dst int32, h *ruleHop) bool {
	if n.rule == ruleCube {
		x := uint32(at ^ dst)
		if x == 0 {
			return false
		}
		d := int32(bits.TrailingZeros32(x))
		l := n.ruleLink(at, d, true)
		h.next, h.link, h.wire, h.dim, h.wrap, h.tie = at^1<<d, l, n.ruleWire(l, at), d, false, false
		return true
	}
	// The coordinates by successive division, axis by axis, as far as
	// the first that differs: the last axis's is what the others leave.
	// (A torus routed by rule has sides above 2, so every axis's divider
	// multiplies: divider.div's test for 1 is left out.)
	x, y, last := uint32(at), uint32(dst), len(n.axes)-1
	i := 0
	a, b := int32(x), int32(y)
	for ; i < last; i++ {
		ax := &n.axes[i]
		qx, _ := bits.Mul64(ax.byK.m, uint64(x))
		qy, _ := bits.Mul64(ax.byK.m, uint64(y))
		a, b = int32(x-uint32(qx)*uint32(ax.k)), int32(y-uint32(qy)*uint32(ax.k))
		if a != b {
			break
		}
		x, y = uint32(qx), uint32(qy)
		a, b = int32(x), int32(y)
	}
	if a == b {
		return false
	}
	ax := &n.axes[i]
	k, stride := ax.k, ax.stride
	d := int32(i)
	fwd := b - a // steps forward, mod k
	if fwd < 0 {
		fwd += k
	}
	// Forward (also when half way round: candidates lists it first)
	// or backward, chosen under a mask rather than by a jump, which
	// a random permutation mispredicts half the time: fm is all ones
	// forward, 0 backward. The hop steps by ±stride and wraps round
	// from the last coordinate forward, from 0 backward; its link is
	// numbered from the node it leaves forward (at forward, next
	// backward), its wire 2l forward and 2l+1 backward.
	fm := -int32(b2i(2*fwd <= k))
	step := stride&fm | -stride&^fm
	wrap := a == (k-1)&fm
	next := at + step - (k*step)&-int32(b2i(wrap))
	l := d*n.ruleN + (at&fm | next&^fm)
	h.next, h.link, h.wire, h.dim, h.wrap, h.tie = next, l, 2*l+1+fm, d, wrap, 2*fwd == k
	return true
}

// backHop is the backward hop from torus node at along dimension d, the
// other half of a tie firstHopTo reports (forward first).
func (n *network) backHop(at, d int32) (topo.Adj, int32, bool) {
	next := n.step(at, d, false)
	l := d*n.ruleN + next
	return topo.Adj{Node: next, Link: l}, 2*l + 1, n.axes[d].coord(at) == 0
}
