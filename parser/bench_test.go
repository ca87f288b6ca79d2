package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
)

// benchLinks writes a machine of n explicit links, the statement form that
// dominates large machine files, in the modern syntax or the Parasol I format
// (the same text eval's BenchmarkLoadLinks loads).
func benchLinks(n int, legacy bool) string {
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

// benchMachines repeats the standard machines until the text is about size
// bytes: every statement form, comments and long model expressions.
func benchMachines(tb testing.TB, size int) string {
	files, _ := filepath.Glob("../stdlib/machines/*.machine")
	var parts []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if !IsLegacy(string(data)) {
			parts = append(parts, string(data))
		}
	}
	if len(parts) == 0 {
		tb.Fatal("no standard machines")
	}
	var b strings.Builder
	for b.Len() < size {
		for _, p := range parts {
			b.WriteString(p)
			b.WriteString("\n")
		}
	}
	return b.String()
}

func benchParse(b *testing.B, src string) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		if _, err := ParseFile("bench.machine", src); err != nil {
			b.Fatal(err)
		}
	}
	// The steadier figure on a shared machine: MB per second of the
	// process's CPU time (the garbage collector's included).
	if cpu := cputime.Seconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(len(src))*float64(b.N)/1e6/cpu, "MB/cpu-s")
	}
}

// BenchmarkParseModern measures the modern-syntax parser on 100,000 links
// and on about 4 MB of standard machines (MB/s is over the source text).
func BenchmarkParseModern(b *testing.B) {
	b.Run("links", func(b *testing.B) { benchParse(b, benchLinks(100_000, false)) })
	b.Run("machines", func(b *testing.B) { benchParse(b, benchMachines(b, 4<<20)) })
}

// BenchmarkParseLegacy measures the Parasol I reader on 100,000 links.
func BenchmarkParseLegacy(b *testing.B) {
	benchParse(b, benchLinks(100_000, true))
}
