package runtime

import (
	"context"

	"github.com/parasol-lang/parasol/internal/hugepages"
)

// The star's path: a program's messages on one crossbar (std:loggp's
// star(P): processor v on link v to the switch, one lane a wire, virtual
// cut-through, no credits, buffers or acknowledgements) take the same
// events as on any network (the head's arrival at the switch and at the
// destination, then the delivery) with the same times in the same order,
// but each is handled by a few lines that know the route: up processor
// v's link, down the destination's. Where the general path reads the
// routing's candidates, picks a lane of one and times the hop for lanes,
// credits, buffers, speed-ups and circuits (1,900 instructions a message
// on std:loggp), this reads the wire's and the lane's state and does the
// same arithmetic (acquire's for an idle lane of a one-lane wire). A head
// that finds its lane taken, and everything after it (the wait, the
// grant), goes the general way, which the star's steps leave every field
// for as route and acquire would: mixing the two is exact.

// useStar tells whether the run may take the star's path: the network is
// a star of canonical links (link v joins processor v, its end A, to the
// hub) of one lane and one routing, and nothing the run has set up asks
// for the general path's other models. A program run decides it once its
// driver's hooks are set.
func (s *sim) useStar() bool {
	n := s.net
	g := n.g
	if !n.star || int(n.hub) != n.nprocs || g.NumLinks() != n.nprocs || n.lanes != 1 || n.credits || n.sw != VCT ||
		n.rule != ruleNone || n.softRoute || n.buses || n.spec.Speedup != 0 || n.spec.Packet.Window != 0 {
		return false
	}
	switch n.rk {
	case rStatic, rTree, rLeastUsed, rRandom, rQuiet, rShortQueue, rFirstReady:
		// Minimal routings, each with one candidate at every node of a
		// star whose processors have one link each (choose is not asked).
	default:
		return false
	}
	if s.bufPkts > 0 || s.inb != nil || s.used != nil || s.alts != nil || s.passing != nil || s.nic != nil ||
		s.injNext != nil || s.injLast != nil || s.router != nil || s.keepsWorm {
		return false
	}
	dim := g.Link(0).Dim
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		if k.A != l || k.B != n.hub || k.Multi || k.IO || k.Dim != dim {
			return false
		}
	}
	s.starDim = dim
	return true
}

// ready is msgReady, on the star's path where the run takes it.
func (s *sim) ready(m int32) {
	if s.star {
		s.starReady(m)
		return
	}
	s.msgReady(m)
}

// starReady is msgReady on the star's path.
func (s *sim) starReady(m int32) {
	msg := &s.msgs[m]
	np := s.net.nodeP(msg.src)
	if np.SerialSetup || msg.parts != 1 {
		s.msgReady(m)
		return
	}
	msg.ready = s.now
	j := msg.part0
	start := max(s.now, s.nodes[msg.src].cpu)
	s.nodes[msg.src].cpu = start + np.SendOverhead
	if s.nodes[msg.src].cpu == s.now {
		s.starLaunch(j)
	} else {
		s.push(s.nodes[msg.src].cpu, evPartStart, j, 0)
	}
}

// starLaunch is launch on the star's path (no window: no
// acknowledgements).
func (s *sim) starLaunch(pi int32) {
	pt := &s.parts[pi]
	if pt.sent >= pt.npk {
		return
	}
	id := s.starPacket(pi, pt)
	pt.sent++
	s.starRoute(id, &s.pkts[id])
}

// starRefill is refill on the star's path for a program's message of
// one part and one packet (one channel and link, whole-message packets,
// so tr.parts is 1 at any size): m, which carried such a message, carries
// size bytes from src to dst, its part as setParts writes it (all its
// payload in one packet), without setParts' divisions.
func (s *sim) starRefill(m, src, dst int32, size int64) {
	msg := &s.msgs[m]
	p0 := msg.part0
	*msg = message{src: src, dst: dst, size: size, part0: p0, parts: 1}
	s.parts[p0] = part{msg: m, src: src, dst: dst, npk: 1, bytes: size, last: size}
}

