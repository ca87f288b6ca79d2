package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// compareCmd is parasol compare.
var compareCmd = &command{
	name:    "compare",
	summary: "a primitive's analytic cost beside the simulated one",
	args:    "[flags] MACHINE PRIMITIVE",
	doc: `
Compare prints a model primitive's analytic cost (its expression in the
machine's model section) beside the simulated cost of the operation that
implements it, and their relative difference. The primitive's parameters
are filled by name: n (bytes, from --size; default 1 KiB = 1024 bytes), src and dst (from
--src and --dst; default the first and the last processor), p (the group:
every processor) and k (every other processor). The simulated messages
carry n bytes; a barrier's carry none, and neither do those of a primitive
that takes no size. --op simulates another operation instead.

A simulation that deadlocks has no cost to compare: the cycle of waiting
channels and the delivered and undelivered messages are printed as sim
prints them, with no simulated cost or difference, and the exit status is
3. A run --max-events stops early prints none either. Under --json
"simulated" and "difference" are then null, and "deadlock" and "partial"
say why.

Each primitive, by its name after the model section, is simulated as:
` + compareTable() + `
The primitive exchange is one pair's exchange, simulated by op swap (Src
and Dst send each other n bytes at once), not by sim's op exchange, where
every rank r swaps a message with rank r xor 1; --op exchange asks for
that one.

--measured FILE sets the primitive's analytic cost beside measurements
instead of a simulation: FILE is CSV or JSON lines as parasol fit reads
them, whose column time holds the measured times and whose other columns
feed the primitive's parameters by name (n or size, src, dst, p, k);
parameters without a column take the defaults above. Each row prints
the file's line, the arguments, predicted, measured and the error
(predicted - measured) / measured, in every --format.

Examples:
  parasol compare std:xmp64 MPI.barrier
  parasol compare std:c104-chain MPI.send --size 4KB
  parasol compare std:xmp64 MPI.allreduce --size 64 --runs 10

--format json adds "run", saying what produced the comparison (machine,
source, op, size, seed, runs, routing, switching, every --set, Parasol's
version). --format csv prints a header row and one row: primitive, op,
metric, message_size, analytic, simulated, difference (the last two empty
after a deadlock or --max-events), deadlock, partial.`,
	flags: declareCompare,
}

// declareCompare declares compare's flags on fs and returns the function that runs it.
func declareCompare(e *env, fs *flag.FlagSet) func(pos []string) error {
	var sf simFlags
	sf.register(fs, e)
	// Unset, the size is the one that suits the primitive (eval.Compare):
	// 1 KiB, or none for a barrier; not sim's 32 bytes.
	size := fs.Lookup("size")
	size.DefValue, size.Usage = "", fmt.Sprintf("message `SIZE` n, e.g. 32 (bytes), 4KB, 1MiB (default 1KiB = %d bytes; none for a barrier)", eval.CompareSize)
	format := registerFormat(fs, "print one JSON object: primitive, args, op, metric, analytic, simulated, difference (both null after a deadlock or --max-events), deadlock, partial, result, run")
	measured := fs.String("measured", "", "set the analytic cost beside the measured times of `FILE` (CSV or JSON lines with a time column) instead of a simulation")
	plotFile := fs.String("plot", "", "also draw the simulation's latency histogram, its latency by hop count and, on an axis of their own, the analytic and simulated costs to `FILE` (.svg, or .png at 200 dpi, 1200 pixels wide or more)")
	return func(pos []string) error {
		if err := checkPlotFile("compare", *plotFile); err != nil {
			return err
		}
		if *measured != "" && *plotFile != "" {
			return usageError("parasol compare: --plot draws the simulation, which --measured replaces; sweep --compare PRIMITIVE --measured FILE --plot draws measurements beside the model")
		}
		if err := checkCounts("compare", fs, sf.countFlags()); err != nil {
			return err
		}
		if len(pos) != 2 {
			return argsError("parasol compare: need MACHINE and PRIMITIVE")
		}
		opSet := false
		fs.Visit(func(f *flag.Flag) { opSet = opSet || f.Name == "op" })
		if !opSet {
			sf.op = ""
		}
		m, rs, err := sf.network(pos[0], -1)
		if err != nil {
			return err
		}
		if err := sf.validate(rs); err != nil {
			return err
		}
		if *measured != "" {
			return compareMeasured(e, format.value, m, rs, &sf, pos[0], pos[1], *measured)
		}
		opts := sf.options()
		if !sf.size.set {
			opts.Size = -1 // the size that suits the primitive
		}
		// The primitive is a command-line argument: naming one the machine
		// does not have is a usage error, not an error in the machine.
		if _, err := namedFunc(m, "compare", pos[1]); err != nil {
			return err
		}
		n, err := eval.CompareMessageSize(m, pos[1], opts.Size)
		if err != nil {
			return err
		}
		if m, rs, err = sf.sized(m, n); err != nil {
			return err
		}
		ctx, stop := e.interruptible()
		defer stop()
		c, err := eval.Compare(ctx, m, rs, pos[1], opts)
		if ctx.Err() != nil {
			// A comparison cut short has no simulated figure to set beside
			// the analytic one: say so, as sim does, and exit 130.
			return fmt.Errorf("comparing: %w", ctx.Err())
		}
		var refused *eval.NotSimulatedError
		if errors.As(err, &refused) {
			return usageError("parasol compare: %v", err)
		}
		if err != nil {
			return optionUsage("compare", err)
		}
		run := sf.runInfo(pos[0], m, rs, c.MessageSize)
		run.Op = c.Op
		if *plotFile != "" {
			if err := writeComparePlot(*plotFile, c); err != nil {
				return err
			}
		}
		switch format.value {
		case outJSON:
			j := newCompareJSON(c, m)
			j.Run = run
			if err := results.NewEncoder(e.stdout).Encode(j); err != nil {
				return err
			}
			return compareFailure(c.Result)
		case outCSV:
			if err := results.WriteTable(e.stdout, results.CompareHeader, [][]string{results.CompareRow(c)}); err != nil {
				return err
			}
			if err := results.WriteNotes(e.stdout, compareNotes(c, m)); err != nil {
				return err
			}
			return compareFailure(c.Result)
		}
		var argv []string
		for _, p := range c.Params {
			argv = append(argv, fmt.Sprintf("%s=%s", p, lang.FormatNumber(c.Args[p])))
		}
		fmt.Fprintf(e.stdout, "%s(%s) on %s\n", c.Primitive, strings.Join(argv, ", "), m.Name())
		fmt.Fprintf(e.stdout, "  traffic     op %s: %s\n", c.Op, c.Traffic)
		fmt.Fprintf(e.stdout, "  messages    %s\n", messageBytes(c.MessageSize))
		fmt.Fprintf(e.stdout, "  analytic    %s\n", withBoundNote(dur(c.Analytic), m, c.Primitive))
		// A run that deadlocked or was stopped early has no figure to set
		// beside the analytic cost: its latencies are those of the messages
		// that got through, its makespan when the network stuck.
		switch {
		case c.Result.Deadlock:
			fmt.Fprintf(e.stdout, "  simulated   none: op %s ", c.Op)
			printDeadlock(e.stdout, c.Result, "              ")
			fmt.Fprintln(e.stdout, "  difference  none (the simulation deadlocked)")
		case c.Result.Partial:
			fmt.Fprintf(e.stdout, "  simulated   none: op %s stopped by --max-events %d with %d message%s undelivered\n", c.Op, opts.MaxEvents, c.Result.Undelivered, plural(c.Result.Undelivered))
			fmt.Fprintln(e.stdout, "  difference  none (the simulation did not finish)")
		default:
			fmt.Fprintf(e.stdout, "  simulated   %s   (%s of op %s, %d run%s)\n", dur(c.Simulated), c.Metric, c.Op, c.Result.Runs, plural(c.Result.Runs))
			if c.Analytic == 0 {
				fmt.Fprintln(e.stdout, "  difference  none (the analytic cost is 0)")
				break
			}
			fmt.Fprintf(e.stdout, "  difference  %s\n", signedPercent(c.Difference))
		}
		if c.Note != "" {
			fmt.Fprintf(e.stdout, "  note        %s\n", c.Note)
		}
		for _, n := range primitiveNotes(c, m) {
			fmt.Fprintf(e.stdout, "  note        %s\n", n)
		}
		return compareFailure(c.Result)
	}
}

