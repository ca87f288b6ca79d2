// Package runtime simulates communication on a Parasol machine: a network
// of processors and switches joined by channels, driven by a discrete-event
// kernel, so that contention, queueing, blocking and acknowledgements are
// simulated rather than approximated.
//
// The input is a Spec: a topo.Graph plus plain numbers (seconds, bytes,
// bytes per second) that the evaluator fills from a loaded machine (eval's
// Machine.Spec); the runtime imports nothing that knows the language. The
// kernel pops 24-byte value events (time, sequence number and kind, two
// int32 operands; no pointers) in (time, sequence number) order, so equal
// seeds give identical results. Its queue (evQueue) keeps them in one
// list per distinct time (timeLists) while at most 16,384 distinct times
// are pending, as on a network whose times are sums of a few latencies and
// transmission times; past that in a 4-ary heap, and above 4,096 pending
// events in a one-rung ladder queue. Every form pops the same order.
// Packets, channels and nodes live in preallocated slices indexed by
// int32, with no goroutine per node or packet. Repetitions (Options.Runs)
// are spread over GOMAXPROCS workers, each reusing its own state, and
// aggregated in run order.
//
// # Model
//
// A full-duplex link is two wires (one per direction; a multi-point link is
// one shared wire, one transmission at a time). Each wire carries V lanes
// (virtual channels), V = max(Packet.VirtualChannels, the largest
// topo.Link.Channels, 1); a lane is the unit a packet acquires, and lanes
// busy at once share the wire's bandwidth round robin (a packet joining k
// busy lanes sends one flit in k+1 while they still send); with one lane
// the wire is reserved packet by packet.
//
// A message of n bytes from s to d: the sender's CPU pays SendOverhead per
// channel used (Options.Channels × Options.Links parts, serialized, so c
// channels cost cγ as in seed 000; a part transmits once its set-up is
// done, or with NodeParams.SerialSetup once every part's is); each part is cut into packets of
// Payload bytes plus Header and Trailer; before a packet leaves its source
// the node's packet engine (the C104 VCP) spends PacketOverhead with the
// output lane already held, so packet initialisation and transmission do
// not overlap on one link but do across links. A packet on a wire of
// latency L and bandwidth B that starts at t has its head at the next node
// at t+L and its tail at t+L+size/B. At an intermediate node the head waits
// HopDelay and then requests the next lane:
//
//   - SAF: only once the tail has arrived; the previous lane is free when
//     its transmission ends.
//   - VCT: at once; a blocked packet is buffered whole at the node, so it
//     holds nothing behind it.
//   - Under both, buffers are unbounded unless BufferFlits is set: then a
//     lane's buffer holds that many packets, a packet keeps its place in
//     the buffer it came into until it takes its next lane, and a full
//     buffer closes the lane (buffers.go), so cyclic routing can deadlock.
//   - Wormhole: at once; a packet holds each lane until its tail has left
//     it, and while the head is blocked the last K = ceil(flits/BufferFlits)
//     lanes behind it stay held (the worm compresses into K buffers).
//   - Circuit: a probe reserves lanes hop by hop (HopDelay + L each), the
//     confirmation returns along the path, then the whole part streams at
//     the slowest bandwidth and each lane is freed as the tail passes.
//
// A processor with RouteFixed or RoutePerByte > 0 routes in software: the
// packet is received whole, then the processor's CPU (shared, FIFO) spends
// RouteFixed + RoutePerByte × size before forwarding (with RouteCPUFixed
// or RouteCPUPerByte, a router process of high priority does, which does
// not wait for the CPU). With Window W > 0
// each part keeps at most W unacknowledged packets; the destination starts
// an acknowledgement of AckBytes when the packet's header has arrived,
// after its own PacketOverhead, so one C104 packet costs
// max(β+(h+b+1)α, 2β+(2h+1)α+2sδ) (seed 000 Eq. 1). A message is delivered
// when its last byte has arrived and the receiver's CPU has spent
// RecvOverhead; its latency runs from the moment it could be sent.
package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Spec is a compiled machine: the graph and its timing parameters. All times
// are in seconds, sizes in bytes, bandwidths in bytes per second.
type Spec struct {
	Graph *topo.Graph

	// DefaultNode is every node's parameters when Nodes is empty. Else
	// Nodes gives them by node index, or, when NodeOf is set, Nodes
	// holds the different nodes once and node v's are Nodes[NodeOf[v]]:
	// a machine of two kinds of node (std:loggp's processors and its
	// switch) then keeps two records and 2 B a node, where a record a
	// node took 232 B (15 MB at 65,536 processors). Read a node's
	// parameters with Node.
	DefaultNode NodeParams
	Nodes       []NodeParams
	NodeOf      []uint16 // per node index, an index of Nodes; nil: Nodes is per node index

	DefaultLink LinkParams
	Links       []LinkParams // per link index; empty means DefaultLink everywhere

	Switching   Switching
	Arbitration Arbitration
	// OutputBuffered routers keep a blocked packet whole in an unbounded
	// queue at the output it waits for, so it holds no lane behind it;
	// otherwise a blocked wormhole packet keeps the lanes its flits fill
	// (input buffering). Cut-through packets always wait whole.
	OutputBuffered bool
	Routing        string // see Routings; "" means "shortest"
	Packet         PacketParams

	// Speedup is the routers' crossbar speedup: a packet leaving a node
	// holds the crossbar input it came in by for its transmission time
	// divided by Speedup, so packets buffered at one input leave one
	// after another. 0 means the crossbar is not modelled (any number of
	// an input's packets may leave at once).
	Speedup float64

	// Credits turns on credit flow control for wormhole lanes (the
	// topology's credit_delay): a lane's buffer at the far end holds
	// Packet.BufferFlits flits, and a flit may be sent only when the one
	// BufferFlits ahead of it has left that buffer and its credit has come
	// back, CreditDelay after it left plus the wire's latency. So a lane
	// carries at most BufferFlits flits per CreditDelay + 2 × latency, and
	// a packet of more flits than a buffer holds keeps its previous lane
	// until its head moves on (kernel_sim.go's credits). Off, buffers
	// bound only what a blocked worm keeps.
	Credits     bool
	CreditDelay float64 // seconds, ≥ 0

	// Allocator is how a router's switch allocator gives a wire's cycles
	// to the lanes that share it (switch_alloc.go); it acts under Credits
	// on wires of several lanes and does nothing elsewhere.
	Allocator Allocator

	// Routes adds named user routing functions usable as Routing or
	// Options.Routing. (Acyclic routing is built in: "acyclic" and
	// "acyclic-improved" in Routings.)
	Routes map[string]RouteFunc
}

