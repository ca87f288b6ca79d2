package acyclic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

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
	// Group, if set, puts each node in a group (any int) such that Next
	// at a node outside dst's group reads dst only through its group:
	// Next(buf, src, d, at, in) is the same for every d of one group
	// other than at's. Check then explores the states outside a group
	// once for all its destinations and only the states inside it for
	// each (a dragonfly's routes to a group run alike until they enter
	// it), with the same report as without Group. It needs SourceFree.
	Group func(node int) int
	// Parallel says Ends and Next are safe for concurrent use; Check then
	// spreads the destinations over the CPUs.
	Parallel bool
	// Context, if set, stops the check when it is cancelled; Check then
	// returns the context's error.
	Context context.Context
	// Progress, if set, is called (from one goroutine at a time) as each
	// destination has been explored, with the number done and the total.
	Progress func(done, total int)
	// MaxBytes, if positive, bounds the walks' transitions, every
	// worker's together (4 bytes each, grown by doubling), and then the
	// list of the dependencies (4 bytes each): the parts of Check's memory
	// that the channels do not bound, as a state has as many as Next
	// offers. Check stops with a *MemoryError before it would take more.
	// The rest is about ChannelBytes a channel a worker.
	MaxBytes int64
	// Copies, if above 1, says the channels are Copies copies of
	// Channels/Copies real ones, channel c of copy k numbered
	// k·Channels/Copies + c: several routings whose packets share the real
	// channels, each packet keeping to its routing's copy (Next offers a
	// source the first channels of every copy and from a channel only
	// channels of its copy). The dependency graph Check reports, its
	// cycle and Dependencies are then over the real channels: the union
	// of the routings' graphs, which can cycle where none does alone.
	Copies int
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
	// CycleCopies gives, with Routing.Copies above 1, for each edge
	// Cycle[i] → Cycle[i+1] (the last to the first) the lowest copy whose
	// routing has that dependency: which routing's packet holds Cycle[i]
	// while it waits for the next.
	CycleCopies []int
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

// MaskedOut is the most channels leaving a node for which Check keeps each
// worker's dependencies as bits (MaskedOut/8 bytes a channel), else as
// lists: a set bit costs nothing to test, where a list is searched for
// every dependency recorded.
const MaskedOut = 256

// MemoryError is Check's refusal to go past Routing.MaxBytes: to grow a
// walk to Count transitions (Bytes: every worker's walks with them) or to
// list Count dependencies, 4 bytes each.
type MemoryError struct {
	What                string // "transitions" (a walk's) or "dependencies"
	Count, Bytes, Limit int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%d %s would take %d bytes, past the bound of %d", e.Count, e.What, e.Bytes, e.Limit)
}

