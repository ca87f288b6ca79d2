package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// simFlags are the experiment flags shared by sim and compare.
type simFlags struct {
	machineFlags
	cmd                    string // sim or compare, for messages
	op, routing, switching string
	channels, links        int
	size, packet           quantityFlag // bytes
	src, dst               optInt
	runs                   int
	seed                   uint64
	maxEvents              int64
	linkLoads              bool // sim --link-loads
	trace                  bool // sim --trace: keep the first run's messages
	shardI, shardN         int  // sim --shard: this process's runs, with their records
	workers                int  // sim --workers: cores the simulation may use (0: all)
	stripes                int  // sim --stripes: stripes a run is cut into (0: chosen)
}

func (sf *simFlags) register(fs *flag.FlagSet, e *env) {
	sf.cmd = fs.Name()
	sf.machineFlags.register(fs, e)
	fs.StringVar(&sf.op, "op", "send", "operation: "+strings.Join(runtime.Ops(), ", "))
	sf.size, sf.packet = sizeFlag(32, 0), sizeFlag(0, 0)
	fs.Var(&sf.size, "size", "message `SIZE`, e.g. 32 (bytes), 4KB, 1MiB")
	fs.Var(&sf.src, "src", "source node `id` (send, pingpong, swap; root of broadcast, reduce, allreduce, scatter, gather; default: the first processor)")
	fs.Var(&sf.dst, "dst", "destination node `id` (send, pingpong, swap; the hotspot; default: the last processor)")
	fs.IntVar(&sf.runs, "runs", 1, "repetitions (≥ 1), spread over all cores and folded into the result as they finish (memory does not grow with runs; past 4,194,304 latencies the quantiles are within 1/1024); run i uses a seed derived from --seed and i")
	fs.Uint64Var(&sf.seed, "seed", 1, "base random seed")
	fs.StringVar(&sf.routing, "routing", "", "routing function, overriding the machine: "+strings.Join(runtime.Routings(), ", "))
	fs.StringVar(&sf.switching, "switching", "", "switching, overriding the machine: saf, vct, wormhole, circuit")
	fs.Var(&sf.packet, "packet", "packet payload `SIZE`, e.g. 32 (bytes) or 4KB, overriding the machine (0: the whole message is one packet)")
	fs.IntVar(&sf.channels, "channels", 1, "channels a message is split over (seed 000 c; ≥ 1)")
	fs.IntVar(&sf.links, "links", 1, "links a message is split over (seed 000 l; ≥ 1)")
	fs.Int64Var(&sf.maxEvents, "max-events", 0, "stop each run after this many events and report the partial result (0: no limit)")
}

// countFlags are the whole-number flags of sim and compare with their
// valid ranges; a value outside is a usage error naming the flag.
func (sf *simFlags) countFlags() []countFlag {
	return []countFlag{
		{"runs", int64(sf.runs), 1, math.MaxInt64},
		{"channels", int64(sf.channels), 1, math.MaxInt32},
		{"links", int64(sf.links), 1, math.MaxInt32},
		{"max-events", sf.maxEvents, 0, math.MaxInt64},
	}
}

type countFlag struct {
	name   string
	v      int64
	lo, hi int64
}

// checkCounts reports the first count flag given on the command line with
// a value outside its range.
func checkCounts(cmd string, fs *flag.FlagSet, counts []countFlag) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, c := range counts {
		switch {
		case !set[c.name]:
		case c.v < c.lo && c.hi == math.MaxInt64:
			return usageError("parasol %s: --%s must be at least %d, got %d", cmd, c.name, c.lo, c.v)
		case c.v < c.lo || c.v > c.hi:
			return usageError("parasol %s: --%s must be from %d to %d, got %d", cmd, c.name, c.lo, c.hi, c.v)
		}
	}
	return nil
}

// optInt is an integer flag that may be left unset (no "(default …)" in
// the help, and 0 is a value like any other).
type optInt struct {
	n   int
	set bool
}

func (o *optInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a whole number ≥ 0", s)
	}
	o.n, o.set = n, true
	return nil
}

// network loads the machine and compiles the chosen topology, with the
// packet size override applied, for messages of size bytes (negative:
// any; see sized).
func (sf *simFlags) network(spec string, size int) (*eval.Machine, *runtime.Spec, error) {
	m, err := sf.load(spec)
	if err != nil {
		return nil, nil, err
	}
	return sf.sized(m, size)
}

// sized compiles the chosen topology of m for messages of size bytes: a
// machine whose costs depend on the message size (eval.MessageSizeParam)
// is derived for it first.
func (sf *simFlags) sized(m *eval.Machine, size int) (*eval.Machine, *runtime.Spec, error) {
	m, _, err := m.ForMessageSize(size)
	if err != nil {
		return nil, nil, err
	}
	rs, err := m.Spec("")
	if err != nil {
		return nil, nil, err
	}
	if sf.packet.set {
		rs.Packet.Payload = int(sf.packet.bytes())
	}
	return m, rs, nil
}