// NodeParams are the per-node costs.
type NodeParams struct {
	HopDelay       float64 // switch or router delay when a packet passes through (C104 δ)
	SendOverhead   float64 // sender software cost per message channel (γ)
	RecvOverhead   float64 // receiver software cost per message
	PacketOverhead float64 // packet initialisation at the sender, and before an acknowledgement at the receiver (β)
	RouteFixed     float64 // software through-routing at a processor, per packet
	RoutePerByte   float64 // software through-routing at a processor, per byte
	// RouteCPUFixed and RouteCPUPerByte, when either is > 0, make the
	// software router a process of high priority beside the application,
	// as TINY's is (seed 003 §3.5.3): a packet routed through waits for
	// the packets routed before it, not for the CPU's computation, and
	// each one takes RouteCPUFixed + RouteCPUPerByte × size of CPU time
	// from that computation (seed 003 Table 3.7's a′ + b′l). Only program
	// runs compute.
	RouteCPUFixed, RouteCPUPerByte float64
	// RecvDelay and RouteDelay slow a processor's computation down while
	// packets arrive at it for it, and while it passes packets on: by
	// 0.3, work runs at 1/1.3 of its speed (Parasol I's maxrecvdelay and
	// maxroutedelay, seed 002 §1.1; see RunProgram). Only program runs
	// compute.
	RecvDelay, RouteDelay float64
	// AllocDelay is the time a router takes to hand a lane that has just
	// been freed to a head waiting for it (virtual-channel and switch
	// allocation); a head that finds its lane free pays only HopDelay.
	AllocDelay float64
	// The processor's NIC and CPUs as LogGOPS has them (Hoefler,
	// Schneider, Lumsdaine 2010, as LogGOPSim runs it; see RunProgram).
	// A message of n bytes occupies the sending NIC SendGap + (n-1)·
	// SendGapPerByte, before which that NIC injects no other message, and
	// the sending CPU SendOverhead + (n-1)·SendPerByte, its first
	// SendOverhead before the message leaves; at the receiver the NIC
	// RecvGap + (n-1)·RecvGapPerByte and the CPU RecvOverhead +
	// (n-1)·max(RecvPerByte, RecvGapPerByte) (the CPU has the message
	// once the NIC has all of it). CPUs and NICs count them per
	// processor (0 means 1); a program operation names its own (GOAL's
	// cpu N and nic N). MatchRendezvous: a message above the eager limit
	// goes at once and its send completes when the receiver matches it,
	// as in LogGOPS, instead of a request and a clear-to-send. Only
	// program runs use these; when none of them is set, a program runs as
	// it did before they existed.
	SendGap, RecvGap               float64
	SendGapPerByte, RecvGapPerByte float64
	SendPerByte, RecvPerByte       float64
	CPUs, NICs                     int
	MatchRendezvous                bool
	// SerialSetup: a message on several channels (Options.Channels ×
	// Options.Links parts) has every channel set up, SendOverhead each,
	// before any transmits, as seed 000's Eq. 5 charges cγ; otherwise a
	// channel transmits once its own set-up is done, beside the set-up
	// of the next (§4: "communication may take place on the first
	// channels while the remaining channels are still being
	// initialised").
	SerialSetup bool
	// Clock is the processor's local clock, which programs read with
	// now() and wait on with until(t); each run draws its offset and
	// drift per node from the run's seed (program_clock.go). The zero
	// value is a perfect clock.
	Clock Clock
}

