package acyclic

import (
	"fmt"
	"math/rand/v2"
)

// Graph generators for the tests. Link order fixes port order and hence
// the tree labelling, so every generator lists links deterministically.

func ring(n int) []Link {
	links := make([]Link, 0, n)
	for i := 0; i < n; i++ {
		links = append(links, Link{i, (i + 1) % n})
	}
	return links
}

// doubleRing is the multigraph of Table 3.1: every ring link doubled.
func doubleRing(n int) []Link {
	links := make([]Link, 0, 2*n)
	for i := 0; i < n; i++ {
		links = append(links, Link{i, (i + 1) % n}, Link{i, (i + 1) % n})
	}
	return links
}

// torus is the k×k torus; processor x + k·y.
func torus(k int) []Link {
	links := make([]Link, 0, 2*k*k)
	for y := 0; y < k; y++ {
		for x := 0; x < k; x++ {
			v := x + k*y
			links = append(links, Link{v, (x+1)%k + k*y}, Link{v, x + k*((y+1)%k)})
		}
	}
	return links
}

func hypercube(d int) []Link {
	var links []Link
	for v := 0; v < 1<<d; v++ {
		for b := 0; b < d; b++ {
			if w := v ^ 1<<b; v < w {
				links = append(links, Link{v, w})
			}
		}
	}
	return links
}

// newRand is the tests' deterministic generator.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// hamiltonian is a random Hamiltonian graph as in seed 003 §2.4.4: a ring
// 0–1–…–(n−1)–0 with the remaining pair of ports at each processor paired at
// random, with no self or multiplet links (redrawn until there are none).
func hamiltonian(n int, rng *rand.Rand) []Link {
	type pair struct{ a, b int }
	for {
		ports := make([]int, 0, 2*n)
		for v := 0; v < n; v++ {
			ports = append(ports, v, v)
		}
		rng.Shuffle(len(ports), func(i, j int) { ports[i], ports[j] = ports[j], ports[i] })
		seen := make(map[pair]bool, 2*n)
		key := func(a, b int) pair {
			if a > b {
				a, b = b, a
			}
			return pair{a, b}
		}
		links := ring(n)
		ok := true
		for _, l := range links {
			seen[key(l.A, l.B)] = true
		}
		for i := 0; i < len(ports) && ok; i += 2 {
			a, b := ports[i], ports[i+1]
			if a == b || seen[key(a, b)] {
				ok = false
				break
			}
			seen[key(a, b)] = true
			links = append(links, Link{a, b})
		}
		if ok {
			return links
		}
	}
}

// shortest is cyclic shortest-path routing on the same channels as Build
// (link i is channels 2i and 2i+1): every leaving channel one hop closer.
type shortest struct {
	n          int
	tail, head []int32
	ports      [][]int32
	dist       []int32 // dist[d*n+v]
}

func newShortest(n int, links []Link) *shortest {
	s := &shortest{n: n, ports: make([][]int32, n), dist: make([]int32, n*n)}
	for i, l := range links {
		s.tail = append(s.tail, int32(l.A), int32(l.B))
		s.head = append(s.head, int32(l.B), int32(l.A))
		s.ports[l.A] = append(s.ports[l.A], int32(2*i))
		s.ports[l.B] = append(s.ports[l.B], int32(2*i+1))
	}
	for d := 0; d < n; d++ {
		dist := s.dist[d*n : (d+1)*n]
		for i := range dist {
			dist[i] = -1
		}
		dist[d] = 0
		queue := []int32{int32(d)}
		for q := 0; q < len(queue); q++ {
			v := queue[q]
			for _, o := range s.ports[v] {
				if w := s.head[o]; dist[w] < 0 {
					dist[w] = dist[v] + 1
					queue = append(queue, w)
				}
			}
		}
	}
	return s
}

func (s *shortest) next(buf []int, v, dst, _ int) []int {
	if v == dst {
		return buf
	}
	dist := s.dist[dst*s.n:]
	for _, o := range s.ports[v] {
		if dist[s.head[o]] == dist[v]-1 {
			buf = append(buf, int(o))
		}
	}
	return buf
}

func (s *shortest) routing() Routing {
	return Routing{
		Nodes: s.n, Channels: len(s.tail),
		Ends: func(c int) (int, int) { return int(s.tail[c]), int(s.head[c]) },
		Next: func(buf []int, _, dst, at, in int) []int { return s.next(buf, at, dst, in) },
		// Static shortest-path routing takes only the first channel.
		SourceFree: true,
	}
}

// stats are the all-to-all quantities of §3.4.3.
type stats struct {
	mu   float64 // mean hops over all P² ordered pairs (self pairs count 0)
	muX  float64 // mean hops over the P(P−1) pairs of distinct processors
	d    int     // maximum hops
	lp   int     // most messages through-routed by one processor
	ll   int     // most messages over one channel
	msgs int
}

