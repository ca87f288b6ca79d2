package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/internal/workers"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Simulate runs opts.Op on the network of spec opts.Runs times and returns
// the aggregated result. Runs are independent (run i is seeded from
// opts.Seed and i) and spread over opts.Workers goroutines; the result does
// not depend on the number of workers. A deadlock, the MaxEvents limit or
// cancellation of ctx end a run early: the result then reports what was
// delivered (Deadlock with its Cycle, or Partial) and the error is nil,
// except for cancellation, which also returns ctx.Err(). A panic in a
// worker (opts.Progress's, say) is raised again in the caller's
// goroutine, as an error that carries the worker's stack.
func Simulate(ctx context.Context, spec *Spec, opts Options) (*Result, error) {
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	n, err := compile(spec, opts.Routing, opts.Switching, opts.MaxMemory)
	if err != nil {
		return nil, err
	}
	tr, err := n.traffic(&opts)
	if err != nil {
		return nil, err
	}
	if n.rk == rTree && tr.src != n.treeRoot {
		n.buildTree(tr.src)
	}
	if n.rk == rAcyclic && tr.op == "broadcast" {
		if err := n.acyclicTree(tr.src); err != nil {
			return nil, err
		}
	}
	runs, index := shardRuns(max(opts.Runs, 1), opts.Shard, opts.Shards)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, runs), 1)
	need, err := n.checkBudget(tr, runs, workers, opts.MaxMemory)
	if err == nil && opts.KeepRuns {
		need, err = n.checkRecordBudget(need, tr, runs, opts.MaxMemory)
	}
	if err == nil && opts.LinkLoads {
		need, err = n.checkLinkLoadBudget(need, runs, heldRuns(runs, workers), opts.MaxMemory)
	}
	if err == nil && opts.Trace {
		// The first run's messages, and its wires' busy intervals in what
		// is left.
		need = limits.Add(need, limits.Mul(messagesPerRun(tr.op, int64(n.nprocs)), int64(unsafe.Sizeof(BurstMessage{}))))
		err = limits.Check("the trace of a run", need, opts.MaxMemory)
	}
	if err != nil {
		return nil, err
	}
	guard := newGrowthGuard(n, tr, need, opts.MaxMemory, workers)
	type finished struct {
		run   runResult
		wires wireFigures
		trace *BurstTrace
	}
	var burst *BurstTrace
	fold := newRunFold(tr.op, limits.Mul(int64(runs), messagesPerRun(tr.op, int64(n.nprocs))))
	var wires *wireSums
	if opts.LinkLoads {
		wires = n.newWireSums()
	}
	var records []RunRecord
	var firstErr error
	order := newInOrder(resultWindow*workers, func(i int, x finished) {
		switch {
		case firstErr != nil:
		case x.run.err != nil:
			firstErr = x.run.err
		case x.run.lat != nil || x.run.events > 0: // cancelled before it began: left out
			fold.add(&x.run)
			if wires != nil {
				wires.add(x.wires)
			}
			if opts.KeepRuns {
				records = append(records, x.run.record(index(i)))
			}
			if x.trace != nil {
				burst = x.trace
			}
		}
	})
	done := 0
	var mu sync.Mutex
	n.onSims(ctx, &opts, guard, workers, runs, func(ctx context.Context, s *sim, i int) {
		if !order.admit(ctx, i) {
			return
		}
		traced := opts.Trace && index(i) == 0
		if traced {
			s.busy = newBusyLog(s.numWires(), max(limits.Or(opts.MaxMemory)-need, 0)/(2*busyIntervalBytes))
		}
		x := finished{run: s.once(ctx, tr, runSeed(opts.Seed, index(i)))}
		if traced {
			x.trace, x.run.err = s.burstTrace(x.run.err)
			s.busy = nil
		}
		if wires != nil {
			x.wires = s.wireFigures()
		}
		order.put(i, x)
		if opts.Progress != nil {
			func() {
				mu.Lock()
				defer mu.Unlock() // held by no one if Progress panics
				done++
				opts.Progress(done, runs)
			}()
		}
	})
	order.flush(runs)
	if firstErr != nil {
		return nil, firstErr
	}
	res := fold.result()
	res.Records = records
	res.Trace = burst
	if wires != nil {
		res.Links = wires.loads()
	}
	if ctx.Err() != nil {
		res.Partial = true
		return res, ctx.Err()
	}
	return res, nil
}

