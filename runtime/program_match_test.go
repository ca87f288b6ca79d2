package runtime

import (
	"maps"
	"testing"

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
