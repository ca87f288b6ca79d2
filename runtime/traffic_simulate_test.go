package runtime

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

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
