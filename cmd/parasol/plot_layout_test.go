package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// svgLayout is what an SVG plot shows where, in the drawing's coordinates
// (y up, as gonum draws): its texts, and its horizontal straight lines
// (an x axis, tick marks on y, legend thumbnails).
type svgLayout struct {
	texts  []svgText
	hLines []svgLine
}

type svgText struct {
	s    string
	x, y float64
}

type svgLine struct{ x0, x1, y float64 }

var svgNumber = regexp.MustCompile(`-?[0-9.]+(?:e-?[0-9]+)?`)

// parseSVGLayout reads the texts and the two-point horizontal paths of an
// SVG drawn by gonum's vgsvg, whose texts carry y negated.
func parseSVGLayout(t *testing.T, data []byte) svgLayout {
	t.Helper()
	var l svgLayout
	dec := xml.NewDecoder(bytes.NewReader(data))
	var cur *svgText
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return l
		}
		if err != nil {
			t.Fatalf("not well-formed SVG: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch tok.Name.Local {
			case "text":
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				cur = &svgText{x: x, y: -y}
			case "path":
				d := attr["d"]
				if strings.Count(d, "M") != 1 || strings.Count(d, "L") != 1 || strings.ContainsAny(d, "ZACQ") {
					continue
				}
				n := svgNumber.FindAllString(d, -1)
				if len(n) != 4 {
					continue
				}
				var v [4]float64
				for i := range n {
					v[i], _ = strconv.ParseFloat(n[i], 64)
				}
				if v[1] == v[3] && v[0] != v[2] {
					l.hLines = append(l.hLines, svgLine{min(v[0], v[2]), max(v[0], v[2]), v[1]})
				}
			}
		case xml.CharData:
			if cur != nil {
				cur.s += string(tok)
			}
		case xml.EndElement:
			if tok.Name.Local == "text" && cur != nil {
				cur.s = strings.TrimSpace(cur.s)
				l.texts = append(l.texts, *cur)
				cur = nil
			}
		}
	}
}

// xAxes are the plot's x axes: the horizontal lines longer than a third
// of the widest, each spanning its data area's width (tick marks and
// legend thumbnails are short).
func (l svgLayout) xAxes() []svgLine {
	widest := 0.0
	for _, h := range l.hLines {
		widest = max(widest, h.x1-h.x0)
	}
	var out []svgLine
	for _, h := range l.hLines {
		if h.x1-h.x0 > widest/3 {
			out = append(out, h)
		}
	}
	return out
}

func (l svgLayout) text(s string) (svgText, bool) {
	for _, t := range l.texts {
		if t.s == s {
			return t, true
		}
	}
	return svgText{}, false
}

// assertLegendOutside checks that each legend entry starts to the right of
// every data area: past the right end of each x axis.
func assertLegendOutside(t *testing.T, name string, data []byte, entries []string) {
	t.Helper()
	l := parseSVGLayout(t, data)
	axes := l.xAxes()
	if len(axes) == 0 {
		t.Fatalf("%s: no x axis found in the SVG", name)
	}
	right := 0.0
	for _, a := range axes {
		right = max(right, a.x1)
	}
	for _, e := range entries {
		tx, ok := l.text(e)
		if !ok {
			t.Errorf("%s: no legend entry %q", name, e)
			continue
		}
		if tx.x <= right {
			t.Errorf("%s: legend entry %q starts at x=%.1f, inside the data area, which ends at x=%.1f", name, e, tx.x, right)
		}
	}
}

