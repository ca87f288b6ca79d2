package acyclic

import (
	"context"
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/internal/workers"
)

// buildTables computes, per destination d, the distance to d of every
// channel in (L, C) by a backward breadth-first search from the channels
// entering d, and records at every processor v ≠ d, for each arrival (the
// reverse of each port, then local injection), the leaving channels on
// minimal paths (§3.4.2 "Directed"). Destinations are independent, so they
// are spread over the CPUs; each writes only its own slice of the table.
//
// The searches index channels by slot, their position in the port lists,
// so that a processor's leaving channels are adjacent in memory.
func (nw *Network) buildTables() {
	n := nw.n
	adj := nw.adjacency()
	nw.table = make([]uint64, int64(n)*nw.words)
	// Short distances keep the searched array in the fastest cache.
	short := len(nw.tail) < math.MaxUint16
	type buffers struct {
		queue []int32
		d16   []uint16 // distances when short
		d32   []uint32 // else
	}
	_ = workers.For(context.Background(), 0, n, func() *buffers {
		b := &buffers{queue: make([]int32, 0, len(nw.tail))}
		if short {
			b.d16 = make([]uint16, len(nw.tail))
		} else {
			b.d32 = make([]uint32, len(nw.tail))
		}
		return b
	}, func(_ context.Context, b *buffers, d int) error {
		if short {
			distances(adj, int32(d), b.d16, b.queue)
			fill(adj, int32(d), b.d16)
		} else {
			distances(adj, int32(d), b.d32, b.queue)
			fill(adj, int32(d), b.d32)
		}
		return nil
	})
}

// adjacency holds the allowed connects by slot while the tables are built.
type adjacency struct {
	nw *Network
	// rev[s] is the slot of the reverse of the channel in slot s: the
	// channel by which a packet arrives through port s.
	rev []int32
	// Arrival through port slot s may continue on the port indices
	// succ[succStart[s]:succStart[s+1]] of the same processor.
	succStart, succ []int32
	// The channel in slot s may be entered after the channels in slots
	// pred[predStart[s]:predStart[s+1]].
	predStart, pred []int32
}

func (nw *Network) adjacency() *adjacency {
	nc := len(nw.tail)
	a := &adjacency{nw: nw, rev: make([]int32, nc), succStart: make([]int32, nc+1), predStart: make([]int32, nc+1)}
	for s, c := range nw.port {
		r := c ^ 1
		a.rev[s] = nw.portStart[nw.tail[r]] + nw.portIdx[r]
	}
	var succ []int32
	for v := 0; v < nw.n; v++ {
		ps := nw.portStart[v]
		ports := nw.port[ps:nw.portStart[v+1]]
		for i, back := range ports {
			in := back ^ 1
			for b, o := range ports {
				if nw.allowed(in, o) {
					succ = append(succ, int32(b))
					a.predStart[ps+int32(b)+1]++
				}
			}
			a.succStart[ps+int32(i)+1] = int32(len(succ))
		}
	}
	a.succ = succ
	for s := 0; s < nc; s++ {
		a.predStart[s+1] += a.predStart[s]
	}
	a.pred = make([]int32, a.predStart[nc])
	fill := append([]int32(nil), a.predStart[:nc]...)
	for v := 0; v < nw.n; v++ {
		ps := nw.portStart[v]
		for i := ps; i < nw.portStart[v+1]; i++ {
			for _, b := range succ[a.succStart[i]:a.succStart[i+1]] {
				o := ps + b
				a.pred[fill[o]] = a.rev[i]
				fill[o]++
			}
		}
	}
	return a
}

// distance is a hop count; 0 means "no path".
type distance interface{ ~uint16 | ~uint32 }

// distances sets dist[s] to the number of channels on a shortest path in
// (L, C) that starts with the channel in slot s and ends entering processor
// d (0 if none).
func distances[T distance](a *adjacency, d int32, dist []T, queue []int32) {
	clear(dist)
	queue = queue[:0]
	nw := a.nw
	for s := nw.portStart[d]; s < nw.portStart[d+1]; s++ {
		in := a.rev[s]
		dist[in] = 1
		queue = append(queue, in)
	}
	for q := 0; q < len(queue); q++ {
		m := queue[q]
		for _, c := range a.pred[a.predStart[m]:a.predStart[m+1]] {
			if dist[c] == 0 {
				dist[c] = dist[m] + 1
				queue = append(queue, c)
			}
		}
	}
}

