package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	prt "github.com/parasol-lang/parasol/runtime"
)

// sizeSweep is sweep's --size: a list (1KB,2KB,8KB) or a geometric range
// (32..64KiB*2); repeated flags append.
type sizeSweep struct {
	vals []int64
	err  error  // why the last value was refused, for flagValueError
	bad  string // the value refused
}

func (s *sizeSweep) refused() (string, error) { return s.bad, s.err }

func (s *sizeSweep) String() string {
	if s == nil {
		return ""
	}
	parts := make([]string, len(s.vals))
	for i, v := range s.vals {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ",")
}

func (s *sizeSweep) Set(v string) error {
	vals, err := parseSizeSweep(v)
	s.err, s.bad = err, v
	if err != nil {
		return err
	}
	s.vals = append(s.vals, vals...)
	return nil
}

// parseSize is one size as --size takes it: a number of bytes or a
// quantity with a unit, whole bytes.
func parseSize(s string) (int64, error) {
	q := sizeFlag(0, 0)
	if err := q.parse(s); err != nil {
		return 0, fmt.Errorf("%s: %v", strings.TrimSpace(s), err)
	}
	return q.bytes(), nil
}

// parseSizeSweep reads LO..HI*FACTOR (LO, LO·FACTOR, … up to HI, each
// rounded to whole bytes) or a comma-separated list.
func parseSizeSweep(v string) ([]int64, error) {
	if lo, rest, ok := strings.Cut(v, ".."); ok {
		star := strings.LastIndexByte(rest, '*')
		if star < 0 {
			return nil, fmt.Errorf("%q: a range is LO..HI*FACTOR, e.g. 32..64KiB*2", v)
		}
		a, err := parseSize(lo)
		if err != nil {
			return nil, err
		}
		b, err := parseSize(rest[:star])
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(rest[star+1:]), 64)
		if err != nil || !(f > 1) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%q: the factor must be a number greater than 1, got %q", v, rest[star+1:])
		}
		if a < 1 {
			return nil, fmt.Errorf("%q: a geometric range starts at 1 byte or more", v)
		}
		if b < a {
			return nil, fmt.Errorf("%q: the range ends below its start", v)
		}
		if math.Log(float64(b)/float64(a))/math.Log(f) > study.MaxPoints {
			return nil, fmt.Errorf("%q: more than %d sizes", v, study.MaxPoints)
		}
		var out []int64
		// Multiplying the float avoids the drift of rounded steps: 10..100*1.5
		// is 10, 15, 22.5→23, 33.75→34, … as the exact sequence rounds.
		x := float64(a)
		for ; math.Round(x) <= float64(b)*(1+1e-12); x *= f {
			n := int64(math.Round(x))
			if len(out) == 0 || out[len(out)-1] != n {
				out = append(out, n)
			}
		}
		if last := out[len(out)-1]; last != b {
			return nil, rangeEndError(lo, rest[:star], rest[star+1:], a, b, last, math.Round(x))
		}
		return out, nil
	}
	var out []int64
	for _, p := range splitList(v) {
		n, err := parseSize(p)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// rangeEndError is why a geometric range whose end HI is not one of its
// points is refused (rather than stopping short of HI without a word):
// it names the last point the range would reach and writes the range
// again with the point of the series nearest HI as its end. next is the
// first point beyond HI.
func rangeEndError(loText, hiText, factorText string, lo, hi, last int64, next float64) error {
	factorText = strings.TrimSpace(factorText)
	hiText = strings.TrimSpace(hiText)
	end := hiText + " B"
	if _, err := strconv.ParseFloat(hiText, 64); err != nil {
		end = fmt.Sprintf("%s (%d B)", hiText, hi) // 64KB (64000 B)
	}
	series := fmt.Sprintf("%d·%s^k", lo, factorText)
	if f, _ := strconv.ParseFloat(factorText, 64); f != math.Trunc(f) {
		series += " rounded to whole bytes"
	}
	nearest := last
	if next < math.MaxInt64 && int64(next)-hi < hi-last {
		nearest = int64(next)
	}
	return fmt.Errorf("%s is not %s; the series ends at %d B; write %s..%s*%s",
		end, series, last, strings.TrimSpace(loText), fit.SizeLiteral(nearest), factorText)
}

// splitList splits a comma-separated list at the commas outside
// brackets and quotes, so that a value such as f(1, 2) stays whole.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// wordList is a --routing or --switching of sweep: a comma-separated list,
// repeated flags appending.
type wordList []string

func (w *wordList) String() string {
	if w == nil {
		return ""
	}
	return strings.Join(*w, ",")
}

func (w *wordList) Set(v string) error {
	for _, p := range splitList(v) {
		if p == "" {
			return fmt.Errorf("%q: an empty name in the list", v)
		}
		*w = append(*w, p)
	}
	return nil
}

// setSweep is sweep's --set and, through argSweep, its --arg: the axes
// of the sweep in command-line order.
type setSweep []study.Axis

func (s *setSweep) String() string { return "" }

func (s *setSweep) Set(v string) error {
	set, err := eval.ParseSet(v)
	if err != nil {
		return err
	}
	ax := study.Axis{Path: set.Path}
	for _, p := range splitList(set.Value) {
		if p == "" {
			return fmt.Errorf("--set %q: an empty value in the list", v)
		}
		ax.Values = append(ax.Values, p)
	}
	*s = append(*s, ax)
	return nil
}

// argSweep is sweep's --arg: a program parameter and the values it takes,
// NAME=V1,V2,…; the axes join the --set axes in command-line order.
type argSweep struct{ axes *setSweep }

func (a argSweep) String() string { return "" }

func (a argSweep) Set(v string) error {
	name, values, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q: want NAME=V1,V2,…", v)
	}
	ax := study.Axis{Path: name, Arg: true}
	for _, p := range splitList(values) {
		if p == "" {
			return fmt.Errorf("--arg %q: an empty value in the list", v)
		}
		ax.Values = append(ax.Values, p)
	}
	*a.axes = append(*a.axes, ax)
	return nil
}

