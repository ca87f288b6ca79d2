package runtime

import (
	"math"
	"math/bits"
	"slices"
)

// calendar holds pending events in a ring of slots, one a quantum of time
// (a cycle), for a run whose times are whole cycles a short way ahead:
// an open-loop point on a small network, where a few hundred events wait
// at a few hundred distinct times, a handful each. There the time lists
// start a list, a hash slot and a place in their heap of lists for a third
// of the pushes, each list popped a few events later; here a push is a
// multiplication and an append, and a pop reads the slot in hand or opens
// the next slot that holds events, found in a bitmap.
//
// Slot s holds the events whose time t has ⌊t·inv + ½⌋ = s (a time of
// whole quanta lies in the middle of its slot, so that the rounding of
// sums, a hair above or below, keeps it there), in push order; opening
// it puts them in (time, sequence) order (open). One cycle is most often
// written as a few floats (5.31e-07 and 5.310000000000001e-07), pushed in
// any order: kept in order as they came, 70% of the pushes on a dragonfly
// curve moved back past 5 others each. A slot's storage is taken when its
// first event comes and given back when it has been popped, last-freed
// first, so that the storage in use stays in the nearest caches rather
// than the ring's sweeping through memory a cycle at a time.
//
// The ring holds slots cur to cur+calSlots-1; an event past them waits in
// far, a heap, and is linked into its slot once cur comes near enough, so
// that every event in far is later than every one in the ring. An event
// pushed into the open slot (or earlier: the simulator pushes none, but
// the queue takes it) goes among its pending events, in order. Times that
// are NaN have no order: they come out last, in push order.
//
// It gives up (full) where its slots do not fit the times: when events
// put in order by insertion move back past more than calMoves others each
// on average (many events a slot, out of order) or far holds more than
// calSlots; the queue then takes its events into its time lists.
type calendar struct {
	on  bool
	inv float64 // slots a second: 1/quantum
	// cur is the open slot and hd its next event; the ring holds slots
	// cur to lim-1 (lim = cur + calSlots). nextF and limF are cur+1 and
	// lim as floats; run is slot cur's storage, in order.
	cur, lim    int64
	nextF, limF float64
	run         []event
	hd          int
	n           int       // events in the ring (run's pending ones included)
	slots       [][]event // by slot & calMask; nil when empty
	spare       [][]event // storage given back, reused last first
	used        [calSlots / 64]uint64
	sorted      []event              // storage open places a slot's events in
	counts      [calSpread + 1]int32 // open's counts
	far         []event              // a 4-ary heap of the events at slot lim or later
	nan         []event
	nanHd       int
	// moves counts the events that events put in order moved back past,
	// over the last added events popped (from calWindow on, afresh).
	moves, added int
	full         bool
}

const (
	// calSlots is the ring's length, a power of two: a thousand cycles
	// and more ahead of now, which holds an open-loop point's window
	// (1,000 cycles) and nearly every source's next message at the loads
	// worth measuring.
	calSlots = 1 << 10
	calMask  = calSlots - 1
	// calCap is the room a slot's storage starts with.
	calCap = 32
	// calMoves is the most events an event moves back past on
	// average: the calendar gives up when the events put in order by
	// insertion have moved past more than calMoves·calWindow others over
	// fewer than calWindow events popped.
	calMoves  = 4
	calWindow = 1 << 14
)

// start empties the calendar and keeps slots of quantum seconds from time
// 0 on.
func (c *calendar) start(quantum float64) {
	if c.slots == nil {
		c.slots = make([][]event, calSlots)
	}
	for i := range c.slots {
		c.release(i)
	}
	c.on, c.full, c.inv, c.moves, c.added = true, false, 1/quantum, 0, 0
	c.run, c.far, c.nan, c.nanHd, c.n = nil, c.far[:0], c.nan[:0], 0, 0
	c.moveTo(0)
}

