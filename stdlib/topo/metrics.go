package topo

import (
	"context"
	"fmt"
	"math/bits"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parasol-lang/parasol/internal/workers"
)

// BFS returns the hop distance from src to every node (-1 if unreachable).
// Hops count links, so a path through a switch is two hops.
func (g *Graph) BFS(src int32) []int32 {
	dist := make([]int32, g.N())
	for i := range dist {
		dist[i] = -1
	}
	g.bfsInto(src, dist, make([]int32, 0, 64))
	return dist
}

func (g *Graph) bfsInto(src int32, dist, queue []int32) []int32 {
	dist[src] = 0
	queue = append(queue[:0], src)
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for _, a := range g.Adj(u) {
			if dist[a.Node] < 0 {
				dist[a.Node] = dist[u] + 1
				queue = append(queue, a.Node)
			}
		}
	}
	return queue
}

// ProcDistances returns the hop distances from every processor to every
// node, dist[r][v] from the processor of rank r to node v (-1 if
// unreachable): the routing tables of a graph routed by table. They are
// computed once per graph, one breadth-first search per processor spread
// over the CPUs, and kept with the graph, so that they go when it does;
// they take NumProcs × N × 4 bytes, which the caller checks against its
// memory limit before asking. The tables must not be modified.
func (g *Graph) ProcDistances() [][]int32 {
	m := g.memo
	m.distOnce.Do(func() {
		dist := make([][]int32, g.NumProcs())
		_ = workers.For(context.Background(), 0, len(dist), nil, func(_ context.Context, _ struct{}, r int) error {
			dist[r] = g.BFS(g.Proc(r))
			return nil
		})
		m.dist = dist
	})
	return m.dist
}

// ShortestPath returns one shortest path from src to dst as node indices
// (the first minimal neighbour at every step), or nil if unreachable.
func (g *Graph) ShortestPath(src, dst int32) []int32 {
	dist := g.BFS(dst)
	if dist[src] < 0 {
		return nil
	}
	path := []int32{src}
	for u := src; u != dst; {
		for _, a := range g.Adj(u) {
			if dist[a.Node] == dist[u]-1 {
				u = a.Node
				break
			}
		}
		path = append(path, u)
	}
	return path
}

// RuleDist is the hop distance between nodes u and v computed from the
// graph's regular core (Core), without search; ok is false for graphs
// without a rule (explicit graphs not recognised as regular, and
// Hamiltonian graphs).
func (g *Graph) RuleDist(u, v int32) (d int, ok bool) {
	if g.core == 0 || g.ckind == Hamiltonian || g.ckind.Switched() {
		return 0, false
	}
	if g.attach != nil {
		if u == v {
			return 0, true
		}
		// An attached processor is one link from its switch.
		cu, cv := g.attach[u], g.attach[v]
		d, _ = g.coreDist(cu, cv)
		if cu != u {
			d++
		}
		if cv != v {
			d++
		}
		return d, true
	}
	return g.coreDist(u, v)
}

// coreDist is the distance between core nodes u and v by the core's rule.
func (g *Graph) coreDist(u, v int32) (d int, ok bool) {
	switch g.ckind {
	case Hypercube:
		return bits.OnesCount32(uint32(u ^ v)), true
	case Mesh, Torus:
		stride := int32(1)
		for _, k := range g.cdims {
			k32 := int32(k)
			a, b := u/stride%k32, v/stride%k32
			x := a - b
			if x < 0 {
				x = -x
			}
			if g.ckind == Torus && k32-x < x {
				x = k32 - x
			}
			d += int(x)
			stride *= k32
		}
		return d, true
	case Full:
		if u == v {
			return 0, true
		}
		return 1, true
	case Tree:
		k := int32(g.cdims[0])
		for u != v {
			if u > v {
				u = (u - 1) / k
			} else {
				v = (v - 1) / k
			}
			d++
		}
		return d, true
	}
	return 0, false
}

