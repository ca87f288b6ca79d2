package eval

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/parser"
)

// FuzzAnalyzeGOAL runs every schedule the GOAL reader accepts: Analyze
// never panics, and every rank's breakdown adds up to its end.
func FuzzAnalyzeGOAL(f *testing.F) {
	for _, name := range []string{"mixed_4.goal", "pingpong_2_65536_x3.goal", "dissemination_16_1.goal"} {
		text, err := os.ReadFile(filepath.Join("testdata/goal", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	f.Add("num_ranks 2\nrank 0 {\na: send 1b to 0 tag 0\nb: recv 1b from -1 tag -1\nc: calc 5 cpu 3\nc irequires b\n}\nrank 1 {\nsend 100000b to 0 tag 7\n}\n")
	m, err := Load("std:loggp", WithSet("P", "4"))
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
		if p := res.CriticalPath; res.Deadlock == nil && len(p) > 0 && p[len(p)-1].End != res.Makespan {
			t.Fatalf("the critical path ends at %g, the makespan is %g", p[len(p)-1].End, res.Makespan)
		}
	})
}
