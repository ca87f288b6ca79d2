package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// runFlags are run's flags.
type runFlags struct {
	machineFlags
	routing, switching          string
	model                       string
	analytic, simulate, compare bool
	ranks                       int
	mapping                     string
	args                        argList
	program                     string
	seed                        uint64
	maxEvents                   int64
	timeline, plot, trace       string
	workers                     int // cores the two answers may use (0: all)
	// samePoint: run on the machine given, whatever the rank count (a
	// sweep's point is the machine it says), not perRank's.
	samePoint bool
}

// argList collects --arg NAME=VALUE.
type argList map[string]string

func (a *argList) String() string { return "" }

func (a *argList) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q: want NAME=VALUE", v)
	}
	if *a == nil {
		*a = argList{}
	}
	(*a)[name] = value
	return nil
}

// runCmd is parasol run.
var runCmd = &command{
	name:    "run",
	summary: "predict a program's time on a machine, analytically and by simulation",
	args:    "[flags] MACHINE PROGRAM",
	doc: `
Run predicts how long a program takes on a machine, and where each rank's
time goes. PROGRAM is
  a GOAL schedule (FILE.goal, LogGOPSim's format, read as it is),
  a message trace (FILE.csv or FILE.jsonl: src, dst, bytes, and time or after),
  a file of programs (or a machine file with programs; --program NAME picks one),
  the name of a program in the machine's own file (or give it as --program NAME),
  or program statements inline: 'if rank == 0 { compute(10us) } barrier()'.

Two answers:
  --analytic   every operation costed by the machine's model section and
               processor timings, dependencies followed, no contention:
               the critical path.
  --simulate   ranks as processes on the packet-level network: sends inject
               packets that contend, receives match by source and tag (eager
               up to the machine's eager_limit, rendezvous above), computation
               occupies the processor's CPU, and a processor that is receiving
               or routing computes slower by its maxrecvdelay/maxroutedelay,
               or loses its router process's route_cpu_fixed/_per_byte.
               A processor with NIC fields (send_gap, cpus, …, itself or in
               a nic block it names; std:loggp) runs LogGOPS as LogGOPSim
               does, GOAL's cpu N and nic N too.
  --compare    both, and the simulated makespan's difference (the default).
               On a machine whose model section costs no message, the
               simulated answer is given alone, with one line saying why
               ("no_analytic" in JSON); --analytic is then that error.
With --compare and two cores (--workers, default: all) the analytic answer
is worked out beside the simulation when the memory limit holds both at
once; the output is the same bytes for any --workers.

The analytic answer is costed by the model section --model names, by
default MPI, or on a machine without an MPI section that costs a message
(a Parasol I machine) its PVM section, else its Express section; a section
other than MPI is named in the output ("model" in JSON).

The output gives the makespan, each rank's end and its time computing,
sending, receiving and waiting (summarised for more than 16 ranks), and the
critical path. --format json prints {"program", "makespan", "ranks":
[{"rank", "node", "end", "compute", "send", "recv", "wait"}],
"critical_path": [...], "run"}, with --compare {"analytic": {...},
"simulated": {...}, "difference"}; --format csv prints one row per rank and
answer. --timeline FILE writes every rank's spans as CSV (method, rank,
kind, start, end, op); --plot FILE draws them (.svg or .png). --trace
FILE.json writes the run as a Chrome/Perfetto trace ({"traceEvents": [...]};
open it at https://ui.perfetto.dev): each answer a process, each rank a
track of compute, send, recv and wait spans ("ph": "X") named by statement
and line, collectives as spans around their messages' spans, each message
an arrow ("ph": "s" to "f") from its send to its receive, and the
simulation's 64 busiest wires a track each with their busy times. A trace
estimated above ` + traceLimitText + ` is refused, not written.

Ranks map onto processors linearly unless --map says random, a FILE of one
processor id per line, or an EXPR in rank and ranks giving a processor
index; ranks on one processor share its CPU. A machine with a param P
(std:loggp) gets one processor per rank, P = the rank count, unless --set
P=… is given. A deadlock (ranks waiting for
messages that never come) is reported with the waiting ranks, exit status 3.

Examples:
  parasol run std:xmp64 examples/programs/ring.machine --arg n=4KB
  parasol run --json std:xmp64 'if rank == 0 { compute(10us) } barrier()'
  parasol run std:loggp --analytic eval/program/testdata/goal/dissemination_16_1.goal --set L=5us
  parasol run --ranks 2 --model Express examples/parasol1.machine 'if rank == 0 { send(1KB, to: 1) } else { recv(from: 0) }'`,
	flags: declareRun,
}