// moveTo makes slot s the one to open next.
func (c *calendar) moveTo(s int64) {
	c.cur, c.lim, c.hd = s, s+calSlots, 0
	c.nextF, c.limF = float64(s+1), float64(c.lim)
}

// at is where time t falls: slot ⌊at(t)⌋.
func (c *calendar) at(t float64) float64 { return t*c.inv + 0.5 }

func (c *calendar) push(e *event) {
	x := c.at(e.t)
	switch {
	case x >= c.limF:
		c.far = heapPush4(c.far, *e)
		c.full = c.full || len(c.far) > calSlots
	case x >= c.nextF:
		i := int64(x) & calMask
		if b := c.slots[i]; len(b) < cap(b) {
			// link's commonest case, inlined: the slot has room.
			c.slots[i] = append(b, *e)
			c.n++
			return
		}
		c.link(int64(x), e)
	case e.t == e.t:
		c.addRun(e)
	default:
		c.nan = append(c.nan, *e)
	}
}

// storage is slot i's storage, taken from the spare if it has none.
func (c *calendar) storage(i int64) []event {
	b := c.slots[i]
	if cap(b) == 0 {
		if n := len(c.spare); n > 0 {
			b, c.spare = c.spare[n-1], c.spare[:n-1]
		} else {
			b = make([]event, 0, calCap)
		}
		c.used[i>>6] |= 1 << (i & 63)
	}
	return b
}

// link puts e last in slot s, after cur and before lim.
func (c *calendar) link(s int64, e *event) {
	i := s & calMask
	c.slots[i] = append(c.storage(i), *e)
	c.n++
}

// addRun puts e among slot cur's pending events, after those that come
// before it.
func (c *calendar) addRun(e *event) {
	i := c.cur & calMask
	b := append(c.storage(i), *e)
	j := len(b) - 1
	for j > c.hd && e.before(&b[j-1]) {
		b[j] = b[j-1]
		j--
	}
	b[j] = *e
	c.slots[i], c.run = b, b
	c.n++
	c.count(len(b) - 1 - j)
}

// count notes moved events moved back past, and gives up past
// calMoves·calWindow of them.
func (c *calendar) count(moved int) {
	c.moves += moved
	c.full = c.full || c.moves > calMoves*calWindow
}

// release gives slot i's storage back.
func (c *calendar) release(i int) {
	if b := c.slots[i]; cap(b) > 0 {
		c.spare = append(c.spare, b[:0])
		c.slots[i] = nil
		c.used[i>>6] &^= 1 << (i & 63)
	}
}

// pop removes and returns the first pending event; there must be one.
func (c *calendar) pop() event {
	if c.hd < len(c.run) {
		e := c.run[c.hd]
		c.hd++
		c.n--
		return e
	}
	return c.popNext()
}

// popNext is pop when slot cur is done: it opens the next slot that holds
// events, else far's first event's slot, else pops the NaNs.
func (c *calendar) popNext() event {
	if c.added += len(c.run); c.added >= calWindow {
		c.moves, c.added = 0, 0
	}
	c.release(int(c.cur & calMask))
	c.run, c.hd = nil, 0
	switch {
	case c.n > 0:
		c.moveTo(c.cur + c.nextUsed())
	case len(c.far) > 0:
		x := c.at(c.far[0].t)
		if !(x < 1<<62) {
			// Past any slot (infinite): far is all there is.
			var e event
			c.far, e = heapPop4(c.far)
			return e
		}
		c.moveTo(int64(x))
	default:
		e := c.nan[c.nanHd]
		c.nanHd++
		return e
	}
	// The far events the ring now reaches come in (cur is at or before
	// the first of them).
	for len(c.far) > 0 && c.at(c.far[0].t) < c.limF {
		var e event
		c.far, e = heapPop4(c.far)
		c.link(int64(c.at(e.t)), &e)
	}
	c.open()
	return c.pop()
}

