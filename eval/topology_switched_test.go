package eval

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// TestSwitchedGeneratorsTypeTheirSwitches: a generator that makes switches
// types them with the topology's switch field (else the first switch
// declared), its processors with node; dragonfly's arrangement is a word;
// the indexes count processors and switches apart; a link template sees
// each link's class as its dimension.
func TestSwitchedGeneratorsTypeTheirSwitches(t *testing.T) {
	src := `machine "m" {
	processor cpu { hop_delay = 0ns }
	switch leaf { delay = 100ns }
	switch spine { delay = 200ns }
	topology t = dragonfly(2, 4, 2, 9, relative) {
		node = cpu
		switch = spine
		speed = 1GB/s
		link(d) { latency = if d == 2 then 100ns else 10ns }
	}
	topology f = fattree(2, 3) { speed = 1GB/s }
	topology r = fattree(2, 3) {
		switch = leaf
		node 0 .. 3 = spine # the top level
		speed = 1GB/s
	}
}
`
	m, err := LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	tp, _ := m.Topology("t")
	g := tp.Graph
	if g.Kind() != topo.Dragonfly || g.Dims()[4] != topo.Relative {
		t.Fatalf("kind %v dims %v", g.Kind(), g.Dims())
	}
	for v := range int32(g.N()) {
		want := "cpu"
		if g.NodeKind(v) == topo.Switch {
			want = "spine"
		}
		if tp.NodeType(v) == nil || tp.NodeType(v).Label != want {
			t.Fatalf("node %d (%v) typed %v, want %s", v, g.NodeKind(v), tp.NodeType(v), want)
		}
	}
	for l := range int32(g.NumLinks()) {
		want := 10e-9
		if g.Link(l).Dim == 2 {
			want = 100e-9
		}
		if !near(tp.LinkLatency(l), want, 1e-12) {
			t.Fatalf("link %d (class %d): latency %g, want %g", l, g.Link(l).Dim, tp.LinkLatency(l), want)
		}
	}
	for expr, want := range map[string]float64{"nodes": 72, "switches": 36, "links": 72 + 9*6 + 36} {
		v, err := m.Eval(expr)
		if err != nil || v.Num != want {
			t.Errorf("%s = %v (%v), want %g", expr, v, err, want)
		}
	}
	f, _ := m.Topology("f")
	for v := range int32(f.Graph.N()) {
		if f.Graph.NodeKind(v) == topo.Switch && f.NodeType(v).Label != "leaf" {
			t.Fatalf("fattree switch %d typed %s, want the first switch, leaf", v, f.NodeType(v).Label)
		}
	}
	rt, _ := m.Topology("r")
	for v := range int32(rt.Graph.N()) {
		want := "cpu"
		switch {
		case v < 4:
			want = "spine"
		case v < 12:
			want = "leaf"
		}
		if rt.NodeType(v).Label != want {
			t.Errorf("retyped fattree: node %d typed %s, want %s", v, rt.NodeType(v).Label, want)
		}
	}
}

func TestSwitchedGeneratorMistakesArePositioned(t *testing.T) {
	for _, c := range []struct{ topology, want string }{
		{`	topology t = dragonfly(2, 4, 2, 10) { speed = 1MB/s }`, "m.machine:4:15: dragonfly(2, 4, 2, 10): g = 10 groups is more than a·h + 1 = 9"},
		{`	topology t = dragonfly(2, 4, 2, 9, relativ) { speed = 1MB/s }`, `m.machine:4:37: unknown dragonfly argument relativ (did you mean "relative"?); it is one of absolute, relative, circulant`},
		{`	topology t = xgft(2, 4, 4, 1) { speed = 1MB/s }`, "m.machine:4:15: xgft(2, 4, 4, 1): a height of 2 needs 2 radices"},
		{`	topology t = fattree(2, 3) { speed = 1MB/s
		switch = spline }`, `m.machine:5:12: no switch spline (did you mean "spine"?)`},
		{`	topology t = fattree(2, 3) { speed = 1MB/s
		node 10 .. 12 = spine }`, "m.machine:5:19: node 12 is a processor of fattree(2, 3), and spine is a switch type"},
		{`	topology t = fattree(2, 3) { speed = 1MB/s
		node 0 .. 20 = spine }`, "m.machine:5:3: node 0 .. 20: fattree(2, 3) makes nodes 0 .. 19"},
		{`	topology t = fattree(2, 3) { speed = 1MB/s
		link 0 -- 1 }`, "a generated topology cannot also list links"},
	} {
		src := "machine \"m\" {\n\tprocessor p { name = \"P\" }\n\tswitch spine { delay = 1ns }\n" + c.topology + "\n}\n"
		_, err := LoadSource("m.machine", src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.topology, err, c.want)
		}
	}
}

func TestSwitchFieldWithoutGeneratedSwitchesIsAWarning(t *testing.T) {
	for _, c := range []struct{ topology, want string }{
		{`	topology t = mesh(2, 2) { speed = 1MB/s
		switch = spine }`, "m.machine:5:12: warning: switch = spine types the switches a generator makes, and mesh(2, 2) makes none"},
		{`	topology t { speed = 1MB/s
		link 0 -- 1
		switch = spine }`, "m.machine:6:12: warning: switch = spine types the switches a generator makes, and this topology is given link by link"},
	} {
		src := "machine \"m\" {\n\tprocessor p { name = \"P\" }\n\tswitch spine { delay = 1ns }\n" + c.topology + "\n}\n"
		m, err := LoadSource("m.machine", src)
		if err != nil {
			t.Fatal(err)
		}
		if w := m.Warnings(); w == nil || !strings.Contains(w.Error(), c.want) {
			t.Errorf("%s: warnings %v, want %s", c.topology, w, c.want)
		}
	}
	m, err := LoadSource("m.machine", "machine \"m\" {\n\tprocessor p { name = \"P\" }\n\tswitch spine { delay = 1ns }\n\ttopology t = fattree(2, 2) { speed = 1MB/s\n\t\tswitch = spine }\n}\n")
	if err != nil || m.Warnings() != nil {
		t.Errorf("fattree with its switch type: %v, warnings %v", err, m.Warnings())
	}
}
