package topo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// gen builds a generator call or fails the test.
func gen(t *testing.T, name string, args ...int) *Graph {
	t.Helper()
	g, err := Generate(name, args, GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func ipow(k, n int) int {
	r := 1
	for range n {
		r *= k
	}
	return r
}

// checkPort says that switch v's port-th adjacency entry leads to want.
func checkPort(t *testing.T, g *Graph, v int32, port int, want int32) {
	t.Helper()
	adj := g.Adj(v)
	if port >= len(adj) {
		t.Fatalf("node %d has %d ports; want port %d to lead to %d", v, len(adj), port, want)
	}
	if adj[port].Node != want {
		t.Errorf("node %d port %d leads to %d, want %d", v, port, adj[port].Node, want)
	}
}

// TestFatTreeIsBookSims builds BookSim's fattree channel by channel, as
// fattree.cpp's _BuildNet numbers its channels and assigns them to router
// outputs and inputs, and checks every router's every port against it.
func TestFatTreeIsBookSims(t *testing.T) {
	for _, kn := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {3, 2}, {4, 3}, {3, 4}} {
		k, n := kn[0], kn[1]
		t.Run(fmt.Sprint(k, n), func(t *testing.T) {
			g := gen(t, "fattree", k, n)
			nPos := ipow(k, n-1)
			S := n * nPos
			if g.N() != S+ipow(k, n) || g.NumProcs() != ipow(k, n) {
				t.Fatalf("%d nodes, %d processors; want %d switches and %d processors", g.N(), g.NumProcs(), S, ipow(k, n))
			}
			router := func(level, pos int) int32 { return int32(level*nPos + pos) }
			cpd := k * nPos // channels per direction
			cpl := 2 * cpd  // per level
			type end struct {
				r    int32
				port int
			}
			out := map[int]end{} // channel → the router output it leaves by
			in := map[int]int32{}
			for level := 0; level < n-1; level++ {
				for pos := range nPos {
					for port := range k {
						out[level*cpl+pos*k+port] = end{router(level, pos), port}
					}
				}
			}
			for level := 1; level < n; level++ {
				for pos := range nPos {
					for port := range k {
						out[level*cpl-cpd+pos*k+port] = end{router(level, pos), k + port}
					}
				}
			}
			for level := 0; level < n-1; level++ {
				rpn, rpb := ipow(k, n-1-level), ipow(k, n-1-(level+1))
				for pos := range nPos {
					nb, np := pos/rpn, pos%rpn
					for port := range k {
						in[(level+1)*cpl-cpd+nb*rpn*k+port*rpb*k+np%rpb*k+np/rpb] = router(level, pos)
					}
				}
			}
			for level := 1; level < n; level++ {
				rpn, rpb := ipow(k, n-1-(level-1)), ipow(k, n-1-level)
				for pos := range nPos {
					nb, np := pos/rpn, pos%rpn
					for port := range k {
						in[(level-1)*cpl+nb*rpn*k+port*rpb*k+np%rpb*k+np/rpb] = router(level, pos)
					}
				}
			}
			if len(out) != len(in) || len(out) != 2*(g.NumLinks()-ipow(k, n)) {
				t.Fatalf("BookSim has %d outputs and %d inputs between routers; the graph %d links besides the terminals'", len(out), len(in), g.NumLinks()-ipow(k, n))
			}
			for c, o := range out {
				checkPort(t, g, o.r, o.port, in[c])
			}
			for pos := range nPos {
				for index := range k {
					term := int32(S + pos*k + index)
					checkPort(t, g, router(n-1, pos), index, term)
					checkPort(t, g, term, 0, router(n-1, pos))
					if g.Attached(term) != router(n-1, pos) || g.NodeKind(term) != Processor || g.NodeKind(router(n-1, pos)) != Switch {
						t.Errorf("terminal %d: attached to %d", term, g.Attached(term))
					}
				}
			}
			if c := g.Core(); c.Kind != FatTree || c.Nodes != S {
				t.Errorf("core %v of %d nodes, want fattree of %d", c.Kind, c.Nodes, S)
			}
		})
	}
}

// TestXGFTIsItsDefinition builds XGFT(h; m; w) from Öhring et al.'s
// definition, nodes as digit tuples, and checks every node's adjacency:
// children in order of their digit, then parents in order of theirs.
func TestXGFTIsItsDefinition(t *testing.T) {
	for _, args := range [][]int{
		{1, 4, 1}, {1, 3, 2}, {2, 2, 3, 1, 2}, {2, 4, 4, 1, 2}, {3, 2, 2, 3, 2, 1, 3}, {3, 3, 2, 2, 2, 2, 1},
	} {
		t.Run(fmt.Sprint(args), func(t *testing.T) {
			h, m, w := args[0], args[1:1+args[0]], args[1+args[0]:]
			radix := func(level, j int) int { // digit j (0-based) at a level
				if j < level {
					return w[j]
				}
				return m[j]
			}
			count := func(level int) int {
				c := 1
				for j := range h {
					c *= radix(level, j)
				}
				return c
			}
			// Node index of a tuple at a level: levels h..1 then processors.
			index := func(level int, digits []int) int32 {
				off := 0
				for l := h; l > level && l >= 1; l-- {
					off += count(l)
				}
				if level == 0 {
					off = 0
					for l := 1; l <= h; l++ {
						off += count(l)
					}
				}
				x, place := 0, 1
				for j := range h {
					x += digits[j] * place
					place *= radix(level, j)
				}
				return int32(off + x)
			}
			var tuples func(level, j int, d []int, f func([]int))
			tuples = func(level, j int, d []int, f func([]int)) {
				if j == h {
					f(d)
					return
				}
				for x := range radix(level, j) {
					tuples(level, j+1, append(d, x), f)
				}
			}
			g := gen(t, "xgft", args...)
			nodes, links := 0, 0
			for level := 0; level <= h; level++ {
				tuples(level, 0, nil, func(d []int) {
					nodes++
					var want []int32
					if level > 0 { // children: digit level-1 runs over m
						for c := range m[level-1] {
							e := slices.Clone(d)
							e[level-1] = c
							want = append(want, index(level-1, e))
						}
					}
					if level < h { // parents: digit level runs over w
						for q := range w[level] {
							e := slices.Clone(d)
							e[level] = q
							want = append(want, index(level+1, e))
							links++
						}
					}
					v := index(level, d)
					var got []int32
					for _, a := range g.Adj(v) {
						got = append(got, a.Node)
					}
					if !slices.Equal(got, want) {
						t.Errorf("level %d node %v (index %d): adjacency %v, want %v", level, d, v, got, want)
					}
					if k := g.NodeKind(v); (k == Processor) != (level == 0) {
						t.Errorf("level %d node %d is a %v", level, v, k)
					}
				})
			}
			if g.N() != nodes || g.NumLinks() != links {
				t.Errorf("%d nodes and %d links, want %d and %d", g.N(), g.NumLinks(), nodes, links)
			}
		})
	}
	// fattree(k, n) is xgft(n, k..k, 1, k..k), node for node.
	a, b := gen(t, "fattree", 3, 3), gen(t, "xgft", 3, 3, 3, 3, 1, 3, 3)
	for v := range int32(a.N()) {
		if !slices.Equal(a.Adj(v), b.Adj(v)) {
			t.Fatalf("fattree(3, 3) and its xgft differ at node %d", v)
		}
	}
}

// bookSimDragonfly is BookSim's dragonflynew (dragonfly.cpp, _BuildNet) for
// its parameter k = p: each router's output channels by number, and the
// router each channel is an input of.
func bookSimDragonfly(p int) (out map[int][2]int, in map[int]int) {
	a, g := 2*p, 2*p*p+1
	P := 3*p - 1 // ports a router has besides its terminals'
	out, in = map[int][2]int{}, map[int]int{}
	for node := range a * g {
		grp, r := node/a, node%a
		for cnt := range 2*p - 1 {
			out[P*node+cnt] = [2]int{node, p + cnt}
		}
		for cnt := range p {
			out[P*node+2*p-1+cnt] = [2]int{node, p + 2*p - 1 + cnt}
		}
		for cnt := range 2*p - 1 {
			var input int
			if cnt < r {
				input = grp*P*a - (r-cnt)*P + r*P + (r - 1)
			} else {
				input = grp*P*a + r*P + (cnt-r+1)*P + r
			}
			in[input] = node
		}
		for cnt := range p {
			gout := r*p + cnt
			var input int
			if grp > gout {
				input = gout*P*a + (P-p)*((grp-1)/p) + (P - p) + grp - 1
			} else {
				input = (gout+1)*P*a + (P-p)*(grp/p) + (P - p) + grp
			}
			in[input] = node
		}
	}
	return out, in
}

// TestDragonflyAbsoluteIsBookSims: dragonfly(k, 2k, k, 2k²+1, absolute)
// is BookSim's dragonflynew with parameter k, port for port.
func TestDragonflyAbsoluteIsBookSims(t *testing.T) {
	for _, p := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			a, groups := 2*p, 2*p*p+1
			g := gen(t, "dragonfly", p, a, p, groups)
			R := a * groups
			out, in := bookSimDragonfly(p)
			if len(out) != len(in) || g.NumLinks() != R*p+len(out)/2 || g.N() != R*(p+1) {
				t.Fatalf("BookSim has %d outputs, %d inputs; the graph %d nodes and %d links", len(out), len(in), g.N(), g.NumLinks())
			}
			for c, o := range out {
				checkPort(t, g, int32(o[0]), o[1], int32(in[c]))
			}
			for node := range R {
				for cnt := range p {
					checkPort(t, g, int32(node), cnt, int32(R+p*node+cnt))
				}
			}
			for l := range int32(g.NumLinks()) {
				k := g.Link(l)
				want := int32(2) // global: between groups
				switch {
				case int(k.B) >= R:
					want = 0
				case int(k.A)/a == int(k.B)/a:
					want = 1
				}
				if k.Dim != want {
					t.Errorf("link %d -- %d has Dim %d, want %d", k.A, k.B, k.Dim, want)
				}
			}
		})
	}
}

