package validation

import (
	"fmt"
	"math"
	"testing"
)

// bookSimDragonfly are BookSim 2's figures for std:booksim's dragonfly
// (dragonflynew, k = 2: 72 terminals; 3 VCs of 256 flits, 8-flit
// packets, injection_rate_uses_flits = 1, sim_type = latency), measured
// once with the config in docs/VALIDATION.md: the mean packet latency in
// cycles at loads up to 80% of saturation, and the saturation: the last
// load of the grid BookSim ran stably and the flits it accepted there.
// BookSim's ugal is UGAL-L (Parasol's ugal-l); bad_dragon is
// dragonfly-adversarial. UGAL-L's adversarial curve runs at 300 to 600
// cycles, so BookSim's default latency_thres = 500 ended its run at 0.22
// as unstable although it holds: with latency_thres=1000000.0 it accepts
// 0.216667 (its Overall figure) and the latency of each sample period
// stays near 600 cycles, where 0.25 accepts 0.231 and its latency grows
// period by period (0.2 accepted 0.19847 by default). The other curves'
// loads past their saturation stay unstable with the threshold lifted.
var bookSimDragonfly = []struct {
	routing, bsRouting, op string
	points                 []struct{ load, latency float64 }
	satLoad, satAccepted   float64
	grid                   []float64 // loads run to find the saturation
}{
	{"min", "min", "uniform", []struct{ load, latency float64 }{{0.05, 126.025}, {0.1, 128.328}, {0.2, 133.073}, {0.3, 138.11}, {0.4, 151.752}}, 0.55, 0.543878, []float64{0.5, 0.55, 0.6, 0.7}},
	{"ugal-l", "ugal", "uniform", []struct{ load, latency float64 }{{0.05, 125.915}, {0.1, 130.979}, {0.2, 142.184}, {0.3, 156.047}, {0.4, 182.376}}, 0.5, 0.489269, []float64{0.45, 0.5, 0.6, 0.7}},
	{"min", "min", "dragonfly-adversarial", []struct{ load, latency float64 }{{0.05, 142.97}}, 0.1, 0.0962778, []float64{0.1, 0.11, 0.12, 0.2}},
	{"ugal-l", "ugal", "dragonfly-adversarial", []struct{ load, latency float64 }{{0.05, 168.957}, {0.1, 183.505}}, 0.22, 0.216667, []float64{0.2, 0.22, 0.25, 0.3}},
}

