package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

func ends(res *ProgramResult) []float64 {
	out := make([]float64, len(res.Ranks))
	for i, r := range res.Ranks {
		out[i] = r.End
	}
	return out
}

func nearAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i], 1e-9) && a[i] != b[i] {
			return false
		}
	}
	return true
}

// A message between neighbours costs the sender SendOverhead and arrives
// after the wire's latency and its bytes' streaming, plus RecvOverhead;
// above the eager limit a request and a clear-to-send (packets of header
// only) go first, and the send completes with the data.
func TestProgramMessageTimes(t *testing.T) {
	const os, or, L, B, hdr = 2e-6, 3e-6, 1e-6, 1e8, 16
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: NodeParams{SendOverhead: os, RecvOverhead: or},
		DefaultLink: LinkParams{Latency: L, Bandwidth: B}, Switching: VCT, Packet: PacketParams{Header: hdr}}
	hop := func(n float64) float64 { return os + L + (n+hdr)/B + or }
	for _, tc := range []struct {
		name  string
		n     int64
		eager int64
		want  []float64
	}{
		{"eager", 4000, 0, []float64{os, hop(4000)}},
		{"at the limit", 4000, 4000, []float64{os, hop(4000)}},
		{"rendezvous", 4000, 1000, []float64{2*hop(0) + hop(4000), 2*hop(0) + hop(4000)}},
		{"no message eager", 1, NoEager, []float64{2*hop(0) + hop(1), 2*hop(0) + hop(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := chainSchedule(nil, []lang.SchedOp{send(1, tc.n, 0)}, []lang.SchedOp{recv(0, tc.n, 0)})
			res := runProg(t, spec, s, ProgramOptions{EagerLimit: tc.eager})
			if got := ends(res); !nearAll(got, tc.want) {
				t.Errorf("ends %v, want %v", got, tc.want)
			}
			if res.Messages != 1 || res.Deadlock != nil {
				t.Errorf("%d messages, deadlock %v; want 1, none", res.Messages, res.Deadlock)
			}
			path := res.CriticalPath
			if len(path) != 2 || path[0].Rank != 0 || path[0].Kind != "send" || path[1].Rank != 1 || path[1].Kind != "recv" {
				t.Errorf("critical path %+v, want rank 0's send then rank 1's receive", path)
			}
		})
	}
}

// Ranks on one processor share its CPU: two computations of 1 ms run one
// after the other, and a message between them costs both overheads on
// that CPU and no network.
func TestProgramRanksShareTheirProcessor(t *testing.T) {
	const os, or = 2e-6, 3e-6
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: NodeParams{SendOverhead: os, RecvOverhead: or},
		DefaultLink: LinkParams{Latency: 1, Bandwidth: 1}}
	s := chainSchedule(nil,
		[]lang.SchedOp{calc(1e-3), send(1, 100, 0)},
		[]lang.SchedOp{calc(1e-3), recv(0, 100, 0)},
		[]lang.SchedOp{calc(1e-3)})
	res := runProg(t, spec, s, ProgramOptions{Map: []int{0, 0, 1}})
	// Rank 0's send waits for rank 1's computation, queued on the CPU
	// before it.
	want := []float64{2e-3 + os, 2e-3 + os + or, 1e-3}
	if got := ends(res); !nearAll(got, want) {
		t.Errorf("ends %v, want %v", got, want)
	}
	if r := res.Ranks[1]; !near(r.Compute, 1e-3, 1e-9) || !near(r.Recv, or, 1e-9) || r.Node != 0 {
		t.Errorf("rank 1: %+v, want 1 ms of compute and %g s of receiving on node 0", r, or)
	}
}

