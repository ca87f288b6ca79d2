package trace_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// TestRingTrace: a ring of 8 ranks, each sending 1 KB to its right-hand
// neighbour, receiving from its left and computing 3 µs, has 8 messages
// in each answer: 8 flows from r to r+1 mod 8; each rank's spans add up
// to its end, 3 µs of it computing; and the trace keeps the format's rules.
func TestRingTrace(t *testing.T) {
	const ranks = 8
	s, res := runBoth(t, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks)) compute(3us)", ranks)
	b := writeBoth(t, s, res)
	tr := validate(t, b.Bytes())
	if got := tr.processes; !maps.Equal(got, map[int]string{1: "analytic", 2: "simulated", 3: "simulated links"}) {
		t.Errorf("processes %v, want 1 analytic, 2 simulated and 3 simulated links", got)
	}
	if tr.kinds[3]["link"] == 0 {
		t.Errorf("no link busy span")
	}
	for pid, a := range map[int]*runtime.ProgramResult{1: res.Analytic, 2: res.Simulated} {
		var pairs []string
		for _, f := range tr.flows {
			if f.pid == pid {
				pairs = append(pairs, fmt.Sprintf("%d>%d", f.from, f.to))
			}
		}
		sort.Strings(pairs)
		var want []string
		for r := range ranks {
			want = append(want, fmt.Sprintf("%d>%d", r, (r+1)%ranks))
		}
		sort.Strings(want)
		if strings.Join(pairs, " ") != strings.Join(want, " ") {
			t.Errorf("%s: flows %v, want %v", a.Method, pairs, want)
		}
		for r := range ranks {
			sum := map[string]float64{}
			n := 0
			for _, x := range tr.spans {
				if x.pid == pid && x.rank == r && x.cat != "collective" {
					sum[x.cat] += x.dur
					n++
				}
			}
			total := sum["compute"] + sum["send"] + sum["recv"] + sum["wait"]
			// Each span is written to the picosecond: n of them may be
			// off by half a picosecond each.
			if end := a.Ranks[r].End * 1e6; math.Abs(total-end) > float64(n)*0.5e-6+1e-9 {
				t.Errorf("%s rank %d: spans add up to %.6f µs, the rank ends at %.6f µs", a.Method, r, total, end)
			}
			if math.Abs(sum["compute"]-3) > 1e-6 {
				t.Errorf("%s rank %d: computes %.6f µs, want the program's 3 µs", a.Method, r, sum["compute"])
			}
			for _, k := range []string{"send", "recv"} {
				if sum[k] <= 0 {
					t.Errorf("%s rank %d: no %s span", a.Method, r, k)
				}
			}
		}
		if tr.kinds[pid]["wait"] == 0 {
			t.Errorf("%s: no wait span, though rank 0 waits for rank 7's message", a.Method)
		}
	}
	if !strings.Contains(b.String(), `"name":"compute(3us) line 1"`) {
		t.Errorf("compute spans are not named by their statement and line:\n%.2000s", b.String())
	}
}

// TestRendezvousTrace: messages above std:loggp's eager limit (64 KiB)
// go by rendezvous (request, clear to send, data): still one flow per
// message, from the send to the receive, and the trace keeps the format's
// rules.
func TestRendezvousTrace(t *testing.T) {
	const ranks = 6
	// Even ranks send first, odd ranks receive first: every send by
	// rendezvous cannot deadlock.
	s, res := runBothOn(t, "std:loggp", "let right = mod(rank + 1, ranks) let left = mod(rank + ranks - 1, ranks) if mod(rank, 2) == 0 { send(1MB, to: right) recv(from: left) } else { recv(from: left) send(1MB, to: right) }", ranks)
	if res.Analytic.Deadlock != nil || res.Simulated.Deadlock != nil {
		t.Fatal("deadlocked")
	}
	b := writeBoth(t, s, res)
	tr := validate(t, b.Bytes())
	per := map[int]int{}
	for _, f := range tr.flows {
		per[f.pid]++
	}
	if per[1] != ranks || per[2] != ranks {
		t.Errorf("flows per answer %v, want %d in each", per, ranks)
	}
}

