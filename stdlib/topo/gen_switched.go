package topo

// The switched generators build today's indirect networks: fat trees
// (fattree, xgft), dragonflies and flattened butterflies (flatfly,
// hyperx). Their processors hang off switches, so a graph holds the
// switches first, as its regular core (nodes 0..S-1, Graph.Core), and the
// processors after them, in rank order; Graph.Attached is a processor's
// (first) switch. A switch's node index encodes its place, its adjacency
// list is in its port order (the processors' ports first, as BookSim
// numbers its routers' ports), and each link's Dim is its class, so that
// routing by rule can work from the index and the adjacency position
// alone:
//
//   - xgft(h, m1..mh, w1..wh) (Öhring et al. 1995): level 0 holds the
//     processors, levels 1..h the switches. A level-i node's label is a
//     mixed-radix number of h digits x1 (least significant) .. xh, digit j
//     of radix w_j for j ≤ i and m_j above; nodes of levels i and i+1 are
//     linked when their labels agree in every digit but digit i+1 (the
//     child's, of radix m_(i+1), is its place under the parent; the
//     parent's, of radix w_(i+1), the child's up port). Switches are
//     numbered from the top level h down, each level by label; processors
//     follow by label. A switch's ports: its m_i children in order of
//     their digit i, then its w_(i+1) parents in order of theirs. A link's
//     Dim is the level of its lower end (0 for a processor's).
//   - fattree(k, n) is xgft(n, k..k, 1, k..k): BookSim's k-ary n-tree,
//     whose router (level L, position pos), L = 0 at the top, is node
//     L·k^(n-1) + pos, ports 0..k-1 down and k..2k-1 up, and whose terminal
//     t is under router (n-1, t/k) at its port t mod k.
//   - dragonfly(p, a, h, g, arrangement): router r of group G is node
//     G·a + r; processor i of router v is node R + v·p + i (R = a·g
//     routers). A router's ports: p processors; a-1 local ones, port j to
//     router j of its group for j < r, j+1 otherwise; then h global ones,
//     the group's global port r·h + c. Links have Dim 0 (processor),
//     1 (local) or 2 (global). DragonflyGlobal says where a global port
//     leads; the ports a group cannot use (g < a·h+1 and a·h not a
//     multiple of g-1) are its last, and unlinked.
//   - flatfly(k, n, c) and hyperx(c, s1..sL): router index x1 + s1·(x2 +
//     s2·(…)) (flatfly: every side k); a router's ports are its c
//     processors, then for each dimension d the other routers of its line
//     along d in order of their coordinate. A link along d has Dim d+1,
//     a processor's Dim 0. hyperx's processors are numbered router by
//     router; flatfly's as BookSim's flatfly numbers its terminals when it
//     can lay them out (FlatFlyTerminal), else router by router.

import (
	"fmt"
	"math"
	"slices"
)

// xgftShape is an XGFT's heights and radices, 0-based: m[j] and w[j] are
// the literature's m_(j+1) and w_(j+1).
type xgftShape struct {
	h    int
	m, w []int
}

// xgftOf reads an xgft's generator arguments (or a fattree's).
func xgftOf(kind Kind, args []int) xgftShape {
	if kind == FatTree {
		k, n := args[0], args[1]
		s := xgftShape{h: n, m: slices.Repeat([]int{k}, n), w: slices.Repeat([]int{k}, n)}
		s.w[0] = 1
		return s
	}
	h := args[0]
	return xgftShape{h: h, m: args[1 : 1+h], w: args[1+h : 1+2*h]}
}

// levelNodes is the number of nodes at level i (0: the processors).
func (s xgftShape) levelNodes(i int) int64 {
	n := int64(1)
	for j := range s.h {
		if j < i {
			n = mulCap(n, int64(s.w[j]))
		} else {
			n = mulCap(n, int64(s.m[j]))
		}
	}
	return n
}

// size counts the nodes and links.
func (s xgftShape) size() (nodes, links int64) {
	for i := 0; i <= s.h; i++ {
		c := s.levelNodes(i)
		nodes = min(countCap, nodes+c)
		if i < s.h {
			links = min(countCap, links+mulCap(c, int64(s.w[i])))
		}
	}
	return nodes, links
}

