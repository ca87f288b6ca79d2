package runtime

import (
	"math"
	"unsafe"
)

// A lane's credits where its buffer holds more than one packet (issue 28).
// Under credit flow control (Spec.Credits) BookSim 2's router sends a flit
// on a VC only while it holds a credit for it: the VC's buffer of B flits
// at the far end less the flits sent whose credits have not come back
// (in flight on the wire, waiting in that buffer, or their credits on the
// way back). So a lane into a router owes at most B flits, and a packet
// that cannot move on from the router ahead keeps its flits' credits: the
// queue behind a congested output backs up into the routers before it,
// one buffer at a time. credits (kernel_sim.go) bounds a packet longer
// than the buffer; a packet that fits with room to spare is bounded here:
// it takes the lane only while the flits owed on it and its own are at
// most B. A packet's flits are owed from when it takes the lane and given
// back together (at its middle flit), CreditDelay and the wire's latency
// after they leave the router at the far end (countCredits), and no
// sooner than the credits of the packets ahead of it in that buffer; the
// lane is shut while one more packet of the size of the last would not
// fit, and opens again when enough credits are back. The credits on their
// way back are filed with their lane (sim.cred) and taken off when the
// lane is asked (creditsBack): an event only opens a shut lane, so that
// credits cost no event a hop. What it leaves out: flits owed and given
// back together, not flit by flit, and a smaller packet that would fit a
// shut lane waits as well.

// roomFor tells whether a packet of size bytes fits a lane's buffer with
// room to spare (fewer flits than it holds): the packets owe counts. Its
// ⌈size / flitSize⌉ flits are at most bufFlits - 1 exactly when size is
// at most roomBytes.
func (n *network) roomFor(size int64) bool {
	return size <= n.roomBytes
}

// flitsOf is the flits of a packet of size bytes.
func (n *network) flitsOf(size int64) int32 {
	return int32((size + n.flitSize - 1) / n.flitSize)
}

// pendingCredit is the credits of a packet's flits on their way back to
// the sender of a lane: when they are back, how many, and the lane's next
// (+1; 0: none), or the next unused.
type pendingCredit struct {
	t    float64
	f    int32
	next int32
}

// owe counts the f flits owed on lane ch of a packet whose tail leaves it
// at end, and shuts the lane (reports true) when another packet as long
// would not fit the flits owed.
func (s *sim) owe(f, ch int32, end float64) bool {
	n := s.net
	ib := &s.inb[ch]
	s.creditsBack(ch)
	ib.owed += f
	if int64(ib.owed+f) <= n.bufFlits {
		return false
	}
	ib.room, ib.end = int32(n.bufFlits)-f, end // > 0, as f < the buffer
	s.lane(ch).until = math.Inf(1)
	s.seekOpen(ch, ib)
	return true
}

// countCredits schedules the credits of packet p, which takes wire w from
// start to end toward node next: those of the lane it came by are back at
// its sender CreditDelay and that wire's latency after its middle flit
// has left, in the lane's own (owed by a packet that fits its buffer with
// room to spare, and then in BookSim's used credits of its wire as they
// are read: usedOf), or else in the used credits of its wire (usedBack),
// where a routing reads them (route_switched.go). And it counts its flits
// in the used credits (sim.used) of a wire from a router into a router.
func (s *sim) countCredits(p *packet, w int32, start, end float64, next int32) {
	n := s.net
	flits := n.flitsOf(p.bytes)
	ownLane := n.credits && n.roomFor(p.bytes)
	if p.nhops > 0 { // (at a router: it moves on)
		in := p.hop(p.nhops - 1).ch
		win := s.wl.wireOf(in)
		t := (start+end)/2 + n.spec.CreditDelay + n.linkP(win>>1).Latency
		if ownLane {
			if c := s.cut; c != nil && c.sender[win] != s.stripe {
				s.send(c.sender[win], crossing{t: t, kind: evLaneOpen, id: in, aux: flits})
			} else {
				s.creditOnItsWay(in, t, flits)
			}
		} else if s.used != nil && p.nhops > 1 {
			s.usedBack(win, t, flits)
		}
	}
	// A routing reads the used credits of wires that leave a router
	// (switches are the nodes below swr.S): a processor's wire (the first
	// hop's, as packets start at processors) keeps none, unless they come
	// back with its lane's own credits, which take them off all the same.
	if s.used != nil && next < n.swr.S && (ownLane || p.at < n.swr.S) {
		s.used[w] += flits
	}
}

