package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/lang"
	prt "github.com/parasol-lang/parasol/runtime"
)

// maxSweepPoints bounds the cross product, so that a mistyped range is a
// message rather than a run that never ends.
const maxSweepPoints = 1_000_000

// sizeSweep is sweep's --size: a list (1KB,2KB,8KB) or a geometric range
// (32..64KB*2); repeated flags append.
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
			return nil, fmt.Errorf("%q: a range is LO..HI*FACTOR, e.g. 32..64KB*2", v)
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
		if math.Log(float64(b)/float64(a))/math.Log(f) > maxSweepPoints {
			return nil, fmt.Errorf("%q: more than %d sizes", v, maxSweepPoints)
		}
		var out []int64
		// Multiplying the float avoids the drift of rounded steps: 10..100*1.5
		// is 10, 15, 22.5→23, 33.75→34, … as the exact sequence rounds.
		for x := float64(a); math.Round(x) <= float64(b)*(1+1e-12); x *= f {
			n := int64(math.Round(x))
			if len(out) == 0 || out[len(out)-1] != n {
				out = append(out, n)
			}
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

// setAxis is one --set of a sweep, or with arg one --arg of a program
// sweep: a path (or parameter name) and the values it takes.
type setAxis struct {
	path   string
	values []string
	arg    bool
}

// column names the axis in CSV headers and plot legends.
func (ax setAxis) column() string {
	if ax.arg {
		return "arg:" + ax.path
	}
	return ax.path
}

type setSweep []setAxis

func (s *setSweep) String() string { return "" }

func (s *setSweep) Set(v string) error {
	set, err := eval.ParseSet(v)
	if err != nil {
		return err
	}
	ax := setAxis{path: set.Path}
	for _, p := range splitList(set.Value) {
		if p == "" {
			return fmt.Errorf("--set %q: an empty value in the list", v)
		}
		ax.values = append(ax.values, p)
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
	ax := setAxis{path: name, arg: true}
	for _, p := range splitList(values) {
		if p == "" {
			return fmt.Errorf("--arg %q: an empty value in the list", v)
		}
		ax.values = append(ax.values, p)
	}
	*a.axes = append(*a.axes, ax)
	return nil
}

// sweepPoint is one point of the cross product.
type sweepPoint struct {
	index              int
	sets               []eval.Set // one per axis, --arg axes included (see setSweep)
	routing, switching string
	size               int64
	load               *prt.Load // an open-loop point (--load), or nil
}

// machineSets are the point's --set values; args its program parameters.
func (p sweepPoint) machineSets(axes setSweep) (sets []eval.Set, args map[string]string) {
	for i, ax := range axes {
		if ax.arg {
			if args == nil {
				args = map[string]string{}
			}
			args[ax.path] = p.sets[i].Value
		} else {
			sets = append(sets, p.sets[i])
		}
	}
	return sets, args
}

// crossProduct enumerates the points in their fixed order: the --set
// axes in command-line order, then routing, then switching, then size,
// the last varying fastest (as nested loops written in that order).
func crossProduct(sets setSweep, routings, switchings []string, sizes []int64, loads []prt.Load) ([]sweepPoint, error) {
	if len(routings) == 0 {
		routings = []string{""}
	}
	if len(switchings) == 0 {
		switchings = []string{""}
	}
	dims := []int{}
	total := 1
	for _, ax := range sets {
		dims = append(dims, len(ax.values))
	}
	dims = append(dims, len(routings), len(switchings), len(sizes), max(len(loads), 1))
	for _, d := range dims {
		if total > maxSweepPoints/max(d, 1) {
			return nil, fmt.Errorf("the sweep has more than %d points", maxSweepPoints)
		}
		total *= d
	}
	points := make([]sweepPoint, total)
	idx := make([]int, len(dims))
	for i := range points {
		// idx is i in the mixed radix of dims, the last digit fastest.
		r := i
		for d := len(dims) - 1; d >= 0; d-- {
			idx[d] = r % dims[d]
			r /= dims[d]
		}
		p := sweepPoint{index: i}
		for a, ax := range sets {
			p.sets = append(p.sets, eval.Set{Path: ax.path, Value: ax.values[idx[a]]})
		}
		n := len(sets)
		p.routing, p.switching, p.size = routings[idx[n]], switchings[idx[n+1]], sizes[idx[n+2]]
		if len(loads) > 0 {
			p.load = &loads[idx[n+3]]
		}
		points[i] = p
	}
	return points, nil
}

// pointSeed derives point i's base seed from the sweep's (splitmix64), so
// a point's result depends on neither the worker count nor the other
// points, and `parasol sim --seed` with the seed its "run" names
// reproduces it.
func pointSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// sweepJSON is one line of sweep's JSON: the point's index (which merge
// orders by) and the sweep's point count, runtime.Result's keys, then "run" with the point's
// parameters.
type sweepJSON struct {
	Point  int `json:"point"`
	Points int `json:"points"` // in the whole sweep, for merge to find missing shards
	*prt.Result
	Run *runInfo `json:"run"`
}

// sweepCompareJSON is one line of `sweep --compare`'s JSON: the point's
// index and the sweep's count, then compare's object (with its "run").
type sweepCompareJSON struct {
	Point  int `json:"point"`
	Points int `json:"points"`
	compareJSON
}

// pointResult is what running a point produced: a simulation, with
// --compare a comparison (whose Result is res), or with --run a program's
// answers (res nil).
type pointResult struct {
	res  *prt.Result
	cmp  *prt.Comparison
	load *prt.LoadResult // an open-loop point's (its Result is res)
	prog *runProgram
	run2 *prt.RunResult
	m    *eval.Machine
	run  *runInfo
	err  error
}

type sweeper struct {
	e       *env
	spec    string
	base    simFlags
	axes    setSweep
	points  []sweepPoint
	workers int    // points run at once
	compare string // a model primitive to compare at every point, or ""
	program string // a program to run at every point, or ""
	rf      runFlags
}

// runPoint simulates one point with its own flags.
func (s *sweeper) runPoint(ctx context.Context, p sweepPoint, inner int) pointResult {
	if s.program != "" {
		return s.runProgramPoint(ctx, p, inner)
	}
	sf := s.base
	sets, _ := p.machineSets(s.axes)
	sf.sets = setList(sets)
	sf.routing, sf.switching = p.routing, p.switching
	sf.size = sizeFlag(p.size, 0)
	sf.size.set = true
	sf.seed = pointSeed(s.base.seed, p.index)
	m, rs, err := sf.network(s.spec)
	if err != nil {
		return pointResult{err: err}
	}
	if err := sf.validate(rs); err != nil {
		return pointResult{err: err}
	}
	opts := sf.options()
	opts.Workers = inner
	if p.load != nil {
		opts.Runs = 0
		lr, err := prt.Offered(ctx, rs, opts, *p.load)
		if lr == nil {
			return pointResult{err: optionUsage(sf.cmd, err)}
		}
		run := sf.runInfo(s.spec, m, rs, opts.Size)
		run.Runs = 0
		return pointResult{res: lr.Result, load: lr, m: m, run: run, err: err}
	}
	if s.compare != "" {
		c, err := prt.Compare(ctx, m, rs, s.compare, opts)
		if err != nil {
			return pointResult{err: optionUsage(sf.cmd, err)}
		}
		run := sf.runInfo(s.spec, m, rs, c.MessageSize)
		run.Op = c.Op
		return pointResult{res: c.Result, cmp: c, m: m, run: run}
	}
	res, err := prt.Simulate(ctx, rs, opts)
	if err != nil && res == nil {
		return pointResult{err: optionUsage(sf.cmd, err)}
	}
	return pointResult{res: res, m: m, run: sf.runInfo(s.spec, m, rs, opts.Size), err: err}
}

// run simulates the points over s.workers goroutines and hands each
// result to emit in point order, as soon as it and those before it are
// done. The first error stops the sweep.
func (s *sweeper) run(ctx context.Context, emit func(sweepPoint, pointResult) error, onDone func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := max(1, min(s.workers, len(s.points)))
	inner := max(1, s.workers/workers)
	out := make([]chan pointResult, len(s.points))
	for i := range out {
		out[i] = make(chan pointResult, 1)
	}
	var wg sync.WaitGroup
	defer func() {
		cancel() // on an error, the points not yet needed stop at once
		wg.Wait()
	}()
	sem := make(chan struct{}, workers)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, p := range s.points {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.runPoint(ctx, p, inner)
				<-sem
				onDone()
				out[i] <- r
			}()
		}
	}()
	for i, p := range s.points {
		var r pointResult
		select {
		case r = <-out[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.res == nil && r.run2 == nil {
			return r.err
		}
		if err := emit(p, r); err != nil {
			return err
		}
		if r.err != nil {
			return r.err
		}
	}
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

  --size 32..64KB*2         a geometric range: 32, 64, 128, … up to 64KB
  --size 1KB,2KB,8KB        a list (repeated --size flags append)
  --set 'delta=0.5us,1us'   the values of a field or param (repeatable)
  --routing ecube,random    routings
  --switching saf,wormhole  switchings
  --load 0.1:0.9:0.1        offered loads: each point an open-loop run as
                            sim --load runs one (--process, --warmup, --measure)
  --arg 'n=1KB,4KB'         with --run, values of a program's parameter

The points are numbered in a fixed order: the --set and --arg axes in
command-line order, then routing, then switching, then size, then load,
the last varying fastest.
Point i's seed is derived from --seed and i alone and is the "seed" of its
"run", so the output is the same bytes for any number of workers and
'parasol sim --seed' reproduces any point.

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
machine or many, share a sweep; in a Slurm job array I and N come from
$SLURM_ARRAY_TASK_ID and $SLURM_ARRAY_TASK_COUNT, in a Kubernetes Indexed
Job I from $JOB_COMPLETION_INDEX and N from --shards. 'parasol merge'
joins the shards' outputs (any one format) into the bytes the whole sweep
prints.

Examples:
  parasol sweep std:xmp64 --op transpose --size 32..4KB*2 --format csv
  parasol sweep examples/ring.machine --op alltoall --routing shortest,dor --set lanes=1,2 --json
  parasol sweep std:xmp64 --op alltoall --size 1KB,4KB --shard 1/3 --json > part1.jsonl
  parasol sweep std:xmp64 --compare MPI.bcast --size 0..4KB*2 --set 'h_off=200ns,400ns' --plot bcast.svg`,
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
	fs.Lookup("size").Usage = "message `SIZES`: a list (1KB,2KB,8KB) or a geometric range LO..HI*FACTOR (32..64KB*2) (default 32)"
	fs.Lookup("routing").Usage = "routing `FUNCTIONS`, a comma-separated list, overriding the machine: " + strings.Join(sortedKeys(prt.Routings), ", ")
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
	plotFile := fs.String("plot", "", "also draw the swept value against latency, makespan or the compared cost, one line per series, to `FILE` (.svg or .png)")
	measuredFile := fs.String("measured", "", "measured times by message size, from `FILE` (CSV or JSON lines with size and time columns, as parasol fit reads; with src and dst columns, the rows of --src and --dst): each point's text line is followed by the time measured at its size, and --plot draws them")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "points simulated at once")
	var shard shardFlag
	fs.Var(&shard, "shard", "run only shard `I/N`: the points i with i % N == I (default: from $SLURM_ARRAY_TASK_ID and $SLURM_ARRAY_TASK_COUNT, or $JOB_COMPLETION_INDEX and --shards; else the whole sweep; auto: from them, which must be set)")
	shards := fs.Int("shards", 0, "the number of shards, with $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions) or overriding $SLURM_ARRAY_TASK_COUNT")
	return func(pos []string) error {
		counts := append(sf.countFlags(), countFlag{"workers", int64(*workers), 1, math.MaxInt32}, countFlag{"shards", int64(*shards), 1, math.MaxInt32})
		if err := checkCounts("sweep", fs, counts); err != nil {
			return err
		}
		if len(pos) != 1 {
			return usageError("parasol sweep: need exactly one MACHINE\nUsage: parasol sweep [flags] MACHINE --op OP | --compare PRIMITIVE | --run PROGRAM")
		}
		if err := checkPlotFile("sweep", *plotFile); err != nil {
			return err
		}
		if err := lf.check(fs); err != nil {
			return err
		}
		if *comparePrim != "" && *program != "" {
			return usageError("parasol sweep: --compare and --run: give one of them")
		}
		if rf.analytic && rf.simulate {
			return usageError("parasol sweep: --analytic and --simulate: give one of them, or neither for both")
		}
		if *program == "" {
			for _, ax := range sets {
				if ax.arg {
					return usageError("parasol sweep: --arg %s sets a program's parameter; give the program with --run", ax.path)
				}
			}
		} else if len(sizes.vals) > 0 {
			return usageError("parasol sweep: --size is a message size of --op and --compare; a --run program takes its sizes as --arg values")
		}
		if *comparePrim != "" {
			opSet := false
			fs.Visit(func(f *flag.Flag) { opSet = opSet || f.Name == "op" })
			if !opSet {
				sf.op = "" // the operation that implements the primitive
			}
		}
		if len(sizes.vals) == 0 {
			sizes.vals = []int64{sf.size.bytes()}
		}
		if *measuredFile != "" && (*program != "" || lf.load.points != nil) {
			by := "--run"
			if *program == "" {
				by = "--load"
			}
			return usageError("parasol sweep: --measured sets measured times beside the message sizes of --op or --compare; %s has none", by)
		}
		var loads []prt.Load
		if lf.load.points != nil {
			if *comparePrim != "" || *program != "" {
				return usageError("parasol sweep: --load is offered traffic of --op; it does not go with --compare or --run")
			}
			proc, _ := prt.ParseProcess(lf.process.value)
			for _, l := range lf.load.points {
				l.Process, l.Warmup, l.Measure = proc, lf.warmup.v, lf.measure.v
				loads = append(loads, l)
			}
		}
		points, err := crossProduct(sets, routings, switchings, sizes.vals, loads)
		if err != nil {
			return usageError("parasol sweep: %v", err)
		}
		s := &sweeper{e: e, spec: pos[0], base: sf, axes: sets, points: points, workers: *workers, compare: *comparePrim, program: *program, rf: rf}
		if err := s.validate(); err != nil {
			return err
		}
		var measured measuredTimes
		if *measuredFile != "" {
			var pair string
			ends := []endpoint{{"src", sf.src.n, sf.src.set}, {"dst", sf.dst.n, sf.dst.set}}
			if measured, pair, err = loadMeasured(*measuredFile, sf.memory(), ends...); err != nil {
				return err
			}
			if err := measured.check(*measuredFile, pair, sizes.vals); err != nil {
				return err
			}
		}
		total := len(points)
		if shard.auto {
			if shard, err = autoShard("sweep", *shards); err != nil {
				return err
			}
		} else if !shard.set {
			var err error
			if shard, _, err = shardFromEnv(*shards); err != nil {
				return usageError("parasol sweep: %v", err)
			}
		}
		if shard.set {
			var mine []sweepPoint
			for _, p := range points {
				if p.index%shard.n == shard.i {
					mine = append(mine, p)
				}
			}
			s.points, points = mine, mine
		}

		var mu sync.Mutex // the progress bar and the output share the terminal
		var bar *progress
		completed := 0
		if e.isTerminal {
			bar = newProgress(e.stderr, len(points), "points")
			defer bar.done()
		}
		onDone := func() {
			mu.Lock()
			defer mu.Unlock()
			completed++
			if bar != nil {
				// The bar's label carries the estimate: the rest at the pace so far.
				elapsed := time.Since(bar.start)
				left := elapsed * time.Duration(len(points)-completed) / time.Duration(completed)
				bar.label = "points, ETA " + left.Round(time.Second).String()
				bar.update(completed, len(points))
			}
		}
		deadlock := false
		if format.value == outCSV {
			// The header comes first even from a shard with no points, so
			// that every shard's output is a table merge can join.
			if err := csvTable(e.stdout, s.csvHeader(), nil); err != nil {
				return err
			}
		}
		var plotted []plottedPoint
		emit := func(p sweepPoint, r pointResult) error {
			mu.Lock()
			defer mu.Unlock()
			if bar != nil {
				bar.done()
			}
			r.run.Command = "sweep"
			if *plotFile != "" {
				pp := plottedPoint{p: p, res: r.res, cmp: r.cmp, run: r.run2, load: r.load}
				pp.measured, pp.hasMeasured = measured[p.size]
				plotted = append(plotted, pp)
			}
			if r.run2 != nil {
				deadlock = deadlock || runFailure(r.run2) != nil
				return s.emitRun(e.stdout, format.value, p, total, r)
			}
			if r.load != nil {
				deadlock = deadlock || r.res.Deadlock
				return emitLoad(e.stdout, format.value, p, total, r)
			}
			deadlock = deadlock || r.res.Deadlock
			switch {
			case format.value == outJSON && r.cmp != nil:
				j := newCompareJSON(r.cmp, r.m)
				j.Run = r.run
				return newJSON(e.stdout).Encode(sweepCompareJSON{p.index, total, j})
			case format.value == outJSON:
				return newJSON(e.stdout).Encode(sweepJSON{p.index, total, r.res, r.run})
			case format.value == outCSV && r.cmp != nil:
				return csvRows(e.stdout, [][]string{append(sweepCSVParams(p, total, r.run), compareCSVRow(r.cmp)...)})
			case format.value == outCSV:
				return csvRows(e.stdout, [][]string{append(sweepCSVParams(p, total, r.run), simCSVRow(r.res)...)})
			default:
				printSweepLine(e.stdout, p, total, r)
				printMeasuredLine(e.stdout, measured, p, r)
				return nil
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		if len(points) == 0 {
			return nil // a shard beyond the points
		}
		if err := s.run(ctx, emit, onDone); err != nil {
			return err
		}
		if *plotFile != "" {
			spec, err := sweepPlotSpec(plotted, sets, len(routings) > 1, len(switchings) > 1, len(sizes.vals) > 1, len(loads) > 1)
			if err := writePlot("sweep", *plotFile, spec, err); err != nil {
				return err
			}
		}
		if deadlock {
			return &exitError{code: 3}
		}
		return nil
	}
}

// validate loads the machine with the first point's settings and checks
// the op, every routing and every switching before anything runs, so a
// misspelt name is a usage error rather than a failure halfway.
func (s *sweeper) validate() error {
	sf := s.base
	first, _ := s.points[0].machineSets(s.axes)
	sf.sets = setList(first)
	m, rs, err := sf.network(s.spec)
	if err != nil {
		return err
	}
	// The primitive is a command-line argument, as compare's is.
	if s.compare != "" {
		if _, err := m.Func(s.compare); err != nil {
			var ds lang.Diagnostics
			ds.Append(unwrapDiagnostics(err))
			if len(ds) == 1 {
				err = errors.New(ds[0].Msg)
			}
			return usageError("parasol sweep: --compare %s: %v", s.compare, err)
		}
		if _, ok := prt.CounterpartOf(s.compare); !ok && s.base.op == "" {
			return usageError("parasol sweep: --compare %s: no operation simulates it; name one with --op", s.compare)
		}
	}
	// Each value of each --set axis, the others at their first, so that a
	// wrong value is reported before the points before it have run.
	// A program's --arg values are checked as each point instantiates it.
	for a, ax := range s.axes {
		for _, v := range ax.values[1:] {
			if ax.arg {
				continue
			}
			p := sweepPoint{sets: append([]eval.Set(nil), s.points[0].sets...)}
			p.sets[a].Value = v
			sets, _ := p.machineSets(s.axes)
			sf.sets = setList(sets)
			if _, _, err := sf.network(s.spec); err != nil {
				return err
			}
		}
	}
	seen := map[[2]string]bool{}
	for _, p := range s.points {
		k := [2]string{p.routing, p.switching}
		if seen[k] {
			continue
		}
		seen[k] = true
		sf.routing, sf.switching = p.routing, p.switching
		if err := sf.validate(rs); err != nil {
			return err
		}
	}
	return nil
}

// sweepCSVHeader is sweep's CSV header: the point's parameters (one
// column per --set path), then sim's columns.
func sweepCSVHeader(sets setSweep, compare bool) []string {
	h := sweepCSVParamHeader(sets)
	if compare {
		return append(h, compareCSVHeader...)
	}
	return append(h, simCSVHeader...)
}

// sweepCSVParamHeader names the columns of a point's parameters.
func sweepCSVParamHeader(sets setSweep) []string {
	h := []string{"point", "points", "size", "routing", "switching", "seed"}
	for _, ax := range sets {
		h = append(h, ax.column())
	}
	return h
}

func (s *sweeper) csvHeader() []string {
	if s.program != "" {
		return append(sweepCSVParamHeader(s.axes), sweepRunCSVHeader...)
	}
	if s.points[0].load != nil {
		return append(sweepCSVParamHeader(s.axes), loadCSVHeader...)
	}
	return sweepCSVHeader(s.axes, s.compare != "")
}

// sweepCSVParams are a point's parameter columns; a program's point has
// no message size.
func sweepCSVParams(p sweepPoint, total int, run *runInfo) []string {
	size := ""
	if run.Size != nil {
		size = strconv.FormatInt(p.size, 10)
	}
	row := []string{strconv.Itoa(p.index), strconv.Itoa(total), size, run.Routing, run.Switching, strconv.FormatUint(*run.Seed, 10)}
	for _, s := range p.sets {
		row = append(row, s.Value)
	}
	return row
}

// printSweepLine is a point as text: its parameters and the figures a
// study plots.
func printSweepLine(w io.Writer, p sweepPoint, total int, r pointResult) {
	var b strings.Builder
	fmt.Fprintf(&b, "point %d/%d: ", p.index, total)
	if r.run2 == nil {
		fmt.Fprintf(&b, "size %s, ", fit.SizeLiteral(p.size))
	}
	fmt.Fprintf(&b, "routing %s, switching %s", r.run.Routing, r.run.Switching)
	for _, s := range p.sets {
		fmt.Fprintf(&b, ", %s=%s", s.Path, s.Value)
	}
	if r.run2 != nil {
		printSweepRun(&b, r.run2)
		fmt.Fprintln(w, b.String())
		return
	}
	if r.load != nil {
		printSweepLoad(&b, r.load)
		fmt.Fprintln(w, b.String())
		return
	}
	res := r.res
	if c := r.cmp; c != nil {
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
	if r.cmp == nil {
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