// Metrics are the distance-based indexes of a graph, over processors only.
type Metrics struct {
	Diameter       int     // D: largest processor-to-processor distance
	AvgDistance    float64 // μ: mean distance over ordered pairs of distinct processors
	Bisection      int     // links cut by the best balanced split of the processors found
	BisectionExact bool    // Bisection is the exact width (closed form for regular kinds); else an upper bound
	// Err, when set, is why Diameter and AvgDistance are unknown (and
	// zero): the graph is disconnected (*Disconnected), measuring it would
	// take more than the work bound (*TooMuchWork), or the context was
	// cancelled. Bisection is known regardless.
	Err error
}

// DefaultMaxWork bounds the steps (adjacency entries visited) of a
// whole-graph metric without a closed form: one breadth-first search per
// processor costs processors × (nodes + 2 × links) steps. At the default,
// about ten seconds of one core (spread over all of them).
const DefaultMaxWork = 2e9

// MetricsOptions bound and report the work of Graph.Metrics; the zero
// value measures within DefaultMaxWork, silently.
type MetricsOptions struct {
	MaxWork float64 // steps; 0 means DefaultMaxWork
	// Progress, if set, is called from the measuring goroutine every few
	// million steps with the processors searched so far and their total
	// (never for graphs measured by closed form or in a moment).
	Progress func(done, total int)
}

// Disconnected reports a pair of processors with no path between them
// (From cannot reach To; external node ids).
type Disconnected struct{ From, To int }

func (e *Disconnected) Error() string {
	return fmt.Sprintf("the graph is disconnected: node %d cannot reach node %d", e.From, e.To)
}

// TooMuchWork reports a metric skipped because it would take more steps
// than the bound.
type TooMuchWork struct {
	Metric       string // "diameter and average distance"
	Nodes        int
	Kind         Kind
	Steps, Bound float64
}

func (e *TooMuchWork) Error() string {
	from := "processor"
	if e.Kind == Dragonfly {
		from = "router"
	}
	return fmt.Sprintf("%s of a %d-node %s graph need about %s steps (a breadth-first search from each %s); the bound is %s, so they are not computed — the regular generators (hypercube, mesh, torus, ring, chain, tree, full, fattree, xgft, flatfly, hyperx) have closed forms",
		e.Metric, e.Nodes, e.Kind, Sci(e.Steps), from, Sci(e.Bound))
}

// Sci formats a large count briefly: 3.2e12, 2e9.
func Sci(x float64) string {
	m, e, _ := strings.Cut(strconv.FormatFloat(x, 'e', 1, 64), "e")
	m = strings.TrimSuffix(m, ".0")
	exp, _ := strconv.Atoi(e)
	return m + "e" + strconv.Itoa(exp)
}

// Metrics computes (once per graph) diameter, average distance and
// bisection width, within o.MaxWork. Regular kinds use closed forms, so a
// million-node torus costs nothing; other graphs use one BFS per
// processor. A result with Err set for cancellation of ctx is not cached.
func (g *Graph) Metrics(ctx context.Context, o MetricsOptions) Metrics {
	memo := g.memo
	memo.mu.Lock()
	kept := memo.metrics
	memo.mu.Unlock()
	if kept != nil {
		return *kept
	}
	// Measured without the lock, so that a caller who cancels does not
	// hold up another; two callers at once may both measure, and the
	// first to finish is kept.
	var m Metrics
	m.Diameter, m.AvgDistance, m.Err = g.distances(ctx, o)
	m.Bisection, m.BisectionExact = g.bisection()
	if m.Err == nil || ctx.Err() == nil {
		memo.mu.Lock()
		if memo.metrics == nil {
			memo.metrics = &m
		}
		memo.mu.Unlock()
	}
	return m
}

// DistanceWork is the number of steps Metrics needs for diameter and
// average distance: 0 for the kinds with closed forms.
func (g *Graph) DistanceWork() float64 {
	switch g.kind {
	case Hypercube, Mesh, Torus, Full, Tree, FatTree, XGFT, FlatFly, HyperX:
		return 0
	case Dragonfly: // a search two hops deep from each router
		deg := float64(g.off[g.core]) / float64(max(g.core, 1))
		return float64(g.core) * deg * deg
	}
	return float64(g.NumProcs()) * float64(g.N()+len(g.adj))
}