// TestDragonflyArrangementsAreTheirDefinitions checks every global port of
// every arrangement against the group its definition names, including
// dragonflies with fewer groups than a·h+1 (several links a pair, spare
// ports unlinked).
func TestDragonflyArrangementsAreTheirDefinitions(t *testing.T) {
	dest := map[int]func(G, t, g int) int{
		Absolute: func(G, t, _ int) int {
			if t < G {
				return t
			}
			return t + 1
		},
		Relative: func(G, t, g int) int { return (G + t + 1) % g },
		Circulant: func(G, t, g int) int { // +1, -1, +2, -2, …
			d := t/2 + 1
			if t%2 == 1 {
				d = -d
			}
			return ((G+d)%g + g) % g
		},
	}
	for _, c := range [][4]int{{2, 4, 2, 9}, {1, 4, 2, 9}, {2, 4, 2, 5}, {2, 3, 2, 4}, {1, 3, 3, 10}, {2, 4, 3, 6}, {1, 2, 1, 2}, {3, 2, 0, 1}} {
		for arr := range 3 {
			p, a, h, groups := c[0], c[1], c[2], c[3]
			t.Run(fmt.Sprint(c, arr), func(t *testing.T) {
				g := gen(t, "dragonfly", p, a, h, groups, arr)
				used := 0
				if groups > 1 {
					used = a * h / (groups - 1) * (groups - 1)
				}
				between := map[[2]int]int{}
				for G := range groups {
					for j := range a * h {
						v := int32(G*a + j/h)
						port := p + a - 1 + j%h
						if j >= used {
							if g.Degree(v) > port {
								t.Errorf("group %d's spare port %d is linked", G, j)
							}
							continue
						}
						want := dest[arr](G, j%(groups-1), groups)
						got := int(g.Adj(v)[port].Node) / a
						if got != want {
							t.Errorf("group %d port %d leads to group %d, want %d", G, j, got, want)
						}
						between[[2]int{G, want}]++
					}
				}
				for pair, n := range between {
					if n != used/(groups-1) || between[[2]int{pair[1], pair[0]}] != n {
						t.Errorf("groups %v: %d links one way, %d back, want %d", pair, n, between[[2]int{pair[1], pair[0]}], used/(groups-1))
					}
				}
				if want := a*groups*p + groups*a*(a-1)/2 + groups*used/2; g.NumLinks() != want {
					t.Errorf("%d links, want %d", g.NumLinks(), want)
				}
			})
		}
	}
}

