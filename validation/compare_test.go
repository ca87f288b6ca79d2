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

// modelsOwnSimulation holds std:models' closed forms of PVM.multicast,
// Express.concat and Express.combine to their own simulation (issue 27):
// within 10% on std:tiny-t800 at 512 B, where they were +47.9%, +50.2% and
// -9.7% apart: multicast's last message goes to rank k, not avgdist
// links, and recursive doubling's step i crosses hops(0, 2^i) links with
// its doubled block, not `step`. combine's remaining difference is the
// arithmetic, which the simulation does not do: its comment's note says so
// and compare prints it, which the test checks too.
func modelsOwnSimulation(t *testing.T) section {
	m := load(t, "std:tiny-t800")
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for _, c := range []struct {
		prim string
		note bool // the primitive's comment says what the simulation leaves out
	}{{"PVM.multicast", false}, {"Express.multicast", false}, {"Express.concat", false}, {"MPI.allgather", false}, {"Express.combine", true}} {
		cmp, err := eval.Compare(context.Background(), m, spec, c.prim, runtime.Options{Size: 512, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.Func(c.prim)
		if err != nil {
			t.Fatal(err)
		}
		r := row{
			Quantity: fmt.Sprintf("tiny-t800 %s, n = 512 B (%s)", c.prim, cmp.Metric),
			Seed:     num(cmp.Analytic*1e6) + " us (closed form)", SeedVal: cmp.Analytic * 1e6,
			Value: cmp.Simulated * 1e6, Unit: "us", Tol: 0.10,
			Cmd: fmt.Sprintf("parasol compare std:tiny-t800 %s --size 512", c.prim),
		}
		if notes := f.Notes(); c.note != (len(notes) > 0) {
			t.Errorf("%s: notes %q; want a note: %v", c.prim, notes, c.note)
		} else if c.note {
			r.Note = "compare notes: " + notes[0]
		}
		rows = append(rows, check(t, r))
	}
	return section{
		Title: "std:models' closed forms beside their own simulation (std:tiny-t800, 512 B)",
		Intro: "Not a seed table: std:models' closed form of a primitive (the seed column) beside the operation " +
			"`parasol compare` simulates for it, on the 16-processor TINY chain, asserted within 10%. Multicast sends " +
			"to each of the k others in turn, in rank order, so its last message crosses hops(0, k) links; " +
			"recursive doubling (Express concat, MPI allgather) swaps with the partner 2^i ranks away in step i, " +
			"hops(0, 2^i) links with a block of n·2^i bytes.",
		Rows: rows,
		Notes: "Before issue 27 the closed forms used the average distance (multicast's last message) and `step`, the " +
			"mean length of a tree step, for every step of recursive doubling, which is right for combine (its cost is " +
			"linear in the distance) but not for concat, whose largest block crosses the longest distance: +47.9% and " +
			"+50.2%. Express.combine charges the arithmetic (n·op_per_byte a step), which the simulation does not do; " +
			"its comment's `note:` says so and compare prints it (\"notes\" in JSON).",
	}
}
