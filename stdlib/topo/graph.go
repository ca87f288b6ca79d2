// Package topo holds Parasol's network graphs: processors and switches joined
// by full-duplex links, stored compactly enough (CSR adjacency, int32
// indices) that a million-node torus fits in a few hundred megabytes.
//
// Nodes are numbered 0..N-1 (the node index). Each node also has an external
// id: the Parasol I processornumber for explicit topologies (ids may be
// sparse, e.g. 43 and 45), the label for generated ones (index == id).
// Regular graphs made by the generators remember their Kind and Dims so that
// routing and metrics can work by rule instead of by table.
package topo

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Kind says how a graph was made; anything but Explicit is a regular family
// whose node index encodes its coordinates.
type Kind uint8

const (
	Explicit    Kind = iota // built link by link with a Builder (or by star(n), the graph its loop of links builds)
	Hypercube               // Dims = [d]; node index = label, link Dim = bit
	Mesh                    // Dims = [k0, k1, ...]; index = x0 + k0*(x1 + k1*(...)); link Dim = axis
	Torus                   // as Mesh plus wrap-around links (none for a dimension of size <= 2)
	Tree                    // Dims = [k, depth]; children of v are k*v+1..k*v+k; link Dim = child position
	Full                    // Dims = [n]; every pair linked; link Dim = -1
	Hamiltonian             // Dims = [n, degree]; ring links have Dim 0, random chords Dim 1

	// The switched kinds: switches first (the core, nodes 0..S-1, the
	// index encoding the switch's place), then the processors, each
	// attached to the switch (or switches) above it. Every switch's
	// adjacency is in its port order, the processors' ports first; a
	// link's Dim is its class. gen_switched.go says each numbering.
	FatTree   // Dims = [k, n]: fattree(k, n), numbered as the xgft it is
	XGFT      // Dims = [h, m1..mh, w1..wh]; link Dim = level of its lower end (0: processor)
	Dragonfly // Dims = [p, a, h, g, arrangement]; link Dim 0 processor, 1 local, 2 global
	FlatFly   // Dims = [k, n, c]; link Dim 0 processor, d+1 along dimension d
	HyperX    // Dims = [c, s1..sL]; link Dim 0 processor, d+1 along dimension d
)

var kindNames = [...]string{"explicit", "hypercube", "mesh", "torus", "tree", "full", "hamiltonian", "fattree", "xgft", "dragonfly", "flatfly", "hyperx"}

// Switched tells the kinds whose processors hang off switches (fattree,
// xgft, dragonfly, flatfly, hyperx): their switches are numbered by rule,
// but routing works from tables until a rule for them is written.
func (k Kind) Switched() bool { return k >= FatTree }

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// NodeKind distinguishes processors (which send, receive and may route in
// software) from switches (routing chips such as the C104).
type NodeKind uint8

const (
	Processor NodeKind = iota
	Switch
)

func (k NodeKind) String() string {
	if k == Switch {
		return "switch"
	}
	return "processor"
}

// Link is one full-duplex link. A point-to-point link joins A and B; a
// multi-point link (a shared medium such as Ethernet) has more members,
// available from Graph.Members, with A and B its first two. An I/O link may
// have a single member (B == -1): it leads out of the network.
type Link struct {
	A, B     int32
	Dim      int32 // dimension or label; -1 when the link has none
	Channels int32 // channels (lanes) sharing the wire, >= 1
	IO       bool
	Multi    bool // more than two members
}

// Adj is one adjacency entry: the neighbour reached and the link used.
type Adj struct {
	Node, Link int32
}

