package acyclic

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestCheckByGroupsReportsAsWithout: with Routing.Group, Check gives the
// report it gives without it, field by field (the cycle, the
// dependencies, the pairs without a route, the dead ends), on routings
// whose Next outside a destination's group reads only that group: on a
// ring of 16 (cyclic) and a 4×4 torus, a packet goes by shortest paths
// toward the first node of dst's group, then within it toward dst. The
// groups are every node alone, blocks of 4 (routes stay in the block once
// there), the residues mod 4 (routes inside a group leave it: those
// destinations are explored in full) and one group of all; with every
// node an endpoint, or some weighted; and with packets for node 3's group
// refused at their source 0 (pairs without a route), on their way
// through node 5 (dead ends), or, for node 3 alone, at node 2 once in its
// group (the routes that enter the group there lead nowhere, the others
// do).
func TestCheckByGroupsReportsAsWithout(t *testing.T) {
	groupings := map[string]func(v int) int{
		"alone":  func(v int) int { return v },
		"blocks": func(v int) int { return v / 4 },
		"mod 4":  func(v int) int { return v % 4 },
		"one":    func(int) int { return 7 },
	}
	nets := map[string][]Link{"ring": ring(16), "torus": torus(4)}
	for _, name := range []string{"ring", "torus"} {
		sp := newShortest(16, nets[name])
		for _, gname := range []string{"alone", "blocks", "mod 4", "one"} {
			group := groupings[gname]
			first := func(d int) int { // the first node of d's group
				for v := range 16 {
					if group(v) == group(d) {
						return v
					}
				}
				return d
			}
			for _, refuse := range []bool{false, true} {
				for _, ends := range [][]int{nil, {0, 3, 5, 6, 9, 12, 15}} {
					r := sp.routing()
					r.Next = func(buf []int, _, dst, at, in int) []int {
						if refuse && group(dst) == group(3) && (in == Local && at == 0 || in != Local && at == 5) {
							return buf
						}
						if refuse && in != Local && at == 2 && dst == 3 && group(at) == group(dst) {
							return buf
						}
						if group(at) != group(dst) {
							return sp.next(buf, at, first(dst), in)
						}
						return sp.next(buf, at, dst, in)
					}
					if ends != nil {
						r.Endpoints, r.Weights = ends, []int{2, 1, 3, 1, 1, 4, 1}
					}
					label := fmt.Sprintf("%s, groups %s, refused %v, endpoints %v", name, gname, refuse, ends)
					want, err := Check(r)
					if err != nil {
						t.Fatal(label, err)
					}
					r.Group = group
					got, err := Check(r)
					if err != nil {
						t.Fatal(label, err)
					}
					if refuse && (want.PairsWithoutRoute == 0 || want.DeadEnds == 0) {
						t.Fatalf("%s: %+v; want pairs without a route and dead ends", label, want)
					}
					if got.Acyclic != want.Acyclic || !slices.Equal(got.Cycle, want.Cycle) || got.Dependencies != want.Dependencies ||
						got.Connected != want.Connected || got.PairsWithoutRoute != want.PairsWithoutRoute || got.DeadEnds != want.DeadEnds {
						t.Errorf("%s: by groups %+v; without %+v", label, got, want)
					}
				}
			}
		}
	}
}

// TestCheckByGroupsNeedsSourceFree: a routing that reads its source cannot
// share the walk outside a group among its destinations.
func TestCheckByGroupsNeedsSourceFree(t *testing.T) {
	r := newShortest(8, ring(8)).routing()
	r.SourceFree = false
	r.Group = func(v int) int { return v / 4 }
	if _, err := Check(r); !errors.Is(err, ErrRouting) {
		t.Errorf("Group without SourceFree: %v; want ErrRouting", err)
	}
}

