package runtime

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

func TestNICRoutersGiveBookSimsZeroLoadLatency(t *testing.T) {
	// 5H + 6 + S cycles for H router-to-router hops and S flits.
	for _, c := range []struct {
		name     string
		args     []int
		src, dst int
		hops     int
	}{
		{"mesh", []int{4, 4}, 0, 15, 6},
		{"mesh", []int{8, 8}, 9, 10, 1},
		{"torus", []int{4, 4}, 0, 3, 1}, // the wrap-around link
		{"hypercube", []int{4}, 0, 15, 4},
	} {
		spec := bookSimSpec(t, 1e-9, c.name, c.args...)
		res := sim1(t, spec, Options{Size: 32, Src: Node(c.src), Dst: Node(c.dst)})
		want := float64(5*c.hops+6+8) * 1e-9
		if !near(res.Latency.Mean, want, 1e-9) {
			t.Errorf("%s%v %d→%d: latency %g, want %g (5·%d+6+8 cycles)", c.name, c.args, c.src, c.dst, res.Latency.Mean, want, c.hops)
		}
		if res.Hops.Max != c.hops+2 {
			t.Errorf("%s%v %d→%d: %d links, want %d (the injection and ejection links too)", c.name, c.args, c.src, c.dst, res.Hops.Max, c.hops+2)
		}
	}
}

func TestNICKeepsProcessorIDsAndRanks(t *testing.T) {
	spec := bookSimSpec(t, 0, "mesh", 4, 4)
	g := spec.Graph
	if g.NumProcs() != 16 || g.N() != 32 {
		t.Fatalf("%d processors of %d nodes, want 16 of 32", g.NumProcs(), g.N())
	}
	for r := range 16 {
		if id := g.ID(g.Proc(r)); id != r {
			t.Errorf("rank %d is processor %d, want %d", r, id, r)
		}
	}
	if c := g.Core(); c.Nodes != 16 || c.Kind.String() != "mesh" {
		t.Errorf("core %+v, want the 4×4 mesh of routers", c)
	}
}

func TestAllocDelayOpensAGapBetweenPacketsThroughOneOutput(t *testing.T) {
	// Processors 0 and 2 of a 3-chain send 32 bytes (8 cycles) to 1 at the
	// same moment; their heads reach router 1 together. The second takes
	// the ejection lane once the first's tail has left it, AllocDelay later.
	for _, alloc := range []float64{0, 1e-9, 3e-9} {
		spec := bookSimSpec(t, alloc, "chain", 3)
		res := sim1(t, spec, Options{Op: "hotspot", Size: 32, Dst: Node(1)})
		if res.Messages != 2 {
			t.Fatalf("alloc %g: %d messages, want 2", alloc, res.Messages)
		}
		gap := res.Latency.Max - res.Latency.Min
		if want := 8e-9 + alloc; math.Abs(gap-want) > 1e-15 {
			t.Errorf("alloc %g: second message %g later, want %g (8 cycles + alloc)", alloc, gap, want)
		}
	}
}

func TestWithNICRefusesLinksThatCannotCarry(t *testing.T) {
	spec := basic(mustGen(t, "ring", 4), 1e-9, 1e9)
	for _, c := range []struct{ lat, bw float64 }{{1e-9, 0}, {-1, 1e9}, {math.NaN(), 1e9}} {
		if _, err := WithNIC(spec, c.lat, c.bw); err == nil {
			t.Errorf("latency %g, speed %g: no error", c.lat, c.bw)
		}
	}
}

func TestSpeedupLetsAnInputPassOnePacketAtATime(t *testing.T) {
	// Processors 0..3 around switch 10, 1 byte/ns, no delays, cut-through.
	// 3 sends 150 B to 1; 0 sends 100 B to 1 (blocked behind it at the
	// switch) and then 100 B to 2 (through at 100 ns). When 1's link frees
	// at 150 ns, 0's first message takes it — unless the crossbar input it
	// came in by is still passing the second (until 100 + 100/speedup).
	b := topo.NewBuilder().Switch(10)
	for i := range 4 {
		b.Processor(i).Connect(i, 10)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		speedup, want float64 // latency of 0's message to 1, ns
	}{{0, 250}, {1, 300}, {2, 250}, {4, 250}} {
		spec := basic(g, 0, 1e9)
		spec.Switching, spec.Speedup = VCT, c.speedup
		lat := sendAll(t, spec, []int{3, 1, 150}, []int{0, 1, 100}, []int{0, 2, 100})
		if got := lat[1] * 1e9; math.Abs(got-c.want) > 1e-6 {
			t.Errorf("speedup %g: latency %g ns, want %g", c.speedup, got, c.want)
		}
	}
	spec := basic(g, 0, 1e9)
	spec.Speedup = -1
	if _, err := compile(spec, "", "", 0); err == nil || !strings.Contains(err.Error(), "Speedup = -1") {
		t.Errorf("speedup -1: err = %v", err)
	}
}

func TestHeadAskingAsTheTailLeavesTakesTheLaneWithoutWaiting(t *testing.T) {
	// A 3-chain of processors, 1 byte/ns, wormhole with 2-buffer worms:
	// 1 sends 32 B to 2, taking lane 1→2 until its tail leaves at 32 ns,
	// while 0 sends 32 B to 2, its head reaching 1 after one latency L.
	// At L = 32 ns it asks at the very moment the tail leaves and takes
	// the lane then, with no allocation delay: 96 ns. At L = 31 ns it
	// waits a nanosecond and the lane is handed over AllocDelay (5 ns)
	// later, its first lane's tail held back as long: 37 + 32 + 31 = 100 ns.
	g, err := topo.NewBuilder().Processor(0).Processor(1).Processor(2).Connect(0, 1).Connect(1, 2).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lat, want float64 }{{32e-9, 96e-9}, {31e-9, 100e-9}} {
		spec := basic(g, c.lat, 1e9)
		spec.Switching, spec.Packet = Wormhole, PacketParams{FlitBytes: 4, BufferFlits: 4}
		spec.DefaultNode.AllocDelay = 5e-9
		// 0's first: its head's arrival is scheduled before 1's tail
		// leaves, which must still go first.
		lat := sendAll(t, spec, []int{0, 2, 32}, []int{1, 2, 32})
		if got := lat[0]; math.Abs(got-c.want) > 1e-15 {
			t.Errorf("latency %g ns: 0→2 took %g ns, want %g", c.lat*1e9, got*1e9, c.want*1e9)
		}
	}
}

// sendAll simulates messages {from, to, bytes} (node ids), all ready at
// time 0 and scheduled in the order given, and returns their latencies.
func sendAll(t *testing.T, spec *Spec, msgs ...[]int) []float64 {
	t.Helper()
	n, err := compile(spec, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(n, &Options{})
	s.reset(1)
	tr := &traffic{op: "send", channels: 1, links: 1}
	node := func(id int) int32 { v, _ := spec.Graph.Index(id); return v }
	var ids []int32
	for _, m := range msgs {
		ids = append(ids, s.addMsg(tr, node(m[0]), node(m[1]), int64(m[2])))
	}
	s.linkDeps()
	s.run(context.Background())
	lat := make([]float64, len(ids))
	for i, id := range ids {
		lat[i] = s.msgs[id].lat
	}
	return lat
}
