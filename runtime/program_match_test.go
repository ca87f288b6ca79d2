package runtime

import (
	"maps"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// The posted receives' table holds what a map by rank and key holds,
// through random puts and removals of keys of a few ranks, growing from
// its least size (removals in the middle of a run of probes move the
// entries after them back).
func TestPostedTableHoldsWhatAMapHolds(t *testing.T) {
	type rk struct {
		r int32
		k int64
	}
	rng := topo.NewRand(11)
	tab := newPostedTable(0)
	want := map[rk]queue{}
	for step := range 5000 {
		x := rk{int32(rng.Intn(9)), matchKey(int32(rng.Intn(12))-1, int32(rng.Intn(3))-1)}
		if _, ok := want[x]; ok && rng.Intn(3) == 0 {
			tab.del(x.r, x.k)
			delete(want, x)
		} else {
			q := queue{int32(step), int32(rng.Intn(100))}
			tab.put(x.r, x.k, q)
			want[x] = q
		}
		got := map[rk]queue{}
		for _, e := range tab.e {
			if e.rank1 != 0 {
				got[rk{e.rank1 - 1, e.k}] = e.q
			}
		}
		if !maps.Equal(got, want) || tab.n != len(want) {
			t.Fatalf("step %d: holds %v (n %d), want %v", step, got, tab.n, want)
		}
		for x, q := range want {
			if g, ok := tab.get(x.r, x.k); !ok || g != q {
				t.Fatalf("step %d: get(%d, %x) = %v, %v; want %v", step, x.r, x.k, g, ok, q)
			}
		}
		if _, ok := tab.get(3, matchKey(50, 0)); ok {
			t.Fatalf("step %d: a key never put is found", step)
		}
	}
}

// A rank's matching queues hold what a map of them holds, through random
// puts and removals of a few keys (the first in its own place, the
// others in a map, a key moving between them as others come and go).
func TestMatchQueuesHoldWhatAMapHolds(t *testing.T) {
	rng := topo.NewRand(7)
	var m matchQueues
	want := map[int64]queue{}
	for step := range 2000 {
		k := matchKey(int32(rng.Intn(4))-1, int32(rng.Intn(3))-1)
		if _, ok := want[k]; ok && rng.Intn(2) == 0 {
			m.del(k)
			delete(want, k)
		} else {
			q := queue{int32(step), int32(rng.Intn(100))}
			m.put(k, q)
			want[k] = q
		}
		got := map[int64]queue{}
		m.each(func(k int64, q queue) {
			if _, twice := got[k]; twice {
				t.Fatalf("step %d: key %x given twice", step, k)
			}
			got[k] = q
		})
		if !maps.Equal(got, want) {
			t.Fatalf("step %d: holds %v, want %v", step, got, want)
		}
		if m.empty() != (len(want) == 0) {
			t.Fatalf("step %d: empty() = %v with %d queues", step, m.empty(), len(want))
		}
		for k, q := range want {
			if g, ok := m.get(k); !ok || g != q {
				t.Fatalf("step %d: get(%x) = %v, %v; want %v", step, k, g, ok, q)
			}
		}
		if _, ok := m.get(matchKey(9, 9)); ok {
			t.Fatalf("step %d: a key never put is found", step)
		}
	}
}

// A rank that lists its posted receives (placePosted) matches a message
// to the receive the table's queues give a rank of more receives, and
// both to the first posted that accepts it, looked for by hand: through
// random postings and messages of a few sources and tags, wildcards
// among them, taken off the front and from the middle, in runs of
// maxListed receives.
func TestListedReceivesMatchAsTheTableDoes(t *testing.T) {
	const posts = maxListed
	rng := topo.NewRand(5)
	for run := range 200 {
		x := &lang.Schedule{Ranks: 2, Ops: make([]lang.SchedOp, 2*posts), RankStart: []int32{0, posts, 2 * posts}}
		p := &progRun{x: x, node: make([]int32, 4), ranks: make([]rankState, 2), ops: make([]opState, 2*posts)}
		// Rank 0 as of one receive more than are listed, rank 1 as of posts.
		p.placePosted([]int32{posts + 1, posts}, opCounts{listed: posts, freeRecvs: posts + 1})
		if p.ranks[0].head != -1 || p.ranks[1].head != 0 {
			t.Fatalf("ranks placed at %d and %d", p.ranks[0].head, p.ranks[1].head)
		}
		type recv struct{ op, src, tag int32 }
		var want []recv // rank 1's receives posted, by hand
		next := int32(0)
		for step := range 3 * posts {
			if next < posts && rng.Intn(2) == 0 {
				op := lang.SchedOp{Kind: lang.OpRecv, Peer: int32(rng.Intn(5)) - 1, Tag: int32(rng.Intn(4)) - 1}
				x.Ops[next], x.Ops[posts+next] = op, op
				p.post(next, 0, &x.Ops[next])
				p.post(posts+next, 1, &x.Ops[posts+next])
				want = append(want, recv{posts + next, op.Peer, op.Tag})
				next++
				continue
			}
			src, tag := int32(rng.Intn(4)), int32(rng.Intn(5))-2
			p.msgs = append(p.msgs[:0], pmsg{src: src, dst: 0, tag: tag}, pmsg{src: src, dst: 1, tag: tag})
			byTable, byList := p.matchPosted(0), p.matchPosted(1)
			wantOp := int32(-1)
			for k, r := range want {
				if (r.src == lang.AnyRank || r.src == src) && (r.tag == tag || r.tag == lang.AnyTag && tag >= 0) {
					wantOp = r.op
					want = append(want[:k], want[k+1:]...)
					break
				}
			}
			if byList != wantOp || byTable >= 0 && byTable+posts != wantOp || byTable < 0 && wantOp >= 0 {
				t.Fatalf("run %d, step %d: a message from %d with tag %d matched %d (table, rank 0) and %d (list, rank 1); want %d",
					run, step, src, tag, byTable, byList, wantOp)
			}
			if p.ranks[1].posted != int32(len(want)) || p.ranks[0].posted != int32(len(want)) {
				t.Fatalf("run %d, step %d: %d and %d receives posted; want %d", run, step, p.ranks[0].posted, p.ranks[1].posted, len(want))
			}
		}
	}
}
