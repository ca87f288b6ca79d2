package topo

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/limits"
)

func TestGeneratorBeyondMemoryLimitIsRefusedBeforeAllocating(t *testing.T) {
	const limit = 64 << 20
	tests := []struct {
		name string
		args []int
		want string
	}{
		{"hypercube", []int{24}, "hypercube(24) needs about 8.3 GB; the limit is 67 MB, set --max-memory to raise it"},
		{"hypercube", []int{60}, "hypercube(60) needs about"},
		{"full", []int{100000}, "full(100000) needs about 200 GB"},
		{"mesh", []int{1 << 40, 1 << 40}, "mesh(1099511627776, 1099511627776) needs about more than 9 EB"},
		{"torus", []int{4000, 4000}, "torus(4000, 4000) needs about 1.5 GB"},
		{"ring", []int{1 << 30}, "ring(1073741824) needs about"},
		{"chain", []int{1 << 30}, "chain(1073741824) needs about"},
		{"tree", []int{2, 1 << 40}, "tree(2, 1099511627776) needs about"},
		{"tree", []int{1, 1 << 30}, "tree(1, 1073741824) needs about"},
		{"hamiltonian", []int{1 << 22, 1, 4}, "hamiltonian(4194304, 1, 4) needs about"},
		{"star", []int{1 << 22}, "star(4194304) needs about"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Generate(tc.name, tc.args, GenerateOptions{MaxMemory: limit})
			runtime.ReadMemStats(&after)
			var tl *limits.TooLarge
			if !errors.As(err, &tl) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *limits.TooLarge containing %q", err, tc.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("refusing allocated %d bytes first", grew)
			}
		})
	}
}

func TestGeneratorBeyondStructuralBoundsIsRefused(t *testing.T) {
	// With memory enough, a graph still cannot outgrow its int32 indices.
	_, err := Generate("full", []int{50000}, GenerateOptions{MaxMemory: 1 << 62})
	if err == nil || !strings.Contains(err.Error(), "full(50000) has 50000 nodes and 1249975000 links; a graph holds at most") {
		t.Fatalf("error %v", err)
	}
	_, err = Generate("hypercube", []int{61}, GenerateOptions{MaxMemory: 1 << 62})
	if err == nil || !strings.Contains(err.Error(), "hypercube(61): 61 dimensions is 2^61 nodes") {
		t.Fatalf("error %v", err)
	}
}

