package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	prt "github.com/parasol-lang/parasol/runtime"
)

// runProgramPoint runs the sweep's program at one point: its --set values
// on the machine, its --arg values as the program's parameters, its
// routing and switching, and its own seed, as `parasol run` would.
func (s *sweeper) runProgramPoint(ctx context.Context, p sweepPoint, inner int) pointResult {
	rf := s.rf
	rf.machineFlags = s.base.machineFlags
	sets, args := p.machineSets(s.axes)
	rf.sets = setList(sets)
	rf.args = args
	rf.topology, rf.routing, rf.switching = s.base.topology, p.routing, p.switching
	rf.seed = pointSeed(s.base.seed, p.index)
	rf.maxEvents = s.base.maxEvents
	m, err := rf.load(s.spec)
	if err != nil {
		return pointResult{err: err}
	}
	prog, err := rf.schedule(ctx, m, s.program)
	if err != nil {
		return pointResult{err: err}
	}
	o := prt.RunOptions{Analytic: rf.analytic, Simulated: rf.simulate, Topology: rf.topology,
		ProgramOptions: prt.ProgramOptions{Map: prog.mapping, Seed: rf.seed, MaxEvents: rf.maxEvents,
			MaxMemory: rf.memory(), Routing: rf.routing, Switching: rf.switching}}
	res, err := prt.Run(ctx, m, prog.s, o)
	if err != nil {
		return pointResult{err: err}
	}
	run := newRunInfo("sweep", s.spec, m, &rf.machineFlags)
	run.Topology, run.Routing, run.Switching = rf.topology, rf.routing, rf.switching
	seed := rf.seed
	run.Seed = &seed
	if run.Routing == "" || run.Switching == "" {
		// The point's row names what ran, as a sim point's does.
		if rs, err := prt.FromMachine(m, rf.topology); err == nil {
			run.Routing = cmpOr(run.Routing, rs.Routing, "shortest")
			run.Switching = cmpOr(run.Switching, rs.Switching.String())
		}
	}
	return pointResult{run2: res, prog: prog, m: m, run: run}
}

// cmpOr is the first non-empty string.
func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// sweepRunCSVHeader are a program point's columns after its parameters:
// each answer's makespan and the simulated one's difference from the
// analytic (empty when an answer is missing or deadlocked).
var sweepRunCSVHeader = []string{"program", "ranks", "operations", "analytic", "simulated", "difference", "deadlock"}

func sweepRunCSVRow(p *runProgram, res *prt.RunResult) []string {
	figure := func(pr *eval.ProgramResult) string {
		if pr == nil || pr.Deadlock != nil || pr.Partial {
			return ""
		}
		return csvFloat(pr.Makespan)
	}
	diff := ""
	if d, ok := res.Difference(); ok {
		diff = csvFloat(d)
	}
	return []string{p.Name, strconv.Itoa(p.Ranks), strconv.Itoa(p.Ops), figure(res.Analytic), figure(res.Simulated), diff,
		strconv.FormatBool(runFailure(res) != nil)}
}

// sweepRunJSON is one line of `sweep --run`'s JSON: the point's index and
// the sweep's count, then run's object.
type sweepRunJSON struct {
	Point  int `json:"point"`
	Points int `json:"points"`
	runJSON
}

func (s *sweeper) emitRun(w io.Writer, format string, p sweepPoint, total int, r pointResult) error {
	switch format {
	case outJSON:
		return newJSON(w).Encode(sweepRunJSON{p.index, total, newRunJSON(r.prog, r.run2, r.run)})
	case outCSV:
		return csvRows(w, [][]string{append(sweepCSVParams(p, total, r.run), sweepRunCSVRow(r.prog, r.run2)...)})
	}
	printSweepLine(w, p, total, r)
	return nil
}

// printSweepRun is a program point's figures as text.
func printSweepRun(b *strings.Builder, res *prt.RunResult) {
	for _, pr := range []*eval.ProgramResult{res.Analytic, res.Simulated} {
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