func newXGFT(sz Size, kind Kind, args []int) *Graph {
	s := xgftOf(kind, args)
	n := int(sz.Nodes)
	g := &Graph{kind: kind, dims: slices.Clone(args), links: make([]Link, 0, sz.Links)}
	// first[i] is the node index of level i's label 0.
	first := make([]int32, s.h+1)
	next := int32(0)
	for i := s.h; i >= 1; i-- {
		first[i] = next
		next += int32(s.levelNodes(i))
	}
	first[0] = next
	// Links between levels i and i+1, from the bottom, by child label and
	// then parent digit: every switch sees its down ports before its up
	// ports, each in order.
	place := int32(1) // the place of digit i+1 at both levels
	for i := range s.h {
		mi, wi := int32(s.m[i]), int32(s.w[i])
		for x := range int32(s.levelNodes(i)) {
			lo, hi := x%place, x/place/mi
			for q := range wi {
				parent := lo + place*(q+wi*hi)
				g.links = append(g.links, Link{A: first[i] + x, B: first[i+1] + parent, Dim: int32(i), Channels: 1})
			}
		}
		place *= wi
	}
	g.nodeK = make([]NodeKind, n)
	for v := range first[0] {
		g.nodeK[v] = Switch
	}
	g.setSwitchedCore(int(first[0]))
	g.finish(n)
	g.attachProcessors()
	return g
}

// setSwitchedCore makes switches 0..s-1 the core; finish attaches each
// processor to the first switch it links to.
func (g *Graph) setSwitchedCore(s int) {
	g.ckind, g.cdims, g.core = g.kind, g.dims, int32(s)
}

// attachProcessors maps every processor to the first switch in its
// adjacency (its leaf switch or router), every switch to itself.
func (g *Graph) attachProcessors() {
	n := g.N()
	if int(g.core) == n {
		return
	}
	g.attach = make([]int32, n)
	for v := range int32(n) {
		g.attach[v] = v
		if v >= g.core && g.Degree(v) > 0 {
			g.attach[v] = g.adj[g.off[v]].Node
		}
	}
}

// Dragonfly arrangements of global links (dragonfly's last argument).
const (
	Absolute  = 0 // group G's port j to group j' = j mod (g-1), skipping G: j' if j' < G, else j'+1 (BookSim's dragonflynew)
	Relative  = 1 // group G's port j to group G + (j mod (g-1)) + 1, mod g
	Circulant = 2 // group G's ports to groups G+1, G-1, G+2, G-2, … (mod g), in turn
)

// dragonflyShape is a dragonfly's arguments.
type dragonflyShape struct{ p, a, h, g, arr int }

func dragonflyOf(args []int) dragonflyShape {
	s := dragonflyShape{p: args[0], a: args[1], h: args[2], g: args[3]}
	if len(args) == 5 {
		s.arr = args[4]
	}
	return s
}

// usedPorts is how many of a group's a·h global ports are linked: as many
// whole rounds of the other g-1 groups as fit, so that every pair of
// groups has the same number of links.
func (s dragonflyShape) usedPorts() int {
	if s.g < 2 {
		return 0
	}
	ah := s.a * s.h
	return ah / (s.g - 1) * (s.g - 1)
}

// DragonflyGlobal is where global port j of group G leads in a dragonfly
// of g groups whose groups use the first used of their ports (arrangement
// Absolute, Relative or Circulant): the group and the port there. Port j
// is router j/h's global port j mod h.
func DragonflyGlobal(arrangement, g, G, j int) (group, port int) {
	t, round := j%(g-1), j/(g-1)*(g-1)
	switch arrangement {
	case Absolute:
		group = t
		if t >= G {
			group = t + 1
		}
		back := G
		if G > group {
			back = G - 1
		}
		return group, back + round
	case Relative:
		return (G + t + 1) % g, g - 2 - t + round
	}
	off, back := t/2+1, t+1
	if t%2 == 1 {
		off, back = g-off, t-1
	} else if 2*off == g {
		back = t // half way round: the same port on both sides
	}
	return (G + off) % g, back + round
}

