package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/internal/probe"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// probeCmd is parasol probe, whose subcommands serve and measure.
var probeCmd = &command{
	name:    "probe",
	summary: "measure real hosts' communication and write a machine description",
	doc:     probeDoc,
	subs:    []*command{probeServeCmd, probeMeasureCmd},
}

const probeDoc = `
Probe measures the communication of real hosts and writes a machine
description of them. Run 'parasol probe serve' on every host (it needs no
privileges: any unprivileged TCP port will do, ` + probe.DefaultPort + ` by default), then
'parasol probe measure' on any one machine with the hosts' addresses: it
asks each host of every pair to time ping-pongs and message trains to the
other, fits each link's latency and speed (T = ts + m / speed, as
'parasol fit --relative linear' would), and writes a .machine file with
the measurements and the fit quality as comments.`

// probeServeCmd is parasol probe serve.
var probeServeCmd = &command{
	name: "serve",
	args: "[--listen ADDR] [--max-memory SIZE]",
	doc: probeDoc + `

Serve answers measurement requests until interrupted (Ctrl-C or SIGTERM).
It has no authentication: anyone who can reach the port can ask it to
exchange messages with another server, so run it on a trusted network only
and stop it when the measurement is done. Nothing in a request is
trusted unbounded: a server holds at most ` + fmt.Sprint(probe.MaxConnections) + ` connections at once (the
excess is answered "server busy" and closed); a data connection declares
its largest message (at most 64 MiB) and a larger one closes it; the
message buffers of all connections stay within --max-memory; a measure
request may ask for at most ` + fmt.Sprint(probe.MaxReps) + ` repetitions, ` + fmt.Sprint(probe.MaxSizes) + ` sizes of each kind,
` + fmt.Sprint(probe.MaxSamples) + ` timings and 16 GB of traffic; every request ends by its deadline
(30s unless it asks for another, at most 10m).
It prints the address it listens on; --listen :0 lets the system choose a
free port.`,
	flags: declareProbeServe,
}

