package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/internal/slab"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Limits on what a topology may build. Besides these, everything a
// topology allocates is estimated and checked against the machine's memory
// limit (WithMaxMemory) as it is built.
const (
	MaxLinks = 1 << 26
	// MaxLoopIterations bounds the for-loop iterations one topology runs
	// (nested loops count every inner iteration), whatever they build.
	MaxLoopIterations = 10_000_000
)

// Bytes per node and per link of an explicit topology at its peak while it
// is realized: the realizer's lists and id map, the builder's copies and the
// finished graph with each link's latency and speed. Measured with
// runtime.MemStats at about 130 and 240 (100,000-node topologies with one
// to ten links per node); rounded up.
const (
	explicitBytesPerNode = 160
	explicitBytesPerLink = 300
	// A generated topology adds to its graph (topo.Size.Bytes) each
	// link's latency and speed and each node's type (at most: see
	// Topology).
	generatedBytesPerNode = 8
	generatedBytesPerLink = 16
)

// Topology is a machine's topology realized as a graph, with each link's
// latency and speed evaluated and each node's type resolved.
type Topology struct {
	Label string
	Graph *topo.Graph
	// latency (s) and speed (B/s) per link index (LinkLatency,
	// LinkSpeed); one entry each when every link has the same, as a
	// generator's links without a link template have, where an entry a
	// link took 1 MB for std:loggp's 65,536 links.
	latency, speed []float64
	// nodeTypes is the processor or switch block per node index
	// (NodeType); nil while every processor is procType and every switch
	// switchType (a generated topology no node statement retypes), where
	// an entry a node took 0.5 MB for std:loggp's 65,537 nodes.
	nodeTypes            []*NodeType
	procType, switchType *NodeType
	obj                  *object
	m                    *Machine
	hopsCache
}

// LinkLatency is the latency of link l, in seconds.
func (t *Topology) LinkLatency(l int32) float64 {
	if len(t.latency) == 1 {
		return t.latency[0]
	}
	return t.latency[l]
}

// LinkSpeed is the speed of link l, in bytes per second.
func (t *Topology) LinkSpeed(l int32) float64 {
	if len(t.speed) == 1 {
		return t.speed[0]
	}
	return t.speed[l]
}

// NodeType is the processor or switch block node v (a node index) is;
// nil for a node of an explicit topology declared with no type.
func (t *Topology) NodeType(v int32) *NodeType {
	if t.nodeTypes != nil {
		return t.nodeTypes[v]
	}
	if t.Graph.NodeKind(v) == topo.Switch {
		return t.switchType
	}
	return t.procType
}

// NodeType is a processor or switch declaration.
type NodeType struct {
	Kind  string // "processor" or "switch"
	Label string
	obj   *object
}

// Value returns a field of the node type, if it is set: a processor's
// own, or for a NIC field one of the nic block it names (nic = NAME).
func (n *NodeType) Value(name string) (lang.Value, bool) {
	if n == nil {
		return lang.Value{}, false
	}
	f := n.obj.field(name)
	if f == nil && n.Kind == "processor" && isNICField(name) {
		f = n.nicField(name)
	}
	if f == nil || f.decl.IsFunc() {
		return lang.Value{}, false
	}
	return f.val, true
}

// nicField is a field of the nic block the processor names, or nil.
func (n *NodeType) nicField(name string) *field {
	if nic := n.obj.nicBlock(); nic != nil {
		return nic.field(name)
	}
	return nil
}

// nicBlock is the nic block a processor names (nic = NAME), or nil: for
// none, or for a name the resolver reported as naming no nic block.
func (o *object) nicBlock() *object {
	ref := o.field("nic")
	if ref == nil || o.parent == nil {
		return nil
	}
	var label string
	if ref.state == evaluated {
		if ref.failure() != nil {
			return nil
		}
		label = ref.val.Text()
	} else {
		// Not yet evaluated (the resolver asks): a word or a string
		// names the block; a computed name is known once evaluated.
		switch e := ref.decl.Value.(type) {
		case *lang.Ident:
			label = e.Name
		case *lang.StringLit:
			label = e.Value
		default:
			return nil
		}
	}
	return o.parent.child("nic", label)
}

// nicComputed reports whether a processor names its nic block by a value
// the resolver cannot read as a label (nic = a param), so that the block
// is known only once nic is evaluated.
func (o *object) nicComputed() bool {
	ref := o.field("nic")
	if ref == nil || o.parent == nil || ref.state == evaluated || ref.decl.IsFunc() {
		return false
	}
	switch e := ref.decl.Value.(type) {
	case *lang.StringLit:
		return false
	case *lang.Ident:
		return o.parent.child("nic", e.Name) == nil
	}
	return true
}

// Value returns a field of the topology (switching, routing, packet, …).
func (t *Topology) Value(name string) (lang.Value, bool) {
	f := t.obj.field(name)
	if f == nil || f.decl.IsFunc() {
		return lang.Value{}, false
	}
	return f.val, true
}

// Metrics are the topology's distance indexes (topo.Graph.Metrics), with
// the progress of a long measurement reported to the machine's WithProgress
// function. Err says when diameter and average distance are unknown: the
// topology is disconnected or too large to measure by search.
func (t *Topology) Metrics() topo.Metrics {
	var o topo.MetricsOptions
	if f := t.m.loader.opts.progress; f != nil {
		what := "distances of topology " + t.Label
		o.Progress = func(done, total int) { f(what, done, total) }
	}
	return t.Graph.Metrics(context.Background(), o)
}

// Topologies returns the machine's topologies in declaration order: with
// WithTopology, the chosen one alone.
func (m *Machine) Topologies() []*Topology { return m.topos }

