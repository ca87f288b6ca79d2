package runtime

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// roomTorus is the benchmark torus (torusSpec) under credits with a 1 ns
// credit delay and buffers of 16 flits, which hold its 9-flit packets with
// room to spare: the lookahead a striped run needs.
func roomTorus(tb testing.TB, k int) *Spec {
	spec := torusSpec(tb, k)
	spec.Credits, spec.CreditDelay = true, 1e-9
	spec.Packet.BufferFlits = 16
	return spec
}

func TestStripedRunIsTheSameOnAnyNumberOfWorkers(t *testing.T) {
	for _, op := range []string{"randperm", "alltoall", "hotspot"} {
		for _, stripes := range []int{2, 3, 4} {
			var want *Result
			for _, w := range []int{1, 2, 4} {
				res, err := Simulate(context.Background(), roomTorus(t, 8), Options{Op: op, Size: 32, Runs: 3, Seed: 7, Stripes: stripes, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if res.Messages == 0 || res.Deadlock || res.Stripes != stripes {
					t.Fatalf("%s, %d stripes: %d messages delivered, deadlock %v, cut into %d", op, stripes, res.Messages, res.Deadlock, res.Stripes)
				}
				if want == nil {
					want = res
				} else if d := cmp.Diff(want, res); d != "" {
					t.Errorf("%s, %d stripes: %d workers differ from 1 (-1 +%d):\n%s", op, stripes, w, w, d)
				}
			}
		}
	}
}

// A striped run is the same model: where no two events tie, its answer is
// one queue's to the bit; where they do, the same within noise.
func TestStripedRunAgreesWithOneQueue(t *testing.T) {
	one, err := Simulate(context.Background(), roomTorus(t, 8), Options{Op: "send", Size: 32, Src: Node(3), Dst: Node(44)})
	if err != nil {
		t.Fatal(err)
	}
	cut, err := Simulate(context.Background(), roomTorus(t, 8), Options{Op: "send", Size: 32, Src: Node(3), Dst: Node(44), Stripes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if cut.Stripes != 4 {
		t.Errorf("one message: runs cut into %d stripes, want 4", cut.Stripes)
	}
	if d := cmp.Diff(one, cut, cmpopts.IgnoreFields(Result{}, "Stripes")); d != "" {
		t.Errorf("one message, 4 stripes against one queue (-one +striped):\n%s", d)
	}
	for _, op := range []string{"randperm", "transpose"} {
		opts := Options{Op: op, Size: 32, Runs: 20, Seed: 3}
		one, err := Simulate(context.Background(), roomTorus(t, 16), opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Stripes = 4
		cut, err := Simulate(context.Background(), roomTorus(t, 16), opts)
		if err != nil {
			t.Fatal(err)
		}
		if one.Messages != cut.Messages || cut.Deadlock {
			t.Fatalf("%s: %d messages delivered striped, %d in one queue", op, cut.Messages, one.Messages)
		}
		if r := cut.Latency.Mean / one.Latency.Mean; math.Abs(r-1) > 0.02 {
			t.Errorf("%s: mean latency striped %g, one queue %g (%.2f%%)", op, cut.Latency.Mean, one.Latency.Mean, 100*(r-1))
		}
		t.Logf("%s: mean latency striped %g, one queue %g; events %d, %d", op, cut.Latency.Mean, one.Latency.Mean, cut.Events, one.Events)
	}
}

// The runs above are cut: the room torus has its lookahead (a link's 10 ns)
// and the benchmark torus, whose blocked worms hold lanes, has none.
func TestStripableNetworks(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec *Spec
		look float64
	}{
		{"credits, room", roomTorus(t, 8), 1e-8},
		{"no credits", torusSpec(t, 8), 0},
		{"credits, packets fill buffers", func() *Spec { s := roomTorus(t, 8); s.Packet.BufferFlits = 9; return s }(), 0},
	} {
		s, tr := simFor(t, tc.spec, &Options{Op: "randperm", Size: 32})
		s.reset(1)
		if err := s.build(tr); err != nil {
			t.Fatal(err)
		}
		s.linkDeps()
		look, of, _ := s.stripable(4)
		if look != tc.look || (of != nil) != (tc.look > 0) {
			t.Errorf("%s: lookahead %g, want %g", tc.name, look, tc.look)
		}
	}
}

// BenchmarkStripedTorus is a random permutation on the room torus, one
// run, in one queue (stripes 1) or cut into 4 stripes on 1 or 2 workers;
// 512 × 512 with PARASOL_BIG=1. Its metric is events per wall second.
func BenchmarkStripedTorus(b *testing.B) {
	for _, k := range []int{256, 512} {
		for _, c := range []struct{ stripes, workers int }{{1, 1}, {4, 1}, {4, 2}} {
			b.Run(fmt.Sprintf("%d/stripes=%d/workers=%d", k, c.stripes, c.workers), func(b *testing.B) {
				if k > 256 && os.Getenv("PARASOL_BIG") == "" {
					b.Skip("set PARASOL_BIG=1")
				}
				spec := roomTorus(b, k)
				var events int64
				for b.Loop() {
					res, err := Simulate(context.Background(), spec, Options{Op: "randperm", Size: 32, Stripes: c.stripes, Workers: c.workers})
					if err != nil {
						b.Fatal(err)
					}
					events += res.Events
				}
				b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

// An open-loop point cut into stripes: the same on any number of workers,
// its stripes' pools of packets and messages refilled mid-window where
// they run out (16 a stripe on these small tori), and the same model as
// one queue's: the latency and throughput within noise.
func TestStripedPointIsTheSameOnAnyNumberOfWorkers(t *testing.T) {
	for _, stripes := range []int{2, 3} {
		for _, load := range []float64{0.1, 0.5} {
			var want *LoadResult
			for _, w := range []int{1, 2} {
				s, tr := simFor(t, roomTorus(t, 12), &Options{Op: "uniform", Size: 32, Stripes: stripes, Workers: w})
				s.cores = w
				got, err := s.offered(context.Background(), tr, Load{Fraction: load}, 5, 0)
				if err != nil {
					t.Fatal(err)
				}
				if got.Stripes != stripes || got.Marked == 0 || got.Drained == (load > 0.2) {
					t.Fatalf("%d stripes, load %g: cut into %d, %d marked, drained %v", stripes, load, got.Stripes, got.Marked, got.Drained)
				}
				if load > 0.2 && s.cuts.starved == 0 {
					t.Errorf("%d stripes, load %g: no stripe ran out of packets or messages", stripes, load)
				}
				if want == nil {
					want = got
				} else if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%d stripes, load %g: 2 workers differ from 1 (-1 +2):\n%s", stripes, load, d)
				}
			}
		}
	}
}

func TestStripedPointAgreesWithOneQueue(t *testing.T) {
	for _, load := range []float64{0.05, 0.1, 0.4} {
		var lat, acc [2]float64
		for i, stripes := range []int{1, 4} {
			res, err := Offered(context.Background(), roomTorus(t, 16), Options{Op: "uniform", Size: 32, Stripes: stripes}, Load{Fraction: load})
			if err != nil {
				t.Fatal(err)
			}
			if want := stripes * int(btoi(stripes > 1)); res.Stripes != want {
				t.Fatalf("load %g: cut into %d stripes, asked %d", load, res.Stripes, stripes)
			}
			lat[i], acc[i] = res.Latency.Mean, res.Accepted
		}
		// Below saturation (0.05, 0.1) the latencies within 3%; at 0.4
		// (saturated, its latency a lower bound) the throughput within 5%.
		if r := lat[1] / lat[0]; load < 0.2 && math.Abs(r-1) > 0.03 {
			t.Errorf("load %g: mean latency striped %g, one queue %g (%+.1f%%)", load, lat[1], lat[0], 100*(r-1))
		}
		if r := acc[1] / acc[0]; math.Abs(r-1) > 0.05 {
			t.Errorf("load %g: accepted striped %g, one queue %g (%+.1f%%)", load, acc[1], acc[0], 100*(r-1))
		}
		t.Logf("load %g: mean latency striped %g, one queue %g; accepted %g, %g", load, lat[1], lat[0], acc[1], acc[0])
	}
}

// BenchmarkStripedPoint is one open-loop point of uniform traffic at load
// 0.005 on the 256 × 256 room torus, below its saturation, in one queue
// or cut into 4 stripes on 1 or 2 workers.
func BenchmarkStripedPoint(b *testing.B) {
	for _, c := range []struct{ stripes, workers int }{{1, 1}, {4, 1}, {4, 2}} {
		b.Run(fmt.Sprintf("256/stripes=%d/workers=%d", c.stripes, c.workers), func(b *testing.B) {
			spec := roomTorus(b, 256)
			var events int64
			for b.Loop() {
				res, err := Offered(context.Background(), spec, Options{Op: "uniform", Size: 32, Stripes: c.stripes, Workers: c.workers}, Load{Fraction: 0.005})
				if err != nil {
					b.Fatal(err)
				}
				events += res.Events
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// std:booksim-mesh's routers on a torus (iSLIP, a crossbar input passing
// one packet at a time, terminals behind routers injecting one packet at
// a time), its packets of 7 flits fitting the 8-flit buffers with room:
// cut, and the same on any number of workers.
func TestStripedRunOfBookSimsRouters(t *testing.T) {
	g, err := topo.NewGrid([]int{8, 8}, true)
	if err != nil {
		t.Fatal(err)
	}
	spec := creditSpec(g, true, 8, 2)
	spec.DefaultLink.Latency = 2
	spec.Allocator, spec.Speedup = ISLIP, 1
	if spec, err = WithNIC(spec, 1, 1); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"randperm", "uniform"} {
		var want any
		for _, w := range []int{1, 2} {
			opts := Options{Op: op, Size: 7, Runs: 2, Seed: 9, Stripes: 4, Workers: w}
			var got any
			if op == "uniform" {
				r, err := Offered(context.Background(), spec, opts, Load{Fraction: 0.2})
				if err != nil {
					t.Fatal(err)
				}
				if r.Stripes != 4 {
					t.Fatalf("%s: cut into %d stripes (%s)", op, r.Stripes, r.Unstriped)
				}
				got = r
			} else {
				r, err := Simulate(context.Background(), spec, opts)
				if err != nil {
					t.Fatal(err)
				}
				if r.Stripes != 4 {
					t.Fatalf("%s: cut into %d stripes (%s)", op, r.Stripes, r.Unstriped)
				}
				got = r
			}
			if want == nil {
				want = got
			} else if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: 2 workers differ from 1 (-1 +2):\n%s", op, d)
			}
		}
	}
}
