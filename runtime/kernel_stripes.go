package runtime

import (
	"context"
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/internal/workers"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// One run on several cores (issue 30). A run whose network gives every
// event a lookahead, a least time it takes to affect another part of the
// network, is cut into stripes of nodes, each with its own event queue,
// packets, credits and random stream, run in synchronous windows as wide
// as the lookahead: within a window each stripe handles its own events,
// alone, on whichever core; what crosses a cut (a head reaching a node of
// another stripe, a lane's credits going back to a sender in another) is
// sent at the window's barrier, to land a window or more later. So the
// answer depends on the stripes, never on the cores that run them: one
// worker and two give the same bytes.
//
// The lookahead is there where no event changes another node's state at
// its own instant: under credit flow control with buffers that hold every
// packet with room to spare, a blocked packet keeps no lane behind it
// (newPacket's K of 0), a lane is released by its own sender, and what the
// far end gives back comes as credits, a credit delay and a link latency
// later. A head crosses a cut link no sooner than its latency, so a window
// is the least latency of the links that cross a cut (stripable decides).
// Elsewhere a blocked worm holds lanes across the network at once, and the
// run keeps one queue.
//
// Against one queue, the stripes change only the order of simultaneous
// events (each stripe orders its own by when they were pushed) and the
// random draws (a stream a stripe): the same model, other ties.

// stripes is one run's cut: its stripes' sims, which share the network's
// state (each writing only its own nodes' part) and keep their own queue,
// packets' free list, credits on their way back and random stream.
type stripes struct {
	st  []*sim
	own []stripeOwn
	of  []uint8 // node → stripe
	// sender is, per wire, the stripe of the node it leaves: where its
	// lanes' credits go back to.
	sender []uint8
	// out[a*len(st)+b] is what stripe a sent stripe b in this window.
	out [][]crossing
	// starved counts the windows of an open-loop point's stripes that
	// stopped for want of a packet or a message (topUp), and ended is
	// when the point's last measurement window ended.
	starved int
	ended   float64
}

// stripeOwn is what a stripe's sim keeps of its own across runs.
type stripeOwn struct {
	q    evQueue
	free []int32
	cred []pendingCredit
	lat  []float64
	cand []topo.Adj
	lbuf []int32
	perm []int
	ties []int
	next float64 // its first pending event's time after the barrier, +Inf if none
	// An open-loop point's: the stripe's driver, and whether its window
	// stopped for want of a packet or a message (topUp).
	loop    openLoop
	starved bool
}

// crossing is an event one stripe gives another: a head's arrival (kind
// evArrive, id the packet, aux its path index) or a lane's credits on
// their way back to its sender (kind evLaneOpen, id the lane, aux the
// flits), at t.
type crossing struct {
	t       float64
	kind    uint8
	id, aux int32
}

// stripesAuto is how many stripes a run is cut into where Options.Stripes
// is 0 and the network allows it (stripable) and has stripesFrom nodes or
// more: enough for a few cores, few enough that one core loses little to
// the windows.
const (
	stripesAuto = 4
	stripesFrom = 1 << 14
	stripesMax  = 64
)

// stripable is the lookahead one run of s's network and traffic has when
// cut into k stripes, and the cut (node → stripe), or else why it has none
// (see the file's comment): it needs a burst of messages that wait for
// none, wormhole lanes under credits with buffers that hold every packet
// with room to spare, routing by a rule or a table that reads no other
// node's state, and none of the models that reach across the network.
// The router models it keeps split their state between a wire's two ends,
// each written only by its own node: iSLIP's gap and a lane's input at the
// sender, the outputs an input took at the receiver (allocWire); a wire's
// crossbar input (wireState.xbar) at the receiver; a terminal's injection
// lanes (injNext, injLast, injSent) at the terminal.
func (s *sim) stripable(k int) (float64, []uint8, string) {
	n := s.net
	pk := &n.spec.Packet
	loop := int64(-1) // an open-loop point's packets (loopPacket)
	if s.drv != nil {
		loop = s.loopPacket()
	}
	for _, c := range []struct {
		no  bool
		why string
	}{
		{s.opt.MaxEvents > 0, "a run stopped after so many events keeps one queue"},
		{s.sw != Wormhole || !s.keepsWorm, "only wormhole switching with input buffers is cut"},
		{!n.credits, "without credits (credit_delay) a blocked worm holds lanes across the network at once"},
		// (depList holds every message's dependents: linkDeps.)
		{pk.Window > 0 || len(s.depList) > 0, "messages wait for others (acknowledgements or the op's order)"},
		{n.rk != rStatic || s.alts != nil, "the routing chooses by other nodes' state or at random"},
		{s.star || s.nic != nil || n.softRoute || s.bufPkts > 0, "the network models LogGOPS's NICs, software routing or packet buffers"},
		{s.used != nil || n.buses, "the routing reads used credits, or the network has buses"},
		{s.busy != nil || s.passing != nil || s.routeCPU != nil, "a trace or a program watches every hop"},
		{s.drv != nil && loop < 0, "a program, a message list, or messages of several packets or parts keep one queue"},
		{n.g.N() < k, fmt.Sprintf("the network has fewer than %d nodes", k)},
	} {
		if c.no {
			return 0, nil, c.why
		}
	}
	fits := loop < 0 || n.roomFor(loop)
	for i := 0; i < len(s.parts) && fits; i++ {
		pt := &s.parts[i]
		fits = n.roomFor(max(pt.bytes, pt.last) + int64(pk.Header+pk.Trailer))
	}
	if !fits {
		return 0, nil, fmt.Sprintf("a packet does not fit its buffer of %d flits with room to spare, so a blocked one holds lanes behind it", n.bufFlits)
	}
	g := n.g
	N := g.N()
	// Stripes of the core's labels in order (rows of a torus or mesh),
	// each processor in its switch's.
	core := int(n.core.Nodes)
	if core <= 0 || core > N {
		core = N
	}
	of := make([]uint8, N)
	for v := range core {
		of[v] = uint8(v * k / core)
	}
	for v := core; v < N; v++ {
		adj := g.Adj(int32(v))
		if len(adj) == 0 {
			return 0, nil, "a node has no link"
		}
		of[v] = of[adj[0].Node]
	}
	look := math.Inf(1)
	for l := range int32(g.NumLinks()) {
		if lk := g.Link(l); of[lk.A] != of[lk.B] {
			look = min(look, n.linkP(l).Latency)
		}
	}
	if !(look > 0) || math.IsInf(look, 1) {
		return 0, nil, "a link between stripes has no latency"
	}
	return look, of, ""
}

// senders is, per wire of g, the stripe of the node it leaves, by of.
func senders(g *topo.Graph, of []uint8) []uint8 {
	w := make([]uint8, 2*g.NumLinks())
	for l := range int32(g.NumLinks()) {
		lk := g.Link(l)
		w[2*l], w[2*l+1] = of[lk.A], of[lk.B]
	}
	return w
}

// stripeCount is how many stripes s's run is cut into, as Options.Stripes
// asks: 0 chooses (stripesAuto on networks of stripesFrom nodes or more).
func (s *sim) stripeCount() int {
	if k := s.opt.Stripes; k > 0 {
		return k
	}
	if s.net.g.N() >= stripesFrom {
		return stripesAuto
	}
	return 1
}

// runStriped is run cut into stripes, if the run allows it: it reports
// ok false, having done nothing, where it does not.
func (s *sim) runStriped(ctx context.Context) (partial, ok bool) {
	s.stripes, s.unstriped = 1, ""
	k := s.stripeCount()
	if k < 2 {
		return false, false
	}
	look, of, why := s.stripable(k)
	if of == nil {
		if s.opt.Stripes > 1 {
			s.unstriped = why
		}
		return false, false
	}
	c := s.cuts
	if c == nil || len(c.st) != k {
		c = &stripes{st: make([]*sim, k), own: make([]stripeOwn, k), out: make([][]crossing, k*k)}
		s.cuts = c
	}
	s.stripes = k
	c.of, c.starved, c.ended = of, 0, 0
	c.sender = senders(s.net.g, of)
	// Every packet a burst sends, numbered by its sender's stripe: each
	// stripe hands out its own. (An open-loop point's stripes take theirs
	// from the pools topUp keeps.)
	total := 0
	count := make([]int, k)
	for i := range s.parts {
		count[of[s.parts[i].src]] += int(s.parts[i].npk)
		total += int(s.parts[i].npk)
	}
	if s.drv == nil {
		if cap(s.pkts) < total {
			s.pkts = hugepages.Make[packet](total, total) // (as run's)
		}
		s.pkts = s.pkts[:total]
	}
	lo := 0
	for i := range c.st {
		o := &c.own[i]
		o.q.reset()
		o.free = o.free[:0]
		for id := lo + count[i] - 1; id >= lo; id-- {
			o.free = append(o.free, int32(id))
		}
		lo += count[i]
		o.cred, o.lat = o.cred[:0], o.lat[:0]
		t := c.st[i]
		if t == nil {
			t = &sim{}
			c.st[i] = t
		}
		*t = *s
		t.cut, t.stripe = c, uint8(i)
		t.q, t.free, t.cred, t.credFree, t.lat = o.q, o.free, o.cred, 0, o.lat
		t.cand, t.lbuf, t.perm, t.ties = o.cand, o.lbuf, o.perm, o.ties
		t.rng = *topo.NewRand(s.rng.Uint64())
		t.seq, t.events, t.nDone, t.err, t.last, t.now, t.maxKeep, t.tick = 0, 0, 0, nil, 0, 0, 0, nil
		o.q = evQueue{} // (t's now; its hop memo is s's, cleared by reset)
	}
	for i := range c.own {
		c.own[i].next = math.Inf(1)
	}
	for i := range s.msgs {
		j := of[s.msgs[i].src]
		c.st[j].push(0, evMsgReady, int32(i), 0)
		c.own[j].next = 0
	}
	ol := s.stripeLoops()
	cores := max(1, min(s.cores, k))
	step := func(phase func(t *sim) error) error {
		return workers.For(ctx, cores, k, nil, func(ctx context.Context, _ struct{}, i int) error {
			return phase(c.st[i])
		})
	}
	barriers := 0
	for ctx.Err() == nil && s.err == nil {
		start := math.Inf(1)
		for _, t := range c.st {
			start = min(start, c.own[t.stripe].next)
		}
		end := start + look
		if ol != nil {
			if ol.due <= start {
				s.endLoopWindow(ol) // (every stripe is past the window)
				continue
			}
			end = min(end, ol.due)
		}
		if math.IsInf(start, 1) {
			break
		}
		err := step(func(t *sim) error { t.window(end); return t.err })
		for err == nil && ol != nil && s.topUp() {
			// A stripe that ran out of packets or messages stopped
			// before the event that would take one: on with more.
			err = step(func(t *sim) error {
				if c.own[t.stripe].starved {
					t.window(end)
				}
				return t.err
			})
		}
		if err == nil {
			err = step(func(t *sim) error { t.receive(); return t.err })
		}
		if err != nil {
			break
		}
		if ol != nil {
			barriers++
			s.loopBarrier(ol, barriers, end)
		}
	}
	// The run's figures, stripe by stripe in order.
	if ol != nil {
		ol.fold(c)
	}
	// (The time is the last event's, or the last window's end handled
	// after it.)
	s.lat, s.events, s.now = s.lat[:0], 0, c.ended
	for i, t := range c.st {
		o := &c.own[i]
		o.q, o.free, o.cred, o.lat = t.q, t.free, t.cred, t.lat
		o.cand, o.lbuf, o.perm, o.ties = t.cand, t.lbuf, t.perm, t.ties
		s.lat = append(s.lat, t.lat...)
		s.events += t.events
		s.nDone += t.nDone
		s.last = max(s.last, t.last)
		s.now = max(s.now, t.now)
		if s.err == nil {
			s.err = t.err
		}
	}
	return ctx.Err() != nil, true
}

// window handles stripe s's events before end, and notes when its first
// one after them is (+Inf: none).
func (s *sim) window(end float64) {
	o := &s.cut.own[s.stripe]
	o.next = math.Inf(1)
	o.starved = false
	for s.q.len() > 0 && s.err == nil {
		if t := s.q.nextTime(); t >= end {
			o.next = t
			return
		}
		if s.drv != nil && (len(s.free) == 0 || len(o.loop.spare) == 0) {
			// An event takes at most a packet and a message: this
			// stripe's pools are refilled at the barrier (topUp).
			o.starved, o.next = true, s.q.nextTime()
			return
		}
		e := s.q.pop()
		if s.fetchAhead {
			s.touchAhead()
		}
		s.events++
		s.now, s.cur = e.t, e.seq
		s.last = max(s.last, e.t)
		s.handle(&e, false)
	}
}

// send gives stripe to what crosses to it, at the next barrier.
func (s *sim) send(to uint8, x crossing) {
	c := s.cut
	i := int(s.stripe)*len(c.st) + int(to)
	c.out[i] = append(c.out[i], x)
}

// receive takes in, in the stripes' order, what the others sent stripe s
// in the window just ended.
func (s *sim) receive() {
	c := s.cut
	k := len(c.st)
	o := &c.own[s.stripe]
	for a := range k {
		i := a*k + int(s.stripe)
		for _, x := range c.out[i] {
			o.next = min(o.next, x.t)
			s.now = x.t // (no sooner than the window's end)
			if x.kind == evArrive {
				s.push(x.t, evArrive, x.id, x.aux)
			} else {
				s.creditOnItsWay(x.id, x.t, x.aux)
			}
		}
		c.out[i] = c.out[i][:0]
	}
}
