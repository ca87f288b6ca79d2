package runtime

import "math"

// Finite buffers under store and forward and virtual cut-through (seed 003
// §2.3: TINY keeps one buffer per link). The topology's buffer
// (Packet.BufferFlits), which counts flits under wormhole, counts packets
// here: a lane's buffer, at the node it leads to, holds that many. A
// packet takes a place in it when it takes the lane and gives it back
// when it takes its next lane, or is delivered; while the buffer is full
// the lane is closed (its until is +Inf, as a blocked worm's lanes are),
// and the packets that ask for it wait in its queue. So a packet that
// cannot move on holds the lane it came by, and cyclic routing can
// deadlock, as under wormhole: the run ends with messages undelivered and
// cycleLanes finds the cycle through the full lanes' newest holders. A
// machine that sets no buffer keeps unbounded buffers.

// packetBuffers is the buffer of a lane in packets: the topology's buffer
// under store and forward and virtual cut-through, 0 (unbounded) when it
// has none or under the other switching modes.
func (n *network) packetBuffers() int32 {
	if n.sw != SAF && n.sw != VCT {
		return 0
	}
	return int32(n.spec.Packet.BufferFlits)
}

// takeBuffer puts packet p in the buffer of lane ch, which its tail
// leaves at end, and tells whether that filled the buffer; the lane is
// then closed.
func (s *sim) takeBuffer(p *packet, ch int32, end float64) (full bool) {
	if p.nhops > 0 {
		s.leaveBuffer(p.hop(p.nhops-1).ch, false)
	} else {
		s.bufIn++
	}
	s.bufUsed[ch]++
	s.bufEnd[ch] = end
	if s.bufUsed[ch] < s.bufPkts {
		return false
	}
	s.lane(ch).until = math.Inf(1)
	return true
}

// leaveBuffer takes a packet out of the buffer of lane ch, moving on or
// delivered; a lane closed because the buffer was full opens when its last
// tail has left the wire.
func (s *sim) leaveBuffer(ch int32, delivered bool) {
	s.bufUsed[ch]--
	// (Still full if the oldest packet took the place its node keeps for
	// it: route_deflect.go.)
	opened := math.IsInf(s.lane(ch).until, 1) && s.bufUsed[ch] < s.bufPkts
	if opened {
		s.reopen(ch, s.bufEnd[ch])
	}
	if delivered {
		s.bufIn--
	}
	if s.hot != nil {
		s.bufferFreed(ch, s.bufEnd[ch], opened, delivered)
	}
}
