package program

import (
	"context"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

// A program too large to answer within the memory limit is refused before
// it is instantiated, at its loop, when its schedule and what its answer
// takes per operation would pass the limit (not once it is built whole),
// having allocated less than the limit; what fits is scheduled and
// answered as before.
func TestProgramTooLargeToAnswerIsRefusedAsItGrows(t *testing.T) {
	const limit = 16 << 20
	m := chainUnderLimit(t, limit)
	early := regexp.MustCompile(`^<program>:1:1: program main on 4 ranks expands to about (\d+) operations, which needs about [\d.]+ MB; the limit is 17 MB, set --max-memory to raise it$`)
	for _, tc := range []struct {
		name   string
		iters  int // of compute(1us) on each of 4 ranks
		answer runtime.Footprint
		// refused: the error starts so; "" when the program is answered
		refused string
	}{
		{"fits with the analysis", 20_000, AnalyzeFootprint(), ""},
		{"schedule fits, the analysis does not", 60_000, AnalyzeFootprint(), "early"},
		{"schedule fits alone", 60_000, runtime.Footprint{}, "analysing main (240000 operations) needs about"},
		{"schedule does not fit", 200_000, runtime.Footprint{}, "<program>:1:1: program main on 4 ranks expands to about 800000 operations, which needs about 42 MB"},
		{"a large answer per operation", 200_000, runtime.Footprint{Op: 1000}, "early"},
		{"a large answer per rank", 10, runtime.Footprint{Rank: limit / 2}, "early"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := eval.ParseProgramBody(m, "for i in 1 .. "+strconv.Itoa(tc.iters)+" { compute(1us) }")
			if err != nil {
				t.Fatal(err)
			}
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			s, err := p.Schedule(m, eval.ScheduleOptions{Answer: tc.answer})
			goruntime.ReadMemStats(&after)
			if err == nil {
				_, err = Analyze(context.Background(), m, s, AnalyzeOptions{})
			}
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused == "":
				return
			case err == nil:
				t.Fatalf("answered; want a refusal")
			case tc.refused != "early":
				if !strings.HasPrefix(err.Error(), tc.refused) {
					t.Fatalf("got %v\nwant %s…", err, tc.refused)
				}
				return
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			g := early.FindStringSubmatch(first)
			if g == nil {
				t.Fatalf("got %v\nwant %v", err, early)
			}
			if n, _ := strconv.Atoi(g[1]); n != 4*tc.iters {
				t.Errorf("estimated %d operations; it makes %d", n, 4*tc.iters)
			}
			if used := after.TotalAlloc - before.TotalAlloc; used >= limit {
				t.Errorf("instantiating allocated %d bytes before it was refused; the limit is %d", used, limit)
			}
		})
	}
}

// chainUnderLimit is a 4-processor chain loaded with a memory limit, for
// programs refused as they grow past it.
func chainUnderLimit(t *testing.T, limit int64) *eval.Machine {
	t.Helper()
	m, err := eval.LoadSource("t.machine", `machine "m" {
	processor cpu { float_timings { mul = 2ns } }
	topology t = chain(4) { latency = 1us; speed = 1MB/s }
	modelsection MPI { send(n: B, src, dst) = 1us }
}`, eval.WithMaxMemory(limit))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
