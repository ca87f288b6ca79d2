package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/collective"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// ProgramOptions choose how RunProgram runs a schedule.
type ProgramOptions struct {
	// Map places rank r on the processor with external node id Map[r];
	// nil takes the schedule's own (lang.Schedule.Map), and without one
	// places rank r on the (r mod P)-th processor in node order.
	// Several ranks may share a processor, and then share its CPU.
	Map       []int
	Seed      uint64
	MaxEvents int64 // stop after this many events (0: no limit); the result is Partial
	MaxMemory int64 // bytes (0: limits.Default())
	Timeline  bool  // fill ProgramResult.Timeline
	// Flows fills ProgramResult.Flows, Regions and Links (a trace's
	// arrows, collectives and links' busy times); it costs a Flow per
	// message and an interval per wire's busy stretch, nothing when off.
	Flows bool
	// EagerLimit: a message of more bytes than this goes by rendezvous
	// (a request to send, a clear to send, then the data; or, on a
	// processor with NodeParams.MatchRendezvous, the data at once, the
	// send completing when it is matched); 0 sends every message eagerly,
	// and NoEager none but empty ones (a limit of 0 B).
	EagerLimit int64
	Routing    string // overrides Spec.Routing when not ""
	Switching  string // overrides Spec.Switching when not ""
	// Segment is the pipelined broadcast's segment in bytes (0:
	// collective.DefaultSegment).
	Segment int64
}

// RunProgram runs schedule s on the packet-level network of spec: every
// rank is a process on its processor, driven by the simulation's own
// events (no goroutine per rank).
//
//   - An operation starts once its prerequisites have completed (started,
//     for irequires); ready operations start in index order.
//   - compute occupies the processor's CPU, which ranks on one processor
//     share with each other and with the network software (send and
//     receive overheads, software routing), first come first served; a
//     router process of high priority (NodeParams.RouteCPUFixed) takes
//     its time from the computation instead (program_router.go).
//   - A send of at most EagerLimit bytes (every send when it is 0) injects
//     the message at once: the CPU pays SendOverhead, its packets contend
//     for the network, and the send completes when the CPU is done with
//     it. A larger one sends a request (a packet of no payload); once the
//     receiver has matched it to a receive, a clear-to-send comes back and
//     the data follows; the send completes with the data's delivery.
//   - A message delivered to a processor costs its CPU RecvOverhead
//     whether or not a receive is posted (as LogGOPSim charges o); a
//     receive matches the earliest such message from its source (or any,
//     lang.AnyRank) with its tag (lang.AnyTag: any program tag), first in
//     first out, and completes when both it is posted and the message
//     is in. Posting costs nothing.
//   - Ranks on one processor exchange messages through memory: the
//     sender's CPU pays SendOverhead, the receiver's RecvOverhead, and no
//     packet is sent (nor a rendezvous).
//   - Collectives are expanded into sends and receives by
//     stdlib/collective; on a hypercube a barrier of 2^k ranks defaults to
//     dimension exchange.
//
// A processor that states a NIC or several CPUs (NodeParams.SendGap and
// the fields beside it) runs its ranks as LogGOPS does (LogGOPSim's
// model, message by message):
//
//   - An operation runs on the CPU it names (lang.SchedOp.CPU), a send
//     on the NIC it names; CPU 0 is the one software routing uses.
//   - A send starts when its CPU and its NIC's send gap are both free;
//     the CPU is busy SendOverhead + (n-1)·SendPerByte and the NIC
//     SendGap + (n-1)·SendGapPerByte; the message leaves after
//     SendOverhead (the per-byte CPU time overlaps the network) and an
//     eager send completes when it starts.
//   - A message in (its last byte delivered by the network) waits until
//     the receiving CPU and NIC (the numbers its send named) are free,
//     then is usable: the NIC is busy RecvGap + (n-1)·RecvGapPerByte and
//     the CPU RecvOverhead + (n-1)·max(RecvPerByte, RecvGapPerByte),
//     whether or not a receive is posted; a receive it matches completes
//     then.
//   - With MatchRendezvous a message above the eager limit is sent the
//     same way and its send completes when the receiver matches it (the
//     sender's CPU and NIC held until then), with no message of its own.
//
// A processor that is receiving or through-routing computes slower: see
// NodeParams.RecvDelay. When every event is processed with ranks still
// waiting, the result has a Deadlock listing them; the error is then nil.
// MaxEvents ends the run early with Partial set; cancelling ctx returns
// the partial result and ctx.Err().
func RunProgram(ctx context.Context, spec *Spec, s *lang.Schedule, o ProgramOptions) (*ProgramResult, error) {
	if s.Ranks <= 0 {
		return nil, fmt.Errorf("the program has no ranks")
	}
	if o.MaxEvents < 0 || o.EagerLimit < NoEager || o.Segment < 0 {
		return nil, fmt.Errorf("ProgramOptions: MaxEvents and Segment must not be negative, nor EagerLimit below NoEager")
	}
	orig, nic := spec, usesLogGOPS(spec)
	if nic {
		spec = kernelSpec(spec)
	}
	n, err := compile(spec, o.Routing, o.Switching, o.MaxMemory)
	if err != nil {
		return nil, err
	}
	if n.nprocs == 0 {
		return nil, fmt.Errorf("the topology has no processors")
	}
	// A schedule without collectives is its own expansion, where
	// ExpandOrigin read every operation to find none: the count below
	// reads them anyway, and refuses one that calls a collective.
	x, origin := s, []int32(nil)
	if len(s.Colls) > 0 {
		if x, origin, err = collective.ExpandOrigin(s, collective.Options{Hypercube: isHypercube(n.g), Segment: o.Segment, MaxMemory: o.MaxMemory}); err != nil {
			return nil, err
		}
	}
	// The operations ready at the start are LogGOPS processors' first
	// contenders, their receives posted at once; used is how many CPUs
	// and NICs the schedule names (the most of any rank), which a LogGOPS
	// processor that does not state its count has.
	c := opCounts{ops: int64(len(x.Ops))}
	var rendezvous int64
	used := [2]int{1, 1}
	above := rendezvousAbove(o.EagerLimit)
	// recvs counts each rank's receives, which tell where its posted
	// receives are kept (placePosted).
	recvs := make([]int32, x.Ranks)
	// values: the schedule has run-time values (lang.Schedule.UsesRunTimeValues).
	values := x.Regs > 0
	// The operations' records are filled as they are counted, where a
	// pass of their own read the schedule again, if the limit holds them:
	// where it does not, the run's estimate, checked below, which counts
	// progOpBytes and more an operation, refuses the run.
	var ops []opState
	if limits.Check("", limits.Mul(int64(len(x.Ops)), progOpBytes), o.MaxMemory) == nil {
		ops = hugepages.Make[opState](len(x.Ops), len(x.Ops))
	}
	// inOrder: each rank's operations that wait for nothing are in
	// LogGOPSim's order of kinds (newProgRun's ready list).
	inOrder := true
	for r := range x.Ranks {
		at := c.startRank()
		last := 0
		for i := int(x.RankStart[r]); i < int(x.RankStart[r+1]); i++ {
			op := &x.Ops[i]
			deps := x.DepStart[i+1] - x.DepStart[i]
			c.count(op.Kind, deps == 0)
			if ops != nil {
				ops[i] = opState{need: deps, readyBy: -1, cause: -1, kind: op.Kind}
			}
			if deps == 0 {
				k := kindOrder(op.Kind)
				inOrder = inOrder && k >= last
				last = k
			}
			used[0] = max(used[0], int(op.CPU)+1)
			used[1] = max(used[1], int(op.NIC)+1)
			// The readers refuse such operations; a schedule built by hand
			// would otherwise end at NaN.
			switch op.Kind {
			case lang.OpColl:
				// Of a schedule that has none (x is s): ExpandOrigin
				// says what is wrong with it.
				if _, _, err := collective.ExpandOrigin(s, collective.Options{MaxMemory: o.MaxMemory}); err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("operation %s of rank %d calls a collective the schedule does not have", x.LabelOf(i), r)
			case lang.OpNow, lang.OpUntil, lang.OpSet:
				values = true
			case lang.OpSend:
				if op.Bytes > above {
					rendezvous++
				}
				if op.Bytes < 0 {
					return nil, fmt.Errorf("operation %s of rank %d sends %d bytes", x.LabelOf(i), r, op.Bytes)
				}
			case lang.OpCalc:
				if !(op.Time >= 0 && op.Time <= math.MaxFloat64) {
					return nil, fmt.Errorf("operation %s of rank %d computes for %g s", x.LabelOf(i), r, op.Time)
				}
			}
		}
		recvs[r] = c.endRank(at)
	}
	sends, freeSends, free := c.sends, c.freeSends, c.free
	// The schedule is held throughout, and the expanded one beside it.
	need := limits.Add(programBytes(c, int64(x.Ranks), o), ScheduleBytes(s))
	// The kernel's messages are reused where no acknowledgement comes
	// back after a message is in (progRun.spare); elsewhere each message
	// and rendezvous control message has its own.
	reuse := n.spec.Packet.Window == 0
	if !reuse {
		need = limits.Add(need, limits.Mul(sends+2*rendezvous, progSimMsgBytes))
	}
	if x != s {
		need = limits.Add(need, ScheduleBytes(x))
	}
	if err := limits.Check(fmt.Sprintf("simulating %d operations of %d ranks", len(x.Ops), x.Ranks), need, o.MaxMemory); err != nil {
		return nil, err
	}
	if o.Map == nil {
		o.Map = s.Map
	}
	nodes, err := placeRanks(n, x.Ranks, o.Map)
	if err != nil {
		return nil, err
	}
	var units []int32
	if nic {
		if units, err = unitsOf(orig, x, nodes, used); err != nil {
			return nil, err
		}
		// The CPUs beyond the first and the NICs' two gaps of every
		// processor that runs ranks.
		ln := int64(0)
		for _, v := range nodes {
			if units[v] < 0 {
				units[v] = int32(ln)
				np := orig.Node(v)
				ln += int64(or(np.CPUs, used[0]) - 1 + 2*or(np.NICs, used[1]))
			}
		}
		// Per resource, its place among the wait lists (progRun.waitAt).
		resources := ln + int64(n.g.N())
		need = limits.Add(need, limits.Add(limits.Mul(ln, 8), limits.Mul(int64(len(units))+resources, 4)))
		need = limits.Add(need, limits.Mul(free, int64(unsafe.Sizeof(contender{}))))
		if err := limits.Check(fmt.Sprintf("simulating %d operations of %d ranks", len(x.Ops), x.Ranks), need, o.MaxMemory); err != nil {
			return nil, err
		}
		units = append(units, int32(ln)) // the last entry is the length
	}
	sopt := &Options{MaxEvents: o.MaxEvents, Seed: o.Seed}
	sm := newSim(n, sopt)
	sm.reset(o.Seed)
	if sm.alts, err = routingsOf(spec, n, x.Routings, o); err != nil {
		return nil, err
	}
	sm.guard = programGuard(c, int64(x.Ranks), need, o.MaxMemory)
	// Every send is one message of one part, and a rendezvous two more
	// (its request and clear-to-send): reserving them up front saves
	// copying them as they grow. Only the sends above the eager limit
	// are counted twice more, where every send was (the schedules of
	// std:loggp, whose eager limit is 64 KiB, held three times the
	// messages they sent).
	reserve := int(sends + 2*rendezvous)
	// Where the kernel's messages are reused (progRun.spare), those sent
	// at the start are the most in flight that can be foreseen.
	if reuse {
		reserve = int(freeSends)
	}
	sm.msgs, sm.parts = slices.Grow(sm.msgs[:0], reserve), slices.Grow(sm.parts[:0], reserve)
	// The sends that wait for nothing go at once (the kernel reserves
	// packets for its own bursts of parts when it starts, which a
	// program's messages are not yet): room for a packet each spares
	// growing them by copies, which made 21 MB of garbage for a
	// dissemination of 16,384 ranks.
	if cap(sm.pkts) < int(freeSends) {
		sm.pkts = hugepages.Make[packet](0, int(freeSends))
	}
	p := newProgRun(sm, n, x, s, origin, nodes, o, ops, free, inOrder)
	p.placePosted(recvs, c)
	p.spec, p.reuse = orig, reuse
	p.internNodes(orig)
	if nic {
		p.nic, p.unitAt, p.used = true, units[:len(units)-1], used
		p.units = make([]float64, units[len(units)-1])
		p.waitAt = make([]int32, len(p.units)+len(sm.nodes))
		p.batch = hugepages.Make[contender](0, int(free))
	}
	p.limit = limits.Or(o.MaxMemory)
	p.held = need
	if o.Timeline {
		// The spans are counted as they come, and the waits between them.
		p.held -= limits.Mul(int64(len(x.Ops)), 2*spanBytes)
		p.maxSpans = max(p.limit-p.held, 0) / (3 * spanBytes)
	}
	if o.Flows {
		// The links' busy intervals share what the timeline leaves.
		sm.busy = newBusyLog(sm.numWires(), max(p.limit-p.held, 0)/(4*busyIntervalBytes))
	}
	if p.clk, err = newProgClock(p, values, o.Seed, o.MaxMemory); err != nil {
		return nil, err
	}
	// The program's messages likewise, which are reused unless a trace
	// reads them at the end.
	held := freeSends
	if o.Flows {
		held = sends
	}
	p.msgs, p.simMsg = make([]pmsg, 0, held), make([]int32, 0, reserve)
	sm.drv = p
	if p.slows {
		sm.passing = p.passing
		sm.routeCPU = p.routeCPU
	}
	sm.star = sm.useStar()
	p.wholeStar = sm.star && p.tr.payload == 0 && p.tr.channels == 1 && p.tr.links == 1 && !p.tr.circuit
	sm.push(0, evDriver, 0, wStart)
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled while setting up (run polls it only now and then)
	}
	partial := sm.run(ctx)
	if sm.err != nil {
		return nil, sm.err
	}
	res, err := p.result(partial)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		res.Partial = true
		return res, ctx.Err()
	}
	return res, nil
}

