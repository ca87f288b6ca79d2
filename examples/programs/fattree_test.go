package programs

import (
	"math"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// The ring allreduce on the InfiniBand fat tree, as
// examples/dragonfly/README.md runs it (one leaf here, 128 ranks, to be
// quick): both answers are bounded by std:ib-ndr's own figures, and they
// agree once the two costs only the analytic model charges are made equal
// to the simulated network's, which is the README's explanation of their
// difference.
func TestRingAllreduceOnFatTree(t *testing.T) {
	const (
		sendSW = 600e-9 // std:ib-ndr's send_sw
		recvSW = 400e-9 // recv_sw
		swMax  = 130e-9 // sw_delay (the memory system's mem_delay, 100 ns, is less)
		cable  = 10e-9
		mpi    = 100e-9 // std:models' mpi_overhead, as std:ib-ndr sets it
		rate   = 25e9   // mem_rate, the slower of the memory and the port
	)
	res, P := runWith(t, "ring_allreduce.machine", "std:ib-ndr", map[string]string{"leaves": "1"}, nil)
	if P != 128 {
		t.Fatalf("%d ranks, want 128 (4 cores on each of 32 nodes)", P)
	}
	steps := float64(2 * (P - 1))
	block := math.Ceil(64000.0 / float64(P))
	// A step is at least a send's and a receive's software on the rank's
	// own core; at most that, the MPI layer and the longest transit: core,
	// memory system, leaf, memory system, core (three switches, two
	// cables) on one leaf.
	lo := steps * (sendSW + recvSW)
	hi := steps * (sendSW + recvSW + mpi + 3*swMax + 2*cable + block/rate)
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr.Makespan < lo || pr.Makespan > hi {
			t.Errorf("%s: %g s, want within [%g, %g] s: 2(P-1) steps of software, plus at most the longest transit", pr.Method, pr.Makespan, lo, hi)
		}
		for _, r := range pr.Ranks {
			if math.Abs(r.Send-steps*sendSW) > 1e-12 || math.Abs(r.Recv-steps*recvSW) > 1e-12 {
				t.Errorf("%s: rank %d sends %g s and receives %g s, want %g and %g", pr.Method, r.Rank, r.Send, r.Recv, steps*sendSW, steps*recvSW)
				break
			}
		}
	}
	if res.Simulated.Makespan >= res.Analytic.Makespan {
		t.Errorf("simulated %g s, analytic %g s: the analytic answer charges the MPI layer and 130 ns a switch, so it should be the longer", res.Simulated.Makespan, res.Analytic.Makespan)
	}
	// With the MPI layer's overhead 0 and the memory system as slow as a
	// switch, the analytic model charges what the network does: within 1%.
	eq, _ := runWith(t, "ring_allreduce.machine", "std:ib-ndr", map[string]string{"leaves": "1", "mpi_overhead": "0s", "mem_delay": "130ns"}, nil)
	if d, _ := eq.Difference(); math.Abs(d) > 0.01 {
		t.Errorf("with mpi_overhead=0s and mem_delay=130ns: analytic %g s, simulated %g s, %+.2f%% apart, want within 1%%", eq.Analytic.Makespan, eq.Simulated.Makespan, 100*d)
	}
}
