package main

// sim --load: open-loop traffic at an offered load, one point or a
// load–latency curve (study.LoadCurve).

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// loadFlags are sim's open-loop flags.
type loadFlags struct {
	load            loadList
	process         *choiceFlag
	warmup, measure quantityFlag // seconds
	pattern         string       // a message trace: the user's pattern (op list)
	self            bool         // uniform includes the source
	list            runtime.MessageList
}

func (lf *loadFlags) register(fs *flag.FlagSet) {
	fs.Var(&lf.load, "load", "offered `LOAD` per processor: a share of its injection bandwidth (0 < F ≤ 4; above 1 the sources' queues grow) or a rate (500MB/s); a list 0.1,0.2 or a range 0.05:0.6:0.05 draws a load–latency curve, its points run on all cores")
	lf.process = newChoiceFlag("bernoulli", "bernoulli", "poisson")
	fs.Var(lf.process, "process", "with --load, how each processor generates messages: bernoulli (a chance every flit cycle, as BookSim) or poisson")
	lf.warmup = quantityFlag{dim: lang.TimeDim, positive: true}
	lf.measure = quantityFlag{dim: lang.TimeDim, positive: true}
	fs.Var(&lf.warmup, "warmup", "with --load, a fixed warm-up `TIME` with its unit, above 0 (default: until successive windows of 1000 cycles agree within 5%)")
	fs.Var(&lf.measure, "measure", "with --load, the measurement `TIME` whose messages are marked, with its unit: 3 windows, each at least one message's time on the wire (default: 3 windows of 1000 cycles)")
	fs.BoolVar(&lf.self, "self", false, "with --load and --op uniform, a processor may address a message to itself (1 in P, as BookSim's uniform counts them); with a permutation (transpose, the bit permutations, randperm, neighbor, tornado) a processor it maps to itself sends to itself (BookSim's transpose diagonal); the processors must hang off routers (nic = true)")
	fs.StringVar(&lf.pattern, "pattern", "", "with --load, a message trace `FILE` (CSV or JSON lines: src, dst, bytes) as the traffic pattern: each processor generates the messages its rank sends there, in turn (--op list)")
}

// loadList is --load: points, each a share of the injection bandwidth or
// a rate in bytes per second.
type loadList struct {
	text   string
	points []runtime.Load
}

func (l *loadList) String() string {
	if l == nil {
		return ""
	}
	return l.text
}

func (l *loadList) Set(s string) error {
	pts, err := study.ParseLoads(s)
	if err != nil {
		return err
	}
	l.text, l.points = s, pts
	return nil
}

// traffic is how the flags say the loads generate messages.
func (lf *loadFlags) traffic() study.Traffic {
	proc, _ := runtime.ParseProcess(lf.process.value)
	return study.Traffic{Process: proc, Warmup: lf.warmup.v, Measure: lf.measure.v, List: lf.list, Self: lf.self}
}

// check makes open-loop flags without --load, and flags --load does not
// take, usage errors.
func (lf *loadFlags) check(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["load"] {
		for _, n := range []string{"process", "warmup", "measure", "pattern", "self"} {
			if set[n] {
				return usageError("parasol %s: --%s needs --load", fs.Name(), n)
			}
		}
		return nil
	}
	if set["runs"] {
		return usageError("parasol %s: --runs does not go with --load: each point is one long run, with warm-up, measurement and drain", fs.Name())
	}
	return nil
}

// listPattern reads --pattern (with --op list or no --op) as the user's
// traffic pattern into lf.list, and makes the op list.
func (lf *loadFlags) listPattern(fs *flag.FlagSet, sf *simFlags) error {
	opSet := false
	fs.Visit(func(f *flag.Flag) { opSet = opSet || f.Name == "op" })
	switch {
	case lf.pattern == "" && sf.op == runtime.ListOp:
		return usageError("parasol %s: --op list takes its messages from --pattern FILE", fs.Name())
	case lf.pattern == "":
		return nil
	case opSet && sf.op != runtime.ListOp:
		return usageError("parasol %s: --pattern is the traffic pattern; --op %s is another (leave --op out, or say --op list)", fs.Name(), sf.op)
	}
	sf.op = runtime.ListOp
	sc, err := readScheduleFile(lf.pattern, func(r io.Reader) (*lang.Schedule, error) { return parser.ReadTrace(r, lf.pattern, sf.memory()) })
	if err != nil {
		return err
	}
	lf.list = runtime.MessageListOf(sc)
	return nil
}