// routingsOf compiles the network of each routing the schedule's sends
// name (lang.Schedule.Routings), by index plus one as lang.SchedOp.Routing
// names them; the network's own routing is n itself. It returns nil when
// no send names one.
func routingsOf(spec *Spec, n *network, names []string, o ProgramOptions) ([]*network, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if len(names) > math.MaxUint8 {
		return nil, fmt.Errorf("the program's sends name %d routings; at most %d", len(names), math.MaxUint8)
	}
	own := o.Routing
	if own == "" {
		own = spec.Routing
	}
	if own == "" {
		own = "shortest"
	}
	alts := make([]*network, len(names)+1)
	alts[0] = n
	for i, name := range names {
		if name == own {
			alts[i+1] = n
			continue
		}
		a, err := compile(spec, name, o.Switching, o.MaxMemory)
		var oe *OptionError
		if errors.As(err, &oe) {
			err = errors.New(oe.Reason)
		}
		if err != nil {
			return nil, fmt.Errorf("a send's routing %s: %w", name, err)
		}
		alts[i+1] = a
	}
	return alts, nil
}

// ProgramFootprint is what RunProgram takes per item of a schedule beyond
// the schedule: per operation its state (and its spans, for a timeline),
// per send its message (and a rendezvous's two control messages), per
// rank its process.
func ProgramFootprint(o ProgramOptions) Footprint {
	f := Footprint{Op: progOpBytes, Send: progMsgBytes, Rank: progRankBytes}
	if o.EagerLimit != 0 {
		f.Send += 2 * progControlBytes
	}
	if o.Timeline {
		f.Op += 2 * spanBytes
	}
	if o.Flows {
		f.Op += regionBytes
		f.Send += flowBytes + 8 + pmsgBytes
	}
	return f
}

// ProgramBytes is what RunProgram takes for the schedule x beyond the
// schedule: ProgramFootprint per operation, send and rank, and for each
// operation that waits for no other its event and place among the ready,
// for each such send (a trace's messages at time 0, a GOAL rank's
// independent sends) what a message in flight with the others takes,
// since they may all be at once, and for each such receive of a rank of
// more than maxListed receives its place among those posted; every
// receive of the other ranks has its place in its rank's list. Messages
// that come to be in flight together later (a trace's at one later time)
// are not foreseen; programGuard bounds them as they come.
func ProgramBytes(x *lang.Schedule, o ProgramOptions) int64 {
	return programBytes(countOps(x), int64(x.Ranks), o)
}

// opCounts are what the budget counts of a schedule's operations: all,
// the sends, those that wait for no other (free), and of those the sends
// and the receives of ranks whose posted receives are in the table
// (postedTable); listed counts the receives of the other ranks, which
// list their own (placePosted), and recvs every receive.
type opCounts struct{ ops, sends, free, freeSends, freeRecvs, listed, recvs int64 }

// countOps counts x's operations for the budget; RunProgram counts them
// in its own pass over them.
func countOps(x *lang.Schedule) opCounts {
	c := opCounts{ops: int64(len(x.Ops))}
	for r := range x.Ranks {
		at := c.startRank()
		for i := x.RankStart[r]; i < x.RankStart[r+1]; i++ {
			c.count(x.Ops[i].Kind, x.DepStart[i+1] == x.DepStart[i])
		}
		c.endRank(at)
	}
	return c
}

// count counts an operation of kind k, free if it waits for no other.
func (c *opCounts) count(k lang.SchedKind, free bool) {
	if free {
		c.free++
	}
	switch {
	case k == lang.OpSend:
		c.sends++
		if free {
			c.freeSends++
		}
	case k == lang.OpRecv:
		c.recvs++
		if free {
			c.freeRecvs++
		}
	}
}

// startRank is where the counts stand before a rank's operations are
// counted, for endRank.
func (c *opCounts) startRank() opCounts { return *c }

// endRank counts the rank whose operations have been counted since at:
// one of at most maxListed receives lists them, and its free receives
// take no place in the table. It returns the rank's receives.
func (c *opCounts) endRank(at opCounts) int32 {
	n := c.recvs - at.recvs
	if n <= maxListed {
		c.listed += n
		c.freeRecvs = at.freeRecvs
	}
	return int32(n)
}

// programBytes is ProgramBytes from the counts of a schedule of ranks
// ranks.
func programBytes(c opCounts, ranks int64, o ProgramOptions) int64 {
	return limits.Add(ProgramFootprint(o).Bytes(c.ops, c.sends, 0, ranks),
		limits.Mul(c.free, progFreeOpBytes), limits.Mul(c.freeSends, progFreeSendBytes+progSimMsgBytes+pmsgBytes), limits.Mul(c.freeRecvs, progFreeRecvBytes),
		limits.Mul(c.listed, listedRecvBytes))
}

// programGuard bounds the packets and pending events of a program's run,
// beyond those of its operations that wait for nothing (ProgramBytes
// counted their sends), to half each of what the limit leaves beyond need,
// so that messages in flight together that no estimate foresaw (a trace's
// messages at one time after the start) end the run with an error naming
// the figure before they exhaust the machine.
func programGuard(c opCounts, ranks, need, maxMemory int64) growthGuard {
	maxMemory = limits.Or(maxMemory)
	spare := max(maxMemory-need, 0) / 2
	return growthGuard{
		maxPackets: int(min(limits.Add(c.freeSends, spare/packetBytes), math.MaxInt32)),
		maxEvents:  int(min(limits.Add(limits.Mul(c.freeSends, 3), c.free, ranks, spare/eventBytes), math.MaxInt32)),
		limit:      maxMemory,
	}
}

// NoEager is ProgramOptions.EagerLimit for an eager limit of 0 B, which 0
// cannot say: every message of a byte or more goes by rendezvous.
const NoEager = -1

// Memory per operation, program message and rank, for the budget.
// They are fitted to the heap measured (eval/program's
// TestEstimatesAreWithinOneAndAHalfTimesThePeak, with spaced messages,
// messages all at once, GOAL schedules and a program): an operation's
// state and dependents, about 40 B (opState), and its rank, 4 B, where
// ranks have different numbers of operations (rankBy); a message's
// latency in the kernel, 8 B; an operation ready at the start, its event
// and place in the ready list and among the contenders, about 40 B; and
// beyond that, for a message that may be in flight with all the others,
// its packet and events, about 300 B, and its records in the program and
// the simulator (progSimMsgBytes, which messages sent later reuse), and
// a receive posted at the start, its place in a queue (a rank of at
// most maxListed receives has a place for each in its list, counted
// exactly: listedRecvBytes). (A flat 96 B an
// operation and 320 B a message was 1.5 times what spaced messages take,
// and 2.5 times under what a burst takes.)
const (
	progOpBytes  = 60
	progMsgBytes = 8
	// progFreeOpBytes is an operation that waits for no other, and
	// progFreeSendBytes and progFreeRecvBytes more for a send and a
	// receive (ProgramBytes).
	progFreeOpBytes   = 40
	progFreeSendBytes = 300
	progFreeRecvBytes = 96 // of a rank of more than maxListed receives: its queue's place in postedTable (24 B), whose room is the next power of 2 past twice them: at most 4 places a receive
	// progControlBytes is a rendezvous control message in the simulator.
	progControlBytes = 160
	progRankBytes    = 160
)

// Memory per timeline span and critical path step of the answer.
var (
	// progSimMsgBytes is a message's record and part in the simulator:
	// every message's on a network whose messages are acknowledged
	// (progRun.reuse), else only those in flight together.
	progSimMsgBytes = int64(unsafe.Sizeof(message{}) + unsafe.Sizeof(part{}))
	// pmsgBytes is a message's record in the program run: every
	// message's with ProgramOptions.Flows, else only those in flight or
	// waiting to be received.
	pmsgBytes = int64(unsafe.Sizeof(pmsg{}))
	spanBytes = int64(unsafe.Sizeof(Span{}))
	stepBytes = int64(unsafe.Sizeof(PathStep{}))
	// With ProgramOptions.Flows: per message its Flow (and, beside it,
	// when it was sent), per operation at most one Region.
	flowBytes   = int64(unsafe.Sizeof(Flow{}))
	regionBytes = int64(unsafe.Sizeof(Region{}))
)

// rendezvousAbove is the size above which a message goes by rendezvous
// under ProgramOptions.EagerLimit.
func rendezvousAbove(eager int64) int64 {
	switch {
	case eager == 0:
		return math.MaxInt64
	case eager < 0:
		return 0
	}
	return eager
}

// isHypercube tells whether g is a binary hypercube, generated or
// recognised as one.
func isHypercube(g *topo.Graph) bool {
	if g.Kind() == topo.Hypercube {
		return true
	}
	if g.Kind() != topo.Explicit || g.N() > 1<<16 {
		return false
	}
	r, _, ok := topo.Recognize(g)
	return ok && r.Kind() == topo.Hypercube
}