// creditOnItsWay files f flits' credits of lane ch, back at t, after the
// lane's others: credits come back in the order the packets left the
// buffer, so no sooner than the ones before (BookSim's input buffer is
// served in order). A lane shut for want of credits learns when it opens.
func (s *sim) creditOnItsWay(ch int32, t float64, f int32) {
	ib := &s.inb[ch]
	if ib.last != 0 {
		t = later(t, s.cred[ib.last-1].t)
	}
	i := s.credFree
	if i != 0 {
		s.credFree = s.cred[i-1].next
	} else {
		// A credit on its way back stands for the event it would be
		// (and takes less): it is bounded as the pending events are.
		if s.guard.maxEvents > 0 && len(s.cred) >= s.guard.maxEvents && s.err == nil {
			s.err = s.guard.exceeded("credits on their way back", len(s.cred), int64(unsafe.Sizeof(pendingCredit{})))
		}
		s.cred = append(s.cred, pendingCredit{})
		i = int32(len(s.cred))
	}
	s.cred[i-1] = pendingCredit{t: t, f: f}
	if ib.last != 0 {
		s.cred[ib.last-1].next = i
	} else {
		ib.first = i
	}
	ib.last = i
	if ib.room > 0 {
		s.seekOpen(ch, ib)
	}
}

// creditsBack takes off lane ch's flits owed, and its wire's used credits
// where kept, the credits back by now.
func (s *sim) creditsBack(ch int32) {
	ib := &s.inb[ch]
	for ib.first != 0 {
		i := ib.first
		c := &s.cred[i-1]
		if c.t > s.now {
			return
		}
		ib.owed -= c.f
		if s.used != nil {
			s.used[s.wl.wireOf(ch)] -= c.f
		}
		ib.first = c.next
		if ib.first == 0 {
			ib.last = 0
		}
		c.next, s.credFree = s.credFree, i
	}
}

// seekOpen schedules the opening of lane ch, shut for want of credits,
// when its credits on their way back bring the flits owed down to its
// room, if they do (else a credit filed later will: creditOnItsWay).
func (s *sim) seekOpen(ch int32, ib *inLane) {
	owed := ib.owed
	for i := ib.first; i != 0; i = s.cred[i-1].next {
		if owed -= s.cred[i-1].f; owed <= ib.room {
			s.push(later(s.cred[i-1].t, s.now), evLaneOpen, ch, 0)
			ib.room = -ib.room
			return
		}
	}
}

// laneOpen opens lane ch, shut for want of credits, whose credits are now
// back enough.
func (s *sim) laneOpen(ch int32) {
	ib := &s.inb[ch]
	s.creditsBack(ch)
	ib.room = 0
	s.reopen(ch, later(ib.end, s.now))
}

// usedOf is BookSim's used credits of wire w (sim.used), those of its
// lanes' credits back by now taken off.
func (s *sim) usedOf(w int32) int32 {
	if s.inb != nil {
		for ch := w * s.net.lanes; ch < (w+1)*s.net.lanes; ch++ {
			s.creditsBack(ch)
		}
	}
	if s.usedFirst[w] != 0 {
		s.usedTaken(w)
	}
	return s.used[w]
}

// usedCredit is f flits' credits of a wire on their way back (sim.
// usedCred): back at t, after the events pushed up to sequence seq (an
// event's seq, its kind's bits all set), and the wire's next (+1; 0:
// none), or the next unused.
type usedCredit struct {
	t    float64
	seq  uint64
	f    int32
	next int32
}

// usedBack files f flits' credits of wire w, back in its used credits at
// t, where an event would have taken them off (an event a hop, a quarter
// of a curve's events on the flattened butterfly's UGAL): they are taken
// off when the wire is read (usedOf) exactly as that event would have
// been handled by then, the same time and the same order against the
// other events of that instant, since it stands where the event would
// have been pushed (seq). A wire nobody reads sheds its credits back as
// it files more, so that each wire keeps only those on their way.
func (s *sim) usedBack(w int32, t float64, f int32) {
	if s.usedFirst[w] != 0 {
		s.usedTaken(w)
	}
	i := s.usedFree
	if i != 0 {
		s.usedFree = s.usedCred[i-1].next
	} else {
		// It stands for the event it would be: bounded as those are.
		if s.guard.maxEvents > 0 && len(s.usedCred) >= s.guard.maxEvents && s.err == nil {
			s.err = s.guard.exceeded("credits on their way back", len(s.usedCred), int64(unsafe.Sizeof(usedCredit{})))
		}
		s.usedCred = append(s.usedCred, usedCredit{})
		i = int32(len(s.usedCred))
	}
	s.usedCred[i-1] = usedCredit{t: t, seq: s.seq<<8 | 0xff, f: f, next: s.usedFirst[w]}
	if t > s.usedLast {
		s.usedLast = t
	}
	s.usedFirst[w] = i
}

// usedTaken takes off wire w's used credits those filed with it (usedBack)
// that are back: before now, or at now and filed before the event being
// handled was pushed (its event would have come first).
func (s *sim) usedTaken(w int32) {
	prev := &s.usedFirst[w]
	for i := *prev; i != 0; i = *prev {
		c := &s.usedCred[i-1]
		if c.t > s.now || c.t == s.now && c.seq > s.cur {
			prev = &c.next
			continue
		}
		s.used[w] -= c.f
		*prev, c.next, s.usedFree = c.next, s.usedFree, i
	}
}