// declareRun declares run's flags on fs and returns the function that runs it.
func declareRun(e *env, fs *flag.FlagSet) func(pos []string) error {
	var rf runFlags
	rf.register(fs, e)
	format := registerFormat(fs, `print one JSON object: "program", the answer's "makespan", "ranks", "critical_path", or with --compare "analytic", "simulated" and "difference"; and "run"`)
	return func(pos []string) error {
		if err := checkPlotFile("run", rf.plot); err != nil {
			return err
		}
		if err := checkCounts("run", fs, []countFlag{{"ranks", int64(rf.ranks), 1, eval.MaxRanks}, {"max-events", rf.maxEvents, 0, 1<<63 - 1}, {"workers", int64(rf.workers), 1, math.MaxInt32}}); err != nil {
			return err
		}
		n := 0
		for _, b := range []bool{rf.analytic, rf.simulate, rf.compare} {
			if b {
				n++
			}
		}
		if n > 1 {
			return usageError("parasol run: --analytic, --simulate and --compare choose one answer or both; give one of them")
		}
		if len(pos) == 1 && rf.program != "" {
			pos = append(pos, rf.program)
		}
		if len(pos) > 2 {
			// Statements typed without quotes arrive as words; saying only
			// "need MACHINE and PROGRAM" would send the user looking for
			// what they did give.
			words := strings.Join(pos[1:], " ")
			return usageError("parasol run: one PROGRAM, got %d words (%s): quote program statements as one argument, 'if rank == 0 { compute(10us) } barrier()'", len(pos)-1, lang.Excerpt(words))
		}
		if len(pos) != 2 {
			return argsError("parasol run: need MACHINE and PROGRAM")
		}
		if rf.switching != "" {
			if _, err := runtime.ParseSwitching(rf.switching); err != nil {
				return usageError("parasol run: unknown switching %q; want saf, vct, wormhole or circuit", rf.switching)
			}
		}
		m, err := rf.load(pos[0])
		if err != nil {
			return err
		}
		// A model section the machine does not have is a mistake on the
		// command line; one that costs no message is the answer's note.
		var nm *program.NoModelError
		if _, err := program.ModelOf(m, rf.model); rf.model != "" && err != nil && !errors.As(err, &nm) {
			return usageError("parasol run: --model %s: %v", rf.model, err)
		}
		if rf.routing != "" {
			rs, err := m.Spec("")
			if err != nil {
				return err
			}
			if err := checkRouting("run", rf.routing, rs); err != nil {
				return err
			}
		}
		// Instantiating a large program or reading a long schedule takes
		// seconds: Ctrl-C is caught from here on, not only while running.
		ctx, stop := e.interruptible()
		defer stop()
		prog, err := rf.schedule(ctx, m, pos[1])
		if err != nil {
			return err
		}
		m = prog.m
		o := rf.options()
		o.Map = prog.mapping
		var done func()
		if e.isTerminal && format.value == outText {
			done = ticker(e.stderr)
		}
		res, err := program.Run(ctx, m, prog.s, o)
		if done != nil {
			done()
		}
		if err != nil && (res == nil || ctx.Err() == nil) {
			return err
		}
		interrupted := err
		if err := rf.writeFiles(res, prog.s); err != nil {
			return err
		}
		run := newRunInfo("run", pos[0], m, &rf.machineFlags)
		run.Routing, run.Switching = rf.routing, rf.switching
		if res.Simulated != nil {
			seed := rf.seed
			run.Seed = &seed
		}
		var notes []string
		if note := sharingNote(m, prog); note != "" {
			notes = append(notes, note)
		}
		switch format.value {
		case outJSON:
			pr := results.NewProgramRun(&prog.Program, res, run)
			pr.Notes = notes
			if err := results.NewEncoder(e.stdout).Encode(pr); err != nil {
				return err
			}
		case outCSV:
			if err := results.WriteTable(e.stdout, runCSVHeader, runCSVRows(res)); err != nil {
				return err
			}
			if err := results.WriteNotes(e.stdout, notes); err != nil {
				return err
			}
		default:
			printRun(e.stdout, m, prog, res, rf.maxEvents)
		}
		if interrupted != nil {
			return interrupted
		}
		return runFailure(res)
	}
}

