package runtime

import (
	"fmt"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Credits bound what a lane carries (issue 27). Chain 0-1-2, 1 s wires of
// 1 B/s, 1-byte flits, routers of HopDelay 4, CreditDelay 1: P1 (8 B)
// goes from 0 to 2 and P2 (1 B) from 0 to 1 behind it on the one lane.
// Worked by hand (kernel_sim.go's credits; F = 8 flits, B the buffer):
//   - credits off, or B = 8: P1 sends over 0→1 from 0 to 8, its head is at
//     node 1 at 1 and leaves at 5, its tail at 13, delivered at 14; P2
//     takes the lane at 8, delivered at 10.
//   - B = 4: P1's last 4 flits leave node 0 as its head frees node 1's
//     buffer from 5 on: the tail at 5 + 4 + 1 + 1 = 11 (credit delay and
//     the wire back), so P2 is delivered at 13; P1 is not delayed.
//   - B = 2: the lane 0→1 carries 2 flits per round trip of 1 + 2 × 1 =
//     3 s: P1's tail leaves 0 at max(3·3 + 2, 5 + 6 + 2) = 13, reaches node
//     2 at 15 (one wire after), and P2 is delivered at 13 + 1 + 1 = 15.
func TestCreditsBoundLanes(t *testing.T) {
	for _, tc := range []struct {
		credits bool
		buf     int
		p1, p2  float64
	}{
		{false, 2, 14, 10},
		{true, 8, 14, 10},
		{true, 4, 14, 13},
		{true, 2, 15, 15},
	} {
		spec := creditSpec(mustGen(t, "chain", 3), tc.credits, tc.buf, 0)
		runTwo(t, spec, fmt.Sprintf("credits %v, buffer %d", tc.credits, tc.buf), testMsg{0, 2, 8}, testMsg{0, 1, 1}, tc.p1, tc.p2)
	}
}

// Under credits a router's input buffer is served in order (issue 27): the
// head of a packet behind another on the same lane starts the router's
// pipeline only once the packet ahead has had its tail through switch
// allocation, as BookSim 2's IQRouter routes the flit at the front of a
// buffer. Chain 0-1-2 as above, buffers of 8 flits; P1 and P2, 8 B each,
// both from 0 to 2. Worked by hand: P1 crosses 0→1 from 0 to 8, its head
// leaves node 1 at 5, its tail at 13 (delivered at 14). P2 takes 0→1 at 8,
// its head is at node 1 at 9. Without credits it is routed at 9 + 4 = 13,
// when P1's tail has just left, and is delivered at 13 + 8 + 1 = 22. With
// them its pipeline starts when P1's last flit is switch-allocated, two
// flit times before that tail has left (13 − 2 = 11), so it leaves at
// 11 + 4 = 15, delivered at 24: two packets one behind the other leave a
// router 2 flit times apart (BookSim's RC, VA, SA after the tail's SA).
// With packets of 2 B P2's head reaches node 1 (at 3) before P1 is routed
// there (at 5) and waits for it: P1 leaves node 1 from 5 to 7 (delivered
// at 8), P2's pipeline starts at 7 − 2 = 5, so it leaves at 9 and is
// delivered at 12 (without credits: routed at 3 + 4 = 7, delivered at 10).
func TestInputBufferServedInOrder(t *testing.T) {
	for _, tc := range []struct {
		credits bool
		size    int64
		p1, p2  float64
	}{
		{false, 8, 14, 22},
		{true, 8, 14, 24},
		{false, 2, 8, 10},
		{true, 2, 8, 12},
	} {
		spec := creditSpec(mustGen(t, "chain", 3), tc.credits, 8, 0)
		runTwo(t, spec, fmt.Sprintf("credits %v, %d B", tc.credits, tc.size), testMsg{0, 2, tc.size}, testMsg{0, 2, tc.size}, tc.p1, tc.p2)
	}
}

// Under credits a terminal of a switched network takes its injection
// channel's lanes round robin, as BookSim 2's terminal takes its VCs,
// not the lane of its routing's first class (issue 28). flatfly(2, 1, 2):
// routers R0, R1, terminals P2, P3 on R0; Valiant routing (two lane
// classes, one lane each), buffers of 8 flits of 1 B, wires of 1 s and
// 1 B/s, routers of 4 s, credit delay 1. A and B, 8 B each, both from P2
// to P3 (through R0 alone: R0 is the destination's router, so Valiant
// goes straight there). Worked by hand. A takes injection lane 0 from 0
// to 8, is routed at R0 at 1 + 4 = 5 onto the ejection lane (class 1),
// its tail leaves at max(5 + 8, 8 + 1) = 13, delivered at 14. Without
// credits B waits for lane 0 (its class's) until 8, its head is at R0 at
// 9 and routed at 13, when A's tail has just left the ejection lane:
// delivered at 13 + 8 + 1 = 22. With credits the terminal injects one
// packet at a time (TestTerminalInjectsOnePacketAtATime): B waits for A's
// tail (8) and takes the next lane round robin, lane 1, so it is not
// behind A in R0's input buffer; its head is routed at 9 + 4 = 13, as A's
// tail leaves the ejection lane, its tail no sooner than 16 + 1 + 4:
// delivered at 22 as well, on lane 1. (Before terminals injected one at a
// time B took lane 1 at 0 and shared the wire with A: 26.)
func TestTerminalTakesInjectionLanesRoundRobin(t *testing.T) {
	for _, tc := range []struct {
		credits bool
		a, b    float64
		laneB   int32 // B's lane of the injection wire
	}{
		{false, 14, 22, 0},
		{true, 14, 22, 1},
	} {
		g := mustGen(t, "flatfly", 2, 1, 2)
		spec := creditSpec(g, tc.credits, 8, 2)
		spec.Routing = "valiant"
		p2, p3 := int32(2), int32(3) // node indexes: the two routers are 0 and 1
		s := runTwo(t, spec, fmt.Sprintf("credits %v", tc.credits), testMsg{p2, p3, 8}, testMsg{p2, p3, 8}, tc.a, tc.b)
		w := s.net.wire(g.Adj(p2)[0].Link, p2)
		if o := s.lane(w*s.net.lanes + tc.laneB).owner; o != 1 {
			t.Errorf("credits %v: injection lane %d last held by packet %d, want B (1)", tc.credits, tc.laneB, o)
		}
	}
}

// creditSpec is these tests' network on g: wormhole, wires of 1 s at
// 1 B/s, routers of 4 s, credits (with a delay of 1) as told, buffers of
// buf flits of 1 B, vcs lanes a wire (0: one).
func creditSpec(g *topo.Graph, credits bool, buf, vcs int) *Spec {
	spec := basic(g, 1, 1)
	spec.Switching = Wormhole
	spec.DefaultNode.HopDelay = 4
	spec.Credits, spec.CreditDelay = credits, 1
	spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: buf, VirtualChannels: vcs}
	return spec
}

