package runtime

import (
	"container/heap"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// refHeap is the order the queue must reproduce: container/heap on
// event.before.
type refHeap []event

func (h refHeap) Len() int           { return len(h) }
func (h refHeap) Less(i, j int) bool { return h[i].before(&h[j]) }
func (h refHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)        { *h = append(*h, x.(event)) }
func (h *refHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// queueOp is one step of a queue script: push at time t, or pop.
type queueOp struct {
	pop bool
	t   float64
}

// checkQueueOrder runs ops on an evQueue and on the reference heap (the
// queue reused after a reset for a second pass) and reports the first
// difference.
func checkQueueOrder(t *testing.T, ops []queueOp) {
	t.Helper()
	for _, c := range []struct{ heapMax, maxTimes int }{{0, 0}, {0, 1}, {1, 1}, {100, 1}, {100, 3}, {0, 64}} {
		checkQueueOrderFrom(t, ops, c.heapMax, c.maxTimes, 0)
	}
	// In a calendar, of slots that hold many times or few, or that do not
	// fit them (giving up to the lists, and on to the heap or, past
	// heapMax, the ladder).
	for _, c := range []struct {
		heapMax int
		quantum float64
	}{{0, 1e-9}, {100, 1}} {
		checkQueueOrderFrom(t, ops, c.heapMax, 0, c.quantum)
	}
}

// checkQueueOrderFrom is checkQueueOrder with the queue leaving its lists
// past maxTimes distinct times and its heap after heapMax pending events,
// or in a calendar of quantum-second slots if quantum is not 0, and
// reports whether the calendar kept every event to the end (did not give
// up). Every event ahead says it is a pending one.
func checkQueueOrderFrom(t *testing.T, ops []queueOp, heapMax, maxTimes int, quantum float64) bool {
	t.Helper()
	q := evQueue{heapMax: heapMax, maxTimes: maxTimes}
	q.reset()
	pending := map[uint64]bool{}
	checkAhead := func(pass, i int) {
		for _, d := range []int{1, 3, 16, 70} {
			if e := q.ahead(d); e != nil && !pending[e.seq] {
				t.Fatalf("heapMax %d, maxTimes %d, quantum %g, pass %d, op %d: ahead(%d) is (t=%v, seq=%d), not pending", heapMax, maxTimes, quantum, pass, i, d, e.t, e.seq)
			}
		}
	}
	for pass := range 2 {
		var ref refHeap
		var seq uint64
		q.reset()
		if quantum != 0 {
			q.useCalendar(quantum)
		}
		clear(pending)
		for i, op := range ops {
			if op.pop {
				if ref.Len() == 0 {
					continue
				}
				want := heap.Pop(&ref).(event)
				got := q.pop()
				if got != want {
					t.Fatalf("heapMax %d, maxTimes %d, quantum %g, pass %d, op %d: popped (t=%v, seq=%d), want (t=%v, seq=%d)", heapMax, maxTimes, quantum, pass, i, got.t, got.seq, want.t, want.seq)
				}
				delete(pending, got.seq)
				checkAhead(pass, i)
				continue
			}
			seq++
			e := event{t: op.t, seq: seq, id: int32(i)}
			heap.Push(&ref, e)
			if !q.pushFast(&e) { // as the simulator pushes
				q.push(e)
			}
			pending[seq] = true
			if q.len() != ref.Len() {
				t.Fatalf("heapMax %d, maxTimes %d, quantum %g, pass %d, op %d: %d pending, want %d", heapMax, maxTimes, quantum, pass, i, q.len(), ref.Len())
			}
		}
		for ref.Len() > 0 {
			want := heap.Pop(&ref).(event)
			if got := q.pop(); got != want {
				t.Fatalf("heapMax %d, maxTimes %d, quantum %g, pass %d, draining: popped (t=%v, seq=%d), want (t=%v, seq=%d)", heapMax, maxTimes, quantum, pass, got.t, got.seq, want.t, want.seq)
			}
		}
		if q.len() != 0 {
			t.Fatalf("heapMax %d, maxTimes %d, quantum %g, pass %d: %d pending after draining", heapMax, maxTimes, quantum, pass, q.len())
		}
	}
	return q.cal.on
}

// simLike is a script in the manner of the simulator: each pop schedules
// up to two events a little later (times from a few values, so many tie),
// sometimes at the popped time itself.
func simLike(rng *topo.Rand, n int, clustered bool) []queueOp {
	var ops []queueOp
	now := 0.0
	pending := 0
	for range n / 4 {
		ops = append(ops, queueOp{t: 0})
		pending++
	}
	for len(ops) < n && pending > 0 {
		ops = append(ops, queueOp{pop: true})
		pending--
		// The popped time is not known here; rising times approximate it.
		now += 1e-9 * rng.Float64()
		for range rng.Intn(3) {
			d := rng.Float64() * 50e-9
			if clustered {
				d = float64(rng.Intn(5)) * 10e-9
			}
			ops = append(ops, queueOp{t: now + d})
			pending++
		}
	}
	return ops
}

// noisySums is simLike's script with times as a burst makes them: sums
// of a few latencies and transmission times added in different orders,
// so that times equal in decimal differ in their last bits (hundreds of
// floats a femtosecond), each a list of its own.
func noisySums(rng *topo.Rand, n int) []queueOp {
	parts := []float64{10e-9, 2.56e-9, 1.28e-9, 0.1e-9, 3e-9}
	var ops []queueOp
	pending := 0
	now := 0.0
	for len(ops) < n {
		if pending > 0 && rng.Intn(2) == 0 {
			ops = append(ops, queueOp{pop: true})
			pending--
			now += 0.5e-9 * rng.Float64()
			continue
		}
		t := now
		for range 1 + rng.Intn(6) {
			t += parts[rng.Intn(len(parts))]
		}
		ops = append(ops, queueOp{t: t})
		pending++
	}
	return ops
}

// distinctTimes pushes n distinct times, latest first, each twice, then
// pops half of them.
func distinctTimes(n int) []queueOp {
	var ops []queueOp
	for i := n; i > 0; i-- {
		ops = append(ops, queueOp{t: float64(i)}, queueOp{t: float64(i)})
	}
	for range n {
		ops = append(ops, queueOp{pop: true})
	}
	return ops
}

// A queue keeps its events in lists by time, however many, until a time
// more than maxListTimes would need a list, a time is NaN or a sequence
// comes out of order, and in its heap (or ladder) from then on.
func TestQueueListsGiveWayToTheHeap(t *testing.T) {
	for _, c := range []struct {
		name   string
		events []event
		listed bool
	}{
		{"few times", []event{{t: 2, seq: 1}, {t: 1, seq: 2}, {t: 2, seq: 3}}, true},
		{"many events at few times", func() []event {
			var es []event
			for i := range 10 * defaultHeapMax {
				es = append(es, event{t: float64(i % 7), seq: uint64(i + 1)})
			}
			return es
		}(), true},
		{"sequence out of order", []event{{t: 1, seq: 2}, {t: 1, seq: 1}}, false},
		{"NaN", []event{{t: 1, seq: 1}, {t: math.NaN(), seq: 2}}, false},
		{"too many times", func() []event {
			var es []event
			for i := range maxListTimes + 1 {
				es = append(es, event{t: float64(i), seq: uint64(i + 1)})
			}
			return es
		}(), false},
	} {
		var q evQueue
		q.reset()
		for _, e := range c.events {
			q.push(e)
		}
		if q.listed != c.listed || q.len() != len(c.events) {
			t.Errorf("%s: listed %v with %d pending, want %v with %d", c.name, q.listed, q.len(), c.listed, len(c.events))
		}
	}
}

func TestQueuePopsInHeapOrder(t *testing.T) {
	rng := topo.NewRand(7)
	random := func(n int, scale func() float64) []queueOp {
		ops := make([]queueOp, n)
		for i := range ops {
			ops[i] = queueOp{pop: rng.Intn(3) == 0, t: scale()}
		}
		return ops
	}
	cases := []struct {
		name string
		ops  []queueOp
	}{
		{"empty", nil},
		{"one", []queueOp{{t: 1}, {pop: true}}},
		{"equal times keep push order", []queueOp{{t: 2}, {t: 2}, {t: 2}, {t: 2}, {t: 2}, {t: 2}, {t: 2}, {t: 2}, {t: 2}, {pop: true}, {t: 2}, {t: 1}}},
		{"uniform", random(20000, rng.Float64)},
		{"few values", random(20000, func() float64 { return float64(rng.Intn(4)) })},
		{"wide range", random(20000, func() float64 { return math.Exp(40 * rng.Float64()) })},
		{"earlier than popped", random(5000, func() float64 { return -rng.Float64() })},
		{"infinite", random(2000, func() float64 { return []float64{0, 1, math.Inf(1)}[rng.Intn(3)] })},
		{"signed zeros tie", []queueOp{{t: 0}, {t: math.Copysign(0, -1)}, {t: 0}, {pop: true}, {t: math.Copysign(0, -1)}, {t: 1}}},
		{"one time more than the lists hold", distinctTimes(maxListTimes + 1)},
		{"simulator-like", simLike(rng, 200000, false)},
		{"simulator-like clustered", simLike(rng, 200000, true)},
		{"sums with binary noise", noisySums(rng, 100000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkQueueOrder(t, c.ops) })
	}
}

// FuzzQueueOrder: any script of pushes (finite times from the bytes) and
// pops comes out of the queue in the reference heap's order.
func FuzzQueueOrder(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 4, 0xff, 5})
	f.Add([]byte("\x00\x00\x00\x01\x01\x01\x02\x02\xff\xff\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ops []queueOp
		for len(data) >= 2 {
			v := binary.LittleEndian.Uint16(data)
			data = data[2:]
			if v&7 == 7 {
				ops = append(ops, queueOp{pop: true})
				continue
			}
			// Times from a few scales, so ties, clusters and spreads all occur.
			t := float64(v>>3) * []float64{1, 1e-9, 1e3, 0}[v>>1&3]
			ops = append(ops, queueOp{t: t})
		}
		checkQueueOrder(t, ops)
	})
}

