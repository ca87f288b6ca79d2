package runtime

import "testing"

// The score-based adaptive routings break ties at random (seed 003
// §2.4.2) with the run's generator: on an idle 4-node hypercube both
// minimal first links from 0 to 3 are equally good, so over seeds both
// are taken, and a seed always takes the same one.
func TestAdaptiveTiesRandom(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 2), 1e-8, 1e8)
	for _, r := range []string{"least-used", "quiet", "short-queue", "first-ready"} {
		first := func(seed uint64) int32 { // the node 0 -> 3 went through
			s, res := runOnce(t, spec, Options{Op: "send", Src: Node(0), Dst: Node(3), Size: 32, Seed: seed, Routing: r})
			if len(res.lat) != 1 {
				t.Fatalf("%s: %d messages", r, len(res.lat))
			}
			for _, a := range s.net.g.Adj(0) {
				if s.wire(s.net.wire(a.Link, 0)).load > 0 {
					return a.Node
				}
			}
			t.Fatalf("%s: no load out of node 0", r)
			return -1
		}
		seen := map[int32]int{}
		for seed := range uint64(40) {
			v := first(seed)
			seen[v]++
			if w := first(seed); w != v {
				t.Fatalf("%s seed %d: via %d, then via %d", r, seed, v, w)
			}
		}
		if len(seen) != 2 {
			t.Errorf("%s: first hops over 40 seeds %v, want both 1 and 2", r, seen)
		}
	}
}
