package runtime

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// The simulated answer's critical path and timeline are counted against
// the memory limit with what the run holds: a limit that admits the run
// but not them refuses the answer, naming them; one that admits them
// gives the answer it gives without a limit.
func TestProgramCountsItsCriticalPathAndTimelineAgainstTheLimit(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 8), DefaultNode: NodeParams{SendOverhead: 1e-6, RecvOverhead: 1e-6},
		DefaultLink: LinkParams{Latency: 1e-7, Bandwidth: 1e9}, Switching: VCT}
	s := ringSchedule(8, 200, 64)
	s.Name = "ring"
	free, err := RunProgram(context.Background(), spec, s, ProgramOptions{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	spans := 0
	for _, sp := range free.Timeline {
		if sp.Kind != "wait" {
			spans++
		}
	}
	steps := int64(len(free.CriticalPath))
	// What RunProgram holds besides them: its estimate of the run.
	held := func(o ProgramOptions) int64 {
		return ProgramBytes(s, o) + ScheduleBytes(s)
	}
	run := held(ProgramOptions{})
	for _, tc := range []struct {
		name     string
		timeline bool
		limit    int64
		want     string // "" for the answer
	}{
		{"path fits", false, run + steps*stepBytes, ""},
		{"path does not fit", false, run + steps*stepBytes - 1, "the critical path (" + strconv.FormatInt(steps, 10) + " steps) and timeline of ring needs about"},
		{"timeline fits", true, run + (3*int64(spans)+int64(s.Ranks))*spanBytes + steps*stepBytes, ""},
		{"timeline fits, not with the path", true, run + (3*int64(spans)+int64(s.Ranks))*spanBytes + steps*stepBytes - 1, "the critical path (" + strconv.FormatInt(steps, 10) + " steps) and timeline of ring needs about"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := RunProgram(context.Background(), spec, s, ProgramOptions{Timeline: tc.timeline, MaxMemory: tc.limit})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if res.Makespan != free.Makespan || len(res.CriticalPath) != len(free.CriticalPath) || tc.timeline && len(res.Timeline) != len(free.Timeline) {
					t.Errorf("answer differs from the one without a limit")
				}
				return
			}
			if _, ok := err.(*limits.TooLarge); !ok || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %s…", err, tc.want)
			}
		})
	}
}

// A run with more spans than its operations' estimate allows for (one
// span per computation, each with a wait beside it) is stopped when its
// spans pass the limit, not after.
func TestProgramStopsWhenItsTimelinePassesTheLimit(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultLink: LinkParams{Latency: 1e-7, Bandwidth: 1e9}}
	ranks := make([][]lang.SchedOp, 8)
	for r := range ranks {
		for range 500 {
			ranks[r] = append(ranks[r], calc(1e-6))
		}
	}
	s := chainSchedule(nil, ranks...)
	s.Name = "computing"
	o := ProgramOptions{Timeline: true}
	o.MaxMemory = ProgramBytes(s, o) + ScheduleBytes(s)
	_, err := RunProgram(context.Background(), spec, s, o)
	if want := "the timeline of computing ("; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %s…", err, want)
	}
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(err.Error(), "the timeline of computing ("), "%d spans so far", &n); err != nil || n >= len(s.Ops) {
		t.Errorf("stopped at %d spans (%v), not before all %d", n, err, len(s.Ops))
	}
}

// Messages that come to be in flight all at once later in a run, which
// ProgramBytes does not foresee (it counts those that wait for nothing),
// are bounded as they come: under a limit a little above the estimate the
// run ends with an error naming what grew and the limit, and without one
// it runs to its end.
func TestProgramStopsMessagesInFlightPastTheLimit(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	var trace strings.Builder
	trace.WriteString("time,src,dst,bytes\n")
	const msgs = 20000
	for i := range msgs {
		fmt.Fprintf(&trace, "1us,%d,%d,64\n", i%16, (i/16+i+1)%16)
	}
	s, err := parser.ReadTrace(strings.NewReader(trace.String()), "later.csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunProgram(context.Background(), spec, s, ProgramOptions{}); err != nil {
		t.Fatalf("without a limit: %v", err)
	}
	limit := ProgramBytes(s, ProgramOptions{}) + ScheduleBytes(s) + 1<<20
	_, err = RunProgram(context.Background(), spec, s, ProgramOptions{MaxMemory: limit})
	var tl *limits.TooLarge
	if !errors.As(err, &tl) || tl.Limit != limit || !strings.Contains(err.Error(), "in flight at once") && !strings.Contains(err.Error(), "pending events") {
		t.Fatalf("under a limit of %d B, %d messages at once: %v; want the run stopped, naming what grew and the limit", limit, msgs, err)
	}
}
