package main

// Plots are drawn with gonum.org/v1/plot rather than by hand: it brings
// axes with readable tick placement, legends and both an SVG and a PNG
// backend that render the same drawing, and its SVG writer puts no
// timestamp or random id in the file, so the same result gives the same
// bytes.

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/runtime"
)

// plotFormat is the image format a --plot file name asks for, by its
// extension: "svg" or "png", or "" for anything else.
func plotFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		return "svg"
	case ".png":
		return "png"
	}
	return ""
}

// checkPlotFile makes a --plot file name without a known extension a
// usage error before any work is done.
func checkPlotFile(cmd, path string) error {
	if path == "" || plotFormat(path) != "" {
		return nil
	}
	return usageError("parasol %s: --plot %s: want a file name ending in .svg or .png", cmd, path)
}

// plotSpec is what a plot shows, decided before any drawing: the renderer
// draws exactly these panels and series, and a test checks them without
// parsing the image.
type plotSpec struct {
	Panels []plotPanel
}

// plotPanel is one set of axes.
type plotPanel struct {
	Title, XLabel, YLabel string
	// XInteger puts ticks on whole numbers only (hop counts); YInteger
	// labels the y axis with whole numbers only (counts of messages).
	XInteger, YInteger bool
	// XLog draws x on a logarithmic scale (message sizes of a geometric
	// sweep); every X must then be positive.
	XLog   bool
	Series []plotSeries
}

// plotSeriesKind says how a series is drawn.
type plotSeriesKind int

const (
	seriesBars       plotSeriesKind = iota // histogram bins: [X[i], X2[i]) with height Y[i]
	seriesPoints                           // markers at (X[i], Y[i]); LowerBound for lower bounds
	seriesRangeBars                        // vertical bars from Lo[i] to Hi[i] at X[i], through Y[i]
	seriesMarks                            // vertical lines across the panel at X[i]
	seriesLines                            // a line through (X[i], Y[i]) with a marker at each; Dashed for a model's
	seriesCategories                       // a bar of height Y[i] for each of Labels, named along x
)

// plotSeries is one series of data, already in the panel's display units.
type plotSeries struct {
	Name   string
	Kind   plotSeriesKind
	X, X2  []float64
	Y      []float64
	Lo, Hi []float64
	// Dashed draws a seriesLines series dashed (the analytic answer beside
	// a simulated one); Color picks its colour from seriesColors.
	Dashed bool
	Color  int
	// LowerBound draws a seriesPoints series as hollow upward triangles
	// in Color's colour, never joined: figures that are only lower bounds
	// (a saturated point's latency).
	LowerBound bool
	// Labels names a seriesCategories series' bars.
	Labels []string
}

// Points is the number of data points the series draws.
func (s plotSeries) Points() int { return max(len(s.X), len(s.Labels)) }

// timeScale picks the unit a set of times in seconds is shown in, from the
// largest of them, with the thresholds lang.FormatQuantity uses.
func timeScale(largest float64) (unit string, scale float64) {
	units := []struct {
		name  string
		scale float64
	}{{"ps", 1e-12}, {"ns", 1e-9}, {"µs", 1e-6}, {"ms", 1e-3}, {"s", 1}}
	u := units[0]
	for _, c := range units {
		if math.Abs(largest) >= c.scale*(1-1e-12) {
			u = c
		}
	}
	return u.name, u.scale
}

// simPlotSpec describes sim's plots of r: the latency histogram and the
// latency by hop count (mean, and the range from min to max).
func simPlotSpec(r *runtime.Result) (*plotSpec, error) {
	if r.Messages == 0 || len(r.Histogram.Edges) < 2 {
		return nil, fmt.Errorf("no message was delivered, so there is no latency to plot")
	}
	unit, scale := timeScale(r.Latency.Max)
	h := r.Histogram
	hist := plotSeries{Name: "messages", Kind: seriesBars}
	for i, c := range h.Counts {
		hist.X = append(hist.X, h.Edges[i]/scale)
		hist.X2 = append(hist.X2, h.Edges[i+1]/scale)
		hist.Y = append(hist.Y, float64(c))
	}
	mean := plotSeries{Name: "mean", Kind: seriesPoints}
	span := plotSeries{Name: "min–max", Kind: seriesRangeBars}
	for _, b := range r.ByHops {
		x := float64(b.Hops)
		mean.X = append(mean.X, x)
		mean.Y = append(mean.Y, b.Mean/scale)
		span.X = append(span.X, x)
		span.Y = append(span.Y, b.Mean/scale)
		span.Lo = append(span.Lo, b.Min/scale)
		span.Hi = append(span.Hi, b.Max/scale)
	}
	title := fmt.Sprintf("%s: %d message%s in %d run%s", r.Op, r.Messages, plural(r.Messages), r.Runs, plural(r.Runs))
	return &plotSpec{Panels: []plotPanel{
		{Title: "latency histogram, " + title, XLabel: "latency (" + unit + ")", YLabel: "messages", YInteger: true, Series: []plotSeries{hist}},
		{Title: "latency by hop count", XLabel: "hops", YLabel: "latency (" + unit + ")", XInteger: true, Series: []plotSeries{span, mean}},
	}}, nil
}

