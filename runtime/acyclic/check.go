package acyclic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/parasol-lang/parasol/internal/workers"
)

// Routing describes any routing function to [Check]: a network of channels
// and, for a packet, the channels it may take next. Adaptive routing offers
// several channels; Check follows all of them.
type Routing struct {
	Nodes, Channels int
	// Ends returns the processors channel c leaves and enters.
	Ends func(c int) (from, to int)
	// Next appends to buf the channels a packet from src to dst may take
	// next at processor at, having arrived on channel in (Local at src), and
	// returns the extended slice. It is not called at dst.
	Next func(buf []int, src, dst, at, in int) []int
	// SourceFree says Next ignores src (table and rule routing usually
	// does). Check then explores each destination once for all sources,
	// which costs O(destinations × channels) instead of O(pairs × route).
	SourceFree bool
	// Endpoints lists the nodes that send and receive (processors, as
	// opposed to switches); nil means every node.
	Endpoints []int
	// Weights, if set, gives for each of Endpoints (or each node) the
	// number of endpoints it stands for: a pair without a route counts the
	// product of its two weights in Report.PairsWithoutRoute.
	Weights []int
	// MaxSteps, if positive, bounds the work: when the states explored
	// (a channel reached for a destination, about one call of Next each)
	// exceed it, Check stops and returns a *StepsError.
	MaxSteps float64
	// Parallel says Ends and Next are safe for concurrent use; Check then
	// spreads the destinations over the CPUs.
	Parallel bool
	// Context, if set, stops the check when it is cancelled; Check then
	// returns the context's error.
	Context context.Context
	// Progress, if set, is called (from one goroutine at a time) as each
	// destination has been explored, with the number done and the total.
	Progress func(done, total int)
}

// Report is the result of [Check].
type Report struct {
	// Acyclic is true when the channel dependency graph has no cycle, so
	// the routing cannot deadlock.
	Acyclic bool
	// Cycle lists the channels of one dependency cycle c0 → c1 → … → c0
	// (c0 is not repeated) when Acyclic is false.
	Cycle []int
	// Connected is true when every ordered pair of distinct endpoints has
	// a route; PairsWithoutRoute counts the pairs that have none.
	Connected         bool
	PairsWithoutRoute int
	// DeadEnds counts the reachable states (a packet on a channel for a
	// destination it has not reached; per source too unless SourceFree)
	// where Next offers nothing.
	DeadEnds int
	// Dependencies is the number of edges of the channel dependency graph.
	Dependencies int
}

// StepsError is Check's refusal to go on past Routing.MaxSteps: Steps
// states explored toward Done of Total destinations.
type StepsError struct {
	Steps       float64
	Done, Total int
}

func (e *StepsError) Error() string {
	return fmt.Sprintf("%.3g states explored toward %d of %d destinations, past the bound", e.Steps, e.Done, e.Total)
}

// ErrRouting reports a malformed Routing or a Next that returns a channel
// which is out of range or does not leave the processor it was asked about.
var ErrRouting = errors.New("invalid routing function")