// sweepCmd is parasol sweep.
var sweepCmd = &command{
	name:    "sweep",
	summary: "simulate, compare or run a program over a cross product of sizes, settings, routings, loads and arguments",
	args:    "[flags] MACHINE --op OP | --compare PRIMITIVE | --run PROGRAM",
	doc: `
Sweep simulates an operation (with --compare, compares a model
primitive's analytic cost with its simulation, as compare does; with
--run, runs a program as run does) at every point of a cross product of
parameters, one at a time, over all cores:

  --size 32..64KiB*2        a geometric range: 32, 64, 128, … 65536 bytes
  --size 1KB,2KB,8KB        a list (repeated --size flags append)
  --set 'delta=0.5us,1us'   the values of a field or param (repeatable)
  --routing ecube,random    routings
  --switching saf,wormhole  switchings
  --load 0.1:0.9:0.1        offered loads: each point an open-loop run as
                            sim --load runs one (--process, --warmup, --measure)
  --arg 'n=1KB,4KB'         with --run, values of a program's parameter

A geometric range LO..HI*FACTOR has the points LO·FACTOR^k (rounded to
whole bytes) from LO up to HI, and ends at HI, which must be one of
them: 32..64KB*2 is refused, since 64KB is 64,000 bytes
(KB = 1000 B, KiB = 1024 B) and the series 32·2^k passes from 32768 to
65536; the message names the last point and the range that ends nearest
(32..64KiB*2).

The points are numbered in a fixed order: the --set and --arg axes in
command-line order, then routing, then switching, then size, then load,
the last varying fastest.
Point i's seed is derived from --seed and i alone and is the "seed" of its
"run", so the output is the same bytes for any number of workers and
'parasol sim --seed' reproduces any point: give sim the point's op, size
and --set values and its seed. Most point seeds are 2^53 or more, which
JSON tools that read numbers as doubles (jq) round: the "run" gives them
also as a string, "seed_str" (the CSV's seed column is exact), and
--seed SEED_STR reproduces the point.

Results stream in point order: --format json prints one object a line
(the point's index as "point", the sweep's count as "points", sim's
result keys, and "run" with the point's size, seed, routing, switching
and every --set); --format csv a header row and one row per point; text
one line per point. With --compare a point's JSON object is compare's
(primitive, args, analytic, simulated, difference, result, run) and its
CSV row compare's columns after the point's parameters. A point that
deadlocks is reported and the sweep goes on (exit status 3 at the end).

--plot FILE (.svg or .png) draws the study: the last axis with more than
one numeric value (the size, or a --set) along x, latency (or, for
operations without a latency, makespan; with --compare the compared
figure, analytic and simulated) along y, one line per combination of the
other axes.

--shard I/N runs the points i with i % N == I, so N processes, on one
machine or many, share a sweep. --shard auto takes I and N from a Slurm
array task ($SLURM_ARRAY_TASK_ID and $SLURM_ARRAY_TASK_COUNT) or I from a
Kubernetes Indexed Job ($JOB_COMPLETION_INDEX) and N from --shards, as
sim does; without --shard a sweep runs every point, in a job array too.
A shard's output starts with a line naming its study (the machine and a
hash of its text and imports, the format, every flag that shapes the
output, the axes; in CSV and text a "# parasol study" comment). 'parasol
merge' joins the shards' outputs (any one format) into the bytes the whole
sweep prints, and refuses shards of different sweeps: the machine is told
by its text, so shards of one file at two paths merge and shards of a file
changed between them do not.

Examples:
  parasol sweep std:xmp64 --op transpose --size 32..4KiB*2 --format csv
  parasol sweep examples/ring.machine --op alltoall --routing shortest,dor --set lanes=1,2 --json
  parasol sweep std:xmp64 --op alltoall --size 1KB,4KB --shard 1/3 --json > part1.jsonl
  parasol sweep std:xmp64 --compare MPI.bcast --size 1..4KiB*2 --set 'h_off=200ns,400ns' --plot bcast.svg`,
	flags: declareSweep,
}