// resultWindow is how many finished runs per worker may wait to be folded
// behind one still running.
const resultWindow = 8

// heldRuns is how many runs' results may be held at once: those waiting
// to be folded and those running.
func heldRuns(runs, workers int) int { return min(runs, (resultWindow+1)*workers) }

// onSims calls f(ctx, s, i) for every i in [0, count) over nworkers
// goroutines (internal/workers), each with a sim of its own that it
// reuses, until ctx is done: the items not yet started then are left
// undone. A panic in f stops the others (f's ctx is cancelled) and is
// raised again in the caller's goroutine as a *workers.Panic, where a
// caller can recover it, with the worker's stack: a goroutine of the
// library's own would otherwise end the program.
func (n *network) onSims(ctx context.Context, opts *Options, guard growthGuard, nworkers, count int, f func(ctx context.Context, s *sim, i int)) {
	makeSim := func() *sim {
		s := newSim(n, opts)
		s.guard = guard
		// The cores left to each worker's run (kernel_stripes.go).
		s.cores = max(1, workers.Count(opts.Workers, math.MaxInt)/nworkers)
		return s
	}
	// The only error is ctx's, which the callers read from ctx.
	_ = workers.For(ctx, nworkers, count, makeSim, func(ctx context.Context, s *sim, i int) error {
		f(ctx, s, i)
		return nil
	})
}

