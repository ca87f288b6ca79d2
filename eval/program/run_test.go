package program

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Run takes the machine's eager_limit: on std:loggp (S = 65535 B) a 4 KB
// message is eager, o + L + (n-1)·G + o (the receiving CPU has it once its
// NIC has all of it); with S = 100 B it is a LogGOPS rendezvous, the same
// data at once and the send completing when it is matched, on arrival at
// o + L; with the handshake instead, a request and a clear-to-send of no
// payload go first, 2o + L each.
func TestRunTakesTheMachinesEagerLimit(t *testing.T) {
	const o, L, G, n = 1500e-9, 2500e-9, 6e-9, 4000
	base, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	derive := func(sets ...eval.Set) *eval.Machine {
		m, err := base.Derive(sets...)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	small := derive(eval.Set{Path: "S", Value: "100B"})
	none := derive(eval.Set{Path: "S", Value: "0B"})
	handshake := derive(eval.Set{Path: "S", Value: "100B"}, eval.Set{Path: "processor(pe).rendezvous", Value: "handshake"})
	s := readGOAL(t, "eager.goal", "num_ranks 2\nrank 0 {\nl1: send 4000b to 1 tag 0\n}\nrank 1 {\nl1: recv 4000b from 0 tag 0\n}\n")
	for _, tc := range []struct {
		name       string
		m          *eval.Machine
		send, recv float64
	}{
		{"eager", base, o, 2*o + L + (n-1)*G},
		{"rendezvous", small, o + L, 2*o + L + (n-1)*G},
		{"no message eager", none, o + L, 2*o + L + (n-1)*G},
		{"handshake", handshake, 3*(2*o+L) - o, 3*(2*o+L) + (n-1)*G},
	} {
		res, err := Run(context.Background(), tc.m, s, RunOptions{Simulated: true})
		if err != nil {
			t.Fatal(err)
		}
		// The wire adds 1 ps per 1,000 bytes (1e15 B/s).
		if res.Analytic != nil || !near(res.Simulated.Ranks[1].End, tc.recv, 1e-6) || !near(res.Simulated.Ranks[0].End, tc.send, 1e-6) {
			t.Errorf("%s: the ranks end at %g and %g s, want %g and %g s (analytic %v)", tc.name,
				res.Simulated.Ranks[0].End, res.Simulated.Ranks[1].End, tc.send, tc.recv, res.Analytic)
		}
	}
}

// TestSimulationGivesLogGOPSimsEndTimes runs the schedules of
// testdata/goal/loggopsim.txt through the packet-level simulation of
// std:loggp (its processors' NICs and CPUs, a crossbar of latency L) with
// the parameters LogGOPSim ran them with, and expects every host's end
// time that LogGOPSim printed within 0.5% + 1 ns.
func TestSimulationGivesLogGOPSimsEndTimes(t *testing.T) {
	n := 0
	for _, c := range logGOPSimCases(t) {
		n++
		t.Run(c.name, func(t *testing.T) {
			s := readGOAL(t, c.file, c.text)
			res, err := Run(context.Background(), loggp(t, s.Ranks, c.L, c.o, c.g, c.G, c.O, c.S), s, RunOptions{Simulated: true})
			if err != nil {
				t.Fatal(err)
			}
			sim := res.Simulated
			if sim.Deadlock != nil {
				t.Fatalf("deadlock: %+v", sim.Deadlock)
			}
			for r, want := range c.ends {
				if got := sim.Ranks[r].End * 1e9; math.Abs(got-want) > 0.005*want+1 {
					t.Errorf("host %d ends at %.3f ns, LogGOPSim at %.0f ns", r, got, want)
				}
			}
		})
	}
	if n < 50 {
		t.Errorf("only %d cases in loggopsim.txt", n)
	}
}

func TestRunDifference(t *testing.T) {
	done := func(makespan float64) *runtime.ProgramResult { return &runtime.ProgramResult{Makespan: makespan} }
	stuck := &runtime.ProgramResult{Makespan: 1, Deadlock: &runtime.ProgramDeadlock{}}
	for _, tc := range []struct {
		name string
		r    RunResult
		want float64
		ok   bool
	}{
		{"slower", RunResult{Analytic: done(2), Simulated: done(3)}, 0.5, true},
		{"equal", RunResult{Analytic: done(0.3), Simulated: done(0.3)}, 0, true},
		{"one answer", RunResult{Analytic: done(2)}, 0, false},
		{"deadlock", RunResult{Analytic: done(2), Simulated: stuck}, 0, false},
		{"analytic 0", RunResult{Analytic: done(0), Simulated: done(1)}, 0, false},
	} {
		d, ok := tc.r.Difference()
		if ok != tc.ok || !near(d, tc.want, 1e-12) && d != tc.want {
			t.Errorf("%s: %g, %v; want %g, %v", tc.name, d, ok, tc.want, tc.ok)
		}
	}
}

// cancelAfter is a context that reports itself cancelled from its
// (polls+1)-th Err call on, counting the calls.
type cancelAfter struct {
	context.Context
	polls, calls int
}

func (c *cancelAfter) Err() error {
	if c.calls++; c.calls > c.polls {
		return context.Canceled
	}
	return nil
}

// Cancelled once the analytic answer is done, Run still returns it,
// beside ctx's error: what was reached, as its documentation says.
func TestRunKeepsTheAnalyticAnswerWhenCancelledWhileSimulating(t *testing.T) {
	m, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	s := readGOAL(t, "message.goal", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n")
	count := &cancelAfter{Context: context.Background(), polls: 1 << 30}
	if _, err := Analyze(count, m, s, AnalyzeOptions{}); err != nil {
		t.Fatal(err)
	}
	// One worker: the answers one after the other, as the count assumes.
	ctx := &cancelAfter{Context: context.Background(), polls: count.calls}
	res, err := Run(ctx, m, s, RunOptions{Workers: 1})
	if !errors.Is(err, context.Canceled) || res == nil || res.Analytic == nil || res.Analytic.Makespan == 0 {
		t.Fatalf("Run: %+v, %v; want the analytic answer and context.Canceled", res, err)
	}
}

// With two workers Run works out the analytic answer beside the
// simulation; the answers, timelines included, are the same bytes as one
// after the other. A shifted exchange on a 4 × 4 mesh (std:booksim-mesh) with adaptive routing
// (its random choices make the simulation's seed matter), and schedgen's
// dissemination of 16 ranks on std:loggp. Run it with -race: the two answers share the
// machine and the schedule.
func TestRunGivesTheSameAnswersOnOneWorkerAsOnTwo(t *testing.T) {
	torus, err := eval.Load("std:booksim-mesh", eval.WithSet("k", "4"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.ParseProgramBody(torus, "for i in 1 .. 4 { send(2KB, to: mod(rank + 5, ranks), tag: i) recv(from: mod(rank + ranks - 5, ranks), tag: i) compute(1us) } barrier()")
	if err != nil {
		t.Fatal(err)
	}
	ring, err := p.Schedule(torus, eval.ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("testdata/goal/dissemination_16_1.goal")
	if err != nil {
		t.Fatal(err)
	}
	goal := readGOAL(t, "dissemination_16_1.goal", string(text))
	for _, tc := range []struct {
		name string
		m    *eval.Machine
		s    *lang.Schedule
		o    runtime.ProgramOptions
	}{
		{"torus", torus, ring, runtime.ProgramOptions{Seed: 7, Routing: "least-used", Timeline: true, Flows: true}},
		{"goal", loggp(t, goal.Ranks, 2500, 1500, 1000, 6, 0, 65535), goal, runtime.ProgramOptions{Timeline: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out [2][]byte
			for w := 1; w <= 2; w++ {
				o := RunOptions{ProgramOptions: tc.o, Workers: w}
				if got := together(tc.s, o); got != (w == 2) {
					t.Fatalf("%d workers: together = %v", w, got)
				}
				res, err := Run(context.Background(), tc.m, tc.s, o)
				if err != nil {
					t.Fatal(err)
				}
				if res.Analytic == nil || res.Simulated == nil || len(res.Simulated.Timeline) == 0 {
					t.Fatalf("%d workers: want both answers with timelines, got %+v", w, res)
				}
				if out[w-1], err = json.Marshal(res); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(out[0], out[1]) {
				t.Errorf("one worker:\n%s\ntwo:\n%s", out[0], out[1])
			}
		})
	}
}

// near reports whether a and b agree to within rel of the larger, or both
// are within 1e-18 of 0.
func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+1e-18
}

// A Parasol I machine has PVM and Express model sections and no MPI one
// (seed 002 §2.3): the analytic answer is costed by PVM, or by the section
// RunOptions.Model names, and Run says which. On examples/parasol1.machine
// a 1000-byte send from processor 43 to 45 over one link of 2,667,231 B/s
// and 0.23 ns is PVM's 100 µs + n / speed + latency = 474.92 µs, Express's
// 40 µs + n / speed = 414.92 µs (the file's own formulas, computed here;
// within 1e-6: the analysis counts in picoseconds).
func TestRunUsesPVMOrExpressWithoutAnMPISection(t *testing.T) {
	m, err := eval.Load("../../examples/parasol1.machine")
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.ParseProgramBody(m, "if rank == 0 { send(1000B, to: 1) } else { recv(from: 0) }")
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: 2})
	if err != nil {
		t.Fatal(err)
	}
	const speed, lat = 2667231.0, 0.23e-9
	for _, c := range []struct {
		model, want string
		end         float64
	}{
		{"", "PVM", 100e-6 + 1000/speed + lat},
		{"PVM", "PVM", 100e-6 + 1000/speed + lat},
		{"Express", "Express", 40e-6 + 1000/speed},
	} {
		res, err := Run(context.Background(), m, s, RunOptions{Model: c.model})
		if err != nil {
			t.Fatal(err)
		}
		if res.Analytic == nil || res.Model != c.want || !near(res.Analytic.Makespan, c.end, 1e-6) {
			t.Errorf("--model %q: model %q, analytic %+v; want %s, makespan %g s", c.model, res.Model, res.Analytic, c.want, c.end)
		}
	}
	if _, err := Run(context.Background(), m, s, RunOptions{Model: "MPI"}); err == nil {
		t.Error("--model MPI on a machine without an MPI section: no error")
	}
}