func fill[T distance](a *adjacency, d int32, dist []T) {
	nw := a.nw
	tbl := nw.table[int64(d)*nw.words : int64(d+1)*nw.words]
	for v := int32(0); v < int32(nw.n); v++ {
		if v == d {
			continue
		}
		ps, pe := nw.portStart[v], nw.portStart[v+1]
		out := dist[ps:pe]
		deg := int64(len(out))
		base := nw.bitBase[v]
		// Local injection: any leaving channel of minimal distance.
		var min T
		for _, x := range out {
			if x > 0 && (min == 0 || x < min) {
				min = x
			}
		}
		for b, x := range out {
			if x == min && min > 0 {
				bit := base + deg*deg + int64(b)
				tbl[bit>>6] |= 1 << (bit & 63)
			}
		}
		// Arrival through port i: allowed successors one step closer.
		for i := ps; i < pe; i++ {
			in := dist[a.rev[i]]
			if in <= 1 {
				continue // no route to d through this arrival
			}
			want := in - 1
			row := base + int64(i-ps)*deg
			for _, b := range a.succ[a.succStart[i]:a.succStart[i+1]] {
				if out[b] == want {
					bit := row + int64(b)
					tbl[bit>>6] |= 1 << (bit & 63)
				}
			}
		}
	}
}

// Next appends to buf the channels a packet for dst may leave processor v on,
// having arrived on channel in (or Local when injected at v), and returns the
// extended slice: every channel on a minimal path to dst in (L, C), in
// ascending order. A static router takes the first; an adaptive one may take
// any. Nothing is appended when v == dst (deliver), when no packet for dst
// can arrive on in, or when an argument is out of range.
func (nw *Network) Next(buf []int, v, dst, in int) []int {
	if v < 0 || v >= nw.n || dst < 0 || dst >= nw.n || v == dst {
		return buf
	}
	ports := nw.port[nw.portStart[v]:nw.portStart[v+1]]
	deg := int64(len(ports))
	a := deg
	if in != Local {
		if in < 0 || in >= len(nw.head) || nw.head[in] != int32(v) {
			return buf
		}
		a = int64(nw.portIdx[in^1])
	}
	if nw.table == nil {
		return nw.nextOnDemand(buf, v, dst, in)
	}
	tbl := nw.table[int64(dst)*nw.words : int64(dst+1)*nw.words]
	bit := nw.bitBase[v] + a*deg
	for b := int64(0); b < deg; b++ {
		x := bit + b
		if tbl[x>>6]&(1<<(x&63)) != 0 {
			buf = append(buf, int(ports[b]))
		}
	}
	return buf
}

// Route appends to buf the channels of the route a static router takes from
// src to dst (always the first channel Next offers) and returns it; its
// length is the distance from src to dst in (L, C).
func (nw *Network) Route(buf []int, src, dst int) ([]int, error) {
	if src < 0 || src >= nw.n || dst < 0 || dst >= nw.n {
		return buf, fmt.Errorf("%w: route %d→%d outside 0..%d", ErrInput, src, dst, nw.n-1)
	}
	v, in := src, Local
	var next [1]int
	for v != dst {
		c := nw.Next(next[:0], v, dst, in)
		if len(c) == 0 { // cannot happen for a network Build accepted
			return buf, fmt.Errorf("no route from %d to %d at processor %d", src, dst, v)
		}
		in = c[0]
		buf = append(buf, in)
		v = int(nw.head[in])
	}
	return buf, nil
}

// BroadcastTree returns, for a broadcast from src, the channel on which each
// processor receives it (-1 at src): a breadth-first tree over processors in
// which a processor forwards only on channels the connect matrix allows after
// its own parent channel (§3.4.2 "Broadcast"), so broadcasts, too, respect
// the acyclic (L, C) graph. A processor v forwards a broadcast from src on
// every channel c with parent[head(c)] == c. It costs O(channels) per call.
func (nw *Network) BroadcastTree(src int) ([]int, error) {
	if src < 0 || src >= nw.n {
		return nil, fmt.Errorf("%w: broadcast source %d outside 0..%d", ErrInput, src, nw.n-1)
	}
	parent := make([]int, nw.n)
	for i := range parent {
		parent[i] = -1
	}
	seen := make([]bool, nw.n)
	seen[src] = true
	queue := []int32{int32(src)}
	for q := 0; q < len(queue); q++ {
		v := queue[q]
		pc := parent[v]
		for _, o := range nw.port[nw.portStart[v]:nw.portStart[v+1]] {
			w := nw.head[o]
			if seen[w] || (pc >= 0 && !nw.allowed(int32(pc), o)) {
				continue
			}
			seen[w] = true
			parent[w] = int(o)
			queue = append(queue, w)
		}
	}
	if len(queue) != nw.n { // cannot happen: colour 0 is a spanning tree
		return nil, fmt.Errorf("broadcast from %d reaches %d of %d processors", src, len(queue), nw.n)
	}
	return parent, nil
}

// TableBytes returns the memory held by the full routing tables (0 when
// routing on demand; see CacheStats).
func (nw *Network) TableBytes() int64 { return int64(len(nw.table)) * 8 }