// placeRanks returns each rank's node index.
func placeRanks(n *network, ranks int, m []int) ([]int32, error) {
	g := n.g
	out := make([]int32, ranks)
	if m == nil {
		for r := range out {
			out[r] = g.Proc(r % n.nprocs)
		}
		return out, nil
	}
	if len(m) != ranks {
		return nil, fmt.Errorf("the mapping places %d ranks, the program has %d", len(m), ranks)
	}
	for r, id := range m {
		v, ok := g.Index(id)
		if !ok || g.NodeKind(v) != topo.Processor {
			return nil, fmt.Errorf("the mapping places rank %d on node %d, which is not a processor (processor ids are %s)", r, id, n.procIDs())
		}
		out[r] = v
	}
	return out, nil
}

// Driver event kinds (evDriver's aux).
const (
	wStart   int32 = iota // id unused: start every operation ready at the start (newProgRun's list)
	wOpStart              // id = op: it starts now (for irequires)
	wCalcEnd              // id = op: its CPU time may be over
	wSent                 // id = op: the send is done with the CPU
	wArrive               // id = program message: usable at its receiver
	wInject               // id = simulator message: it leaves its NIC now
	wRetry                // id = op: a receive's CPU has been free (LogGOPS processors)
	wWake                 // id = CPU or NIC (resource): it may be free now for those waiting on it
	wSettle               // id unused: the contenders of this time go in order
)

// Phases of a program message.
const (
	pmEager uint8 = iota // data, sent at once
	pmRTS                // rendezvous request on its way to the receiver
	pmCTS                // clear-to-send on its way back
	pmData               // rendezvous data
	pmLocal              // between ranks on one processor
	pmMatch              // LogGOPS rendezvous: data sent at once, the send completing on the match
)

// pmsg is one message of the program, in 56 bytes: its size is its
// send's.
type pmsg struct {
	src, dst   int32 // ranks
	tag        int32
	send, recv int32 // operations; recv -1 until matched
	// seq is the arrival order at the receiver (a count of postings and
	// arrivals, at most one per operation: see opState.need).
	seq  int32
	next int32 // the message after it in its receiver's queue of messages in
	kind uint8
	// cpu and nic are those its send's operation names, which take it in
	// at a LogGOPS receiver (tryTake): the operation, of a rank far away,
	// was not in the cache when the message came in.
	cpu, nic uint8
	at       float64
	// On LogGOPS processors: when the send started and its order then,
	// which order the message among what contends for the receiving CPU.
	ts    float64
	tsSeq int64
}

// contender is an operation or a message in (a simulator message, its id
// complemented) waiting for a CPU and a NIC on a LogGOPS processor, in
// 24 bytes. LogGOPSim
// takes the events due at one time in the order they were first
// scheduled: an operation when it became ready, a message when its send
// started (ts, then seq). from is the resource (see resource) on whose
// wait list it waits, -1 when none.
type contender struct {
	ts   float64
	seq  int64
	id   int32 // an operation, or ^m for simulator message m
	from int32
}

func (a contender) before(b contender) bool {
	return a.ts < b.ts || a.ts == b.ts && a.seq < b.seq
}

// waitList is a resource's waiters, a heap in LogGOPSim's order
// (contender.before); woken says a wWake is pending for it.
type waitList struct {
	h     []contender
	woken bool
}

func (w *waitList) push(c contender) {
	w.h = append(w.h, c)
	for i := len(w.h) - 1; i > 0; {
		up := (i - 1) / 2
		if !w.h[i].before(w.h[up]) {
			break
		}
		w.h[i], w.h[up] = w.h[up], w.h[i]
		i = up
	}
}

func (w *waitList) pop() contender {
	c := w.h[0]
	last := len(w.h) - 1
	w.h[0] = w.h[last]
	w.h = w.h[:last]
	for i := 0; ; {
		m, l, r := i, 2*i+1, 2*i+2
		if l < last && w.h[l].before(w.h[m]) {
			m = l
		}
		if r < last && w.h[r].before(w.h[m]) {
			m = r
		}
		if m == i {
			break
		}
		w.h[i], w.h[m] = w.h[m], w.h[i]
		i = m
	}
	return c
}

// queue is a matching queue, first and last: of posted receives, linked
// through their opState.cause (unused until they complete), or of
// messages in, linked through pmsg.next. A queue of its own per key took
// 40 bytes more a posted receive (5 million of them at once in a
// dissemination of 270,000 ranks).
type queue struct{ head, tail int32 }

func matchKey(src, tag int32) int64 { return int64(src)<<32 | int64(uint32(tag)) }

// rankState is one rank's messages in and accounts (its posted receives
// are in progRun.listed or progRun.posted).
//
// A message in reads its first 16 bytes, which fetch asks for: they are
// in the first line of the record wherever it lies (records are 80
// bytes, from a line's start or 16, 32 or 48 bytes into it).
type rankState struct {
	// posted counts its posted receives, wild those of any source or any
	// tag: while there are none, a message in looks up its own key
	// alone, where four look-ups were 4% of a 16,384-rank dissemination's
	// simulation.
	posted, wild int32
	// head and tail bound its list of posted receives in progRun.listed
	// (placePosted); head is -1 where they are in progRun.posted.
	head, tail int32
	unexpected matchQueues // (source, tag) -> messages in, not yet received
	compute    float64
	send, recv float64
	end        float64
}

// opState is an operation's state in a program's run, in one record
// (32 bytes) where it was in eight arrays (42 bytes): handling an
// operation touches one cache line rather than eight.
type opState struct {
	// Until an operation that contends on a LogGOPS processor runs,
	// start and end hold its order among contenders (contender's ts and
	// seq, a count exact in a float64), where two arrays of their own
	// took 16 bytes an operation.
	start, end float64
	// need is how many prerequisites are unmet until the operation is
	// issued; then, for a posted receive, its posting order (the count
	// of postings and arrivals, at most one per operation, so it fits).
	need    int32
	readyBy int32 // what released it last
	cause   int32 // what it waited for last (-1: nothing); while a receive is posted, the next of its queue
	state   uint8 // 0 waiting, 1 issued, 2 started, 3 done
	// byStart: readyBy released it by starting (irequires), not by
	// completing. The critical path then goes on from what held
	// readyBy's start back: its completion may come later than this
	// operation's, and through its own messages (a halo exchange's waits
	// form a ring).
	byStart bool
	// retried: a receive on a LogGOPS processor found its CPU busy and
	// is posted when it tries again (attempt).
	retried bool
	// kind is the operation's (lang.SchedOp.Kind), in the record's last
	// byte: what issue and settle read of an operation just released, of
	// a rank far from the last, before its own 40 bytes have come in (two
	// reads of them that missed the cache, 2.8% of a 16,384-rank
	// dissemination's simulation).
	kind lang.SchedKind
}

// interval is a time a node was receiving or passing packets on.
type interval struct{ a, b float64 }

type progRun struct {
	s    *sim
	n    *network
	spec *Spec // as given: the network's may have lost its overheads to the NICs (kernelSpec)
	// kinds are the different nodes of spec's node list and kindOf each
	// node's among them (internNodes); nil where the spec has no list
	// or too many different nodes.
	kinds  []NodeParams
	kindOf []uint8
	x      *lang.Schedule // collectives expanded
	orig   *lang.Schedule
	origin []int32 // x op -> orig op (nil: the same)
	node   []int32 // rank -> node index
	tr     *traffic
	eager  int64 // a message of more bytes goes by rendezvous
	o      ProgramOptions

	ops       []opState // per operation of x
	dependent []int32   // CSR of dependents: op<<1 | start
	startDeps bool      // some operation irequires another (its start releases it)
	depAt     []int32
	ready     []int32 // worklist
	// readyInOrder: ready is in drain's order (newProgRun's list, at the
	// start).
	readyInOrder bool
	// rankBy[op] is op's rank where ranks have different numbers of
	// operations (a binomial broadcast's root sends 16 messages, a leaf
	// receives 1), where rankOf searched RankStart; nil where they have
	// as many (byRank).
	rankBy []int32
	// byRank divides by the operations a rank has (by multiplication: a
	// division instruction takes tens of cycles, several times an
	// operation).
	byRank divider

	// msgs holds the program's messages in flight or waiting to be
	// received, donePm the places of those done with (all of them, with
	// a trace, are kept), and sent counts them: a message's record
	// (56 B) was kept to the end, making 13 MB of memory touched once
	// for a 16,384-rank dissemination.
	msgs   []pmsg
	donePm []int32
	// listed holds the lists of posted receives of the ranks of few
	// receives, posted the queues of the others' (placePosted).
	listed []listedRecv
	posted postedTable
	tabled bool // some rank's posted receives are in posted
	sent   int64
	simMsg []int32 // sim message -> program message
	// spare holds the simulator messages taken in, which carry the next
	// ones sent (reuse: on a network without acknowledgements, which
	// come back after the message is in), where each message took a new
	// one (its record and part, 150 B, never touched again).
	spare []int32
	reuse bool
	// wholeStar: the run takes the star's path (kernel_star.go) with
	// messages of one part and one packet, whose reuse is starRefill.
	wholeStar bool

	// held is what the run holds (the budget's estimate), beside the
	// timeline's spans, of which there may be maxSpans: with the waits
	// between them they take three times as much.
	held, limit int64
	maxSpans    int64
	seq         int64
	ranks       []rankState
	spans       []Span
	// With o.Flows: when each program message's send span began (by
	// message), and the messages taken in, with the message of each.
	sendStart []float64
	flows     []Flow
	flowMsg   []int32
	clk       *progClock // clocks and run-time values (program_clock.go); nil when none

	// LogGOPS processors (usesLogGOPS): units holds, for each node that
	// runs ranks from unitAt[v] on, when its CPUs 1.. and its NICs' send
	// and receive gaps are free (CPU 0 is the node's own, nodeState.cpu).
	// used is how many CPUs and NICs the schedule names (the most of
	// any rank), which a processor that does not state its count has.
	nic    bool
	unitAt []int32
	units  []float64
	used   [2]int
	// An operation's order among contenders (contender) is kept in its
	// start and end until it runs (opState); batch holds the contenders
	// of the present time, tsSeq counts.
	batch  []contender
	merged []contender // sortRuns's other buffer
	batchT float64
	// waits holds the wait lists of the resources that have had
	// waiters, woken in order when the resource may be free (wait), and
	// waitAt each resource's place in it plus one (0: none yet): a map
	// from resource to list was 6% of a 16,384-rank dissemination's
	// simulation. early holds the waiters let into the present time's
	// contenders while it settles.
	waits    []waitList
	waitAt   []int32
	early    waitList
	tsSeq    int64
	settling bool

	// Slow-down of computation by receiving and through-routing.
	slows   bool
	recvBy  [][]interval       // per node: merged times it was receiving
	routeBy [][]interval       // per node: merged times it passed packets on
	cpuBy   [][]interval       // per node: its router process's CPU time (program_router.go)
	hosts   []bool             // per node: some rank runs there
	maxCalc float64            // see longestCalc
	aux     map[int64]*float64 // see auxCPU
	// pieceFrom is where the piece of a computation now on the CPU
	// began, for computations slowed down (see calcEnd).
	pieceFrom map[int32]float64
}