// declareSweep declares sweep's flags on fs and returns the function that runs it.
func declareSweep(e *env, fs *flag.FlagSet) func(pos []string) error {
	var sf simFlags
	sf.register(fs, e)
	var sizes sizeSweep
	var routings, switchings wordList
	var sets setSweep
	// sweep's --size, --routing, --switching and --set take lists: the
	// flags sim registers are given list values in place.
	for name, v := range map[string]flag.Value{"size": &sizes, "routing": &routings, "switching": &switchings, "set": &sets} {
		f := fs.Lookup(name)
		f.Value, f.DefValue = v, ""
	}
	fs.Lookup("size").Usage = "message `SIZES`: a list (1KB,2KB,8KB) or a geometric range LO..HI*FACTOR ending at HI (32..64KiB*2) (default 32; with --compare 1KiB = 1024, as compare's)"
	fs.Lookup("routing").Usage = "routing `FUNCTIONS`, a comma-separated list, overriding the machine: " + strings.Join(prt.Routings(), ", ")
	fs.Lookup("switching").Usage = "`SWITCHINGS`, a comma-separated list, overriding the machine: saf, vct, wormhole, circuit"
	fs.Lookup("set").Usage = "override a field or param with each of a list of values, PATH=V1,V2,… (repeatable), e.g. --set 'delta=0.5us,1us,2us'"
	format := registerFormat(fs, "print one JSON object a point (times in seconds)")
	comparePrim := fs.String("compare", "", "compare the model `PRIMITIVE` (e.g. MPI.bcast) with its simulation at every point, as compare does; --op then overrides the simulated operation")
	var lf loadFlags
	lf.register(fs)
	program := fs.String("run", "", "run `PROGRAM` at every point, as run does (a file, a program's name, or statements), analytic and simulated unless --analytic or --simulate")
	var rf runFlags
	fs.Var(argSweep{&sets}, "arg", "a program parameter's values for --run, NAME=V1,V2,… (repeatable), e.g. --arg 'n=1KB,4KB'")
	fs.IntVar(&rf.ranks, "ranks", 0, "number of ranks of a --run program (default: one per processor)")
	fs.StringVar(&rf.mapping, "map", "linear", "place a --run program's ranks: linear, random, a FILE of processor ids or an EXPR in rank and ranks")
	fs.BoolVar(&rf.analytic, "analytic", false, "with --run, the analytic answer only")
	fs.BoolVar(&rf.simulate, "simulate", false, "with --run, the simulated answer only")
	plotFile := fs.String("plot", "", "also draw the swept value against latency, makespan or the compared cost, one line per series, to `FILE` (.svg, or .png at 200 dpi, 1200 pixels wide or more)")
	measuredFile := fs.String("measured", "", "measured times by message size, from `FILE` (CSV or JSON lines with size and time columns, as parasol fit reads; with src and dst columns, the rows of --src and --dst): each point's text line is followed by the time measured at its size, and --plot draws them")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "points simulated at once")
	var shard shardFlag
	fs.Var(&shard, "shard", "run only shard `I/N`: the points i with i % N == I (auto: I and N from $SLURM_ARRAY_TASK_ID and $SLURM_ARRAY_TASK_COUNT, or $JOB_COMPLETION_INDEX and --shards; default: the whole sweep)")
	shards := fs.Int("shards", 0, "the number of shards for --shard auto with $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions), or overriding $SLURM_ARRAY_TASK_COUNT")
	return func(pos []string) error {
		// --ranks as run checks it: 0 is not "one per processor" (leave
		// the flag out for that).
		counts := append(sf.countFlags(), countFlag{"workers", int64(*workers), 1, math.MaxInt32}, countFlag{"shards", int64(*shards), 1, math.MaxInt32},
			countFlag{"ranks", int64(rf.ranks), 1, eval.MaxRanks})
		if err := checkCounts("sweep", fs, counts); err != nil {
			return err
		}
		if len(pos) != 1 {
			return argsError("parasol sweep: need exactly one MACHINE")
		}
		if err := checkPlotFile("sweep", *plotFile); err != nil {
			return err
		}
		if err := lf.check(fs); err != nil {
			return err
		}
		opSet := false
		fs.Visit(func(f *flag.Flag) { opSet = opSet || f.Name == "op" })
		a := &sweepArgs{spec: pos[0], sf: sf, rf: rf, lf: lf, axes: sets, sizes: sizes.vals, routings: routings, switchings: switchings,
			compare: *comparePrim, program: *program, measuredFile: *measuredFile, plotFile: *plotFile, workers: *workers, opSet: opSet}
		if err := a.check(); err != nil {
			return err
		}
		s, points, err := a.sweep()
		if err != nil {
			return err
		}
		if *plotFile != "" && !plotsAlongX(sets, len(a.sizes) > 1, len(s.Loads) > 1) {
			// Said before the points run, not after.
			return usageError("parasol sweep: --plot %s: nothing to draw along x: sweep a size or a --set with numeric values", *plotFile)
		}
		var measured map[int64]float64
		if *measuredFile != "" {
			opts := sf.options()
			mt, err := loadMeasured(*measuredFile, sf.memory(), opts.Src, opts.Dst)
			if err != nil {
				return err
			}
			if err := checkMeasured(mt, *measuredFile, a.sizes); err != nil {
				return err
			}
			measured = mt.Times
		}
		total := len(points)
		// The scheduler's environment shards a sweep only when --shard auto
		// asks for it, as sim's: a job array whose tasks each run a whole
		// sweep keeps every point.
		if shard.auto {
			if shard, err = autoShard("sweep", *shards); err != nil {
				return err
			}
		}
		if shard.set {
			points = shard.Select(points)
		}
		out := &sweepWriter{e: e, format: format.value, total: total, axes: sets, measured: measured, plot: *plotFile != ""}
		if out.plot && e.stdout == os.Stdout {
			// A closed pipe on stdout must not kill the sweep before it
			// writes the plot: writing to it then fails with an error
			// instead, which is reported after the plot is written.
			signal.Ignore(syscall.SIGPIPE)
		}
		if e.isTerminal {
			out.bar = newProgress(e.stderr, len(points), "points")
			defer out.bar.done()
		}
		if shard.set {
			// A shard's output starts with its study, for merge to join
			// only shards of one sweep; the whole sweep's has none.
			if _, err := io.WriteString(e.stdout, sweepStudy(fs, pos[0], s.Machine.SourceHash(), format.value, sets).Line(format.value)); err != nil {
				return err
			}
		}
		if format.value == outCSV {
			// The header comes first even from a shard with no points, so
			// that every shard's output is a table merge can join.
			if err := results.WriteTable(e.stdout, a.csvHeader(s), nil); err != nil {
				if !out.plot {
					return err
				}
				out.stdoutErr = err
			}
		}
		ctx, stop := e.interruptible()
		defer stop()
		if len(points) == 0 {
			return nil // a shard beyond the points
		}
		if err := s.Run(ctx, points, out.emit, out.pointDone); err != nil {
			return a.pointError(err)
		}
		if *plotFile != "" {
			spec, err := sweepPlotSpec(out.plotted, sets, len(routings) > 1, len(switchings) > 1, len(a.sizes) > 1, len(s.Loads) > 1)
			if err := writePlot("sweep", *plotFile, spec, err); err != nil {
				if out.stdoutErr != nil {
					return fmt.Errorf("%v; and writing the points: %v", err, out.stdoutErr)
				}
				return err
			}
		}
		if out.stdoutErr != nil {
			return out.stdoutErr
		}
		if out.deadlock {
			return &exitError{code: exitDeadlock}
		}
		return nil
	}
}

