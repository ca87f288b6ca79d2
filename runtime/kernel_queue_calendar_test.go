package runtime

import (
	"container/heap"
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// cycleSums is a script of times as a network of whole-cycle latencies
// makes them: sums of a few latencies added in different orders after a
// time that advances a cycle at a time, so that one cycle is written as
// several floats (a hair above and below it), a thousand cycles and more
// ahead at most, as a source's next message is.
func cycleSums(rng *topo.Rand, n int) []queueOp {
	parts := []float64{1e-9, 4e-9, 8e-9, 10e-9, 100e-9}
	var ops []queueOp
	pending := 0
	now := 0.0
	for len(ops) < n {
		if pending > 0 && rng.Intn(600) < pending {
			ops = append(ops, queueOp{pop: true})
			pending--
			if rng.Intn(4) == 0 {
				now += 1e-9
			}
			continue
		}
		t := now
		for range 1 + rng.Intn(4) {
			t += parts[rng.Intn(len(parts))]
		}
		if rng.Intn(50) == 0 {
			t = now + float64(rng.Intn(1500))*1e-9
		}
		ops = append(ops, queueOp{t: t})
		pending++
	}
	return ops
}

// spread keeps about a hundred events pending at times up to span after
// a time that advances about as fast as they are popped: the ring wraps
// many times and events past it wait and come in.
func spread(rng *topo.Rand, n int, span float64) []queueOp {
	var ops []queueOp
	now := 0.0
	for range 100 {
		ops = append(ops, queueOp{t: rng.Float64() * span})
	}
	for len(ops) < n {
		ops = append(ops, queueOp{pop: true}, queueOp{t: now + rng.Float64()*span})
		now += span / 200
	}
	return ops
}

// ulps pushes times a few cycles after the last popped one, each a few
// units in the last place from its cycle, in any order: a slot's times
// that open counts; and some a fraction of a cycle off (too far apart to
// count) or past the ring (brought in behind later pushes, sequences out
// of order). It pops from a heap of its own, as the simulator learns the
// time it pushes after.
func ulps(rng *topo.Rand, n int) []queueOp {
	var ops []queueOp
	var h refHeap
	now := 0.0
	for len(ops) < n {
		if h.Len() > 50 && rng.Intn(200) < h.Len() {
			ops = append(ops, queueOp{pop: true})
			now = heap.Pop(&h).(event).t
			continue
		}
		t := math.Floor(now) + float64(1+rng.Intn(3))
		for range rng.Intn(8) {
			t = math.Nextafter(t, []float64{0, math.Inf(1)}[rng.Intn(2)])
		}
		switch rng.Intn(40) {
		case 0:
			t += 0.3
		case 1:
			t += 2 * calSlots
		}
		ops = append(ops, queueOp{t: t})
		heap.Push(&h, event{t: t, seq: uint64(len(ops))})
	}
	return ops
}

// earlier pushes times around the last popped one, many before it and
// before its slot (negative, signed zeros, minus infinity among them),
// with few pending.
func earlier(rng *topo.Rand, n int) []queueOp {
	var ops []queueOp
	now := 0.0
	for range 20 {
		ops = append(ops, queueOp{t: float64(rng.Intn(5))})
	}
	for len(ops) < n {
		ops = append(ops, queueOp{pop: true})
		now += 0.5
		for range rng.Intn(3) {
			t := now - 5 + 10*rng.Float64()
			switch rng.Intn(10) {
			case 0:
				t = math.Copysign(0, -1)
			case 1:
				t = 0
			case 2:
				t = math.Inf(-1)
			case 3:
				t = math.Floor(t)
			}
			ops = append(ops, queueOp{t: t})
		}
	}
	return ops
}

// A calendar pops in the reference heap's order and keeps every event
// (does not give up) on the times it is for, on times that are not whole
// quanta, and on times before its open slot, after its ring or past any
// slot.
func TestCalendarPopsInHeapOrder(t *testing.T) {
	rng := topo.NewRand(11)
	// Times a few quanta ahead, a quarter past the ring or any slot
	// (which stay behind the ring's while it has any).
	far := func(n int) []queueOp {
		ts := []float64{math.Inf(1), math.MaxFloat64, 1e300, 1e20, 1e18, 3e3}
		var ops []queueOp
		now := 0.0
		for range n {
			t := now + float64(rng.Intn(10)) + rng.Float64()
			if rng.Intn(4) == 0 {
				t = ts[rng.Intn(len(ts))]
			}
			ops = append(ops, queueOp{t: t}, queueOp{t: now + 10}, queueOp{pop: true})
			now += 0.5
		}
		return ops
	}
	for _, c := range []struct {
		name    string
		quantum float64
		ops     []queueOp
	}{
		{"whole cycles summed in different orders", 1e-9, cycleSums(rng, 200000)},
		{"times between cycles", 1e-9, noisySums(rng, 100000)},
		{"a slot's times units in the last place apart", 1, ulps(rng, 100000)},
		{"the ring wraps, far events come in", 1, spread(rng, 50000, 3*calSlots)},
		{"before the open slot", 1, earlier(rng, 20000)},
		{"past the ring and past any slot", 1, far(1000)},
		{"signed zeros tie", 1, []queueOp{{t: 0}, {t: math.Copysign(0, -1)}, {t: 0}, {pop: true}, {t: math.Copysign(0, -1)}, {t: 1}, {pop: true}, {t: math.Copysign(0, -1)}}},
	} {
		if !checkQueueOrderFrom(t, c.ops, 0, 0, c.quantum) {
			t.Errorf("%s: the calendar gave up", c.name)
		}
	}
}

// NaN times, which have no order, come out after every other time, in
// the order they were pushed.
func TestCalendarPutsNaNLast(t *testing.T) {
	var q evQueue
	q.reset()
	q.useCalendar(1)
	var ref refHeap
	var nans []event
	rng := topo.NewRand(2)
	for i := range 1000 {
		e := event{t: float64(rng.Intn(3000)) / 2, seq: uint64(i + 1), id: int32(i)}
		if rng.Intn(5) == 0 {
			e.t = math.NaN()
			nans = append(nans, e)
		} else {
			heap.Push(&ref, e)
		}
		q.push(e)
	}
	for ref.Len() > 0 {
		want := heap.Pop(&ref).(event)
		if got := q.pop(); got != want {
			t.Fatalf("popped (t=%v, seq=%d), want (t=%v, seq=%d)", got.t, got.seq, want.t, want.seq)
		}
	}
	for _, want := range nans {
		if got := q.pop(); got.seq != want.seq || got.t == got.t {
			t.Fatalf("popped (t=%v, seq=%d), want the NaN of seq %d", got.t, got.seq, want.seq)
		}
	}
	if q.len() != 0 || !q.cal.on {
		t.Errorf("%d pending, calendar on %v; want none, on", q.len(), q.cal.on)
	}
}

// A calendar gives up, and the queue keeps its order in its heap, where
// its slots do not fit the times: many events in a slot out of order (a
// quantum far longer than the times' spacing), or many past its ring (far
// shorter).
func TestCalendarGivesUpWhereItsSlotsDoNotFit(t *testing.T) {
	rng := topo.NewRand(4)
	random := func(n int, scale float64) []queueOp {
		var ops []queueOp
		for range n {
			ops = append(ops, queueOp{t: rng.Float64() * scale})
		}
		for range n {
			ops = append(ops, queueOp{pop: true})
		}
		return ops
	}
	for _, c := range []struct {
		name    string
		quantum float64
		ops     []queueOp
	}{
		{"one slot, out of order", 1, random(2*calWindow, 1)},
		{"past the ring", 1e-9, random(2*calSlots, 1)},
	} {
		for _, heapMax := range []int{0, 100} {
			if checkQueueOrderFrom(t, c.ops, heapMax, 0, c.quantum) {
				t.Errorf("%s, heapMax %d: the calendar kept every event; want it to give up", c.name, heapMax)
			}
		}
	}
}

// An open-loop point on a small network keeps its events in a calendar,
// and its results are those of the same point with its events in the time
// lists (the queue of a large network, which fetches ahead), byte for byte.
func TestOfferedPointsAreTheSameInACalendar(t *testing.T) {
	mesh := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	df := basic(mustGen(t, "dragonfly", 2, 4, 2, 9, topo.Absolute), 1e-9, 4e9)
	df.Packet.FlitBytes, df.Packet.VirtualChannels, df.Switching = 4, 3, Wormhole
	for _, c := range []struct {
		name string
		spec *Spec
		o    Options
		l    Load
	}{
		{"mesh uniform 0.1", mesh, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.1}},
		{"mesh uniform 0.6 (saturated)", mesh, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.6}},
		{"mesh tornado poisson 0.2", mesh, Options{Op: "tornado", Size: 64, Seed: 2}, Load{Fraction: 0.2, Process: Poisson}},
		{"dragonfly ugal-l 0.01", df, Options{Op: "uniform", Size: 32, Seed: 3, Routing: "ugal-l"}, Load{Fraction: 0.01}},
		{"dragonfly ugal-l 0.3", df, Options{Op: "uniform", Size: 32, Seed: 3, Routing: "ugal-l"}, Load{Fraction: 0.3}},
	} {
		var out [2][]byte
		for i, lists := range []bool{false, true} {
			opts := c.o
			if err := checkOptions(&opts); err != nil {
				t.Fatal(err)
			}
			s, tr := simFor(t, c.spec, &opts)
			s.fetchAhead = lists
			r, err := s.offered(context.Background(), tr, c.l, opts.Seed, 0)
			if err != nil {
				t.Fatal(err)
			}
			if s.q.cal.on == lists {
				t.Fatalf("%s: calendar on %v with fetching ahead %v; want it on only without", c.name, s.q.cal.on, lists)
			}
			out[i], _ = json.Marshal(r)
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: in a calendar\n%s\nin the time lists\n%s", c.name, out[0], out[1])
		}
	}
}

