package runtime

import (
	"context"
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
)

// BenchmarkOfferedMeshCurve draws docs/PERFORMANCE.md's curve: ten points
// of uniform traffic on BookSim's 8×8 mesh, on one worker.
func BenchmarkOfferedMeshCurve(b *testing.B) {
	benchMeshCurve(b, 1, false)
}

// BenchmarkOfferedMeshCurveLanes is the same curve with four lanes a wire
// sharing it and credit flow control (BookSim's 4 VCs × 8 flits): the
// multi-lane cost docs/PERFORMANCE.md states, per event and per curve.
func BenchmarkOfferedMeshCurveLanes(b *testing.B) {
	benchMeshCurve(b, 4, true)
}

func benchMeshCurve(b *testing.B, vcs int, credits bool) {
	spec := bookSimSpec(b, 1e-9, "mesh", 8, 8)
	spec.Speedup = 1
	spec.Packet.VirtualChannels = vcs
	spec.Credits, spec.CreditDelay = credits, 3e-9
	var loads []Load
	for i := 1; i <= 10; i++ {
		loads = append(loads, Load{Fraction: 0.02 * float64(i)})
	}
	var events int64
	cpu0 := cputime.Seconds()
	for b.Loop() {
		pts, err := OfferedCurve(context.Background(), spec, Options{Op: "uniform", Size: 32, Seed: 1, Workers: 1}, loads)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range pts {
			events += p.Events
		}
	}
	reportEvents(b, events, cpu0)
}
