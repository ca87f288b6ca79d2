package main

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// The timeline plot draws one series per kind of span with a bar for each
// run of spans of that kind on a rank, and is a well-formed SVG or PNG.
func TestTimelinePlotHasABarPerSpan(t *testing.T) {
	pr := &runtime.ProgramResult{Method: "simulated", Makespan: 4e-6,
		Ranks: []runtime.RankTimes{{Rank: 0, End: 4e-6}, {Rank: 1, End: 4e-6}},
		Timeline: []runtime.Span{
			{Rank: 0, Kind: "compute", Start: 0, End: 1e-6},
			{Rank: 0, Kind: "compute", Start: 1e-6, End: 2e-6}, // continues the bar before
			{Rank: 0, Kind: "send", Start: 2e-6, End: 3e-6},
			{Rank: 0, Kind: "wait", Start: 3e-6, End: 4e-6},
			{Rank: 1, Kind: "wait", Start: 0, End: 3e-6},
			{Rank: 1, Kind: "recv", Start: 3e-6, End: 4e-6},
		}}
	spec, err := timelinePlotSpec(pr)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"compute": 1, "send": 1, "recv": 1, "wait": 2}
	if len(spec.Series) != len(want) {
		t.Fatalf("%d series, want %d", len(spec.Series), len(want))
	}
	for _, s := range spec.Series {
		if s.Points() != want[s.Kind] {
			t.Errorf("%s: %d bars, want %d", s.Kind, s.Points(), want[s.Kind])
		}
	}
	if b := spec.Series[0].Bars[0]; spec.Unit != "µs" || b.Start != 0 || b.End != 2 {
		t.Errorf("compute bar %+v in %s, want 0 to 2 µs", b, spec.Unit)
	}
	var svg, pngData bytes.Buffer
	if err := renderTimeline(&svg, spec, "svg"); err != nil {
		t.Fatal(err)
	}
	var doc struct{ XMLName xml.Name }
	if err := xml.Unmarshal(svg.Bytes(), &doc); err != nil || doc.XMLName.Local != "svg" {
		t.Errorf("not an SVG document: %v", err)
	}
	if err := renderTimeline(&pngData, spec, "png"); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(&pngData); err != nil {
		t.Errorf("not a PNG: %v", err)
	}
}

// Beyond 64 ranks evenly spaced ones are drawn, the last to finish among
// them, and the title says how many.
func TestTimelinePlotSamplesManyRanks(t *testing.T) {
	pr := &runtime.ProgramResult{Method: "analytic", Makespan: 1}
	for r := range 1000 {
		end := 0.5
		if r == 777 {
			end = 1
		}
		pr.Ranks = append(pr.Ranks, runtime.RankTimes{Rank: r, End: end})
		pr.Timeline = append(pr.Timeline, runtime.Span{Rank: r, Kind: "compute", Start: 0, End: end})
	}
	spec, err := timelinePlotSpec(pr)
	if err != nil {
		t.Fatal(err)
	}
	has777 := false
	for _, r := range spec.Rows {
		has777 = has777 || r == 777
	}
	if len(spec.Rows) != timelineMaxRanks || !has777 || spec.Title != "analytic timeline (64 of 1000 ranks)" {
		t.Errorf("%d rows (rank 777 among them: %v), title %q", len(spec.Rows), has777, spec.Title)
	}
	if n := spec.Series[0].Points(); n != timelineMaxRanks {
		t.Errorf("%d compute bars, want one per row drawn", n)
	}
}

func TestTimelinePlotNeedsATimeline(t *testing.T) {
	if _, err := timelinePlotSpec(&runtime.ProgramResult{Method: "simulated"}); err == nil {
		t.Error("no error for a result without a timeline")
	}
}