// newProgRun prepares the run of x, whose operations' records ops are
// filled (RunProgram's count), and whose free operations wait for
// nothing: those are its ready list at the start, in drain's order if
// inOrder.
func newProgRun(s *sim, n *network, x, orig *lang.Schedule, origin []int32, nodes []int32, o ProgramOptions, ops []opState, free int64, inOrder bool) *progRun {
	p := &progRun{s: s, n: n, x: x, orig: orig, origin: origin, node: nodes, o: o, eager: rendezvousAbove(o.EagerLimit),
		tr: &traffic{op: "program", channels: 1, links: 1, payload: int64(n.spec.Packet.Payload),
			hdrTail: int64(n.spec.Packet.Header + n.spec.Packet.Trailer), circuit: n.sw == Circuit}}
	N := len(x.Ops)
	p.rankBy, p.byRank = rankIndex(x)
	p.ops = ops
	p.depAt = make([]int32, N+1)
	// Every operation that waits for nothing is ready at the start: room
	// for them at once, where the list grew by copies (5 MB of garbage
	// for a 16,384-rank dissemination, whose 245,760 receives and sends
	// are all free), listed here rather than by another pass over the
	// operations when the run starts.
	p.ready = make([]int32, 0, free)
	// The list is in drain's order when each rank's operations in it
	// are in LogGOPSim's order of kinds (ranks and operations are in
	// order): then the start's drain need not sort 245,760 of them.
	p.readyInOrder = inOrder
	for i := range N {
		deps := x.DepsOf(i)
		if len(deps) == 0 {
			p.ready = append(p.ready, int32(i))
		}
		for _, d := range deps {
			p.depAt[d.Op]++
		}
	}
	// depAt[j] is where j's dependents end, and they are filled from
	// there down, the last operation's first: each then starts at
	// depAt[j], in the order of the operations, without a copy of
	// depAt to fill up from (1.8 MB for a 16,384-rank dissemination).
	for i := 1; i <= N; i++ {
		p.depAt[i] += p.depAt[i-1]
	}
	p.dependent = make([]int32, len(x.Deps))
	for i := N - 1; i >= 0; i-- {
		deps := x.DepsOf(i)
		for k := len(deps) - 1; k >= 0; k-- {
			d := deps[k]
			v := int32(i) << 1
			if d.Start {
				v |= 1
				p.startDeps = true
			}
			p.depAt[d.Op]--
			p.dependent[p.depAt[d.Op]] = v
		}
	}
	// In huge pages where large (a 65,536-rank broadcast's are 5.2 MB,
	// which 4 KB pages took 1,280 faults to touch).
	p.ranks = hugepages.Make[rankState](x.Ranks, x.Ranks)
	p.hosts = make([]bool, n.g.N())
	for _, v := range nodes {
		p.hosts[v] = true
		if np := n.nodeP(v); np.RecvDelay > 0 || np.RouteDelay > 0 || routesOnCPU(np) {
			p.slows = true
		}
	}
	if p.slows {
		p.recvBy = make([][]interval, n.g.N())
		p.routeBy = make([][]interval, n.g.N())
		p.cpuBy = make([][]interval, n.g.N())
	}
	return p
}

// rankIndex is what rankOf reads for x: the rank of each operation, nil
// when every rank has as many operations, and a divider by that number
// (at least 1).
func rankIndex(x *lang.Schedule) (rankBy []int32, byRank divider) {
	n := len(x.Ops)
	for r := 0; r < x.Ranks; r++ {
		if int(x.RankStart[r+1]-x.RankStart[r])*x.Ranks == n {
			continue
		}
		by := make([]int32, n)
		for r := 0; r < x.Ranks; r++ {
			for i := x.RankStart[r]; i < x.RankStart[r+1]; i++ {
				by[i] = int32(r)
			}
		}
		return by, newDivider(1)
	}
	return nil, newDivider(uint32(max(1, n/max(1, x.Ranks))))
}

// rankOf is the rank of operation op. Most schedules give every rank
// as many operations (a program's loop, a schedgen collective), so op's
// place in the schedule tells its rank; other schedules have it
// in rankBy, where they searched (lang.Schedule.RankOf's binary search,
// which was a sixth of a 1,024-rank ring's simulation and 12% of a
// 65,536-rank binomial broadcast's).
func (p *progRun) rankOf(op int32) int {
	if p.rankBy != nil {
		return int(p.rankBy[op])
	}
	return int(p.byRank.div(uint32(op)))
}

func (p *progRun) wake(id, aux int32) {
	now := p.now()
	switch aux {
	case wStart:
		// The operations that wait for nothing, which newProgRun has
		// listed, are ready now.
	case wOpStart:
		p.started(id)
	case wCalcEnd:
		p.calcEnd(id)
	case wSent:
		p.complete(id, now, p.ops[id].readyBy)
	case wArrive:
		p.arrive(id)
	case wInject:
		p.leave(id)
	case wRetry:
		o := &p.ops[id]
		p.contend(contender{ts: o.start, seq: int64(o.end), id: id, from: -1})
	case wWake:
		p.woken(id)
	case wSettle:
		p.settle()
	}
	p.drain()
}

// drain issues the ready operations, in the order they became ready (on
// LogGOPS processors in LogGOPSim's order: rank by rank, sends before
// receives before computation, each in the order of the schedule).
func (p *progRun) drain() {
	if p.nic && len(p.ready) > 1 && !p.readyInOrder {
		slices.SortFunc(p.ready, func(a, b int32) int {
			ra, rb := p.rankOf(a), p.rankOf(b)
			if ra != rb {
				return cmp.Compare(ra, rb)
			}
			if ka, kb := kindOrder(p.ops[a].kind), kindOrder(p.ops[b].kind); ka != kb {
				return cmp.Compare(ka, kb)
			}
			return cmp.Compare(a, b)
		})
	}
	p.readyInOrder = false // but the start's, operations are made ready in any order
	for k := 0; k < len(p.ready); k++ {
		p.issue(p.ready[k])
	}
	p.ready = p.ready[:0]
}

// kindOrder is LogGOPSim's order of operations made ready together.
func kindOrder(k lang.SchedKind) int {
	switch k {
	case lang.OpSend:
		return 0
	case lang.OpRecv:
		return 1
	}
	return 2
}

func (p *progRun) cpu(r int32) *float64 { return &p.s.nodes[p.node[r]].cpu }

func (p *progRun) issue(i int32) {
	now := p.now()
	op := &p.x.Ops[i]
	r := int32(p.rankOf(i))
	p.ops[i].state = 1
	if p.clk != nil && p.clk.issue(p, i, r, op) {
		return
	}
	if k := p.ops[i].kind; p.nic && (k == lang.OpCalc || k == lang.OpSend || k == lang.OpRecv) {
		seq := p.nextSeq()
		p.ops[i].start, p.ops[i].end = now, float64(seq)
		p.contend(contender{ts: now, seq: seq, id: i, from: -1})
		return
	}
	p.run(i, r, op)
}

// run starts operation i of rank r now.
func (p *progRun) run(i, r int32, op *lang.SchedOp) {
	now := p.now()
	p.ops[i].end = 0 // it held the operation's order among contenders
	switch op.Kind {
	case lang.OpCalc:
		c := p.cpu(r)
		if p.nic {
			c = p.cpuOf(r, op.CPU)
		} else if op.CPU != 0 {
			c = p.auxCPU(r, op.CPU)
		}
		st := max(now, *c)
		*c = st + op.Time
		p.ops[i].start = st
		if op.Time == 0 && st == now {
			p.started(i)
			p.complete(i, now, p.ops[i].readyBy)
			return
		}
		p.startAt(i, st)
		p.s.push(st+op.Time, evDriver, i, wCalcEnd)
	case lang.OpSend:
		p.send(i, r, op)
	case lang.OpRecv:
		p.ops[i].start = now
		p.started(i)
		p.post(i, r, op)
	default:
		p.s.err = fmt.Errorf("operation %d of rank %d: %s cannot be simulated", i-p.x.RankStart[r], r, op.Kind)
	}
}

// startAt marks op i started at t (now or later).
func (p *progRun) startAt(i int32, t float64) {
	if t > p.now() {
		p.s.push(t, evDriver, i, wOpStart)
	} else {
		p.started(i)
	}
}

func (p *progRun) started(i int32) {
	if p.ops[i].state >= 2 {
		return
	}
	p.ops[i].state = 2
	if !p.startDeps {
		return
	}
	for _, d := range p.dependent[p.depAt[i]:p.depAt[i+1]] {
		if d&1 == 1 {
			p.release(d>>1, i, true)
		}
	}
}

func (p *progRun) release(j, by int32, start bool) {
	p.ops[j].readyBy, p.ops[j].byStart = by, start
	if p.ops[j].need--; p.ops[j].need == 0 {
		p.ready = append(p.ready, j)
		// issue reads it next, of a rank far from the last (fetchReceiver).
		p.fetchOp(j)
	}
}

// complete ends op i at t; cause is what it waited for last.
func (p *progRun) complete(i int32, t float64, cause int32) {
	if p.ops[i].state < 2 {
		p.started(i)
	}
	p.ops[i].state = 3
	p.ops[i].end = t
	p.ops[i].cause = cause
	rs := &p.ranks[p.rankOf(i)]
	rs.end = max(rs.end, t)
	for _, d := range p.dependent[p.depAt[i]:p.depAt[i+1]] {
		if d&1 == 0 {
			p.release(d>>1, i, false)
		}
	}
}

// span charges rank r's CPU [a, b] to kind and records it for the
// timeline.
func (p *progRun) span(r int32, kind string, a, b float64, op int32) {
	if b <= a {
		return
	}
	rs := &p.ranks[r]
	switch kind {
	case "compute":
		rs.compute += b - a
	case "send":
		rs.send += b - a
	case "recv":
		rs.recv += b - a
	}
	rs.end = max(rs.end, b)
	if p.o.Timeline {
		if int64(len(p.spans)) >= p.maxSpans {
			if p.s.err == nil {
				p.s.err = &limits.TooLarge{What: fmt.Sprintf("the timeline of %s (%d spans so far)", p.orig.Name, len(p.spans)),
					Need: limits.Add(p.held, limits.Mul(int64(len(p.spans))+1, 3*spanBytes)), Limit: p.limit}
			}
			return
		}
		p.spans = append(p.spans, Span{Rank: int(r), Kind: kind, Start: a, End: b, Op: p.origOp(op)})
	}
}

// origOp is op's index among its rank's operations in the input schedule.
func (p *progRun) origOp(op int32) int {
	if op < 0 {
		return -1
	}
	g := op
	if p.origin != nil {
		g = p.origin[op]
	}
	return int(g - p.orig.RankStart[p.orig.RankOf(int(g))])
}

// calcEnd is reached when a piece of op i's computation has had its CPU
// time: the work it lost to receiving and routing meanwhile (see lost)
// is done next, after whatever the CPU was given in the meantime (the
// receive overheads of those very messages), and so on until nothing is
// lost.
func (p *progRun) calcEnd(i int32) {
	now := p.now()
	r := int32(p.rankOf(i))
	from := p.ops[i].start
	if p.pieceFrom != nil {
		if f, ok := p.pieceFrom[i]; ok {
			from = f
		}
	}
	if p.x.Ops[i].CPU != 0 {
		p.complete(i, now, p.ops[i].readyBy)
		return
	}
	p.span(r, "compute", from, now, i)
	if p.slows {
		if l := p.lost(p.node[r], from, now); l > 1e-9*p.x.Ops[i].Time && l > 0 {
			c := p.cpu(r)
			st := max(now, *c)
			*c = st + l
			if p.pieceFrom == nil {
				p.pieceFrom = map[int32]float64{}
			}
			p.pieceFrom[i] = st
			p.s.push(st+l, evDriver, i, wCalcEnd)
			return
		}
		delete(p.pieceFrom, i)
	}
	p.complete(i, now, p.ops[i].readyBy)
}

