package runtime

import (
	"context"
	"errors"
	"math"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/limits"
)

func TestSimulationBeyondTheMemoryLimitIsRefusedBeforeAllocating(t *testing.T) {
	const limit = 64 << 20
	hc6 := basic(mustGen(t, "hypercube", 6), 1e-9, 1e9)
	hc12 := basic(mustGen(t, "hypercube", 12), 1e-9, 1e9)
	ham := basic(mustGen(t, "hamiltonian", 20000, 1, 4), 1e-9, 1e9)
	small := *hc6
	small.Packet.Payload = 32
	tests := []struct {
		name string
		spec *Spec
		opts Options
		want string
	}{
		{"raw records of runs", hc6, Options{Runs: 1e12, KeepRuns: true},
			"the raw records of 1000000000000 runs needs about 224 TB; the limit is 67 MB, set --max-memory to raise it"},
		{"messages", hc12, Options{Op: "alltoall"},
			"op alltoall on 4096 processors (16773120 messages a run, 1 run) needs about"},
		{"routing tables", ham, Options{},
			"routing by table on a 20000-node hamiltonian graph needs about 1.6 GB; the limit is 67 MB"},
		{"packets per part", &small, Options{Size: 1e15},
			"a message of 1000000000000000 bytes in packets of 32 bytes is 31250000000000 packets per part; the bound is 2147483647"},
		{"allgather overflow", hc6, Options{Op: "allgather", Size: 1 << 50},
			"allgather of 1125899906842624-byte blocks on 64 processors gathers more than 2^53 bytes, the bound on a message"},
		{"message size", hc6, Options{Size: math.MaxInt64},
			"Options.Size = 9223372036854775807: a message may be at most 9007199254740992 bytes (2^53)"},
		{"message size with packets", &small, Options{Size: math.MaxInt64},
			"Options.Size = 9223372036854775807: a message may be at most 9007199254740992 bytes (2^53)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.MaxMemory = limit
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			_, err := Simulate(context.Background(), tc.spec, tc.opts)
			goruntime.ReadMemStats(&after)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant prefix %s", err, tc.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("refusing allocated %d bytes first", grew)
			}
		})
	}
}

func TestSimulationValuesOutOfRangeNameTheField(t *testing.T) {
	hc := mustGen(t, "hypercube", 3)
	spec := func(f func(*Spec)) *Spec { s := basic(hc, 1e-9, 1e9); f(s); return s }
	tests := []struct {
		spec *Spec
		opts Options
		want string
	}{
		{spec(func(s *Spec) { s.Packet.VirtualChannels = 1e9 }), Options{}, "Packet.VirtualChannels = 1000000000 is out of range 0..256 (0 means 1)"},
		{spec(func(s *Spec) { s.Packet.Window = -1 }), Options{}, "Packet.Window = -1 is out of range 0..2147483647 (0: no acknowledgements)"},
		{spec(func(s *Spec) { s.Packet.Header = -1 }), Options{}, "Packet.Header = -1 is out of range 0..2147483647 bytes"},
		{spec(func(s *Spec) { s.DefaultNode.SendOverhead = -1e-6 }), Options{}, "DefaultNode.SendOverhead = -1e-06 s must be a finite time ≥ 0"},
		{spec(func(*Spec) {}), Options{Runs: -1}, "Options.Runs must not be negative, got -1"},
		{spec(func(*Spec) {}), Options{Channels: -2}, "Options.Channels = -2 is out of range 0..2147483647 (0 means 1)"},
		{spec(func(*Spec) {}), Options{Size: -5}, "Options.Size must not be negative, got -5"},
	}
	for _, tc := range tests {
		if _, err := Simulate(context.Background(), tc.spec, tc.opts); err == nil || err.Error() != tc.want {
			t.Errorf("error %v\nwant  %s", err, tc.want)
		}
	}
}

// Packets that pile up behind a slow link under cut-through are not in the
// estimate (they depend on contention); the run stops at its share of the
// limit instead of exhausting memory.
func TestPacketsPilingUpStopAtTheMemoryLimit(t *testing.T) {
	g := mustGen(t, "chain", 3)
	spec := &Spec{Graph: g, Switching: VCT, Packet: PacketParams{Payload: 16},
		Links: []LinkParams{{Bandwidth: 1e12}, {Bandwidth: 1e3}}}
	_, err := Simulate(context.Background(), spec, Options{Size: 1e8, MaxMemory: 16 << 20})
	var tl *limits.TooLarge
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "packets in flight at once) needs about") {
		t.Fatalf("error %v, want a *limits.TooLarge for packets in flight", err)
	}
}

func TestSimulationWithinTheLimitRuns(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 6), 1e-9, 1e9)
	res, err := Simulate(context.Background(), spec, Options{Op: "alltoall", Runs: 3, MaxMemory: 64 << 20})
	if err != nil || res.Messages != 3*64*63 {
		t.Fatalf("%v, %+v", err, res)
	}
}