func (g *Graph) distances(ctx context.Context, o MetricsOptions) (int, float64, error) {
	n := float64(g.N())
	pairs := n * (n - 1)
	switch g.kind {
	case Hypercube:
		d := g.dims[0]
		if d == 0 {
			return 0, 0, nil
		}
		return d, n * float64(d) * n / 2 / pairs, nil
	case Mesh, Torus:
		diam, sum := 0, 0.0
		for _, k := range g.dims {
			kf := float64(k)
			per := (kf*kf*kf - kf) / 3 // sum of |a-b| over ordered pairs of a line
			if g.kind == Torus {
				per, diam = kf*float64(k*k/4), diam+k/2
			} else {
				diam += k - 1
			}
			sum += per * (n / kf) * (n / kf)
		}
		if pairs == 0 {
			return diam, 0, nil
		}
		return diam, sum / pairs, nil
	case Full:
		if g.N() == 1 {
			return 0, 0, nil
		}
		return 1, 1, nil
	case Tree:
		d, mu := g.treeDistances()
		return d, mu, nil
	case FatTree, XGFT:
		d, mu := g.xgftDistances()
		return d, mu, nil
	case FlatFly, HyperX:
		d, mu := g.hyperxDistances()
		return d, mu, nil
	}
	np := g.NumProcs()
	if np < 2 {
		return 0, 0, nil
	}
	bound := o.MaxWork
	if bound <= 0 {
		bound = DefaultMaxWork
	}
	if w := g.DistanceWork(); w > bound {
		return 0, 0, &TooMuchWork{Metric: "diameter and average distance", Nodes: g.N(), Kind: g.kind, Steps: w, Bound: bound}
	}
	if g.kind == Dragonfly {
		return g.routerDistances(ctx)
	}
	// Links are full-duplex, so one search says whether every processor
	// reaches every other.
	first := g.BFS(g.Proc(0))
	for q := range np {
		if first[g.Proc(q)] < 0 {
			return 0, 0, &Disconnected{From: g.ID(g.Proc(0)), To: g.ID(g.Proc(q))}
		}
	}
	// One search per processor, spread over the CPUs; distances are summed
	// as integers, so the result does not depend on the order. Progress is
	// reported every so many steps rather than every search, so that small
	// graphs pay nothing for it (workers.For checks the context before
	// every search, an atomic load).
	const stride = 1 << 22
	// Each worker sums over its own searches; the parts are added up at
	// the end.
	type part struct {
		dist, queue []int32
		diam        int32
		sum         int64
		steps       int // since progress was last reported
	}
	var (
		mu    sync.Mutex // guards parts and calls to o.Progress
		parts []*part
		done  atomic.Int64
	)
	newPart := func() *part {
		p := &part{dist: make([]int32, g.N()), queue: make([]int32, 0, g.N())}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
		return p
	}
	nworkers := max(1, min(goruntime.GOMAXPROCS(0), np/16))
	err := workers.For(ctx, nworkers, np, newPart, func(_ context.Context, p *part, r int) error {
		if p.steps >= stride && o.Progress != nil {
			p.steps = 0
			mu.Lock()
			o.Progress(int(done.Load()), np)
			mu.Unlock()
		}
		for i := range p.dist {
			p.dist[i] = -1
		}
		p.queue = g.bfsInto(g.Proc(r), p.dist, p.queue)
		p.steps += len(p.dist) + len(g.adj)
		for q := range np {
			d := p.dist[g.Proc(q)]
			p.diam = max(p.diam, d)
			p.sum += int64(d)
		}
		done.Add(1)
		return nil
	})
	if err != nil { // ctx is done
		return 0, 0, err
	}
	var diam int32
	var sum int64
	for _, p := range parts {
		diam, sum = max(diam, p.diam), sum+p.sum
	}
	if o.Progress != nil && g.DistanceWork() >= stride {
		o.Progress(np, np)
	}
	return int(diam), float64(sum) / float64(np) / float64(np-1), nil
}