// Sequences need not come in order (the simulator's do, a queue's caller
// need not): a calendar still pops by (time, sequence), a slot's equal
// times by sequence, not by push order.
func TestCalendarOrdersAnySequence(t *testing.T) {
	rng := topo.NewRand(8)
	var q evQueue
	q.reset()
	q.useCalendar(1)
	var ref refHeap
	seqs := make([]uint64, 600)
	for i := range seqs {
		seqs[i] = uint64(i + 1)
	}
	for i := range seqs {
		j := i + rng.Intn(len(seqs)-i)
		seqs[i], seqs[j] = seqs[j], seqs[i]
	}
	for i, seq := range seqs {
		tm := float64(2 + rng.Intn(20))
		if rng.Intn(2) == 0 {
			tm = math.Nextafter(tm, 0)
		}
		e := event{t: tm, seq: seq, id: int32(i)}
		heap.Push(&ref, e)
		q.push(e)
		if rng.Intn(2) == 0 {
			want := heap.Pop(&ref).(event)
			if got := q.pop(); got != want {
				t.Fatalf("push %d: popped (t=%v, seq=%d), want (t=%v, seq=%d)", i, got.t, got.seq, want.t, want.seq)
			}
		}
	}
	for ref.Len() > 0 {
		want := heap.Pop(&ref).(event)
		if got := q.pop(); got != want {
			t.Fatalf("draining: popped (t=%v, seq=%d), want (t=%v, seq=%d)", got.t, got.seq, want.t, want.seq)
		}
	}
	if !q.cal.on {
		t.Errorf("the calendar gave up")
	}
}
