package program

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unsafe"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/collective"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// AnalyzeOptions choose how Analyze maps and costs a schedule.
type AnalyzeOptions struct {
	// Map gives each rank's processor as an external node id of the
	// machine's topology (its first, or eval.WithTopology's); nil maps
	// rank r to the r-th processor (modulo the number of processors).
	// Ranks on one processor share its CPU and NIC.
	Map []int
	// Timeline asks for ProgramResult.Timeline.
	Timeline bool
	// Flows asks for ProgramResult.Flows and Regions (for a trace).
	Flows bool
	// Model names the model section whose functions cost the operations;
	// "" is the first of ModelSections that costs a message (ModelOf).
	Model string
}

// Analyze predicts a schedule's run on m analytically: every operation
// costed by the machine's model-section functions, dependencies and
// message matching followed, no contention in the network. It is the LogGP
// model as LogGOPSim runs it (see docs/RUNTIME.md, "Programs: the
// analytic answer and LogGP"), with its costs taken from the machine as
// data, each optional with a fallback:
//
//	MODEL.send_cpu(n)             sender CPU per message; else the processor's send_overhead
//	MODEL.recv_cpu(n)             receiver CPU per message; else its recv_overhead
//	MODEL.gap(n)                  NIC time per message (sending and receiving); else 0
//	MODEL.latency(n, src, dst)    from the end of the sender's CPU time to arrival;
//	                              else MODEL.send(n, src, dst) - send_cpu - recv_cpu
//	eager_limit                   a machine param: larger sends complete when matched; else none
//	MODEL.barrier(p), MODEL.bcast(n, p), …
//	                              a collective as a whole (parameters n bytes, p ranks,
//	                              root); else every collective is expanded into
//	                              point-to-point operations (stdlib/collective)
//
// A send starts when its rank's CPU and its processor's NIC are both free;
// the CPU is then busy send_cpu(n) and the NIC gap(n); the message
// arrives send_cpu(n) + latency later and, once the receiver's CPU and NIC
// are free, costs it recv_cpu(n) and gap(n), whether or not a receive is
// posted. Posting a receive costs nothing; messages match posted receives
// first come, first served by source and tag. An operation may start once
// every operation it requires has completed and every one it irequires has
// started.
//
// A rank's breakdown (compute, send, receive, wait) is of its first CPU's
// time; work a GOAL schedule puts on other CPUs ("cpu 1"), such as a
// trace's start timers, runs beside it and is not in the breakdown.
//
// Ties: events due at the same time run in the order they were scheduled
// (a retried event keeps its place), and the operations one event makes
// ready are scheduled rank by rank, sends before receives before
// computation, each kind in the order of the schedule. LogGOPSim does the
// same except that it sorts the kinds with an unstable sort, so where more
// than 16 operations of one kind become ready together on one host its
// order, and so possibly its end times, can differ.
func Analyze(ctx context.Context, m *eval.Machine, s *lang.Schedule, o AnalyzeOptions) (*runtime.ProgramResult, error) {
	a, err := newAnalysis(m, s, o)
	if err != nil {
		return nil, err
	}
	if err := a.run(ctx); err != nil {
		return nil, err
	}
	return a.result()
}

// Memory per operation of the analysis beyond the schedule: its start and
// end, what it waited for, its pending dependency count (which holds its
// state too) and the offset of its dependents (which are counted per
// dependency). Its rank is looked up (rankOf) in a table of at most two
// entries a rank.
const analyzeOpBytes = 8 + 8 + 4 + 4 + 4

// A NoModelError says that a machine has no model to give an analytic
// answer: its model section does not cost a message. Run, asked for both
// answers, gives the simulated one and says why in NoAnalytic.
type NoModelError struct {
	Pos     lang.Pos // the machine's declaration
	Machine string
	Model   string // the model section looked for; "" for all of ModelSections
}

func (e *NoModelError) Error() string {
	what := "its model section " + e.Model + " defines"
	if e.Model == "" {
		what = "its model sections " + strings.Join(ModelSections[:len(ModelSections)-1], ", ") + " and " + ModelSections[len(ModelSections)-1] + " define"
	}
	msg := fmt.Sprintf("machine %q has no analytic model: %s neither latency(n, src, dst) nor send(n, src, dst) (the simulation needs none: run --simulate)", e.Machine, what)
	if e.Pos.IsValid() {
		return e.Pos.String() + ": " + msg
	}
	return msg
}

// ModelSections are the model sections that cost an analytic answer when
// none is named, in the order they are looked for: MPI, then Parasol I's
// PVM and Express (seed 002), so that a Parasol I machine, which has no
// MPI section, is answered both ways.
var ModelSections = []string{"MPI", "PVM", "Express"}

// ModelOf is the model section that costs m's analytic answer: model when
// named, else the first of ModelSections that defines latency(n, src, dst)
// or send(n, src, dst). A *NoModelError says when that section costs no
// message (Model "" when the machine has a PVM or Express section and none
// of ModelSections costs one); a model named that
// has no functions at all is an error listing the sections m has.
func ModelOf(m *eval.Machine, model string) (string, error) {
	sections := map[string]bool{}
	costs := map[string]bool{}
	var names []string
	for _, f := range m.Fields() {
		sec, name, ok := strings.Cut(f.Path, ".")
		if !ok || !f.Func || strings.ContainsAny(sec, "()") || strings.Contains(name, ".") {
			continue
		}
		if !sections[sec] {
			names = append(names, sec)
		}
		sections[sec] = true
		costs[sec] = costs[sec] || name == "latency" || name == "send"
	}
	switch {
	case model != "" && !sections[model]:
		if len(names) == 0 {
			return "", fmt.Errorf("machine %q has no model section %s, nor any other", m.Name(), model)
		}
		return "", fmt.Errorf("machine %q has no model section %s; its sections: %s%s", m.Name(), model, strings.Join(names, ", "), lang.DidYouMean(model, names))
	case model != "" && !costs[model]:
		return "", &NoModelError{Pos: m.Pos(), Machine: m.Name(), Model: model}
	case model != "":
		return model, nil
	}
	looked := ModelSections[0] // the one a machine without PVM or Express lacks
	for _, sec := range ModelSections {
		if costs[sec] {
			return sec, nil
		}
		if sec != ModelSections[0] && sections[sec] {
			looked = "" // every one of them
		}
	}
	return "", &NoModelError{Pos: m.Pos(), Machine: m.Name(), Model: looked}
}

// AnalyzeFootprint is what Analyze takes per item of a schedule beyond
// the schedule: per operation, its state and dependents' offsets; per
// dependency, its dependent; per rank, its times and queues.
func AnalyzeFootprint() runtime.Footprint {
	// Half an event an operation: the queue holds the events of the
	// operations ready together and of the messages under way, never all
	// of a schedule's (those that depend on nothing start without one);
	// about half at the peak of the schedules measured (a program's
	// sends and receives; TestEstimatesAreWithinOneAndAHalfTimesThePeak).
	// A rank's first posted receive and its two queues' counts; the
	// queues themselves are made when a second receive or a message waits
	// in them, as an event is when one is queued.
	return runtime.Footprint{Op: analyzeOpBytes + anEventBytes/2, Dep: 4, Rank: 4 + postEntryBytes + 2*4 + 8 + 2*4 + rankTimesBytes + 2*waiterBytes}
}

// analyzeBytes is what Analyze takes for s beyond s: AnalyzeFootprint,
// and for each operation that waits for none, as a GOAL rank's
// independent operations or a trace's messages at one time, a waiter:
// they all start at 0, most of them waiting for their CPU (runRoots
// starts them without queuing an event each).
func analyzeBytes(s *lang.Schedule) int64 {
	roots := int64(0)
	for i := range s.Ops {
		if s.DepStart[i+1] == s.DepStart[i] {
			roots++
		}
	}
	return limits.Add(AnalyzeFootprint().Bytes(int64(len(s.Ops)), 0, int64(len(s.Deps)), int64(s.Ranks)), limits.Mul(roots, waiterBytes))
}

