package runtime

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Event kinds.
const (
	evMsgReady  uint8 = iota // id = message: all prerequisites delivered
	evPartStart              // id = part: sender software done, start packets
	evRoute                  // id = packet, aux = path index of its newest lane: head ready for a routing decision
	evArrive                 // id = packet, aux = as evRoute: head reached the far end of its newest lane
	evDeliver                // id = packet: last byte at the destination
	evGrant                  // id = lane: its holder's tail is due to leave it; hand it to the first waiter
	evAckGen                 // id = part, aux = node: acknowledgement to send from node
	evDriver                 // id, aux: the driver's own (see driver)
	evRetry                  // id = packet: hot-potato routing tries again (route_deflect.go)
	evLaneOpen               // id = lane: enough of its credits are back to open it (lane_credits.go)
)

// A driver generates traffic while a run goes on (open-loop sources,
// program ranks) instead of a burst built up front: it schedules its own
// events with s.push(t, evDriver, id, aux), is woken by them, and is told
// of every delivered message as its last byte arrives (s.now); the
// receiver's CPU has then been charged RecvOverhead up to
// s.msgs[m].ready + s.msgs[m].lat, which is when the message is done.
type driver interface {
	wake(id, aux int32)
	delivered(m int32)
}

// event is a small value (24 bytes): no pointers, no interfaces. Its
// sequence number and kind share a word, the kind in the low byte, so
// that comparing the word compares sequence numbers (which are unique).
type event struct {
	t   float64
	seq uint64 // sequence number << 8 | kind
	id  int32
	aux int32
}

func (a *event) before(b *event) bool {
	return a.t < b.t || a.t == b.t && a.seq < b.seq
}

func (a *event) kind() uint8 { return uint8(a.seq) }

type hop struct {
	end float64 // when the tail has been sent over this lane
	ch  int32
	seq uint32 // under credits, the packets that took the lane before this one (inLane.in)
}

// ringHops is how many lanes a packet keeps inline: a worm holds a few
// lanes at a time (its buffers' worth behind the head, and those its tail
// still crosses), and keeping them in the packet itself spares an arrival
// a second cache miss. A worm that holds more (a circuit's whole path, a
// long packet on short links) spills them to hops.
const ringHops = 8

// packet is laid out by what an event touches: routing, an arrival and an
// acquisition read and write the first cache line and one of the ring's;
// the last line is for waiting (where a blocked worm's fields are),
// spilling and a packet's first and last hop. (On a network far larger
// than the cache a line written each hop is a miss each hop; the constant
// below fails the build if the first line overflows.)
type packet struct {
	at      int32 // node the head is at or is travelling to
	target  int32 // routing target: dst, or Valiant's intermediate node
	dst     int32
	tail    int32 // path index of the oldest lane kept in ring or hops (older ones are left to their lanes: see acquire)
	nhops   int32 // lanes acquired so far
	waitCh  int32 // lane waited for, -1 if none, waitAhead for the packet ahead in its input buffer
	inLink  int32
	lastDim int32
	class   int32   // dateline lane class
	spilled bool    // the held lanes are in hops, not ring
	probe   bool    // circuit set-up still under way
	first   bool    // the first packet of its part, not an acknowledgement (counted in loads)
	ack     bool    // an acknowledgement
	bytes   int64   // size on the wire
	lastLat float64 // latency of the newest lane
	lastEnd float64 // when the tail has been sent over the newest lane (its hop's end)
	// ring holds lane i of the path at i % ringHops, until spilled.
	ring     [ringHops]hop
	part     int32
	idx      int32 // packet number within its part (-1 for an acknowledgement)
	next     int32 // next packet in the lane's queue
	waitNext int32 // node that lane leads to
	base     int32 // path index of hops[0], once spilled
	k        int32 // lanes a blocked worm keeps
	blocked  float64
	lastTx   float64 // transmission start on the lane into the destination
	hops     []hop   // the held lanes, from path index base, once spilled
}

// The fields every hop reads or writes end within the first cache line,
// and a packet is four whole lines (a large slice of them starts on a
// page boundary, so no packet shares a line with another).
const (
	_ = 64 - (unsafe.Offsetof(packet{}.lastEnd) + unsafe.Sizeof(packet{}.lastEnd))
	_ = 256 - unsafe.Sizeof(packet{})
	_ = unsafe.Sizeof(packet{}) - 256
)

// waitAhead is packet.waitCh of a head that waits for the packet ahead of
// it in its input buffer to move on (inLane).
const waitAhead = -2

// inLane is, under credits, the input buffer a lane leads to in the router
// at its far end, whose packets begin their router pipeline in the order
// they came in: the head of the next packet is routed only once the tail
// of the one ahead has been through switch allocation (BookSim 2's
// IQRouter routes the flit at the front of a VC's buffer, so a head behind
// a tail waits for it; two packets one behind the other on one path leave
// 2 flit times apart, not back to back). Packets that end at the lane's
// far end are not counted.
type inLane struct {
	free     float64 // the time the head after the last to move on may start the pipeline, as if it came in then
	in       uint32  // packets that took the lane
	out      uint32  // of those, the ones whose heads have moved on from its far end
	wait     int32   // heads waiting for the packet ahead to move on, linked by packet.next; -1 if none
	waitTail int32
	// The lane's credits (lane_credits.go): flits owed (sent on it, their
	// credits not back); while it is shut for want of them, the owed flits
	// it opens again at (room > 0, or < 0 once the time it opens is known;
	// 0: open) and when its last tail leaves; the credits on their way
	// back, in sim.cred (first and last, +1; 0: none).
	owed, room  int32
	end         float64
	first, last int32
}

// hop is lane i of the packet's path, which it must still hold.
func (p *packet) hop(i int32) *hop {
	if p.spilled {
		return &p.hops[i-p.base]
	}
	return &p.ring[uint32(i)%ringHops]
}

// addHop appends the next lane of the path.
func (p *packet) addHop(h hop) {
	if !p.spilled {
		if p.nhops-p.tail < ringHops {
			p.ring[uint32(p.nhops)%ringHops] = h
			p.nhops++
			return
		}
		p.hops = p.hops[:0]
		for i := p.tail; i < p.nhops; i++ {
			p.hops = append(p.hops, p.ring[uint32(i)%ringHops])
		}
		p.base, p.spilled = p.tail, true
	}
	if len(p.hops) == cap(p.hops) && p.tail > p.base {
		// Drop released lanes before growing: a packet keeps only its
		// worm, not its whole path (a torus path can be 1000 hops).
		k := p.tail - p.base
		p.hops = append(p.hops[:0], p.hops[k:]...)
		p.base = p.tail
	}
	p.hops = append(p.hops, h)
	p.nhops++
}

type part struct {
	msg, src, dst int32
	j             int32 // index among its message's parts
	link          int32 // which of the message's links it uses
	npk, sent     int32
	acked, recv   int32
	bytes, last   int64 // payload of each packet but the last; of the last
	waiting       bool  // next packet waits for the window
	rt            uint8 // the routing its message takes: sim.alts[rt], 0 the network's own
}

type message struct {
	src, dst     int32
	size         int64
	ready        float64 // when it could be sent (all prerequisites delivered)
	deps         int32
	part0, parts int32
	partsDone    int32
	hops         int32
	sent         float64 // when the sender was last busy with it (transmission or acknowledgement)
	tx           float64 // when its last packet had left the sender (sent less the wait for the final acknowledgement)
	lat          float64 // latency, once done
	dep0, dep1   int32   // dependents: s.depList[dep0:dep1]
	done         bool
	marked       bool // generated during an open-loop point's measurement
}

// lane is one lane's state, all that taking it touches, in 16 bytes:
// four lanes to a cache line. No event releases a lane: its holder's tail
// leaves it at until, and from then on it is free, unless packets wait
// for it, the first of whom an evGrant at until hands it to. until is
// +Inf while the holder keeps it open-ended (a circuit being set up, the
// last K lanes of a blocked worm); the holder that lifts that sets the
// time. So a hop costs one event, the head's arrival, not two.
type lane struct {
	until float64 // the holder's tail leaves at
	owner int32   // holder while until is ahead, -1 if never held
	head  int32   // first waiting packet (linked by packet.next), -1 if none
}

// free tells whether a head asking at time now may take the lane: the
// holder's tail has left by then (a tail leaving at the very moment a head
// asks goes first) and no packet waits before it.
func (ln *lane) free(now float64) bool { return ln.head < 0 && ln.until <= now }

// held tells whether the holder still keeps the lane at time now.
func (ln *lane) held(now float64) bool { return ln.owner >= 0 && ln.until > now }

// laneQueue is the rest of a lane's queue of waiting packets, apart from
// lane: only a lane with waiters touches it.
type laneQueue struct {
	tail, n int32
}

