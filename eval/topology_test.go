package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	rt "github.com/parasol-lang/parasol/runtime"
)

// topologyMachine wraps topology statements in a machine with one
// processor type.
func topologyMachine(topology string) string {
	return "machine \"m\" {\n\tprocessor p { name = \"P\" }\n" + topology + "\n}\n"
}

func TestTopologyBeyondItsBoundsIsAPositionedError(t *testing.T) {
	const limit = 64 << 20
	tests := []struct {
		name, topology string
		want           string // the whole first diagnostic line
	}{
		{"generator", `	topology t = hypercube(24) { speed = 1MB/s }`,
			"m.machine:3:15: hypercube(24) needs about 12 GB; the limit is 67 MB, set --max-memory to raise it"},
		{"complete graph", `	topology t = full(100000) { speed = 1MB/s }`,
			"m.machine:3:15: full(100000) needs about 280 GB; the limit is 67 MB, set --max-memory to raise it"},
		{"node range", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tnode 0 .. 4999999 = p\n\t}",
			"m.machine:5:3: node 0 .. 4999999 (5000000 nodes) in topology t needs about 800 MB; the limit is 67 MB, set --max-memory to raise it"},
		{"node range in a loop", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tfor i in 0 .. 3 { node i * 10000000 .. i * 10000000 + 999999 = p }\n\t}",
			"m.machine:5:3: this loop (at node 0 .. 999999, 1000000 nodes, in topology t) needs about 160 MB; the limit is 67 MB, set --max-memory to raise it"},
		{"nested loops of links", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tfor i in 0 .. 4000 {\n\t\t\tfor j in 0 .. 4000 { link i -- 4001 + j }\n\t\t}\n\t}",
			"m.machine:5:3: this loop (4057 nodes and 221532 links so far in topology t) needs about 67 MB; the limit is 67 MB, set --max-memory to raise it"},
		{"long loop", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tlink 0 -- 1\n\t\tfor i in 0 .. 99999999 { }\n\t}",
			"m.machine:6:3: this loop runs 100000000 iterations; the bound is 10000000 loop iterations per topology"},
		{"nested empty loops", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tlink 0 -- 1\n\t\tfor i in 0 .. 100000 {\n\t\t\tfor j in 0 .. 100000 { }\n\t\t}\n\t}",
			"m.machine:6:3: these nested loops run more than 10000000 iterations in topology t, the bound on loop iterations per topology"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := LoadSource("m.machine", topologyMachine(tc.topology), WithMaxMemory(limit))
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("loaded")
			}
			if first, _, _ := strings.Cut(err.Error(), "\n"); first != tc.want {
				t.Errorf("got  %s\nwant %s", first, tc.want)
			}
			// Refused within the limit, not after exhausting memory; the
			// loops' evaluation garbage is collected as it goes.
			if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 2*limit {
				t.Errorf("heap grew by %d bytes", grew)
			}
		})
	}
}

func TestTopologyWithinItsBoundsLoads(t *testing.T) {
	// The bounds count what is built, not what is written: a long loop
	// that builds little, a generator just under the limit.
	for _, topology := range []string{
		"\ttopology t {\n\t\tspeed = 1MB/s\n\t\tfor i in 0 .. 999 { if i < 3 { link i -- i + 1 } }\n\t}",
		`	topology t = torus(256, 256) { speed = 1MB/s }`,
		"\ttopology t {\n\t\tspeed = 1MB/s\n\t\tnode 0 .. 99999 = p\n\t\tlink 0 -- 99999\n\t}",
	} {
		if _, err := LoadSource("m.machine", topologyMachine(topology), WithMaxMemory(64<<20)); err != nil {
			t.Errorf("%s: %v", topology, err)
		}
	}
}