// Memory of the analysis's events, waiters and per-rank answers: an
// operation's event in the queue, a rank's place in a processor's waiters
// (two, the lists growing by copying) and its node and times, summed and
// then the result's (rankSums, runtime.RankTimes's size). With analyzeOpBytes they make the estimate
// within 1.5× of the measured peak (TestEstimatesAreWithinOneAndAHalfTimesThePeak;
// it was 2.5 times under for a GOAL schedule of independent operations).
var (
	anEventBytes   = int64(unsafe.Sizeof(anEvent{}))
	waiterBytes    = int64(unsafe.Sizeof(waiter{}))
	postEntryBytes = int64(unsafe.Sizeof(postEntry{}))
	rankTimesBytes = int64(unsafe.Sizeof(runtime.RankTimes{}))
)

// rankSums is a rank's node and times as the analysis sums them: the
// layout of runtime.RankTimes, in picoseconds, made the answer's
// seconds in place at the end (result), where the answer's per-rank
// times were made beside the sums: 40 bytes a rank less at the peak (2.6
// MB for a 65,536-rank broadcast). TestRankSumsAreLaidOutAsRankTimes
// holds the layout.
type rankSums struct {
	rank, node                     int // node: external node id
	end, compute, send, recv, wait ps
}

// opState is what the analysis knows of one operation, kept together so
// that handling an operation touches one cache line.
//
// It is 24 bytes: its state is in pending (opStarted, opDone) and its
// rank is looked up (rankOf), where the two took 8 bytes more an
// operation (3.7 MB for a 16,384-rank dissemination).
type opState struct {
	start   ps // when it began; before that, when it may begin
	finish  ps
	why     int32 // what it waited for last; -1 nothing
	pending int32 // prerequisites not yet satisfied; opStarted, opDone
}

// ps is a time in picoseconds. Times are whole picoseconds (the
// language's smallest unit) so that sums are exact: with float seconds,
// 19us + 1us and 16us + 1us + 3us can differ in the last bit and reorder
// events that are simultaneous, as they are in LogGOPSim's integer
// nanoseconds.
type ps = int64

// maxPS is the longest time Analyze represents, about 26.7 days: a time
// no later than it plus a few costs no longer than it cannot overflow.
const maxPS = math.MaxInt64 / 4

// toPS rounds seconds to picoseconds.
func toPS(sec float64) (ps, bool) {
	v := math.Round(sec * 1e12)
	if !(math.Abs(v) <= maxPS) {
		return 0, false
	}
	return ps(v), true
}

func seconds(t ps) float64 { return float64(t) / 1e12 }

// Event kinds.
const (
	evReady  = iota // an operation ready to start
	evArrive        // a message arriving at its receiver (op is the send)
	evLeave         // a collective costed as a whole completing (op is one participant)
)

type anEvent struct {
	t    ps
	seq  uint64
	op   int32
	kind uint8
}

// anQueue holds the pending events in (time, seq) order. Times never go
// below the last one taken (no event is scheduled in the past), so it is
// a radix heap: an event sits in the bucket of the highest bit in which
// its time differs from that last time, and only the lowest non-empty
// bucket is ever sorted out, each event moving down a few times at most.
// Bucket 0 (due) holds the events due at the last time, in seq order,
// taken from its head.
//
// Buckets 1 to 64 keep their events in chunks of one pool, taken as a
// bucket fills and given back as it is sorted out, so that the queue
// holds about as many events as are pending at once. Arrays a bucket
// (each kept at the most it had held, lent between buckets) held five
// times that: a 65,536-rank broadcast, at most 20,880 events pending,
// allocated 5.4 MB for them, a tenth of its peak memory.
type anQueue struct {
	last   ps
	due    []anEvent
	head   int // the next event of due
	later  [65]evBucket
	free   *evChunk // chunks emptied, to be filled again
	n      int
	merged []anEvent // inSeqOrder's other buffer
}

// evChunkLen events fill an 8 KB chunk with its count and link.
const evChunkLen = (8192 - 16) / int(unsafe.Sizeof(anEvent{}))

type evChunk struct {
	ev   [evChunkLen]anEvent
	n    int
	next *evChunk
}

// evBucket is a bucket's events in the order they came: its chunks from
// first to last, each full but the last.
type evBucket struct{ first, last *evChunk }

// inSeqOrder puts due in seq order. A bucket receives events in seq
// order, from pushes and from the sorting out of a higher bucket (each in
// the order that bucket had), so due is a few runs already in order
// (one in a schedgen allreduce or dissemination, up to three in a
// binomial broadcast): they are merged, run with run, where a sort
// compared them all (a tenth of a 65,536-rank broadcast's analysis).
// Seqs are distinct, so the order is the sort's.
func (q *anQueue) inSeqOrder() {
	for z := q.due; seqRun(z, 0) < len(z); z = q.due {
		out := q.merged[:0]
		if cap(out) < len(z) {
			out = make([]anEvent, 0, cap(z))
		}
		for i := 0; i < len(z); {
			m := seqRun(z, i)
			e := seqRun(z, m)
			a, b := z[i:m], z[m:e]
			for len(a) > 0 && len(b) > 0 {
				if a[0].seq < b[0].seq {
					out, a = append(out, a[0]), a[1:]
				} else {
					out, b = append(out, b[0]), b[1:]
				}
			}
			out = append(append(out, a...), b...)
			i = e
		}
		q.due, q.merged = out, z[:0]
	}
}

// roomDue gives due, emptied, room for n events: at least twice what it
// had when it must grow (the events due at once come in growing batches,
// a binomial broadcast's doubling, and an array made for each allocated
// 3 MB for 15,360 at most), and its old array, when larger, to inSeqOrder.
func (q *anQueue) roomDue(n int) {
	if old := q.due; cap(old) < n {
		q.due = make([]anEvent, 0, max(n, 2*cap(old)))
		if cap(old) > cap(q.merged) {
			q.merged = old[:0]
		}
	}
}

// seqRun is the end of the run of events in seq order that starts at i.
func seqRun(z []anEvent, i int) int {
	if i >= len(z) {
		return i
	}
	for i++; i < len(z) && z[i-1].seq < z[i].seq; i++ {
	}
	return i
}

func (q *anQueue) bucket(t ps) int { return bits.Len64(uint64(t ^ q.last)) }

func (q *anQueue) push(e anEvent) {
	switch b := q.bucket(e.t); {
	case b > 0:
		q.add(b, e)
	case len(q.due) > q.head && q.due[len(q.due)-1].seq > e.seq:
		// An event retried to the current time after later ones: into
		// its place by seq (rare: a retry is normally to a later time).
		z := q.due
		k := len(z)
		for k > q.head && z[k-1].seq > e.seq {
			k--
		}
		q.due = slices.Insert(z, k, e)
	default:
		q.due = append(q.due, e)
	}
	q.n++
}

// add appends e to bucket b (1 to 64).
func (q *anQueue) add(b int, e anEvent) {
	k := &q.later[b]
	c := k.last
	if c == nil || c.n == evChunkLen {
		c = q.free
		if c == nil {
			c = new(evChunk)
		} else {
			q.free, c.n, c.next = c.next, 0, nil
		}
		if k.last == nil {
			k.first = c
		} else {
			k.last.next = c
		}
		k.last = c
	}
	c.ev[c.n] = e
	c.n++
}

func (q *anQueue) pop() anEvent {
	if q.head == len(q.due) {
		q.due, q.head = q.due[:0], 0
		b := 1
		for q.later[b].first == nil {
			b++
		}
		from := q.later[b].first
		q.later[b] = evBucket{}
		// The least time becomes the last, and the events at it are
		// due: as many as due is made room for at once.
		min, at := from.ev[0].t, 0
		for c := from; c != nil; c = c.next {
			for _, e := range c.ev[:c.n] {
				if e.t < min {
					min, at = e.t, 0
				}
				if e.t == min {
					at++
				}
			}
		}
		q.last = min
		q.roomDue(at)
		// Every event moves to a lower bucket (its time and min agree
		// above the bit b - 1 they differ in from the old last), so a
		// chunk sorted out is free for the next at once.
		for c := from; c != nil; {
			for _, e := range c.ev[:c.n] {
				if k := q.bucket(e.t); k == 0 {
					q.due = append(q.due, e)
				} else {
					q.add(k, e)
				}
			}
			next := c.next
			c.next, q.free = q.free, c
			c = next
		}
		q.inSeqOrder()
	}
	e := q.due[q.head]
	q.head++
	q.n--
	return e
}

// An operation's pending count once it has begun: it is waiting while
// the count is 0 or more (its prerequisites not yet satisfied, or ready).
const (
	opStarted int32 = -1
	opDone    int32 = -2
)

