package runtime

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Hot-potato (deflection) routing, seed 003 §2.4.2: "each node simply
// forwards the message on whichever link it thinks will first become ready
// without regard as to whether the chosen link actually takes the message
// any closer to its destination", combined, as the seed goes on, "with a
// static knowledge of which links are on minimal cost paths". A packet
// whose head is at a node (its source too) takes:
//
//  1. a free lane of a minimal link, if there is one (of several, one at
//     random);
//  2. else a free lane of any other link of the node: it is deflected,
//     away from its destination or across it (of several, one at random);
//  3. else it waits at the node, in the buffer it came by, for the first
//     of all the node's lanes to be free, and then goes by 1 and 2.
//
// "Free" is as for any packet: the lane's holder has sent its tail and, with
// finite buffers (Packet.BufferFlits, in packets under saf and vct), the
// buffer at its far end has room. So a packet never waits for a particular
// lane, and it is never dropped. The oldest packet in the network is the
// exception (below): it takes only minimal links, and waits for them.
//
// Packets enter the network only while that leaves a place free: a packet
// at its source waits while the buffers hold one packet less than they
// can (the source's own memory is not a lane's buffer). Without it, and
// without the oldest's rules, a deadlock would need every lane of the
// network full (a packet waits only while every lane out of its node is
// full, those lanes' packets only while every lane out of theirs is, and
// so on; a packet at its destination is always taken in), which the entry
// rule forbids. Waiting packets at a node, and those waiting to enter, are
// tried oldest first (by age, below), when a lane out of the node frees
// or, to enter, when a packet is delivered.
//
// Nor can it livelock, by age (as deflection routing is made live by age
// priority): packets are ordered by the order they are made in, their
// injection (born; at one time, the order the simulation makes them, which
// packet ids, being reused, are not), so every packet made later is
// younger; and the oldest packet in the network is never deflected and
// never waits behind a younger one: it takes only lanes of its minimal
// links; at the node where it waits for one, younger packets leave those
// links' lanes to it; it enters at its source even when the buffers are
// nearly full; and it may take a lane whose buffer at the far end is full
// once that lane's last tail has left the wire, into a place each node
// keeps for it (one place a node is enough: only one packet is the oldest,
// and it stays the oldest until it is delivered). So once a packet is the
// oldest it waits at each node at most for the transmission already on its
// minimal link (T, the longest packet's time on a wire, with one lane a
// wire), sends itself (T) and crosses the link (its latency λ, the node's
// hop delay h): it is delivered within (D + 1)(2T + λ + h) of becoming the
// oldest, D the diameter (the one more for a hop it was on when it became
// the oldest, perhaps away from its destination). Then the next oldest is
// the oldest, and, by induction over the age order, every packet is
// delivered: in a run whose messages are all ready at once and whose
// processors have no overheads, some packet is in the network until the
// end, so a run of N packets ends within N (D + 1)(2T + λ + h). That is
// also why it cannot deadlock, with or without the entry rule above; the
// entry rule keeps the younger packets from filling the buffers, where they
// would all move only behind the oldest. The argument needs every packet on
// the lanes to be routed by hot potato (a message that names another
// routing may wait for a particular lane). The choices use the run's
// generator, so a seed fixes the outcome.
//
// Under virtual cut-through a packet's head is routed as it comes in and
// its tail follows; its place in a buffer is taken and given back as
// under store and forward. The argument holds there too: with one lane a
// wire a packet's tail leaves a lane T after it took it (its head is at
// least a latency ahead of its tail on every hop), so the oldest again
// waits at most T a node. Before age priority packets deflected between
// two nodes in step never ended there; the oldest now never deflects.
// Under wormhole a worm spans several links, and deflecting it is another
// design (chaos routing), which this does not model.

// waitNode is packet.waitCh of a packet waiting at its node for any lane
// (waitCh is a lane for one waiting in a lane's queue): listed, on its
// node's list (or the list of those waiting to enter); unlisted, taken off
// it by a wake-up with a retry due. packet.blocked is then when its next
// retry is due (+Inf: none), so that one retry a time acts.
const (
	waitNodeListed   int32 = -2
	waitNodeUnlisted int32 = -3
)