// The estimate is what the limit is compared with, so it must be close to
// what generating really allocates: never below it, and not more than
// twice it.
func TestSizeEstimateIsWithinTwiceTheAllocation(t *testing.T) {
	for _, c := range []struct {
		name string
		args []int
	}{
		{"hypercube", []int{14}}, {"torus", []int{256, 256}}, {"mesh", []int{300, 300}}, {"ring", []int{100000}},
		{"full", []int{600}}, {"tree", []int{3, 10}}, {"hamiltonian", []int{50000, 1, 6}},
		{"fattree", []int{16, 3}}, {"xgft", []int{3, 8, 16, 16, 1, 8, 8}}, {"dragonfly", []int{8, 16, 8, 129}},
		{"dragonfly", []int{4, 8, 4, 20, Circulant}}, {"flatfly", []int{8, 3, 8}}, {"hyperx", []int{4, 8, 8, 16}},
		{"star", []int{65536}},
	} {
		s, err := Plan(c.name, c.args)
		if err != nil {
			t.Fatal(err)
		}
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		g, err := Generate(c.name, c.args, GenerateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		got := int64(b.TotalAlloc - a.TotalAlloc)
		if est := s.Bytes(); est < got || est > 2*got {
			t.Errorf("%s: estimated %d bytes, allocated %d", s.Call, est, got)
		}
		if int64(g.N()) != s.Nodes || int64(g.NumLinks()) != s.Links {
			t.Errorf("%s: planned %d nodes %d links, built %d %d", s.Call, s.Nodes, s.Links, g.N(), g.NumLinks())
		}
	}
}

func TestExplicitGraphBytesCoverABuiltGraph(t *testing.T) {
	const n = 20000
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	bd := NewBuilder()
	for i := range n {
		bd.Processor(i)
	}
	for i := range n {
		bd.Connect(i, (i+1)%n)
		bd.Connect(i, (i+7)%n)
	}
	g, err := bd.Build()
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(g)
	// Build's own share: the graph it returns, not the builder's lists
	// (which eval's estimate counts separately).
	if est := GraphBytes(n, 2*n); est <= 0 || est > int64(b.TotalAlloc-a.TotalAlloc) {
		t.Errorf("GraphBytes %d, builder and graph allocated %d", est, b.TotalAlloc-a.TotalAlloc)
	}
}

func TestMetricsOfDisconnectedGraphSaySo(t *testing.T) {
	g, err := NewBuilder().Processor(0).Processor(1).Processor(2).Processor(3).
		Connect(0, 1).Connect(2, 3).Build()
	if err != nil {
		t.Fatal(err)
	}
	m := g.Metrics(context.Background(), MetricsOptions{})
	var d *Disconnected
	if !errors.As(m.Err, &d) || d.From != 0 || d.To != 2 {
		t.Fatalf("Err = %v, want node 0 cannot reach node 2", m.Err)
	}
	if m.Diameter != 0 || m.AvgDistance != 0 {
		t.Errorf("distances %d %g reported for a disconnected graph", m.Diameter, m.AvgDistance)
	}
	if want := "the graph is disconnected: node 0 cannot reach node 2"; m.Err.Error() != want {
		t.Errorf("%q, want %q", m.Err, want)
	}
}

func TestMetricsBeyondWorkBoundAreSkippedWithTheReason(t *testing.T) {
	g, err := Generate("hamiltonian", []int{2000, 1, 3}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := g.Metrics(context.Background(), MetricsOptions{MaxWork: 1e6})
	var tw *TooMuchWork
	if !errors.As(m.Err, &tw) {
		t.Fatalf("Err = %v, want *TooMuchWork", m.Err)
	}
	want := "diameter and average distance of a 2000-node hamiltonian graph need about 1.6e7 steps (a breadth-first search from each processor); the bound is 1e6, so they are not computed"
	if !strings.HasPrefix(m.Err.Error(), want) {
		t.Errorf("%q\nwant prefix %q", m.Err, want)
	}
	if m.Bisection <= 0 {
		t.Errorf("bisection %d: it is cheap and still computed", m.Bisection)
	}
	// Closed forms cost nothing, whatever the size.
	big, err := Generate("torus", []int{1000, 1000}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := big.Metrics(context.Background(), MetricsOptions{MaxWork: 1}); m.Err != nil || m.Diameter != 1000 {
		t.Errorf("torus(1000, 1000): %+v", m)
	}
}

func TestMetricsReportProgressAndStopWhenCancelled(t *testing.T) {
	g, err := Generate("hamiltonian", []int{3000, 2, 3}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var calls, last int
	m := g.Metrics(context.Background(), MetricsOptions{Progress: func(done, total int) {
		if done < last || total != 3000 {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		calls, last = calls+1, done
	}})
	if m.Err != nil || calls < 2 || last != 3000 {
		t.Fatalf("err %v, %d progress calls ending at %d", m.Err, calls, last)
	}
	g2, err := Generate("hamiltonian", []int{3000, 3, 3}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m = g2.Metrics(ctx, MetricsOptions{Progress: func(done, _ int) { cancel() }})
	if !errors.Is(m.Err, context.Canceled) {
		t.Fatalf("Err = %v, want context.Canceled", m.Err)
	}
	// A cancelled measurement is not remembered as the graph's metrics.
	if m := g2.Metrics(context.Background(), MetricsOptions{}); m.Err != nil || m.Diameter <= 0 {
		t.Errorf("after cancellation: %+v", m)
	}
}

func TestSciFormatsCountsBriefly(t *testing.T) {
	for in, want := range map[float64]string{2e9: "2e9", 3.2e12: "3.2e12", 1.25e7: "1.2e7", 999: "1e3", 5: "5e0"} {
		if got := Sci(in); got != want {
			t.Errorf("Sci(%g) = %q, want %q", in, got, want)
		}
	}
}
