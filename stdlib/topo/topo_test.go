package topo

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// bruteMetrics recomputes D and μ by BFS, ignoring the closed forms.
func bruteMetrics(g *Graph) (int, float64) {
	np := g.NumProcs()
	diam, sum := 0, 0.0
	for r := range np {
		dist := g.BFS(g.Proc(r))
		for q := range np {
			d := int(dist[g.Proc(q)])
			diam = max(diam, d)
			sum += float64(d)
		}
	}
	return diam, sum / float64(np*(np-1))
}

func TestGeneratorsMetrics(t *testing.T) {
	tests := []struct {
		name      string
		args      []int
		n, links  int
		diam      int
		bisection int
	}{
		{"hypercube", []int{3}, 8, 12, 3, 4},
		{"hypercube", []int{6}, 64, 192, 6, 32},
		{"mesh", []int{4, 4}, 16, 24, 6, 4},
		{"mesh", []int{3, 5}, 15, 22, 6, 4}, // a staircase: 3 links across plus 1
		{"torus", []int{4, 4}, 16, 32, 4, 8},
		{"torus", []int{8, 8}, 64, 128, 8, 16},
		{"torus", []int{2, 3}, 6, 9, 2, 3},
		{"torus", []int{4, 4, 4}, 64, 192, 6, 32},
		{"ring", []int{7}, 7, 7, 3, 2},
		{"chain", []int{5}, 5, 4, 4, 1},
		{"tree", []int{2, 3}, 15, 14, 6, 1},
		{"tree", []int{3, 2}, 13, 12, 4, -1},
		{"full", []int{5}, 5, 10, 1, 6},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.name, tc.args), func(t *testing.T) {
			g, err := Generate(tc.name, tc.args, GenerateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != tc.n || g.NumLinks() != tc.links {
				t.Fatalf("N=%d links=%d, want %d %d", g.N(), g.NumLinks(), tc.n, tc.links)
			}
			m := g.Metrics(context.Background(), MetricsOptions{})
			d, mu := bruteMetrics(g)
			if m.Diameter != tc.diam || d != tc.diam {
				t.Errorf("diameter %d (brute %d), want %d", m.Diameter, d, tc.diam)
			}
			if math.Abs(m.AvgDistance-mu) > 1e-9 {
				t.Errorf("μ = %v, brute force %v", m.AvgDistance, mu)
			}
			if tc.bisection >= 0 && m.Bisection != tc.bisection {
				t.Errorf("bisection %d, want %d", m.Bisection, tc.bisection)
			}
			for u := range int32(g.N()) {
				dist := g.BFS(u)
				for v := range int32(g.N()) {
					if rd, ok := g.RuleDist(u, v); ok && rd != int(dist[v]) {
						t.Fatalf("RuleDist(%d,%d) = %d, BFS %d", u, v, rd, dist[v])
					}
				}
			}
		})
	}
}

func TestHamiltonian(t *testing.T) {
	for _, n := range []int{16, 64, 256} {
		g, err := NewHamiltonian(n, 42, 4)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int32]bool{}
		for l := range int32(g.NumLinks()) {
			k := g.Link(l)
			a, b := min(k.A, k.B), max(k.A, k.B)
			if a == b || seen[[2]int32{a, b}] {
				t.Fatalf("n=%d: self or multiple link %d-%d", n, a, b)
			}
			seen[[2]int32{a, b}] = true
		}
		for v := range int32(n) {
			if g.Degree(v) != 4 {
				t.Fatalf("n=%d: node %d has degree %d", n, v, g.Degree(v))
			}
		}
		m := g.Metrics(context.Background(), MetricsOptions{})
		d, mu := bruteMetrics(g)
		if m.Diameter != d || math.Abs(m.AvgDistance-mu) > 1e-9 {
			t.Errorf("metrics %+v, brute %d %v", m, d, mu)
		}
		if m.Bisection <= 0 || m.Bisection > g.NumLinks() {
			t.Errorf("bisection %d out of range", m.Bisection)
		}
		h, _ := NewHamiltonian(n, 42, 4)
		for l := range int32(g.NumLinks()) {
			if g.Link(l) != h.Link(l) {
				t.Fatalf("same seed gave different graphs")
			}
		}
	}
}

