package runtime

import (
	"unsafe"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/collective"
)

// matchQueues are one rank's queues of messages in, by key (matchKey):
// the first in a place of their own, the others in a map made when
// there are two at once. Most ranks of a collective have one message in
// at a time, if any: a map each made 12 MB at 65,536 ranks.
type matchQueues struct {
	k    int64
	q    queue
	one  bool // k and q hold a queue
	more map[int64]queue
}

// get is queue k, if there is one.
func (m *matchQueues) get(k int64) (queue, bool) {
	if m.one && m.k == k {
		return m.q, true
	}
	if len(m.more) == 0 {
		return queue{}, false
	}
	q, ok := m.more[k]
	return q, ok
}

// put makes q queue k.
func (m *matchQueues) put(k int64, q queue) {
	if m.one && m.k == k {
		m.q = q
		return
	}
	if _, in := m.more[k]; !m.one && !in {
		m.k, m.q, m.one = k, q, true
		return
	}
	if m.more == nil {
		m.more = map[int64]queue{}
	}
	m.more[k] = q
}

// del removes queue k.
func (m *matchQueues) del(k int64) {
	if m.one && m.k == k {
		m.one = false
		return
	}
	delete(m.more, k)
}

// empty tells whether there is no queue.
func (m *matchQueues) empty() bool { return !m.one && len(m.more) == 0 }

// each calls f with every queue and its key.
func (m *matchQueues) each(f func(k int64, q queue)) {
	if m.one {
		f(m.k, m.q)
	}
	for k, q := range m.more {
		f(k, q)
	}
}

// postedTable holds every rank's queues of posted receives, by rank and
// matching key (matchKey), in one open-addressed table: a message in
// looks up its own key (and, while its rank has receives of any source
// or tag posted, the wildcard keys), and nothing walks a rank's posted
// queues, so they need no table of their own. Maps a rank were a tenth
// of a 4,096-rank allreduce's simulation, which posts 24 receives a rank
// at the start. Linear probing, at most half full, removal by moving
// back the entries after it (no tombstones).
type postedTable struct {
	e    []postedEntry
	mask uint32
	n    int
}

// postedEntry is one queue of postedTable; rank1 is its rank plus one,
// 0 for a free place.
type postedEntry struct {
	rank1 int32
	k     int64
	q     queue
}

// newPostedTable has room for n queues before it grows.
func newPostedTable(n int) postedTable {
	c := 16
	for c < 2*n {
		c *= 2
	}
	return postedTable{e: hugepages.Make[postedEntry](c, c), mask: uint32(c - 1)}
}

// home is where queue (r, k) is looked for first.
func (t *postedTable) home(r int32, k int64) uint32 {
	h := (uint64(uint32(r))<<32 ^ uint64(k) ^ uint64(k)>>29) * 0x9e3779b97f4a7c15
	return uint32(h>>32) & t.mask
}

// at is where queue (r, k) is looked for first, to fetch ahead.
func (t *postedTable) at(r int32, k int64) *postedEntry { return &t.e[t.home(r, k)] }

// find is the place of queue (r, k), or -1.
func (t *postedTable) find(r int32, k int64) int {
	for i := t.home(r, k); ; i = (i + 1) & t.mask {
		e := &t.e[i]
		if e.rank1 == 0 {
			return -1
		}
		if e.rank1 == r+1 && e.k == k {
			return int(i)
		}
	}
}

// get is queue (r, k), if there is one.
func (t *postedTable) get(r int32, k int64) (queue, bool) {
	if i := t.find(r, k); i >= 0 {
		return t.e[i].q, true
	}
	return queue{}, false
}

// put makes q queue (r, k).
func (t *postedTable) put(r int32, k int64, q queue) {
	if i := t.find(r, k); i >= 0 {
		t.e[i].q = q
		return
	}
	if 2*(t.n+1) > len(t.e) {
		t.grow()
	}
	i := t.home(r, k)
	for t.e[i].rank1 != 0 {
		i = (i + 1) & t.mask
	}
	t.e[i] = postedEntry{rank1: r + 1, k: k, q: q}
	t.n++
}

// del removes queue (r, k), which is there, and moves back the entries
// after it that would otherwise not be found.
func (t *postedTable) del(r int32, k int64) {
	i := uint32(t.find(r, k))
	for j := (i + 1) & t.mask; t.e[j].rank1 != 0; j = (j + 1) & t.mask {
		// The entry at j may fill the hole at i unless its home lies
		// cyclically in (i, j].
		if h := t.home(t.e[j].rank1-1, t.e[j].k); (j-h)&t.mask >= (j-i)&t.mask {
			t.e[i] = t.e[j]
			i = j
		}
	}
	t.e[i] = postedEntry{}
	t.n--
}

// grow doubles the table.
func (t *postedTable) grow() {
	old := t.e
	t.e, t.mask = hugepages.Make[postedEntry](2*len(old), 2*len(old)), uint32(2*len(old)-1)
	for _, e := range old {
		if e.rank1 != 0 {
			i := t.home(e.rank1-1, e.k)
			for t.e[i].rank1 != 0 {
				i = (i + 1) & t.mask
			}
			t.e[i] = e
		}
	}
}

// maxListed is the most receives a rank may have for its posted receives
// to be listed in order of posting (listedRecv) rather than kept in the
// table (postedTable): a message in looks through its receiver's list
// for the first receive that accepts it, which is the one the table's
// queues would give, and never looks at more than maxListed entries.
// The table's place of a receive was a cache miss where a rank's list is
// one or two lines: a collective's ranks post their receives rank after
// rank, in order, and take them off most often from the front.
const maxListed = 64

// listedRecv is a posted receive in its rank's list: the operation (-1
// once matched) and what it accepts.
type listedRecv struct{ op, src, tag int32 }

// listedRecvBytes is a receive's place in its rank's list.
const listedRecvBytes = int64(unsafe.Sizeof(listedRecv{}))

// placePosted gives each rank of recvs[r] receives at most maxListed a
// list of that many places in p.listed, one for each of its receives
// (each is posted once, so a list never needs more room and is never
// moved), and keeps the posted receives of the others in p.posted, with
// room for those of theirs that wait for nothing (c.freeRecvs).
func (p *progRun) placePosted(recvs []int32, c opCounts) {
	p.listed = make([]listedRecv, c.listed)
	at := int32(0)
	for r, n := range recvs {
		rs := &p.ranks[r]
		if n > maxListed {
			rs.head, p.tabled = -1, true
			continue
		}
		rs.head, rs.tail = at, at
		at += n
	}
	p.posted = newPostedTable(int(c.freeRecvs))
}

// postListed puts receive op i, from src with tag, at the end of the
// list of rank state rs.
func (p *progRun) postListed(rs *rankState, i, src, tag int32) {
	p.listed[rs.tail] = listedRecv{op: i, src: src, tag: tag}
	rs.tail++
}

// matchListed takes off the list of rank state rs, and returns, the
// first receive posted that accepts a message from src with tag; -1 if
// none does.
func (p *progRun) matchListed(rs *rankState, src, tag int32) int32 {
	for j := rs.head; j < rs.tail; j++ {
		e := &p.listed[j]
		if e.op < 0 || e.src != src && e.src != lang.AnyRank || !collective.TagMatches(e.tag, tag) {
			continue
		}
		op := e.op
		e.op = -1
		if j == rs.head {
			for rs.head++; rs.head < rs.tail && p.listed[rs.head].op < 0; rs.head++ {
			}
		}
		return op
	}
	return -1
}
