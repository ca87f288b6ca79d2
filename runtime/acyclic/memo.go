package acyclic

import "sync"

// A simulation routes every packet hop by hop, and a random permutation
// has a packet in flight to every destination at once: more destinations
// than the distance cache holds, so looking each hop up in the cache would
// repeat a backward search per hop. A packet's hops all lie in the
// minimal-path graph from its source to its destination, which is small
// (tens of states where the distances span the whole network), so Memo
// keeps those instead: on a miss it takes the distances once and records
// the leaving channels of every state reachable from the one asked about.

// memoShards spreads destinations over independently locked shards, so
// that concurrent simulations rarely wait for each other.
const memoShards = 64

// maxClosure bounds the states recorded per miss; the rest are recorded
// when a packet reaches them.
const maxClosure = 1 << 12

// Memo answers [Network.Next] for a network routed on demand from the
// minimal-path graphs of the states asked about, in bounded memory. For a
// network with full tables it is the tables. It is safe for concurrent use
// and gives exactly the channels Next gives.
type Memo struct {
	nw     *Network
	limit  int64 // bytes per shard
	shards [memoShards]memoShard
}

type memoShard struct {
	mu sync.Mutex
	// at maps dst<<32 | state to its candidates' span {off, end} in cand;
	// a state is an arrival channel, or channels + v for injection at v.
	at    map[uint64][2]uint32
	cand  []int32
	bytes int64
	hits  int64
	miss  int64
	reset int64
}

// Bytes a recorded state costs: its map slot and a candidate or two.
const memoStateBytes = 32

// NewMemo returns a Memo for nw holding at most maxBytes of states (0
// means 64 MiB).
func NewMemo(nw *Network, maxBytes int64) *Memo {
	if maxBytes <= 0 {
		maxBytes = 64 << 20
	}
	m := &Memo{nw: nw, limit: max(maxBytes/memoShards, 1)}
	for i := range m.shards {
		m.shards[i].at = map[uint64][2]uint32{}
	}
	return m
}

// Next is [Network.Next].
func (m *Memo) Next(buf []int, v, dst, in int) []int {
	nw := m.nw
	if nw.cache == nil || v < 0 || v >= nw.n || dst < 0 || dst >= nw.n || v == dst ||
		in != Local && (in < 0 || in >= len(nw.head) || nw.head[in] != int32(v)) {
		return nw.Next(buf, v, dst, in)
	}
	key := uint64(dst)<<32 | uint64(m.state(v, in))
	sh := &m.shards[dst%memoShards]
	sh.mu.Lock()
	if span, ok := sh.at[key]; ok {
		for _, c := range sh.cand[span[0]:span[1]] {
			buf = append(buf, int(c))
		}
		sh.hits++
		sh.mu.Unlock()
		return buf
	}
	sh.miss++
	sh.mu.Unlock()
	return m.record(sh, buf, v, dst, in)
}

func (m *Memo) state(v, in int) uint32 {
	if in == Local {
		return uint32(len(m.nw.tail) + v)
	}
	return uint32(in)
}

// record computes the leaving channels of (v, in) and of every state
// reachable from it toward dst (up to maxClosure), records them in sh and
// appends those of (v, in) to buf.
func (m *Memo) record(sh *memoShard, buf []int, v, dst, in int) []int {
	nw := m.nw
	type st struct{ v, in int }
	queue := []st{{v, in}}
	seen := map[uint32]bool{m.state(v, in): true}
	var keys []uint64
	var offs []int32
	var cand []int32
	var next []int
	// Cached distances if there are any, else a search stopped at the
	// layer of (v, in): the states reachable from it are all closer.
	e := nw.cached(int32(dst))
	var sc *searchScratch
	var labelled []int32
	if e == nil {
		sc = nw.scratch()
		defer nw.cache.scratch.Put(sc)
		lo := nw.portStart[v]
		hi := nw.portStart[v+1]
		if in != Local {
			lo = nw.portStart[nw.tail[in]] + nw.portIdx[in]
			hi = lo + 1
		}
		labelled = searchUntil(nw.adj, int32(dst), sc.dist32, sc.queue, lo, hi)
		nw.cache.partial.Add(1)
		defer func() {
			for _, c := range labelled {
				sc.dist32[c] = 0
			}
			sc.queue = labelled[:0]
		}()
	}
	for q := 0; q < len(queue) && q < maxClosure; q++ {
		s := queue[q]
		if e != nil {
			next = nw.nextFromEntry(e, next[:0], s.v, s.in)
		} else {
			next = nextFrom(nw, sc.dist32, next[:0], int32(s.v), s.in)
		}
		if q == 0 {
			buf = append(buf, next...)
		}
		keys = append(keys, uint64(dst)<<32|uint64(m.state(s.v, s.in)))
		offs = append(offs, int32(len(cand)))
		for _, c := range next {
			cand = append(cand, int32(c))
			w := int(nw.head[c])
			if w != dst && !seen[uint32(c)] {
				seen[uint32(c)] = true
				queue = append(queue, st{w, c})
			}
		}
	}
	offs = append(offs, int32(len(cand)))
	cost := int64(len(keys))*memoStateBytes + int64(len(cand))*4
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.bytes+cost > m.limit {
		// Forget the shard: simpler than tracking recency per state, and
		// whatever is still needed is recorded again on its next miss.
		clear(sh.at)
		sh.cand, sh.bytes = sh.cand[:0], 0
		sh.reset++
	}
	for i, k := range keys {
		if _, ok := sh.at[k]; ok {
			continue
		}
		off := uint32(len(sh.cand))
		sh.cand = append(sh.cand, cand[offs[i]:offs[i+1]]...)
		sh.at[k] = [2]uint32{off, uint32(len(sh.cand))}
	}
	sh.bytes += cost
	return buf
}

// MemoStats are a Memo's counters.
type MemoStats struct {
	// Hits counts states answered from the memo, Misses those computed
	// (each miss records the states reachable from it), Resets the shards
	// forgotten to stay within the memory bound.
	Hits, Misses, Resets int64
	// States is the number of states recorded now.
	States int
}

// MaxBytes is the bound on the states the memo holds.
func (m *Memo) MaxBytes() int64 { return m.limit * memoShards }

// Stats returns the memo's counters.
func (m *Memo) Stats() MemoStats {
	var s MemoStats
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		s.Hits += sh.hits
		s.Misses += sh.miss
		s.Resets += sh.reset
		s.States += len(sh.at)
		sh.mu.Unlock()
	}
	return s
}
