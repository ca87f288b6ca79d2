package acyclic

import (
	"errors"
	"slices"
	"testing"
)

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		links []Link
		opt   Options
		want  error
	}{
		{"no processors", 0, nil, Options{}, ErrInput},
		{"endpoint", 3, []Link{{0, 1}, {1, 3}}, Options{}, ErrInput},
		{"negative endpoint", 3, []Link{{-1, 1}}, Options{}, ErrInput},
		{"self-loop", 3, []Link{{0, 1}, {2, 2}, {1, 2}}, Options{}, ErrSelfLoop},
		{"disconnected", 4, []Link{{0, 1}, {2, 3}}, Options{}, ErrDisconnected},
		{"isolated", 2, nil, Options{}, ErrDisconnected},
		{"variant", 2, []Link{{0, 1}}, Options{Variant: 7}, ErrInput},
		{"components", 2, []Link{{0, 1}}, Options{Components: -1}, ErrInput},
		{"too large", 256, torus(16), Options{MaxTableBytes: 1000}, ErrTooLarge},
	} {
		nw, err := Build(tc.n, tc.links, tc.opt)
		if !errors.Is(err, tc.want) || nw != nil {
			t.Errorf("%s: got %v, %v; want %v", tc.name, nw, err, tc.want)
		}
	}
}

// TestColouring checks the trivial colouring: colour 0 is a spanning tree,
// every colour is a forest, and a tree graph is all colour 0.
func TestColouring(t *testing.T) {
	for _, g := range testGraphs() {
		nw, err := Build(g.n, g.links, Options{})
		if err != nil {
			t.Fatal(g.name, err)
		}
		byColour := map[int][]Link{}
		for i, l := range g.links {
			c := nw.Colour(i)
			if c < 0 || c >= nw.Colours() {
				t.Fatalf("%s: link %d has colour %d of %d", g.name, i, c, nw.Colours())
			}
			byColour[c] = append(byColour[c], l)
		}
		for c, ls := range byColour {
			// Union-find: a forest never joins two processors already joined.
			parent := make([]int, g.n)
			for i := range parent {
				parent[i] = i
			}
			var find func(int) int
			find = func(x int) int {
				if parent[x] != x {
					parent[x] = find(parent[x])
				}
				return parent[x]
			}
			for _, l := range ls {
				a, b := find(l.A), find(l.B)
				if a == b {
					t.Fatalf("%s: colour %d has a cycle through %v", g.name, c, l)
				}
				parent[a] = b
			}
			if c == 0 && len(ls) != g.n-1 {
				t.Errorf("%s: colour 0 has %d links, want a spanning tree of %d", g.name, len(ls), g.n-1)
			}
		}
		if g.name == "tree" && nw.Colours() != 1 {
			t.Errorf("tree: %d colours", nw.Colours())
		}
	}
	if nw, _ := Build(2, []Link{{0, 1}}, Options{}); nw.Colour(1) != -1 || nw.Colour(-1) != -1 {
		t.Error("Colour out of range should be -1")
	}
}

