package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/lang"
	prt "github.com/parasol-lang/parasol/runtime"
)

// plottedPoint is what a sweep's plot needs of a point.
type plottedPoint struct {
	p    study.Point
	res  *prt.Result
	cmp  *eval.Comparison
	run  *program.RunResult // a --run point's answers
	load *prt.LoadResult    // a --load point's
	// measured is the time sweep --measured gives for the point's size.
	measured    float64
	hasMeasured bool
}

// sweepAxis is one way the points of a sweep differ.
type sweepAxis struct {
	name  string
	label func(p study.Point) string
	x     func(p study.Point) (float64, bool) // numeric value, if it has one
	unit  string
	log   bool
}

// sweepPlotSpec draws a study: the last axis with more than one numeric
// value along x (size, else a --set whose values are numbers or
// quantities), the figure along y, one line per combination of the other
// axes that vary; with --compare the analytic line dashed beside the
// simulated one. Points that deadlocked or stopped early have no figure
// and are left out; saturated load points, whose latency is a lower bound,
// are markers of their own beside their line.
func sweepPlotSpec(pts []plottedPoint, sets setSweep, routings, switchings, sizes, loads bool) (*plotSpec, error) {
	if len(pts) == 0 {
		return nil, fmt.Errorf("no points to draw")
	}
	var axes []sweepAxis
	for a, ax := range sets {
		if len(ax.Values) < 2 {
			continue
		}
		a := a
		axis := sweepAxis{name: ax.Path, label: func(p study.Point) string { return ax.Path + "=" + p.Sets[a].Value }}
		numeric, dim, largest := true, lang.Dim{}, 0.0
		for i, v := range ax.Values {
			q, err := lang.ParseQuantity(v)
			if err != nil || q.Kind != lang.Number || i > 0 && q.Dim != dim {
				numeric = false
				break
			}
			dim, largest = q.Dim, max(largest, math.Abs(q.Num))
		}
		if numeric {
			// Times read in the unit that suits them (ns, µs), as the
			// figures along y do.
			scale := 1.0
			axis.unit = dim.Unit()
			if dim == lang.TimeDim {
				axis.unit, scale = timeScale(largest)
			}
			axis.x = func(p study.Point) (float64, bool) {
				q, err := lang.ParseQuantity(p.Sets[a].Value)
				return q.Num / scale, err == nil
			}
		}
		axes = append(axes, axis)
	}
	if routings {
		axes = append(axes, sweepAxis{name: "routing", label: func(p study.Point) string { return "routing " + p.Routing }})
	}
	if switchings {
		axes = append(axes, sweepAxis{name: "switching", label: func(p study.Point) string { return "switching " + p.Switching }})
	}
	if sizes {
		axes = append(axes, sweepAxis{name: "message size", unit: "B", log: true,
			label: func(p study.Point) string { return "size " + fit.SizeLiteral(p.Size) },
			x:     func(p study.Point) (float64, bool) { return float64(p.Size), p.Size > 0 }})
	}
	if loads {
		axes = append(axes, sweepAxis{name: "offered load", unit: "share of injection bandwidth",
			label: func(p study.Point) string { return "load " + loadText(p.Load.Fraction) },
			x: func(p study.Point) (float64, bool) {
				return p.Load.Fraction, p.Load.Fraction > 0
			}})
	}
	xi := -1
	for i := len(axes) - 1; i >= 0; i-- {
		if axes[i].x != nil {
			xi = i
			break
		}
	}
	if xi < 0 {
		return nil, fmt.Errorf("nothing to draw along x: sweep a size or a --set with numeric values")
	}
	xa := axes[xi]

	// The figure: a program's makespans, the compared cost, else latency
	// where every point has one, else makespan. A point has a simulated
	// figure unless it deadlocked or stopped early, and an analytic one
	// with --compare and --run.
	figure, ylabel := func(r plottedPoint) sweepFigure { return simFigure(r.res, r.res.Makespan) }, "makespan"
	both := pts[0].cmp != nil || pts[0].run != nil
	switch {
	case pts[0].load != nil:
		// A saturated point has no steady latency: its latency, a lower
		// bound, is a marker of its own, never joined to the line.
		figure = func(r plottedPoint) sweepFigure {
			return sweepFigure{sim: r.load.Latency.Mean, simOK: r.load.Marked > 0, bound: r.load.Saturated}
		}
		ylabel = "mean latency"
	case pts[0].run != nil:
		figure = func(r plottedPoint) sweepFigure {
			f := sweepFigure{}
			if a := r.run.Analytic; a != nil && a.Deadlock == nil && !a.Partial {
				f.ana, f.anaOK = a.Makespan, true
			}
			if s := r.run.Simulated; s != nil && s.Deadlock == nil && !s.Partial {
				f.sim, f.simOK = s.Makespan, true
			}
			return f
		}
		ylabel = "makespan"
	case pts[0].cmp != nil:
		figure = func(r plottedPoint) sweepFigure {
			f := simFigure(r.res, r.cmp.Simulated)
			f.ana, f.anaOK = r.cmp.Analytic, true
			return f
		}
		ylabel = pts[0].cmp.Primitive
	case allHaveMessages(pts):
		figure, ylabel = func(r plottedPoint) sweepFigure { return simFigure(r.res, r.res.Latency.Mean) }, "mean latency"
	}
	largest := 0.0
	for _, r := range pts {
		f := figure(r)
		largest = max(largest, f.sim, f.ana)
		if r.hasMeasured {
			largest = max(largest, r.measured)
		}
	}
	unit, scale := timeScale(largest)

	type line struct{ sim, ana, bound plotSeries }
	var order []string
	lines := map[string]*line{}
	for _, r := range pts {
		x, ok := xa.x(r.p)
		if !ok || xa.log && x <= 0 {
			continue
		}
		var key []string
		for i, ax := range axes {
			if i != xi {
				key = append(key, ax.label(r.p))
			}
		}
		k := strings.Join(key, ", ")
		l := lines[k]
		if l == nil {
			l = &line{}
			n := len(order)
			l.sim = plotSeries{Name: seriesName("simulated", k, both), Kind: seriesLines, Color: n}
			l.ana = plotSeries{Name: seriesName("analytic", k, true), Kind: seriesLines, Color: n, Dashed: true}
			l.bound = plotSeries{Name: seriesName("saturated (a lower bound)", k, true), Kind: seriesPoints, Color: n, LowerBound: true}
			lines[k] = l
			order = append(order, k)
		}
		f := figure(r)
		if f.anaOK {
			l.ana.X, l.ana.Y = append(l.ana.X, x), append(l.ana.Y, f.ana/scale)
		}
		switch {
		case f.simOK && f.bound:
			l.bound.X, l.bound.Y = append(l.bound.X, x), append(l.bound.Y, f.sim/scale)
		case f.simOK:
			l.sim.X, l.sim.Y = append(l.sim.X, x), append(l.sim.Y, f.sim/scale)
		}
	}
	panel := plotPanel{Title: "sweep: " + ylabel + " against " + xa.name, XLabel: xa.name, YLabel: ylabel + " (" + unit + ")", XLog: xa.log}
	if xa.unit != "" {
		panel.XLabel += " (" + xa.unit + ")"
	}
	for _, k := range order {
		l := lines[k]
		if len(l.ana.X) > 0 {
			panel.Series = append(panel.Series, l.ana)
		}
		if len(l.sim.X) > 0 {
			panel.Series = append(panel.Series, l.sim)
		}
		if len(l.bound.X) > 0 {
			panel.Series = append(panel.Series, l.bound)
		}
	}
	// Measurements are by size alone: one series of points, drawn when
	// size is along x.
	measured := plotSeries{Name: "measured", Kind: seriesPoints}
	seen := map[float64]bool{}
	for _, r := range pts {
		if x, ok := xa.x(r.p); ok && r.hasMeasured && xa.name == "message size" && !seen[x] {
			seen[x] = true
			measured.X, measured.Y = append(measured.X, x), append(measured.Y, r.measured/scale)
		}
	}
	if len(measured.X) > 0 {
		panel.Series = append(panel.Series, measured)
	}
	if len(panel.Series) == 0 {
		return nil, fmt.Errorf("no point has a figure to draw")
	}
	return &plotSpec{Panels: []plotPanel{panel}}, nil
}

// sweepFigure is what a point plots: its simulated and analytic figures,
// each only if it has one; bound when the simulated one is only a lower
// bound (a saturated load point), drawn as a marker of its own.
type sweepFigure struct {
	sim, ana     float64
	simOK, anaOK bool
	bound        bool
}

// simFigure is a simulation's figure v, unless it deadlocked or stopped
// early.
func simFigure(r *prt.Result, v float64) sweepFigure {
	return sweepFigure{sim: v, simOK: !r.Deadlock && !r.Partial}
}

func allHaveMessages(pts []plottedPoint) bool {
	for _, r := range pts {
		if r.res.Messages == 0 {
			return false
		}
	}
	return true
}

// seriesName names a line by what it is (when analytic and simulated lines
// share the plot) and by its combination of the other axes.
func seriesName(what, key string, both bool) string {
	switch {
	case both && key != "":
		return what + ", " + key
	case both:
		return what
	case key != "":
		return key
	}
	return what
}
