package runtime

import (
	"math"
	"testing"
)

// A buffer of one packet per lane under store and forward: a message of
// two packets of T = 100 µs on the wire each (100 B at 1 MB/s), latency
// L = 1 µs a link, from 0 to 2 on a chain of three. Unbounded, the second
// packet follows the first on 0→1 at T and on 1→2 at 2T + L, delivered at
// 3T + 2L. With one buffer it may not take 0→1 before the first has left
// node 1's buffer, at T + L (when the first takes 1→2), nor 1→2 before the
// first is delivered at 2T + 2L: delivered at 3T + 3L. Two buffers give
// back the unbounded time.
func TestPacketBuffersDelayPacketsBehind(t *testing.T) {
	const T, L = 100e-6, 1e-6
	for _, tc := range []struct {
		switching Switching
		buffer    int
		want      float64
	}{
		{SAF, 0, 3*T + 2*L},
		{SAF, 1, 3*T + 3*L},
		{SAF, 2, 3*T + 2*L},
		// Cut-through, unbounded: the second packet follows the first
		// on 0→1 at T and on 1→2 at T + L, its tail in at 2T + 2L. With
		// one buffer it takes 0→1 at T still (the first left node 1's
		// buffer at L), but 1→2 only once the first is delivered, at
		// T + 2L: its tail is in at 2T + 3L.
		{VCT, 0, 2*T + 2*L},
		{VCT, 1, 2*T + 3*L},
	} {
		spec := sourceSpec(t, "c3", `machine "c3" {
	processor p {}
	topology t = chain(3) {
		latency = 1us
		speed = 1MB/s
		packet = 100B
	}
}`)
		spec.Switching = tc.switching
		spec.Packet.BufferFlits = tc.buffer
		r := sim1(t, spec, Options{Op: "send", Src: Node(0), Dst: Node(2), Size: 200})
		if r.Deadlock || math.Abs(r.Makespan-tc.want) > 1e-9*tc.want {
			t.Errorf("%s, buffer %d: makespan %.6g µs (deadlock %v), want %.6g µs", tc.switching, tc.buffer, r.Makespan*1e6, r.Deadlock, tc.want*1e6)
		}
	}
}

// With one buffer a link, store-and-forward traffic around a ring whose
// routing is cyclic deadlocks, and the cycle reported is the ring's
// channels: tornado on 8 nodes (every node sends 3 hops clockwise at
// once) fills every buffer. Unbounded, and with two buffers (8 packets
// cannot fill 16 places), it completes.
func TestPacketBuffersDeadlockOnCyclicRouting(t *testing.T) {
	for _, tc := range []struct {
		switching Switching
		buffer    int
		deadlock  bool
	}{
		{SAF, 0, false}, {SAF, 1, true}, {SAF, 2, false},
		{VCT, 0, false}, {VCT, 1, true}, {VCT, 2, false},
	} {
		spec := basic(mustGen(t, "ring", 8), 10e-9, 100e6)
		spec.Switching = tc.switching
		spec.Packet.BufferFlits = tc.buffer
		r := sim1(t, spec, Options{Op: "tornado", Size: 4096})
		if r.Deadlock != tc.deadlock {
			t.Errorf("%s, buffer %d: deadlock %v, want %v", tc.switching, tc.buffer, r.Deadlock, tc.deadlock)
			continue
		}
		if tc.deadlock && (len(r.Cycle) != 8 || !closedWalk(r.Cycle)) {
			t.Errorf("%s, buffer %d: cycle %v, want the ring's 8 channels in one direction", tc.switching, tc.buffer, r.Cycle)
		}
	}
}