// msgEntry is a message in a rank's unexpected queue.
type msgEntry struct {
	from ps    // when the receiver's CPU took it
	at   ps    // and when it was done with it
	op   int32 // the send
	src  int32 // the sending rank
	tag  int32
	dead bool
}

// postEntry is a receive in a rank's posted queue: 12 bytes, where a
// msgEntry's times would make it 32 (the three schedgen rows of issue 30
// queue only posted receives: 4.6 MB less for the 16,384-rank
// dissemination).
type postEntry struct {
	op  int32 // the receive; -1 once removed
	src int32 // the source it names
	tag int32
}

// queueEntry is what a fifo holds: E, removed in place.
type queueEntry[E any] interface {
	*E
	removed() bool
	remove()
}

func (m *msgEntry) removed() bool  { return m.dead }
func (m *msgEntry) remove()        { m.dead = true }
func (m *postEntry) removed() bool { return m.op < 0 }
func (m *postEntry) remove()       { m.op = -1 }

// fifo is a queue that is searched from its head and may lose entries
// anywhere: removed entries are marked and dropped when they reach the
// head or when they are half of it.
//
// Until its first entry (e nil), head counts how many entries the queue
// can ever hold (the rank's receives, or the messages sent to it): its
// first storage is that many, up to maxFirstFifo, rather than grown from
// one entry by copying (20 MB of copies for a 16,384-rank
// dissemination). Kept in head, the count costs no field of its own: a
// fifo is 32 bytes, two a rank (1 MB less for a 65,536-rank broadcast).
type fifo[E any, P queueEntry[E]] struct {
	e    []E
	head int32
	dead int32
}

const maxFirstFifo = 64

func (q *fifo[E, P]) push(m E) {
	if q.e == nil {
		q.e, q.head = make([]E, 0, max(1, min(q.head, maxFirstFifo))), 0
	}
	q.e = append(q.e, m)
}

func (q *fifo[E, P]) remove(i int) {
	P(&q.e[i]).remove()
	q.dead++
	for int(q.head) < len(q.e) && P(&q.e[q.head]).removed() {
		q.head++
		q.dead--
	}
	if int(q.head) == len(q.e) {
		q.e, q.head, q.dead = q.e[:0], 0, 0
	} else if q.dead > 32 && int(q.dead) > (len(q.e)-int(q.head))/2 {
		out := q.e[:0]
		for i := range q.e[q.head:] {
			if m := &q.e[int(q.head)+i]; !P(m).removed() {
				out = append(out, *m)
			}
		}
		q.e, q.head, q.dead = out, 0, 0
	}
}

// costs of messages of one size
type sizeCosts struct{ sendCPU, recvCPU, gap ps }

type latKey struct {
	n        int64
	src, dst int32
}

// maxCostCache bounds each cost cache; beyond it costs are computed on
// every call.
const maxCostCache = 1 << 16

// recentCosts is log2 of the number of sizes whose costs the analysis
// holds beside byN, one per hash of the size (analysis.costs).
const recentCosts = 3

type recentCost struct {
	n  int64
	c  sizeCosts
	ok bool
}

type analysis struct {
	m     *eval.Machine
	s     *lang.Schedule
	model string
	topo  *eval.Topology

	// per rank
	proc   []int32    // processor index
	rank   []rankSums // its node and times, the answer's per-rank times (result)
	lastOp []int32    // the operation that ended last on the rank
	// uq is, until the rank's first unexpected message, how many may
	// come (≥ 0), then -1 - its unexpected queue's index in uqs: a queue
	// is made on first use, where every rank had one (32 bytes; the
	// three schedgen rows of issue 30 use none: 1.8 MB less for the
	// 65,536-rank broadcast).
	uq  []int32
	uqs []fifo[msgEntry, *msgEntry]
	// A rank's posted receives: the first in rqOne while no other waits
	// (op -1: none), the others in its queue, made on first use as the
	// unexpected one (rqAt, rqs as uq, uqs). A rank of a broadcast posts
	// one at a time: 16 bytes a rank, where a queue and its entry took 48
	// (2.1 MB less for 65,536 ranks).
	rqOne []postEntry
	rqAt  []int32
	rqs   []fifo[postEntry, *postEntry]

	// per processor (× CPUs for the CPU clocks, × NICs for the NICs':
	// GOAL's cpu N and nic N, as many as the schedule names)
	ncpu, nnic   int
	nexto        []ps
	cpuOp        []int32 // the operation that last occupied the CPU
	nextgs       []ps
	nextgr       []ps
	nicOp        []int32
	sendOverhead []ps
	recvOverhead []ps

	// per operation
	ops []opState
	// rankAt is the rank of every 2^rankShift-th operation (rankOf).
	rankAt    []int32
	rankShift uint
	revDeps   []int32 // dependents: CSR by operation; bit 31 set for irequires
	revOff    []int32

	events anQueue
	now    ps // the time of the event being processed
	seq    uint64
	ready  []int32 // operations made ready by the current event

	// operations waiting for a processor (analyze_wait.go)
	waits     waitLists
	freeWaits []int32
	waitAt    map[waitKey]int32
	epoch     uint64
	// occupiers counts the queued events that hold CPUs unasked (a
	// collective's end, an until).
	occupiers int

	// costs
	sendCPU, recvCPU, gapF, latF, sendF *eval.Func
	eager                               float64
	byN                                 map[int64]sizeCosts
	recent                              [1 << recentCosts]recentCost
	lat                                 map[latKey]ps
	// latBySrc, latByDst: the latency (or send) function reads src, dst;
	// when it reads neither, as on a crossbar, a latency is cached by
	// size alone rather than once per pair of nodes.
	latBySrc, latByDst bool
	// the latency looked up last: schedules repeat one size
	latLast   latKey
	latLastV  ps
	latLastOK bool
	args      [3]lang.Value

	// collectives costed whole
	collF     []*eval.Func
	collIn    [][]int32
	collEntry []ps

	timeline bool
	spans    []runtime.Span
	// With AnalyzeOptions.Flows: the messages and collectives, and the
	// schedule before its collectives were expanded (orig, origin: an
	// expanded operation's original; nil when none were).
	flows    bool
	flowsTo  []runtime.Flow
	regions  []runtime.Region
	orig     *lang.Schedule
	origin   []int32
	messages int64
	nEvents  int64

	clk *anClock // run-time values (analyze_clock.go); nil when none

	// held is the memory the schedule and the analysis hold, so that the
	// critical path, which may run through every operation, is checked
	// against the limit with them.
	held int64
}