// Check builds the channel dependency graph of r — an edge c → d whenever a
// packet holding channel c may request channel d next — by following every
// choice Next offers from every source to every destination, then reports
// whether the graph is acyclic (one cycle if not) and which pairs have a route.
func Check(r Routing) (Report, error) {
	if r.Nodes < 1 || r.Channels < 0 || r.Ends == nil || r.Next == nil {
		return Report{}, fmt.Errorf("%w: need Nodes ≥ 1, Channels ≥ 0, Ends and Next", ErrRouting)
	}
	if r.Nodes > math.MaxInt32 || r.Channels > math.MaxInt32 {
		return Report{}, fmt.Errorf("%w: %d nodes, %d channels: too many", ErrRouting, r.Nodes, r.Channels)
	}
	tail, head := make([]int32, r.Channels), make([]int32, r.Channels)
	for c := 0; c < r.Channels; c++ {
		a, b := r.Ends(c)
		if a < 0 || a >= r.Nodes || b < 0 || b >= r.Nodes {
			return Report{}, fmt.Errorf("%w: channel %d joins %d→%d, outside 0..%d", ErrRouting, c, a, b, r.Nodes-1)
		}
		tail[c], head[c] = int32(a), int32(b)
	}
	ends := r.Endpoints
	if ends == nil {
		ends = make([]int, r.Nodes)
		for v := range ends {
			ends[v] = v
		}
	}
	for _, v := range ends {
		if v < 0 || v >= r.Nodes {
			return Report{}, fmt.Errorf("%w: endpoint %d outside 0..%d", ErrRouting, v, r.Nodes-1)
		}
	}
	if r.Weights != nil && len(r.Weights) != len(ends) {
		return Report{}, fmt.Errorf("%w: %d weights for %d endpoints", ErrRouting, len(r.Weights), len(ends))
	}
	weight := func(i int) int {
		if r.Weights == nil {
			return 1
		}
		return r.Weights[i]
	}
	// Dependencies c → d are kept as a bit per d among the channels leaving
	// head(c) when no node has more than 64 of them, else as lists.
	outIdx := make([]int32, r.Channels)
	outN := make([]int32, r.Nodes)
	for c, v := range tail {
		outIdx[c] = outN[v]
		outN[v]++
	}
	useMask := slices.Max(append(outN, 0)) <= 64
	nworkers := 1
	if r.Parallel {
		nworkers = 0 // one per CPU
	}
	var (
		cksMu      sync.Mutex
		cks        []*checker // one per worker
		progressMu sync.Mutex
		explored   int
		stepsMu    sync.Mutex
		steps      float64 // states explored, for MaxSteps
		done       int
	)
	reported := func() {
		if r.Progress != nil {
			progressMu.Lock()
			explored++
			r.Progress(explored, len(ends))
			progressMu.Unlock()
		}
	}
	newChecker := func() *checker {
		ck := &checker{r: r, tail: tail, head: head, outIdx: outIdx,
			stamp: make([]uint32, r.Channels), local: make([]int32, r.Channels),
			srcs: make([]int, 0, len(ends))}
		if useMask {
			ck.mask = make([]uint64, r.Channels)
		} else {
			ck.deps = make([][]int32, r.Channels)
		}
		cksMu.Lock()
		cks = append(cks, ck)
		cksMu.Unlock()
		return ck
	}
	ctx := r.Context
	if ctx == nil {
		ctx = context.Background()
	}
	err := workers.For(ctx, nworkers, len(ends), newChecker, func(_ context.Context, ck *checker, i int) error {
		dst := ends[i]
		srcs, ws := ck.srcs[:0], ck.srcW[:0]
		if r.SourceFree {
			for j, s := range ends {
				if s != dst {
					srcs = append(srcs, s)
					ws = append(ws, weight(j)*weight(i))
				}
			}
			if err := ck.explore(dst, srcs, ws); err != nil {
				return err
			}
		} else {
			for j, s := range ends {
				if s == dst {
					continue
				}
				if err := ck.explore(dst, append(srcs[:0], s), append(ws[:0], weight(j)*weight(i))); err != nil {
					return err
				}
			}
		}
		ck.srcs, ck.srcW = srcs, ws
		reported()
		if r.MaxSteps > 0 {
			stepsMu.Lock()
			defer stepsMu.Unlock()
			steps += ck.steps
			ck.steps = 0
			done++
			if steps > r.MaxSteps {
				return &StepsError{Steps: steps, Done: done, Total: len(ends)}
			}
		}
		return nil
	})
	if r.Context != nil && r.Context.Err() != nil {
		return Report{}, r.Context.Err()
	}
	if err != nil {
		return Report{}, err
	}
	// Merge the workers' dependencies into sorted lists, so that the
	// reported cycle does not depend on scheduling.
	var rep Report
	for _, ck := range cks {
		rep.PairsWithoutRoute += ck.noRoute
		rep.DeadEnds += ck.deadEnds
	}
	deps := make([][]int32, r.Channels)
	if useMask {
		byTail := make([][]int32, r.Nodes)
		for c, v := range tail {
			byTail[v] = append(byTail[v], int32(c))
		}
		for c := range deps {
			var m uint64
			for _, ck := range cks {
				m |= ck.mask[c]
			}
			for out := byTail[head[c]]; m != 0; m &= m - 1 {
				deps[c] = append(deps[c], out[bits.TrailingZeros64(m)])
			}
		}
	} else {
		for _, ck := range cks {
			for c, ds := range ck.deps {
				for _, d := range ds {
					if !slices.Contains(deps[c], d) {
						deps[c] = append(deps[c], d)
					}
				}
			}
		}
		for _, d := range deps {
			slices.Sort(d)
		}
	}
	for _, d := range deps {
		rep.Dependencies += len(d)
	}
	rep.Connected = rep.PairsWithoutRoute == 0
	rep.Cycle = findCycle(deps)
	rep.Acyclic = rep.Cycle == nil
	return rep, nil
}