type wireState struct {
	free, busy float64 // transmitter free at; total busy time
	xbar       float64 // with Spec.Speedup, the crossbar input at the wire's far end is free at
	load       int32   // messages carried
	through    int32   // of those, passing through the node the wire leaves (not starting or ending there); a bus's in nodeState
}

type nodeState struct {
	cpu, vcp float64 // CPU and packet engine free at
	// through counts the messages passed on by a bus, whose wire every
	// member sends on: the others are counted on the wire they leave by.
	through int32
}

// slot is the unit of wireLanes: 16 bytes, 8-aligned.
type slot struct{ a, b uint64 }

// A wire's state fills two slots, a lane one (the constants overflow,
// failing the build, if either grows).
const (
	_ = 2*unsafe.Sizeof(slot{}) - unsafe.Sizeof(wireState{})
	_ = unsafe.Sizeof(slot{}) - unsafe.Sizeof(lane{})
)

// wireLanes keeps each wire's state and then its lanes side by side,
// 32 + 16·lanes bytes a wire (one cache line with two lanes): taking a
// lane reads and writes its wire too, and on a network far larger than
// the cache apart they were two misses.
type wireLanes struct {
	slots   []slot
	stride  int32 // slots a wire: 2 + lanes
	byLanes divider
	nwires  int32
}

func newWireLanes(wires, lanes int32) wireLanes {
	stride := 2 + lanes
	n := int(wires) * int(stride)
	return wireLanes{slots: hugepages.Make[slot](n, n), stride: stride, byLanes: newDivider(uint32(lanes)), nwires: wires}
}

// wire is wire w's state.
func (wl *wireLanes) wire(w int32) *wireState {
	return (*wireState)(unsafe.Pointer(&wl.slots[w*wl.stride]))
}

// lane is lane ch, lane ch mod lanes of wire ch / lanes.
func (wl *wireLanes) lane(ch int32) *lane {
	return (*lane)(unsafe.Pointer(&wl.slots[ch+2*wl.wireOf(ch)+2]))
}

// laneOn is lane ch, which is one of wire w's: lane without the division.
func (wl *wireLanes) laneOn(w, ch int32) *lane {
	return (*lane)(unsafe.Pointer(&wl.slots[ch+2*w+2]))
}

// wireOf is the wire lane ch belongs to, ch / lanes by multiplication (a
// division instruction takes tens of cycles, once a hop).
func (wl *wireLanes) wireOf(ch int32) int32 { return int32(wl.byLanes.div(uint32(ch))) }

// sim is one worker's simulation state, reused across runs.
type sim struct {
	net *network
	sw  Switching
	opt *Options

	q    evQueue
	seq  uint64
	now  float64
	last float64
	// cur is the sequence (event.seq) of the event being handled, which
	// orders it against the used credits filed with their wire at its
	// time (lane_credits.go).
	cur uint64

	// State is grouped per lane, wire and node so that one access costs
	// one cache line on networks far larger than the cache.
	wl     wireLanes
	laneQ  []laneQueue
	lastIn []int32  // per lane: input link served last (round robin)
	inb    []inLane // per lane, under credits: the order of its input buffer
	// injNext is, per terminal that takes its injection lanes round robin
	// (injectsRoundRobin), the lane it tries first at its next injection
	// (injectLane); nil on every other network.
	injNext []int32
	// injLast is, per terminal that injects one packet at a time
	// (injectOne), the lane its last packet took, -1 before its first;
	// nil on every other network.
	injLast []int32
	// injSent is, per terminal that injects one packet at a time under
	// iSLIP, when its last packet's tail leaves it: its injection lane's
	// end when the packet fits the first router's buffer, +Inf when it
	// does not (a head blocked there holds its tail at the terminal); nil
	// on every other network.
	injSent []float64
	nodes   []nodeState
	// nodeLoad is scratch for maxThroughLoad.
	nodeLoad []int32

	pkts  []packet
	free  []int32
	parts []part
	msgs  []message

	depPre, depPost []int32
	depList, depCnt []int32

	rng    topo.Rand
	cand   []topo.Adj
	lbuf   []int32
	perm   []int
	ties   []int // candidates sharing the best score
	events int64
	nDone  int
	lat    []float64 // a burst's latencies in delivery order; an open-loop point's marked ones (openLoop.delivered)
	err    error
	guard  growthGuard // zero: no bound (the route checker's sims never run)
	drv    driver      // nil for a burst
	tick   func()      // called every 65,536 events when set (an open-loop point's progress)
	// busy logs the wires' busy intervals for a trace; nil, and not
	// looked at further, unless a trace asks for them.
	busy *busyLog
	// fetchAhead: the network's state is large enough for touchAhead to pay.
	fetchAhead bool
	hopMemo    [hopMemos]hopMemo
	hop        ruleHop // route's, where the memo has none
	// keepsWorm: a blocked packet keeps the lanes its flits fill (wormhole
	// with input buffering), decided once per network.
	keepsWorm bool
	// maxKeep is the largest packet.k of the run so far: acquire reads
	// it instead of the packet's own, which lies in a line a hop does
	// not otherwise touch.
	maxKeep int32
	// passing, if set, is told of every data packet whose head reaches a
	// node (as destination or to pass through): the node, whether it is
	// the destination, and when the head and (as scheduled then) the tail
	// get there. Program runs slow computation down by it.
	passing func(v int32, dst bool, head, tail float64)
	// routeCPU, if set, is told of the CPU time a router process of high
	// priority takes from node v's computation from time from on (see
	// NodeParams.RouteCPUFixed). Program runs slow computation down by it.
	routeCPU func(v int32, from, cost float64)
	// bufPkts is the buffer of a lane in packets under store and forward
	// and virtual cut-through (Packet.BufferFlits; 0: unbounded), and
	// bufUsed and bufEnd are, per lane, the packets in it and when the
	// newest one's tail leaves the wire (buffers.go).
	bufPkts int32
	bufUsed []int32
	bufEnd  []float64
	// cred holds the credits on their way back to the senders of lanes
	// under credits, each lane's in order (inLane.first), and credFree the
	// first unused (+1; 0: none) (lane_credits.go).
	cred     []pendingCredit
	credFree int32
	// used is, per wire, the flits sent over it whose credits have not
	// come back (BookSim's used credits, which its UGAL reads); kept
	// only for the routings that read it (route_switched.go).
	used []int32
	// usedCred holds the credits of used that are on their way back with
	// no event of their own, usedFirst per wire the first of its (+1; 0:
	// none), usedFree the first unused (lane_credits.go).
	usedCred  []usedCredit
	usedFirst []int32
	usedFree  int32
	usedLast  float64 // when the last of them is back
	// bufIn is the packets in all lanes' buffers.
	bufIn int64
	// hot is hot-potato routing's state (route_deflect.go), nil until a
	// packet is routed by it.
	hot *hotPotato
	// router is, per node, when a router process of high priority
	// (NodeParams.RouteCPUFixed) is free to route the next packet; nil
	// when no node has one.
	router []float64
	// alts are the networks of the other routings a program's messages
	// name (lang.SchedOp.Routing): alts[k] is part.rt k's, compiled from
	// the same spec, so that only their routing differs; nil when every
	// message takes the network's own (see route).
	alts []*network
	// nic: when each node's NIC may next send and receive, on a network
	// whose processors state LogGOPS's NIC (NodeParams.SendGap…); nil
	// on every other (kernel_nic.go).
	nic []nodeNIC
	// star: a program run on a crossbar takes the star's path
	// (kernel_star.go), its links' dimension starDim.
	star    bool
	starDim int32
	// alloc is the iSLIP switch allocator's state (switch_alloc.go), nil
	// on every network without it.
	alloc *islipState
	// cut is, in a run cut into stripes (kernel_stripes.go), the cut this
	// sim is stripe stripe of; nil in a run of one queue. cuts keeps a
	// cut's sims from run to run, and cores is how many cores a run may
	// use.
	cut    *stripes
	stripe uint8
	cuts   *stripes
	cores  int
	// stripes is how many stripes the last run was cut into (1: none),
	// and unstriped why, where Options.Stripes asked for more.
	stripes   int
	unstriped string
}

