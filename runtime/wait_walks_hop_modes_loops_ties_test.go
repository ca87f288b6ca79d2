package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// runOnce runs one repetition of opts on spec and returns the worker state
// after it, so a test can inspect lanes and packets.
func runOnce(t *testing.T, spec *Spec, opts Options) (*sim, runResult) {
	t.Helper()
	n, err := compile(spec, opts.Routing, opts.Switching, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := n.traffic(&opts)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(n, &opts)
	r := s.once(context.Background(), tr, runSeed(opts.Seed, 0))
	if r.err != nil {
		t.Fatal(r.err)
	}
	return s, r
}

// The deadlock cycle is a closed walk in the wait-for graph over lanes:
// each lane is held by a blocked packet that needs the next lane (the next
// lane of its worm, or the one its head requests), and the last lane's
// holder needs the first. On examples/ring.machine (worms of several
// lanes) it is all eight lanes of one direction.
func TestDeadlockCycleIsWaitForWalk(t *testing.T) {
	text, err := os.ReadFile("../examples/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	spec := sourceSpec(t, "ring.machine", string(text))
	for _, size := range []int{32, 64, 256, 512} {
		s, r := runOnce(t, spec, Options{Op: "alltoall", Size: size, Seed: 1})
		if !r.deadlock {
			t.Fatalf("size %d: no deadlock", size)
		}
		lanes := s.cycleLanes()
		if len(lanes) != 8 || len(r.cycle) != 8 || !closedWalk(r.cycle) {
			t.Fatalf("size %d: cycle %v (lanes %v) is not the 8-lane ring", size, r.cycle, lanes)
		}
		multi := false
		for i, c := range lanes {
			d := lanes[(i+1)%len(lanes)]
			o := s.lane(c).owner
			if !s.lane(c).held(s.now) {
				t.Fatalf("size %d: lane %d of the cycle is free", size, c)
			}
			p := &s.pkts[o]
			if p.waitCh < 0 {
				t.Fatalf("size %d: holder %d of lane %d is not blocked", size, o, c)
			}
			held := func(ch int32) int32 {
				for j := p.tail; j < p.nhops; j++ {
					if p.hop(j).ch == ch {
						return j
					}
				}
				return -1
			}
			j := held(c)
			switch {
			case j < 0:
				t.Fatalf("size %d: packet %d owns lane %d but its path lacks it", size, o, c)
			case j == p.nhops-1 && p.waitCh == d:
				// held lane -> requested lane
			case j+1 < p.nhops && p.hop(j+1).ch == d:
				multi = true // the worm holds both
			default:
				t.Fatalf("size %d: lane %d (held by %d) -> lane %d is not a wait-for edge", size, c, o, d)
			}
		}
		if size >= 64 && !multi {
			t.Errorf("size %d: expected a worm holding two lanes of the cycle", size)
		}
	}
}

// Seed 004 Fig. 9: on the XMP 64-node hypercube a random permutation shows
// one latency mode per hop count. ByHops lists them in ascending hop
// order, accounts for every message, agrees with the hop mean, its mean
// latency grows with the hop count, and it does not depend on the number
// of workers.
func TestByHopsXmp64(t *testing.T) {
	spec := loadSpec(t, "std:xmp64")
	opts := Options{Op: "randperm", Size: 32, Runs: 200, Seed: 4, Workers: 1}
	res := sim1(t, spec, opts)
	if len(res.ByHops) < 4 {
		t.Fatalf("by_hops %+v", res.ByHops)
	}
	n, hopSum := 0, 0
	for i, b := range res.ByHops {
		if b.Messages <= 0 || !(b.Min <= b.Mean && b.Mean <= b.Max) {
			t.Errorf("bad entry %+v", b)
		}
		if i > 0 {
			prev := res.ByHops[i-1]
			if b.Hops <= prev.Hops {
				t.Errorf("hops not ascending: %+v", res.ByHops)
			}
			if b.Mean <= prev.Mean {
				t.Errorf("mean latency does not grow with hops: %d hops %g, %d hops %g", prev.Hops, prev.Mean, b.Hops, b.Mean)
			}
		}
		n += b.Messages
		hopSum += b.Hops * b.Messages
	}
	if n != res.Messages || res.ByHops[len(res.ByHops)-1].Hops != res.Hops.Max {
		t.Errorf("by_hops counts %d messages (want %d), max hops %d (want %d)", n, res.Messages, res.ByHops[len(res.ByHops)-1].Hops, res.Hops.Max)
	}
	if mean := float64(hopSum) / float64(n); mean != res.Hops.Mean {
		t.Errorf("by_hops hop mean %g, hops.mean %g", mean, res.Hops.Mean)
	}
	a, _ := json.Marshal(res)
	opts.Workers = 3
	b, _ := json.Marshal(sim1(t, spec, opts))
	if string(a) != string(b) {
		t.Errorf("1 and 3 workers differ:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(a), `"by_hops":[{"hops":1,"messages":`) {
		t.Errorf("JSON lacks by_hops: %s", a)
	}
}

// Route accepts a legitimate non-minimal path longer than N+1 nodes (a
// routing that depends on the input link may pass a node several times)
// and rejects only a real loop, a (node, input link) state that repeats.
func TestRouteLongPathAndLoop(t *testing.T) {
	g := mustGen(t, "full", 4)
	link := func(a, b int32) int32 {
		for _, x := range g.Adj(a) {
			if x.Node == b {
				return x.Link
			}
		}
		t.Fatalf("no link %d-%d", a, b)
		return -1
	}
	// From 0 to 3 over 0 1 2 0 2 1 0 3: eight nodes on four, every
	// (node, input link) state distinct.
	walk := []int32{0, 1, 2, 0, 2, 1, 0, 3}
	next := map[[2]int32]int32{}
	in := int32(-1)
	for i := 0; i+1 < len(walk); i++ {
		next[[2]int32{walk[i], in}] = link(walk[i], walk[i+1])
		in = link(walk[i], walk[i+1])
	}
	spec := basic(g, 1e-8, 1e8)
	spec.Routes = map[string]RouteFunc{
		"walk": func(inLink, at, dst int32, buf []int32) []int32 {
			if l, ok := next[[2]int32{at, inLink}]; ok {
				return append(buf, l)
			}
			return buf
		},
		"bounce": func(inLink, at, dst int32, buf []int32) []int32 {
			return append(buf, link(at, 1-at%2)) // 0 <-> 1 for ever
		},
	}
	path, err := Route(spec, 0, 3, RouteOptions{Routing: "walk"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(path) != "[0 1 2 0 2 1 0 3]" {
		t.Fatalf("path %v", path)
	}
	if _, err := Route(spec, 0, 3, RouteOptions{Routing: "bounce"}); err == nil || !strings.Contains(err.Error(), "loops") {
		t.Fatalf("bounce: %v", err)
	}
}

// The score-based adaptive routings break ties at random (seed 003
// §2.4.2) with the run's generator: on an idle 4-node hypercube both
// minimal first links from 0 to 3 are equally good, so over seeds both
// are taken, and a seed always takes the same one.
func TestAdaptiveTiesRandom(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 2), 1e-8, 1e8)
	for _, r := range []string{"least-used", "quiet", "short-queue", "first-ready"} {
		first := func(seed uint64) int32 { // the node 0 -> 3 went through
			s, res := runOnce(t, spec, Options{Op: "send", Src: Node(0), Dst: Node(3), Size: 32, Seed: seed, Routing: r})
			if len(res.lat) != 1 {
				t.Fatalf("%s: %d messages", r, len(res.lat))
			}
			for _, a := range s.net.g.Adj(0) {
				if s.wire(s.net.wire(a.Link, 0)).load > 0 {
					return a.Node
				}
			}
			t.Fatalf("%s: no load out of node 0", r)
			return -1
		}
		seen := map[int32]int{}
		for seed := range uint64(40) {
			v := first(seed)
			seen[v]++
			if w := first(seed); w != v {
				t.Fatalf("%s seed %d: via %d, then via %d", r, seed, v, w)
			}
		}
		if len(seen) != 2 {
			t.Errorf("%s: first hops over 40 seeds %v, want both 1 and 2", r, seen)
		}
	}
}