// notStudy are the flags of sweep that say how it runs, not what it
// prints: they are not in its study. --format and --json are the study's
// Format; --set and --arg its Axes.
var notStudy = map[string]bool{"shard": true, "shards": true, "workers": true, "max-memory": true, "plot": true,
	"format": true, "json": true, "set": true, "arg": true}

// sweepStudy is the identity of the sweep fs was parsed for, on machine
// spec of text machineHash: every flag that shapes its output and differs
// from its default, and its axes.
func sweepStudy(fs *flag.FlagSet, spec, machineHash, format string, axes setSweep) *results.Study {
	var flags, axs []results.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if v := f.Value.String(); !notStudy[f.Name] && v != f.DefValue {
			flags = append(flags, results.Flag{Name: f.Name, Value: v})
		}
	})
	for _, ax := range axes {
		name := "set"
		if ax.Arg {
			name = "arg"
		}
		axs = append(axs, results.Flag{Name: name, Value: ax.Path + "=" + strings.Join(ax.Values, ",")})
	}
	return results.NewStudy("sweep", spec, machineHash, format, flags, axs)
}

// sweepArgs are sweep's flags as given, from which the study is built.
type sweepArgs struct {
	spec                   string
	sf                     simFlags
	rf                     runFlags
	lf                     loadFlags
	axes                   setSweep
	sizes                  []int64
	routings, switchings   []string
	compare, program       string
	measuredFile, plotFile string
	workers                int
	opSet                  bool // --op was given
}