// A bucket comes out in (time, sequence) order whichever way it is sorted:
// counted by time when its sequences ascend over few distinct times,
// compared otherwise.
func TestBucketSortOrdersByTimeThenSequence(t *testing.T) {
	rng := topo.NewRand(3)
	bucket := func(n, distinct int, ascending bool) []event {
		b := make([]event, n)
		for i := range b {
			b[i] = event{t: float64(rng.Intn(distinct)) * 1e-9, seq: uint64(i + 1), id: int32(i)}
		}
		if !ascending {
			for i := range b {
				j := i + rng.Intn(n-i)
				b[i].seq, b[j].seq = b[j].seq, b[i].seq
			}
		}
		return b
	}
	cases := []struct {
		name string
		b    []event
	}{
		{"sorted", bucket(100, 1, true)},
		{"small", bucket(40, 5, true)},
		{"few times", bucket(5000, 30, true)},
		{"most distinct times counted", bucket(5000, maxDistinct, true)},
		{"too many distinct times", bucket(5000, 4*maxDistinct, true)},
		{"sequences not ascending", bucket(5000, 10, false)},
		{"signed zeros", func() []event {
			b := bucket(200, 3, true)
			for i := range b {
				if b[i].t == 0 && i%2 == 0 {
					b[i].t = math.Copysign(0, -1)
				}
			}
			return b
		}()},
		{"NaN", func() []event {
			b := bucket(200, 3, true)
			b[150].t = math.NaN()
			return b
		}()},
	}
	var q evQueue
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := slices.Clone(c.b)
			slices.SortStableFunc(want, compareEvents)
			got := slices.Clone(c.b)
			q.sortEvents(got)
			for i := range got {
				if got[i].id != want[i].id {
					t.Fatalf("position %d: event %d (t=%v, seq=%d), want event %d (t=%v, seq=%d)", i, got[i].id, got[i].t, got[i].seq, want[i].id, want[i].t, want[i].seq)
				}
			}
		})
	}
}
