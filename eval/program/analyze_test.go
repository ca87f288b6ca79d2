package program

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// loggp loads std:loggp with LogGOPSim's parameters (integer ns, ns/B, B).
func loggp(t testing.TB, P int, L, o, g, G, O, S int64) *eval.Machine {
	t.Helper()
	m, err := eval.Load("std:loggp",
		eval.WithSet("P", fmt.Sprint(P)),
		eval.WithSet("L", fmt.Sprintf("%dns", L)), eval.WithSet("o", fmt.Sprintf("%dns", o)), eval.WithSet("g", fmt.Sprintf("%dns", g)),
		eval.WithSet("G", fmt.Sprintf("%dns/B", G)), eval.WithSet("O", fmt.Sprintf("%dns/B", O)), eval.WithSet("S", fmt.Sprintf("%dB", S)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readGOAL(t testing.TB, name, text string) *lang.Schedule {
	t.Helper()
	s, err := parser.ReadGOAL(strings.NewReader(text), name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func analyze(t testing.TB, m *eval.Machine, s *lang.Schedule, o AnalyzeOptions) *runtime.ProgramResult {
	t.Helper()
	res, err := Analyze(context.Background(), m, s, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// endsNS returns every rank's end time in whole nanoseconds.
func endsNS(res *runtime.ProgramResult) []int64 {
	out := make([]int64, len(res.Ranks))
	for i, r := range res.Ranks {
		out[i] = int64(math.Round(r.End * 1e9))
	}
	return out
}

// TestAnalyzeGivesLogGOPSimsEndTimes runs the schedules in testdata/goal
// on std:loggp with the parameters LogGOPSim ran them with and expects
// its end times exactly.
func TestAnalyzeGivesLogGOPSimsEndTimes(t *testing.T) {
	n := 0
	for _, c := range logGOPSimCases(t) {
		n++
		t.Run(c.name, func(t *testing.T) {
			s := readGOAL(t, c.file, c.text)
			res := analyze(t, loggp(t, s.Ranks, c.L, c.o, c.g, c.G, c.O, c.S), s, AnalyzeOptions{})
			if res.Deadlock != nil {
				t.Fatalf("deadlock: %+v", res.Deadlock)
			}
			want := make([]int64, len(c.ends))
			for i, e := range c.ends {
				want[i] = int64(e)
			}
			if got := fmt.Sprint(endsNS(res)); got != fmt.Sprint(want) {
				t.Errorf("end times (ns)\n got  %s\n want %v", got, want)
			}
		})
	}
	if n < 50 {
		t.Errorf("only %d cases in loggopsim.txt", n)
	}
}

// The analytic answer gives a processor the CPUs and NICs the schedule
// names (nics_2 uses cpu 1 and nic 1: LogGOPSim's 34988 19494 31488 ns
// above), unless the processor states fewer: then it refuses the schedule
// as the simulation does, naming the operation.
func TestAnalyzeRefusesCPUsAndNICsTheProcessorLacks(t *testing.T) {
	text, err := os.ReadFile("testdata/goal/nics_2.goal")
	if err != nil {
		t.Fatal(err)
	}
	s := readGOAL(t, "nics_2.goal", string(text))
	for _, c := range []struct {
		set, value, want string
	}{
		{"processor(pe).cpus", "1", "operation l2 of rank 0 runs on CPU 1, but its processor has 1 (its cpus)"},
		{"nic(loggops).nics", "1", "operation l2 of rank 0 sends on NIC 1, but its processor has 1 (its nics)"},
		{"processor(pe).nics", "1", "operation l2 of rank 0 sends on NIC 1, but its processor has 1 (its nics)"},
		{"nic(loggops).nics", "2", ""},
	} {
		m, err := eval.Load("std:loggp", eval.WithSet("P", "3"), eval.WithSet(c.set, c.value))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s = %s: %v", c.set, c.value, err)
			} else if got := fmt.Sprint(endsNS(res)); got != "[34988 19494 31488]" {
				t.Errorf("%s = %s: end times %s ns, want LogGOPSim's [34988 19494 31488]", c.set, c.value, got)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s = %s: %v, want %q", c.set, c.value, err, c.want)
		}
	}
}

// logGOPSimCase is a line of testdata/goal/loggopsim.txt: a schedule,
// LogGOPSim's parameters (ns, ns/B, B) and the end times it printed (ns).
type logGOPSimCase struct {
	name, file, text string
	L, o, g, G, O, S int64
	ends             []float64
}

func logGOPSimCases(t *testing.T) []logGOPSimCase {
	t.Helper()
	f, err := os.Open("testdata/goal/loggopsim.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []logGOPSimCase
	texts := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		head, want, _ := strings.Cut(line, " | ")
		var c logGOPSimCase
		if _, err := fmt.Sscan(head, &c.file, &c.L, &c.o, &c.g, &c.G, &c.O, &c.S); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		c.name = strings.ReplaceAll(head, " ", "_")
		for _, w := range strings.Fields(want) {
			v, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			c.ends = append(c.ends, v)
		}
		if _, ok := texts[c.file]; !ok {
			text, err := os.ReadFile(filepath.Join("testdata/goal", c.file))
			if err != nil {
				t.Fatal(err)
			}
			texts[c.file] = string(text)
		}
		c.text = texts[c.file]
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// LogGP costs of an n-byte message, in ns, as the closed forms use them.
type logGP struct{ L, o, g, G, O, S int64 }

func (p logGP) sendCPU(n int64) int64 { return p.o + (n-1)*p.O }
func (p logGP) recvCPU(n int64) int64 { return p.o + (n-1)*max(p.O, p.G) }
func (p logGP) nicGap(n int64) int64  { return p.g + (n-1)*p.G }

// step is one hop of a chain of messages: sent, on the wire, received.
func (p logGP) step(n int64) int64 { return p.o + p.L + p.recvCPU(n) }

func (p logGP) machine(t testing.TB, P int) *eval.Machine {
	return loggp(t, P, p.L, p.o, p.g, p.G, p.O, p.S)
}

// goalText writes a schedule: ops[r] are rank r's lines.
func goalText(ops [][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "num_ranks %d\n", len(ops))
	for r, lines := range ops {
		fmt.Fprintf(&b, "rank %d {\n%s\n}\n", r, strings.Join(lines, "\n"))
	}
	return b.String()
}

var closedFormParams = []logGP{
	{L: 2500, o: 1500, g: 1000, G: 6, O: 0, S: 65535},
	{L: 5000, o: 200, g: 100, G: 1, O: 0, S: 1000},
	{L: 1000, o: 700, g: 300, G: 2, O: 1, S: 1 << 20},
}

func TestAnalyzeMatchesLogGPClosedForms(t *testing.T) {
	for _, p := range closedFormParams {
		for _, n := range []int64{1, 512, 4096} {
			name := fmt.Sprintf("L%d_o%d_g%d_G%d_O%d_S%d_n%d", p.L, p.o, p.g, p.G, p.O, p.S, n)
			t.Run("pingpong_"+name, func(t *testing.T) { checkPingPong(t, p, n, 3) })
			t.Run("binomial_bcast_"+name, func(t *testing.T) { checkBinomialBcast(t, p, n) })
			t.Run("ring_allreduce_"+name, func(t *testing.T) { checkRingAllreduce(t, p, n) })
		}
		t.Run(fmt.Sprintf("dissemination_L%d_o%d_g%d", p.L, p.o, p.g), func(t *testing.T) { checkDissemination(t, p) })
	}
}

// checkPingPong: k round trips of n bytes. Each half is a step; the
// receiver answers as soon as its CPU has taken the message. A
// rendezvous send (n > S) completes when the other side takes it, which
// for the answering rank's last send is after its own CPU is free.
func checkPingPong(t *testing.T, p logGP, n int64, k int) {
	var r0, r1 []string
	for i := 0; i < k; i++ {
		r0 = append(r0, fmt.Sprintf("s%d: send %db to 1 tag %d", i, n, i), fmt.Sprintf("r%d: recv %db from 1 tag %d", i, n, i), fmt.Sprintf("r%d requires s%d", i, i))
		r1 = append(r1, fmt.Sprintf("r%d: recv %db from 0 tag %d", i, n, i), fmt.Sprintf("s%d: send %db to 0 tag %d", i, n, i), fmt.Sprintf("s%d requires r%d", i, i))
		if i > 0 {
			r0 = append(r0, fmt.Sprintf("s%d requires r%d", i, i-1))
			r1 = append(r1, fmt.Sprintf("r%d requires s%d", i, i-1))
		}
	}
	res := analyze(t, p.machine(t, 2), readGOAL(t, "pingpong.goal", goalText([][]string{r0, r1})), AnalyzeOptions{})
	roundTrip := 2 * p.step(n)
	want0 := int64(k) * roundTrip
	want1 := want0 - p.L - p.recvCPU(n) - p.o + p.sendCPU(n) // its last send's CPU time
	if n > p.S {
		want1 = want0 - p.recvCPU(n) // its last send completes when rank 0 takes it
	}
	if got := endsNS(res); got[0] != want0 || got[1] != want1 {
		t.Errorf("ends %v, want [%d %d]", got, want0, want1)
	}
	if math.Abs(res.Makespan-float64(want0)*1e-9) > 1e-15 {
		t.Errorf("makespan %g, want %d ns", res.Makespan, want0)
	}
}

// checkBinomialBcast: a binomial tree on P = 2^k ranks, each rank sending
// to its children largest subtree first once it has the data. A rank that
// is ready at t sends its j-th message at t + j·s, s the larger of the
// sender's CPU and NIC time per message, and that child is ready o + L +
// recv_cpu later; so a child on the chain of first children is ready one
// step after its parent and the last rank is ready at k steps.
func checkBinomialBcast(t *testing.T, p logGP, n int64) {
	for _, k := range []int{3, 4} {
		P := 1 << k
		ops := make([][]string, P)
		ready := make([]int64, P)
		end := make([]int64, P)
		s := max(p.sendCPU(n), p.nicGap(n))
		for v := 0; v < P; v++ {
			low := k // the root's subtree is everything
			if v > 0 {
				low = 0
				for v&(1<<low) == 0 {
					low++
				}
				parent := v &^ (1 << low)
				ops[v] = append(ops[v], fmt.Sprintf("r: recv %db from %d tag 0", n, parent))
			}
			j := 0
			for b := low - 1; b >= 0; b-- {
				child := v | 1<<b
				ops[v] = append(ops[v], fmt.Sprintf("s%d: send %db to %d tag 0", b, n, child))
				if v > 0 {
					ops[v] = append(ops[v], fmt.Sprintf("s%d requires r", b))
				}
				ready[child] = ready[v] + int64(j)*s + p.step(n)
				end[v] = ready[v] + int64(j)*s + p.sendCPU(n)
				j++
			}
			if j == 0 {
				end[v] = ready[v]
			}
		}
		if n > p.S {
			continue // rendezvous sends end when matched: the formula above is for eager ones
		}
		res := analyze(t, p.machine(t, P), readGOAL(t, "bcast.goal", goalText(ops)), AnalyzeOptions{})
		if got := endsNS(res); fmt.Sprint(got) != fmt.Sprint(end) {
			t.Errorf("P=%d ends %v, want %v", P, got, end)
		}
		if want := int64(k) * p.step(n); s <= p.step(n) && int64(math.Round(res.Makespan*1e9)) != want {
			t.Errorf("P=%d makespan %g, want k·(o + L + recv_cpu) = %d ns", P, res.Makespan, want)
		}
	}
}

// checkDissemination: ceil(log2 P) rounds of 1-byte messages; every rank
// sends, and its next send waits for this round's message, which arrives
// o + L after its partner's send and takes o: 2o + L a round when g fits.
func checkDissemination(t *testing.T, p logGP) {
	for _, P := range []int{2, 5, 16} {
		rounds := 0
		for 1<<rounds < P {
			rounds++
		}
		ops := make([][]string, P)
		for r := 0; r < P; r++ {
			for i := 0; i < rounds; i++ {
				d := 1 << i
				ops[r] = append(ops[r], fmt.Sprintf("s%d: send 1b to %d tag %d", i, (r+d)%P, i), fmt.Sprintf("r%d: recv 1b from %d tag %d", i, (r-d+P)%P, i))
				if i > 0 {
					ops[r] = append(ops[r], fmt.Sprintf("s%d requires r%d", i, i-1))
				}
			}
		}
		res := analyze(t, p.machine(t, P), readGOAL(t, "barrier.goal", goalText(ops)), AnalyzeOptions{})
		want := int64(rounds) * (2*p.o + p.L)
		for r, got := range endsNS(res) {
			if got != want {
				t.Errorf("P=%d rank %d ends at %d ns, want %d rounds × (2o + L) = %d", P, r, got, rounds, want)
			}
		}
	}
}

// checkRingAllreduce: 2(P-1) steps of n/P bytes around a ring, each send
// waiting for the previous step's message: every step is o + L +
// recv_cpu(n/P) when the NIC keeps up, or send_cpu + recv_cpu when the
// message arrives while the receiver's CPU is still sending its own.
func checkRingAllreduce(t *testing.T, p logGP, n int64) {
	for _, P := range []int{3, 8} {
		m := max(n/int64(P), 1)
		if m > p.S {
			continue
		}
		steps := 2 * (P - 1)
		ops := make([][]string, P)
		for r := 0; r < P; r++ {
			for i := 0; i < steps; i++ {
				ops[r] = append(ops[r], fmt.Sprintf("s%d: send %db to %d tag %d", i, m, (r+1)%P, i), fmt.Sprintf("r%d: recv %db from %d tag %d", i, m, (r-1+P)%P, i))
				if i > 0 {
					ops[r] = append(ops[r], fmt.Sprintf("s%d requires r%d", i, i-1))
				}
			}
		}
		res := analyze(t, p.machine(t, P), readGOAL(t, "allreduce.goal", goalText(ops)), AnalyzeOptions{})
		want := int64(steps) * (max(p.o+p.L, p.sendCPU(m)) + p.recvCPU(m))
		if p.nicGap(m) > p.step(m) {
			continue
		}
		for r, got := range endsNS(res) {
			if got != want {
				t.Errorf("P=%d rank %d ends at %d ns, want 2(P-1) × (max(o + L, send_cpu) + recv_cpu(%d)) = %d", P, r, got, m, want)
			}
		}
	}
}

func TestAnalyzeAccountsForEveryRanksTime(t *testing.T) {
	text, err := os.ReadFile("testdata/goal/mixed_4.goal")
	if err != nil {
		t.Fatal(err)
	}
	s := readGOAL(t, "mixed_4.goal", string(text))
	res := analyze(t, loggp(t, 4, 2500, 1500, 1000, 6, 0, 65535), s, AnalyzeOptions{Timeline: true})
	for _, r := range res.Ranks {
		if sum := r.Compute + r.Send + r.Recv + r.Wait; math.Abs(sum-r.End) > 1e-15 {
			t.Errorf("rank %d: compute %g + send %g + recv %g + wait %g = %g, end %g", r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
		}
	}
	// The critical path runs forward in time and ends when the program does.
	path := res.CriticalPath
	if len(path) < 2 {
		t.Fatalf("critical path %+v", path)
	}
	for i := 1; i < len(path); i++ {
		if path[i].Start < path[i-1].Start {
			t.Errorf("step %d starts at %g, before step %d at %g", i, path[i].Start, i-1, path[i-1].Start)
		}
	}
	if last := path[len(path)-1]; math.Abs(last.End-res.Makespan) > 1e-15 {
		t.Errorf("critical path ends at %g (%+v), the makespan is %g", last.End, last, res.Makespan)
	}
	// The timeline covers each rank's time without overlaps.
	busy := map[int]float64{}
	prevEnd := map[int]float64{}
	for _, sp := range res.Timeline {
		if sp.Start < prevEnd[sp.Rank]-1e-15 || sp.End < sp.Start {
			t.Errorf("span %+v overlaps the rank's previous one (ended %g)", sp, prevEnd[sp.Rank])
		}
		prevEnd[sp.Rank] = sp.End
		if sp.Kind != "wait" {
			busy[sp.Rank] += sp.End - sp.Start
		}
	}
	for _, r := range res.Ranks {
		if want := r.Compute + r.Send + r.Recv; math.Abs(busy[r.Rank]-want) > 1e-15 {
			t.Errorf("rank %d: timeline busy %g, breakdown %g", r.Rank, busy[r.Rank], want)
		}
	}
}

func TestAnalyzeReportsDeadlocks(t *testing.T) {
	tests := []struct {
		name, text string
		want       []runtime.WaitingRank
	}{
		{"both receive first", "num_ranks 2\nrank 0 {\nr: recv 8b from 1 tag 0\ns: send 8b to 1 tag 0\ns requires r\n}\nrank 1 {\nr: recv 8b from 0 tag 0\ns: send 8b to 0 tag 0\ns requires r\n}\n",
			[]runtime.WaitingRank{{Rank: 0, Op: 0, Label: "r", Line: 3, Peer: 1}, {Rank: 1, Op: 0, Label: "r", Line: 8, Peer: 0}}},
		{"a tag nobody sends", "num_ranks 2\nrank 0 {\ns: send 8b to 1 tag 1\n}\nrank 1 {\nr: recv 8b from -1 tag 2\n}\n",
			[]runtime.WaitingRank{{Rank: 1, Op: 0, Label: "r", Line: 6, Peer: -1}}},
		// A message matches the first receive posted that accepts it:
		// here the first of two (a), the second left waiting.
		{"receives matched in the order posted", "num_ranks 2\nrank 0 {\ns: send 8b to 1 tag 1\n}\nrank 1 {\na: recv 8b from 0 tag 1\nb: recv 8b from 0 tag 1\nc: recv 8b from 0 tag 2\n}\n",
			[]runtime.WaitingRank{{Rank: 1, Op: 1, Label: "b", Line: 7, Peer: 0}}},
		// d, posted once a took the first message, is behind b, which
		// takes the second (sent 10 µs later): d is left waiting.
		{"a receive posted later waits behind those posted before", "num_ranks 2\nrank 0 {\ns: send 8b to 1 tag 1\nc: calc 10000\nt: send 8b to 1 tag 2\nc requires s\nt requires c\n}\nrank 1 {\na: recv 8b from 0 tag 1\nb: recv 8b from 0 tag 2\nd: recv 8b from 0 tag 2\nd requires a\n}\n",
			[]runtime.WaitingRank{{Rank: 1, Op: 2, Label: "d", Line: 12, Peer: 0}}},
		{"a rendezvous send never received", "num_ranks 2\nrank 0 {\ns: send 100000b to 1 tag 0\nc: calc 5\nc requires s\n}\nrank 1 {\n}\n",
			[]runtime.WaitingRank{{Rank: 0, Op: 0, Label: "s", Line: 3, Peer: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyze(t, loggp(t, 2, 2500, 1500, 1000, 6, 0, 65535), readGOAL(t, "t.goal", tt.text), AnalyzeOptions{})
			if res.Deadlock == nil {
				t.Fatalf("no deadlock reported: %+v", res.Ranks)
			}
			if got, want := fmt.Sprintf("%+v", res.Deadlock.Waiting), fmt.Sprintf("%+v", tt.want); got != want {
				t.Errorf("waiting\n got  %s\n want %s", got, want)
			}
		})
	}
}

// A machine with one model-section collective and processor overheads
// but no per-message functions: the fallbacks.
const analyzeFallbackMachine = `
machine "fallback" {
	processor cpu {
		send_overhead = 2us
		recv_overhead = 3us
	}
	topology star {
		node 0 .. 3 = cpu
		node 10 = cpu
		link 0 -- 1
		link 1 -- 2
		link 2 -- 3
		link 3 -- 10
		speed = 1GB/s
	}
	modelsection MPI {
		send(n: B, src, dst) = 2us + 3us + 10us * hops(src, dst) + n * 1ns / 1B
		barrier(p) = 7us * p
	}
}
`

// Processors of two types with their own overheads: each message's
// sender's CPU takes its processor's send_overhead and its receiver's
// CPU its processor's recv_overhead (the analysis keeps the overheads
// once while every processor has the first's, and per processor from
// the first that differs).
func TestAnalyzeTakesEachProcessorsOverheads(t *testing.T) {
	m, err := eval.LoadSource("two.machine", strings.Replace(strings.Replace(analyzeFallbackMachine,
		"node 10 = cpu", "node 10 = slow", 1),
		"\ttopology star {", "\tprocessor slow {\n\t\tsend_overhead = 5us\n\t\trecv_overhead = 7us\n\t}\n\ttopology star {", 1))
	if err != nil {
		t.Fatal(err)
	}
	text := "num_ranks 2\nrank 0 {\nsend 1000b to 1 tag 0\n}\nrank 1 {\nrecv 1000b from 0 tag 0\n}\n"
	for _, tt := range []struct {
		name       string
		nodes      []int
		send, recv float64 // rank 0's send and rank 1's receive CPU time, s
	}{
		{"from a cpu to a slow processor", []int{3, 10}, 2e-6, 7e-6},
		{"from a slow processor to a cpu", []int{10, 3}, 5e-6, 3e-6},
		{"between two cpus", []int{0, 3}, 2e-6, 3e-6},
	} {
		res := analyze(t, m, readGOAL(t, "t.goal", text), AnalyzeOptions{Map: tt.nodes})
		if s, r := res.Ranks[0].Send, res.Ranks[1].Recv; math.Abs(s-tt.send) > 1e-15 || math.Abs(r-tt.recv) > 1e-15 {
			t.Errorf("%s: rank 0 sends for %g s and rank 1 receives for %g s, want %g and %g", tt.name, s, r, tt.send, tt.recv)
		}
	}
}

func TestAnalyzeTakesCostsFromTheMachine(t *testing.T) {
	m, err := eval.LoadSource("fallback.machine", analyzeFallbackMachine)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		text string
		opts AnalyzeOptions
		want []int64 // ns
	}{
		// send: 2us on rank 0; the message arrives send(1000B, 0, 3) -
		// recv_overhead after the send started and takes 3us.
		{"one message costs MPI.send", "num_ranks 2\nrank 0 {\nsend 1000b to 1 tag 0\n}\nrank 1 {\nrecv 1000b from 0 tag 0\n}\n",
			AnalyzeOptions{Map: []int{0, 3}}, []int64{2000, 2000 + 10000*3 + 1000 + 3000}},
		{"ranks on one processor share its CPU", "num_ranks 2\nrank 0 {\ncalc 100\n}\nrank 1 {\ncalc 100\n}\n",
			AnalyzeOptions{Map: []int{10, 10}}, []int64{100, 200}},
		{"ranks beyond the processors wrap round", "num_ranks 6\nrank 0 {\ncalc 100\n}\nrank 5 {\ncalc 100\n}\n",
			AnalyzeOptions{}, []int64{100, 0, 0, 0, 0, 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyze(t, m, readGOAL(t, "t.goal", tt.text), tt.opts)
			if got := endsNS(res); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("ends %v, want %v", got, tt.want)
			}
		})
	}

	// A barrier the model section costs leaves every rank at the last
	// entry plus MPI.barrier(p).
	s := &lang.Schedule{Name: "barrier", Ranks: 3, Colls: []lang.Collective{{Name: "barrier", Ranks: 3}}, Labels: []string{"work", "barrier"}}
	for r := 0; r < 3; r++ {
		s.RankStart = append(s.RankStart, int32(len(s.Ops)))
		s.Ops = append(s.Ops, lang.SchedOp{Kind: lang.OpCalc, Time: float64(r+1) * 1e-6, Label: 0}, lang.SchedOp{Kind: lang.OpColl, Peer: 0, Label: 1})
		s.Deps = append(s.Deps, lang.SchedDep{Op: int32(len(s.Ops) - 2)})
		s.DepStart = append(s.DepStart, int32(len(s.Deps)-1), int32(len(s.Deps)))
	}
	s.RankStart = append(s.RankStart, int32(len(s.Ops)))
	s.DepStart = append([]int32{0}, s.DepStart...)
	res := analyze(t, m, s, AnalyzeOptions{})
	for _, r := range res.Ranks {
		if want := 3e-6 + 21e-6; math.Abs(r.End-want) > 1e-15 {
			t.Errorf("rank %d leaves the barrier at %g, want %g", r.Rank, r.End, want)
		}
	}
	if p := res.CriticalPath; len(p) < 2 || p[0].Rank != 2 || p[0].Label != "work" || p[len(p)-1].Label != "barrier" {
		t.Errorf("critical path %+v, want rank 2's work, then the barrier", p)
	}

	// Without MPI.barrier the barrier is expanded: on std:loggp, the
	// dissemination barrier's messages.
	p := closedFormParams[0]
	for i := range s.Ops {
		if s.Ops[i].Kind == lang.OpCalc {
			s.Ops[i].Time = 0
		}
	}
	res = analyze(t, p.machine(t, 3), s, AnalyzeOptions{})
	if want := 2 * (2*p.o + p.L); int64(math.Round(res.Makespan*1e9)) != want {
		t.Errorf("expanded barrier of 3 ranks ends at %g, want 2 rounds × (2o + L) = %d ns", res.Makespan, want)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	noCost, err := eval.LoadSource("nocost.machine", `machine "nocost" {
	processor cpu {}
	topology t {
		node 0 .. 1 = cpu
		node 5 = cpu
		link 0 -- 1
		speed = 1GB/s
	}
}`)
	if err != nil {
		t.Fatal(err)
	}
	lgp := loggp(t, 2, 2500, 1500, 1000, 6, 0, 65535)
	msg := readGOAL(t, "t.goal", "num_ranks 2\nrank 0 {\nsend 8b to 1 tag 0\n}\nrank 1 {\nrecv 8b from 0 tag 0\n}\n")
	tests := []struct {
		name string
		m    *eval.Machine
		opts AnalyzeOptions
		want string
	}{
		{"no message cost", noCost, AnalyzeOptions{}, `nocost.machine:1:1: machine "nocost" has no analytic model: its model section MPI defines neither latency(n, src, dst) nor send(n, src, dst)`},
		{"map to a switch", lgp, AnalyzeOptions{Map: []int{0, 2}}, "the map puts rank 1 on node 2, which is not a processor of topology crossbar"},
		{"map too short", lgp, AnalyzeOptions{Map: []int{0}}, "the map gives 1 processors for 2 ranks"},
		{"unknown model", lgp, AnalyzeOptions{Model: "PVM"}, `machine "loggp" has no model section PVM; its sections: MPI`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Analyze(context.Background(), tt.m, msg, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	// Asked for both answers, Run gives the simulated one alone and says
	// why there is no analytic one (issue 26); asked for the analytic one,
	// it is the error.
	res, err := Run(context.Background(), noCost, msg, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Analytic != nil || res.Simulated == nil || !strings.HasPrefix(res.NoAnalytic, `nocost.machine:1:1: machine "nocost" has no analytic model`) {
		t.Errorf("Run without a model: analytic %v, simulated %v, no_analytic %q", res.Analytic, res.Simulated, res.NoAnalytic)
	}
	var nm *NoModelError
	if _, err := Run(context.Background(), noCost, msg, RunOptions{Analytic: true}); !errors.As(err, &nm) || nm.Model != "MPI" {
		t.Errorf("Run --analytic without a model: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, lgp, msg, AnalyzeOptions{}); err != context.Canceled {
		t.Errorf("cancelled: got %v", err)
	}
}

// A trace's start times are kept on a timer beside the sender's CPU: a
// rank that waits to send still takes the messages that reach it.
func TestAnalyzeRunsTracesAtTheirTimes(t *testing.T) {
	p := closedFormParams[0]
	text := "time,src,dst,bytes\n10us,0,1,1\n0s,1,0,1\n"
	s, err := parser.ReadTrace(strings.NewReader(text), "t.csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	res := analyze(t, p.machine(t, 2), s, AnalyzeOptions{})
	// Rank 1's message reaches rank 0 at o + L and takes o, long before
	// rank 0 sends at 10us; rank 1 takes rank 0's message one step later.
	want := []int64{10000 + p.sendCPU(1), 10000 + p.step(1)}
	if got := endsNS(res); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ends %v, want %v", got, want)
	}
	r0 := res.Ranks[0]
	if r0.Recv*1e9 != float64(p.recvCPU(1)) || r0.Compute != 0 {
		t.Errorf("rank 0 %+v: the timer is not computation, the receive is %d ns", r0, p.recvCPU(1))
	}
}

func TestAnalyzeTimelineWaitsUntilEachRankEnds(t *testing.T) {
	for _, tc := range []struct {
		file string
		P    int
	}{
		{"mixed_4.goal", 4},
		{"gather_13_200000.goal", 13},
		{"binarytreebcast_13_65536.goal", 13},
		{"pingpong_2_300000_x1.goal", 2},
	} {
		text, err := os.ReadFile("testdata/goal/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		s := readGOAL(t, tc.file, string(text))
		res := analyze(t, loggp(t, tc.P, 2500, 1500, 1000, 6, 0, 65535), s, AnalyzeOptions{Timeline: true})
		waits := map[int]float64{}
		end := map[int]float64{}
		for _, sp := range res.Timeline {
			if sp.Kind == "wait" {
				waits[sp.Rank] += sp.End - sp.Start
			}
			end[sp.Rank] = sp.End
		}
		for _, r := range res.Ranks {
			if math.Abs(waits[r.Rank]-r.Wait) > 1e-12 || end[r.Rank] != r.End {
				t.Errorf("%s rank %d: the timeline waits %g and ends at %g; the breakdown waits %g and ends at %g", tc.file, r.Rank, waits[r.Rank], end[r.Rank], r.Wait, r.End)
			}
		}
	}
}

func TestAnalyzeRefusesTimesPastItsRange(t *testing.T) {
	m := loggp(t, 2, 2500, 1500, 1000, 6, 0, 65535)
	chain := func(ns string, n int) string {
		text := "num_ranks 2\nrank 0 {\n"
		for i := range n {
			text += fmt.Sprintf("c%d: calc %s\n", i, ns)
			if i > 0 {
				text += fmt.Sprintf("c%d requires c%d\n", i, i-1)
			}
		}
		return text + "}\nrank 1 {\n}\n"
	}
	for _, tc := range []struct {
		name, text string
		want       string // "" for a result
	}{
		{"calcs up to the limit", chain("500000000000000", 4), ""},
		{"calcs past the limit", chain("2000000000000000", 5), "runs past 2305843.009s"},
		{"a send arriving past the limit", "num_ranks 2\nrank 0 {\na: calc 2000000000000000\nb: send 1b to 1\nb requires a\n}\nrank 1 {\nc: calc 2000000000000000\nd: calc 2000000000000000\nd requires c\ne: recv 1b from 0\ne requires d\n}\n", "runs past"},
	} {
		s := readGOAL(t, tc.name, tc.text)
		res, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			} else if res.Makespan != 2e6 || res.Ranks[0].Compute != 2e6 {
				t.Errorf("%s: makespan %g, compute %g; want 2e6 s each", tc.name, res.Makespan, res.Ranks[0].Compute)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: makespan %g, compute %g; want an error containing %q", tc.name, res.Makespan, res.Ranks[0].Compute, tc.want)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestAnalyzeCriticalPathGoesBackThroughReceivesPostedEarly(t *testing.T) {
	// Each rank posts its receive, sends, computes when both are done,
	// twice: the sends of the second round wait for the computation
	// through the receive they irequire, posted long before its message.
	rank := func(peer int, work string) string {
		return fmt.Sprintf(`r1: recv 8b from %[1]d tag 1
s1: send 8b to %[1]d tag 1
s1 irequires r1
c1: calc %[2]s
c1 requires r1
c1 requires s1
r2: recv 8b from %[1]d tag 2
r2 requires c1
s2: send 8b to %[1]d tag 2
s2 irequires r2
s2 requires c1
c2: calc %[2]s
c2 requires r2
c2 requires s2
`, peer, work)
	}
	for _, tc := range []struct {
		name, work0, work1 string
	}{
		{"balanced", "10000", "10000"},
		{"rank 1 slower", "10000", "30000"},
	} {
		s := readGOAL(t, tc.name, "num_ranks 2\nrank 0 {\n"+rank(1, tc.work0)+"}\nrank 1 {\n"+rank(0, tc.work1)+"}\n")
		res := analyze(t, loggp(t, 2, 2500, 1500, 1000, 6, 0, 65535), s, AnalyzeOptions{})
		path := res.CriticalPath
		if len(path) == 0 || path[0].Start != 0 || path[len(path)-1].End != res.Makespan {
			t.Errorf("%s: the critical path %+v does not run from 0 to the makespan %g", tc.name, path, res.Makespan)
		}
	}
}

func TestAnalyzeCountsTheCriticalPathAgainstTheMemoryLimit(t *testing.T) {
	// A ping-pong's critical path runs through every operation.
	const body = "for i in 1 .. 25000 { if rank == 0 { send(0B, to: 1) recv(from: 1) } else { recv(from: 0) send(0B, to: 0) } }"
	for _, tc := range []struct {
		limit int64
		want  string // "" for a result
	}{
		{64 << 20, ""},
		{14 << 20, "the critical path of main (100000 steps)"},
	} {
		m, err := eval.LoadSource("m.machine", fourCPUs+`machine "n" extends "m" {
	modelsection MPI { send(n: B, src, dst) = 1us + n / 1MB/s }
}`, eval.WithMachine("n"), eval.WithMaxMemory(tc.limit))
		if err != nil {
			t.Fatal(err)
		}
		p, err := eval.ParseProgramBody(m, body)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: 2})
		if err != nil {
			t.Fatalf("%d B: %v", tc.limit, err)
		}
		res, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%d B: %v", tc.limit, err)
		case tc.want == "" && len(res.CriticalPath) != len(s.Ops):
			t.Errorf("%d B: a critical path of %d steps, want %d", tc.limit, len(res.CriticalPath), len(s.Ops))
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%d B: %v, want an error containing %q", tc.limit, err, tc.want)
		}
	}
}

// fourCPUs is a chain of four processors with two programs, the machine
// of eval's program tests.
const fourCPUs = `machine "m" {
	processor cpu { float_timings { mul = 2ns } }
	topology t = chain(4) { latency = 1us; speed = 1MB/s }
}
program first { barrier() }
program second(n: B = 1KB) { send(n, to: mod(rank + 1, ranks)); recv() }
`

// The analysis's event queue gives its events by time, then by seq,
// whatever the times: here many pushes to a few times ahead, and events
// retried later keeping their seq (a waiter woken, analyze_wait.go), so
// that a bucket is sorted out into several runs of seqs (merged by
// inSeqOrder), checked against a sort of what was pushed.
func TestEventQueueGivesEventsByTimeThenSeq(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q anQueue
	var pending []anEvent
	seq, now, popped := uint64(0), ps(0), 0
	for popped < 20000 {
		push := func(e anEvent) {
			q.push(e)
			k, _ := slices.BinarySearchFunc(pending, e, func(x, y anEvent) int { return cmp.Or(cmp.Compare(x.t, y.t), cmp.Compare(x.seq, y.seq)) })
			pending = slices.Insert(pending, k, e)
		}
		later := func() ps { return now + ps(rng.IntN(4))*1000<<rng.IntN(12) }
		for range rng.IntN(3) {
			push(anEvent{t: later(), seq: seq, op: int32(seq)})
			seq++
		}
		if q.n == 0 {
			continue
		}
		got, want := q.pop(), pending[0]
		pending = pending[1:]
		if got != want {
			t.Fatalf("pop %d: got event (t %d, seq %d), want (t %d, seq %d)", popped, got.t, got.seq, want.t, want.seq)
		}
		now = got.t
		popped++
		if rng.IntN(3) == 0 {
			got.t = later()
			push(got)
		}
	}
}

// A dependency on an operation the schedule does not have is an error
// naming both (a schedule built in Go may have one; the readers refuse
// them), the first such operation's first.
func TestAnalyzeRefusesADependencyOnNoOperation(t *testing.T) {
	m := loggp(t, 2, 2500, 1500, 1000, 6, 0, 65535)
	s := &lang.Schedule{Name: "s", Ranks: 2, RankStart: []int32{0, 2, 3},
		Ops:      []lang.SchedOp{{Kind: lang.OpCalc, Label: -1}, {Kind: lang.OpCalc, Label: -1}, {Kind: lang.OpCalc, Label: -1}},
		Deps:     []lang.SchedDep{{Op: 0}, {Op: 9}, {Op: 0}, {Op: 7}},
		DepStart: []int32{0, 0, 3, 4}}
	_, err := Analyze(context.Background(), m, s, AnalyzeOptions{})
	if want := "s: operation 1 depends on operation 9, which does not exist"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// rankOf finds every operation's rank, the one whose RankStart range
// holds it, for ranks of even and uneven sizes and runs of empty ranks
// (which make setRanks shrink its blocks), against a scan of RankStart.
func TestRankOfIsTheRankWhoseRangeHoldsTheOperation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string][]int{
		"one rank":         {5},
		"even":             {4, 4, 4, 4, 4, 4, 4, 4},
		"one op a rank":    {1, 1, 1, 1, 1, 1, 1},
		"empty runs":       append(append([]int{3}, make([]int, 100)...), 2, 0, 0, 7, 1),
		"empty at the end": append([]int{9, 1, 3}, make([]int, 40)...),
	}
	var random []int
	for range 500 {
		n := 0
		if r.IntN(3) > 0 {
			n = r.IntN(40)
		}
		random = append(random, n)
	}
	cases["random"] = random
	for name, sizes := range cases {
		s := &lang.Schedule{Ranks: len(sizes), RankStart: []int32{0}}
		for _, n := range sizes {
			s.RankStart = append(s.RankStart, s.RankStart[len(s.RankStart)-1]+int32(n))
		}
		s.Ops = make([]lang.SchedOp, s.RankStart[len(sizes)])
		a := &analysis{s: s}
		a.setRanks()
		for op := range int32(len(s.Ops)) {
			want := int32(0)
			for s.RankStart[want+1] <= op {
				want++
			}
			if got := a.rankOf(op); got != want {
				t.Errorf("%s: operation %d: rank %d, want %d (RankStart %v)", name, op, got, want, s.RankStart)
				break
			}
		}
	}
}