// check reports flags that do not go together as usage errors, and
// fills in what the others leave to a default.
func (a *sweepArgs) check() error {
	if a.compare != "" && a.program != "" {
		return usageError("parasol sweep: --compare and --run: give one of them")
	}
	if a.rf.analytic && a.rf.simulate {
		return usageError("parasol sweep: --analytic and --simulate: give one of them, or neither for both")
	}
	if a.program == "" {
		for _, ax := range a.axes {
			if ax.Arg {
				return usageError("parasol sweep: --arg %s sets a program's parameter; give the program with --run", ax.Path)
			}
		}
	} else if len(a.sizes) > 0 {
		return usageError("parasol sweep: --size is a message size of --op and --compare; a --run program takes its sizes as --arg values")
	}
	if a.compare != "" && !a.opSet {
		a.sf.op = "" // the operation that implements the primitive
	}
	if len(a.sizes) == 0 {
		a.sizes = []int64{a.sf.size.bytes()}
		if a.compare != "" {
			a.sizes = []int64{eval.CompareSize} // as compare's
		}
	}
	if a.measuredFile != "" && (a.program != "" || a.lf.load.points != nil) {
		by := "--run"
		if a.program == "" {
			by = "--load"
		}
		return usageError("parasol sweep: --measured sets measured times beside the message sizes of --op or --compare; %s has none", by)
	}
	if a.lf.load.points != nil && (a.compare != "" || a.program != "") {
		return usageError("parasol sweep: --load is offered traffic of --op; it does not go with --compare or --run")
	}
	return nil
}

