package runtime

import "testing"

// In the traffic simulation a processor's NIC charges what LogGOPS does:
// one n-byte message from 0 to 1 takes o + L + o_r + (n-1)·max(O_r, G_r)
// (the wire streams it at once), and a gather of three messages at one
// receiver is paced by its receiving CPU and NIC: the last is done at
// o + L + 3·(o_r + (n-1)·max(O_r, G_r)) when that is longer than the
// receive gap.
func TestTrafficNICGaps(t *testing.T) {
	const o, L, g, G, or, gr, Gr, Or = 1e-6, 1e-6, 2e-6, 1e-9, 3e-6, 1e-6, 4e-9, 2e-9
	const n = 1001
	np := NodeParams{SendOverhead: o, RecvOverhead: or, SendGap: g, SendGapPerByte: G, RecvGap: gr, RecvGapPerByte: Gr, RecvPerByte: Or}
	spec := &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: np, DefaultLink: LinkParams{Latency: L, Bandwidth: 1e18}, Switching: VCT}
	in := or + (n-1)*max(Or, Gr)
	if got, want := sim1(t, spec, Options{Op: "send", Size: n, Src: new(0), Dst: new(1)}).Latency.Mean, o+L+in; !near(got, want, 1e-9) {
		t.Errorf("send: latency %g s, want %g s", got, want)
	}
	star := &Spec{Graph: mustGen(t, "full", 4), DefaultNode: np, DefaultLink: LinkParams{Latency: L, Bandwidth: 1e18}, Switching: VCT}
	if got, want := sim1(t, star, Options{Op: "gather", Size: n}).Makespan, o+L+3*in; !near(got, want, 1e-9) {
		t.Errorf("gather: makespan %g s, want %g s", got, want)
	}
	plain := &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: NodeParams{SendOverhead: o, RecvOverhead: or},
		DefaultLink: LinkParams{Latency: L, Bandwidth: 1e18}, Switching: VCT}
	if got, want := sim1(t, plain, Options{Op: "send", Size: n, Src: new(0), Dst: new(1)}).Latency.Mean, o+L+or; !near(got, want, 1e-9) {
		t.Errorf("without a NIC: latency %g s, want %g s", got, want)
	}
}