// runLoad runs sim --load: every point, then a table, JSON lines or CSV.
func runLoad(e *env, sf *simFlags, lf *loadFlags, spec string, format string, plotFile, linksFile, traceFile string) error {
	m, rs, err := sf.network(spec, int(sf.size.bytes()))
	if err != nil {
		return err
	}
	// The user's pattern is no operation of a burst: validate the rest.
	op := sf.op
	if op == runtime.ListOp {
		sf.op = ""
	}
	err = sf.validate(rs)
	sf.op = op
	if err != nil {
		return err
	}
	opts := sf.options()
	if linksFile != "" {
		opts.LinkLoads = true
	}
	loads := lf.traffic().Apply(lf.load.points)
	if e.isTerminal && format == outText {
		bar := newLoadProgress(e.stderr, len(loads), time.Now)
		opts.PointProgress = bar.update
		defer bar.run()()
	}
	ctx, stop := e.interruptible()
	defer stop()
	done, err := study.LoadCurve(ctx, rs, opts, loads)
	if done == nil {
		var oe *runtime.OptionError
		if lf.pattern != "" && errors.As(err, &oe) && oe.Value == runtime.ListOp {
			return usageError("parasol %s: --pattern %s: %s", sf.cmd, lf.pattern, oe.Reason)
		}
		if err != nil && ctx.Err() == nil {
			if oe := optionUsage(sf.cmd, err); oe != err {
				return oe
			}
			return fmt.Errorf("parasol sim: %v", err)
		}
		return err
	}
	// The plot is written before anything is printed: a failing stdout
	// (a closed pipe) must not lose it.
	if plotFile != "" {
		ps, perr := loadPlotSpec(done)
		if werr := writePlot("sim", plotFile, ps, perr); werr != nil {
			return werr
		}
	}
	if traceFile != "" && len(done) == 1 && done[0].Trace != nil {
		title := fmt.Sprintf("%s %d B at load %g on %s (seed %d)", sf.op, opts.Size, done[0].Load, spec, sf.seed)
		if err := writeBurstTrace(traceFile, trace.Options{MaxMemory: sf.memory()}, title, done[0].Trace); err != nil {
			return err
		}
	}
	run := sf.runInfo(spec, m, rs, opts.Size)
	run.Runs = 0
	switch format {
	case outJSON:
		enc := results.NewEncoder(e.stdout)
		for _, p := range done {
			if err := enc.Encode(results.Load{LoadResult: p, Notes: stripesNotes(p.Unstriped), Run: run}); err != nil {
				return err
			}
		}
	case outCSV:
		rows := make([][]string, len(done))
		for i, p := range done {
			rows[i] = results.LoadRow(p)
		}
		if err := results.WriteTable(e.stdout, results.LoadHeader, rows); err != nil {
			return err
		}
	default:
		what := fmt.Sprintf("%d-byte messages", opts.Size)
		if lf.pattern != "" {
			what = "the messages of " + lf.pattern
		}
		printLoadCurve(e.stdout, done, what)
	}
	if linksFile != "" {
		var buf bytes.Buffer
		if err := writeLinksCSV(&buf, done); err != nil {
			return err
		}
		if err := writeOutputFile(linksFile, buf.Bytes()); err != nil {
			return fmt.Errorf("parasol sim: --link-csv: %v", err)
		}
	}
	return err
}