// Seed 002 §1.1 gives each processor a maxrecvdelay and a maxroutedelay, a
// "delay in percentage, 0% = no delay" of its computation caused by
// receiving and by routing, adding that communication takes a fast
// processor "at most a few percent of the cycles" and that a separate
// routing processor makes the routing delay 0%. We read the percentage as
// how much longer computation takes while that communication lasts, at
// most (the "max"): while packets arrive at the processor for it, its
// computation runs at 1/(1 + recv) of its speed, while it passes packets
// on at 1/(1 + route), and while both at 1/((1 + recv)(1 + route)). So 30%
// makes work that overlaps receiving throughout take 1.3 times as long.
//
// lost is the work not done in the CPU time [a, b] at processor v for
// that reason: the seconds of [a, b] spent receiving only, routing only
// or both, times 1 - the speed then.
func (p *progRun) lost(v int32, a, b float64) float64 {
	np := p.nodeP(v)
	fr := np.RecvDelay / (1 + np.RecvDelay)
	ft := np.RouteDelay / (1 + np.RouteDelay)
	fb := 1 - 1/((1+np.RecvDelay)*(1+np.RouteDelay))
	r, o := overlap(p.recvBy[v], a, b), overlap(p.routeBy[v], a, b)
	both := 0.0
	if r > 0 && o > 0 {
		both = overlapBoth(p.recvBy[v], p.routeBy[v], a, b)
	}
	return fr*(r-both) + ft*(o-both) + fb*both + overlap(p.cpuBy[v], a, b)
}

// auxCPU is when CPU k (≥ 1) of rank r is free. Operations on such a CPU
// (GOAL's "cpu N", a trace's timers) run beside the processor's one
// simulated CPU, which sends and receives: they neither wait for it nor
// count in the rank's breakdown, where the rank waits meanwhile.
func (p *progRun) auxCPU(r int32, k uint8) *float64 {
	if p.aux == nil {
		p.aux = map[int64]*float64{}
	}
	key := int64(r)<<8 | int64(k)
	c := p.aux[key]
	if c == nil {
		c = new(float64)
		p.aux[key] = c
	}
	return c
}

// nodeP is node v's parameters as the spec gives them.
func (p *progRun) nodeP(v int32) *NodeParams {
	if p.kindOf != nil {
		return &p.kinds[p.kindOf[v]]
	}
	return p.spec.Node(v)
}

// internNodes fills kinds and kindOf from spec's node list of a record a
// node when it has at most 256 different nodes: reading a node's
// parameters from such a list (232 B a record) was a sixth of the time of
// attempt on std:loggp, a cache miss, where a byte a node and a few
// records stay in the cache. A spec that gives its different nodes once
// (NodeOf, as eval's do) is read as it is.
func (p *progRun) internNodes(spec *Spec) {
	if len(spec.Nodes) == 0 || spec.NodeOf != nil {
		return
	}
	kindOf := make([]uint8, spec.Graph.N())
	last := 0
	for v := range int32(len(kindOf)) {
		np := spec.Node(v)
		if len(p.kinds) > 0 && p.kinds[last] == *np {
			kindOf[v] = uint8(last)
			continue
		}
		last = slices.Index(p.kinds, *np)
		if last < 0 {
			if len(p.kinds) == math.MaxUint8+1 {
				p.kinds = nil
				return
			}
			p.kinds = append(p.kinds, *np)
			last = len(p.kinds) - 1
		}
		kindOf[v] = uint8(last)
	}
	p.kindOf = kindOf
}

// cpuOf is when CPU c of rank r's processor is free, on LogGOPS
// processors (unitsOf has checked that it has one of that number).
func (p *progRun) cpuOf(r int32, c uint8) *float64 { return p.res(p.cpuRes(r, c)) }

// sendGap is when NIC k of node v may next send.
func (p *progRun) sendGap(v int32, k uint8) *float64 { return p.res(p.sendGapRes(v, k)) }

// A resource is a CPU or a NIC's send or receive gap, numbered for its
// wait list: an index of units, or len(units) + v for node v's CPU 0.
func (p *progRun) cpuRes(r int32, c uint8) int32 {
	v := p.node[r]
	if c == 0 {
		return int32(len(p.units)) + v
	}
	return p.unitAt[v] + int32(c) - 1
}

func (p *progRun) sendGapRes(v int32, k uint8) int32 {
	return p.unitAt[v] + int32(or(p.nodeP(v).CPUs, p.used[0])-1) + int32(k)
}

func (p *progRun) recvGapRes(v int32, k uint8) int32 {
	np := p.nodeP(v)
	return p.unitAt[v] + int32(or(np.CPUs, p.used[0])-1+or(np.NICs, p.used[1])) + int32(k)
}

// res is when resource x is next free.
func (p *progRun) res(x int32) *float64 {
	if n := int32(len(p.units)); x >= n {
		return &p.s.nodes[x-n].cpu
	}
	return &p.units[x]
}

// or is n, or def when n is 0 (a count the processor does not state).
func or(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// usesLogGOPS tells whether some node of spec states a NIC or CPUs
// (NodeParams.loggops).
func usesLogGOPS(spec *Spec) bool {
	if len(spec.Nodes) == 0 {
		return spec.DefaultNode.loggops()
	}
	for i := range spec.Nodes {
		if spec.Nodes[i].loggops() {
			return true
		}
	}
	return false
}

// kernelSpec is spec with no send or receive overheads and no NICs: on
// LogGOPS processors the program run charges them itself. When that
// leaves every node alike (std:loggp's processors and its switch), the
// nodes are given by DefaultNode alone, where a copy of the node list
// took 14.5 MB at 65,536 processors.
func kernelSpec(spec *Spec) *Spec {
	ks := *spec
	ks.DefaultNode = withoutNIC(ks.DefaultNode)
	alike := true
	for i := range spec.Nodes {
		if alike = withoutNIC(spec.Nodes[i]) == ks.DefaultNode; !alike {
			break
		}
	}
	if alike {
		ks.Nodes, ks.NodeOf = nil, nil
	} else {
		ks.Nodes = slices.Clone(spec.Nodes)
		for i := range ks.Nodes {
			ks.Nodes[i] = withoutNIC(ks.Nodes[i])
		}
	}
	return &ks
}

func withoutNIC(np NodeParams) NodeParams {
	np.SendOverhead, np.RecvOverhead = 0, 0
	np.SendGap, np.RecvGap, np.SendGapPerByte, np.RecvGapPerByte, np.SendPerByte, np.RecvPerByte = 0, 0, 0, 0, 0, 0
	np.CPUs, np.NICs, np.MatchRendezvous = 0, 0, false
	return np
}

// unitsOf checks that every operation of x names a CPU and a NIC its
// rank's processor has (one that states no count has as many as the
// schedule names, used, as in LogGOPSim), and returns a slice of -1 per
// node of the graph.
func unitsOf(spec *Spec, x *lang.Schedule, nodes []int32, used [2]int) ([]int32, error) {
	for r, v := range nodes {
		np := spec.Node(v)
		if np.CPUs == 0 && np.NICs == 0 {
			continue
		}
		cpus, nics := or(np.CPUs, used[0]), or(np.NICs, used[1])
		for i := x.RankStart[r]; i < x.RankStart[r+1]; i++ {
			op := &x.Ops[i]
			if int(op.CPU) >= cpus {
				return nil, fmt.Errorf("operation %s of rank %d runs on CPU %d, but its processor has %d (its cpus)", x.LabelOf(int(i)), r, op.CPU, cpus)
			}
			if op.Kind == lang.OpSend && int(op.NIC) >= nics {
				return nil, fmt.Errorf("operation %s of rank %d sends on NIC %d, but its processor has %d (its nics)", x.LabelOf(int(i)), r, op.NIC, nics)
			}
		}
	}
	u := make([]int32, spec.Graph.N())
	for i := range u {
		u[i] = -1
	}
	return u, nil
}

// overlap is how much of [a, b] the sorted disjoint intervals cover.
func overlap(iv []interval, a, b float64) float64 {
	sum := 0.0
	for k := firstEnding(iv, a); k < len(iv) && iv[k].a < b; k++ {
		sum += min(iv[k].b, b) - max(iv[k].a, a)
	}
	return sum
}

// overlapBoth is how much of [a, b] both interval lists cover.
func overlapBoth(x, y []interval, a, b float64) float64 {
	sum := 0.0
	i, j := firstEnding(x, a), firstEnding(y, a)
	for i < len(x) && j < len(y) && x[i].a < b && y[j].a < b {
		lo := max(x[i].a, y[j].a, a)
		hi := min(x[i].b, y[j].b, b)
		if hi > lo {
			sum += hi - lo
		}
		if x[i].b < y[j].b {
			i++
		} else {
			j++
		}
	}
	return sum
}

// firstEnding is the first interval that ends after t.
func firstEnding(iv []interval, t float64) int {
	k, _ := slices.BinarySearchFunc(iv, t, func(x interval, t float64) int {
		if x.b <= t {
			return -1
		}
		return 1
	})
	return k
}

// passing records a packet's head reaching node v (sim.passing).
func (p *progRun) passing(v int32, dst bool, head, tail float64) {
	if !p.hosts[v] {
		return
	}
	np := p.nodeP(v)
	list := &p.routeBy[v]
	if dst {
		if np.RecvDelay == 0 {
			return
		}
		list = &p.recvBy[v]
	} else if np.RouteDelay == 0 {
		return
	}
	iv := *list
	if k := len(iv) - 1; k >= 0 && head <= iv[k].b {
		// Under store and forward and circuit switching a packet is told
		// of once its tail is in, so it may have begun before the last.
		*list = merge(iv, interval{head, tail})
		return
	}
	*list = p.keepOpen(iv, interval{head, tail})
}

// longestCalc bounds how long ago the piece of a computation still
// running started: no piece is longer than the longest computation (the
// factor is a margin).
func (p *progRun) longestCalc() float64 {
	if p.maxCalc == 0 {
		for i := range p.x.Ops {
			p.maxCalc = max(p.maxCalc, p.x.Ops[i].Time)
		}
		worst := 1.0
		for _, v := range p.node {
			np := p.nodeP(v)
			w := (1 + np.RecvDelay) * (1 + np.RouteDelay)
			if routesOnCPU(np) {
				w *= 2 // a piece may lose to the router all of its time besides
			}
			worst = max(worst, w)
		}
		p.maxCalc = p.maxCalc*worst + 1e-300
	}
	return p.maxCalc
}

// send starts send op i of rank r.
func (p *progRun) send(i, r int32, op *lang.SchedOp) {
	now := p.now()
	dst := op.Peer
	if dst < 0 || int(dst) >= len(p.node) {
		p.s.err = fmt.Errorf("rank %d sends to rank %d, which is not a rank (ranks are 0..%d)", r, dst, len(p.node)-1)
		return
	}
	pm := p.newPmsg(pmsg{src: r, dst: dst, tag: op.Tag, send: i, recv: -1, cpu: op.CPU, nic: op.NIC})
	if p.node[r] == p.node[dst] {
		// Through memory: the CPU copies out, then in.
		m := &p.msgs[pm]
		m.kind = pmLocal
		np := p.nodeP(p.node[r])
		c := p.cpu(r)
		c1, c2 := np.SendOverhead, np.RecvOverhead
		if p.nic {
			c = p.cpuOf(r, op.CPU)
			n1 := float64(max(op.Bytes-1, 0))
			c1 += n1 * np.SendPerByte
			c2 += n1 * np.RecvPerByte
		}
		c0 := max(now, *c)
		c1 += c0
		c2 += c1
		*c = c2
		p.ops[i].start = c0
		p.startAt(i, c0)
		p.span(r, "send", c0, c1, i)
		p.span(dst, "recv", c1, c2, -1)
		if p.o.Flows {
			p.noteSent(pm, c0)
			p.took(pm, c1)
		}
		p.sentAt(i, c1)
		p.s.push(c2, evDriver, pm, wArrive)
		return
	}
	kind, bytes := pmEager, op.Bytes
	if op.Bytes > p.eager {
		kind, bytes = pmRTS, 0
		if p.nic && p.nodeP(p.node[r]).MatchRendezvous {
			kind, bytes = pmMatch, op.Bytes
		}
	}
	p.msgs[pm].kind = kind
	c0, c1 := p.inject(pm, r, dst, bytes, op)
	p.ops[i].start = c0
	p.startAt(i, c0)
	p.span(r, "send", c0, c1, i)
	if p.o.Flows {
		p.noteSent(pm, c0)
	}
	switch {
	case kind != pmEager:
	case p.nic:
		p.sentAt(i, c0) // as LogGOPS: an eager send is done when it starts
	default:
		p.sentAt(i, c1)
	}
}

// newPmsg keeps program message m: in the place of one done with
// (donePmsg), or a new one.
func (p *progRun) newPmsg(m pmsg) int32 {
	p.sent++
	if n := len(p.donePm); n > 0 {
		pm := p.donePm[n-1]
		p.donePm = p.donePm[:n-1]
		p.msgs[pm] = m
		return pm
	}
	p.msgs = append(roomFor(p.msgs), m)
	return int32(len(p.msgs) - 1)
}

// roomFor is s with room for one more: twice its room when it is full,
// where append makes room for a quarter more once a slice is large.
// Messages in flight at once grow as a run goes on (a 65,536-rank
// broadcast's last round has 32,768): grown by quarters, the records
// that carry them were copied some twenty times, four times their size
// in garbage.
func roomFor[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 16))
}