func newAnalysis(m *eval.Machine, s *lang.Schedule, o AnalyzeOptions) (*analysis, error) {
	model, err := ModelOf(m, o.Model)
	if err != nil {
		return nil, err
	}
	a := &analysis{m: m, model: model, timeline: o.Timeline, flows: o.Flows, orig: s}
	t, err := m.Topology("")
	if err != nil {
		return nil, err
	}
	a.topo = t
	if err := a.lookupCosts(); err != nil {
		return nil, err
	}
	if s, err = a.collectives(s); err != nil {
		return nil, err
	}
	a.s = s
	if a.clk, err = newAnClock(s, m.MaxMemory()); err != nil {
		return nil, err
	}
	n := len(s.Ops)
	need := limits.Add(analyzeBytes(s), runtime.ScheduleBytes(s))
	if a.flows {
		// A flow per send and a region per collective at most.
		need = limits.Add(need, limits.Mul(int64(n), int64(unsafe.Sizeof(runtime.Flow{})+unsafe.Sizeof(runtime.Region{}))))
	}
	a.held = need
	if err := limits.Check(fmt.Sprintf("analysing %s (%d operations)", s.Name, n), need, m.MaxMemory()); err != nil {
		return nil, err
	}
	if err := a.mapRanks(o.Map); err != nil {
		return nil, err
	}
	R := s.Ranks
	a.lastOp, a.rqOne = make([]int32, R), make([]postEntry, R)
	for i := range a.lastOp {
		a.lastOp[i] = -1
		a.rqOne[i].op = -1
	}
	a.uq, a.rqAt = make([]int32, R), make([]int32, R)
	// One pass over the operations: their state, the queues' sizes, the
	// CPUs and NICs named, and the count of each one's dependents
	// (revOff[k], made the end of k's dependents by the sum below).
	a.ops = hugepages.Make[opState](n, n)
	if n > 0 {
		a.setRanks()
	}
	a.revOff = make([]int32, n+1)
	a.ncpu, a.nnic = 1, 1
	badDep := -1 // the first operation with a dependency out of range
	multi := 0   // ranks with more than one receive
	for r := 0; r < R; r++ {
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			o := &s.Ops[i]
			switch o.Kind {
			case lang.OpRecv:
				a.rqAt[r]++
			case lang.OpSend:
				if o.Peer >= 0 && int(o.Peer) < R {
					a.uq[o.Peer]++
				}
			}
			a.ncpu = max(a.ncpu, int(o.CPU)+1)
			a.nnic = max(a.nnic, int(o.NIC)+1)
			deps := s.Deps[s.DepStart[i]:s.DepStart[i+1]]
			a.ops[i] = opState{why: -1, pending: int32(len(deps))}
			for _, d := range deps {
				if d.Op < 0 || int(d.Op) >= n {
					if badDep < 0 {
						badDep = int(i)
					}
					continue
				}
				a.revOff[d.Op]++
			}
		}
		if a.rqAt[r] > 1 {
			multi++
		}
	}
	// Room for the posted queues of every rank that may post two
	// receives, so that they are not grown by copying.
	a.rqs = make([]fifo[postEntry, *postEntry], 0, multi)
	if err := a.checkUnits(); err != nil {
		return nil, err
	}
	if badDep >= 0 {
		for _, d := range s.DepsOf(badDep) {
			if d.Op < 0 || int(d.Op) >= n {
				return nil, fmt.Errorf("%s: operation %d depends on operation %d, which does not exist", s.Name, badDep, d.Op)
			}
		}
	}
	P := a.topo.Graph.NumProcs()
	a.nexto, a.cpuOp = make([]ps, P*a.ncpu), make([]int32, P*a.ncpu)
	a.nextgs, a.nextgr, a.nicOp = make([]ps, P*a.nnic), make([]ps, P*a.nnic), make([]int32, P*a.nnic)
	for i := range a.cpuOp {
		a.cpuOp[i] = -1
	}
	for i := range a.nicOp {
		a.nicOp[i] = -1
	}
	// Dependents, by a counting sort of the dependencies: filled from the
	// last operation back, each at the end of its target's place, which
	// leaves revOff[k] the start of k's (and them in operation order).
	for i := 1; i < n; i++ {
		a.revOff[i] += a.revOff[i-1]
	}
	if n > 0 {
		a.revOff[n] = a.revOff[n-1]
	}
	a.revDeps = hugepages.Make[int32](len(s.Deps), len(s.Deps))
	for i := n - 1; i >= 0; i-- {
		deps := s.DepsOf(i)
		for k := len(deps) - 1; k >= 0; k-- {
			d := deps[k]
			v := int32(i)
			if d.Start {
				v |= math.MinInt32
			}
			a.revOff[d.Op]--
			a.revDeps[a.revOff[d.Op]] = v
		}
	}
	return a, nil
}

// fieldSet lists the machine's functions by path, to tell an absent
// optional function from a broken one.
func (a *analysis) function(name string) (*eval.Func, error) {
	path := a.model + "." + name
	for _, f := range a.m.Fields() {
		if f.Func && f.Path == path {
			return a.m.Func(path)
		}
	}
	return nil, nil
}

func (a *analysis) lookupCosts() error {
	var err error
	for _, c := range []struct {
		name string
		f    **eval.Func
	}{{"send_cpu", &a.sendCPU}, {"recv_cpu", &a.recvCPU}, {"gap", &a.gapF}, {"latency", &a.latF}, {"send", &a.sendF}} {
		if *c.f, err = a.function(c.name); err != nil {
			return err
		}
	}
	if a.latF == nil && a.sendF == nil {
		return &NoModelError{Pos: a.m.Pos(), Machine: a.m.Name(), Model: a.model}
	}
	a.eager = math.Inf(1)
	if v, err := a.m.Param("eager_limit"); err == nil {
		if v.Kind != lang.Number || v.Dim != lang.SizeDim && v.Dim != lang.Dimensionless {
			return fmt.Errorf("eager_limit of machine %q must be a size, not a %s", a.m.Name(), v.TypeName())
		}
		a.eager = v.Num
	}
	a.byN, a.lat = map[int64]sizeCosts{}, map[latKey]ps{}
	// A latency depends on the processors through the overheads when
	// the model leaves them to the processors (no send_cpu, or no
	// recv_cpu under send), and through src and dst when it reads them.
	f := a.latF
	if f == nil {
		f = a.sendF
	}
	perProc := a.sendCPU == nil || a.latF == nil && a.recvCPU == nil
	params := f.Params()
	a.latBySrc = perProc || len(params) < 2 || f.Mentions(params[1])
	a.latByDst = perProc || len(params) < 3 || f.Mentions(params[2])
	return nil
}

// collectives returns s ready to run: its collectives costed whole when
// the model section defines every one of them, else expanded into
// point-to-point operations.
func (a *analysis) collectives(s *lang.Schedule) (*lang.Schedule, error) {
	if len(s.Colls) == 0 {
		return s, nil
	}
	fs := make([]*eval.Func, len(s.Colls))
	whole := true
	for i, c := range s.Colls {
		f, err := a.function(c.Name)
		if err != nil {
			return nil, err
		}
		if f == nil {
			whole = false
			break
		}
		for _, p := range f.Params() {
			if p != "n" && p != "p" && p != "root" {
				return nil, fmt.Errorf("%s.%s(%s): a collective's cost takes n (bytes), p (ranks) and root, not %s", a.model, c.Name, strings.Join(f.Params(), ", "), p)
			}
		}
		fs[i] = f
	}
	if whole {
		a.collF = fs
		a.collIn = make([][]int32, len(s.Colls))
		a.collEntry = make([]ps, len(s.Colls))
		return s, nil
	}
	g := a.topo.Graph
	x, origin, err := collective.ExpandOrigin(s, collective.Options{Hypercube: g.Kind() == topo.Hypercube, MaxMemory: a.m.MaxMemory()})
	if err != nil {
		return nil, err
	}
	if a.flows {
		a.origin = origin
	}
	return x, nil
}

func (a *analysis) mapRanks(m []int) error {
	g := a.topo.Graph
	P := g.NumProcs()
	if P == 0 {
		return fmt.Errorf("machine %q has no processors", a.m.Name())
	}
	R := a.s.Ranks
	a.proc, a.rank = make([]int32, R), make([]rankSums, R)
	if m != nil && len(m) != R {
		return fmt.Errorf("the map gives %d processors for %d ranks", len(m), R)
	}
	for r := 0; r < R; r++ {
		if m == nil {
			a.proc[r] = int32(r % P)
			a.rank[r] = rankSums{rank: r, node: g.ID(g.Proc(r % P))}
			continue
		}
		v, ok := g.Index(m[r])
		if !ok || g.NodeKind(v) != topo.Processor {
			return fmt.Errorf("the map puts rank %d on node %d, which is not a processor of topology %s", r, m[r], a.topo.Label)
		}
		a.proc[r], a.rank[r] = int32(g.Rank(v)), rankSums{rank: r, node: m[r]}
	}
	// Processors of one type have its overheads: looked up once per run
	// of them (65,536 processors of one type in std:loggp at P = 65536),
	// and kept once while every processor has the first's (1 MB less for
	// std:loggp at P = 65536; costs reads them at min(p, len - 1)).
	a.sendOverhead, a.recvOverhead = make([]ps, 1), make([]ps, 1)
	var last *eval.NodeType
	var so, ro ps
	for i := 0; i < P; i++ {
		if nt := a.topo.NodeType(g.Proc(i)); nt != last || i == 0 {
			last, so, ro = nt, overhead(nt, "send_overhead"), overhead(nt, "recv_overhead")
		}
		if i == 0 {
			a.sendOverhead[0], a.recvOverhead[0] = so, ro
			continue
		}
		if len(a.sendOverhead) == 1 && (so != a.sendOverhead[0] || ro != a.recvOverhead[0]) {
			// The first processor whose overheads differ: every one's kept.
			a.sendOverhead = slices.Repeat(a.sendOverhead, P)
			a.recvOverhead = slices.Repeat(a.recvOverhead, P)
		}
		if len(a.sendOverhead) > 1 {
			a.sendOverhead[i], a.recvOverhead[i] = so, ro
		}
	}
	return nil
}

