package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/cputime"
	"github.com/parasol-lang/parasol/runtime"
)

// loadCurves are the 10-point curves docs/PERFORMANCE.md times beside
// BookSim 2's (issue 28's topologies and issue 30's 32×32 mesh and
// 1,056-terminal dragonfly), each the exact command it gives, every point
// below its saturation.
var loadCurves = []struct{ name, args string }{
	{"mesh32", "std:booksim-mesh --set k=32 --load 0.006,0.012,0.018,0.024,0.03,0.036,0.042,0.048,0.054,0.06"},
	{"dragonfly4-min", "std:booksim --topology dragonfly --set k=4 --routing min"},
	{"dragonfly4-ugal-l", "std:booksim --topology dragonfly --set k=4 --routing ugal-l"},
	{"dragonfly2-min", "std:booksim --topology dragonfly --set k=2 --routing min"},
	{"dragonfly2-ugal-l", "std:booksim --topology dragonfly --set k=2 --routing ugal-l"},
	{"fattree-nca", "std:booksim --topology fattree --routing nca"},
	{"flatfly-min", "std:booksim --topology flatfly --routing min"},
	{"flatfly-ugal", "std:booksim --topology flatfly --routing ugal"},
}

// switchedLoads are the switched networks' ten loads.
const switchedLoads = "0.03,0.06,0.09,0.12,0.15,0.18,0.21,0.24,0.27,0.3"

// BenchmarkLoadCurve runs `parasol sim MACHINE --op uniform --size 32
// --load L1,…,L10 --format csv` whole, in process, for each curve of
// loadCurves; with -test.cpu 1 its points run one after another, as the
// per-curve CPU time of docs/PERFORMANCE.md counts them. It reports the
// process's CPU seconds a curve (cpu-s/op) beside the wall time, and the
// bytes allocated a curve (B/op: what the collector has to clear; an
// open-loop point reuses its delivered messages, so they do not grow with
// the messages a curve generates).
func BenchmarkLoadCurve(b *testing.B) {
	for _, c := range loadCurves {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			args := append([]string{"sim"}, strings.Fields(c.args)...)
			if !strings.Contains(c.args, "--load") {
				args = append(args, "--load", switchedLoads)
			}
			args = append(args, "--op", "uniform", "--size", "32", "--format", "csv")
			benchCommand(b, args)
		})
	}
}

// benchCommand runs the parasol command args once an iteration and
// reports CPU seconds an iteration.
func benchCommand(b *testing.B, args []string) {
	var out, errOut bytes.Buffer
	cpu0 := cputime.Seconds()
	for b.Loop() {
		out.Reset()
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		if code := run(e, args); code != 0 {
			b.Fatalf("parasol %s: exit status %d: %s", strings.Join(args, " "), code, errOut.String())
		}
	}
	if cpu := cputime.Seconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	}
}

// hopCosts are BenchmarkHopCost's cases: the same random permutations of
// 32-byte messages on BookSim's 16×16 mesh (std:booksim-mesh) with one
// lane and no credits (today's wormhole), two and four lanes a wire with
// credits, and minimal adaptive choices of route (least-used,
// first-ready: with two lanes, as one lane deadlocks them); on
// std:booksim's 72-terminal dragonfly (3 lanes, credits), minimal routing
// against UGAL-L; and on its other switched networks as their load curves
// run them (credits): the 64-terminal flattened butterfly (2 lanes) with
// minimal adaptive routing and UGAL, the 64-terminal fat tree (1 lane)
// with D-mod-k.
var hopCosts = []struct {
	name, machine, topology, routing string
	vcs                              int
	credits                          bool
}{
	{"mesh-1lane", "std:booksim-mesh", "", "", 1, false},
	{"mesh-2lanes-credits", "std:booksim-mesh", "", "", 2, true},
	{"mesh-4lanes-credits", "std:booksim-mesh", "", "", 4, true},
	{"mesh-2lanes-least-used", "std:booksim-mesh", "", "least-used", 2, true},
	{"mesh-2lanes-first-ready", "std:booksim-mesh", "", "first-ready", 2, true},
	{"dragonfly-min", "std:booksim", "dragonfly", "min", 0, true},
	{"dragonfly-ugal-l", "std:booksim", "dragonfly", "ugal-l", 0, true},
	{"flatfly-min", "std:booksim", "flatfly", "min", 0, true},
	{"flatfly-ugal", "std:booksim", "flatfly", "ugal", 0, true},
	{"fattree-nca", "std:booksim", "fattree", "nca", 0, true},
}

// BenchmarkHopCost reports what a packet's hop costs (issue 30 item 5:
// lanes and adaptive routing at most 2× one lane's): 200 random
// permutations of 32-byte messages an iteration, on one worker, as CPU
// nanoseconds a hop (ns/hop; hops are the messages delivered times their
// mean hops) and events a hop. Under cachegrind the difference between
// -test.benchtime 2x and 1x is one iteration's instructions.
func BenchmarkHopCost(b *testing.B) {
	for _, c := range hopCosts {
		b.Run(c.name, func(b *testing.B) {
			var opts []eval.Option
			if c.machine == "std:booksim-mesh" {
				opts = append(opts, eval.WithSet("k", "16"))
			}
			m, err := eval.Load(c.machine, opts...)
			if err != nil {
				b.Fatal(err)
			}
			spec, err := m.Spec(c.topology)
			if err != nil {
				b.Fatal(err)
			}
			if c.vcs > 0 {
				spec.Packet.VirtualChannels = c.vcs
			}
			spec.Credits = c.credits
			var hops float64
			var events int64
			cpu0 := cputime.Seconds()
			for b.Loop() {
				r, err := runtime.Simulate(context.Background(), spec, runtime.Options{Op: "randperm", Size: 32, Runs: 200, Seed: 1, Workers: 1, Routing: c.routing})
				if err != nil {
					b.Fatal(err)
				}
				if r.Deadlock || r.Partial {
					b.Fatalf("deadlock %v, partial %v", r.Deadlock, r.Partial)
				}
				hops += float64(r.Messages) * r.Hops.Mean
				events += r.Events
			}
			if cpu := cputime.Seconds() - cpu0; cpu > 0 {
				b.ReportMetric(cpu*1e9/hops, "ns/hop")
			}
			b.ReportMetric(float64(events)/hops, "events/hop")
			b.ReportMetric(hops/float64(b.N), "hops/op")
		})
	}
}
