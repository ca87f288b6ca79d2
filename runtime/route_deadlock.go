package runtime

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/runtime/acyclic"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// RouteCheck is the result of [CheckRouting]: whether the channel
// dependency graph of a routing function is acyclic (so no set of packets
// can wait on each other in a circle, whatever the switching), one cycle
// of it when it is not, and whether every ordered pair of processors has a
// route. It marshals to the `parasol route --check --json` object.
type RouteCheck struct {
	Routing string `json:"routing"`
	Acyclic bool   `json:"acyclic"`
	// Cycle lists the lanes of one dependency cycle, each waiting for the
	// next and the last for the first; empty when Acyclic.
	Cycle             []Channel `json:"cycle"`
	Connected         bool      `json:"connected"`
	PairsWithoutRoute int       `json:"pairs_without_route"`
	// Deflection is set for hot-potato routing, which cannot deadlock
	// although its channels can wait for each other in a cycle: a packet
	// never waits for one lane, and packets enter only while a buffer
	// place stays free (route_deflect.go). Acyclic and Cycle then tell of
	// its minimal links alone.
	Deflection bool `json:"deflection,omitempty"`
	// Proof says how a switched routing was proved when following every
	// route from every processor was beyond the bound: "routers" (one
	// processor per router stands for the rest) or "layers" (every hop
	// goes up in level and direction); empty for the exact check. See
	// route_deadlock_scale.go.
	Proof string `json:"proof,omitempty"`
	// CycleRoutings, from [CheckRoutings], names for each lane of Cycle
	// the routing of a packet that holds it while it requests the next:
	// a cycle through several routings' dependencies names several.
	CycleRoutings []string `json:"cycle_routings,omitempty"`
}

// DefaultMaxCheckWork bounds CheckRouting: processors × channels (lanes),
// about the routing decisions it follows. At the bound, on the order of a
// minute on two cores.
const DefaultMaxCheckWork = 2e9

// CheckBoundError is CheckRouting's refusal of a check whose work
// exceeds CheckOptions.MaxWork.
type CheckBoundError struct {
	Work, Bound float64 // processors × lanes, and the bound
	what        string
	stopped     bool // run until the bound, not refused beforehand
}

func (e *CheckBoundError) Error() string {
	if e.stopped {
		return fmt.Sprintf("%s; the bound is %s, so it was stopped", e.what, topo.Sci(e.Bound))
	}
	return fmt.Sprintf("%s; the bound is %s, so it is not run", e.what, topo.Sci(e.Bound))
}

// CheckOptions choose the routing CheckRouting checks and bound and report
// its work; the zero value checks spec.Routing within the default bounds.
type CheckOptions struct {
	Routing   string  // a routing name; "" means spec.Routing
	MaxWork   float64 // processors × lanes; 0 means DefaultMaxCheckWork
	MaxMemory int64   // bytes; 0 means limits.Default()
	// Progress, if set, is called (from one goroutine at a time) as each
	// destination processor has been explored.
	Progress func(done, total int)
}