// Topology returns a topology by label, or the machine's topology when
// label is "": the one WithTopology chose, else the first.
func (m *Machine) Topology(label string) (*Topology, error) {
	if len(m.topos) == 0 {
		return nil, fmt.Errorf("machine %q has no topology", m.name)
	}
	if label == "" {
		label = m.loader.opts.topology
	}
	if label == "" {
		return m.topos[0], nil
	}
	for _, t := range m.topos {
		if t.Label == label {
			return t, nil
		}
	}
	var labels []string
	for _, o := range m.root.childrenOf("topology") {
		if o.label == label {
			return nil, fmt.Errorf("machine %q was loaded on its topology %s, and its others were not built; OnTopology(%q) gives it on %s", m.name, m.loader.opts.topology, label, label)
		}
		labels = append(labels, o.label)
	}
	return nil, errors.New(noTopology(m.name, label, labels))
}

// NoTopologyError is a WithTopology label that names none of the
// machine's topologies, positioned at the machine's declaration.
type NoTopologyError struct {
	Pos     lang.Pos
	Machine string
	Label   string
	Labels  []string // the machine's topologies, in declaration order
}

// Message is the error without its position: what the command line says
// of its --topology flag.
func (e *NoTopologyError) Message() string { return noTopology(e.Machine, e.Label, e.Labels) }

func (e *NoTopologyError) Error() string { return e.Diagnostic().Error() }

// Diagnostic is the error as check reports it, at the machine.
func (e *NoTopologyError) Diagnostic() *lang.Diagnostic { return lang.Errorf(e.Pos, "%s", e.Message()) }

// noTopology says that machine has no topology label, with the closest
// of labels or, when none is close, all of them.
func noTopology(machine, label string, labels []string) string {
	msg := fmt.Sprintf("machine %q has no topology %s", machine, strconv.Quote(lang.Excerpt(label)))
	switch s := lang.DidYouMean(label, labels); {
	case s != "":
		msg += s
	case len(labels) == 0:
		msg += "; it has none"
	default:
		msg += "; it has " + strings.Join(labels, ", ")
	}
	return msg
}

// checkTopologyChosen is the NoTopologyError of a WithTopology label that
// none of the machine's topology blocks has, found before anything is
// evaluated; nil when the label is one of them or none was given.
func (m *Machine) checkTopologyChosen() error {
	label := m.loader.opts.topology
	if label == "" {
		return nil
	}
	var labels []string
	for _, o := range m.root.childrenOf("topology") {
		if o.label == label {
			return nil
		}
		labels = append(labels, o.label)
	}
	return &NoTopologyError{Pos: m.Pos(), Machine: m.name, Label: label, Labels: labels}
}

// diagnosticOf is err as check lists it: a NoTopologyError at its
// position.
func diagnosticOf(err error) error {
	var nt *NoTopologyError
	if errors.As(err, &nt) {
		return nt.Diagnostic()
	}
	return err
}

func (m *Machine) realizeTopologies() {
	if m.topoState != 0 {
		return
	}
	m.topoState = 1
	for _, o := range m.root.childrenOf("topology") {
		if l := m.loader.opts.topology; l != "" && o.label != l && !m.loader.opts.everyTopology {
			continue // not the machine's topology: not built (WithTopology)
		}
		r := &realizer{m: m, obj: o, links: topo.NewBuilder()}
		t := r.realize()
		if len(r.errs) > 0 {
			m.errs = append(m.errs, r.errs...)
			continue
		}
		m.topos = append(m.topos, t)
	}
	m.topoState = 2
}

type realizer struct {
	m    *Machine
	obj  *object
	errs lang.Diagnostics

	nodes    []int   // node ids, in order of appearance
	ids      idIndex // id → index in nodes
	types    []*NodeType
	explicit []*NodeType   // type given by a node statement (or processortype)
	links    *topo.Builder // the links; the nodes are added once all are known
	lat, spd []float64

	// The budget: the memory limit and what has been built against it,
	// the loop iterations run, and the outermost loop being expanded
	// (where a budget error points). stop ends the expansion.
	maxMemory int64
	bytes     int64
	iters     int64
	outer     *lang.For
	stop      bool
	// declared: the topology has node statements, so a link may only join
	// declared nodes; undeclared holds the first mention of each node a
	// link named before (or without) its declaration.
	declared   bool
	undeclared map[int]lang.Pos

	// Loop variables live in frame slots (slot k is the k-th enclosing
	// loop's), so each expression is compiled once and run per iteration.
	loopVals []lang.Value
	compiled map[lang.Expr]compiledExpr

	memberBuf []int                // see members
	typeOf    map[string]*NodeType // see nodeType
	defaults  *linkDefaults        // see topologyDefaultsQuiet
	// takenReported: a default out of its bound was reported, at the
	// first link that takes it (takenDefaults).
	takenReported bool
}

type compiledExpr struct {
	ce     cexpr
	nslots int
}