// Seed 002 §1.1's receive and route delays: a processor's computation
// runs at 1/(1+delay) of its speed while packets arrive at it, for it or
// to pass on.
func TestProgramComputationSlowsWhileReceivingOrRouting(t *testing.T) {
	const n, B = 10000, 1e9 // 10 µs of streaming from time 0
	for _, tc := range []struct {
		name        string
		recv, route float64
		ranks       [][]lang.SchedOp
		nodes       []int
		want        float64 // when the computing rank (the last) ends
	}{
		{"no delay", 0, 0, [][]lang.SchedOp{{send(1, n, 0)}, {calc(10e-6), recv(0, n, 0)}}, []int{0, 1}, 10e-6},
		// The 10 µs of receiving run the work at 1/1.5 of its speed: 6.67
		// µs done, 3.33 µs after at full speed.
		{"receiving", 0.5, 0, [][]lang.SchedOp{{send(1, n, 0)}, {calc(10e-6), recv(0, n, 0)}}, []int{0, 1}, 10e-6 + 10e-6/3},
		{"receiving partly", 0.5, 0, [][]lang.SchedOp{{send(1, n, 0)}, {calc(20e-6), recv(0, n, 0)}}, []int{0, 1}, 20e-6 + 10e-6/3},
		{"work inside the receiving", 0.5, 0, [][]lang.SchedOp{{send(1, 3*n, 0)}, {calc(10e-6), recv(0, 3*n, 0)}}, []int{0, 1}, 15e-6},
		{"routing", 0, 0.3, [][]lang.SchedOp{{send(1, n, 0)}, {recv(0, n, 0)}, {calc(10e-6)}}, []int{0, 2, 1}, 10e-6 + 10e-6*0.3/1.3},
		{"route delay does not count receiving", 0, 0.3, [][]lang.SchedOp{{send(1, n, 0)}, {calc(10e-6), recv(0, n, 0)}}, []int{0, 1}, 10e-6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &Spec{Graph: mustGen(t, "chain", 3), DefaultNode: NodeParams{RecvDelay: tc.recv, RouteDelay: tc.route},
				DefaultLink: LinkParams{Latency: 0, Bandwidth: B}, Switching: VCT}
			res := runProg(t, spec, chainSchedule(nil, tc.ranks...), ProgramOptions{Map: tc.nodes})
			last := res.Ranks[len(res.Ranks)-1]
			// The work starts at 0: its span is its end.
			if !near(last.Compute, tc.want, 1e-9) || last.End < tc.want {
				t.Errorf("the computing rank computes %g s (and ends at %g s), want %g s", last.Compute, last.End, tc.want)
			}
		})
	}
}

// Seed 004's dimension-exchange barrier on a 3-cube takes three rounds of
// one neighbour message each, with no contention.
func TestProgramBarrierOnAHypercube(t *testing.T) {
	const os, or, L, B, hdr = 1e-6, 1e-6, 0.5e-6, 1e8, 8
	spec := &Spec{Graph: mustGen(t, "hypercube", 3), DefaultNode: NodeParams{SendOverhead: os, RecvOverhead: or},
		DefaultLink: LinkParams{Latency: L, Bandwidth: B}, Switching: VCT, Packet: PacketParams{Header: hdr}}
	var ranks [][]lang.SchedOp
	for range 8 {
		ranks = append(ranks, []lang.SchedOp{coll(0)})
	}
	for _, alg := range []string{"", "dimension", "dissemination", "tree"} {
		t.Run(alg, func(t *testing.T) {
			s := chainSchedule([]lang.Collective{{Name: "barrier", Algorithm: alg}}, ranks...)
			res := runProg(t, spec, s, ProgramOptions{})
			round := os + L + hdr/B + or
			wantMsgs := map[string]int64{"": 24, "dimension": 24, "dissemination": 24, "tree": 14}[alg]
			if res.Messages != wantMsgs {
				t.Errorf("%d messages, want %d", res.Messages, wantMsgs)
			}
			if alg == "" || alg == "dimension" {
				for _, r := range res.Ranks {
					if !near(r.End, 3*round, 1e-9) {
						t.Errorf("rank %d ends at %g s, want 3 rounds of %g s", r.Rank, r.End, round)
					}
				}
			}
			if res.Deadlock != nil {
				t.Errorf("deadlock: %+v", res.Deadlock)
			}
		})
	}
}

