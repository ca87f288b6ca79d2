package topo

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/parasol-lang/parasol/registry"
)

// maxNodes bounds generated graphs (about 2^27 nodes); beyond that int32
// link indices of a torus would overflow.
const maxNodes = 1 << 27

// unknownGenerator is the error for a name that is not one of
// registry.Generators, the one list of generators (the language reads it;
// Plan and Generate implement each of its entries, which registry's tests
// hold).
func unknownGenerator(name string) error {
	return fmt.Errorf("unknown topology generator %q (have %s)", name, strings.Join(registry.GeneratorNames(), ", "))
}

// GenerateOptions bound Generate; the zero value generates within the
// default memory limit.
type GenerateOptions struct {
	MaxMemory int64 // bytes; 0 means limits.Default()
}

// Generate builds a generated topology by name, as written in a machine
// file: Generate("torus", []int{8, 8}, GenerateOptions{}). A call whose
// graph would need more than o.MaxMemory is refused before anything is
// allocated, with a *limits.TooLarge error naming the call.
func Generate(name string, args []int, o GenerateOptions) (*Graph, error) {
	s, err := Plan(name, args)
	if err != nil {
		return nil, err
	}
	if err := s.check(o.MaxMemory); err != nil {
		return nil, err
	}
	switch name {
	case "hypercube":
		return newHypercube(s, args[0]), nil
	case "mesh", "chain":
		return newGrid(s, args, false), nil
	case "torus", "ring":
		return newGrid(s, args, true), nil
	case "tree":
		return newTree(s, args[0], args[1]), nil
	case "full":
		return newFull(s), nil
	case "star":
		return newStar(s), nil
	case "fattree", "xgft":
		return newXGFT(s, s.Kind, args), nil
	case "dragonfly":
		return newDragonfly(s, args), nil
	case "flatfly", "hyperx":
		return newHyperX(s, s.Kind, args), nil
	}
	deg := 4
	if len(args) == 3 {
		deg = args[2]
	}
	return newHamiltonian(s, uint64(args[1]), deg)
}

// NewHypercube builds a d-dimensional binary hypercube of 2^d processors.
func NewHypercube(d int) (*Graph, error) { return Generate("hypercube", []int{d}, GenerateOptions{}) }

func newHypercube(s Size, d int) *Graph {
	n := int(s.Nodes)
	g := &Graph{kind: Hypercube, dims: []int{d}, links: make([]Link, 0, s.Links)}
	for b := range d {
		for v := range n {
			if w := v ^ 1<<b; v < w {
				g.links = append(g.links, Link{A: int32(v), B: int32(w), Dim: int32(b), Channels: 1})
			}
		}
	}
	g.finish(n)
	return g
}

// NewGrid builds a mesh (or, with wrap, a torus) of the given side lengths.
// Sides of 1 are allowed; a side of 2 gets no wrap link since it would
// duplicate the direct one.
func NewGrid(dims []int, wrap bool) (*Graph, error) {
	if wrap {
		return Generate("torus", dims, GenerateOptions{})
	}
	return Generate("mesh", dims, GenerateOptions{})
}

func newGrid(s Size, dims []int, wrap bool) *Graph {
	n := int(s.Nodes)
	g := &Graph{kind: s.Kind, dims: append([]int(nil), dims...), links: make([]Link, 0, s.Links)}
	stride := 1
	for axis, k := range dims {
		for v := range n {
			x := v / stride % k
			switch {
			case x+1 < k:
				g.links = append(g.links, Link{A: int32(v), B: int32(v + stride), Dim: int32(axis), Channels: 1})
			case wrap && k > 2:
				g.links = append(g.links, Link{A: int32(v), B: int32(v - x*stride), Dim: int32(axis), Channels: 1})
			}
		}
		stride *= k
	}
	g.finish(n)
	return g
}

func newTree(s Size, k, depth int) *Graph {
	n := int(s.Nodes)
	g := &Graph{kind: Tree, dims: []int{k, depth}, links: make([]Link, 0, s.Links)}
	for c := 1; c < n; c++ {
		g.links = append(g.links, Link{A: int32((c - 1) / k), B: int32(c), Dim: int32((c - 1) % k), Channels: 1})
	}
	g.finish(n)
	return g
}

func newFull(s Size) *Graph {
	n := int(s.Nodes)
	g := &Graph{kind: Full, dims: []int{n}, links: make([]Link, 0, s.Links)}
	for a := range n {
		for b := a + 1; b < n; b++ {
			g.links = append(g.links, Link{A: int32(a), B: int32(b), Dim: -1, Channels: 1})
		}
	}
	g.finish(n)
	return g
}