func (r *realizer) realize() *Topology {
	t := &Topology{Label: r.obj.label, obj: r.obj, m: r.m}
	r.maxMemory = r.m.MaxMemory()
	def := r.defaultType()
	r.checkPacketFields()
	r.checkNICDefaults()
	if r.obj.gen != nil {
		onlyNodes := len(r.obj.childrenOf("link")) == 0
		for _, s := range r.obj.stmts {
			if _, ok := s.stmt.(*lang.Node); !ok {
				onlyNodes = false
			}
		}
		if !onlyNodes {
			r.errs.Add(r.obj.stmts0Pos(), "a generated topology cannot also list links; use a for loop for anything a generator does not make (node statements may retype its nodes)")
			return nil
		}
		return r.retype(r.generated(t, def))
	}
	legacyLinks := r.obj.childrenOf("link")
	links := len(legacyLinks)
	for _, s := range r.obj.stmts {
		r.declared = r.declared || declaresNodes(s.stmt)
		if _, ok := s.stmt.(*lang.Link); ok {
			links++
		}
	}
	// The links written out one by one are known: the lists are made at
	// their size, rather than grown and copied. (Their syntax already
	// takes more memory than these entries.)
	r.links.Grow(0, links)
	r.lat, r.spd = make([]float64, 0, links), make([]float64, 0, links)
	for _, l := range legacyLinks {
		r.legacyLink(l, def)
	}
	top := &scope{obj: r.obj}
	for _, s := range r.obj.stmts {
		r.stmt(s.stmt, top, def)
		if len(r.errs) > 20 || r.stop {
			break
		}
	}
	r.reportUndeclared()
	if len(r.errs) > 0 {
		return nil
	}
	if len(r.nodes) == 0 {
		r.errs.Add(r.obj.pos, "topology %s has no links and no nodes", r.obj.label)
		return nil
	}
	b := r.links
	b.Grow(len(r.nodes), 0)
	for i, id := range r.nodes {
		if r.types[i] != nil && r.types[i].Kind == "switch" {
			b.Switch(id)
		} else {
			b.Processor(id)
		}
	}
	// Links given one by one that form a hypercube, mesh or torus (or
	// switches that do, with processors attached) are routed and measured
	// as the generated graph; the recognised graph orders its links as
	// the generator does, so the per-link values follow. Recognition
	// needs working lists as long as the graph's, so only within the
	// memory limit.
	recognize := r.bytes+topo.GraphBytes(int64(len(r.nodes)), int64(b.NumLinks())) <= r.maxMemory
	g, order, err := b.BuildRecognized(recognize)
	if err != nil {
		r.errs.Add(r.obj.pos, "topology %s: %v", r.obj.label, err)
		return nil
	}
	t.Graph, t.latency, t.speed = g, r.lat, r.spd
	if order != nil {
		t.latency, t.speed = make([]float64, len(order)), make([]float64, len(order))
		for l, old := range order {
			t.latency[l], t.speed[l] = r.lat[old], r.spd[old]
		}
	}
	t.nodeTypes = make([]*NodeType, g.N())
	for i := range t.nodeTypes {
		k, _ := r.ids.get(g.ID(int32(i)))
		t.nodeTypes[i] = r.types[k]
	}
	return t
}

// packetFields are the topology fields the simulator reads as whole
// numbers, with their bounds (Machine.Spec).
var packetFields = []struct {
	name   string
	lo, hi float64
	unit   string // "bytes", "flits" or "" for a count
	note   string
}{
	{"packet", 0, math.MaxInt32, "bytes", " (0: the whole message is one packet)"},
	{"header", 0, math.MaxInt32, "bytes", ""},
	{"trailer", 0, math.MaxInt32, "bytes", ""},
	{"ack", 0, math.MaxInt32, "bytes", ""},
	{"flit", 1, math.MaxInt32, "bytes", ""},
	{"buffer", 1, math.MaxInt32, "flits", ""},
	{"vcs", 1, topo.MaxChannels, "", " (lanes per wire)"},
	{"window", 0, math.MaxInt32, "", " (0: no acknowledgements)"},
}

// checkPacketFields reports, at each field, a packet or flow-control field
// that is not a whole number within its bounds.
func (r *realizer) checkPacketFields() {
	for _, pf := range packetFields {
		f := r.obj.field(pf.name)
		if f == nil || f.decl.IsFunc() {
			continue
		}
		v := r.val(f)
		if f.failure() != nil || v.Kind != lang.Number {
			continue // already reported (the schema checks the kind and unit)
		}
		of := ""
		if pf.unit != "" {
			of = " of " + pf.unit
		}
		pos := f.decl.Value.ExprPos()
		switch {
		case v.Num != math.Trunc(v.Num) || v.Num < pf.lo:
			r.errs.Add(pos, "%s must be a whole number%s ≥ %s%s, got %s", pf.name, of, lang.FormatNumber(pf.lo), pf.note, v)
		case v.Num > pf.hi:
			unit := ""
			if pf.unit != "" {
				unit = " " + pf.unit
			}
			r.errs.Add(pos, "%s must be at most %s%s%s, got %s", pf.name, lang.FormatNumber(pf.hi), unit, pf.note, v)
		}
	}
}

// linkChannels checks a link's channels field: the lanes of its wires.
func (r *realizer) linkChannels(v lang.Value, pos lang.Pos) (int, bool) {
	if v.Num != math.Trunc(v.Num) || v.Num < 1 || v.Num > topo.MaxChannels {
		r.errs.Add(pos, "channels must be a whole number from 1 to %d (lanes per wire), got %s", topo.MaxChannels, v)
		return 0, false
	}
	return int(v.Num), true
}

func (o *object) stmts0Pos() lang.Pos {
	if len(o.stmts) > 0 {
		return o.stmts[0].stmt.StmtPos()
	}
	return o.pos
}

// defaultType is the node type of the topology's `node` field, or the first
// processor declared.
func (r *realizer) defaultType() *NodeType {
	if f := r.obj.field("node"); f != nil {
		label := r.val(f).Text()
		nt := r.m.nodeType(label)
		if nt == nil && f.failure() == nil {
			r.errs.Add(f.decl.Value.ExprPos(), "no processor or switch %q%s", label, lang.DidYouMean(label, r.m.nodeTypeLabels()))
		}
		return nt
	}
	if ps := r.m.root.childrenOf("processor"); len(ps) > 0 {
		return &NodeType{Kind: "processor", Label: ps[0].label, obj: ps[0]}
	}
	return nil
}