// sweep builds the study and its points, and validates it: the machine
// is loaded once, with the first point's values (a machine may need
// them), and every point derives its own from it.
func (a *sweepArgs) sweep() (*study.Sweep, []study.Point, error) {
	sf := &a.sf
	s := &study.Sweep{Options: sf.options(), Compare: a.compare, Axes: a.axes,
		Routings: a.routings, Switchings: a.switchings, Sizes: a.sizes, Workers: a.workers,
		Record: *newRunInfo("sweep", a.spec, nil, &sf.machineFlags)}
	if sf.packet.set {
		payload := int(sf.packet.bytes())
		s.Packet = &payload
	}
	if a.lf.load.points != nil {
		s.Loads = a.lf.traffic().Apply(a.lf.load.points)
	}
	if a.program != "" {
		s.Program = a.programFunc()
		// Points are spread over the workers already: each works out
		// its answers one after the other (Workers 1).
		s.ProgramOptions = program.RunOptions{Analytic: a.rf.analytic, Simulated: a.rf.simulate, Workers: 1,
			ProgramOptions: prt.ProgramOptions{MaxEvents: sf.maxEvents, MaxMemory: sf.memory()}}
	}
	s.Check = func(rs *prt.Spec, p study.Point) error {
		sf := a.sf
		sf.routing, sf.switching = p.Routing, p.Switching
		return sf.validate(rs)
	}
	points, err := s.Points()
	if err != nil {
		return nil, nil, usageError("parasol sweep: %v", err)
	}
	first, _ := points[0].MachineSets(s.Axes)
	// The points' machines are derived from this one by the workers at
	// once: the sweep's progress bar is the one shown, not the loading's
	// (eval.WithProgress), which they would share.
	mf := sf.machineFlags
	if mf.env != nil {
		quiet := *mf.env
		quiet.isTerminal = false
		mf.env = &quiet
	}
	mf.sets = first
	if s.Machine, err = mf.load(a.spec); err != nil {
		return nil, nil, err
	}
	if err := a.validate(s, points[0]); err != nil {
		return nil, nil, err
	}
	return s, points, nil
}