func newSim(n *network, opt *Options) *sim {
	g := n.g
	wires := 2 * g.NumLinks()
	lanes := wires * int(n.lanes)
	// Fetching ahead pays where the state one event reads is not already
	// in the cache: past about a core's L2 cache, counting a packet a node.
	state := lanes*int(unsafe.Sizeof(lane{})) + wires*int(unsafe.Sizeof(wireState{})) +
		g.N()*int(unsafe.Sizeof(nodeState{})+unsafe.Sizeof(packet{}))
	s := &sim{net: n, sw: n.sw, opt: opt, keepsWorm: n.sw == Wormhole && !n.spec.OutputBuffered, fetchAhead: state > 1<<20,
		wl: newWireLanes(int32(wires), n.lanes), nodes: make([]nodeState, g.N()),
		// A queue's tail and length are set when its first packet waits.
		laneQ: hugepages.Make[laneQueue](lanes, lanes),
	}
	if b := n.packetBuffers(); b > 0 {
		s.bufPkts = b
		s.bufUsed, s.bufEnd = make([]int32, lanes), make([]float64, lanes)
	}
	if n.rk == rSwitched && n.swr.readsCredits() {
		s.used, s.usedFirst = make([]int32, wires), make([]int32, wires)
	}
	if n.routerProcesses() {
		s.router = make([]float64, g.N())
	}
	if n.credits {
		s.inb = make([]inLane, lanes)
	}
	if n.islip {
		s.alloc = newISLIP(wires, lanes)
	}
	if n.injectsRoundRobin() {
		s.injNext = make([]int32, g.N())
	}
	if n.injectsOneAtATime() {
		s.injLast = make([]int32, g.N())
		if n.islip {
			s.injSent = make([]float64, g.N())
		}
	}
	if usesLogGOPS(n.spec) {
		s.nic = make([]nodeNIC, g.N())
	}
	return s
}

// nodeNIC is when a node's NIC may next send and receive a message.
type nodeNIC struct{ send, recv float64 }

func (s *sim) reset(seed uint64) {
	clear(s.wl.slots)
	for ch := range s.numLanes() {
		*s.lane(ch) = lane{until: math.Inf(-1), owner: -1, head: -1}
	}
	if s.net.arb == RoundRobin {
		s.lastIn = s.lastIn[:0]
		for range s.numLanes() {
			s.lastIn = append(s.lastIn, -1)
		}
	}
	for i := range s.inb {
		s.inb[i] = inLane{wait: -1, waitTail: -1}
	}
	clear(s.nodes)
	clear(s.router)
	clear(s.bufUsed)
	clear(s.used)
	clear(s.usedFirst)
	s.usedCred, s.usedFree, s.usedLast = s.usedCred[:0], 0, 0
	s.cred, s.credFree = s.cred[:0], 0
	clear(s.injNext)
	clear(s.injSent)
	for i := range s.injLast {
		s.injLast[i] = -1
	}
	s.bufIn, s.hot = 0, nil
	clear(s.nic)
	if s.alloc != nil {
		s.alloc.reset()
	}
	s.q.reset()
	for i := range s.hopMemo {
		s.hopMemo[i].id = -1
	}
	s.seq, s.now, s.last = 0, 0, 0
	s.pkts, s.free, s.parts, s.msgs = s.pkts[:0], s.free[:0], s.parts[:0], s.msgs[:0]
	s.depPre, s.depPost, s.depList = s.depPre[:0], s.depPost[:0], s.depList[:0]
	s.rng = *topo.NewRand(seed)
	s.events, s.nDone, s.lat, s.err = 0, 0, s.lat[:0], nil
	s.maxKeep = 0
}

// push schedules an event (kernel_queue.go keeps them in time order).
func (s *sim) push(t float64, kind uint8, id, aux int32) {
	s.seq++
	if s.guard.maxEvents > 0 && s.q.len() >= s.guard.maxEvents && s.err == nil {
		s.err = s.guard.exceeded("pending events", s.q.len(), eventBytes)
	}
	e := event{t: t, seq: s.seq<<8 | uint64(kind), id: id, aux: aux}
	if c := &s.q.cal; c.on { // q.pushCal, inlined (it is too large to be)
		s.q.n++
		if c.push(&e); c.full {
			s.q.leaveCalendar()
		}
	} else if !s.q.pushFast(&e) {
		s.q.push(e)
	}
}

func (s *sim) pop() event { return s.q.pop() }

func (s *sim) lane(ch int32) *lane     { return s.wl.lane(ch) }
func (s *sim) wire(w int32) *wireState { return s.wl.wire(w) }
func (s *sim) numWires() int32         { return s.wl.nwires }
func (s *sim) numLanes() int32         { return s.wl.nwires * s.net.lanes }

// touchAhead fetches the packet of an event a few places ahead in the
// queue and, nearer, the lane a grant hands over or the wire and lanes
// an arriving head will ask for. On a large network nearly
// every packet event misses the cache; a prefetch lets the processor fetch
// those lines while it handles the events before. (A plain load did so
// too, but held the processor up until it arrived: 30% slower at 256×256.)
func (s *sim) touchAhead() {
	// q.ahead, with its common case inlined (ahead itself is too large).
	e := s.q.lists.peek(touchDistance)
	if e == nil {
		e = s.q.aheadSlow(touchDistance)
	}
	if e != nil && e.kind() >= evRoute && e.kind() <= evDeliver {
		// The packet's line and the ring's places aux and aux+1, which
		// may lie in its other line: an arrival writes the next hop at
		// aux+1, and a head that blocks reads its last lanes, up to aux.
		// Into the second-level cache: the first level's few miss
		// buffers were full (perf put the stall on these prefetches), and
		// the lines are read from there a dozen events later at a small
		// cost (256×256 and 512×512: +10–15%).
		p := &s.pkts[e.id]
		prefetch3L2(uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&p.ring[uint32(e.aux)%ringHops])),
			uintptr(unsafe.Pointer(&p.ring[uint32(e.aux+1)%ringHops])))
	} else if e != nil && e.kind() == evGrant {
		prefetch(uintptr(unsafe.Pointer(s.lane(e.id))))
	}
	// Nearer, that packet line has come in: the lanes the head asks for
	// are then a little arithmetic away.
	e = s.q.lists.peek(laneDistance)
	if e == nil {
		e = s.q.aheadSlow(laneDistance)
	}
	if e != nil {
		switch e.kind() {
		case evGrant:
			// The packet the lane will go to: its first line.
			if q := s.lane(e.id).head; q >= 0 {
				prefetch(uintptr(unsafe.Pointer(&s.pkts[q])))
			}
		case evDeliver:
			// A delivery reads the packet's part, then its message, then
			// the receiver's record: on a large network three misses one
			// after another (4% of a 512×512 burst). The part and the
			// receiver are in the packet's line; the message is the
			// part's own number when every message has one part.
			p := &s.pkts[e.id]
			prefetch(uintptr(unsafe.Pointer(&s.parts[p.part])))
			prefetch(uintptr(unsafe.Pointer(&s.nodes[p.dst])))
			if len(s.parts) == len(s.msgs) {
				prefetch(uintptr(unsafe.Pointer(&s.msgs[p.part])))
			}
		case evArrive:
			// The head's next wire and its lanes (one line), where routing
			// can tell them by arithmetic.
			p := &s.pkts[e.id]
			// route will want the same hop: it is kept for it.
			if m := &s.hopMemo[e.id&(hopMemos-1)]; s.net.rule != ruleNone && s.net.firstHopTo(p.at, p.target, &m.h) {
				m.id, m.at, m.target = e.id, p.at, p.target
				w := m.h.wire
				// One line with up to two lanes; the record's last byte's
				// where more.
				a := uintptr(unsafe.Pointer(s.wire(w)))
				b := a + uintptr(s.wl.stride)*unsafe.Sizeof(slot{}) - 1
				prefetch(a)
				if b>>6 != a>>6 {
					prefetch(b)
				}
			} else {
				m.id = -1 // m.h may be half written
			}
		}
	}
}

// hopMemo is a hop touchAhead worked out for packet id at node at bound
// for target; route takes it from there instead of working it out again.
type hopMemo struct {
	id, at, target int32
	h              ruleHop
}

// hopMemos is how many hops are kept (a power of 2, by packet id): far
// more than the laneDistance events ahead, so a packet's rarely displaces
// another's (at 8, one hop in five was worked out twice; 987 instructions
// a hop at 64×64 against 1017, and 981 at 256).
const hopMemos = 64

// laneDistance is how many events ahead touchAhead fetches the lanes an
// event asks for: at three, with a head's hop taken in one function
// (arrivePlain), perf put half of that function's samples on its first
// read of the lane, which had not come in.
const laneDistance = 5

// touchDistance is how many events ahead touchAhead fetches packets: at
// six, the line had often not come in when its event was handled (10–20%
// slower at 256×256 and 512×512 than at 16; 16 to 32 measure alike).
const touchDistance = 16