// queued replays the simulation of §3.4.3: every message is queued at its
// source in random order, then in each time step every channel (in random
// order) moves the message at the head of its queue to the next processor,
// and every arrived message (in random order) is delivered or queued on the
// allowed channel with the shortest queue (ties at random). Buffers are
// unlimited, so cyclic routing cannot deadlock here either.
func queued(n, channels int, head func(c int) int, next func(buf []int, v, dst, in int) []int, rng *rand.Rand) stats {
	type msg struct{ dst, hops int32 }
	queues := make([][]msg, channels)
	proc := make([]int, n)
	link := make([]int, channels)
	var st stats
	var buf []int
	total := 0
	enqueue := func(m msg, v, in int) {
		buf = next(buf[:0], v, int(m.dst), in)
		best, ties := -1, 0
		for _, x := range buf {
			switch {
			case best < 0 || len(queues[x]) < len(queues[best]):
				best, ties = x, 1
			case len(queues[x]) == len(queues[best]):
				ties++
				if rng.IntN(ties) == 0 {
					best = x
				}
			}
		}
		if best < 0 {
			panic("no route")
		}
		if m.hops > 0 {
			proc[v]++
		}
		link[best]++
		queues[best] = append(queues[best], m)
	}
	order := make([]int, 0, n*(n-1))
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			if s != d {
				order = append(order, s*n+d)
			}
		}
	}
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, sd := range order {
		enqueue(msg{dst: int32(sd % n)}, sd/n, Local)
	}
	chans := make([]int, channels)
	for i := range chans {
		chans[i] = i
	}
	type arrival struct {
		m  msg
		in int
	}
	var arrived []arrival
	for left := len(order); left > 0; {
		rng.Shuffle(len(chans), func(i, j int) { chans[i], chans[j] = chans[j], chans[i] })
		arrived = arrived[:0]
		for _, c := range chans {
			if q := queues[c]; len(q) > 0 {
				m := q[0]
				m.hops++
				queues[c] = q[1:]
				arrived = append(arrived, arrival{m, c})
			}
		}
		rng.Shuffle(len(arrived), func(i, j int) { arrived[i], arrived[j] = arrived[j], arrived[i] })
		for _, a := range arrived {
			v := head(a.in)
			if v == int(a.m.dst) {
				total += int(a.m.hops)
				st.d = max(st.d, int(a.m.hops))
				st.msgs++
				left--
				continue
			}
			enqueue(a.m, v, a.in)
		}
	}
	st.mu = float64(total) / float64(n*n)
	st.muX = float64(total) / float64(n*(n-1))
	for _, x := range proc {
		st.lp = max(st.lp, x)
	}
	for _, x := range link {
		st.ll = max(st.ll, x)
	}
	return st
}

// namedGraph is a test topology: n processors joined by links.
type namedGraph struct {
	name  string
	n     int
	links []Link
}

// testGraphs are the topologies the package must handle: rings, tori,
// hypercubes, random Hamiltonian graphs, multigraphs and a tree.
func testGraphs() []namedGraph {
	gs := []namedGraph{
		{"single", 1, nil},
		{"pair", 2, []Link{{0, 1}}},
		{"pair-x3", 2, []Link{{0, 1}, {1, 0}, {0, 1}}},
		{"tree", 7, []Link{{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {2, 6}}},
		{"full5", 5, []Link{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}},
	}
	for _, n := range []int{3, 5, 8, 16} {
		gs = append(gs, namedGraph{fmt.Sprint("ring", n), n, ring(n)}, namedGraph{fmt.Sprint("double-ring", n), n, doubleRing(n)})
	}
	for _, k := range []int{3, 4, 5, 8} {
		gs = append(gs, namedGraph{fmt.Sprint("torus", k), k * k, torus(k)})
	}
	for _, d := range []int{1, 3, 4, 6} {
		gs = append(gs, namedGraph{fmt.Sprint("hypercube", d), 1 << d, hypercube(d)})
	}
	for i, n := range []int{16, 64, 256} {
		gs = append(gs, namedGraph{fmt.Sprint("hamiltonian", n), n, hamiltonian(n, newRand(uint64(i)))})
	}
	return gs
}

// allOptions are the option sets the tests run every graph with: each
// variant, with and without merging, with one and with several components.
var allOptions = []Options{
	{Variant: Plain}, {Variant: Improved},
	{Variant: Plain, Merge: true}, {Variant: Improved, Merge: true},
	{Variant: Plain, Components: 2}, {Variant: Improved, Components: 3, Merge: true},
}