// deflect routes packet id (p) by hot-potato routing.
func (s *sim) deflect(id int32, p *packet) {
	n := s.net
	s.cand, s.lbuf = n.candidates(p.at, p.target, p.inLink, s.cand, s.lbuf)
	if len(s.cand) == 0 {
		s.err = fmt.Errorf("no route from node %d to node %d", n.g.ID(p.at), n.g.ID(p.target))
		return
	}
	if s.hot == nil {
		s.hot = &hotPotato{wait: make([][]int32, n.g.N()), holdAt: -1}
		if s.bufPkts > 0 {
			s.hot.capacity = int64(s.numLanes()) * int64(s.bufPkts)
		}
	}
	h := s.hot
	h.register(id, s.now)
	if p.waitCh != waitNodeListed && p.waitCh != waitNodeUnlisted {
		p.blocked = math.Inf(1) // no retry due
	}
	if h.oldest() == id {
		s.deflectOldest(id, p)
		return
	}
	if p.nhops == 0 && h.capacity > 0 && s.bufIn+1 >= h.capacity {
		// Entering now would fill every buffer: wait for a delivery (on
		// this list even if on its node's already, from which a retry
		// due brought it here).
		p.waitCh = waitNodeListed
		h.enter = append(h.enter, id)
		return
	}
	// The oldest packet waits here for its minimal links: their lanes are
	// its.
	var held []int32
	if h.holdAt == p.at {
		held = h.hold
	}
	// 1: a free lane of a minimal link.
	s.ties = s.ties[:0]
	for i, a := range s.cand {
		if w := n.wire(a.Link, p.at); s.freeLane(w) >= 0 && !slices.Contains(held, w) {
			s.ties = append(s.ties, i)
		}
	}
	if len(s.ties) > 0 {
		a := s.cand[s.ties[s.pick(len(s.ties))]]
		s.deflectOn(id, p, a.Link, a.Node)
		return
	}
	// 2: a free lane of any other link.
	adj := n.g.Adj(p.at)
	s.ties = s.ties[:0]
	for i, a := range adj {
		if w := n.wire(a.Link, p.at); s.freeLane(w) >= 0 && !slices.Contains(held, w) && !slices.Contains(s.cand, a) {
			s.ties = append(s.ties, i)
		}
	}
	if len(s.ties) > 0 {
		a := adj[s.ties[s.pick(len(s.ties))]]
		s.deflectOn(id, p, a.Link, a.Node)
		return
	}
	// 3: wait for the first lane out of the node to be free: when a
	// holder's tail leaves (a retry then), a full buffer makes room
	// (bufferFreed wakes the node's list), or the oldest packet leaves
	// the lanes it holds (deflectOldest wakes it).
	s.waitAt(id, p, &h.wait[p.at])
	first := math.Inf(1)
	for _, a := range adj {
		w := n.wire(a.Link, p.at)
		if slices.Contains(held, w) {
			continue
		}
		for c := w * n.lanes; c < (w+1)*n.lanes; c++ {
			ln := s.wl.laneOn(w, c)
			switch {
			case ln.until > s.now:
				first = min(first, ln.until) // +Inf while its buffer is full
			case ln.head >= 0:
				first = s.now // handed now to a packet of another routing waiting for it
			}
		}
	}
	s.retryAt(id, p, first)
}

