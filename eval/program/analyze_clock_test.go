package program

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// TestAnalyzeComputesRunTimeValuesWithPerfectClocks: the analytic answer
// reads perfect clocks: now() is the time an operation starts, a value
// arrives with its message after the model's journey, and until holds
// the rank until its time.
func TestAnalyzeComputesRunTimeValuesWithPerfectClocks(t *testing.T) {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.ParseProgramBody(m, `if rank == 0 {
		compute(1us)
		send(0B, to: 1, value: now())
	} else if rank == 1 {
		let sent = recv(from: 0)
		let late = now() - sent
		until(sent + 5us)
		let u = now()
	}`)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	journey, err := m.Eval("MPI.send(0B, 0, 1)")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"sent": 1e-6, "late": journey.Num, "u": 6e-6} {
		if got := res.Values[name][1]; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %g, want %g", name, got, want)
		}
	}
	if end := res.Ranks[1].End; math.Abs(end-6e-6) > 1e-12 {
		t.Errorf("rank 1 ends at %g, want 6us, when its wait is over", end)
	}
	if res.TrueValues != nil || res.Clocks != nil {
		t.Errorf("the analytic answer has perfect clocks, yet reports %v and %v", res.TrueValues, res.Clocks)
	}
}

// TestAnalyzeRefusesClockOperationsWithoutARegister: a hand-built
// schedule whose clock operation names no register, or one it lacks, is
// an error naming the operation.
func TestAnalyzeRefusesClockOperationsWithoutARegister(t *testing.T) {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
		op         lang.SchedOp
	}{
		{"now without a register", "names register -1", lang.SchedOp{Kind: lang.OpNow, Label: -1}},
		{"until beyond the registers", "names register 2", lang.SchedOp{Kind: lang.OpUntil, Reg: 3, Label: -1}},
		{"set of a missing expression", "computes expression 4", lang.SchedOp{Kind: lang.OpSet, Reg: 1, Peer: 4, Label: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &lang.Schedule{Name: "s", Ranks: 1, Ops: []lang.SchedOp{tc.op}, RankStart: []int32{0, 1}, DepStart: []int32{0, 0}, Regs: 1}
			_, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
			if err == nil || !strings.Contains(err.Error(), "of rank 0 "+tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