// validate reports unknown operation, routing and switching names as
// command-line mistakes (exit status 2), with a suggestion.
func (sf *simFlags) validate(rs *runtime.Spec) error {
	cmd := sf.cmd
	if _, ok := runtime.OpDoc(sf.op); sf.op != "" && !ok {
		return usageError("parasol %s: unknown op %q%s; ops: %s", cmd, sf.op, lang.DidYouMean(sf.op, runtime.Ops()), strings.Join(runtime.Ops(), ", "))
	}
	if err := checkRouting(cmd, sf.routing, rs); err != nil {
		return err
	}
	if sf.switching != "" {
		if _, err := runtime.ParseSwitching(sf.switching); err != nil {
			return usageError("parasol %s: unknown switching %q; want saf, vct, wormhole or circuit", cmd, sf.switching)
		}
	}
	return nil
}

func checkRouting(cmd, routing string, rs *runtime.Spec) error {
	if routing == "" {
		return nil
	}
	names := runtime.Routings()
	if slices.Contains(names, routing) {
		return nil
	}
	if _, ok := rs.Routes[routing]; ok {
		return nil
	}
	return usageError("parasol %s: unknown routing %q%s; routings: %s", cmd, routing, lang.DidYouMean(routing, names), strings.Join(names, ", "))
}

// options are the experiment the flags describe.
func (sf *simFlags) options() runtime.Options {
	opts := runtime.Options{Op: sf.op, Size: int(sf.size.bytes()), Runs: sf.runs, Seed: sf.seed, MaxEvents: sf.maxEvents,
		Routing: sf.routing, Switching: sf.switching, Channels: sf.channels, Links: sf.links, MaxMemory: sf.memory(),
		LinkLoads: sf.linkLoads, Shard: sf.shardI, Shards: sf.shardN, KeepRuns: sf.shardN > 0, Trace: sf.trace, Workers: sf.workers, Stripes: sf.stripes}
	if sf.src.set {
		opts.Src = runtime.Node(sf.src.n)
	}
	if sf.dst.set {
		opts.Dst = runtime.Node(sf.dst.n)
	}
	return opts
}

// runInfo says what a simulation of spec ran: the machine, the
// experiment's flags, and the routing and switching in effect (the
// machine's own when no flag overrides them). size is the message size in
// bytes.
func (sf *simFlags) runInfo(spec string, m *eval.Machine, rs *runtime.Spec, size int) *results.Run {
	r := newRunInfo(sf.cmd, spec, m, &sf.machineFlags)
	r.Op, r.Size, r.Runs = sf.op, &size, sf.runs
	seed := sf.seed
	r.Seed = &seed
	r.Routing, r.Switching = sf.routing, sf.switching
	if r.Routing == "" {
		r.Routing = rs.Routing
	}
	if r.Routing == "" {
		r.Routing = "shortest"
	}
	if r.Switching == "" {
		r.Switching = rs.Switching.String()
	}
	return r
}

// simulate loads the machine and runs the experiment; progress goes to
// stderr on a terminal.
func (sf *simFlags) simulate(e *env, spec string, progress bool) (*runtime.Result, *results.Run, error) {
	m, rs, err := sf.network(spec, int(sf.size.bytes()))
	if err != nil {
		return nil, nil, err
	}
	if err := sf.validate(rs); err != nil {
		return nil, nil, err
	}
	opts := sf.options()
	if progress && sf.runs > 1 {
		bar := newProgress(e.stderr, sf.runs, "runs")
		opts.Progress = bar.update
		defer bar.done()
	} else if progress {
		defer ticker(e.stderr)()
	}
	ctx, stop := e.interruptible()
	defer stop()
	res, err := runtime.Simulate(ctx, rs, opts)
	if err != nil && res == nil {
		return nil, nil, optionUsage(sf.cmd, err)
	}
	return res, sf.runInfo(spec, m, rs, opts.Size), err
}

// optionUsage turns an option the machine cannot honour
// (runtime.OptionError: a node that is not a processor, more links than a
// processor has) into a usage error naming the flag and what is valid.
func optionUsage(cmd string, err error) error {
	var oe *runtime.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	flag := "--" + strings.ToLower(oe.Option)
	if cmd == "route" && (oe.Option == "Src" || oe.Option == "Dst") {
		flag = strings.ToUpper(oe.Option) // route takes them as arguments
	}
	return usageError("parasol %s: %s %s: %s", cmd, flag, oe.Value, oe.Reason)
}

