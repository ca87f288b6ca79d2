package runtime

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// reportEvents reports events per second of wall time and, because this
// machine is shared, per second of the process's CPU time since cpu0 (a
// cputime.Seconds reading taken before the loop); with other jobs on the cores
// the second is the steadier figure.
func reportEvents(b *testing.B, events int64, cpu0 float64) {
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	if cpu := cputime.Seconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(events)/cpu, "events/cpu-s")
	}
}

// One core: random permutations of 32-byte messages on a 64-node hypercube.
func BenchmarkHypercubeRandperm(b *testing.B) {
	spec := xmpSpec(b)
	var events int64
	cpu0 := cputime.Seconds()
	for b.Loop() {
		r, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32, Runs: 100, Workers: 1, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	reportEvents(b, events, cpu0)
}

// The seed 004 §4.2 experiment: 10,000 runs spread over all cores.
func BenchmarkHypercubeRandperm10k(b *testing.B) {
	spec := xmpSpec(b)
	var events int64
	cpu0 := cputime.Seconds()
	for b.Loop() {
		r, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32, Runs: 10000, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
	reportEvents(b, events, cpu0)
}

// benchTorus runs one random permutation of 32-byte messages on a k×k torus
// per iteration, on one worker.
func benchTorus(b *testing.B, k int) {
	spec := torusSpec(b, k)
	var events int64
	cpu0 := cputime.Seconds()
	for b.Loop() {
		r, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		if r.Deadlock || r.Messages == 0 {
			b.Fatalf("deadlock=%v messages=%d", r.Deadlock, r.Messages)
		}
		events += r.Events
	}
	reportEvents(b, events, cpu0)
}

// The scaling series, 8×8 to 256×256 (512×512 with PARASOL_BIG=1).
func BenchmarkTorusRandperm(b *testing.B) {
	for _, k := range []int{8, 64, 128, 256, 512} {
		b.Run(strconv.Itoa(k), func(b *testing.B) {
			if k > 256 && os.Getenv("PARASOL_BIG") == "" {
				b.Skip("set PARASOL_BIG=1")
			}
			benchTorus(b, k)
		})
	}
}

// A random permutation on a 1024x1024 torus (a million nodes). Skipped
// unless PARASOL_BIG=1: it takes a minute.
func BenchmarkTorus1024Randperm(b *testing.B) {
	if os.Getenv("PARASOL_BIG") == "" {
		b.Skip("set PARASOL_BIG=1")
	}
	benchTorus(b, 1024)
}

func BenchmarkHeap(b *testing.B) {
	s := &sim{}
	rng := topo.NewRand(1)
	for range 1024 {
		s.push(rng.Float64(), 0, 0, 0)
	}
	for b.Loop() {
		e := s.pop()
		s.push(e.t+rng.Float64(), 0, 0, 0)
	}
}
