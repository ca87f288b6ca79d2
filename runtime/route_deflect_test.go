package runtime

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A deflected packet arrives later by exactly its detour. On a ring of
// three (links 0-1, 1-2, 2-0), 100 MB/s (10 ns a byte) and 10 ns a link,
// node 0 sends 10,000 B to node 1, which holds the wire 0→1 for 100 µs,
// then 100 B to node 1 (1 µs on a wire). Under store and forward the
// second waits for 0→1 by shortest routing: 100 µs + 1 µs + 10 ns =
// 101.01 µs. By hot-potato routing its one minimal link is busy, so it
// leaves by 0→2 at once (1.01 µs to node 2), and from node 2 its minimal
// link 2→1 is free: 2.02 µs, the direct 1.01 µs plus the one-hop detour,
// with unbounded buffers and with one packet a lane alike. Under virtual
// cut-through the head goes on from node 2 at 10 ns, and the tail follows
// it there (leaving node 0 at 1 µs, node 2 at 1.01 µs): 1.02 µs, the direct
// 1.01 µs plus the detour's one latency, where shortest routing waits until
// 101.01 µs. The first message takes 100.01 µs either way.
func TestHotPotatoDeflectsByTheDetour(t *testing.T) {
	for _, tc := range []struct {
		sw      Switching
		routing string
		buffer  int
		want    float64
	}{
		{SAF, "shortest", 0, 101.01e-6},
		{SAF, "hot-potato", 0, 2.02e-6},
		{SAF, "hot-potato", 1, 2.02e-6},
		{VCT, "shortest", 0, 101.01e-6},
		{VCT, "hot-potato", 0, 1.02e-6},
		{VCT, "hot-potato", 1, 1.02e-6},
	} {
		spec := basic(mustGen(t, "ring", 3), 10e-9, 100e6)
		spec.Switching, spec.Routing, spec.Packet.BufferFlits = tc.sw, tc.routing, tc.buffer
		s := runMessages(t, spec, 1, testMsg{0, 1, 10000}, testMsg{0, 1, 100})
		if s.err != nil || s.nDone != 2 {
			t.Fatalf("%s %s: %d of 2 delivered (%v)", tc.sw, tc.routing, s.nDone, s.err)
		}
		if got := s.msgs[1].lat; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s %s, buffer %d: the short message arrives at %.6g µs, want %.6g µs", tc.sw, tc.routing, tc.buffer, got*1e6, tc.want*1e6)
		}
		if got := s.msgs[0].lat; math.Abs(got-100.01e-6) > 1e-12 {
			t.Errorf("%s %s, buffer %d: the long message arrives at %.6g µs, want 100.01 µs", tc.sw, tc.routing, tc.buffer, got*1e6)
		}
		hops := int32(2)
		if tc.routing == "shortest" {
			hops = 1
		}
		if s.msgs[1].hops != hops {
			t.Errorf("%s %s: the short message took %d hops, want %d", tc.sw, tc.routing, s.msgs[1].hops, hops)
		}
	}
}

// Hot-potato routing cannot deadlock where shortest routing does, with
// one-packet buffers under store and forward: tornado on a ring of eight
// (TestPacketBuffersDeadlockOnCyclicRouting), whole messages and 128 B
// packets, and all-to-all on the ring and on a 4 × 4 torus, over three
// seeds; and a seed fixes the outcome. (The bound on events is the
// test's, far above what the runs take.)
func TestHotPotatoCompletesWhereShortestDeadlocks(t *testing.T) {
	for _, tc := range []struct {
		gen           string
		args          []int
		op            string
		size, payload int
	}{
		{"ring", []int{8}, "tornado", 4096, 0},
		{"ring", []int{8}, "tornado", 4096, 128},
		{"ring", []int{8}, "alltoall", 1024, 128},
		{"torus", []int{4, 4}, "alltoall", 256, 128},
	} {
		spec := basic(mustGen(t, tc.gen, tc.args...), 10e-9, 100e6)
		spec.Switching = SAF
		spec.Packet.BufferFlits = 1
		spec.Packet.Payload = tc.payload
		if r := sim1(t, spec, Options{Op: tc.op, Size: tc.size, Routing: "shortest"}); !r.Deadlock {
			t.Errorf("%s%v %s: shortest routing does not deadlock; the test would show nothing", tc.gen, tc.args, tc.op)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			o := Options{Op: tc.op, Size: tc.size, Routing: "hot-potato", Seed: seed, MaxEvents: 5_000_000}
			r := sim1(t, spec, o)
			if r.Deadlock || r.Partial || r.Undelivered > 0 {
				t.Errorf("%s%v %s, %d B packets, seed %d: deadlock %v, partial %v, %d undelivered", tc.gen, tc.args, tc.op, tc.payload, seed, r.Deadlock, r.Partial, r.Undelivered)
			}
			if again := sim1(t, spec, o); again.Makespan != r.Makespan || again.Events != r.Events {
				t.Errorf("%s%v %s, seed %d: two runs differ: %g s, %d events; %g s, %d events", tc.gen, tc.args, tc.op, seed, r.Makespan, r.Events, again.Makespan, again.Events)
			}
		}
	}
}