func newDragonfly(sz Size, args []int) *Graph {
	s := dragonflyOf(args)
	n := int(sz.Nodes)
	R := int32(s.a * s.g)
	g := &Graph{kind: Dragonfly, dims: slices.Clone(args), links: make([]Link, 0, sz.Links)}
	for v := range R {
		for i := range int32(s.p) {
			g.links = append(g.links, Link{A: v, B: R + v*int32(s.p) + i, Dim: 0, Channels: 1})
		}
	}
	a := int32(s.a)
	for G := range int32(s.g) {
		for r := range a {
			for q := r + 1; q < a; q++ {
				g.links = append(g.links, Link{A: G*a + r, B: G*a + q, Dim: 1, Channels: 1})
			}
		}
	}
	// Global links, each once, from its lower group's end; the port at
	// each end is kept so that the routers' adjacency can be put in port
	// order once it is built.
	used := s.usedPorts()
	base := len(g.links)
	ports := make([]int32, 0, 2*(int(sz.Links)-base))
	for G := range s.g {
		for j := range used {
			G2, j2 := DragonflyGlobal(s.arr, s.g, G, j)
			if G2 < G || G2 == G && j2 < j {
				continue
			}
			g.links = append(g.links, Link{A: int32(G*s.a + j/s.h), B: int32(G2*s.a + j2/s.h), Dim: 2, Channels: 1})
			ports = append(ports, int32(j%s.h), int32(j2%s.h))
		}
	}
	g.nodeK = make([]NodeKind, n)
	for v := range R {
		g.nodeK[v] = Switch
	}
	g.setSwitchedCore(int(R))
	g.finish(n)
	// Each router's global entries (after p + a-1 others) sorted by port.
	portAt := func(e Adj, v int32) int32 {
		i := 2 * (int(e.Link) - base)
		if g.links[e.Link].A == v {
			return ports[i]
		}
		return ports[i+1]
	}
	skip := int32(s.p + s.a - 1)
	for v := range R {
		glob := g.adj[g.off[v]+skip : g.off[v+1]]
		slices.SortStableFunc(glob, func(x, y Adj) int { return int(portAt(x, v) - portAt(y, v)) })
	}
	g.attachProcessors()
	return g
}

// hyperxShape is a flattened butterfly's or HyperX's concentration and
// sides.
type hyperxShape struct {
	c     int
	sides []int
	// layout: flatfly's BookSim layout of processors (x routers a row, xr
	// processors a router row); 0 when numbered router by router.
	x, xr int
}

func hyperxOf(kind Kind, args []int) hyperxShape {
	if kind == HyperX {
		return hyperxShape{c: args[0], sides: args[1:]}
	}
	k, dims, c := args[0], args[1], 1
	if len(args) == 3 {
		c = args[2]
	}
	s := hyperxShape{c: c, sides: slices.Repeat([]int{k}, dims)}
	routers := int64(1)
	for range dims {
		routers = mulCap(routers, int64(k))
	}
	x, xr := isqrt(routers), isqrt(int64(c))
	if x*x == routers && xr*xr == int64(c) {
		s.x, s.xr = int(x), int(xr)
	}
	return s
}

