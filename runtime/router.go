package runtime

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// The router model. A node's HopDelay is its routing pipeline (BookSim's
// routing, VC-allocation, switch-allocation and traversal stages: four
// cycles in its default router), paid by every head that passes; a head
// that finds its lane taken waits, and when the lane is freed the router
// needs AllocDelay more to hand it over (the allocation stages run again),
// so back-to-back packets through a contended output leave a gap as they
// do in an input-queued router. With nic = true every processor is joined
// to a router of its own by an injection/ejection link, as a terminal is in
// BookSim, instead of being the router itself.

// WithNIC returns spec with every processor moved behind a router of its
// own: the graph's nodes become switches (with the nodes' HopDelay and
// AllocDelay), each processor keeps its id and its other costs and is
// joined to its router by one link of the given latency and bandwidth.
// Router ids follow the processors' (from the next power of two on, in the
// same order), so a generated mesh, torus or hypercube stays recognised
// as one and routes by rule.
func WithNIC(spec *Spec, latency, bandwidth float64) (*Spec, error) {
	g := spec.Graph
	if g == nil {
		return nil, fmt.Errorf("the spec has no graph")
	}
	if !(bandwidth > 0) || !(latency >= 0) {
		return nil, fmt.Errorf("nic links need speed > 0 and latency ≥ 0 (got %g B/s, %g s)", bandwidth, latency)
	}
	maxID := 0
	for v := range int32(g.N()) {
		maxID = max(maxID, g.ID(v))
	}
	offset := 1 << bits.Len(uint(maxID))
	b := topo.NewBuilder()
	params := map[int]NodeParams{} // by new id
	for v := range int32(g.N()) {
		id, np := g.ID(v), *spec.Node(v)
		b.Switch(offset + id)
		params[offset+id] = NodeParams{HopDelay: np.HopDelay, AllocDelay: np.AllocDelay}
		if g.NodeKind(v) == topo.Processor {
			b.Processor(id)
			np.HopDelay, np.AllocDelay = 0, 0
			params[id] = np
		}
	}
	var links []LinkParams
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		ms := g.Members(l)
		ids := make([]int, len(ms))
		for i, m := range ms {
			ids[i] = offset + g.ID(m)
		}
		b.Link(topo.LinkSpec{Members: ids, Dim: int(k.Dim), Channels: int(k.Channels), IO: k.IO})
		lp := spec.DefaultLink
		if len(spec.Links) > 0 {
			lp = spec.Links[l]
		}
		links = append(links, lp)
	}
	for v := range int32(g.N()) {
		if g.NodeKind(v) == topo.Processor {
			b.Link(topo.LinkSpec{Members: []int{g.ID(v), offset + g.ID(v)}, Dim: -1})
			links = append(links, LinkParams{Latency: latency, Bandwidth: bandwidth})
		}
	}
	ng, order, err := b.BuildRecognized(true)
	if err != nil {
		return nil, err
	}
	if order != nil {
		re := make([]LinkParams, len(order))
		for i, o := range order {
			re[i] = links[o]
		}
		links = re
	}
	out := *spec
	out.Graph = ng
	out.Links = links
	out.Nodes, out.NodeOf = make([]NodeParams, ng.N()), nil
	for v := range int32(ng.N()) {
		out.Nodes[v] = params[ng.ID(v)]
	}
	return &out, nil
}

// rankIsLabel reports whether every processor's rank is the label of the
// core node it hangs off (as WithNIC makes them), so that patterns defined
// on coordinates (neighbor, tornado) apply to the core's shape.
func (n *network) rankIsLabel() bool {
	g := n.g
	if !n.attached || n.core.Nodes != n.nprocs {
		return false
	}
	for r := range n.nprocs {
		if g.Attached(g.Proc(r)) != int32(r) {
			return false
		}
	}
	return true
}

// checkRouter reports router parameters out of range.
func checkRouter(spec *Spec) error {
	if s := spec.Speedup; !(s >= 0) || math.IsInf(s, 0) {
		return fmt.Errorf("Speedup = %g must be a finite number ≥ 0 (0: the crossbar is not modelled)", s)
	}
	if d := spec.CreditDelay; !(d >= 0) || math.IsInf(d, 0) {
		return fmt.Errorf("CreditDelay = %g s must be a finite time ≥ 0", d)
	}
	return nil
}