// Receives match by source and tag, first in first out; any-source and
// any-tag receives take what is there, and a receive that nothing
// matches is a deadlock naming the rank, its operation and its peer.
func TestProgramMatching(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 3), DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}}
	for _, tc := range []struct {
		name    string
		ranks   [][]lang.SchedOp
		waiting string // "rank:op:peer ..." of the deadlock, "" for none
	}{
		{"tags pick the message", [][]lang.SchedOp{{send(1, 8, 1), send(1, 8, 2)}, {recv(0, 8, 2), recv(0, 8, 1)}}, ""},
		{"any source and tag", [][]lang.SchedOp{{send(2, 8, 5)}, {send(2, 8, 6)}, {recv(lang.AnyRank, 8, 5), recv(lang.AnyRank, 8, lang.AnyTag)}}, ""},
		{"both receive first", [][]lang.SchedOp{{recv(1, 8, 0), send(1, 8, 0)}, {recv(0, 8, 0), send(0, 8, 0)}}, "0:0:1 1:0:0"},
		{"wrong tag", [][]lang.SchedOp{{send(1, 8, 1)}, {recv(0, 8, 2)}}, "1:0:0"},
		{"rendezvous never matched", [][]lang.SchedOp{{send(1, 8000, 1)}, {calc(1e-6)}}, "0:0:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runProg(t, spec, chainSchedule(nil, tc.ranks...), ProgramOptions{EagerLimit: 1000})
			got := ""
			if res.Deadlock != nil {
				var w []string
				for _, x := range res.Deadlock.Waiting {
					w = append(w, fmt.Sprintf("%d:%d:%d", x.Rank, x.Op, x.Peer))
				}
				got = strings.Join(w, " ")
			}
			if got != tc.waiting {
				t.Errorf("waiting %q, want %q", got, tc.waiting)
			}
		})
	}
}

// The timeline covers each rank from 0 to its end with compute, send,
// recv and wait spans that do not overlap and add up to the breakdown.
func TestProgramTimelineCoversEachRank(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "ring", 4), DefaultNode: NodeParams{SendOverhead: 1e-6, RecvOverhead: 1e-6},
		DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}}
	var ranks [][]lang.SchedOp
	for r := range int32(4) {
		ranks = append(ranks, []lang.SchedOp{calc(float64(r+1) * 1e-6), coll(0), calc(2e-6)})
	}
	s := chainSchedule([]lang.Collective{{Name: "allreduce", Algorithm: "ring", Bytes: 4096}}, ranks...)
	res := runProg(t, spec, s, ProgramOptions{Timeline: true})
	for _, r := range res.Ranks {
		at := 0.0
		sum := map[string]float64{}
		for _, sp := range res.Timeline {
			if sp.Rank != r.Rank {
				continue
			}
			if !near(sp.Start, at, 1e-9) && sp.Start != at {
				t.Fatalf("rank %d: a span starts at %g, the one before ended at %g", r.Rank, sp.Start, at)
			}
			at = sp.End
			sum[sp.Kind] += sp.End - sp.Start
		}
		if !near(at, r.End, 1e-9) || !near(sum["compute"], r.Compute, 1e-9) || !near(sum["wait"], r.Wait, 1e-9) {
			t.Errorf("rank %d: spans end at %g with %v; the rank %+v", r.Rank, at, sum, r)
		}
	}
	if res.Messages != 2*4*3 {
		t.Errorf("%d messages, want the ring allreduce's 24", res.Messages)
	}
	if p := res.CriticalPath; len(p) == 0 || p[len(p)-1].Kind != "calc" || !near(p[len(p)-1].End, res.Makespan, 1e-12) {
		t.Errorf("critical path %+v should end with a calc at the makespan %g", p, res.Makespan)
	}
}