// MaxUnits is the most CPUs or NICs a processor may have: a program
// operation names its CPU and its NIC in a byte.
const MaxUnits = 256

// loggops tells whether the processor states any of the NIC and CPU
// fields of LogGOPS (see NodeParams).
func (p *NodeParams) loggops() bool {
	return p.SendGap != 0 || p.RecvGap != 0 || p.SendGapPerByte != 0 || p.RecvGapPerByte != 0 ||
		p.SendPerByte != 0 || p.RecvPerByte != 0 || p.CPUs != 0 || p.NICs != 0 || p.MatchRendezvous
}

// LinkParams are the per-link (both directions) wire parameters.
type LinkParams struct {
	Latency   float64 // seconds from the start of transmission to the head's arrival
	Bandwidth float64 // bytes per second, > 0
}

// PacketParams describe packetization and flow control.
type PacketParams struct {
	Payload         int // payload bytes per packet; 0 = whole message in one packet
	Header, Trailer int // bytes added to every packet
	FlitBytes       int // wormhole flit size; 0 means 1
	BufferFlits     int // buffer per lane: flits under wormhole (0 means 16), packets under SAF and VCT (0: unbounded)
	VirtualChannels int // lanes per wire; 0 means 1 (or the link's own Channels)
	AckBytes        int // size of an acknowledgement packet
	Window          int // unacknowledged packets allowed per message channel; 0 = no acknowledgements
}

// RouteFunc is a routing function for arbitrary graphs: it appends to buf
// the candidate output link indices at node `at` for a packet bound for
// node dst that arrived over inLink (-1 at the source), best first. Only
// the links it returns are used, so a deadlock-free function (one that
// depends on the input link, say, as the built-in acyclic routing does)
// stays deadlock-free.
type RouteFunc func(inLink, at, dst int32, buf []int32) []int32

// Switching is the switching technique.
type Switching uint8

const (
	Wormhole Switching = iota
	SAF
	VCT
	Circuit
)

