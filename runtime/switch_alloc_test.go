package runtime

import (
	"math"
	"testing"
)

// Under iSLIP (Spec.Allocator) the cycles a packet alone on a wire books
// past its flits carry the flits of the packet that shares the wire next
// (switch_alloc.go). Chain 0-1-2, 1 s wires of 1 B/s, 1-byte flits,
// routers of HopDelay 4, CreditDelay 1, 2 lanes of 2-flit buffers; P1 and
// P2, 4 B each, and P3, 1 B, all from 0 to 2 at 0. Worked by hand:
//   - P1 takes 0→1 alone: flits 1–2 from 0 to 2, flit 3 when flit 1's
//     credit is back (1 + 2 × 1 = 3), its tail at 5. Its head is routed
//     at node 1 at 1 + 4 = 5; its last two flits leave node 0 as the head
//     frees the buffer, the tail by 5 + 2 = 7, in at 8, and it keeps its
//     head's pace through the router: P1 books 1→2 from 5 to 8 + 4 = 12,
//     7 s for 4 flits, 3 s of them waiting for its own flits (its gap).
//     Delivered at 13.
//   - P2 shares both wires from the start: on 1→2 from 5, its tail
//     leaves at 14 (its last flits leave node 0 at its shared pace, by
//     5 + 8 × 2/4 = 9, in at 10, + 4). Delivered at 15. The wire's work
//     behind P1's booking: 12 + 4 = 16 packet by packet; with iSLIP P2's
//     4 flits fill P1's 3 s gap: 12 + 4 − 3 = 13.
//   - P3 takes P1's lane on 0→1 when it is given back at 7 and is behind
//     P1 in node 1's input buffer (served in order): routed at 12 − 2 + 4
//     = 14. Packet by packet 1→2 is busy to 16 with P1's lane held, so P3
//     shares it (a flit in two: its tail at 14 + 1 + 1 = 16): delivered
//     at 17. With iSLIP the wire is free at 13: tail at 15, delivered at
//     16.
func TestISLIPFillsALonePacketsGap(t *testing.T) {
	for _, tc := range []struct {
		a          Allocator
		p1, p2, p3 float64
	}{
		{AnyLane, 13, 15, 17},
		{ISLIP, 13, 15, 16},
	} {
		spec := creditSpec(mustGen(t, "chain", 3), true, 2, 2)
		spec.Allocator = tc.a
		s := runMessages(t, spec, 1, testMsg{0, 2, 4}, testMsg{0, 2, 4}, testMsg{0, 2, 1})
		if s.nDone != 3 {
			t.Fatalf("allocator %d: %d of 3 delivered", tc.a, s.nDone)
		}
		for i, want := range []float64{tc.p1, tc.p2, tc.p3} {
			if got := s.msgs[i].lat; got != want {
				t.Errorf("allocator %d: P%d delivered at %v, want %v", tc.a, i+1, got, want)
			}
		}
	}
}

