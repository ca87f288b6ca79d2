package eval

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// A program refused part way, past its first rank, names what the whole
// would need at the rate of the ranks done (these ranks are alike), not the figure at which it was
// stopped (just past the limit, which reads as needing what the limit
// allows and says nothing of the limit to set).
func TestProgramRefusedPartWayNamesWhatTheWholeNeeds(t *testing.T) {
	const limit = 16 << 20 // 17 MB
	m := chainUnderLimit(t, limit)
	need := regexp.MustCompile(`needs about (\d+) MB; the limit is 17 MB`)
	for _, tc := range []struct {
		name   string
		iters  int // of compute(1us) on each of 4 ranks
		answer runtime.Footprint
		// the whole's need in MB, within ±10%: 4 × iters × (the answer's
		// bytes and a schedule's per operation)
		wantMB float64
	}{
		{"twice the limit", 8_000, runtime.Footprint{Op: 1000}, 4 * 8_000 * (1000 + schedOpBytes + 4) / 1e6},
		{"three times the limit", 4_000, runtime.Footprint{Op: 3000}, 4 * 4_000 * (3000 + schedOpBytes + 4) / 1e6},
		{"the schedule alone", 150_000, runtime.Footprint{}, 4 * 150_000 * (schedOpBytes + 4) / 1e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseProgramBody(m, "for i in 1 .. "+strconv.Itoa(tc.iters)+" { compute(1us) }")
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Schedule(m, ScheduleOptions{Answer: tc.answer})
			if err == nil {
				t.Fatal("answered; want a refusal")
			}
			g := need.FindStringSubmatch(err.Error())
			if g == nil {
				t.Fatalf("got %v\nwant %v", err, need)
			}
			if mb, _ := strconv.ParseFloat(g[1], 64); mb < 0.9*tc.wantMB || mb > 1.1*tc.wantMB {
				t.Errorf("needs about %g MB; want about %.0f MB\n%v", mb, tc.wantMB, err)
			}
		})
	}
}

// chainUnderLimit is a 4-processor chain loaded with a memory limit, for
// programs refused as they grow past it.
func chainUnderLimit(t *testing.T, limit int64) *Machine {
	t.Helper()
	m, err := LoadSource("t.machine", `machine "m" {
	processor cpu { float_timings { mul = 2ns } }
	topology t = chain(4) { latency = 1us; speed = 1MB/s }
	modelsection MPI { send(n: B, src, dst) = 1us }
}`, WithMaxMemory(limit))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