// run processes events until none are left, the event limit is hit or ctx
// is cancelled.
func (s *sim) run(ctx context.Context) (partial bool) {
	if partial, ok := s.runStriped(ctx); ok {
		return partial
	}
	if n := len(s.parts); cap(s.pkts) < n && len(s.pkts) == 0 {
		// Every part sends a packet, in a burst nearly all at once: room
		// for them now spares growing the packets by copies (each 1.25
		// times the last on a large network, the old copy live meanwhile).
		s.pkts = hugepages.Make[packet](0, n)
	}
	for i := range s.msgs {
		if s.msgs[i].deps == 0 {
			s.push(0, evMsgReady, int32(i), 0)
		}
	}
	limit := s.opt.MaxEvents
	if limit <= 0 {
		limit = math.MaxInt64
	}
	if s.star {
		return s.runStar(ctx, limit)
	}
	plain := s.plainHops()
	for s.q.len() > 0 && s.err == nil {
		if s.events >= limit {
			return true
		}
		if s.events&0xffff == 0xffff && s.poll(ctx) {
			return true
		}
		// s.pop(), its commonest case inlined (the queue's pop is too
		// large to be).
		e, ok := s.q.popListed()
		if !ok {
			e = s.q.pop()
		}
		if s.fetchAhead {
			s.touchAhead()
		}
		s.events++
		s.now, s.cur = e.t, e.seq
		if e.t > s.last || e.t != e.t { // max(s.last, e.t), without its signed-zero cases (s.last is never -0)
			s.last = e.t
		}
		// handle's switch, written out: the call (handle is too large
		// to inline) cost a program's run on a torus some 4%
		// (BenchmarkRunProgram/torus32x32, 5 runs, 3 rounds: 243-256 ms
		// with it, 234-237 ms without).
		switch e.kind() {
		case evMsgReady:
			s.msgReady(e.id)
		case evPartStart:
			s.launch(e.id)
		case evRoute:
			s.route(e.id, &s.pkts[e.id])
		case evArrive:
			if plain {
				s.arrivePlain(e.id)
			} else {
				s.arrive(e.id)
			}
		case evGrant:
			s.grant(e.id)
		case evDeliver:
			s.deliver(e.id)
		case evAckGen:
			p := s.newPacket(e.id, e.aux, s.parts[e.id].src, true)
			s.route(p, &s.pkts[p])
		case evDriver:
			s.drv.wake(e.id, e.aux)
		case evRetry:
			s.retry(e.id)
		case evLaneOpen:
			s.laneOpen(e.id)
		}
	}
	if s.usedLast > s.last && s.err == nil {
		s.last = s.usedLast // as if their events had been handled (lane_credits.go's usedBack)
	}
	return false
}

// handle handles event e (plain: heads may take arrivePlain's way).
func (s *sim) handle(e *event, plain bool) {
	switch e.kind() {
	case evMsgReady:
		s.msgReady(e.id)
	case evPartStart:
		s.launch(e.id)
	case evRoute:
		s.route(e.id, &s.pkts[e.id])
	case evArrive:
		if plain {
			s.arrivePlain(e.id)
		} else {
			s.arrive(e.id)
		}
	case evGrant:
		s.grant(e.id)
	case evDeliver:
		s.deliver(e.id)
	case evAckGen:
		p := s.newPacket(e.id, e.aux, s.parts[e.id].src, true)
		s.route(p, &s.pkts[p])
	case evDriver:
		s.drv.wake(e.id, e.aux)
	case evRetry:
		s.retry(e.id)
	case evLaneOpen:
		s.laneOpen(e.id)
	}
}

// poll, every 65,536 events, tells whether ctx is cancelled and calls
// tick.
func (s *sim) poll(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if s.tick != nil {
		s.tick()
	}
	return false
}

func (s *sim) msgReady(m int32) {
	msg := &s.msgs[m]
	msg.ready = s.now
	np := s.net.nodeP(msg.src)
	if np.SerialSetup && s.nic == nil {
		s.setUpSerially(msg, np)
		return
	}
	for j := msg.part0; j < msg.part0+msg.parts; j++ {
		start := max(s.now, s.nodes[msg.src].cpu)
		if s.nic != nil {
			s.nicSend(msg, np, start, j)
			continue
		}
		s.nodes[msg.src].cpu = start + np.SendOverhead
		if s.nodes[msg.src].cpu == s.now {
			s.launch(j)
		} else {
			s.push(s.nodes[msg.src].cpu, evPartStart, j, 0)
		}
	}
}

// setUpSerially sets up every part (channel) of a message, SendOverhead
// each on the sender's CPU, and then launches them all (NodeParams.
// SerialSetup).
func (s *sim) setUpSerially(msg *message, np *NodeParams) {
	cpu := max(s.now, s.nodes[msg.src].cpu)
	for range msg.parts {
		cpu += np.SendOverhead
	}
	s.nodes[msg.src].cpu = cpu
	for j := msg.part0; j < msg.part0+msg.parts; j++ {
		if cpu == s.now {
			s.launch(j)
		} else {
			s.push(cpu, evPartStart, j, 0)
		}
	}
}

// launch sends the next packet of a part if its window allows; the one
// after it follows once this one holds its first lane.
func (s *sim) launch(pi int32) {
	pt := &s.parts[pi]
	if pt.sent >= pt.npk {
		return
	}
	if w := int32(s.net.spec.Packet.Window); w > 0 && s.sw != Circuit && pt.sent-pt.acked >= w {
		pt.waiting = true
		return
	}
	p := s.newPacket(pi, pt.src, pt.dst, false)
	pt.sent++
	s.route(p, &s.pkts[p])
}

func (s *sim) newPacket(pi, from, to int32, ack bool) int32 {
	var id int32
	if n := len(s.free); n > 0 {
		id = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		// Reslice within capacity so an old packet's hops buffer is reused.
		if len(s.pkts) < cap(s.pkts) {
			s.pkts = s.pkts[:len(s.pkts)+1]
		} else {
			if s.guard.maxPackets > 0 && len(s.pkts) >= s.guard.maxPackets && s.err == nil {
				s.err = s.guard.exceeded("packets in flight", len(s.pkts), packetBytes)
			}
			s.pkts = append(s.pkts, packet{})
		}
		id = int32(len(s.pkts) - 1)
	}
	p := &s.pkts[id]
	pt := &s.parts[pi]
	pk := &s.net.spec.Packet
	// Field by field, every one but the ring, whose places are written
	// before they are read (the path's lanes from 0 on): assigning the
	// whole record cleared its 256 bytes and stored its slice through
	// the collector's barrier, a hundred instructions a packet.
	p.at, p.target, p.dst, p.tail, p.nhops, p.waitCh, p.inLink, p.lastDim, p.class = from, to, to, 0, 0, -1, -1, -1, 0
	p.spilled, p.probe, p.first, p.ack = false, false, false, ack
	p.bytes, p.lastLat, p.lastEnd = 0, 0, 0
	p.part, p.idx, p.next, p.waitNext, p.base, p.k = pi, -1, -1, 0, 0, 0
	p.blocked, p.lastTx = 0, 0
	p.hops = p.hops[:0]
	var size int64
	if ack {
		size = int64(pk.AckBytes)
	} else {
		p.idx = pt.sent
		p.first = p.idx == 0
		size = pt.bytes + int64(pk.Header+pk.Trailer)
		if p.idx == pt.npk-1 {
			size = pt.last + int64(pk.Header+pk.Trailer)
		}
		n := s.net
		if s.alts != nil && pt.rt != 0 {
			n = s.alts[pt.rt]
		}
		if n.rk == rValiant {
			if n.viaSwitch {
				p.target = int32(s.rng.Intn(n.core.Nodes))
			} else {
				p.target = n.g.Proc(s.rng.Intn(n.nprocs))
			}
		}
	}
	p.bytes = size
	p.probe = s.sw == Circuit
	if s.keepsWorm {
		flit, buf := int64(max(pk.FlitBytes, 1)), int64(pk.BufferFlits)
		if buf == 0 {
			buf = 16
		}
		flits := (size + flit - 1) / flit
		p.k = int32(max(1, (flits+buf-1)/buf))
		if s.net.credits && s.net.roomFor(size) {
			// Under credits a packet that fits its buffer with room to
			// spare keeps no lane when its head blocks: BookSim 2
			// (wait_for_tail_credit = 0) frees a VC once its tail is sent
			// (buffer_state.cpp:640–646), the blocked packet's flits wait
			// in the buffer ahead, and the next packet follows them there,
			// behind it in order (inLane), while the lane's credits last
			// (owe).
			p.k = 0
		}
		s.maxKeep = max(s.maxKeep, p.k)
	}
	return id
}

