package runtime

import (
	"context"
	"testing"
)

// 1,024 ranks × about 1,000 operations (issue 10's scale): on the 64 cores
// of the XK-XMP-64, 16 ranks to a core, and on a 32×32 torus, one each.
// docs/PROGRAMS.md quotes the figures.
func BenchmarkRunProgram(b *testing.B) {
	s := ringSchedule(1024, 333, 1024)
	xmp := loadSpec(b, "std:xmp64")
	torus := &Spec{Graph: mustGen(b, "torus", 32, 32), DefaultNode: NodeParams{SendOverhead: 1e-6, RecvOverhead: 1e-6},
		DefaultLink: LinkParams{Latency: 1e-7, Bandwidth: 1e9}, Switching: VCT}
	// The same torus with LogGOPS's NICs (std:loggp's defaults).
	nic := *torus
	nic.DefaultNode.SendGap, nic.DefaultNode.RecvGap = 1e-6, 1e-6
	nic.DefaultNode.SendGapPerByte, nic.DefaultNode.RecvGapPerByte = 6e-9, 6e-9
	for _, bc := range []struct {
		name string
		spec *Spec
	}{{"xmp64", xmp}, {"torus32x32", torus}, {"torus32x32-nic", &nic}} {
		b.Run(bc.name, func(b *testing.B) {
			var res *ProgramResult
			var err error
			for b.Loop() {
				if res, err = RunProgram(context.Background(), bc.spec, s, ProgramOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			if res.Deadlock != nil {
				b.Fatal("deadlock")
			}
			b.ReportMetric(float64(len(s.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
			b.ReportMetric(float64(res.Events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