// overhead is a processor type's time field name, 0 when it has none.
func overhead(nt *eval.NodeType, name string) ps {
	if v, ok := nt.Value(name); ok && v.Kind == lang.Number && v.Dim == lang.TimeDim {
		t, _ := toPS(v.Num)
		return t
	}
	return 0
}

// checkUnits refuses an operation on a CPU or NIC its rank's processor
// does not have, as the simulation does: a processor that states cpus or
// nics (itself or in its nic block) has that many, one that states
// neither as many as the schedule names (LogGOPSim's count).
func (a *analysis) checkUnits() error {
	g := a.topo.Graph
	count := func(nt *eval.NodeType, field string, used int) int {
		if v, ok := nt.Value(field); ok && v.Kind == lang.Number && v.Num >= 1 {
			return int(min(v.Num, float64(runtime.MaxUnits)))
		}
		return used
	}
	var last *eval.NodeType
	var cpus, nics int
	for r := 0; r < a.s.Ranks; r++ {
		if nt := a.topo.NodeType(g.Proc(int(a.proc[r]))); nt != last || r == 0 {
			last, cpus, nics = nt, count(nt, "cpus", a.ncpu), count(nt, "nics", a.nnic)
		}
		if cpus == a.ncpu && nics == a.nnic {
			continue
		}
		for i := a.s.RankStart[r]; i < a.s.RankStart[r+1]; i++ {
			op := &a.s.Ops[i]
			if int(op.CPU) >= cpus {
				return fmt.Errorf("operation %s of rank %d runs on CPU %d, but its processor has %d (its cpus)", a.s.LabelOf(int(i)), r, op.CPU, cpus)
			}
			if op.Kind == lang.OpSend && int(op.NIC) >= nics {
				return fmt.Errorf("operation %s of rank %d sends on NIC %d, but its processor has %d (its nics)", a.s.LabelOf(int(i)), r, op.NIC, nics)
			}
		}
	}
	return nil
}

// call evaluates a cost function that must give a time.
func (a *analysis) call(f *eval.Func, name string, args ...lang.Value) (ps, error) {
	v, err := f.Call(args...)
	if err != nil {
		return 0, err
	}
	if v.Kind != lang.Number || v.Dim != lang.TimeDim {
		return 0, fmt.Errorf("%s.%s must give a time, not a %s (%v)", a.model, name, v.TypeName(), v)
	}
	t, ok := toPS(v.Num)
	if !(v.Num >= 0) || !ok {
		return 0, fmt.Errorf("%s.%s gives %v, not a time from 0 to %v", a.model, name, v, lang.Quantity(seconds(maxPS), lang.TimeDim))
	}
	return t, nil
}

// costs returns what a message of n bytes costs its sender's and its
// receiver's CPUs and their NICs (the processor overheads when the model
// has no function; they are per processor, so not cached).
func (a *analysis) costs(n int64, sp, dp int32) (sizeCosts, error) {
	// A schedule uses a few sizes many times: the last ones are held by a
	// hash of the size, before the map (a lookup per message).
	slot := &a.recent[uint64(n)*0x9E3779B97F4A7C15>>(64-recentCosts)]
	c, ok := slot.c, slot.ok && slot.n == n
	if !ok {
		c, ok = a.byN[n]
	}
	if !ok {
		size := lang.Quantity(float64(n), lang.SizeDim)
		var err error
		if a.sendCPU != nil {
			if c.sendCPU, err = a.call(a.sendCPU, "send_cpu", size); err != nil {
				return c, err
			}
		}
		if a.recvCPU != nil {
			if c.recvCPU, err = a.call(a.recvCPU, "recv_cpu", size); err != nil {
				return c, err
			}
		}
		if a.gapF != nil {
			if c.gap, err = a.call(a.gapF, "gap", size); err != nil {
				return c, err
			}
		}
		if len(a.byN) < maxCostCache {
			a.byN[n] = c
		}
	}
	*slot = recentCost{n: n, c: c, ok: true}
	if a.sendCPU == nil {
		c.sendCPU = a.sendOverhead[min(int(sp), len(a.sendOverhead)-1)]
	}
	if a.recvCPU == nil {
		c.recvCPU = a.recvOverhead[min(int(dp), len(a.recvOverhead)-1)]
	}
	return c, nil
}

// latency is the time from the end of the sender's CPU time to the
// message's arrival.
func (a *analysis) latency(n int64, src, dst int32, c sizeCosts) (ps, error) {
	k := latKey{n: n}
	if a.latBySrc {
		k.src = int32(a.rank[src].node)
	}
	if a.latByDst {
		k.dst = int32(a.rank[dst].node)
	}
	if a.latLastOK && a.latLast == k {
		return a.latLastV, nil
	}
	if v, ok := a.lat[k]; ok {
		a.latLast, a.latLastV, a.latLastOK = k, v, true
		return v, nil
	}
	a.args[0] = lang.Quantity(float64(n), lang.SizeDim)
	a.args[1] = lang.Num(float64(a.rank[src].node))
	a.args[2] = lang.Num(float64(a.rank[dst].node))
	var v ps
	if a.latF != nil {
		r, err := a.latF.Call(a.args[:]...)
		if err != nil {
			return 0, err
		}
		var ok bool
		if v, ok = toPS(r.Num); r.Kind != lang.Number || r.Dim != lang.TimeDim || !ok {
			return 0, fmt.Errorf("%s.latency must give a finite time, not %v", a.model, r)
		}
	} else {
		total, err := a.call(a.sendF, "send", a.args[:]...)
		if err != nil {
			return 0, err
		}
		v = total - c.sendCPU - c.recvCPU
	}
	if v < -c.sendCPU {
		return 0, fmt.Errorf("%s.latency(%v, %d, %d) is %v: the message would arrive before it was sent", a.model, a.args[0], a.rank[src].node, a.rank[dst].node, lang.Quantity(seconds(v), lang.TimeDim))
	}
	if len(a.lat) < maxCostCache {
		a.lat[k] = v
	}
	a.latLast, a.latLastV, a.latLastOK = k, v, true
	return v, nil
}

func (a *analysis) push(t ps, op int32, kind uint8) {
	a.events.push(anEvent{t: t, seq: a.seq, op: op, kind: kind})
	a.seq++
}

// rankOf is the rank whose operation op is. Ranks own consecutive
// operations (Schedule.RankStart), so from the rank of every
// 2^rankShift-th operation it is at most maxRankSteps steps along
// RankStart (setRanks).
func (a *analysis) rankOf(op int32) int32 {
	r := a.rankAt[op>>a.rankShift]
	for a.s.RankStart[r+1] <= op {
		r++
	}
	return r
}

// maxRankSteps bounds rankOf's steps: the ranks a block of the table may
// span, empty ranks among them.
const maxRankSteps = 8

// setRanks makes the table rankOf reads: blocks of about a rank's
// operations (at most two entries a rank), smaller where a block would
// span more than maxRankSteps ranks (down to an entry an operation).
func (a *analysis) setRanks() {
	s, n := a.s, len(a.s.Ops)
	k := uint(0)
	for n>>(k+1) >= s.Ranks && k < 30 {
		k++
	}
	for ; ; k-- {
		a.rankShift = k
		a.rankAt = make([]int32, (n-1)>>k+1)
		r, last, most := int32(0), int32(0), int32(0)
		for b := range a.rankAt {
			op := int32(b << k)
			for s.RankStart[r+1] <= op {
				r++
			}
			a.rankAt[b] = r
			if b > 0 {
				most = max(most, r-last)
			}
			last = r
		}
		for s.RankStart[r+1] <= int32(n-1) {
			r++
		}
		if max(most, r-last) <= maxRankSteps || k == 0 {
			return
		}
	}
}

func (a *analysis) cpu(op int32) int { return a.cpuOn(int(a.rankOf(op)), op) }

// cpuOn is cpu for op of rank r, known.
func (a *analysis) cpuOn(r int, op int32) int {
	return int(a.proc[r])*a.ncpu + int(a.s.Ops[op].CPU)
}

// nicOn is the NIC a send of rank r uses: GOAL's nic N of its rank's
// processor.
func (a *analysis) nicOn(r int, op int32) int {
	return int(a.proc[r])*a.nnic + int(a.s.Ops[op].NIC)
}