// route makes the routing decision for the head of packet id (p) at its
// node.
func (s *sim) route(id int32, p *packet) {
	if s.alts != nil {
		// A message that names its routing is routed on that routing's
		// network, which the rest of the decision (choose, pickLane)
		// reads as s.net; the lanes and wires are the same.
		if k := s.parts[p.part].rt; k != 0 && s.net != s.alts[k] {
			was := s.net
			s.net = s.alts[k]
			s.route(id, p)
			s.net = was
			return
		}
	}
	n := s.net
	if p.at == p.target && p.target != p.dst && n.rk != rSwitched { // Valiant: intermediate reached
		p.target = p.dst
		p.class, p.lastDim = 0, -1
	}
	var (
		a    topo.Adj
		w, d int32
		wrap bool
		ci   int
	)
	if n.rule != ruleNone && (n.rk == rStatic || n.rk == rValiant) {
		// Rule order takes the first minimal hop (choose's 0: a
		// rule-numbered graph has no parallel links).
		h := &s.hop
		ok := true
		if m := &s.hopMemo[id&(hopMemos-1)]; m.id == id && m.at == p.at && m.target == p.target {
			h = &m.h
		} else {
			ok = n.firstHopTo(p.at, p.target, h)
		}
		if !ok {
			s.err = fmt.Errorf("no route from node %d to node %d", n.g.ID(p.at), n.g.ID(p.target))
			return
		}
		a, w, d, wrap = topo.Adj{Node: h.next, Link: h.link}, h.wire, h.dim, h.wrap
		if h.tie && s.rng.Intn(2) == 1 {
			// Half way round an even ring both ways are minimal: each
			// packet takes one at random, as BookSim's dim_order_torus
			// (once past the tie the rest of the way is shorter its way).
			a, w, wrap = n.backHop(p.at, d)
		}
	} else if n.rk == rSwitched {
		var ok bool
		if a, w, d, ok = s.switchedHop(p); !ok {
			s.err = fmt.Errorf("no route from node %d to node %d", n.g.ID(p.at), n.g.ID(p.target))
			return
		}
	} else {
		if n.rk == rHotPotato {
			s.deflect(id, p)
			return
		}
		in := p.inLink
		if n.rk == rAcyclic {
			in = p.lastLane()
		}
		s.cand, s.lbuf = n.candidates(p.at, p.target, in, s.cand, s.lbuf)
		if len(s.cand) == 0 {
			s.err = fmt.Errorf("no route from node %d to node %d", n.g.ID(p.at), n.g.ID(p.target))
			return
		}
		if len(s.cand) > 1 {
			ci = s.choose(p)
		}
		a = s.cand[ci]
		w, d = n.wire(a.Link, p.at), n.dim(a.Link)
		if n.dateline {
			wrap = s.wraps(p.at, a.Node, d)
		}
	}
	class := p.class
	if n.dateline {
		if d != p.lastDim {
			class = 0
		}
		if wrap {
			class = 1
		}
	}
	lc := class
	if n.rk == rSwitched {
		lc = min(class, n.classes-1)
	}
	if n.phased && p.target == p.dst && !p.ack {
		lc += n.classes / 2
	}
	var ch int32
	if n.rk == rAcyclic {
		ch = s.acyclicLane(ci)
		w = s.wl.wireOf(ch)
	} else if s.injNext != nil && p.nhops == 0 {
		if s.injLast != nil {
			ch = s.injectOne(w, p.at)
		} else {
			ch = s.injectLane(w, p.at)
		}
	} else {
		ch = s.pickLane(w, lc)
	}
	p.class = class
	p.lastDim = d
	ln := s.wl.laneOn(w, ch)
	if ln.free(s.now) {
		s.acquire(id, p, w, ch, a.Node)
		return
	}
	if p.waitCh != waitAhead {
		// (else the worm has stood still, its lanes kept, since it
		// blocked behind the packet ahead in its input buffer)
		p.blocked = s.now
		s.keepWorm(p)
	}
	p.waitCh, p.waitNext = ch, a.Node
	p.next = -1
	q := &s.laneQ[ch]
	if ln.head < 0 {
		ln.head, q.n = id, 0
		if !math.IsInf(ln.until, 1) {
			s.push(max(s.now, ln.until), evGrant, ch, 0)
		}
	} else {
		s.pkts[q.tail].next = id
	}
	q.tail = id
	q.n++
}

// keepWorm makes a worm whose head has just blocked keep the lanes its
// flits fill, the last K it holds, until the head moves on (acquire then
// sets when their tails leave). Its lanes before them drain into those
// buffers and keep their times.
func (s *sim) keepWorm(p *packet) {
	if p.k == 0 {
		return
	}
	p.tail = max(p.tail, p.nhops-p.k)
	for p.tail < p.nhops && p.hop(p.tail).end <= s.now {
		p.tail++
	}
	for i := p.tail; i < p.nhops; i++ {
		s.lane(p.hop(i).ch).until = math.Inf(1)
	}
}

// reopen sets when the tail leaves lane ch, which its holder kept
// open-ended, and hands it then to the first packet waiting, if any.
func (s *sim) reopen(ch int32, until float64) {
	if s.inb != nil && s.inb[ch].room != 0 {
		s.inb[ch].end = until // (opened when its credits are back)
		return
	}
	ln := s.lane(ch)
	ln.until = until
	if ln.head >= 0 {
		s.push(max(s.now, until), evGrant, ch, 0)
	}
}

// queued is how many packets wait for lane ch.
func (s *sim) queued(ch int32) int32 {
	if s.lane(ch).head < 0 {
		return 0
	}
	return s.laneQ[ch].n
}

// later is max(a, b) for times, which are never NaN or -0: the builtin's
// handling of those costs a hop a dozen instructions.
func later(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}

// wraps tells whether the hop from u to v along dimension d of a torus
// crosses the wrap-around (dateline) link.
func (s *sim) wraps(u, v, d int32) bool {
	if d < 0 || int(d) >= len(s.net.axes) {
		return false
	}
	ax := &s.net.axes[d]
	k, a, b := ax.k, ax.coord(u), ax.coord(v)
	return k > 2 && (a == k-1 && b == 0 || a == 0 && b == k-1)
}

// pickLane chooses a lane of wire w in lane class `class` (of
// net.classes equal shares): a free one if any, else the one with the
// shortest queue, and of those the one freed first.
func (s *sim) pickLane(w, class int32) int32 {
	first := w * s.net.lanes
	lo, hi := first+s.net.classLo[class], first+s.net.classLo[class+1]
	if hi-lo == 1 {
		return lo // the class's only lane (route sees whether it is free)
	}
	best := lo
	for c := lo; c < hi; c++ {
		if s.wl.laneOn(w, c).free(s.now) {
			return c
		}
		if c > lo {
			// The shortest queue; of equal ones the lane whose holder
			// leaves first (with lanes sharing the wire, the soonest free
			// is no longer the wire's, as when its packets went one by one).
			if q, qb := s.queued(c), s.queued(best); q < qb || q == qb && s.wl.laneOn(w, c).until < s.wl.laneOn(w, best).until {
				best = c
			}
		}
	}
	return best
}

// injectsRoundRobin tells whether the network's terminals take their
// injection lanes round robin (injectLane): a switched network of several
// lanes under credits, or one whose terminals inject one packet at a time.
func (n *network) injectsRoundRobin() bool {
	return n.credits && n.lanes > 1 && (n.rk == rSwitched || n.injectsOneAtATime())
}

// injectsOneAtATime tells whether the network's terminals inject one
// packet at a time (injectOne): several lanes under credits, processors
// attached to routers (a terminal's one wire is its injection channel).
func (n *network) injectsOneAtATime() bool {
	return n.credits && n.lanes > 1 && n.attached
}

// injectOne is the lane of wire w, terminal at's injection wire, a packet
// leaving at takes when the terminal injects one packet at a time.
// BookSim's terminal keeps a queue of flits per class and sends the
// front one when its VC has a credit (trafficmanager's _partial_packets),
// so a packet's head leaves only after the packet before it has sent its
// tail: with buffers shorter than a packet, a head blocked in the first
// router holds its tail at the terminal and the packets behind it in the
// source queue. So while the last packet's lane is held, or packets wait
// for it, the packet waits for that lane (grant then gives it the lane
// injectAfter picks); else it takes the next free lane round robin.
func (s *sim) injectOne(w, at int32) int32 {
	// (On a terminal of several wires the last packet's lane counts only
	// for a packet leaving by the same wire.)
	if l := s.injLast[at]; l >= w*s.net.lanes && l < (w+1)*s.net.lanes && !s.wl.laneOn(w, l).free(s.now) && !s.tailSent(w, l, at) {
		return l
	}
	ch := s.injectLane(w, at)
	s.injLast[at] = ch
	return ch
}

// injectAfter is the lane a packet waiting at its terminal for lane ch
// (injectOne) takes once ch's holder has sent its tail: the next lane
// round robin whose holder has left, ch among them. The packets still
// waiting behind it then wait for that lane.
func (s *sim) injectAfter(w, ch, at int32) int32 {
	n := s.net.lanes
	first := w * n
	x := ch
	for i := range n {
		if c := first + (s.injNext[at]+i)%n; c == ch || s.wl.laneOn(w, c).free(s.now) {
			x = c
			break
		}
	}
	s.injNext[at] = (x - first + 1) % n
	s.injLast[at] = x
	if from := s.wl.laneOn(w, ch); x != ch && from.head >= 0 {
		to := s.wl.laneOn(w, x)
		to.head, from.head = from.head, -1
		s.laneQ[x], s.laneQ[ch] = s.laneQ[ch], laneQueue{}
		for q := to.head; q >= 0; q = s.pkts[q].next {
			s.pkts[q].waitCh = x
		}
	}
	return x
}

