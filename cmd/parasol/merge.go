package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/internal/limits"
)

// mergeCmd is parasol merge.
var mergeCmd = &command{
	name:    "merge",
	summary: "join the outputs of the shards of a sweep or of sim --runs",
	args:    "FILES…",
	doc: `
Merge joins the outputs of the shards of a sweep (parasol sweep --shard
I/N) into exactly the bytes the whole sweep prints: the points in order,
one CSV header. The files are all JSON lines, all CSV or all text, as
the sweep printed them; every point of the sweep must be in exactly one.
A shard's output starts with its study, the line saying which sweep it
is a part of (the machine, the format, every flag that shapes the output
and the --set and --arg axes; in JSON an object with "parasol_study", in
CSV and text a "# parasol study" comment): merge refuses shards of
different sweeps, naming the first difference.

It joins the shards of one simulation's runs (parasol sim --runs R
--shard I/N) the same way: their runs' records are aggregated in run
order into exactly what sim --runs R prints, in the --format the shards
were given. Every shard must be there once.

Example:
  for i in 0 1 2; do parasol sweep std:xmp64 --op alltoall --size 32..4KiB*2 --shard $i/3 --json > part$i.jsonl & done; wait
  parasol merge part0.jsonl part1.jsonl part2.jsonl > sweep.jsonl
  for i in 0 1 2 3; do parasol sim std:xmp64 --op randperm --runs 10000 --json --shard $i/4 > runs$i & done; wait
  parasol merge runs0 runs1 runs2 runs3 > randperm.json`,
	flags: declareMerge,
}

// declareMerge declares merge's flags on fs and returns the function that runs it.
func declareMerge(e *env, fs *flag.FlagSet) func(files []string) error {
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	return func(files []string) error {
		// Every shard's lines are held until the last file is read, about
		// twice the files' bytes.
		var held int64
		if len(files) == 0 {
			return argsError("parasol merge: need the FILES a sharded sweep wrote")
		}
		var lines []results.Line
		var runShards [][]byte
		var header, kindFrom string
		var kind results.Format
		var study1 *results.Study     // the first file's study, from studyFrom
		var studyFrom, noStudy string // noStudy: a file without one
		defaults := sweepDefaults()
		for _, name := range files {
			// A device or FIFO would be read forever or block (issue 8's
			// rule for every input); a shard's output is a regular file.
			if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
				return fmt.Errorf("parasol merge: %s is not a regular file", name)
			}
			data, err := eval.ReadInput(name, maxMemory.bytes())
			if err != nil {
				return fmt.Errorf("parasol merge: %v", err)
			}
			held = limits.Add(held, limits.Mul(2, int64(len(data))))
			if err := limits.Check("merging "+strings.Join(files, ", "), held, maxMemory.bytes()); err != nil {
				return fmt.Errorf("parasol merge: %v", err)
			}
			if results.IsRunShard(data) {
				runShards = append(runShards, data)
				continue
			}
			st, err := results.ReadStudy(name, data, defaults)
			if err != nil {
				return fmt.Errorf("parasol merge: %v", err)
			}
			// An empty file is a shard that printed nothing, of no study.
			if len(data) > 0 {
				if err := sameStudy(studyFrom, study1, name, st, noStudy, defaults); err != nil {
					return err
				}
				if st == nil {
					noStudy = name
				} else if study1 == nil {
					study1, studyFrom = st, name
				}
			}
			ls, h, err := results.ReadSweep(name, data)
			if err != nil {
				return err
			}
			k := results.FormatOf(data)
			switch {
			case k == results.None:
				continue // a shard with no points, as text or JSON
			case kind == results.None:
				header, kind, kindFrom = h, k, name
			case k != kind:
				return fmt.Errorf("parasol merge: %s is %s, %s is %s: merge shards printed in one format", name, k, kindFrom, kind)
			case h != header:
				return fmt.Errorf("parasol merge: %s: the CSV header differs from %s's: not shards of one sweep", name, kindFrom)
			}
			lines = append(lines, ls...)
		}
		switch {
		case len(runShards) == len(files):
			return mergeRunShards(e.stdout, files, runShards)
		case len(runShards) > 0:
			return fmt.Errorf("parasol merge: some files are shards of sim --runs and some of a sweep: merge each kind alone")
		}
		if len(lines) == 0 {
			// Shard 0 holds point 0 of every sweep, so files without a point
			// are never the whole of one.
			return fmt.Errorf("parasol merge: no point of a sweep in %s: a shard is missing or did not finish", strings.Join(files, ", "))
		}
		lines, err := study.Merge(lines)
		var missing *study.MissingError
		if errors.As(err, &missing) {
			return fmt.Errorf("parasol merge: %v", err)
		} else if err != nil {
			return err
		}
		w := bufio.NewWriter(e.stdout)
		w.WriteString(header)
		for _, l := range lines {
			w.Write(l.Text)
		}
		return w.Flush()
	}
}

// sameStudy refuses a shard (name, its study st) of another study than
// the first file's (first, study1), naming the first difference, and a
// mix of outputs with a study and without (noStudy is a file without,
// study1 nil when none before had one); defaults are sweep's flags'.
func sameStudy(first string, study1 *results.Study, name string, st *results.Study, noStudy string, defaults map[string]string) error {
	switch {
	case st != nil && noStudy != "":
		return fmt.Errorf("parasol merge: %s is a shard of a sweep, %s is not (a whole sweep's output, or a shard printed by an older parasol): print every shard with sweep --shard", name, noStudy)
	case st == nil && study1 != nil:
		return fmt.Errorf("parasol merge: %s is a shard of a sweep, %s is not (a whole sweep's output, or a shard printed by an older parasol): print every shard with sweep --shard", first, name)
	case st == nil || study1 == nil:
		return nil
	}
	if a, b, differ := study1.Diff(st, defaults); differ {
		return fmt.Errorf("parasol merge: %s is a sweep of %s, %s of %s: not shards of one sweep", first, a, name, b)
	}
	return nil
}

// sweepDefaults are the default values of sweep's flags, by name, those
// that have one to print.
func sweepDefaults() map[string]string {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	declareSweep(&env{}, fs)
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if f.DefValue != "" {
			out[f.Name] = f.DefValue
		}
	})
	return out
}