type checker struct {
	r          Routing
	tail, head []int32
	outIdx     []int32   // index of each channel among those leaving its tail
	mask       []uint64  // dependencies as bits over head(c)'s channels, or
	deps       [][]int32 // as lists
	deadEnds   int
	noRoute    int

	// Per exploration, reused: visited channels get stamp == epoch and a
	// local index into states.
	epoch     uint32
	stamp     []uint32
	local     []int32
	states    []int32
	from, to  []int32 // transitions between local indices
	good      []bool
	revStart  []int32
	rev       []int32
	initStart []int32
	init      []int32
	queue     []int32
	buf       []int
	srcs      []int   // the sources of one destination's exploration
	srcW      []int   // the pairs each source's stands for
	steps     float64 // states explored since the last count (MaxSteps)
}

// resize returns s with length n and zero elements, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// visit returns the local index of channel c, adding it if new.
func (ck *checker) visit(c int32) (int32, bool) {
	if ck.stamp[c] == ck.epoch {
		return ck.local[c], false
	}
	ck.stamp[c] = ck.epoch
	ck.local[c] = int32(len(ck.states))
	ck.states = append(ck.states, c)
	return ck.local[c], true
}

func (ck *checker) next(src, dst, at, in int) ([]int, error) {
	ck.buf = ck.r.Next(ck.buf[:0], src, dst, at, in)
	for _, c := range ck.buf {
		if c < 0 || c >= len(ck.tail) || ck.tail[c] != int32(at) {
			return nil, fmt.Errorf("%w: Next(src %d, dst %d, at %d, in %d) offered channel %d, which does not leave %d", ErrRouting, src, dst, at, in, c, at)
		}
	}
	return ck.buf, nil
}

func (ck *checker) addDep(a, b int32) {
	if ck.mask != nil {
		ck.mask[a] |= 1 << ck.outIdx[b]
		return
	}
	for _, x := range ck.deps[a] {
		if x == b {
			return
		}
	}
	ck.deps[a] = append(ck.deps[a], b)
}