// injectLane is the lane of wire w a packet leaving terminal at takes, on
// a network whose terminals take their lanes round robin (sim.injNext;
// injectOne calls it once the last packet's tail has left).
// BookSim's terminal is not held to a routing phase's VC when it injects:
// its routing functions give it every VC of the injection channel, and
// it takes them round robin, the first free one after the last it took
// (trafficmanager's _last_vc). So its packets spread over the first
// router's input buffers, which are served in order (inLane), and one
// blocked at the front of a buffer does not hold up the next packet, as
// it would with every packet on the lane of its first class. With none
// free, the lane after the last taken.
func (s *sim) injectLane(w, at int32) int32 {
	n := s.net.lanes
	first := w * n
	start := s.injNext[at]
	ch := first + start
	for i := range n {
		if c := first + (start+i)%n; s.wl.laneOn(w, c).free(s.now) {
			ch = c
			break
		}
	}
	s.injNext[at] = (ch - first + 1) % n
	return ch
}

// parallel is how many of the candidates lead, over parallel links, to
// the node of the first.
func parallel(cand []topo.Adj) int {
	par := 0
	for _, a := range cand {
		if a.Node == cand[0].Node {
			par++
		}
	}
	return par
}

// otherWay is, half way round a ring of a torus with an even side, the
// index among the candidates of the backward hop, as short as the first
// and listed after its par parallel links; else -1.
func (n *network) otherWay(cand []topo.Adj, par int) int {
	if n.splitTies && par < len(cand) && n.dim(cand[par].Link) == n.dim(cand[0].Link) {
		return par
	}
	return -1
}

// choose applies the adaptive policy among the minimal candidates; the
// score-based policies pick at random among equally good candidates.
func (s *sim) choose(p *packet) int {
	n := s.net
	switch n.rk {
	case rStatic, rValiant, rTree, rCustom, rAcyclic:
		// Rule order is kept, but a message split over l links spreads its
		// parts over parallel links to the chosen neighbour (seed 000 Eq. 6).
		par := parallel(s.cand)
		if n.otherWay(s.cand, par) >= 0 && s.rng.Intn(2) == 1 {
			// Half way round an even torus ring: each packet takes one
			// way at random, as BookSim's dim_order_torus.
			return par
		}
		if p.ack {
			return 0
		}
		if par == 1 {
			return 0 // without reading the part, a cache miss on a large network
		}
		return int(s.parts[p.part].link) % par
	case rRandom:
		return s.rng.Intn(len(s.cand))
	}
	bestScore := math.Inf(1)
	s.ties = s.ties[:0]
	for i, a := range s.cand {
		w := n.wire(a.Link, p.at)
		var score float64
		switch n.rk {
		case rLeastUsed:
			score = float64(s.wire(w).load)
		case rQuiet:
			score = s.wire(w).free
		case rShortQueue, rFirstReady, rSwitched:
			q := int32(math.MaxInt32)
			for c := w * n.lanes; c < (w+1)*n.lanes; c++ {
				l := int32(0) // queued(c), on the lane of the wire known
				ln := s.wl.laneOn(w, c)
				if ln.head >= 0 {
					l = s.laneQ[c].n
				}
				if !ln.free(s.now) {
					l++
				}
				q = min(q, l)
			}
			score = float64(q)
			if n.rk == rFirstReady && q > 0 {
				score = 1 + s.wire(w).free // all busy: the wire free soonest
			}
		}
		switch {
		case score < bestScore:
			bestScore = score
			s.ties = append(s.ties[:0], i)
		case score == bestScore:
			s.ties = append(s.ties, i)
		}
	}
	// Ties are broken at random (seed 003 §2.4.2), with the run's
	// generator, so a seed still fixes the outcome.
	if len(s.ties) > 1 {
		return s.ties[s.rng.Intn(len(s.ties))]
	}
	return s.ties[0]
}

// afterPacketOverhead is when a packet leaving node at start may take its
// first wire: after the node's per-packet overhead β (PacketOverhead), which
// its packets pay one after another; start itself where β is 0.
func (s *sim) afterPacketOverhead(node int32, start float64) float64 {
	if beta := s.net.nodeP(node).PacketOverhead; beta > 0 {
		vs := max(start, s.nodes[node].vcp)
		s.nodes[node].vcp = vs + beta
		return vs + beta
	}
	return start
}

// acquire gives lane ch, of wire w, to packet id (p) at the current time
// and sends the packet (or, for a circuit probe, the header) over it.
func (s *sim) acquire(id int32, p *packet, w, ch, next int32) {
	n := s.net
	wr := s.wire(w)
	ln := s.wl.laneOn(w, ch)
	ln.owner = id
	start := s.now
	if p.waitCh != -1 {
		if p.waitCh >= 0 && !(s.alloc != nil && s.allocOverlaps(w, ch)) {
			// A lane handed over to a waiting head is allocated anew,
			// which takes the router's AllocDelay (router.go).
			start += n.nodeP(p.at).AllocDelay
		}
		p.waitCh = -1
		// The flits in the last K lanes (those keepWorm kept) stood still
		// while the head was blocked: their tails leave that much later.
		stall := start - p.blocked
		for i := max(p.tail, p.nhops-p.k); i < p.nhops; i++ {
			h := p.hop(i)
			h.end += stall
			s.reopen(h.ch, h.end)
			p.lastEnd = h.end // the newest lane's, last
		}
	}
	l := w >> 1 // w / 2 (w ≥ 0), without a signed division's fix-up
	lp := n.linkP(l)
	if p.nhops == 0 {
		start = s.afterPacketOverhead(p.at, start)
	}
	if p.first {
		wr.load++
		if p.nhops > 0 && p.at != p.dst {
			if n.buses && n.g.Link(l).Multi {
				s.nodes[p.at].through++
			} else {
				wr.through++
			}
		}
	}
	var end float64
	if p.probe {
		end = start // the probe is only a header; data timing is set when the circuit is up
	} else if n.credits || n.shareWire && wr.free > start {
		// Only a wire still busy at start can be shared; an idle one
		// times the packet as a wire of one lane does.
		start, end = s.transmit(id, p, w, ch, start, lp, next)
	} else {
		start = later(start, wr.free)
		dur := float64(p.bytes) / lp.Bandwidth
		if sp := n.spec.Speedup; sp > 0 && p.nhops > 0 {
			// The crossbar input the packet came in by passes one packet
			// at a time, at speedup times the link's rate (router.go).
			in := p.hop(p.nhops-1).ch / n.lanes
			start = max(start, s.wire(in).xbar)
			s.wire(in).xbar = start + dur/sp
		}
		end = start + dur
		if s.sw != SAF && p.nhops > 0 {
			end = later(end, p.lastEnd+p.lastLat)
		}
		wr.free = end
		wr.busy += dur
		if s.busy != nil {
			s.busy.add(w, start, start+dur)
		}
	}
	if p.probe {
		ln.until = math.Inf(1) // until the circuit is up
	} else {
		ln.until = end
		if s.injSent != nil && p.nhops == 0 {
			s.injSent[p.at] = s.tailLeaves(p, end)
		}
		// A full buffer at the lane's far end closes it until a packet
		// leaves (buffers.go).
		full := s.bufPkts > 0 && s.takeBuffer(p, ch, end)
		// Under credits a packet the buffer at next cannot hold keeps
		// the lane until its head moves on from next (credits sets when
		// its tail leaves).
		kept := n.credits && next != p.dst && p.bytes > n.bufBytes
		if kept {
			ln.until = math.Inf(1)
		}
		if !p.spilled && p.nhops-p.tail == ringHops {
			// The ring is full. Of the lanes held, only the last K are
			// read again (keepWorm, and the stall when the head moves
			// on), and the newest: the older ones drain whatever the head
			// does, and their lanes know when. Forgetting them reads
			// nothing; only a worm of more lanes than the ring spills.
			p.tail = max(p.tail, p.nhops+1-max(s.maxKeep, 1))
		}
		if n.credits && !kept && n.roomFor(p.bytes) && next != p.dst && s.owe(n.flitsOf(p.bytes), ch, end) {
			full = true // shut until credits come back (lane_credits.go)
		}
		if ln.head >= 0 && !full && !kept {
			// Granted with more waiting: the next gets it when this tail
			// leaves.
			s.push(end, evGrant, ch, 0)
		}
	}
	if s.used != nil || n.credits && n.roomFor(p.bytes) {
		s.countCredits(p, w, start, end, next)
	}
	var seq uint32
	if n.credits && !p.probe {
		seq = s.inOrder(p, ch, end, lp, next)
	}
	p.addHop(hop{end: end, ch: ch, seq: seq})
	p.lastEnd, p.lastLat = end, lp.Latency
	if next == p.dst {
		p.lastTx = start
	}
	p.inLink = l
	p.at = next
	switch {
	case s.sw == SAF && !p.probe:
		if s.passing != nil && !p.ack {
			// Told now, not when the tail is in (the packet's arrival),
			// so that computation meanwhile knows of it.
			s.passing(next, next == p.dst, start+lp.Latency, end+lp.Latency)
		}
		s.push(end+lp.Latency, evArrive, id, p.nhops-1)
	default:
		if s.cut != nil && s.cut.of[next] != s.stripe {
			s.send(s.cut.of[next], crossing{t: start + lp.Latency, kind: evArrive, id: id, aux: p.nhops - 1})
			break
		}
		s.push(start+lp.Latency, evArrive, id, p.nhops-1)
	}
	if p.nhops == 1 && !p.ack {
		m := &s.msgs[s.parts[p.part].msg]
		m.sent = max(m.sent, end)
		m.tx = max(m.tx, end)
		s.launch(p.part)
	}
}

