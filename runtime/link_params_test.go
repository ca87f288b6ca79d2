package runtime

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A per-link list whose entries are all alike simulates exactly as the
// default link does (the network keeps one copy), and one that differs
// anywhere is kept whole.
func TestUniformLinkListIsTheDefaultLink(t *testing.T) {
	spec := torusSpec(t, 8)
	same := *spec
	same.Links = make([]LinkParams, spec.Graph.NumLinks())
	for i := range same.Links {
		same.Links[i] = spec.DefaultLink
	}
	opt := Options{Op: "randperm", Size: 32, Runs: 3, Seed: 5, Workers: 1}
	want, err := Simulate(context.Background(), spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Simulate(context.Background(), &same, opt)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("uniform per-link list differs from the default link (-default +list):\n%s", d)
	}
	n, err := compile(&same, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n.links != nil || n.link0 != spec.DefaultLink {
		t.Errorf("uniform list kept whole: links %d, link0 %+v", len(n.links), n.link0)
	}
}

func TestSameLinks(t *testing.T) {
	a := LinkParams{Latency: 1e-8, Bandwidth: 1e9}
	for _, c := range []struct {
		name  string
		links []LinkParams
		want  bool
	}{
		{"one", []LinkParams{a}, true},
		{"all alike", []LinkParams{a, a, a}, true},
		{"latency differs", []LinkParams{a, a, {Latency: 2e-8, Bandwidth: 1e9}}, false},
		{"bandwidth differs", []LinkParams{a, {Latency: 1e-8, Bandwidth: 2e9}}, false},
		{"signed zeros differ", []LinkParams{{Bandwidth: 1}, {Latency: math.Copysign(0, -1), Bandwidth: 1}}, false},
	} {
		if got := sameLinks(c.links); got != c.want {
			t.Errorf("%s: sameLinks = %v, want %v", c.name, got, c.want)
		}
	}
}