// Graph is an immutable network graph.
type Graph struct {
	kind   Kind
	dims   []int
	nodeK  []NodeKind
	ids    []int         // external id per node; nil means id == index
	byID   map[int]int32 // nil means id == index
	procs  []int32       // processor node indices in index order (rank -> node); nil = nodes 0..nprocs-1
	rank   []int32       // node -> rank, -1 for switches; nil = identity below nprocs, switches from it
	links  []Link
	multi  map[int32][]int32 // members of multi-point links
	off    []int32           // CSR offsets, len N+1
	adj    []Adj
	nprocs int

	// The regular core that routing and distances follow by rule: nodes
	// 0..core-1, node index = label, of kind ckind with sides cdims.
	// Generated graphs are their own core; an explicit graph has one once
	// Recognize has found it (core 0: none). attach maps every node to the
	// core node it hangs off (itself for a core node); nil when every node
	// is in the core.
	ckind  Kind
	cdims  []int
	core   int32
	attach []int32

	// What is computed from the graph on demand, kept with it so that it
	// goes when the graph does (a process-wide cache keyed by the graph
	// would keep every graph ever measured alive).
	memo *memo
}

// memo holds a graph's derived figures, computed at most once each and
// safe for concurrent use. It is reached through a pointer so that the
// Graph itself stays a plain value (Recognize renumbers one in place).
type memo struct {
	mu      sync.Mutex
	metrics *Metrics // Metrics' answer, once it has one to keep

	distOnce sync.Once
	dist     [][]int32 // ProcDistances' tables
}

// N is the number of nodes.
func (g *Graph) N() int { return len(g.off) - 1 }

// NumLinks is the number of links.
func (g *Graph) NumLinks() int { return len(g.links) }

// NumProcs is the number of processors.
func (g *Graph) NumProcs() int { return g.nprocs }

// Kind is the family of the whole graph: the generator that made it, or
// the family Recognize found an explicit graph to be when every node is a
// processor in it. Otherwise Explicit (see Core for a regular part).
func (g *Graph) Kind() Kind { return g.kind }

// Core is the regular network inside a graph that routing rules
// (dimension order) and distances work on.
type Core struct {
	Kind  Kind  // Explicit when the graph has no regular core
	Dims  []int // as Graph.Dims for that kind
	Nodes int   // the core is nodes 0..Nodes-1, and a node's index is its label
}

// Core returns the graph's regular core: the whole graph for a generated
// one; for an explicit graph, what Recognize found (a hypercube, mesh or
// torus of all its nodes, or of its switches with processors attached),
// else Kind Explicit.
func (g *Graph) Core() Core {
	if g.core == 0 {
		return Core{Kind: Explicit}
	}
	return Core{Kind: g.ckind, Dims: slices.Clone(g.cdims), Nodes: int(g.core)}
}

// Attached is the core node that node v hangs off: v itself for a core
// node (and for every node of a graph without attachments), the one switch
// its links lead to for a processor attached to the core.
func (g *Graph) Attached(v int32) int32 {
	if g.attach == nil {
		return v
	}
	return g.attach[v]
}

// Dims are the generator arguments of a regular graph (see Kind).
func (g *Graph) Dims() []int { return slices.Clone(g.dims) }

// NodeKind tells a processor from a switch.
func (g *Graph) NodeKind(v int32) NodeKind {
	if g.nodeK == nil {
		return Processor
	}
	return g.nodeK[v]
}

// ID is the external id of node v.
func (g *Graph) ID(v int32) int {
	if g.ids == nil {
		return int(v)
	}
	return g.ids[v]
}

// Index maps an external id to a node index.
func (g *Graph) Index(id int) (int32, bool) {
	if g.byID == nil {
		if id < 0 || id >= g.N() {
			return -1, false
		}
		return int32(id), true
	}
	v, ok := g.byID[id]
	return v, ok
}

// Proc is the node index of the processor of rank r (processors ranked in
// node-index order, switches skipped).
func (g *Graph) Proc(r int) int32 {
	if g.procs == nil {
		return int32(r)
	}
	return g.procs[r]
}

// Rank is the processor rank of node v, or -1 for a switch.
func (g *Graph) Rank(v int32) int {
	if g.rank == nil {
		if int(v) >= g.nprocs {
			return -1
		}
		return int(v)
	}
	return int(g.rank[v])
}

// Link returns link l.
func (g *Graph) Link(l int32) Link { return g.links[l] }

