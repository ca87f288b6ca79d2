package runtime

import (
	"fmt"
	goruntime "runtime"
	"sort"
	"sync"
	"weak"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/runtime/acyclic"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Acyclic routing (seed 003 §2.4.3–2.4.4, package runtime/acyclic) as the
// built-in routings "acyclic" and "acyclic-improved".
//
// The graph's point-to-point links are the acyclic package's links, in the
// runtime's link order (I/O links, which lead out of the network, are left
// out), and every lane of a wire is a component of its link: with V lanes
// per wire (Packet.VirtualChannels, or a link's Channels ≥ 2) each link has
// V linearly ordered components (rule C′), and parallel links are merged
// into the components of one physical link. Acyclic channel
// 2(i·V+k)+dir (link i, component k, dir 0 for A→B) is runtime lane
// (2·l+dir)·V+k of runtime link l. Switches are routed like processors.
//
// The tables depend only on the graph, the variant and V, so they are built
// once, lazily, and shared by every run, every worker and every Spec with
// that graph; they are dropped when the graph is garbage collected. Graphs
// whose full tables would be too large (acyclic.Options.FullTableBytes)
// route on demand from per-destination distances; packets then look their
// hops up in a Memo of minimal-path graphs, since a run has packets in
// flight to more destinations than the distance cache holds.

// acyclicTables is a built acyclic network and its link mapping. It holds
// no pointer to the graph, so the cache does not keep graphs alive.
type acyclicTables struct {
	nw    *acyclic.Network
	memo  *acyclic.Memo // nil with full tables
	lanes int32
	aLink []int32 // acyclic link -> runtime link
	rLink []int32 // runtime link -> acyclic link, -1 for I/O links
}

type acyclicKey struct {
	g       weak.Pointer[topo.Graph]
	variant acyclic.Variant
	lanes   int32
}

type acyclicEntry struct {
	once sync.Once
	t    *acyclicTables
	err  error
}

var acyclicCache sync.Map // acyclicKey -> *acyclicEntry

// acyclicFor returns the (cached) acyclic tables of g for a variant and a
// number of lanes per wire, building them on first use within a memory
// limit for the tables (0 means limits.Default()); the first caller's
// limit builds them.
func acyclicFor(g *topo.Graph, variant acyclic.Variant, lanes int32, maxMemory int64) (*acyclicTables, error) {
	key := acyclicKey{weak.Make(g), variant, lanes}
	v, loaded := acyclicCache.LoadOrStore(key, &acyclicEntry{})
	if !loaded {
		goruntime.AddCleanup(g, func(k acyclicKey) { acyclicCache.Delete(k) }, key)
	}
	e := v.(*acyclicEntry)
	e.once.Do(func() { e.t, e.err = buildAcyclic(g, variant, lanes, limits.Or(maxMemory), 0) })
	return e.t, e.err
}

// buildAcyclic builds g's acyclic network, with full tables up to
// fullTables bytes (acyclic.Options.FullTableBytes: 0 for the default, -1
// to route on demand).
func buildAcyclic(g *topo.Graph, variant acyclic.Variant, lanes int32, maxMemory, fullTables int64) (*acyclicTables, error) {
	t := &acyclicTables{lanes: lanes, rLink: make([]int32, g.NumLinks())}
	var order []int32 // runtime links that acyclic routing uses
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		t.rLink[l] = -1
		if k.Multi {
			return nil, fmt.Errorf("routing %s needs point-to-point links; link %d (node %d, %d members) is a multi-point link", variant, l, g.ID(k.A), len(g.Members(l)))
		}
		if k.IO || k.B < 0 {
			continue
		}
		if k.A == k.B {
			return nil, fmt.Errorf("routing %s: link %d joins node %d to itself", variant, l, g.ID(k.A))
		}
		order = append(order, l)
	}
	// The colouring labels a spanning tree in link order, so the order
	// decides which paths grow. Number the links node by node, as seed 003
	// enumerates a processor's links (generators emit them dimension by
	// dimension), so that e.g. a torus gets the tables' μ′ and D′.
	sort.SliceStable(order, func(i, j int) bool {
		a, b := g.Link(order[i]), g.Link(order[j])
		if a.A != b.A {
			return a.A < b.A
		}
		return a.Dim < b.Dim
	})
	links := make([]acyclic.Link, len(order))
	for i, l := range order {
		k := g.Link(l)
		t.rLink[l] = int32(i)
		links[i] = acyclic.Link{A: int(k.A), B: int(k.B)}
	}
	t.aLink = order
	nw, err := acyclic.Build(g.N(), links, acyclic.Options{Variant: variant, Components: int(lanes), Merge: true, MaxTableBytes: maxMemory, FullTableBytes: fullTables})
	if err != nil {
		return nil, fmt.Errorf("routing %s: %w", variant, err)
	}
	t.nw = nw
	if room := min(acyclicMemoBytes, maxMemory-nw.RoutingBytes()); nw.OnDemand() && room >= minMemoBytes {
		// The memo, like the routing state, counts against the limit.
		t.memo = acyclic.NewMemo(nw, room)
	}
	return t, nil
}

