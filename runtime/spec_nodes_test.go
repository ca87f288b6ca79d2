package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// compactNodes is spec with its per-node list given as its different
// nodes once and each node's index among them (Spec.NodeOf).
func compactNodes(spec *Spec) *Spec {
	out := *spec
	out.Nodes, out.NodeOf = nil, make([]uint16, len(spec.Nodes))
	for v, np := range spec.Nodes {
		k := len(out.Nodes)
		for i := range out.Nodes {
			if out.Nodes[i] == np {
				k = i
			}
		}
		if k == len(out.Nodes) {
			out.Nodes = append(out.Nodes, np)
		}
		out.NodeOf[v] = uint16(k)
	}
	return &out
}

// The C104 chain of seed 000 with its switches and processors given once
// each (two records and an index a node) costs what Eq. 3 says, as the
// list of a record a node does, to the bit.
func TestSpecNodeOfGivesEachNodeItsKind(t *testing.T) {
	const s, n = 3, 4096
	full := c104Chain(t, s)
	spec := compactNodes(full)
	if len(spec.Nodes) != 2 || len(spec.NodeOf) != full.Graph.N() {
		t.Fatalf("%d records and %d indexes for %d nodes, want 2 and %d", len(spec.Nodes), len(spec.NodeOf), full.Graph.N(), full.Graph.N())
	}
	for v := range int32(full.Graph.N()) {
		want := NodeParams{SendOverhead: gamma, PacketOverhead: beta}
		if full.Graph.NodeKind(v) == topo.Switch {
			want = NodeParams{HopDelay: delta}
		}
		if got := *spec.Node(v); got != want {
			t.Fatalf("node %d: %+v, want %+v", full.Graph.ID(v), got, want)
		}
	}
	o := Options{Op: "send", Size: n, Src: Node(0), Dst: Node(1)}
	r := sim1(t, spec, o)
	if want := eq3(n, s); !near(r.SendTime.Mean, want, 1e-9) || !near(r.Makespan, want, 0.02) {
		t.Errorf("sender time %.6g, makespan %.6g; Eq. 3 %.6g", r.SendTime.Mean, r.Makespan, want)
	}
	if rf := sim1(t, full, o); rf.Makespan != r.Makespan || rf.SendTime.Mean != r.SendTime.Mean {
		t.Errorf("a record a node: makespan %v, sender %v; once a kind: %v, %v", rf.Makespan, rf.SendTime.Mean, r.Makespan, r.SendTime.Mean)
	}
}

// A program on LogGOPS processors given by NodeOf (three processors of
// one kind, the program on two: fewer records than nodes) is paced by
// their NICs as TestProgramNICGapsPaceMessages derives, alone or beside a
// record no node uses (one with a hop delay, which keeps the kernel's
// nodes by index).
func TestProgramRunsOnNodeOf(t *testing.T) {
	const o, g, L = 1e-6, 10e-6, 1e-6
	s := independent(chainSchedule(nil,
		[]lang.SchedOp{send(1, 1, 0), send(1, 1, 0), send(1, 1, 0)},
		[]lang.SchedOp{recv(0, 1, 0), recv(0, 1, 0), recv(0, 1, 0)}))
	np := NodeParams{SendOverhead: o, RecvOverhead: o, SendGap: g}
	for _, c := range []struct {
		nodes  []NodeParams
		nodeOf []uint16
	}{
		{[]NodeParams{np}, []uint16{0, 0, 0}},
		{[]NodeParams{{HopDelay: 1e-9}, np}, []uint16{1, 1, 1}},
	} {
		spec := nicSpec(t, NodeParams{})
		spec.Graph = mustGen(t, "chain", 3)
		spec.Nodes, spec.NodeOf = c.nodes, c.nodeOf
		res := runProg(t, spec, s, ProgramOptions{})
		// The sends start 0, g and 2g; the last arrives at 2g + o + L
		// and takes the receiver's CPU o.
		if got, want := ends(res), []float64{2*g + o, 2*g + o + L + o}; !nearAll(got, want) {
			t.Errorf("%d records: ends %v, want %v", len(c.nodes), got, want)
		}
	}
}

// A NodeOf of the wrong length, or naming a record past Nodes, is refused
// with an error that says which, never an index out of range.
func TestSpecNodeOfRefusesAMalformedList(t *testing.T) {
	for _, c := range []struct {
		nodeOf []uint16
		want   string
	}{
		{[]uint16{0}, "1 node indexes (NodeOf) for 2 nodes"},
		{[]uint16{0, 2}, "node 1's parameters are Nodes[2], past the 2 node parameter sets"},
	} {
		spec := nicSpec(t, NodeParams{})
		spec.Nodes, spec.NodeOf = []NodeParams{{}, {SendOverhead: 1e-6}}, c.nodeOf
		_, err := Simulate(context.Background(), spec, Options{Op: "send", Size: 8, Src: Node(0), Dst: Node(1)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NodeOf %v: error %v, want %q", c.nodeOf, err, c.want)
		}
	}
}

// A compiled network reads each node's parameters where the spec keeps
// them (nodeP, which looks those given by NodeOf up once a node): the
// same record as Spec.Node, for nodes given once a kind, once a node, or
// all by the default.
func TestNetworkNodeParamsAreTheSpecs(t *testing.T) {
	full := c104Chain(t, 3)
	one := *full
	one.Nodes, one.DefaultNode = nil, NodeParams{HopDelay: delta}
	for name, spec := range map[string]*Spec{"a record a node": full, "once a kind": compactNodes(full), "the default": &one} {
		n, err := compile(spec, "", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		for v := range int32(spec.Graph.N()) {
			if got, want := n.nodeP(v), spec.Node(v); got != want {
				t.Fatalf("%s: node %d's parameters at %p (%+v), the spec's at %p (%+v)", name, v, got, *got, want, *want)
			}
		}
	}
}
