package main

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/study"
	prt "github.com/parasol-lang/parasol/runtime"
)

// loadPoint is an open-loop point with the figures a plot reads.
func loadPoint(load, offered, accepted, mean, p99 float64, saturated bool) *prt.LoadResult {
	r := &prt.LoadResult{Load: load, Offered: offered, Accepted: accepted, Saturated: saturated, Marked: 100, Result: &prt.Result{Op: "uniform", Messages: 100}}
	r.Latency.Mean, r.Latency.P99 = mean, p99
	if saturated {
		r.LatencyBound = "lower"
	}
	return r
}

// seriesNamed is the panel's series whose name starts with prefix.
func seriesNamed(p plotPanel, prefix string) []plotSeries {
	var out []plotSeries
	for _, s := range p.Series {
		if strings.HasPrefix(s.Name, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// Issue 26: sim --plot drew saturated points' lower-bound latencies as
// part of the curve, and a saturation line when nothing saturated.
func TestLoadPlotDrawsSaturatedPointsApart(t *testing.T) {
	pts := []*prt.LoadResult{
		loadPoint(0.1, 0.1, 0.1, 40e-9, 80e-9, false),
		loadPoint(0.2, 0.2, 0.2, 60e-9, 190e-9, false),
		loadPoint(0.3, 0.3, 0.25, 800e-9, 2.8e-6, true),
		loadPoint(0.4, 0.4, 0.24, 1.3e-6, 2.9e-6, true),
	}
	spec, err := loadPlotSpec(pts)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Panels[0]
	for _, name := range []string{"mean latency", "p99 latency"} {
		s := seriesNamed(p, name)
		if len(s) != 1 || s[0].Kind != seriesLines || len(s[0].X) != 2 || s[0].X[1] != 0.2 {
			t.Errorf("%s: %+v; want one line through the two unsaturated points", name, s)
		}
	}
	for _, name := range []string{"mean, saturated", "p99, saturated"} {
		s := seriesNamed(p, name)
		if len(s) != 1 || s[0].Kind != seriesPoints || !s[0].LowerBound || len(s[0].X) != 2 || s[0].X[0] != 0.3 {
			t.Errorf("%s: %+v; want the two saturated points, as lower bounds, not joined", name, s)
		}
	}
	if s := seriesNamed(p, "saturation throughput"); len(s) != 1 || s[0].X[0] != 0.25 {
		t.Errorf("saturation line %+v; want one at 0.25, the largest accepted", s)
	}

	spec, err = loadPlotSpec(pts[:2])
	if err != nil {
		t.Fatal(err)
	}
	if s := seriesNamed(spec.Panels[0], "saturation throughput"); len(s) != 0 || study.Saturated(pts[:2]) {
		t.Errorf("nothing saturated, yet a saturation line %+v", s)
	}
}

// Issue 26: sweep --plot dropped saturated points.
func TestSweepPlotKeepsSaturatedLoadPoints(t *testing.T) {
	var pts []plottedPoint
	for _, l := range []*prt.LoadResult{
		loadPoint(0.1, 0.1, 0.1, 40e-9, 80e-9, false),
		loadPoint(0.2, 0.2, 0.2, 60e-9, 190e-9, false),
		loadPoint(0.5, 0.5, 0.25, 1.4e-6, 2.9e-6, true),
	} {
		pts = append(pts, plottedPoint{p: study.Point{Size: 32, Load: &prt.Load{Fraction: l.Load}}, res: l.Result, load: l})
	}
	spec, err := sweepPlotSpec(pts, nil, false, false, false, true)
	if err != nil {
		t.Fatal(err)
	}
	var line, bound *plotSeries
	for i, s := range spec.Panels[0].Series {
		switch {
		case s.Kind == seriesLines:
			line = &spec.Panels[0].Series[i]
		case s.Kind == seriesPoints && s.LowerBound:
			bound = &spec.Panels[0].Series[i]
		}
	}
	if line == nil || len(line.X) != 2 {
		t.Errorf("line %+v; want the two unsaturated points", line)
	}
	if bound == nil || len(bound.X) != 1 || bound.X[0] != 0.5 || bound.Y[0] != 1.4 {
		t.Errorf("saturated %+v; want the point at load 0.5, 1.4 µs, a lower bound of its own", bound)
	}
}
