package runtime

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Bounds that hold whatever the memory limit. Everything else that grows
// with the input (lanes, routing tables, messages, packets, per-run results)
// is estimated and checked against Options.MaxMemory before it is
// allocated.
const (
	// MaxVirtualChannels bounds Packet.VirtualChannels: lanes are indexed
	// wire by wire, and more lanes than this buy nothing.
	MaxVirtualChannels = topo.MaxChannels
	// MaxPacketsPerPart bounds the packets one message part is cut into
	// (a packet's index within its part is an int32).
	MaxPacketsPerPart = math.MaxInt32
	// MaxMessageBytes bounds a message (allgather's gathered one too):
	// its bytes plus every packet's header and trailer stay far from
	// int64 overflow, and exact in the float64 times they become.
	MaxMessageBytes = 1 << 53
)

// checkPacket reports the first packet parameter out of its range, by name.
func checkPacket(pk PacketParams) error {
	for _, f := range []struct {
		name   string
		v, max int
		note   string
	}{
		{"Payload", pk.Payload, math.MaxInt32, " bytes (0: the whole message is one packet)"},
		{"Header", pk.Header, math.MaxInt32, " bytes"},
		{"Trailer", pk.Trailer, math.MaxInt32, " bytes"},
		{"FlitBytes", pk.FlitBytes, math.MaxInt32, " (0 means 1)"},
		{"BufferFlits", pk.BufferFlits, math.MaxInt32, " (0 means 16)"},
		{"VirtualChannels", pk.VirtualChannels, MaxVirtualChannels, " (0 means 1)"},
		{"AckBytes", pk.AckBytes, math.MaxInt32, " bytes"},
		{"Window", pk.Window, math.MaxInt32, " (0: no acknowledgements)"},
	} {
		if f.v < 0 || f.v > f.max {
			return fmt.Errorf("Packet.%s = %d is out of range 0..%d%s", f.name, f.v, f.max, f.note)
		}
	}
	return nil
}

// checkOptions reports the first count of o out of its range, by name.
func checkOptions(o *Options) error {
	for _, f := range []struct {
		name   string
		v, max int64
		note   string
	}{
		{"Size", int64(o.Size), math.MaxInt64, " bytes"},
		{"Runs", int64(o.Runs), math.MaxInt64, " (0 means 1)"},
		{"Channels", int64(o.Channels), math.MaxInt32, " (0 means 1)"},
		{"Links", int64(o.Links), math.MaxInt32, " (0 means 1)"},
		{"MaxEvents", o.MaxEvents, math.MaxInt64, " (0: no limit)"},
		{"Stripes", int64(o.Stripes), stripesMax, " (0: chosen)"},
	} {
		switch {
		case f.v < 0 && f.max == math.MaxInt64:
			return fmt.Errorf("Options.%s must not be negative, got %d", f.name, f.v)
		case f.v < 0 || f.v > f.max:
			return fmt.Errorf("Options.%s = %d is out of range 0..%d%s", f.name, f.v, f.max, f.note)
		}
	}
	return nil
}

// messagesPerRun is an upper bound on the messages one run of op creates
// on P processors (see sim.build).
func messagesPerRun(op string, P int64) int64 {
	logP := int64(0)
	for 1<<logP < P {
		logP++
	}
	switch op {
	case "send":
		return 1
	case "pingpong":
		return 2
	case "alltoall":
		return limits.Mul(P, P-1)
	case "barrier", "allgather", "treebarrier", "allreduce", "combine":
		return limits.Mul(P, logP+2)
	}
	return P // a permutation, a pattern, a tree or one message per processor
}

// largestMessage is the largest message op sends, in bytes: allgather's
// grows to P blocks.
func (tr *traffic) largestMessage(P int64) (int64, error) {
	if tr.op != "allgather" {
		return tr.size, nil
	}
	if tr.size > 0 && P > MaxMessageBytes/tr.size {
		return 0, fmt.Errorf("allgather of %d-byte blocks on %d processors gathers more than 2^53 bytes, the bound on a message", tr.size, P)
	}
	return tr.size * P, nil
}

// packets is the number of packets a message of size bytes is cut into.
func (tr *traffic) packets(size int64) int64 {
	if tr.payload <= 0 || size <= 0 {
		return 1
	}
	return (size + tr.payload - 1) / tr.payload
}

// parts is the number of parts a message of size bytes is split into: one
// per channel and link the sender opens (tr.channels × tr.links), each
// carrying at least a byte. A message of fewer packets than channels still
// opens them all, a share of its bytes on each, as seed 000 §4's library
// with a fixed c does: every channel costs the sender γ (Eq. 5's cγ).
func (tr *traffic) parts(size int64) int64 {
	return max(1, min(limits.Mul(int64(tr.channels), int64(tr.links)), size))
}