func (a *analysis) run(ctx context.Context) error {
	s := a.s
	if err := a.runRoots(ctx); err != nil {
		return err
	}
	for a.events.n > 0 {
		if a.nEvents&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e := a.events.pop()
		if e.kind == evWake && !a.live(e) {
			continue
		}
		a.nEvents++
		if e.kind == evLeave || e.kind == evReady && s.Ops[e.op].Kind == lang.OpUntil {
			a.occupiers--
		}
		if e.t > maxPS {
			return a.tooLong()
		}
		a.now = e.t
		var err error
		switch e.kind {
		case evReady:
			err = a.startOp(e)
		case evArrive:
			err = a.arrive(e)
		case evLeave:
			err = a.leave(e)
		case evWake:
			err = a.wakeList(e.op)
		}
		if err != nil {
			return err
		}
		if len(a.ready) > 0 {
			a.schedule()
		}
	}
	for i := range a.rank {
		if a.rank[i].end > maxPS {
			return a.tooLong()
		}
	}
	return nil
}

// runRoots starts the operations that depend on nothing, as events
// due at 0 in the order schedule gives them (by rank, then kindOrder,
// then index), without queuing them: an event queued while they start
// is due at 0 or later and comes after them all (its seq is larger), so
// they are exactly the queue's first events. Queued, they took an event
// each (24 B) and a place in the ready list at once: 2.4 MB for a
// 4,096-rank recursive-doubling allreduce, whose every send and receive
// is one.
func (a *analysis) runRoots(ctx context.Context) error {
	s := a.s
	var roots []int32
	n := uint64(0)
	for i := range s.Ops {
		if s.DepStart[i+1] == s.DepStart[i] {
			n++
			if s.Ops[i].Kind == lang.OpUntil {
				a.occupiers++ // as schedule counts a queued until
			}
		}
	}
	seq := a.seq
	a.seq += n
	for r := 0; r < s.Ranks; r++ {
		roots = roots[:0]
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			if s.DepStart[i+1] == s.DepStart[i] {
				roots = append(roots, i)
			}
		}
		slices.SortStableFunc(roots, func(x, y int32) int {
			return int(kindOrder[s.Ops[x].Kind]) - int(kindOrder[s.Ops[y].Kind])
		})
		for _, op := range roots {
			if a.nEvents&0xffff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			a.nEvents++
			if s.Ops[op].Kind == lang.OpUntil {
				a.occupiers--
			}
			a.now = 0
			if err := a.startOp(anEvent{seq: seq, op: op, kind: evReady}); err != nil {
				return err
			}
			seq++
			if len(a.ready) > 0 {
				a.schedule()
			}
		}
	}
	return nil
}

func (a *analysis) tooLong() error {
	return fmt.Errorf("%s runs past %v, the longest time the analysis represents (%s)", a.s.Name, lang.Quantity(seconds(maxPS), lang.TimeDim), whyMaxPS)
}

// whyMaxPS says where the analysis's longest time comes from.
const whyMaxPS = "about 26.7 days: times are whole picoseconds in 64-bit integers, so that sums are exact, with room to add costs to any of them; run --simulate has no such limit"

// computeTooLong is the error for a compute operation longer than the
// analysis represents: at its statement, when the schedule says where
// that is (a program's), else at its line (a GOAL schedule's).
func (a *analysis) computeTooLong(op int32, rank int) error {
	return a.tooLate(op, fmt.Sprintf("computes for %v on rank %d", lang.Quantity(a.s.Ops[op].Time, lang.TimeDim), rank))
}

// untilTooLate is the error for until(T) with a finite T past the longest
// time the analysis represents: an error as compute's, not a wait that
// never ends (only an infinite T, or NaN, is never).
func (a *analysis) untilTooLate(op int32, rank int, t float64) error {
	return a.tooLate(op, fmt.Sprintf("waits until %v on rank %d", lang.Quantity(t, lang.TimeDim), rank))
}

// tooLate is the error for operation op, which does what (a phrase) to a
// time beyond the longest the analysis represents.
func (a *analysis) tooLate(op int32, what string) error {
	s := a.s
	o := &s.Ops[op]
	what = fmt.Sprintf("%s, beyond %v, the longest time the analysis represents (%s)",
		what, lang.Quantity(seconds(maxPS), lang.TimeDim), whyMaxPS)
	if l := o.Label; l >= 0 && int(l) < len(s.LabelPos) && s.LabelPos[l].IsValid() {
		return lang.Errorf(s.LabelPos[l], "%s %s", s.LabelOf(int(op)), what)
	}
	return fmt.Errorf("%s: operation %s (line %d) %s", s.Name, s.LabelOf(int(op)), o.Line, what)
}

// kindOrder is the order in which operations made ready together are
// scheduled, as LogGOPSim's type numbers sort them.
var kindOrder = [...]uint8{lang.OpCalc: 2, lang.OpSend: 0, lang.OpRecv: 1, lang.OpColl: 3, lang.OpNow: 2, lang.OpUntil: 2, lang.OpSet: 2}

// schedule queues the operations the last event made ready, at the time
// their resources are free.
func (a *analysis) schedule() {
	s := a.s
	if len(a.ready) > 1 {
		// Ranks own consecutive operation indexes, so ordering by index
		// within a kind orders by rank first when the rank leads.
		slices.SortFunc(a.ready, func(x, y int32) int {
			rx, ry := a.rankOf(x), a.rankOf(y)
			if rx != ry {
				return int(rx - ry)
			}
			kx, ky := kindOrder[s.Ops[x].Kind], kindOrder[s.Ops[y].Kind]
			if kx != ky {
				return int(kx) - int(ky)
			}
			return int(x - y)
		})
	}
	for _, op := range a.ready {
		r := int(a.rankOf(op))
		c := a.cpuOn(r, op)
		// Never before its prerequisites: with one CPU, the CPU is never
		// free before they are (and LogGOPSim starts it when the CPU is
		// free), but a calc on another CPU can ready it.
		t := max(a.nexto[c], a.now, a.ops[op].start)
		if s.Ops[op].Kind == lang.OpSend {
			t = max(t, a.nextgs[a.nicOn(r, op)])
		}
		if s.Ops[op].Kind == lang.OpUntil {
			a.occupiers++
		}
		a.push(t, op, evReady)
	}
	a.ready = a.ready[:0]
}

// started and done release the operations that irequire and require op.
func (a *analysis) started(op int32) { a.release(op, true) }
func (a *analysis) done(op int32, t ps) {
	a.ops[op].pending = opDone
	a.ops[op].finish = t
	r := int(a.rankOf(op))
	if t >= a.rank[r].end {
		a.rank[r].end = t
		a.lastOp[r] = op
	}
	a.release(op, false)
}

func (a *analysis) release(op int32, start bool) {
	at := a.ops[op].finish
	if start {
		at = a.ops[op].start
	}
	for _, v := range a.revDeps[a.revOff[op]:a.revOff[op+1]] {
		if (v < 0) != start {
			continue
		}
		j := v &^ math.MinInt32
		// Until j begins, its start is when it may: its last
		// prerequisite's end (or start, for irequires).
		a.ops[j].start = max(a.ops[j].start, at)
		a.ops[j].pending--
		if a.ops[j].pending == 0 {
			// j waited for op last.
			a.ops[j].why = op
			a.ready = append(a.ready, j)
		}
	}
}

// busy records a rank's CPU time for the timeline.
func (a *analysis) busy(r int, kind string, t0, t1 ps, op int32) {
	if a.timeline && t1 > t0 {
		i := int(op) - int(a.s.RankStart[r])
		if a.origin != nil {
			// For a trace: the operation as given, the collective for
			// the messages it was expanded into, as the simulation has it.
			i = a.origOp(op)
		}
		a.spans = append(a.spans, runtime.Span{Rank: r, Kind: kind, Start: seconds(t0), End: seconds(t1), Op: i})
	}
}

func (a *analysis) occupy(c int, t ps, op int32) {
	a.nexto[c] = t
	a.cpuOp[c] = op
}

