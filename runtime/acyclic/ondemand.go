package acyclic

import (
	"math"
	"sync"
	"sync/atomic"
)

// Routing on demand. The full tables cost one bit per (destination,
// processor, arrival, leaving channel), Θ(n²·d²): 10 GiB at 65,536
// processors of degree 4. A route for destination d needs only the distance
// to d of each channel in (L, C), which the backward search of the table
// build computes in O(channels + connects); the leaving channels follow from
// the distances exactly as the tables are filled (fill), so both modes give
// the same routes. Networks whose tables exceed Options.FullTableBytes keep
// the connects and a bounded cache of per-destination distances instead.

// Defaults of the on-demand mode's memory.
const (
	defaultFullTableBytes = 256 << 20
	defaultCacheBytes     = 64 << 20
)

// distEntry holds one destination's distances, 16-bit when they fit.
// Entries are immutable once cached; an evicted entry is dropped, not
// reused, so a reader never sees it change.
type distEntry struct {
	dst  int32
	d16  []uint16
	d32  []uint32
	ref  atomic.Bool  // clock bit: used since the hand last passed
	hits atomic.Int64 // lookups answered by this entry
}

// distCache is a clock cache of distance arrays by destination. A lookup
// first tries a direct-mapped array of entries without locking or writing
// shared memory (a worker usually asks about one destination many times
// in a row), then the locked index.
type distCache struct {
	direct []atomic.Pointer[distEntry] // by destination mod its length
	mu     sync.Mutex
	index  map[int32]int32 // destination -> slot
	slots  []*distEntry
	hand   int
	// capacity, and the hits of evicted entries
	entries     int
	evictedHits int64

	scratch sync.Pool // *searchScratch

	searches, partial atomic.Int64
}

type searchScratch struct {
	queue  []int32
	dist32 []uint32
}

func newDistCache(entries int) *distCache {
	return &distCache{direct: make([]atomic.Pointer[distEntry], entries),
		index: make(map[int32]int32, entries), entries: entries}
}

// hit marks e used; it writes only when the clock bit is clear, so that
// workers reading one entry do not contend for its cache line.
func (e *distEntry) hit() *distEntry {
	if !e.ref.Load() {
		e.ref.Store(true)
	}
	e.hits.Add(1)
	return e
}

// distancesTo returns the distances to d, searching on a miss. Two callers
// missing the same destination at once both search (the results are equal).
func (nw *Network) distancesTo(d int32) *distEntry {
	if e := nw.cached(d); e != nil {
		return e
	}
	c := nw.cache
	slot := &c.direct[int(d)%len(c.direct)]
	e := nw.search(d)
	c.searches.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.index[d]; ok {
		return c.slots[s]
	}
	slot.Store(e)
	if len(c.slots) < c.entries {
		c.index[d] = int32(len(c.slots))
		c.slots = append(c.slots, e)
		return e
	}
	for c.slots[c.hand].ref.Swap(false) {
		c.hand = (c.hand + 1) % len(c.slots)
	}
	old := c.slots[c.hand]
	c.direct[int(old.dst)%len(c.direct)].CompareAndSwap(old, nil)
	c.evictedHits += old.hits.Load()
	delete(c.index, old.dst)
	c.index[d] = int32(c.hand)
	c.slots[c.hand] = e
	c.hand = (c.hand + 1) % len(c.slots)
	return e
}

