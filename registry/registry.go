// Package registry holds the words of the language that name a choice: the
// switching techniques, routing functions and arbitration policies a
// topology may select, and the topology generators. Each is one table, with
// every name's aliases and a one-line description, that the evaluator
// validates machine files against, the simulator implements (runtime keys
// its implementations by the same names; a test holds the two sets equal),
// and help texts, completion and docs/LANGUAGE.md read. Adding a choice is
// one entry here and one implementation there.
//
// The package imports nothing of Parasol, so that every stage can read it.
package registry

import (
	"slices"
	"sort"
	"strings"
)

// Entry is one name of an enumeration.
type Entry struct {
	Name    string
	Aliases []string // other spellings accepted for the same choice
	Doc     string   // one line
}

// Enum is a set of names a field may take: `switching = wormhole`.
type Enum struct {
	What    string // the field it is written in: "switching"
	Fold    bool   // names match regardless of case
	Entries []Entry
}

// Lookup finds the entry a word names, by its name or an alias.
func (e *Enum) Lookup(word string) (Entry, bool) {
	for _, en := range e.Entries {
		if e.same(en.Name, word) {
			return en, true
		}
		for _, a := range en.Aliases {
			if e.same(a, word) {
				return en, true
			}
		}
	}
	return Entry{}, false
}

