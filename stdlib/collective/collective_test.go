package collective

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/registry"
)

// collSchedule is P ranks that each compute 1 s, take part in one
// collective, then compute 1 s more.
func collSchedule(P int, c lang.Collective) *lang.Schedule {
	c.Ranks = int32(P)
	s := &lang.Schedule{Ranks: P, Colls: []lang.Collective{c}, Labels: []string{"coll"}, DepStart: []int32{0}}
	for range P {
		s.RankStart = append(s.RankStart, int32(len(s.Ops)))
		base := int32(len(s.Ops))
		s.Ops = append(s.Ops,
			lang.SchedOp{Kind: lang.OpCalc, Time: 1, Label: -1},
			lang.SchedOp{Kind: lang.OpColl, Peer: 0, Label: 0},
			lang.SchedOp{Kind: lang.OpCalc, Time: 1, Label: -1})
		s.DepStart = append(s.DepStart, int32(len(s.Deps)))
		s.Deps = append(s.Deps, lang.SchedDep{Op: base})
		s.DepStart = append(s.DepStart, int32(len(s.Deps)))
		s.Deps = append(s.Deps, lang.SchedDep{Op: base + 1})
		s.DepStart = append(s.DepStart, int32(len(s.Deps)))
	}
	s.RankStart = append(s.RankStart, int32(len(s.Ops)))
	return s
}

// rounds executes an expanded schedule in a model of unit send cost and
// no latency: a rank's sends take one time unit each, one after the other
// in operation order, and a message arrives as its send ends; receives
// cost nothing and complete when their message (the k-th send from their
// source to them with their tag, for the k-th such receive) has arrived.
// The leading 1 s calc is taken off, so the result is the algorithm's
// number of communication rounds. A receive that can never complete fails
// the test.
func rounds(t *testing.T, s *lang.Schedule) int {
	t.Helper()
	type key struct{ src, dst, tag int32 }
	sends := map[key][]int{}
	for r := range s.Ranks {
		for j, op := range s.OpsOf(r) {
			if op.Kind == lang.OpSend {
				k := key{int32(r), op.Peer, op.Tag}
				sends[k] = append(sends[k], int(s.RankStart[r])+j)
			}
		}
	}
	match := make([]int, len(s.Ops))
	seen := map[key]int{}
	for r := range s.Ranks {
		for j, op := range s.OpsOf(r) {
			if op.Kind == lang.OpRecv {
				k := key{op.Peer, int32(r), op.Tag}
				n := seen[k]
				seen[k]++
				if n >= len(sends[k]) {
					t.Fatalf("rank %d op %d: receive #%d from %d has no send", r, j, n+1, op.Peer)
				}
				send := sends[k][n]
				if s.Ops[send].Bytes != op.Bytes {
					t.Fatalf("rank %d op %d: receives %d bytes from %d, which sends %d", r, j, op.Bytes, op.Peer, s.Ops[send].Bytes)
				}
				match[int(s.RankStart[r])+j] = send
			}
		}
	}
	for k, v := range sends {
		if seen[k] != len(v) {
			t.Fatalf("%d sends from %d to %d, %d receives", len(v), k.src, k.dst, seen[k])
		}
	}
	prevSend := make([]int, len(s.Ops))
	for r := range s.Ranks {
		last := -1
		for j, op := range s.OpsOf(r) {
			i := int(s.RankStart[r]) + j
			prevSend[i] = last
			if op.Kind == lang.OpSend {
				last = i
			}
		}
	}
	end := make([]float64, len(s.Ops))
	state := make([]uint8, len(s.Ops)) // 1 visiting, 2 done
	var at func(i int) float64
	at = func(i int) float64 {
		switch state[i] {
		case 1:
			t.Fatalf("operation %d waits for itself", i)
		case 2:
			return end[i]
		}
		state[i] = 1
		start := 0.0
		for _, d := range s.DepsOf(i) {
			start = max(start, at(int(d.Op)))
		}
		op := s.Ops[i]
		switch op.Kind {
		case lang.OpCalc:
			start += op.Time
		case lang.OpSend:
			if p := prevSend[i]; p >= 0 {
				start = max(start, at(p))
			}
			start++
		case lang.OpRecv:
			start = max(start, at(match[i]))
		}
		end[i], state[i] = start, 2
		return start
	}
	last := 0.0
	for i := range s.Ops {
		if s.Ops[i].Kind != lang.OpCalc || s.Ops[i].Time == 0 {
			last = max(last, at(i))
		}
	}
	return int(last) - 1
}

