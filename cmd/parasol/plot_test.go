package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

// simResult runs sim in process with --json and the given --plot file and
// returns the result it printed.
func simResult(t *testing.T, plotFile string) *runtime.Result {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := run(e, []string{"sim", "std:xmp64", "--op", "randperm", "--runs", "2", "--json", "--plot", plotFile}); code != 0 {
		t.Fatalf("exit status %d: %s", code, errOut.String())
	}
	var r runtime.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("sim --json: %v", err)
	}
	return &r
}

func TestSimPlotShowsEveryHistogramBinAndHopCount(t *testing.T) {
	dir := t.TempDir()
	svgFile, pngFile := filepath.Join(dir, "lat.svg"), filepath.Join(dir, "lat.png")
	r := simResult(t, svgFile)
	simResult(t, pngFile)
	if len(r.Histogram.Counts) == 0 || len(r.ByHops) < 2 {
		t.Fatalf("randperm on xmp64 gave %d bins and %d hop counts; the test needs both", len(r.Histogram.Counts), len(r.ByHops))
	}

	spec, err := simPlotSpec(r)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		xLabel, yLabel string
		points         []int // per series
	}
	wants := []want{
		{"latency (µs)", "messages", []int{len(r.Histogram.Counts)}},
		{"hops", "latency (µs)", []int{len(r.ByHops), len(r.ByHops)}},
	}
	if len(spec.Panels) != len(wants) {
		t.Fatalf("%d panels, want %d", len(spec.Panels), len(wants))
	}
	for i, w := range wants {
		p := spec.Panels[i]
		if p.XLabel != w.xLabel || p.YLabel != w.yLabel {
			t.Errorf("panel %d: axes %q, %q; want %q, %q", i, p.XLabel, p.YLabel, w.xLabel, w.yLabel)
		}
		if len(p.Series) != len(w.points) {
			t.Errorf("panel %d: %d series, want %d", i, len(p.Series), len(w.points))
			continue
		}
		for j, s := range p.Series {
			if s.Points() != w.points[j] {
				t.Errorf("panel %d series %q: %d points, want %d", i, s.Name, s.Points(), w.points[j])
			}
		}
	}

	svgData, err := os.ReadFile(svgFile)
	if err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, svgFile)
	for _, label := range []string{"latency (µs)", "messages", "hops", "mean", "min–max"} {
		if !texts[label] {
			t.Errorf("the SVG has no text %q", label)
		}
	}
	var again bytes.Buffer
	if err := renderPlot(&again, spec, "svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), svgData) {
		t.Error("drawing the same result twice gave different SVG bytes")
	}

	f, err := os.Open(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", pngFile, err)
	}
	// The legends' column widens the panel's width.
	minW, wantH := int(plotPanelWidth/vg.Inch*plotDPI), int(plotPanelHeight/vg.Inch*plotDPI)*len(spec.Panels)
	if b := img.Bounds(); b.Dx() <= minW || b.Dy() != wantH {
		t.Errorf("PNG is %d×%d, want more than %d wide and %d high", b.Dx(), b.Dy(), minW, wantH)
	}
}

func TestPlotTimeUnitFollowsTheLargestTime(t *testing.T) {
	tests := []struct {
		largest float64
		unit    string
		scale   float64
	}{
		{0, "ps", 1e-12},
		{850e-12, "ps", 1e-12},
		{999e-9, "ns", 1e-9},
		{1e-6, "µs", 1e-6},
		{2.993e-6, "µs", 1e-6},
		{40e-3, "ms", 1e-3},
		{12, "s", 1},
	}
	for _, tt := range tests {
		unit, scale := timeScale(tt.largest)
		if unit != tt.unit || scale != tt.scale {
			t.Errorf("timeScale(%g) = %s, %g; want %s, %g", tt.largest, unit, scale, tt.unit, tt.scale)
		}
	}
}

func TestSimPlotRefusesAResultWithoutMessages(t *testing.T) {
	if _, err := simPlotSpec(&runtime.Result{Op: "send"}); err == nil || !strings.Contains(err.Error(), "no message was delivered") {
		t.Errorf("error %v, want one saying no message was delivered", err)
	}
}

// compareResult runs compare in process with --json and --plot and returns
// the comparison it printed.
func compareResult(t *testing.T, plotFile string, args ...string) *eval.Comparison {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := run(e, append([]string{"compare", "--json", "--plot", plotFile}, args...)); code != 0 {
		t.Fatalf("exit status %d: %s", code, errOut.String())
	}
	var c struct {
		eval.Comparison
		Simulated, Difference *float64
	}
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		t.Fatalf("compare --json: %v", err)
	}
	if c.Simulated != nil {
		c.Comparison.Simulated = *c.Simulated
	}
	return &c.Comparison
}

func TestComparePlotShowsTheAnalyticAndSimulatedCosts(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		marks []string // the cost bars' labels, in order
	}{
		{"finished", []string{"std:xmp64", "MPI.allreduce", "--size", "64", "--runs", "2"},
			[]string{"analytic MPI.allreduce", "simulated makespan"}},
		{"stopped early", []string{"std:xmp64", "MPI.allreduce", "--size", "64", "--max-events", "300"},
			[]string{"analytic MPI.allreduce"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "cmp.svg")
			c := compareResult(t, file, tt.args...)
			spec, err := comparePlotSpec(c)
			if err != nil {
				t.Fatal(err)
			}
			hist, costs := spec.Panels[0], spec.Panels[len(spec.Panels)-1]
			var bins int
			var marks []string
			for _, s := range hist.Series {
				if s.Kind == seriesBars {
					bins += s.Points()
				}
			}
			for _, s := range costs.Series {
				if s.Kind == seriesCategories {
					marks = append(marks, s.Labels...)
				}
			}
			if bins != len(c.Result.Histogram.Counts) {
				t.Errorf("%d histogram bars, want %d", bins, len(c.Result.Histogram.Counts))
			}
			if strings.Join(marks, "; ") != strings.Join(tt.marks, "; ") {
				t.Errorf("costs %q, want %q", marks, tt.marks)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct{ XMLName xml.Name }
			if err := xml.Unmarshal(data, &doc); err != nil || doc.XMLName.Local != "svg" {
				t.Fatalf("%s is not an SVG document: %v", file, err)
			}
			for _, m := range tt.marks {
				if !bytes.Contains(data, []byte(">"+m+"<")) {
					t.Errorf("the SVG has no label %q", m)
				}
			}
		})
	}
}
