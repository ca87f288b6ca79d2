package topo

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// explicitCopy rebuilds g link by link with a Builder: node v gets id
// ids[v], links are added in a shuffled order (seeded), and each link is
// given copies times (a multilink).
func explicitCopy(t *testing.T, g *Graph, ids []int, copies int, seed uint64) *Graph {
	t.Helper()
	b := NewBuilder()
	for v := range g.N() {
		b.Processor(ids[v])
	}
	order := make([]int, g.NumLinks())
	for i := range order {
		order[i] = i
	}
	rng := NewRand(seed)
	for i := len(order) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	for _, l := range order {
		k := g.Link(int32(l))
		a, c := ids[k.A], ids[k.B]
		if rng.Intn(2) == 0 {
			a, c = c, a
		}
		for range copies {
			b.Connect(a, c)
		}
	}
	x, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// pairs lists a graph's links as sorted pairs of external ids, with their
// multiplicity.
func pairs(g *Graph) map[[2]int]int {
	out := map[[2]int]int{}
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		a, b := g.ID(k.A), g.ID(k.B)
		out[[2]int{min(a, b), max(a, b)}]++
	}
	return out
}

// checkDistances compares RuleDist with breadth-first search on every pair.
func checkDistances(t *testing.T, g *Graph) {
	t.Helper()
	for u := range int32(g.N()) {
		dist := g.BFS(u)
		for v := range int32(g.N()) {
			d, ok := g.RuleDist(u, v)
			if !ok || d != int(dist[v]) {
				t.Fatalf("RuleDist(%d, %d) = %d, %v; BFS says %d", g.ID(u), g.ID(v), d, ok, dist[v])
			}
		}
	}
}

// A graph given link by link in any order that is a generated hypercube,
// mesh or torus under its numbering is recognised as that graph: the same
// kind and sides, every link where the generator puts it, and distances
// by rule.
func TestRecognizeFindsTheGeneratedTwin(t *testing.T) {
	tests := []struct {
		gen  string
		args []int
		kind Kind
		dims []int
	}{
		{"hypercube", []int{1}, Hypercube, []int{1}},
		{"hypercube", []int{3}, Hypercube, []int{3}},
		{"hypercube", []int{5}, Hypercube, []int{5}},
		{"mesh", []int{4, 4}, Mesh, []int{4, 4}},
		{"mesh", []int{3, 5}, Mesh, []int{3, 5}},
		{"mesh", []int{2, 3, 4}, Mesh, []int{2, 3, 4}},
		{"mesh", []int{4, 1, 3}, Mesh, []int{4, 3}},
		{"mesh", []int{2, 2}, Hypercube, []int{2}}, // the same graph and numbering
		{"torus", []int{4, 4}, Torus, []int{4, 4}},
		{"torus", []int{3, 3}, Torus, []int{3, 3}},
		{"torus", []int{2, 5}, Torus, []int{2, 5}},
		{"torus", []int{4, 2, 3}, Torus, []int{4, 2, 3}},
		{"ring", []int{7}, Torus, []int{7}},
		{"ring", []int{3}, Torus, []int{3}},
		{"chain", []int{6}, Mesh, []int{6}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.gen, tc.args), func(t *testing.T) {
			gen, err := Generate(tc.gen, tc.args, GenerateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			x := explicitCopy(t, gen, offsetIDs(gen.N(), 0), 1, 7)
			r, order, ok := Recognize(x)
			if !ok {
				t.Fatal("not recognised")
			}
			if r.Kind() != tc.kind || !slices.Equal(r.Dims(), tc.dims) {
				t.Fatalf("recognised as %s%v, want %s%v", r.Kind(), r.Dims(), tc.kind, tc.dims)
			}
			if len(order) != x.NumLinks() {
				t.Fatalf("order has %d links, want %d", len(order), x.NumLinks())
			}
			for l := range int32(r.NumLinks()) {
				got, was := r.Link(l), x.Link(order[l])
				if r.ID(got.A)+r.ID(got.B) != x.ID(was.A)+x.ID(was.B) {
					t.Fatalf("link %d joins %d-%d, but order says it was %d-%d", l, r.ID(got.A), r.ID(got.B), x.ID(was.A), x.ID(was.B))
				}
			}
			if tc.kind == gen.Kind() && slices.Equal(tc.dims, gen.Dims()) {
				// The generated graph itself, link for link.
				for l := range int32(gen.NumLinks()) {
					if r.Link(l) != gen.Link(l) {
						t.Fatalf("link %d is %+v, the generator's is %+v", l, r.Link(l), gen.Link(l))
					}
				}
			}
			checkDistances(t, r)
			if m, mg := r.Metrics(context.Background(), MetricsOptions{}), gen.Metrics(context.Background(), MetricsOptions{}); m.Diameter != mg.Diameter || m.AvgDistance != mg.AvgDistance || m.Bisection != mg.Bisection {
				t.Errorf("metrics %+v, the generated graph's %+v", m, mg)
			}
		})
	}
}