// switchType is the node type of the switches a generator makes: the
// topology's `switch` field, or the first switch declared; nil (a switch
// of no delay) when the machine declares none.
func (r *realizer) switchType() *NodeType {
	if f := r.obj.field("switch"); f != nil {
		label := r.val(f).Text()
		if o := r.m.root.child("switch", label); o != nil {
			return &NodeType{Kind: "switch", Label: label, obj: o}
		}
		return nil // reported by the resolver
	}
	if ss := r.m.root.childrenOf("switch"); len(ss) > 0 {
		return &NodeType{Kind: "switch", Label: ss[0].label, obj: ss[0]}
	}
	return nil
}

func (m *Machine) nodeType(label string) *NodeType {
	for _, kind := range []string{"processor", "switch"} {
		if o := m.root.child(kind, label); o != nil {
			return &NodeType{Kind: kind, Label: label, obj: o}
		}
	}
	return nil
}

// labelsOf lists the labels of the machine's blocks of a kind.
func (m *Machine) labelsOf(kind string) []string {
	var out []string
	for _, c := range m.root.childrenOf(kind) {
		out = append(out, c.label)
	}
	return out
}

func (m *Machine) nodeTypeLabels() []string {
	var out []string
	for _, c := range m.root.children {
		if c.kind == "processor" || c.kind == "switch" {
			out = append(out, c.label)
		}
	}
	return out
}

func (r *realizer) generated(t *Topology, def *NodeType) *Topology {
	gen := r.obj.gen
	name, ok := gen.Fn.(*lang.Ident)
	if !ok {
		r.errs.Add(gen.Pos, "expected a generator name such as hypercube")
		return nil
	}
	spec, known := registry.LookupGenerator(name.Name)
	if !known {
		r.errs.Add(name.Pos, "unknown topology generator %s%s", name.Name, lang.DidYouMean(name.Name, registry.GeneratorNames()))
		return nil
	}
	var args []int
	for i, a := range gen.Args {
		if w, ok := generatorWord(spec, i, a); ok {
			args = append(args, w)
			continue
		}
		n, ok := r.count(a, &scope{obj: r.obj})
		if !ok {
			return nil
		}
		args = append(args, n)
	}
	size, err := topo.Plan(name.Name, args)
	if err == nil {
		need := size.Bytes() + limits.Mul(size.Nodes, generatedBytesPerNode) + limits.Mul(size.Links, generatedBytesPerLink)
		err = limits.Check(size.Call, max(need, 0), r.maxMemory)
	}
	var g *topo.Graph
	if err == nil {
		g, err = topo.Generate(name.Name, args, topo.GenerateOptions{MaxMemory: r.maxMemory})
	}
	if err != nil {
		r.errs.Add(gen.Pos, "%v", err)
		return nil
	}
	t.Graph = g
	t.procType, t.switchType = def, def
	if g.NumProcs() < g.N() { // the generator made switches
		t.switchType = r.switchType()
	}
	props, same := r.linkProps()
	if props == nil {
		return nil
	}
	if same && g.NumLinks() > 0 {
		// The topology's latency and speed, no template: every link's.
		lat, spd, _ := props(0, 0, 0)
		t.latency, t.speed = []float64{lat}, []float64{spd}
		return t
	}
	t.latency = make([]float64, g.NumLinks())
	t.speed = make([]float64, g.NumLinks())
	for i := range t.latency {
		l := g.Link(int32(i))
		lat, spd, err := props(int(l.Dim), g.ID(l.A), g.ID(l.B))
		if err != nil {
			r.errs.Append(err)
			return nil
		}
		t.latency[i], t.speed[i] = lat, spd
	}
	return t
}

// retype applies a generated topology's node statements, `node A .. B =
// TYPE`: the nodes the generator made with those ids take that type (a
// processor type on processors, a switch type on switches), so that the
// levels of a fat tree, say, can be different switches.
func (r *realizer) retype(t *Topology) *Topology {
	if t == nil {
		return nil
	}
	g := t.Graph
	for _, st := range r.obj.stmts {
		s := st.stmt.(*lang.Node)
		sc := &scope{obj: r.obj}
		from, ok := r.count(s.From, sc)
		if !ok {
			continue
		}
		to := from
		if s.To != nil {
			if to, ok = r.count(s.To, sc); !ok {
				continue
			}
		}
		typ := r.nodeType(s.Type)
		switch {
		case typ == nil:
			r.errs.Add(s.TypePos, "no processor or switch %q%s", s.Type, lang.DidYouMean(s.Type, r.m.nodeTypeLabels()))
			continue
		case from < 0 || to >= g.N() || from > to:
			r.errs.Add(s.Pos, "node %d .. %d: %s makes nodes 0 .. %d", from, to, format.Expr(r.obj.gen), g.N()-1)
			continue
		}
		want := topo.Processor
		if typ.Kind == "switch" {
			want = topo.Switch
		}
		if t.nodeTypes == nil {
			// A node of its own type: every node's is kept from here on.
			types := make([]*NodeType, g.N())
			for v := range types {
				types[v] = t.NodeType(int32(v))
			}
			t.nodeTypes = types
		}
		for v := from; v <= to; v++ {
			if k := g.NodeKind(int32(v)); k != want {
				r.errs.Add(s.TypePos, "node %d is a %v of %s, and %s is a %s type", v, k, format.Expr(r.obj.gen), s.Type, typ.Kind)
				break
			}
			t.nodeTypes[v] = typ
		}
	}
	if len(r.errs) > 0 {
		return nil
	}
	return t
}