// donePmsg: program message pm has been received (and its send is
// done with it) and may be reused, unless a trace will read it.
func (p *progRun) donePmsg(pm int32) {
	if !p.o.Flows {
		p.donePm = append(p.donePm, pm)
	}
}

// noteSent records, for a trace, that the send span of program message
// pm's data began at t.
func (p *progRun) noteSent(pm int32, t float64) {
	for int(pm) >= len(p.sendStart) {
		p.sendStart = append(p.sendStart, 0)
	}
	p.sendStart[pm] = t
}

// took records, for a trace, that program message pm's data began to be
// taken in by its receiver's CPU at t.
func (p *progRun) took(pm int32, t float64) {
	m := &p.msgs[pm]
	p.flows = append(p.flows, Flow{From: int(m.src), FromOp: p.origOp(m.send), To: int(m.dst), ToOp: -1, Bytes: p.x.Ops[m.send].Bytes, Sent: p.sendStart[pm], Received: t})
	p.flowMsg = append(p.flowMsg, pm)
}

// sentAt completes send i when its CPU part ends at t.
func (p *progRun) sentAt(i int32, t float64) {
	if t > p.now() {
		p.s.push(t, evDriver, i, wSent)
		return
	}
	p.complete(i, t, p.ops[i].readyBy)
}

// inject sends bytes for program message pm from rank a to rank b through
// the network now, on the CPU and NIC operation op names, and returns
// when a's CPU is busy with it.
func (p *progRun) inject(pm, a, b int32, bytes int64, op *lang.SchedOp) (c0, c1 float64) {
	s := p.s
	va, vb := p.node[a], p.node[b]
	m := p.simMsgOf(va, vb, bytes)
	if k := p.x.Ops[p.msgs[pm].send].Routing; k != 0 {
		msg := &s.msgs[m]
		for j := msg.part0; j < msg.part0+msg.parts; j++ {
			s.parts[j].rt = k
		}
	}
	for int(m) >= len(p.simMsg) {
		p.simMsg = append(roomFor(p.simMsg), -1)
	}
	p.simMsg[m] = pm
	if !p.nic {
		c0 = max(p.now(), s.nodes[va].cpu)
		s.ready(m)
		return c0, s.nodes[va].cpu
	}
	np := p.nodeP(va)
	cpu, gap := p.cpuOf(a, op.CPU), p.sendGap(va, op.NIC)
	c0 = max(p.now(), *cpu, *gap)
	p.msgs[pm].ts, p.msgs[pm].tsSeq = c0, p.nextSeq()
	n1 := float64(max(bytes-1, 0))
	*cpu = c0 + np.SendOverhead + n1*np.SendPerByte
	*gap = c0 + np.SendGap + n1*np.SendGapPerByte
	if at := c0 + np.SendOverhead; at > p.now() {
		s.push(at, evDriver, m, wInject)
	} else {
		p.leave(m)
	}
	return c0, *cpu
}

// simMsgOf is a simulator message of bytes from node va to node vb: one
// that a message taken in has left (spare), else a new one.
func (p *progRun) simMsgOf(va, vb int32, bytes int64) int32 {
	if n := len(p.spare); n > 0 && p.wholeStar {
		m := p.spare[n-1]
		p.spare = p.spare[:n-1]
		p.s.starRefill(m, va, vb, bytes)
		return m
	}
	if m := p.s.reuse(&p.spare, p.tr, va, vb, bytes); m >= 0 {
		return m
	}
	s := p.s
	s.msgs = roomFor(s.msgs)
	if parts := int(p.tr.parts(bytes)); len(s.parts)+parts > cap(s.parts) {
		s.parts = slices.Grow(s.parts, max(len(s.parts), parts))
	}
	return s.addMsg(p.tr, va, vb, bytes)
}

// taken: simulator message m has been taken in where it went, and the
// kernel has done with it: it may carry another message.
func (p *progRun) taken(m int32) {
	if p.reuse {
		p.spare = append(p.spare, m)
	}
}

// leave hands simulator message m to the network now. The kernel would
// wait for CPU 0, which the NIC model has already charged (kernelSpec
// took the overheads from the kernel's nodes): it is shown the CPU free.
func (p *progRun) leave(m int32) {
	c := &p.s.nodes[p.s.msgs[m].src].cpu
	was := *c
	*c = p.s.now
	p.s.ready(m)
	*c = was
}

// delivered: a message's last byte has arrived and the receiving CPU has
// been charged RecvOverhead (sim.deliver); on a LogGOPS processor the
// receiving CPU and NIC are charged here (take).
func (p *progRun) delivered(m int32) {
	s := p.s
	if p.nic {
		p.take(m)
		p.drain()
		return
	}
	pm := p.simMsg[m]
	msg := &s.msgs[m]
	pk := &p.msgs[pm]
	at := pk.chargedTo()
	ready := msg.ready + msg.lat
	p.span(at, "recv", ready-p.nodeP(msg.dst).RecvOverhead, ready, p.opFor(pm))
	if p.o.Flows && (pk.kind == pmEager || pk.kind == pmData) {
		p.took(pm, ready-p.nodeP(msg.dst).RecvOverhead)
	}
	p.taken(m)
	if ready > s.now {
		s.push(ready, evDriver, pm, wArrive)
		return
	}
	p.arrive(pm)
	p.drain()
}

// take has a LogGOPS processor take in simulator message m, which the
// network has delivered: once the CPU and the NIC of the numbers its send
// named (modulo the receiver's counts) are both free, as in LogGOPSim, it
// charges them and the message is usable; until then it tries again
// whenever they may be.
func (p *progRun) take(m int32) {
	pm := &p.msgs[p.simMsg[m]]
	p.contend(contender{ts: pm.ts, seq: pm.tsSeq, id: ^m, from: -1})
}

// contend adds c to the contenders of the present time. Times are
// compared to the picosecond (LogGOPSim's are whole nanoseconds): a
// message whose sum of wire times comes out a hair later than a CPU's
// sum of overheads is due at the same time. The contenders of a
// picosecond go together a quarter of one later, with that picosecond as
// the present time (now).
func (p *progRun) contend(c contender) {
	p.batch = append(p.batch, c)
	if len(p.batch) == 1 && !p.settling {
		p.batchT = toPS(p.s.now)
		p.s.push(max(p.s.now, p.batchT+0.25e-12), evDriver, 0, wSettle)
	}
}

// toPS rounds t to the picosecond.
func toPS(t float64) float64 { return math.Round(t*1e12) / 1e12 }

// now is the present time: the simulator's, or while the contenders of
// a picosecond go, that picosecond.
func (p *progRun) now() float64 {
	if p.settling {
		return p.batchT
	}
	return p.s.now
}

func (p *progRun) nextSeq() int64 {
	p.tsSeq++
	return p.tsSeq
}

// settle lets the contenders of the present time try, in order, once
// the simulator's other events of this time have gone; those their turns
// make ready join in at the end.
func (p *progRun) settle() {
	// Contenders mostly join in order: a sorted batch is left as it is
	// (as the stable sort would leave it), which was 1.6% of a
	// 16,384-rank dissemination's simulation.
	byTime := func(a, b contender) int {
		if a.ts != b.ts {
			return cmp.Compare(a.ts, b.ts)
		}
		return cmp.Compare(a.seq, b.seq)
	}
	if !slices.IsSortedFunc(p.batch, byTime) {
		p.batch, p.merged = sortRuns(p.batch, p.merged, byTime)
	}
	p.settling = true
	n0 := len(p.batch)
	for k := 0; ; {
		var c contender
		switch {
		case len(p.early.h) > 0 && (k >= n0 || p.early.h[0].before(p.batch[k])):
			c = p.early.pop()
		case k < len(p.batch):
			c = p.batch[k]
			k++
			if j := k + 2*settleAhead; j < len(p.batch) {
				p.fetch(p.batch[j])
			}
			if j := k + settleAhead + settleAhead/2; j < len(p.batch) && p.batch[j].id < 0 {
				p.fetchListed(p.batch[j])
			}
			if j := k + settleAhead; j < len(p.batch) {
				if c := p.batch[j]; c.id >= 0 {
					if p.tabled {
						p.fetchPosting(c.id)
					}
				} else {
					p.fetchReceiver(c)
				}
			}
		default:
			p.batch = p.batch[:0]
			p.settling = false
			return
		}
		p.turn(c)
		p.drain()
	}
}

// sortRuns sorts b stably by cmp and returns it with the spare buffer
// (the two may have traded places). A batch that is not in order is most
// often two or three runs in order (a 65,536-rank broadcast's are 1,191
// contenders long, of 2.3 runs): those are merged in turn through spare,
// where the stable sort's rotations were 2% of its simulation.
func sortRuns(b, spare []contender, cmp func(a, b contender) int) (sorted, rest []contender) {
	if len(b) > maxMerged {
		slices.SortStableFunc(b, cmp)
		return b, spare
	}
	var ends [maxRuns]int
	runs := 0
	for i := 1; i < len(b); i++ {
		if cmp(b[i-1], b[i]) > 0 {
			if runs == maxRuns-1 {
				slices.SortStableFunc(b, cmp)
				return b, spare
			}
			ends[runs] = i
			runs++
		}
	}
	ends[runs] = len(b)
	runs++
	// Merge the first run with each next in turn: ties go to the earlier,
	// as a stable sort leaves them.
	for k := 1; k < runs; k++ {
		left, right := b[:ends[k-1]], b[ends[k-1]:ends[k]]
		out := spare[:0]
		i, j := 0, 0
		for i < len(left) && j < len(right) {
			if cmp(right[j], left[i]) < 0 {
				out = append(out, right[j])
				j++
			} else {
				out = append(out, left[i])
				i++
			}
		}
		out = append(append(out, left[i:]...), right[j:]...)
		out = append(out, b[ends[k]:]...)
		b, spare = out, b[:0]
	}
	return b, spare
}

// maxRuns is how many runs in order sortRuns merges, and maxMerged the
// longest batch it merges (its spare buffer at most 1.5 MB); other
// batches are sorted in place.
const (
	maxRuns   = 8
	maxMerged = 1 << 16
)

