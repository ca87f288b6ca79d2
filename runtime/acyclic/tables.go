package acyclic

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// buildTables computes, per destination d, the distance to d of every
// channel in (L, C) by a backward breadth-first search from the channels
// entering d, and records at every processor v ≠ d, for each arrival (the
// reverse of each port, then local injection), the leaving channels on
// minimal paths (§3.4.2 "Directed"). Destinations are independent, so they
// are spread over the CPUs; each writes only its own slice of the table.
func (nw *Network) buildTables() {
	n := nw.n
	nw.buildAdjacency()
	nw.table = make([]uint64, int64(n)*nw.words)
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dist := make([]int32, len(nw.tail))
			queue := make([]int32, 0, len(nw.tail))
			for {
				d := next.Add(1) - 1
				if d >= int64(n) {
					return
				}
				nw.distances(int32(d), dist, queue)
				nw.fill(int32(d), dist)
			}
		}()
	}
	wg.Wait()
}

// buildAdjacency lists the allowed connects of every channel both ways: the
// leaving port indices after it and the arriving channels before it.
func (nw *Network) buildAdjacency() {
	nc := len(nw.tail)
	nw.succStart = make([]int32, nc+1)
	nw.predStart = make([]int32, nc+1)
	for c := 0; c < nc; c++ {
		j := nw.head[c]
		for _, o := range nw.port[nw.portStart[j]:nw.portStart[j+1]] {
			if nw.allowed(int32(c), o) {
				nw.succStart[c+1]++
				nw.predStart[o+1]++
			}
		}
	}
	for c := 0; c < nc; c++ {
		nw.succStart[c+1] += nw.succStart[c]
		nw.predStart[c+1] += nw.predStart[c]
	}
	nw.succ = make([]int32, nw.succStart[nc])
	nw.pred = make([]int32, nw.predStart[nc])
	fill := append([]int32(nil), nw.predStart[:nc]...)
	k := 0
	for c := 0; c < nc; c++ {
		j := nw.head[c]
		for b, o := range nw.port[nw.portStart[j]:nw.portStart[j+1]] {
			if nw.allowed(int32(c), o) {
				nw.succ[k] = int32(b)
				k++
				nw.pred[fill[o]] = int32(c)
				fill[o]++
			}
		}
	}
}

// distances sets dist[c] to the number of channels on a shortest path in
// (L, C) that starts with channel c and ends entering processor d (-1 if none).
func (nw *Network) distances(d int32, dist, queue []int32) {
	for i := range dist {
		dist[i] = -1
	}
	queue = queue[:0]
	for _, o := range nw.port[nw.portStart[d]:nw.portStart[d+1]] {
		dist[o^1] = 1
		queue = append(queue, o^1)
	}
	for q := 0; q < len(queue); q++ {
		m := queue[q]
		for _, c := range nw.pred[nw.predStart[m]:nw.predStart[m+1]] {
			if dist[c] < 0 {
				dist[c] = dist[m] + 1
				queue = append(queue, c)
			}
		}
	}
}

func (nw *Network) fill(d int32, dist []int32) {
	tbl := nw.table[int64(d)*nw.words : int64(d+1)*nw.words]
	set := func(bit int64) { tbl[bit>>6] |= 1 << (bit & 63) }
	for v := int32(0); v < int32(nw.n); v++ {
		if v == d {
			continue
		}
		ports := nw.port[nw.portStart[v]:nw.portStart[v+1]]
		deg := int64(len(ports))
		base := nw.bitBase[v]
		// Local injection: any leaving channel of minimal distance.
		min := int32(-1)
		for _, o := range ports {
			if x := dist[o]; x > 0 && (min < 0 || x < min) {
				min = x
			}
		}
		for b, o := range ports {
			if dist[o] == min && min > 0 {
				set(base + deg*deg + int64(b))
			}
		}
		// Arrival on the reverse of port a: allowed successors one closer.
		for a, back := range ports {
			in := back ^ 1
			if dist[in] <= 1 {
				continue // no route to d through in, or in enters d
			}
			for _, b := range nw.succ[nw.succStart[in]:nw.succStart[in+1]] {
				if dist[ports[b]] == dist[in]-1 {
					set(base + int64(a)*deg + int64(b))
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
			return buf, fmt.Errorf("acyclic: no route from %d to %d at processor %d", src, dst, v)
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
func (nw *Network) BroadcastTree(src int) ([]int32, error) {
	if src < 0 || src >= nw.n {
		return nil, fmt.Errorf("%w: broadcast source %d outside 0..%d", ErrInput, src, nw.n-1)
	}
	parent := make([]int32, nw.n)
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
			if seen[w] || (pc >= 0 && !nw.allowed(pc, o)) {
				continue
			}
			seen[w] = true
			parent[w] = o
			queue = append(queue, w)
		}
	}
	if len(queue) != nw.n { // cannot happen: colour 0 is a spanning tree
		return nil, fmt.Errorf("acyclic: broadcast from %d reaches %d of %d processors", src, len(queue), nw.n)
	}
	return parent, nil
}

// TableBytes returns the memory held by the routing tables.
func (nw *Network) TableBytes() int64 { return int64(len(nw.table)) * 8 }