// inOrder keeps, under credits, the order of the input buffers: packet p,
// whose tail leaves at end over link lp toward next, has moved on from the
// buffer it came in by, so the head behind it there may start its router
// pipeline from one flit time before the tail's last flit leaves (its
// switch allocation; BookSim's next flit then is the head, routed the
// cycle after); and it takes its place in the buffer lane ch leads to,
// whose count it returns (its hop's seq), unless it ends there.
func (s *sim) inOrder(p *packet, ch int32, end float64, lp *LinkParams, next int32) uint32 {
	if p.nhops > 0 {
		ib := &s.inb[p.hop(p.nhops-1).ch]
		ib.out++
		ib.free = end - 2*float64(s.net.flitSize)/lp.Bandwidth
		if q := ib.wait; q >= 0 && s.pkts[q].hop(s.pkts[q].nhops-1).seq == ib.out {
			// The head behind it waited (arrive): now it may go.
			qp := &s.pkts[q]
			ib.wait = qp.next
			qp.next = -1
			s.push(later(qp.blocked, ib.free+s.net.nodeP(p.at).HopDelay), evRoute, q, qp.nhops-1)
		}
	}
	if next == p.dst {
		return 0
	}
	ib := &s.inb[ch]
	ib.in++
	return ib.in - 1
}

// transmit is acquire's timing of packet id (p) on lane ch of wire w,
// asked for at start, where lanes share wires or credits bound them (kept
// apart so that a network of one lane without credits runs the code it
// always ran): when it starts and when its tail has been sent.
func (s *sim) transmit(id int32, p *packet, w, ch int32, start float64, lp *LinkParams, next int32) (float64, float64) {
	n := s.net
	wr := s.wire(w)
	dur := float64(p.bytes) / lp.Bandwidth
	var xbar *float64
	if sp := n.spec.Speedup; sp > 0 && p.nhops > 0 {
		// The crossbar input the packet came in by passes one packet
		// at a time, at speedup times the link's rate (router.go).
		xbar = &s.wire(s.wl.wireOf(p.hop(p.nhops - 1).ch)).xbar
		start = max(start, *xbar)
	}
	// Lanes busy at once share the wire flit by flit: a packet that
	// finds the wire carrying others' flits starts at once and
	// interleaves with them (see shareWire).
	var end float64
	shared := n.shareWire && wr.free > start && s.shareWire(w, ch, start, dur, &end)
	if !shared {
		start = later(start, wr.free)
		end = start + dur
	}
	var loss float64
	if s.alloc != nil {
		loss = s.islipLoss(p, w, ch, start, dur, shared)
		end += loss
	}
	if xbar != nil {
		*xbar = start + dur/n.spec.Speedup
	}
	if n.credits {
		end = s.credits(id, p, start, end, lp, next)
	}
	if s.sw != SAF && p.nhops > 0 {
		end = later(end, p.lastEnd+p.lastLat)
		if n.credits && n.shareWire {
			// Its flits keep its head's pace through the router: the
			// tail leaves no sooner than HopDelay after it came in, so
			// a worm the wire sharing or credits stretched upstream
			// stays stretched (fitted: docs/RUNTIME.md).
			end = later(end, p.lastEnd+p.lastLat+n.nodeP(p.at).HopDelay)
		}
	}
	switch {
	case s.alloc != nil:
		s.islipBook(p, w, start, dur, loss, end, shared)
	case shared:
		wr.free = femto(wr.free + dur)
	default:
		wr.free = end
	}
	wr.busy += dur
	if s.busy != nil {
		s.busy.add(w, start, start+dur)
	}
	return start, end
}

// shareWire times a packet of transmission time dur that takes lane ch of
// wire w at start while the wire still carries other lanes' flits (its
// free time is ahead). The wire serves its busy lanes flit by flit in
// turn, so while k others still send, the packet gets one flit in k+1:
// it ends after dur plus min(backlog, k·dur), the backlog being the
// others' work still to send. The others give up their lanes later by
// min(dur, what they still send), but their tails' times further on,
// fixed when they took their lanes, are not redone (one event a hop
// stays one event a hop); the wire's total work is kept (its free time
// moves on by dur), so a packet that takes it later waits for all of it. It reports false,
// leaving end alone, if no other lane is held at start: the wire's free
// time is then its last holder's, as on a wire of one lane. The times it
// makes, and the wire's free time after it, are whole femtoseconds (femto).
func (s *sim) shareWire(w, ch int32, start, dur float64, end *float64) bool {
	first := w * s.net.lanes
	k := int32(0)
	for c := first; c < first+s.net.lanes; c++ {
		if c != ch && s.wl.laneOn(w, c).until > start {
			k++
		}
	}
	if k == 0 {
		return false
	}
	*end = femto(start + dur + min(s.wire(w).free-start, float64(k)*dur))
	// The others give up their lanes later by what the packet takes
	// from them, a flit in turn for as long as both send.
	for c := first; c < first+s.net.lanes; c++ {
		if ln := s.wl.laneOn(w, c); c != ch && ln.until > start && !math.IsInf(ln.until, 1) {
			s.reopen(c, femto(ln.until+min(ln.until-start, dur)))
		}
	}
	return true
}

// femto rounds a time the wire sharing computed to whole femtoseconds.
// The sharing's sums (a backlog added to a start, a lane's share added
// to its end) carry binary rounding that differs with the order they are
// made in, so times equal in decimal would differ in their last bits, and
// each distinct time costs the event queue a list and a heap operation
// (kernel_queue_times.go): a 512×512 torus burst ran a third longer. Rounded,
// equal times are the one float nearest a whole number of femtoseconds
// (n / 1e15, correctly rounded). Past 2^53 fs (about 9 s) a float's step
// is a femtosecond or more and the time is kept as it is.
func femto(t float64) float64 {
	if x := t * 1e15; x < 1<<53 {
		return math.Round(x) / 1e15
	}
	return t
}

// credits applies credit flow control to a wormhole packet that takes a
// lane at start on link lp toward node next, its tail due to leave at end;
// it returns when the tail can leave. With F flits and buffers of B < F:
// the lane's flits wait for credits, one B flits behind each, which come
// back CreditDelay + 2 × latency after the flit was sent (a lane into a
// router carries B flits per round trip); and the previous lane, kept
// since the head took it, can send its last F − B flits only as the head
// frees buffers here from start on, so its tail leaves no sooner than
// start + (F − B) flit times + CreditDelay + its latency. That reaches one
// lane back; a lane further back keeps the times it had. With lanes
// sharing wires the flit F − B leaves at the packet's shared pace and the
// credit's way back is CreditDelay + latency − HopDelay (the loop less a
// flit's time from the previous lane's wire to this one's), at least 0.
func (s *sim) credits(id int32, p *packet, start, end float64, lp *LinkParams, next int32) float64 {
	n := s.net
	if p.bytes <= n.bufBytes { // (its flits fit the buffer)
		return end
	}
	flits := (p.bytes + n.flitSize - 1) / n.flitSize
	free := flits - n.bufFlits // flits a buffer cannot hold
	sharedEnd := end
	if next != p.dst {
		tf := float64(n.flitSize) / lp.Bandwidth
		if rtt := n.spec.CreditDelay + 2*lp.Latency; rtt > float64(n.bufFlits)*tf {
			last := flits - 1
			end = max(end, start+float64(last/n.bufFlits)*rtt+float64(last%n.bufFlits+1)*tf)
		}
	}
	if p.nhops > 0 {
		h := p.hop(p.nhops - 1)
		if ln := s.lane(h.ch); ln.owner == id {
			prev := n.linkP(h.ch / n.lanes >> 1)
			drain := float64(free*n.flitSize) / prev.Bandwidth
			back := n.spec.CreditDelay + prev.Latency
			if n.shareWire {
				// With lanes sharing wires: the flit F − B leaves here at
				// the packet's shared pace, and the credit's way back is
				// the loop less the time a flit takes from that lane's
				// wire to this one's (its latency and this router's
				// HopDelay), so a packet that does not wait here does not
				// hold that lane past its tail (docs/RUNTIME.md).
				drain = max(drain, (sharedEnd-start)*float64(free)/float64(flits))
				back = max(0, back-n.nodeP(p.at).HopDelay)
			}
			need := start + drain + back
			h.end = max(h.end, need)
			s.reopen(h.ch, h.end)
			p.lastEnd = h.end
		}
	}
	return end
}

