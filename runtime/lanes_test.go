package runtime

import (
	"slices"
	"testing"
)

// Lanes busy at once share their wire flit by flit (issue 27). On one
// wire of 1 B/s with no latency, A (100 B), B (10 B) and C (1 B) leave
// node 0 for node 1 at t = 0, in that order. With two lanes, A takes one
// and B the other: B's bytes go every other one, so B ends at 20; C waits
// for a lane, takes B's at 20 and shares with A, ending at 22 (a flit-by-
// flit round robin gives the same). A's tail is not redone (kernel_sim.go's
// shareWire: it keeps the end it had, 100, though its lane is held 11
// longer), but the wire's total work is kept: a packet after all three
// could not start before 111. With one lane they go one after another:
// 100, 110, 111.
func TestLanesShareAWire(t *testing.T) {
	for _, tc := range []struct {
		vcs  int
		want []float64 // sorted latencies
	}{
		{1, []float64{100, 110, 111}},
		{2, []float64{20, 22, 100}},
		{3, []float64{20, 3, 100}}, // C with A and B: one byte in three; B kept at 20 as with two
	} {
		spec := basic(mustGen(t, "chain", 2), 0, 1)
		spec.Switching = Wormhole
		spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: 1000, VirtualChannels: tc.vcs}
		s := runMessages(t, spec, 1, testMsg{0, 1, 100}, testMsg{0, 1, 10}, testMsg{0, 1, 1})
		got := slices.Sorted(slices.Values(s.lat))
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("vcs = %d: latencies %v, want %v", tc.vcs, got, want)
		}
		if w := s.wire(0).free; w != 111 {
			t.Errorf("vcs = %d: the wire is free at %v, want 111 (all three packets' bytes)", tc.vcs, w)
		}
		if u := s.wl.laneOn(0, 0).until; tc.vcs > 1 && u != 111 {
			t.Errorf("vcs = %d: A's lane is free at %v, want 111 (100, and 10 and 1 given to B and C)", tc.vcs, u)
		}
	}
}

// The sharing's times are whole femtoseconds (kernel_sim.go's femto): the
// case of TestLanesShareAWire at 1 B/ns, where in binary 100 ns + 10 ns is
// not 110 ns and the wire's work would add up to 110.99999999999999 ns.
// Worked by hand as there: B ends at 20 ns (its 10 bytes every other
// byte), C takes B's lane at 20 ns and ends at 22 ns, A keeps its end,
// 100 ns; A's lane is held to 111 ns and the wire busy to 111 ns, each
// exactly the float nearest (what 111e-9 parses to). With three lanes C
// shares with A and B, one byte in three: 3 ns.
func TestSharedWireTimesAreWholeFemtoseconds(t *testing.T) {
	for _, tc := range []struct {
		vcs  int
		want []float64 // latencies, sorted
	}{
		{2, []float64{20e-9, 22e-9, 100e-9}},
		{3, []float64{3e-9, 20e-9, 100e-9}},
	} {
		spec := basic(mustGen(t, "chain", 2), 0, 1e9)
		spec.Switching = Wormhole
		spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: 1000, VirtualChannels: tc.vcs}
		s := runMessages(t, spec, 1, testMsg{0, 1, 100}, testMsg{0, 1, 10}, testMsg{0, 1, 1})
		if got := slices.Sorted(slices.Values(s.lat)); !slices.Equal(got, tc.want) {
			t.Errorf("vcs = %d: latencies %v, want %v", tc.vcs, got, tc.want)
		}
		if w := s.wire(0).free; w != 111e-9 {
			t.Errorf("vcs = %d: the wire is free at %v, want 1.11e-07 (all three packets' bytes)", tc.vcs, w)
		}
		if u := s.wl.laneOn(0, 0).until; u != 111e-9 {
			t.Errorf("vcs = %d: A's lane is free at %v, want 1.11e-07 (100 ns, and 10 and 1 given to B and C)", tc.vcs, u)
		}
	}
}