// CheckRouting statically checks a routing function of spec for deadlock
// freedom and connectivity. o.Routing is a name from [Routings] or
// spec.Routes; "" means spec.Routing (and "shortest" if that is empty).
//
// The channels are the lanes (wire × virtual channel), so dateline and
// phase lane classes count. From every processor to every processor the
// check follows every choice the runtime may make: the adaptive routings
// (least-used, random, quiet, short-queue, first-ready) offer all their
// minimal links; the static ones their first link and, as a message split
// over several links spreads its parts over the candidates, as many
// candidates as there are links to the first one's neighbour; "tree" is
// rooted at the first processor; and within a lane class every lane, since
// a packet takes whichever is free. The cost is about one routing decision
// per (destination, lane) pair, so very large regular networks (a million
// nodes) are beyond it. A dependency c → d is recorded when a packet holding lane c may
// request lane d next; the result is acyclic when that graph is (package
// runtime/acyclic, [acyclic.Check]).
//
// Valiant routing is checked as its two phases. With lane classes per
// phase (VirtualChannels ≥ 2, ≥ 4 on a torus, where datelines take two),
// the phases use disjoint lanes and a packet only moves from the first
// phase's lanes to the second's, so it is acyclic exactly when the
// minimal routing each phase uses is; the cycle reported is in the first
// phase's lanes. Without them a packet's next lane depends on its random
// intermediate processor, which the lane it holds does not determine, so
// the check cannot follow it exactly; it reports a cycle of the minimal
// routing if there is one (Valiant's intermediate may be the source), else
// a two-lane cycle of turns at intermediates (a packet from u via v and
// one from v via u, each turning back over the link they share), and an
// error if it finds neither.
//
// Multi-point links (shared media) are not channels between two nodes and
// are rejected. A user routing function (spec.Routes) is called from one
// goroutine only.
//
// The check is bounded (see CheckOptions): beyond o.MaxWork steps
// (DefaultMaxCheckWork by default) it is refused with a *CheckBoundError
// saying why. When ctx is cancelled it stops and returns ctx.Err().
func CheckRouting(ctx context.Context, spec *Spec, o CheckOptions) (*RouteCheck, error) {
	n, err := compile(spec, o.Routing, "", o.MaxMemory)
	if err != nil {
		return nil, err
	}
	name := o.Routing
	if name == "" {
		name = spec.Routing
	}
	if name == "" {
		name = "shortest"
	}
	g := n.g
	V := n.lanes
	for l := range int32(g.NumLinks()) {
		if k := g.Link(l); k.Multi {
			return nil, fmt.Errorf("route check: link %d (node %d, %d members) is a multi-point link, not a channel between two nodes", l, g.ID(k.A), len(g.Members(l)))
		}
	}
	channels := 2 * int64(g.NumLinks()) * int64(V)
	if channels > 1<<31-1 {
		return nil, fmt.Errorf("route check: %d links × %d lanes: too many channels", g.NumLinks(), V)
	}
	bound := o.MaxWork
	if bound <= 0 {
		bound = DefaultMaxCheckWork
	}
	var reps, repCount []int
	proof := ""
	if work := float64(g.NumProcs()) * float64(channels); work > bound {
		// The proofs of large switched networks (route_deadlock_scale.go).
		if n.layered() && n.layersWork() <= bound {
			what := fmt.Sprintf("the proof by layers of %s on a %d-node %s graph (%d wires)", name, g.N(), g.Kind(), 2*g.NumLinks())
			if err := limits.Check(what, n.layersBytes(), o.MaxMemory); err != nil {
				return nil, err
			}
			if err := n.checkLayers(n.switchedNext); err != nil {
				return nil, fmt.Errorf("route check of %s: the proof by layers does not hold (%v), and the exact check needs about %s steps, above the bound %s", name, err, topo.Sci(work), topo.Sci(bound))
			}
			return &RouteCheck{Routing: name, Acyclic: true, Cycle: []Channel{}, Connected: true, Proof: proofLayers}, nil
		}
		if reps, repCount = n.routerEndpoints(); reps == nil {
			return nil, &CheckBoundError{Work: work, Bound: bound, what: fmt.Sprintf("the route check of %s on a %d-node %s graph needs about %s steps (%d lanes explored toward each of %d processors)",
				name, g.N(), g.Kind(), topo.Sci(work), channels, g.NumProcs())}
		}
		// At most routers × lanes, and in practice far fewer (a
		// destination's routes reach few of the lanes): run it, and stop
		// at the bound.
		proof = proofRouters
	}
	what := fmt.Sprintf("the route check of %s on a %d-node %s graph (%d lanes)", name, g.N(), g.Kind(), channels)
	need := checkBytes(channels, n.rk != rCustom)
	if n.rk == rSwitched {
		need = limits.Add(need, limits.Mul(int64(g.NumLinks()), checkLinkBytes))
	}
	if err := limits.Check(what, need, o.MaxMemory); err != nil {
		return nil, err
	}
	r := acyclic.Routing{
		Nodes:      g.N(),
		Channels:   2 * g.NumLinks() * int(V),
		Ends:       n.laneEnds,
		SourceFree: true,
		Parallel:   n.rk != rCustom,
		Context:    ctx,
		Progress:   o.Progress,
	}
	if reps != nil {
		// Each pair of routers without a route stands for every pair of
		// their processors.
		r.Endpoints, r.Weights = reps, repCount
		r.Group = n.dragonflyGroup()
	} else if g.NumProcs() < g.N() {
		r.Endpoints = make([]int, g.NumProcs())
		for i := range r.Endpoints {
			r.Endpoints[i] = int(g.Proc(i))
		}
	}
	r.Next = n.exactNext()
	if reps != nil {
		r.MaxSteps = bound
	}
	rep, err := checkWithin(r, what, need, o.MaxMemory)
	if err != nil {
		if e := checkFailed(ctx, err); e != nil {
			return nil, e
		}
		if se := (*acyclic.StepsError)(nil); errors.As(err, &se) {
			est := se.Steps / float64(se.Done) * float64(se.Total)
			return nil, &CheckBoundError{Work: est, Bound: bound, what: fmt.Sprintf("the route check of %s on a %d-node %s graph, one processor per router (%d routers), explored %s states toward %d of them, about %s for all",
				name, g.N(), g.Kind(), len(reps), topo.Sci(se.Steps), se.Done, topo.Sci(est)), stopped: true}
		}
		return nil, fmt.Errorf("route check of %s: %w", name, err)
	}
	rc := &RouteCheck{Routing: name, Acyclic: rep.Acyclic, Cycle: []Channel{},
		Connected: rep.Connected, PairsWithoutRoute: rep.PairsWithoutRoute, Proof: proof}
	cyc := make([]int32, len(rep.Cycle))
	for i, c := range rep.Cycle {
		cyc[i] = int32(c)
	}
	if n.rk == rValiant && !n.phased && rep.Acyclic {
		if cyc = n.valiantTurnCycle(); cyc == nil {
			return nil, errors.New("route check of valiant without lane classes per phase: the next lane depends on the random intermediate, not only on the lane held, and no cycle was found; use VirtualChannels >= 2 (>= 4 on a torus) to check it exactly")
		}
		rc.Acyclic = false
	}
	rc.Deflection = n.rk == rHotPotato
	s := &sim{net: n}
	for _, c := range cyc {
		rc.Cycle = append(rc.Cycle, s.channel(c))
	}
	return rc, nil
}

