package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare", "[flags] MACHINE PRIMITIVE", `
Compare prints a model primitive's analytic cost (its expression in the
machine's model section) beside the simulated cost of the same operation,
and their relative difference. The primitive's parameters are filled by
name: n (size, from --size; default 1 KB, or one 4-byte word when the
primitive takes no size), src, dst (from --src, --dst) and p (the number of
processors). Point-to-point primitives compare the mean message latency,
collectives the makespan.

Examples:
  parasol compare std:xmp64 MPI.barrier
  parasol compare std:c104-chain MPI.send --size 4096`)
	var sf simFlags
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object: primitive, args, op, metric, analytic, simulated, difference, result")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkCounts("compare", fs, sf.countFlags()); err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("parasol compare: need MACHINE and PRIMITIVE\nUsage: parasol compare [flags] MACHINE PRIMITIVE")
	}
	opSet, sizeSet := false, false
	fs.Visit(func(f *flag.Flag) {
		opSet = opSet || f.Name == "op"
		sizeSet = sizeSet || f.Name == "size"
	})
	if !opSet {
		sf.op = ""
	}
	if !sizeSet {
		sf.size = -1
	}
	m, rs, err := sf.network(pos[0])
	if err != nil {
		return err
	}
	if err := sf.validate("compare", rs); err != nil {
		return err
	}
	c, err := runtime.Compare(context.Background(), m, rs, pos[1], sf.options())
	if err != nil {
		return optionUsage("compare", err)
	}
	if *asJSON {
		for _, f := range []*float64{&c.Analytic, &c.Simulated, &c.Difference} {
			if r, ok := jsonNumber(*f).(float64); ok {
				*f = r
			}
		}
		return newJSON(e.stdout).Encode(c)
	}
	var argv []string
	for _, p := range c.Params {
		argv = append(argv, fmt.Sprintf("%s=%s", p, lang.FormatNumber(c.Args[p])))
	}
	fmt.Fprintf(e.stdout, "%s(%s) on %s\n", c.Primitive, strings.Join(argv, ", "), m.Name())
	fmt.Fprintf(e.stdout, "  analytic    %s\n", dur(c.Analytic))
	fmt.Fprintf(e.stdout, "  simulated   %s   (%s of op %s, %d run%s)\n", dur(c.Simulated), c.Metric, c.Op, c.Result.Runs, plural(c.Result.Runs))
	diff := 100 * c.Difference
	if diff > -0.005 && diff < 0.005 {
		diff = 0 // no "-0.00%"
	}
	fmt.Fprintf(e.stdout, "  difference  %+.2f%%\n", diff)
	return nil
}