func TestLinkToUndeclaredNodeIsAnError(t *testing.T) {
	tests := []struct {
		name, topology, want string
	}{
		{"after the declarations", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tnode 0 .. 3 = p\n\t\tnode 100 = p\n\t\tlink 0 -- 7\n\t}",
			"m.machine:7:13: link to node 7, which is not declared in topology t; declared: 0..3, 100"},
		{"in a loop", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tnode 0 .. 3 = p\n\t\tfor i in 0 .. 3 { link i -- i + 1 }\n\t}",
			"m.machine:6:33: link to node 4, which is not declared in topology t; declared: 0..3"},
		{"many declared ranges", "\ttopology t {\n\t\tspeed = 1MB/s\n\t\tfor i in 0 .. 9 { node 10 * i = p }\n\t\tlink 0 -- 5\n\t}",
			"m.machine:6:13: link to node 5, which is not declared in topology t; declared: 0, 10, 20, 30, 40, 50, …"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSource("m.machine", topologyMachine(tc.topology))
			if err == nil {
				t.Fatal("loaded")
			}
			if first, _, _ := strings.Cut(err.Error(), "\n"); first != tc.want {
				t.Errorf("got  %s\nwant %s", first, tc.want)
			}
		})
	}
	// Declared after the link that names it, or a topology without node
	// statements, where links imply their nodes.
	for _, topology := range []string{
		"\ttopology t {\n\t\tspeed = 1MB/s\n\t\tlink 0 -- 1\n\t\tnode 0 .. 1 = p\n\t}",
		"\ttopology t {\n\t\tspeed = 1MB/s\n\t\tlink 0 -- 1\n\t\tlink 1 -- 7\n\t}",
	} {
		if _, err := LoadSource("m.machine", topologyMachine(topology)); err != nil {
			t.Errorf("%s: %v", topology, err)
		}
	}
}

// Links in a loop name many undeclared nodes at one place: they are
// listed in the order the loop reaches them, the same on every load.
func TestUndeclaredNodesAtOnePlaceAreListedInTheOrderNamed(t *testing.T) {
	src := topologyMachine("\ttopology t {\n\t\tspeed = 1MB/s\n\t\tnode 0 .. 3 = p\n\t\tfor i in 3 .. 30 { link i -- i + 1 }\n\t}")
	_, err := LoadSource("m.machine", src)
	if err == nil {
		t.Fatal("loaded")
	}
	var got []string
	for _, line := range strings.Split(err.Error(), "\n") {
		if _, rest, ok := strings.Cut(line, "link to node "); ok {
			n, _, _ := strings.Cut(rest, ",")
			got = append(got, n)
		}
	}
	want := []string{"4", "5", "6", "7", "8", "9", "10", "11", "12", "13"}
	if !slices.Equal(got, want) {
		t.Errorf("nodes listed %v, want %v\n%v", got, want, err)
	}
}

func TestPacketFieldsOutOfRangeArePositionedAtTheField(t *testing.T) {
	tests := []struct{ field, want string }{
		{"vcs = -3", "vcs must be a whole number ≥ 1 (lanes per wire), got -3"},
		{"vcs = 1e9", "vcs must be at most 256 (lanes per wire), got 1000000000"},
		{"vcs = 2.5", "vcs must be a whole number ≥ 1 (lanes per wire), got 2.5"},
		{"window = -1", "window must be a whole number ≥ 0 (0: no acknowledgements), got -1"},
		{"flit = 0B", "flit must be a whole number of bytes ≥ 1, got 0B"},
		{"buffer = 0", "buffer must be a whole number of flits ≥ 1, got 0"},
		{"packet = 1.5B", "packet must be a whole number of bytes ≥ 0 (0: the whole message is one packet), got 1.5B"},
		{"header = 3GB", "header must be at most 2147483647 bytes, got 3GB"},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			src := topologyMachine("\ttopology t = ring(4) {\n\t\tspeed = 1MB/s\n\t\t" + tc.field + "\n\t}")
			_, err := LoadSource("m.machine", src)
			col := strings.Index(tc.field, "=") + 5 // after two tabs and "= "
			want := fmt.Sprintf("m.machine:5:%d: %s", col, tc.want)
			if err == nil {
				t.Fatal("loaded")
			}
			if first, _, _ := strings.Cut(err.Error(), "\n"); first != want {
				t.Errorf("got  %s\nwant %s", first, want)
			}
		})
	}
	src := topologyMachine("\ttopology t {\n\t\tspeed = 1MB/s\n\t\tlink 0 -- 1 { channels = 1000 }\n\t}")
	if _, err := LoadSource("m.machine", src); err == nil || !strings.Contains(err.Error(), "m.machine:5:28: channels must be a whole number from 1 to 256 (lanes per wire), got 1000") {
		t.Errorf("channels = 1000: %v", err)
	}
}