// runSeed derives run i's seed, so any run can be reproduced alone.
func runSeed(seed uint64, i int) uint64 {
	r := topo.NewRand(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	return r.Uint64()
}

// traffic checks the options against the network; their ranges are
// checkOptions', which Simulate calls before compiling.
func (n *network) traffic(o *Options) (*traffic, error) {
	g := n.g
	tr := &traffic{op: o.Op, channels: max(o.Channels, 1), links: max(o.Links, 1),
		payload: int64(n.spec.Packet.Payload), hdrTail: int64(n.spec.Packet.Header + n.spec.Packet.Trailer),
		circuit: n.sw == Circuit}
	if tr.op == "" {
		tr.op = "send"
	}
	if _, ok := ops[tr.op]; !ok {
		return nil, unknownOp(tr.op)
	}
	tr.size = int64(o.Size)
	if tr.size > MaxMessageBytes {
		return nil, &OptionError{"Size", strconv.Itoa(o.Size), fmt.Sprintf("a message may be at most %d bytes (2^53)", int64(MaxMessageBytes))}
	}
	if n.nprocs == 0 {
		return nil, errors.New("the topology has no processors")
	}
	endpoint := func(p *int, option string, def int32) (int32, error) {
		if p == nil {
			return def, nil
		}
		v, ok := g.Index(*p)
		switch {
		case !ok && n.nprocs == g.N():
			return -1, &OptionError{option, strconv.Itoa(*p), "node ids are " + n.procIDs()}
		case !ok:
			return -1, &OptionError{option, strconv.Itoa(*p), "no such node; processor ids are " + n.procIDs()}
		case g.NodeKind(v) != topo.Processor:
			return -1, &OptionError{option, strconv.Itoa(*p), fmt.Sprintf("node %d is a switch; processor ids are %s", *p, n.procIDs())}
		}
		return v, nil
	}
	var err error
	if tr.src, err = endpoint(o.Src, "Src", g.Proc(0)); err != nil {
		return nil, err
	}
	if tr.dst, err = endpoint(o.Dst, "Dst", g.Proc(n.nprocs-1)); err != nil {
		return nil, err
	}
	if (tr.op == "send" || tr.op == "pingpong" || tr.op == "swap") && tr.src == tr.dst {
		return nil, &OptionError{"Dst", strconv.Itoa(g.ID(tr.dst)), fmt.Sprintf("%s needs two different processors, and the source is %d too", tr.op, g.ID(tr.src))}
	}
	if o.Links > 1 {
		if v, have := n.fewestLinks(tr); o.Links > have {
			return nil, &OptionError{"Links", strconv.Itoa(o.Links), fmt.Sprintf("processor %d has %d link%s, so links must be from 1 to %d", g.ID(v), have, plural(int64(have)), have)}
		}
	}
	return tr, nil
}

// OptionError is an option the network cannot honour: a node that is not
// one of its processors, more links than a processor has, a routing its
// topology does not have the shape for. It names the option, its value and
// what would be valid.
type OptionError struct {
	Option string // "Src", "Dst", "Links", "Routing" or "Size"
	Value  string // as given: "99", "xy"
	Reason string // "node ids are 0..63"
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("Options.%s = %s: %s", e.Option, e.Value, e.Reason)
}

// procIDs summarises the processors' ids: "0..63", "43, 45, 47".
func (n *network) procIDs() string {
	g := n.g
	ids := make([]int, n.nprocs)
	for r := range ids {
		ids[r] = g.ID(g.Proc(r))
	}
	slices.Sort(ids)
	return topo.IDRanges(ids)
}

// fewestLinks finds, among the processors that send in the operation (the
// source of a send; both ends of pingpong and swap; every processor
// otherwise), one with the fewest links leading into the network, and how
// many it has: a message split over more links than that cannot be sent.
func (n *network) fewestLinks(tr *traffic) (int32, int) {
	g := n.g
	count := make([]int, g.N())
	for l := range int32(g.NumLinks()) {
		if k := g.Link(l); !k.IO && k.B >= 0 {
			for _, m := range g.Members(l) {
				count[m]++
			}
		}
	}
	var senders []int32
	switch tr.op {
	case "send":
		senders = []int32{tr.src}
	case "pingpong", "swap":
		senders = []int32{tr.src, tr.dst}
	default:
		for r := range n.nprocs {
			senders = append(senders, g.Proc(r))
		}
	}
	best := senders[0]
	for _, v := range senders {
		if count[v] < count[best] {
			best = v
		}
	}
	return best, count[best]
}

// once runs one repetition.
func (s *sim) once(ctx context.Context, tr *traffic, seed uint64) runResult {
	s.reset(seed)
	if err := s.build(tr); err != nil {
		return runResult{err: err}
	}
	s.linkDeps()
	partial := s.run(ctx)
	if s.err != nil {
		return runResult{err: s.err}
	}
	r := runResult{lat: append([]float64{}, s.lat...), makespan: s.last, events: s.events, partial: partial, stripes: s.stripes, unstriped: s.unstriped}
	for i := range s.msgs {
		m := &s.msgs[i]
		if m.done {
			r.hopSum += int64(m.hops)
			r.hopMax = max(r.hopMax, int(m.hops))
			r.sendSum += m.sent - m.ready
			r.ackSum += m.sent - max(m.tx, m.ready)
			r.sendMax = max(r.sendMax, m.sent-m.ready)
			r.byHops = r.byHops.add(int(m.hops), 1, m.lat, m.lat, m.lat)
		}
	}
	r.undelivered = len(s.msgs) - s.nDone
	if !partial && r.undelivered > 0 {
		r.deadlock = true
		r.cycle = s.cycle()
	}
	for w := range s.numWires() {
		r.linkLoad = max(r.linkLoad, int(s.wire(w).load))
	}
	r.procLoad = s.maxThroughLoad()
	if s.last > 0 {
		nw := 0
		for w := range s.numWires() {
			b := s.wire(w).busy
			if w%2 == 1 && s.net.g.Link(int32(w/2)).Multi {
				continue
			}
			u := b / s.last
			r.utilMean += u
			r.utilMax = max(r.utilMax, u)
			nw++
		}
		if nw > 0 {
			r.utilMean /= float64(nw)
		}
	}
	return r
}

// maxThroughLoad is the most messages any processor routed through (a
// wire counts those it carried away from the node it leaves that neither
// started nor ended there; a bus's are counted at the node).
func (s *sim) maxThroughLoad() int {
	g := s.net.g
	s.nodeLoad = slices.Grow(s.nodeLoad[:0], g.N())[:g.N()]
	for v := range s.nodeLoad {
		s.nodeLoad[v] = s.nodes[v].through
	}
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		s.nodeLoad[k.A] += s.wire(2 * l).through
		if k.B >= 0 { // an I/O link of one member has no far end
			s.nodeLoad[k.B] += s.wire(2*l + 1).through
		}
	}
	most := 0
	for v, n := range s.nodeLoad {
		if g.NodeKind(int32(v)) == topo.Processor {
			most = max(most, int(n))
		}
	}
	return most
}