func (rf *runFlags) register(fs *flag.FlagSet, e *env) {
	rf.machineFlags.register(fs, e)
	fs.IntVar(&rf.workers, "workers", 0, "cores to use (default: all): with two or more, the analytic answer is worked out beside the simulation when the memory limit holds both; each answer uses one, and the output is the same for any number")
	fs.StringVar(&rf.model, "model", "", "the model section that costs the analytic answer: MPI, PVM, Express or another the machine has (default: the first of "+strings.Join(program.ModelSections, ", ")+" that costs a message)")
	fs.BoolVar(&rf.analytic, "analytic", false, "give the analytic answer only: the critical path costed by the machine's model section")
	fs.BoolVar(&rf.simulate, "simulate", false, "give the simulated answer only: ranks on the packet-level network")
	fs.BoolVar(&rf.compare, "compare", false, "give both answers and their difference (the default)")
	fs.IntVar(&rf.ranks, "ranks", 0, "number of ranks of a program (default: one per processor)")
	fs.StringVar(&rf.mapping, "map", "linear", "place ranks on processors: linear, random, a FILE of processor ids or an EXPR in rank and ranks")
	fs.Var(&rf.args, "arg", "a program parameter, NAME=VALUE with units (repeatable), e.g. --arg n=4KB")
	fs.StringVar(&rf.program, "program", "", "the program to run, of a file or the machine's file with several")
	fs.Uint64Var(&rf.seed, "seed", 1, "random seed of the simulation (adaptive routing, --map random)")
	fs.Int64Var(&rf.maxEvents, "max-events", 0, "stop the simulation after this many events and report where it got (0: no limit)")
	fs.StringVar(&rf.routing, "routing", "", "routing function, overriding the machine: "+strings.Join(runtime.Routings(), ", "))
	fs.StringVar(&rf.switching, "switching", "", "switching, overriding the machine: saf, vct, wormhole, circuit")
	fs.StringVar(&rf.timeline, "timeline", "", "write every rank's spans (compute, send, recv, wait) as CSV to `FILE`")
	fs.StringVar(&rf.trace, "trace", "", "write the run as a Chrome/Perfetto trace (JSON) to `FILE`: a track per rank, messages as arrows, the analytic and simulated answers side by side; refused above "+traceLimitText)
	fs.StringVar(&rf.plot, "plot", "", "draw the per-rank timeline to `FILE` (.svg, or .png at 200 dpi, 1200 pixels wide or more)")
}

// traceLimitText is the --trace size limit as the help states it.
var traceLimitText = trace.LimitText(trace.DefaultMaxBytes)

// runProgram is the schedule run runs and what it came from.
type runProgram struct {
	results.Program
	s       *lang.Schedule
	mapping []int
	m       *eval.Machine // the machine it runs on (perRank)
}

