package topo

import (
	"context"
	"fmt"
	"testing"
)

// enumerateBisection tries every split of the nodes: the definition,
// for graphs of a few nodes.
func enumerateBisection(g *Graph) int {
	n := g.N()
	P := g.NumProcs()
	best := -1
	side := make([]bool, n)
	for mask := 0; mask < 1<<n; mask++ {
		a := 0
		for v := range n {
			side[v] = mask>>v&1 == 1
			if side[v] && g.NodeKind(int32(v)) == Processor {
				a++
			}
		}
		if a != P/2 && a != (P+1)/2 {
			continue
		}
		if c := g.cut(side); best < 0 || c < best {
			best = c
		}
	}
	return best
}

// randomGraph is a connected graph of n nodes, some of them switches, with
// extra links (some parallel) and a shared medium now and then.
func randomGraph(t *testing.T, n int, seed uint64) *Graph {
	rng := NewRand(seed)
	b := NewBuilder()
	for v := range n {
		if v > 1 && rng.Intn(4) == 0 {
			b.Switch(v)
		} else {
			b.Processor(v)
		}
	}
	for v := 1; v < n; v++ {
		b.Connect(v, rng.Intn(v))
	}
	for range rng.Intn(2 * n) {
		a, c := rng.Intn(n), rng.Intn(n)
		if a != c {
			b.Connect(a, c)
		}
	}
	if rng.Intn(3) == 0 {
		b.Link(LinkSpec{Members: []int{0, n / 2, n - 1}, Dim: -1})
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The branch and bound finds what trying every split finds, on random
// graphs with switches, multilinks and shared media.
func TestExhaustiveBisectionMatchesEnumeration(t *testing.T) {
	for seed := range uint64(300) {
		g := randomGraph(t, 3+int(seed%12), seed)
		want := enumerateBisection(g)
		got, ok := g.exhaustiveBisection(g.NumLinks()+1, 1<<30)
		if !ok || got != want {
			t.Fatalf("seed %d: branch and bound %d (%v), enumeration %d", seed, got, ok, want)
		}
		if ub := g.splitBound(); ub < want {
			t.Fatalf("seed %d: a split cuts %d links, below the width %d", seed, ub, want)
		}
	}
}

// Every rule agrees with the exhaustive search wherever that can run.
func TestBisectionRulesAgreeWithExhaustiveSearch(t *testing.T) {
	var calls [][2]any
	add := func(gen string, args ...int) { calls = append(calls, [2]any{gen, args}) }
	for d := 1; d <= 5; d++ {
		add("hypercube", d)
	}
	for n := 2; n <= 12; n++ {
		add("chain", n)
		add("ring", n)
		add("full", n)
	}
	for depth := 1; depth <= 4; depth++ {
		add("tree", 2, depth)
		add("tree", 1, depth)
	}
	for a := 2; a <= 8; a++ {
		for b := 2; b <= 8 && a*b <= 36; b++ {
			add("mesh", a, b)
			add("torus", a, b)
		}
	}
	for _, dims := range [][]int{{2, 2, 2}, {2, 2, 4}, {4, 2, 2}, {2, 3, 4}, {4, 3, 2}, {3, 2, 4}, {2, 2, 6}, {2, 2, 3}, {3, 3, 2}, {4, 4, 2}, {2, 2, 2, 2}, {2, 2, 2, 4}} {
		add("mesh", dims...)
		add("torus", dims...)
	}
	checked := 0
	for _, c := range calls {
		gen, args := c[0].(string), c[1].([]int)
		g, err := Generate(gen, args, GenerateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rule, ok := g.ruleBisection()
		if !ok {
			continue
		}
		ex, done := g.exhaustiveBisection(g.splitBound()+1, 1<<28)
		if !done {
			t.Fatalf("%s%v: the exhaustive search did not finish", gen, args)
		}
		if rule != ex {
			t.Errorf("%s%v: the rule says %d, the exhaustive search %d", gen, args, rule, ex)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d rules checked", checked)
	}
}

// Bisection is exact where it can be computed and says so; elsewhere it
// is an upper bound, marked as one.
func TestBisectionIsExactOrSaysItIsABound(t *testing.T) {
	build := func(links [][2]int, switches ...int) *Graph {
		b := NewBuilder()
		seen := map[int]bool{}
		for _, s := range switches {
			b.Switch(s)
			seen[s] = true
		}
		for _, l := range links {
			for _, v := range l {
				if !seen[v] {
					b.Processor(v)
					seen[v] = true
				}
			}
			b.Connect(l[0], l[1])
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	var petersen, cube [][2]int
	for i := range 5 {
		petersen = append(petersen, [2]int{i, (i + 1) % 5}, [2]int{i, i + 5}, [2]int{i + 5, (i+2)%5 + 5})
	}
	for v := range 8 {
		for b := range 3 {
			if w := v ^ 1<<b; v < w {
				cube = append(cube, [2]int{v, w})
			}
		}
	}
	gen := func(name string, args ...int) *Graph {
		g, err := Generate(name, args, GenerateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name  string
		g     *Graph
		width int
		exact bool
	}{
		{"tree(2, 3)", gen("tree", 2, 3), 1, true},
		{"tree(3, 2)", gen("tree", 3, 2), 3, true},
		{"explicit 3-cube", build(cube), 4, true},
		{"Petersen graph", build(petersen), 5, true},
		{"mesh(3, 5)", gen("mesh", 3, 5), 4, true},
		{"mesh(5, 5)", gen("mesh", 5, 5), 6, true},
		{"torus(3, 3)", gen("torus", 3, 3), 8, true},
		{"hypercube(10)", gen("hypercube", 10), 512, true},
		{"torus(16, 16)", gen("torus", 16, 16), 32, true},
		{"mesh(9, 9)", gen("mesh", 9, 9), 10, false}, // a staircase; the true width is 10 too, but unproved here
		{"hamiltonian(300)", gen("hamiltonian", 300, 1), -1, false},
		{"processors behind one switch", build([][2]int{{0, 9}, {1, 9}, {2, 9}, {3, 9}}, 9), 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, exact := tc.g.bisection()
			if exact != tc.exact || tc.width >= 0 && w != tc.width {
				t.Errorf("bisection %d (exact %v), want %d (exact %v)", w, exact, tc.width, tc.exact)
			}
			if tc.g.N() <= 16 && enumerateBisection(tc.g) != w {
				t.Errorf("trying every split gives %d", enumerateBisection(tc.g))
			}
		})
	}
}

// A graph too large to search is refused at once, not searched.
func TestExhaustiveBisectionIsBounded(t *testing.T) {
	g, _ := Generate("hamiltonian", []int{40, 3}, GenerateOptions{})
	if _, ok := g.exhaustiveBisection(g.splitBound(), 1000); ok {
		t.Error("a 40-node search finished within 1000 steps")
	}
	big, _ := Generate("mesh", []int{9, 9}, GenerateOptions{})
	if _, ok := big.exhaustiveBisection(big.splitBound(), 1<<30); ok {
		t.Error("an 81-node graph was searched")
	}
}

func ExampleGraph_Metrics_bisection() {
	g, _ := Generate("tree", []int{2, 3}, GenerateOptions{})
	m := g.Metrics(context.Background(), MetricsOptions{})
	fmt.Println(m.Bisection, m.BisectionExact)
	// Output: 1 true
}