// linkProps compiles the link template (or the topology's latency and speed
// fields) into a function of (dimension, source, destination); same says
// it gives every link the same (there is no template).
func (r *realizer) linkProps() (props func(dim, a, b int) (float64, float64, error), same bool) {
	tmpl := r.obj.template
	if tmpl == nil {
		lat, spd, ok := r.topologyDefaults(r.obj.pos)
		if !ok {
			return nil, false
		}
		return func(int, int, int) (float64, float64, error) { return lat, spd, nil }, true
	}
	var nslots int
	sc := &scope{obj: r.obj, locals: map[string]local{}, nslots: &nslots}
	for i, p := range tmpl.Params {
		sc.locals[p.Name] = local{slot: i, known: true, kind: lang.Number}
	}
	nslots = len(tmpl.Params)
	c := &compiler{m: r.m}
	fields := map[string]cexpr{}
	exprs := map[string]lang.Expr{}
	for _, s := range tmpl.Body {
		f, ok := s.(*lang.Field)
		if !ok || f.IsFunc() || !linkField(f.Name) {
			r.errs.Add(s.StmtPos(), "a link template holds latency, speed, channels and io%s", lang.DidYouMean(fieldNameOf(s), []string{"latency", "speed", "channels", "io"}))
			continue
		}
		ce, err := c.compile(f.Value, sc)
		if err != nil {
			r.errs.Append(unwrapDep(err))
			continue
		}
		fields[canonicalLink(f.Name)] = ce
		exprs[canonicalLink(f.Name)] = f.Value
	}
	if len(r.errs) > 0 {
		return nil, false
	}
	defLat, defSpd, _ := r.topologyDefaultsQuiet()
	latC, hasLat := fields["latency"]
	spdC, hasSpd := fields["speed"]
	if !hasSpd && defSpd == 0 {
		r.errs.Add(tmpl.Pos, "links need a speed: set speed in the link template or the topology")
		return nil, false
	}
	legacy := r.obj.templateLegacy
	return func(dim, a, b int) (float64, float64, error) {
		fr := r.m.getFrame()
		defer r.m.putFrame(fr)
		grow(fr, nslots)
		args := [3]float64{float64(dim), float64(a), float64(b)}
		for i := 0; i < len(tmpl.Params); i++ {
			fr.stack[i] = lang.Num(args[i])
		}
		lat, spd := defLat, defSpd
		if hasLat {
			v, err := runField(fr, latC, "latency", tTime, legacy, tmpl.Pos)
			if err != nil {
				return 0, 0, err
			}
			lat = v
		}
		if hasSpd {
			v, err := runField(fr, spdC, "speed", tRate, legacy, tmpl.Pos)
			if err != nil {
				return 0, 0, err
			}
			spd = v
		}
		// The topology's own latency and speed were held to their bounds
		// at their fields; the template's are found link by link.
		var out lang.Diagnostics
		for _, f := range [2]struct {
			name  string
			given bool
			v     lang.Value
		}{{"latency", hasLat, lang.Quantity(lat, lang.TimeDim)}, {"speed", hasSpd, lang.Quantity(spd, lang.RateDim)}} {
			if !f.given {
				continue
			}
			if msg := boundMessage("link", f.name, linkFieldType(f.name), f.v); msg != "" {
				out = append(out, errAt(exprs[f.name], "link %d -- %d (dimension %d): %s", a, b, dim, msg))
			}
		}
		if len(out) > 0 {
			return 0, 0, out
		}
		if spd <= 0 || math.IsNaN(spd) {
			return 0, 0, lang.Errorf(tmpl.Pos, "link %d -- %d (dimension %d) has speed %s; it must be positive", a, b, dim, lang.FormatQuantity(spd, lang.RateDim))
		}
		return lat, spd, nil
	}, false
}

func fieldNameOf(s lang.Stmt) string {
	if f, ok := s.(*lang.Field); ok {
		return f.Name
	}
	return ""
}

func linkField(name string) bool {
	switch canonicalLink(name) {
	case "latency", "speed", "channels", "io", "dim", "procs_connected":
		return true
	}
	return false
}

// linkFieldTypes are the schema types of the fields a link holds
// (linkField), found once rather than for each link of a file.
var linkFieldTypes = func() (t [6]struct {
	name string
	typ  fieldType
}) {
	for i, n := range []string{"latency", "speed", "channels", "io", "dim", "procs_connected"} {
		t[i].name, t[i].typ = n, fieldTypeOf("link", n)
	}
	return t
}()

// linkFieldType is fieldTypeOf("link", name) for a canonical name.
func linkFieldType(name string) fieldType {
	for _, f := range linkFieldTypes {
		if f.name == name {
			return f.typ
		}
	}
	return fieldTypeOf("link", name)
}

func canonicalLink(name string) string {
	switch name {
	case "linklatency", "linkspeed", "linkio": // the keys of linkAliases
		return linkAliases[name]
	}
	return name
}

// runField runs a compiled link property and checks its dimension.
func runField(fr *frame, ce cexpr, name string, t fieldType, legacy bool, pos lang.Pos) (float64, error) {
	v := ce.run(fr)
	if fr.err != nil {
		return 0, fr.err
	}
	want, _ := t.dim()
	if v.Kind == lang.Number && v.Dim == lang.Dimensionless && legacy {
		return v.Num * t.legacyScale(), nil
	}
	if v.Kind != lang.Number || v.Dim != want {
		return 0, lang.Errorf(pos, "link %s must be a %s, got a %s", name, t, v.TypeName())
	}
	return v.Num, nil
}

// topologyDefaultsQuiet is the topology's latency and speed for links
// that do not set their own (ok: it has a speed). Every explicit link asks,
// so the answer is kept once it is found without error.
func (r *realizer) topologyDefaultsQuiet() (lat, spd float64, ok bool) {
	if d := r.defaults; d != nil {
		return d.lat, d.spd, d.ok
	}
	errs := len(r.errs)
	lat, spd, ok = r.findTopologyDefaults()
	if len(r.errs) == errs {
		r.defaults = &linkDefaults{lat, spd, ok}
	}
	return lat, spd, ok
}

type linkDefaults struct {
	lat, spd float64
	ok       bool
}