// CheckRoutings checks several routings of spec together (names, from
// [Routings] or spec.Routes, at least two): the packets of a program whose
// sends name routings (seed 003's SEND and SSEQ) each follow their own
// routing but share the lanes, so a lane held by a packet of one routing
// can be waited for by a packet of another, and deadlock freedom needs the
// union of the routings' channel dependency graphs to be acyclic, which it
// need not be when each alone is. The walk is CheckRouting's exact one
// over a copy of the lanes per routing (acyclic.Routing.Copies); the
// report's Routing joins the names with " + ", its cycle is over the real
// lanes with CycleRoutings naming, lane by lane, the routing whose packet
// waits there, and a pair has a route when some routing gives one.
// Hot-potato routing, which deflects instead of waiting, and Valiant
// routing without lane classes per phase, which the exact walk cannot
// follow, are refused; so is a network beyond o.MaxWork (the proofs by
// routers and by layers are of one routing).
func CheckRoutings(ctx context.Context, spec *Spec, names []string, o CheckOptions) (*RouteCheck, error) {
	if len(names) < 2 {
		return nil, fmt.Errorf("route check together: %d routings, need at least two", len(names))
	}
	nets := make([]*network, len(names))
	for i, name := range names {
		n, err := compile(spec, name, "", o.MaxMemory)
		if err != nil {
			return nil, err
		}
		switch {
		case n.rk == rHotPotato:
			return nil, fmt.Errorf("route check together: %s deflects packets instead of letting them wait, so it is not checked with other routings", name)
		case n.rk == rValiant && !n.phased:
			return nil, fmt.Errorf("route check together: %s without lane classes per phase is not followed exactly (use VirtualChannels >= 2, >= 4 on a torus)", name)
		case i > 0 && n.lanes != nets[0].lanes:
			return nil, fmt.Errorf("route check together: %s has %d lanes a wire, %s %d", name, n.lanes, names[0], nets[0].lanes)
		}
		nets[i] = n
	}
	n0 := nets[0]
	g := n0.g
	for l := range int32(g.NumLinks()) {
		if k := g.Link(l); k.Multi {
			return nil, fmt.Errorf("route check: link %d (node %d, %d members) is a multi-point link, not a channel between two nodes", l, g.ID(k.A), len(g.Members(l)))
		}
	}
	joined := strings.Join(names, " + ")
	lanes := 2 * int64(g.NumLinks()) * int64(n0.lanes)
	channels := lanes * int64(len(names))
	if channels > 1<<31-1 {
		return nil, fmt.Errorf("route check: %d links × %d lanes × %d routings: too many channels", g.NumLinks(), n0.lanes, len(names))
	}
	bound := o.MaxWork
	if bound <= 0 {
		bound = DefaultMaxCheckWork
	}
	if work := float64(g.NumProcs()) * float64(channels); work > bound {
		return nil, &CheckBoundError{Work: work, Bound: bound, what: fmt.Sprintf("the route check of %s together on a %d-node %s graph needs about %s steps (%d lanes, a copy a routing, explored toward each of %d processors)",
			joined, g.N(), g.Kind(), topo.Sci(work), channels, g.NumProcs())}
	}
	nexts := make([]func(buf []int, src, dst, at, in int) []int, len(nets))
	parallel := true
	for i, n := range nets {
		nexts[i] = n.exactNext()
		parallel = parallel && n.rk != rCustom
	}
	what := fmt.Sprintf("the route check of %s together on a %d-node %s graph (%d lanes, a copy a routing)", joined, g.N(), g.Kind(), channels)
	need := checkBytes(channels, parallel)
	for _, n := range nets {
		if n.rk == rSwitched {
			need = limits.Add(need, limits.Mul(int64(g.NumLinks()), checkLinkBytes))
		}
	}
	if err := limits.Check(what, need, o.MaxMemory); err != nil {
		return nil, err
	}
	L := int(lanes)
	r := acyclic.Routing{
		Nodes:    g.N(),
		Channels: int(channels),
		Copies:   len(names),
		Ends:     func(c int) (int, int) { return n0.laneEnds(c % L) },
		Next: func(buf []int, src, dst, at, in int) []int {
			ks := nexts
			off := 0
			if in >= 0 {
				off = in / L * L
				ks, in = nexts[in/L:in/L+1], in%L
			}
			for _, next := range ks {
				k := len(buf)
				buf = next(buf, src, dst, at, in)
				for i := k; i < len(buf); i++ {
					buf[i] += off
				}
				if in < 0 {
					off += L
				}
			}
			return buf
		},
		SourceFree: true,
		Parallel:   parallel,
		Context:    ctx,
		Progress:   o.Progress,
	}
	if g.NumProcs() < g.N() {
		r.Endpoints = make([]int, g.NumProcs())
		for i := range r.Endpoints {
			r.Endpoints[i] = int(g.Proc(i))
		}
	}
	rep, err := checkWithin(r, what, need, o.MaxMemory)
	if err != nil {
		if e := checkFailed(ctx, err); e != nil {
			return nil, e
		}
		return nil, fmt.Errorf("route check of %s together: %w", joined, err)
	}
	rc := &RouteCheck{Routing: joined, Acyclic: rep.Acyclic, Cycle: []Channel{},
		Connected: rep.Connected, PairsWithoutRoute: rep.PairsWithoutRoute}
	s := &sim{net: n0}
	for i, c := range rep.Cycle {
		rc.Cycle = append(rc.Cycle, s.channel(int32(c)))
		rc.CycleRoutings = append(rc.CycleRoutings, names[rep.CycleCopies[i]])
	}
	return rc, nil
}

