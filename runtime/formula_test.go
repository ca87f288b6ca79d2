package runtime

import (
	"testing"
)

// Seed 001 Eq. 2.2 and §2.5.1 on an idle chain, whole-message packets:
// SAF t_s + (m t_w + t_h) l, cut-through t_s + l t_h + m t_w.
func TestChainFormulas(t *testing.T) {
	const ts, th, tw = 2e-6, 0.3e-6, 1e-8 // t_w: seconds per byte
	for _, l := range []int{1, 2, 5, 9} {
		for _, m := range []int{1, 64, 4096} {
			g := mustGen(t, "chain", l+1)
			spec := &Spec{Graph: g, DefaultNode: NodeParams{SendOverhead: ts}, DefaultLink: LinkParams{Latency: th, Bandwidth: 1 / tw}}
			for _, sw := range []Switching{SAF, VCT, Wormhole, Circuit} {
				spec.Switching = sw
				r := sim1(t, spec, Options{Op: "send", Size: m, Src: Node(0), Dst: Node(l)})
				want := ts + float64(l)*th + float64(m)*tw
				switch sw {
				case SAF:
					want = ts + (float64(m)*tw+th)*float64(l)
				case Circuit: // probe out, confirmation back, then the stream
					want = ts + 3*float64(l)*th + float64(m)*tw
				}
				if !near(r.Latency.Max, want, 1e-9) || !near(r.Makespan, want, 1e-9) || r.Hops.Max != l {
					t.Errorf("%v l=%d m=%d: latency %g makespan %g hops %d, want %g", sw, l, m, r.Latency.Max, r.Makespan, r.Hops.Max, want)
				}
			}
		}
	}
}