// TestCopiesCheckTheUnionOfRoutings: two routings on the clockwise
// channels of a ring of four (channel i from node i to i+1), one that
// never takes channel 3 and one that never takes channel 1, are each a
// path and acyclic alone; sharing the channels (Routing.Copies) their
// dependencies close the ring, 0 → 1 and 1 → 2 by the first (a packet
// from 0 to 2, 1 to 3), 2 → 3 and 3 → 0 by the second (2 to 0, 3 to 1).
// A pair has a route when either routing gives one: those whose clockwise
// path crosses both channels 1 and 3 have none, counted here by walking
// each path. Channels that are not a whole number of copies are refused.
func TestCopiesCheckTheUnionOfRoutings(t *testing.T) {
	avoid := [2]int{3, 1}
	crosses := func(s, d, c int) bool { // the clockwise path s → d takes channel c
		for v := s; v != d; v = (v + 1) % 4 {
			if v == c {
				return true
			}
		}
		return false
	}
	routing := func(copies []int) Routing {
		return Routing{
			Nodes: 4, Channels: 4 * len(copies), Copies: len(copies),
			Ends:       func(c int) (int, int) { return c % 4, (c%4 + 1) % 4 },
			SourceFree: true,
			Next: func(buf []int, _, dst, at, in int) []int {
				for i, k := range copies {
					if (in == Local || in/4 == i) && !crosses(at, dst, avoid[k]) {
						buf = append(buf, 4*i+at)
					}
				}
				return buf
			},
		}
	}
	for _, k := range []int{0, 1} {
		rep, err := Check(routing([]int{k}))
		if err != nil || !rep.Acyclic {
			t.Errorf("the routing that avoids channel %d alone: %+v, %v; want acyclic", avoid[k], rep, err)
		}
	}
	rep, err := Check(routing([]int{0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for s := range 4 {
		for d := range 4 {
			if s != d && crosses(s, d, 1) && crosses(s, d, 3) {
				want++
			}
		}
	}
	if rep.Acyclic || !slices.Equal(rep.Cycle, []int{0, 1, 2, 3}) || !slices.Equal(rep.CycleCopies, []int{0, 0, 1, 1}) {
		t.Errorf("together: cycle %v by copies %v; want [0 1 2 3] by [0 0 1 1]", rep.Cycle, rep.CycleCopies)
	}
	if rep.PairsWithoutRoute != want || want == 0 || rep.Dependencies != 4 {
		t.Errorf("together: %d pairs without a route, %d dependencies; want %d and 4", rep.PairsWithoutRoute, rep.Dependencies, want)
	}
	r := routing([]int{0, 1})
	r.Channels = 7
	if _, err := Check(r); !errors.Is(err, ErrRouting) {
		t.Errorf("7 channels in 2 copies: %v; want ErrRouting", err)
	}
}

// TestPairsWithoutRouteFollowLoopingWalks: on a complete directed graph
// of 7 nodes, routings that offer a pseudo-random subset of the channels
// leaving a node (by destination, node and channel held, so routes may
// loop and a walk's states form cycles) leave the pairs without a route
// that a search from each source over the channels a packet may hold
// finds: a pair has a route when a channel into the destination is
// reached. Most seeds leave some pairs without a route and route others.
func TestPairsWithoutRouteFollowLoopingWalks(t *testing.T) {
	mixed := 0
	const n = 7
	var tail, head []int
	for a := range n {
		for b := range n {
			if a != b {
				tail, head = append(tail, a), append(head, b)
			}
		}
	}
	for seed := range uint64(40) {
		offers := func(dst, at, in, c int) bool {
			h := (seed+1)*0x9e3779b97f4a7c15 ^ uint64(dst*1000003+at*10007+(in+1)*101+c)
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
			h ^= h >> 32
			return h%5 < 2
		}
		next := func(buf []int, dst, at, in int) []int {
			for c := range tail {
				if tail[c] == at && offers(dst, at, in, c) {
					buf = append(buf, c)
				}
			}
			return buf
		}
		want := 0
		for src := range n {
			for dst := range n {
				if src == dst {
					continue
				}
				seen := make([]bool, len(tail))
				queue := next(nil, dst, src, Local)
				for _, c := range queue {
					seen[c] = true
				}
				found := false
				for i := 0; i < len(queue) && !found; i++ {
					c := queue[i]
					if head[c] == dst {
						found = true
						break
					}
					for _, d := range next(nil, dst, head[c], c) {
						if !seen[d] {
							seen[d] = true
							queue = append(queue, d)
						}
					}
				}
				if !found {
					want++
				}
			}
		}
		r := Routing{Nodes: n, Channels: len(tail), SourceFree: true,
			Ends: func(c int) (int, int) { return tail[c], head[c] },
			Next: func(buf []int, _, dst, at, in int) []int { return next(buf, dst, at, in) }}
		rep, err := Check(r)
		if err != nil {
			t.Fatal(err)
		}
		if rep.PairsWithoutRoute != want {
			t.Errorf("seed %d: %d pairs without a route; want %d", seed, rep.PairsWithoutRoute, want)
		}
		if want > 0 && want < n*(n-1) {
			mixed++
		}
	}
	if mixed < 20 {
		t.Errorf("%d of 40 seeds leave some pairs without a route and route others; want most", mixed)
	}
}

// TestMaxBytesBoundsTheWalksAndTheDependencies: shortest paths on a ring
// of 600 (one worker) reach at most the 600 channels toward a destination,
// each offering one next channel: a walk's transitions fit the first room
// given, 1,024 of 4 bytes. With 4,096 bytes that is all the walks take,
// but the 1,200 dependencies (each of the 1,200 channels waits for the
// next one on) need 4,800 bytes and are refused; with 4,095 bytes the
// first walk is; with 16 KB both fit and the report is the unbounded one.
func TestMaxBytesBoundsTheWalksAndTheDependencies(t *testing.T) {
	r := newShortest(600, ring(600)).routing()
	r.Parallel = false
	want, err := Check(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bytes int64
		what  string
		count int64
	}{{4095, "transitions", 600}, {4096, "dependencies", int64(want.Dependencies)}, {16 << 10, "", 0}} {
		r.MaxBytes = c.bytes
		got, err := Check(r)
		var me *MemoryError
		switch {
		case c.what == "":
			if err != nil || got.Acyclic != want.Acyclic || !slices.Equal(got.Cycle, want.Cycle) || got.Dependencies != want.Dependencies {
				t.Errorf("MaxBytes %d: %+v, %v; want %+v", c.bytes, got, err, want)
			}
		case !errors.As(err, &me) || me.What != c.what || me.Limit != c.bytes:
			t.Errorf("MaxBytes %d: %v; want a MemoryError for %s", c.bytes, err, c.what)
		case c.what == "dependencies" && (me.Count != c.count || me.Bytes != 4*c.count):
			t.Errorf("MaxBytes %d: %+v; want %d dependencies in %d bytes", c.bytes, me, c.count, 4*c.count)
		case c.what == "transitions" && me.Count > c.count:
			t.Errorf("MaxBytes %d: %+v; want a walk of at most %d transitions", c.bytes, me, c.count)
		}
	}
	if want.Dependencies != 1200 {
		t.Errorf("%d dependencies; want 1,200", want.Dependencies)
	}
}