// simCmd is parasol sim.
var simCmd = &command{
	name:    "sim",
	summary: "simulate an operation on the packet-level network",
	args:    "[flags] MACHINE --op OP",
	doc: `
Sim compiles the machine into a packet-level network and simulates an
operation on it: contention, queues, blocking and acknowledgements are
simulated, not approximated. It prints latency statistics (per message,
from send start to delivery of the last byte), the makespan, path lengths,
the worst link and processor loads and a latency histogram. A deadlock is
reported with the cycle of waiting channels (exit status 3).

--trace FILE.json writes the first run as a Chrome/Perfetto trace (open it at
https://ui.perfetto.dev): a track per processor, each message a span on its
sender's and its receiver's track from ready to delivered with an arrow
between them, and the 64 busiest wires' busy times; with --load (one load)
every message of the point, warm-up and drain included. Not with --shard; a
trace estimated above ` + traceLimitText + ` is refused, not written.

Examples:
  parasol sim std:xmp64 --op transpose --size 32 --runs 1000
  parasol sim std:c104-chain --op send --size 4096 --channels 3
  parasol sim examples/ring.machine --op alltoall --routing shortest --json
  parasol sim std:booksim-mesh --op uniform --load 0.05:0.25:0.05 --plot curve.svg
  parasol sim examples/credit-torus.machine --set k=256 --op randperm --size 32 --workers 2

With --load, every processor generates messages of --size bytes at an
offered load, a share of its injection bandwidth (its fastest link) or a
rate, by a Bernoulli or Poisson process (--process), queued at the source
without limit (a load above 1, up to 4, offers more than a processor can
inject, as BookSim accepts 1.2 flits a cycle: its queue grows); the op is
a traffic pattern (uniform, with --self also to the sender itself as
BookSim's, behind its router; randperm, the bit
permutations, neighbor, tornado, hotspot), or --pattern FILE, a message
trace (as parasol run reads) whose sends each processor generates in turn. Each point warms up until the
mean latency and the accepted load of successive windows of 1000 cycles (a
cycle: one flit at the injection bandwidth) agree within 5% (or for
--warmup), marks the messages generated in the next 3 windows (or
--measure), and drains until every marked message has arrived (at most 10
windows). Latency is over marked messages, source queueing included. A
point is saturated when the load accepted during measurement falls more
than 5% short of the load offered, or marked messages do not drain; its
latencies are then lower bounds (≥ in the table, "latency_bound": "lower"
in JSON, hollow triangles apart from the curve in --plot). A list or a
range of loads draws a load–latency curve, its points spread over the
cores (--workers), each seeded from --seed and its load; the table ends with the
saturation throughput, the largest accepted load (when no point
saturated, only a lower bound of it, and so said).
--format json prints one line per point ("load", "offered", "accepted",
"accepted_error" — the most by which accepted may exceed what the network
carried —, "saturated", "latency", …, "run"; what a point does not
measure is null); csv one row per point.

--workers N uses at most N cores (default: all): --runs and the points of
a curve are spread over them, and the cores left to a run simulate it
where it is cut into stripes; the output is the same bytes for any N.
--stripes K cuts each run, and each load point, into K stripes of nodes
(rows of a torus), each with its own events, run in windows as long as
the least latency of a link between stripes, on as many cores as are
left to it; only where nothing one node does reaches another sooner:
wormhole lanes under credits (credit_delay) with buffers that hold every
packet with room to spare, routing that reads no other node's state, a
burst of messages that wait for none or a load point of one-packet
messages (docs/PERFORMANCE.md, "One run on both cores"). The
default cuts runs on such networks of 16,384 nodes or more into 4, and
keeps one queue elsewhere; --stripes 1 keeps one queue. The answer
depends on K (simultaneous events are ordered stripe by stripe, each
stripe draws its own random numbers), never on --workers; the text and
JSON ("stripes") say when runs were cut.

--shard I/N runs only the runs i with i % N == I of --runs (each with the
seed it has among all of them) and prints their records; 'parasol merge'
joins the N shards' outputs into exactly what the whole run prints, so N
processes, on one machine or on a cluster, share --runs. --shard auto
takes I and N from a Slurm array task or a Kubernetes Indexed Job (with
--shards), as sweep does.

--format json prints the result as one JSON object, times in seconds, with
"run" saying what produced it (machine, source, op, size, seed, runs,
routing, switching, every --set, Parasol's version). A seed of 2^53 or
more is also given as a string, "seed_str", since JSON tools that read
numbers as doubles (jq) round it: the same command with --seed SEED_STR
reproduces the result; a point of a sweep is reproduced by sim with the
point's "run" (op, size, every --set) and --seed its seed_str.
--format csv prints a header row and one row per result: the run's summary
statistics (the latency histogram and per-hop rows are in the JSON).` + opsHelp(),
	flags: declareSim,
}

