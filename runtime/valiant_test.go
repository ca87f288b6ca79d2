package runtime

import "testing"

// Valiant routing on a network of switches with processors attached
// detours through a random switch, as the C104's two-phase routing does
// (seed 000 §4, std:puma), not through a random processor, which added the
// two links into and out of that processor. On std:puma's 6-cube of
// switches, 0 → 255 (switch labels 0 and 63) crosses |X| + (6 - |X|) = 6
// switch links through any switch X, so every message takes 1 + 6 + 1 = 8
// links (10 through a processor); 0 → 1 on one switch takes 2 + 2|X|,
// 8 on average over the 64 switches (|X| averages 3), within 0.2 over
// 2000 runs (the standard error is 0.055).
func TestValiantDetoursThroughASwitch(t *testing.T) {
	spec := loadSpec(t, "std:puma")
	far := sim1(t, spec, Options{Op: "send", Size: 32, Src: Node(0), Dst: Node(255), Routing: "valiant", Runs: 200, Seed: 1})
	if far.Hops.Max != 8 || far.Hops.Mean != 8 {
		t.Errorf("valiant 0 → 255: hops mean %g, max %d; want 8 for every message", far.Hops.Mean, far.Hops.Max)
	}
	near := sim1(t, spec, Options{Op: "send", Size: 32, Src: Node(0), Dst: Node(1), Routing: "valiant", Runs: 2000, Seed: 1})
	if near.Hops.Mean < 7.8 || near.Hops.Mean > 8.2 || near.Hops.Max > 14 {
		t.Errorf("valiant 0 → 1: hops mean %g, max %d; want a mean of 8 ± 0.2 and at most 2 + 2·6 = 14", near.Hops.Mean, near.Hops.Max)
	}
}
