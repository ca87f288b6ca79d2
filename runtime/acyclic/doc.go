// Package acyclic computes deadlock-free ("acyclic") routing for arbitrary
// connected multigraphs, following L. Clarke's TINY router (seed 003,
// §2.4.3–2.4.4 and §3.4.2), and checks any routing function for deadlock
// freedom statically.
//
// # The idea
//
// A packet holding one directed link (a channel) while it waits for the next
// one creates a dependency between the two channels. If the graph of all
// possible dependencies — the connect matrix C over the directed links L — has
// no cycle, no set of packets can wait on each other in a circle, so routing
// restricted to (L, C) cannot deadlock. The difficulty is to keep (L, C)
// acyclic while still affording a route between every pair of processors.
//
// TINY colours the links: the trivial colouring (Fig. 2.8 and Fig. 3.8) labels
// the links of a breadth-first spanning tree from processor 0 with colour 0,
// then repeatedly labels a breadth-first tree of the still unlabelled links
// (rooted at the lowest processor that has one) with the next colour, until
// every link has a colour. Each colour graph is a forest, so a packet moving
// inside one colour without turning back follows a tree path and cannot
// cycle. The connect from arriving link l to leaving link m at a processor is
//
//   - BAD if m leads back to the processor l came from (also through a
//     parallel link of a multigraph);
//   - GOOD if colour(l) >= colour(m) (rule C1: colours are only ever
//     descended, so no cycle can run through several colours);
//   - UGLY otherwise.
//
// Because colour 0 is a spanning tree, every packet can always descend into
// it and reach any processor: the routing is fully connected. The plain
// variant forbids every UGLY connect. The improved variant (rule C2, §3.4.2)
// then visits the UGLY connects in order and makes each one GOOD when the
// channels reachable from m through GOOD connects do not include l, i.e. when
// allowing it cannot close a cycle; otherwise it becomes BAD. (L, C) stays
// acyclic and the routes only get shorter.
//
// With multilinks (rule C′), each physical link has Components linearly
// ordered components. A connect from component a to component b is allowed if
// b > a, or b == a and the underlying connect is GOOD; a packet may climb to
// a higher component wherever the underlying colouring would force a detour,
// so two components give rings and tori their natural path lengths back.
//
// Routing tables hold, for every processor v, destination d and arrival
// channel (or local injection), the set of leaving channels that lie on a
// minimal path in (L, C) to d. They are built from a backward breadth-first
// search over channels per destination and stored as packed bit sets, so
// memory is exactly one bit per (destination, processor, arrival, leaving
// channel) triple: Θ(n²·d²), 10 GiB at 65,536 processors of degree 4.
// Beyond Options.FullTableBytes the network routes on demand instead: it
// keeps the connects, runs the same backward search for a destination when
// it is first asked about, and caches the channel distances (a clock cache
// bounded by Options.CacheBytes); the leaving channels follow from the
// distances by the rule the tables are filled with, so both modes give the
// same routes. A [Memo] keeps, per destination, the choices along the
// minimal-path graphs actually travelled, for simulations with packets in
// flight to more destinations than the cache holds. Broadcast trees are
// breadth-first trees over processors whose branches obey the connect
// matrix.
//
// [Check] builds the channel dependency graph of any routing function given by
// a callback and reports whether it is acyclic and whether every ordered pair
// of processors has a route. It walks the channels a packet may hold toward
// each destination in turn; a routing that reads a destination outside its
// group only through the group (Routing.Group: a dragonfly's) is walked
// outside a group once for all its destinations, with the same report.
// Several routings whose packets share the channels are checked together
// over a copy of the channels each (Routing.Copies): a packet keeps to its
// routing's copy, and the dependencies are merged onto the real channels,
// whose graph can cycle where no routing's alone does.
package acyclic
