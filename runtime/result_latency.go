package runtime

import (
	"cmp"
	"math"
	"sort"
)

// Latency statistics are folded as runs finish, so that what a simulation
// keeps does not grow with the number of runs. While there are at most
// exactLatencies of them every latency is kept and the statistics are
// exact. Beyond that they go into a sketch of logarithmic buckets (as in
// DDSketch, Masson et al., VLDB 2019): the count, minimum, maximum and
// mean stay exact (the mean up to a compensated sum's rounding), and each
// quantile is within a relative error of QuantileError of the true one;
// the histogram counts each value in the bin of its bucket's value, so a
// value that close to a bin's edge may be counted in the next bin.
const (
	exactLatencies = 1 << 22 // 32 MiB of float64

	// QuantileError bounds the relative error of a latency quantile once
	// a simulation's latencies are too many to keep (Stats.QuantileError says
	// when).
	QuantileError = 1.0 / 1024
)

// sketchGamma is the ratio of consecutive bucket bounds: a value in
// (γ^(i-1), γ^i] is represented by 2γ^i/(γ+1), within QuantileError of it.
var (
	sketchGamma    = (1 + QuantileError) / (1 - QuantileError)
	sketchLogGamma = math.Log(sketchGamma)
)

// latencySummary accumulates latencies in the order they are added.
type latencySummary struct {
	limit    int       // latencies kept before sketching; 0 means exactLatencies
	exact    []float64 // every latency, until sketched
	sketched bool
	n        int64
	min, max float64
	sum, c   float64 // Neumaier's compensated sum, once sketched
	zeros    int64   // latencies ≤ 0 (none are expected; kept exact)
	lo       int     // bucket index of counts[0]
	counts   []int64
}

func (l *latencySummary) add(lat []float64) {
	if !l.sketched && len(l.exact)+len(lat) <= cmp.Or(l.limit, exactLatencies) {
		l.exact = append(l.exact, lat...)
		return
	}
	if !l.sketched {
		l.sketched = true
		old := l.exact
		l.exact = nil
		l.addSketch(old)
	}
	l.addSketch(lat)
}

func (l *latencySummary) addSketch(lat []float64) {
	for _, v := range lat {
		if l.n == 0 {
			l.min, l.max = v, v
		} else {
			l.min, l.max = min(l.min, v), max(l.max, v)
		}
		l.n++
		t := l.sum + v
		if math.Abs(l.sum) >= math.Abs(v) {
			l.c += (l.sum - t) + v
		} else {
			l.c += (v - t) + l.sum
		}
		l.sum = t
		if !(v > 0) {
			l.zeros++
			continue
		}
		// +Inf (a sum of huge latencies) has a bucket of its own above every
		// finite value's, not the index int(+Inf) converts to.
		l.bump(int(math.Ceil(min(math.Log(v)/sketchLogGamma, sketchTop))))
	}
}

// sketchTop is the bucket of +Inf, one above that of the largest float64.
var sketchTop = math.Ceil(math.Log(math.MaxFloat64)/sketchLogGamma) + 1

// bump counts one value in bucket i, growing the dense bucket range.
func (l *latencySummary) bump(i int) {
	switch {
	case len(l.counts) == 0:
		l.lo = i
		l.counts = append(l.counts, 0)
	case i < l.lo:
		grown := make([]int64, l.lo-i+len(l.counts))
		copy(grown[l.lo-i:], l.counts)
		l.counts, l.lo = grown, i
	case i >= l.lo+len(l.counts):
		l.counts = append(l.counts, make([]int64, i-l.lo-len(l.counts)+1)...)
	}
	l.counts[i-l.lo]++
}

func (l *latencySummary) count() int {
	if l.sketched {
		return int(l.n)
	}
	return len(l.exact)
}

// bucketValue is the value that stands for bucket i, within the bounds of
// what was seen.
func (l *latencySummary) bucketValue(i int) float64 {
	v := 2 * math.Pow(sketchGamma, float64(i)) / (sketchGamma + 1)
	return min(max(v, l.min), l.max)
}

// fill sets r's latency statistics and histogram; there is at least one
// latency.
func (l *latencySummary) fill(r *Result) {
	if !l.sketched {
		lat := l.exact
		sort.Float64s(lat)
		sum := 0.0
		for _, v := range lat {
			sum += v
		}
		pct := func(p float64) float64 { return lat[nearestRank(p, len(lat))] }
		r.Latency = Stats{Min: lat[0], Mean: sum / float64(len(lat)), Max: lat[len(lat)-1], P50: pct(.5), P90: pct(.9), P99: pct(.99)}
		h := newHistogram(lat[0], lat[len(lat)-1])
		for _, v := range lat {
			h.Counts[h.bin(v)]++
		}
		r.Histogram = h.Histogram
		return
	}
	r.Latency = Stats{Min: l.min, Mean: (l.sum + l.c) / float64(l.n), Max: l.max,
		P50: l.quantile(.5), P90: l.quantile(.9), P99: l.quantile(.99), QuantileError: QuantileError}
	h := newHistogram(l.min, l.max)
	h.Counts[0] += int(l.zeros)
	for k, c := range l.counts {
		if c > 0 {
			h.Counts[h.bin(l.bucketValue(l.lo+k))] += int(c)
		}
	}
	r.Histogram = h.Histogram
}

// nearestRank is the index in n sorted values of the p-quantile.
func nearestRank(p float64, n int) int {
	return max(int(math.Ceil(p*float64(n)))-1, 0)
}

func (l *latencySummary) quantile(p float64) float64 {
	k := int64(nearestRank(p, int(l.n)))
	switch {
	case k == l.n-1:
		return l.max
	case k < l.zeros:
		return l.min
	}
	seen := l.zeros
	for i, c := range l.counts {
		if seen += c; seen > k {
			return l.bucketValue(l.lo + i)
		}
	}
	return l.max
}

// histogram is a Histogram of histBins equal bins from lo to hi (one bin
// when they are equal).
type histogram struct {
	Histogram
	lo, w float64
}

func newHistogram(lo, hi float64) histogram {
	bins := histBins
	if hi <= lo*(1+1e-12) {
		bins = 1
	}
	w := (hi - lo) / float64(bins)
	h := histogram{lo: lo, w: w}
	h.Edges = make([]float64, bins+1)
	for i := range h.Edges {
		h.Edges[i] = lo + w*float64(i)
	}
	h.Edges[bins] = hi
	h.Counts = make([]int, bins)
	return h
}

func (h *histogram) bin(v float64) int {
	last := len(h.Counts) - 1
	if h.w > 0 {
		return max(min(int((v-h.lo)/h.w), last), 0)
	}
	return last
}
