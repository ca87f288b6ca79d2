package validation

import (
	"context"
	"fmt"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

// modelsVsSim puts the model sections' analytic costs beside the simulated
// operations (eval.Compare, the library call behind `parasol compare`).
// Shown, not asserted: the model sections are estimates, and their
// difference from the simulation is what a modeller wants to see.
func modelsVsSim(t *testing.T) section {
	var rows []row
	for _, c := range []struct {
		machine string
		size    int
		prims   []string
	}{
		{"c104-chain", 4096, []string{"MPI.send", "MPI.reduce"}},
		{"puma", 256, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.gather", "MPI.allgather"}},
		{"xmp64", 32, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.gather", "MPI.allgather", "MPI.alltoall"}},
		{"tiny-t800", 1024, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.gather", "MPI.allgather", "MPI.alltoall"}},
		{"ipsc2", 50, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.gather", "MPI.allgather", "MPI.alltoall"}},
		{"ipsc1", 100, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.alltoall"}},
		{"ncube", 100, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.alltoall"}},
		{"parsytec-gcel", 1024, []string{"MPI.send", "MPI.bcast", "MPI.scatter", "MPI.gather", "MPI.alltoall"}},
		{"sun-pool", 1024, []string{"PVM.send", "PVM.broadcast", "MPI.scatter", "MPI.allgather", "MPI.alltoall"}},
	} {
		m := load(t, "std:"+c.machine)
		spec, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.prims {
			cmp, err := eval.Compare(context.Background(), m, spec, p, runtime.Options{Size: c.size, Seed: 1})
			if err != nil {
				t.Errorf("%s %s: %v", c.machine, p, err)
				continue
			}
			rows = append(rows, check(t, row{
				Quantity: fmt.Sprintf("%s %s, n = %d B (%s)", c.machine, p, c.size, cmp.Metric),
				Seed:     num(cmp.Analytic*1e6) + " us (model section)", SeedVal: cmp.Analytic * 1e6,
				Value: cmp.Simulated * 1e6, Unit: "us",
				Cmd:  fmt.Sprintf("parasol compare std:%s %s --size %d", c.machine, p, c.size),
				Note: "not asserted",
			}))
		}
	}
	return section{
		Title: "The standard machines' model sections beside the simulation",
		Intro: "Not a seed table: the analytic cost of a primitive (its expression in the machine's model section, " +
			"built on std:models and std:analytic) beside the simulated operation, as `parasol compare` prints them. " +
			"Here the seed column holds the analytic value. Point-to-point primitives compare the message latency from " +
			"the first to the last processor, collectives the makespan over all processors.",
		Rows: rows,
		Notes: "Where they differ, the simulation has something the closed form leaves out: contention on shared links " +
			"(all-to-all and allgather on xmp64 and puma, where wormhole worms block each other), the receiver side of a " +
			"gather converging on one link, the binomial tree's uneven step lengths on puma's switch network, or the " +
			"arithmetic of a reduction (the analytic reduce charges op_per_byte, the simulation moves bytes only). " +
			"puma's all-to-all is left out of the table: `parasol sim std:puma --op alltoall --size 256` takes 297 ms " +
			"against a 7.9 ms estimate, because the static `shortest` routing on its irregular graph (processors hanging " +
			"off a switch hypercube) takes the lowest-numbered minimal neighbour first, which is not dimension order, and " +
			"piles up to 3888 messages on one wire; with `--switching vct` it is 124 ms with that wire 100% busy.",
	}
}