// validate builds the first point's network, each value of each --set
// axis (the others at their first), and checks the compared primitive,
// every routing and every switching before anything runs, so that a
// misspelt name or a wrong value is a usage error rather than a failure
// halfway. Every --arg value is read and evaluated in the machine's scope,
// as the program will, an axis's values must be of one kind, and each must
// be one the program's parameter takes, so that 'n=1KB,abc' and 'n=4us'
// for a size n fail before point 0 runs.
func (a *sweepArgs) validate(s *study.Sweep, first study.Point) error {
	sets, _ := first.MachineSets(s.Axes)
	m, rs, err := s.Network(sets)
	if err != nil {
		return a.pointError(err)
	}
	var prog *eval.Program
	if a.program != "" && scheduleKind(a.program) == "" {
		rf := a.rf
		rf.machineFlags = a.sf.machineFlags
		if prog, _, err = rf.loadProgram(m, a.program); err != nil {
			return err
		}
	}
	if err := checkArgAxes(m, prog, s.Axes); err != nil {
		return err
	}
	// The primitive is a command-line argument, as compare's is.
	if a.compare != "" {
		if _, err := lookupFunc(m, a.compare); err != nil {
			return usageError("parasol sweep: --compare %s: %v", a.compare, err)
		}
		if _, ok := eval.CounterpartOf(a.compare); !ok && a.sf.op == "" {
			return usageError("parasol sweep: --compare %s: no operation simulates it; name one with --op", a.compare)
		}
	}
	for i, ax := range s.Axes {
		if ax.Arg {
			continue
		}
		for _, v := range ax.Values[1:] {
			p := study.Point{Sets: slices.Clone(first.Sets)}
			p.Sets[i].Value = v
			sets, _ := p.MachineSets(s.Axes)
			if _, _, err := s.Network(sets); err != nil {
				return a.pointError(err)
			}
		}
	}
	routings, switchings := a.routings, a.switchings
	if len(routings) == 0 {
		routings = []string{""}
	}
	if len(switchings) == 0 {
		switchings = []string{""}
	}
	seen := map[[2]string]bool{}
	for _, r := range routings {
		for _, sw := range switchings {
			if k := [2]string{r, sw}; !seen[k] {
				seen[k] = true
				if err := s.Check(rs, study.Point{Routing: r, Switching: sw}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// plotsAlongX reports whether --plot has an axis to draw along x, as
// sweepPlotSpec chooses it: more than one size or load, or a --set or
// --arg axis whose values are all quantities of one dimension.
func plotsAlongX(sets setSweep, sizes, loads bool) bool {
	if sizes || loads {
		return true
	}
	for _, ax := range sets {
		if len(ax.Values) < 2 {
			continue
		}
		numeric := true
		var dim lang.Dim
		for i, v := range ax.Values {
			q, err := lang.ParseQuantity(v)
			if err != nil || q.Kind != lang.Number || i > 0 && q.Dim != dim {
				numeric = false
				break
			}
			dim = q.Dim
		}
		if numeric {
			return true
		}
	}
	return false
}

// checkArgAxes evaluates each value of each --arg axis on m, the error of
// a value naming it ("--arg n=abc: 1:1: unknown name abc"), and refuses
// an axis whose values are of different kinds or dimensions, or a value
// prog's parameter does not take (prog nil: not checked).
func checkArgAxes(m *eval.Machine, prog *eval.Program, axes []study.Axis) error {
	for _, ax := range axes {
		if !ax.Arg {
			continue
		}
		var kind0 lang.Value
		for k, v := range ax.Values {
			e, err := parser.ParseExpr("--arg "+ax.Path+"="+v, v)
			if err != nil {
				return err
			}
			val, err := m.EvalExpr(e)
			if err != nil {
				return err
			}
			if prog != nil {
				// As the program takes it: 1024 for a size n is 1024 B.
				if val, err = prog.ArgValue(ax.Path, val); err != nil {
					return usageError("parasol sweep: --arg %s=%s: %v", ax.Path, v, err)
				}
			}
			if k == 0 {
				kind0 = val
			} else if val.Kind != kind0.Kind || val.Kind == lang.Number && val.Dim != kind0.Dim {
				return usageError("parasol sweep: --arg %s=%s: a %s, where %s=%s is a %s", ax.Path, v, val.TypeName(), ax.Path, ax.Values[0], kind0.TypeName())
			}
		}
	}
	return nil
}

// pointError is an error of building or running a point as the command
// line reports it: a --topology the machine cannot give, or a simulation
// option it cannot honour, is a usage error naming the flag.
func (a *sweepArgs) pointError(err error) error {
	if a.program != "" {
		return err
	}
	return optionUsage("sweep", err)
}

// csvHeader is the sweep's CSV header: the point's parameters (one
// column per --set and --arg axis), then the figures' columns.
func (a *sweepArgs) csvHeader(s *study.Sweep) []string {
	h := results.SweepHeader(study.Columns(s.Axes))
	switch {
	case s.Program != nil:
		return append(h, results.ProgramPointHeader...)
	case len(s.Loads) > 0:
		return append(h, results.LoadHeader...)
	case s.Compare != "":
		return append(h, results.CompareHeader...)
	}
	return append(h, results.SimHeader...)
}

// sweepWriter prints a sweep's points as they come, in the format asked
// for, keeps what --plot draws, and shows the progress on a terminal.
type sweepWriter struct {
	e        *env
	format   string
	total    int // the whole sweep's points, not the shard's
	axes     setSweep
	measured map[int64]float64 // fit.Medians.Times of --measured
	plot     bool
	plotted  []plottedPoint
	deadlock bool
	// stdoutErr is the first error printing a point when there is a plot
	// to draw: the sweep goes on for the plot, printing no more, and
	// reports it after writing the plot.
	stdoutErr error

	mu        sync.Mutex // the progress bar and the output share the terminal
	bar       *progress
	completed int
}

// pointDone moves the progress bar on as a point finishes.
func (w *sweepWriter) pointDone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.completed++
	if w.bar != nil {
		// The bar's label carries the estimate: the rest at the pace so far.
		elapsed := time.Since(w.bar.start)
		left := elapsed * time.Duration(w.bar.total-w.completed) / time.Duration(w.completed)
		w.bar.label = "points, ETA " + left.Round(time.Second).String()
		w.bar.update(w.completed, w.bar.total)
	}
}

// emit prints a point's result and keeps it for the plot. With a plot to
// draw, a failing stdout (a closed pipe) stops the printing, not the
// sweep: the plot is an output of its own.
func (w *sweepWriter) emit(r *study.Result) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.bar != nil {
		w.bar.done()
	}
	if w.plot {
		pp := plottedPoint{p: r.Point, res: r.Sim, cmp: r.Compare, run: r.Answers, load: r.Load}
		pp.measured, pp.hasMeasured = w.measured[r.Point.Size]
		w.plotted = append(w.plotted, pp)
	}
	if r.Answers != nil {
		w.deadlock = w.deadlock || results.Deadlocked(r.Answers)
	} else {
		w.deadlock = w.deadlock || r.Sim.Deadlock
	}
	err := w.print(r)
	if err != nil && w.plot {
		w.stdoutErr, err = cmp.Or(w.stdoutErr, err), nil
	}
	return err
}

// print prints a point's result, unless printing failed before.
func (w *sweepWriter) print(r *study.Result) error {
	if w.stdoutErr != nil {
		return nil
	}
	k := results.Key{Point: r.Point.Index, Points: w.total}
	switch w.format {
	case outJSON:
		var rec any
		switch {
		case r.Answers != nil:
			rec = results.SweepProgram{Key: k, ProgramRun: results.NewProgramRun(r.Program.Info, r.Answers, r.Run)}
		case r.Load != nil:
			rec = results.SweepLoad{Key: k, LoadResult: r.Load, Run: r.Run}
		case r.Compare != nil:
			j := newCompareJSON(r.Compare, r.Machine)
			j.Run = r.Run
			rec = results.SweepCompare{Key: k, Compare: j}
		default:
			rec = results.SweepSim{Key: k, Result: r.Sim, Run: r.Run}
		}
		return results.NewEncoder(w.e.stdout).Encode(rec)
	case outCSV:
		size := "" // a program's point has no message size
		if r.Run.Size != nil {
			size = strconv.FormatInt(r.Point.Size, 10)
		}
		row := results.SweepParams(k, size, r.Run.Routing, r.Run.Switching, *r.Run.Seed, r.Point.Values())
		switch {
		case r.Answers != nil:
			row = append(row, results.ProgramPointRow(r.Program.Info, r.Answers)...)
		case r.Load != nil:
			row = append(row, results.LoadRow(r.Load)...)
		case r.Compare != nil:
			row = append(row, results.CompareRow(r.Compare)...)
		default:
			row = append(row, results.SimRow(r.Sim)...)
		}
		return results.WriteRows(w.e.stdout, [][]string{row})
	}
	printSweepLine(w.e.stdout, k, r)
	if r.Answers == nil && r.Load == nil {
		printMeasuredLine(w.e.stdout, w.measured, r)
	}
	return nil
}

// printSweepLine is a point as text: its parameters and the figures a
// study plots.
func printSweepLine(w io.Writer, k results.Key, r *study.Result) {
	var b strings.Builder
	b.WriteString(results.SweepText(k))
	if r.Answers == nil {
		fmt.Fprintf(&b, "size %s, ", fit.SizeLiteral(r.Point.Size))
	}
	fmt.Fprintf(&b, "routing %s, switching %s", r.Run.Routing, r.Run.Switching)
	for _, s := range r.Point.Sets {
		fmt.Fprintf(&b, ", %s=%s", s.Path, s.Value)
	}
	if r.Answers != nil {
		printSweepRun(&b, r.Answers)
		fmt.Fprintln(w, b.String())
		return
	}
	if r.Load != nil {
		printSweepLoad(&b, r.Load)
		fmt.Fprintln(w, b.String())
		return
	}
	res := r.Sim
	if c := r.Compare; c != nil {
		fmt.Fprintf(&b, ": %s analytic %s", c.Primitive, dur(c.Analytic))
		if !res.Deadlock && !res.Partial {
			fmt.Fprintf(&b, ", simulated %s (%s of op %s)", dur(c.Simulated), c.Metric, c.Op)
			if c.Analytic != 0 {
				fmt.Fprintf(&b, ", difference %s", signedPercent(c.Difference))
			}
		}
	} else if res.Messages > 0 {
		fmt.Fprintf(&b, ": latency mean %s p99 %s", dur(res.Latency.Mean), dur(res.Latency.P99))
	} else {
		b.WriteString(":")
	}
	if r.Compare == nil {
		fmt.Fprintf(&b, ", makespan %s", dur(res.Makespan))
	}
	if res.Deadlock {
		fmt.Fprintf(&b, ", DEADLOCK in %d run%s", res.DeadlockRuns, plural(res.DeadlockRuns))
	}
	if res.Partial {
		b.WriteString(", PARTIAL")
	}
	fmt.Fprintln(w, b.String())
}
