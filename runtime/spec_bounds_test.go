package runtime

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// TestHandBuiltSpecBeyondTheBoundsIsRefused: a Spec a library user fills
// with a parameter no machine file could load is an error naming the
// field, from every entry point that simulates, never a simulation that
// gives ±Inf or NaN.
func TestHandBuiltSpecBeyondTheBoundsIsRefused(t *testing.T) {
	ring := mustGen(t, "ring", 4)
	spec := func(f func(*Spec)) *Spec { s := basic(ring, 1e-6, 1e6); f(s); return s }
	tests := []struct {
		name string
		spec *Spec
		want string
	}{
		{"a latency of 1e308 s", spec(func(s *Spec) { s.DefaultLink.Latency = 1e308 }),
			"DefaultLink.Latency = 1e+308s is too large: a time is at most a year (31557600s)"},
		{"a latency that is NaN", spec(func(s *Spec) { s.DefaultLink.Latency = math.NaN() }),
			"DefaultLink.Latency = NaN is not a number"},
		{"a bandwidth of 1e-320 B/s", spec(func(s *Spec) { s.DefaultLink.Bandwidth = 1e-320 }),
			"DefaultLink.Bandwidth = 9.999888672e-321B/s is too small: a link's speed is at least 1 bit/s (0.125B/s)"},
		{"an infinite bandwidth", spec(func(s *Spec) { s.DefaultLink.Bandwidth = math.Inf(1) }),
			"DefaultLink.Bandwidth = inf is too large: a link's speed is at most 1e24B/s"},
		{"one link of a list", spec(func(s *Spec) {
			s.Links = []LinkParams{{1e-6, 1e6}, {1e-6, 1e6}, {1e-6, 1e30}, {1e-6, 1e6}}
		}), "Links[2].Bandwidth = 1e+30B/s is too large: a link's speed is at most 1e24B/s"},
		{"a hop delay of 1e300 s", spec(func(s *Spec) { s.DefaultNode.HopDelay = 1e300 }),
			"DefaultNode.HopDelay = 1e+300s is too large: a time is at most a year (31557600s)"},
		{"a time per byte of 1e10 s/B", spec(func(s *Spec) { s.DefaultNode.RoutePerByte = 1e10 }),
			"DefaultNode.RoutePerByte = 1e+10s/B is too large: a time per byte is at most 8s/B (a 1 bit/s link's)"},
		{"a receive delay of 1e300", spec(func(s *Spec) { s.DefaultNode.RecvDelay = 1e300 }),
			"DefaultNode.RecvDelay = 1e+302% is too large: a percentage is at most 1000000%"},
		{"a speedup of 1e-300", spec(func(s *Spec) { s.Speedup = 1e-300 }),
			"Speedup = 1e-300 is too small: a speedup other than 0 is at least 0.001"},
		{"a clock offset of 1e300 s", spec(func(s *Spec) {
			s.DefaultNode.Clock = Clock{Offset: Dist{Kind: DistFixed, A: 1e300}}
		}), "DefaultNode.Clock: clock_offset = 1e+300s is too large: a clock's offset is at most a year (31557600s) either way"},
		{"every bad parameter, one a line", spec(func(s *Spec) {
			s.DefaultLink.Latency = 1e20
			s.Nodes = []NodeParams{{}, {SendOverhead: 1e20}, {}, {RouteFixed: 1e20}}
		}), "DefaultLink.Latency = 1e+20s is too large: a time is at most a year (31557600s)\n" +
			"Nodes[1].SendOverhead = 1e+20s is too large: a time is at most a year (31557600s)\n" +
			"Nodes[3].RouteFixed = 1e+20s is too large: a time is at most a year (31557600s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.spec.Validate(); err == nil || err.Error() != tc.want {
				t.Fatalf("Validate: %v\nwant %s", err, tc.want)
			}
			for name, run := range map[string]func() error{
				"Simulate": func() error { _, err := Simulate(context.Background(), tc.spec, Options{Op: "randperm"}); return err },
				"Offered": func() error {
					_, err := Offered(context.Background(), tc.spec, Options{Op: "uniform"}, Load{Fraction: 0.1, Measure: 1e-3})
					return err
				},
				"CheckRouting": func() error { _, err := CheckRouting(context.Background(), tc.spec, CheckOptions{}); return err },
			} {
				if err := run(); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: %v\nwant it to contain %s", name, err, tc.want)
				}
			}
		})
	}
}