// ChannelBytes is about what Check takes a channel for each worker
// (Routing.Parallel: one a CPU), besides the walks' transitions
// (MaxBytes) and the merged dependencies: a stamp and a local index, the
// dependency bits (MaskedOut of them at most), and two walks' states
// (a channel is a state of a walk at most once) with their first
// transitions, goodness and spread's search.
const ChannelBytes = 4 + 4 + MaskedOut/8 + 2*(4+4+1+4+4+4+8)

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
	if r.Group != nil && !r.SourceFree {
		return Report{}, fmt.Errorf("%w: Group needs SourceFree", ErrRouting)
	}
	if r.Copies < 0 || r.Copies > 1 && r.Channels%r.Copies != 0 {
		return Report{}, fmt.Errorf("%w: %d channels are not %d copies", ErrRouting, r.Channels, r.Copies)
	}
	// With Group, the work items are the groups of endpoints (each a list
	// of indices into ends), in order of their first endpoint.
	var grp []int32
	var items [][]int
	if r.Group != nil {
		grp = make([]int32, r.Nodes)
		dense := map[int]int32{}
		for v := range grp {
			k := r.Group(v)
			d, ok := dense[k]
			if !ok {
				d = int32(len(dense))
				dense[k] = d
			}
			grp[v] = d
		}
		at := make(map[int32]int, len(dense))
		for i, v := range ends {
			k, ok := at[grp[v]]
			if !ok {
				k = len(items)
				at[grp[v]] = k
				items = append(items, nil)
			}
			items[k] = append(items[k], i)
		}
	}
	weight := func(i int) int {
		if r.Weights == nil {
			return 1
		}
		return r.Weights[i]
	}
	// Dependencies c → d are kept as a bit per d among the channels leaving
	// head(c) (words 64-bit words a channel) when no node has more than
	// MaskedOut of them, else as lists.
	outIdx := make([]int32, r.Channels)
	outN := make([]int32, r.Nodes)
	for c, v := range tail {
		outIdx[c] = outN[v]
		outN[v]++
	}
	maxOut := int(slices.Max(append(outN, 0)))
	useMask := maxOut <= MaskedOut
	words := (maxOut + 63) / 64
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
		budget     *atomic.Int64
	)
	if r.MaxBytes > 0 {
		budget = new(atomic.Int64)
	}
	reported := func() {
		if r.Progress != nil {
			progressMu.Lock()
			explored++
			r.Progress(explored, len(ends))
			progressMu.Unlock()
		}
	}
	newChecker := func() *checker {
		ck := &checker{r: r, tail: tail, head: head, outIdx: outIdx, grp: grp, words: words, budget: budget,
			stamp: make([]uint32, r.Channels), local: make([]int32, r.Channels),
			srcs: make([]int, 0, len(ends))}
		if useMask {
			ck.mask = make([]uint64, r.Channels*words)
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
	count := func(ck *checker, n int) error {
		if r.MaxSteps > 0 {
			stepsMu.Lock()
			defer stepsMu.Unlock()
			steps += ck.steps
			ck.steps = 0
			done += n
			if steps > r.MaxSteps {
				return &StepsError{Steps: steps, Done: done, Total: len(ends)}
			}
		}
		return nil
	}
	var err error
	if items != nil {
		err = workers.For(ctx, nworkers, len(items), newChecker, func(_ context.Context, ck *checker, i int) error {
			if err := ck.exploreGroup(items[i], ends, weight, reported); err != nil {
				return err
			}
			return count(ck, len(items[i]))
		})
	} else {
		err = workers.For(ctx, nworkers, len(ends), newChecker, func(_ context.Context, ck *checker, i int) error {
			dst := ends[i]
			srcs, ws := ck.srcs[:0], ck.srcW[:0]
			if r.SourceFree {
				for j, s := range ends {
					if s != dst {
						srcs = append(srcs, s)
						ws = append(ws, weight(j)*weight(i))
					}
				}
				if err := ck.explore(&ck.w, dst, srcs, ws); err != nil {
					return err
				}
			} else {
				for j, s := range ends {
					if s == dst {
						continue
					}
					if err := ck.explore(&ck.w, dst, append(srcs[:0], s), append(ws[:0], weight(j)*weight(i))); err != nil {
						return err
					}
				}
			}
			ck.srcs, ck.srcW = srcs, ws
			reported()
			return count(ck, 1)
		})
	}
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
		// The workers' bits merged into the first's, counted, then listed
		// in one array, which the walks' room is given back for.
		byTail := make([][]int32, r.Nodes)
		for c, v := range tail {
			byTail[v] = append(byTail[v], int32(c))
		}
		mask := cks[0].mask
		total := 0
		for i := range mask {
			for _, ck := range cks[1:] {
				mask[i] |= ck.mask[i]
			}
			total += bits.OnesCount64(mask[i])
		}
		for _, ck := range cks {
			ck.w, ck.in = walk{}, walk{}
		}
		if r.MaxBytes > 0 && 4*int64(total) > r.MaxBytes {
			return Report{}, &MemoryError{What: "dependencies", Count: int64(total), Bytes: 4 * int64(total), Limit: r.MaxBytes}
		}
		flat := make([]int32, 0, total)
		for c := range deps {
			out, k0 := byTail[head[c]], len(flat)
			for k, m := range mask[c*words : (c+1)*words] {
				for ; m != 0; m &= m - 1 {
					flat = append(flat, out[64*k+bits.TrailingZeros64(m)])
				}
			}
			deps[c] = flat[k0:len(flat):len(flat)]
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
	all := deps
	if r.Copies > 1 {
		deps = realDeps(deps, r.Copies)
	}
	for _, d := range deps {
		rep.Dependencies += len(d)
	}
	rep.Connected = rep.PairsWithoutRoute == 0
	rep.Cycle = findCycle(deps)
	rep.Acyclic = rep.Cycle == nil
	if r.Copies > 1 && rep.Cycle != nil {
		rep.CycleCopies = cycleCopies(all, rep.Cycle, r.Copies)
	}
	return rep, nil
}

// realDeps projects the dependencies among copies' channels (sorted lists)
// onto the real channels (Routing.Copies): c → d for every copy's
// c → d, sorted.
func realDeps(all [][]int32, copies int) [][]int32 {
	n := len(all) / copies
	deps := make([][]int32, n)
	for c, ds := range all {
		for _, d := range ds {
			deps[c%n] = append(deps[c%n], d%int32(n))
		}
	}
	for c, d := range deps {
		slices.Sort(d)
		deps[c] = slices.Compact(d)
	}
	return deps
}

// cycleCopies returns, for each edge of cycle (real channels), the lowest
// copy among all's whose dependencies include it.
func cycleCopies(all [][]int32, cycle []int, copies int) []int {
	n := len(all) / copies
	out := make([]int, len(cycle))
	for i, c := range cycle {
		d := int32(cycle[(i+1)%len(cycle)])
		for k := range copies {
			if _, ok := slices.BinarySearch(all[k*n+c], d+int32(k*n)); ok {
				out[i] = k
				break
			}
		}
	}
	return out
}

type checker struct {
	r          Routing
	tail, head []int32
	grp        []int32       // dense group of each node (Routing.Group), or nil
	outIdx     []int32       // index of each channel among those leaving its tail
	words      int           // mask's words a channel
	budget     *atomic.Int64 // the walks' transitions' bytes, every worker's (MaxBytes), or nil
	mask       []uint64      // dependencies as bits over head(c)'s channels, or
	deps       [][]int32     // as lists
	deadEnds   int
	noRoute    int

	// Per walk, reused: visited channels get stamp == epoch and a local
	// index into the walk's states.
	epoch   uint32
	stamp   []uint32
	local   []int32
	w, in   walk    // a destination's walk (with Group: outside a group), and inside it
	entries []int32 // with Group: w's states that enter the group
	buf     []int
	srcs    []int   // the sources of one destination's walk
	srcW    []int   // the pairs each source's stands for
	steps   float64 // states explored since the last count (MaxSteps)
}

// walk is one exploration: the channels (states) reached, in order, and
// the transitions out of each (to[out[q]:out[q+1]] leave state q), which
// lead to the destination (good) and the scratch of spread's search.
type walk struct {
	states    []int32
	out       []int32 // per state, its first transition; one more at the end
	to        []int32 // transitions' targets, as local indices
	initStart []int32 // init[initStart[k]:initStart[k+1]]: source k's first states
	init      []int32
	good      []bool
	order     []int32 // spread: each state's visit number (0: unvisited)
	low       []int32 // spread: the lowest visit number it reaches on the stack; 0 once its component is found
	stack     []int32 // spread: the states of the components being found
	frames    []frame // spread: the depth-first search's path
}

// frame is a state on spread's search path and its next transition.
type frame struct{ q, next int32 }

// start begins a new walk on w: every channel unvisited.
func (ck *checker) start(w *walk) {
	ck.epoch++
	if ck.epoch == 0 { // wrapped: forget all stamps
		clear(ck.stamp)
		ck.epoch = 1
	}
	w.states, w.out, w.to = w.states[:0], w.out[:0], w.to[:0]
	w.initStart, w.init = append(w.initStart[:0], 0), w.init[:0]
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

// visit returns the local index of channel c in walk w, adding it if new.
func (ck *checker) visit(w *walk, c int32) int32 {
	if ck.stamp[c] == ck.epoch {
		return ck.local[c]
	}
	ck.stamp[c] = ck.epoch
	ck.local[c] = int32(len(w.states))
	w.states = append(w.states, c)
	return ck.local[c]
}

// first adds source s's first channels toward dst to walk w as its next
// source's initial states.
func (ck *checker) first(w *walk, s, dst int) error {
	first, err := ck.next(s, dst, s, Local)
	if err != nil {
		return err
	}
	for _, c := range first {
		w.init = append(w.init, ck.visit(w, int32(c)))
	}
	w.initStart = append(w.initStart, int32(len(w.init)))
	return nil
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

// addDeps records the dependencies of channel a on each of bs.
func (ck *checker) addDeps(a int32, bs []int) {
	if ck.mask != nil {
		m := ck.mask[int(a)*ck.words : int(a+1)*ck.words]
		for _, b := range bs {
			i := ck.outIdx[b]
			m[i>>6] |= 1 << (i & 63)
		}
		return
	}
next:
	for _, b := range bs {
		for _, x := range ck.deps[a] {
			if x == int32(b) {
				continue next
			}
		}
		ck.deps[a] = append(ck.deps[a], int32(b))
	}
}

// expand follows walk w's states from index q on toward dst, recording
// dependencies and transitions, and returns the dead ends (states where
// Next offers nothing). It leaves unexpanded a state at dst and, with stop
// set, one that stop says to (it is not called at dst).
func (ck *checker) expand(w *walk, q, src, dst int, stop func(c int32) bool) (int, error) {
	dead := 0
	for ; q < len(w.states); q++ {
		w.out = append(w.out, int32(len(w.to)))
		c := w.states[q]
		at := int(ck.head[c])
		if at == dst || stop != nil && stop(c) {
			continue
		}
		nx, err := ck.next(src, dst, at, int(c))
		if err != nil {
			return 0, err
		}
		if len(nx) == 0 {
			dead++
		}
		ck.addDeps(c, nx)
		if len(w.to)+len(nx) > cap(w.to) {
			if err := ck.grow(w, len(nx)); err != nil {
				return 0, err
			}
		}
		for _, d := range nx {
			w.to = append(w.to, ck.visit(w, int32(d)))
		}
	}
	w.out = append(w.out, int32(len(w.to)))
	return dead, nil
}

// grow makes room in w's transitions for n more, doubling them, within
// Routing.MaxBytes: the transitions are the walk's one part that the
// channels do not bound (a state offers as many as Next gives), so their
// bytes, every worker's together, are counted as they grow.
func (ck *checker) grow(w *walk, n int) error {
	c := max(2*cap(w.to), len(w.to)+n, 1024)
	if ck.budget != nil {
		add := 4 * int64(c-cap(w.to))
		if used := ck.budget.Add(add); used > ck.r.MaxBytes {
			ck.budget.Add(-add)
			return &MemoryError{What: "transitions", Count: int64(len(w.to) + n), Bytes: used, Limit: ck.r.MaxBytes}
		}
	}
	to := make([]int32, len(w.to), c)
	copy(to, w.to)
	w.to = to
	return nil
}

// spread marks good every state of w from which a good one is reached,
// following the transitions forward (no reverse index), from the last
// state back: a state with a transition to one already good is good (most
// are, as the states were reached breadth first); from one with none,
// Tarjan's search for strongly connected components, in which goodness
// passes from a state to the one it was searched from and from a state
// done (final) to any with a transition into it, so a component's root,
// which every member was searched from, is good when a member is or a
// transition leaves it for a good state, and then so is every member.
func (w *walk) spread() {
	ns := len(w.states)
	w.order, w.low = resize(w.order, ns), resize(w.low, ns)
	stack, frames := w.stack[:0], w.frames[:0]
	n := int32(0)
	for r := int32(ns) - 1; r >= 0; r-- {
		if w.order[r] != 0 {
			continue
		}
		n++
		// Most states, taken from the last back (they were reached in
		// breadth-first order), have a transition to one already good:
		// good, and done, with no search.
		for _, t := range w.to[w.out[r]:w.out[r+1]] {
			if w.good[t] {
				w.good[r] = true
				break
			}
		}
		if w.good[r] {
			w.order[r] = n
			continue
		}
		w.order[r], w.low[r] = n, n
		stack = append(stack, r)
		frames = append(frames, frame{r, w.out[r]})
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			q := f.q
			if f.next < w.out[q+1] {
				t := w.to[f.next]
				f.next++
				switch {
				case w.good[t]: // q is good, whatever t's component
					w.good[q] = true
				case w.order[t] == 0:
					n++
					w.order[t], w.low[t] = n, n
					stack = append(stack, t)
					frames = append(frames, frame{t, w.out[t]})
				case w.low[t] > 0: // on the stack: t is in q's component
					w.low[q] = min(w.low[q], w.order[t])
				default: // in a component found before: final
					w.good[q] = w.good[q] || w.good[t]
				}
				continue
			}
			frames = frames[:len(frames)-1]
			if w.low[q] == w.order[q] {
				// q roots a component, the states above it on the stack,
				// all searched from q, which their goodness has reached.
				k := len(stack) - 1
				for stack[k] != q {
					k--
				}
				for _, m := range stack[k:] {
					w.good[m], w.low[m] = w.good[q], 0
				}
				stack = stack[:k]
			}
			if len(frames) > 0 {
				p := frames[len(frames)-1].q
				if w.low[q] > 0 { // q's component is p's, not found yet
					w.low[p] = min(w.low[p], w.low[q])
				}
				w.good[p] = w.good[p] || w.good[q]
			}
		}
	}
	w.stack, w.frames = stack, frames
}

// reaches tells whether source k of walk w has a good first state.
func (w *walk) reaches(k int) bool {
	for _, i := range w.init[w.initStart[k]:w.initStart[k+1]] {
		if w.good[i] {
			return true
		}
	}
	return false
}

// explore follows every route to dst from the given sources on walk w,
// recording dependencies, dead ends and the sources that cannot reach dst
// (counting weight[k] pairs for srcs[k]).
func (ck *checker) explore(w *walk, dst int, srcs, weight []int) error {
	if len(srcs) == 0 {
		return nil
	}
	ck.start(w)
	for _, s := range srcs {
		if err := ck.first(w, s, dst); err != nil {
			return err
		}
	}
	// For SourceFree routing any source will do.
	dead, err := ck.expand(w, 0, srcs[0], dst, nil)
	if err != nil {
		return err
	}
	ck.finish(w, dead, dst)
	for k := range srcs {
		if !w.reaches(k) {
			ck.noRoute += weight[k]
		}
	}
	return nil
}

// exploreGroup does what explore does toward each destination of one
// group (dsts, indices into ends; Routing.Group), calling done after each.
// Toward any of them, the states outside the group are reached from the
// sources outside it and routed alike, so one walk (ck.w) follows them
// for all, stopping at the channels that enter the group (ck.entries);
// for each destination a second walk (ck.in) follows the states inside
// the group from those channels and the group's own sources. A state
// outside leads to the destination if it reaches an entry that does, so
// when every entry does, the sources outside without a route are those
// that reach no entry at all (found once). Should a route leave the group
// again, that destination is explored in full instead.
func (ck *checker) exploreGroup(dsts, ends []int, weight func(int) int, done func()) error {
	G := ck.grp[ends[dsts[0]]]
	out := &ck.w
	outside := func(c int32) bool { return ck.grp[ck.head[c]] != G }
	srcs := ck.srcs[:0] // indices into ends
	for j, s := range ends {
		if ck.grp[s] != G {
			srcs = append(srcs, j)
		}
	}
	ck.srcs = srcs
	ck.start(out)
	t0 := ends[dsts[0]]
	for _, j := range srcs {
		if err := ck.first(out, ends[j], t0); err != nil {
			return err
		}
	}
	src := -1 // any source, as Next's src (SourceFree)
	if len(srcs) > 0 {
		src = ends[srcs[0]]
	}
	outDead, err := ck.expand(out, 0, src, t0, func(c int32) bool { return !outside(c) })
	if err != nil {
		return err
	}
	ck.steps += float64(len(out.states))
	ck.entries = ck.entries[:0]
	for i, c := range out.states {
		if !outside(c) {
			ck.entries = append(ck.entries, int32(i))
		}
	}
	out.good = resize(out.good, len(out.states))
	for _, e := range ck.entries {
		out.good[e] = true
	}
	out.spread()
	// The sources outside with no route to any entry, as pairs a
	// destination counts when every entry leads to it.
	lost := 0
	for k, j := range srcs {
		if !out.reaches(k) {
			lost += weight(j)
		}
	}
	in := &ck.in
	for _, ti := range dsts {
		t := ends[ti]
		full, err := ck.inside(ti, t, src, dsts, ends, outside)
		if err != nil {
			return err
		}
		if full {
			// A route left the group: every source in full.
			var all, ws []int
			for j, s := range ends {
				if s != t {
					all = append(all, s)
					ws = append(ws, weight(j)*weight(ti))
				}
			}
			if err := ck.explore(in, t, all, ws); err != nil {
				return err
			}
			done()
			continue
		}
		ck.deadEnds += outDead
		// in's first states are the entries, in order.
		every := true
		for k := range ck.entries {
			every = every && in.good[k]
		}
		if every {
			ck.noRoute += lost * weight(ti)
		} else {
			clear(out.good)
			for k, e := range ck.entries {
				out.good[e] = in.good[k]
			}
			out.spread()
			for k, j := range srcs {
				if !out.reaches(k) {
					ck.noRoute += weight(j) * weight(ti)
				}
			}
		}
		k := 0
		for _, j := range dsts {
			if j != ti {
				if !in.reaches(k) {
					ck.noRoute += weight(j) * weight(ti)
				}
				k++
			}
		}
		done()
	}
	return nil
}

// inside walks (ck.in) the states inside t's group toward t (endpoint
// ti): from the entries of the walk outside it and from the group's
// other endpoints (dsts). It reports full, with nothing counted, when a
// route leaves the group (then the walk outside does not stand for it).
func (ck *checker) inside(ti, t, src int, dsts, ends []int, outside func(c int32) bool) (full bool, err error) {
	in, out := &ck.in, &ck.w
	ck.start(in)
	for _, e := range ck.entries {
		ck.visit(in, out.states[e])
	}
	for _, j := range dsts {
		if j != ti {
			if err := ck.first(in, ends[j], t); err != nil {
				return false, err
			}
			if src < 0 {
				src = ends[j]
			}
		}
	}
	if src < 0 {
		return false, nil // t is the only endpoint
	}
	left := false
	dead, err := ck.expand(in, 0, src, t, func(c int32) bool {
		left = left || outside(c)
		return left
	})
	if err != nil || left {
		return left, err
	}
	ck.finish(in, dead, t)
	return false, nil
}

// finish counts walk w's dead ends and states and marks good the states
// that lead to dst, backwards over the transitions.
func (ck *checker) finish(w *walk, dead, dst int) {
	ck.deadEnds += dead
	ck.steps += float64(len(w.states))
	w.good = resize(w.good, len(w.states))
	for i, c := range w.states {
		w.good[i] = int(ck.head[c]) == dst
	}
	w.spread()
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
