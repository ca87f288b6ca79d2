package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Open-loop traffic (Offered): every processor generates messages at an
// offered load instead of sending one burst, as an interconnect simulator
// such as BookSim draws a load–latency curve.
//
// A processor's injection bandwidth is the fastest of its links (with
// nic = true, its one link to its router); an offered load F makes it
// generate messages of Options.Size bytes at F times that bandwidth, the
// bytes counted as they go on the wire (every packet's header and trailer
// included), by a Bernoulli process (in each cycle, the time one flit takes
// at the injection bandwidth, a message with probability F·flit/wire
// bytes, as BookSim's injection_process = bernoulli) or a Poisson one
// (exponential gaps of the same mean). Messages wait at their source
// without limit, and their latency runs from generation, so source
// queueing counts as BookSim counts it.
//
// A run has three phases. Warm-up: windows of 1000 cycles (BookSim's
// sample_period) until a window's mean latency and accepted load both
// differ from the previous window's by at most 5% of their value
// (BookSim's warmup_thres and acc_warmup_thres), after at least two
// windows and at most MaxWarmupWindows, or until OverloadWindows windows
// in a row (from the second) have accepted more than SaturationTolerance
// less than was generated in them. Measurement: three windows (the fewest
// BookSim measures); messages generated then are marked. Drain: generation
// goes on until every marked message has been delivered, or for at most
// DrainWindows windows; a point that accepted less than
// SaturationTolerance short of what it generated during measurement is not
// drained. Latency statistics are over marked messages; those not
// delivered count at their age when the run stopped (a lower bound). The
// point is saturated when the load accepted during measurement falls short
// of the load generated then by more than SaturationTolerance (and by more
// than its noise, fallsShort), or when marked messages did not drain.

// Process is the arrival process of open-loop sources.
type Process uint8

const (
	Bernoulli Process = iota // one chance per cycle, as BookSim's default
	Poisson                  // exponential gaps between messages
)

var processNames = [...]string{"bernoulli", "poisson"}

func (p Process) String() string {
	if int(p) < len(processNames) {
		return processNames[p]
	}
	return fmt.Sprintf("Process(%d)", p)
}

// ParseProcess accepts bernoulli and poisson.
func ParseProcess(s string) (Process, error) {
	for i, n := range processNames {
		if strings.EqualFold(s, n) {
			return Process(i), nil
		}
	}
	return 0, fmt.Errorf("unknown process %q (want bernoulli or poisson)", s)
}

// Phase lengths and saturation criteria of Offered, in windows of
// WindowCycles cycles.
const (
	WindowCycles        = 1000 // BookSim's sample_period
	MaxWarmupWindows    = 20   // warm-up that has not settled by then ends unsettled (Settled false)
	MeasureWindows      = 3
	DrainWindows        = 10
	OverloadWindows     = 3    // warm-up windows in a row accepting short of what was generated end warm-up as saturated
	SettleTolerance     = 0.05 // successive windows' latency and accepted load agree within this share
	SaturationTolerance = 0.05 // accepted may fall this share short of offered before the point is saturated
)

// patternOps are the operations Offered takes: those in which every
// processor picks a destination for each message by itself.
var patternOps = []string{"uniform", "randperm", "shuffle", "transpose", "xmp-transpose", "bitcomp", "bitrev", "neighbor", "tornado", "hotspot", advOp}

// ListOp is the Op of a user's traffic pattern, Load.List.
const ListOp = "list"

// ListedMessage is one message of a user's traffic pattern: the rank it
// goes to and its size in bytes.
type ListedMessage struct {
	Dst   int
	Bytes int64
}

// MessageList is a user's traffic pattern: rank r generates the messages
// List[r] names, in turn, from the first again after the last; ranks are
// processors in rank order, and a rank without messages (or with only
// messages to itself) generates nothing.
type MessageList [][]ListedMessage

// MessageListOf takes a schedule's sends — a message trace, a GOAL
// schedule, a program instantiated for its ranks — as a traffic pattern,
// each rank's in schedule order; receives, computation and the order
// between ranks are left out.
func MessageListOf(sc *lang.Schedule) MessageList {
	out := make(MessageList, sc.Ranks)
	for r := range sc.Ranks {
		for _, op := range sc.Ops[sc.RankStart[r]:sc.RankStart[r+1]] {
			if op.Kind == lang.OpSend {
				out[r] = append(out[r], ListedMessage{Dst: int(op.Peer), Bytes: op.Bytes})
			}
		}
	}
	return out
}

