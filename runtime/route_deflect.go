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
// lane, and it is never dropped.
//
// It cannot deadlock: a packet waits only while every lane out of its node
// is full, and those lanes' packets only while every lane out of theirs
// is, and so on, so a deadlock needs every lane of the network full (a
// packet at its destination is always taken in). Packets enter the network
// only while that leaves a place free: a packet at its source waits while
// the buffers hold one packet less than they can (the source's own memory
// is not a lane's buffer). Waiting packets at a node, and those waiting to
// enter, are tried oldest first (by when their message was ready, then by
// packet), when a lane out of the node frees or, to enter, when a packet is
// delivered.
//
// Livelock is not excluded: packets can be deflected round and round
// while others wait for them. Waiting packets are tried oldest first (by
// when their message was ready, then by packet), and the choices are at
// random, but nothing bounds a packet's detour; Options.MaxEvents (sim's
// --max-events) stops a run that does not end. Measured (ring of 8
// tornado, ring of 16 all-to-all, 4 × 4 mesh and torus all-to-all, 8 × 8
// torus transpose, 4-cube all-to-all, 128 B packets, seeds 1-3): with
// one-packet buffers every run ends; with two, runs on the rings go on
// past 2 million events. The choices use the run's generator, so a seed
// fixes the outcome.
//
// It needs store-and-forward switching. Under cut-through a deflected
// head goes on before its tail is in, and packets that bounce between two
// nodes in step (every run of the cases above with several packets a
// message) never end; under wormhole a worm spans several links, and
// deflecting it is another design (chaos routing), which this does not
// model.

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
		s.hot = &hotPotato{wait: make([][]int32, n.g.N())}
		if s.bufPkts > 0 {
			s.hot.capacity = int64(s.numLanes()) * int64(s.bufPkts)
		}
	}
	h := s.hot
	if p.waitCh != waitNodeListed && p.waitCh != waitNodeUnlisted {
		p.blocked = math.Inf(1) // no retry due
	}
	if p.nhops == 0 && h.capacity > 0 && s.bufIn+1 >= h.capacity {
		// Entering now would fill every buffer: wait for a delivery (on
		// this list even if on its node's already, from which a retry
		// due brought it here).
		p.waitCh = waitNodeListed
		h.enter = append(h.enter, id)
		return
	}
	// 1: a free lane of a minimal link.
	s.ties = s.ties[:0]
	for i, a := range s.cand {
		if s.freeLane(n.wire(a.Link, p.at)) >= 0 {
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
		if s.freeLane(n.wire(a.Link, p.at)) >= 0 && !slices.Contains(s.cand, a) {
			s.ties = append(s.ties, i)
		}
	}
	if len(s.ties) > 0 {
		a := adj[s.ties[s.pick(len(s.ties))]]
		s.deflectOn(id, p, a.Link, a.Node)
		return
	}
	// 3: wait for the first lane out of the node to be free: when a
	// holder's tail leaves (a retry then), or a full buffer makes room
	// (bufferFreed wakes the node's list).
	s.waitAt(id, p, &h.wait[p.at])
	first := math.Inf(1)
	for _, a := range adj {
		w := n.wire(a.Link, p.at)
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
// were listed (at node v; -1: at their sources, to enter), oldest first
// (by when their message was ready, then by packet), and empties it.
func (s *sim) wake(list *[]int32, v int32, t float64) {
	l := *list
	if len(l) == 0 {
		return
	}
	age := func(id int32) float64 { return s.msgs[s.parts[s.pkts[id].part].msg].ready }
	slices.SortFunc(l, func(a, b int32) int {
		if c := cmp.Compare(age(a), age(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
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
// the lane was closed (full), the packets waiting at the node it leaves
// may take it from t on; a delivered packet leaves a place in the network
// to the packets waiting to enter it.
func (s *sim) bufferFreed(ch int32, t float64, wasFull, delivered bool) {
	h := s.hot
	if wasFull {
		v := s.fromNode(ch)
		s.wake(&h.wait[v], v, t)
	}
	if delivered {
		s.wake(&h.enter, -1, s.now)
	}
}