// newStar builds star(n): processors 0..n-1, each on its own link (link i)
// to the switch n. It is the graph the loop `node 0 .. n-1 = p; node n =
// s; for i in 0 .. n-1 { link i -- n }` builds (a Builder's, of kind
// Explicit, which Hub recognises as a star and routing follows by rule),
// made straight into its arrays rather than link by link, so that a
// crossbar of 65,536 processors costs its graph and nothing more.
func newStar(s Size) *Graph {
	n := int(s.Links)
	g := &Graph{kind: Explicit, nodeK: make([]NodeKind, n+1), links: make([]Link, n)}
	g.nodeK[n] = Switch
	for i := range g.links {
		g.links[i] = Link{A: int32(i), B: int32(n), Dim: -1, Channels: 1}
	}
	g.finish(n + 1)
	if n <= 2 {
		// A lone switch, one or two processors on a switch are a
		// hypercube(0) or (1) or a chain of three, which the loop's graph
		// is recognised as.
		if r, _, ok := recognizeGraph(g, true); ok {
			return r
		}
	}
	return g
}

// NewHamiltonian builds a random Hamiltonian graph as in seed 003 §2.4.4:
// a ring 0..n-1 whose remaining degree-2 ports per node are paired at
// random, with no self or multiple links. Bad pairs from the initial shuffle
// are repaired by random edge switches, so any feasible size succeeds.
func NewHamiltonian(n int, seed uint64, degree int) (*Graph, error) {
	return Generate("hamiltonian", []int{n, int(seed), degree}, GenerateOptions{})
}

func newHamiltonian(s Size, seed uint64, degree int) (*Graph, error) {
	n := int(s.Nodes)
	key := func(a, b int32) uint64 {
		if a > b {
			a, b = b, a
		}
		return uint64(a)<<32 | uint64(b)
	}
	edges := make(map[uint64]bool, n*degree/2)
	g := &Graph{kind: Hamiltonian, dims: []int{n, degree}, links: make([]Link, 0, s.Links)}
	for v := range n {
		a, b := int32(v), int32((v+1)%n)
		g.links = append(g.links, Link{A: a, B: b, Dim: 0, Channels: 1})
		edges[key(a, b)] = true
	}
	ports := make([]int32, 0, n*(degree-2))
	for v := range n {
		for range degree - 2 {
			ports = append(ports, int32(v))
		}
	}
	rng := NewRand(seed)
	for i := len(ports) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		ports[i], ports[j] = ports[j], ports[i]
	}
	// Pairs are (ports[2i], ports[2i+1]); add the good ones, then switch
	// each bad pair with a random partner pair until both become good.
	np := len(ports) / 2
	good := make([]bool, np)
	for i := range np {
		a, b := ports[2*i], ports[2*i+1]
		if a != b && !edges[key(a, b)] {
			edges[key(a, b)], good[i] = true, true
		}
	}
	for i := range np {
		for tries := 0; !good[i]; tries++ {
			if tries > 100000 {
				return nil, fmt.Errorf("%s: could not pair the ports", s.Call)
			}
			j := rng.Intn(np)
			if j == i || !good[j] {
				continue
			}
			a, b, c, d := ports[2*i], ports[2*i+1], ports[2*j], ports[2*j+1]
			if rng.Intn(2) == 1 {
				c, d = d, c
			}
			// (a,b),(c,d) -> (a,c),(b,d)
			delete(edges, key(c, d))
			if a != c && b != d && !edges[key(a, c)] && !edges[key(b, d)] && key(a, c) != key(b, d) {
				edges[key(a, c)], edges[key(b, d)] = true, true
				ports[2*i], ports[2*i+1], ports[2*j], ports[2*j+1] = a, c, b, d
				good[i] = true
			} else {
				edges[key(c, d)] = true
			}
		}
	}
	for i := range np {
		g.links = append(g.links, Link{A: ports[2*i], B: ports[2*i+1], Dim: 1, Channels: 1})
	}
	g.finish(n)
	return g, nil
}

// Rand is a small deterministic generator (splitmix64): the same seed gives
// the same graph and the same simulation on every platform and Go release.
type Rand struct{ s uint64 }

// NewRand seeds a Rand.
func NewRand(seed uint64) *Rand { return &Rand{seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a uniform int in [0, n), n > 0.
func (r *Rand) Intn(n int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }
