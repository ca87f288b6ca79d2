package main

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/parasol-lang/parasol/runtime"
)

// timelineKinds are the kinds of span a program's timeline holds, in the
// order the legend lists them, with their colours (seriesColors' set).
var timelineKinds = []struct {
	kind  string
	color color.Color
}{
	{"compute", seriesColors[0]}, {"send", seriesColors[1]}, {"recv", seriesColors[2]}, {"wait", color.Gray{Y: 220}},
}

// timelineMaxRanks bounds the ranks a timeline plot draws one row each
// for: beyond it, evenly spaced ranks and the last to finish stand for the
// rest (the title says how many).
const timelineMaxRanks = 64

// timelineSpec is what a timeline plot draws, decided before drawing (a
// test checks it without parsing the image): per kind, the bars.
type timelineSpec struct {
	Title  string
	Unit   string
	Scale  float64
	Rows   []int // the ranks drawn, bottom to top
	Series []timelineSeries
}

type timelineSeries struct {
	Kind  string
	Color color.Color
	Bars  []timelineBar
}

type timelineBar struct {
	Row        int // index into Rows
	Start, End float64
}

// Points is the number of bars the series draws.
func (s timelineSeries) Points() int { return len(s.Bars) }

func timelinePlotSpec(pr *runtime.ProgramResult) (*timelineSpec, error) {
	if len(pr.Timeline) == 0 {
		return nil, fmt.Errorf("the %s answer has no timeline to draw", pr.Method)
	}
	unit, scale := timeScale(pr.Makespan)
	ranks := make([]int, 0, len(pr.Ranks))
	if len(pr.Ranks) <= timelineMaxRanks {
		for _, r := range pr.Ranks {
			ranks = append(ranks, r.Rank)
		}
	} else {
		last := 0
		for _, r := range pr.Ranks {
			if r.End > pr.Ranks[last].End {
				last = r.Rank
			}
		}
		seen := map[int]bool{last: true}
		ranks = append(ranks, last)
		for i := 0; len(ranks) < timelineMaxRanks; i++ {
			r := i * len(pr.Ranks) / timelineMaxRanks
			if i >= timelineMaxRanks {
				r = i - timelineMaxRanks // fill in after a collision with the last
			}
			if !seen[r] {
				seen[r] = true
				ranks = append(ranks, r)
			}
		}
		sort.Ints(ranks)
	}
	row := map[int]int{}
	for i, r := range ranks {
		row[r] = i
	}
	title := fmt.Sprintf("%s timeline", pr.Method)
	if len(ranks) < len(pr.Ranks) {
		title += fmt.Sprintf(" (%d of %d ranks)", len(ranks), len(pr.Ranks))
	}
	spec := &timelineSpec{Title: title, Unit: unit, Scale: scale, Rows: ranks}
	index := map[string]int{}
	for _, k := range timelineKinds {
		index[k.kind] = len(spec.Series)
		spec.Series = append(spec.Series, timelineSeries{Kind: k.kind, Color: k.color})
	}
	for _, sp := range pr.Timeline {
		i, ok := row[sp.Rank]
		k, known := index[sp.Kind]
		if !ok || !known {
			continue
		}
		s := &spec.Series[k]
		// A span that continues the one before it on its row is one bar.
		if n := len(s.Bars); n > 0 && s.Bars[n-1].Row == i && s.Bars[n-1].End == sp.Start/scale {
			s.Bars[n-1].End = sp.End / scale
			continue
		}
		s.Bars = append(s.Bars, timelineBar{Row: i, Start: sp.Start / scale, End: sp.End / scale})
	}
	return spec, nil
}

// gantt draws one series' bars, a row per rank.
type gantt struct{ timelineSeries }

func (g gantt) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	c.SetColor(g.Color)
	for _, b := range g.Bars {
		x0, x1 := tx(b.Start), tx(b.End)
		if x1-x0 < vg.Points(0.3) {
			x1 = x0 + vg.Points(0.3) // visible however short
		}
		y0, y1 := ty(float64(b.Row)-0.4), ty(float64(b.Row)+0.4)
		var path vg.Path
		path.Move(vg.Point{X: x0, Y: y0})
		path.Line(vg.Point{X: x1, Y: y0})
		path.Line(vg.Point{X: x1, Y: y1})
		path.Line(vg.Point{X: x0, Y: y1})
		path.Close()
		c.Fill(path)
	}
}

func (g gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin, ymax = 0, -0.5, 0.5
	for _, b := range g.Bars {
		xmax = max(xmax, b.End)
		ymax = max(ymax, float64(b.Row)+0.5)
	}
	return
}

func (g gantt) Thumbnail(c *draw.Canvas) {
	var path vg.Path
	path.Move(vg.Point{X: c.Min.X, Y: c.Min.Y})
	path.Line(vg.Point{X: c.Max.X, Y: c.Min.Y})
	path.Line(vg.Point{X: c.Max.X, Y: c.Max.Y})
	path.Line(vg.Point{X: c.Min.X, Y: c.Max.Y})
	path.Close()
	c.SetColor(g.Color)
	c.Fill(path)
}

// rankTicks labels rows with their ranks, at most about sixteen.
type rankTicks []int

func (r rankTicks) Ticks(lo, hi float64) []plot.Tick {
	step := max(1, len(r)/16)
	var out []plot.Tick
	for i, rank := range r {
		t := plot.Tick{Value: float64(i)}
		if i%step == 0 {
			t.Label = fmt.Sprint(rank)
		}
		out = append(out, t)
	}
	return out
}

func renderTimeline(w io.Writer, spec *timelineSpec, format string) error {
	pl := plot.New()
	pl.Title.Text = spec.Title
	pl.X.Label.Text = "time (" + spec.Unit + ")"
	pl.Y.Label.Text = "rank"
	pl.Y.Tick.Marker = rankTicks(spec.Rows)
	leg := plot.NewLegend()
	leg.Padding = vg.Points(3)
	for _, s := range spec.Series {
		g := gantt{s}
		pl.Add(g)
		leg.Add(s.Kind, g)
	}
	pl.X.Min = 0
	// Nine points a rank, and an inch for the axes, keep the rows of many
	// ranks readable; fewer ranks take the usual panel's height. The
	// legend takes a column to the right of the rows, off the bars.
	legW := legendColumn(&leg)
	canvas, err := newCanvas(format, plotPanelWidth+legW, max(plotPanelHeight, vg.Length(len(spec.Rows))*vg.Points(9)+vg.Inch))
	if err != nil {
		return err
	}
	dc := fillWhite(canvas)
	area := draw.Crop(dc, 0, -legW, 0, 0)
	pl.Draw(area)
	drawLegend(dc, &leg, pl.DataCanvas(area))
	_, err = canvas.WriteTo(w)
	return err
}

// writeTimelinePlot draws pr's per-rank timeline to path.
func writeTimelinePlot(path string, pr *runtime.ProgramResult) error {
	spec, err := timelinePlotSpec(pr)
	if err != nil {
		return fmt.Errorf("parasol run: --plot %s: %v", path, err)
	}
	var buf bytes.Buffer
	if err := renderTimeline(&buf, spec, plotFormat(path)); err != nil {
		return fmt.Errorf("parasol run: --plot %s: %v", path, err)
	}
	if err := writeOutputFile(path, buf.Bytes()); err != nil {
		return fmt.Errorf("parasol run: --plot: %v", err)
	}
	return nil
}
