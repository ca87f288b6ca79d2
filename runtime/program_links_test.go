package runtime

import (
	"fmt"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// TestTraceRecordsMessagesAndLinks: 100 B from rank 0 to rank 3 on a chain
// of four at 1 MB/s crosses wires 0→1, 1→2 and 2→3, each busy once for
// 100 µs, in that order, and nothing else (cut through, the next starting
// a hop's 1 µs after the one before); the message is one flow from
// rank 0's send to rank 3's receive. Without Flows there is none of it.
// Wires of two lanes, whose lanes could share them, record the same.
func TestTraceRecordsMessagesAndLinks(t *testing.T) {
	for _, lanes := range []int{1, 2} {
		spec := basic(mustGen(t, "chain", 4), 1e-6, 1e6)
		spec.Packet.VirtualChannels = lanes
		t.Run(fmt.Sprintf("lanes=%d", lanes), func(t *testing.T) { checkTraceOfChain(t, spec) })
	}
}

func checkTraceOfChain(t *testing.T, spec *Spec) {
	s := chainSchedule(nil, []lang.SchedOp{send(3, 100, 0)}, nil, nil, []lang.SchedOp{recv(0, 100, 0)})
	res := runProg(t, spec, s, ProgramOptions{Flows: true})
	if len(res.Links) != 3 {
		t.Fatalf("%d busy wires, want 3: %+v", len(res.Links), res.Links)
	}
	for k, l := range res.Links {
		if l.Link != k || l.From != k || l.To != k+1 {
			t.Errorf("busy wire %d is link %d %d→%d, want link %d %d→%d", k, l.Link, l.From, l.To, k, k, k+1)
		}
		if len(l.Intervals) != 1 || math.Abs(l.Busy-100e-6) > 1e-15 || math.Abs(l.Intervals[0][1]-l.Intervals[0][0]-100e-6) > 1e-15 {
			t.Errorf("wire %d→%d busy %g s in %v, want once for 100 µs", l.From, l.To, l.Busy, l.Intervals)
			continue
		}
		if want := float64(k) * 1e-6; math.Abs(l.Intervals[0][0]-want) > 1e-15 {
			t.Errorf("wire %d→%d busy from %g s, want %g s", l.From, l.To, l.Intervals[0][0], want)
		}
	}
	want := Flow{From: 0, FromOp: 0, To: 3, ToOp: 0, Bytes: 100}
	if len(res.Flows) != 1 {
		t.Fatalf("flows %+v, want one", res.Flows)
	}
	f := res.Flows[0]
	if f.From != want.From || f.FromOp != want.FromOp || f.To != want.To || f.ToOp != want.ToOp || f.Bytes != want.Bytes || f.Sent != 0 || math.Abs(f.Received-103e-6) > 1e-15 {
		t.Errorf("flow %+v, want %+v sent at 0 and taken in at 103 µs (cut through: 100 µs on the wire, 1 µs a hop)", f, want)
	}
	off := runProg(t, spec, s, ProgramOptions{Timeline: true})
	if off.Flows != nil || off.Links != nil || off.Regions != nil {
		t.Errorf("without Flows: flows %v, links %v, regions %v", off.Flows, off.Links, off.Regions)
	}
}
