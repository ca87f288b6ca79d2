package runtime

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Seed 004 Fig. 9: on the XMP 64-node hypercube a random permutation shows
// one latency mode per hop count. ByHops lists them in ascending hop
// order, accounts for every message, agrees with the hop mean, its mean
// latency grows with the hop count, and it does not depend on the number
// of workers.
func TestByHopsXmp64(t *testing.T) {
	spec := loadSpec(t, "std:xmp64")
	opts := Options{Op: "randperm", Size: 32, Runs: 200, Seed: 4, Workers: 1}
	res := sim1(t, spec, opts)
	if len(res.ByHops) < 4 {
		t.Fatalf("by_hops %+v", res.ByHops)
	}
	n, hopSum := 0, 0
	for i, b := range res.ByHops {
		if b.Messages <= 0 || !(b.Min <= b.Mean && b.Mean <= b.Max) {
			t.Errorf("bad entry %+v", b)
		}
		if i > 0 {
			prev := res.ByHops[i-1]
			if b.Hops <= prev.Hops {
				t.Errorf("hops not ascending: %+v", res.ByHops)
			}
			if b.Mean <= prev.Mean {
				t.Errorf("mean latency does not grow with hops: %d hops %g, %d hops %g", prev.Hops, prev.Mean, b.Hops, b.Mean)
			}
		}
		n += b.Messages
		hopSum += b.Hops * b.Messages
	}
	if n != res.Messages || res.ByHops[len(res.ByHops)-1].Hops != res.Hops.Max {
		t.Errorf("by_hops counts %d messages (want %d), max hops %d (want %d)", n, res.Messages, res.ByHops[len(res.ByHops)-1].Hops, res.Hops.Max)
	}
	if mean := float64(hopSum) / float64(n); mean != res.Hops.Mean {
		t.Errorf("by_hops hop mean %g, hops.mean %g", mean, res.Hops.Mean)
	}
	a, _ := json.Marshal(res)
	opts.Workers = 3
	b, _ := json.Marshal(sim1(t, spec, opts))
	if string(a) != string(b) {
		t.Errorf("1 and 3 workers differ:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(a), `"by_hops":[{"hops":1,"messages":`) {
		t.Errorf("JSON lacks by_hops: %s", a)
	}
}

// TestFoldOneTakesTheLatenciesOver: foldOne's result is aggregate's for
// one run (every figure, the latency statistics and histogram included),
// and it sorts the run's own latencies rather than a copy of them (what an
// open-loop point's result no longer allocates). Random latencies in random
// order, none to a few thousand, some equal.
func TestFoldOneTakesTheLatenciesOver(t *testing.T) {
	rng := topo.NewRand(3)
	for _, n := range []int{0, 1, 2, 17, 1000, 4096} {
		lat := make([]float64, n)
		for i := range lat {
			lat[i] = float64(1+rng.Intn(500)) * 1e-9
		}
		run := func(l []float64) runResult {
			return runResult{lat: l, hopSum: int64(3 * n), hopMax: 5, makespan: 1e-6, linkLoad: 4, utilMean: 0.25, utilMax: 0.5, events: int64(10 * n)}
		}
		want := aggregate("uniform", []runResult{run(slices.Clone(lat))})
		x := run(lat)
		got := foldOne("uniform", &x)
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		if string(a) != string(b) {
			t.Errorf("%d latencies: foldOne\n%s\nwant aggregate's\n%s", n, b, a)
		}
		if !slices.IsSorted(lat) {
			t.Errorf("%d latencies: the run's own are not sorted: foldOne folded a copy", n)
		}
	}
}