// comparePlotSpec describes compare's plots: sim's plots of the
// simulation, then a panel of its own for the analytic cost beside the
// simulated figure it is compared with. The compared cost (a collective's
// makespan) may be many times a message's latency: on the histogram's
// axis it would squeeze the histogram into a corner, so it has its own
// axis and unit. A simulation that deadlocked or stopped early has no
// simulated figure.
func comparePlotSpec(c *eval.Comparison) (*plotSpec, error) {
	r := c.Result
	spec, err := simPlotSpec(r)
	if err != nil {
		return nil, err
	}
	finished := !r.Deadlock && !r.Partial
	largest := c.Analytic
	if finished {
		largest = max(largest, c.Simulated)
	}
	unit, scale := timeScale(largest)
	cost := plotSeries{Name: "cost", Kind: seriesCategories, Labels: []string{"analytic " + c.Primitive}, Y: []float64{c.Analytic / scale}}
	if finished {
		cost.Labels = append(cost.Labels, "simulated "+c.Metric)
		cost.Y = append(cost.Y, c.Simulated/scale)
	}
	spec.Panels[0].Title = fmt.Sprintf("%s: analytic against op %s, %d message%s in %d run%s", c.Primitive, c.Op, r.Messages, plural(r.Messages), r.Runs, plural(r.Runs))
	spec.Panels = append(spec.Panels, plotPanel{Title: "compared cost", YLabel: c.Primitive + " (" + unit + ")", Series: []plotSeries{cost}})
	return spec, nil
}

// plotPanelWidth and plotPanelHeight size one panel's axes and data;
// panels are stacked, and the legends take a column of their own to the
// right. PNGs are drawn at plotDPI, which makes them at least 1200 pixels
// wide.
const (
	plotPanelWidth  = 6 * vg.Inch
	plotPanelHeight = 3.5 * vg.Inch
	plotDPI         = 200
)

// legendGap separates a legend from the data area and from the edge.
const legendGap vg.Length = 8 // points

// renderPlot draws spec in format ("svg" or "png") to w.
func renderPlot(w io.Writer, spec *plotSpec, format string) error {
	var plots [][]*plot.Plot
	var legends []*plot.Legend
	for _, p := range spec.Panels {
		pl, leg, err := panelPlot(p)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{pl})
		legends = append(legends, leg)
	}
	legW := legendColumn(legends...)
	canvas, err := newCanvas(format, plotPanelWidth+legW, plotPanelHeight*vg.Length(len(plots)))
	if err != nil {
		return err
	}
	dc := fillWhite(canvas)
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadX: vg.Points(8), PadY: vg.Points(12)}
	for i, row := range plot.Align(plots, tiles, draw.Crop(dc, 0, -legW, 0, 0)) {
		plots[i][0].Draw(row[0])
		drawLegend(dc, legends[i], plots[i][0].DataCanvas(row[0]))
	}
	_, err = canvas.WriteTo(w)
	return err
}

// fillWhite is a drawing on canvas with a white background, the legend's
// column included.
func fillWhite(canvas vg.CanvasSizer) draw.Canvas {
	dc := draw.New(canvas)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	return dc
}

// legendColumn is the width the widest of legends takes to the right of
// the data, with a gap either side; none when no legend has an entry.
func legendColumn(legends ...*plot.Legend) vg.Length {
	var w vg.Length
	for _, l := range legends {
		r := l.Rectangle(draw.Canvas{})
		w = max(w, r.Max.X-r.Min.X)
	}
	if w == 0 {
		return 0
	}
	return w + 2*legendGap
}

// drawLegend draws l on c outside the data area data: to its right, its
// top level with the data's top, so that it covers no data.
func drawLegend(c draw.Canvas, l *plot.Legend, data draw.Canvas) {
	l.Top, l.Left = true, true
	c.Min = vg.Point{X: data.Max.X + legendGap, Y: data.Min.Y}
	c.Max = vg.Point{X: c.Max.X - legendGap, Y: data.Max.Y}
	l.Draw(c)
}