// TestFlatFlyIsBookSims builds BookSim's flatfly (flatfly_onchip.cpp,
// _BuildNet: routers and their outputs, dimensions up to 4, terminals laid
// out x routers a row) and checks every router's every port against it.
func TestFlatFlyIsBookSims(t *testing.T) {
	for _, c := range [][3]int{{4, 2, 4}, {2, 2, 1}, {3, 2, 9}, {2, 4, 4}, {4, 2, 1}, {2, 3, 1}, {3, 3, 2}} {
		k, n, conc := c[0], c[1], c[2]
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			g := gen(t, "flatfly", k, n, conc)
			R := ipow(k, n)
			if g.N() != R*(1+conc) {
				t.Fatalf("%d nodes, want %d", g.N(), R*(1+conc))
			}
			for node := range R {
				for dim := range n {
					xcurr, ycurr := node%k, node/k
					curr3, curr4, curr5, curr6 := node%(k*k), node/(k*k), node/(k*k*k), node%(k*k*k)
					for cnt := range k {
						var other int
						switch dim {
						case 0:
							other = ycurr*k + cnt
						case 1:
							other = cnt*k + xcurr
							if n == 3 {
								other += curr4 * k * k
							}
							if n == 4 {
								other += curr4%k*k*k + curr5*k*k*k
							}
						case 2:
							other = cnt*k*k + curr3
							if n == 4 {
								other += curr5 * k * k * k
							}
						case 3:
							other = cnt*k*k*k + curr6
						}
						if other == node {
							continue
						}
						offset := 0
						if node < other {
							offset = -1
						}
						checkPort(t, g, int32(node), conc+(k-1)*dim+cnt+offset, int32(other))
					}
				}
			}
			// Terminals: BookSim's layout when the routers and the
			// concentration are squares (x = y, xr = yr), else router by router.
			x, xr := 0, 0
			for i := 1; i*i <= R; i++ {
				if i*i == R {
					x = i
				}
			}
			for i := 1; i*i <= conc; i++ {
				if i*i == conc {
					xr = i
				}
			}
			for node := range R {
				port := 0
				for y := range max(xr, 1) {
					for xx := range max(xr, 1) {
						if x == 0 || xr == 0 {
							continue
						}
						link := (x*xr)*(xr*(node/x)+y) + (xr*(node%x) + xx)
						checkPort(t, g, int32(node), port, int32(R+link))
						port++
					}
				}
				if x == 0 || xr == 0 {
					for i := range conc {
						checkPort(t, g, int32(node), i, int32(R+node*conc+i))
					}
				}
			}
		})
	}
}