// settleAhead is how many contenders ahead settle fetches what their
// turns will read: the contenders of a time are of ranks far apart (every
// rank of a collective's round), whose operations are not in the cache.
const settleAhead = 4

// fetch asks for the lines contender c's turn reads first: its
// operation and the operation's state, or for a message its simulator
// record and where its receiver's posted receives of its key would be
// (the program's message, reused, is in the cache): that look-up missed
// the cache nearly every time, 18% of a 16,384-rank dissemination's
// simulation.
func (p *progRun) fetch(c contender) {
	if c.id >= 0 {
		p.fetchOp(c.id)
		prefetch(uintptr(unsafe.Pointer(&p.ops[c.id])))
		p.fetchRank(int32(p.rankOf(c.id)))
		return
	}
	prefetch(uintptr(unsafe.Pointer(&p.s.msgs[^c.id])))
	m := &p.msgs[p.simMsg[^c.id]]
	p.fetchRank(m.dst)
	if p.posted.n > 0 {
		prefetch(uintptr(unsafe.Pointer(p.posted.at(m.dst, matchKey(m.src, m.tag)))))
	}
}

// fetchRank asks for rank r's record, both its lines where it spans two
// (80 bytes): a message taken in reads its posted receives at the start
// and charges the CPU time near the end (span), as a send does its
// rank's; a 65,536-rank broadcast's span missed on nearly every one.
func (p *progRun) fetchRank(r int32) {
	a := uintptr(unsafe.Pointer(&p.ranks[r]))
	b := a + unsafe.Sizeof(p.ranks[r]) - 1
	prefetch(a)
	if b>>6 != a>>6 {
		prefetch(b)
	}
}

// fetchOp asks for operation i of the schedule, both its lines where it
// spans two (an operation is 40 bytes: its kind, at 32, is in the line
// after its start for half of them, which a fetch of its start missed).
func (p *progRun) fetchOp(i int32) {
	a := uintptr(unsafe.Pointer(&p.x.Ops[i]))
	b := a + unsafe.Sizeof(p.x.Ops[i]) - 1
	prefetch(a)
	if b>>6 != a>>6 {
		prefetch(b)
	}
}

// fetchPosting asks for where the queue of receive op i (whose
// operation fetch has asked for) goes among its rank's posted receives,
// where some rank's are in the table (tabled): a rank posts its receives
// at the start, those of every rank in turn. A rank's list is written in
// order and needs no fetching; reading whether op i is a receive missed
// the cache (2.2% of a 16,384-rank dissemination's simulation, whose
// ranks all list their receives).
func (p *progRun) fetchPosting(i int32) {
	if p.ops[i].kind == lang.OpRecv {
		if r := int32(p.rankOf(i)); p.ranks[r].head < 0 {
			op := &p.x.Ops[i]
			prefetch(uintptr(unsafe.Pointer(p.posted.at(r, matchKey(op.Peer, op.Tag)))))
		}
	}
}

// fetchListed asks, for message contender c (whose receiver's record
// fetch has asked for), for the front of its receiver's list of posted
// receives, which fetchReceiver reads.
func (p *progRun) fetchListed(c contender) {
	m := &p.msgs[p.simMsg[^c.id]]
	if rs := &p.ranks[m.dst]; rs.head >= 0 && rs.head < rs.tail {
		prefetch(uintptr(unsafe.Pointer(&p.listed[rs.head])))
	}
}

// fetchReceiver asks, for message contender c (whose receiver's posted
// receives of its key fetch has asked for), for what taking it in will
// read: the state of the receive posted first for its key, where its
// dependents are listed, and the next operation of its rank and that
// one's state, which in a GOAL schedule is most often the dependent the
// receive's completion issues (the send of a dissemination's next round):
// ranks far apart take turns, and issuing that operation missed the cache
// nearly every time (a tenth of a 16,384-rank dissemination's
// simulation). A hint: the receive may be another, or the next operation
// not its dependent.
func (p *progRun) fetchReceiver(c contender) {
	m := &p.msgs[p.simMsg[^c.id]]
	h := int32(-1)
	if rs := &p.ranks[m.dst]; rs.head >= 0 {
		if rs.head < rs.tail {
			h = p.listed[rs.head].op
		}
	} else if q, ok := p.posted.get(m.dst, matchKey(m.src, m.tag)); ok {
		h = q.head
	}
	if h < 0 {
		return
	}
	a := uintptr(unsafe.Pointer(&p.ops[h]))
	prefetch(a)
	prefetch(uintptr(unsafe.Pointer(&p.depAt[h])))
	if int(h)+1 < len(p.ops) {
		// Two states to a line: the next is often in the one asked for.
		if b := uintptr(unsafe.Pointer(&p.ops[h+1])); b>>6 != a>>6 {
			prefetch(b)
		}
		p.fetchOp(h + 1)
	}
}

// turn lets contender c try. One that waited on a resource's wait list
// is its head: if the resource has been taken meanwhile, it waits on;
// else it tries, and while the resource stays free the next waiter
// joins the contenders in its place in LogGOPSim's order (early). The
// waiters behind one that finds the resource busy are not looked at: as
// LogGOPSim's would, they could only find it busy too.
func (p *progRun) turn(c contender) {
	x := c.from
	if x < 0 {
		p.try(c)
		return
	}
	w := p.waitList(x)
	if toPS(*p.res(x)) > p.now() {
		p.wakeAt(x, w)
		return
	}
	w.pop()
	p.try(c)
	w = p.waitList(x) // try may have made a list, moving the others
	if len(w.h) == 0 {
		return
	}
	if toPS(*p.res(x)) > p.now() {
		p.wakeAt(x, w)
		return
	}
	p.early.push(w.h[0])
}

func (p *progRun) try(c contender) {
	if c.id < 0 {
		p.tryTake(c)
	} else {
		p.attempt(c)
	}
}

// wait puts contender c on the wait list of resource x, which is busy
// after the present time: it contends again when x may be free, where
// LogGOPSim would try it again at that time (and every waiter with it).
func (p *progRun) wait(c contender, x int32) {
	if p.waitAt[x] == 0 {
		p.waits = append(roomFor(p.waits), waitList{})
		p.waitAt[x] = int32(len(p.waits))
	}
	w := p.waitList(x)
	c.from = x
	w.push(c)
	p.wakeAt(x, w)
}

// waitList is resource x's wait list, which wait has made.
func (p *progRun) waitList(x int32) *waitList { return &p.waits[p.waitAt[x]-1] }

// wakeAt has resource x woken when it is next free, if not already.
func (p *progRun) wakeAt(x int32, w *waitList) {
	if !w.woken {
		w.woken = true
		p.s.push(max(*p.res(x), p.s.now), evDriver, x, wWake)
	}
}

// woken: resource x may be free now. Its first waiter contends, or if
// it has been taken meanwhile, the list waits on.
func (p *progRun) woken(x int32) {
	w := p.waitList(x)
	w.woken = false
	if len(w.h) == 0 {
		return
	}
	if toPS(*p.res(x)) > toPS(p.s.now) {
		p.wakeAt(x, w)
		return
	}
	p.contend(w.h[0])
}

// attempt starts operation c.id if its CPU (and a send's NIC) is free,
// as LogGOPSim does, and else waits for the later of them; a receive is
// posted once its CPU has been free, without looking again.
func (p *progRun) attempt(c contender) {
	i := c.id
	now := p.now()
	op := &p.x.Ops[i]
	r := int32(p.rankOf(i))
	x := p.cpuRes(r, op.CPU)
	t := *p.res(x)
	if op.Kind == lang.OpSend && op.Peer >= 0 && int(op.Peer) < len(p.node) && p.node[op.Peer] != p.node[r] {
		if g := p.sendGapRes(p.node[r], op.NIC); *p.res(g) > t {
			x, t = g, *p.res(g)
		}
	}
	if op.Kind == lang.OpRecv && p.ops[i].retried {
		t = now
	}
	if toPS(t) > now {
		if op.Kind == lang.OpRecv {
			p.ops[i].retried = true
			p.s.push(max(t, p.s.now), evDriver, i, wRetry)
			return
		}
		p.wait(c, x)
		return
	}
	p.run(i, r, op)
}

// tryTake charges simulator message c.id to its receiver's CPU and NIC,
// or waits for the later of them.
func (p *progRun) tryTake(c contender) {
	m := ^c.id
	s := p.s
	pm := p.simMsg[m]
	msg := &s.msgs[m]
	pk := &p.msgs[pm]
	at := pk.chargedTo()
	np := p.nodeP(msg.dst)
	xc := p.cpuRes(at, uint8(int(pk.cpu)%or(np.CPUs, p.used[0])))
	xg := p.recvGapRes(msg.dst, uint8(int(pk.nic)%or(np.NICs, p.used[1])))
	cpu, gap := p.res(xc), p.res(xg)
	if t := max(*cpu, *gap); toPS(t) > p.now() {
		if *gap > *cpu {
			xc = xg
		}
		p.wait(c, xc)
		return
	}
	n1 := float64(max(msg.size-1, 0))
	*cpu = p.now() + np.RecvOverhead + n1*max(np.RecvPerByte, np.RecvGapPerByte)
	*gap = p.now() + np.RecvGap + n1*np.RecvGapPerByte
	p.span(at, "recv", p.now(), *cpu, p.opFor(pm))
	if p.o.Flows && (pk.kind == pmEager || pk.kind == pmData || pk.kind == pmMatch) {
		p.took(pm, p.now())
	}
	p.taken(m)
	p.arrive(pm)
}

// chargedTo is the rank whose CPU takes m in: the sender, for the
// clear-to-send of its rendezvous, else the receiver.
func (m *pmsg) chargedTo() int32 {
	if m.kind == pmCTS {
		return m.src
	}
	return m.dst
}

// opFor is the operation of the rank it arrives at that a message's
// receiving cost is charged to: the send its clear-to-send is for, the
// receive it matched, or none yet (-1).
func (p *progRun) opFor(pm int32) int32 {
	if p.msgs[pm].kind == pmCTS {
		return p.msgs[pm].send
	}
	return p.msgs[pm].recv
}

// arrive handles message pm becoming usable where it went.
func (p *progRun) arrive(pm int32) {
	now := p.now()
	m := &p.msgs[pm]
	switch m.kind {
	case pmEager, pmRTS, pmLocal, pmMatch:
		p.seq++
		m.seq, m.at = int32(p.seq), now
		if rc := p.matchPosted(pm); rc >= 0 {
			p.matched(pm, rc)
			return
		}
		p.enqueue(&p.ranks[m.dst].unexpected, matchKey(m.src, m.tag), pm)
	case pmCTS:
		m.kind = pmData
		op := &p.x.Ops[m.send]
		c0, c1 := p.inject(pm, m.src, m.dst, op.Bytes, op)
		p.span(m.src, "send", c0, c1, m.send)
		if p.o.Flows {
			p.noteSent(pm, c0)
		}
	case pmData:
		p.complete(m.recv, now, m.send)
		p.complete(m.send, now, p.ops[m.send].readyBy)
		p.donePmsg(pm)
	}
}

// matched pairs message pm, in at its receiver, with receive op rc.
func (p *progRun) matched(pm, rc int32) {
	now := p.now()
	m := &p.msgs[pm]
	m.recv = rc
	if p.clk != nil {
		p.clk.received(p, rc, m.send)
	}
	if m.kind != pmRTS {
		cause := p.ops[rc].readyBy
		if m.at > p.ops[rc].start || cause < 0 {
			cause = m.send
		}
		p.complete(rc, now, cause)
		if m.kind == pmMatch {
			// As LogGOPSim has it, the sender's CPU and NIC are held
			// until the match.
			op := &p.x.Ops[m.send]
			cpu, gap := p.cpuOf(m.src, op.CPU), p.sendGap(p.node[m.src], op.NIC)
			*cpu, *gap = max(*cpu, now), max(*gap, now)
			p.complete(m.send, now, p.ops[m.send].readyBy)
		}
		p.donePmsg(pm)
		return
	}
	m.kind = pmCTS
	c0, c1 := p.inject(pm, m.dst, m.src, 0, &p.x.Ops[rc])
	p.span(m.dst, "send", c0, c1, rc)
}

