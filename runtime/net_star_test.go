package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// star is P processors (ids 0..P-1) each on one link to switch P, as
// std:loggp writes its crossbar; spare adds a switch with no links, which
// makes the graph no star (so routed by tables) without changing a path.
func star(tb testing.TB, P int, spare bool) *topo.Graph {
	tb.Helper()
	b := topo.NewBuilder()
	for i := range P {
		b.Processor(i)
	}
	b.Switch(P)
	if spare {
		b.Switch(P + 1)
	}
	for i := range P {
		b.Connect(i, P)
	}
	g, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// A crossbar of 20,000 processors, whose tables (processors × nodes) are
// past tableLimit, is routed by rule: every processor reaches every other
// in two links, through the hub, on its own link and the destination's.
func TestStarOfTwentyThousandRoutesByRule(t *testing.T) {
	const P = 20000
	if int64(P)*(P+1) <= tableLimit {
		t.Fatalf("%d processors fit in routing tables; the test needs more", P)
	}
	g := star(t, P, false)
	n, err := compile(basic(g, 1e-8, 1e9), "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !n.star || n.dist != nil {
		t.Fatalf("star %v, tables %v: want routing by rule", n.star, n.dist != nil)
	}
	hub := int32(P)
	hops := func(src, dst int32) int {
		var buf []topo.Adj
		at, h := src, 0
		for at != dst && h <= 3 {
			buf, _ = n.candidates(at, dst, -1, buf, nil)
			if len(buf) != 1 {
				t.Fatalf("%d → %d at %d: candidates %v, want one", src, dst, at, buf)
			}
			// The link taken is the one joining the source or the
			// destination to the hub.
			if l := g.Link(buf[0].Link); l.A != hub && l.B != hub || l.A != src && l.B != src && l.A != dst && l.B != dst {
				t.Fatalf("%d → %d at %d: link %v", src, dst, at, l)
			}
			at, h = buf[0].Node, h+1
		}
		return h
	}
	for _, pair := range [][2]int32{{0, 1}, {1, 0}, {0, P - 1}, {P - 1, 0}, {12345, 777}, {P / 2, P/2 + 1}} {
		if h := hops(pair[0], pair[1]); h != 2 {
			t.Errorf("%d → %d: %d hops, want 2", pair[0], pair[1], h)
		}
	}
	for src := int32(0); src < P; src += 97 {
		if h := hops(src, (src*7919+1)%P); src != (src*7919+1)%P && h != 2 {
			t.Errorf("%d → %d: %d hops, want 2", src, (src*7919+1)%P, h)
		}
	}
}

// On a star the candidates by rule are those the tables give, for every
// pair and every routing that reads them, and the routing check passes.
func TestStarRuleAgreesWithTables(t *testing.T) {
	g := star(t, 12, false)
	ref := star(t, 12, true)
	for _, routing := range []string{"shortest", "least-used", "random"} {
		n, err := compile(basic(g, 1e-8, 1e9), routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := compile(basic(ref, 1e-8, 1e9), routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if !n.star || r.star || r.dist == nil {
			t.Fatalf("%s: star %v, reference star %v", routing, n.star, r.star)
		}
		var got, want []topo.Adj
		for at := range int32(g.N()) {
			for dst := range int32(g.NumProcs()) {
				if at == dst {
					continue
				}
				got, _ = n.candidates(at, dst, -1, got, nil)
				want, _ = r.candidates(at, dst, -1, want, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: candidates(%d, %d) = %v, want %v", routing, at, dst, got, want)
				}
			}
		}
		rc, err := CheckRouting(context.Background(), basic(g, 1e-8, 1e9), CheckOptions{Routing: routing})
		if err != nil {
			t.Fatal(err)
		}
		if !rc.Acyclic || !rc.Connected || rc.PairsWithoutRoute != 0 {
			t.Errorf("%s: route check %+v", routing, rc)
		}
	}
}

// A simulated schedule on a star gives the answer the tables give, byte
// for byte.
func TestStarSimulatesAsTables(t *testing.T) {
	s := ringSchedule(12, 3, 4096)
	var out [2][]byte
	for i, spare := range []bool{false, true} {
		res := runProg(t, basic(star(t, 12, spare), 1e-8, 1e9), s, ProgramOptions{})
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	if string(out[0]) != string(out[1]) {
		t.Errorf("by rule:\n%s\nby tables:\n%s", out[0], out[1])
	}
}
