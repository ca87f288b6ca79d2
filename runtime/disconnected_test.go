package runtime

import (
	"context"
	"strings"
	"testing"
)

// TestDisconnectedMachineIsNoRouteUnderEveryRouting: on a machine whose
// processors are not all joined, every operation under every routing is
// an error saying which pair has no route (or, for acyclic routing, that
// the graph is not connected), or a result; tree routing's spanning tree
// once left the unreached nodes without a parent and indexed link -1, and
// its broadcast reached only the root's part without a word.
func TestDisconnectedMachineIsNoRouteUnderEveryRouting(t *testing.T) {
	spec := sourceSpec(t, "m.machine", `machine "m" {
	processor p {}
	topology t { node 0 .. 3 = p; link 0 -- 1 { latency = 1us; speed = 1MB/s } }
}`)
	for _, rt := range Routings() {
		for _, op := range []string{"broadcast", "allgather", "alltoall", "randperm", "scatter"} {
			_, err := Simulate(context.Background(), spec, Options{Op: op, Size: 64, Routing: rt})
			if err == nil {
				t.Errorf("%s, %s: simulated a machine with unjoined processors", rt, op)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, "no route from node") && !strings.Contains(msg, "not connected") && !strings.Contains(msg, "needs") {
				t.Errorf("%s, %s: %v", rt, op, err)
			}
		}
	}
}