// Ids need not start at 0, and multilinks are allowed: the core's labels
// are the ids in ascending order.
func TestRecognizeOffsetIDsAndMultilinks(t *testing.T) {
	gen, _ := Generate("hypercube", []int{4}, GenerateOptions{})
	x := explicitCopy(t, gen, offsetIDs(16, 256), 2, 3)
	r, _, ok := Recognize(x)
	if !ok || r.Kind() != Hypercube {
		t.Fatalf("recognised %v as %s", ok, r.Kind())
	}
	for v := range int32(16) {
		if r.ID(v) != 256+int(v) {
			t.Fatalf("node %d has id %d, want %d", v, r.ID(v), 256+v)
		}
	}
	if !maps(pairs(r), pairs(x)) {
		t.Fatal("the links changed")
	}
	checkDistances(t, r)
}

func maps(a, b map[[2]int]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A hypercube numbered in any order is recognised (its labels are forced
// once the lowest id is 0); a mesh or torus numbered out of order is not,
// and neither is a graph one link away from a regular one.
func TestRecognizeIsExact(t *testing.T) {
	perm := func(n int, seed uint64) []int {
		ids := offsetIDs(n, 0)
		rng := NewRand(seed)
		for i := n - 1; i > 0; i-- {
			j := rng.Intn(i + 1)
			ids[i], ids[j] = ids[j], ids[i]
		}
		return ids
	}
	cube, _ := Generate("hypercube", []int{5}, GenerateOptions{})
	for seed := range uint64(5) {
		x := explicitCopy(t, cube, perm(32, seed), 1, seed)
		r, _, ok := Recognize(x)
		if !ok || r.Kind() != Hypercube {
			t.Fatalf("permuted 5-cube (seed %d) not recognised", seed)
		}
		if !maps(pairs(r), pairs(x)) {
			t.Fatal("the links changed")
		}
		checkDistances(t, r)
	}
	mesh, _ := Generate("mesh", []int{4, 4}, GenerateOptions{})
	if _, _, ok := Recognize(explicitCopy(t, mesh, perm(16, 9), 1, 1)); ok {
		t.Error("a permuted 4×4 mesh was recognised")
	}
	// A 4×4 torus is a 4-cube: numbered out of order, it is recognised as
	// the hypercube it is.
	torus, _ := Generate("torus", []int{4, 4}, GenerateOptions{})
	if r, _, ok := Recognize(explicitCopy(t, torus, perm(16, 2), 1, 1)); !ok || r.Kind() != Hypercube {
		t.Error("a permuted 4×4 torus was not recognised as a 4-cube")
	}

	near := []struct {
		name  string
		nodes int
		build func(b *Builder)
	}{
		{"3-cube less a link", 8, func(b *Builder) {
			for _, l := range [][2]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}} {
				b.Connect(l[0], l[1])
			}
		}},
		{"3-cube with two links crossed", 8, func(b *Builder) { // same degrees, one bit off
			for _, l := range [][2]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 5}, {1, 4}, {2, 6}, {3, 7}} {
				b.Connect(l[0], l[1])
			}
		}},
		{"Petersen graph", 10, func(b *Builder) {
			for i := range 5 {
				b.Connect(i, (i+1)%5).Connect(i, i+5).Connect(i+5, (i+2)%5+5)
			}
		}},
		{"4-ring with a chord", 4, func(b *Builder) {
			b.Connect(0, 1).Connect(1, 2).Connect(2, 3).Connect(3, 0).Connect(0, 2)
		}},
		{"mesh with one wrapped side", 9, func(b *Builder) { // torus(3) × chain(3)
			for y := range 3 {
				for x := range 3 {
					v := x + 3*y
					b.Connect(v, y*3+(x+1)%3)
					if y < 2 {
						b.Connect(v, v+3)
					}
				}
			}
		}},
		{"a bus", 4, func(b *Builder) {
			b.Connect(0, 1).Link(LinkSpec{Members: []int{0, 1}, Dim: -1}).Link(LinkSpec{Members: []int{0, 1, 2, 3}, Dim: -1})
		}},
	}
	for _, tc := range near {
		b := NewBuilder()
		for i := range tc.nodes {
			b.Processor(i)
		}
		tc.build(b)
		g, err := b.Build()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r, _, ok := Recognize(g); ok {
			t.Errorf("%s recognised as %s%v", tc.name, r.Core().Kind, r.Core().Dims)
		}
	}
}

