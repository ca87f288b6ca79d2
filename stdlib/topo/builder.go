package topo

import (
	"errors"
	"fmt"
)

// LinkSpec describes a link for Builder.Link by external node ids.
type LinkSpec struct {
	Members  []int // node ids; 2 for point-to-point, more for a shared medium, 1 for an I/O link
	Dim      int   // dimension or label; use -1 for none
	Channels int   // channels sharing the wire; 0 means 1
	IO       bool
}

// Builder assembles an explicit topology. Nodes may be added in any order
// and links may name nodes added later; all errors are reported by Build.
type Builder struct {
	ids   []int
	kinds []NodeKind
	byID  map[int]int32
	specs []LinkSpec
	errs  []error
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{byID: map[int]int32{}} }

// Processor adds a processor with external id.
func (b *Builder) Processor(id int) *Builder { return b.node(id, Processor) }

// Switch adds a switch (routing chip) with external id.
func (b *Builder) Switch(id int) *Builder { return b.node(id, Switch) }

func (b *Builder) node(id int, k NodeKind) *Builder {
	if _, dup := b.byID[id]; dup {
		b.errs = append(b.errs, fmt.Errorf("node id %d defined twice", id))
		return b
	}
	b.byID[id] = int32(len(b.ids))
	b.ids = append(b.ids, id)
	b.kinds = append(b.kinds, k)
	return b
}

// Connect adds a plain point-to-point link between ids a and c.
func (b *Builder) Connect(a, c int) *Builder {
	return b.Link(LinkSpec{Members: []int{a, c}, Dim: -1})
}

// Link adds a link. Parallel links between the same pair are allowed (a
// multigraph, e.g. a doubly linked ring); a node may not link to itself.
func (b *Builder) Link(s LinkSpec) *Builder {
	s.Members = append([]int(nil), s.Members...)
	b.specs = append(b.specs, s)
	return b
}

// Build checks the topology and returns the graph.
func (b *Builder) Build() (*Graph, error) {
	errs := append([]error(nil), b.errs...)
	if len(b.ids) == 0 {
		errs = append(errs, errors.New("the topology has no nodes"))
	}
	g := &Graph{kind: Explicit, ids: b.ids, byID: b.byID, nodeK: b.kinds, multi: map[int32][]int32{}}
	for i, s := range b.specs {
		ms := make([]int32, 0, len(s.Members))
		ok := true
		seen := map[int]bool{}
		for _, id := range s.Members {
			v, found := b.byID[id]
			if !found {
				errs = append(errs, fmt.Errorf("link %d names unknown node %d", i, id))
				ok = false
				continue
			}
			if seen[id] {
				errs = append(errs, fmt.Errorf("link %d joins node %d to itself", i, id))
				ok = false
			}
			seen[id] = true
			ms = append(ms, v)
		}
		switch {
		case !ok:
			continue
		case len(ms) == 0 || (len(ms) == 1 && !s.IO):
			errs = append(errs, fmt.Errorf("link %d needs at least two members (one for an I/O link)", i))
			continue
		}
		ch := s.Channels
		if ch <= 0 {
			ch = 1
		}
		if ch > MaxChannels {
			errs = append(errs, fmt.Errorf("link %d has %d channels; a wire has at most %d", i, ch, MaxChannels))
			continue
		}
		l := Link{A: ms[0], B: -1, Dim: int32(s.Dim), Channels: int32(ch), IO: s.IO, Multi: len(ms) > 2}
		if len(ms) > 1 {
			l.B = ms[1]
		}
		if l.Multi {
			g.multi[int32(len(g.links))] = ms
		}
		g.links = append(g.links, l)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	g.finish(len(b.ids))
	return g, nil
}