func log2ceil(P int) int { return bits.Len(uint(P - 1)) }

func log2floor(P int) int { return bits.Len(uint(P)) - 1 }

func TestAlgorithmsSendTheirDefinitionsMessagesInTheirRounds(t *testing.T) {
	const n = 1000
	type want struct{ msgs, rounds int }
	pow2 := func(P int) int { return 1 << (bits.Len(uint(P)) - 1) }
	for _, tc := range []struct {
		coll, alg string
		bytes     int64
		pow2      bool // defined on powers of two only
		want      func(P int) want
	}{
		{"barrier", "dissemination", 0, false, func(P int) want { return want{P * log2ceil(P), log2ceil(P)} }},
		{"barrier", "dimension", 0, true, func(P int) want { return want{P * log2ceil(P), log2ceil(P)} }},
		{"barrier", "tree", 0, false, func(P int) want { return want{2 * (P - 1), log2floor(P) + log2ceil(P)} }},
		{"bcast", "binomial", n, false, func(P int) want { return want{P - 1, log2ceil(P)} }},
		{"bcast", "linear", n, false, func(P int) want { return want{P - 1, P - 1} }},
		// 20000 bytes in 8 KiB segments: 3 segments down a chain of P-1 links.
		{"bcast", "pipeline", 20000, false, func(P int) want {
			if P == 1 {
				return want{}
			}
			return want{3 * (P - 1), P + 1}
		}},
		{"reduce", "binomial", n, false, func(P int) want { return want{P - 1, log2floor(P)} }},
		{"reduce", "linear", n, false, func(P int) want { return want{P - 1, min(P-1, 1)} }},
		{"allreduce", "ring", n, false, func(P int) want { return want{2 * P * (P - 1), 2 * (P - 1)} }},
		{"allreduce", "recursive-doubling", n, false, func(P int) want {
			p := pow2(P)
			rem := P - p
			r := log2ceil(p)
			if rem > 0 {
				r += 2
			}
			return want{p*log2ceil(p) + 2*rem, r}
		}},
		{"allreduce", "reduce-bcast", n, false, func(P int) want { return want{2 * (P - 1), log2floor(P) + log2ceil(P)} }},
		{"allgather", "ring", n, false, func(P int) want { return want{P * (P - 1), P - 1} }},
		{"allgather", "recursive-doubling", n, true, func(P int) want { return want{P * log2ceil(P), log2ceil(P)} }},
		{"alltoall", "pairwise", n, false, func(P int) want { return want{P * (P - 1), P - 1} }},
		{"alltoall", "linear", n, false, func(P int) want { return want{P * (P - 1), P - 1} }},
		{"scatter", "linear", n, false, func(P int) want { return want{P - 1, P - 1} }},
		{"scatter", "binomial", n, false, func(P int) want { return want{P - 1, log2ceil(P)} }},
		{"gather", "linear", n, false, func(P int) want { return want{P - 1, min(P-1, 1)} }},
		{"gather", "binomial", n, false, func(P int) want { return want{P - 1, log2floor(P)} }},
	} {
		for _, P := range []int{1, 2, 3, 5, 6, 8, 13, 16} {
			if tc.pow2 && !isPow2(P) {
				continue
			}
			for _, root := range []int32{0, int32(P / 2)} {
				if root != 0 && !hasRoot(tc.coll) {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/P=%d/root=%d", tc.coll, tc.alg, P, root), func(t *testing.T) {
					s := collSchedule(P, lang.Collective{Name: tc.coll, Algorithm: tc.alg, Bytes: tc.bytes, Root: root})
					x, err := Expand(s, Options{})
					if err != nil {
						t.Fatal(err)
					}
					msgs := 0
					for _, op := range x.Ops {
						if op.Kind == lang.OpSend {
							msgs++
							if op.Tag != Tag(0) {
								t.Fatalf("a send has tag %d, want the collective's %d", op.Tag, Tag(0))
							}
						}
					}
					w := tc.want(P)
					if got := rounds(t, x); msgs != w.msgs || got != w.rounds {
						t.Errorf("%d messages in %d rounds, want %d in %d", msgs, got, w.msgs, w.rounds)
					}
				})
			}
		}
	}
}