// cycle extracts a deadlock cycle from the wait-for graph over lanes: a
// lane held by a packet leads to the next lane on that packet's path, the
// following lane of its worm if it holds that too, else the lane its head
// requests. Every lane has at most one successor, so walking from any
// requested lane ends in a cycle or at a lane whose holder waits for
// nothing. The result is the first cycle found, starting the walks from
// the waiting packets in index order: a closed walk of lanes in which each
// lane's holder needs the next one (and the last's holder the first).
func (s *sim) cycle() []Channel {
	lanes := s.cycleLanes()
	if lanes == nil {
		return nil
	}
	out := make([]Channel, len(lanes))
	for i, ch := range lanes {
		out[i] = s.channel(ch)
	}
	return out
}

// cycleLanes is cycle as lane numbers.
func (s *sim) cycleLanes() []int32 {
	// next returns the lane the holder of lane c needs after c, or -1.
	next := func(c int32) int32 {
		ln := s.lane(c)
		if !ln.held(s.now) {
			return -1
		}
		p := &s.pkts[ln.owner]
		for i := p.tail; i < p.nhops; i++ {
			if p.hop(i).ch == c {
				if i+1 < p.nhops {
					return p.hop(i + 1).ch
				}
				return p.waitCh
			}
		}
		return -1
	}
	state := map[int32]int{} // lane -> walk number (1-based)
	walk := 0
	for i := range s.pkts {
		c := s.pkts[i].waitCh
		if c < 0 {
			continue
		}
		if _, ok := state[c]; ok {
			continue
		}
		walk++
		var path []int32
		for c >= 0 {
			if w, ok := state[c]; ok {
				if w != walk {
					break // joins an earlier walk, which had no cycle
				}
				k := 0
				for path[k] != c {
					k++
				}
				return path[k:]
			}
			state[c] = walk
			path = append(path, c)
			c = next(c)
		}
	}
	return nil
}

func (s *sim) channel(ch int32) Channel {
	g := s.net.g
	w := ch / s.net.lanes
	k := g.Link(w / 2)
	c := Channel{From: g.ID(k.A), To: -1, VC: int(ch % s.net.lanes)}
	switch {
	case k.Multi:
	case w%2 == 0:
		c.To = g.ID(k.B)
	default:
		c.From, c.To = g.ID(k.B), g.ID(k.A)
	}
	return c
}

// RouteOptions choose the routing Route follows and bound its tables;
// the zero value follows spec.Routing within the default memory limit.
type RouteOptions struct {
	Routing   string // a routing name; "" means spec.Routing
	MaxMemory int64  // bytes for routing tables; 0 means limits.Default()
}

