package eval_test

import (
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
