package runtime

import (
	"os"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/parasol-lang/parasol/internal/cputime"
)

// What a conservative parallel kernel (synchronous windows as wide as the
// lookahead, the torus cut into stripes of rows, one event queue each)
// would face on one run: BenchmarkWindowProfile replays a burst event by
// event as sim.run does and counts, per window of one link latency, each
// stripe's events, the heads crossing a cut (the messages a stripe would
// send the next), and the events that change another stripe's lanes at
// the same instant, which no window can carry (the obstacle:
// docs/PERFORMANCE.md, "One run on both cores"). BenchmarkWindowBarrier
// is the cost of one window's barrier between two goroutines.

// windowProfile is one run's events grouped by window and stripe.
type windowProfile struct {
	s      *sim
	width  float64 // window width, seconds
	parts  int     // stripes
	k      int32   // rows
	count  [][]int64
	events int64
	cross  int64 // heads arriving over a cut link
	// Events that write lanes of another stripe at their own instant: a
	// head that blocks keeps its last K lanes (keepWorm), a waiting head
	// granted a lane moves its last K lanes' release times (acquire).
	blockRemote, grantRemote int64
	// Events that draw from the run's one random generator (a tie half
	// way round a ring): their order across stripes fixes every later
	// draw.
	draws int64
}

// stripe is the stripe of node u: its row's share of the parts.
func (w *windowProfile) stripe(u int32) int {
	return int(w.s.net.axes[1].coord(u)) * w.parts / int(w.k)
}

// at is the node event e acts at.
func (w *windowProfile) at(e *event) int32 {
	s := w.s
	switch e.kind() {
	case evMsgReady:
		return s.msgs[e.id].src
	case evPartStart:
		return s.parts[e.id].src
	case evGrant, evLaneOpen:
		return s.fromNode(e.id)
	case evAckGen:
		return e.aux
	}
	return s.pkts[e.id].at
}

// remote tells whether packet p holds one of lanes [from, p.nhops) in a
// stripe other than stripe.
func (w *windowProfile) remote(p *packet, from int32, stripe int) bool {
	for i := from; i < p.nhops; i++ {
		if w.stripe(w.s.fromNode(p.hop(i).ch)) != stripe {
			return true
		}
	}
	return false
}

// run is sim.run's loop, with the counting around each event, over the
// messages the sim holds (built, their dependencies linked).
func (w *windowProfile) run() {
	s := w.s
	for i := range s.msgs {
		if s.msgs[i].deps == 0 {
			s.push(0, evMsgReady, int32(i), 0)
		}
	}
	for s.q.len() > 0 && s.err == nil {
		e := s.pop()
		s.events++
		s.now = e.t
		s.last = max(s.last, e.t)
		win := int(e.t / w.width)
		for len(w.count) <= win {
			w.count = append(w.count, make([]int64, w.parts))
		}
		st := w.stripe(w.at(&e))
		w.count[win][st]++
		w.events++
		waiting := false
		switch e.kind() {
		case evArrive:
			p := &s.pkts[e.id]
			if w.stripe(s.fromNode(p.hop(p.nhops-1).ch)) != st {
				w.cross++
			}
			waiting = p.waitCh >= 0
		case evRoute:
			waiting = s.pkts[e.id].waitCh >= 0
		case evGrant:
			if ln := s.lane(e.id); ln.head >= 0 && ln.until <= s.now {
				p := &s.pkts[ln.head]
				if w.remote(p, max(p.tail, p.nhops-p.k), st) {
					w.grantRemote++
				}
			}
		}
		rng := s.rng
		s.handle(&e, false)
		if s.rng != rng {
			w.draws++
		}
		if k := e.kind(); (k == evArrive || k == evRoute) && !waiting {
			if p := &s.pkts[e.id]; p.waitCh >= 0 && w.remote(p, max(p.tail, p.nhops-p.k), st) {
				w.blockRemote++
			}
		}
	}
}

// critical is the events of the busiest stripe summed over windows: what
// the stripes run one beside the other take, in events, barriers apart.
func (w *windowProfile) critical() int64 {
	var c int64
	for _, win := range w.count {
		m := int64(0)
		for _, n := range win {
			m = max(m, n)
		}
		c += m
	}
	return c
}