// Per-item bytes of the simulator's state, for the estimate.
var (
	laneBytes      = int64(unsafe.Sizeof(lane{}) + unsafe.Sizeof(laneQueue{}) + unsafe.Sizeof(int32(0))) // and lastIn, under round robin
	wireBytes      = int64(unsafe.Sizeof(wireState{}))
	inLaneBytes    = int64(unsafe.Sizeof(inLane{}))    // under credits
	allocWireBytes = int64(unsafe.Sizeof(allocWire{})) // under the iSLIP allocator, and a lane's input (4 bytes)
	injNextBytes   = int64(unsafe.Sizeof(int32(0)))    // a node's sim.injNext, where terminals inject round robin
	nodeBytes      = int64(unsafe.Sizeof(nodeState{}))
	runBytes       = int64(unsafe.Sizeof(runResult{}))
	eventBytes     = int64(unsafe.Sizeof(event{}))
	messageBytes   = int64(unsafe.Sizeof(message{})) + eventBytes +
		3*8 + // its latency in the run, the run's result and the aggregate
		4*4 // dependency lists
	// A part has its record and, in flight, a packet with a few hops.
	partBytes = int64(unsafe.Sizeof(part{})) + packetBytes
	// A lane's count and time with finite packet buffers (buffers.go).
	bufferBytes = int64(unsafe.Sizeof(int32(0)) + unsafe.Sizeof(float64(0)))
)

// checkBudget estimates what Simulate will allocate — each worker's
// network state and one run's messages, every run's results — and refuses
// more than maxMemory (0 means limits.Default()). It also checks that no
// message part has more packets than MaxPacketsPerPart.
func (n *network) checkBudget(tr *traffic, runs, workers int, maxMemory int64) (need int64, err error) {
	P := int64(n.nprocs)
	biggest, err := tr.largestMessage(P)
	if err != nil {
		return 0, err
	}
	pk := tr.packets(biggest)
	parts := tr.parts(biggest)
	if !tr.circuit {
		if per := (pk + parts - 1) / parts; per > MaxPacketsPerPart {
			return 0, fmt.Errorf("a message of %d bytes in packets of %d bytes is %d packets per part; the bound is %d (make the packets larger or split messages over more channels or links)",
				biggest, tr.payload, per, int64(MaxPacketsPerPart))
		}
	}
	msgs := messagesPerRun(tr.op, P)
	g := n.g
	wires := 2 * int64(g.NumLinks())
	network := limits.Add(limits.Mul(wires, int64(n.lanes), laneBytes), limits.Mul(wires, wireBytes), limits.Mul(int64(g.N()), nodeBytes))
	if n.packetBuffers() > 0 {
		network = limits.Add(network, limits.Mul(wires, int64(n.lanes), bufferBytes))
	}
	if n.credits {
		network = limits.Add(network, limits.Mul(wires, int64(n.lanes), inLaneBytes))
	}
	if n.islip {
		network = limits.Add(network, limits.Mul(wires, allocWireBytes), limits.Mul(wires, int64(n.lanes), 4))
		if n.injectsOneAtATime() {
			network = limits.Add(network, limits.Mul(int64(g.N()), 8)) // sim.injSent
		}
	}
	if n.injectsRoundRobin() {
		network = limits.Add(network, limits.Mul(int64(g.N()), injNextBytes))
	}
	oneRun := limits.Add(limits.Mul(msgs, messageBytes), limits.Mul(msgs, parts, partBytes))
	// Runs are folded as they finish (result_fold.go): only the held ones keep
	// their latencies, and the fold keeps at most exactLatencies of them.
	held := int64(heldRuns(runs, workers))
	results := limits.Add(limits.Mul(held, limits.Add(runBytes, limits.Mul(msgs, 8))),
		limits.Mul(min(limits.Mul(int64(runs), msgs), exactLatencies), 8), sketchBytes)
	need = limits.Add(limits.Mul(int64(workers), limits.Add(network, oneRun)), results)
	what := fmt.Sprintf("op %s on %d processors (%d message%s a run, %d run%s)", tr.op, P, msgs, plural(msgs), runs, plural(int64(runs)))
	return need, limits.Check(what, need, maxMemory)
}

// growthGuard bounds what a worker's run may hold beyond the estimate —
// packets in flight and pending events, which depend on contention (under
// cut-through, packets pile up at a slow link) — to what the estimate
// allowed plus its share of what the limit leaves, so that no run can
// exhaust the machine. The zero guard bounds nothing.
type growthGuard struct {
	maxPackets, maxEvents int
	limit                 int64
}

func newGrowthGuard(n *network, tr *traffic, need, maxMemory int64, workers int) growthGuard {
	maxMemory = limits.Or(maxMemory)
	msgs := messagesPerRun(tr.op, int64(n.nprocs))
	parts := tr.parts(tr.size)
	spare := max(maxMemory-need, 0) / int64(max(workers, 1)) / 2
	return growthGuard{
		maxPackets: int(min(limits.Add(limits.Mul(msgs, parts), spare/packetBytes), math.MaxInt32)),
		maxEvents:  int(min(limits.Add(limits.Mul(msgs, 3), spare/eventBytes), math.MaxInt32)),
		limit:      maxMemory,
	}
}

// sketchBytes bounds a latency sketch's buckets: values from 1 fs to 1e6 s
// at QuantileError's resolution.
const sketchBytes = 8 * 25 << 10

// A packet keeps the lanes it holds inline (packet.ring); only a worm
// longer than the ring spills them to a list, which the spare covers.
var packetBytes = int64(unsafe.Sizeof(packet{}))

// exceeded is the error for a run that outgrew its share.
func (g growthGuard) exceeded(what string, count int, each int64) error {
	return &limits.TooLarge{What: fmt.Sprintf("this run (%d %s at once)", count, what), Need: limits.Mul(int64(count), each, 2), Limit: g.limit}
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}