// starPacket is newPacket for the next data packet of part pi (pt) on
// the star's path (no routing of its own, no Valiant, no circuit, no
// worm kept): a packet done with is set field by field, every one as
// newPacket sets it but the ring, whose places are written before they
// are read (the path's lanes from 0 on). newPacket's whole-record
// assignment copied the record's 256 bytes with the garbage collector's
// barrier for its slice (110 instructions a message).
func (s *sim) starPacket(pi int32, pt *part) int32 {
	n := len(s.free)
	if n == 0 {
		if l := len(s.pkts); l == cap(s.pkts) && (s.guard.maxPackets == 0 || l < s.guard.maxPackets) {
			// Twice the room (as roomFor; the guard's bound is newPacket's
			// to report, once reached).
			c := 2 * max(l, 8)
			if s.guard.maxPackets > 0 {
				c = min(c, s.guard.maxPackets)
			}
			s.pkts = append(hugepages.Make[packet](0, c), s.pkts...)
		}
		return s.newPacket(pi, pt.src, pt.dst, false)
	}
	id := s.free[n-1]
	s.free = s.free[:n-1]
	p := &s.pkts[id]
	pk := &s.net.spec.Packet
	size := pt.bytes + int64(pk.Header+pk.Trailer)
	if pt.sent == pt.npk-1 {
		size = pt.last + int64(pk.Header+pk.Trailer)
	}
	p.at, p.target, p.dst, p.tail, p.nhops, p.waitCh, p.inLink, p.lastDim, p.class = pt.src, pt.dst, pt.dst, 0, 0, -1, -1, -1, 0
	p.spilled, p.probe, p.first, p.ack = false, false, pt.sent == 0, false
	p.bytes, p.lastLat, p.lastEnd = size, 0, 0
	p.part, p.idx, p.next, p.waitNext, p.base, p.k = pi, pt.sent, -1, 0, 0, 0
	p.blocked, p.lastTx = 0, 0
	p.hops = p.hops[:0]
	return id
}

// starRoute is route on the star's path: a processor's one way is up its
// link to the hub (wire 2v, link v's from its end A), the hub's down the
// target's (wire 2·target+1); one lane a wire, lane w of wire w. A lane
// that is not free goes the general way, which queues the head for it.
func (s *sim) starRoute(id int32, p *packet) {
	hub := s.net.hub
	w, next := 2*p.at, hub
	if p.at == hub {
		w, next = 2*p.target+1, p.target
	}
	ln := s.wl.laneOn(w, w)
	if !ln.free(s.now) {
		s.route(id, p)
		return
	}
	p.lastDim = s.starDim
	s.starAcquire(id, p, w, next)
}

// starAcquire is acquire of lane w of wire w (the wire's only one), free
// now, on the star's path: no wait before it, nothing waiting for it, no
// probe, credits, buffers or speed-up; the path's two hops fit the ring.
func (s *sim) starAcquire(id int32, p *packet, w, next int32) {
	n := s.net
	wr := s.wire(w)
	ln := s.wl.laneOn(w, w)
	ln.owner = id
	start := s.now
	l := w >> 1
	lp := n.linkP(l)
	if p.nhops == 0 {
		start = s.afterPacketOverhead(p.at, start)
	}
	if p.first {
		wr.load++
		if p.nhops > 0 && p.at != p.dst {
			wr.through++
		}
	}
	start = later(start, wr.free)
	dur := float64(p.bytes) / lp.Bandwidth
	end := start + dur
	if p.nhops > 0 {
		end = later(end, p.lastEnd+p.lastLat)
	}
	wr.free = end
	wr.busy += dur
	if s.busy != nil {
		s.busy.add(w, start, start+dur)
	}
	ln.until = end
	p.ring[p.nhops] = hop{end: end, ch: w}
	p.nhops++
	p.lastEnd, p.lastLat = end, lp.Latency
	if next == p.dst {
		p.lastTx = start
	}
	p.inLink = l
	p.at = next
	s.push(start+lp.Latency, evArrive, id, p.nhops-1)
	if p.nhops == 1 && !p.ack {
		pt := &s.parts[p.part]
		m := &s.msgs[pt.msg]
		m.sent = max(m.sent, end)
		m.tx = max(m.tx, end)
		if pt.sent < pt.npk { // (starLaunch's test, without the call for a part's last packet)
			s.starLaunch(p.part)
		}
	}
}

// starArrive is arrive on the star's path: at the destination the
// delivery is due when the tail is in; at the hub the head is routed
// after the switch's HopDelay.
func (s *sim) starArrive(id int32) {
	p := &s.pkts[id]
	if p.at == p.dst {
		s.push(max(s.now, p.lastEnd+p.lastLat), evDeliver, id, 0)
		return
	}
	if ready := s.now + s.net.nodeP(p.at).HopDelay; ready > s.now {
		s.push(ready, evRoute, id, p.nhops-1)
		return
	}
	s.starRoute(id, p)
}

// runStar is run on the star's path: the same loop, with the star's
// handlers for the events a head and a part take.
func (s *sim) runStar(ctx context.Context, limit int64) (partial bool) {
	for s.q.len() > 0 && s.err == nil {
		if s.events >= limit {
			return true
		}
		if s.events&0xffff == 0xffff && s.poll(ctx) {
			return true
		}
		e := s.pop()
		s.events++
		s.now = e.t
		if e.t > s.last || e.t != e.t {
			s.last = e.t
		}
		switch e.kind() {
		case evArrive:
			s.starArrive(e.id)
		case evDeliver:
			s.deliver(e.id)
		case evDriver:
			s.drv.wake(e.id, e.aux)
		case evRoute:
			s.starRoute(e.id, &s.pkts[e.id])
		case evPartStart:
			s.starLaunch(e.id)
		case evGrant:
			s.grant(e.id)
		case evMsgReady:
			s.starReady(e.id)
		}
	}
	return false
}