// primitiveNotes are the notes of the compared primitive's comment
// (eval.Func.Notes), each naming the primitive: what its closed form, or
// the simulation beside it, leaves out.
func primitiveNotes(c *eval.Comparison, m *eval.Machine) []string {
	f, err := m.Func(c.Primitive)
	if err != nil {
		return nil
	}
	var notes []string
	for _, n := range f.Notes() {
		notes = append(notes, c.Primitive+": "+n)
	}
	return notes
}

// newCompareJSON is compare's JSON object of c, with "bisection_exact"
// when the primitive rests on the bisection width of m.
func newCompareJSON(c *eval.Comparison, m *eval.Machine) results.Compare {
	j := results.NewCompare(c, withBisection(c, m).BisectionExact)
	j.Notes = compareNotes(c, m)
	return j
}

// compareNotes are the notes compare's text prints: that the analytic
// cost rests on a bound (beside it), the comparison's note and the
// primitive's own notes.
func compareNotes(c *eval.Comparison, m *eval.Machine) []string {
	var notes []string
	if uses, err := m.Uses(c.Primitive); err == nil {
		notes = append(notes, withUses(jsonValue{}, uses).Notes...)
	}
	if c.Note != "" {
		notes = append(notes, c.Note)
	}
	return append(notes, primitiveNotes(c, m)...)
}

// compareFailure is the exit status of a comparison: 3 when the
// simulation deadlocked, as sim's. A run --max-events stopped exits 0, as
// sim's does: the limit was asked for, and the output says there is no
// simulated figure.
func compareFailure(r *runtime.Result) error {
	if r.Deadlock {
		return &exitError{code: exitDeadlock}
	}
	return nil
}

func messageBytes(n int) string {
	if n == 0 {
		return "empty (0 bytes: no payload)"
	}
	if n < 1000 {
		return fmt.Sprintf("n = %d byte%s", n, plural(n))
	}
	// The size as every command prints one (lang.FormatQuantity) beside
	// the exact count: n = 4096 bytes (4KiB).
	return fmt.Sprintf("n = %d bytes (%s)", n, lang.FormatQuantity(float64(n), lang.SizeDim))
}

// compareTable lists eval.Counterparts for compare --help: the names,
// then the operation, the figure compared and the messages, wrapped.
func compareTable() string {
	var b strings.Builder
	for _, c := range eval.Counterparts {
		text := fmt.Sprintf("op %s, %s: %s", c.Op, c.Metric, c.Traffic)
		if c.Op == "" {
			text = "refused: not a network operation (" + c.NotNetwork + ")"
		}
		fmt.Fprintf(&b, "  %-20s", strings.Join(c.Names, ", "))
		col := 22
		for i, w := range strings.Fields(text) {
			if i > 0 && col+1+len([]rune(w)) > 79 {
				b.WriteString("\n" + strings.Repeat(" ", 22))
				col = 22
			} else if i > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += len([]rune(w))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "  %-20srefused, unless --op names an operation\n", "any other name")
	return b.String()
}
