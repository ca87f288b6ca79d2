package runtime

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

type routeKind uint8

const (
	rStatic routeKind = iota
	rLeastUsed
	rRandom
	rQuiet
	rShortQueue
	rFirstReady
	rValiant
	rTree
	rCustom
	rAcyclic
	rSwitched  // by rule on a switched graph (route_switched.go)
	rHotPotato // deflection (route_deflect.go)
)

// network is the read-only compiled form of a Spec, shared by all workers.
type network struct {
	g      *topo.Graph
	spec   *Spec
	sw     Switching
	arb    Arbitration
	rk     routeKind
	custom RouteFunc
	acyc   *acyclicTables // acyclic routing (route_acyclic.go)
	swr    *switchedRoute // switched routing (route_switched.go)
	// core is the regular network routed by rule (topo.Graph.Core), of
	// sides dims; attached is set when processors hang off its switches.
	core     topo.Core
	attached bool
	// rankCore: processor rank r hangs off core label r (rankIsLabel).
	rankCore bool
	dims     []int32
	axes     []axis // dims with their strides, for coordinates by multiplication
	lanes    int32  // lanes per wire
	// shareWire: a wire has more than one lane, and lanes busy at once
	// share its bandwidth (kernel_sim.go's shareWire).
	shareWire bool
	// softRoute: some node routes in software (NodeParams.RouteFixed and
	// the rest), which arrive asks of a node only then.
	softRoute bool
	// hopDelay: some node's HopDelay is not 0 (arrivePlain takes only
	// hops without one).
	hopDelay bool
	// credits: wormhole lanes under credit flow control (Spec.Credits),
	// with buffers of bufFlits flits of flitBytes.
	credits bool
	// islip: the switch allocator is iSLIP's (Spec.Allocator), under
	// credits on shared wires (switch_alloc.go).
	islip              bool
	bufFlits, flitSize int64
	// roomBytes is the largest packet, in bytes, that fits a lane's
	// buffer with room to spare ((bufFlits - 1) flits), and bufBytes the
	// largest that fits it: roomFor and credits compare sizes with them
	// rather than count flits by a division a hop.
	roomBytes, bufBytes int64
	// nodePs is, where nodes share their parameters by kind (Spec.NodeOf),
	// each node's, looked up once: a hop reads a node's three or four
	// times, each through NodeOf's two slices, 1.3% of the instructions of
	// a switched network's load curve. Nil otherwise (nodeP reads the
	// spec, whose one or per-node parameters are a step away).
	nodePs   []*NodeParams
	dateline bool // torus dimension-order routing: lanes split before/after the wrap link
	// splitTies: dimension order on a torus with an even side, where a
	// packet exactly half way round takes either way (at random).
	splitTies bool
	phased    bool // Valiant: lanes split between the two phases
	// viaSwitch: Valiant's intermediate is one of the core's switches
	// (nodes 0..core.Nodes-1), as the C104's two-phase routing sends a
	// packet to a random switch; otherwise a random processor.
	viaSwitch bool
	classes   int32 // lane classes (1, 2 or 4)
	// classLo[c] is where class c's lanes start among a wire's (c·lanes /
	// classes), worked out once rather than divided out at every hop.
	classLo [5]int32
	nprocs  int
	// maxMemory bounds routing tables (0 means limits.Default()).
	maxMemory int64
	// links are the links' parameters, or nil when all are link0.
	links []LinkParams
	link0 LinkParams
	// buses: some link has more than two members (topo.Link.Multi).
	buses bool

	// dist[rank(dst)][node] for graphs without a distance rule.
	dist [][]int32
	// BFS spanning tree from node 0, for "tree" routing.
	parent, parentLink, depth []int32
	treeRoot                  int32
	treeOrder                 []int32 // nodes in BFS order from treeRoot

	// rule, when set, numbers links by rule (net_rule.go); ruleN is N.
	rule  linkRule
	ruleN int32
	// star: the graph is a star around switch hub (topo.Graph.Hub),
	// routed by rule, processor to hub to processor, with no tables.
	star bool
	hub  int32
}

// tableLimit bounds the routing tables of graphs without a rule
// (processors × nodes entries).
const tableLimit = 1 << 27