func (r *realizer) findTopologyDefaults() (lat, spd float64, ok bool) {
	if v, found := r.topoValue("latency"); found {
		lat = v.Num
	}
	if v, found := r.topoValue("speed"); found {
		spd, ok = v.Num, true
	}
	return
}

func (r *realizer) topologyDefaults(pos lang.Pos) (float64, float64, bool) {
	lat, spd, ok := r.topologyDefaultsQuiet()
	if !ok {
		r.errs.Add(pos, "topology %s: links need a speed; set speed = … in the topology or a link template link(d) { speed = … }", r.obj.label)
	}
	return lat, spd, ok
}

func (r *realizer) topoValue(name string) (lang.Value, bool) {
	f := r.obj.field(name)
	if f == nil || f.decl.IsFunc() {
		return lang.Value{}, false
	}
	v := r.val(f)
	return v, f.failure() == nil
}

// val is a field's value, evaluated now if need be (a derived index can
// realize topologies before every field was evaluated).
func (r *realizer) val(f *field) lang.Value {
	v, err := r.m.value(f, lang.Pos{})
	if err != nil && !isDep(err) {
		r.errs.Append(err)
	}
	return v
}

// maxCount is the largest count (a generator's argument, a loop's bound, a
// node id) a topology takes.
const maxCount = 1 << 40

// count evaluates a whole, non-negative plain number.
func (r *realizer) count(e lang.Expr, sc *scope) (int, bool) {
	v, err := r.eval(e, sc)
	if err != nil {
		r.errs.Append(err)
		return 0, false
	}
	if v.Kind == lang.Number && v.Dim == lang.Dimensionless && math.Abs(v.Num) > maxCount {
		text := lang.FormatNumber(v.Num)
		if v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1e15 {
			text = strconv.FormatFloat(v.Num, 'f', -1, 64) // every digit of a count just past the limit
		}
		if v.Num > 0 {
			r.errs.Add(e.ExprPos(), "%s is too large: a count or node id is at most %d (2^40)", text, maxCount)
		} else {
			r.errs.Add(e.ExprPos(), "%s is too small: a count or node id is at least -%d (-2^40)", text, maxCount)
		}
		return 0, false
	}
	if v.Kind != lang.Number || v.Dim != lang.Dimensionless || v.Num != math.Trunc(v.Num) {
		r.errs.Add(e.ExprPos(), "expected a whole number, got %s", v)
		return 0, false
	}
	return int(v.Num), true
}

func (r *realizer) eval(e lang.Expr, sc *scope) (lang.Value, error) {
	// Most of what explicit links hold is numbers: they need not be
	// compiled and remembered one by one.
	if v, ok := literal(e); ok {
		return v, nil
	}
	c, ok := r.compiled[e]
	if !ok {
		// An expression is always reached through the same loops, so its
		// compiled form (with the loop variables' slots) serves every
		// iteration. Outside loops an expression runs once: remembering
		// it would only grow the table.
		n := len(r.loopVals)
		sc2 := &scope{obj: sc.obj, locals: sc.locals, parent: sc.parent, nslots: &n}
		ce, err := (&compiler{m: r.m}).compile(e, sc2)
		if err != nil {
			return lang.Value{}, unwrapDep(err)
		}
		c = compiledExpr{ce, n}
		if len(r.loopVals) > 0 {
			if r.compiled == nil {
				r.compiled = map[lang.Expr]compiledExpr{}
			}
			r.compiled[e] = c
		}
	}
	if c.ce.konst {
		return c.ce.val, nil
	}
	fr := r.m.getFrame()
	defer r.m.putFrame(fr)
	grow(fr, c.nslots)
	copy(fr.stack[fr.base:], r.loopVals)
	v := c.ce.run(fr)
	if fr.err != nil {
		return v, fr.err
	}
	return v, nil
}

// node registers a node id, with its type when given. at is where the id
// is written, asked only for a message: finding a Parasol I line's
// position means reading its syntax again, from memory long out of cache.
func (r *realizer) node(id int, typ *NodeType, explicit bool, at func() lang.Pos) {
	i, seen := r.ids.get(id)
	if !seen {
		if r.stop || r.bytes+explicitBytesPerNode > r.maxMemory {
			if !r.spend(explicitBytesPerNode, at()) {
				return
			}
		} else {
			r.bytes += explicitBytesPerNode
		}
		if r.declared && !explicit {
			if r.undeclared == nil {
				r.undeclared = map[int]lang.Pos{}
			}
			r.undeclared[id] = at()
		}
		i = len(r.nodes)
		r.ids.set(id, i)
		r.nodes = slab.Push(r.nodes, id)
		r.types = slab.Push(r.types, typ)
		var declared *NodeType
		if explicit {
			declared = typ
		}
		r.explicit = slab.Push(r.explicit, declared)
	}
	if explicit {
		prev := r.explicit[i]
		if prev != nil && prev.Label != typ.Label {
			r.errs.Add(at(), "node %d is declared both %s and %s", id, prev.Label, typ.Label)
			return
		}
		// Written only when it changes: a Parasol I link names the type
		// of both its ends, and storing a pointer costs the collector's
		// barrier while it runs, as it does through most of a large load.
		if prev != typ {
			r.types[i], r.explicit[i] = typ, typ
		}
		delete(r.undeclared, id)
	}
}

// spend adds bytes to what the topology has built and reports whether that
// is still within the memory limit; if not, it records the error (at the
// outermost loop being expanded, else at pos) and stops the expansion.
func (r *realizer) spend(bytes int64, pos lang.Pos) bool {
	if r.stop {
		return false
	}
	if r.bytes += bytes; r.bytes <= r.maxMemory {
		return true
	}
	what := fmt.Sprintf("topology %s (%d nodes and %d links so far)", r.obj.label, len(r.nodes), r.links.NumLinks())
	if r.outer != nil {
		pos = r.outer.Pos
		what = fmt.Sprintf("this loop (%d nodes and %d links so far in topology %s)", len(r.nodes), r.links.NumLinks(), r.obj.label)
	}
	r.errs.Add(pos, "%s", &limits.TooLarge{What: what, Need: r.bytes, Limit: r.maxMemory})
	r.stop = true
	return false
}