// TestHandBuiltSpecAtTheBoundsSimulates: the bounds themselves are
// accepted and give finite times.
func TestHandBuiltSpecAtTheBoundsSimulates(t *testing.T) {
	s := basic(mustGen(t, "ring", 4), MaxTime, MinRate)
	s.DefaultNode = NodeParams{HopDelay: MaxTime, RoutePerByte: MaxTimePerByte, RecvDelay: MaxPercent}
	s.Speedup = MinSpeedup
	res, err := Simulate(context.Background(), s, Options{Op: "randperm", Size: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Latency.Max; math.IsInf(l, 0) || math.IsNaN(l) || l <= 0 {
		t.Fatalf("latency max %v", l)
	}
}

// TestMachineAtItsBoundsInNanosecondsSimulates: a machine whose fields
// sit at their bounds in the units they are written in loads, and its Spec
// passes Validate though the conversion rounds a hair above the bound.
func TestMachineAtItsBoundsInNanosecondsSimulates(t *testing.T) {
	spec := sourceSpec(t, "m.machine", `machine "m" {
	processor p { name = "P"; send_overhead = 31557600000000000ns; route_per_byte = 8000000000ns/B }
	topology t = ring(4) { latency = 31557600000000000ns; speed = 1GB/s }
}`)
	if spec.Links[0].Latency <= MaxTime {
		t.Fatalf("latency %v converts to the bound exactly; the test needs one a hair above", spec.Links[0].Latency)
	}
	res, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Latency.Max; math.IsInf(l, 0) || math.IsNaN(l) || l < MaxTime {
		t.Fatalf("latency max %v", l)
	}
}

// FuzzValidatedSpecSimulatesToFiniteTimes: a Spec that Validate accepts
// simulates to finite latencies, whatever its parameters within the
// bounds and whatever the message size; one it refuses is refused by
// Simulate too.
func FuzzValidatedSpecSimulatesToFiniteTimes(f *testing.F) {
	f.Add(1e-6, 1e6, 0.0, 0.0, 0.0, 0.0, 0.0, uint64(32), uint8(0))
	f.Add(MaxTime, MinRate, MaxTime, MaxTime, MaxTimePerByte, MaxPercent, MinSpeedup, uint64(1)<<53, uint8(1))
	f.Add(1e308, 1e-320, 0.0, 0.0, 0.0, 0.0, 0.0, uint64(32), uint8(2))
	f.Add(0.0, MaxRate, 1e-320, 0.0, 0.0, 0.0, MaxSpeedup, uint64(0), uint8(3))
	f.Add(1e308, 1e-320, 1e300, 5e307, 1e9, 1e300, 1e-300, uint64(1)<<60, uint8(6))
	g, err := topo.Generate("ring", []int{4}, topo.GenerateOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, lat, bw, hop, send, perByte, recvDelay, speedup float64, size uint64, sw uint8) {
		if sw&4 != 0 {
			// Folded into the bounds, so that most inputs simulate.
			fold := func(x, lo, hi float64) float64 { return lo + math.Mod(math.Abs(x), hi-lo) }
			lat, bw, hop, send = fold(lat, 0, MaxTime), fold(bw, MinRate, MaxRate), fold(hop, 0, MaxTime), fold(send, 0, MaxTime)
			perByte, recvDelay, speedup = fold(perByte, 0, MaxTimePerByte), fold(recvDelay, 0, MaxPercent), fold(speedup, MinSpeedup, MaxSpeedup)
		}
		spec := &Spec{Graph: g, DefaultLink: LinkParams{Latency: lat, Bandwidth: bw}, Speedup: speedup,
			Switching: Switching(sw % 4), DefaultNode: NodeParams{HopDelay: hop, SendOverhead: send, RoutePerByte: perByte, RecvDelay: recvDelay}}
		opts := Options{Op: "randperm", Size: int(min(size, 1<<53)), Runs: 2}
		verr := spec.Validate()
		res, err := Simulate(context.Background(), spec, opts)
		switch {
		case verr != nil && err == nil:
			t.Fatalf("Validate refused (%v) but Simulate ran", verr)
		case err != nil:
			return
		}
		for name, v := range map[string]float64{"latency max": res.Latency.Max, "latency mean": res.Latency.Mean, "makespan": res.Makespan} {
			if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
				t.Fatalf("%s = %v for %+v", name, v, spec)
			}
		}
	})
}