// declareProbeServe declares probe serve's flags on fs and returns the function that runs it.
func declareProbeServe(e *env, fs *flag.FlagSet) func(pos []string) error {
	listen := fs.String("listen", ":"+probe.DefaultPort, "listen on `ADDR`, host:port (an empty host is every interface; port 0 lets the system choose)")
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", "bound the message buffers of all connections to `SIZE`, such as 512MB: a request beyond it is refused (default: $"+limits.EnvVar+" or a quarter of physical memory)")
	return func(pos []string) error {
		if len(pos) != 0 {
			return argsError("parasol probe serve: unexpected argument %q", pos[0])
		}
		l, err := net.Listen("tcp", *listen)
		if err != nil {
			return fmt.Errorf("parasol probe serve: %v", err)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		fmt.Fprintf(e.stdout, "parasol probe: serving on %s\n", l.Addr())
		return probe.Serve(ctx, l, maxMemory.bytes())
	}
}

// probeMeasureCmd is parasol probe measure.
var probeMeasureCmd = &command{
	name: "measure",
	args: "[flags] HOST... | --hostfile FILE",
	doc: probeDoc + `

A HOST is host or host:port (port ` + probe.DefaultPort + ` when not given). Pairs are measured
one at a time; beyond --max-pairs a sample is measured in which every host
takes part, and pairs not measured take the mean of those that were. A
host that does not answer within --timeout, or a pair that fails, is
reported on stderr, and nothing is written, unless --partial asks for the
description of what was measured, whose first line then says PARTIAL and
lists what is missing. The file is written whole or not at all.

What the servers answer is checked, not trusted: a host name that is not
one (letters, digits, '-', '_' and '.') is refused, and so is a pair
whose answer holds sizes, counts or repetitions other than those asked
for, or a time that is not positive and finite; each is reported on
stderr as "answered badly" with the host and what was wrong. --timeout is
at most 10m, the limit a server gives a request.

Examples:
  parasol probe measure node1 node2 node3 -o cluster.machine
  parasol probe measure --hostfile hosts.txt --legacy -o cluster.machine`,
	flags: declareProbeMeasure,
}

// declareProbeMeasure declares probe measure's flags on fs and returns the function that runs it.
func declareProbeMeasure(e *env, fs *flag.FlagSet) func(pos []string) error {
	out := fs.String("o", "", "write the machine to `FILE` (default: standard output)")
	dataFile := fs.String("data", "", "also write the measurements to `FILE` as CSV for parasol fit and compare --measured: src, dst (the pair), size, count (1 for a ping-pong), time")
	hostfile := fs.String("hostfile", "", "read the hosts from `FILE`, one a line ('#' comments)")
	name := fs.String("name", "probed", "the machine's `NAME`")
	legacy := fs.Bool("legacy", false, "write the Parasol I on-disk format instead of the modern syntax")
	partial := fs.Bool("partial", false, "when some host or pair fails, write what was measured, marked PARTIAL")
	opt := probe.DefaultOptions()
	timeout := timeoutFlag(opt.Timeout)
	fs.Var(&timeout, "timeout", "give up on a host or a pair after `TIME` (30s, 500ms; a Go duration such as 1m30s also works)")
	sizes := fs.String("sizes", "", "ping-pong message `SIZES`, comma-separated (default 1,1KiB,4KiB,16KiB,64KiB,256KiB,1MiB)")
	fs.IntVar(&opt.Reps, "reps", opt.Reps, "repetitions of each size; the median is kept")
	fs.IntVar(&opt.TrainCount, "train", opt.TrainCount, "messages per train")
	fs.IntVar(&opt.MaxPairs, "max-pairs", opt.MaxPairs, "measure at most this many pairs, a sample covering every host")
	fs.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed of the sample of pairs")
	return func(pos []string) error {
		var err error
		opt.Timeout = timeout.duration()
		if *sizes != "" {
			if opt.Sizes, err = parseSizes(*sizes); err != nil {
				return usageError("parasol probe measure: --sizes: %v", err)
			}
			if err := opt.CheckSizes(); err != nil {
				return usageError("parasol probe measure: --sizes: %v", err)
			}
		}
		if err := checkCounts("probe measure", fs, []countFlag{{"train", int64(opt.TrainCount), 1, probe.MaxTrain}}); err != nil {
			return err
		}
		if opt.Reps < 1 || opt.TrainCount < 1 || opt.MaxPairs < 1 || opt.Timeout <= 0 {
			return usageError("parasol probe measure: --reps, --train, --max-pairs and --timeout must be positive")
		}
		if err := opt.Check(); err != nil {
			return usageError("parasol probe measure: %v", err)
		}
		hosts := pos
		if *hostfile != "" {
			if len(pos) > 0 {
				return usageError("parasol probe measure: give hosts or --hostfile, not both")
			}
			if hosts, err = readHostfile(*hostfile); err != nil {
				return err
			}
		}
		if len(hosts) < 2 {
			return argsError("parasol probe measure: need at least two hosts")
		}
		first := map[string]int{}
		for i, h := range hosts {
			hosts[i] = probe.WithPort(h)
			if j, ok := first[hosts[i]]; ok {
				return usageError("parasol probe measure: host %s is given twice (hosts %d and %d); each host once", hosts[i], j, i)
			}
			first[hosts[i]] = i
		}
		if e.isTerminal {
			var bar *progress
			opt.Progress = func(done, total int) {
				if bar == nil {
					bar = newProgress(e.stderr, total, "pairs")
				}
				bar.update(done, total)
				if done == total {
					bar.done()
				}
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		r, err := probe.Measure(ctx, hosts, opt)
		if err != nil {
			return err
		}
		if len(r.Measured()) == 0 {
			return fmt.Errorf("parasol probe measure: nothing measured:\n%s", strings.TrimSpace(r.Failures()))
		}
		if !r.Complete() {
			fmt.Fprint(e.stderr, r.Failures())
			if !*partial {
				return fmt.Errorf("parasol probe measure: not written: %d host%s unreachable, %d of the other hosts' %d pair%s measured (--partial writes what was measured, marked PARTIAL)",
					len(r.Unreachable), plural(len(r.Unreachable)), len(r.Measured()), len(r.Pairs), plural(len(r.Pairs)))
			}
		}
		text := r.Machine(*name, *legacy)
		// What probe writes must load: a description that does not is
		// Parasol's error, and is not written.
		if _, err := eval.LoadSource("probed.machine", text); err != nil {
			return fmt.Errorf("parasol probe measure: the description does not load (not written): %v", err)
		}
		if !*legacy {
			// The modern file is written as parasol fmt would leave it.
			f, err := parser.ParseFile("probed.machine", text)
			if err == nil {
				text, err = formatChecked(f)
			}
			if err != nil {
				return fmt.Errorf("parasol probe measure: formatting the description (not written): %v", err)
			}
		}
		if *dataFile != "" {
			if err := writeOutputFile(*dataFile, []byte(r.CSV())); err != nil {
				return err
			}
		}
		if *out == "" {
			fmt.Fprint(e.stdout, text)
		} else if err := writeOutputFile(*out, []byte(text)); err != nil {
			return err
		}
		if !r.Complete() {
			fmt.Fprintf(e.stderr, "parasol probe measure: wrote a PARTIAL description (%d of %d pairs)\n", len(r.Measured()), len(r.Pairs))
		}
		return nil
	}
}

// parseSizes reads a comma-separated list of sizes with units.
func parseSizes(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		v, err := lang.ParseQuantity(s)
		if err != nil {
			return nil, err
		}
		if v.Dim != lang.SizeDim && v.Dim != lang.Dimensionless || v.Num < 0 || v.Num > probe.MaxMessage || v.Num != float64(int(v.Num)) {
			return nil, fmt.Errorf("%q is not a whole number of bytes from 0 to %s", strings.TrimSpace(s), fit.SizeLiteral(probe.MaxMessage))
		}
		out = append(out, int(v.Num))
	}
	return out, nil
}

// readHostfile reads one host a line; blank lines and '#' comments are
// skipped.
func readHostfile(path string) ([]string, error) {
	data, err := eval.ReadInput(path, 0)
	if err != nil {
		return nil, err
	}
	var hosts []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		hosts = append(hosts, strings.Fields(line)...)
	}
	if len(hosts) == 0 {
		return nil, errors.New(path + ": no hosts (one host or host:port a line)")
	}
	return hosts, nil
}