// Hot-potato routing moves whole packets: it needs store-and-forward or
// virtual cut-through switching, and says so.
func TestHotPotatoNeedsWholePackets(t *testing.T) {
	for _, sw := range []Switching{Wormhole, Circuit} {
		spec := basic(mustGen(t, "ring", 4), 10e-9, 100e6)
		spec.Switching = sw
		_, err := Route(spec, 0, 2, RouteOptions{Routing: "hot-potato"})
		if err == nil || !strings.Contains(err.Error(), "needs store-and-forward (saf) or virtual cut-through (vct) switching, not "+sw.String()) {
			t.Errorf("%s: %v, want the need for saf", sw, err)
		}
	}
}

// Hot-potato routing cannot livelock: by age priority, a packet that is
// the oldest in the network waits at each node at most for the packet on
// its minimal link (T), sends itself (T) and crosses the link (latency λ,
// hop delay h), so it is delivered within (D + 1)(2T + λ + h) of becoming
// the oldest (D the diameter, one hop more for the one it was on); and as
// every message is ready at once and the nodes have no overheads, some
// packet is in the network until the end, so N packets end within
// N (D + 1)(2T + λ + h). Here 128 B packets at 100 MB/s (T = 1.28 µs),
// λ = 10 ns, h = 50 ns. The ring of 16 all-to-all with two-packet buffers
// went on past 2 million events before (the oldest was deflected like any
// other).
func TestHotPotatoDeliversTheOldestWithinItsBound(t *testing.T) {
	const T, lat, hop = 1.28e-6, 10e-9, 50e-9
	for _, tc := range []struct {
		gen       string
		args      []int
		diameter  int
		op        string
		size      int
		messages  int
		buffer    int
		switching Switching
	}{
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 2, SAF},
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 1, SAF},
		{"ring", []int{8}, 4, "tornado", 4096, 8, 2, SAF},
		{"torus", []int{4, 4}, 4, "alltoall", 256, 16 * 15, 2, SAF},
		{"hypercube", []int{4}, 4, "alltoall", 256, 16 * 15, 2, SAF},
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 0, SAF},
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 2, VCT},
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 0, VCT},
		{"ring", []int{16}, 8, "alltoall", 1024, 16 * 15, 1, VCT},
		{"ring", []int{8}, 4, "tornado", 4096, 8, 1, VCT},
		{"torus", []int{4, 4}, 4, "alltoall", 256, 16 * 15, 2, VCT},
		{"hypercube", []int{4}, 4, "alltoall", 256, 16 * 15, 1, VCT},
	} {
		spec := basic(mustGen(t, tc.gen, tc.args...), lat, 100e6)
		spec.DefaultNode.HopDelay = hop
		spec.Switching = tc.switching
		spec.Packet.BufferFlits = tc.buffer
		spec.Packet.Payload = 128
		perPacket := float64(tc.diameter+1) * (2*T + lat + hop)
		packets := tc.messages * tc.size / 128
		for seed := uint64(1); seed <= 3; seed++ {
			o := Options{Op: tc.op, Size: tc.size, Routing: "hot-potato", Seed: seed, MaxEvents: 5_000_000}
			s, r := runOnce(t, spec, o)
			name := fmt.Sprintf("%s%v %s, %s, %d-packet buffers, seed %d", tc.gen, tc.args, tc.op, tc.switching, tc.buffer, seed)
			if r.partial || r.undelivered > 0 || r.deadlock {
				t.Fatalf("%s: partial %v (%d events), %d undelivered, deadlock %v", name, r.partial, r.events, r.undelivered, r.deadlock)
			}
			if s.hot.longest > perPacket+1e-15 {
				t.Errorf("%s: a packet was the oldest for %.4g µs before it was delivered, bound %.4g µs", name, s.hot.longest*1e6, perPacket*1e6)
			}
			if s.hot.longest < 2*T {
				t.Errorf("%s: the oldest packets were delivered within %.4g µs: the bound is not tested", name, s.hot.longest*1e6)
			}
			if bound := float64(packets) * perPacket; r.makespan > bound {
				t.Errorf("%s: makespan %.4g µs, bound %d × %.4g µs = %.4g µs", name, r.makespan*1e6, packets, perPacket*1e6, bound*1e6)
			}
		}
	}
}