func (a *analysis) startOp(e anEvent) error {
	s := a.s
	op := e.op
	o := &s.Ops[op]
	r := int(a.rankOf(op))
	c := a.cpuOn(r, op)
	if a.clk != nil {
		if done, err := a.clk.start(a, e); done || err != nil {
			return err
		}
	}
	switch o.Kind {
	case lang.OpCalc:
		if free, blocker := a.free(c, -1, waitCPU); free > e.t {
			a.wait(e, c, -1, waitCPU, free, blocker)
			return nil
		}
		d, ok := toPS(o.Time)
		if !ok || d < 0 {
			return a.computeTooLong(op, r)
		}
		a.begin(op, e.t)
		a.occupy(c, e.t+d, op)
		if o.CPU == 0 {
			a.rank[r].compute += d
			a.busy(r, "compute", e.t, e.t+d, op)
		}
		a.started(op)
		a.done(op, e.t+d)
	case lang.OpSend:
		p, g := a.proc[r], a.nicOn(r, op)
		if free, blocker := a.free(c, g, waitSend); free > e.t {
			a.wait(e, c, g, waitSend, free, blocker)
			return nil
		}
		if o.Peer < 0 || int(o.Peer) >= s.Ranks {
			return fmt.Errorf("%s: operation %s of rank %d sends to rank %d, which does not exist", s.Name, s.LabelOf(int(op)), r, o.Peer)
		}
		cost, err := a.costs(o.Bytes, p, a.proc[o.Peer])
		if err != nil {
			return err
		}
		lat, err := a.latency(o.Bytes, int32(r), o.Peer, cost)
		if err != nil {
			return err
		}
		a.begin(op, e.t)
		a.occupy(c, e.t+cost.sendCPU, op)
		a.nextgs[g], a.nicOp[g] = e.t+cost.gap, op
		if o.CPU == 0 {
			a.rank[r].send += cost.sendCPU
			a.busy(r, "send", e.t, e.t+cost.sendCPU, op)
		}
		a.ops[op].finish = e.t + cost.sendCPU
		if e.t+cost.sendCPU > a.rank[r].end {
			a.rank[r].end, a.lastOp[r] = e.t+cost.sendCPU, op
		}
		a.messages++
		a.push(e.t+cost.sendCPU+lat, op, evArrive)
		a.started(op)
		if float64(o.Bytes) <= a.eager {
			a.done(op, e.t+cost.sendCPU)
		}
	case lang.OpRecv:
		// Posting a receive costs nothing and waits for no CPU.
		a.begin(op, e.t)
		a.ops[op].finish = e.t
		a.started(op)
		if q := a.unexpected(r, false); q != nil {
			for i := int(q.head); i < len(q.e); i++ {
				m := &q.e[i]
				if m.dead || !matches(o.Peer, o.Tag, m.src, m.tag) {
					continue
				}
				send, from, at := m.op, m.from, m.at
				q.remove(i)
				a.match(op, send, from, max(e.t, at), e.t)
				return nil
			}
		}
		a.post(r, postEntry{op: op, src: o.Peer, tag: o.Tag})
	case lang.OpColl:
		a.enter(op, e.t)
	}
	return nil
}

// unexpected is rank r's unexpected queue, made if create is set; nil if
// it has none.
func (a *analysis) unexpected(r int, create bool) *fifo[msgEntry, *msgEntry] {
	return queueOf(a.uq, &a.uqs, r, create)
}

// queueOf is the queue of rank r, whose entry in at is how many entries
// it may hold before it is made and -1 - its index in qs after; made if
// create is set; nil if there is none.
func queueOf[E any, P queueEntry[E]](at []int32, qs *[]fifo[E, P], r int, create bool) *fifo[E, P] {
	k := at[r]
	if k >= 0 {
		if !create {
			return nil
		}
		*qs = append(*qs, fifo[E, P]{head: k})
		k = -int32(len(*qs))
		at[r] = k
	}
	return &(*qs)[-1-k]
}

// post queues receive p at rank r: in rqOne if nothing else is posted
// there, else at the end of its queue.
func (a *analysis) post(r int, p postEntry) {
	if a.rqOne[r].op < 0 {
		if q := queueOf(a.rqAt, &a.rqs, r, false); q == nil || int(q.head) >= len(q.e) {
			a.rqOne[r] = p
			return
		}
	}
	queueOf(a.rqAt, &a.rqs, r, true).push(p)
}

// takePosted removes and returns the first receive posted at rank d that
// accepts a message from src with tag; -1 if none. rqOne's, if any, was
// posted before every one in the queue (post).
func (a *analysis) takePosted(d int, src, tag int32) int32 {
	// A posted receive's entry holds its source and tag: its operation
	// need not be read.
	if p := &a.rqOne[d]; p.op >= 0 && matches(p.src, p.tag, src, tag) {
		recv := p.op
		p.op = -1
		return recv
	}
	if q := queueOf(a.rqAt, &a.rqs, d, false); q != nil {
		for i := int(q.head); i < len(q.e); i++ {
			if m := &q.e[i]; m.op >= 0 && matches(m.src, m.tag, src, tag) {
				recv := m.op
				q.remove(i)
				return recv
			}
		}
	}
	return -1
}

// matches reports whether a receive from peer with tag want accepts a
// message from src with tag.
func matches(peer, want, src, tag int32) bool {
	return (peer == lang.AnyRank || peer == src) && collective.TagMatches(want, tag)
}

func (a *analysis) begin(op int32, t ps) {
	a.ops[op].pending = opStarted
	a.ops[op].start = t
}

// arrive processes a message at its receiver: the receiver's CPU and NIC
// take it as soon as they are free, then it matches a posted receive or
// waits in the unexpected queue.
func (a *analysis) arrive(e anEvent) error {
	s := a.s
	send := e.op
	o := &s.Ops[send]
	src := int32(int(a.rankOf(send)))
	d := int(o.Peer)
	p := a.proc[d]
	// The message uses the CPU and NIC its send named, as LogGOPSim has
	// it.
	c, g := int(p)*a.ncpu+int(o.CPU), int(p)*a.nnic+int(o.NIC)
	if free, _ := a.free(c, g, waitArrive); free > e.t {
		a.wait(e, c, g, waitArrive, free, -1)
		return nil
	}
	cost, err := a.costs(o.Bytes, a.proc[src], p)
	if err != nil {
		return err
	}
	doneAt := e.t + cost.recvCPU
	a.occupy(c, doneAt, send)
	a.nextgr[g] = e.t + cost.gap
	if o.CPU == 0 {
		a.rank[d].recv += cost.recvCPU
	}
	if doneAt > a.rank[d].end {
		a.rank[d].end = doneAt
	}
	if recv := a.takePosted(d, src, o.Tag); recv >= 0 {
		if o.CPU == 0 {
			a.busy(d, "recv", e.t, doneAt, recv)
		}
		a.match(recv, send, e.t, doneAt, e.t)
		return nil
	}
	if o.CPU == 0 {
		a.busy(d, "recv", e.t, doneAt, -1)
	}
	a.unexpected(d, true).push(msgEntry{op: send, src: src, tag: o.Tag, from: e.t, at: doneAt})
	return nil
}

// match completes receive recv with the message of send: the receive at
// doneAt (when the receiver's CPU, which took the message at from, is
// done with it; the receive counts as started then), and a
// rendezvous send at now, the time of the match, its CPU and NIC held
// until then (as LogGOPSim does, with no time for an acknowledgement).
func (a *analysis) match(recv, send int32, from, doneAt, now ps) {
	if a.clk != nil {
		a.clk.received(a, recv, send)
	}
	if a.ops[send].pending != opDone {
		r := int(a.rankOf(send))
		c, g := a.cpuOn(r, send), a.nicOn(r, send)
		if a.nexto[c] < now {
			a.occupy(c, now, send)
		}
		if a.nextgs[g] < now {
			a.nextgs[g] = now
		}
		a.done(send, now)
	}
	if a.flows {
		a.flowsTo = append(a.flowsTo, runtime.Flow{From: int(a.rankOf(send)), FromOp: a.origOp(send), To: int(a.rankOf(recv)), ToOp: a.origOp(recv),
			Bytes: a.s.Ops[send].Bytes, Sent: seconds(a.ops[send].start), Received: seconds(from)})
	}
	if from > a.ops[recv].start {
		a.ops[recv].start = from
		a.ops[recv].why = send
	}
	a.done(recv, doneAt)
}

