package validation

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/internal/workers"
	"github.com/parasol-lang/parasol/runtime"
)

// offeredCurve runs the open-loop points loads of op on std:booksim-mesh's
// topology (with sets), under switching sw ("" for the machine's).
func offeredCurve(t *testing.T, topology, op, sw string, loads []float64, sets ...string) (*runtime.Spec, []*runtime.LoadResult) {
	t.Helper()
	return seededCurve(t, "std:booksim-mesh", topology, runtime.Options{Op: op, Switching: sw}, runtime.Load{}, []uint64{1}, loads, sets...)
}

// seededCurve is offeredCurve on machine under opts (its Op, Switching
// and Routing; 32-byte messages), each point being point at one of loads
// (its Self, Warmup and Measure kept, its Fraction set), run once with
// each of seeds, the seeds
// spread over the cores (internal/workers): each point is the mean of the
// seeds' (meanPoints), as a peer's figure over the same seeds is.
func seededCurve(t *testing.T, machine, topology string, opts runtime.Options, point runtime.Load, seeds []uint64, loads []float64, sets ...string) (*runtime.Spec, []*runtime.LoadResult) {
	t.Helper()
	spec, err := load(t, machine, sets...).Spec(topology)
	if err != nil {
		t.Fatal(err)
	}
	ls := make([]runtime.Load, len(loads))
	for i, f := range loads {
		ls[i] = point
		ls[i].Fraction = f
	}
	opts.Size = 32
	runs := make([][]*runtime.LoadResult, len(seeds))
	err = workers.For(context.Background(), 0, len(seeds), nil, func(ctx context.Context, _ struct{}, i int) error {
		o := opts
		o.Seed = seeds[i]
		var err error
		runs[i], err = runtime.OfferedCurve(ctx, spec, o, ls)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return spec, meanPoints(runs)
}

// meanPoints is each point's mean over runs of the same loads, as BookSim's
// figures over several seeds are kept: the mean of their mean latencies,
// offered and accepted rates. A point is saturated where a run did not
// drain (BookSim counts a load stable only where every seed ran stably),
// or where the runs together accepted more than runtime.SaturationTolerance
// less than they offered: the runtime's test on their pooled traffic, where
// one run's flag at the knee of the curve turns on a few packets. One run
// is returned as it is.
func meanPoints(runs [][]*runtime.LoadResult) []*runtime.LoadResult {
	if len(runs) == 1 {
		return runs[0]
	}
	out := make([]*runtime.LoadResult, len(runs[0]))
	for i, p := range runs[0] {
		m := &runtime.LoadResult{Load: p.Load, Cycle: p.Cycle, Drained: true, Result: &runtime.Result{}}
		for _, r := range runs {
			m.Offered += r[i].Offered / float64(len(runs))
			m.Accepted += r[i].Accepted / float64(len(runs))
			m.Latency.Mean += r[i].Latency.Mean / float64(len(runs))
			m.Drained = m.Drained && r[i].Drained
		}
		m.Saturated = !m.Drained || m.Offered-m.Accepted > runtime.SaturationTolerance*m.Offered
		out[i] = m
	}
	return out
}

// bisectionBound is seed 001 §2.5.1's effective-bandwidth argument for
// uniform traffic on a k × k mesh of routers with one processor each,
// computed from the graph: the links joining routers on either side of the
// cut between columns k/2-1 and k/2 (counted link by link, b of them)
// carry, in each direction, what the p/2 processors of one half send to
// the other, a share (p/2)/(p-1) of their load (a message never goes to
// its sender). The load per processor, as a share of its injection
// bandwidth, at which that traffic fills the cut is the bound.
func bisectionBound(t *testing.T, spec *runtime.Spec, k int) float64 {
	t.Helper()
	g := spec.Graph
	core := g.Core()
	if core.Nodes != k*k {
		t.Fatalf("core of %d routers, want %d", core.Nodes, k*k)
	}
	inj, cut := 0.0, 0.0
	for l := range int32(g.NumLinks()) {
		ln := g.Link(l)
		bw := spec.Links[l].Bandwidth
		a, b := int(ln.A), int(ln.B)
		switch {
		case a >= core.Nodes || b >= core.Nodes: // a processor's own link
			inj = bw
		case (a%k < k/2) != (b%k < k/2):
			cut += bw // each direction of it
		}
	}
	p := float64(k * k)
	return cut * (p - 1) / (p / 2 * p / 2) / inj
}

// saturationLoad is the largest load of pts that did not saturate, and
// the load accepted there.
func saturationLoad(pts []*runtime.LoadResult) (load, accepted float64) {
	for _, p := range pts {
		if !p.Saturated && p.Load > load {
			load, accepted = p.Load, p.Accepted
		}
	}
	return load, accepted
}

// effectiveBandwidth checks seed 001's effective bandwidth against the
// simulated saturation of uniform traffic on meshes of several sizes, and
// sets Parasol's load–latency curves beside BookSim's.
func effectiveBandwidth(t *testing.T) section {
	s := section{
		Title: "Seed 001 §2.5.1: effective bandwidth and saturation; load–latency curves beside BookSim 2",
		Intro: "Each processor of a √p × √p mesh (std:booksim-mesh, every processor behind its own router) " +
			"sends to uniformly random others at an offered load, a share of its injection bandwidth; about half " +
			"its messages cross the bisection of √p links, so the network saturates once the cut is full: " +
			"seed 001's effective bandwidth, the link bandwidth scaled down by p/b. The **seed** column is that " +
			"bound, computed in Go from the graph (the links crossing the middle cut, counted one by one); Parasol's " +
			"is the largest load of a grid of 0.6 … 1.1 × the bound (0.3 … 0.8 for wormhole; steps of 0.05) that did not saturate (`sim --load`: " +
			"accepted within 5% of offered, marked messages drained), with the routers' crossbars not modelled (`xbar=0`), " +
			"so that only the network limits. Under virtual cut-through, where a blocked " +
			"packet holds nothing, saturation is within 15% of the bound (with BookSim's crossbar, `xbar=1`, an input " +
			"passing one packet at a time, it is 75–85%); under BookSim's wormhole router with one " +
			"virtual channel, head-of-line blocking stops it near half the bound (shown, not asserted).\n\n" +
			"The rows below them set Parasol's mean packet latency (in cycles) and saturation throughput beside " +
			"BookSim 2's default input-queued router (one cycle each for routing, VC allocation, switch allocation " +
			"and traversal, 8-flit buffers, 1-cycle channels, credit delay 1; docs/RUNTIME.md maps the parameters), " +
			"8-flit packets, `sim_type = latency`, at loads up to 80% of BookSim's saturation: here the **seed** column is " +
			"BookSim's figure, measured once with the commands in docs/PERFORMANCE.md, and the test checks Parasol " +
			"within 10%. BookSim's uniform traffic includes self-addressed packets (1 in 64, about 14 cycles each), " +
			"Parasol's does not here (`--self` adds them: the next section); its torus is folded (2-cycle channels between routers), and std:booksim-mesh's torus " +
			"says so.",
	}
	sizes := []int{4, 8, 16}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, k := range sizes {
		// The bound is the network's: the routers' crossbars, an input
		// passing one packet at a time, are left out (xbar=0).
		sets := []string{fmt.Sprintf("k=%d", k), "xbar=0"}
		spec, _ := offeredCurve(t, "", "uniform", "vct", []float64{0.05}, sets...)
		bound := bisectionBound(t, spec, k)
		grid := scaled(bound, 0.6, 1.1)
		for _, sw := range []string{"vct", "wormhole"} {
			grid := grid
			if sw == "wormhole" {
				grid = scaled(bound, 0.3, 0.8)
			}
			sets, unbounded := sets, ""
			if sw == "vct" {
				// The machine's buffer = 8 (flits, for its wormhole)
				// counts packets under vct: these are large enough
				// never to fill, so that a blocked packet holds nothing.
				sets = append(slices.Clone(sets), "topology(main).buffer=1000000")
				unbounded = " --set 'topology(main).buffer=1000000'"
			}
			_, pts := offeredCurve(t, "", "uniform", sw, grid, sets...)
			sat, _ := saturationLoad(pts)
			r := row{Quantity: fmt.Sprintf("%d×%d mesh, uniform, %s: saturation load", k, k, sw), Seed: num(bound), SeedVal: bound, Value: sat,
				Cmd: fmt.Sprintf("sim std:booksim-mesh --set k=%d --set xbar=0%s --switching %s --op uniform --load %.4g:%.4g:%.4g", k, unbounded, sw, grid[0], grid[len(grid)-1], bound*0.05)}
			if sw == "vct" {
				r.Tol = 0.15
			} else {
				r.Note = "not asserted: one lane, head-of-line blocking"
			}
			s.Rows = append(s.Rows, check(t, r))
		}
	}
	for _, c := range bookSimCurves {
		loads := make([]float64, len(c.points))
		for i, p := range c.points {
			loads[i] = p.load
		}
		_, pts := offeredCurve(t, c.topology, c.op, "", append(loads, c.beyond...))
		name := "8×8 mesh"
		if c.topology != "" {
			name = "8×8 " + c.topology
		}
		cmd := fmt.Sprintf("sim std:booksim-mesh --op %s --load L", c.op)
		if c.topology != "" {
			cmd = fmt.Sprintf("sim std:booksim-mesh --topology %s --op %s --load L", c.topology, c.op)
		}
		for i, p := range c.points {
			cycles := pts[i].Latency.Mean / pts[i].Cycle
			s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("%s, %s, load %g: mean latency", name, c.op, p.load),
				Seed: num(p.latency), SeedVal: p.latency, Value: cycles, Unit: "cycles", Tol: 0.10, Cmd: cmd}))
		}
		best := 0.0
		for _, p := range pts {
			best = max(best, p.Accepted)
		}
		s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("%s, %s: saturation throughput", name, c.op),
			Seed: num(c.saturation), SeedVal: c.saturation, Value: best, Tol: 0.10, Cmd: cmd + " (largest accepted)"}))
	}
	return s
}