// cached returns the cached distances to d, or nil.
func (nw *Network) cached(d int32) *distEntry {
	c := nw.cache
	slot := &c.direct[int(d)%len(c.direct)]
	if e := slot.Load(); e != nil && e.dst == d {
		return e.hit()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.index[d]; ok {
		e := c.slots[s]
		slot.Store(e)
		return e.hit()
	}
	return nil
}

// searchUntil is the backward search to d stopped as soon as the channels
// in slots [lo, hi) that it reaches first all have their distance: every
// channel closer to d than they are has its distance too, farther ones
// are left 0. It returns the slots it labelled, for the caller to clear.
// A random graph's searches reach most channels only in their last
// layers, which a route from a processor of average distance never needs.
func searchUntil(a *adjacency, d int32, dist []uint32, queue []int32, lo, hi int32) []int32 {
	nw := a.nw
	queue = queue[:0]
	far := uint32(0) // distance of the first target reached; 0 before
	for s := nw.portStart[d]; s < nw.portStart[d+1]; s++ {
		in := a.rev[s]
		dist[in] = 1
		queue = append(queue, in)
		if in >= lo && in < hi {
			far = 1
		}
	}
	for q := 0; q < len(queue); q++ {
		m := queue[q]
		if far != 0 && dist[m] >= far {
			break // every channel at distance far is labelled
		}
		for _, c := range a.pred[a.predStart[m]:a.predStart[m+1]] {
			if dist[c] == 0 {
				dist[c] = dist[m] + 1
				queue = append(queue, c)
				if far == 0 && c >= lo && c < hi {
					far = dist[c]
				}
			}
		}
	}
	return queue
}

// search runs the backward search to d into a fresh entry.
func (nw *Network) search(d int32) *distEntry {
	nc := len(nw.tail)
	sc := nw.scratch()
	defer nw.cache.scratch.Put(sc)
	if nc < math.MaxUint16 {
		e := &distEntry{dst: d, d16: make([]uint16, nc)}
		distances(nw.adj, d, e.d16, sc.queue)
		return e
	}
	distances(nw.adj, d, sc.dist32, sc.queue)
	defer clear(sc.dist32) // searchUntil expects a cleared array
	far := uint32(0)
	for _, x := range sc.dist32 {
		far = max(far, x)
	}
	if far < math.MaxUint16 {
		e := &distEntry{dst: d, d16: make([]uint16, nc)}
		for i, x := range sc.dist32 {
			e.d16[i] = uint16(x)
		}
		return e
	}
	return &distEntry{dst: d, d32: append([]uint32(nil), sc.dist32...)}
}

// scratch returns a search's work arrays; dist32 is all zero.
func (nw *Network) scratch() *searchScratch {
	sc, _ := nw.cache.scratch.Get().(*searchScratch)
	if sc == nil {
		nc := len(nw.tail)
		sc = &searchScratch{queue: make([]int32, 0, nc), dist32: make([]uint32, nc)}
	}
	return sc
}

// nextOnDemand is Next without tables: the leaving channels of processor v
// (≠ dst) for dst after arrival on in (Local at the source), from the
// distances to dst, chosen as fill chooses the tables' bits.
func (nw *Network) nextOnDemand(buf []int, v, dst, in int) []int {
	return nw.nextFromEntry(nw.distancesTo(int32(dst)), buf, v, in)
}

func (nw *Network) nextFromEntry(e *distEntry, buf []int, v, in int) []int {
	if e.d16 != nil {
		return nextFrom(nw, e.d16, buf, int32(v), in)
	}
	return nextFrom(nw, e.d32, buf, int32(v), in)
}

func nextFrom[T distance](nw *Network, dist []T, buf []int, v int32, in int) []int {
	ps, pe := nw.portStart[v], nw.portStart[v+1]
	out := dist[ps:pe]
	if in == Local {
		var least T
		for _, x := range out {
			if x > 0 && (least == 0 || x < least) {
				least = x
			}
		}
		if least == 0 {
			return buf
		}
		for b, x := range out {
			if x == least {
				buf = append(buf, int(nw.port[ps+int32(b)]))
			}
		}
		return buf
	}
	a := nw.adj
	i := ps + nw.portIdx[in^1] // the port whose reverse is the arrival
	d := dist[a.rev[i]]
	if d <= 1 {
		return buf
	}
	for _, b := range a.succ[a.succStart[i]:a.succStart[i+1]] {
		if out[b] == d-1 {
			buf = append(buf, int(nw.port[ps+b]))
		}
	}
	return buf
}

// OnDemand reports whether the network routes from cached distances
// instead of full tables (see Options.FullTableBytes).
func (nw *Network) OnDemand() bool { return nw.cache != nil }

// CacheStats are the counters of the on-demand distance cache.
type CacheStats struct {
	// Entries is the capacity of the cache in destinations, EntryBytes the
	// size of one entry (16-bit distances per channel).
	Entries    int
	EntryBytes int64
	// Hits counts lookups answered from the cache, Searches the backward
	// searches run on misses, Partial those a Memo stopped where its
	// packet's distance was reached (not cached).
	Hits, Searches, Partial int64
}

// CacheStats returns the distance cache's counters (zero for full tables).
func (nw *Network) CacheStats() CacheStats {
	if nw.cache == nil {
		return CacheStats{}
	}
	c := nw.cache
	c.mu.Lock()
	hits := c.evictedHits
	for _, e := range c.slots {
		hits += e.hits.Load()
	}
	c.mu.Unlock()
	return CacheStats{Entries: c.entries, EntryBytes: 2 * int64(len(nw.tail)),
		Hits: hits, Searches: c.searches.Load(), Partial: c.partial.Load()}
}

// RoutingBytes is the memory of the routing state: the full tables, or
// the connects and the distance cache's capacity when routing on demand.
func (nw *Network) RoutingBytes() int64 {
	if nw.cache == nil {
		return nw.TableBytes()
	}
	a := nw.adj
	connects := int64(len(a.rev) + len(a.succStart) + len(a.succ) + len(a.predStart) + len(a.pred))
	return 4*connects + int64(nw.cache.entries)*2*int64(len(nw.tail))
}

// adjacencyBytes estimates the memory of the connects kept for searches.
func (nw *Network) adjacencyBytes(connects int64) int64 {
	nc := int64(len(nw.tail))
	return 4 * (3*nc + 2 + 2*connects)
}
