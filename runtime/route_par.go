package runtime

import "github.com/parasol-lang/parasol/stdlib/topo"

// Progressive adaptive routing (PAR) on the dragonfly, after Jiang, Kim
// and Dally, "Indirect adaptive routing on large scale interconnection
// networks" (ISCA 2009, §4.3). UGAL-L decides once, at the source router,
// from that router's queues alone; when the congested channel is the
// global link of another router of the source group (the adversarial
// pattern's case: every packet of a group takes one global link), the
// source router sees only its local channel toward it, whose queue stays
// short, and sends minimally. PAR makes UGAL-L's choice at the source
// router and, while the packet is still minimal, again at the next router
// of its source group, whose minimal output is that global link, so that
// the congestion is seen there. A packet that has gone nonminimal, or has
// left its source group, stays as it is.
//
// The choice is BookSim's UGAL-L rule (ugal_dragonflynew: a random
// intermediate router, one in this group meaning minimal; the long way if
// the minimal output's queue exceeds twice the detour's plus 30 flits), on
// a queue estimate that takes the wire's length into account: a channel's
// used credits less the flits its wire carries one way at full rate
// (ugalQueue with lessInFlight). Raw used credits count the flits in flight on a long global
// wire as queue: a global link of 100 cycles owes about 70 flits at a
// uniform load of 0.4 without any queue, so compared with a local link's
// few it sent most packets the long way.
//
// The re-evaluation can add a local hop in the source group: minimally to
// the second router R1, then from R1 to another router R2 of the group
// whose global link leads to the intermediate group. Two local hops in one
// class could wait on each other in a cycle (R0→R1→R2, R1→R2→R0,
// R2→R0→R1), so the second takes the next class: the class is the number
// of global links taken, plus one after such a second local hop. A packet
// then goes local, local, global, local, global, local in classes 0, 1, 1,
// 2, 2, 3: PAR needs 4 lane classes (parClasses), one more than UGAL-L's
// 3, as Jiang et al.'s PAR needs one more virtual channel. Each hop goes to
// a strictly higher (class, local < global) pair, so the classes are
// acyclic; `route --check` follows every choice (switchedNext, parNext).

// parClasses is the lane classes PAR needs: the global links a packet may
// take (two) and the local hops between them, one more after a second
// local hop in the source group.
const parClasses = 4

// parChoose makes PAR's choice for packet p still minimal at its source
// router (it came from its processor) or at the second router of its
// source group (it came by a local link from the source router), when its
// destination is in another group. A packet that turns nonminimal at the
// second router and goes on by a local link moves to the next lane class.
func (s *sim) parChoose(p *packet) {
	n := s.net
	r := n.swr
	first := p.nhops == 1 && p.lastDim == 0
	if !first && (p.nhops != 2 || p.lastDim != 1) || p.ack || p.target != p.dst || r.g <= 2 {
		return
	}
	at, dst := p.at, n.g.Attached(p.dst)
	if r.group(at) == r.group(dst) {
		return
	}
	if mid, ok := s.ugalLDetour(at, dst, true); ok {
		p.target = mid
		if !first && r.dfNext(at, mid) < r.p+r.a-1 {
			p.class++
		}
	}
}

// parNext adds (by add) to route --check's lanes (switchedNext) those PAR
// may take beyond UGAL-L's at router v toward processor d, having come by
// a link of dimension dimIn in class cl: at a router of the source group
// reached minimally by a local hop (class 0), any other local link in
// class 1 (turned nonminimal there); after such a hop (a local hop in
// class 1), any global link in class 1.
func (n *network) parNext(v, d, dimIn, cl int32, add func(topo.Adj, int32)) {
	r := n.swr
	if v >= r.S || dimIn != 1 || v/r.a == n.g.Attached(d)/r.a {
		return
	}
	adj := n.g.Adj(v)
	switch cl {
	case 0:
		for _, a := range adj[r.p : r.p+r.a-1] {
			add(a, 1)
		}
	case 1:
		for _, a := range adj[r.p+r.a-1:] {
			add(a, 1)
		}
	}
}
