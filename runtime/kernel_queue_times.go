package runtime

import (
	"math"
	"unsafe"
)

// timeLists holds pending events as one list per distinct time. Times
// cluster on few values (sums of a few latencies and transmission times:
// a random permutation on a 256×256 torus pushes 17 M events at 132,000
// distinct times, a few hundred pending at once), and events arrive in
// sequence order, so each list is already in (time, sequence) order: a
// push appends to its time's list, most often the one the last push went
// to (pushLast), else found by hashing the time, and a pop
// takes the next event of the earliest list, the root of a heap of the
// lists by time. No event is compared, copied or sorted on the way. It
// gives up (push reports false) past max distinct times, on a NaN time, or
// when sequences do not ascend; the queue then keeps its events in its
// heap or ladder.
//
// A list's events lie in chunks, which do not move once made, so the
// list being popped is read through a pointer to its head chunk.
type timeLists struct {
	cc      *chunk // the earliest list's head chunk (nil: no list)
	hd      int32  // the next event to pop in cc
	nc      *chunk // the next list's head chunk, once ahead has looked (nil: not yet)
	nhd     int32  // and its next event
	lists   []timeList
	free    []int32   // ids of retired lists
	heap    []listRef // pending lists, a 4-ary min-heap by time
	table   []int32   // list id + 1 by time, open addressing; at least twice as many slots as lists
	shift   uint      // 64 - log2(len(table))
	spare   *chunk    // free chunks, linked by next
	max     int       // distinct times held at most
	lastSeq uint64
	// last is the list the last push appended to: pushes come in runs to
	// one time (a link's latency after now), and a retired list's time is
	// NaN, so a match is always the live list for that time.
	last int32
}

// timeList is the pending events at time t: the chunks from head to
// tail, from index hd of head (while it is not the earliest list; then
// timeLists.cc and hd stand for head and hd).
type timeList struct {
	t          float64
	head, tail *chunk
	hd         int32
	slot       int32 // where table holds this list's id + 1
}

// chunkEvents fills a chunk to 1,536 bytes, one of Go's size classes.
const chunkEvents = 63

// chunk is a run of a list's events. Its count and link come first, in
// the line with its first events: a list of a few events touches one or
// two lines of it, not its last line too.
type chunk struct {
	n    int32 // events written
	next *chunk
	ev   [chunkEvents]event
}

// maxListTimes is the most distinct pending times the lists hold (a
// random permutation on a 1024×1024 torus reaches 3,800 with lanes that
// do not share wires, and more than 16,384 with its two lanes sharing
// them, whose times carry the sharing's rounding: past the bound the
// queue turns into a ladder, 2.25 GB and 105 s CPU where the lists take
// 1.05 GB and 86 s).
// table starts at minTable slots and doubles to stay at least twice the
// lists, so probes stay short, and a small network's few times touch
// little memory.
const (
	maxListTimes = 1 << 17
	minTableBits = 6
	minTable     = 1 << minTableBits
)

func (l *timeLists) reset() {
	if l.table == nil {
		l.table, l.shift = make([]int32, minTable), 64-minTableBits
		// List 0 is never used: it stands for last until a push sets it,
		// its time NaN so that no event matches it.
		l.lists = append(l.lists, timeList{t: math.NaN()})
	}
	l.save()
	for _, h := range l.heap {
		l.retire(h.id)
	}
	l.heap, l.cc, l.hd, l.nc, l.lastSeq = l.heap[:0], nil, 0, nil, 0
}

// home is time t's first slot in table (+0 and -0 alike: t+0 is +0).
func (l *timeLists) home(t float64) int32 {
	return int32((math.Float64bits(t+0) * 0x9e3779b97f4a7c15) >> l.shift)
}

func (l *timeLists) push(e event) bool {
	if e.seq < l.lastSeq || e.t != e.t {
		return false
	}
	mask := int32(len(l.table) - 1)
	i := l.home(e.t)
	for {
		c := l.table[i]
		if c == 0 {
			break
		}
		if tl := &l.lists[c-1]; tl.t == e.t {
			l.last = c - 1
			l.append(tl, e)
			return true
		}
		i = (i + 1) & mask
	}
	if len(l.heap) >= l.max {
		return false
	}
	if 2*(len(l.heap)+1) > len(l.table) {
		l.grow()
		i = l.freeSlot(e.t)
	}
	var id int32
	if n := len(l.free); n > 0 {
		id, l.free = l.free[n-1], l.free[:n-1]
	} else {
		id = int32(len(l.lists))
		l.lists = append(l.lists, timeList{})
	}
	c := l.newChunk()
	tl := &l.lists[id]
	*tl = timeList{t: e.t, head: c, tail: c, slot: i}
	l.table[i] = id + 1
	l.last = id
	l.append(tl, e)
	l.heapPush(id)
	return true
}