// checkBytes estimates what the route check takes for its lanes before
// its walks' transitions: per lane its ends and index (12 bytes), each
// worker's stamps, dependency bits and walk states
// (acyclic.ChannelBytes), and the merged dependency lists (48); parallel
// says the walk runs a worker a CPU.
func checkBytes(channels int64, parallel bool) int64 {
	workers := int64(1)
	if parallel {
		workers = int64(goruntime.GOMAXPROCS(0))
	}
	return limits.Mul(channels, limits.Add(12+48, limits.Mul(workers, acyclic.ChannelBytes)))
}

// checkWithin runs acyclic.Check on r with what the memory limit
// (maxMemory, or the default) leaves beside need bytes as the bound of
// its walks' transitions, which no estimate before the walk can know (a
// lane offers as many as the routing gives: PAR on three lane classes on
// the 16,512-terminal dragonfly makes 1e9 of them), and reports a walk
// that would pass it as a *limits.TooLarge naming what (the check), the
// transitions and the limit.
func checkWithin(r acyclic.Routing, what string, need, maxMemory int64) (acyclic.Report, error) {
	limit := limits.Or(maxMemory)
	r.MaxBytes = max(limit-need, 1)
	rep, err := acyclic.Check(r)
	if me := (*acyclic.MemoryError)(nil); errors.As(err, &me) {
		how := fmt.Sprintf("whose walk toward one destination reached %d transitions", me.Count)
		if me.What == "dependencies" {
			how = fmt.Sprintf("whose dependency graph has %d dependencies", me.Count)
		}
		return rep, &limits.TooLarge{What: what + ", " + how + ",", Need: limits.Add(need, me.Bytes), Limit: limit}
	}
	return rep, err
}

