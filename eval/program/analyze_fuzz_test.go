package program

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// FuzzAnalyzeGOAL runs every schedule the GOAL reader accepts: Analyze
// never panics, and every rank's breakdown adds up to its end. Its only
// refusal is a time beyond what it represents (maxPS). The seeds reach
// the analysis's own paths: eager and rendezvous messages either side of
// std:loggp's S, matching by tag and by wildcard in arrival order, a
// deadlock, two CPUs beside a busy NIC, empty and self-addressed
// messages, and the longest time, by one calc and by a sum.
func FuzzAnalyzeGOAL(f *testing.F) {
	for _, name := range []string{"mixed_4.goal", "scatter_8_65535.goal", "allreduce_recdoub_8_1024.goal"} {
		text, err := os.ReadFile(filepath.Join("testdata/goal", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	for _, s := range []string{
		"num_ranks 2\nrank 0 {\na: send 65535b to 1 tag 0\nb: send 65536b to 1 tag 1\n}\nrank 1 {\nc: calc 100000\nd: recv 65536b from 0 tag 1\ne: recv 65535b from 0 tag 0\nd requires c\ne requires d\n}\n",
		"num_ranks 3\nrank 0 {\na: recv 8b from -1 tag -1\nb: recv 8b from -1 tag -1\nc: recv 8b from 2 tag 5\nb requires a\nc requires b\n}\nrank 1 {\nsend 8b to 0 tag 1\n}\nrank 2 {\nx: calc 50\ny: send 8b to 0 tag 5\nz: send 8b to 0 tag 2\ny requires x\n}\n",
		"num_ranks 2\nrank 0 {\na: recv 100000b from 1 tag 0\nb: send 100000b to 1 tag 0\nb requires a\n}\nrank 1 {\na: recv 100000b from 0 tag 0\nb: send 100000b to 0 tag 0\nb requires a\n}\n",
		"num_ranks 2\nrank 0 {\na: calc 1000 cpu 0\nb: calc 1000 cpu 1\nc: send 1000b to 1 tag 0\nd: send 1000b to 1 tag 0\ne: send 1000b to 1 tag 0 nic 0\nd irequires c\ne irequires d\n}\nrank 1 {\na: recv 1000b from 0 tag 0\nb: recv 1000b from 0 tag 0\nc: recv 1000b from 0 tag 0\nb requires a\nc requires b\n}\n",
		"num_ranks 2\nrank 0 {\na: send 0b to 0 tag 3\nb: recv 0b from 0 tag 3\nc: send 1b to 1 tag 0\nb requires a\n}\nrank 1 {\nd: calc 10\n}\n",
		"num_ranks 1\nrank 0 {\na: calc 2400000000000000\n}\n",
		"num_ranks 1\nrank 0 {\na: calc 2000000000000000\nb: calc 2000000000000000\nb requires a\n}\n",
	} {
		f.Add(s)
	}
	m, err := eval.Load("std:loggp", eval.WithSet("P", "4"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parser.ReadGOAL(strings.NewReader(text), "f.goal", 16<<20)
		if err != nil || s.Ranks > 64 || len(s.Ops) > 4096 {
			return
		}
		res, err := Analyze(context.Background(), m, s, AnalyzeOptions{Timeline: true})
		if err != nil {
			if strings.Contains(err.Error(), "the longest time the analysis represents") {
				return
			}
			t.Fatalf("Analyze: %v", err)
		}
		for _, r := range res.Ranks {
			if sum := r.Compute + r.Send + r.Recv + r.Wait; math.Abs(sum-r.End) > 1e-9*max(r.End, 1e-6) {
				t.Fatalf("rank %d: %g + %g + %g + %g = %g, end %g", r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
			}
			if r.End > res.Makespan || r.End < 0 {
				t.Fatalf("rank %d ends at %g, the makespan is %g", r.Rank, r.End, res.Makespan)
			}
		}
		// A message no receive takes still costs its receiver's CPU, which
		// may end the rank after its last operation, where no path ends.
		if p := res.CriticalPath; res.Deadlock == nil && len(p) > 0 && p[len(p)-1].End != res.Makespan && !untakenMessageEndsAt(res.Timeline, res.Makespan) {
			t.Fatalf("the critical path ends at %g, the makespan is %g", p[len(p)-1].End, res.Makespan)
		}
	})
}

// untakenMessageEndsAt reports whether a message no receive took (a
// receiving span of no operation) ends at t.
func untakenMessageEndsAt(timeline []runtime.Span, t float64) bool {
	for _, sp := range timeline {
		if sp.Kind == "recv" && sp.Op < 0 && sp.End == t {
			return true
		}
	}
	return false
}
