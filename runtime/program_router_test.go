package runtime

import (
	"math"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// TINY's router process takes seed 003 Table 3.7's a' + b'l (32.4 µs,
// 0.1 µs/B) of CPU time from the computation of a processor a message
// passes through, and the message does not wait for that computation: on
// std:tiny-t800, rank 1's 10 ms of work ends 32.4, 132.4 and 432.4 µs late
// for 0, 1000 and 4000 B from rank 0 to rank 2, and rank 2 has the
// message at Table 3.4's quiet-network time a + b h + d l h (h = 2).
func TestRouterProcessTakesCPUFromComputation(t *testing.T) {
	spec := loadSpec(t, "std:tiny-t800")
	const (
		a, b, d    = 30.5e-6, 24.3e-6, 0.71e-6 // Table 3.4, 20 Mbit/s
		aCPU, bCPU = 32.4e-6, 0.1e-6           // Table 3.7, 20 Mbit/s
		work, hops = 10e-3, 2
	)
	for _, l := range []int64{0, 1000, 4000} {
		s := chainSchedule(nil, []lang.SchedOp{send(2, l, 0)}, []lang.SchedOp{calc(work)}, []lang.SchedOp{recv(0, l, 0)})
		res := runProg(t, spec, s, ProgramOptions{})
		lost := res.Ranks[1].End - work
		want := aCPU + bCPU*float64(l)
		if math.Abs(lost-want) > 0.01*want {
			t.Errorf("%d B: rank 1's work ends %.4g µs late, want a' + b'l = %.4g µs", l, lost*1e6, want*1e6)
		}
		lat := a + b*hops + d*float64(l)*hops
		if got := res.Ranks[2].End; math.Abs(got-lat) > 1e-6*lat {
			t.Errorf("%d B: rank 2 receives at %.6g µs, want Table 3.4's %.6g µs (not after rank 1's work)", l, got*1e6, lat*1e6)
		}
	}
}

// merge keeps a node's intervals sorted and disjoint whatever order they
// come in (store and forward reports a packet once its tail is on its way).
func TestMergeIntervals(t *testing.T) {
	var iv []interval
	for _, x := range []interval{{10, 20}, {30, 40}, {0, 5}, {18, 31}, {50, 60}, {45, 46}, {5, 6}} {
		iv = merge(iv, x)
	}
	want := []interval{{0, 6}, {10, 40}, {45, 46}, {50, 60}}
	if !slices.Equal(iv, want) {
		t.Errorf("merged %v, want %v", iv, want)
	}
}
