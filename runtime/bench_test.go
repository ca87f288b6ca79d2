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

// xmpSpec is a 64-core hypercube in the manner of seed 004: wormhole, 16-byte
// buffers, dimensions 0-1 on chip.
func xmpSpec(tb testing.TB) *Spec {
	g, err := topo.NewHypercube(6)
	if err != nil {
		tb.Fatal(err)
	}
	links := make([]LinkParams, g.NumLinks())
	for l := range links {
		links[l] = LinkParams{Latency: 200e-9, Bandwidth: 62.5e6}
		if g.Link(int32(l)).Dim < 2 {
			links[l].Latency = 70e-9
		}
	}
	return &Spec{Graph: g, Links: links, Switching: Wormhole, Routing: "ecube",
		Packet: PacketParams{Header: 4, FlitBytes: 1, BufferFlits: 16}}
}

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

// torusSpec is the scaling scenario: a k×k torus, wormhole, 2 lanes with
// datelines, dimension order, 4-byte flits, 4-flit buffers.
func torusSpec(tb testing.TB, k int) *Spec {
	g, err := topo.NewGrid([]int{k, k}, true)
	if err != nil {
		tb.Fatal(err)
	}
	return &Spec{Graph: g, DefaultLink: LinkParams{Latency: 1e-8, Bandwidth: 1e9}, Switching: Wormhole,
		Packet: PacketParams{Header: 4, FlitBytes: 4, BufferFlits: 4, VirtualChannels: 2}}
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