func TestBuilder(t *testing.T) {
	// Two processors (sparse ids 43, 45) behind a switch, plus a shared
	// Ethernet segment and an I/O link.
	b := NewBuilder().Processor(43).Processor(45).Switch(7).Processor(50)
	b.Connect(43, 7).Connect(7, 45)
	b.Link(LinkSpec{Members: []int{43, 45, 50}, Dim: -1})
	b.Link(LinkSpec{Members: []int{50}, IO: true})
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 4 || g.NumProcs() != 3 || g.NumLinks() != 4 {
		t.Fatalf("N=%d procs=%d links=%d", g.N(), g.NumProcs(), g.NumLinks())
	}
	v, ok := g.Index(45)
	if !ok || g.ID(v) != 45 || g.Rank(v) != 1 || g.Proc(2) != 3 {
		t.Fatalf("id mapping wrong: %d %v", v, ok)
	}
	if s, _ := g.Index(7); g.NodeKind(s) != Switch || g.Rank(s) != -1 {
		t.Fatal("switch not recorded")
	}
	if len(g.Members(2)) != 3 || !g.Link(2).Multi {
		t.Fatal("multi-point link lost its members")
	}
	if p := g.ShortestPath(0, 1); len(p) != 2 {
		t.Fatalf("shared medium should give a 1-hop path, got %v", p)
	}
	m := g.Metrics(context.Background(), MetricsOptions{})
	if m.Diameter != 1 || m.AvgDistance != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestErrors(t *testing.T) {
	bad := []struct {
		build func() (*Graph, error)
		want  string
	}{
		{func() (*Graph, error) { return Generate("moebius", []int{3}, GenerateOptions{}) }, "unknown topology generator"},
		{func() (*Graph, error) { return Generate("torus", nil, GenerateOptions{}) }, "takes torus(d1, d2, ...)"},
		{func() (*Graph, error) { return Generate("hypercube", []int{-1}, GenerateOptions{}) }, "hypercube(-1): the dimension must be at least 0"},
		{func() (*Graph, error) { return Generate("mesh", []int{4, 0}, GenerateOptions{}) }, "mesh(4, 0): every side must be at least 1, got 0"},
		{func() (*Graph, error) { return Generate("ring", []int{0}, GenerateOptions{}) }, "ring(0): a ring needs at least 1 node"},
		{func() (*Graph, error) { return Generate("chain", []int{-2}, GenerateOptions{}) }, "chain(-2): a chain needs at least 1 node"},
		{func() (*Graph, error) { return Generate("hamiltonian", []int{5, 1, 3}, GenerateOptions{}) }, "hamiltonian(5, 1, 3): n × (degree-2) = 5 × 1 must be even"},
		{func() (*Graph, error) { return Generate("hamiltonian", []int{2, 1}, GenerateOptions{}) }, "hamiltonian(2, 1): a Hamiltonian graph needs at least 3 nodes"},
		{func() (*Graph, error) { return Generate("hamiltonian", []int{8, 1, 9}, GenerateOptions{}) }, "hamiltonian(8, 1, 9): the degree 9 must be in 2..7"},
		{func() (*Graph, error) { return Generate("tree", []int{0, 2}, GenerateOptions{}) }, "tree(0, 2): the branching factor k must be at least 1"},
		{func() (*Graph, error) { return Generate("tree", []int{2, -1}, GenerateOptions{}) }, "tree(2, -1): the depth must be at least 0"},
		{func() (*Graph, error) { return Generate("full", []int{0}, GenerateOptions{}) }, "full(0): a complete graph needs at least 1 node"},
		{func() (*Graph, error) { return NewBuilder().Processor(1).Processor(1).Build() }, "defined twice"},
		{func() (*Graph, error) { return NewBuilder().Processor(1).Connect(1, 2).Build() }, "unknown node 2"},
		{func() (*Graph, error) { return NewBuilder().Processor(1).Connect(1, 1).Build() }, "to itself"},
		{func() (*Graph, error) { return NewBuilder().Build() }, "no nodes"},
	}
	for _, tc := range bad {
		_, err := tc.build()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func TestLargeTorusMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1M-node torus")
	}
	g, err := NewGrid([]int{1024, 1024}, true)
	if err != nil {
		t.Fatal(err)
	}
	m := g.Metrics(context.Background(), MetricsOptions{})
	if g.N() != 1<<20 || g.NumLinks() != 1<<21 || m.Diameter != 1024 || m.Bisection != 2048 {
		t.Fatalf("N=%d links=%d %+v", g.N(), g.NumLinks(), m)
	}
}

func ExampleGenerate() {
	g, _ := Generate("torus", []int{4, 4}, GenerateOptions{})
	m := g.Metrics(context.Background(), MetricsOptions{})
	fmt.Println(g.Kind(), g.N(), g.NumLinks(), m.Diameter, m.Bisection)
	fmt.Printf("%.4f\n", m.AvgDistance)
	// Output:
	// torus 16 32 4 8
	// 2.1333
}

// A graph whose processors are its first nodes (star(n): processors 0..n-1,
// the switch n) ranks its processors by node index and its switches -1
// without a table of either (8 bytes a node, 0.5 MB for std:loggp's
// star); one with a switch among them (TestBuilder) keeps its tables.
func TestProcessorsFirstAreRankedWithoutTables(t *testing.T) {
	g, err := Generate("star", []int{5}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.procs != nil || g.rank != nil || g.NumProcs() != 5 || g.N() != 6 {
		t.Fatalf("star(5): procs %v, rank %v, %d processors of %d nodes", g.procs, g.rank, g.NumProcs(), g.N())
	}
	for v := range int32(6) {
		want := int(v)
		if v == 5 {
			want = -1
		}
		if got := g.Rank(v); got != want {
			t.Errorf("star(5).Rank(%d) = %d, want %d", v, got, want)
		}
	}
	for r := range 5 {
		if got := g.Proc(r); got != int32(r) {
			t.Errorf("star(5).Proc(%d) = %d, want %d", r, got, r)
		}
	}
	b := NewBuilder().Switch(0).Processor(1).Processor(2)
	b.Connect(1, 0).Connect(0, 2)
	h, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if h.Rank(0) != -1 || h.Rank(1) != 0 || h.Rank(2) != 1 || h.Proc(0) != 1 || h.Proc(1) != 2 {
		t.Errorf("a switch before its processors: ranks %d %d %d, procs %d %d", h.Rank(0), h.Rank(1), h.Rank(2), h.Proc(0), h.Proc(1))
	}
}
