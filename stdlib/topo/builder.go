package topo

import (
	"errors"
	"fmt"
	"slices"
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
//
// A file may list hundreds of thousands of links, so the Builder keeps
// them without an allocation per link: every link's member ids in one
// array, and the ids mapped to indices by a map only once they stop
// being 0, 1, 2, … in order (until then an id is its index).
type Builder struct {
	ids     []int
	kinds   []NodeKind
	byID    map[int]int32 // nil while ids[i] == i for every node
	links   []builtLink
	members []int // the links' member ids, link after link
	errs    []error
}

// builtLink is a LinkSpec held by a Builder, its members at
// members[end-n:end].
type builtLink struct {
	end, n, dim int32
	io          bool
	channels    int
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{} }

// Grow makes room for at least nodes more nodes and links more links of
// two members each, so that a Builder whose size is known in advance
// grows no list by copying.
func (b *Builder) Grow(nodes, links int) {
	nodes, links = max(nodes, 0), max(links, 0)
	b.ids = slices.Grow(b.ids, nodes)
	b.kinds = slices.Grow(b.kinds, nodes)
	b.links = slices.Grow(b.links, links)
	b.members = slices.Grow(b.members, 2*links)
}

// Processor adds a processor with external id.
func (b *Builder) Processor(id int) *Builder { return b.node(id, Processor) }

// Switch adds a switch (routing chip) with external id.
func (b *Builder) Switch(id int) *Builder { return b.node(id, Switch) }

func (b *Builder) node(id int, k NodeKind) *Builder {
	if _, dup := b.index(id); dup {
		b.errs = append(b.errs, fmt.Errorf("node id %d defined twice", id))
		return b
	}
	i := len(b.ids)
	if b.byID == nil && id != i {
		b.byID = make(map[int]int32, max(cap(b.ids), i+1))
		for j := range i {
			b.byID[j] = int32(j)
		}
	}
	if b.byID != nil {
		b.byID[id] = int32(i)
	}
	b.ids = append(b.ids, id)
	b.kinds = append(b.kinds, k)
	return b
}

// index is the index of the node with external id.
func (b *Builder) index(id int) (int32, bool) {
	if b.byID == nil {
		return int32(id), id >= 0 && id < len(b.ids)
	}
	v, ok := b.byID[id]
	return v, ok
}

// Connect adds a plain point-to-point link between ids a and c.
func (b *Builder) Connect(a, c int) *Builder {
	b.members = append(b.members, a, c)
	return b.add(2, -1, 0, false)
}

// Link adds a link. Parallel links between the same pair are allowed (a
// multigraph, e.g. a doubly linked ring); a node may not link to itself.
// The Builder keeps a copy of s.Members.
func (b *Builder) Link(s LinkSpec) *Builder {
	b.members = append(b.members, s.Members...)
	return b.add(len(s.Members), s.Dim, s.Channels, s.IO)
}

func (b *Builder) add(n, dim, channels int, io bool) *Builder {
	b.links = append(b.links, builtLink{end: int32(len(b.members)), n: int32(n), dim: int32(dim), channels: channels, io: io})
	return b
}

// NumLinks is the number of links added so far.
func (b *Builder) NumLinks() int { return len(b.links) }

// Build checks the topology and returns the graph.
func (b *Builder) Build() (*Graph, error) {
	errs := append([]error(nil), b.errs...)
	if len(b.ids) == 0 {
		errs = append(errs, errors.New("the topology has no nodes"))
	}
	g := &Graph{kind: Explicit, nodeK: b.kinds}
	if b.byID != nil {
		g.ids, g.byID = b.ids, b.byID
	}
	g.links = make([]Link, 0, len(b.links))
	var ms []int32    // the current link's members, reused from link to link
	var multi []int32 // the members of every multi-point link, one after another
	var stamp []int32 // for a link of many members: stamp[v] == i+1 once link i has named node v
	for i, s := range b.links {
		ms = ms[:0]
		ok := true
		ids := b.members[s.end-s.n : s.end]
		if len(ids) > pairwiseMembers && stamp == nil {
			stamp = make([]int32, len(b.ids))
		}
		for j, id := range ids {
			v, found := b.index(id)
			if !found {
				errs = append(errs, fmt.Errorf("link %d names unknown node %d", i, id))
				ok = false
				continue
			}
			var again bool
			if len(ids) > pairwiseMembers {
				again, stamp[v] = stamp[v] == int32(i+1), int32(i+1)
			} else {
				again = slices.Contains(ids[:j], id)
			}
			if again {
				errs = append(errs, fmt.Errorf("link %d joins node %d to itself", i, id))
				ok = false
			}
			ms = append(ms, v)
		}
		switch {
		case !ok:
			continue
		case len(ms) == 0 || (len(ms) == 1 && !s.io):
			errs = append(errs, fmt.Errorf("link %d needs at least two members (one for an I/O link)", i))
			continue
		}
		ch := s.channels
		if ch <= 0 {
			ch = 1
		}
		if ch > MaxChannels {
			errs = append(errs, fmt.Errorf("link %d has %d channels; a wire has at most %d", i, ch, MaxChannels))
			continue
		}
		l := Link{A: ms[0], B: -1, Dim: s.dim, Channels: int32(ch), IO: s.io, Multi: len(ms) > 2}
		if len(ms) > 1 {
			l.B = ms[1]
		}
		if l.Multi {
			if g.multi == nil {
				g.multi = map[int32][]int32{}
			}
			start := len(multi)
			multi = append(multi, ms...)
			// Full slice expressions keep a later append from writing into
			// this link's members; older links keep the array they were cut from.
			g.multi[int32(len(g.links))] = multi[start:len(multi):len(multi)]
		}
		g.links = append(g.links, l)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	g.finish(len(b.ids))
	return g, nil
}

// pairwiseMembers is the most members a link may have for Build to look
// for a repeated member by comparing them pairwise.
const pairwiseMembers = 16

// BuildRecognized is Build followed by Recognize, with the recognised graph
// made in the storage of the one built rather than in a copy of it: order
// is as Recognize gives it, or nil when nothing was recognised. recognize
// false skips recognition (Build alone). The recognised graph takes over
// the Builder's id map, so b is not to be used again.
func (b *Builder) BuildRecognized(recognize bool) (g *Graph, order []int32, err error) {
	g, err = b.Build()
	if err != nil || !recognize {
		return g, nil, err
	}
	if r, order, ok := recognizeGraph(g, true); ok {
		return r, order, nil
	}
	return g, nil, nil
}