func printLoadCurve(w io.Writer, pts []*runtime.LoadResult, what string) {
	if len(pts) == 0 {
		return
	}
	fmt.Fprintf(w, "op %s, %s, %s process; loads are shares of the injection bandwidth\n", pts[0].Op, what, pts[0].Process)
	fmt.Fprintf(w, "%8s %8s %8s %10s %10s %8s\n", "load", "offered", "accepted", "mean", "p99", "marked")
	for _, p := range pts {
		note := ""
		switch {
		case p.Saturated && !p.Drained:
			note = fmt.Sprintf("saturated (%d marked not drained: latency a lower bound)", p.Undelivered)
		case p.Saturated:
			note = "saturated (latency a lower bound)"
		}
		mean, p99 := dur(p.Latency.Mean), dur(p.Latency.P99)
		if p.LatencyBound == "lower" {
			mean, p99 = "≥"+mean, "≥"+p99
		}
		line := fmt.Sprintf("%8.4g %8.4f %8.4f %10s %10s %8d  %s", p.Load, p.Offered, p.Accepted, mean, p99, p.Marked, note)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if acc, at := study.SaturationThroughput(pts); at != nil {
		if study.Saturated(pts) {
			fmt.Fprintf(w, "saturation throughput %.4f (accepted at load %.4g)\n", acc, at.Load)
		} else {
			fmt.Fprintf(w, "no point saturated; the largest accepted load is %.4f (at load %.4g)\n", acc, at.Load)
		}
	}
	if k := pts[0].Stripes; k > 1 {
		fmt.Fprintf(w, "each point cut into %d stripes (--stripes)\n", k)
	}
	for _, n := range stripesNotes(pts[0].Unstriped) {
		fmt.Fprintln(w, n)
	}
}

// writeLinksCSV writes every wire's figures, one row per wire and point.
func writeLinksCSV(w io.Writer, pts []*runtime.LoadResult) error {
	var rows [][]string
	for _, p := range pts {
		rows = append(rows, results.LinkRows(results.Float(p.Load), p.Links)...)
	}
	return results.WriteTable(w, append([]string{"load"}, results.LinkHeader...), rows)
}

// loadPlotSpec is the load–latency curve: mean and p99 latency against
// the offered load, lines through the points that did not saturate;
// saturated points, whose latencies are lower bounds, as markers of their
// own never joined to the lines; the saturation throughput a vertical line
// when some point saturated. A point with no marked message has no
// latency and is left out.
func loadPlotSpec(pts []*runtime.LoadResult) (*plotSpec, error) {
	largest := 0.0
	for _, p := range pts {
		if p.Marked > 0 {
			largest = max(largest, p.Latency.P99)
		}
	}
	if largest == 0 {
		return nil, fmt.Errorf("no message was marked, so there is no latency to plot")
	}
	unit, scale := timeScale(largest)
	mean := plotSeries{Name: "mean latency", Kind: seriesLines}
	p99 := plotSeries{Name: "p99 latency", Kind: seriesLines, Dashed: true, Color: 1}
	satMean := plotSeries{Name: "mean, saturated (a lower bound)", Kind: seriesPoints, LowerBound: true}
	satP99 := plotSeries{Name: "p99, saturated (a lower bound)", Kind: seriesPoints, LowerBound: true, Color: 1}
	for _, p := range pts {
		if p.Marked == 0 {
			continue
		}
		m, q := &mean, &p99
		if p.Saturated {
			m, q = &satMean, &satP99
		}
		m.X, m.Y = append(m.X, p.Offered), append(m.Y, p.Latency.Mean/scale)
		q.X, q.Y = append(q.X, p.Offered), append(q.Y, p.Latency.P99/scale)
	}
	var series []plotSeries
	for _, s := range []plotSeries{mean, p99, satMean, satP99} {
		if len(s.X) > 0 {
			series = append(series, s)
		}
	}
	if study.Saturated(pts) {
		acc, _ := study.SaturationThroughput(pts)
		series = append(series, plotSeries{Name: fmt.Sprintf("saturation throughput %.3f", acc), Kind: seriesMarks, X: []float64{acc}})
	}
	return &plotSpec{Panels: []plotPanel{{
		Title:  fmt.Sprintf("%s: latency against offered load, %s process", pts[0].Op, pts[0].Process),
		XLabel: "offered load (share of injection bandwidth)", YLabel: "latency (" + unit + ")", Series: series,
	}}}, nil
}
