package runtime

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/parser"
)

// FuzzRunGOAL runs every schedule the GOAL reader accepts both ways on
// std:loggp with a rendezvous limit: neither answer panics or fails,
// every rank's breakdown adds up to its end, and the simulated critical
// path visits each operation at most once and ends by the makespan.
func FuzzRunGOAL(f *testing.F) {
	for _, name := range []string{"mixed_4.goal", "pingpong_2_65536_x3.goal", "dissemination_16_1.goal"} {
		text, err := os.ReadFile(filepath.Join("../eval/testdata/goal", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	f.Add("num_ranks 2\nrank 0 {\na: send 1b to 0 tag 0\nb: recv 1b from -1 tag -1\nc: calc 5 cpu 3\nc irequires b\n}\nrank 1 {\nsend 100000b to 0 tag 7\n}\n")
	f.Add("num_ranks 2\nrank 0 {\na: recv 8b from 1 tag 0\nb: send 8b to 1 tag 0\nc: calc 10\nb irequires a\nc requires a\nc requires b\n}\nrank 1 {\na: recv 8b from 0 tag 0\nb: send 8b to 0 tag 0\nb irequires a\n}\n")
	m, err := eval.Load("std:loggp", eval.WithSet("P", "4"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parser.ReadGOAL(strings.NewReader(text), "f.goal", 16<<20)
		if err != nil || s.Ranks > 64 || len(s.Ops) > 4096 {
			return
		}
		res, err := Run(context.Background(), m, s, RunOptions{ProgramOptions: ProgramOptions{MaxEvents: 1 << 20}})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for _, pr := range []*eval.ProgramResult{res.Analytic, res.Simulated} {
			for _, r := range pr.Ranks {
				if sum := r.Compute + r.Send + r.Recv + r.Wait; math.Abs(sum-r.End) > 1e-9*max(r.End, 1e-6) {
					t.Fatalf("%s: rank %d: %g + %g + %g + %g = %g, end %g", pr.Method, r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
				}
			}
		}
		sim := res.Simulated
		seen := map[[2]int]bool{}
		for _, st := range sim.CriticalPath {
			if seen[[2]int{st.Rank, st.Op}] {
				t.Fatalf("rank %d's operation %d is on the critical path twice", st.Rank, st.Op)
			}
			seen[[2]int{st.Rank, st.Op}] = true
		}
		// A message no receive takes still costs its receiver's CPU, which
		// may end the rank after its last operation.
		if p := sim.CriticalPath; len(p) > 0 && p[len(p)-1].End > sim.Makespan {
			t.Fatalf("the critical path ends at %g, after the makespan %g", p[len(p)-1].End, sim.Makespan)
		}
	})
}
