package runtime

// The plain hop: on a network routed by rule in rule order, without
// credits, buffers counted in packets, speed-up, hop delays, software
// routing or a trace (a burst on a torus or hypercube of wormhole or
// cut-through lanes), nearly every event is a head arriving at a node it
// passes through and finding its next lane free and that lane's wire idle
// (88% of a 256×256 torus burst's events). arrive, route and acquire then
// test, one after another, for every model the network does not have, and
// each call between them spills what is live. arrivePlain does that hop's
// work in one function: the same fields written with the same arithmetic,
// the same event pushed. Any other case (the destination, a tie half way
// round a ring, a lane taken, a wire still busy, which the wire sharing
// times) goes the general way before anything is written, so mixing the
// two is exact.

// plainHops tells whether the run's arrivals may take arrivePlain: none
// of the models it leaves out is in the network or set up for the run.
// run decides it once the run's hooks are set.
func (s *sim) plainHops() bool {
	n := s.net
	return n.rule != ruleNone && n.rk == rStatic && s.sw != SAF && s.sw != Circuit &&
		!n.credits && !n.softRoute && !n.hopDelay && !n.phased && !n.buses && n.spec.Speedup == 0 &&
		s.inb == nil && s.alloc == nil && s.bufPkts == 0 && s.used == nil && s.alts == nil &&
		s.passing == nil && s.busy == nil
}

// arrivePlain is arrive for packet id's head on a network of plain hops
// (plainHops): where it passes through and takes a free lane of an idle
// wire, route's decision and acquire's timing for that case; else
// arrive.
func (s *sim) arrivePlain(id int32) {
	p := &s.pkts[id]
	if p.at == p.dst || p.waitCh != -1 {
		s.arrive(id)
		return
	}
	n := s.net
	// route's rule order (its target is the destination: no Valiant).
	h := &s.hop
	if m := &s.hopMemo[id&(hopMemos-1)]; m.id == id && m.at == p.at && m.target == p.target {
		h = &m.h
	} else if !n.firstHopTo(p.at, p.target, h) {
		s.arrive(id)
		return
	}
	if h.tie {
		s.arrive(id) // route draws the way
		return
	}
	w, d := h.wire, h.dim
	class := p.class
	if n.dateline {
		if d != p.lastDim {
			class = 0
		}
		if h.wrap {
			class = 1
		}
	}
	// pickLane, whose commonest case (a class of one lane) is inlined.
	ch := w*n.lanes + n.classLo[class]
	if n.classLo[class+1]-n.classLo[class] != 1 {
		ch = s.pickLane(w, class)
	}
	ln := s.wl.laneOn(w, ch)
	wr := s.wire(w)
	if !ln.free(s.now) || n.shareWire && wr.free > s.now {
		s.arrive(id) // the head waits, or shares the wire
		return
	}
	next := h.next
	p.class = class
	p.lastDim = d
	// acquire, for a head that did not wait, past its first hop (so not
	// at its destination), on an idle or one-lane wire.
	ln.owner = id
	l := w >> 1
	lp := n.linkP(l)
	if p.first {
		wr.load++
		wr.through++
	}
	start := later(s.now, wr.free)
	dur := float64(p.bytes) / lp.Bandwidth
	end := later(start+dur, p.lastEnd+p.lastLat)
	wr.free = end
	wr.busy += dur
	ln.until = end
	if !p.spilled {
		if p.nhops-p.tail == ringHops {
			p.tail = max(p.tail, p.nhops+1-max(s.maxKeep, 1))
		}
		if p.nhops-p.tail < ringHops { // addHop's commonest case
			p.ring[uint32(p.nhops)%ringHops] = hop{end: end, ch: ch}
			p.nhops++
		} else {
			p.addHop(hop{end: end, ch: ch})
		}
	} else {
		p.addHop(hop{end: end, ch: ch})
	}
	p.lastEnd, p.lastLat = end, lp.Latency
	if next == p.dst {
		p.lastTx = start
	}
	p.inLink = l
	p.at = next
	s.push(start+lp.Latency, evArrive, id, p.nhops-1)
}