// perRank gives a machine that counts its processors in a param P
// (std:loggp) one processor per rank, as LogGOPSim has one host per rank,
// unless --set P=… says how many; ranks 0 (one per processor) leaves it.
func (rf *runFlags) perRank(m *eval.Machine, ranks int) (*eval.Machine, error) {
	if ranks <= 0 || rf.samePoint {
		return m, nil
	}
	for _, s := range rf.sets {
		if s.Path == "P" {
			return m, nil
		}
	}
	v, err := m.Param("P")
	if err != nil || v.Kind != lang.Number || v.Num == float64(ranks) {
		return m, nil
	}
	return m.Derive(eval.Set{Path: "P", Value: strconv.Itoa(ranks), Source: "one processor per rank"})
}

// schedule reads PROGRAM and instantiates it on m.
func (rf *runFlags) schedule(ctx context.Context, m *eval.Machine, arg string) (*runProgram, error) {
	p := &runProgram{Program: results.Program{Source: arg, Map: rf.mapping, Args: rf.args}}
	switch scheduleKind(arg) {
	case "goal":
		s, err := readScheduleFile(arg, cancellable(ctx, func(r io.Reader) (*lang.Schedule, error) { return parser.ReadGOAL(r, arg, rf.memory()) }))
		if err != nil {
			return nil, err
		}
		p.Kind = "goal"
		return rf.fixed(m, p, s)
	case "trace":
		s, err := readScheduleFile(arg, cancellable(ctx, func(r io.Reader) (*lang.Schedule, error) { return parser.ReadTrace(r, arg, rf.memory()) }))
		if err != nil {
			return nil, err
		}
		p.Kind = "trace"
		return rf.fixed(m, p, s)
	}
	prog, kind, err := rf.loadProgram(m, arg)
	if err != nil {
		return nil, err
	}
	p.Kind = kind
	return rf.instantiate(ctx, m, p, prog)
}

// scheduleKind is what PROGRAM is: a GOAL schedule ("goal") or a message
// trace ("trace") by its file's extension, else a program ("").
func scheduleKind(arg string) string {
	st, err := os.Stat(arg)
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	switch strings.ToLower(filepath.Ext(arg)) {
	case ".goal":
		return "goal"
	case ".csv", ".jsonl", ".json":
		return "trace"
	}
	return ""
}