func hasRoot(coll string) bool {
	switch coll {
	case "bcast", "reduce", "scatter", "gather":
		return true
	}
	return false
}

// What each rank sends is the algorithm's definition: the ring allreduce
// sends every block but one in each phase, binomial scatter sends a
// child's whole subtree, and gather mirrors it.
func TestAlgorithmsMoveTheirDefinitionsBytes(t *testing.T) {
	const P, n = 6, 1003 // blocks of 168, 167, …: uneven on purpose
	sent := func(c lang.Collective) []int64 {
		x, err := Expand(collSchedule(P, c), Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int64, P)
		for r := range P {
			for _, op := range x.OpsOf(r) {
				if op.Kind == lang.OpSend {
					out[r] += op.Bytes
				}
			}
		}
		return out
	}
	ring := sent(lang.Collective{Name: "allreduce", Algorithm: "ring", Bytes: n})
	for v := range P {
		want := 2*n - block(n, P, (v+1)%P) - block(n, P, (v+2)%P)
		if ring[v] != want {
			t.Errorf("ring allreduce: rank %d sends %d bytes, want %d", v, ring[v], want)
		}
	}
	// Root 0 of 6: children 4 (subtree 4,5), 2 (2,3), 1; 2 sends to 3; 4 to 5.
	for _, tc := range []struct {
		coll string
		want []int64
	}{
		{"scatter", []int64{5 * 10, 0, 1 * 10, 0, 1 * 10, 0}},
		{"gather", []int64{0, 10, 2 * 10, 10, 2 * 10, 10}},
	} {
		got := sent(lang.Collective{Name: tc.coll, Algorithm: "binomial", Bytes: 10})
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("binomial %s sends %v bytes per rank, want %v", tc.coll, got, tc.want)
		}
	}
}