// explore follows every route to dst from the given sources, recording
// dependencies, dead ends and the sources that cannot reach dst (counting
// weight[k] pairs for srcs[k]).
func (ck *checker) explore(dst int, srcs, weight []int) error {
	if len(srcs) == 0 {
		return nil
	}
	ck.epoch++
	if ck.epoch == 0 { // wrapped: forget all stamps
		clear(ck.stamp)
		ck.epoch = 1
	}
	ck.states, ck.from, ck.to = ck.states[:0], ck.from[:0], ck.to[:0]
	ck.initStart, ck.init = append(ck.initStart[:0], 0), ck.init[:0]
	for _, s := range srcs {
		first, err := ck.next(s, dst, s, Local)
		if err != nil {
			return err
		}
		for _, c := range first {
			i, _ := ck.visit(int32(c))
			ck.init = append(ck.init, i)
		}
		ck.initStart = append(ck.initStart, int32(len(ck.init)))
	}
	src := srcs[0] // for SourceFree routing any source will do
	for q := 0; q < len(ck.states); q++ {
		c := ck.states[q]
		at := int(ck.head[c])
		if at == dst {
			continue
		}
		nx, err := ck.next(src, dst, at, int(c))
		if err != nil {
			return err
		}
		if len(nx) == 0 {
			ck.deadEnds++
		}
		for _, d := range nx {
			ck.addDep(c, int32(d))
			j, _ := ck.visit(int32(d))
			ck.from = append(ck.from, int32(q))
			ck.to = append(ck.to, j)
		}
	}
	// Which states lead to dst: backwards over the transitions.
	ns := len(ck.states)
	ck.steps += float64(ns)
	ck.good = resize(ck.good, ns)
	ck.revStart = resize(ck.revStart, ns+1)
	for _, t := range ck.to {
		ck.revStart[t+1]++
	}
	for i := 0; i < ns; i++ {
		ck.revStart[i+1] += ck.revStart[i]
	}
	ck.rev = resize(ck.rev, len(ck.to))
	fill := ck.revStart[:ns] // consumed below; rebuilt by shifting
	for k, t := range ck.to {
		ck.rev[fill[t]] = ck.from[k]
		fill[t]++
	}
	// fill[i] now equals the old revStart[i+1]; shift back.
	copy(ck.revStart[1:], ck.revStart[:ns])
	ck.revStart[0] = 0
	queue := ck.queue[:0]
	for i, c := range ck.states {
		if int(ck.head[c]) == dst {
			ck.good[i] = true
			queue = append(queue, int32(i))
		}
	}
	for q := 0; q < len(queue); q++ {
		t := queue[q]
		for _, f := range ck.rev[ck.revStart[t]:ck.revStart[t+1]] {
			if !ck.good[f] {
				ck.good[f] = true
				queue = append(queue, f)
			}
		}
	}
	ck.queue = queue
	for k := range srcs {
		ok := false
		for _, i := range ck.init[ck.initStart[k]:ck.initStart[k+1]] {
			ok = ok || ck.good[i]
		}
		if !ok {
			ck.noRoute += weight[k]
		}
	}
	return nil
}

// findCycle returns one cycle of the graph, or nil: an iterative depth-first
// search that stops at the first edge into a vertex still on the stack.
func findCycle(adj [][]int32) []int {
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, len(adj))
	type frame struct{ v, i int32 }
	var stack []frame
	for s := range adj {
		if colour[s] != white {
			continue
		}
		colour[s] = grey
		stack = append(stack[:0], frame{int32(s), 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if int(top.i) == len(adj[top.v]) {
				colour[top.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := adj[top.v][top.i]
			top.i++
			switch colour[w] {
			case white:
				colour[w] = grey
				stack = append(stack, frame{w, 0})
			case grey:
				k := len(stack) - 1
				for stack[k].v != w {
					k--
				}
				cycle := make([]int, 0, len(stack)-k)
				for _, f := range stack[k:] {
					cycle = append(cycle, int(f.v))
				}
				return cycle
			}
		}
	}
	return nil
}

// Routing returns the network's table routing in the form Check takes.
func (nw *Network) Routing() Routing {
	return Routing{
		Nodes:    nw.n,
		Channels: len(nw.tail),
		Ends: func(c int) (int, int) {
			return int(nw.tail[c]), int(nw.head[c])
		},
		Next: func(buf []int, _, dst, at, in int) []int {
			return nw.Next(buf, at, dst, in)
		},
		SourceFree: true,
		Parallel:   true,
	}
}
