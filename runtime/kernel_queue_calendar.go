package runtime

import "math/bits"

// calendar holds pending events in a ring of slots, one a quantum of time
// (a cycle), for a run whose times are whole cycles a short way ahead:
// an open-loop point on a small network, where a few hundred events wait
// at a few hundred distinct times, a handful each. There the time lists
// start a list, a hash slot and a place in their heap of lists for a third
// of the pushes, each list popped a few events later; here a push is a
// multiplication and an append, and a pop reads the slot in hand or finds
// the next slot that holds events in a bitmap.
//
// Slot s holds the events whose time t has ⌊t·inv + ½⌋ = s (a time of
// whole quanta lies in the middle of its slot, so that the rounding of
// sums, a hair above or below, keeps it there), in (time, sequence)
// order: a push appends and moves its event back past any later one
// (times written differently, 5.31e-07 and 5.310000000000001e-07, fall in
// one slot in any order). A slot's storage is taken when its first event
// comes and given back when it has been popped, last-freed first, so
// that the storage in use stays in the nearest caches rather than the
// ring's sweeping through memory a cycle at a time.
//
// The ring holds slots cur to cur+calSlots-1; an event past them waits in
// far, a heap, and is moved into its slot once cur comes near enough, so
// that every event in far is later than every one in the ring. An event
// earlier than slot cur (the simulator pushes none, but the queue takes
// it) goes into slot cur, where its time puts it first. Times that are NaN
// have no order: they come out last, in push order.
//
// It gives up (full) where its slots do not fit the times: when its
// events move back past more than calMoves others each on average (many
// events a slot, out of order) or far holds more than calSlots; the queue
// then takes its events into its time lists.
type calendar struct {
	on  bool
	inv float64 // slots a second: 1/quantum
	// cur is the slot being popped and hd its next event; the ring holds
	// slots cur to lim-1 (lim = cur + calSlots). nextF and limF are cur+1
	// and lim as floats; run is slot cur's storage.
	cur, lim    int64
	nextF, limF float64
	run         []event
	hd          int
	n           int       // events in the ring (run's pending ones included)
	slots       [][]event // by slot & calMask; nil when empty
	spare       [][]event // storage given back, reused last first
	used        [calSlots / 64]uint64
	far         []event // a 4-ary heap of the events at slot lim or later
	nan         []event
	nanHd       int
	// moves counts the events that added ones moved back past, since
	// the last calWindow'th was added (added ago).
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
	// calMoves is the most events an added one moves back past on
	// average: the calendar gives up when the events added since the
	// last calWindow'th have moved past more than calMoves·calWindow.
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

// moveTo makes slot s the one being popped, from its first event.
func (c *calendar) moveTo(s int64) {
	c.cur, c.lim, c.hd = s, s+calSlots, 0
	c.nextF, c.limF = float64(s+1), float64(c.lim)
	c.run = c.slots[s&calMask]
}

// at is where time t falls: slot ⌊at(t)⌋.
func (c *calendar) at(t float64) float64 { return t*c.inv + 0.5 }

func (c *calendar) push(e event) {
	x := c.at(e.t)
	switch {
	case x >= c.limF:
		c.far = heapPush4(c.far, e)
		c.full = c.full || len(c.far) > calSlots
	case x >= c.nextF:
		c.add(int64(x), e, 0)
	case e.t == e.t:
		c.add(c.cur, e, c.hd)
	default:
		c.nan = append(c.nan, e)
	}
}

// add puts e into slot s of the ring, after its events from lo on that
// come before e.
func (c *calendar) add(s int64, e event, lo int) {
	i := s & calMask
	b := c.slots[i]
	if cap(b) == 0 {
		if n := len(c.spare); n > 0 {
			b, c.spare = c.spare[n-1], c.spare[:n-1]
		} else {
			b = make([]event, 0, calCap)
		}
		c.used[i>>6] |= 1 << (i & 63)
	}
	b = append(b, e)
	j := len(b) - 1
	for j > lo && e.before(&b[j-1]) {
		b[j] = b[j-1]
		j--
	}
	b[j] = e
	c.moves += len(b) - 1 - j
	c.full = c.full || c.moves > calMoves*calWindow
	if c.added++; c.added == calWindow {
		c.moves, c.added = 0, 0
	}
	c.slots[i] = b
	if s == c.cur {
		c.run = b
	}
	c.n++
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

// popNext is pop when slot cur is done: it moves to the next slot that
// holds events, else to far's first event's slot, else to the NaNs.
func (c *calendar) popNext() event {
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
		c.add(int64(c.at(e.t)), e, 0)
	}
	return c.pop()
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
