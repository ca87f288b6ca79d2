package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// drawSummaryNodes is the most nodes drawn one by one without --full:
// Graphviz takes minutes over more, and a picture of them shows nothing.
const drawSummaryNodes = 2000

// drawCmd is parasol draw.
var drawCmd = &command{
	name:    "draw",
	summary: "draw a topology as a Graphviz graph, hot links marked from a simulation",
	args:    "[flags] MACHINE",
	doc: fmt.Sprintf(`
Draw prints a topology of the machine as a Graphviz graph: processors are
green circles, switches purple boxes, a multilink is drawn as parallel lines
marked ×c (its channels), a bus as a grey node joined to its members, an
I/O link as a line to an I/O mark. Hover over a node or link in the SVG for
its type, latency and speed.

With --sim-result, each link is coloured and widened by how busy its
busier direction was, from the output of
  parasol sim MACHINE --op OP --json --link-loads > result.json
so hot spots stand out; a legend gives the bands.

A topology of more than %d nodes is summarised (node kinds and counts,
links between kinds, the generator, a degree histogram, and the busiest
links of a simulation) unless --full is given.

--format svg runs Graphviz's dot program, which must be installed
(apt-get install graphviz, brew install graphviz); --format dot prints
the graph for any Graphviz tool: dot -Tpng graph.dot > graph.png.

Examples:
  parasol draw examples/star.machine | dot -Tsvg > star.svg
  parasol draw std:xmp64 --format svg > xmp64.svg
  parasol sim std:xmp64 --op transpose --json --link-loads > t.json
  parasol draw std:xmp64 --sim-result t.json --format svg > hot.svg`, drawSummaryNodes),
	flags: declareDraw,
}

// declareDraw declares draw's flags on fs and returns the function that runs it.
func declareDraw(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	topology := fs.String("topology", "", "which topology of the machine (default: the first)")
	format := newChoiceFlag("dot", "dot", "svg")
	fs.Var(format, "format", "output format: dot (Graphviz's text) or svg (drawn by Graphviz's dot program)")
	simResult := fs.String("sim-result", "", "colour links by load from a `FILE` written by parasol sim --json --link-loads (- for standard input)")
	full := fs.Bool("full", false, fmt.Sprintf("draw every node and link, even of a topology of more than %d nodes", drawSummaryNodes))
	return func(pos []string) error {
		var err error
		if len(pos) != 1 {
			return usageError("parasol draw: need exactly one MACHINE\nUsage: parasol draw [flags] MACHINE")
		}
		if pos[0] == eval.Stdin && *simResult == eval.Stdin {
			return usageError("parasol draw: the MACHINE and --sim-result cannot both be standard input (-)")
		}
		var dotPath string
		if format.value == "svg" {
			if dotPath, err = exec.LookPath("dot"); err != nil {
				return fmt.Errorf("parasol draw: --format svg needs Graphviz's dot program, which is not on PATH; install Graphviz (apt-get install graphviz, brew install graphviz) or use --format dot and render the graph elsewhere")
			}
		}
		m, err := mf.load(pos[0])
		if err != nil {
			return err
		}
		if err := checkTopology("draw", m, *topology); err != nil {
			return err
		}
		t, err := m.Topology(*topology)
		if err != nil {
			return err
		}
		var loads *wireLoads
		if *simResult != "" {
			if loads, err = readWireLoads(*simResult, t.Graph, mf.memory()); err != nil {
				return err
			}
		}
		d := &drawing{machine: m.Name(), t: t, loads: loads}
		write := d.writeFull
		if t.Graph.N() > drawSummaryNodes && !*full {
			write = d.writeSummary
		}
		if dotPath == "" {
			w := bufio.NewWriter(e.stdout)
			write(w)
			return w.Flush()
		}
		return renderSVG(dotPath, e.stdout, write)
	}
}

// renderSVG pipes the graph through Graphviz's dot into w.
func renderSVG(dotPath string, w io.Writer, write func(io.Writer)) error {
	cmd := exec.Command(dotPath, "-Tsvg")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("parasol draw: running %s: %v", dotPath, err)
	}
	bw := bufio.NewWriter(in)
	write(bw)
	werr := bw.Flush()
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("parasol draw: %s -Tsvg failed (%v): %s", dotPath, err, strings.TrimSpace(stderr.String()))
	}
	return werr
}

// wireLoads are a simulation's per-wire figures, indexed 2×link (+1 for
// the B→A direction).
type wireLoads struct {
	source   string
	op       string
	runs     int
	load     []float64
	util     []float64
	busiest  float64 // the largest util
	measured []bool
}