func TestLongDistanceMeasurementReportsProgress(t *testing.T) {
	var whats []string
	last := 0
	m, err := LoadSource("m.machine", topologyMachine(`	topology t = hamiltonian(3000, 1, 3) { speed = 1MB/s }`),
		WithProgress(func(what string, done, total int) {
			if done < last || total != 3000 {
				t.Errorf("%s: %d/%d after %d", what, done, total, last)
			}
			whats, last = append(whats, what), done
		}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Eval("diameter"); err != nil {
		t.Fatal(err)
	}
	if len(whats) < 2 || whats[0] != "distances of topology t" || last != 3000 {
		t.Errorf("progress reports %q ending at %d", whats, last)
	}
}

// twoTopologies is a machine whose indexes differ between its topologies:
// a ring of 6 (diameter 3, hops(0, 2) = 2) and a complete graph of 4
// (diameter 1, hops(0, 2) = 1).
const twoTopologies = `machine "two" {
	processor p { name = "P" }
	param d = diameter
	param n = nodes
	h(a, b) = hops(a, b)
	topology ring = ring(6) { speed = 1MB/s }
	topology full = full(4) { speed = 1MB/s }
}
`

func TestWithTopologyMakesItTheMachinesTopology(t *testing.T) {
	for _, tc := range []struct {
		label         string
		d, n, h, last float64 // diameter, nodes, hops(0, 2), the last rank's processor
	}{
		{"", 3, 6, 2, 5},
		{"ring", 3, 6, 2, 5},
		{"full", 1, 4, 1, 3},
	} {
		m, err := LoadSource("two.machine", twoTopologies, WithTopology(tc.label))
		if err != nil {
			t.Fatalf("%q: %v", tc.label, err)
		}
		for expr, want := range map[string]float64{"d": tc.d, "n": tc.n, "h(0, 2)": tc.h, "diameter": tc.d} {
			if v, err := m.Eval(expr); err != nil || v.Num != want {
				t.Errorf("%q: %s = %v, %v; want %v", tc.label, expr, v, err, want)
			}
		}
		spec, err := m.Spec("")
		if err != nil || spec.Graph.NumProcs() != int(tc.n) {
			t.Errorf("%q: Spec(\"\") has %v processors (%v); want %v", tc.label, spec.Graph.NumProcs(), err, tc.n)
		}
		ranks, err := MapRanks(m, 0, "linear", 0)
		if err != nil || len(ranks) != int(tc.n) || float64(ranks[len(ranks)-1]) != tc.last {
			t.Errorf("%q: ranks on %v (%v); want %v of them, the last on %v", tc.label, ranks, err, tc.n, tc.last)
		}
		// The same machine on the other topology, and back.
		other := map[string]string{"": "full", "ring": "full", "full": "ring"}[tc.label]
		o, err := m.OnTopology(other)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := o.Eval("nodes"); v.Num == tc.n {
			t.Errorf("%q: OnTopology(%q) still has %v nodes", tc.label, other, v.Num)
		}
	}
}

func TestAnUnknownTopologyIsAnErrorAtTheMachine(t *testing.T) {
	for label, want := range map[string]string{
		"rnig": `machine "two" has no topology "rnig" (did you mean "ring"?)`,
		"xyz":  `machine "two" has no topology "xyz"; it has ring, full`,
	} {
		_, err := LoadSource("two.machine", twoTopologies, WithTopology(label))
		var nt *NoTopologyError
		if !errors.As(err, &nt) {
			t.Fatalf("%s: %v; want a NoTopologyError", label, err)
		}
		if nt.Message() != want || nt.Pos.Line != 1 || nt.Pos.Col != 1 {
			t.Errorf("%s: %s at %d:%d; want %s at 1:1", label, nt.Message(), nt.Pos.Line, nt.Pos.Col, want)
		}
		if !strings.HasPrefix(err.Error(), "two.machine:1:1: "+want) {
			t.Errorf("%s: %q; want it positioned at the machine", label, err)
		}
	}
	// check lists it as a diagnostic at the machine.
	if _, err := Check("std:booksim", WithTopology("fatree")); err == nil || !strings.HasPrefix(err.Error(), `std:booksim:`) ||
		!strings.Contains(err.Error(), `has no topology "fatree" (did you mean "fattree"?)`) {
		t.Errorf("Check: %v", err)
	}
}

func TestOnlyTheChosenTopologyIsBuilt(t *testing.T) {
	// full(100000) needs about 280 GB: the machine loads only when it is
	// not its topology.
	src := strings.Replace(twoTopologies, "topology full", "topology big = full(100000) { speed = 1MB/s }\n\ttopology full", 1)
	if _, err := LoadSource("two.machine", src, WithMaxMemory(64<<20)); err == nil || !strings.Contains(err.Error(), "full(100000) needs about 280 GB") {
		t.Fatalf("on its first topology: %v; want the big one refused", err)
	}
	m, err := LoadSource("two.machine", src, WithMaxMemory(64<<20), WithTopology("full"))
	if err != nil {
		t.Fatal(err)
	}
	if ts := m.Topologies(); len(ts) != 1 || ts[0].Label != "full" {
		t.Errorf("Topologies() = %d of them; want full alone", len(ts))
	}
	if _, err := m.Topology("ring"); err == nil || !strings.Contains(err.Error(), `OnTopology("ring")`) {
		t.Errorf("Topology(ring) = %v; want the way to it", err)
	}
	// check builds every topology, whichever is the machine's.
	path := filepath.Join(t.TempDir(), "two.machine")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ds := InspectFile(path, WithMaxMemory(64<<20), WithTopology("full")); !strings.Contains(ds.Error(), "full(100000) needs about 280 GB") {
		t.Errorf("check --topology full: %v; want the big one refused", ds)
	}
}

// TestBookSimsAnalyticSendIsItsSimulationOnEveryTopology compares
// std:booksim's analytic MPI.send of one 8-flit packet with the same
// message simulated on a quiet network, from the first terminal to every
// other, on each topology --topology picks: the analytic model reads the
// chosen topology's hops (and, on the torus and the dragonfly, its longer
// channels), so the two agree exactly at zero load.
func TestBookSimsAnalyticSendIsItsSimulationOnEveryTopology(t *testing.T) {
	for _, label := range []string{"mesh", "torus", "fattree", "flatfly", "dragonfly"} {
		m, err := Load("std:booksim", WithTopology(label))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		g := spec.Graph
		src := g.ID(g.Proc(0))
		for i := 1; i < g.NumProcs(); i++ {
			dst := g.ID(g.Proc(i))
			c, err := Compare(context.Background(), m, spec, "MPI.send", rt.Options{Size: 32, Src: rt.Node(src), Dst: rt.Node(dst), Runs: 1, Seed: 1})
			if err != nil {
				t.Fatalf("%s: %d → %d: %v", label, src, dst, err)
			}
			if math.Abs(c.Analytic-c.Simulated) > 1e-6*c.Simulated {
				t.Errorf("%s: %d → %d: analytic %v, simulated %v", label, src, dst, c.Analytic, c.Simulated)
			}
		}
	}
}