func TestProgramStopsEarly(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "ring", 8), DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}, Switching: VCT}
	var ranks [][]lang.SchedOp
	for range 8 {
		ranks = append(ranks, []lang.SchedOp{coll(0), coll(1)})
	}
	s := chainSchedule([]lang.Collective{{Name: "alltoall", Bytes: 100}, {Name: "barrier"}}, ranks...)
	res, err := RunProgram(context.Background(), spec, s, ProgramOptions{MaxEvents: 50})
	if err != nil || !res.Partial || res.Deadlock != nil || res.Events != 50 {
		t.Errorf("with 50 events at most: err %v, partial %v, deadlock %v, %d events", err, res != nil && res.Partial, res.Deadlock, res.Events)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err = RunProgram(ctx, spec, s, ProgramOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

func TestProgramRejectsBadInput(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}}
	two := chainSchedule(nil, []lang.SchedOp{send(1, 8, 0)}, []lang.SchedOp{recv(0, 8, 0)})
	for _, tc := range []struct {
		s    *lang.Schedule
		o    ProgramOptions
		want string
	}{
		{two, ProgramOptions{Map: []int{0}}, "the mapping places 1 ranks, the program has 2"},
		{two, ProgramOptions{Map: []int{0, 7}}, "places rank 1 on node 7, which is not a processor (processor ids are 0..1)"},
		{chainSchedule(nil, []lang.SchedOp{send(5, 8, 0)}), ProgramOptions{}, "rank 0 sends to rank 5, which is not a rank (ranks are 0..0)"},
		{two, ProgramOptions{MaxMemory: 100}, "set --max-memory to raise it"},
		{two, ProgramOptions{EagerLimit: -2}, "nor EagerLimit below NoEager"},
		{two, ProgramOptions{MaxEvents: -1}, "must not be negative"},
		{chainSchedule(nil, []lang.SchedOp{calc(math.NaN())}), ProgramOptions{}, "operation calc of rank 0 computes for NaN s"},
		{chainSchedule(nil, []lang.SchedOp{calc(1), calc(-1)}), ProgramOptions{}, "operation calc of rank 0 computes for -1 s"},
		{chainSchedule(nil, []lang.SchedOp{}, []lang.SchedOp{calc(math.Inf(1))}), ProgramOptions{}, "operation calc of rank 1 computes for +Inf s"},
		{chainSchedule(nil, []lang.SchedOp{send(1, -8, 0)}, []lang.SchedOp{recv(0, 8, 0)}), ProgramOptions{}, "operation send of rank 0 sends -8 bytes"},
	} {
		_, err := RunProgram(context.Background(), spec, tc.s, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
}

// Operations on a CPU other than 0 (GOAL's cpu 1, a trace's timers) run
// beside the processor's simulated CPU: two independent 10 µs
// computations, one on each, end together, and only CPU 0's counts as the
// rank's computing.
func TestProgramOtherCPUsRunBeside(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}}
	s := chainSchedule(nil, []lang.SchedOp{calc(10e-6), calc(10e-6)})
	s.Ops[1].CPU = 1
	s.Deps, s.DepStart = nil, []int32{0, 0, 0} // independent
	res := runProg(t, spec, s, ProgramOptions{})
	if r := res.Ranks[0]; !near(r.End, 10e-6, 1e-9) || !near(r.Compute, 10e-6, 1e-9) {
		t.Errorf("rank 0: %+v, want to end at 10 µs having computed 10 µs", r)
	}
}