// Issue 26: legends covered data on the load curve, sim's plots and
// run's timeline; they now take a column right of the data.
func TestPlotLegendsLieOutsideTheData(t *testing.T) {
	pts := []*runtime.LoadResult{
		loadPoint(0.1, 0.1, 0.1, 40e-9, 80e-9, false),
		loadPoint(0.2, 0.2, 0.2, 60e-9, 190e-9, false),
		loadPoint(0.3, 0.3, 0.25, 800e-9, 2.8e-6, true),
	}
	load, err := loadPlotSpec(pts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := renderPlot(&buf, load, "svg"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range load.Panels[0].Series {
		names = append(names, s.Name)
	}
	assertLegendOutside(t, "load curve", buf.Bytes(), names)

	file := filepath.Join(t.TempDir(), "sim.svg")
	simResult(t, file)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	assertLegendOutside(t, "sim", data, []string{"mean", "min–max"})

	tl, err := timelinePlotSpec(&runtime.ProgramResult{Method: "simulated", Makespan: 4e-6,
		Ranks: []runtime.RankTimes{{Rank: 0, End: 4e-6}},
		Timeline: []runtime.Span{
			{Rank: 0, Kind: "compute", Start: 0, End: 2e-6}, {Rank: 0, Kind: "send", Start: 2e-6, End: 3e-6},
			{Rank: 0, Kind: "recv", Start: 3e-6, End: 3.5e-6}, {Rank: 0, Kind: "wait", Start: 3.5e-6, End: 4e-6},
		}})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := renderTimeline(&buf, tl, "svg"); err != nil {
		t.Fatal(err)
	}
	assertLegendOutside(t, "timeline", buf.Bytes(), []string{"compute", "send", "recv", "wait"})
}

// Issue 26: count axes were labelled "250.00". A histogram's count axis
// is labelled with whole numbers only, large counts or small.
func TestCountAxisHasWholeNumberTicks(t *testing.T) {
	for _, top := range []float64{250, 3, 1} {
		spec := &plotSpec{Panels: []plotPanel{{XLabel: "latency (µs)", YLabel: "messages", YInteger: true,
			Series: []plotSeries{{Name: "messages", Kind: seriesBars, X: []float64{0.5, 0.75}, X2: []float64{0.75, 1}, Y: []float64{top, 1}}}}}}
		var buf bytes.Buffer
		if err := renderPlot(&buf, spec, "svg"); err != nil {
			t.Fatal(err)
		}
		l := parseSVGLayout(t, buf.Bytes())
		axes := l.xAxes()
		if len(axes) != 1 {
			t.Fatalf("top %g: %d x axes, want 1", top, len(axes))
		}
		// The y axis's labels are the texts left of the data area and
		// above the x axis, but the axis's title.
		var labels []float64
		for _, tx := range l.texts {
			if tx.x >= axes[0].x0 || tx.y <= axes[0].y || tx.s == "messages" {
				continue
			}
			v, err := strconv.ParseInt(tx.s, 10, 64)
			if err != nil {
				t.Errorf("top %g: count axis label %q is not a whole number", top, tx.s)
				continue
			}
			labels = append(labels, float64(v))
		}
		if len(labels) < 2 || slicesMax(labels) > top*1.05 || slicesMax(labels) < top/2 {
			t.Errorf("top %g: count labels %v; want at least two, the largest near %g", top, labels, top)
		}
	}
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// Issue 26: compare --plot drew a 12 µs cost on a 0.5–1.2 µs histogram's
// axis. The costs have a panel and an axis of their own, and the
// histogram's unit follows the latencies alone.
func TestComparePlotGivesTheCostsAnAxisOfTheirOwn(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cmp.svg")
	c := compareResult(t, file, "std:xmp64", "MPI.allreduce", "--size", "64", "--runs", "2")
	if c.Analytic < 4*c.Result.Latency.Max {
		t.Fatalf("analytic %g s against a largest latency of %g s: the test needs a cost well above the latencies", c.Analytic, c.Result.Latency.Max)
	}
	spec, err := comparePlotSpec(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Panels) != 3 {
		t.Fatalf("%d panels, want the histogram, latency by hops and the costs", len(spec.Panels))
	}
	hist, costs := spec.Panels[0], spec.Panels[2]
	histUnit, histScale := timeScale(c.Result.Latency.Max)
	if hist.XLabel != "latency ("+histUnit+")" {
		t.Errorf("histogram x axis %q, want latency in %s", hist.XLabel, histUnit)
	}
	for _, s := range hist.Series {
		if s.Kind != seriesBars {
			t.Errorf("histogram has a %q series beside its bars", s.Name)
		}
		for _, x := range s.X2 {
			if x*histScale > c.Result.Latency.Max*1.0001 {
				t.Errorf("histogram bin ends at %g %s, past the largest latency %g s", x, histUnit, c.Result.Latency.Max)
			}
		}
	}
	unit, scale := timeScale(max(c.Analytic, c.Simulated))
	if costs.YLabel != "MPI.allreduce ("+unit+")" || len(costs.Series) != 1 {
		t.Fatalf("cost panel %+v", costs)
	}
	s := costs.Series[0]
	want := map[string]float64{"analytic MPI.allreduce": c.Analytic, "simulated makespan": c.Simulated}
	if s.Kind != seriesCategories || len(s.Labels) != 2 {
		t.Fatalf("costs %+v, want the analytic and simulated bars", s)
	}
	for i, lab := range s.Labels {
		if w, ok := want[lab]; !ok || math.Abs(s.Y[i]*scale-w) > 1e-9*w {
			t.Errorf("bar %q = %g %s, want %g s", lab, s.Y[i], unit, w)
		}
	}
	texts := svgTexts(t, file)
	for lab := range want {
		if !texts[lab] {
			t.Errorf("the SVG has no label %q", lab)
		}
	}
}

// Issue 26: PNGs were 576×336 pixels; they are at least 1200 wide.
func TestPNGPlotsAreAtLeast1200PixelsWide(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sim.png")
	simResult(t, file)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width < 1200 {
		t.Errorf("PNG is %d×%d, want 1200 pixels wide or more", cfg.Width, cfg.Height)
	}
}
