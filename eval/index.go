package eval

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Derived indexes are names every machine answers from its topology (the
// first, or the one WithTopology chose)
// (seed 002 §1: combinations at machine level; seed 001/003: distances).
type indexFn struct {
	doc string
	// fn computes the index, or says why it has no value ("" when it has).
	fn func(t *Topology) (lang.Value, string)
	// exact, for an index whose figure may be a bound, says whether it is
	// exact on t (see Uses); nil for indexes that are always exact.
	exact func(t *Topology) bool
}

// count is an index that always has a value.
func count(f func(t *Topology) int) func(t *Topology) (lang.Value, string) {
	return func(t *Topology) (lang.Value, string) { return lang.Num(float64(f(t))), "" }
}

// distance is an index over processor-to-processor distances, which a
// disconnected topology does not have (its diameter is no number of hops),
// and which a large irregular one may be too costly to measure: topo says
// which, and the index's error says it at the reference.
func distance(name string, f func(m topo.Metrics) float64) func(t *Topology) (lang.Value, string) {
	return func(t *Topology) (lang.Value, string) {
		m := t.Metrics()
		var disc *topo.Disconnected
		switch {
		case errors.As(m.Err, &disc):
			return lang.Value{}, fmt.Sprintf("%s: topology %s is disconnected: nodes %d and %d are not connected", name, t.Label, disc.From, disc.To)
		case m.Err != nil:
			return lang.Value{}, fmt.Sprintf("%s of topology %s: %v", name, t.Label, m.Err)
		}
		return lang.Num(f(m)), ""
	}
}

var indexes = map[string]indexFn{
	"diameter": {doc: "largest processor-to-processor distance in hops (D)",
		fn: distance("diameter", func(m topo.Metrics) float64 { return float64(m.Diameter) })},
	"avgdist": {doc: "mean distance over ordered pairs of distinct processors (μ)",
		fn: distance("avgdist", func(m topo.Metrics) float64 { return m.AvgDistance })},
	"bisection": {doc: "links cut by the best balanced split of the processors (exact where it can be computed, else an upper bound, which eval notes)",
		fn:    count(func(t *Topology) int { return t.Metrics().Bisection }),
		exact: func(t *Topology) bool { return t.Metrics().BisectionExact }},
	"nodes":    {doc: "processors in the topology", fn: count(func(t *Topology) int { return t.Graph.NumProcs() })},
	"switches": {doc: "switch nodes in the topology", fn: count(func(t *Topology) int { return t.Graph.N() - t.Graph.NumProcs() })},
	"links":    {doc: "links in the topology", fn: count(func(t *Topology) int { return t.Graph.NumLinks() })},
	"maxtotalspeed": {doc: "sum of the processors' maximum transfer rates (seed 002 §1, after Markatos)", fn: func(t *Topology) (lang.Value, string) {
		if s := t.MaxTotalSpeed(); finite(s) {
			return lang.Quantity(s, lang.RateDim), ""
		}
		return lang.Value{}, "overflow: maxtotalspeed is beyond the largest rate (about 1.8e308 B/s)"
	}},
}

// MaxTotalSpeed is the sum over processors of the rate at which each can
// move data over all its links at once.
func (t *Topology) MaxTotalSpeed() float64 {
	g := t.Graph
	total := 0.0
	for l := int32(0); l < int32(g.NumLinks()); l++ {
		lk := g.Link(l)
		rate := t.LinkSpeed(l) * float64(max(lk.Channels, 1))
		for _, v := range g.Members(l) {
			if g.NodeKind(v) == topo.Processor {
				total += rate
			}
		}
	}
	return total
}

func (c *compiler) index(id *lang.Ident, ix indexFn) (cexpr, error) {
	t, err := c.m.mainTopology(id.Pos)
	if err != nil {
		return cexpr{}, err
	}
	v, msg := ix.fn(t)
	if msg != "" {
		return cexpr{}, lang.Errorf(id.Pos, "%s", msg)
	}
	return constant(v), nil
}

// mainTopology realizes the topologies if that has not happened yet (an
// index used while loading) and returns the machine's topology: the one
// WithTopology chose, else the first.
func (m *Machine) mainTopology(pos lang.Pos) (*Topology, error) {
	switch m.topoState {
	case 0:
		m.realizeTopologies()
	case 1:
		return nil, lang.Errorf(pos, "a topology cannot depend on a derived index of itself")
	}
	if t, err := m.Topology(""); err == nil {
		return t, nil
	}
	// The topology failed to build (reported) or the machine has none.
	return nil, depOr(lang.Errorf(pos, "machine %q has no topology to measure", m.name), len(m.root.childrenOf("topology")) > 0)
}

// depOr marks err as already reported when the cause was (a topology that
// failed to build).
func depOr(err error, reported bool) error {
	if reported {
		return depError{err}
	}
	return err
}

// Hops is the distance in hops between two node ids; ok is false when one
// is no node of the topology, and the distance is -1 when no path joins
// them.
func (t *Topology) Hops(a, b int) (d int, ok bool) {
	g := t.Graph
	u, ok1 := g.Index(a)
	v, ok2 := g.Index(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	if d, ok := g.RuleDist(u, v); ok {
		return d, true
	}
	t.distOnce.Do(func() {
		if g.N() <= 4096 {
			t.dist = make([][]int32, g.N())
		}
	})
	if t.dist == nil {
		return int(g.BFS(u)[v]), true
	}
	t.distMu.Lock()
	row := t.dist[u]
	if row == nil {
		row = g.BFS(u)
		t.dist[u] = row
	}
	t.distMu.Unlock()
	return int(row[v]), true
}

// hopsCache is embedded in Topology for Hops on irregular graphs.
type hopsCache struct {
	distOnce sync.Once
	distMu   sync.Mutex
	dist     [][]int32
}

func init() {
	builtins["hops"] = builtinFn{arity: 2} // compiled specially: needs the machine
}

// hopsCall compiles hops(a, b) against the machine's topology.
func (c *compiler) hopsCall(e *lang.Call, sc *scope) (cexpr, error) {
	if len(e.Args) != 2 {
		return cexpr{}, lang.Errorf(e.Pos, "hops takes two node ids, got %d arguments", len(e.Args))
	}
	t, err := c.m.mainTopology(e.Pos)
	if err != nil {
		return cexpr{}, err
	}
	var runs [2]code
	var args [2]cexpr
	for i, a := range e.Args {
		x, err := c.compileCount(a, sc, "a node id")
		if err != nil {
			return x, err
		}
		runs[i], args[i] = x.run, x
	}
	pos := e.Pos
	out := cexpr{known: true, kind: lang.Number, run: func(fr *frame) lang.Value {
		a, b := runs[0](fr), runs[1](fr)
		for _, v := range [2]lang.Value{a, b} {
			// Known statically unless a function's parameter has no unit.
			if v.Kind != lang.Number || v.Dim != lang.Dimensionless || v.Num != math.Trunc(v.Num) {
				return fr.fail(pos, "hops takes whole-number node ids, got %s", v)
			}
		}
		d, ok := t.Hops(int(a.Num), int(b.Num))
		if !ok {
			return fr.fail(pos, "hops(%s, %s): no such node in topology %s", lang.FormatNumber(a.Num), lang.FormatNumber(b.Num), t.Label)
		}
		if d < 0 {
			return fr.fail(pos, "hops(%s, %s): nodes %s and %s are not connected in topology %s", lang.FormatNumber(a.Num), lang.FormatNumber(b.Num), lang.FormatNumber(a.Num), lang.FormatNumber(b.Num), t.Label)
		}
		return lang.Num(float64(d))
	}}
	return c.fold(out, args[0], args[1])
}

// compComm is a processor's computation/communication ratio (seed 002 §1:
// "ratios between arithmetic performance and communication speed"): the
// floating-point operations it completes while its links, all busy at once,
// move one byte — its float multiply rate (or add, or integer multiply)
// over its maximum transfer rate in the machine's topology. Written
// processor(P).compcomm; its unit is operations per byte (1/B).
func (c *compiler) compComm(sel *lang.Select, proc *object) (cexpr, error) {
	var op lang.Value
	found := false
	for _, path := range [][2]string{{"float_timings", "mul"}, {"float_timings", "add"}, {"integer_timings", "mul"}, {"integer_timings", "add"}} {
		if sub := proc.child(path[0], ""); sub != nil {
			if f := sub.field(path[1]); f != nil && !f.decl.IsFunc() {
				v, err := c.m.value(f, sel.Pos)
				if err != nil {
					return cexpr{}, depError{err}
				}
				op, found = v, true
				break
			}
		}
	}
	if !found || op.Kind != lang.Number || op.Dim != lang.TimeDim || op.Num <= 0 {
		return cexpr{}, lang.Errorf(sel.Pos, "%s.compcomm needs an operation time: float_timings { mul = … } (or add, or integer_timings)", proc.path())
	}
	t, err := c.m.mainTopology(sel.Pos)
	if err != nil {
		return cexpr{}, err
	}
	rate := t.maxRate(proc.label)
	if rate <= 0 {
		return cexpr{}, lang.Errorf(sel.Pos, "no node of %s has links in topology %s", proc.path(), t.Label)
	}
	r := 1 / op.Num / rate
	if !finite(r) {
		return cexpr{}, lang.Errorf(sel.Pos, "overflow: %s.compcomm = 1 / %s / %s is beyond the largest number (about 1.8e308)", proc.path(), op, lang.Quantity(rate, lang.RateDim))
	}
	return constant(lang.Quantity(r, lang.Dim{Size: -1})), nil
}

// maxRate is the largest rate at which one node of a processor type can
// move data over all its links at once.
func (t *Topology) maxRate(label string) float64 {
	g := t.Graph
	per := make(map[int32]float64)
	for l := int32(0); l < int32(g.NumLinks()); l++ {
		rate := t.LinkSpeed(l) * float64(max(g.Link(l).Channels, 1))
		for _, v := range g.Members(l) {
			if nt := t.NodeType(v); nt != nil && nt.Kind == "processor" && nt.Label == label {
				per[v] += rate
			}
		}
	}
	best := 0.0
	for _, r := range per {
		best = max(best, r)
	}
	return best
}
