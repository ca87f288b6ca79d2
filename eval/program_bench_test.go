package eval_test

import (
	"context"
	"fmt"

	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// BenchmarkProgramSchedule instantiates a ring exchange of 1,024 ranks and
// 1,002 operations each.
func BenchmarkProgramSchedule(b *testing.B) {
	m, err := eval.Load("std:sun-pool")
	if err != nil {
		b.Fatal(err)
	}
	p, err := eval.LoadProgram("testdata/programs/ring_exchange.machine")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: 1024})
		if err != nil {
			b.Fatal(err)
		}
		ops += len(s.Ops)
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "ops/s")
}

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
			p, err := eval.LoadProgram("../examples/programs/" + bc.name + ".machine")
			if err != nil {
				b.Fatal(err)
			}
			s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: bc.ranks})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eval.Analyze(context.Background(), m, s, eval.AnalyzeOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(s.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