// treeDistances sums, over every edge, the ordered pairs it separates.
func (g *Graph) treeDistances() (int, float64) {
	k, depth := g.dims[0], g.dims[1]
	n := g.N()
	if n < 2 {
		return 0, 0
	}
	size := make([]int64, n)
	sum := 0.0
	for v := n - 1; v >= 0; v-- {
		size[v]++
		if v > 0 {
			sum += 2 * float64(size[v]) * float64(int64(n)-size[v])
			size[(v-1)/k] += size[v]
		}
	}
	diam := 2 * depth
	if k == 1 {
		diam = depth
	}
	return diam, sum / float64(n) / float64(n-1)
}

// xgftDistances: two processors whose labels differ last in digit j meet
// at level j, 2j links apart, and no path is shorter (only links between
// levels j-1 and j change digit j); (m_j - 1)·m_1⋯m_(j-1) processors are
// so placed from each.
func (g *Graph) xgftDistances() (int, float64) {
	s := xgftOf(g.kind, g.dims)
	np := g.NumProcs()
	if np < 2 {
		return 0, 0
	}
	diam, sum, below := 0, 0.0, 1.0
	for j, m := range s.m {
		if m > 1 {
			diam = 2 * (j + 1)
		}
		sum += 2 * float64(j+1) * float64(m-1) * below
		below *= float64(m)
	}
	return diam, sum / float64(np-1)
}

// hyperxDistances: processors are 2 links apart on one router, else 2
// plus the coordinates in which their routers differ.
func (g *Graph) hyperxDistances() (int, float64) {
	s := hyperxOf(g.kind, g.dims)
	np := g.NumProcs()
	if np < 2 {
		return 0, 0
	}
	diam, hamming := 2, 0.0 // hamming: the mean, over all routers, of the coordinates differing from one
	for _, k := range s.sides {
		if k > 1 {
			diam++
		}
		hamming += float64(k-1) / float64(k)
	}
	routers := float64(int(g.core))
	c := float64(s.c)
	// Over ordered pairs of distinct processors: 2 each, plus the
	// routers' Hamming distance (0 on one router).
	sum := 2*float64(np)*float64(np-1) + c*c*routers*routers*hamming
	return diam, sum / float64(np) / float64(np-1)
}

// routerDistances measures a dragonfly from each router by a search over
// the routers two hops deep: every group is linked to every other, so a
// router not reached by then is three hops away (a local hop to the link
// to its group, the link, a local hop). Processors on one router are 2
// links apart, others 2 more than their routers.
func (g *Graph) routerDistances(ctx context.Context) (int, float64, error) {
	np := g.NumProcs()
	if np < 2 {
		return 0, 0, nil
	}
	R := int(g.core)
	per := make([]int64, R) // processors on each router
	for r := range np {
		per[g.attach[g.Proc(r)]]++
	}
	type part struct {
		dist, queue []int32
		diam        int32
		sum         int64
	}
	var (
		mu    sync.Mutex
		parts []*part
	)
	newPart := func() *part {
		p := &part{dist: make([]int32, R), queue: make([]int32, 0, R)}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
		return p
	}
	err := workers.For(ctx, 0, R, newPart, func(_ context.Context, p *part, src int) error {
		if per[src] == 0 {
			return nil
		}
		for i := range p.dist {
			p.dist[i] = 3
		}
		p.dist[src] = 0
		p.queue = append(p.queue[:0], int32(src))
		for i := 0; i < len(p.queue) && p.dist[p.queue[i]] < 2; i++ {
			u := p.queue[i]
			for _, a := range g.Adj(u) {
				if int(a.Node) < R && p.dist[a.Node] == 3 && a.Node != int32(src) {
					p.dist[a.Node] = p.dist[u] + 1
					p.queue = append(p.queue, a.Node)
				}
			}
		}
		for v, n := range per {
			if n == 0 || v == src && n == 1 {
				continue
			}
			d := p.dist[v]
			pairs := per[src] * n
			if v == src {
				pairs = n * (n - 1)
			}
			p.diam = max(p.diam, d+2)
			p.sum += pairs * int64(d+2)
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	var diam int32
	var sum int64
	for _, p := range parts {
		diam, sum = max(diam, p.diam), sum+p.sum
	}
	return int(diam), float64(sum) / float64(np) / float64(np-1), nil
}