// loadProgram reads PROGRAM when it is a program of the language (kind
// "program": of a file, std:NAME, or named on m; "inline": a body given on
// the command line).
func (rf *runFlags) loadProgram(m *eval.Machine, arg string) (_ *eval.Program, kind string, _ error) {
	ext := strings.ToLower(filepath.Ext(arg))
	st, statErr := os.Stat(arg)
	isFile := statErr == nil && st.Mode().IsRegular()
	switch {
	case isFile || strings.HasPrefix(arg, "std:"):
		opts := []eval.Option{eval.WithMaxMemory(rf.memory())}
		if rf.program != "" && rf.program != arg {
			opts = append(opts, eval.WithProgram(rf.program))
		}
		prog, err := eval.LoadProgram(arg, opts...)
		return prog, "program", err
	case ext == ".goal" || ext == ".machine" || ext == ".csv" || ext == ".jsonl" || ext == ".json" || ext == ".parasol":
		// Missing, or not a regular file (a directory, a FIFO): ReadInput
		// refuses it before reading, in the words every input's error uses.
		if _, err := eval.ReadInput(arg, rf.memory()); err != nil {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("%s: not a regular file", arg)
	case isIdent(arg):
		prog, err := m.Program(arg)
		if err != nil {
			return nil, "", usageError("parasol run: %v", err)
		}
		return prog, "program", nil
	}
	prog, err := eval.ParseProgramBody(m, arg)
	return prog, "inline", err
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// readScheduleFile opens path and reads a schedule from it as it streams.
func readScheduleFile(path string, read func(io.Reader) (*lang.Schedule, error)) (*lang.Schedule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	return read(f)
}

// cancellable makes read stop with ctx.Err() once ctx is cancelled: the
// readers report a failed read as a diagnostic of the file, which would
// hide the interruption.
func cancellable(ctx context.Context, read func(io.Reader) (*lang.Schedule, error)) func(io.Reader) (*lang.Schedule, error) {
	return func(r io.Reader) (*lang.Schedule, error) {
		s, err := read(ctxReader{ctx, r})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return s, err
	}
}

// ctxReader fails its reads once ctx is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Size is the size of the file read, or 0 when it is no regular file:
// the schedule readers size their arrays by it.
func (c ctxReader) Size() int64 {
	if f, ok := c.r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return 0
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// fixed finishes a schedule whose rank count it states itself (GOAL,
// traces): --ranks must agree, --arg has nothing to set.
func (rf *runFlags) fixed(m *eval.Machine, p *runProgram, s *lang.Schedule) (*runProgram, error) {
	if rf.ranks != 0 && rf.ranks != s.Ranks {
		return nil, usageError("parasol run: --ranks %d, but %s has %d ranks", rf.ranks, p.Source, s.Ranks)
	}
	if len(rf.args) > 0 {
		return nil, usageError("parasol run: --arg sets a program's parameters; %s is a %s, which has none", p.Source, map[string]string{"goal": "GOAL schedule", "trace": "message trace"}[p.Kind])
	}
	m, err := rf.perRank(m, s.Ranks)
	if err != nil {
		return nil, err
	}
	p.m = m
	mapping, err := mapRanks(m, s.Ranks, rf.mapping, rf.seed)
	if err != nil {
		return nil, err
	}
	// A schedule is named after its file, as a program is by its block.
	name := strings.TrimSuffix(filepath.Base(p.Source), filepath.Ext(p.Source))
	p.Name, p.Ranks, p.Ops, p.s, p.mapping = name, s.Ranks, len(s.Ops), s, mapping
	return p, nil
}

// argErrors names the --arg flag in the diagnostics of err that point
// into an --arg value: "--arg n=abc: 1:1: unknown name abc", where the
// value's source was named after the parameter alone ("n:1:1:").
func argErrors(err error, args argList) error {
	var ds lang.Diagnostics
	var d *lang.Diagnostic
	switch {
	case errors.As(err, &ds):
	case errors.As(err, &d):
		ds = lang.Diagnostics{d}
	default:
		return err
	}
	named := map[*lang.Source]*lang.Source{}
	rename := func(p *lang.Pos) {
		src := p.Src
		if src == nil {
			return
		}
		if v, ok := args[src.Name]; !ok || v != src.Text {
			return
		}
		if named[src] == nil {
			flag := *src
			flag.Name = "--arg " + src.Name + "=" + src.Text
			named[src] = &flag
		}
		p.Src = named[src]
	}
	for _, d := range ds {
		rename(&d.Pos)
		rename(&d.End)
		for i := range d.Notes {
			rename(&d.Notes[i].Pos)
		}
	}
	return err
}

// mapRanks is eval.MapRanks, but a --map written as a file name (a path,
// or a name with an extension: maps/ring.txt) that names no file is
// reported as a missing file, not as the errors of an expression read from
// the file's name.
func mapRanks(m *eval.Machine, ranks int, how string, seed uint64) ([]int, error) {
	out, err := eval.MapRanks(m, ranks, how, seed)
	if err == nil || !fileName().MatchString(how) {
		return out, err
	}
	const kinds = "a --map is linear, random, a FILE of processor ids or an EXPR in rank and ranks"
	st, serr := os.Stat(how)
	switch {
	case serr == nil && st.IsDir():
		return nil, fmt.Errorf("--map %s: is a directory; %s", how, kinds)
	case errors.Is(serr, os.ErrNotExist):
		return nil, fmt.Errorf("--map %s: no such file; %s", how, kinds)
	}
	return out, err
}

// fileName is a --map that reads as a file name: it starts as a path does
// (/, ./, ../, ~) or ends in an extension (.txt), and holds nothing an
// expression would need but a file name would not (spaces, parentheses,
// operators other than / and -).
var fileName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:/|\./|\.\./|~)[\w./~-]*|[\w./~-]*\.[A-Za-z]\w*)$`)
})

// options are the run's options but for the mapping, which is known once
// the schedule is.
func (rf *runFlags) options() program.RunOptions {
	return program.RunOptions{Analytic: rf.analytic, Simulated: rf.simulate, Model: rf.model, Workers: rf.workers,
		ProgramOptions: runtime.ProgramOptions{Seed: rf.seed, MaxEvents: rf.maxEvents,
			MaxMemory: rf.memory(), Timeline: rf.timeline != "" || rf.plot != "" || rf.trace != "", Flows: rf.trace != "", Routing: rf.routing, Switching: rf.switching}}
}

// instantiate makes the schedule of a program for --ranks, --map and
// --arg.
func (rf *runFlags) instantiate(ctx context.Context, m *eval.Machine, p *runProgram, prog *eval.Program) (*runProgram, error) {
	m, err := rf.perRank(m, rf.ranks)
	if err != nil {
		return nil, err
	}
	p.m = m
	var mapping []int
	if rf.mapping != "linear" && rf.mapping != "" {
		var err error
		if mapping, err = mapRanks(m, rf.ranks, rf.mapping, rf.seed); err != nil {
			return nil, err
		}
	}
	// The answer's memory is counted as the program grows, so that one
	// too large to answer is refused before it has taken the memory.
	answer := program.RunFootprint(rf.options())
	s, err := prog.ScheduleContext(ctx, m, eval.ScheduleOptions{Ranks: rf.ranks, Map: mapping, Args: rf.args, Answer: answer})
	if err != nil {
		return nil, argErrors(err, rf.args)
	}
	p.Name, p.Ranks, p.Ops, p.s, p.mapping = prog.Name(), s.Ranks, len(s.Ops), s, s.Map
	return p, nil
}

// writeFiles writes --timeline and --plot from the answer that has a
// timeline: the simulated one, else the analytic one.
func (rf *runFlags) writeFiles(res *program.RunResult, sched *lang.Schedule) error {
	pr := res.Simulated
	if pr == nil {
		pr = res.Analytic
	}
	if pr == nil {
		return nil
	}
	if rf.timeline != "" {
		var b strings.Builder
		rows := [][]string{{"method", "rank", "kind", "start", "end", "op"}}
		for _, sp := range pr.Timeline {
			rows = append(rows, []string{pr.Method, strconv.Itoa(sp.Rank), sp.Kind, results.Float(sp.Start), results.Float(sp.End), strconv.Itoa(sp.Op)})
		}
		if err := results.WriteRows(&b, rows); err != nil {
			return err
		}
		if err := writeOutputFile(rf.timeline, []byte(b.String())); err != nil {
			return fmt.Errorf("parasol run: --timeline: %v", err)
		}
	}
	if rf.plot != "" {
		if err := writeTimelinePlot(rf.plot, pr); err != nil {
			return err
		}
	}
	if rf.trace != "" {
		o := trace.Options{Schedule: sched, MaxMemory: rf.memory()}
		if err := trace.Check(o, res.Analytic, res.Simulated); err != nil {
			return fmt.Errorf("parasol run: --trace %s: not written: %v", rf.trace, err)
		}
		if err := writeOutputStream(rf.trace, func(w io.Writer) error { return trace.Write(w, o, res.Analytic, res.Simulated) }); err != nil {
			return fmt.Errorf("parasol run: --trace: %v", err)
		}
	}
	return nil
}

var runCSVHeader = []string{"method", "rank", "node", "end", "compute", "send", "recv", "wait"}

func runCSVRows(res *program.RunResult) [][]string {
	var rows [][]string
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr == nil {
			continue
		}
		for _, r := range pr.Ranks {
			rows = append(rows, []string{pr.Method, strconv.Itoa(r.Rank), strconv.Itoa(r.Node), results.Float(r.End),
				results.Float(r.Compute), results.Float(r.Send), results.Float(r.Recv), results.Float(r.Wait)})
		}
	}
	return rows
}

// ranksWait is "1 rank waits" or "n ranks wait".
func ranksWait(n int) string {
	if n == 1 {
		return "1 rank waits"
	}
	return fmt.Sprintf("%d ranks wait", n)
}

// runFailure is run's exit status: 3 when an answer deadlocked.
func runFailure(res *program.RunResult) error {
	if results.Deadlocked(res) {
		return &exitError{code: exitDeadlock}
	}
	return nil
}

// Text output: at most this many ranks are listed one by one, and this
// many critical-path steps at each end of the path.
const (
	runRanksListed = 16
	runPathEnds    = 8
)

func printRun(w io.Writer, m *eval.Machine, p *runProgram, res *program.RunResult, maxEvents int64) {
	fmt.Fprintf(w, "%s %s on %s: %d rank%s, %d operation%s\n", p.Kind, p.Name, m.Name(), p.Ranks, plural(p.Ranks), p.Ops, plural(p.Ops))
	if note := sharingNote(m, p); note != "" {
		fmt.Fprintf(w, "  note        %s\n", note)
	}
	if res.NoAnalytic != "" {
		fmt.Fprintf(w, "  analytic    none: %s\n", res.NoAnalytic)
	}
	if res.Model != "" && res.Model != program.ModelSections[0] {
		fmt.Fprintf(w, "  model       %s (the analytic answer's costs)\n", res.Model)
	}
	line := func(label string, pr *runtime.ProgramResult) {
		if pr == nil {
			return
		}
		fmt.Fprintf(w, "  %-11s %s", label, dur(pr.Makespan))
		switch {
		case pr.Deadlock != nil:
			fmt.Fprintf(w, "   (deadlock: %s forever)", ranksWait(len(pr.Deadlock.Waiting)))
		case pr.Partial && maxEvents > 0 && pr.Events >= maxEvents:
			fmt.Fprintf(w, "   (stopped by --max-events %d)", maxEvents)
		case pr.Partial:
			fmt.Fprint(w, "   (interrupted by Ctrl-C)")
		}
		fmt.Fprintf(w, "   %d message%s", pr.Messages, plural(int(pr.Messages)))
		if pr.Events > 0 {
			fmt.Fprintf(w, ", %d events", pr.Events)
		}
		fmt.Fprintln(w)
	}
	line("analytic", res.Analytic)
	line("simulated", res.Simulated)
	if res.Analytic != nil && res.Simulated != nil {
		if d, ok := res.Difference(); ok {
			fmt.Fprintf(w, "  difference  %s\n", signedPercent(d))
		} else {
			fmt.Fprintln(w, "  difference  none (an answer did not finish, or the analytic makespan is 0)")
		}
	}
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", pr.Method)
		printRanks(w, pr.Ranks)
		if pr.Deadlock != nil {
			printWaiting(w, pr.Deadlock)
		}
		printPath(w, pr.CriticalPath)
	}
}

func printRanks(w io.Writer, ranks []runtime.RankTimes) {
	fmt.Fprintf(w, "  %-10s %6s %11s %11s %11s %11s %11s\n", "rank", "node", "end", "compute", "send", "recv", "wait")
	row := func(label, node string, r runtime.RankTimes) {
		fmt.Fprintf(w, "  %-10s %6s %11s %11s %11s %11s %11s\n", label, node, dur(r.End), dur(r.Compute), dur(r.Send), dur(r.Recv), dur(r.Wait))
	}
	if len(ranks) <= runRanksListed {
		for _, r := range ranks {
			row(strconv.Itoa(r.Rank), strconv.Itoa(r.Node), r)
		}
		return
	}
	// Many ranks: the first to finish, the mean and the last (of ranks
	// ending together, the first and the last listed).
	lo, hi := 0, 0
	for i, r := range ranks {
		if r.End < ranks[lo].End {
			lo = i
		}
		if r.End >= ranks[hi].End {
			hi = i
		}
	}
	var mean runtime.RankTimes
	for _, r := range ranks {
		mean.End += r.End / float64(len(ranks))
		mean.Compute += r.Compute / float64(len(ranks))
		mean.Send += r.Send / float64(len(ranks))
		mean.Recv += r.Recv / float64(len(ranks))
		mean.Wait += r.Wait / float64(len(ranks))
	}
	first, last := ranks[lo], ranks[hi]
	row(fmt.Sprintf("first %d", first.Rank), strconv.Itoa(first.Node), first)
	row(fmt.Sprintf("mean of %d", len(ranks)), "", mean)
	row(fmt.Sprintf("last %d", last.Rank), strconv.Itoa(last.Node), last)
}

func printWaiting(w io.Writer, d *runtime.ProgramDeadlock) {
	fmt.Fprintf(w, "  deadlock: %s forever:\n", ranksWait(len(d.Waiting)))
	for i, x := range d.Waiting {
		if i == runRanksListed {
			fmt.Fprintf(w, "    … %d more\n", len(d.Waiting)-i)
			break
		}
		fmt.Fprintf(w, "    rank %d in %s", x.Rank, x.Label)
		if x.Line > 0 {
			fmt.Fprintf(w, " (line %d)", x.Line)
		}
		switch {
		case x.Peer >= 0:
			fmt.Fprintf(w, ", on rank %d", x.Peer)
		case x.Peer == -1 && strings.HasPrefix(x.Label, "recv"):
			fmt.Fprint(w, ", on any rank")
		}
		fmt.Fprintln(w)
	}
}

func printPath(w io.Writer, path []runtime.PathStep) {
	if len(path) == 0 {
		return
	}
	fmt.Fprintf(w, "  critical path (%d step%s):\n", len(path), plural(len(path)))
	for i, st := range path {
		if len(path) > 2*runPathEnds && i == runPathEnds {
			fmt.Fprintf(w, "    … %d more\n", len(path)-2*runPathEnds)
		}
		if len(path) > 2*runPathEnds && i >= runPathEnds && i < len(path)-runPathEnds {
			continue
		}
		at := ""
		if st.Line > 0 {
			at = fmt.Sprintf(" (line %d)", st.Line)
		}
		fmt.Fprintf(w, "    %11s .. %-11s rank %d: %s%s\n", dur(st.Start), dur(st.End), st.Rank, st.Label, at)
	}
}

// sharingNote says when ranks share processors, which a schedule written
// for more processors than the machine has (a GOAL schedule on std:loggp's
// default P) does without anyone asking for it.
func sharingNote(m *eval.Machine, p *runProgram) string {
	used := processorsUsed(p.mapping)
	if used == 0 || used >= p.Ranks {
		return ""
	}
	note := fmt.Sprintf("%d ranks on %d processor%s: ranks on one processor share its CPU", p.Ranks, used, plural(used))
	if _, err := m.Param("P"); err == nil {
		note += fmt.Sprintf(" (--set P=%d gives each rank its own)", p.Ranks)
	}
	return note
}

// processorsUsed counts the distinct processors of a mapping. One that
// increases (linear, and every one-rank-a-processor run of std:loggp) uses
// as many as it has ranks, known without a copy; any other is counted on a
// sorted copy, where a map of a 65,536-rank mapping cost more than the
// analysis of a broadcast. The copy of a linear one was 0.5 MB at the peak
// of a 65,536-rank broadcast's run, taken twice (its text and its notes).
func processorsUsed(mapping []int) int {
	increasing := true
	for i := 1; i < len(mapping) && increasing; i++ {
		increasing = mapping[i] > mapping[i-1]
	}
	if increasing {
		return len(mapping)
	}
	nodes := slices.Clone(mapping)
	slices.Sort(nodes)
	return len(slices.Compact(nodes))
}