// Load is one point of an open-loop experiment.
type Load struct {
	// Fraction is the offered load per processor, a share of its
	// injection bandwidth in (0, MaxOverload]; if 0, Rate gives it in
	// bytes per second (at most MaxOverload times the injection
	// bandwidth). Above 1 a processor generates more than it can inject
	// and its queue grows, as BookSim accepts injection rates above one
	// flit a cycle; under Bernoulli at most one message a flit cycle.
	Fraction float64
	Rate     float64
	Process  Process
	// Self lets uniform traffic address a message to its own source
	// (1 in P), as BookSim's uniform does, and a permutation (transpose,
	// the bit permutations, randperm, neighbor, tornado) send the
	// messages of a processor it maps to itself, as BookSim's do (the
	// diagonal of transpose); the processors must hang off routers
	// (nic = true), through which such a message goes and comes back.
	Self bool
	// Warmup and Measure fix the phases' lengths in seconds; 0 means
	// warm-up until windows agree, and MeasureWindows windows.
	Warmup, Measure float64
	// List is the traffic pattern of Options.Op ListOp: the messages
	// each rank generates in turn, their sizes in place of Options.Size
	// (the offered load counts their mean size).
	List MessageList
}

// LoadResult is one point of a load–latency curve. Offered and Accepted
// are shares of the processors' total injection bandwidth, over the
// measurement phase: bytes generated, and bytes delivered. The embedded
// Result's latency statistics and histogram are over the marked messages,
// those not delivered at their age when the run stopped (so a lower
// bound, LatencyBound); its Messages, hops and ByHops are over the marked
// messages delivered; its Links (with Options.LinkLoads) over the
// measurement phase. An open-loop point measures no send times and no
// processor loads: those of the Result are 0.
type LoadResult struct {
	Load     float64 `json:"load"` // as asked, a share of the injection bandwidth
	Process  string  `json:"process"`
	Offered  float64 `json:"offered"`
	Accepted float64 `json:"accepted"`
	// AcceptedError is the most by which Accepted may exceed the load
	// the network carried during measurement: the bytes already generated
	// (queued at their sources or in flight) when measurement began, which
	// may be delivered within it, as a share of the injection bandwidth
	// over the measurement. Accepted ≤ Offered + AcceptedError always.
	AcceptedError float64 `json:"accepted_error"`
	Saturated     bool    `json:"saturated"`
	// LatencyBound is "lower" when the point saturated: its latencies
	// are lower bounds of a latency that grows with the run's length
	// (marked messages not delivered count at their age when it stopped);
	// "" (left out of JSON) when they are measured.
	LatencyBound string `json:"latency_bound,omitempty"`
	// Settled says warm-up ended because successive windows agreed (or
	// at the fixed Warmup); Drained that every marked message arrived.
	Settled bool `json:"settled"`
	Drained bool `json:"drained"`
	// Cycle is the time one flit takes at the injection bandwidth, the
	// unit of windows; Warmup and Measure the phases' lengths (seconds).
	Cycle   float64 `json:"cycle"`
	Warmup  float64 `json:"warmup"`
	Measure float64 `json:"measure"`
	Marked  int     `json:"marked"` // messages generated during measurement
	*Result
}

// Offered runs one open-loop point: opts.Op is a traffic pattern (uniform,
// randperm, shuffle, transpose, xmp-transpose, bitcomp, bitrev, neighbor,
// tornado, hotspot) or ListOp with load.List, opts.Size the message size;
// Runs is ignored (one long run; its seed is opts.Seed).
func Offered(ctx context.Context, spec *Spec, opts Options, load Load) (*LoadResult, error) {
	pts, err := OfferedCurve(ctx, spec, opts, []Load{load})
	if len(pts) == 0 {
		return nil, err
	}
	return pts[0], err
}

