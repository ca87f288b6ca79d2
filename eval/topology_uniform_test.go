package eval

import (
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// A generated topology whose links all take the topology's latency and
// speed (no link template) keeps one of each, and its nodes' types by kind
// (no node statement): std:loggp's 65,536-link star costs neither an entry
// a link nor a type a node. Every link and node reads as the loop of
// links it replaces gives them: L/2 and the topology's speed, pe for a
// processor and crossbar for the switch (stdlib/machines/loggp.machine).
// A template or a node statement keeps an entry each.
func TestGeneratedTopologyKeepsWhatEveryLinkAndNodeShareOnce(t *testing.T) {
	m, err := Load("std:loggp", WithSet("P", "64"), WithSet("L", "3us"))
	if err != nil {
		t.Fatal(err)
	}
	tp, err := m.Topology("")
	if err != nil {
		t.Fatal(err)
	}
	g := tp.Graph
	if g.NumLinks() != 64 || g.N() != 65 {
		t.Fatalf("star(64): %d links, %d nodes", g.NumLinks(), g.N())
	}
	if len(tp.latency) != 1 || len(tp.speed) != 1 || tp.nodeTypes != nil {
		t.Errorf("kept %d latencies, %d speeds, %d node types; want 1, 1 and none a node", len(tp.latency), len(tp.speed), len(tp.nodeTypes))
	}
	for l := range int32(g.NumLinks()) {
		if lat, spd := tp.LinkLatency(l), tp.LinkSpeed(l); !near(lat, 1.5e-6, 1e-12) || spd != 1e24 {
			t.Fatalf("link %d: latency %g, speed %g; want 1.5e-06 s (L/2) and 1e24 B/s", l, lat, spd)
		}
	}
	for v := range int32(g.N()) {
		want := "pe"
		if g.NodeKind(v) == topo.Switch {
			want = "crossbar"
		}
		if nt := tp.NodeType(v); nt == nil || nt.Label != want {
			t.Fatalf("node %d (%v) typed %v, want %s", v, g.NodeKind(v), nt, want)
		}
	}
	if v := g.N() - 1; g.NodeKind(int32(v)) != topo.Switch {
		t.Fatalf("star(64)'s node %d is a %v, want its switch", v, g.NodeKind(int32(v)))
	}

	src := `machine "m" {
	processor cpu { hop_delay = 0ns }
	switch leaf { delay = 100ns }
	topology t = fattree(2, 2) {
		speed = 1GB/s
		link(d) { latency = if d == 0 then 5ns else 10ns }
	}
	topology r = fattree(2, 2) {
		node = cpu
		node 0 .. 1 = leaf
		speed = 1GB/s
	}
}
`
	m, err = LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	tt, _ := m.Topology("t")
	if n := tt.Graph.NumLinks(); len(tt.latency) != n || len(tt.speed) != n {
		t.Errorf("a link template's topology kept %d latencies and %d speeds for %d links", len(tt.latency), len(tt.speed), n)
	}
	rt, _ := m.Topology("r")
	if len(rt.nodeTypes) != rt.Graph.N() {
		t.Errorf("a retyped topology kept %d node types for %d nodes", len(rt.nodeTypes), rt.Graph.N())
	}
}