// enter is a rank reaching a collective costed as a whole; the last to
// arrive releases everyone at the latest entry plus the cost.
func (a *analysis) enter(op int32, t ps) {
	a.begin(op, t)
	a.started(op)
	ci := a.s.Ops[op].Peer
	a.collIn[ci] = append(a.collIn[ci], op)
	a.collEntry[ci] = max(a.collEntry[ci], t)
	if len(a.collIn[ci]) == int(a.s.Colls[ci].Ranks) {
		a.occupiers++
		a.push(a.collEntry[ci], op, evLeave)
	}
}

func (a *analysis) leave(e anEvent) error {
	s := a.s
	ci := s.Ops[e.op].Peer
	c := s.Colls[ci]
	f := a.collF[ci]
	var args []lang.Value
	for _, p := range f.Params() {
		switch p {
		case "n":
			args = append(args, lang.Quantity(float64(c.Bytes), lang.SizeDim))
		case "p":
			args = append(args, lang.Num(float64(c.Ranks)))
		case "root":
			args = append(args, lang.Num(float64(c.Root)))
		}
	}
	cost, err := a.call(f, c.Name, args...)
	if err != nil {
		return err
	}
	last := e.op
	for _, op := range a.collIn[ci] {
		if a.ops[op].start == a.collEntry[ci] {
			last = op
		}
	}
	for _, op := range a.collIn[ci] {
		r := int(a.rankOf(op))
		end := e.t + cost
		if a.flows {
			a.regions = append(a.regions, runtime.Region{Rank: r, Op: a.origOp(op), Name: c.Name, Start: seconds(a.ops[op].start), End: seconds(end)})
		}
		a.occupy(a.cpuOn(r, op), end, op)
		a.rank[r].send += cost
		a.busy(r, "send", e.t, end, op)
		if op != last {
			// It waited for the last to enter; the collective begins then.
			a.ops[op].why = last
			a.ops[op].start = e.t
		}
		a.done(op, end)
	}
	a.collIn[ci] = nil
	return nil
}

func (a *analysis) result() (*runtime.ProgramResult, error) {
	s := a.s
	// The sums become the answer's seconds in place: each rank's read
	// whole before its seconds are written over them.
	res := &runtime.ProgramResult{Method: "analytic", Messages: a.messages, Ranks: unsafe.Slice((*runtime.RankTimes)(unsafe.Pointer(unsafe.SliceData(a.rank))), len(a.rank))}
	last, lastEnd := -1, ps(0)
	for r := 0; r < s.Ranks; r++ {
		t := a.rank[r]
		busy := t.compute + t.send + t.recv
		res.Ranks[r] = runtime.RankTimes{Rank: t.rank, Node: t.node, End: seconds(t.end), Compute: seconds(t.compute), Send: seconds(t.send), Recv: seconds(t.recv), Wait: seconds(max(0, t.end-busy))}
		if last < 0 || t.end > lastEnd {
			last, lastEnd = r, t.end
		}
		res.Makespan = max(res.Makespan, seconds(t.end))
	}
	a.rank = nil // seconds now
	res.Deadlock = a.deadlock()
	if a.clk != nil {
		a.clk.fill(a, res)
	}
	if last >= 0 {
		var err error
		if res.CriticalPath, err = a.criticalPath(a.lastOp[last]); err != nil {
			return nil, err
		}
	}
	if a.timeline {
		res.Timeline = runtime.WithWaits(a.spans, res.Ranks)
	}
	if a.flows {
		res.Flows = a.flowsTo
		res.Regions = append(a.regions, a.expandedRegions()...)
	}
	return res, nil
}

// origOp is operation op's index among its rank's operations in the
// schedule as given, before collectives were expanded.
func (a *analysis) origOp(op int32) int {
	g := op
	if a.origin != nil {
		g = a.origin[op]
	}
	return int(g - a.orig.RankStart[a.orig.RankOf(int(g))])
}

// expandedRegions is each rank's time in each collective that was
// expanded into messages: from the first start to the last end of the
// operations it became.
func (a *analysis) expandedRegions() []runtime.Region {
	var out []runtime.Region
	at := map[int32]int{} // original collective op -> index in out
	for i, g := range a.origin {
		o := &a.orig.Ops[g]
		st := &a.ops[i]
		if o.Kind != lang.OpColl || st.pending >= 0 {
			continue
		}
		end := st.start
		if st.pending == opDone {
			end = max(st.finish, st.start)
		}
		k, ok := at[g]
		if !ok {
			at[g] = len(out)
			r := a.orig.RankOf(int(g))
			out = append(out, runtime.Region{Rank: r, Op: int(g - a.orig.RankStart[r]), Name: a.orig.Colls[o.Peer].Name, Start: seconds(st.start), End: seconds(end)})
			continue
		}
		rg := &out[k]
		rg.Start, rg.End = min(rg.Start, seconds(st.start)), max(rg.End, seconds(end))
	}
	return out
}

// deadlock lists the ranks with operations that never completed: each
// with a receive still posted, else a send never matched, else its first
// operation that never started.
func (a *analysis) deadlock() *runtime.ProgramDeadlock {
	s := a.s
	var d runtime.ProgramDeadlock
	for r := 0; r < s.Ranks; r++ {
		stuck := int32(-1)
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			if a.ops[i].pending == opDone {
				continue
			}
			if stuck < 0 {
				stuck = i
			}
			if k := s.Ops[i].Kind; a.ops[i].pending == opStarted && (k == lang.OpRecv || k == lang.OpSend) {
				stuck = i
				break
			}
		}
		if stuck < 0 {
			continue
		}
		o := s.Ops[stuck]
		peer := -1
		switch o.Kind {
		case lang.OpRecv, lang.OpSend:
			peer = int(o.Peer)
		}
		d.Waiting = append(d.Waiting, runtime.WaitingRank{Rank: r, Op: int(stuck - s.RankStart[r]), Label: s.LabelOf(int(stuck)), Line: int(o.Line), Peer: peer})
	}
	if len(d.Waiting) == 0 {
		return nil
	}
	return &d
}

// postedAfter returns the prerequisite of receive recv released last no
// later than t, when recv was posted; -1 for none.
func (a *analysis) postedAfter(recv int32, t ps) int32 {
	best, at := int32(-1), ps(-1)
	for _, d := range a.s.DepsOf(int(recv)) {
		when := a.ops[d.Op].finish
		if d.Start {
			when = a.ops[d.Op].start
		}
		if when <= t && when >= at {
			best, at = d.Op, when
		}
	}
	return best
}

// criticalPath walks back from op through what each operation waited for
// last: a dependency, the message a receive matched, or the operation
// that held the CPU or NIC it needed.
func (a *analysis) criticalPath(last int32) ([]runtime.PathStep, error) {
	s := a.s
	n := 0
	a.walkPath(last, func(int32) { n++ })
	// The path may run through every operation: its memory is counted
	// before it is made, with what the analysis already holds.
	need := limits.Add(a.held, limits.Mul(int64(n), int64(unsafe.Sizeof(runtime.PathStep{}))))
	if err := limits.Check(fmt.Sprintf("the critical path of %s (%d steps)", s.Name, n), need, a.m.MaxMemory()); err != nil {
		return nil, err
	}
	path := make([]runtime.PathStep, 0, n)
	a.walkPath(last, func(op int32) {
		r := int(a.rankOf(op))
		o := &s.Ops[op]
		path = append(path, runtime.PathStep{Rank: r, Op: int(op - s.RankStart[r]), Kind: o.Kind.String(), Label: s.LabelOf(int(op)), Line: int(o.Line), Start: seconds(a.ops[op].start), End: seconds(a.ops[op].finish)})
	})
	slices.Reverse(path)
	return path, nil
}

// walkPath visits the critical path from op back to its start.
func (a *analysis) walkPath(op int32, visit func(op int32)) {
	s := a.s
	for n := 0; op >= 0 && n <= len(s.Ops); n++ {
		if a.ops[op].pending >= 0 {
			break
		}
		visit(op)
		next := a.ops[op].why
		if next >= 0 && a.ops[next].start > a.ops[op].finish {
			if s.Ops[next].Kind != lang.OpRecv {
				break // an operation that began later cannot have held this one back
			}
			// A receive posted early released op (an irequires), and its
			// start then moved to its message's arrival: what held op
			// back is what held the posting back.
			next = a.postedAfter(next, a.ops[op].start)
		}
		op = next
	}
}
