package runtime

import "math"

// iSLIP's switch allocation, as a wire's time (Spec.Allocator = ISLIP;
// docs/RUNTIME.md, "The switch allocator: iSLIP").
//
// BookSim 2's router gives each output, each cycle, a flit of one of the
// input VCs that ask for it and have a credit, choosing by iSLIP with one
// iteration: every output grants one of the inputs that ask for it (round
// robin), and every input accepts one of its grants (round robin). Two
// things follow that a wire timed packet by packet leaves out:
//
//   - A lane that waits (for a credit, or for its own packet's next flit
//     from upstream) does not hold its wire: the wire's other lanes send in
//     those cycles. So the cycles a lone packet booked past its flits (its
//     gap) are filled by the flits of the packets that share the wire next.
//   - An output asked for by two inputs, the one it grants also granted by
//     another output and accepting that one, idles that cycle. So a packet
//     that shares its wire with lanes held by packets of other inputs, one
//     of the two inputs also sending to another output, loses a share of
//     its time: half (the input accepts one of two grants, round robin) of
//     its transmission time times the share of the wire's lanes so held.
//   - A VC freed on an output is allocated to a waiting head while the
//     output's other VCs send, so the hand-over costs the wire no cycle
//     while another lane of it is held (allocOverlaps).
//
// Measured in BookSim (a copy counting, each cycle, each router's grants
// against a maximum matching; docs/RUNTIME.md): on the 8×8 mesh's uniform
// traffic iSLIP loses 2.7–5.8% of the maximum matching's flits, on its
// transpose none, and the transpose's hot wires send 99.8% of their
// cycles, where Parasol's lone packets booked 4.7% without sending.

// allocWire is a wire's iSLIP state: its gap, and, as the crossbar input
// the wire leads into, the outputs its two latest packets took and until
// when (the input "also sends elsewhere" while one of them is ahead).
type allocWire struct {
	gap   float64    // booked by the last lone packet and not sent on
	until [2]float64 // the tails of the input's two latest packets leave their outputs at
	out   [2]int32   // those outputs (wires)
}

// islipState is kept only where Spec.Allocator is ISLIP.
type islipState struct {
	wires  []allocWire
	laneIn []int32 // per lane: the wire its holder came in by, -1 from a terminal
}

func newISLIP(wires, lanes int) *islipState {
	return &islipState{wires: make([]allocWire, wires), laneIn: make([]int32, lanes)}
}

func (a *islipState) reset() {
	clear(a.wires)
	for i := range a.laneIn {
		a.laneIn[i] = -1
	}
}

// sendsElsewhere tells whether crossbar input in (a wire; -1 a terminal,
// which sends one packet at a time) has a packet still leaving by an
// output other than w at time t.
func (a *islipState) sendsElsewhere(in, w int32, t float64) bool {
	if in < 0 {
		return false
	}
	x := &a.wires[in]
	return x.out[0] != w && x.until[0] > t || x.out[1] != w && x.until[1] > t
}

// islipLoss is what packet p, of transmission time dur, taking lane ch of
// wire w at start, loses to mismatched grants (zero unless it shares the
// wire): dur/2 times the share of the wire's busy lanes held by packets
// of other inputs where either input also sends elsewhere.
func (s *sim) islipLoss(p *packet, w, ch int32, start, dur float64, shared bool) float64 {
	n, a := s.net, s.alloc
	in := int32(-1)
	if p.nhops > 0 {
		in = p.hop(p.nhops-1).ch / n.lanes
	}
	a.laneIn[ch] = in
	if !shared {
		return 0
	}
	k, m := 0, 0
	first := w * n.lanes
	for c := first; c < first+n.lanes; c++ {
		if c != ch && s.wl.laneOn(w, c).until > start {
			k++
			if o := a.laneIn[c]; o != in && (a.sendsElsewhere(o, w, start) || a.sendsElsewhere(in, w, start)) {
				m++
			}
		}
	}
	if m == 0 {
		return 0
	}
	return femto(dur * float64(m) / float64(2*(k+1)))
}

// islipBook books wire w for packet p, which took it at start for dur
// (plus loss) and whose tail leaves at end: the input p came in by now
// also sends to w until end; a lone packet leaves the wire free at end,
// the cycles past its flits a gap; a packet that shares it adds its flits
// and its loss less what they fill of the gap.
func (s *sim) islipBook(p *packet, w int32, start, dur, loss, end float64, shared bool) {
	n, a := s.net, s.alloc
	if p.nhops > 0 {
		x := &a.wires[p.hop(p.nhops-1).ch/n.lanes]
		x.out[1], x.until[1] = x.out[0], x.until[0]
		x.out[0], x.until[0] = w, end
	}
	wr, aw := s.wire(w), &a.wires[w]
	if !shared {
		wr.free = end
		aw.gap = math.Max(0, end-(start+dur))
		return
	}
	fill := min(aw.gap, dur)
	aw.gap -= fill
	wr.free = femto(wr.free + dur - fill + loss)
}