// checkFailed returns what a failed check's caller returns as it is: the
// context's error once cancelled, or the memory limit's; nil for an error the
// caller explains.
func checkFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if tl := (*limits.TooLarge)(nil); errors.As(err, &tl) {
		return err
	}
	return nil
}

// exactNext returns n's routing as the Next of an acyclic.Routing over its
// lanes, as the exact check follows it.
func (n *network) exactNext() func(buf []int, src, dst, at, in int) []int {
	switch n.rk {
	case rAcyclic:
		t := n.acyc
		return func(buf []int, _, dst, at, in int) []int {
			ac := acyclic.Local
			if in >= 0 {
				if ac = t.channel(int32(in)); ac < 0 {
					return buf
				}
			}
			k := len(buf)
			buf = t.nw.Next(buf, at, dst, ac)
			for i := k; i < len(buf); i++ {
				buf[i] = int(t.lane(buf[i]))
			}
			return buf
		}
	case rSwitched:
		return n.switchedNext
	}
	return n.checkNext(0)
}

// laneEnds returns the nodes lane c (wire c/V) leaves and enters; a lane of
// an I/O link (one member) is given as a loop at that member, which no
// routing offers.
func (n *network) laneEnds(c int) (from, to int) {
	k := n.g.Link(int32(c) / n.lanes / 2)
	switch {
	case k.B < 0:
		return int(k.A), int(k.A)
	case (int32(c)/n.lanes)%2 == 0:
		return int(k.A), int(k.B)
	}
	return int(k.B), int(k.A)
}

type checkScratch struct {
	cand []topo.Adj
	lbuf []int32
}

