package acyclic

import (
	"errors"
	"fmt"
	"runtime"
)

// Link is an undirected physical link between processors A and B. Several
// links may join the same pair (a multigraph); A == B is rejected.
type Link struct{ A, B int }

// Variant selects how UGLY connects are treated.
type Variant int

const (
	// Plain forbids every UGLY connect (rule C1 only; the single-primed
	// quantities of seed 003).
	Plain Variant = iota
	// Improved applies rule C2 to the UGLY connects (double-primed).
	Improved
)

func (v Variant) String() string {
	switch v {
	case Plain:
		return "acyclic"
	case Improved:
		return "acyclic-improved"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant maps the routing names "acyclic" and "acyclic-improved" (as
// printed by Variant.String) to a Variant.
func ParseVariant(name string) (Variant, error) {
	switch name {
	case "acyclic":
		return Plain, nil
	case "acyclic-improved":
		return Improved, nil
	}
	return 0, fmt.Errorf("%w: unknown acyclic routing %q (want acyclic or acyclic-improved)", ErrInput, name)
}

// Class is the classification of a connect between an arriving and a leaving
// link at a processor.
type Class uint8

const (
	Bad  Class = iota // never allowed
	Good              // allowed
	Ugly              // forbidden by C1; the improved variant resolves it to Good or Bad
)

func (c Class) String() string {
	switch c {
	case Bad:
		return "BAD"
	case Good:
		return "GOOD"
	case Ugly:
		return "UGLY"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Local stands for "no arrival channel": a packet injected at its source.
const Local = -1

// Options configure [Build].
type Options struct {
	Variant Variant
	// Components is the number of linearly ordered components of every
	// link (rule C′). 0 and 1 both mean plain links.
	Components int
	// Merge treats parallel links as components of one physical link, in
	// input order (the approach seed 003 takes for multigraphs in §2.4.4:
	// colour the underlying simple graph, order the components linearly):
	// the k-th of several parallel links supplies components
	// k·Components … (k+1)·Components−1.
	// Without Merge, parallel links are coloured as separate links with the
	// multigraph tree labelling of Fig. 3.8.
	Merge bool
	// MaxTableBytes bounds the memory of the routing state (full tables, or
	// the connects and the distance cache of on-demand routing); Build fails
	// with ErrTooLarge rather than exceed it. 0 means 4 GiB.
	MaxTableBytes int64
	// FullTableBytes is the size up to which Build computes full routing
	// tables (one bit per destination, processor, arrival and leaving
	// channel; Θ(n²·d²)). Larger networks route on demand: Next computes a
	// destination's channel distances by the same backward search the
	// tables are built from, on first use, and keeps them in a bounded
	// cache. Both modes give the same routes. 0 means 256 MiB; a negative
	// value always routes on demand.
	FullTableBytes int64
	// CacheBytes bounds the on-demand distance cache (2 bytes per channel
	// per cached destination, at least one destination per CPU). 0 means
	// 64 MiB, within MaxTableBytes. Evicted distances are garbage until
	// the next collection, so the heap may hold about twice as much.
	CacheBytes int64
}

// Errors returned by Build; they are wrapped with details.
var (
	ErrInput        = errors.New("invalid input")
	ErrSelfLoop     = errors.New("self-loop")
	ErrDisconnected = errors.New("the graph is not connected")
	ErrTooLarge     = errors.New("the routing tables are too large")
)

// Network is an interconnection network (P, L, C) with acyclic connects and
// its routing tables (or, routing on demand, its distance cache). Its routes
// are fixed by Build and it is safe for concurrent use.
//
// Channels are the directed components of the links. Link i, component k
// (0 ≤ k < Components), direction A→B is channel 2(i·Components+k); the
// direction B→A is that number plus one, so channel c's reverse is c^1.
type Network struct {
	n, links, comps int
	variant         Variant

	// Channels (expanded over components).
	tail, head []int32
	chanU      []int32 // underlying directed link of each channel
	chanK      []int32 // component of each channel (rule C′ order)
	portStart  []int32 // CSR: ports of v are port[portStart[v]:portStart[v+1]]
	port       []int32 // channels leaving each processor, ascending
	portIdx    []int32 // index of channel c among its tail's ports

	// Underlying links (input links, or merged parallel links); directed
	// link d = 2u+dir of underlying link u.
	uEnds     []int32 // tail of each underlying directed link (head: uEnds[d^1])
	linkU     []int32 // underlying link of each input link
	label     []int32 // colour of each underlying link
	uStart    []int32 // CSR of underlying ports
	uPort     []int32
	uIdx      []int32 // index of directed link d among its tail's underlying ports
	clsStart  []int32 // per processor offset into cls: deg² classes
	cls       []Class // final class (Ugly resolved to Bad/Good for the variant)
	c1        []Class // classes after C1, before improvement (for inspection)
	nUgly     int
	nImproved int

	// Tables: per destination, a packed bit set.
	bitBase []int64 // per processor: bit offset of its (deg+1)·deg entries
	words   int64   // words per destination
	table   []uint64

	// On-demand routing (no table): the connects and the distance cache.
	adj   *adjacency
	cache *distCache
}

// Build validates the multigraph with n processors and the given links,
// colours it, classifies and (optionally) improves the connects, and computes
// the routing tables. It returns an error wrapping ErrInput, ErrSelfLoop,
// ErrDisconnected or ErrTooLarge for bad input; it never panics.
func Build(n int, links []Link, opt Options) (*Network, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d processors", ErrInput, n)
	}
	if opt.Variant != Plain && opt.Variant != Improved {
		return nil, fmt.Errorf("%w: unknown variant %d", ErrInput, int(opt.Variant))
	}
	comps := opt.Components
	if comps < 0 {
		return nil, fmt.Errorf("%w: %d components", ErrInput, comps)
	}
	if comps == 0 {
		comps = 1
	}
	const maxChannels = 1 << 30
	if int64(len(links))*int64(comps)*2 >= maxChannels || n >= maxChannels {
		return nil, fmt.Errorf("%w: %d processors, %d links × %d components", ErrTooLarge, n, len(links), comps)
	}
	for i, l := range links {
		if l.A < 0 || l.A >= n || l.B < 0 || l.B >= n {
			return nil, fmt.Errorf("%w: link %d (%d–%d) has an endpoint outside 0..%d", ErrInput, i, l.A, l.B, n-1)
		}
		if l.A == l.B {
			return nil, fmt.Errorf("%w: link %d joins processor %d to itself", ErrSelfLoop, i, l.A)
		}
	}
	if len(links) < n-1 { // fail before allocating per-processor arrays
		return nil, fmt.Errorf("%w: %d links cannot connect %d processors", ErrDisconnected, len(links), n)
	}
	nw := &Network{n: n, links: len(links), comps: comps, variant: opt.Variant}
	nw.buildUnderlying(links, opt.Merge)
	nw.buildChannels(links)
	if v := nw.unreached(); v >= 0 {
		return nil, fmt.Errorf("%w: processor %d cannot be reached from processor 0", ErrDisconnected, v)
	}

	// Table size: one bit per (destination, processor, arrival, leaving channel).
	nw.bitBase = make([]int64, n+1)
	for v := 0; v < n; v++ {
		d := int64(nw.portStart[v+1] - nw.portStart[v])
		nw.bitBase[v+1] = nw.bitBase[v] + (d+1)*d
	}
	nw.words = (nw.bitBase[n] + 63) / 64
	limit := opt.MaxTableBytes
	if limit <= 0 {
		limit = 4 << 30
	}
	full := opt.FullTableBytes
	if full == 0 {
		full = defaultFullTableBytes
	}
	tableFits := full >= 0 && (nw.words == 0 || int64(n) <= min(limit, full)/8/nw.words)
	entries := 0
	if !tableFits {
		// On demand: the connects (at most Σ deg² per processor) and at
		// least one cached destination per CPU, within the limit.
		var connects int64
		for v := 0; v < n; v++ {
			d := int64(nw.portStart[v+1] - nw.portStart[v])
			connects += d * d
		}
		entryBytes := max(2*int64(len(nw.tail)), 1)
		least := int64(runtime.GOMAXPROCS(0))
		room := limit - nw.adjacencyBytes(connects)
		if room < least*entryBytes {
			return nil, fmt.Errorf("%w: %d processors × %d bytes > %d bytes, and routing on demand needs %d bytes", ErrTooLarge, n, nw.words*8, limit, limit-room+least*entryBytes)
		}
		budget := opt.CacheBytes
		if budget <= 0 {
			budget = defaultCacheBytes
		}
		// There are no more destinations to cache than processors.
		entries = int(min(int64(n), max(least, min(budget, room)/entryBytes)))
	}
	nw.colour()
	nw.classify()
	if opt.Variant == Improved {
		nw.improve()
	} else {
		for i, c := range nw.cls {
			if c == Ugly {
				nw.cls[i] = Bad
			}
		}
	}
	if tableFits {
		nw.buildTables()
	} else {
		nw.adj = nw.adjacency()
		nw.cache = newDistCache(entries)
	}
	return nw, nil
}

// buildUnderlying sets up the underlying links (merging parallel links when
// asked) and their directed links 2u (A→B), 2u+1 (B→A), with port lists.
func (nw *Network) buildUnderlying(links []Link, merge bool) {
	n := nw.n
	nw.linkU = make([]int32, len(links))
	var under []Link
	if merge {
		index := make(map[[2]int]int32, len(links))
		for i, l := range links {
			key := [2]int{min(l.A, l.B), max(l.A, l.B)}
			u, ok := index[key]
			if !ok {
				u = int32(len(under))
				index[key] = u
				under = append(under, l)
			}
			nw.linkU[i] = u
		}
	} else {
		under = links
		for i := range links {
			nw.linkU[i] = int32(i)
		}
	}
	nw.uEnds = make([]int32, 2*len(under))
	nw.uStart = make([]int32, n+1)
	for u, l := range under {
		nw.uEnds[2*u], nw.uEnds[2*u+1] = int32(l.A), int32(l.B)
		nw.uStart[l.A+1]++
		nw.uStart[l.B+1]++
	}
	for v := 0; v < n; v++ {
		nw.uStart[v+1] += nw.uStart[v]
	}
	nw.uPort = make([]int32, 2*len(under))
	nw.uIdx = make([]int32, 2*len(under))
	fill := append([]int32(nil), nw.uStart[:n]...)
	for d, v := range nw.uEnds {
		nw.uIdx[d] = fill[v] - nw.uStart[v]
		nw.uPort[fill[v]] = int32(d)
		fill[v]++
	}
	nw.clsStart = make([]int32, n+1)
	for v := 0; v < n; v++ {
		deg := nw.uStart[v+1] - nw.uStart[v]
		nw.clsStart[v+1] = nw.clsStart[v] + deg*deg
	}
	nw.label = make([]int32, len(under))
}

// uTail and uHead are the ends of underlying directed link d.
func (nw *Network) uTail(d int32) int32 { return nw.uEnds[d] }
func (nw *Network) uHead(d int32) int32 { return nw.uEnds[d^1] }

// under is the underlying directed link and component of channel c.
func (nw *Network) under(c int32) (d int32, k int32) { return nw.chanU[c], nw.chanK[c] }

// unreached returns a processor not reachable from 0, or -1.
func (nw *Network) unreached() int {
	seen := make([]bool, nw.n)
	seen[0] = true
	queue := []int32{0}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, d := range nw.uPort[nw.uStart[v]:nw.uStart[v+1]] {
			if w := nw.uHead(d); !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	for v, s := range seen {
		if !s {
			return v
		}
	}
	return -1
}

// buildChannels expands the links into channels and their port lists. With
// Merge, the k-th of several parallel links (in input order) supplies
// components k·Components … (k+1)·Components−1 of their underlying link.
func (nw *Network) buildChannels(links []Link) {
	n, m := nw.n, nw.comps
	nc := 2 * len(links) * m
	nw.tail = make([]int32, nc)
	nw.head = make([]int32, nc)
	nw.chanU = make([]int32, nc)
	nw.chanK = make([]int32, nc)
	rank := make([]int32, len(nw.label)) // parallel links seen so far per underlying link
	for i, l := range links {
		u := nw.linkU[i]
		flip := int32(0) // input link runs against its underlying link
		if nw.uEnds[2*u] != int32(l.A) {
			flip = 1
		}
		for k := 0; k < m; k++ {
			c := 2 * (i*m + k)
			nw.tail[c], nw.head[c] = int32(l.A), int32(l.B)
			nw.tail[c+1], nw.head[c+1] = int32(l.B), int32(l.A)
			nw.chanU[c], nw.chanU[c+1] = 2*u+flip, 2*u+1-flip
			nw.chanK[c] = rank[u]*int32(m) + int32(k)
			nw.chanK[c+1] = nw.chanK[c]
		}
		rank[u]++
	}
	nw.portStart = make([]int32, n+1)
	for _, v := range nw.tail {
		nw.portStart[v+1]++
	}
	for v := 0; v < n; v++ {
		nw.portStart[v+1] += nw.portStart[v]
	}
	nw.port = make([]int32, nc)
	nw.portIdx = make([]int32, nc)
	fill := append([]int32(nil), nw.portStart[:n]...)
	for c := range nw.tail { // ascending channel order per processor
		v := nw.tail[c]
		nw.portIdx[c] = fill[v] - nw.portStart[v]
		nw.port[fill[v]] = int32(c)
		fill[v]++
	}
}

// NumNodes returns the number of processors.
func (nw *Network) NumNodes() int { return nw.n }

// NumChannels returns the number of channels (2 × links × components).
func (nw *Network) NumChannels() int { return len(nw.tail) }

// Components returns the number of components per link.
func (nw *Network) Components() int { return nw.comps }

// Variant returns the variant the network was built with.
func (nw *Network) Variant() Variant { return nw.variant }

// Ends returns the processors channel c leaves and enters; ok is false when c
// is out of range.
func (nw *Network) Ends(c int) (from, to int, ok bool) {
	if c < 0 || c >= len(nw.tail) {
		return -1, -1, false
	}
	return int(nw.tail[c]), int(nw.head[c]), true
}

// Ports appends to buf the channels leaving processor v, in ascending order
// (the port order of the tables), and returns the extended slice; nothing
// is appended if v is out of range.
func (nw *Network) Ports(buf []int, v int) []int {
	if v < 0 || v >= nw.n {
		return buf
	}
	for _, c := range nw.port[nw.portStart[v]:nw.portStart[v+1]] {
		buf = append(buf, int(c))
	}
	return buf
}

// Colour returns the tree label of input link i (the colour of §2.4.4; with
// Merge, the colour of its underlying link), or -1 if i is out of range.
// Colour 0 is a spanning tree.
func (nw *Network) Colour(link int) int {
	if link < 0 || link >= nw.links {
		return -1
	}
	return int(nw.label[nw.linkU[link]])
}

// Colours returns the number of colours (trees) of the trivial colouring.
func (nw *Network) Colours() int {
	max := int32(-1)
	for _, l := range nw.label {
		if l > max {
			max = l
		}
	}
	return int(max) + 1
}

// Connect classifies the connect from channel in to channel out: c1 is the
// class rule C1 gave the connect between their underlying links (GOOD, BAD
// or UGLY), final is Good if a packet may take it in this network (after
// improvement and, for multilinks, rule C′) and Bad otherwise. Channels that
// do not meet at a processor give Bad, Bad.
func (nw *Network) Connect(in, out int) (c1, final Class) {
	if in < 0 || in >= len(nw.tail) || out < 0 || out >= len(nw.tail) || nw.head[in] != nw.tail[out] {
		return Bad, Bad
	}
	c1, final = nw.c1[nw.clsIndex(int32(in), int32(out))], Bad
	if nw.allowed(int32(in), int32(out)) {
		final = Good
	}
	return c1, final
}

// Counts returns the number of connects that C1 left UGLY and, for the
// improved variant, how many of them C2 made GOOD.
func (nw *Network) Counts() (ugly, improved int) { return nw.nUgly, nw.nImproved }

// clsIndex is the index into cls of the connect from channel in to channel
// out (which must meet at a processor), through their underlying links.
func (nw *Network) clsIndex(in, out int32) int32 {
	din, _ := nw.under(in)
	dout, _ := nw.under(out)
	j := nw.tail[out]
	deg := nw.uStart[j+1] - nw.uStart[j]
	return nw.clsStart[j] + nw.uIdx[din^1]*deg + nw.uIdx[dout]
}

// allowed reports whether a packet arriving on channel in may leave on out
// (rule C′, which reduces to C for one component).
func (nw *Network) allowed(in, out int32) bool {
	if nw.tail[in] == nw.head[out] { // turning back, also over a parallel link
		return false
	}
	_, a := nw.under(in)
	_, b := nw.under(out)
	if b != a {
		return b > a
	}
	return nw.cls[nw.clsIndex(in, out)] == Good
}
