package runtime

import (
	"context"
	"os"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// runOnce runs one repetition of opts on spec and returns the worker state
// after it, so a test can inspect lanes and packets.
func runOnce(t *testing.T, spec *Spec, opts Options) (*sim, runResult) {
	t.Helper()
	n, err := compile(spec, opts.Routing, opts.Switching)
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
	m, err := eval.LoadSource("ring.machine", string(text))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := FromMachine(m, "")
	if err != nil {
		t.Fatal(err)
	}
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
			o := s.owner[c]
			if o < 0 {
				t.Fatalf("size %d: lane %d of the cycle is free", size, c)
			}
			p := &s.pkts[o]
			if p.waitCh < 0 {
				t.Fatalf("size %d: holder %d of lane %d is not blocked", size, o, c)
			}
			held := func(ch int32) int32 {
				for j := p.tail; j < p.nhops; j++ {
					if p.hops[j-p.base].ch == ch {
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
			case j+1 < p.nhops && p.hops[j+1-p.base].ch == d:
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