func (e *Enum) same(a, b string) bool {
	if e.Fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// Names lists the canonical names in table order.
func (e *Enum) Names() []string {
	out := make([]string, len(e.Entries))
	for i, en := range e.Entries {
		out[i] = en.Name
	}
	return out
}

// Spellings lists every accepted word, names and aliases, for suggestions.
func (e *Enum) Spellings() []string {
	var out []string
	for _, en := range e.Entries {
		out = append(out, en.Name)
		out = append(out, en.Aliases...)
	}
	return out
}

// Docs maps each canonical name to its description.
func (e *Enum) Docs() map[string]string {
	out := make(map[string]string, len(e.Entries))
	for _, en := range e.Entries {
		out[en.Name] = en.Doc
	}
	return out
}

// List is the canonical names joined for a message: "saf, vct, wormhole,
// circuit".
func (e *Enum) List() string { return strings.Join(e.Names(), ", ") }

// Switching is how a packet crosses a node (seed 003 §2.4).
var Switching = &Enum{What: "switching", Fold: true, Entries: []Entry{
	{Name: "wormhole", Aliases: []string{"wh"}, Doc: "flits move on at once; a blocked head holds every lane behind it"},
	{Name: "saf", Aliases: []string{"store-and-forward", "packet"}, Doc: "store-and-forward: a packet moves on once it has arrived whole"},
	{Name: "vct", Aliases: []string{"cut-through", "virtual-cut-through"}, Doc: "virtual cut-through: the head moves on at once; a blocked packet is buffered whole"},
	{Name: "circuit", Doc: "a path is reserved end to end first, then the message streams"},
}}

// Routing is the routing function of a topology.
var Routing = &Enum{What: "routing", Entries: []Entry{
	{Name: "shortest", Doc: "first minimal link (dimension order on regular graphs, BFS tables otherwise)"},
	{Name: "ecube", Doc: "dimension order on hypercubes"},
	{Name: "xy", Doc: "dimension order on 2-D meshes and tori"},
	{Name: "dor", Doc: "dimension order on meshes, tori (dateline lanes when VirtualChannels >= 2), hypercubes, flattened butterflies and HyperX (by rule)"},
	{Name: "min", Doc: "minimal by rule: dragonfly local, global, local (2 lane classes); flattened butterfly/HyperX minimal adaptive, the emptiest unresolved dimension (a class per hop)"},
	{Name: "nca", Doc: "fat tree/XGFT: up to the nearest common ancestor, D-mod-k up port, then down (by rule)"},
	{Name: "nca-adaptive", Doc: "fat tree/XGFT: as nca, the up port whose lanes hold fewest packets"},
	{Name: "nca-random", Doc: "fat tree/XGFT: as nca, an up port at random for each packet (BookSim's nca)"},
	{Name: "ugal-l", Doc: "dragonfly: BookSim's UGAL-L, Valiant at the source router if the minimal output's used credits exceed twice the detour's + 30 flits (3 lane classes, one per phase; with 4 lanes or more 4, going on to the intermediate router as BookSim's does)"},
	{Name: "ugal-g", Doc: "dragonfly: as ugal-l, comparing the queues of the global links themselves"},
	{Name: "par", Doc: "dragonfly: progressive adaptive (Jiang, Kim & Dally 2009): UGAL-L's rule at the source router and, while still minimal, again at the source group's second router, on used credits less the wire's flits in flight (4 lane classes)"},
	{Name: "ugal", Doc: "flattened butterfly/HyperX: BookSim's UGAL, Valiant at the source router if used credits × hops say so (2 lane classes)"},
	{Name: "least-used", Doc: "minimal, the link that has carried fewest packets (ties at random)"},
	{Name: "random", Doc: "minimal, uniformly at random"},
	{Name: "quiet", Doc: "minimal, the link idle for longest (ties at random)"},
	{Name: "short-queue", Doc: "minimal, the lane with the shortest queue (ties at random)"},
	{Name: "first-ready", Doc: "minimal, a free lane if any, else the one ready soonest (ties at random)"},
	{Name: "hot-potato", Doc: "store-and-forward or virtual cut-through: a free minimal link if any, else any free link (deflection, seed 003 §2.4.2), else the first to be free; the oldest packet in the network goes only minimally and before younger ones, so it cannot deadlock or livelock (docs/RUNTIME.md gives the bound)"},
	{Name: "valiant", Doc: "shortest to a random intermediate (a switch of the core where processors hang off switches, else a processor), then shortest to the destination; on a dragonfly through a random other group, on a flattened butterfly/HyperX a random router, by rule with lane classes per phase"},
	{Name: "tree", Doc: "along a BFS spanning tree rooted at Options.Src (deadlock-free); broadcast follows it"},
	{Name: "acyclic", Doc: "deadlock-free on any connected graph (TINY, seed 003): minimal paths in the acyclic channel graph; lanes are ordered link components; broadcast on its static trees"},
	{Name: "acyclic-improved", Doc: "acyclic with rule C2: UGLY connects made GOOD where no cycle results (shorter routes)"},
}}

// Arbitration is how a lane chooses among the packets waiting for it.
var Arbitration = &Enum{What: "arbitration", Entries: []Entry{
	{Name: "fifo", Doc: "in order of request"},
	{Name: "roundrobin", Aliases: []string{"round-robin", "rr"}, Doc: "cycling over the input links of the waiting packets"},
}}

// Buffering is where a router keeps a packet that cannot go on yet.
var Buffering = &Enum{What: "buffering", Entries: []Entry{
	{Name: "input", Doc: "at its inputs: a blocked worm keeps the lanes its flits fill behind it (buffer flits a lane), and packets behind it on those lanes wait (head-of-line blocking)"},
	{Name: "output", Doc: "in unbounded output queues: a blocked packet waits whole at the router and frees the lane it came in by, so packets behind it go on to other outputs"},
}}

// Allocator is how a router's switch allocator gives a wire's cycles to
// the lanes that share it (under credit flow control, with several lanes).
var Allocator = &Enum{What: "allocator", Entries: []Entry{
	{Name: "packet", Doc: "packet by packet: a packet alone on a wire keeps it to its tail, through the cycles it waits for credits or its own flits, and packets that share a wire lose nothing to allocation (the default)"},
	{Name: "islip", Doc: "BookSim 2's default iSLIP, one iteration: the cycles a lone packet waits carry the flits of the packets that share the wire next, and a wire shared by packets of different inputs, one of which also sends elsewhere, loses cycles to mismatched grants"},
}}

// Rendezvous is how a processor sends a message above the eager limit.
var Rendezvous = &Enum{What: "rendezvous", Entries: []Entry{
	{Name: "handshake", Doc: "a request to send, a clear-to-send back once the receiver has matched it, then the data (the default)"},
	{Name: "match", Doc: "the data at once, as an eager message; the send completes when the receiver matches it (LogGOPS)"},
}}

// ChannelSetup is how a processor opens the channels of a message sent on
// several (seed 000 §4).
var ChannelSetup = &Enum{What: "channel_setup", Entries: []Entry{
	{Name: "overlapped", Doc: "a channel transmits once its own set-up is done, while the next is set up (the H1's integer unit beside its VCP; the default)"},
	{Name: "serial", Doc: "every channel is set up before the first packet leaves, as seed 000's Eq. 5 charges cγ"},
}}

// enums are the enumerations, each known by the field it is written in
// (Enum.What).
var enums = []*Enum{Switching, Routing, Arbitration, Buffering, Allocator, Rendezvous, ChannelSetup}

// Enums returns the enumerations: switching, routing, arbitration,
// buffering, allocator, rendezvous and channel_setup, in that order.
func Enums() []*Enum { return slices.Clone(enums) }

// EnumOf returns the enumeration a field is written with ("routing"), if the
// field takes one.
func EnumOf(field string) (*Enum, bool) {
	for _, e := range enums {
		if e.What == field {
			return e, true
		}
	}
	return nil, false
}

// Generator is a topology generator: `topology t = torus(4, 4)`.
type Generator struct {
	Name      string
	Signature string // as help shows it: "tree(k, depth)"
	// MinArgs and MaxArgs bound the number of arguments, each a whole
	// number; Ranges says what each must be.
	MinArgs, MaxArgs int
	Ranges           string
	Doc              string
	// Words, when set, are the words the last argument may be written
	// as instead of a number (dragonfly's arrangement of global links);
	// the generator receives the word's index in Words.
	Words []string
}

// Generators lists the topology generators in the order help shows them.
var Generators = []Generator{
	{Name: "hypercube", Signature: "hypercube(d)", MinArgs: 1, MaxArgs: 1, Ranges: "d ≥ 0", Doc: "2^d nodes, neighbours differ in one bit of their label"},
	{Name: "mesh", Signature: "mesh(d1, d2, ...)", MinArgs: 1, MaxArgs: 16, Ranges: "every side ≥ 1", Doc: "a grid without wrap-around, up to 16 dimensions"},
	{Name: "torus", Signature: "torus(d1, d2, ...)", MinArgs: 1, MaxArgs: 16, Ranges: "every side ≥ 1", Doc: "a grid with wrap-around, up to 16 dimensions"},
	{Name: "ring", Signature: "ring(n)", MinArgs: 1, MaxArgs: 1, Ranges: "n ≥ 1", Doc: "n nodes in a cycle (a 1-D torus)"},
	{Name: "chain", Signature: "chain(n)", MinArgs: 1, MaxArgs: 1, Ranges: "n ≥ 1", Doc: "n nodes in a line (a 1-D mesh)"},
	{Name: "tree", Signature: "tree(k, depth)", MinArgs: 2, MaxArgs: 2, Ranges: "k ≥ 1, depth ≥ 0", Doc: "a complete k-ary tree"},
	{Name: "full", Signature: "full(n)", MinArgs: 1, MaxArgs: 1, Ranges: "n ≥ 1", Doc: "n nodes, each linked to every other"},
	{Name: "star", Signature: "star(n)", MinArgs: 1, MaxArgs: 1, Ranges: "n ≥ 0", Doc: "n processors (nodes 0..n-1), each on its own link to one switch (node n): a crossbar, routed by rule (processor, switch, processor) at any n"},
	{Name: "fattree", Signature: "fattree(k, n)", MinArgs: 2, MaxArgs: 2, Ranges: "k ≥ 1, n ≥ 1", Doc: "a k-ary n-tree (BookSim's fattree): k^n processors under n levels of k^(n-1) switches with k links down and k up"},
	{Name: "xgft", Signature: "xgft(h, m1, ..., mh, w1, ..., wh)", MinArgs: 3, MaxArgs: 33, Ranges: "1 ≤ h ≤ 16, every m ≥ 1, every w ≥ 1", Doc: "an extended generalized fat tree (folded Clos): h switch levels; a level-i node has m_i children and w_(i+1) parents; m1 processors a leaf switch, w < m tapers"},
	{Name: "dragonfly", Signature: "dragonfly(p, a, h, g[, arrangement=absolute])", MinArgs: 4, MaxArgs: 5, Ranges: "p ≥ 1, a ≥ 1, h ≥ 0, 1 ≤ g ≤ a·h + 1; arrangement absolute (BookSim's dragonflynew), relative or circulant", Doc: "g groups of a all-to-all routers, each with p processors and h global links to other groups", Words: []string{"absolute", "relative", "circulant"}},
	{Name: "flatfly", Signature: "flatfly(k, n[, c=1])", MinArgs: 2, MaxArgs: 3, Ranges: "k ≥ 1, n ≥ 1, c ≥ 1", Doc: "a flattened butterfly (BookSim's flatfly): k^n routers, each linked to every router that differs in one coordinate, c processors each"},
	{Name: "hyperx", Signature: "hyperx(c, s1, s2, ...)", MinArgs: 2, MaxArgs: 17, Ranges: "c ≥ 1, every side ≥ 1", Doc: "a HyperX: routers on a grid of the given sides, each linked to every router that differs in one coordinate, c processors each"},
	{Name: "hamiltonian", Signature: "hamiltonian(n, seed[, degree=4])", MinArgs: 2, MaxArgs: 3, Ranges: "n ≥ 3, 2 ≤ degree ≤ n-1, n × (degree-2) even", Doc: "a random graph of the given degree around a Hamiltonian cycle"},
}

// LookupGenerator finds a generator by name.
func LookupGenerator(name string) (Generator, bool) {
	for _, g := range Generators {
		if g.Name == name {
			return g, true
		}
	}
	return Generator{}, false
}

// GeneratorNames lists the generators' names, sorted.
func GeneratorNames() []string {
	out := make([]string, len(Generators))
	for i, g := range Generators {
		out[i] = g.Name
	}
	sort.Strings(out)
	return out
}

// Collective is a collective operation a program may call, with the
// algorithms that may carry it out (`allreduce(8KB, algorithm: ring)`). A
// program that names none leaves the choice to the executor.
type Collective struct {
	Name       string
	Signature  string // as a program calls it
	Algorithms *Enum
	Doc        string
}

func algorithms(names ...string) *Enum {
	e := &Enum{What: "algorithm"}
	for _, n := range names {
		e.Entries = append(e.Entries, Entry{Name: n})
	}
	return e
}

// Collectives lists the collective operations of programs.
var Collectives = []Collective{
	{Name: "barrier", Signature: "barrier()", Algorithms: algorithms("dissemination", "dimension", "tree"), Doc: "every rank waits until all have arrived"},
	{Name: "bcast", Signature: "bcast(BYTES, root: R)", Algorithms: algorithms("binomial", "linear", "pipeline"), Doc: "the root's BYTES reach every rank"},
	{Name: "reduce", Signature: "reduce(BYTES, root: R)", Algorithms: algorithms("binomial", "linear"), Doc: "every rank's BYTES combine at the root"},
	{Name: "allreduce", Signature: "allreduce(BYTES)", Algorithms: algorithms("recursive-doubling", "ring", "reduce-bcast"), Doc: "every rank's BYTES combine, and every rank has the result"},
	{Name: "allgather", Signature: "allgather(BYTES)", Algorithms: algorithms("ring", "recursive-doubling"), Doc: "every rank's block of BYTES reaches every rank"},
	{Name: "alltoall", Signature: "alltoall(BYTES)", Algorithms: algorithms("pairwise", "linear"), Doc: "every rank sends a block of BYTES to every other"},
	{Name: "scatter", Signature: "scatter(BYTES, root: R)", Algorithms: algorithms("binomial", "linear"), Doc: "the root sends a block of BYTES to each rank"},
	{Name: "gather", Signature: "gather(BYTES, root: R)", Algorithms: algorithms("binomial", "linear"), Doc: "each rank's block of BYTES reaches the root"},
}

// LookupCollective finds a collective by name.
func LookupCollective(name string) (Collective, bool) {
	for _, c := range Collectives {
		if c.Name == name {
			return c, true
		}
	}
	return Collective{}, false
}