var switchingNames = [...]string{"wormhole", "saf", "vct", "circuit"}

func (s Switching) String() string {
	if int(s) < len(switchingNames) {
		return switchingNames[s]
	}
	return fmt.Sprintf("Switching(%d)", s)
}

// ParseSwitching accepts saf, vct, wormhole and circuit (and the long
// names store-and-forward, cut-through, virtual-cut-through).
func ParseSwitching(s string) (Switching, error) {
	switch strings.ToLower(s) {
	case "wormhole", "wh":
		return Wormhole, nil
	case "saf", "store-and-forward", "packet":
		return SAF, nil
	case "vct", "cut-through", "virtual-cut-through":
		return VCT, nil
	case "circuit":
		return Circuit, nil
	}
	return 0, fmt.Errorf("unknown switching %q (want saf, vct, wormhole or circuit)", s)
}

// Arbitration is how a lane chooses among waiting packets.
type Arbitration uint8

const (
	FIFO       Arbitration = iota // in order of request
	RoundRobin                    // cycling over the input links of the waiting packets
)

// Allocator is how a router's switch allocator gives a wire's cycles to
// the lanes that share it.
type Allocator uint8

const (
	// AnyLane: a lone packet on a wire keeps it to its tail, as a wire of
	// one lane, and packets that share it lose nothing to allocation.
	AnyLane Allocator = iota
	// ISLIP is BookSim 2's default switch allocator (iSLIP, one
	// iteration): the cycles a lone packet's lane waits (for credits, for
	// its own flits) carry other lanes' flits, and a wire shared by
	// packets of different inputs, one of which also sends elsewhere,
	// loses cycles to mismatched grants (switch_alloc.go).
	ISLIP
)

// Routings returns the names of the built-in routing functions, sorted. They
// are the registry's table (registry.Routing, which says where each
// applies), which the evaluator checks machine files against; the runtime
// implements every name of it (registry's tests hold the two equal).
func Routings() []string { return slices.Sorted(slices.Values(registry.Routing.Names())) }

// maxParamErrors bounds how many out-of-range parameters Validate lists.
const maxParamErrors = 10

// Node is node v's parameters (DefaultNode, Nodes[v] or
// Nodes[NodeOf[v]]).
func (s *Spec) Node(v int32) *NodeParams {
	switch {
	case len(s.Nodes) == 0:
		return &s.DefaultNode
	case s.NodeOf != nil:
		return &s.Nodes[s.NodeOf[v]]
	}
	return &s.Nodes[v]
}

// checkNodes reports a node list that does not give each of n nodes
// its parameters.
func (s *Spec) checkNodes(n int) error {
	if s.NodeOf == nil {
		if len(s.Nodes) != 0 && len(s.Nodes) != n {
			return fmt.Errorf("%d node parameter sets for %d nodes", len(s.Nodes), n)
		}
		return nil
	}
	if len(s.NodeOf) != n {
		return fmt.Errorf("%d node indexes (NodeOf) for %d nodes", len(s.NodeOf), n)
	}
	for v, k := range s.NodeOf {
		if int(k) >= len(s.Nodes) {
			return fmt.Errorf("node %d's parameters are Nodes[%d], past the %d node parameter sets", v, k, len(s.Nodes))
		}
	}
	return nil
}

// Validate reports the parameters of s beyond the bounds a machine file's
// fields are held to while loading (TimeBound and the rest; see
// docs/LANGUAGE.md, Values and units), NaN and ±Inf included: a time
// from 0 to a year, a link's bandwidth from 1 bit/s to 1e24 B/s, a
// percentage up to 1000000%, a speedup of 0 or from 0.001 to 1000, a clock
// as its fields are. Within them no time the simulator forms overflows, so
// a Spec built by hand is refused here rather than simulated to ±Inf or
// NaN. Every entry point that simulates calls it. It lists the first
// maxParamErrors problems, each by its field, and how many more there are.
func (s *Spec) Validate() error {
	var v paramErrors
	// The default link is used only when no per-link list is given, and
	// a graph without links leaves it empty.
	if len(s.Links) == 0 && s.Graph != nil && s.Graph.NumLinks() > 0 {
		v.link("DefaultLink", -1, s.DefaultLink)
	}
	for i, p := range s.Links {
		v.link("Links", i, p)
	}
	v.node("DefaultNode", -1, &s.DefaultNode)
	for i := range s.Nodes {
		v.node("Nodes", i, &s.Nodes[i])
	}
	v.check(SpeedupBound, "Speedup", -1, "", s.Speedup)
	if v.more > 0 {
		v.errs = append(v.errs, fmt.Errorf("and %d more parameters out of range", v.more))
	}
	return errors.Join(v.errs...)
}

