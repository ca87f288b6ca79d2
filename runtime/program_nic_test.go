package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// nicSpec is two processors on a link of latency L that streams any
// message at once, with np's NIC and CPUs.
func nicSpec(t *testing.T, np NodeParams) *Spec {
	return &Spec{Graph: mustGen(t, "chain", 2), DefaultNode: np,
		DefaultLink: LinkParams{Latency: 1e-6, Bandwidth: 1e18}, Switching: VCT}
}

// independent drops the chain of dependencies chainSchedule makes.
func independent(s *lang.Schedule) *lang.Schedule {
	s.Deps, s.DepStart = nil, make([]int32, len(s.Ops)+1)
	return s
}

// A NIC injects no faster than its gap: three sends of n bytes leave
// g + (n-1)·G apart, each costing the CPU o + (n-1)·O, and arrive o + L
// after they start; the receiving NIC and CPU take them g_r + (n-1)·G_r
// and o_r + (n-1)·max(O_r, G_r) apart, here longer than the send gap, so
// the receiving CPU paces them. Without the gap (a machine that states no
// NIC) the sends go back to back.
func TestProgramNICGapsPaceMessages(t *testing.T) {
	const o, g, G, O, L = 1e-6, 10e-6, 10e-9, 2e-9, 1e-6
	const or, gr, Gr, Or = 3e-6, 1e-6, 20e-9, 5e-9
	const n = 1001
	s := independent(chainSchedule(nil,
		[]lang.SchedOp{send(1, n, 0), send(1, n, 0), send(1, n, 0)},
		[]lang.SchedOp{recv(0, n, 0), recv(0, n, 0), recv(0, n, 0)}))
	np := NodeParams{SendOverhead: o, RecvOverhead: or, SendGap: g, SendGapPerByte: G, SendPerByte: O,
		RecvGap: gr, RecvGapPerByte: Gr, RecvPerByte: Or}
	res := runProg(t, nicSpec(t, np), s, ProgramOptions{})
	gap := g + (n-1)*G // 20 µs: the sends start at 0, 20 and 40 µs
	cpuIn := or + (n-1)*max(Or, Gr)
	// The first arrives at o + L; each takes the receiving CPU cpuIn (23
	// µs), longer than the gaps, so the others wait for it.
	want := []float64{2*gap + o + (n-1)*O, o + L + 3*cpuIn}
	if got := ends(res); !nearAll(got, want) {
		t.Errorf("ends %v, want %v", got, want)
	}
	if r := res.Ranks[0]; !near(r.Send, 3*(o+(n-1)*O), 1e-9) {
		t.Errorf("rank 0 spent %g s sending, want %g s", r.Send, 3*(o+(n-1)*O))
	}
	plain := runProg(t, nicSpec(t, NodeParams{SendOverhead: o, RecvOverhead: or}), s, ProgramOptions{})
	if got := plain.Ranks[0].End; !near(got, 3*o, 1e-9) {
		t.Errorf("without a NIC the sender ends at %g s, want %g s", got, 3*o)
	}
}

// A message takes the receiving CPU whether or not a receive is posted,
// once both it and the NIC are free: a rank computing 50 µs takes the
// message in after it, and its receive completes at once.
func TestProgramMessageWaitsForTheReceivingCPU(t *testing.T) {
	const o, L, c = 1e-6, 1e-6, 50e-6
	s := chainSchedule(nil, []lang.SchedOp{send(1, 1, 0)}, []lang.SchedOp{calc(c), recv(0, 1, 0)})
	res := runProg(t, nicSpec(t, NodeParams{SendOverhead: o, RecvOverhead: o, SendGap: o}), s, ProgramOptions{})
	if got, want := ends(res), []float64{o, c + o}; !nearAll(got, want) {
		t.Errorf("ends %v, want %v", got, want)
	}
}

// Several CPUs compute at once: two computations of 10 µs on CPUs 0 and 1
// end at 10 µs; the rank's breakdown is its first CPU's. A processor
// stating fewer CPUs than an operation names is refused, naming both.
func TestProgramCPUsComputeAtOnce(t *testing.T) {
	s := independent(chainSchedule(nil, []lang.SchedOp{calc(10e-6), calc(10e-6)}, nil))
	s.Ops[1].CPU = 1
	res := runProg(t, nicSpec(t, NodeParams{CPUs: 2}), s, ProgramOptions{})
	if r := res.Ranks[0]; !near(r.End, 10e-6, 1e-9) || !near(r.Compute, 10e-6, 1e-9) {
		t.Errorf("rank 0: %+v, want to end at 10 µs having computed 10 µs on CPU 0", r)
	}
	s.Ops[1].CPU = 2
	_, err := RunProgram(context.Background(), nicSpec(t, NodeParams{CPUs: 2}), s, ProgramOptions{})
	if err == nil || !strings.Contains(err.Error(), "runs on CPU 2, but its processor has 2 (its cpus)") {
		t.Errorf("CPU 2 of 2: %v", err)
	}
	s.Ops[1].CPU, s.Ops[1].Kind, s.Ops[1].Peer, s.Ops[1].NIC = 0, lang.OpSend, 1, 1
	_, err = RunProgram(context.Background(), nicSpec(t, NodeParams{SendGap: 1e-6, NICs: 1}), s, ProgramOptions{})
	if err == nil || !strings.Contains(err.Error(), "sends on NIC 1, but its processor has 1 (its nics)") {
		t.Errorf("NIC 1 of 1: %v", err)
	}
}