// The profile's counts on an 8 × 8 torus of two stripes (rows 0–3 and
// 4–7), worked out by hand: a 4 KB message B takes the lane from (0,4) to
// (0,5) at once and holds it 4.1 µs; a 32-byte message A from (0,2) to
// (0,5), its head crossing the cut from row 3 to row 4 (one crossing),
// finds that lane held and blocks at row 4 while its last lanes, from rows
// 2 and 3, are in the other stripe (one same-instant remote write), and is
// granted the lane when B's tail leaves, moving those lanes' release times
// (another). Paths of at most 3 hops on rings of 8 have no tie to draw
// for.
func TestWindowProfileCountsByHand(t *testing.T) {
	spec := torusSpec(t, 8)
	n, err := compile(spec, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	node := func(x, y int32) int32 { return x*n.axes[0].stride + y*n.axes[1].stride }
	w := &windowProfile{s: newSim(n, &Options{}), width: spec.DefaultLink.Latency, parts: 2, k: 8}
	s := w.s
	s.reset(1)
	tr := &traffic{op: "custom", channels: 1, links: 1}
	s.addMsg(tr, node(0, 4), node(0, 5), 4096)
	s.addMsg(tr, node(0, 2), node(0, 5), 32)
	s.linkDeps()
	w.run()
	if s.err != nil || s.nDone != 2 {
		t.Fatalf("err %v, %d of 2 delivered", s.err, s.nDone)
	}
	if w.cross != 1 || w.blockRemote != 1 || w.grantRemote != 1 || w.draws != 0 {
		t.Errorf("crossings %d, remote writes at blocking %d and at the grant %d, draws %d; want 1, 1, 1, 0",
			w.cross, w.blockRemote, w.grantRemote, w.draws)
	}
	if A := s.msgs[1].lat; A < 4.1e-6 {
		t.Errorf("A's latency %g s: it should have waited for B's 4.1 µs", A)
	}
	if c := w.critical(); c < w.events/2 || c > w.events {
		t.Errorf("critical stripe %d of %d events", c, w.events)
	}
}

// BenchmarkWindowProfile profiles one random permutation of 32-byte
// messages on a k × k torus (the benchmark machine of
// BenchmarkTorusRandperm; 512 with PARASOL_BIG=1) in windows of one link
// latency (10 ns, the lookahead a cut link gives a head) and two stripes;
// "-credits" with credit flow control and a credit delay of 1 ns,
// "-credits-room" with buffers of 16 flits, which hold a whole packet (9
// flits) with room to spare, so that a blocked packet keeps no lane.
// Its metrics are per run: events, windows, events a window, the speed-up
// bound of two stripes with free barriers (events over the critical
// stripe's), heads crossing the cut a window, the same-instant remote
// writes a window, and the events a window that draw random numbers.
func BenchmarkWindowProfile(b *testing.B) {
	for _, tc := range []struct {
		k             int
		credits, room bool
	}{{64, false, false}, {64, true, false}, {64, true, true}, {256, false, false}, {256, true, false}, {256, true, true}, {512, false, false}} {
		name := strconv.Itoa(tc.k)
		if tc.credits {
			name += "-credits"
		}
		if tc.room {
			name += "-room"
		}
		k := tc.k
		b.Run(name, func(b *testing.B) {
			if k > 256 && os.Getenv("PARASOL_BIG") == "" {
				b.Skip("set PARASOL_BIG=1")
			}
			spec := torusSpec(b, k)
			// With credits (BookSim's credit_delay of one 1 ns cycle) a
			// lane's release reaches back one hop no sooner than the
			// credit delay and a link latency: the lookahead it adds.
			spec.Credits, spec.CreditDelay = tc.credits, 1e-9*float64(btoi(tc.credits))
			if tc.room {
				spec.Packet.BufferFlits = 16
			}
			opts := Options{Op: "randperm", Size: 32, Workers: 1}
			n, err := compile(spec, "", "", 0)
			if err != nil {
				b.Fatal(err)
			}
			tr, err := n.traffic(&opts)
			if err != nil {
				b.Fatal(err)
			}
			var w *windowProfile
			cpu0 := cputime.Seconds()
			for b.Loop() {
				w = &windowProfile{s: newSim(n, &opts), width: spec.DefaultLink.Latency, parts: 2, k: int32(k)}
				w.s.reset(runSeed(opts.Seed, 0))
				if err := w.s.build(tr); err != nil {
					b.Fatal(err)
				}
				w.s.linkDeps()
				w.run()
				if w.s.err != nil || w.s.nDone != len(w.s.msgs) {
					b.Fatalf("err %v, %d of %d delivered", w.s.err, w.s.nDone, len(w.s.msgs))
				}
			}
			nw := float64(len(w.count))
			b.ReportMetric(float64(w.events), "events")
			b.ReportMetric(nw, "windows")
			b.ReportMetric(float64(w.events)/nw, "events/window")
			b.ReportMetric(float64(w.events)/float64(w.critical()), "bound")
			b.ReportMetric(float64(w.cross)/nw, "crossings/window")
			b.ReportMetric(float64(w.blockRemote)/nw, "block-remote/window")
			b.ReportMetric(float64(w.grantRemote)/nw, "grant-remote/window")
			b.ReportMetric(float64(w.draws)/nw, "draws/window")
			b.ReportMetric(float64(b.N)*float64(w.events)/(cputime.Seconds()-cpu0), "events/cpu-s")
		})
	}
}

// BenchmarkWindowBarrier is one window's synchronisation between two
// goroutines, each waiting for the other to finish the window: by
// spinning on a shared counter (the cheaper on two idle cores) and by a
// channel round trip, through the scheduler (what a loaded host leaves).
// ns/op is one barrier.
func BenchmarkWindowBarrier(b *testing.B) {
	b.Run("spin", func(b *testing.B) {
		var arrived atomic.Int64
		n := int64(b.N)
		done := make(chan struct{})
		go func() {
			for i := int64(1); i <= n; i++ {
				arrived.Add(1)
				for arrived.Load() < 2*i {
				}
			}
			close(done)
		}()
		b.ResetTimer()
		for i := int64(1); i <= n; i++ {
			arrived.Add(1)
			for arrived.Load() < 2*i {
			}
		}
		<-done
	})
	b.Run("channel", func(b *testing.B) {
		ping, pong := make(chan struct{}), make(chan struct{})
		go func() {
			for range ping {
				pong <- struct{}{}
			}
		}()
		b.ResetTimer()
		for b.Loop() {
			ping <- struct{}{}
			<-pong
		}
		close(ping)
	})
}