func isqrt(n int64) int64 {
	r := int64(math.Sqrt(float64(n)))
	for r*r > n {
		r--
	}
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// FlatFlyTerminal is the processor rank BookSim's flatfly gives
// processor i (0 ≤ i < c) of router v when its kⁿ routers are laid out x
// a row and its c = xr² processors xr a row under each: the terminal's
// place, row by row, on the grid of all processors.
func FlatFlyTerminal(v, i, x, xr int) int {
	return x*xr*(xr*(v/x)+i/xr) + xr*(v%x) + i%xr
}

func (s hyperxShape) size() (routers, links int64) {
	routers = 1
	for _, k := range s.sides {
		routers = mulCap(routers, int64(k))
	}
	links = mulCap(routers, int64(s.c))
	for _, k := range s.sides {
		links = min(countCap, links+mulCap(routers/int64(max(k, 1)), mulCap(int64(k), int64(k-1))/2))
	}
	return routers, links
}

func newHyperX(sz Size, kind Kind, args []int) *Graph {
	s := hyperxOf(kind, args)
	n := int(sz.Nodes)
	routers, _ := s.size()
	R := int32(routers)
	c := int32(s.c)
	g := &Graph{kind: kind, dims: slices.Clone(args), links: make([]Link, 0, sz.Links)}
	// Processor links in processor order: each router's come in order.
	owner := make([]int32, R*c)
	for v := range R {
		for i := range c {
			p := v*c + i
			if s.x > 0 {
				p = int32(FlatFlyTerminal(int(v), int(i), s.x, s.xr))
			}
			owner[p] = v
		}
	}
	for p, v := range owner {
		g.links = append(g.links, Link{A: v, B: R + int32(p), Dim: 0, Channels: 1})
	}
	// Along each dimension, every pair of a line once, by (lower, higher)
	// coordinate: each router sees its line's others in order.
	stride := int32(1)
	for d, k := range s.sides {
		k32 := int32(k)
		for v := range R {
			x := v / stride % k32
			for y := x + 1; y < k32; y++ {
				g.links = append(g.links, Link{A: v, B: v + (y-x)*stride, Dim: int32(d + 1), Channels: 1})
			}
		}
		stride *= k32
	}
	g.nodeK = make([]NodeKind, n)
	for v := range R {
		g.nodeK[v] = Switch
	}
	g.setSwitchedCore(int(R))
	g.finish(n)
	g.attachProcessors()
	return g
}

// switchedPlan checks a switched generator's arguments and counts its
// nodes and links.
func switchedPlan(name string, args []int, s *Size, bad func(string, ...any) (Size, error)) (Size, error) {
	switch name {
	case "fattree":
		k, n := args[0], args[1]
		if k < 1 || n < 1 {
			return bad("k and n must be at least 1")
		}
		if float64(n)*math.Log2(float64(max(k, 2))) > 62 {
			return bad("%d^%d processors is beyond any graph (at most %d nodes)", k, n, MaxNodes)
		}
		s.Kind = FatTree
		s.Nodes, s.Links = xgftOf(FatTree, args).size()
	case "xgft":
		h := args[0]
		if h < 1 || h > 16 {
			return bad("the height h must be from 1 to 16")
		}
		if len(args) != 1+2*h {
			return bad("a height of %d needs %d radices m1..m%d and %d w1..w%d, %d arguments in all; got %d", h, h, h, h, h, 1+2*h, len(args))
		}
		for j, v := range args[1:] {
			if v < 1 {
				what := "m"
				if j >= h {
					what, j = "w", j-h
				}
				return bad("%s%d = %d must be at least 1", what, j+1, v)
			}
		}
		s.Kind = XGFT
		s.Nodes, s.Links = xgftOf(XGFT, args).size()
	case "dragonfly":
		d := dragonflyOf(args)
		switch {
		case d.p < 1:
			return bad("p (processors a router) must be at least 1, got %d", d.p)
		case d.a < 1:
			return bad("a (routers a group) must be at least 1, got %d", d.a)
		case d.h < 0:
			return bad("h (global links a router) must be at least 0, got %d", d.h)
		case d.g < 1:
			return bad("g (groups) must be at least 1, got %d", d.g)
		case int64(d.g) > int64(d.a)*int64(d.h)+1:
			return bad("g = %d groups is more than a·h + 1 = %d: each group's %d global links cannot reach the %d others", d.g, int64(d.a)*int64(d.h)+1, int64(d.a)*int64(d.h), d.g-1)
		case d.arr < 0 || d.arr > Circulant:
			return bad("the arrangement must be absolute, relative or circulant (0, 1 or 2), got %d", d.arr)
		}
		R := mulCap(int64(d.a), int64(d.g))
		s.Kind = Dragonfly
		s.Nodes = min(countCap, R+mulCap(R, int64(d.p)))
		s.Links = min(countCap, mulCap(R, int64(d.p))+mulCap(int64(d.g), mulCap(int64(d.a), int64(d.a-1))/2)+mulCap(int64(d.g), int64(d.usedPorts()))/2)
	case "flatfly", "hyperx":
		for i, v := range args {
			if v < 1 {
				return bad("argument %d is %d; every argument must be at least 1", i+1, v)
			}
		}
		s.Kind = HyperX
		if name == "flatfly" {
			s.Kind = FlatFly
			if float64(args[1])*math.Log2(float64(max(args[0], 2))) > 62 {
				return bad("%d^%d routers is beyond any graph (at most %d nodes)", args[0], args[1], MaxNodes)
			}
		}
		h := hyperxOf(s.Kind, args)
		R, L := h.size()
		s.Nodes, s.Links = min(countCap, R+mulCap(R, int64(h.c))), L
	default:
		return Size{}, fmt.Errorf("%s: not a switched generator", name)
	}
	return *s, nil
}