// pushLast is push's commonest case, small enough to inline into the
// simulator's push: e goes to the list the last push went to, whose last
// chunk has room. It is false when push has to decide.
func (l *timeLists) pushLast(e *event) bool {
	tl := &l.lists[l.last]
	c := tl.tail
	if tl.t != e.t || e.seq < l.lastSeq || c.n == chunkEvents {
		return false
	}
	c.ev[c.n] = *e
	c.n++
	l.lastSeq = e.seq
	return true
}

func (l *timeLists) append(tl *timeList, e event) {
	c := tl.tail
	if c.n == chunkEvents {
		c.next = l.newChunk()
		c = c.next
		tl.tail = c
	}
	c.ev[c.n] = e
	c.n++
	l.lastSeq = e.seq
}

func (l *timeLists) newChunk() *chunk {
	c := l.spare
	if c == nil {
		return new(chunk)
	}
	l.spare = c.next
	c.n, c.next = 0, nil
	return c
}

// pop removes the first pending event; there must be one.
func (l *timeLists) pop() event {
	if c := l.cc; c != nil && l.hd < c.n {
		e := c.ev[l.hd]
		l.hd++
		return e
	}
	l.settle()
	e := l.cc.ev[l.hd]
	l.hd++
	return e
}

// settle makes cc and hd point at the first pending event: past a full
// head chunk to the next, or past an exhausted list to the next earliest.
func (l *timeLists) settle() {
	for c := l.cc; c != nil && l.hd == c.n; c = l.cc {
		if c.n == chunkEvents && c.next != nil {
			l.cc, l.hd = c.next, 0
			c.next, l.spare = l.spare, c
			l.cc.fetch()
			continue
		}
		id := l.heap[0].id
		l.lists[id].head = c
		l.heap = popList(l.heap)
		l.retire(id)
		l.load()
	}
}

// load makes the heap's root the list cc and hd read.
func (l *timeLists) load() {
	l.nc = nil
	if len(l.heap) == 0 {
		l.cc, l.hd = nil, 0
		return
	}
	tl := &l.lists[l.heap[0].id]
	l.cc, l.hd = tl.head, tl.hd
	l.cc.fetch()
}

// fetch asks for a chunk's events ahead of their pops: they were written
// long before (hundreds of thousands of events on a large network), so
// they are no longer in the nearer caches, and a list is too short for
// the processor to see the stream.
func (c *chunk) fetch() {
	prefetchSpan(uintptr(unsafe.Pointer(c)), unsafe.Offsetof(c.ev)+uintptr(c.n)*unsafe.Sizeof(event{}))
	if c.next != nil {
		// The first events of the chunk after, which touchAhead reads
		// that many events before they are popped.
		prefetchSpan(uintptr(unsafe.Pointer(c.next)), unsafe.Offsetof(c.ev)+touchDistance*unsafe.Sizeof(event{}))
	}
}

// save writes cc and hd back to the list they read.
func (l *timeLists) save() {
	if l.cc != nil {
		tl := &l.lists[l.heap[0].id]
		tl.head, tl.hd = l.cc, l.hd
	}
}

// peek is the pending event d places after the next where that is in the
// chunk being popped, nil otherwise: ahead's common case, small enough to
// inline.
func (l *timeLists) peek(d int) *event {
	if c, i := l.cc, l.hd+int32(d); c != nil && i < c.n {
		return &c.ev[i]
	}
	return nil
}

// aheadFar is the pending event d places after the next where that is
// past the earliest list's head chunk: in the chunk after, or, past the
// list's end, in the next list's head chunk once that list is known;
// nil otherwise (and on the call that finds that list, which only
// fetches its head chunk).
func (l *timeLists) aheadFar(d int) *event {
	c, i := l.cc, l.hd+int32(d)
	if c.n == chunkEvents && c.next != nil {
		c, i = c.next, i-chunkEvents
		if i < c.n {
			return &c.ev[i]
		}
		if c.n == chunkEvents {
			return nil // the list goes on
		}
	}
	if l.nc == nil {
		// The next list's head chunk is fetched now; reading it at once
		// would wait for it (a cache miss a list on a large network), so
		// the events there are looked at from the next call on.
		l.findNext()
		return nil
	}
	if i += l.nhd - c.n; i < l.nc.n {
		return &l.nc.ev[i]
	}
	return nil
}

// findNext sets nc and nhd to the head of the list after the earliest,
// the earliest of the heap root's children, and fetches its first events
// without reading the chunk (its count, read at once, was a cache miss
// a list on a large network: 4% of a 512×512 burst's samples).
func (l *timeLists) findNext() bool {
	h := l.heap
	if len(h) < 2 {
		return false
	}
	m := 1
	if len(h) >= 5 {
		i, _ := least4(h[1:5])
		m += i
	} else {
		for k := 2; k < len(h); k++ {
			if h[k].key < h[m].key {
				m = k
			}
		}
	}
	tl := &l.lists[h[m].id]
	l.nc, l.nhd = tl.head, tl.hd
	const size = unsafe.Sizeof(event{})
	prefetchSpan(uintptr(unsafe.Pointer(tl.head)), unsafe.Offsetof(tl.head.ev)+uintptr(min(tl.hd+16, chunkEvents))*size)
	return true
}

