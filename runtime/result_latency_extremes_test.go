package runtime

import (
	"math"
	"testing"
)

// A latency can overflow to +Inf (links of 1e308 s), and beyond the limit
// the sketch must still place it, and the finite ones around it, without
// its bucket index wrapping: the quantiles that land on it are +Inf and
// the others keep their error.
func TestSketchedLatenciesPlaceInfiniteAndExtremeValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		lat  []float64
		p50  float64
		p99  float64
		min  float64
		max  float64
	}{
		{"infinite last", []float64{1e-6, 2e-6, 3e-6, math.Inf(1)}, 2e-6, math.Inf(1), 1e-6, math.Inf(1)},
		{"infinite first", []float64{math.Inf(1), 1e-6, 2e-6, 3e-6}, 2e-6, math.Inf(1), 1e-6, math.Inf(1)},
		{"mostly infinite", []float64{math.Inf(1), math.Inf(1), math.Inf(1), 1e-6}, math.Inf(1), math.Inf(1), 1e-6, math.Inf(1)},
		{"largest and smallest", []float64{math.MaxFloat64, 5e-324, 1, 1}, 1, math.MaxFloat64, 5e-324, math.MaxFloat64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := latencySummary{limit: 1}
			for _, v := range tc.lat {
				l.add([]float64{v})
			}
			r := &Result{}
			l.fill(r)
			near := func(got, want float64) bool {
				return got == want || math.Abs(got-want) <= QuantileError*want
			}
			if !near(r.Latency.P50, tc.p50) || !near(r.Latency.P99, tc.p99) {
				t.Errorf("p50, p99 = %g, %g; want %g, %g", r.Latency.P50, r.Latency.P99, tc.p50, tc.p99)
			}
			if r.Latency.Min != tc.min || r.Latency.Max != tc.max {
				t.Errorf("min, max = %g, %g; want %g, %g", r.Latency.Min, r.Latency.Max, tc.min, tc.max)
			}
			total := 0
			for _, c := range r.Histogram.Counts {
				total += c
			}
			if total != len(tc.lat) {
				t.Errorf("histogram counts %d values, want %d", total, len(tc.lat))
			}
		})
	}
}
