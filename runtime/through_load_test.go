package runtime

import (
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// A processor's through-routed load counts the messages that pass through
// it, whichever link they leave by: a bus (whose wire every member sends
// on) is credited to the member sending, not the bus's first member, and
// an I/O link of one member is no node's. Scatter from 0 on 0–1, a bus of
// 2, 1 and 3, 2–4 and an I/O link at 4: node 1 passes on the messages to
// 2, 3 and 4 (two of them by the bus), node 2 the one to 4.
func TestThroughLoadCountsTheNodePassedThrough(t *testing.T) {
	b := topo.NewBuilder()
	for v := range 5 {
		b.Processor(v)
	}
	g, err := b.Link(topo.LinkSpec{Members: []int{0, 1}, Dim: -1}).
		Link(topo.LinkSpec{Members: []int{2, 1, 3}, Dim: -1}).
		Link(topo.LinkSpec{Members: []int{2, 4}, Dim: -1}).
		Link(topo.LinkSpec{Members: []int{4}, Dim: -1, IO: true}).Build()
	if err != nil {
		t.Fatal(err)
	}
	res := sim1(t, basic(g, 1e-6, 1e6), Options{Op: "scatter", Size: 100, Src: Node(0)})
	if res.Messages != 4 || res.ProcLoadMax != 3 {
		t.Errorf("%d messages, busiest processor passed on %d, want 4 and 3", res.Messages, res.ProcLoadMax)
	}
}