// declaresNodes reports whether a topology statement is or holds a node
// statement.
func declaresNodes(s lang.Stmt) bool {
	switch s := s.(type) {
	case *lang.Node:
		return true
	case *lang.For:
		return slices.ContainsFunc(s.Body, declaresNodes)
	case *lang.If:
		return slices.ContainsFunc(s.Then, declaresNodes) || slices.ContainsFunc(s.Else, declaresNodes)
	}
	return false
}

// reportUndeclared reports the links to nodes no node statement declared,
// in a topology that declares its nodes: a mistyped id would otherwise
// silently add a node.
func (r *realizer) reportUndeclared() {
	if len(r.undeclared) == 0 {
		return
	}
	ids := make([]int, 0, len(r.undeclared))
	for id := range r.undeclared {
		ids = append(ids, id)
	}
	// By place, and at one place (a loop) in the order first named: the
	// map's order would change from load to load.
	slices.SortFunc(ids, func(a, b int) int {
		if d := r.undeclared[a].Offset - r.undeclared[b].Offset; d != 0 {
			return d
		}
		i, _ := r.ids.get(a)
		j, _ := r.ids.get(b)
		return i - j
	})
	var declared []int
	for i, id := range r.nodes {
		if r.explicit[i] != nil {
			declared = append(declared, id)
		}
	}
	slices.Sort(declared)
	const most = 10
	for k, id := range ids {
		if k == most {
			r.errs.Add(r.undeclared[id], "and %d more links to undeclared nodes in topology %s", len(ids)-most, r.obj.label)
			break
		}
		r.errs.Add(r.undeclared[id], "link to node %d, which is not declared in topology %s; declared: %s", id, r.obj.label, topo.IDRanges(declared))
	}
}

func (r *realizer) legacyLink(l *object, def *NodeType) {
	spec := topo.LinkSpec{Dim: -1, Members: r.members(len(l.ends))[:0]}
	for i, e := range l.ends {
		if e.number == nil {
			r.errs.Add(e.typ.decl.Pos, "link %s: processortype%d has no processornumber after it", l.label, i)
			return
		}
		id := int(r.val(e.number).Num)
		typ := def
		explicit := false
		if e.typ != nil {
			label := labelOf(r.val(e.typ))
			typ = r.nodeType(label)
			if typ == nil {
				r.errs.Add(e.typ.decl.Value.ExprPos(), "link %s: no processor %s%s", l.label, label, lang.DidYouMean(label, r.m.nodeTypeLabels()))
				return
			}
			explicit = true
		}
		r.node(id, typ, explicit, e.number.pos)
		spec.Members = append(spec.Members, id)
	}
	if f := l.field("procs_connected"); f != nil && int(r.val(f).Num) != len(l.ends) {
		r.errs.Add(f.decl.Value.ExprPos(), "link %s: procs_connected = %s but %d processors are listed", l.label, lang.FormatNumber(r.val(f).Num), len(l.ends))
		return
	}
	if len(spec.Members) == 0 {
		r.errs.Add(l.pos, "link %s connects no processors: give processortype0/processornumber pairs", l.label)
		return
	}
	if f := l.field("io"); f != nil {
		spec.IO = r.val(f).Truth()
	}
	if f := l.field("channels"); f != nil {
		ch, ok := r.linkChannels(r.val(f), f.decl.Value.ExprPos())
		if !ok {
			return
		}
		spec.Channels = ch
	}
	lat, spd, _ := r.topologyDefaultsQuiet()
	latF, spdF := l.field("latency"), l.field("speed")
	if !r.defaultsHold(latF == nil, spdF == nil) {
		r.errs.Append(r.takenDefaults(latF == nil, spdF == nil, "link "+l.label, "it sets no link%s of its own"))
		return
	}
	if latF != nil {
		lat = r.val(latF).Num
	}
	if f := spdF; f != nil {
		v, err := r.m.value(f, lang.Pos{})
		if err != nil {
			if !isDep(err) {
				r.errs.Append(err)
			}
			return // the error at the field says why the link has no speed
		}
		spd = v.Num
	}
	if spd <= 0 {
		r.errs.Add(l.pos, "link %s needs a positive linkspeed", l.label)
		return
	}
	r.addLink(spec, lat, spd, l.pos)
}

// members returns room for a link's n node ids, valid until the next
// call: the Builder keeps its own copy of each link's members.
func (r *realizer) members(n int) []int {
	if cap(r.memberBuf) < n {
		r.memberBuf = make([]int, n)
	}
	return r.memberBuf[:n]
}

// nodeType is m.nodeType, made once per label for the topology: a Parasol
// I link names the type of each of its ends.
func (r *realizer) nodeType(label string) *NodeType {
	if nt, ok := r.typeOf[label]; ok {
		return nt
	}
	nt := r.m.nodeType(label)
	if r.typeOf == nil {
		r.typeOf = map[string]*NodeType{}
	}
	r.typeOf[label] = nt
	return nt
}

func (r *realizer) addLink(spec topo.LinkSpec, lat, spd float64, pos lang.Pos) {
	if !r.spend(explicitBytesPerLink, pos) {
		return
	}
	if r.links.NumLinks() >= MaxLinks {
		if r.links.NumLinks() == MaxLinks {
			r.errs.Add(pos, "more than %d links", MaxLinks)
		}
		return
	}
	r.links.Link(spec)
	r.lat = append(r.lat, lat)
	r.spd = append(r.spd, spd)
}

