// Package programs holds example programs; its test runs each on two
// standard machines, both ways.
package programs

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// LogGP's defaults, as std:loggp has them (seconds, seconds per byte).
const (
	lgL = 2500e-9
	lgO = 1500e-9
	lgG = 6e-9
)

// run instantiates a program file on a machine and answers both ways.
func run(t *testing.T, file, machine string, args map[string]string) (*program.RunResult, int) {
	t.Helper()
	return runWith(t, file, machine, nil, args)
}

// runWith is run on the machine with its params set as --set sets them.
func runWith(t *testing.T, file, machine string, sets, args map[string]string) (*program.RunResult, int) {
	t.Helper()
	var opts []eval.Option
	for k, v := range sets {
		opts = append(opts, eval.WithSet(k, v))
	}
	m, err := eval.Load(machine, opts...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.LoadProgram(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	res, err := program.Run(context.Background(), m, s, program.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr.Deadlock != nil || pr.Partial {
			t.Fatalf("%s on %s: %s answer deadlocked or stopped: %+v", file, machine, pr.Method, pr.Deadlock)
		}
	}
	return res, s.Ranks
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// Every example runs on the XK-XMP-64 and on the LogGP machine, where both
// answers agree on the messages sent; each answer is checked against what
// can be computed without either executor: LogGP closed forms on
// std:loggp, and lower bounds from the program's own computation.
func TestExamplesOnTwoMachines(t *testing.T) {
	for _, tc := range []struct {
		file, machine string
		args          map[string]string
		// check compares the answers with an independent expectation.
		check func(t *testing.T, res *program.RunResult, P int)
	}{
		{"jacobi.machine", "std:xmp64", nil, func(t *testing.T, res *program.RunResult, P int) {
			// 10 iterations of 64² points at 10 ns, at least; 8 × 8 ranks,
			// 2 · 8 · 7 neighbour pairs each way per iteration.
			jacobiBounds(t, res, 10*64*64*10e-9, 10*2*2*8*7)
		}},
		{"jacobi.machine", "std:loggp", map[string]string{"px": "4"}, func(t *testing.T, res *program.RunResult, P int) {
			jacobiBounds(t, res, 10*64*64*10e-9, 10*2*(4*3+4*3)) // 4 × 4 ranks
		}},
		{"ring_allreduce.machine", "std:xmp64", nil, nil},
		{"ring_allreduce.machine", "std:loggp", nil, func(t *testing.T, res *program.RunResult, P int) {
			// 2(P-1) steps, each a block of k = n/P bytes sent (o) and, L
			// later, received (o + (k-1)G): LogGP's ring allreduce.
			k := math.Ceil(64000.0 / float64(P))
			want := 2 * float64(P-1) * (2*lgO + lgL + (k-1)*lgG)
			if !near(res.Analytic.Makespan, want) {
				t.Errorf("analytic %g s, want LogGP's 2(P-1)(2o + L + (k-1)G) = %g s", res.Analytic.Makespan, want)
			}
		}},
		{"farm.machine", "std:xmp64", nil, farmBounds},
		{"farm.machine", "std:loggp", nil, farmBounds},
		{"pipeline_bcast.machine", "std:xmp64", nil, nil},
		{"pipeline_bcast.machine", "std:loggp", map[string]string{"seg": "64KB"}, func(t *testing.T, res *program.RunResult, P int) {
			// One segment: a chain of P-1 messages of n bytes.
			want := float64(P-1) * (2*lgO + lgL + (64000-1)*lgG)
			if !near(res.Analytic.Makespan, want) {
				t.Errorf("analytic %g s, want LogGP's (P-1)(2o + L + (n-1)G) = %g s", res.Analytic.Makespan, want)
			}
		}},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.file, tc.machine), func(t *testing.T) {
			res, P := run(t, tc.file, tc.machine, tc.args)
			if res.Analytic.Messages != res.Simulated.Messages {
				t.Errorf("analytic %d messages, simulated %d", res.Analytic.Messages, res.Simulated.Messages)
			}
			if tc.check != nil {
				tc.check(t, res, P)
			}
			d, _ := res.Difference()
			t.Logf("analytic %.4g s, simulated %.4g s (%+.1f%%)", res.Analytic.Makespan, res.Simulated.Makespan, 100*d)
		})
	}
}

func jacobiBounds(t *testing.T, res *program.RunResult, compute float64, msgs int64) {
	t.Helper()
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr.Makespan < compute || pr.Messages != msgs {
			t.Errorf("%s: %g s and %d messages; want at least the %g s of computation, and %d messages", pr.Method, pr.Makespan, pr.Messages, compute, msgs)
		}
		for _, r := range pr.Ranks {
			if !near(r.Compute, compute) {
				t.Errorf("%s: rank %d computes %g s, want %g s", pr.Method, r.Rank, r.Compute, compute)
			}
		}
	}
}

// farmBounds: 64 tasks of 50 µs over P-1 workers take at least
// ceil(64/(P-1)) tasks' work, and the master receives all 64 results.
func farmBounds(t *testing.T, res *program.RunResult, P int) {
	t.Helper()
	least := math.Ceil(64/float64(P-1)) * 50e-6
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr.Makespan < least || pr.Messages != 128 {
			t.Errorf("%s: %g s and %d messages; want at least %g s and 128 messages", pr.Method, pr.Makespan, pr.Messages, least)
		}
	}
}

// The README's table of the examples gives what they give.
func TestReadmeTableIsCurrent(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, label, machine string
		args                 map[string]string
	}{
		{"jacobi.machine", "jacobi.machine (2-D stencil, halo exchange)", "std:xmp64", nil},
		{"jacobi.machine", "jacobi.machine `--arg px=4`", "std:loggp", map[string]string{"px": "4"}},
		{"ring_allreduce.machine", "ring_allreduce.machine", "std:xmp64", nil},
		{"ring_allreduce.machine", "ring_allreduce.machine", "std:loggp", nil},
		{"farm.machine", "farm.machine (master–worker)", "std:xmp64", nil},
		{"farm.machine", "farm.machine", "std:loggp", nil},
		{"pipeline_bcast.machine", "pipeline_bcast.machine", "std:xmp64", nil},
		{"pipeline_bcast.machine", "pipeline_bcast.machine `--arg seg=64KB`", "std:loggp", map[string]string{"seg": "64KB"}},
	} {
		res, _ := run(t, tc.file, tc.machine, tc.args)
		row := fmt.Sprintf("| %s | %s | %s | %s |", tc.label, tc.machine, docTime(res.Analytic.Makespan), docTime(res.Simulated.Makespan))
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md has no row starting %s", row)
		}
	}
}

// docTime is a time as the docs write it: 4 significant digits, "490.4 µs".
func docTime(s float64) string {
	q := lang.FormatQuantitySig(s, lang.TimeDim, 4)
	for _, u := range []string{"us", "ms", "ns", "s"} {
		if n, ok := strings.CutSuffix(q, u); ok {
			return n + " " + strings.Replace(u, "us", "µs", 1)
		}
	}
	return q
}