// newCanvas is a canvas of the given size for format "svg" or "png" (at
// plotDPI).
func newCanvas(format string, width, height vg.Length) (vg.CanvasWriterTo, error) {
	switch format {
	case "svg":
		return vgsvg.New(width, height), nil
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(plotDPI))}, nil
	}
	return nil, fmt.Errorf("unknown plot format %q; want svg or png", format)
}

// panelPlot is p's axes and data, and its legend, which the caller draws
// beside the data.
func panelPlot(p plotPanel) (*plot.Plot, *plot.Legend, error) {
	pl := plot.New()
	leg := plot.NewLegend()
	leg.Padding = vg.Points(3)
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	pl.Y.Min = 0
	if p.XInteger {
		pl.X.Tick.Marker = integerTicks{}
	}
	if p.YInteger {
		pl.Y.Tick.Marker = countTicks{}
	}
	if p.XLog {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = sizeTicks(p.Series)
	}
	markIndex := 0
	for _, s := range p.Series {
		switch s.Kind {
		case seriesBars:
			bins := make([]plotter.HistogramBin, len(s.X))
			for i := range s.X {
				bins[i] = plotter.HistogramBin{Min: s.X[i], Max: s.X2[i], Weight: s.Y[i]}
			}
			h := &plotter.Histogram{Bins: bins, FillColor: color.Gray{Y: 160}, LineStyle: plotter.DefaultLineStyle}
			if len(s.X) > 0 {
				h.Width = s.X2[0] - s.X[0]
			}
			pl.Add(h)
		case seriesCategories:
			for i, y := range s.Y {
				bc, err := plotter.NewBarChart(plotter.Values{y}, vg.Inch/2)
				if err != nil {
					return nil, nil, err
				}
				bc.XMin = float64(i)
				bc.Color = markColors[i%len(markColors)]
				pl.Add(bc)
			}
			pl.NominalX(s.Labels...)
			pl.X.Min, pl.X.Max = -0.5, float64(len(s.Labels))-0.5
		case seriesPoints:
			sc, err := plotter.NewScatter(xys(s.X, s.Y))
			if err != nil {
				return nil, nil, err
			}
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			sc.GlyphStyle.Radius = vg.Points(3)
			sc.GlyphStyle.Color = color.RGBA{R: 200, A: 255}
			if s.LowerBound {
				sc.GlyphStyle.Shape = draw.TriangleGlyph{}
				sc.GlyphStyle.Radius = vg.Points(4)
				sc.GlyphStyle.Color = seriesColors[s.Color%len(seriesColors)]
			}
			pl.Add(sc)
			leg.Add(s.Name, sc)
		case seriesRangeBars:
			errs := make(plotter.Errors, len(s.X))
			for i := range s.X {
				errs[i] = struct{ Low, High float64 }{s.Y[i] - s.Lo[i], s.Hi[i] - s.Y[i]}
			}
			eb, err := plotter.NewYErrorBars(rangeBars{xys(s.X, s.Y), errs})
			if err != nil {
				return nil, nil, err
			}
			eb.CapWidth = vg.Points(6)
			pl.Add(eb)
			leg.Add(s.Name, verticalThumb(eb.LineStyle))
		case seriesLines:
			l, sc, err := plotter.NewLinePoints(xys(s.X, s.Y))
			if err != nil {
				return nil, nil, err
			}
			c := seriesColors[s.Color%len(seriesColors)]
			l.LineStyle.Color, l.LineStyle.Width = c, vg.Points(1.5)
			sc.GlyphStyle.Color, sc.GlyphStyle.Radius = c, vg.Points(2.5)
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			if s.Dashed {
				l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
				sc.GlyphStyle.Shape = draw.BoxGlyph{}
			}
			pl.Add(l, sc)
			leg.Add(s.Name, l, sc)
		case seriesMarks:
			m := marks{X: s.X, LineStyle: plotter.DefaultLineStyle}
			m.LineStyle.Width = vg.Points(1.5)
			m.LineStyle.Color = markColors[markIndex%len(markColors)]
			if markIndex%2 == 1 {
				m.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			markIndex++
			pl.Add(m)
			leg.Add(s.Name, verticalThumb(m.LineStyle))
		}
	}
	if markIndex > 0 {
		// A marked time may be the largest or smallest x: a margin keeps
		// its line off the panel's frame. Times are never negative.
		pad := 0.03 * (pl.X.Max - pl.X.Min)
		pl.X.Min, pl.X.Max = max(0, pl.X.Min-pad), pl.X.Max+pad
	}
	if p.XInteger {
		// Half a hop of margin keeps the end bars off the axes.
		pl.X.Min -= 0.5
		pl.X.Max += 0.5
	}
	// Headroom keeps the tallest bar's top and the highest marker off
	// the panel's edge.
	pl.Y.Max += 0.05 * (pl.Y.Max - pl.Y.Min)
	return pl, &leg, nil
}

// sizeTicks labels a logarithmic size axis at the sizes the series hold
// (32B, 1KiB, …), at most about ten of them, evenly thinned.
func sizeTicks(series []plotSeries) plot.ConstantTicks {
	seen := map[float64]bool{}
	var xs []float64
	for _, s := range series {
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				xs = append(xs, x)
			}
		}
	}
	slices.Sort(xs)
	step := (len(xs) + 9) / 10
	var ticks plot.ConstantTicks
	for i, x := range xs {
		t := plot.Tick{Value: x}
		if i%max(step, 1) == 0 {
			t.Label = fit.SizeLiteral(int64(x))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func xys(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i].X, out[i].Y = x[i], y[i]
	}
	return out
}