// stmt expands a modern topology statement: link, bus, node, for, if.
func (r *realizer) stmt(s lang.Stmt, sc *scope, def *NodeType) {
	if len(r.errs) > 20 || r.stop {
		return
	}
	switch s := s.(type) {
	case *lang.Node:
		from, ok := r.count(s.From, sc)
		if !ok {
			return
		}
		to := from
		if s.To != nil {
			if to, ok = r.count(s.To, sc); !ok {
				return
			}
		}
		typ := r.m.nodeType(s.Type)
		if typ == nil {
			r.errs.Add(s.TypePos, "no processor or switch %q%s", s.Type, lang.DidYouMean(s.Type, r.m.nodeTypeLabels()))
			return
		}
		if n := int64(to) - int64(from) + 1; n > 1 {
			// Known before expanding: refuse the whole range at once.
			if need := limits.Add(r.bytes, limits.Mul(n, explicitBytesPerNode)); need > r.maxMemory {
				pos := s.Pos
				what := fmt.Sprintf("node %d .. %d (%d nodes) in topology %s", from, to, n, r.obj.label)
				if r.outer != nil {
					pos = r.outer.Pos
					what = fmt.Sprintf("this loop (at node %d .. %d, %d nodes, in topology %s)", from, to, n, r.obj.label)
				}
				r.errs.Add(pos, "%s", &limits.TooLarge{What: what, Need: need, Limit: r.maxMemory})
				r.stop = true
				return
			}
		}
		for id := from; id <= to && !r.stop; id++ {
			r.node(id, typ, true, func() lang.Pos { return s.Pos })
		}
	case *lang.Link:
		spec := topo.LinkSpec{Dim: -1, Members: r.members(len(s.Ends))}
		for i, e := range s.Ends {
			id, ok := r.count(e, sc)
			if !ok {
				return
			}
			r.node(id, def, false, e.ExprPos)
			spec.Members[i] = id
		}
		lat, spd, _ := r.topologyDefaultsQuiet()
		setLat, setSpd := false, false
		for _, b := range s.Body {
			f, ok := b.(*lang.Field)
			if !ok || f.IsFunc() || !linkField(f.Name) {
				r.errs.Add(b.StmtPos(), "a link holds latency, speed, channels, io and dim%s", lang.DidYouMean(fieldNameOf(b), []string{"latency", "speed", "channels", "io", "dim"}))
				return
			}
			v, err := r.eval(f.Value, sc)
			if err != nil {
				r.errs.Append(err)
				return
			}
			name := canonicalLink(f.Name)
			t := linkFieldType(name)
			want, hasDim := t.dim()
			if t == tBool {
				spec.IO = v.Truth()
				continue
			}
			if v.Kind != lang.Number || hasDim && v.Dim != want {
				r.errs.Add(f.Value.ExprPos(), "link %s must be a %s, got a %s", name, t, v.TypeName())
				return
			}
			if err := checkBound("link", name, t, v, f.Value); err != nil {
				r.errs.Append(err)
				return
			}
			switch name {
			case "latency":
				lat, setLat = v.Num, true
			case "speed":
				spd, setSpd = v.Num, true
			case "channels":
				if spec.Channels, ok = r.linkChannels(v, f.Value.ExprPos()); !ok {
					return
				}
			case "dim":
				spec.Dim = int(v.Num)
			}
		}
		if !r.defaultsHold(!setLat, !setSpd) {
			r.errs.Append(r.takenDefaults(!setLat, !setSpd, linkName(s, spec.Members), "it sets no %s of its own"))
			return
		}
		if spd <= 0 {
			r.errs.Add(s.Pos, "link needs a positive speed: set speed in the link or the topology")
			return
		}
		r.addLink(spec, lat, spd, s.Pos)
	case *lang.For:
		from, ok1 := r.count(s.From, sc)
		to, ok2 := r.count(s.To, sc)
		if !ok1 || !ok2 {
			return
		}
		// A loop's length is known before it runs: the iterations of all
		// loops of the topology, nested ones included, are reserved at
		// entry against one bound.
		n := max(int64(to)-int64(from)+1, 0)
		if r.iters+n > MaxLoopIterations {
			if r.outer == nil {
				r.errs.Add(s.Pos, "this loop runs %d iterations; the bound is %d loop iterations per topology", n, MaxLoopIterations)
			} else {
				r.errs.Add(r.outer.Pos, "these nested loops run more than %d iterations in topology %s, the bound on loop iterations per topology", MaxLoopIterations, r.obj.label)
			}
			r.stop = true
			return
		}
		r.iters += n
		if r.outer == nil {
			r.outer = s
			defer func() { r.outer = nil }()
		}
		slot := len(r.loopVals)
		inner := &scope{obj: sc.obj, parent: sc, locals: map[string]local{s.Var: {slot: slot, known: true, kind: lang.Number}}}
		r.loopVals = append(r.loopVals, lang.Value{})
		for i := from; i <= to && len(r.errs) == 0 && !r.stop; i++ {
			r.loopVals[slot] = lang.Num(float64(i))
			for _, b := range s.Body {
				r.stmt(b, inner, def)
			}
		}
		r.loopVals = r.loopVals[:slot]
	case *lang.If:
		c, err := r.eval(s.Cond, sc)
		if err != nil {
			r.errs.Append(err)
			return
		}
		if c.Kind != lang.Bool {
			r.errs.Add(s.Cond.ExprPos(), "the condition of if must be a bool, got a %s", c.TypeName())
			return
		}
		body := s.Else
		if c.Truth() {
			body = s.Then
		}
		for _, b := range body {
			r.stmt(b, sc, def)
		}
	default:
		r.errs.Add(s.StmtPos(), "only link, bus, node, for and if statements build a topology")
	}
}