// allocOverlaps tells whether a waiting head handed lane ch of wire w
// now starts at once, without the router's AllocDelay: under iSLIP, while
// another lane of the wire is held until now or later. BookSim's router
// runs VC allocation for the waiting heads in the same cycle as switch
// allocation for the VCs that already hold an output
// (IQRouter::_InternalStep, iq_router.cpp:226–275), and the output sends
// a flit of any of those VCs that has one and a credit; VCs that share a
// wire flit by flit send their tails in successive cycles. So the cycle a
// freed VC takes to be allocated anew is filled by the other VCs' last
// flits, and the wire idles for it only when the freed VC was its only
// busy one (AllocDelay's gap, router.go). Parasol's lanes that share a
// wire end together (shareWire), so without this the wire idled a cycle
// at each hand-over: on the 8×8 mesh's transpose the links into the hot
// corner carried at most 98.5% of their cycles under overload, where
// BookSim's carry 100% (docs/RUNTIME.md). Only where s.alloc is set; kept
// out of line, as inlined into acquire it slowed the one-lane mesh curve
// by 5% (BenchmarkOfferedMeshCurve).
//
//go:noinline
func (s *sim) allocOverlaps(w, ch int32) bool {
	first := w * s.net.lanes
	for c := first; c < first+s.net.lanes; c++ {
		if c != ch && s.wl.laneOn(w, c).until >= s.now {
			return true
		}
	}
	return false
}

// A terminal that injects one packet at a time under iSLIP: BookSim's
// terminal sends a packet's flits in turn and gives the next packet's
// head the next VC round robin that is free and has a credit once the
// last packet's tail has gone (trafficmanager.cpp:1105–1130, _Step's
// injection: _last_vc, IsAvailableFor, IsFullFor; a VC is free once
// its packet's tail has been sent, buffer_state.cpp:640–646), whether
// or not that packet's head is blocked in the first router. A packet
// that fits the router's input buffer has sent its tail F flit times
// after its head, so a head blocked there holds its lane (the buffer
// stays full) but not the terminal: the packets behind it go on by the
// other lanes.

// tailLeaves is when packet p, taking its injection lane with its tail
// due to leave at end, has sent its tail from its terminal: end if it
// fits the first router's buffer, +Inf if not (sim.injSent).
func (s *sim) tailLeaves(p *packet, end float64) float64 {
	if p.bytes > s.net.bufBytes {
		return math.Inf(1)
	}
	return end
}

// tailSent tells whether the packet holding terminal at's last lane l,
// of wire w, has sent its tail, and no packet waits for l: the next
// packet need not wait for that lane.
func (s *sim) tailSent(w, l, at int32) bool {
	return s.injSent != nil && s.injSent[at] <= s.now && s.wl.laneOn(w, l).head < 0
}

// injectPast moves the packets waiting at their terminal for lane ch,
// whose holder's head blocked after its tail had left the terminal (q
// the first of them), to a free lane of the wire (grant then gives q the
// next free one round robin, injectAfter), or else to the lane that
// frees first, if one will. With every lane kept they wait for ch; a
// packet that finds every lane held and its last one kept waits for the
// lane after the last taken (injectLane), even if another frees first.
func (s *sim) injectPast(ch, q int32) {
	p := &s.pkts[q]
	if s.injSent[p.at] > s.now {
		return
	}
	w := s.wl.wireOf(ch)
	first := w * s.net.lanes
	to := int32(-1)
	for c := first; c < first+s.net.lanes; c++ {
		if c != ch && s.wl.laneOn(w, c).free(s.now) {
			to = c
			break
		}
	}
	if to < 0 {
		soonest := math.Inf(1)
		for c := first; c < first+s.net.lanes; c++ {
			if ln := s.wl.laneOn(w, c); c != ch && ln.head < 0 && ln.until < soonest {
				to, soonest = c, ln.until
			}
		}
		if to < 0 {
			return // every lane kept: the queue waits where it is
		}
	}
	from, dst := s.wl.laneOn(w, ch), s.wl.laneOn(w, to)
	dst.head, from.head = from.head, -1
	s.laneQ[to], s.laneQ[ch] = s.laneQ[ch], laneQueue{}
	for x := dst.head; x >= 0; x = s.pkts[x].next {
		s.pkts[x].waitCh = to
	}
	s.push(max(s.now, dst.until), evGrant, to, 0)
}
