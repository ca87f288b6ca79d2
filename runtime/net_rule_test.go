package runtime

import (
	"fmt"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// On generated tori and hypercubes the links, wires and candidates
// computed by rule are those the adjacency and link tables give, and the
// hop rule order takes is the first candidate.
func TestLinkRuleAgreesWithTables(t *testing.T) {
	cases := []struct {
		name string
		gen  func() (*topo.Graph, error)
		rule linkRule
	}{
		{"torus 5x7", func() (*topo.Graph, error) { return topo.NewGrid([]int{5, 7}, true) }, ruleTorus},
		{"torus 4x3x6", func() (*topo.Graph, error) { return topo.NewGrid([]int{4, 3, 6}, true) }, ruleTorus},
		{"torus 16", func() (*topo.Graph, error) { return topo.NewGrid([]int{16}, true) }, ruleTorus},
		{"hypercube 1", func() (*topo.Graph, error) { return topo.NewHypercube(1) }, ruleCube},
		{"hypercube 6", func() (*topo.Graph, error) { return topo.NewHypercube(6) }, ruleCube},
		{"torus with a side of 2", func() (*topo.Graph, error) { return topo.NewGrid([]int{2, 5}, true) }, ruleNone},
		{"mesh", func() (*topo.Graph, error) { return topo.NewGrid([]int{4, 4}, false) }, ruleNone},
		{"ring", func() (*topo.Graph, error) { return topo.Generate("ring", []int{6}, topo.GenerateOptions{}) }, ruleTorus},
		{"explicit torus, recognised", explicitTorus, ruleTorus},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := c.gen()
			if err != nil {
				t.Fatal(err)
			}
			spec := &Spec{Graph: g, DefaultLink: LinkParams{Latency: 1e-8, Bandwidth: 1e9}}
			n, err := compile(spec, "", "", 0)
			if err != nil {
				t.Fatal(err)
			}
			if n.rule != c.rule {
				t.Fatalf("rule %d, want %d", n.rule, c.rule)
			}
			if n.rule == ruleNone {
				return
			}
			for v := range int32(g.N()) {
				for _, a := range g.Adj(v) {
					k := g.Link(a.Link)
					tw := int32(2 * a.Link)
					if k.A != v {
						tw++
					}
					if w := n.wire(a.Link, v); w != tw {
						t.Errorf("wire(%d, %d) = %d, want %d", a.Link, v, w, tw)
					}
					if d := n.dim(a.Link); d != k.Dim {
						t.Errorf("dim(%d) = %d, want %d", a.Link, d, k.Dim)
					}
				}
			}
			// Candidates by rule against those found by scanning adjacency.
			ref := *n
			ref.rule = ruleNone
			var got, want []topo.Adj
			for at := range int32(g.N()) {
				for dst := range int32(g.N()) {
					got, _ = n.candidates(at, dst, -1, got, nil)
					want, _ = ref.candidates(at, dst, -1, want, nil)
					if !slices.Equal(got, want) {
						t.Fatalf("candidates(%d, %d) = %v, want %v", at, dst, got, want)
					}
					// The hop rule order takes is the first candidate, every
					// field written over whatever the hop held before.
					h := ruleHop{next: -7, link: -7, wire: -7, dim: -7, wrap: true, tie: true}
					ok := n.firstHopTo(at, dst, &h)
					if ok != (len(want) > 0) {
						t.Fatalf("firstHopTo(%d, %d) found %v, want %v", at, dst, ok, len(want) > 0)
					}
					if !ok {
						continue
					}
					a := want[0]
					d := g.Link(a.Link).Dim
					// A tie: the next candidate is the other way along the
					// same dimension, which backHop gives.
					tie := len(want) > 1 && want[1].Node != a.Node && g.Link(want[1].Link).Dim == d
					wh := ruleHop{next: a.Node, link: a.Link, wire: ref.wire(a.Link, at), dim: d, wrap: (&sim{net: &ref}).wraps(at, a.Node, d), tie: tie}
					if h != wh {
						t.Fatalf("firstHopTo(%d, %d) = %+v, want %+v", at, dst, h, wh)
					}
					if tie {
						b := want[1]
						ba, bw, bwrap := n.backHop(at, d)
						if ba != b || bw != ref.wire(b.Link, at) || bwrap != (&sim{net: &ref}).wraps(at, b.Node, d) {
							t.Fatalf("backHop(%d, %d) = %v, %d, %v, want %v, %d", at, d, ba, bw, bwrap, b, ref.wire(b.Link, at))
						}
					}
				}
			}
		})
	}
}

// explicitTorus is a 4×4 torus given link by link, in reverse order, and
// recognised.
func explicitTorus() (*topo.Graph, error) {
	b := topo.NewBuilder()
	for v := range 16 {
		b.Processor(v)
	}
	for v := 15; v >= 0; v-- {
		x, y := v%4, v/4
		b.Connect(v, y*4+(x+1)%4)
		b.Connect(v, (y+1)%4*4+x)
	}
	e, err := b.Build()
	if err != nil {
		return nil, err
	}
	r, _, ok := topo.Recognize(e)
	if !ok {
		return nil, fmt.Errorf("not recognised")
	}
	return r, nil
}
