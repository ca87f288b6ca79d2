package probe

import (
	"math"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// A pair's start-up time is never fitted below zero: where the free fit
// puts it there (small messages' medians under the line of the large
// ones, as on a loaded host), it is held at zero and the time per byte
// refitted, and the description still loads.
func TestFittedStartupTimeIsNeverNegative(t *testing.T) {
	sizes := []int{1, 4 << 10, 64 << 10, 256 << 10, 1 << 20}
	tests := []struct {
		name    string
		seconds []float64 // median of each size
		freeNeg bool      // the free fit's ts is negative
		wantTs  float64
	}{
		{"4KiB faster than 1 byte, as on a loaded host", []float64{20e-6, 2e-6, 66e-6, 262e-6, 1050e-6}, true, 0},
		{"an exact line through 20us", []float64{20e-6 + 1e-9, 20e-6 + 4096e-9, 20e-6 + 65536e-9, 20e-6 + 262144e-9, 20e-6 + 1048576e-9}, false, 20e-6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var samples []Sample
			for i, s := range sizes {
				samples = append(samples, Sample{Size: s, Count: 1, Seconds: []float64{tc.seconds[i]}})
			}
			free, err := fitMedians(samples, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := free.Params[0].Value < 0; got != tc.freeNeg {
				t.Fatalf("the free fit's ts = %g s; the case wants it negative: %v", free.Params[0].Value, tc.freeNeg)
			}
			r, err := fitLink(samples)
			if err != nil {
				t.Fatal(err)
			}
			if ts := r.Params[0]; ts.Name != "ts" || math.Abs(ts.Value-tc.wantTs) > 1e-9*math.Max(tc.wantTs, 1e-6) {
				t.Errorf("%s = %g s, want %g s", ts.Name, ts.Value, tc.wantTs)
			}
			if tw := r.Params[1]; tw.Name != "tw" || !(tw.Value > 0) {
				t.Errorf("%s = %g, want a positive time per byte", tw.Name, tw.Value)
			}
			rep := &Report{Hosts: []string{"a:1", "b:1"}, Hostnames: []string{"a", "b"}, Unreachable: map[int]error{},
				Pairs: []*Pair{{A: 0, B: 1, PingPong: samples, Fit: r}}}
			for _, legacy := range []bool{false, true} {
				if _, err := eval.LoadSource("probed.machine", rep.Machine("fitted", legacy)); err != nil {
					t.Errorf("legacy=%v: the description does not load: %v", legacy, err)
				}
			}
		})
	}
}
