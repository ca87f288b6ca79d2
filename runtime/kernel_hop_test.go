package runtime

import (
	"context"
	"reflect"
	"testing"
)

// The plain hop (kernel_hop.go) gives the answer the general path gives,
// bit for bit and event for event. The reference is the same network with
// its hopDelay flag set, which sends every arrival the general way and
// changes nothing else (every node's HopDelay is still 0, which arrive
// adds). The cases have what the plain hop hands back: heads that find
// their lane taken and wait (a burst on a small torus), wires still busy
// and shared by two lanes, ties half way round an even ring, datelines,
// packets that spill their ring (long worms on short links), several
// packets a message and acknowledgements, a run cut short, and a
// hypercube.
func TestPlainHopsSimulateAsTheGeneralPath(t *testing.T) {
	torus := func(k, lanes int, sw Switching) func(testing.TB) *Spec {
		return func(tb testing.TB) *Spec {
			sp := torusSpec(tb, k)
			sp.Packet.VirtualChannels, sp.Switching = lanes, sw
			return sp
		}
	}
	cases := []struct {
		name string
		spec func(testing.TB) *Spec
		opts Options
	}{
		{"torus8-randperm", torus(8, 2, Wormhole), Options{Op: "randperm", Size: 32}},
		{"torus16-uniform", torus(16, 2, Wormhole), Options{Op: "uniform", Size: 32}},
		{"torus7-alltoall", torus(7, 2, Wormhole), Options{Op: "alltoall", Size: 64}},
		{"torus8-one-lane", torus(8, 1, Wormhole), Options{Op: "randperm", Size: 256}},
		{"torus8-four-lanes", torus(8, 4, Wormhole), Options{Op: "alltoall", Size: 32}},
		{"torus8-vct", func(tb testing.TB) *Spec {
			sp := torus(8, 2, VCT)(tb)
			sp.Packet.BufferFlits = 0 // unbounded: no buffers counted in packets
			return sp
		}, Options{Op: "transpose", Size: 128}},
		{"torus8-long-worms", func(tb testing.TB) *Spec {
			sp := torusSpec(tb, 8)
			sp.DefaultLink.Latency = 1e-10 // a packet spans more lanes than its ring holds
			return sp
		}, Options{Op: "randperm", Size: 4096}},
		{"torus8-packets-acks", func(tb testing.TB) *Spec {
			sp := torusSpec(tb, 8)
			sp.Packet.Payload, sp.Packet.AckBytes, sp.Packet.Window = 64, 8, 2
			return sp
		}, Options{Op: "alltoall", Size: 300}},
		{"torus8-round-robin", func(tb testing.TB) *Spec {
			sp := torusSpec(tb, 8)
			sp.Arbitration = RoundRobin // grants read the input link each hop sets
			return sp
		}, Options{Op: "alltoall", Size: 32}},
		{"torus16-cut-short", torus(16, 2, Wormhole), Options{Op: "randperm", Size: 32, MaxEvents: 3000}},
		{"hypercube", xmpSpec, Options{Op: "randperm", Size: 32}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(3) {
				var res [2]runResult
				var events [2]int64
				for i, general := range []bool{true, false} {
					opts := c.opts
					opts.Seed = seed
					s, tr := simFor(t, c.spec(t), &opts)
					if !s.plainHops() {
						t.Fatal("the network does not take plain hops")
					}
					s.net.hopDelay = general
					res[i] = s.once(context.Background(), tr, runSeed(opts.Seed, 0))
					if res[i].err != nil {
						t.Fatal(res[i].err)
					}
					events[i] = s.events
				}
				if !reflect.DeepEqual(res[0], res[1]) {
					t.Errorf("seed %d: plain hops %+v, the general path %+v", seed, res[1], res[0])
				}
				if events[0] == 0 || events[0] != events[1] {
					t.Errorf("seed %d: %d events on plain hops, %d on the general path", seed, events[1], events[0])
				}
			}
		})
	}
}

// A network with a model the plain hop leaves out takes the general path.
func TestPlainHopsOnlyWithoutTheModelsTheyLeaveOut(t *testing.T) {
	for name, mod := range map[string]func(*Spec){
		"hop delay":   func(sp *Spec) { sp.DefaultNode.HopDelay = 1e-9 },
		"credits":     func(sp *Spec) { sp.Credits = true },
		"speed-up":    func(sp *Spec) { sp.Speedup = 2 },
		"store":       func(sp *Spec) { sp.Switching = SAF },
		"circuit":     func(sp *Spec) { sp.Switching = Circuit },
		"random":      func(sp *Spec) { sp.Routing = "random" },
		"soft-routed": func(sp *Spec) { sp.DefaultNode.RouteFixed = 1e-6 },
	} {
		sp := torusSpec(t, 8)
		mod(sp)
		s, _ := simFor(t, sp, &Options{Op: "randperm", Size: 32})
		if s.plainHops() {
			t.Errorf("%s: takes plain hops", name)
		}
	}
	if s, _ := simFor(t, torusSpec(t, 8), &Options{Op: "randperm", Size: 32}); !s.plainHops() {
		t.Error("the benchmark torus does not take plain hops")
	}
}
