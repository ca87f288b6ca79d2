package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/study"
)

// A compare sweep over a --set and sizes is drawn as one analytic and one
// simulated line per --set value, a point per size; the analytic figures
// are the model's own (seed 004 §3.3.1: the barrier is 2 h_in + 4 h_off).
func TestSweepCompareDrawsAnalyticAndSimulatedLines(t *testing.T) {
	file := filepath.Join(t.TempDir(), "study.svg")
	hOff := []float64{200e-9, 300e-9}
	out := runInProcess(t, "sweep", "std:xmp64", "--compare", "MPI.barrier", "--set", "h_off=200ns,300ns",
		"--size", "1,2,4", "--json", "--plot", file)

	type line struct {
		Point     int     `json:"point"`
		Analytic  float64 `json:"analytic"`
		Simulated float64 `json:"simulated"`
		Run       struct {
			Sets []string `json:"sets"`
		} `json:"run"`
	}
	var lines []line
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 6 {
		t.Fatalf("%d JSON lines, want 6 (2 h_off × 3 sizes)", len(lines))
	}
	for i, l := range lines {
		want := 2*70e-9 + 4*hOff[i/3]
		if math.Abs(l.Analytic-want) > 1e-12*want {
			t.Errorf("point %d (%v): analytic %g s, want 2 h_in + 4 h_off = %g s", i, l.Run.Sets, l.Analytic, want)
		}
	}

	spec, err := sweepPlotSpec([]plottedPoint{}, nil, false, false, false, false)
	if err == nil || spec != nil {
		t.Errorf("an empty sweep drew a plot")
	}
	texts := svgTexts(t, file)
	for _, name := range []string{"analytic, h_off=200ns", "simulated, h_off=200ns", "analytic, h_off=300ns", "simulated, h_off=300ns", "message size (B)", "MPI.barrier (µs)"} {
		if !texts[name] {
			t.Errorf("the SVG has no text %q", name)
		}
	}
}

func TestSweepPlotSeriesAndPoints(t *testing.T) {
	pts := func(args ...string) []plottedPoint {
		out := runInProcess(t, append([]string{"sweep", "std:xmp64", "--json"}, args...)...)
		var res []plottedPoint
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var j results.SweepSim
			if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
				t.Fatal(err)
			}
			res = append(res, plottedPoint{p: study.Point{Index: j.Point, Size: int64(*j.Run.Size), Routing: j.Run.Routing, Switching: j.Run.Switching}, res: j.Result})
		}
		return res
	}
	// Sizes along x, one line per routing.
	spec, err := sweepPlotSpec(pts("--op", "randperm", "--size", "32,64,128,256", "--routing", "ecube,random"), nil, true, false, true, false)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Panels[0]
	if !p.XLog || p.XLabel != "message size (B)" || !strings.HasPrefix(p.YLabel, "mean latency (") {
		t.Errorf("axes %q (log %v), %q", p.XLabel, p.XLog, p.YLabel)
	}
	if len(p.Series) != 2 {
		t.Fatalf("%d series, want one per routing", len(p.Series))
	}
	for i, want := range []string{"routing ecube", "routing random"} {
		if s := p.Series[i]; s.Name != want || s.Points() != 4 || s.Kind != seriesLines {
			t.Errorf("series %d: %q with %d points, want %q with 4", i, s.Name, s.Points(), want)
		}
	}
	// Nothing numeric swept: no x axis, and the error says what to sweep.
	if _, err := sweepPlotSpec(pts("--op", "randperm", "--routing", "ecube,random"), nil, true, false, false, false); err == nil || !strings.Contains(err.Error(), "sweep a size") {
		t.Errorf("a sweep of routings alone: %v", err)
	}
}

// An open-loop point of a sweep is sim --load with the point's seed.
func TestSweepLoadPointIsSimLoadWithItsSeed(t *testing.T) {
	out := runInProcess(t, "sweep", "std:booksim-mesh", "--op", "uniform", "--size", "32", "--load", "0.05,0.1", "--set", "k=4,6", "--json")
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	var point struct {
		Point    int     `json:"point"`
		Accepted float64 `json:"accepted"`
		Latency  struct{ Mean float64 }
		Events   int64 `json:"events"`
		Run      struct{ Seed uint64 }
	}
	if err := json.Unmarshal(lines[3], &point); err != nil || point.Point != 3 {
		t.Fatalf("point 3: %v in %s", err, lines[3])
	}
	alone := point
	seed := strconv.FormatUint(point.Run.Seed, 10)
	if err := json.Unmarshal(runInProcess(t, "sim", "std:booksim-mesh", "--op", "uniform", "--size", "32", "--load", "0.1", "--set", "k=6", "--seed", seed, "--json"), &alone); err != nil {
		t.Fatal(err)
	}
	if alone.Accepted != point.Accepted || alone.Latency != point.Latency || alone.Events != point.Events || alone.Events == 0 {
		t.Errorf("sim --load --seed %s: accepted %g, latency %g, %d events; the sweep's point: %g, %g, %d",
			seed, alone.Accepted, alone.Latency.Mean, alone.Events, point.Accepted, point.Latency.Mean, point.Events)
	}
}