// acyclicMemoBytes bounds the minimal-path graphs remembered for routing
// on demand. A random permutation on 65,536 nodes of degree 4 records 1.24
// million states (about 45 MiB); the bound leaves room for several lanes
// and longer routes, since a state forgotten while its packet is in flight
// costs a new search.
const acyclicMemoBytes = 256 << 20

// minMemoBytes is the least room worth a memo: below it the shards would
// be forgotten at nearly every miss, and packets look their hops up in
// the distance cache instead.
const minMemoBytes = 1 << 20

// next is Network.Next, through the memo when routing on demand.
func (t *acyclicTables) next(buf []int, v, dst, in int) []int {
	if t.memo != nil {
		return t.memo.Next(buf, v, dst, in)
	}
	return t.nw.Next(buf, v, dst, in)
}

// lane maps an acyclic channel to a runtime lane (wire × lanes + lane).
func (t *acyclicTables) lane(c int) int32 {
	V := t.lanes
	i, k, dir := int32(c)/2/V, int32(c)/2%V, int32(c)&1
	return (2*t.aLink[i]+dir)*V + k
}

// channel maps a runtime lane to an acyclic channel (-1 for lanes of I/O
// links, which acyclic routing never uses).
func (t *acyclicTables) channel(lane int32) int {
	V := t.lanes
	w, k := lane/V, lane%V
	i := t.rLink[w/2]
	if i < 0 {
		return -1
	}
	return int(2*(i*V+k) + w%2)
}

// useAcyclic selects acyclic routing by name for the network.
func (n *network) useAcyclic(name string) error {
	v, err := acyclic.ParseVariant(name)
	if err != nil {
		return err
	}
	n.rk = rAcyclic
	n.acyc, err = acyclicFor(n.g, v, n.lanes, n.maxMemory)
	return err
}

// acyclicCandidates appends the allowed next hops of a packet at node at
// for dst that arrived on runtime lane inLane (-1 at its source), with the
// lane each must take appended to lanes: every channel on a minimal path in
// the acyclic (L, C) graph, ascending.
func (n *network) acyclicCandidates(at, dst, inLane int32, buf []topo.Adj, lanes []int32) ([]topo.Adj, []int32) {
	t := n.acyc
	buf, lanes = buf[:0], lanes[:0]
	in := acyclic.Local
	if inLane >= 0 {
		if in = t.channel(inLane); in < 0 {
			return buf, lanes
		}
	}
	var tmp [32]int
	for _, c := range t.next(tmp[:0], int(at), int(dst), in) {
		ln := t.lane(c)
		_, to, _ := t.nw.Ends(c)
		buf = append(buf, topo.Adj{Node: int32(to), Link: ln / t.lanes / 2})
		lanes = append(lanes, ln)
	}
	return buf, lanes
}

// lastLane is the lane packet p holds at its head (-1 before its first).
func (p *packet) lastLane() int32 {
	if p.nhops == 0 {
		return -1
	}
	return p.hop(p.nhops - 1).ch
}

// acyclicLane picks the lane for candidate ci under acyclic routing: its
// own lane if free; else a free lane among the candidates on the same wire
// (another allowed component), else the one with the shortest queue.
func (s *sim) acyclicLane(ci int) int32 {
	best := s.lbuf[ci]
	if s.lane(best).free(s.now) {
		return best
	}
	V := s.net.lanes
	w := best / V
	for _, c := range s.lbuf {
		if c/V != w {
			continue
		}
		if s.lane(c).free(s.now) {
			return c
		}
		if s.queued(c) < s.queued(best) {
			best = c
		}
	}
	return best
}

// acyclicTree replaces the network's broadcast tree by the static
// broadcast tree of the acyclic graph from src (seed 003 §3.4.2), whose
// branches obey the connect matrix.
func (n *network) acyclicTree(src int32) error {
	parent, err := n.acyc.nw.BroadcastTree(int(src))
	if err != nil {
		return fmt.Errorf("routing acyclic: %w", err)
	}
	N := n.g.N()
	n.treeRoot = src
	n.parent, n.parentLink, n.depth = make([]int32, N), make([]int32, N), make([]int32, N)
	children := make([][]int32, N)
	for v, c := range parent {
		n.parent[v], n.parentLink[v], n.depth[v] = -1, -1, -1
		if c >= 0 {
			from, _, _ := n.acyc.nw.Ends(c)
			n.parent[v] = int32(from)
			n.parentLink[v] = n.acyc.lane(c) / n.lanes / 2
			children[from] = append(children[from], int32(v))
		}
	}
	n.depth[src] = 0
	n.treeOrder = append(n.treeOrder[:0], src)
	for i := 0; i < len(n.treeOrder); i++ {
		u := n.treeOrder[i]
		for _, v := range children[u] {
			n.depth[v] = n.depth[u] + 1
			n.treeOrder = append(n.treeOrder, v)
		}
	}
	return nil
}