// OfferedCurve runs the points of a load–latency curve, spread over
// opts.Workers goroutines; point i's seed is derived from opts.Seed and
// its load, so a point gives the same answer alone or in any curve.
// Cancellation returns the points finished (nil for the others) with
// ctx.Err(). A panic in a worker is raised again in the caller's
// goroutine, as Simulate's is.
func OfferedCurve(ctx context.Context, spec *Spec, opts Options, loads []Load) ([]*LoadResult, error) {
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	list := opts.Op == ListOp
	if !isPattern(opts.Op) && !list {
		return nil, &OptionError{"Op", opts.Op, "offered load takes a traffic pattern: " + strings.Join(patternOps, ", ") + ", or a list of messages"}
	}
	for _, l := range loads {
		if err := l.check(); err != nil {
			return nil, err
		}
	}
	n, err := compile(spec, opts.Routing, opts.Switching, opts.MaxMemory)
	if err != nil {
		return nil, err
	}
	for _, l := range loads {
		if !l.Self {
			continue
		}
		if opts.Op == "hotspot" || opts.Op == advOp || list {
			return nil, &OptionError{"Self", opts.Op, "only uniform traffic and the permutations address messages to their source"}
		}
		if v := n.g.Proc(0); n.g.Attached(v) == v {
			return nil, &OptionError{"Self", "true", fmt.Sprintf("a message to itself needs processors behind routers (nic = true), to go through its own and back; processor %d is a router itself", n.g.ID(v))}
		}
	}
	topts := opts
	if list {
		topts.Op = "uniform" // the list's ranks are checked below
	}
	tr, err := n.traffic(&topts)
	if err != nil {
		return nil, err
	}
	if list {
		tr.op = ListOp
		for _, l := range loads {
			if err := n.checkList(l.List); err != nil {
				return nil, err
			}
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(loads)))
	need, err := n.checkBudget(tr, 1, workers, opts.MaxMemory)
	if err == nil && opts.LinkLoads {
		need, err = n.checkLinkLoadBudget(need, len(loads), len(loads), opts.MaxMemory)
	}
	if err != nil {
		return nil, err
	}
	guard := newGrowthGuard(n, tr, need, opts.MaxMemory, workers)
	out := make([]*LoadResult, len(loads))
	errs := make([]error, len(loads))
	n.onSims(ctx, &opts, guard, workers, len(loads), func(ctx context.Context, s *sim, i int) {
		if f := opts.PointProgress; f != nil {
			s.tick = func() { f(i, s.drv.(*openLoop).progress()) }
			defer func() { s.tick = nil; f(i, PointProgress{Done: true, Events: s.events}) }()
		}
		if opts.Trace {
			// The wires' busy intervals share what the point leaves.
			s.busy = newBusyLog(s.numWires(), max(limits.Or(opts.MaxMemory)-need, 0)/(8*busyIntervalBytes))
			defer func() { s.busy = nil }()
		}
		out[i], errs[i] = s.offered(ctx, tr, loads[i], loadSeed(opts.Seed, loads[i]), need)
		if opts.Trace && errs[i] == nil {
			// The point's messages are all still held: its trace copies them.
			if errs[i] = limits.Check(fmt.Sprintf("the trace of an open-loop point (%d messages)", len(s.msgs)),
				limits.Add(need, limits.Mul(int64(len(s.msgs)), messageBytes+partBytes+int64(unsafe.Sizeof(BurstMessage{})))), opts.MaxMemory); errs[i] == nil {
				out[i].Trace, errs[i] = s.burstTrace(nil)
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, ctx.Err()
}

func isPattern(op string) bool {
	for _, p := range patternOps {
		if p == op {
			return true
		}
	}
	return false
}

func (l Load) check() error {
	switch {
	case l.Fraction == 0 && l.Rate == 0:
		return &OptionError{"Load", "0", "an offered load must be above 0"}
	case l.Fraction != 0 && !(l.Fraction > 0 && l.Fraction <= MaxOverload):
		return &OptionError{"Load", fmt.Sprint(l.Fraction), fmt.Sprintf("a share of the injection bandwidth is from 0 (excluded) to %d", MaxOverload)}
	case l.Fraction == 0 && !(l.Rate > 0) || math.IsInf(l.Rate, 0):
		return &OptionError{"Load", fmt.Sprint(l.Rate), "a rate must be a finite number of bytes per second above 0"}
	case l.Process > Poisson:
		return &OptionError{"Process", l.Process.String(), "want bernoulli or poisson"}
	case !(l.Warmup >= 0) || !(l.Measure >= 0) || math.IsInf(l.Warmup, 0) || math.IsInf(l.Measure, 0):
		return &OptionError{"Warmup", fmt.Sprint(l.Warmup, l.Measure), "phase lengths are finite times ≥ 0"}
	}
	return nil
}

// String is the load as given: its share of the injection bandwidth, or
// its rate.
func (l Load) String() string {
	if l.Fraction != 0 {
		return fmt.Sprint(l.Fraction)
	}
	return lang.FormatQuantity(l.Rate, lang.RateDim)
}

// MaxOverload is the largest offered load, as a share of a processor's
// injection bandwidth: above 1 the sources' queues grow without bound,
// and a point that ran long at several times the bandwidth would only
// fill memory faster.
const MaxOverload = 4

// loadSeed derives a point's seed from the base seed and its load.
func loadSeed(seed uint64, l Load) uint64 {
	x := math.Float64bits(l.Fraction) ^ math.Float64bits(l.Rate)*0xbf58476d1ce4e5b9 ^ uint64(l.Process)<<61
	return topo.NewRand(seed ^ x*0x9e3779b97f4a7c15).Uint64()
}

// errStopRun ends sim.run once the driver has what it needs; offered
// clears it.
var errStopRun = errors.New("open-loop run complete")

type loadPhase uint8

const (
	warming loadPhase = iota
	measuring
	draining
)

// Driver event aux values.
const (
	drvGenerate int32 = iota // id = rank: its next message is due
	drvWindow                // a window ends
)

// loopCounts are what an open-loop point counts as messages are generated
// and delivered: a striped point's stripes count their own, folded into
// the point's (add) at each window's end.
type loopCounts struct {
	winLat            float64 // sum of latencies delivered in the window
	winN              int
	winBytes          int64
	winGen            int64 // bytes generated in the window
	nMarked           int   // messages generated during measurement (message.marked)
	genBytes, accByte int64 // measurement phase
	markedLeft        int
	hopSum            int64
	hopMax            int
	markedDone        int   // marked messages delivered
	inflight          int64 // wire bytes generated and not yet delivered
	byHops            hopAgg
}

// add adds the counts x into c.
func (c *loopCounts) add(x *loopCounts) {
	c.winLat += x.winLat
	c.winN += x.winN
	c.winBytes += x.winBytes
	c.winGen += x.winGen
	c.nMarked += x.nMarked
	c.genBytes += x.genBytes
	c.accByte += x.accByte
	c.markedLeft += x.markedLeft
	c.hopSum += x.hopSum
	c.hopMax = max(c.hopMax, x.hopMax)
	c.markedDone += x.markedDone
	c.inflight += x.inflight
	for _, b := range x.byHops {
		if b.Messages > 0 {
			c.byHops = c.byHops.add(b.Hops, b.Messages, b.Mean, b.Min, b.Max)
		}
	}
}

// openLoop is the driver of one open-loop point.
type openLoop struct {
	s     *sim
	tr    *traffic
	load  Load
	procs []int32   // rank -> node
	gap   []float64 // per rank: mean time between messages (Poisson), cycle (Bernoulli)
	prob  []float64 // per rank: Bernoulli chance per cycle
	logq  []float64 // per rank: log(1 − prob), which each draw divides by
	dest  []int32   // per rank: fixed destination node, -1 for uniform, listDest for its list
	list  MessageList
	next  []int32 // per rank: the list's next message
	wire  int64   // wire bytes of one message
	inj   float64 // total injection bandwidth of the processors

	phase            loadPhase
	window           float64
	windows          int // windows finished in this phase
	short            int // successive warm-up windows that accepted short of what was generated
	overloaded       bool
	prevLat, prevAcc float64
	settled          bool
	t0, t1           float64
	inflight0        int64 // inflight when measurement began
	maxMsgs          int
	loopCounts
	// spare holds the delivered messages, which carry the next ones
	// generated (sim.reuse): a point's records are those in flight or
	// queued, not every message it generated; nil while a trace will read
	// them all, or acknowledgements refer to them after delivery.
	spare  []int32
	reuse  bool
	wires0 []wireState // at the start of measurement, for per-link figures
	// striped: the point runs cut into stripes (kernel_stripes.go), each
	// with a copy of this driver that counts its own part of the sums
	// above, folded into this one at each window's end (stripeLoops);
	// due is then when the window ends, which no event marks.
	striped bool
	due     float64
}

// offered runs one point on s.
func (s *sim) offered(ctx context.Context, tr *traffic, l Load, seed uint64, need int64) (*LoadResult, error) {
	s.reset(seed)
	n := s.net
	g := n.g
	P := n.nprocs
	o := &openLoop{s: s, tr: tr, load: l, procs: make([]int32, P), gap: make([]float64, P), prob: make([]float64, P), logq: make([]float64, P), dest: make([]int32, P)}
	o.wire = tr.wireBytes(tr.size)
	if tr.op == ListOp {
		o.list, o.next = make(MessageList, P), make([]int32, P)
		var sum, cnt int64
		for r, ms := range l.List {
			for _, m := range ms {
				if m.Dst != r { // a message to oneself is not sent
					o.list[r] = append(o.list[r], m)
					sum += tr.wireBytes(m.Bytes)
					cnt++
				}
			}
		}
		if cnt == 0 {
			return nil, &OptionError{"Load", "list", "the list has no message from one processor to another"}
		}
		o.wire = max(sum/cnt, 1) // the mean, for what is in flight
	}
	flit := int64(max(n.spec.Packet.FlitBytes, 1))
	cycle := math.Inf(1)
	msgTime, msgRate := 0.0, 0.0 // one message's longest time on the wire; messages generated per second
	var perm []int
	switch {
	case tr.op == "randperm":
		perm = make([]int, P)
		for i := range perm {
			perm[i] = i
		}
		for i := P - 1; i > 0; i-- {
			j := s.rng.Intn(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	case isBitPerm(tr.op):
		var err error
		if perm, err = permutation(tr.op, P); err != nil {
			return nil, err
		}
	}
	for r := range P {
		v := g.Proc(r)
		o.procs[r] = v
		bw := 0.0
		for _, a := range g.Adj(v) {
			if k := g.Link(a.Link); !k.IO {
				bw = max(bw, n.linkP(a.Link).Bandwidth)
			}
		}
		if bw == 0 {
			return nil, fmt.Errorf("processor %d has no link to inject over", g.ID(v))
		}
		o.inj += bw
		rate := l.Fraction * bw // bytes per second
		if l.Fraction == 0 {
			if l.Rate > MaxOverload*bw {
				return nil, &OptionError{"Load", lang.FormatQuantity(l.Rate, lang.RateDim), fmt.Sprintf("processor %d injects at most %s; offered loads go up to %d times that", g.ID(v), lang.FormatQuantity(bw, lang.RateDim), MaxOverload)}
			}
			rate = l.Rate
		}
		wire := o.wire
		if tr.op == ListOp {
			wire = o.listWire(r)
		}
		c := float64(min(flit, wire)) / bw
		cycle = min(cycle, c)
		msgTime = max(msgTime, float64(wire)/bw)
		if o.dest[r] != o.procs[r] || tr.op != ListOp || len(o.list[r]) > 0 || l.Self {
			msgRate += rate / float64(wire)
		}
		mean := float64(wire) / rate // seconds between messages
		if l.Process == Bernoulli {
			o.gap[r], o.prob[r], o.logq[r] = c, c/mean, math.Log1p(-c/mean)
			if c/mean > 1+1e-9 {
				return nil, &OptionError{"Load", l.String(), fmt.Sprintf("a Bernoulli process makes at most one message a flit cycle, a load of %.4g here (%d-byte messages; --process poisson has no such bound)", float64(wire)/float64(min(flit, wire)), wire)}
			}
		} else {
			o.gap[r] = mean
		}
		switch {
		case tr.op == ListOp && len(o.list[r]) == 0:
			o.dest[r] = o.procs[r] // nothing to send
		case tr.op == ListOp:
			o.dest[r] = listDest
		case perm != nil:
			o.dest[r] = g.Proc(perm[r])
		case tr.op == "uniform":
			o.dest[r] = -1
		case tr.op == "hotspot":
			o.dest[r] = tr.dst
		case tr.op == advOp:
			if err := s.net.checkAdversarial(); err != nil {
				return nil, err
			}
			o.dest[r] = advDest
		default:
			o.dest[r] = g.Proc(s.pattern(tr.op, r))
		}
	}
	o.window = WindowCycles * cycle
	o.reuse = !s.opt.Trace && n.spec.Packet.Window == 0
	// Bound the messages held by what the memory limit leaves this worker
	// (every message of the point, unless they are reused).
	spare := max(limits.Or(s.opt.MaxMemory)-need, 0) / 4
	o.maxMsgs = int(min(spare/(messageBytes+partBytes+8), math.MaxInt32))
	if err := o.checkPhases(msgTime, msgRate, need); err != nil {
		return nil, err
	}
	s.drv = o
	defer func() { s.drv = nil }()
	if !s.fetchAhead {
		// Times are whole cycles (on a network of whole-cycle latencies)
		// a few hundred ahead, and few: a calendar of cycles beats the
		// time lists. A large network keeps the lists, which fetch ahead.
		s.q.useCalendar(cycle)
	}
	for r := range P {
		if (o.dest[r] != o.procs[r] || l.Self) && P > 1 {
			o.schedule(int32(r))
		}
	}
	o.startWindow()
	partial := s.run(ctx)
	if s.err == errStopRun {
		s.err = nil
	}
	if s.err != nil {
		return nil, s.err
	}
	if partial && ctx.Err() == nil {
		partial = false // the event limit: report what was measured
	}
	return o.result(partial), nil
}

// checkPhases refuses a fixed measurement too short to hold one message
// in each of its windows, and fixed phases that would generate more
// messages than the point may keep, before anything runs: msgTime is one
// message's longest time on the wire at the injection bandwidth, msgRate
// the messages generated per second over all processors, need what the
// network takes. Every message counts as kept, as under a trace; without
// one the records are reused (sim.reuse), but the marked messages'
// latencies are kept, and phases that long would not end.
func (o *openLoop) checkPhases(msgTime, msgRate float64, need int64) error {
	l := o.load
	if least := MeasureWindows * msgTime; l.Measure > 0 && l.Measure < least {
		return &OptionError{"Measure", lang.FormatQuantity(l.Measure, lang.TimeDim),
			fmt.Sprintf("the measurement is %d windows, each at least one message's time on the wire at the injection bandwidth (%s): at least %s",
				MeasureWindows, lang.FormatQuantity(msgTime, lang.TimeDim), lang.FormatQuantity(least, lang.TimeDim))}
	}
	// The fewest messages the phases generate: warm-up of two windows
	// unless fixed, the measurement, no drain.
	warm, meas := l.Warmup, l.Measure
	if warm == 0 {
		warm = 2 * o.window
	}
	if meas == 0 {
		meas = MeasureWindows * o.window
	}
	est := (warm + meas) * msgRate
	if est <= float64(o.maxMsgs) {
		return nil
	}
	per := messageBytes + partBytes + 8
	needB := int64(math.MaxInt64)
	if est*float64(per) < math.MaxInt64/8 {
		needB = limits.Add(need, 4*int64(est)*per)
	}
	return &limits.TooLarge{What: fmt.Sprintf("an open-loop point with %s of warm-up and %s of measurement (at least %.4g messages, kept until the point ends; a point may use a quarter of what the network leaves of the limit)",
		lang.FormatQuantity(warm, lang.TimeDim), lang.FormatQuantity(meas, lang.TimeDim), est), Need: needB, Limit: limits.Or(o.s.opt.MaxMemory)}
}

// wireBytes is what a message of size bytes puts on the wire: its payload
// and every packet's header and trailer.
func (tr *traffic) wireBytes(size int64) int64 {
	return size + tr.packets(size)*tr.hdrTail
}

// wireOf is tr.wireBytes(size) without its division where every message
// has the pattern's size (all but a list's).
func (o *openLoop) wireOf(size int64) int64 {
	if o.list == nil {
		return o.wire
	}
	return o.tr.wireBytes(size)
}

// schedule draws rank r's next generation time from now.
func (o *openLoop) schedule(r int32) {
	s := o.s
	var dt float64
	if o.load.Process == Poisson {
		dt = -math.Log(1-s.rng.Float64()) * o.gap[r]
	} else {
		// Cycles until the next success: geometric, at least one.
		p := o.prob[r]
		k := 1.0
		if p < 1 {
			k = 1 + math.Floor(math.Log(1-s.rng.Float64())/o.logq[r])
		}
		dt = k * o.gap[r]
	}
	s.push(s.now+dt, evDriver, r, drvGenerate)
}

func (o *openLoop) startWindow() {
	o.winLat, o.winN, o.winBytes, o.winGen = 0, 0, 0, 0
	end := o.s.now + o.window
	if o.phase == warming && o.load.Warmup > 0 {
		end = min(end, o.load.Warmup) // the last warm-up window ends exactly at Warmup
	}
	if o.striped {
		o.due = end
		return
	}
	o.s.push(end, evDriver, -1, drvWindow)
}

func (o *openLoop) wake(id, aux int32) {
	switch aux {
	case drvGenerate:
		o.generate(id)
	case drvWindow:
		o.endWindow()
	}
}

// generate makes rank r's message now and draws its next.
func (o *openLoop) generate(r int32) {
	s := o.s
	d := o.dest[r]
	size := o.tr.size
	if d == listDest {
		m := o.list[r][o.next[r]]
		o.next[r] = (o.next[r] + 1) % int32(len(o.list[r]))
		d, size = s.net.g.Proc(m.Dst), m.Bytes
	} else if d == advDest {
		d = s.net.g.Proc(s.adversarial(int(r)))
	} else if d < 0 && o.load.Self { // uniform, itself included
		d = o.procs[s.rng.Intn(len(o.procs))]
	} else if d < 0 { // uniform: any other processor
		P := len(o.procs)
		x := s.rng.Intn(P - 1)
		if x >= int(r) {
			x++
		}
		d = o.procs[x]
	}
	m := s.reuse(&o.spare, o.tr, o.procs[r], d, size)
	if m < 0 {
		if len(s.msgs) >= o.maxMsgs {
			s.err = &limits.TooLarge{What: fmt.Sprintf("an open-loop point (%d messages held)", len(s.msgs)), Need: limits.Mul(int64(len(s.msgs)), 2*(messageBytes+partBytes)), Limit: limits.Or(s.opt.MaxMemory)}
			return
		}
		m = s.newMsg(o.tr, o.procs[r], d, size)
	}
	w := o.wireOf(size)
	o.winGen += w
	o.inflight += w
	if o.phase == measuring {
		o.genBytes += w
		s.msgs[m].marked = true
		o.nMarked++
		o.markedLeft++
	}
	o.schedule(r)
	s.msgReady(m)
}

func (o *openLoop) endWindow() {
	s := o.s
	o.windows++
	switch o.phase {
	case warming:
		lat := o.winLat / float64(max(o.winN, 1))
		acc := float64(o.winBytes)
		// BookSim's criterion, strictly: near saturation a window's
		// latency is noisy and still rising, and a criterion that
		// allowed for the noise would end warm-up too soon. A small
		// network or a low load may then not settle; that costs windows,
		// not accuracy, and is no sign of saturation.
		settled := o.windows >= 2 && o.winN > 0 &&
			math.Abs(lat-o.prevLat) <= SettleTolerance*lat && math.Abs(acc-o.prevAcc) <= SettleTolerance*acc
		o.prevLat, o.prevAcc = lat, acc
		// The first window fills the network; after it, a network that
		// keeps accepting less than is offered is past saturation, and
		// no warm-up will settle it.
		if o.windows >= 2 && o.fallsShort(o.winBytes, o.winGen) {
			o.short++
		} else {
			o.short = 0
		}
		o.overloaded = o.short >= OverloadWindows
		fixed := o.load.Warmup > 0
		switch {
		case fixed && s.now < o.load.Warmup:
		case fixed || settled || o.overloaded || o.windows >= MaxWarmupWindows:
			o.settled = fixed || settled
			o.phase, o.windows = measuring, 0
			o.t0 = s.now
			o.inflight0 = o.inflight
			o.wires0 = make([]wireState, 0, s.numWires()) // (grown by appends, it took a quarter of a curve's allocations)
			for w := range s.numWires() {
				o.wires0 = append(o.wires0, *s.wire(w))
			}
			if o.load.Measure > 0 {
				o.window = o.load.Measure / MeasureWindows
			}
		}
	case measuring:
		if o.windows >= MeasureWindows {
			o.phase, o.windows = draining, 0
			o.t1 = s.now
			// Past saturation the marked messages would drain only as the
			// backlog ahead of them does: the point is saturated already.
			if o.markedLeft == 0 || o.fallsShort(o.accByte, o.genBytes) {
				s.err = errStopRun
				return
			}
		}
	case draining:
		if o.windows >= DrainWindows {
			s.err = errStopRun // marked messages still in flight
			return
		}
	}
	o.startWindow()
}

// PointProgress is how far an open-loop point has run: the simulated
// time reached and the time it is expected to run to, in seconds, and the
// events so far. Target is the end of measurement: while warm-up has no
// fixed length, the end of a measurement begun now (a lower bound); while
// draining, the longest the drain may last.
type PointProgress struct {
	Phase       string // "warm-up", "measurement", "drain"
	Now, Target float64
	Events      int64
	Done        bool // the point has ended (Now and Target are not set)
}

func (o *openLoop) progress() PointProgress {
	s := o.s
	p := PointProgress{Now: s.now, Events: s.events}
	measure := o.load.Measure
	if measure == 0 {
		measure = MeasureWindows * o.window
	}
	switch o.phase {
	case warming:
		p.Phase, p.Target = "warm-up", s.now+measure
		if o.load.Warmup > 0 {
			p.Target = o.load.Warmup + measure
		}
	case measuring:
		p.Phase, p.Target = "measurement", o.t0+MeasureWindows*o.window
	default:
		p.Phase, p.Target = "drain", o.t1+DrainWindows*o.window
	}
	return p
}

// fallsShort tells whether acc bytes accepted fall short of gen bytes
// generated over the same time by more than SaturationTolerance of them
// and by more than the messages in flight can vary by (twice the square
// root of the messages generated), so that a few messages still on their
// way at a window's end do not make a small network look saturated.
func (o *openLoop) fallsShort(acc, gen int64) bool {
	d := float64(gen - acc)
	return d > SaturationTolerance*float64(gen) && d > 2*math.Sqrt(float64(gen/o.wire))*float64(o.wire)
}

func (o *openLoop) delivered(m int32) {
	s := o.s
	msg := &s.msgs[m]
	o.winLat += msg.lat
	o.winN++
	w := o.wireOf(msg.size)
	o.winBytes += w
	o.inflight -= w
	if o.phase == measuring {
		o.accByte += w
	}
	if o.reuse {
		o.spare = append(o.spare, m) // read below, refilled later
	}
	if !msg.marked {
		return
	}
	lat := roundTime(msg.lat)
	s.lat = append(s.lat, lat) // kept from point to point, where a slice of the point's own grew
	o.markedDone++
	o.hopSum += int64(msg.hops)
	o.hopMax = max(o.hopMax, int(msg.hops))
	o.byHops = o.byHops.add(int(msg.hops), 1, lat, lat, lat)
	if o.markedLeft--; o.markedLeft == 0 && o.phase == draining && !o.striped {
		s.err = errStopRun // (striped, the sum over the stripes is checked at each barrier)
	}
}

func (o *openLoop) result(partial bool) *LoadResult {
	s := o.s
	t1 := o.t1
	if o.phase == measuring {
		t1 = s.now
	}
	T := t1 - o.t0
	lr := &LoadResult{Load: o.load.Fraction, Process: o.load.Process.String(), Settled: o.settled,
		Drained: o.phase == draining && o.markedLeft == 0, Cycle: o.window / WindowCycles,
		Warmup: o.t0, Measure: T, Marked: o.nMarked}
	if o.load.Measure > 0 {
		lr.Cycle = 0
		if len(o.procs) > 0 {
			lr.Cycle = o.load.Measure / MeasureWindows / WindowCycles
		}
	}
	if o.load.Fraction == 0 {
		lr.Load = o.load.Rate * float64(len(o.procs)) / o.inj
	}
	if T > 0 {
		lr.Offered = float64(o.genBytes) / (T * o.inj)
		lr.Accepted = float64(o.accByte) / (T * o.inj)
		lr.AcceptedError = float64(o.inflight0) / (T * o.inj)
	}
	lr.Saturated = !lr.Drained || o.fallsShort(o.accByte, o.genBytes)
	if lr.Saturated {
		lr.LatencyBound = "lower"
	}
	// Marked messages still in flight count at their age when the run
	// stopped: a lower bound, so that a saturated point shows how far
	// latency has run away rather than only the lucky few delivered.
	// They are taken in the order they were generated, the oldest first:
	// their ages from the longest down (records are reused, so ids do
	// not give that order).
	k := len(s.lat)
	for i := range s.msgs {
		if msg := &s.msgs[i]; msg.marked && !msg.done {
			s.lat = append(s.lat, roundTime(s.now-msg.ready))
		}
	}
	slices.SortFunc(s.lat[k:], func(a, b float64) int { return cmp.Compare(b, a) })
	rr := runResult{lat: s.lat, hopSum: o.hopSum, hopMax: o.hopMax, byHops: o.byHops, makespan: s.last, events: s.events, partial: partial, stripes: s.stripes, unstriped: s.unstriped}
	rr.undelivered = o.markedLeft
	// Wire figures are over the measurement and the drain, where the
	// marked messages travelled.
	nw := 0
	for w := range s.numWires() {
		busy, load := s.wire(w).busy, s.wire(w).load
		if int(w) < len(o.wires0) {
			busy, load = busy-o.wires0[w].busy, load-o.wires0[w].load
		}
		if w%2 == 1 && s.net.g.Link(int32(w/2)).Multi || s.last <= o.t0 {
			continue
		}
		u := busy / (s.last - o.t0)
		rr.utilMax = max(rr.utilMax, u)
		rr.utilMean += u
		rr.linkLoad = max(rr.linkLoad, int(load))
		nw++
	}
	if nw > 0 {
		rr.utilMean /= float64(nw)
	}
	lr.Result = foldOne(o.tr.op, &rr) // s.lat is not read again before the next point resets it
	// Messages and hops are over the marked messages delivered; the
	// latencies over all of them.
	lr.Messages = o.markedDone
	lr.Hops.Mean = 0
	if o.markedDone > 0 {
		lr.Hops.Mean = float64(o.hopSum) / float64(o.markedDone)
	}
	if s.opt.LinkLoads {
		f := s.wireFigures()
		for w := range f.load {
			if w < len(o.wires0) {
				f.load[w] -= o.wires0[w].load
				f.util[w] = (s.wire(int32(w)).busy - o.wires0[w].busy) / max(s.last-o.t0, 1e-300)
				f.bytes[w] = math.Round((s.wire(int32(w)).busy - o.wires0[w].busy) * s.net.linkP(int32(w/2)).Bandwidth)
			}
		}
		lr.Links = s.net.linkLoads([]wireFigures{f})
	}
	return lr
}

// roundTime rounds a latency, a difference of two times, to whole
// femtoseconds, far below the smallest time the language names (1 ps):
// the difference's binary noise (6.79999999999e-8 for 68 ns, 8.5e-22 for
// a message generated as the run stopped) goes, every digit that means
// something stays.
func roundTime(t float64) float64 {
	return math.Round(t*1e15) / 1e15
}

// listDest marks a rank that takes its destinations from its list.
const listDest = -2

// listWire is the mean wire bytes of rank r's listed messages (the
// whole list's mean when it has none: it generates nothing then).
func (o *openLoop) listWire(r int) int64 {
	if len(o.list[r]) == 0 {
		return o.wire
	}
	var sum int64
	for _, m := range o.list[r] {
		sum += o.tr.wireBytes(m.Bytes)
	}
	return max(sum/int64(len(o.list[r])), 1)
}

// checkList reports a user's pattern that names ranks the network does not
// have or messages it cannot carry.
func (n *network) checkList(l MessageList) error {
	if l == nil {
		return &OptionError{"Load", "list", "op list needs a list of messages (Load.List)"}
	}
	if len(l) > n.nprocs {
		return &OptionError{"Load", "list", fmt.Sprintf("the list has %d ranks; the network has %d processors", len(l), n.nprocs)}
	}
	for r, ms := range l {
		for _, m := range ms {
			switch {
			case m.Dst < 0 || m.Dst >= n.nprocs:
				return &OptionError{"Load", "list", fmt.Sprintf("rank %d sends to rank %d; ranks are 0..%d", r, m.Dst, n.nprocs-1)}
			case m.Bytes < 0 || m.Bytes > MaxMessageBytes:
				return &OptionError{"Load", "list", fmt.Sprintf("rank %d sends %d bytes; a message is 0 to 2^53 bytes", r, m.Bytes)}
			}
		}
	}
	return nil
}