// TestHyperXIsItsDefinition: routers on a grid, each linked to every
// router differing in one coordinate, in order of dimension and then of
// the coordinate; c processors a router, router by router.
func TestHyperXIsItsDefinition(t *testing.T) {
	for _, args := range [][]int{{1, 3}, {2, 3, 2}, {2, 4, 1, 3}, {3, 2, 3, 2}} {
		t.Run(fmt.Sprint(args), func(t *testing.T) {
			g := gen(t, "hyperx", args...)
			c, sides := args[0], args[1:]
			R := 1
			for _, s := range sides {
				R *= s
			}
			coords := func(v int) []int {
				var x []int
				for _, s := range sides {
					x = append(x, v%s)
					v /= s
				}
				return x
			}
			links := R * c
			for v := range R {
				var want []int32
				for i := range c {
					want = append(want, int32(R+v*c+i))
				}
				cv := coords(v)
				for d := range sides {
					for u := range R {
						cu := coords(u)
						diff := 0
						for e := range sides {
							if cu[e] != cv[e] {
								diff++
							}
						}
						if diff == 1 && cu[d] != cv[d] {
							want = append(want, int32(u))
							links++ // counted from both ends
						}
					}
				}
				var got []int32
				for _, a := range g.Adj(int32(v)) {
					got = append(got, a.Node)
				}
				if !slices.Equal(got, want) {
					t.Errorf("router %d: adjacency %v, want %v", v, got, want)
				}
			}
			if want := R*c + (links-R*c)/2; g.NumLinks() != want {
				t.Errorf("%d links, want %d", g.NumLinks(), want)
			}
		})
	}
}

