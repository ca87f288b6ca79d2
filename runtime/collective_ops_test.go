package runtime

import "testing"

// The operations behind compare's allreduce, combine, sync and exchange on
// idle networks with latency-only links (VCT, infinite bandwidth): their
// message counts and makespans follow from the algorithms.
func TestAllreduceCombineTreeBarrierSwap(t *testing.T) {
	const L = 1e-6
	tests := []struct {
		topo     string
		args     []int
		op       string
		messages int
		makespan float64
	}{
		// reduce up then broadcast down a binomial tree: 2(P-1) messages;
		// on the chain each tree takes as long as its farthest message
		{"hypercube", []int{3}, "allreduce", 14, 6 * L},
		{"chain", []int{5}, "allreduce", 8, 8 * L},
		// recursive doubling: P log2 P messages in log2 P one-hop steps
		{"hypercube", []int{3}, "combine", 24, 3 * L},
		// not a power of two: as allreduce
		{"chain", []int{3}, "combine", 4, 4 * L},
		// a tree barrier on a hypercube too, unlike barrier's dimension exchange
		{"hypercube", []int{3}, "treebarrier", 14, 6 * L},
		{"mesh", []int{2, 2}, "treebarrier", 6, 4 * L},
		// Src and Dst at once over a full-duplex path
		{"chain", []int{4}, "swap", 2, 3 * L},
	}
	for _, tc := range tests {
		spec := basic(mustGen(t, tc.topo, tc.args...), L, 1e12)
		spec.Switching = VCT
		res := sim1(t, spec, Options{Op: tc.op, Src: Node(0)})
		if res.Messages != tc.messages || !near(res.Makespan, tc.makespan, 1e-6) || res.Deadlock {
			t.Errorf("%s%v %s: %d messages, makespan %g; want %d, %g", tc.topo, tc.args, tc.op, res.Messages, res.Makespan, tc.messages, tc.makespan)
		}
	}
}
