package runtime

import (
	"context"
	"reflect"
	"testing"
)

// Dimension order on a torus with an even side splits the ties half way
// round (issue 27): on an 8-ring, 400 messages from 0 to 4 take the + way
// and the − way about equally (each packet at random, as BookSim's
// dim_order_torus; the count is binomial(400, ½), so 200 ± 60 is over six
// standard deviations), and the split is the same for the same seed. Both
// the rule-numbered ring and one whose processors hang off routers (routed
// by candidates) are checked.
func TestTorusTiesSplit(t *testing.T) {
	ring := basic(mustGen(t, "torus", 8), 1e-9, 1e9)
	nic, err := WithNIC(ring, 1e-9, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	for name, spec := range map[string]*Spec{"ring": ring, "routers": nic} {
		plus := func(seed uint64) int32 {
			n, err := compile(spec, "", "", 0)
			if err != nil {
				t.Fatal(err)
			}
			g := n.g
			src, dst := g.Proc(0), g.Proc(4)
			tr := &traffic{op: "custom", channels: 1, links: 1}
			s := newSim(n, &Options{})
			s.reset(seed)
			for range 400 {
				s.addMsg(tr, src, dst, 8)
			}
			s.linkDeps()
			s.run(context.Background())
			if s.nDone != 400 {
				t.Fatalf("%s: %d of 400 delivered", name, s.nDone)
			}
			// The first router: the ring's node 0, or processor 0's router.
			r := src
			if n.attached {
				r = g.Adj(src)[0].Node
			}
			up, down := g.Adj(r)[0], g.Adj(r)[0]
			for _, a := range g.Adj(r) {
				if a.Node == g.Proc(0) {
					continue
				}
				if g.ID(a.Node)%8 == (g.ID(r)+1)%8 {
					up = a
				} else {
					down = a
				}
			}
			p, m := s.wire(n.wire(up.Link, r)).load, s.wire(n.wire(down.Link, r)).load
			if p+m != 400 {
				t.Fatalf("%s: %d + %d messages left the first router, want 400", name, p, m)
			}
			return p
		}
		p := plus(1)
		if p < 140 || p > 260 {
			t.Errorf("%s: %d of 400 went the + way, want 200 ± 60", name, p)
		}
		if q := plus(1); q != p {
			t.Errorf("%s: seed 1 gave %d then %d the + way", name, p, q)
		}
	}
}

// Routes lists both ways of a half-way tie (issue 27): on an 8-ring 0 → 4
// goes 0 1 2 3 4 or 0 7 6 5 4, the + way first (Route's); on an 8 × 8
// torus 0 → (4, 4) = 36 has a tie in each dimension, 2² paths; 0 → 3 and
// a 7-ring's 0 → 3 have none; max bounds the paths listed, not the count.
func TestRoutesListBothWaysOfATie(t *testing.T) {
	ring := basic(mustGen(t, "torus", 8), 1e-9, 1e9)
	paths, n, err := Routes(ring, 0, 4, RouteOptions{}, 16)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 1, 2, 3, 4}, {0, 7, 6, 5, 4}}; n != 2 || !reflect.DeepEqual(paths, want) {
		t.Errorf("8-ring 0 → 4: %v (%d), want %v (2)", paths, n, want)
	}
	if p, err := Route(ring, 0, 4, RouteOptions{}); err != nil || !reflect.DeepEqual(p, []int{0, 1, 2, 3, 4}) {
		t.Errorf("Route 0 → 4 = %v, %v; want the + way", p, err)
	}
	if paths, n, _ := Routes(ring, 0, 4, RouteOptions{}, 1); n != 2 || len(paths) != 1 {
		t.Errorf("max 1: %d paths listed of %d, want 1 of 2", len(paths), n)
	}
	if paths, n, _ := Routes(ring, 0, 3, RouteOptions{}, 16); n != 1 || len(paths) != 1 || len(paths[0]) != 4 {
		t.Errorf("8-ring 0 → 3: %v (%d), want one path of 3 hops", paths, n)
	}
	odd := basic(mustGen(t, "torus", 7), 1e-9, 1e9)
	if paths, n, _ := Routes(odd, 0, 3, RouteOptions{}, 16); n != 1 || len(paths) != 1 {
		t.Errorf("7-ring 0 → 3: %v (%d), want one path", paths, n)
	}
	torus := basic(mustGen(t, "torus", 8, 8), 1e-9, 1e9)
	paths, n, err = Routes(torus, 0, 36, RouteOptions{}, 16)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || len(paths) != 4 {
		t.Fatalf("8×8 torus 0 → 36: %d paths (%d listed), want 4", n, len(paths))
	}
	seen := map[[2]int]bool{}
	for _, p := range paths {
		if len(p) != 9 || p[4] != 4 {
			t.Errorf("path %v: want 8 hops through node 4 (x first)", p)
		}
		seen[[2]int{p[1], p[5]}] = true
	}
	if len(seen) != 4 {
		t.Errorf("paths %v: want each way in each dimension", paths)
	}
}
