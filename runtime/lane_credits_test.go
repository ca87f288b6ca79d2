package runtime

import (
	"fmt"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Under credits a lane into a router owes at most its buffer's flits, a
// packet's counted from when it takes the lane until their credits are
// back, so packets that cannot move on from the router ahead stop the
// next from being sent (lane_credits.go; issue 28). Chain 0-1-2, 1 s
// wires of 1 B/s, 1-byte flits, routers of HopDelay 4, CreditDelay 1,
// buffers of 2 flits; P1, P2, P3, 1 B each, all from 0 to 2. Worked by
// hand:
//   - P1 takes 0→1 from 0 to 1 (1 flit owed), P2 from 1 to 2 (2 owed: a
//     third would not fit, the lane shuts). P1's head is at node 1 at 1,
//     routed at 5, crosses 1→2 from 5 to 6: delivered at 7; its credit is
//     back at node 0 at 5.5 + 1 + 1 = 7.5 (its middle flit's time, the
//     credit delay, the wire back), which opens the lane. P2's head is at
//     node 1 at 2 but behind P1 in the buffer, served in order: P1's tail
//     leaves at 6, so P2 starts the router's pipeline at 6 − 2 = 4 and
//     leaves at 8, crossing 1→2 from 8 to 9: delivered at 10. P3 takes
//     0→1 at 7.5, is at node 1 at 8.5, routed at 12.5 (P2's tail left at
//     9: 9 − 2 + 4 = 11 is earlier), crosses 1→2 from 12.5 to 13.5:
//     delivered at 14.5.
//   - With buffers of 3 flits the lane does not shut: P3 takes it from
//     2 to 3, is at node 1 at 3 and waits for P2 to move on (at 8, its
//     tail gone at 9): routed at 9 − 2 + 4 = 11, delivered at 13.
//   - Without credits every head is routed 4 s after it arrives and the
//     packets follow one another on 1→2: delivered at 7, 8 and 9.
func TestLaneOwesAtMostItsBuffer(t *testing.T) {
	for _, tc := range []struct {
		credits    bool
		buf        int
		p1, p2, p3 float64
	}{
		{true, 2, 7, 10, 14.5},
		{true, 3, 7, 10, 13},
		{false, 2, 7, 8, 9},
	} {
		spec := creditSpec(mustGen(t, "chain", 3), tc.credits, tc.buf, 0)
		s := runMessages(t, spec, 1, testMsg{0, 2, 1}, testMsg{0, 2, 1}, testMsg{0, 2, 1})
		name := fmt.Sprintf("credits %v, buffer %d", tc.credits, tc.buf)
		if s.nDone != 3 {
			t.Fatalf("%s: %d of 3 delivered", name, s.nDone)
		}
		for i, want := range []float64{tc.p1, tc.p2, tc.p3} {
			if got := s.msgs[i].lat; got != want {
				t.Errorf("%s: P%d delivered at %v, want %v", name, i+1, got, want)
			}
		}
	}
}

// A packet is owed by its flits, rounded up: one of 3 B in flits of 2 B is
// 2 flits, as many as a buffer of 2 holds, so it is not counted here (a
// packet counted by its bytes, 3 < 4, shut the lane and was never given
// back: the next packet waited for ever). Chain 0-1-2 as above, buffers of
// 2 flits of 2 B; P1 and P2, 3 B each, from 0 to 2. Worked by hand: P1
// crosses 0→1 from 0 to 3, is routed at node 1 at 1 + 4 = 5 and crosses
// 1→2 from 5 to 8: delivered at 9. P2 crosses 0→1 from 3 to 6; its head,
// at node 1 at 4, starts the pipeline when P1's last flit is
// switch-allocated (8 − 2 flit times of 2 s = 4), so it leaves at 8 and is
// delivered at 12.
func TestLaneCountsFlitsRoundedUp(t *testing.T) {
	spec := creditSpec(mustGen(t, "chain", 3), true, 2, 0)
	spec.Packet.FlitBytes = 2
	runTwo(t, spec, "3-byte packets in 2-byte flits", testMsg{0, 2, 3}, testMsg{0, 2, 3}, 9, 12)
}

// TestUsedCreditComesBackAsItsEventWould: a used credit filed with its
// wire (usedBack) is back when its event would have been handled, which
// is the event queue's order, (time, then the order pushed): the event
// stands where usedBack was called. Hand-built on flatfly(4, 2, 4) under
// UGAL, wire w, at T = 5: event A pushed, then credit c1 (3 flits, back at
// T), then event B, then credit c2 (2 flits, back at T), then event C;
// credit c0 (4 flits) back at 4 and c3 (1 flit) at 6, filed first. The
// queue pops A, B, C at T (and nothing else), in that order: while A is
// handled c0 alone is back (c1's event, pushed after A, would come next):
// 10 − 4 = 6 used; while B is, c1 as well: 3; while C is, c2 as well: 1;
// and c3, at 6, not yet. Counting every credit of the instant (c.t ≤ now)
// reads 1 at A and B; counting none of them reads 6 at B and C (and
// changes the flatfly UGAL load curve's results).
func TestUsedCreditComesBackAsItsEventWould(t *testing.T) {
	spec := basic(mustGen(t, "flatfly", 4, 2, 4), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Switching = 4, Wormhole
	n, err := compile(spec, "ugal", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(n, &Options{Routing: "ugal"})
	s.reset(1)
	const w, T = 7, 5.0
	s.used[w] = 10 // c0..c3's flits, counted when their packets took w
	s.usedBack(w, T-1, 4)
	s.usedBack(w, T+1, 1)
	s.push(T, evDriver, 0, 'A')
	s.usedBack(w, T, 3)
	s.push(T, evDriver, 0, 'B')
	s.usedBack(w, T, 2)
	s.push(T, evDriver, 0, 'C')
	for _, want := range []struct {
		ev   int32
		used int32
	}{{'A', 6}, {'B', 3}, {'C', 1}} {
		e := s.pop()
		s.now, s.cur = e.t, e.seq // as run does
		if e.t != T || e.aux != want.ev {
			t.Fatalf("popped %q at %v, want %q at %v", e.aux, e.t, want.ev, T)
		}
		if got := s.usedOf(w); got != want.used {
			t.Errorf("while %q is handled at %v: %d used credits, want %d", e.aux, T, got, want.used)
		}
	}
	if s.q.len() != 0 {
		t.Errorf("%d events left, want none (a credit is no event)", s.q.len())
	}
	s.now, s.cur = T+1, math.MaxUint64
	if got := s.usedOf(w); got != 0 {
		t.Errorf("after %v: %d used credits, want 0", T+1, got)
	}
}

// TestUsedOfIsTheCreditsNotBack: what usedOf reads of a wire is the flits
// sent on it whose credits are not back by now, though it takes credits off
// only when asked (the lanes' own, and those filed with the wire), and owe
// empties a lane of its credits back in between. Random credits on the
// lanes of the dragonfly(2, 4, 2, 9)'s wires under UGAL-L (lane credits,
// creditOnItsWay: back at their time, no sooner than the lane's one
// before) and filed with the wires (usedBack: back before now, or at now
// when filed before the event being handled), lanes emptied as owe does
// (creditsBack), times on a half-unit grid so that many fall on the
// instant read, the events at an instant handled in the order pushed; each
// read is checked against a count kept here of every credit filed and
// when it is back.
func TestUsedOfIsTheCreditsNotBack(t *testing.T) {
	spec := basic(mustGen(t, "dragonfly", 2, 4, 2, 9, 0), 1e-9, 4e9)
	spec.Packet.FlitBytes, spec.Packet.VirtualChannels, spec.Switching = 4, 3, Wormhole
	spec.Credits = true
	n, err := compile(spec, "ugal-l", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(n, &Options{Routing: "ugal-l"})
	s.reset(1)
	if s.used == nil || s.inb == nil {
		t.Fatal("UGAL-L under credits keeps no used credits or no lane credits")
	}
	type credit struct {
		w    int32
		lane bool // on a lane (creditOnItsWay), else filed with the wire (usedBack)
		t    float64
		seq  uint64
		f    int32
	}
	var (
		filed []credit
		laneT = map[int32]float64{} // the last lane credit's time, per lane
		rng   = topo.NewRand(7)
		wires = int32(8) // the first few wires, so that each gathers credits
	)
	lanes := n.lanes
	reads := 0
	for step := range 20000 {
		w := int32(rng.Intn(int(wires)))
		f := int32(1 + rng.Intn(8))
		switch op := rng.Intn(10); {
		case op < 3: // a lane credit
			ch := w*lanes + int32(rng.Intn(int(lanes)))
			tc := s.now + float64(rng.Intn(8))/2
			tc = max(tc, laneT[ch])
			laneT[ch] = tc
			s.used[w] += f
			s.creditOnItsWay(ch, tc, f)
			filed = append(filed, credit{w: w, lane: true, t: tc, f: f})
		case op < 5: // a credit filed with its wire, after the events pushed so far
			s.seq++
			tc := s.now + float64(rng.Intn(8))/2
			s.used[w] += f
			s.usedBack(w, tc, f)
			filed = append(filed, credit{w: w, t: tc, seq: s.seq<<8 | 0xff, f: f})
		case op < 6: // a lane emptied of its credits back, as owe does
			s.creditsBack(w*lanes + int32(rng.Intn(int(lanes))))
		case op < 7: // time goes on: the next event handled may have been pushed at any time before
			if d := float64(rng.Intn(3)) / 2; d > 0 {
				s.now += d
				s.cur = uint64(rng.Intn(int(s.seq)+1))<<8 | uint64(evRoute)
			}
		default: // a read while an event handled later at now is (pushed before or after some of now's credits)
			s.cur = max(s.cur, uint64(rng.Intn(int(s.seq)+1))<<8|uint64(evRoute))
			want := int32(0)
			for _, c := range filed {
				back := c.t <= s.now
				if !c.lane {
					back = c.t < s.now || c.t == s.now && c.seq <= s.cur
				}
				if c.w == w && !back {
					want += c.f
				}
			}
			if got := s.usedOf(w); got != want {
				t.Fatalf("step %d, wire %d at %v: usedOf %d, want %d (credits not back)", step, w, s.now, got, want)
			}
			reads++
		}
	}
	if reads < 5000 {
		t.Fatalf("only %d reads", reads)
	}
}

// Under credits a packet that fits its buffer with room to spare keeps no
// lane when its head blocks: BookSim 2 frees a VC once its tail is sent,
// and the packets behind follow it into the buffer ahead, where they wait
// behind it in order (issue 28). Chain 0-1-2-3, 1 s wires of 1 B/s,
// 1-byte flits, routers of HopDelay 4, CreditDelay 1, buffers of 16 flits;
// A (20 B, 2 → 3), B (6 B, 1 → 3), C (2 B, 0 → 3), D (1 B, 0 → 2), all
// ready at 0. Worked by hand: A holds 2→3 from 0 to 20 (delivered at 21).
// B crosses 1→2 from 0 to 6; its head, at node 2 at 1, is routed at 5 and
// blocks on 2→3 with its tail still on the wire. C crosses 0→1 from 0 to 2
// and D from 2 to 3; C is routed at node 1 at 5 and waits for 1→2, D (at
// node 1 at 3) behind C in node 1's buffer. B's tail leaves 1→2 at 6,
// which frees it: C takes it from 6 to 8 (8 of the buffer's 16 flits
// owed), and D, whose pipeline starts as C's last flit is switch-allocated
// (8 − 2), is routed at 6 + 4 = 10, crosses 1→2 from 10 to 11 and is
// delivered at 12 (it ends at node 2, off the buffer). At 20 B takes 2→3
// (20 to 26: delivered at 27); C, at node 2 since 7 but behind B in its
// buffer, is routed at 26 − 2 + 4 = 28 and delivered at 31: it does not
// overtake B. While B kept 1→2 until its head moved on (the wormhole
// hold, as before), C waited at node 1 until 21, and D behind it: D was
// delivered at 27.
func TestBlockedPacketThatFitsKeepsNoLane(t *testing.T) {
	spec := creditSpec(mustGen(t, "chain", 4), true, 16, 0)
	s := runMessages(t, spec, 1, testMsg{2, 3, 20}, testMsg{1, 3, 6}, testMsg{0, 3, 2}, testMsg{0, 2, 1})
	if s.nDone != 4 {
		t.Fatalf("%d of 4 delivered", s.nDone)
	}
	for i, want := range []float64{21, 27, 31, 12} {
		if got := s.msgs[i].lat; got != want {
			t.Errorf("%c delivered at %v, want %v", 'A'+i, got, want)
		}
	}
}