// compile builds the network of spec for a routing and switching ("" for
// spec's own) with a memory limit for routing tables (0 means
// limits.Default()).
func compile(spec *Spec, routing, switching string, maxMemory int64) (*network, error) {
	if spec == nil || spec.Graph == nil {
		return nil, errors.New("the spec has no graph")
	}
	g := spec.Graph
	n := &network{g: g, spec: spec, sw: spec.Switching, arb: spec.Arbitration, nprocs: g.NumProcs(), maxMemory: maxMemory}
	if switching != "" {
		sw, err := ParseSwitching(switching)
		if err != nil {
			return nil, err
		}
		n.sw = sw
	}
	if n.sw > Circuit {
		return nil, fmt.Errorf("invalid switching %d", n.sw)
	}
	if err := spec.checkNodes(g.N()); err != nil {
		return nil, err
	}
	if len(spec.Links) != 0 && len(spec.Links) != g.NumLinks() {
		return nil, fmt.Errorf("%d link parameter sets for %d links", len(spec.Links), g.NumLinks())
	}
	checkLink := func(what string, p LinkParams) error {
		if !(p.Bandwidth > 0) || p.Latency < 0 {
			return fmt.Errorf("%s needs bandwidth > 0 and latency >= 0 (got %g B/s, %g s)", what, p.Bandwidth, p.Latency)
		}
		return nil
	}
	// A topology without links (processors alone) has no use for the
	// default link, and the compiler leaves it empty then.
	if len(spec.Links) == 0 && g.NumLinks() > 0 {
		if err := checkLink("default link", spec.DefaultLink); err != nil {
			return nil, err
		}
	}
	for i, p := range spec.Links {
		if err := checkLink(fmt.Sprintf("link %d", i), p); err != nil {
			return nil, err
		}
	}
	n.link0, n.links = spec.DefaultLink, spec.Links
	for l := range int32(n.g.NumLinks()) {
		n.buses = n.buses || n.g.Link(l).Multi
	}
	if len(spec.Links) > 0 && sameLinks(spec.Links) {
		// A machine file gives every link its parameters, most often all
		// alike; one copy spares a hop a look-up in a list as long as the
		// links (a cache miss each on a large network).
		n.link0, n.links = spec.Links[0], nil
	}
	for i, p := range append([]NodeParams{spec.DefaultNode}, spec.Nodes...) {
		which := "DefaultNode"
		if i > 0 && spec.NodeOf == nil {
			which = fmt.Sprintf("Nodes[%d] (node %d)", i-1, g.ID(int32(i-1)))
		} else if i > 0 {
			which = fmt.Sprintf("Nodes[%d]", i-1)
		}
		for _, f := range []struct {
			name string
			v    float64
		}{
			{"HopDelay", p.HopDelay}, {"SendOverhead", p.SendOverhead}, {"RecvOverhead", p.RecvOverhead},
			{"PacketOverhead", p.PacketOverhead}, {"RouteFixed", p.RouteFixed}, {"RoutePerByte", p.RoutePerByte},
			{"AllocDelay", p.AllocDelay}, {"RouteCPUFixed", p.RouteCPUFixed}, {"RouteCPUPerByte", p.RouteCPUPerByte},
		} {
			if !(f.v >= 0) || math.IsInf(f.v, 1) {
				return nil, fmt.Errorf("%s.%s = %g s must be a finite time ≥ 0", which, f.name, f.v)
			}
		}
		n.softRoute = n.softRoute || p.RouteFixed > 0 || p.RoutePerByte > 0 || routesOnCPU(&p)
		n.hopDelay = n.hopDelay || p.HopDelay > 0
	}
	pk := spec.Packet
	if err := checkPacket(pk); err != nil {
		return nil, err
	}
	if err := checkRouter(spec); err != nil {
		return nil, err
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if spec.NodeOf != nil {
		n.nodePs = make([]*NodeParams, g.N())
		for v := range n.nodePs {
			n.nodePs[v] = spec.Node(int32(v))
		}
	}
	n.core = g.Core()
	n.attached = n.core.Nodes < g.N()
	n.rankCore = n.rankIsLabel()
	for _, k := range n.core.Dims {
		n.dims = append(n.dims, int32(k))
	}
	if n.core.Kind == topo.Mesh || n.core.Kind == topo.Torus {
		// Only a grid's arguments are sides: a hypercube's is its
		// dimension, a tree's its arity and depth (either may be 0).
		n.axes = newAxes(n.dims)
	}
	n.lanes = int32(max(pk.VirtualChannels, 1))
	for l := range int32(g.NumLinks()) {
		n.lanes = max(n.lanes, g.Link(l).Channels)
	}
	n.shareWire = n.lanes > 1
	n.credits = spec.Credits && n.sw == Wormhole
	n.islip = spec.Allocator == ISLIP && n.credits && n.shareWire
	n.flitSize, n.bufFlits = int64(max(pk.FlitBytes, 1)), int64(pk.BufferFlits)
	if n.bufFlits == 0 {
		n.bufFlits = 16
	}
	n.roomBytes, n.bufBytes = (n.bufFlits-1)*n.flitSize, n.bufFlits*n.flitSize
	n.recogniseLinkRule()
	n.hub, n.star = g.Hub()
	if err := n.setRouting(routing); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *network) setRouting(name string) error {
	// A routing chosen by the options that the topology cannot take is
	// the caller's mistake, not the machine's.
	given := name
	if name == "" {
		name = n.spec.Routing
	}
	if name == "" {
		name = "shortest"
	}
	g := n.g
	kind := n.core.Kind
	if ok, err := n.setSwitched(given, name); ok {
		return err
	}
	grid := kind == topo.Mesh || kind == topo.Torus
	switch name {
	case "shortest":
		n.rk = rStatic
	case "ecube":
		if kind != topo.Hypercube {
			return n.notRegular(given, name, "a hypercube")
		}
	case "xy":
		// A 2 × 2 grid is also a 2-cube, which is how an explicit one is
		// recognised; XY and e-cube route it alike.
		if !(grid && len(n.dims) == 2 || kind == topo.Hypercube && n.dims[0] == 2) {
			return n.notRegular(given, name, "a 2-D mesh or torus")
		}
	case "dor":
		if !grid && kind != topo.Hypercube {
			return n.notRegular(given, name, "a mesh, torus or hypercube")
		}
	case "least-used":
		n.rk = rLeastUsed
	case "random":
		n.rk = rRandom
	case "quiet":
		n.rk = rQuiet
	case "short-queue":
		n.rk = rShortQueue
	case "first-ready":
		n.rk = rFirstReady
	case "valiant":
		n.rk = rValiant
	case "tree":
		n.rk = rTree
	case "hot-potato":
		if n.sw != SAF && n.sw != VCT {
			why := fmt.Sprintf("deflects whole packets: it needs store-and-forward (saf) or virtual cut-through (vct) switching, not %s", n.sw)
			if given != "" {
				return &OptionError{"Routing", given, why}
			}
			return errors.New("routing hot-potato " + why)
		}
		n.rk = rHotPotato
	case "acyclic", "acyclic-improved":
		if err := n.useAcyclic(name); err != nil {
			return err
		}
	default:
		f, ok := n.spec.Routes[name]
		if !ok {
			have := Routings()
			for k := range n.spec.Routes {
				have = append(have, k)
			}
			sort.Strings(have)
			return fmt.Errorf("unknown routing %q (have %s)", name, strings.Join(have, ", "))
		}
		n.rk, n.custom = rCustom, f
	}
	// Lane classes break the cycles of dimension-order routing on tori
	// (dateline) and between Valiant's two phases, when there are lanes
	// enough; otherwise all lanes are used alike.
	n.dateline = kind == topo.Torus && n.lanes >= 2 && (n.rk == rStatic || n.rk == rValiant)
	n.splitTies = false
	if kind == topo.Torus && (n.rk == rStatic || n.rk == rValiant) {
		for _, k := range n.dims {
			n.splitTies = n.splitTies || k%2 == 0 && k > 2
		}
	}
	n.phased = n.rk == rValiant && n.lanes >= 2 && (!n.dateline || n.lanes >= 4)
	n.viaSwitch = n.rk == rValiant && n.attached && n.core.Kind != topo.Explicit && n.core.Nodes > 0
	n.classes = 1
	if n.dateline {
		n.classes *= 2
	}
	if n.phased {
		n.classes *= 2
	}
	for c := range n.classes + 1 {
		n.classLo[c] = c * n.lanes / n.classes
	}
	if n.rk == rTree {
		n.buildTree(n.g.Proc(0))
	} else if _, ok := g.RuleDist(0, 0); !ok && !n.star && n.rk != rCustom && n.rk != rAcyclic {
		return n.buildTables()
	}
	return nil
}

// notRegular is the error for a dimension-order routing on a graph
// without the regular core it needs.
func (n *network) notRegular(given, routing, needs string) error {
	err := n.notRegularReason(routing, needs)
	if given != "" {
		return &OptionError{"Routing", given, strings.TrimPrefix(err.Error(), "routing "+routing+" ")}
	}
	return err
}

func (n *network) notRegularReason(routing, needs string) error {
	g := n.g
	if k := n.core.Kind; k != topo.Explicit {
		parts := make([]string, len(n.core.Dims))
		for i, d := range n.core.Dims {
			parts[i] = fmt.Sprint(d)
		}
		what := fmt.Sprintf("this topology is %s(%s)", k, strings.Join(parts, ", "))
		if k.Switched() {
			what = "this topology is " + topo.KindCall(k, n.core.Dims)
		}
		if g.Kind() == topo.Explicit {
			what = fmt.Sprintf("this topology's switches form %s(%s), with processors attached", k, strings.Join(parts, ", "))
		}
		return fmt.Errorf("routing %s needs %s; %s", routing, needs, what)
	}
	return fmt.Errorf("routing %s needs %s; this explicit topology of %d nodes is none: its links form no hypercube, mesh or torus (hypercube neighbours are numbered by ids that differ in one bit, meshes and tori x0 + k0·(x1 + …); processors may hang off switches that do)", routing, needs, g.N())
}

func (n *network) buildTables() error {
	g := n.g
	// Checked whether or not the graph already keeps its tables: the
	// network holds them while it runs, so they count against its limit
	// either way, and the answer does not depend on what ran before.
	what := fmt.Sprintf("routing by table on a %d-node %s graph", g.N(), g.Kind())
	if err := limits.Check(what, limits.Mul(int64(g.NumProcs()), int64(g.N()), 4), n.maxMemory); err != nil {
		return err
	}
	if int64(g.NumProcs())*int64(g.N()) > tableLimit {
		if k := g.Kind(); k.Switched() {
			return fmt.Errorf("a %d-node %s is too large for routing tables (%d processors × %d nodes; at most %d), and it has no routing by rule yet; use a smaller one or a custom routing", g.N(), topo.KindCall(k, g.Dims()), g.NumProcs(), g.N(), int64(tableLimit))
		}
		return fmt.Errorf("a %d-node irregular graph is too large for routing tables; use a generated topology or a custom routing", g.N())
	}
	n.dist = g.ProcDistances()
	return nil
}

// buildTree makes the BFS spanning tree rooted at root used by "tree"
// routing (and by broadcast under it).
func (n *network) buildTree(root int32) {
	n.treeRoot = root
	g := n.g
	N := g.N()
	n.parent, n.parentLink, n.depth = make([]int32, N), make([]int32, N), make([]int32, N)
	for i := range n.depth {
		n.depth[i], n.parent[i], n.parentLink[i] = -1, -1, -1
	}
	n.depth[root] = 0
	n.treeOrder = append(n.treeOrder[:0], root)
	queue := n.treeOrder
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for _, a := range g.Adj(u) {
			if n.depth[a.Node] < 0 {
				n.depth[a.Node] = n.depth[u] + 1
				n.parent[a.Node], n.parentLink[a.Node] = u, a.Link
				queue = append(queue, a.Node)
			}
		}
	}
	n.treeOrder = queue
}