// arrive handles the head reaching node p.at.
func (s *sim) arrive(id int32) {
	n := s.net
	p := &s.pkts[id]
	if s.passing != nil && !p.probe && !p.ack && s.sw != SAF {
		s.passing(p.at, p.at == p.dst, s.now, max(s.now, p.lastEnd+p.lastLat))
	}
	if p.at == p.dst {
		if p.probe {
			s.circuitUp(id)
			return
		}
		if !p.ack && n.spec.Packet.Window > 0 {
			bw := n.linkP(p.inLink).Bandwidth
			t := max(s.now, p.lastTx+p.lastLat+float64(n.spec.Packet.Header)/bw)
			s.push(t, evAckGen, p.part, p.dst)
		}
		s.push(max(s.now, p.lastEnd+p.lastLat), evDeliver, id, 0)
		return
	}
	np := n.nodeP(p.at)
	ready := s.now + np.HopDelay
	if s.inb != nil && !p.probe {
		// The input buffer is served in order: a head behind a packet
		// that has not moved on waits for it (inOrder wakes it).
		h := p.hop(p.nhops - 1)
		ib := &s.inb[h.ch]
		if ib.out != h.seq {
			p.waitCh, p.blocked, p.next = waitAhead, ready, -1
			s.keepWorm(p)
			if ib.wait < 0 {
				ib.wait = id
			} else {
				s.pkts[ib.waitTail].next = id
			}
			ib.waitTail = id
			return
		}
		ready = later(ready, ib.free+np.HopDelay)
	}
	if n.softRoute && (np.RouteFixed > 0 || np.RoutePerByte > 0 || np.RouteCPUFixed > 0 || np.RouteCPUPerByte > 0) && n.g.NodeKind(p.at) == topo.Processor && !p.probe {
		// Software routing: receive the whole packet, then the CPU routes it.
		whole := max(s.now, p.lastEnd+p.lastLat)
		if np.RouteCPUFixed > 0 || np.RouteCPUPerByte > 0 {
			// A router process of high priority (TINY's): it waits for
			// the packets before it, not for the computation, from which
			// it takes its CPU time instead.
			rs := max(whole, s.router[p.at])
			s.router[p.at] = rs + np.RouteFixed + np.RoutePerByte*float64(p.bytes)
			ready = max(ready, s.router[p.at]+np.HopDelay)
			if s.routeCPU != nil {
				s.routeCPU(p.at, rs, np.RouteCPUFixed+np.RouteCPUPerByte*float64(p.bytes))
			}
		} else {
			cs := max(whole, s.nodes[p.at].cpu)
			s.nodes[p.at].cpu = cs + np.RouteFixed + np.RoutePerByte*float64(p.bytes)
			ready = max(ready, s.nodes[p.at].cpu+np.HopDelay)
		}
	}
	if ready > s.now {
		s.push(ready, evRoute, id, p.nhops-1)
	} else {
		s.route(id, p)
	}
}

// circuitUp: the probe reached the destination; the confirmation returns
// along the path, then the data streams and frees lanes behind its tail.
func (s *sim) circuitUp(id int32) {
	n := s.net
	p := &s.pkts[id]
	back := 0.0
	for i := p.tail; i < p.nhops; i++ {
		h := p.hop(i)
		back += n.linkP(h.ch / n.lanes / 2).Latency
		if i > 0 {
			// the hop delay of the node the lane leaves from
			back += n.nodeP(s.fromNode(h.ch)).HopDelay
		}
	}
	t := s.now + back
	prevEnd, prevLat := 0.0, 0.0
	for i := p.tail; i < p.nhops; i++ {
		h := p.hop(i)
		w := h.ch / n.lanes
		lp := n.linkP(w / 2)
		dur := float64(p.bytes) / lp.Bandwidth
		h.end = max(t+dur, prevEnd+prevLat)
		s.wire(w).busy += dur
		if s.busy != nil {
			s.busy.add(w, t, t+dur)
		}
		s.wire(w).free = max(s.wire(w).free, h.end)
		s.reopen(h.ch, h.end)
		prevEnd, prevLat = h.end, lp.Latency
		t += lp.Latency
		if s.passing != nil && !p.ack {
			// The data streams through the node the lane leads to.
			at := p.dst
			if i+1 < p.nhops {
				at = s.fromNode(p.hop(i + 1).ch)
			}
			s.passing(at, at == p.dst, t, h.end+lp.Latency)
		}
	}
	p.probe = false
	if !p.ack {
		// The sender is busy until the data has streamed onto the first lane.
		m := &s.msgs[s.parts[p.part].msg]
		m.sent = max(m.sent, p.hop(p.tail).end)
		m.tx = max(m.tx, p.hop(p.tail).end)
	}
	p.lastEnd = prevEnd
	s.push(prevEnd+prevLat, evDeliver, id, 0)
}

func (s *sim) fromNode(ch int32) int32 {
	w := ch / s.net.lanes
	k := s.net.g.Link(w / 2)
	if w%2 == 1 {
		return k.B
	}
	return k.A
}

// grant hands lane ch, whose holder's tail leaves it now, to the packet
// that has waited for it longest or, under round-robin arbitration, to
// the one whose input link follows the last one served.
func (s *sim) grant(ch int32) {
	ln := s.lane(ch)
	q := ln.head
	if q < 0 {
		return // handed over already
	}
	if ln.until > s.now {
		// kept on by a worm that blocked since; a terminal's packets that
		// waited for it to send its tail may take another lane
		if s.injSent != nil && s.pkts[q].nhops == 0 {
			s.injectPast(ch, q)
		}
		return
	}
	lq := &s.laneQ[ch]
	prev := int32(-1)
	if s.net.arb == RoundRobin && lq.n > 1 {
		last := s.lastIn[ch]
		best, bestPrev, bestKey := q, int32(-1), int64(math.MaxInt64)
		for x, px := q, int32(-1); x >= 0; px, x = x, s.pkts[x].next {
			key := int64(s.pkts[x].inLink)
			if key <= int64(last) {
				key += 1 << 40
			}
			if key < bestKey {
				best, bestPrev, bestKey = x, px, key
			}
		}
		q, prev = best, bestPrev
	}
	nx := s.pkts[q].next
	if prev < 0 {
		ln.head = nx
	} else {
		s.pkts[prev].next = nx
	}
	if lq.tail == q {
		lq.tail = prev
	}
	lq.n--
	if s.lastIn != nil {
		s.lastIn[ch] = s.pkts[q].inLink
	}
	p := &s.pkts[q]
	w := s.wl.wireOf(ch)
	if s.injLast != nil && p.nhops == 0 {
		ch = s.injectAfter(w, ch, p.at)
	}
	s.acquire(q, p, w, ch, p.waitNext)
}

func (s *sim) deliver(id int32) {
	p := &s.pkts[id]
	if s.bufPkts > 0 && p.nhops > 0 {
		s.leaveBuffer(p.hop(p.nhops-1).ch, true)
	}
	if s.hot != nil {
		s.hotDelivered(id)
	}
	pi := p.part
	pt := &s.parts[pi]
	// Its tail has left every lane by now (lanes keep no reference that
	// matters once until has passed), so the packet can be reused.
	s.free = append(s.free, id)
	if p.ack {
		m := &s.msgs[pt.msg]
		m.sent = max(m.sent, s.now)
		pt.acked++
		if pt.waiting {
			pt.waiting = false
			s.launch(pi)
		}
		return
	}
	msg := &s.msgs[pt.msg]
	if p.idx == 0 && pt.j == 0 {
		msg.hops = p.nhops
	}
	if pt.recv++; pt.recv < pt.npk {
		return
	}
	if msg.partsDone++; msg.partsDone < msg.parts {
		return
	}
	cs := max(s.now, s.nodes[msg.dst].cpu)
	done := cs + s.net.nodeP(msg.dst).RecvOverhead
	if s.nic != nil {
		done = s.nicRecv(msg, cs)
	}
	s.nodes[msg.dst].cpu = done
	s.last = max(s.last, done)
	msg.done = true
	s.nDone++
	msg.lat = done - msg.ready
	if s.drv == nil {
		s.lat = append(s.lat, msg.lat)
	}
	for _, d := range s.depList[msg.dep0:msg.dep1] {
		dm := &s.msgs[d]
		dm.ready = max(dm.ready, done)
		if dm.deps--; dm.deps == 0 {
			s.push(dm.ready, evMsgReady, d, 0)
		}
	}
	if s.drv != nil {
		s.drv.delivered(pt.msg)
	}
}
