package study

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

func TestParseLoadsReadsSharesRatesListsAndRanges(t *testing.T) {
	for _, c := range []struct {
		in     string
		shares []float64
		rates  []float64
	}{
		{"0.3", []float64{0.3}, nil},
		{"1", []float64{1}, nil},
		{"0.05:0.6:0.05", []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6}, nil},
		{"0.1:0.35:0.1", []float64{0.1, 0.2, 0.3}, nil},
		{"0.1, 0.2,0.5", []float64{0.1, 0.2, 0.5}, nil},
		{"500MB/s", nil, []float64{500e6}},
		{"1GB/s:3GB/s:1GB/s", nil, []float64{1e9, 2e9, 3e9}},
	} {
		pts, err := ParseLoads(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var shares, rates []float64
		for _, p := range pts {
			if p.Fraction > 0 {
				shares = append(shares, p.Fraction)
			} else {
				rates = append(rates, p.Rate)
			}
		}
		if !slices.Equal(shares, c.shares) || !slices.Equal(rates, c.rates) {
			t.Errorf("%q: shares %v, rates %v; want %v, %v", c.in, shares, rates, c.shares, c.rates)
		}
	}
}

func TestParseLoadsRefusesWhatIsNoLoad(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "from 0 (excluded) to 4"},
		{"4.01", "from 0 (excluded) to 4"},
		{"-0.5", "from 0 (excluded) to 4"},
		{"fast", "a share of the injection bandwidth (0.3) or a rate"},
		{"4KB", "got a size"},
		{"0.1:0.5", "FROM:TO:STEP"},
		{"0.5:0.1:0.1", "runs up"},
		{"0.1:1GB/s:0.1", "all shares or all rates"},
		{"0.001:1:0.0000001", "at most 1000"},
		{"0B/s", "above 0"},
	} {
		_, err := ParseLoads(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want one saying %q", c.in, err, c.want)
		}
	}
}

// FuzzParseLoads checks that whatever list of loads is given, it is
// refused with a reason or read as points that are loads: shares in
// (0, runtime.MaxOverload] or rates above 0, at most MaxLoadPoints of them.
func FuzzParseLoads(f *testing.F) {
	for _, s := range []string{"0.3", "0.05:0.6:0.05", "1GB/s:3GB/s:1GB/s", "0.1,0.2", "1e-300:1:1e-300", ":", "0.1:0.2:0", "NaN", "1:1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pts, err := ParseLoads(s)
		if err != nil {
			return
		}
		if len(pts) == 0 || len(pts) > MaxLoadPoints {
			t.Fatalf("%q: %d points", s, len(pts))
		}
		for _, p := range pts {
			if !(p.Fraction > 0 && p.Fraction <= runtime.MaxOverload && p.Rate == 0) && !(p.Rate > 0 && p.Fraction == 0) {
				t.Fatalf("%q: point %+v is no load", s, p)
			}
		}
	})
}

func TestLoadCurveFindsTheHotspotsSaturationThroughput(t *testing.T) {
	// std:booksim-mesh on a 2 × 2 mesh, every processor sending 32-byte
	// messages to processor 0. Processor 0's ejection channel moves a
	// 4-byte flit a cycle, and a freed output waits one cycle
	// (alloc_delay) before the next packet: one 8-flit message every 9
	// cycles, 8/9 of one processor's injection bandwidth. Accepted loads
	// are shares of all four processors' bandwidth, so the curve levels
	// off at 1/4 · 8/9 = 2/9.
	rs := hotspotMesh(t)
	loads, err := ParseLoads("0.1,0.5:0.9:0.4")
	if err != nil {
		t.Fatal(err)
	}
	dst := 0
	opts := runtime.Options{Op: "hotspot", Size: 32, Dst: &dst, Seed: 1, Runs: 5}
	pts, err := LoadCurve(context.Background(), rs, opts, Traffic{Process: runtime.Bernoulli}.Apply(loads))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3", len(pts))
	}
	for i, want := range []bool{false, true, true} {
		if pts[i].Saturated != want || pts[i].Process != "bernoulli" {
			t.Errorf("load %g: saturated %v, process %s; want %v, bernoulli", pts[i].Load, pts[i].Saturated, pts[i].Process, want)
		}
	}
	acc, at := SaturationThroughput(pts)
	if !Saturated(pts) || at == nil || math.Abs(acc-2.0/9) > 0.02*2/9 {
		t.Errorf("saturation throughput %g at %v; want 2/9 ≈ 0.2222 (within 2%%)", acc, at)
	}
	if acc, at := SaturationThroughput(nil); acc != 0 || at != nil || Saturated(nil) {
		t.Errorf("no points: throughput %g at %v", acc, at)
	}
}

// hotspotMesh is std:booksim-mesh's 2 × 2 mesh.
func hotspotMesh(t *testing.T) *runtime.Spec {
	t.Helper()
	m, err := eval.Load("std:booksim-mesh", eval.WithSet("k", "2"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestLoadCurveRefusesAnOperationThatIsNoPattern(t *testing.T) {
	pts, err := LoadCurve(context.Background(), hotspotMesh(t), runtime.Options{Op: "broadcast", Size: 32}, []runtime.Load{{Fraction: 0.1}})
	if pts != nil || err == nil {
		t.Errorf("LoadCurve of a broadcast = %v, %v; want an error and no points", pts, err)
	}
}

func TestTrafficApplyGivesEveryLoadTheTraffic(t *testing.T) {
	loads := []runtime.Load{{Fraction: 0.2}, {Rate: 5e8}}
	got := Traffic{Process: runtime.Poisson, Warmup: 1e-6, Measure: 2e-6}.Apply(loads)
	want := []runtime.Load{{Fraction: 0.2, Process: runtime.Poisson, Warmup: 1e-6, Measure: 2e-6}, {Rate: 5e8, Process: runtime.Poisson, Warmup: 1e-6, Measure: 2e-6}}
	if !reflect.DeepEqual(got, want) || loads[0].Process != runtime.Bernoulli {
		t.Errorf("Apply = %+v, want %+v, and the loads given unchanged", got, want)
	}
}