// Switches that form a hypercube or a mesh, each with processors attached
// by one or more links, are a core: distances and the processors' order
// follow it, and the graph stays explicit as a whole.
func TestRecognizeSwitchCoreWithAttachedProcessors(t *testing.T) {
	for _, tc := range []struct {
		gen  string
		args []int
	}{{"hypercube", []int{3}}, {"mesh", []int{3, 4}}, {"torus", []int{4, 3}}} {
		t.Run(fmt.Sprint(tc.gen, tc.args), func(t *testing.T) {
			core, _ := Generate(tc.gen, tc.args, GenerateOptions{})
			c := core.N()
			b := NewBuilder()
			for p := range 2 * c {
				b.Processor(p)
			}
			for s := range c {
				b.Switch(1000 + s)
			}
			for p := range 2 * c {
				for range p%3 + 1 {
					b.Connect(p, 1000+p/2)
				}
			}
			for l := range int32(core.NumLinks()) {
				k := core.Link(l)
				b.Connect(1000+int(k.B), 1000+int(k.A)).Connect(1000+int(k.A), 1000+int(k.B))
			}
			g, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			r, _, ok := Recognize(g)
			if !ok {
				t.Fatal("not recognised")
			}
			if r.Kind() != Explicit {
				t.Errorf("the whole graph is %s, want explicit", r.Kind())
			}
			if cr := r.Core(); cr.Kind != core.Kind() || !slices.Equal(cr.Dims, core.Dims()) || cr.Nodes != c {
				t.Fatalf("core %+v, want %s%v of %d nodes", cr, core.Kind(), core.Dims(), c)
			}
			for rank := range 2 * c {
				if id := r.ID(r.Proc(rank)); id != rank {
					t.Fatalf("processor of rank %d has id %d", rank, id)
				}
				if a := r.Attached(r.Proc(rank)); r.ID(a) != 1000+rank/2 {
					t.Fatalf("processor %d hangs off %d, want %d", rank, r.ID(a), 1000+rank/2)
				}
			}
			if !maps(pairs(r), pairs(g)) {
				t.Fatal("the links changed")
			}
			checkDistances(t, r)
		})
	}
}

// Hub finds the switch of a star however its nodes are numbered, and
// nothing in a graph that is not one.
func TestHubFindsTheStarsSwitch(t *testing.T) {
	build := func(f func(b *Builder)) *Graph {
		b := NewBuilder()
		f(b)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	starAt := func(hubID int) func(b *Builder) {
		return func(b *Builder) {
			b.Switch(hubID)
			for i := range 5 {
				b.Processor(10+i).Connect(10+i, hubID)
			}
			b.Connect(12, hubID) // a processor on two links
		}
	}
	full, err := Generate("full", []int{4}, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		g    *Graph
		hub  int // id, or -1
	}{
		{"star, hub first", build(starAt(3)), 3},
		{"star, hub last", build(starAt(99)), 99},
		{"a processor with no link", build(func(b *Builder) { starAt(3)(b); b.Processor(50) }), -1},
		{"two switches", build(func(b *Builder) { starAt(3)(b); b.Switch(4).Connect(4, 10) }), -1},
		{"processors linked directly", build(func(b *Builder) { starAt(3)(b); b.Connect(10, 11) }), -1},
		{"no switch", full, -1},
	}
	for _, c := range cases {
		h, ok := c.g.Hub()
		switch {
		case ok != (c.hub >= 0):
			t.Errorf("%s: Hub() ok = %v", c.name, ok)
		case ok && c.g.ID(h) != c.hub:
			t.Errorf("%s: hub id %d, want %d", c.name, c.g.ID(h), c.hub)
		}
	}
}
