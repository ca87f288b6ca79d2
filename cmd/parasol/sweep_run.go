package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/study"
	prt "github.com/parasol-lang/parasol/runtime"
)

// programFunc makes sweep --run's program at each point as `parasol run`
// would: PROGRAM read or named on the point's machine, with the point's
// --arg values, --ranks, --map and the point's seed.
func (a *sweepArgs) programFunc() study.ProgramFunc {
	return func(ctx context.Context, m *eval.Machine, p study.Point, args map[string]string, seed uint64) (*study.Program, error) {
		rf := a.rf
		rf.machineFlags = a.sf.machineFlags
		rf.args = args
		rf.routing, rf.switching = p.Routing, p.Switching
		rf.seed, rf.maxEvents = seed, a.sf.maxEvents
		rf.samePoint = true
		prog, err := rf.schedule(ctx, m, a.program)
		if err != nil {
			return nil, err
		}
		return &study.Program{Info: &prog.Program, Schedule: prog.s, Map: prog.mapping}, nil
	}
}

// printSweepRun is a program point's figures as text.
func printSweepRun(b *strings.Builder, res *program.RunResult) {
	for _, pr := range []*prt.ProgramResult{res.Analytic, res.Simulated} {
		if pr == nil {
			continue
		}
		switch {
		case pr.Deadlock != nil:
			fmt.Fprintf(b, ", %s DEADLOCK (%d ranks waiting)", pr.Method, len(pr.Deadlock.Waiting))
		case pr.Partial:
			fmt.Fprintf(b, ", %s PARTIAL", pr.Method)
		default:
			fmt.Fprintf(b, ", %s makespan %s", pr.Method, dur(pr.Makespan))
		}
	}
	if d, ok := res.Difference(); ok {
		fmt.Fprintf(b, ", difference %s", signedPercent(d))
	}
}
