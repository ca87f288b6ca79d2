package topo

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/registry"
)

// Structural bounds of a Graph: node and adjacency indices are int32, and
// the CSR offsets count two adjacency entries per link.
const (
	MaxNodes = maxNodes
	MaxLinks = math.MaxInt32 / 2
	// MaxChannels bounds the channels (lanes) of one wire: the simulator
	// indexes lanes wire by wire, and more lanes than this buy nothing.
	MaxChannels = 256
)

// Size is what a generator call makes, known before anything is built.
type Size struct {
	Call         string // the call as written, e.g. "hypercube(24)"
	Kind         Kind
	Nodes, Links int64 // saturated at math.MaxInt64 / 4 on overflow
}

// Per-node and per-link bytes of a graph at its peak while it is built:
// the link list (a 20-byte Link each), the adjacency (two 8-byte entries
// per link), the CSR offsets and the fill positions (4 bytes each per
// node). The slack covers allocator rounding; TestSizeEstimates checks
// the figures against runtime.MemStats.
const (
	graphBytesPerNode = 8 + 4
	graphBytesPerLink = 20 + 16 + 4
	// A Hamiltonian graph also holds, while it is paired, a map of its
	// edges (about 40 bytes an entry) and a port list (4 bytes per chord
	// end).
	hamiltonianBytesPerLink = 48 + 8
	// A switched graph (fattree, dragonfly, …) also keeps each node's
	// kind, rank and switch (1 + 4 + 4 + 4 bytes, and the processor list),
	// and a dragonfly, while it is built, each global link's two ports.
	switchedBytesPerNode = 13 + 4
	switchedBytesPerLink = 8
	// A star keeps each node's kind and rank and the processor list.
	starBytesPerNode = 1 + 4 + 4
)

// Bytes estimates the memory the graph needs while it is generated.
func (s Size) Bytes() int64 {
	perLink := int64(graphBytesPerLink)
	perNode := int64(graphBytesPerNode)
	switch s.Kind {
	case Hamiltonian:
		perLink += hamiltonianBytesPerLink
	case FatTree, XGFT, Dragonfly, FlatFly, HyperX:
		perNode += switchedBytesPerNode
		perLink += switchedBytesPerLink
	case Explicit: // a star (the one generator of that kind): each node's kind and rank, the processor list
		perNode += starBytesPerNode
	}
	return limits.Add(limits.Mul(s.Nodes, perNode), limits.Mul(s.Links, perLink))
}

// GraphBytes estimates the memory of an explicit graph of nodes and links
// once built (Builder.Build): as a generated one plus the id map.
func GraphBytes(nodes, links int64) int64 {
	return limits.Add(limits.Mul(nodes, graphBytesPerNode+explicitBytesPerNode), limits.Mul(links, graphBytesPerLink))
}

// An explicit graph maps external ids to indices (a Go map, about 40 bytes
// an entry) and keeps the ids, kinds and ranks (8 + 1 + 4 bytes).
const explicitBytesPerNode = 40 + 13

// countCap bounds the counts Plan computes, far above any graph that can
// be built, so that products of sides cannot overflow.
const countCap = math.MaxInt64 / 4

func mulCap(a, b int64) int64 {
	if a != 0 && b > countCap/a {
		return countCap
	}
	return min(a*b, countCap)
}