// TestCollectiveNests: an allreduce is a span on each rank's track, with
// the spans of the messages it was carried out with nested in it (one
// track per rank: nothing had to be moved aside).
func TestCollectiveNests(t *testing.T) {
	const ranks = 8
	s, res := runBoth(t, "compute(1us) allreduce(64B)", ranks)
	b := writeBoth(t, s, res)
	tr := validate(t, b.Bytes())
	for pid := 1; pid <= 2; pid++ {
		regions := 0
		for _, x := range tr.spans {
			if x.pid == pid && x.cat == "collective" {
				regions++
				if !strings.HasPrefix(x.name, "allreduce(64B)") {
					t.Errorf("collective span named %q, want the statement allreduce(64B)", x.name)
				}
			}
		}
		if regions != ranks {
			t.Errorf("process %d: %d collective spans, want one per rank (%d)", pid, regions, ranks)
		}
	}
	// The simulation carries the allreduce out with messages: they nest.
	inside := 0
	for _, x := range tr.spans {
		if x.pid != 2 || x.cat != "send" {
			continue
		}
		for _, c := range tr.spans {
			if c.pid == 2 && c.tid == x.tid && c.cat == "collective" && c.start <= x.start && x.start+x.dur <= c.start+c.dur {
				inside++
				break
			}
		}
	}
	if inside == 0 || len(tr.flows) == 0 {
		t.Errorf("no simulated send nests in an allreduce span (%d flows)", len(tr.flows))
	}
	if tr.extraTracks > 0 {
		t.Errorf("%d ranks needed a second track", tr.extraTracks)
	}
}

// TestLinkTracks: with MaxLinks 2 the links' process has two tracks, the
// two busiest wires, busiest first, and says how many were busy; a track's
// spans add up to its wire's busy time.
func TestLinkTracks(t *testing.T) {
	s, res := runBoth(t, "send(4KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks)) allreduce(1KB)", 8)
	var b bytes.Buffer
	if err := trace.Write(&b, trace.Options{Schedule: s, MaxLinks: 2}, res.Analytic, res.Simulated); err != nil {
		t.Fatal(err)
	}
	tr := validate(t, b.Bytes())
	links := res.Simulated.Links
	if len(links) <= 2 {
		t.Fatalf("%d busy wires: the test needs more than 2", len(links))
	}
	want := fmt.Sprintf("simulated links (the 2 busiest of %d busy wires)", len(links))
	if tr.processes[3] != want {
		t.Errorf("process 3 is %q, want %q", tr.processes[3], want)
	}
	sum := map[int]float64{}
	for _, x := range tr.spans {
		if x.pid == 3 {
			sum[x.tid] += x.dur
		}
	}
	busiest := slices.SortedFunc(slices.Values(links), func(x, y runtime.LinkBusy) int { return cmp.Compare(y.Busy, x.Busy) })
	if len(sum) != 2 {
		t.Fatalf("%d link tracks, want 2", len(sum))
	}
	for k := range 2 {
		if got, want := sum[k+1], busiest[k].Busy*1e6; math.Abs(got-want) > 1e-6*float64(len(busiest[k].Intervals)) {
			t.Errorf("track %d: busy %.6f µs, the %d-th busiest wire %.6f µs", k+1, got, k+1, want)
		}
	}
}

// TestTooLarge: a trace over the limit, or whose tracks would take more
// than the memory limit, is refused before a byte is written, with the
// estimate and the limit.
func TestTooLarge(t *testing.T) {
	s, res := runBoth(t, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks))", 4)
	var b bytes.Buffer
	err := trace.Write(&b, trace.Options{Schedule: s, MaxBytes: 1000}, res.Analytic, res.Simulated)
	var tl *trace.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 1000 || tl.Need <= 1000 {
		t.Fatalf("error %v, want a *trace.TooLargeError with limit 1000", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "above the limit of 1.0 KB for a trace") || !strings.Contains(msg, "--timeline") {
		t.Errorf("error %q does not give the limit and what to do", msg)
	}
	if b.Len() != 0 {
		t.Errorf("%d bytes written before the refusal", b.Len())
	}
	var tm *limits.TooLarge
	if err := trace.Write(&b, trace.Options{Schedule: s, MaxMemory: 100}, res.Analytic, res.Simulated); !errors.As(err, &tm) || tm.Limit != 100 || b.Len() != 0 {
		t.Errorf("under a 100 B memory limit: %v and %d bytes written, want a *limits.TooLarge and nothing", err, b.Len())
	}
	if got := trace.LimitText(trace.DefaultMaxBytes); got != "512 MiB" {
		t.Errorf("the default limit reads %q, want 512 MiB", got)
	}
	if need := trace.Estimate(res.Analytic, res.Simulated); need < 1000 {
		t.Errorf("estimate %d", need)
	}
}

// TestEstimateBoundsTheSize: the estimate the limit is checked against is
// not below what is written.
func TestEstimateBoundsTheSize(t *testing.T) {
	s, res := runBoth(t, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks)) allreduce(8B)", 16)
	b := writeBoth(t, s, res)
	if est := trace.Estimate(res.Analytic, res.Simulated); est < int64(b.Len()) {
		t.Errorf("estimate %d bytes, wrote %d", est, b.Len())
	}
}

// TestTraceProcessorLoads loads a trace with Perfetto's trace processor
// (the perfetto Python package) and counts what it read: where the package
// is not installed, the test says so and skips.
func TestTraceProcessorLoads(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the trace processor test needs it and the perfetto package (pip install perfetto)")
	}
	if out, err := exec.Command("python3", "-c", "import perfetto.trace_processor").CombinedOutput(); err != nil {
		t.Skipf("the perfetto Python package is not installed (pip install perfetto): %v: %s", err, bytes.TrimSpace(out))
	}
	const ranks = 8
	s, res := runBoth(t, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks)) compute(3us)", ranks)
	path := filepath.Join(t.TempDir(), "ring.json")
	b := writeBoth(t, s, res)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import sys
from perfetto.trace_processor import TraceProcessor
tp = TraceProcessor(trace=sys.argv[1])
def one(q):
    return next(iter(tp.query(q))).n
print(one("select count(*) as n from slice"), one("select count(*) as n from flow"), one("select count(distinct pid) as n from process where pid > 0"))
`
	out, err := exec.Command("python3", "-c", script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("trace processor: %v\n%s", err, out)
	}
	var slices, flows, procs int
	if _, err := fmt.Sscan(string(out), &slices, &flows, &procs); err != nil {
		t.Fatalf("trace processor printed %q: %v", out, err)
	}
	// Every complete event written is a slice (none dropped for bad
	// nesting), every message a flow between two of them, and the
	// answers and the links are three processes.
	want := len(validate(t, b.Bytes()).spans)
	if slices != want || flows != 2*ranks || procs != 3 {
		t.Errorf("trace processor read %d slices, %d flows, %d processes; want %d, %d, 3", slices, flows, procs, want, 2*ranks)
	}
}

// runBoth runs program body on std:xmp64 for ranks ranks, both ways, with
// what a trace needs.
func runBoth(t *testing.T, body string, ranks int) (*lang.Schedule, *program.RunResult) {
	t.Helper()
	return runBothOn(t, "std:xmp64", body, ranks)
}

// runBothOn is runBoth on machine.
func runBothOn(t *testing.T, machine, body string, ranks int) (*lang.Schedule, *program.RunResult) {
	t.Helper()
	m, err := eval.Load(machine)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := eval.ParseProgramBody(m, body)
	if err != nil {
		t.Fatal(err)
	}
	s, err := prog.Schedule(m, eval.ScheduleOptions{Ranks: ranks})
	if err != nil {
		t.Fatal(err)
	}
	res, err := program.Run(context.Background(), m, s, program.RunOptions{ProgramOptions: runtime.ProgramOptions{Timeline: true, Flows: true}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Analytic == nil || res.Simulated == nil {
		t.Fatalf("want both answers, got %+v", res)
	}
	return s, res
}

// TestGOALTraces: LogGOPSim's GOAL schedules of the analytic tests
// (collectives as point-to-point messages, several CPUs, irequires),
// answered both ways on std:loggp, give traces that keep the format's
// rules, with one flow per send of the schedule in each answer.
func TestGOALTraces(t *testing.T) {
	files, err := filepath.Glob("../program/testdata/goal/*.goal")
	if err != nil || len(files) == 0 {
		t.Fatalf("no GOAL schedules: %v", err)
	}
	m, err := eval.Load("std:loggp")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s, err := parser.ReadGOAL(f, file, 0)
			if err != nil {
				t.Fatal(err)
			}
			sends := 0
			for _, op := range s.Ops {
				if op.Kind == lang.OpSend {
					sends++
				}
			}
			res, err := program.Run(context.Background(), m, s, program.RunOptions{ProgramOptions: runtime.ProgramOptions{Timeline: true, Flows: true}})
			if err != nil {
				t.Fatal(err)
			}
			b := writeBoth(t, s, res)
			tr := validate(t, b.Bytes())
			per := map[int]int{}
			for _, f := range tr.flows {
				per[f.pid]++
			}
			for pid, a := range map[int]*runtime.ProgramResult{1: res.Analytic, 2: res.Simulated} {
				if a.Deadlock == nil && per[pid] != sends {
					t.Errorf("%s: %d flows, want one per send (%d)", a.Method, per[pid], sends)
				}
			}
		})
	}
}
