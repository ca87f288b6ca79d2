// Package draw renders a machine's topology as a Graphviz graph (DOT):
// every node and link with its type, latency and speed, or a summary of a
// topology too large to draw node by node, and with the per-link loads of
// a simulation (runtime.Options.LinkLoads) each link coloured and widened
// by how busy it was, so that hot spots stand out.
//
// It draws an eval.Topology rather than a bare topo.Graph because the
// picture shows what the machine gives each node and link (node types,
// latencies, speeds); it sits beside the other libraries over eval
// (eval/study, eval/results) so that Go programs can draw what the
// command line draws.
package draw

import (
	"fmt"
	"html"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Loads are a simulation's per-wire figures on a topology, by which its
// links are coloured: indexed 2×link (+1 for the B→A direction).
type Loads struct {
	source   string
	op       string
	runs     int
	load     []float64
	util     []float64
	busiest  float64 // the largest util
	measured []bool
}

// NewLoads takes the per-link loads of res, a simulation of the
// topology g (runtime.Options.LinkLoads) read from source, and checks that
// they are of g's links.
func NewLoads(source string, res *runtime.Result, g *topo.Graph) (*Loads, error) {
	wl := &Loads{source: source, op: res.Op, runs: res.Runs,
		load: make([]float64, 2*g.NumLinks()), util: make([]float64, 2*g.NumLinks()), measured: make([]bool, 2*g.NumLinks())}
	for _, ll := range res.Links {
		if ll.Link < 0 || ll.Link >= g.NumLinks() {
			return nil, fmt.Errorf("%s has loads for link %d, but this topology has %d links; was it simulated on another machine or topology?", source, ll.Link, g.NumLinks())
		}
		k := g.Link(int32(ll.Link))
		a, b := g.ID(k.A), -1
		if !k.Multi && k.B >= 0 {
			b = g.ID(k.B)
		}
		w := 2 * ll.Link
		switch {
		case ll.From == a && ll.To == b:
		case b >= 0 && ll.From == b && ll.To == a:
			w++
		default:
			return nil, fmt.Errorf("%s has loads for link %d from %d to %d, but here link %d joins %s; was it simulated on another machine or topology?",
				source, ll.Link, ll.From, ll.To, ll.Link, linkEnds(g, k))
		}
		if !(ll.Util >= 0 && ll.Load >= 0) {
			return nil, fmt.Errorf("%s: link %d from %d to %d has a negative or missing load", source, ll.Link, ll.From, ll.To)
		}
		wl.load[w], wl.util[w], wl.measured[w] = ll.Load, ll.Util, true
		wl.busiest = max(wl.busiest, ll.Util)
	}
	return wl, nil
}

func linkEnds(g *topo.Graph, k topo.Link) string {
	switch {
	case k.Multi:
		return "a bus from node " + strconv.Itoa(g.ID(k.A))
	case k.B < 0:
		return "node " + strconv.Itoa(g.ID(k.A)) + " to the outside (I/O)"
	}
	return fmt.Sprintf("nodes %d and %d", g.ID(k.A), g.ID(k.B))
}

// heat is the colour scale of link load, coolest first; idle links are
// grey.
var heat = []string{"#4575b4", "#91bfdb", "#fee090", "#fc8d59", "#d73027"}

const (
	idleColour      = "#bdbdbd"
	processorColour = "#c7e9c0"
	switchColour    = "#bcbddc"
	busColour       = "#d9d9d9"
)

// band is the heat band of utilisation u.
func (wl *Loads) band(u float64) int {
	if u <= 0 || wl.busiest <= 0 {
		return -1
	}
	return min(int(u/wl.busiest*float64(len(heat))), len(heat)-1)
}

// link is the busier direction of link l: its utilisation, and the
// colour and pen width that show it.
func (wl *Loads) link(l int) (util float64, colour string, width float64) {
	util = max(wl.util[2*l], wl.util[2*l+1])
	b := wl.band(util)
	if b < 0 {
		return util, idleColour, 1
	}
	return util, heat[b], 1 + 5*util/wl.busiest
}

// Drawing is one topology of a machine to draw, with the loads of a
// simulation on it or without (Loads nil).
type Drawing struct {
	Machine  string // the machine's name, the graph's
	Topology *eval.Topology
	Loads    *Loads
}

// SummaryNodes is the most nodes Write draws one by one: Graphviz takes
// minutes over more, and a picture of them shows nothing.
const SummaryNodes = 2000

// Write draws the topology as a Graphviz graph: every node and link
// (WriteFull), or for a topology of more than SummaryNodes nodes, unless
// full, its summary (WriteSummary).
func (d *Drawing) Write(w io.Writer, full bool) {
	if d.Topology.Graph.N() > SummaryNodes && !full {
		d.WriteSummary(w)
		return
	}
	d.WriteFull(w)
}

func (d *Drawing) title() string {
	g := d.Topology.Graph
	procs, switches := g.NumProcs(), g.N()-g.NumProcs()
	nodes := fmt.Sprintf("%d processor%s", procs, plural(procs))
	if switches > 0 {
		nodes = fmt.Sprintf("%d node%s (%s, %d switch%s)", g.N(), plural(g.N()), nodes, switches, pluralEs(switches))
	}
	s := fmt.Sprintf("%s: topology %s%s: %s, %d link%s", d.Machine, d.Topology.Label, generatorCall(g), nodes, g.NumLinks(), plural(g.NumLinks()))
	if wl := d.Loads; wl != nil {
		s += fmt.Sprintf("\nloads of op %s (%d run%s) from %s", wl.op, wl.runs, plural(wl.runs), wl.source)
	}
	return s
}

// generatorCall says what the topology is: ", a torus(8, 8)" for a
// generated one or one recognised as such; for another given link by
// link, the regular core routing found in it, if any.
func generatorCall(g *topo.Graph) string {
	call := func(k topo.Kind, dims []int) string {
		name := k.String()
		switch {
		case k == topo.Torus && len(dims) == 1:
			name = "ring"
		case k == topo.Mesh && len(dims) == 1:
			name = "chain"
		case k == topo.Hamiltonian && len(dims) == 2:
			return fmt.Sprintf("hamiltonian(%d nodes, degree %d)", dims[0], dims[1])
		}
		if k.Switched() {
			return topo.KindCall(k, dims)
		}
		parts := make([]string, len(dims))
		for i, x := range dims {
			parts[i] = strconv.Itoa(x)
		}
		return name + "(" + strings.Join(parts, ", ") + ")"
	}
	if g.Kind() != topo.Explicit {
		return ", a " + call(g.Kind(), g.Dims())
	}
	if c := g.Core(); c.Kind != topo.Explicit {
		return ", link by link (recognised as " + call(c.Kind, c.Dims) + ")"
	}
	return ", link by link"
}

func nodeName(g *topo.Graph, v int32) string { return "n" + strconv.Itoa(g.ID(v)) }

// WriteFull draws every node and link: processors are green circles,
// switches purple boxes, a multilink parallel lines marked ×c (its
// channels), a bus a grey node joined to its members, an I/O link a line
// to an I/O mark; with Loads each link is coloured and widened by how busy
// its busier direction was, and a legend gives the bands.
func (d *Drawing) WriteFull(w io.Writer) {
	g, t, wl := d.Topology.Graph, d.Topology, d.Loads
	fmt.Fprintf(w, "graph %s {\n", Quote(d.Machine))
	layout := "neato"
	if g.Kind() == topo.Tree || g.Kind() == topo.FatTree || g.Kind() == topo.XGFT {
		layout = "dot"
	}
	// The legend is part of the graph's label, above the drawing, never
	// a node among the others: a node would be laid out (or, on a grid,
	// pinned) over the nodes and links it explains.
	fmt.Fprintf(w, "\tgraph [label=<%s>, labelloc=t, fontname=\"Helvetica\", layout=%s, overlap=false, splines=true];\n", d.label(), layout)
	fmt.Fprint(w, "\tnode [fontname=\"Helvetica\", style=filled];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	grid := g.Kind() == topo.Mesh || g.Kind() == topo.Torus
	dims := g.Dims()
	for v := range int32(g.N()) {
		typ := ""
		if nt := t.NodeType(v); nt != nil {
			typ = " (" + nt.Label + ")"
		}
		attrs := fmt.Sprintf("label=%s, shape=circle, fillcolor=%q, tooltip=%s", Quote(strconv.Itoa(g.ID(v))), processorColour,
			Quote(fmt.Sprintf("processor %d%s", g.ID(v), typ)))
		if g.NodeKind(v) == topo.Switch {
			attrs = fmt.Sprintf("label=%s, shape=box, fillcolor=%q, tooltip=%s", Quote(strconv.Itoa(g.ID(v))), switchColour,
				Quote(fmt.Sprintf("switch %d%s", g.ID(v), typ)))
		}
		if grid && len(dims) == 2 {
			// Pinned positions keep a mesh or torus a grid in neato.
			attrs += fmt.Sprintf(", pos=\"%d,%d!\"", int(v)%dims[0], -int(v)/dims[0])
		}
		fmt.Fprintf(w, "\t%s [%s];\n", Quote(nodeName(g, v)), attrs)
	}
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		tip := fmt.Sprintf("link %d: latency %s, speed %s", l, lang.FormatQuantity(t.LinkLatency(l), lang.TimeDim), lang.FormatQuantity(t.LinkSpeed(l), lang.RateDim))
		colour, width, label := "black", 1.0, ""
		if k.Channels > 1 {
			label = fmt.Sprintf("×%d", k.Channels)
			tip += fmt.Sprintf(", %d channels", k.Channels)
		}
		if wl != nil {
			var util float64
			util, colour, width = wl.link(int(l))
			tip += "; " + d.wireTip(l, k)
			if b := wl.band(util); b == len(heat)-1 {
				label = strings.TrimSpace(label + " " + percent(util))
			}
		}
		attrs := fmt.Sprintf("color=%q", strings.Repeat(colour+":", max(min(int(k.Channels), 4), 1)-1)+colour)
		if width != 1 {
			attrs += fmt.Sprintf(", penwidth=%s", strconv.FormatFloat(width, 'f', 2, 64))
		}
		if label != "" {
			attrs += ", label=" + Quote(label)
		}
		attrs += ", tooltip=" + Quote(tip)
		switch {
		case k.Multi:
			bus := Quote(fmt.Sprintf("bus%d", l))
			fill := busColour
			if wl != nil && colour != idleColour {
				fill = colour
			}
			fmt.Fprintf(w, "\t%s [label=\"bus\", shape=box, style=\"rounded,filled\", fillcolor=%q, tooltip=%s];\n", bus, fill, Quote(tip))
			for _, v := range g.Members(l) {
				fmt.Fprintf(w, "\t%s -- %s [%s];\n", Quote(nodeName(g, v)), bus, attrs)
			}
		case k.B < 0:
			out := Quote(fmt.Sprintf("io%d", l))
			fmt.Fprintf(w, "\t%s [label=\"I/O\", shape=plaintext, style=\"\"];\n", out)
			fmt.Fprintf(w, "\t%s -- %s [%s];\n", Quote(nodeName(g, k.A)), out, attrs)
		default:
			fmt.Fprintf(w, "\t%s -- %s [%s];\n", Quote(nodeName(g, k.A)), Quote(nodeName(g, k.B)), attrs)
		}
	}
	fmt.Fprintln(w, "}")
}

// wireTip describes both directions of link l for its tooltip.
func (d *Drawing) wireTip(l int32, k topo.Link) string {
	g, wl := d.Topology.Graph, d.Loads
	one := func(w int, from, to string) string {
		return fmt.Sprintf("%s→%s %s message%s, %s busy", from, to, strconv.FormatFloat(wl.load[w], 'g', 4, 64),
			plural(int(wl.load[w]+0.5)), percent(wl.util[w]))
	}
	a := strconv.Itoa(g.ID(k.A))
	if k.Multi || k.B < 0 {
		return one(2*int(l), a, map[bool]string{true: "bus", false: "I/O"}[k.Multi])
	}
	b := strconv.Itoa(g.ID(k.B))
	return one(2*int(l), a, b) + "; " + one(2*int(l)+1, b, a)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func percent(u float64) string {
	return strconv.FormatFloat(100*u, 'f', 1, 64) + "%"
}

// label is the graph's label as Graphviz HTML: the title's lines above
// the legend, which gives the node kinds and, with loads, the colour
// bands.
func (d *Drawing) label() string {
	var b strings.Builder
	lines := strings.Split(d.title(), "\n")
	for i, l := range lines {
		lines[i] = html.EscapeString(l)
	}
	fmt.Fprintf(&b, "<table border=\"0\" cellspacing=\"0\" cellpadding=\"2\">\n\t\t<tr><td>%s</td></tr>\n", strings.Join(lines, "<br/>"))
	// Swatches have a fixed size: the legend is stretched to the title's
	// width, and the stretch goes to the space between them.
	b.WriteString("\t\t<tr><td><table border=\"0\" cellborder=\"0\" cellspacing=\"2\" cellpadding=\"1\">\n")
	fmt.Fprintf(&b, "\t\t<tr><td %s></td><td align=\"left\">processor</td></tr>\n", swatch(processorColour))
	if d.Topology.Graph.NumProcs() < d.Topology.Graph.N() {
		fmt.Fprintf(&b, "\t\t<tr><td %s></td><td align=\"left\">switch</td></tr>\n", swatch(switchColour))
	}
	if wl := d.Loads; wl != nil {
		b.WriteString("\t\t<tr><td colspan=\"2\"><b>link busy (busier direction)</b></td></tr>\n")
		for i := len(heat) - 1; i >= 0; i-- {
			lo, hi := wl.busiest*float64(i)/float64(len(heat)), wl.busiest*float64(i+1)/float64(len(heat))
			fmt.Fprintf(&b, "\t\t<tr><td %s></td><td align=\"left\">%s – %s</td></tr>\n", swatch(heat[i]), percent(lo), percent(hi))
		}
		fmt.Fprintf(&b, "\t\t<tr><td %s></td><td align=\"left\">idle</td></tr>\n", swatch(idleColour))
	}
	b.WriteString("\t\t</table></td></tr>\n\t</table>")
	return b.String()
}

// swatch is the attributes of a legend's cell of colour c.
func swatch(c string) string {
	return fmt.Sprintf("bgcolor=%q border=\"1\" fixedsize=\"true\" width=\"24\" height=\"14\"", c)
}

// WriteSummary draws a large topology as its node kinds and the links
// between them, with a degree histogram: a walk over the nodes and links,
// with no text per edge.
func (d *Drawing) WriteSummary(w io.Writer) {
	g := d.Topology.Graph
	n := g.N()
	procs, switches := g.NumProcs(), n-g.NumProcs()
	kindOf := func(v int32) int { return int(g.NodeKind(v)) } // 0 processor, 1 switch
	var between [2][2]int                                     // links by the kinds of their ends
	buses, ioLinks := 0, 0
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		switch {
		case k.Multi:
			buses++
		case k.B < 0:
			ioLinks++
		default:
			a, b := kindOf(k.A), kindOf(k.B)
			between[min(a, b)][max(a, b)]++
		}
	}
	degrees := map[int]int{}
	for v := range int32(n) {
		degrees[g.Degree(v)]++
	}
	fmt.Fprintf(w, "graph %s {\n", Quote(d.Machine))
	title := d.title() + fmt.Sprintf("\nsummary: more than %d nodes; parasol draw --full draws every one", SummaryNodes)
	fmt.Fprintf(w, "\tgraph [label=%s, labelloc=t, fontname=\"Helvetica\", layout=dot];\n", Quote(title))
	fmt.Fprint(w, "\tnode [fontname=\"Helvetica\", style=filled];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	names := [2]string{"processors", "switches"}
	counts := [2]int{procs, switches}
	if procs > 0 {
		fmt.Fprintf(w, "\tprocessors [label=\"%d processor%s\", shape=ellipse, fillcolor=%q];\n", procs, plural(procs), processorColour)
	}
	if switches > 0 {
		fmt.Fprintf(w, "\tswitches [label=\"%d switch%s\", shape=box, fillcolor=%q];\n", switches, pluralEs(switches), switchColour)
	}
	for a := range 2 {
		for b := a; b < 2; b++ {
			if between[a][b] > 0 && counts[a] > 0 && counts[b] > 0 {
				fmt.Fprintf(w, "\t%s -- %s [label=\"%d link%s\"];\n", names[a], names[b], between[a][b], plural(between[a][b]))
			}
		}
	}
	if buses > 0 {
		fmt.Fprintf(w, "\tbuses [label=\"%d bus%s\", shape=box, style=\"rounded,filled\", fillcolor=%q];\n", buses, pluralEs(buses), busColour)
		fmt.Fprintln(w, "\tprocessors -- buses;")
	}
	if ioLinks > 0 {
		fmt.Fprintf(w, "\tio [label=\"%d I/O link%s\", shape=plaintext, style=\"\"];\n", ioLinks, plural(ioLinks))
		fmt.Fprintln(w, "\tprocessors -- io;")
	}
	ds := make([]int, 0, len(degrees))
	for k := range degrees {
		ds = append(ds, k)
	}
	sort.Ints(ds)
	fmt.Fprint(w, "\tdegrees [shape=plaintext, style=\"\", label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n")
	fmt.Fprint(w, "\t\t<tr><td><b>neighbours</b></td><td><b>nodes</b></td></tr>\n")
	for _, k := range ds {
		fmt.Fprintf(w, "\t\t<tr><td align=\"right\">%d</td><td align=\"right\">%d</td></tr>\n", k, degrees[k])
	}
	fmt.Fprint(w, "\t</table>>];\n")
	if d.Loads != nil {
		d.writeBusiest(w)
	}
	fmt.Fprintln(w, "}")
}

// busiestShown is how many of the busiest wires a summary lists.
const busiestShown = 10

// writeBusiest lists the busiest wires of a simulation in a table.
func (d *Drawing) writeBusiest(w io.Writer) {
	g, wl := d.Topology.Graph, d.Loads
	var ws []int
	for i := range wl.util {
		if wl.measured[i] && wl.util[i] > 0 {
			ws = append(ws, i)
		}
	}
	sort.SliceStable(ws, func(i, j int) bool { return wl.util[ws[i]] > wl.util[ws[j]] })
	ws = ws[:min(len(ws), busiestShown)]
	fmt.Fprint(w, "\tbusiest [shape=plaintext, style=\"\", label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n")
	fmt.Fprintf(w, "\t\t<tr><td colspan=\"4\"><b>busiest links (of %s)</b></td></tr>\n", htmlEscape(wl.source))
	fmt.Fprint(w, "\t\t<tr><td><b>link</b></td><td><b>wire</b></td><td><b>messages</b></td><td><b>busy</b></td></tr>\n")
	for _, x := range ws {
		k := g.Link(int32(x / 2))
		from, to := g.ID(k.A), "bus"
		switch {
		case k.B < 0 && !k.Multi:
			to = "I/O"
		case !k.Multi && x%2 == 0:
			to = strconv.Itoa(g.ID(k.B))
		case !k.Multi:
			from, to = g.ID(k.B), strconv.Itoa(g.ID(k.A))
		}
		fmt.Fprintf(w, "\t\t<tr><td align=\"right\">%d</td><td>%d→%s</td><td align=\"right\">%s</td><td bgcolor=%q align=\"right\">%s</td></tr>\n",
			x/2, from, to, strconv.FormatFloat(wl.load[x], 'g', 4, 64), heat[max(wl.band(wl.util[x]), 0)], percent(wl.util[x]))
	}
	if len(ws) == 0 {
		fmt.Fprint(w, "\t\t<tr><td colspan=\"4\">every link idle</td></tr>\n")
	}
	fmt.Fprint(w, "\t</table>>];\n")
}

// Quote quotes s as a DOT string; \n in s becomes a centred line break.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
