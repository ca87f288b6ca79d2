package validation

import (
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

// TestEmptyMessagesTakeTime sends a message with no data from the first to
// the last processor of every standard machine: a synchronisation message
// (a barrier's) still crosses the network and is received, so it takes
// time: a machine whose packets have no header and whose processors no
// overheads would deliver it in 0 s.
func TestEmptyMessagesTakeTime(t *testing.T) {
	eachMachine(t, func(t *testing.T, name string, m *eval.Machine) {
		g := m.Topologies()[0].Graph
		first, last := g.ID(g.Proc(0)), g.ID(g.Proc(g.NumProcs()-1))
		r := sim(t, m, runtime.Options{Op: "send", Size: 0, Src: runtime.Node(first), Dst: runtime.Node(last)})
		if r.Messages != 1 || !(r.Latency.Mean > 0) {
			t.Errorf("an empty message %d → %d: %d messages, latency %g s", first, last, r.Messages, r.Latency.Mean)
		}
	})
}
