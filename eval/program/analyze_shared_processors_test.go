package program

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// sharedGOAL is a random GOAL schedule of R ranks whose operations run on
// two CPUs per rank, with requires and irequires between them, so that
// on few processors ranks contend for CPUs and NICs every way they can.
func sharedGOAL(R, msgs int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	ops := make([][]string, R)
	count := make([]int, R)
	add := func(r int, op string) {
		count[r]++
		n := count[r]
		ops[r] = append(ops[r], fmt.Sprintf("l%d: %s cpu %d", n, op, rng.IntN(2)))
		if n > 1 && rng.IntN(3) > 0 {
			rel := "requires"
			if rng.IntN(3) == 0 {
				rel = "irequires"
			}
			ops[r] = append(ops[r], fmt.Sprintf("l%d %s l%d", n, rel, 1+rng.IntN(n-1)))
		}
	}
	for i := range msgs {
		src, dst := rng.IntN(R), rng.IntN(R)
		size := []int{8, 100, 4000, 70000}[rng.IntN(4)]
		add(rng.IntN(R), fmt.Sprintf("calc %d", rng.IntN(3000)))
		add(src, fmt.Sprintf("send %db to %d tag %d", size, dst, i))
		add(dst, fmt.Sprintf("recv %db from %d tag %d", size, src, i))
	}
	return goalText(ops)
}

// The analytic answer of ranks that share processors (more ranks than
// processors, every rank queued for its processor's CPU and NIC) obeys
// the model, whatever the program: on every program of
// examples/programs that shares processors, and on random GOAL schedules
// that also use a second CPU per rank with requires and irequires, it
// finishes, and
//
//   - each CPU of a processor does one thing at a time: the compute, send
//     and receive spans of all the ranks on it, on that CPU, never
//     overlap (a collective the model costs as a whole excepted: it
//     charges its ranks at once), and end by the makespan (not yet
//     checked for programs that wait on their clocks: see
//     checkSharedAnswer);
//   - each rank's breakdown is its first CPU's spans: Compute, Send and
//     Recv are the lengths of its compute, send and recv spans there, and
//     Compute + Send + Recv + Wait = End;
//   - the makespan is the last rank's end, and the critical path runs
//     forward in time to it, each step starting no earlier than the one
//     before.
//
// TestAnalyzeRanksSharingAProcessorTakeItInTurn derives end times of small
// cases from the model by hand.
func TestAnalyzeRanksSharingProcessorsObeyTheModel(t *testing.T) {
	xmp, err := eval.Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	clocks, err := eval.Load("../../examples/programs/clock-sync.machine")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		m       *eval.Machine
		file    string // a program file, or "" for goal
		program string
		args    map[string]string
		ranks   int
		goal    string
	}{
		{name: "jacobi", m: xmp, file: "jacobi.machine", ranks: 256},
		{name: "ring-barrier", m: xmp, file: "ring.machine", ranks: 256},
		{name: "pipeline", m: xmp, file: "pipeline_bcast.machine", ranks: 256},
		{name: "ring-allreduce", m: xmp, file: "ring_allreduce.machine", ranks: 192},
		{name: "farm", m: xmp, file: "farm.machine", ranks: 200, args: map[string]string{"tasks": "600"}},
		{name: "clocks-until", m: clocks, file: "clock-sync.machine", program: "clocksync", ranks: 256,
			args: map[string]string{"then_barrier": "1", "then_transpose": "1"}},
		{name: "goal-two-cpus", m: loggp(t, 3, 2500, 1500, 1000, 6, 0, 65535), goal: sharedGOAL(16, 600, 1)},
		{name: "goal-two-cpus-rendezvous", m: loggp(t, 2, 2500, 1500, 3000, 6, 1, 1000), goal: sharedGOAL(9, 500, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *lang.Schedule
			if tc.goal != "" {
				s = readGOAL(t, tc.name, tc.goal)
			} else {
				p, err := eval.LoadProgram("../../examples/programs/"+tc.file, eval.WithProgram(tc.program))
				if err != nil {
					t.Fatal(err)
				}
				if s, err = p.Schedule(tc.m, eval.ScheduleOptions{Ranks: tc.ranks, Args: tc.args}); err != nil {
					t.Fatal(err)
				}
			}
			res := analyze(t, tc.m, s, AnalyzeOptions{Timeline: true})
			checkSharedAnswer(t, tc.m, s, res)
		})
	}
}