// deflectOldest routes packet id (p), the oldest in the network, on one
// of its minimal links only: a free lane, else a lane whose buffer is full
// but whose last tail has left the wire (the packet takes the place its
// next node keeps for the oldest), else it waits for the first of those
// lanes to be so, and younger packets at its node leave them to it.
func (s *sim) deflectOldest(id int32, p *packet) {
	n, h := s.net, s.hot
	s.ties = s.ties[:0]
	for i, a := range s.cand {
		if s.freeLane(n.wire(a.Link, p.at)) >= 0 {
			s.ties = append(s.ties, i)
		}
	}
	if len(s.ties) == 0 {
		for i, a := range s.cand {
			if s.fullLane(n.wire(a.Link, p.at)) >= 0 {
				s.ties = append(s.ties, i)
			}
		}
	}
	if len(s.ties) > 0 {
		a := s.cand[s.ties[s.pick(len(s.ties))]]
		w := n.wire(a.Link, p.at)
		ch := s.freeLane(w)
		if ch < 0 {
			ch = s.fullLane(w)
		}
		p.waitCh = -1
		if v := h.holdAt; v >= 0 {
			// The lanes it held are anyone's again.
			h.holdAt = -1
			s.wake(&h.wait[v], v, s.now)
		}
		p.lastDim = n.dim(a.Link)
		s.acquire(id, p, w, ch, a.Node)
		return
	}
	h.holdAt, h.hold = p.at, h.hold[:0]
	s.waitAt(id, p, &h.wait[p.at])
	first := math.Inf(1)
	for _, a := range s.cand {
		w := n.wire(a.Link, p.at)
		h.hold = append(h.hold, w)
		for c := w * n.lanes; c < (w+1)*n.lanes; c++ {
			ln := s.wl.laneOn(w, c)
			t := ln.until
			if math.IsInf(t, 1) && s.bufPkts > 0 && s.bufUsed[c] >= s.bufPkts {
				t = s.bufEnd[c] // full: the oldest may take it when its last tail has left
			}
			first = min(first, max(t, s.now))
		}
	}
	s.retryAt(id, p, first)
}

// pick is one of k choices at random (the run's generator), without a
// draw when there is one.
func (s *sim) pick(k int) int {
	if k == 1 {
		return 0
	}
	return s.rng.Intn(k)
}

// hotPotato is a run's state for hot-potato routing, made when the first
// packet is routed by it.
type hotPotato struct {
	// wait is, per node, the packets waiting there for a lane out of it
	// (some may have moved on since: see waitNodeListed); enter holds
	// those waiting at their source for a place in the buffers.
	wait  [][]int32
	enter []int32
	// capacity is the packets all lanes' buffers hold (0: unbounded).
	capacity int64
	// born is, per packet, its age (1 for the first packet made, 2 for
	// the next, …; 0: not in the network); order lists the packets by
	// age, oldest first, with those delivered since left in (born no
	// longer matches) until they come to the front; made counts the
	// packets made.
	born  []int64
	order []aged
	made  int64
	// holdAt is the node where the oldest packet waits for a lane of one
	// of its minimal links, whose wires are hold (-1: it does not wait).
	holdAt int32
	hold   []int32
	// since is when the oldest packet became the oldest; longest is the
	// longest time a packet was the oldest before it was delivered (what
	// the livelock bound bounds).
	since, longest float64
}

// aged is a packet in the network and its age (hotPotato.born).
type aged struct {
	id  int32
	age int64
}

// register gives packet id its age, now, if it has none: it enters the
// network (routed the first time).
func (h *hotPotato) register(id int32, now float64) {
	for int(id) >= len(h.born) {
		h.born = append(h.born, 0)
	}
	if h.born[id] != 0 {
		return
	}
	if h.oldest() < 0 {
		h.since = now
	}
	h.made++
	h.born[id] = h.made
	h.order = append(h.order, aged{id, h.made})
}

// oldest is the oldest packet in the network, or -1.
func (h *hotPotato) oldest() int32 {
	for len(h.order) > 0 && h.born[h.order[0].id] != h.order[0].age {
		h.order = h.order[1:]
	}
	if len(h.order) == 0 {
		return -1
	}
	return h.order[0].id
}

