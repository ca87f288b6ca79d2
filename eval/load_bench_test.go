package eval

import (
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
)

// BenchmarkLoadLinks measures parsing and loading a machine of 100,000
// explicit links (MB/s is over the source text). Because this machine is
// shared, it also reports MB per second of the process's CPU time, the
// steadier figure with other jobs on the cores (it counts the garbage
// collector's work on other threads too).
func BenchmarkLoadLinks(b *testing.B) {
	for _, legacy := range []bool{false, true} {
		name := "modern"
		if legacy {
			name = "parasol1"
		}
		src := genLinks(100_000, legacy)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			cpu0 := cputime.Seconds()
			for i := 0; i < b.N; i++ {
				m, err := LoadSource("big.machine", src)
				if err != nil {
					b.Fatal(err)
				}
				if got := m.Topologies()[0].Graph.NumLinks(); got != 100_000 {
					b.Fatalf("%d links", got)
				}
			}
			if cpu := cputime.Seconds() - cpu0; cpu > 0 {
				b.ReportMetric(float64(len(src))*float64(b.N)/1e6/cpu, "MB/cpu-s")
			}
		})
	}
}
