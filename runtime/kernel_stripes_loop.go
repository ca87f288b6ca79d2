package runtime

import (
	"fmt"
	"slices"

	"github.com/parasol-lang/parasol/internal/limits"
)

// An open-loop point cut into stripes (kernel_stripes.go). Each stripe
// has a copy of the point's driver, which generates its own sources'
// messages from the stripe's random stream and counts what the stripe
// delivers; the measurement windows end at barriers, where the copies'
// counts are folded into the point's driver, stripe by stripe, before it
// decides (openLoop.endWindow), and the point stops at the first barrier
// past its last marked message. Messages and packets come from pools
// each stripe keeps, refilled at the barriers (topUp): the one list of
// them would be grown by two cores at once.

// loopPool is how many spare packets and messages topUp leaves each
// stripe of an open-loop point at a barrier: enough for a window on a
// large network, an eighth of the sources of a stripe, at least 16; a
// stripe that runs out in a window stops before the event that would
// take one, and goes on once refilled.
func loopPool(procs, stripes int) int { return max(16, procs/(8*stripes)) }

// loopPacket is the size of the packets of s's driver where it is an
// open-loop point a cut can run: messages of one pattern (not a list),
// each a single packet of one part, whose records are reused; else -1.
func (s *sim) loopPacket() int64 {
	o, ok := s.drv.(*openLoop)
	if !ok || o.tr.op == ListOp || !o.reuse || o.tr.circuit || o.tr.parts(o.tr.size) != 1 {
		return -1
	}
	b, size := o.tr.payload, o.tr.size
	if b > 0 && size > b {
		return -1
	}
	pk := &s.net.spec.Packet
	return size + int64(pk.Header+pk.Trailer)
}

// stripeLoops gives each stripe of s's cut a copy of its open-loop driver
// and its pending events (its sources' first messages; its window's end
// stays with the point's driver, as due), and fills the stripes' pools;
// nil where s runs a burst.
func (s *sim) stripeLoops() *openLoop {
	o, _ := s.drv.(*openLoop)
	if o == nil {
		return nil
	}
	c := s.cuts
	o.striped = true
	for s.q.len() > 0 {
		e := s.q.pop()
		switch {
		case e.kind() == evDriver && e.aux == drvWindow:
			o.due = e.t
		case e.kind() == evDriver && e.aux == drvGenerate:
			j := c.of[o.procs[e.id]]
			c.st[j].push(e.t, evDriver, e.id, e.aux)
			c.own[j].next = min(c.own[j].next, e.t)
		default:
			s.err = fmt.Errorf("internal error: event kind %d pending as an open-loop point is cut", e.kind())
			return o
		}
	}
	for i, t := range c.st {
		lo := &c.own[i].loop
		spare, hops := lo.spare[:0], lo.byHops[:0]
		*lo = *o
		lo.s, lo.spare, lo.loopCounts = t, spare, loopCounts{byHops: hops}
		t.drv = lo
	}
	s.topUp()
	return o
}

// fold adds the stripes' counts, in their order, into the point's driver
// o, and clears them.
func (o *openLoop) fold(c *stripes) {
	for i := range c.own {
		lo := &c.own[i].loop
		o.add(&lo.loopCounts)
		lo.loopCounts = loopCounts{byHops: lo.byHops[:0]}
	}
}

// endLoopWindow ends the point's measurement window at o.due, every
// stripe having handled its events before then.
func (s *sim) endLoopWindow(o *openLoop) {
	c := s.cuts
	o.fold(c)
	s.now, c.ended = o.due, o.due
	s.sumEvents()
	o.endWindow()
	for i := range c.own {
		c.own[i].loop.phase = o.phase
	}
	if s.tick != nil {
		s.tick()
	}
}

// loopBarrier is the point's part of the n-th barrier, at time end: it
// stops the point once its marked messages are all in while it drains,
// and tells of progress now and then.
func (s *sim) loopBarrier(o *openLoop, n int, end float64) {
	c := s.cuts
	left := o.markedLeft
	for i := range c.own {
		left += c.own[i].loop.markedLeft
	}
	if o.phase == draining && left == 0 {
		s.err = errStopRun
		return
	}
	if s.tick != nil && n%64 == 0 {
		s.now = end
		s.sumEvents()
		s.tick()
	}
}

// sumEvents sets s.events to its stripes' (a point's progress reads it).
func (s *sim) sumEvents() {
	s.events = 0
	for _, t := range s.cuts.st {
		s.events += t.events
	}
}

// topUp refills each stripe's pools of spare packets and messages to
// loopPool, growing the point's, and tells whether a stripe stopped its
// window for want of one.
func (s *sim) topUp() (starved bool) {
	c := s.cuts
	o := s.drv.(*openLoop)
	grew := false
	pool := loopPool(len(o.procs), len(c.st))
	// Grown once a barrier, not by appends' copies.
	pkts, msgs := 0, 0
	for i, t := range c.st {
		pkts += max(0, pool-len(t.free))
		msgs += max(0, pool-len(c.own[i].loop.spare))
	}
	s.pkts = slices.Grow(s.pkts, pkts)
	s.msgs, s.parts = slices.Grow(s.msgs, msgs), slices.Grow(s.parts, msgs)
	for i, t := range c.st {
		own := &c.own[i]
		if own.starved {
			starved = true
			c.starved++
		}
		for len(t.free) < pool {
			if s.guard.maxPackets > 0 && len(s.pkts) >= s.guard.maxPackets {
				s.err = s.guard.exceeded("packets in flight", len(s.pkts), packetBytes)
				return false
			}
			t.free = append(t.free, int32(len(s.pkts)))
			s.pkts = append(s.pkts, packet{})
			grew = true
		}
		for len(own.loop.spare) < pool {
			if len(s.msgs) >= o.maxMsgs {
				s.err = &limits.TooLarge{What: fmt.Sprintf("an open-loop point (%d messages held)", len(s.msgs)), Need: limits.Mul(int64(len(s.msgs)), 2*(messageBytes+partBytes)), Limit: limits.Or(s.opt.MaxMemory)}
				return false
			}
			// Its sender and receiver are set as it is generated (reuse).
			own.loop.spare = append(own.loop.spare, s.newMsg(o.tr, o.procs[0], o.procs[1], o.tr.size))
			grew = true
		}
	}
	if grew {
		for _, t := range c.st {
			t.pkts, t.msgs, t.parts = s.pkts, s.msgs, s.parts
		}
	}
	return starved && s.err == nil
}