// Random schedules (sends and receives in random order on each rank, some
// from any source, eager and rendezvous, ranks sharing processors, on
// every switching) end without an error: every operation done, or a
// deadlock naming ranks; each rank's breakdown adds up to its end; and
// its timeline spans follow one another.
func TestProgramRandomSchedulesKeepTheirInvariants(t *testing.T) {
	g := mustGen(t, "torus", 3, 3)
	for seed := range uint64(60) {
		rng := topo.NewRand(seed)
		R := 2 + rng.Intn(10)
		ranks := make([][]lang.SchedOp, R)
		sends := 0
		for range 3 * R {
			src, dst := int32(rng.Intn(R)), int32(rng.Intn(R))
			n := int64(rng.Intn(3000))
			tag := int32(rng.Intn(3))
			from := src
			if rng.Intn(5) == 0 {
				from = lang.AnyRank
			}
			insert := func(r int32, op lang.SchedOp) {
				ops := ranks[r]
				k := rng.Intn(len(ops) + 1)
				ranks[r] = append(ops[:k], append([]lang.SchedOp{op}, ops[k:]...)...)
			}
			insert(src, send(dst, n, tag))
			insert(dst, recv(from, n, tag))
			sends++
			if rng.Intn(2) == 0 {
				insert(int32(rng.Intn(R)), calc(float64(rng.Intn(5))*1e-6))
			}
		}
		spec := &Spec{Graph: g, DefaultNode: NodeParams{SendOverhead: 1e-7, RecvOverhead: 2e-7, RecvDelay: 0.2},
			DefaultLink: LinkParams{Latency: 1e-7, Bandwidth: 1e9}, Switching: Switching(rng.Intn(4)), Packet: PacketParams{Payload: 512, Header: 8}}
		m := make([]int, R)
		for r := range m {
			m[r] = rng.Intn(9)
		}
		o := ProgramOptions{Map: m, EagerLimit: int64(rng.Intn(2) * 1000), Timeline: true, Seed: seed}
		res, err := RunProgram(context.Background(), spec, chainSchedule(nil, ranks...), o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkBreakdown(t, res)
		if res.Deadlock == nil && res.Messages != int64(sends) {
			t.Errorf("seed %d: finished with %d messages of %d", seed, res.Messages, sends)
		}
		if res.Deadlock != nil && len(res.Deadlock.Waiting) == 0 {
			t.Errorf("seed %d: a deadlock with no waiting rank", seed)
		}
		at := map[int]float64{}
		for _, sp := range res.Timeline {
			if sp.Start < at[sp.Rank]-1e-15 || sp.End < sp.Start {
				t.Fatalf("seed %d: rank %d's span %+v starts before %g", seed, sp.Rank, sp, at[sp.Rank])
			}
			at[sp.Rank] = sp.End
		}
	}
}

// The critical path is a chain back in time with each operation on it
// once, from what held the last operation back first, also when a send irequires its rank's posted receive and that
// receive is matched by a neighbour's send that irequires the
// neighbour's receive (a halo exchange: the waits form a ring).
func TestProgramCriticalPathVisitsEachOperationOnce(t *testing.T) {
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: NodeParams{SendOverhead: 1e-6, RecvOverhead: 1e-6},
		DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e8}}
	// Per rank: irecv from the other; isend to it once the irecv is
	// posted; a calc once both are done. Rank 1 first computes, so that
	// rank 0's receive is posted long before its message comes.
	exchange := func(first float64) *lang.Schedule {
		s := &lang.Schedule{Ranks: 2, DepStart: []int32{0}}
		for r := range int32(2) {
			base := int32(len(s.Ops))
			s.RankStart = append(s.RankStart, base)
			ops := []lang.SchedOp{calc(first * float64(r)), recv(1-r, 64, 0), send(1-r, 64, 0), calc(1e-6)}
			deps := [][]lang.SchedDep{nil, {{Op: base}}, {{Op: base + 1, Start: true}}, {{Op: base + 1}, {Op: base + 2}}}
			for k, op := range ops {
				op.Label = -1
				s.Ops = append(s.Ops, op)
				s.Deps = append(s.Deps, deps[k]...)
				s.DepStart = append(s.DepStart, int32(len(s.Deps)))
			}
		}
		s.RankStart = append(s.RankStart, int32(len(s.Ops)))
		return s
	}
	for _, tc := range []struct {
		name  string
		first float64
		eager int64
		from  [2]int // the path's first step: rank, operation
	}{
		{"together", 0, 0, [2]int{0, 0}},
		{"one rank late", 20e-6, 0, [2]int{1, 0}},
		{"rendezvous", 20e-6, 10, [2]int{1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runProg(t, spec, exchange(tc.first), ProgramOptions{EagerLimit: tc.eager})
			path := res.CriticalPath
			if len(path) == 0 || len(path) > 8 {
				t.Fatalf("critical path of %d steps for 8 operations: %+v", len(path), path)
			}
			seen := map[[2]int]bool{}
			for _, st := range path {
				if seen[[2]int{st.Rank, st.Op}] {
					t.Fatalf("rank %d's operation %d is on the critical path twice: %+v", st.Rank, st.Op, path)
				}
				seen[[2]int{st.Rank, st.Op}] = true
			}
			if first := [2]int{path[0].Rank, path[0].Op}; first != tc.from {
				t.Errorf("the path starts at rank %d's operation %d, want %d's %d: %+v", first[0], first[1], tc.from[0], tc.from[1], path)
			}
			if last := path[len(path)-1]; last.End != res.Makespan {
				t.Errorf("the path ends at %g, the makespan is %g", last.End, res.Makespan)
			}
		})
	}
}