// Plan checks a generator call's arguments and counts its nodes and links
// without building anything, so that the memory it needs can be checked
// first. Each generator reports its own name and arguments in errors. The
// names, signatures and argument counts are registry.Generators'.
func Plan(name string, args []int) (Size, error) {
	gen, known := registry.LookupGenerator(name)
	if !known {
		return Size{}, unknownGenerator(name)
	}
	if len(args) < gen.MinArgs || len(args) > gen.MaxArgs {
		return Size{}, fmt.Errorf("%s takes %s, got %d argument%s", name, gen.Signature, len(args), plural(len(args)))
	}
	call := callString(gen, args)
	s := Size{Call: call}
	bad := func(format string, a ...any) (Size, error) {
		return Size{}, fmt.Errorf("%s: "+format, append([]any{call}, a...)...)
	}
	switch name {
	case "hypercube":
		d := args[0]
		if d < 0 {
			return bad("the dimension must be at least 0")
		}
		if d > 60 {
			return bad("%d dimensions is %s nodes; a graph holds at most %d", d, pow2String(d), MaxNodes)
		}
		s.Kind, s.Nodes = Hypercube, int64(1)<<d
		s.Links = mulCap(s.Nodes/2, int64(d))
	case "mesh", "torus", "ring", "chain":
		wrap := name == "torus" || name == "ring"
		s.Kind, s.Nodes = Mesh, 1
		if wrap {
			s.Kind = Torus
		}
		for _, k := range args {
			if k < 1 {
				switch name {
				case "ring", "chain":
					return bad("a %s needs at least 1 node", name)
				}
				return bad("every side must be at least 1, got %d", k)
			}
			s.Nodes = mulCap(s.Nodes, int64(k))
		}
		for _, k := range args {
			per := int64(k - 1) // links along this axis per line of k nodes
			if wrap && k > 2 {
				per = int64(k)
			}
			s.Links = min(countCap, s.Links+mulCap(s.Nodes/int64(k), per))
		}
	case "tree":
		k, depth := args[0], args[1]
		if k < 1 {
			return bad("the branching factor k must be at least 1")
		}
		if depth < 0 {
			return bad("the depth must be at least 0")
		}
		s.Kind, s.Nodes = Tree, 1
		level := int64(1)
		if k == 1 { // a chain: no loop over a huge depth
			s.Nodes = min(int64(depth)+1, countCap)
			depth = 0
		}
		for range depth {
			level = mulCap(level, int64(k))
			if s.Nodes += level; s.Nodes >= countCap || level >= countCap {
				s.Nodes = countCap
				break
			}
		}
		s.Links = s.Nodes - 1
	case "full":
		n := int64(args[0])
		if n < 1 {
			return bad("a complete graph needs at least 1 node")
		}
		s.Kind, s.Nodes = Full, n
		s.Links = mulCap(n, n-1) / 2
	case "star":
		n := int64(args[0])
		if n < 0 {
			return bad("the number of processors must be at least 0")
		}
		s.Kind, s.Nodes, s.Links = Explicit, min(n+1, countCap), n
	case "hamiltonian":
		n, deg := args[0], 4
		if len(args) == 3 {
			deg = args[2]
		}
		switch {
		case n < 3:
			return bad("a Hamiltonian graph needs at least 3 nodes")
		case deg < 2 || deg > n-1:
			return bad("the degree %d must be in 2..%d (n-1)", deg, n-1)
		case int64(n)*int64(deg-2)%2 != 0:
			return bad("n × (degree-2) = %d × %d must be even to pair every port", n, deg-2)
		}
		s.Kind, s.Nodes = Hamiltonian, int64(n)
		s.Links = mulCap(int64(n), int64(deg)) / 2
	case "fattree", "xgft", "dragonfly", "flatfly", "hyperx":
		return switchedPlan(name, args, &s, bad)
	default: // in the registry, not implemented here: registry's tests fail
		return Size{}, unknownGenerator(name)
	}
	return s, nil
}

// check refuses a size beyond the memory limit (max bytes; 0 means
// limits.Default()) and then beyond the graph's structural bounds.
func (s Size) check(max int64) error {
	if err := limits.Check(s.Call, s.Bytes(), max); err != nil {
		return err
	}
	if s.Nodes > MaxNodes || s.Links > MaxLinks {
		return fmt.Errorf("%s has %s nodes and %s links; a graph holds at most %d nodes and %d links",
			s.Call, count(s.Nodes), count(s.Links), MaxNodes, MaxLinks)
	}
	return nil
}

// KindCall writes a generated graph's kind and Dims as its generator call,
// a word where the generator takes one: "dragonfly(2, 4, 2, 9, relative)".
func KindCall(k Kind, dims []int) string {
	gen, ok := registry.LookupGenerator(k.String())
	if !ok {
		gen = registry.Generator{Name: k.String()}
	}
	return callString(gen, dims)
}

// callString is the call as written: a last argument the generator takes
// as a word is shown as that word.
func callString(gen registry.Generator, args []int) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = strconv.Itoa(a)
		if i == gen.MaxArgs-1 && gen.Words != nil && a >= 0 && a < len(gen.Words) {
			parts[i] = gen.Words[a]
		}
	}
	return gen.Name + "(" + strings.Join(parts, ", ") + ")"
}

func count(n int64) string {
	if n >= countCap {
		return "more than 2^61"
	}
	return strconv.FormatInt(n, 10)
}

func pow2String(d int) string { return "2^" + strconv.Itoa(d) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