// Under iSLIP a packet that shares its output with a packet of another
// input, one of the two inputs also sending to another output, loses a
// share of its time to mismatched grants (switch_alloc.go). 3×3 mesh,
// dimension order, wires and routers as above; Q1, 1 B from 3 to 7, and
// Q2, 4 B from 3 to 5, both through node 4 (in by 3→4, out by 4→7 and
// 4→5), and Q3, 16 B from 4 to 5, all at 0. Worked by hand: Q1 and Q2
// share 3→4 from 0, their heads at node 4 at 1, routed at 5; Q1 leaves
// by 4→7 from 5 to 6 (delivered at 7), so input 3→4 sends elsewhere
// until 6. Q3 has 4→5 alone from 0 to 16 (delivered at 17). Q2 takes 4→5
// at 5 beside Q3, a flit in two: its flits by 5 + 4 + 4 = 13; with iSLIP
// it loses half its 4 s times the share of the wire's two busy lanes held
// by another input (Q3's, from node 4's own processor): 1 s, by 14. Its
// tail keeps its head's pace: its last two flits leave node 3 at its
// pace on 4→5 (2 of 4 flits of 8 s, or 9 s), by 9 (9.5), in at 10
// (10.5), and leave node 4 4 s later: delivered at 15 (15.5).
func TestISLIPLosesWhereInputsConflict(t *testing.T) {
	for _, tc := range []struct {
		a          Allocator
		q1, q2, q3 float64
	}{
		{AnyLane, 7, 15, 17},
		{ISLIP, 7, 15.5, 17},
	} {
		spec := creditSpec(mustGen(t, "mesh", 3, 3), true, 2, 2)
		spec.Routing = "dor"
		spec.Allocator = tc.a
		s := runMessages(t, spec, 1, testMsg{3, 7, 1}, testMsg{3, 5, 4}, testMsg{4, 5, 16})
		if s.nDone != 3 {
			t.Fatalf("allocator %d: %d of 3 delivered", tc.a, s.nDone)
		}
		for i, want := range []float64{tc.q1, tc.q2, tc.q3} {
			if got := s.msgs[i].lat; got != want {
				t.Errorf("allocator %d: Q%d delivered at %v, want %v", tc.a, i+1, got, want)
			}
		}
	}
}