// checkNext returns the runtime's routing function as the Next of an
// acyclic.Routing over lanes: at node at, for dst, having arrived on lane
// in (acyclic.Local at the source), every lane sim.route may request.
// phaseOff is the first lane class of the phase (Valiant's second phase
// uses classes/2).
func (n *network) checkNext(phaseOff int32) func(buf []int, src, dst, at, in int) []int {
	pool := sync.Pool{New: func() any { return new(checkScratch) }}
	g, V, C := n.g, n.lanes, n.classes
	s := &sim{net: n} // for wraps, which reads only the network
	static := n.rk == rStatic || n.rk == rValiant || n.rk == rTree || n.rk == rCustom
	return func(buf []int, _, dst, at, in int) []int {
		sc := pool.Get().(*checkScratch)
		defer pool.Put(sc)
		inLink, class, lastDim := int32(-1), int32(0), int32(-1)
		if in >= 0 {
			inLink = int32(in) / V / 2
			lastDim = g.Link(inLink).Dim
			if n.dateline {
				k := int32(in) % V
				for c := int32(0); c < C; c++ {
					if c*V/C <= k && k < (c+1)*V/C {
						class = c - phaseOff
					}
				}
			}
		}
		sc.cand, sc.lbuf = n.candidates(int32(at), int32(dst), inLink, sc.cand, sc.lbuf)
		cand := sc.cand
		if static && len(cand) > 1 {
			par := 0
			for _, a := range cand {
				if a.Node == cand[0].Node {
					par++
				}
			}
			if n.splitTies {
				// A tie half way round an even ring: both ways.
				for par < len(cand) && g.Link(cand[par].Link).Dim == g.Link(cand[0].Link).Dim {
					par++
				}
			}
			cand = cand[:par]
		}
		for _, a := range cand {
			w := n.wire(a.Link, int32(at))
			cl := class
			if n.dateline {
				d := g.Link(a.Link).Dim
				if d != lastDim {
					cl = 0
				}
				if s.wraps(int32(at), a.Node, d) {
					cl = 1
				}
			}
			lc := cl + phaseOff
			for ch := w*V + lc*V/C; ch < w*V+(lc+1)*V/C; ch++ {
				buf = append(buf, int(ch))
			}
		}
		return buf
	}
}

// valiantTurnCycle looks for two processors u, v joined by a link and two
// packets, one from u through intermediate v to a destination whose route
// from v starts back over that link, the other from v through u likewise:
// each holds the lane the other requests. It returns the two lanes, or nil.
func (n *network) valiantTurnCycle() []int32 {
	g := n.g
	next := n.checkNext(0)
	var buf []int
	// first returns the first lane from a over link l that routing from a
	// (as a source) toward some processor other than a and b offers, or -1.
	first := func(a, b, l int32) int32 {
		w := n.wire(l, a)
		for r := range g.NumProcs() {
			d := g.Proc(r)
			if d == a || d == b {
				continue
			}
			buf = next(buf[:0], int(a), int(d), int(a), acyclic.Local)
			for _, c := range buf {
				if int32(c)/n.lanes == w {
					return int32(c)
				}
			}
		}
		return -1
	}
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		if k.B < 0 || k.A == k.B || g.NodeKind(k.A) != topo.Processor || g.NodeKind(k.B) != topo.Processor {
			continue
		}
		// Phase one from u to v may take link l: a direct link is minimal.
		if c1, c2 := first(k.A, k.B, l), first(k.B, k.A, l); c1 >= 0 && c2 >= 0 {
			if n.offers(next, k.A, k.B, c1) && n.offers(next, k.B, k.A, c2) {
				return []int32{c1, c2}
			}
		}
	}
	return nil
}

// offers reports whether routing from processor a toward processor b offers
// lane c at a's injection.
func (n *network) offers(next func([]int, int, int, int, int) []int, a, b, c int32) bool {
	for _, x := range next(nil, int(a), int(b), int(a), acyclic.Local) {
		if int32(x) == c {
			return true
		}
	}
	return false
}
