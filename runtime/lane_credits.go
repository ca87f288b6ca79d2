package runtime

import "math"

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
// after they leave the router at the far end (countCredits); the lane is
// shut while one more packet of the size of the last would not fit, and
// opens again when enough credits are back. What it leaves out: flits
// owed and given back together, not flit by flit, and a smaller packet
// that would fit a shut lane waits as well.

// roomFor tells whether a packet of size bytes fits a lane's buffer with
// room to spare (fewer flits than it holds): the packets owe counts.
func (n *network) roomFor(size int64) bool {
	return (size+n.flitSize-1)/n.flitSize < n.bufFlits
}

// owe counts packet p's flits owed on lane ch, which its tail leaves at
// end, and shuts the lane (reports true) when another packet as long
// would not fit the flits owed.
func (s *sim) owe(p *packet, ch int32, end float64) bool {
	n := s.net
	f := int32((p.bytes + n.flitSize - 1) / n.flitSize)
	ib := &s.inb[ch]
	ib.owed += f
	if int64(ib.owed+f) <= n.bufFlits {
		return false
	}
	ib.room, ib.end = int32(n.bufFlits)-f, end // > 0, as f < the buffer
	s.lane(ch).until = math.Inf(1)
	return true
}

// countCredits schedules the credits of packet p, which takes wire w from
// start to end toward node next: those of the lane it came by, back at
// its sender CreditDelay and that wire's latency after its middle flit
// has left (evCredit, creditBack); and it counts its flits in BookSim's
// used credits (sim.used) of a wire into a router, where a routing reads
// them (route_switched.go).
func (s *sim) countCredits(p *packet, w int32, start, end float64, next int32) {
	n := s.net
	flits := int32((p.bytes + n.flitSize - 1) / n.flitSize)
	if p.nhops > 0 { // (at a router: it moves on)
		in := p.hop(p.nhops - 1).ch
		s.push((start+end)/2+n.spec.CreditDelay+n.linkP(in/n.lanes>>1).Latency, evCredit, in, flits)
	}
	if s.used != nil && next < n.swr.S {
		s.used[w] += flits
	}
}

// creditBack gives back the credits of flits sent on lane ch: BookSim's
// used credits of its wire, where kept, and the flits the lane owes under
// credits, opening it if it was shut for want of them.
func (s *sim) creditBack(ch, flits int32) {
	if s.used != nil {
		s.used[ch/s.net.lanes] -= flits
	}
	if !s.net.credits || int64(flits) >= s.net.bufFlits {
		return // (not owed: roomFor)
	}
	ib := &s.inb[ch]
	ib.owed -= flits
	if ib.room > 0 && ib.owed <= ib.room {
		ib.room = 0
		s.reopen(ch, later(ib.end, s.now))
	}
}