// bookSimCurves are BookSim 2's figures for std:booksim-mesh's scenarios:
// mean packet latency in cycles at each load (flits per node per cycle,
// injection_rate_uses_flits = 1) up to 80% of saturation, and the
// saturation throughput, the accepted rate of the last load BookSim ran
// stably. beyond are loads Parasol runs past them to find its own.
var bookSimCurves = []struct {
	topology, op string
	points       []struct{ load, latency float64 }
	saturation   float64
	beyond       []float64
}{
	{"", "uniform", []struct{ load, latency float64 }{{0.05, 42.17}, {0.1, 44.47}, {0.15, 49.36}, {0.18, 53.45}}, 0.2377, []float64{0.2, 0.22, 0.24, 0.26, 0.28, 0.3}},
	{"", "tornado", []struct{ load, latency float64 }{{0.05, 53.79}, {0.1, 59.84}, {0.12, 61.53}, {0.14, 68.34}}, 0.1728, []float64{0.16, 0.17, 0.18, 0.19, 0.2}},
	{"torus", "uniform", []struct{ load, latency float64 }{{0.05, 38.75}, {0.1, 40.84}, {0.15, 42.35}, {0.2, 45.22}, {0.25, 50.48}}, 0.3374, []float64{0.3, 0.325, 0.35, 0.375, 0.4}},
}

// scaled is the loads from lo to hi times bound in steps of 0.05 times
// bound, none above 1.
func scaled(bound, lo, hi float64) []float64 {
	var out []float64
	for i := 0; lo+0.05*float64(i) <= hi+1e-9; i++ {
		out = append(out, min(1, bound*(lo+0.05*float64(i))))
	}
	return out
}
