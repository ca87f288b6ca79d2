package runtime

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// clockRun loads a machine with processor fields clock, instantiates the
// program and simulates it with seed.
func clockRun(t *testing.T, clock, program string, seed uint64) *ProgramResult {
	t.Helper()
	spec, s, err := compileMachine("c.machine", `machine "c" {
	processor cpu { send_overhead = 10ns; recv_overhead = 20ns; `+clock+` }
	topology t = chain(2) { latency = 1us; speed = 1GB/s }
}
`+program, "p")
	if err != nil {
		t.Fatal(err)
	}
	return runProg(t, spec, s, ProgramOptions{Seed: seed})
}

// TestProgramsReadTheirProcessorsClock: now() reads the local clock (the
// true time with the offset and drift drawn, and jitter), until waits for
// the local clock, and TrueValues give what a perfect clock would have.
func TestProgramsReadTheirProcessorsClock(t *testing.T) {
	const prog = `program p {
	compute(2us)
	let t = now()
	until(t + 3us)
	let u = now()
}
`
	for _, tc := range []struct {
		name, clock string
		// want t and u from the drawn clock (offset, drift) and the
		// true times 2us and the end of the wait.
		jitter float64
	}{
		{"a perfect clock", "", 0},
		{"an offset", "clock_offset = -700ns", 0},
		{"an offset and a drift", "clock_offset = 300ns; clock_drift = 0.01", 0},
		{"drawn offsets and jitter", "clock_offset = uniform(-1us, 1us); clock_drift = normal(0, 1e-3); clock_jitter = 5ns", 5e-9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := clockRun(t, tc.clock, prog, 7)
			for r := range 2 {
				var off, drift float64
				if tc.clock != "" {
					if len(res.Clocks) != 2 {
						t.Fatalf("clocks %v, want one per rank", res.Clocks)
					}
					off, drift = res.Clocks[r].Offset, res.Clocks[r].Drift
				} else if res.Clocks != nil || res.TrueValues != nil {
					t.Errorf("perfect clocks report clocks %v and true values %v", res.Clocks, res.TrueValues)
				}
				local := func(x float64) float64 { return x*(1+drift) + off }
				tv, uv := res.Values["t"][r], res.Values["u"][r]
				if math.Abs(tv-local(2e-6)) > tc.jitter+1e-15 {
					t.Errorf("rank %d: t = %g, want the clock at 2us, %g (± %g)", r, tv, local(2e-6), tc.jitter)
				}
				// The wait ends when the clock, read without jitter, shows
				// t + 3us; u reads it then.
				end := (tv + 3e-6 - off) / (1 + drift)
				if math.Abs(res.Ranks[r].End-end) > 1e-15 {
					t.Errorf("rank %d ends at %g, want %g", r, res.Ranks[r].End, end)
				}
				if math.Abs(uv-local(end)) > tc.jitter+1e-15 {
					t.Errorf("rank %d: u = %g, want %g", r, uv, local(end))
				}
				if tc.clock != "" {
					if tt := res.TrueValues["t"][r]; math.Abs(tt-2e-6) > 1e-15 {
						t.Errorf("rank %d: true t = %g, want 2us", r, tt)
					}
				}
			}
		})
	}
}

// TestMessagesCarryValuesToTheirReceive: a receive stores the value the
// send it matched carried, as the sender's clock read it.
func TestMessagesCarryValuesToTheirReceive(t *testing.T) {
	res := clockRun(t, "clock_offset = 5us", `program p {
	if rank == 0 {
		compute(1us)
		send(0B, to: 1, value: now() + 1us)
	} else {
		let got = recv(from: 0)
		let late = now() - got
	}
}
`, 1)
	got, late := res.Values["got"][1], res.Values["late"][1]
	if math.Abs(got-(5e-6+1e-6+1e-6)) > 1e-15 {
		t.Errorf("rank 1 received %g, want rank 0's clock at 1us plus 1us, 7us", got)
	}
	// The message takes the send overhead, one microsecond of wire and
	// its 4 bytes (none of data), and the receive overhead; both clocks
	// are 5us ahead, so late is the journey less the 1us added.
	journey := res.Ranks[1].End - 1e-6
	if math.Abs(late-(journey-1e-6)) > 1e-12 {
		t.Errorf("late = %g, want the journey %g less 1us", late, journey)
	}
	if tl := res.TrueValues["late"][1]; math.Abs(tl-late) > 1e-15 {
		t.Errorf("true late %g, want %g: equal offsets cancel", tl, late)
	}
}

// TestClockDrawsFollowTheSeed: the same seed draws the same clocks, and
// another seed others.
func TestClockDrawsFollowTheSeed(t *testing.T) {
	const prog = "program p { let t = now() }\n"
	const clock = "clock_offset = uniform(-1us, 1us); clock_jitter = 1ns"
	a, b, c := clockRun(t, clock, prog, 1), clockRun(t, clock, prog, 1), clockRun(t, clock, prog, 2)
	for r := range 2 {
		if a.Values["t"][r] != b.Values["t"][r] || a.Clocks[r] != b.Clocks[r] {
			t.Errorf("rank %d: seed 1 twice gives %g and %g", r, a.Values["t"][r], b.Values["t"][r])
		}
	}
	if a.Clocks[0] == c.Clocks[0] && a.Clocks[1] == c.Clocks[1] {
		t.Errorf("seeds 1 and 2 draw the same clocks %v", a.Clocks)
	}
	if a.Clocks[0] == a.Clocks[1] {
		t.Errorf("both processors drew the clock %v", a.Clocks[0])
	}
}

// TestWaitingForATimeThatNeverComesIsADeadlock: until of an infinite
// time leaves the rank waiting, which the run reports.
func TestWaitingForATimeThatNeverComesIsADeadlock(t *testing.T) {
	res := clockRun(t, "", "program p { let z = now() - now()\n until(1us / (z / 1us)) }\n", 1)
	if res.Deadlock == nil || len(res.Deadlock.Waiting) != 2 {
		t.Fatalf("deadlock %+v, want both ranks waiting", res.Deadlock)
	}
}

// TestClockOperationsWithoutARegisterAreRefused: a schedule built by
// hand whose clock operation names no register, or one it lacks, is an
// error, not a crash.
func TestClockOperationsWithoutARegisterAreRefused(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e6}}
	for _, tc := range []struct {
		name string
		op   lang.SchedOp
		regs int32
	}{
		{"now without a register", lang.SchedOp{Kind: lang.OpNow}, 1},
		{"until beyond the registers", lang.SchedOp{Kind: lang.OpUntil, Reg: 3}, 1},
		{"set of a missing expression", lang.SchedOp{Kind: lang.OpSet, Reg: 1, Peer: 4}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := chainSchedule(nil, []lang.SchedOp{tc.op}, []lang.SchedOp{calc(1e-6)})
			s.Regs = tc.regs
			_, err := RunProgram(context.Background(), spec, s, ProgramOptions{})
			if err == nil || !strings.Contains(err.Error(), "operation 0 of rank 0 names register") {
				t.Errorf("error = %v, want one naming the operation", err)
			}
		})
	}
}