// Route returns the path (external node ids, source first) that o.Routing
// would give a packet from src to dst on an idle network; adaptive
// routings take their first choice, Valiant its minimal path, and a
// half-way tie on a torus ring of even side the + way (Routes lists
// both).
func Route(spec *Spec, src, dst int, o RouteOptions) ([]int, error) {
	paths, _, err := routes(spec, src, dst, o, 1)
	if err != nil {
		return nil, err
	}
	return paths[0], nil
}

// Routes returns, as Route, the paths a packet from src to dst may take
// on an idle network, with their number: one, except where dimension
// order on a torus with an even side reaches a node half way round a
// ring from the destination's coordinate, where both ways are as short
// and each packet takes one at random (as BookSim's dim_order_torus), so
// t such ties give 2^t paths, the + way of each first. At most max paths
// are listed (max ≥ 1); the number counts them all.
func Routes(spec *Spec, src, dst int, o RouteOptions, max int) ([][]int, int, error) {
	return routes(spec, src, dst, o, max)
}

// routes walks the routing from src to dst, both ways at each tie, and
// returns at most max of the paths and how many there are.
func routes(spec *Spec, src, dst int, o RouteOptions, max int) ([][]int, int, error) {
	n, err := compile(spec, o.Routing, "", o.MaxMemory)
	if err != nil {
		return nil, 0, err
	}
	tr, err := n.traffic(&Options{Op: "send", Src: &src, Dst: &dst})
	if err != nil {
		return nil, 0, err
	}
	if n.rk == rValiant {
		n.rk = rStatic
	}
	g := n.g
	var cand []topo.Adj
	var lbuf []int32
	// A way still to walk: its path so far, where it is and the link it
	// came in by.
	type way struct {
		path []int
		at   int32
		in   int32
		seen map[int64]bool
		ties int
	}
	ways := []way{{path: []int{g.ID(tr.src)}, at: tr.src, in: -1, seen: map[int64]bool{}}}
	var paths [][]int
	count := 1
	for len(ways) > 0 {
		w := ways[len(ways)-1]
		ways = ways[:len(ways)-1]
		for w.at != tr.dst {
			// The decision at a node depends only on the node and the
			// link (lane, for acyclic routing) the packet arrived on, so
			// a path loops exactly when such a state repeats. A
			// legitimate non-minimal path may visit a node several
			// times, over different links.
			key := int64(w.at)<<32 | int64(uint32(w.in))
			if w.seen[key] {
				return nil, 0, fmt.Errorf("routing %q loops between %d and %d (node %d is reached twice the same way)", o.Routing, src, dst, g.ID(w.at))
			}
			w.seen[key] = true
			cand, lbuf = n.candidates(w.at, tr.dst, w.in, cand, lbuf)
			if len(cand) == 0 {
				return nil, 0, fmt.Errorf("no route from node %d to node %d", g.ID(w.at), dst)
			}
			if other := n.otherWay(cand, parallel(cand)); other >= 0 {
				w.ties++
				if len(paths)+len(ways)+1 < max {
					// The − way, walked after this one: its own copy of
					// the path and of the states seen (the two ways may
					// meet again over the same link in a later dimension).
					o := cand[other]
					ways = append(ways, way{path: append(slices.Clone(w.path), g.ID(o.Node)), at: o.Node, in: o.Link, seen: maps.Clone(w.seen), ties: w.ties})
				}
			}
			w.at, w.in = cand[0].Node, cand[0].Link
			if n.rk == rAcyclic {
				w.in = lbuf[0]
			}
			w.path = append(w.path, g.ID(w.at))
		}
		if len(paths) == 0 {
			// Every path meets the same ties (one a dimension whose
			// distance is half the side), so the first counts them all.
			count = 1 << min(w.ties, 62)
		}
		paths = append(paths, w.path)
	}
	return paths, count, nil
}
