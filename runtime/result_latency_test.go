package runtime

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Beyond its limit the summary keeps counts, extremes and the mean exact
// and every quantile within QuantileError of the nearest-rank quantile of
// the sorted values.
func TestSketchedLatenciesKeepQuantilesWithinTheStatedError(t *testing.T) {
	rng := topo.NewRand(7)
	for _, tc := range []struct {
		name string
		draw func() float64
	}{
		{"uniform", func() float64 { return 1e-6 + rng.Float64()*1e-5 }},
		{"heavy tail", func() float64 { return 1e-7 * math.Exp(8*rng.Float64()*rng.Float64()) }},
		{"few values", func() float64 { return float64(1+rng.Intn(4)) * 4e-8 }},
		{"with zeros", func() float64 { return float64(rng.Intn(3)) * 1e-6 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var all []float64
			l := latencySummary{limit: 1000}
			for run := 0; run < 50; run++ {
				lat := make([]float64, 97)
				for i := range lat {
					lat[i] = tc.draw()
				}
				all = append(all, lat...)
				l.add(lat)
			}
			r := &Result{}
			l.fill(r)
			slices.Sort(all)
			if !l.sketched || l.count() != len(all) {
				t.Fatalf("sketched=%v count=%d, want true and %d", l.sketched, l.count(), len(all))
			}
			if r.Latency.Min != all[0] || r.Latency.Max != all[len(all)-1] {
				t.Errorf("min, max = %g, %g; want %g, %g", r.Latency.Min, r.Latency.Max, all[0], all[len(all)-1])
			}
			sum := 0.0
			for _, v := range all {
				sum += v
			}
			if mean := sum / float64(len(all)); math.Abs(r.Latency.Mean-mean) > 1e-12*mean {
				t.Errorf("mean %g, want %g", r.Latency.Mean, mean)
			}
			for _, q := range []struct {
				p   float64
				got float64
			}{{.5, r.Latency.P50}, {.9, r.Latency.P90}, {.99, r.Latency.P99}} {
				want := all[nearestRank(q.p, len(all))]
				if math.Abs(q.got-want) > QuantileError*want {
					t.Errorf("p%g = %g, want %g within %g", 100*q.p, q.got, want, QuantileError)
				}
			}
			if r.Latency.QuantileError != QuantileError {
				t.Errorf("quantile_error %g, want %g", r.Latency.QuantileError, QuantileError)
			}
			// Each bin holds its values, give or take those within the
			// error of its edges.
			total := 0
			for i, c := range r.Histogram.Counts {
				total += c
				lo, hi := r.Histogram.Edges[i], r.Histogram.Edges[i+1]
				inner, outer := 0, 0
				for _, v := range all {
					if v >= lo*(1+QuantileError) && v < hi*(1-QuantileError) || i == len(r.Histogram.Counts)-1 && v == hi {
						inner++
					}
					if v >= lo*(1-QuantileError) && v <= hi*(1+QuantileError) {
						outer++
					}
				}
				if c < inner || c > outer {
					t.Errorf("bin %d [%g, %g) counts %d, want %d..%d", i, lo, hi, c, inner, outer)
				}
			}
			if total != len(all) {
				t.Errorf("histogram counts %d values, want %d", total, len(all))
			}
		})
	}
}

// Under the limit every statistic is the exact one of the sorted values.
func TestLatenciesUnderTheLimitAreExact(t *testing.T) {
	l := latencySummary{limit: 10}
	l.add([]float64{5, 1, 3})
	l.add([]float64{2, 4})
	r := &Result{}
	l.fill(r)
	want := Stats{Min: 1, Mean: 3, Max: 5, P50: 3, P90: 5, P99: 5}
	if l.sketched || r.Latency != want {
		t.Errorf("sketched=%v stats %+v, want exact %+v", l.sketched, r.Latency, want)
	}
}

// Runs are folded as they finish: beyond the latencies the fold keeps
// exactly, more runs need no more memory.
func TestMoreRunsNeedNoMoreMemory(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 6), 1e-9, 1e9)
	n, err := compile(spec, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Op: "randperm", Size: 32}
	tr, err := n.traffic(&opts)
	if err != nil {
		t.Fatal(err)
	}
	need := func(runs int) int64 {
		b, err := n.checkBudget(tr, runs, 2, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	capped := exactLatencies/64 + 1 // runs of 64 messages beyond which latencies are sketched
	if a, b := need(capped), need(1e12); a != b || b > 64<<20 {
		t.Errorf("%d runs need %d bytes, 1e12 runs %d; want equal and under 64 MiB", capped, a, b)
	}
}

// A simulation of more runs than could ever be kept runs within a small
// memory limit, folding each run as it finishes, until it is stopped.
func TestManyRunsRunWithinASmallMemoryLimit(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 4), 1e-9, 1e9)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := Simulate(ctx, spec, Options{Op: "alltoall", Size: 32, Runs: 1e12, Workers: 2, MaxMemory: 64 << 20,
		Progress: func(done, total int) {
			if done == 1000 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) || r == nil || !r.Partial {
		t.Fatalf("err %v, result %v; want the partial result of a cancelled run", err, r)
	}
	// The runs under way when it was stopped delivered part of theirs.
	if r.Runs < 1000 || r.Messages > 240*r.Runs || r.Messages < 240*(r.Runs-2) {
		t.Errorf("%d runs, %d messages; want at least 1000 runs of 240 messages, two of them cut short", r.Runs, r.Messages)
	}
}

// A fold keeps the latencies it holds exactly in storage of their number,
// made at the start, as the budget counts them, up to the exact limit.
func TestRunFoldKeepsLatenciesInStorageOfTheirNumber(t *testing.T) {
	for _, tc := range []struct {
		name      string
		runs, per int
		want      int
	}{
		{"few latencies", 10, 97, 970},
		{"one run", 1, 5, 5},
		{"more than are kept exactly", 3, exactLatencies/2 + 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newRunFold("send", int64(tc.runs*tc.per))
			for range tc.runs {
				f.add(&runResult{lat: make([]float64, tc.per)})
			}
			if got := cap(f.lat.exact); got != tc.want {
				t.Errorf("%d runs of %d latencies keep room for %d, want %d", tc.runs, tc.per, got, tc.want)
			}
			if r := f.result(); r.Messages != tc.runs*tc.per {
				t.Errorf("%d messages, want %d", r.Messages, tc.runs*tc.per)
			}
		})
	}
}