// open puts slot cur's events, in push order, in (time, sequence) order,
// as run. Most often their sequences ascend and their times are a few
// floats within a few units in the last place of each other (one cycle
// written as sums in different orders): then a stable order by time is
// the order, found by counting the events of each time's distance from
// the least (in units in the last place) and placing them,
// without a comparison between events; otherwise they are sorted by
// insertion.
func (c *calendar) open() {
	i := c.cur & calMask
	b := c.slots[i]
	c.run = b
	if len(b) < 2 {
		return
	}
	// A slot after the first holds times above 0 (at(t) ≥ 1), finite and
	// not NaN (those wait in far or nan): their bits are in their order.
	lo, hi := uint64(math.MaxUint64), uint64(0)
	inOrder, ascend := true, true
	prev := math.Float64bits(b[0].t)
	for j := range b {
		k := math.Float64bits(b[j].t)
		lo, hi = min(lo, k), max(hi, k)
		inOrder = inOrder && k >= prev
		prev = k
		if j > 0 {
			ascend = ascend && b[j].seq > b[j-1].seq
		}
	}
	switch {
	case ascend && inOrder:
	case ascend && hi-lo < calSpread:
		at := &c.counts
		clear(at[:hi-lo+2])
		for j := range b {
			at[math.Float64bits(b[j].t)-lo+1]++
		}
		for k := 1; k <= int(hi-lo); k++ {
			at[k] += at[k-1]
		}
		out := slices.Grow(c.sorted[:0], len(b))[:len(b)]
		for j := range b {
			d := math.Float64bits(b[j].t) - lo
			out[at[d]] = b[j]
			at[d]++
		}
		c.slots[i], c.run, c.sorted = out, out, b[:0]
	default:
		c.count(sortRun(b, 1))
	}
}

// calSpread bounds the times open counts: within calSpread-1 units in the
// last place of the least. A 32×32 mesh's long sums write one cycle as up
// to ~20 floats over as many units (6.479999999999984e-07 to 6.48e-07);
// with a bound of 16 it sorted most of its slots by insertion, and ran 4%
// slower than the time lists.
const calSpread = 64

// sortRun sorts b, whose first from events are in order, by (time,
// sequence), by insertion, and returns how many events it moved back past
// others.
func sortRun(b []event, from int) int {
	moved := 0
	for i := max(from, 1); i < len(b); i++ {
		e := b[i]
		j := i
		for j > 0 && e.before(&b[j-1]) {
			b[j] = b[j-1]
			j--
		}
		b[j] = e
		moved += i - j
	}
	return moved
}

// nextUsed is how many slots after cur the next one holding events lies;
// there must be one.
func (c *calendar) nextUsed() int64 {
	from := (c.cur + 1) & calMask
	w := from >> 6
	if m := c.used[w] >> (from & 63); m != 0 {
		return 1 + int64(bits.TrailingZeros64(m))
	}
	for k := int64(1); k <= calSlots/64; k++ {
		ww := (w + k) & (calSlots/64 - 1)
		if m := c.used[ww]; m != 0 {
			at := ww<<6 + int64(bits.TrailingZeros64(m))
			return 1 + (at-from)&calMask
		}
	}
	panic("calendar: no slot holds events")
}

// drain hands every pending event to f, in no particular order, and
// turns the calendar off.
func (c *calendar) drain(f func(event)) {
	c.on = false
	for _, e := range c.run[min(c.hd, len(c.run)):] {
		f(e)
	}
	c.release(int(c.cur & calMask))
	for i := range c.slots {
		for _, e := range c.slots[i] {
			f(e)
		}
		c.release(i)
	}
	for _, e := range c.far {
		f(e)
	}
	for _, e := range c.nan[c.nanHd:] {
		f(e)
	}
	c.run, c.far, c.nan, c.nanHd, c.n = nil, c.far[:0], c.nan[:0], 0, 0
}