// Two NICs send at once: with a gap of 10 µs, sends on NICs 0 and 1 both
// start at 0 (their CPUs too), where one NIC sends the second at 10 µs.
func TestProgramNICsSendAtOnce(t *testing.T) {
	const g = 10e-6
	s := independent(chainSchedule(nil, []lang.SchedOp{send(1, 1, 0), send(1, 1, 1)},
		[]lang.SchedOp{recv(0, 1, 0), recv(0, 1, 1)}))
	s.Ops[1].NIC, s.Ops[1].CPU = 1, 1
	res := runProg(t, nicSpec(t, NodeParams{SendGap: g, CPUs: 2, NICs: 2}), s, ProgramOptions{})
	if got := res.Ranks[0].End; got != 0 {
		t.Errorf("two NICs: the sender ends at %g s, want 0", got)
	}
	s.Ops[1].NIC = 0
	res = runProg(t, nicSpec(t, NodeParams{SendGap: g, CPUs: 2, NICs: 2}), s, ProgramOptions{})
	if got := res.Ranks[0].End; !near(got, g, 1e-9) {
		t.Errorf("one NIC: the sender ends at %g s, want %g s", got, g)
	}
}

// A LogGOPS rendezvous (MatchRendezvous) sends the data at once and the
// send completes when the receiver matches it: here when its receive is
// posted after 50 µs of computation, the data having arrived at o + L.
// With the handshake instead, a request and a clear-to-send go first,
// each 2o + L, the clear-to-send once the receive is posted.
func TestProgramRendezvousWaitsForTheMatch(t *testing.T) {
	const o, L, c, n = 1e-6, 1e-6, 50e-6, 1000
	s := chainSchedule(nil, []lang.SchedOp{send(1, n, 0)}, []lang.SchedOp{calc(c), recv(0, n, 0)})
	np := NodeParams{SendOverhead: o, RecvOverhead: o, SendGap: o, MatchRendezvous: true}
	res := runProg(t, nicSpec(t, np), s, ProgramOptions{EagerLimit: 100})
	if got, want := ends(res), []float64{c + o, c + o}; !nearAll(got, want) {
		t.Errorf("match: ends %v, want %v (messages %d)", got, want, res.Messages)
	}
	np.MatchRendezvous = false
	res = runProg(t, nicSpec(t, np), s, ProgramOptions{EagerLimit: 100})
	// The request is taken in after the computation (its CPU time ends
	// at c + o), the clear-to-send is sent then (c + 2o) and taken in at
	// the sender (c + 3o + L), which sends the data; the send and the
	// receive complete when it is in, and the receiver's CPU has it o
	// later.
	data := c + 3*o + L
	if got, want := ends(res), []float64{data + o + L, data + o + L + o}; !nearAll(got, want) {
		t.Errorf("handshake: ends %v, want %v", got, want)
	}
}

// Operations ready together start in LogGOPSim's order, rank by rank:
// sends, then receives, then computation, whatever their order in the
// schedule. Rank 0's send and 50 µs computation both wait for nothing:
// the send takes the CPU at 0 (o), the computation after it, and the
// message, in at o + L, is taken in by 2o + L, however the two are
// listed (listed in that order the start's list is left as it is, else
// sorted).
func TestProgramReadyOperationsStartSendsFirst(t *testing.T) {
	const o, g, L, work = 1e-6, 2e-6, 1e-6, 50e-6
	np := NodeParams{SendOverhead: o, RecvOverhead: o, SendGap: g, RecvGap: g}
	for _, ops := range [][]lang.SchedOp{{calc(work), send(1, 1, 0)}, {send(1, 1, 0), calc(work)}} {
		s := independent(chainSchedule(nil, ops, []lang.SchedOp{recv(0, 1, 0)}))
		res := runProg(t, nicSpec(t, np), s, ProgramOptions{})
		if got, want := ends(res), []float64{o + work, 2*o + L}; !nearAll(got, want) {
			t.Errorf("rank 0 %v: ends %v, want %v", ops[0].Kind, got, want)
		}
	}
}