// LinkDim returns link l's Dim: Link(l).Dim without the copy of the
// whole Link, which the compiler makes through the stack in two
// overlapping halves whose reading back stalls (a simulator's hop reads
// it).
func (g *Graph) LinkDim(l int32) int32 { return g.links[l].Dim }

// Away is 1 where link l is point-to-point and node v is not its end A
// (the link's second direction, B to A, is the one leaving v), else 0:
// Link(l)'s A and Multi read without the copy (see LinkDim).
func (g *Graph) Away(l, v int32) int32 {
	if k := &g.links[l]; !k.Multi && k.A != v {
		return 1
	}
	return 0
}

// Members lists the nodes on link l (two for a point-to-point link).
func (g *Graph) Members(l int32) []int32 {
	if ms, ok := g.multi[l]; ok {
		return ms
	}
	k := g.links[l]
	if k.B < 0 {
		return []int32{k.A}
	}
	return []int32{k.A, k.B}
}

// Adj lists the neighbours of v, in link order (for generated graphs that
// is by dimension). The slice must not be modified.
func (g *Graph) Adj(v int32) []Adj { return g.adj[g.off[v]:g.off[v+1]] }

// Degree is the number of adjacency entries of v.
func (g *Graph) Degree(v int32) int { return int(g.off[v+1] - g.off[v]) }

// finish builds the CSR arrays from the link list; order within a node
// follows link order, which the generators choose deliberately.
func (g *Graph) finish(n int) {
	g.memo = new(memo)
	// A graph renumbered in place (Recognize) refills the adjacency it had.
	deg := g.off
	if len(deg) == n+1 {
		clear(deg)
	} else {
		deg = make([]int32, n+1)
	}
	each := func(f func(a, b, l int32)) {
		for l := range g.links {
			k := &g.links[l]
			if k.Multi {
				ms := g.multi[int32(l)]
				for _, a := range ms {
					for _, b := range ms {
						if a != b {
							f(a, b, int32(l))
						}
					}
				}
			} else if k.B >= 0 {
				f(k.A, k.B, int32(l))
				f(k.B, k.A, int32(l))
			}
		}
	}
	each(func(a, _, _ int32) { deg[a+1]++ })
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	g.off = deg
	if len(g.adj) != int(deg[n]) {
		g.adj = make([]Adj, deg[n])
	}
	// deg[a] is a's next place while filling, then the start of a + 1:
	// moved up by one it is the offsets again (where a copy of them was
	// the cursors, 256 KB for std:loggp's star).
	each(func(a, b, l int32) { g.adj[deg[a]] = Adj{b, l}; deg[a]++ })
	copy(deg[1:], deg[:n])
	deg[0] = 0
	if g.nodeK != nil {
		procs := 0
		for _, k := range g.nodeK {
			if k == Processor {
				procs++
			}
		}
		// Processors first (nodes 0..procs-1, switches after them, as in
		// star(n) and a loop of links to a switch numbered last): ranks
		// are node indices, no table either way (where the two took 8
		// bytes a node, 0.5 MB for std:loggp's star).
		first := !slices.Contains(g.nodeK[:procs], Switch)
		g.procs, g.rank = nil, nil
		if !first {
			g.rank = make([]int32, n)
			if procs > 0 {
				g.procs = make([]int32, 0, procs)
			}
			for v := range n {
				g.rank[v] = -1
				if g.nodeK[v] == Processor {
					g.rank[v] = int32(len(g.procs))
					g.procs = append(g.procs, int32(v))
				}
			}
		}
		g.nprocs = procs
		if g.nprocs == n {
			g.nodeK = nil
		}
	} else {
		g.nprocs = n
	}
	if g.kind != Explicit && g.core == 0 {
		g.ckind, g.cdims, g.core = g.kind, g.dims, int32(n)
	}
}

// IDRanges summarises sorted node ids as ranges for messages, "0..3, 100",
// showing at most six ranges.
func IDRanges(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if len(parts) == 6 {
			parts = append(parts, "…")
			break
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, strconv.Itoa(ids[i])+".."+strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