// paramErrors gathers Validate's findings. A field's name is formatted
// only when it is out of range: a million links are checked without one.
type paramErrors struct {
	errs []error
	more int
}

func (v *paramErrors) add(msg string) {
	if len(v.errs) < maxParamErrors {
		v.errs = append(v.errs, errors.New(msg))
	} else {
		v.more++
	}
}

// check adds x's problem, if any; the field is list[i].field, or
// list.field when i < 0.
func (v *paramErrors) check(b ParamBound, list string, i int, field string, x float64) {
	if b.Holds(x) {
		return
	}
	v.add(b.Check(fieldName(list, i, field), x))
}

// fieldName is list[i].field, without [i] when i < 0 and without .field
// when field is "".
func fieldName(list string, i int, field string) string {
	name := list
	if i >= 0 {
		name = fmt.Sprintf("%s[%d]", list, i)
	}
	if field != "" {
		name += "." + field
	}
	return name
}

func (v *paramErrors) link(list string, i int, p LinkParams) {
	v.check(TimeBound, list, i, "Latency", p.Latency)
	v.check(LinkSpeedBound, list, i, "Bandwidth", p.Bandwidth)
}

func (v *paramErrors) node(list string, i int, p *NodeParams) {
	v.check(TimeBound, list, i, "HopDelay", p.HopDelay)
	v.check(TimeBound, list, i, "SendOverhead", p.SendOverhead)
	v.check(TimeBound, list, i, "RecvOverhead", p.RecvOverhead)
	v.check(TimeBound, list, i, "PacketOverhead", p.PacketOverhead)
	v.check(TimeBound, list, i, "RouteFixed", p.RouteFixed)
	v.check(TimeBound, list, i, "AllocDelay", p.AllocDelay)
	v.check(TimePerByteBound, list, i, "RoutePerByte", p.RoutePerByte)
	v.check(TimeBound, list, i, "RouteCPUFixed", p.RouteCPUFixed)
	v.check(TimePerByteBound, list, i, "RouteCPUPerByte", p.RouteCPUPerByte)
	v.check(TimeBound, list, i, "SendGap", p.SendGap)
	v.check(TimeBound, list, i, "RecvGap", p.RecvGap)
	v.check(TimePerByteBound, list, i, "SendGapPerByte", p.SendGapPerByte)
	v.check(TimePerByteBound, list, i, "RecvGapPerByte", p.RecvGapPerByte)
	v.check(TimePerByteBound, list, i, "SendPerByte", p.SendPerByte)
	v.check(TimePerByteBound, list, i, "RecvPerByte", p.RecvPerByte)
	for _, c := range []struct {
		name string
		n    int
	}{{"CPUs", p.CPUs}, {"NICs", p.NICs}} {
		if c.n < 0 || c.n > MaxUnits {
			v.add(fmt.Sprintf("%s = %d: a processor has 0 (meaning 1) to %d", fieldName(list, i, c.name), c.n, MaxUnits))
		}
	}
	v.check(PercentBound, list, i, "RecvDelay", p.RecvDelay)
	v.check(PercentBound, list, i, "RouteDelay", p.RouteDelay)
	if !p.Clock.Perfect() {
		if msg := p.Clock.Check(); msg != "" {
			v.add(fieldName(list, i, "Clock") + ": " + msg)
		}
	}
}