// The operations around a collective wait for it as a whole: the calc
// after it requires every final operation of the expansion, and the
// expansion's first operations require the calc before it.
func TestExpansionKeepsTheCollectivesDependencies(t *testing.T) {
	x, origin, err := ExpandOrigin(collSchedule(4, lang.Collective{Name: "bcast", Algorithm: "linear", Bytes: 8}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Rank 1 (old ops 3, 4, 5) receives once: calc, recv, calc.
	if got := fmt.Sprint(origin[:8]); got != "[0 1 1 1 2 3 4 5]" {
		t.Errorf("origins %s, want [0 1 1 1 2 3 4 5]", got)
	}
	// Rank 0: calc, send 1, send 2, send 3, calc; the last calc requires
	// all three sends, each of which requires the first calc.
	ops := x.OpsOf(0)
	if len(ops) != 5 {
		t.Fatalf("rank 0 has %d operations, want 5", len(ops))
	}
	for i := 1; i <= 3; i++ {
		if d := x.DepsOf(i); len(d) != 1 || d[0].Op != 0 {
			t.Errorf("send %d requires %v, want the first calc", i, d)
		}
	}
	if d := x.DepsOf(4); len(d) != 3 || d[0].Op != 1 || d[2].Op != 3 {
		t.Errorf("the last calc requires %v, want the three sends", d)
	}
	// A rank with no part (P = 1) keeps a zero-time stand-in.
	one, err := Expand(collSchedule(1, lang.Collective{Name: "barrier"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Ops) != 3 || one.Ops[1].Kind != lang.OpCalc || one.Ops[1].Time != 0 || one.Ops[1].Label != 0 {
		t.Errorf("P = 1: %+v, want calc, a zero calc labelled as the collective, calc", one.Ops)
	}
}

func TestDefaultsFollowTheMachine(t *testing.T) {
	for _, tc := range []struct {
		coll  string
		ranks int32
		o     Options
		want  string
	}{
		{"barrier", 8, Options{}, "dissemination"},
		{"barrier", 8, Options{Hypercube: true}, "dimension"},
		{"barrier", 6, Options{Hypercube: true}, "dissemination"},
		{"bcast", 8, Options{Hypercube: true}, "binomial"},
		{"allreduce", 8, Options{}, "recursive-doubling"},
		{"allgather", 8, Options{}, "ring"},
	} {
		if got, err := Resolve(&lang.Collective{Name: tc.coll, Ranks: tc.ranks}, tc.o); err != nil || got != tc.want {
			t.Errorf("%s with %+v: %q, %v; want %q", tc.coll, tc.o, got, err, tc.want)
		}
	}
}

func TestExpansionErrorsArePositioned(t *testing.T) {
	src := lang.NewSource("p.machine", "program p() {\n  barrier(algorithm: dimension)\n}\n")
	for _, tc := range []struct {
		c    lang.Collective
		P    int
		want string
		peer int32 // the collective rank 1's OpColl names
	}{
		{lang.Collective{Name: "barrier", Algorithm: "dimension", Line: 2}, 6, "p.machine:2:3: barrier(algorithm: dimension): needs a power-of-two number of ranks, have 6", 0},
		{lang.Collective{Name: "allgather", Algorithm: "recursive-doubling", Line: 2}, 3, "needs a power-of-two number of ranks, have 3", 0},
		{lang.Collective{Name: "bcast", Algorithm: "binomal", Line: 2}, 4, `bcast has no algorithm "binomal" (want binomial, linear, pipeline)`, 0},
		{lang.Collective{Name: "bcast", Root: 4, Line: 2}, 4, "root 4 is not a rank (ranks are 0..3)", 0},
		// 1e15 bytes in 8 KiB segments: refused before they fill the memory.
		{lang.Collective{Name: "bcast", Algorithm: "pipeline", Bytes: 1e15, Line: 2}, 4, "p.machine:2:3: bcast(algorithm: pipeline): the schedule with its collectives expanded", 0},
		{lang.Collective{Name: "bcast", Line: 2}, 4, "operation 1 calls collective 3; the schedule has 1", 3},
	} {
		s := collSchedule(tc.P, tc.c)
		s.Src = src
		s.Ops[4].Peer, s.Ops[4].Line = tc.peer, 2
		_, err := Expand(s, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v on %d ranks: %v, want %q", tc.c, tc.P, err, tc.want)
		}
	}
}

// Every algorithm the registry names is implemented, and nothing else.
func TestEveryRegisteredAlgorithmIsImplemented(t *testing.T) {
	n := 0
	for _, c := range registry.Collectives {
		for _, a := range c.Algorithms.Names() {
			n++
			if impls[c.Name+"/"+a] == nil {
				t.Errorf("%s(algorithm: %s) is registered but not implemented", c.Name, a)
			}
		}
	}
	if n != len(impls) {
		t.Errorf("%d algorithms implemented, %d registered", len(impls), n)
	}
}

func TestTagsKeepCollectivesApart(t *testing.T) {
	for _, tc := range []struct {
		want, got int32
		ok        bool
	}{
		{lang.AnyTag, 0, true},
		{lang.AnyTag, 7, true},
		{lang.AnyTag, Tag(0), false},
		{Tag(3), Tag(3), true},
		{Tag(3), Tag(4), false},
		{5, 5, true},
	} {
		if TagMatches(tc.want, tc.got) != tc.ok {
			t.Errorf("TagMatches(%d, %d) = %v", tc.want, tc.got, !tc.ok)
		}
	}
}