// runTwo sends messages a and b at once and checks that they are
// delivered at wantA and wantB.
func runTwo(t *testing.T, spec *Spec, name string, a, b testMsg, wantA, wantB float64) *sim {
	t.Helper()
	s := runMessages(t, spec, 1, a, b)
	if s.nDone != 2 {
		t.Fatalf("%s: %d of 2 delivered", name, s.nDone)
	}
	if gotA, gotB := s.msgs[0].lat, s.msgs[1].lat; gotA != wantA || gotB != wantB {
		t.Errorf("%s: first at %v, second at %v; want %v, %v", name, gotA, gotB, wantA, wantB)
	}
	return s
}

// Under credits with several lanes a terminal injects one packet at a
// time, as BookSim 2's terminal sends the flit at the front of its source
// queue (issue 27): a packet's head leaves only once the packet before it
// has sent its tail, and on buffers shorter than a packet that tail waits
// for credits from the first router. Chain 0-1 of routers R0, R1 with
// terminals P0, P1 (WithNIC), wires of 1 s at 1 B/s, routers of 4 s,
// credit delay 4 (a credit loop of 4 + 2 × 1 = 6 s, BookSim's), 2 lanes
// of 4 one-byte flits; A and B, 8 B each, from P0 to P1 at 0. Worked by
// hand (kernel_sim.go's credits, transmit, injectOne):
//   - A takes injection lane 0 at 0; 4 flits a loop of 6: its tail there
//     at 6 + 4 = 10. Its head is routed at R0 at 1 + 4 = 5 and crosses
//     R0→R1 from 5, its tail paced to 5 + 10 = 15; the injection lane is
//     free when its flit 4 has left R0 and the credit come back, 5 + 4 +
//     (4 + 1 − 4) = 10. At R1 it is routed at 10 and leaves for P1 from
//     10, its tail no sooner than HopDelay after it came in (15 + 1 + 4 =
//     20): delivered at 21 (8-flit buffers: 19, BookSim's 2 cycles less).
//   - B waits at P0 for A's tail (10), then takes lane 1 (round robin;
//     the wire is free at 10): its tail at 10 + 10 = 20. Routed at R0 at
//     15, it takes R0→R1's lane 0 as A's tail leaves it (15), its tail
//     at max(15 + 10, 20 + 1 + 4) = 25. At R1 it is behind A in lane 0's
//     input buffer: its pipeline starts two flit times before A's tail
//     leaves (20 − 2 = 18), so it leaves at 22, its tail at max(30, 25 +
//     1 + 4) and, R0→R1's tail held until 22 + 4 + 1 = 27, 27 + 1 + 4 =
//     32: delivered at 33.
//
// Without the rule B would take lane 1 at 0 and share P0's wire with A.
func TestTerminalInjectsOnePacketAtATime(t *testing.T) {
	spec := creditSpec(mustGen(t, "chain", 2), true, 4, 2)
	spec.CreditDelay = 4
	spec, err := WithNIC(spec, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	p0, p1 := spec.Graph.Proc(0), spec.Graph.Proc(1)
	s := runTwo(t, spec, "one at a time", testMsg{p0, p1, 8}, testMsg{p0, p1, 8}, 21, 33)
	w := s.net.wire(spec.Graph.Adj(p0)[0].Link, p0)
	if o := s.lane(w*s.net.lanes + 1).owner; o != 1 {
		t.Errorf("injection lane 1 last held by packet %d, want B (1)", o)
	}
}
