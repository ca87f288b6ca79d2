package runtime

import (
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Head-of-line blocking, and output buffering that removes it. Processor 1
// routes for 0, 2 and 3. Rank 3 sends B (10 KB) to 2 at once; rank 0 sends A
// (10 KB) to 2 a moment later, whose head waits at 1 for B's link 1→2; then
// rank 0 sends C (10 B) to 3, over the same link 0→1 as A.
//   - input buffering (wormhole): A's blocked worm keeps lane 0→1, so C
//     waits until A has followed B over 1→2 and its tail has left 0→1:
//     C arrives after about two transfer times, 20 ms;
//   - output buffering: A waits whole at 1 and frees lane 0→1 once its tail
//     is in, after one transfer time; C arrives after about 10 ms.
func TestOutputBufferingRemovesHeadOfLineBlocking(t *testing.T) {
	const bw, lat, big = 1e6, 1e-6, 10_000
	transfer := big / bw // 10 ms
	g, err := topo.NewBuilder().Processor(0).Processor(1).Processor(2).Processor(3).
		Connect(0, 1).Connect(1, 2).Connect(1, 3).Build()
	if err != nil {
		t.Fatal(err)
	}
	s := chainSchedule(nil,
		[]lang.SchedOp{calc(1e-6), send(2, big, 0), send(3, 10, 1)},
		[]lang.SchedOp{calc(0)},
		[]lang.SchedOp{recv(3, big, 0), recv(0, big, 0)},
		[]lang.SchedOp{send(2, big, 0), recv(0, 10, 1)},
	)
	cEnd := func(output bool) float64 {
		spec := basic(g, lat, bw)
		spec.OutputBuffered = output
		return runProg(t, spec, s, ProgramOptions{}).Ranks[3].End
	}
	in, out := cEnd(false), cEnd(true)
	if in < 2*transfer {
		t.Errorf("input buffering: C arrives at %g s, before A could leave lane 0→1 (%g s)", in, 2*transfer)
	}
	if out > 1.1*transfer {
		t.Errorf("output buffering: C arrives at %g s; A's tail freed lane 0→1 at about %g s", out, transfer)
	}
}
