package runtime

import (
	"context"
	"testing"
)

// TestFlatFlyTornadoIsBookSims: tornado on a 2-D flattened butterfly is
// BookSim's TornadoTrafficPattern over its terminal grid (digits of base
// xr·k, xr = √c, each moved on by ⌈xr·k/2⌉ − 1), written here from
// traffic.cpp; a flattened butterfly whose c is no square keeps the rank
// rule.
func TestFlatFlyTornadoIsBookSims(t *testing.T) {
	for _, c := range []struct{ k, c, side int }{{4, 4, 8}, {3, 9, 9}, {4, 1, 4}, {4, 2, 0}} {
		n, err := compile(basic(mustGen(t, "flatfly", c.k, 2, c.c), 1e-9, 4e9), "", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(n, &Options{})
		P := n.nprocs
		for r := range P {
			want := (r + (P+1)/2 - 1) % P
			if c.side > 0 {
				want, off := 0, 1
				for range 2 {
					want += off * ((r/off%c.side + (c.side+1)/2 - 1) % c.side)
					off *= c.side
				}
				if got := s.pattern("tornado", r); got != want {
					t.Fatalf("flatfly(%d, 2, %d): tornado sends %d to %d, BookSim to %d", c.k, c.c, r, got, want)
				}
				continue
			}
			if got := s.pattern("tornado", r); got != want {
				t.Fatalf("flatfly(%d, 2, %d): tornado sends %d to %d, want the rank rule's %d", c.k, c.c, r, got, want)
			}
		}
	}
}

// TestNCARandomSpreadsUpPorts: BookSim's nca (nca-random) draws the up
// port for each packet, so one source's packets to one destination leave
// its leaf by every up port, about equally, where D-mod-k (nca) takes one.
func TestNCARandomSpreadsUpPorts(t *testing.T) {
	spec := basic(mustGen(t, "fattree", 4, 3), 1e-9, 4e9)
	for _, c := range []struct {
		routing string
		ports   int
	}{{"nca", 1}, {"nca-random", 4}} {
		n, err := compile(spec, c.routing, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		g := n.g
		src, dst := g.Proc(0), g.Proc(63)
		leaf := g.Adj(src)[0].Node
		tr := &traffic{op: "custom", channels: 1, links: 1}
		s := newSim(n, &Options{Routing: c.routing})
		s.reset(1)
		for range 400 {
			s.addMsg(tr, src, dst, 32)
		}
		s.linkDeps()
		s.run(context.Background())
		used := 0
		for _, a := range g.Adj(leaf)[4:] { // a leaf's 4 down ports first
			if l := s.wire(n.wire(a.Link, leaf)).load; l > 0 {
				used++
				if c.ports > 1 && (l < 60 || l > 140) {
					t.Errorf("%s: up port to %d carried %d of 400 packets, want about 100", c.routing, a.Node, l)
				}
			}
		}
		if used != c.ports {
			t.Errorf("%s: %d up ports of leaf %d used, want %d", c.routing, used, leaf, c.ports)
		}
	}
}

// TestUsedCreditsComeBack: the used credits UGAL reads (sim.used) count
// a packet's flits on each channel into a router from when it takes the
// channel until they have left that router and their credits are back,
// so after a run every count is back to zero; and while the routing does
// not read them they are not kept.
func TestUsedCreditsComeBack(t *testing.T) {
	spec := basic(mustGen(t, "flatfly", 4, 2, 4), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Switching = 4, Wormhole
	for _, routing := range []string{"ugal", "dor"} {
		s, _ := runOnce(t, spec, Options{Op: "uniform", Size: 256, Seed: 1, Routing: routing})
		if routing == "dor" {
			if s.used != nil {
				t.Errorf("dor keeps used credits")
			}
			continue
		}
		if s.used == nil {
			t.Fatal("ugal keeps no used credits")
		}
		for w, u := range s.used {
			if u != 0 {
				t.Errorf("wire %d: %d flits still owed after the run", w, u)
			}
		}
	}
}
