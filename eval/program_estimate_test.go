package eval

import (
	"regexp"
	"strconv"
	"testing"
)

// The estimate made before a program is instantiated counts the
// operations the instantiation makes: loops by their trip counts,
// conditions and lets computed for each rank, nested loops whose bounds
// follow the outer loop, loops on one rank only. Under a limit the
// program passes it is refused with the count, which is compared with the
// schedule built under a limit it fits.
func TestProgramExpansionIsEstimatedBeforeItHappens(t *testing.T) {
	big := loadTest(t, fourCPUs)
	small, err := LoadSource("t.machine", fourCPUs, WithMaxMemory(1<<10))
	if err != nil {
		t.Fatal(err)
	}
	about := regexp.MustCompile(`^<program>:(\d+):(\d+): program main on 4 ranks expands to about (\d+) operations, which needs about [\d.]+ [KMG]B; the limit is 1\.0 KB`)
	for _, tc := range []struct {
		body string
		at   string // line:col of the loop named
		// how far the estimate may be from the count (1 for exact)
		within float64
	}{
		{"for i in 1 .. 300 { compute(1ns) }", "1:1", 1},
		{"compute(1ns)\nfor i in 1 .. 100 { for j in 1 .. 3 { compute(1ns) } barrier() }", "2:1", 1},
		{"if rank == 0 {\n for i in 1 .. 500 { compute(1ns) }\n}\nbarrier()", "2:2", 1},
		{"let n = 100 * (rank + 1)\nfor i in 1 .. n { compute(1ns) }", "2:1", 1},
		// A triangle, estimated from its middle row: (1 + 2 + … + 199) /
		// (199 × 100).
		{"for i in 1 .. 199 { for j in 1 .. i { compute(1ns) } }", "1:1", 1.01},
		{"for i in 1 .. 200 { if mod(i, 2) == 0 { compute(1ns) } else { compute(1ns) compute(1ns) } }", "1:1", 1.5},
		{"for i in 1 .. 100 {\n let r = irecv(from: mod(rank + 3, ranks), tag: i)\n send(1KB, to: mod(rank + 1, ranks), tag: i)\n wait(r)\n}", "1:1", 1},
	} {
		p, err := ParseProgramBody(big, tc.body)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Schedule(big, ScheduleOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		_, err = p.Schedule(small, ScheduleOptions{})
		if err == nil {
			t.Fatalf("%s: instantiated under 1 KB", tc.body)
		}
		g := about.FindStringSubmatch(err.Error())
		if g == nil {
			t.Errorf("%s:\ngot %v\nwant %v", tc.body, err, about)
			continue
		}
		if at := g[1] + ":" + g[2]; at != tc.at {
			t.Errorf("%s: refused at %s, want at the loop, %s", tc.body, at, tc.at)
		}
		est, _ := strconv.ParseFloat(g[3], 64)
		if n := float64(len(s.Ops)); est > n*tc.within || est < n/tc.within {
			t.Errorf("%s: estimated %g operations; it makes %g", tc.body, est, n)
		}
	}
}