// TestSwitchedMetrics: the closed forms (and the dragonfly's search over
// routers) agree with a search from every processor, and the fat tree's
// bisection with the exhaustive search.
func TestSwitchedMetrics(t *testing.T) {
	tests := []struct {
		name string
		args []int
		diam int // processor to processor, in links
	}{
		{"fattree", []int{2, 3}, 6},
		{"fattree", []int{4, 2}, 4},
		{"fattree", []int{3, 3}, 6},
		{"fattree", []int{4, 1}, 2},
		{"xgft", []int{2, 3, 2, 1, 2}, 4},
		{"xgft", []int{3, 2, 1, 3, 1, 2, 2}, 6},
		{"xgft", []int{2, 1, 4, 2, 2}, 4},
		{"dragonfly", []int{2, 4, 2, 9}, 5},
		{"dragonfly", []int{1, 2, 1, 3}, 5},
		{"dragonfly", []int{2, 4, 2, 5, Relative}, 5},
		{"dragonfly", []int{1, 4, 1, 5, Circulant}, 5},
		{"dragonfly", []int{3, 1, 0, 1}, 2},
		{"dragonfly", []int{4, 8, 4, 33}, 5},
		{"dragonfly", []int{2, 6, 3, 10, Circulant}, 5},
		{"dragonfly", []int{1, 6, 3, 7, Relative}, 5}, // a router reaches 3 of the 6 other groups
		{"flatfly", []int{4, 2, 4}, 4},
		{"flatfly", []int{3, 3}, 5},
		{"hyperx", []int{2, 3, 1, 2}, 4},
		{"hyperx", []int{3, 1}, 2},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.name, tc.args), func(t *testing.T) {
			g := gen(t, tc.name, tc.args...)
			m := g.Metrics(context.Background(), MetricsOptions{})
			d, mu := bruteMetrics(g)
			if m.Err != nil || m.Diameter != tc.diam || d != tc.diam {
				t.Errorf("diameter %d (search %d), want %d (%v)", m.Diameter, d, tc.diam, m.Err)
			}
			if diff := m.AvgDistance - mu; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("average distance %v, search %v", m.AvgDistance, mu)
			}
			if tc.name == "fattree" && g.N() <= 30 {
				w, ok := g.exhaustiveBisection(g.NumProcs(), 1e9)
				if !ok || w != m.Bisection || !m.BisectionExact {
					t.Errorf("bisection %d (exact %v), exhaustive %d (%v)", m.Bisection, m.BisectionExact, w, ok)
				}
			}
		})
	}
}

func TestSwitchedGeneratorErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []int
		want string
	}{
		{"dragonfly", []int{2, 4, 2, 10}, "dragonfly(2, 4, 2, 10): g = 10 groups is more than a·h + 1 = 9"},
		{"dragonfly", []int{2, 4, 2, 9, 3}, "absolute, relative or circulant"},
		{"dragonfly", []int{0, 4, 2, 9}, "p (processors a router) must be at least 1"},
		{"xgft", []int{2, 4, 4, 1}, "a height of 2 needs 2 radices m1..m2 and 2 w1..w2, 5 arguments in all; got 4"},
		{"xgft", []int{1, 0, 1}, "m1 = 0 must be at least 1"},
		{"fattree", []int{0, 3}, "k and n must be at least 1"},
		{"fattree", []int{64, 12}, "beyond any graph"},
		{"flatfly", []int{4, 0}, "every argument must be at least 1"},
		{"hyperx", []int{0, 4}, "every argument must be at least 1"},
	} {
		_, err := Generate(c.name, c.args, GenerateOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s%v: %v, want %q", c.name, c.args, err, c.want)
		}
	}
	if _, err := Generate("dragonfly", []int{2, 4, 2, 9, Circulant}, GenerateOptions{}); err != nil {
		t.Error(err)
	}
	if s, _ := Plan("dragonfly", []int{2, 4, 2, 9, Relative}); s.Call != "dragonfly(2, 4, 2, 9, relative)" {
		t.Errorf("call written %q", s.Call)
	}
}