// matchPosted finds the earliest posted receive of message pm's receiver
// that accepts it, and takes it off its queue.
func (p *progRun) matchPosted(pm int32) int32 {
	m := &p.msgs[pm]
	rs := &p.ranks[m.dst]
	if rs.posted == 0 {
		return -1
	}
	if rs.head >= 0 {
		best := p.matchListed(rs, m.src, m.tag)
		if best >= 0 {
			rs.posted--
		}
		return best
	}
	best, bestKey := int32(-1), int64(0)
	try := func(src, tag int32) {
		k := matchKey(src, tag)
		if q, ok := p.posted.get(m.dst, k); ok && (best < 0 || p.ops[q.head].need < p.ops[best].need) {
			best, bestKey = q.head, k
		}
	}
	try(m.src, m.tag)
	if rs.wild > 0 {
		try(lang.AnyRank, m.tag)
		if m.tag >= 0 {
			try(m.src, lang.AnyTag)
			try(lang.AnyRank, lang.AnyTag)
		}
	}
	if best < 0 {
		return -1
	}
	if wildKey(bestKey) {
		rs.wild--
	}
	rs.posted--
	// Off its queue, as dequeue takes a message in.
	q, _ := p.posted.get(m.dst, bestKey)
	link := &p.ops[best].cause
	if q.head == q.tail {
		p.posted.del(m.dst, bestKey)
	} else {
		q.head = *link
		p.posted.put(m.dst, bestKey, q)
	}
	*link = -1
	return best
}

// post posts receive op i of rank r: it takes the earliest message in that
// it accepts, or waits.
func (p *progRun) post(i, r int32, op *lang.SchedOp) {
	if op.Peer != lang.AnyRank && (op.Peer < 0 || int(op.Peer) >= len(p.node)) {
		p.s.err = fmt.Errorf("rank %d receives from rank %d, which is not a rank (ranks are 0..%d)", r, op.Peer, len(p.node)-1)
		return
	}
	rs := &p.ranks[r]
	best, bestKey := int32(-1), int64(0)
	if op.Peer != lang.AnyRank && op.Tag != lang.AnyTag {
		k := matchKey(op.Peer, op.Tag)
		if q, ok := rs.unexpected.get(k); ok {
			best, bestKey = q.head, k
		}
	} else {
		rs.unexpected.each(func(k int64, q queue) {
			src, tag := int32(k>>32), int32(uint32(k))
			if (op.Peer == lang.AnyRank || op.Peer == src) && collective.TagMatches(op.Tag, tag) &&
				(best < 0 || p.msgs[q.head].seq < p.msgs[best].seq) {
				best, bestKey = q.head, k
			}
		})
	}
	if best >= 0 {
		p.matched(p.dequeue(&rs.unexpected, bestKey), i)
		return
	}
	p.seq++
	p.ops[i].need = int32(p.seq) // see opState.need
	rs.posted++
	if rs.head >= 0 {
		p.postListed(rs, i, op.Peer, op.Tag)
		return
	}
	k := matchKey(op.Peer, op.Tag)
	if wildKey(k) {
		rs.wild++
	}
	// At the end of its queue, as enqueue puts a message in.
	p.ops[i].cause = -1
	if q, ok := p.posted.get(r, k); ok {
		p.ops[q.tail].cause = i
		q.tail = i
		p.posted.put(r, k, q)
	} else {
		p.posted.put(r, k, queue{i, i})
	}
}

// wildKey tells whether matching key k is of a receive from any source
// or with any tag.
func wildKey(k int64) bool {
	return int32(k>>32) == lang.AnyRank || int32(uint32(k)) == lang.AnyTag
}

// enqueue appends message pm to queue k of qs, its receiver's messages
// in (linked through pmsg.next).
func (p *progRun) enqueue(qs *matchQueues, k int64, pm int32) {
	p.msgs[pm].next = -1
	q, ok := qs.get(k)
	if !ok {
		qs.put(k, queue{pm, pm})
		return
	}
	p.msgs[q.tail].next = pm
	q.tail = pm
	qs.put(k, q)
}

// dequeue takes the front of queue k of qs, which is not empty.
func (p *progRun) dequeue(qs *matchQueues, k int64) int32 {
	q, _ := qs.get(k)
	x := q.head
	if q.head == q.tail {
		qs.del(k)
	} else {
		q.head = p.msgs[x].next
		qs.put(k, q)
	}
	p.msgs[x].next = -1
	return x
}

// result assembles the answer once the run has stopped. The critical
// path may run through every operation, and the timeline's waits double
// its spans: their memory is counted with what the run holds before they
// are made.
func (p *progRun) result(partial bool) (*ProgramResult, error) {
	res := &ProgramResult{Method: "simulated", Messages: p.sent, Events: p.s.events, Partial: partial}
	res.Ranks = make([]RankTimes, len(p.ranks))
	last := int32(-1)
	done := 0
	for i := range p.ops {
		// On a tie the later rank's operation: a rendezvous send ends
		// with its receive, which then leads the path back to it.
		if p.ops[i].state == 3 {
			done++
			if last < 0 || p.ops[i].end >= p.ops[last].end {
				last = int32(i)
			}
		}
	}
	for r := range p.ranks {
		rs := &p.ranks[r]
		rt := RankTimes{Rank: r, Node: p.n.g.ID(p.node[r]), End: rs.end, Compute: rs.compute, Send: rs.send, Recv: rs.recv}
		rt.Wait = max(0, rt.End-rt.Compute-rt.Send-rt.Recv)
		res.Ranks[r] = rt
		res.Makespan = max(res.Makespan, rs.end)
	}
	steps := 0
	p.walkPath(last, func(_ int32, _, _ int, merge bool) {
		if !merge {
			steps++
		}
	})
	need := limits.Add(p.held, limits.Mul(int64(steps), stepBytes))
	if p.o.Timeline {
		need = limits.Add(need, limits.Mul(3*int64(len(p.spans))+int64(len(p.ranks)), spanBytes))
	}
	if err := limits.Check(fmt.Sprintf("the critical path (%d steps) and timeline of %s", steps, p.orig.Name), need, p.limit); err != nil {
		return nil, err
	}
	res.CriticalPath = p.criticalPath(last, steps)
	if p.clk != nil {
		p.clk.fill(p, res)
	}
	if p.o.Timeline {
		res.Timeline = WithWaits(p.spans, res.Ranks)
	}
	if p.o.Flows {
		p.fillFlows(res)
		links, err := p.s.busy.links(p.n, p.orig.Name, p.limit)
		if err != nil {
			return nil, err
		}
		res.Links = links
	}
	// A run whose every operation is done has no deadlock, which
	// deadlock would find reading every operation's state again.
	if !partial && done < len(p.ops) {
		res.Deadlock = p.deadlock()
	}
	return res, nil
}

// criticalPath is the path back from op last, of steps steps (walkPath),
// in time order.
func (p *progRun) criticalPath(last int32, steps int) []PathStep {
	rev := make([]PathStep, 0, steps)
	p.walkPath(last, func(i int32, r, op int, merge bool) {
		if merge {
			rev[len(rev)-1].Start = p.ops[i].start
			return
		}
		g := i
		if p.origin != nil {
			g = p.origin[i]
		}
		o := &p.orig.Ops[g]
		rev = append(rev, PathStep{Rank: r, Op: op, Kind: o.Kind.String(), Label: p.orig.LabelOf(int(g)), Line: int(o.Line),
			Start: p.ops[i].start, End: p.ops[i].end})
	})
	slices.Reverse(rev)
	return rev
}

// walkPath visits the operations from op last back through what each
// waited for last, with each one's rank and index in the input schedule;
// merge says it is of the same step as the one visited before (the
// operations a collective was expanded into are one step). An operation
// is visited once: the path can pass through one twice, its completion
// waiting on what its own start let begin (a receive that the send it
// lets start, by irequires, answers), and its step already spans both.
func (p *progRun) walkPath(last int32, visit func(i int32, r, op int, merge bool)) {
	started := false // reached i through its start, not its completion
	steps, prevR, prevOp := 0, -1, -1
	seen := make([]bool, len(p.ops))
	for n, i := 0, last; i >= 0; n++ {
		if n > 2*len(p.ops) { // a cycle of causes cannot happen; guard anyway
			break
		}
		if !seen[i] {
			seen[i] = true
			r, op := p.rankOf(i), p.origOp(i)
			merge := steps > 0 && r == prevR && op == prevOp
			if !merge {
				steps++
			}
			prevR, prevOp = r, op
			visit(i, r, op, merge)
		}
		next := p.ops[i].cause
		if started {
			next = p.ops[i].readyBy
		}
		i, started = next, next == p.ops[i].readyBy && p.ops[i].byStart
	}
}

// deadlock lists the ranks with operations that never completed, each at
// the first of them that was under way (else the first not done).
func (p *progRun) deadlock() *ProgramDeadlock {
	var d *ProgramDeadlock
	for r := range p.x.Ranks {
		lo, hi := int(p.x.RankStart[r]), int(p.x.RankStart[r+1])
		stuck := -1
		for i := lo; i < hi; i++ {
			if p.ops[i].state == 3 {
				continue
			}
			if stuck < 0 {
				stuck = i
			}
			if p.ops[i].state > 0 {
				stuck = i
				break
			}
		}
		if stuck < 0 {
			continue
		}
		if d == nil {
			d = &ProgramDeadlock{}
		}
		g := int32(stuck)
		if p.origin != nil {
			g = p.origin[stuck]
		}
		op := &p.x.Ops[stuck]
		peer := -1
		if op.Kind == lang.OpSend || op.Kind == lang.OpRecv {
			peer = int(op.Peer)
		}
		d.Waiting = append(d.Waiting, WaitingRank{Rank: r, Op: p.origOp(int32(stuck)), Label: p.orig.LabelOf(int(g)),
			Line: int(op.Line), Peer: peer})
	}
	return d
}

// fillFlows gives res its messages, each with the receive it matched, and
// each rank's time in each collective: from the first start to the last
// end of the operations it was expanded into.
func (p *progRun) fillFlows(res *ProgramResult) {
	for k := range p.flows {
		p.flows[k].ToOp = p.origOp(p.msgs[p.flowMsg[k]].recv)
	}
	res.Flows = p.flows
	if p.origin == nil {
		return
	}
	at := map[int32]int{} // original collective op -> index in Regions
	for i, g := range p.origin {
		o := &p.orig.Ops[g]
		if o.Kind != lang.OpColl || p.ops[i].state < 2 {
			continue
		}
		end := p.ops[i].end
		if p.ops[i].state < 3 {
			end = p.ops[i].start
		}
		k, ok := at[g]
		if !ok {
			k = len(res.Regions)
			at[g] = k
			r := p.orig.RankOf(int(g))
			res.Regions = append(res.Regions, Region{Rank: r, Op: int(g - p.orig.RankStart[r]), Name: p.orig.Colls[o.Peer].Name, Start: p.ops[i].start, End: end})
			continue
		}
		rg := &res.Regions[k]
		rg.Start, rg.End = min(rg.Start, p.ops[i].start), max(rg.End, end)
	}
}
