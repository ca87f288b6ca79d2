package runtime

import (
	"context"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// Run takes the machine's eager_limit: on std:loggp (S = 65535 B) a 4 KB
// message is eager, o + L + n·G + o; with S = 100 B it is a rendezvous, a
// request and a clear-to-send of no payload going first.
func TestRunTakesTheMachinesEagerLimit(t *testing.T) {
	const o, L, G, n = 1500e-9, 2500e-9, 6e-9, 4000
	base, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	small, err := base.Derive(eval.Set{Path: "S", Value: "100B"})
	if err != nil {
		t.Fatal(err)
	}
	s := chainSchedule(nil, []lang.SchedOp{send(1, n, 0)}, []lang.SchedOp{recv(0, n, 0)})
	for _, tc := range []struct {
		name string
		m    *eval.Machine
		want float64
	}{
		{"eager", base, 2*o + L + n*G},
		{"rendezvous", small, 3*(2*o+L) + n*G},
	} {
		res, err := Run(context.Background(), tc.m, s, RunOptions{Simulated: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Analytic != nil || !near(res.Simulated.Ranks[1].End, tc.want, 1e-9) {
			t.Errorf("%s: the receiver ends at %g s, want %g s (analytic %v)", tc.name, res.Simulated.Ranks[1].End, tc.want, res.Analytic)
		}
	}
}

func TestRunDifference(t *testing.T) {
	done := func(makespan float64) *eval.ProgramResult { return &eval.ProgramResult{Makespan: makespan} }
	stuck := &eval.ProgramResult{Makespan: 1, Deadlock: &eval.ProgramDeadlock{}}
	for _, tc := range []struct {
		name string
		r    RunResult
		want float64
		ok   bool
	}{
		{"slower", RunResult{done(2), done(3)}, 0.5, true},
		{"equal", RunResult{done(0.3), done(0.3)}, 0, true},
		{"one answer", RunResult{Analytic: done(2)}, 0, false},
		{"deadlock", RunResult{done(2), stuck}, 0, false},
		{"analytic 0", RunResult{done(0), done(1)}, 0, false},
	} {
		d, ok := tc.r.Difference()
		if ok != tc.ok || !near(d, tc.want, 1e-12) && d != tc.want {
			t.Errorf("%s: %g, %v; want %g, %v", tc.name, d, ok, tc.want, tc.ok)
		}
	}
}
