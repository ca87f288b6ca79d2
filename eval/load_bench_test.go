package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
)

// genLinks writes a machine with n explicit links in the modern syntax, or
// in the Parasol I format.
func genLinks(n int, legacy bool) string {
	var b strings.Builder
	if legacy {
		b.WriteString("machinename = \"big\"\nprocessor = 1\nname = \"cpu\"\ntopology = 100\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "linknumber = %d\nlinkio = 0\nlinklatency = 230\nlinkspeed = 2667231\nprocs_connected = 2\nprocessortype0 = 1\nprocessornumber = %d\nprocessortype1 = 1\nprocessornumber = %d\n", i, i, i+1)
		}
		return b.String()
	}
	b.WriteString("machine \"big\" {\n\tprocessor cpu {}\n\ttopology t {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\t\tlink %d -- %d { latency = 230ns; speed = 2667231B/s }\n", i, i+1)
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

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
