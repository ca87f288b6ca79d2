package runtime

import (
	"testing"
)

// The sender is busy until its message has streamed onto the first link,
// whatever the switching: a circuit's send time includes the streaming
// after the path is set up, as packet switching's does.
func TestSendTimeIncludesStreamingUnderEverySwitching(t *testing.T) {
	const gamma, bw, lat, delay = 2e-6, 1e6, 1e-6, 3e-6
	spec := &Spec{Graph: mustGen(t, "chain", 4), DefaultNode: NodeParams{SendOverhead: gamma, HopDelay: delay},
		DefaultLink: LinkParams{Latency: lat, Bandwidth: bw}}
	// A circuit is set up hop by hop and confirmed back (3 links, 2
	// switching nodes on the way) before the data streams.
	setup := 3*lat + 2*delay + 3*lat + 2*delay
	for _, tc := range []struct {
		switching string
		before    float64 // the sender's time before the message streams
	}{
		{"saf", gamma}, {"vct", gamma}, {"wormhole", gamma}, {"circuit", gamma + setup},
	} {
		for _, n := range []int{0, 1000, 4000} {
			r := sim1(t, spec, Options{Op: "send", Size: n, Src: Node(0), Dst: Node(3), Switching: tc.switching})
			want := tc.before + float64(n)/bw
			if !near(r.SendTime.Mean, want, 1e-9) {
				t.Errorf("%s, %d bytes: send time %g s, want %g s", tc.switching, n, r.SendTime.Mean, want)
			}
		}
	}
}
