package runtime

import (
	"context"
	"fmt"
	"testing"
)

// TestGeneratorsAtTheirSmallestSimulateEveryOp: a generated topology with
// one node, or with a side of one, simulates every operation (a
// hypercube's or a tree's arguments are not a grid's sides, and a 0-cube
// or a depth-0 tree once divided by zero while the network compiled), and
// neighbour traffic there has no neighbour to go to rather than a rank
// outside the machine. Only the operations between two given processors
// are refused where there is one, and the dragonfly's own traffic off a
// dragonfly.
func TestGeneratorsAtTheirSmallestSimulateEveryOp(t *testing.T) {
	pairOps := map[string]bool{"send": true, "pingpong": true, "swap": true}
	for _, gen := range []string{"hypercube(0)", "hypercube(1)", "tree(2, 0)", "tree(1, 3)", "full(1)",
		"mesh(1)", "mesh(1, 4)", "torus(1, 4)", "ring(1)", "chain(1)"} {
		spec := sourceSpec(t, "m.machine", fmt.Sprintf(`machine "m" {
	processor p {}
	topology t = %s { latency = 1us; speed = 1MB/s }
}`, gen))
		one := spec.Graph.N() == 1
		for _, op := range Ops() {
			if op == advOp {
				continue
			}
			res, err := Simulate(context.Background(), spec, Options{Op: op, Size: 64})
			switch {
			case err != nil && !(one && pairOps[op]):
				t.Errorf("%s, %s: %v", gen, op, err)
			case err == nil && op == "neighbor" && (one || gen == "mesh(1, 4)" || gen == "torus(1, 4)") && res.Messages != 0:
				t.Errorf("%s, %s: %d messages, want none (no neighbour along dimension 0)", gen, op, res.Messages)
			}
		}
	}
}