// TestConnects checks rule C1 as §3.4.2 states it, and that the final
// classes contain no UGLY connect.
func TestConnects(t *testing.T) {
	for _, g := range testGraphs() {
		for _, v := range []Variant{Plain, Improved} {
			nw, err := Build(g.n, g.links, Options{Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			ugly, improved := nw.Counts()
			seenUgly := 0
			for in := 0; in < nw.NumChannels(); in++ {
				i, j, _ := nw.Ends(in)
				for _, out := range nw.Ports(nil, j) {
					_, k, _ := nw.Ends(int(out))
					c1, final := nw.Connect(in, int(out))
					li, lo := nw.Colour(in/2), nw.Colour(int(out)/2)
					want := Ugly
					switch {
					case k == i:
						want = Bad
					case li >= lo:
						want = Good
					}
					if c1 != want {
						t.Fatalf("%s %v: connect %d→%d is %v, want %v", g.name, v, in, out, c1, want)
					}
					if c1 == Ugly {
						seenUgly++
					}
					if final == Ugly || (c1 != Ugly && final != c1) || (v == Plain && c1 == Ugly && final != Bad) {
						t.Fatalf("%s %v: connect %d→%d C1 %v final %v", g.name, v, in, out, c1, final)
					}
				}
			}
			if seenUgly != ugly || (v == Plain && improved != 0) || improved > ugly {
				t.Errorf("%s %v: counts %d, %d; saw %d UGLY", g.name, v, ugly, improved, seenUgly)
			}
		}
	}
	nw, _ := Build(3, ring(3), Options{})
	if c1, f := nw.Connect(0, 0); c1 != Bad || f != Bad {
		t.Error("channels that do not meet must be Bad")
	}
	if c1, f := nw.Connect(-1, 99); c1 != Bad || f != Bad {
		t.Error("out of range must be Bad")
	}
}

// TestAcyclicAndConnected is the headline property: every network Build
// makes has an acyclic channel dependency graph, routes every pair, and never
// strands a packet; the improved variant never lengthens a route.
func TestAcyclicAndConnected(t *testing.T) {
	for _, g := range testGraphs() {
		var plainHops int
		for _, opt := range allOptions {
			nw, err := Build(g.n, g.links, opt)
			if err != nil {
				t.Fatal(g.name, err)
			}
			rep, err := Check(nw.Routing())
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Acyclic || !rep.Connected || rep.DeadEnds != 0 || rep.PairsWithoutRoute != 0 {
				t.Errorf("%s %+v: %+v", g.name, opt, rep)
			}
			hops := 0
			for s := 0; s < g.n; s++ {
				for d := 0; d < g.n; d++ {
					r, err := nw.Route(nil, s, d)
					if err != nil {
						t.Fatal(err)
					}
					hops += len(r)
				}
			}
			if opt == (Options{Variant: Plain}) {
				plainHops = hops
			}
			if opt == (Options{Variant: Improved}) && hops > plainHops {
				t.Errorf("%s: improvement lengthened routes: %d > %d hops", g.name, hops, plainHops)
			}
		}
	}
}

// TestShortestRingIsCyclic: shortest-path routing on a ring of 8 can
// deadlock; the check finds a real cycle of dependencies.
func TestShortestRingIsCyclic(t *testing.T) {
	sp := newShortest(8, ring(8))
	for _, sourceFree := range []bool{true, false} {
		r := sp.routing()
		r.SourceFree = sourceFree
		rep, err := Check(r)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Acyclic || !rep.Connected || len(rep.Cycle) < 3 {
			t.Fatalf("%+v", rep)
		}
		for i, c := range rep.Cycle {
			next := rep.Cycle[(i+1)%len(rep.Cycle)]
			if sp.head[c] != sp.tail[next] || sp.tail[c] == sp.head[next] {
				t.Fatalf("cycle %v: %d→%d is no dependency", rep.Cycle, c, next)
			}
		}
	}
	// The acyclic routing on the same ring is deadlock-free.
	nw, _ := Build(8, ring(8), Options{})
	if rep, _ := Check(nw.Routing()); !rep.Acyclic || !rep.Connected {
		t.Fatalf("%+v", rep)
	}
}

func TestCheckSourceDependent(t *testing.T) {
	// Same answer with and without the SourceFree shortcut.
	nw, _ := Build(16, hamiltonian(16, newRand(9)), Options{Variant: Improved})
	a, _ := Check(nw.Routing())
	r := nw.Routing()
	r.SourceFree = false
	b, err := Check(r)
	if err != nil || !slices.Equal(a.Cycle, b.Cycle) || a.Acyclic != b.Acyclic || a.Dependencies != b.Dependencies || b.PairsWithoutRoute != 0 {
		t.Fatalf("%v\n%+v\n%+v", err, a, b)
	}
	// A routing that refuses every packet from 0 to 3 leaves that pair
	// without a route, and packets from 0 stranded.
	r.Next = func(buf []int, src, dst, at, in int) []int {
		if src == 0 && dst == 3 && at != 0 {
			return buf
		}
		return nw.Next(buf, at, dst, in)
	}
	c, err := Check(r)
	if err != nil || c.Connected || c.PairsWithoutRoute != 1 || c.DeadEnds == 0 {
		t.Fatalf("%v %+v", err, c)
	}
	// Restricted to endpoints that avoid that pair, all is well again.
	r.Endpoints = []int{0, 1, 2, 4, 5}
	if c, err := Check(r); err != nil || !c.Connected || !c.Acyclic {
		t.Fatalf("%v %+v", err, c)
	}
	r.Endpoints = []int{0, 16}
	if _, err := Check(r); !errors.Is(err, ErrRouting) {
		t.Fatal(err)
	}
}

// TestCheckWeightsAndSteps: with Weights a pair without a route counts
// the product of its endpoints' weights (0 → 3 refused, weights 2 and 5:
// 10 pairs, with SourceFree and without); with MaxSteps the check stops
// past that many states explored and says how far it got.
func TestCheckWeightsAndSteps(t *testing.T) {
	nw, _ := Build(16, hamiltonian(16, newRand(9)), Options{Variant: Improved})
	for _, sourceFree := range []bool{true, false} {
		r := nw.Routing()
		r.SourceFree = sourceFree
		r.Next = func(buf []int, _, dst, at, in int) []int {
			if in == Local && at == 0 && dst == 3 {
				return buf
			}
			return nw.Next(buf, at, dst, in)
		}
		r.Endpoints = []int{0, 1, 2, 3}
		r.Weights = []int{2, 1, 1, 5}
		c, err := Check(r)
		if err != nil || c.PairsWithoutRoute != 10 {
			t.Errorf("source free %v: %v, %d pairs without a route; want 10", sourceFree, err, c.PairsWithoutRoute)
		}
	}
	r := nw.Routing()
	r.Weights = []int{1}
	if _, err := Check(r); !errors.Is(err, ErrRouting) {
		t.Errorf("one weight for 16 endpoints: %v", err)
	}
	r = nw.Routing()
	r.MaxSteps = 20
	_, err := Check(r)
	var se *StepsError
	if !errors.As(err, &se) || se.Steps <= 20 || se.Done < 1 || se.Total != 16 {
		t.Errorf("MaxSteps 20: %v; want a StepsError past 20 states toward 16 destinations", err)
	}
	r.MaxSteps = 1e9
	if rep, err := Check(r); err != nil || !rep.Acyclic {
		t.Errorf("MaxSteps 1e9: %v %+v", err, rep)
	}
}

func TestCheckErrors(t *testing.T) {
	sp := newShortest(4, ring(4))
	good := sp.routing()
	for name, mutate := range map[string]func(r *Routing){
		"no nodes": func(r *Routing) { r.Nodes = 0 },
		"no next":  func(r *Routing) { r.Next = nil },
		"bad ends": func(r *Routing) { r.Ends = func(int) (int, int) { return 0, 9 } },
		"foreign channel": func(r *Routing) {
			r.Next = func(buf []int, _, _, at, _ int) []int { return append(buf, (2*at+3)%8) }
		},
		"channel out of range": func(r *Routing) {
			r.Next = func(buf []int, _, _, _, _ int) []int { return append(buf, 99) }
		},
	} {
		r := good
		mutate(&r)
		if _, err := Check(r); !errors.Is(err, ErrRouting) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestBroadcastTree: every processor receives a broadcast exactly once, on a
// channel the connect matrix allows after its parent's own channel.
func TestBroadcastTree(t *testing.T) {
	for _, g := range testGraphs() {
		for _, opt := range allOptions[:4] {
			nw, _ := Build(g.n, g.links, opt)
			for s := 0; s < g.n; s++ {
				parent, err := nw.BroadcastTree(s)
				if err != nil {
					t.Fatal(err)
				}
				for v, c := range parent {
					if (v == s) != (c < 0) {
						t.Fatalf("%s: source %d, processor %d parent %d", g.name, s, v, c)
					}
					if c < 0 {
						continue
					}
					from, to, _ := nw.Ends(int(c))
					if to != v {
						t.Fatalf("%s: parent channel %d of %d enters %d", g.name, c, v, to)
					}
					if pc := parent[from]; pc >= 0 {
						if _, f := nw.Connect(int(pc), int(c)); f != Good {
							t.Fatalf("%s: broadcast from %d uses forbidden connect %d→%d", g.name, s, pc, c)
						}
					}
				}
			}
		}
	}
	nw, _ := Build(2, []Link{{0, 1}}, Options{})
	if _, err := nw.BroadcastTree(2); !errors.Is(err, ErrInput) {
		t.Error(err)
	}
}

// TestNext checks table semantics: arrivals no packet can take give nothing,
// every offered channel is one step closer, and bad arguments are harmless.
func TestNext(t *testing.T) {
	nw, _ := Build(64, torus(8), Options{Variant: Improved})
	for d := 0; d < 64; d++ {
		for s := 0; s < 64; s++ {
			r, _ := nw.Route(nil, s, d)
			// Every offered channel, then any offered continuation, is minimal.
			for _, c := range nw.Next(nil, s, d, Local) {
				_, v, _ := nw.Ends(c)
				in, hops := c, 1
				for v != d {
					next := nw.Next(nil, v, d, in)
					in = next[len(next)-1]
					_, v, _ = nw.Ends(in)
					hops++
				}
				if hops != len(r) {
					t.Fatalf("%d→%d via %d: %d hops, minimal %d", s, d, c, hops, len(r))
				}
			}
		}
	}
	for _, args := range [][3]int{{-1, 0, Local}, {0, 64, Local}, {0, 1, 9999}, {0, 1, 0}, {5, 5, Local}} {
		if got := nw.Next(nil, args[0], args[1], args[2]); len(got) != 0 {
			t.Errorf("Next%v = %v", args, got)
		}
	}
	if _, err := nw.Route(nil, 0, 64); !errors.Is(err, ErrInput) {
		t.Error(err)
	}
}

// TestDeterministic: the same input gives the same tables, whatever the
// scheduling of the parallel table build.
func TestDeterministic(t *testing.T) {
	links := hamiltonian(128, newRand(3))
	a, _ := Build(128, links, Options{Variant: Improved})
	b, _ := Build(128, links, Options{Variant: Improved})
	if !slices.Equal(a.table, b.table) || !slices.Equal(a.label, b.label) || !slices.Equal(a.cls, b.cls) {
		t.Fatal("two builds differ")
	}
}

func TestParseVariant(t *testing.T) {
	for _, v := range []Variant{Plain, Improved} {
		if got, err := ParseVariant(v.String()); err != nil || got != v {
			t.Errorf("%v: %v %v", v, got, err)
		}
	}
	if _, err := ParseVariant("shortest"); !errors.Is(err, ErrInput) {
		t.Error(err)
	}
	if Variant(9).String() != "Variant(9)" || Class(9).String() != "Class(9)" || Ugly.String() != "UGLY" {
		t.Error("String")
	}
}

// TestHighDegree covers processors with more than 64 channels (list-based
// dependencies in Check, multi-word table rows).
func TestHighDegree(t *testing.T) {
	var links []Link
	for v := 1; v <= 70; v++ {
		links = append(links, Link{0, v})
	}
	links = append(links, Link{1, 2}, Link{2, 3}, Link{3, 4}, Link{4, 5}, Link{5, 1})
	sp := newShortest(71, links)
	rep, err := Check(sp.routing())
	if err != nil || rep.Acyclic || !rep.Connected || len(rep.Cycle) != 5 {
		t.Fatalf("shortest on a star with a 5-ring: %v %+v", err, rep)
	}
	for _, opt := range allOptions {
		nw, err := Build(71, links, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Check(nw.Routing())
		if err != nil || !rep.Acyclic || !rep.Connected || rep.DeadEnds != 0 {
			t.Fatalf("%+v: %v %+v", opt, err, rep)
		}
	}
}