// Under iSLIP a terminal that injects one packet at a time moves on to
// its next lane once its last packet's tail has left it, as BookSim's
// terminal gives the next head the next VC that is free and has a credit
// (trafficmanager.cpp:1105–1130: _last_vc, IsAvailableFor, IsFullFor),
// whether or not that packet's head is blocked in the first router
// (switch_alloc.go). Terminal P0 of a chain of two routers, 2 lanes of 8
// one-byte flits; its last packet took injection lane 0, whose tail left
// at 5, and whose head blocked in R0 since (the lane kept: its buffer is
// full). At 6 the next packet takes lane 1; at 4 (the tail still
// leaving), or when that packet did not fit the buffer (its tail held at
// the terminal), or with a packet already waiting for lane 0, it waits
// for lane 0. Packets waiting for lane 0 when its holder blocked move to
// lane 1 once the tail has left, or, lane 1 held too, to the lane that
// frees first; with every lane kept they stay.
func TestTerminalMovesOnOnceItsTailHasGone(t *testing.T) {
	spec := creditSpec(mustGen(t, "chain", 2), true, 8, 2)
	spec.Allocator = ISLIP
	spec, err := WithNIC(spec, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := runMessages(t, spec, 1)
	if s.injSent == nil {
		t.Fatal("no injSent under iSLIP with terminals injecting one packet at a time")
	}
	p0 := spec.Graph.Proc(0)
	w := s.net.wire(spec.Graph.Adj(p0)[0].Link, p0)
	l0, l1 := w*s.net.lanes, w*s.net.lanes+1
	set := func(now, sent float64, waiting bool) {
		s.now = now
		s.injLast[p0], s.injNext[p0] = l0, 1
		s.injSent[p0] = sent
		*s.lane(l0) = lane{owner: 0, until: math.Inf(1), head: -1}
		*s.lane(l1) = lane{owner: -1, head: -1}
		if waiting {
			s.lane(l0).head = 0
		}
	}
	for _, tc := range []struct {
		name      string
		now, sent float64
		waiting   bool
		want      int32
	}{
		{"tail gone", 6, 5, false, l1},
		{"tail leaving", 4, 5, false, l0},
		{"tail held at the terminal", 6, math.Inf(1), false, l0},
		{"a packet waits for lane 0", 6, 5, true, l0},
	} {
		set(tc.now, tc.sent, tc.waiting)
		if got := s.injectOne(w, p0); got != tc.want {
			t.Errorf("%s: lane %d, want %d", tc.name, got-l0, tc.want-l0)
		}
	}
	if got := s.tailLeaves(&packet{bytes: 8}, 5); got != 5 {
		t.Errorf("an 8-flit packet's tail leaves at %v, want 5", got)
	}
	if got := s.tailLeaves(&packet{bytes: 9}, 5); !math.IsInf(got, 1) {
		t.Errorf("a 9-flit packet's tail leaves at %v, want +Inf (held)", got)
	}

	// Packets 0 and 1 wait at P0 for lane 0, whose holder blocked.
	queue := func() {
		s.pkts = append(s.pkts[:0], packet{at: p0, next: 1, waitCh: l0}, packet{at: p0, next: -1, waitCh: l0})
		s.lane(l0).head, s.laneQ[l0], s.laneQ[l1] = 0, laneQueue{tail: 1, n: 2}, laneQueue{}
	}
	for _, tc := range []struct {
		name    string
		l1Until float64
		want    int32
	}{
		{"lane 1 free", 0, l1},
		{"lane 1 held to 9", 9, l1},
		{"every lane kept", math.Inf(1), l0},
	} {
		set(6, 5, false)
		s.lane(l1).until = tc.l1Until
		if tc.l1Until > 0 {
			s.lane(l1).owner = 2
		}
		queue()
		s.injectPast(l0, 0)
		if s.lane(tc.want).head != 0 || s.laneQ[tc.want].n != 2 {
			t.Errorf("%s: the queue is not on lane %d", tc.name, tc.want-l0)
		}
		for i := range 2 {
			if s.pkts[i].waitCh != tc.want {
				t.Errorf("%s: packet %d waits for lane %d, want %d", tc.name, i, s.pkts[i].waitCh-l0, tc.want-l0)
			}
		}
	}
}

// Under iSLIP a lane handed over to a waiting head while another lane of
// its wire is still held costs the wire no allocation cycle (AllocDelay):
// BookSim allocates the freed VC while the other VCs send their last
// flits (switch_alloc.go, allocOverlaps). Chain 0-1-2, wires as above,
// 2 lanes of 8-flit buffers, AllocDelay d; A and B, 4 B each, and C, 1 B,
// all from 0 to 2 at 0. Worked by hand: A takes 0→1 alone, tail at 4; B
// shares it from 0, a flit in two, tail at 0 + 4 + 4 = 8, and A's lane is
// given back later by 4, at 8. C waits for the first lane (both held to
// 8) and takes it at 8; B's is held to 8 too, so with iSLIP C leaves at 8
// whatever d, tail at 9, head at node 1 at 9, routed at 13. There both
// lanes of 1→2 are free at 13 (A took it at 5, tail at 4 + 1 + 4 = 9,
// given back later by B's 4; B's tail at 13), so C leaves at 13, tail at
// 14: delivered at 15. With allocator = packet the hand-over takes d: C
// leaves node 0 at 8 + d, delivered at 15 + d. A and B are delivered at
// 10 and 14 either way.
func TestISLIPHandsOverALaneWhileAnotherIsHeld(t *testing.T) {
	for _, tc := range []struct {
		a       Allocator
		d, want float64
	}{
		{AnyLane, 0, 15},
		{AnyLane, 2, 17},
		{ISLIP, 0, 15},
		{ISLIP, 2, 15},
	} {
		spec := creditSpec(mustGen(t, "chain", 3), true, 8, 2)
		spec.Allocator = tc.a
		spec.DefaultNode.AllocDelay = tc.d
		s := runMessages(t, spec, 1, testMsg{0, 2, 4}, testMsg{0, 2, 4}, testMsg{0, 2, 1})
		if s.nDone != 3 {
			t.Fatalf("allocator %d, d = %v: %d of 3 delivered", tc.a, tc.d, s.nDone)
		}
		for i, want := range []float64{10, 14, tc.want} {
			if got := s.msgs[i].lat; got != want {
				t.Errorf("allocator %d, d = %v: message %d delivered at %v, want %v", tc.a, tc.d, i+1, got, want)
			}
		}
	}
}