// readWireLoads reads a `parasol sim --json --link-loads` result and
// checks that it was simulated on this topology.
func readWireLoads(path string, g *topo.Graph, maxMemory int64) (*wireLoads, error) {
	name := eval.DisplayName(path)
	data, err := eval.ReadInput(path, maxMemory)
	if err != nil {
		return nil, err
	}
	var res runtime.Result
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&res); err != nil {
		return nil, fmt.Errorf("%s is not a simulation result (parasol sim --json): %v", name, err)
	}
	if len(res.Links) == 0 {
		return nil, fmt.Errorf("%s has no per-link loads; write it with: parasol sim MACHINE --op OP --json --link-loads > %s", name, name)
	}
	wl := &wireLoads{source: name, op: res.Op, runs: res.Runs,
		load: make([]float64, 2*g.NumLinks()), util: make([]float64, 2*g.NumLinks()), measured: make([]bool, 2*g.NumLinks())}
	for _, ll := range res.Links {
		if ll.Link < 0 || ll.Link >= g.NumLinks() {
			return nil, fmt.Errorf("%s has loads for link %d, but this topology has %d links; was it simulated on another machine or topology?", name, ll.Link, g.NumLinks())
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
				name, ll.Link, ll.From, ll.To, ll.Link, linkEnds(g, k))
		}
		if !(ll.Util >= 0 && ll.Load >= 0) {
			return nil, fmt.Errorf("%s: link %d from %d to %d has a negative or missing load", name, ll.Link, ll.From, ll.To)
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
func (wl *wireLoads) band(u float64) int {
	if u <= 0 || wl.busiest <= 0 {
		return -1
	}
	return min(int(u/wl.busiest*float64(len(heat))), len(heat)-1)
}

// link is the busier direction of link l: its utilisation, and the
// colour and pen width that show it.
func (wl *wireLoads) link(l int) (util float64, colour string, width float64) {
	util = max(wl.util[2*l], wl.util[2*l+1])
	b := wl.band(util)
	if b < 0 {
		return util, idleColour, 1
	}
	return util, heat[b], 1 + 5*util/wl.busiest
}

// drawing is one topology to draw.
type drawing struct {
	machine string
	t       *eval.Topology
	loads   *wireLoads
}

func (d *drawing) title() string {
	g := d.t.Graph
	procs, switches := g.NumProcs(), g.N()-g.NumProcs()
	nodes := fmt.Sprintf("%d processor%s", procs, plural(procs))
	if switches > 0 {
		nodes = fmt.Sprintf("%d node%s (%s, %d switch%s)", g.N(), plural(g.N()), nodes, switches, pluralEs(switches))
	}
	s := fmt.Sprintf("%s: topology %s%s: %s, %d link%s", d.machine, d.t.Label, generatorCall(g), nodes, g.NumLinks(), plural(g.NumLinks()))
	if wl := d.loads; wl != nil {
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

// writeFull draws every node and link.
func (d *drawing) writeFull(w io.Writer) {
	g, t, wl := d.t.Graph, d.t, d.loads
	fmt.Fprintf(w, "graph %s {\n", dotQuote(d.machine))
	layout := "neato"
	if g.Kind() == topo.Tree {
		layout = "dot"
	}
	fmt.Fprintf(w, "\tgraph [label=%s, labelloc=t, fontname=\"Helvetica\", layout=%s, overlap=false, splines=true];\n", dotQuote(d.title()), layout)
	fmt.Fprint(w, "\tnode [fontname=\"Helvetica\", style=filled];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	grid := g.Kind() == topo.Mesh || g.Kind() == topo.Torus
	dims := g.Dims()
	for v := range int32(g.N()) {
		typ := ""
		if nt := t.NodeTypes[v]; nt != nil {
			typ = " (" + nt.Label + ")"
		}
		attrs := fmt.Sprintf("label=%s, shape=circle, fillcolor=%q, tooltip=%s", dotQuote(strconv.Itoa(g.ID(v))), processorColour,
			dotQuote(fmt.Sprintf("processor %d%s", g.ID(v), typ)))
		if g.NodeKind(v) == topo.Switch {
			attrs = fmt.Sprintf("label=%s, shape=box, fillcolor=%q, tooltip=%s", dotQuote(strconv.Itoa(g.ID(v))), switchColour,
				dotQuote(fmt.Sprintf("switch %d%s", g.ID(v), typ)))
		}
		if grid && len(dims) == 2 {
			// Pinned positions keep a mesh or torus a grid in neato.
			attrs += fmt.Sprintf(", pos=\"%d,%d!\"", int(v)%dims[0], -int(v)/dims[0])
		}
		fmt.Fprintf(w, "\t%s [%s];\n", dotQuote(nodeName(g, v)), attrs)
	}
	for l := range int32(g.NumLinks()) {
		k := g.Link(l)
		tip := fmt.Sprintf("link %d: latency %s, speed %s", l, lang.FormatQuantity(t.Latency[l], lang.TimeDim), lang.FormatQuantity(t.Speed[l], lang.RateDim))
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
			attrs += ", label=" + dotQuote(label)
		}
		attrs += ", tooltip=" + dotQuote(tip)
		switch {
		case k.Multi:
			bus := dotQuote(fmt.Sprintf("bus%d", l))
			fill := busColour
			if wl != nil && colour != idleColour {
				fill = colour
			}
			fmt.Fprintf(w, "\t%s [label=\"bus\", shape=box, style=\"rounded,filled\", fillcolor=%q, tooltip=%s];\n", bus, fill, dotQuote(tip))
			for _, v := range g.Members(l) {
				fmt.Fprintf(w, "\t%s -- %s [%s];\n", dotQuote(nodeName(g, v)), bus, attrs)
			}
		case k.B < 0:
			out := dotQuote(fmt.Sprintf("io%d", l))
			fmt.Fprintf(w, "\t%s [label=\"I/O\", shape=plaintext, style=\"\"];\n", out)
			fmt.Fprintf(w, "\t%s -- %s [%s];\n", dotQuote(nodeName(g, k.A)), out, attrs)
		default:
			fmt.Fprintf(w, "\t%s -- %s [%s];\n", dotQuote(nodeName(g, k.A)), dotQuote(nodeName(g, k.B)), attrs)
		}
	}
	d.writeLegend(w)
	fmt.Fprintln(w, "}")
}

// wireTip describes both directions of link l for its tooltip.
func (d *drawing) wireTip(l int32, k topo.Link) string {
	g, wl := d.t.Graph, d.loads
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

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func percent(u float64) string {
	return strconv.FormatFloat(100*u, 'f', 1, 64) + "%"
}

// writeLegend draws the node kinds and, with loads, the colour bands.
func (d *drawing) writeLegend(w io.Writer) {
	fmt.Fprint(w, "\tlegend [shape=plaintext, style=\"\", label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n")
	fmt.Fprintf(w, "\t\t<tr><td bgcolor=%q>  </td><td align=\"left\">processor</td></tr>\n", processorColour)
	if d.t.Graph.NumProcs() < d.t.Graph.N() {
		fmt.Fprintf(w, "\t\t<tr><td bgcolor=%q>  </td><td align=\"left\">switch</td></tr>\n", switchColour)
	}
	if wl := d.loads; wl != nil {
		fmt.Fprint(w, "\t\t<tr><td colspan=\"2\"><b>link busy (busier direction)</b></td></tr>\n")
		for b := len(heat) - 1; b >= 0; b-- {
			lo, hi := wl.busiest*float64(b)/float64(len(heat)), wl.busiest*float64(b+1)/float64(len(heat))
			fmt.Fprintf(w, "\t\t<tr><td bgcolor=%q>  </td><td align=\"left\">%s – %s</td></tr>\n", heat[b], percent(lo), percent(hi))
		}
		fmt.Fprintf(w, "\t\t<tr><td bgcolor=%q>  </td><td align=\"left\">idle</td></tr>\n", idleColour)
	}
	fmt.Fprint(w, "\t</table>>];\n")
}

// writeSummary draws a large topology as its node kinds and the links
// between them, with a degree histogram: a walk over the nodes and links,
// with no text per edge.
func (d *drawing) writeSummary(w io.Writer) {
	g := d.t.Graph
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
	fmt.Fprintf(w, "graph %s {\n", dotQuote(d.machine))
	title := d.title() + fmt.Sprintf("\nsummary: more than %d nodes; parasol draw --full draws every one", drawSummaryNodes)
	fmt.Fprintf(w, "\tgraph [label=%s, labelloc=t, fontname=\"Helvetica\", layout=dot];\n", dotQuote(title))
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
	if d.loads != nil {
		d.writeBusiest(w)
	}
	fmt.Fprintln(w, "}")
}

// busiestShown is how many of the busiest wires a summary lists.
const busiestShown = 10

// writeBusiest lists the busiest wires of a simulation in a table.
func (d *drawing) writeBusiest(w io.Writer) {
	g, wl := d.t.Graph, d.loads
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

// dotQuote quotes s as a DOT string; \n in s becomes a centred line break.
func dotQuote(s string) string {
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