// retire frees list id's chunks and slot; it must be out of the heap.
func (l *timeLists) retire(id int32) {
	tl := &l.lists[id]
	tl.tail.next, l.spare = l.spare, tl.head
	l.unslot(tl.slot)
	tl.t, tl.head, tl.tail = math.NaN(), nil, nil
	l.free = append(l.free, id)
}

// freeSlot is the empty slot time t's probe from its home reaches
// (t must have no list).
func (l *timeLists) freeSlot(t float64) int32 {
	mask := int32(len(l.table) - 1)
	i := l.home(t)
	for l.table[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// grow doubles table and places every pending list anew.
func (l *timeLists) grow() {
	l.table = make([]int32, 2*len(l.table))
	l.shift--
	for _, h := range l.heap {
		i := l.freeSlot(l.lists[h.id].t)
		l.table[i] = h.id + 1
		l.lists[h.id].slot = i
	}
}

// unslot empties table slot i, moving later entries of its probe run back
// so that every entry stays reachable from its home (Knuth's deletion for
// linear probing).
func (l *timeLists) unslot(i int32) {
	mask := int32(len(l.table) - 1)
	l.table[i] = 0
	for j := (i + 1) & mask; l.table[j] != 0; j = (j + 1) & mask {
		c := l.table[j]
		h := l.home(l.lists[c-1].t)
		// The entry at j stays when its home lies cyclically in (i, j].
		if i <= j && i < h && h <= j || j < i && (i < h || h <= j) {
			continue
		}
		l.table[i], l.table[j] = c, 0
		l.lists[c-1].slot = i
		i = j
	}
}

// heapPush adds list id to the heap; a list earlier than the one being
// popped (a time before it, or the first) becomes the one cc reads.
func (l *timeLists) heapPush(id int32) {
	l.nc = nil
	l.save()
	l.heap = pushList(l.heap, listRef{key: timeKey(l.lists[id].t), id: id})
	if l.heap[0].id == id {
		l.load()
	}
}

// drain hands every pending event to f, in no particular order, and
// empties the lists.
func (l *timeLists) drain(f func(event)) {
	l.save()
	for _, h := range l.heap {
		tl := &l.lists[h.id]
		for c, i := tl.head, tl.hd; c != nil; c, i = c.next, 0 {
			for ; i < c.n; i++ {
				f(c.ev[i])
			}
		}
	}
	l.reset()
}

// listRef is a pending list in the lists' heap: its time as an integer
// of the same order (timeKey) and its id. No two lists have one time, so
// the heap orders them by key alone, where heapPush4's order on events
// adds a test of sequences at every step; integers let the compiler pick
// the least of four siblings without branches (conditional moves), where
// the float comparisons were jumps that random times mispredict; and in
// 16 bytes, four siblings take one or two cache lines where events took
// two or three.
type listRef struct {
	key uint64
	id  int32
}

// timeKey maps a time that is not NaN to an unsigned integer in the same
// order (its bits, the sign flipped for a positive time and all of them
// for a negative one; -0 comes just below +0, which share a list).
func timeKey(t float64) uint64 {
	b := math.Float64bits(t)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// pushList adds r to h, a 4-ary min-heap by key.
func pushList(h []listRef, r listRef) []listRef {
	h = append(h, r)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if r.key >= h[p].key {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = r
	return h
}

// popList removes the earliest list of h, which must not be empty. A
// node's four children are compared at once (least4), without a jump
// that depends on the times: on the 256×256 torus burst (251,473 lists)
// the heap's pops took 131 M instructions and 3.1 M mispredicted branches
// as heapPop4 on events, 106 M and 0.34 M so.
func popList(h []listRef) []listRef {
	n := len(h) - 1
	r := h[n]
	h = h[:n]
	if n == 0 {
		return h
	}
	i := 0
	for {
		c := 4*i + 1
		if c+4 > n {
			// The last level: fewer than four children, or none.
			if c < n {
				m := c
				for k := c + 1; k < n; k++ {
					if h[k].key < h[m].key {
						m = k
					}
				}
				if h[m].key < r.key {
					h[i] = h[m]
					i = m
				}
			}
			break
		}
		m, k := least4(h[c : c+4 : c+4])
		if k >= r.key {
			break
		}
		h[i] = h[c+m]
		i = c + m
	}
	h[i] = r
	return h
}

// least4 is the place and key of the least of four lists, found by a
// tournament of pairs in conditional moves.
func least4(s []listRef) (int, uint64) {
	s = s[:4:4]
	a, b, d, e := s[0].key, s[1].key, s[2].key, s[3].key
	m, k := b2i(b < a), min(a, b)
	m2, k2 := 2+b2i(e < d), min(d, e)
	m ^= (m ^ m2) & -b2i(k2 < k)
	return m, min(k, k2)
}

// b2i is 1 for true, 0 for false (a flag set, not a jump).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
