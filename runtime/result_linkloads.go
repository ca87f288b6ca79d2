package runtime

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
)

// LinkLoad is the traffic of one wire (one direction of a link, or the
// one shared wire of a multi-point link), averaged over runs.
type LinkLoad struct {
	Link int `json:"link"` // the link's index in the topology
	From int `json:"from"` // external node ids; To is -1 on a shared medium
	To   int `json:"to"`
	// Load is the messages the wire carried (Messages, kept under its
	// old name for parasol draw --sim-result); Bytes the bytes it
	// transmitted, headers and trailers included; Util the share of the
	// makespan it was busy transmitting.
	Load     float64 `json:"load"`
	Messages float64 `json:"messages"`
	Bytes    float64 `json:"bytes"`
	Util     float64 `json:"util"`
}

// wireFigures are one run's per-wire loads and busy shares.
type wireFigures struct {
	load  []int32
	util  []float64
	bytes []float64
}

// wireFigures copies the last run's per-wire figures.
func (s *sim) wireFigures() wireFigures {
	n := s.numWires()
	f := wireFigures{load: make([]int32, n), util: make([]float64, n), bytes: make([]float64, n)}
	for w := range s.numWires() {
		f.load[w] = s.wire(w).load
		// Busy time is bytes over bandwidth, transmission by transmission.
		f.bytes[w] = math.Round(s.wire(w).busy * s.net.linkP(w/2).Bandwidth)
		if s.last > 0 {
			f.util[w] = s.wire(w).busy / s.last
		}
	}
	return f
}

// wireSums adds up the runs' per-wire figures in run order, so that the
// result does not depend on the workers.
type wireSums struct {
	n                 *network
	ran               int
	load, util, bytes []float64
}

func (n *network) newWireSums() *wireSums {
	w := 2 * n.g.NumLinks()
	return &wireSums{n: n, load: make([]float64, w), util: make([]float64, w), bytes: make([]float64, w)}
}

func (ws *wireSums) add(f wireFigures) {
	ws.ran++
	for w := range ws.load {
		ws.load[w] += float64(f.load[w])
		ws.util[w] += f.util[w]
		ws.bytes[w] += f.bytes[w]
	}
}

// linkLoads averages the runs' per-wire figures over the runs that ran.
func (n *network) linkLoads(runs []wireFigures) []LinkLoad {
	ws := n.newWireSums()
	for i := range runs {
		if runs[i].load != nil {
			ws.add(runs[i])
		}
	}
	return ws.loads()
}

// loads averages the sums over the runs; the unused second wire of a
// multi-point link is left out.
func (ws *wireSums) loads() []LinkLoad {
	g := ws.n.g
	out := make([]LinkLoad, 0, 2*g.NumLinks())
	for w := range 2 * g.NumLinks() {
		from, to, ok := ws.n.wireEnds(w)
		if !ok {
			continue
		}
		ll := LinkLoad{Link: w / 2, From: from, To: to, Load: ws.load[w], Util: ws.util[w], Bytes: ws.bytes[w]}
		if ws.ran > 0 {
			ll.Load /= float64(ws.ran)
			ll.Util /= float64(ws.ran)
			ll.Bytes /= float64(ws.ran)
		}
		ll.Messages = ll.Load
		out = append(out, ll)
	}
	return out
}

// wireEnds is where wire w goes, as external node ids (to is -1 on a
// shared medium); not ok for the unused second wire of a multi-point link.
func (n *network) wireEnds(w int) (from, to int, ok bool) {
	g := n.g
	k := g.Link(int32(w / 2))
	switch {
	case k.Multi || k.B < 0:
		return g.ID(k.A), -1, w%2 == 0
	case w%2 == 0:
		return g.ID(k.A), g.ID(k.B), true
	default:
		return g.ID(k.B), g.ID(k.A), true
	}
}

// linkLoadBytes is what keeping one wire's figures costs per run.
const linkLoadBytes = 4 + 8 + 8

// checkLinkLoadBudget adds the wire figures of the runs held at once (kept
// of them), their sums and the result's Links to need and checks the total
// against the limit.
func (n *network) checkLinkLoadBudget(need int64, runs, kept int, maxMemory int64) (int64, error) {
	wires := 2 * int64(n.g.NumLinks())
	perRun := limits.Add(limits.Mul(wires, linkLoadBytes), int64(unsafe.Sizeof(wireFigures{})))
	more := limits.Add(limits.Mul(int64(kept), perRun), limits.Mul(wires, 3*8+int64(unsafe.Sizeof(LinkLoad{}))))
	need = limits.Add(need, more)
	what := fmt.Sprintf("per-link loads of %d wire%s over %d run%s", wires, plural(wires), runs, plural(int64(runs)))
	return need, limits.Check(what, need, maxMemory)
}