// dragonflyBookSim sets std:booksim's dragonfly, min and UGAL-L under
// uniform and adversarial traffic, beside BookSim 2's dragonflynew.
func dragonflyBookSim(t *testing.T) section {
	s := section{
		Title: "Dragonfly beside BookSim 2: min and UGAL-L under uniform and adversarial traffic",
		Intro: "std:booksim's dragonfly (BookSim's dragonflynew with k = 2: 72 terminals, 36 routers in 9 groups; " +
			"3 VCs of 256 flits; channels of 10 cycles inside a group, 100 between; the router of std:booksim-mesh, " +
			"credits included) " +
			"beside BookSim 2 with the same configuration: `topology = dragonflynew; k = 2; num_vcs = 3; " +
			"vc_buf_size = 256; routing_delay = vc_alloc_delay = sw_alloc_delay = st_final_delay = credit_delay = 1; " +
			"internal_speedup = 1.0; packet_size = 8; injection_rate_uses_flits = 1; sim_type = latency`, " +
			"`routing_function = min` or `ugal`, `traffic = uniform` or `bad_dragon` (Parasol's ugal-l and " +
			"dragonfly-adversarial), run once per load with `booksim CONFIG injection_rate=L`. The **seed** column is " +
			"BookSim's figure: the mean packet latency in cycles at loads up to 80% of its saturation, and at " +
			"saturation the flits accepted at the last load of the grid it ran stably (UGAL-L's adversarial 0.22 with " +
			"`latency_thres=1000000.0`: the default 500 cycles ended that run although its rate and latency held, near 600 cycles; " +
			"0.25 does not hold) (Parasol's: the last load " +
			"not saturated, accepted within 5% of offered). The well-known shape holds in both: under the " +
			"adversarial pattern minimal routing saturates near 1/8 (a group's 8 terminals share the one global " +
			"link to the next group), five times below its uniform throughput, while BookSim's UGAL-L and Parasol's " +
			"Valiant and UGAL-G carry at least twice that. Parasol's `ugal-l` decides as BookSim's ugal_dragonflynew " +
			"does: at the source router, a random intermediate router anywhere (one in the source's group: minimal), " +
			"taken only if the used credits of the minimal output exceed twice those toward it plus 30 flits " +
			"(adaptive_threshold), the used credits being the flits sent on that channel whose credits have not come " +
			"back; each routing phase on its own VC, as BookSim's (0 toward the intermediate, 1 minimally up to the " +
			"global link, 2 from it on; min 0 and 1). Under the adversarial pattern the group's minimal packets come " +
			"in on one VC of the global link, whose " +
			"buffer at the far end is served in order (8 flits in 10 cycles: minimal's saturation near 0.1), and a VC " +
			"sends only while it holds credits (256 flits less those on the wire, in the buffer or on their way back: " +
			"a blocked packet's flits wait in the buffer ahead, the VC free for the next once its tail is sent), " +
			"so the queue behind the global link backs up into the group's routers, whose used credits UGAL-L reads " +
			"(docs/RUNTIME.md, credit_delay). So the shape holds in Parasol too: its UGAL-L carries at least twice " +
			"what its minimal routing does (asserted).",
	}
	sat := map[string]float64{} // Parasol's, by routing and op
	for _, c := range bookSimDragonfly {
		var loads []float64
		for _, p := range c.points {
			loads = append(loads, p.load)
		}
		pts := switchedCurve(t, "dragonfly", nil, c.routing, c.op, []uint64{1}, append(loads, c.grid...))
		cmd := fmt.Sprintf("sim std:booksim --topology dragonfly --routing %s --op %s --size 32 --load L --seed 1", c.routing, c.op)
		for i, p := range c.points {
			s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("dragonfly k=2, %s, %s, load %g: mean latency", c.routing, c.op, p.load),
				Seed: num(p.latency), SeedVal: p.latency, Value: pts[i].Latency.Mean / pts[i].Cycle, Unit: "cycles", Tol: 0.10, Cmd: cmd}))
		}
		load, acc := saturationLoad(pts)
		r := row{Quantity: fmt.Sprintf("dragonfly k=2, %s, %s: saturation throughput (Parasol's last stable load %g, BookSim's %g)", c.routing, c.op, load, c.satLoad),
			Seed: num(c.satAccepted), SeedVal: c.satAccepted, Value: acc, Tol: 0.10, Cmd: cmd}
		s.Rows = append(s.Rows, check(t, r))
		sat[c.routing+" "+c.op] = acc
	}
	// The well-known shape: minimal routing saturates under the
	// adversarial pattern far below its uniform throughput (a group's
	// traffic on one global link), and the nonminimal routings carry at
	// least twice it: BookSim's UGAL-L and Parasol's; Parasol's Valiant
	// and UGAL-G run stably at 2.25 times minimal's saturation.
	bsMinU, bsMinAdv, bsUgal := bookSimDragonfly[0].satAccepted, bookSimDragonfly[2].satAccepted, bookSimDragonfly[3].satAccepted
	minU, minAdv := sat["min uniform"], sat["min dragonfly-adversarial"]
	if !(bsMinAdv < bsMinU/3 && bsUgal >= 2*bsMinAdv) {
		t.Errorf("BookSim: min saturates at %.3g adversarial, %.3g uniform; UGAL-L at %.3g: want min far below uniform and UGAL-L at least twice min", bsMinAdv, bsMinU, bsUgal)
	}
	if ugal := sat["ugal-l dragonfly-adversarial"]; !(minAdv < minU/3 && ugal >= 2*minAdv) {
		t.Errorf("Parasol: min saturates at %.3g adversarial, %.3g uniform; UGAL-L at %.3g: want min far below uniform and UGAL-L at least twice min", minAdv, minU, ugal)
	}
	cmd := "sim std:booksim --topology dragonfly --routing R --op dragonfly-adversarial --size 32 --load L --seed 1"
	s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("dragonfly k=2, adversarial: UGAL-L's saturation throughput over min's (BookSim; min's uniform over adversarial %.2f)", bsMinU/bsMinAdv),
		Seed: "≥ 2", SeedVal: math.NaN(), Value: bsUgal / bsMinAdv, Note: "asserted: ≥ 2, and min's uniform over adversarial ≥ 3", Cmd: "BookSim's figures"}))
	s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("dragonfly k=2, adversarial: UGAL-L's saturation throughput over min's (Parasol; min's uniform over adversarial %.2f)", minU/minAdv),
		Seed: num(bsUgal / bsMinAdv), SeedVal: math.NaN(), Value: sat["ugal-l dragonfly-adversarial"] / minAdv, Note: "asserted: ≥ 2, and min's uniform over adversarial ≥ 3", Cmd: cmd}))
	for _, r := range []string{"valiant", "ugal-g"} {
		f := 2.25 * minAdv
		pts := switchedCurve(t, "dragonfly", nil, r, advOp, []uint64{1}, []float64{f})
		ok := !pts[0].Saturated && pts[0].Accepted >= 2*minAdv
		if !ok {
			t.Errorf("Parasol: %s at offered %.3g (2.25× min's adversarial saturation) accepts %.3g, saturated %v: want stable, at least twice min's %.3g", r, f, pts[0].Accepted, pts[0].Saturated, minAdv)
		}
		s.Rows = append(s.Rows, check(t, row{Quantity: fmt.Sprintf("dragonfly k=2, adversarial: %s's accepted load at 2.25× min's saturation, over min's (Parasol)", r),
			Seed: "≥ 2", SeedVal: math.NaN(), Value: pts[0].Accepted / minAdv, Note: "asserted: ≥ 2, not saturated", Cmd: cmd}))
	}
	return s
}

// advOp is the adversarial dragonfly operation (BookSim's bad_dragon).
const advOp = "dragonfly-adversarial"
