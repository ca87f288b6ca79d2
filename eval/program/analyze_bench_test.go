package program_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
)

// BenchmarkAnalyzeManyRanks answers example programs analytically with
// 4,096 and 16,384 ranks on the 64 processors of the XK-XMP-64: 64 or 256
// ranks share each processor's CPU and NIC.
func BenchmarkAnalyzeManyRanks(b *testing.B) {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		ranks int
	}{{"jacobi", 4096}, {"ring", 4096}, {"pipeline_bcast", 4096}, {"jacobi", 16384}, {"pipeline_bcast", 16384}} {
		b.Run(fmt.Sprintf("%s/%d", bc.name, bc.ranks), func(b *testing.B) {
			p, err := eval.LoadProgram("../../examples/programs/" + bc.name + ".machine")
			if err != nil {
				b.Fatal(err)
			}
			s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: bc.ranks})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := program.Analyze(context.Background(), m, s, program.AnalyzeOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(s.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
