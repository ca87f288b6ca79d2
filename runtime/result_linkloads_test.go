package runtime

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

func TestLinkLoadsCountEachWireOfThePath(t *testing.T) {
	// A send 0 → 3 on a chain of four crosses links 0, 1 and 2 from A to
	// B; no wire carries anything back.
	spec := basic(mustGen(t, "chain", 4), 1e-6, 1e6)
	res := sim1(t, spec, Options{Size: 100, Src: Node(0), Dst: Node(3), LinkLoads: true})
	if len(res.Links) != 6 {
		t.Fatalf("got %d wires, want 6: %+v", len(res.Links), res.Links)
	}
	for i, ll := range res.Links {
		forward := i%2 == 0
		want := LinkLoad{Link: i / 2, From: i / 2, To: i/2 + 1}
		if !forward {
			want.From, want.To = want.To, want.From
		}
		if ll.Link != want.Link || ll.From != want.From || ll.To != want.To {
			t.Errorf("wire %d is link %d %d→%d, want link %d %d→%d", i, ll.Link, ll.From, ll.To, want.Link, want.From, want.To)
		}
		switch {
		case forward && (ll.Load != 1 || ll.Messages != 1 || ll.Bytes != 100 || ll.Util <= 0 || ll.Util > 1):
			t.Errorf("wire %d: load %g, %g messages, %g bytes, util %g; want 1 message of 100 bytes and a share in (0, 1]", i, ll.Load, ll.Messages, ll.Bytes, ll.Util)
		case !forward && (ll.Load != 0 || ll.Messages != 0 || ll.Bytes != 0 || ll.Util != 0):
			t.Errorf("wire %d: load %g, %g messages, %g bytes, util %g; want nothing", i, ll.Load, ll.Messages, ll.Bytes, ll.Util)
		}
	}
}

func TestLinkLoadsOfASharedMediumAreOneWire(t *testing.T) {
	b := topo.NewBuilder().Processor(0).Processor(1).Processor(2)
	b.Link(topo.LinkSpec{Members: []int{0, 1, 2}})
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res := sim1(t, basic(g, 1e-6, 1e6), Options{Size: 10, Src: Node(0), Dst: Node(2), LinkLoads: true})
	if want := []LinkLoad{{Link: 0, From: 0, To: -1, Load: 1, Messages: 1, Bytes: 10, Util: res.Links[0].Util}}; !reflect.DeepEqual(res.Links, want) {
		t.Errorf("links = %+v, want %+v", res.Links, want)
	}
}

func TestLinkLoadsDoNotDependOnTheWorkers(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 4), 1e-7, 1e8)
	o := Options{Op: "randperm", Size: 64, Runs: 12, Seed: 7, LinkLoads: true, Workers: 1}
	one := sim1(t, spec, o)
	o.Workers = 4
	four := sim1(t, spec, o)
	if !reflect.DeepEqual(one.Links, four.Links) {
		t.Errorf("1 worker: %+v\n4 workers: %+v", one.Links, four.Links)
	}
	busiest := 0.0
	for _, ll := range one.Links {
		busiest = max(busiest, ll.Load)
	}
	if busiest == 0 || busiest > float64(one.LinkLoadMax) {
		t.Errorf("busiest wire's mean load %g, want in (0, %d]", busiest, one.LinkLoadMax)
	}
}

func TestLinkLoadsAreLeftOutUnlessAsked(t *testing.T) {
	res := sim1(t, basic(mustGen(t, "ring", 4), 1e-6, 1e6), Options{Op: "alltoall", Size: 8})
	if res.Links != nil {
		t.Errorf("Links = %+v without Options.LinkLoads", res.Links)
	}
}

func TestLinkLoadsCountAgainstTheMemoryLimit(t *testing.T) {
	spec := basic(mustGen(t, "ring", 64), 1e-6, 1e6)
	o := Options{Size: 8, Runs: 1000, LinkLoads: true, Workers: 1}
	o.MaxMemory = probeNeed(t, spec, Options{Size: 8, Runs: 1000}) + 1000
	if _, err := Simulate(context.Background(), spec, o); err == nil || !strings.Contains(err.Error(), "per-link loads of 128 wires over 1000 runs") {
		t.Errorf("err = %v, want the per-link loads refused", err)
	}
}