func (n *network) nodeP(v int32) *NodeParams {
	if n.nodePs != nil {
		return n.nodePs[v]
	}
	return n.spec.Node(v)
}

func (n *network) linkP(l int32) *LinkParams {
	if n.links == nil {
		return &n.link0
	}
	return &n.links[l]
}

// sameLinks tells whether every link's parameters are bit for bit the first's.
func sameLinks(links []LinkParams) bool {
	a, b := math.Float64bits(links[0].Latency), math.Float64bits(links[0].Bandwidth)
	for _, p := range links[1:] {
		if math.Float64bits(p.Latency) != a || math.Float64bits(p.Bandwidth) != b {
			return false
		}
	}
	return true
}

// wire is the directed wire of link l leaving node from.
func (n *network) wire(l, from int32) int32 {
	if n.rule != ruleNone {
		return n.ruleWire(l, from)
	}
	return 2*l + n.g.Away(l, from)
}

// candidates appends the adjacency entries a packet at `at` may take
// toward dst: the minimal ones in dimension order for regular graphs (so
// the first is the e-cube / XY / DOR choice), table-minimal ones otherwise.
func (n *network) candidates(at, dst, inLink int32, buf []topo.Adj, lbuf []int32) ([]topo.Adj, []int32) {
	g := n.g
	buf = buf[:0]
	addNext := func(next int32) {
		for _, a := range g.Adj(at) {
			if a.Node == next {
				buf = append(buf, a)
			}
		}
	}
	switch {
	case n.rk == rSwitched:
		return n.switchedCandidates(at, dst, dst, n.swr.alg, buf), lbuf
	case n.rk == rAcyclic: // inLink is the lane the packet arrived on
		return n.acyclicCandidates(at, dst, inLink, buf, lbuf)
	case n.rk == rCustom:
		lbuf = n.custom(inLink, at, dst, lbuf[:0])
		for _, l := range lbuf {
			if l < 0 || int(l) >= g.NumLinks() {
				continue
			}
			next, incident := int32(-1), false
			for _, m := range g.Members(l) {
				incident = incident || m == at
				if m != at && (next < 0 || m == dst) {
					next = m
				}
			}
			if next >= 0 && incident {
				buf = append(buf, topo.Adj{Node: next, Link: l})
			}
		}
		return buf, lbuf
	case n.rk == rTree:
		if n.depth[at] < 0 || n.depth[dst] < 0 {
			return buf, lbuf // off the spanning tree: no route
		}
		// Up to the common ancestor, then down.
		v := dst
		for n.depth[v] > n.depth[at] {
			if n.parent[v] == at {
				return append(buf, topo.Adj{Node: v, Link: n.parentLink[v]}), lbuf
			}
			v = n.parent[v]
		}
		return append(buf, topo.Adj{Node: n.parent[at], Link: n.parentLink[at]}), lbuf
	}
	if n.attached && n.core.Kind != topo.Explicit && !n.core.Kind.Switched() {
		// An attached processor's one way is its switch; the last hop is
		// from the switch it hangs off. In between, the core's rule.
		if a := g.Attached(at); a != at {
			addNext(a)
			return buf, lbuf
		}
		a := g.Attached(dst)
		if a == at {
			addNext(dst)
			return buf, lbuf
		}
		dst = a
	}
	if n.star {
		// A star: a processor's links all lead to the hub, and the hub's
		// to dst are dst's own (in link order, as the hub lists them), so
		// the hop is found without reading the hub's adjacency, as long
		// as the star is wide.
		if at != n.hub {
			return append(buf, g.Adj(at)...), lbuf
		}
		for _, a := range g.Adj(dst) {
			buf = append(buf, topo.Adj{Node: dst, Link: a.Link})
		}
		return buf, lbuf
	}
	switch n.core.Kind {
	case topo.Hypercube:
		for x := uint32(at ^ dst); x != 0; x &= x - 1 {
			d := int32(bits.TrailingZeros32(x))
			if n.rule == ruleCube {
				buf = append(buf, topo.Adj{Node: at ^ 1<<d, Link: n.ruleLink(at, d, true)})
				continue
			}
			addNext(at ^ 1<<d)
		}
	case topo.Mesh, topo.Torus:
		torus := n.core.Kind == topo.Torus
		step := func(next, d int32, fwd bool) {
			if n.rule == ruleTorus {
				buf = append(buf, topo.Adj{Node: next, Link: n.ruleLink(at, d, fwd)})
				return
			}
			addNext(next)
		}
		for d := range n.axes {
			ax := &n.axes[d]
			k32, stride, a, b := ax.k, ax.stride, ax.coord(at), ax.coord(dst)
			if a != b {
				fwd := (b - a + k32) % k32
				plus, minus := at+stride, at-stride
				if a == k32-1 {
					plus = at - a*stride
				}
				if a == 0 {
					minus = at + (k32-1)*stride
				}
				switch {
				case !torus && b > a, torus && 2*fwd < k32:
					step(plus, int32(d), true)
				case !torus, torus && 2*fwd > k32:
					step(minus, int32(d), false)
				default: // exactly half way round: both are minimal
					step(plus, int32(d), true)
					if minus != plus {
						step(minus, int32(d), false)
					}
				}
			}
		}
	case topo.Full:
		addNext(dst)
	case topo.Tree:
		k := n.dims[0]
		v := dst
		for v > at {
			if (v-1)/k == at {
				addNext(v)
				return buf, lbuf
			}
			v = (v - 1) / k
		}
		addNext((at - 1) / k)
	default:
		d := n.dist[g.Rank(dst)]
		for _, a := range g.Adj(at) {
			if d[a.Node] == d[at]-1 {
				buf = append(buf, a)
			}
		}
	}
	return buf, lbuf
}

// UsableRouting tells whether spec's topology can take the routing name
// (a registry name or one of spec.Routes), as a program's send that names
// it needs: nil, or why not.
func UsableRouting(spec *Spec, name string, maxMemory int64) error {
	_, err := compile(spec, name, "", maxMemory)
	var oe *OptionError
	if errors.As(err, &oe) {
		return errors.New(oe.Reason)
	}
	return err
}
