package validation

import (
	"fmt"
	"math"
	"testing"
)

// dragonflyPAR sets progressive adaptive routing (par) on std:booksim's
// 72-terminal dragonfly against the shape Jiang, Kim and Dally report
// (ISCA 2009): under the adversarial pattern PAR carries at least what
// UGAL-L does and at least twice minimal routing's load; under uniform
// traffic it stays near minimal's. BookSim 2 has no PAR to compare with.
func dragonflyPAR(t *testing.T) section {
	s := section{
		Title: "Progressive adaptive routing (PAR) on the dragonfly: the shape",
		Intro: "BookSim 2 has no PAR (its dragonflynew routes `min_dragonflynew` and `ugal_dragonflynew` only), so " +
			"Parasol's `par` is held to the shape Jiang, Kim and Dally report for it (\"Indirect adaptive routing on " +
			"large scale interconnection networks\", ISCA 2009): under the adversarial pattern it carries at least " +
			"what UGAL-L does (here: within 5%) and more than twice minimal routing's saturation throughput, and under " +
			"uniform traffic it stays near minimal's (here: within 10%). The machine is std:booksim's dragonfly " +
			"(k = 2: 72 terminals, 9 groups); PAR needs 4 VCs (`--set 'topology(dragonfly).vcs=4'`), min and UGAL-L " +
			"run on std:booksim's own 3 (BookSim's configuration); given 4 VCs too, min's second class has two lanes " +
			"and UGAL-L goes on to the intermediate router as BookSim's does, that hop in a class of its own, shown in the last row (min's uniform throughput then passes 0.7; not compared). A saturation throughput is the load accepted at the " +
			"last load of a grid of steps of 0.025 that does not saturate (seed 1). The **seed** column is the " +
			"bound the shape sets on the ratio; nothing here is compared with PAR's own earlier output.",
	}
	par := []string{"topology(dragonfly).vcs=4"}
	grid := func(lo, hi float64) []float64 {
		var ls []float64
		for i := 0; lo+0.025*float64(i) <= hi+1e-9; i++ {
			ls = append(ls, math.Round((lo+0.025*float64(i))*1000)/1000)
		}
		return ls
	}
	sat := func(sets []string, routing, op string, lo, hi float64) float64 {
		pts := switchedCurve(t, "dragonfly", sets, routing, op, []uint64{1}, grid(lo, hi))
		load, acc := saturationLoad(pts)
		if load == 0 || load >= hi-1e-9 {
			t.Fatalf("%s %s %v: the grid %g..%g does not bracket the saturation (last stable load %g)", routing, op, sets, lo, hi, load)
		}
		return acc
	}
	parAdv := sat(par, "par", advOp, 0.15, 0.5)
	ugalAdv := sat(nil, "ugal-l", advOp, 0.1, 0.3)
	minAdv := sat(nil, "min", advOp, 0.05, 0.2)
	parU := sat(par, "par", "uniform", 0.4, 0.7)
	minU := sat(nil, "min", "uniform", 0.45, 0.75)
	cmd := func(sets []string, op string) string {
		c := "sim std:booksim --topology dragonfly --routing R --op " + op + " --size 32 --load L --seed 1"
		if sets != nil {
			c += " --set '" + sets[0] + "'"
		}
		return c
	}
	adv := cmd(par, advOp) + " (R = par); " + cmd(nil, advOp) + " (R = ugal-l, min)"
	uni := cmd(par, "uniform") + " (R = par); " + cmd(nil, "uniform") + " (R = min)"
	s.Rows = append(s.Rows,
		shape(t, fmt.Sprintf("adversarial: PAR's saturation throughput (%.3g) over UGAL-L's (%.3g)", parAdv, ugalAdv), parAdv/ugalAdv, 0.95, math.Inf(1), adv),
		shape(t, fmt.Sprintf("adversarial: PAR's saturation throughput (%.3g) over min's (%.3g)", parAdv, minAdv), parAdv/minAdv, 2, math.Inf(1), adv),
		shape(t, fmt.Sprintf("uniform: PAR's saturation throughput (%.3g) over min's (%.3g)", parU, minU), parU/minU, 0.9, 1.1, uni))
	ugal4 := sat(par, "ugal-l", advOp, 0.1, 0.3)
	min4 := sat(par, "min", advOp, 0.05, 0.2)
	s.Rows = append(s.Rows,
		check(t, row{Quantity: fmt.Sprintf("dragonfly k=2, adversarial, all with 4 VCs: PAR's saturation throughput over UGAL-L's (%.3g) and min's (%.3g): over UGAL-L's", ugal4, min4),
			Seed: "≥ 0.95", SeedVal: math.NaN(), Value: parAdv / ugal4, Note: fmt.Sprintf("shown; over min's %.2f", parAdv/min4), Cmd: cmd(par, advOp)}))
	return s
}

// shape is a row holding a ratio between lo and hi (an open side
// infinite), the bound the well-known shape sets.
func shape(t *testing.T, what string, v, lo, hi float64, cmd string) row {
	t.Helper()
	bound := fmt.Sprintf("≥ %g", lo)
	if !math.IsInf(hi, 1) {
		bound = fmt.Sprintf("%g–%g", lo, hi)
	}
	if v < lo || v > hi {
		t.Errorf("%s: %.3f, want %s", what, v, bound)
	}
	return check(t, row{Quantity: "dragonfly k=2, " + what, Seed: bound, SeedVal: math.NaN(), Value: v, Note: "asserted: " + bound, Cmd: cmd})
}