// hotDelivered takes delivered packet id, if routed by hot potato, out
// of the age order; if it was the oldest, the next oldest, if it waits at
// a node, is routed again now by the oldest's rules.
func (s *sim) hotDelivered(id int32) {
	h := s.hot
	if int(id) >= len(h.born) || h.born[id] == 0 {
		return // routed by another routing a message names
	}
	was := h.oldest() == id
	h.born[id] = 0
	if !was {
		return
	}
	h.longest = max(h.longest, s.now-h.since)
	h.since = s.now
	if q := h.oldest(); q >= 0 {
		if p := &s.pkts[q]; p.waitCh == waitNodeListed || p.waitCh == waitNodeUnlisted {
			s.retryAt(q, p, s.now)
		}
	}
}

// freeLane is a lane of wire w free now, or -1.
func (s *sim) freeLane(w int32) int32 {
	for c := w * s.net.lanes; c < (w+1)*s.net.lanes; c++ {
		if s.wl.laneOn(w, c).free(s.now) {
			return c
		}
	}
	return -1
}

// fullLane is a lane of wire w closed only because its buffer is full,
// whose last tail has left the wire by now, or -1.
func (s *sim) fullLane(w int32) int32 {
	if s.bufPkts == 0 {
		return -1
	}
	for c := w * s.net.lanes; c < (w+1)*s.net.lanes; c++ {
		if math.IsInf(s.wl.laneOn(w, c).until, 1) && s.bufUsed[c] >= s.bufPkts && s.bufEnd[c] <= s.now {
			return c
		}
	}
	return -1
}

// deflectOn sends packet id (p) over link l, to next, on a free lane.
func (s *sim) deflectOn(id int32, p *packet, l, next int32) {
	n := s.net
	w := n.wire(l, p.at)
	p.waitCh = -1
	p.lastDim = n.dim(l)
	s.acquire(id, p, w, s.freeLane(w), next)
}

// waitAt puts packet id (p), which waits at its node, on list unless it
// is on it already (its retries due while it waits are timed).
func (s *sim) waitAt(id int32, p *packet, list *[]int32) {
	if p.waitCh == waitNodeListed {
		return
	}
	p.waitCh = waitNodeListed
	*list = append(*list, id)
}

// retryAt routes packet id (p) again at t, unless a retry is due sooner.
func (s *sim) retryAt(id int32, p *packet, t float64) {
	if t < p.blocked {
		p.blocked = t
		s.push(t, evRetry, id, 0)
	}
}

// retry routes again a packet waiting at its node, if this is the retry
// due (a later one was superseded by a sooner one).
func (s *sim) retry(id int32) {
	p := &s.pkts[id]
	if (p.waitCh == waitNodeListed || p.waitCh == waitNodeUnlisted) && p.blocked == s.now {
		p.blocked = math.Inf(1)
		s.route(id, p)
	}
}

// wake tries again, at t, the packets of list that still wait where they
// were listed (at node v; -1: at their sources, to enter), oldest first,
// and empties it.
func (s *sim) wake(list *[]int32, v int32, t float64) {
	l := *list
	if len(l) == 0 {
		return
	}
	born := s.hot.born
	slices.SortFunc(l, func(a, b int32) int { return cmp.Or(cmp.Compare(born[a], born[b]), cmp.Compare(a, b)) })
	for _, id := range l {
		p := &s.pkts[id]
		if p.waitCh == waitNodeListed && (v < 0 && p.nhops == 0 || v >= 0 && p.at == v) {
			p.waitCh = waitNodeUnlisted
			s.retryAt(id, p, max(t, s.now))
		}
	}
	*list = l[:0]
}

// bufferFreed is told that a packet has left the buffer of lane ch: if
// that opened the lane (it was full), the packets waiting at the node it
// leaves may take it from t on; a delivered packet leaves a place in the
// network to the packets waiting to enter it.
func (s *sim) bufferFreed(ch int32, t float64, opened, delivered bool) {
	h := s.hot
	if opened {
		v := s.fromNode(ch)
		s.wake(&h.wait[v], v, t)
	}
	if delivered {
		s.wake(&h.enter, -1, s.now)
	}
}
