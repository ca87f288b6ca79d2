package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/runtime"
)

// Ctrl-C while a program is instantiated or a schedule is read ends
// run as an interruption (exit 130, "interrupted (Ctrl-C)"), not as an
// error of the program or the file, and not only once running starts.
func TestRunScheduleStopsWhenInterrupted(t *testing.T) {
	m, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "ping.csv")
	if err := os.WriteFile(trace, []byte("id,time,after,src,dst,bytes\nping,0s,,0,1,4KB\npong,,ping,1,0,8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, program := range []string{
		"for i in 1 .. 100000 { compute(1ns) }",
		"../../eval/program/testdata/goal/dissemination_16_1.goal",
		trace,
	} {
		rf := &runFlags{mapping: "linear"}
		if _, err := rf.schedule(ctx, m, program); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", program, err)
		}
		if _, err := rf.schedule(context.Background(), m, program); err != nil {
			t.Errorf("%s, not interrupted: %v", program, err)
		}
	}
}

// A simulation stopped short says by what: --max-events when it reached
// them, Ctrl-C otherwise.
func TestRunSaysWhatStoppedTheSimulation(t *testing.T) {
	m, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	p := &runProgram{Program: results.Program{Name: "p", Kind: "inline", Ranks: 1}, mapping: []int{0}}
	partial := func(events int64) *program.RunResult {
		return &program.RunResult{Simulated: &runtime.ProgramResult{Method: "simulated", Partial: true, Events: events,
			Ranks: []runtime.RankTimes{{}}}}
	}
	for _, tc := range []struct {
		res       *program.RunResult
		maxEvents int64
		want      string
	}{
		{partial(100), 100, "(stopped by --max-events 100)"},
		{partial(65535), 0, "(interrupted by Ctrl-C)"},
		{partial(65535), 100000, "(interrupted by Ctrl-C)"},
	} {
		var b strings.Builder
		printRun(&b, m, p, tc.res, tc.maxEvents)
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%d of %d events:\n%s\nwant %q", tc.res.Simulated.Events, tc.maxEvents, b.String(), tc.want)
		}
	}
}
