package draw

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

func TestDrawDOTQuotesNamesAndLabels(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`back\slash`, `"back\\slash"`},
		{"two\nlines", `"two\nlines"`},
		{"cr\r\nlf", `"cr\nlf"`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestLoadsColourTheBusiestLinkHottest(t *testing.T) {
	m, err := eval.Load("std:c104-chain")
	if err != nil {
		t.Fatal(err)
	}
	topo, err := m.Topology("")
	if err != nil {
		t.Fatal(err)
	}
	g := topo.Graph
	k := g.Link(0)
	from, to := g.ID(k.A), -1
	if !k.Multi && k.B >= 0 {
		to = g.ID(k.B)
	}
	res := &runtime.Result{Op: "send", Runs: 1, Links: []runtime.LinkLoad{{Link: 0, From: from, To: to, Load: 1, Util: 0.5}}}
	loads, err := NewLoads("t.json", res, g)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	(&Drawing{Machine: m.Name(), Topology: topo, Loads: loads}).Write(&b, false)
	out := b.String()
	for _, want := range []string{"graph ", "loads of op send (1 run) from t.json", heat[len(heat)-1], "50.0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("the drawing lacks %q:\n%s", want, out)
		}
	}
	res.Links[0].Link = g.NumLinks()
	if _, err := NewLoads("t.json", res, g); err == nil || !strings.Contains(err.Error(), "another machine or topology") {
		t.Errorf("loads of a link the topology lacks: %v", err)
	}
}

// Issue 26: the legend was a node of the graph, which a grid's pinned
// layout put over the nodes it explains. It is now part of the graph's
// label, which Graphviz draws outside the layout, with the title's lines
// above it and HTML-escaped.
func TestLegendIsInTheGraphLabelNotANode(t *testing.T) {
	m, err := eval.Load("std:booksim-mesh")
	if err != nil {
		t.Fatal(err)
	}
	topo, err := m.Topology("")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	(&Drawing{Machine: "a<b & c", Topology: topo}).Write(&b, false)
	out := b.String()
	graphAttrs := out[strings.Index(out, "\tgraph ["):strings.Index(out, "\tnode [")]
	for _, want := range []string{"label=<<table", "a&lt;b &amp; c: topology", ">processor</td>", "labelloc=t"} {
		if !strings.Contains(graphAttrs, want) {
			t.Errorf("the graph's attributes lack %q:\n%s", want, graphAttrs)
		}
	}
	// Every statement after the graph's attributes is a node, an edge or
	// a default: none is a legend node.
	for _, line := range strings.Split(out[strings.Index(out, "\tnode ["):], "\n") {
		if strings.Contains(line, "legend") || strings.Contains(line, "<table") {
			t.Errorf("a statement outside the graph's label draws the legend: %s", line)
		}
	}
}