// rangeBars pairs points with their errors for plotter.NewYErrorBars.
type rangeBars struct {
	plotter.XYs
	plotter.Errors
}

func (r rangeBars) YError(i int) (float64, float64) { return r.Errors[i].Low, r.Errors[i].High }

// markColors tell the marked times apart: blue, then orange.
var markColors = []color.Color{color.RGBA{B: 200, A: 255}, color.RGBA{R: 230, G: 120, A: 255}}

// seriesColors tell the lines of a study apart (a colour-blind-safe set).
var seriesColors = []color.Color{
	color.RGBA{R: 0, G: 114, B: 178, A: 255}, color.RGBA{R: 230, G: 159, B: 0, A: 255},
	color.RGBA{R: 0, G: 158, B: 115, A: 255}, color.RGBA{R: 204, G: 121, B: 167, A: 255},
	color.RGBA{R: 86, G: 180, B: 233, A: 255}, color.RGBA{R: 213, G: 94, B: 0, A: 255},
	color.RGBA{R: 0, G: 0, B: 0, A: 255}, color.RGBA{R: 240, G: 228, B: 66, A: 255},
}

// marks draws vertical lines across the panel at X; they widen the x range
// to include themselves but leave the y range to the data.
type marks struct {
	X []float64
	draw.LineStyle
}

func (m marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, x := range m.X {
		c.StrokeLine2(m.LineStyle, trX(x), c.Min.Y, trX(x), c.Max.Y)
	}
}

func (m marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, x := range m.X {
		xmin, xmax = min(xmin, x), max(xmax, x)
	}
	return xmin, xmax, math.Inf(1), math.Inf(-1)
}

// verticalThumb shows a range bar or a marked time in the legend: a
// vertical line in its style.
type verticalThumb draw.LineStyle

func (t verticalThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(draw.LineStyle(t), x, c.Min.Y, x, c.Max.Y)
}

// integerTicks marks whole numbers only, at most about ten of them.
type integerTicks struct{}

func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((last-first+1)/10))
	var ticks []plot.Tick
	for v := first; v <= last; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// countTicks labels a count axis with whole numbers only: gonum's usual
// ticks where they fall on whole numbers, labelled without decimals, else
// (a small range) every whole number, or about ten of them.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	labelled := 0
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			if t.IsMinor() {
				ticks = append(ticks, t)
			}
			continue
		}
		if !t.IsMinor() {
			t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
			labelled++
		}
		ticks = append(ticks, t)
	}
	if labelled < 2 {
		return integerTicks{}.Ticks(lo, hi)
	}
	return ticks
}

// writeSimPlot draws sim's plots of r to path, in the format its extension
// names.
func writeSimPlot(path string, r *runtime.Result) error {
	spec, err := simPlotSpec(r)
	return writePlot("sim", path, spec, err)
}

// writeComparePlot draws compare's plots of c to path.
func writeComparePlot(path string, c *eval.Comparison) error {
	spec, err := comparePlotSpec(c)
	return writePlot("compare", path, spec, err)
}

// writePlot draws spec to path, or reports why there is nothing to draw
// (err from making the spec).
func writePlot(cmd, path string, spec *plotSpec, err error) error {
	if err != nil {
		return fmt.Errorf("parasol %s: --plot %s: %v", cmd, path, err)
	}
	var buf bytes.Buffer
	if err := renderPlot(&buf, spec, plotFormat(path)); err != nil {
		return fmt.Errorf("parasol %s: --plot %s: %v", cmd, path, err)
	}
	if err := writeOutputFile(path, buf.Bytes()); err != nil {
		return fmt.Errorf("parasol %s: --plot: %v", cmd, err)
	}
	return nil
}
