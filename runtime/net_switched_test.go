package runtime

import (
	"context"
	"strings"
	"testing"
)

// TestSwitchedGraphsRouteByTable: the switched generators' graphs
// (processors hanging off generated switches) have no routing rule yet,
// so they are routed by shortest-path tables, every processor pair
// reached by a minimal path; one too large for tables is refused naming
// the generator call, not as an irregular graph.
func TestSwitchedGraphsRouteByTable(t *testing.T) {
	for _, c := range []struct {
		name string
		args []int
		hops int // the most links a message crosses: the diameter
	}{
		{"fattree", []int{2, 3}, 6},
		{"xgft", []int{2, 3, 2, 1, 2}, 4},
		{"dragonfly", []int{1, 2, 1, 3}, 5},
		{"flatfly", []int{3, 2, 2}, 4},
		{"hyperx", []int{2, 2, 3}, 4},
	} {
		g := mustGen(t, c.name, c.args...)
		r := sim1(t, basic(g, 1e-9, 1e9), Options{Op: "alltoall", Size: 64, Seed: 1})
		if P := g.NumProcs(); r.Messages != P*(P-1) || r.Hops.Max != c.hops {
			t.Errorf("%s%v: %d messages over at most %d links, want %d over %d", c.name, c.args, r.Messages, r.Hops.Max, P*(P-1), c.hops)
		}
	}
	g := mustGen(t, "dragonfly", 8, 16, 8, 129)
	_, err := Simulate(context.Background(), basic(g, 1e-9, 1e9), Options{Op: "randperm", Size: 64, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "a 18576-node dragonfly(8, 16, 8, 129) is too large for routing tables") {
		t.Errorf("a dragonfly of 16,512 processors: %v", err)
	}
}