// opsHelp is sim --help's list of the ops, each with its meaning
// (runtime.OpDoc), where the -op flag names them only.
func opsHelp() string {
	var b strings.Builder
	b.WriteString("\n\nOps (--op; ranks are processors in node order, b the bits of a rank, Src, Dst\nand Size --src, --dst and --size):\n")
	width := 0
	for _, op := range runtime.Ops() {
		width = max(width, len(op))
	}
	for _, op := range runtime.Ops() {
		doc, _ := runtime.OpDoc(op)
		fmt.Fprintf(&b, "  %-*s  %s\n", width, op, doc)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// declareSim declares sim's flags on fs and returns the function that runs it.
func declareSim(e *env, fs *flag.FlagSet) func(pos []string) error {
	var sf simFlags
	sf.register(fs, e)
	format := registerFormat(fs, "print the result as one JSON object (times in seconds)")
	fs.BoolVar(&sf.linkLoads, "link-loads", false, `measure every wire's load and busy share: the busiest are listed, and --json gives all ("links"), for parasol draw --sim-result`)
	plotFile := fs.String("plot", "", "also draw the latency histogram and the latency by hop count (with --load, the load–latency curve) to `FILE` (.svg, or .png at 200 dpi, 1200 pixels wide or more)")
	traceFile := fs.String("trace", "", "write the first run as a Chrome/Perfetto trace (JSON) to `FILE`: a track per processor with its messages, arrows from sender to receiver, the busiest wires' busy times; refused above "+traceLimitText)
	linksFile := fs.String("link-csv", "", "also write every wire's messages, bytes and busy share to `FILE` as CSV (implies --link-loads)")
	var lf loadFlags
	lf.register(fs)
	var shard shardFlag
	fs.Var(&shard, "shard", "run only shard `I/N` of --runs: the runs i with i % N == I, printed as records for 'parasol merge' (auto: I and N from $SLURM_ARRAY_TASK_ID and $SLURM_ARRAY_TASK_COUNT, or $JOB_COMPLETION_INDEX and --shards)")
	shards := fs.Int("shards", 0, "the number of shards for --shard auto with $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions), or overriding $SLURM_ARRAY_TASK_COUNT")
	fs.IntVar(&sf.workers, "workers", 0, "cores to use (default: all): --runs and --load points are spread over them, and a run cut into stripes over those left to it; the output is the same for any number")
	fs.IntVar(&sf.stripes, "stripes", 0, "cut each run or load point into `K` stripes run side by side where the network allows (default: 4 on such networks of 16,384 nodes or more; 1: one queue)")
	return func(pos []string) error {
		if err := lf.check(fs); err != nil {
			return err
		}
		if err := checkPlotFile("sim", *plotFile); err != nil {
			return err
		}
		if err := checkCounts("sim", fs, append(sf.countFlags(), countFlag{"workers", int64(sf.workers), 1, math.MaxInt32}, countFlag{"stripes", int64(sf.stripes), 1, 64})); err != nil {
			return err
		}
		if len(pos) != 1 {
			return argsError("parasol sim: need exactly one MACHINE")
		}
		if shard.set || shard.auto {
			if lf.load.points != nil || *plotFile != "" || *linksFile != "" || sf.linkLoads || *traceFile != "" {
				return usageError("parasol sim: --shard splits --runs; --load, --plot, --link-loads, --link-csv and --trace belong to the whole run (merge the shards, then plot with sim)")
			}
			return runSimShard(e, &sf, shard, *shards, pos[0], format.value)
		}
		if len(lf.load.points) > 1 && *traceFile != "" {
			return usageError("parasol sim: --trace traces one load point, not a curve of %d: give --load one load", len(lf.load.points))
		}
		sf.trace = *traceFile != ""
		if lf.load.points != nil {
			if err := lf.listPattern(fs, &sf); err != nil {
				return err
			}
			return runLoad(e, &sf, &lf, pos[0], format.value, *plotFile, *linksFile, *traceFile)
		}
		sf.linkLoads = sf.linkLoads || *linksFile != ""
		res, run, err := sf.simulate(e, pos[0], e.isTerminal && format.value == outText)
		if res == nil {
			return err
		}
		// The plot is written before anything is printed: a failing
		// stdout (a closed pipe) must not lose it.
		if *plotFile != "" {
			if err := writeSimPlot(*plotFile, res); err != nil {
				return err
			}
		}
		if *traceFile != "" && res.Trace != nil {
			title := fmt.Sprintf("%s %d B on %s, run 1 of %d (seed %d)", run.Op, *run.Size, pos[0], max(sf.runs, 1), sf.seed)
			o := trace.Options{MaxMemory: sf.memory()}
			if err := writeBurstTrace(*traceFile, o, title, res.Trace); err != nil {
				return err
			}
		}
		if err := printSim(e.stdout, format.value, res, run); err != nil {
			return err
		}
		if *linksFile != "" {
			var buf bytes.Buffer
			if err := results.WriteTable(&buf, results.LinkHeader, results.LinkRows("", res.Links)); err != nil {
				return err
			}
			if err := writeOutputFile(*linksFile, buf.Bytes()); err != nil {
				return fmt.Errorf("parasol sim: --link-csv: %v", err)
			}
		}
		if err != nil {
			return err
		}
		if res.Deadlock {
			return &exitError{code: 3}
		}
		return nil
	}
}

// writeBurstTrace writes sim --trace FILE after its checks.
func writeBurstTrace(file string, o trace.Options, title string, bt *runtime.BurstTrace) error {
	if err := trace.CheckBurst(o, bt); err != nil {
		return fmt.Errorf("parasol sim: --trace %s: not written: %v", file, err)
	}
	if err := writeOutputStream(file, func(w io.Writer) error { return trace.WriteBurst(w, o, title, bt) }); err != nil {
		return fmt.Errorf("parasol sim: --trace: %v", err)
	}
	return nil
}

// printSim prints sim's result in format.
func printSim(w io.Writer, format string, res *runtime.Result, run *results.Run) error {
	switch format {
	case outJSON:
		return results.NewEncoder(w).Encode(results.Sim{Result: res, Notes: simNotes(res), Run: run})
	case outCSV:
		if err := results.WriteTable(w, results.SimHeader, [][]string{results.SimRow(res)}); err != nil {
			return err
		}
		return results.WriteNotes(w, simNotes(res))
	}
	printResult(w, res)
	printBusiestWires(w, res.Links)
	return nil
}

// simNotes are the notes sim's text prints beside the figures, for its
// JSON ("notes") and CSV (comment lines): the run stopped early, the
// quantiles summarised.
func simNotes(r *runtime.Result) []string {
	var notes []string
	if r.Partial {
		notes = append(notes, partialNote(r))
	}
	if note := quantileNote(r); note != "" {
		notes = append(notes, "quantiles "+note)
	}
	return append(notes, stripesNotes(r.Unstriped)...)
}

// stripesNotes says why runs kept one queue where --stripes asked for more
// (runtime.Result.Unstriped), if they did.
func stripesNotes(why string) []string {
	if why == "" {
		return nil
	}
	return []string{"--stripes: runs kept one queue: " + why}
}

// partialNote says that a simulation stopped early (--max-events, Ctrl-C).
func partialNote(r *runtime.Result) string {
	return fmt.Sprintf("stopped early; %d message%s undelivered", r.Undelivered, plural(r.Undelivered))
}

// quantileNote says how close the latency quantiles are when they were
// summarised, "" when they are exact.
func quantileNote(r *runtime.Result) string {
	if r.Messages == 0 || r.Latency.QuantileError <= 0 {
		return ""
	}
	return fmt.Sprintf("within %.2g%%: %d latencies summarised", 100*r.Latency.QuantileError, r.Messages)
}

func dur(s float64) string { return lang.FormatQuantitySig(s, lang.TimeDim, 4) }

func printResult(w io.Writer, r *runtime.Result) {
	fmt.Fprintf(w, "op %s: %d message%s in %d run%s\n", r.Op, r.Messages, plural(r.Messages), r.Runs, plural(r.Runs))
	if r.Deadlock {
		printDeadlock(w, r, "")
	}
	if r.Partial {
		fmt.Fprintf(w, "PARTIAL: %s\n", partialNote(r))
	}
	if r.Messages > 0 {
		l := r.Latency
		fmt.Fprintf(w, "latency   min %s  mean %s  max %s\n", dur(l.Min), dur(l.Mean), dur(l.Max))
		fmt.Fprintf(w, "          p50 %s  p90 %s  p99 %s", dur(l.P50), dur(l.P90), dur(l.P99))
		if note := quantileNote(r); note != "" {
			fmt.Fprintf(w, "  (%s)", note)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "makespan  %s (max over runs %s)\n", dur(r.Makespan), dur(r.MakespanMax))
	fmt.Fprintf(w, "send time mean %s  max %s", dur(r.SendTime.Mean), dur(r.SendTime.Max))
	if r.SendTime.FinalAck > 0 {
		// seed 000 Eq. 5 counts to the last transmission, not to the last acknowledgement
		fmt.Fprintf(w, "  (of which the wait for the final acknowledgement %s)", dur(r.SendTime.FinalAck))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "hops      mean %.4g  max %d\n", r.Hops.Mean, r.Hops.Max)
	if len(r.ByHops) > 1 {
		fmt.Fprintln(w, "latency by hops")
		fmt.Fprintf(w, "  %4s %9s %7s %10s %10s %10s\n", "hops", "messages", "share", "mean", "min", "max")
		for _, h := range r.ByHops {
			fmt.Fprintf(w, "  %4d %9d %6.1f%% %10s %10s %10s\n", h.Hops, h.Messages, 100*float64(h.Messages)/float64(max(r.Messages, 1)), dur(h.Mean), dur(h.Min), dur(h.Max))
		}
	}
	fmt.Fprintf(w, "load      busiest link %d message%s, busiest processor %d through-routed\n", r.LinkLoadMax, plural(r.LinkLoadMax), r.ProcLoadMax)
	fmt.Fprintf(w, "link use  mean %.1f%%  busiest %.1f%%\n", 100*r.LinkUtil.Mean, 100*r.LinkUtil.Max)
	switch {
	case r.Stripes > 1:
		fmt.Fprintf(w, "events    %d (each run cut into %d stripes: --stripes)\n", r.Events, r.Stripes)
	case r.Unstriped != "":
		fmt.Fprintf(w, "events    %d (%s)\n", r.Events, stripesNotes(r.Unstriped)[0])
	default:
		fmt.Fprintf(w, "events    %d\n", r.Events)
	}
	printHistogram(w, r.Histogram)
}

// printDeadlock reports a deadlock: the runs, the cycle of waiting
// channels and what was delivered, its lines after the first indented.
func printDeadlock(w io.Writer, r *runtime.Result, indent string) {
	fmt.Fprintf(w, "DEADLOCK in %d run%s; waiting channels form a cycle:\n%s  ", r.DeadlockRuns, plural(r.DeadlockRuns), indent)
	for _, c := range r.Cycle {
		fmt.Fprintf(w, "%s → ", c.String())
	}
	if len(r.Cycle) > 0 {
		fmt.Fprintln(w, r.Cycle[0].String())
	}
	fmt.Fprintf(w, "%sdelivered %d message%s; %d undelivered\n", indent, r.Messages, plural(r.Messages), r.Undelivered)
}

// printHistogram draws the latency histogram as text bars.
func printHistogram(w io.Writer, h runtime.Histogram) {
	total, most := 0, 0
	for _, c := range h.Counts {
		total += c
		most = max(most, c)
	}
	if total == 0 || len(h.Edges) < 2 {
		return
	}
	fmt.Fprintln(w, "histogram")
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		bar := strings.Repeat("█", (c*40+most-1)/most)
		fmt.Fprintf(w, "  %10s – %-10s %6.2f%% %s\n", dur(h.Edges[i]), dur(h.Edges[i+1]), 100*float64(c)/float64(total), bar)
	}
}

// progress draws a progress line on a terminal, from the second second of
// the work on and at most ten times a second.
type progress struct {
	w      io.Writer
	total  int
	label  string // what is counted: "runs", "destinations (route check)"
	last   time.Time
	start  time.Time
	shown  bool
	silent time.Duration // nothing is drawn before this much time has passed
}

func newProgress(w io.Writer, total int, label string) *progress {
	return &progress{w: w, total: total, label: label, start: time.Now(), silent: time.Second}
}

func (p *progress) update(done, total int) {
	now := time.Now()
	if now.Sub(p.start) < p.silent || done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	width := 30
	fill := done * width / max(total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s  %s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), done, total, p.label, time.Since(p.start).Round(100*time.Millisecond))
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// ticker shows the elapsed time of a single long run, from its second
// second on; the returned function stops it and clears the line.
func ticker(w io.Writer) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case now := <-t.C:
				if d := now.Sub(start); d >= time.Second {
					fmt.Fprintf(w, "\rsimulating… %s (Ctrl-C stops and prints the partial result)", d.Round(time.Second))
					shown = true
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// routeCmd is parasol route.
var routeCmd = &command{
	name:    "route",
	summary: "show a route, or check a routing function for deadlock",
	args:    "[flags] MACHINE SRC DST | --check [flags] MACHINE",
	doc: `
Route prints the path a packet takes from node SRC to node DST on an idle
network, as node ids. Where dimension order on a torus with an even side
meets a tie (half way round a ring both ways are as short) each packet
takes one way at random, so every such path is printed (up to 16) with
their number; --json adds them as "paths" and "path_count".

With --check it checks the routing function statically instead: it builds
the channel dependency graph (an edge from each channel to every channel a
packet holding it may request next, lanes counted separately) and reports
whether it is acyclic — then the routing cannot deadlock — or prints one
cycle, and whether every ordered pair of processors has a route. The exit
status is 3 when a cycle is found or a pair has no route.

The check follows every route from every processor to every processor
(about processors × lanes steps, bounded by --max-work). Beyond the bound a
switched network's routing is proved another way, with the same answer:
a dragonfly, flattened butterfly or HyperX with one processor per router
standing for the others (stopped at the bound), a fat tree or XGFT by
layers (every hop goes up in level and direction); the text says so and
--json adds "proof": "routers" or "layers". Its memory is bounded by
--max-memory: the lanes' share is estimated before it starts, and the
routes it follows (as many as the routing offers, most where it can
cycle) are counted as they grow; past the limit it stops with the figure.

Examples:
  parasol route std:xmp64 2 7
  parasol route std:booksim-mesh --topology torus 0 4
  parasol route --check --routing shortest examples/ring.machine
  parasol route --check --routing acyclic --json examples/ring.machine

--format json adds "run", saying what produced the result (machine,
source, routing, every --set, Parasol's version). --format csv prints a
header row and one row per hop (hop, from, to; with ties path, hop, from,
to), or with --check one row:
routing, acyclic, connected, pairs_without_route, cycle.`,
	flags: declareRoute,
}

// declareRoute declares route's flags on fs and returns the function that runs it.
func declareRoute(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	routing := fs.String("routing", "", "routing function, overriding the machine: "+strings.Join(runtime.Routings(), ", "))
	format := registerFormat(fs, `print {"path": [...], "hops": N, "run"}, or with --check {"routing", "acyclic", "cycle", "connected", "pairs_without_route", "proof" (when not the exact check), "run"}`)
	check := fs.Bool("check", false, "check the routing function for deadlock freedom and connectivity instead of printing a path")
	maxWork := fs.Float64("max-work", 0, fmt.Sprintf("with --check, the most steps (processors × lanes) the check may take, e.g. 1e12; beyond it the check is refused (0: %s, about a minute)", topo.Sci(runtime.DefaultMaxCheckWork)))
	return func(pos []string) error {
		var run *results.Run
		// network loads the machine and compiles its topology for the routing.
		network := func(spec string) (*runtime.Spec, error) {
			m, err := mf.load(spec)
			if err != nil {
				return nil, err
			}
			rs, err := m.Spec("")
			if err != nil {
				return nil, err
			}
			run = newRunInfo("route", spec, m, &mf)
			run.Routing = *routing
			if run.Routing == "" {
				run.Routing = rs.Routing
			}
			if run.Routing == "" {
				run.Routing = "shortest"
			}
			return rs, checkRouting("route", *routing, rs)
		}
		if *check {
			if len(pos) != 1 {
				return formArgsError("--check", "parasol route --check: need exactly one MACHINE")
			}
			rs, err := network(pos[0])
			if err != nil {
				return err
			}
			if *maxWork < 0 || math.IsNaN(*maxWork) {
				return usageError("parasol route: --max-work %v: need a number of steps, 0 or more", *maxWork)
			}
			o := runtime.CheckOptions{Routing: *routing, MaxMemory: mf.memory(), MaxWork: *maxWork}
			if e.isTerminal && format.value == outText {
				bar := newProgress(e.stderr, rs.Graph.NumProcs(), "destinations checked (Ctrl-C stops)")
				o.Progress = bar.update
				defer bar.done()
			}
			ctx, stop := e.interruptible()
			defer stop()
			rc, err := runtime.CheckRouting(ctx, rs, o)
			if ctx.Err() != nil {
				return &exitError{code: exitInterrupted, msg: "parasol route --check: interrupted"}
			}
			if be := (*runtime.CheckBoundError)(nil); errors.As(err, &be) {
				// Two digits, rounded up, so that the figure given does run it.
				unit := math.Pow(10, math.Floor(math.Log10(be.Work))-1)
				return fmt.Errorf("%w: --max-work %s runs it", err, topo.Sci(math.Ceil(be.Work/unit)*unit))
			}
			if err != nil {
				return optionUsage("route", err)
			}
			switch format.value {
			case outJSON:
				if rc.Cycle == nil {
					rc.Cycle = []runtime.Channel{}
				}
				if err := results.NewEncoder(e.stdout).Encode(struct {
					*runtime.RouteCheck
					Run *results.Run `json:"run"`
				}{rc, run}); err != nil {
					return err
				}
			case outCSV:
				cycle := make([]string, len(rc.Cycle))
				for i, c := range rc.Cycle {
					cycle[i] = c.String()
				}
				row := []string{rc.Routing, strconv.FormatBool(rc.Acyclic), strconv.FormatBool(rc.Connected),
					strconv.Itoa(rc.PairsWithoutRoute), strings.Join(cycle, " ")}
				if err := results.WriteTable(e.stdout, []string{"routing", "acyclic", "connected", "pairs_without_route", "cycle"}, [][]string{row}); err != nil {
					return err
				}
			default:
				printCheck(e.stdout, rc)
			}
			if !rc.Acyclic && !rc.Deflection || !rc.Connected {
				return &exitError{code: 3}
			}
			return nil
		}
		if len(pos) != 3 {
			return formArgsError("SRC", "parasol route: need MACHINE SRC DST")
		}
		src, err := nodeID("SRC", pos[1])
		if err != nil {
			return err
		}
		dst, err := nodeID("DST", pos[2])
		if err != nil {
			return err
		}
		rs, err := network(pos[0])
		if err != nil {
			return err
		}
		ro := runtime.RouteOptions{Routing: *routing, MaxMemory: mf.memory()}
		paths, count := [][]int{{src}}, 1
		if src == dst {
			if _, ok := rs.Graph.Index(src); !ok {
				_, err := runtime.Route(rs, src, -1, ro)
				return optionUsage("route", err)
			}
		} else if paths, count, err = runtime.Routes(rs, src, dst, ro, maxRoutesShown); err != nil {
			return optionUsage("route", err)
		}
		path := paths[0]
		// Half-way ties on an even torus ring give more than one path:
		// all are listed (up to maxRoutesShown), as each packet may take any.
		var ways [][]int
		nways := 0 // omitted from JSON when there is one path
		if count > 1 {
			ways, nways = paths, count
		}
		switch format.value {
		case outJSON:
			return results.NewEncoder(e.stdout).Encode(struct {
				Path  []int        `json:"path"`
				Hops  int          `json:"hops"`
				Paths [][]int      `json:"paths,omitempty"`
				Ways  int          `json:"path_count,omitempty"`
				Run   *results.Run `json:"run"`
			}{path, len(path) - 1, ways, nways, run})
		case outCSV:
			header := []string{"hop", "from", "to"}
			if ways != nil {
				header = append([]string{"path"}, header...)
			}
			var rows [][]string
			for k, path := range paths {
				for i := 1; i < len(path); i++ {
					row := []string{strconv.Itoa(i), strconv.Itoa(path[i-1]), strconv.Itoa(path[i])}
					if ways != nil {
						row = append([]string{strconv.Itoa(k + 1)}, row...)
					}
					rows = append(rows, row)
				}
			}
			return results.WriteTable(e.stdout, header, rows)
		}
		for _, path := range paths {
			parts := make([]string, len(path))
			for i, p := range path {
				parts[i] = fmt.Sprint(p)
			}
			fmt.Fprintf(e.stdout, "%s  (%d hop%s)\n", strings.Join(parts, " → "), len(path)-1, plural(len(path)-1))
		}
		if count > 1 {
			more := ""
			if count > len(paths) {
				more = fmt.Sprintf(" (%d listed)", len(paths))
			}
			fmt.Fprintf(e.stdout, "%d paths%s: half way round a ring of even side both ways are as short, and each packet takes one at random (as BookSim's dim_order_torus)\n", count, more)
		}
		return nil
	}
}

// maxRoutesShown is how many of a route's equally short paths (half-way
// ties on an even torus) route lists.
const maxRoutesShown = 16

// nodeID reads route's SRC or DST: the whole of s is a whole number, where
// fmt.Sscan read 0.5 as node 0 and ignored the rest.
func nodeID(what, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, usageError("parasol route: %s %q is not a node id: need a whole number, 0 or more", what, s)
	}
	return n, nil
}

func printCheck(w io.Writer, rc *runtime.RouteCheck) {
	if rc.Deflection {
		fmt.Fprintf(w, "routing %s: deadlock-free by deflection — a packet that finds no free minimal link leaves by another free one instead of waiting for it, and the oldest packet in the network, which never waits behind a younger one, goes minimally to its destination, so every packet is delivered\n", rc.Routing)
	} else if rc.Acyclic {
		fmt.Fprintf(w, "routing %s: acyclic — the channel dependency graph has no cycle, so it cannot deadlock\n", rc.Routing)
	} else {
		fmt.Fprintf(w, "routing %s: CYCLIC — these channels can wait for each other in a ring:\n  ", rc.Routing)
		for _, c := range rc.Cycle {
			fmt.Fprintf(w, "%s → ", c.String())
		}
		if len(rc.Cycle) > 0 {
			fmt.Fprintln(w, rc.Cycle[0].String())
		}
	}
	switch rc.Proof {
	case "layers":
		fmt.Fprintln(w, "proved by layers: every hop goes up in (level, direction), so the exact check's routes from every processor to every processor were not followed")
	case "routers":
		fmt.Fprintln(w, "proved by router: one processor per router stands for the others, which the routing treats alike up to their router")
	}
	if rc.Connected {
		fmt.Fprintln(w, "connected: every ordered pair of processors has a route")
	} else {
		fmt.Fprintf(w, "NOT connected: %d ordered pair%s of processors have no route\n", rc.PairsWithoutRoute, plural(rc.PairsWithoutRoute))
	}
}