// checkSharedAnswer holds an analytic answer with a timeline to the rules
// TestAnalyzeRanksSharingProcessorsObeyTheModel lists.
func checkSharedAnswer(t *testing.T, m *eval.Machine, s *lang.Schedule, res *runtime.ProgramResult) {
	t.Helper()
	// Times are whole picoseconds in seconds: sums of them agree to far
	// better than this.
	const eps = 1e-15
	if res.Deadlock != nil || res.Partial {
		t.Fatalf("the answer is not complete: deadlock %v, partial %v", res.Deadlock, res.Partial)
	}
	procs := map[int]bool{}
	for _, r := range res.Ranks {
		procs[r.Node] = true
	}
	if len(procs) >= len(res.Ranks) {
		t.Fatalf("%d ranks on %d processors share none", len(res.Ranks), len(procs))
	}
	// A span's operation is one of the schedule the analysis ran, x: s
	// with the collectives the model does not cost as a whole expanded
	// into messages. A compute or send span is on the CPU its operation
	// names, except a collective costed as a whole, which the model
	// charges to all its ranks at once; a receive is on the CPU its send
	// names, as in LogGOPSim, and the timeline shows only what it costs
	// the first.
	a, err := newAnalysis(m, s, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := a.s
	type cpu struct{ node, cpu int }
	busy := map[cpu][]runtime.Span{}
	sums := make([][3]float64, len(res.Ranks)) // per rank: compute, send, recv on its first CPU
	for _, sp := range res.Timeline {
		if sp.Kind == "wait" {
			continue
		}
		c, whole := 0, false
		if sp.Kind != "recv" {
			op := x.OpsOf(sp.Rank)[sp.Op]
			c, whole = int(op.CPU), op.Kind == lang.OpColl
		}
		if !whole {
			busy[cpu{res.Ranks[sp.Rank].Node, c}] = append(busy[cpu{res.Ranks[sp.Rank].Node, c}], sp)
		}
		if c == 0 {
			sums[sp.Rank][map[string]int{"compute": 0, "send": 1, "recv": 2}[sp.Kind]] += sp.End - sp.Start
		}
	}
	if len(busy) == 0 {
		t.Fatal("the timeline shows no work")
	}
	for c, spans := range busy {
		slices.SortStableFunc(spans, func(a, b runtime.Span) int { return cmp.Compare(a.Start, b.Start) })
		for i, sp := range spans {
			if sp.End > res.Makespan+eps || sp.End < sp.Start {
				t.Fatalf("processor %d CPU %d: %+v ends after the makespan %g s or before it starts", c.node, c.cpu, sp, res.Makespan)
			}
			if i > 0 && sp.Start < spans[i-1].End-eps {
				t.Fatalf("processor %d CPU %d does two things at once: %+v and %+v", c.node, c.cpu, spans[i-1], sp)
			}
		}
	}
	last := 0.0
	for r, rt := range res.Ranks {
		last = max(last, rt.End)
		if sum := rt.Compute + rt.Send + rt.Recv + rt.Wait; math.Abs(sum-rt.End) > eps*float64(len(s.OpsOf(r))+1) {
			t.Fatalf("rank %d: compute + send + recv + wait = %g s, not its end %g s", r, sum, rt.End)
		}
		for k, got := range []float64{rt.Compute, rt.Send, rt.Recv} {
			if math.Abs(got-sums[r][k]) > eps*float64(len(s.OpsOf(r))+1) {
				t.Fatalf("rank %d: its %s time is %g s, its timeline's spans on its first CPU %g s", r, []string{"compute", "send", "recv"}[k], got, sums[r][k])
			}
		}
	}
	if res.Makespan != last {
		t.Fatalf("makespan %g s, but the last rank ends at %g s", res.Makespan, last)
	}
	path := res.CriticalPath
	if len(path) == 0 || math.Abs(path[len(path)-1].End-res.Makespan) > eps {
		t.Fatalf("the critical path (%d steps) does not end at the makespan %g s", len(path), res.Makespan)
	}
	for i, st := range path {
		// A step starts once the one before it has ended, or, through
		// an irequires, started; a message's receipt after its send.
		if st.End < st.Start || i > 0 && st.Start < path[i-1].Start {
			t.Fatalf("critical path step %d %+v runs backwards (after %+v)", i, st, path[max(i-1, 0)])
		}
	}
}

// Ranks that share a processor take its CPU, and its NIC, in the order
// they became ready for it, each waiting rank in turn as the one before
// it is done, whatever became ready meanwhile.
func TestAnalyzeRanksSharingAProcessorTakeItInTurn(t *testing.T) {
	for _, tc := range []struct {
		name string
		P    int
		g    int64 // the NIC's gap per message, ns
		ops  [][]string
		want string // end times, ns
	}{
		{"four ranks computing twice on one CPU", 1, 1000, [][]string{
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
		}, "[5000 6000 7000 8000]"},
		// Ranks 0, 2 and 4 share processor 0 and send to rank 1: each
		// send holds the CPU o = 1 µs and the NIC g = 3 µs, so they
		// start 3 µs apart; rank 1 takes each o = 1 µs after L = 2.5 µs.
		{"three ranks sending through one NIC", 2, 3000, [][]string{
			{"l1: send 1b to 1 tag 0"},
			{"l1: recv 1b from -1 tag 0", "l2: recv 1b from -1 tag 0", "l3: recv 1b from -1 tag 0"},
			{"l1: send 1b to 1 tag 0"},
			{},
			{"l1: send 1b to 1 tag 0"},
		}, "[1000 10500 4000 0 7000]"},
		// Rank 0 sends two messages to rank 1 on the same processor, so
		// each passes its NIC twice: out through its send gap, in
		// through its receive gap, two clocks as in LogGOPSim, while
		// both ranks take the one CPU in turn. The first send holds the
		// CPU [0, 1 µs] and the send gap [0, 3 µs]; the second waits for
		// the gap and holds the CPU [3, 4 µs] and the gap [3, 6 µs]:
		// rank 0 ends at 4 µs. The first message arrives at
		// 0 + o + L = 3.5 µs, while the second send holds the CPU, and
		// is taken once it is free, [4, 5 µs] (receive gap [4, 7 µs]);
		// the second arrives at 3 + 1 + 2.5 = 6.5 µs and waits for the
		// receive gap: [7, 8 µs]. Rank 1 ends at 8 µs.
		{"two messages to a rank on the same processor", 1, 3000, [][]string{
			{"l1: send 1b to 1 tag 0", "l2: send 1b to 1 tag 1"},
			{"l1: recv 1b from 0 tag 0", "l2: recv 1b from 0 tag 1"},
		}, "[4000 8000]"},
		// Two ranks on one processor with two CPUs: the ranks' work on
		// cpu 0 shares its first CPU, their work on cpu 1 its second.
		// Rank 0 computes [0, 1 µs] on the first and [0, 2 µs] on the
		// second; rank 1 waits for each: [1, 2 µs] and [2, 4 µs].
		{"two ranks on one processor with two CPUs", 1, 1000, [][]string{
			{"l1: calc 1000 cpu 0", "l2: calc 2000 cpu 1"},
			{"l1: calc 1000 cpu 0", "l2: calc 2000 cpu 1"},
		}, "[2000 4000]"},
		// l2 irequires l1, so the send starts when the computation on
		// the other CPU starts, at 0: the CPU [0, 1 µs], the NIC
		// [0, 3 µs]. The message arrives at 0 + o + L = 3.5 µs, when
		// the processor's CPU and NIC are both free again, and rank 1
		// takes it [3.5, 4.5 µs]; rank 0 ends with its computation, at
		// 3 µs.
		{"a send that irequires a computation on the other CPU", 1, 3000, [][]string{
			{"l1: calc 3000 cpu 1", "l2: send 1b to 1 tag 0", "l2 irequires l1"},
			{"l1: recv 1b from 0 tag 0"},
		}, "[3000 4500]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := readGOAL(t, tc.name, goalText(tc.ops))
			res := analyze(t, loggp(t, tc.P, 2500, 1000, tc.g, 0, 0, 65535), s, AnalyzeOptions{})
			if got := fmt.Sprint(endsNS(res)); got != tc.want {
				t.Errorf("end times (ns) %s, want %s", got, tc.want)
			}
		})
	}
}