// rankOf finds every operation's rank, by its place in the schedule
// where ranks have as many operations (dividing by multiplication: 28
// each) and by rankBy where they do not (ranks of 3, 0, 1 and 5).
func TestProgramRankOfEveryOperation(t *testing.T) {
	for _, counts := range [][]int{{2, 2, 2}, {3, 0, 1, 5}, {0, 0, 4}, {28, 28, 28, 28, 28}, {1, 1, 1}} {
		x := &lang.Schedule{Ranks: len(counts), RankStart: []int32{0}}
		var want []int
		for r, c := range counts {
			for range c {
				x.Ops = append(x.Ops, lang.SchedOp{Kind: lang.OpCalc, Label: -1})
				want = append(want, r)
			}
			x.RankStart = append(x.RankStart, int32(len(x.Ops)))
		}
		p := &progRun{x: x}
		p.rankBy, p.byRank = rankIndex(x)
		for op, r := range want {
			if got := p.rankOf(int32(op)); got != r {
				t.Errorf("ranks of %v operations: operation %d is of rank %d, not %d", counts, op, got, r)
			}
		}
	}
}

// sortRuns leaves contenders in the order a stable sort by (ts, seq)
// does: batches of one to a dozen runs in order, with keys repeated (one
// contender twice, and ties that only the stable order breaks), short
// and longer than it merges.
func TestSortRunsSortsAsTheStableSort(t *testing.T) {
	byTime := func(a, b contender) int {
		if a.ts != b.ts {
			return cmp.Compare(a.ts, b.ts)
		}
		return cmp.Compare(a.seq, b.seq)
	}
	rng := topo.NewRand(7)
	var spare []contender
	for trial := range 400 {
		n := 1 + rng.Intn(60)
		if trial%100 == 0 {
			n = maxMerged + 1 + rng.Intn(5)
		}
		runs := 1 + rng.Intn(12)
		b := make([]contender, n)
		for i := range b {
			// Runs in order, each from a random start; a few keys drawn
			// from a small range so that they repeat.
			b[i] = contender{ts: float64(rng.Intn(8)), seq: int64(rng.Intn(4)), id: int32(i)}
		}
		for r := range runs {
			lo, hi := r*n/runs, (r+1)*n/runs
			slices.SortStableFunc(b[lo:hi], byTime)
		}
		want := slices.Clone(b)
		slices.SortStableFunc(want, byTime)
		var got []contender
		got, spare = sortRuns(b, spare, byTime)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d contenders, %d runs): got %v, want %v", trial, n, runs, got, want)
		}
	}
}

// roomFor leaves a slice with room as it is, and doubles the room of a
// full one (from 16 at least), keeping its elements.
func TestRoomForDoublesAFullSlice(t *testing.T) {
	s := make([]int32, 3, 5)
	if got := roomFor(s); cap(got) != 5 || len(got) != 3 {
		t.Errorf("room left: cap %d len %d, want 5 and 3", cap(got), len(got))
	}
	for _, n := range []int{0, 7, 16, 100, 1000} {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(i)
		}
		got := roomFor(s)
		if len(got) != n || cap(got) < max(2*n, 16) || !slices.Equal(got, s) {
			t.Errorf("full slice of %d: len %d cap %d (want cap ≥ %d), same elements %v", n, len(got), cap(got), max(2*n, 16), slices.Equal(got, s))
		}
	}
}

// A schedule of no collectives whose operation calls one is refused as
// the expansion of collectives refuses it, naming the operation and how
// many collectives there are, though the run no longer expands such a
// schedule.
func TestProgramRefusesACollectiveTheScheduleLacks(t *testing.T) {
	s := chainSchedule(nil, []lang.SchedOp{calc(1e-6)}, []lang.SchedOp{calc(1e-6), coll(0)})
	_, err := RunProgram(context.Background(), basic(mustGen(t, "chain", 2), 1e-6, 1e9), s, ProgramOptions{})
	if err == nil || !strings.Contains(err.Error(), "operation 1 calls collective 0; the schedule has 0") {
		t.Fatalf("err = %v, want the collective refused", err)
	}
}
