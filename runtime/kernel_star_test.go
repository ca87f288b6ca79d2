package runtime

import (
	"encoding/json"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// starCases are programs on a crossbar of P processors that exercise
// what the star's path meets: heads that find the hub's wire to a rank
// taken and wait for it (every rank sends to rank 0 at once on links of
// finite speed), a source whose wire is still busy when its next message
// leaves (rank 0 sends to every rank at once, no overhead between),
// messages of several packets, a switch that delays heads, packet
// overheads, software overheads, LogGOPS's NIC, a trace, a run cut short,
// and a ring.
func starCases(P int) []struct {
	name string
	mod  func(*Spec)
	s    *lang.Schedule
	o    ProgramOptions
} {
	gather := make([][]lang.SchedOp, P)
	scatter := make([][]lang.SchedOp, P)
	for r := 1; r < P; r++ {
		gather[r] = []lang.SchedOp{send(0, 4096, 0)}
		gather[0] = append(gather[0], recv(int32(r), 4096, 0))
		scatter[0] = append(scatter[0], send(int32(r), 1000, 0))
		scatter[r] = []lang.SchedOp{recv(0, 1000, 0)}
	}
	nic := func(sp *Spec) {
		sp.DefaultNode = NodeParams{SendOverhead: 1.5e-6, RecvOverhead: 1.5e-6, SendGap: 1e-6, RecvGap: 1e-6,
			SendGapPerByte: 6e-9, RecvGapPerByte: 6e-9}
	}
	none := func(*Spec) {}
	return []struct {
		name string
		mod  func(*Spec)
		s    *lang.Schedule
		o    ProgramOptions
	}{
		{"ring", none, ringSchedule(P, 3, 4096), ProgramOptions{}},
		{"gather", none, independent(chainSchedule(nil, gather...)), ProgramOptions{}},
		{"scatter", none, independent(chainSchedule(nil, scatter...)), ProgramOptions{}},
		{"gather-packets", func(sp *Spec) { sp.Packet = PacketParams{Payload: 1000, Header: 16} }, independent(chainSchedule(nil, gather...)), ProgramOptions{}},
		{"scatter-delays", func(sp *Spec) { sp.DefaultNode = NodeParams{HopDelay: 3e-8, PacketOverhead: 2e-9} }, independent(chainSchedule(nil, scatter...)), ProgramOptions{}},
		{"ring-overheads", func(sp *Spec) { sp.DefaultNode = NodeParams{SendOverhead: 1e-7, RecvOverhead: 2e-7} }, ringSchedule(P, 3, 4096), ProgramOptions{}},
		{"gather-trace", none, independent(chainSchedule(nil, gather...)), ProgramOptions{Flows: true, Timeline: true}},
		{"ring-cut-short", none, ringSchedule(P, 3, 4096), ProgramOptions{MaxEvents: 100}},
		{"gather-nic", nic, independent(chainSchedule(nil, gather...)), ProgramOptions{}},
		{"ring-nic", nic, ringSchedule(P, 3, 4096), ProgramOptions{}},
	}
}

// On a crossbar the star's path (kernel_star.go) gives the answer the
// general path gives, byte for byte and event for event: the reference
// is the same crossbar with a spare switch, which is no star, so every
// step of its run is the general one.
func TestStarPathSimulatesAsTheGeneralPath(t *testing.T) {
	const P = 12
	for _, c := range starCases(P) {
		var out [2][]byte
		for i, spare := range []bool{false, true} {
			spec := basic(star(t, P, spare), 1e-8, 1e9)
			spec.Switching = VCT
			c.mod(spec)
			n, err := compile(kernelSpec(spec), "", "", 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := newSim(n, &Options{}).useStar(); got == spare {
				t.Fatalf("%s (spare switch %v): the star's path taken %v", c.name, spare, got)
			}
			b, err := json.Marshal(runProg(t, spec, c.s, c.o))
			if err != nil {
				t.Fatal(err)
			}
			out[i] = b
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: star's path:\n%s\ngeneral path:\n%s", c.name, out[0], out[1])
		}
	}
}

// The star's path is not taken where its shortcuts would be wrong: other
// switching, several lanes, acknowledgements, buffers, credits, a routing
// that is not minimal, a speed-up.
func TestStarPathNeedsAPlainCrossbar(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(*Spec)
	}{
		{"wormhole", func(sp *Spec) { sp.Switching = Wormhole }},
		{"saf", func(sp *Spec) { sp.Switching = SAF }},
		{"lanes", func(sp *Spec) { sp.Packet.VirtualChannels = 2 }},
		{"window", func(sp *Spec) { sp.Packet = PacketParams{Window: 2, AckBytes: 8} }},
		{"buffers", func(sp *Spec) { sp.Packet.BufferFlits = 4 }},
		{"valiant", func(sp *Spec) { sp.Routing = "valiant" }},
		{"speedup", func(sp *Spec) { sp.Speedup = 2 }},
	} {
		spec := basic(star(t, 8, false), 1e-8, 1e9)
		spec.Switching = VCT
		c.mod(spec)
		n, err := compile(spec, "", "", 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if newSim(n, &Options{}).useStar() {
			t.Errorf("%s: the star's path taken", c.name)
		}
	}
}
