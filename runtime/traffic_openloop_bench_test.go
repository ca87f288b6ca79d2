package runtime

import (
	"context"
	"testing"
)

// BenchmarkOfferedMeshCurve draws docs/PERFORMANCE.md's curve: ten points
// of uniform traffic on BookSim's 8×8 mesh, on one worker.
func BenchmarkOfferedMeshCurve(b *testing.B) {
	spec := bookSimSpec(b, 1e-9, "mesh", 8, 8)
	spec.Speedup = 1
	var loads []Load
	for i := 1; i <= 10; i++ {
		loads = append(loads, Load{Fraction: 0.02 * float64(i)})
	}
	var events int64
	for b.Loop() {
		pts, err := OfferedCurve(context.Background(), spec, Options{Op: "uniform", Size: 32, Seed: 1, Workers: 1}, loads)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range pts {
			events += p.Events
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
