package runtime

import (
	"testing"
)

// A blocked worm holds the lanes behind it. On a chain 0-1-2-3 (L = 0,
// 1 B/s): B sends 100 B from 2 to 3; A sends 10 B from 0 to 3 and blocks
// at node 2 until t = 100; C sends 1 B from 0 to 1 and needs lane 0->1.
// With one-byte buffers A keeps lane 0->1 until its tail drains (t = 110);
// with buffers for the whole packet, or with VCT, the lane is free at 10.
func TestWormHoldsLanes(t *testing.T) {
	tests := []struct {
		sw         Switching
		buf        int
		cDone, aAt float64
	}{
		{Wormhole, 1, 111, 110},
		{Wormhole, 5, 111, 110}, // K = 2 lanes: still both of A's
		{Wormhole, 10, 11, 110}, // K = 1: only lane 1->2 is held
		{VCT, 1, 11, 110},
		{SAF, 1, 11, 110},
	}
	for _, tc := range tests {
		spec := basic(mustGen(t, "chain", 4), 0, 1)
		spec.Switching = tc.sw
		spec.Packet = PacketParams{FlitBytes: 1, BufferFlits: tc.buf}
		s := runMessages(t, spec, 1, testMsg{2, 3, 100}, testMsg{0, 3, 10}, testMsg{0, 1, 1})
		if s.nDone != 3 {
			t.Fatalf("%v buf=%d: %d delivered", tc.sw, tc.buf, s.nDone)
		}
		// Latencies are recorded in delivery order: C, B, A or B, C, A.
		got := map[float64]bool{}
		for _, l := range s.lat {
			got[l] = true
		}
		aWant := tc.aAt
		if !got[tc.cDone] || !got[aWant] || !got[100] {
			t.Errorf("%v buf=%d: latencies %v, want C %v, A %v, B 100", tc.sw, tc.buf, s.lat, tc.cDone, aWant)
		}
	}
}
